# cython: language_level=3, cdivision=True
"""Pairwise scoring kernels: matrices, row totals and whole tables."""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, int8_t, int16_t, int32_t, int64_t, intptr_t
from libc.stdint cimport uint64_t

import numpy as np

from ofc_fast._eval cimport ofc_bad_cards, ofc_tables, tables
from ofc_fast._layout cimport CompiledRules, ofc_eval_layout, ofc_layout_eval, ofc_pair_points, ofc_rules

cdef extern from "ofc_score.h" nogil:
    ctypedef struct ofc_cols:
        const int16_t *key[4]
        const int16_t *roy[4]
        const int16_t *tot
        const int16_t *foul
        const int8_t *fin
        intptr_t n
    void ofc_score_row(const ofc_rules *r, const ofc_cols *a, intptr_t i, const ofc_cols *b,
                       int32_t *out)
    int64_t ofc_score_total(const ofc_rules *r, const ofc_cols *a, intptr_t i, const ofc_cols *b)

cdef extern from "ofc_eval.h" nogil:
    ctypedef struct _bits "ofc_tables":
        uint64_t bit[256]


cdef class _Cols:
    """int16 scoring columns of evaluated layouts, kept alive while C reads them.

    Keys (<= 7917) and royalty totals (bounded by compile_rules) fit int16, the
    lane width of the vectorised pair kernels."""
    cdef ofc_cols c
    cdef object keep

    def __init__(self, cols, int n_rows):
        arrays = (cols["key"].view(np.int16), cols["royalty"],
                  cols["royalty_total"].astype(np.int16), cols["foul"].astype(np.int16),
                  cols["finnish_row"])
        self.keep = arrays
        cdef const int16_t[:, ::1] key = arrays[0]
        cdef const int16_t[:, ::1] roy = arrays[1]
        cdef const int16_t[::1] tot = arrays[2]
        cdef const int16_t[::1] foul = arrays[3]
        cdef const int8_t[::1] fin = arrays[4]
        cdef int k
        self.c.n = tot.shape[0]
        if self.c.n == 0:
            return
        for k in range(n_rows):
            self.c.key[k] = &key[k, 0]
            self.c.roy[k] = &roy[k, 0]
        self.c.tot = &tot[0]
        self.c.foul = &foul[0]
        self.c.fin = &fin[0]


def matrix(CompiledRules rules, a, b, out):
    """out[i, j] = points layout i of a wins from layout j of b (int32, C order)."""
    cdef _Cols ca = _Cols(a, rules.r.n_rows), cb = _Cols(b, rules.r.n_rows)
    cdef int32_t[:, ::1] o = out
    cdef intptr_t i
    if cb.c.n == 0:
        return out
    with nogil:
        for i in range(ca.c.n):
            ofc_score_row(rules.r, &ca.c, i, &cb.c, &o[i, 0])
    return out


def totals(CompiledRules rules, a, b, out):
    """out[i] = sum over j of the points layout i of a wins from layout j of b."""
    cdef _Cols ca = _Cols(a, rules.r.n_rows), cb = _Cols(b, rules.r.n_rows)
    cdef int64_t[::1] o = out
    cdef intptr_t i
    with nogil:
        for i in range(ca.c.n):
            o[i] = ofc_score_total(rules.r, &ca.c, i, &cb.c)
    return out


@cython.boundscheck(False)
@cython.wraparound(False)
cdef intptr_t _tables(const ofc_rules *r, const uint8_t[:, :, ::1] cards, const uint8_t[:, ::1] fl,
                      int32_t[:, ::1] out, uint8_t[:, ::1] foul, int16_t[:, ::1] roy,
                      uint8_t[:, ::1] fan) noexcept nogil:
    """Score G tables of P players; return the first bad table * 8 + seat, or -1.

    Seat 7 flags a card shared by two players of the table."""
    cdef const ofc_tables *t = tables()
    cdef const _bits *tb = <const _bits *> t
    cdef intptr_t g, G = cards.shape[0]
    cdef int p, q, P = cards.shape[1], k, nc = r.n_cards
    cdef ofc_layout_eval e[4]
    cdef uint64_t seen, mask
    cdef int32_t pts
    for g in range(G):
        seen = 0
        for p in range(P):
            if ofc_bad_cards(t, &cards[g, p, 0], nc):
                return g * 8 + p
            mask = 0
            for k in range(nc):
                mask |= tb.bit[cards[g, p, k]]
            if mask & seen:
                return g * 8 + 7
            seen |= mask
            ofc_eval_layout(t, r, &cards[g, p, 0], fl[g, p], &e[p])
            foul[g, p] = e[p].foul
            roy[g, p] = <int16_t> e[p].royalty_total
            fan[g, p] = e[p].fantasyland
        for p in range(P):
            out[g, p] = 0
        for p in range(P):
            for q in range(p + 1, P):
                pts = ofc_pair_points(r, &e[p], &e[q])
                out[g, p] += pts
                out[g, q] -= pts
    return -1


def score_tables_kernel(CompiledRules rules, cards, fl):
    """cards (G, P, n_cards) uint8, fl (G, P) uint8 -> (points, foul, royalty, fantasyland, bad)."""
    G, P = cards.shape[0], cards.shape[1]
    points = np.zeros((G, P), np.int32)
    foul = np.zeros((G, P), np.uint8)
    roy = np.zeros((G, P), np.int16)
    fan = np.zeros((G, P), np.uint8)
    cdef intptr_t bad = -1
    cdef const uint8_t[:, :, ::1] c = cards
    cdef const uint8_t[:, ::1] f = fl
    cdef int32_t[:, ::1] o = points
    cdef uint8_t[:, ::1] fo = foul, fa = fan
    cdef int16_t[:, ::1] ro = roy
    if G:
        with nogil:
            bad = _tables(rules.r, c, f, o, fo, ro, fa)
    return points, foul, roy, fan, bad
