"""Play Open Face Chinese hands and matches (docs/rules.md sections 7-9).

:class:`Game` deals one hand from a seeded 52-card deck and walks the players
through the variant's streets; :class:`Match` plays a sequence of hands with
the button, fantasyland and running scores.  Policies (:class:`RandomPolicy`,
:class:`HeuristicPolicy`, or anything with a ``choose(view, moves)`` method)
decide moves.  The state machine and move enumeration run in the Cython core
``ofc_fast._hand``, the dead-hand search in ``ofc_fast._search``.

>>> g = Game("pineapple", players=3, seed=7)
>>> g.to_act, g.street, len(g.hand)       # left of the button acts first
(1, 0, 5)
>>> result = g.run(RandomPolicy(seed=1))
>>> sum(result.points)                    # zero-sum
0
>>> record = g.record()
>>> record["format"], len(record["players"])
('ofc-hand/1', 3)

Moves
-----
A :class:`Move` names the dealt cards (in deal order) and a destination for
each: a row index (0 = top) or ``DISCARD`` (-1).  :meth:`Game.legal_moves`
returns every distinct placement as a lazy sequence; :meth:`Game.play` also
accepts a mapping such as ``{"bottom": "Kd 7c", "discard": "2s"}``.
"""
from __future__ import annotations

import copy as _copy
import pickle
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ofc_fast._args import seed_sequence
from ofc_fast._hand import MAX_DEAL, HandCore, HandStatus
from ofc_fast.cards import DECK_SIZE, EMPTY, MAX_CARD, CardError, format_cards, parse_cards
from ofc_fast.deprecation import renamed_attribute
from ofc_fast.errors import LayoutError, MoveError, RulesError, StateError, shorten
from ofc_fast.fantasyland import solve_fantasyland
from ofc_fast.layouts import check_layouts
from ofc_fast.moves import (
    AUTO_REASONS,
    DISCARD,
    HandResult,
    Move,
    MoveIndexError,
    MoveList,
    PlayerView,
    Turn,
    hand_error,
    move_from_mapping,
    normalize_move,
)
from ofc_fast.policies import (
    HeuristicPolicy,
    PoliciesLike,
    Policy,
    RandomPolicy,
    resolve_policies,
    seeded_policies,
)
from ofc_fast.records import hand_dict
from ofc_fast.rollouts import (
    SeedLike,
    completion,
    int_arg,
    is_dead,
    play_rules,
    rollout,
    rollout_ev,
)
from ofc_fast.rules import Variant, as_variant, deal_schedule, variant_options
from ofc_fast.scoring import score_tables

__all__ = [
    "DISCARD", "Move", "MoveList", "MoveIndexError", "Game", "Match", "PlayerView", "HandResult",
    "Turn", "Policy", "RandomPolicy", "HeuristicPolicy", "is_dead", "completion", "rollout",
    "rollout_ev", "variant_options", "FantasylandLike",
]

FantasylandLike: TypeAlias = (Sequence[int | tuple[int, int] | None]
                              | Mapping[int, int | tuple[int, int] | None] | None)
"""The ``fantasyland=`` argument of :class:`Game` and :class:`Match`: None, or
per seat (a list, or a dict seat -> entry) 0 / None / False (a normal hand),
True (the variant's first fantasyland deal), a card count, or ``(cards,
count)`` for the count-th fantasyland hand in a row."""

# ---------------------------------------------------------------------------- game
def _fantasyland_deals(v: Variant) -> list[int]:
    """The fantasyland deals a variant can give, ascending (empty without fantasyland)."""
    if not v.fantasyland:
        return []
    return sorted({int(c) for c in v.entry_cards if c} | {int(v.repeat_cards)})


def _fantasyland_spec(spec: object, P: int, v: Variant) -> tuple[list[int], list[int]]:
    """Per-seat (cards, count) from the ``fantasyland=`` argument."""
    cards = [0] * P
    count = [0] * P
    if spec is None:
        return cards, count
    if type(spec) is list or type(spec) is tuple:
        if len(spec) != P:
            raise ValueError(f"fantasyland needs one entry per player ({P}), got {len(spec)}")
        if not any(spec):                  # nobody in fantasyland (a Match's usual hand)
            return cards, count
        items = list(enumerate(spec))
    elif isinstance(spec, Mapping):
        items = list(spec.items())
    elif isinstance(spec, (str, bytes)) or not isinstance(spec, (Sequence, np.ndarray)):
        raise TypeError(f"fantasyland must be a list with one entry per seat or a dict "
                        f"seat -> entry, got {shorten(spec)}")
    else:
        items = list(enumerate(spec))
        if len(items) != P:
            raise ValueError(f"fantasyland needs one entry per player ({P}), got {len(items)}")
    allowed = _fantasyland_deals(v)
    for seat, entry in items:
        seat = int_arg(seat, "fantasyland seat", 0, P - 1)
        if entry is None or entry is False or (isinstance(entry, (int, np.integer)) and entry == 0
                                               and not isinstance(entry, (bool, np.bool_))):
            continue
        if not v.fantasyland:
            raise ValueError(f"{v.name} is played without fantasyland, seat {seat} cannot be in it")
        if entry is True:
            n, k = allowed[0], 1
        elif isinstance(entry, (tuple, list)):
            if len(entry) != 2:
                raise ValueError(f"fantasyland seat {seat}: expected (cards, count), got "
                                 f"{shorten(entry)}")
            n = int_arg(entry[0], f"fantasyland seat {seat}: cards")
            k = int_arg(entry[1], f"fantasyland seat {seat}: count")
            if n == 0:
                continue
        else:
            n, k = int_arg(entry, f"fantasyland seat {seat}"), 1
        if n not in allowed:
            raise ValueError(f"fantasyland seat {seat}: {v.name} deals "
                             f"{' or '.join(map(str, allowed))} cards in fantasyland, not {n}")
        if not v.n_cards <= n <= MAX_DEAL:    # only a Variant forged around its checks
            raise RulesError(f"{v.name} with {_deal_option(v, n)}: a fantasyland deal is "
                             f"{v.n_cards} .. {MAX_DEAL} cards, not {n}")
        if not 1 <= k <= 255:
            raise ValueError(f"fantasyland seat {seat}: count must be 1 .. 255, got {k}")
        cards[seat], count[seat] = n, k
    return cards, count


def _street_total(v: Variant) -> int | None:
    """Cards the streets deal one player (None when the variant's streets are
    not readable: the hand core then says why)."""
    total = play_rules(v).street_total
    return None if total < 0 else total


