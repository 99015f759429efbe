"""Fantasyland solver: exactness against plain exhaustive searches, API, CLI.

Two independent references live here:

* ``brute_force`` - every placement of 13-15 cards on three rows, built with
  ``itertools.combinations`` and scored by ``ofc_fast.evaluate`` (tested on
  its own); the best is picked by the documented order (value, row strengths
  bottom first, then card ids), so layouts must match exactly.
* ``better_layout`` - for 16-19 cards (and four rows), where listing every
  placement is out of reach: a plain exhaustive search that proves no
  placement beats the solver's value.  It walks the rows bottom first and
  skips a branch only when even the best royalty of every remaining row
  (ignoring which cards are left) cannot exceed the value to beat.  Royalties
  are written out here from RULES.md.
"""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast._eval import JOINT_CATEGORY, JOINT_RANKS, JOINT_SIZE
from ofc_fast.fantasyland import (
    FantasylandBatch,
    FantasylandSolution,
    fantasyland_card_counts,
    repeat_first_value,
    solve_fantasyland,
    solve_fantasyland_batch,
)

SEED = 20240607
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


def deals(n, k, seed):
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(52)[:k] for _ in range(n)], dtype=np.uint8)


# ------------------------------------------------------------------ brute force (3 rows)
def _comb(n, r):
    return np.array(list(itertools.combinations(range(n), r)), dtype=np.int8).reshape(-1, r)


def _complement(n, chosen):
    every = set(range(n))
    return np.array([sorted(every - set(row)) for row in chosen.tolist()],
                    dtype=np.int8).reshape(len(chosen), n - chosen.shape[1])


@functools.cache
def placements(k):
    """Every three-row placement of k cards as positions: (P, 13) top, middle,
    bottom, and (P, k - 13) discards.  Positions are taken in every possible
    way with itertools: bottom, then middle from the rest, then top."""
    bottoms = _comb(k, 5)
    rest1 = _complement(k, bottoms)
    mids = _comb(k - 5, 5)
    rest2 = _complement(k - 5, mids)
    tops = _comb(k - 10, 3)
    disc = _complement(k - 10, tops)
    nb, nm, nt = len(bottoms), len(mids), len(tops)
    mid = rest1[:, mids]                               # (nb, nm, 5)
    rest = rest1[:, rest2]                             # (nb, nm, k - 10)
    top = rest[:, :, tops]                             # (nb, nm, nt, 3)
    out = np.empty((nb, nm, nt, 13), np.int8)
    out[..., 0:3] = top
    out[..., 3:8] = mid[:, :, None, :]
    out[..., 8:13] = bottoms[:, None, None, :]
    discards = rest[:, :, disc]                        # (nb, nm, nt, k - 13)
    return out.reshape(-1, 13), discards.reshape(nb * nm * nt, k - 13)


def _best_index(criteria):
    """Index of the lexicographically largest row of the criteria columns."""
    idx = np.arange(len(criteria[0]))
    for col in criteria:
        c = col[idx]
        idx = idx[c == c.max()]
    return idx[0]


def brute_force(cards, variant, repeat_values, in_fantasyland=1):
    """Best placement by the documented order, for each repeat value: a list of
    (layout, discards, value), (None, None, -inf) when every placement fouls.
    Objective ``royalties`` is repeat value 0."""
    v = ofc.variant(variant)
    assert v.n_rows == 3
    single = not isinstance(repeat_values, (list, tuple))
    rvs = [repeat_values] if single else list(repeat_values)
    cards = np.sort(np.asarray(cards, np.uint8))[::-1]  # position order: highest id first
    pos, disc = placements(len(cards))
    best = [None] * len(rvs)
    chunk = 1_000_000
    for lo in range(0, len(pos), chunk):
        p = pos[lo:lo + chunk]
        ev = ofc.evaluate(cards[p], v, in_fantasyland=in_fantasyland)
        s = ev.strengths.astype(np.int64)
        middle_key = -s[:, 1] if v.lowball else s[:, 1]   # a lower 2-7 is stronger
        # card ids, highest first per row == positions, lowest first (negated: larger wins)
        ties = [s[:, 2], middle_key, s[:, 0]] + [-p[:, 8 + i] for i in range(5)] \
            + [-p[:, 3 + i] for i in range(5)] + [-p[:, i] for i in range(3)]
        for j, rv in enumerate(rvs):
            value = np.where(ev.foul, -np.inf, ev.royalty_total + rv * ev.repeat)
            if np.isneginf(value).all():
                continue
            crit = [value] + ties
            i = _best_index(crit)
            cand = (tuple(float(c[i]) for c in crit), lo + i)
            if best[j] is None or cand[0] > best[j][0]:
                best[j] = cand
    out = [(None, None, -math.inf) if b is None else
           (cards[pos[b[1]]], cards[disc[b[1]]], b[0][0]) for b in best]
    return out[0] if single else out


