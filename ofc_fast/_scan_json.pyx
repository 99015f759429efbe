# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The JSON Lines reader's fast path: the common ``ofc-hand/1`` line read
straight from the bytes of a block of lines into the columns of a chunk
(:class:`ofc_fast._scan.Columns`), cards by the card grammar in C
(``_cards.pxd``).

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
  digits, or null: true and false are bad values, which the general reader
  words); other keys as above;
* rules (``variant`` and ``options`` as written) that the caller has
  registered with :meth:`LineScanner.add_rules` as three-row rules with
  rows of 3, 5 and 5 cards, and a player count they allow.

Every other line (blank lines aside) is handed back untouched, for the
general reader to read or to reject with its message: so the two readers
agree by construction on every line the fast path reads.

For the JSON Lines writer it also notes, per line, whether the line is
exactly as orjson writes it (no white space, no ``-0``, no other keys, no
``options``) and where the variant's value, each player's points value and
closing brace and the record's closing brace are (a splice row, ``SPLICE``
in ``_scan.pxd``; ``take()["splice"]``): such a line is written by copying
it around our results instead of walking it again (``_write_lines.pxi``).
"""
from libc.stdint cimport uint8_t, int64_t
from libc.string cimport memcmp, memchr

from ofc_fast._cards cimport ofc_scan_cards, ofc_scan_marked, ofc_number_jokers
from ofc_fast._scan cimport (MAX_P, MAX_DISC, MAX_RULES, N_CARDS, OK, S_FALLBACK, S_BLANK,
                             Line, Columns)

from ofc_fast._scan import DONE, FALLBACK, NEW_RULES

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


cdef inline Py_ssize_t _ws(const uint8_t *s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    while i < n and (s[i] == 32 or s[i] == 9 or s[i] == 13 or s[i] == 10):
        i += 1
    return i


cdef inline Py_ssize_t _string(const uint8_t *s, Py_ssize_t i, Py_ssize_t n,
                               bint *ascii) noexcept nogil:
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


cdef inline Py_ssize_t _int(const uint8_t *s, Py_ssize_t i, Py_ssize_t n,
                            int64_t *out) noexcept nogil:
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
    cdef bint ws = False
    i = _ws(s, i + 1, n)
    if i < n and s[i] == 125:
        return i + 1
    while True:
        if _member(s, &i, n, False, &ws) < 0:
            return -1
        i = _plain(s, i, n)
        if i < 0:
            return -1
        more = _after(s, &i, n, 125, &ws)
        if more < 0:
            return -1
        if more == 0:
            return i


cdef inline int _member(const uint8_t *s, Py_ssize_t *pi, Py_ssize_t n, bint player,
                        bint *ws) noexcept nogil:
    """At a member's opening quote: pass over ``"key":`` and the white space
    after it (``ws`` set when there was some).  The key's flag (:func:`_key`;
    0 for another key), or -1 for what is not read here (a key with an escape
    or a byte above 0x7f ...)."""
    cdef Py_ssize_t i = pi[0], ks, j
    cdef bint ascii
    cdef int key
    if i >= n or s[i] != 34:
        return -1
    ks = i + 1
    i = _string(s, i, n, &ascii)
    if i < 0 or not ascii:
        return -1
    key = _key(s + ks, i - ks - 1, player)
    j = _ws(s, i, n)
    if j != i:
        ws[0] = True
    if j >= n or s[j] != 58:
        return -1
    i = _ws(s, j + 1, n)
    if i != j + 1:
        ws[0] = True
    if i >= n:
        return -1
    pi[0] = i
    return key


cdef inline int _after(const uint8_t *s, Py_ssize_t *pi, Py_ssize_t n,
                       uint8_t close, bint *ws) noexcept nogil:
    """After a value (``pi[0]`` may be -1: none): 1 at the next one (the
    comma passed), 0 past ``close``, -1 for anything else (``ws`` set when
    white space was passed)."""
    cdef Py_ssize_t i = pi[0], j
    if i < 0:
        return -1
    j = _ws(s, i, n)
    if j != i:
        ws[0] = True
    i = j
    if i < n and s[i] == 44:
        pi[0] = _ws(s, i + 1, n)
        if pi[0] != i + 1:
            ws[0] = True
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
                            Py_ssize_t size, unsigned *named) noexcept nogil:
    """Card text of exactly ``size`` cards at ``s[i]``: the index after it, or
    -1.  Each ``Xj`` stays marked (the player's layout numbers them) and the
    jokers the row names join ``named``."""
    cdef bint ascii
    cdef Py_ssize_t j
    if i >= n or s[i] != 34:
        return -1
    j = _string(s, i, n, &ascii)
    if j < 0 or not ascii or ofc_scan_marked(s + i + 1, j - i - 2, out, size, named) != size:
        return -1
    return j


cdef int _player(const uint8_t *s, Py_ssize_t *pi, Py_ssize_t n, Line *ln, int p) noexcept nogil:
    """One player object at ``s[pi[0]]`` into seat ``p`` of ``ln``: OK or S_FALLBACK."""
    cdef Py_ssize_t i = pi[0], lo, m
    cdef int seen = 0, key, lit, more
    cdef int64_t v
    cdef Py_ssize_t got, at
    cdef bint ws = False
    cdef unsigned named = 0
    ln.fl[p] = 0
    ln.pts[p] = 0
    ln.has[p] = 0
    ln.name_n[p] = -1
    ln.ndisc[p] = 0
    ln.pts_at[p] = -1
    ln.pts_end[p] = -1
    if i >= n or s[i] != 123:
        return S_FALLBACK
    i = _ws(s, i + 1, n)
    if i != pi[0] + 1:
        ws = True
    if i < n and s[i] == 125:
        return S_FALLBACK
    while True:
        key = _member(s, &i, n, True, &ws)
        if key < 0 or (key & seen):
            return S_FALLBACK
        seen |= key
        if key == K_TOP:
            i = _row(s, i, n, &ln.cards[p * N_CARDS], 3, &named)
        elif key == K_MIDDLE:
            i = _row(s, i, n, &ln.cards[p * N_CARDS + 3], 5, &named)
        elif key == K_BOTTOM:
            i = _row(s, i, n, &ln.cards[p * N_CARDS + 8], 5, &named)
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
            at = i
            lit = _literal(s, i, n)
            if lit >= 0:
                if key == K_POINTS and lit < 2:
                    return S_FALLBACK       # points of true/false: a bad value
                v = lit if lit < 2 else 0
                i += 5 if lit == 0 else 4
            else:
                i = _int(s, i, n, &v)
                if i < 0:
                    return S_FALLBACK
                if v == 0 and s[at] == 45:          # -0: orjson writes 0
                    ln.canon = False
            if key == K_FL:
                if v < 0 or v > 255:
                    return S_FALLBACK
                ln.fl[p] = <uint8_t>v
            else:
                ln.pts[p] = v
                ln.has[p] = lit != 2
                ln.pts_at[p] = at
                ln.pts_end[p] = i
        else:
            ln.canon = False        # another key (maybe twice: orjson keeps the last)
            i = _plain(s, i, n)
        more = _after(s, &i, n, 125, &ws)
        if more < 0:
            return S_FALLBACK
        if more == 0:
            break
    if (seen & (K_TOP | K_MIDDLE | K_BOTTOM)) != (K_TOP | K_MIDDLE | K_BOTTOM):
        return S_FALLBACK
    # each Xj: the lowest joker the layout does not name otherwise (across its
    # rows, as ofc_fast.layouts numbers them); a third joker: the general reader
    if ofc_number_jokers(&ln.cards[p * N_CARDS], 13, named) < 0:
        return S_FALLBACK
    if ws:
        ln.canon = False
    ln.p_close[p] = i - 1
    pi[0] = i
    return OK


cdef int _record(const uint8_t *s, Py_ssize_t n, Line *ln) noexcept nogil:
    """One line into ``ln``: OK, S_FALLBACK or S_BLANK (rules not looked at)."""
    cdef Py_ssize_t i, j, at
    cdef int seen = 0, key, r, more
    cdef bint ws
    i = 0
    while i < n and (s[i] == 32 or (s[i] >= 9 and s[i] <= 13)):
        i += 1
    if i == n:
        return S_BLANK
    i = _ws(s, 0, n)
    ws = i != 0
    ln.P = 0
    ln.id_kind = 0
    ln.var_n = -1
    ln.opt_n = -1
    ln.canon = True
    ln.var_at = ln.var_end = -1
    if s[i] != 123:
        return S_FALLBACK
    j = i
    i = _ws(s, i + 1, n)
    if i != j + 1:
        ws = True
    while True:
        key = _member(s, &i, n, False, &ws)
        if key < 0 or (key & seen):
            return S_FALLBACK
        seen |= key
        if key == R_PLAYERS:
            if s[i] != 91:
                return S_FALLBACK
            j = i
            i = _ws(s, i + 1, n)
            if i != j + 1:
                ws = True
            while True:
                if ln.P >= MAX_P:
                    return S_FALLBACK
                r = _player(s, &i, n, ln, ln.P)
                if r != OK:
                    return r
                ln.P += 1
                more = _after(s, &i, n, 93, &ws)
                if more < 0:
                    return S_FALLBACK
                if more == 0:
                    break
        elif key == R_ID:
            if s[i] == 34 or s[i] == 110:
                i = _text(s, i, n, False, &ln.id_lo, &ln.id_n)
                ln.id_kind = 1 if ln.id_n >= 0 else 0
            else:
                at = i
                i = _int(s, i, n, &ln.id_val)
                ln.id_kind = 2
                if i >= 0 and ln.id_val == 0 and s[at] == 45:     # -0: orjson writes 0
                    ln.canon = False
        elif key == R_VARIANT:
            ln.var_at = i
            i = _text(s, i, n, True, &ln.var_lo, &ln.var_n)
            ln.var_end = i
        elif key == R_OPTIONS:
            ln.canon = False        # the JSON Lines writer leaves lines with options to orjson
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
            ln.canon = False        # another key (maybe twice: orjson keeps the last)
            i = _plain(s, i, n)
        more = _after(s, &i, n, 125, &ws)
        if more < 0:
            return S_FALLBACK
        if more == 0:
            break
    if not (seen & R_PLAYERS) or ln.P == 0:
        return S_FALLBACK
    if _ws(s, i, n) != n:
        return S_FALLBACK
    if ws:
        ln.canon = False
    ln.close = i - 1
    return OK

cdef class LineScanner(Columns):
    """Reads the common shape of ``ofc-hand/1`` lines (module docstring) into
    columns, a block of lines at a time; hands back every other line
    (``fast=False``: every line, for tests that compare the two readers)."""

    def __init__(self, bint fast=True):
        Columns.__init__(self, fast, True)

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
