/* Pairwise scoring over column arrays: one layout against many.
 *
 * Columns (structure of arrays, all int16) let gcc vectorise the inner loop
 * in 16-bit lanes: each pair is a handful of compares and adds with no
 * branch.  Fouled layouts have keys and royalties 0, so fouls need no special
 * case.  The Finnish bonus needs per-row royalties and takes the general path,
 * as do custom tables whose points could overflow 16-bit sums.
 */
#ifndef OFC_SCORE_H
#define OFC_SCORE_H
#include <stdint.h>
#include "ofc_rules.h"

/* Build an AVX2 clone beside the baseline one where the toolchain can pick
 * between them at load time (gcc on x86-64 Linux); elsewhere baseline only. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define OFC_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OFC_CLONES
#endif

typedef struct {
    const int16_t *key[OFC_MAX_ROWS];   /* n each; 0 when fouled */
    const int16_t *roy[OFC_MAX_ROWS];
    const int16_t *tot;
    const int16_t *foul;
    const int8_t *fin;
    intptr_t n;
} ofc_cols;

static inline int32_t ofc_cols_pair(const ofc_rules *r, const ofc_cols *a, intptr_t i,
                                    const ofc_cols *b, intptr_t j)
{
    ofc_layout_eval x, y;
    for (int k = 0; k < r->n_rows; k++) {
        x.key[k] = (uint16_t)a->key[k][i]; x.royalty[k] = a->roy[k][i];
        y.key[k] = (uint16_t)b->key[k][j]; y.royalty[k] = b->roy[k][j];
    }
    x.royalty_total = a->tot[i]; y.royalty_total = b->tot[j];
    x.foul = (uint8_t)a->foul[i]; y.foul = (uint8_t)b->foul[j];
    x.finnish_row = a->fin[i]; y.finnish_row = b->fin[j];
    return ofc_pair_points(r, &x, &y);
}

/* One pair from columns in 16-bit arithmetic; R is a literal so rows unroll. */
#define OFC_PAIR16(R)                                                            \
    int16_t w = 0, l = 0;                                                        \
    for (int k = 0; k < R; k++) {                                                \
        w = (int16_t)(w + (ak[k] > bk[k][j]));                                   \
        l = (int16_t)(l + (ak[k] < bk[k][j]));                                   \
    }                                                                            \
    int16_t v = (int16_t)(P * (w - l) + S * ((w == R) - (l == R))                \
              + M * ((w >= mm) - (l >= mm)) + X * (bf[j] - fa) + ta - bt[j]);

#define OFC_SETUP16(R)                                                           \
    const int16_t P = (int16_t)r->per_row, S = (int16_t)r->scoop_bonus;          \
    const int16_t M = (int16_t)r->majority_bonus, mm = (int16_t)r->majority_min; \
    const int16_t X = (int16_t)r->foul_extra;                                    \
    int16_t ak[R];                                                               \
    const int16_t *restrict bk[R];                                               \
    for (int k = 0; k < R; k++) { ak[k] = a->key[k][i]; bk[k] = b->key[k]; }    \
    const int16_t ta = a->tot[i], fa = a->foul[i];                               \
    const int16_t *restrict bt = b->tot, *restrict bf = b->foul;

#define OFC_DEFINE_ROW_KERNELS(R)                                                \
OFC_CLONES static void ofc_scores16_##R(const ofc_rules *r, const ofc_cols *a,   \
                                        intptr_t i, const ofc_cols *b,           \
                                        int32_t *restrict out)                   \
{                                                                                \
    OFC_SETUP16(R)                                                               \
    for (intptr_t j = 0; j < b->n; j++) {                                        \
        OFC_PAIR16(R)                                                            \
        out[j] = v;                                                              \
    }                                                                            \
}                                                                                \
OFC_CLONES static int64_t ofc_total16_##R(const ofc_rules *r, const ofc_cols *a, \
                                          intptr_t i, const ofc_cols *b)         \
{                                                                                \
    OFC_SETUP16(R)                                                               \
    int64_t total = 0;                                                           \
    for (intptr_t start = 0; start < b->n; start += r->chunk) {                  \
        intptr_t stop = b->n - start < r->chunk ? b->n : start + r->chunk;       \
        int16_t acc = 0;  /* chunk * max |pair| fits in int16 */                 \
        for (intptr_t j = start; j < stop; j++) {                                \
            OFC_PAIR16(R)                                                        \
            acc = (int16_t)(acc + v);                                            \
        }                                                                        \
        total += acc;                                                            \
    }                                                                            \
    return total;                                                                \
}

