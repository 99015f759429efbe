"""Jokers in the completions (issue 27, item 4): rollouts, rollout_ev, move
values and the valued policies deal the variant's jokers as unseen cards
and score every completion with the joker-aware evaluator (RULES.md
section 12).  Checked by values: completions against ``evaluate`` of the
same layouts, single deals scored exactly, the last decision of a hand
valued exactly, the policies as batch seats and as objects alike.
(``is_dead`` and ``completion`` with jokers: tests/test_jokers_dead.py.)"""
from __future__ import annotations

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast.cards import EMPTY, JOKER, CardError
from ofc_fast.engine import Game
from ofc_fast.policies import BUILTIN, policy_spec
from ofc_fast.sim import GameBatch
from test_sim import LIGHT, _settings, replay_as_objects


def jv(name: str = "pineapple", jokers: int = 2, **options) -> ofc.Variant:
    return ofc.variant(name, jokers=jokers, **options)


PARTIAL = "X1 Ad __ / Kd Kc __ __ __ / 7h 8h 9h __ __"


def test_rollout_deals_the_unseen_jokers():
    """Every completion keeps the placed cards and fills the empty slots with
    distinct unseen cards, X2 among them about as often as any card."""
    v = jv()
    lays = ofc.rollout(PARTIAL, n=20_000, variant=v, seed=3, result="layouts")[0]
    placed = np.asarray(ofc.parse_layout(PARTIAL, v))
    empty = placed == EMPTY
    assert (lays[:, ~empty] == placed[~empty]).all()
    filled = lays[:, empty]
    assert (np.sort(filled, axis=1)[:, 1:] != np.sort(filled, axis=1)[:, :-1]).all()
    on_board = set(placed[~empty].tolist())
    assert not np.isin(filled, list(on_board)).any() and (filled < 54).all()
    # 6 empty slots out of 54 - 8 unseen cards: each card in 6/46 of the completions
    share = (filled == JOKER + 1).any(axis=1).mean()
    assert abs(share - 6 / 46) < 0.01
    assert (filled == JOKER).sum() == 0              # X1 is on the board


@pytest.mark.parametrize("name, jokers, options", [
    ("pineapple", 2, {}), ("pineapple", 1, {"joker_objective": "royalties"}),
    ("pineapple-2-7", 2, {"joker_cards": "board"}), ("big-pineapple", 1, {}),
])
def test_rollout_results_are_evaluate_of_its_completions(name, jokers, options):
    """The same seed deals the same completions whatever the result asked:
    result="evals" and the stats are evaluate() of result="layouts", jokers
    resolved by the variant's options."""
    v = jv(name, jokers, **options)
    rng = np.random.default_rng(len(name) + jokers)
    parts = []
    for _ in range(6):
        lay = rng.permutation(v.deck_size)[:v.n_cards].astype(np.uint8)
        lay[rng.choice(v.n_cards, 5, replace=False)] = EMPTY
        parts.append(lay)
    parts = np.array(parts)
    fl = [0, 1, 0, 0, 2, 0] if v.fantasyland is not None else None
    kw = dict(n=300, variant=v, seed=9, in_fantasyland=fl)
    lays = ofc.rollout(parts, result="layouts", **kw)
    ev = ofc.rollout(parts, result="evals", **kw)
    st = ofc.rollout(parts, **kw)
    flat = lays.reshape(-1, v.n_cards)
    want = ofc.evaluate(flat, v, in_fantasyland=np.repeat(fl, 300) if fl else None)
    assert (np.asarray(ev.foul).ravel() == np.asarray(want.foul)).all()
    assert (ev.royalty_total.ravel() == np.asarray(want.royalty_total)).all()
    assert (ev.next_fantasyland.ravel() == np.asarray(want.next_fantasyland)).all()
    assert np.allclose(st.foul_rate, np.asarray(want.foul).reshape(6, 300).mean(axis=1))
    assert np.allclose(st.royalty_mean, ev.royalty_total.mean(axis=1))
    assert (flat >= JOKER).any()                     # jokers were dealt


def test_rollout_ev_scores_a_single_deal_exactly():
    """One unseen card, a joker: every completion is the same deal, so the
    ev is its points against the opponent exactly."""
    v = jv()
    hero = "X1 Ad 2c / Kd Kc 5s 5h 3d / 7h 8h 9h Th __"
    opp = "Qs Qd 4c / 6d 6c 6s 2d 2h / Ac Kh Qh Jd 9s"
    r = ofc.rollout_ev(hero, [opp], n=50, variant=v, seed=1, unseen="X2")
    full = hero.replace("__", "X2")
    assert r.ev[0] == ofc.score_pair(full, opp, v).points
    assert r.std_err[0] == 0 and r.foul_rate[0] == float(ofc.evaluate(full, v).foul[0])


