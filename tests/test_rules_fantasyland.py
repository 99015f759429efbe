"""The rule book as tests, section 7 (fantasyland): entry by variant and top,
lowball entry, repeats and their limits, the deal schedule and the count's
edges (RULES.md section 7).

Each layout check also runs the independent ``slow_scorer`` (rule_checks.py).
"""
import numpy as np
import pytest

from ofc_fast import RulesError, evaluate, parse_layout, variant
from rule_checks import check_layout

# ============================================================ section 7: fantasyland
BASE_MID, BASE_BOT = "5c 6d 7h 8s 9c", "2h 3h 9h Jh Kh"     # straight, flush: no repeat
ENTRY_TOPS = {"JJ": "Js Jd 4c", "QQ": "Qs Qd 4c", "KK": "Ks Kd 4c", "AA": "As Ad 4c",
              "222": "2s 2d 2c", "AAA": "As Ad Ac"}
ENTRY = {  # variant -> cards by top
    "classic": dict(JJ=0, QQ=13, KK=13, AA=13, **{"222": 13, "AAA": 13}),
    "turbo": dict(JJ=0, QQ=13, KK=13, AA=13, **{"222": 13, "AAA": 13}),
    "pineapple": dict(JJ=0, QQ=14, KK=14, AA=14, **{"222": 14, "AAA": 14}),
    "turbo-pineapple": dict(JJ=0, QQ=14, KK=14, AA=14, **{"222": 14, "AAA": 14}),
    "progressive": dict(JJ=0, QQ=14, KK=15, AA=16, **{"222": 17, "AAA": 17}),
    "chinese": dict(JJ=0, QQ=0, KK=0, AA=0, **{"222": 0, "AAA": 0}),
}


@pytest.mark.parametrize("name", ENTRY)
@pytest.mark.parametrize("top", ENTRY_TOPS)
def test_fantasyland_entry(name, top):
    text = f"{ENTRY_TOPS[top]} / {BASE_MID} / {BASE_BOT}"
    e = check_layout(text, name, foul=False, fl_cards=ENTRY[name][top], repeat=False)
    assert e.next_in_fantasyland[0] == (1 if ENTRY[name][top] else 0)


@pytest.mark.parametrize("top,cards", [("JJ", 0), ("QQ", 19), ("AA", 19), ("222", 19)])
def test_big_pineapple_entry(top, cards):
    text = f"{ENTRY_TOPS[top]} / 5c 6d 7h 8s 9c / 2h 3h 9h Jh Kh / Tc Td Ts Qc Qh"
    check_layout(text, "big-pineapple", foul=False, fl_cards=cards)


def test_fantasyland_off():
    text = f"{ENTRY_TOPS['QQ']} / {BASE_MID} / {BASE_BOT}"
    for name in ("classic", "pineapple", "progressive", "pineapple-2-7", "big-pineapple"):
        v = variant(name, fantasyland=False)
        assert not v.fantasyland
    check_layout(text, "pineapple", {"fantasyland": False}, fl_cards=0)
    check_layout(text, "progressive", {"fantasyland": False}, fl_cards=0)
    trips = f"{ENTRY_TOPS['222']} / {BASE_MID} / {BASE_BOT}"
    check_layout(trips, "pineapple", {"fantasyland": False}, fl_count=1, fl_cards=0, repeat=False)


LOW_TOPS = {"QQ": "Qs Qd 4d", "KK": "Ks Kd 4d", "AA": "As Ad 4d", "222": "2c 2d 2h",
            "JJ": "Js Jd 4d"}
LOW_MIDS = {"8-high": "8c 6d 5h 3s 2s", "75432": "7c 5d 4c 3s 2s"}
LOW_BOT = "3h 9h Jh Kh Ah"


@pytest.mark.parametrize("top,mid,cards", [
    ("JJ", "8-high", 0), ("QQ", "8-high", 0), ("KK", "8-high", 14), ("AA", "8-high", 14),
    ("222", "8-high", 14), ("JJ", "75432", 14), ("QQ", "75432", 14), ("KK", "75432", 15),
    ("AA", "75432", 15), ("222", "75432", 15),
])
def test_lowball_entry(top, mid, cards):
    text = f"{LOW_TOPS[top]} / {LOW_MIDS[mid]} / {LOW_BOT}"
    check_layout(text, "pineapple-2-7", foul=False, fl_cards=cards)
    # a lowball middle added to a QQ+ variant: the 2-7 rule with its own count
    check_layout(text, "turbo-pineapple", {"lowball": True}, foul=False, fl_cards=cards)
    check_layout(text, "classic", {"lowball": True}, foul=False,
                 fl_cards=cards - 1 if cards else 0)


