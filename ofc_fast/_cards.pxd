# cython: language_level=3
"""The card-text grammar of ofc_fast.cards in C, for the kernels that read
card text from raw bytes (ofc_fast._cards, ofc_fast._jsonl).

Only the grammar's ASCII part is read here: tokens ``rank suit [street]``
(rank 2-9, T, 10, J, Q, K, A, suit c d h s, any case), separated by ASCII
white space (as ``str.isspace``), commas or semicolons, or glued.  Anything
else (a non-ASCII byte, an empty slot ``__``, an unknown token, more cards
than fit) is *not read*: the caller hands the text to
:func:`ofc_fast.cards.parse_card_text`, which reads it or says what is
wrong, so the two can never disagree on what they both read.
"""
from libc.stdint cimport uint8_t

cdef extern from *:
    """
    #include "ofc_compat.h"
    /* Rank of an ASCII byte (255: none; '1' only starts "10"), suit of an ASCII byte
       (255: none), separators: ASCII white space as str.isspace, ',' and ';'. */
    static const unsigned char OFC_RANK_OF[256] = {
        ['2'] = 1, ['3'] = 2, ['4'] = 3, ['5'] = 4, ['6'] = 5, ['7'] = 6, ['8'] = 7,
        ['9'] = 8, ['T'] = 9, ['t'] = 9, ['J'] = 10, ['j'] = 10, ['Q'] = 11, ['q'] = 11,
        ['K'] = 12, ['k'] = 12, ['A'] = 13, ['a'] = 13};
    static const unsigned char OFC_SUIT_OF[256] = {
        ['c'] = 1, ['C'] = 1, ['d'] = 2, ['D'] = 2, ['h'] = 3, ['H'] = 3, ['s'] = 4, ['S'] = 4};
    static const unsigned char OFC_SEP[256] = {
        ['\\t'] = 1, ['\\n'] = 1, ['\\v'] = 1, ['\\f'] = 1, ['\\r'] = 1, [0x1c] = 1, [0x1d] = 1,
        [0x1e] = 1, [0x1f] = 1, [' '] = 1, [','] = 1, [';'] = 1};
    /* (tables hold value + 1 so that 0 means "none") */

    OFC_ALWAYS_INLINE Py_ssize_t ofc_scan_cards(const unsigned char *s, Py_ssize_t n,
                                               unsigned char *out, Py_ssize_t cap) {
        Py_ssize_t i = 0, k = 0;
        while (i < n) {
            unsigned char c = s[i], r, u;
            if (OFC_SEP[c]) { i++; continue; }
            if (c == '1') {                       /* "10" then a suit */
                if (i + 2 >= n || s[i + 1] != '0' || !OFC_SUIT_OF[s[i + 2]]) return -1;
                r = 8; i += 2;
            } else {
                r = OFC_RANK_OF[c];
                if (!r || i + 1 >= n || !OFC_SUIT_OF[s[i + 1]]) return -1;
                r -= 1; i += 1;
            }
            u = OFC_SUIT_OF[s[i]] - 1; i++;
            /* a street digit, unless it starts the next card ("Ks2c", "Ks10h") */
            if (i < n && s[i] >= '0' && s[i] <= '9') {
                unsigned char nx = i + 1 < n ? s[i + 1] : 0;
                if (nx >= 0x80) return -1;        /* maybe a suit symbol: not ours */
                if (!(OFC_SUIT_OF[nx] || (nx == '0' && i + 2 < n && OFC_SUIT_OF[s[i + 2]])))
                    i++;
            }
            if (k >= cap) return -1;
            out[k++] = (unsigned char)(4 * r + u);
        }
        return k;
    }
    """
    Py_ssize_t ofc_scan_cards(const uint8_t *s, Py_ssize_t n, uint8_t *out,
                              Py_ssize_t cap) noexcept nogil
