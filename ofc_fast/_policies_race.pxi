# The racing heuristic (included by _policies.pyx, whose imports and helpers
# it uses): the moves valued on common samples and raced by successive
# halving (raced_move).

cdef enum:
    ARR_BLOCK = 64       # arrangements of a sample the race evaluates per pass

# The race's schedule (see raced_move)
# (tuned on 2-player Pineapple, defaults: 0.98 ms a 3-player hand, -0.16 +- 0.27
# points a hand head to head against the exhaustive heuristic; a screen of
# samples / 3 with 1 arrangement, keeping 15%, lost 0.9 points a hand)
cdef enum:
    RACE_SCREEN_MIN = 40        # more candidates: a screening round first
    RACE_SCREEN_DIV = 4         # its samples: samples / 4, SCREEN_TRIES arrangements each
    RACE_FIRST_DIV = 4          # the first full round: samples / 4 (at least 1)
    RACE_MULT = 2               # the survivors get up to RACE_MULT x samples
    RACE_SCREEN_TRIES = 2       # arrangements per screening sample
cdef double RACE_SCREEN_KEEP = 0.2   # the screen keeps this fraction (at least SCREEN_MIN / 2)


cdef void draw_decks(policy_work *W, int64_t k1) noexcept nogil:
    """Draw the race's sample decks up to k1 (W.scap >= k1): deck k is the
    first ne cards of a shuffle of the sorted unseen cards by the stream
    (seed, k), whose state after the deal draws that sample's arrangements."""
    cdef uint8_t u[OFC_CARD_IDS]
    cdef int64_t k
    for k in range(W.ndecks, k1):
        ofc_rng_seed(&W.streams[k], W.seed, <uint64_t> k)
        memcpy(u, W.u0, W.nu)
        ofc_shuffle_prefix(&W.streams[k], u, W.nu, W.ne)
        memcpy(W.decks + k * PLAY_MAX_CARDS, u, W.ne)
    if k1 > W.ndecks:
        W.ndecks = k1


cdef inline uint64_t top_term(uint8_t c, int pos) noexcept nogil:
    """Card c at position pos (0 .. 2) of a top: its term of the strength3
    index (ofc_top_index is linear in each rank, so the terms add up)."""
    cdef int r = c >> 2
    return <uint64_t> (ofc_top_index(r, 0, 0) if pos == 0 else
                       ofc_top_index(0, r, 0) if pos == 1 else ofc_top_index(0, 0, r))


cdef inline uint16_t row_strength(int row, uint64_t key) noexcept nogil:
    """The joint strength of a full row from its additive key (row_key)."""
    if row == 0:
        return T.joint3[T.strength3[key]]
    return ofc_row5_key(T, key)


cdef int race_shapes(const ofc_play *C, policy_work *W, int64_t m) noexcept nogil:
    """The race's per-move data of the m candidates W.cand (their layouts in
    W.lays): each row's placed cards as an additive key (the top: strength3
    index terms, placed cards first; a 5-card row: OFC_SUIT_BIAS plus the card
    keys), the strength of complete rows, and the shape (empty slots per
    row; W.shapes).  0, or -1 when out of memory."""
    cdef int64_t c
    cdef int r, j, n, sh, ne
    cdef uint8_t e[OFC_MAX_ROWS]
    cdef const uint8_t *lay
    cdef race_cand *x
    cdef race_shape *q
    W.nshapes = 0
    W.chain = foul_chain(C.r)
    for c in range(m):
        x = &W.cand[c]
        lay = W.lays + x.c * PLAY_MAX_CARDS
        x.joker = 0
        for r in range(C.R):
            e[r] = 0
            n = 0
            x.key[r] = 0 if r == 0 else OFC_SUIT_BIAS
            for j in range(C.row_off[r], C.row_off[r] + C.row_len[r]):
                if lay[j] == EMPTY:
                    e[r] += 1
                elif lay[j] >= OFC_JOKER:
                    x.joker = 1         # its keys are not read (race_eval_jokers)
                elif r == 0:
                    x.key[r] += top_term(lay[j], n)
                    n += 1
                else:
                    x.key[r] += T.key[lay[j]]
            x.st[r] = row_strength(r, x.key[r]) if e[r] == 0 and not x.joker else 0
        for sh in range(W.nshapes):
            if memcmp(W.shapes[sh].e, e, C.R) == 0:
                break
        else:
            if W.nshapes == W.shcap:
                if regrow(<void **> &W.shapes, (2 * W.shcap + 16) * sizeof(race_shape)):
                    return -1
                W.shcap = 2 * W.shcap + 16
            sh = W.nshapes
            W.nshapes += 1
            q = &W.shapes[sh]
            memset(q, 0, sizeof(race_shape))
            q.ways = 1
            ne = 0
            for r in range(C.R):
                q.e[r] = e[r]
                q.first[r] = <uint8_t> ne
                for j in range(e[r]):
                    ne += 1
                    q.ways = q.ways * ne // (j + 1)   # ne! / prod(e!), exact at each step
        x.shape = sh
    return 0