def _deal_option(v: Variant, n: int) -> str:
    """The option a fantasyland deal of n cards comes from."""
    names = []
    if n in v.entry_cards:
        names.append(f"entry_cards {tuple(v.entry_cards)!r}")
    if n == v.repeat_cards:
        names.append(f"repeat_cards {v.repeat_cards}")
    return " and ".join(names) or f"a fantasyland deal of {n}"


def _check_hand_deal(v: Variant, street: int, fl_cards: Sequence[int]) -> None:
    """One hand's deal must fit the deck (Game: the actual deal)."""
    if street < 0:
        return
    deals = [c if c else street for c in fl_cards]
    need = sum(deals)
    if need > DECK_SIZE:
        opts = sorted({_deal_option(v, c) for c in fl_cards if c})
        raise RulesError(f"{v.name} with {', '.join(opts) or f'{street} cards a player'}: "
                         f"{len(deals)} players dealt {' + '.join(map(str, deals))} = {need} "
                         f"cards, more than the {DECK_SIZE} in a deck")


def _check_match_deal(v: Variant, P: int) -> None:
    """Every hand of a match must fit the deck: P players each dealt the
    largest deal any seat can get (the streets, or a fantasyland deal)."""
    street = _street_total(v)
    if street is None:
        return
    worst, source = street, None
    if v.fantasyland:
        entry = max(int(c) for c in v.entry_cards)
        if entry > worst:
            worst, source = entry, f"entry_cards {tuple(v.entry_cards)!r}"
        repeats = v.repeat != "none" and v.repeat_limit != 0
        if repeats and int(v.repeat_cards) > worst:
            worst, source = int(v.repeat_cards), f"repeat_cards {v.repeat_cards}"
    if P * worst > DECK_SIZE:
        what = f"{source}: {P} players can each be dealt {worst} cards in fantasyland" if source \
            else f"{P} players dealt {worst} cards each"
        raise RulesError(f"{v.name} with {what}, {P * worst} cards, more than the {DECK_SIZE} "
                         "in a deck; play with fewer players or smaller fantasyland deals")


def _deck(seed: SeedLike, deck: Any) -> npt.NDArray[np.uint8]:
    if deck is not None:
        if isinstance(deck, (int, float, bool, np.generic)) or deck is Ellipsis:
            raise TypeError(f"deck must list {DECK_SIZE} cards (text or ids), got {shorten(deck)}")
        try:
            d = parse_cards(deck) if isinstance(deck, (str, np.ndarray)) \
                else parse_cards(list(deck))
        except TypeError:
            raise TypeError(f"deck must list {DECK_SIZE} cards (text or ids), "
                            f"got {shorten(deck)}") from None
        d = np.asarray(d, dtype=np.uint8).reshape(-1)
        if len(d) != DECK_SIZE or len(set(d.tolist())) != DECK_SIZE or (d > MAX_CARD).any():
            raise CardError(f"deck must list all {DECK_SIZE} cards exactly once")
        return d
    rng = seed if isinstance(seed, np.random.Generator) \
        else np.random.default_rng(seed_sequence(seed))
    return rng.permutation(DECK_SIZE).astype(np.uint8)


_NAMES = {n: tuple(f"player {i}" for i in range(n)) for n in range(2, 5)}


def _seats(players: object, v: Variant) -> tuple[int, tuple[str, ...]]:
    if type(players) is int and 2 <= players <= 4 and v.min_players <= players <= v.max_players:
        return players, _NAMES[players]          # the common case
    if isinstance(players, (bool, np.bool_)):
        raise TypeError(f"players is a number of players or their names, got {players!r}")
    if isinstance(players, (int, np.integer)):
        n = int(players)
        if not v.min_players <= n <= v.max_players:
            raise ValueError(f"{v.name} is played by {v.min_players} to {v.max_players} players, "
                             f"got {shorten(n)}")
        names = tuple(f"player {i}" for i in range(min(n, 4)))
    elif type(players) is tuple or type(players) is list:
        names = tuple(str(p) for p in players)
        n = len(names)
    elif isinstance(players, (str, bytes, Mapping)) \
            or not isinstance(players, (Sequence, np.ndarray)):
        raise TypeError(f"players is a number of players or a sequence of their names, got "
                        f"{shorten(players)}")
    else:
        names = tuple(str(p) for p in players)
        n = len(names)
    if not v.min_players <= n <= v.max_players:
        raise ValueError(f"{v.name} is played by {v.min_players} to {v.max_players} players, "
                         f"got {n}")
    if not 2 <= n <= 4:      # a Variant forged around its checks
        raise RulesError(f"a table seats 2 to 4 players, got {n}")
    return n, names


def _button(button: object, P: int) -> int:
    if isinstance(button, (bool, np.bool_)) or not isinstance(button, (int, np.integer)):
        raise TypeError(f"button must be a seat 0 .. {P - 1}, got {shorten(button)}")
    if not 0 <= button < P:
        raise ValueError(f"button must be a seat 0 .. {P - 1}, got {shorten(button)}")
    return int(button)


def _seat(seat: object, P: int, what: str = "seat") -> int:
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
        raise TypeError(f"a {what} is an integer 0 .. {P - 1}, got {shorten(seat)}")
    if not 0 <= seat < P:
        raise ValueError(f"no {what} {shorten(seat)} at a table of {P}")
    return int(seat)


