"""Jokers in evaluation (RULES.md section 12): the kernels against the brute
force of ``tests/joker_reference.py`` (every substitution tried, on the slow
scorer) in every variant and option, exhaustive on tops, the published cases
of ``tests/joker_cases.py``, and the kernels' own paths (greedy, the exact
search of a table that is not monotone, two jokers of a board wanting one
card)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import joker_cases
import joker_reference as J
import ofc_fast as ofc
import slow_scorer as S
from ofc_fast.fantasyland import fantasyland_card_counts, solve_fantasyland_batch
from ofc_fast.rules import compile_rules

NAMES = ("classic", "chinese", "turbo", "pineapple", "progressive", "pineapple-2-7",
         "turbo-pineapple", "big-pineapple")


def _reference(layout, name, v, fl=0, **slow_options):
    return J.resolve(layout, S.rules(name, **slow_options), v.joker_cards, v.joker_objective,
                     v.joker_top_natural, fl)


def _kernel(layouts, v, fl=None):
    return ofc.evaluate(np.asarray(layouts, np.uint8), v, in_fantasyland=fl)


def _agree(ev, i, ref, v):
    got = (bool(ev.foul[i]), ev.royalties[i].tolist(), int(ev.next_fantasyland[i]),
           bool(ev.repeat[i]), ev.substitutes[i].tolist())
    want = (ref.ev.foul, ref.ev.royalties, ref.ev.fantasyland, ref.ev.repeat,
            [255 if x is None else x for x in ref.subs[:v.jokers]])
    return got, want


def _random_layouts(rng, v, name, n, jokers, good):
    """n layouts with `jokers` jokers at random places: placed by the
    fantasyland solver (mostly live, with royalties) or dealt at random."""
    out = []
    for _ in range(n):
        if good:
            k = fantasyland_card_counts(name).start
            hand = rng.permutation(52)[:k].astype(np.uint8)
            lay = solve_fantasyland_batch(hand[None], name, "royalties").layouts[0].astype(int)
        else:
            lay = rng.permutation(52)[:v.n_cards]
        for q, pos in enumerate(rng.choice(v.n_cards, jokers, replace=False)):
            lay[pos] = 52 + q
        out.append(lay.tolist())
    return out


def _random_options(rng, jokers):
    return dict(jokers=jokers, joker_cards=("row", "board")[rng.integers(2)],
                joker_objective=J.OBJECTIVES[rng.integers(3)],
                joker_top_natural=bool(rng.integers(2)))


def _check_random(name, seed, n):
    rng = np.random.default_rng(seed)
    checked = live = 0
    for jokers in (1, 2):
        for good in (True, False):
            v = ofc.variant(name, **_random_options(rng, jokers))
            lays = _random_layouts(rng, v, name, n, jokers, good)
            fl = rng.choice([0, 0, 1, 2], len(lays)).astype(np.uint8)
            ev = _kernel(lays, v, fl)
            for i, lay in enumerate(lays):
                ref = _reference(lay, name, v, int(fl[i]))
                got, want = _agree(ev, i, ref, v)
                assert got == want, (str(v), ofc.format_layout(np.array(lay), v), int(fl[i]))
                checked += 1
                live += not ref.ev.foul
    assert live > checked // 3          # the boards are not all fouled
    return checked


@pytest.mark.parametrize("name", NAMES)
def test_kernels_equal_brute_force_on_random_boards(name):
    assert _check_random(name, 2027 + NAMES.index(name), 6) == 24


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", range(3))
def test_kernels_equal_brute_force_on_many_boards(name, seed):
    assert _check_random(name, 100 * seed + NAMES.index(name), 60) == 240


# Custom tables that pay less for a stronger hand take the exact search.
NOT_MONOTONE = [
    ("pineapple", dict(royalties={"middle": {"flush": 20, "full_house": 3},
                                  "bottom": {"straight": 2, "flush": 9, "full_house": 4}})),
    ("big-pineapple", dict(third_row_trips=50)),
    ("progressive", dict(royalties={"top_pairs": [9, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0],
                                    "middle": {"pair": 3, "trips": 0, "straight": 4},
                                    "bottom": {"straight": 2}})),
]


def _slow_options(name, opts):
    return {k: v for k, v in opts.items() if k in ("royalties", "third_row_trips")}


@pytest.mark.parametrize("name, opts", NOT_MONOTONE)
def test_tables_that_are_not_monotone_take_the_exact_search(name, opts):
    rng = np.random.default_rng(7)
    for jokers in (1, 2):
        for _ in range(3):
            v = ofc.variant(name, **opts, **_random_options(rng, jokers))
            assert compile_rules(v)["joker_monotone"] == 0
            lays = _random_layouts(rng, v, name, 5, jokers, True) \
                + _random_layouts(rng, v, name, 3, jokers, False)
            ev = _kernel(lays, v)
            for i, lay in enumerate(lays):
                ref = _reference(lay, name, v, **_slow_options(name, opts))
                got, want = _agree(ev, i, ref, v)
                assert got == want, (str(v), ofc.format_layout(np.array(lay), v))


def test_a_non_monotone_row_needs_the_search():
    """The greedy answer is wrong where a weaker middle pays more: a flush
    paying 20 beats a straight flush paying nothing below a royal flush."""
    v = ofc.variant("pineapple", jokers=1, joker_objective="royalties",
                    royalties={"middle": {"flush": 20, "straight_flush": 0, "royal_flush": 0},
                               "bottom": {"royal_flush": 25}})
    assert compile_rules(v)["joker_monotone"] == 0
    ev = ofc.evaluate("2c 3d 4s / 9h 8h 7h 6h X1 / Ac Kc Qc Jc Tc", v)
    assert ofc.format_cards(ev.substitutes[0]) == "Ah"     # an ace-high flush, not 9-high SF
    assert ev.royalties[0].tolist() == [0, 20, 25]
    v = ofc.variant(v, joker_objective="strength")           # strength: the straight flush
    assert ofc.format_cards(ofc.evaluate("2c 3d 4s / 9h 8h 7h 6h X1 / Ac Kc Qc Jc Tc", v)
                            .substitutes[0]) == "Th"


def test_two_jokers_of_a_board_wanting_one_card():
    """Under ``board`` the bottom's royal flush and the middle's quads both
    want the last ace of spades: the bottom (the first row compared) gets it,
    the middle makes the best full house without it."""
    lay = "2c 3d 4h / Ah Ad Ac 5c X2 / Ks Qs Js Ts X1"
    for objective in J.OBJECTIVES:
        v = ofc.variant("pineapple", jokers=2, joker_cards="board", joker_objective=objective)
        ev = ofc.evaluate(lay, v)
        assert ofc.format_cards(ev.substitutes[0]) == "As 5s"
        assert ev.royalties[0].tolist() == [0, 12, 25]
        ref = _reference(ofc.parse_layout(lay, v).tolist(), "pineapple", v)
        assert _agree(ev, 0, ref, v)[0] == _agree(ev, 0, ref, v)[1]
    v = ofc.variant("pineapple", jokers=2, joker_cards="row")      # both may be the As
    assert ofc.format_cards(ofc.evaluate(lay, v).substitutes[0]) == "As As"


def _all_tops(v, middle_bottom, jokers):
    below = ofc.parse_layout(f"__ __ __ / {middle_bottom}", v)[3:].tolist()
    free = [c for c in range(52) if c not in below]
    tops = []
    for naturals in itertools.combinations(free, 3 - jokers):
        for slots in itertools.combinations(range(3), jokers):
            top, it = [], iter(naturals)
            for k in range(3):
                top.append(52 + slots.index(k) if k in slots else next(it))
            tops.append(top + below)
    return tops


@pytest.mark.slow
@pytest.mark.parametrize("middle_bottom", ["Kc Kd 7s 5h 2d / Ac Ad As 9c 9d",
                                           "9c 9d 8h 8s 2c / Tc Jc Qc Kc 3d"])
@pytest.mark.parametrize("jokers", [1, 2])
@pytest.mark.parametrize("opts", [dict(), dict(joker_cards="board", joker_top_natural=True),
                                  dict(joker_objective="strength")])
def test_every_top_with_jokers(middle_bottom, jokers, opts):
    v = ofc.variant("progressive", jokers=jokers, **opts)
    tops = _all_tops(v, middle_bottom, jokers)
    ev = _kernel(tops, v)
    for i, lay in enumerate(tops):
        got, want = _agree(ev, i, _reference(lay, "progressive", v), v)
        assert got == want, ofc.format_layout(np.array(lay), v)


def test_every_top_with_one_joker_on_a_board():
    v = ofc.variant("pineapple", jokers=1, joker_top_natural=True)
    tops = _all_tops(v, "Qc Qd 7s 5h 2d / Ac Ad As 9c 9d", 1)[::7]
    ev = _kernel(tops, v)
    for i, lay in enumerate(tops):
        got, want = _agree(ev, i, _reference(lay, "pineapple", v), v)
        assert got == want, ofc.format_layout(np.array(lay), v)


# ------------------------------------------------------------- published cases
@pytest.mark.parametrize("case", joker_cases.CASES,
                         ids=lambda c: f"{c['source'][0]}:{c['source'][2]}")
def test_published_cases(case):
    jokers = case.get("jokers", case["layout"].count("X"))
    v = ofc.variant(case["variant"], jokers=jokers, **case["options"])
    lay = ofc.parse_layout(case["layout"], v)
    ev = ofc.evaluate(lay, v)
    assert bool(ev.foul[0]) == case["foul"]
    resolved = ev.resolved(lay[None])[0]
    for k, want in enumerate(case["rows"]):
        if want is not None:
            row = resolved[:3] if k == 0 else resolved[3 + 5 * (k - 1):8 + 5 * (k - 1)]
            assert ofc.CATEGORY_NAMES[ofc.category(row.tolist())] == want, (k, case["layout"])
    for k, want in case.get("royalty", {}).items():
        assert int(ev.royalties[0, k]) == want
    if "next_fantasyland" in case:
        assert int(ev.next_fantasyland[0]) == case["next_fantasyland"]
    if "substitutes" in case:
        assert ofc.format_cards(ev.substitutes[0]).split() == list(case["substitutes"])
    ref = _reference(lay.tolist(), case["variant"], v)       # and the brute force agrees
    got, want = _agree(ev, 0, ref, v)
    assert got == want


def test_victorywys_bottom_under_board_takes_the_best_spade_flush():
    """The same board as victorywys' test_joker_on_bottom_can_use_card_placed_on_other_row
    under ``board``: 6s and As are on the board, so the bottom is the best
    spade flush left (K-high), which still beats the middle's Q-high flush."""
    v = ofc.variant("pineapple", jokers=1, joker_cards="board")
    ev = ofc.evaluate("6s Ah As / 2h 5h 7h 9h Qh / 2s 3s 4s 5s X1", v)
    assert not ev.foul[0] and ofc.format_cards(ev.substitutes[0]) == "Ks"
    assert ofc.describe_strength(int(ev.strengths[0, 2])) == "King-high flush"


