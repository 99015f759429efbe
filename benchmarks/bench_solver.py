#!/usr/bin/env python
"""Solver benchmark: move values per second, thread scaling, decision times and strength.

Run from the repository root (ofc_fast built in place or installed)::

    python benchmarks/bench_solver.py                      # everything, 300 hand pairs (~15 min)
    python benchmarks/bench_solver.py --only speed         # the timings (~1 min)
    python benchmarks/bench_solver.py --only c-vs-python   # the C decision against 0.3's (~1 min)
    python benchmarks/bench_solver.py --only seat          # "solver" as a batch seat (~1 min)
    python benchmarks/bench_solver.py --only strength --hands 500 --budget 100

Prints:

* ``move_values``: scored completions per second on a three-player Pineapple
  first street (the first player to act: 232 moves; every completion fills
  the player's 8 empty slots and both opponents' 13 and scores the table),
  ``completion="random"`` and ``"best"``, on 1 and 2 threads (the scaling); the
  opponents' completions are shared by the moves of a deck, so the same for
  one move alone, where every completion deals and evaluates all three
  layouts;
* ``rollout`` / ``rollout_ev``: completions per second of a batch of 512
  first-street layouts, 1 and 2 threads;
* ``SolverPolicy``: decision times (median, 90th percentile, largest) over
  the decisions of heads-up Pineapple hands;
* C against Python: decisions per second of ``SolverPolicy`` (its decision
  in C) and of 0.3's numpy decision (``tests/solver_reference.py``, needs the
  source checkout) at the same completion budget (no time budget, the same
  ``n``), on two- and three-player Pineapple first streets and later
  streets, and whether every decision was the same move;
* the seat: ``"solver"`` as a batch seat (its decisions in C, the batch's
  threads) against ``SolverPolicy`` in the ``Game`` loop at the same
  completion budget, decisions per second;
* strength: heads-up Pineapple ``Match``es of one orbit (two hands, plus
  fantasyland hands: fantasyland counts) of ``SolverPolicy`` against
  ``HeuristicPolicy`` and against ``RandomPolicy``, each seed played twice
  with the seats swapped; the solver's mean points per hand with a 95%
  confidence interval (by seed pair, ratio estimator), its foul rate,
  fantasyland entry rate and royalties per hand, and the opponent's.

Timings are the best of ``--repeat`` runs; on a shared machine the scaling
figures are only as good as the second core is free.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import ofc_fast as ofc
from ofc_fast.policies import HeuristicPolicy, RandomPolicy
from ofc_fast.solver import SolverPolicy, move_values

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_engine import best_of  # noqa: E402  (one timing helper for the engine scripts)


def first_street_layouts(n, seed=0):
    """Partial layouts of the first street: 5 random cards in random slots."""
    rng = np.random.default_rng(seed)
    lays = np.full((n, 13), 255, np.uint8)
    for i in range(n):
        top = rng.integers(0, 4)
        slots = np.concatenate([rng.choice(3, top, replace=False),
                                3 + rng.choice(10, 5 - top, replace=False)])
        lays[i, slots] = rng.permutation(52)[:5]
    return lays


def bench_speed(args):
    g = ofc.Game("pineapple", 3, seed=11)
    moves = len(g.legal_moves())
    print(f"move_values: three-player Pineapple first street, seat {g.to_act} acts first, "
          f"{moves} moves, opponents' layouts empty (8 + 13 + 13 slots dealt per completion)")
    for completion, n in (("random", args.completions), ("best", args.completions // 8)):
        move_values(g, n=200, seed=0, completion=completion)
        rates = {}
        for th in (1, 2):
            t = best_of(args.repeat, lambda n=n, completion=completion, th=th: move_values(
                g, n=n, seed=1, completion=completion, n_threads=th))
            rates[th] = moves * n / t
        print(f"  completion={completion!r:8} n={n:>7,}: 1 thread {rates[1] / 1e6:6.1f} M scored "
              f"completions/s, 2 threads {rates[2] / 1e6:6.1f} M/s (x{rates[2] / rates[1]:.2f})")
    n = args.completions * 25
    rates = {}
    for th in (1, 2):
        t = best_of(args.repeat, lambda th=th: move_values(g, n=n, seed=1, moves=[0],
                                                           n_threads=th))
        rates[th] = n / t
    print(f"  one move, n={n:,} (every completion deals and evaluates all three layouts and "
          f"scores two pairs): 1 thread {rates[1] / 1e6:5.2f} M/s, 2 threads "
          f"{rates[2] / 1e6:5.2f} M/s (x{rates[2] / rates[1]:.2f})")
    a = move_values(g, n=4000, seed=3, n_threads=1)
    b = move_values(g, n=4000, seed=3, n_threads=2)
    print(f"  identical on 1 and 2 threads: {bool((a.ev == b.ev).all())}")

    lays = first_street_layouts(512)
    v = ofc.variant("pineapple")
    n = max(1, args.completions // 512 * 8)
    ofc.rollout(lays[:4], n=100, variant=v)
    r = {}
    for th in (1, 2):
        t = best_of(args.repeat, lambda th=th: ofc.rollout(lays, n=n, variant=v, seed=1,
                                                           n_threads=th))
        r[th] = len(lays) * n / t
    print(f"rollout: 512 first-street layouts x {n:,}: 1 thread {r[1] / 1e6:6.1f} M/s, "
          f"2 threads {r[2] / 1e6:6.1f} M/s (x{r[2] / r[1]:.2f})")
    opp = ofc.parse_layouts(["__ __ __ / __ __ __ __ __ / __ __ __ __ __"] * 2, v)
    free = lays.copy()
    n = max(1, n // 3)
    for th in (1, 2):
        t = best_of(args.repeat, lambda th=th: ofc.rollout_ev(free, opp, n=n, variant=v,
                                                              seed=1, n_threads=th))
        r[th] = len(lays) * n / t
    print(f"rollout_ev: the same layouts x {n:,} against two empty layouts: 1 thread "
          f"{r[1] / 1e6:6.1f} M/s, 2 threads {r[2] / 1e6:6.1f} M/s (x{r[2] / r[1]:.2f})")


class Timed:
    """Wraps a policy and records its decision times (ms) by street."""

    def __init__(self, pol):
        self.pol = pol
        self.ms = []

    def choose(self, view, moves):
        t = time.perf_counter()
        m = self.pol.choose(view, moves)
        self.ms.append(((time.perf_counter() - t) * 1e3, view.street, len(moves)))
        return m


def bench_decisions(args):
    pol = Timed(SolverPolicy(seed=1, time_budget_ms=args.budget))
    for s in range(args.decision_hands):
        ofc.Game("pineapple", 2, seed=s, auto=False).run([pol, RandomPolicy(s)])
    ms = np.array([m for m, _, n in pol.ms if n > 1])
    first = np.array([m for m, st, n in pol.ms if st == 0])
    print(f"SolverPolicy(time_budget_ms={args.budget:g}): {len(ms)} decisions with more than "
          f"one move, median {np.median(ms):.1f} ms, 90th percentile "
          f"{np.percentile(ms, 90):.1f} ms, largest {ms.max():.1f} ms (first street: median "
          f"{np.median(first):.1f} ms)")


def _reference():
    """0.3's numpy decision (tests/solver_reference.py), or None without the tests."""
    tests = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
    if not os.path.exists(os.path.join(tests, "solver_reference.py")):
        return None
    sys.path.insert(0, tests)
    from solver_reference import ReferencePolicy
    return ReferencePolicy


