/* Hand-strength tables and the inline evaluators every kernel shares.
 *
 * The only home of the hand primitives (docs/tables.md): the per-card key and
 * its rank bases, the 5-card class of a summed key (rank-sum look-up, then the
 * flush promotion), the 3-card index, the joint row scale, the card check, and
 * the completions of a row with jokers (every strength a row can take, by the
 * rank multiset of its natural cards; docs/tables.md, "Jokers").
 * The other kernels (_layout, _score, _fantasy, _rollout) call these instead
 * of re-deriving them, so a table change is made here once.
 *
 * One ofc_tables instance is built at import by ofc_fast._eval and handed to
 * the other extension modules as a pointer, so the 0.7 MB table exists once.
 */
#ifndef OFC_EVAL_H
#define OFC_EVAL_H
#include <stdint.h>
#include <string.h>
#include "ofc_compat.h"
#include "ofc_cards.h"         /* the deck: OFC_DECK, OFC_EMPTY, the card check */
#include "ofc_tables_data.h"   /* generated: OFC_RANK_BASE, the class tables */

#define OFC_N_IDS 256                /* tables indexed by a card id hold every uint8 */
#define OFC_N_RANKS 13
#define OFC_N_CLASS5 7462            /* 5-card classes: 1 .. 7462 */
#define OFC_N_CLASS3 455             /* 3-card classes: 1 .. 455 */
#define OFC_N_JOINT 7917u            /* joint scale: 1 .. 7917 */
/* Sized so that any five or three ids (bad ones too) index inside the
 * tables: kernels may look a hand up before its check has failed.  Entries
 * past the valid ones are 0 and never read for valid hands. */
#define OFC_PLAIN5_SIZE 397076u      /* 5 x the ace's base + 1 (valid sums end at 360,918) */
/* ofc_top_index(63, 63, 63) + 1: ranks of ids up to 255 */
#define OFC_STRENGTH3_SIZE ((63 * OFC_N_RANKS + 63) * OFC_N_RANKS + 63 + 1)
#define OFC_SUIT_SHIFT 20            /* four 4-bit suit counters above the rank sum */
#define OFC_RANK_SUM_MASK ((1ull << OFC_SUIT_SHIFT) - 1)  /* bits 0-19 of a key */
#define OFC_SUIT_BIAS (0x3333ull << OFC_SUIT_SHIFT)  /* a count of 5 sets bit 3 */
#define OFC_FLUSH_MASK (0x8888ull << OFC_SUIT_SHIFT)
#define OFC_NOT_A_CARD (1ull << 63)  /* bit[] of ids that are no card: any bit >= OFC_DECK is an error */
/* Completions of a row with jokers (docs/tables.md, "Jokers"): lists by the
 * rank multiset of the row's naturals (OFC_MS4 multisets of 4 ranks, OFC_MS3
 * of 3, OFC_MS2 of 2), OFC_N_JCANDS entries in all. */
#define OFC_MS4 1820
#define OFC_MS3 455
#define OFC_MS2 91
#define OFC_N_JCANDS 122031
/* Most cards one player is dealt in one hand (all streets, or a fantasyland
 * deal): the size of the engine's and the fantasyland solver's per-hand card
 * buffers.  ofc_fast.rules refuses variants that would deal more. */
#define OFC_MAX_DEAL 24

/* The generated tables have the sizes the struct below copies them into
 * (a negative array size stops the compile otherwise; any C compiler). */
/* The tables know a deck of 13 ranks of 4 suits (card id = 4 * rank + suit):
 * a deck of another size (src/ofc_cards.h) needs tables made for it. */
typedef char ofc_check_deck_ranks[OFC_N_RANKS * 4 == OFC_DECK ? 1 : -1];
typedef char ofc_check_rank_base[sizeof OFC_RANK_BASE == 4 * OFC_N_RANKS ? 1 : -1];
typedef char ofc_check_flush_of[sizeof OFC_FLUSH_OF == 2 * (OFC_N_CLASS5 + 1) ? 1 : -1];
typedef char ofc_check_joint5[sizeof OFC_JOINT5 == 2 * (OFC_N_CLASS5 + 1) ? 1 : -1];
typedef char ofc_check_joint3[sizeof OFC_JOINT3 == 2 * (OFC_N_CLASS3 + 1) ? 1 : -1];
typedef char ofc_check_strength3[sizeof OFC_STRENGTH3 == 2 * OFC_N_RANKS * OFC_N_RANKS * OFC_N_RANKS ? 1 : -1];
typedef char ofc_check_joint_info[sizeof OFC_JOINT_INFO == 4 * (OFC_N_JOINT + 1) ? 1 : -1];

