"""The rule book as tests: every example and table row of RULES.md sections 3-8
and 10 (fouls, royalties, scoring, variants, interpretations; fantasyland,
section 7, is in test_rules_fantasyland.py),
variant validation, and money settlement.

Each layout check also runs the independent ``slow_scorer`` so the rule book,
the slow scorer and the kernels agree on the same hands (rule_checks.py).
"""
import dataclasses
import pickle

import numpy as np
import pytest

import ofc_fast as ofc
import slow_scorer as S
from ofc_fast import RulesError, evaluate, parse_layout, score_pair, variant
from rule_checks import check_layout, ev, pair_points

# ======================================================== section 3: 3 vs 5 rows
SECTION3 = [  # (top, row below, legal)
    ("Qc Qd 5h", "Qh Qs 5c 4d 3h", True),
    ("Qc Qd 5h", "Qh Qs 4c 3d 2h", False),
    ("Ac Kd Qh", "As Ks Qc 3d 2h", True),
    ("Ac Kd Qh", "As Kh Jc Td 8h", False),
    ("2c 2d 2h", "Ac Ad Kc Kd 3h", False),
    ("6c 6d Ah", "6h 6s Ad Kc Qh", True),
]


@pytest.mark.parametrize("top,row,legal", SECTION3)
def test_top_against_five_card_row(top, row, legal):
    check_layout(f"{top} / {row} / 7s 8s 9s Ts Js", "pineapple", foul=not legal)


@pytest.mark.parametrize("top,row,legal", SECTION3)
def test_top_against_third_row_four_rows(top, row, legal):
    # four rows: the top is compared with the third row
    text = f"{top} / {row} / 7c 7d 7h 7s 8c / 9c 9d 9h 9s 8d"
    check_layout(text, "big-pineapple", foul=not legal)


@pytest.mark.parametrize("top,row,legal", SECTION3)
def test_top_never_ties_a_five_card_row(top, row, legal):
    s_top = int(ofc.row_strength(top))
    s_row = int(ofc.row_strength(row))
    assert s_top != s_row
    assert (s_row > s_top) == legal


# ============================================================== section 4: fouls
def test_equal_rows_are_legal():
    # middle and bottom of identical strength
    check_layout("2c 3d 4s / Kc Kd 9c 9d 2h / Kh Ks 9h 9s 2d", "pineapple", foul=False)


@pytest.mark.parametrize("text,foul", [
    ("2c 3d 4s / 5c 6d 7h 8c 9d / Ts Js Qs Ks As", False),
    ("2c 3d 4s / Ts Js Qs Ks As / 5c 6d 7h 8c 9d", True),      # middle > bottom
    ("Ac Ad 4s / 5c 5d 7h 8c 9d / Ts Js Qs Ks As", True),      # top > middle
    ("Ac Ad 4s / Ah As 7h 8c 9d / Kc Kd Kh 2s 3s", False),     # AA4 < AA987
])
def test_three_row_order(text, foul):
    check_layout(text, "pineapple", foul=foul)
    check_layout(text, "classic", foul=foul)


LOW_TOP, LOW_BOTTOM = "Qh Js 9s", "Ah Kh Th 8h 6h"


@pytest.mark.parametrize("middle,valid", [
    ("7c 5d 4c 3s 2c", True),
    ("Tc 6d 5d 3s 2c", True),      # ten-high is still a valid low
    ("Jc 6d 5d 3s 2c", False),     # jack above ten
    ("Ac 6d 5d 3s 2c", False),     # ace is high in 2-7
    ("6c 5d 4c 3s 2c", False),     # straight
    ("9c 7c 5c 3c 2c", False),     # flush
    ("9c 9d 5d 3s 2c", False),     # pair
    ("Tc 9d 8d 7s 6c", False),     # ten-high straight
])
def test_lowball_middle_validity(middle, valid):
    check_layout(f"{LOW_TOP} / {middle} / {LOW_BOTTOM}", "pineapple-2-7", foul=not valid)


def test_lowball_middle_not_compared_with_other_rows():
    # AA on top beats the 7-high middle, trips on top too: still legal
    check_layout("Ac Ad 2d / 7c 5d 4c 3s 2c / Ah Kh Th 8h 6h", "pineapple-2-7", foul=False)
    check_layout("9c 9d 9h / 7c 5d 4c 3s 2c / Ah Kh Th 8h 6h", "pineapple-2-7", foul=False)
    # a bottom weaker than a lowball middle: legal (middle is not in the order)
    check_layout("Qh Js 9s / 8c 6d 4h 3s 2c / Ah Kd Jh 9d 5c", "pineapple-2-7", foul=False)


def test_lowball_bottom_below_top_fouls():
    check_layout("Kc Kd 2d / 8c 6d 4h 3s 2c / Ah Qh 9s 7d 5c", "pineapple-2-7", foul=True)
    # a normal pineapple fouls it too (KK top over an 8-high middle)
    check_layout("Kc Kd 2d / 8c 6d 4h 3s 2c / Ah Qh 9s 7d 5c", "pineapple", foul=True)


def test_lowball_option_on_turbo_pineapple():
    text = f"{LOW_TOP} / 7c 5d 4c 3s 2c / {LOW_BOTTOM}"
    check_layout(text, "turbo-pineapple", {"lowball": True}, foul=False, royalties=[0, 8, 4])
    check_layout(text, "turbo-pineapple", foul=True)   # without it: 7-high middle < Q-high top
    check_layout(text, "pineapple-2-7", {"lowball": False}, foul=True)


@pytest.mark.parametrize("text,foul", [
    ("2c 3d 4s / 4c 5d 6h 7s 8c / 9c 9d 9h 9s 2h / Td Jd Qd Kd Ad", False),
    ("2c 3d 4s / 9c 9d 9h 9s 2h / 4c 5d 6h 7s 8c / Td Jd Qd Kd Ad", True),   # third > second
    ("2c 3d 4s / 4c 5d 6h 7s 8c / Td Jd Qd Kd Ad / 9c 9d 9h 9s 2h", True),   # second > bottom
    ("Ac Ah As / 4c 5d 6h 7s 8c / 9c 9d 9h 9s 2h / Td Jd Qd Kd Ad", False),
    ("Ac Ad Ah / Kc Kd Kh 2s 3s / 9c 9d 9h 9s 2h / Ts Js Qs Ks As", True),   # top trips > third
])
def test_four_row_order(text, foul):
    check_layout(text, "big-pineapple", foul=foul)


