# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
# cython: initializedcheck=False
"""Sampling kernels: random rollouts of partial layouts and the values of a
player's moves on common completion decks.

* ``rollout_kernel`` completes layouts with random unseen cards (stats, the
  layouts, or per-completion results); ``rollout_ev_kernel`` scores hero
  completions against the opponents' drawn from the same deck;
* ``values_kernel`` (move values) adds, per move of the player to act, exact
  int64 sums over completion decks;
* the random streams are ``src/ofc_rng.h``'s (``_rng.pxd``): stream ``i`` of a
  seed is the same whatever the chunk or the thread; ``unseen_cards`` and
  ``best_arrangement`` (the best-of-``tries`` completion model) are exported
  in ``_rollout.pxd`` for other kernels that play hands;
* every loop stops early when its call's ``Stop`` is set or, in the main
  thread, a signal handler raised (``_stop.pxd``: ``ofc_stop_after``, the
  cost of each completion counted in layout evaluations); the kernel then
  returns what it has (``KeyboardInterrupt`` raised in the main thread), and
  the caller discards it.

Everything works on card ids and card masks (``_cards.pxd``); rows are
evaluated by ``ofc_eval_layout``/``ofc_pair_points`` of ``src/ofc_rules.h``;
nothing allocates a Python object per completion.

Move values
-----------
Design
------
* one completion = one deck: completion k draws, from its own stream
  (xoshiro256** seeded from (seed, k)), a partial Fisher-Yates shuffle of the
  player's unseen cards, always from the same sorted pool, so completion k is
  the same deck whatever the chunk, the thread or the other completions;
* the opponents' empty slots take the first cards of the deck, the hero's
  the next ones (in slot order of the layout after each move), so every move
  meets the same opponents' completions and draws the same cards (common
  random numbers); an opponent's completion is evaluated once per deck;
* the hero's cards come from one block of the deck per row, so two moves
  that differ in one card's row deal every row the same other cards;
* policy "best" (tries > 1): an opponent keeps the best of `tries`
  arrangements drawn from the deck's stream; the hero's arrangements for
  every move come from one stream of (seed, k), started afresh per move, so
  a move's value never depends on which other moves are valued with it;
* sums per move are int64 (exact, so chunks add up in any order); the
  caller turns them into means and standard errors.
"""
from libc.stdint cimport int16_t, int32_t, int64_t, intptr_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from ofc_fast._cards cimport (OFC_CARD_IDS, OFC_EMPTY as EMPTY, OFC_EMPTY_OK, ofc_ids_check,
                              ofc_mask_card_ids)
from ofc_fast._eval cimport ofc_tables, tables
from ofc_fast._layout cimport OFC_MAX_ROWS, ofc_eval_layout, ofc_pair_points
from ofc_fast._play cimport PlayRules, ofc_play
from ofc_fast._rng cimport (ofc_deal_prefix, ofc_rng_below, ofc_rng_seed, ofc_shuffle_into,
                            ofc_shuffle_prefix)
from ofc_fast._stop cimport Stop, ofc_stop, ofc_stop_after, stop_begin, stop_end

cdef const ofc_tables *T = tables()


# ---------------------------------------------------------------------- rollouts
cdef inline int empty_slots(const uint8_t *lay, int nc, uint8_t *emp) noexcept nogil:
    """The positions of the EMPTY slots of a layout into emp; returns how many."""
    cdef int j, n = 0
    for j in range(nc):
        if lay[j] == EMPTY:
            emp[n] = <uint8_t> j
            n += 1
    return n


cdef int unseen_cards(const ofc_play *pc, const uint8_t *lay, uint64_t dead, uint8_t *u,
                      uint8_t *emp, int *ne) noexcept nogil:
    """Unseen cards of the variant's deck (naturals and its jokers: not in the
    layout, not dead) into u (room for OFC_CARD_IDS); empty slots into emp.
    Returns the number of unseen cards, or -1 on a layout card the deck does
    not hold or one given twice.  Dead cards that are also in the layout are
    simply not unseen."""
    cdef uint64_t seen
    if ofc_ids_check(lay, pc.NC, pc.deck, OFC_EMPTY_OK, &seen) >= 0:
        return -1
    ne[0] = empty_slots(lay, pc.NC, emp)
    return ofc_mask_card_ids(pc.deck_mask & ~(seen | dead), u)


cdef inline int32_t arrangement_value(const ofc_layout_eval *e, int fl_bonus) noexcept nogil:
    return arrangement_rank(e.foul, e.royalty_total, e.fantasyland != 0, fl_bonus)


