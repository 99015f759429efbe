"""Many games at once, in C: :class:`GameBatch` (the batch engine's Python
face; the C loops are ``ofc_fast._batch``) and :class:`FinishedHands`, the
hands it played.
"""
from __future__ import annotations

import dataclasses
import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ofc_fast._args import (
    SeedLike,
    as_array,
    fits_memory,
    flag,
    holds_integers,
    integer,
    seed_entropy,
    seed_words,
)
from ofc_fast._batch import ACTION_PROBLEMS, STATE_BYTES, STATES, TIMEOUT, BatchCore, seed_keys
from ofc_fast._hand import HandCore, HandStatus
from ofc_fast._stop import Stop
from ofc_fast._table import FantasylandLike, deck_orders
from ofc_fast.cards import format_cards
from ofc_fast.deprecation import renamed_attribute
from ofc_fast.errors import ArgumentError, MoveError, StateError, shorten
from ofc_fast.game import Game
from ofc_fast.moves import hand_error
from ofc_fast.rollouts import engine_rules
from ofc_fast.rules import Variant
from ofc_fast.sim.actions import MAX_ACTIONS
from ofc_fast.sim.seats import run_python
from ofc_fast.sim.spec import POLICIES, BatchPolicies, BatchSpec, PolicyLike
from ofc_fast.threads import run_chunks, thread_count

__all__ = ["GameBatch", "FinishedHands", "PolicyLike", "BatchPolicies", "POLICIES", "TIMEOUT"]

# ---------------------------------------------------------------- results
@dataclass(frozen=True)
class FinishedHands:
    """Finished hands of a batch, one row per hand (:meth:`GameBatch.run_recorded`,
    :meth:`GameBatch.last_hands`): what a hand record holds.

    Parameters
    ----------
    variant : Variant
        The rules the hands were played under.
    game : ndarray of int64, shape (N,)
        The game of each hand.
    hand_number : ndarray of int64, shape (N,)
        Its number in the game (0 first; the deck it dealt): ``hand``
        before 0.4 (a deprecated alias; ``hand`` names the dealt cards in
        :meth:`GameBatch.observe`).
    button : ndarray of int8, shape (N,)
        The button's seat.
    layouts : ndarray of uint8, shape (N, n_players, n_cards)
        Each seat's final layout (rows in deal order within a row).
    discards : ndarray of uint8, shape (N, n_players, D)
        Each seat's discards in the order discarded, ``EMPTY`` (255) after.
    fantasyland_count : ndarray of uint8, shape (N, n_players)
        Each seat's fantasyland count in that hand (0: a normal hand; k: the
        k-th fantasyland hand in a row), as ``in_fantasyland`` of a record
        (``fantasyland`` before 0.4, a deprecated alias).
    points : ndarray of int32, shape (N, n_players)
        The hand's points per seat (zero-sum).
    foul : ndarray of bool, shape (N, n_players)
        The seat's layout fouled.
    royalty_total : ndarray of int32, shape (N, n_players)
        Its royalties (0 when fouled).
    next_fantasyland : ndarray of uint8, shape (N, n_players)
        The fantasyland deal it earned (an entry or a repeat; 0: none).

    Examples
    --------
    >>> hands = GameBatch("pineapple", 2, 3, seed=4).run_recorded(hands=2)
    >>> len(hands), hands.layouts.shape, hands.points.sum(axis=1).tolist()
    (4, (4, 3, 13), [0, 0, 0, 0])
    """
    variant: Variant
    game: npt.NDArray[np.int64]
    hand_number: npt.NDArray[np.int64]
    button: npt.NDArray[np.int8]
    layouts: npt.NDArray[np.uint8]
    discards: npt.NDArray[np.uint8]
    fantasyland_count: npt.NDArray[np.uint8]
    points: npt.NDArray[np.int32]
    foul: npt.NDArray[np.bool_]
    royalty_total: npt.NDArray[np.int32]
    next_fantasyland: npt.NDArray[np.uint8]

    fantasyland = renamed_attribute("fantasyland_count", "fantasyland", since="0.4")
    hand = renamed_attribute("hand_number", "hand", since="0.4")

    def __len__(self) -> int:
        return len(self.game)

    def _columns(self) -> tuple[npt.NDArray[Any], ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self)[1:])

    def head(self, n: int) -> FinishedHands:
        """The first ``n`` hands (views).

        Parameters
        ----------
        n : int
        """
        return FinishedHands(self.variant, *(a[:n] for a in self._columns()))

    def take(self, rows: npt.NDArray[np.intp]) -> FinishedHands:
        """The hands of ``rows``, in their order (copies).

        Parameters
        ----------
        rows : ndarray of int
        """
        return FinishedHands(self.variant, *(a[rows] for a in self._columns()))

    @staticmethod
    def concat(variant: Variant, parts: Sequence[FinishedHands]) -> FinishedHands:
        """The hands of ``parts`` one after another.

        Parameters
        ----------
        variant : Variant
        parts : sequence of FinishedHands
        """
        cols = zip(*(p._columns() for p in parts), strict=True)
        return FinishedHands(variant, *(np.concatenate(c) for c in cols))