# ------------------------------------------------------- exhaustive proof (any rows)
AMERICAN_BOTTOM = {STRAIGHT: 2, FLUSH: 4, FULL_HOUSE: 6, QUADS: 10, STRAIGHT_FLUSH: 15, "royal": 25}


def _five_royalty(factor, trips):
    """Royalty per joint strength of a 5-card row paying factor x the American bottom."""
    out = np.zeros(len(JOINT_CATEGORY), np.int64)
    for s in range(1, len(out)):
        if JOINT_SIZE[s] != 5:
            continue
        cat = int(JOINT_CATEGORY[s])
        if cat == STRAIGHT_FLUSH and JOINT_RANKS[s, 0] == 12:
            out[s] = factor * AMERICAN_BOTTOM["royal"]
        elif cat == TRIPS:
            out[s] = trips
        else:
            out[s] = factor * AMERICAN_BOTTOM.get(cat, 0)
    return out


def _top_royalty():
    out = np.zeros(len(JOINT_CATEGORY), np.int64)
    for s in range(1, len(out)):
        if JOINT_SIZE[s] != 3:
            continue
        cat, rank = int(JOINT_CATEGORY[s]), int(JOINT_RANKS[s, 0])
        if cat == PAIR and rank >= 4:        # 66 pays 1 .. AA 9
            out[s] = rank - 3
        elif cat == TRIPS:                   # 222 pays 10 .. AAA 22
            out[s] = 10 + rank
    return out


def _lowball():
    """(valid, royalty) per joint strength of a 2-7 middle (RULES.md sections 4-5)."""
    valid = (JOINT_SIZE == 5) & (JOINT_CATEGORY == HIGH_CARD) & (JOINT_RANKS[:, 0] <= 8)
    r = JOINT_RANKS
    roy = np.zeros(len(valid), np.int64)
    roy[valid & (r[:, 0] == 7)] = 1
    roy[valid & (r[:, 0] == 6)] = 2
    roy[valid & (r[:, 0] == 5) & (r[:, 1] == 4)] = 4
    roy[valid & (r[:, 0] == 5) & (r[:, 1] == 3)] = 8
    return valid, roy


@functools.cache
def row_rules(name):
    """Per row (top first): (royalty by strength, valid by strength, in foul chain)."""
    top = (_top_royalty(), np.ones(len(JOINT_CATEGORY), bool), True)
    if name == "big-pineapple":
        return [top, (_five_royalty(4, 4), top[1], True), (_five_royalty(2, 2), top[1], True),
                (_five_royalty(1, 0), top[1], True)]
    if name == "pineapple-2-7":
        valid, roy = _lowball()
        return [top, (roy, valid, False), (_five_royalty(1, 0), top[1], True)]
    assert name in ("pineapple", "progressive")
    return [top, (_five_royalty(2, 2), top[1], True), (_five_royalty(1, 0), top[1], True)]


def _at_least(cat):
    return (JOINT_SIZE == 5) & (JOINT_CATEGORY >= cat)


def repeat_patterns(name):
    """The ways to repeat (RULES.md sections 7-8): each a {row: allowed strengths}."""
    trips_top = (JOINT_SIZE == 3) & (JOINT_CATEGORY == TRIPS)
    if name == "big-pineapple":
        royal = (JOINT_SIZE == 5) & (JOINT_CATEGORY == STRAIGHT_FLUSH) & (JOINT_RANKS[:, 0] == 12)
        return [{3: royal, 2: _at_least(QUADS)}, {3: royal, 0: trips_top}]
    return [{0: trips_top}, {2: _at_least(QUADS)}]


