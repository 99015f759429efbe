"""Hand strength (RULES.md section 3): exhaustive checks against an independent
reference classifier and against phevaluator, the joint 3/5-card row scale,
batch/array handling, errors and readable names."""
import itertools
import re

import numpy as np
import pytest

import ofc_fast
import ofc_fast as ofc
import reference as ref
from ofc_fast import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    N_JOINT,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    CardError,
    category,
    describe,
    describe_strength,
    row_strength,
    strength3,
    strength5,
)
from reference import all_hands, class_index, classify, hand_from_text, hand_keys, key_of

N5 = 2_598_960
N3 = 22_100

# Classes per category and their first class number on the 1..7462 scale.
CLASSES5 = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
FIRST5 = [1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453]
HANDS5 = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
CLASSES3 = {HIGH_CARD: 286, PAIR: 156, TRIPS: 13}
HANDS3 = {HIGH_CARD: 286 * 64, PAIR: 13 * 6 * 12 * 4, TRIPS: 13 * 4}


def _mismatch_report(hands, got, want, limit=5):
    bad = np.flatnonzero(np.asarray(got) != np.asarray(want))
    lines = [f"{len(bad)} mismatches"]
    for i in bad[:limit]:
        text = " ".join(ref.card_text(int(c)) for c in hands[i])
        lines.append(f"  {text}: got {got[i]}, want {want[i]}")
    return "\n".join(lines)


# ------------------------------------------------------------ fixtures

@pytest.fixture(scope="module")
def hands5():
    h = all_hands(5)
    h.flags.writeable = False
    return h


@pytest.fixture(scope="module")
def hands3():
    h = all_hands(3)
    h.flags.writeable = False
    return h


@pytest.fixture(scope="module")
def keys5(hands5):
    return hand_keys(hands5)


@pytest.fixture(scope="module")
def keys3(hands3):
    return hand_keys(hands3)


@pytest.fixture(scope="module")
def ref5(keys5):
    cls, n = class_index(keys5)
    assert n == 7462
    return cls


@pytest.fixture(scope="module")
def ref3(keys3):
    cls, n = class_index(keys3)
    assert n == 455
    return cls


@pytest.fixture(scope="module")
def s5(hands5):
    return strength5(hands5)


@pytest.fixture(scope="module")
def s3(hands3):
    return strength3(hands3)


@pytest.fixture(scope="module")
def sample5(hands5):
    rng = np.random.default_rng(12345)
    return np.ascontiguousarray(hands5[rng.choice(N5, 5000, replace=False)])


def S(text):
    """strength5 of hand text, with the cards parsed by the reference (not the library)."""
    return strength5(hand_from_text(text))


def R(text):
    return row_strength(hand_from_text(text))


# ----------------------------------------------- the reference itself

@pytest.mark.parametrize("text, cat, ranks", [
    ("As Ks Qs Js Ts", ref.STRAIGHT_FLUSH, (12,)),
    ("5h 4h 3h 2h Ah", ref.STRAIGHT_FLUSH, (3,)),
    ("9c 9d 9h 9s 2c", ref.QUADS, (7, 7, 7, 7, 0)),
    ("3c 3d Ah Ac 3s", ref.FULL_HOUSE, (1, 1, 1, 12, 12)),
    ("Kd 9d 7d 4d 2d", ref.FLUSH, (11, 7, 5, 2, 0)),
    ("Ac 2d 3h 4s 5c", ref.STRAIGHT, (3,)),
    ("Tc Jd Qh Ks Ac", ref.STRAIGHT, (12,)),
    ("Kc Ad 2h 3s 4c", ref.HIGH_CARD, (12, 11, 2, 1, 0)),
    ("7c 7d 7h Ks 2c", ref.TRIPS, (5, 5, 5, 11, 0)),
    ("2c 2d Ah As Kc", ref.TWO_PAIR, (12, 12, 0, 0, 11)),
    ("6c 6d Ah Ks 2c", ref.PAIR, (4, 4, 12, 11, 0)),
    ("6c 6d Ah", ref.PAIR, (4, 4, 12)),
    ("Qc Kd Ah", ref.HIGH_CARD, (12, 11, 10)),
    ("5s 5h 5c", ref.TRIPS, (3, 3, 3)),
])
def test_reference_classifier_on_known_hands(text, cat, ranks):
    cards = hand_from_text(text)
    assert classify(cards) == (cat, ranks)
    assert hand_keys(np.array([cards]))[0] == key_of(cards)
    assert ref.decode(key_of(cards)) == (cat, ranks)


@pytest.mark.slow
def test_reference_vectorised_matches_plain_python(hands5, keys5, hands3, keys3):
    rng = np.random.default_rng(7)
    for i in rng.choice(N5, 20000, replace=False):
        assert key_of(hands5[i]) == keys5[i], hands5[i]
    for hand, key in zip(hands3, keys3, strict=True):
        assert key_of(hand) == key, hand


# ------------------------------------------- exhaustive 5-card checks

