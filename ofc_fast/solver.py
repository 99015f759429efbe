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

:class:`SolverPolicy` chooses moves on the same completions under a time
budget, spending them on the moves that are close to the best, and sets
fantasyland hands with the exact solver (:func:`ofc_fast.solve_fantasyland`).
Its decision is C (``ofc_fast._solver``, shared with the batch engine); the
class is its face: the settings (:func:`solver_options`, their one home), a
seed per decision, the move returned.

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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, SupportsIndex

import numpy as np
import numpy.typing as npt

from ofc_fast._args import SeedLike, integer, kernel_seed, points
from ofc_fast._rollout import VALUE_SUMS, values_kernel
from ofc_fast._solver import seat_position
from ofc_fast._stop import Stop
from ofc_fast.deprecation import UNSET, renamed_attribute
from ofc_fast.errors import ArgumentError, MoveError, MoveIndexError, StateError, shorten
from ofc_fast.game import Game
from ofc_fast.moves import Move, MoveList, PlayerView
from ofc_fast.policies import (
    DEFAULT_FANTASYLAND_VALUE,
    SolverOptions,
    SolverPolicy,
    solver_options,
)
from ofc_fast.rollouts import (
    MAX_COMPLETIONS,
    completion_model,
    play_rules,
)
from ofc_fast.rules import MAX_ROYALTY, Variant
from ofc_fast.threads import run_chunks, thread_count

__all__ = ["move_values", "MoveValues", "MoveValue", "SolverPolicy", "SolverOptions",
           "solver_options", "MAX_MOVES", "DEFAULT_FANTASYLAND_VALUE"]

MAX_MOVES = 200_000
"""Most moves one :func:`move_values` call values (a fantasyland hand has
millions: value a few with ``moves=``, or set it with the exact solver)."""


# accumulator columns of values_kernel (ACC_* in _rollout_values.pxi)
_P, _PP, _FOUL, _ROY, _F, _FP, _XPP, _XPF, _XFP, _XFF = range(VALUE_SUMS)
_MIN_CHUNK = 64          # completions worth a thread


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
    completion : str
        The completion model, ``"random"`` or ``"best"`` (``policy``: its
        deprecated alias, 0.4).
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
    completion: str
    seat: int
    fantasyland_value: float
    variant: Variant

    policy = renamed_attribute("completion", "policy", since="0.4")

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
                f"(completion {self.completion!r}, fantasyland worth {self.fantasyland_value:g})")

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
        return (f"<MoveValues seat {self.seat}: {len(self)} moves, n={self.n:,}, "
                f"{self.completion!r}>")


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


def _position(view: PlayerView, moves: MoveList, which: object = None) -> _Position:
    """The position of the seat to act as it sees it (``_solver.seat_position``,
    the solver's own view of it), for the moves ``which`` (default all)."""
    total = len(moves)
    if which is None:
        if total > MAX_MOVES:
            what = (f"seat {view.seat} plays this hand in fantasyland" if view.street == -1
                    else f"seat {view.seat} to act")
            raise ArgumentError(f"{what}: {total:,} legal moves, more than {MAX_MOVES:,} valued "
                             f"at once; value some of them with moves=[...], or set a "
                             f"fantasyland hand with ofc_fast.solve_fantasyland "
                             f"(SolverPolicy does)")
        index = np.arange(total, dtype=np.int64)
    else:
        index = _move_index(moves, which, total)
        if len(index) > MAX_MOVES:
            raise ArgumentError(f"moves: {len(index):,} moves, at most {MAX_MOVES:,} at once")
    moves._live()
    lays, opp, fl_opp, room, pool, fl_hero = seat_position(moves._core, index)
    return _Position(variant=view.variant, seat=view.seat, layouts=lays, index=index,
                     opponents=opp, pool=pool, fl_hero=fl_hero, fl_opp=fl_opp, room=room)


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
    stop = Stop()

    def run(lo: int, hi: int) -> npt.NDArray[np.int64]:
        acc = np.zeros((M, VALUE_SUMS), np.int64)
        short = values_kernel(pr, lays, pos.room, pos.opponents, pos.pool, pos.fl_hero, pos.fl_opp,
                              k0 + lo, k0 + hi, kseed, tries, bonus, ref, acc, stop)
        if short:
            raise ArgumentError("fewer unseen cards than empty slots at the table")
        return acc

    parts = run_chunks(run, n, n_threads, min_chunk=_MIN_CHUNK, stop=stop)
    return parts[0] if len(parts) == 1 else np.sum(parts, axis=0)


def _ev_stats(acc: npt.NDArray[np.int64], n: int, fv: float
              ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """ev, its standard error and the points mean from the sums."""
    sp, spp, sf, sfp = (acc[:, c].astype(np.float64) for c in (_P, _PP, _F, _FP))
    mean = (sp + fv * sf) / n
    sq = (spp + 2 * fv * sfp + fv * fv * sf) / n
    var = np.maximum(sq - mean * mean, 0.0)
    return mean, np.sqrt(var / n), sp / n


def move_values(game: Game, n: int = 10_000, completion: str = "random", seed: SeedLike = None,
                n_threads: int | None = 1, fantasyland_value: float = 0, *,
                moves: object = None, tries: int = 8, policy: str = UNSET) -> MoveValues:
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
    completion : str
        The completion model (:data:`ofc_fast.rollouts.COMPLETIONS`).
        ``"random"``: the cards fill the empty slots in a uniformly random
        way (the reference definition).  ``"best"``: every layout keeps the
        best of ``tries`` random arrangements of the cards it is dealt
        (royalties, plus ``fantasyland_value`` for fantasyland; a foul is
        worst), as :func:`ofc_fast.rollout` ``completion="best"``.
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
        Arrangements per completion under ``completion="best"``.
    policy : str
        Deprecated (0.4): ``completion``.

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
        A bad ``n``, ``completion``, ``tries``, ``n_threads`` or
        ``fantasyland_value``; more than :data:`MAX_MOVES` moves (a
        fantasyland hand: pass ``moves=``).
    KeyboardInterrupt
        Ctrl-C (any signal handler that raises) stops every thread of the
        call between two completions, within a few milliseconds of work:
        nothing is returned, the game is unchanged.

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
    completion = completion_model(completion, policy, "move_values")
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
    acc = _sums(pos, 0, n, kseed, tries if completion == "best" else 1, round(fv), -1, n_threads)
    return _values(pos, ml, acc, n, completion, fv)


def _values(pos: _Position, ml: MoveList, acc: npt.NDArray[np.int64], n: int, completion: str,
            fv: float) -> MoveValues:
    ev, se, pts = _ev_stats(acc, n, fv)
    mv = tuple(ml[int(i)] for i in pos.index)
    return MoveValues(moves=mv, move_index=pos.index, ev=ev, ev_se=se,
                      foul_rate=acc[:, _FOUL] / n, royalty_mean=acc[:, _ROY] / n,
                      fantasyland_rate=acc[:, _F] / n, points_mean=pts, n=n,
                      completion=completion,
                      seat=pos.seat, fantasyland_value=fv, variant=pos.variant)
