# The turns the hand plays itself (included by _hand.pyx, whose imports and
# state it uses): the time-out placement, the automatic moves of
# docs/rules.md section 9 (only one option, a dead hand, every option
# dead: the dead-hand tests are _search's) and a seat's dead check.  With
# jokers (RULES.md section 12) the pools hold the unseen jokers and the
# search is _search's search_jokers (a joker counts as any card it may
# become); the cheap 52-card tests (search_greedy, search_dead_quick) are
# skipped, the random witnesses (ofc_layout_foul resolves jokers) kept.

cdef void bottom_up_dest(const ofc_hand *h, const int *order, int8_t *dest) noexcept nogil:
    """The dealt cards taken in `order` (positions in the deal): the first
    h.nkeep placed bottom row first, then up; the others discarded."""
    cdef uint8_t room[OFC_MAX_ROWS]
    cdef int i, j, row
    memcpy(room, h.room[h.seat[h.turn]], OFC_MAX_ROWS)
    for j in range(h.ncur):
        i = order[j]
        dest[i] = -1
        if j < h.nkeep:
            for row in range(h.pr.R - 1, -1, -1):
                if room[row]:
                    room[row] -= 1
                    dest[i] = <int8_t> row
                    break


cdef void hand_timeout_dest(const ofc_hand *h, int8_t *dest) noexcept nogil:
    """The time-out placement of the player to act (section 9): the first
    cards dealt are placed, bottom row first, then up; the last ones are
    discarded."""
    cdef int order[OFC_MAX_DEAL]
    cdef int i
    for i in range(h.ncur):
        order[i] = i
    bottom_up_dest(h, order, dest)


cdef inline uint64_t ids_mask(const uint8_t *ids, int n) noexcept nogil:
    """The mask of n card ids (jokers included, no EMPTY)."""
    cdef uint64_t m = 0
    cdef int i
    for i in range(n):
        m |= ofc_card_bit(ids[i])
    return m


cdef inline int solve_layout(ofc_hand *h, const uint8_t *lay, uint64_t pool,
                             uint64_t *added) noexcept nogil:
    """Alive: some completion of lay with pool cards is legal.  added (when
    not NULL) receives what a legal completion adds (0 with jokers: no
    witness is kept).  The cheap test proves a layout dead whatever cards
    complete it (with jokers in jokers_alive: a joker seen as an empty slot)."""
    h.solves += 1
    if h.pr.deck > OFC_NATURALS:       # jokers in the deck (the cheap test first, jokers too)
        if added != NULL:
            added[0] = 0
        return jokers_alive(h.pr, lay, pool, NULL)
    if search_dead_quick(h.pr, lay):
        return 0
    return search_layout(h.pr, lay, pool, added, NULL)


cdef inline int option_alive(ofc_hand *h, const int8_t *dest, uint64_t pool) noexcept nogil:
    cdef uint8_t lay[PLAY_MAX_CARDS]
    hand_after(h, dest, lay, NULL)
    return solve_layout(h, lay, pool, NULL)


cdef enum:
    QUICK_TRIES = 16     # cheap witness tries before the exact search (each: two arrangements)


cdef void sorted_dest(const ofc_hand *h, int8_t *dest) noexcept nogil:
    """The dealt cards by rank, highest first, to the lowest rows with room
    (bottom first); the lowest ones discarded."""
    cdef int order[OFC_MAX_DEAL]
    cdef const uint8_t *cur = hand_cards(h)
    cdef int i, k
    for i in range(h.ncur):
        k = i
        while k > 0 and (cur[order[k - 1]] >> 2) < (cur[i] >> 2):
            order[k] = order[k - 1]
            k -= 1
        order[k] = i
    bottom_up_dest(h, order, dest)