# --------------------------------------------------------------- what is reported
def test_a_layout_without_jokers_is_unchanged_in_a_joker_variant():
    rng = np.random.default_rng(3)
    lays = np.array([rng.permutation(52)[:13] for _ in range(500)], np.uint8)
    plain = ofc.evaluate(lays, "pineapple")
    for opts in (dict(jokers=1), dict(jokers=2, joker_cards="board", joker_top_natural=True,
                                      joker_objective="strength")):
        ev = ofc.evaluate(lays, ofc.variant("pineapple", **opts))
        for field in ("strengths", "foul", "royalties", "next_fantasyland", "next_in_fantasyland"):
            assert np.array_equal(getattr(ev, field), getattr(plain, field)), field
        assert (ev.substitutes == 255).all() and ev.substitutes.shape == (500, opts["jokers"])
    assert plain.substitutes.shape == (500, 0)


def test_next_in_fantasyland_comes_from_the_kernel():
    v = ofc.variant("pineapple", jokers=1, repeat_limit=None)
    lays = ["Qs X1 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d",     # QQ: an entry, trips on top: a repeat
            "X1 Qd Qc / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d",
            "2s X1 3c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"]     # 33: no entry; the 7777 repeats
    ev = ofc.evaluate(lays, v, in_fantasyland=[0, 254, 255])
    assert ev.next_fantasyland.tolist() == [14, 14, 14]     # 7777 on the bottom repeats too
    assert ev.next_in_fantasyland.tolist() == [1, 255, 255]
    ev = ofc.evaluate(lays[2:], ofc.variant("pineapple", jokers=1, repeat="none"),
                      in_fantasyland=[3])
    assert ev.next_fantasyland.tolist() == [0] and ev.next_in_fantasyland.tolist() == [0]