def test_lowball_without_fantasyland_variant_has_none():
    # chinese poker has no fantasyland (section 8); a 2-7 middle does not add one
    text = f"{LOW_TOPS['KK']} / {LOW_MIDS['75432']} / {LOW_BOT}"
    check_layout(text, "chinese", {"lowball": True}, foul=False, fl_cards=0)


def test_lowball_entry_needs_a_legal_hand():
    text = f"{LOW_TOPS['KK']} / 7c 5d 4c 3s 2c / 9h 8d 7s 6c 3h"   # bottom below KK top
    check_layout(text, "pineapple-2-7", foul=True, fl_cards=0)


# repeats: (name, opts, layout key, fl count, expected cards)
REPEAT_HANDS = {
    "trips_top": f"2s 2d 2c / {BASE_MID} / {BASE_BOT}",
    "aaa_top": f"As Ad Ac / {BASE_MID} / {BASE_BOT}",
    "fh_middle": "Qs Qd 4c / 5c 5d 5h 8s 8c / Ac Ad Ah Kc Kd",
    "quads_bottom": "Js Jd 4c / 5c 6d 7h 8s 9c / Kc Kd Kh Ks 2h",
    "sf_bottom": "Js Jd 4c / 5c 6d 7h 8s 9c / Th Jh Qh Kh Ah",
    "qq_only": f"Qs Qd 4c / {BASE_MID} / {BASE_BOT}",
    "fouled_trips": "As Ad Ac / 2c 3d 4h 5s 7c / Ts Js Qs Ks Kd",
}
REPEAT_CASES = [
    # classic rule: trips top, FH+ middle, quads+ bottom; once
    ("classic", {}, "trips_top", 1, 13), ("classic", {}, "fh_middle", 1, 13),
    ("classic", {}, "quads_bottom", 1, 13), ("classic", {}, "sf_bottom", 1, 13),
    ("classic", {}, "qq_only", 1, 0), ("classic", {}, "fouled_trips", 1, 0),
    ("classic", {}, "trips_top", 2, 0),
    ("turbo", {}, "fh_middle", 1, 13), ("turbo", {}, "quads_bottom", 1, 13),
    # pineapple rule: trips top or quads+ bottom
    ("pineapple", {}, "trips_top", 1, 14), ("pineapple", {}, "quads_bottom", 1, 14),
    ("pineapple", {}, "sf_bottom", 1, 14), ("pineapple", {}, "fh_middle", 1, 0),
    ("pineapple", {}, "qq_only", 1, 0), ("pineapple", {}, "trips_top", 2, 0),
    ("turbo-pineapple", {}, "trips_top", 1, 14), ("turbo-pineapple", {}, "fh_middle", 1, 0),
    # progressive repeats with 14 whatever the tier
    ("progressive", {}, "aaa_top", 1, 14), ("progressive", {}, "quads_bottom", 1, 14),
    ("progressive", {}, "fh_middle", 1, 0),
    # infinite (Mercier-Deeb): classic conditions, no limit
    ("pineapple", {"repeat": "infinite"}, "fh_middle", 1, 14),
    ("pineapple", {"repeat": "infinite"}, "fh_middle", 7, 14),
    ("pineapple", {"repeat": "infinite"}, "trips_top", 30, 14),
    ("pineapple", {"repeat": "infinite"}, "qq_only", 3, 0),
    ("classic", {"repeat": "infinite"}, "quads_bottom", 5, 13),
    # repeat rule and limit options
    ("pineapple", {"repeat": "classic"}, "fh_middle", 1, 14),
    ("classic", {"repeat": "pineapple"}, "fh_middle", 1, 0),
    ("classic", {"repeat_limit": None}, "trips_top", 9, 13),
    ("classic", {"repeat_limit": 2}, "trips_top", 2, 13),
    ("classic", {"repeat_limit": 2}, "trips_top", 3, 0),
    ("classic", {"repeat_limit": 0}, "trips_top", 1, 0),
    ("pineapple", {"repeat": "none"}, "trips_top", 1, 0),
    ("chinese", {}, "trips_top", 1, 0),
    # in fantasyland only the repeat rule counts: QQ top / AAA top give no entry
    ("progressive", {}, "qq_only", 1, 0),
]


@pytest.mark.parametrize("name,opts,hand,k,cards", REPEAT_CASES)
def test_repeat(name, opts, hand, k, cards):
    e = check_layout(REPEAT_HANDS[hand], name, opts, fl_count=k, fl_cards=cards,
                     repeat=bool(cards))
    assert e.next_in_fantasyland[0] == (k + 1 if cards else 0)


