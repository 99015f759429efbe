"""SolverPolicy's decision in C (ofc_fast._solver) and its Python face (ofc_fast.solver).

The decision moved from numpy (0.3) to C; tests/solver_reference.py keeps the
numpy algorithm, and without a time budget the two must agree, move for move
and round for round, on positions that exercise every rule of it: the
z-test drops moves, a dropped move had the higher mean when it was dropped
(the moves still in rank first), a dead move ranks first (the dead-hand
fallback acts), hidden fantasyland hands, every street, two and three
players, five variants.
"""
import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import rollouts
from ofc_fast._solver import seat_position, solver_choose
from ofc_fast.engine import Game
from ofc_fast.errors import ArgumentError, StateError
from ofc_fast.policies import RandomPolicy
from ofc_fast.rollouts import is_dead
from ofc_fast.solver import SolverOptions, SolverPolicy, move_values, solver_options
from solver_reference import ReferencePolicy

STATS = ("moves", "completions", "rounds", "left", "dead_checks")

# (variant, players, fantasyland deal per seat or None, games)
TABLES = [("pineapple", 2, None, 12), ("pineapple", 3, None, 5), ("big-pineapple", 2, None, 4),
          ("classic", 2, None, 3), ("progressive", 3, None, 3), ("pineapple", 2, [14, 0], 3),
          ("progressive", 3, [0, 15, 0], 3), ("pineapple-2-7", 2, None, 3)]

# SolverPolicy settings: many completions and a strict z (rounds drop moves
# slowly), few and a loose z (the ranking of the dropped moves decides
# often), one round of 16 or 8 (dead moves tie the live ones that fouled on
# every completion: the fallback acts), the random completion model.
SETTINGS = [dict(n=512, completion="best", z=3.0, first_round=32, fantasyland_value=25.0,
                 tries=4),
            dict(n=256, completion="random", z=0.5, first_round=8, fantasyland_value=7.5),
            dict(n=16, completion="best", z=1.0, first_round=16, fantasyland_value=0.0,
                 tries=2),
            dict(n=96, completion="random", z=0.0, first_round=8, fantasyland_value=12.0),
            dict(n=8, completion="random", z=2.0, first_round=8, fantasyland_value=0.0)]


def positions():
    """Every decision of random games (auto=False: dead hands stay to play)."""
    for name, players, fl, games in TABLES:
        for seed in range(games):
            g = Game(name, players, seed=seed, fantasyland=fl, auto=False)
            pol = RandomPolicy(seed)
            while not g.done:
                yield g
                g.play(pol.choose(g.view(g.to_act), g.legal_moves()))


def test_the_c_decision_is_the_reference_decision():
    seen = {"dead": 0, "dropped": 0, "first street": 0, "later street": 0, "hidden": 0,
            "3 players": 0, "already dead": 0}
    decisions = 0
    for k, g in enumerate(positions()):
        view, moves = g.view(g.to_act), g.legal_moves()
        if len(moves) == 1 or view.street == -1:
            continue
        # every setting on the later streets, one in turn on the first (232 moves)
        for opts in [SETTINGS[k % len(SETTINGS)]] if view.street == 0 else SETTINGS:
            ref = ReferencePolicy(seed=k, time_budget_ms=None, **opts)
            pol = SolverPolicy(seed=k, time_budget_ms=None, **opts)
            want, got = ref.choose(view, moves), pol.choose(view, moves)
            assert moves.index(got) == moves.index(want), (g, opts, ref.last, pol.last)
            assert {s: pol.last[s] for s in STATS} == {s: ref.last[s] for s in STATS}, (g, opts)
            decisions += 1
            if ref.last["why"]:
                seen[ref.last["why"]] += 1
            seen["first street" if view.street == 0 else "later street"] += 1
            seen["hidden"] += any(view.fantasyland_deal) and not view.fantasyland_deal[g.to_act]
            seen["3 players"] += g.n_players == 3
            seen["already dead"] += ref.last["dead_checks"] == 0
    assert decisions > 1000
    assert min(seen.values()) >= 5, seen


