#!/usr/bin/env python
"""A tournament of the built-in policies: a million hands of three-player
Pineapple played in C, one policy per seat (the button moves, so every
policy sits in every position), fantasyland included.

Run from anywhere with ofc_fast installed::

    python docs/examples/tournament.py                       # 1,000,000 hands
    python docs/examples/tournament.py --hands 20000 -o hands.parquet

It prints each policy's points per hand with a 95% interval, its foul,
fantasyland and royalty rates, and the time taken.  With ``-o`` the hands
are also written as ``ofc-hand/1`` records (any format of ``ofc_fast.io``):
``ofc-fast score FILE --verify`` agrees with every recorded point.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from ofc_fast.io import open_writer
from ofc_fast.report import Summary
from ofc_fast.sim import selfplay_chunks

# seat -> policy: the heuristic (every move gets every rollout, dead moves
# avoided), the greedy policy (the first best move), light settings, and random play
POLICIES = [("heuristic", {"samples": 2, "tries": 2}),
            ("greedy", {"samples": 2, "tries": 2}), "random"]
NAMES = ["heuristic(2x2)", "greedy(2x2)", "random"]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", type=int, default=10_000, help="matches played side by side")
    ap.add_argument("--threads", type=int, default=None, help="default: one per CPU")
    ap.add_argument("-o", "--output", default=None, help="also write the hands here")
    args = ap.parse_args(argv)

    summary = Summary()                       # fouls, fantasyland, royalties per player
    total = dict.fromkeys(NAMES, 0.0)         # points and squared points, for the interval
    squares = dict.fromkeys(NAMES, 0.0)
    writer = open_writer(args.output) if args.output else None
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    for chunk in selfplay_chunks("pineapple", args.hands, POLICIES, seed=args.seed,
                                 n_games=min(args.games, args.hands), names=NAMES,
                                 n_threads=args.threads):
        if writer is not None:
            writer.write(chunk)
        summary.add(chunk.score())
        names = np.array(chunk.names(), dtype=object)
        for name in NAMES:
            pts = chunk.recorded[names == name].astype(np.float64)
            total[name] += pts.sum()
            squares[name] += (pts * pts).sum()
    if writer is not None:
        writer.close()
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0

    n = args.hands
    print(f"{n:,} hands of three-player Pineapple in {wall:.1f} s "
          f"({n / wall:,.0f} hands/s; {cpu:.1f} s of CPU)")
    print(f"{'policy':<15} {'pts/hand':>9} {'95% interval':>17} {'foul %':>7} {'FL %':>6} "
          f"{'royalties/hand':>15}")
    stats = {p["name"]: p for p in summary.as_dict()["players"]}
    for name in NAMES:
        mean = total[name] / n
        sd = np.sqrt(max(squares[name] / n - mean * mean, 0.0))
        half = 1.96 * sd / np.sqrt(n)
        s = stats[name]
        print(f"{name:<15} {mean:>+9.3f} {f'{mean - half:+.3f} .. {mean + half:+.3f}':>17} "
              f"{s['foul_pct']:>7.1f} {s['fantasyland_pct']:>6.2f} "
              f"{s['royalties_per_hand']:>15.2f}")


if __name__ == "__main__":
    main()
