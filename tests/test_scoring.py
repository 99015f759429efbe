"""Property tests of the layout and scoring kernels (RULES.md sections 4-7).

Random deals come from permutations of the deck, steered so that a healthy
share of hands is legal (5-card rows sorted by strength), carries royalties,
enters fantasyland (QQ+ / trips tops), repeats (quads, royal flushes) or has a
valid 2-7 middle.  The kernels are compared with the independent plain-Python
``slow_scorer`` on every variant and several options, and checked for the
structural properties of scoring (zero-sum, antisymmetry, fouls).
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ofc_fast as ofc
import slow_scorer as S
from fuzz_budget import examples
from ofc_fast import EMPTY, LayoutError, evaluate, score_field, score_matrix, score_tables

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------- deal strategies
def _take_ranks(deck, ranks):
    """One card of each rank (first in deck order), as far as available."""
    out = []
    for r in ranks:
        for c in deck:
            if c // 4 == r and c not in out:
                out.append(c)
                break
    for c in out:
        deck.remove(c)
    return out


def _take_rank(deck, rank, k):
    out = [c for c in deck if c // 4 == rank][:k]
    for c in out:
        deck.remove(c)
    return out


def _take_cards(deck, cards):
    if all(c in deck for c in cards):
        for c in cards:
            deck.remove(c)
        return list(cards)
    return []


def _take_suit(deck, suit, k):
    out = [c for c in deck if c % 4 == suit][:k]
    for c in out:
        deck.remove(c)
    return out


def _planned_five(draw, deck, plan):
    if plan == "quads":
        return _take_rank(deck, draw(st.integers(0, 12)), 4)
    if plan == "royal":
        s = draw(st.integers(0, 3))
        return _take_cards(deck, [4 * r + s for r in range(8, 13)])
    if plan == "straight_flush":
        s, hi = draw(st.integers(0, 3)), draw(st.integers(3, 11))
        ranks = [12, 0, 1, 2, 3] if hi == 3 else list(range(hi - 4, hi + 1))
        return _take_cards(deck, [4 * r + s for r in ranks])
    if plan == "flush":
        return _take_suit(deck, draw(st.integers(0, 3)), 5)
    if plan == "straight":
        hi = draw(st.integers(3, 12))
        return _take_ranks(deck, [12, 0, 1, 2, 3] if hi == 3 else range(hi - 4, hi + 1))
    if plan == "full_house":
        a, b = draw(st.lists(st.integers(0, 12), min_size=2, max_size=2, unique=True))
        return _take_rank(deck, a, 3) + _take_rank(deck, b, 2)
    if plan == "trips":
        return _take_rank(deck, draw(st.integers(0, 12)), 3)
    if plan == "low":
        ranks = draw(st.lists(st.integers(0, 8), min_size=5, max_size=5, unique=True))
        return _take_ranks(deck, ranks)
    if plan == "low75":
        return _take_ranks(deck, [5, 3, 2, 1, 0])
    if plan == "low76":
        return _take_ranks(deck, [5, 4] + draw(st.lists(st.integers(0, 3), min_size=3,
                                                        max_size=3, unique=True)))
    return []


TOP_PLANS = ["any", "any", "any", "pair_qq", "pair_qq", "pair_kk", "trips", "pair"]
FIVE_PLANS = ["any", "any", "any", "quads", "royal", "straight_flush", "flush", "straight",
              "full_house", "trips"]
STRONG_PLANS = FIVE_PLANS[3:]   # with a fantasyland top: rows that can hold it
LOW_PLANS = ["any", "low", "low", "low", "low75", "low75", "low76"]


def draw_layout(draw, deck, r: S.SlowRules):
    R = r.n_rows
    rows = [[] for _ in range(R)]
    top = draw(st.sampled_from(TOP_PLANS))
    if top == "pair_qq":
        rows[0] = _take_rank(deck, draw(st.integers(10, 12)), 2)
    elif top == "pair_kk":
        rows[0] = _take_rank(deck, draw(st.integers(11, 12)), 2)
    elif top == "pair":
        rows[0] = _take_rank(deck, draw(st.integers(0, 12)), 2)
    elif top == "trips":
        rows[0] = _take_rank(deck, draw(st.integers(0, 12)), 3)
    strong = top in ("pair_qq", "pair_kk", "trips") and draw(st.sampled_from([True, True, False]))
    for i in range(1, R):
        low = r.lowball and i == 1
        plan = draw(st.sampled_from(LOW_PLANS if low else STRONG_PLANS if strong else FIVE_PLANS))
        rows[i] = _planned_five(draw, deck, plan)
    for i, n in enumerate(r.row_sizes):       # fill from the (shuffled) deck
        while len(rows[i]) < n:
            rows[i].append(deck.pop(0))
    if draw(st.sampled_from(["sort", "sort", "keep"])) == "sort":   # sort the chained 5-card rows
        chain = [i for i in range(1, R) if not (r.lowball and i == 1)]
        ordered = sorted((rows[i] for i in chain), key=S.hand_key)
        for i, row in zip(chain, ordered, strict=True):
            rows[i] = row
    return [c for row in rows for c in row]


@st.composite
def deals(draw, r: S.SlowRules, n_players=None):
    """(P, n_cards) uint8 layouts of one deal: all cards distinct."""
    if n_players is None:
        n_players = draw(st.integers(2, 4 if r.n_rows == 3 else 2))
    deck = list(draw(st.permutations(range(52))))
    return np.array([draw_layout(draw, deck, r) for _ in range(n_players)], np.uint8)


@st.composite
def pools(draw, r: S.SlowRules, max_deals=3):
    """Layouts of several independent deals (cards may repeat across deals)."""
    k = draw(st.integers(1, max_deals))
    return np.concatenate([draw(deals(r)) for _ in range(k)])


def suit_permuted(lays, perm):
    perm = np.asarray(perm, np.uint8)
    return (lays // 4) * 4 + perm[lays % 4]


# ------------------------------------------------------------- configurations
CONFIGS = [
    ("classic", {}), ("chinese", {}), ("turbo", {}), ("pineapple", {}), ("progressive", {}),
    ("pineapple-2-7", {}), ("turbo-pineapple", {}), ("big-pineapple", {}),
    ("pineapple", {"finnish": True}), ("classic", {"finnish": True}),
    ("pineapple-2-7", {"finnish": True}), ("big-pineapple", {"finnish": True}),
    ("progressive", {"finnish": True, "scoring": "2-4"}),
    ("turbo-pineapple", {"lowball": True}), ("classic", {"lowball": True}),
    ("pineapple-2-7", {"lowball": False}),
    ("pineapple", {"scoring": "2-4"}), ("classic", {"scoring": "2-4", "foul_penalty": 5}),
    ("classic", {"foul_penalty": 9}), ("pineapple", {"foul_penalty": 2}),
    ("classic", {"american": True}), ("turbo", {"royalties": "pokerstars"}),
    ("pineapple", {"royalties": "russian", "scoring": "2-6"}),
    ("big-pineapple", {"third_row_trips": 7, "foul_penalty": 20}),
    ("big-pineapple", {"scoring": "2-4"}), ("big-pineapple", {"american": True}),
    ("big-pineapple", {"repeat": "infinite"}),
    ("pineapple", {"repeat": "infinite"}), ("turbo", {"repeat": "infinite"}),
    ("classic", {"repeat_limit": None}), ("pineapple", {"repeat_limit": 2}),
    ("pineapple", {"repeat": "classic"}), ("classic", {"repeat": "pineapple"}),
    ("progressive", {"fantasyland": False}), ("pineapple-2-7", {"repeat": "infinite"}),
    ("pineapple", {"scoring": {"per_row": 2, "scoop_bonus": 1, "majority_bonus": 1,
                               "foul_penalty": 7}}),
    ("classic", {"royalties": {"top_pairs": list(range(13)), "middle": {"trips": 1, "flush": 3},
                               "bottom": {"straight_flush": 11, "quads": 5, "two_pair": 1}},
                 "finnish": True}),
]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}"[:60] for n, o in CONFIGS]


def _describe(lays, v):
    return "\n".join(ofc.format_layout(x, v) for x in lays)


# ========================================================= kernels == slow scorer
@pytest.mark.slow
@pytest.mark.parametrize("name,opts", CONFIGS, ids=IDS)
def test_kernels_equal_slow_scorer(name, opts):
    v, r = ofc.variant(name, **opts), S.rules(name, **opts)

    @settings(max_examples=examples(120), **SETTINGS)
    @given(lays=deals(r), perm=st.permutations(range(4)), data=st.data())
    def check(lays, perm, data):
        n = len(lays)
        fl = np.array(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), np.uint8)
        e = evaluate(lays, v, in_fantasyland=fl)
        slow = [S.evaluate(x, r, int(k)) for x, k in zip(lays, fl, strict=True)]
        for i, s in enumerate(slow):
            what = f"{ofc.format_layout(lays[i], v)} (in fantasyland {fl[i]})"
            assert bool(e.foul[i]) == s.foul, what
            assert e.royalties[i].tolist() == s.royalties, what
            assert int(e.royalty_total[i]) == s.royalty_total, what
            assert int(e.next_fantasyland[i]) == s.fantasyland, what
            assert bool(e.repeat[i]) == s.repeat, what
            assert int(e.next_in_fantasyland[i]) == ((fl[i] + 1) if s.fantasyland else 0), what
        # row strengths order like the rule book (incl. 3 vs 5 cards), across layouts
        keys = [k for s in slow for k in s.keys]
        st_ = e.strengths.reshape(-1).astype(int)
        for a in range(len(keys)):
            for b in range(len(keys)):
                assert (st_[a] > st_[b]) == (keys[a] > keys[b])
                assert (st_[a] == st_[b]) == (keys[a] == keys[b])
        # scores: against each other and against a suit-permuted copy (many row ties,
        # the 2s in two layouts of a pair)
        other = suit_permuted(lays, perm)
        m = score_matrix(lays, None, v)
        assert m.tolist() == S.matrix(list(lays), None, r), _describe(lays, v)
        m2 = score_matrix(lays, other, v)
        assert m2.tolist() == S.matrix(list(lays), list(other), r), \
            _describe(lays, v) + "\nvs\n" + _describe(other, v)
        assert score_field(lays, v, field=other).tolist() == m2.sum(axis=1).tolist()
        pts, verdicts = S.pair(lays[0], other[-1], r)
        res = ofc.score_pair(lays[0], other[-1], v)
        assert (res.points, res.rows) == (pts, verdicts)
        if v.min_players <= n <= v.max_players:
            assert score_tables(lays[None], v)[0].tolist() == S.table(list(lays), r)
            d = score_tables(lays[None], v, in_fantasyland=fl[None], details=True)
            assert d.next_fantasyland[0].tolist() == [s.fantasyland for s in slow]
            assert d.foul[0].tolist() == [s.foul for s in slow]
            assert d.royalty_total[0].tolist() == [s.royalty_total for s in slow]

    check()


def _generated_evaluations(r):
    """The slow scorer's evaluation of every layout the ``deals`` strategy generates."""
    seen = []

    @settings(max_examples=150, database=None, derandomize=True, **SETTINGS)
    @given(deals(r))
    def collect(lays):
        for x in lays:
            seen.append(S.evaluate(x, r))

    collect()
    return seen


