# Declarations of src/ofc_rules.h: a variant's compiled rules and the
# finished-layout kernels shared with the scoring, engine and solver kernels.
# Sizes are the header's macros, never retyped.
from libc.stdint cimport uint8_t, uint16_t, uint64_t, int8_t, int16_t, int32_t, int64_t, intptr_t
from ofc_fast._cards cimport OFC_MAX_JOKERS
from ofc_fast._eval cimport ofc_tables

cdef extern from "ofc_rules.h" nogil:
    enum:
        OFC_MAX_ROWS
        OFC_SCALE
        OFC_NO_LIMIT
        OFC_ROW_CLASSES
        OFC_ENTRY_SUMS
        OFC_JOKER_STRENGTH    # ofc_rules.joker_objective "strength"
    ctypedef struct ofc_row_rule:
        int16_t royalty
        uint8_t valid, entry_pts, repeat_pts
    ctypedef struct ofc_rules:
        int n_rows, n_cards
        int row_len[OFC_MAX_ROWS]
        int row_off[OFC_MAX_ROWS]
        int in_chain[OFC_MAX_ROWS]
        int may_be_invalid[OFC_MAX_ROWS]
        int reverse[OFC_MAX_ROWS]
        uint8_t cls[OFC_SCALE]
        ofc_row_rule row[OFC_MAX_ROWS][OFC_ROW_CLASSES]
        uint64_t word[OFC_MAX_ROWS][OFC_ROW_CLASSES]
        uint8_t entry_cards[OFC_ENTRY_SUMS]
        int repeat_threshold, repeat_cards, max_repeats
        int finnish
        int per_row, scoop_bonus, majority_bonus, majority_min, foul_extra
        int chunk
        int jokers, joker_board, joker_objective, joker_top_natural
        int joker_monotone, top_monotone
    ctypedef struct ofc_layout_eval:
        uint16_t strength[OFC_MAX_ROWS]
        uint16_t key[OFC_MAX_ROWS]
        int16_t royalty[OFC_MAX_ROWS]
        int32_t royalty_total
        uint8_t foul, fantasyland, repeat
        int8_t finnish_row
        uint8_t sub[OFC_MAX_JOKERS]
    ctypedef struct ofc_eval_cols:
        uint16_t *strength[OFC_MAX_ROWS]
        uint16_t *key[OFC_MAX_ROWS]
        int16_t *royalty[OFC_MAX_ROWS]
        int32_t *total
        uint8_t *foul
        uint8_t *fantasyland
        uint8_t *repeat
        int8_t *finnish_row
        uint8_t *sub
        uint8_t *next_fl
    const ofc_row_rule *ofc_row_rule_at(const ofc_rules *r, int row, int s)
    int ofc_key_of(int reversed, int s)
    int ofc_row_key(const ofc_rules *r, int row, int s)
    int ofc_repeat_allowed(int max_repeats, int fl_count)
    int ofc_fl_cards(const ofc_rules *r, int fl_count, int entry, int repeat)
    int ofc_top_class(const ofc_tables *t, const ofc_rules *r, int s, int nat_ranks,
                      int has_joker)
    int ofc_next_fl_count(int fl_count, int fl_cards)
    intptr_t ofc_eval_layouts(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                              intptr_t n, const uint8_t *fl, const ofc_eval_cols *o, int validate)
    int ofc_layout_foul(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards)
    int ofc_has_joker(const uint8_t *cards, int n)
    void ofc_eval_layout(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                         int fl_count, ofc_layout_eval *e)
    int32_t ofc_pair_points(const ofc_rules *r, const ofc_layout_eval *a,
                            const ofc_layout_eval *b)


cdef class CompiledRules:
    cdef ofc_rules *r
    cdef readonly object variant