@pytest.mark.slow
def test_strength5_all_hands_vs_reference(hands5, s5, ref5):
    assert isinstance(s5, np.ndarray) and s5.dtype == np.uint16 and s5.shape == (N5,)
    assert np.array_equal(s5, ref5), _mismatch_report(hands5, s5, ref5)


def test_phevaluator_uses_the_same_card_ids():
    evaluate_cards = pytest.importorskip("phevaluator").evaluate_cards
    for text in ["As Ks Qs Js Ts", "7c 5d 4h 3s 2c", "2c 2d 2h 2s 3c", "Ah Kd 9c 5s 3h",
                 "5d 4d 3d 2d Ad", "Th Td 9s 9c 2h"]:
        words = text.split()
        ids = hand_from_text(text)
        assert evaluate_cards(*words) == evaluate_cards(*ids), text
        assert evaluate_cards(*words) == 7463 - S(text), text
    assert evaluate_cards(51, 47, 43, 39, 35) == 1        # royal flush is best
    assert evaluate_cards(20, 13, 10, 7, 0) == 7462       # 7-5-4-3-2 offsuit is worst


@pytest.mark.slow
def test_strength5_all_hands_vs_phevaluator(s5):
    evaluate_cards = pytest.importorskip("phevaluator").evaluate_cards
    ranks = np.fromiter(itertools.starmap(evaluate_cards, itertools.combinations(range(52), 5)),
                        dtype=np.int64, count=N5)
    ours = s5.astype(np.int64)
    assert np.array_equal(7463 - ranks, ours), f"{np.count_nonzero(7463 - ranks != ours)} differ"


@pytest.mark.slow
def test_strength5_all_hands_strided_path(hands5, ref5):
    # Fortran order takes the strided kernel; must agree with the contiguous one.
    fortran = np.asfortranarray(hands5)
    assert not fortran.flags.c_contiguous
    assert np.array_equal(strength5(fortran), ref5)


@pytest.mark.slow
def test_strength5_order_of_cards_is_irrelevant(hands5, ref5):
    rng = np.random.default_rng(3)
    idx = rng.choice(N5, 100_000, replace=False)
    shuffled = rng.permuted(hands5[idx], axis=1)
    assert np.array_equal(strength5(shuffled), ref5[idx])
    assert np.array_equal(strength5(hands5[idx][:, ::-1]), ref5[idx])


@pytest.mark.slow
def test_strength5_per_hand_calls(hands5, ref5):
    rng = np.random.default_rng(11)
    for i in rng.choice(N5, 2000, replace=False):
        hand = [int(c) for c in hands5[i]]
        assert strength5(hand) == ref5[i]
        assert strength5(tuple(hand)) == ref5[i]
    for i in rng.choice(N5, 200, replace=False):
        text = " ".join(ref.card_text(int(c)) for c in hands5[i])
        assert strength5(text) == ref5[i], text


# ------------------------------------------- exhaustive 3-card checks

def test_strength3_all_hands_vs_reference(hands3, s3, ref3):
    assert s3.dtype == np.uint16 and s3.shape == (N3,)
    assert np.array_equal(s3, ref3), _mismatch_report(hands3, s3, ref3)
    assert np.array_equal(strength3(np.asfortranarray(hands3)), ref3)
    assert np.array_equal(strength3(hands3[:, ::-1]), ref3)
    for i in range(0, N3, 97):
        assert strength3([int(c) for c in hands3[i]]) == ref3[i]


def test_strength3_extremes_and_suits():
    assert strength3(hand_from_text("4c 3d 2h")) == 1
    assert strength3(hand_from_text("4c 3c 2c")) == 1      # three to a flush: nothing
    assert strength3(hand_from_text("Ac Ad Ah")) == 455
    assert strength3(hand_from_text("Qc Qd 5h")) == 410
    assert strength3(hand_from_text("Qc Kc Ac")) == strength3(hand_from_text("Qd Kh As"))
    assert strength3(hand_from_text("2c 2d Ah")) > strength3(hand_from_text("Ac Kd Qh"))
    assert strength3(hand_from_text("2c 2d 2h")) > strength3(hand_from_text("Ac Ad Kh"))


# ------------------------------------------------- category counts

@pytest.mark.slow
def test_category_counts_5(hands5, s5, keys5):
    cats = np.asarray(category(hands5))
    assert cats.shape == (N5,)
    assert np.array_equal(cats, ref.category_of_key(keys5))
    assert np.bincount(cats, minlength=9).tolist() == HANDS5
    assert sum(HANDS5) == N5
    for cat in range(9):
        classes = np.unique(s5[cats == cat])
        assert len(classes) == CLASSES5[cat], cat
        # each category is one contiguous block of classes, in category order
        assert classes[0] == FIRST5[cat] and classes[-1] == FIRST5[cat] + CLASSES5[cat] - 1
    assert FIRST5[-1] + CLASSES5[-1] - 1 == 7462


