"""Fuzzing the kernels' boundaries: odd arrays and custom variants.

Every check runs in a child interpreter (``tests/isolated.py``), so a crash in
C fails the test instead of killing the run.  The default run uses the QUICK
budget; ``pytest -m fuzz`` runs the LONG twins.

* odd arrays (every dtype, shape, stride, value range, read-only, ``out=``)
  through ``strength5/strength3/row_strength``, ``evaluate``, ``score_*``:
  either the right answer or the library's error (ValueError/TypeError
  subclasses), nothing else;
* random option sets for ``variant()``, valid and invalid: a RulesError, or a
  variant whose ``evaluate`` and ``score_tables`` agree with the independent
  ``slow_scorer`` on random tables;
* the same odd arrays with ``n_threads`` 2, 3 or None and chunk minimums of
  one item (so a few hands split into chunks): the result or the error of one
  thread, exactly.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ofc_fast as ofc
import slow_scorer as S
from fuzz_budget import LONG, QUICK  # noqa: F401 - the child looks budgets up by name
from isolated import run_isolated

# long (subprocesses, builds or many games): the full run, not the edit-test loop
pytestmark = pytest.mark.slow

ALLOWED = (ValueError, TypeError)   # ofc.OFCError is a ValueError


def _in_child(check: str, budget: str) -> None:
    run_isolated(f"import test_kernels_fuzz as m; m.{check}(m.{budget})", timeout=900)


# ------------------------------------------------------------------------ odd arrays
DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.int32, np.int64, np.uint64, np.float64,
          np.float32, np.bool_, np.complex64, object]


@st.composite
def odd_arrays(draw):
    """Arrays a user might pass by mistake, and good ones in odd layouts."""
    k = draw(st.sampled_from([0, 1, 3, 4, 5, 6, 13, 18]))
    lead = draw(st.lists(st.integers(0, 4), max_size=2))
    shape = tuple(lead) + ((k,) if draw(st.booleans()) or not lead else ())
    n = int(np.prod(shape)) if shape else 1
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    kind = draw(st.sampled_from(["distinct", "ids", "wild", "empty"]))
    if kind == "distinct" and k and k <= 52 and n:
        rows = -(-n // k)
        vals = np.argsort(rng.random((rows, 52)), axis=1)[:, :k].reshape(-1)[:n]
    elif kind == "ids":
        vals = rng.integers(0, 52, n)
    elif kind == "wild":
        vals = rng.choice([-(2 ** 40), -1, 0, 51, 52, 254, 255, 256, 2 ** 31, 2 ** 62], n)
    else:
        vals = np.full(n, 255)
    dtype = draw(st.sampled_from(DTYPES))
    with np.errstate(all="ignore"):
        arr = np.asarray(vals).astype(dtype).reshape(shape)
    if draw(st.booleans()) and arr.ndim >= 2:
        arr = np.asfortranarray(arr)
    if draw(st.booleans()) and arr.ndim >= 1 and arr.shape[0] > 1:
        arr = arr[::-1]
    if draw(st.booleans()):
        arr.flags.writeable = False
    return arr


def _expect_valid(arr: np.ndarray, k: int) -> bool:
    """Would a careful caller expect a result (not an error) for these hands?"""
    if arr.dtype.kind not in "iu" or arr.ndim == 0 or arr.shape[-1] != k:
        return False
    flat = arr.reshape(-1, k).astype(np.int64)
    return bool(((flat >= 0) & (flat <= 51)).all()
                and all(len(set(row)) == k for row in flat.tolist()))


def check_odd_arrays(budget):
    v3, v4 = ofc.variant("pineapple"), ofc.variant("big-pineapple")

    @budget
    @given(odd_arrays(), st.booleans())
    def run(arr, with_out):
        for fn, sizes in ((ofc.strength5, (5,)), (ofc.strength3, (3,)),
                          (ofc.row_strength, (3, 5))):
            valid = any(_expect_valid(arr, k) for k in sizes)
            out = np.zeros(arr.shape[:-1], np.uint16) if with_out and arr.ndim else None
            try:
                got = fn(arr, out=out)
            except ALLOWED:
                assert not valid, (fn.__name__, arr)
                continue
            assert valid, (fn.__name__, arr)
            # odd dtypes, strides and out= give what one clean hand at a time gives
            each = [fn([int(c) for c in h]) for h in arr.reshape(-1, arr.shape[-1])]
            np.testing.assert_array_equal(np.asarray(got).reshape(-1), each)
        for v in (v3, v4):
            valid = _expect_valid(arr, v.n_cards) and arr.ndim <= 2
            try:
                ev = ofc.evaluate(arr, v)
                pts = ofc.score_field(arr, v)
            except ALLOWED:
                assert not valid
                continue
            assert valid
            assert ev.strengths.shape == (len(pts), v.n_rows)
            if arr.ndim == 2 and len(arr) and arr.shape[0] * v.n_cards <= 52 and \
                    v.min_players <= arr.shape[0] <= v.max_players and \
                    len(set(arr.reshape(-1).tolist())) == arr.size:
                tab = ofc.score_tables(arr[None], v)
                assert int(tab.sum()) == 0
    run()


def test_odd_arrays():
    _in_child("check_odd_arrays", "QUICK")


@pytest.mark.fuzz
def test_odd_arrays_long():
    _in_child("check_odd_arrays", "LONG")


# ------------------------------------------------------------------------- threads
def _outcome(call):
    try:
        res = call()
    except ALLOWED as e:
        return ("error", type(e), str(e))
    if hasattr(res, "__dataclass_fields__"):
        res = [getattr(res, f) for f in res.__dataclass_fields__
               if f not in ("variant", "_columns")]
    return ("ok", [np.asarray(r).tolist() for r in (res if isinstance(res, list) else [res])])


def check_threads(budget):
    from ofc_fast import _eval, _layout, _score
    _eval.MIN_CHUNK = _layout.MIN_CHUNK = _score.MIN_PAIRS = _score.MIN_TABLES = 1
    v3, v4 = ofc.variant("pineapple"), ofc.variant("big-pineapple")

    @budget
    @given(odd_arrays(), st.sampled_from([2, 3, None]), st.booleans())
    def run(arr, threads, with_out):
        calls = [lambda t, fn=fn: fn(arr, out=None if not with_out or not arr.ndim
                                     else np.zeros(arr.shape[:-1], np.uint16), n_threads=t)
                 for fn in (ofc.strength5, ofc.strength3, ofc.row_strength)]
        for v in (v3, v4):
            calls += [lambda t, v=v: ofc.evaluate(arr, v, np.arange(len(arr)) % 3 if arr.ndim == 2
                                                  else None, n_threads=t),
                      lambda t, v=v: ofc.score_field(arr, v, n_threads=t),
                      lambda t, v=v: ofc.score_matrix(arr, v, n_threads=t)]
            if arr.ndim == 2 and arr.shape[0] % 2 == 0:
                calls.append(lambda t, v=v: ofc.score_tables(
                    arr.reshape(-1, 2, *arr.shape[1:]), v, n_threads=t))
        for call in calls:
            assert _outcome(lambda c=call: c(threads)) == _outcome(lambda c=call: c(1))
    run()


def test_threads():
    _in_child("check_threads", "QUICK")


@pytest.mark.fuzz
def test_threads_long():
    _in_child("check_threads", "LONG")


# ------------------------------------------------------------------- custom variants
number = st.one_of(st.integers(0, 30), st.integers(-5, -1), st.integers(10 ** 6, 10 ** 8),
                   st.sampled_from([2 ** 16, 2 ** 31, 2 ** 63, 0.0, 2.0, 2.7, float("nan"),
                                    float("inf"), True, "3", None, [1]]))
small = st.integers(0, 30)
hand_names = st.sampled_from(["trips", "straight", "flush", "full_house", "quads",
                              "straight_flush", "royal_flush", "pair", "wheel"])
row_table = st.dictionaries(hand_names, st.one_of(small, number), max_size=4)
royalties = st.one_of(
    st.sampled_from(["american", "russian", "pokerstars", "bogus"]),
    st.fixed_dictionaries({}, optional={
        "middle": row_table, "bottom": row_table, "third": row_table, "second": row_table,
        "top_pairs": st.one_of(st.lists(small, min_size=13, max_size=13), st.lists(small)),
        "top_trips": st.dictionaries(st.sampled_from(["AAA", "222", "KK", "", "Q"]), small),
        "lowball": st.dictionaries(st.sampled_from([9, 8, 76, 75, 7, "76"]), small)}))
scoring = st.one_of(
    st.sampled_from(["1-6", "2-4", "2-6", "1-12", "x"]),
    st.fixed_dictionaries({"per_row": st.one_of(small, number)}, optional={
        "scoop_bonus": st.one_of(small, number), "majority_bonus": small,
        "foul_penalty": st.one_of(small, st.none())}))
options = st.fixed_dictionaries({}, optional={
    "american": st.one_of(st.booleans(), number), "lowball": st.booleans(),
    "finnish": st.one_of(st.booleans(), st.just("yes")), "fantasyland": st.booleans(),
    "repeat": st.sampled_from(["classic", "pineapple", "infinite", "none", "big-pineapple",
                               "sometimes", None]),
    "repeat_limit": st.one_of(st.none(), st.integers(0, 3), number),
    "royalties": royalties, "scoring": scoring,
    "foul_penalty": st.one_of(st.none(), small, number),
    "third_row_trips": st.one_of(small, number),
})
SLOW_OPTIONS = {"american", "lowball", "finnish", "fantasyland", "repeat", "repeat_limit",
                "royalties", "scoring", "foul_penalty", "third_row_trips"}


def _check_variant(name, opts, seed):
    try:
        v = ofc.variant(name, **opts)
    except ofc.RulesError:
        return
    slow = S.rules(name, **opts)
    rng = np.random.default_rng(seed)
    P = v.max_players
    deck = rng.permutation(52)[:P * v.n_cards].astype(np.uint8)
    tables = deck.reshape(1, P, v.n_cards)
    fl = rng.integers(0, 3, (1, P)).astype(np.uint8)
    res = ofc.score_tables(tables, v, in_fantasyland=fl, details=True)
    ev = ofc.evaluate(tables[0], v, in_fantasyland=fl[0])
    layouts = [t.tolist() for t in tables[0]]
    want = S.table(layouts, slow)
    assert res.points[0].tolist() == list(want), (name, opts)
    assert int(res.points.sum()) == 0
    for p, lay in enumerate(layouts):
        e = S.evaluate(lay, slow, int(fl[0, p]))
        assert bool(ev.foul[p]) == e.foul
        assert ev.royalties[p].tolist() == e.royalties
        assert int(ev.next_fantasyland[p]) == e.fantasyland, (name, opts, p)


def check_custom_variants(budget):
    @budget
    @given(st.sampled_from(sorted(ofc.VARIANTS)), options, st.integers(0, 2 ** 32 - 1))
    def run(name, opts, seed):
        _check_variant(name, opts, seed)
    run()


def test_custom_variants():
    _in_child("check_custom_variants", "QUICK")


@pytest.mark.fuzz
def test_custom_variants_long():
    _in_child("check_custom_variants", "LONG")