# The race sorts its candidates (by shape, by value) a few times a decision:
# keys of two words sorted by an inlined merge sort, then the candidates
# moved once (qsort called a comparator through a pointer and moved the
# 100-byte candidates at each step: a fifth of a light heuristic's time).
cdef enum:
    SORT_BY_SHAPE = 0                # shape, then position
    SORT_BY_VALUE = 1                # value descending, then position


cdef inline bint key_before(const cand_key *a, const cand_key *b) noexcept nogil:
    return a.hi < b.hi or (a.hi == b.hi and a.lo < b.lo)


cdef inline uint64_t descending(double v) noexcept nogil:
    """A key that sorts doubles (not NaN) from the largest up (0.0 and -0.0 alike)."""
    cdef uint64_t u
    if v == 0.0:
        v = 0.0
    memcpy(&u, &v, 8)
    u = ~u if u >> 63 else u | (<uint64_t> 1 << 63)     # ascending order of v ...
    return ~u                                          # ... reversed


cdef void sort_cands(policy_work *W, int64_t n, int by) noexcept nogil:
    """Sort W.cand[0 .. n) (SORT_BY_SHAPE or SORT_BY_VALUE; every key ends
    with the position, so the order is total and as qsort gave it)."""
    cdef cand_key *a = W.keys
    cdef cand_key *b = W.keys + n
    cdef cand_key *t
    cdef cand_key x
    cdef int64_t i, k, width, lo, mid, hi, p, q
    if n < 2:
        return
    for i in range(n):
        a[i].hi = <uint64_t> W.cand[i].shape if by == SORT_BY_SHAPE else descending(W.cand[i].v)
        a[i].lo = <uint64_t> W.cand[i].c
        a[i].j = i
    # runs of 16 by insertion, then merged in pairs
    for lo in range(0, n, 16):
        hi = lo + 16 if lo + 16 < n else n
        for i in range(lo + 1, hi):
            x = a[i]
            k = i
            while k > lo and key_before(&x, &a[k - 1]):
                a[k] = a[k - 1]
                k -= 1
            a[k] = x
    width = 16
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width if lo + width < n else n
            hi = lo + 2 * width if lo + 2 * width < n else n
            p, q, k = lo, mid, lo
            while p < mid and q < hi:
                if key_before(&a[q], &a[p]):
                    b[k] = a[q]
                    q += 1
                else:
                    b[k] = a[p]
                    p += 1
                k += 1
            while p < mid:
                b[k] = a[p]
                p += 1
                k += 1
            while q < hi:
                b[k] = a[q]
                q += 1
                k += 1
            lo += 2 * width
        t = a
        a = b
        b = t
        width *= 2
    for i in range(n):
        W.cand2[i] = W.cand[a[i].j]
    memcpy(W.cand, W.cand2, n * sizeof(race_cand))