@pytest.mark.slow
def test_generated_deals_mix_legal_fouled_and_bonuses():
    """The strategies produce the situations the comparison needs."""
    stats = {}
    for name, opts in [("pineapple", {}), ("pineapple-2-7", {}), ("big-pineapple", {}),
                       ("progressive", {})]:
        seen = _generated_evaluations(S.rules(name, **opts))
        stats[name] = seen
        legal = [s for s in seen if not s.foul]
        assert 0.2 < len(legal) / len(seen) < 0.95, (name, len(legal) / len(seen))
        assert sum(1 for s in legal if s.fantasyland) >= 8, name
        assert sum(1 for s in legal if s.royalty_total) >= 20, name
    low = [s for s in stats["pineapple-2-7"] if not s.foul]
    assert sum(1 for s in low if S.low_ranks(s.rows[1]) == (5, 3, 2, 1, 0)) >= 3


# ============================================================= structural properties
PROP_CONFIGS = [("pineapple", {}), ("classic", {"finnish": True}), ("pineapple-2-7", {}),
                ("big-pineapple", {}), ("progressive", {"scoring": "2-4"}),
                ("big-pineapple", {"finnish": True})]


@pytest.mark.parametrize("name,opts", PROP_CONFIGS)
def test_score_matrix_antisymmetric_zero_diagonal(name, opts):
    v, r = ofc.variant(name, **opts), S.rules(name, **opts)

    @settings(max_examples=examples(60), **SETTINGS)
    @given(pools(r))
    def check(lays):
        m = score_matrix(lays, None, v)
        assert m.dtype == np.int32 and m.shape == (len(lays), len(lays))
        assert (np.diag(m) == 0).all()
        assert (m == -m.T).all()
        assert (score_matrix(lays, lays, v) == m).all()

    check()


