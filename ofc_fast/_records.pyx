# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Helper kernels of the recorded-hand readers (ofc_fast.records, ofc_fast.io.parquet).

Inputs are read-only views (Arrow buffers are immutable), so every array
argument is a ``const`` memoryview: no copies are needed to call these.
"""
from libc.stdint cimport uint8_t, uint64_t, int64_t, intptr_t

import numpy as np

from ofc_fast._cards cimport ofc_cards_check, ofc_cards_mask


cdef inline bint _bad_hand(const uint8_t[::1] ids, intptr_t lo, intptr_t hi,
                           uint64_t placed) noexcept nogil:
    """Discards ``ids[lo:hi]`` of one hand: not a card, repeated, or placed at its table."""
    cdef uint64_t m
    if hi <= lo:
        return False
    return ofc_cards_check(&ids[lo], hi - lo, 0, &m) >= 0 or (m & placed) != 0


def placed_masks(const uint8_t[:, ::1] cards, const int64_t[::1] hands, uint64_t[::1] out):
    """``out[hands[g]]`` = the cards of row ``g`` of ``cards`` as a card mask.

    ``cards`` is ``(G, k)``: every card placed at table ``g``.  Ids that are
    no card set no bit (the scoring kernel reports them)."""
    cdef intptr_t G = cards.shape[0], k = cards.shape[1], H = out.shape[0], g, h
    if hands.shape[0] != G:
        raise ValueError("hands must have one entry per table")
    with nogil:
        for g in range(G):
            h = hands[g]
            if h < 0 or h >= H:
                with gil:
                    raise IndexError(f"hand {h} out of range")
            out[h] = ofc_cards_mask(&cards[g, 0], k) if k else 0
    return out


def bad_discards(const int64_t[::1] off, const uint8_t[::1] ids,
                 const int64_t[::1] hand_start, const uint64_t[::1] placed):
    """(H,) bool: hand ``h`` discards an id that is no card, the same card twice,
    or a card placed at its table (``placed[h]``, from :func:`placed_masks`).

    Row ``r``'s discards are ``ids[off[r]:off[r + 1]]``; hand ``h`` has rows
    ``hand_start[h]`` .. ``hand_start[h + 1] - 1``."""
    cdef intptr_t H = hand_start.shape[0] - 1, h
    if H < 0 or placed.shape[0] < H:
        raise ValueError("placed must have one mask per hand")
    _check_offsets(off, ids, hand_start, H)
    out = np.zeros(max(H, 0), np.bool_)
    cdef uint8_t[::1] o = out.view(np.uint8)
    with nogil:
        for h in range(H):
            o[h] = _bad_hand(ids, off[hand_start[h]], off[hand_start[h + 1]], placed[h])
    return out


def _check_offsets(const int64_t[::1] off, const uint8_t[::1] ids,
                   const int64_t[::1] hand_start, intptr_t H):
    if H > 0 and (hand_start[H] >= off.shape[0] or hand_start[0] < 0):
        raise ValueError("offsets must cover every row")
    if H > 0 and (off[hand_start[H]] > ids.shape[0] or off[hand_start[0]] < 0):
        raise ValueError("offsets run past the discarded cards")


def bad_discards_at(const uint8_t[:, ::1] cards, const int64_t[::1] hands,
                    const int64_t[::1] off, const uint8_t[::1] ids,
                    const int64_t[::1] hand_start):
    """:func:`bad_discards` for a group holding every hand in order (``cards``
    ``(H, k)``, ``hands[h] == h``; else ValueError): the placed cards are read
    as each hand is checked, in one pass."""
    cdef intptr_t H = hand_start.shape[0] - 1, k = cards.shape[1], h
    if H < 0 or cards.shape[0] != H or hands.shape[0] != H:
        raise ValueError("cards must have one row per hand")
    for h in range(H):
        if hands[h] != h:
            raise ValueError("the group does not hold every hand in order")
    _check_offsets(off, ids, hand_start, H)
    out = np.zeros(max(H, 0), np.bool_)
    cdef uint8_t[::1] o = out.view(np.uint8)
    with nogil:
        for h in range(H):
            o[h] = _bad_hand(ids, off[hand_start[h]], off[hand_start[h + 1]],
                             ofc_cards_mask(&cards[h, 0], k) if k else 0)
    return out


def gather_columns(cols, uint8_t[:, ::1] out):
    """``out[:, j] = cols[j]`` for 1-D uint8 arrays of ``out.shape[0]`` values:
    the card columns of a Parquet file into one ``(N, k)`` layout array.

    Copied in blocks of rows that stay in the L1 cache while every column is
    written into them."""
    cdef intptr_t N = out.shape[0], k = len(cols), w = out.shape[1], i, j, lo, hi
    cdef const uint8_t[::1] v
    cdef const uint8_t *ptrs[64]
    cdef const uint8_t *src
    cdef uint8_t *dst
    if k > 64 or k > w:
        raise ValueError(f"{k} columns do not fit {w}")
    views = []
    for j in range(k):
        v = cols[j]
        if v.shape[0] != N:
            raise ValueError(f"column {j} has {v.shape[0]} values, expected {N}")
        views.append(v)
        ptrs[j] = &v[0] if N else NULL
    if N == 0 or k == 0:
        return out
    with nogil:
        lo = 0
        while lo < N:
            hi = min(lo + 1024, N)
            for j in range(k):
                src = ptrs[j]
                dst = &out[0, 0] + j
                for i in range(lo, hi):
                    dst[i * w] = src[i]
            lo = hi
    return out
