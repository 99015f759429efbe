# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The writers' formatters (ofc_fast.io): a chunk's player-hands as CSV rows
or JSON Lines records (``_write_records.pxi``), and JSON Lines source lines
with our results added (``_write_lines.pxi``), each in one pass over the
chunk's columns without the GIL, into a :class:`WriteBuffer` that a writer
reuses from chunk to chunk.  This file holds what they share: the buffer,
text values and their escapes, numbers and card text.

Text values (hand ids, names, variant names, options) come in as
``(offsets, data, kinds)`` tuples: value ``i`` is
``data[offsets[i]:offsets[i + 1]]``, UTF-8 text to escape (kind
:data:`KIND_TEXT`), text already in the output's syntax
(:data:`KIND_LITERAL`: numbers, JSON that orjson wrote) or a null
(:data:`KIND_NULL`).  :func:`csv_texts` and :func:`json_texts` make them from
Python values, :func:`int_texts` from integers; ``ofc_fast.io.columns``
from Arrow arrays without a copy.

Every byte written is the byte the reference writers write (Python's csv
module with ``lineterminator="\\n"``; ``orjson.dumps``): tests compare the
two on generated and mangled values.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memcmp, strlen
from libc.stdlib cimport malloc, realloc, free
from cpython.buffer cimport PyBUF_WRITABLE
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.unicode cimport PyUnicode_AsUTF8AndSize

from ofc_fast._compat cimport ofc_ctz64
from ofc_fast._utf8 cimport utf8_len

import numpy as np
import orjson

KIND_TEXT = 0
KIND_LITERAL = 1
KIND_NULL = 2

cdef enum:
    K_TEXT = 0
    K_LITERAL = 1
    K_NULL = 2
    K_PLAIN = 3     # text that needs no escape in this output (CSV: as it is; JSON: quoted)

# CSV columns (csv_rows)
cdef enum:
    C_TEXT = 0      # a text value (index per row)
    C_INT = 1       # an integer per row (valid mask: empty where not)
    C_SEAT = 2      # the row's seat
    C_PLAYERS = 3   # the players of its hand
    C_CARDS = 4     # the cards of one named row (slot)
    C_DISCARDS = 5  # the row's discards

COL_TEXT = C_TEXT
COL_INT = C_INT
COL_SEAT = C_SEAT
COL_PLAYERS = C_PLAYERS
COL_CARDS = C_CARDS
COL_DISCARDS = C_DISCARDS

SLOTS = ("top", "middle", "bottom", "third", "second")
"""The named rows of a layout, by slot (the ``spec`` rows of :func:`layout_spec`)."""

cdef enum:
    MAX_ROWS = 4
    MAX_ROWS_P = 4      # players a hand (MAX_P of _scan.pxd)
    SPEC = 1 + 3 * MAX_ROWS
    MAX_DEPTH = 64
    MAX_KEYS = 64
    INT_BYTES = 21      # an int64 in decimal, a separator


# ------------------------------------------------------------------ output buffer
cdef struct Buf:
    uint8_t *p
    Py_ssize_t n
    Py_ssize_t cap
    bint failed


cdef int _grow(Buf *b, Py_ssize_t need) noexcept nogil:
    cdef Py_ssize_t cap = b.cap * 2
    cdef uint8_t *p
    if cap < b.n + need:
        cap = b.n + need
    if cap < 4096:
        cap = 4096
    p = <uint8_t *>realloc(b.p, cap)
    if p == NULL:
        b.failed = True
        return -1
    b.p = p
    b.cap = cap
    return 0


cdef inline int _room(Buf *b, Py_ssize_t need) noexcept nogil:
    """Make room for ``need`` more bytes (-1: no memory).  The writers below
    write without looking: their callers make room for a row, a hand or a
    line at a time."""
    if b.n + need <= b.cap:
        return 0
    return _grow(b, need)


cdef inline void _put(Buf *b, const uint8_t *s, Py_ssize_t m) noexcept nogil:
    memcpy(b.p + b.n, s, m)
    b.n += m


