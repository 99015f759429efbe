"""Type stub for the compiled ``ofc_fast._eval`` (hand-strength tables and kernels).

Overloads follow the runtime: one hand as card text or a sequence of ints
gives a Python ``int``; with ``out`` the result is ``out`` itself.  Otherwise
the result depends on the number of dimensions, which a stub cannot see: one
hand (a 1-D array, a list of card strings) gives ``int``, a batch gives
``ndarray[uint16]`` of the leading shape, so those inputs (ndarrays included)
give the union.
"""
from collections.abc import Sequence
from typing import Final, overload

import numpy as np
import numpy.typing as npt

from ofc_fast.cards import CardError as CardError

_Hand = str | Sequence[int]
_Out = npt.NDArray[np.uint16]

N_JOINT: Final[int]
MAX_DEAL: Final[int]
"""Largest value of the joint row scale (7917)."""

JOINT_CATEGORY: Final[npt.NDArray[np.uint8]]
"""Category code per joint strength (index 0 unused), read-only, shape (7918,)."""

JOINT_SIZE: Final[npt.NDArray[np.uint8]]
"""Row size (3 or 5) per joint strength (index 0 unused), read-only."""

JOINT_RANKS: Final[npt.NDArray[np.int8]]
"""Grouped ranks per joint strength, shape (7918, 5), -1 = none, read-only."""

@overload
def strength5(cards: _Hand, out: None = None) -> int: ...
@overload
def strength5(cards: npt.ArrayLike, out: _Out) -> _Out: ...
@overload
def strength5(cards: npt.ArrayLike, out: None = None) -> int | _Out: ...
@overload
def strength3(cards: _Hand, out: None = None) -> int: ...
@overload
def strength3(cards: npt.ArrayLike, out: _Out) -> _Out: ...
@overload
def strength3(cards: npt.ArrayLike, out: None = None) -> int | _Out: ...
@overload
def row_strength(cards: _Hand, out: None = None) -> int: ...
@overload
def row_strength(cards: npt.ArrayLike, out: _Out) -> _Out: ...
@overload
def row_strength(cards: npt.ArrayLike, out: None = None) -> int | _Out: ...
