"""Fuzzing the engine's boundaries (issue 9): Game, Match, moves, policies,
rollouts and the fantasyland solver with odd arguments.

Every check runs in a child interpreter (``tests/isolated.py``), so a crash in
C fails the test instead of killing the run.  The default run uses the QUICK
budget (200 examples per check, a few seconds in all); ``pytest -m fuzz``
runs the LONG twins (``tests/fuzz_budget.py``).

The contract checked: a call either works, or raises a ValueError (the
library's ``OFCError`` family: RulesError, MoveError, CardError, ...) or a
TypeError saying what is wrong; never AttributeError, IndexError,
OverflowError, KeyError, AssertionError, a crash or a hang.  When a call works
the result is sound: hands zero-sum, copies and pickles equal to the original
and independent of it, a refused move leaves the state unchanged, every turn
of a timed-out seat is a time-out placement.

* ``check_games``: ``ofc.variant(name, **random options)`` (valid and invalid:
  a RulesError or TypeError), then ``Game`` with random players, seeds,
  buttons and fantasyland specs, played with random legal and illegal moves,
  time-outs, copies and pickles taken mid-hand;
* ``check_matches``: ``Match`` with random arguments, hands played with random
  time-outs, copies and pickles of the match mid-way;
* ``check_rollouts``: ``rollout`` / ``rollout_ev`` / ``is_dead`` /
  ``completion`` with odd counts, seeds, policies, cards and layouts;
* ``check_forged``: Variants built with ``object.__new__`` around
  ``Variant.__post_init__`` (any field, any value) through Game, Match and the
  rollouts;
* ``check_solver``: ``solve_fantasyland`` / ``solve_fantasyland_batch`` with odd
  objectives, counts and hands.
"""
from __future__ import annotations

import copy
import dataclasses
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ofc_fast as ofc
from fuzz_budget import LONG, QUICK, examples  # noqa: F401 - the child looks LONG up by name
from isolated import run_isolated

# long (subprocesses, builds or many games): the full run, not the edit-test loop
pytestmark = pytest.mark.slow

ALLOWED = (ValueError, TypeError)   # ofc.OFCError is a ValueError
ENGINE_QUICK = settings(QUICK, max_examples=examples(200))   # each check takes well under a second
VARIANT_NAMES = sorted(ofc.VARIANTS)


def _in_child(check: str, budget: str) -> None:
    run_isolated(f"import test_engine_fuzz as m; m.{check}(m.{budget})", timeout=900)


def _allowed(e: BaseException) -> None:
    """An error the contract allows (anything else fails the example)."""
    if not isinstance(e, ALLOWED) or type(e) in (OverflowError, IndexError, KeyError):
        raise AssertionError(f"{type(e).__name__} is not a ValueError/TypeError: {e}") from e
    assert str(e), f"{type(e).__name__} without a message"


def _attempt(fn, *args, **kw):
    """fn(...) or None when it raised an allowed error."""
    try:
        return fn(*args, **kw)
    except Exception as e:  # noqa: BLE001 - classified by _allowed
        _allowed(e)
        return None


# ------------------------------------------------------------------------ strategies
odd = st.sampled_from([-1, 2 ** 31, 2 ** 63, 2 ** 70, 1.5, 2.0, float("nan"), float("inf"), "3",
                       None, True, [1], b"x", (), {}])
small = st.integers(0, 30)


def mostly(valid, *wild):
    """Mostly valid values (so that most examples get past the constructors),
    now and then a wild one."""
    wild_one = st.one_of(*wild)
    return st.sampled_from(range(10)).flatmap(lambda i: valid if i < 8 else wild_one)


wild_options = st.fixed_dictionaries({}, optional={
    "american": st.booleans(), "lowball": st.booleans(), "finnish": st.booleans(),
    "fantasyland": st.one_of(st.booleans(), odd),
    "repeat": st.sampled_from(["classic", "pineapple", "infinite", "none", "big-pineapple", "x"]),
    "repeat_limit": st.one_of(st.none(), st.integers(0, 3), odd),
    "entry_cards": st.one_of(st.lists(st.integers(0, 60), max_size=4).map(lambda x: [0] + x),
                             st.lists(st.integers(-3, 30), max_size=3), odd),
    "repeat_cards": st.one_of(st.integers(0, 60), odd),
    "scoring": st.sampled_from(["1-6", "2-4", "2-6", "1-12", "x"]),
})
options = mostly(st.just({}), st.fixed_dictionaries({}, optional={
    "entry_cards": st.lists(st.integers(13, 24), min_size=1, max_size=3).map(lambda x: [0] + x),
    "repeat_cards": st.integers(13, 24), "repeat": st.sampled_from(["infinite", "none"]),
    "fantasyland": st.booleans()}), wild_options)
