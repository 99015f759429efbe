# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
# cython: initializedcheck=False
"""The move order of a turn and the action code of a move (C API in ``_order.pxd``).

A turn deals ``n`` cards to the player to act, who keeps ``keep`` of them
and places each kept card in a row with room.  Its moves are numbered in
one order everywhere (``Game.legal_moves()``, the batch engine's legal
actions, the policies' candidates): the discard sets in lexicographic
order of the dealt positions, then the kept cards' row vectors in
lexicographic order (``count_moves``, ``unrank_move``, ``rank_move``).

An *action* is the same move as one integer (``order_encode``): the
destination of dealt card ``j`` is digit ``j`` in base ``R + 1`` (``0 ..
R - 1`` a row, top first; ``R`` a discard), card 0 the lowest digit, the
digits beyond the cards dealt 0.  ``order_actions`` lists a turn's legal
actions in the move order.
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

from ofc_fast._eval cimport OFC_MAX_DEAL
from ofc_fast._play cimport PLAY_MAX_CARDS

from ofc_fast._args import integer

MAX_CARDS = PLAY_MAX_CARDS
"""Most cards a layout (and so a turn's kept cards) has: 18."""


cdef int64_t WAYS[PLAY_MAX_CARDS + 1][4][6][6][6]   # ways to send j cards to rows with these rooms
cdef int64_t BINOM[OFC_MAX_DEAL + 1][OFC_MAX_DEAL + 1]   # a turn deals at most OFC_MAX_DEAL cards


cdef void _init_counts() noexcept:
    cdef int j, a, b, c, d, n, k
    for n in range(OFC_MAX_DEAL + 1):
        for k in range(OFC_MAX_DEAL + 1):
            BINOM[n][k] = 0
        BINOM[n][0] = 1
        for k in range(1, n + 1):
            BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]
    for a in range(4):
        for b in range(6):
            for c in range(6):
                for d in range(6):
                    WAYS[0][a][b][c][d] = 1
    for j in range(1, PLAY_MAX_CARDS + 1):
        for a in range(4):
            for b in range(6):
                for c in range(6):
                    for d in range(6):
                        WAYS[j][a][b][c][d] = (
                            (WAYS[j - 1][a - 1][b][c][d] if a else 0)
                            + (WAYS[j - 1][a][b - 1][c][d] if b else 0)
                            + (WAYS[j - 1][a][b][c - 1][d] if c else 0)
                            + (WAYS[j - 1][a][b][c][d - 1] if d else 0))


_init_counts()


cdef inline int64_t ways(int j, const uint8_t *room) noexcept nogil:
    if j > PLAY_MAX_CARDS:
        return 0
    return WAYS[j][room[0]][room[1]][room[2]][room[3]]


cdef int64_t count_moves(int n, int keep, const uint8_t *room) noexcept nogil:
    """Distinct moves: choose the n - keep discards, then send the kept cards
    to rows with room (free slots per row, top first; at most 3 on the top row
    and 5 on the others).  0 when keep > n or more than OFC_MAX_DEAL cards
    are dealt."""
    if keep > n or n > OFC_MAX_DEAL:
        return 0
    return BINOM[n][n - keep] * ways(keep, room)


cdef const int64_t *WFLAT = &WAYS[0][0][0][0][0]   # WAYS by (cards, room index)
cdef int ROOM_STRIDE[4]
ROOM_STRIDE[:] = [216, 36, 6, 1]            # room index = 216 a + 36 b + 6 c + d


cdef void unrank_move(int64_t idx, int n, int keep, const uint8_t *rooms, int R,
                      int8_t *dest) noexcept nogil:
    """Move number idx (0 <= idx < count) as a destination per dealt card
    (row, or -1 = discard).  Order: discard sets in lexicographic order, then
    row vectors of the kept cards in lexicographic order."""
    cdef uint8_t room[4]
    cdef int i, pos, d = n - keep, left, row, ri = room_index(rooms)
    cdef int64_t a, cnt, di, ai
    for i in range(4):
        room[i] = rooms[i]
    a = ways(keep, room)
    di = idx // a
    ai = idx % a
    for pos in range(n):
        if d > 0:
            cnt = BINOM[n - pos - 1][d - 1]
            if di < cnt:
                dest[pos] = -1
                d -= 1
                continue
            di -= cnt
        dest[pos] = 0     # kept; row chosen below
    left = keep
    for pos in range(n):
        if dest[pos] < 0:
            continue
        for row in range(R):
            if room[row] == 0:
                continue
            cnt = WFLAT[(left - 1) * ORDER_ROOMS + ri - ROOM_STRIDE[row]]
            if ai < cnt:
                dest[pos] = <int8_t> row
                room[row] -= 1
                ri -= ROOM_STRIDE[row]
                left -= 1
                break
            ai -= cnt


