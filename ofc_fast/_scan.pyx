# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The columns of the hands the text readers' scanners read (:class:`Columns`):
hands straight from the bytes of a block of lines into the columns of a
chunk, the rules the caller registered, the players' names kept once each.
The scanners are :mod:`ofc_fast._scan_json` (the common ``ofc-hand/1`` line)
and :mod:`ofc_fast._scan_csv` (plain CSV hands); both say what a scan
stopped at with the codes here.
"""
from libc.stdint cimport uint8_t, int32_t, uint64_t
from libc.string cimport memcmp
from libc.stdlib cimport malloc, realloc, free
from cpython.unicode cimport PyUnicode_DecodeUTF8
from cpython.long cimport PyLong_FromLongLong

import numpy as np

# what scan() stopped at
DONE = 0          # the end of the block, or max_hands hands read
FALLBACK = 1      # a line for the general reader
NEW_RULES = 2     # a line whose variant/options are not registered yet
ROOM = 3          # max_hands hands read (CSV)
FLUSH = 4         # the first row starts a new hand: the row reader's hand ends (CSV)


cdef inline uint64_t _fnv(const uint8_t *s, Py_ssize_t n) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL
    cdef Py_ssize_t i
    for i in range(n):
        h = (h ^ s[i]) * 1099511628211ULL
    return h

cdef class Columns:
    """The columns of the hands a scanner reads (taken with :meth:`take`),
    the rules it has been told of (:meth:`add_rules`) and the players' names,
    kept once each (:attr:`names`; rows refer to them by code)."""

    def __cinit__(self):
        cdef Py_ssize_t i
        self.n_slots = 64
        self.slots = <int32_t *>malloc(self.n_slots * sizeof(int32_t))
        self.codes_cap = 32
        self.n_hash = <uint64_t *>malloc(self.codes_cap * sizeof(uint64_t))
        self.n_off = <Py_ssize_t *>malloc(self.codes_cap * sizeof(Py_ssize_t))
        self.n_len = <Py_ssize_t *>malloc(self.codes_cap * sizeof(Py_ssize_t))
        self.arena_cap = 1024
        self.arena = <uint8_t *>malloc(self.arena_cap)
        if not (self.slots and self.n_hash and self.n_off and self.n_len and self.arena):
            raise MemoryError()
        for i in range(self.n_slots):
            self.slots[i] = -1

    def __dealloc__(self):
        free(self.slots)
        free(self.n_hash)
        free(self.n_off)
        free(self.n_len)
        free(self.arena)

    def __init__(self, bint fast=True, bint splice=False):
        self.fast = fast
        self.with_row_lines = False
        self.with_splice = splice
        self.names = []
        self.rules_keys = []
        self.n_rules = 0
        self.last_rules = -1
        self._reset(1024)

    def _reset(self, Py_ssize_t cap):
        self.ids = []
        self.blocks = []
        self.cur_block = None
        self.cur_blk = -1
        self.n_hands = self.n_rows = self.n_disc = 0
        self._alloc(cap)

    def _alloc(self, Py_ssize_t cap):
        """Room for ``cap`` hands (keeping what is there)."""
        def grow(old, shape, dtype):
            new = np.empty(shape, dtype)
            if old is not None:
                k = min(len(old), len(new))
                new[:k] = old[:k]
            return new
        self.cap_h = cap
        self._h_line = grow(self._h_line, cap, np.int64)
        self._h_lo = grow(self._h_lo, cap, np.int64)
        self._h_hi = grow(self._h_hi, cap, np.int64)
        self._h_P = grow(self._h_P, cap, np.uint8)
        self._h_rules = grow(self._h_rules, cap, np.int32)
        self._h_blk = grow(self._h_blk, cap, np.int32)
        self._cards = grow(self._cards, cap * MAX_P * N_CARDS, np.uint8)
        self._fl = grow(self._fl, cap * MAX_P, np.uint8)
        self._pts = grow(self._pts, cap * MAX_P, np.int64)
        self._has = grow(self._has, cap * MAX_P, np.uint8)
        self._name = grow(self._name, cap * MAX_P, np.int32)
        self._row_line = grow(self._row_line, cap * MAX_P, np.int64)
        self._ndisc = grow(self._ndisc, cap * MAX_P, np.uint8)
        self._disc = grow(self._disc, cap * MAX_P * MAX_DISC, np.uint8)
        if self.with_splice:
            self._splice = grow(self._splice, (cap, SPLICE), np.int32)
            self.splice = self._splice
        self.h_line, self.h_lo, self.h_hi = self._h_line, self._h_lo, self._h_hi
        self.h_P, self.h_rules, self.h_blk = self._h_P, self._h_rules, self._h_blk
        self.cards, self.fl, self.pts, self.has = self._cards, self._fl, self._pts, self._has
        self.name, self.ndisc, self.disc = self._name, self._ndisc, self._disc
        self.row_line = self._row_line

    @property
    def n(self):
        """Hands read since the last :meth:`take`."""
        return self.n_hands

    def add_rules(self, bytes variant, bytes options, int rules_id, int min_players,
                  int max_players):
        """Register rules as written (``variant`` and ``options`` text, None if
        absent): lines with them get ``rules_id``, for ``min_players`` ..
        ``max_players`` players; ``rules_id`` -1 sends such lines to the
        general reader.  Beyond 64 sets of rules, lines with new ones go there too."""
        if self.n_rules >= MAX_RULES:
            return False
        cdef int k = self.n_rules
        self.rules_keys.append((variant, options))
        self.rules_id[k] = rules_id
        self.rules_min[k] = min_players
        self.rules_max[k] = max_players
        self.rules_vn[k] = -1 if variant is None else len(variant)
        self.rules_on[k] = -1 if options is None else len(options)
        self.rules_v[k] = NULL if variant is None else <const uint8_t *>variant
        self.rules_o[k] = NULL if options is None else <const uint8_t *>options
        self.n_rules += 1
        return True

    @property
    def full(self):
        """No more rules can be registered."""
        return self.n_rules >= MAX_RULES

    cdef int _find_rules(self, const uint8_t *s, Line *ln) noexcept nogil:
        """The registered rules of ``ln``'s variant and options text (in ``s``), or -1."""
        cdef int k, start = self.last_rules
        cdef int probe
        for probe in range(-1, self.n_rules):
            k = start if probe < 0 else probe
            if k < 0:
                continue
            if self.rules_vn[k] != ln.var_n or self.rules_on[k] != ln.opt_n:
                continue
            if ln.var_n > 0 and memcmp(self.rules_v[k], s + ln.var_lo, ln.var_n) != 0:
                continue
            if ln.opt_n > 0 and memcmp(self.rules_o[k], s + ln.opt_lo, ln.opt_n) != 0:
                continue
            self.last_rules = k
            return k
        return -1

    cdef _use_block(self, bytes block):
        if block is not self.cur_block:
            self.cur_block = block
            self.blocks.append(block)
            self.cur_blk = len(self.blocks) - 1

    cdef int _commit(self, const uint8_t *buf, Py_ssize_t pos, Py_ssize_t e, Py_ssize_t line,
                     Line *ln, int rk) except -1:
        """The hand of ``ln`` (``buf[pos:e]``, from line ``line``, rules ``rk``)
        into the columns: 0, or 1 (nothing kept) if a name or its id is not
        UTF-8.  Names and ids are Python objects: made here."""
        cdef Py_ssize_t k, p, r, j, base = self.n_rows
        cdef int code
        if self.n_hands >= self.cap_h:
            self._alloc(2 * self.cap_h)
        for p in range(ln.P):
            code = -1
            if ln.name_n[p] >= 0:
                code = self._name_code(buf + pos + ln.name_lo[p], ln.name_n[p])
                if code < 0:
                    return 1
            self.name[base + p] = code
        if ln.id_kind == 1:
            try:
                hid = PyUnicode_DecodeUTF8(<const char *>buf + pos + ln.id_lo, ln.id_n, "strict")
            except UnicodeDecodeError:
                return 1
        elif ln.id_kind == 2:
            hid = PyLong_FromLongLong(ln.id_val)
        else:
            hid = None
        self.ids.append(hid)
        k = self.n_hands
        self.h_line[k] = line
        self.h_lo[k] = pos
        self.h_hi[k] = e
        self.h_P[k] = ln.P
        self.h_rules[k] = self.rules_id[rk]
        self.h_blk[k] = self.cur_blk
        if self.with_splice:
            self._keep_splice(k, ln, e - pos)
        for p in range(ln.P):
            r = base + p
            for j in range(N_CARDS):
                self.cards[r * N_CARDS + j] = ln.cards[p * N_CARDS + j]
            self.fl[r] = ln.fl[p]
            self.pts[r] = ln.pts[p]
            self.has[r] = ln.has[p]
            self.row_line[r] = ln.row_line[p] if self.with_row_lines else line
            self.ndisc[r] = ln.ndisc[p]
            for j in range(ln.ndisc[p]):
                self.disc[self.n_disc + j] = ln.disc[p * MAX_DISC + j]
            self.n_disc += ln.ndisc[p]
        self.n_rows += ln.P
        self.n_hands += 1
        return 0

    cdef void _keep_splice(self, Py_ssize_t k, Line *ln, Py_ssize_t length) noexcept:
        """Hand ``k``'s splice row (``SPLICE`` in ``_scan.pxd``; canon 0 for a
        line too long for int32 offsets)."""
        cdef int p
        cdef int32_t *row = &self.splice[k, 0]
        for p in range(SPLICE):
            row[p] = -1
        row[0] = ln.canon and length < 0x7FFFFFFF
        if not row[0]:
            return
        row[1] = <int32_t>ln.close
        row[2] = <int32_t>ln.var_at
        row[3] = <int32_t>ln.var_end
        for p in range(ln.P):
            row[4 + 3 * p] = <int32_t>ln.pts_at[p]
            row[5 + 3 * p] = <int32_t>ln.pts_end[p]
            row[6 + 3 * p] = <int32_t>ln.p_close[p]

    cdef _pending(self, bytes block, Py_ssize_t pos, Line *ln):
        self._pend = (None if ln.var_n < 0 else block[pos + ln.var_lo:pos + ln.var_lo + ln.var_n],
                      None if ln.opt_n < 0 else block[pos + ln.opt_lo:pos + ln.opt_lo + ln.opt_n])

    def rules_text(self):
        """``(variant, options)`` as written (bytes, None if absent) of the
        hand that a scan stopped at with :data:`NEW_RULES`."""
        return self._pend

    cdef int _name_code(self, const uint8_t *s, Py_ssize_t n) except -2:
        """Code of a name (``s[:n]``, UTF-8), added if new; -1 if not UTF-8."""
        cdef uint64_t h = _fnv(s, n)
        cdef Py_ssize_t mask = self.n_slots - 1, i = <Py_ssize_t>(h & mask), j
        cdef int32_t c
        while True:
            c = self.slots[i]
            if c < 0:
                break
            if self.n_hash[c] == h and self.n_len[c] == n and \
                    memcmp(self.arena + self.n_off[c], s, n) == 0:
                return c
            i = (i + 1) & mask
        try:
            text = PyUnicode_DecodeUTF8(<const char *>s, n, "strict")
        except UnicodeDecodeError:
            return -1
        c = <int32_t>self.n_codes
        if self.n_codes >= self.codes_cap:
            self.codes_cap *= 2
            self.n_hash = <uint64_t *>_grow(self.n_hash, self.codes_cap * sizeof(uint64_t))
            self.n_off = <Py_ssize_t *>_grow(self.n_off, self.codes_cap * sizeof(Py_ssize_t))
            self.n_len = <Py_ssize_t *>_grow(self.n_len, self.codes_cap * sizeof(Py_ssize_t))
        while self.arena_len + n > self.arena_cap:
            self.arena_cap *= 2
            self.arena = <uint8_t *>_grow(self.arena, self.arena_cap)
        self.names.append(text)
        self.n_hash[c] = h
        self.n_off[c] = self.arena_len
        self.n_len[c] = n
        for j in range(n):
            self.arena[self.arena_len + j] = s[j]
        self.arena_len += n
        self.n_codes += 1
        self.slots[i] = c
        if 2 * self.n_codes > self.n_slots:
            self._rehash()
        return c

    cdef _rehash(self):
        cdef Py_ssize_t n = self.n_slots * 4, mask = n - 1, i
        cdef int32_t c
        free(self.slots)
        self.slots = <int32_t *>malloc(n * sizeof(int32_t))
        if not self.slots:
            raise MemoryError()
        self.n_slots = n
        for i in range(n):
            self.slots[i] = -1
        for c in range(<int32_t>self.n_codes):
            i = <Py_ssize_t>(self.n_hash[c] & mask)
            while self.slots[i] >= 0:
                i = (i + 1) & mask
            self.slots[i] = c

    def take(self):
        """The columns of the hands read since the last call (a dict), and a
        fresh start."""
        H, N, D = self.n_hands, self.n_rows, self.n_disc
        # the arrays themselves (not copies): the next hands go into new ones
        out = dict(
            line=self._h_line[:H], P=self._h_P[:H], rules=self._h_rules[:H],
            block=self._h_blk[:H], lo=self._h_lo[:H], hi=self._h_hi[:H], ids=self.ids,
            blocks=self.blocks, cards=self._cards[:N * N_CARDS].reshape(N, N_CARDS),
            in_fantasyland=self._fl[:N], points=self._pts[:N],
            has_points=self._has[:N].view(np.bool_), name=self._name[:N],
            n_discards=self._ndisc[:N], discards=self._disc[:D])
        if self.with_row_lines:
            out["row_line"] = self._row_line[:N]
        if self.with_splice:
            out["splice"] = self._splice[:H]
            self._splice = None
        self._h_line = self._h_lo = self._h_hi = self._h_P = self._h_rules = None
        self._h_blk = self._cards = self._fl = self._pts = self._has = self._name = None
        self._row_line = self._ndisc = self._disc = None
        self._reset(max(1024, H))
        return out


cdef void *_grow(void *p, size_t size) except NULL:
    cdef void *q = realloc(p, size)
    if q == NULL:
        raise MemoryError()
    return q
