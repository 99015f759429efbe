# Included by ofc_fast/_rollout.pyx (move values: every move of one player
# against one set of completion decks); not compiled on its own.
#
# Design
# ------
# * one completion = one deck: completion k draws, from its own stream
#   (xoshiro256** seeded from (seed, k)), a partial Fisher-Yates shuffle of the
#   player's unseen cards, always from the same sorted pool, so completion k is
#   the same deck whatever the chunk, the thread or the other completions;
# * the opponents' empty slots take the first cards of the deck, the hero's
#   the next ones (in slot order of the layout after each move), so every move
#   meets the same opponents' completions and draws the same cards (common
#   random numbers); an opponent's completion is evaluated once per deck;
# * the hero's cards come from one block of the deck per row, so two moves
#   that differ in one card's row deal every row the same other cards;
# * policy "best" (tries > 1): an opponent keeps the best of `tries`
#   arrangements drawn from the deck's stream; the hero's arrangements for
#   every move come from one stream of (seed, k), started afresh per move, so
#   a move's value never depends on which other moves are valued with it;
# * sums per move are int64 (exact, so chunks add up in any order); the
#   caller turns them into means and standard errors.

cdef enum:
    ACC_POINTS = 0       # sum of points
    ACC_POINTS2 = 1      # sum of squared points
    ACC_FOULS = 2
    ACC_ROYALTY = 3
    ACC_FL = 4           # completions earning fantasyland (entry or repeat)
    ACC_FL_POINTS = 5    # sum of points over those
    ACC_X_PP = 6         # sum of points x the reference move's points
    ACC_X_PF = 7         # points x the reference's fantasyland
    ACC_X_FP = 8         # fantasyland x the reference's points
    ACC_X_FF = 9         # fantasyland x the reference's fantasyland
    N_ACC = 10

VALUE_SUMS = N_ACC
"""Columns of the per-move sums :func:`values_kernel` adds into."""

cdef uint64_t ARRANGE_SALT = <uint64_t> 0x6A09E667F3BCC909   # hero arrangement streams


cdef inline void score_move(const ofc_rules *rules, const ofc_layout_eval *eh,
                            const ofc_layout_eval *eo, int Q, int32_t *pts, int *fl) noexcept nogil:
    cdef int q
    cdef int32_t p = 0
    for q in range(Q):
        p += ofc_pair_points(rules, eh, &eo[q])
    pts[0] = p
    fl[0] = eh.fantasyland != 0


cdef inline void deal_deck(Rng *g, uint8_t *u, int nu, int total) noexcept nogil:
    """Partial Fisher-Yates: u[0 .. total - 1] become a uniformly random draw
    of the nu cards, two swaps per 64-bit output (its high and low halves,
    both of full quality in xoshiro256**; bias below nu / 2**32)."""
    cdef int j = 0
    cdef uint64_t x
    cdef uint32_t r
    cdef uint8_t tmp
    while j + 1 < total:
        x = rng_next(g)
        r = j + <uint32_t> (((x >> 32) * <uint64_t> (nu - j)) >> 32)
        tmp = u[j]
        u[j] = u[r]
        u[r] = tmp
        r = j + 1 + <uint32_t> (((<uint64_t> <uint32_t> x) * <uint64_t> (nu - j - 1)) >> 32)
        tmp = u[j + 1]
        u[j + 1] = u[r]
        u[r] = tmp
        j += 2
    if j < total:
        r = j + rng_below(g, nu - j)
        tmp = u[j]
        u[j] = u[r]
        u[r] = tmp


