# Declarations of src/ofc_score.h: pairwise and table scoring over columns.
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t, intptr_t
from ofc_fast._eval cimport ofc_tables
from ofc_fast._layout cimport OFC_MAX_ROWS, ofc_rules

cdef extern from "ofc_score.h" nogil:
    ctypedef struct ofc_cols:
        const int16_t *key[OFC_MAX_ROWS]
        const int16_t *roy[OFC_MAX_ROWS]
        const int16_t *tot
        const int16_t *foul
        const int8_t *fin
        intptr_t n
    void ofc_score_row(const ofc_rules *r, const ofc_cols *a, intptr_t i, const ofc_cols *b,
                       int32_t *out)
    int64_t ofc_score_total(const ofc_rules *r, const ofc_cols *a, intptr_t i, const ofc_cols *b)
    intptr_t ofc_score_tables(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                              intptr_t G, int P, const uint8_t *fl, int32_t *points,
                              uint8_t *foul, int16_t *royalty_total, uint8_t *fantasyland,
                              uint8_t *sub)