cdef int quick_alive(ofc_hand *h, uint64_t pool) noexcept nogil:
    """1 when one of a few cheap tries finds an option of the player to act
    and a legal completion of its layout with pool cards: a proof that the
    seat is alive and that an option keeps it so (what the searches of
    auto_reason would conclude).  -1 when the seat is dead by the cheap test
    (search_dead_quick, run only once the first try failed: most turns end
    at that try).  0 proves nothing (the searches decide).
    The tries (the time-out placement, the cards by rank to the lowest rows,
    then random options; each completed greedily (search_greedy), then with
    random pool cards, then with the same cards sorted) draw from a stream
    fixed by the state, so a hand's cost is reproducible; no result depends
    on it."""
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef uint8_t lay[PLAY_MAX_CARDS]
    cdef uint8_t emp[PLAY_MAX_CARDS]
    cdef uint8_t gl[PLAY_MAX_CARDS]
    cdef uint8_t u[OFC_DECK]
    cdef int nu = -1, ne, j, k, t
    cdef uint8_t c
    cdef int64_t n = hand_n_moves(h)
    cdef ofc_rng g
    cdef bint jk = h.pr.deck > OFC_NATURALS    # the 52-card tests do not read jokers
    for t in range(QUICK_TRIES):
        if t == 0:
            hand_timeout_dest(h, dest)
        elif t == 1:
            sorted_dest(h, dest)
        else:
            hand_unrank(h, <int64_t> ((ofc_rng_next(&g) >> 11) % <uint64_t> n), dest)
        hand_after(h, dest, lay, NULL)
        memcpy(gl, lay, PLAY_MAX_CARDS)
        # a greedy completion with naturals is a witness with jokers too (using one is a
        # choice); the 52-card tests read layouts without a joker only
        if not (jk and ofc_has_joker(gl, h.pr.NC)) and \
                search_greedy(h.pr, gl, pool & OFC_ALL_CARDS):
            return True
        if nu < 0:       # the first greedy try failed (before any random option)
            if not (jk and ofc_has_joker(h.lay[h.seat[h.turn]], h.pr.NC)) and \
                    search_dead_quick(h.pr, h.lay[h.seat[h.turn]]):
                return -1
            nu = ofc_mask_ids(pool, u)
            ofc_rng_seed(&g, pool, h.deck_pos)
        ne = 0
        for j in range(h.pr.NC):
            if lay[j] == EMPTY:
                emp[ne] = <uint8_t> j
                ne += 1
        if nu < ne:
            return False
        ofc_shuffle_into(&g, u, nu, ne, lay, emp)
        if not ofc_layout_foul(T, h.pr.r, lay):
            return True
        # the same cards sorted: the highest ranks to the lowest rows
        for j in range(1, ne):
            c = u[j]
            k = j
            while k > 0 and (u[k - 1] >> 2) < (c >> 2):
                u[k] = u[k - 1]
                k -= 1
            u[k] = c
        for j in range(ne):
            lay[emp[ne - 1 - j]] = u[j]
        if not ofc_layout_foul(T, h.pr.r, lay):
            return True
    return False


cdef enum:
    FEW_COMPLETIONS = 64    # last-street moves evaluated one by one rather than searched


