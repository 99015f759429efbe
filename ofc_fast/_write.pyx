# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The writers' formatters (ofc_fast.io): a chunk's player-hands as CSV rows
or JSON Lines records (this file), and JSON Lines source lines with our
results added (``_write_lines.pxi``), each in one pass over the chunk's
columns without the GIL, into a :class:`WriteBuffer` that a writer
reuses from chunk to chunk.

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


cdef inline void _putc(Buf *b, uint8_t c) noexcept nogil:
    b.p[b.n] = c
    b.n += 1


cdef inline void _puts(Buf *b, const char *s) noexcept nogil:
    cdef size_t m = strlen(s)       # a constant where inlined
    memcpy(b.p + b.n, s, m)
    b.n += m


cdef uint8_t _DIGITS2[200]      # "00" "01" .. "99"


def _digit_table():
    cdef int i
    for i in range(100):
        _DIGITS2[2 * i] = 48 + i // 10
        _DIGITS2[2 * i + 1] = 48 + i % 10


_digit_table()


cdef inline void _int(Buf *b, int64_t v) noexcept nogil:
    """An integer in decimal (at most 20 bytes), two digits a step."""
    cdef uint8_t tmp[24]
    cdef uint8_t *p = b.p + b.n
    cdef uint64_t u
    cdef int k = 24, d
    if 0 <= v < 10:
        p[0] = <uint8_t>(48 + v)
        b.n += 1
        return
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
    memcpy(p, tmp + k, 24 - k)
    b.n = p + (24 - k) - b.p


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


def _texts_of(values, bint csv):
    """``(offsets, data, kinds)`` of Python values (see csv_texts, json_texts)."""
    cdef Py_ssize_t n = len(values), i = 0, m
    cdef const char *p
    cdef int overflow
    cdef long long v
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
        _put(b, s, m)
        return
    cdef uint8_t *p = b.p + b.n
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
    b.n = p - b.p


cdef const char *_HEX = b"0123456789abcdef"


cdef inline void _json_str(Buf *b, const uint8_t *s, Py_ssize_t m) noexcept nogil:
    """A string as orjson writes it: quotes, backslashes and control
    characters escaped, everything else as it is; at most ``6 * m + 2``
    bytes."""
    cdef Py_ssize_t i
    cdef uint8_t c
    cdef uint8_t *p = b.p + b.n
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
    b.n = p + 1 - b.p


cdef inline void _csv_value(Buf *b, Texts *t, int64_t i) noexcept nogil:
    """Value ``i`` of ``t`` as a CSV field (nothing for a null or ``i < 0``)."""
    cdef uint8_t k
    if i < 0 or i >= t.n:
        return
    k = t.kind[i]
    if k == K_LITERAL or k == K_PLAIN:
        _put(b, t.data + t.off[i], t.off[i + 1] - t.off[i])
    elif k == K_TEXT:
        _csv_field(b, t.data + t.off[i], t.off[i + 1] - t.off[i])


cdef inline void _json_value(Buf *b, Texts *t, int64_t i) noexcept nogil:
    """Value ``i`` of ``t`` as JSON (``null`` for a null or ``i < 0``)."""
    cdef uint8_t k
    if i < 0 or i >= t.n:
        _puts(b, "null")
        return
    k = t.kind[i]
    if k == K_NULL:
        _puts(b, "null")
    elif k == K_LITERAL:
        _put(b, t.data + t.off[i], t.off[i + 1] - t.off[i])
    elif k == K_PLAIN:
        _putc(b, 34)
        _put(b, t.data + t.off[i], t.off[i + 1] - t.off[i])
        _putc(b, 34)
    else:
        _json_str(b, t.data + t.off[i], t.off[i + 1] - t.off[i])


cdef inline Py_ssize_t _json_len(Texts *t, int64_t i) noexcept nogil:
    """Most bytes :func:`_json_value` writes for value ``i``."""
    if i < 0 or i >= t.n:
        return 4
    return 6 * (t.off[i + 1] - t.off[i]) + 6


cdef inline bint _present(Texts *t, int64_t i) noexcept nogil:
    return 0 <= i < t.n and t.kind[i] != K_NULL


# ------------------------------------------------------------------ cards
cdef uint8_t _CARD[256][4]     # "As  ": the text of each id, a space ("__" for a non-card)


