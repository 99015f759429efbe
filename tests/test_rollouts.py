"""Dead-hand search and rollouts (ofc_fast.rollouts; kernels in ofc_fast._search,
_rollout, and the move counting of _order).

is_dead is checked against a brute-force completion search on small unseen
sets; rollouts against evaluate() on the same random completions.
"""
import itertools

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import _order, _rollout, _search
from ofc_fast.rollouts import (
    card_mask,
    completion,
    is_dead,
    mask_cards,
    play_rules,
    rollout,
    rollout_ev,
)

EMPTY = 255


def brute_dead(lay, pool, v):
    """Exhaustive: every assignment of pool cards to the empty slots (cards
    within a row are unordered), evaluated in one batch."""
    rows, off = [], 0
    for size in v.row_sizes:
        rows.append([i for i in range(off, off + size) if lay[i] == EMPTY])
        off += size
    pool = [int(c) for c in pool]
    if len(pool) < sum(len(r) for r in rows):
        return True
    outs = []

    def rec(ri, avail, cur):
        if ri == len(rows):
            outs.append(cur.copy())
            return
        for comb in itertools.combinations(avail, len(rows[ri])):
            for slot, c in zip(rows[ri], comb, strict=True):
                cur[slot] = c
            rec(ri + 1, [c for c in avail if c not in comb], cur)

    rec(0, pool, np.array(lay, np.uint8))
    return bool(ofc.evaluate(np.array(outs, np.uint8), v).foul.all())


def legal_layout(v, rng):
    while True:
        cards = rng.permutation(52)[:v.n_cards].astype(np.uint8)
        for _ in range(40):
            cand = cards[rng.permutation(v.n_cards)]
            if not ofc.evaluate(cand, v).foul[0]:
                return cand


def small_cases(v, rng, n, near_legal):
    """Partial layouts with 1-5 empty slots and pools of up to 9 cards."""
    for _ in range(n):
        full = legal_layout(v, rng) if near_legal else \
            rng.permutation(52)[:v.n_cards].astype(np.uint8)
        e = int(rng.integers(1, 6))
        empty = rng.choice(v.n_cards, e, replace=False)
        lay = full.copy()
        lay[empty] = EMPTY
        others = np.setdiff1d(np.arange(52), full)
        keep = full[empty][rng.random(e) < 0.5]
        extra = rng.choice(others, int(rng.integers(0, 6)), replace=False)
        pool = np.concatenate([keep, extra]).astype(np.uint8)
        if len(pool) < e:
            more = rng.choice(np.setdiff1d(others, pool), e - len(pool), replace=False)
            pool = np.concatenate([pool, more]).astype(np.uint8)
        yield lay, pool, empty


VARIANTS = ["pineapple", "pineapple-2-7", "big-pineapple", "classic"]


@pytest.mark.slow
@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("near_legal", [True, False])
def test_is_dead_matches_brute_force(name, near_legal):
    v = ofc.variant(name)
    rng = np.random.default_rng(hash((name, near_legal)) % 2**32)
    n_dead = 0
    for lay, pool, empty in small_cases(v, rng, 250, near_legal):
        want = brute_dead(lay, pool, v)
        got = is_dead(lay, pool, v)
        assert got == want, (ofc.format_layout(lay, v), ofc.format_cards(pool))
        n_dead += want
        comp = completion(lay, pool, v)
        if want:
            assert comp is None
        else:  # the witness is legal, keeps placed cards and uses only the pool
            assert not ofc.evaluate(comp, v).foul[0]
            fixed = np.setdiff1d(np.arange(v.n_cards), empty)
            assert (comp[fixed] == lay[fixed]).all()
            assert set(comp[empty].tolist()) <= set(pool.tolist())
    assert 0 < n_dead < 250      # both answers exercised


def test_is_dead_tight_pool_big_pineapple():
    """Pools exactly the size of the empty slots force every card in place."""
    v = ofc.variant("big-pineapple")
    rng = np.random.default_rng(11)
    for _ in range(60):
        full = legal_layout(v, rng)
        empty = rng.choice(v.n_cards, 5, replace=False)
        lay = full.copy()
        lay[empty] = EMPTY
        pool = full[empty]
        assert not is_dead(lay, pool, v)              # its own cards complete it
        swapped = np.concatenate([pool[:-1], rng.choice(np.setdiff1d(np.arange(52), full), 1)])
        assert is_dead(lay, swapped, v) == brute_dead(lay, swapped, v)