def bench_c_vs_python(args):
    reference = _reference()
    if reference is None:
        print("c-vs-python: tests/solver_reference.py not found (needs the source checkout)")
        return
    print("SolverPolicy (C) against 0.3's numpy decision, time_budget_ms=None, the same n and "
          "seeds: decisions per second (each position decided once by each, best of "
          f"{args.repeat}), Pineapple, the decisions of {args.positions} games per table "
          "(random play)")
    for players in (2, 3):
        spots = {"first street": [], "later streets": []}
        for s in range(args.positions):
            g = ofc.Game("pineapple", players, seed=s)
            rnd = RandomPolicy(s)
            while not g.done:
                view, moves = g.view(g.to_act), g.legal_moves()
                if len(moves) > 1:
                    spot = g.copy()          # its move list stays live
                    spots["first street" if view.street == 0 else "later streets"].append(
                        (spot.view(spot.to_act), spot.legal_moves()))
                g.play(rnd.choose(view, moves))
        for where, todo in spots.items():
            for n in args.solver_n:
                rates, picks = {}, {}
                for name, cls in (("C", SolverPolicy), ("Python", reference)):
                    pols = [cls(n=n, seed=k, time_budget_ms=None) for k in range(len(todo))]

                    def run(name=name, pols=pols, todo=todo, picks=picks):
                        picks[name] = [pol.choose(view, moves)
                                       for pol, (view, moves) in zip(pols, todo, strict=True)]
                    rates[name] = len(todo) / best_of(args.repeat, run)
                same = sum(a == b for a, b in zip(picks["C"], picks["Python"], strict=True))
                print(f"  {players} players, {where:13}, {len(todo):3} decisions, n={n:>6,}: "
                      f"C {rates['C']:8.1f}/s, Python {rates['Python']:8.1f}/s "
                      f"(x{rates['C'] / rates['Python']:.2f}); the same move {same} of "
                      f"{len(todo)}")
    sys.stdout.flush()