@pytest.mark.parametrize("name,opts", PROP_CONFIGS)
def test_score_tables_zero_sum(name, opts):
    v, r = ofc.variant(name, **opts), S.rules(name, **opts)

    @settings(max_examples=examples(60), **SETTINGS)
    @given(st.integers(v.min_players, v.max_players).flatmap(
        lambda p: st.lists(deals(r, p), min_size=1, max_size=4)))
    def check(tables):
        t = np.stack(tables)
        pts = score_tables(t, v)
        assert pts.shape == t.shape[:2]
        assert (pts.sum(axis=1) == 0).all()
        for g in range(len(t)):   # a table is the row sums of its score matrix
            assert pts[g].tolist() == score_matrix(t[g], None, v).sum(axis=1).tolist()

    check()


@pytest.mark.parametrize("name,opts", PROP_CONFIGS)
def test_fouled_hand_earns_nothing(name, opts):
    v, r = ofc.variant(name, **opts), S.rules(name, **opts)

    @settings(max_examples=examples(60), **SETTINGS)
    @given(pools(r), st.integers(0, 3))
    def check(lays, k):
        for fl in (None, k):
            e = evaluate(lays, v, in_fantasyland=fl)
            f = e.foul
            assert (e.royalties[f] == 0).all()
            assert (e.royalty_total[f] == 0).all()
            assert (e.next_fantasyland[f] == 0).all()
            assert not e.repeat[f].any()
            assert (e.next_in_fantasyland[f] == 0).all()

    check()