cdef int foul_chain(const ofc_rules *ru) noexcept nogil:
    """The row pairs the foul order compares, as ofc_eval_layouts_rows
    (src/ofc_rules.h) codes them: bit j for rows j > j + 1, bit 3 for 0 > 2."""
    cdef int k, chain = 0, prev = -1
    for k in range(ru.n_rows):
        if not ru.in_chain[k]:
            continue
        if prev >= 0:
            chain |= 1 << prev if k == prev + 1 else 1 << 3
        prev = k
    return chain


cdef inline int32_t race_rank(const policy_params *pol, bint foul, int32_t royalty,
                              bint entry) noexcept nogil:
    """An arrangement's rank: best_arrangement's order (arrangement_rank)."""
    return arrangement_rank(foul, royalty, entry, pol.fl_bonus)


cdef void race_eval_jokers(const ofc_play *C, const policy_params *pol, policy_work *W,
                           const race_shape *q, race_cand *x, const uint8_t *ords,
                           int na) noexcept nogil:
    """race_eval for one candidate where a joker is on its layout or among
    the sample's cards: each arrangement's layout (the shape's row r takes
    ords[a][first[r] ..], PLAY_MAX_CARDS per arrangement) scored as the rules
    resolve its jokers (ofc_eval_layout), ranked and valued alike (race_rank, layout_value)."""
    cdef uint8_t cards[PLAY_MAX_CARDS]
    cdef const uint8_t *lay = W.lays + x.c * PLAY_MAX_CARDS
    cdef const uint8_t *o
    cdef ofc_layout_eval e
    cdef int a, r, i, n
    cdef int32_t rank
    for a in range(na):
        o = ords + a * PLAY_MAX_CARDS
        for r in range(C.R):
            n = q.first[r]
            for i in range(C.row_off[r], C.row_off[r] + C.row_len[r]):
                if lay[i] == EMPTY:
                    cards[i] = o[n]
                    n += 1
                else:
                    cards[i] = lay[i]
        ofc_eval_layout(T, C.r, cards, 0, &e)
        rank = race_rank(pol, e.foul, e.royalty_total, e.fantasyland != 0)
        if rank > x.brank:
            x.brank = rank
            x.bval = layout_value(pol, &e)


cdef void race_eval(const ofc_play *C, const policy_params *pol, policy_work *W,
                    const race_shape *q, const uint64_t *fk, const uint8_t *ords, bint jokers,
                    int na) noexcept nogil:
    """The candidates of shape q (W.cand[q.lo .. q.hi)) meet na arrangements
    of a sample's cards (fk: their additive keys, OFC_MAX_ROWS per
    arrangement): each keeps its first best (best_arrangement's order: a foul
    last, then royalties plus fl_bonus for fantasyland).  The rules from the
    rows' strengths as the batch evaluator of src/ofc_rules.h applies them
    (fl_count 0): one packed word per row, their sum carrying royalties,
    invalid rows and fantasyland entry points; the foul chain by row pairs.
    A candidate holding a joker, or every one when the sample's cards hold
    one (jokers), is scored through the cards instead (ords: each
    arrangement's cards in the shape's row order; race_eval_jokers)."""
    cdef const ofc_rules *ru = C.r
    cdef const uint8_t *cls = &ru.cls[0]
    cdef const uint64_t *f
    cdef race_cand *x
    cdef int64_t j
    cdef int a, order, foul, entry, R = C.R, chain = W.chain
    cdef bint open0 = q.e[0] > 0, open1 = q.e[1] > 0, open2 = q.e[2] > 0
    cdef bint open3 = R == 4 and q.e[3] > 0
    cdef int s0, s1, s2, s3 = 0
    cdef int32_t rank, br
    cdef uint64_t sm
    cdef double bv
    for j in range(q.lo, q.hi):
        x = &W.cand[j]
        if jokers or x.joker:
            race_eval_jokers(C, pol, W, q, x, ords, na)
            continue
        br = x.brank
        bv = x.bval
        for a in range(na):
            f = fk + a * OFC_MAX_ROWS
            s0 = T.joint3[T.strength3[x.key[0] + f[0]]] if open0 else x.st[0]
            s1 = ofc_row5_key(T, x.key[1] + f[1]) if open1 else x.st[1]
            s2 = ofc_row5_key(T, x.key[2] + f[2]) if open2 else x.st[2]
            sm = ru.word[0][cls[s0]] + ru.word[1][cls[s1]] + ru.word[2][cls[s2]]
            order = (s0 > s1) | (s1 > s2) << 1 | (s0 > s2) << 3
            if R == 4:
                s3 = ofc_row5_key(T, x.key[3] + f[3]) if open3 else x.st[3]
                sm += ru.word[3][cls[s3]]
                order |= (s2 > s3) << 2
            foul = (order & chain) != 0 or ((sm >> 16) & 0xff) != 0
            entry = ru.entry_cards[(sm >> 24) & 0xff] != 0
            rank = race_rank(pol, foul, <int32_t> (sm & 0xffff), entry)
            if rank > br:
                br = rank
                bv = outcome_value(pol, foul, <int32_t> (sm & 0xffff), entry)
        x.brank = br
        x.bval = bv


