"""The fantasyland solver with jokers (docs/fantasyland.md, "Jokers"): exact
against the brute force of ``tests/test_fantasyland.py`` (every placement of
13 to 15 cards, each scored by ``ofc_fast.evaluate``, which resolves the
jokers and is itself checked against ``tests/joker_reference.py``), for one
and two jokers, every joker option and both solver objectives; consistent and
reported with substitutes on larger deals."""
from __future__ import annotations

import math

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import CardError
from ofc_fast.fantasyland import solve_fantasyland, solve_fantasyland_batch
from test_fantasyland import brute_force, check_consistent


def joker_deals(n, k, jokers, seed):
    """n deals of k cards holding `jokers` jokers among the naturals."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        hand = rng.permutation(52)[:k - jokers].tolist() + [52 + j for j in range(jokers)]
        out.append(rng.permutation(hand))
    return np.array(out, np.uint8)


OPTIONS = [
    dict(),                                                        # row, fantasyland: greedy
    dict(joker_objective="strength", joker_top_natural=True),      # giovinco: greedy
    dict(joker_cards="board", joker_objective="royalties"),        # YutaUra: exact leaves
    dict(joker_top_natural=True),                                  # the top by the objective
]


def _check(name, k, jokers, options, n, seed, rvs=("royalties", None, 3.5)):
    v = ofc.variant(name, jokers=jokers, **options)
    hands = joker_deals(n, k, jokers, seed)
    objectives = [("royalties", None) if rv == "royalties" else ("royalties+repeat", rv)
                  for rv in rvs]
    batches = [solve_fantasyland_batch(hands, v, obj, rv) for obj, rv in objectives]
    values = [b.fantasyland_value for b in batches]
    for i, hand in enumerate(hands):
        for batch, (lay, disc, value) in zip(batches, brute_force(hand, v, values), strict=True):
            got = batch[i]
            check_consistent(got)
            if lay is None:
                assert got.foul and got.score == -math.inf
                continue
            where = (str(v), ofc.format_cards(hand), batch.fantasyland_value)
            assert got.score == value, where
            assert got.text == ofc.format_layout(lay, v), where
            assert got.discards.tolist() == disc.tolist(), where


@pytest.mark.parametrize("options", OPTIONS, ids=["row", "strength-natural", "board", "natural"])
@pytest.mark.parametrize("jokers", [1, 2])
def test_solver_equals_brute_force_13_cards(options, jokers):
    _check("classic", 13, jokers, options, 3, 10 + jokers)


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTIONS, ids=["row", "strength-natural", "board", "natural"])
@pytest.mark.parametrize("name, k, jokers, n", [
    ("classic", 13, 1, 25), ("classic", 13, 2, 25), ("pineapple", 14, 1, 12),
    ("pineapple", 14, 2, 10), ("pineapple-2-7", 14, 1, 8), ("progressive", 14, 2, 6),
])
def test_solver_equals_brute_force(options, name, k, jokers, n):
    _check(name, k, jokers, options, n, 100 + k + jokers)


@pytest.mark.slow
def test_solver_equals_brute_force_15_cards():
    _check("progressive", 15, 1, dict(), 2, 77, rvs=(None,))
    _check("pineapple", 15, 2, dict(joker_cards="board"), 1, 78, rvs=("royalties",))


NOT_MONOTONE = {"middle": {"flush": 20, "full_house": 3},
                "bottom": {"straight": 2, "flush": 9, "full_house": 4}}


@pytest.mark.slow
def test_solver_with_a_table_that_is_not_monotone():
    _check("pineapple", 14, 1, dict(royalties=NOT_MONOTONE), 6, 5)


def test_solver_strength_objective_with_a_table_that_is_not_monotone():
    """The rules take each row's strongest completion under the row below; with
    rows that pay more for a weaker hand, the best middle may be a joker below
    its strongest completion (a flush paying 20, not the straight flush), so
    the solver must not keep only strongest completions there."""
    v = ofc.variant("classic", jokers=1, joker_objective="strength", royalties=NOT_MONOTONE)
    sol = solve_fantasyland("Kc Kd Ks 2c 2d 5h 6h 7h 8h X1 Qc Jd 4s", v, "royalties")
    assert sol.score == 24
    assert sol.text == "Qc Jd 4s / X1 8h 7h 6h 5h / Ks Kd Kc 2d 2c"
    assert ofc.format_cards(sol.substitutes) == "Ah"


def test_solver_with_a_repeat_worth_less_than_nothing():
    """A repeat worth -50: the best middle is a joker below its strongest
    completion (trips, not quads), since the bottom and middle swapped would
    repeat (brute force: tests/test_fantasyland.py)."""
    v = ofc.variant("pineapple", jokers=1)
    sol = solve_fantasyland("5s 3d X1 4d 6s Qd 6c Kc 7c 4h 4c 3c 3h 2d", v, fantasyland_value=-50)
    assert sol.score == 18 and not sol.repeat
    assert sol.text == "Qd 7c 5s / X1 Kc 3h 3d 3c / 6s 6c 4h 4d 4c"


@pytest.mark.slow
@pytest.mark.parametrize("jokers", [1, 2])
def test_solver_strength_objective_with_a_table_that_is_not_monotone_brute_force(jokers):
    _check("pineapple", 14, jokers, dict(joker_objective="strength", royalties=NOT_MONOTONE),
           10, 6 + jokers)


@pytest.mark.parametrize("k, jokers, name", [(16, 2, "pineapple"), (17, 2, "progressive"),
                                             (19, 1, "big-pineapple")])
def test_large_deals_are_consistent(k, jokers, name):
    v = ofc.variant(name, jokers=jokers)
    batch = solve_fantasyland_batch(joker_deals(3, k, jokers, k), v)
    for i in range(len(batch)):
        sol = batch[i]
        check_consistent(sol)
        placed = [c for c in sol.layout.tolist() if c >= 52]
        assert sorted(sol.substitutes[[c - 52 for c in placed]].tolist()) != [] or not placed
        assert (sol.substitutes[[j for j in range(jokers) if 52 + j not in placed]] == 255).all()


def test_jokers_make_the_best_layout():
    v = ofc.variant("pineapple", jokers=1)
    sol = solve_fantasyland("X1 Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s", v)
    assert sol.royalty_total == 33 and sol.repeat and not sol.foul
    assert ofc.format_cards(sol.substitutes) == "9h"
    assert "*9h" in str(sol) and sol.to_dict()["substitutes"] == "9h"
    two = solve_fantasyland("X1 X2 2c 5d 8h Jc Kd 3s 6h 9c Qd 4s 7h Ts", ofc.variant("pineapple",
                                                                                    jokers=2))
    assert two.repeat and not two.foul and two.royalty_total >= 10


def test_bad_joker_hands():
    with pytest.raises(CardError, match=r"hand: X1 is a joker \(card 0\); variant pineapple is "
                                        r"played without jokers"):
        solve_fantasyland("X1 Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s", "pineapple")
    with pytest.raises(CardError, match=r"hand 0: X2 is a joker \(card 1\); variant pineapple is "
                                        r"played with one joker"):
        solve_fantasyland_batch(np.array([[52, 53] + list(range(12))], np.uint8),
                                ofc.variant("pineapple", jokers=1))
    with pytest.raises(CardError, match="X1 appears twice"):
        solve_fantasyland_batch(np.array([[52, 52] + list(range(12))], np.uint8),
                                ofc.variant("pineapple", jokers=2))