SCOOP = {"1-6": 6, "2-4": 4, "2-6": 6, "1-12": 12}


@pytest.mark.parametrize("name,opts", [("pineapple", {}), ("classic", {}),
                                       ("pineapple", {"scoring": "2-4"}),
                                       ("pineapple-2-7", {}), ("big-pineapple", {}),
                                       ("classic", {"foul_penalty": 11})])
def test_live_against_fouled(name, opts):
    v, r = ofc.variant(name, **opts), S.rules(name, **opts)
    penalty = opts.get("foul_penalty", SCOOP[v.scoring.name])

    @settings(max_examples=examples(60), **SETTINGS)
    @given(pools(r))
    def check(lays):
        e = evaluate(lays, v)
        m = score_matrix(lays, None, v)
        for i in range(len(lays)):
            for j in range(len(lays)):
                if e.foul[j] and not e.foul[i]:
                    assert m[i, j] == penalty + e.royalty_total[i]
                elif e.foul[i] and e.foul[j]:
                    assert m[i, j] == 0

    check()


@pytest.mark.parametrize("name,opts", PROP_CONFIGS)
def test_score_field_equals_matrix_row_sums(name, opts):
    v, r = ofc.variant(name, **opts), S.rules(name, **opts)

    @settings(max_examples=examples(50), **SETTINGS)
    @given(pools(r), pools(r))
    def check(a, b):
        tot = score_field(a, v)
        assert tot.dtype == np.int64 and tot.shape == (len(a),)
        assert tot.tolist() == score_matrix(a, None, v).sum(axis=1).tolist()
        assert score_field(a, v, field=b).tolist() == \
            score_matrix(a, b, v).sum(axis=1).astype(np.int64).tolist()

    check()


# ===================================================================== error cases
V = ofc.variant("pineapple")
GOOD = ofc.parse_layouts(["Ah Ad 2c / 3c 4c 5c 6c 7c / Ts Js Qs Ks As",
                          "2h 2d 3d / 8c 8d 8h 9c 9d / Th Jh Qh Kh 5h"], V)


def _all_entry_points(lays, v=V):
    """Every public call that takes layouts."""
    return [
        lambda: evaluate(lays, v),
        lambda: score_matrix(lays, None, v),
        lambda: score_matrix(GOOD, lays, v),
        lambda: score_field(lays, v),
        lambda: score_field(GOOD, v, field=lays),
        lambda: score_tables(lays[None], v),
    ]


def test_empty_slot_rejected():
    lays = GOOD.copy()
    lays[1, 10] = EMPTY
    for call in _all_entry_points(lays):
        with pytest.raises(LayoutError, match=r"\[1\].*bottom row.*empty \(255\)|player 1, "
                                              r"bottom row.*empty \(255\)"):
            call()
    with pytest.raises(LayoutError, match="empty"):
        ofc.score_pair(lays[1], lays[0], V)
    with pytest.raises(LayoutError, match="empty"):
        evaluate("Ah Ad __ / 3c 4c 5c 6c 7c / Ts Js Qs Ks As", V)