players = mostly(st.integers(2, 4), st.integers(-1, 6), st.lists(st.text(max_size=3), max_size=5),
                 odd, st.just("ab"))
seeds = mostly(st.integers(0, 2 ** 70), st.none(), st.integers(-5, -1),
               st.lists(st.integers(0, 9), max_size=3), odd)
buttons = mostly(st.integers(0, 1), st.integers(-2, 5), odd)
fl_entry = st.one_of(small, st.booleans(), st.none(),
                     st.tuples(st.integers(0, 30), st.integers(-1, 300)), odd)
fl_specs = mostly(st.none(), st.lists(st.sampled_from([0, 0, True, 14, (14, 2), 19, 13]),
                                      min_size=2, max_size=4),
                  st.lists(fl_entry, max_size=5),
                  st.dictionaries(st.integers(-1, 5), fl_entry, max_size=3), odd)
card_like = st.one_of(st.integers(-2, 60), st.sampled_from(["As", "Kd", "zz", "10h", 2 ** 70, 1.0]))
row_like = st.one_of(st.integers(-3, 5), st.sampled_from(["top", "bottom", "discard", "roof",
                                                          2 ** 70, 0.5, None]))
garbage_moves = st.one_of(
    st.tuples(st.lists(card_like, max_size=6), st.lists(row_like, max_size=6)),
    st.dictionaries(st.sampled_from(["top", "middle", "bottom", "discard", "roof", 0, 7]),
                    st.one_of(st.sampled_from(["As Kd", "2c", "", "zz"]),
                              st.lists(card_like, max_size=3)),
                    max_size=3),
    odd)


def _snapshot(g):
    return (g.layouts.tolist(), [g.discards(p).tolist() for p in range(g.n_players)],
            g.history, g.to_act, g.hand, g.timed_out)


def _copies(g):
    return [g.copy(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))]


def _check_timeouts(g):
    """Every turn of a timed-out seat from its first time-out on is one."""
    for seat in g.timed_out:
        turns = [t for t in g.history if t.seat == seat]
        first = next(i for i, t in enumerate(turns) if t.auto == "time-out")
        assert all(t.auto == "time-out" for t in turns[first:])


