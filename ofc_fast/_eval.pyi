"""Type stub for the compiled ``ofc_fast._eval`` (hand-strength tables and kernels).

Overloads follow the runtime: one hand as card text or a sequence of ints
gives a Python ``int``; an ndarray (any number of dimensions) or a nested
sequence of hands gives ``ndarray[uint16]`` of the leading shape; with
``out`` the result is ``out`` itself.  A flat list of card strings may be one
hand or several, so it gives the union.
"""
from collections.abc import Sequence
from typing import Any, Final, overload

import numpy as np
import numpy.typing as npt

_Hand = str | Sequence[int]
_Batch = npt.NDArray[np.integer[Any]] | Sequence[Sequence[int]]
_Out = npt.NDArray[np.uint16]

N_JOINT: Final[int]
"""Largest value of the joint row scale (7917)."""

MAX_DEAL: Final[int]
"""Most cards one player is dealt in one hand (24): the engine's buffers."""

MIN_CHUNK: int
"""Fewest hands per thread when ``n_threads > 1`` (65,536)."""

JOINT_CATEGORY: Final[npt.NDArray[np.uint8]]
"""Category code per joint strength (index 0 unused), read-only, shape (7918,)."""

JOINT_SIZE: Final[npt.NDArray[np.uint8]]
"""Row size (3 or 5) per joint strength (index 0 unused), read-only."""

JOINT_RANKS: Final[npt.NDArray[np.int8]]
"""Grouped ranks per joint strength, shape (7918, 5), -1 = none, read-only."""

@overload
def strength5(cards: _Hand, out: None = None, *, n_threads: int | None = 1) -> int: ...
@overload
def strength5(cards: _Batch, out: None = None, *, n_threads: int | None = 1) -> _Out: ...
@overload
def strength5(cards: npt.ArrayLike, out: _Out, *, n_threads: int | None = 1) -> _Out: ...
@overload
def strength5(cards: npt.ArrayLike, out: None = None, *,
        n_threads: int | None = 1) -> int | _Out: ...
@overload
def strength3(cards: _Hand, out: None = None, *, n_threads: int | None = 1) -> int: ...
@overload
def strength3(cards: _Batch, out: None = None, *, n_threads: int | None = 1) -> _Out: ...
@overload
def strength3(cards: npt.ArrayLike, out: _Out, *, n_threads: int | None = 1) -> _Out: ...
@overload
def strength3(cards: npt.ArrayLike, out: None = None, *,
        n_threads: int | None = 1) -> int | _Out: ...
@overload
def row_strength(cards: _Hand, out: None = None, *, n_threads: int | None = 1) -> int: ...
@overload
def row_strength(cards: _Batch, out: None = None, *, n_threads: int | None = 1) -> _Out: ...
@overload
def row_strength(cards: npt.ArrayLike, out: _Out, *, n_threads: int | None = 1) -> _Out: ...
@overload
def row_strength(cards: npt.ArrayLike, out: None = None, *,
        n_threads: int | None = 1) -> int | _Out: ...