# ========================================================= section 5: royalties
PRESETS = ("american", "pokerstars", "russian")
BOTTOM_CASES = [  # bottom hand, {preset: points}
    ("8c 9d Jh Qs Kc", (0, 0, 0)),          # high card
    ("8c 8d Jh Qs Kc", (0, 0, 0)),          # pair
    ("8c 8d Jh Js Kc", (0, 0, 0)),          # two pair
    ("8c 8d 8h Js Kc", (0, 0, 0)),          # trips
    ("8c 9d Th Js Qc", (2, 2, 2)),          # straight
    ("Ah 2s 3c 4h 5d", (2, 2, 2)),          # wheel
    ("6h 8h Th Qh Ah", (4, 4, 4)),          # flush
    ("Kc Kd Kh 9s 9c", (6, 6, 6)),          # full house
    ("9c 9d 9h 9s 6c", (10, 10, 8)),        # quads
    ("8s 9s Ts Js Qs", (15, 15, 10)),       # straight flush
    ("Ah 2h 3h 5h 4h", (15, 15, 10)),       # steel wheel
    ("Td Jd Qd Kd Ad", (25, 25, 15)),       # royal flush
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("bottom,pts", BOTTOM_CASES)
def test_bottom_royalties(preset, bottom, pts):
    text = f"2c 3d 4s / 2d 3s 4c 5s 7d / {bottom}"
    expect = pts[PRESETS.index(preset)]
    check_layout(text, "pineapple", {"royalties": preset}, foul=False, royalties=[0, 0, expect])


MIDDLE_CASES = [
    ("8c 8d Jh 2h Kc", (0, 0, 0)),          # pair
    ("8c 8d Jh Jd Kc", (0, 0, 0)),          # two pair
    ("7c 7d 7h 2d 3h", (2, 0, 2)),          # trips
    ("5c 6d 7h 8c 9d", (4, 4, 4)),          # straight
    ("2h 5h 9h Jh Kh", (8, 8, 8)),          # flush
    ("Kc Kd Kh 9c 9d", (12, 12, 12)),       # full house
    ("9c 9d 9h 9s 6c", (20, 20, 16)),       # quads
    ("8d 9d Td Jd Qd", (30, 30, 20)),       # straight flush
    ("Tc Jc Qc Kc Ac", (50, 50, 30)),       # royal flush (ties the bottom: legal)
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("middle,pts", MIDDLE_CASES)
def test_middle_royalties(preset, middle, pts):
    bottom_pts = {"american": 25, "pokerstars": 25, "russian": 15}[preset]
    text = f"2c 3d 4s / {middle} / Ts Js Qs Ks As"
    expect = pts[PRESETS.index(preset)]
    check_layout(text, "classic", {"royalties": preset}, foul=False,
                 royalties=[0, expect, bottom_pts])


def _top_text(rank, trips):
    r = "23456789TJQKA"[rank]
    if trips:
        suits = "cds" if rank < 3 or rank >= 8 else "dhs"
        return " ".join(r + s for s in suits)
    kicker = "3d" if rank == 0 else "2d"
    return f"{r}d {r}s {kicker}"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("rank", range(13))
def test_top_pair_royalties(preset, rank):
    # 22 .. 55 pay nothing, 66 pays 1 .. AA pays 9, in every preset
    text = f"{_top_text(rank, False)} / 5c 6c 7c 8c 9c / Th Jh Qh Kh Ah"
    expect = max(0, rank - 3)
    e = check_layout(text, "pineapple", {"royalties": preset}, foul=False)
    assert e.royalties[0, 0] == expect


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("rank", range(13))
def test_top_trips_royalties(preset, rank):
    # 222 pays 10 .. AAA pays 22
    text = f"{_top_text(rank, True)} / 5c 6c 7c 8c 9c / Th Jh Qh Kh Ah"
    e = check_layout(text, "pineapple", {"royalties": preset}, foul=False)
    assert e.royalties[0, 0] == 10 + rank


def test_top_high_card_pays_nothing():
    check_layout("Ac Kd Qs / 5c 6c 7c 8c 9c / Th Jh Qh Kh Ah", "pineapple",
                 foul=False, royalties=[0, 30, 25])


def test_variant_default_royalty_presets():
    # classic / turbo / chinese: russian; the pineapples: american
    text = "2c 3d 4s / 7c 7d 7h 2d 3h / 9c 9d 9h 9s 6c"   # middle trips, bottom quads
    for name in ("classic", "turbo", "chinese"):
        check_layout(text, name, foul=False, royalties=[0, 2, 8])
    for name in ("pineapple", "progressive", "turbo-pineapple"):
        check_layout(text, name, foul=False, royalties=[0, 2, 10])
    check_layout(text, "classic", {"american": True}, royalties=[0, 2, 10])
    check_layout(text, "classic", {"royalties": "pokerstars"}, royalties=[0, 0, 10])


# -------------------------------------------------------------- big pineapple
BP_THIRD = [  # third row hand -> points (bottom table x 4; trips 4)
    ("8c 8d Jh 2h 3h", 0),
    ("7c 7d 7h 2d 3h", 4),
    ("5c 6d 7h 8c 9d", 8),
    ("2h 5h 9h Jh Kh", 16),
    ("8d 8h 8s 9d 9h", 24),
    ("9c 9d 9h 9s 6c", 40),
    ("8d 9d Td Jd Qd", 60),
    ("Th Jh Qh Kh Ah", 100),
]


@pytest.mark.parametrize("third,pts", BP_THIRD)
def test_big_pineapple_third_row(third, pts):
    text = f"2c 3d 4s / {third} / Tc Jc Qc Kc Ac / Ts Js Qs Ks As"
    check_layout(text, "big-pineapple", foul=False, royalties=[0, pts, 50, 25])


BP_SECOND = [  # second row hand -> points (the american middle: bottom x 2, trips 2)
    ("8c 8d Jh 2h Kc", 0),
    ("7c 7h 7s 2h 3c", 2),
    ("5c 6d 7h 8c 9d", 4),
    ("2h 5h 9h Jh Kh", 8),
    ("Kc Kd Kh 9c 9d", 12),
    ("9c 9d 9h 9s 6c", 20),
    ("8d 9d Td Jd Qd", 30),
    ("Tc Jc Qc Kc Ac", 50),
]


@pytest.mark.parametrize("second,pts", BP_SECOND)
def test_big_pineapple_second_row(second, pts):
    text = f"2c 3d 4s / 2d 3h 4c 5s 7d / {second} / Ts Js Qs Ks As"
    check_layout(text, "big-pineapple", foul=False, royalties=[0, 0, pts, 25])


BP_BOTTOM = [
    ("8c 9d Th Js Qc", 2), ("5h 9h Th Qh Ah", 4), ("Kc Kd Kh 9s 9c", 6),
    ("9c 9d 9h 9s 6d", 10), ("8s 9s Ts Js Qs", 15), ("Td Jd Qd Kd Ad", 25),
    ("Kc Kd Kh 9s 3c", 0),
]


@pytest.mark.parametrize("bottom,pts", BP_BOTTOM)
def test_big_pineapple_bottom_row(bottom, pts):
    text = f"2c 3d 4s / 2d 3h 4c 5s 7d / 2h 3s 4d 6c 8h / {bottom}"
    check_layout(text, "big-pineapple", foul=False, royalties=[0, 0, 0, pts])


@pytest.mark.parametrize("top,pts", [("Qc Qs 2d", 7), ("2c 2d 2h", 10), ("6d 6s 3c", 1),
                                     ("5d 5s 3c", 0)])
def test_big_pineapple_top_row(top, pts):
    text = f"{top} / 5c 6c 7c 8c 9c / Th Jh Qh Kh Ah / Td Jd Qd Kd Ad"
    check_layout(text, "big-pineapple", foul=False, royalties=[pts, 60, 50, 25])


def test_big_pineapple_third_row_trips_option():
    text = "2c 3d 4s / 7c 7d 7h 2d 3h / Tc Jc Qc Kc Ac / Ts Js Qs Ks As"
    check_layout(text, "big-pineapple", {"third_row_trips": 6}, royalties=[0, 6, 50, 25])
    check_layout(text, "big-pineapple", {"american": True}, royalties=[0, 4, 50, 25])


# ---------------------------------------------------------------- 2-7 middle
LOW_CASES = [
    ("9c 6d 5h 3s 2c", 1),      # nine-high
    ("8c 6d 5d 3s 2c", 2),      # eight-high
    ("7c 6d 4c 3s 2c", 4),      # 7-6 high
    ("7c 6d 5d 4c 2c", 4),      # 7-6-5-4-2 is 7-6 high too
    ("7c 5d 4c 3s 2c", 8),      # 7-5-4-3-2
    ("Tc 6d 5d 3s 2c", 0),      # ten-high
    ("Tc 9d 8d 7s 5c", 0),
]


@pytest.mark.parametrize("middle,pts", LOW_CASES)
def test_lowball_middle_royalties(middle, pts):
    check_layout(f"{LOW_TOP} / {middle} / {LOW_BOTTOM}", "pineapple-2-7",
                 foul=False, royalties=[0, pts, 4])


def test_lowball_head_to_head_lower_wins():
    v = variant("pineapple-2-7")
    a = "Qh Js 9s / 7c 5d 4c 3s 2c / Ah Kh Th 8h 6h"
    b = "Qd Jc 9d / 8c 6d 4h 3h 2d / As Ks Ts 8s 6s"
    res = pair_points(a, b, "pineapple-2-7")
    assert res.rows == (0, 1, 0)
    assert res.royalty_points == 8 - 2
    # identical ranks tie
    c = "Qd Jc 9d / 7d 5c 4d 3d 2h / As Ks Ts 8s 6s"
    assert score_pair(a, c, v).rows == (0, 0, 0)
    assert score_pair(a, c, v).points == 0


# ------------------------------------------------------------- Finnish bonus
def test_finnish_off_by_default():
    assert variant("pineapple").finnish is False
    a = "2c 3d 4h / 6c 6d 9c 9d Jh / 2s 5s 8s Ts Ks"
    b = "2d 3h 5c / 7c 7d 8c 8d Qh / Ac Ad Kc Kd 3c"
    assert pair_points(a, b, "pineapple").royalty_points == 4


def test_finnish_bottom_spade_flush_with_2s_earns_8():
    a = "2c 3d 4h / 6c 6d 9c 9d Jh / 2s 5s 8s Ts Ks"     # bottom spade flush with the 2s
    b = "2d 3h 5c / 7c 7d 8c 8d Qh / Ac Ad Kc Kd 3c"     # no royalties
    res = pair_points(a, b, "pineapple", {"finnish": True})
    assert res.royalty_points == 8
    assert res.rows == (-1, 1, 1)
    assert res.points == 1 + 8
    assert pair_points(b, a, "pineapple", {"finnish": True}).points == -9


def test_finnish_bottom_pair_with_2s_against_full_house_pays_12():
    a = "Ad Kc 3h / Ac Kd Qh Jc 9d / 2s 2h 9c 8d 4c"     # bottom pair holding the 2s
    b = "Qc Js 8h / 3c 3d 4h 4d 7c / Tc Td Th 5c 5d"     # bottom full house (6)
    res = pair_points(a, b, "pineapple", {"finnish": True})
    assert res.royalty_points == -12
    assert res.rows == (1, -1, -1)
    assert res.points == -1 - 12
    assert pair_points(a, b, "pineapple").royalty_points == -6


def test_finnish_2s_holder_fouled_doubles_opponents_royalty():
    a = "Ac Ad Kc / 3c 4d 5h 6s 8c / 2s 7s 9s Jd Qd"     # fouled, 2s in the bottom
    b = "2c 3d 4s / 5c 6d 7h 8s Tc / 3h 5h 9h Jh Kh"     # bottom flush (4)
    assert ev(a, variant("pineapple")).foul[0]
    assert pair_points(b, a, "pineapple", {"finnish": True}).points == 6 + 2 * 4
    assert pair_points(b, a, "pineapple").points == 6 + 4


def test_finnish_both_holding_2s_same_row_doubles_once():
    a = "2c 3d 4h / 6c 6d 9c 9d Jh / 2s 5s 8s Ts Ks"     # flush 4, with 2s
    b = "3c 4d 5h / 7c 7d 8c 8d Qh / 2s 2h 2d Kc Kd"     # full house 6, with 2s
    res = pair_points(a, b, "pineapple", {"finnish": True})
    assert res.royalty_points == 2 * (4 - 6)
    m = ofc.score_matrix(parse_layout(a), parse_layout(b), variant("pineapple", finnish=True))
    assert m[0, 0] == res.points


def test_finnish_both_holding_2s_different_rows_doubles_both():
    a = "2c 3d 4h / 6c 6d 9c 9d Jh / 2s 5s 8s Ts Ks"     # bottom flush 4, 2s bottom
    b = "3c 4d 5h / 2s 3s 4s 5d 6d / 7h 8h 9h Jh Qh"     # middle straight 4, bottom flush 4
    res = pair_points(a, b, "pineapple", {"finnish": True})
    assert res.royalty_points == 2 * (0 - 4) + 2 * (4 - 4)


# ================================================================ section 6: scoring
A3 = "5c 5d 3h / 8c 8d 6c 6d 2h / Tc Td Th 3c 4d"
B_LOSES_ALL = "4h 4s 2s / 7c 7d 3c 3d Ks / 9c 9d 9h Kh Qs"
B_WINS_BOTTOM = "4h 4s 2s / 7c 7d 3c 3d Ks / Jc Jd Jh Kh Qs"
B_WINS_TWO = "4h 4s 2s / 9s 9h 7h 7s Kd / Jc Jd Jh Kh Qs"
B_TIES_TOP = "5h 5s 3d / 7c 7d 3c 3s Ks / 9c 9d 9h Kh Qs"
B_TIES_ALL = "5h 5s 3c / 8h 8s 6h 6s 2c / Ts Tc Td 3h 4s"

SCHEME_CASES = {  # scheme: 3-0, 2-1, 1-2, 2-0 with a tie, all tied, 0-3
    "1-6": (6, 1, -1, 2, 0, -6),
    "2-4": (4, 2, -2, 3, 0, -4),
    "2-6": (6, 2, -2, 4, 0, -6),
}


@pytest.mark.parametrize("scheme", SCHEME_CASES)
def test_scoring_schemes(scheme):
    opts = {"scoring": scheme}
    want = SCHEME_CASES[scheme]
    got = (pair_points(A3, B_LOSES_ALL, "pineapple", opts).points,
           pair_points(A3, B_WINS_BOTTOM, "pineapple", opts).points,
           pair_points(A3, B_WINS_TWO, "pineapple", opts).points,
           pair_points(A3, B_TIES_TOP, "pineapple", opts).points,
           pair_points(A3, B_TIES_ALL, "pineapple", opts).points,
           pair_points(B_LOSES_ALL, A3, "pineapple", opts).points)
    assert got == want


@pytest.mark.parametrize("name,scheme", [("classic", "2-6"), ("turbo", "2-6"),
                                         ("chinese", "2-6"), ("pineapple", "1-6"),
                                         ("progressive", "1-6"), ("turbo-pineapple", "1-6")])
def test_variant_default_schemes(name, scheme):
    want = SCHEME_CASES[scheme]
    assert pair_points(A3, B_LOSES_ALL, name).points == want[0]
    assert pair_points(A3, B_WINS_BOTTOM, name).points == want[1]
    assert pair_points(A3, B_TIES_TOP, name).points == want[3]


def test_american_option_gives_1_6():
    assert pair_points(A3, B_WINS_BOTTOM, "classic", {"american": True}).points == 1
    assert pair_points(A3, B_LOSES_ALL, "classic", {"american": True}).points == 6


def test_pair_result_breakdown():
    res = pair_points(A3, B_WINS_BOTTOM, "pineapple")
    assert res.rows == (1, 1, -1)
    assert (res.rows_won, res.rows_lost, res.scoop) == (2, 1, 0)
    assert not res.foul_a and not res.foul_b
    res = pair_points(B_LOSES_ALL, A3, "pineapple")
    assert res.rows == (-1, -1, -1) and res.scoop == -1 and res.points == -6


A4 = "5c 5d 3h / 6c 6d 4c 4d 2h / 8c 8d 7c 7d 2c / Tc Td Th 3c 4h"
B4_LOSES_ALL = "4h 4s 2s / 6h 6s 3d 3s Ks / 7h 7s 5h 5s Kd / 9c 9d 9h Kh Qs"
B4_WINS_BOTTOM = "4h 4s 2s / 6h 6s 3d 3s Ks / 7h 7s 5h 5s Kd / Jc Jd Jh Kh Qs"
B4_WINS_TWO = "4h 4s 2s / 6h 6s 3d 3s Ks / 9h 9s 8h 8s Kc / Jc Jd Jh Kh Qs"
B4_TIES_TOP = "5h 5s 3d / 6h 6s 3c 3s Ks / 7h 7s 4h 4s Kd / 9c 9d 9h Kh Qs"


def test_four_row_scoring_1_12():
    assert pair_points(A4, B4_LOSES_ALL, "big-pineapple").points == 12
    assert pair_points(B4_LOSES_ALL, A4, "big-pineapple").points == -12
    assert pair_points(A4, B4_WINS_BOTTOM, "big-pineapple").points == 2
    assert pair_points(A4, B4_WINS_TWO, "big-pineapple").points == 0
    assert pair_points(A4, B4_TIES_TOP, "big-pineapple").points == 3
    # american keeps 1-12 on four rows (section 10)
    assert pair_points(A4, B4_LOSES_ALL, "big-pineapple", {"american": True}).points == 12


def test_four_row_majority_is_three_of_four():
    opts = {"scoring": "2-4"}
    assert pair_points(A4, B4_LOSES_ALL, "big-pineapple", opts).points == 4 + 1
    assert pair_points(A4, B4_WINS_BOTTOM, "big-pineapple", opts).points == 2 + 1
    assert pair_points(A4, B4_WINS_TWO, "big-pineapple", opts).points == 0
    assert pair_points(A4, B4_TIES_TOP, "big-pineapple", opts).points == 3 + 1


# the 2-6 example: A beats B on all rows, A bottom quads (10), B bottom flush (4)
EX_A = "5s 5d 2c / 9h 9d Tc Ts 2d / Qc Qd Qs Qh 3h"
EX_B = "4s 4d 3c / 8h 8d 7c 7s 3d / Ah Kh Jh 6h 5h"
EX_C = "Ac Ad Kc / 2h 3s 4c 5c 7d / 6c 6d 8c 8s Js"    # fouled; cards distinct from A, B


def test_2_6_example_b_pays_a_12():
    opts = {"royalties": "american"}
    res = pair_points(EX_A, EX_B, "classic", opts)
    assert res.points == 12
    assert res.row_points == 6 and res.royalty_points == 6
    assert pair_points(EX_B, EX_A, "classic", opts).points == -12
    # russian quads pay 8
    assert pair_points(EX_A, EX_B, "classic").points == 6 + 8 - 4


def test_three_player_table_sums_over_opponents():
    v = variant("classic", royalties="american")
    table = ofc.parse_layouts([EX_A, EX_B, EX_C], v)
    pts = ofc.score_tables(table[None], v)
    # A-B 12, A-C 6 + 10, B-C 6 + 4
    assert pts[0].tolist() == [12 + 16, -12 + 10, -16 - 10]
    m = ofc.score_matrix(table, None, v)
    assert m.tolist() == [[0, 12, 16], [-12, 0, 10], [-16, -10, 0]]
    assert pts[0].tolist() == m.sum(axis=1).tolist()
    assert S.table([EX_A, EX_B, EX_C], S.rules("classic", royalties="american")) == pts[0].tolist()


# fouls
FOULED = "Ac Ad Kc / 2c 3d 4h 5s 7c / Ts Js Qs Ks As"   # AA top over 7-high middle; royal bottom
LIVE = "2d 3s 5d / 8c 8d 6c 6d 2h / 3h 5h 9h Jh Kh"     # bottom flush (4)


def test_fouled_hand_earns_no_royalties_nor_fantasyland():
    e = check_layout(FOULED, "pineapple", foul=True, royalties=[0, 0, 0], fl_cards=0)
    assert e.royalty_total[0] == 0
    check_layout(FOULED, "progressive", foul=True, royalties=[0, 0, 0], fl_cards=0)
    check_layout(FOULED, "pineapple", fl_count=1, foul=True, fl_cards=0, repeat=False)


@pytest.mark.parametrize("name,opts,penalty", [
    ("pineapple", {}, 6), ("classic", {}, 6), ("pineapple", {"scoring": "2-4"}, 4),
    ("pineapple", {"scoring": "2-6"}, 6), ("pineapple", {"foul_penalty": 10}, 10),
    ("classic", {"foul_penalty": 3}, 3),
])
def test_fouled_hand_pays_scoop_and_opponent_royalties(name, opts, penalty):
    res = pair_points(LIVE, FOULED, name, opts)
    assert res.points == penalty + 4
    assert res.foul_b and not res.foul_a and res.rows == (1, 1, 1)
    assert pair_points(FOULED, LIVE, name, opts).points == -(penalty + 4)


def test_four_row_foul_penalty_is_12():
    fouled = "Ac Ad Ah / Kc Kd Kh 2s 3s / 9c 9d 9h 9s 2h / Ts Js Qs Ks As"
    live = "2c 3d 4s / 2d 3h 4c 5s 7d / 2h 3s 4d 6c 8h / 8c 9d Th Js Qc"   # bottom straight 2
    assert pair_points(live, fouled, "big-pineapple").points == 12 + 2
    assert pair_points(live, fouled, "big-pineapple", {"foul_penalty": 20}).points == 22


def test_both_fouled_pay_nothing():
    other = "Kc Kd 2d / 3c 4d 5h 6s 8c / Ah Ad 9c Tc 2h"
    assert ev(other, variant("pineapple")).foul[0]
    assert pair_points(FOULED, other, "pineapple").points == 0
    assert pair_points(FOULED, other, "pineapple", {"finnish": True}).points == 0
    assert pair_points(FOULED, other, "classic", {"foul_penalty": 9}).points == 0


# ---------------------------------------------------------------- money: settle
def test_settle_heads_up():
    pts = [[0, 12], [-12, 0]]
    assert ofc.settle(pts).tolist() == [12, -12]
    assert ofc.settle(pts, stake=2.5).tolist() == [30, -30]
    assert ofc.settle(pts, stake=2.0, stacks=[100, 10]).tolist() == [10, -10]
    assert ofc.settle(pts, stake=2.0, stacks=[5, 100]).tolist() == [5, -5]   # winner's stack caps
    assert ofc.settle(pts, stake=1.0, stacks=[100, 100]).tolist() == [12, -12]


def test_settle_pairwise_cap_at_three_players():
    pts = np.array([[0, 10, 10], [-10, 0, 0], [-10, 0, 0]])
    assert ofc.settle(pts, stacks=[100, 100, 6]).tolist() == [16, -10, -6]
    assert ofc.settle(pts, stacks=[7, 100, 100]).tolist() == [14, -7, -7]


def test_settle_proportional_at_three_players():
    # player 2 owes 10 to player 0 and 5 to player 1, stack 6: pays 6 in proportion 6:5
    pts = np.array([[0, 0, 10], [0, 0, 5], [-10, -5, 0]])
    got = ofc.settle(pts, stacks=[100, 100, 6])
    np.testing.assert_allclose(got, [36 / 11, 30 / 11, -6])
    assert abs(got.sum()) < 1e-9


def test_settle_proportional_uses_payments_owed_not_net():
    # player 3 owes 5 to players 0 and 1 (stack 6) and wins 4 from player 2:
    # payments owed 10 > 6, so 0 and 1 get 3 each, although the net loss is 6
    pts = np.array([[0, 0, 0, 5], [0, 0, 0, 5], [0, 0, 0, -4], [-5, -5, 4, 0]])
    got = ofc.settle(pts, stacks=[100, 100, 100, 6])
    np.testing.assert_allclose(got, [3, 3, -4, 4 - 6])


def test_settle_validation():
    with pytest.raises(ValueError, match="square"):
        ofc.settle(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="antisymmetric"):
        ofc.settle([[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="stack"):
        ofc.settle([[0, 1], [-1, 0]], stacks=[1, -1])
    with pytest.raises(ValueError, match="stack"):
        ofc.settle([[0, 1], [-1, 0]], stacks=[1, 2, 3])


def test_settle_a_scored_table():
    v = variant("classic", royalties="american")
    m = ofc.score_matrix(ofc.parse_layouts([EX_A, EX_B, EX_C], v), None, v)
    money = ofc.settle(m, stake=0.5)
    assert money.tolist() == [14.0, -1.0, -13.0]
    assert ofc.settle(m, stake=1, stacks=[50, 50, 30]).tolist() == [28, -2, -26]
    capped = ofc.settle(m, stake=1, stacks=[50, 50, 10])   # C owes 16 + 10, capped 10 + 10
    np.testing.assert_allclose(capped, [12 + 5, -12 + 5, -10])



# ================================================================= section 8: variants
DEALS = {  # name: (rows, first street, later streets, players, royalties, scoring)
    "classic": (3, 5, ((1, 1),) * 8, (2, 4), "russian", "2-6"),
    "turbo": (3, 5, ((4, 4),) * 2, (2, 4), "russian", "2-6"),
    "pineapple": (3, 5, ((3, 2),) * 4, (2, 3), "american", "1-6"),
    "progressive": (3, 5, ((3, 2),) * 4, (2, 3), "american", "1-6"),
    "pineapple-2-7": (3, 5, ((3, 2),) * 4, (2, 3), "american", "1-6"),
    "turbo-pineapple": (3, 4, ((4, 3),) * 3, (2, 3), "american", "1-6"),
    "big-pineapple": (4, 6, ((3, 2),) * 6, (2, 2), None, "1-12"),
}


@pytest.mark.parametrize("name", DEALS)
def test_variant_table(name):
    rows, first, streets, players, roy, scheme = DEALS[name]
    v = variant(name)
    assert v.name == name and v.n_rows == rows
    assert v.n_cards == (13 if rows == 3 else 18)
    assert v.first_street == first and tuple(v.streets) == streets
    assert first + sum(kept for _, kept in v.streets) == v.n_cards
    assert (v.min_players, v.max_players) == players
    assert v.scoring.name == scheme
    if roy:
        assert v.royalties.name == roy
    assert v.lowball == (name == "pineapple-2-7")


def test_chinese_is_classic_dealt_at_once():
    v, c = variant("chinese"), variant("classic")
    assert v.first_street == 13 and sum(k for _, k in v.streets) == 0
    assert not v.fantasyland and c.fantasyland
    assert (v.scoring, v.royalties, v.n_rows) == (c.scoring, c.royalties, c.n_rows)
    assert (v.min_players, v.max_players) == (c.min_players, c.max_players)


def test_variant_validation():
    with pytest.raises(RulesError, match=r"unknown variant 'omaha'; valid: classic, chinese, "
                                         r"turbo, pineapple, progressive, pineapple-2-7, "
                                         r"turbo-pineapple, big-pineapple"):
        variant("omaha")
    with pytest.raises(RulesError, match=r"unknown option 'colour'; valid: american, lowball, "
                                         r"finnish, fantasyland, repeat, repeat_limit, "
                                         r"royalties, scoring, foul_penalty, third_row_trips"):
        variant("classic", colour="red")
    with pytest.raises(RulesError, match=r"unknown scoring scheme '3-9'; valid: .*1-6.*2-4.*2-6"):
        variant("pineapple", scoring="3-9")
    with pytest.raises(RulesError, match=r"unknown royalty table 'vegas'; valid: american, "
                                         r"pokerstars, russian"):
        variant("pineapple", royalties="vegas")
    with pytest.raises(RulesError, match=r"unknown repeat rule 'sometimes'; valid: classic, "
                                         r"pineapple, infinite"):
        variant("pineapple", repeat="sometimes")
    with pytest.raises(RulesError, match="repeat_limit"):
        variant("pineapple", repeat_limit=-1)
    with pytest.raises(RulesError, match="four-row"):
        variant("pineapple", third_row_trips=4)
    with pytest.raises(RulesError, match="three-row"):
        variant("big-pineapple", lowball=True)
    with pytest.raises(RulesError, match="per_row"):
        variant("pineapple", scoring={"per_rows": 2})
    with pytest.raises(RulesError, match=r"unknown hands \['quintuplets'\]"):
        variant("pineapple", royalties={"bottom": {"quintuplets": 5}})
    with pytest.raises(RulesError, match="unknown royalty rows"):
        variant("pineapple", royalties={"third": {"flush": 5}})
    assert issubclass(RulesError, ValueError)
    with pytest.raises(ValueError):
        variant("nope")


def test_variant_is_hashable_picklable_printable():
    v = variant("pineapple", finnish=True, royalties={"bottom": {"flush": 5}})
    w = variant("pineapple", finnish=True, royalties={"bottom": {"flush": 5}})
    assert v == w and hash(v) == hash(w)
    assert {v: 1}[w] == 1
    assert len({variant(n) for n in DEALS} | {variant("chinese")}) == 8
    for x in (v, variant("big-pineapple"), variant("pineapple-2-7", repeat="infinite")):
        y = pickle.loads(pickle.dumps(x))
        assert y == x and hash(y) == hash(x)
        assert evaluate(parse_layout(EX_A if x.n_rows == 3 else A4, x), y).foul is not None
    s = str(variant("pineapple", finnish=True))
    assert "pineapple" in s and "1-6" in s and "american" in s and "Finnish" in s
    assert "big-pineapple" in str(variant("big-pineapple"))
    assert "2-7" in str(variant("pineapple-2-7"))
    assert "no fantasyland" in str(variant("chinese"))
    assert "no limit" in str(variant("pineapple", repeat="infinite"))
    assert repr(variant("classic")).startswith("Variant(")
    with pytest.raises(dataclasses.FrozenInstanceError):
        variant("classic").name = "x"   # frozen


def test_variant_accepts_variant_and_options_compose():
    base = variant("pineapple")
    assert variant(base) is base
    v = variant(base, finnish=True)
    assert v.finnish and v.name == "pineapple"
    assert evaluate(parse_layout(EX_A, "classic"), "classic").foul.tolist() == [False]


# ---------------------------------------------------------- custom rule tables
def test_custom_royalty_table_missing_royal_pays_straight_flush():
    opts = {"royalties": {"bottom": {"straight": 2, "flush": 4, "straight_flush": 15}}}
    check_layout("2c 3d 4s / 2d 3h 4c 5s 7d / Td Jd Qd Kd Ad", "pineapple", opts,
                 foul=False, royalties=[0, 0, 15])
    check_layout("2c 3d 4s / 2d 3h 4c 5s 7d / 8s 9s Ts Js Qs", "pineapple", opts,
                 royalties=[0, 0, 15])
    # rows not given pay nothing; the top keeps the standard table
    check_layout("Qc Qs 2d / Kc Kd Kh 9c 9d / Ac Ad Ah As 2c", "pineapple", opts,
                 foul=False, royalties=[7, 0, 0])


def test_custom_royalty_table_top_and_rows():
    opts = {"royalties": {"top_pairs": {"66": 5, "AA": 20}, "top_trips": [1] * 13,
                          "middle": {"trips": 3, "royal_flush": 99},
                          "bottom": {"royal_flush": 50, "quads": 7}}}
    check_layout("6c 6s 2d / 7c 7d 7h 2h 3h / 9c 9d 9h 9s 6d", "pineapple", opts,
                 foul=False, royalties=[5, 3, 7])
    check_layout("7c 7s 2d / Tc Jc Qc Kc Ac / Ts Js Qs Ks As", "pineapple", opts,
                 foul=False, royalties=[0, 99, 50])
    check_layout("2c 2d 2s / Tc Jc Qc Kc Ac / Ts Js Qs Ks As", "pineapple", opts,
                 royalties=[1, 99, 50])


def test_custom_scoring():
    opts = {"scoring": {"per_row": 3, "scoop_bonus": 2}}
    assert pair_points(A3, B_LOSES_ALL, "pineapple", opts).points == 11
    assert pair_points(A3, B_WINS_BOTTOM, "pineapple", opts).points == 3
    assert pair_points(A3, B_TIES_TOP, "pineapple", opts).points == 6
    assert pair_points(LIVE, FOULED, "pineapple", opts).points == 11 + 4   # penalty = scoop
    opts = {"scoring": {"per_row": 1, "majority_bonus": 2, "foul_penalty": 9}}
    assert pair_points(A3, B_WINS_BOTTOM, "pineapple", opts).points == 1 + 2
    assert pair_points(A3, B_LOSES_ALL, "pineapple", opts).points == 3 + 2
    assert pair_points(LIVE, FOULED, "pineapple", opts).points == 9 + 4
    from ofc_fast.rules import scoring_scheme
    v = variant("pineapple", scoring=scoring_scheme("2-4"))
    assert score_pair(A3, B_LOSES_ALL, v).points == 4


def test_top_level_scoring_and_royalty_helpers():
    # the helpers must not be shadowed by the ofc_fast.scoring submodule
    assert "scoring_scheme" in ofc.__all__ and "royalty_table" in ofc.__all__
    assert ofc.royalty_table("russian").name == "russian"
    assert ofc.scoring_scheme("2-4").scoop_total(3) == 4


# ------------------------------------------------------------- layout text basics
def test_layout_column_order():
    v = variant("pineapple")
    lay = parse_layout("Ah Ad 2c / 3c 4c 5c 6c 7c / Ts Js Qs Ks As", v)
    assert lay.dtype == np.uint8 and lay.shape == (13,)
    assert lay[:3].tolist() == [50, 49, 0]
    assert lay[3:8].tolist() == ofc.parse_cards("3c 4c 5c 6c 7c").tolist()
    assert lay[8:].tolist() == ofc.parse_cards("Ts Js Qs Ks As").tolist()
    assert (ofc.layout_from_rows(["Ah Ad 2c", "3c 4c 5c 6c 7c", "Ts Js Qs Ks As"], v)
            == lay).all()
    four = parse_layout(A4, "big-pineapple")
    assert four.shape == (18,)
    assert four[8:13].tolist() == ofc.parse_cards("8c 8d 7c 7d 2c").tolist()


def test_layout_text_errors():
    with pytest.raises(ofc.LayoutError, match="expected 3 rows"):
        parse_layout("Ah Ad 2c / 3c 4c 5c 6c 7c", "pineapple")
    with pytest.raises(ofc.LayoutError, match="middle row .* has 4 cards; it needs 5"):
        parse_layout("Ah Ad 2c / 3c 4c 5c 6c / Ts Js Qs Ks As", "pineapple")
    with pytest.raises(ofc.CardError, match="Zz"):
        parse_layout("Ah Ad Zz / 3c 4c 5c 6c 7c / Ts Js Qs Ks As", "pineapple")
    with pytest.raises(ofc.LayoutError, match="layout 1"):
        ofc.parse_layouts([EX_A, "Ah Ad 2c / 3c 4c 5c 6c / Ts Js Qs Ks As"], "pineapple")


def test_negative_royalties_are_rejected():
    with pytest.raises(RulesError,
                       match=r"royalties\['bottom'\]\['flush'\] must be 0 .. 16,383, got -4"):
        evaluate(np.arange(13, dtype=np.uint8)[None],
                 variant("pineapple", royalties={"bottom": {"flush": -4}}))


def test_fantasyland_card_counts_are_options():
    v = variant("progressive", repeat_cards=15, entry_cards=(0, 14, 14, 16, 18))
    qq = parse_layout("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v)
    aa = parse_layout("As Ad 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v)
    trips_top = parse_layout("2s 2d 2h / 9h 9d 9c 5s 5d / 7h 7d 7c 7s Ad", v)
    ev = evaluate(np.stack([qq, aa, trips_top]), v)
    assert ev.next_fantasyland.tolist() == [14, 16, 18]
    assert int(evaluate(trips_top, v, in_fantasyland=1).next_fantasyland[0]) == 15   # repeat
    with pytest.raises(RulesError, match="entry_cards must start with 0"):
        variant("pineapple", entry_cards=(14,))
    with pytest.raises(RulesError, match="repeat_cards must be 0 .. 24, got 60"):
        variant("pineapple", repeat_cards=60)


# ------------------------------------------------ validation where rules are made (issue 9)
@pytest.mark.parametrize("options, message", [
    (dict(repeat_limit=2.7), r"repeat_limit must be an integer, got 2.7"),
    (dict(repeat_limit="2"), r"repeat_limit must be an integer, got '2'"),
    (dict(repeat_limit=True), r"repeat_limit must be an integer, got True"),
    (dict(royalties={"bottom": {"flush": 65536}}),       # wrapped around 16 bits in 0.1
     r"royalties\['bottom'\]\['flush'\] must be 0 .. 16,383, got 65,536"),
    (dict(royalties={"bottom": {"flush": 2.5}}),
     r"royalties\['bottom'\]\['flush'\] must be an integer"),
    (dict(royalties={"top_pairs": {"66": 1.5}}),
     r"royalties\['top_pairs'\]\['66'\] must be an integer"),
    (dict(royalties={"top_pairs": [1] * 12}), r"royalties\['top_pairs'\] needs 13 values, got 12"),
    (dict(royalties={"middle": {"royal_flush": 16383}, "bottom": {"royal_flush": 16383}}),
     r"a hand can earn 32,788, more than the 16,383"),
    (dict(scoring={"per_row": 10 ** 9}),
     r"scoring per_row must be 0 .. 10,000,000, got 1,000,000,000"),
    (dict(scoring={"per_row": 1, "scoop_bonus": 2.5}), r"scoring scoop_bonus must be an integer"),
    (dict(scoring={"per_row": 1, "bonus": 2}), r"unknown fields \['bonus'\]"),
    (dict(scoring={"scoop_bonus": 2}), r"per_row is missing"),
    (dict(foul_penalty=-6), r"foul_penalty must be 0 .. 10,000,000, got -6"),
    (dict(foul_penalty=6.5), r"foul_penalty must be an integer, got 6.5"),
    (dict(entry_cards=(0, 25)), r"entry_cards \(0, 25\): each fantasyland deal must be 13 .. 24"),
    (dict(entry_cards=(0, 27)), r"each fantasyland deal must be 13 .. 24"),
    (dict(entry_cards=(0, 10)), r"each fantasyland deal must be 13 .. 24"),
    (dict(entry_cards=(0, 14.5)), r"entry_cards\[1\] must be an integer, got 14.5"),
    (dict(entry_cards="0 14"), r"entry_cards must be a sequence of integers"),
    (dict(repeat_cards=12), r"repeat_cards must be 13 .. 24"),
    (dict(repeat_cards=25), r"repeat_cards must be 0 .. 24, got 25"),
    (dict(finnish="yes"), r"finnish must be True or False, got 'yes'"),
    (dict(american=2), r"american must be True or False, got 2"),
    (dict(repeat=["classic"]), r"unknown repeat rule \['classic'\]"),
    (dict(third_row_trips=4), r"third_row_trips applies to four-row variants only"),
])
def test_bad_options_name_the_option_and_value(options, message):
    with pytest.raises(RulesError, match=message):
        variant("pineapple", **options)


def test_integral_floats_are_accepted_and_stored_as_int():
    v = variant("pineapple", repeat_limit=2.0, entry_cards=[0, 15.0], scoring={"per_row": 2.0},
                royalties={"bottom": {"flush": np.int64(5)}})
    assert v.repeat_limit == 2 and type(v.repeat_limit) is int
    assert v.entry_cards == (0, 15) and all(type(c) is int for c in v.entry_cards)
    assert type(v.scoring.per_row) is int and v.royalties.rows[-1][5] == 5
    hash(v)  # lists became tuples: still hashable, still cached


@pytest.mark.parametrize("field, value, message", [
    ("n_rows", 5, r"n_rows must be 3 .. 4, got 5"),            # crashed evaluate in 0.1
    ("n_rows", 2, r"n_rows must be 3 .. 4, got 2"),
    ("n_rows", 4, r"has 2 five-card rows; a 4-row variant needs 3"),
    ("streets", ((3, 2),) * 3, r"place 11 cards; the layout has 13"),
    ("streets", ((3, 4),) * 4, r"keeps more cards than dealt"),
    ("streets", ((3, 2),) * 3 + ((11, 2),), r"streets deal 25 cards to a player; at most 24"),
    ("first_street", 0, r"first_street must be 1 .. 13, got 0"),
    ("max_players", 5, r"max_players must be 2 .. 4, got 5"),
    ("max_players", 1, r"max_players must be 2 .. 4, got 1"),
    ("entry", "kk", r"unknown fantasyland entry rule 'kk'"),
    ("repeat", "big-pineapple", r"needs a four-row variant"),
    ("lowball", "no", r"lowball must be True or False"),
    ("royalties", "american", r"royalties must be a Royalties"),
    ("scoring", "1-6", r"scoring must be a Scoring"),
    ("name", "", r"name must be a non-empty str"),
])
def test_dataclasses_replace_is_validated(field, value, message):
    with pytest.raises(RulesError, match=message):
        dataclasses.replace(variant("pineapple"), **{field: value})


def test_four_players_of_seventeen_cards_do_not_fit_the_deck():
    with pytest.raises(RulesError, match=r"4 players dealt 17 cards each need more than 52"):
        dataclasses.replace(variant("pineapple"), max_players=4)


def test_custom_scoring_and_royalties_at_their_bounds_do_not_overflow():
    """The largest values the bounds allow: points stay exact in int32 (a scoop
    was reported as -1,894,967,271 in 0.1 with large custom values)."""
    big = ofc.MAX_SCORING
    opts = dict(scoring={"per_row": big, "scoop_bonus": big, "majority_bonus": big,
                         "foul_penalty": big},
                royalties={"top_trips": [5000] * 13, "middle": {"royal_flush": 5000},
                           "bottom": {"royal_flush": 6383}})
    v = variant("classic", **opts)
    slow = S.rules("classic", **opts)
    royal = "Ac Ad As / Ks Qs Js Ts 9s / Ah Kh Qh Jh Th"
    weak = "2c 3d 5h / 4c 6d 8h 9c Jd / 7c 7d 8c 9d Tc"
    royal_top = "Ac Ad Ah / Ts Js Qs Ks As / 2c 3c 4c 5c 6c"   # fouls: middle beats bottom
    layouts = [parse_layout(t, v) for t in (royal, weak)]
    want = S.pair(royal, weak, slow)[0]
    assert want > 2 ** 25                                   # large, and exact:
    assert score_pair(royal, weak, v).points == want
    assert ofc.score_matrix(np.stack(layouts), v)[0, 1] == want
    assert ofc.score_field(np.stack(layouts), v)[0] == want
    assert ofc.evaluate(royal_top, v).foul[0]
    tables = np.stack(layouts)[None]
    assert ofc.score_tables(tables, v)[0].tolist() == [want, -want]


# ------------------------------------------------------------- one name per concept (0.2)
def test_renamed_names_still_work_with_a_deprecation_warning():
    v = variant("pineapple")
    ev = evaluate("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v)
    with pytest.warns(DeprecationWarning,
                      match=r"Evaluation.fantasyland .* use Evaluation.next_fantasyland"):
        assert ev.fantasyland.tolist() == ev.next_fantasyland.tolist() == [14]
    tables = np.stack([parse_layout("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v),
                       parse_layout("Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d", v)])[None]
    tab = ofc.score_tables(tables, v, details=True)
    with pytest.warns(DeprecationWarning, match=r"TableResult.fantasyland"):
        assert (tab.fantasyland == tab.next_fantasyland).all()
    g = ofc.Game("pineapple", 2, seed=3, fantasyland=[14, 0])
    with pytest.warns(DeprecationWarning, match=r"Game.fantasyland .* use Game.fantasyland_deal"):
        assert g.fantasyland == g.fantasyland_deal == (14, 0)
    res = g.run(ofc.RandomPolicy(1))
    assert res.royalties[0] == tuple(ofc.evaluate(g.layouts[0], v).royalties[0].tolist())
    assert res.royalty_total[0] == sum(res.royalties[0]) or res.foul[0]
    with pytest.warns(DeprecationWarning, match=r"HandResult.row_royalties"):
        assert res.row_royalties == res.royalties
    with pytest.warns(DeprecationWarning, match=r"HandResult.fantasyland"):
        assert res.fantasyland == res.next_fantasyland
    sol = ofc.solve_fantasyland("As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c", v)
    with pytest.warns(DeprecationWarning, match=r"FantasylandSolution.next_cards"):
        assert sol.next_cards == sol.next_fantasyland == 14


def test_more_entry_points_than_tiers_deal_the_top_tier():
    """Progressive entry points (queens 1, kings 2, aces 3, trips 4) beyond
    the given entry_cards tiers deal the last tier (docs/rules.md section 13)."""
    lays = ["Ks Kd 2c / 5h 5d 5c 9s 9d / As Ad Ac Ah 2d",          # kings: 2 points
            "Js Jc 4c / 7h 7d 3s 3d 2h / Th Td Tc Kh 9h",          # jacks: none
            "Qs Qc Qh / 4h 4s 4d 8s 8d / 6c 6d 6h 6s 3c"]          # trips: 4 points
    short = variant("progressive", entry_cards=(0, 14))
    arr = ofc.parse_layouts(lays, short)
    assert ofc.score_tables(arr[None], short, details=True).next_fantasyland.tolist() == \
        [[14, 0, 14]]
    assert evaluate(arr, short).next_fantasyland.tolist() == [14, 0, 14]
    two = variant("progressive", entry_cards=(0, 14, 15))
    assert evaluate(arr, two).next_fantasyland.tolist() == [15, 0, 15]
    full = variant("progressive")
    assert evaluate(arr, full).next_fantasyland.tolist() == \
        [full.entry_cards[2], 0, full.entry_cards[4]]
