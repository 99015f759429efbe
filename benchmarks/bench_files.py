#!/usr/bin/env python
"""End-to-end file benchmarks: read, validate, score and write recorded hands.

    python benchmarks/bench_files.py                 # 200,000 hands (600,000 player-hands)
    python benchmarks/bench_files.py --hands 1000000 --players 2 --keep /tmp/bench

Generates files of random finished hands (``--players`` per table, default
3; pineapple, with discards and recorded points): JSON Lines, CSV (the same
hands) and Parquet.  Then times, interleaved in one run (each round runs
every measurement once; the best of ``--repeat`` rounds is kept):

* the parse floors: ``orjson.loads`` of every line of the JSON Lines file
  (one core), ``pyarrow.csv.read_csv`` of the CSV file, ``pyarrow.parquet``
  reading the Parquet file;
* ``ofc_fast.io.score_file(IN)`` (read, validate, score, summary; no output)
  for each format, with its ratio to the floor (targets: JSON Lines and CSV
  within 1.3x);
* ``score_file(IN, OUT)`` in and out as before (JSON Lines, Parquet, Parquet
  results only), against 200,000/s (JSON Lines) and 5,000,000/s (Parquet).

Prints player-hands per second (wall clock and CPU time).  Not collected
by pytest.
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
from ofc_fast.cards import CARD_TEXT

TARGETS = {"jsonl -> jsonl": 200_000, "parquet -> parquet": 5_000_000,
           "parquet -> results only": 5_000_000}
RATIO_TARGET = 1.3      # score_file(IN) against the parse floor (JSON Lines and CSV)


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
            for g, (t, d, pts) in enumerate(zip(tl, dl, pl, strict=True)):
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


def json_floor(path: str):
    """orjson.loads of every line (one core, GC paused as the reader does)."""
    import gc
    loads = orjson.loads
    gc.disable()
    try:
        with open(path, "rb") as f:
            for lines in iter(lambda: f.readlines(1 << 22), []):
                for line in lines:
                    loads(line)
    finally:
        gc.enable()


def csv_floor(path: str):
    import pyarrow.csv as pcsv
    pcsv.read_csv(path)


def parquet_floor(path: str):
    import pyarrow.parquet as pq
    pq.read_table(path)


def interleaved(jobs: dict, repeat: int) -> dict:
    """{name: (best wall, best cpu)}: every job once a round, ``repeat`` rounds."""
    best = {k: [float("inf"), float("inf")] for k in jobs}
    for _ in range(repeat):
        for name, fn in jobs.items():
            w, c = time.perf_counter(), time.process_time()
            fn()
            w, c = time.perf_counter() - w, time.process_time() - c
            best[name][0] = min(best[name][0], w)
            best[name][1] = min(best[name][1], c)
    return {k: tuple(v) for k, v in best.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200_000,
                    help="hands in the JSON Lines and CSV files")
    ap.add_argument("--parquet-hands", type=int, default=None,
                    help="hands in the Parquet file (default: 2,000,000 / players)")
    ap.add_argument("--players", type=int, default=3, help="players per hand (2 or 3)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", default=None, help="folder for the generated files (kept)")
    ap.add_argument("--only", choices=("jsonl", "csv", "parquet"), default=None)
    args = ap.parse_args(argv)
    folder = args.keep or tempfile.mkdtemp(prefix="ofc_bench_")
    os.makedirs(folder, exist_ok=True)
    P = args.players
    jobs: dict = {}
    sizes: dict = {}
    floors: dict = {}
    js = os.path.join(folder, "hands.jsonl")
    if args.only in (None, "jsonl", "csv") and not os.path.exists(js):
        print(f"generating {args.hands:,} hands of {P} players -> {js}", file=sys.stderr)
        write_jsonl(js, *random_tables(args.hands, P))
    n_text = args.hands * P
    if args.only in (None, "jsonl"):
        out = os.path.join(folder, "scored.jsonl")
        jobs["jsonl floor (orjson.loads)"] = lambda: json_floor(js)
        jobs["jsonl"] = lambda: fio.score_file(js)
        jobs["jsonl -> jsonl"] = lambda: fio.score_file(js, out, summary=False)
        floors["jsonl"] = "jsonl floor (orjson.loads)"
        for k in ("jsonl floor (orjson.loads)", "jsonl", "jsonl -> jsonl"):
            sizes[k] = n_text
    if args.only in (None, "csv"):
        cs = os.path.join(folder, "hands.csv")
        if not os.path.exists(cs):
            print(f"writing the same hands as CSV -> {cs}", file=sys.stderr)
            with fio.open_writer(cs) as w:
                for chunk in fio.read_chunks(js):
                    w.write(chunk)
        jobs["csv floor (pyarrow.csv)"] = lambda: csv_floor(cs)
        jobs["csv"] = lambda: fio.score_file(cs)
        floors["csv"] = "csv floor (pyarrow.csv)"
        sizes["csv floor (pyarrow.csv)"] = sizes["csv"] = n_text
    if args.only in (None, "parquet"):
        hands = args.parquet_hands or 2_000_000 // P
        pq_in = os.path.join(folder, "hands.parquet")
        pq_out = os.path.join(folder, "scored.parquet")
        if not os.path.exists(pq_in):
            print(f"generating {hands:,} hands of {P} players -> {pq_in}", file=sys.stderr)
            write_parquet(pq_in, *random_tables(hands, P, seed=2))
        jobs["parquet floor (pyarrow)"] = lambda: parquet_floor(pq_in)
        jobs["parquet"] = lambda: fio.score_file(pq_in)
        jobs["parquet -> parquet"] = lambda: fio.score_file(pq_in, pq_out, summary=False)
        jobs["parquet -> results only"] = lambda: fio.score_file(pq_in, pq_out, summary=False,
                                                                 results_only=True)
        floors["parquet"] = "parquet floor (pyarrow)"
        for k in ("parquet floor (pyarrow)", "parquet", "parquet -> parquet",
                  "parquet -> results only"):
            sizes[k] = hands * P
    results = interleaved(jobs, args.repeat)
    print(f"{'run':26} {'player-hands':>13} {'wall s':>8} {'per s (wall)':>14} "
          f"{'per s (cpu)':>14} {'vs floor':>9} {'target':>12}")
    ok = True
    for name, (wall, cpu) in results.items():
        n = sizes[name]
        rate = n / wall
        ratio, target, verdict = "", "", ""
        if name in floors:
            r = wall / results[floors[name]][0]
            ratio = f"{r:8.2f}x"
            if name != "parquet":
                target, good = f"<= {RATIO_TARGET}x", r <= RATIO_TARGET
                verdict = "ok" if good else "ABOVE"
                ok &= good
        elif name in TARGETS:
            target, good = f"{TARGETS[name]:,}", rate >= TARGETS[name]
            verdict = "ok" if good else "BELOW"
            ok &= good
        print(f"{name:26} {n:13,} {wall:8.3f} {rate:14,.0f} {n / cpu:14,.0f} {ratio:>9} "
              f"{target:>12} {verdict}")
    if not args.keep:
        import shutil
        shutil.rmtree(folder, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