def test_is_dead_examples():
    v = ofc.variant("pineapple")
    assert not is_dead("Kc Kd __ / Qh Qs 3c 4d __ / __ __ __ __ __", None, v)
    assert is_dead("Kc Kd Ks / Qh Qs 3c 4d 5h / __ __ __ __ __", None, v)
    # complete rows out of order
    assert is_dead("Kc Kd 2c / Qh Qs 3c 4d 5h / __ __ __ __ __", None, v)
    # the middle needs a queen, three or four, and the bottom must still beat it
    lay = "Kc Kd 2c / Qh Qs 3c 4d __ / Ac Ad __ __ __"
    assert is_dead(lay, "Qc Qd 3d 3h 3s 4h 4s 4c", v) is False
    assert is_dead(lay, "7c 8d 9h Tc", v) is True
    # pigeonhole: two rows each need the last king (found by rank demand)
    bp = ofc.variant("big-pineapple")
    seen = card_mask("3s Jh Qh Ad 8s Kc 5d 4s 6d Kd Td Ks Js 6h 4c")
    lay = "Kd __ __ / 4s __ __ __ __ / 6d __ __ __ __ / Td Ks Js 6h 4c"
    assert is_dead(lay, ((1 << 52) - 1) & ~seen, bp)


def _cards_first(lay, sizes):
    """Each row's cards moved to its first slots (the hand core's layouts)."""
    out, off = [], 0
    for size in sizes:
        row = [c for c in lay[off:off + size] if c != EMPTY]
        out += row + [EMPTY] * (size - len(row))
        off += size
    return np.array(out, np.uint8)


@pytest.mark.parametrize("name", ["pineapple", "pineapple-2-7", "big-pineapple"])
def test_dead_quick_is_sound_and_finds_the_usual_kills(name):
    """_search.dead_quick_one (the cheap test the hand core runs before its
    searches) never calls a live layout dead, on partial layouts with a
    complete bottom and made hands above it; and it finds most dead ones."""
    v = ofc.variant(name)
    pr = play_rules(v)
    rng = np.random.default_rng(17)
    sizes = v.row_sizes
    quick = dead = 0
    for _ in range(1500):
        deck = rng.permutation(52).astype(np.uint8)
        lay, k = [], 0
        for i, size in enumerate(sizes):
            n = size if i == len(sizes) - 1 or rng.random() < 0.25 else int(rng.integers(0, size))
            row = deck[k:k + n].tolist()
            if n >= 2 and rng.random() < 0.5:        # a pair made more likely
                mate = [c for c in deck[k + n:].tolist() if c >> 2 == row[0] >> 2]
                if mate:
                    row[1] = mate[0]
            k += n
            lay += row + [EMPTY] * (size - n)
        lay = np.array(lay, np.uint8)
        if len(set(lay[lay != EMPTY].tolist())) != int((lay != EMPTY).sum()):
            continue
        pool = np.setdiff1d(np.arange(52), lay).astype(np.uint8)
        q = _search.dead_quick_one(pr, lay)
        d = is_dead(lay, pool, v)
        assert q in (0, 1) and (d or not q), ofc.format_layout(lay, v)
        quick += q
        dead += d
    assert dead > 200 and quick > dead // 2, (quick, dead)


