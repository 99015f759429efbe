"""Jokers in scoring (RULES.md section 12): each layout is resolved on its
own, never against the opponents, then scored as its resolved hands.  The
kernels (score_pair, score_matrix, score_field, score_tables, settle)
against the brute force of ``tests/joker_reference.py``, and the invariants
of scoring with jokers as properties (zero-sum, antisymmetry, the foul
penalty), on several threads too."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import joker_reference as J
import ofc_fast as ofc
import slow_scorer as S


def _table(rng, v, players):
    """One deal of a deck with the variant's jokers: P layouts."""
    deck = rng.permutation(v.deck_size)[:players * v.n_cards]
    return deck.reshape(players, v.n_cards).astype(np.uint8)


def _ref_points(layouts, v, name, fl=None):
    rules = S.rules(name)
    fl = [0] * len(layouts) if fl is None else fl
    evs = [J.resolve(lay.tolist(), rules, v.joker_cards, v.joker_objective,
                     v.joker_top_natural, int(f)).ev for lay, f in zip(layouts, fl, strict=True)]
    return [[S.pair(a, b, rules)[0] for b in evs] for a in evs], evs


@pytest.mark.parametrize("name", ["pineapple", "classic", "pineapple-2-7", "big-pineapple"])
@pytest.mark.parametrize("options", [dict(jokers=2), dict(jokers=1, joker_cards="board"),
                                     dict(jokers=2, joker_objective="strength",
                                          joker_top_natural=True)])
def test_scoring_equals_brute_force(name, options):
    v = ofc.variant(name, **options)
    rng = np.random.default_rng(len(name) + options["jokers"])
    P = v.max_players
    for _ in range(4):
        lays = _table(rng, v, P)
        fl = rng.choice([0, 1], P).astype(np.uint8)
        want, evs = _ref_points(lays, v, name, fl)
        t = ofc.score_tables(lays[None], v, in_fantasyland=fl[None], details=True)
        assert t.points[0].tolist() == [sum(row) for row in want]
        assert t.foul[0].tolist() == [e.foul for e in evs]
        assert t.next_fantasyland[0].tolist() == [e.fantasyland for e in evs]
        ev = ofc.evaluate(lays, v, in_fantasyland=fl)
        assert np.array_equal(t.substitutes[0], ev.substitutes)
        want0, _ = _ref_points(lays, v, name)                  # the pairwise calls: no fantasyland
        assert ofc.score_matrix(lays, v).tolist() == want0
        assert ofc.score_field(lays, v).tolist() == [sum(row) for row in want0]
        r = ofc.score_pair(lays[0], lays[1], v)
        assert r.points == want0[0][1] and r.substitutes_a == tuple(ev.substitutes[0].tolist())
        assert ofc.settle(ofc.score_matrix(lays, v)).sum() == 0


def test_resolution_never_looks_at_the_opponent():
    """The same layout resolves the same way whoever it meets."""
    v = ofc.variant("pineapple", jokers=1)
    a = "Ks Kh X1 / As Ah Qd Jd Td / 2c 3c 4c 5c 6c"
    for b in ("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d",
              "Ac Ad 2h / 3h 4h 5h 6h 8d / Tc Td Ts Th 8h"):
        assert ofc.score_pair(a, b, v).substitutes_a == (ofc.card_id("As"),)


def test_fouled_joker_layout_pays_the_penalty():
    v = ofc.variant("pineapple", jokers=1)
    fouled = "As Ah Ad / 2s 3d 4c 9h X1 / 7c 8c 9c Tc Jc"     # no substitution saves it
    live = "2c 3d 4h / 5c 6d 7h 8c Tc / Qs Qd Qc 2s 2d"         # a full house: 6
    r = ofc.score_pair(live, fouled, v)
    assert r.foul_b and not r.foul_a and r.points == 6 + 6


@st.composite
def _tables(draw):
    name = draw(st.sampled_from(["pineapple", "classic", "big-pineapple", "pineapple-2-7"]))
    v = ofc.variant(name, jokers=draw(st.integers(1, 2)),
                    joker_cards=draw(st.sampled_from(["row", "board"])),
                    joker_objective=draw(st.sampled_from(J.OBJECTIVES)),
                    joker_top_natural=draw(st.booleans()))
    P = draw(st.integers(v.min_players, v.max_players))
    G = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    return v, np.stack([_table(rng, v, P) for _ in range(G)])


@given(_tables())
@settings(max_examples=60, deadline=None)
def test_scoring_with_jokers_is_zero_sum_and_antisymmetric(data):
    v, tables = data
    pts = ofc.score_tables(tables, v)
    assert (pts.sum(axis=1) == 0).all()
    m = ofc.score_matrix(tables.reshape(-1, v.n_cards), v)
    assert np.array_equal(m, -m.T) and (np.diag(m) == 0).all()
    for g, table in enumerate(tables):
        sub = ofc.score_matrix(table, v)
        assert pts[g].tolist() == sub.sum(axis=1).tolist()
        ev = ofc.evaluate(table, v)
        penalty = v.scoring.penalty(v.n_rows)
        for p in range(len(table)):
            for q in range(len(table)):
                if ev.foul[p] and not ev.foul[q]:      # the penalty and the royalties
                    assert sub[q, p] == penalty + ev.royalty_total[q]
                if ev.foul[p] and ev.foul[q]:
                    assert sub[q, p] == 0


def test_threads_give_the_same_answers():
    v = ofc.variant("pineapple", jokers=2, joker_cards="board")
    rng = np.random.default_rng(11)
    tables = np.argsort(rng.random((9_000, 54)), axis=1)[:, :39].astype(np.uint8)
    tables = tables.reshape(-1, 3, 13)
    lays = tables.reshape(-1, 13)
    one, two = ofc.evaluate(lays, v), ofc.evaluate(lays, v, n_threads=2)
    for field in ("strengths", "foul", "royalties", "next_fantasyland", "substitutes"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    t1 = ofc.score_tables(tables, v, details=True)
    t2 = ofc.score_tables(tables, v, details=True, n_threads=2)
    assert np.array_equal(t1.points, t2.points) and np.array_equal(t1.substitutes, t2.substitutes)
    assert np.array_equal(t1.substitutes.reshape(-1, 2), one.substitutes)
