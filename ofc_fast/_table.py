"""A table's arguments, checked once for :class:`~ofc_fast.game.Game`,
:meth:`~ofc_fast.game.Game.from_position` and :class:`~ofc_fast.match.Match`:
the players and their names, the button and seats, the per-seat
``fantasyland=`` entries, an explicit deck, per-seat card lists.

Wrong types are :class:`TypeError`; wrong values
:class:`~ofc_fast.errors.ArgumentError` (a deal the deck or the engine cannot
hold: :class:`~ofc_fast.errors.RulesError`), each naming the argument and
quoting the value.

>>> from ofc_fast.rules import as_variant
>>> seats(["ann", "ben"], as_variant("pineapple"))
(2, ('ann', 'ben'))
>>> fantasyland_spec({1: 14}, 2, as_variant("pineapple"))
([0, 14], [0, 1])
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ofc_fast._args import SeedLike, as_array, holds_integers, integer, kernel_seed, seat
from ofc_fast._eval import MAX_DEAL
from ofc_fast._hand import seeded_deck
from ofc_fast.cards import DECK_SIZE, EMPTY, JOKER, MAX_ID, CardError, format_cards, parse_cards
from ofc_fast.deals import deal_option, fantasyland_deals
from ofc_fast.deprecation import UNSET, warn_renamed
from ofc_fast.errors import ArgumentError, RulesError, shorten
from ofc_fast.variants import Variant

__all__ = ["FantasylandLike", "seats", "table_seats", "n_players", "seat", "fantasyland_spec",
           "deck_order", "deck_orders", "card_list", "per_seat"]

FantasylandLike: TypeAlias = (Sequence[int | tuple[int, int] | None]
                              | Mapping[int, int | tuple[int, int] | None] | None)
"""The ``fantasyland=`` argument of :class:`Game` and :class:`Match`: None, or
per seat (a list, or a dict seat -> entry) 0 / None / False (a normal hand),
True (the variant's first fantasyland deal), a card count, or ``(cards,
count)`` for the count-th fantasyland hand in a row."""

_NAMES = {n: tuple(f"player {i}" for i in range(n)) for n in range(2, 5)}


def seats(players: object, v: Variant) -> tuple[int, tuple[str, ...]]:
    """``(n_players, names)`` from a number of players or their names."""
    if type(players) is int and 2 <= players <= 4 and v.min_players <= players <= v.max_players:
        return players, _NAMES[players]          # the common case
    if isinstance(players, (bool, np.bool_)):
        raise TypeError(f"players is a number of players or their names, got {players!r}")
    if isinstance(players, (int, np.integer)):
        n = int(players)
        if not v.min_players <= n <= v.max_players:
            raise ArgumentError(f"{v.name} is played by {v.played_by}, got {shorten(n)}")
        names = tuple(f"player {i}" for i in range(min(n, 4)))
    elif isinstance(players, (str, bytes, Mapping)) \
            or not isinstance(players, (Sequence, np.ndarray)):
        raise TypeError(f"players is a number of players or a sequence of their names, got "
                        f"{shorten(players)}")
    else:
        if isinstance(players, np.ndarray) and players.ndim != 1:
            raise ArgumentError(f"players must have shape (n_players,) (one name per seat), got "
                                f"an array of shape {players.shape}")
        names = tuple(str(p) for p in players)
        n = len(names)
    if not v.min_players <= n <= v.max_players:
        raise ArgumentError(f"{v.name} is played by {v.played_by}, got {n} names")
    if not 2 <= n <= 4:      # a Variant forged around its checks
        raise RulesError(f"a table seats 2 to 4 players, got {n}")
    return n, names


def table_seats(n_players: object, names: object, players: object, v: Variant,
                where: str) -> tuple[int, tuple[str, ...]]:
    """``(n_players, names)`` of a ``Game``/``Match``-style table from its
    ``n_players=`` (a number; None: 2, or as many as ``names``) and
    ``names=`` (one per seat), and the 0.3 spellings: ``players=`` (a
    number or names) and names given as ``n_players``, both deprecated."""
    def is_names(x: object) -> bool:
        return isinstance(x, (Sequence, np.ndarray)) and not isinstance(x, (str, bytes))
    if players is not UNSET:
        warn_renamed(f"{where}(players=...)", f"{where}(n_players=..., names=...)", since="0.4",
                     stacklevel=4)
        if is_names(players) and names is None:
            names = players
        else:
            n_players = players
    elif is_names(n_players):
        warn_renamed(f"{where}(variant, [names...])", f"{where}(variant, names=[...])",
                     since="0.4", stacklevel=4)
        if names is None:
            n_players, names = None, n_players
    if names is None:
        return seats(2 if n_players is None else n_players, v)
    P, given = seats(names, v)
    if n_players is not None and seats(n_players, v)[0] != P:
        raise ArgumentError(f"n_players={shorten(n_players)} but {P} names: "
                            f"{shorten(list(given))}")
    return P, given


def n_players(value: object, v: Variant) -> int:
    """A number of players (an integer the variant seats; not names): what
    ``n_players=`` of the batch engine, self-play and the environments take."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"n_players must be an integer, got {shorten(value)}")
    return seats(int(value), v)[0]


