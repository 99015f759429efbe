"""Fuzzing the batch engine's boundaries (ofc_fast.sim.GameBatch): odd
constructor arguments, then random calls (observe, step with legal, illegal
and malformed actions, time-outs, run, next_hand with odd games and decks,
last_hands, game) on the batches that build.

Every check runs in a child interpreter (``tests/isolated.py``), so a crash
in C fails the test instead of killing the run; the default run uses the
QUICK budget, ``pytest -m fuzz`` the LONG twin (``tests/fuzz_budget.py``).

The contract: a call works, or raises a ValueError (the library's
``OFCError`` family) or a TypeError with a message; never another error, a
crash or a hang.  When calls work the batch stays sound: points zero-sum,
running scores the sum of the rewards, a refused step changes nothing, the
observation of a waiting game is its ``game(i)`` view.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ofc_fast as ofc
from fuzz_budget import LONG, QUICK, examples  # noqa: F401 - the child looks LONG up by name
from isolated import run_isolated
from ofc_fast.sim import TIMEOUT, GameBatch
from test_engine_fuzz import _attempt  # the contract: ValueError/TypeError

# long (subprocesses, builds or many games): the full run, not the edit-test loop
pytestmark = pytest.mark.slow

SIM_QUICK = settings(QUICK, max_examples=examples(120))
VARIANT_NAMES = sorted(ofc.VARIANTS)


def _in_child(check: str, budget: str) -> None:
    run_isolated(f"import test_sim_fuzz as m; m.{check}(m.{budget})", timeout=900)


odd = st.sampled_from([-1, 0, 2 ** 31, 2 ** 63, 1.5, 2.0, float("nan"), "3", None, True, [1],
                       b"x", (), {}])


def mostly(valid, *wild):
    return st.one_of(valid, valid, valid, valid, *wild)


policy_entries = st.one_of(
    st.sampled_from(["random", "random", "external", "external", "greedy", "heuristic",
                     "racing"]),
    st.tuples(st.sampled_from(["greedy", "heuristic", "racing", "random"]),
              st.fixed_dictionaries({}, optional={
                  "samples": st.sampled_from([1, 2, 0, -3, 2.0, "2"]),
                  "tries": st.sampled_from([1, 3, 0]),
                  "max_moves": st.sampled_from([1, 4, 0, 10 ** 9]),
                  "foul_cost": st.sampled_from([0.0, 5, float("inf"), 1e9]),
                  "fantasyland_value": st.sampled_from([0, 12.0, -4, float("nan")]),
                  "bogus": st.just(1)})),
    st.sampled_from(["smart", None, 3, ofc.RandomPolicy(1), ofc.HeuristicPolicy(samples=1)]))
policies = st.one_of(policy_entries, st.lists(policy_entries, min_size=1, max_size=5),
                     st.dictionaries(st.integers(-1, 4), policy_entries, max_size=4))
fl_specs = mostly(st.none(), st.lists(st.sampled_from([0, 0, 14, 13, True, (14, 2), 15, 99, -1,
                                                       None, "x"]), min_size=1, max_size=5),
                  st.dictionaries(st.integers(-1, 4), st.sampled_from([14, 0, 19, True]),
                                  max_size=2), odd)


def _sound(b, rewards, done):
    assert rewards.shape == (b.n_games, b.n_players) and done.shape == (b.n_games,)
    assert (rewards.sum(axis=1) == 0).all()
    assert ((rewards != 0).any(axis=1) <= done).all()


def _action(data, obs, j, b):
    kind = data.draw(st.sampled_from(["legal", "legal", "legal", "legal", "timeout",
                                      "illegal", "any"]))
    if kind == "legal":
        n = int(obs["n_legal"][j])
        return int(obs["legal"][j, data.draw(st.integers(0, n - 1))])
    if kind == "timeout":
        return TIMEOUT
    if kind == "illegal":
        bad = np.flatnonzero(~obs["mask"][j])
        return int(bad[data.draw(st.integers(0, len(bad) - 1))]) if len(bad) else -7
    return data.draw(st.sampled_from([-2, b.action_size, 2 ** 40, -(2 ** 62)]))


def _drive(b, data, steps):
    total = np.zeros((b.n_games, b.n_players), np.int64)
    for _ in range(steps):
        op = data.draw(st.sampled_from(["step", "step", "step", "run", "next", "last", "game"]))
        if op == "step":
            obs = _attempt(b.observe, legal=True, mask=True)
            if obs is None:
                continue
            k = len(obs["game"])
            if k:
                j = data.draw(st.integers(0, k - 1))
                i = int(obs["game"][j])
                view = b.game(i).view(int(obs["seat"][j]))
                assert (obs["layouts"][j] == view.layouts).all()
                assert np.flatnonzero(obs["unseen"][j]).tolist() == view.unseen.tolist()
            acts = np.array([_action(data, obs, j, b) for j in range(k)], np.int64)
            shape = data.draw(st.sampled_from(["ok", "ok", "ok", "short", "2d", "float", "list"]))
            arg = {"ok": acts, "short": acts[:-1], "2d": acts[:, None],
                   "float": acts.astype(float), "list": acts.tolist()}[shape]
            before = b.scores
            out = _attempt(b.step, arg)
            if out is None:
                assert (b.scores == before).all()
                again = b.observe()
                assert (again["hand"] == obs["hand"]).all() and (again["game"] == obs["game"]).all()
            else:
                _sound(b, *out)
                total += out[0]
        elif op == "run":
            pts = _attempt(b.run, data.draw(mostly(st.integers(0, 2), odd)))
            if pts is not None:
                total += pts
        elif op == "next":
            games = data.draw(mostly(st.none(), st.lists(st.integers(-1, b.n_games), max_size=3),
                                     odd))
            decks = data.draw(st.sampled_from([None, None, "seeded", "bad"]))
            if decks == "seeded":
                n = b.n_games if games is None else len(games) if isinstance(games, list) else 1
                decks = np.array([np.random.default_rng(k).permutation(52) for k in range(n)])
            elif decks == "bad":
                decks = np.zeros((1, 52), np.uint8)
            out = _attempt(b.next_hand, games, decks=decks)
            if out is not None:        # the hands finished since the last rewards returned
                _sound(b, *out)
                total += out[0]
        elif op == "last":
            _attempt(b.last_hands, data.draw(mostly(st.none(), st.lists(
                st.integers(-1, b.n_games), max_size=3), odd)))
        else:
            g = _attempt(b.game, data.draw(mostly(st.integers(0, b.n_games - 1), odd)))
            if g is not None and g.done:
                assert sum(g.result().points) == 0
    # every point of the running scores came back as a reward (the last ones here)
    total += b._take_rewards()[0]
    assert (total == b.scores).all()


valid_entries = st.one_of(
    st.sampled_from(["random", "external", "external"]),
    st.tuples(st.sampled_from(["greedy", "heuristic", "racing"]),
              st.fixed_dictionaries({"samples": st.integers(1, 2), "tries": st.integers(1, 3),
                                     "max_moves": st.integers(1, 6)})))


def check_batches(budget):
    @budget
    @given(st.sampled_from(VARIANT_NAMES), st.data())
    def run(name, data):
        from ofc_fast.deals import fantasyland_deals
        v = ofc.variant(name)
        P = data.draw(st.integers(v.min_players, v.max_players))
        deals = fantasyland_deals(v) if v.fantasyland else ()
        kw = {"n": data.draw(st.integers(1, 5)), "P": P,
              "seed": data.draw(st.integers(0, 2 ** 40)),
              "fantasyland": data.draw(st.none() | st.lists(
                  st.sampled_from([0, 0, *deals]), min_size=P, max_size=P)),
              "policies": data.draw(st.lists(valid_entries, min_size=P, max_size=P)),
              "auto": data.draw(st.booleans()), "auto_deal": data.draw(st.booleans()),
              "n_threads": data.draw(st.sampled_from([1, 2]))}
        bad = data.draw(st.sampled_from([None] * 8 + list(kw)))
        if bad is not None:       # one odd argument
            wild = {"policies": policies, "fantasyland": fl_specs}.get(bad, odd)
            kw[bad] = data.draw(wild)
        b = _attempt(GameBatch, name, kw.pop("n"), kw.pop("P"), **kw)
        if b is None:
            return
        _drive(b, data, data.draw(st.integers(1, 8)))
    run()


def test_batches():
    _in_child("check_batches", "SIM_QUICK")


@pytest.mark.fuzz
def test_batches_long():
    _in_child("check_batches", "LONG")
