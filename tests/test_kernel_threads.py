"""n_threads on the batch kernels (strength5/strength3/row_strength, evaluate,
score_matrix, score_field, score_tables): the same results, and the same first
bad item named, for any thread count; bad counts refused; one thread never
touches the pool.

Most tests lower the chunk minimums (``small_chunks``) so that batches of a
few hundred items split into many chunks of odd sizes; one test per kernel
family keeps the real minimums on a batch large enough to split.
"""
from __future__ import annotations

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import _eval, _layout, _score
from ofc_fast.errors import CardError, LayoutError

THREADS = [1, 2, 3, None]
BAD_THREADS = [(0, ValueError), (-1, ValueError), (257, ValueError), (2 ** 70, ValueError),
               (2.0, TypeError), ("2", TypeError), (True, TypeError), ([2], TypeError)]
VARIANTS = ["pineapple", "big-pineapple", "pineapple-2-7", "classic"]


def _deals(n, k, seed):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunk minimums of one item (one pair, one table): any batch splits."""
    monkeypatch.setattr(_eval, "MIN_CHUNK", 1)
    monkeypatch.setattr(_layout, "MIN_CHUNK", 1)
    monkeypatch.setattr(_score, "MIN_PAIRS", 1)
    monkeypatch.setattr(_score, "MIN_TABLES", 1)


def _same(got, want):
    if hasattr(want, "__dataclass_fields__"):
        for name in want.__dataclass_fields__:
            a, b = getattr(got, name), getattr(want, name)
            if isinstance(b, np.ndarray):
                assert a.dtype == b.dtype and a.shape == b.shape, name
                np.testing.assert_array_equal(a, b, name)
        return
    assert type(got) is type(want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def _error(fn):
    with pytest.raises((ValueError, TypeError)) as e:
        fn()
    return type(e.value), str(e.value)


# ------------------------------------------------------------------ hand strength

STRENGTH = [(ofc.strength5, 5), (ofc.strength3, 3), (ofc.row_strength, 5), (ofc.row_strength, 3)]


def _hand_inputs(k, seed):
    """Random hands in the layouts a caller may pass: odd sizes, deeper
    batches, strided and reversed views, read-only, other dtypes."""
    base = _deals(1001, 8, seed)
    ro = base[:, :k].copy()
    ro.flags.writeable = False
    return {
        "contiguous": np.ascontiguousarray(base[:, :k]),
        "odd size 7": np.ascontiguousarray(base[:7, :k]),
        "strided columns": base[:, :k],
        "reversed rows": base[::-1, :k],
        "every third row": base[::3, k - 1::-1],
        "read-only": ro,
        "deeper batch": np.ascontiguousarray(base[:1000, :k]).reshape(10, 4, 25, k),
        "int64": base[:999, :k].astype(np.int64),
        "fortran": np.asfortranarray(base[:500, :k]),
    }


@pytest.mark.parametrize("fn,k", STRENGTH)
def test_strength_same_for_any_thread_count(fn, k, small_chunks):
    for name, hands in _hand_inputs(k, seed=k).items():
        want = fn(hands)
        for t in THREADS:
            _same(fn(hands, n_threads=t), want)
            out = np.full(hands.shape[:-1], 7, np.uint16)
            assert fn(hands, out=out, n_threads=t) is out, name
            _same(out, want)
            if out.ndim >= 1 and out.shape[0] > 1:   # a strided out= buffer
                buf = np.zeros(out.shape[:-1] + (2 * out.shape[-1],), np.uint16)
                fn(hands, out=buf[..., ::2], n_threads=t)
                _same(buf[..., ::2], want)
                assert not buf[..., 1::2].any()


@pytest.mark.parametrize("fn,k", STRENGTH)
def test_strength_out_sharing_the_input(fn, k, small_chunks):
    """out= over the cards' own memory: every hand is read before any is written."""
    for t in THREADS:
        buf = np.zeros((301, 8), np.uint8)
        buf[:, :k] = _deals(301, k, 5)
        want = fn(buf[:, :k].copy())
        out = buf.view(np.uint16)[:, 0]
        fn(buf[:, :k], out=out, n_threads=t)
        _same(out, want)


