/* Pairwise scoring over column arrays: one layout against many.
 *
 * Columns (structure of arrays) let gcc vectorise the inner loop: each pair
 * is a handful of compares and adds with no branch.  Fouled layouts have keys
 * and royalties 0, so fouls need no special case; the Finnish bonus needs the
 * per-row royalties and takes the general path.
 */
#ifndef OFC_SCORE_H
#define OFC_SCORE_H
#include <stdint.h>
#include "ofc_rules.h"

typedef struct {
    const uint16_t *key[OFC_MAX_ROWS];   /* n each */
    const int16_t *roy[OFC_MAX_ROWS];
    const int32_t *tot;
    const uint8_t *foul;
    const int8_t *fin;
    intptr_t n;
} ofc_cols;

static inline int32_t ofc_cols_pair(const ofc_rules *r, const ofc_cols *a, intptr_t i,
                                    const ofc_cols *b, intptr_t j)
{
    ofc_layout_eval x, y;
    for (int k = 0; k < r->n_rows; k++) {
        x.key[k] = a->key[k][i]; x.royalty[k] = a->roy[k][i];
        y.key[k] = b->key[k][j]; y.royalty[k] = b->roy[k][j];
    }
    x.royalty_total = a->tot[i]; y.royalty_total = b->tot[j];
    x.foul = a->foul[i]; y.foul = b->foul[j];
    x.finnish_row = a->fin[i]; y.finnish_row = b->fin[j];
    return ofc_pair_points(r, &x, &y);
}

/* One pair from columns; R is a literal so the row loop unrolls. */
#define OFC_PAIR_COLS(R)                                                        \
    int w = 0, l = 0;                                                           \
    for (int k = 0; k < R; k++) {                                               \
        w += ak[k] > bk[k][j];                                                  \
        l += ak[k] < bk[k][j];                                                  \
    }                                                                           \
    int32_t v = P * (w - l) + S * ((w == R) - (l == R))                         \
              + M * ((w >= mm) - (l >= mm)) + X * ((int)bf[j] - fa) + ta - bt[j];

#define OFC_DEFINE_ROW_KERNELS(R)                                               \
static void ofc_scores_##R(const ofc_rules *r, const ofc_cols *a, intptr_t i,   \
                           const ofc_cols *b, int32_t *restrict out)            \
{                                                                               \
    const int P = r->per_row, S = r->scoop_bonus, M = r->majority_bonus;        \
    const int mm = r->majority_min, X = r->foul_extra;                          \
    int ak[R];                                                                  \
    const uint16_t *bk[R];                                                      \
    for (int k = 0; k < R; k++) { ak[k] = a->key[k][i]; bk[k] = b->key[k]; }   \
    const int32_t ta = a->tot[i], *bt = b->tot;                                 \
    const int fa = a->foul[i];                                                  \
    const uint8_t *bf = b->foul;                                                \
    for (intptr_t j = 0; j < b->n; j++) {                                       \
        OFC_PAIR_COLS(R)                                                        \
        out[j] = v;                                                             \
    }                                                                           \
}                                                                               \
static int64_t ofc_total_##R(const ofc_rules *r, const ofc_cols *a, intptr_t i, \
                             const ofc_cols *b)                                 \
{                                                                               \
    const int P = r->per_row, S = r->scoop_bonus, M = r->majority_bonus;        \
    const int mm = r->majority_min, X = r->foul_extra;                          \
    int ak[R];                                                                  \
    const uint16_t *bk[R];                                                      \
    for (int k = 0; k < R; k++) { ak[k] = a->key[k][i]; bk[k] = b->key[k]; }   \
    const int32_t ta = a->tot[i], *bt = b->tot;                                 \
    const int fa = a->foul[i];                                                  \
    const uint8_t *bf = b->foul;                                                \
    int64_t total = 0;                                                          \
    for (intptr_t start = 0; start < b->n; start += r->chunk) {                 \
        intptr_t stop = b->n - start < r->chunk ? b->n : start + r->chunk;      \
        int32_t acc = 0;  /* chunk * max |pair| fits in int32 */               \
        for (intptr_t j = start; j < stop; j++) {                               \
            OFC_PAIR_COLS(R)                                                    \
            acc += v;                                                           \
        }                                                                       \
        total += acc;                                                           \
    }                                                                           \
    return total;                                                               \
}

OFC_DEFINE_ROW_KERNELS(3)
OFC_DEFINE_ROW_KERNELS(4)

/* Row i of the score matrix of a against b. */
static void ofc_score_row(const ofc_rules *r, const ofc_cols *a, intptr_t i,
                          const ofc_cols *b, int32_t *out)
{
    if (r->finnish) {
        for (intptr_t j = 0; j < b->n; j++)
            out[j] = ofc_cols_pair(r, a, i, b, j);
    } else if (r->n_rows == 3) {
        ofc_scores_3(r, a, i, b, out);
    } else {
        ofc_scores_4(r, a, i, b, out);
    }
}

/* What layout i of a wins from all of b in total. */
static int64_t ofc_score_total(const ofc_rules *r, const ofc_cols *a, intptr_t i,
                               const ofc_cols *b)
{
    if (r->finnish) {
        int64_t t = 0;
        for (intptr_t j = 0; j < b->n; j++)
            t += ofc_cols_pair(r, a, i, b, j);
        return t;
    }
    return r->n_rows == 3 ? ofc_total_3(r, a, i, b) : ofc_total_4(r, a, i, b);
}

#endif
