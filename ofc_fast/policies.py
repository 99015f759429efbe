"""Policies that choose moves: the :class:`Policy` protocol, :class:`RandomPolicy`
and the greedy :class:`HeuristicPolicy` (rollouts per move, the exact solver in
fantasyland), and :func:`resolve_policies`, the one place that turns what a
caller gives (one policy, a list or a dict per seat, nothing) into a policy
per seat.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias, TypeGuard, runtime_checkable

import numpy as np
import numpy.typing as npt

from ofc_fast._args import SeedLike, integer, points, seat, seed_sequence
from ofc_fast.cards import ALL_CARDS, EMPTY
from ofc_fast.deprecation import UNSET, warn_renamed
from ofc_fast.errors import ArgumentError, shorten
from ofc_fast.fantasyland import solve_fantasyland
from ofc_fast.moves import DISCARD, Move, MoveList, PlayerView
from ofc_fast.rollouts import (
    is_dead,
    rollout,
)
from ofc_fast.rules import Variant

__all__ = ["Policy", "RandomPolicy", "HeuristicPolicy", "resolve_policies", "seeded_policies",
           "fantasyland_move", "PoliciesLike"]

# -------------------------------------------------------------------------- policies
@runtime_checkable
class Policy(Protocol):
    """Chooses a move: ``choose(view, moves) -> Move`` where ``view`` is the
    acting player's :class:`PlayerView` and ``moves`` the :class:`MoveList`.

    Any object with such a method is a policy (a structural protocol: no
    need to inherit from it; ``isinstance(obj, Policy)`` checks for the
    method).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> class FirstMove:
    ...     def choose(self, view: ofc.PlayerView, moves: ofc.MoveList) -> ofc.Move:
    ...         return moves[0]
    >>> isinstance(FirstMove(), Policy)
    True
    >>> sum(ofc.Game("pineapple", 2, seed=1).run(FirstMove()).points)
    0
    """

    def choose(self, view: PlayerView, moves: MoveList) -> Move:
        """The move to play.

        Parameters
        ----------
        view : PlayerView
            What the player to act sees.
        moves : MoveList
            Its legal moves.

        Returns
        -------
        Move
            One of ``moves`` (or any form :meth:`Game.play` takes).
        """
        ...


PoliciesLike: TypeAlias = Policy | Sequence[Policy] | Mapping[int, Policy] | None
"""What ``Game.run`` and ``Match`` take as ``policies``: one policy for
every seat, one per seat (a list, or a dict seat -> policy), or None for the
default."""


class RandomPolicy:
    """Uniformly random legal move (seeded numpy Generator).

    Parameters
    ----------
    seed : int, SeedSequence, Generator or None
        The choices' random stream (a Generator is used as it is, shared).

    Raises
    ------
    TypeError, ArgumentError
        For a bad seed.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=1)
    >>> move = RandomPolicy(seed=2).choose(g.view(g.to_act), g.legal_moves())
    >>> move == RandomPolicy(seed=2).choose(g.view(g.to_act), g.legal_moves())
    True
    """

    def __init__(self, seed: SeedLike = None) -> None:
        self._rng = _rng(seed)
        self._buf = self._rng.random(4096).tolist()
        self._pos = 0

    def _u(self) -> float:
        if self._pos >= len(self._buf):
            self._buf = self._rng.random(4096).tolist()
            self._pos = 0
        u: float = self._buf[self._pos]
        self._pos += 1
        return u

    def choose(self, view: PlayerView, moves: MoveList) -> Move:
        """A legal move, uniformly at random.

        Parameters
        ----------
        view : PlayerView
            What the player to act sees (unused).
        moves : MoveList
            Its legal moves.

        Returns
        -------
        Move
        """
        return moves[int(self._u() * len(moves))]

    def __deepcopy__(self, memo: dict[int, Any]) -> RandomPolicy:
        # the buffered draws are floats: a shallow list copy is a deep one
        new = RandomPolicy.__new__(RandomPolicy)
        memo[id(self)] = new
        new._rng = copy.deepcopy(self._rng, memo)
        new._buf = list(self._buf)
        new._pos = self._pos
        return new


class HeuristicPolicy:
    """A simple greedy player that avoids fouls and chases royalties.

    Every legal move (a random sample of ``max_moves`` when there are more)
    is scored by ``samples`` random completions of the resulting layout
    (:func:`rollout`): mean royalties, minus ``foul_cost`` per foul, plus
    ``fantasyland_value`` per fantasyland entry; dead layouts are avoided.
    Fantasyland hands are set by the exact solver
    (:func:`ofc_fast.solve_fantasyland`).

    Parameters
    ----------
    seed : int, SeedSequence, Generator or None
        The random stream of the samples and of the tie breaks.
    samples : int
        Completions per move (``policy="best"`` rollouts).
    max_moves : int
        Most moves scored per decision (a random sample of them beyond).
    foul_cost : float
        Points subtracted per foul.
    fantasyland_value : float
        Points added per fantasyland entry (and the points of a repeat in
        a fantasyland hand).
    tries : int
        Arrangements per completion of the rollouts.

    Raises
    ------
    TypeError, ArgumentError
        For a bad argument, naming it.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> res = ofc.Game("pineapple", 2, seed=3).run([HeuristicPolicy(seed=1, samples=8),
    ...                                             ofc.RandomPolicy(2)])
    >>> sum(res.points)
    0
    """

    def __init__(self, seed: SeedLike = None, samples: int = 24, max_moves: int = 400,
                 foul_cost: float = 5.0, fantasyland_value: float = 12.0,
                 tries: int = 12) -> None:
        self._rng = _rng(seed)
        self.samples = integer(samples, "samples", 1, 1_000_000, floats=True)
        self.tries = integer(tries, "tries", 1, 1_000_000, floats=True)
        self.max_moves = integer(max_moves, "max_moves", 1, 10_000_000, floats=True)
        self.foul_cost = points(foul_cost, "foul_cost")
        self.fantasyland_value = points(fantasyland_value, "fantasyland_value")

    def choose(self, view: PlayerView, moves: MoveList) -> Move:
        """The move of best score (see the class).

        Parameters
        ----------
        view : PlayerView
            What the player to act sees.
        moves : MoveList
            Its legal moves.

        Returns
        -------
        Move
        """
        n = len(moves)
        if n == 1:
            return moves[0]
        v = view.variant
        if view.street == -1:
            return fantasyland_move(view, moves, self.fantasyland_value)
        lays: npt.NDArray[np.uint8]
        if n > self.max_moves:
            idx = self._rng.choice(n, self.max_moves, replace=False)
            cands = [moves[int(i)] for i in idx]
            lays = np.empty((len(cands), v.n_cards), np.uint8)
            base = view.layout
            for k, m in enumerate(cands):
                lays[k] = _apply(base, m, v)
        else:
            idx = np.arange(n)
            lays, _ = moves.layouts()
        seen = view.seen_mask
        st = rollout(lays, n=self.samples, variant=v, unseen=ALL_CARDS & ~seen, seed=self._rng,
                     policy="best", tries=self.tries,
                     fantasyland_value=int(self.fantasyland_value))
        score = st.royalty_mean - self.foul_cost * st.foul_rate \
            + self.fantasyland_value * st.fantasyland_rate
        # never choose a dead layout when a live one exists
        dead_now = is_dead(lays, ALL_CARDS & ~seen, v)
        score = np.where(dead_now, score - 1000.0, score)
        score = score + self._rng.random(len(score)) * 1e-6
        return moves[int(idx[int(np.argmax(score))])]


def _rng(seed: SeedLike) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed_sequence(seed))


def _apply(base: npt.NDArray[np.uint8], move: Move, v: Variant) -> npt.NDArray[np.uint8]:
    lay = np.array(base, dtype=np.uint8)
    offs = np.cumsum((0,) + v.row_sizes)
    for c, r in zip(move.cards, move.rows, strict=True):
        if r == DISCARD:
            continue
        row = lay[offs[r]:offs[r + 1]]
        row[np.flatnonzero(row == EMPTY)[0]] = c
    return lay


def fantasyland_move(view: PlayerView, moves: MoveList, fantasyland_value: float = UNSET, *,
                     fl_value: float = UNSET) -> Move:
    """The move of a fantasyland hand that sets the exact best arrangement.

    Parameters
    ----------
    view : PlayerView
        The view of the player to act, in fantasyland (``view.street == -1``).
    moves : MoveList
        Its legal moves (unused: the move is built from the solution).
    fantasyland_value : float
        Points a repeat of fantasyland is worth (objective
        ``"royalties+repeat"`` of :func:`ofc_fast.solve_fantasyland`).
    fl_value
        Deprecated (0.3): ``fantasyland_value``.

    Returns
    -------
    Move
        Every dealt card to its row in the solution, the rest discarded.

    Raises
    ------
    ArgumentError
        When the view's hand is not a fantasyland deal of the variant, or
        ``fantasyland_value`` is not a finite number of points.
    TypeError
        ``fantasyland_value`` missing or not a number.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=1, fantasyland=[14, 0])
    >>> move = fantasyland_move(g.view(g.to_act), g.legal_moves(), 20.0)
    >>> move in g.legal_moves()
    True
    """
    if fl_value is not UNSET:
        warn_renamed("fantasyland_move(fl_value=...)", "fantasyland_move(fantasyland_value=...)",
                     since="0.3")
        fantasyland_value = fl_value
    if fantasyland_value is UNSET:
        raise TypeError("fantasyland_move() missing 1 required argument: 'fantasyland_value'")
    v = view.variant
    sol = solve_fantasyland(np.array(view.hand, dtype=np.uint8), v, objective="royalties+repeat",
                            fantasyland_value=fantasyland_value,
                            in_fantasyland=max(1, view.fantasyland_count[view.seat]))
    offs = np.cumsum((0,) + v.row_sizes)
    pos = {int(c): i for i, c in enumerate(sol.layout.tolist())}
    rows = []
    for c in view.hand:
        i = pos.get(int(c))
        rows.append(DISCARD if i is None else int(np.searchsorted(offs, i, side="right") - 1))
    return Move(tuple(view.hand), tuple(rows))


def seeded_policies(n_players: int, seed: SeedLike, salt: int = 0) -> list[RandomPolicy]:
    """A RandomPolicy per seat, reproducible when ``seed`` is.

    Parameters
    ----------
    n_players : int
        Seats.
    seed : int, SeedSequence or other
        An int or a SeedSequence seeds the policies; anything else (None, a
        Generator) gives unseeded ones.
    salt : int
        Tells streams of one seed apart (``Game.run`` uses 1).

    Returns
    -------
    list of RandomPolicy

    Raises
    ------
    ArgumentError
        For a negative seed or salt.

    Examples
    --------
    >>> a, b = seeded_policies(2, 7), seeded_policies(2, 7)
    >>> [p._u() for p in a] == [p._u() for p in b]
    True
    """
    salt = integer(salt, "salt", 0)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        ss = np.random.SeedSequence([integer(seed, "seed", 0), salt])
    elif isinstance(seed, np.random.SeedSequence):
        ss = np.random.SeedSequence(seed.entropy, spawn_key=tuple(seed.spawn_key) + (salt,))
    else:
        return [RandomPolicy() for _ in range(n_players)]
    return [RandomPolicy(child) for child in ss.spawn(n_players)]


def resolve_policies(policies: PoliciesLike, n_players: int,
                     default: Callable[[], Sequence[Policy]] | None = None) -> list[Policy]:
    """One policy per seat from what a caller gives (``Game.run`` and
    ``Match`` resolve through here).

    Parameters
    ----------
    policies : Policy, sequence of Policy, mapping of int to Policy, or None
        One policy for every seat, a list per seat, or a dict seat -> policy.
    n_players : int
        Seats.
    default : callable or None
        For ``policies=None``: returns the list (default: an unseeded
        RandomPolicy per seat).

    Returns
    -------
    list of Policy
        One per seat.

    Raises
    ------
    TypeError
        For anything without a ``choose`` method, naming the seat, or a
        seat that is not an integer.
    ArgumentError
        For a seat missing or not at the table, or a list of the wrong length.

    Examples
    --------
    >>> pol = RandomPolicy(1)
    >>> resolve_policies(pol, 3) == [pol, pol, pol]
    True
    >>> resolve_policies({0: pol}, 2)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: policies must name every seat 0 .. 1; seat 1 has none
    """
    P = n_players
    if policies is None:
        return list(default()) if default is not None else [RandomPolicy() for _ in range(P)]
    if isinstance(policies, Mapping):
        given = {seat(k, P, "a seat of policies"): pol for k, pol in policies.items()}
        missing = [p for p in range(P) if p not in given]
        if missing:
            raise ArgumentError(f"policies must name every seat 0 .. {P - 1}; seat {missing[0]} "
                                f"has none")
        out = [given[p] for p in range(P)]
    elif isinstance(policies, (Sequence, np.ndarray)) and not isinstance(policies, (str, bytes)):
        if len(policies) != P:
            raise ArgumentError(f"need one policy per seat ({P}), got {len(policies)}")
        out = list(policies)
    elif _is_policy(policies):
        return [policies] * P                       # one policy plays every seat
    else:
        raise _not_a_policy(policies, "every seat")
    for p, pol in enumerate(out):
        if not _is_policy(pol):
            raise _not_a_policy(pol, f"seat {p}")
    return out


def _is_policy(pol: object) -> TypeGuard[Policy]:
    return not isinstance(pol, type) and callable(getattr(pol, "choose", None))


def _not_a_policy(pol: object, who: str) -> TypeError:
    return TypeError(f"the policy of {who} is {shorten(pol, 60)}: a policy is an object "
                     f"with a choose(view, moves) method")
