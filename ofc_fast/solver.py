"""Values of moves and a policy built on them (docs/solver.md).

:func:`move_values` values every legal move of the player to act from what
that player may see: each of ``n`` completions deals the cards the player
has not seen into every empty slot at the table (the player's layout after
the move, the opponents' layouts, hidden fantasyland hands included) and
scores the table with the variant's scoring.  Every move meets the same
completion decks (common random numbers), so the differences between moves
are far less noisy than the values themselves.  The loops run in C
(``ofc_fast._rollout.values_kernel``) without the GIL, on ``n_threads``
threads, with results that do not depend on the thread count.

:class:`SolverPolicy` chooses moves with it under a time budget, spending
the completions on the moves that are close to the best, and sets
fantasyland hands with the exact solver (:func:`ofc_fast.solve_fantasyland`).

>>> import ofc_fast as ofc
>>> g = ofc.Game("pineapple", 2, seed=7)
>>> mv = move_values(g, n=2000, seed=1)
>>> len(mv) == len(g.legal_moves())
True
>>> best = mv.best()
>>> best.move in g.legal_moves(), bool(best.ev >= mv.ev.max())
(True, True)
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, SupportsIndex

import numpy as np
import numpy.typing as npt

from ofc_fast._args import SeedLike, choice, integer, kernel_seed, number, points, seed_sequence
from ofc_fast._rollout import VALUE_SUMS, values_kernel
from ofc_fast.cards import ALL_CARDS, EMPTY, card_mask
from ofc_fast.errors import ArgumentError, MoveError, MoveIndexError, StateError, shorten
from ofc_fast.game import Game
from ofc_fast.moves import DISCARD, Move, MoveList, PlayerView
from ofc_fast.policies import fantasyland_move
from ofc_fast.rollouts import (
    MAX_COMPLETIONS,
    POLICIES,
    is_dead,
    play_rules,
)
from ofc_fast.rules import MAX_ROYALTY, Variant
from ofc_fast.threads import run_chunks, thread_count

__all__ = ["move_values", "MoveValues", "MoveValue", "SolverPolicy", "MAX_MOVES",
           "DEFAULT_FANTASYLAND_VALUE"]

MAX_MOVES = 200_000
"""Most moves one :func:`move_values` call values (a fantasyland hand has
millions: value a few with ``moves=``, or set it with the exact solver)."""

DEFAULT_FANTASYLAND_VALUE = 25.0
"""Points :class:`SolverPolicy` counts for earning fantasyland (and for a
repeat) by default (docs/solver.md says how it was chosen)."""

# accumulator columns of values_kernel (ACC_* in _rollout_values.pxi)
_P, _PP, _FOUL, _ROY, _F, _FP, _XPP, _XPF, _XFP, _XFF = range(VALUE_SUMS)
_MIN_CHUNK = 64          # completions worth a thread
_MIN_ROUND = 8           # fewest completions in a round of SolverPolicy
_SURVIVOR = 1e12         # ranks the moves still in above the dropped ones
_GUESS_RATE = 16e6       # move-completions per second times tries, three rows, before measuring


class MoveValue(NamedTuple):
    """One move's value (an item of :class:`MoveValues`).

    Attributes
    ----------
    move_index : int
        The move's position in ``game.legal_moves()``.
    move : Move
    ev : float
        Mean points, plus ``fantasyland_value`` per fantasyland earned.
    ev_se : float
        Standard error of ``ev``.
    foul_rate : float
        The player's fouls over the completions.
    royalty_mean : float
        Its mean royalty total (fouls count 0).
    fantasyland_rate : float
        Its fantasyland entries (or repeats).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> x = move_values(ofc.Game("pineapple", 2, seed=3), n=100, seed=1)[0]
    >>> x.move_index, 0 <= x.foul_rate <= 1
    (0, True)
    """
    move_index: int            # position in game.legal_moves()
    move: Move
    ev: float                  # mean points, plus fantasyland_value per fantasyland earned
    ev_se: float               # standard error of ev
    foul_rate: float
    royalty_mean: float        # mean royalty total (fouls count 0)
    fantasyland_rate: float    # completions earning fantasyland (or a repeat)


@dataclass(frozen=True, eq=False)
class MoveValues:
    """Values of the moves of the player to act (:func:`move_values`).

    Attributes
    ----------
    moves : tuple of Move
        The moves valued, in the order of ``game.legal_moves()``.
    move_index : ndarray of int64
        Each move's position in ``game.legal_moves()``.
    ev : ndarray of float64
        Mean points against all opponents (the variant's scoring, royalties
        and fouls included) plus ``fantasyland_value`` per fantasyland
        earned.
    ev_se : ndarray of float64
        Standard error of ``ev``.  Moves share their completion decks, so the
        difference of two moves' values is usually far more precise than
        either value.
    foul_rate : ndarray of float64
        The player's fouls over the completions.
    royalty_mean : ndarray of float64
        Its mean royalty total (0 when fouled).
    fantasyland_rate : ndarray of float64
        Its fantasyland entries (repeats in a fantasyland hand).
    points_mean : ndarray of float64
        Mean points alone (``ev`` without the fantasyland term).
    n : int
        Completions per move.
    policy : str
        ``"random"`` or ``"best"``.
    seat : int
        The player valued.
    fantasyland_value : float
        Points counted per fantasyland earned.
    variant : Variant
        The rules (for :meth:`format`).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=3)
    >>> mv = move_values(g, n=500, seed=2)
    >>> top = mv.top(3)
    >>> [round(x.ev, 6) for x in top] == sorted((round(x.ev, 6) for x in top), reverse=True)
    True
    """
    moves: tuple[Move, ...]
    move_index: npt.NDArray[np.int64]
    ev: npt.NDArray[np.float64]
    ev_se: npt.NDArray[np.float64]
    foul_rate: npt.NDArray[np.float64]
    royalty_mean: npt.NDArray[np.float64]
    fantasyland_rate: npt.NDArray[np.float64]
    points_mean: npt.NDArray[np.float64]
    n: int
    policy: str
    seat: int
    fantasyland_value: float
    variant: Variant

    def __len__(self) -> int:
        return len(self.moves)

    def __getitem__(self, i: SupportsIndex) -> MoveValue:
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"MoveValues indexes are integers, got {shorten(i)}")
        i = int(i)
        if not -len(self) <= i < len(self):
            raise MoveIndexError(f"index {i} out of range: {len(self)} moves")
        i %= len(self)
        return MoveValue(int(self.move_index[i]), self.moves[i], float(self.ev[i]),
                         float(self.ev_se[i]), float(self.foul_rate[i]),
                         float(self.royalty_mean[i]), float(self.fantasyland_rate[i]))

    def __iter__(self) -> Iterator[MoveValue]:
        for i in range(len(self)):
            yield self[i]

    def best(self) -> MoveValue:
        """The move of highest ``ev`` (the first of equal ones).

        Returns
        -------
        MoveValue

        Raises
        ------
        StateError
            When no move was valued (also a RuntimeError).

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> mv = move_values(ofc.Game("pineapple", 2, seed=3), n=200, seed=1)
        >>> mv.best().ev == max(x.ev for x in mv)
        True
        """
        if not len(self):
            raise StateError("no move was valued: an empty MoveValues has no best move")
        return self[int(np.argmax(self.ev))]

    def top(self, k: int = 5) -> list[MoveValue]:
        """The ``k`` moves of highest ``ev``, best first (ties: list order).

        Parameters
        ----------
        k : int
            How many (all of them when fewer).

        Returns
        -------
        list of MoveValue

        Raises
        ------
        TypeError, ArgumentError
            For a ``k`` that is not an integer >= 0.

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> mv = move_values(ofc.Game("pineapple", 2, seed=3), n=200, seed=1)
        >>> len(mv.top(4)), mv.top(1)[0] == mv.best()
        (4, True)
        """
        k = integer(k, "k", 0)
        order = np.argsort(-self.ev, kind="stable")[:k]
        return [self[int(i)] for i in order]

    def __str__(self) -> str:
        return self.format(10)

    def to_frame(self, kind: str = "pandas") -> Any:
        """One row per move, in the order of ``game.legal_moves()``.

        Parameters
        ----------
        kind : str
            ``"pandas"``, ``"polars"`` or ``"arrow"`` (a pyarrow Table).

        Returns
        -------
        pandas.DataFrame, polars.DataFrame or pyarrow.Table
            Columns ``move`` (the move in card text, :meth:`Move.describe`),
            ``move_index``, ``ev``, ``ev_se``, ``foul_rate``,
            ``royalty_mean``, ``fantasyland_rate`` and ``points_mean``.

        Raises
        ------
        ArgumentError, TypeError
            An unknown ``kind``.
        ImportError
            The frame library is not installed.

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> mv = move_values(ofc.Game("pineapple", 2, seed=3), n=200, seed=1)
        >>> df = mv.to_frame()
        >>> len(df) == len(mv), df.loc[df["ev"].idxmax(), "move"] == mv.best().move.describe()
        (True, True)
        >>> list(df.columns[:4])
        ['move', 'move_index', 'ev', 'ev_se']
        """
        from ofc_fast._tabular import frame_kind, frame_of
        kind = frame_kind(kind)
        return frame_of({"move": [m.describe(self.variant) for m in self.moves],
                         "move_index": self.move_index, "ev": self.ev, "ev_se": self.ev_se,
                         "foul_rate": self.foul_rate, "royalty_mean": self.royalty_mean,
                         "fantasyland_rate": self.fantasyland_rate,
                         "points_mean": self.points_mean}, kind)

    def _repr_html_(self) -> str:
        """The best 10 moves as an HTML table (what a notebook shows)."""
        from ofc_fast._tabular import html_table
        rows = [(x.move.describe(self.variant), f"{x.ev:+.3f}", f"{x.ev_se:.3f}",
                 f"{x.foul_rate:.1%}", f"{x.royalty_mean:.2f}", f"{x.fantasyland_rate:.1%}")
                for x in self.top(10)]
        return html_table(("move", "ev", "ev se", "foul", "royalties", "fantasyland"), rows,
                          caption=self._head() + (f"; the best 10 of {len(self)}"
                                                  if len(self) > 10 else ""))

    def _head(self) -> str:
        return (f"seat {self.seat}, {len(self)} moves, {self.n:,} completions each "
                f"(policy {self.policy!r}, fantasyland worth {self.fantasyland_value:g})")

    def format(self, k: int = 10) -> str:
        """The best ``k`` moves as a table (move, ev +- se, fouls, royalties, fantasyland).

        Parameters
        ----------
        k : int
            Rows shown.

        Returns
        -------
        str

        Raises
        ------
        TypeError, ArgumentError
            For a bad ``k``.

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> mv = move_values(ofc.Game("pineapple", 2, seed=3), n=200, seed=1)
        >>> mv.format(2).splitlines()[0].split()[:3]
        ['seat', '1,', '232']
        """
        rows = [self._head()]
        for x in self.top(k):
            rows.append(f"  {x.ev:+8.3f} +- {x.ev_se:6.3f}  foul {x.foul_rate:6.1%}  "
                        f"royalties {x.royalty_mean:6.2f}  fantasyland {x.fantasyland_rate:6.1%}  "
                        f"{x.move.describe(self.variant)}")
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"<MoveValues seat {self.seat}: {len(self)} moves, n={self.n:,}, {self.policy!r}>"


# ------------------------------------------------------------------ the position
@dataclass
class _Position:
    """What the kernel needs of the player to act, from its view only."""
    variant: Variant
    seat: int
    layouts: npt.NDArray[np.uint8]      # (M, n_cards) the player's layout after each move
    index: npt.NDArray[np.int64]        # (M,) move numbers
    opponents: npt.NDArray[np.uint8]    # (Q, n_cards) as the player sees them
    pool: int                    # cards the player has not seen
    fl_hero: int
    fl_opp: npt.NDArray[np.uint8]
    room: npt.NDArray[np.int32]         # (rows,) empty slots per row before the move


def _apply(base: npt.NDArray[np.uint8], move: Move, v: Variant) -> npt.NDArray[np.uint8]:
    lay = np.array(base, dtype=np.uint8)
    offs = np.cumsum((0,) + v.row_sizes)
    for c, r in zip(move.cards, move.rows, strict=True):
        if r != DISCARD:
            row = lay[offs[r]:offs[r + 1]]
            row[np.flatnonzero(row == EMPTY)[0]] = c
    return lay


def _move_index(moves: MoveList, spec: object, total: int) -> npt.NDArray[np.int64]:
    if isinstance(spec, (str, bytes, Move)) or not isinstance(spec, (Iterable, np.ndarray)):
        raise TypeError(f"moves must be a sequence of move indexes or Moves, got {shorten(spec)}")
    out = []
    for item in spec:
        if isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
            i = int(item)
            if not -total <= i < total:
                raise MoveError(f"moves: index {i} out of range ({total} legal moves)")
            out.append(i % total)
        else:
            out.append(moves.index(item))      # MoveError / TypeError naming the problem
    return np.array(out, dtype=np.int64)


def _position(view: PlayerView, moves: MoveList, which: object = None, *,
              limit: bool = True) -> _Position:
    v = view.variant
    total = len(moves)
    if which is None:
        if total > MAX_MOVES and limit:
            what = (f"seat {view.seat} plays this hand in fantasyland" if view.street == -1
                    else f"seat {view.seat} to act")
            raise ArgumentError(f"{what}: {total:,} legal moves, more than {MAX_MOVES:,} valued "
                             f"at once; value some of them with moves=[...], or set a "
                             f"fantasyland hand with ofc_fast.solve_fantasyland "
                             f"(SolverPolicy does)")
        lays, _ = moves.layouts()
        index = np.arange(total, dtype=np.int64)
    else:
        index = _move_index(moves, which, total)
        if len(index) > MAX_MOVES:
            raise ArgumentError(f"moves: {len(index):,} moves, at most {MAX_MOVES:,} at once")
        base = view.layout
        lays = np.empty((len(index), v.n_cards), np.uint8)
        for k, i in enumerate(index.tolist()):
            lays[k] = _apply(base, moves[i], v)
    opp = np.array([view.layouts[q] for q in range(view.n_players) if q != view.seat],
                   dtype=np.uint8).reshape(-1, v.n_cards)
    counts = view.fantasyland_count
    fl_opp = np.array([min(counts[q], 255) for q in range(view.n_players) if q != view.seat],
                      dtype=np.uint8)
    offs = np.cumsum((0,) + v.row_sizes)
    own = view.layout
    room = np.array([int((own[offs[r]:offs[r + 1]] == EMPTY).sum()) for r in range(v.n_rows)],
                    dtype=np.int32)
    return _Position(variant=v, seat=view.seat, layouts=np.ascontiguousarray(lays), room=room,
                     index=index, opponents=np.ascontiguousarray(opp),
                     pool=ALL_CARDS & ~view.seen_mask, fl_hero=min(counts[view.seat], 255),
                     fl_opp=fl_opp)


def _points_bound(v: Variant) -> int:
    """A bound on |points| of one completion against all opponents."""
    s = v.scoring
    scoop = s.scoop_total(v.n_rows)
    pair = (v.n_rows * s.per_row + s.scoop_bonus + s.majority_bonus
            + max(s.penalty(v.n_rows), scoop) + 4 * MAX_ROYALTY)
    return 3 * pair


def _sums(pos: _Position, k0: int, k1: int, kseed: int, tries: int, bonus: int, ref: int,
          n_threads: int | None,
          rows: npt.NDArray[np.intp] | None = None) -> npt.NDArray[np.int64]:
    """Per-move int64 sums (``VALUE_SUMS`` columns) over completions k0 .. k1 - 1."""
    pr = play_rules(pos.variant)
    lays = pos.layouts if rows is None else np.ascontiguousarray(pos.layouts[rows])
    M = len(lays)
    n = k1 - k0

    def run(lo: int, hi: int) -> npt.NDArray[np.int64]:
        acc = np.zeros((M, VALUE_SUMS), np.int64)
        short = values_kernel(pr, lays, pos.room, pos.opponents, pos.pool, pos.fl_hero, pos.fl_opp,
                              k0 + lo, k0 + hi, kseed, tries, bonus, ref, acc)
        if short:
            raise ArgumentError("fewer unseen cards than empty slots at the table")
        return acc

    parts = run_chunks(run, n, n_threads, min_chunk=_MIN_CHUNK)
    return parts[0] if len(parts) == 1 else np.sum(parts, axis=0)


def _check_policy(policy: object) -> str:
    return choice(policy, "policy", POLICIES, what="completion policy")


def _ev_stats(acc: npt.NDArray[np.int64], n: int, fv: float
              ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """ev, its standard error and the points mean from the sums."""
    sp, spp, sf, sfp = (acc[:, c].astype(np.float64) for c in (_P, _PP, _F, _FP))
    mean = (sp + fv * sf) / n
    sq = (spp + 2 * fv * sfp + fv * fv * sf) / n
    var = np.maximum(sq - mean * mean, 0.0)
    return mean, np.sqrt(var / n), sp / n


def move_values(game: Game, n: int = 10_000, policy: str = "random", seed: SeedLike = None,
                n_threads: int | None = 1, fantasyland_value: float = 0, *,
                moves: object = None, tries: int = 8) -> MoveValues:
    """Value every legal move of the player to act by completing the table.

    Only what the player to act may see is used (``game.view(seat)``): its
    own layout, hand and discards, the opponents' placed cards; every other
    card (opponents' discards, the deck, a hidden fantasyland hand) is
    unseen.  Each of the ``n`` completions deals distinct unseen cards into
    every empty slot of the player's layout after the move and of each
    opponent's layout, then scores the table (docs/rules.md section 6).

    Parameters
    ----------
    game : Game
        The position; the hand must not be over.
    n : int
        Completions per move (1 .. 2**31 - 1).
    policy : str
        ``"random"``: the cards fill the empty slots in a uniformly random
        way (the reference definition).  ``"best"``: every layout keeps the
        best of ``tries`` random arrangements of the cards it is dealt
        (royalties, plus ``fantasyland_value`` for fantasyland; a foul is
        worst), as :func:`ofc_fast.rollout` ``policy="best"``.
    seed : int, SeedSequence, Generator or None
        The completion decks: the same for every move of a call, completion
        ``k`` drawn from its own stream, so results do not depend on
        ``n_threads``.
    n_threads : int or None
        Threads over chunks of completions (``None``: one per CPU).
    fantasyland_value : float
        Points counted per fantasyland earned by the player (an entry, or a
        repeat in a fantasyland hand).
    moves : sequence of int or Move, optional
        Value only these moves (positions in ``game.legal_moves()`` or
        moves); the default is every legal move, at most :data:`MAX_MOVES`.
    tries : int
        Arrangements per completion under ``policy="best"``.

    Returns
    -------
    MoveValues
        One entry per move, in the order of ``game.legal_moves()`` (or of
        ``moves``).

    Raises
    ------
    TypeError
        ``game`` is not a Game, or an argument of the wrong type.
    MoveError
        The hand is over, or ``moves`` names a move that is not legal.
    ArgumentError
        A bad ``n``, ``policy``, ``tries``, ``n_threads`` or
        ``fantasyland_value``; more than :data:`MAX_MOVES` moves (a
        fantasyland hand: pass ``moves=``).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 3, seed=11)
    >>> mv = move_values(g, n=1000, seed=5, fantasyland_value=10)
    >>> mv.n, len(mv), mv.seat
    (1000, 232, 1)
    >>> a = move_values(g, n=1000, seed=5, fantasyland_value=10, n_threads=2)
    >>> bool((a.ev == mv.ev).all())
    True
    """
    if not isinstance(game, Game):
        raise TypeError(f"move_values takes a Game, got {shorten(game)}")
    seat = game.to_act
    if game.done or seat is None:
        raise MoveError("the hand is over: no move to value")
    n = integer(n, "n", 1, MAX_COMPLETIONS, floats=True)
    policy = _check_policy(policy)
    tries = integer(tries, "tries", 1, 1_000_000, floats=True)
    fv = points(fantasyland_value, "fantasyland_value")
    thread_count(n_threads)
    kseed = kernel_seed(seed)
    v = game.variant
    if n * _points_bound(v) ** 2 >= 2**62:
        raise ArgumentError(f"n={n:,} completions could overflow the exact sums under "
                         f"{v.name}'s scoring; use fewer")
    view = game.view(seat)
    ml = game.legal_moves()
    pos = _position(view, ml, moves)
    acc = _sums(pos, 0, n, kseed, tries if policy == "best" else 1, round(fv), -1, n_threads)
    return _values(pos, ml, acc, n, policy, fv)


def _values(pos: _Position, ml: MoveList, acc: npt.NDArray[np.int64], n: int, policy: str,
            fv: float) -> MoveValues:
    ev, se, pts = _ev_stats(acc, n, fv)
    mv = tuple(ml[int(i)] for i in pos.index)
    return MoveValues(moves=mv, move_index=pos.index, ev=ev, ev_se=se,
                      foul_rate=acc[:, _FOUL] / n, royalty_mean=acc[:, _ROY] / n,
                      fantasyland_rate=acc[:, _F] / n, points_mean=pts, n=n, policy=policy,
                      seat=pos.seat, fantasyland_value=fv, variant=pos.variant)


# ---------------------------------------------------------------------- the policy
class SolverPolicy:
    """A policy that chooses the move of highest value (:func:`move_values`).

    Each decision values the player's moves in rounds on common completion
    decks: after each round the moves whose value is clearly below the
    leader's (by more than ``z`` standard errors of the paired difference)
    are dropped, and the next round, about as many completions as all rounds
    before, goes to the rest, until one move is left, ``n`` completions are
    reached or the time budget is spent.  The move played is the best one
    that keeps a live hand alive (the moves still in by value, then the
    dropped ones by their value when dropped, each checked with the exact
    :func:`ofc_fast.is_dead` until one is alive): a move that makes a live
    hand dead is never chosen while another keeps it alive.
    Fantasyland hands are set by the exact solver
    (:func:`ofc_fast.solve_fantasyland`, a repeat worth
    ``fantasyland_value``).

    Parameters
    ----------
    n : int
        Most completions per move in one decision.
    seed : int, SeedSequence, Generator or None
        The decisions' completion decks.
    time_budget_ms : float or None
        Wall-clock time per decision (about; one core).  ``None``: no limit,
        so a decision depends only on the seed and the position.
    policy : str
        Completion model, ``"best"`` (default) or ``"random"``.
    fantasyland_value : float
        Points counted per fantasyland earned (and per repeat).
    tries : int
        Arrangements per completion under ``policy="best"`` (16: stronger
        than 8 in matches, as strong as 32 and cheaper; docs/solver.md).
    z : float
        Standard errors below the leader at which a move is dropped.
    first_round : int
        Completions per move in the first round.

    Raises
    ------
    TypeError, ValueError
        For a bad argument, naming it.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=5)
    >>> res = g.run([SolverPolicy(seed=1, time_budget_ms=20), ofc.RandomPolicy(2)])
    >>> sum(res.points)
    0
    """

    def __init__(self, n: int = 50_000, seed: SeedLike = None, time_budget_ms: float | None = 100,
                 policy: str = "best", fantasyland_value: float = DEFAULT_FANTASYLAND_VALUE, *,
                 tries: int = 16, z: float = 3.0, first_round: int = 32) -> None:
        self.n = integer(n, "n", 1, MAX_COMPLETIONS, floats=True)
        self._rng = seed if isinstance(seed, np.random.Generator) else \
            np.random.default_rng(seed_sequence(seed))
        if time_budget_ms is not None:
            time_budget_ms = number(time_budget_ms, "time_budget_ms", above=0)
        self.time_budget_ms = time_budget_ms
        self.policy = _check_policy(policy)
        self.fantasyland_value = points(fantasyland_value, "fantasyland_value")
        self.tries = integer(tries, "tries", 1, 1_000_000, floats=True)
        self.z = number(z, "z", lo=0)
        self.first_round = integer(first_round, "first_round", 1, MAX_COMPLETIONS, floats=True)
        self.last: dict[str, Any] | None = None     # what the last decision did (docs/solver.md)

    def choose(self, view: PlayerView, moves: MoveList) -> Move:
        """The move to play (see the class).

        Parameters
        ----------
        view : PlayerView
            What the player to act sees.
        moves : MoveList
            Its legal moves.

        Returns
        -------
        Move

        Raises
        ------
        ArgumentError
            When the position cannot be completed (fewer unseen cards than
            empty slots).

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> g = ofc.Game("pineapple", 2, seed=5)
        >>> pol = SolverPolicy(seed=1, time_budget_ms=None, n=256)
        >>> pol.choose(g.view(g.to_act), g.legal_moves()) in g.legal_moves()
        True
        """
        t0 = time.perf_counter()
        total = len(moves)
        if total == 1:
            self.last = {"moves": 1, "reason": "only move"}
            return moves[0]
        if view.street == -1:
            self.last = {"moves": total, "reason": "fantasyland solver"}
            return fantasyland_move(view, moves, self.fantasyland_value)
        pos = _position(view, moves, limit=False)
        v = pos.variant
        cand = np.arange(total)
        deadline = None if self.time_budget_ms is None else t0 + 0.95 * self.time_budget_ms / 1e3
        kseed = int(self._rng.integers(0, 2**63, dtype=np.int64)) * 2 + 1
        tries = self.tries if self.policy == "best" else 1
        fv = self.fantasyland_value
        bonus = round(fv)
        cum = np.zeros((len(cand), VALUE_SUMS), np.int64)   # every completion so far
        cross = np.zeros_like(cum)        # completions since the reference was chosen
        ref = 0                           # row of the reference move in cand
        done = cross_n = 0
        size = min(self.first_round, self.n)
        if deadline is not None:
            # the first round takes at most about a third of what is left, at
            # a rate guessed from a typical machine (later rounds measure it)
            guess = _GUESS_RATE / tries * 3 / v.n_rows
            left = deadline - time.perf_counter()
            size = max(_MIN_ROUND, min(size, int(left / 3 * guess / len(cand))))
        rounds = []
        last_mean = np.full(total, -np.inf)       # each move's mean when last valued
        while True:
            t = time.perf_counter()
            acc = _sums(pos, done, done + size, kseed, tries, bonus, ref, 1, rows=cand)
            elapsed = time.perf_counter() - t
            rate = len(cand) * size / max(elapsed, 1e-6)      # move-completions per second
            cum += acc
            cross += acc
            done += size
            cross_n += size
            rounds.append((len(cand), size))
            mean = (cum[:, _P] + fv * cum[:, _F]) / done
            last_mean[cand] = mean
            lead = int(np.argmax(mean))
            se = _paired_se(cross, ref, cross_n, done, fv)
            # sd(m - lead) <= sd(m - ref) + sd(lead - ref): exact when lead is the reference
            keep = mean[lead] - mean <= self.z * (se + se[lead])
            keep[lead] = True
            new_lead = int(np.count_nonzero(keep[:lead]))
            if lead != ref:
                cross = np.zeros_like(cum)
                cross_n = 0
            cand, cum, cross = cand[keep], cum[keep], cross[keep]
            ref = new_lead
            if len(cand) == 1 or done >= self.n:
                break
            size = min(done, self.n - done)
            if deadline is not None:
                left = deadline - time.perf_counter()
                size = min(size, int(0.8 * left * rate / len(cand)))
                if size < _MIN_ROUND:
                    break
        # the best move that keeps a live hand alive: the moves still in by
        # their mean, then the dropped ones by their mean when dropped
        rank = last_mean.copy()
        rank[cand] = (cum[:, _P] + fv * cum[:, _F]) / done + _SURVIVOR
        order = np.argsort(-rank, kind="stable")
        best = int(order[0])
        checked = 0
        if not is_dead(view.layout, pos.pool | card_mask(view.hand), v):
            for m in order.tolist():
                checked += 1
                if not is_dead(pos.layouts[m], pos.pool, v):
                    best = m
                    break
        self.last = {"moves": total, "completions": done, "rounds": rounds, "left": len(cand),
                     "dead_checks": checked, "ms": (time.perf_counter() - t0) * 1e3}
        return moves[best]


def _paired_se(cross: npt.NDArray[np.int64], ref: int, cn: int, n: int,
               fv: float) -> npt.NDArray[np.float64]:
    """Standard error of each move's mean minus the reference's over n
    completions, its variance estimated from the cn completions of the cross sums."""
    if cn == 0:
        return np.full(len(cross), np.inf)
    c = cross.astype(np.float64)
    sx = c[:, _P] + fv * c[:, _F]
    sxx = c[:, _PP] + 2 * fv * c[:, _FP] + fv * fv * c[:, _F]
    sxr = c[:, _XPP] + fv * (c[:, _XPF] + c[:, _XFP]) + fv * fv * c[:, _XFF]
    d = (sx - sx[ref]) / cn
    d2 = (sxx - 2 * sxr + sxx[ref]) / cn
    se: npt.NDArray[np.float64] = np.sqrt(np.maximum(d2 - d * d, 0.0) / n)
    return se
