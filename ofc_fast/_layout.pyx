# cython: language_level=3, cdivision=True
"""Finished-layout kernels: validation, row strengths, fouls, royalties, fantasyland.

Design
------
* per item, C: ``src/ofc_rules.h`` (declared in ``_layout.pxd``) holds the
  compiled rules struct, its row primitives (``ofc_row_rule_at``,
  ``ofc_row_key``, ``ofc_repeat_allowed``) and ``ofc_eval_layout``, one
  layout, which the solver and the play kernels call too;
* loops: ``ofc_eval_layouts`` (same header) evaluates a block of layouts at a
  time, card check included, without the GIL;
* Python: ``CompiledRules`` copies ``ofc_fast.rules.compile_rules`` into the
  C struct; ``evaluate_columns`` lays out the output columns and, for
  ``n_threads > 1``, runs ``_EvalJob`` over contiguous chunks of layouts in
  the shared pool of ``ofc_fast.threads`` (each chunk fills its own slice of
  every column).
"""
from cpython.mem cimport PyMem_Calloc, PyMem_Free
from libc.string cimport memcpy

import functools

import numpy as np

from ofc_fast._eval cimport tables
from ofc_fast.rules import N_ROW_CLASSES, SCALE, compile_rules
from ofc_fast.threads import run_chunks, thread_count

# the Python rule tables and the C struct agree on their sizes (checked at
# import by real code: a stale build stops here, under python -O too)
if N_ROW_CLASSES != OFC_ROW_CLASSES or SCALE != OFC_SCALE:
    raise ImportError(f"ofc_fast._layout was built for {OFC_ROW_CLASSES} row classes and a "
                      f"scale of {OFC_SCALE}; ofc_fast.rules has {N_ROW_CLASSES} and {SCALE}: "
                      f"rebuild the extensions")


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
        for i in range(OFC_MAX_ROWS):
            r.row_len[i] = d["row_len"][i]
            r.row_off[i] = d["row_off"][i]
            r.in_chain[i] = d["in_chain"][i]
            r.may_be_invalid[i] = d["may_be_invalid"][i]
            r.reverse[i] = d["reverse"][i]
        _fill(<char *> r.cls, d["row_class"], np.uint8)
        packed = np.zeros((OFC_MAX_ROWS, OFC_ROW_CLASSES), _ROW_RULE)
        for name in ("royalty", "valid", "entry_pts", "repeat_pts"):
            packed[name] = d[name + "_by_class"]
        _fill(<char *> r.row, packed, _ROW_RULE)
        # The same per-class rules as one word a row, whose fields add up over
        # the rows: royalty (bits 0-15), invalid (16-23), entry (24-31), repeat (32-39).
        word = (packed["royalty"].astype(np.uint64)
                | (1 - packed["valid"].astype(np.uint64)) << np.uint64(16)
                | packed["entry_pts"].astype(np.uint64) << np.uint64(24)
                | packed["repeat_pts"].astype(np.uint64) << np.uint64(32))
        _fill(<char *> r.word, word, np.uint64)
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
        r.jokers = d["jokers"]
        r.joker_board = d["joker_board"]
        r.joker_objective = d["joker_objective"]
        r.joker_top_natural = d["joker_top_natural"]
        r.joker_monotone = d["joker_monotone"]
        r.top_monotone = d["top_monotone"]

    def __dealloc__(self):
        PyMem_Free(self.r)

    @property
    def n_rows(self):
        return self.r.n_rows

    @property
    def n_cards(self):
        return self.r.n_cards


# numpy twin of the C struct ofc_row_rule (6 bytes).
_ROW_RULE = np.dtype([("royalty", "<i2"), ("valid", "u1"), ("entry_pts", "u1"),
                      ("repeat_pts", "u1"), ("pad", "u1")])
if _ROW_RULE.itemsize != sizeof(ofc_row_rule):
    raise ImportError(f"ofc_row_rule is {sizeof(ofc_row_rule)} bytes, its numpy twin "
                      f"{_ROW_RULE.itemsize}: rebuild the extensions")


cdef _fill(char *dst, arr, dtype):
    cdef const unsigned char[::1] src = \
        np.ascontiguousarray(arr, dtype=dtype).reshape(-1).view(np.uint8)
    memcpy(dst, &src[0], src.shape[0])


@functools.lru_cache(maxsize=256)
def rules_for(variant):
    """The :class:`CompiledRules` of a variant (compiled once, then cached;
    bounded, so a stream of custom variants cannot grow memory without end)."""
    return CompiledRules(variant)


# name, dtype, shape per layout: "rows" (R, n), "one" (n,), "jokers" (n, jokers)
_COLUMNS = (("royalty_total", np.int32, "one"), ("strength", np.uint16, "rows"),
            ("royalty", np.int16, "rows"), ("key", np.uint16, "rows"),
            ("foul", np.uint8, "one"), ("fantasyland", np.uint8, "one"),
            ("repeat", np.uint8, "one"), ("finnish_row", np.int8, "one"),
            ("next_in_fantasyland", np.uint8, "one"), ("substitutes", np.uint8, "jokers"))


def _columns(int R, int J, n, bint for_scoring):
    """Uninitialised output columns carved from one buffer, widest first so
    each stays aligned: one large allocation is mapped in few (huge) pages,
    where eight arrays would each fault their pages in one by one."""
    fields = [(name, np.dtype(dt), kind) for name, dt, kind in _COLUMNS
              if for_scoring or name not in ("key", "finnish_row")]
    shapes = {"rows": (R, n), "one": (n,), "jokers": (n, J)}
    sizes = [dt.itemsize * int(np.prod(shapes[kind])) for _, dt, kind in fields]
    buf = np.empty(sum(sizes), np.uint8)
    cols, pos = {}, 0
    for (name, dt, kind), size in zip(fields, sizes):
        cols[name] = buf[pos:pos + size].view(dt).reshape(shapes[kind])
        pos += size
    return cols