cdef void best_arrangement(const ofc_rules *rules, uint8_t *cards, const uint8_t *emp, int ne,
                           int fl, int tries, int fl_bonus, ofc_rng *g,
                           ofc_layout_eval *best) noexcept nogil:
    """Rearrange the cards in the empty slots: keep the best of `tries` random
    orders (the first is the order dealt).  cards ends as the best layout."""
    cdef uint8_t keep[18]
    cdef uint8_t tmp
    cdef ofc_layout_eval e
    cdef int _t, j, r
    cdef int32_t v, bv
    ofc_eval_layout(T, rules, cards, fl, best)
    bv = arrangement_value(best, fl_bonus)
    memcpy(keep, cards, 18)
    for _t in range(1, tries):
        for j in range(ne - 1):
            r = j + ofc_rng_below(g, ne - j)
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
                   uint8_t[:, ::1] out_fantasy, int tries=1, int fl_bonus=0,
                   intptr_t base=0, Stop stop=None):
    """Complete each layout n times with random unseen cards (layout i from
    the stream of (seed, base + i): a chunk of a batch passes its start),
    until stop (None: this call's own; the outputs then partly written).

    mode 0: stats[i] = (fouls, royalty sum, fantasyland entries, repeats,
    sum of squared royalties); mode 1: out_layouts[i, k] = completion k;
    mode 2: per-completion foul, royalty total and fantasyland cards.
    With tries > 1 each completion draws its cards once and keeps the best of
    `tries` random arrangements of them into the empty slots (royalties plus
    fl_bonus for fantasyland; a foul is worst).
    Returns (first bad layout or -1, first layout with too few unseen cards or -1)."""
    cdef intptr_t i, k, N = layouts.shape[0]
    cdef int nu, ne, nc = pr.c.NC
    cdef uint8_t u[OFC_CARD_IDS]
    cdef uint8_t emp[18]
    cdef uint8_t cards[18]
    cdef ofc_rng g
    cdef ofc_layout_eval e
    cdef const ofc_rules *rules = pr.c.r
    cdef int64_t fouls, roy, fan, rep, sq
    cdef intptr_t bad = -1, short = -1
    cdef ofc_stop S
    cdef bint stopped = False
    if N and (layouts.shape[1] != nc or dead.shape[0] < N or fl.shape[0] < N or n < 0
              or (mode == 0 and (stats.shape[0] < N or stats.shape[1] < 5))
              or (mode == 1 and (out_layouts.shape[0] < N or out_layouts.shape[1] < n
                                 or out_layouts.shape[2] < nc))
              or (mode == 2 and (out_foul.shape[0] < N or out_foul.shape[1] < n
                                 or out_royalty.shape[0] < N or out_royalty.shape[1] < n
                                 or out_fantasy.shape[0] < N or out_fantasy.shape[1] < n))):
        raise ValueError("rollout_kernel: arrays do not match the layouts")
    if stop is None:
        stop = Stop()
    stop_begin(&S, stop)
    with nogil:
        for i in range(N):
            if ofc_stop_after(&S, 1):
                break
            nu = unseen_cards(&pr.c, &layouts[i, 0], dead[i], u, emp, &ne)
            if nu < 0:
                bad = i
                break
            if nu < ne:
                short = i
                break
            ofc_rng_seed(&g, seed, <uint64_t> (base + i))
            memcpy(cards, &layouts[i, 0], nc)
            fouls = roy = fan = rep = sq = 0
            for k in range(n):
                if ofc_stop_after(&S, tries):
                    stopped = True
                    break
                ofc_shuffle_into(&g, u, nu, ne, cards, emp)
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
            if stopped:
                break
            if mode == 0:
                stats[i, 0] = fouls
                stats[i, 1] = roy
                stats[i, 2] = fan
                stats[i, 3] = rep
                stats[i, 4] = sq
    stop_end(&S)
    return bad, short


