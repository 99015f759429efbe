# cython: language_level=3, cdivision=True
"""Finished-layout kernels: validation, row strengths, fouls, royalties, fantasyland.

``CompiledRules`` holds a variant's lookup tables (see ``ofc_fast.rules``) in
one C struct the kernels read without the GIL.
"""
cimport cython
from cpython.mem cimport PyMem_Calloc, PyMem_Free
from libc.string cimport memcpy

import numpy as np

from ofc_fast._eval cimport ofc_bad_cards, tables
from ofc_fast.rules import compile_rules


cdef class CompiledRules:
    """A variant compiled to C lookup tables (build with :func:`rules_for`)."""

    def __cinit__(self, variant):
        self.r = <ofc_rules *> PyMem_Calloc(1, sizeof(ofc_rules))
        if self.r == NULL:
            raise MemoryError()
        self.variant = variant
        d = compile_rules(variant)
        cdef ofc_rules *r = self.r
        cdef int i
        r.n_rows = d["n_rows"]
        r.n_cards = d["n_cards"]
        for i in range(4):
            r.row_len[i] = d["row_len"][i]
            r.row_off[i] = d["row_off"][i]
            r.in_chain[i] = d["in_chain"][i]
        _fill(<char *> r.royalty, d["royalty"], np.int16)
        _fill(<char *> r.valid, d["valid"], np.uint8)
        _fill(<char *> r.key, d["key"], np.uint16)
        _fill(<char *> r.entry_pts, d["entry_pts"], np.uint8)
        _fill(<char *> r.repeat_pts, d["repeat_pts"], np.uint8)
        _fill(<char *> r.entry_cards, d["entry_cards"], np.uint8)
        r.repeat_threshold = d["repeat_threshold"]
        r.repeat_cards = d["repeat_cards"]
        r.max_repeats = d["max_repeats"]
        r.finnish = d["finnish"]
        r.per_row = d["per_row"]
        r.scoop_bonus = d["scoop_bonus"]
        r.majority_bonus = d["majority_bonus"]
        r.majority_min = d["majority_min"]
        r.foul_extra = d["foul_extra"]
        r.chunk = d["chunk"]

    def __dealloc__(self):
        PyMem_Free(self.r)

    @property
    def n_rows(self):
        return self.r.n_rows

    @property
    def n_cards(self):
        return self.r.n_cards


cdef _fill(char *dst, arr, dtype):
    cdef const unsigned char[::1] src = np.ascontiguousarray(arr, dtype=dtype).reshape(-1).view(np.uint8)
    memcpy(dst, &src[0], src.shape[0])


_CACHE = {}


def rules_for(variant):
    """The :class:`CompiledRules` of a variant (compiled once, then cached)."""
    r = _CACHE.get(variant)
    if r is None:
        r = _CACHE[variant] = CompiledRules(variant)
    return r


@cython.boundscheck(False)
@cython.wraparound(False)
cdef intptr_t _evaluate(const ofc_rules *r, const uint8_t[:, ::1] cards, const uint8_t[::1] fl,
                        uint16_t[:, ::1] strength, uint16_t[:, ::1] key, int16_t[:, ::1] royalty,
                        int32_t[::1] total, uint8_t[::1] foul, uint8_t[::1] fantasyland,
                        uint8_t[::1] repeat, int8_t[::1] fin) noexcept nogil:
    cdef const ofc_tables *t = tables()
    cdef intptr_t i, n = cards.shape[0]
    cdef int k
    cdef ofc_layout_eval e
    for i in range(n):
        if ofc_bad_cards(t, &cards[i, 0], r.n_cards):
            return i
        ofc_eval_layout(t, r, &cards[i, 0], fl[i], &e)
        for k in range(r.n_rows):
            strength[k, i] = e.strength[k]
            key[k, i] = e.key[k]
            royalty[k, i] = e.royalty[k]
        total[i] = e.royalty_total
        foul[i] = e.foul
        fantasyland[i] = e.fantasyland
        repeat[i] = e.repeat
        fin[i] = e.finnish_row
    return -1


def evaluate_columns(CompiledRules rules, cards, fl):
    """Evaluate validated-shape layouts ``(N, n_cards)`` uint8 with fantasyland
    counts ``(N,)`` uint8.  Returns (columns dict, first bad row or -1).

    Row-wise arrays come as ``(rows, N)`` columns, the layout the scoring
    kernels read.
    """
    cdef const uint8_t[:, ::1] c = cards
    cdef const uint8_t[::1] f = fl
    n = cards.shape[0]
    R = rules.r.n_rows
    cols = dict(
        strength=np.zeros((R, n), np.uint16), key=np.zeros((R, n), np.uint16),
        royalty=np.zeros((R, n), np.int16), royalty_total=np.zeros(n, np.int32),
        foul=np.zeros(n, np.uint8), fantasyland=np.zeros(n, np.uint8),
        repeat=np.zeros(n, np.uint8), finnish_row=np.zeros(n, np.int8),
    )
    cdef uint16_t[:, ::1] s = cols["strength"], k = cols["key"]
    cdef int16_t[:, ::1] roy = cols["royalty"]
    cdef int32_t[::1] tot = cols["royalty_total"]
    cdef uint8_t[::1] fo = cols["foul"], fan = cols["fantasyland"], rep = cols["repeat"]
    cdef int8_t[::1] fin = cols["finnish_row"]
    cdef intptr_t bad = -1
    if n:
        with nogil:
            bad = _evaluate(rules.r, c, f, s, k, roy, tot, fo, fan, rep, fin)
    return cols, bad