class Game:
    """One hand of OFC.

    Parameters
    ----------
    variant : Variant or str
        The rules.
    players : int or sequence of str
        The number of players, or their names (seat order).
    seed : int >= 0, SeedSequence, Generator or None
        The deck is ``numpy.random.default_rng(seed).permutation(52)``, dealt
        in turn order.
    button : int
        The button's seat; the seat to its left acts first.
    fantasyland : None, or a list or dict of entries per seat
        Per seat (a list, or a dict seat -> entry): 0/None (normal hand), True
        (the variant's first fantasyland tier), a card count (e.g. 14; first
        fantasyland hand), or ``(cards, count)`` for the count-th fantasyland
        hand in a row (repeat limits use it).
    auto : bool
        Make automatic moves (docs/rules.md section 9: only one option, hand
        dead, every option dead) without asking the player; the time-out
        placement is played for dead hands.
    deck : cards, optional
        An explicit deck order (52 cards, text or ids) instead of a seeded
        shuffle.
    id : str, optional
        The hand id for the hand history (default: derived from the seed).

    Raises
    ------
    RulesError
        the hand's deal does not fit a 52-card deck (e.g. three players with
        fantasyland deals of 20 cards), or a variant the engine cannot play
    ValueError, TypeError
        any other bad argument, saying which

    Fantasyland players receive all their cards at once and place first
    (their hands stay hidden until the showdown, so this order is invisible to
    the others); then the other players play the streets, left of the button
    first.

    A game copies cheaply (``copy.copy``, ``copy.deepcopy`` and
    :meth:`copy` all give an independent game: one C struct is copied, no
    move is replayed) and pickles (the deal and the moves, replayed and
    checked on load).  Games compare equal when their state is: variant,
    names, id, deal, history, time-outs and ``auto``; a game is mutable, so
    it is not hashable.

    Examples
    --------
    >>> g = Game("pineapple", 2, seed=1)
    >>> g.to_act, g.street, format_cards(list(g.hand))
    (1, 0, '8s 3h 9s 5s Ts')
    >>> g.play({"bottom": "Ts 9s 8s", "middle": "5s", "top": "3h"})
    >>> h = g.copy()
    >>> h.play(h.legal_moves()[0])
    >>> len(g.history), len(h.history)
    (1, 2)
    """

    variant: Variant
    names: tuple[str, ...]
    seed: SeedLike
    id: str

    def __init__(self, variant: Variant | str = "pineapple", players: int | Sequence[str] = 2,
                 seed: SeedLike = None, button: int = 0, fantasyland: FantasylandLike = None,
                 *, auto: bool = True, deck: npt.ArrayLike | None = None,
                 id: str | None = None) -> None:
        v = as_variant(variant)
        pr = play_rules(v)
        P, names = _seats(players, v)
        button = _button(button, P)
        cards, count = _fantasyland_spec(fantasyland, P, v)
        if any(cards) or pr.street_total * P > DECK_SIZE:
            _check_hand_deal(v, pr.street_total, cards)
        order = _deck(seed, deck)
        self.variant = v
        self.names = names
        self.seed = seed
        self.id = id if id is not None else (f"{v.name}-{seed}"
                                             if isinstance(seed, (int, np.integer))
                                             else uuid.uuid4().hex[:16])
        core = HandCore(pr)
        status = core.deal(P, order, button, cards, count, bool(auto))
        if status:
            if status == HandStatus.BAD_SCHEDULE:      # a forged variant: say what is wrong
                deal_schedule(v.first_street, v.streets, v.n_cards)
            raise hand_error(core, status, variant=v)
        self._core = core
        self._result: HandResult | None = None

    # ---------------------------------------------------------- positions
    @classmethod
    def from_position(cls, variant: Variant | str, layouts: npt.ArrayLike, *,
                      discards: (Sequence[npt.ArrayLike | None]
                                 | Mapping[int, npt.ArrayLike | None] | None) = None,
                      hand: npt.ArrayLike | None = None, to_act: int | None = None,
                      street: int | None = None, button: int = 0,
                      fantasyland: FantasylandLike = None, seed: SeedLike = None,
                      players: Sequence[str] | None = None, auto: bool = True,
                      id: str | None = None) -> Game:
        """A game at a given position (a spot from a real hand), the rest of
        the deck shuffled from the cards not yet used.

        The position is read against the variant's deal: each seat has
        placed the cards of the turns it has played (5, 7, 9, 11, 13 in
        Pineapple) and discarded the rest of what those turns dealt.  The
        turns already played must be the first turns of the deal (left of
        the button first, fantasyland seats before everyone).  Cards the
        position does not give (an opponent's discards, the hand to act
        when ``hand`` is None, a fantasyland hand hidden from the player)
        are drawn from the unused cards with ``seed``; a hidden fantasyland
        hand is set by the exact solver.  Every card in a row goes to the
        leftmost free slots (the engine fills rows left to right).

        Parameters
        ----------
        variant : Variant or str
        layouts : sequence of layouts, one per seat
            Card text (``"Kc Kd __ / __ __ __ __ __ / 7h 8h 9h __ __"``) or
            ids with ``EMPTY`` (255) in the free slots.  A fantasyland seat
            that has played but whose cards are hidden is all ``EMPTY``.
        discards : None, a list per seat or a dict seat -> cards
            Each seat's discards so far; a seat's unknown discards (None, or
            fewer cards than it discarded) are drawn from the unused cards.
            Give the discards of the player to act: its view counts every
            card of its own discards as seen.
        hand : cards, optional
            The cards dealt to the player to act now (drawn when None).
        to_act : int, optional
            The seat to act; it follows from the layouts and is checked when
            given.  It also decides whether an empty fantasyland layout has
            played (hidden) or not.
        street : int, optional
            The street of the seat to act (0 first, -1 fantasyland), checked
            when given.
        button : int
            The button's seat.
        fantasyland : as for :class:`Game`
            Seats playing this hand in fantasyland.
        seed : int, SeedSequence, Generator or None
            Draws the unknown cards and shuffles the rest of the deck.
        players : sequence of str, optional
            Names in seat order (default ``player 0``, ...).
        auto : bool
            As for :class:`Game`: automatic moves of the player to act are
            made at once (a dead hand, a single option).
        id : str, optional
            The hand id of the record.

        Returns
        -------
        Game
            At the position, with a history of the turns played (their
            order within a seat is made up: the cards of each row in row
            order), so it copies, pickles and records like any game.

        Raises
        ------
        LayoutError, CardError
            A bad or repeated card, naming the seat.
        ValueError
            A position the deal cannot reach (wrong card counts, a seat that
            played out of turn, ``to_act`` / ``street`` / ``hand`` that do not
            fit), naming the seat and the counts.
        TypeError
            An argument of the wrong type.

        Examples
        --------
        >>> g = Game.from_position("pineapple", [
        ...     "As __ __ / 2c 2d 5c __ __ / Tc Jc Qc __ __",     # seat 0 acted first
        ...     "__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __"],    # seat 1, the button
        ...     button=1, discards=["4s", None], hand="Qh Qs 3d", seed=1)
        >>> g.to_act, g.street, format_cards(list(g.hand))
        (1, 1, 'Qh Qs 3d')
        >>> format_cards(list(g.discards(0))), g.view(1).layouts[0].tolist()[:3]
        ('4s', [51, 255, 255])
        """
        return _from_position(cls, variant, layouts, discards, hand, to_act, street, button,
                              fantasyland, seed, players, auto, id)

    # ---------------------------------------------------------- copies, pickles
    def copy(self) -> Game:
        """An independent copy of the game in its current state (cheap: the
        C state is one struct, copied; the variant is shared, it is frozen).

        >>> g = Game("classic", 2, seed=4)
        >>> h = g.copy()
        >>> h.timeout()
        >>> g.history == [], h.timed_out
        (True, (1,))
        """
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._core = self._core.copy()
        return g

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        g = self.copy()
        memo[id(self)] = g
        return g

    # __eq__ without __hash__: a game is mutable and unhashable
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        a, b = self._core, other._core
        return (self.variant == other.variant and self.names == other.names
                and self.id == other.id and a.n_players == b.n_players and a.button == b.button
                and a.deck_order() == b.deck_order() and a.fantasyland() == b.fantasyland()
                and a.turn == b.turn and a.history() == b.history()
                and a.timed_out() == b.timed_out() and a.auto == b.auto)

    # ----------------------------------------------------------------- state
    @property
    def n_players(self) -> int:
        return self._core.n_players

    @property
    def button(self) -> int:
        return self._core.button

    @property
    def auto(self) -> bool:
        return self._core.auto

    @auto.setter
    def auto(self, value: bool) -> None:
        self._core.auto = bool(value)
        if value:
            self._core.run_automatic()

    @property
    def done(self) -> bool:
        return self._core.done

    @property
    def to_act(self) -> int | None:
        """Seat of the player to act, or None when the hand is over."""
        p = self._core.to_act
        return None if p < 0 else p

    @property
    def street(self) -> int | None:
        """Street of the player to act (0 = first; -1 = fantasyland), or None."""
        return self._core.street

    @property
    def hand(self) -> tuple[int, ...]:
        """Cards dealt to the player to act (deal order)."""
        return self._core.hand()

    @property
    def keep(self) -> int:
        """How many of the dealt cards the player to act places."""
        return self._core.keep

    @property
    def acting_order(self) -> tuple[int, ...]:
        """Seats in acting order: left of the button first, the button last."""
        return self._core.order_seats()

    @property
    def schedule(self) -> list[tuple[int, int, int, int]]:
        """Every turn of the hand in deal order: ``(seat, street, dealt, kept)``
        (street -1: a fantasyland hand, dealt at once)."""
        return self._core.schedule()

    @property
    def fantasyland_deal(self) -> tuple[int, ...]:
        """Cards dealt in fantasyland this hand per seat (0 = not in fantasyland)."""
        return self._core.fantasyland()[0]

    fantasyland = renamed_attribute("fantasyland_deal", "fantasyland")

    @property
    def fantasyland_count(self) -> tuple[int, ...]:
        """Fantasyland hands in a row per seat, this one included (0 = none)."""
        return self._core.fantasyland()[1]

    @property
    def in_fantasyland(self) -> tuple[bool, ...]:
        """Per seat: playing this hand in fantasyland."""
        return tuple(c > 0 for c in self._core.fantasyland()[0])

    @property
    def timed_out(self) -> tuple[int, ...]:
        """Seats that ran out of time in this hand, in the order they did
        (:meth:`timeout`); their later turns are all time-out placements."""
        return self._core.timed_out()

    @property
    def layouts(self) -> npt.NDArray[np.uint8]:
        """``(players, n_cards)`` layouts, everything placed so far (omniscient)."""
        P = self.n_players
        lays: npt.NDArray[np.uint8] = np.frombuffer(
            b"".join(self._core.layout(p) for p in range(P)), dtype=np.uint8).reshape(P, -1).copy()
        return lays

    def layout(self, seat: int) -> npt.NDArray[np.uint8]:
        """A seat's layout so far (``EMPTY`` in the free slots).

        Parameters
        ----------
        seat : int
            The player.

        Returns
        -------
        ndarray of uint8, shape (n_cards,)
        """
        lay: npt.NDArray[np.uint8] = np.frombuffer(self._core.layout(_seat(seat, self.n_players)),
                                                   dtype=np.uint8).copy()
        return lay

    def discards(self, seat: int) -> npt.NDArray[np.uint8]:
        """A seat's discards so far (omniscient).

        Parameters
        ----------
        seat : int
            The player.

        Returns
        -------
        ndarray of uint8
        """
        disc: npt.NDArray[np.uint8] = np.frombuffer(
            self._core.discards(_seat(seat, self.n_players)), dtype=np.uint8).copy()
        return disc

    @property
    def deck(self) -> npt.NDArray[np.uint8]:
        """The deck order this hand deals from."""
        deck: npt.NDArray[np.uint8] = np.frombuffer(self._core.deck_order(), dtype=np.uint8).copy()
        return deck

    @property
    def history(self) -> list[Turn]:
        """Played turns in order (:class:`Turn`)."""
        return [Turn(seat, street, Move(cards, rows), AUTO_REASONS[reason])
                for seat, street, cards, rows, reason in self._core.history()]

    # ----------------------------------------------------------------- moves
    def legal_moves(self) -> MoveList:
        """Every distinct move of the player to act (empty when the hand is over).
        Moves that foul are legal."""
        return MoveList(self._core, self.variant)

    def play(self, move: Move | Sequence[Any] | Mapping[Any, Any], *,
             seat: int | None = None) -> None:
        """Play a move for the player to act, then any automatic moves.

        Parameters
        ----------
        move : Move, (cards, rows) or mapping
            A :class:`Move` (cards in any order), a ``(cards, rows)`` pair, or
            a mapping from row names (``"top"``, ``"middle"``, ``"bottom"``;
            four rows: ``"third"``, ``"second"``; ``"discard"``) to cards,
            where dealt cards it does not name are discarded.  Cards are ids
            or card text, rows indexes (``DISCARD`` = -1) or row names.
        seat : int, optional
            When given, must be the seat to act (a caller relaying a
            player's move).

        Raises
        ------
        MoveError
            an illegal move, saying why (the state is unchanged); no hand in
            progress; ``seat`` is not the seat to act, or timed out for the
            rest of the hand
        TypeError
            ``move`` is none of the forms above
        """
        core = self._core
        if type(move) is Move and seat is None:     # the common case: a Move from a MoveList
            status = core.play(move[0], move[1])
            if status:
                self._play_fixed(move[0], move[1], status)
            return
        if seat is not None:
            s = _seat(seat, self.n_players)
            if s in core.timed_out():
                raise MoveError(f"seat {s} timed out: its moves for the rest of the hand are "
                                f"time-out placements")
            if core.done:
                raise MoveError("the hand is over: no move to make")
            if s != core.to_act:
                raise MoveError(f"seat {s} does not act now: seat {core.to_act} does")
        if type(move) is Move or (isinstance(move, (tuple, list)) and len(move) == 2
                                  and not isinstance(move, Mapping)):
            cards, rows = move
        elif isinstance(move, Mapping):
            if core.done:
                raise MoveError("the hand is over: no move to make")
            cards, rows = move_from_mapping(move, core.hand(), self.variant)
        else:
            raise TypeError(f"a move is a Move, a (cards, rows) pair or a mapping, got "
                            f"{shorten(move)}")
        status = core.play(cards, rows)
        if status:
            self._play_fixed(cards, rows, status)

    def _play_fixed(self, cards: Any, rows: Any, status: int) -> None:
        """A move the core refused as given (``status``): card text and row
        names become ids and indexes and it is tried again; otherwise the
        MoveError saying why."""
        core = self._core
        fixed = normalize_move(cards, rows, self.variant)
        if fixed is not None:
            cards, rows = fixed
            status = core.play(cards, rows)
        if status:
            raise hand_error(core, status, cards, rows, self.variant)

    def timeout_move(self) -> Move:
        """The time-out placement for the player to act (docs/rules.md section 9):
        first cards dealt placed bottom row first, then up; last ones discarded."""
        rows = self._core.timeout_rows()
        if rows is None:
            raise hand_error(self._core, HandStatus.HAND_OVER)
        return Move(self._core.hand(), rows)

    def timeout(self) -> None:
        """The player to act runs out of time (docs/rules.md section 9).

        Plays the time-out placement for this turn, and the seat stays timed
        out for the rest of the hand: each of its later turns is played the
        same way as soon as it comes (``auto=False`` too), recorded with
        ``Turn.auto == "time-out"`` (also when the hand is dead).  The seat is
        added to :attr:`timed_out`.  In a :class:`Match` a time-out ends the
        match after this hand (see :class:`Match`).

        >>> g = Game("pineapple", 2, seed=3, auto=False)
        >>> g.timeout()                   # seat 1 times out on the first street
        >>> g.timed_out, g.to_act
        ((1,), 0)
        >>> while not g.done:
        ...     g.play(g.legal_moves()[0])
        >>> {t.auto for t in g.history if t.seat == 1}
        {'time-out'}

        Raises MoveError when the hand is over.
        """
        status = self._core.timeout()
        if status:
            raise hand_error(self._core, status, variant=self.variant)

    def automatic_move(self) -> tuple[str | None, Move] | None:
        """``(reason, Move)`` when the player to act may be moved automatically
        ("only option", "dead", "every option dead"), else None.

        Returns
        -------
        tuple of (str, Move), or None
        """
        reason, rows = self._core.automatic()
        if not reason or rows is None:
            return None
        return AUTO_REASONS[reason], Move(self._core.hand(), rows)

    def is_dead(self, seat: int) -> bool:
        """No completion of the seat's layout with cards it has not seen can be
        legal (the cards in its hand count as available).

        Parameters
        ----------
        seat : int
            The player.

        Returns
        -------
        bool
        """
        return bool(self._core.is_dead(_seat(seat, self.n_players)))

    def view(self, seat: int) -> PlayerView:
        """What a seat may see (:class:`PlayerView`): a snapshot.

        Parameters
        ----------
        seat : int
            The player.

        Returns
        -------
        PlayerView
        """
        return PlayerView.from_core(self._core, _seat(seat, self.n_players), self.variant)

    def run(self, policies: PoliciesLike = None) -> HandResult:
        """Play the hand to the end with policies and return the result.

        Parameters
        ----------
        policies : Policy, list or dict of Policy, or None
            One for every seat, a list per seat, or a dict seat -> policy;
            default: a RandomPolicy per seat seeded from the game's seed.

        Returns
        -------
        HandResult

        Raises
        ------
        MoveError
            A policy's ``choose`` returned something that is not a legal
            move (TypeError for what is not a move at all), naming the seat
            and the policy.
        """
        P, seed = self.n_players, self.seed
        pols = resolve_policies(policies, P, default=lambda: seeded_policies(P, seed, salt=1))
        core, v, view_of = self._core, self.variant, PlayerView.from_core
        while not core.done:
            p = core.to_act
            pol = pols[p]
            move = pol.choose(view_of(core, p, v), MoveList(core, v))
            try:
                self.play(move)
            except MoveError as e:
                raise MoveError(f"seat {p}'s policy {type(pol).__name__} chose "
                                f"{shorten(move, 60)}: {e}") from None
            except TypeError as e:
                raise TypeError(f"seat {p}'s policy {type(pol).__name__} returned "
                                f"{shorten(move, 60)}, not a move: {e}") from None
        return self.result()

    # --------------------------------------------------------------- results
    def result(self) -> HandResult:
        """Points, fouls, royalties and next-hand fantasyland (hand over).

        Returns
        -------
        HandResult

        Raises
        ------
        ValueError
            The hand is not finished.
        """
        if self._result is None:
            showdown = self._core.result() if self._core.done else None
            if showdown is None:
                raise hand_error(self._core, HandStatus.NOT_FINISHED)
            pts, foul, roy, rows, strengths, fan, rep = showdown
            cnt = self.fantasyland_count
            nxt = tuple(min(cnt[p] + 1, 255) if fan[p] else 0 for p in range(self.n_players))
            self._result = HandResult(points=pts, foul=foul, royalty_total=roy, royalties=rows,
                                      strengths=strengths, next_fantasyland=fan,
                                      next_in_fantasyland=nxt, repeat=rep,
                                      timed_out=self.timed_out)
        return self._result

    def record(self, id: str | None = None,
               names: Sequence[str] | None = None) -> dict[str, Any]:
        """The finished hand as an ``ofc-hand/1`` record (one JSON Lines object).

        Players in seat order starting with the button (seat 0 = button);
        rows and discards as card text, ``in_fantasyland`` the fantasyland
        count (0 normal, k for the k-th fantasyland hand in a row), ``points``
        the hand's result, ``options`` the keyword arguments that rebuild the
        variant with :func:`ofc_fast.variant`.

        Parameters
        ----------
        id : str, optional
            The record's id (default the game's).
        names : sequence of str, optional
            Player names by seat (default the game's).

        Returns
        -------
        dict

        Raises
        ------
        ValueError
            The hand is not finished, or ``names`` does not name every seat.
        """
        res = self.result()
        v = self.variant
        P = self.n_players
        if names is not None:
            if isinstance(names, (str, bytes)) or not isinstance(names, (Sequence, np.ndarray)) \
                    or len(names) != P:
                raise ValueError(f"names must give one name per seat ({P}), got {shorten(names)}")
            seat_names = tuple(str(n) for n in names)
        else:
            seat_names = self.names
        seats = [(self.button + k) % P for k in range(P)]   # seat order from the button
        counts = self.fantasyland_count
        return hand_dict(v, [self._core.layout(p) for p in seats],
                         id=str(id if id is not None else self.id),
                         names=[seat_names[p] for p in seats],
                         in_fantasyland=[counts[p] for p in seats],
                         discards=[self._core.discards(p) for p in seats],
                         points=[int(res.points[p]) for p in seats],
                         options=variant_options(v), complete=True)

    def __repr__(self) -> str:
        state = "over" if self.done else f"seat {self.to_act} to act"
        return (f"<Game {self.variant.name}, {self.n_players} players, button {self.button}, "
                f"{state}>")