# Cursor versions (``_q_*``): write at ``q`` and return the end.  A loop that
# keeps its cursor in a local variable lets the compiler keep it in a
# register; bytes stored through ``b.p`` may alias ``b.n`` and force a reload
# after every store.
cdef inline uint8_t *_q_put(uint8_t *q, const uint8_t *s, Py_ssize_t m) noexcept nogil:
    # Short values (ids, names, numbers as text) are most of what is copied: a
    # call of memcpy with a variable length costs more than the copy, so up to
    # 16 bytes are copied as two fixed-size pieces that overlap (each one
    # inlined as a load and a store; no byte outside s[0:m] is read).
    if m > 16:
        memcpy(q, s, m)
    elif m >= 8:
        memcpy(q, s, 8)
        memcpy(q + m - 8, s + m - 8, 8)
    elif m >= 4:
        memcpy(q, s, 4)
        memcpy(q + m - 4, s + m - 4, 4)
    elif m >= 2:
        memcpy(q, s, 2)
        memcpy(q + m - 2, s + m - 2, 2)
    elif m == 1:
        q[0] = s[0]
    return q + m


cdef inline void _putc(Buf *b, uint8_t c) noexcept nogil:
    b.p[b.n] = c
    b.n += 1


cdef inline void _puts(Buf *b, const char *s) noexcept nogil:
    cdef size_t m = strlen(s)       # a constant where inlined
    memcpy(b.p + b.n, s, m)
    b.n += m


cdef inline uint8_t *_q_puts(uint8_t *q, const char *s) noexcept nogil:
    cdef size_t m = strlen(s)       # a constant where inlined
    memcpy(q, s, m)
    return q + m


cdef uint8_t _DIGITS2[200]      # "00" "01" .. "99"


def _digit_table():
    cdef int i
    for i in range(100):
        _DIGITS2[2 * i] = 48 + i // 10
        _DIGITS2[2 * i + 1] = 48 + i % 10


_digit_table()


cdef inline void _int(Buf *b, int64_t v) noexcept nogil:
    """An integer in decimal (at most 20 bytes), two digits a step."""
    b.n = _q_int(b.p + b.n, v) - b.p


cdef inline uint8_t *_q_int(uint8_t *p, int64_t v) noexcept nogil:
    """:func:`_int` at a cursor."""
    cdef uint8_t tmp[24]
    cdef uint64_t u
    cdef int k = 24, d
    if 0 <= v < 10:
        p[0] = <uint8_t>(48 + v)
        return p + 1
    if 10 <= v < 100:
        p[0] = _DIGITS2[2 * v]
        p[1] = _DIGITS2[2 * v + 1]
        return p + 2
    if v < 0:
        p[0] = 45
        p += 1
        u = <uint64_t>(-(v + 1)) + 1
    else:
        u = <uint64_t>v
    while u >= 100:
        d = <int>(u % 100) * 2
        u //= 100
        k -= 2
        tmp[k] = _DIGITS2[d]
        tmp[k + 1] = _DIGITS2[d + 1]
    if u >= 10:
        d = <int>u * 2
        k -= 2
        tmp[k] = _DIGITS2[d]
        tmp[k + 1] = _DIGITS2[d + 1]
    else:
        k -= 1
        tmp[k] = <uint8_t>(48 + u)
    return _q_put(p, tmp + k, 24 - k)


cdef class WriteBuffer:
    """A growing byte buffer the formatters write into, reused chunk after
    chunk (no fresh memory, no copy); read it as a buffer (``memoryview``,
    ``f.write(out)``) until the next call writes into it.

    Examples
    --------
    >>> out = WriteBuffer()
    >>> _ = csv_rows([(COL_SEAT,)], np.array([0, 2]), np.array([0, 0]), out=out)
    >>> bytes(out)
    b'0\\n1\\n'
    >>> len(out)
    4
    """
    cdef Buf b
    cdef Py_ssize_t exports
    cdef Py_ssize_t shape[1]

    def __cinit__(self):
        self.b.p = NULL
        self.b.n = self.b.cap = 0
        self.b.failed = False
        self.exports = 0

    def __dealloc__(self):
        free(self.b.p)

    def __len__(self):
        return self.b.n

    def __getbuffer__(self, Py_buffer *view, int flags):
        if flags & PyBUF_WRITABLE:
            raise BufferError("a WriteBuffer is read-only")
        self.shape[0] = self.b.n
        view.buf = <void *>self.b.p
        view.len = self.b.n
        view.readonly = 1
        view.itemsize = 1
        view.format = "B"
        view.ndim = 1
        view.shape = self.shape
        view.strides = NULL
        view.suboffsets = NULL
        view.internal = NULL
        view.obj = self
        self.exports += 1

    def __releasebuffer__(self, Py_buffer *view):
        self.exports -= 1

    cdef Buf *start(self) except NULL:
        """The buffer, emptied, for a formatter to write into."""
        if self.exports:
            raise BufferError("the output is still read (a memoryview of it is alive)")
        self.b.n = 0
        self.b.failed = False
        return &self.b