def _card_table():
    from ofc_fast.cards import CARD_TEXT
    cdef int i
    for i in range(256):
        _CARD[i][0] = 95
        _CARD[i][1] = 95
        _CARD[i][2] = 32
        _CARD[i][3] = 32
    for i, t in enumerate(CARD_TEXT):
        _CARD[i][0] = ord(t[0])
        _CARD[i][1] = ord(t[1])


_card_table()


cdef inline void _cards(Buf *b, const uint8_t *c, Py_ssize_t k) noexcept nogil:
    """Card text, one space between (``format_row``; ``__`` for a non-card);
    ``3 * k + 1`` bytes of room used (each card is stored as four bytes,
    the next one written over the fourth)."""
    cdef Py_ssize_t j
    cdef uint8_t *p = b.p + b.n
    for j in range(k):
        memcpy(p, &_CARD[c[j]][0], 4)
        p += 3
    if k > 0:
        b.n += 3 * k - 1


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


# ------------------------------------------------------------------ integer columns
cdef struct Ints:
    const void *p          # NULL: none
    int size               # bytes a value: 1, 2, 4 or 8
    bint is_signed


cdef Ints _ints(object a, list keep) except *:
    """A C view of an integer (or bool) array as it is: no copy, no widening."""
    cdef Ints out
    cdef const uint8_t[::1] v
    out.p = NULL
    out.size = 8
    out.is_signed = True
    if a is None:
        return out
    a = np.ascontiguousarray(a).reshape(-1)
    if a.dtype == np.bool_:
        a = a.view(np.uint8)
    if a.dtype.kind not in "iu" or a.dtype.itemsize not in (1, 2, 4, 8):
        a = a.astype(np.int64)
    keep.append(a)
    out.size = a.dtype.itemsize
    out.is_signed = a.dtype.kind == "i"
    if a.size == 0:
        out.p = _ZERO_I64
        return out
    v = a.view(np.uint8)
    out.p = &v[0]
    return out


cdef inline int64_t _at(Ints *x, Py_ssize_t r) noexcept nogil:
    if x.size == 1:
        if x.is_signed:
            return (<const int8_t *>x.p)[r]
        return (<const uint8_t *>x.p)[r]
    if x.size == 2:
        if x.is_signed:
            return (<const int16_t *>x.p)[r]
        return (<const uint16_t *>x.p)[r]
    if x.size == 4:
        if x.is_signed:
            return (<const int32_t *>x.p)[r]
        return (<const uint32_t *>x.p)[r]
    return (<const int64_t *>x.p)[r]


# ------------------------------------------------------------------ hands of a chunk
cdef struct Rows:
    Py_ssize_t H
    const int64_t *hand_start   # (H + 1,)
    const int64_t *hand_var     # (H,) the variant entry of each hand (NULL: all 0)
    const uint8_t *cards        # (N, width)
    Py_ssize_t width
    const int64_t *spec         # (V, SPEC)
    const int64_t *doff         # (N + 1,) or NULL
    const uint8_t *dids
    Py_ssize_t most_discards


cdef Rows _rows(object hand_start, object hand_var, object cards, object spec, object discards,
                list keep) except *:
    cdef Rows R
    R.H = len(hand_start) - 1
    R.hand_start = _i64(hand_start, keep)
    R.hand_var = _i64(hand_var, keep)
    R.width = 0 if cards is None else cards.shape[1]
    R.cards = _u8(cards, keep)
    R.spec = _i64(spec, keep)
    R.doff = NULL
    R.dids = NULL
    R.most_discards = 0
    if discards is not None:
        off = np.ascontiguousarray(discards[0], np.int64)
        R.doff = _i64(off, keep)
        R.dids = _u8(discards[1], keep)
        if len(off) > 1:
            R.most_discards = int(np.diff(off).max())
    return R


cdef inline int64_t _var(Rows *R, Py_ssize_t h) noexcept nogil:
    return 0 if R.hand_var == NULL else R.hand_var[h]


cdef inline void _named_row(Buf *b, Rows *R, Py_ssize_t h, Py_ssize_t r,
                            int slot) noexcept nogil:
    cdef const int64_t *sp = R.spec + SPEC * _var(R, h)
    cdef int j
    for j in range(sp[0]):
        if sp[1 + 3 * j] == slot:
            _cards(b, R.cards + r * R.width + sp[2 + 3 * j], sp[3 + 3 * j])
            return


cdef inline void _discards(Buf *b, Rows *R, Py_ssize_t r) noexcept nogil:
    if R.doff != NULL:
        _cards(b, R.dids + R.doff[r], R.doff[r + 1] - R.doff[r])


