"""The Python API's argument contract (issues 17 and 18): one argument layer
(``ofc_fast._args``), wrong types are TypeErrors and wrong values the
library's errors naming the value, per-item inputs taken by shape (numpy
broadcasting) not by size, one name for the value of a fantasyland with the
old names as deprecated aliases, and the foul explanation beside the foul
rule."""
from __future__ import annotations

import pathlib
import re
import warnings

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast.errors import ArgumentError, OFCError, RulesTypeError, StateError
from ofc_fast.policies import fantasyland_move, resolve_policies, seeded_policies
from ofc_fast.rollouts import rollout

PKG = pathlib.Path(ofc.__file__).resolve().parent
# the Python API layer (the file readers, the CLI, reports and outputs have their own owner)
OTHERS = {"cli.py", "outputs.py", "report.py", "dask.py", "_args.py"}
API_MODULES = sorted(p for p in PKG.glob("*.py") if p.name not in OTHERS)

V = ofc.variant("pineapple")
QQ = "Qs Qd 2c / 9h 9d 9c 5s 5d / Ah Ac Ad 4c 4d"       # enters fantasyland, repeats nothing
KK = "Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d"


# ----------------------------------------------------------------- one argument layer
def test_no_module_imports_rollouts_for_a_helper():
    """0.2: moves, engine and policies imported rollouts for int_arg / SeedLike."""
    helpers = {"int_arg", "points_arg", "SeedLike"}
    found = []
    for path in API_MODULES:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"from ofc_fast\.rollouts import \(?([^)]*?)\)?\n(?!\s)", text, re.S):
            names = set(re.findall(r"\w+", m.group(1)))
            if names & helpers and path.name != "rollouts.py":
                found.append((path.name, sorted(names & helpers)))
    assert found == []
    assert not hasattr(ofc.rollouts, "int_arg") and not hasattr(ofc.rollouts, "points_arg")


def test_no_second_validator():
    """The five integer validators and two out= checkers of 0.2 are gone:
    every module checks through ofc_fast._args."""
    pattern = re.compile(r"^def (_integer|int_arg|_seat|_button|_out|_deal_int|points_arg)\(",
                         re.M)
    assert [(p.name, m.group(1)) for p in API_MODULES
            for m in pattern.finditer(p.read_text(encoding="utf-8"))] == []


def _policy():
    return ofc.RandomPolicy(1)


def _finished():
    g = ofc.Game(V, 2, seed=1)
    g.run(ofc.RandomPolicy(2))
    return g


