# Included by ofc_fast/_rollout.pyx (seeded generator and the rollout kernels); not compiled on its own.

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
    cdef uint64_t seen
    cdef int j
    if ofc_cards_check(lay, nc, OFC_EMPTY_OK, &seen) >= 0:
        return -1
    ne[0] = 0
    for j in range(nc):
        if lay[j] == EMPTY:
            emp[ne[0]] = <uint8_t> j
            ne[0] += 1
    return ofc_mask_ids(ALL_CARDS & ~(seen | dead), u)


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
                   uint8_t[:, ::1] out_fantasy, int tries=1, int fl_bonus=0,
                   intptr_t base=0):
    """Complete each layout n times with random unseen cards (layout i from
    the stream of (seed, base + i): a chunk of a batch passes its start).

    mode 0: stats[i] = (fouls, royalty sum, fantasyland entries, repeats,
    sum of squared royalties); mode 1: out_layouts[i, k] = completion k;
    mode 2: per-completion foul, royalty total and fantasyland cards.
    With tries > 1 each completion draws its cards once and keeps the best of
    `tries` random arrangements of them into the empty slots (royalties plus
    fl_bonus for fantasyland; a foul is worst).
    Returns (first bad layout or -1, first layout with too few unseen cards or -1)."""
    cdef intptr_t i, k, N = layouts.shape[0]
    cdef int j, nu, ne, nc = pr.NC
    cdef uint8_t u[OFC_DECK]
    cdef uint8_t emp[18]
    cdef uint8_t cards[18]
    cdef uint8_t tmp
    cdef uint32_t r
    cdef Rng g
    cdef ofc_layout_eval e
    cdef const ofc_rules *rules = pr.r
    cdef int64_t fouls, roy, fan, rep, sq
    cdef intptr_t bad = -1, short = -1
    if N and (layouts.shape[1] != nc or dead.shape[0] < N or fl.shape[0] < N or n < 0
              or (mode == 0 and (stats.shape[0] < N or stats.shape[1] < 5))
              or (mode == 1 and (out_layouts.shape[0] < N or out_layouts.shape[1] < n
                                 or out_layouts.shape[2] < nc))
              or (mode == 2 and (out_foul.shape[0] < N or out_foul.shape[1] < n
                                 or out_royalty.shape[0] < N or out_royalty.shape[1] < n
                                 or out_fantasy.shape[0] < N or out_fantasy.shape[1] < n))):
        raise ValueError("rollout_kernel: arrays do not match the layouts")
    with nogil:
        for i in range(N):
            nu = unseen_cards(&layouts[i, 0], nc, dead[i], u, emp, &ne)
            if nu < 0:
                bad = i
                break
            if nu < ne:
                short = i
                break
            rng_seed(&g, seed, <uint64_t> (base + i))
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
                      double[:, ::1] out, intptr_t base=0):
    """Score n random completions of each hero layout against completions of the
    opponents' layouts drawn from the same deck (cards never repeat); hero
    row i draws from the stream of (seed, base + i).

    out[i] = (sum of points, sum of squared points, hero fouls, hero royalty
    sum, hero fantasyland entries, opponents' fouls).  Returns (first bad hero
    row or -1, first row whose deck is too small or -1, first bad opponent or -1)."""
    cdef intptr_t i, k, N = hero.shape[0]
    cdef int M = opp.shape[0], j, q, nu, ne, nc = pr.NC, total_e, c
    cdef uint8_t u[OFC_DECK]
    cdef uint8_t emp[18]
    cdef uint8_t oemp[3][18]
    cdef int one[3]
    cdef uint8_t cards[18]
    cdef uint8_t ocards[3][18]
    cdef uint64_t oseen = 0, m = 0
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
    if (M and opp.shape[1] != nc) or fl_opp.shape[0] < M or n < 0 or (N and (
            hero.shape[1] != nc or dead.shape[0] < N or fl_hero.shape[0] < N
            or out.shape[0] < N or out.shape[1] < 6)):
        raise ValueError("rollout_ev_kernel: arrays do not match the layouts")
    for q in range(M):
        if nc and (ofc_cards_check(&opp[q, 0], nc, OFC_EMPTY_OK, &m) >= 0 or m & oseen):
            return -1, -1, q
        oseen |= m
        one[q] = 0
        for j in range(nc):
            ocards[q][j] = opp[q, j]
            if opp[q, j] == EMPTY:
                oemp[q][one[q]] = <uint8_t> j
                one[q] += 1
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
            rng_seed(&g, seed, <uint64_t> (base + i))
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


