#!/usr/bin/env python
"""Jokers in files: JSON Lines -> JSON Lines scoring with and without jokers,
in one run (docs/jokers.md, "Files").

    python benchmarks/bench_joker_files.py                  # 100,000 hands of 2 players
    python benchmarks/bench_joker_files.py --hands 300000 --repeat 7

Writes three JSON Lines files of the same random finished pineapple hands
(two players, names, recorded points): ``plain`` (52 cards, no options),
``one`` (``"options": {"jokers": 1}``, a random card of seat 0 replaced by
``X1`` in every hand) and ``two`` (``{"jokers": 2}``, two cards of seat 0
replaced, written ``Xj``: the C scanner numbers them X1 and X2 across the
layout).  Then times
``ofc_fast.io.score_file(IN, OUT.jsonl)`` (read, validate, score with the
joker resolution, write with ``substitutes``) on each, interleaved in the
same rounds, best of ``--repeat``, and prints microseconds per player-hand
and the ratio to the plain file.  Not collected by pytest.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np
import orjson

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast.cards import ID_TEXT, JOKER


def tables(n: int, seed: int = 1) -> np.ndarray:
    """(n, 2, 13) random deals of distinct natural cards."""
    rng = np.random.default_rng(seed)
    deck = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8)
    return np.ascontiguousarray(deck[:, :26]).reshape(n, 2, 13)


def write(path: str, t: np.ndarray, jokers: int, seed: int = 2) -> None:
    """The hands of ``t`` as JSON Lines, with ``jokers`` cards replaced by jokers."""
    rng = np.random.default_rng(seed)
    t = t.copy()
    n = len(t)
    if jokers:          # seat 0 holds them (written Xj Xj for two: X1 then X2)
        at = np.argsort(rng.random((n, 13)), axis=1)[:, :jokers]
        at.sort(axis=1)
        for j in range(jokers):
            t[np.arange(n), 0, at[:, j]] = JOKER + j
    v = ofc.variant("pineapple", jokers=jokers)
    pts = ofc.score_tables(t, v).tolist()
    opts = {"options": {"jokers": jokers}} if jokers else {}
    text = [x if x[0] != "X" else ("Xj" if jokers == 2 else x) for x in ID_TEXT]
    with open(path, "wb") as f:
        lines = []
        for g, (tab, p) in enumerate(zip(t.tolist(), pts, strict=True)):
            players = []
            for s in range(2):
                c = [text[x] for x in tab[s]]
                players.append({"name": f"p{(g + s) % 6}", "top": " ".join(c[:3]),
                                "middle": " ".join(c[3:8]), "bottom": " ".join(c[8:]),
                                "points": p[s]})
            lines.append(orjson.dumps({"id": g, "variant": "pineapple", **opts,
                                       "players": players}))
        f.write(b"\n".join(lines) + b"\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", default=None, help="a directory for the files (kept)")
    a = ap.parse_args()
    where = a.keep or tempfile.mkdtemp(prefix="bench_joker_files")
    os.makedirs(where, exist_ok=True)
    t = tables(a.hands)
    files = {}
    for name, jokers in (("plain", 0), ("one joker", 1), ("two jokers", 2)):
        files[name] = os.path.join(where, f"{name.replace(' ', '_')}.jsonl")
        write(files[name], t, jokers)
    out = os.path.join(where, "out.jsonl")
    best = dict.fromkeys(files, float("inf"))
    for _ in range(a.repeat):
        for name, path in files.items():
            t0 = time.perf_counter()
            run = fio.score_file(path, out)
            best[name] = min(best[name], time.perf_counter() - t0)
            assert run.hands == a.hands and not run.skipped, (name, run)
    rows = 2 * a.hands
    print(f"score_file JSON Lines -> JSON Lines, {a.hands:,} hands of 2 players "
          f"(best of {a.repeat}, one run)")
    print(f"{'file':<12} {'us/player-hand':>15} {'ratio':>6}")
    for name, s in best.items():
        print(f"{name:<12} {1e6 * s / rows:>15.3f} {s / best['plain']:>6.2f}")


if __name__ == "__main__":
    main()
