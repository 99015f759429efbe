# Shared hand-strength tables and inline evaluators for the other kernels.
from libc.stdint cimport uint8_t, uint16_t, uint64_t

cdef extern from "ofc_eval.h" nogil:
    ctypedef struct ofc_tables:
        uint64_t key[256]
        uint64_t bit[256]
        uint16_t flush_of[7463]
        uint16_t strength3[11530]
        uint16_t joint5[7463]
        uint16_t joint3[456]
        uint16_t plain5[397076]
    const uint64_t OFC_SUIT_BIAS
    const uint64_t OFC_FLUSH_MASK
    uint16_t ofc_strength5(const ofc_tables *t, uint8_t a, uint8_t b, uint8_t c,
                           uint8_t d, uint8_t e)
    uint16_t ofc_strength3(const ofc_tables *t, uint8_t a, uint8_t b, uint8_t c)
    uint16_t ofc_row5(const ofc_tables *t, const uint8_t *c)
    uint16_t ofc_row3(const ofc_tables *t, const uint8_t *c)
    int ofc_bad_cards(const ofc_tables *t, const uint8_t *c, int n)
    const int OFC_N_JOINT
    const int OFC_MAX_DEAL

cdef const ofc_tables *tables() noexcept nogil