cdef class _Scratch:
    """A buffer for one call (the result returned as bytes)."""
    cdef Buf b

    def __cinit__(self):
        self.b.p = NULL
        self.b.n = self.b.cap = 0
        self.b.failed = False

    def __dealloc__(self):
        free(self.b.p)


cdef Buf *_start(object out, object scratch) except NULL:
    if out is None:
        return &(<_Scratch>scratch).b
    return (<WriteBuffer?>out).start()


cdef object _result(object out, Buf *b):
    """``out`` (written), or the bytes written; MemoryError if a write failed."""
    if b.failed:
        raise MemoryError("no memory for the writer's output")
    if out is not None:
        return out
    return PyBytes_FromStringAndSize(<char *>b.p, b.n) if b.n else b""


# ------------------------------------------------------------------ text values
cdef struct Texts:
    const int64_t *off
    const uint8_t *data
    const uint8_t *kind
    Py_ssize_t n             # values (an index outside 0 .. n - 1 is a null)
    Py_ssize_t longest       # bytes of the longest value


cdef uint8_t _EMPTY_U8[1]
cdef int64_t _ZERO_I64[1]


cdef const uint8_t *_u8(object a, list keep) except? NULL:
    """A pointer to a C-contiguous uint8 array (kept alive in ``keep``)."""
    cdef const uint8_t[::1] v
    if a is None:
        return NULL
    a = np.ascontiguousarray(a, np.uint8)
    keep.append(a)
    if a.size == 0:
        return _EMPTY_U8
    v = a.reshape(-1)
    return &v[0]


cdef const int64_t *_i64(object a, list keep) except? NULL:
    cdef const int64_t[::1] v
    if a is None:
        return NULL
    a = np.ascontiguousarray(a, np.int64)
    keep.append(a)
    if a.size == 0:
        return _ZERO_I64
    v = a.reshape(-1)
    return &v[0]


cdef void _classify(const int64_t *off, const uint8_t *data, uint8_t *kind, Py_ssize_t n,
                    bint csv) noexcept nogil:
    """Mark the text values that need no escape (:data:`K_PLAIN`): no comma,
    quote or line break (CSV); no quote, backslash or control character (JSON)."""
    cdef Py_ssize_t i, j
    cdef uint8_t c
    cdef bint plain
    for i in range(n):
        if kind[i] != K_TEXT:
            continue
        plain = True
        for j in range(off[i], off[i + 1]):
            c = data[j]
            if (csv and (c == 44 or c == 34 or c == 10 or c == 13)) or \
                    (not csv and (c < 32 or c == 34 or c == 92)):
                plain = False
                break
        if plain:
            kind[i] = K_PLAIN


cdef Texts _texts(object t, list keep, int csv=-1) except *:
    """The C view of ``(offsets, data, kinds)``; with ``csv`` 1 or 0, the text
    values that need no escape in CSV or JSON marked (on a copy of ``kinds``)."""
    cdef Texts out
    cdef uint8_t[::1] k
    out.off = NULL
    out.data = NULL
    out.kind = NULL
    out.n = 0
    out.longest = 0
    if t is None:
        return out
    off, data, kind = t
    off = np.ascontiguousarray(off, np.int64)
    out.off = _i64(off, keep)
    out.data = _u8(np.frombuffer(data, np.uint8) if isinstance(data, bytes) else data, keep)
    if csv >= 0 and len(kind):
        kind = np.array(kind, np.uint8)
        k = kind
        _classify(out.off, out.data, &k[0], len(kind), csv == 1)
    out.kind = _u8(kind, keep)
    out.n = min(len(kind), len(off) - 1)
    if len(off) > 1:
        out.longest = int(np.diff(off).max())
    return out