def hand_bytes(spec: BatchSpec) -> int:
    """Bytes of one row of :class:`FinishedHands` of a batch."""
    return 17 + spec.n_players * (spec.variant.n_cards + spec.max_discards + 5)


def _finished(v: Variant, n: int, P: int, D: int) -> FinishedHands:
    return FinishedHands(v, np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int8),
                         np.zeros((n, P, v.n_cards), np.uint8), np.zeros((n, P, D), np.uint8),
                         np.zeros((n, P), np.uint8), np.zeros((n, P), np.int32),
                         np.zeros((n, P), np.bool_), np.zeros((n, P), np.int32),
                         np.zeros((n, P), np.uint8))


def _rec_arrays(f: FinishedHands) -> tuple[Any, ...]:
    """The arrays the C loop writes a finished hand's row into (bools as bytes)."""
    return (f.game, f.hand_number, f.button, f.layouts, f.discards, f.fantasyland_count, f.points,
            f.foul.view(np.uint8), f.royalty_total, f.next_fantasyland)


# ------------------------------------------------------------------ the batch
_Method = TypeVar("_Method", bound=Callable[..., Any])


def _serial(method: _Method) -> _Method:
    """One call at a time per batch: the loops run without the GIL, so two
    Python threads in one batch would change the same games at once (a
    crash); a second caller waits for the first.  The method keeps its
    signature (for type checkers and ``inspect``)."""
    def serial(self: GameBatch, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)
    functools.update_wrapper(serial, method)
    return cast(_Method, serial)


def _reuse(out: object, arrays: dict[str, tuple[Any, ...]]) -> dict[str, npt.NDArray[Any]]:
    """``observe(out=)``: the caller's arrays when they are exactly the ones
    ``arrays`` describes (keys, shapes, dtypes; writable and contiguous)."""
    if not isinstance(out, dict):
        raise TypeError(f"out must be the dict an earlier observe() returned, got "
                        f"{shorten(out)}")
    if set(out) != set(arrays):
        raise ArgumentError(f"out holds {sorted(out)}; this observation is {sorted(arrays)} "
                            f"(the same legal= and mask= as the call that made it)")
    for key, (shape, dtype) in arrays.items():
        a = out[key]
        if not isinstance(a, np.ndarray) or a.shape != shape or a.dtype != dtype \
                or not a.flags.writeable or not a.flags.c_contiguous:
            raise ArgumentError(f"out[{key!r}] must be a writable C-contiguous "
                                f"{np.dtype(dtype).name} array of shape {shape}, got "
                                f"{shorten(a)}")
    return out


