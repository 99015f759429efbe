# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
# cython: initializedcheck=False
"""Exact fantasyland solver: the best placement of 13-19 cards dealt at once.

Design
------
* per item, C: row strengths come from the primitives of ``src/ofc_eval.h``
  (``ofc_row5_key`` on incrementally summed keys, ``ofc_strength3``) and
  row rules from those of ``src/ofc_rules.h`` (``ofc_row_rule_at``,
  ``ofc_row_key``, ``ofc_repeat_allowed``); the finished layout is scored by
  ``ofc_eval_layout``; bit helpers come from ``src/ofc_compat.h``;
* loops: ``_solve_many`` runs the branch and bound below over a batch of
  hands without the GIL, with one set of scratch arrays;
* Python: ``solve_into`` checks the arrays; ``ofc_fast.fantasyland`` holds
  the API (see ``docs/fantasyland.md`` for the algorithm and the tie-break).

Outline (one hand of k cards, k <= 24):

1. Sort the cards by id, highest first; a card is then known by its position
   0 .. k-1 and a set of cards by a bit mask of positions.
2. Evaluate every 5-card subset (C(k, 5)) and every 3-card subset once (joint
   strength), and sort each list by strength, strongest first (stable, so
   equal strengths keep the lexicographic order of their positions).
3. Branch and bound over the 5-card rows from the bottom up (bottom, middle;
   four rows: bottom, second, third), then the top.  A row in the foul chain
   takes candidates no stronger than the chained row below it; a lowball
   middle (not in the chain) takes valid 2-7 lows, best first.  Each level
   prunes with suffix maxima of royalties and repeat points of the rows still
   to fill (disjointness ignored, so the bound is admissible).  Candidates
   holding a used card are skipped 64 at a time with per-card bit sets over
   the sorted lists (built lazily, a word at a time).  The top is looked up
   directly among the triples of the cards left when at most five are left.
4. The value of a layout is its royalty total plus ``repeat_value`` if it
   earns a repeat.  Ties go to the stronger rows (head-to-head key, bottom
   first, top last), then to the first layout in the enumeration order, which
   is the one whose rows (bottom first) hold the highest card ids.
"""
from libc.math cimport INFINITY
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int16_t, int32_t, intptr_t

from ofc_fast._cards cimport OFC_JOKER
from ofc_fast._compat cimport ofc_ctz64
from ofc_fast._eval cimport (OFC_MAX_DEAL, OFC_SUIT_BIAS, ofc_bad_ids, ofc_jcand, ofc_jlist,
                             ofc_ms_index, ofc_row5_key, ofc_strength3, ofc_tables, tables)
from ofc_fast._layout cimport (OFC_JOKER_STRENGTH, CompiledRules, ofc_eval_layout, ofc_layout_eval,
                               ofc_row_rule,
                               ofc_repeat_allowed, ofc_row_key, ofc_row_rule_at, ofc_rules,
                               ofc_top_class)


cdef enum:
    MAXK = OFC_MAX_DEAL  # cards per hand (position masks are 32-bit: at most 32)
    MAXLEV = 3           # 5-card rows
    NEG = -(1 << 24)     # royalty of "no candidate"
    NOCAP = 7918         # cap of the bottom: above every strength (OFC_SCALE)
    NOUP = 0xFFFF        # "no stronger completion" of a subset: above every cap

cdef double NEG_VALUE = -1e300   # value of "no layout yet"

MAX_CARDS = MAXK


cdef struct Level:
    int row, chained, n
    int32_t *roy          # per candidate (chained: sorted 5-subset index; free: list index)
    int32_t *rep
    uint8_t *valid
    int32_t *sufroy       # suffix maxima over valid candidates, n + 1 entries
    int32_t *sufrep
    const uint32_t *mask  # chained levels: the sorted 5-subsets; free levels: own list
    const uint16_t *key
    uint32_t *own_mask
    uint16_t *own_key


