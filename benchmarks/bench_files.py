#!/usr/bin/env python
"""End-to-end file benchmarks: read, validate, score and write recorded hands,
each input format to each output format, in one run.

    python benchmarks/bench_files.py                       # 200,000 hands (600,000 player-hands)
    python benchmarks/bench_files.py --baseline /work/wt/baseline   # before and after, one run
    python benchmarks/bench_files.py --hands 1000000 --players 2 --keep /tmp/bench

Generates files of random finished hands (``--players`` per table, default
3; pineapple, with names, discards and recorded points): JSON Lines, CSV (the
same hands) and Parquet.  Then times, interleaved in one run (each round runs
every measurement once; the best of ``--repeat`` rounds is kept):

* the parse floors: ``orjson.loads`` of every line of the JSON Lines file
  (one core), ``pyarrow.csv.read_csv`` of the CSV file, ``pyarrow.parquet``
  reading the Parquet file;
* pyarrow's writers of the same scored rows (an Arrow table built beforehand,
  not timed): ``pyarrow.csv.write_csv`` and ``pyarrow.parquet.write_table``;
* ``ofc_fast.io.score_file(IN)`` (read, validate, score, summary; no output)
  for each input format, with its ratio to the parse floor (targets: JSON
  Lines and CSV within 1.3x);
* ``score_file(IN, OUT)`` for each input and output format (and Parquet
  results only), with its cost against ``score_file(IN)``: the target is
  at most 1.5x.

With ``--baseline PATH`` (a built checkout), every ``score_file`` run is also
timed with that checkout's ofc_fast, in the same rounds (each tree in its
own process, taking turns), beside this one's.  Prints player-hands per
second (wall clock) and the ratios.  Not collected by pytest.
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
import tempfile
import time

import numpy as np
import orjson

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast.cards import CARD_TEXT


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
    """{name: (best wall, best cpu)}: every job once a round, ``repeat`` rounds.
    A job is a function, or ``(prepare, function)``: ``prepare()`` runs
    first, untimed."""
    best = {k: [float("inf"), float("inf")] for k in jobs}
    for _ in range(repeat):
        for name, fn in jobs.items():
            if isinstance(fn, tuple):
                fn[0]()
                fn = fn[1]
            w, c = time.perf_counter(), time.process_time()
            fn()
            w, c = time.perf_counter() - w, time.process_time() - c
            best[name][0] = min(best[name][0], w)
            best[name][1] = min(best[name][1], c)
    return {k: tuple(v) for k, v in best.items()}


FORMATS = ("jsonl", "csv", "parquet")
EXT = {"jsonl": "jsonl", "csv": "csv", "parquet": "parquet"}


def score_jobs(folder: str, inputs: dict) -> dict:
    """``score_file`` runs: each input alone, then to each output format (a
    new file each time: the last run's output is removed first, untimed)."""
    import ofc_fast.io as fio
    jobs: dict = {}

    def fresh(path):
        return lambda: os.path.exists(path) and os.remove(path)
    for fin, path in inputs.items():
        jobs[f"{fin} -> (none)"] = lambda p=path: fio.score_file(p)
        for fout in FORMATS:
            out = os.path.join(folder, f"out_{os.getpid()}_{fin}.{EXT[fout]}")
            jobs[f"{fin} -> {fout}"] = (fresh(out), lambda p=path, o=out: fio.score_file(p, o))
        out = os.path.join(folder, f"out_{os.getpid()}_{fin}_ro.parquet")
        jobs[f"{fin} -> parquet results only"] = \
            (fresh(out), lambda p=path, o=out: fio.score_file(p, o, results_only=True))
    return jobs


def worker(args) -> int:
    """One round of the ``score_file`` runs with the ofc_fast on ``sys.path``:
    ``{name: [wall, cpu]}`` as JSON on stdout."""
    inputs = orjson.loads(args.worker)
    jobs = score_jobs(args.folder, inputs)
    import pyarrow.compute  # noqa: F401  (imported on first use: not timed)
    import pyarrow.parquet  # noqa: F401
    # warm: the first run of a kind imports and grows the memory pools (pyarrow's,
    # numpy's): untimed, else the first job of an input, its no-output run that
    # the others are divided by, would pay for it
    for path in inputs.values():
        fio.score_file(path)
    try:
        res = interleaved(jobs, 1)
    finally:   # the outputs are named by this process: nobody else removes them
        for path in glob.glob(os.path.join(args.folder, f"out_{os.getpid()}_*")):
            os.remove(path)
    sys.stdout.write(orjson.dumps({k: list(v) for k, v in res.items()}).decode())
    return 0


def run_tree(tree: str, folder: str, inputs: dict) -> dict:
    """One round in a fresh process importing ofc_fast from ``tree``."""
    import subprocess
    env = dict(os.environ, PYTHONPATH=tree)
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", orjson.dumps(inputs).decode(),
           "--folder", folder]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=tree)
    return {k: tuple(v) for k, v in orjson.loads(out.stdout).items()}


