"""Checks of the arguments public calls take: one place, one wording.

Every public function validates its arguments here, before any work, so the
Python API refuses exactly what the command line refuses, with the same
message.  Two rules, as numpy's: a wrong *type* is a :class:`TypeError`; a
wrong *value* (out of range, not a choice, a wrong shape) is an
:class:`~ofc_fast.errors.ArgumentError` (an ``OFCError``, so a
``ValueError``), or the error class the caller names (``error=RulesError``
for rule options).  Messages name the argument and quote the value briefly.

>>> integer(3.0, "n", 1, floats=True)
3
>>> integer(0, "n", 1)
Traceback (most recent call last):
...
ofc_fast.errors.ArgumentError: n must be at least 1, got 0
>>> choice("csv", "format", ("jsonl", "csv", "parquet"))
'csv'
"""
from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from ofc_fast.errors import ArgumentError, OFCError, shorten

__all__ = ["integer", "flag", "choice", "points", "n_threads", "seed_sequence", "kernel_seed",
           "out_array", "no_unknown", "MAX_THREADS", "SeedLike"]

MAX_THREADS = 256
"""Most threads one call may ask for."""

SeedLike = Any
"""A ``seed=`` argument: None, an int >= 0, a sequence of them, a
:class:`numpy.random.SeedSequence` or a :class:`numpy.random.Generator`."""


def _is_bool(value: object) -> bool:
    return isinstance(value, (bool, np.bool_))


def integer(value: object, name: str, lo: int | None = None, hi: int | None = None, *,
            floats: bool = False, error: type[OFCError] = ArgumentError) -> int:
    """``value`` as an int within ``lo .. hi``.

    Parameters
    ----------
    value : object
        What the caller gave: an int or numpy integer (a whole float too
        with ``floats``); never a bool.
    name : str
        The argument's name, for the message.
    lo, hi : int or None
        The smallest and largest values allowed (None: no bound).
    floats : bool
        Accept a float that is a whole number (``2.0``).
    error : type
        The error class of a wrong value (default :class:`ArgumentError`).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        Not an integer (bools, text, None; floats unless ``floats``).
    ArgumentError
        Out of range, or a float that is not whole (``error`` if given).

    Examples
    --------
    >>> integer(np.int8(4), "players", 2, 4)
    4
    >>> integer(True, "players")
    Traceback (most recent call last):
    ...
    TypeError: players must be an integer, got True
    """
    if type(value) is int:                       # the common case, first
        n = value
    elif _is_bool(value):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    elif isinstance(value, (int, np.integer)):
        n = int(value)
    elif floats and isinstance(value, (float, np.floating)):
        if not (math.isfinite(value) and float(value).is_integer()):
            raise error(f"{name} must be a whole number, got {value!r}")
        n = int(value)
    else:
        raise TypeError(f"{name} must be an integer, got {shorten(value)}")
    if lo is not None and n < lo:
        raise error(f"{name} must be at least {lo:,}, got {shorten(n)}")
    if hi is not None and n > hi:
        raise error(f"{name} must be at most {hi:,}, got {shorten(n)}")
    return n


