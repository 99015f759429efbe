# cython: language_level=3, cdivision=True
# Kernels turn bounds checks off one by one (@cython.boundscheck(False)) after the
# Python layer has validated shapes; Python-level code keeps negative indexing.
"""Hand strength: perfect-hash lookup tables and their batch kernels.

Design
------
* per item, C: ``src/ofc_eval.h`` (declared in ``_eval.pxd``) holds the
  tables and the inline primitives (card key, 5-card class of a summed key,
  3-card index, joint row scale, card check) that every kernel calls;
* loops: ``_kernel_contig`` / ``_kernel_strided`` run one primitive over a
  batch without the GIL and stop at the first bad hand;
* Python: ``_evaluate`` and the public functions check shapes and dtypes,
  take a one-hand fast path, and turn a bad row into a ``CardError``;
  ``n_threads > 1`` runs ``_HandJob`` over contiguous chunks of hands in the
  shared pool of ``ofc_fast.threads`` (each chunk writes its own slice).

This module builds the one ``ofc_tables`` instance at import; the other
kernels get it through ``tables()``.  See ``docs/tables.md`` for the scheme.
Every function takes card ids of shape ``(..., k)`` (any integer dtype, any
strides, read-only is fine), a single hand as a list/tuple of ids, or card
text, and returns uint16 strengths of shape ``(...)``: an ndarray for an
ndarray (0-d for one hand), a Python ``int`` for a single hand given as text
or a list.  Higher is stronger.
"""
cimport cython
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.mem cimport PyMem_Malloc
from libc.stdint cimport uint8_t, uint16_t, intptr_t

import numpy as np
cimport numpy as cnp

from ofc_fast._cards cimport OFC_MAX_CARD

from ofc_fast.cards import (_TEXT_CACHE, _parse_and_cache, bad_hand_message, parse_cards,
                            refuse_masked)
from ofc_fast._args import out_array
from ofc_fast.errors import ArgumentError, CardError
from ofc_fast.threads import run_chunks, thread_count

cnp.import_array()

cdef ofc_tables *_TABLES = <ofc_tables *> PyMem_Malloc(sizeof(ofc_tables))
if _TABLES == NULL:
    raise MemoryError("ofc_fast: cannot allocate the hand tables")
ofc_build_tables(_TABLES)
if _TABLES.n_jc != OFC_N_JCANDS:     # the joker completions' count (src/ofc_eval.h)
    raise ImportError(f"ofc_fast: {_TABLES.n_jc} joker completions built, {OFC_N_JCANDS} "
                      "expected: src/ofc_eval.h and its tables disagree")

cdef const ofc_tables *tables() noexcept nogil:
    return _TABLES

# Joint-scale metadata as numpy arrays (index = joint strength, 0 unused).
_info = np.array([OFC_JOINT_INFO[i] for i in range(OFC_N_JOINT + 1)], dtype=np.uint32)
JOINT_CATEGORY = (_info & 0xF).astype(np.uint8)
JOINT_SIZE = ((_info >> 4) & 0xF).astype(np.uint8)
JOINT_RANKS = np.stack([((_info >> (8 + 4 * i)) & 0xF).astype(np.int8) - 1
                        for i in range(5)], axis=1)  # grouped ranks, -1 = none
for _a in (JOINT_CATEGORY, JOINT_SIZE, JOINT_RANKS):
    _a.flags.writeable = False
N_JOINT = OFC_N_JOINT
MAX_DEAL = OFC_MAX_DEAL  # most cards dealt to one player in one hand (engine buffers)

cdef enum Kind:
    FIVE = 0
    THREE = 1
    ROW = 2

MIN_CHUNK = 1 << 16
"""Fewest hands worth a thread: 65,536 hands are 80-150 us of work, several
times the ~20 us a hand-off to the pool costs, so a batch is split only
from 131,072 hands on."""


