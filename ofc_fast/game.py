"""One hand of Open Face Chinese (docs/rules.md sections 7-9): :class:`Game`.

A game deals one hand from a seeded 52-card deck and walks the players
through the variant's streets; policies (:mod:`ofc_fast.policies`) decide
moves.  The state machine, move enumeration and dead-hand search run in the
Cython hand core.  One concern, the game's state and its API; a position set
up from a real hand is :mod:`ofc_fast.positions`, a sequence of hands
:mod:`ofc_fast.match`.

>>> from ofc_fast import RandomPolicy, format_cards
>>> g = Game("pineapple", n_players=3, seed=7)
>>> g.to_act, g.street, len(g.hand)       # left of the button acts first
(1, 0, 5)
>>> result = g.run(RandomPolicy(seed=1))
>>> sum(result.points)                    # zero-sum
0
>>> record = g.record()
>>> record["format"], len(record["players"])
('ofc-hand/1', 3)

The play loop of a policy of your own (``seat`` is the seat to act, an
``int``, while the hand is live):

>>> g = Game("pineapple", 2, seed=3)
>>> while not g.done:
...     moves = g.legal_moves()
...     g.play(moves[0])
>>> g.done
True
"""
from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc_fast._args import SeedLike
from ofc_fast._args import seat as seat_arg
from ofc_fast._hand import HandCore, HandStatus
from ofc_fast._table import FantasylandLike, deck_order, fantasyland_spec, table_seats
from ofc_fast.deals import check_hand_deal
from ofc_fast.deprecation import UNSET, renamed_attribute, warn_renamed
from ofc_fast.errors import ArgumentError, MoveError, StateError, shorten
from ofc_fast.moves import (
    AUTO_REASONS,
    HandResult,
    Move,
    MoveList,
    PlayerView,
    Turn,
    hand_error,
    move_from_mapping,
    normalize_move,
)
from ofc_fast.policies import PoliciesLike, resolve_policies, seeded_policies
from ofc_fast.positions import game_at_position
from ofc_fast.records import hand_dict
from ofc_fast.rollouts import engine_rules
from ofc_fast.rules import Variant, as_variant, deal_schedule, variant_options

__all__ = ["Game", "FantasylandLike"]


def _renamed_names(names: Sequence[str] | None, players: object) -> Any:
    if players is UNSET:
        return names
    warn_renamed("Game.from_position(players=...)", "Game.from_position(names=...)",
                 since="0.4", stacklevel=4)
    return players