def _entries(spec: object, P: int) -> list[tuple[Any, Any]] | None:
    """``(seat, entry)`` pairs of a ``fantasyland=`` argument (None: nobody)."""
    if spec is None:
        return None
    if isinstance(spec, Mapping):
        return list(spec.items())               # every seat named is checked
    if isinstance(spec, np.ndarray):
        if spec.shape not in ((P,), (P, 2)):
            raise ArgumentError(f"fantasyland must have shape ({P},) or ({P}, 2) (one entry per "
                                f"seat, a count or (cards, count)), got shape {spec.shape}")
        items = list(enumerate(spec.tolist()))
    elif isinstance(spec, (str, bytes)) or not isinstance(spec, Sequence):
        raise TypeError(f"fantasyland must be a list with one entry per seat or a dict "
                        f"seat -> entry, got {shorten(spec)}")
    else:
        if len(spec) != P:
            raise ArgumentError(f"fantasyland needs one entry per player ({P}), got {len(spec)}: "
                                f"{shorten(spec)}")
        items = list(enumerate(spec))
    return items if any(e for _, e in items) else None  # nobody in fantasyland: the usual hand


def fantasyland_spec(spec: object, P: int, v: Variant) -> tuple[list[int], list[int]]:
    """Per-seat ``(cards, count)`` lists from the ``fantasyland=`` argument."""
    cards = [0] * P
    count = [0] * P
    items = _entries(spec, P)
    if items is None:
        return cards, count
    allowed = fantasyland_deals(v)
    for key, entry in items:
        s = seat(key, P, "fantasyland seat")
        if entry is None or entry is False or (isinstance(entry, (int, np.integer)) and entry == 0
                                               and not isinstance(entry, (bool, np.bool_))):
            continue
        if not v.fantasyland:
            raise ArgumentError(f"{v.name} is played without fantasyland, seat {s} cannot be in "
                                f"it (fantasyland[{s}] = {shorten(entry)})")
        if entry is True:       # the first entry tier (not the smallest deal: a repeat's may be)
            n, k = next(int(c) for c in v.entry_cards if c), 1
        elif isinstance(entry, (tuple, list)):
            if len(entry) != 2:
                raise ArgumentError(f"fantasyland seat {s}: expected (cards, count), got "
                                    f"{shorten(entry)}")
            n = integer(entry[0], f"fantasyland seat {s}: cards")
            k = integer(entry[1], f"fantasyland seat {s}: count")
            if n == 0:
                continue
        else:
            n, k = integer(entry, f"fantasyland seat {s}"), 1
        if n not in allowed:
            raise ArgumentError(f"fantasyland seat {s}: {v.name} deals "
                                f"{' or '.join(map(str, allowed))} cards in fantasyland, not {n}")
        if not v.n_cards <= n <= MAX_DEAL:    # only a Variant forged around its checks
            raise RulesError(f"{v.name} with {deal_option(v, n)}: a fantasyland deal is "
                             f"{v.n_cards} .. {MAX_DEAL} cards, not {n}")
        k = integer(k, f"fantasyland seat {s}: count", 1, 255)
        cards[s], count[s] = n, k
    return cards, count