def test_category_counts_3(hands3, s3, keys3):
    cats = np.asarray(category(hands3))
    assert np.array_equal(cats, ref.category_of_key(keys3))
    counts = np.bincount(cats, minlength=9)
    assert {c: int(n) for c, n in enumerate(counts) if n} == HANDS3
    first = 1
    for cat in (HIGH_CARD, PAIR, TRIPS):
        classes = np.unique(s3[cats == cat])
        assert len(classes) == CLASSES3[cat]
        assert classes[0] == first and classes[-1] == first + CLASSES3[cat] - 1
        first += CLASSES3[cat]
    assert first == 456


def test_category_constants():
    assert [HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS,
            STRAIGHT_FLUSH] == list(range(9))
    assert len(ofc_fast.CATEGORY_NAMES) == 9
    assert int(category("Qc Qd 5h")) == PAIR
    assert int(category("As Ks Qs Js Ts")) == STRAIGHT_FLUSH
    assert np.asarray(category(["Ac Kd 9h", "2c 2d 2h", "Kc Kd 5h"])).tolist() == \
        [HIGH_CARD, TRIPS, PAIR]
    assert np.asarray(category(["Kc Kd 5h 5s Ad", "Qs Js 9s 5s 2s"])).tolist() == \
        [TWO_PAIR, FLUSH]


# ----------------------------------------------- straights, extremes

def test_extreme_classes():
    assert S("7c 5d 4h 3s 2c") == 1
    assert S("7h 5h 4h 3h 2c") == 1
    assert S("As Ks Qs Js Ts") == 7462
    assert S("Ah Kh Qh Jh Th") == 7462


@pytest.mark.slow
def test_wheel_is_lowest_straight(hands5, s5, ref5, keys5):
    wheel = S("5c 4d 3h 2s Ad")
    assert wheel == 5854 == FIRST5[STRAIGHT]
    straights = s5[ref.category_of_key(keys5) == ref.STRAIGHT]
    assert straights.min() == wheel
    assert S("6c 5d 4h 3s 2c") == wheel + 1
    assert S("Ac Kd Qh Js Tc") == 5863 == straights.max()
    assert S("5c 4d 3h 2s Ad") > S("Ac Ad Ah Ks Qc")        # above the best trips
    assert S("Ks Ad 2h 3c 4d") < FIRST5[PAIR]                # no wrap-around straight
    assert S("Qs Ks Ad 2h 3c") < FIRST5[PAIR]


@pytest.mark.slow
def test_steel_wheel_is_lowest_straight_flush(s5, keys5):
    steel = S("5s 4s 3s 2s As")
    assert steel == 7453 == FIRST5[STRAIGHT_FLUSH]
    assert s5[ref.category_of_key(keys5) == ref.STRAIGHT_FLUSH].min() == steel
    assert S("6h 5h 4h 3h 2h") == steel + 1
    assert steel > S("Ac Ad Ah As Kc")                        # above the best quads
    assert S("Ks As 2s 3s 4s") < FIRST5[FULL_HOUSE]           # just a flush
    assert FIRST5[FLUSH] <= S("Ks As 2s 3s 4s")


@pytest.mark.parametrize("weaker, stronger", [
    ("Ac Kd Qh Js 9c", "2c 2d 3h 4s 5c"),          # high card < pair
    ("Ac Ad Kh Qs Jc", "2c 2d 3h 3s 4c"),          # pair < two pair
    ("Ac Ad Kh Ks Qc", "2c 2d 2h 3s 4c"),          # two pair < trips
    ("Ac Ad Ah Ks Qc", "5c 4d 3h 2s Ac"),          # trips < straight (wheel)
    ("Ac Kd Qh Js Tc", "7c 5c 4c 3c 2c"),          # straight < flush
    ("Ac Kc Qc Jc 9c", "2c 2d 2h 3s 3c"),          # flush < full house
    ("Ac Ad Ah Ks Kc", "2c 2d 2h 2s 3c"),          # full house < quads
    ("Ac Ad Ah As Kc", "5s 4s 3s 2s As"),          # quads < straight flush
    ("Ah Ad Kc Qd 2h", "As Ac Kd Qh 3s"),          # kicker decides
    ("Kh Kd 5c 5d Ah", "Kc Ks 6c 6d 2h"),          # second pair before kicker
    ("Ah Kh 9h 5h 3h", "Ad Kd 9d 6d 2d"),          # flush: fourth card
    ("3h 3d 3c Ah As", "4h 4d 4c 2h 2s"),          # full house: trips first
])
def test_pairwise_order(weaker, stronger):
    assert S(weaker) < S(stronger)
    assert R(weaker) < R(stronger)


@pytest.mark.parametrize("a, b", [
    ("Ah Kd 9c 5s 3h", "As Kc 9d 5h 3s"),
    ("Ah Kh Qh Jh 9h", "Ac Kc Qc Jc 9c"),
    ("Tc Jd Qh Ks Ac", "Th Jh Qc Kd As"),
    ("Qc Qd 5h", "Qh Qs 5c"),
])
def test_identical_rank_patterns_tie(a, b):
    assert R(a) == R(b)