def better_layout(cards, name, threshold, only=None):
    """A legal layout of the cards with royalty total > threshold whose rows
    satisfy ``only`` ({row: allowed strengths}), as its rows bottom first, or
    None.  Exhaustive: a branch is skipped only if the best royalty of each remaining row among all
    subsets of the hand no stronger than the row below (ignoring overlaps)
    cannot lift the total above the threshold."""
    rules = row_rules(name)
    only = only or {}
    cards = np.asarray(cards, np.uint8)
    k, R = len(cards), len(rules)
    cand = []
    for row in range(R):
        size = 3 if row == 0 else 5
        pos = np.array(list(itertools.combinations(range(k), size)), dtype=np.int64)
        mask = (np.int64(1) << pos).sum(axis=1)
        s = ofc.row_strength(cards[pos]).astype(np.int64)
        roy, valid, chained = rules[row]
        keep = valid[s] & only.get(row, np.ones(len(valid), bool))[s]
        order = np.argsort(s[keep], kind="stable")
        c = dict(pos=pos[keep][order], mask=mask[keep][order], s=s[keep][order],
                 roy=roy[s[keep][order]], chained=chained)
        # best royalty among candidates no stronger than a cap: prefix max by strength
        c["best"] = np.maximum.accumulate(c["roy"]) if len(order) else np.zeros(0, np.int64)
        cand.append(c)

    def best_upto(row, cap):
        c = cand[row]
        if not c["chained"]:
            return c["best"][-1] if len(c["best"]) else -10**9
        n = np.searchsorted(c["s"], cap, side="right")
        return np.where(n > 0, c["best"][np.maximum(n - 1, 0)], -10**9) if len(c["s"]) else \
            np.full(np.shape(cap), -10**9)

    order = list(range(R - 1, -1, -1))              # bottom first, top last

    def search(level, used, cap, total, rows):
        row = order[level]
        c = cand[row]
        ok = (c["mask"] & used) == 0
        if c["chained"] and cap is not None:
            ok &= c["s"] <= cap
        idx = np.flatnonzero(ok)
        if idx.size == 0:
            return None
        new_total = total + c["roy"][idx]
        caps = c["s"][idx] if c["chained"] else np.full(idx.size, cap if cap is not None else 10**6)
        bound = new_total.copy()
        for later in order[level + 1:]:
            bound = bound + best_upto(later, caps)
        idx, new_total = idx[bound > threshold], new_total[bound > threshold]
        if level == R - 1:
            return None if idx.size == 0 else rows + [cards[c["pos"][idx[0]]]]
        for i, t in zip(idx.tolist(), new_total.tolist(), strict=True):
            found = search(level + 1, used | int(c["mask"][i]),
                           int(c["s"][i]) if c["chained"] else cap, t, rows + [cards[c["pos"][i]]])
            if found is not None:
                return found
        return None

    return search(0, 0, None, 0, [])


def assert_optimal(sol, name):
    """No placement beats the solver's value (objective royalties or with repeats)."""
    hand = np.asarray(sol.cards)
    # the proof search is not vacuous: just below the optimum it finds a layout,
    # and ofc_fast.evaluate agrees with the royalties written out here
    found = better_layout(hand, name, sol.royalty_total - 1)
    assert found is not None
    ev = ofc.evaluate(np.concatenate(found[::-1]), sol.variant, in_fantasyland=1)
    assert not ev.foul[0] and ev.royalty_total[0] >= sol.royalty_total
    if sol.objective == "royalties" or sol.fantasyland_value == 0:
        assert better_layout(hand, name, sol.royalty_total) is None
        return
    assert better_layout(hand, name, sol.score) is None
    for pattern in repeat_patterns(name):
        assert better_layout(hand, name, sol.score - sol.fantasyland_value, pattern) is None