@pytest.mark.parametrize("bad, message", [
    (54, r".*card id 54.*not a card"), (100, r".*card id 100.*not a card"),
    (254, r".*card id 254.*not a card"),
    # a joker in a 52-card variant is named as one
    (52, r": X1 is a joker \(card 4\); variant \S+ is played without jokers \(jokers=0\)"),
    (53, r": X2 is a joker \(card 4\); variant \S+ is played without jokers \(jokers=0\)"),
])
def test_card_id_above_51_rejected(bad, message):
    lays = GOOD.copy()
    lays[0, 4] = bad
    for call in _all_entry_points(lays):
        with pytest.raises(LayoutError, match=r"middle row" + message):
            call()


@pytest.mark.parametrize("bad", [-1, 256, 1000])
def test_card_id_out_of_uint8_range_rejected(bad):
    lays = GOOD.astype(np.int64)
    lays[0, 12] = bad
    for call in _all_entry_points(lays)[:5]:
        with pytest.raises(LayoutError, match=rf"bottom row.*card id {bad}.*not a card"):
            call()
    with pytest.raises(LayoutError, match="not a card"):
        score_tables(lays[None], V)


def test_duplicate_card_within_layout_names_the_row():
    lays = GOOD.copy()
    lays[1, 12] = lays[1, 0]       # 2h in the top and the bottom
    with pytest.raises(LayoutError, match=r"layouts\[1\], bottom row: 2h appears twice "
                                          r"\(also in the top row\)"):
        evaluate(lays, V)
    with pytest.raises(LayoutError, match=r"b\[1\], bottom row: 2h appears twice"):
        score_matrix(GOOD, lays, V)
    with pytest.raises(LayoutError, match=r"table 0, player 1, bottom row: 2h appears twice"):
        score_tables(lays[None], V)
    lays = GOOD.copy()
    lays[0, 5] = lays[0, 4]        # within the middle row
    with pytest.raises(LayoutError, match=r"layouts\[0\], middle row: 4c appears twice "
                                          r"\(also in the middle row\)"):
        evaluate(lays, V)
    four = ofc.parse_layout("2c 3d 4s / 2d 3h 4c 5s 7d / 2h 3s 4d 6c 8h / Td Jd Qd Kd Ad",
                            "big-pineapple")
    four[9] = four[4]               # the third row's 3h again in the second row
    with pytest.raises(LayoutError,
                       match=r"second row: 3h appears twice \(also in the third row\)"):
        evaluate(four, "big-pineapple")


def test_duplicate_card_across_players_names_table_and_players():
    t = np.stack([GOOD, GOOD.copy()])
    t[1, 1, 12] = t[1, 0, 0]        # Ah held by players 0 and 1 of table 1
    with pytest.raises(LayoutError, match=r"table 1: Ah is held by player 0 and player 1"):
        score_tables(t, V)
    three = np.stack([ofc.parse_layouts([
        "2c 3d 4s / 2d 3h 4c 5s 7d / 8c 9d Th Js Qc",
        "5c 5d 3c / 6c 6d 7c 7h 8d / Ac Ad Ah 9c 9h",
        "Kc Kd 4d / Qd Qh Jc Jd 3s / 6h 6s 8h 8s Ks"], V)])
    assert score_tables(three, V).sum() == 0
    three[0, 2, 4] = three[0, 0, 10]   # Th: player 0's bottom, player 2's middle
    with pytest.raises(LayoutError, match=r"table 0: Th is held by player 0 and player 2"):
        score_tables(three, V)
    # independent deals may share cards
    assert score_matrix(GOOD, GOOD[::-1].copy(), V).shape == (2, 2)


def test_wrong_shapes():
    with pytest.raises(ValueError, match=r"shape \(N, 13\).*got \(2, 12\)"):
        evaluate(GOOD[:, :12], V)
    with pytest.raises(ValueError, match=r"shape \(N, 18\) for big-pineapple"):
        evaluate(GOOD, "big-pineapple")
    with pytest.raises(ValueError, match="shape"):
        evaluate(GOOD[None], V)
    with pytest.raises(ValueError, match="shape"):
        score_matrix(GOOD, GOOD[:, :12], V)
    with pytest.raises(ValueError, match="shape"):
        score_field(GOOD[:, 1:], V)
    with pytest.raises(ValueError, match=r"tables must have shape \(G, P, 13\)"):
        score_tables(GOOD, V)
    with pytest.raises(ValueError, match=r"tables must have shape \(G, P, 18\)"):
        score_tables(GOOD[None], "big-pineapple")
    with pytest.raises(ValueError, match="one layout each"):
        ofc.score_pair(GOOD, GOOD[0], V)