# ---------------------------------------------------- joint scale

@pytest.mark.slow
def test_joint_scale_vs_reference(hands5, hands3, keys5, keys3):
    joint, n = class_index(np.concatenate([keys5, keys3]))
    assert n == N_JOINT == 7917
    r5 = row_strength(hands5)
    r3 = row_strength(hands3)
    assert r5.dtype == np.uint16 and r3.dtype == np.uint16
    assert np.array_equal(r5, joint[:N5]), _mismatch_report(hands5, r5, joint[:N5])
    assert np.array_equal(r3, joint[N5:]), _mismatch_report(hands3, r3, joint[N5:])


@pytest.mark.slow
def test_joint_scale_values(hands5, hands3):
    v5 = np.unique(row_strength(hands5))
    v3 = np.unique(row_strength(hands3))
    assert len(v5) == 7462 and len(v3) == 455
    assert len(np.intersect1d(v5, v3)) == 0                 # a top never ties a 5-card row
    assert np.array_equal(np.union1d(v5, v3), np.arange(1, N_JOINT + 1))


@pytest.mark.slow
@pytest.mark.parametrize("k", [5, 3])
def test_joint_scale_agrees_with_strength(k, hands5, hands3, s5, s3):
    hands, s, n = (hands5, s5, 7462) if k == 5 else (hands3, s3, 455)
    joint = row_strength(hands)
    of_class = np.zeros(n + 1, dtype=np.int64)
    of_class[s] = joint
    assert np.array_equal(of_class[s], joint)                # one joint value per class
    assert np.all(np.diff(of_class[1:]) > 0)                 # same order


def test_joint_scale_extremes():
    assert R("4c 3d 2h") == 1                  # lowest possible top is the lowest row
    # below the weakest 5-card row: the C(5,3) = 10 tops from 2..6, and the C(4,2) = 6
    # seven-high tops 7-a-b with a <= 5 (7-5-4 is a prefix of 7-5-4-3-2)
    assert R("7c 5d 4h 3s 2c") == 10 + 6 + 1
    assert R("As Ks Qs Js Ts") == N_JOINT
    assert R("Ac Ad Ah") == R("Ac Ad Ah 2c 3d") - 1
    assert R("Ac Kd Qh") < R("Ac Kd Qh 2c 3d")


# RULES.md section 3: comparing a 3-card top with a 5-card row.
@pytest.mark.parametrize("top, row, legal", [
    ("Qc Qd 5h", "Qh Qs 5c 4d 3h", True),
    ("Qc Qd 5h", "Qh Qs 4c 3d 2h", False),
    ("Ac Kd Qh", "As Ks Qc 3d 2h", True),
    ("Ac Kd Qh", "As Kh Jc Td 8h", False),
    ("2c 2d 2h", "Ac Ad Kc Kd 3h", False),
    ("6c 6d Ah", "6h 6s Ad Kc Qh", True),
])
def test_rules_section3_examples(top, row, legal):
    t, r = R(top), R(row)
    assert t != r
    assert (r > t) == legal
    # the library's own text parsing gives the same values
    assert row_strength(top) == t and row_strength(row) == r


# ------------------------------------------------------ batch shapes

@pytest.mark.parametrize("func, k", [(strength5, 5), (strength3, 3), (row_strength, 5),
                                     (row_strength, 3)])
def test_batch_shapes(func, k, sample5):
    hands = np.ascontiguousarray(sample5[:24, :k])
    flat = func(hands)
    assert flat.shape == (24,) and flat.dtype == np.uint16
    for shape in [(2, 12), (2, 3, 4), (4, 3, 2), (1, 2, 3, 4), (24,)]:
        res = func(hands.reshape(*shape, k))
        assert isinstance(res, np.ndarray) and res.dtype == np.uint16 and res.shape == shape
        assert np.array_equal(res.reshape(-1), flat)
    for shape in [(0,), (3, 0), (0, 4), (2, 0, 3)]:
        for dtype in (np.uint8, np.int64):
            res = func(np.zeros((*shape, k), dtype=dtype))
            assert isinstance(res, np.ndarray) and res.dtype == np.uint16 and res.shape == shape


@pytest.mark.slow
def test_batch_layouts(sample5, hands5, ref5):
    want = strength5(sample5)
    assert np.array_equal(want, strength5(np.ascontiguousarray(sample5)))
    # strided rows, reversed columns, Fortran order, every other column, read-only
    idx = np.arange(0, N5, 7919)
    assert np.array_equal(strength5(hands5[::7919]), ref5[idx])
    assert np.array_equal(strength5(hands5[::-7919]), ref5[::-7919])
    assert np.array_equal(strength5(sample5[:, ::-1]), want)
    assert np.array_equal(strength5(np.asfortranarray(sample5)), want)
    wide = np.zeros((len(sample5), 10), dtype=np.uint8)
    wide[:, ::2] = sample5
    assert not wide[:, ::2].flags.c_contiguous
    assert np.array_equal(strength5(wide[:, ::2]), want)
    wide64 = wide.astype(np.int64)
    assert np.array_equal(strength5(wide64[:, ::2]), want)
    ro = sample5.copy()
    ro.flags.writeable = False
    assert np.array_equal(strength5(ro), want)
    assert np.array_equal(strength5(ro[::2, ::-1]), want[::2])
    # 3-D, non-contiguous
    cube = np.ascontiguousarray(sample5[:60].reshape(3, 4, 5, 5).transpose(1, 0, 2, 3))
    assert np.array_equal(strength5(sample5[:60].reshape(3, 4, 5, 5).transpose(1, 0, 2, 3)),
                          strength5(cube))
    assert np.array_equal(strength5(cube).transpose(1, 0, 2).reshape(-1), want[:60])


