"""ofc_fast.layouts: evaluate(..., out=) refills an earlier result, never silently
mismatched, and reads inputs that share its memory before writing."""
import numpy as np
import pytest

import ofc_fast as ofc


def _deals(n, k, seed):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@pytest.mark.parametrize("name", ["pineapple", "pineapple-2-7", "big-pineapple"])
def test_out_refills_the_same_arrays(name):
    v = ofc.variant(name)
    a, b = _deals(500, v.n_cards, 1), _deals(500, v.n_cards, 2)
    fl = np.arange(500) % 3
    first = ofc.evaluate(a, v, in_fantasyland=fl)
    fresh_b = ofc.evaluate(b, v, in_fantasyland=fl)
    again = ofc.evaluate(b, v, in_fantasyland=fl, out=first)
    assert np.shares_memory(again.strengths, first.strengths)
    for field in ("strengths", "foul", "royalties", "royalty_total", "next_fantasyland", "repeat",
                  "next_in_fantasyland"):
        np.testing.assert_array_equal(getattr(again, field), getattr(fresh_b, field), field)


def test_out_of_the_wrong_size_or_kind_is_rejected():
    v = ofc.variant("pineapple")
    ev = ofc.evaluate(_deals(10, 13, 3), v)
    with pytest.raises(ValueError, match="out holds 10 layouts of 3 rows; these are 11 of 3"):
        ofc.evaluate(_deals(11, 13, 4), v, out=ev)
    with pytest.raises(ValueError, match="these are 10 of 4"):
        ofc.evaluate(_deals(10, 18, 5), "big-pineapple", out=ev)
    with pytest.raises(TypeError, match="out must be an Evaluation"):
        ofc.evaluate(_deals(10, 13, 6), v, out=np.zeros(10))


def test_evaluate_out_with_layouts_inside_its_own_columns():
    v = ofc.variant("pineapple")
    rng = np.random.default_rng(6)
    n = 300
    a = np.argsort(rng.random((n, 52)), axis=1)[:, :13].astype(np.uint8)
    want = ofc.evaluate(a, v)
    first = ofc.evaluate(a[::-1].copy(), v)
    raw = first.royalty_total
    while raw.base is not None:                   # the one buffer the columns are carved from
        raw = raw.base
    layouts = raw[:13 * n].reshape(n, 13)         # its later columns overlap later layouts
    layouts[...] = a
    again = ofc.evaluate(layouts, v, out=first)
    for field in ("strengths", "foul", "royalties", "royalty_total", "next_fantasyland"):
        np.testing.assert_array_equal(getattr(again, field), getattr(want, field), field)


def test_rows_of_equal_strength_do_not_foul():
    """Two rows of equal strength are legal (docs/rules.md): foul_reason and
    evaluate agree; one rank higher in the middle fouls."""
    v = ofc.variant("pineapple")
    tie = ofc.parse_layout("2c 3d 4h / As Ad Kc Kd Qh / Ah Ac Ks Kh Qs", v)
    ev = ofc.evaluate(tie, v)
    s = ev.strengths[0]
    assert s[1] == s[2] and not ev.foul[0]
    assert ofc.foul_reason(s, v) is None
    worse = ofc.evaluate(ofc.parse_layout("2c 3d 4h / As Ad Kc Kd Qh / Ah Ac Ks Kh Js", v), v)
    assert worse.foul[0]
    assert ofc.foul_reason(worse.strengths[0], v).startswith("the middle (")


@pytest.mark.parametrize("slot, row", [(2, "top"), (3, "middle"), (7, "middle"), (8, "bottom"),
                                       (12, "bottom")])
def test_a_bad_slot_is_named_by_its_row(slot, row):
    v = ofc.variant("pineapple")
    lay = _deals(1, 13, 7)
    lay[0, slot] = 255
    with pytest.raises(ofc.LayoutError, match=rf"layouts\[0\], {row} row: slot {slot} is empty"):
        ofc.evaluate(lay, v)


@pytest.mark.parametrize("bad", [256, 300, -1])
def test_card_ids_outside_a_byte_are_refused_not_wrapped(bad):
    lay = _deals(2, 13, 8).astype(np.int64)
    lay[1, 4] = bad
    with pytest.raises(ofc.LayoutError,
                       match=rf"layouts\[1\], middle row: card id {bad} at slot 4"):
        ofc.evaluate(lay, "pineapple")
