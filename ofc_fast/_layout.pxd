# Compiled rules shared with the scoring, engine and solver kernels.
from libc.stdint cimport uint8_t, uint16_t, uint64_t, int8_t, int16_t, int32_t, int64_t, intptr_t
from ofc_fast._eval cimport ofc_tables

cdef extern from "ofc_rules.h" nogil:
    ctypedef struct ofc_row_rule:
        int16_t royalty
        uint8_t valid, entry_pts, repeat_pts
    ctypedef struct ofc_rules:
        int n_rows, n_cards
        int row_len[4]
        int row_off[4]
        int in_chain[4]
        int reverse[4]
        uint8_t cls[7918]
        ofc_row_rule row[4][64]
        uint64_t word[4][64]
        uint8_t entry_cards[256]
        int repeat_threshold, repeat_cards, max_repeats
        int finnish
        int per_row, scoop_bonus, majority_bonus, majority_min, foul_extra
        int chunk
    ctypedef struct ofc_layout_eval:
        uint16_t strength[4]
        uint16_t key[4]
        int16_t royalty[4]
        int32_t royalty_total
        uint8_t foul, fantasyland, repeat
        int8_t finnish_row
    ctypedef struct ofc_eval_cols:
        uint16_t *strength[4]
        uint16_t *key[4]
        int16_t *royalty[4]
        int32_t *total
        uint8_t *foul
        uint8_t *fantasyland
        uint8_t *repeat
        int8_t *finnish_row
    intptr_t ofc_eval_layouts(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                              intptr_t n, const uint8_t *fl, const ofc_eval_cols *o, int validate)
    void ofc_eval_layout(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                         int fl_count, ofc_layout_eval *e)
    int32_t ofc_pair_points(const ofc_rules *r, const ofc_layout_eval *a,
                            const ofc_layout_eval *b)


cdef class CompiledRules:
    cdef ofc_rules *r
    cdef readonly object variant