def test_dead_moves_of_the_highest_value_are_passed_over():
    # The last street: every move completes the layout, and the opponent's is
    # complete, so each move's points are fixed: -6 (a scoop) whether the
    # layout fouls or not.  Moves 0 and 1 (a pair of tens or kings in the
    # middle, over a queen-high bottom) foul, move 2 does not; all three tie,
    # so the first two lead and the fallback must pass over them.
    g = Game.from_position("pineapple", ["3h 4c 8s / 7s Jh 2c __ __ / 9s Qc 8c Td 4h",
                                         "7d Ks 5s / Jd Ad 8d 7c 3c / Qd 4s 4d 2d Qh"],
                           button=0, discards=["Ts 3s Th", "Ah 7h Js Kd"], hand="9d Tc Kc",
                           seed=1, auto=False)
    view, moves = g.view(g.to_act), g.legal_moves()
    lays, _ = moves.layouts()
    assert is_dead(lays, rollouts.ALL_CARDS & ~view.seen_mask, g.variant).tolist() == \
        [True, True, False]
    assert move_values(g, n=40, seed=1).ev.tolist() == [-6.0] * 3
    for completion in ("best", "random"):
        for seed in range(3):
            pol = SolverPolicy(n=64, seed=seed, time_budget_ms=None, completion=completion)
            assert moves.index(pol.choose(view, moves)) == 2
            assert pol.last["dead_checks"] == 3 and pol.last["left"] == 3


def test_a_time_budget_decides_within_it_and_alike_without_one():
    g = Game("pineapple", 2, seed=21)
    view, moves = g.view(g.to_act), g.legal_moves()
    pol = SolverPolicy(seed=1, time_budget_ms=15, n=10_000_000)
    pol.choose(view, moves)
    assert pol.last["ms"] < 15 * 4          # about the budget (a shared, busy machine)
    assert pol.last["completions"] >= 8 and pol.last["rounds"][0][0] == len(moves)
    # rounds at least double the completions until the clock stops them
    sizes = [s for _, s in pol.last["rounds"]]
    assert pol.last["completions"] == sum(sizes)
    a = SolverPolicy(seed=2, time_budget_ms=None, n=300)
    b = SolverPolicy(seed=2, time_budget_ms=None, n=300)
    assert a.choose(view, moves) == b.choose(view, moves) and a.last["rounds"] == b.last["rounds"]


def test_last_records_what_the_decision_did():
    g = Game("pineapple", 3, seed=4)
    pol = SolverPolicy(seed=3, time_budget_ms=None, n=256, first_round=32)
    pol.choose(g.view(g.to_act), g.legal_moves())
    last = pol.last
    assert set(last) == {"moves", "completions", "rounds", "left", "dead_checks", "ms"}
    assert last["moves"] == 232 and last["rounds"][0] == (232, 32)
    assert last["completions"] == sum(s for _, s in last["rounds"]) == 256
    assert [m for m, _ in last["rounds"]] == sorted((m for m, _ in last["rounds"]), reverse=True)
    assert 1 <= last["left"] <= last["rounds"][-1][0] and last["dead_checks"] == 1
    # the only move, and a fantasyland hand, are not valued
    g = Game("pineapple", 2, seed=7, fantasyland=[14, 0])
    pol.choose(g.view(g.to_act), g.legal_moves())
    assert pol.last == {"moves": len(g.legal_moves()), "reason": "fantasyland solver"}


def test_the_face_checks_what_it_is_given():
    g = Game("pineapple", 2, seed=3)
    moves = g.legal_moves()
    pol = SolverPolicy(seed=1, time_budget_ms=None, n=64)
    with pytest.raises(TypeError, match="takes a MoveList, got"):
        pol.choose(g.view(g.to_act), list(moves))
    with pytest.raises(ArgumentError, match=f"view is seat {1 - g.to_act}'s, but seat "
                                            f"{g.to_act} is to act"):
        pol.choose(g.view(1 - g.to_act), moves)
    g.play(moves[0])
    with pytest.raises(StateError, match="stale"):
        pol.choose(g.view(g.to_act), moves)


def test_solver_choose_refuses_what_is_not_a_street_turn():
    core = Game("pineapple", 2, seed=7, fantasyland=[14, 0]).legal_moves()._core
    with pytest.raises(StateError, match="fantasyland"):
        solver_choose(core, 64, 1, 0.0, 3.0, 8, 0.0, 1)
    g = Game("pineapple", 2, seed=1)
    g.run(RandomPolicy(1))
    with pytest.raises(StateError, match="hand is over"):
        solver_choose(g._core, 64, 1, 0.0, 3.0, 8, 0.0, 1)
    with pytest.raises(StateError, match="hand is over"):
        seat_position(g._core, np.zeros(1, np.int64))
    core = Game("pineapple", 2, seed=1).legal_moves()._core
    for bad in ((0, 1, 8, 3.0), (64, 0, 8, 3.0), (64, 1, 0, 3.0), (64, 1, 8, -1.0),
                (64, 1, 8, float("nan"))):
        n, tries, first, z = bad
        with pytest.raises(ValueError, match="solver_choose"):
            solver_choose(core, n, tries, 0.0, z, first, 0.0, 1)
    for index in (232, -1):
        with pytest.raises(ValueError, match=f"move {index} out of range"):
            seat_position(core, np.array([0, index], np.int64))