def _as_hands(cards, sizes):
    """Validate the container and return (2-D uint8 array, leading shape, single).

    ``single``: one hand given as text or a Python sequence, answered with an
    ``int``; an ndarray is answered with an ndarray of its leading shape (0-d
    for one hand), as numpy functions do, so its type is known statically."""
    single = False
    from_array = isinstance(cards, np.ndarray)
    if isinstance(cards, str):
        cards = parse_cards(cards)
        single = True
    elif isinstance(cards, (list, tuple)):
        cards = parse_cards(cards) if _holds_text(cards) else _int_array(cards)
    refuse_masked(cards)
    arr = np.asarray(cards)
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        raise TypeError(f"cards must be integer card ids or card text, got dtype {arr.dtype}")
    if arr.ndim == 0 or arr.shape[-1] not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise ArgumentError(f"cards must have shape (..., {want}), got {arr.shape}")
    if arr.dtype != np.uint8:
        bad = (arr < 0) | (arr > 255)
        if bad.any():
            where = np.argwhere(bad)[0]
            label = _hand_label(tuple(where[:-1].tolist()))
            raise CardError(f"{label}: card {where[-1]} has id "
                            f"{arr[tuple(where)]}, not a card (0-{OFC_MAX_CARD})")
        arr = arr.astype(np.uint8)
    lead = arr.shape[:-1]
    single = single or (arr.ndim == 1 and not from_array)
    return arr.reshape(-1, arr.shape[-1]), lead, single


def _holds_text(seq):
    while isinstance(seq, (list, tuple)) and len(seq):
        seq = seq[0]
    return isinstance(seq, str)


def _int_array(seq):
    """Nested lists of ids as an array; ints too large for numpy name their place."""
    try:
        arr = np.asarray(seq)
    except OverflowError:
        arr = np.asarray(seq, dtype=object)
    if arr.dtype != object:
        return arr
    for where in np.ndindex(arr.shape):
        if not 0 <= arr[where] <= 255:
            label = _hand_label(where[:-1])
            raise CardError(f"{label}: card {where[-1]} has id {arr[where]}, "
                            f"not a card (0-{OFC_MAX_CARD})")
    return arr.astype(np.int64)


def _hand_label(index):
    """'hand 7' for a batch, 'hand (2, 3)' for a deeper batch, 'hand' for one."""
    if len(index) == 0:
        return "hand"
    return f"hand {index[0]}" if len(index) == 1 else f"hand {tuple(int(i) for i in index)}"


def _raise_bad(arr2d, lead, intptr_t row):
    where = np.unravel_index(row, lead) if len(lead) else ()
    raise CardError(bad_hand_message(arr2d[row].tolist(), _hand_label(where)))


@cython.boundscheck(False)
@cython.wraparound(False)
cdef intptr_t _kernel_strided(const uint8_t[:, :] c, uint16_t[::1] out, Kind kind) noexcept nogil:
    """Any strides: copy each hand to a buffer, then evaluate it (the branch
    on k and kind outside the loop, as in the contiguous kernel)."""
    cdef const ofc_tables *t = _TABLES
    cdef intptr_t i, n = c.shape[0]
    cdef uint8_t h[5]
    if c.shape[1] == 5:
        for i in range(n):
            h[0] = c[i, 0]
            h[1] = c[i, 1]
            h[2] = c[i, 2]
            h[3] = c[i, 3]
            h[4] = c[i, 4]
            if ofc_bad_cards(t, h, 5):
                return i
            out[i] = ofc_row5(t, h) if kind == ROW else \
                ofc_strength5(t, h[0], h[1], h[2], h[3], h[4])
    else:
        for i in range(n):
            h[0] = c[i, 0]
            h[1] = c[i, 1]
            h[2] = c[i, 2]
            if ofc_bad_cards(t, h, 3):
                return i
            out[i] = ofc_row3(t, h) if kind == ROW else ofc_strength3(t, h[0], h[1], h[2])
    return -1


cdef inline intptr_t _kernel_contig(const uint8_t *c, intptr_t n, int k, uint16_t *out,
                                    Kind kind) noexcept nogil:
    """n hands of k cards back to back; the branch on k and kind is outside the loop."""
    cdef const ofc_tables *t = _TABLES
    cdef intptr_t i
    cdef const uint8_t *h
    if k == 5:
        for i in range(n):
            h = c + 5 * i
            if ofc_bad_cards(t, h, 5):
                return i
            out[i] = ofc_row5(t, h) if kind == ROW else \
                ofc_strength5(t, h[0], h[1], h[2], h[3], h[4])
    else:
        for i in range(n):
            h = c + 3 * i
            if ofc_bad_cards(t, h, 3):
                return i
            out[i] = ofc_row3(t, h) if kind == ROW else ofc_strength3(t, h[0], h[1], h[2])
    return -1


