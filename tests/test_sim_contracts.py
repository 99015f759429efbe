"""The batch engine's contracts that planted bugs once left standing (issue 28):
every GameBatch argument is played as Match plays it, step() refuses every
action the mask refuses, decisions count every seat's moves, the greedy
policy's documented tie break, one name one algorithm for policy objects,
and sizes checked before allocating.  Each test fails on a mutant of
tools/mutants.py."""
from __future__ import annotations

import numpy as np
import pytest

import ofc_fast as ofc
from isolated import run_isolated
from ofc_fast.cards import EMPTY
from ofc_fast.engine import Game, Match
from ofc_fast.errors import MoveError
from ofc_fast.policies import BUILTIN
from ofc_fast.sim import GameBatch

LIGHT = {"samples": 2, "tries": 2, "max_moves": 40}


@pytest.mark.parametrize("argument", ["button", "fantasyland", "decks", "auto", "seed"])
def test_every_batch_argument_is_played(argument):
    """Each argument GameBatch checks changes what it plays, as Match plays it
    (a button checked and then ignored dealt every game from seat 0): the
    first hand of every game replays through a Match given the same argument."""
    P, n = 3, 6
    rng = np.random.default_rng(2)
    decks = np.array([rng.permutation(52) for _ in range(n)], np.uint8)
    given = {"button": {"button": 2}, "fantasyland": {"fantasyland": {1: 14}},
             "decks": {"decks": decks}, "auto": {"auto": False}, "seed": {"seed": 99}}[argument]
    kw = {"seed": 8, **given}
    b = GameBatch("pineapple", n, P, policies="random", auto_deal=False, **kw)
    b.run(1)
    plain = GameBatch("pineapple", n, P, seed=8, policies="random", auto_deal=False)
    plain.run(1)
    last, other = b.last_hands(), plain.last_hands()
    assert (last.layouts != other.layouts).any()              # the argument changed the play
    for i in range(n):
        g = b.game(i)
        m = Match("pineapple", P, n_hands=P, seed=[kw["seed"], i], button=kw.get("button", 0),
                  fantasyland=kw.get("fantasyland"), auto=kw.get("auto", True))
        ref = m.start_hand()
        if argument == "decks":
            ref = Game("pineapple", P, deck=decks[i], auto=True)
        assert (g.deck == ref.deck).all() and g.button == ref.button == last.button[i]
        assert g.fantasyland_count == ref.fantasyland_count
        order = [t.seat for t in g.history if t.street == 0]
        assert order[0] == (ref.button + 1) % P or g.fantasyland_count[order[0]] == 0
        autos = [t.auto for t in g.history]
        assert (None in autos) and (argument != "auto" or set(autos) == {None})
    if argument == "button":
        assert last.button.tolist() == [2] * n and other.button.tolist() == [0] * n
    if argument == "fantasyland":
        assert last.fantasyland_count[:, 1].tolist() == [1] * n
    if argument == "auto":          # every turn a decision: more of them than with auto
        assert b.decisions.sum() > plain.decisions.sum()


def test_step_refuses_every_action_the_mask_refuses():
    """step() plays an action only when the mask says it is legal: an action
    whose digits name a destination for a card that was not dealt (a legal
    action plus a digit beyond the cards dealt), any other action outside
    the mask, one at a time among legal ones: a MoveError naming the game,
    nothing played."""
    rng = np.random.default_rng(3)
    n = 6
    b = GameBatch("pineapple", n, 2, seed=17, policies="external", auto_deal=False)
    tried = 0
    while len(b.waiting):
        o = b.observe()
        k = len(o["game"])
        legal = o["legal"][np.arange(k), (rng.random(k) * o["n_legal"]).astype(np.int64)]
        for j in range(k):
            dealt = int((o["hand"][j] != EMPTY).sum())
            beyond = [int(legal[j]) + d * 4 ** dealt for d in (1, 2, 3)] if dealt < 5 else []
            others = rng.choice(np.flatnonzero(~o["mask"][j]), 3, replace=False).tolist()
            for a in beyond + others:
                assert not o["mask"][j, a]
                bad = legal.copy()
                bad[j] = a
                before = b.observe()
                with pytest.raises(MoveError, match=f"game {o['game'][j]}"):
                    b.step(bad)
                after = b.observe()
                assert all((before[k] == after[k]).all() for k in before)
                tried += 1
        b.step(legal)
    assert tried > 5 * n * 4


@pytest.mark.parametrize("policies", [["random", ("greedy", LIGHT), ("heuristic", LIGHT)],
                                      ["external", ("racing", LIGHT), "random"]])