@pytest.mark.parametrize("fn,k", STRENGTH)
def test_strength_names_the_first_bad_hand(fn, k, small_chunks):
    hands = _deals(500, k, 11)
    hands[400, 1] = hands[400, 0]      # a late chunk: a repeated card
    hands[123, 0] = 60                 # an earlier one: not a card
    hands[431, 2] = 255
    errors = {t: _error(lambda t=t: fn(hands, n_threads=t)) for t in THREADS}
    assert errors[1][0] is CardError and "hand 123" in errors[1][1]
    assert set(errors.values()) == {errors[1]}
    deep = hands.reshape(20, 25, k)
    errors = {t: _error(lambda t=t: fn(deep, n_threads=t)) for t in THREADS}
    assert "hand (4, 23)" in errors[1][1] and set(errors.values()) == {errors[1]}


@pytest.mark.slow
def test_strength_large_batch_with_the_real_chunk_size():
    n = 2 * _eval.MIN_CHUNK + 12_345
    hands = _deals(n, 5, 3)
    want = ofc.strength5(hands)
    for t in THREADS:
        _same(ofc.strength5(hands, n_threads=t), want)
        _same(ofc.row_strength(hands[:, :3], n_threads=t), ofc.row_strength(hands[:, :3]))
    hands[n - 10, 4] = hands[n - 10, 3]
    hands[_eval.MIN_CHUNK + 7, 0] = 52
    errors = {t: _error(lambda t=t: ofc.strength5(hands, n_threads=t)) for t in THREADS}
    assert f"hand {_eval.MIN_CHUNK + 7}" in errors[1][1]
    assert set(errors.values()) == {errors[1]}


# ---------------------------------------------------------------------- evaluate

@pytest.mark.parametrize("name", VARIANTS + ["finnish"])
def test_evaluate_same_for_any_thread_count(name, small_chunks):
    v = ofc.variant("pineapple", finnish=True) if name == "finnish" else ofc.variant(name)
    lay = _deals(777, v.n_cards, 21)
    fl = np.arange(777) % 4
    for args in ((), (fl,), (True,)):
        want = ofc.evaluate(lay, v, *args)
        for t in THREADS:
            _same(ofc.evaluate(lay, v, *args, n_threads=t), want)
            _same(ofc.evaluate(lay[::-1].copy()[::-1], v, *args, n_threads=t), want)
    out = ofc.evaluate(_deals(777, v.n_cards, 22), v)
    for t in THREADS:
        again = ofc.evaluate(lay, v, fl, out=out, n_threads=t)
        assert np.shares_memory(again.strengths, out.strengths)
        _same(again, ofc.evaluate(lay, v, fl))


def test_evaluate_names_the_first_bad_layout(small_chunks):
    v = ofc.variant("pineapple")
    lay = _deals(600, 13, 31)
    lay[555, 12] = lay[555, 0]
    lay[208, 4] = 77
    lay[301, 3] = 255
    errors = {t: _error(lambda t=t: ofc.evaluate(lay, v, n_threads=t)) for t in THREADS}
    assert errors[1][0] is LayoutError and "layouts[208]" in errors[1][1]
    assert set(errors.values()) == {errors[1]}


def test_evaluate_large_batch_with_the_real_chunk_size():
    v = ofc.variant("big-pineapple")
    n = 2 * _layout.MIN_CHUNK + 999
    lay = _deals(n, 18, 41)
    want = ofc.evaluate(lay, v, np.arange(n) % 3)
    for t in THREADS:
        _same(ofc.evaluate(lay, v, np.arange(n) % 3, n_threads=t), want)
    lay[n - 1, 0] = lay[n - 1, 1]
    lay[_layout.MIN_CHUNK + 1, 5] = 200
    errors = {t: _error(lambda t=t: ofc.evaluate(lay, v, n_threads=t)) for t in THREADS}
    assert f"layouts[{_layout.MIN_CHUNK + 1}]" in errors[1][1]
    assert set(errors.values()) == {errors[1]}