def _utf8_lengths(const uint8_t[::1] s):
    """``utf8_len`` (``_utf8.pxd``) at each byte above 0x7f of ``s`` (0 for
    ASCII): the kernels' UTF-8 check, exposed for its test against Python's
    decoder (a wrong answer there only sends lines to the slow path)."""
    out = []
    cdef Py_ssize_t i, n = s.shape[0]
    for i in range(n):
        out.append(utf8_len(&s[0], i, n) if s[i] >= 0x80 else 0)
    return out


def _texts_of(values, bint csv):
    """``(offsets, data, kinds)`` of Python values (see csv_texts, json_texts)."""
    cdef Py_ssize_t n = len(values), i = 0, m
    cdef const char *p
    cdef int overflow
    cdef long long v = 0
    cdef _Scratch scratch = _Scratch()
    cdef Buf *b = &scratch.b
    off = np.empty(n + 1, np.int64)
    kinds = np.empty(n, np.uint8)
    cdef int64_t[::1] o = off
    cdef uint8_t[::1] k = kinds
    if n:
        o[0] = 0
    else:
        off[0] = 0
    for x in values:
        if x is None:
            k[i] = K_NULL
        elif x.__class__ is str:
            p = PyUnicode_AsUTF8AndSize(x, &m)
            if _room(b, m) < 0:
                raise MemoryError()
            _put(b, <const uint8_t *>p, m)
            k[i] = K_TEXT
        else:
            overflow = 1
            if x.__class__ is int:
                v = PyLong_AsLongLongAndOverflow(x, &overflow)
            if not overflow:
                if _room(b, INT_BYTES) < 0:
                    raise MemoryError()
                _int(b, v)
                k[i] = K_LITERAL
            else:
                piece = _utf8_of(str(x)) if csv else orjson.dumps(x)
                if _room(b, len(piece)) < 0:
                    raise MemoryError()
                _put(b, <const uint8_t *><char *>piece, len(piece))
                k[i] = K_TEXT if csv else K_LITERAL
        i += 1
        o[i] = b.n
    return off, PyBytes_FromStringAndSize(<char *>b.p, b.n) if b.n else b"", kinds


cdef bytes _utf8_of(str s):
    cdef Py_ssize_t m
    cdef const char *p = PyUnicode_AsUTF8AndSize(s, &m)
    return PyBytes_FromStringAndSize(p, m)


def csv_texts(values):
    """Texts of Python values as the csv module writes them.

    ``None`` is an empty field, an ``int`` its decimal, a ``str`` itself
    (quoted and line breaks made spaces when written), anything else its
    ``str()``.

    Parameters
    ----------
    values : sequence
        The values.

    Returns
    -------
    tuple
        ``(offsets (n + 1,) int64, data bytes, kinds (n,) uint8)``.

    Examples
    --------
    >>> off, data, kinds = csv_texts(["a,b", 7, None])
    >>> data, kinds.tolist()
    (b'a,b7', [0, 1, 2])
    """
    return _texts_of(values, True)


def json_texts(values):
    """Texts of Python values as orjson writes them.

    A ``str`` is escaped when written; an ``int`` of 64 bits is its decimal;
    ``None`` is a null (``null``, or left out where a key is optional);
    anything else is what ``orjson.dumps`` makes of it (its errors too).

    Parameters
    ----------
    values : sequence
        The values.

    Returns
    -------
    tuple
        ``(offsets (n + 1,) int64, data bytes, kinds (n,) uint8)``.

    Examples
    --------
    >>> off, data, kinds = json_texts(["a", 7, None, 1.5])
    >>> data, kinds.tolist()
    (b'a71.5', [0, 1, 2, 1])
    """
    return _texts_of(values, False)