def test_substitutes_show_in_text_and_names():
    v = ofc.variant("pineapple", jokers=2)
    text = "Qs X1 2c / 9h 9d 9c 5s X2 / 7h 7d 7c 7s 2d"   # X2: no quads above the bottom's
    ev = ofc.evaluate(text, v)
    assert ofc.format_layout(ofc.parse_layout(text, v), v, ev.substitutes[0]) == \
        "Qs *Qh 2c / 9h 9d 9c 5s *5h / 7h 7d 7c 7s 2d"
    assert ofc.format_layout(ofc.parse_layout(text, v), v) == text
    assert ofc.describe("9h 9d 9c 5s X2", substitutes=ev.substitutes[0]) == \
        "Full House, Nines full of Fives"
    assert ofc.describe("Qs X1 2c", substitutes=ev.substitutes[0]) == "Pair of Queens, Deuce kicker"
    assert ofc.format_layout(ev.resolved(text)[0], v) == \
        "Qs Qh 2c / 9h 9d 9c 5s 5h / 7h 7d 7c 7s 2d"
    assert ev.royalties[0].tolist() == [7, 12, 10]


@pytest.mark.parametrize("bottom_a, sub, doubled", [
    ("Ks Qs Js 9s X1", "Ts", True),     # b's natural 2s doubles the bottom exchanged
    ("As 3s 4s 5s X1", "2s", False),    # a joker standing for the 2s does not double
])
def test_only_a_natural_two_of_spades_doubles(bottom_a, sub, doubled):
    v = ofc.variant("pineapple", jokers=1, finnish=True)
    a = f"2c 3d 4h / 5c 6d 7h 8c Tc / {bottom_a}"
    b = "2h 3h 4d / 5d 6c 7c 8h Td / Ad Ac Ah " + ("2s 2d" if doubled else "Kd Kc")
    r = ofc.score_pair(a, b, v)
    assert ofc.format_cards(r.substitutes_a) == sub
    assert r.royalties_a == (0, 0, 15) and r.royalties_b == (0, 0, 6)
    assert r.royalty_points == (15 - 6) * (2 if doubled else 1)
    ra = J.resolve(ofc.parse_layout(a, v).tolist(), S.rules("pineapple", finnish=True))
    rb = J.resolve(ofc.parse_layout(b, v).tolist(), S.rules("pineapple", finnish=True))
    assert S.pair(ra.ev, rb.ev, S.rules("pineapple", finnish=True))[0] == r.points


