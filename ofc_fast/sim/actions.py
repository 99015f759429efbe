"""The action encoding of external seats: an action is the destination of
every card dealt to the player to act, in deal order, as base ``R + 1``
digits, card 0 the lowest digit (digit ``j``: ``0 .. R - 1`` a row, top
first, or ``R`` a discard).  Digits beyond the cards dealt are 0, so every
move is exactly one action; the action space is ``range((R + 1) ** k)``,
``k`` the most cards a street deals.

>>> action_of((1, 2, -1), "pineapple"), action_rows(57, 3, "pineapple")
(57, (1, 2, -1))
"""
from __future__ import annotations

from collections.abc import Sequence

from ofc_fast._args import (
    integer,
    integers,
)
from ofc_fast._order import action_code, action_dest
from ofc_fast.errors import ArgumentError
from ofc_fast.moves import action_space
from ofc_fast.rules import Variant, as_variant, deal_schedule

__all__ = ["MAX_ACTIONS", "action_size", "action_of", "action_rows"]

MAX_ACTIONS = 1 << 16
"""Largest action space external seats take (masks of this many bools per
game): every variant but ``chinese`` (13 cards at once) fits."""


# ----------------------------------------------------------------- actions
def _rows(v: Variant) -> int:
    return len(v.row_sizes)


def _streets(v: Variant) -> tuple[tuple[int, int], ...]:
    """(dealt, kept) per street of a player's deal."""
    return tuple(deal_schedule(v.first_street, v.streets, v.n_cards))


def action_size(variant: Variant | str) -> int:
    """The number of actions of a variant: ``(R + 1) ** k``, ``R`` its rows and
    ``k`` the most cards one of its streets deals.

    Parameters
    ----------
    variant : Variant or str

    Returns
    -------
    int

    Raises
    ------
    RulesError
        An unknown variant, or one the engine cannot play.

    Examples
    --------
    >>> action_size("pineapple"), action_size("turbo-pineapple"), action_size("big-pineapple")
    (1024, 256, 15625)
    """
    return action_space(as_variant(variant))[1]


def action_of(rows: Sequence[int], variant: Variant | str) -> int:
    """The action of a move: ``rows`` is the destination of each dealt card in
    deal order (a row index, top 0, or ``DISCARD`` = -1), as in
    ``Move.rows`` of :meth:`Game.legal_moves`.

    Parameters
    ----------
    rows : sequence of int
    variant : Variant or str

    Returns
    -------
    int

    Raises
    ------
    ArgumentError
        A row the variant does not have, or more cards than a street deals.
    TypeError
        ``rows`` that are not a sequence of integers.

    Examples
    --------
    >>> action_of((2, 2, 1, 0, 1), "pineapple")     # 2 + 2*4 + 1*16 + 0*64 + 1*256
    282

    In a game, ``Game.legal_moves().action(i)`` is the action of move ``i``
    and ``.from_action(a)`` the move of action ``a``.
    """
    v = as_variant(variant)
    R = _rows(v)
    k = max(d for d, _ in _streets(v))
    dest = integers(rows, "rows", -1, R - 1)
    if len(dest) > k:
        raise ArgumentError(f"a {v.name} street deals at most {k} cards, got {len(dest)} rows")
    return int(action_code(dest, R))


def action_rows(action: int, n_cards: int, variant: Variant | str) -> tuple[int, ...]:
    """The destinations (deal order; ``DISCARD`` = -1) an action gives
    ``n_cards`` dealt cards: the inverse of :func:`action_of`.

    Parameters
    ----------
    action : int
    n_cards : int
        Cards dealt this turn.
    variant : Variant or str

    Returns
    -------
    tuple of int

    Raises
    ------
    ArgumentError
        An action outside the variant's action space, or with a digit
        beyond ``n_cards``.

    Examples
    --------
    >>> action_rows(282, 5, "pineapple")
    (2, 2, 1, 0, 1)
    """
    v = as_variant(variant)
    R = _rows(v)
    size = action_size(v)
    a = integer(action, "action", 0, size - 1)
    n = integer(n_cards, "n_cards", 0, max(d for d, _ in _streets(v)))
    dest = action_dest(a, n, R, size)
    if isinstance(dest, int):
        raise ArgumentError(f"action {action} places more than the {n} cards dealt")
    return dest