cdef struct Solver:
    const ofc_tables *t
    ofc_rules *r
    int k, n5, n3, nlev, thr, use_rep, top_chained
    double rv, rv_pos, V
    uint8_t cards[MAXK]
    # jokers (docs/fantasyland.md, "Jokers"): a subset holding one is a
    # candidate per completion (its strength the completion's); case_a: the
    # rules resolve every row to its best completion no stronger than the row
    # below, so a subset is taken at that completion only (up: the strength
    # of its next stronger completion); otherwise every completion is tried
    # and a leaf with a joker is scored exactly (exact)
    int nj, njmax, case_a, exact, fl_count, base_few_left
    uint32_t jmask               # positions of the jokers (the highest ids: first)
    uint16_t *rup5
    uint16_t *up5
    uint8_t *rlast5              # the weakest completion of its subset (or a natural subset)
    uint16_t *rup3
    uint16_t *up3
    uint8_t *rtc3                # the top's rule class of a triple (joker_top_natural)
    # drop_weak: a 5-card subset enters at its strongest completion only (three
    # rows that pay no less when stronger: a middle below its strongest
    # completion loses to the layout with the bottom and middle swapped;
    # docs/fantasyland.md, "Jokers")
    int drop_weak
    uint8_t layout[24]
    # 5-card subsets: raw (lexicographic) and sorted by strength (strongest first)
    uint32_t *rmask5
    uint16_t *rs5
    int32_t *perm
    int32_t *tmp
    int32_t *idx
    uint32_t *mask5
    uint16_t *s5
    int32_t *gs5          # first sorted index of the same strength
    int32_t *tcap         # first sorted triple no stronger than s5[i]
    # 3-card subsets, sorted
    uint32_t *rmask3
    uint16_t *rs3
    uint32_t *mask3
    uint16_t *s3
    int32_t *troy
    int32_t *trep
    uint8_t *tvalid
    int32_t *tsufroy
    int32_t *tsufrep
    # per card position: bit i set when sorted subset i holds the card
    int w5, w3, few_left  # few_left: at most 5 cards left for the top (direct triples)
    int32_t *tri_raw      # (a * k + b) * k + c -> lexicographic index of triple a < b < c
    int32_t *rank3        # lexicographic triple index -> sorted index
    uint64_t *bits5       # k x w5 words, built a word at a time when first needed
    uint64_t *bits3       # k x w3 words
    uint8_t *built5       # per word: bits5 built for this hand
    uint8_t *built3
    Level lev[MAXLEV + 2]   # (+2: slack that keeps gcc's recursive inlining quiet)
    void *ptrs[64]
    int nptrs, oom
    int cur_key[MAXLEV + 2]
    int best_key[MAXLEV + 2]
    int cur_pick[MAXLEV + 2]
    int best_pick[MAXLEV + 2]


cdef inline int _choose(int n, int r) noexcept nogil:
    cdef long long v = 1
    cdef int i
    if r < 0 or r > n:
        return 0
    for i in range(r):
        v = v * (n - i) // (i + 1)
    return <int> v


cdef void *_get(Solver *st, size_t nbytes) noexcept nogil:
    """malloc a scratch array and remember it for _free (NULL when out of memory)."""
    cdef void *p = NULL
    if st.nptrs < 64:
        p = malloc(nbytes + 16)
    if p == NULL:
        st.oom = 1
    else:
        st.ptrs[st.nptrs] = p
        st.nptrs += 1
    return p


cdef size_t _entries(int k, int njmax, int size) noexcept nogil:
    """Most candidates of one size a hand of k cards with up to njmax jokers
    has: each subset holding j jokers counts its longest list of completions."""
    cdef size_t most = 0, n
    cdef int nj, j
    cdef int longest[2][3]
    longest[0][0] = longest[1][0] = 1
    longest[0][1], longest[0][2] = 22, 136        # 5 cards: one joker, two
    longest[1][1], longest[1][2] = 13, 91         # 3 cards
    for nj in range(njmax + 1):
        n = 0
        for j in range(nj + 1):
            n += <size_t> _choose(nj, j) * _choose(k - nj, size - j) * longest[size == 3][j]
        most = n if n > most else most
    return most


cdef int _alloc(Solver *st, int k) noexcept nogil:
    """Allocate the scratch arrays for hands of k cards (and up to st.njmax
    jokers); 0 on success."""
    cdef int j
    cdef size_t n, m
    st.k = k
    st.n5 = <int> _entries(k, st.njmax, 5)
    st.n3 = <int> _entries(k, st.njmax, 3)
    n = st.n5 + 2
    m = st.n3 + 2
    st.rup5 = <uint16_t *> _get(st, n * 2)
    st.up5 = <uint16_t *> _get(st, n * 2)
    st.rlast5 = <uint8_t *> _get(st, n)
    st.rup3 = <uint16_t *> _get(st, m * 2)
    st.up3 = <uint16_t *> _get(st, m * 2)
    st.rtc3 = <uint8_t *> _get(st, m)
    st.rmask5 = <uint32_t *> _get(st, n * 4)
    st.mask5 = <uint32_t *> _get(st, n * 4)
    st.perm = <int32_t *> _get(st, n * 4)
    st.tmp = <int32_t *> _get(st, n * 4)
    st.idx = <int32_t *> _get(st, n * 4)
    st.gs5 = <int32_t *> _get(st, n * 4)
    st.tcap = <int32_t *> _get(st, n * 4)
    st.rs5 = <uint16_t *> _get(st, n * 2)
    st.s5 = <uint16_t *> _get(st, n * 2)
    st.rmask3 = <uint32_t *> _get(st, m * 4)
    st.mask3 = <uint32_t *> _get(st, m * 4)
    st.rs3 = <uint16_t *> _get(st, m * 2)
    st.s3 = <uint16_t *> _get(st, m * 2)
    st.troy = <int32_t *> _get(st, m * 4)
    st.trep = <int32_t *> _get(st, m * 4)
    st.tvalid = <uint8_t *> _get(st, m)
    st.tsufroy = <int32_t *> _get(st, m * 4)
    st.tsufrep = <int32_t *> _get(st, m * 4)
    st.base_few_left = k - 5 * st.nlev <= 5
    st.tri_raw = <int32_t *> _get(st, <size_t> k * k * k * 4)
    st.rank3 = <int32_t *> _get(st, m * 4)
    st.w5 = (st.n5 + 63) >> 6
    st.w3 = (st.n3 + 63) >> 6
    st.bits5 = <uint64_t *> _get(st, <size_t> k * st.w5 * 8)
    st.bits3 = <uint64_t *> _get(st, <size_t> k * st.w3 * 8)
    st.built5 = <uint8_t *> _get(st, st.w5)
    st.built3 = <uint8_t *> _get(st, st.w3)
    for j in range(st.nlev):
        st.lev[j].roy = <int32_t *> _get(st, n * 4)
        st.lev[j].rep = <int32_t *> _get(st, n * 4)
        st.lev[j].valid = <uint8_t *> _get(st, n)
        st.lev[j].sufroy = <int32_t *> _get(st, n * 4)
        st.lev[j].sufrep = <int32_t *> _get(st, n * 4)
        st.lev[j].own_mask = <uint32_t *> _get(st, n * 4)
        st.lev[j].own_key = <uint16_t *> _get(st, n * 2)
    if st.oom:
        return -1
    cdef int a, b, c, i = 0
    for a in range(k):
        for b in range(a + 1, k):
            for c in range(b + 1, k):
                st.tri_raw[(a * k + b) * k + c] = i
                i += 1
    return 0


