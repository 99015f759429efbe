# cython: language_level=3
# The C API of ofc_fast._order: the move order of a turn (how many moves,
# move number <-> destinations) and the action code of a move (the
# destinations as base R + 1 digits).  One home for both: the hand state
# machine (_hand), the batch engine (_batch) and the Python faces
# (ofc_fast.sim.actions, moves) all count, rank and encode moves here.
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

cdef enum:
    ORDER_ROOMS = 4 * 6 * 6 * 6   # room vectors (free slots per row: top 0..3, others 0..5)

# Why an action code is not a move of the turn (order_decode).
cdef enum:
    ACTION_OK = 0
    ACTION_RANGE = 1      # outside 0 .. (R + 1) ** kmax - 1
    ACTION_DIGITS = 2     # a digit beyond the cards dealt is not 0

cdef int64_t count_moves(int n, int keep, const uint8_t *room) noexcept nogil
cdef void unrank_move(int64_t idx, int n, int keep, const uint8_t *rooms, int R,
                      int8_t *dest) noexcept nogil
cdef int64_t rank_move(int n, int keep, const uint8_t *rooms, const int8_t *dest) noexcept nogil
cdef int64_t order_encode(const int8_t *dest, int n, int R) noexcept nogil
cdef int order_decode(int64_t a, int n, int R, int64_t n_actions, int8_t *dest) noexcept nogil
cdef int64_t order_actions(int n, int keep, const uint8_t *room, int R,
                           int32_t *out) noexcept nogil


cdef inline int room_index(const uint8_t *room) noexcept nogil:
    """The index of a room vector (four rows, top first) in 0 .. ORDER_ROOMS - 1."""
    return room[0] * 216 + room[1] * 36 + room[2] * 6 + room[3]
