# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False, initializedcheck=False
"""Play kernels: exact dead-hand search, random rollouts and the engine's hand core.

Everything here works on card ids (``4 * rank + suit``) and 64-bit card masks
(bit ``c`` set for card ``c``); nothing allocates a Python object per
completion or per search node.  The Python-facing wrappers live in
``ofc_fast.rollout`` and ``ofc_fast.engine``.

Dead-hand search
----------------
A partial layout is *dead* when no assignment of pool cards (the cards the
player has not seen) to its empty slots gives a legal (non-fouled) layout.
``solve`` decides this exactly:

1. rows already complete must be in order (and a complete 2-7 middle valid);
2. a greedy witness: weakest possible top (exact), strongest possible bottom
   (exact, by hand category), middle rows fitted between them; a legal witness
   proves the hand alive (with one open row this step is exact);
3. necessary conditions per row, each row taken alone against the others'
   exact bounds (rows share the pool, so these only prove deadness);
4. a second witness for tight hands: rows top-down, each the weakest
   completion at least as strong as the row above;
5. rank demand: the fewest cards of each rank every open row's completions
   need; more than the pool holds proves the hand dead;
6. otherwise branch on the row with the fewest completion patterns in its
   interval: rank patterns first, then suits (cards of one rank whose suit
   cannot make a flush in any open row are interchangeable), solving the rest
   recursively.
"""
from libc.stdint cimport (int8_t, int16_t, int32_t, int64_t, intptr_t, uint8_t, uint16_t,
                          uint32_t, uint64_t)
from libc.string cimport memcpy, memset

import numpy as np

