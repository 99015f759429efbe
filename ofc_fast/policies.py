"""Policies that choose moves: the :class:`Policy` protocol, :class:`RandomPolicy`
and the greedy :class:`HeuristicPolicy` (rollouts per move, the exact solver in
fantasyland), and :func:`resolve_policies`, the one place that turns what a
caller gives (one policy, a list or a dict per seat, nothing) into a policy
per seat.
"""
from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from ofc_fast.cards import EMPTY
from ofc_fast.errors import shorten
from ofc_fast.fantasyland import solve_fantasyland
from ofc_fast.moves import DISCARD, Move, MoveList, PlayerView
from ofc_fast.rollouts import (
    ALL_CARDS,
    MAX_BONUS,
    int_arg,
    is_dead,
    rollout,
    seed_sequence,
)
from ofc_fast.rules import Variant

__all__ = ["Policy", "RandomPolicy", "HeuristicPolicy", "resolve_policies", "seeded_policies",
           "fantasyland_move"]

# -------------------------------------------------------------------------- policies
@runtime_checkable
class Policy(Protocol):
    """Chooses a move: ``choose(view, moves) -> Move`` where ``view`` is the
    acting player's :class:`PlayerView` and ``moves`` the :class:`MoveList`."""

    def choose(self, view: PlayerView, moves: MoveList) -> Move: ...


class RandomPolicy:
    """Uniformly random legal move (seeded numpy Generator)."""

    def __init__(self, seed=None):
        self._rng = _rng(seed)
        self._buf = self._rng.random(4096).tolist()
        self._pos = 0

    def _u(self) -> float:
        if self._pos >= len(self._buf):
            self._buf = self._rng.random(4096).tolist()
            self._pos = 0
        u = self._buf[self._pos]
        self._pos += 1
        return u

    def choose(self, view, moves):
        return moves[int(self._u() * len(moves))]

    def __deepcopy__(self, memo) -> RandomPolicy:
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
    """

    def __init__(self, seed=None, samples: int = 24, max_moves: int = 400,
                 foul_cost: float = 5.0, fantasyland_value: float = 12.0, tries: int = 12):
        self._rng = _rng(seed)
        self.samples = int_arg(samples, "samples", 1, 1_000_000, floats=True)
        self.tries = int_arg(tries, "tries", 1, 1_000_000, floats=True)
        self.max_moves = int_arg(max_moves, "max_moves", 1, 10_000_000, floats=True)
        self.foul_cost = _number(foul_cost, "foul_cost")
        self.fantasyland_value = _number(fantasyland_value, "fantasyland_value")

    def choose(self, view: PlayerView, moves: MoveList) -> Move:
        n = len(moves)
        if n == 1:
            return moves[0]
        v = view.variant
        if view.street == -1:
            return fantasyland_move(view, moves, self.fantasyland_value)
        if n > self.max_moves:
            idx = self._rng.choice(n, self.max_moves, replace=False)
            cands = [moves[int(i)] for i in idx]
            lays = np.empty((len(cands), v.n_cards), np.uint8)
            discs = []
            base = view.layout
            for k, m in enumerate(cands):
                lays[k] = _apply(base, m, v)
                discs.append(m.discards)
        else:
            idx = np.arange(n)
            lays, d = moves.layouts()
            discs = d
        seen = view.seen_mask
        st = rollout(lays, n=self.samples, variant=v, unseen=ALL_CARDS & ~seen, seed=self._rng,
                     policy="best", tries=self.tries,
                     fantasyland_bonus=int(self.fantasyland_value))
        score = st.royalty_mean - self.foul_cost * st.foul_rate \
            + self.fantasyland_value * st.fantasyland_rate
        # never choose a dead layout when a live one exists
        dead_now = is_dead(lays, ALL_CARDS & ~seen, v)
        score = np.where(dead_now, score - 1000.0, score)
        score = score + self._rng.random(len(score)) * 1e-6
        return moves[int(idx[int(np.argmax(score))])]


def _rng(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed_sequence(seed))


def _number(value, name: str) -> float:
    """A finite number of points within +-MAX_BONUS."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                      np.floating)):
        raise TypeError(f"{name} must be a number, got {shorten(value)}")
    x = float(value)
    if not math.isfinite(x) or abs(x) > MAX_BONUS:
        raise ValueError(f"{name} must be a finite number of points within +-{MAX_BONUS:,}, "
                         f"got {shorten(value)}")
    return x