# ----------------------------------------------------------------------- settings
def test_solver_options_hold_the_defaults_and_bounds():
    pol = SolverPolicy()
    assert (pol.n, pol.time_budget_ms, pol.completion, pol.fantasyland_value, pol.tries, pol.z,
            pol.first_round) == tuple(SolverOptions())
    assert solver_options() == SolverOptions()
    assert solver_options(n=2.0e3, z=1).n == 2000 and solver_options(z=1).z == 1.0
    assert solver_options(time_budget_ms=None).time_budget_ms is None
    with pytest.raises(ArgumentError, match="unknown solver option 'budget'; valid: n, "):
        solver_options(budget=5)
    with pytest.raises(ArgumentError, match="unknown completion model 'greedy'"):
        solver_options(completion="greedy")
    with pytest.raises(ArgumentError, match="first_round"):
        solver_options(first_round=0)


def _warns_once(call, old):
    """call()'s value; it must warn once, naming the old name and the new one."""
    with pytest.warns(DeprecationWarning) as caught:
        value = call()
    (one,) = [str(w.message) for w in caught if w.category is DeprecationWarning]
    head, new = one.split(" is deprecated since ofc_fast 0.4; use ")
    assert old in head and "completion" in new.lower(), one
    return value


def test_policy_is_a_deprecated_alias_of_completion():
    g = Game("pineapple", 2, seed=3)
    pol = _warns_once(lambda: SolverPolicy(policy="random"), "SolverPolicy(policy=...)")
    assert pol.completion == "random"
    assert _warns_once(lambda: pol.policy, "SolverPolicy.policy") == "random"
    new = move_values(g, n=50, seed=1, completion="best", tries=2)
    old = _warns_once(lambda: move_values(g, n=50, seed=1, policy="best", tries=2),
                      "move_values(policy=...)")
    assert old.ev.tolist() == new.ev.tolist() and old.completion == "best"
    assert _warns_once(lambda: old.policy, "MoveValues.policy") == "best"
    part = "As Ad __ / __ __ __ __ __ / __ __ __ __ __"
    new = ofc.rollout(part, n=200, seed=1, completion="best")
    old = _warns_once(lambda: ofc.rollout(part, n=200, seed=1, policy="best"),
                      "rollout(policy=...)")
    assert old.foul_rate.tolist() == new.foul_rate.tolist()
    assert old.foul_rate.tolist() != ofc.rollout(part, n=200, seed=1).foul_rate.tolist()
    assert _warns_once(lambda: rollouts.POLICIES, "rollouts.POLICIES") == rollouts.COMPLETIONS
    with pytest.raises(AttributeError, match="no attribute 'POLICY'"):
        rollouts.POLICY  # noqa: B018
    with pytest.raises(ArgumentError, match="unknown completion model 'bets'"):
        _warns_once(lambda: SolverPolicy(policy="bets"), "SolverPolicy(policy=...)")


def test_the_completion_model_changes_the_decision():
    # the two models value moves differently: over a few first streets their
    # choices differ somewhere (the setting is passed through, not dropped)
    differ = 0
    for seed in range(4):
        g = Game("pineapple", 2, seed=seed)
        view, moves = g.view(g.to_act), g.legal_moves()
        a = SolverPolicy(seed=1, time_budget_ms=None, n=256, completion="best")
        b = SolverPolicy(seed=1, time_budget_ms=None, n=256, completion="random")
        differ += a.choose(view, moves) != b.choose(view, moves)
    assert differ


def test_the_best_move_is_played_not_the_worst():
    # one round of every completion: the move played is move_values' best,
    # and it is worth clearly more than the worst
    for seed in (21, 22):
        g = Game("pineapple", 2, seed=seed)
        moves = g.legal_moves()
        pol = SolverPolicy(n=300, seed=np.random.default_rng(seed), time_budget_ms=None,
                           first_round=300, completion="random")
        i = moves.index(pol.choose(g.view(g.to_act), moves))
        mv = move_values(g, n=300, seed=np.random.default_rng(seed))
        assert mv.ev[i] == mv.ev.max() > mv.ev.min() + 1
