"""Contracts between layers (issue 18, item 6): every variant ``variant()``
accepts is played to the end by every built-in policy and its fantasyland
deals are solved by the exact solver, or it is refused where it is made (a
``Game`` or ``Match`` whose deal does not fit the deck: ``RulesError``).

The ranges live in one place (``ofc_fast.deals.fantasyland_deals``: what a
variant deals in fantasyland; ``fantasyland_card_counts``: what the solver
takes, always including those).  The default run walks a short, derandomized
sample of random valid variants; ``pytest -m fuzz`` runs the long twin.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

import ofc_fast as ofc
from fuzz_budget import LONG, QUICK, examples
from ofc_fast.deals import fantasyland_deals, street_total
from ofc_fast.rules import MAX_DEAL, REPEAT_RULES, ROYALTY_PRESETS, SCORING_PRESETS, VARIANTS
from ofc_fast.sim import GameBatch

CONTRACT_QUICK = settings(QUICK, max_examples=examples(40))


@st.composite
def valid_variants(draw: st.DrawFn) -> ofc.Variant:
    """``variant(name, **options)`` with random options; refused ones are
    rejected (they are refused where they are made, which is the contract)."""
    name = draw(st.sampled_from(sorted(VARIANTS)))
    base = VARIANTS[name]
    deal = st.integers(base.n_cards, MAX_DEAL)
    opts: dict[str, object] = {}
    if draw(st.booleans()):
        opts["entry_cards"] = [0] + sorted(draw(st.lists(deal, min_size=1, max_size=4)))
    if draw(st.booleans()):
        opts["repeat_cards"] = draw(deal)
    if draw(st.booleans()):
        opts["repeat"] = draw(st.sampled_from([*REPEAT_RULES, None]))
    if draw(st.booleans()):
        opts["repeat_limit"] = draw(st.none() | st.integers(0, 254))
    if base.n_rows == 3 and draw(st.booleans()):
        opts["lowball"] = draw(st.booleans())
    if draw(st.integers(0, 9)) == 0:
        opts["fantasyland"] = False
    if draw(st.booleans()):
        opts["finnish"] = True
    if draw(st.booleans()):
        opts["royalties"] = draw(st.sampled_from(sorted(ROYALTY_PRESETS)))
    if draw(st.booleans()):
        opts["scoring"] = draw(st.sampled_from(sorted(SCORING_PRESETS)))
    try:
        return ofc.variant(name, **opts)
    except ofc.RulesError:
        reject()


def _policies(seed: int) -> dict[str, ofc.Policy]:
    return {
        "RandomPolicy": ofc.RandomPolicy(seed),
        "HeuristicPolicy": ofc.HeuristicPolicy(seed, samples=3, tries=2, max_moves=30),
        "SolverPolicy": ofc.SolverPolicy(n=400, seed=seed, time_budget_ms=2, first_round=8),
    }


def check_variant(v: ofc.Variant, data: st.DataObject) -> None:
    deals = fantasyland_deals(v)
    counts = ofc.fantasyland_card_counts(v)
    assert set(deals) <= set(counts), (v, deals, counts)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    for k in deals:                       # the solver takes every deal the variant gives
        sol = ofc.solve_fantasyland(rng.permutation(52)[:k].astype(np.uint8), v)
        assert len(sol.layout) == v.n_cards and len(sol.discards) == k - v.n_cards
    P = data.draw(st.integers(v.min_players, v.max_players), label="players")
    fl = [data.draw(st.sampled_from((0, *deals)), label=f"fantasyland[{p}]") if deals else 0
          for p in range(P)]
    for name, policy in _policies(seed).items():
        try:
            g = ofc.Game(v, P, seed=seed, fantasyland=fl)
        except ofc.RulesError as e:           # refused where it is made: the deck
            assert "more than the 52 in a deck" in str(e), e
            return
        res = g.run(policy)
        assert g.done and sum(res.points) == 0, (name, v)
        assert g.fantasyland_deal == tuple(fl)
    try:
        m = ofc.Match(v, P, seed=seed, finish_fantasyland=False)
    except ofc.RulesError as e:
        assert "more than the 52 in a deck" in str(e), e
        return
    scores = m.run(ofc.RandomPolicy(seed))
    assert m.done and int(scores.sum()) == 0
    check_batch(v, P, fl, seed)


# the built-in policies (C), as batch seats
BATCH_POLICIES = ("random", ("greedy", dict(samples=2, tries=2)),
                  ("heuristic", dict(samples=2, tries=2, max_moves=8)),
                  ("racing", dict(samples=2, tries=2, max_moves=8)))


def check_batch(v: ofc.Variant, P: int, fl: list[int], seed: int) -> None:
    """The batch engine plays the variant's fantasyland deals with every
    built-in policy (the valued ones set them by the solver, random play at
    random), and the batch solver solves them."""
    for policy in BATCH_POLICIES:
        b = GameBatch(v, 2, P, seed=seed, policies=policy, fantasyland=fl)
        hands = b.run_recorded(hands=1)
        assert hands.points.sum(axis=1).tolist() == [0, 0], (policy, v)
        assert b.hands_played.tolist() == [1, 1], (policy, v)
        for p, k in enumerate(fl):        # a fantasyland seat placed n_cards, discarded the rest
            kept = hands.discards[:, p][hands.discards[:, p] != 255].reshape(2, -1)
            assert kept.shape[1] == (k - v.n_cards if k else street_total(v) - v.n_cards), \
                (policy, v, k)
            dealt = np.concatenate([hands.layouts[:, p], kept], axis=1)
            assert [len(set(row)) for row in dealt.tolist()] == [dealt.shape[1]] * 2
    deals = fantasyland_deals(v)
    if deals:
        rng = np.random.default_rng(seed)
        k = deals[-1]
        cards = np.array([rng.permutation(52)[:k] for _ in range(2)], np.uint8)
        batch = ofc.solve_fantasyland_batch(cards, v)
        one = ofc.solve_fantasyland(cards[1], v)
        assert batch.score[1] == one.score and len(one.discards) == k - v.n_cards


@pytest.mark.slow
@CONTRACT_QUICK
@given(v=valid_variants(), data=st.data())
def test_every_valid_variant_is_played_and_solved(v, data):
    check_variant(v, data)


@pytest.mark.fuzz
@settings(LONG, max_examples=1000)
@given(v=valid_variants(), data=st.data())
def test_every_valid_variant_is_played_and_solved_long(v, data):
    check_variant(v, data)


@pytest.mark.parametrize("options", [
    dict(entry_cards=(0, 14, 24)),                        # a deal past the named variants' 17
    dict(entry_cards=(0, 20), repeat_cards=22),
    dict(repeat_cards=24),
])
def test_large_fantasyland_deals_are_played_by_every_policy(options):
    """0.2 accepted these variants, then the policies and the solver refused
    the deal mid-hand ("hand has 24 cards; pineapple fantasyland takes 14 to
    17 cards")."""
    v = ofc.variant("pineapple", **options)
    deal = max(fantasyland_deals(v))
    assert deal in ofc.fantasyland_card_counts(v)
    for policy in _policies(3).values():
        g = ofc.Game(v, 2, seed=3, fantasyland=[deal, 0])
        assert sum(g.run(policy).points) == 0
        assert len(g.discards(0)) == deal - 13
    check_batch(v, 2, [deal, 0], 3)