def test_dead_quick_examples():
    v = ofc.variant("pineapple")
    pr = play_rules(v)

    def lay(text):
        return _cards_first(ofc.parse_layout(text, v), v.row_sizes)

    # a pair up top over a queen-high bottom; a paired middle over it
    assert _search.dead_quick_one(pr, lay("Jc Jh __ / 4c 9s __ __ __ / Qh 8h 4d 2d Td"))
    assert _search.dead_quick_one(pr, lay("4s 7h 5c / Qd 2c Qs __ __ / 3d 7s 8d 9s Jd"))
    # complete rows out of order; an ace-king top over a king-high bottom
    assert _search.dead_quick_one(pr, lay("__ __ __ / Js 8d Td Ac Ah / 5h 3s 4d Jc 6d"))
    assert _search.dead_quick_one(pr, lay("Kc As __ / Th 2d __ __ __ / Ks 4c Jd 8s 5d"))
    # the lowest kickers of 6 5 would make a straight: no floor, and alive
    # (7 6 5 3 2 in the middle, under the deuces)
    alive = lay("__ __ __ / 5h 6c __ __ __ / 2c 2d 9h Th Jc")
    assert not _search.dead_quick_one(pr, alive)
    assert not is_dead(alive, None, v)
    # a floor equal to the complete row below: a tie is legal (Q Q 5 3 2 twice)
    tie = lay("__ __ __ / Qd Qs 5c __ __ / Qh Qc 5d 3h 2s")
    assert not _search.dead_quick_one(pr, tie)
    assert not is_dead(tie, None, v)
    # a live layout with a complete bottom and no floor above it
    assert not _search.dead_quick_one(pr, lay("Qc __ __ / 9d 9h __ __ __ / Ks Kd 3c 3d 7h"))
    # a complete 2-7 middle with a pair is not a valid low
    lv = ofc.variant("pineapple-2-7")
    low = _cards_first(ofc.parse_layout("__ __ __ / 2c 2d 4h 6s 8c / __ __ __ __ __", lv),
                       lv.row_sizes)
    assert _search.dead_quick_one(play_rules(lv), low)
    assert _search.dead_quick_one(pr, np.zeros(5, np.uint8)) == -1      # malformed
    assert _search.dead_quick_one(pr, np.full(13, 60, np.uint8)) == -1


def test_is_dead_lowball_middle():
    v = ofc.variant("pineapple-2-7")
    # a paired middle can never be a valid 2-7 low
    assert is_dead("__ __ __ / 7c 7d __ __ __ / __ __ __ __ __", None, v)
    assert not is_dead("__ __ __ / 7c 5d __ __ __ / __ __ __ __ __", None, v)
    # no low cards left for the middle
    assert is_dead("__ __ __ / 7c 5d __ __ __ / __ __ __ __ __",
                   "As Ks Qs Js Ts Ah Kh Qh Jh Th 9c 9d 9h", v)


def test_is_dead_batch_and_validation():
    v = ofc.variant("pineapple")
    lays = ofc.parse_layouts(["Kc Kd __ / Qh Qs 3c 4d __ / __ __ __ __ __",
                              "Kc Kd Ks / Qh Qs 3c 4d 5h / __ __ __ __ __"], v)
    assert is_dead(lays, None, v).tolist() == [False, True]
    assert is_dead(lays, None, v).dtype == bool
    # one unseen set per layout
    assert is_dead(lays, ["Qc 3d 3h 4s 2h 2s 5c 6c 7c", "Qc"], v).tolist() == [False, True]
    bad = lays.copy()
    bad[0, 1] = bad[0, 0]
    with pytest.raises(ofc.LayoutError, match=r"partial\[0\].*Kc appears twice"):
        is_dead(bad, None, v)
    with pytest.raises(ValueError, match="shape"):
        is_dead(np.zeros((2, 12), np.uint8), None, v)
    full = ofc.parse_layout("Kc Kd 2c / Qh Qs 3c 4d 5h / Ac Ad As 7c 8d", v)
    assert is_dead(full, None, v) == bool(ofc.evaluate(full, v).foul[0])


def test_is_dead_too_few_unseen_cards():
    v = ofc.variant("pineapple")
    assert is_dead("__ __ __ / Qh Qs 3c 4d 5h / Ac Ad As 7c 8d", "2c 3d", v)