@cython.boundscheck(False)
@cython.wraparound(False)
cdef intptr_t _kernel_range(const uint8_t[:, :] c, uint16_t[::1] out, intptr_t lo, intptr_t hi,
                            Kind kind, bint contig) noexcept nogil:
    """Hands lo .. hi - 1 into out[lo:hi]; the first bad hand's index, or -1."""
    cdef intptr_t bad
    if hi <= lo:
        return -1
    if contig:
        bad = _kernel_contig(&c[lo, 0], hi - lo, <int> c.shape[1], &out[lo], kind)
    else:
        bad = _kernel_strided(c[lo:hi], out[lo:hi], kind)
    return -1 if bad < 0 else lo + bad


cdef class _HandJob:
    """One batch for ``run_chunks``: ``job(lo, hi)`` evaluates hands lo .. hi - 1
    without the GIL and returns the first bad one's index, or -1."""
    cdef const uint8_t[:, :] c
    cdef uint16_t[::1] out
    cdef Kind kind
    cdef bint contig

    def __call__(self, intptr_t lo, intptr_t hi):
        cdef intptr_t bad
        with nogil:
            bad = _kernel_range(self.c, self.out, lo, hi, self.kind, self.contig)
        return bad


cdef inline int _threads(object n_threads) except -1:
    """thread_count(n_threads), with the default 1 checked in C."""
    if type(n_threads) is int and n_threads == 1:
        return 1
    return thread_count(n_threads)


cdef inline int _small_hand(object cards, int k, uint8_t *h) except -2:
    """Read a list/tuple of k ints into h; return 1 if done, 0 if not that form."""
    cdef Py_ssize_t j
    cdef long v
    cdef int overflow
    if type(cards) is not list and type(cards) is not tuple:
        return 0
    if len(cards) != k:
        return 0
    for j in range(k):
        o = cards[j]
        if type(o) is not int:
            return 0
        v = PyLong_AsLongAndOverflow(o, &overflow)
        if overflow or v < 0 or v > 255:
            raise CardError(f"hand: card {j} has id {o}, not a card (0-{OFC_MAX_CARD})")
        h[j] = <uint8_t> v
    if ofc_bad_cards(_TABLES, h, k):
        raise CardError(bad_hand_message([h[j] for j in range(k)], "hand"))
    return 1


cdef object _evaluate(cards, out, Kind kind, tuple sizes, n_threads):
    cdef uint8_t h[5]
    cdef intptr_t bad
    cdef int threads = _threads(n_threads)
    cdef _HandJob job
    # Per-hand fast path: a list/tuple of ints costs no numpy call.
    if out is None:
        if type(cards) is str:  # a repeated text costs one dict look-up
            cards = _TEXT_CACHE.get(cards) or _parse_and_cache(cards)
        for k in sizes:
            if _small_hand(cards, k, h):
                if k == 5:
                    v = ofc_strength5(_TABLES, h[0], h[1], h[2], h[3], h[4])
                    return _TABLES.joint5[v] if kind == ROW else v
                return ofc_row3(_TABLES, h) if kind == ROW else \
                    ofc_strength3(_TABLES, h[0], h[1], h[2])
    arr, lead, single = _as_hands(cards, sizes)
    res = out_array(out, tuple(lead), np.uint16, contiguous=False)
    if out is not None and np.may_share_memory(res, arr):
        arr = arr.copy()  # as numpy ufuncs do: read every input before writing out
    flat = res.reshape(-1) if res.flags.c_contiguous else np.empty(arr.shape[0], np.uint16)
    cdef uint16_t[::1] o = flat
    cdef const uint8_t[:, :] c = arr
    cdef const uint8_t[:, ::1] cc
    cdef int width = arr.shape[1]
    cdef intptr_t n = arr.shape[0]
    if n == 0:
        bad = -1
    elif threads > 1:
        job = _HandJob.__new__(_HandJob)
        job.c, job.out, job.kind, job.contig = c, o, kind, arr.flags.c_contiguous
        bad = min([b for b in run_chunks(job, n, threads, min_chunk=MIN_CHUNK) if b >= 0],
                  default=-1)
    elif arr.flags.c_contiguous:
        cc = arr
        with nogil:
            bad = _kernel_contig(&cc[0, 0], n, width, &o[0], kind)
    else:
        with nogil:
            bad = _kernel_strided(c, o, kind)
    if bad >= 0:
        _raise_bad(arr, lead, bad)
    if not res.flags.c_contiguous:
        res[...] = flat.reshape(lead)
    if single and out is None:
        return int(res)
    return res


