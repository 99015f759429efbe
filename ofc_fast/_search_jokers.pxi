# The dead-hand search with jokers (included by _search.pyx, whose search it
# drives): RULES.md section 12, "dead-hand checks ... count the joker as the
# cards it may become".  A layout that is alive is one whose empty slots can
# be filled with pool cards (unseen naturals and unseen jokers) so that some
# substitution of every joker avoids a foul.
#
# Exact by reduction to the 52-card search (solve): every joker is a "wild"
# slot of its row, and each wild's card is enumerated:
# * the unseen jokers go to a row with room, or stay unused (they are
#   interchangeable for a foul: multisets of rows);
# * a wild of row r may be any natural its row does not hold (joker_cards
#   "row"; two wilds of a row differ), or any natural not on the board
#   (joker_cards "board": the wilds differ, and the natural itself is then
#   never placed);
# * a wild's card c that is also an unseen natural either stays unplaced
#   (c leaves the pool), or (joker_cards "row" only) is placed as a natural
#   in another row with room that does not hold it (a joker may stand for a
#   card of another row): each final board is one branch;
# then solve() fills the other empty slots from the pool.  The rows of the
# search hold cards by row, so a card in two rows (a wild and a natural) is
# what the rules allow, never a card twice in one row.

cdef enum:
    JK_MAX_WILDS = 2     # a deck holds two jokers at most


cdef struct JSearch:
    Ctx *cx
    int nw                      # wilds (placed jokers, then unseen jokers placed)
    int wrow[JK_MAX_WILDS]      # the row of each
    bint board                  # joker_cards "board"


cdef inline bint row_holds(const SRow *w, int c) noexcept nogil:
    cdef int i
    for i in range(w.n):
        if w.c[i] == c:
            return True
    return False


cdef inline void row_add(SRow *w, int c) noexcept nogil:
    w.c[w.n] = <uint8_t> c
    w.n += 1
    if w.n == w.size:
        w.s = eval_row(w)


cdef int jk_wilds(JSearch *J, const SProb *p, int k, uint64_t pool) noexcept nogil:
    """Alive when the wilds k .. nw - 1 take cards (each final board once)
    and solve() completes the rest from pool: 1 alive, 0 dead."""
    cdef SProb q
    cdef SProb q2
    cdef int c, r, r2, i, pending
    cdef uint64_t bit
    cdef bint taken
    if k == J.nw:
        q = p[0]
        return solve(J.cx, &q, pool)
    r = J.wrow[k]
    for c in range(OFC_NATURALS - 1, -1, -1):    # strongest first: the canonical order
        bit = (<uint64_t> 1) << c
        if J.board:                # not on the board (fixed, wild or placed)
            taken = False
            for i in range(J.cx.R):
                taken = taken or row_holds(&p.row[i], c)
            if taken:
                continue
        elif row_holds(&p.row[r], c):
            continue
        q = p[0]
        row_add(&q.row[r], c)
        if not (pool & bit):       # a card seen (or already placed): the wild alone
            if jk_wilds(J, &q, k + 1, pool):
                return 1
            continue
        if jk_wilds(J, &q, k + 1, pool & ~bit):       # the natural stays unplaced
            return 1
        if J.board:
            continue
        for r2 in range(J.cx.R):                      # the natural in another row
            pending = 0                               # its slots the later wilds hold
            for i in range(k + 1, J.nw):
                pending += J.wrow[i] == r2
            if r2 == r or q.row[r2].n + pending >= q.row[r2].size or row_holds(&q.row[r2], c):
                continue
            q2 = q
            row_add(&q2.row[r2], c)
            if jk_wilds(J, &q2, k + 1, pool & ~bit):
                return 1
    return 0


cdef int search_jokers(const ofc_play *pr, const uint8_t *lay, uint64_t pool,
                       int64_t *nodes) noexcept nogil:
    """Can the partial layout lay (naturals, jokers, EMPTY; validated) be
    completed legally with cards of pool (naturals and jokers; its own cards
    are taken out), a joker counting as any card it may become?  1 alive,
    0 dead (RULES.md section 12; exact: see the top of this file)."""
    cdef Ctx cx
    cdef SProb p
    cdef JSearch J
    cdef int i, j, c, r1, r2, nfix
    cdef int free[4]
    cdef int alive = 0, unseen_jokers
    cdef uint64_t placed = 0, nat
    ctx_init(&cx, pr)
    J.cx = &cx
    J.nw = 0
    J.board = pr.r.joker_board != 0
    for i in range(cx.R):
        p.row[i].n = 0
        p.row[i].size = cx.row_len[i]
        p.row[i].s = 0
        for j in range(cx.row_len[i]):
            c = lay[cx.row_off[i] + j]
            if c == EMPTY:
                continue
            placed |= (<uint64_t> 1) << c
            if c >= OFC_NATURALS:
                J.wrow[J.nw] = i          # a placed joker: a wild of its row
                J.nw += 1
            else:
                p.row[i].c[p.row[i].n] = <uint8_t> c
                p.row[i].n += 1
    for i in range(cx.R):
        nfix = p.row[i].n
        for j in range(J.nw):
            nfix += J.wrow[j] == i
        free[i] = p.row[i].size - nfix
        if p.row[i].n == p.row[i].size:
            p.row[i].s = eval_row(&p.row[i])
    pool &= ~placed
    nat = pool & ALL_CARDS
    unseen_jokers = popc(pool & ~ALL_CARDS)
    nfix = J.nw
    # the unseen jokers unused, then one in each row with room, then two
    alive = jk_wilds(&J, &p, 0, nat)
    for r1 in range(cx.R if unseen_jokers >= 1 else 0):
        if alive:
            break
        if free[r1] < 1:
            continue
        J.nw = nfix + 1
        J.wrow[nfix] = r1
        alive = jk_wilds(&J, &p, 0, nat)
        for r2 in range(r1, cx.R if unseen_jokers >= 2 else 0):
            if alive or free[r2] < (2 if r2 == r1 else 1):
                continue
            J.nw = nfix + 2
            J.wrow[nfix + 1] = r2
            alive = jk_wilds(&J, &p, 0, nat)
    if nodes != NULL:
        nodes[0] += cx.nodes
    return alive


def dead_jokers_one(PlayRules rules, const uint8_t[::1] layout, uint64_t pool):
    """1 if one partial layout (naturals, the variant's jokers, EMPTY) is
    dead with this pool (naturals and jokers; its own cards removed), a joker
    counting as any card it may become; 0 if not; -1 for a malformed layout
    (a card the deck does not hold, or twice)."""
    cdef int alive, j
    cdef uint64_t seen = 0
    if layout.shape[0] != rules.c.NC:
        return -1
    for j in range(rules.c.NC):
        if layout[j] == EMPTY:
            continue
        if layout[j] >= rules.c.deck or (seen >> layout[j]) & 1:
            return -1
        seen |= (<uint64_t> 1) << layout[j]
    with nogil:
        alive = search_jokers(&rules.c, &layout[0], pool & rules.c.deck_mask, NULL)
    return 0 if alive else 1
