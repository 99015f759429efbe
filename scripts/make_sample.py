#!/usr/bin/env python
"""Generate the bundled sample of recorded hands, ``ofc_fast/data/sample.jsonl``.

    python scripts/make_sample.py                    # writes the package data file
    python scripts/make_sample.py -o hands.jsonl --seed 7 --scale 10

The sample is a set of matches (several variants and options, 2-4 players)
played by the project's own engine (:class:`ofc_fast.Match`): real streets,
discards, fantasyland carried to the next hand and the button rule; each
hand is exported as an ``ofc-hand/1`` record with the points the engine
scored, so ``ofc-fast score --verify`` on the sample agrees everywhere.

Each player has a style: "solid" plays :class:`ofc_fast.HeuristicPolicy`,
"chaser" the same with a higher value on fantasyland (it fouls more often
chasing it), "loose" a heuristic with very few rollouts per move (careless,
it fouls now and then).  Every hand's deck and every policy draw from seeds
spawned from ``--seed``, so the output is reproducible.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import orjson

import ofc_fast as ofc
from ofc_fast.records import FORMAT

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "ofc_fast" / "data" / "sample.jsonl"

# (variant, options, players, matches, hands per match)
MATCHES = [
    ("pineapple", {}, 3, 10, 30),
    ("pineapple", {"finnish": True}, 2, 4, 24),
    ("classic", {}, 4, 5, 40),
    ("classic", {"american": True}, 2, 4, 24),
    ("progressive", {}, 3, 8, 24),
    ("pineapple-2-7", {}, 2, 6, 24),
    ("big-pineapple", {}, 2, 6, 24),
    ("turbo", {}, 3, 2, 24),
]
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
STYLES = {"alice": "solid", "bob": "chaser", "carol": "loose", "dave": "solid",
          "erin": "chaser", "frank": "loose", "grace": "solid", "heidi": "chaser"}


def policy(style: str, seed: np.random.SeedSequence) -> ofc.Policy:
    if style == "solid":
        return ofc.HeuristicPolicy(seed)
    if style == "chaser":
        return ofc.HeuristicPolicy(seed, fantasyland_value=30.0, foul_cost=2.0)
    return ofc.HeuristicPolicy(seed, samples=2, tries=2)


def play_match(v: ofc.Variant, vname: str, opts: dict[str, Any], P: int, hands: int,
               names: list[str], ss: np.random.SeedSequence,
               match_no: int) -> list[dict[str, Any]]:
    """Records of one match, ids ``VARIANT-MATCH-HAND`` (matches numbered per
    variant name, across its option sets, so that every id is unique)."""
    seeds = ss.spawn(P + 1)
    m = ofc.Match(v, n_hands=hands, seed=seeds[0], names=names,
                  policies=[policy(STYLES[n], s) for n, s in zip(names, seeds[1:], strict=True)])
    m.run()
    records = []
    for k, rec in enumerate(m.records):
        rec = dict(rec, format=FORMAT, id=f"{vname}-{match_no}-{k}", variant=vname)
        rec.pop("options", None)
        if opts:
            rec["options"] = opts
        records.append(rec)
    return records


def generate(seed: int = 2024, scale: float = 1.0) -> list[dict[str, Any]]:
    """All sample records (dicts), reproducibly from ``seed``."""
    rng = np.random.default_rng(seed)
    ss = np.random.SeedSequence(seed)
    out: list[dict[str, Any]] = []
    played: dict[str, int] = {}      # matches per variant name: the ids stay unique
    for vname, opts, P, matches, hands in MATCHES:
        v = ofc.variant(vname, **opts)
        for _ in range(max(1, round(matches * scale))):
            names = [str(n) for n in rng.choice(NAMES, P, replace=False)]
            match_no = played[vname] = played.get(vname, -1) + 1
            out += play_match(v, vname, opts, P, hands, names, ss.spawn(1)[0], match_no)
    return out


def main(argv: Sequence[str] | None = None) -> int:
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
