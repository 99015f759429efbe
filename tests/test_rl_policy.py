"""From a trained network back to the table (ofc_fast.rl.policy, rl.evaluate,
the encoding of a PlayerView, the move <-> action mapping of MoveList) and
Python seats of a GameBatch: a PlayerView encodes as the environments encode
observe(); Game.legal_moves() lists observe()'s legal actions in order; a
function over observations plays alike in Game, Match and a batch;
evaluate_policy's figures against a hand computation.  numpy only: no
Gymnasium needed."""
from __future__ import annotations

import math

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast.errors import ArgumentError, MoveError, StateError
from ofc_fast.rl.encoding import ObservationEncoding
from ofc_fast.rl.evaluate import Evaluation, evaluate_policy
from ofc_fast.rl.policy import ObservationPolicy
from ofc_fast.sim import GameBatch
from ofc_fast.sim.spec import ArrayPolicy, BatchSpec

TABLES = [("pineapple", 3, {2: 14}), ("classic", 3, [13, 0, 0]), ("big-pineapple", 2, None),
          ("turbo-pineapple", 3, {0: 14}), ("progressive", 2, [0, 16]),
          ("pineapple-2-7", 2, None)]


def _pick(mask, rng):
    m = np.atleast_2d(mask).astype(bool)
    u = rng.random(len(m))[:, None] * m.sum(1)[:, None]
    return (m.cumsum(1) > u).argmax(1)


def _hashed(obs, mask):
    """A deterministic function of the observation: the legal action with the
    largest hash of (observation, action)."""
    w = (np.arange(mask.shape[1], dtype=np.int64) * 2654435761) % 1009
    s = obs.astype(np.int64) @ (np.arange(obs.shape[1]) % 7 + 1)
    return np.where(mask, (w[None, :] + s[:, None]) % 1013, -1).argmax(axis=1)


# ------------------------------------------------- the view, the moves, the actions
@pytest.mark.parametrize("variant, P, fl", TABLES)
def test_views_encode_and_moves_map_as_the_batch_observes(variant, P, fl):
    """Every seat of every game, each turn and at the showdown (fantasyland
    hands included): encode_view(Game.view(seat)) is encode(observe()); at
    each decision, legal_moves().actions() is observe()["legal"] in order,
    action_mask() is observe()["mask"], from_action inverts action, and an
    action the mask refuses is a MoveError naming why."""
    rng = np.random.default_rng(7)
    n = 5
    b = GameBatch(variant, n, P, seed=21, policies="external", fantasyland=fl, auto_deal=False)
    enc = ObservationEncoding(variant, P)
    views = turns = refused = 0
    for _hand in range(2):
        while True:
            for seat in range(P):
                x = enc.encode(b.observe(np.arange(n), seat, legal=False, mask=False))
                got = enc.encode_view([b.game(i).view(seat) for i in range(n)])
                assert (got == x).all(), (seat, np.flatnonzero((got != x).any(axis=1)))
                assert (enc.encode_view(b.game(0).view(seat)) == x[0]).all()
                views += n
            if not len(b.waiting):
                break
            o = b.observe()
            for j, i in enumerate(o["game"].tolist()):
                moves = b.game(i).legal_moves()
                actions = moves.actions()
                assert actions.tolist() == o["legal"][j, :o["n_legal"][j]].tolist()
                assert (moves.action_mask() == o["mask"][j]).all()
                for k in rng.choice(len(moves), min(len(moves), 6), replace=False).tolist():
                    assert moves.action(k) == actions[k]
                    assert moves.from_action(int(actions[k])) == moves[k]
                bad = np.flatnonzero(~o["mask"][j])
                for a in rng.choice(bad, 3, replace=False).tolist():
                    with pytest.raises(MoveError):
                        moves.from_action(a)
                    refused += 1
                turns += 1
            b.step(_pick(o["mask"], rng))
        b.next_hand()
    assert views > n * P * 8 and turns > n * 4 and refused == 3 * turns