@pytest.mark.parametrize("code", list(np.typecodes["AllInteger"]))
def test_every_integer_dtype(code, sample5):
    want = strength5(sample5)
    arr = sample5.astype(code)
    assert np.array_equal(strength5(arr), want)
    assert np.array_equal(strength5(np.asfortranarray(arr)), want)
    assert np.array_equal(strength3(arr[:, :3]), strength3(sample5[:, :3]))
    assert np.array_equal(row_strength(arr), row_strength(sample5))
    single = strength5(arr[0])                    # an ndarray in, an ndarray out (0-d)
    assert isinstance(single, np.ndarray) and single.shape == () and single == want[0]
    assert type(strength5(arr[0].tolist())) is int


@pytest.mark.parametrize("dtype", [">i2", ">u2", ">i4", ">u4", ">i8", "<i4"])
def test_non_native_byte_order(dtype, sample5):
    arr = sample5.astype(dtype)
    assert np.array_equal(strength5(arr), strength5(sample5))


def test_out_argument(sample5):
    want = strength5(sample5)
    out = np.zeros(len(sample5), dtype=np.uint16)
    res = strength5(sample5, out=out)
    assert res is out
    assert np.array_equal(out, want)
    # multi-dimensional, and a non-contiguous out
    out2 = np.zeros((50, 100), dtype=np.uint16)
    assert strength5(sample5.reshape(50, 100, 5), out=out2) is out2
    assert np.array_equal(out2.reshape(-1), want)
    big = np.zeros(2 * len(sample5), dtype=np.uint16)
    view = big[::2]
    assert strength5(sample5, out=view) is view
    assert np.array_equal(big[::2], want) and not big[1::2].any()
    fout = np.zeros((100, 50), dtype=np.uint16, order="F")
    strength5(sample5.reshape(100, 50, 5), out=fout)
    assert np.array_equal(fout, want.reshape(100, 50))
    # single hand with out: a 0-d array
    out0 = np.zeros((), dtype=np.uint16)
    assert strength5(sample5[0], out=out0) is out0 and out0 == want[0]
    # the other kernels
    out3 = np.zeros(len(sample5), dtype=np.uint16)
    assert strength3(sample5[:, :3], out=out3) is out3
    assert np.array_equal(out3, strength3(sample5[:, :3]))
    outr = np.zeros(len(sample5), dtype=np.uint16)
    assert row_strength(sample5, out=outr) is outr
    assert np.array_equal(outr, row_strength(sample5))
    # empty batch
    out_e = np.zeros(0, dtype=np.uint16)
    assert strength5(np.zeros((0, 5), np.uint8), out=out_e) is out_e


@pytest.mark.parametrize("func", [strength5, strength3, row_strength])
def test_out_argument_errors(func, sample5):
    hands = np.ascontiguousarray(sample5[:10, :3]) if func is strength3 else sample5[:10]
    for dtype in (np.int16, np.uint32, np.int64, np.float64, np.uint8, ">u2"):
        with pytest.raises(TypeError, match=r"out must have dtype uint16"):
            func(hands, out=np.zeros(10, dtype=dtype))
    for shape in [(9,), (11,), (10, 1), (1, 10), (2, 5), ()]:
        want = rf"out must have shape \(10,\), got {re.escape(str(shape))}"
        with pytest.raises(ValueError, match=want):
            func(hands, out=np.zeros(shape, dtype=np.uint16))
    with pytest.raises(TypeError, match="out must be a numpy array"):
        func(hands, out=[0] * 10)
    ro = np.zeros(10, dtype=np.uint16)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        func(hands, out=ro)


def test_scalar_returns_int(sample5):
    hand = sample5[0]
    want = int(strength5(sample5[:1])[0])
    text = " ".join(ref.card_text(int(c)) for c in hand)
    for single in ([int(c) for c in hand], tuple(int(c) for c in hand), text, text.split()):
        res = strength5(single)
        assert type(res) is int and res == want, single
    # an ndarray is answered with an ndarray, as numpy does: 0-d for one hand
    for single in (hand, hand.astype(np.int64), np.asfortranarray(hand)):
        res = strength5(single)
        assert isinstance(res, np.ndarray) and res.shape == () and res.dtype == np.uint16
        assert int(res) == want
    assert type(strength3("Ac Ad Ah")) is int
    assert type(strength3([0, 4, 8])) is int
    assert type(row_strength("Ac Ad Ah")) is int
    assert type(row_strength([0, 4, 8, 12, 17])) is int
    assert row_strength(np.array([0, 4, 8], dtype=np.int32)).shape == ()
    # batches stay arrays, even of one hand
    assert isinstance(strength5(sample5[:1]), np.ndarray)
    assert isinstance(strength5([text]), np.ndarray)


