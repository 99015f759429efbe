#!/usr/bin/env python
"""End-to-end file benchmarks: read, validate, score and write recorded hands.

    python benchmarks/bench_files.py                 # 200,000 hands each, JSON Lines and Parquet
    python benchmarks/bench_files.py --hands 1000000 --players 2 --keep /tmp/bench

Generates a file of random finished hands (``--players`` per table, default
3; pineapple, with discards and recorded points), then times
``ofc_fast.io.score_file(IN, OUT)`` on one process: JSON Lines in and out
(one core: the JSON path is pure Python and the kernels), and Parquet in and
out.  Prints player-hands per second (best of ``--repeat`` runs, wall clock
and CPU time) for each, against the targets of 200,000/s (JSON Lines) and
5,000,000/s (Parquet).  Not collected by pytest.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np
import orjson

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast.records import CARD_TEXT

TARGETS = {"jsonl": 200_000, "parquet": 5_000_000, "parquet, results only": 5_000_000}


def random_tables(n_hands: int, players: int, seed: int = 1, variant: str = "pineapple"):
    """(tables (G, P, 13), discards (G, P, 4), points (G, P)) of random deals."""
    v = ofc.variant(variant)
    rng = np.random.default_rng(seed)
    out_t, out_d, out_p = [], [], []
    step = 100_000
    for lo in range(0, n_hands, step):
        g = min(step, n_hands - lo)
        deck = np.argsort(rng.random((g, 52)), axis=1).astype(np.uint8)
        t = np.ascontiguousarray(deck[:, :players * 13]).reshape(g, players, 13)
        d = np.ascontiguousarray(deck[:, players * 13:players * 17]).reshape(g, players, 4)
        out_t.append(t)
        out_d.append(d)
        out_p.append(ofc.score_tables(t, v))
    return np.concatenate(out_t), np.concatenate(out_d), np.concatenate(out_p)


def write_jsonl(path: str, tables, discards, points, variant: str = "pineapple"):
    names = [f"player{i}" for i in range(8)]
    G, P, _ = tables.shape
    with open(path, "wb") as f:
        for lo in range(0, G, 50_000):
            tl = tables[lo:lo + 50_000].tolist()
            dl = discards[lo:lo + 50_000].tolist()
            pl = points[lo:lo + 50_000].tolist()
            lines = []
            for g, (t, d, pts) in enumerate(zip(tl, dl, pl)):
                players = []
                for p in range(P):
                    c = [CARD_TEXT[x] for x in t[p]]
                    players.append({"name": names[(lo + g + p) % 8], "top": " ".join(c[:3]),
                                    "middle": " ".join(c[3:8]), "bottom": " ".join(c[8:]),
                                    "in_fantasyland": 0,
                                    "discards": " ".join(CARD_TEXT[x] for x in d[p]),
                                    "points": pts[p]})
                lines.append(orjson.dumps({"format": "ofc-hand/1", "id": f"h{lo + g}",
                                           "variant": variant, "players": players}))
            f.write(b"\n".join(lines) + b"\n")


def write_parquet(path: str, tables, discards, points, variant: str = "pineapple"):
    import pyarrow as pa
    import pyarrow.parquet as pq
    G, P, n = tables.shape
    N = G * P
    flat = tables.reshape(N, n)
    names = pa.array([f"player{i}" for i in range(8)]).take(
        pa.array((np.arange(G)[:, None] + np.arange(P)).reshape(-1) % 8))
    cols = {
        "hand_id": pa.array(np.repeat(np.arange(G, dtype=np.int64), P)),
        "seat": pa.array(np.tile(np.arange(P, dtype=np.int8), G)),
        "n_players": pa.array(np.full(N, P, np.int8)),
        "variant": pa.DictionaryArray.from_arrays(pa.array(np.zeros(N, np.int32)), [variant]),
        "name": names,
        "in_fantasyland": pa.array(np.zeros(N, np.uint8)),
    }
    for j in range(n):
        cols[f"c{j:02d}"] = pa.array(np.ascontiguousarray(flat[:, j]))
    cols["discards"] = pa.ListArray.from_arrays(
        pa.array(np.arange(0, 4 * N + 1, 4, dtype=np.int32)), pa.array(discards.reshape(-1)))
    cols["points"] = pa.array(points.reshape(-1))
    table = pa.table(cols)
    pq.write_table(table, path, row_group_size=1 << 20, compression="zstd")


def timed(fn, repeat: int):
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        best_wall = min(best_wall, time.perf_counter() - w)
        best_cpu = min(best_cpu, time.process_time() - c)
    return best_wall, best_cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200_000, help="hands in the JSON Lines file")
    ap.add_argument("--parquet-hands", type=int, default=None,
                    help="hands in the Parquet file (default: 2,000,000 / players)")
    ap.add_argument("--players", type=int, default=3, help="players per hand (2 or 3)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", default=None, help="folder for the generated files (kept)")
    ap.add_argument("--only", choices=("jsonl", "parquet"), default=None)
    args = ap.parse_args(argv)
    folder = args.keep or tempfile.mkdtemp(prefix="ofc_bench_")
    os.makedirs(folder, exist_ok=True)
    P = args.players
    results = {}
    if args.only in (None, "jsonl"):
        src, dst = os.path.join(folder, "hands.jsonl"), os.path.join(folder, "scored.jsonl")
        if not os.path.exists(src):
            print(f"generating {args.hands:,} hands of {P} players -> {src}", file=sys.stderr)
            write_jsonl(src, *random_tables(args.hands, P))
        n = args.hands * P
        wall, cpu = timed(lambda: fio.score_file(src, dst, summary=False), args.repeat)
        results["jsonl"] = (n, wall, cpu)
    if args.only in (None, "parquet"):
        hands = args.parquet_hands or 2_000_000 // P
        src, dst = os.path.join(folder, "hands.parquet"), os.path.join(folder, "scored.parquet")
        if not os.path.exists(src):
            print(f"generating {hands:,} hands of {P} players -> {src}", file=sys.stderr)
            write_parquet(src, *random_tables(hands, P, seed=2))
        n = hands * P
        wall, cpu = timed(lambda: fio.score_file(src, dst, summary=False), args.repeat)
        results["parquet"] = (n, wall, cpu)
        wall, cpu = timed(lambda: fio.score_file(src, dst, summary=False, results_only=True),
                          args.repeat)
        results["parquet, results only"] = (n, wall, cpu)
    print(f"{'format':22} {'player-hands':>13} {'wall s':>8} {'per s (wall)':>14} "
          f"{'per s (cpu)':>14} {'target':>12}")
    ok = True
    for fmt, (n, wall, cpu) in results.items():
        rate = n / wall
        ok &= rate >= TARGETS[fmt]
        print(f"{fmt:22} {n:13,} {wall:8.3f} {rate:14,.0f} {n / cpu:14,.0f} "
              f"{TARGETS[fmt]:12,} {'ok' if rate >= TARGETS[fmt] else 'BELOW'}")
    if not args.keep:
        import shutil
        shutil.rmtree(folder, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