/* One completion of a row with jokers: the completed row's joint strength,
 * the joker ranks that give it (r1 in bits 0-3, a second joker's r2 <= r1 in
 * bits 4-7) and whether the jokers take the naturals' suit (a flush). */
typedef struct {
    uint16_t s;
    uint8_t ranks;
    uint8_t flush;
} ofc_jcand;

/* A list of completions in ofc_tables.jc, strongest first. */
typedef struct {
    uint32_t off, n;
} ofc_jlist;

typedef struct {
    uint64_t key[OFC_N_IDS];      /* additive key per card id (0 for ids that are no card) */
    uint64_t bit[OFC_N_IDS];      /* 1 << id for cards and jokers, OFC_NOT_A_CARD otherwise */
    uint16_t flush_of[OFC_N_CLASS5 + 1];          /* plain class -> flush class */
    uint16_t strength3[OFC_STRENGTH3_SIZE];       /* ofc_top_index -> 3-card class */
    uint16_t top_index[3][OFC_N_IDS]; /* ofc_top_index's terms by card (rank of id >> 2) */
    uint16_t joint5[OFC_N_CLASS5 + 1];            /* 5-card class -> joint scale */
    uint16_t joint3[OFC_N_CLASS3 + 1];            /* 3-card class -> joint scale */
    uint16_t plain5[OFC_PLAIN5_SIZE];             /* rank sum -> plain 5-card class */
    /* rows with jokers */
    uint8_t top_group[OFC_N_JOINT + 1];           /* joint strength of a top pair or trips -> rank + 1 */
    uint16_t ms_binom[5][OFC_N_RANKS + 4];        /* C(r + i - 1, i): multiset colex terms */
    ofc_jlist jl5[2][OFC_MS4][2];                 /* 5-card row: [jokers - 1][naturals' multiset][suited] */
    ofc_jlist jl3[2][OFC_MS2];                    /* top: [jokers - 1][naturals' multiset] */
    uint32_t n_jc;                                /* entries filled (OFC_N_JCANDS when built right) */
    ofc_jcand jc[OFC_N_JCANDS];
} ofc_tables;

/* ---- the primitives (docs/tables.md) ---------------------------------- */

/* Additive 64-bit key of a valid card id: its rank's base (bits 0-19) plus
 * one in its suit's 4-bit counter (bits 20-35).  Five keys and OFC_SUIT_BIAS
 * sum to a key that ofc_strength5_key decodes. */
OFC_INLINE uint64_t ofc_card_key(int c)
{
    return OFC_RANK_BASE[c >> 2] + (1ull << (OFC_SUIT_SHIFT + 4 * (c & 3)));
}

/* Plain (suits ignored) 5-card class of a rank sum: a sum of five
 * OFC_RANK_BASE terms, each rank at most four times. */
OFC_INLINE uint16_t ofc_plain5(const ofc_tables *t, uint32_t rank_sum)
{
    return t->plain5[rank_sum];
}

/* The flush (or straight-flush) class of a plain class of five distinct ranks. */
OFC_INLINE uint16_t ofc_flush5(const ofc_tables *t, uint16_t plain)
{
    return t->flush_of[plain];
}

/* 5-card class of a summed key (OFC_SUIT_BIAS + five card keys): the plain
 * class of its rank sum, promoted when a suit counter reached five. */
OFC_INLINE uint16_t ofc_strength5_key(const ofc_tables *t, uint64_t k)
{
    uint16_t v = ofc_plain5(t, (uint32_t)(k & OFC_RANK_SUM_MASK));
    if (k & OFC_FLUSH_MASK)
        v = ofc_flush5(t, v);
    return v;
}

/* Index of a top with ranks r0, r1, r2 (0 = deuce .. 12 = ace, in the order
 * given) into strength3: every permutation is filled. */
OFC_INLINE int ofc_top_index(int r0, int r1, int r2)
{
    return (r0 * OFC_N_RANKS + r1) * OFC_N_RANKS + r2;
}

/* 3-card class of three ranks. */
OFC_INLINE uint16_t ofc_strength3_ranks(const ofc_tables *t, int r0, int r1, int r2)
{
    return t->strength3[ofc_top_index(r0, r1, r2)];
}


/* ---- rows with jokers (docs/tables.md, "Jokers") ---------------------------
 * A row's jokers complete it in a few ways only: with one joker a rank (13
 * ways, and a flush or straight flush in the naturals' suit when they share
 * one), with two jokers a pair of ranks.  The strength of each completion
 * depends only on the multiset of the naturals' ranks (and whether they share
 * a suit), so every list is built once, strongest first; a kernel looks up
 * its row's list by the multiset's colex rank and scans for the first
 * completion whose joker cards are available. */

/* Colex rank of a multiset of k ranks sorted ascending: the sum of
 * C(r_i + i - 1, i) over i = 1 .. k (0 .. C(12 + k, k) - 1). */