@pytest.mark.parametrize("size", [3, 5])
def test_row_bounds_match_brute_force(size):
    """Strongest (5-card) and weakest completions of one row, exact."""
    rng = np.random.default_rng(size)
    for _ in range(400):
        nf = int(rng.integers(0, size))
        deck = rng.permutation(52)
        if rng.random() < 0.3:      # suited fixed cards: flush draws
            s = int(rng.integers(4))
            fixed = [c for c in deck if c % 4 == s][:nf]
        else:
            fixed = list(deck[:nf])
        rest = [c for c in deck if c not in fixed]
        k = size - nf
        if rng.random() < 0.3:      # few ranks: pairs, trips, quads
            ranks = set(rng.choice(13, 5, replace=False).tolist())
            rest = [c for c in rest if c // 4 in ranks]
        pool = rest[:int(rng.integers(k, k + 9))]
        if len(pool) < k:
            continue
        row = np.array(fixed + [EMPTY] * k, np.uint8)
        vals = [ofc.row_strength(np.array(fixed + list(c), np.uint8))
                for c in itertools.combinations(pool, k)]
        mask = card_mask(np.array(pool, np.uint8))
        if size == 5:
            v, used = _search.max5_kernel(row, mask)
            assert v == max(vals)
            assert ofc.row_strength(np.array(fixed + mask_cards(used).tolist(), np.uint8)) == v
        v, used = _search.min_kernel(row, mask)
        assert v == min(vals)
        assert used & ~mask == 0


def test_rollout_layouts_use_unseen_cards_only():
    v = ofc.variant("pineapple")
    part = ofc.parse_layout("As __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __", v)
    dead = ofc.parse_cards("Th Jh 2c")
    unseen = mask_cards(((1 << 52) - 1) & ~card_mask(dead))
    lays = rollout(part, n=500, variant=v, unseen=unseen, seed=3, result="layouts")
    with pytest.warns(DeprecationWarning, match=r"rollout\(dead_cards=...\) is deprecated"):
        old = rollout(part, n=500, variant=v, dead_cards=dead, seed=3, result="layouts")
    assert (old == lays).all()                   # the old spelling: the same completions
    assert lays.shape == (1, 500, 13)
    fixed = part != EMPTY
    assert (lays[0][:, fixed] == part[fixed]).all()
    for lay in lays[0]:
        assert len(set(lay.tolist())) == 13
        assert not set(lay.tolist()) & set(dead.tolist())


def test_rollout_stats_match_evaluate():
    v = ofc.variant("pineapple")
    parts = ofc.parse_layouts(["__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __",
                               "Qs Qd __ / __ __ __ __ __ / Ac Ad __ __ __"], v)
    st = rollout(parts, n=3000, variant=v, seed=42)
    lays = rollout(parts, n=3000, variant=v, seed=42, result="layouts")
    evs = rollout(parts, n=3000, variant=v, seed=42, result="evals")
    for i in range(2):
        ev = ofc.evaluate(lays[i], v)
        assert st.foul_rate[i] == pytest.approx(ev.foul.mean())
        assert st.royalty_mean[i] == pytest.approx(ev.royalty_total.mean())
        assert st.fantasyland_rate[i] == pytest.approx((ev.next_fantasyland > 0).mean())
        assert (evs.foul[i] == ev.foul).all() and (evs.royalty_total[i] == ev.royalty_total).all()
    # reproducible, and different seeds differ
    st2 = rollout(parts, n=3000, variant=v, seed=42)
    assert (st2.foul_rate == st.foul_rate).all()
    assert (rollout(parts, n=3000, variant=v, seed=43).foul_rate != st.foul_rate).any()
    # QQ on top with AA below enters fantasyland whenever it does not foul
    assert st.fantasyland_rate[1] == pytest.approx(1 - st.foul_rate[1])


def test_rollout_best_policy_fouls_less():
    v = ofc.variant("pineapple")
    part = ofc.parse_layout("__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __", v)
    rnd = rollout(part, n=4000, variant=v, seed=1)
    best = rollout(part, n=4000, variant=v, seed=1, completion="best", tries=16)
    assert best.foul_rate[0] < rnd.foul_rate[0] / 2
    with pytest.raises(ValueError, match="unknown completion model 'smart'"):
        rollout(part, n=10, variant=v, completion="smart")


def test_rollout_in_fantasyland_counts_repeats():
    v = ofc.variant("pineapple")
    part = ofc.parse_layout("Qs Qd Qh / __ __ __ __ __ / __ __ __ __ __", v)
    st = rollout(part, n=2000, variant=v, seed=5, in_fantasyland=1)
    assert st.repeat_rate[0] == pytest.approx(st.fantasyland_rate[0])
    assert st.repeat_rate[0] == pytest.approx(1 - st.foul_rate[0])


def test_rollout_errors():
    v = ofc.variant("pineapple")
    part = ofc.parse_layout("As __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __", v)
    with pytest.raises(ValueError, match="fewer unseen cards"):
        rollout(part, n=5, variant=v, unseen="2c 3c")
    with pytest.raises(TypeError, match="unseen or dead_cards, not both"), \
            pytest.warns(DeprecationWarning):
        rollout(part, n=5, variant=v, unseen="2c 3c", dead_cards="4c")
    with pytest.raises(ValueError, match=r"n must be 1 \.\. 2,147,483,647, got 0"):
        rollout(part, n=0, variant=v)


def test_rollout_ev_finished_hands_is_exact():
    v = ofc.variant("pineapple")
    a = "5s 5d 2c / 9c 9d Tc Ts 2d / Qc Qd Qs Qh 3h"
    b = "4s 4d 3c / 8h 8d 7c 7s 3d / Ah Kh Th Jh 9h"
    r = rollout_ev(a, [b], n=50, variant=v, seed=0)
    assert r.ev[0] == ofc.score_pair(a, b, v).points
    assert r.std_err[0] == 0


def test_rollout_ev_against_partial_opponents():
    v = ofc.variant("pineapple")
    hero = ofc.parse_layouts(["__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __",
                              "Kd Kc __ / __ __ __ __ __ / 7h 8h 9h __ __"], v)
    opp = ofc.parse_layouts(["__ __ __ / As Ad __ __ __ / 2c 3c __ __ __",
                             "Qs __ __ / __ __ __ __ __ / 4d 4s 4h __ __"], v)
    r = rollout_ev(hero, opp, n=20000, variant=v, seed=9)
    assert r.ev.shape == (2,) and (r.std_err > 0).all()
    # same deals seen from one opponent's side: its ev is about minus ours (1 opponent)
    me = rollout_ev(hero[:1], opp[:1], n=40000, variant=v, seed=1).ev[0]
    them = rollout_ev(opp[:1], hero[:1], n=40000, variant=v, seed=2).ev[0]
    assert me == pytest.approx(-them, abs=0.25)
    with pytest.raises(ofc.LayoutError, match="also in an opponent"):
        rollout_ev(hero, ofc.parse_layouts(["Kd __ __ / __ __ __ __ __ / __ __ __ __ __"], v),
                   n=5, variant=v)


def test_rollout_speed_smoke():
    """Millions of completions per second (the benchmark asks for 2M/s)."""
    import time
    v = ofc.variant("pineapple")
    part = ofc.parse_layout("__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __", v)
    rollout(part, n=1000, variant=v, seed=0)
    t = time.perf_counter()
    rollout(part, n=1_000_000, variant=v, seed=0)
    assert time.perf_counter() - t < 2.0


def test_play_rules_cached_and_count_placements():
    assert play_rules("pineapple") is play_rules(ofc.variant("pineapple"))
    # 5 cards into an empty three-row layout: 3**5 minus those with 4 or 5 on top
    assert _order.count_placements(5, 5, (3, 5, 5)) == 3 ** 5 - (5 * 2 + 1)
    # Pineapple street: 3 dealt, 2 kept into rows with room (1, 0, 2)
    assert _order.count_placements(3, 2, (1, 0, 2)) == 3 * 3   # both bottom, or one top
    assert _order.count_placements(14, 13, (3, 5, 5)) == 14 * 72072


def test_rollout_arguments_never_overflow():
    """Issue 9: oversized or odd arguments are ValueError / TypeError saying
    which, never OverflowError (they used to reach C ints)."""
    v = ofc.variant("pineapple")
    part = ofc.parse_layout("__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __", v)
    opp = ofc.parse_layouts(["__ __ __ / As Ad __ __ __ / 2c 3c __ __ __"], v)
    cases = [
        (lambda: rollout(part, n=2 ** 70, variant=v), ValueError,
         r"n must be 1 \.\. 2,147,483,647, got 1,180,591,620,717,411,303,424"),
        (lambda: rollout(part, n=2.5, variant=v), ValueError, "n must be an integer, got 2.5"),
        (lambda: rollout(part, n="10", variant=v), TypeError, "n must be an integer"),
        (lambda: rollout(part, n=True, variant=v), TypeError, "n must be an integer"),
        (lambda: rollout(part, n=5, seed=-1, variant=v), ValueError,
         "seed must be an integer >= 0"),
        (lambda: rollout(part, n=5, seed=1.5, variant=v), TypeError, "seed must be"),
        (lambda: rollout(part, n=5, seed="x", variant=v), TypeError, "seed must be"),
        (lambda: rollout(part, n=5, completion="best", tries=2 ** 40, variant=v), ValueError,
         r"tries must be 1 \.\. "),
        (lambda: rollout(part, n=5, tries=0, variant=v), ValueError,
         r"tries must be 1 \.\. .*, got 0"),
        (lambda: rollout(part, n=5, fantasyland_value=2 ** 40, variant=v), ValueError,
         r"fantasyland_value must be -1,000,000 \.\. 1,000,000, got 1,099,511,627,776"),
        (lambda: rollout(part, n=5, completion=["best"], variant=v), TypeError,
         r"unknown completion model \['best'\]; valid: random, best"),
        (lambda: rollout(part, n=5, completion="bets", variant=v), ValueError,
         r"unknown completion model 'bets'; valid: random, best"),
        (lambda: rollout(part, n=5, result=None, variant=v), TypeError,
         "result must be one of stats, layouts, evals; got None"),
        (lambda: rollout(part, n=5, result="stat", variant=v), ofc.ArgumentError,
         "result must be one of stats, layouts, evals; got 'stat'"),
        (lambda: rollout(part, n=2 ** 31 - 1, result="layouts", variant=v), ValueError, "GiB"),
        (lambda: rollout(part, n=5, in_fantasyland=2 ** 70, variant=v), ValueError,
         "in_fantasyland"),
        (lambda: rollout_ev(part, opp, n=2 ** 70, variant=v), ValueError,
         r"n must be 1 \.\. 2,147,483,647, got 1,180"),
        (lambda: rollout_ev(part, opp, n=5, seed=-3, variant=v), ValueError, "seed"),
        (lambda: is_dead(part, unseen=2 ** 60, variant=v), ValueError, "52-bit mask"),
        (lambda: is_dead(part, variant=5), ValueError, "unknown variant"),
        (lambda: _order.count_placements(3, 2, [100, 0, 0]), ValueError, r"rooms\[0\] must be"),
        (lambda: _order.count_placements(2 ** 70, 2, [1, 0, 0]), ValueError, "n must be"),
        (lambda: _search.max5_kernel(np.zeros(9, np.uint8), 0), ValueError, "5-card row"),
        (lambda: _search.min_kernel(np.zeros(4, np.uint8), 0), ValueError, "3- or 5-card row"),
    ]
    for call, exc, message in cases:
        with pytest.raises(exc, match=message):
            call()
    # integral floats are fine for counts (n=1e4)
    assert rollout(part, n=1e3, variant=v, seed=1).n == 1000


def test_kernels_check_their_arrays():
    """The Cython entries check shapes once, so a wrong buffer is an error, not
    a read past its end."""
    pr = play_rules("pineapple")
    lay = np.full((2, 9), 255, np.uint8)           # rows too short for 13 slots
    with pytest.raises(ValueError, match="arrays do not match"):
        _search.dead_kernel(pr, lay, np.zeros(2, np.uint64), np.zeros(2, np.uint8),
                             np.zeros((2, 9), np.uint8), np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="arrays do not match"):
        _rollout.rollout_kernel(pr, lay, np.zeros(2, np.uint64), np.zeros(2, np.uint8), 5, 1, 0,
                                np.zeros((2, 5), np.int64), np.zeros((1, 1, 1), np.uint8),
                                np.zeros((1, 1), np.uint8), np.zeros((1, 1), np.int16),
                                np.zeros((1, 1), np.uint8))
    with pytest.raises(ValueError, match="arrays do not match"):
        _rollout.rollout_ev_kernel(pr, lay, np.full((1, 13), 255, np.uint8), np.zeros(2, np.uint64),
                                   np.zeros(2, np.uint8), np.zeros(1, np.uint8), 5, 1,
                                   np.zeros((2, 6)))


def test_rows_of_equal_strength_do_not_foul():
    """Middle and bottom the same hand (A K 7 5 3 in other suits): a tie, not
    a foul, in the one-layout evaluator (rollouts, the engine, move values)
    as in the batch one (evaluate, scoring)."""
    v = ofc.variant("pineapple")
    lay = ofc.parse_layouts(["Qs 8d 2c / Ah Kh 7c 5d 3s / As Kd 7h 5c 3d"], v)
    ev = ofc.evaluate(lay, v)
    assert ev.strengths[0, 1] == ev.strengths[0, 2] and not ev.foul[0]
    got = rollout(lay, n=2, variant=v, seed=1, result="evals")      # complete: evaluated as is
    assert got.foul.tolist() == [[False, False]]
    assert rollout(lay, n=2, variant=v, seed=1).foul_rate.tolist() == [0.0]
    fouled = ofc.parse_layouts(["Qs 8d 2c / Ah Kh 7c 5d 3s / As Kd 7h 5c 2d"], v)   # bottom lower
    assert rollout(fouled, n=2, variant=v, seed=1).foul_rate.tolist() == [1.0]


@pytest.mark.parametrize("empty", [1, 2])
def test_rollout_deals_every_unseen_card_alike(empty):
    """One or two empty slots and three unseen cards: every card is dealt,
    each about as often (the shuffle reaches the whole deck)."""
    v = ofc.variant("pineapple")
    top = "Qs __ __" if empty == 2 else "Qs 8d __"
    lay = ofc.parse_layouts([top + " / Ah Kh 7c 5d 3s / As Kd 7h 5c 3d"], v)
    n = 3000
    got = rollout(lay, n=n, variant=v, seed=1, unseen="2c 4c 6c", result="layouts")[0]
    dealt = got[:, 3 - empty:3]
    counts = np.bincount(dealt.reshape(-1), minlength=52)
    assert counts.sum() == n * empty and set(np.flatnonzero(counts)) == {0, 8, 16}
    # each card is dealt with probability empty/3: binomial, sd < 26
    assert (np.abs(counts[[0, 8, 16]] - n * empty / 3) < 150).all(), counts[[0, 8, 16]]
    if empty == 2:
        assert (dealt[:, 0] != dealt[:, 1]).all()


def test_rollout_ev_matches_the_exact_distribution():
    """A finished hero against an opponent one card short: ev, std_err and the
    opponent's foul rate are those of the exact distribution over every
    unseen card (each dealt alike; std_err the mean's, sd / sqrt(n))."""
    v = ofc.variant("pineapple")
    hero = "5s 5d 2c / 9c 9d Tc Ts 2d / Qc Qd Qs Qh 3h"
    opp = ofc.parse_layout("Kc Kd __ / 8h 8d 7c 7s 3d / Ah Kh Th Jh 9h", v)   # K on top fouls
    seen = set(ofc.parse_layout(hero, v).tolist()) | set(opp.tolist()) - {EMPTY}
    pts, fouls = [], []
    for c in sorted(set(range(52)) - seen):
        full = opp.copy()
        full[2] = c
        pts.append(ofc.score_pair(hero, full, v).points)
        fouls.append(bool(ofc.evaluate(full, v).foul[0]))
    pts, fouls = np.array(pts, float), np.array(fouls)
    assert 0 < fouls.mean() < 1 and pts.std() > 1
    n = 20000
    r = rollout_ev(hero, [opp], n=n, variant=v, seed=3)
    assert r.ev[0] == pytest.approx(pts.mean(), abs=4 * pts.std() / np.sqrt(n))
    assert r.std_err[0] == pytest.approx(pts.std() / np.sqrt(n), rel=0.1)
    assert r.opponent_foul_rate[0] == pytest.approx(fouls.mean(), abs=0.02)
    assert r.foul_rate[0] == 0 and r.royalty_mean[0] == ofc.evaluate(
        ofc.parse_layout(hero, v), v).royalty_total[0]


def test_rollout_ev_opponent_foul_rate_is_per_opponent():
    """Two finished opponents, one fouled: half the opponent hands foul."""
    v = ofc.variant("pineapple")
    hero = "__ __ __ / 9c 9d Tc Ts __ / Qc Qd Qs Qh __"
    ok = "4s 4d 3c / 8h 8d 7c 7s 3d / Ah Kh Th Jh 9h"
    fouled = "Ac Ad 6c / 5c 5s 2h 3s 4c / 6h 6d 8s 2s Js"
    assert ofc.evaluate(ofc.parse_layouts([ok, fouled], v), v).foul.tolist() == [False, True]
    r = rollout_ev(hero, [ok, fouled], n=200, variant=v, seed=1)
    assert r.opponent_foul_rate.tolist() == [0.5]
    r1 = rollout_ev(hero, [fouled], n=200, variant=v, seed=1)
    assert r1.opponent_foul_rate.tolist() == [1.0]


def test_rollout_names_the_first_bad_layout():
    """Chunks run on threads each stop at their first bad layout: the error
    names the first of the batch, whichever chunk found it."""
    v = ofc.variant("pineapple")
    parts = np.tile(ofc.parse_layout("As __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __", v), (200, 1))
    parts[150, 1] = parts[150, 0]           # As twice
    parts[10, 1] = parts[10, 3]             # Kd twice
    for call in (lambda: rollout(parts, n=1000, variant=v, n_threads=2),
                 lambda: rollout_ev(parts, ["2c __ __ / __ __ __ __ __ / __ __ __ __ __"],
                                    n=1000, variant=v, n_threads=2)):
        with pytest.raises(ofc.LayoutError, match=r"partial\[10\]: Kd appears twice"):
            call()
