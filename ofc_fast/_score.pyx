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
  points below are called by ``ofc_fast.scoring``.  For ``n_threads > 1``,
  ``_PairJob`` (rows of the matrix, or of the totals) and ``_TableJob``
  (tables) run over contiguous chunks in the shared pool of
  ``ofc_fast.threads``, each chunk writing its own slice of the outputs.
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t, intptr_t

import numpy as np

from ofc_fast.threads import run_chunks, thread_count

from ofc_fast._eval cimport tables
from ofc_fast._layout cimport CompiledRules
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


MIN_PAIRS = 1 << 19
"""Fewest pairs worth a thread for ``matrix`` and ``totals``: 524,288 pairs
are 100-150 us of work, several times the ~20 us a hand-off to the pool
costs; a chunk is at least ``MIN_PAIRS / M`` rows."""

MIN_TABLES = 1 << 12
"""Fewest tables worth a thread: 4,096 tables are 130-250 us of work."""


cdef inline bint _one_thread(object n_threads):
    return type(n_threads) is int and n_threads == 1


cdef class _PairJob:
    """Rows lo .. hi - 1 of the matrix (``totals`` False) or of the totals
    (``totals`` True) of a against b, without the GIL."""
    cdef CompiledRules rules
    cdef _Cols a, b
    cdef object keep        # the output array
    cdef int32_t *matrix
    cdef int64_t *total

    cdef intptr_t run(self, intptr_t lo, intptr_t hi) noexcept nogil:
        cdef intptr_t i, m = self.b.c.n
        if self.total != NULL:
            for i in range(lo, hi):
                self.total[i] = ofc_score_total(self.rules.r, &self.a.c, i, &self.b.c)
        else:
            for i in range(lo, hi):
                ofc_score_row(self.rules.r, &self.a.c, i, &self.b.c, self.matrix + i * m)
        return -1

    def __call__(self, intptr_t lo, intptr_t hi):
        with nogil:
            self.run(lo, hi)
        return -1


cdef _pairs(CompiledRules rules, a, b, out, bint totals, n_threads):
    cdef _PairJob job = _PairJob.__new__(_PairJob)
    cdef int32_t[:, ::1] om
    cdef int64_t[::1] ot
    cdef intptr_t n
    job.rules = rules
    job.a, job.b = _Cols(a, rules.r.n_rows), _Cols(b, rules.r.n_rows)
    job.keep = out
    n = job.a.c.n
    if n == 0 or (job.b.c.n == 0 and not totals):
        thread_count(n_threads)   # still refuses a bad n_threads
        return out
    if totals:
        ot = out
        job.total = &ot[0]
    else:
        om = out
        job.matrix = &om[0, 0]
    if _one_thread(n_threads):
        with nogil:
            job.run(0, n)
    else:
        run_chunks(job, n, n_threads, min_chunk=-(-MIN_PAIRS // max(1, job.b.c.n)))
    return out


def matrix(CompiledRules rules, a, b, out, n_threads=1):
    """out[i, j] = points layout i of a wins from layout j of b (int32, C order);
    ``n_threads`` splits the rows of ``out``."""
    return _pairs(rules, a, b, out, False, n_threads)


def totals(CompiledRules rules, a, b, out, n_threads=1):
    """out[i] = sum over j of the points layout i of a wins from layout j of b;
    ``n_threads`` splits ``out``."""
    return _pairs(rules, a, b, out, True, n_threads)


cdef class _TableJob:
    """Tables lo .. hi - 1, without the GIL; the first bad table, or -1."""
    cdef CompiledRules rules
    cdef object keep        # the inputs and outputs C reads and writes
    cdef const uint8_t *cards
    cdef const uint8_t *fl
    cdef int32_t *points
    cdef uint8_t *foul
    cdef int16_t *roy
    cdef uint8_t *fan
    cdef uint8_t *sub
    cdef int n_players

    cdef intptr_t run(self, intptr_t lo, intptr_t hi) noexcept nogil:
        cdef intptr_t bad, at = lo * self.n_players
        if hi <= lo:
            return -1
        bad = ofc_score_tables(tables(), self.rules.r, self.cards + at * self.rules.r.n_cards,
                               hi - lo, self.n_players, self.fl + at if self.fl else NULL,
                               self.points + at, self.foul + at if self.foul else NULL,
                               self.roy + at if self.roy else NULL,
                               self.fan + at if self.fan else NULL,
                               self.sub + at * self.rules.r.jokers if self.sub else NULL)
        return -1 if bad < 0 else lo + bad

    def __call__(self, intptr_t lo, intptr_t hi):
        cdef intptr_t bad
        with nogil:
            bad = self.run(lo, hi)
        return bad


def score_tables_kernel(CompiledRules rules, cards, fl, bint details=True, n_threads=1):
    """cards (G, P, n_cards) uint8, fl (G, P) uint8 or None (nobody in
    fantasyland) -> (points, foul, royalty, fantasyland, substitutes, bad);
    without ``details`` the middle four arrays are None (and never
    allocated); substitutes is (G, P, jokers), the natural card each joker
    stands for (255 where the layout lacks it).

    bad is the first table with a bad or shared card, or -1; the kernel
    writes every output, so they start uninitialised.  ``n_threads`` splits
    the tables into contiguous chunks (of at least :data:`MIN_TABLES`); bad
    is the lowest whatever the split."""
    G, P = cards.shape[0], cards.shape[1]
    points = np.empty((G, P), np.int32)
    foul = np.empty((G, P), np.uint8) if details else None
    roy = np.empty((G, P), np.int16) if details else None
    fan = np.empty((G, P), np.uint8) if details else None
    J = rules.r.jokers
    sub = np.empty((G, P, J), np.uint8) if details else None
    cdef intptr_t bad = -1, n_tables = G
    cdef const uint8_t[:, :, ::1] c = cards
    cdef const uint8_t[:, ::1] f = fl
    cdef int32_t[:, ::1] o = points
    cdef uint8_t[:, ::1] fo = foul
    cdef uint8_t[:, ::1] fa = fan
    cdef int16_t[:, ::1] ro = roy
    cdef uint8_t[:, :, ::1] su = sub
    cdef _TableJob job = _TableJob.__new__(_TableJob)
    if not G:
        thread_count(n_threads)   # still refuses a bad n_threads
        return points, foul, roy, fan, sub, bad
    job.rules = rules
    job.keep = (cards, fl, points, foul, roy, fan, sub)
    job.n_players = P
    job.cards = &c[0, 0, 0]
    job.points = &o[0, 0]
    if fl is not None:
        job.fl = &f[0, 0]
    if details:
        job.foul, job.fan, job.roy = &fo[0, 0], &fa[0, 0], &ro[0, 0]
        if J:
            job.sub = &su[0, 0, 0]
    if _one_thread(n_threads):
        with nogil:
            bad = job.run(0, n_tables)
    else:
        bad = min([b for b in run_chunks(job, G, n_threads, min_chunk=MIN_TABLES) if b >= 0],
                  default=-1)
    return points, foul, roy, fan, sub, bad
