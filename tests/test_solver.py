"""move_values, SolverPolicy and Game.from_position (ofc_fast.solver, ofc_fast.engine).

move_values(completion="random") is checked against a slow Monte Carlo written
plainly here: its own completions (Python's random module) scored by the
reference scorer tests/slow_scorer.py, which shares no code with the kernels.
"""
import math
import pickle
import random

import numpy as np
import pytest

import ofc_fast as ofc
import slow_scorer as slow
from ofc_fast.engine import Game
from ofc_fast.moves import DISCARD
from ofc_fast.policies import RandomPolicy
from ofc_fast.rollouts import is_dead
from ofc_fast.solver import MAX_MOVES, MoveValues, SolverPolicy, move_values
from solver_reference import ReferencePolicy

EMPTY = 255


# ------------------------------------------------------------ the slow reference
def slow_move_value(game, move, n, fantasyland_value, rng):
    """Mean and standard error of the move's value by n plain random completions.

    Uses only the player's view: its layout, the opponents' visible cards and
    its unseen cards.  Each completion shuffles the unseen cards, deals the
    opponents' empty slots and the player's (after the move), and scores the
    player against each opponent with slow_scorer."""
    v = game.variant
    seat = game.to_act
    view = game.view(seat)
    rules = slow.rules(v.name)
    sizes = v.row_sizes
    offs = [sum(sizes[:i]) for i in range(len(sizes))]
    hero = [int(c) for c in view.layout]
    for card, row in zip(move.cards, move.rows, strict=True):
        if row == DISCARD:
            continue
        slot = next(i for i in range(offs[row], offs[row] + sizes[row]) if hero[i] == EMPTY)
        hero[slot] = int(card)
    opps = [[int(c) for c in view.layouts[q]] for q in range(game.n_players) if q != seat]
    counts = view.fantasyland_count
    opp_counts = [counts[q] for q in range(game.n_players) if q != seat]
    unseen = [int(c) for c in view.unseen]
    values = []
    for _ in range(n):
        deck = unseen[:]
        rng.shuffle(deck)
        h = [deck.pop() if c == EMPTY else c for c in hero]
        eh = slow.evaluate(h, rules, counts[seat])
        pts = 0
        for o, k in zip(opps, opp_counts, strict=True):
            filled = [deck.pop() if c == EMPTY else c for c in o]
            pts += slow.points(eh, slow.evaluate(filled, rules, k), rules)
        values.append(pts + (fantasyland_value if eh.fantasyland else 0))
    mean = sum(values) / n
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, math.sqrt(var / n)


def play_random(game, turns, seed):
    # uniform move indexes of numpy's stream (the positions the values here were chosen on)
    u = np.random.default_rng(seed).random(turns)
    for i in range(turns):
        if game.done:
            break
        moves = game.legal_moves()
        game.play(moves[int(u[i] * len(moves))])
    return game