def check_consistent(sol):
    """The reported layout uses the hand's cards and evaluates to what is reported."""
    v = sol.variant
    placed = np.concatenate([sol.layout, sol.discards])
    assert sorted(placed.tolist()) == sorted(np.asarray(sol.cards).tolist())
    ev = ofc.evaluate(sol.layout, v, in_fantasyland=1)
    assert bool(ev.foul[0]) == sol.foul
    assert tuple(ev.royalties[0].tolist()) == sol.royalties
    assert int(ev.royalty_total[0]) == sol.royalty_total
    assert bool(ev.repeat[0]) == sol.repeat
    assert int(ev.next_fantasyland[0]) == sol.next_fantasyland
    if sol.foul:
        assert sol.score == -math.inf
    else:
        assert sol.score == sol.royalty_total + sol.fantasyland_value * sol.repeat


# ------------------------------------------------------------------------ exactness
CASES = [
    # (variant, cards, deals, seed)
    ("classic", 13, 150, 1),
    ("pineapple", 14, 130, 2),
    ("pineapple-2-7", 14, 70, 3),
    ("progressive", 14, 20, 4),
]


@pytest.mark.slow
@pytest.mark.parametrize("name,k,n,seed", CASES)
def test_matches_brute_force(name, k, n, seed):
    """Exact layouts, discards and scores for three objectives on random deals."""
    v = ofc.variant(name)
    hands = deals(n, k, SEED + seed)
    objectives = [("royalties", None), ("royalties+repeat", None), ("royalties+repeat", 3.5)]
    batches = [solve_fantasyland_batch(hands, v, obj, rv) for obj, rv in objectives]
    rvs = [b.fantasyland_value for b in batches]
    assert rvs == [0.0, repeat_first_value(v), 3.5]
    fouls = 0
    for i, hand in enumerate(hands):
        for batch, (lay, disc, value) in zip(batches, brute_force(hand, v, rvs), strict=True):
            got = batch[i]
            if lay is None:
                assert got.foul and got.score == -math.inf
                fouls += 1
                continue
            assert not got.foul
            assert got.score == value, (name, ofc.format_cards(hand), batch.fantasyland_value)
            assert got.text == ofc.format_layout(lay, v), (name, ofc.format_cards(hand))
            assert got.discards.tolist() == disc.tolist()
    if name == "pineapple-2-7":
        assert fouls > 0  # some deals hold no valid 2-7 middle: the fouled fallback ran


@pytest.mark.slow
def test_matches_brute_force_15_cards():
    for name, seed in (("progressive", 5), ("pineapple-2-7", 6)):
        for hand in deals(4, 15, SEED + seed):
            sols = [solve_fantasyland(hand, name, obj) for obj in ("royalties", "royalties+repeat")]
            refs = brute_force(hand, name, [s.fantasyland_value for s in sols])
            for got, (lay, disc, value) in zip(sols, refs, strict=True):
                if lay is None:
                    assert got.foul
                    continue
                assert got.score == value
                assert got.layout.tolist() == lay.tolist()
                assert got.discards.tolist() == disc.tolist()


@pytest.mark.slow
@pytest.mark.parametrize("name,k,n", [("pineapple", 16, 10), ("progressive", 17, 10),
                                      ("pineapple-2-7", 17, 5), ("big-pineapple", 19, 12)])
def test_no_better_placement_exists(name, k, n):
    """Larger deals: the exhaustive proof finds nothing beating the solver."""
    for hand in deals(n, k, SEED + k):
        for objective in ("royalties", "royalties+repeat"):
            sol = solve_fantasyland(hand, name, objective)
            check_consistent(sol)
            assert not sol.foul
            assert_optimal(sol, name)


@pytest.mark.slow
@pytest.mark.parametrize("name,k,n", [("pineapple", 20, 4), ("pineapple", 22, 3),
                                      ("pineapple", 24, 3), ("big-pineapple", 22, 2),
                                      ("big-pineapple", 24, 2)])
