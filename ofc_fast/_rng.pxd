# cython: language_level=3
# Declarations of src/ofc_rng.h: the seeded random streams of the play kernels
# (xoshiro256** seeded from (seed, stream) through splitmix64) and the partial
# Fisher-Yates deals of card arrays.  Declarations only: any kernel cimports
# them, so every kernel draws the same stream for the same (seed, stream).
from libc.stdint cimport uint8_t, uint32_t, uint64_t

cdef extern from "ofc_rng.h" nogil:
    ctypedef struct ofc_rng:
        uint64_t s[4]
    uint64_t ofc_splitmix64(uint64_t *x)
    void ofc_rng_seed(ofc_rng *g, uint64_t seed, uint64_t stream)
    uint64_t ofc_rng_next(ofc_rng *g)
    uint32_t ofc_rng_below(ofc_rng *g, uint32_t n)
    void ofc_shuffle_prefix(ofc_rng *g, uint8_t *u, int nu, int total)
    void ofc_shuffle_into(ofc_rng *g, uint8_t *u, int nu, int total, uint8_t *out,
                          const uint8_t *slot)
    void ofc_deal_prefix(ofc_rng *g, uint8_t *u, int nu, int total)
    uint64_t ofc_seed_key(const uint32_t *words, int n)
