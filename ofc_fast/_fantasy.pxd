# cython: language_level=3
# The C API of ofc_fast._fantasy (the exact fantasyland solver), for kernels
# that play fantasyland hands without the GIL (the batch engine, _batch).
from libc.stdint cimport uint8_t

from ofc_fast._layout cimport ofc_rules

cdef int fantasy_place(const ofc_rules *r, const uint8_t *hand, int k, int fl_count,
                       double repeat_value, uint8_t *layout) noexcept nogil