OFC_DEFINE_ROW_KERNELS(3)
OFC_DEFINE_ROW_KERNELS(4)

/* The 16-bit kernels apply when no Finnish doubling is on and r->chunk
 * (pairs per int16 partial sum) is at least 1; compile_rules sets chunk 0
 * for tables too large for 16-bit arithmetic. */
static inline int ofc_fast16(const ofc_rules *r) { return !r->finnish && r->chunk > 0; }

/* Row i of the score matrix of a against b. */
static void ofc_score_row(const ofc_rules *r, const ofc_cols *a, intptr_t i,
                          const ofc_cols *b, int32_t *out)
{
    if (!ofc_fast16(r)) {
        for (intptr_t j = 0; j < b->n; j++)
            out[j] = ofc_cols_pair(r, a, i, b, j);
    } else if (r->n_rows == 3) {
        ofc_scores16_3(r, a, i, b, out);
    } else {
        ofc_scores16_4(r, a, i, b, out);
    }
}

/* What layout i of a wins from all of b in total. */
static int64_t ofc_score_total(const ofc_rules *r, const ofc_cols *a, intptr_t i,
                               const ofc_cols *b)
{
    if (!ofc_fast16(r)) {
        int64_t t = 0;
        for (intptr_t j = 0; j < b->n; j++)
            t += ofc_cols_pair(r, a, i, b, j);
        return t;
    }
    return r->n_rows == 3 ? ofc_total16_3(r, a, i, b) : ofc_total16_4(r, a, i, b);
}

/* Score G tables of P players (cards: G x P x n_cards).  Each table's cards
 * are checked together (at most 52 < 64 bits), then its layouts are evaluated
 * a block at a time and every pair scored.  Per player: points, foul,
 * royalty total and next-hand fantasyland cards.  Returns the first table
 * with a bad or shared card, or -1. */
#define OFC_TABLE_BLOCK 64
static intptr_t ofc_score_tables(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                                 intptr_t G, int P, const uint8_t *fl, int32_t *points,
                                 uint8_t *foul, int16_t *royalty_total, uint8_t *fantasyland)
{
    enum { N = OFC_TABLE_BLOCK * 4 };
    uint16_t strength[OFC_MAX_ROWS][N], key[OFC_MAX_ROWS][N];
    int16_t royalty[OFC_MAX_ROWS][N];
    int32_t total[N];
    uint8_t fo[N], fan[N], rep[N];
    int8_t fin[N];
    ofc_eval_cols cols;
    for (int k = 0; k < OFC_MAX_ROWS; k++) {
        cols.strength[k] = strength[k]; cols.key[k] = key[k]; cols.royalty[k] = royalty[k];
    }
    cols.total = total; cols.foul = fo; cols.fantasyland = fan; cols.repeat = rep;
    cols.finnish_row = fin;
    const int nc = r->n_cards, R = r->n_rows;
    for (intptr_t g0 = 0; g0 < G; g0 += OFC_TABLE_BLOCK) {
        intptr_t nb = G - g0 < OFC_TABLE_BLOCK ? G - g0 : OFC_TABLE_BLOCK;
        for (intptr_t g = g0; g < g0 + nb; g++)
            if (ofc_bad_cards(t, cards + g * P * nc, P * nc))
                return g;
        ofc_eval_layouts(t, r, cards + g0 * P * nc, nb * P, fl + g0 * P, &cols, 0);
        for (intptr_t b = 0; b < nb; b++) {
            ofc_layout_eval e[4];
            for (int p = 0; p < P; p++) {
                intptr_t i = b * P + p, out = (g0 + b) * P + p;
                for (int k = 0; k < R; k++) {
                    e[p].key[k] = key[k][i];
                    e[p].royalty[k] = royalty[k][i];
                }
                e[p].royalty_total = total[i];
                e[p].foul = fo[i];
                e[p].finnish_row = fin[i];
                foul[out] = fo[i];
                royalty_total[out] = (int16_t)total[i];
                fantasyland[out] = fan[i];
                points[out] = 0;
            }
            for (int p = 0; p < P; p++)
                for (int q = p + 1; q < P; q++) {
                    int32_t pts = ofc_pair_points(r, &e[p], &e[q]);
                    points[(g0 + b) * P + p] += pts;
                    points[(g0 + b) * P + q] -= pts;
                }
        }
    }
    return -1;
}

#endif