# ------------------------------------------------------------------- positions
def _card_list(cards: Any, what: str) -> list[int]:
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
    ids = [int(c) for c in np.asarray(parsed).reshape(-1)]
    if any(c == EMPTY for c in ids):
        raise CardError(f"{what}: EMPTY (255) is not a card")
    return ids


def _per_seat(spec: Any, P: int, what: str) -> list[Any]:
    if spec is None:
        return [None] * P
    if isinstance(spec, Mapping):
        out = [None] * P
        for k, val in spec.items():
            out[_seat(k, P, f"{what} seat")] = val
        return out
    if isinstance(spec, (str, bytes)) or not isinstance(spec, (Sequence, np.ndarray)):
        raise TypeError(f"{what} must be a list with one entry per seat or a dict seat -> "
                        f"cards, got {shorten(spec)}")
    if len(spec) != P:
        raise ValueError(f"{what} needs one entry per seat ({P}), got {len(spec)}")
    return list(spec)


def _from_position(cls: type[Game], variant: Any, layouts: Any, discards: Any, hand: Any,
                   to_act: Any,
                   street: Any, button: int, fantasyland: Any, seed: Any, players: Any,
                   auto: bool, id: Any) -> Game:
    v = as_variant(variant)
    if isinstance(layouts, (str, bytes)) or not isinstance(layouts, (Sequence, np.ndarray)):
        raise TypeError(f"layouts must give one layout per seat, got {shorten(layouts)}")
    if not isinstance(layouts, np.ndarray):      # text and ids may be mixed, one per seat
        layouts = [check_layouts(x, v, f"layouts[{p}]")[0] if isinstance(x, str) else x
                   for p, x in enumerate(layouts)]
        if any(isinstance(x, np.ndarray) and x.ndim != 1 for x in layouts):
            raise ValueError("layouts must give one layout per seat")
    lays = check_layouts(layouts, v, "layouts")
    P = len(lays)
    P, names = _seats(players if players is not None else P, v)
    if len(lays) != P:
        raise ValueError(f"{len(lays)} layouts for {P} players")
    button = _button(button, P)
    fl_cards, fl_count = _fantasyland_spec(fantasyland, P, v)
    # the deal (validates the variant, players and fantasyland like any Game)
    probe = cls(v, names, button=button, fantasyland=fantasyland, auto=False,
                deck=np.arange(DECK_SIZE, dtype=np.uint8))
    sched = probe.schedule
    offs = np.cumsum((0,) + v.row_sizes)
    # ---- cards: ids, no repeats anywhere
    owner: dict[int, str] = {}

    def claim(c: int, where: str) -> None:
        if c > MAX_CARD:
            raise LayoutError(f"{where}: card id {c} is not a card (0-{MAX_CARD}) or EMPTY (255)")
        if c in owner:
            raise CardError(f"{format_cards([c])} is both in {owner[c]} and in {where}")
        owner[c] = where

    placed = []
    for p in range(P):
        cards_p = []
        for r in range(v.n_rows):
            for c in lays[p, offs[r]:offs[r + 1]].tolist():
                if c != EMPTY:
                    claim(c, f"seat {p}'s layout")
                    cards_p.append((c, r))
        placed.append(cards_p)
    disc = [_card_list(d, f"seat {p}'s discards")
            for p, d in enumerate(_per_seat(discards, P, "discards"))]
    for p, d in enumerate(disc):
        for c in d:
            claim(c, f"seat {p}'s discards")
    hand_ids = None if hand is None else _card_list(hand, "hand")
    for c in hand_ids or ():
        claim(c, "the hand")
    # ---- which turns each seat has played
    turns_of = [[t for t, (seat, *_rest) in enumerate(sched) if seat == p] for p in range(P)]
    done = [0] * P
    hidden = [False] * P
    for p in range(P):
        n = len(placed[p])
        kept = 0
        for t in turns_of[p]:
            if kept == n:
                break
            kept += sched[t][3]
            done[p] += 1
        if kept != n:
            counts = [0]
            for t in turns_of[p]:
                counts.append(counts[-1] + sched[t][3])
            raise ValueError(f"seat {p} has placed {n} cards; after its turns of this deal it "
                             f"has {', '.join(map(str, counts))}")
    if to_act is not None:
        seat = _seat(to_act, P, "to_act seat")
        if done[seat] >= len(turns_of[seat]):
            raise ValueError(f"seat {seat} has placed all its cards: it has no turn to play")
        now = turns_of[seat][done[seat]]
        for p in range(P):       # a fantasyland seat to act before: played, face down
            if fl_cards[p] and done[p] == 0 and turns_of[p][0] < now:
                hidden[p] = True
                done[p] = 1
    elif any(done[p] for p in range(P) if not fl_cards[p]):
        for p in range(P):       # the others have played: so have the fantasyland seats
            if fl_cards[p] and done[p] == 0:
                hidden[p] = True
                done[p] = 1
    playing = sorted(t for p in range(P) for t in turns_of[p][:done[p]])
    now = len(playing)
    if playing != list(range(now)):
        late = min(set(range(len(sched))) - set(playing))
        seat_late = sched[late][0]
        raise ValueError(f"not a position of the deal: seat {seat_late} has placed "
                         f"{len(placed[seat_late])} cards, so it has not played turn {late} "
                         f"(street {sched[late][1]}), but a later turn has been played "
                         f"(turn order: {', '.join(str(t[0]) for t in sched[:now + 1])})")
    finished = now == len(sched)
    if to_act is not None and (finished or sched[now][0] != _seat(to_act, P, "to_act seat")):
        who = "nobody (the hand is over)" if finished else f"seat {sched[now][0]}"
        raise ValueError(f"to_act is seat {to_act}, but at this position {who} acts")
    if street is not None:
        st = None if finished else sched[now][1]
        if isinstance(street, (bool, np.bool_)) or not isinstance(street, (int, np.integer)) \
                or int(street) != st:
            where = "the hand is over" if finished else f"seat {sched[now][0]} plays street {st}"
            raise ValueError(f"street is {shorten(street)}, but at this position {where}")
    if hand_ids is not None:
        if finished:
            raise ValueError("the hand is over: no hand to act with")
        if len(hand_ids) != sched[now][2]:
            raise ValueError(f"seat {sched[now][0]} is dealt {sched[now][2]} cards now, the "
                             f"hand gives {len(hand_ids)}")
    for p in range(P):
        if hidden[p] and placed[p]:
            raise ValueError(f"seat {p} is in fantasyland with a partial layout")
        n_disc = sum(sched[t][2] - sched[t][3] for t in turns_of[p][:done[p]])
        if len(disc[p]) > n_disc:
            raise ValueError(f"seat {p} has discarded {n_disc} cards so far, the discards "
                             f"give {len(disc[p])}")
    # ---- the deck: turns played, the hand, then the rest shuffled
    rng = seed if isinstance(seed, np.random.Generator) else \
        np.random.default_rng(seed_sequence(seed))
    rest = [c for c in rng.permutation(DECK_SIZE).tolist() if c not in owner]
    deck: list[int] = []
    moves = []
    pos = [0] * P
    dpos = [0] * P
    for t in range(now):
        p, _, dealt, kept = sched[t]
        if hidden[p]:
            cards: list[int] = [rest.pop() for _ in range(dealt)]
            sol = solve_fantasyland(np.array(cards, np.uint8), v, in_fantasyland=fl_count[p])
            row_of = {int(c): int(np.searchsorted(offs, i, side="right") - 1)
                      for i, c in enumerate(sol.layout.tolist())}
            rows = [row_of.get(c, DISCARD) for c in cards]
        else:
            cards = [c for c, _ in placed[p][pos[p]:pos[p] + kept]]
            rows = [r for _, r in placed[p][pos[p]:pos[p] + kept]]
            pos[p] += kept
            for _ in range(dealt - kept):
                c = disc[p][dpos[p]] if dpos[p] < len(disc[p]) else rest.pop()
                dpos[p] += 1
                cards.append(c)
                rows.append(DISCARD)
        deck += cards
        moves.append(tuple(rows))
    if not finished:
        deck += hand_ids if hand_ids is not None else [rest.pop() for _ in range(sched[now][2])]
    deck += rest
    g = cls(v, names, seed=seed if not isinstance(seed, np.random.Generator) else None,
            button=button, fantasyland=fantasyland, auto=False, deck=deck, id=id)
    for dest in moves:
        status = g._core.apply(dest)
        if status:              # unreachable: the deck was built for these moves
            raise hand_error(g._core, status, variant=v)
    g.auto = bool(auto)
    return g