@pytest.mark.parametrize("name,players,ok", [
    ("pineapple", 1, False), ("pineapple", 2, True), ("pineapple", 3, True),
    ("pineapple", 4, False), ("classic", 4, True), ("classic", 5, False),
    ("turbo", 4, True), ("chinese", 4, True), ("progressive", 4, False),
    ("pineapple-2-7", 4, False), ("turbo-pineapple", 3, True), ("turbo-pineapple", 4, False),
    ("big-pineapple", 2, True), ("big-pineapple", 3, False),
])
def test_player_counts_per_variant(name, players, ok):
    v = ofc.variant(name)
    deck = np.arange(52, dtype=np.uint8)
    n = v.n_cards
    t = np.zeros((1, players, n), np.uint8)
    for p in range(players):
        t[0, p] = deck[(p * n) % 52:(p * n) % 52 + n] if (p + 1) * n <= 52 else \
            np.roll(deck, p)[:n]
    if ok:
        assert score_tables(t, v).sum() == 0
    else:
        with pytest.raises(ValueError, match=rf"{name} is played by "
                                             rf"{v.played_by}, "
                                             rf"got tables of {players}"):
            score_tables(t, v)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.bool_, object])
def test_non_integer_dtype_is_type_error(dtype):
    bad = GOOD.astype(dtype)
    with pytest.raises(TypeError, match="integer card ids"):
        evaluate(bad, V)
    with pytest.raises(TypeError, match="integer card ids"):
        score_matrix(bad, None, V)
    with pytest.raises(TypeError, match="integer card ids"):
        score_matrix(GOOD, bad, V)
    with pytest.raises(TypeError, match="integer card ids"):
        score_field(bad, V)
    with pytest.raises(TypeError, match="integer card ids"):
        score_tables(bad[None], V)
    with pytest.raises(TypeError, match="integer card ids"):
        ofc.score_pair(bad[0], GOOD[1], V)


def test_in_fantasyland_validation():
    with pytest.raises(TypeError, match="in_fantasyland must be bool or integer"):
        evaluate(GOOD, V, in_fantasyland=np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="0 .. 255"):
        evaluate(GOOD, V, in_fantasyland=np.array([0, 300]))
    with pytest.raises(ValueError):
        evaluate(GOOD, V, in_fantasyland=np.array([0, 1, 2]))


def test_out_buffers():
    out = np.empty((2, 2), np.int32)
    assert score_matrix(GOOD, None, V, out=out) is out
    with pytest.raises(TypeError, match="dtype"):
        score_matrix(GOOD, None, V, out=np.empty((2, 2), np.int64))
    with pytest.raises(ValueError, match="shape"):
        score_matrix(GOOD, None, V, out=np.empty((2, 3), np.int32))
    tot = np.empty(2, np.int64)
    assert score_field(GOOD, V, out=tot) is tot


def test_empty_batches():
    none = np.empty((0, 13), np.uint8)
    assert score_matrix(none, GOOD, V).shape == (0, 2)
    assert score_matrix(GOOD, none, V).shape == (2, 0)
    assert score_field(GOOD, V, field=none).tolist() == [0, 0]
    assert len(evaluate(none, V)) == 0
    assert score_tables(np.empty((0, 2, 13), np.uint8), V).shape == (0, 2)


@pytest.mark.parametrize("points, stake, stacks, error, message", [
    ([[0, 1], [-1, 0]], float("nan"), None, ValueError, "stake must be a finite number"),
    ([[0, 1], [-1, 0]], -1, None, ValueError, "stake must be a finite number >= 0"),
    ([[0, 1], [-1, 0]], "2", None, TypeError, "stake must be a number, got '2'"),
    ([[0, 1], [-1, 0]], 1, [float("nan"), 1], ValueError,
     r"stacks must be non-negative numbers \(inf: no cap\), got nan"),
    ([[0, 1], [-1, 0]], 1, [1, 2, 3], ValueError,
     r"stacks must broadcast to shape \(2,\) \(players\), got shape \(3,\)"),
    ([[0, 1j], [-1j, 0]], 1, None, TypeError, "points must be real numbers"),
    ([[0, float("inf")], [float("-inf"), 0]], 1, None, ValueError, "points must be finite"),
])
def test_settle_rejects_bad_money(points, stake, stacks, error, message):
    with pytest.raises(error, match=message):
        ofc.settle(points, stake, stacks)