from ofc_fast._eval cimport ofc_row3, ofc_row5, ofc_tables, tables
from ofc_fast._layout cimport (CompiledRules, ofc_eval_layout, ofc_layout_eval,
                               ofc_pair_points, ofc_rules)

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int ofcp_popc(uint64_t x) { return (int)__popcnt64(x); }
    static __inline int ofcp_ctz(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    static inline int ofcp_popc(uint64_t x) { return __builtin_popcountll(x); }
    static inline int ofcp_ctz(uint64_t x) { return __builtin_ctzll(x); }
    #endif
    """
    int popc "ofcp_popc" (uint64_t x) nogil
    int ctz "ofcp_ctz" (uint64_t x) nogil

cdef enum:
    EMPTY = 255
    TOP_STRENGTH = 7917
cdef uint64_t ALL_CARDS = 0xFFFFFFFFFFFFF   # 52 bits

cdef const ofc_tables *T = tables()
cdef uint32_t RBASE[13]
cdef uint32_t WIN[10]            # straight windows, ace-high first, wheel last
cdef int POP4[16]

cdef int _i
for _i in range(13):
    RBASE[_i] = <uint32_t> (T.key[4 * _i] & 0xFFFFF)
for _i in range(9):
    WIN[_i] = 0x1F << (8 - _i)
WIN[9] = (1 << 12) | 0xF
for _i in range(16):
    POP4[_i] = (_i & 1) + ((_i >> 1) & 1) + ((_i >> 2) & 1) + ((_i >> 3) & 1)


# ---------------------------------------------------------------------------- rows
cdef struct SRow:
    uint8_t c[5]
    int n           # cards in the row
    int size        # 3 or 5
    uint16_t s      # joint strength once n == size

cdef struct SProb:
    SRow row[4]

cdef struct Ctx:
    int R
    int row_len[4]
    int row_off[4]
    int nch          # rows in the foul chain, top first
    int ch[4]
    int low          # the 2-7 middle (validity only, not in the chain), or -1
    const uint8_t *lowvalid   # its validity table
    int64_t nodes    # solve() calls, for statistics

cdef struct RowInfo:
    int nf, k, distinct, fs   # fs: suit shared by every card, -1 no cards, -2 mixed
    int fc[13]
    uint32_t fm               # rank mask
    uint32_t fsum             # rank-base sum (5-card rows)


cdef inline void row_info(const SRow *w, RowInfo *f) noexcept nogil:
    cdef int i, c
    memset(f, 0, sizeof(RowInfo))
    f.nf = w.n
    f.k = w.size - w.n
    f.fs = -1
    for i in range(w.n):
        c = w.c[i]
        f.fc[c >> 2] += 1
        f.fm |= 1u << (c >> 2)
        f.fsum += RBASE[c >> 2]
        if i == 0:
            f.fs = c & 3
        elif f.fs != (c & 3):
            f.fs = -2
    f.distinct = popc(f.fm) == w.n


cdef inline uint16_t eval_row(const SRow *w) noexcept nogil:
    if w.size == 5:
        return ofc_row5(T, w.c)
    return ofc_row3(T, w.c)


cdef inline void add_cards(SRow *w, uint64_t pick) noexcept nogil:
    while pick:
        w.c[w.n] = <uint8_t> ctz(pick)
        w.n += 1
        pick &= pick - 1
    if w.n == w.size:
        w.s = eval_row(w)


cdef inline uint16_t eval_plus(const SRow *w, uint64_t pick) noexcept nogil:
    cdef SRow x = w[0]
    add_cards(&x, pick)
    return x.s


cdef inline uint64_t take(uint64_t pool, int r, int m) noexcept nogil:
    """The m lowest-suit cards of rank r in pool."""
    cdef uint64_t nb = (pool >> (4 * r)) & 0xF, out = 0, b
    while m > 0 and nb:
        b = nb & (~nb + 1)
        out |= b
        nb ^= b
        m -= 1
    return out << (4 * r)


cdef inline uint32_t suit_ranks(uint64_t pool, int s) noexcept nogil:
    cdef uint32_t m = 0
    cdef int r
    for r in range(13):
        if (pool >> (4 * r + s)) & 1:
            m |= 1u << r
    return m


cdef inline uint64_t suit_cards(uint32_t ranks, int s) noexcept nogil:
    cdef uint64_t out = 0
    while ranks:
        out |= (<uint64_t> 1) << (4 * ctz(ranks) + s)
        ranks &= ranks - 1
    return out


cdef inline uint32_t top_bits(uint32_t m, int k) noexcept nogil:
    """The k highest set bits of a 13-bit mask (fewer if m has fewer)."""
    cdef uint32_t out = 0
    cdef int r = 12
    while k > 0 and r >= 0:
        if m & (1u << r):
            out |= 1u << r
            k -= 1
        r -= 1
    return out


cdef inline int high_rank(const int *pn, uint32_t exclude) noexcept nogil:
    cdef int r
    for r in range(12, -1, -1):
        if pn[r] > 0 and not (exclude & (1u << r)):
            return r
    return -1


# --------------------------------------------------------------- strongest 5-card
cdef uint16_t max5(const SRow *w, uint64_t pool, uint64_t *used) noexcept nogil:
    """Strongest completion of a 5-card row from pool (exact); 0 if none.

    Categories are tried from the top; within a category the best choice is
    greedy.  A greedy pick that accidentally makes a better category would mean
    that category was achievable, which the earlier checks exclude."""
    cdef RowInfo f
    cdef int pn[13]
    cdef int k, r, s, i, q, a, b, h, l, x, need, rest, nk
    cdef uint32_t w5, sm, av, miss, ex
    cdef uint64_t pick, best_pick = 0
    cdef uint16_t v, best = 0
    row_info(w, &f)
    k = f.k
    used[0] = 0
    if k == 0:
        return w.s
    if popc(pool) < k:
        return 0
    for r in range(13):
        pn[r] = POP4[(pool >> (4 * r)) & 0xF]
    # straight flush
    if f.fs != -2 and f.distinct:
        for s in range(4):
            if f.fs >= 0 and s != f.fs:
                continue
            sm = suit_ranks(pool, s)
            for i in range(10):
                w5 = WIN[i]
                if (f.fm & ~w5) == 0 and ((w5 & ~f.fm) & ~sm) == 0:
                    pick = suit_cards(w5 & ~f.fm, s)
                    v = eval_plus(w, pick)
                    if v > best:
                        best = v
                        best_pick = pick
                    break
        if best:
            used[0] = best_pick
            return best
    # quads
    for q in range(12, -1, -1):
        need = 4 - f.fc[q]
        rest = f.nf - f.fc[q]
        if need < 0 or rest > 1 or pn[q] < need:
            continue
        pick = take(pool, q, need)
        if rest == 0:
            x = high_rank(pn, 1u << q)
            if x < 0:
                continue
            pick |= take(pool, x, 1)
        used[0] = pick
        return eval_plus(w, pick)
    # full house
    if popc(f.fm) <= 2:
        for a in range(12, -1, -1):
            if f.fc[a] > 3 or pn[a] < 3 - f.fc[a]:
                continue
            for b in range(12, -1, -1):
                if b == a or f.fc[b] > 2 or f.fc[a] + f.fc[b] != f.nf or pn[b] < 2 - f.fc[b]:
                    continue
                pick = take(pool, a, 3 - f.fc[a]) | take(pool, b, 2 - f.fc[b])
                used[0] = pick
                return eval_plus(w, pick)
    # flush
    if f.fs != -2 and f.distinct:
        for s in range(4):
            if f.fs >= 0 and s != f.fs:
                continue
            av = suit_ranks(pool, s) & ~f.fm
            if popc(av) >= k:
                pick = suit_cards(top_bits(av, k), s)
                v = eval_plus(w, pick)
                if v > best:
                    best = v
                    best_pick = pick
        if best:
            used[0] = best_pick
            return best
    # straight
    if f.distinct:
        for i in range(10):
            w5 = WIN[i]
            if f.fm & ~w5:
                continue
            miss = w5 & ~f.fm
            pick = 0
            while miss:
                r = ctz(miss)
                if pn[r] == 0:
                    break
                pick |= take(pool, r, 1)
                miss &= miss - 1
            if miss == 0:
                used[0] = pick
                return eval_plus(w, pick)
    # trips
    for a in range(12, -1, -1):
        need = 3 - f.fc[a]
        rest = f.nf - f.fc[a]
        if need < 0 or rest > 2 or pn[a] < need or popc(f.fm & ~(1u << a)) != rest:
            continue
        pick = take(pool, a, need)
        nk = 2 - rest
        ex = f.fm | (1u << a)
        r = 12
        while nk > 0 and r >= 0:
            if pn[r] > 0 and not (ex & (1u << r)):
                pick |= take(pool, r, 1)
                nk -= 1
            r -= 1
        if nk == 0:
            used[0] = pick
            return eval_plus(w, pick)
    # two pair
    for h in range(12, -1, -1):
        if f.fc[h] > 2 or pn[h] < 2 - f.fc[h]:
            continue
        for l in range(h - 1, -1, -1):
            if f.fc[l] > 2 or pn[l] < 2 - f.fc[l]:
                continue
            rest = f.nf - f.fc[h] - f.fc[l]
            if rest > 1:
                continue
            pick = take(pool, h, 2 - f.fc[h]) | take(pool, l, 2 - f.fc[l])
            if rest == 0:
                x = high_rank(pn, (1u << h) | (1u << l))
                if x < 0:
                    continue
                pick |= take(pool, x, 1)
            used[0] = pick
            return eval_plus(w, pick)
    # one pair
    for a in range(12, -1, -1):
        need = 2 - f.fc[a]
        rest = f.nf - f.fc[a]
        if need < 0 or rest > 3 or pn[a] < need or popc(f.fm & ~(1u << a)) != rest:
            continue
        pick = take(pool, a, need)
        nk = 3 - rest
        ex = f.fm | (1u << a)
        r = 12
        while nk > 0 and r >= 0:
            if pn[r] > 0 and not (ex & (1u << r)):
                pick |= take(pool, r, 1)
                nk -= 1
            r -= 1
        if nk == 0:
            used[0] = pick
            return eval_plus(w, pick)
    # high card
    if f.distinct:
        pick = 0
        nk = k
        r = 12
        while nk > 0 and r >= 0:
            if pn[r] > 0 and not (f.fm & (1u << r)):
                pick |= take(pool, r, 1)
                nk -= 1
            r -= 1
        if nk == 0:
            used[0] = pick
            return eval_plus(w, pick)
    return 0


# ------------------------------------------------------------ enumerating one row
cdef enum:
    EN_EXISTS = 0   # first completion in [lo, hi] (and valid)
    EN_MIN = 1      # weakest completion
    EN_MAXIN = 2    # strongest completion in [lo, hi] (and valid)
    EN_MININ = 3    # weakest completion in [lo, hi] (and valid)
    EN_COUNT = 4    # count rank patterns in [lo, hi] (capped)
    EN_BRANCH = 5   # solve the rest for every completion in [lo, hi]
    HOW_ANY = 0
    HOW_OFFSUIT = 1
    HOW_FLUSH = 2   # + suit

cdef struct RowEnum:
    const SRow *w
    RowInfo f
    uint64_t pool
    int mode
    uint16_t lo, hi
    const uint8_t *valid
    int k
    uint8_t nb[13]
    int pn[13]
    int uc[13]
    int rk[5]
    int fr[3]
    uint16_t best
    uint64_t pick
    int found
    int count, cap
    int need[13]     # EN_COUNT: fewest cards of each rank any counted completion adds
    Ctx *cx          # EN_BRANCH: the search to continue
    SProb *p
    int row
    uint32_t relevant
    uint64_t chosen


cdef uint64_t enum_pick(RowEnum *e, int how) noexcept nogil:
    """Concrete pool cards for the current rank multiset."""
    cdef uint64_t out = 0, c
    cdef int i, r, s, fs = e.f.fs, first
    if how >= HOW_FLUSH:
        s = how - HOW_FLUSH
        for i in range(e.k):
            out |= (<uint64_t> 1) << (4 * e.rk[i] + s)
        return out
    for r in range(13):
        if e.uc[r]:
            out |= take(e.pool, r, e.uc[r])
    if how == HOW_OFFSUIT:
        # five distinct ranks that could be a flush: make sure not all one suit
        first = fs if fs >= 0 else (ctz(out) & 3)
        if fs < 0:
            c = out
            while c:
                if (ctz(c) & 3) != first:
                    return out          # already two suits
                c &= c - 1
        for i in range(e.k):
            r = e.rk[i]
            c = e.nb[r] & ~(1u << first) & 0xF
            if c:
                out &= ~((<uint64_t> 0xF) << (4 * r))
                out |= (c & (~c + 1)) << (4 * r)
                return out
    return out


cdef inline int enum_consider(RowEnum *e, uint16_t v, int how) noexcept nogil:
    cdef int i
    if e.valid != NULL and not e.valid[v]:
        return 0
    if e.mode == EN_MIN:
        if not e.found or v < e.best:
            e.found = 1
            e.best = v
            e.pick = enum_pick(e, how)
        return 0
    if v < e.lo or v > e.hi:
        return 0
    if e.mode == EN_EXISTS:
        e.found = 1
        e.best = v
        e.pick = enum_pick(e, how)
        return 1
    if e.mode == EN_COUNT:
        e.count += 1
        for i in range(13):
            if e.uc[i] < e.need[i]:
                e.need[i] = e.uc[i]
        return e.count >= e.cap
    if e.mode == EN_BRANCH:
        e.chosen = 0
        if branch_suits(e, how, 0):
            e.found = 1
            return 1
        return 0
    if e.mode == EN_MININ:
        if not e.found or v < e.best:
            e.found = 1
            e.best = v
            e.pick = enum_pick(e, how)
        return 0
    if not e.found or v > e.best:
        e.found = 1
        e.best = v
        e.pick = enum_pick(e, how)
    return 0


cdef int branch_leaf(RowEnum *e, int how) noexcept nogil:
    """A concrete choice of cards for the branching row: check it has the
    intended flush status, then solve the other rows."""
    cdef SProb q
    cdef uint64_t c = e.chosen, m
    cdef int s, fs = e.f.fs
    if how == HOW_OFFSUIT:
        # must not be all one suit (that is the flush version, tried separately)
        if fs >= 0:
            m = c & ~((<uint64_t> 0x1111111111111) << fs)
            if m == 0:
                return 0
        else:
            for s in range(4):
                if (c & ~((<uint64_t> 0x1111111111111) << s)) == 0:
                    return 0
    q = e.p[0]
    add_cards(&q.row[e.row], c)
    if solve(e.cx, &q, e.pool & ~c):
        e.p[0] = q
        return 1
    return 0


cdef int branch_suits(RowEnum *e, int how, int r) noexcept nogil:
    """Enumerate the suits of the chosen ranks from rank r up; cards of one
    rank whose suit cannot make a flush in any open row are interchangeable."""
    cdef int m, c_irr, n_irr
    cdef uint32_t nb, irr, rel, sub
    cdef uint64_t base, take_irr, save
    while r < 13 and e.uc[r] == 0:
        r += 1
    if r >= 13:
        return branch_leaf(e, how)
    m = e.uc[r]
    nb = e.nb[r]
    save = e.chosen
    if how >= HOW_FLUSH:
        e.chosen = save | ((<uint64_t> 1) << (4 * r + how - HOW_FLUSH))
        if branch_suits(e, how, r + 1):
            return 1
        e.chosen = save
        return 0
    irr = nb & ~e.relevant & 0xF
    rel = nb & e.relevant & 0xF
    n_irr = POP4[irr]
    for c_irr in range(min(m, n_irr) + 1):
        base = take(<uint64_t> irr << (4 * r), r, c_irr)
        # subsets of the relevant suits with m - c_irr cards
        sub = rel
        while True:
            if POP4[sub] == m - c_irr:
                e.chosen = save | base | ((<uint64_t> sub) << (4 * r))
                if branch_suits(e, how, r + 1):
                    return 1
            if sub == 0:
                break
            sub = (sub - 1) & rel
    e.chosen = save
    return 0


cdef int enum_leaf(RowEnum *e, uint32_t rsum) noexcept nogil:
    cdef int i, r, s, distinct, fs = e.f.fs
    cdef uint32_t orm, andm
    cdef uint16_t ns, fl
    cdef int ranks[3]
    if e.w.size == 3:
        for i in range(e.f.nf):
            ranks[i] = e.fr[i]
        for i in range(e.k):
            ranks[e.f.nf + i] = e.rk[i]
        return enum_consider(e, T.joint3[T.strength3[ranks[0] * 169 + ranks[1] * 13 + ranks[2]]],
                             HOW_ANY)
    ns = T.plain5[e.f.fsum + rsum]
    distinct = e.f.distinct
    if distinct:
        for i in range(e.k):
            r = e.rk[i]
            if e.uc[r] > 1 or (e.f.fm & (1u << r)):
                distinct = 0
                break
    if not distinct or fs == -2:
        return enum_consider(e, T.joint5[ns], HOW_ANY)
    # five distinct ranks, a flush is possible: both versions may be realisable
    orm = 0
    andm = 0xF
    for i in range(e.k):
        orm |= e.nb[e.rk[i]]
        andm &= e.nb[e.rk[i]]
    if (fs >= 0 and (orm & ~(1u << fs) & 0xF)) or (fs == -1 and POP4[orm] >= 2):
        if enum_consider(e, T.joint5[ns], HOW_OFFSUIT):
            return 1
    fl = T.joint5[T.flush_of[ns]]
    for s in range(4):
        if (fs >= 0 and s != fs) or not (andm & (1u << s)):
            continue
        if enum_consider(e, fl, HOW_FLUSH + s):
            return 1
    return 0


cdef int enum_rec(RowEnum *e, int depth, int rmin, uint32_t rsum) noexcept nogil:
    cdef int r
    if depth == e.k:
        return enum_leaf(e, rsum)
    for r in range(rmin, 13):
        if e.uc[r] >= e.pn[r]:
            continue
        e.uc[r] += 1
        e.rk[depth] = r
        if enum_rec(e, depth + 1, r, rsum + RBASE[r]):
            e.uc[r] -= 1
            return 1
        e.uc[r] -= 1
    return 0


cdef void enum_init(RowEnum *e, const SRow *w, uint64_t pool, int mode, uint16_t lo,
                    uint16_t hi, const uint8_t *valid) noexcept nogil:
    cdef int r, i
    e.w = w
    row_info(w, &e.f)
    e.pool = pool
    e.mode = mode
    e.lo = lo
    e.hi = hi
    e.valid = valid
    e.k = e.f.k
    e.best = 0
    e.pick = 0
    e.found = 0
    e.count = 0
    e.cap = 1 << 30
    e.cx = NULL
    e.p = NULL
    e.row = -1
    e.relevant = 0
    e.chosen = 0
    for r in range(13):
        e.nb[r] = (pool >> (4 * r)) & 0xF
        e.pn[r] = POP4[e.nb[r]]
        e.uc[r] = 0
    for i in range(w.n):
        if i < 3:
            e.fr[i] = w.c[i] >> 2


cdef int enum_row(const SRow *w, uint64_t pool, int mode, uint16_t lo, uint16_t hi,
                  const uint8_t *valid, uint16_t *best, uint64_t *pick) noexcept nogil:
    """Search the completions of one row by rank multiset (and flush suit)."""
    cdef RowEnum e
    enum_init(&e, w, pool, mode, lo, hi, valid)
    if e.k == 0:
        if valid != NULL and not valid[w.s]:
            return 0
        if mode != EN_MIN and (w.s < lo or w.s > hi):
            return 0
        best[0] = w.s
        pick[0] = 0
        return 1
    if popc(pool) < e.k:
        return 0
    enum_rec(&e, 0, 0, 0)
    if e.found:
        best[0] = e.best
        pick[0] = e.pick
    return e.found


cdef int count_row(const SRow *w, uint64_t pool, uint16_t lo, uint16_t hi, const uint8_t *valid,
                   int *need) noexcept nogil:
    """Rank patterns (with flush versions) of a row's completions in [lo, hi];
    need[r] receives the fewest cards of rank r any of them adds."""
    cdef RowEnum e
    cdef int r
    enum_init(&e, w, pool, EN_COUNT, lo, hi, valid)
    for r in range(13):
        e.need[r] = 99
    if e.k == 0 or popc(pool) < e.k:
        for r in range(13):
            need[r] = 0
        return 0
    enum_rec(&e, 0, 0, 0)
    for r in range(13):
        need[r] = e.need[r] if e.count else 0
    return e.count


cdef uint16_t min_top(const SRow *w, uint64_t pool, uint64_t *used) noexcept nogil:
    """Weakest completion of a row (exact; greedy lowest ranks when that gives a
    high card); 0 if the pool is too small."""
    cdef RowInfo f
    cdef int nk, r
    cdef uint64_t pick = 0
    cdef uint16_t best
    row_info(w, &f)
    used[0] = 0
    if f.k == 0:
        return w.s
    if w.size == 3 and f.distinct:
        nk = f.k
        r = 0
        while nk > 0 and r < 13:
            if not (f.fm & (1u << r)) and ((pool >> (4 * r)) & 0xF):
                pick |= take(pool, r, 1)
                nk -= 1
            r += 1
        if nk == 0:
            used[0] = pick
            return eval_plus(w, pick)
    if enum_row(w, pool, EN_MIN, 0, 0, NULL, &best, &pick):
        used[0] = pick
        return best
    return 0


# ------------------------------------------------------------------- the search
cdef inline const uint8_t *low_valid(Ctx *cx, int i) noexcept nogil:
    if i == cx.low:
        return cx.lowvalid
    return NULL


cdef int legal_full(Ctx *cx, const SProb *p) noexcept nogil:
    cdef int j
    if cx.low >= 0 and not cx.lowvalid[p.row[cx.low].s]:
        return 0
    for j in range(1, cx.nch):
        if p.row[cx.ch[j]].s < p.row[cx.ch[j - 1]].s:
            return 0
    return 1


cdef int consistent(Ctx *cx, const SProb *p) noexcept nogil:
    """Complete rows are in order and a complete 2-7 middle is valid."""
    cdef int j, i
    cdef uint16_t prev = 0
    if cx.low >= 0 and p.row[cx.low].n == p.row[cx.low].size \
            and not cx.lowvalid[p.row[cx.low].s]:
        return 0
    for j in range(cx.nch):
        i = cx.ch[j]
        if p.row[i].n == p.row[i].size:
            if p.row[i].s < prev:
                return 0
            prev = p.row[i].s
    return 1


cdef int witness(Ctx *cx, SProb *p, uint64_t pool) noexcept nogil:
    """Greedy completion; 1 if it is legal (p then holds it)."""
    cdef uint64_t u = 0
    cdef uint16_t v, lo, hi, b
    cdef int j, i, jj, mode, top = cx.ch[0], bot = cx.ch[cx.nch - 1]
    cdef SRow *w
    if cx.low >= 0 and p.row[cx.low].n < p.row[cx.low].size:
        if not enum_row(&p.row[cx.low], pool, EN_EXISTS, 0, TOP_STRENGTH,
                        cx.lowvalid, &b, &u):
            return 0
        add_cards(&p.row[cx.low], u)
        pool &= ~u
    if p.row[top].n < p.row[top].size:
        if min_top(&p.row[top], pool, &u) == 0:
            return 0
        add_cards(&p.row[top], u)
        pool &= ~u
    if p.row[bot].n < p.row[bot].size:
        if max5(&p.row[bot], pool, &u) == 0:
            return 0
        add_cards(&p.row[bot], u)
        pool &= ~u
    for j in range(cx.nch - 2, 0, -1):
        i = cx.ch[j]
        w = &p.row[i]
        if w.n == w.size:
            continue
        hi = p.row[cx.ch[j + 1]].s
        lo = 0
        mode = EN_EXISTS
        for jj in range(j):
            if p.row[cx.ch[jj]].n == p.row[cx.ch[jj]].size:
                if p.row[cx.ch[jj]].s > lo:
                    lo = p.row[cx.ch[jj]].s
            else:
                mode = EN_MAXIN
        v = max5(w, pool, &u)
        if v == 0 or v < lo:
            return 0
        if v > hi:
            if not enum_row(w, pool, mode, lo, hi, NULL, &b, &u):
                return 0
        add_cards(w, u)
        pool &= ~u
    return legal_full(cx, p)


cdef int bounds(Ctx *cx, const SProb *p, uint64_t pool, uint16_t *lo, uint16_t *hi) noexcept nogil:
    """Necessary conditions, each row alone against the others' exact bounds.
    Fills each row's interval; 0 proves the hand dead."""
    cdef uint16_t lb[4]
    cdef uint16_t ub[4]
    cdef uint16_t b, m
    cdef uint64_t u
    cdef int j, jj, i
    cdef const SRow *w
    for j in range(cx.nch):
        i = cx.ch[j]
        w = &p.row[i]
        if w.n == w.size:
            lb[j] = ub[j] = w.s
        else:
            lb[j] = 1
            ub[j] = TOP_STRENGTH
            if j < cx.nch - 1:
                lb[j] = min_top(w, pool, &u)     # exact weakest completion
                if lb[j] == 0:
                    return 0
            if w.size == 5:
                ub[j] = max5(w, pool, &u)
                if ub[j] == 0:
                    return 0
    for j in range(cx.nch):
        i = cx.ch[j]
        w = &p.row[i]
        lo[i] = 1
        hi[i] = TOP_STRENGTH
        for jj in range(j):
            if lb[jj] > lo[i]:
                lo[i] = lb[jj]
        for jj in range(j + 1, cx.nch):
            if ub[jj] < hi[i]:
                hi[i] = ub[jj]
        if lo[i] > hi[i]:
            return 0
        if w.n == w.size:
            if w.s < lo[i] or w.s > hi[i]:
                return 0
        elif lb[j] > hi[i] and j < cx.nch - 1:
            return 0
        elif j == 0:
            pass
        elif ub[j] < lo[i]:
            return 0
        elif ub[j] > hi[i] and not enum_row(w, pool, EN_EXISTS, lo[i], hi[i], NULL, &b, &u):
            return 0
    if cx.low >= 0:
        lo[cx.low] = 1
        hi[cx.low] = TOP_STRENGTH
        if not enum_row(&p.row[cx.low], pool, EN_EXISTS, 1, TOP_STRENGTH,
                        cx.lowvalid, &b, &u):
            return 0
    return 1


cdef int branch(Ctx *cx, SProb *p, uint64_t pool, int i, uint16_t lo, uint16_t hi) noexcept nogil:
    """Try every completion of row i with strength in [lo, hi]: rank patterns
    first, then their suits (up to interchangeable cards), solving the rest."""
    cdef RowEnum e
    cdef RowInfo f
    cdef uint32_t relevant = 0
    cdef int j
    for j in range(cx.R):
        if p.row[j].size == 5 and p.row[j].n < 5:
            row_info(&p.row[j], &f)
            if f.fs == -1:
                relevant = 0xF
            elif f.fs >= 0:
                relevant |= 1u << f.fs
    enum_init(&e, &p.row[i], pool, EN_BRANCH, lo, hi, low_valid(cx, i))
    e.cx = cx
    e.p = p
    e.row = i
    e.relevant = relevant
    if popc(pool) < e.k:
        return 0
    enum_rec(&e, 0, 0, 0)
    return e.found


cdef int witness_low(Ctx *cx, SProb *p, uint64_t pool) noexcept nogil:
    """Second greedy completion, for tight hands: each chain row top-down gets
    its weakest completion at least as strong as the row above and no stronger
    than the complete rows below."""
    cdef uint64_t u = 0
    cdef uint16_t b, lo = 0, hi
    cdef int j, jj
    cdef SRow *w
    if cx.low >= 0 and p.row[cx.low].n < p.row[cx.low].size:
        if not enum_row(&p.row[cx.low], pool, EN_EXISTS, 0, TOP_STRENGTH, cx.lowvalid, &b, &u):
            return 0
        add_cards(&p.row[cx.low], u)
        pool &= ~u
    for j in range(cx.nch):
        w = &p.row[cx.ch[j]]
        if w.n < w.size:
            hi = TOP_STRENGTH
            for jj in range(j + 1, cx.nch):
                if p.row[cx.ch[jj]].n == p.row[cx.ch[jj]].size and p.row[cx.ch[jj]].s < hi:
                    hi = p.row[cx.ch[jj]].s
            if not enum_row(w, pool, EN_MININ, lo, hi, NULL, &b, &u):
                return 0
            add_cards(w, u)
            pool &= ~u
        if w.s < lo:
            return 0
        lo = w.s
    return legal_full(cx, p)


cdef int solve(Ctx *cx, SProb *p, uint64_t pool) noexcept nogil:
    """1 if some assignment of pool cards to the empty slots is legal (p then
    holds it), 0 if the partial layout is dead."""
    cdef int i, e = 0, nopen = 0, pick = -1, kmin = 99, k, best, r
    cdef int need[13]
    cdef int demand[13]
    cdef SProb q
    cdef uint16_t lo[4]
    cdef uint16_t hi[4]
    cx.nodes += 1
    for i in range(cx.R):
        k = p.row[i].size - p.row[i].n
        e += k
        if k:
            nopen += 1
            if k < kmin or (k == kmin and p.row[i].size < p.row[pick].size):
                kmin = k
                pick = i
    if e == 0:
        return legal_full(cx, p)
    if popc(pool) < e or not consistent(cx, p):
        return 0
    q = p[0]
    if witness(cx, &q, pool):
        p[0] = q
        return 1
    if nopen == 1:
        return 0          # the witness is exact for a single open row
    if not bounds(cx, p, pool, lo, hi):
        return 0
    q = p[0]
    if witness_low(cx, &q, pool):
        p[0] = q
        return 1
    # every open row's completion patterns in its interval: none, or more cards
    # of one rank needed than the pool holds, proves the hand dead
    pick = -1
    best = 1 << 30
    for r in range(13):
        demand[r] = 0
    for i in range(cx.R):
        if p.row[i].n < p.row[i].size:
            if i == cx.low:
                lo[i] = 1
                hi[i] = TOP_STRENGTH
            k = count_row(&p.row[i], pool, lo[i], hi[i], low_valid(cx, i), need)
            if k == 0:
                return 0
            for r in range(13):
                demand[r] += need[r]
            if k < best:
                best = k
                pick = i
    for r in range(13):
        if demand[r] > POP4[(pool >> (4 * r)) & 0xF]:
            return 0
    return branch(cx, p, pool, pick, lo[pick], hi[pick])


cdef class PlayRules:
    """What the play kernels need of a variant: row layout, foul chain, 2-7
    validity, and the compiled scoring rules (build with :func:`play_rules`)."""
    cdef CompiledRules compiled
    cdef const ofc_rules *r
    cdef int R, NC, low
    cdef int row_len[4]
    cdef int row_off[4]
    cdef int in_chain[4]
    cdef uint8_t lowvalid[7918]
    cdef readonly object variant

    def __init__(self, variant, CompiledRules compiled, lowvalid):
        cdef int i, off = 0
        cdef const uint8_t[::1] lv
        self.variant = variant
        self.compiled = compiled
        self.r = compiled.r
        sizes = variant.row_sizes
        self.R = len(sizes)
        self.NC = sum(sizes)
        self.low = -1
        for i in range(4):
            self.row_len[i] = sizes[i] if i < self.R else 0
            self.row_off[i] = off if i < self.R else 0
            off += self.row_len[i]
            self.in_chain[i] = i < self.R and not (variant.lowball and i == 1)
        memset(self.lowvalid, 1, sizeof(self.lowvalid))
        if variant.lowball:
            self.low = 1
            lv = np.ascontiguousarray(lowvalid, dtype=np.uint8)
            for i in range(7918):
                self.lowvalid[i] = lv[i]

    @property
    def n_cards(self):
        return self.NC


cdef void ctx_init(Ctx *cx, PlayRules pr) noexcept:
    cdef int i
    cx.R = pr.R
    cx.nch = 0
    cx.low = pr.low
    cx.lowvalid = pr.lowvalid
    cx.nodes = 0
    for i in range(pr.R):
        cx.row_len[i] = pr.row_len[i]
        cx.row_off[i] = pr.row_off[i]
        if pr.in_chain[i]:
            cx.ch[cx.nch] = i
            cx.nch += 1


cdef int prob_from_layout(Ctx *cx, SProb *p, const uint8_t *lay, uint64_t *placed) noexcept nogil:
    """Load a partial layout (EMPTY = 255 anywhere in a row); -1 on a bad or
    repeated card, else 0.  placed receives the mask of its cards."""
    cdef int i, j, c
    cdef uint64_t seen = 0, bit
    for i in range(cx.R):
        p.row[i].n = 0
        p.row[i].size = cx.row_len[i]
        p.row[i].s = 0
        for j in range(cx.row_len[i]):
            c = lay[cx.row_off[i] + j]
            if c == EMPTY:
                continue
            if c > 51:
                return -1
            bit = (<uint64_t> 1) << c
            if seen & bit:
                return -1
            seen |= bit
            p.row[i].c[p.row[i].n] = <uint8_t> c
            p.row[i].n += 1
        if p.row[i].n == p.row[i].size:
            p.row[i].s = eval_row(&p.row[i])
    placed[0] = seen
    return 0


cdef void prob_to_layout(Ctx *cx, const SProb *p, const uint8_t *orig, uint8_t *lay) noexcept nogil:
    """Fill the empty slots of orig (in place order) with the cards p added."""
    cdef int i, j, k
    for i in range(cx.R):
        k = 0
        for j in range(cx.row_len[i]):
            if orig[cx.row_off[i] + j] != EMPTY:
                k += 1
        for j in range(cx.row_len[i]):
            if orig[cx.row_off[i] + j] != EMPTY:
                lay[cx.row_off[i] + j] = orig[cx.row_off[i] + j]
            elif k < p.row[i].n:
                lay[cx.row_off[i] + j] = p.row[i].c[k]
                k += 1
            else:
                lay[cx.row_off[i] + j] = EMPTY


def dead_kernel(PlayRules rules, const uint8_t[:, ::1] layouts, const uint64_t[::1] pools,
                uint8_t[::1] dead, uint8_t[:, ::1] completions, int64_t[::1] nodes):
    """dead[i] = layout i cannot be completed legally from pools[i]; where it can,
    completions[i] receives a legal completion.  Returns the first bad row or -1.

    Pools must not contain the layout's own cards (checked: returns -2 - i)."""
    cdef Ctx cx
    cdef SProb p
    cdef intptr_t i, n = layouts.shape[0]
    cdef uint64_t placed
    cdef int alive
    cdef intptr_t bad = -1
    ctx_init(&cx, rules)
    with nogil:
        for i in range(n):
            if prob_from_layout(&cx, &p, &layouts[i, 0], &placed) < 0:
                bad = i
                break
            if placed & pools[i]:
                bad = -2 - i
                break
            cx.nodes = 0
            alive = solve(&cx, &p, pools[i] & ALL_CARDS)
            dead[i] = not alive
            nodes[i] = cx.nodes
            if alive:
                prob_to_layout(&cx, &p, &layouts[i, 0], &completions[i, 0])
            else:
                memcpy(&completions[i, 0], &layouts[i, 0], rules.NC)
    return bad


def max5_kernel(const uint8_t[::1] row, uint64_t pool):
    """(strongest completion strength, cards used mask) of one partial 5-card row (testing aid)."""
    cdef SRow w
    cdef uint64_t u
    cdef int j
    w.n = 0
    w.size = 5
    for j in range(row.shape[0]):
        if row[j] != EMPTY:
            w.c[w.n] = row[j]
            w.n += 1
    if w.n == 5:
        w.s = eval_row(&w)
    v = max5(&w, pool, &u)
    return v, u


def min_kernel(const uint8_t[::1] row, uint64_t pool):
    """(weakest completion strength, cards used mask) of one partial 3- or 5-card row."""
    cdef SRow w
    cdef uint64_t u
    cdef int j
    w.n = 0
    w.size = row.shape[0]
    for j in range(row.shape[0]):
        if row[j] != EMPTY:
            w.c[w.n] = row[j]
            w.n += 1
    if w.n == w.size:
        w.s = eval_row(&w)
    v = min_top(&w, pool, &u)
    return v, u


# ------------------------------------------------------------------------ random
cdef struct Rng:
    uint64_t s[4]


cdef inline uint64_t splitmix64(uint64_t *x) noexcept nogil:
    cdef uint64_t z
    x[0] += <uint64_t> 0x9E3779B97F4A7C15
    z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t> 0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng *g, uint64_t seed, uint64_t stream) noexcept nogil:
    """xoshiro256** state from (seed, stream) through splitmix64."""
    cdef uint64_t x = seed ^ (stream * <uint64_t> 0xD1B54A32D192ED03)
    g.s[0] = splitmix64(&x)
    g.s[1] = splitmix64(&x)
    g.s[2] = splitmix64(&x)
    g.s[3] = splitmix64(&x)