def test_text_batches():
    res = strength5(["As Ks Qs Js Ts", "7c 5d 4h 3s 2c"])
    assert isinstance(res, np.ndarray) and res.tolist() == [7462, 1]
    assert row_strength(["Ac Ad Ah", "Kc Kd 2h"]).tolist() == [R("Ac Ad Ah"), R("Kc Kd 2h")]
    assert strength5([[0, 4, 8, 12, 49], [3, 2, 1, 0, 4]]).tolist() == [5854, 7297]


# ------------------------------------------------------------- errors

def _batch(dtype=np.int64):
    return np.array([[0, 4, 8, 12, 49], [51, 47, 43, 39, 35], [1, 5, 9, 13, 17]], dtype=dtype)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.uint16, np.int64, np.uint64])
@pytest.mark.parametrize("layout", ["C", "F"])
def test_error_id_over_51(dtype, layout):
    arr = _batch(dtype)
    arr[1, 2] = 54
    arr = np.asarray(arr, order=layout)
    with pytest.raises(CardError, match=r"^hand 1: card 2 has id 54, not a card \(0-51, a joker"):
        strength5(arr)
    arr[1, 2] = 52          # a joker: hand strength takes natural cards
    with pytest.raises(CardError, match=r"^hand 1: X1 is a joker \(card 2\); hand strength takes "
                                        r"natural cards"):
        strength5(arr)
    arr[1, 2] = 200
    with pytest.raises(CardError, match=r"^hand 1: card 2 has id 200"):
        strength5(arr)
    with pytest.raises(CardError, match=r"^hand 1: card 2 has id 200"):
        row_strength(arr)


@pytest.mark.parametrize("dtype", [np.int16, np.uint16, np.int64])
def test_error_id_over_255(dtype):
    arr = _batch(dtype)
    arr[2, 4] = 256
    with pytest.raises(CardError, match=r"^hand 2: card 4 has id 256, not a card"):
        strength5(arr)
    with pytest.raises(CardError, match=r"^hand: card 4 has id 256"):
        strength5([0, 1, 2, 3, 256])


@pytest.mark.parametrize("layout", ["C", "F"])
def test_error_empty(layout):
    arr = np.asarray(_batch(np.uint8), order=layout)
    arr[2, 4] = 255
    with pytest.raises(CardError, match=r"^hand 2: card 4 is EMPTY \(255\)"):
        strength5(arr)
    with pytest.raises(CardError, match=r"^hand: card 1 is EMPTY \(255\)"):
        strength5("As __ Qs Js Ts")
    with pytest.raises(CardError, match=r"^hand: card 0 is EMPTY \(255\)"):
        strength3([255, 1, 2])
    with pytest.raises(CardError, match=r"^hand 2: card 4 is EMPTY"):
        strength5(arr.astype(np.int64))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_error_negative_id(dtype):
    arr = _batch(dtype)
    arr[1, 3] = -1
    with pytest.raises(CardError, match=r"^hand 1: card 3 has id -1, not a card"):
        strength5(arr)
    with pytest.raises(CardError, match=r"^hand: card 2 has id -5"):
        strength3(np.array([0, 1, -5], dtype=dtype))
    with pytest.raises(CardError, match=r"^hand: card 0 has id -1"):
        strength5([-1, 1, 2, 3, 4])


@pytest.mark.parametrize("layout", ["C", "F"])
def test_error_repeated_card(layout):
    arr = np.asarray(_batch(np.uint8), order=layout)
    arr[1, 3] = 51
    with pytest.raises(CardError, match=r"^hand 1: card As appears twice \(positions 0 and 3\)"):
        strength5(arr)
    with pytest.raises(CardError, match=r"^hand: card Kd appears twice \(positions 0 and 2\)"):
        strength5("Kd Qd Kd Js Ts")
    with pytest.raises(CardError, match=r"^hand: card 2c appears twice \(positions 1 and 2\)"):
        strength3([1, 0, 0])
    with pytest.raises(CardError, match=r"^hand 1: card 2c appears twice"):
        row_strength(np.array([[0, 1, 2], [0, 4, 0]]))


def test_error_names_first_bad_hand_and_nd_index():
    arr = np.empty((2, 3, 5), dtype=np.uint8)
    arr[:] = _batch(np.uint8)[0]
    arr[1, 2, 4] = 0            # repeats card 0 of that hand
    arr[1, 1, 0] = 60           # an earlier bad hand
    with pytest.raises(CardError, match=r"^hand \(1, 1\): card 0 has id 60"):
        strength5(arr)
    arr[1, 1, 0] = 0
    with pytest.raises(CardError, match=r"^hand \(1, 2\): card 2c appears twice"):
        strength5(arr)
    with pytest.raises(CardError, match=r"^hand \(1, 2\): card 2c appears twice"):
        strength5(np.asfortranarray(arr))
    neg = arr.astype(np.int32)
    neg[0, 2, 1] = -7
    with pytest.raises(CardError, match=r"^hand \(0, 2\): card 1 has id -7"):
        strength5(neg)


