/* Cards: the deck, the jokers, the card check, card masks and the card-text
 * grammar's ASCII part over raw bytes.
 *
 * The one home of the deck size.  A natural card is an id 0 .. OFC_MAX_CARD
 * (4 * rank + suit); the jokers come after the naturals, OFC_JOKER (X1) and
 * OFC_JOKER + 1 (X2) (RULES.md section 12); OFC_EMPTY marks an empty slot of
 * a partial layout; a card mask is a uint64_t with bit c set for card c (a
 * joker's bit is 52 or 53).  OFC_DECK is the 52-card deck the engine deals:
 * a variant with jokers adds OFC_JOKER .. OFC_JOKER + jokers - 1.  Every kernel takes
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

#define OFC_NATURALS 52                          /* natural cards: ids 0 .. 51 */
#define OFC_DECK OFC_NATURALS                    /* the 52-card deck: ids 0 .. 51 */
#define OFC_MAX_CARD (OFC_DECK - 1)              /* the highest natural card id */
#define OFC_ALL_CARDS ((1ull << OFC_DECK) - 1)   /* the mask of every natural card */
#define OFC_JOKER OFC_NATURALS                   /* the first joker, X1; X2 is OFC_JOKER + 1 */
#define OFC_MAX_JOKERS 2                         /* jokers a variant may deal */
#define OFC_CARD_IDS (OFC_NATURALS + OFC_MAX_JOKERS)  /* naturals and jokers: ids 0 .. 53 */
#define OFC_JOKER_MASK (((1ull << OFC_MAX_JOKERS) - 1) << OFC_JOKER)  /* bits of X1, X2 */
#define OFC_EMPTY 255                            /* an empty slot, never a card */

/* A card mask is one 64-bit word (jokers included), and EMPTY is no card. */
typedef char ofc_check_deck[OFC_CARD_IDS < 64 && OFC_CARD_IDS <= OFC_EMPTY ? 1 : -1];

/* Is id c a natural card (of the 52-card deck)? */
OFC_ALWAYS_INLINE int ofc_is_card(unsigned c)
{
    return c < OFC_DECK;
}

/* Is id c a joker (X1 or X2)? */
OFC_ALWAYS_INLINE int ofc_is_joker(unsigned c)
{
    return c - OFC_JOKER < OFC_MAX_JOKERS;
}

/* The mask of the ids a variant with `jokers` jokers deals: the naturals and
 * X1 .. X<jokers>. */