cdef inline uint64_t rng_next(Rng *g) noexcept nogil:
    cdef uint64_t result = g.s[1] * 5
    cdef uint64_t t = g.s[1] << 17
    result = ((result << 7) | (result >> 57)) * 9
    g.s[2] ^= g.s[0]
    g.s[3] ^= g.s[1]
    g.s[1] ^= g.s[2]
    g.s[0] ^= g.s[3]
    g.s[2] ^= t
    g.s[3] = (g.s[3] << 45) | (g.s[3] >> 19)
    return result


cdef inline uint32_t rng_below(Rng *g, uint32_t n) noexcept nogil:
    """Uniform in [0, n) for small n (bias below n / 2**32)."""
    return <uint32_t> (((rng_next(g) >> 32) * <uint64_t> n) >> 32)


# ---------------------------------------------------------------------- rollouts
cdef int unseen_cards(const uint8_t *lay, int nc, uint64_t dead, uint8_t *u, uint8_t *emp,
                      int *ne) noexcept nogil:
    """Unseen cards (not in the layout, not dead) into u; empty slots into emp.
    Returns the number of unseen cards, or -1 on a bad or repeated layout card.
    Dead cards that are also in the layout are simply not unseen."""
    cdef uint64_t seen = 0, bit
    cdef int j, c, nu = 0
    ne[0] = 0
    for j in range(nc):
        c = lay[j]
        if c == EMPTY:
            emp[ne[0]] = <uint8_t> j
            ne[0] += 1
            continue
        if c > 51:
            return -1
        bit = (<uint64_t> 1) << c
        if seen & bit:
            return -1
        seen |= bit
    seen |= dead & ALL_CARDS
    for c in range(52):
        if not (seen >> c) & 1:
            u[nu] = <uint8_t> c
            nu += 1
    return nu


