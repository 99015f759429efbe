"""A sequence of hands at one table (docs/rules.md sections 7 and 9):
:class:`Match` moves the button, carries fantasyland into the next hand,
keeps running scores and ends after its orbits or a time-out.

>>> from ofc_fast import RandomPolicy
>>> m = Match("pineapple", n_players=2, seed=3)
>>> scores = m.run(RandomPolicy(seed=4))
>>> int(scores.sum()), m.ended_by
(0, 'orbits')
"""
from __future__ import annotations

import copy as _copy
import pickle
import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc_fast._args import integer, kernel_seed, seed_sequence
from ofc_fast._args import seat as seat_arg
from ofc_fast._hand import seeded_deck
from ofc_fast._table import FantasylandLike, fantasyland_spec, table_seats
from ofc_fast.deals import check_match_deal
from ofc_fast.deprecation import UNSET, renamed_attribute, warn_renamed
from ofc_fast.errors import RulesError, StateError, shorten
from ofc_fast.game import Game
from ofc_fast.moves import HandResult
from ofc_fast.policies import PoliciesLike, RandomPolicy, resolve_policies
from ofc_fast.rollouts import engine_rules
from ofc_fast.rules import Variant, as_variant

__all__ = ["Match"]


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
    n_players : int, optional
        The number of players (default: 2, or as many as ``names``).
    n_hands : int, optional
        Button moves the match lasts: a positive multiple of the number of
        players (default: the number of players, one orbit).
    seed : int >= 0, sequence of int, SeedSequence or None
        Seeds every hand's deck and the default policies: hand ``k`` deals
        deck ``k`` of the seed's C stream (``ofc_fast._hand.seeded_deck(
        kernel_seed(seed), k, jokers)``: 52 cards and the variant's jokers),
        so ``Match(seed=s).start_hand()`` deals what ``Game(seed=s)`` deals,
        and game ``i`` of
        ``ofc_fast.sim.GameBatch(seed=s)`` is ``Match(seed=[s, i])``.
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
    names : sequence of str, optional
        The players' names, in seat order.
    players, hands
        Deprecated (0.4): ``n_players`` or ``names``, and ``n_hands``.

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
        match could deal more than the deck's cards (players x the largest
        deal a seat can get: the streets, or the largest fantasyland deal of
        ``entry_cards`` / ``repeat_cards``)
    ArgumentError
        any other bad argument value, saying which and quoting it
    TypeError
        an argument of the wrong type (``policies`` without a ``choose``
        method, ...)

    A match copies (``copy.copy``, ``copy.deepcopy``, :meth:`copy`: an
    independent match, its hand in progress and its policies copied too)
    and pickles when its policies do (a policy that does not pickle raises
    TypeError naming its seat).

    Examples
    --------
    >>> m = Match("pineapple", n_players=2, seed=3)
    >>> scores = m.run(RandomPolicy(seed=4))
    >>> int(scores.sum()), m.hands_played >= 2, m.ended_by
    (0, True, 'orbits')
    """

    variant: Variant
    names: tuple[str, ...]
    n_players: int
    n_hands: int
    finish_fantasyland: bool
    auto: bool
    id: str
    button: int
    button_moves: int
    scores: npt.NDArray[np.int64]
    results: list[HandResult]
    records: list[dict[str, Any]]
    timeouts: list[tuple[int, tuple[int, ...]]]

    def __init__(self, variant: Variant | str = "pineapple", n_players: int | None = None,
                 n_hands: int | None = None,
                 seed: int | Sequence[int] | np.random.SeedSequence | None = None, *,
                 names: Sequence[str] | None = None,
                 policies: PoliciesLike = None, button: int = 0, auto: bool = True,
                 finish_fantasyland: bool = True, id: str | None = None,
                 fantasyland: FantasylandLike = None, players: int | Sequence[str] = UNSET,
                 hands: int | None = UNSET) -> None:
        v = as_variant(variant)
        engine_rules(v)
        P, names = table_seats(n_players, names, players, v, "Match")
        if hands is not UNSET:
            warn_renamed("Match(hands=...)", "Match(n_hands=...)", since="0.4")
            n_hands = hands
        hands = n_hands
        if hands is None:
            hands = P
        else:
            hands = integer(hands, "n_hands")
            if hands < P or hands % P:
                raise RulesError(f"a match lasts at least one full orbit and a whole number of "
                                 f"orbits: hands must be a positive multiple of the {P} "
                                 f"players, got {hands}")
        button = seat_arg(button, P, "button")
        fl_cards, fl_count = fantasyland_spec(fantasyland, P, v)
        check_match_deal(v, P)
        self.variant = v
        self.names = names
        self.n_players = P
        self.n_hands = hands
        self.finish_fantasyland = bool(finish_fantasyland)
        self.auto = bool(auto)
        self.id = id if id is not None else (f"{v.name}-match-{seed}"
                                             if isinstance(seed, (int, np.integer))
                                             else uuid.uuid4().hex[:16])
        self._ss = seed_sequence(seed)
        self._key = kernel_seed(self._ss)       # hand k deals deck k of this key
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
    hands = renamed_attribute("n_hands", "hands", since="0.4")

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
        if self.button_moves >= self.n_hands and \
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
            A given deck order (52 cards and the variant's jokers) instead of the seeded deck
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
        self._game = Game(self.variant, names=self.names, seed=self._ss.spawn(1)[0],
                          button=self.button,
                          fantasyland=[fl if fl[0] else 0 for fl in self._fl], auto=self.auto,
                          id=f"{self.id}-{k}",
                          deck=seeded_deck(self._key, k, self.variant.jokers) if deck is None
                          else deck)
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
        settled = g._core.settle()       # the points and the match rule, in C (as GameBatch)
        if settled is None:
            raise StateError("the current hand is not finished")
        pts, fl_cards, fl_count, button, moved = settled
        P = self.n_players
        res = g.result()
        self.scores += np.array(pts, np.int64)
        self.results.append(res)
        self.records.append(g.record())
        self._fl = list(zip(fl_cards, fl_count, strict=True))
        out = g.timed_out
        if out:
            self.timeouts.append((len(self.results) - 1, out))
            self._extenders = {p for p in self._extenders | set(range(P))
                               if p not in out and (fl_cards[p] or p in self._extenders)}
        self.button = button
        self.button_moves += moved
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