def int_texts(values, valid=None):
    """Texts of integers in decimal (null where ``valid`` is 0).

    Parameters
    ----------
    values : numpy.ndarray
        ``(n,)`` integers (int64).
    valid : numpy.ndarray, optional
        ``(n,)`` 0/1 (None: all valid).

    Returns
    -------
    tuple
        ``(offsets (n + 1,) int64, data bytes, kinds (n,) uint8)``.

    Examples
    --------
    >>> off, data, kinds = int_texts(np.array([12, -3, 7]), np.array([1, 1, 0], np.uint8))
    >>> off.tolist(), data, kinds.tolist()
    ([0, 2, 4, 4], b'12-3', [1, 1, 2])
    """
    cdef list keep = []
    cdef Py_ssize_t n = len(values), i
    cdef const int64_t *v = _i64(values, keep)
    cdef const uint8_t *ok = _u8(valid, keep)
    cdef _Scratch scratch = _Scratch()
    cdef Buf *b = &scratch.b
    off = np.empty(n + 1, np.int64)
    kinds = np.full(n, K_LITERAL, np.uint8)
    cdef int64_t[::1] o = off
    cdef uint8_t[::1] k = kinds
    if _room(b, INT_BYTES * n + 1) < 0:
        raise MemoryError()
    with nogil:
        o[0] = 0
        for i in range(n):
            if ok != NULL and not ok[i]:
                k[i] = K_NULL
            else:
                _int(b, v[i])
            o[i + 1] = b.n
    return off, _result(None, b), kinds


cdef inline void _csv_field(Buf *b, const uint8_t *s, Py_ssize_t m) noexcept nogil:
    """A text field as the csv module writes it after line breaks became
    spaces: quoted (quotes doubled) when it holds a comma or a quote; at
    most ``2 * m + 2`` bytes."""
    b.n = _q_csv_field(b.p + b.n, s, m) - b.p


cdef uint8_t *_q_csv_field(uint8_t *p, const uint8_t *s, Py_ssize_t m) noexcept nogil:
    """:func:`_csv_field` at a cursor."""
    cdef Py_ssize_t i
    cdef bint quote = False, breaks = False
    cdef uint8_t c
    for i in range(m):
        c = s[i]
        if c == 44 or c == 34:
            quote = True
        elif c == 10 or c == 13:
            breaks = True
    if not quote and not breaks:
        return _q_put(p, s, m)
    if quote:
        p[0] = 34
        p += 1
    i = 0
    while i < m:
        c = s[i]
        if c == 13:
            if i + 1 < m and s[i + 1] == 10:
                i += 1
            c = 32
        elif c == 10:
            c = 32
        elif c == 34:
            p[0] = 34
            p += 1
        p[0] = c
        p += 1
        i += 1
    if quote:
        p[0] = 34
        p += 1
    return p


cdef const char *_HEX = b"0123456789abcdef"


cdef uint8_t *_q_json_str(uint8_t *p, const uint8_t *s, Py_ssize_t m) noexcept nogil:
    """A string as orjson writes it: quotes, backslashes and control
    characters escaped, everything else as it is; at most ``6 * m + 2``
    bytes."""
    cdef Py_ssize_t i
    cdef uint8_t c
    p[0] = 34
    p += 1
    for i in range(m):
        c = s[i]
        if c >= 32 and c != 34 and c != 92:
            p[0] = c
            p += 1
            continue
        p[0] = 92
        if c == 34 or c == 92:
            p[1] = c
        elif c == 8:
            p[1] = 98
        elif c == 12:
            p[1] = 102
        elif c == 10:
            p[1] = 110
        elif c == 13:
            p[1] = 114
        elif c == 9:
            p[1] = 116
        else:
            p[1] = 117
            p[2] = 48
            p[3] = 48
            p[4] = _HEX[c >> 4]
            p[5] = _HEX[c & 15]
            p += 4
        p += 2
    p[0] = 34
    return p + 1