cdef inline int32_t arrangement_value(const ofc_layout_eval *e, int fl_bonus) noexcept nogil:
    if e.foul:
        return -1000000
    return e.royalty_total + (fl_bonus if e.fantasyland else 0)


cdef void best_arrangement(const ofc_rules *rules, uint8_t *cards, const uint8_t *emp, int ne,
                           int fl, int tries, int fl_bonus, Rng *g,
                           ofc_layout_eval *best) noexcept nogil:
    """Rearrange the cards in the empty slots: keep the best of `tries` random
    orders (the first is the order dealt).  cards ends as the best layout."""
    cdef uint8_t keep[18]
    cdef uint8_t tmp
    cdef ofc_layout_eval e
    cdef int t, j, r
    cdef int32_t v, bv
    ofc_eval_layout(T, rules, cards, fl, best)
    bv = arrangement_value(best, fl_bonus)
    memcpy(keep, cards, 18)
    for t in range(1, tries):
        for j in range(ne - 1):
            r = j + rng_below(g, ne - j)
            tmp = cards[emp[j]]
            cards[emp[j]] = cards[emp[r]]
            cards[emp[r]] = tmp
        ofc_eval_layout(T, rules, cards, fl, &e)
        v = arrangement_value(&e, fl_bonus)
        if v > bv:
            bv = v
            best[0] = e
            memcpy(keep, cards, 18)
    memcpy(cards, keep, 18)


