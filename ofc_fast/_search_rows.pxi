# The rows of the dead-hand search (included by _search.pyx, whose imports
# and tables they use): a row's cards and its exact bounds (the weakest and
# the strongest completion from a pool), and the enumeration of its
# completions by rank pattern, then suit, within a strength interval.

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