MIN_CHUNK = 1 << 14
"""Fewest layouts worth a thread: 16,384 layouts are 150-250 us of work,
several times the ~20 us a hand-off to the pool costs."""


cdef class _EvalJob:
    """One batch of layouts for ``run_chunks``: ``job(lo, hi)`` fills rows
    lo .. hi - 1 of every column without the GIL and returns the first bad
    layout's index, or -1."""
    cdef CompiledRules rules
    cdef object keep          # the cards, fantasyland counts and columns C reads and writes
    cdef const uint8_t *cards
    cdef const uint8_t *fl
    cdef ofc_eval_cols o

    cdef intptr_t run(self, intptr_t lo, intptr_t hi) noexcept nogil:
        cdef ofc_eval_cols part
        cdef intptr_t bad
        cdef int row
        if hi <= lo:
            return -1
        for row in range(OFC_MAX_ROWS):
            part.strength[row] = self.o.strength[row] + lo if self.o.strength[row] else NULL
            part.key[row] = self.o.key[row] + lo if self.o.key[row] else NULL
            part.royalty[row] = self.o.royalty[row] + lo if self.o.royalty[row] else NULL
        part.total = self.o.total + lo
        part.foul = self.o.foul + lo
        part.fantasyland = self.o.fantasyland + lo
        part.repeat = self.o.repeat + lo
        part.finnish_row = self.o.finnish_row + lo if self.o.finnish_row else NULL
        part.sub = self.o.sub + lo * self.rules.r.jokers if self.o.sub else NULL
        part.next_fl = self.o.next_fl + lo if self.o.next_fl else NULL
        bad = ofc_eval_layouts(tables(), self.rules.r, self.cards + lo * self.rules.r.n_cards,
                               hi - lo, self.fl + lo if self.fl else NULL, &part, 1)
        return -1 if bad < 0 else lo + bad

    def __call__(self, intptr_t lo, intptr_t hi):
        cdef intptr_t bad
        with nogil:
            bad = self.run(lo, hi)
        return bad


def evaluate_columns(CompiledRules rules, cards, fl, bint for_scoring=True, reuse=None,
                     n_threads=1):
    """Evaluate validated-shape layouts ``(N, n_cards)`` uint8 with fantasyland
    counts ``(N,)`` uint8 (or None: nobody in fantasyland).  Returns (columns
    dict, first bad row or -1).  The columns include ``next_in_fantasyland``
    (``ofc_next_fl_count``) and ``substitutes`` ``(N, jokers)``: the natural
    card each joker stands for, 255 for a joker the layout lacks.

    Row-wise arrays come as ``(rows, N)`` columns, the layout the scoring
    kernels read; ``for_scoring`` adds their head-to-head keys and Finnish rows.
    ``reuse``: the columns of an earlier call with the same shape, filled
    again (fresh memory costs a page fault per 4 KB on first touch).
    ``n_threads``: as for ``ofc_fast.threads.run_chunks`` (chunks of at least
    :data:`MIN_CHUNK` layouts); the columns and the bad row do not depend on it.
    """
    cdef const uint8_t[:, ::1] c = cards
    cdef const uint8_t[::1] f = fl
    n = cards.shape[0]
    R = rules.r.n_rows
    J = rules.r.jokers
    if reuse is not None:
        cols = reuse
        if for_scoring and "key" not in cols:
            cols["key"] = np.empty((R, n), np.uint16)
            cols["finnish_row"] = np.empty(n, np.int8)
    else:
        cols = _columns(R, J, n, for_scoring)
    cdef uint16_t[:, ::1] s = cols["strength"]
    cdef uint16_t[:, ::1] k = cols["key"] if for_scoring else None
    cdef int16_t[:, ::1] roy = cols["royalty"]
    cdef int32_t[::1] tot = cols["royalty_total"]
    cdef uint8_t[::1] fo = cols["foul"], fan = cols["fantasyland"], rep = cols["repeat"]
    cdef int8_t[::1] fin = cols["finnish_row"] if for_scoring else None
    cdef uint8_t[::1] nxt = cols["next_in_fantasyland"]
    cdef uint8_t[:, ::1] sub = cols["substitutes"]
    cdef intptr_t bad = -1
    cdef _EvalJob job = _EvalJob.__new__(_EvalJob)
    cdef intptr_t count = n
    cdef int row
    if n == 0:
        thread_count(n_threads)   # still refuses a bad n_threads
        return cols, bad
    job.rules = rules
    job.keep = (cards, fl, cols)
    job.cards = &c[0, 0]
    job.fl = &f[0] if fl is not None else NULL
    for row in range(OFC_MAX_ROWS):
        job.o.strength[row] = &s[row, 0] if row < R else NULL
        job.o.key[row] = &k[row, 0] if for_scoring and row < R else NULL
        job.o.royalty[row] = &roy[row, 0] if row < R else NULL
    job.o.total = &tot[0]
    job.o.foul = &fo[0]
    job.o.fantasyland = &fan[0]
    job.o.repeat = &rep[0]
    job.o.finnish_row = &fin[0] if for_scoring else NULL
    job.o.next_fl = &nxt[0]
    job.o.sub = &sub[0, 0] if J else NULL
    if type(n_threads) is int and n_threads == 1:
        with nogil:
            bad = job.run(0, count)
    else:
        bad = min([b for b in run_chunks(job, n, n_threads, min_chunk=MIN_CHUNK) if b >= 0],
                  default=-1)
    return cols, bad