OFC_ALWAYS_INLINE uint64_t ofc_deck_mask(int jokers)
{
    return (1ull << (OFC_NATURALS + jokers)) - 1;
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

/* Check n ids against a deck of `deck` ids (the naturals, then a variant's
 * jokers): each below deck (or EMPTY with OFC_EMPTY_OK), none twice (unless
 * OFC_REPEAT_OK).  Returns -1 with the mask of the cards in *mask, or the
 * position of the first id that fails (*mask then holds the cards before it). */
OFC_ALWAYS_INLINE ptrdiff_t ofc_ids_check(const uint8_t *ids, ptrdiff_t n, unsigned deck,
                                          int flags, uint64_t *mask)
{
    uint64_t m = 0;
    ptrdiff_t i;
    for (i = 0; i < n; i++) {
        unsigned c = ids[i];
        if (c >= deck) {
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

/* ofc_ids_check of natural cards (the 52-card deck). */
OFC_ALWAYS_INLINE ptrdiff_t ofc_cards_check(const uint8_t *ids, ptrdiff_t n, int flags,
                                            uint64_t *mask)
{
    return ofc_ids_check(ids, n, OFC_NATURALS, flags, mask);
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

/* The ids of the cards of a mask, jokers included, ascending, into out
 * (room for OFC_CARD_IDS); returns how many.  Bits above X2 are ignored. */
OFC_ALWAYS_INLINE int ofc_mask_card_ids(uint64_t m, uint8_t *out)
{
    int n = 0;
    m &= OFC_ALL_CARDS | OFC_JOKER_MASK;
    while (m) {
        out[n++] = (uint8_t)ofc_ctz64(m);
        m &= m - 1;
    }
    return n;
}

/* ---- card text (the grammar's ASCII part) -----------------------------------
 * Tokens ``rank suit [street]`` (rank 2-9, T, 10, J, Q, K, A, suit c d h s, any
 * case) and jokers ``X1``, ``X2``, ``Xj`` ([street]; X and j any case; each Xj
 * is the lowest joker the text does not name otherwise, so alone the first is
 * X1 and the second X2), separated by ASCII white space (as str.isspace),
 * commas or semicolons, or glued.  Anything else (a non-ASCII byte, an empty
 * slot "__", an unknown token, a third joker, more cards than fit) is not read
 * here: the caller hands the text to ofc_fast.cards.parse_card_text, the
 * reference grammar, which reads it or says what is wrong, so the two never
 * disagree on what they both read (tested). */

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

#define OFC_NEXT_JOKER 254   /* the scanner's mark of an Xj before it is numbered */

/* Past the street digit at s[i] if there is one (a digit that does not start
 * the next card: "Ks2c", "Ks10h"); -1 when the next byte may be a suit
 * symbol (not read here). */
OFC_ALWAYS_INLINE ptrdiff_t ofc_skip_street(const unsigned char *s, ptrdiff_t i, ptrdiff_t n)
{
    if (i < n && s[i] >= '0' && s[i] <= '9') {
        unsigned char nx = i + 1 < n ? s[i + 1] : 0;
        if (nx >= 0x80) return -1;            /* maybe a suit symbol: not ours */
        if (!(OFC_SUIT_OF[nx] || (nx == '0' && i + 2 < n && OFC_SUIT_OF[s[i + 2]])))
            i++;
    }
    return i;
}

/* The card ids of the n bytes at s into out (at most cap of them), each Xj
 * left as OFC_NEXT_JOKER and the jokers named X1 / X2 or'ed into *named (bit
 * 0 for X1), for a caller that numbers a whole layout read row by row
 * (ofc_number_jokers); -1 when the text is not read here (see above). */
OFC_ALWAYS_INLINE ptrdiff_t ofc_scan_marked(const unsigned char *s, ptrdiff_t n,
                                            unsigned char *out, ptrdiff_t cap, unsigned *named)
{
    ptrdiff_t i = 0, k = 0;
    while (i < n) {
        unsigned char c = s[i], r, u, id;
        if (OFC_SEP[c]) { i++; continue; }
        if (c == 'X' || c == 'x') {           /* a joker: X1, X2, Xj */
            unsigned char d = i + 1 < n ? s[i + 1] : 0;
            if (d == '1' || d == '2') {
                id = (unsigned char)(OFC_JOKER + d - '1');
                *named |= 1u << (d - '1');
            } else if (d == 'j' || d == 'J') {
                id = OFC_NEXT_JOKER;
            } else {
                return -1;                    /* "xx" (an empty slot) or no token */
            }
            i += 2;
        } else {
            if (c == '1') {                   /* "10" then a suit */
                if (i + 2 >= n || s[i + 1] != '0' || !OFC_SUIT_OF[s[i + 2]]) return -1;
                r = 8; i += 2;
            } else {
                r = OFC_RANK_OF[c];
                if (!r || i + 1 >= n || !OFC_SUIT_OF[s[i + 1]]) return -1;
                r -= 1; i += 1;
            }
            u = OFC_SUIT_OF[s[i]] - 1; i++;
            id = (unsigned char)(4 * r + u);
        }
        i = ofc_skip_street(s, i, n);
        if (i < 0 || k >= cap) return -1;
        out[k++] = id;
    }
    return k;
}

/* Number each OFC_NEXT_JOKER of the k ids of one hand (a layout, all its
 * rows): the lowest joker the hand does not name otherwise (`named`, as
 * ofc_scan_marked gathers it), so alone the first Xj is X1 and the second
 * X2.  The one numbering of the C readers (ofc_fast.cards.number_jokers is
 * Python's).  0, or -1 for a third joker (not read here). */
OFC_ALWAYS_INLINE int ofc_number_jokers(unsigned char *out, ptrdiff_t k, unsigned named)
{
    for (ptrdiff_t j = 0; j < k; j++) {
        if (out[j] != OFC_NEXT_JOKER)
            continue;
        unsigned free = ~named & ((1u << OFC_MAX_JOKERS) - 1);
        if (!free) return -1;
        unsigned low = free & (0u - free);
        named |= low;
        out[j] = (unsigned char)(OFC_JOKER + (low == 1 ? 0 : 1));
    }
    return 0;
}

/* The card ids of the n bytes at s into out (at most cap of them), each Xj
 * numbered within the text; -1 when the text is not read here (see above). */
OFC_ALWAYS_INLINE ptrdiff_t ofc_scan_cards(const unsigned char *s, ptrdiff_t n,
                                           unsigned char *out, ptrdiff_t cap)
{
    unsigned named = 0;
    ptrdiff_t k = ofc_scan_marked(s, n, out, cap, &named);
    if (k < 0 || ofc_number_jokers(out, k, named) < 0) return -1;
    return k;
}

#endif /* OFC_CARDS_H */
