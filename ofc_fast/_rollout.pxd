# cython: language_level=3
# The C API of ofc_fast._rollout that other kernels playing hands share: the
# unseen cards of a layout and the best-of-tries completion model (random
# arrangements of the dealt cards into the empty slots, the best kept).
from libc.stdint cimport uint8_t, uint64_t

from ofc_fast._layout cimport ofc_layout_eval, ofc_rules
from ofc_fast._rng cimport ofc_rng

cdef int unseen_cards(const uint8_t *lay, int nc, uint64_t dead, uint8_t *u, uint8_t *emp,
                      int *ne) noexcept nogil
cdef void best_arrangement(const ofc_rules *rules, uint8_t *cards, const uint8_t *emp, int ne,
                           int fl, int tries, int fl_bonus, ofc_rng *g,
                           ofc_layout_eval *best) noexcept nogil