cdef inline uint8_t *_q_csv_value(uint8_t *q, Texts *t, int64_t i) noexcept nogil:
    """Value ``i`` of ``t`` as a CSV field (nothing for a null or ``i < 0``)."""
    cdef uint8_t k
    if i < 0 or i >= t.n:
        return q
    k = t.kind[i]
    if k == K_LITERAL or k == K_PLAIN:
        return _q_put(q, t.data + t.off[i], t.off[i + 1] - t.off[i])
    if k == K_TEXT:
        return _q_csv_field(q, t.data + t.off[i], t.off[i + 1] - t.off[i])
    return q


cdef inline void _json_value(Buf *b, Texts *t, int64_t i) noexcept nogil:
    """Value ``i`` of ``t`` as JSON (``null`` for a null or ``i < 0``)."""
    b.n = _q_json_value(b.p + b.n, t, i) - b.p


cdef inline uint8_t *_q_json_value(uint8_t *q, Texts *t, int64_t i) noexcept nogil:
    """:func:`_json_value` at a cursor."""
    cdef uint8_t k
    if i < 0 or i >= t.n:
        return _q_puts(q, "null")
    k = t.kind[i]
    if k == K_NULL:
        return _q_puts(q, "null")
    if k == K_LITERAL:
        return _q_put(q, t.data + t.off[i], t.off[i + 1] - t.off[i])
    if k == K_PLAIN:
        q[0] = 34
        q = _q_put(q + 1, t.data + t.off[i], t.off[i + 1] - t.off[i])
        q[0] = 34
        return q + 1
    return _q_json_str(q, t.data + t.off[i], t.off[i + 1] - t.off[i])


cdef inline Py_ssize_t _json_len(Texts *t, int64_t i) noexcept nogil:
    """Most bytes :func:`_json_value` writes for value ``i``."""
    if i < 0 or i >= t.n:
        return 4
    return 6 * (t.off[i + 1] - t.off[i]) + 6


cdef inline bint _present(Texts *t, int64_t i) noexcept nogil:
    return 0 <= i < t.n and t.kind[i] != K_NULL


# ------------------------------------------------------------------ cards
# "As  ": the text of each id (X1, X2: the jokers), a space ("__" for a non-card)
cdef uint8_t _CARD[256][4]


def _card_table():
    from ofc_fast.cards import ID_TEXT
    cdef int i
    for i in range(256):
        _CARD[i][0] = 95
        _CARD[i][1] = 95
        _CARD[i][2] = 32
        _CARD[i][3] = 32
    for i, t in enumerate(ID_TEXT):
        _CARD[i][0] = ord(t[0])
        _CARD[i][1] = ord(t[1])


_card_table()


cdef inline void _cards(Buf *b, const uint8_t *c, Py_ssize_t k) noexcept nogil:
    """Card text, one space between (``format_row``; ``__`` for a non-card);
    ``3 * k + 1`` bytes of room used (each card is stored as four bytes,
    the next one written over the fourth)."""
    b.n = _q_cards(b.p + b.n, c, k) - b.p


cdef inline uint8_t *_q_cards(uint8_t *p, const uint8_t *c, Py_ssize_t k) noexcept nogil:
    """:func:`_cards` at a cursor."""
    cdef Py_ssize_t j
    for j in range(k):
        memcpy(p, &_CARD[c[j]][0], 4)
        p += 3
    return p - 1 if k > 0 else p


def layout_spec(list variants):
    """The named rows of each variant: ``(V, 13)`` int64, per variant the
    number of rows, then (slot in :data:`SLOTS`, first card, cards) per row.

    Parameters
    ----------
    variants : list of Variant
        The rules of a chunk's variant entries.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> layout_spec([ofc.variant("pineapple")])[0].tolist()
    [3, 0, 0, 3, 1, 3, 5, 2, 8, 5, 0, 0, 0]
    """
    spec = np.zeros((len(variants), SPEC), np.int64)
    for k, v in enumerate(variants):
        pos = 0
        spec[k, 0] = len(v.row_names)
        for j, (name, size) in enumerate(zip(v.row_names, v.row_sizes)):
            spec[k, 1 + 3 * j:4 + 3 * j] = (SLOTS.index(name), pos, size)
            pos += size
    return spec


include "_write_records.pxi"
include "_write_lines.pxi"
