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

from collections.abc import Sequence
from typing import Any

from ofc_fast._args import integer
from ofc_fast._eval import MAX_DEAL
from ofc_fast.errors import RulesError, shorten
from ofc_fast.variants import Variant

__all__ = ["deal_schedule", "fantasyland_deals", "street_total", "check_hand_deal",
           "check_match_deal", "MAX_STREETS", "MAX_DEAL"]

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


def street_total(v: Variant) -> int:
    """Cards the streets deal one player (placed and discarded).

    Parameters
    ----------
    v : Variant

    Returns
    -------
    int

    Raises
    ------
    Nothing

    Examples
    --------
    >>> from ofc_fast.variants import VARIANTS
    >>> street_total(VARIANTS["pineapple"]), street_total(VARIANTS["classic"])
    (17, 13)
    """
    return int(v.first_street) + sum(int(dealt) for dealt, _ in v.streets)


def fantasyland_deals(v: Variant) -> tuple[int, ...]:
    """The fantasyland deals a variant gives, ascending: its entry tiers and,
    when it has repeats, the repeat deal (empty without fantasyland).

    Every size here is ``n_cards .. MAX_DEAL`` (the :class:`Variant` checks
    it), and the engine, the policies and the fantasyland solver take each.

    Parameters
    ----------
    v : Variant

    Returns
    -------
    tuple of int

    Raises
    ------
    Nothing

    Examples
    --------
    >>> from ofc_fast.variants import VARIANTS
    >>> fantasyland_deals(VARIANTS["progressive"]), fantasyland_deals(VARIANTS["chinese"])
    ((14, 15, 16, 17), ())
    """
    if not v.fantasyland:
        return ()
    deals = {int(c) for c in v.entry_cards if c}
    if v.repeat != "none":
        deals.add(int(v.repeat_cards))
    return tuple(sorted(deals))


def deal_option(v: Variant, n: int) -> str:
    """The option a fantasyland deal of n cards comes from (for messages)."""
    names = []
    if n in v.entry_cards:
        names.append(f"entry_cards {tuple(v.entry_cards)!r}")
    if n == v.repeat_cards:
        names.append(f"repeat_cards {v.repeat_cards}")
    return " and ".join(names) or f"a fantasyland deal of {n}"


def check_hand_deal(v: Variant, street: int, fl_cards: Sequence[int]) -> None:
    """One hand's deal must fit the deck: each seat dealt its fantasyland deal
    (``fl_cards[p]``, 0 = none) or ``street`` cards.

    Parameters
    ----------
    v : Variant
    street : int
        Cards the streets deal one player (:func:`street_total`).
    fl_cards : sequence of int
        Per seat, its fantasyland deal (0: plays the streets).

    Returns
    -------
    None

    Raises
    ------
    RulesError
        The deal needs more than the deck's cards, naming the options.

    Examples
    --------
    >>> from ofc_fast.variants import VARIANTS
    >>> check_hand_deal(VARIANTS["progressive"], 17, [17, 0, 0])
    >>> check_hand_deal(VARIANTS["progressive"], 17, [17, 17, 0, 0])
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesError: progressive with entry_cards (0, 14, 15, 16, 17): 4 players
    dealt 17 + 17 + 17 + 17 = 68 cards, more than the 52 in a deck
    """
    deals = [c if c else street for c in fl_cards]
    need = sum(deals)
    if need > v.deck_size:
        opts = sorted({deal_option(v, c) for c in fl_cards if c})
        raise RulesError(f"{v.name} with {', '.join(opts) or f'{street} cards a player'}: "
                         f"{len(deals)} players dealt {' + '.join(map(str, deals))} = {need} "
                         f"cards, more than the {v.deck_size} in a deck")


def check_match_deal(v: Variant, n_players: int) -> None:
    """Every hand of a match must fit the deck: each player dealt the largest
    deal any seat can get (the streets, or a fantasyland deal).

    Parameters
    ----------
    v : Variant
    n_players : int

    Returns
    -------
    None

    Raises
    ------
    RulesError
        Some hand of the match could need more than the deck's cards.

    Examples
    --------
    >>> from ofc_fast.rule_options import variant
    >>> check_match_deal(variant("progressive", entry_cards=(0, 14, 24)), 3)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesError: progressive with entry_cards (0, 14, 24): 3 players can each be
    dealt 24 cards in fantasyland, 72 cards, more than the 52 in a deck; play with fewer
    players or smaller fantasyland deals
    """
    P = n_players
    worst, source = street_total(v), None
    if v.fantasyland:
        entry = max(int(c) for c in v.entry_cards)
        if entry > worst:
            worst, source = entry, f"entry_cards {tuple(v.entry_cards)!r}"
        repeats = v.repeat != "none" and v.repeat_limit != 0
        if repeats and int(v.repeat_cards) > worst:
            worst, source = int(v.repeat_cards), f"repeat_cards {v.repeat_cards}"
    if P * worst > v.deck_size:
        what = f"{source}: {P} players can each be dealt {worst} cards in fantasyland" if source \
            else f"{P} players dealt {worst} cards each"
        raise RulesError(f"{v.name} with {what}, {P * worst} cards, more than the {v.deck_size} "
                         "in a deck; play with fewer players or smaller fantasyland deals")