def rollout_ev_kernel(PlayRules pr, const uint8_t[:, ::1] hero, const uint8_t[:, ::1] opp,
                      const uint64_t[::1] dead, const uint8_t[::1] fl_hero,
                      const uint8_t[::1] fl_opp, intptr_t n, uint64_t seed,
                      double[:, ::1] out, intptr_t base=0, Stop stop=None):
    """Score n random completions of each hero layout against completions of the
    opponents' layouts drawn from the same deck (cards never repeat); hero
    row i draws from the stream of (seed, base + i); until stop (None: this
    call's own; out then partly written).

    out[i] = (sum of points, sum of squared points, hero fouls, hero royalty
    sum, hero fantasyland entries, opponents' fouls).  Returns (first bad hero
    row or -1, first row whose deck is too small or -1, first bad opponent or -1)."""
    cdef intptr_t i, _k, N = hero.shape[0]
    cdef int M = opp.shape[0], j, q, nu, ne, nc = pr.c.NC, total_e, c
    cdef uint8_t u[OFC_CARD_IDS]
    cdef uint8_t emp[18]
    cdef uint8_t oemp[3][18]
    cdef int one[3]
    cdef uint8_t cards[18]
    cdef uint8_t ocards[3][18]
    cdef uint64_t oseen = 0, m = 0
    cdef ofc_rng g
    cdef ofc_layout_eval eh
    cdef ofc_layout_eval eo[3]
    cdef const ofc_rules *rules = pr.c.r
    cdef double s, s2, fouls, roy, fan, ofouls
    cdef int32_t pts
    cdef intptr_t bad = -1, short = -1, badopp = -1
    cdef ofc_stop S
    cdef bint stopped = False
    if M > 3:
        raise ValueError("at most three opponents")
    if (M and opp.shape[1] != nc) or fl_opp.shape[0] < M or n < 0 or (N and (
            hero.shape[1] != nc or dead.shape[0] < N or fl_hero.shape[0] < N
            or out.shape[0] < N or out.shape[1] < 6)):
        raise ValueError("rollout_ev_kernel: arrays do not match the layouts")
    for q in range(M):
        if nc and (ofc_ids_check(&opp[q, 0], nc, pr.c.deck, OFC_EMPTY_OK, &m) >= 0 or m & oseen):
            return -1, -1, q
        oseen |= m
        memcpy(ocards[q], &opp[q, 0], nc)
        one[q] = empty_slots(&opp[q, 0], nc, oemp[q])
    if stop is None:
        stop = Stop()
    stop_begin(&S, stop)
    with nogil:
        for i in range(N):
            if ofc_stop_after(&S, 1):
                break
            nu = unseen_cards(&pr.c, &hero[i, 0], dead[i] | oseen, u, emp, &ne)
            if nu < 0:
                bad = i
                break
            total_e = ne
            for q in range(M):
                total_e += one[q]
            if nu < total_e:
                short = i
                break
            ofc_rng_seed(&g, seed, <uint64_t> (base + i))
            memcpy(cards, &hero[i, 0], nc)
            s = s2 = fouls = roy = fan = ofouls = 0
            for _k in range(n):
                if ofc_stop_after(&S, 1 + M):
                    stopped = True
                    break
                # one partial shuffle deals every empty slot at the table
                ofc_shuffle_prefix(&g, u, nu, total_e)
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
            if stopped:
                break
            out[i, 0] = s
            out[i, 1] = s2
            out[i, 2] = fouls
            out[i, 3] = roy
            out[i, 4] = fan
            out[i, 5] = ofouls
    stop_end(&S)
    return bad, short, badopp


# ------------------------------------------------------------------- move values
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


cdef inline void hero_eval(const ofc_rules *rules, const uint8_t *hero, int nc, int64_t m,
                           const uint8_t *emp, const uint8_t *src, const int *ne,
                           const ofc_layout_eval *fixed, const uint8_t *u, int fl_hero,
                           int tries, int fl_bonus, uint64_t seed, int64_t k,
                           ofc_layout_eval *eh) noexcept nogil:
    """The hero's layout after move m, its j-th empty slot dealt u[src[j]]
    (the best of `tries` arrangements of those cards under policy "best",
    from the stream of (seed, k): the same for every move), evaluated."""
    cdef uint8_t cards[18]
    cdef ofc_rng ga
    cdef int j
    if ne[m] == 0:
        eh[0] = fixed[m]
        return
    memcpy(cards, hero + m * nc, nc)
    for j in range(ne[m]):
        cards[emp[m * 18 + j]] = u[src[m * 18 + j]]
    if tries > 1:
        ofc_rng_seed(&ga, seed ^ ARRANGE_SALT, <uint64_t> k)
        best_arrangement(rules, cards, &emp[m * 18], ne[m], fl_hero, tries, fl_bonus, &ga, eh)
    else:
        ofc_eval_layout(T, rules, cards, fl_hero, eh)


cdef void values_scratch_init(values_scratch *ws) noexcept nogil:
    """An empty scratch (grown by values_sums)."""
    ws.emp = NULL
    ws.src = NULL
    ws.ne = NULL
    ws.fixed = NULL
    ws.cap = 0