cdef inline void hero_eval(const ofc_rules *rules, const uint8_t *hero, int nc, intptr_t m,
                           const uint8_t *emp, const uint8_t *src, const int *ne,
                           const ofc_layout_eval *fixed, const uint8_t *u, int fl_hero,
                           int tries, int fl_bonus, uint64_t seed, int64_t k,
                           ofc_layout_eval *eh) noexcept nogil:
    """The hero's layout after move m, its j-th empty slot dealt u[src[j]]
    (the best of `tries` arrangements of those cards under policy "best",
    from the stream of (seed, k): the same for every move), evaluated."""
    cdef uint8_t cards[18]
    cdef Rng ga
    cdef int j
    if ne[m] == 0:
        eh[0] = fixed[m]
        return
    memcpy(cards, hero + m * nc, nc)
    for j in range(ne[m]):
        cards[emp[m * 18 + j]] = u[src[m * 18 + j]]
    if tries > 1:
        rng_seed(&ga, seed ^ ARRANGE_SALT, <uint64_t> k)
        best_arrangement(rules, cards, &emp[m * 18], ne[m], fl_hero, tries, fl_bonus, &ga, eh)
    else:
        ofc_eval_layout(T, rules, cards, fl_hero, eh)


def values_kernel(PlayRules pr, const uint8_t[:, ::1] hero, const int32_t[::1] room,
                  const uint8_t[:, ::1] opp, uint64_t pool, int fl_hero,
                  const uint8_t[::1] fl_opp, int64_t k0, int64_t k1, uint64_t seed, int tries,
                  int fl_bonus, intptr_t ref, int64_t[:, ::1] acc):
    """Add, for completions k0 <= k < k1, each move's results into acc.

    hero[m] is the player's layout after move m, room[r] the empty slots of
    row r before the move (no move leaves more), opp the opponents'
    layouts as the player sees them (EMPTY where unknown), pool the mask of
    the cards the player has not seen.  Every layout card must be a distinct
    card outside the pool (the caller checks).  acc[m] receives the
    ``VALUE_SUMS`` sums (``ACC_*`` columns); ref is the row of the reference
    move for the cross sums, or -1.  Returns 0, or -1 when the pool is too
    small for the empty slots."""
    cdef intptr_t M = hero.shape[0], m
    cdef int Q = opp.shape[0], nc = pr.NC, q, j, nu = 0, c, e_opp = 0, e_max = 0, total
    cdef int64_t k
    cdef uint8_t u0[OFC_DECK]
    cdef uint8_t u[OFC_DECK]
    cdef uint8_t oemp[3][18]
    cdef int one[3]
    cdef uint8_t ocards[3][18]
    cdef ofc_layout_eval eo[3]
    cdef Rng g
    cdef ofc_layout_eval eh
    cdef const ofc_rules *rules = pr.r
    cdef uint8_t *emp = NULL
    cdef uint8_t *src = NULL
    cdef int rmax[OFC_MAX_ROWS]
    cdef int rbase[OFC_MAX_ROWS]
    cdef int rcount[OFC_MAX_ROWS]
    cdef int row, e_rows = 0, bad_room = 0
    cdef int *ne = NULL
    cdef ofc_layout_eval *fixed = NULL
    cdef int32_t pts, pref = 0
    cdef int fl, fref = 0
    cdef int64_t *a
    cdef int short = 0
    if Q > 3:
        raise ValueError("at most three opponents")
    if (M and hero.shape[1] != nc) or (Q and opp.shape[1] != nc) or room.shape[0] < pr.R \
            or fl_opp.shape[0] < Q or acc.shape[0] < M or acc.shape[1] < N_ACC \
            or not -1 <= ref < M or k0 < 0 or k1 < k0:
        raise ValueError("values_kernel: arrays do not match the layouts")
    nu = ofc_mask_ids(pool, u0)
    for q in range(Q):
        one[q] = 0
        for j in range(nc):
            ocards[q][j] = opp[q, j]
            if opp[q, j] == EMPTY:
                oemp[q][one[q]] = <uint8_t> j
                one[q] += 1
        e_opp += one[q]
    if M == 0 or k1 == k0:
        return 0
    emp = <uint8_t *> malloc(M * 18)
    src = <uint8_t *> malloc(M * 18)
    ne = <int *> malloc(M * sizeof(int))
    fixed = <ofc_layout_eval *> malloc(M * sizeof(ofc_layout_eval))
    if emp == NULL or src == NULL or ne == NULL or fixed == NULL:
        free(emp)
        free(src)
        free(ne)
        free(fixed)
        raise MemoryError()
    try:
        with nogil:
            for row in range(pr.R):
                rmax[row] = room[row]
            for m in range(M):
                ne[m] = 0
                for row in range(pr.R):
                    rcount[row] = 0
                    for j in range(pr.row_off[row], pr.row_off[row] + pr.row_len[row]):
                        if hero[m, j] == EMPTY:
                            emp[m * 18 + ne[m]] = <uint8_t> j
                            src[m * 18 + ne[m]] = <uint8_t> rcount[row]   # its place in the row
                            ne[m] += 1
                            rcount[row] += 1
                    if rcount[row] > rmax[row]:
                        bad_room = 1
                if ne[m] > e_max:
                    e_max = ne[m]
                if ne[m] == 0:      # complete after the move: evaluated once
                    ofc_eval_layout(T, rules, &hero[m, 0], fl_hero, &fixed[m])
            # The hero's cards come from one block of the deck per row (as many
            # as the row had empty slots before the move), so a move that
            # sends a card elsewhere leaves every row's other cards as they
            # were; when the deck is too small for the blocks, from one block
            # in slot order.  Either way by the position alone, never by
            # which moves are valued.
            for row in range(pr.R):
                rbase[row] = e_opp + e_rows
                e_rows += rmax[row]
            if bad_room:
                k1 = k0
            elif e_opp + e_rows <= nu:
                total = e_opp + e_rows
                for m in range(M):
                    j = 0          # emp lists the empty slots row by row
                    for row in range(pr.R):
                        for c in range(pr.row_off[row], pr.row_off[row] + pr.row_len[row]):
                            if hero[m, c] == EMPTY:
                                src[m * 18 + j] = <uint8_t> (rbase[row] + src[m * 18 + j])
                                j += 1
            else:
                total = e_opp + e_max
                for m in range(M):
                    for j in range(ne[m]):
                        src[m * 18 + j] = <uint8_t> (e_opp + j)
            if total > nu:
                short = 1
                k1 = k0
            for k in range(k0, k1):
                rng_seed(&g, seed, <uint64_t> k)
                memcpy(u, u0, nu)
                deal_deck(&g, u, nu, total)
                c = 0
                for q in range(Q):
                    for j in range(one[q]):
                        ocards[q][oemp[q][j]] = u[c]
                        c += 1
                    if one[q] == 0:
                        if k == k0:      # a finished layout: evaluated once
                            ofc_eval_layout(T, rules, ocards[q], fl_opp[q], &eo[q])
                    elif tries > 1:
                        best_arrangement(rules, ocards[q], oemp[q], one[q], fl_opp[q], tries,
                                         fl_bonus, &g, &eo[q])
                    else:
                        ofc_eval_layout(T, rules, ocards[q], fl_opp[q], &eo[q])
                if ref >= 0:         # the reference first: its results feed the cross sums
                    hero_eval(rules, &hero[0, 0], nc, ref, emp, src, ne, fixed, u, fl_hero,
                              tries, fl_bonus, seed, k, &eh)
                    score_move(rules, &eh, eo, Q, &pref, &fref)
                for m in range(M):
                    hero_eval(rules, &hero[0, 0], nc, m, emp, src, ne, fixed, u, fl_hero,
                              tries, fl_bonus, seed, k, &eh)
                    score_move(rules, &eh, eo, Q, &pts, &fl)
                    a = &acc[m, 0]
                    a[ACC_POINTS] += pts
                    a[ACC_POINTS2] += <int64_t> pts * pts
                    a[ACC_FOULS] += eh.foul
                    a[ACC_ROYALTY] += eh.royalty_total
                    a[ACC_FL] += fl
                    a[ACC_FL_POINTS] += fl * pts
                    a[ACC_X_PP] += <int64_t> pts * pref
                    a[ACC_X_PF] += pts * fref
                    a[ACC_X_FP] += fl * pref
                    a[ACC_X_FF] += fl * fref
    finally:
        free(emp)
        free(src)
        free(ne)
        free(fixed)
    if bad_room:
        raise ValueError("values_kernel: a move leaves more empty slots in a row than room gives")
    return -1 if short else 0
