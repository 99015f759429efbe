# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Card kernels: card masks and the card-text grammar over raw bytes
(``src/ofc_cards.h``, declared in ``_cards.pxd``; ofc_fast.cards is the
Python face of both, and reads the deck size from here).

Every array argument is a ``const`` memoryview (Arrow buffers are
read-only); shapes and offsets are checked once at entry, before the loops.
"""
from libc.stdint cimport uint8_t, uint64_t, int64_t, intptr_t
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.ref cimport Py_INCREF

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)
    const char *PyUnicode_AsUTF8AndSize(object text, Py_ssize_t *size) except NULL

cdef enum:
    MAX_TEXT_CARDS = 64         # more is not a hand: the Python reader answers

DECK = OFC_DECK
"""Cards in the deck (ids 0 .. ``MAX_CARD``)."""
MAX_CARD = OFC_MAX_CARD
"""The highest card id."""
ALL_CARDS = OFC_ALL_CARDS
"""The mask of every card (bit ``c`` for card ``c``)."""
EMPTY = OFC_EMPTY
"""An empty slot of a partial layout (never a card)."""
JOKER = OFC_JOKER
"""The first joker's id (X1); X2 is ``JOKER + 1``."""
MAX_JOKERS = OFC_MAX_JOKERS
"""Most jokers a variant deals."""

# every uint8 (the cards, EMPTY): the ids of a tuple are these objects
cdef tuple _IDS = tuple(range(256))


def scan_text(str text):
    """The card ids of card text, a tuple, read in C when the text is ASCII
    and plain (the grammar's ASCII part, ``_cards.pxd``): None otherwise (an
    empty slot, a symbol, a bad token, more than 64 cards), for
    :func:`ofc_fast.cards.parse_card_text` to read or to reject with its
    message."""
    cdef Py_ssize_t n, got, i
    cdef const char *s
    cdef uint8_t ids[MAX_TEXT_CARDS]
    if not PyUnicode_IS_ASCII(text):
        return None
    s = PyUnicode_AsUTF8AndSize(text, &n)      # an ASCII str's own bytes: no copy
    got = ofc_scan_cards(<const uint8_t *>s, n, ids, MAX_TEXT_CARDS)
    if got < 0:
        return None
    out = PyTuple_New(got)
    for i in range(got):
        item = _IDS[ids[i]]
        Py_INCREF(item)
        PyTuple_SET_ITEM(out, i, item)
    return out


def masks_of(const uint8_t[:, ::1] cards, uint64_t[::1] out):
    """``out[i]`` = the cards of row ``i`` as a card mask; ids that are no
    card (EMPTY, bad ids) set no bit.  Returns ``out``."""
    cdef intptr_t G = cards.shape[0], k = cards.shape[1], g
    if out.shape[0] != G:
        raise ValueError(f"out has {out.shape[0]} entries for {G} rows")
    if k == 0:
        out[:] = 0
        return out
    with nogil:
        for g in range(G):
            out[g] = ofc_cards_mask(&cards[g, 0], k)
    return out


def cards_mask(const uint8_t[::1] ids):
    """The card mask of card ids (EMPTY skipped, a card twice counts once),
    or -1 if an id is neither a card nor EMPTY."""
    cdef uint64_t m
    if ids.shape[0] and ofc_cards_check(&ids[0], ids.shape[0], OFC_EMPTY_OK | OFC_REPEAT_OK,
                                        &m) >= 0:
        return -1
    return m if ids.shape[0] else 0


cdef inline int _check(intptr_t n_off, intptr_t n_data, const int64_t *off) except -1:
    cdef intptr_t i
    for i in range(n_off - 1):
        if off[i] < 0 or off[i + 1] < off[i] or off[i + 1] > n_data:
            raise ValueError(f"offset {i} is out of order or past the text")
    return 0


def decode_cells(const uint8_t[::1] data, const int64_t[::1] off, intptr_t size,
                 uint8_t[:, ::1] out, uint8_t[::1] ok, intptr_t layout=0):
    """Card text of cell ``i`` (``data[off[i]:off[i + 1]]``, UTF-8 bytes) with
    exactly ``size`` cards: ``out[i, :size]`` and ``ok[i] = 1``; ``ok[i] = 0``
    where the cell is not read here (not plain ASCII card text, or another
    number of cards: :func:`ofc_fast.cards.parse_card_text` decides those).

    ``layout``: each ``Xj`` is numbered within each run of ``layout`` cards of
    a cell (a cell holding the layouts of a table's players: each its own
    hand); 0 numbers within the cell, -1 leaves every ``Xj`` as
    ``NEXT_JOKER`` (254) for :func:`number_layouts` (a cell holding one row).
    Returns the number of cells read."""
    cdef intptr_t n = off.shape[0] - 1, i, got, total = 0, lo, per
    cdef unsigned named
    if n < 0 or out.shape[0] < n or ok.shape[0] < n or out.shape[1] < size or size < 0:
        raise ValueError("out and ok need one row per cell, out one column per card")
    per = size if layout == 0 else layout
    if layout > 0 and size % layout:
        raise ValueError("a cell holds whole layouts")
    if n:
        _check(off.shape[0], data.shape[0], &off[0])
    with nogil:
        for i in range(n):
            named = 0
            got = ofc_scan_marked(&data[0] + off[i], off[i + 1] - off[i],
                                  &out[i, 0] if size else NULL, size, &named)
            if got == size and layout >= 0 and size:
                if layout == 0:
                    got = size if ofc_number_jokers(&out[i, 0], size, named) == 0 else -1
                else:
                    lo = 0
                    while lo < size and got == size:
                        if _number(&out[i, lo], per) < 0:
                            got = -1
                        lo += per
            ok[i] = got == size
            total += got == size
    return total


cdef inline int _number(uint8_t *ids, intptr_t k) noexcept nogil:
    """Number the Xj of one hand's ``k`` ids by the jokers it names."""
    cdef unsigned named = 0
    cdef intptr_t j
    for j in range(k):
        if ofc_is_joker(ids[j]):
            named |= 1u << (ids[j] - OFC_JOKER)
    return ofc_number_jokers(ids, k, named)


def number_layouts(uint8_t[:, ::1] ids, uint8_t[::1] ok):
    """Number each ``Xj`` (``NEXT_JOKER``, 254) of each row of ``ids``, one
    hand a row (the rows of a layout read one by one: :func:`decode_cells`
    with ``layout=-1``), as :func:`ofc_fast.cards.number_jokers` does;
    ``ok[i] = 0`` where row ``i`` holds a third joker (the card grammar
    words it).  Returns the number of rows numbered."""
    cdef intptr_t n = ids.shape[0], k = ids.shape[1], i, total = 0
    if ok.shape[0] < n:
        raise ValueError("ok needs one entry per row")
    with nogil:
        for i in range(n):
            if ok[i] and k:
                ok[i] = _number(&ids[i, 0], k) == 0
            total += ok[i]
    return total
