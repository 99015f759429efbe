#!/usr/bin/env python
"""Engine and rollout benchmark: time per hand and random completions per second.

Run from the repository root (ofc_fast built in place or installed)::

    python benchmarks/bench_engine.py                  # defaults below, best of 5
    python benchmarks/bench_engine.py --hands 5000 --completions 20000000 --repeat 3

Prints one line per figure:

* ``hand``: a full three-player Pineapple hand through the Python engine
  (``Game(...).run(RandomPolicy)``: seeded deal, every street, legal-move
  enumeration, the policy's choice, validated play, automatic-move and
  dead-hand checks after every move, showdown points); target <= 200 us;
* ``hand (auto off)``: the same without automatic-move checks;
* ``match``: a three-player Pineapple ``Match`` (one orbit plus fantasyland
  hands) per hand, records and scoring included;
* ``rollout``: random completions of a first-street Pineapple layout (5 cards
  placed, 8 empty slots), including the evaluation of every completion
  (fouls, royalties, fantasyland), one core; target >= 2,000,000 per second;
* ``rollout_ev``: completions of that layout and of two opponents' layouts
  from one deck, scored pairwise;
* ``is_dead``: typical calls on partial layouts from random play;
* ``heuristic hand``: a two-player Pineapple hand with ``HeuristicPolicy``.

Each figure is the best of ``--repeat`` runs (garbage collector off).
"""
from __future__ import annotations

import argparse
import gc
import time

import numpy as np

import ofc_fast as ofc
from ofc_fast.engine import Game, HeuristicPolicy, Match, RandomPolicy
from ofc_fast.rollouts import card_mask, is_dead, rollout, rollout_ev

FIRST_STREET = "__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __"


def best_of(repeat, fn):
    times = []
    gc.disable()
    try:
        for _ in range(repeat):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
    finally:
        gc.enable()
    return min(times)


def bench_hands(n, repeat, auto=True):
    pol = RandomPolicy(1)

    def run():
        for i in range(n):
            Game("pineapple", 3, seed=i, auto=auto).run(pol)
    return best_of(repeat, run) / n


def bench_match(n, repeat):
    pol = RandomPolicy(2)
    hands = [0]

    def run():
        hands[0] = 0
        for i in range(n):
            m = Match("pineapple", 3, seed=i)
            m.run(pol)
            hands[0] += m.hands_played
    t = best_of(repeat, run)
    return t / hands[0]


def partial_layouts(n, seed=0):
    """Partial layouts (with their unseen cards) met in random play."""
    lays, pools = [], []
    pol = RandomPolicy(seed)
    i = 0
    while len(lays) < n:
        g = Game("pineapple", 3, seed=seed + i, auto=False)
        i += 1
        while not g.done:
            p = g.to_act
            g.play(pol.choose(g.view(p), g.legal_moves()))
            if not g.done and (g.layout(p) == 255).any():
                lays.append(g.layout(p))
                pools.append(g.view(p).unseen)
    return np.array(lays[:n]), pools[:n]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=2000, help="hands per timing run (default 2000)")
    ap.add_argument("--completions", type=int, default=10_000_000,
                    help="rollout completions per timing run (default 10,000,000)")
    ap.add_argument("--repeat", type=int, default=5, help="best of k runs (default 5)")
    args = ap.parse_args(argv)
    v = ofc.variant("pineapple")

    t = bench_hands(args.hands, args.repeat)
    print(f"hand            3-player Pineapple, RandomPolicy, auto moves : {t * 1e6:8.1f} us"
          f"   (target <= 200 us: {'ok' if t <= 200e-6 else 'MISSED'})")
    t = bench_hands(args.hands, args.repeat, auto=False)
    print(f"hand (auto off) 3-player Pineapple, RandomPolicy             : {t * 1e6:8.1f} us")
    t = bench_match(max(1, args.hands // 4), args.repeat)
    print(f"match           3-player Pineapple, per hand, with records   : {t * 1e6:8.1f} us")

    part = ofc.parse_layout(FIRST_STREET, v)
    rollout(part, n=1000, variant=v, seed=0)
    n = args.completions
    t = best_of(args.repeat, lambda: rollout(part, n=n, variant=v, seed=1))
    rate = n / t
    print(f"rollout         first-street Pineapple layout, evaluated     : {rate / 1e6:8.2f} M/s"
          f"   (target >= 2 M/s: {'ok' if rate >= 2e6 else 'MISSED'})")
    opp = ofc.parse_layouts(["__ __ __ / As Ad __ __ __ / 2c 3c __ __ __",
                             "Qs __ __ / __ __ __ __ __ / 4d 4s 4h __ __"], v)
    ne = max(1, n // 4)
    t = best_of(args.repeat, lambda: rollout_ev(part, opp, n=ne, variant=v, seed=1))
    print(f"rollout_ev      vs two partial opponents, scored             : {ne / t / 1e6:8.2f} M/s")

    lays, pools = partial_layouts(2000)
    t = best_of(args.repeat,
                lambda: [is_dead(lay, pool, v) for lay, pool in zip(lays, pools, strict=True)])
    print(f"is_dead         partial layouts from random play, per call   : "
          f"{t / len(lays) * 1e6:8.2f} us  (one Python call each)")
    masks = np.array([card_mask(p) for p in pools], dtype=np.uint64)
    t = best_of(args.repeat, lambda: is_dead(lays, masks, v))
    print(f"is_dead         the same layouts as one batch, per layout    : "
          f"{t / len(lays) * 1e6:8.2f} us")

    pols = [HeuristicPolicy(1), HeuristicPolicy(2)]
    nh = max(1, args.hands // 100)
    t = best_of(max(1, args.repeat // 2), lambda: [Game(v, 2, seed=i).run(pols) for i in range(nh)])
    print(f"heuristic hand  2-player Pineapple, HeuristicPolicy          : {t / nh * 1e3:8.2f} ms")


if __name__ == "__main__":
    main()