def strength5(cards, out=None, *, n_threads=1):
    """Class of 5-card hands, 1 (7-5-4-3-2 offsuit) .. 7462 (royal flush).

    Parameters
    ----------
    cards : array_like of int, shape (..., 5), or card text
        Card ids ``4 * rank + suit``; any integer dtype, any strides,
        read-only is fine.  Text (``"As Ks Qs Js Ts"``) or a list of ints is
        one hand.
    out : ndarray of uint16, shape (...), optional
        Where to write the result (it may share memory with ``cards``).
    n_threads : int or None
        Threads that split a batch into contiguous chunks of hands, without
        the GIL: 1 (the default) runs in this thread, ``None`` uses every CPU.
        A batch is split only into chunks of at least 65,536 hands.  The
        result, and the hand an error names, do not depend on it.

    Returns
    -------
    int or ndarray of uint16, shape (...)
        An ``int`` for one hand.  Higher is stronger; equal classes tie.

    Raises
    ------
    CardError
        For an id that is no card or a repeated card, naming the first bad hand.
    TypeError
        For a non-integer array, an ``out`` of the wrong dtype, or an
        ``n_threads`` that is not an integer or None.
    ArgumentError
        For a shape whose last axis is not 5, an ``out`` of the wrong shape
        or read-only, or an ``n_threads`` outside 1 .. 256 (a ValueError).

    Examples
    --------
    >>> strength5("As Ks Qs Js Ts")
    7462
    >>> strength5([[0, 4, 8, 12, 49], [3, 2, 1, 0, 4]]).tolist()
    [5854, 7297]
    """
    return _evaluate(cards, out, FIVE, (5,), n_threads)


def strength3(cards, out=None, *, n_threads=1):
    """Class of 3-card hands (a top row), 1 (4-3-2) .. 455 (A-A-A).

    Only pairs and trips count on a top; straights and flushes do not, so
    suits do not matter.

    Parameters
    ----------
    cards : array_like of int, shape (..., 3), or card text
        As for :func:`strength5`.
    out : ndarray of uint16, shape (...), optional
        Where to write the result.
    n_threads : int or None
        As for :func:`strength5`.

    Returns
    -------
    int or ndarray of uint16, shape (...)

    Raises
    ------
    CardError
        For an id that is no card or a repeated card, naming the first bad hand.
    TypeError, ArgumentError
        For a wrong dtype or shape or a bad ``n_threads``, as for
        :func:`strength5`.

    Examples
    --------
    >>> strength3("Ac Ad Ah")
    455
    >>> strength3("4c 3d 2h")
    1
    """
    return _evaluate(cards, out, THREE, (3,), n_threads)


def row_strength(cards, out=None, *, n_threads=1):
    """Strength of 3- or 5-card rows on one joint scale (1 .. 7917).

    A top compares directly with a 5-card row (docs/rules.md section 3):
    category first, then the grouped ranks, missing kickers below a deuce, so
    a top never ties a 5-card row and a foul check is an integer comparison.

    Parameters
    ----------
    cards : array_like of int, shape (..., 3) or (..., 5), or card text
        As for :func:`strength5`.
    out : ndarray of uint16, shape (...), optional
        Where to write the result.
    n_threads : int or None
        As for :func:`strength5`.

    Returns
    -------
    int or ndarray of uint16, shape (...)

    Raises
    ------
    CardError
        For an id that is no card or a repeated card, naming the first bad hand.
    TypeError, ArgumentError
        For a wrong dtype or shape or a bad ``n_threads``, as for
        :func:`strength5`.

    Examples
    --------
    >>> row_strength("Qc Qd 5h") < row_strength("Qh Qs 5c 4d 3h")
    True
    >>> row_strength("Qc Qd 5h") > row_strength("Qh Qs 4c 3d 2h")
    True
    """
    return _evaluate(cards, out, ROW, (3, 5), n_threads)
