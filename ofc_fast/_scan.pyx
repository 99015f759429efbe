# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The fast paths of the text readers: hands read straight from the bytes of
a block of lines into the columns of a chunk (:class:`Columns`), the card
grammar in C (``_cards.pxd``); :class:`RowScanner` reads plain CSV hands
(see its docstring), :class:`LineScanner` the common ``ofc-hand/1`` line.

A :class:`LineScanner` reads a line only when it understands all of it:

* JSON without escapes in strings, without floats and without nested
  values other than ``players`` (and ``options`` of plain values);
* known keys ``format`` (``"ofc-hand/1"`` or null), ``id`` (text, an
  integer or null), ``variant`` (ASCII text or null), ``options`` (null or an
  object of plain values), ``players`` (1-4 objects), each key once; other
  keys with a plain value (ASCII text, an integer, true, false, null) are
  passed over (they stay in the line, which the JSON Lines writer reads);
* players with ``top``, ``middle``, ``bottom`` as ASCII card text of 3, 5 and
  5 cards (the grammar's ASCII part, ``_cards.pxd``), ``name`` (text or
  null), ``in_fantasyland`` (0-255, true, false, null), ``discards`` (card
  text of at most 16 cards, or null), ``points`` (an integer of at most 18
  digits, true, false or null); other keys as above;
* rules (``variant`` and ``options`` as written) that the caller has
  registered with :meth:`LineScanner.add_rules` as three-row rules with
  rows of 3, 5 and 5 cards, and a player count they allow.

Every other line (blank lines aside) is handed back untouched, for the
general reader to read or to reject with its message: so the two readers
agree by construction on every line the fast path reads.
"""
from libc.stdint cimport uint8_t, int64_t, int32_t, uint64_t
from libc.string cimport memcmp, memchr
from libc.stdlib cimport malloc, realloc, free
from cpython.unicode cimport PyUnicode_DecodeUTF8
from cpython.long cimport PyLong_FromLongLong

from ofc_fast._cards cimport ofc_scan_cards
from ofc_fast._compat cimport ofc_ctz64

import numpy as np

cdef enum:
    MAX_P = 4
    MAX_DISC = 16
    MAX_RULES = 64
    N_CARDS = 13

# what scan() stopped at
DONE = 0          # the end of the block, or max_hands hands read
FALLBACK = 1      # a line for the general reader
NEW_RULES = 2     # a line whose variant/options are not registered yet

cdef enum:
    OK = 0
    S_FALLBACK = 1
    S_NEW_RULES = 2
    S_BLANK = 3

# The keys the fast path knows, with a flag each (players, then records);
# -1: a key of another row shape, left to the general reader.
cdef extern from *:
    """
    enum { K_NAME = 1, K_TOP = 2, K_MIDDLE = 4, K_BOTTOM = 8, K_FL = 16, K_DISC = 32,
           K_POINTS = 64, R_FORMAT = 1, R_ID = 2, R_VARIANT = 4, R_OPTIONS = 8,
           R_PLAYERS = 16 };
    typedef struct { const char *name; Py_ssize_t len; int flag; } ofc_key;
    static const ofc_key OFC_KEYS[2][11] = {
        {{"players", 7, R_PLAYERS}, {"id", 2, R_ID}, {"variant", 7, R_VARIANT},
         {"format", 6, R_FORMAT}, {"options", 7, R_OPTIONS}, {0, 0, 0}},
        {{"top", 3, K_TOP}, {"middle", 6, K_MIDDLE}, {"bottom", 6, K_BOTTOM},
         {"name", 4, K_NAME}, {"points", 6, K_POINTS}, {"discards", 8, K_DISC},
         {"in_fantasyland", 14, K_FL}, {"rows", 4, -1}, {"third", 5, -1},
         {"second", 6, -1}, {0, 0, 0}}};
    """
    enum:
        K_NAME, K_TOP, K_MIDDLE, K_BOTTOM, K_FL, K_DISC, K_POINTS
        R_FORMAT, R_ID, R_VARIANT, R_OPTIONS, R_PLAYERS
    ctypedef struct ofc_key:
        const char *name
        Py_ssize_t len
        int flag
    const ofc_key OFC_KEYS[2][11]


cdef struct Line:
    int P
    uint8_t cards[MAX_P * N_CARDS]
    uint8_t fl[MAX_P]
    int64_t pts[MAX_P]
    uint8_t has[MAX_P]
    Py_ssize_t name_lo[MAX_P]
    Py_ssize_t name_n[MAX_P]        # -1: no name
    uint8_t disc[MAX_P * MAX_DISC]
    uint8_t ndisc[MAX_P]
    int id_kind                     # 0 none, 1 text, 2 integer
    Py_ssize_t id_lo, id_n
    int64_t id_val
    Py_ssize_t var_lo, var_n        # var_n -1: none
    Py_ssize_t opt_lo, opt_n        # opt_n -1: none
    Py_ssize_t row_line[MAX_P]      # CSV: the line of each player's row


cdef inline Py_ssize_t _ws(const uint8_t *s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    while i < n and (s[i] == 32 or s[i] == 9 or s[i] == 13 or s[i] == 10):
        i += 1
    return i


cdef inline Py_ssize_t _string(const uint8_t *s, Py_ssize_t i, Py_ssize_t n, bint *ascii) noexcept nogil:
    """``s[i]`` opens a string: the index after its closing quote, or -1 for
    an escape, a control character or no end.  ``ascii`` is cleared when a
    byte above 0x7f is in it."""
    cdef uint8_t c
    ascii[0] = True
    i += 1
    while i < n:
        c = s[i]
        if c == 34:
            return i + 1
        if c == 92 or c < 32:
            return -1
        if c >= 128:
            ascii[0] = False
        i += 1
    return -1


cdef inline Py_ssize_t _int(const uint8_t *s, Py_ssize_t i, Py_ssize_t n, int64_t *out) noexcept nogil:
    """A JSON integer of at most 18 digits at ``s[i]``: the index after it, or
    -1 (not an integer, a float, a leading zero, too long)."""
    cdef bint neg = False
    cdef int64_t v = 0
    cdef Py_ssize_t start
    if i < n and s[i] == 45:
        neg = True
        i += 1
    start = i
    while i < n and s[i] >= 48 and s[i] <= 57:
        v = v * 10 + (s[i] - 48)
        i += 1
        if i - start > 18:
            return -1
    if i == start or (s[start] == 48 and i - start > 1):
        return -1
    if i < n and (s[i] == 46 or s[i] == 101 or s[i] == 69):
        return -1
    out[0] = -v if neg else v
    return i


cdef inline int _literal(const uint8_t *s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """0 false, 1 true, 2 null, -1 none of them."""
    if i + 4 <= n and memcmp(s + i, b"true", 4) == 0:
        return 1
    if i + 5 <= n and memcmp(s + i, b"false", 5) == 0:
        return 0
    if i + 4 <= n and memcmp(s + i, b"null", 4) == 0:
        return 2
    return -1


cdef inline Py_ssize_t _plain(const uint8_t *s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Pass over a plain value (ASCII text, an integer, true, false, null):
    the index after it, or -1."""
    cdef bint ascii
    cdef int64_t v
    cdef int lit
    if i >= n:
        return -1
    if s[i] == 34:
        i = _string(s, i, n, &ascii)
        return i if ascii else -1
    lit = _literal(s, i, n)
    if lit == 1 or lit == 2:
        return i + 4
    if lit == 0:
        return i + 5
    return _int(s, i, n, &v)