def test_move_action_mapping_edges():
    g = ofc.Game("pineapple", 2, seed=3)
    moves = g.legal_moves()
    assert moves.action(-1) == moves.actions()[-1]
    with pytest.raises(ofc.MoveIndexError):
        moves.action(len(moves))
    with pytest.raises(ArgumentError, match="action"):
        moves.from_action(1024)
    with pytest.raises(TypeError, match="action"):
        moves.from_action(2.0)
    g.play(moves[0])
    with pytest.raises(StateError, match="stale"):
        moves.actions()
    # a digit beyond the cards dealt names no move (street 1 deals 3 cards)
    g.play(g.legal_moves()[0])
    m = g.legal_moves()
    with pytest.raises(MoveError, match="more than the 3 cards dealt"):
        m.from_action(m.action(0) + 64)
    # a fantasyland deal has no action: the engine sets it
    fl = ofc.Game("pineapple", 2, seed=1, fantasyland=[14, 0])
    while fl.view(fl.seat_to_act).street != -1:
        fl.play(fl.legal_moves()[0])
    with pytest.raises(StateError, match="fantasyland"):
        fl.legal_moves().actions()


# ------------------------------------------------------ a policy over observations
@pytest.mark.parametrize("variant, P, fl", TABLES[:4])
def test_an_observation_function_plays_alike_in_game_match_and_batch(variant, P, fl):
    """One deterministic function over observations: a batch of its seats
    (played in Python between the C calls), hand after hand with fantasyland
    carried, is the Match of ObservationPolicy objects, layout for layout and
    point for point; the batch counts its decisions."""
    pol = ObservationPolicy(_hashed, variant, P)
    hands = 3
    b = GameBatch(variant, 4, P, seed=5, policies=[pol] * P, fantasyland=fl)
    rec = b.run_recorded(hands)
    assert b.policies == ("python",) * P
    assert rec.game.tolist() == np.repeat(np.arange(4), hands).tolist()
    decisions = 0
    for i in range(4):
        m = ofc.Match(variant, P, n_hands=P * hands, seed=b.game_seed(i), fantasyland=fl)
        for k in range(hands):
            g = m.start_hand()
            g.run([pol] * P)
            m.end_hand()
            row = i * hands + k
            assert (g.layouts == rec.layouts[row]).all(), (i, k)
            assert g.result().points == tuple(rec.points[row].tolist()), (i, k)
            decisions += sum(t.auto is None and t.street >= 0 for t in g.history)
    assert int(b.decisions.sum()) == decisions
    assert rec.fantasyland_count.any() or fl is None


def test_python_seats_beside_built_in_seats():
    """A Python seat beside a built-in one plays what an external seat stepped
    by the same choices plays; a Policy object (choose) and an ArrayPolicy
    (act) making the same choices give the same hands; run(k) plays k hands
    and deals the next (auto_deal), or stops at the showdown."""
    class FirstLegal:
        def act(self, obs):
            return obs["legal"][:, 0]

    class FirstMove:
        def choose(self, view, moves):
            return moves[0]

    assert isinstance(FirstLegal(), ArrayPolicy)
    a = GameBatch("pineapple", 6, 2, seed=3, policies=[FirstLegal(), "random"])
    ra = a.run_recorded(3)
    rb = GameBatch("pineapple", 6, 2, seed=3, policies=[FirstMove(), "random"]).run_recorded(3)
    assert (ra.layouts == rb.layouts).all() and (ra.points == rb.points).all()
    assert a.hands_played.tolist() == [3] * 6 and not a.over.any()
    ext = GameBatch("pineapple", 6, 2, seed=3, policies=["external", "random"], auto_deal=False)
    layouts = []
    for k in range(3):
        while len(ext.waiting):
            ext.step(ext.observe()["legal"][:, 0])
        layouts.append(ext.last_hands().layouts)
        if k < 2:
            ext.next_hand()
    assert (np.stack(layouts, 1).reshape(-1, 2, 13) == ra.layouts).all()
    # the run's points are the hands' points; without auto_deal the games wait over
    c = GameBatch("pineapple", 6, 2, seed=3, policies=[FirstLegal(), "random"], auto_deal=False)
    points = c.run(2)
    assert c.over.all() and c.hands_played.tolist() == [2] * 6
    assert points.tolist() == ra.points.reshape(6, 3, 2)[:, :2].sum(axis=1).tolist()
    c.run(1)
    assert c.hands_played.tolist() == [3] * 6