class Game:
    """One hand of OFC.

    Parameters
    ----------
    variant : Variant or str
        The rules.
    n_players : int, optional
        The number of players (default: 2, or as many as ``names``).
    seed : int >= 0, sequence of int, SeedSequence, Generator or None
        The deck: deck 0 of the seed's C stream
        (``ofc_fast._hand.seeded_deck(kernel_seed(seed), 0, jokers)``, the
        52 cards and the variant's jokers shuffled by xoshiro256** keyed by
        the seed; numpy's permutation
        before 0.3), dealt in turn order; ``ofc_fast.sim.GameBatch`` deals
        the same decks in C.  Also seeds the default policies of :meth:`run`.
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
        placement is played for dead hands.  With jokers a joker counts as
        any card it may become (RULES.md section 12).
    names : sequence of str, optional
        The players' names, in seat order (default ``"player 0"`` ...).
    deck : cards, optional
        An explicit deck order (52 cards and the variant's jokers, text or
        ids: ``X1``, ``X2``) instead of a seeded shuffle.
    id : str, optional
        The hand id for the hand history (default: derived from the seed).
    players
        Deprecated (0.4): ``n_players`` or ``names``.

    Raises
    ------
    RulesError
        the hand's deal does not fit the deck (e.g. three players with
        fantasyland deals of 20 cards), or a variant the engine cannot play
    ArgumentError
        any other bad argument value, saying which and quoting it (a bad
        ``deck``: CardError)
    TypeError
        an argument of the wrong type

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
    >>> from ofc_fast import format_cards
    >>> g = Game("pineapple", 2, seed=1)
    >>> g.to_act, g.street, format_cards(list(g.hand))
    (1, 0, '6h 3s Kc As Ks')
    >>> g.play({"bottom": "As Ks Kc", "middle": "6h", "top": "3s"})
    >>> h = g.copy()
    >>> h.play(h.legal_moves()[0])
    >>> len(g.history), len(h.history)
    (1, 2)
    """

    variant: Variant
    names: tuple[str, ...]
    seed: SeedLike
    id: str

    def __init__(self, variant: Variant | str = "pineapple", n_players: int | None = None,
                 seed: SeedLike = None, button: int = 0, fantasyland: FantasylandLike = None,
                 *, names: Sequence[str] | None = None, auto: bool = True,
                 deck: npt.ArrayLike | None = None, id: str | None = None,
                 players: int | Sequence[str] = UNSET) -> None:
        v = as_variant(variant)
        pr = engine_rules(v)
        P, names = table_seats(n_players, names, players, v, "Game")
        button = seat_arg(button, P, "button")
        cards, count = fantasyland_spec(fantasyland, P, v)
        if any(cards) or pr.street_total * P > pr.deck_size:
            check_hand_deal(v, pr.street_total, cards)
        order = deck_order(seed, deck, v.jokers)
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
                      names: Sequence[str] | None = None, auto: bool = True,
                      id: str | None = None, players: Sequence[str] | None = UNSET) -> Game:
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
        names : sequence of str, optional
            Names in seat order (default ``player 0``, ...).
        auto : bool
            As for :class:`Game`: automatic moves of the player to act are
            made at once (a dead hand, a single option).
        id : str, optional
            The hand id of the record.
        players
            Deprecated (0.4): ``names``.

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
        ArgumentError
            A position the deal cannot reach (wrong card counts, a seat that
            played out of turn, ``to_act`` / ``street`` / ``hand`` that do not
            fit), naming the seat and the counts.
        TypeError
            An argument of the wrong type.

        Examples
        --------
        >>> from ofc_fast import format_cards
        >>> g = Game.from_position("pineapple", [
        ...     "As __ __ / 2c 2d 5c __ __ / Tc Jc Qc __ __",     # seat 0 acted first
        ...     "__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __"],    # seat 1, the button
        ...     button=1, discards=["4s", None], hand="Qh Qs 3d", seed=1)
        >>> g.to_act, g.street, format_cards(list(g.hand))
        (1, 1, 'Qh Qs 3d')
        >>> format_cards(list(g.discards(0))), g.view(1).layouts[0].tolist()[:3]
        ('4s', [51, 255, 255])
        """
        return game_at_position(cls, variant, layouts, discards, hand, to_act, street, button,
                                fantasyland, seed, _renamed_names(names, players), auto, id)

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

    def _seat(self, seat: object) -> int:
        """``seat`` checked, or the seat to act for None (StateError when the
        hand is over)."""
        if seat is None:
            p = self._core.to_act
            if p < 0:
                raise StateError("the hand is over: no seat acts (name a seat)")
            return p
        return seat_arg(seat, self.n_players)

    @property
    def to_act(self) -> int | None:
        """Seat of the player to act, or None when the hand is over.

        :meth:`view`, :meth:`layout`, :meth:`discards` and :meth:`is_dead`
        take None for the seat to act, so the play loop
        ``while not g.done: policy.choose(g.view(g.to_act), g.legal_moves())``
        type-checks as written (``mypy --strict``, pyright)."""
        p = self._core.to_act
        return None if p < 0 else p

    @property
    def seat_to_act(self) -> int:
        """Seat of the player to act (an ``int``: index per-seat lists with it).

        Raises
        ------
        StateError
            The hand is over (no seat acts).

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> g = Game("pineapple", 2, seed=3)
        >>> policies = [ofc.RandomPolicy(1), ofc.RandomPolicy(2)]
        >>> while not g.done:
        ...     p = policies[g.seat_to_act]
        ...     g.play(p.choose(g.view(g.seat_to_act), g.legal_moves()))
        >>> g.seat_to_act
        Traceback (most recent call last):
        ...
        ofc_fast.errors.StateError: the hand is over: no seat acts
        """
        p = self._core.to_act
        if p < 0:
            raise StateError("the hand is over: no seat acts")
        return int(p)

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

    def layout(self, seat: int | None = None) -> npt.NDArray[np.uint8]:
        """A seat's layout so far (``EMPTY`` in the free slots).

        Parameters
        ----------
        seat : int or None
            The player; None (the default) is the seat to act, so that
            ``g.view(g.to_act)`` types as written in a live hand.

        Returns
        -------
        ndarray of uint8, shape (n_cards,)
        """
        lay: npt.NDArray[np.uint8] = np.frombuffer(
            self._core.layout(self._seat(seat)), dtype=np.uint8).copy()
        return lay

    def discards(self, seat: int | None = None) -> npt.NDArray[np.uint8]:
        """A seat's discards so far (omniscient).

        Parameters
        ----------
        seat : int or None
            The player; None (the default) is the seat to act, so that
            ``g.view(g.to_act)`` types as written in a live hand.

        Returns
        -------
        ndarray of uint8
        """
        disc: npt.NDArray[np.uint8] = np.frombuffer(
            self._core.discards(self._seat(seat)), dtype=np.uint8).copy()
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
            s = seat_arg(seat, self.n_players)
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

    def is_dead(self, seat: int | None = None) -> bool:
        """No completion of the seat's layout with cards it has not seen can be
        legal (the cards in its hand count as available).

        Parameters
        ----------
        seat : int or None
            The player; None (the default) is the seat to act, so that
            ``g.view(g.to_act)`` types as written in a live hand.

        Returns
        -------
        bool
        """
        return bool(self._core.is_dead(self._seat(seat)))

    def view(self, seat: int | None = None) -> PlayerView:
        """What a seat may see (:class:`PlayerView`): a snapshot.

        Parameters
        ----------
        seat : int or None
            The player; None (the default) is the seat to act, so that
            ``g.view(g.to_act)`` types as written in a live hand.

        Returns
        -------
        PlayerView
        """
        return PlayerView.from_core(self._core, self._seat(seat), self.variant)

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
        StateError
            The hand is not finished (also a RuntimeError).
        """
        if self._result is None:
            showdown = self._core.result() if self._core.done else None
            if showdown is None:
                raise hand_error(self._core, HandStatus.NOT_FINISHED)
            pts, foul, roy, rows, strengths, fan, rep, nxt = showdown
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
        StateError
            The hand is not finished.
        ArgumentError
            ``names`` does not name every seat.
        TypeError
            ``names`` is not a sequence of names.
        """
        res = self.result()
        v = self.variant
        P = self.n_players
        if names is not None:
            if isinstance(names, (str, bytes)) or not isinstance(names, (Sequence, np.ndarray)):
                raise TypeError(f"names must be a sequence of names, one per seat, got "
                                f"{shorten(names)}")
            if len(names) != P or (isinstance(names, np.ndarray) and names.ndim != 1):
                raise ArgumentError(f"names must give one name per seat ({P}), got "
                                    f"{shorten(names)}")
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