OFC_ALWAYS_INLINE int ofc_ms_index(const ofc_tables *t, const int *r, int k)
{
    int idx = 0;
    for (int i = 0; i < k; i++)
        idx += t->ms_binom[i + 1][r[i]];
    return idx;
}

/* Joint strength of five ranks (r[0..4], any order), plain or as a flush
 * (five distinct ranks). */
OFC_INLINE uint16_t ofc_ranks5_strength(const ofc_tables *t, const int *r, int flush)
{
    uint32_t sum = 0;
    for (int i = 0; i < 5; i++)
        sum += OFC_RANK_BASE[r[i]];
    uint16_t v = t->plain5[sum];
    return t->joint5[flush ? t->flush_of[v] : v];
}

/* Sort a list of completions strongest first (insertion sort: at most 136). */
OFC_INLINE void ofc_jsort(ofc_jcand *c, int n)
{
    for (int i = 1; i < n; i++) {
        ofc_jcand x = c[i];
        int j = i;
        while (j > 0 && c[j - 1].s < x.s) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = x;
    }
}

/* Append the completions of naturals of ranks r[0 .. k-1] (sorted) with
 * 5 - k or 3 - k jokers; returns the list. */
OFC_INLINE ofc_jlist ofc_jlist_build(ofc_tables *t, const int *r, int k, int size, int suited)
{
    ofc_jlist l;
    int cnt[OFC_N_RANKS] = {0}, h[5], nj = size - k;
    l.off = t->n_jc;
    l.n = 0;
    for (int i = 0; i < k; i++)
        cnt[r[i]]++;
    for (int r1 = 0; r1 < OFC_N_RANKS; r1++) {
        for (int r2 = 0; r2 <= (nj == 2 ? r1 : 0); r2++) {
            for (int flush = 0; flush <= (size == 5 && suited); flush++) {
                int c[OFC_N_RANKS];
                memcpy(c, cnt, sizeof c);
                c[r1]++;
                if (nj == 2)
                    c[r2]++;
                if (c[r1] > 4 || c[r2] > 4)
                    continue;
                if (flush && (c[r1] > 1 || c[r2] > 1))
                    continue;          /* a flush needs five distinct ranks */
                if (t->n_jc >= OFC_N_JCANDS)
                    return l;          /* the count check at import reports it */
                for (int i = 0; i < k; i++)
                    h[i] = r[i];
                h[k] = r1;
                if (nj == 2)
                    h[k + 1] = r2;
                ofc_jcand *e = &t->jc[t->n_jc++];
                e->s = size == 5 ? ofc_ranks5_strength(t, h, flush)
                                 : t->joint3[t->strength3[ofc_top_index(h[0], h[1], h[2])]];
                e->ranks = (uint8_t)(r1 | (nj == 2 ? r2 << 4 : 0));
                e->flush = (uint8_t)flush;
                l.n++;
            }
        }
    }
    ofc_jsort(t->jc + l.off, (int)l.n);
    return l;
}

/* Every list: naturals' multisets enumerated in ascending order. */
OFC_INLINE void ofc_build_joker_tables(ofc_tables *t)
{
    for (int j = 1; j <= (int)OFC_N_JOINT; j++) {
        uint32_t info = OFC_JOINT_INFO[j];
        int cat = (int)(info & 0xF), size = (int)((info >> 4) & 0xF);
        int rank0 = (int)((info >> 8) & 0xF) - 1;
        t->top_group[j] = (uint8_t)(size == 3 && (cat == 1 || cat == 3) ? rank0 + 1 : 0);
    }
    for (int i = 0; i < 5; i++)
        for (int r = 0; r < OFC_N_RANKS + 4; r++) {
            uint32_t v = 1;   /* C(r + i - 1, i) */
            for (int q = 0; q < i; q++)
                v = v * (uint32_t)(r + i - 1 - q) / (uint32_t)(q + 1);
            t->ms_binom[i][r] = (uint16_t)v;
        }
    t->n_jc = 0;
    int r[4];
    for (r[0] = 0; r[0] < OFC_N_RANKS; r[0]++)
        for (r[1] = r[0]; r[1] < OFC_N_RANKS; r[1]++) {
            t->jl3[0][ofc_ms_index(t, r, 2)] = ofc_jlist_build(t, r, 2, 3, 0);
            for (r[2] = r[1]; r[2] < OFC_N_RANKS; r[2]++) {
                int m3 = ofc_ms_index(t, r, 3), distinct3 = r[0] < r[1] && r[1] < r[2];
                t->jl5[1][m3][0] = ofc_jlist_build(t, r, 3, 5, 0);
                if (distinct3)
                    t->jl5[1][m3][1] = ofc_jlist_build(t, r, 3, 5, 1);
                for (r[3] = r[2]; r[3] < OFC_N_RANKS; r[3]++) {
                    int m4 = ofc_ms_index(t, r, 4);
                    t->jl5[0][m4][0] = ofc_jlist_build(t, r, 4, 5, 0);
                    if (distinct3 && r[2] < r[3])
                        t->jl5[0][m4][1] = ofc_jlist_build(t, r, 4, 5, 1);
                }
            }
        }
    for (r[0] = 0; r[0] < OFC_N_RANKS; r[0]++)
        t->jl3[1][r[0]] = ofc_jlist_build(t, r, 1, 3, 0);
}