cdef void _free(Solver *st) noexcept nogil:
    cdef int i
    for i in range(st.nptrs):
        free(st.ptrs[i])
    st.nptrs = 0


cdef void _radix_desc(const uint16_t *key, const int32_t *src, int n, int32_t *out,
                      int32_t *tmp) noexcept nogil:
    """Stable sort of the indices src[0..n) by key[src[i]] descending (keys < 8192)."""
    cdef int cnt[128]
    cdef int i, d, acc, v
    for i in range(128):
        cnt[i] = 0
    for i in range(n):
        cnt[(8191 - key[src[i]]) & 127] += 1
    acc = 0
    for i in range(128):
        v = cnt[i]
        cnt[i] = acc
        acc += v
    for i in range(n):
        d = (8191 - key[src[i]]) & 127
        tmp[cnt[d]] = src[i]
        cnt[d] += 1
    for i in range(64):
        cnt[i] = 0
    for i in range(n):
        cnt[(8191 - key[tmp[i]]) >> 7] += 1
    acc = 0
    for i in range(64):
        v = cnt[i]
        cnt[i] = acc
        acc += v
    for i in range(n):
        d = (8191 - key[tmp[i]]) >> 7
        out[cnt[d]] = tmp[i]
        cnt[d] += 1


cdef inline int _imax(int a, int b) noexcept nogil:
    return a if a > b else b


cdef int _completions(Solver *st, const int *pos, int size, int n) noexcept nogil:
    """The candidates of a subset holding a joker (positions pos[0 .. size),
    ascending; the jokers are the first positions): one per completion of its
    naturals (src/ofc_eval.h), strongest first, appended at raw index n.
    Returns the new count."""
    cdef const ofc_tables *t = st.t
    cdef int q, jm = 0, nat = 0, suits = 0, ranks = 0, idx
    cdef int rk[5]
    cdef uint32_t mask = 0
    cdef const ofc_jlist *lst
    cdef const ofc_jcand *e
    for q in range(size):
        mask |= 1u << pos[q]
        jm += pos[q] < st.nj
    for q in range(size - 1, jm - 1, -1):      # highest position first: ranks ascending
        rk[nat] = st.cards[pos[q]] >> 2
        suits |= 1 << (st.cards[pos[q]] & 3)
        ranks |= 1 << rk[nat]
        nat += 1
    idx = ofc_ms_index(t, rk, nat)
    if size == 5:
        lst = &t.jl5[jm - 1][idx][(suits & (suits - 1)) == 0]
    else:
        lst = &t.jl3[jm - 1][idx]
    for q in range(<int> lst.n):
        e = &t.jc[lst.off + q]
        if size == 5 and q > 0 and st.drop_weak:
            break
        if size == 5:
            st.rs5[n] = e.s
            st.rmask5[n] = mask
            st.rup5[n] = NOUP if q == 0 else t.jc[lst.off + q - 1].s
            st.rlast5[n] = q == <int> lst.n - 1
        else:
            st.rs3[n] = e.s
            st.rmask3[n] = mask
            st.rup3[n] = NOUP if q == 0 else t.jc[lst.off + q - 1].s
            st.rtc3[n] = <uint8_t> ofc_top_class(t, st.r, e.s, ranks, 1)
        n += 1
    return n


cdef int _joker_subsets(Solver *st, int a, int size, int n) noexcept nogil:
    """Every subset of `size` positions starting at joker position a, in
    lexicographic order, as candidates (_completions); returns the new count."""
    cdef int pos[5]
    cdef int q, m = st.k - a - 1, need = size - 1
    cdef uint32_t rest
    pos[0] = a
    if m < need:
        return n
    # the combinations of `need` positions among a + 1 .. k - 1, lexicographic
    for q in range(need):
        pos[q + 1] = a + 1 + q
    while True:
        n = _completions(st, pos, size, n)
        q = need
        while q >= 1 and pos[q] == st.k - 1 - (need - q):
            q -= 1
        if q < 1:
            return n
        pos[q] += 1
        for rest in range(q + 1, need + 1):
            pos[rest] = pos[rest - 1] + 1