def flag(value: object, name: str) -> bool:
    """A yes/no argument: a bool, a numpy bool, or the integers 0 and 1.

    Examples
    --------
    >>> flag(1, "skip_bad"), flag(np.False_, "skip_bad")
    (True, False)
    >>> flag("yes", "skip_bad")
    Traceback (most recent call last):
    ...
    TypeError: skip_bad must be True or False, got 'yes'
    """
    if _is_bool(value):
        return bool(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {shorten(value)}")


def choice(value: object, name: str, valid: Iterable[str], *,
           error: type[OFCError] = ArgumentError) -> str:
    """``value`` if it is one of ``valid`` (text), else an error listing them.

    Examples
    --------
    >>> choice("pandas", "kind", ["pandas", "polars"])
    'pandas'
    >>> choice("spark", "kind", ["pandas", "polars"])
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: kind must be one of pandas, polars; got 'spark'
    """
    options = tuple(valid)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {', '.join(options)}; got {shorten(value)}")
    if value not in options:
        raise error(f"{name} must be one of {', '.join(options)}; got {shorten(value)}")
    return value


def points(value: object, name: str, bound: float) -> float:
    """A finite number of points within ``+-bound`` (a fantasyland value, a
    foul cost).

    Examples
    --------
    >>> points(25, "fantasyland_value", 1e6)
    25.0
    """
    if _is_bool(value) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {shorten(value)}")
    x = float(value)
    if not math.isfinite(x) or abs(x) > bound:
        raise ArgumentError(f"{name} must be a finite number of points within +-{bound:,.0f}, "
                            f"got {shorten(value)}")
    return x


def n_threads(value: object, n_items: int | None = None) -> int:
    """How many threads a call uses: ``value`` checked (1 ..
    :data:`MAX_THREADS`, or None for one per CPU), never more than
    ``n_items``.

    Examples
    --------
    >>> n_threads(4, n_items=2)
    2
    """
    if value is None:
        k = os.cpu_count() or 1
    elif _is_bool(value) or not isinstance(value, SupportsIndex):
        raise TypeError(f"n_threads must be an integer >= 1 or None, got {shorten(value)}")
    else:
        k = value.__index__()
        if not 1 <= k <= MAX_THREADS:
            raise ArgumentError(f"n_threads must be 1 .. {MAX_THREADS} or None, got {k}")
    if n_items is not None:
        k = max(1, min(k, n_items))
    return k


def seed_sequence(seed: object) -> np.random.SeedSequence:
    """A SeedSequence from a ``seed=`` argument (None, an int >= 0, a
    sequence of them, or a SeedSequence, returned as it is).

    Examples
    --------
    >>> seed_sequence(7).entropy
    7
    >>> seed_sequence(-1)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: seed must be an integer >= 0 (or a sequence of them), got -1
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, (bool, np.bool_, float, np.floating, complex, str, bytes)):
        raise TypeError(f"seed must be None, an integer >= 0, a SeedSequence or a Generator, "
                        f"got {shorten(seed)}")
    try:
        return np.random.SeedSequence(seed)     # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"seed must be None, an integer >= 0, a SeedSequence or a "
                        f"Generator, got {shorten(seed)}") from None
    except ValueError:
        raise ArgumentError(f"seed must be an integer >= 0 (or a sequence of them), got "
                            f"{shorten(seed)}") from None


def kernel_seed(seed: SeedLike) -> int:
    """A 64-bit kernel seed from any ``seed=`` argument (a Generator
    advances).

    Examples
    --------
    >>> kernel_seed(7) == kernel_seed(7)
    True
    """
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**63, dtype=np.int64)) * 2 + 1
    return int(seed_sequence(seed).generate_state(1, np.uint64)[0])


def out_array(out: object, shape: tuple[int, ...], dtype: npt.DTypeLike,
              name: str = "out") -> npt.NDArray[Any]:
    """A result buffer: a new array, or ``out`` checked the numpy way
    (TypeError for what is not an array or has another dtype,
    ArgumentError for another shape, a read-only or non-contiguous array).

    Examples
    --------
    >>> out_array(None, (2,), np.int32).shape
    (2,)
    >>> out_array(np.zeros(3, np.int32), (2,), np.int32)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: out must have shape (2,), got (3,)
    """
    want = np.dtype(dtype)
    if out is None:
        return np.empty(shape, want)
    if not isinstance(out, np.ndarray) or isinstance(out, np.ma.MaskedArray):
        raise TypeError(f"{name} must be a numpy array, got {type(out).__name__}")
    if out.dtype != want:
        raise TypeError(f"{name} must have dtype {want.name}, got {out.dtype}")
    if out.shape != shape:
        raise ArgumentError(f"{name} must have shape {shape}, got {out.shape}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ArgumentError(f"{name} must be C-contiguous and writeable")
    return out


def no_unknown(options: Mapping[str, Any], where: str) -> None:
    """Refuse keyword arguments a call does not take (a ``**options`` catch-all
    must not swallow a misspelling).

    Examples
    --------
    >>> no_unknown({"chunksize": 10}, "read_chunks()")
    Traceback (most recent call last):
    ...
    TypeError: read_chunks() got an unexpected keyword argument 'chunksize'
    """
    for key in options:
        raise TypeError(f"{where} got an unexpected keyword argument {key!r}")