def rollout_kernel(PlayRules pr, const uint8_t[:, ::1] layouts, const uint64_t[::1] dead,
                   const uint8_t[::1] fl, intptr_t n, uint64_t seed, int mode,
                   int64_t[:, ::1] stats, uint8_t[:, :, ::1] out_layouts,
                   uint8_t[:, ::1] out_foul, int16_t[:, ::1] out_royalty,
                   uint8_t[:, ::1] out_fantasy, int tries=1, int fl_bonus=0):
    """Complete each layout n times with random unseen cards.

    mode 0: stats[i] = (fouls, royalty sum, fantasyland entries, repeats,
    sum of squared royalties); mode 1: out_layouts[i, k] = completion k;
    mode 2: per-completion foul, royalty total and fantasyland cards.
    With tries > 1 each completion draws its cards once and keeps the best of
    `tries` random arrangements of them into the empty slots (royalties plus
    fl_bonus for fantasyland; a foul is worst).
    Returns (first bad layout or -1, first layout with too few unseen cards or -1)."""
    cdef intptr_t i, k, N = layouts.shape[0]
    cdef int j, nu, ne, nc = pr.NC
    cdef uint8_t u[52]
    cdef uint8_t emp[18]
    cdef uint8_t cards[18]
    cdef uint8_t tmp
    cdef uint32_t r
    cdef Rng g
    cdef ofc_layout_eval e
    cdef const ofc_rules *rules = pr.r
    cdef int64_t fouls, roy, fan, rep, sq
    cdef intptr_t bad = -1, short = -1
    with nogil:
        for i in range(N):
            nu = unseen_cards(&layouts[i, 0], nc, dead[i], u, emp, &ne)
            if nu < 0:
                bad = i
                break
            if nu < ne:
                short = i
                break
            rng_seed(&g, seed, <uint64_t> i)
            memcpy(cards, &layouts[i, 0], nc)
            fouls = roy = fan = rep = sq = 0
            for k in range(n):
                for j in range(ne):
                    r = j + rng_below(&g, nu - j)
                    tmp = u[j]
                    u[j] = u[r]
                    u[r] = tmp
                    cards[emp[j]] = u[j]
                if tries > 1:
                    best_arrangement(rules, cards, emp, ne, fl[i], tries, fl_bonus, &g, &e)
                if mode == 1:
                    memcpy(&out_layouts[i, k, 0], cards, nc)
                    continue
                if tries <= 1:
                    ofc_eval_layout(T, rules, cards, fl[i], &e)
                if mode == 2:
                    out_foul[i, k] = e.foul
                    out_royalty[i, k] = <int16_t> e.royalty_total
                    out_fantasy[i, k] = e.fantasyland
                else:
                    fouls += e.foul
                    roy += e.royalty_total
                    sq += <int64_t> e.royalty_total * e.royalty_total
                    fan += e.fantasyland != 0
                    rep += e.repeat
            if mode == 0:
                stats[i, 0] = fouls
                stats[i, 1] = roy
                stats[i, 2] = fan
                stats[i, 3] = rep
                stats[i, 4] = sq
    return bad, short


