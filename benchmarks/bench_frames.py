#!/usr/bin/env python
"""Frames in memory: ``ofc_fast.io.score_frame`` on Arrow, pandas and polars.

    python benchmarks/bench_frames.py                 # 1,000,000 player-hands (3 a table)
    python benchmarks/bench_frames.py --player-hands 3000000 --repeat 5

Builds one frame of random pineapple hands (as ``bench_files.py``: names,
discards, recorded points) with the layout as uint8 card ids ``c00`` ..
``c12`` and, for the text runs, as ``top`` / ``middle`` / ``bottom`` card
text; then times, interleaved (best of ``--repeat`` rounds):

* ``score_frame`` of the id frame as a pyarrow Table, a pandas DataFrame and
  a polars DataFrame (polars when installed), and of the text frame as
  Arrow and pandas;
* the same hands from a Parquet file: ``score_file(path)`` (no output) and
  ``score_frame(pyarrow.parquet.read_table(path))``.

Building the frames (and converting them between libraries) is not timed.
Not collected by pytest.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_files import interleaved, random_tables, write_parquet  # noqa: E402

import ofc_fast.io as fio  # noqa: E402
from ofc_fast.cards import CARD_TEXT  # noqa: E402


def text_rows(table):
    """The table with its card ids as top / middle / bottom card text."""
    import pyarrow as pa
    text = np.array(CARD_TEXT[:52], object)
    ids = np.stack([table.column(f"c{j:02d}").to_numpy() for j in range(13)], axis=1)
    cards = text[ids]
    rows = {}
    for name, lo, hi in (("top", 0, 3), ("middle", 3, 8), ("bottom", 8, 13)):
        part = cards[:, lo]
        for j in range(lo + 1, hi):
            part = part + " " + cards[:, j]
        rows[name] = pa.array(part, pa.string())
    keep = [c for c in table.column_names if not (c[0] == "c" and c[1:].isdigit())]
    return pa.table({**{c: table.column(c) for c in keep}, **rows})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--player-hands", type=int, default=1_000_000)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    import pyarrow.parquet as pq
    P = args.players
    hands = -(-args.player_hands // P)
    N = hands * P
    folder = tempfile.mkdtemp(prefix="ofc_frames_")
    path = os.path.join(folder, "hands.parquet")
    print(f"generating {hands:,} hands of {P} players ({N:,} player-hands)", file=sys.stderr)
    write_parquet(path, *random_tables(hands, P, seed=3))
    ids = pq.read_table(path).combine_chunks()
    text = text_rows(ids)
    frames = {"Arrow table, card ids": ids, "pandas, card ids": ids.to_pandas()}
    try:
        import polars as pl
        frames["polars, card ids"] = pl.from_arrow(ids)
    except ImportError:
        print("(polars not installed: no polars run)", file=sys.stderr)
    frames["Arrow table, card text"] = text
    frames["pandas, card text"] = text.to_pandas()
    jobs = {name: (lambda f=frame: fio.score_frame(f)) for name, frame in frames.items()}
    jobs["Parquet file: score_file"] = lambda: fio.score_file(path)
    jobs["Parquet file: read_table + score_frame"] = \
        lambda: fio.score_frame(pq.read_table(path))
    results = interleaved(jobs, args.repeat)
    print(f"{'run':40} {'wall s':>8} {'player-hands/s':>15} {'ns each':>8}")
    for name, (wall, _cpu) in results.items():
        print(f"{name:40} {wall:8.3f} {N / wall:15,.0f} {1e9 * wall / N:8.0f}")
    import shutil
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
