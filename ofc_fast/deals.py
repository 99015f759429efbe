"""The deal's ranges: how many cards a player is dealt on each street
(:func:`deal_schedule`, checked against the engine's buffers) and in
fantasyland, and whether a table's deal fits the deck.

The engine, the policies and the fantasyland solver all read a variant's
deals here, so what :func:`~ofc_fast.rules.variant` accepts is what they
play.

>>> deal_schedule(5, ((3, 2),) * 4, 13)[:2]
((5, 5), (3, 2))
"""
from __future__ import annotations

from typing import Any

from ofc_fast._args import integer
from ofc_fast._eval import MAX_DEAL
from ofc_fast.errors import RulesError, shorten

__all__ = ["deal_schedule", "MAX_STREETS", "MAX_DEAL"]

MAX_STREETS = 64
"""Most streets (the first included) a deal schedule may list: the size of
the engine's per-hand schedule buffers."""


def deal_schedule(first_street: Any, streets: Any,
                  n_cards: int) -> tuple[tuple[int, int], ...]:
    """A deal as ``((dealt, kept), ...)``, the first street first, checked
    against the layout (``n_cards`` placed) and the engine's buffers
    (:data:`MAX_DEAL` cards a player, :data:`MAX_STREETS` streets).

    A :class:`Variant` checks its own deal; this check serves the engine,
    which also meets variants forged around that check.

    Parameters
    ----------
    first_street : int
        Cards dealt (and placed) on the first street.
    streets : sequence of (dealt, kept) pairs
        The later streets.
    n_cards : int
        Cards of the layout (13 or 18).

    Returns
    -------
    tuple of (int, int)

    Raises
    ------
    RulesError
        For a schedule that does not place exactly the layout, or deals more
        than the engine holds.
    TypeError
        For counts that are not integers.

    Examples
    --------
    >>> deal_schedule(5, ((3, 2),) * 4, 13)
    ((5, 5), (3, 2), (3, 2), (3, 2), (3, 2))
    """
    try:
        sched = [(first_street, first_street)] + [tuple(x) for x in streets]
    except TypeError:
        raise RulesError(f"streets must be a sequence of (dealt, kept) pairs, got "
                         f"{shorten(streets)}") from None
    if len(sched) > MAX_STREETS:
        raise RulesError(f"{len(sched) - 1} streets after the first: more than a hand can have")
    out = []
    for s, street in enumerate(sched):
        if len(street) != 2:
            raise RulesError(f"streets[{s - 1}] must be a (dealt, kept) pair, got "
                             f"{shorten(street)}")
        what = "first_street" if s == 0 else f"streets[{s - 1}]"
        dealt = integer(street[0], what + " dealt", 1, MAX_DEAL, error=RulesError)
        kept = integer(street[1], what + " kept", 0, dealt, error=RulesError)
        out.append((dealt, kept))
    placed = sum(k for _, k in out)
    if placed != n_cards:
        raise RulesError(f"the streets place {placed} cards; the layout has {n_cards}")
    total = sum(d for d, _ in out)
    if total > MAX_DEAL:
        raise RulesError(f"the streets deal {total} cards to a player; at most "
                         f"{MAX_DEAL} fit the engine")
    return tuple(out)
