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
import operator
import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, TypeAlias, cast

import numpy as np
import numpy.typing as npt

from ofc_fast.errors import ArgumentError, OFCError, shorten

__all__ = ["integer", "integers", "flag", "choice", "instance", "number", "points", "seat",
           "as_array", "broadcast", "holds_integers",
           "n_threads", "seed_sequence", "kernel_seed", "seed_entropy", "seed_words",
           "fits_memory", "out_array", "no_unknown", "int_array", "MAX_THREADS",
           "MAX_POINTS", "SeedLike"]

MAX_THREADS = 256
"""Most threads one call may ask for."""

MAX_POINTS = 1_000_000
"""Largest ``|points|`` of a points argument (a fantasyland value, a foul
cost): far from any int32 sum the kernels make of it."""

_Entropy: TypeAlias = int | np.integer[Any] | Sequence[int] | np.random.SeedSequence | None
SeedLike: TypeAlias = _Entropy | np.random.Generator
"""What a ``seed=`` argument takes: None (fresh entropy), an integer >= 0, a
sequence of them, a :class:`numpy.random.SeedSequence` or a
:class:`numpy.random.Generator`."""


def _is_bool(value: object) -> bool:
    return isinstance(value, (bool, np.bool_))


def _count(n: int) -> str:
    """An integer for a message: digits grouped, a huge one cut short."""
    text = f"{n:,}"
    return text if len(text) <= 40 else shorten(n)