class GameBatch:
    """``n_games`` independent games of OFC advanced together in C.

    Each game is a match continued hand after hand (:class:`Match`: the
    button moves after every hand without a fantasyland player; fantasyland
    earned is played in the next hand, repeats counted; scores run on).
    The engine plays every turn but an external seat's: built-in policies,
    every fantasyland hand, automatic moves and time-outs.

    Parameters
    ----------
    variant : Variant or str
        The rules (any variant :class:`Game` plays; external seats need an
        action space of at most :data:`MAX_ACTIONS`: not ``chinese``).
    n_games : int
        Games in the batch (1 .. 2**31 - 1).
    n_players : int
        Seats per game, as the variant allows.
    seed : int >= 0, sequence of int, SeedSequence, Generator or None
        Game ``i`` deals what ``Match(variant, n_players, seed=[seed, i])``
        deals (:meth:`game_seed`; a sequence ``[*seed, i]``; a
        SeedSequence with a spawn key or a Generator stands for its
        ``kernel_seed``, None for fresh entropy): hand ``k`` is deck ``k``
        of that match seed's C stream.  The built-in policies draw from
        their own stream of (game, hand), so results depend on the seed
        alone: not on ``n_threads``, nor on the other games.
    fantasyland : None, or a list or dict of entries per seat
        Fantasyland for every game's first hand, as for :class:`Match`.
    policies : policy, list or dict per seat
        Per seat (one entry for every seat, a list, or a dict seat ->
        entry), a built-in policy, written once in C and played alike here
        and by its Python class (``ofc_fast.policies``): ``"random"``
        (:class:`RandomPolicy`), ``"greedy"`` (:class:`GreedyPolicy`),
        ``"heuristic"`` (:class:`HeuristicPolicy`), ``"racing"``
        (:class:`RacingPolicy`), or ``"external"`` (the caller's, through
        :meth:`observe` / :meth:`step`; the engine sets its fantasyland
        hands with the exact solver).  A ``(name, options)`` pair sets the
        parameters of :class:`~ofc_fast.policies.RolloutParams`
        (``samples``, ``tries``, ``max_moves``, ``foul_cost``,
        ``fantasyland_value``); a policy object is its name with its
        parameters (a game draws from its own stream, not the object's).
        The 0.3 names ``"best"`` (``"greedy"``) and ``("heuristic",
        {"race": True})`` (``"racing"``) still work, with a
        DeprecationWarning; ``"heuristic"`` is the exhaustive heuristic.
        A *Python seat* is a policy that cannot run in the C loop: an
        :class:`~ofc_fast.sim.spec.ArrayPolicy` (``act(observe()) ->
        actions``, all its games at once: e.g.
        :class:`ofc_fast.rl.policy.ObservationPolicy`, a trained network) or
        any other :class:`~ofc_fast.policies.Policy` object (``choose``, in
        each game rebuilt as a :class:`Game`); :meth:`run` and
        :meth:`run_recorded` play it between the C calls (``"python"`` in
        :attr:`policies`; not beside ``"external"`` seats).
    auto : bool
        Automatic moves (docs/rules.md section 9), as for :class:`Game`.
    auto_deal : bool
        Deal a game's next hand as soon as one ends (default).  Off, a game
        whose hand is over waits (:attr:`over`) for :meth:`next_hand`.
    button : int
        Every game's first button.
    decks : array_like of int, shape (n_games, deck_size), optional
        Deck orders of every game's first hand instead of the seeded decks
        (replays, tests); the later hands deal the seeded decks.
    n_threads : int or None
        Threads that split the games (None: one per CPU); results are the
        same for any number.

    Raises
    ------
    RulesError
        A variant the engine cannot play, or a deal that does not fit the
        deck (as :class:`Match`).
    ArgumentError
        Any other bad value, naming the argument.
    TypeError
        An argument of the wrong type.

    Notes
    -----
    A seat's fantasyland hands are its policy's (the exact solver,
    objective ``"royalties+repeat"`` with its ``fantasyland_value``, for the
    valued policies: what :func:`~ofc_fast.policies.fantasyland_move` plays;
    a random move for ``"random"``; the solver for an external seat).  A
    time-out (action :data:`TIMEOUT`) plays the seat's time-out placements
    for the rest of that hand; the game goes on (a :class:`Match` would
    end after that hand).

    Ctrl-C (a KeyboardInterrupt, any signal handler that raises) stops a
    call within some 20 ms of work, whatever its policies, and leaves the
    batch usable: every game stops between two turns, every hand finished
    before is counted (:attr:`scores`, :attr:`hands_played`), and the
    games it left in the middle of the engine's turns are played on at the
    next :meth:`observe`, :meth:`step` or :meth:`next_hand` (or go on in the
    next :meth:`run`).  What the interrupted call would have returned is
    lost (``run_recorded``'s hands; ``step``'s rewards stay in the scores
    and come with the next call's).  One game costs about
    :attr:`state_bytes` bytes (100,000 games: well under 200 MB).

    Examples
    --------
    Self-play of built-in policies:

    >>> b = GameBatch("pineapple", 1000, 3, seed=7, policies="random")
    >>> int(b.run(hands=1).sum()), int(b.hands_played.sum())
    (0, 1000)

    An external policy in the loop (here: random legal actions in numpy):

    >>> b = GameBatch("pineapple", 8, 2, seed=1, policies=["external", "random"])
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(20):
    ...     obs = b.observe()
    ...     pick = (rng.random(len(obs["game"])) * obs["n_legal"]).astype(np.int64)
    ...     rewards, done = b.step(obs["legal"][np.arange(len(pick)), pick])
    >>> int(b.hands_played.sum()) > 0
    True
    """

    spec: BatchSpec
    variant: Variant
    n_games: int
    n_players: int
    policies: tuple[str, ...]
    seed: tuple[int, ...]

    def __init__(self, variant: Variant | str = "pineapple", n_games: int = 1,
                 n_players: int = 2, *, seed: SeedLike = None,
                 fantasyland: FantasylandLike = None, policies: BatchPolicies = "random",
                 auto: bool = True, auto_deal: bool = True, button: int = 0,
                 decks: npt.ArrayLike | None = None, n_threads: int | None = 1) -> None:
        self._build(BatchSpec.check(variant, n_players, policies=policies,
                                    fantasyland=fantasyland, auto=auto, auto_deal=auto_deal,
                                    button=button), n_games, seed, decks, n_threads)

    @classmethod
    def from_spec(cls, spec: BatchSpec, n_games: int = 1, *, seed: SeedLike = None,
                  decks: npt.ArrayLike | None = None, n_threads: int | None = 1) -> GameBatch:
        """A batch of checked arguments (:class:`~ofc_fast.sim.spec.BatchSpec`).

        Parameters
        ----------
        spec : BatchSpec
        n_games, seed, decks, n_threads
            As for :class:`GameBatch`.

        Returns
        -------
        GameBatch

        Raises
        ------
        ArgumentError, TypeError
            Bad ``n_games``, ``seed``, ``decks`` or ``n_threads``.

        Examples
        --------
        >>> spec = BatchSpec.check("pineapple", 3)
        >>> GameBatch.from_spec(spec, 10, seed=1).n_games
        10
        """
        if not isinstance(spec, BatchSpec):
            raise TypeError(f"spec must be a BatchSpec, got {shorten(spec)}")
        batch = cls.__new__(cls)
        batch._build(spec, n_games, seed, decks, n_threads)
        return batch

    def _build(self, spec: BatchSpec, n_games: object, seed: SeedLike, decks: object,
               n_threads: int | None) -> None:
        v, P = spec.variant, spec.n_players
        n = integer(n_games, "n_games", 1, 2**31 - 1)
        # C state, seeds, scores, rewards, counters
        fits_memory(n * (int(STATE_BYTES) + 16 * P + 32), f"{n:,} games")
        self._threads = thread_count(n_threads)
        self.spec = spec
        self.variant = v
        self.n_games = n
        self.n_players = P
        self.policies = spec.policies
        self.auto = spec.auto
        self.auto_deal = spec.auto_deal
        self._D = spec.max_discards
        self.seed = tuple(seed_entropy(seed))
        keys = seed_keys(seed_words(self.seed), 0, n)
        # Python seats: the C loop stops at every showdown (the hands a run
        # plays are counted and recorded in Python), auto_deal is kept here
        self._python: dict[int, Any] = dict(spec.python)
        core = BatchCore(engine_rules(v), P, keys, spec.c_policies(), spec.auto,
                         spec.auto_deal and not self._python, list(spec.fl_cards),
                         list(spec.fl_count), spec.button)
        self._core = core
        self._external = bool(spec.external)
        self._lock = threading.RLock()
        d = None if decks is None else deck_orders(decks, n, v.jokers)
        self._chunks(lambda lo, hi: core.deal_first(lo, hi, d))
        if self._external:
            self._advance(np.arange(n, dtype=np.int64))

    # ------------------------------------------------------------ helpers
    def _advance(self, idx: npt.NDArray[np.int64]) -> None:
        """Play the engine's turns of games idx (those LIVE) up to an external
        seat's, or the hand's end with auto_deal off: stoppable by Ctrl-C."""
        stop, core = Stop(), self._core
        self._chunks(lambda lo, hi: core.advance_games(idx, lo, hi, stop), len(idx),
                     uneven=True, stop=stop)

    def _resume(self) -> None:
        """Games an interrupted call left in the middle of the engine's turns
        (LIVE while external seats play) are played on to their next stop."""
        if self._external:
            live = np.flatnonzero(self._core.state == STATES["live"])
            if len(live):
                self._advance(live)

    def _chunks(self, fn: Any, n: int | None = None, uneven: bool = False,
                stop: Stop | None = None) -> None:
        run_chunks(fn, self.n_games if n is None else n, self._threads, stop=stop,
                           min_chunk=64, chunks_per_thread=4 if uneven else 1)

    @property
    def n_threads(self) -> int:
        """Threads the batch splits its games across."""
        return self._threads

    @n_threads.setter
    def n_threads(self, value: int | None) -> None:
        self._threads = thread_count(value)

    @property
    def state_bytes(self) -> int:
        """Bytes of one game's C state (its hand, streams, last finished hand)."""
        return int(STATE_BYTES)

    @property
    def action_size(self) -> int:
        """The number of actions (:func:`action_size`); masks have this many columns."""
        return int(self._core.n_actions)

    @property
    def max_cards(self) -> int:
        """The most cards one street deals (the width of ``observe()["hand"]``)."""
        return int(self._core.max_cards)

    @property
    def max_legal(self) -> int:
        """The most legal moves one street can offer (the width of ``observe()["legal"]``)."""
        return int(self._core.max_legal)

    @property
    def waiting(self) -> npt.NDArray[np.int64]:
        """The games whose seat to act is external, ascending: the rows of
        :meth:`observe` and of the actions :meth:`step` takes."""
        return np.flatnonzero(self._core.state == STATES["wait"])

    @property
    def over(self) -> npt.NDArray[np.bool_]:
        """Per game: its hand is over and the next one is not dealt
        (``auto_deal=False``; :meth:`next_hand` deals it)."""
        over: npt.NDArray[np.bool_] = self._core.state == STATES["over"]
        return over

    @property
    def scores(self) -> npt.NDArray[np.int64]:
        """``(n_games, n_players)`` running points of every game (a copy)."""
        scores: npt.NDArray[np.int64] = self._core.scores.copy()
        return scores

    @property
    def hands_played(self) -> npt.NDArray[np.int64]:
        """``(n_games,)`` hands finished per game (a copy)."""
        hands: npt.NDArray[np.int64] = self._core.hands.copy()
        return hands

    @property
    def decisions(self) -> npt.NDArray[np.int64]:
        """``(n_games,)`` decisions played per game: moves chosen by a policy,
        a built-in seat's (its fantasyland hands too) or an external or
        Python seat's on the streets (not the automatic moves, the
        time-outs, nor an external seat's fantasyland hands, which the
        engine's solver sets); a copy."""
        decisions: npt.NDArray[np.int64] = self._core.decisions.copy()
        return decisions

    def game_seed(self, game: int) -> list[int]:
        """The seed of the :class:`Match` whose hands game ``game`` deals.

        Parameters
        ----------
        game : int
            A game of the batch.

        Returns
        -------
        list of int
            ``[*seed, game]``.

        Examples
        --------
        >>> GameBatch("pineapple", 3, seed=5).game_seed(2)
        [5, 2]
        """
        i = integer(game, "game", 0, self.n_games - 1)
        return [*self.seed, i]

    # -------------------------------------------------------------- self-play
    def _no_external(self, what: str) -> None:
        if self._external:
            seats_ = [p for p, n in enumerate(self.policies) if n == "external"]
            raise StateError(f"{what} plays built-in policies only; seat {seats_[0]} is external "
                             f"(use observe() and step())")

    def _take_rewards(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        core = self._core
        rewards: npt.NDArray[np.int64] = core.rewards.copy()
        done: npt.NDArray[np.bool_] = core.finished > 0
        core.rewards[...] = 0
        core.finished[...] = 0
        return rewards, done

    @_serial
    def run(self, hands: int = 1) -> npt.NDArray[np.int64]:
        """Play ``hands`` more hands of every game, in C (Python seats in
        Python between the C calls).

        Parameters
        ----------
        hands : int
            Hands each game plays.  With ``auto_deal`` the next hand is then
            dealt (its first automatic moves played; with Python seats, its
            turns up to the first Python decision, and a game whose next
            hand the engine would play alone, every Python seat in
            fantasyland, waits at the showdown until the next call); without,
            every game waits at the showdown (:attr:`over`).

        Returns
        -------
        ndarray of int64, shape (n_games, n_players)
            Points won per seat over these hands (and any hand finished
            before since the last :meth:`step` or :meth:`run`).

        Raises
        ------
        StateError
            A seat is external.
        ArgumentError, TypeError
            A bad ``hands``; a Python seat's policy giving other than one
            action per game.
        MoveError
            A Python seat's policy chose an illegal action (naming the game).

        Examples
        --------
        A Python seat (here: the first legal action) beside a built-in one:

        >>> class FirstLegal:
        ...     def act(self, obs):
        ...         return obs["legal"][:, 0]
        >>> b = GameBatch("pineapple", 100, 2, seed=1, policies=[FirstLegal(), "random"])
        >>> points = b.run(hands=2)
        >>> b.policies, int(b.hands_played.min()), int(points.sum())
        (('python', 'random'), 2, 0)
        """
        k = integer(hands, "hands", 0, 2**31 - 1)
        self._no_external("run()")
        if self._python:
            return run_python(self, k, None)
        core = self._core
        stop = Stop()
        self._chunks(lambda lo, hi: core.advance(lo, hi, k, stop), uneven=True, stop=stop)
        return self._take_rewards()[0]

    @_serial
    def run_recorded(self, hands: int = 1) -> FinishedHands:
        """:meth:`run`, keeping every hand played: ``n_games * hands`` rows,
        game by game (game ``i``'s hands in order from row ``i * hands``).

        Parameters
        ----------
        hands : int
            Hands each game plays.

        Returns
        -------
        FinishedHands

        Raises
        ------
        StateError
            A seat is external.

        Examples
        --------
        >>> b = GameBatch("pineapple", 2, 2, seed=3)
        >>> played = b.run_recorded(hands=3)
        >>> played.game.tolist(), played.hand_number.tolist()
        ([0, 0, 0, 1, 1, 1], [0, 1, 2, 0, 1, 2])
        """
        k = integer(hands, "hands", 0, 2**31 - 1)
        self._no_external("run_recorded()")
        core = self._core
        P, rows = self.n_players, self.n_games * k
        fits_memory(rows * hand_bytes(self.spec), f"{rows:,} finished hands")
        if self._python:
            parts: list[FinishedHands] = []
            run_python(self, k, parts)
            done = FinishedHands.concat(self.variant, parts) if parts else \
                _finished(self.variant, 0, P, self._D)
            return done.take(np.lexsort((done.hand_number, done.game)))   # game by game
        out = _finished(self.variant, rows, P, self._D)
        arrays = _rec_arrays(out)

        def chunk(lo: int, hi: int) -> None:
            core.advance(lo, hi, k, stop, (lo, *(a[lo * k:hi * k] for a in arrays)))
        stop = Stop()
        self._chunks(chunk, uneven=True, stop=stop)
        self._take_rewards()
        return out

    @_serial
    def last_hands(self, games: npt.ArrayLike | None = None) -> FinishedHands:
        """The last finished hand of each game in ``games`` (default: every
        game that finished one), e.g. those :meth:`step` reported done.

        Parameters
        ----------
        games : array_like of int, optional
            Game indexes.

        Returns
        -------
        FinishedHands
            One row per game, in the order of ``games``.

        Raises
        ------
        StateError
            A game that has not finished a hand yet.
        ArgumentError, TypeError
            Bad game indexes.

        Examples
        --------
        >>> b = GameBatch("pineapple", 3, 2, seed=1)
        >>> _ = b.run(hands=1)
        >>> b.last_hands([2]).hand_number.tolist(), b.last_hands().game.tolist()
        ([0], [0, 1, 2])
        """
        idx = self._games(games, default=np.flatnonzero(self._core.hands > 0))
        if len(idx) and (self._core.hands[idx] == 0).any():
            bad = int(idx[np.flatnonzero(self._core.hands[idx] == 0)[0]])
            raise StateError(f"game {bad} has not finished a hand yet")
        out = _finished(self.variant, len(idx), self.n_players, self._D)
        self._core.last_into(idx, _rec_arrays(out))
        return out

    def _games(self, games: object, default: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        if games is None:
            return np.ascontiguousarray(default, np.int64)
        arr = as_array(games, "games")
        if not holds_integers(arr):
            raise TypeError(f"games must be game indexes (integers), got {shorten(games)}")
        if arr.ndim != 1:
            raise ArgumentError(f"games must have shape (k,), got shape {arr.shape}")
        if arr.size and (arr.min() < 0 or arr.max() >= self.n_games):
            bad = arr[(arr < 0) | (arr >= self.n_games)][0]
            raise ArgumentError(f"games: no game {bad} in a batch of {self.n_games}")
        out = np.array(arr, np.int64, order="C")   # a copy: the caller's array may change
        if len(np.unique(out)) != len(out):
            raise ArgumentError("games must not repeat a game")
        return out

    @_serial
    def next_hand(self, games: npt.ArrayLike | None = None, *,
                  decks: npt.ArrayLike | None = None
                  ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """Deal the next hand of games whose hand is over (``auto_deal=False``),
        then play the engine's turns up to an external seat's.

        Parameters
        ----------
        games : array_like of int, optional
            The games (default: every game over).
        decks : array_like of int, shape (len(games), deck_size), optional
            Deck orders to deal instead of the seeded decks (replays, tests);
            the following hands go on with the seeded decks.

        Returns
        -------
        rewards : ndarray of int64, shape (n_games, n_players)
            Points of the hands finished since the last call that returned
            them (a hand the engine plays out, an external seat's
            fantasyland hand, finishes here), as :meth:`step` returns them.
        done : ndarray of bool, shape (n_games,)
            A hand of the game finished since then.

        Raises
        ------
        StateError
            A game whose hand is not over.
        CardError
            A deck that is not the deck's cards (52 and the jokers) once each.

        Examples
        --------
        >>> b = GameBatch("pineapple", 2, 2, seed=1, auto_deal=False)
        >>> points = b.run(hands=1)
        >>> rewards, done = b.next_hand()      # built-in seats only: each hand played out
        >>> done.tolist(), int(b.hands_played.sum()), rewards.sum(axis=1).tolist()
        ([True, True], 4, [0, 0])
        """
        idx = self._games(games, default=np.flatnonzero(self.over))
        not_over = idx[~self.over[idx]]
        if len(not_over):
            raise StateError(f"game {int(not_over[0])}'s hand is not over: only games over "
                             f"(auto_deal=False) take next_hand()")
        d = None if decks is None else deck_orders(decks, len(idx), self.variant.jokers)
        self._resume()
        self._core.deal_next(idx, d)
        self._advance(idx)
        return self._take_rewards()

    # ------------------------------------------------------------- external
    @_serial
    def observe(self, games: npt.ArrayLike | None = None, seats: npt.ArrayLike | None = None, *,
                legal: bool = True, mask: bool = True,
                out: dict[str, npt.NDArray[Any]] | None = None) -> dict[str, npt.NDArray[Any]]:
        """What a seat sees: by default the seat to act in every game waiting
        on an external seat (one row per game of :attr:`waiting`, ascending),
        the rows :meth:`step` takes actions for.

        Parameters
        ----------
        games : array_like of int, optional
            Other games to look at (any state; a game whose hand is over
            shows the showdown, every layout visible).
        seats : int or array_like of int, optional
            The seat whose view each row shows (one for every game, or one
            per game); default the seat to act.  Legal actions are listed
            for a seat that acts on a street.
        legal : bool
            Include ``legal`` and ``n_legal``.
        mask : bool
            Include ``mask``.
        out : dict, optional
            The arrays of an earlier call with as many rows and the same
            ``legal`` and ``mask`` (what it returned): filled again and
            returned, nothing allocated.

        Returns
        -------
        dict of str to ndarray
            ``game`` (int64): the game; ``seat`` (uint8): the seat whose view
            this is; ``street`` (int8): its street (0 first; -2 when it does
            not act, or the hand is over); ``button`` (int8); ``hand``
            (uint8, ``(k, max_cards)``): the cards it places, in deal order,
            ``EMPTY`` after; ``keep`` (uint8): how many to place; ``layouts``
            (uint8, ``(k, n_players, n_cards)``): every seat's rows as this
            seat sees them (its own, the opponents' visible cards; a
            fantasyland hand ``EMPTY`` until the showdown: the ``layouts`` of
            :meth:`Game.view`); ``discards`` (uint8): its own discards,
            ``EMPTY`` after; ``fantasyland`` (uint8, ``(k, n_players)``):
            each seat's fantasyland count this hand (0: not in fantasyland);
            ``unseen`` (bool, ``(k, deck_size)``): the cards it has not seen
            (52, then the variant's jokers: X1, X2);
            ``legal`` (int32, ``(k, max_legal)``): its legal actions in the
            order of :meth:`Game.legal_moves`, -1 after; ``n_legal``
            (int32); ``mask`` (bool, ``(k, action_size)``): the legal
            actions.

        Raises
        ------
        StateError
            A game whose hand is over, without ``seats``.
        ArgumentError, TypeError
            Bad games or seats; ``mask`` with more than :data:`MAX_ACTIONS`
            actions (``chinese``); an ``out`` of other arrays.

        Examples
        --------
        >>> b = GameBatch("pineapple", 4, 2, seed=1, policies=["external", "random"])
        >>> obs = b.observe()
        >>> obs["game"].tolist(), obs["seat"].tolist(), obs["n_legal"].tolist()
        ([0, 1, 2, 3], [0, 0, 0, 0], [232, 232, 232, 232])
        >>> other = b.observe(games=[0], seats=1)      # the opponent's view of game 0
        >>> int(other["street"][0]), int(other["n_legal"][0]), int((other["hand"] != 255).sum())
        (-2, 0, 0)
        """
        self._resume()
        core = self._core
        if games is None:
            idx = self.waiting
        else:
            idx = self._games(games, default=self.waiting)
        k, P = len(idx), self.n_players
        if seats is None:
            sts = np.empty(0, np.int8)
            over = idx[core.state[idx] == STATES["over"]]
            if len(over):
                raise StateError(f"game {int(over[0])}'s hand is over: no seat acts (give seats)")
        else:
            arr = as_array(seats, "seats")
            if not holds_integers(arr):
                raise TypeError(f"seats must be seats (integers), got {shorten(seats)}")
            if arr.ndim > 1 or (arr.ndim == 1 and arr.shape != (k,)):
                raise ArgumentError(f"seats must be one seat or one per game ({k}), got shape "
                                    f"{arr.shape}")
            if arr.size and (arr.min() < 0 or arr.max() >= P):
                raise ArgumentError(f"seats must be 0 .. {P - 1}, got {shorten(seats)}")
            sts = np.array(np.broadcast_to(arr, (k,)), np.int8, order="C")     # a copy
        want_legal = flag(legal, "legal")
        want_mask = flag(mask, "mask")
        if want_mask and self.action_size > MAX_ACTIONS:
            raise ArgumentError(f"{self.variant.name} has {self.action_size:,} actions: too many "
                                f"for masks (at most {MAX_ACTIONS:,} a row); pass mask=False "
                                f"(legal lists its legal actions)")
        arrays = self._observation(k, want_legal, want_mask)
        if out is None:
            fits_memory(sum(int(np.prod(shape)) * np.dtype(dt).itemsize
                            for shape, dt in arrays.values()),
                        f"the observation arrays of {k:,} games")
        obs: dict[str, npt.NDArray[Any]]
        if out is not None:
            obs = _reuse(out, arrays)
            if want_mask:
                obs["mask"][...] = False    # the C loop sets the legal ones
        else:                               # (np.zeros: pages the kernel clears lazily)
            obs = {key: np.zeros(shape, dtype) if key == "mask" else np.empty(shape, dtype)
                   for key, (shape, dtype) in arrays.items()}
        obs["game"][...] = idx
        mk = obs.get("mask", np.zeros((0, self.action_size), np.bool_))
        lg = obs.get("legal", np.empty((0, self.max_legal), np.int32))
        nl = obs.get("n_legal", np.empty(0, np.int32))
        unseen, mk8 = obs["unseen"].view(np.uint8), mk.view(np.uint8)
        if want_legal or want_mask:
            core.prepare_legal()

        def chunk(lo: int, hi: int) -> None:
            core.observe_into(idx, sts, lo, hi, obs["seat"], obs["street"], obs["button"],
                              obs["hand"], obs["keep"], obs["layouts"], obs["discards"],
                              obs["fantasyland"], unseen, lg, nl, mk8)
        if k:
            self._chunks(chunk, k)
        return obs

    def _observation(self, k: int, legal: bool, mask: bool) -> dict[str, tuple[Any, ...]]:
        """The arrays of an observation of k rows: shape and dtype by key."""
        P, NC = self.n_players, self.variant.n_cards
        arrays: dict[str, tuple[Any, ...]] = {
            "game": ((k,), np.int64), "seat": ((k,), np.uint8), "street": ((k,), np.int8),
            "button": ((k,), np.int8), "hand": ((k, self.max_cards), np.uint8),
            "keep": ((k,), np.uint8), "layouts": ((k, P, NC), np.uint8),
            "discards": ((k, self._D), np.uint8), "fantasyland": ((k, P), np.uint8),
            "unseen": ((k, self.variant.deck_size), np.bool_)}
        if legal:
            arrays["legal"] = ((k, self.max_legal), np.int32)
            arrays["n_legal"] = ((k,), np.int32)
        if mask:
            arrays["mask"] = ((k, self.action_size), np.bool_)
        return arrays

    @_serial
    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """Play one action in every game waiting on an external seat, then
        the engine's turns up to the next external decision.

        Parameters
        ----------
        actions : array_like of int, shape (len(waiting),)
            One action per game of :attr:`waiting` (the rows of
            :meth:`observe`), or :data:`TIMEOUT` (the seat runs out of time:
            its time-out placements for the rest of the hand).

        Returns
        -------
        rewards : ndarray of int64, shape (n_games, n_players)
            Points of the hands finished since the last step (0 elsewhere).
        done : ndarray of bool, shape (n_games,)
            A hand of the game finished since the last step.

        Raises
        ------
        MoveError
            An action that is not legal in its game (nothing is played).
        ArgumentError
            ``actions`` of another shape (a game over takes no action).
        TypeError
            ``actions`` that are not integers.
        """
        if self._python:
            raise StateError(f"seat {next(iter(self._python))} plays a Python policy: run() "
                             f"and run_recorded() play it (step() takes external seats' actions)")
        self._resume()
        core = self._core
        idx = self.waiting
        a = as_array(actions, "actions")
        if not holds_integers(a):
            raise TypeError(f"actions must be integers, got {shorten(actions)}")
        if a.shape != (len(idx),):
            raise ArgumentError(f"step takes one action per waiting game: shape ({len(idx)},), "
                                f"got {a.shape} (games over wait for next_hand() and take none)")
        if a.size and (a.min() < np.iinfo(np.int64).min or a.max() > np.iinfo(np.int64).max):
            raise ArgumentError("actions out of range")
        a = np.array(a, np.int64, order="C")   # a copy: the loops play what was checked, even
        j, problem = core.check_actions(idx, a)     # if another thread rewrites the caller's
        if j >= 0:
            raise self._illegal(int(idx[j]), int(a[j]), problem)
        core.apply_actions(idx, a)
        self._advance(idx)
        return self._take_rewards()

    def _illegal(self, i: int, action: int, problem: int) -> MoveError:
        turn = self._core.turn_info(i)
        assert turn is not None                     # a waiting game has a turn to act
        seat, street, dealt, n_moves = turn
        return MoveError(f"game {i}: action {action} {ACTION_PROBLEMS[problem]} for seat "
                         f"{seat} (street {street}, dealt {format_cards(list(dealt))}, "
                         f"{n_moves} legal moves; actions 0 .. {self.action_size - 1}, or "
                         f"TIMEOUT)")

    # ------------------------------------------------------------ one game
    @_serial
    def game(self, game: int) -> Game:
        """Game ``game``'s current hand as a :class:`Game` (a copy, rebuilt
        from the deal and the moves played): to look at, replay or continue
        in Python.

        Parameters
        ----------
        game : int
            A game of the batch.

        Returns
        -------
        Game
            With ``auto`` as the batch's; its id is ``"{variant}-batch-{game}-{hand}"``.

        Examples
        --------
        >>> b = GameBatch("pineapple", 2, 3, seed=1, auto_deal=False)
        >>> _ = b.run(hands=1)
        >>> g = b.game(1)
        >>> g.done, g.result().points == tuple(b.last_hands([1]).points[0].tolist())
        (True, True)
        """
        i = integer(game, "game", 0, self.n_games - 1)
        deck, button, fl_cards, fl_count, auto, turns, timed_out, dead = self._core.hand_state(i)
        hand_no = self._core.game_info(i)[0]
        P = self.n_players
        g = Game(self.variant, P, button=button,
                 fantasyland=[(c, k) if c else 0 for c, k in zip(fl_cards, fl_count, strict=True)],
                 deck=np.frombuffer(deck, np.uint8), auto=False,
                 id=f"{self.variant.name}-batch-{i}-{hand_no}")
        core: HandCore = g._core
        status = core._replay(turns, timed_out, dead, auto)
        if status:
            raise hand_error(core, HandStatus(status), variant=self.variant)
        return g

    def __len__(self) -> int:
        return self.n_games

    def __reduce__(self) -> Any:
        # pickle and copy.copy/deepcopy come here: say what to do instead of
        # Cython's "no default __reduce__"
        raise TypeError("a GameBatch cannot be pickled or copied: its games are C state. "
                        "Make another with the same arguments and seed (it deals the same "
                        "games), or keep a game's hand with batch.game(i)")

    def __repr__(self) -> str:
        return (f"<GameBatch {self.variant.name}, {self.n_games:,} games of {self.n_players} "
                f"players, policies {', '.join(self.policies)}>")

