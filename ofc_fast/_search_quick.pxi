# The cheap tests before the exact search (included by _search.pyx): a
# lower bound of each row that proves a layout dead (search_dead_quick), and
# a greedy completion of a layout that proves it alive (search_greedy, the
# first try of the hand state machine's automatic moves).

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


# The greedy completion (search_greedy), the first try of the automatic
# moves: the bottom row made as strong as cheap (its own ranks again, then
# the highest cards), the top as weak (the lowest new ranks), a middle row
# weak, paired or strong, whichever first reaches the row above.  Only a
# legal result is used, as a proof.


cdef inline uint64_t rank_card(uint64_t avail, int r, int suit) noexcept nogil:
    """A card of rank r in avail, of another suit than `suit` when it can; 0 if none."""
    cdef uint64_t nb = (avail >> (4 * r)) & 0xF
    if suit >= 0 and (nb & ~(1u << suit) & 0xF):
        nb &= ~(1u << suit)
    return (nb & (~nb + 1)) << (4 * r)


# The fills keep ranks as bit 4 r of a word (a card's id is 4 rank + suit), so
# "the lowest / highest rank that avail holds and the row lacks" is one mask
# and one bit scan instead of a loop over the 13 ranks.
cdef inline uint64_t rank_bits(uint64_t cards) noexcept nogil:
    """Bit 4 r set for each rank r that cards hold (each nibble folded onto its lowest bit)."""
    cards |= cards >> 1
    cards |= cards >> 2
    return cards & <uint64_t> 0x1111111111111


cdef inline bint straight_bits(uint64_t m) noexcept nogil:
    """Ranks m (bit 4 r, m not 0) are exactly five in a row, the wheel too."""
    return (m >> ctz(m)) == 0x11111 or m == <uint64_t> 0x1000000001111


cdef int row_ranks(const uint8_t *row, int size, uint64_t *m) noexcept nogil:
    """Cards in a row (its first slots) and their ranks (bit 4 r: rank r)."""
    cdef int n = 0
    m[0] = 0
    while n < size and row[n] != EMPTY:
        m[0] |= <uint64_t> 1 << (row[n] & ~3)
        n += 1
    return n


cdef bint fill_weak(uint8_t *row, int size, uint64_t *avail, bint pair) noexcept nogil:
    """Fill the free slots of a row with the lowest new ranks of avail (with
    pair: first a card pairing its highest rank), mixing suits and avoiding a
    five-card straight; False when the cards run out."""
    cdef uint64_t m, free, c = 0
    cdef int n = row_ranks(row, size, &m), suit = (row[0] & 3) if n else -1, last = 0
    if pair and n and n < size:
        c = rank_card(avail[0], msb(m) >> 2, suit)
        if c:
            row[n] = <uint8_t> ctz(c)
            avail[0] &= ~c
            n += 1
    while n < size:
        # the lowest rank from `last` up that the row lacks and avail holds
        free = rank_bits(avail[0]) & ~m & (~(<uint64_t> 0) << (4 * last))
        if free == 0:
            return False
        c = rank_card(avail[0], ctz(free) >> 2, suit)
        row[n] = <uint8_t> ctz(c)
        if suit < 0:
            suit = row[n] & 3
        last = row[n] >> 2
        m |= <uint64_t> 1 << (4 * last)
        avail[0] &= ~c
        n += 1
        if n == size == 5 and straight_bits(m):
            # the last card one rank higher (or more) instead
            avail[0] |= c
            m &= ~(<uint64_t> 1 << (4 * last))
            last += 1
            n -= 1
    return True


cdef bint fill_strong(uint8_t *row, int size, uint64_t *avail) noexcept nogil:
    """Fill the free slots of a row with cards of its own highest ranks, then
    the highest cards of avail; False when the cards run out."""
    cdef uint64_t m, have, c
    cdef int n = row_ranks(row, size, &m)
    while n < size:
        have = rank_bits(avail[0])
        if have == 0:
            return False
        c = rank_card(avail[0], msb(have & m if have & m else have) >> 2, -1)
        row[n] = <uint8_t> ctz(c)
        m |= <uint64_t> 1 << (row[n] & ~3)
        avail[0] &= ~c
        n += 1
    return True


cdef bint search_greedy(const ofc_play *pr, uint8_t *lay, uint64_t avail) noexcept nogil:
    """Complete lay (EMPTY in the free slots of each row's tail) with avail
    cards, greedily (above); True when it found a legal layout (lay holds it)."""
    cdef int i, R = pr.R, how
    cdef uint8_t *row
    cdef uint8_t save[5]
    cdef uint64_t keep
    cdef uint16_t prev, st = 0
    cdef bint ok
    if not fill_strong(lay + pr.row_off[R - 1], pr.row_len[R - 1], &avail):
        return False
    if not fill_weak(lay, pr.row_len[0], &avail, False):
        return False
    prev = ofc_row3(T, lay)
    for i in range(1, R - 1):
        row = lay + pr.row_off[i]
        if not pr.in_chain[i]:
            if not fill_weak(row, pr.row_len[i], &avail, False):
                return False
            continue
        memcpy(save, row, 5)
        keep = avail
        for how in range(3):
            if how:
                memcpy(row, save, 5)
                avail = keep
            if how == 2:
                ok = fill_strong(row, 5, &avail)
            else:
                ok = fill_weak(row, 5, &avail, how == 1)
            if not ok:
                return False
            st = ofc_row5(T, row)
            if st >= prev:
                break
        prev = st
    return not ofc_layout_foul(T, pr.r, lay)