# ------------------------------------------------------------------ CSV rows
cdef struct Col:
    int kind
    Texts t
    const int64_t *ix       # C_TEXT: which value of ``t`` (NULL: the row or hand itself; < 0 empty)
    bint per_hand           # C_TEXT: ``ix`` (or the value) is the hand's, not the row's
    Ints iv                 # C_INT values
    const uint8_t *valid    # C_INT: NULL (all) or 0/1 per row
    int slot                # C_CARDS


cdef int _csv_all(Buf *b, Col *cols, int nc, Rows *R, Py_ssize_t row_bytes) noexcept nogil:
    cdef Py_ssize_t h, r, i, lo, hi
    cdef int k
    cdef Col *c
    for h in range(R.H):
        lo, hi = R.hand_start[h], R.hand_start[h + 1]
        for r in range(lo, hi):
            if _room(b, row_bytes) < 0:
                return -1
            for k in range(nc):
                if k:
                    _putc(b, 44)
                c = &cols[k]
                if c.kind == C_TEXT:
                    i = h if c.per_hand else r
                    _csv_value(b, &c.t, i if c.ix == NULL else c.ix[i])
                elif c.kind == C_INT:
                    if c.valid == NULL or c.valid[r]:
                        _int(b, _at(&c.iv, r))
                elif c.kind == C_SEAT:
                    _int(b, r - lo)
                elif c.kind == C_PLAYERS:
                    _int(b, hi - lo)
                elif c.kind == C_CARDS:
                    _named_row(b, R, h, r, c.slot)
                else:
                    _discards(b, R, r)
            _putc(b, 10)
    return 0


def csv_rows(list columns, hand_start, hand_var=None, cards=None, spec=None, discards=None,
             bytes head=b"", WriteBuffer out=None):
    """CSV lines of the N player-hands of H hands, one per row (``\\n`` after each).

    Parameters
    ----------
    columns : list of tuple
        One per field: ``(COL_TEXT, texts, index[, per_hand])`` (which value
        each row, or each hand with ``per_hand``, writes; None: its own),
        ``(COL_INT, values, valid)`` (any integer or bool array; valid
        None: all), ``(COL_SEAT,)``, ``(COL_PLAYERS,)``, ``(COL_CARDS, slot)``,
        ``(COL_DISCARDS,)``.
    hand_start : numpy.ndarray
        ``(H + 1,)`` the first row of each hand, then N.
    hand_var : numpy.ndarray, optional
        ``(H,)`` the variant entry of each hand (None: all the first).
    cards : numpy.ndarray, optional
        ``(N, width)`` uint8 card ids (COL_CARDS).
    spec : numpy.ndarray, optional
        :func:`layout_spec` of the variant entries (COL_CARDS).
    discards : tuple, optional
        ``(offsets (N + 1,), card ids)`` (COL_DISCARDS; None: empty).
    head : bytes
        Written first (a header line).
    out : WriteBuffer, optional
        Write here (returned) instead of into new bytes.

    Returns
    -------
    bytes or WriteBuffer

    Examples
    --------
    >>> csv_rows([(COL_TEXT, csv_texts(["h,1"]), np.array([0]), True), (COL_SEAT,),
    ...           (COL_INT, np.array([3, -3], np.int8), np.array([1, 0], np.uint8))],
    ...          np.array([0, 2]))
    b'"h,1",0,3\\n"h,1",1,\\n'
    """
    cdef list keep = []
    cdef Py_ssize_t row_bytes = 1
    cdef int nc = len(columns), k
    cdef Col *cols = <Col *>malloc(sizeof(Col) * (nc + 1))
    cdef Rows R
    cdef _Scratch scratch = _Scratch()
    cdef Buf *b = _start(out, scratch)
    cdef int st
    if cols == NULL:
        raise MemoryError()
    try:
        R = _rows(hand_start, hand_var, cards, spec, discards, keep)
        for k, c in enumerate(columns):
            cols[k].kind = c[0]
            cols[k].ix = NULL
            cols[k].per_hand = False
            cols[k].iv = _ints(None, keep)
            cols[k].valid = NULL
            cols[k].slot = 0
            cols[k].t = _texts(None, keep)
            if c[0] == C_TEXT:
                cols[k].t = _texts(c[1], keep, 1)
                cols[k].ix = _i64(c[2], keep)
                cols[k].per_hand = len(c) > 3 and c[3]
                row_bytes += 2 * cols[k].t.longest + 3
            elif c[0] == C_INT:
                cols[k].iv = _ints(c[1], keep)
                cols[k].valid = _u8(None if c[2] is None else
                                    np.ascontiguousarray(c[2]).view(np.uint8), keep)
            elif c[0] == C_CARDS:
                cols[k].slot = c[1]
                row_bytes += 3 * R.width + 1
            elif c[0] == C_DISCARDS:
                row_bytes += 3 * R.most_discards + 1
            elif c[0] not in (C_SEAT, C_PLAYERS):
                raise ValueError(f"unknown column kind {c[0]!r}")
            row_bytes += INT_BYTES
        if _room(b, len(head)) < 0:
            raise MemoryError()
        _put(b, <const uint8_t *><char *>head, len(head))
        with nogil:
            st = _csv_all(b, cols, nc, &R, row_bytes)
        return _result(out, b)
    finally:
        free(cols)