cdef void _prepare(Solver *st) noexcept nogil:
    """Evaluate and sort the subsets of st.cards; build the per-level tables."""
    cdef const ofc_tables *t = st.t
    cdef ofc_rules *r = st.r
    cdef int k = st.k, n5, n3
    cdef int a, b, c, d, e, n, i, j, p, row, cnt, g, sroy, srep
    cdef const ofc_row_rule *rule
    cdef uint64_t ka, kb, kc, kd, ke
    cdef uint32_t ma, mb, mc, md
    cdef uint16_t v
    cdef const uint8_t *cd = st.cards
    cdef Level *L
    cdef int32_t *idx
    # --- all 5-subsets in lexicographic order of positions (a subset with a
    # joker: one candidate per completion)
    n = 0
    for a in range(k):
        if a < st.nj:
            n = _joker_subsets(st, a, 5, n)
            continue
        ka = OFC_SUIT_BIAS + t.key[cd[a]]
        ma = 1u << a
        for b in range(a + 1, k):
            kb = ka + t.key[cd[b]]
            mb = ma | (1u << b)
            for c in range(b + 1, k):
                kc = kb + t.key[cd[c]]
                mc = mb | (1u << c)
                for d in range(c + 1, k):
                    kd = kc + t.key[cd[d]]
                    md = mc | (1u << d)
                    for e in range(d + 1, k):
                        ke = kd + t.key[cd[e]]
                        st.rs5[n] = ofc_row5_key(t, ke)
                        st.rmask5[n] = md | (1u << e)
                        st.rup5[n] = NOUP
                        st.rlast5[n] = 1
                        n += 1
    n5 = st.n5 = n
    st.w5 = (n5 + 63) >> 6
    # perm: sorted position -> raw index
    idx = st.idx
    for i in range(n5):
        idx[i] = i
    _radix_desc(st.rs5, idx, n5, st.perm, st.tmp)
    g = 0
    for i in range(n5):
        a = st.perm[i]
        v = st.rs5[a]
        st.mask5[i] = st.rmask5[a]
        st.up5[i] = st.rup5[a]
        if i == 0 or v != st.s5[i - 1]:
            g = i
        st.s5[i] = v
        st.gs5[i] = g
    memset(st.built5, 0, st.w5)
    # --- all 3-subsets, sorted
    n = 0
    for a in range(k):
        if a < st.nj:
            n = _joker_subsets(st, a, 3, n)
            continue
        for b in range(a + 1, k):
            for c in range(b + 1, k):
                st.rs3[n] = t.joint3[ofc_strength3(t, cd[a], cd[b], cd[c])]
                st.rmask3[n] = (1u << a) | (1u << b) | (1u << c)
                st.rup3[n] = NOUP
                st.rtc3[n] = r.cls[st.rs3[n]]
                n += 1
    n3 = st.n3 = n
    st.w3 = (n3 + 63) >> 6
    idx = st.idx
    for i in range(n3):
        idx[i] = i
    _radix_desc(st.rs3, idx, n3, st.perm, st.tmp)
    for i in range(n3):
        a = st.perm[i]
        st.mask3[i] = st.rmask3[a]
        st.s3[i] = st.rs3[a]
        st.up3[i] = st.rup3[a]
        st.rank3[a] = i
        st.troy[i] = r.row[0][st.rtc3[a]].royalty      # a top's class: joker_top_natural
        st.trep[i] = r.row[0][st.rtc3[a]].repeat_pts if st.use_rep else 0
        st.tvalid[i] = r.row[0][st.rtc3[a]].valid
    memset(st.built3, 0, st.w3)
    # suffix maxima, the running maxima kept in registers (no store-to-load chain)
    sroy, srep = NEG, 0
    st.tsufroy[n3] = sroy
    st.tsufrep[n3] = srep
    for i in range(n3 - 1, -1, -1):
        if st.tvalid[i]:
            sroy = _imax(sroy, st.troy[i])
            srep = _imax(srep, st.trep[i])
        st.tsufroy[i] = sroy
        st.tsufrep[i] = srep
    # top cap per sorted 5-subset: first triple no stronger
    p = 0
    for i in range(n5):
        if st.top_chained:
            while p < n3 and st.s3[p] > st.s5[i]:
                p += 1
            st.tcap[i] = p
        else:
            st.tcap[i] = 0
    # --- 5-card levels, bottom first
    for j in range(st.nlev):
        L = &st.lev[j]
        row = r.n_rows - 1 - j
        L.row = row
        L.chained = r.in_chain[row]
        if L.chained:
            L.n = n5
            L.key = st.s5
            L.mask = st.mask5
            sroy, srep = NEG, 0
            L.sufroy[n5] = sroy
            L.sufrep[n5] = srep
            for i in range(n5 - 1, -1, -1):
                rule = ofc_row_rule_at(r, row, st.s5[i])
                a = rule.royalty
                b = rule.repeat_pts if st.use_rep else 0
                L.roy[i] = a
                L.rep[i] = b
                L.valid[i] = <uint8_t> rule.valid
                if rule.valid:
                    sroy = _imax(sroy, a)
                    srep = _imax(srep, b)
                L.sufroy[i] = sroy
                L.sufrep[i] = srep
        else:
            # valid candidates in lexicographic order, then sorted by key, best first
            cnt = 0
            idx = st.idx
            for i in range(n5):
                # case_a: a subset with a joker at its lowest completion only (the best low)
                if ofc_row_rule_at(r, row, st.rs5[i]).valid and (st.rlast5[i] or not st.case_a):
                    idx[cnt] = i
                    cnt += 1
                    L.own_key[i] = <uint16_t> ofc_row_key(r, row, st.rs5[i])
            _radix_desc(L.own_key, idx, cnt, st.perm, st.tmp)
            for i in range(cnt):
                a = st.perm[i]
                L.own_mask[i] = st.rmask5[a]
                L.roy[i] = ofc_row_rule_at(r, row, st.rs5[a]).royalty
                L.rep[i] = ofc_row_rule_at(r, row, st.rs5[a]).repeat_pts if st.use_rep else 0
                L.valid[i] = 1
                st.tmp[i] = L.own_key[a]
            for i in range(cnt):
                L.own_key[i] = <uint16_t> st.tmp[i]
            L.n = cnt
            L.key = L.own_key
            L.mask = L.own_mask
            sroy, srep = NEG, 0
            L.sufroy[cnt] = sroy
            L.sufrep[cnt] = srep
            for i in range(cnt - 1, -1, -1):
                sroy = _imax(sroy, L.roy[i])
                srep = _imax(srep, L.rep[i])
                L.sufroy[i] = sroy
                L.sufrep[i] = srep