# Each call with a wrong *type* (TypeError) or a wrong *value* (the library's
# error), and the text the message must show: the offending value.
BAD = [
    (lambda: ofc.Game(V, 2, button=0.5), TypeError,
     "button must be an integer seat 0 .. 1, got 0.5"),
    (lambda: ofc.Game(V, 2, button=5), ArgumentError, "no seat 5 at a table of 2"),
    (lambda: ofc.Game(V, 2).view(0.5), TypeError, "got 0.5"),
    (lambda: ofc.Game(V, 2).layout(3), ArgumentError, "no seat 3 at a table of 2"),
    (lambda: ofc.Game(V, 2, fantasyland={0.5: 14}), TypeError, "fantasyland seat must be an "
                                                              "integer seat 0 .. 1, got 0.5"),
    (lambda: ofc.Game(V, 2, fantasyland=[15, 0]), ArgumentError, "deals 14 cards in "
                                                                "fantasyland, not 15"),
    (lambda: ofc.Game(V, 2, fantasyland=[14, 0, 0]), ArgumentError, "[14, 0, 0]"),
    (lambda: ofc.Game(V, names=["a", "b", "c", "d"]), ArgumentError, "got 4 names"),
    (lambda: resolve_policies({0.5: _policy(), 1: _policy()}, 2), TypeError, "got 0.5"),
    (lambda: resolve_policies({0: _policy()}, 2), ArgumentError, "seat 1 has none"),
    (lambda: resolve_policies([_policy()], 2), ArgumentError, "one policy per seat (2), got 1"),
    (lambda: seeded_policies(2, -3), ArgumentError, "seed must be at least 0, got -3"),
    (lambda: ofc.Match(V, 2, n_hands="4"), TypeError, "hands must be an integer, got '4'"),
    (lambda: _finished().record(names=["a"]), ArgumentError, "one name per seat (2)"),
    (lambda: _finished().record(names="ab"), TypeError, "names must be a sequence"),
    (lambda: ofc.Game(V, 2).result(), StateError, "not finished"),
    (lambda: _finished().view(), StateError, "the hand is over"),
    (lambda: ofc.variant("pineapple", finnish="yes"), RulesTypeError,
     "finnish must be True or False, got 'yes'"),
    (lambda: ofc.variant("pineapple", colour="red"), RulesTypeError, "unknown option 'colour'"),
    (lambda: ofc.rules.variant_options(ofc.Variant("mine")), ArgumentError, "named 'mine'"),
    (lambda: rollout(QQ, n=5, result=None), TypeError, "got None"),
    (lambda: rollout(QQ, n=5, result="stat"), ArgumentError, "got 'stat'"),
    (lambda: rollout(QQ, n=5, completion=["best"]), TypeError, "['best']"),
    (lambda: ofc.score_pair([ofc.parse_layout(QQ)] * 2, KK, V), ArgumentError,
     "one layout each, got 2 and 1"),
    (lambda: ofc.settle([[0, 1], [-1, 0]], stake="2"), TypeError, "got '2'"),
    (lambda: ofc.settle([[0, 1], [1, 0]]), ArgumentError, "[0, 1] = 1 and [1, 0] = 1"),
    (lambda: ofc.solve_fantasyland(list(range(14)), objective=["royalties"]), TypeError,
     "['royalties']"),
    (lambda: ofc.solve_fantasyland(list(range(14)), in_fantasyland=0), ArgumentError,
     "in_fantasyland must be 1 .. 255, got 0"),
    (lambda: ofc.solve_fantasyland(list(range(13)), V), ArgumentError, "hand has 13 cards"),
    (lambda: ofc.SolverPolicy(z=-1.0), ArgumentError, "got -1.0"),
    (lambda: ofc.SolverPolicy(time_budget_ms=0), ArgumentError, "got 0"),
    (lambda: ofc.SolverPolicy(completion="bets"), ArgumentError, "unknown completion model 'bets'"),
    (lambda: ofc.cards.mask_cards(-1), ArgumentError, "got -1"),
    (lambda: ofc.describe_strength(0), ArgumentError, "0 is not a row strength"),
]


@pytest.mark.parametrize("call, exc, text", BAD)
def test_wrong_types_are_type_errors_and_values_library_errors(call, exc, text):
    with pytest.raises(exc) as info:
        call()
    assert text in str(info.value)
    if not issubclass(exc, TypeError) or issubclass(exc, OFCError):
        assert isinstance(info.value, OFCError) and isinstance(info.value, ValueError)


def test_state_and_rules_type_errors_keep_their_old_bases():
    with pytest.raises(RuntimeError):
        ofc.Game(V, 2).result()
    with pytest.raises(TypeError):            # an unknown keyword argument is a TypeError ...
        ofc.variant("pineapple", colour="red")
    with pytest.raises(ofc.RulesError):       # ... and a bad rule, as record readers expect
        ofc.variant("pineapple", colour="red")


def test_empty_move_values_has_no_best():
    mv = ofc.move_values(ofc.Game(V, 2, seed=3), n=50, seed=1, moves=[])
    with pytest.raises(StateError, match="no move was valued"):
        mv.best()


# --------------------------------------------------------------------- shapes, not sizes
TABLES = np.stack([np.stack([ofc.parse_layout(QQ), ofc.parse_layout(KK)])] * 3)   # (3, 2, 13)