def test_decisions_count_every_seats_moves(policies):
    """GameBatch.decisions counts the moves a policy chose: a built-in seat's
    (its fantasyland hand too) as an external seat's, not the automatic
    moves, the time-outs, nor an external seat's fantasyland hand (the
    engine's solver sets it): each game's count is the turns of its hands
    that no rule and no solver played (an uncounted built-in seat's moves
    made it the external seat's alone)."""
    b = GameBatch("pineapple", 5, 3, seed=6, policies=policies, auto_deal=False,
                  fantasyland={0: 14, 2: 14})
    if "external" in policies:
        while len(b.waiting):
            b.step(b.observe()["legal"][:, 0])
    else:
        b.run(1)
    for i in range(5):
        h = b.game(i).history
        chosen = [t for t in h if t.auto is None and not (policies[t.seat] == "external"
                                                          and t.street == -1)]
        assert b.decisions[i] == len(chosen), i
        assert {t.seat for t in chosen} >= {1, 2}            # built-in seats' among them


def test_greedy_breaks_ties_to_the_first_best_move():
    """On a last street (every completion is the layout itself) the greedy
    policy's value of a move is exact: royalties - foul_cost x foul +
    fantasyland_value x entry; of the moves of equal best value it plays the
    first in the move order (the documented tie break), in Game and as a
    batch seat."""
    FOUL, FLV = 5.0, 12.0
    ties = checked = 0
    b = GameBatch("pineapple", 60, 2, seed=23, policies="external", auto_deal=False)
    while len(b.waiting):
        o = b.observe()
        b.step(o["legal"][np.arange(len(o["game"])), (o["n_legal"] - 1) // 2])
        if not len(b.waiting):
            break
        for i in b.observe()["game"].tolist():
            g = b.game(i)
            if (g.layout(g.seat_to_act) != EMPTY).sum() != 11:     # not the last street
                continue
            moves = g.legal_moves()
            lays, _ = moves.layouts()
            ev = ofc.evaluate(lays, "pineapple")
            value = ev.royalty_total - FOUL * ev.foul + FLV * (ev.next_fantasyland > 0)
            best = np.flatnonzero(value == value.max())
            ties += len(best) > 1
            pol = ofc.GreedyPolicy(seed=i, samples=1, tries=1, foul_cost=FOUL,
                                   fantasyland_value=FLV)
            assert moves.index(pol.choose(g.view(g.seat_to_act), moves)) == best[0], i
            checked += 1
    assert checked > 50 and ties > 20


@pytest.mark.parametrize("name", list(BUILTIN))
def test_a_policy_object_plays_its_names_algorithm_in_a_batch(name):
    """One name, one algorithm: a RandomPolicy (and each built-in policy
    object) given to GameBatch plays what its name plays with the same
    parameters, hand for hand (0.3's RandomPolicy object switched to
    another algorithm), and not what another name plays."""
    light = {"samples": 2, "tries": 2, "max_moves": 40}
    settings = {"random": {}, "solver": {"n": 24, "time_budget_ms": None, "first_round": 8}}

    def seat(n):
        opts = settings.get(n, light)
        return (n, opts) if opts else n
    opts = settings.get(name, light)
    obj = GameBatch("pineapple", 8, 3, seed=4, policies=BUILTIN[name](seed=1, **opts))
    named = GameBatch("pineapple", 8, 3, seed=4, policies=seat(name))
    assert obj.policies == (name,) * 3
    a, b = obj.run_recorded(2), named.run_recorded(2)
    assert (a.layouts == b.layouts).all() and (a.points == b.points).all()
    for other in BUILTIN:
        if other != name:
            o = GameBatch("pineapple", 8, 3, seed=4, policies=seat(other)).run_recorded(2)
            assert (o.layouts != a.layouts).any(), other


@pytest.mark.slow
def test_observations_environments_and_selfplay_beyond_the_memory_are_refused():
    """Under an address-space limit (ulimit -v), observe() of 200,000 Big
    Pineapple games, a 2,000,000-game vector environment and a selfplay of
    50 million hands say what they need before allocating (the library's
    MemoryError), not numpy's "Unable to allocate"; within the limit the same
    calls work."""
    run_isolated("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        from ofc_fast.sim import GameBatch, selfplay
        calls = [(lambda: GameBatch("big-pineapple", 200_000, 2, policies="external",
                                    seed=1).observe(), "the observation arrays of 200,000 games"),
                 (lambda: selfplay("pineapple", 50_000_000, seed=1),
                  "50,000,000 hands of self-play")]
        try:
            from ofc_fast.rl.gym import OFCVectorEnv
        except ImportError:
            pass
        else:
            calls.append((lambda: OFCVectorEnv(2_000_000), "2,000,000 games of an environment"))
        for call, what in calls:
            try:
                call()
            except MemoryError as e:
                assert str(e).startswith(what) and "need about" in str(e), e
                assert "ulimit -v" in str(e), e
            else:
                raise AssertionError("allocated: " + what)
        assert GameBatch("big-pineapple", 2000, 2, policies="external", seed=1).observe()[
            "mask"].shape == (2000, 15625)
        assert selfplay("pineapple", 5000, seed=1).n_hands == 5000
    """)