cdef void values_scratch_free(values_scratch *ws) noexcept nogil:
    """Free a scratch's buffers (it is empty again)."""
    free(ws.emp)
    free(ws.src)
    free(ws.ne)
    free(ws.fixed)
    values_scratch_init(ws)


cdef bint values_scratch_grow(values_scratch *ws, int64_t M) noexcept nogil:
    """Room for M moves; False when out of memory (the scratch is then empty)."""
    if M <= ws.cap:
        return True
    values_scratch_free(ws)
    ws.emp = <uint8_t *> malloc(M * 18)
    ws.src = <uint8_t *> malloc(M * 18)
    ws.ne = <int *> malloc(M * sizeof(int))
    ws.fixed = <ofc_layout_eval *> malloc(M * sizeof(ofc_layout_eval))
    if ws.emp == NULL or ws.src == NULL or ws.ne == NULL or ws.fixed == NULL:
        values_scratch_free(ws)
        return False
    ws.cap = M
    return True


cdef int values_sums(const ofc_play *pc, const uint8_t *hero, int64_t M, const int32_t *room,
                     const uint8_t *opp, int Q, uint64_t pool, int fl_hero,
                     const uint8_t *fl_opp, int64_t k0, int64_t k1, uint64_t seed, int tries,
                     int fl_bonus, int64_t ref, int64_t *acc, values_scratch *ws,
                     ofc_stop *S) noexcept nogil:
    """Add, for completions k0 <= k < k1, each move's sums into acc (M rows of
    N_ACC): the core of values_kernel (see there), trusting its input: hero
    holds M layouts of pc.NC cards (the player's after each move), room the
    empty slots per row before the move, opp Q <= 3 layouts as the player
    sees them, ref a row of hero or -1.  Returns VALUES_OK, VALUES_SHORT (the
    pool is smaller than the empty slots: nothing added), VALUES_BAD_ROOM (a
    move leaves more empty slots in a row than room gives: nothing added),
    VALUES_NO_MEMORY, or VALUES_STOPPED when S (NULL: never) says stop
    before the last completion (acc then holds the sums of some completions)."""
    cdef int64_t m, k
    cdef int nc = pc.NC, q, j, nu = 0, c, e_opp = 0, e_max = 0, total = 0
    cdef uint8_t u0[OFC_CARD_IDS]
    cdef uint8_t u[OFC_CARD_IDS]
    cdef uint8_t oemp[3][18]
    cdef int one[3]
    cdef uint8_t ocards[3][18]
    cdef ofc_layout_eval eo[3]
    cdef ofc_rng g
    cdef ofc_layout_eval eh, ehr
    cdef const ofc_rules *rules = pc.r
    cdef uint8_t *emp
    cdef uint8_t *src
    cdef int rbase[OFC_MAX_ROWS]
    cdef int rcount[OFC_MAX_ROWS]
    cdef int row, e_rows = 0
    cdef int *ne
    cdef ofc_layout_eval *fixed
    cdef int32_t pts, pref = 0
    cdef int fl, fref = 0
    cdef int64_t *a
    cdef int64_t cost = (M + Q) * (tries if tries > 1 else 1)   # evaluations a completion
    nu = ofc_mask_card_ids(pool & pc.deck_mask, u0)
    for q in range(Q):
        memcpy(ocards[q], opp + q * nc, nc)
        one[q] = empty_slots(opp + q * nc, nc, oemp[q])
        e_opp += one[q]
    if M == 0 or k1 <= k0:
        return VALUES_OK
    if not values_scratch_grow(ws, M):
        return VALUES_NO_MEMORY
    emp = ws.emp
    src = ws.src
    ne = ws.ne
    fixed = ws.fixed
    for m in range(M):
        ne[m] = 0
        for row in range(pc.R):
            rcount[row] = 0
            for j in range(pc.row_off[row], pc.row_off[row] + pc.row_len[row]):
                if hero[m * nc + j] == EMPTY:
                    emp[m * 18 + ne[m]] = <uint8_t> j
                    src[m * 18 + ne[m]] = <uint8_t> rcount[row]   # its place in the row
                    ne[m] += 1
                    rcount[row] += 1
            if rcount[row] > room[row]:
                return VALUES_BAD_ROOM
        if ne[m] > e_max:
            e_max = ne[m]
        if ne[m] == 0:      # complete after the move: evaluated once
            ofc_eval_layout(T, rules, hero + m * nc, fl_hero, &fixed[m])
    # The hero's cards come from one block of the deck per row (as many as
    # the row had empty slots before the move), so a move that sends a card
    # elsewhere leaves every row's other cards as they were; when the deck is
    # too small for the blocks, from one block in slot order.  Either way by
    # the position alone, never by which moves are valued.
    for row in range(pc.R):
        rbase[row] = e_opp + e_rows
        e_rows += room[row]
    if e_opp + e_rows <= nu:
        total = e_opp + e_rows
        for m in range(M):
            j = 0          # emp lists the empty slots row by row
            for row in range(pc.R):
                for c in range(pc.row_off[row], pc.row_off[row] + pc.row_len[row]):
                    if hero[m * nc + c] == EMPTY:
                        src[m * 18 + j] = <uint8_t> (rbase[row] + src[m * 18 + j])
                        j += 1
    else:
        total = e_opp + e_max
        for m in range(M):
            for j in range(ne[m]):
                src[m * 18 + j] = <uint8_t> (e_opp + j)
    if total > nu:
        return VALUES_SHORT
    for k in range(k0, k1):
        if S != NULL and ofc_stop_after(S, cost):
            return VALUES_STOPPED
        ofc_rng_seed(&g, seed, <uint64_t> k)
        memcpy(u, u0, nu)
        ofc_deal_prefix(&g, u, nu, total)
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
            hero_eval(rules, hero, nc, ref, emp, src, ne, fixed, u, fl_hero,
                      tries, fl_bonus, seed, k, &ehr)
            score_move(rules, &ehr, eo, Q, &pref, &fref)
        for m in range(M):
            if m == ref:     # the same stream, so the same results: not twice
                eh = ehr
                pts = pref
                fl = fref
            else:
                hero_eval(rules, hero, nc, m, emp, src, ne, fixed, u, fl_hero,
                          tries, fl_bonus, seed, k, &eh)
                score_move(rules, &eh, eo, Q, &pts, &fl)
            a = &acc[m * N_ACC]
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
    return VALUES_OK


