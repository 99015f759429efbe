# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The CSV reader's fast path: hands of plain rows read straight from the
bytes of a block of lines into the columns of a chunk
(:class:`ofc_fast._scan.Columns`), a block's lines split into fields, cards
and numbers without the GIL (:meth:`RowScanner.lines`, on a read-ahead
thread), then placed in hands (:meth:`RowScanner.scan`).  A hand of any
other shape is handed back to the row reader.
"""
from libc.stdint cimport uint8_t, int64_t, uint64_t
from libc.string cimport memcmp, memchr
from libc.stdlib cimport malloc, realloc, free

from ofc_fast._cards cimport ofc_scan_cards, ofc_scan_marked, ofc_number_jokers
from ofc_fast._compat cimport ofc_ctz64
from ofc_fast._scan cimport MAX_P, MAX_DISC, MAX_RULES, N_CARDS, Line, Columns
from ofc_fast._utf8 cimport utf8_len

from ofc_fast._scan import DONE, FALLBACK, FLUSH, NEW_RULES, ROOM

# the fields of a CSV row that the scanner reads (its columns: RowScanner(columns=))
CSV_FIELDS = ("hand_id", "seat", "n_players", "name", "variant", "options", "in_fantasyland",
              "top", "middle", "bottom", "third", "second", "rows", "discards", "points")
cdef enum:
    F_HID, F_SEAT, F_NPLAYERS, F_NAME, F_VARIANT, F_OPTIONS, F_FL, F_TOP, F_MIDDLE, F_BOTTOM
    F_THIRD, F_SECOND, F_ROWS, F_DISC, F_POINTS, N_FIELDS
    MAX_COLUMNS = 256


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


cdef inline Py_ssize_t _quoted(const uint8_t *s, Py_ssize_t j, Py_ssize_t n, const int *slot,
                               int width, int col, Py_ssize_t start) noexcept nogil:
    """The quoted ``options`` field opening at ``s[j]`` (the JSON of rule
    options, its quotes doubled, as the library's writers write it): the
    index of its closing quote, which a comma or the line's end follows; -1
    for anything else (a quote elsewhere, a carriage return, a NUL, a byte
    above 0x7f, no end: the row reader's)."""
    cdef Py_ssize_t i = j + 1
    if j != start or col >= width or slot[col] != F_OPTIONS:
        return -1
    while i < n:
        if s[i] == 34:
            if i + 1 < n and s[i + 1] == 34:
                i += 2
                continue
            return i if i + 1 == n or s[i + 1] == 44 else -1
        if s[i] == 13 or s[i] == 0 or s[i] >= 128:
            return -1
        i += 1
    return -1


cdef inline bint _split(const uint8_t *s, Py_ssize_t n, const int *slot, int width,
                        Py_ssize_t *lo, Py_ssize_t *m) noexcept nogil:
    """Split a line (without its line end) at commas: the span of each field
    the scanner reads into ``lo``/``m`` (by ``slot`` of its column).  False for
    a line it does not read: a quote (but around the ``options`` field,
    :func:`_quoted`: its span is then the field as written, quotes and all),
    a carriage return, a NUL, text that is not UTF-8, or another number of
    fields than ``width``.

    Eight bytes at a time where it can (the commas of a word found at once,
    no branch per byte), then byte by byte."""
    cdef Py_ssize_t i = 0, start = 0, j, u, q
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
        if s[j] == 34:                  # a quoted options field
            q = _quoted(s, j, n, slot, width, col, start)
            if q < 0 or not _field(slot, width, &col, start, q + 1, lo, m):
                return False
            if q + 1 >= n:
                return col == width
            i = start = q + 2
            continue
        if OFC_CSV_CLASS[s[j]] == 2:
            return False
        u = utf8_len(s, j, n)
        if u < 0:
            return False
        i = j + u
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
            if s[i] != 34:
                return False
            q = _quoted(s, i, n, slot, width, col, start)     # a quoted options field
            if q < 0 or not _field(slot, width, &col, start, q + 1, lo, m):
                return False
            if q + 1 >= n:
                return col == width
            i = start = q + 2
            continue
        u = utf8_len(s, i, n)
        if u < 0:
            return False
        i += u
    return col == width


cdef inline bint _csv_int(const uint8_t *s, Py_ssize_t n, int64_t *out,
                          uint8_t *given) noexcept nogil:
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
    L_ODD = 3         # a row with a hand id, not of the plain shape: the row reader's hand

cdef struct Row:
    Py_ssize_t len                      # bytes, the line end included
    int kind
    uint8_t seat                        # the seat's byte if it is one byte, else 0
    uint8_t n_players                   # as written, 0 if empty
    bint options                        # an options value is given
    Py_ssize_t hid_lo, hid_n, name_lo, name_n, var_lo, var_n   # from the line's start
    Py_ssize_t opt_lo, opt_n            # the options as written (quotes and all)
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
    cdef unsigned named = 0
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
    r.opt_lo, r.opt_n = lo[F_OPTIONS], m[F_OPTIONS]
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
    # each Xj: the lowest joker the layout does not name otherwise (across its
    # rows, as ofc_fast.layouts numbers them); a third joker: the general reader
    if ofc_scan_marked(s + lo[F_TOP], m[F_TOP], r.cards, 3, &named) != 3 or \
            ofc_scan_marked(s + lo[F_MIDDLE], m[F_MIDDLE], r.cards + 3, 5, &named) != 5 or \
            ofc_scan_marked(s + lo[F_BOTTOM], m[F_BOTTOM], r.cards + 8, 5, &named) != 5 or \
            ofc_number_jokers(r.cards, 13, named) < 0:
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
    row's ``variant`` and ``options`` (as written: empty, or quoted JSON as
    the library writes it) registered with :meth:`add_rules`.  It stops at the first hand of any
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
                # the hand's rules: the first row's variant and options as
                # written (register_scanned_rules reads the options' JSON)
                ln.var_lo, ln.var_n = r.var_lo, r.var_n
                ln.opt_lo, ln.opt_n = r.opt_lo, r.opt_n if r.options else -1
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