def pyarrow_writers(folder: str, pq_in: str, jobs: dict, sizes: dict) -> None:
    """pyarrow's CSV and Parquet writers of the scored rows of ``pq_in``: the
    rows our writers write, as Arrow tables built beforehand (for CSV, our
    CSV output read back by pyarrow: the same columns, card text as text)."""
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq
    scored_csv = os.path.join(folder, "scored_for_pyarrow.csv")
    scored_pq = os.path.join(folder, "scored_for_pyarrow.parquet")
    fio.score_file(pq_in, scored_csv)
    fio.score_file(pq_in, scored_pq)
    text = pcsv.read_csv(scored_csv)
    table = pq.read_table(scored_pq)
    jobs["pyarrow.csv.write_csv"] = lambda: pcsv.write_csv(text, os.path.join(folder, "pa.csv"))
    jobs["pyarrow.parquet.write_table"] = lambda: pq.write_table(
        table, os.path.join(folder, "pa.parquet"))
    sizes["pyarrow.csv.write_csv"] = text.num_rows
    sizes["pyarrow.parquet.write_table"] = table.num_rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200_000,
                    help="hands in each file")
    ap.add_argument("--players", type=int, default=3, help="players per hand (2 or 3)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", default=None, help="folder for the generated files (kept)")
    ap.add_argument("--baseline", default=None,
                    help="a built checkout to time beside this one (before/after)")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--folder", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args)
    folder = args.keep or tempfile.mkdtemp(prefix="ofc_bench_")
    os.makedirs(folder, exist_ok=True)
    P = args.players
    N = args.hands * P
    inputs = {f: os.path.join(folder, f"hands.{EXT[f]}") for f in FORMATS}
    if not os.path.exists(inputs["jsonl"]):
        print(f"generating {args.hands:,} hands of {P} players -> {inputs['jsonl']}",
              file=sys.stderr)
        write_jsonl(inputs["jsonl"], *random_tables(args.hands, P))
    if not os.path.exists(inputs["csv"]):
        with fio.open_writer(inputs["csv"]) as w:
            for chunk in fio.read_chunks(inputs["jsonl"]):
                w.write(chunk)
    if not os.path.exists(inputs["parquet"]):
        write_parquet(inputs["parquet"], *random_tables(args.hands, P))
    floors = {"jsonl": "jsonl floor (orjson.loads)", "csv": "csv floor (pyarrow.csv)",
              "parquet": "parquet floor (pyarrow)"}
    jobs: dict = {floors["jsonl"]: lambda: json_floor(inputs["jsonl"]),
                  floors["csv"]: lambda: csv_floor(inputs["csv"]),
                  floors["parquet"]: lambda: parquet_floor(inputs["parquet"])}
    sizes: dict = dict.fromkeys(jobs, N)
    pyarrow_writers(folder, inputs["parquet"], jobs, sizes)
    trees = {"after": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    if args.baseline:
        trees["before"] = os.path.abspath(args.baseline)
    best: dict = {}
    for _ in range(args.repeat):
        for name, (w, c) in interleaved(jobs, 1).items():
            b = best.setdefault(("", name), [float("inf"), float("inf")])
            b[0], b[1] = min(b[0], w), min(b[1], c)
        for label, tree in trees.items():
            for name, (w, c) in run_tree(tree, folder, inputs).items():
                b = best.setdefault((label, name), [float("inf"), float("inf")])
                b[0], b[1] = min(b[0], w), min(b[1], c)
    print(f"{'run':34} {'player-hands':>12} {'wall s':>7} {'per s':>11} {'vs floor':>9}")
    for (label, name), (wall, _) in best.items():
        if label == "":
            print(f"{name:34} {sizes[name]:12,} {wall:7.3f} {sizes[name] / wall:11,.0f}")
    cols = list(trees)
    head = "".join(f" {t + ' per s':>13} {t + ' x':>9} {'cpu x':>6}" for t in cols)
    print(f"\n{'score_file(IN[, OUT])':34} {'player-hands':>12}{head}"
          f"{'  after/before':>14}{'  target':>9}")
    ok = True
    for name in score_jobs(folder, inputs):
        fin, fout = name.split(" -> ")
        row = f"{name:34} {N:12,}"
        for t in cols:
            wall, cpu = best[(t, name)]
            if fout == "(none)":
                ratio = wall / best[("", floors[fin])][0]
                x, cx = f"{ratio:8.2f}f", ""
            else:
                ratio = wall / best[(t, f"{fin} -> (none)")][0]
                x = f"{ratio:8.2f}x"
                cx = f"{cpu / best[(t, f'{fin} -> (none)')][1]:5.2f}x"
            row += f" {N / wall:13,.0f} {x:>9} {cx:>6}"
        if "before" in trees:
            row += f" {best[('before', name)][0] / best[('after', name)][0]:12.2f}x"
        if fout != "(none)":
            good = best[("after", name)][0] / best[("after", f"{fin} -> (none)")][0] <= 1.5
            ok &= good
            row += f"  {'ok' if good else 'ABOVE':>7}"
        print(row)
    print("\nx: wall time against score_file(IN) without output (target <= 1.5x); cpu x: "
          "the same in CPU time (all threads); f: against the input's parse floor")
    if not args.keep:
        import shutil
        shutil.rmtree(folder, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
