"""Jokers beside 52 cards, in one run (issue 27's targets): each joker call is
timed next to the same call on 52-card input, and the ratio printed::

    python benchmarks/bench_jokers.py                    # every section
    python benchmarks/bench_jokers.py --only evaluate --n 300000 --repeat 15

* ``evaluate``: N random layouts, every one holding one joker (or two) at
  random places, against N layouts of naturals (target: at most 5x with one
  joker, 15x with two);
* ``tables``: ``score_tables`` on G three-player tables dealt from a 54-card
  deck (most tables hold a joker or two) against tables dealt from 52 cards
  (target: at most 5x);
* ``fantasyland``: the solver on 14 cards with one joker and on 17 cards with
  two, against the same deals without jokers (targets: at least 1/4 and 1/10
  of the 52-card speed);
* ``completions``: ``rollout`` (100 completions each) and ``is_dead`` of N
  partial layouts (eight cards placed) under two jokers, the unseen jokers
  dealt and one placed, against the same layouts of naturals (no target:
  the figure users of the valued policies and move values pay).

Each time is the best of ``--repeat`` runs (joker and 52-card calls
interleaved, so a busy machine slows both alike); one thread.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import ofc_fast as ofc
from ofc_fast.fantasyland import solve_fantasyland_batch


def layouts(rng: np.random.Generator, n: int, n_cards: int, jokers: int) -> np.ndarray:
    """n layouts of n_cards distinct naturals, the first `jokers` replaced by
    X1, X2, then each layout's cards shuffled."""
    lay = np.argsort(rng.random((n, 52)), axis=1)[:, :n_cards].astype(np.uint8)
    lay[:, :jokers] = 52 + np.arange(jokers, dtype=np.uint8)
    return np.take_along_axis(lay, np.argsort(rng.random((n, n_cards)), axis=1), axis=1).copy()


def best_of(calls, repeat):
    """Best time of each call, the calls interleaved `repeat` times."""
    best = [float("inf")] * len(calls)
    for _ in range(repeat):
        for i, call in enumerate(calls):
            t0 = time.perf_counter()
            call()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def bench_evaluate(n, repeat, rng):
    rows = []
    for name in ("pineapple", "pineapple-2-7", "big-pineapple"):
        v0, v1, v2 = (ofc.variant(name, jokers=j) for j in (0, 1, 2))
        lays = [layouts(rng, n, v0.n_cards, j) for j in (0, 1, 2)]
        outs = [ofc.evaluate(lay, v) for lay, v in zip(lays, (v0, v1, v2), strict=True)]
        calls = [lambda lay=lay, v=v, o=o: ofc.evaluate(lay, v, out=o)
                 for lay, v, o in zip(lays, (v0, v1, v2), outs, strict=True)]
        t = best_of(calls, repeat)
        rows.append((f"evaluate {name}, one joker a layout", t[0] / n * 1e9, t[1] / n * 1e9,
                     t[1] / t[0], "<= 5x"))
        rows.append((f"evaluate {name}, two jokers a layout", t[0] / n * 1e9, t[2] / n * 1e9,
                     t[2] / t[0], "<= 15x"))
    return rows, "ns/layout"


def bench_tables(n, repeat, rng):
    rows = []
    for name in ("pineapple", "classic"):
        v0, v2 = ofc.variant(name), ofc.variant(name, jokers=2)
        t52 = np.argsort(rng.random((n, 52)), axis=1)[:, :39].astype(np.uint8).reshape(n, 3, 13)
        t54 = np.argsort(rng.random((n, 54)), axis=1)[:, :39].astype(np.uint8).reshape(n, 3, 13)
        t = best_of([lambda a=t52, v=v0: ofc.score_tables(a, v),
                     lambda a=t54, v=v2: ofc.score_tables(a, v)], repeat)
        rows.append((f"score_tables {name}, 3 players, a 54-card deck", t[0] / n * 1e9,
                     t[1] / n * 1e9, t[1] / t[0], "<= 5x"))
    return rows, "ns/table"


def bench_fantasyland(n, repeat, rng):
    rows = []
    for k, jokers, name, target in ((14, 1, "pineapple", ">= 1/4"),
                                    (17, 2, "pineapple", ">= 1/10")):
        deals = np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)
        jdeals = deals.copy()
        jdeals[:, :jokers] = 52 + np.arange(jokers, dtype=np.uint8)
        v0, vj = ofc.variant(name), ofc.variant(name, jokers=jokers)
        t = best_of([lambda d=deals, v=v0: solve_fantasyland_batch(d, v),
                     lambda d=jdeals, v=vj: solve_fantasyland_batch(d, v)], repeat)
        rows.append((f"fantasyland {k} cards, {jokers} joker{'s' if jokers > 1 else ''}",
                     n / t[0], n / t[1], t[0] / t[1], target))
    return rows, "hands/s"


def bench_completions(n, repeat, rng):
    v0, v2 = ofc.variant("pineapple"), ofc.variant("pineapple", jokers=2)
    part = layouts(rng, n, 13, 0)
    part[:, rng.permutation(13)[:5]] = 255                 # five empty slots, the same in each
    held = part.copy()
    held[np.arange(n), np.argmax(held != 255, axis=1)] = 52    # X1 on the board
    rows = []
    for label, lay in (("unseen jokers", part), ("X1 placed, X2 unseen", held)):
        t = best_of([lambda: ofc.rollout(part, 100, v0, seed=1),
                     lambda lay=lay: ofc.rollout(lay, 100, v2, seed=1)], repeat)
        rows.append((f"rollout x100, {label}", t[0] / n * 1e6, t[1] / n * 1e6, t[1] / t[0], "-"))
        t = best_of([lambda: ofc.is_dead(part, variant=v0),
                     lambda lay=lay: ofc.is_dead(lay, variant=v2)], repeat)
        rows.append((f"is_dead, {label}", t[0] / n * 1e6, t[1] / n * 1e6, t[1] / t[0], "-"))
    return rows, "us/layout"


SECTIONS = {"evaluate": bench_evaluate, "tables": bench_tables, "fantasyland": bench_fantasyland,
            "completions": bench_completions}
DEFAULT_N = {"evaluate": 200_000, "tables": 100_000, "fantasyland": 500, "completions": 2_000}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", choices=tuple(SECTIONS), action="append")
    p.add_argument("--n", type=int, default=None, help="items per call (default per section)")
    p.add_argument("--repeat", type=int, default=7, help="best of (default 7)")
    p.add_argument("--seed", type=int, default=2027)
    a = p.parse_args(argv)
    for name in a.only or SECTIONS:
        rows, unit = SECTIONS[name](a.n or DEFAULT_N[name], a.repeat, np.random.default_rng(a.seed))
        print(f"\n{'call':<52} {'52 cards':>10} {'jokers':>10} {'ratio':>7}  target  ({unit})")
        for label, base, joker, ratio, target in rows:
            print(f"{label:<52} {base:>10,.1f} {joker:>10,.1f} {ratio:>6.2f}x  {target}")


if __name__ == "__main__":
    main()