cdef int64_t rank_move(int n, int keep, const uint8_t *rooms, const int8_t *dest) noexcept nogil:
    """Inverse of unrank_move (dest assumed valid)."""
    cdef uint8_t room[4]
    cdef int i, pos, d = n - keep, left, row, ri = room_index(rooms)
    cdef int64_t di = 0, ai = 0
    for i in range(4):
        room[i] = rooms[i]
    for pos in range(n):
        if d == 0:
            break
        if dest[pos] < 0:
            d -= 1
        else:
            di += BINOM[n - pos - 1][d - 1]
    left = keep
    for pos in range(n):
        if dest[pos] < 0:
            continue
        for row in range(dest[pos]):
            if room[row]:
                ai += WFLAT[(left - 1) * ORDER_ROOMS + ri - ROOM_STRIDE[row]]
        room[dest[pos]] -= 1
        ri -= ROOM_STRIDE[dest[pos]]
        left -= 1
    return di * ways(keep, rooms) + ai


def count_placements(n, keep, rooms):
    """Number of distinct moves: choose the n - keep discards, then send the
    kept cards to rows with room (rooms: free slots per row, top first; at
    most 3 on the top row and 5 on the others).  0 when keep > n or more
    than OFC_MAX_DEAL cards are dealt."""
    cdef uint8_t room[4]
    cdef int i, cn, ck
    rooms = tuple(rooms)
    if len(rooms) > 4:
        raise ValueError(f"rooms: at most 4 rows, got {len(rooms)}")
    for i in range(4):
        room[i] = integer(rooms[i], f"rooms[{i}]", 0, 3 if i == 0 else 5) \
            if i < len(rooms) else 0
    cn = integer(n, "n", 0, 1 << 30)
    ck = integer(keep, "keep", 0, 1 << 30)
    return count_moves(cn, ck, room)


# ------------------------------------------------------------------ action codes
cdef int64_t order_encode(const int8_t *dest, int n, int R) noexcept nogil:
    """The action of destinations dest (a row, or -1 = discard, per dealt card)."""
    cdef int64_t a = 0, w = 1
    cdef int j
    for j in range(n):
        a += (R if dest[j] < 0 else dest[j]) * w
        w *= R + 1
    return a


cdef int order_decode(int64_t a, int n, int R, int64_t n_actions, int8_t *dest) noexcept nogil:
    """Destinations of action a for n dealt cards into dest: ACTION_OK, or why
    it names no move of n cards (ACTION_RANGE, ACTION_DIGITS).  Whether the
    move is legal for the rows' room is the hand's check (hand_dest_problem)."""
    cdef int j, d
    if a < 0 or a >= n_actions:
        return ACTION_RANGE
    for j in range(n):
        d = <int> (a % (R + 1))
        a //= R + 1
        dest[j] = -1 if d == R else <int8_t> d
    return ACTION_DIGITS if a != 0 else ACTION_OK


cdef int64_t order_actions(int n, int keep, const uint8_t *room, int R,
                           int32_t *out) noexcept nogil:
    """Every move of a turn (n dealt, keep kept, rows with this room) as its
    action, in the move order, into out; returns how many."""
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef int64_t k, m = count_moves(n, keep, room)
    for k in range(m):
        unrank_move(k, n, keep, room, R, dest)
        out[k] = <int32_t> order_encode(dest, n, R)
    return m


def action_code(dest, int R):
    """The action of destinations ``dest`` (rows ``-1 .. R - 1``, at most
    ``OFC_MAX_DEAL`` of them: ``ofc_fast.sim.actions`` checks them)."""
    cdef int8_t d[OFC_MAX_DEAL]
    cdef int j, n = min(len(dest), OFC_MAX_DEAL)
    for j in range(n):
        d[j] = <int8_t> dest[j]
    return order_encode(d, n, R)


def action_dest(int64_t action, int n, int R, int64_t n_actions):
    """The destinations action ``action`` gives ``n`` dealt cards (``0 ..
    OFC_MAX_DEAL``, checked by the caller), or ``-ACTION_RANGE`` /
    ``-ACTION_DIGITS`` when it names no such move."""
    cdef int8_t d[OFC_MAX_DEAL]
    cdef int st = order_decode(action, min(n, OFC_MAX_DEAL), R, n_actions, d)
    if st:
        return -st
    return tuple([d[j] for j in range(n)])