def test_no_better_placement_exists_up_to_the_largest_deal(name, k, n):
    """Every deal a variant may give (up to MAX_DEAL, 24 cards) is solved
    exactly: the exhaustive proof finds nothing beating the solver."""
    v = ofc.variant(name, entry_cards=(0, ofc.variant(name).repeat_cards, k))
    assert k in fantasyland_card_counts(v)
    for hand in deals(n, k, SEED + 100 + k):
        for objective in ("royalties", "royalties+repeat"):
            sol = solve_fantasyland(hand, v, objective)
            check_consistent(sol)
            assert_optimal(sol, name)


@pytest.mark.slow
def test_custom_royalties_not_monotone():
    """Bounds stay exact when a table pays a weaker hand more (custom royalties)."""
    v = ofc.variant("pineapple", royalties={
        "bottom": {"two_pair": 7, "straight": 1, "flush": 3, "full_house": 2},
        "middle": {"pair": 3, "trips": 1, "flush": 9},
        "top_pairs": [5] + [0] * 11 + [1], "top_trips": [0] * 13})
    hands = deals(25, 14, SEED + 21)
    objectives = [("royalties", None), ("royalties+repeat", None), ("royalties+repeat", 4.0)]
    batches = [solve_fantasyland_batch(hands, v, obj, rv) for obj, rv in objectives]
    for i, hand in enumerate(hands):
        refs = brute_force(hand, v, [b.fantasyland_value for b in batches])
        for batch, (lay, _disc, value) in zip(batches, refs, strict=True):
            assert batch.score[i] == value
            assert batch.layouts[i].tolist() == lay.tolist()


@pytest.mark.slow
def test_no_fantasyland_variant_maximises_royalties():
    v = ofc.variant("pineapple", fantasyland=False)
    assert fantasyland_card_counts(v) == range(13, 18)
    hands = deals(10, 14, SEED + 22)
    out = solve_fantasyland_batch(hands, v)
    assert not out.repeat.any() and (out.next_fantasyland == 0).all()
    for i, hand in enumerate(hands):
        lay, _, value = brute_force(hand, v, 0.0)
        assert out.score[i] == value and out.layouts[i].tolist() == lay.tolist()


@pytest.mark.slow
def test_no_better_placement_with_repeats_available():
    """Deals rich in repeats (quads, trips, a royal flush) under both objectives."""
    hands = [
        ("pineapple", "As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s 2s 2d"),
        ("progressive", "Qs Qd Qc Jh Jd Jc Js Ts 9s 8s 7s 6h 5h 4h 3h 2h 2c"),
        ("big-pineapple", "As Ks Qs Js Ts 9h 9d 9c 9s 8h 8d 8c 7h 7d 7c 6h 5h 2c 3d"),
        ("big-pineapple", "Ah Kh Qh Jh Th 5s 5d 5c 5h 4h 4d 4c 3h 3d 3c 2h 2d Kc Ks"),
    ]
    for name, text in hands:
        for objective in ("royalties", "royalties+repeat"):
            sol = solve_fantasyland(text, name, objective)
            check_consistent(sol)
            assert_optimal(sol, name)


# ----------------------------------------------------------------- constructed hands
def test_quads_bottom_trips_top():
    sol = solve_fantasyland("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s", "pineapple")
    assert sol.text == "9s 9d 9c / Ks Kd Kc 6d 4c / As Ah Ad Ac 7h"
    assert sol.royalties == (17, 2, 10) and sol.royalty_total == 29
    assert sol.repeat and sol.next_fantasyland == 14
    assert ofc.format_cards(sol.discards) == "3s"
    assert sol.score == 29 + 98