def test_per_seat_counts_broadcast_by_shape_not_size():
    """0.2 flattened in_fantasyland and took it by size: (P, G) = (2, 3) given
    for (G, P) = (3, 2) was accepted, putting counts on the wrong seats."""
    per_seat = ofc.score_tables(TABLES, V, in_fantasyland=[1, 0], details=True)
    full = ofc.score_tables(TABLES, V, in_fantasyland=np.tile([1, 0], (3, 1)), details=True)
    assert per_seat.points.tolist() == full.points.tolist()
    assert per_seat.next_fantasyland.tolist() == full.next_fantasyland.tolist()
    assert full.next_fantasyland[:, 0].tolist() == [0, 0, 0]    # QQ in fantasyland: no repeat
    assert full.next_fantasyland[:, 1].tolist() == [14, 14, 14]  # KK enters
    none = ofc.score_tables(TABLES, V, details=True)
    assert none.next_fantasyland[:, 0].tolist() == [14, 14, 14]
    with pytest.raises(ArgumentError, match=r"must broadcast to shape \(3, 2\) \(tables, "
                                            r"players\), got shape \(2, 3\)"):
        ofc.score_tables(TABLES, V, in_fantasyland=np.zeros((2, 3), np.uint8))
    with pytest.raises(ArgumentError, match=r"got shape \(6,\)"):
        ofc.score_tables(TABLES, V, in_fantasyland=np.zeros(6, np.uint8))


@pytest.mark.parametrize("call, text", [
    (lambda: ofc.evaluate(np.stack([ofc.parse_layout(QQ)] * 2), V, in_fantasyland=[1, 0, 0]),
     r"broadcast to shape \(2,\) \(layouts\), got shape \(3,\)"),
    (lambda: rollout(QQ.replace("4d", "__"), n=5, in_fantasyland=[0, 1]),
     r"broadcast to shape \(1,\) \(layouts\), got shape \(2,\)"),
    (lambda: ofc.is_dead(ofc.parse_layout(QQ.replace("4d", "__")),
                         unseen=np.arange(16, dtype=np.uint8).reshape(2, 8)),
     r"must have shape \(1, k\) .*got shape \(2, 8\)"),
    (lambda: ofc.settle([[0, 1], [-1, 0]], stacks=[1, 2, 3]),
     r"stacks must broadcast to shape \(2,\) \(players\), got shape \(3,\)"),
    (lambda: ofc.format_layout(ofc.parse_layout(QQ)[:, None]),
     r"shape \(13,\), got shape \(13, 1\)"),
    (lambda: ofc.Game(V, 2, deck=np.arange(52, dtype=np.uint8).reshape(4, 13)),
     r"deck must have shape \(52,\), got shape \(4, 13\)"),
    (lambda: ofc.Game(V, 2, fantasyland=np.array([[14, 0]])),
     r"fantasyland must have shape \(2,\) or \(2, 2\).*got shape \(1, 2\)"),
    (lambda: ofc.Game.from_position(V, ["__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __",
                                        "__ __ __ / __ __ __ __ __ / __ __ __ __ __"],
                                    button=1, hand=np.array([[1, 2, 3, 4, 5]])),
     r"hand must be one list of cards \(shape \(k,\)\), got shape \(1, 5\)"),
])
def test_shapes_are_refused_naming_both(call, text):
    with pytest.raises(ArgumentError, match=text):
        call()


def test_broadcast_forms_that_numpy_accepts_work():
    one = ofc.evaluate(np.stack([ofc.parse_layout(QQ)] * 2), V, in_fantasyland=1)
    assert one.next_fantasyland.tolist() == [0, 0]      # QQ repeats nothing in fantasyland
    assert ofc.settle([[0, 12], [-12, 0]], stacks=5).tolist() == [5.0, -5.0]
    g = ofc.Game(V, 2, seed=1, fantasyland=np.array([14, 0]))
    h = ofc.Game(V, 2, seed=1, fantasyland=np.array([[14, 1], [0, 0]]))
    assert g.fantasyland_deal == h.fantasyland_deal == (14, 0)


# ------------------------------------------------------------ one vocabulary, old names
def _warns_once(call, old):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        value = call()
    msgs = [str(w.message) for w in seen if issubclass(w.category, DeprecationWarning)]
    assert len(msgs) == 1 and old in msgs[0], msgs
    return value


