"""Hand categories and readable names on the joint row scale.

>>> describe("Qs Js 9s 5s 2s")
'Queen-high flush'
>>> describe("6c 6d Ah")
'Pair of Sixes, Ace kicker'
>>> int(category("Qc Qd 5h")) == PAIR
True
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from ofc_fast._eval import JOINT_CATEGORY, JOINT_RANKS, row_strength
from ofc_fast.cards import parse_cards, substitute_jokers
from ofc_fast.errors import ArgumentError, shorten

__all__ = [
    "HIGH_CARD", "PAIR", "TWO_PAIR", "TRIPS", "STRAIGHT", "FLUSH", "FULL_HOUSE",
    "QUADS", "STRAIGHT_FLUSH", "CATEGORY_NAMES", "category", "describe", "describe_strength",
]

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")

_NAME = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
         "Jack", "Queen", "King", "Ace")
_PLURAL = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines",
           "Tens", "Jacks", "Queens", "Kings", "Aces")


def category(cards: Any) -> int | npt.NDArray[np.uint8]:
    """Category code of 3- or 5-card rows.

    Parameters
    ----------
    cards : str or array_like of int, shape (..., 3) or (..., 5)
        Card text or card ids, as for :func:`row_strength`.

    Returns
    -------
    int or ndarray of uint8, shape (...)
        ``HIGH_CARD`` (0) .. ``STRAIGHT_FLUSH`` (8); a top row is at most
        ``TRIPS``.

    Raises
    ------
    CardError
        For bad or repeated cards, naming the first bad hand.

    Examples
    --------
    >>> category("Qc Qd 5h") == PAIR
    True
    >>> category([[0, 5, 10, 15, 16], [51, 47, 43, 39, 35]]).tolist()
    [4, 8]
    """
    s = row_strength(cards)
    out = JOINT_CATEGORY[s]
    return int(out) if np.ndim(out) == 0 else out


def _kickers(ranks: list[int]) -> str:
    if not ranks:
        return ""
    if len(ranks) == 1:
        return f", {_NAME[ranks[0]]} kicker"
    return ", " + "-".join(_NAME[r] for r in ranks) + " kickers"


@functools.cache
def describe_strength(joint: int) -> str:
    """Readable name of one joint-scale strength.

    Parameters
    ----------
    joint : int
        A row strength on the joint scale, 1 .. 7917 (:func:`row_strength`).

    Returns
    -------
    str

    Raises
    ------
    TypeError
        If ``joint`` is not an integer.
    ArgumentError
        If it is outside 1 .. 7917.

    Examples
    --------
    >>> describe_strength(7917)
    'Royal Flush'
    """
    if isinstance(joint, (bool, np.bool_)) or not isinstance(joint, (int, np.integer)):
        raise TypeError(f"a row strength is an integer, got {shorten(joint)}")
    joint = int(joint)
    if not 1 <= joint < len(JOINT_CATEGORY):
        raise ArgumentError(f"{joint} is not a row strength (1 .. {len(JOINT_CATEGORY) - 1})")
    cat = int(JOINT_CATEGORY[joint])
    r = [int(x) for x in JOINT_RANKS[joint] if x >= 0]
    if cat == HIGH_CARD:
        return f"{_NAME[r[0]]}-high" + _kickers(r[1:])
    if cat == PAIR:
        return f"Pair of {_PLURAL[r[0]]}" + _kickers(r[1:])
    if cat == TWO_PAIR:
        return f"Two Pair, {_PLURAL[r[0]]} and {_PLURAL[r[1]]}" + _kickers(r[2:])
    if cat == TRIPS:
        return f"Three {_PLURAL[r[0]]}" + _kickers(r[1:])
    if cat == STRAIGHT:
        return f"{_NAME[r[0]]}-high straight"
    if cat == FLUSH:
        return f"{_NAME[r[0]]}-high flush"
    if cat == FULL_HOUSE:
        return f"Full House, {_PLURAL[r[0]]} full of {_PLURAL[r[1]]}"
    if cat == QUADS:
        return f"Four {_PLURAL[r[0]]}" + _kickers(r[1:])
    return "Royal Flush" if r[0] == 12 else f"{_NAME[r[0]]}-high straight flush"


@overload
def describe(cards: str | Sequence[int], substitutes: Any = None) -> str: ...
@overload
def describe(cards: Sequence[Sequence[int]],
             substitutes: Any = None) -> npt.NDArray[np.object_]: ...
@overload
def describe(cards: Any, substitutes: Any = None) -> str | npt.NDArray[np.object_]: ...
def describe(cards: Any, substitutes: Any = None) -> str | npt.NDArray[np.object_]:
    """Readable name of a 3- or 5-card row, or an array of names for a batch.

    Parameters
    ----------
    cards : str or array_like of int, shape (..., 3) or (..., 5)
        Card text or card ids, as for :func:`row_strength`.
    substitutes : array_like of int, shape (..., jokers), optional
        The natural card each joker stands for (``Evaluation.substitutes``;
        docs/jokers.md): the row is named as resolved.  A row with a joker
        needs them.

    Returns
    -------
    str or ndarray of object, shape (...)
        ``"Pair of Sixes, Ace kicker"``, ``"Royal Flush"``, ...: a ``str``
        for one hand (card text, a list of ids, a 1-D array), an array of
        names of the leading shape for a batch (a list of hands, an array
        of two or more dimensions).  Type checkers see ``str`` for text or a
        list of ints and an array for a list of lists.

    Raises
    ------
    CardError
        For bad or repeated cards, naming the first bad hand; a joker
        without a substitute.
    ArgumentError
        Substitutes of a shape that does not match.

    Examples
    --------
    >>> describe("As Ks Qs Js Ts")
    'Royal Flush'
    >>> describe(["Ah Ad Ac", "Kc Kd 2h"]).tolist()
    ['Three Aces', 'Pair of Kings, Deuce kicker']
    >>> describe("Qs X1 5h", substitutes=[42])
    'Pair of Queens, Five kicker'
    """
    if substitutes is not None:
        cards = substitute_jokers(parse_cards(cards), substitutes)
        if np.ndim(cards) == 1:
            cards = cards.tolist()
    s = row_strength(cards)
    if np.ndim(s) == 0:               # one hand, whatever form it came in
        return describe_strength(int(s))
    names: npt.NDArray[np.object_] = np.vectorize(describe_strength, otypes=[object])(s)
    return names
