"""Fantasyland solver benchmark: repeat rate, average royalties and hands/s.

For each deal size, solves N random deals from a shuffled 52-card deck
(objective ``royalties+repeat``, repeat first, unless told otherwise) and
prints one line per size::

    python benchmarks/bench_fantasyland.py                 # 10,000 deals per size
    python benchmarks/bench_fantasyland.py --n 2000 --sizes 14,17 --threads 4

Sizes and their variants: 13 classic, 14-17 pineapple, 19 big-pineapple
(``--variant`` forces one variant for every size, e.g. ``progressive`` or
``pineapple-2-7``).  Timing is single-threaded unless ``--threads`` is given;
the time is the best of ``--repeat`` runs of the whole batch (the results
are the same each run).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from ofc_fast.fantasyland import solve_fantasyland_batch

DEFAULT_SIZES = (13, 14, 15, 16, 17, 19)
VARIANT_OF = {13: "classic", 14: "pineapple", 15: "pineapple", 16: "pineapple",
              17: "pineapple", 18: "big-pineapple", 19: "big-pineapple"}
# issue 6 targets, single core, royalties+repeat, pineapple rules
TARGETS = {14: 2000, 15: 500, 16: 100, 17: 20}


def random_deals(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """n deals of k distinct cards: the first k cards of n shuffled decks."""
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def run(sizes, n, objective, repeat_value, threads, repeat, seed, variant=None) -> list[dict]:
    rows = []
    for k in sizes:
        name = variant or VARIANT_OF[k]
        hands = random_deals(n, k, np.random.default_rng(seed + k))
        solve_fantasyland_batch(hands[:10], name, objective, repeat_value)  # compile rules
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            out = solve_fantasyland_batch(hands, name, objective, repeat_value, n_threads=threads)
            best = min(best, time.perf_counter() - t0)
        rows.append(dict(
            cards=k, variant=name, hands=n, repeat_rate=out.repeat_rate,
            mean_royalties=out.mean_royalties, foul_rate=float(out.foul.mean()),
            hands_per_s=n / best, us_per_hand=best / n * 1e6, target=TARGETS.get(k)
            if name == "pineapple" else None))
    return rows


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=10_000, help="deals per size (default 10000)")
    p.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                   help="comma-separated deal sizes (default 13,14,15,16,17,19)")
    p.add_argument("--variant", default=None, help="one variant for every size")
    p.add_argument("--objective", default="royalties+repeat",
                   choices=("royalties", "royalties+repeat"))
    p.add_argument("--repeat-value", type=float, default=None,
                   help="points of a repeat (default: repeat first)")
    p.add_argument("--threads", type=int, default=1, help="solver threads (default 1)")
    p.add_argument("--repeat", type=int, default=1, help="timed runs per size, best kept")
    p.add_argument("--seed", type=int, default=2024)
    a = p.parse_args(argv)
    sizes = [int(s) for s in a.sizes.split(",") if s]
    print(f"objective {a.objective}"
          + ("" if a.objective == "royalties" else
             f", repeat value {'repeat first' if a.repeat_value is None else a.repeat_value}")
          + f"; {a.n} random deals per size; {a.threads} thread(s)")
    print(f"{'cards':>5}  {'variant':<15} {'repeat %':>8} {'avg roy':>8} {'foul %':>7} "
          f"{'hands/s':>10} {'us/hand':>9}  target")
    for r in run(sizes, a.n, a.objective, a.repeat_value, a.threads, a.repeat, a.seed, a.variant):
        target = "" if r["target"] is None else (
            f">= {r['target']}/s {'ok' if r['hands_per_s'] >= r['target'] else 'MISSED'}")
        print(f"{r['cards']:>5}  {r['variant']:<15} {100 * r['repeat_rate']:>8.2f} "
              f"{r['mean_royalties']:>8.2f} {100 * r['foul_rate']:>7.2f} "
              f"{r['hands_per_s']:>10,.0f} {r['us_per_hand']:>9.1f}  {target}")


if __name__ == "__main__":
    main()
