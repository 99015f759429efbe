"""SolverPolicy's decision as it was written in Python (ofc_fast 0.3), kept as
the reference the C decision (ofc_fast._solver) is tested against.

``ReferencePolicy.choose`` is ``SolverPolicy.choose`` of 0.3, unchanged:
the position read from the player's view (``position``: its layout after
each move, the opponents' layouts as it sees them, the unseen cards), numpy
rounds over ``ofc_fast.solver._sums`` (the same move values kernel), the
z-test on the paired standard errors, the time budget, then the best move
that keeps a live hand alive (``ofc_fast.rollouts.is_dead``).  It also
reports which of its rules decided (``"why"``), so the tests can show that
the positions they compare exercise each one.
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np

import ofc_fast.solver as solver
from ofc_fast.cards import ALL_CARDS, EMPTY, card_mask
from ofc_fast.policies import fantasyland_move
from ofc_fast.rollouts import is_dead

_P, _PP, _F, _FP = solver._P, solver._PP, solver._F, solver._FP
_XPP, _XPF, _XFP, _XFF = solver._XPP, solver._XPF, solver._XFP, solver._XFF
_MIN_ROUND = 8           # fewest completions in a round of SolverPolicy
_SURVIVOR = 1e12         # ranks the moves still in above the dropped ones
_GUESS_RATE = 16e6       # move-completions per second times tries, three rows, before measuring


class ReferencePolicy:
    """SolverPolicy of 0.3 (same settings, same seed stream), in Python.

    ``last`` is what the decision did, as SolverPolicy's, plus ``"why"``:
    ``"dropped"`` (a move dropped by the z-test had a higher mean when dropped
    than the move played), ``"dead"`` (the fallback skipped a dead move) or
    ``None``."""

    def __init__(self, n=50_000, seed=None, time_budget_ms=100, completion="best",
                 fantasyland_value=solver.DEFAULT_FANTASYLAND_VALUE, *, tries=16, z=3.0,
                 first_round=32):
        self.n = n
        self._rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.time_budget_ms = time_budget_ms
        self.completion = completion
        self.fantasyland_value = float(fantasyland_value)
        self.tries = tries
        self.z = float(z)
        self.first_round = first_round
        self.last: dict[str, Any] | None = None

    def choose(self, view, moves):
        t0 = time.perf_counter()
        total = len(moves)
        if total == 1:
            self.last = {"moves": 1, "reason": "only move"}
            return moves[0]
        if view.street == -1:
            self.last = {"moves": total, "reason": "fantasyland solver"}
            return fantasyland_move(view, moves, self.fantasyland_value)
        pos = position(view, moves)
        v = pos.variant
        cand = np.arange(total)
        deadline = None if self.time_budget_ms is None else t0 + 0.95 * self.time_budget_ms / 1e3
        kseed = int(self._rng.integers(0, 2**63, dtype=np.int64)) * 2 + 1
        tries = self.tries if self.completion == "best" else 1
        fv = self.fantasyland_value
        bonus = round(fv)
        cum = np.zeros((len(cand), solver.VALUE_SUMS), np.int64)   # every completion so far
        cross = np.zeros_like(cum)        # completions since the reference was chosen
        ref = 0                           # row of the reference move in cand
        done = cross_n = 0
        size = min(self.first_round, self.n)
        if deadline is not None:
            guess = _GUESS_RATE / tries * 3 / v.n_rows
            left = deadline - time.perf_counter()
            size = max(_MIN_ROUND, min(size, int(left / 3 * guess / len(cand))))
        rounds = []
        last_mean = np.full(total, -np.inf)       # each move's mean when last valued
        while True:
            t = time.perf_counter()
            acc = solver._sums(pos, done, done + size, kseed, tries, bonus, ref, 1, rows=cand)
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
            se = paired_se(cross, ref, cross_n, done, fv)
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
        why = None
        if best != int(order[0]):
            why = "dead"
        elif rank[best] - _SURVIVOR < last_mean[np.setdiff1d(np.arange(total), cand)].max(
                initial=-np.inf):
            why = "dropped"
        self.last = {"moves": total, "completions": done, "rounds": rounds, "left": len(cand),
                     "dead_checks": checked, "ms": (time.perf_counter() - t0) * 1e3, "why": why}
        return moves[best]


def position(view, moves):
    """What valuing every move takes, from the player's view (0.3's
    ``solver._position``)."""
    v = view.variant
    lays, _ = moves.layouts()
    opp = np.array([view.layouts[q] for q in range(view.n_players) if q != view.seat],
                   dtype=np.uint8).reshape(-1, v.n_cards)
    counts = view.fantasyland_count
    fl_opp = np.array([min(counts[q], 255) for q in range(view.n_players) if q != view.seat],
                      dtype=np.uint8)
    offs = np.cumsum((0,) + v.row_sizes)
    own = view.layout
    room = np.array([int((own[offs[r]:offs[r + 1]] == EMPTY).sum()) for r in range(v.n_rows)],
                    dtype=np.int32)
    return solver._Position(variant=v, seat=view.seat, layouts=np.ascontiguousarray(lays),
                            room=room, index=np.arange(len(moves), dtype=np.int64),
                            opponents=np.ascontiguousarray(opp),
                            pool=ALL_CARDS & ~view.seen_mask, fl_hero=min(counts[view.seat], 255),
                            fl_opp=fl_opp)


def paired_se(cross, ref, cn, n, fv):
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
    return np.sqrt(np.maximum(d2 - d * d, 0.0) / n)