def rollout_ev_kernel(PlayRules pr, const uint8_t[:, ::1] hero, const uint8_t[:, ::1] opp,
                      const uint64_t[::1] dead, const uint8_t[::1] fl_hero,
                      const uint8_t[::1] fl_opp, intptr_t n, uint64_t seed,
                      double[:, ::1] out):
    """Score n random completions of each hero layout against completions of the
    opponents' layouts drawn from the same deck (cards never repeat).

    out[i] = (sum of points, sum of squared points, hero fouls, hero royalty
    sum, hero fantasyland entries, opponents' fouls).  Returns (first bad hero
    row or -1, first row whose deck is too small or -1, first bad opponent or -1)."""
    cdef intptr_t i, k, N = hero.shape[0]
    cdef int M = opp.shape[0], j, q, nu, ne, nc = pr.NC, total_e, c
    cdef uint8_t u[52]
    cdef uint8_t emp[18]
    cdef uint8_t oemp[3][18]
    cdef int one[3]
    cdef uint8_t cards[18]
    cdef uint8_t ocards[3][18]
    cdef uint64_t oseen = 0, bit, hseen
    cdef uint8_t tmp
    cdef uint32_t r
    cdef Rng g
    cdef ofc_layout_eval eh
    cdef ofc_layout_eval eo[3]
    cdef const ofc_rules *rules = pr.r
    cdef double s, s2, fouls, roy, fan, ofouls
    cdef int32_t pts
    cdef intptr_t bad = -1, short = -1, badopp = -1
    if M > 3:
        raise ValueError("at most three opponents")
    for q in range(M):
        one[q] = 0
        for j in range(nc):
            c = opp[q, j]
            ocards[q][j] = <uint8_t> c
            if c == EMPTY:
                oemp[q][one[q]] = <uint8_t> j
                one[q] += 1
            elif c > 51 or (oseen >> c) & 1:
                return -1, -1, q
            else:
                oseen |= (<uint64_t> 1) << c
    with nogil:
        for i in range(N):
            nu = unseen_cards(&hero[i, 0], nc, dead[i] | oseen, u, emp, &ne)
            if nu < 0:
                bad = i
                break
            total_e = ne
            for q in range(M):
                total_e += one[q]
            if nu < total_e:
                short = i
                break
            rng_seed(&g, seed, <uint64_t> i)
            memcpy(cards, &hero[i, 0], nc)
            s = s2 = fouls = roy = fan = ofouls = 0
            for k in range(n):
                # one partial shuffle deals every empty slot at the table
                for j in range(total_e):
                    r = j + rng_below(&g, nu - j)
                    tmp = u[j]
                    u[j] = u[r]
                    u[r] = tmp
                for j in range(ne):
                    cards[emp[j]] = u[j]
                c = ne
                for q in range(M):
                    for j in range(one[q]):
                        ocards[q][oemp[q][j]] = u[c]
                        c += 1
                ofc_eval_layout(T, rules, cards, fl_hero[i], &eh)
                pts = 0
                for q in range(M):
                    ofc_eval_layout(T, rules, ocards[q], fl_opp[q], &eo[q])
                    pts += ofc_pair_points(rules, &eh, &eo[q])
                    ofouls += eo[q].foul
                s += pts
                s2 += <double> pts * pts
                fouls += eh.foul
                roy += eh.royalty_total
                fan += eh.fantasyland != 0
            out[i, 0] = s
            out[i, 1] = s2
            out[i, 2] = fouls
            out[i, 3] = roy
            out[i, 4] = fan
            out[i, 5] = ofouls
    return bad, short, badopp


# ----------------------------------------------------------------- move counting
cdef int64_t WAYS[19][4][6][6][6]   # ways to send j labelled cards to rows with these rooms
cdef int64_t BINOM[25][25]


cdef void _init_counts() noexcept:
    cdef int j, a, b, c, d, n, k
    for n in range(25):
        for k in range(25):
            BINOM[n][k] = 0
        BINOM[n][0] = 1
        for k in range(1, n + 1):
            BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]
    for a in range(4):
        for b in range(6):
            for c in range(6):
                for d in range(6):
                    WAYS[0][a][b][c][d] = 1
    for j in range(1, 19):
        for a in range(4):
            for b in range(6):
                for c in range(6):
                    for d in range(6):
                        WAYS[j][a][b][c][d] = (
                            (WAYS[j - 1][a - 1][b][c][d] if a else 0)
                            + (WAYS[j - 1][a][b - 1][c][d] if b else 0)
                            + (WAYS[j - 1][a][b][c - 1][d] if c else 0)
                            + (WAYS[j - 1][a][b][c][d - 1] if d else 0))


_init_counts()


cdef inline int64_t ways(int j, const int *room) noexcept nogil:
    if j > 18:
        return 0
    return WAYS[j][room[0]][room[1]][room[2]][room[3]]


def count_placements(int n, int keep, rooms):
    """Number of distinct moves: choose the n - keep discards, then send the
    kept cards to rows with room (rooms: free slots per row, top first)."""
    cdef int room[4]
    cdef int i
    for i in range(4):
        room[i] = rooms[i] if i < len(rooms) else 0
    if keep < 0 or keep > n or n > 24:
        return 0
    return BINOM[n][n - keep] * ways(keep, room)


cdef void unrank_move(int64_t idx, int n, int keep, const int *rooms, int R, int8_t *dest) noexcept nogil:
    """Move number idx (0 <= idx < count) as a destination per dealt card
    (row, or -1 = discard).  Order: discard sets in lexicographic order, then
    row vectors of the kept cards in lexicographic order."""
    cdef int room[4]
    cdef int i, pos, d = n - keep, left, row
    cdef int64_t a, cnt
    for i in range(4):
        room[i] = rooms[i]
    a = ways(keep, room)
    cdef int64_t di = idx // a, ai = idx % a
    for pos in range(n):
        if d > 0:
            cnt = BINOM[n - pos - 1][d - 1]
            if di < cnt:
                dest[pos] = -1
                d -= 1
                continue
            di -= cnt
        dest[pos] = 0     # kept; row chosen below
    left = keep
    for pos in range(n):
        if dest[pos] < 0:
            continue
        for row in range(R):
            if room[row] == 0:
                continue
            room[row] -= 1
            cnt = ways(left - 1, room)
            if ai < cnt:
                dest[pos] = <int8_t> row
                left -= 1
                break
            ai -= cnt
            room[row] += 1


cdef int64_t rank_move(int n, int keep, const int *rooms, int R, const int8_t *dest) noexcept nogil:
    """Inverse of unrank_move (dest assumed valid)."""
    cdef int room[4]
    cdef int i, pos, d = n - keep, left, row
    cdef int64_t di = 0, ai = 0
    for i in range(4):
        room[i] = rooms[i]
    for pos in range(n):
        if d == 0:
            break
        if dest[pos] < 0:
            d -= 1
        else:
            di += BINOM[n - pos - 1][d - 1]
    left = keep
    for pos in range(n):
        if dest[pos] < 0:
            continue
        for row in range(dest[pos]):
            if room[row]:
                room[row] -= 1
                ai += ways(left - 1, room)
                room[row] += 1
        room[dest[pos]] -= 1
        left -= 1
    return di * ways(keep, rooms) + ai


# --------------------------------------------------------------------- hand core
cdef enum:
    MAX_TURNS = 64
    AUTO_NONE = 0
    AUTO_ONLY = 1          # only one legal move
    AUTO_DEAD = 2          # the hand is already dead
    AUTO_ALL_DEAD = 3      # every move makes it dead
    AUTO_TIMEOUT = 4       # time-out placement played on request

AUTO_REASONS = (None, "only option", "dead", "every option dead", "time-out")