# ------------------------------------------------------------------ pairwise scoring

@pytest.mark.parametrize("name", VARIANTS + ["finnish"])
def test_score_matrix_and_field_same_for_any_thread_count(name, small_chunks):
    v = ofc.variant("pineapple", finnish=True) if name == "finnish" else ofc.variant(name)
    a, b = _deals(203, v.n_cards, 51), _deals(97, v.n_cards, 52)
    ro = a.copy()
    ro.flags.writeable = False
    m_ab, m_aa = ofc.score_matrix(a, b, v), ofc.score_matrix(a, None, v)
    f_ab, f_aa = ofc.score_field(a, v, field=b), ofc.score_field(a, v)
    for t in THREADS:
        _same(ofc.score_matrix(a, b, v, n_threads=t), m_ab)
        _same(ofc.score_matrix(ro, v, n_threads=t), m_aa)
        _same(ofc.score_matrix(a[::-1], b[::2], v, n_threads=t), m_ab[::-1, ::2])
        out = np.full((203, 97), 9, np.int32)
        assert ofc.score_matrix(a, b, v, out=out, n_threads=t) is out
        _same(out, m_ab)
        _same(ofc.score_field(a, v, field=b, n_threads=t), f_ab)
        _same(ofc.score_field(ro, v, n_threads=t), f_aa)
        _same(ofc.score_field(a[::-1], v, field=b[::2], n_threads=t),
              m_ab[::-1, ::2].sum(axis=1).astype(np.int64))
        tot = np.full(203, 9, np.int64)
        assert ofc.score_field(a, v, field=b, out=tot, n_threads=t) is tot
        _same(tot, f_ab)
        # empty sides
        _same(ofc.score_matrix(a[:0], b, v, n_threads=t), m_ab[:0])
        _same(ofc.score_matrix(a, b[:0], v, n_threads=t), m_ab[:, :0])
        _same(ofc.score_field(a, v, field=b[:0], n_threads=t), np.zeros(203, np.int64))


def test_score_matrix_and_field_name_the_first_bad_layout(small_chunks):
    v = ofc.variant("pineapple")
    a, b = _deals(300, 13, 61), _deals(300, 13, 62)
    a[250, 0] = a[250, 7]
    a[99, 12] = 52
    b[10, 1] = 255
    for call in (lambda t: ofc.score_matrix(a, b, v, n_threads=t),
                 lambda t: ofc.score_field(a, v, field=b, n_threads=t)):
        errors = {t: _error(lambda t=t, c=call: c(t)) for t in THREADS}
        assert errors[1][0] is LayoutError
        assert "a[99]" in errors[1][1] or "layouts[99]" in errors[1][1]
        assert set(errors.values()) == {errors[1]}
    good = _deals(300, 13, 63)
    errors = {t: _error(lambda t=t: ofc.score_matrix(good, b, v, n_threads=t)) for t in THREADS}
    assert "b[10]" in errors[1][1] and set(errors.values()) == {errors[1]}


