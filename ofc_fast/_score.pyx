# cython: language_level=3, cdivision=True
"""Pairwise scoring kernels: matrices, row totals and whole tables.

Design
------
* per item, C: ``src/ofc_score.h`` (declared in ``_score.pxd``) scores one
  pair from int16 columns (``OFC_PAIR16``; ``ofc_pair_points`` of
  ``src/ofc_rules.h`` on the general path);
* loops: ``ofc_score_row`` / ``ofc_score_total`` (one layout against a
  column set, vectorised) and ``ofc_score_tables`` (evaluate and score whole
  tables a block at a time), all without the GIL;
* Python: ``_Cols`` keeps the columns alive while C reads them; the entry
  points below are called by ``ofc_fast.scoring``.
"""
cimport cython
from libc.stdint cimport uint8_t, uint16_t, int8_t, int16_t, int32_t, int64_t, intptr_t

import numpy as np

from ofc_fast._eval cimport ofc_tables, tables
from ofc_fast._layout cimport CompiledRules, ofc_rules
# ofc_cols and the kernels of src/ofc_score.h: declared in _score.pxd

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


def score_tables_kernel(CompiledRules rules, cards, fl, bint details=True):
    """cards (G, P, n_cards) uint8, fl (G, P) uint8 or None (nobody in
    fantasyland) -> (points, foul, royalty, fantasyland, bad); without
    ``details`` the last three arrays are None (and never allocated).

    bad is the first table with a bad or shared card, or -1; the kernel
    writes every output, so they start uninitialised."""
    G, P = cards.shape[0], cards.shape[1]
    points = np.empty((G, P), np.int32)
    foul = np.empty((G, P), np.uint8) if details else None
    roy = np.empty((G, P), np.int16) if details else None
    fan = np.empty((G, P), np.uint8) if details else None
    cdef intptr_t bad = -1, n_tables = G
    cdef int n_players = P
    cdef const uint8_t[:, :, ::1] c = cards
    cdef const uint8_t[:, ::1] f = fl
    cdef const uint8_t *fp = NULL
    cdef int32_t[:, ::1] o = points
    cdef uint8_t[:, ::1] fo = foul
    cdef uint8_t[:, ::1] fa = fan
    cdef int16_t[:, ::1] ro = roy
    cdef uint8_t *fop = NULL
    cdef uint8_t *fap = NULL
    cdef int16_t *rop = NULL
    if G:
        if fl is not None:
            fp = &f[0, 0]
        if details:
            fop, fap, rop = &fo[0, 0], &fa[0, 0], &ro[0, 0]
        with nogil:
            bad = ofc_score_tables(tables(), rules.r, &c[0, 0, 0], n_tables, n_players, fp,
                                   &o[0, 0], fop, rop, fap)
    return points, foul, roy, fan, bad
