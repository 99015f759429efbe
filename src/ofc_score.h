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


typedef struct {
    const int16_t *key[OFC_MAX_ROWS];   /* n each; 0 when fouled */
    const int16_t *roy[OFC_MAX_ROWS];
    const int16_t *tot;
    const int16_t *foul;
    const int8_t *fin;
    intptr_t n;
} ofc_cols;

OFC_INLINE int32_t ofc_cols_pair(const ofc_rules *r, const ofc_cols *a, intptr_t i,
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
    const int16_t *OFC_RESTRICT bk[R];                                               \
    for (int k = 0; k < R; k++) { ak[k] = a->key[k][i]; bk[k] = b->key[k]; }    \
    const int16_t ta = a->tot[i], fa = a->foul[i];                               \
    const int16_t *OFC_RESTRICT bt = b->tot, *OFC_RESTRICT bf = b->foul;

#define OFC_DEFINE_ROW_KERNELS(R)                                                \
OFC_CLONES static void ofc_scores16_##R(const ofc_rules *r, const ofc_cols *a,   \
                                        intptr_t i, const ofc_cols *b,           \
                                        int32_t *OFC_RESTRICT out)                   \
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
OFC_INLINE int ofc_fast16(const ofc_rules *r) { return !r->finnish && r->chunk > 0; }

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

/* Points of every player at b tables of P players from evaluated columns
 * (layout b * P + p), written to points[b * P + p].  R is a literal at the
 * call sites, and the rules live in locals: the uint8 stores could alias them. */
OFC_ALWAYS_INLINE void
ofc_table_points(const ofc_rules *r, const ofc_eval_cols *c, intptr_t nb, int P,
                 int32_t *OFC_RESTRICT points, const int R)
{
    const int extra = r->foul_extra, finnish = r->finnish;
    int by_rows[OFC_MAX_ROWS + 1][OFC_MAX_ROWS + 1];  /* row points by (rows won, rows lost) */
    for (int w = 0; w <= R; w++)
        for (int l = 0; w + l <= R; l++)
            by_rows[w][l] = r->per_row * (w - l) + r->scoop_bonus * ((w == R) - (l == R))
                          + r->majority_bonus * ((w >= r->majority_min) - (l >= r->majority_min));
    for (intptr_t b = 0; b < nb; b++) {
        int key[4][OFC_MAX_ROWS], roy[4][OFC_MAX_ROWS], tot[4], foul[4], fin[4], sum[4] = {0};
        for (int p = 0; p < P; p++) {
            intptr_t i = b * P + p;
            for (int k = 0; k < R; k++) {
                key[p][k] = c->key[k][i];
                roy[p][k] = c->royalty[k][i];
            }
            tot[p] = c->total[i];
            foul[p] = c->foul[i];
            fin[p] = c->finnish_row[i];
        }
        for (int p = 0; p < P; p++)
            for (int q = p + 1; q < P; q++) {
                int won = 0, lost = 0;
                for (int k = 0; k < R; k++) {
                    won += key[p][k] > key[q][k];
                    lost += key[p][k] < key[q][k];
                }
                int pts = by_rows[won][lost] + extra * (foul[q] - foul[p]) + tot[p] - tot[q];
                if (finnish) {
                    if (fin[p] >= 0)
                        pts += roy[p][fin[p]] - roy[q][fin[p]];
                    if (fin[q] >= 0 && fin[q] != fin[p])
                        pts += roy[p][fin[q]] - roy[q][fin[q]];
                }
                sum[p] += pts;
                sum[q] -= pts;
            }
        for (int p = 0; p < P; p++)
            points[b * P + p] = sum[p];
    }
}

/* Score G tables of P players (cards: G x P x n_cards).  Each table's cards
 * are checked together (one 64-bit mask: OFC_CARD_IDS < 64; a variant's
 * jokers are cards), then its layouts are evaluated a block at a time (jokers
 * resolved) and every pair scored.  Per player: points, foul, royalty total,
 * next-hand fantasyland cards and the card each joker stands for (sub:
 * G x P x jokers; each may be NULL when not wanted).  fl (fantasyland
 * counts) may be NULL.  Returns the first table with a bad or shared card,
 * or -1. */
#define OFC_TABLE_BLOCK 32
static intptr_t ofc_score_tables(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                                 intptr_t G, int P, const uint8_t *fl, int32_t *points,
                                 uint8_t *foul, int16_t *royalty_total, uint8_t *fantasyland,
                                 uint8_t *sub)
{
    enum { N = OFC_TABLE_BLOCK * 4 };
    uint16_t strength[OFC_MAX_ROWS][N], key[OFC_MAX_ROWS][N];
    int16_t royalty[OFC_MAX_ROWS][N];
    int32_t total[N];
    uint8_t rep[N], fo_local[N], fan_local[N];
    int8_t fin[N];
    ofc_eval_cols cols;
    const int nc = r->n_cards;
    for (intptr_t g0 = 0; g0 < G; g0 += OFC_TABLE_BLOCK) {
        intptr_t nb = G - g0 < OFC_TABLE_BLOCK ? G - g0 : OFC_TABLE_BLOCK;
        for (intptr_t g = g0; g < g0 + nb; g++)
            if (ofc_bad_ids_many(t, cards + g * P * nc, P * nc, r->jokers))
                return g;
        /* fouls and fantasyland go straight to the outputs */
        for (int k = 0; k < OFC_MAX_ROWS; k++) {
            cols.strength[k] = strength[k]; cols.key[k] = key[k]; cols.royalty[k] = royalty[k];
        }
        cols.total = total; cols.repeat = rep; cols.finnish_row = fin;
        cols.sub = sub ? sub + g0 * P * r->jokers : NULL;
        cols.next_fl = NULL;
        cols.foul = foul ? foul + g0 * P : fo_local;
        cols.fantasyland = fantasyland ? fantasyland + g0 * P : fan_local;
        ofc_eval_layouts(t, r, cards + g0 * P * nc, nb * P, fl ? fl + g0 * P : NULL, &cols, 0);
        for (intptr_t i = 0; royalty_total && i < nb * P; i++)
            royalty_total[g0 * P + i] = (int16_t)total[i];
        if (r->n_rows == 3)
            ofc_table_points(r, &cols, nb, P, points + g0 * P, 3);
        else
            ofc_table_points(r, &cols, nb, P, points + g0 * P, 4);
    }
    return -1;
}

#endif
