# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
# cython: initializedcheck=False
"""The exact dead-hand search: can a partial layout still be completed legally?

One concern (the row bounds, the witnesses and the branching of one search),
so one module of about 1,000 lines.  ``search_layout`` is its C API
(``_search.pxd``: the hand state machine of ``_hand`` and any batch engine
call it without the GIL); ``dead_kernel`` and ``dead_one`` its Python entry
points for ``ofc_fast.rollouts``.  Rows are evaluated by the primitives of
``src/ofc_eval.h`` (``ofc_row5``/``ofc_row3``; by ranks ``ofc_plain5``,
``ofc_flush5``, ``ofc_row3_ranks`` over ``OFC_RANK_BASE`` sums); nothing here
re-derives a table index or allocates per search node.

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
from libc.stdint cimport int64_t, intptr_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from ofc_fast._cards cimport (OFC_ALL_CARDS as ALL_CARDS, OFC_EMPTY as EMPTY, OFC_EMPTY_OK,
                              ofc_cards_check, ofc_cards_mask, ofc_is_card)
from ofc_fast._compat cimport ofc_ctz64 as ctz, ofc_popcount64 as popc
from ofc_fast._eval cimport (OFC_N_JOINT as TOP_STRENGTH, OFC_RANK_BASE as RBASE, ofc_flush5,
                             ofc_plain5, ofc_row3, ofc_row3_ranks, ofc_row5, ofc_tables, tables)
from ofc_fast._play cimport PlayRules

cdef const ofc_tables *T = tables()
cdef uint32_t WIN[10]            # straight windows, ace-high first, wheel last
cdef int POP4[16]                # set bits of a 4-bit suit set (a table: faster than popcount)

cdef int _i
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
    uint32_t fsum             # OFC_RANK_BASE sum (5-card rows)


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
cdef inline int add_singles(const int *pn, uint64_t pool, uint32_t exclude, int n,
                            uint64_t *pick) noexcept nogil:
    """Adds to pick one card of each of the n highest ranks in pool outside
    exclude (kickers); returns how many it could not find (0: all)."""
    cdef int r = 12
    while n > 0 and r >= 0:
        if pn[r] > 0 and not (exclude & (1u << r)):
            pick[0] |= take(pool, r, 1)
            n -= 1
        r -= 1
    return n


cdef inline uint16_t max_of_a_kind(const SRow *w, const RowInfo *f, uint64_t pool, const int *pn,
                                   int n, uint64_t *used) noexcept nogil:
    """Strongest completion of a 5-card row to n of a kind (3: trips, 2: one
    pair) with the highest kickers, the row's other cards all distinct; 0 if
    none (used untouched)."""
    cdef int a, need, rest
    cdef uint64_t pick
    for a in range(12, -1, -1):
        need = n - f.fc[a]
        rest = f.nf - f.fc[a]
        if need < 0 or rest > 5 - n or pn[a] < need or popc(f.fm & ~(1u << a)) != rest:
            continue
        pick = take(pool, a, need)
        if add_singles(pn, pool, f.fm | (1u << a), 5 - n - rest, &pick) == 0:
            used[0] = pick
            return eval_plus(w, pick)
    return 0


cdef uint16_t max5(const SRow *w, uint64_t pool, uint64_t *used) noexcept nogil:
    """Strongest completion of a 5-card row from pool (exact); 0 if none.

    Categories are tried from the top; within a category the best choice is
    greedy.  A greedy pick that accidentally makes a better category would mean
    that category was achievable, which the earlier checks exclude."""
    cdef RowInfo f
    cdef int pn[13]
    cdef int k, r, s, i, q, a, b, h, lo, x, need, rest
    cdef uint32_t w5, sm, av, miss
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
    v = max_of_a_kind(w, &f, pool, pn, 3, used)
    if v:
        return v
    # two pair
    for h in range(12, -1, -1):
        if f.fc[h] > 2 or pn[h] < 2 - f.fc[h]:
            continue
        for lo in range(h - 1, -1, -1):
            if f.fc[lo] > 2 or pn[lo] < 2 - f.fc[lo]:
                continue
            rest = f.nf - f.fc[h] - f.fc[lo]
            if rest > 1:
                continue
            pick = take(pool, h, 2 - f.fc[h]) | take(pool, lo, 2 - f.fc[lo])
            if rest == 0:
                x = high_rank(pn, (1u << h) | (1u << lo))
                if x < 0:
                    continue
                pick |= take(pool, x, 1)
            used[0] = pick
            return eval_plus(w, pick)
    # one pair
    v = max_of_a_kind(w, &f, pool, pn, 2, used)
    if v:
        return v
    # high card
    if f.distinct:
        pick = 0
        if add_singles(pn, pool, f.fm, k, &pick) == 0:
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


cdef inline void enum_keep(RowEnum *e, uint16_t v, int how) noexcept nogil:
    """Keep the completion at hand (strength v) as the one found."""
    e.found = 1
    e.best = v
    e.pick = enum_pick(e, how)


cdef inline int enum_consider(RowEnum *e, uint16_t v, int how) noexcept nogil:
    cdef int i
    if e.valid != NULL and not e.valid[v]:
        return 0
    if e.mode == EN_MIN:
        if not e.found or v < e.best:
            enum_keep(e, v, how)
        return 0
    if v < e.lo or v > e.hi:
        return 0
    if e.mode == EN_EXISTS:
        enum_keep(e, v, how)
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
            enum_keep(e, v, how)
        return 0
    if not e.found or v > e.best:
        enum_keep(e, v, how)
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
    cdef uint64_t base, save
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
        return enum_consider(e, ofc_row3_ranks(T, ranks[0], ranks[1], ranks[2]), HOW_ANY)
    ns = ofc_plain5(T, e.f.fsum + rsum)     # the plain class of the rank sum
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
    fl = T.joint5[ofc_flush5(T, ns)]
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
    cdef uint16_t b
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


# ------------------------------------------------------------------ the C API
cdef inline void ctx_init(Ctx *cx, const ofc_play *pr) noexcept nogil:
    cdef int i
    cx.R = pr.R
    cx.nch = 0
    cx.low = pr.low
    cx.lowvalid = <const uint8_t *> pr.lowvalid
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
    if ofc_cards_check(lay, cx.row_off[cx.R - 1] + cx.row_len[cx.R - 1], OFC_EMPTY_OK,
                       placed) >= 0:
        return -1
    for i in range(cx.R):
        p.row[i].n = 0
        p.row[i].size = cx.row_len[i]
        p.row[i].s = 0
        for j in range(cx.row_len[i]):
            c = lay[cx.row_off[i] + j]
            if c != EMPTY:
                p.row[i].c[p.row[i].n] = <uint8_t> c
                p.row[i].n += 1
        if p.row[i].n == p.row[i].size:
            p.row[i].s = eval_row(&p.row[i])
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


cdef uint16_t floor_row(const uint8_t *row, int size) noexcept nogil:
    """A lower bound of the strength of every completion of a row (its cards
    in its first slots, EMPTY after), whatever cards complete it: its
    strength when complete; else its rank pattern with the lowest new ranks
    as kickers (pairing a rank again or a flush is stronger; suits ignored),
    or 0 when those kickers would make a straight (or the row is empty)."""
    cdef int n = 0, k, r = 0
    cdef uint32_t m = 0, rsum = 0
    cdef int rk[5]
    while n < size and row[n] != EMPTY:
        rk[n] = row[n] >> 2
        m |= 1u << rk[n]
        rsum += RBASE[rk[n]]
        n += 1
    if n == size:
        return ofc_row3(T, row) if size == 3 else ofc_row5(T, row)
    if n == 0:
        return 0
    k = n
    while k < size:
        while m & (1u << r):
            r += 1
        rk[k] = r
        rsum += RBASE[r]
        r += 1
        k += 1
    if size == 3:
        return ofc_row3_ranks(T, rk[0], rk[1], rk[2])
    if popc(m) == n:
        for r in range(n, 5):
            m |= 1u << rk[r]
        if search_is_straight(m):
            return 0
    return T.joint5[ofc_plain5(T, rsum)]


cdef bint search_is_straight(uint32_t m) noexcept nogil:
    """The 13-bit rank mask m is exactly five ranks in a row (the wheel too)."""
    cdef int i
    for i in range(10):
        if m == WIN[i]:
            return True
    return False


cdef bint search_dead_quick(const ofc_play *pr, const uint8_t *lay) noexcept nogil:
    """True when the partial layout lay is dead whatever cards complete it,
    by a cheap sufficient test: a complete 2-7 middle that is not valid, or
    a row whose weakest completion (floor_row) is stronger than a complete
    row below it in the foul chain.  False proves nothing."""
    cdef int i
    cdef uint16_t lo = 0, f
    for i in range(pr.R):
        f = floor_row(lay + pr.row_off[i], pr.row_len[i])
        if not pr.in_chain[i]:
            if lay[pr.row_off[i] + pr.row_len[i] - 1] != EMPTY and not pr.lowvalid[f]:
                return True
            continue
        if lay[pr.row_off[i] + pr.row_len[i] - 1] != EMPTY and f < lo:
            return True
        if f > lo:
            lo = f
    return False


cdef int search_layout(const ofc_play *pr, const uint8_t *lay, uint64_t pool, uint64_t *added,
                       int64_t *nodes) noexcept nogil:
    """Can the partial layout lay (pr.NC ids, EMPTY in the free slots) be
    completed legally with cards of pool (its own cards are taken out)?  1
    alive, 0 dead, -1 a bad or repeated card.  When alive and added is not
    NULL, added receives the cards a legal completion adds; nodes (when not
    NULL) is increased by the search nodes visited."""
    cdef Ctx cx
    cdef SProb p
    cdef uint64_t placed, after = 0
    cdef int alive, i
    ctx_init(&cx, pr)
    if prob_from_layout(&cx, &p, lay, &placed) < 0:
        return -1
    alive = solve(&cx, &p, pool & ~placed & ALL_CARDS)
    if nodes != NULL:
        nodes[0] += cx.nodes
    if alive and added != NULL:
        for i in range(cx.R):
            after |= ofc_cards_mask(p.row[i].c, p.row[i].n)
        added[0] = after & ~placed
    return alive


# -------------------------------------------------------------- Python entry points
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
    if n and (layouts.shape[1] != rules.c.NC or completions.shape[1] != rules.c.NC
              or pools.shape[0] < n or dead.shape[0] < n or completions.shape[0] < n
              or nodes.shape[0] < n):
        raise ValueError("dead_kernel: arrays do not match the layouts")
    ctx_init(&cx, &rules.c)
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
                memcpy(&completions[i, 0], &layouts[i, 0], rules.c.NC)
    return bad


def max5_kernel(const uint8_t[::1] row, uint64_t pool):
    """(strongest completion strength, cards used mask) of one partial 5-card row (testing aid)."""
    cdef SRow w
    cdef uint64_t u
    cdef int j
    if row.shape[0] != 5:
        raise ValueError(f"max5_kernel takes a 5-card row, got {row.shape[0]} slots")
    for j in range(5):
        if row[j] != EMPTY and not ofc_is_card(row[j]):
            raise ValueError(f"max5_kernel: {row[j]} is not a card")
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
    if row.shape[0] not in (3, 5):
        raise ValueError(f"min_kernel takes a 3- or 5-card row, got {row.shape[0]} slots")
    for j in range(row.shape[0]):
        if row[j] != EMPTY and not ofc_is_card(row[j]):
            raise ValueError(f"min_kernel: {row[j]} is not a card")
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


def dead_quick_one(PlayRules rules, const uint8_t[::1] layout):
    """1 when search_dead_quick proves one partial layout dead (each row's
    cards in its first slots, EMPTY after; testing aid), 0 when it proves
    nothing, -1 if the layout is malformed (the caller reports why)."""
    if layout.shape[0] != rules.c.NC:
        return -1
    for j in range(layout.shape[0]):
        if layout[j] != EMPTY and not ofc_is_card(layout[j]):
            return -1
    return 1 if search_dead_quick(&rules.c, &layout[0]) else 0


def dead_one(PlayRules rules, const uint8_t[::1] layout, uint64_t pool):
    """1 if one partial layout is dead with this pool (its own cards removed),
    0 if not, -1 if the layout is malformed (the caller reports why)."""
    cdef int alive
    if layout.shape[0] != rules.c.NC:
        return -1
    with nogil:
        alive = search_layout(&rules.c, &layout[0], pool, NULL, NULL)
    if alive < 0:
        return -1
    return 0 if alive else 1