def values_kernel(PlayRules pr, const uint8_t[:, ::1] hero, const int32_t[::1] room,
                  const uint8_t[:, ::1] opp, uint64_t pool, int fl_hero,
                  const uint8_t[::1] fl_opp, int64_t k0, int64_t k1, uint64_t seed, int tries,
                  int fl_bonus, intptr_t ref, int64_t[:, ::1] acc, Stop stop=None):
    """Add, for completions k0 <= k < k1, each move's results into acc, until
    stop (None: this call's own; acc then holds some completions' sums).

    hero[m] is the player's layout after move m, room[r] the empty slots of
    row r before the move (no move leaves more), opp the opponents'
    layouts as the player sees them (EMPTY where unknown), pool the mask of
    the cards the player has not seen.  Every layout card must be a distinct
    card outside the pool (the caller checks).  acc[m] receives the
    ``VALUE_SUMS`` sums (``ACC_*`` columns); ref is the row of the reference
    move for the cross sums, or -1.  Returns 0, or -1 when the pool is too
    small for the empty slots.  The loops are ``values_sums`` (``_rollout.pxd``),
    which the solver's decisions (``_solver``) share."""
    cdef intptr_t M = hero.shape[0]
    cdef int Q = opp.shape[0], row, st
    cdef int32_t rooms[OFC_MAX_ROWS]
    cdef values_scratch ws
    cdef ofc_stop S
    if Q > 3:
        raise ValueError("at most three opponents")
    if (M and hero.shape[1] != pr.c.NC) or (Q and opp.shape[1] != pr.c.NC) \
            or room.shape[0] < pr.c.R or fl_opp.shape[0] < Q or acc.shape[0] < M \
            or acc.shape[1] != N_ACC or not -1 <= ref < M or k0 < 0 or k1 < k0:
        raise ValueError("values_kernel: arrays do not match the layouts")
    if M == 0 or k1 == k0:
        return 0
    for row in range(pr.c.R):
        rooms[row] = room[row]
    if stop is None:
        stop = Stop()
    stop_begin(&S, stop)
    values_scratch_init(&ws)
    with nogil:
        st = values_sums(&pr.c, &hero[0, 0], M, rooms, &opp[0, 0] if Q else NULL, Q, pool,
                         fl_hero, &fl_opp[0] if Q else NULL, k0, k1, seed, tries, fl_bonus,
                         ref, &acc[0, 0], &ws, &S)
        values_scratch_free(&ws)
    stop_end(&S)
    if st == VALUES_NO_MEMORY:
        raise MemoryError()
    if st == VALUES_BAD_ROOM:
        raise ValueError("values_kernel: a move leaves more empty slots in a row than room gives")
    return -1 if st == VALUES_SHORT else 0
