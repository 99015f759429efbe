#!/usr/bin/env python
"""Generate the bundled sample of recorded hands, ``ofc_fast/data/sample.jsonl``.

    python scripts/make_sample.py                    # writes the package data file
    python scripts/make_sample.py -o hands.jsonl --seed 7 --scale 10

The sample is a set of matches (several variants and options, 2-4 players):
each hand deals every player their cards from one shuffled deck (a
fantasyland player gets the fantasyland count earned in the previous hand),
places them with a simple greedy heuristic, scores the table with
``ofc_fast.score_tables`` and records the points, so ``ofc-fast score
--verify`` on the sample agrees everywhere.  The button moves after each hand
without a fantasyland player; players are listed from the button (seat 0).

Placement (deliberately simple, not good play): a normal player keeps 13 of
the dealt cards at random (they cannot see later streets) and a fantasyland
player keeps the best 13; the kept cards go bottom first: the strongest five
on the bottom, the strongest five of the rest in the middle (four rows: the
second, then the third row), the rest on top; a 2-7 middle takes the best
low.  Each player has a style: "solid" always plays so, "chaser" usually
puts a pair of queens or better on top first (chasing fantasyland, fouling
now and then), "loose" now and then places at random (usually a foul).  Everything
is drawn from one seeded generator, so the output is reproducible.
"""
from __future__ import annotations

import argparse
import itertools
import pathlib
import sys

import numpy as np
import orjson

import ofc_fast as ofc
from ofc_fast.records import FORMAT, format_row
from ofc_fast.rules import lowball_valid

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "ofc_fast" / "data" / "sample.jsonl"

# (variant, options, players, matches, hands per match)
MATCHES = [
    ("pineapple", {}, 3, 10, 30),
    ("pineapple", {"finnish": True}, 2, 4, 25),
    ("classic", {}, 4, 5, 40),
    ("classic", {"american": True}, 2, 4, 25),
    ("progressive", {}, 3, 8, 25),
    ("pineapple-2-7", {}, 2, 6, 25),
    ("big-pineapple", {}, 2, 6, 25),
    ("turbo", {}, 3, 2, 25),
]
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
STYLES = {"alice": "solid", "bob": "chaser", "carol": "loose", "dave": "solid",
          "erin": "chaser", "frank": "loose", "grace": "solid", "heidi": "chaser"}
_LOW_OK = lowball_valid()
_COMBOS = {}


def combos(n: int, k: int) -> np.ndarray:
    key = (n, k)
    if key not in _COMBOS:
        _COMBOS[key] = np.array(list(itertools.combinations(range(n), k)), np.intp)
    return _COMBOS[key]


def best(cards: np.ndarray, k: int, low: bool = False) -> np.ndarray:
    """Positions of the strongest k of ``cards`` (the best 2-7 low with ``low``)."""
    idx = combos(len(cards), k)
    s = ofc.row_strength(cards[idx]).astype(np.int64)
    if low:
        ok = _LOW_OK[s]
        if ok.any():
            s = np.where(ok, -s, -10**9)      # lowest valid low
    return idx[int(np.argmax(s))]


def place(cards: np.ndarray, v, style: str, rng: np.random.Generator) -> np.ndarray:
    """A layout (top row first) from ``cards`` (exactly n_cards of them)."""
    n = v.n_cards
    if style == "loose" and rng.random() < 0.2:
        return rng.permutation(cards)
    rest = np.array(cards)
    top = None
    if style == "chaser" and rng.random() < 0.7:
        ranks = rest >> 2
        counts = np.bincount(ranks, minlength=13)
        pairs = np.flatnonzero(counts >= 2)
        pairs = pairs[pairs >= 10]                  # queens or better: fantasyland
        if len(pairs):
            r = pairs[-1]
            pos = np.flatnonzero(ranks == r)[:2]
            others = np.setdiff1d(np.arange(len(rest)), pos)
            kick = others[np.argmin(rest[others])]
            top = rest[np.concatenate([pos, [kick]])]
            rest = np.delete(rest, np.concatenate([pos, [kick]]))
    rows = []
    for r in range(v.n_rows - 1, 0, -1):           # bottom first
        low = v.lowball and r == 1
        pick = best(rest, 5, low=low)
        rows.append(rest[pick])
        rest = np.delete(rest, pick)
    top = rest if top is None else top
    rows.append(top[:3])
    return np.concatenate(rows[::-1]).astype(np.uint8)[:n]


