# Declarations of src/ofc_eval.h: the hand-strength tables and primitives every
# kernel shares (docs/tables.md).  Sizes are the header's macros, never retyped;
# the deck (OFC_DECK, OFC_EMPTY, the card check) is _cards.pxd's.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

cdef extern from "ofc_eval.h" nogil:
    enum:
        OFC_N_IDS
        OFC_N_RANKS
        OFC_N_CLASS5
        OFC_N_CLASS3
        OFC_N_JOINT
        OFC_PLAIN5_SIZE
        OFC_STRENGTH3_SIZE
        OFC_MAX_DEAL
        OFC_N_JCANDS
        OFC_MS4
        OFC_MS2
    const uint64_t OFC_SUIT_BIAS
    const uint64_t OFC_FLUSH_MASK
    const uint32_t OFC_RANK_BASE[]            # rank-sum term per rank (generated)
    ctypedef struct ofc_jcand:
        uint16_t s
        uint8_t ranks, flush
    ctypedef struct ofc_jlist:
        uint32_t off, n
    ctypedef struct ofc_tables:
        uint64_t key[OFC_N_IDS]
        uint64_t bit[OFC_N_IDS]
        uint16_t flush_of[OFC_N_CLASS5 + 1]
        uint16_t strength3[OFC_STRENGTH3_SIZE]
        uint16_t joint5[OFC_N_CLASS5 + 1]
        uint16_t joint3[OFC_N_CLASS3 + 1]
        uint16_t plain5[OFC_PLAIN5_SIZE]
        ofc_jlist jl5[2][OFC_MS4][2]
        ofc_jlist jl3[2][OFC_MS2]
        uint32_t n_jc
        ofc_jcand jc[OFC_N_JCANDS]
    uint64_t ofc_card_key(int c)
    uint16_t ofc_plain5(const ofc_tables *t, uint32_t rank_sum)
    uint16_t ofc_flush5(const ofc_tables *t, uint16_t plain)
    uint16_t ofc_strength5_key(const ofc_tables *t, uint64_t k)
    int ofc_top_index(int r0, int r1, int r2)
    uint16_t ofc_strength3_ranks(const ofc_tables *t, int r0, int r1, int r2)
    uint16_t ofc_strength5(const ofc_tables *t, uint8_t a, uint8_t b, uint8_t c,
                           uint8_t d, uint8_t e)
    uint16_t ofc_strength3(const ofc_tables *t, uint8_t a, uint8_t b, uint8_t c)
    uint16_t ofc_row5(const ofc_tables *t, const uint8_t *c)
    uint16_t ofc_row3(const ofc_tables *t, const uint8_t *c)
    uint16_t ofc_row5_key(const ofc_tables *t, uint64_t k)
    uint16_t ofc_row3_ranks(const ofc_tables *t, int r0, int r1, int r2)
    int ofc_bad_cards(const ofc_tables *t, const uint8_t *c, int n)
    int ofc_bad_ids(const ofc_tables *t, const uint8_t *c, int n, int jokers)
    int ofc_ms_index(const ofc_tables *t, const int *r, int k)
    void ofc_build_tables(ofc_tables *t)
    const uint32_t OFC_JOINT_INFO[]           # per joint strength (generated)

cdef const ofc_tables *tables() noexcept nogil