def test_unseen_jokers_are_checked():
    with pytest.raises(CardError, match=r"X2 is a joker; variant pineapple is played with one "
                                        r"joker"):
        ofc.rollout(PARTIAL, n=10, variant=jv(jokers=1), unseen="X2 2c 3c 4c 5c 6c 7c")
    with pytest.raises(CardError, match="played without jokers"):
        ofc.is_dead("Kc Kd __ / __ __ __ __ __ / __ __ __ __ __", unseen="X1 2c",
                    variant="pineapple")
    with pytest.raises(CardError, match="not a 53-bit mask"):
        ofc.is_dead("Kc Kd __ / __ __ __ __ __ / __ __ __ __ __", unseen=1 << 53,
                    variant=jv(jokers=1))


def _last_decision(v: ofc.Variant, seed: int) -> Game:
    """A hand with a joker on the board, played at random up to the last
    decision, every other seat finished."""
    g = Game(v, 2, seed=seed, auto=False)
    rng = np.random.default_rng(seed)
    while True:
        moves = g.legal_moves()
        after = g.copy()
        after.play(moves[int(rng.integers(len(moves)))])
        if after.done:
            return g
        g = after


@pytest.mark.parametrize("seed", range(6))
def test_move_values_of_the_last_decision_are_exact(seed):
    """On the last decision the table is complete after every move: each
    move's ev (any seed, any n) is the points the hand then scores, the
    jokers resolved."""
    v = jv()
    g = _last_decision(v, seed)
    mv = ofc.move_values(g, n=20, seed=seed)
    seat = g.to_act
    for x in mv:
        end = g.copy()
        end.play(x.move)
        assert x.ev == end.result().points[seat], x.move
        assert x.ev_se == 0
        assert x.foul_rate == float(end.result().foul[seat])


def test_some_last_decisions_hold_jokers():
    """The cases above are joker cases: some of their tables hold jokers."""
    held = [(_last_decision(jv(), s).layouts >= JOKER).any() for s in range(6)]
    held = [bool(h) for h in held]
    assert any(held)


@pytest.mark.parametrize("name, jokers, P, policies, fantasyland", [
    ("pineapple", 2, 2, [("greedy", LIGHT), ("heuristic", LIGHT)], [0, 14]),
    ("pineapple-2-7", 1, 2, [("heuristic", LIGHT), "random"], None),
    ("pineapple", 1, 2, [("solver", {"n": 48, "time_budget_ms": None, "first_round": 8}),
                         ("greedy", LIGHT)], None),
])
def test_valued_policies_play_jokers_alike_as_batch_seats_and_objects(name, jokers, P, policies,
                                                                      fantasyland):
    """The greedy, heuristic and solver seats of a batch with jokers are the
    policy objects of the same names and parameters, move for move."""
    v = jv(name, jokers)
    hands = 2
    b = GameBatch(v, 3, P, seed=21, policies=policies, fantasyland=fantasyland)
    rec = b.run_recorded(hands)
    assert (rec.layouts >= JOKER).any()
    replay_as_objects(b, rec, hands, lambda stream: [
        BUILTIN[n](**_settings(p) if n != "random" else {}, stream=stream)
        for n, p in (policy_spec(e, "p") for e in policies)], fantasyland=fantasyland)


def test_valued_policies_with_jokers_foul_less_than_random():
    """A value check on the play: greedy seats foul far less than random
    ones in the same games."""
    b = GameBatch(jv(), 200, 2, seed=4, policies=[("greedy", LIGHT), "random"])
    rec = b.run_recorded(1)
    foul = rec.foul.mean(axis=0)
    assert foul[0] < 0.3 < foul[1]


@pytest.mark.parametrize("name, jokers", [("pineapple", 2), ("big-pineapple", 1)])
def test_racing_plays_jokers_alike_as_batch_seat_and_object(name, jokers):
    """The racing seat of a batch with jokers is RacingPolicy, move for move
    (the race scores a layout or a sample holding a joker through the cards)."""
    v = jv(name, jokers)
    policies = [("racing", LIGHT), "random"]
    b = GameBatch(v, 3, 2, seed=22, policies=policies)
    rec = b.run_recorded(2)
    assert (rec.layouts >= JOKER).any()
    replay_as_objects(b, rec, 2, lambda stream: [
        ofc.RacingPolicy(**LIGHT, stream=stream), ofc.RandomPolicy(stream=stream)])


@pytest.mark.slow
def test_racing_with_jokers_fouls_as_little_as_the_heuristic():
    """A value check on the race's joker path: in the same 300 games against
    random seats, racing fouls about as rarely as the exhaustive heuristic
    (both under 0.1, random over 0.5) and wins as many points."""
    v = jv()
    out = {}
    for pol in ("racing", "heuristic"):
        rec = GameBatch(v, 300, 2, seed=4, policies=[pol, "random"]).run_recorded(1)
        out[pol] = rec.foul.mean(axis=0), rec.points.mean(axis=0)[0]
    for pol, (foul, points) in out.items():
        assert foul[0] < 0.1 < 0.5 < foul[1], pol
        assert points > 7, pol