def test_the_value_of_a_fantasyland_has_one_name():
    part = "As Ad __ / __ __ __ __ __ / __ __ __ __ __"
    new = rollout(part, n=300, seed=1, completion="best", fantasyland_value=50)
    old = _warns_once(lambda: rollout(part, n=300, seed=1, completion="best",
                                      fantasyland_bonus=50),
                      "rollout(fantasyland_bonus=...)")
    assert (new.royalty_mean == old.royalty_mean).all()
    assert (new.fantasyland_rate == old.fantasyland_rate).all()
    hand = "As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s"
    sol = ofc.solve_fantasyland(hand, V, fantasyland_value=7)
    assert sol.fantasyland_value == 7 and sol.to_dict()["fantasyland_value"] == 7
    assert "repeat_value" not in sol.to_dict()
    old_sol = _warns_once(lambda: ofc.solve_fantasyland(hand, V, repeat_value=7),
                          "solve_fantasyland(repeat_value=...)")
    assert old_sol.text == sol.text and old_sol.score == sol.score
    assert _warns_once(lambda: sol.repeat_value, "FantasylandSolution.repeat_value") == 7
    batch = ofc.solve_fantasyland_batch([hand], V, fantasyland_value=7)
    assert _warns_once(lambda: batch.repeat_value, "FantasylandBatch.repeat_value") == 7
    g = ofc.Game(V, 2, seed=1, fantasyland=[14, 0])
    move = fantasyland_move(g.view(g.to_act), g.legal_moves(), fantasyland_value=20.0)
    assert _warns_once(lambda: fantasyland_move(g.view(g.to_act), g.legal_moves(),
                                                fl_value=20.0),
                       "fantasyland_move(fl_value=...)") == move


def test_rollout_evals_use_the_names_of_evaluation():
    ev = rollout("As Ad __ / __ __ __ __ __ / __ __ __ __ __", n=40, seed=1, result="evals")
    assert ev.royalty_total.dtype == np.int16 and ev.next_fantasyland.dtype == np.uint8
    assert (_warns_once(lambda: ev.royalty, "RolloutEvals.royalty is deprecated since "
                                           "ofc_fast 0.3") == ev.royalty_total).all()
    assert (_warns_once(lambda: ev.fantasyland, "RolloutEvals.fantasyland")
            == ev.next_fantasyland).all()


# --------------------------------------------------------- the foul rule and its reason
def test_foul_reason_agrees_with_the_foul_rule():
    """layouts.foul_reason names a reason exactly when evaluate says foul, for
    every named variant (it reads the compiled rule the kernels apply)."""
    rng = np.random.default_rng(5)
    for name in ("pineapple", "pineapple-2-7", "big-pineapple", "classic"):
        v = ofc.variant(name)
        lays = np.array([rng.permutation(52)[:v.n_cards] for _ in range(400)], np.uint8)
        ev = ofc.evaluate(lays, v)
        reasons = [ofc.foul_reason(s, v) for s in ev.strengths]
        assert [r is not None for r in reasons] == ev.foul.tolist(), name
        assert 0 < ev.foul.sum() < len(lays), name


def test_foul_reason_words():
    v = ofc.variant("pineapple")
    ev = ofc.evaluate(ofc.parse_layout("As Ah Kd / 2c 3d 4h 9s Jc / 7h 7d 2s 5c 8d", v), v)
    assert ofc.foul_reason(ev.strengths[0], v).startswith(
        "the top (Pair of Aces, King kicker) beats the middle (Jack-high")
    low = ofc.variant("pineapple-2-7")
    ev = ofc.evaluate(ofc.parse_layout("Qs Qd 2c / 2h 3h 4d 5s 6c / 7h 7d 7c 7s 2d", low), low)
    assert "the middle (Six-high straight) is not a 2-7 low" in ofc.foul_reason(ev.strengths[0],
                                                                                 low)
    with pytest.raises(ArgumentError, match=r"shape \(3,\)"):
        ofc.foul_reason([1, 2], v)
