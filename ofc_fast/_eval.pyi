"""Type stub for the compiled ``ofc_fast._eval`` (hand-strength tables and kernels).

Overloads follow the runtime: one hand as card text or a list/tuple of ints
gives a Python ``int``; an ndarray of hands gives ``ndarray[uint16]`` of the
leading shape.  Two cases a stub cannot separate by type fall back to the
union: a list of strings (cards of one hand, or hands) and nested lists.
Note: a 1-D ndarray (one hand) returns ``int`` at run time although the
ndarray overload says ``NDArray[uint16]``.
"""
from collections.abc import Sequence
from typing import Any, Final, overload

import numpy as np
import numpy.typing as npt

from ofc_fast.cards import CardError as CardError

_Hand = str | Sequence[int]
_Hands = npt.NDArray[np.integer[Any]]
_Out = npt.NDArray[np.uint16]

N_JOINT: Final[int]
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
def strength5(cards: _Hand | _Hands, out: _Out) -> _Out: ...
@overload
def strength5(cards: _Hands, out: _Out | None = None) -> _Out: ...
@overload
def strength5(cards: npt.ArrayLike, out: _Out | None = None) -> int | _Out: ...
@overload
def strength3(cards: _Hand, out: None = None) -> int: ...
@overload
def strength3(cards: _Hand | _Hands, out: _Out) -> _Out: ...
@overload
def strength3(cards: _Hands, out: _Out | None = None) -> _Out: ...
@overload
def strength3(cards: npt.ArrayLike, out: _Out | None = None) -> int | _Out: ...
@overload
def row_strength(cards: _Hand, out: None = None) -> int: ...
@overload
def row_strength(cards: _Hand | _Hands, out: _Out) -> _Out: ...
@overload
def row_strength(cards: _Hands, out: _Out | None = None) -> _Out: ...
@overload
def row_strength(cards: npt.ArrayLike, out: _Out | None = None) -> int | _Out: ...
