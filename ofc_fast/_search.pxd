# cython: language_level=3
# The C API of ofc_fast._search (the exact dead-hand search), for the hand
# state machine (_hand) and any kernel that plays hands without the GIL.
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t

from ofc_fast._play cimport ofc_play

cdef int search_layout(const ofc_play *pr, const uint8_t *lay, uint64_t pool, uint64_t *added,
                       int64_t *nodes) noexcept nogil
cdef int search_jokers(const ofc_play *pr, const uint8_t *lay, uint64_t pool,
                       int64_t *nodes) noexcept nogil
cdef int jokers_alive(const ofc_play *pr, const uint8_t *lay, uint64_t pool,
                      int64_t *nodes) noexcept nogil
cdef bint search_dead_quick(const ofc_play *pr, const uint8_t *lay) noexcept nogil
cdef bint search_is_straight(uint32_t m) noexcept nogil
cdef bint search_greedy(const ofc_play *pr, uint8_t *lay, uint64_t avail) noexcept nogil