cdef inline void arrangement_keys(const ofc_play *C, const race_shape *q, const uint8_t *cards,
                                  const uint8_t *lab, uint64_t *fk) noexcept nogil:
    """The additive keys per row of the ne cards of an arrangement: card i to
    row lab[i] (lab NULL: the shape's rows in order, q.e[r] cards each)."""
    cdef int i, r, ne = 0
    cdef int pos[OFC_MAX_ROWS]
    for r in range(C.R):
        fk[r] = 0
        pos[r] = 3 - q.e[0] if r == 0 else 0      # a top's free positions follow its cards
        ne += q.e[r]
    r = 0
    for i in range(ne):
        if lab != NULL:
            r = lab[i]
        else:
            while i >= q.first[r] + q.e[r]:
                r += 1
        if r == 0:
            fk[0] += top_term(cards[i], pos[0])
            pos[0] += 1
        else:
            fk[r] += T.key[cards[i]]


cdef void race_round(const ofc_play *C, const policy_params *pol, policy_work *W, int64_t alive,
                     int k0, int k1, int tries) noexcept nogil:
    """Add samples k0 .. k1 - 1 to the values of the candidates W.cand[0 ..
    alive) (and set their live flags).  Sample k deals the race's deck k into
    a move's empty slots and keeps the best of tries arrangements drawn from a
    copy of stream k, as best_arrangement does (the deck in slot order first,
    then successive shuffles of the empty slots): the arrangements of the
    sample are the same for every move, so the moves of one shape share
    them (their keys are computed once).  A shape with at most tries distinct
    arrangements (at most ARR_BLOCK: late streets) meets every one of them
    instead, the best of which best_arrangement finds but for a small chance."""
    cdef uint8_t arr[ARR_BLOCK][PLAY_MAX_CARDS]
    cdef uint64_t pre[ARR_BLOCK][PLAY_MAX_CARDS + 1]   # prefix sums of the card keys
    cdef uint64_t top[ARR_BLOCK][4]                    # the first i cards as a top's last i
    cdef uint64_t fk[ARR_BLOCK * OFC_MAX_ROWS]
    cdef uint8_t lab[PLAY_MAX_CARDS]
    cdef uint8_t ords[ARR_BLOCK][PLAY_MAX_CARDS]      # an arrangement's cards, row by row
    cdef const uint8_t *deck
    cdef int64_t j
    cdef int k, t, nb, b, i, r, sh, na, n, ne = W.ne
    cdef uint8_t tmp
    cdef bint rand, jokers
    cdef ofc_rng g
    cdef const race_shape *q
    if k1 > W.ndecks:
        draw_decks(W, k1)
    sort_cands(W, alive, SORT_BY_SHAPE)
    for sh in range(W.nshapes):
        W.shapes[sh].lo = 0
        W.shapes[sh].hi = 0
    for j in range(alive - 1, -1, -1):
        W.shapes[W.cand[j].shape].lo = j
    for j in range(alive):
        W.shapes[W.cand[j].shape].hi = j + 1
    for k in range(k0, k1):
        deck = W.decks + k * PLAY_MAX_CARDS
        rand = False
        jokers = False
        for i in range(ne):
            jokers |= deck[i] >= OFC_JOKER
        for j in range(alive):
            W.cand[j].brank = -2000000000
        for sh in range(W.nshapes):
            q = &W.shapes[sh]
            if q.lo == q.hi:
                continue
            if q.ways > tries or q.ways > ARR_BLOCK:
                rand = True
                continue
            # every distinct arrangement: the multiset permutations of the rows
            na = 0
            i = 0
            for r in range(C.R):
                memset(lab + i, r, q.e[r])
                i += q.e[r]
            while True:
                arrangement_keys(C, q, deck, lab, fk + na * OFC_MAX_ROWS)
                if W.jokers:
                    n = 0
                    for r in range(C.R):
                        for i in range(ne):
                            if lab[i] == r:
                                ords[na][n] = deck[i]
                                n += 1
                na += 1
                i = ne - 2
                while i >= 0 and lab[i] >= lab[i + 1]:
                    i -= 1
                if i < 0:
                    break
                b = ne - 1
                while lab[b] <= lab[i]:
                    b -= 1
                tmp = lab[i]
                lab[i] = lab[b]
                lab[b] = tmp
                i += 1
                b = ne - 1
                while i < b:
                    tmp = lab[i]
                    lab[i] = lab[b]
                    lab[b] = tmp
                    i += 1
                    b -= 1
            race_eval(C, pol, W, q, fk, &ords[0][0], jokers, na)
        if rand:
            g = W.streams[k]
            memcpy(arr[0], deck, ne)
            t = 0
            while t < tries:
                nb = tries - t if tries - t < ARR_BLOCK else ARR_BLOCK
                for b in range(nb):
                    if b > 0:
                        memcpy(arr[b], arr[b - 1], ne)
                    if t + b > 0:                  # best_arrangement's shuffle
                        for i in range(ne - 1):
                            r = i + <int> ofc_rng_below(&g, ne - i)
                            tmp = arr[b][i]
                            arr[b][i] = arr[b][r]
                            arr[b][r] = tmp
                    # the keys of every shape's rows from prefix sums: a shape's
                    # row r takes the cards first[r] .. first[r] + e[r] - 1 (the
                    # top's first, at its free positions 3 - e[0] ..)
                    pre[b][0] = 0
                    for i in range(ne):
                        pre[b][i + 1] = pre[b][i] + T.key[arr[b][i]]
                    for i in range(1, 4):
                        top[b][i] = 0
                        for r in range(i if i < ne else ne):
                            top[b][i] += top_term(arr[b][r], 3 - i + r)
                for sh in range(W.nshapes):
                    q = &W.shapes[sh]
                    if q.lo < q.hi and (q.ways > tries or q.ways > ARR_BLOCK):
                        for b in range(nb):
                            fk[b * OFC_MAX_ROWS] = top[b][q.e[0]]
                            for r in range(1, C.R):
                                fk[b * OFC_MAX_ROWS + r] = pre[b][q.first[r] + q.e[r]] \
                                    - pre[b][q.first[r]]
                        race_eval(C, pol, W, q, fk, &arr[0][0], jokers, nb)
                t += nb
                memcpy(arr[0], arr[nb - 1], ne)
        for j in range(alive):
            W.cand[j].v += W.cand[j].bval
            if W.cand[j].brank > ARRANGEMENT_FOUL:
                W.cand[j].live = 1


