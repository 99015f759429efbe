# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Card kernels: 52-bit card masks and the card-text grammar over raw bytes
(see ``_cards.pxd``; ofc_fast.cards is the Python face of both).

Every array argument is a ``const`` memoryview (Arrow buffers are
read-only); shapes and offsets are checked once at entry, before the loops.
"""
from libc.stdint cimport uint8_t, uint64_t, int64_t, int32_t, intptr_t
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.ref cimport Py_INCREF

import numpy as np

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)
    const char *PyUnicode_AsUTF8AndSize(object text, Py_ssize_t *size) except NULL

cdef enum:
    MAX_TEXT_CARDS = 64         # more is not a hand: the Python reader answers

# the ints 0 .. 51 (and EMPTY): the ids of a tuple are these objects
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
    """``out[i]`` = the cards of row ``i`` as a 52-bit mask; ids above 51
    (EMPTY, bad ids) set no bit.  Returns ``out``."""
    cdef intptr_t G = cards.shape[0], k = cards.shape[1], g, j
    cdef uint64_t m
    cdef uint8_t c
    if out.shape[0] != G:
        raise ValueError(f"out has {out.shape[0]} entries for {G} rows")
    with nogil:
        for g in range(G):
            m = 0
            for j in range(k):
                c = cards[g, j]
                if c < 52:
                    m |= (<uint64_t>1) << c
            out[g] = m
    return out


cdef inline int _check(intptr_t n_off, intptr_t n_data, const int64_t *off) except -1:
    cdef intptr_t i
    for i in range(n_off - 1):
        if off[i] < 0 or off[i + 1] < off[i] or off[i + 1] > n_data:
            raise ValueError(f"offset {i} is out of order or past the text")
    return 0


def decode_cells(const uint8_t[::1] data, const int64_t[::1] off, intptr_t size,
                 uint8_t[:, ::1] out, uint8_t[::1] ok):
    """Card text of cell ``i`` (``data[off[i]:off[i + 1]]``, UTF-8 bytes) with
    exactly ``size`` cards: ``out[i, :size]`` and ``ok[i] = 1``; ``ok[i] = 0``
    where the cell is not read here (not plain ASCII card text, or another
    number of cards: :func:`ofc_fast.cards.parse_card_text` decides those).
    Returns the number of cells read."""
    cdef intptr_t n = off.shape[0] - 1, i, got, total = 0
    if n < 0 or out.shape[0] < n or ok.shape[0] < n or out.shape[1] < size or size < 0:
        raise ValueError("out and ok need one row per cell, out one column per card")
    if n:
        _check(off.shape[0], data.shape[0], &off[0])
    with nogil:
        for i in range(n):
            got = ofc_scan_cards(&data[0] + off[i], off[i + 1] - off[i],
                                 &out[i, 0] if size else NULL, size)
            ok[i] = got == size
            total += got == size
    return total


def decode_lists(const uint8_t[::1] data, const int64_t[::1] off, uint8_t[::1] ids,
                 int64_t[::1] counts, uint8_t[::1] ok):
    """Card text of each cell (any number of cards, up to ``len(ids)`` in
    all): the ids one after another in ``ids``, ``counts[i]`` of cell ``i``,
    ``ok[i] = 0`` where a cell is not read here (as :func:`decode_cells`).
    Returns the number of ids written."""
    cdef intptr_t n = off.shape[0] - 1, i, got, pos = 0, cap = ids.shape[0]
    if n < 0 or counts.shape[0] < n or ok.shape[0] < n:
        raise ValueError("counts and ok need one entry per cell")
    if n:
        _check(off.shape[0], data.shape[0], &off[0])
    with nogil:
        for i in range(n):
            got = ofc_scan_cards(&data[0] + off[i], off[i + 1] - off[i],
                                 &ids[0] + pos if cap else NULL, cap - pos)
            if got < 0:
                ok[i] = 0
                counts[i] = 0
            else:
                ok[i] = 1
                counts[i] = got
                pos += got
    return pos