# ---------------------------------------------------------------------------- match
class Match:
    """A sequence of hands at one table (docs/rules.md sections 7 and 9).

    The button moves one seat after every hand without a fantasyland player;
    fantasyland earned in a hand is played in the next one; running scores
    come from :func:`ofc_fast.score_tables`.

    How a match ends (:attr:`ended_by`):

    * ``"orbits"``: the button has moved ``hands`` times, a whole number of
      orbits (default one: one hand per player), so every fantasyland hand
      adds one hand.  With ``finish_fantasyland`` (default) fantasyland
      earned in the last hand is still played (a fantasyland hand, so it
      does not move the button).
    * ``"time-out"``: a player ran out of time (:meth:`Game.timeout`).  The
      match ends right after that hand, unless an opponent who did not time
      out earned fantasyland (entry or repeat) in it; then play goes on while
      any such opponent has a fantasyland hand pending (repeats included),
      and ends after that.  A timed-out player's own fantasyland never
      extends the match (it is played only in hands that happen anyway).

    Parameters
    ----------
    variant : Variant or str
        The rules.
    players : int or sequence of str
        The number of players, or their names (seat order), as for
        :class:`Game`.
    hands : int, optional
        Button moves the match lasts: a positive multiple of the number of
        players (default: the number of players, one orbit).
    seed : int >= 0, sequence of int, SeedSequence or None
        Seeds every hand's deck (spawned per hand) and the default policies.
    policies : Policy, list or dict of Policy, or None
        Default policies for :meth:`run` / :meth:`play_hand` (default: a
        RandomPolicy per seat, seeded from ``seed``).
    button : int
        The first hand's button.
    auto : bool
        Automatic moves, as for :class:`Game`.
    finish_fantasyland : bool
        Play out fantasyland earned in the last hand.
    id : str, optional
        The match id; hand ``k`` is ``f"{id}-{k}"`` (default: derived from
        the seed).
    fantasyland : None, or a list or dict of entries per seat
        Fantasyland for the first hand, as for :class:`Game`.

    Attributes
    ----------
    scores : ndarray of int64
        Running points per seat.
    results : list of HandResult
        Each hand's result.
    records : list of dict
        Each hand's ``ofc-hand/1`` record (:meth:`Game.record`).
    timeouts : list of tuple
        ``(hand index, seats timed out)`` per hand with a time-out.

    Raises
    ------
    RulesError
        ``hands`` is not a positive multiple of the players; a hand of the
        match could deal more than 52 cards (players x the largest deal a
        seat can get: the streets, or the largest fantasyland deal of
        ``entry_cards`` / ``repeat_cards``)
    ValueError, TypeError
        any other bad argument (``policies`` without a ``choose`` method, ...)

    A match copies (``copy.copy``, ``copy.deepcopy``, :meth:`copy`: an
    independent match, its hand in progress and its policies copied too)
    and pickles when its policies do (a policy that does not pickle raises
    TypeError naming its seat).

    Examples
    --------
    >>> m = Match("pineapple", players=2, seed=3)
    >>> scores = m.run(RandomPolicy(seed=4))
    >>> int(scores.sum()), m.hands_played >= 2, m.ended_by
    (0, True, 'orbits')
    """

    variant: Variant
    names: tuple[str, ...]
    n_players: int
    hands: int
    finish_fantasyland: bool
    auto: bool
    id: str
    button: int
    button_moves: int
    scores: npt.NDArray[np.int64]
    results: list[HandResult]
    records: list[dict[str, Any]]
    timeouts: list[tuple[int, tuple[int, ...]]]

    def __init__(self, variant: Variant | str = "pineapple", players: int | Sequence[str] = 2,
                 hands: int | None = None,
                 seed: int | Sequence[int] | np.random.SeedSequence | None = None, *,
                 policies: PoliciesLike = None, button: int = 0, auto: bool = True,
                 finish_fantasyland: bool = True, id: str | None = None,
                 fantasyland: FantasylandLike = None) -> None:
        v = as_variant(variant)
        play_rules(v)
        P, names = _seats(players, v)
        if hands is None:
            hands = P
        else:
            hands = int_arg(hands, "hands")
            if hands < P or hands % P:
                raise RulesError(f"a match lasts at least one full orbit and a whole number of "
                                 f"orbits: hands must be a positive multiple of the {P} "
                                 f"players, got {hands}")
        button = _button(button, P)
        fl_cards, fl_count = _fantasyland_spec(fantasyland, P, v)
        _check_match_deal(v, P)
        self.variant = v
        self.names = names
        self.n_players = P
        self.hands = hands
        self.finish_fantasyland = bool(finish_fantasyland)
        self.auto = bool(auto)
        self.id = id if id is not None else (f"{v.name}-match-{seed}"
                                             if isinstance(seed, (int, np.integer))
                                             else uuid.uuid4().hex[:16])
        self._ss = seed_sequence(seed)
        self._policies = resolve_policies(
            policies, P, default=lambda: [RandomPolicy(child) for child in self._ss.spawn(P)])
        self.button = button
        self.button_moves = 0
        self.scores = np.zeros(P, np.int64)
        self.results = []
        self.records = []
        self.timeouts = []              # (hand index, seats timed out)
        self._extenders: set[int] = set()   # opponents whose fantasyland extends a timed-out match
        self._fl = list(zip(fl_cards, fl_count, strict=True))
        self._game: Game | None = None

    @property
    def hands_played(self) -> int:
        """Hands played so far."""
        return len(self.results)

    @property
    def next_fantasyland(self) -> tuple[tuple[int, int], ...]:
        """Per seat ``(cards, count)`` for the next hand (``(0, 0)``: normal)."""
        return tuple(self._fl)

    fantasyland = renamed_attribute("next_fantasyland", "fantasyland")

    @property
    def ended_by(self) -> str | None:
        """Why the match is over: ``"orbits"`` (its button moves are played,
        and with ``finish_fantasyland`` the fantasyland earned), ``"time-out"``
        (a player ran out of time, and no opponent's fantasyland earned in
        that hand is pending), or None while it goes on."""
        if self._game is not None:
            return None
        if self.timeouts and not any(self._fl[p][0] for p in self._extenders):
            return "time-out"
        if self.button_moves >= self.hands and \
                not (self.finish_fantasyland and any(c for c, _ in self._fl)):
            return "orbits"
        return None

    @property
    def done(self) -> bool:
        """The match is over (:attr:`ended_by` says why)."""
        return self.ended_by is not None

    def start_hand(self, deck: npt.ArrayLike | None = None) -> Game:
        """Deal the next hand (play it, then call :meth:`end_hand`).

        Parameters
        ----------
        deck : cards, optional
            A given deck order (52 cards) instead of the seeded shuffle
            (replays, tests).

        Returns
        -------
        Game
            The hand, to play.

        Raises
        ------
        StateError
            A hand is in progress, or the match is over.
        """
        if self._game is not None:
            raise StateError("the current hand is not finished: call end_hand() first")
        if self.done:
            raise StateError(f"the match is over ({self.ended_by})")
        k = self.hands_played
        self._game = Game(self.variant, self.names, seed=self._ss.spawn(1)[0], button=self.button,
                          fantasyland=[fl if fl[0] else 0 for fl in self._fl], auto=self.auto,
                          id=f"{self.id}-{k}", deck=deck)
        return self._game

    def end_hand(self) -> HandResult:
        """Score the finished current hand, carry fantasyland, move the button,
        and note a time-out (which ends the match, see the class).

        Returns
        -------
        HandResult

        Raises
        ------
        StateError
            No hand in progress, or it is not finished.
        """
        g = self._game
        if g is None:
            raise StateError("no hand in progress: call start_hand() first")
        if not g.done:
            raise StateError("the current hand is not finished")
        P = self.n_players
        counts = np.array(g.fantasyland_count, np.uint8)
        tab = score_tables(g.layouts[None], self.variant, in_fantasyland=counts[None], details=True)
        pts = tab.points[0].astype(np.int64)
        res = g.result()
        self.scores += pts
        self.results.append(res)
        self.records.append(g.record())
        fan = tab.next_fantasyland[0]
        self._fl = [(int(fan[p]), min(int(counts[p]) + 1, 255) if fan[p] else 0)
                    for p in range(P)]
        out = g.timed_out
        if out:
            self.timeouts.append((len(self.results) - 1, out))
            self._extenders = {p for p in self._extenders | set(range(P))
                               if p not in out and (fan[p] or p in self._extenders)}
        if not any(g.in_fantasyland):
            self.button = (self.button + 1) % P
            self.button_moves += 1
        self._game = None
        return res

    def play_hand(self, policies: PoliciesLike = None) -> HandResult:
        """Deal, play and score one hand.

        Parameters
        ----------
        policies : Policy, list or dict of Policy, or None
            As for :meth:`Game.run`; default the match's.

        Returns
        -------
        HandResult
        """
        pols = resolve_policies(policies, self.n_players, default=lambda: self._policies)
        self.start_hand().run(pols)
        return self.end_hand()

    def run(self, policies: PoliciesLike = None) -> npt.NDArray[np.int64]:
        """Play every remaining hand.

        Parameters
        ----------
        policies : Policy, list or dict of Policy, or None
            As for :meth:`Game.run`; default the match's.

        Returns
        -------
        ndarray of int64
            The running scores per seat (a copy).
        """
        pols = resolve_policies(policies, self.n_players, default=lambda: self._policies)
        while not self.done:
            self.play_hand(pols)
        scores: npt.NDArray[np.int64] = self.scores.copy()
        return scores

    # ---------------------------------------------------------- copies, pickles
    def copy(self) -> Match:
        """An independent copy: scores, results, the hand in progress and the
        policies (so their random streams go on separately)."""
        return _copy.deepcopy(self)

    def __copy__(self) -> Match:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        m = Match.__new__(Match)
        memo[id(self)] = m
        memo.setdefault(id(self.variant), self.variant)     # frozen: shared
        for key, value in self.__dict__.items():
            m.__dict__[key] = _copy.deepcopy(value, memo)
        return m

    def __getstate__(self) -> dict[str, Any]:
        for seat, pol in enumerate(self._policies):
            try:
                pickle.dumps(pol)
            except Exception as e:  # noqa: BLE001 - any failure means: cannot pickle
                raise TypeError(f"cannot pickle this match: the policy of seat {seat} "
                                f"({shorten(pol, 60)}) does not pickle ({type(e).__name__}: "
                                f"{e})") from None
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return (f"<Match {self.variant.name}, {self.n_players} players, "
                f"{self.hands_played} hands played, scores {self.scores.tolist()}>")