def dealt_cards(v) -> int:
    """Cards a normal (non-fantasyland) player sees in a hand."""
    return v.first_street + sum(d for d, _ in v.streets)


def play_match(v, vname, opts, P, hands, names, rng, match_no):
    """Records of one match."""
    styles = [STYLES[n] for n in names]
    fl_cards = [0] * P          # per player (by name order): cards next hand, 0 = normal
    fl_count = [0] * P
    button = 0
    records = []
    for k in range(hands):
        deck = rng.permutation(52).astype(np.uint8)
        seats = [(button + i) % P for i in range(P)]     # players from the button
        layouts, discards, pos = [], [], 0
        for p in seats:
            m = fl_cards[p] or dealt_cards(v)
            mine = deck[pos:pos + m]
            pos += m
            if fl_cards[p]:
                # fantasyland: the best layout the greedy finds from all the cards
                keep = mine
                lay = place(keep, v, "solid", rng) if len(keep) == v.n_cards else \
                    _best_subset(keep, v, rng)
            else:
                order = rng.permutation(m)
                keep, _ = mine[order[:v.n_cards]], mine[order[v.n_cards:]]
                lay = place(keep, v, styles[p], rng)
            layouts.append(lay)
            discards.append(np.setdiff1d(mine, lay))
        table = np.stack(layouts)[None]
        counts = np.array([[fl_count[p] for p in seats]], np.uint8)
        res = ofc.score_tables(table, v, in_fantasyland=counts, details=True)
        players = []
        for i, p in enumerate(seats):
            lay = layouts[i].tolist()
            entry = {"name": names[p]}
            off = 0
            for row, size in zip(v.row_names, v.row_sizes):
                entry[row] = format_row(lay[off:off + size])
                off += size
            entry["in_fantasyland"] = int(fl_count[p])
            if len(discards[i]):
                entry["discards"] = format_row(discards[i].tolist())
            entry["points"] = int(res.points[0, i])
            players.append(entry)
        rec = {"format": FORMAT, "id": f"{vname}-{match_no}-{k}", "variant": vname}
        if opts:
            rec["options"] = opts
        rec["players"] = players
        records.append(rec)
        any_fl = any(fl_cards)
        for i, p in enumerate(seats):
            fan = int(res.fantasyland[0, i])
            fl_cards[p] = fan
            fl_count[p] = min(fl_count[p] + 1, 255) if fan else 0
        if not any_fl:
            button = (button + 1) % P
    return records


def _best_subset(cards, v, rng):
    """Fantasyland with extra cards: the greedy layout from all of them."""
    rest = np.array(cards)
    rows = []
    for r in range(v.n_rows - 1, 0, -1):
        pick = best(rest, 5, low=v.lowball and r == 1)
        rows.append(rest[pick])
        rest = np.delete(rest, pick)
    rows.append(rest[best(rest, 3)])
    return np.concatenate(rows[::-1]).astype(np.uint8)


def generate(seed: int = 2024, scale: float = 1.0) -> list:
    """All sample records (dicts), reproducibly from ``seed``."""
    rng = np.random.default_rng(seed)
    out = []
    for vname, opts, P, matches, hands in MATCHES:
        v = ofc.variant(vname, **opts)
        for m in range(max(1, round(matches * scale))):
            names = list(rng.choice(NAMES, P, replace=False))
            out += play_match(v, vname, opts, P, hands, names, rng, m)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", default=str(DEFAULT_OUT),
                    help=f"where to write (default: {DEFAULT_OUT.relative_to(ROOT)})")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the number of matches")
    args = ap.parse_args(argv)
    records = generate(args.seed, args.scale)
    with open(args.output, "wb") as f:
        for r in records:
            f.write(orjson.dumps(r) + b"\n")
    n_players = sum(len(r["players"]) for r in records)
    print(f"wrote {len(records):,} hands ({n_players:,} player-hands) to {args.output}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