def test_score_matrix_large_with_the_real_chunk_size():
    v = ofc.variant("pineapple")
    a = _deals(2 * _score.MIN_PAIRS // 1000 + 3, 13, 71)       # rows of 1,000 pairs
    b = _deals(1000, 13, 72)
    want_m, want_f = ofc.score_matrix(a, b, v), ofc.score_field(a, v, field=b)
    for t in THREADS:
        _same(ofc.score_matrix(a, b, v, n_threads=t), want_m)
        _same(ofc.score_field(a, v, field=b, n_threads=t), want_f)


# ------------------------------------------------------------------------ tables

@pytest.mark.parametrize("name", VARIANTS + ["finnish"])
def test_score_tables_same_for_any_thread_count(name, small_chunks):
    v = ofc.variant("pineapple", finnish=True) if name == "finnish" else ofc.variant(name)
    for P in range(v.min_players, v.max_players + 1):
        tables = _deals(333, P * v.n_cards, 80 + P).reshape(333, P, v.n_cards)
        fl = np.random.default_rng(P).integers(0, 3, (333, P))
        for args in ((), (fl,)):
            want = ofc.score_tables(tables, v, *args, details=True)
            want_pts = ofc.score_tables(tables, v, *args)
            for t in THREADS:
                _same(ofc.score_tables(tables, v, *args, details=True, n_threads=t), want)
                _same(ofc.score_tables(tables, v, *args, n_threads=t), want_pts)
                _same(ofc.score_tables(tables[::-1], v, *args, n_threads=t), want_pts[::-1])
        _same(ofc.score_tables(tables[:0], v, n_threads=3), want_pts[:0])


def test_score_tables_names_the_first_bad_table(small_chunks):
    v = ofc.variant("pineapple")
    tables = _deals(400, 39, 91).reshape(400, 3, 13)
    tables[350, 2, 0] = 60                       # not a card
    tables[170, 1, 4] = tables[170, 0, 4]        # a card held by two players
    tables[171, 0, 0] = tables[171, 0, 1]        # a repeated card
    errors = {t: _error(lambda t=t: ofc.score_tables(tables, v, n_threads=t)) for t in THREADS}
    assert errors[1][0] is LayoutError and errors[1][1].startswith("table 170:")
    assert set(errors.values()) == {errors[1]}


def test_score_tables_large_with_the_real_chunk_size():
    v = ofc.variant("pineapple")
    G = 2 * _score.MIN_TABLES + 77
    tables = _deals(G, 26, 101).reshape(G, 2, 13)
    want = ofc.score_tables(tables, v, details=True)
    for t in THREADS:
        _same(ofc.score_tables(tables, v, details=True, n_threads=t), want)
    tables[G - 3, 1, 1] = 99
    tables[_score.MIN_TABLES + 5, 0, 0] = tables[_score.MIN_TABLES + 5, 1, 0]
    errors = {t: _error(lambda t=t: ofc.score_tables(tables, v, n_threads=t)) for t in THREADS}
    assert errors[1][1].startswith(f"table {_score.MIN_TABLES + 5}:")
    assert set(errors.values()) == {errors[1]}


# ------------------------------------------------------------- n_threads itself

def _calls():
    v = ofc.variant("pineapple")
    lay = _deals(4, 13, 1)
    tables = _deals(2, 26, 2).reshape(2, 2, 13)
    return {
        "strength5 one hand": lambda t: ofc.strength5([0, 4, 8, 12, 49], n_threads=t),
        "strength5 text": lambda t: ofc.strength5("As Ks Qs Js Ts", n_threads=t),
        "strength5 batch": lambda t: ofc.strength5(_deals(9, 5, 3), n_threads=t),
        "strength5 empty": lambda t: ofc.strength5(np.zeros((0, 5), np.uint8), n_threads=t),
        "strength3": lambda t: ofc.strength3(_deals(9, 3, 3), n_threads=t),
        "row_strength": lambda t: ofc.row_strength(_deals(9, 3, 3), n_threads=t),
        "evaluate": lambda t: ofc.evaluate(lay, v, n_threads=t),
        "evaluate empty": lambda t: ofc.evaluate(lay[:0], v, n_threads=t),
        "score_matrix": lambda t: ofc.score_matrix(lay, v, n_threads=t),
        "score_matrix empty": lambda t: ofc.score_matrix(lay[:0], lay, v, n_threads=t),
        "score_field": lambda t: ofc.score_field(lay, v, n_threads=t),
        "score_tables": lambda t: ofc.score_tables(tables, v, n_threads=t),
        "score_tables empty": lambda t: ofc.score_tables(tables[:0], v, n_threads=t),
    }


@pytest.mark.parametrize("bad,error", BAD_THREADS)
def test_bad_thread_counts_are_refused(bad, error):
    for call in _calls().values():
        with pytest.raises(error, match="n_threads"):
            call(bad)
        call(256)    # the most threads a call may ask for: fine (never more than chunks)


def test_one_thread_never_touches_the_pool(monkeypatch, small_chunks):
    """n_threads=1 (the default) runs the kernel in the caller's thread,
    without run_chunks, whatever the batch size."""
    def refuse(*args, **kwargs):
        raise AssertionError("run_chunks called for one thread")
    for module in (_eval, _layout, _score):
        monkeypatch.setattr(module, "run_chunks", refuse)
    for call in _calls().values():
        call(1)
    with pytest.raises(AssertionError, match="run_chunks"):
        ofc.strength5(_deals(9, 5, 3), n_threads=2)


def test_small_batches_stay_in_the_calling_thread(monkeypatch):
    """With the real chunk minimums a small batch never reaches the pool."""
    import ofc_fast.threads as th
    def no_pool(size):
        raise AssertionError("pool used for a small batch")
    monkeypatch.setattr(th, "_shared_pool", no_pool)
    v = ofc.variant("pineapple")
    lay = _deals(1000, 13, 1)
    ofc.strength5(_deals(2 * _eval.MIN_CHUNK - 1, 5, 2), n_threads=None)
    ofc.evaluate(_deals(2 * _layout.MIN_CHUNK - 1, 13, 3), v, n_threads=2)
    ofc.score_matrix(lay[:200], lay, v, n_threads=2)       # 200,000 pairs
    ofc.score_field(lay[:200], v, field=lay, n_threads=2)
    ofc.score_tables(_deals(2 * _score.MIN_TABLES - 1, 26, 4).reshape(-1, 2, 13), v, n_threads=2)


def test_small_chunks_do_split(monkeypatch, small_chunks):
    """The tests above split for real: with small_chunks every kernel reaches
    the pool, in as many chunks as threads."""
    import ofc_fast.threads as th
    real = th.run_chunks
    seen = []

    def spy(fn, n, n_threads=1, **kw):
        seen.append((n, th.thread_count(n_threads, max(1, n // max(1, kw.get("min_chunk", 1))))))
        return real(fn, n, n_threads, **kw)
    for module in (_eval, _layout, _score):
        monkeypatch.setattr(module, "run_chunks", spy)
    v = ofc.variant("pineapple")
    lay = _deals(50, 13, 1)
    ofc.strength5(_deals(50, 5, 2), n_threads=3)
    ofc.evaluate(lay, v, n_threads=3)
    ofc.score_field(lay, v, n_threads=3)
    ofc.score_matrix(lay, v, n_threads=3)
    ofc.score_tables(_deals(50, 26, 4).reshape(-1, 2, 13), v, n_threads=3)
    # strength5; evaluate; score_field's columns and totals; score_matrix's; score_tables
    assert seen == [(50, 3)] * 7


def test_a_kernel_called_inside_a_chunk_runs_there(small_chunks):
    """A kernel with n_threads > 1 inside another's chunk (the pool's threads
    are all busy) runs in the chunk's thread instead of waiting on them."""
    import threading

    from ofc_fast.threads import run_chunks
    hands = _deals(300, 5, 1)
    v = ofc.variant("pineapple")
    lay = _deals(300, 13, 2)
    got = {}

    def outer(lo, hi):
        return (ofc.strength5(hands[lo:hi], n_threads=2),
                ofc.score_field(lay[lo:hi], v, field=lay, n_threads=None))

    def main():
        got["parts"] = run_chunks(outer, 300, 2)
    worker = threading.Thread(target=main, daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "nested n_threads deadlocked"
    np.testing.assert_array_equal(np.concatenate([p[0] for p in got["parts"]]),
                                  ofc.strength5(hands))
    np.testing.assert_array_equal(np.concatenate([p[1] for p in got["parts"]]),
                                  ofc.score_field(lay, v))