POSITIONS = {
    "pineapple 2p first street": lambda: Game("pineapple", 2, seed=21),
    "pineapple 3p first street": lambda: Game("pineapple", 3, seed=22),
    "pineapple 2p mid-hand": lambda: play_random(Game("pineapple", 2, seed=23), 5, 1),
    "pineapple 3p mid-hand": lambda: play_random(Game("pineapple", 3, seed=24), 7, 2),
    "progressive 3p last street": lambda: play_random(Game("progressive", 3, seed=25), 12, 3),
    "big-pineapple first street": lambda: Game("big-pineapple", 2, seed=26),
    "big-pineapple mid-hand": lambda: play_random(Game("big-pineapple", 2, seed=27), 5, 4),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_random_values_match_a_slow_monte_carlo(name):
    g = POSITIONS[name]()
    assert not g.done
    n_moves = len(g.legal_moves())
    rng = random.Random(name)
    picks = sorted({0, n_moves // 2, n_moves - 1, rng.randrange(n_moves)})
    fv = 7 if "pineapple 2p" in name or "progressive" in name else 0
    mv = move_values(g, n=40_000, seed=5, moves=picks, fantasyland_value=fv)
    assert mv.move_index.tolist() == picks
    for i, x in zip(picks, mv, strict=True):
        assert x.move == g.legal_moves()[i]
        ref, ref_se = slow_move_value(g, x.move, 1500, fv, rng)
        # a rare outcome may not show in the slow sample: its standard error
        # is at least what the fast sample's spread gives for 1500 completions
        ref_se = max(ref_se, x.ev_se * math.sqrt(40_000 / 1500))
        se = math.hypot(x.ev_se, ref_se)
        assert abs(x.ev - ref) <= 4 * se, (name, i, x.ev, ref, se)


def test_values_are_the_whole_list_in_legal_move_order():
    g = Game("pineapple", 3, seed=11)
    mv = move_values(g, n=300, seed=1)
    moves = g.legal_moves()
    assert len(mv) == len(moves) == 232
    assert list(mv.moves) == list(moves)
    assert mv.move_index.tolist() == list(range(len(moves)))
    # a subset has exactly the values the whole list gives those moves
    sub = move_values(g, n=300, seed=1, moves=[5, moves[17], -1])
    assert sub.move_index.tolist() == [5, 17, len(moves) - 1]
    assert sub.ev.tolist() == mv.ev[[5, 17, -1]].tolist()
    assert sub.ev_se.tolist() == mv.ev_se[[5, 17, -1]].tolist()
    for completion in ("random", "best"):
        a = move_values(g, n=200, seed=3, completion=completion, moves=[0, 9, 40])
        b = move_values(g, n=200, seed=3, completion=completion, moves=[40, 0])
        assert b.ev.tolist() == [a.ev[2], a.ev[0]]


def test_rates_and_points_add_up():
    g = play_random(Game("pineapple", 2, seed=4), 4, 9)
    mv = move_values(g, n=3000, seed=2, fantasyland_value=12.5)
    assert np.allclose(mv.ev, mv.points_mean + 12.5 * mv.fantasyland_rate)
    assert ((0 <= mv.foul_rate) & (mv.foul_rate <= 1)).all()
    assert ((0 <= mv.fantasyland_rate) & (mv.fantasyland_rate <= 1)).all()
    assert (mv.ev_se > 0).all()
    no_fl = move_values(g, n=3000, seed=2)
    assert no_fl.points_mean.tolist() == mv.points_mean.tolist()


def test_common_random_numbers_make_differences_precise():
    # two moves that differ in one card's row, valued on the same decks: their
    # difference is far less noisy than when each meets its own decks
    g = Game("pineapple", 2, seed=8)
    moves = g.legal_moves()
    assert sum(a != b for a, b in zip(moves[10].rows, moves[11].rows, strict=True)) == 1
    same, apart = [], []
    for seed in range(60):
        mv = move_values(g, n=200, seed=seed, moves=[10, 11])
        other = move_values(g, n=200, seed=seed + 1000, moves=[11])
        same.append(mv.ev[0] - mv.ev[1])
        apart.append(mv.ev[0] - other.ev[0])
    assert np.std(same) < 0.8 * np.std(apart)


@pytest.mark.slow
def test_deterministic_by_seed_and_across_threads():
    g = Game("pineapple", 3, seed=12)
    ref = move_values(g, n=700, seed=42, completion="best", fantasyland_value=10)
    for n_threads in (1, 2, 3, None):
        mv = move_values(g, n=700, seed=42, completion="best", fantasyland_value=10,
                         n_threads=n_threads)
        for f in ("ev", "ev_se", "foul_rate", "royalty_mean", "fantasyland_rate"):
            assert getattr(mv, f).tolist() == getattr(ref, f).tolist(), (n_threads, f)
    other = move_values(g, n=700, seed=43, completion="best", fantasyland_value=10)
    assert other.ev.tolist() != ref.ev.tolist()
    assert move_values(g, n=700, seed=np.random.SeedSequence(42), completion="best",
                       fantasyland_value=10).ev.tolist() == ref.ev.tolist()


def test_the_view_only():
    # what the player cannot see does not change the values: another deck
    # order behind the same position gives the same numbers
    g = play_random(Game("pineapple", 2, seed=30), 3, 5)
    view = g.view(g.to_act)
    h = Game.from_position("pineapple", g.layouts, discards={g.to_act: g.discards(g.to_act)},
                           hand=g.hand, button=g.button, seed=99)
    assert h.to_act == g.to_act
    assert h.view(h.to_act).seen_mask == view.seen_mask
    a = move_values(g, n=500, seed=1)
    b = move_values(h, n=500, seed=1)
    assert a.ev.tolist() == b.ev.tolist()


def test_move_values_api():
    g = Game("pineapple", 2, seed=3)
    mv = move_values(g, n=400, seed=2, fantasyland_value=5)
    assert isinstance(mv, MoveValues)
    best = mv.best()
    assert best.ev == mv.ev.max() and best.move_index == int(np.argmax(mv.ev))
    top = mv.top(5)
    assert [x.ev for x in top] == sorted(mv.ev.tolist(), reverse=True)[:5]
    assert top[0] == best and mv.top(0) == [] and len(mv.top(10_000)) == len(mv)
    assert mv[-1] == list(mv)[-1]
    assert mv[3].move == g.legal_moves()[3]
    text = mv.format(3)
    assert len(text.splitlines()) == 4 and "ev" not in text.splitlines()[0]
    assert "MoveValues" in repr(mv)
    with pytest.raises(IndexError):
        mv[len(mv)]
    with pytest.raises(TypeError):
        mv["a"]
    with pytest.raises(ValueError):
        mv.top(-1)


@pytest.mark.parametrize("kwargs, exc, words", [
    (dict(n=0), ValueError, "n must be"),
    (dict(n=1.5), ValueError, "n must be an integer, got 1.5"),
    (dict(n="10"), TypeError, "n must be"),
    (dict(completion="greedy"), ValueError, "unknown completion model 'greedy'"),
    (dict(n_threads=0), ValueError, "n_threads"),
    (dict(n_threads="2"), TypeError, "n_threads"),
    (dict(fantasyland_value=float("nan")), ValueError, "fantasyland_value"),
    (dict(fantasyland_value="big"), TypeError, "fantasyland_value"),
    (dict(tries=0), ValueError, "tries"),
    (dict(seed=-1), ValueError, "seed"),
    (dict(moves=[10_000]), ofc.MoveError, "out of range"),
    (dict(moves=[True]), TypeError, "a move is"),
    (dict(moves="0 1"), TypeError, "moves"),
    (dict(moves=[((0,), (0,))]), ofc.MoveError, "not among the cards dealt"),
])
def test_bad_arguments(kwargs, exc, words):
    g = Game("pineapple", 2, seed=3)
    with pytest.raises(exc, match=words):
        move_values(g, **{"n": 100, **kwargs})


def test_not_a_game_and_finished_hand():
    with pytest.raises(TypeError, match="takes a Game"):
        move_values("pineapple")
    g = Game("pineapple", 2, seed=1)
    g.run(RandomPolicy(1))
    with pytest.raises(ofc.MoveError, match="hand is over"):
        move_values(g)


def test_fantasyland_positions():
    g = Game("pineapple", 2, seed=6, fantasyland=[14, 0])
    assert g.street == -1
    total = len(g.legal_moves())
    assert total > MAX_MOVES
    with pytest.raises(ValueError, match="moves="):
        move_values(g, n=10)
    sol = ofc.solve_fantasyland(np.array(g.hand, np.uint8), g.variant)
    pol = SolverPolicy(seed=1)
    choice = pol.choose(g.view(g.to_act), g.legal_moves())
    assert sorted(c for c, r in zip(choice.cards, choice.rows, strict=True) if r != DISCARD) == \
        sorted(sol.layout.tolist())
    # a few moves of the fantasyland hand: its layout is complete, the opponent's completed
    mv = move_values(g, n=500, seed=1, moves=[choice, 0])
    assert mv.foul_rate[0] == 0 and mv.foul_rate[1] in (0, 1)
    g.play(choice)
    # the other player faces a hidden fantasyland hand: unknown cards, completed too
    view = g.view(g.to_act)
    assert (view.layouts[1 - g.to_act] == EMPTY).all()
    mv = move_values(g, n=500, seed=2)
    assert len(mv) == len(g.legal_moves())
    # everybody in fantasyland
    g = Game("pineapple", 2, seed=7, fantasyland=[14, 14])
    g.play(SolverPolicy(seed=1).choose(g.view(g.to_act), g.legal_moves()))
    mv = move_values(g, n=50, seed=2, moves=[0])
    assert len(mv) == 1


def test_three_players_with_hidden_fantasyland():
    g = Game("pineapple", 3, seed=9, fantasyland=[0, 14, 0])
    g.play(SolverPolicy(seed=1).choose(g.view(g.to_act), g.legal_moves()))
    mv = move_values(g, n=2000, seed=2, moves=[0, 5])
    rng = random.Random(3)
    for x in mv:
        ref, ref_se = slow_move_value(g, x.move, 600, 0, rng)
        ref_se = max(ref_se, x.ev_se * math.sqrt(2000 / 600))
        assert abs(x.ev - ref) <= 4 * math.hypot(x.ev_se, ref_se)


@pytest.mark.slow
def test_the_docs_examples():
    # docs/solver.md's examples print what they claim (the SolverPolicy lines,
    # which depend on the clock, are skipped)
    import doctest
    import pathlib
    page = pathlib.Path(__file__).resolve().parent.parent / "docs" / "solver.md"
    if not page.exists():
        pytest.skip("docs/solver.md is not beside tests/")
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10 and result.failed == 0


# ----------------------------------------------------------------- SolverPolicy
class Checked:
    """Wraps SolverPolicy: checks that it never kills a live hand."""

    def __init__(self, pol):
        self.pol = pol
        self.decisions = 0

    def choose(self, view, moves):
        move = self.pol.choose(view, moves)
        if view.street != -1 and len(moves) > 1:
            lays, _ = moves.layouts()
            pool = ofc.rollouts.ALL_CARDS & ~view.seen_mask
            dead = np.asarray(is_dead(lays, pool, view.variant))
            if not dead.all():
                assert not dead[moves.index(move)], (view, move)
            self.decisions += 1
        return move


@pytest.mark.parametrize("variant, players", [("pineapple", 2), ("pineapple", 3),
                                              ("big-pineapple", 2), ("classic", 2)])
def test_solver_policy_plays_legal_live_moves(variant, players):
    pol = Checked(SolverPolicy(seed=1, time_budget_ms=4, n=400))
    for seed in range(3):
        g = Game(variant, players, seed=seed, auto=False)
        res = g.run([pol] + [RandomPolicy(seed)] * (players - 1))
        assert sum(res.points) == 0
    assert pol.decisions > 0


def test_solver_policy_avoids_dead_moves():
    # top K K over a middle of two pair: the K of spades on top makes trips
    # there, a dead hand; the 9 or the 2 on top keeps it alive
    g = Game.from_position("pineapple", [
        "2c 2d 3h / 4c 5c 6c 7d 9c / Tc Jc Jh Jd Js",
        "Kc Kd __ / Qh Qs 3c 3d __ / 5s 6s 7s 8s 9d"],
        button=1, discards=[None, "Ah Ad Ac"], hand="Ks 9h 2h", seed=1, auto=False)
    assert g.to_act == 1 and g.street == 4
    moves = g.legal_moves()
    view = g.view(g.to_act)
    lays, _ = moves.layouts()
    dead = np.asarray(is_dead(lays, ofc.rollouts.ALL_CARDS & ~view.seen_mask, g.variant))
    assert dead.sum() == 2 and len(moves) == 6
    for budget in (None, 5):
        for completion in ("best", "random"):
            pol = SolverPolicy(seed=2, time_budget_ms=budget, n=200, completion=completion)
            move = pol.choose(view, moves)
            assert not dead[moves.index(move)]


def test_solver_policy_is_deterministic_without_time_budget():
    def play(seed):
        g = Game("pineapple", 2, seed=seed)
        return g.run([SolverPolicy(seed=5, time_budget_ms=None, n=300), RandomPolicy(1)])
    assert play(3) == play(3)


def test_solver_policy_keeps_to_its_budget():
    g = Game("pineapple", 3, seed=2)
    pol = SolverPolicy(seed=1, time_budget_ms=30)
    pol.choose(g.view(g.to_act), g.legal_moves())           # warm up
    pol.choose(g.view(g.to_act), g.legal_moves())
    assert pol.last["ms"] < 30 * 4          # about the budget (a shared, busy machine)
    assert pol.last["completions"] >= 32


@pytest.mark.parametrize("kwargs, exc", [
    (dict(n=0), ValueError), (dict(time_budget_ms=0), ValueError),
    (dict(time_budget_ms="1"), TypeError), (dict(completion="x"), ValueError),
    (dict(fantasyland_value=float("inf")), ValueError), (dict(z=-1), ValueError),
    (dict(z="2"), TypeError), (dict(first_round=0), ValueError), (dict(tries=0), ValueError),
    (dict(seed="s"), TypeError),
])
def test_solver_policy_bad_arguments(kwargs, exc):
    with pytest.raises(exc):
        SolverPolicy(**kwargs)


def test_solver_policy_in_a_match_pickles():
    m = ofc.Match("pineapple", 2, seed=3, policies=[SolverPolicy(seed=1, time_budget_ms=3),
                                                     RandomPolicy(2)])
    m.play_hand()
    m2 = pickle.loads(pickle.dumps(m))
    assert m2.scores.tolist() == m.scores.tolist()


# --------------------------------------------------------- rollouts on threads
def test_rollouts_identical_on_threads():
    v = ofc.variant("pineapple")
    rng = np.random.default_rng(0)
    lays = np.full((40, 13), EMPTY, np.uint8)
    for i in range(40):
        lays[i, rng.choice(13, 5, replace=False)] = rng.permutation(52)[:5]
    for kwargs in (dict(), dict(completion="best", tries=4), dict(result="evals"),
                   dict(result="layouts")):
        a = ofc.rollout(lays, n=300, variant=v, seed=7, **kwargs)
        for n_threads in (2, 3, None):
            b = ofc.rollout(lays, n=300, variant=v, seed=7, n_threads=n_threads, **kwargs)
            if isinstance(a, np.ndarray):
                assert (a == b).all()
            else:
                for f in a.__dataclass_fields__:
                    x, y = getattr(a, f), getattr(b, f)
                    assert np.array_equal(x, y), (kwargs, f)
    opp = ofc.parse_layouts(["__ __ __ / __ __ __ __ __ / __ __ __ __ __"], v)
    a = ofc.rollout_ev(lays, opp, n=300, variant=v, seed=7)
    b = ofc.rollout_ev(lays, opp, n=300, variant=v, seed=7, n_threads=2)
    for f in a.__dataclass_fields__:
        assert np.array_equal(getattr(a, f), getattr(b, f))
    with pytest.raises(ValueError, match="n_threads"):
        ofc.rollout(lays, n=10, variant=v, n_threads=0)
    with pytest.raises(TypeError, match="n_threads"):
        ofc.rollout_ev(lays, opp, n=10, variant=v, n_threads=1.5)


def test_rollout_errors_name_the_first_bad_layout_on_threads():
    v = ofc.variant("pineapple")
    lays = np.full((30, 13), EMPTY, np.uint8)
    lays[:, 0] = 7
    unseen = np.full(30, ofc.rollouts.ALL_CARDS, np.uint64)
    unseen[21] = 1 << 51        # too few cards for 12 slots
    unseen[25] = 1 << 50
    with pytest.raises(ValueError, match=r"partial\[21\]"):
        ofc.rollout(lays, n=5, variant=v, unseen=unseen, n_threads=3)


# -------------------------------------------------------------- from_position
def test_from_position_rebuilds_a_position():
    for variant, players, turns in (("pineapple", 3, 7), ("pineapple", 2, 0),
                                    ("big-pineapple", 2, 5), ("classic", 2, 9),
                                    ("pineapple", 3, 15)):
        g = play_random(Game(variant, players, seed=turns, button=1), turns, turns)
        h = Game.from_position(variant, g.layouts,
                               discards=[g.discards(p) for p in range(players)],
                               hand=g.hand if not g.done else None, button=1, seed=3)
        assert (h.to_act, h.street, h.done) == (g.to_act, g.street, g.done)
        assert h.hand == g.hand
        for p in range(players):
            assert sorted(h.layout(p).tolist()) == sorted(g.layout(p).tolist())
            assert sorted(h.discards(p).tolist()) == sorted(g.discards(p).tolist())
            assert h.view(p).seen_mask == g.view(p).seen_mask
        assert pickle.loads(pickle.dumps(h)) == h
        if not h.done:
            h.run(RandomPolicy(1))
        assert sum(h.result().points) == 0


def test_from_position_draws_what_it_is_not_given():
    lay = ["__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __",
           "As __ __ / 2c 2d __ __ __ / Tc Jc __ __ __"]
    g = Game.from_position("pineapple", lay, seed=4)
    h = Game.from_position("pineapple", lay, seed=4)
    assert g == h and g.to_act == 1 and g.street == 1 and len(g.hand) == 3
    assert Game.from_position("pineapple", lay, seed=5).deck.tolist() != g.deck.tolist()
    # a fantasyland opponent who has played face down
    g = Game.from_position("pineapple", [[EMPTY] * 13, lay[0]], fantasyland=[14, 0], seed=1)
    assert g.to_act == 1 and g.street == 1
    assert (g.layout(0) != EMPTY).all() and len(g.discards(0)) == 1
    assert (g.view(1).layouts[0] == EMPTY).all()


@pytest.mark.parametrize("kwargs, exc, words", [
    (dict(to_act=0), ValueError, "at this position seat 1 acts"),
    (dict(street=2), ValueError, "plays street 1"),
    (dict(street="1"), ValueError, "street"),
    (dict(hand="Qh Qs"), ValueError, "dealt 3 cards"),
    (dict(hand="Qh Qs 3d 4h"), ValueError, r"dealt 3 cards now, the hand gives 4"),
    (dict(hand="Kd Qs 2h"), ofc.CardError, "Kd is both"),
    (dict(hand="Zz Qs 2h"), ofc.CardError, "hand"),
    (dict(discards=[None, "4s"]), ValueError, "discarded 0"),
    (dict(discards=["4s 5s", None]), ValueError, "discarded 0"),
    (dict(discards="4s"), TypeError, "discards"),
    (dict(button=2), ValueError, "button"),
    (dict(to_act=5), ValueError, "to_act"),
    (dict(names=["a", "b", "c"]), ValueError, "layouts"),
])
def test_from_position_refuses_what_cannot_be(kwargs, exc, words):
    lay = ["__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __",
           "As __ __ / 2c 2d __ __ __ / Tc Jc __ __ __"]
    with pytest.raises(exc, match=words):
        Game.from_position("pineapple", lay, **kwargs)


def test_from_position_refuses_impossible_layouts():
    ok = "As __ __ / 2c 2d __ __ __ / Tc Jc __ __ __"
    with pytest.raises(ValueError, match="placed 6 cards"):
        Game.from_position("pineapple", ["__ __ __ / Kd Kc __ __ __ / 7h 8h 9h 2s __", ok])
    with pytest.raises(ValueError, match="not a position of the deal"):
        # seat 0 acts after seat 1: it cannot be a street ahead
        Game.from_position("pineapple", ["Ks __ __ / Kd Kc __ __ __ / 7h 8h 9h 3s __", ok])
    with pytest.raises(ofc.CardError, match="Kd is both"):
        Game.from_position("pineapple", ["__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __",
                                         "As __ __ / 2c Kd __ __ __ / Tc Jc __ __ __"])
    with pytest.raises(ofc.LayoutError):
        Game.from_position("pineapple", [[60] + [EMPTY] * 12, [EMPTY] * 13])
    with pytest.raises(ValueError):
        Game.from_position("pineapple", [[EMPTY] * 13] * 4)
    with pytest.raises(TypeError, match="layouts"):
        Game.from_position("pineapple", 5)


# ------------------------------------------- the policy's choice and its values (issue 16)
def _best_ev_index(mv):
    """The first move of highest value (MoveValues.best's order)."""
    return int(np.flatnonzero(mv.ev == mv.ev.max())[0])


@pytest.mark.parametrize("completion, fv", [("random", 0), ("best", 25)])
@pytest.mark.parametrize("first_round", [400, 32])
@pytest.mark.parametrize("name", ["pineapple 2p first street", "pineapple 3p mid-hand",
                                  "pineapple 2p mid-hand"])
def test_solver_policy_plays_the_best_move_by_its_values(name, first_round, completion, fv):
    # With its clock off, a decision depends only on its seed and the position:
    # completion k of every move is the deck move_values deals as completion k
    # (the same generator gives the same kernel seed), so the move played is
    # the best by move_values over as many completions.  One round of 400
    # (first_round=400) values every move on all of them; rounds from 32 drop
    # moves on the way, and the best is never dropped here.
    g = POSITIONS[name]()
    moves = g.legal_moves()
    pol = SolverPolicy(n=400, seed=np.random.default_rng(5), time_budget_ms=None,
                       completion=completion, fantasyland_value=fv, first_round=first_round,
                       tries=4)
    move = pol.choose(g.view(g.to_act), moves)
    assert pol.last["completions"] == 400
    mv = move_values(g, n=400, seed=np.random.default_rng(5), completion=completion,
                     fantasyland_value=fv, tries=4)
    best = _best_ev_index(mv)
    assert moves.index(move) == best, (mv.ev[moves.index(move)], mv.ev[best])
    assert mv.best().move == move
    # the worst move is a different one: the test tells best from worst
    assert mv.ev.min() < mv.ev.max()


DEAD_SPOT = dict(variant="pineapple", layouts=[
    "2c 2d 3h / 4c 5c 6c 7d 9c / Tc Jc Jh Jd Js",
    "Kc Kd __ / Qh Qs 3c 3d __ / 5s 6s 7s 8s 9d"],
    button=1, discards=[None, "Ah Ad Ac"], hand="Ks 9h 2h", seed=1, auto=False)


@pytest.mark.parametrize("completion", ["random", "best"])
def test_solver_policy_falls_back_from_a_dead_move_of_highest_value(monkeypatch, completion):
    # A dead move normally has the lowest value, so the fallback seldom acts;
    # here the sums are patched so that the two dead moves (the K of spades
    # on top) are worth 1000 points a completion more: the policy must still
    # play the best live move, after checking the dead ones.  The sums can
    # be patched in the Python reference of the decision only (the C one
    # equals it: test_solver_decision.py, where natural positions make the
    # fallback act).
    import ofc_fast.solver as solver
    g = Game.from_position(**DEAD_SPOT)
    moves = g.legal_moves()
    view = g.view(g.to_act)
    lays, _ = moves.layouts()
    dead = np.asarray(is_dead(lays, ofc.rollouts.ALL_CARDS & ~view.seen_mask, g.variant))
    assert dead.tolist().count(True) == 2
    real = solver._sums

    def boosted(pos, k0, k1, *args, rows=None, **kw):
        acc = real(pos, k0, k1, *args, rows=rows, **kw)
        index = np.arange(len(pos.layouts)) if rows is None else np.asarray(rows)
        acc[dead[index], solver._P] += 1000 * (k1 - k0)
        return acc
    monkeypatch.setattr(solver, "_sums", boosted)
    mv = move_values(g, n=300, seed=np.random.default_rng(3), completion=completion, tries=4)
    assert dead[np.argsort(-mv.ev, kind="stable")[:2]].all()     # the dead moves lead
    live_ev = np.where(dead, -np.inf, mv.ev)
    for first_round in (300, 16):
        pol = ReferencePolicy(n=300, seed=np.random.default_rng(3), time_budget_ms=None,
                              completion=completion, tries=4, first_round=first_round)
        move = pol.choose(view, moves)
        i = moves.index(move)
        assert not dead[i]
        assert pol.last["dead_checks"] == 3       # two dead moves, then the live one
        if first_round == 300:                    # one round: every move on every completion
            assert mv.ev[i] == live_ev.max()


def test_solver_policy_ranks_the_moves_still_in_first(monkeypatch):
    # Fabricated sums: moves 7 and 9 are worth 100 a completion in the first
    # round and -100 after, move 5 always 50, the rest 0.  With z=0 the first
    # round drops all but 7 and 9; their final mean, 0, is below move 5's
    # when it was dropped (50), yet a move still in is played (docs: the
    # moves still in by value, then the dropped ones).  In the Python
    # reference of the decision, which the C one equals (test_solver_decision.py).
    import ofc_fast.solver as solver
    g = Game("pineapple", 2, seed=21)
    moves = g.legal_moves()

    def fake(pos, k0, k1, *args, rows=None, **kw):
        rows = np.arange(len(pos.layouts)) if rows is None else np.asarray(rows)
        value = np.zeros(len(pos.layouts), np.int64)
        value[[7, 9]] = 100 if k0 == 0 else -100
        value[5] = 50
        acc = np.zeros((len(rows), solver.VALUE_SUMS), np.int64)
        acc[:, solver._P] = value[rows] * (k1 - k0)
        acc[:, solver._PP] = value[rows] ** 2 * (k1 - k0)
        return acc
    monkeypatch.setattr(solver, "_sums", fake)
    pol = ReferencePolicy(n=64, seed=1, time_budget_ms=None, z=0, first_round=32)
    move = pol.choose(g.view(g.to_act), moves)
    assert pol.last["rounds"] == [(len(moves), 32), (2, 32)] and pol.last["left"] == 2
    assert moves.index(move) == 7


# The spot for the standard error: seat 0 (Q Q on top, two pair and two pair
# in the middle and bottom rows to make) earns fantasyland on 15-93% of the
# completions, depending on the move, and counts it 20 points.
FL_SPOT = dict(variant="pineapple", layouts=[
    "Qs Qd __ / 8h 8d 7s __ __ / 9s 9c Ts Th __",
    "2c 3h __ / 4c 5c 6d __ __ / Tc Jc Jh Jd __"],
    button=1, discards=["Ah Ad", None], hand="Ks 7c 2h", seed=1, auto=False)


@pytest.mark.slow
def test_standard_error_is_the_spread_of_the_values():
    # ev_se * sqrt(n) is the standard deviation of one completion's value
    # (points + fantasyland_value when fantasyland is earned); the slow
    # reference's sample standard deviation (4000 completions) estimates the
    # same number within about 2%, so 10% is five of its standard errors.
    g = Game.from_position(**FL_SPOT)
    assert g.to_act == 0 and g.street == 3
    n = 40_000
    mv = move_values(g, n=n, seed=5, fantasyland_value=20)
    rng = random.Random(16)
    for i in (0, 4, 14):
        x = mv[i]
        assert 0.1 < x.fantasyland_rate < 0.9
        _, ref_se = slow_move_value(g, x.move, 4000, 20, rng)
        ratio = (x.ev_se * math.sqrt(n)) / (ref_se * math.sqrt(4000))
        assert abs(ratio - 1) < 0.1, (i, ratio)
    # and without the fantasyland bonus, the spread of the points alone
    plain = move_values(g, n=n, seed=5, moves=[4])
    _, ref_se = slow_move_value(g, plain[0].move, 4000, 0, rng)
    assert abs(plain.ev_se[0] * math.sqrt(n) / (ref_se * math.sqrt(4000)) - 1) < 0.1


# ------------------------------------------------- completion k is the stream of (seed, k)
_M64 = (1 << 64) - 1


def _splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & _M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return x, z ^ (z >> 31)


class _Xoshiro:
    """xoshiro256** seeded from (seed, stream) through splitmix64, written
    from its definition (the kernels' generator, _rollout_random.pxi)."""

    def __init__(self, seed, stream):
        x = seed ^ ((stream * 0xD1B54A32D192ED03) & _M64)
        self.s = []
        for _ in range(4):
            x, z = _splitmix64(x)
            self.s.append(z)

    def next(self):
        s = self.s
        rotl = lambda v, k: ((v << k) | (v >> (64 - k))) & _M64  # noqa: E731
        result = (rotl((s[1] * 5) & _M64, 7) * 9) & _M64
        t = (s[1] << 17) & _M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result


def _deck(seed, k, pool, total):
    """Completion k's first ``total`` cards: a partial Fisher-Yates shuffle of
    the sorted unseen cards, two swaps per 64-bit output (high, then low half)."""
    g = _Xoshiro(seed, k)
    u = sorted(pool)
    nu = len(u)
    j = 0
    while j + 1 < total:
        x = g.next()
        r = j + (((x >> 32) * (nu - j)) >> 32)
        u[j], u[r] = u[r], u[j]
        r = j + 1 + (((x & 0xFFFFFFFF) * (nu - j - 1)) >> 32)
        u[j + 1], u[r] = u[r], u[j + 1]
        j += 2
    if j < total:
        r = j + (((g.next() >> 32) * (nu - j)) >> 32)
        u[j], u[r] = u[r], u[j]
    return u[:total]


# Seat 0's points of move 2 of FL_SPOT (the K of spades discarded, the 7 of
# clubs to the middle row, the 2 of hearts on top) over completions 0-7 of
# seed 2024 (policy "random"), and whether each earned fantasyland: the
# numbers of this version's generator.  A change of the deal (another stream
# per completion, another shuffle, another order of the slots) changes them.
PINNED_POINTS = [8, 19, -6, 8, 8, 8, 13, 8]
PINNED_FL = [1, 1, 0, 1, 1, 1, 1, 1]


def test_completion_k_is_the_deck_of_stream_seed_k():
    # Completion k deals the sorted unseen cards shuffled by the stream of
    # (kernel seed, k): the opponent's empty slots (in layout order) take the
    # first cards, then the player's rows, each from its own block of the
    # deck (as many cards as the row had empty slots before the move).  Each
    # completion is rebuilt here and scored with the slow scorer.
    from ofc_fast._args import kernel_seed
    from ofc_fast.solver import _F, _P, _position, _sums
    g = Game.from_position(**FL_SPOT)
    seat, v = g.to_act, g.variant
    view = g.view(seat)
    moves = g.legal_moves()
    pos = _position(view, moves)
    kseed = kernel_seed(2024)
    rules = slow.rules(v.name)
    sizes = v.row_sizes
    offs = [sum(sizes[:i]) for i in range(len(sizes))]
    own = [int(c) for c in view.layout]
    room = [sum(own[j] == EMPTY for j in range(offs[r], offs[r] + sizes[r]))
            for r in range(len(sizes))]
    opp = [int(c) for c in view.layouts[1 - seat]]
    opp_empty = [j for j, c in enumerate(opp) if c == EMPTY]
    pool = [int(c) for c in view.unseen]
    total = len(opp_empty) + sum(room)
    per_k = np.stack([_sums(pos, k, k + 1, kseed, 1, 0, -1, 1) for k in range(8)])
    assert (_sums(pos, 0, 8, kseed, 1, 0, -1, 1) == per_k.sum(axis=0)).all()
    assert (_sums(pos, 3, 8, kseed, 1, 0, -1, 2) == per_k[3:].sum(axis=0)).all()
    for m in range(len(moves)):
        lay = [int(c) for c in pos.layouts[m]]
        for k in range(8):
            deck = _deck(kseed, k, pool, total)
            o = opp[:]
            for c, j in zip(deck, opp_empty, strict=False):
                o[j] = c
            h = lay[:]
            base = len(opp_empty)
            for r in range(len(sizes)):
                slots = [j for j in range(offs[r], offs[r] + sizes[r]) if h[j] == EMPTY]
                for t, j in enumerate(slots):
                    h[j] = deck[base + t]
                base += room[r]
            eh = slow.evaluate(h, rules)
            pts = slow.points(eh, slow.evaluate(o, rules), rules)
            assert per_k[k, m, _P] == pts, (m, k)
            assert per_k[k, m, _F] == bool(eh.fantasyland), (m, k)
    assert moves[2].rows == (DISCARD, 1, 0)
    assert per_k[:, 2, _P].tolist() == PINNED_POINTS
    assert per_k[:, 2, _F].tolist() == PINNED_FL
    mv = move_values(g, n=8, seed=2024, moves=[2], fantasyland_value=10)
    assert mv.ev[0] == (sum(PINNED_POINTS) + 10 * sum(PINNED_FL)) / 8