cdef int64_t raced_move(const ofc_hand *h, ofc_rng *g, const ofc_play *C,
                        const policy_params *pol, policy_work *W, int64_t m, uint64_t pool,
                        const uint8_t *u0, int nu) noexcept nogil:
    """The racing heuristic's move among the m candidates W.idx (index in the
    move list), or -1 when out of memory.

    The moves race on common random numbers: sample decks of unseen cards with
    their arrangement streams, drawn once per decision and the same for every
    move (race_round).  With more than RACE_SCREEN_MIN moves, a screening
    round first values every move by samples / RACE_SCREEN_DIV samples of
    RACE_SCREEN_TRIES arrangements each and keeps the best RACE_SCREEN_KEEP
    of them.  Then successive halving: every move left gets samples /
    RACE_FIRST_DIV samples of the full model (the best of tries
    arrangements); each round keeps the better half of the moves and doubles
    the samples of the survivors, up to RACE_MULT x samples, until one move
    is left; the best survivor plays (ties at random).

    Moves that leave the hand dead are dropped after the first round, exactly:
    a move with a sample that does not foul is alive (the witness), the others
    go through search_layout.  When every move is dead, one at random plays
    (as the exhaustive heuristic, which values them all alike)."""
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef int64_t c, j, w, alive, keep
    cdef int t, t1, ne = 0, S = pol.samples, tries1
    cdef int64_t smax = <int64_t> S * RACE_MULT
    cdef uint8_t *lay
    cdef bint screen = m > RACE_SCREEN_MIN
    cdef ofc_layout_eval e
    for c in range(m):
        lay = W.lays + c * PLAY_MAX_CARDS
        hand_unrank(h, W.idx[c], dest)
        hand_after(h, dest, lay, NULL)
        W.cand[c].tie = draw_unit(g) * 1e-6
        W.cand[c].v = W.cand[c].tie
        W.cand[c].c = c
        W.cand[c].live = 0
    for j in range(C.NC):
        ne += W.lays[j] == EMPTY
    t1 = S // RACE_FIRST_DIV if S >= RACE_FIRST_DIV else 1
    tries1 = pol.tries
    if screen:
        t1 = S // RACE_SCREEN_DIV if S >= RACE_SCREEN_DIV else 1
        tries1 = RACE_SCREEN_TRIES
    W.jokers = C.r.jokers > 0
    if ne == 0:                         # complete layouts: exact values, dead when fouled
        for j in range(m):
            ofc_eval_layout(T, C.r, W.lays + W.cand[j].c * PLAY_MAX_CARDS, 0, &e)
            W.cand[j].v += layout_value(pol, &e)
            W.cand[j].live = not e.foul
    elif nu >= ne:                      # (nu < ne: not in a legal deal)
        if grow_samples(W, smax if smax > t1 else t1) or race_shapes(C, W, m):
            return -1
        W.ndecks = 0
        W.seed = ofc_rng_next(g)
        W.u0 = u0
        W.nu = nu
        W.ne = ne
        race_round(C, pol, W, m, 0, t1, tries1)
    w = 0
    for j in range(m):                  # the dead moves dropped
        if W.cand[j].live or search_layout(C, W.lays + W.cand[j].c * PLAY_MAX_CARDS, pool,
                                           NULL, NULL):
            W.cand[w] = W.cand[j]
            w += 1
    alive = w
    if alive == 0:
        return W.idx[draw_below(g, m)]
    if ne > 0 and nu >= ne:
        t = t1
        if screen:                      # keep the best of the screen, value them afresh
            sort_cands(W, alive, SORT_BY_VALUE)
            keep = <int64_t> (alive * RACE_SCREEN_KEEP + 0.999999)
            if keep < RACE_SCREEN_MIN // 2:
                keep = RACE_SCREEN_MIN // 2
            if keep < alive:
                alive = keep
            for j in range(alive):
                W.cand[j].v = W.cand[j].tie
            t = 0
            t1 = S // RACE_FIRST_DIV if S >= RACE_FIRST_DIV else 1
            race_round(C, pol, W, alive, 0, t1, pol.tries)
            t = t1
        while t < smax and alive > 1:
            sort_cands(W, alive, SORT_BY_VALUE)
            alive = (alive + 1) // 2
            t1 = 2 * t if 2 * t < smax else <int> smax
            race_round(C, pol, W, alive, t, t1, pol.tries)
            t = t1
    c = 0
    for j in range(1, alive):
        if W.cand[j].v > W.cand[c].v:
            c = j
    return W.idx[W.cand[c].c]