def test_error_index_refers_to_the_view():
    arr = np.tile(_batch(np.uint8), (4, 1))     # 12 hands
    arr[7, 1] = arr[7, 0]
    with pytest.raises(CardError, match=r"^hand 3: card"):
        strength5(arr[1::2])                    # rows 1, 3, 5, 7 -> hand 3 of the view


@pytest.mark.parametrize("func, shape, msg", [
    (strength5, (2, 4), r"shape \(\.\.\., 5\), got \(2, 4\)"),
    (strength5, (2, 3), r"shape \(\.\.\., 5\), got \(2, 3\)"),
    (strength5, (6,), r"shape \(\.\.\., 5\), got \(6,\)"),
    (strength5, (2, 5, 6), r"shape \(\.\.\., 5\), got \(2, 5, 6\)"),
    (strength5, (0,), r"shape \(\.\.\., 5\), got \(0,\)"),
    (strength5, (), r"shape \(\.\.\., 5\), got \(\)"),
    (strength3, (2, 5), r"shape \(\.\.\., 3\), got \(2, 5\)"),
    (row_strength, (2, 4), r"shape \(\.\.\., 3 or 5\), got \(2, 4\)"),
    (row_strength, (13,), r"shape \(\.\.\., 3 or 5\), got \(13,\)"),
])
def test_error_wrong_last_dimension(func, shape, msg):
    arr = np.arange(int(np.prod(shape)), dtype=np.uint8).reshape(shape) % 52
    with pytest.raises(ValueError, match=msg):
        func(arr)


def test_error_wrong_number_of_cards_in_text_and_lists():
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 5\), got \(4,\)"):
        strength5("As Ks Qs Js")
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 5\), got \(4,\)"):
        strength5([0, 1, 2, 3])
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 3\), got \(5,\)"):
        strength3("As Ks Qs Js Ts")
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 3 or 5\), got \(4,\)"):
        row_strength("As Kd Qh Jc")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.bool_, np.complex128, object])
def test_error_non_integer_dtype(dtype):
    arr = np.zeros((2, 5), dtype=dtype)
    with pytest.raises(TypeError, match=rf"cards must be integer card ids or card text, "
                                        rf"got dtype {re.escape(str(np.dtype(dtype)))}"):
        strength5(arr)


def test_error_list_of_floats_names_dtype():
    with pytest.raises(TypeError, match=r"cards must be integer card ids or card text"):
        strength5([0.0, 1.0, 2.0, 3.0, 4.0])


def test_error_bad_text():
    with pytest.raises(CardError, match=r"unknown card 'Zz' at position 4"):
        strength5("As Ks Qs Js Zz")
    with pytest.raises(CardError, match=r"item 1: unknown card 'Q1'"):
        row_strength(["As Ks Qs", "Q1 Jd Tc"])


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        strength5([0, 0, 1, 2, 3])
    with pytest.raises(ValueError):
        strength3([0, 1, 52])


def test_error_nested_list_names_hand():
    with pytest.raises(CardError, match=r"hand 1"):
        strength5([[0, 4, 8, 12, 49], [0, 1, 2, 3, 52]])


@pytest.mark.parametrize("cards", [[2 ** 70, 1, 2, 3, 4], [[0, 1, 2, 3, 4], [2 ** 70, 1, 2, 3, 4]]])
def test_error_huge_python_int(cards):
    with pytest.raises(CardError, match=r"card 0 has id"):
        strength5(cards)


# --------------------------------------------------------- describe

@pytest.mark.parametrize("text, name", [
    ("As Ks Qs Js Ts", "Royal Flush"),
    ("Th Jh Qh Kh Ah", "Royal Flush"),
    ("Kh Qh Jh Th 9h", "King-high straight flush"),
    ("5s 4s 3s 2s As", "Five-high straight flush"),
    ("2c 2d 2h 2s Ad", "Four Deuces, Ace kicker"),
    ("Kc Kd Kh 5s 5d", "Full House, Kings full of Fives"),
    ("5c 5d 5h Ks Kd", "Full House, Fives full of Kings"),
    ("Qs Js 9s 5s 2s", "Queen-high flush"),
    ("Ac Kd Qh Jc Th", "Ace-high straight"),
    ("5c 4d 3h 2s Ad", "Five-high straight"),
    ("Tc Td Th 5s Ad", "Three Tens, Ace-Five kickers"),
    ("Kc Kd 5h 5s Ad", "Two Pair, Kings and Fives, Ace kicker"),
    ("Qc Qd 5h 4d 3h", "Pair of Queens, Five-Four-Three kickers"),
    ("Ac Kd 9h 5s 3d", "Ace-high, King-Nine-Five-Three kickers"),
    ("7c 5d 4h 3s 2c", "Seven-high, Five-Four-Three-Deuce kickers"),
    ("6c 6d Ah", "Pair of Sixes, Ace kicker"),
    ("Ah Ad Ac", "Three Aces"),
    ("2h 2d 2c", "Three Deuces"),
    ("Ac Kd 9h", "Ace-high, King-Nine kickers"),
    ("4c 3d 2h", "Four-high, Three-Deuce kickers"),
])
def test_describe(text, name):
    assert describe(text) == name
    assert describe(hand_from_text(text)) == name
    assert describe_strength(R(text)) == name