cdef class HandCore:
    """State of one hand: deck, turn schedule, layouts, discards, history.

    Python never sees a half-applied move: ``apply`` validates everything
    before it changes state.  Build through ``ofc_fast.engine.Game``."""
    cdef PlayRules pr
    cdef Ctx cx
    cdef readonly int n_players, button, n_turns, turn, deck_used
    cdef int R, NC
    cdef uint8_t deck[52]
    cdef int deck_pos
    cdef uint8_t lay[4][18]
    cdef int room[4][4]
    cdef uint8_t disc[4][24]
    cdef int ndisc[4]
    cdef int flc[4]
    cdef int flk[4]
    cdef int order[4]
    cdef int tp[64]
    cdef int tdealt[64]
    cdef int tkeep[64]
    cdef int tstreet[64]
    cdef uint8_t cur[24]
    cdef int ncur, nkeep
    cdef uint8_t deadf[4]
    cdef public bint auto
    cdef uint8_t hcards[64][24]
    cdef int8_t hrows[64][24]
    cdef uint8_t hreason[64]
    cdef readonly int64_t solves

    def __init__(self, PlayRules pr, int n_players, deck, int button, fl_cards, fl_count,
                 int first_street, streets, bint auto):
        cdef int p, q, i, s, t = 0, total = 0
        cdef const uint8_t[::1] d = np.ascontiguousarray(deck, dtype=np.uint8)
        self.pr = pr
        ctx_init(&self.cx, pr)
        self.n_players = n_players
        self.button = button
        self.R = pr.R
        self.NC = pr.NC
        self.auto = auto
        self.solves = 0
        for i in range(52):
            self.deck[i] = d[i]
        self.deck_pos = 0
        for p in range(4):
            self.ndisc[p] = 0
            self.deadf[p] = 0
            self.flc[p] = fl_cards[p] if p < n_players else 0
            self.flk[p] = fl_count[p] if p < n_players else 0
            for i in range(18):
                self.lay[p][i] = EMPTY
            for i in range(4):
                self.room[p][i] = pr.row_len[i]
        for q in range(n_players):
            self.order[q] = (button + 1 + q) % n_players
        for q in range(n_players):
            p = self.order[q]
            if self.flc[p]:
                self.tp[t] = p
                self.tdealt[t] = self.flc[p]
                self.tkeep[t] = self.NC
                self.tstreet[t] = -1
                total += self.flc[p]
                t += 1
        sched = [(first_street, first_street)] + list(streets)
        for s in range(len(sched)):
            for q in range(n_players):
                p = self.order[q]
                if self.flc[p]:
                    continue
                if t >= MAX_TURNS:
                    raise ValueError("too many turns in one hand")
                self.tp[t] = p
                self.tdealt[t] = sched[s][0]
                self.tkeep[t] = sched[s][1]
                self.tstreet[t] = s
                total += sched[s][0]
                t += 1
        if total > 52:
            raise ValueError(f"the deal needs {total} cards, the deck has 52")
        self.n_turns = t
        self.deck_used = total
        self.turn = 0
        if t:
            self.begin_turn()
            self.run_auto()

    # ------------------------------------------------------------ internals
    cdef void begin_turn(self) noexcept:
        cdef int i
        self.ncur = self.tdealt[self.turn]
        self.nkeep = self.tkeep[self.turn]
        for i in range(self.ncur):
            self.cur[i] = self.deck[self.deck_pos + i]
        self.deck_pos += self.ncur

    cdef int64_t count(self) noexcept:
        return BINOM[self.ncur][self.ncur - self.nkeep] * ways(self.nkeep, self.room[self.tp[self.turn]])

    cdef void timeout_dest(self, int8_t *dest) noexcept:
        """Section 9: first cards dealt are placed, bottom row first, then up;
        the last ones are discarded."""
        cdef int room[4]
        cdef int i, row, p = self.tp[self.turn]
        for i in range(4):
            room[i] = self.room[p][i]
        for i in range(self.ncur):
            dest[i] = -1
            if i < self.nkeep:
                for row in range(self.R - 1, -1, -1):
                    if room[row]:
                        room[row] -= 1
                        dest[i] = <int8_t> row
                        break

    cdef void do_apply(self, const int8_t *dest, int reason) noexcept:
        cdef int i, p = self.tp[self.turn], row, t = self.turn
        for i in range(self.ncur):
            self.hcards[t][i] = self.cur[i]
            self.hrows[t][i] = dest[i]
            row = dest[i]
            if row < 0:
                self.disc[p][self.ndisc[p]] = self.cur[i]
                self.ndisc[p] += 1
            else:
                self.lay[p][self.pr.row_off[row] + self.pr.row_len[row] - self.room[p][row]] = self.cur[i]
                self.room[p][row] -= 1
        self.hreason[t] = reason
        self.turn += 1
        self.ncur = 0
        if self.turn < self.n_turns:
            self.begin_turn()

    cdef uint64_t seen_mask(self, int p, bint with_cur) noexcept:
        """Cards player p has seen: own layout, discards and (optionally) the
        cards in hand; opponents' placed cards, except fantasyland hands
        before the showdown."""
        cdef uint64_t m = 0
        cdef int q, i
        cdef bint done = self.turn >= self.n_turns
        for q in range(self.n_players):
            if q != p and self.flc[q] and not done:
                continue
            for i in range(self.NC):
                if self.lay[q][i] != EMPTY:
                    m |= (<uint64_t> 1) << self.lay[q][i]
        for i in range(self.ndisc[p]):
            m |= (<uint64_t> 1) << self.disc[p][i]
        if with_cur and not done and self.tp[self.turn] == p:
            for i in range(self.ncur):
                m |= (<uint64_t> 1) << self.cur[i]
        return m

    cdef uint64_t cur_mask(self) noexcept:
        cdef uint64_t m = 0
        cdef int i
        for i in range(self.ncur):
            m |= (<uint64_t> 1) << self.cur[i]
        return m

    cdef int solve_layout(self, const uint8_t *lay, uint64_t pool, uint64_t *added) noexcept:
        cdef SProb pb
        cdef uint64_t placed, after = 0
        cdef int alive, i, j
        self.solves += 1
        prob_from_layout(&self.cx, &pb, lay, &placed)
        alive = solve(&self.cx, &pb, pool & ~placed)
        if alive and added != NULL:
            for i in range(self.R):
                for j in range(pb.row[i].n):
                    after |= (<uint64_t> 1) << pb.row[i].c[j]
            added[0] = after & ~placed
        return alive

    cdef int option_alive(self, const int8_t *dest, uint64_t pool) noexcept:
        cdef uint8_t lay[18]
        cdef int room[4]
        cdef int i, row, p = self.tp[self.turn]
        memcpy(lay, self.lay[p], 18)
        for i in range(4):
            room[i] = self.room[p][i]
        for i in range(self.ncur):
            row = dest[i]
            if row >= 0:
                lay[self.pr.row_off[row] + self.pr.row_len[row] - room[row]] = self.cur[i]
                room[row] -= 1
        return self.solve_layout(lay, pool, NULL)

    cdef int auto_reason(self) noexcept:
        """Why the player to act may be moved automatically (RULES.md section 9)."""
        cdef int p = self.tp[self.turn], i, e = 0
        cdef int8_t dest[24]
        cdef uint64_t seen, cm, added = 0
        cdef int64_t k, n = self.count()
        if n == 1:
            return AUTO_ONLY
        if self.deadf[p]:
            return AUTO_DEAD
        for i in range(self.R):
            e += self.room[p][i]
        cm = self.cur_mask()
        if e == self.nkeep:
            # this move fills the layout: the moves are exactly the completions from the hand
            if self.solve_layout(self.lay[p], cm, NULL):
                return AUTO_NONE
            self.deadf[p] = 1
            return AUTO_ALL_DEAD
        seen = self.seen_mask(p, True)
        if not self.solve_layout(self.lay[p], (ALL_CARDS & ~seen) | cm, &added):
            self.deadf[p] = 1
            return AUTO_DEAD
        if popc(added & cm) == self.nkeep:
            return AUTO_NONE     # the witness places exactly the kept number of dealt cards
        self.timeout_dest(dest)
        if self.option_alive(dest, ALL_CARDS & ~seen):
            return AUTO_NONE
        for k in range(n):
            unrank_move(k, self.ncur, self.nkeep, self.room[p], self.R, dest)
            if self.option_alive(dest, ALL_CARDS & ~seen):
                return AUTO_NONE
        self.deadf[p] = 1
        return AUTO_ALL_DEAD

    cdef void run_auto(self) noexcept:
        cdef int reason
        cdef int8_t dest[24]
        while self.auto and self.turn < self.n_turns:
            reason = self.auto_reason()
            if reason == AUTO_NONE:
                return
            if reason == AUTO_ONLY:
                unrank_move(0, self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)
            else:
                self.timeout_dest(dest)
            self.do_apply(dest, reason)

    cdef tuple dest_tuple(self, const int8_t *dest):
        return tuple([dest[i] for i in range(self.ncur)])

    # ------------------------------------------------------------- Python API
    @property
    def to_act(self):
        return self.tp[self.turn] if self.turn < self.n_turns else -1

    @property
    def done(self):
        return self.turn >= self.n_turns

    @property
    def street(self):
        return self.tstreet[self.turn] if self.turn < self.n_turns else None

    @property
    def keep(self):
        return self.nkeep

    def hand(self):
        """Cards dealt to the player to act (tuple of ids, deal order)."""
        return tuple([self.cur[i] for i in range(self.ncur)])

    def n_moves(self):
        if self.turn >= self.n_turns:
            return 0
        return self.count()

    def move_rows(self, int64_t idx):
        cdef int8_t dest[24]
        cdef int64_t n = self.count()
        if idx < 0:
            idx += n
        if self.turn >= self.n_turns or idx < 0 or idx >= n:
            raise IndexError("move index out of range")
        unrank_move(idx, self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)
        return self.dest_tuple(dest)

    def move_index(self, rows):
        """Index of a validated destination tuple in the move order."""
        cdef int8_t dest[24]
        cdef int i
        for i in range(self.ncur):
            dest[i] = rows[i]
        return rank_move(self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)

    def check(self, cards, rows):
        """Destinations in deal order for a move given as cards and rows, or
        raise ValueError explaining why the move is illegal."""
        cdef int i, j, n = self.ncur, p, row
        cdef int8_t dest[24]
        cdef int used[4]
        cdef int ndisc = 0
        if self.turn >= self.n_turns:
            raise ValueError("the hand is over: no move to make")
        p = self.tp[self.turn]
        if len(cards) != len(rows):
            raise ValueError(f"the move gives {len(cards)} cards but {len(rows)} destinations")
        for i in range(n):
            dest[i] = -2
        for i in range(4):
            used[i] = 0
        for j in range(len(cards)):
            c = cards[j]
            for i in range(n):
                if self.cur[i] == c:
                    break
            else:
                raise ValueError(f"{_card_text(c)} is not among the cards dealt to seat {p} "
                                 f"({_cards_text(self.hand())})")
            if dest[i] != -2:
                raise ValueError(f"the move places {_card_text(c)} twice")
            row = rows[j]
            if row < -1 or row >= self.R:
                raise ValueError(f"{_card_text(c)}: row {row} does not exist "
                                 f"(rows 0 .. {self.R - 1}, -1 = discard)")
            dest[i] = row
            if row < 0:
                ndisc += 1
            else:
                used[row] += 1
        for i in range(n):
            if dest[i] == -2:
                raise ValueError(f"the move does not say where {_card_text(self.cur[i])} goes "
                                 f"(every dealt card is placed or discarded)")
        if ndisc != n - self.nkeep:
            raise ValueError(f"{n} cards dealt, {self.nkeep} to place: the move must discard "
                             f"{n - self.nkeep}, it discards {ndisc}")
        for row in range(self.R):
            if used[row] > self.room[p][row]:
                raise ValueError(f"the {self.pr.variant.row_names[row]} row has room for "
                                 f"{self.room[p][row]} more card(s), the move puts {used[row]} there")
        return self.dest_tuple(dest)

    def apply(self, dest_rows, int reason=AUTO_NONE):
        """Apply checked destinations (deal order), then any automatic moves."""
        cdef int8_t dest[24]
        cdef int i
        for i in range(self.ncur):
            dest[i] = dest_rows[i]
        self.do_apply(dest, reason)
        self.run_auto()

    def apply_index(self, int64_t idx):
        cdef int8_t dest[24]
        unrank_move(idx, self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)
        self.do_apply(dest, AUTO_NONE)
        self.run_auto()

    def timeout_rows(self):
        cdef int8_t dest[24]
        if self.turn >= self.n_turns:
            raise ValueError("the hand is over: no move to make")
        self.timeout_dest(dest)
        return self.dest_tuple(dest)

    def automatic(self):
        """(reason code, destinations) of the automatic move available to the
        player to act, or (0, None)."""
        cdef int8_t dest[24]
        cdef int reason
        if self.turn >= self.n_turns:
            return 0, None
        reason = self.auto_reason()
        if reason == AUTO_NONE:
            return 0, None
        if reason == AUTO_ONLY:
            unrank_move(0, self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)
        else:
            self.timeout_dest(dest)
        return reason, self.dest_tuple(dest)

    def run_automatic(self):
        self.run_auto()

    def is_dead(self, int p):
        """Player p's layout cannot be completed legally with cards p has not
        seen (dealt cards in hand count as available)."""
        cdef uint64_t seen = self.seen_mask(p, False)
        cdef int e = 0, i
        if self.deadf[p]:
            return True
        if self.turn < self.n_turns and self.tp[self.turn] == p and self.flc[p]:
            return not self.solve_layout(self.lay[p], self.cur_mask(), NULL)
        for i in range(self.R):
            e += self.room[p][i]
        if e == 0:
            return bool(self.evaluate_one(p)[0])
        if self.flc[p]:
            return False
        return not self.solve_layout(self.lay[p], ALL_CARDS & ~seen, NULL)

    cdef tuple evaluate_one(self, int p):
        cdef ofc_layout_eval e
        ofc_eval_layout(T, self.pr.r, self.lay[p], self.flk[p], &e)
        return e.foul, e.royalty_total

    def layout(self, int p):
        return bytes(self.lay[p][:self.NC])

    def discards(self, int p):
        return bytes(self.disc[p][:self.ndisc[p]])

    def visible(self, int p):
        """Layouts as player p sees them (hidden fantasyland hands EMPTY)."""
        cdef bytearray out = bytearray(self.n_players * self.NC)
        cdef int q, i
        cdef bint done = self.turn >= self.n_turns
        for q in range(self.n_players):
            if q == p or not self.flc[q] or done:
                for i in range(self.NC):
                    out[q * self.NC + i] = self.lay[q][i]
            else:
                for i in range(self.NC):
                    out[q * self.NC + i] = EMPTY
        return bytes(out)

    def seen(self, int p):
        return self.seen_mask(p, True)

    def dead_flags(self):
        return tuple([bool(self.deadf[p]) for p in range(self.n_players)])

    def fantasyland(self):
        return (tuple([self.flc[p] for p in range(self.n_players)]),
                tuple([self.flk[p] for p in range(self.n_players)]))

    def order_seats(self):
        return tuple([self.order[q] for q in range(self.n_players)])

    def schedule(self):
        return [(self.tp[t], self.tstreet[t], self.tdealt[t], self.tkeep[t])
                for t in range(self.n_turns)]

    def history(self):
        """Per played turn: (seat, street, dealt cards, destinations, reason code)."""
        return [(self.tp[t], self.tstreet[t],
                 tuple([self.hcards[t][i] for i in range(self.tdealt[t])]),
                 tuple([self.hrows[t][i] for i in range(self.tdealt[t])]),
                 self.hreason[t]) for t in range(self.turn)]

    def deck_order(self):
        return bytes(self.deck[:52])

    def move_layouts(self, int64_t limit=-1):
        """Layouts after each move of the player to act (first `limit` moves):
        ((M, n_cards) uint8, (M, discards) uint8)."""
        cdef int8_t dest[24]
        cdef int64_t k, n = self.count() if self.turn < self.n_turns else 0
        cdef int i, row, p, nd
        cdef int room[4]
        if limit >= 0 and limit < n:
            n = limit
        p = self.tp[self.turn] if self.turn < self.n_turns else 0
        nd = self.ncur - self.nkeep
        lays = np.empty((n, self.NC), np.uint8)
        discs = np.empty((n, nd), np.uint8)
        cdef uint8_t[:, ::1] L = lays
        cdef uint8_t[:, ::1] D = discs
        cdef int di
        for k in range(n):
            unrank_move(k, self.ncur, self.nkeep, self.room[p], self.R, dest)
            for i in range(self.NC):
                L[k, i] = self.lay[p][i]
            for i in range(4):
                room[i] = self.room[p][i]
            di = 0
            for i in range(self.ncur):
                row = dest[i]
                if row < 0:
                    D[k, di] = self.cur[i]
                    di += 1
                else:
                    L[k, self.pr.row_off[row] + self.pr.row_len[row] - room[row]] = self.cur[i]
                    room[row] -= 1
        return lays, discs

    def result(self):
        """Showdown: (points, foul, royalty_total, royalties per row,
        strengths per row, next fantasyland cards, repeat) as tuples per seat."""
        cdef ofc_layout_eval e[4]
        cdef int p, q, i
        cdef int32_t pts[4]
        cdef int32_t x
        if self.turn < self.n_turns:
            raise ValueError("the hand is not finished")
        for p in range(self.n_players):
            ofc_eval_layout(T, self.pr.r, self.lay[p], self.flk[p], &e[p])
            pts[p] = 0
        for p in range(self.n_players):
            for q in range(p + 1, self.n_players):
                x = ofc_pair_points(self.pr.r, &e[p], &e[q])
                pts[p] += x
                pts[q] -= x
        P = self.n_players
        return (tuple([pts[p] for p in range(P)]),
                tuple([bool(e[p].foul) for p in range(P)]),
                tuple([e[p].royalty_total for p in range(P)]),
                tuple([tuple([e[p].royalty[i] for i in range(self.R)]) for p in range(P)]),
                tuple([tuple([e[p].strength[i] for i in range(self.R)]) for p in range(P)]),
                tuple([e[p].fantasyland for p in range(P)]),
                tuple([bool(e[p].repeat) for p in range(P)]))