def test_repeat_first_against_royalties():
    # Quad aces on the bottom repeat (10 royalties); royalties alone prefer a flush in
    # the middle over aces full on the bottom (17, no repeat).
    hand = "8s Ad 7d 2d Qc 4h Td 4s Ac Ah Kd As 8h Jh"
    rep = solve_fantasyland(hand, "pineapple")
    roy = solve_fantasyland(hand, "pineapple", "royalties")
    check_consistent(rep)
    check_consistent(roy)
    assert rep.repeat and rep.text == "Jh Td 7d / Qc 8s 8h 4s 4h / As Ah Ad Ac Kd"
    assert rep.royalty_total == 10 and rep.score == 10 + 98
    assert not roy.repeat and roy.royalty_total == 17 and roy.score == 17
    assert roy.text == "Qc 8s 8h / Ad Kd Td 7d 2d / As Ah Ac 4s 4h"
    # a repeat worth 0 points is the royalties objective; worth 6.5 it loses to 17;
    # worth 7 it ties at 17 and the stronger bottom (quad aces) wins the tie
    assert solve_fantasyland(hand, "pineapple", 0).layout.tolist() == roy.layout.tolist()
    assert not solve_fantasyland(hand, "pineapple", fantasyland_value=6.5).repeat
    assert solve_fantasyland(hand, "pineapple", fantasyland_value=7).repeat
    sols = [solve_fantasyland(hand, "pineapple", fantasyland_value=rv)
            for rv in (None, 6.5, 7, 7.5)]
    refs = brute_force(hand_ids(hand), "pineapple", [s.fantasyland_value for s in sols])
    for sol, (lay, _, value) in zip(sols, refs, strict=True):
        assert sol.score == value and sol.layout.tolist() == lay.tolist()


def hand_ids(text):
    return ofc.parse_cards(text)


def test_repeat_value_trades_off():
    """A higher repeat value never drops a repeat nor raises the royalties chosen."""
    for hand in deals(6, 16, 99):
        prev = None
        for rv in (0.0, 2.0, 10.0, 50.0, None):
            sol = solve_fantasyland(hand, "pineapple", fantasyland_value=rv)
            check_consistent(sol)
            if prev is not None:
                assert sol.repeat >= prev.repeat
                assert sol.royalty_total <= prev.royalty_total or sol.repeat > prev.repeat
            prev = sol


@pytest.mark.slow
def test_custom_repeat_value_exact_14():
    hands = deals(12, 14, SEED + 11)
    rvs = [-5.0, 1.0, 7.25, 30.0]
    batches = [solve_fantasyland_batch(hands, "pineapple", fantasyland_value=rv) for rv in rvs]
    for i, hand in enumerate(hands):
        for batch, (lay, _disc, value) in zip(batches, brute_force(hand, "pineapple", rvs),
                                               strict=True):
            assert batch.score[i] == value
            assert batch.layouts[i].tolist() == lay.tolist()


def test_classic_13_middle_full_house_repeats():
    # classic repeats on a full house in the middle (RULES.md section 7)
    sol = solve_fantasyland("Ks Kd Kc 4s 4d Qs Qd Qc 2s 2d 9h 7c 3h", "classic")
    check_consistent(sol)
    assert sol.repeat and sol.next_fantasyland == 13
    assert not sol.discards.size


def test_big_pineapple_royal_and_quads_repeat():
    hand = "As Ks Qs Js Ts 9h 9d 9c 9s 8h 7h 6h 5h 2c 3d 4d Kc Kh Kd"
    sol = solve_fantasyland(hand, "big-pineapple")
    check_consistent(sol)
    assert sol.repeat and sol.next_fantasyland == 19
    assert ofc.format_cards(sol.rows[3]) == "As Ks Qs Js Ts"
    assert_optimal(sol, "big-pineapple")
    assert len(sol.discards) == 1


def test_lowball_all_placements_foul():
    # no five distinct ranks of ten or lower: no valid 2-7 middle, every placement fouls
    hand = "As Ad Ac Ah Ks Kd Kc Kh Qs Qd Qc Qh Js Jd"
    sol = solve_fantasyland(hand, "pineapple-2-7")
    assert sol.foul and sol.score == -math.inf and sol.royalty_total == 0
    assert not sol.repeat and sol.next_fantasyland == 0
    check_consistent(sol)
    # documented fallback: strongest bottom, then the strongest rows left, top last
    assert sol.text == "Kd Kc Js / Kh Qs Qh Qd Qc / As Ah Ad Ac Ks"  # rows: ids, highest first
    assert ofc.format_cards(sol.discards) == "Jd"
    assert "fouls" in str(sol)


def test_lowball_middle_preferred():
    sol = solve_fantasyland("7c 5d 4h 3s 2c Ks Kd Kh As Ad Ac Ah Qs 9d", "pineapple-2-7")
    check_consistent(sol)
    assert ofc.format_cards(sol.rows[1]) == "7c 5d 4h 3s 2c"   # 7-5-4-3-2 pays 8
    assert sol.repeat  # trips on top (KKK) or quads on the bottom