cdef inline int _rest_roy(Solver *st, int j, int c) noexcept nogil:
    """Bound on the royalties of the rows after level j, their cap at sorted index c."""
    cdef int lv, a = st.tsufroy[st.tcap[c]]
    for lv in range(j + 1, st.nlev):
        a += st.lev[lv].sufroy[c] if st.lev[lv].chained else st.lev[lv].sufroy[0]
    return a if a > NEG else NEG


cdef inline int _rest_rep(Solver *st, int j, int c) noexcept nogil:
    """Bound on the repeat points of the rows after level j, their cap at sorted index c."""
    cdef int lv, a = st.tsufrep[st.tcap[c]]
    for lv in range(j + 1, st.nlev):
        a += st.lev[lv].sufrep[c] if st.lev[lv].chained else st.lev[lv].sufrep[0]
    return a


cdef void _build_word(const uint32_t *masks, int n, int k, uint64_t *bits, int W,
                      int w) noexcept nogil:
    """Word w of the per-card bit sets: bit i of bits[p * W + w] = subset 64w + i holds p."""
    cdef int i, p, hi = (w << 6) + 64
    cdef uint32_t mm
    for p in range(k):
        bits[p * W + w] = 0
    if hi > n:
        hi = n
    for i in range(w << 6, hi):
        mm = masks[i]
        while mm:
            bits[ofc_ctz64(mm) * W + w] |= (<uint64_t> 1) << (i & 63)
            mm &= mm - 1


cdef inline bint _can_beat(Solver *st, double ub, int depth, int key) noexcept nogil:
    """Could a branch with value bound ub and keys cur_key[:depth] + key beat the best?"""
    cdef int d
    if ub > st.V:
        return True
    if ub < st.V:
        return False
    for d in range(depth):
        if st.cur_key[d] != st.best_key[d]:
            return st.cur_key[d] > st.best_key[d]
    return key >= st.best_key[depth]


cdef inline double _bound(Solver *st, int roy, int rep) noexcept nogil:
    if st.use_rep and rep >= st.thr:
        return roy + st.rv_pos
    return <double> roy


cdef inline int _positions(uint32_t used, int *up) noexcept nogil:
    """Positions of the set bits of used, in up; returns their number."""
    cdef int n = 0
    while used:
        up[n] = ofc_ctz64(used)
        n += 1
        used &= used - 1
    return n


cdef inline bint _beats_best(Solver *st, int depth, double val, int top_key) noexcept nogil:
    """A strictly higher value, or an equal one with strictly greater row keys
    (the current rows' keys, then the top's): the documented tie-break."""
    cdef int d = 0
    if val != st.V:
        return val > st.V
    while d < depth and st.cur_key[d] == st.best_key[d]:
        d += 1
    if d < depth:
        return st.cur_key[d] > st.best_key[d]
    return top_key > st.best_key[depth]


cdef inline void _keep_best(Solver *st, int depth, double val, int top) noexcept nogil:
    """Record the current rows plus top ``top`` as the incumbent."""
    cdef int d
    st.V = val
    for d in range(depth):
        st.best_key[d] = st.cur_key[d]
        st.best_pick[d] = st.cur_pick[d]
    st.best_key[depth] = st.s3[top]
    st.best_pick[depth] = top