def _card_text(c):
    from ofc_fast.cards import format_card
    try:
        return format_card(int(c))
    except Exception:
        return repr(c)


def _cards_text(cards):
    return " ".join(_card_text(c) for c in cards)


def cards_mask(const uint8_t[::1] ids):
    """52-bit mask of card ids (EMPTY skipped), or -1 if an id is not a card."""
    cdef uint64_t m = 0
    cdef intptr_t i
    cdef uint8_t c
    for i in range(ids.shape[0]):
        c = ids[i]
        if c == EMPTY:
            continue
        if c > 51:
            return -1
        m |= (<uint64_t> 1) << c
    return m


def dead_one(PlayRules rules, const uint8_t[::1] layout, uint64_t pool):
    """1 if one partial layout is dead with this pool (its own cards removed),
    0 if not, -1 if the layout is malformed (the caller reports why)."""
    cdef Ctx cx
    cdef SProb p
    cdef uint64_t placed
    cdef int alive
    if layout.shape[0] != rules.NC:
        return -1
    ctx_init(&cx, rules)
    with nogil:
        if prob_from_layout(&cx, &p, &layout[0], &placed) < 0:
            alive = -1
        else:
            alive = solve(&cx, &p, pool & ~placed & ALL_CARDS)
    if alive < 0:
        return -1
    return 0 if alive else 1
