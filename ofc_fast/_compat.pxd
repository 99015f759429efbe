# Declarations of src/ofc_compat.h (compiler portability): the bit helpers every
# kernel uses, and a monotonic clock.  Nothing else in the .pyx files spells a
# compiler builtin or a system clock.
from libc.stdint cimport uint64_t

cdef extern from "ofc_compat.h" nogil:
    int ofc_ctz64(uint64_t x)        # index of the lowest set bit; x != 0
    int ofc_msb64(uint64_t x)        # index of the highest set bit; x != 0
    int ofc_popcount64(uint64_t x)
    double ofc_seconds()             # seconds on a monotonic clock (arbitrary start)
