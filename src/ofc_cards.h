/* Cards: the deck, the card check, card masks and the card-text grammar's
 * ASCII part over raw bytes.
 *
 * The one home of the deck size.  A card is an id 0 .. OFC_MAX_CARD
 * (4 * rank + suit); OFC_EMPTY marks an empty slot of a partial layout; a
 * card mask is a uint64_t with bit c set for card c.  Every kernel takes
 * these from here (declared by ofc_fast/_cards.pxd), and every Python module
 * from ofc_fast.cards, which reads them from the compiled ofc_fast._cards.
 * A deck of another size is a change of OFC_DECK (and of the evaluator's
 * tables, src/ofc_eval.h, which know 13 ranks of 4 suits and say so at
 * compile time).
 */
#ifndef OFC_CARDS_H
#define OFC_CARDS_H
#include <stddef.h>
#include <stdint.h>
#include "ofc_compat.h"

#define OFC_DECK 52                              /* cards in the deck: ids 0 .. 51 */
#define OFC_MAX_CARD (OFC_DECK - 1)              /* the highest card id */
#define OFC_ALL_CARDS ((1ull << OFC_DECK) - 1)   /* the mask of every card */
#define OFC_EMPTY 255                            /* an empty slot, never a card */

/* A card mask is one 64-bit word, and EMPTY is no card. */
typedef char ofc_check_deck[OFC_DECK < 64 && OFC_DECK <= OFC_EMPTY ? 1 : -1];

/* Is id c a card? */
OFC_ALWAYS_INLINE int ofc_is_card(unsigned c)
{
    return c < OFC_DECK;
}

/* The mask of one card (c must be a card). */
OFC_ALWAYS_INLINE uint64_t ofc_card_bit(unsigned c)
{
    return 1ull << c;
}

/* The mask of the cards among n ids: an id that is no card (EMPTY
 * included) sets no bit, a card given twice sets its bit once. */
OFC_ALWAYS_INLINE uint64_t ofc_cards_mask(const uint8_t *ids, ptrdiff_t n)
{
    uint64_t m = 0;
    for (ptrdiff_t i = 0; i < n; i++)
        if (ofc_is_card(ids[i]))
            m |= ofc_card_bit(ids[i]);
    return m;
}

/* What ofc_cards_check lets through besides distinct cards. */
#define OFC_EMPTY_OK 1     /* EMPTY slots (they set no bit) */
#define OFC_REPEAT_OK 2    /* a card more than once */

/* Check n ids: each a card (or EMPTY with OFC_EMPTY_OK), none twice (unless
 * OFC_REPEAT_OK).  Returns -1 with the mask of the cards in *mask, or the
 * position of the first id that fails (*mask then holds the cards before it). */
OFC_ALWAYS_INLINE ptrdiff_t ofc_cards_check(const uint8_t *ids, ptrdiff_t n, int flags,
                                            uint64_t *mask)
{
    uint64_t m = 0;
    ptrdiff_t i;
    for (i = 0; i < n; i++) {
        unsigned c = ids[i];
        if (!ofc_is_card(c)) {
            if (c == OFC_EMPTY && (flags & OFC_EMPTY_OK))
                continue;
            break;
        }
        if ((m & ofc_card_bit(c)) && !(flags & OFC_REPEAT_OK))
            break;
        m |= ofc_card_bit(c);
    }
    *mask = m;
    return i < n ? i : -1;
}

/* The ids of the cards of a mask, ascending, into out (room for OFC_DECK);
 * returns how many.  Bits above the deck are ignored. */
OFC_ALWAYS_INLINE int ofc_mask_ids(uint64_t m, uint8_t *out)
{
    int n = 0;
    m &= OFC_ALL_CARDS;
    while (m) {
        out[n++] = (uint8_t)ofc_ctz64(m);
        m &= m - 1;
    }
    return n;
}

/* ---- card text (the grammar's ASCII part) -----------------------------------
 * Tokens ``rank suit [street]`` (rank 2-9, T, 10, J, Q, K, A, suit c d h s, any
 * case), separated by ASCII white space (as str.isspace), commas or semicolons,
 * or glued.  Anything else (a non-ASCII byte, an empty slot "__", an unknown
 * token, more cards than fit) is not read here: the caller hands the text to
 * ofc_fast.cards.parse_card_text, the reference grammar, which reads it or says
 * what is wrong, so the two never disagree on what they both read (tested). */

/* Rank of an ASCII byte (none: 0; '1' only starts "10"), suit of an ASCII byte
 * (none: 0), separators: ASCII white space as str.isspace, ',' and ';'.
 * (Tables hold value + 1 so that 0 means "none".) */
static const unsigned char OFC_RANK_OF[256] = {
    ['2'] = 1, ['3'] = 2, ['4'] = 3, ['5'] = 4, ['6'] = 5, ['7'] = 6, ['8'] = 7,
    ['9'] = 8, ['T'] = 9, ['t'] = 9, ['J'] = 10, ['j'] = 10, ['Q'] = 11, ['q'] = 11,
    ['K'] = 12, ['k'] = 12, ['A'] = 13, ['a'] = 13};
static const unsigned char OFC_SUIT_OF[256] = {
    ['c'] = 1, ['C'] = 1, ['d'] = 2, ['D'] = 2, ['h'] = 3, ['H'] = 3, ['s'] = 4, ['S'] = 4};
static const unsigned char OFC_SEP[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [0x1c] = 1, [0x1d] = 1,
    [0x1e] = 1, [0x1f] = 1, [' '] = 1, [','] = 1, [';'] = 1};

/* The card ids of the n bytes at s into out (at most cap of them); -1 when the
 * text is not read here (see above). */
OFC_ALWAYS_INLINE ptrdiff_t ofc_scan_cards(const unsigned char *s, ptrdiff_t n,
                                           unsigned char *out, ptrdiff_t cap)
{
    ptrdiff_t i = 0, k = 0;
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

#endif /* OFC_CARDS_H */