cdef int auto_reason(ofc_hand *h) noexcept nogil:
    """Why the player to act may be moved automatically (docs/rules.md
    section 9); marks the seat dead when it finds it dead."""
    cdef int p = h.seat[h.turn], i, e = 0, quick
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef uint8_t lay[PLAY_MAX_CARDS]
    cdef uint64_t seen, cm, added = 0
    cdef int64_t k, n = hand_n_moves(h)
    if n == 1:
        return AUTO_ONLY
    if h.dead[p]:
        return AUTO_DEAD
    for i in range(h.pr.R):
        e += h.room[p][i]
    cm = ids_mask(hand_cards(h), h.ncur)
    if e == h.nkeep:
        # this move fills the layout: the moves are exactly the completions from the
        # hand (a few: each evaluated; many: the search)
        if n <= FEW_COMPLETIONS:
            for k in range(n):
                hand_unrank(h, k, dest)
                hand_after(h, dest, lay, NULL)
                if not ofc_layout_foul(T, h.pr.r, lay):
                    return AUTO_NONE
        elif solve_layout(h, h.lay[p], cm, NULL):
            return AUTO_NONE
        h.dead[p] = 1
        return AUTO_ALL_DEAD
    seen = hand_seen(h, p, True)
    quick = quick_alive(h, h.pr.deck_mask & ~seen)
    if quick > 0:
        return AUTO_NONE     # an option with a legal completion: the searches would say so
    if quick < 0:
        h.dead[p] = 1
        return AUTO_DEAD
    if not solve_layout(h, h.lay[p], (h.pr.deck_mask & ~seen) | cm, &added):
        h.dead[p] = 1
        return AUTO_DEAD
    if popc(added & cm) == h.nkeep:
        return AUTO_NONE     # the witness places exactly the kept number of dealt cards
    hand_timeout_dest(h, dest)
    if option_alive(h, dest, h.pr.deck_mask & ~seen):
        return AUTO_NONE
    for k in range(n):
        hand_unrank(h, k, dest)
        if option_alive(h, dest, h.pr.deck_mask & ~seen):
            return AUTO_NONE
    h.dead[p] = 1
    return AUTO_ALL_DEAD


cdef int hand_automatic(ofc_hand *h, int8_t *dest) noexcept nogil:
    """The automatic move of the player to act (the hand not over): its
    reason (AUTO_NONE: none), its destinations in dest."""
    cdef int reason = auto_reason(h)
    if reason == AUTO_ONLY:
        hand_unrank(h, 0, dest)
    elif reason != AUTO_NONE:
        hand_timeout_dest(h, dest)
    return reason


cdef void hand_play_auto(ofc_hand *h) noexcept nogil:
    """Play the turns that need no decision: every turn of a timed-out seat
    (the time-out placement, whatever auto says), and with auto on the
    automatic moves of docs/rules.md section 9.  Called through
    hand_run_auto (_hand.pxd)."""
    cdef int reason
    cdef int8_t dest[OFC_MAX_DEAL]
    while h.turn < h.n_turns:
        if h.timed_out[h.seat[h.turn]]:
            hand_timeout_dest(h, dest)
            hand_apply(h, dest, AUTO_TIMEOUT)
            continue
        if not h.auto:
            return
        reason = hand_automatic(h, dest)
        if reason == AUTO_NONE:
            return
        hand_apply(h, dest, reason)


cdef void hand_mark_timed_out(ofc_hand *h, int p) noexcept nogil:
    """Seat p timed out: its turns are time-out placements for the rest of the hand."""
    if not h.timed_out[p]:
        h.timed_out[p] = 1
        h.tout_seq[h.ntout] = <uint8_t> p
        h.ntout += 1


cdef void hand_timeout(ofc_hand *h) noexcept nogil:
    """The player to act (the hand not over) runs out of time: its time-out
    placements, this turn and every later one, then the others' automatic moves."""
    cdef int8_t dest[OFC_MAX_DEAL]
    hand_mark_timed_out(h, h.seat[h.turn])
    hand_timeout_dest(h, dest)
    hand_apply(h, dest, AUTO_TIMEOUT)
    hand_run_auto(h)


cdef bint hand_is_dead(ofc_hand *h, int p) noexcept nogil:
    """Seat p's layout cannot be completed legally with cards p has not seen
    (dealt cards in hand count as available)."""
    cdef ofc_layout_eval ev
    cdef uint64_t seen = hand_seen(h, p, False)
    cdef int e = 0, i
    if h.dead[p]:
        return True
    if not hand_done(h) and h.seat[h.turn] == p and h.fl_cards[p]:
        return not solve_layout(h, h.lay[p], ids_mask(hand_cards(h), h.ncur), NULL)
    for i in range(h.pr.R):
        e += h.room[p][i]
    if e == 0:
        ofc_eval_layout(T, h.pr.r, h.lay[p], h.fl_count[p], &ev)
        return ev.foul != 0
    if h.fl_cards[p]:
        return False
    return not solve_layout(h, h.lay[p], h.pr.deck_mask & ~seen, NULL)