cdef void _leaf_few(Solver *st, int c, uint32_t used, int roy, int rep) noexcept nogil:
    """Best top when few cards are left: a triple of the cards left, no stronger
    than the cap (sorted triple index >= tcap[c]); the best value, then the
    first in sorted order, then compared with the incumbent."""
    cdef int x, y, z, r, t, k = st.k, cap = st.tcap[c], depth = st.nlev, best = -1
    cdef int rp[MAXK]
    cdef double val, best_val = NEG_VALUE
    cdef const int32_t *row
    r = _positions(((<uint32_t> 1 << k) - 1) & ~used if k < 32 else ~used, rp)
    for x in range(r):
        for y in range(x + 1, r):
            row = st.tri_raw + (rp[x] * k + rp[y]) * k
            for z in range(y + 1, r):
                t = st.rank3[row[rp[z]]]
                if t < cap or not st.tvalid[t]:
                    continue
                val = roy + st.troy[t]
                if st.use_rep and rep + st.trep[t] >= st.thr:
                    val += st.rv
                if val > best_val or (val == best_val and t < best):
                    best_val = val
                    best = t
    if best < 0 or not _beats_best(st, depth, best_val, st.s3[best]):
        return
    _keep_best(st, depth, best_val, best)


cdef inline uint64_t _free_word(const uint32_t *masks, int n, int k, uint64_t *bits,
                                uint8_t *built, int W, int w, const int *up, int nu,
                                int start) noexcept nogil:
    """Word w of the candidates (sorted index 64w + bit) that hold none of the
    cards up[0 .. nu), from index ``start`` on; bit sets are built on first use."""
    cdef uint64_t avail = 0
    cdef int u
    if nu and not built[w]:
        _build_word(masks, n, k, bits, W, w)
        built[w] = 1
    for u in range(nu):
        avail |= bits[up[u] * W + w]
    avail = ~avail
    if w == start >> 6:
        avail &= (~(<uint64_t> 0)) << (start & 63)
    return avail


cdef void _leaf_exact(Solver *st, int ti) noexcept nogil:
    """A leaf holding a joker outside case_a: the layout of the current rows and
    triple ti scored as the rules resolve it (ofc_eval_layout), its value and
    resolved row keys against the incumbent."""
    cdef ofc_rules *r = st.r
    cdef ofc_layout_eval e
    cdef int j, d, depth = st.nlev
    cdef int keys[MAXLEV + 2]
    cdef double val
    for j in range(depth):
        _write_row(st, st.lev[j].mask[st.cur_pick[j]], st.layout + r.row_off[st.lev[j].row])
    _write_row(st, st.mask3[ti], st.layout + r.row_off[0])
    ofc_eval_layout(st.t, r, st.layout, st.fl_count, &e)
    if e.foul:
        return
    val = e.royalty_total + (st.rv if st.use_rep and e.repeat else 0.0)
    for j in range(depth):
        keys[j] = ofc_row_key(r, st.lev[j].row, e.strength[st.lev[j].row])
    keys[depth] = e.strength[0]
    if val == st.V:
        d = 0
        while d < depth and keys[d] == st.best_key[d]:
            d += 1
        if keys[d] <= st.best_key[d]:
            return
    elif val < st.V:
        return
    st.V = val
    for d in range(depth):
        st.best_key[d] = keys[d]
        st.best_pick[d] = st.cur_pick[d]
    st.best_key[depth] = keys[depth]
    st.best_pick[depth] = ti


cdef void _leaf_scan(Solver *st, int c, int cap, uint32_t used, int roy,
                     int rep) noexcept nogil:
    """Best top when many cards are left: scan the sorted triples no stronger than the
    cap, 64 at a time, skipping those holding a used card; stop at the bound."""
    cdef int ti, nu, w, start, n3 = st.n3, depth = st.nlev, W = st.w3
    cdef int up[MAXK]
    cdef uint64_t avail
    cdef double ub, val
    start = st.tcap[c]
    nu = _positions(used, up)
    w = start >> 6
    while w < W:
        avail = _free_word(st.mask3, n3, st.k, st.bits3, st.built3, W, w, up, nu, start)
        while avail:
            ti = (w << 6) + ofc_ctz64(avail)
            avail &= avail - 1
            if ti >= n3:
                return
            ub = _bound(st, roy + st.tsufroy[ti], rep + st.tsufrep[ti])
            if not _can_beat(st, ub, depth, st.s3[ti]):
                return
            if not st.tvalid[ti]:
                continue
            if st.case_a and st.up3[ti] <= cap:
                continue        # the rules take a stronger completion of this triple
            if st.exact and (used | st.mask3[ti]) & st.jmask:
                _leaf_exact(st, ti)
                continue
            val = roy + st.troy[ti]
            if st.use_rep and rep + st.trep[ti] >= st.thr:
                val += st.rv
            if not _beats_best(st, depth, val, st.s3[ti]):
                continue
            _keep_best(st, depth, val, ti)
        w += 1


cdef inline void _leaf(Solver *st, int c, int cap, uint32_t used, int roy, int rep) noexcept nogil:
    if st.few_left:
        _leaf_few(st, c, used, roy, rep)
    else:
        _leaf_scan(st, c, cap, used, roy, rep)