def test_a_joker_row_may_equal_the_row_below():
    """Equal rows do not foul: the middle's joker completes a royal flush
    beside the bottom's (50 and 25), not a king-high straight flush."""
    v = ofc.variant("pineapple", jokers=1)
    ev = ofc.evaluate("2c 3d 4h / As Ks Qs Js X1 / Ah Kh Qh Jh Th", v)
    assert not ev.foul[0] and ev.royalties[0].tolist() == [0, 50, 25]
    assert ofc.format_cards(ev.substitutes[0]) == "Ts"
    assert ev.strengths[0, 1] == ev.strengths[0, 2]


@pytest.mark.parametrize("natural, royalties, cards", [(False, [9, 0, 6], 16),
                                                       (True, [0, 0, 6], 0)])
def test_top_pair_of_jokers_without_a_natural(natural, royalties, cards):
    """Aces made of two jokers: with joker_top_natural they pay nothing and
    earn no fantasyland (trips of fives would beat the middle's two pair)."""
    v = ofc.variant("progressive", jokers=2, joker_top_natural=natural)
    ev = ofc.evaluate("X1 X2 5c / Kh Kd Qs Qd 2c / As Ac Ad 7h 7d", v)
    assert ev.royalties[0].tolist() == royalties and ev.next_fantasyland.tolist() == [cards]
    assert ofc.format_cards(ev.substitutes[0]) == "As Ah"