def test_repeat_limit():
    hand = "As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s"
    second = solve_fantasyland(hand, "pineapple", in_fantasyland=2)   # limit 1: no repeat
    assert not second.repeat and second.next_fantasyland == 0
    assert second.score == second.royalty_total
    infinite = solve_fantasyland(hand, ofc.variant("pineapple", repeat="infinite"),
                                 in_fantasyland=5)
    assert infinite.repeat


# -------------------------------------------------------------- API, determinism
def test_input_order_does_not_matter():
    rng = np.random.default_rng(5)
    for k, name in ((14, "pineapple"), (15, "pineapple-2-7"), (19, "big-pineapple")):
        hand = deals(1, k, k)[0]
        base = solve_fantasyland(hand, name)
        for _ in range(3):
            again = solve_fantasyland(rng.permutation(hand), name)
            assert again.layout.tolist() == base.layout.tolist()
            assert again.discards.tolist() == base.discards.tolist()


def test_batch_matches_single_and_threads():
    hands = deals(200, 15, 77)
    one = solve_fantasyland_batch(hands, "pineapple")
    many = solve_fantasyland_batch(hands, "pineapple", n_threads=3)
    assert isinstance(one, FantasylandBatch) and len(one) == 200
    for field in ("layouts", "discards", "royalties", "royalty_total", "repeat", "next_fantasyland",
                  "foul", "score"):
        assert np.array_equal(getattr(one, field), getattr(many, field)), field
    for i in (0, 57, 199):
        single = solve_fantasyland(hands[i], "pineapple")
        assert isinstance(single, FantasylandSolution)
        assert single.layout.tolist() == one.layouts[i].tolist()
        assert single.score == one.score[i]
    assert 0 <= one.repeat_rate <= 1 and one.mean_royalties > 0
    assert one.discards.shape == (200, 2) and one.royalties.shape == (200, 3)


def test_card_forms():
    text = "As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s"
    ids = ofc.parse_cards(text)
    base = solve_fantasyland(text).layout.tolist()
    assert solve_fantasyland(ids).layout.tolist() == base
    assert solve_fantasyland(ids.tolist()).layout.tolist() == base
    assert solve_fantasyland(text.split()).layout.tolist() == base
    assert solve_fantasyland_batch([text, text]).layouts.tolist() == [base, base]


@pytest.mark.parametrize("cards,variant,message", [
    ("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c", "pineapple", "13 cards"),
    ("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s", "classic", None),   # 14 on classic is fine
    ("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s 2s 2d 2h 2c", "pineapple", "18 cards"),
    ("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s", "big-pineapple", "19"),
    ("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c As", "pineapple", "appears twice"),
    ("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c Zz", "pineapple", "unknown card 'Zz'"),
    ("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c __", "pineapple", "card 13 is EMPTY"),
])
def test_bad_input(cards, variant, message):
    if message is None:
        solve_fantasyland(cards, variant)
        return
    with pytest.raises(ValueError, match=message):
        solve_fantasyland(cards, variant)


def test_bad_ids_and_objectives():
    hand = list(range(13)) + [54]
    with pytest.raises(ValueError, match="id 54"):
        solve_fantasyland(hand)
    with pytest.raises(ValueError, match=r"X1 is a joker \(card 13\); variant pineapple is played "
                                         r"without jokers"):
        solve_fantasyland(list(range(13)) + [52])
    with pytest.raises(ValueError, match="hand 1: .*appears twice"):
        solve_fantasyland_batch(np.array([range(14), [0] * 14]))
    with pytest.raises(ValueError, match="unknown objective"):
        solve_fantasyland(list(range(14)), objective="money")
    with pytest.raises(ValueError, match="fantasyland_value needs"):
        solve_fantasyland(list(range(14)), objective="royalties", fantasyland_value=5)
    with pytest.raises(ValueError, match="in_fantasyland"):
        solve_fantasyland(list(range(14)), in_fantasyland=0)
    with pytest.raises(ValueError, match="n_threads"):
        solve_fantasyland_batch(np.arange(14)[None], n_threads=0)