def test_describe_batch():
    names = describe(["Ah Ad Ac", "Kc Kd 2h"])
    assert isinstance(names, np.ndarray) and names.shape == (2,)
    assert names.tolist() == ["Three Aces", "Pair of Kings, Deuce kicker"]
    names = describe(np.array([hand_from_text("As Ks Qs Js Ts"),
                               hand_from_text("Qs Js 9s 5s 2s")]).reshape(2, 1, 5))
    assert names.shape == (2, 1)
    assert names.reshape(-1).tolist() == ["Royal Flush", "Queen-high flush"]


def test_describe_strength_range():
    assert describe_strength(1) == "Four-high, Three-Deuce kickers"
    assert describe_strength(N_JOINT) == "Royal Flush"
    assert describe_strength(np.uint16(N_JOINT)) == "Royal Flush"
    for bad in (0, -1, N_JOINT + 1, 100000):
        with pytest.raises(ValueError, match=rf"{bad} is not a row strength \(1 \.\. 7917\)"):
            describe_strength(bad)


_NAME_PATTERNS = {
    ref.HIGH_CARD: r"[A-Z][a-z]+-high, [A-Za-z-]+ kickers",
    ref.PAIR: r"Pair of [A-Z][a-z]+s, [A-Za-z-]+ kickers?",
    ref.TWO_PAIR: r"Two Pair, [A-Z][a-z]+s and [A-Z][a-z]+s, [A-Z][a-z]+ kicker",
    ref.TRIPS: r"Three [A-Z][a-z]+s(, [A-Za-z]+-[A-Za-z]+ kickers)?",
    ref.STRAIGHT: r"[A-Z][a-z]+-high straight",
    ref.FLUSH: r"[A-Z][a-z]+-high flush",
    ref.FULL_HOUSE: r"Full House, [A-Z][a-z]+s full of [A-Z][a-z]+s",
    ref.QUADS: r"Four [A-Z][a-z]+s, [A-Z][a-z]+ kicker",
    ref.STRAIGHT_FLUSH: r"([A-Z][a-z]+-high straight flush|Royal Flush)",
}
_NAME = ["Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
         "Queen", "King", "Ace"]
_PLURAL = ["Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
           "Jacks", "Queens", "Kings", "Aces"]


@pytest.mark.slow
def test_describe_every_joint_value(keys5, keys3):
    """Every joint value is named after its category and its leading rank; apart from
    flushes (named by their top card only) no two joint values share a name."""
    keys = np.concatenate([keys5, keys3])
    joint, n = class_index(keys)
    assert n == N_JOINT
    rep = np.zeros(n + 1, dtype=np.int64)
    rep[joint] = keys
    names = describe(np.array([[0, 4, 8]]))  # warm the batch path
    assert names.tolist() == ["Four-high, Three-Deuce kickers"]
    seen = {}
    flush_names = set()
    for j in range(1, n + 1):
        name = describe_strength(j)
        cat, ranks = ref.decode(int(rep[j]))
        assert re.fullmatch(_NAME_PATTERNS[cat], name), (j, name)
        lead = ranks[0]
        if cat in (PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS):
            assert f" {_PLURAL[lead]}" in name, (j, name)
        elif cat == STRAIGHT_FLUSH and lead == 12:
            assert name == "Royal Flush"
        else:
            assert name.startswith(f"{_NAME[lead]}-high"), (j, name)
        if cat == FLUSH:
            flush_names.add(name)
        else:
            assert name not in seen, (j, seen.get(name), name)
            seen[name] = j
    # flushes run from Seven-high (7-5-4-3-2) to Ace-high
    assert flush_names == {f"{_NAME[r]}-high flush" for r in range(5, 13)}


def test_strength_out_sharing_the_input_buffer_is_read_first():
    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((1000, 52)), axis=1)[:, :5].astype(np.uint8)
    want = ofc.strength5(hands)
    buf = np.zeros(1000 * 5, np.uint8)
    cards = buf.reshape(1000, 5)
    cards[...] = hands
    out = buf[2500:4500].view(np.uint16)   # out[i] lands on hand 500 + 0.4 i, not read yet
    got = ofc.strength5(cards, out=out)     # 0.1: wrong strengths or a false CardError
    assert got is out
    np.testing.assert_array_equal(got, want)