def strength(args, opponent):
    xs, hs = [], []
    stats = {"solver": np.zeros(4), "opponent": np.zeros(4)}  # hands, fouls, FL, royalties
    t0 = time.time()
    for s in range(args.hands):
        x = h = 0
        for seat in (0, 1):
            sol = SolverPolicy(seed=[s, seat], time_budget_ms=args.budget,
                               fantasyland_value=args.fantasyland_value)
            opp = HeuristicPolicy(seed=[s, 7]) if opponent == "heuristic" else RandomPolicy([s, 7])
            m = ofc.Match("pineapple", 2, n_hands=2, seed=args.seed + s,
                          policies=[sol, opp] if seat == 0 else [opp, sol])
            scores = m.run()
            x += int(scores[seat])
            h += m.hands_played
            for res in m.results:
                for who, p in (("solver", seat), ("opponent", 1 - seat)):
                    stats[who] += (1, res.foul[p], res.next_fantasyland[p] > 0,
                                   res.royalty_total[p])
        xs.append(x)
        hs.append(h)
    X, H = np.array(xs, float), np.array(hs, float)
    mean = X.sum() / H.sum()
    resid = X - mean * H
    se = np.sqrt((resid ** 2).sum() * len(X) / (len(X) - 1)) / H.sum()
    print(f"SolverPolicy(time_budget_ms={args.budget:g}, fantasyland_value="
          f"{args.fantasyland_value:g}) vs {opponent}: {args.hands} seeds x 2 seatings, "
          f"{int(H.sum())} hands: {mean:+.2f} points per hand, 95% CI [{mean - 1.96 * se:+.2f}, "
          f"{mean + 1.96 * se:+.2f}] ({time.time() - t0:.0f} s)")
    for who, st in stats.items():
        n = st[0]
        print(f"  {who:8}: foul {st[1] / n:6.1%}, fantasyland entries {st[2] / n:6.1%}, "
              f"royalties {st[3] / n:5.2f} per hand")
    sys.stdout.flush()


def bench_seat(args):
    """The solver as a batch seat ("solver") against SolverPolicy in the Game
    loop, at the same completion budget (no time budget): decisions per
    second, heads-up Pineapple, both seats the solver."""
    from ofc_fast.sim import GameBatch
    print("the solver as a batch seat, heads-up Pineapple, both seats, no time budget")
    games = max(4, args.positions)

    def batch_run(opts, threads):
        b = GameBatch("pineapple", games, 2, seed=args.seed, policies=("solver", opts),
                      n_threads=threads)
        t = time.perf_counter()
        b.run(hands=1)
        return time.perf_counter() - t, int(b.decisions.sum())

    def game_loop(opts):
        pol, t, dec = SolverPolicy(seed=1, **opts), time.perf_counter(), 0
        for i in range(games):
            g = ofc.Game("pineapple", 2, seed=[args.seed, i])
            while not g.done:
                dec += 1
                g.play(pol.choose(g.view(g.seat_to_act), g.legal_moves()))
        return time.perf_counter() - t, dec

    for n in args.solver_n:
        opts = {"n": n, "time_budget_ms": None}
        rates = [min((batch_run(opts, k) for _ in range(args.repeat)), key=lambda r: r[0])
                 for k in (1, 2)]
        r1, r2 = (d / t for t, d in rates)
        tg, dg = min((game_loop(opts) for _ in range(args.repeat)), key=lambda r: r[0])
        print(f"  n={n:>6,}: batch seat {r1:8.1f} decisions/s (1 thread), {r2:8.1f} (2 threads: "
              f"x{r2 / r1:.2f}); SolverPolicy in the Game loop {dg / tg:8.1f} decisions/s -> "
              f"x{r1 / (dg / tg):.2f} on one thread")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("speed", "decisions", "c-vs-python", "seat", "strength"),
                    default=None)
    ap.add_argument("--hands", type=int, default=300,
                    help="seeds per opponent; each is a one-orbit match played twice, seats "
                         "swapped (default 300: about 1,400 hands)")
    ap.add_argument("--budget", type=float, default=100.0,
                    help="SolverPolicy time budget per decision, ms (default 100)")
    ap.add_argument("--fantasyland-value", type=float, default=None,
                    help="SolverPolicy fantasyland_value (default: its default)")
    ap.add_argument("--opponents", default="heuristic,random")
    ap.add_argument("--completions", type=int, default=40_000,
                    help="move_values completions per move for the timing (default 40,000)")
    ap.add_argument("--decision-hands", type=int, default=20)
    ap.add_argument("--positions", type=int, default=12,
                    help="games per table whose decisions c-vs-python times (default 12)")
    ap.add_argument("--solver-n", type=lambda t: [int(x) for x in t.split(",")],
                    default=[100, 1_000, 10_000],
                    help="c-vs-python completion budgets n (default 100,1000,10000)")
    ap.add_argument("--repeat", type=int, default=3, help="best of k runs (default 3)")
    ap.add_argument("--seed", type=int, default=10_000)
    args = ap.parse_args(argv)
    if args.fantasyland_value is None:
        args.fantasyland_value = SolverPolicy().fantasyland_value
    print(f"ofc_fast {ofc.__version__}, {os.cpu_count()} CPUs, load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.only in (None, "speed"):
        bench_speed(args)
    if args.only in (None, "decisions"):
        bench_decisions(args)
    if args.only in (None, "c-vs-python"):
        bench_c_vs_python(args)
    if args.only in (None, "seat"):
        bench_seat(args)
    if args.only in (None, "strength"):
        for opponent in args.opponents.split(","):
            strength(args, opponent.strip())


if __name__ == "__main__":
    main()