cdef inline Py_ssize_t _options(const uint8_t *s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """``s[i]`` opens an object of plain values: the index after it, or -1."""
    cdef int more
    i = _ws(s, i + 1, n)
    if i < n and s[i] == 125:
        return i + 1
    while True:
        if _member(s, &i, n, False) < 0:
            return -1
        i = _plain(s, i, n)
        if i < 0:
            return -1
        more = _after(s, &i, n, 125)
        if more < 0:
            return -1
        if more == 0:
            return i


cdef inline int _member(const uint8_t *s, Py_ssize_t *pi, Py_ssize_t n, bint player) noexcept nogil:
    """At a member's opening quote: pass over ``"key":`` and the white space
    after it.  The key's flag (:func:`_key`; 0 for another key), or -1 for
    what is not read here (a key with an escape or a byte above 0x7f ...)."""
    cdef Py_ssize_t i = pi[0], ks
    cdef bint ascii
    cdef int key
    if i >= n or s[i] != 34:
        return -1
    ks = i + 1
    i = _string(s, i, n, &ascii)
    if i < 0 or not ascii:
        return -1
    key = _key(s + ks, i - ks - 1, player)
    i = _ws(s, i, n)
    if i >= n or s[i] != 58:
        return -1
    i = _ws(s, i + 1, n)
    if i >= n:
        return -1
    pi[0] = i
    return key


cdef inline int _after(const uint8_t *s, Py_ssize_t *pi, Py_ssize_t n, uint8_t close) noexcept nogil:
    """After a value (``pi[0]`` may be -1: none): 1 at the next one (the
    comma passed), 0 past ``close``, -1 for anything else."""
    cdef Py_ssize_t i = pi[0]
    if i < 0:
        return -1
    i = _ws(s, i, n)
    if i < n and s[i] == 44:
        pi[0] = _ws(s, i + 1, n)
        return 1
    if i < n and s[i] == close:
        pi[0] = i + 1
        return 0
    return -1


cdef inline int _key(const uint8_t *k, Py_ssize_t m, bint player) noexcept nogil:
    """The flag of a known key (0: another key; -1: a row of another shape)."""
    cdef const ofc_key *t = OFC_KEYS[1 if player else 0]
    while t.name != NULL:
        if t.len == m and memcmp(k, t.name, m) == 0:
            return t.flag
        t += 1
    return 0


cdef inline Py_ssize_t _text(const uint8_t *s, Py_ssize_t i, Py_ssize_t n, bint ascii_only,
                             Py_ssize_t *lo, Py_ssize_t *m) noexcept nogil:
    """Text (its span: ``lo``, ``m`` bytes) or null (``m`` = -1) at ``s[i]``:
    the index after it, or -1 (another value; with ``ascii_only``, a byte
    above 0x7f)."""
    cdef bint ascii
    cdef Py_ssize_t j
    if s[i] == 34:
        j = _string(s, i, n, &ascii)
        if j < 0 or (ascii_only and not ascii):
            return -1
        lo[0] = i + 1
        m[0] = j - i - 2
        return j
    if _literal(s, i, n) == 2:
        m[0] = -1
        return i + 4
    return -1


cdef inline Py_ssize_t _row(const uint8_t *s, Py_ssize_t i, Py_ssize_t n, uint8_t *out,
                            Py_ssize_t size) noexcept nogil:
    """Card text of exactly ``size`` cards at ``s[i]``: the index after it, or -1."""
    cdef bint ascii
    cdef Py_ssize_t j
    if i >= n or s[i] != 34:
        return -1
    j = _string(s, i, n, &ascii)
    if j < 0 or not ascii or ofc_scan_cards(s + i + 1, j - i - 2, out, size) != size:
        return -1
    return j


cdef int _player(const uint8_t *s, Py_ssize_t *pi, Py_ssize_t n, Line *ln, int p) noexcept nogil:
    """One player object at ``s[pi[0]]`` into seat ``p`` of ``ln``: OK or S_FALLBACK."""
    cdef Py_ssize_t i = pi[0], lo, m
    cdef int seen = 0, key, lit, more
    cdef int64_t v
    cdef Py_ssize_t got
    ln.fl[p] = 0
    ln.pts[p] = 0
    ln.has[p] = 0
    ln.name_n[p] = -1
    ln.ndisc[p] = 0
    if i >= n or s[i] != 123:
        return S_FALLBACK
    i = _ws(s, i + 1, n)
    if i < n and s[i] == 125:
        return S_FALLBACK
    while True:
        key = _member(s, &i, n, True)
        if key < 0 or (key & seen):
            return S_FALLBACK
        seen |= key
        if key == K_TOP:
            i = _row(s, i, n, &ln.cards[p * N_CARDS], 3)
        elif key == K_MIDDLE:
            i = _row(s, i, n, &ln.cards[p * N_CARDS + 3], 5)
        elif key == K_BOTTOM:
            i = _row(s, i, n, &ln.cards[p * N_CARDS + 8], 5)
        elif key == K_NAME:
            i = _text(s, i, n, False, &ln.name_lo[p], &ln.name_n[p])
        elif key == K_DISC:
            i = _text(s, i, n, True, &lo, &m)
            if i >= 0 and m >= 0:
                got = ofc_scan_cards(s + lo, m, &ln.disc[p * MAX_DISC], MAX_DISC)
                if got < 0:
                    return S_FALLBACK
                ln.ndisc[p] = <uint8_t>got
        elif key == K_FL or key == K_POINTS:
            lit = _literal(s, i, n)
            if lit >= 0:
                v = lit if lit < 2 else 0
                i += 5 if lit == 0 else 4
            else:
                i = _int(s, i, n, &v)
                if i < 0:
                    return S_FALLBACK
            if key == K_FL:
                if v < 0 or v > 255:
                    return S_FALLBACK
                ln.fl[p] = <uint8_t>v
            else:
                ln.pts[p] = v
                ln.has[p] = lit != 2
        else:
            i = _plain(s, i, n)
        more = _after(s, &i, n, 125)
        if more < 0:
            return S_FALLBACK
        if more == 0:
            break
    if (seen & (K_TOP | K_MIDDLE | K_BOTTOM)) != (K_TOP | K_MIDDLE | K_BOTTOM):
        return S_FALLBACK
    pi[0] = i
    return OK


cdef int _record(const uint8_t *s, Py_ssize_t n, Line *ln) noexcept nogil:
    """One line into ``ln``: OK, S_FALLBACK or S_BLANK (rules not looked at)."""
    cdef Py_ssize_t i, j
    cdef int seen = 0, key, r, more
    i = 0
    while i < n and (s[i] == 32 or (s[i] >= 9 and s[i] <= 13)):
        i += 1
    if i == n:
        return S_BLANK
    i = _ws(s, 0, n)
    ln.P = 0
    ln.id_kind = 0
    ln.var_n = -1
    ln.opt_n = -1
    if s[i] != 123:
        return S_FALLBACK
    i = _ws(s, i + 1, n)
    while True:
        key = _member(s, &i, n, False)
        if key < 0 or (key & seen):
            return S_FALLBACK
        seen |= key
        if key == R_PLAYERS:
            if s[i] != 91:
                return S_FALLBACK
            i = _ws(s, i + 1, n)
            while True:
                if ln.P >= MAX_P:
                    return S_FALLBACK
                r = _player(s, &i, n, ln, ln.P)
                if r != OK:
                    return r
                ln.P += 1
                more = _after(s, &i, n, 93)
                if more < 0:
                    return S_FALLBACK
                if more == 0:
                    break
        elif key == R_ID:
            if s[i] == 34 or s[i] == 110:
                i = _text(s, i, n, False, &ln.id_lo, &ln.id_n)
                ln.id_kind = 1 if ln.id_n >= 0 else 0
            else:
                i = _int(s, i, n, &ln.id_val)
                ln.id_kind = 2
        elif key == R_VARIANT:
            i = _text(s, i, n, True, &ln.var_lo, &ln.var_n)
        elif key == R_OPTIONS:
            if s[i] == 123:
                j = _options(s, i, n)
                if j < 0:
                    return S_FALLBACK
                ln.opt_lo = i
                ln.opt_n = j - i
                i = j
            elif _literal(s, i, n) == 2:
                i += 4
            else:
                return S_FALLBACK
        elif key == R_FORMAT:
            if i + 12 <= n and memcmp(s + i, b'"ofc-hand/1"', 12) == 0:
                i += 12
            elif _literal(s, i, n) == 2:
                i += 4
            else:
                return S_FALLBACK
        else:
            i = _plain(s, i, n)
        more = _after(s, &i, n, 125)
        if more < 0:
            return S_FALLBACK
        if more == 0:
            break
    if not (seen & R_PLAYERS) or ln.P == 0:
        return S_FALLBACK
    if _ws(s, i, n) != n:
        return S_FALLBACK
    return OK


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

    cdef public list names
    cdef list ids, blocks, rules_keys
    cdef object _h_line, _h_P, _h_rules, _h_blk, _h_lo, _h_hi
    cdef object _cards, _fl, _pts, _has, _name, _ndisc, _disc
    cdef int64_t[::1] h_line, h_lo, h_hi
    cdef uint8_t[::1] h_P, fl, has, ndisc, cards, disc
    cdef int32_t[::1] h_rules, h_blk, name
    cdef int64_t[::1] pts
    cdef Py_ssize_t n_hands, n_rows, n_disc, cap_h
    # rules registered: (variant, options) text -> what the caller said of them
    cdef int n_rules, last_rules
    cdef int rules_id[MAX_RULES]
    cdef int rules_min[MAX_RULES]
    cdef int rules_max[MAX_RULES]
    cdef Py_ssize_t rules_vn[MAX_RULES]
    cdef Py_ssize_t rules_on[MAX_RULES]
    cdef const uint8_t *rules_v[MAX_RULES]
    cdef const uint8_t *rules_o[MAX_RULES]
    # names: open addressing table of codes, their hashes and bytes
    cdef int32_t *slots
    cdef Py_ssize_t n_slots
    cdef uint64_t *n_hash
    cdef Py_ssize_t *n_off
    cdef Py_ssize_t *n_len
    cdef uint8_t *arena
    cdef Py_ssize_t arena_len, arena_cap, n_codes, codes_cap
    cdef object cur_block
    cdef int cur_blk
    cdef object _pend, _row_line
    cdef int64_t[::1] row_line
    cdef bint fast, with_row_lines

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

    def __init__(self, bint fast=True):
        self.fast = fast
        self.with_row_lines = False
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
        self._h_line = self._h_lo = self._h_hi = self._h_P = self._h_rules = None
        self._h_blk = self._cards = self._fl = self._pts = self._has = self._name = None
        self._row_line = self._ndisc = self._disc = None
        self._reset(max(1024, H))
        return out


cdef class LineScanner(Columns):
    """Reads the common shape of ``ofc-hand/1`` lines (module docstring) into
    columns, a block of lines at a time; hands back every other line
    (``fast=False``: every line, for tests that compare the two readers)."""

    def scan(self, bytes block, Py_ssize_t pos, Py_ssize_t line, Py_ssize_t max_hands):
        """Read lines of ``block`` from byte ``pos`` (line number ``line``) until
        its end, ``max_hands`` hands, or a line this path does not read.

        Returns ``(what, pos, end, line)``: ``what`` is :data:`DONE` (``pos``
        where reading stopped), :data:`FALLBACK` (``block[pos:end]`` is line
        ``line``, for the general reader) or :data:`NEW_RULES` (line ``line`` at
        ``pos`` has rules not registered: :meth:`rules_text` says which).
        ``block`` holds whole lines."""
        cdef const uint8_t *buf = block
        cdef Py_ssize_t n = len(block), e
        cdef const void *hit
        cdef Line ln
        cdef int st, rk
        cdef Py_ssize_t read = 0
        if pos < 0 or pos > n:
            raise ValueError("pos is outside the block")
        self._use_block(block)
        while pos < n and read < max_hands:
            hit = memchr(buf + pos, 10, n - pos)
            e = n if hit == NULL else <Py_ssize_t>(<const uint8_t *>hit - buf) + 1
            if not self.fast:
                return FALLBACK, pos, e, line
            st = _record(buf + pos, e - pos, &ln)
            if st == S_BLANK:
                pos = e
                line += 1
                continue
            if st != OK:
                return FALLBACK, pos, e, line
            rk = self._find_rules(buf + pos, &ln)
            if rk < 0:
                if self.n_rules >= MAX_RULES:
                    return FALLBACK, pos, e, line
                self._pending(block, pos, &ln)
                return NEW_RULES, pos, e, line
            if self.rules_id[rk] < 0 or ln.P < self.rules_min[rk] or ln.P > self.rules_max[rk]:
                return FALLBACK, pos, e, line
            if self._commit(buf, pos, e, line, &ln, rk):
                return FALLBACK, pos, e, line
            read += 1
            pos = e
            line += 1
        return DONE, pos, pos, line


# ------------------------------------------------------------------------- CSV
# what RowScanner.scan stopped at, besides DONE, FALLBACK and NEW_RULES
ROOM = 3          # max_hands hands read
FLUSH = 4         # the first row starts a new hand: the row reader's hand ends

# the fields of a CSV row that the scanner reads (its columns: RowScanner(columns=))
CSV_FIELDS = ("hand_id", "seat", "n_players", "name", "variant", "options", "in_fantasyland",
              "top", "middle", "bottom", "third", "second", "rows", "discards", "points")
cdef enum:
    F_HID, F_SEAT, F_NPLAYERS, F_NAME, F_VARIANT, F_OPTIONS, F_FL, F_TOP, F_MIDDLE, F_BOTTOM
    F_THIRD, F_SECOND, F_ROWS, F_DISC, F_POINTS, N_FIELDS
    MAX_COLUMNS = 256


cdef inline Py_ssize_t _utf8(const uint8_t *s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """The index after the UTF-8 sequence at ``s[i]`` (a byte above 0x7f), or
    -1 if it is not one, as Python's strict decoder judges (no overlong
    forms, no surrogates, nothing above U+10FFFF)."""
    cdef uint8_t c = s[i], lo = 0x80, hi = 0xBF
    cdef int k, j
    if 0xC2 <= c <= 0xDF:
        k = 1
    elif 0xE0 <= c <= 0xEF:
        k = 2
        if c == 0xE0:
            lo = 0xA0
        elif c == 0xED:
            hi = 0x9F
    elif 0xF0 <= c <= 0xF4:
        k = 3
        if c == 0xF0:
            lo = 0x90
        elif c == 0xF4:
            hi = 0x8F
    else:
        return -1
    if i + k >= n or not (lo <= s[i + 1] <= hi):
        return -1
    for j in range(2, k + 1):
        if not (0x80 <= s[i + j] <= 0xBF):
            return -1
    return i + k + 1


cdef extern from *:
    """
    /* bytes of a CSV line: 0 plain, 1 a comma, 2 not read here (a quote, a
       carriage return, a NUL), 3 the start of a UTF-8 sequence (or not UTF-8) */
    #include <string.h>
    #include "ofc_compat.h"
    static unsigned char OFC_CSV_CLASS[256];
    static void ofc_csv_classes(void) {
        for (int c = 0; c < 256; c++) OFC_CSV_CLASS[c] = c >= 0x80 ? 3 : 0;
        OFC_CSV_CLASS[','] = 1; OFC_CSV_CLASS['"'] = 2; OFC_CSV_CLASS['\\r'] = 2;
        OFC_CSV_CLASS[0] = 2;
    }
    /* Eight bytes at a time (little-endian only, ofc_compat.h): 0x80 in
       each byte of w that equals c, exactly (no borrow between bytes). */
    static inline uint64_t ofc_bytes_eq(uint64_t w, unsigned char c) {
        const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
        uint64_t v = w ^ (0x0101010101010101ULL * c);
        return ~(((v & low7) + low7) | v | low7);
    }
    static inline uint64_t ofc_load64(const unsigned char *p) {
        uint64_t w; memcpy(&w, p, 8); return w;
    }
    """
    unsigned char OFC_CSV_CLASS[256]
    void ofc_csv_classes() noexcept nogil
    uint64_t ofc_bytes_eq(uint64_t w, unsigned char c) noexcept nogil
    uint64_t ofc_load64(const uint8_t *p) noexcept nogil
    bint OFC_LITTLE_ENDIAN

ofc_csv_classes()


cdef inline bint _field(const int *slot, int width, int *col, Py_ssize_t start,
                        Py_ssize_t stop, Py_ssize_t *lo, Py_ssize_t *m) noexcept nogil:
    """The field ``[start, stop)`` of column ``col[0]`` (kept if the scanner
    reads that column), then the next column; False past the header's width."""
    cdef int f
    if col[0] >= width:
        return False
    f = slot[col[0]]
    if f >= 0:
        lo[f] = start
        m[f] = stop - start
    col[0] += 1
    return True


cdef inline bint _split(const uint8_t *s, Py_ssize_t n, const int *slot, int width,
                        Py_ssize_t *lo, Py_ssize_t *m) noexcept nogil:
    """Split a line (without its line end) at commas: the span of each field
    the scanner reads into ``lo``/``m`` (by ``slot`` of its column).  False for
    a line it does not read: a quote, a carriage return, a NUL, text that is
    not UTF-8, or another number of fields than ``width``.

    Eight bytes at a time where it can (the commas of a word found at once,
    no branch per byte), then byte by byte."""
    cdef Py_ssize_t i = 0, start = 0, j
    cdef int col = 0
    cdef uint8_t k
    cdef uint64_t w, commas, special
    while OFC_LITTLE_ENDIAN and i + 8 <= n:
        w = ofc_load64(s + i)
        special = (ofc_bytes_eq(w, 34) | ofc_bytes_eq(w, 13) | ofc_bytes_eq(w, 0) | w) & \
            0x8080808080808080ULL
        commas = ofc_bytes_eq(w, 44)
        if special:
            commas &= (special & (~special + 1)) - 1     # the commas before it
        while commas:
            j = i + (ofc_ctz64(commas) >> 3)
            if not _field(slot, width, &col, start, j, lo, m):
                return False
            start = j + 1
            commas &= commas - 1
        if not special:
            i += 8
            continue
        j = i + (ofc_ctz64(special) >> 3)
        if OFC_CSV_CLASS[s[j]] == 2:
            return False
        i = _utf8(s, j, n)
        if i < 0:
            return False
    while True:
        k = OFC_CSV_CLASS[s[i]] if i < n else 1
        if k == 0:
            i += 1
            continue
        if k == 1:
            if not _field(slot, width, &col, start, i, lo, m):
                return False
            if i >= n:
                break
            i += 1
            start = i
            continue
        if k == 2:
            return False
        i = _utf8(s, i, n)
        if i < 0:
            return False
    return col == width


cdef inline bint _csv_int(const uint8_t *s, Py_ssize_t n, int64_t *out, uint8_t *given) noexcept nogil:
    """An empty cell (not given) or ``-?[0-9]{1,18}``; False for anything else."""
    cdef bint neg = n > 0 and s[0] == 45
    cdef Py_ssize_t j
    cdef int64_t v = 0
    given[0] = n > 0
    out[0] = 0
    if n == 0:
        return True
    if neg:
        s += 1
        n -= 1
    if n < 1 or n > 18:
        return False
    for j in range(n):
        if s[j] < 48 or s[j] > 57:
            return False
        v = v * 10 + (s[j] - 48)
    out[0] = -v if neg else v
    return True


# One CSV line as the scanner sees it before it knows the hand it belongs
# to: what _read_row makes of it.  Reading lines is most of the work and
# needs nothing but the line, so RowScanner.lines can do it for a whole block
# in another thread (without the GIL) while this one places the hands.
cdef enum:
    L_BLANK = 0       # an empty line: passed over
    L_OTHER = 1       # not a row the scanner reads (too long, a quote, ...): the row reader's
    L_ROW = 2         # a row of the plain shape
    L_ODD = 3         # a row with a hand id, but not of the plain shape: its hand is the row reader's

cdef struct Row:
    Py_ssize_t len                      # bytes, the line end included
    int kind
    uint8_t seat                        # the seat's byte if it is one byte, else 0
    uint8_t n_players                   # as written, 0 if empty
    bint options                        # an options value is given
    Py_ssize_t hid_lo, hid_n, name_lo, name_n, var_lo, var_n   # from the line's start
    uint8_t fl, has, ndisc
    int64_t pts
    uint8_t cards[N_CARDS]
    uint8_t disc[MAX_DISC]

cdef enum:
    # bytes of the shortest plain row (its 13 cards are 26): a block of n
    # bytes holds at most n // MIN_ROW + 1 of them (RowLines holds no more)
    MIN_ROW = 24


cdef inline void _zero_spans(Py_ssize_t *lo, Py_ssize_t *m) noexcept nogil:
    cdef int f
    for f in range(N_FIELDS):
        lo[f] = 0
        m[f] = 0


cdef void _read_row(const uint8_t *s, Py_ssize_t n, const int *slot, int width,
                    Py_ssize_t limit, Row *r, Py_ssize_t *lo, Py_ssize_t *m) noexcept nogil:
    """The line at ``s`` (``n`` bytes to the end of the block) into ``r``;
    ``lo``/``m`` are the caller's room for the fields' spans, zeroed before
    its first line (the fields without a column stay 0: _split sets every
    other one of a line it reads)."""
    cdef const void *hit = memchr(s, 10, n)
    cdef Py_ssize_t e = n if hit == NULL else <Py_ssize_t>(<const uint8_t *>hit - s) + 1
    cdef Py_ssize_t nonl = e - (1 if hit != NULL else 0)
    cdef int64_t v
    cdef uint8_t given
    cdef Py_ssize_t got
    r.len = e
    if nonl == 0:
        r.kind = L_BLANK
        return
    if e > limit or not _split(s, nonl, slot, width, lo, m) or m[F_HID] == 0:
        r.kind = L_OTHER
        return
    r.hid_lo, r.hid_n = lo[F_HID], m[F_HID]
    r.var_lo, r.var_n = lo[F_VARIANT], m[F_VARIANT]
    r.name_lo, r.name_n = lo[F_NAME], m[F_NAME]
    r.options = m[F_OPTIONS] > 0
    r.seat = s[lo[F_SEAT]] if m[F_SEAT] == 1 else 0
    r.kind = L_ODD
    if m[F_THIRD] > 0 or m[F_SECOND] > 0 or m[F_ROWS] > 0:
        return
    if m[F_NPLAYERS] > 1 or (m[F_NPLAYERS] == 1 and not (49 <= s[lo[F_NPLAYERS]] <= 52)):
        return
    r.n_players = s[lo[F_NPLAYERS]] - 48 if m[F_NPLAYERS] == 1 else 0
    got = ofc_scan_cards(s + lo[F_DISC], m[F_DISC], r.disc, MAX_DISC)
    if got < 0:
        return
    r.ndisc = <uint8_t>got
    if ofc_scan_cards(s + lo[F_TOP], m[F_TOP], r.cards, 3) != 3 or \
            ofc_scan_cards(s + lo[F_MIDDLE], m[F_MIDDLE], r.cards + 3, 5) != 5 or \
            ofc_scan_cards(s + lo[F_BOTTOM], m[F_BOTTOM], r.cards + 8, 5) != 5:
        return
    if not _csv_int(s + lo[F_FL], m[F_FL], &v, &given) or v < 0 or v > 255:
        return
    r.fl = <uint8_t>v
    if not _csv_int(s + lo[F_POINTS], m[F_POINTS], &r.pts, &r.has):
        return
    r.kind = L_ROW


cdef class RowLines:
    """The lines of a block of CSV, each read on its own (:meth:`RowScanner.lines`):
    what :meth:`RowScanner.scan` would read there, read beforehand."""

    cdef readonly bytes block
    cdef readonly Py_ssize_t size       # the bytes of the block these lines cover
    cdef Row *rows
    cdef Py_ssize_t *starts
    cdef Py_ssize_t n

    def __dealloc__(self):
        free(self.rows)
        free(self.starts)

    def __len__(self):
        return self.n

    def last_hand(self):
        """Where the rows of the block's last hand begin (the hand may go on
        in the next block), or -1 if that cannot be told here: the block is
        one hand, or its last line is not a row this scanner reads (the row
        reader keeps its own hands across blocks), or a line was left unread."""
        cdef const uint8_t *buf = self.block
        cdef Py_ssize_t k = self.n - 1, last = -1
        cdef const Row *r
        if self.n == 0 or self.starts[self.n - 1] + self.rows[self.n - 1].len != self.size:
            return -1
        while k >= 0:
            r = &self.rows[k]
            if r.kind == L_BLANK:
                k -= 1
                continue
            if r.kind == L_OTHER:
                break
            if last >= 0:
                if r.hid_n != self.rows[last].hid_n or memcmp(
                        buf + self.starts[k] + r.hid_lo,
                        buf + self.starts[last] + self.rows[last].hid_lo, r.hid_n) != 0:
                    break
            last = k
            k -= 1
        # the line before the run: a row of another hand ends the block's
        # last hand there; the block's start or a line the row reader reads
        # (whose hand id it judges) leaves the end unknown
        if last < 0 or k < 0 or self.rows[k].kind == L_OTHER:
            return -1
        return self.starts[last]

    def cut(self, Py_ssize_t at):
        """Keep the lines before byte ``at`` (:meth:`last_hand`): they cover
        ``block[:at]`` (``size`` becomes ``at``; nothing is copied); returns
        the rest, ``block[at:size]``."""
        if not 0 < at < self.size or self.find(at) == self.n:
            raise ValueError("not the start of a line of the block")
        rest = self.block[at:self.size]
        while self.n and self.starts[self.n - 1] >= at:
            self.n -= 1
        self.size = at
        return rest

    cdef bint grow(self, Py_ssize_t room) noexcept nogil:
        """Room for ``room`` lines; False (and the lines as they were) if
        there is no memory for it."""
        cdef Row *rows = <Row *>realloc(self.rows, room * sizeof(Row))
        if rows == NULL:
            return False
        self.rows = rows
        cdef Py_ssize_t *starts = <Py_ssize_t *>realloc(self.starts, room * sizeof(Py_ssize_t))
        if starts == NULL:
            return False
        self.starts = starts
        return True

    cdef Py_ssize_t find(self, Py_ssize_t pos) noexcept nogil:
        """The line that starts at byte ``pos``, or the number of lines."""
        cdef Py_ssize_t a = 0, b = self.n, k
        while a < b:
            k = (a + b) // 2
            if self.starts[k] < pos:
                a = k + 1
            else:
                b = k
        return a if a < self.n and self.starts[a] == pos else self.n


cdef class RowScanner(Columns):
    """Reads CSV rows of the plain shape into columns, a block of lines at a
    time: no quotes, carriage returns or NULs, as many fields as the header,
    UTF-8; hands of consecutive rows of one ``hand_id`` with seats written
    ``0`` .. ``P - 1`` in order and ``n_players`` empty or ``P``; rows ``top``,
    ``middle``, ``bottom`` of plain ASCII card text of 3, 5 and 5 cards and no
    ``third``, ``second``, ``rows``; ``in_fantasyland`` (0-255) and ``points``
    empty or plain integers; ``discards`` empty or plain card text; the first
    row's ``variant`` registered with :meth:`add_rules` (as text, options
    None) and its ``options`` empty.  It stops at the first hand of any
    other shape, for the row reader (which says what is wrong with it).

    ``columns`` holds the column of each of :data:`CSV_FIELDS` in the
    header (-1: none; ``hand_id`` is the hand id column, ``id`` if there is
    no ``hand_id``); ``limit`` is the longest line, line end included."""

    cdef int slot[MAX_COLUMNS]
    cdef int width
    cdef Py_ssize_t limit

    def __init__(self, columns, int width, Py_ssize_t limit, bint fast=True):
        Columns.__init__(self, fast)
        self.with_row_lines = True
        if width > MAX_COLUMNS or len(columns) != N_FIELDS:
            raise ValueError(f"{width} columns, {len(columns)} fields: not read here")
        self.width = width
        self.limit = limit
        for c in range(MAX_COLUMNS):
            self.slot[c] = -1
        for f, c in enumerate(columns):
            if c >= width:
                raise ValueError(f"column {c} of {width}")
            if c >= 0:
                self.slot[c] = f

    def lines(self, bytes block):
        """Read the lines of ``block`` (whole lines) each on its own, without
        the GIL (safe in another thread while this scanner scans), for
        :meth:`scan` to place in hands: a :class:`RowLines`."""
        cdef RowLines out = RowLines.__new__(RowLines)
        cdef const uint8_t *buf = block
        # room for lines of 64 bytes on average (a file's rows are longer),
        # growing up to the most plain rows the block can hold; lines past
        # that (short ones) are read in scan
        cdef Py_ssize_t n = len(block), most = n // MIN_ROW + 1, pos = 0, k = 0
        cdef Py_ssize_t room = min(most, n // 64 + 64)
        cdef Py_ssize_t lo[N_FIELDS]
        cdef Py_ssize_t m[N_FIELDS]
        _zero_spans(lo, m)
        out.block = block
        out.size = n
        out.rows = <Row *>malloc(room * sizeof(Row))
        out.starts = <Py_ssize_t *>malloc(room * sizeof(Py_ssize_t))
        if out.rows == NULL or out.starts == NULL:
            raise MemoryError()
        with nogil:
            while pos < n:
                if k == room:
                    if room == most or not out.grow(min(most, 2 * room)):
                        break
                    room = min(most, 2 * room)
                _read_row(buf + pos, n - pos, self.slot, self.width, self.limit, &out.rows[k],
                          lo, m)
                out.starts[k] = pos
                pos += out.rows[k].len
                k += 1
        out.n = k
        return out

    def scan(self, bytes block, Py_ssize_t pos, Py_ssize_t line, bytes pending, bint eof,
             Py_ssize_t max_hands, RowLines lines=None, Py_ssize_t shift=0,
             Py_ssize_t end=-1):
        """Read the hands of ``block[:end]`` (``end`` -1: all of it) from byte
        ``pos`` (line number ``line``) until its end, ``max_hands`` hands, or
        a hand of another shape.

        ``pending`` is the hand id (UTF-8) of a hand whose rows the row
        reader has begun, or None.  ``lines``, if given, holds the lines of
        ``block[shift:end]`` read beforehand (:meth:`lines`).  Returns ``(what,
        pos, line)``: :data:`DONE` (the rows from ``pos`` are a hand that may
        go on in the next block: none unless ``pos`` < ``len(block)``; at
        ``eof`` all is read), :data:`ROOM`, :data:`FALLBACK` (the row reader
        reads on from ``pos``), :data:`NEW_RULES` (the hand at ``pos`` has a
        variant not registered: :meth:`rules_text`) or :data:`FLUSH` (the row
        reader's hand ends before ``pos``: call again with ``pending`` None)."""
        cdef const uint8_t *buf = block
        cdef Py_ssize_t n = len(block) if end < 0 else end, e, last = 0, hpos = pos
        cdef Py_ssize_t hline = line, read = 0
        cdef Line ln
        cdef Row here
        cdef const Row *r = &here
        cdef Py_ssize_t lo[N_FIELDS]
        cdef Py_ssize_t m[N_FIELDS]
        cdef Py_ssize_t hid_lo = 0, hid_n = 0, k = 0, nl = 0
        cdef uint8_t nplay[MAX_P]
        cdef int P = 0, rk, p, j
        if n > len(block):
            raise ValueError("end is past the block")
        if pos < 0 or pos > n:
            raise ValueError("pos is outside the block")
        if lines is not None and (shift < 0 or lines.size != n - shift):
            raise ValueError("lines are not those of the block")
        if not self.fast:
            return FALLBACK, pos, line
        self._use_block(block)
        _zero_spans(lo, m)
        if lines is not None:
            nl = lines.n
            k = lines.find(pos - shift) if pos >= shift else 0
        ln.P = 0
        while True:
            if pos < n:
                if k < nl and pos >= shift and lines.starts[k] == pos - shift:
                    r = &lines.rows[k]
                    k += 1
                else:
                    _read_row(buf + pos, n - pos, self.slot, self.width, self.limit, &here,
                              lo, m)
                    r = &here
                e = pos + r.len
                if r.kind == L_BLANK:               # no row
                    pos = e
                    line += 1
                    continue
                if r.kind == L_OTHER:
                    return FALLBACK, (hpos if P else pos), (hline if P else line)
            if P and (pos >= n or r.hid_n != hid_n or
                      memcmp(buf + pos + r.hid_lo, buf + hid_lo, hid_n) != 0):
                # the hand from hpos ends here
                if pos >= n and not eof:
                    return DONE, hpos, hline
                ln.P = P
                for p in range(P):
                    if nplay[p] and nplay[p] != P:
                        return FALLBACK, hpos, hline
                rk = self._find_rules(buf + hpos, &ln)
                if rk < 0:
                    if self.n_rules >= MAX_RULES:
                        return FALLBACK, hpos, hline
                    self._pending(block, hpos, &ln)
                    return NEW_RULES, hpos, hline
                if self.rules_id[rk] < 0 or P < self.rules_min[rk] or P > self.rules_max[rk]:
                    return FALLBACK, hpos, hline
                if self._commit(buf, hpos, last, hline, &ln, rk):
                    return FALLBACK, hpos, hline
                read += 1
                P = 0
                if read >= max_hands:
                    return ROOM, pos, line
            if pos >= n:
                return DONE, n, line
            if P == 0:                              # a new hand starts at this line
                if pending is not None and r.hid_n == len(pending) and \
                        memcmp(buf + pos + r.hid_lo, <const char *>pending, r.hid_n) == 0:
                    return FALLBACK, pos, line
                if pending is not None:
                    return FLUSH, pos, line
                hpos, hline = pos, line
                hid_lo, hid_n = pos + r.hid_lo, r.hid_n
                ln.id_kind, ln.id_lo, ln.id_n = 1, r.hid_lo, r.hid_n
                if r.options:
                    return FALLBACK, pos, line
                ln.var_lo, ln.var_n, ln.opt_n = r.var_lo, r.var_n, -1
            if P >= MAX_P or r.kind != L_ROW or r.seat != 48 + P:
                return FALLBACK, hpos, hline
            for j in range(N_CARDS):
                ln.cards[P * N_CARDS + j] = r.cards[j]
            for j in range(r.ndisc):
                ln.disc[P * MAX_DISC + j] = r.disc[j]
            ln.ndisc[P] = r.ndisc
            ln.fl[P] = r.fl
            ln.pts[P] = r.pts
            ln.has[P] = r.has
            ln.name_lo[P] = pos - hpos + r.name_lo
            ln.name_n[P] = r.name_n if r.name_n > 0 else -1
            nplay[P] = r.n_players
            ln.row_line[P] = line
            P += 1
            last = e
            pos = e
            line += 1


cdef void *_grow(void *p, size_t size) except NULL:
    cdef void *q = realloc(p, size)
    if q == NULL:
        raise MemoryError()
    return q