def test_card_counts_and_repeat_first():
    assert fantasyland_card_counts("pineapple") == range(14, 18)
    assert fantasyland_card_counts("classic") == range(13, 18)
    assert fantasyland_card_counts("pineapple-2-7") == range(14, 18)
    assert fantasyland_card_counts("big-pineapple") == range(19, 20)
    assert repeat_first_value("pineapple") == 1 + 22 + 50 + 25
    assert repeat_first_value("pineapple-2-7") == 1 + 22 + 8 + 25


def test_empty_batch():
    out = solve_fantasyland_batch(np.zeros((0, 14), np.uint8))
    assert len(out) == 0 and out.layouts.shape == (0, 13)


# ---------------------------------------------------------------------------- CLI
def test_command_prints_layout(capsys):
    from ofc_fast.cli import main
    assert main(["fantasyland", "As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s"]) == 0
    out = capsys.readouterr().out
    assert "9s 9d 9c" in out and "As Ah Ad Ac 7h" in out and "3s" in out
    assert "repeats fantasyland" in out


def test_command_options_and_errors(capsys):
    import json

    from ofc_fast.cli import main
    assert main(["fantasyland", "--variant", "big-pineapple", "--json",
                 "As Ks Qs Js Ts 9h 9d 9c 9s 8h 7h 6h 5h 2c 3d 4d Kc Kh Kd"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"]["bottom"] == "As Ks Qs Js Ts" and data["repeat"] is True
    assert main(["fantasyland", "As", "Ad", "--objective", "royalties"]) == 2
    assert "cards" in capsys.readouterr().err


@pytest.mark.slow
def test_the_module_is_no_longer_a_command(tmp_path):
    """0.1's ``python -m ofc_fast.fantasyland`` says where the command went."""
    import os
    import subprocess
    import sys

    import ofc_fast
    # run from tmp_path: `-m` puts the working directory first on sys.path, and
    # the source tree's ofc_fast/ (no compiled modules) must not shadow the install
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(ofc_fast.__file__)))
    r = subprocess.run([sys.executable, "-m", "ofc_fast.fantasyland", "As Ad"], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stdout == ""
    assert "ofc-fast fantasyland" in r.stderr and "python -m ofc_fast fantasyland" in r.stderr


def test_odd_arguments_are_value_or_type_errors():
    """Issue 9: no OverflowError or bare int() messages from the solver's arguments."""
    hand = list(range(14))
    cases = [
        (lambda: solve_fantasyland(hand, objective=2 ** 2000), ValueError, "fantasyland_value"),
        (lambda: solve_fantasyland(hand, objective=float("nan")), ValueError, "finite"),
        (lambda: solve_fantasyland(hand, fantasyland_value="5"), TypeError,
         "fantasyland_value must be a number, got '5'"),
        (lambda: solve_fantasyland(hand, objective=["royalties"]), TypeError,
         r"unknown objective \['royalties'\]"),
        (lambda: solve_fantasyland(hand, in_fantasyland="x"), TypeError, "in_fantasyland"),
        (lambda: solve_fantasyland(hand, in_fantasyland=1.5), TypeError, "in_fantasyland"),
        (lambda: solve_fantasyland(hand, in_fantasyland=2 ** 70), ValueError, "in_fantasyland"),
        (lambda: solve_fantasyland_batch(np.arange(14)[None], n_threads="2"), TypeError,
         "n_threads"),
        (lambda: solve_fantasyland_batch(np.arange(14)[None], n_threads=2.0), TypeError,
         "n_threads"),
        (lambda: solve_fantasyland_batch([[2 ** 70] * 14]), TypeError, "card ids"),
    ]
    for call, exc, message in cases:
        with pytest.raises(exc, match=message):
            call()
    with pytest.raises(ValueError, match=r"n_threads must be 1 \.\. 256 or None"):
        solve_fantasyland_batch(np.arange(14)[None], n_threads=2 ** 70)
    assert len(solve_fantasyland_batch(np.arange(14)[None], n_threads=200)) == 1