OFC_INLINE void ofc_build_tables(ofc_tables *t)
{
    memset(t, 0, sizeof *t);
    for (int c = 0; c < OFC_N_IDS; c++) {
        /* ofc_top_index is linear in each rank: its terms add up per card */
        t->top_index[0][c] = (uint16_t)ofc_top_index(c >> 2, 0, 0);
        t->top_index[1][c] = (uint16_t)ofc_top_index(0, c >> 2, 0);
        t->top_index[2][c] = (uint16_t)ofc_top_index(0, 0, c >> 2);
        if (ofc_is_card(c)) {
            t->key[c] = ofc_card_key(c);
            t->bit[c] = ofc_card_bit(c);
        } else if (ofc_is_joker(c)) {
            t->bit[c] = ofc_card_bit(c);   /* key 0: a joker adds no rank and no suit */
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
    ofc_build_joker_tables(t);
}

/* Class 1..7462 of five valid, distinct cards (higher is stronger). */
OFC_INLINE uint16_t ofc_strength5(const ofc_tables *t, uint8_t a, uint8_t b,
                                     uint8_t c, uint8_t d, uint8_t e)
{
    return ofc_strength5_key(t, OFC_SUIT_BIAS + t->key[a] + t->key[b] + t->key[c]
                                + t->key[d] + t->key[e]);
}

/* Class 1..455 of three valid cards (the per-card terms of ofc_top_index). */
OFC_INLINE uint16_t ofc_strength3(const ofc_tables *t, uint8_t a, uint8_t b, uint8_t c)
{
    return t->strength3[t->top_index[0][a] + t->top_index[1][b] + t->top_index[2][c]];
}

/* Nonzero when the n cards hold an id that is no card (EMPTY included) or a repeat:
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
    return (sum != any) | (int)(any >> OFC_DECK != 0);
}

/* The mask of n ids (jokers' bits included; a non-card sets bit 63) and,
 * in *sum, the sum of their bits: distinct ids when the two are equal. */
OFC_ALWAYS_INLINE uint64_t ofc_card_bits(const ofc_tables *t, const uint8_t *c, int n,
                                         uint64_t *sum)
{
    uint64_t s = 0, any = 0;
    for (int i = 0; i < n; i++) {
        uint64_t b = t->bit[c[i]];
        s += b;
        any |= b;
    }
    *sum = s;
    return any;
}

/* ofc_bad_cards for a variant with `jokers` jokers: X1 .. X<jokers> are
 * cards too. */
OFC_ALWAYS_INLINE int ofc_bad_ids(const ofc_tables *t, const uint8_t *c, int n, int jokers)
{
    uint64_t sum, any = ofc_card_bits(t, c, n, &sum);
    return (sum != any) | (int)(any >> (OFC_DECK + jokers) != 0);
}

/* The same for a long run of cards of variable length (a whole table):
 * four at a time on two chains; X1 .. X<jokers> are cards. */
OFC_INLINE int ofc_bad_ids_many(const ofc_tables *t, const uint8_t *c, int n, int jokers)
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
    return (s0 + s1 != any) | (int)(any >> (OFC_DECK + jokers) != 0);
}

/* Joint row strength (1 .. 7917) of five cards, three cards, a summed
 * 5-card key, or three ranks. */
OFC_INLINE uint16_t ofc_row5(const ofc_tables *t, const uint8_t *c)
{
    return t->joint5[ofc_strength5(t, c[0], c[1], c[2], c[3], c[4])];
}

OFC_INLINE uint16_t ofc_row3(const ofc_tables *t, const uint8_t *c)
{
    return t->joint3[ofc_strength3(t, c[0], c[1], c[2])];
}

OFC_INLINE uint16_t ofc_row5_key(const ofc_tables *t, uint64_t k)
{
    return t->joint5[ofc_strength5_key(t, k)];
}

OFC_INLINE uint16_t ofc_row3_ranks(const ofc_tables *t, int r0, int r1, int r2)
{
    return t->joint3[ofc_strength3_ranks(t, r0, r1, r2)];
}

#endif
