/* Hand-strength tables and the inline evaluators every kernel shares.
 *
 * One ofc_tables instance is built at import by ofc_fast._eval and handed to
 * the other extension modules as a pointer, so the 0.7 MB table exists once.
 */
#ifndef OFC_EVAL_H
#define OFC_EVAL_H
#include <stdint.h>
#include <string.h>
#include "ofc_compat.h"
#include "ofc_tables_data.h"

#define OFC_EMPTY 255
/* Sized so that any five or three ids (bad ones too) index inside the
 * tables: kernels may look a hand up before its check has failed.  Entries
 * past the valid ones are 0 and never read for valid hands. */
#define OFC_PLAIN5_SIZE 397076u      /* 5 x the ace's base + 1 (valid sums end at 360,918) */
#define OFC_STRENGTH3_SIZE (63 * 169 + 63 * 13 + 63 + 1)  /* ids up to 255 */
#define OFC_N_JOINT 7917u            /* joint scale: 1 .. 7917 */
#define OFC_SUIT_SHIFT 20            /* four 4-bit suit counters above the rank sum */
#define OFC_SUIT_BIAS (0x3333ull << OFC_SUIT_SHIFT)  /* a count of 5 sets bit 3 */
#define OFC_FLUSH_MASK (0x8888ull << OFC_SUIT_SHIFT)
#define OFC_NOT_A_CARD (1ull << 63)  /* bit[] of ids > 51: any set bit >= 52 is an error */
/* Most cards one player is dealt in one hand (all streets, or a fantasyland
 * deal): the size of the engine's and the fantasyland solver's per-hand card
 * buffers.  ofc_fast.rules refuses variants that would deal more. */
#define OFC_MAX_DEAL 24

typedef struct {
    uint64_t key[256];      /* additive key per card id (0 for ids > 51) */
    uint64_t bit[256];      /* 1 << id for valid ids, OFC_NOT_A_CARD otherwise */
    uint16_t flush_of[7463];
    uint16_t strength3[OFC_STRENGTH3_SIZE];
    uint16_t top_index[3][256]; /* rank * 169, rank * 13, rank: a top's index by card */
    uint16_t joint5[7463];
    uint16_t joint3[456];
    uint16_t plain5[OFC_PLAIN5_SIZE];
} ofc_tables;

OFC_INLINE void ofc_build_tables(ofc_tables *t)
{
    memset(t, 0, sizeof *t);
    for (int c = 0; c < 256; c++) {
        t->top_index[0][c] = (uint16_t)((c >> 2) * 169);
        t->top_index[1][c] = (uint16_t)((c >> 2) * 13);
        t->top_index[2][c] = (uint16_t)(c >> 2);
        if (c < 52) {
            t->key[c] = OFC_RANK_BASE[c >> 2] + (1ull << (OFC_SUIT_SHIFT + 4 * (c & 3)));
            t->bit[c] = 1ull << c;
        } else {
            t->bit[c] = OFC_NOT_A_CARD;
        }
    }
    for (int i = 0; i < OFC_N_PLAIN5; i++)
        t->plain5[OFC_PLAIN5_SUM[i]] = OFC_PLAIN5_CLASS[i];
    memcpy(t->flush_of, OFC_FLUSH_OF, sizeof t->flush_of);
    memcpy(t->strength3, OFC_STRENGTH3, sizeof OFC_STRENGTH3);
    memcpy(t->joint5, OFC_JOINT5, sizeof t->joint5);
    memcpy(t->joint3, OFC_JOINT3, sizeof t->joint3);
}

/* Class 1..7462 of five valid, distinct cards (higher is stronger). */
OFC_INLINE uint16_t ofc_strength5(const ofc_tables *t, uint8_t a, uint8_t b,
                                     uint8_t c, uint8_t d, uint8_t e)
{
    uint64_t k = OFC_SUIT_BIAS + t->key[a] + t->key[b] + t->key[c] + t->key[d] + t->key[e];
    uint16_t v = t->plain5[k & 0xfffff];
    if (k & OFC_FLUSH_MASK)
        v = t->flush_of[v];
    return v;
}

/* Class 1..455 of three valid cards. */
OFC_INLINE uint16_t ofc_strength3(const ofc_tables *t, uint8_t a, uint8_t b, uint8_t c)
{
    return t->strength3[t->top_index[0][a] + t->top_index[1][b] + t->top_index[2][c]];
}

/* Nonzero when the n cards hold an id > 51 (EMPTY included) or a repeat:
 * bits of distinct cards add up to their OR; a repeat carries into another
 * bit, and a non-card sets bit 63 (two of them overflow, so sum != OR). */
OFC_INLINE int ofc_bad_cards(const ofc_tables *t, const uint8_t *c, int n)
{
    uint64_t sum = 0, any = 0;
    for (int i = 0; i < n; i++) {   /* n is a constant at most call sites: unrolled */
        uint64_t b = t->bit[c[i]];
        sum += b;
        any |= b;
    }
    return (sum != any) | (int)(any >> 52 != 0);
}

/* The same for a long run of cards of variable length (a whole table):
 * four at a time on two chains. */
OFC_INLINE int ofc_bad_cards_many(const ofc_tables *t, const uint8_t *c, int n)
{
    uint64_t s0 = 0, s1 = 0, a0 = 0, a1 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        uint64_t b0 = t->bit[c[i]], b1 = t->bit[c[i + 1]];
        uint64_t b2 = t->bit[c[i + 2]], b3 = t->bit[c[i + 3]];
        s0 += b0 + b1;
        s1 += b2 + b3;
        a0 |= b0 | b1;
        a1 |= b2 | b3;
    }
    for (; i < n; i++) {
        uint64_t b = t->bit[c[i]];
        s0 += b;
        a0 |= b;
    }
    uint64_t any = a0 | a1;
    return (s0 + s1 != any) | (int)(any >> 52 != 0);
}

OFC_INLINE uint16_t ofc_row5(const ofc_tables *t, const uint8_t *c)
{
    return t->joint5[ofc_strength5(t, c[0], c[1], c[2], c[3], c[4])];
}

OFC_INLINE uint16_t ofc_row3(const ofc_tables *t, const uint8_t *c)
{
    return t->joint3[ofc_strength3(t, c[0], c[1], c[2])];
}

#endif