def _play(g, data, steps=60, strict=True):
    """Random legal and illegal moves, time-outs, copies and pickles
    (``strict``: a variant made by ``variant()``, whose record must work)."""
    kept = []
    for _ in range(steps):
        if g.done:
            break
        action = data.draw(st.sampled_from(["legal", "legal", "legal", "illegal", "timeout", "copy",
                                            "view", "auto"]))
        if action == "legal":
            moves = g.legal_moves()
            g.play(moves[data.draw(st.integers(0, len(moves) - 1))])
        elif action == "illegal":
            move = data.draw(garbage_moves)
            before = _snapshot(g)
            try:
                g.play(move)
            except Exception as e:  # noqa: BLE001
                _allowed(e)
                assert _snapshot(g) == before, "a refused move changed the game"
        elif action == "timeout":
            g.timeout()
        elif action == "copy":
            for h in _copies(g):
                assert h == g
                kept.append((h, _snapshot(h)))
        elif action == "view":
            seat = data.draw(st.one_of(st.integers(-1, 4), odd))
            _attempt(g.view, seat)
            _attempt(g.is_dead, seat)
            _attempt(g.layout, seat)
        else:
            g.auto = not g.auto
    while not g.done:
        moves = g.legal_moves()
        g.play(moves[len(moves) // 2])
    res = g.result()
    assert sum(res.points) == 0
    _check_timeouts(g)
    if strict:
        g.record()
    else:                           # a forged variant may not rebuild from options
        _attempt(g.record)
    for h, snap in kept:            # copies did not move with the original
        assert _snapshot(h) == snap
    if kept:                        # and play on their own
        h = kept[-1][0]
        while not h.done:
            h.play(h.legal_moves()[0])
        assert sum(h.result().points) == 0


# ------------------------------------------------------------------------- checks
def check_games(budget):
    @budget
    @given(st.sampled_from(VARIANT_NAMES), options, players, seeds, buttons, fl_specs,
           st.booleans(), st.data())
    def run(name, opts, who, seed, button, fl, auto, data):
        try:
            v = ofc.variant(name, **opts)
        except Exception as e:  # noqa: BLE001
            _allowed(e)
            assert isinstance(e, (ofc.OFCError, TypeError)), e
            return
        if seed is None:            # a random deal: build it, but play a reproducible one
            _attempt(ofc.Game, v, who, seed=None, button=button, fantasyland=fl, auto=auto)
            seed = 0
        g = _attempt(ofc.Game, v, who, seed=seed, button=button, fantasyland=fl, auto=auto)
        if g is not None:
            _play(g, data)
    run()


def test_games():
    _in_child("check_games", "ENGINE_QUICK")


@pytest.mark.fuzz
def test_games_long():
    _in_child("check_games", "LONG")


def check_matches(budget):
    policies = mostly(st.none(), st.just("random"),
                      st.lists(st.sampled_from([None, 3, "x"]), max_size=3), odd)

    @budget
    @given(st.sampled_from(VARIANT_NAMES), mostly(st.integers(2, 3), st.integers(1, 5)),
           mostly(st.none(), st.integers(-2, 9), odd), seeds, buttons, policies,
           st.booleans(), st.data())
    def run(name, P, hands, seed, button, pols, finish, data):
        v = ofc.VARIANTS[name]
        if pols == "random":
            pols = [ofc.RandomPolicy(i) for i in range(P)]
        if seed is None:            # a random deal each hand: play reproducible ones
            seed = 0
        m = _attempt(ofc.Match, v, P, hands=hands, seed=seed, button=button, policies=pols,
                     finish_fantasyland=finish)
        if m is None:
            return
        assert m.hands % m.n_players == 0 and m.hands >= m.n_players
        if m.hands > 2 * m.n_players:
            return
        for _ in range(12):
            if m.done:
                break
            g = m.start_hand()
            out = data.draw(st.dictionaries(st.integers(0, P - 1), st.integers(-1, 6), max_size=2))
            while not g.done:
                p = g.to_act
                if p in out and g.street >= out[p]:
                    g.timeout()
                else:
                    moves = g.legal_moves()
                    g.play(moves[data.draw(st.integers(0, len(moves) - 1))], seat=p)
            if data.draw(st.booleans()):
                for c in (m.copy(), pickle.loads(pickle.dumps(m))):
                    assert c._game == m._game
            m.end_hand()
            assert m.scores.sum() == 0
            if g.timed_out and not any(m.next_fantasyland[q][0] for q in range(P)
                                       if q not in g.timed_out):
                assert m.done and m.ended_by == "time-out"
        assert m.ended_by in ("orbits", "time-out", None)
    run()


def test_matches():
    _in_child("check_matches", "ENGINE_QUICK")


@pytest.mark.fuzz
def test_matches_long():
    _in_child("check_matches", "LONG")


def check_rollouts(budget):
    counts = mostly(st.integers(1, 40), st.integers(-2, 0), odd)

    @budget
    @given(st.sampled_from(VARIANT_NAMES), st.integers(0, 2 ** 32 - 1), st.integers(0, 13),
           counts, seeds, mostly(st.sampled_from(["random", "best"]), st.just("worst"), odd),
           mostly(st.sampled_from(["stats", "layouts", "evals"]), st.just("x"), odd), counts,
           mostly(st.integers(0, 3), st.integers(-3, 300), odd),
           mostly(st.none(), st.integers(0, 2 ** 60), st.sampled_from(["As Kd", "zz", [1, 2]]),
                  odd),
           mostly(st.integers(-20, 20), st.integers(-10 ** 7, 10 ** 7), odd))
    def run(name, lay_seed, filled, n, seed, policy, out, tries, in_fl, dead, bonus):
        v = ofc.VARIANTS[name]
        rng = np.random.default_rng(lay_seed)
        lay = np.full(v.n_cards, 255, np.uint8)
        lay[rng.choice(v.n_cards, filled, replace=False)] = rng.choice(52, filled, replace=False)
        _attempt(ofc.rollout, lay, dead, n=n, variant=v, policy=policy, seed=seed, out=out,
                 in_fantasyland=in_fl, tries=tries, fantasyland_bonus=bonus)
        _attempt(ofc.is_dead, lay, dead, v)
        _attempt(ofc.completion, lay, dead, v)
        opp = np.full((1, v.n_cards), 255, np.uint8)
        _attempt(ofc.rollout_ev, lay, opp, n=n, variant=v, dead_cards=dead, seed=seed,
                 in_fantasyland=in_fl)
        # odd layouts and variants
        _attempt(ofc.is_dead, rng.integers(0, 300, rng.integers(0, 20)).astype(np.uint8), None, v)
        _attempt(ofc.rollout, lay, n=3, variant=policy)
    run()


def test_rollouts():
    _in_child("check_rollouts", "ENGINE_QUICK")


@pytest.mark.fuzz
def test_rollouts_long():
    _in_child("check_rollouts", "LONG")


anything = st.one_of(st.integers(-3, 30), odd, st.lists(st.integers(-1, 30), max_size=3),
                     st.lists(st.tuples(st.integers(-1, 30), st.integers(-1, 30)), max_size=12),
                     st.text(max_size=4))
field_values = {
    "n_rows": st.one_of(st.integers(1, 6), odd),
    "first_street": anything, "streets": anything, "entry_cards": anything,
    "repeat_cards": anything, "min_players": st.one_of(st.integers(0, 6), odd),
    "max_players": st.one_of(st.integers(0, 6), odd), "repeat_limit": anything,
    "lowball": st.one_of(st.booleans(), odd), "entry": st.sampled_from(["qq", "x", None]),
    "repeat": st.sampled_from(["classic", "pineapple", "x", None]),
}


def forge(base, fields):
    v = object.__new__(ofc.Variant)
    for f in dataclasses.fields(ofc.Variant):
        object.__setattr__(v, f.name, fields.get(f.name, getattr(base, f.name)))
    return v


def check_forged(budget):
    @budget
    @given(st.sampled_from(VARIANT_NAMES),
           st.fixed_dictionaries({}, optional=field_values), st.integers(2, 4), fl_specs,
           st.data())
    def run(name, fields, P, fl, data):
        v = forge(ofc.VARIANTS[name], fields)
        g = _attempt(ofc.Game, v, P, seed=1, fantasyland=fl)
        if g is not None:
            _play(g, data, steps=20, strict=False)
        m = _attempt(ofc.Match, v, P, seed=2)
        if m is not None:
            _attempt(m.play_hand)
        lay = np.full(13, 255, np.uint8)
        _attempt(ofc.rollout, lay, n=5, variant=v, seed=1)
        _attempt(ofc.is_dead, lay, None, v)
    run()


def test_forged_variants():
    _in_child("check_forged", "ENGINE_QUICK")


@pytest.mark.fuzz
def test_forged_variants_long():
    _in_child("check_forged", "LONG")


def check_solver(budget):
    @budget
    @given(st.sampled_from(VARIANT_NAMES), st.integers(0, 2 ** 32 - 1),
           mostly(st.sampled_from([13, 14, 15, 16, 17, 19]), st.integers(0, 26)),
           mostly(st.sampled_from(["royalties", "royalties+repeat"]), st.just("x"),
                  st.floats(allow_nan=True), odd),
           mostly(st.none(), st.floats(), odd),
           mostly(st.integers(1, 3), st.integers(-1, 300), odd),
           mostly(st.sampled_from([None, 1, 2]), st.integers(-1, 4), odd))
    def run(name, seed, k, objective, repeat_value, in_fl, threads):
        rng = np.random.default_rng(seed)
        hand = rng.choice(52, min(k, 52), replace=False)
        if k > 24 or rng.random() < 0.1:
            hand = rng.integers(-5, 300, k)
        if objective == "royalties" and repeat_value is not None and rng.random() < 0.8:
            repeat_value = None
        _attempt(ofc.solve_fantasyland, hand, name, objective, repeat_value, in_fl)
        _attempt(ofc.solve_fantasyland_batch, hand[None], name, objective, repeat_value, in_fl,
                 n_threads=threads)
    run()


def test_solver():
    _in_child("check_solver", "ENGINE_QUICK")


@pytest.mark.fuzz
def test_solver_long():
    _in_child("check_solver", "LONG")