def integer(value: object, name: str, lo: int | None = None, hi: int | None = None, *,
            floats: bool = False, error: type[OFCError] = ArgumentError,
            type_error: type[Exception] = TypeError) -> int:
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
    type_error : type
        The error class of a wrong type (default :class:`TypeError`; rule
        options, which also come from files, use
        :class:`~ofc_fast.errors.RulesTypeError`).

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
    >>> integer(5, "players", 2, 4)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: players must be 2 .. 4, got 5
    >>> integer(True, "players")
    Traceback (most recent call last):
    ...
    TypeError: players must be an integer, got True
    """
    if type(value) is int:                       # the common case, first
        n = value
    elif _is_bool(value):
        raise type_error(f"{name} must be an integer, got {value!r}")
    elif isinstance(value, (int, np.integer)):
        n = int(value)
    elif floats and isinstance(value, (float, np.floating)):
        if not (math.isfinite(value) and float(value).is_integer()):
            raise error(f"{name} must be an integer, got {value!r}")
        n = int(value)
    else:
        raise type_error(f"{name} must be an integer, got {shorten(value)}")
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        if lo is not None and hi is not None:
            raise error(f"{name} must be {lo:,} .. {hi:,}, got {_count(n)}")
        if lo is not None:
            raise error(f"{name} must be at least {lo:,}, got {_count(n)}")
        raise error(f"{name} must be at most {hi:,}, got {_count(n)}")
    return n


def integers(values: object, name: str, lo: int | None = None, hi: int | None = None, *,
             size: int | None = None, floats: bool = False,
             error: type[OFCError] = ArgumentError,
             type_error: type[Exception] = TypeError) -> tuple[int, ...]:
    """A sequence of integers, each checked by :func:`integer` (named
    ``name[i]``), optionally exactly ``size`` of them.

    Examples
    --------
    >>> integers([0, 14.0], "entry_cards", 0, 255, floats=True)
    (0, 14)
    >>> integers([1, 2], "streets[0]", 1, 24, size=3)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: streets[0] needs 3 values, got 2
    """
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
        raise type_error(f"{name} must be a sequence of integers, got {shorten(values)}")
    items = cast("Iterable[object]", values)
    out = tuple(integer(v, f"{name}[{i}]", lo, hi, floats=floats, error=error,
                        type_error=type_error) for i, v in enumerate(items))
    if size is not None and len(out) != size:
        raise error(f"{name} needs {size} values, got {len(out)}")
    return out


def seat(value: object, n_players: int, name: str = "seat") -> int:
    """A seat of a table of ``n_players``: an integer ``0 .. n_players - 1``.

    Examples
    --------
    >>> seat(np.int64(1), 2)
    1
    >>> seat(0.5, 2, "to_act")
    Traceback (most recent call last):
    ...
    TypeError: to_act must be an integer seat 0 .. 1, got 0.5
    >>> seat(3, 3, "button")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: no seat 3 at a table of 3: button must be 0 .. 2
    """
    if type(value) is int and 0 <= value < n_players:      # the common case
        return value
    if _is_bool(value) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer seat 0 .. {n_players - 1}, got "
                        f"{shorten(value)}")
    if not 0 <= value < n_players:
        raise ArgumentError(f"no seat {_count(int(value))} at a table of {n_players}: {name} "
                            f"must be 0 .. {n_players - 1}")
    return int(value)


def flag(value: object, name: str, *, type_error: type[Exception] = TypeError) -> bool:
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
    raise type_error(f"{name} must be True or False, got {shorten(value)}")


def choice(value: object, name: str, valid: Iterable[str], *, what: str | None = None,
           error: type[OFCError] = ArgumentError,
           type_error: type[Exception] = TypeError) -> str:
    """``value`` if it is one of ``valid`` (text), else an error listing them.

    With ``what`` (a kind of thing: ``"variant"``) the message reads
    ``unknown variant 'x'; valid: ...``; otherwise ``name must be one of ...``.

    Examples
    --------
    >>> choice("pandas", "kind", ["pandas", "polars"])
    'pandas'
    >>> choice("spark", "kind", ["pandas", "polars"])
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: kind must be one of pandas, polars; got 'spark'
    >>> choice("best2", "policy", ["random", "best"], what="rollout policy")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: unknown rollout policy 'best2'; valid: random, best
    """
    if isinstance(value, str) and isinstance(valid, Collection) and value in valid:
        return value                             # the common case: no tuple built
    options = tuple(valid)
    if isinstance(value, str) and value in options:
        return value
    if what is not None:
        text = f"unknown {what} {shorten(value)}; valid: {', '.join(options)}"
    else:
        text = f"{name} must be one of {', '.join(options)}; got {shorten(value)}"
    raise (error if isinstance(value, str) else type_error)(text)


def instance(value: object, name: str, types: type | tuple[type, ...], what: str, *,
             none: bool = False) -> Any:
    """``value`` if it is one of ``types`` (or None, with ``none``), else a
    TypeError saying what the argument takes: an object argument is checked
    where it is given, not found wrong later as an ``AttributeError`` quoted
    in some record's error.

    Examples
    --------
    >>> instance("pineapple", "variant", str, "a variant name", none=True)
    'pineapple'
    >>> instance(5, "rules", dict, "a Rules (ofc_fast.records.Rules)")
    Traceback (most recent call last):
    ...
    TypeError: rules must be a Rules (ofc_fast.records.Rules), got 5
    """
    if isinstance(value, types) or (none and value is None):
        return value
    raise TypeError(f"{name} must be {what}{' or None' if none else ''}, got {shorten(value)}")


def number(value: object, name: str, lo: float | None = None, hi: float | None = None, *,
           above: float | None = None) -> float:
    """``value`` as a finite float within ``lo .. hi`` (inclusive) and, with
    ``above``, strictly greater than it.

    Examples
    --------
    >>> number(2, "stake", lo=0)
    2.0
    >>> number(0, "time_budget_ms", above=0)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: time_budget_ms must be a finite number > 0, got 0
    >>> number("3", "z", lo=0)
    Traceback (most recent call last):
    ...
    TypeError: z must be a number, got '3'
    """
    if _is_bool(value) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {shorten(value)}")
    try:
        x = float(value)
    except OverflowError:                        # an int beyond any float
        x = math.inf
    if not math.isfinite(x) or (lo is not None and x < lo) or (hi is not None and x > hi) \
            or (above is not None and x <= above):
        if lo is not None and hi is not None and lo == -hi:
            want = f" within +-{hi:,.0f}"
        else:
            parts = [f">= {lo:g}" if lo is not None else "",
                     f"> {above:g}" if above is not None else "",
                     f"<= {hi:g}" if hi is not None else ""]
            want = "".join(f" {p}" for p in parts if p)
        raise ArgumentError(f"{name} must be a finite number{want}, got {shorten(value)}")
    return x


def points(value: object, name: str, bound: float = MAX_POINTS) -> float:
    """A finite number of points within ``+-bound`` (a fantasyland value, a
    foul cost).

    Examples
    --------
    >>> points(25, "fantasyland_value")
    25.0
    >>> points(float("nan"), "foul_cost")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: foul_cost must be a finite number within +-1,000,000, got nan
    """
    return number(value, name, -bound, bound)


def as_array(value: object, name: str) -> npt.NDArray[Any]:
    """``value`` as a numpy array (``np.asarray``), or an ArgumentError naming
    the argument for what numpy cannot make one array of: a ragged nested
    sequence (numpy's "inhomogeneous shape" ValueError).

    Parameters
    ----------
    value : array_like
    name : str
        The argument's name.

    Returns
    -------
    ndarray

    Raises
    ------
    ArgumentError
        ``value`` is not one array (rows of different lengths).

    Examples
    --------
    >>> as_array([[1, 2], [3, 4]], "hands").shape
    (2, 2)
    >>> as_array([[1, 2], [3]], "hands")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: hands must be one array, of rows of one length (not a
    ragged nested sequence), got [[1, 2], [3]]
    """
    try:
        return np.asarray(value)
    except ValueError:
        raise ArgumentError(f"{name} must be one array, of rows of one length (not a ragged "
                            f"nested sequence), got {shorten(value)}") from None


def broadcast(value: object, shape: tuple[int, ...], name: str, dims: str) -> npt.NDArray[Any]:
    """``value`` as an array of ``shape`` by numpy's broadcasting rules (a
    read-only view), or an ArgumentError naming both shapes: a per-item
    argument is taken by its shape, never by its size.

    Parameters
    ----------
    value : array_like
    shape : tuple of int
        The documented shape.
    name : str
        The argument's name.
    dims : str
        What the shape's axes are, for the message (``"tables, players"``).

    Returns
    -------
    ndarray

    Raises
    ------
    ArgumentError
        ``value`` does not broadcast to ``shape`` (or is ragged).

    Examples
    --------
    >>> broadcast([1, 0], (3, 2), "in_fantasyland", "tables, players").tolist()
    [[1, 0], [1, 0], [1, 0]]
    >>> broadcast(np.zeros((2, 3)), (3, 2), "in_fantasyland", "tables, players")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: in_fantasyland must broadcast to shape (3, 2) (tables,
    players), got shape (2, 3)
    """
    arr = as_array(value, name)
    try:
        return np.broadcast_to(arr, shape)
    except ValueError:
        raise ArgumentError(f"{name} must broadcast to shape {shape} ({dims}), got shape "
                            f"{arr.shape}") from None


def holds_integers(arr: npt.NDArray[Any]) -> bool:
    """Whether an array is one of integers: a signed or unsigned integer dtype
    (numpy also files ``timedelta64`` under ``np.integer``; a bool is not one),
    or no values at all of any dtype but bool (``np.asarray([])`` is float64).

    Examples
    --------
    >>> holds_integers(np.arange(3)), holds_integers(np.asarray([]))
    (True, True)
    >>> holds_integers(np.zeros(2, "m8[s]")), holds_integers(np.zeros(2, bool))
    (False, False)
    """
    return arr.dtype.kind in "iu" or (arr.size == 0 and arr.dtype.kind != "b")


def int_array(values: object, name: str, shape: tuple[int, ...], lo: int | None = None,
              hi: int | None = None) -> npt.NDArray[np.int64]:
    """``values`` as a contiguous int64 array of exactly ``shape``, each within
    ``lo .. hi`` (a batch of actions, of indexes).

    Examples
    --------
    >>> int_array(np.array([3, 0], np.uint8), "actions", (2,), 0, 3).tolist()
    [3, 0]
    >>> int_array([1.0, 2.0], "actions", (2,))
    Traceback (most recent call last):
    ...
    TypeError: actions must be integers, got [1.0, 2.0]
    >>> int_array([1, 7], "actions", (2,), 0, 3)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: actions must be 0 .. 3, got 7 (at 1)
    """
    arr = as_array(values, name)
    if not holds_integers(arr):
        raise TypeError(f"{name} must be integers, got {shorten(values)}")
    if arr.shape != shape:
        raise ArgumentError(f"{name} must have shape {shape}, got shape {arr.shape}")
    if arr.size:
        bad = np.zeros(arr.shape, bool)
        if lo is not None:
            bad |= arr < lo
        if hi is not None:
            bad |= arr > hi
        if bad.any():
            at = np.unravel_index(int(np.flatnonzero(bad)[0]), arr.shape)
            where = at[0] if len(at) == 1 else at
            raise ArgumentError(f"{name} must be {lo if lo is not None else '...'} .. "
                                f"{hi if hi is not None else '...'}, got {arr[at]} (at {where})")
    return np.ascontiguousarray(arr, np.int64)


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
    elif _is_bool(value) or not hasattr(value, "__index__"):
        raise TypeError(f"n_threads must be an integer >= 1 or None, got {shorten(value)}")
    else:
        k = operator.index(value)  # pyright: ignore[reportArgumentType]
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


def seed_entropy(seed: SeedLike) -> list[int]:
    """The entropy a ``seed=`` of many games stands for, as a list of
    integers >= 0: game (or partition) ``i`` plays the seed ``[*entropy,
    i]``.  None draws fresh entropy (once, here); a SeedSequence with a
    spawn key and a Generator stand for their :func:`kernel_seed`.

    Examples
    --------
    >>> seed_entropy(5), seed_entropy([1, 2]), seed_entropy(np.random.SeedSequence(9))
    ([5], [1, 2], [9])
    """
    if seed is None:
        return [int(np.random.SeedSequence().entropy)]      # type: ignore[arg-type]
    if isinstance(seed, np.random.Generator) or (
            isinstance(seed, np.random.SeedSequence) and (seed.spawn_key or seed.entropy is None
                                                          or not isinstance(seed.entropy, int))):
        return [kernel_seed(seed)]
    if isinstance(seed, np.random.SeedSequence):
        return [int(seed.entropy)]      # type: ignore[arg-type]
    seed_sequence(seed)                 # the checks (types, negative values)
    if isinstance(seed, (int, np.integer)):
        return [int(seed)]
    flat = list(np.asarray(seed, dtype=object).reshape(-1))
    return [integer(s, "seed", 0) for s in flat]


def seed_words(entropy: Sequence[int]) -> npt.NDArray[np.uint32]:
    """The 32-bit words numpy's SeedSequence makes of entropy integers (the C
    kernels compute the same keys from them: ``ofc_seed_key``).

    Examples
    --------
    >>> seed_words([1, 2**32 + 5]).tolist()
    [1, 5, 1]
    """
    out = []
    for x in entropy:
        out.append(x & 0xFFFFFFFF)      # an integer is at least one word (0 too)
        x >>= 32
        while x:
            out.append(x & 0xFFFFFFFF)
            x >>= 32
    return np.array(out, np.uint32)


def _address_space_left() -> int | None:
    """Bytes the process may still map under its address-space limit
    (``ulimit -v``, RLIMIT_AS), or None without one."""
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, AttributeError, ValueError, OSError):   # no limit to read
        return None
    return soft - mapped


def fits_memory(need: int, what: str) -> None:
    """A MemoryError, before anything is allocated, for arrays bigger than the
    machine's memory, or than the process may still map under its
    address-space limit (numpy's zeros are only reserved, so they would be
    filled until the machine runs out; under a limit numpy says only
    "Unable to allocate").

    Examples
    --------
    >>> fits_memory(1 << 20, "a small batch")
    >>> fits_memory(1 << 62, "4.6e18 bytes")
    Traceback (most recent call last):
    ...
    MemoryError: 4.6e18 bytes need about 4,294,967,296.0 GiB; this machine has ...
    """
    try:
        have = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):   # no sysconf (Windows): numpy's error
        return
    left = _address_space_left()
    if have > 0 and need > have:
        limit = f"this machine has {have / 2**30:,.1f} GiB"
    elif left is not None and need > left:
        limit = (f"the process may map {max(left, 0) / 2**30:,.1f} GiB more (its "
                 f"address-space limit, ulimit -v)")
    else:
        return
    raise MemoryError(f"{what} need about {need / 2**30:,.1f} GiB; {limit}")


def out_array(out: object, shape: tuple[int, ...], dtype: npt.DTypeLike,
              name: str = "out", *, contiguous: bool = True) -> npt.NDArray[Any]:
    """A result buffer: a new array, or ``out`` checked the numpy way
    (TypeError for what is not an array or has another dtype,
    ArgumentError for another shape, a read-only array, or a non-contiguous
    one unless ``contiguous=False``: the caller writes through a copy).

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
    if not out.flags.writeable:
        raise ArgumentError(f"{name} is read-only")
    if contiguous and not out.flags.c_contiguous:
        raise ArgumentError(f"{name} must be C-contiguous")
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