cdef void _search(Solver *st, int j, int c, int cap, uint32_t used, int roy,
                  int rep) noexcept nogil:
    """Level j (a 5-card row, bottom first) from sorted index c on; cap: the
    strength of the chained row below (NOCAP for the bottom)."""
    cdef Level *L
    cdef int p, nc, n, nu, w, W, rr, rp
    cdef int up[MAXK]
    cdef uint64_t avail
    cdef uint32_t m
    cdef double ub
    if j >= st.nlev or j >= MAXLEV:
        _leaf(st, c, cap, used, roy, rep)
        return
    L = &st.lev[j]
    n = L.n
    if L.chained:
        # candidates from sorted index c on, disjoint from used: 64 at a time
        nu = _positions(used, up)
        W = st.w5
        w = c >> 6
        while w < W:
            avail = _free_word(st.mask5, n, st.k, st.bits5, st.built5, W, w, up, nu, c)
            while avail:
                p = (w << 6) + ofc_ctz64(avail)
                avail &= avail - 1
                if p >= n:
                    return
                if st.case_a and st.up5[p] <= cap:
                    continue    # the rules take a stronger completion of this subset
                nc = st.gs5[p]
                rr = _rest_roy(st, j, nc)
                rp = _rest_rep(st, j, nc) if st.use_rep else 0
                ub = _bound(st, roy + L.sufroy[p] + rr, rep + L.sufrep[p] + rp)
                if not _can_beat(st, ub, j, L.key[p]):
                    return
                if not L.valid[p]:
                    continue
                ub = _bound(st, roy + L.roy[p] + rr, rep + L.rep[p] + rp)
                if not _can_beat(st, ub, j, L.key[p]):
                    continue
                st.cur_key[j] = L.key[p]
                st.cur_pick[j] = p
                _search(st, j + 1, nc, L.key[p], used | L.mask[p], roy + L.roy[p],
                        rep + L.rep[p])
            w += 1
    else:
        rr = _rest_roy(st, j, c)
        rp = _rest_rep(st, j, c) if st.use_rep else 0
        for p in range(n):
            m = L.mask[p]
            if m & used:
                continue
            ub = _bound(st, roy + L.sufroy[p] + rr, rep + L.sufrep[p] + rp)
            if not _can_beat(st, ub, j, L.key[p]):
                break
            ub = _bound(st, roy + L.roy[p] + rr, rep + L.rep[p] + rp)
            if not _can_beat(st, ub, j, L.key[p]):
                continue
            st.cur_key[j] = L.key[p]
            st.cur_pick[j] = p
            _search(st, j + 1, c, cap, used | m, roy + L.roy[p], rep + L.rep[p])


cdef int _write_row(Solver *st, uint32_t mask, uint8_t *dst) noexcept nogil:
    cdef int p, n = 0
    for p in range(st.k):
        if mask & (1u << p):
            dst[n] = st.cards[p]
            n += 1
    return n


cdef void _fallback(Solver *st) noexcept nogil:
    """Every placement fouls: strongest bottom, then the strongest rows left, top last."""
    cdef uint32_t used = 0
    cdef int j, p = 0
    for j in range(st.nlev):
        for p in range(st.n5):
            if not (st.mask5[p] & used):
                break
        st.best_pick[j] = p
        used |= st.mask5[p]
    for p in range(st.n3):
        if not (st.mask3[p] & used):
            break
    st.best_pick[st.nlev] = p


cdef void _solve_one(Solver *st, const uint8_t *hand, int fl_count, uint8_t *layout,
                     uint8_t *discards, int16_t *royalty, int32_t *total, uint8_t *foul,
                     uint8_t *repeat, uint8_t *next_cards, double *score) noexcept nogil:
    cdef ofc_rules *r = st.r
    cdef int k = st.k, i, j, p, n
    cdef uint8_t c
    cdef uint32_t used = 0, m
    cdef ofc_layout_eval e
    # cards sorted by id, highest first (insertion sort: k <= 24): the jokers first
    st.nj = 0
    for i in range(k):
        c = hand[i]
        st.nj += c >= OFC_JOKER
        j = i
        while j > 0 and st.cards[j - 1] < c:
            st.cards[j] = st.cards[j - 1]
            j -= 1
        st.cards[j] = c
    st.jmask = (1u << st.nj) - 1
    st.exact = st.nj > 0 and not st.case_a
    st.few_left = st.base_few_left and st.nj == 0
    st.fl_count = fl_count
    _prepare(st)
    st.V = NEG_VALUE
    for i in range(MAXLEV + 1):
        st.best_key[i] = 0
        st.cur_key[i] = 0
        st.best_pick[i] = -1
    _search(st, 0, 0, NOCAP, 0, 0, 0)
    if st.best_pick[st.nlev] < 0:
        _fallback(st)
        for j in range(st.nlev):
            m = st.mask5[st.best_pick[j]]
            _write_row(st, m, layout + r.row_off[r.n_rows - 1 - j])
            used |= m
    else:
        for j in range(st.nlev):
            m = st.lev[j].mask[st.best_pick[j]]
            _write_row(st, m, layout + r.row_off[st.lev[j].row])
            used |= m
    m = st.mask3[st.best_pick[st.nlev]]
    _write_row(st, m, layout + r.row_off[0])
    used |= m
    n = 0
    for p in range(k):
        if not (used & (1u << p)):
            discards[n] = st.cards[p]
            n += 1
    ofc_eval_layout(<const ofc_tables *> st.t, r, layout, fl_count, &e)
    for i in range(r.n_rows):
        royalty[i] = e.royalty[i]
    total[0] = e.royalty_total
    foul[0] = e.foul
    repeat[0] = e.repeat
    next_cards[0] = e.fantasyland
    if e.foul:
        score[0] = -INFINITY
    else:
        score[0] = e.royalty_total + (st.rv if (st.use_rep and e.repeat) else 0.0)