def test_deal_schedule_checks_every_street():
    """The engine's own check of a deal (behind Variant's): a street keeps 0 ..
    the cards it deals, the streets place the layout exactly."""
    from ofc_fast.rules import deal_schedule
    assert deal_schedule(5, ((3, 2),) * 4, 13) == ((5, 5),) + ((3, 2),) * 4
    assert deal_schedule(4, ((3, 3), (3, 2), (3, 2), (3, 2)), 13)[1] == (3, 3)
    for streets, message in [
            (((3, 4), (3, 2), (3, 2), (3, 0)), r"streets\[0\] kept must be 0 \.\. 3, got 4"),
            (((3, 2), (3, 2), (3, 2), (3, -1)), r"streets\[3\] kept must be 0 \.\. 3, got -1"),
            (((3, 2),) * 3, "the streets place 11 cards; the layout has 13")]:
        with pytest.raises(RulesError, match=message):
            deal_schedule(5, streets, 13)


def test_next_in_fantasyland_stays_at_255():
    """Without a repeat limit the count of fantasyland hands in a row stops at
    255 (a uint8): a repeat at hand 254 or 255 is hand 255 next, never 0."""
    v = variant("classic", repeat_limit=None)
    lay = np.stack([parse_layout(REPEAT_HANDS["trips_top"], v)] * 4)
    e = evaluate(lay, v, in_fantasyland=np.array([1, 253, 254, 255]))
    assert e.repeat.tolist() == [True] * 4
    assert e.next_in_fantasyland.tolist() == [2, 254, 255, 255]


def test_in_fantasyland_bool_is_count_one():
    v = variant("pineapple")
    lay = parse_layout(REPEAT_HANDS["trips_top"], v)
    assert evaluate(lay, v, in_fantasyland=True).next_fantasyland[0] == 14
    assert evaluate(lay, v, in_fantasyland=False).next_fantasyland[0] == 14   # a fresh entry
    assert evaluate(lay, v, in_fantasyland=False).repeat[0] == False     # noqa: E712
    assert evaluate(lay, v, in_fantasyland=2).next_fantasyland[0] == 0
    lays = np.stack([lay] * 4)
    e = evaluate(lays, v, in_fantasyland=np.array([0, 1, 2, 3]))
    assert e.next_fantasyland.tolist() == [14, 14, 0, 0]
    assert e.repeat.tolist() == [False, True, False, False]
    assert e.next_in_fantasyland.tolist() == [1, 2, 0, 0]


@pytest.mark.parametrize("hand,cards", [("trips_top", 14), ("quads_bottom", 14),
                                        ("qq_only", 0)])
def test_lowball_repeat_is_14_never_15(hand, cards):
    tops = {"trips_top": "2c 2d 2h", "quads_bottom": "Js Jd 4d", "qq_only": "Qs Qd 4d"}
    bots = {"trips_top": LOW_BOT, "quads_bottom": "Kc Kd Kh Ks 9h", "qq_only": LOW_BOT}
    text = f"{tops[hand]} / {LOW_MIDS['75432']} / {bots[hand]}"
    check_layout(text, "pineapple-2-7", fl_count=1, foul=False, fl_cards=cards)
    check_layout(text, "pineapple-2-7", fl_count=2, foul=False, fl_cards=0)


BP_REPEAT = {
    "royal_quads": "2c 3d 4s / 4c 5d 6h 7s 8c / 9c 9d 9h 9s 2h / Td Jd Qd Kd Ad",
    "royal_trips": "2c 2d 2s / 4c 5d 6h 7s 8c / 3h 5h 9h Jh Kh / Td Jd Qd Kd Ad",
    "royal_sf_second": "Qc Qs 3c / 4c 5d 6c 7s 8c / 3h 4h 5h 6h 7h / Td Jd Qd Kd Ad",
    "royal_alone": "Qc Qs 3c / 4c 5d 6h 7s 8c / 3h 5h 9h Jh Kh / Td Jd Qd Kd Ad",
    "quads_trips_no_royal": "2c 2d 2s / 4c 5d 6h 7s 8c / Kc Kd Kh Ks 2h / 8d 9d Td Jd Qd",
}


@pytest.mark.parametrize("hand,cards", [("royal_quads", 19), ("royal_trips", 19),
                                        ("royal_sf_second", 19), ("royal_alone", 0),
                                        ("quads_trips_no_royal", 0)])
def test_big_pineapple_repeat_and_condition(hand, cards):
    check_layout(BP_REPEAT[hand], "big-pineapple", fl_count=1, foul=False, fl_cards=cards,
                 repeat=bool(cards))
    check_layout(BP_REPEAT[hand], "big-pineapple", fl_count=2, foul=False, fl_cards=0)
    # infinite on four rows only lifts the limit
    check_layout(BP_REPEAT[hand], "big-pineapple", {"repeat": "infinite"}, fl_count=4,
                 foul=False, fl_cards=cards)