# ------------------------------------------------------------------ JSON Lines records
cdef struct Rec:
    Texts ids        # indexed by id_ix
    const int64_t *id_ix     # per hand (NULL: the hand itself)
    Texts names      # indexed by name_ix
    const int64_t *name_ix   # per row (NULL: the row itself)
    Texts vnames     # per variant entry: the name
    Texts vopts      # per variant entry: the options as JSON (null: none)
    Ints fl
    Ints recorded
    const uint8_t *has
    Ints pts         # p NULL: not scored
    Ints roy
    const uint8_t *foul
    Ints fan


cdef const char *_ROW_KEY[5]
_ROW_KEY[0] = b'"top":"'
_ROW_KEY[1] = b'"middle":"'
_ROW_KEY[2] = b'"bottom":"'
_ROW_KEY[3] = b'"third":"'
_ROW_KEY[4] = b'"second":"'

cdef enum:
    RESULT_BYTES = 96 + 5 * INT_BYTES    # the results of a player, keys and all


cdef inline bint _differs(Rec *J, Py_ssize_t r) noexcept nogil:
    """The recorded points of row ``r`` are not ours."""
    return J.has[r] and _at(&J.recorded, r) != _at(&J.pts, r)


cdef inline void _results(Buf *b, Rec *J, Py_ssize_t r) noexcept nogil:
    """``"points":..,"royalties":..,"foul":..,"fantasyland":..`` and
    ``,"recorded_points":..`` where the recorded points differ (the schema's
    order)."""
    _puts(b, '"points":')
    _int(b, _at(&J.pts, r))
    _puts(b, ',"royalties":')
    _int(b, _at(&J.roy, r))
    _puts(b, ',"foul":true' if J.foul[r] else ',"foul":false')
    _puts(b, ',"fantasyland":')
    _int(b, _at(&J.fan, r))
    if _differs(J, r):
        _puts(b, ',"recorded_points":')
        _int(b, _at(&J.recorded, r))


cdef inline void _json_player(Buf *b, Rec *J, Rows *R, Py_ssize_t h, Py_ssize_t r) noexcept nogil:
    """One player as ``hand_dict`` writes it, with our results if scored."""
    cdef const int64_t *sp = R.spec + SPEC * _var(R, h)
    cdef int j
    cdef int64_t ni = r if J.name_ix == NULL else J.name_ix[r]
    cdef int64_t fl = _at(&J.fl, r)
    _putc(b, 123)
    if _present(&J.names, ni):
        _puts(b, '"name":')
        _json_value(b, &J.names, ni)
        _putc(b, 44)
    for j in range(sp[0]):
        if j:
            _putc(b, 44)
        _puts(b, _ROW_KEY[sp[1 + 3 * j]])
        _cards(b, R.cards + r * R.width + sp[2 + 3 * j], sp[3 + 3 * j])
        _putc(b, 34)
    if fl:
        _puts(b, ',"in_fantasyland":')
        _int(b, fl)
    if R.doff != NULL and R.doff[r + 1] > R.doff[r]:
        _puts(b, ',"discards":"')
        _discards(b, R, r)
        _putc(b, 34)
    if J.pts.p != NULL:
        _putc(b, 44)
        _results(b, J, r)
    elif J.has[r]:
        _puts(b, ',"points":')
        _int(b, _at(&J.recorded, r))
    _putc(b, 125)


