# cython: language_level=3
# The C API of ofc_fast._rollout that other kernels playing hands share: the
# unseen cards of a layout, the best-of-tries completion model (random
# arrangements of the dealt cards into the empty slots, the best kept), and
# the move values on common completion decks (values_sums: the loops of
# values_kernel, which the solver's decisions in _solver run too).
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

from ofc_fast._layout cimport ofc_layout_eval, ofc_rules
from ofc_fast._play cimport ofc_play
from ofc_fast._rng cimport ofc_rng
from ofc_fast._stop cimport ofc_stop

cdef enum:
    ARRANGEMENT_FOUL = -1000000     # the rank of a fouled arrangement, below every other


cdef inline int32_t arrangement_rank(bint foul, int32_t royalty, bint entry,
                                     int fl_bonus) noexcept nogil:
    """The order of the best-of-tries completion model (best_arrangement, and
    the racing policy's race): a foul last, then royalties plus fl_bonus for a
    fantasyland entry (or repeat)."""
    return ARRANGEMENT_FOUL if foul else royalty + (fl_bonus if entry else 0)


cdef int unseen_cards(const ofc_play *pc, const uint8_t *lay, uint64_t dead, uint8_t *u,
                      uint8_t *emp, int *ne) noexcept nogil
cdef void best_arrangement(const ofc_rules *rules, uint8_t *cards, const uint8_t *emp, int ne,
                           int fl, int tries, int fl_bonus, ofc_rng *g,
                           ofc_layout_eval *best) noexcept nogil

# The per-move int64 sums of values_sums: N_ACC columns a move, in this order.
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

# What values_sums returns.
cdef enum:
    VALUES_OK = 0
    VALUES_SHORT = -1        # fewer unseen cards than empty slots at the table
    VALUES_BAD_ROOM = -2     # a move leaves more empty slots in a row than room gives
    VALUES_NO_MEMORY = -3
    VALUES_STOPPED = -4      # the call's stop was set (the sums are partial)

cdef struct values_scratch:
    # per-move slot tables of values_sums, grown on demand (cap moves)
    uint8_t *emp
    uint8_t *src
    int *ne
    ofc_layout_eval *fixed
    int64_t cap

cdef void values_scratch_init(values_scratch *ws) noexcept nogil
cdef void values_scratch_free(values_scratch *ws) noexcept nogil
cdef int values_sums(const ofc_play *pc, const uint8_t *hero, int64_t M, const int32_t *room,
                     const uint8_t *opp, int Q, uint64_t pool, int fl_hero,
                     const uint8_t *fl_opp, int64_t k0, int64_t k1, uint64_t seed, int tries,
                     int fl_bonus, int64_t ref, int64_t *acc, values_scratch *ws,
                     ofc_stop *S) noexcept nogil