def test_python_seats_errors():
    class Bad:
        def __init__(self, out):
            self.out = out

        def act(self, obs):
            return self.out(obs)

    cases = [(lambda o: o["legal"][:, 0][:-1], ArgumentError, "shape"),
             (lambda o: o["legal"][:, 0] * 0.5, TypeError, "integers"),
             (lambda o: np.full(len(o["game"]), 5000), ArgumentError, r"0 \.\. 1023"),
             (lambda o: (o["legal"][:, 0] + 64 * 3), MoveError, "game")]
    for out, exc, text in cases:
        b = GameBatch("pineapple", 3, 2, seed=1, policies=[Bad(out), "random"])
        with pytest.raises(exc, match=text):
            b.run(1)
    b = GameBatch("pineapple", 3, 2, seed=1, policies=[Bad(lambda o: o["legal"][:, 0]), "random"])
    with pytest.raises(StateError, match="Python policy"):
        b.step(np.zeros(0, np.int64))
    with pytest.raises(ArgumentError, match="not both"):
        BatchSpec.check("pineapple", 2, policies=[Bad(None), "external"])
    with pytest.raises(TypeError, match="function"):
        ObservationPolicy(3, "pineapple", 2)
    pol = ObservationPolicy(_hashed, "pineapple", 3)
    with pytest.raises(ArgumentError, match="observation"):   # a policy of another table
        GameBatch("pineapple", 2, 2, seed=1, policies=[pol, "random"]).run(1)
    with pytest.raises(ArgumentError, match="table of 2"):
        pol.encoding.encode_view(ofc.Game("pineapple", 2, seed=1).view(0))
    with pytest.raises(TypeError, match="PlayerView"):
        pol.encoding.encode_view("view")


# ----------------------------------------------------------------------- evaluation
def test_evaluation_figures_are_the_hands_figures():
    """evaluate_policy against a hand computation: Matches of the same policy
    objects on the same seeds, one rotation of seats after another, and the
    figures computed from their HandResults."""
    class LastMove:
        def choose(self, view, moves):
            return moves[len(moves) - 1]

    P, n, per = 3, 8, 2
    hero = ObservationPolicy(_hashed, "pineapple", P)
    opponents = [LastMove(), ObservationPolicy(lambda o, m: m.argmax(axis=1), "pineapple", P)]
    ev = evaluate_policy(hero, opponents, "pineapple", P, n_hands=n, seed=9, match_hands=per)
    pts = np.zeros((P, n // per, per))
    foul = roy = fl = 0
    for r in range(P):
        seats = [None] * P
        seats[r] = hero
        seats[(r + 1) % P], seats[(r + 2) % P] = opponents
        for i in range(n // per):
            m = ofc.Match("pineapple", P, n_hands=P * per, seed=[9, i])
            for k in range(per):
                res = m.start_hand().run(seats)
                m.end_hand()
                pts[r, i, k] = res.points[r]
                foul += res.foul[r]
                roy += res.royalty_total[r]
                fl += res.next_fantasyland[r] > 0
    assert isinstance(ev, Evaluation) and ev.n_hands == P * n
    assert ev.points == pytest.approx(pts.mean())
    per_match = pts.mean(axis=(0, 2))
    assert ev.points_se == pytest.approx(per_match.std(ddof=1) / math.sqrt(n // per))
    assert ev.foul_rate == pytest.approx(foul / (P * n))
    assert ev.royalties == pytest.approx(roy / (P * n))
    assert ev.fantasyland_rate == pytest.approx(fl / (P * n))
    assert ev.by_seat == pytest.approx(tuple(pts.mean(axis=(1, 2))))
    assert "points/hand" in str(ev)


def test_evaluation_of_built_in_policies_and_functions():
    """Built-in policies play in C, from the same seed the same figures; a
    function is an ObservationPolicy; the same deals in every rotation."""
    light = ("greedy", {"samples": 2, "tries": 2})
    a = evaluate_policy(light, "random", n_hands=60, seed=4)
    assert a == evaluate_policy(light, "random", n_hands=60, seed=4, n_threads=2)
    assert a.points > 2 and a.foul_rate < 0.5
    same = evaluate_policy("random", "random", n_hands=40, seed=4)
    assert same.points == pytest.approx(0.0)                 # the same deals, seats swapped
    f = evaluate_policy(_hashed, "random", n_hands=20, seed=1)
    g = evaluate_policy(ObservationPolicy(_hashed, "pineapple", 2), "random", n_hands=20, seed=1)
    assert f == g and f.n_hands == 40
    assert math.isnan(evaluate_policy("random", n_hands=1, seed=1).points_se)
    with pytest.raises(ArgumentError, match="multiple of match_hands"):
        evaluate_policy("random", n_hands=5, match_hands=2)
    with pytest.raises(ArgumentError, match="other seat"):
        evaluate_policy("random", ["random", "random"], n_players=2)
    with pytest.raises(TypeError, match="policy"):
        evaluate_policy(3)
    with pytest.raises(ArgumentError, match="external"):
        evaluate_policy("external")