cdef intptr_t _solve_many(ofc_rules *r, const uint8_t *hands, intptr_t n, int k,
                          int fl_count, double rv, uint8_t *layouts, uint8_t *discards,
                          int16_t *royalty, int32_t *total, uint8_t *foul, uint8_t *repeat,
                          uint8_t *next_cards, double *score) noexcept nogil:
    """Solve n hands of k cards; return the first bad hand, -1 when all were fine, -2 on
    memory failure."""
    cdef Solver st
    cdef intptr_t i
    cdef int nc = r.n_cards, nd = k - r.n_cards, R = r.n_rows
    cdef bint allowed
    cdef uint8_t dummy[MAXK]
    st.t = tables()
    st.r = r
    st.nlev = R - 1
    st.top_chained = r.in_chain[0]
    st.thr = r.repeat_threshold
    allowed = ofc_repeat_allowed(r.max_repeats, fl_count)
    st.use_rep = fl_count >= 1 and allowed and r.repeat_threshold > 0 and rv != 0.0
    st.rv = rv if st.use_rep else 0.0
    st.rv_pos = st.rv if st.rv > 0 else 0.0
    st.njmax = r.jokers
    st.case_a = not r.joker_board and (r.joker_objective == OFC_JOKER_STRENGTH or (
        r.joker_monotone and r.top_monotone and not r.joker_top_natural))
    st.drop_weak = st.case_a and r.joker_monotone and r.top_monotone and not r.joker_top_natural \
        and R == 3 and r.in_chain[1] and r.in_chain[2] and st.top_chained and st.rv >= 0
    st.nptrs = 0
    st.oom = 0
    if _alloc(&st, k):
        _free(&st)
        return -2
    for i in range(n):
        if ofc_bad_ids(<const ofc_tables *> st.t, hands + i * k, k, r.jokers):
            _free(&st)
            return i
        _solve_one(&st, hands + i * k, fl_count, layouts + i * nc,
                   discards + i * nd if nd > 0 else dummy, royalty + i * R, total + i,
                   foul + i, repeat + i, next_cards + i, score + i)
    _free(&st)
    return -1


cdef int fantasy_place(const ofc_rules *r, const uint8_t *hand, int k, int fl_count,
                       double repeat_value, uint8_t *layout) noexcept nogil:
    """The C entry of the solver: the best layout of one hand of k cards
    (r.n_cards <= k <= MAX_CARDS, distinct valid ids: the caller checks)
    into layout (r.n_cards), objective royalties plus repeat_value for a
    repeat (0: royalties), this hand being fantasyland hand fl_count in a
    row; what solve_fantasyland(hand, objective="royalties+repeat",
    fantasyland_value=repeat_value, in_fantasyland=fl_count) sets.
    Returns 0, or -1 when out of memory."""
    cdef uint8_t discards[MAXK]
    cdef int16_t royalty[4]
    cdef int32_t total
    cdef uint8_t foul, repeat, next_cards
    cdef double score
    if _solve_many(<ofc_rules *> r, hand, 1, k, fl_count, repeat_value, layout, discards,
                   royalty, &total, &foul, &repeat, &next_cards, &score) == -2:
        return -1
    return 0


def solve_into(CompiledRules rules, hands, layouts, discards, royalties, total, foul, repeat,
               next_cards, score, int fl_count, double repeat_value):
    """Kernel entry: solve ``hands`` (N, k) uint8 C-contiguous into preallocated outputs.

    Outputs: layouts (N, n_cards) uint8, discards (N, k - n_cards) uint8,
    royalties (N, rows) int16, total (N,) int32, foul / repeat / next_cards
    (N,) uint8, score (N,) float64.  ``repeat_value`` 0 ignores repeats
    (objective ``royalties``).  Releases the GIL.  Returns the index of the
    first invalid hand (bad id or repeated card), or -1.
    """
    cdef const uint8_t[:, ::1] h = hands
    cdef uint8_t[:, ::1] lay = layouts
    cdef uint8_t[:, ::1] dis = discards
    cdef int16_t[:, ::1] roy = royalties
    cdef int32_t[::1] tot = total
    cdef uint8_t[::1] fo = foul, rep = repeat, nxt = next_cards
    cdef double[::1] sc = score
    cdef intptr_t n = h.shape[0], bad = -1
    cdef int k = h.shape[1]
    cdef ofc_rules *r = rules.r
    if k < r.n_cards or k > MAXK:
        raise ValueError(f"hands must have {r.n_cards} to {MAXK} cards, got {k}")
    if n == 0:
        return -1
    cdef uint8_t dummy[1]
    cdef uint8_t *dp = &dis[0, 0] if k > r.n_cards else dummy
    with nogil:
        bad = _solve_many(r, &h[0, 0], n, k, fl_count, repeat_value, &lay[0, 0], dp,
                          &roy[0, 0], &tot[0], &fo[0], &rep[0], &nxt[0], &sc[0])
    if bad == -2:
        raise MemoryError("fantasyland solver: out of memory")
    return bad