cdef int _json_all(Buf *b, Rec *J, Rows *R, bint results_only,
                   Py_ssize_t player_bytes) noexcept nogil:
    cdef Py_ssize_t h, r, lo, hi
    cdef int64_t v, i
    for h in range(R.H):
        v = _var(R, h)
        i = h if J.id_ix == NULL else J.id_ix[h]
        lo, hi = R.hand_start[h], R.hand_start[h + 1]
        if _room(b, 96 + _json_len(&J.ids, i) + _json_len(&J.vnames, v) +
                 _json_len(&J.vopts, v) + (hi - lo) * player_bytes) < 0:
            return -1
        _puts(b, '{"id":' if results_only else '{"format":"ofc-hand/1","id":')
        _json_value(b, &J.ids, i)
        _puts(b, ',"variant":')
        _json_value(b, &J.vnames, v)
        if not results_only and _present(&J.vopts, v):
            _puts(b, ',"options":')
            _json_value(b, &J.vopts, v)
        _puts(b, ',"players":[')
        for r in range(lo, hi):
            if r > lo:
                _putc(b, 44)
            if results_only:
                _puts(b, '{"name":')
                _json_value(b, &J.names, r if J.name_ix == NULL else J.name_ix[r])
                _putc(b, 44)
                _results(b, J, r)
                _putc(b, 125)
            else:
                _json_player(b, J, R, h, r)
        _puts(b, ']}\n')
    return 0


cdef Rec _rec(object ids, object id_ix, object names, object name_ix, object vnames,
              object vopts, object fl, object recorded, object has, object results,
              list keep) except *:
    cdef Rec J
    J.ids = _texts(ids, keep, 0)
    J.id_ix = _i64(id_ix, keep)
    J.names = _texts(names, keep, 0)
    J.name_ix = _i64(name_ix, keep)
    J.vnames = _texts(vnames, keep, 0)
    J.vopts = _texts(vopts, keep, 0)
    J.fl = _ints(fl, keep)
    J.recorded = _ints(recorded, keep)
    J.has = _u8(None if has is None else np.ascontiguousarray(has).view(np.uint8), keep)
    J.pts = J.roy = J.fan = _ints(None, keep)
    J.foul = NULL
    if results is not None:
        J.pts = _ints(results[0], keep)
        J.roy = _ints(results[1], keep)
        J.foul = _u8(np.ascontiguousarray(results[2]).view(np.uint8), keep)
        J.fan = _ints(results[3], keep)
    return J


def jsonl_records(ids, id_ix, names, name_ix, vnames, vopts, hand_start, hand_var, cards,
                  spec, discards, fl, recorded, has, results=None, bint results_only=False,
                  WriteBuffer out=None):
    """JSON Lines records of H hands as :func:`ofc_fast.records.hand_dict`
    and orjson write them, our results added to each player when given.

    Parameters
    ----------
    ids, id_ix :
        Texts (JSON) of the hand ids, and ``(H,)`` which is each hand's
        (None: the hand's own).
    names, name_ix :
        Texts (JSON) of the names, and ``(N,)`` which is each row's (< 0:
        none; None: the row's own).
    vnames, vopts :
        Texts (JSON) of each variant entry's name and options (null: none).
    hand_start, hand_var, cards, spec, discards :
        As for :func:`csv_rows`.
    fl, recorded, has : numpy.ndarray
        ``(N,)`` in_fantasyland, recorded points and whether recorded.
    results : tuple, optional
        ``(points, royalties, foul, fantasyland)``, each ``(N,)``.
    results_only : bool
        ``{"id", "variant", "players": [{"name", results}]}`` per hand.
    out : WriteBuffer, optional
        Write here (returned) instead of into new bytes.

    Returns
    -------
    bytes or WriteBuffer
        One line per hand, each ending in ``\\n``.
    """
    cdef list keep = []
    cdef Rows R = _rows(hand_start, hand_var, cards, spec, discards, keep)
    cdef Rec J = _rec(ids, id_ix, names, name_ix, vnames, vopts, fl, recorded, has, results,
                      keep)
    cdef Py_ssize_t player_bytes = 64 + 6 * J.names.longest + 3 * R.width + 16 * MAX_ROWS + \
        3 * R.most_discards + RESULT_BYTES
    cdef _Scratch scratch = _Scratch()
    cdef Buf *b = _start(out, scratch)
    cdef int st
    with nogil:
        st = _json_all(b, &J, &R, results_only, player_bytes)
    return _result(out, b)


include "_write_lines.pxi"