def _apply(base, move: Move, v: Variant) -> np.ndarray:
    lay = np.array(base, dtype=np.uint8)
    offs = np.cumsum((0,) + v.row_sizes)
    for c, r in zip(move.cards, move.rows):
        if r == DISCARD:
            continue
        row = lay[offs[r]:offs[r + 1]]
        row[np.flatnonzero(row == EMPTY)[0]] = c
    return lay


def fantasyland_move(view: PlayerView, moves: MoveList, fl_value: float) -> Move:
    """The move of a fantasyland hand that sets the exact best arrangement.

    Parameters
    ----------
    view : PlayerView
        The view of the player to act, in fantasyland (``view.street == -1``).
    moves : MoveList
        Its legal moves (unused: the move is built from the solution).
    fl_value : float
        Points a repeat of fantasyland is worth (objective
        ``"royalties+repeat"`` of :func:`ofc_fast.solve_fantasyland`).

    Returns
    -------
    Move
        Every dealt card to its row in the solution, the rest discarded.

    Raises
    ------
    ValueError
        When the view's hand is not a fantasyland deal of the variant.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=1, fantasyland=[14, 0])
    >>> move = fantasyland_move(g.view(g.to_act), g.legal_moves(), 20.0)
    >>> move in g.legal_moves()
    True
    """
    v = view.variant
    sol = solve_fantasyland(np.array(view.hand, dtype=np.uint8), v, objective="royalties+repeat",
                            repeat_value=fl_value,
                            in_fantasyland=max(1, view.fantasyland_count[view.seat]))
    offs = np.cumsum((0,) + v.row_sizes)
    pos = {int(c): i for i, c in enumerate(sol.layout.tolist())}
    rows = []
    for c in view.hand:
        i = pos.get(int(c))
        rows.append(DISCARD if i is None else int(np.searchsorted(offs, i, side="right") - 1))
    return Move(tuple(view.hand), tuple(rows))


def seeded_policies(n_players: int, seed, salt: int = 0) -> list:
    """A RandomPolicy per seat, reproducible when ``seed`` is (an int or a
    SeedSequence; ``salt`` tells streams of one seed apart)."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        ss = np.random.SeedSequence([int(seed), salt])
    elif isinstance(seed, np.random.SeedSequence):
        ss = np.random.SeedSequence(seed.entropy, spawn_key=tuple(seed.spawn_key) + (salt,))
    else:
        return [RandomPolicy() for _ in range(n_players)]
    return [RandomPolicy(child) for child in ss.spawn(n_players)]


def resolve_policies(policies, n_players: int, default=None) -> list:
    """One policy per seat from one policy (every seat), a list per seat or a
    dict seat -> policy; ``None`` gives ``default()`` (a callable returning
    the list), or an unseeded RandomPolicy per seat.  TypeError naming the
    seat for anything without ``choose``, ValueError for a seat missing or
    not at the table.  ``Game.run`` and ``Match`` resolve through here."""
    P = n_players
    if policies is None:
        return list(default()) if default is not None else [RandomPolicy() for _ in range(P)]
    if isinstance(policies, Mapping):
        bad = [k for k in policies if isinstance(k, (bool, np.bool_))
               or not isinstance(k, (int, np.integer)) or not 0 <= k < P]
        if bad:
            raise ValueError(f"policies: no seat {shorten(bad[0])} at a table of {P}")
        missing = [p for p in range(P) if p not in policies]
        if missing:
            raise ValueError(f"policies must name every seat 0 .. {P - 1}; seat {missing[0]} "
                             f"has none")
        out = [policies[p] for p in range(P)]
    elif isinstance(policies, (Sequence, np.ndarray)) and not isinstance(policies, (str, bytes)):
        if len(policies) != P:
            raise ValueError(f"need one policy per seat ({P}), got {len(policies)}")
        out = list(policies)
    else:
        _check_policy(policies, "every seat")       # one policy plays every seat
        return [policies] * P
    for seat, pol in enumerate(out):
        _check_policy(pol, f"seat {seat}")
    return out


def _check_policy(pol, who: str) -> None:
    if isinstance(pol, type) or not callable(getattr(pol, "choose", None)):
        raise TypeError(f"the policy of {who} is {shorten(pol, 60)}: a policy is an object "
                        f"with a choose(view, moves) method")
