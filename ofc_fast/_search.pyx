# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
# cython: initializedcheck=False
"""The exact dead-hand search: can a partial layout still be completed legally?

One concern (the row bounds, the witnesses and the branching of one search;
the rows in ``_search_rows.pxi``, the cheap tests in ``_search_quick.pxi``).
``search_layout`` is its C API
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
                              OFC_NATURALS, ofc_cards_check, ofc_cards_mask, ofc_ids_check,
                              ofc_is_card)
from ofc_fast._compat cimport ofc_ctz64 as ctz, ofc_msb64 as msb, ofc_popcount64 as popc
from ofc_fast._eval cimport (OFC_N_JOINT as TOP_STRENGTH, OFC_RANK_BASE as RBASE, ofc_flush5,
                             ofc_plain5, ofc_row3, ofc_row3_ranks, ofc_row5, ofc_tables, tables)
from ofc_fast._layout cimport ofc_has_joker, ofc_layout_foul
from ofc_fast._play cimport PLAY_MAX_CARDS, PlayRules
from ofc_fast._stop cimport Stop, ofc_stop, ofc_stop_after, stop_begin, stop_end

cdef const ofc_tables *T = tables()
cdef uint32_t WIN[10]            # straight windows, ace-high first, wheel last
cdef int POP4[16]                # set bits of a 4-bit suit set (a table: faster than popcount)

cdef int _i
for _i in range(9):
    WIN[_i] = 0x1F << (8 - _i)
WIN[9] = (1 << 12) | 0xF
for _i in range(16):
    POP4[_i] = (_i & 1) + ((_i >> 1) & 1) + ((_i >> 2) & 1) + ((_i >> 3) & 1)


include "_search_rows.pxi"


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


include "_search_quick.pxi"
include "_search_jokers.pxi"


cdef int jokers_alive(const ofc_play *pr, const uint8_t *lay, uint64_t pool,
                      int64_t *nodes) noexcept nogil:
    """search_jokers, after the cheap test (search_dead_quick) that proves
    a layout dead whatever cards complete it.  The test sees each row's
    naturals packed to its first slots and a joker as an empty slot: a row
    with a joker is then never complete (never a bound from above), and its
    weakest completion is no stronger than any card the joker may become."""
    cdef uint8_t packed[PLAY_MAX_CARDS]
    cdef int i, j, k
    for i in range(pr.R):
        k = pr.row_off[i]
        for j in range(pr.row_off[i], pr.row_off[i] + pr.row_len[i]):
            if lay[j] < OFC_NATURALS:
                packed[k] = lay[j]
                k += 1
        while k < pr.row_off[i] + pr.row_len[i]:
            packed[k] = EMPTY
            k += 1
    if search_dead_quick(pr, packed):
        return 0
    return search_jokers(pr, lay, pool, nodes)


cdef int search_layout(const ofc_play *pr, const uint8_t *lay, uint64_t pool, uint64_t *added,
                       int64_t *nodes) noexcept nogil:
    """Can the partial layout lay (pr.NC ids, EMPTY in the free slots) be
    completed legally with cards of pool (its own cards are taken out)?  1
    alive, 0 dead, -1 a card the variant's deck does not hold or one given
    twice.  When alive and added is not NULL, added receives the cards a
    legal completion adds (0 when only a joker keeps it alive: the joker
    search keeps no witness; jokers_witness finds one); nodes (when not
    NULL) is increased by the search nodes visited.

    With jokers in the deck a joker in the layout or the pool counts as any
    card it may become (search_jokers); a layout without one is searched
    with naturals first (the common, fast case, with its witness)."""
    cdef Ctx cx
    cdef SProb p
    cdef uint64_t placed, after = 0
    cdef int alive, i
    if pr.deck > OFC_NATURALS:
        if ofc_ids_check(lay, pr.NC, pr.deck, OFC_EMPTY_OK, &placed) >= 0:
            return -1
        if ofc_has_joker(lay, pr.NC):
            if added != NULL:
                added[0] = 0
            return jokers_alive(pr, lay, pool & pr.deck_mask, nodes)
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
    if not alive and pool & pr.deck_mask & ~ALL_CARDS:    # an unseen joker may save it
        alive = jokers_alive(pr, lay, pool & pr.deck_mask, nodes)
        if alive and added != NULL:
            added[0] = 0
    return alive


cdef bint jokers_witness(const ofc_play *pr, const uint8_t *lay, uint64_t pool,
                         uint8_t *out) noexcept nogil:
    """A legal completion of a layout that jokers_alive finds alive, into
    out: each empty slot in turn takes the lowest pool card that keeps the
    layout alive (so some card always does).  False if none does (the
    layout was dead)."""
    cdef int j
    cdef uint64_t m, bit, placed
    memcpy(out, lay, pr.NC)
    ofc_ids_check(lay, pr.NC, pr.deck, OFC_EMPTY_OK, &placed)
    pool &= pr.deck_mask & ~placed
    for j in range(pr.NC):
        if out[j] != EMPTY:
            continue
        m = pool
        while m:
            bit = m & (~m + 1)
            out[j] = <uint8_t> ctz(m)
            if jokers_alive(pr, out, pool & ~bit, NULL):
                pool &= ~bit
                break
            m &= m - 1
        if not m:
            return False
    return True


# -------------------------------------------------------------- Python entry points
def dead_kernel(PlayRules rules, const uint8_t[:, ::1] layouts, const uint64_t[::1] pools,
                uint8_t[::1] dead, uint8_t[:, ::1] completions, int64_t[::1] nodes,
                Stop stop=None):
    """dead[i] = layout i cannot be completed legally from pools[i]; where it can,
    completions[i] receives a legal completion.  Returns the first bad row or -1.
    Until stop (None: this call's own; the outputs then partly written),
    looked at between layouts.

    Pools must not contain the layout's own cards (checked: returns -2 - i)."""
    cdef Ctx cx
    cdef SProb p
    cdef intptr_t i, n = layouts.shape[0]
    cdef uint64_t placed
    cdef int alive
    cdef intptr_t bad = -1
    cdef ofc_stop S
    if n and (layouts.shape[1] != rules.c.NC or completions.shape[1] != rules.c.NC
              or pools.shape[0] < n or dead.shape[0] < n or completions.shape[0] < n
              or nodes.shape[0] < n):
        raise ValueError("dead_kernel: arrays do not match the layouts")
    ctx_init(&cx, &rules.c)
    if stop is None:
        stop = Stop()
    stop_begin(&S, stop)
    with nogil:
        for i in range(n):
            if ofc_ids_check(&layouts[i, 0], rules.c.NC, rules.c.deck, OFC_EMPTY_OK,
                             &placed) >= 0:
                bad = i
                break
            if placed & pools[i]:
                bad = -2 - i
                break
            cx.nodes = 0
            alive = 0
            if not ofc_has_joker(&layouts[i, 0], rules.c.NC):
                prob_from_layout(&cx, &p, &layouts[i, 0], &placed)
                alive = solve(&cx, &p, pools[i] & ALL_CARDS)
                if alive:
                    prob_to_layout(&cx, &p, &layouts[i, 0], &completions[i, 0])
            nodes[i] = cx.nodes
            if not alive and rules.c.deck > OFC_NATURALS and (
                    ofc_has_joker(&layouts[i, 0], rules.c.NC) or pools[i] & ~ALL_CARDS):
                alive = jokers_alive(&rules.c, &layouts[i, 0], pools[i] & rules.c.deck_mask,
                                     NULL) and jokers_witness(&rules.c, &layouts[i, 0], pools[i],
                                                              &completions[i, 0])
            dead[i] = not alive
            if not alive:
                memcpy(&completions[i, 0], &layouts[i, 0], rules.c.NC)
            if ofc_stop_after(&S, 32 * (1 + nodes[i])):     # a node: some 30 evaluations
                break
    stop_end(&S)
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