def deck_order(seed: SeedLike, deck: Any, jokers: int = 0) -> npt.NDArray[np.uint8]:
    """The deck a hand deals (52 cards and ``jokers`` jokers, ids 52, 53):
    ``deck`` checked (every card once, text or ids; a joker the variant does
    not deal is a CardError), or deck 0 of the seed's C stream
    (``seeded_deck(kernel_seed(seed), 0, jokers)``, the deck
    ``ofc_fast.sim.GameBatch`` deals in C for the same seed)."""
    size = DECK_SIZE + jokers
    if deck is not None:
        if isinstance(deck, (int, float, bool, np.generic)) or deck is Ellipsis:
            raise TypeError(f"deck must list {size} cards (text or ids), got {shorten(deck)}")
        try:
            d = parse_cards(deck) if isinstance(deck, (str, np.ndarray)) \
                else parse_cards(list(deck))
        except TypeError:
            raise TypeError(f"deck must list {size} cards (text or ids), "
                            f"got {shorten(deck)}") from None
        d = np.ascontiguousarray(d, dtype=np.uint8)
        if d.ndim != 1:
            raise ArgumentError(f"deck must have shape ({size},), got shape {d.shape}")
        _check_deck(d[None, :], size, "deck")
        return d
    return seeded_deck(kernel_seed(seed), 0, jokers)


def _check_deck(d: npt.NDArray[Any], size: int, name: str) -> None:
    """Each row of d lists the deck's cards once (CardError naming the first
    bad row, and a joker the variant does not deal)."""
    bad = (np.sort(d, axis=1) != np.arange(size)).any(axis=1) if d.shape[1] == size \
        else np.ones(len(d), bool)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        where = f"{name}[{k}]" if name == "decks" else name
        extra = d[k][d[k] >= size]
        if size == DECK_SIZE and (extra >= JOKER).any() and (extra <= MAX_ID).any():
            raise CardError(f"{where} holds a joker ({format_cards([int(extra[0])])}), but the "
                            f"variant deals 52 cards without jokers (option jokers=1 or 2)")
        jokers = f" and its {size - DECK_SIZE} joker(s)" if size > DECK_SIZE else ""
        raise CardError(f"{where} must list all {DECK_SIZE} cards{jokers} exactly once "
                        f"({size} cards)" if jokers else
                        f"{where} must list all {DECK_SIZE} cards exactly once")


def deck_orders(decks: Any, n: int, jokers: int = 0) -> npt.NDArray[np.uint8]:
    """``decks=`` of n hands checked: n deck orders of the cards (52 and
    ``jokers`` jokers), each card once (a copy: the caller's array may change)."""
    size = DECK_SIZE + jokers
    d = as_array(decks, "decks")
    if not holds_integers(d):
        raise TypeError(f"decks must be card ids, got {shorten(decks)}")
    if d.shape != (n, size):
        raise ArgumentError(f"decks must have shape ({n}, {size}), got {d.shape}")
    _check_deck(d, size, "decks")
    return np.array(d, np.uint8, order="C")


def card_list(cards: Any, what: str) -> list[int]:
    """Card ids (text or ids) of a hand or discards, as a list."""
    if cards is None:
        return []
    try:
        parsed = parse_cards(cards) if isinstance(cards, (str, np.ndarray)) \
            else parse_cards(list(cards))
    except TypeError:
        raise TypeError(f"{what} must be cards (text or ids), got {shorten(cards)}") from None
    except CardError as e:
        raise CardError(f"{what}: {e}") from None
    arr = np.asarray(parsed)
    if arr.ndim > 1:
        raise ArgumentError(f"{what} must be one list of cards (shape (k,)), got shape "
                            f"{arr.shape}")
    ids = [int(c) for c in arr.reshape(-1)]
    if any(c == EMPTY for c in ids):
        raise CardError(f"{what}: EMPTY (255) is not a card")
    return ids


def per_seat(spec: Any, P: int, what: str) -> list[Any]:
    """One entry per seat from a list of P entries or a dict seat -> entry."""
    if spec is None:
        return [None] * P
    if isinstance(spec, Mapping):
        out = [None] * P
        for k, val in spec.items():
            out[seat(k, P, f"{what} seat")] = val
        return out
    if isinstance(spec, (str, bytes)) or not isinstance(spec, (Sequence, np.ndarray)):
        raise TypeError(f"{what} must be a list with one entry per seat or a dict seat -> "
                        f"cards, got {shorten(spec)}")
    if len(spec) != P:
        raise ArgumentError(f"{what} needs one entry per seat ({P}), got {len(spec)}")
    return list(spec)
