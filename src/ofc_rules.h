/* Compiled rules of a variant and the per-layout / per-pair kernels.
 *
 * A variant compiles (ofc_fast/rules.py) into per-row lookup tables indexed by
 * the joint row strength (1 .. 7917), so the kernels never branch on a rule:
 * royalties, row validity (2-7 middles), scoring keys (reversed for lowball),
 * fantasyland entry and repeat points are all table reads.
 */
#ifndef OFC_RULES_H
#define OFC_RULES_H
#include <stdint.h>
#include "ofc_eval.h"

#define OFC_MAX_ROWS 4
#define OFC_SCALE 7918           /* joint strengths 1 .. 7917, 0 unused */
#define OFC_NO_LIMIT 255         /* max_repeats: no limit */

typedef struct {
    int n_rows, n_cards;
    int row_len[OFC_MAX_ROWS], row_off[OFC_MAX_ROWS];
    int in_chain[OFC_MAX_ROWS];              /* row takes part in the foul order */
    int16_t royalty[OFC_MAX_ROWS][OFC_SCALE];
    uint8_t valid[OFC_MAX_ROWS][OFC_SCALE];  /* 0: the row alone fouls the hand */
    uint16_t key[OFC_MAX_ROWS][OFC_SCALE];   /* head-to-head key, higher wins, >= 1 */
    uint8_t entry_pts[OFC_MAX_ROWS][OFC_SCALE];
    uint8_t repeat_pts[OFC_MAX_ROWS][OFC_SCALE];
    uint8_t entry_cards[16];                 /* by summed entry points */
    int repeat_threshold, repeat_cards, max_repeats;
    int finnish;                             /* 2s doubles its row's royalties */
    int per_row, scoop_bonus, majority_bonus, majority_min, foul_extra;
    int chunk;                               /* pairs summed in int32 before widening */
} ofc_rules;

/* What one finished layout brings to scoring (fouled: keys 0, royalties 0). */
typedef struct {
    uint16_t strength[OFC_MAX_ROWS];
    uint16_t key[OFC_MAX_ROWS];
    int16_t royalty[OFC_MAX_ROWS];
    int32_t royalty_total;
    uint8_t foul, fantasyland, repeat;
    int8_t finnish_row;                      /* row holding the 2 of spades, or -1 */
} ofc_layout_eval;

#define OFC_TWO_OF_SPADES 3

/* Evaluate a finished layout whose cards were validated. fl_count: 0 for a
 * normal hand, k for the k-th fantasyland hand in a row. */
static inline void ofc_eval_layout(const ofc_tables *t, const ofc_rules *r,
                                   const uint8_t *cards, int fl_count, ofc_layout_eval *e)
{
    int foul = 0, prev = 0, pts = 0, i, k;
    e->finnish_row = -1;
    for (i = 0; i < r->n_rows; i++) {
        const uint8_t *c = cards + r->row_off[i];
        uint16_t s = r->row_len[i] == 5 ? ofc_row5(t, c) : ofc_row3(t, c);
        e->strength[i] = s;
        foul |= !r->valid[i][s];
        if (r->in_chain[i]) {
            foul |= s < prev;
            prev = s;
        }
        for (k = 0; k < r->row_len[i]; k++)
            if (c[k] == OFC_TWO_OF_SPADES)
                e->finnish_row = (int8_t)i;
    }
    if (!r->finnish)
        e->finnish_row = -1;
    e->foul = (uint8_t)foul;
    e->royalty_total = 0;
    for (i = 0; i < r->n_rows; i++) {
        uint16_t s = e->strength[i];
        e->key[i] = foul ? 0 : r->key[i][s];
        e->royalty[i] = foul ? 0 : r->royalty[i][s];
        e->royalty_total += e->royalty[i];
        pts += fl_count ? r->repeat_pts[i][s] : r->entry_pts[i][s];
    }
    e->repeat = 0;
    if (foul) {
        e->fantasyland = 0;
    } else if (fl_count) {
        int allowed = r->max_repeats == OFC_NO_LIMIT || fl_count <= r->max_repeats;
        e->repeat = (uint8_t)(allowed && r->repeat_threshold > 0 && pts >= r->repeat_threshold);
        e->fantasyland = e->repeat ? (uint8_t)r->repeat_cards : 0;
    } else {
        e->fantasyland = r->entry_cards[pts > 15 ? 15 : pts];
    }
}

/* Points a wins from b (zero-sum). Rows compare by key; fouled keys are 0, so a
 * live hand scoops a fouled one and two fouled hands tie everything. */
static inline int32_t ofc_pair_points(const ofc_rules *r, const ofc_layout_eval *a,
                                      const ofc_layout_eval *b)
{
    int won = 0, lost = 0, i;
    int32_t pts;
    for (i = 0; i < r->n_rows; i++) {
        won += a->key[i] > b->key[i];
        lost += a->key[i] < b->key[i];
    }
    pts = r->per_row * (won - lost)
        + r->scoop_bonus * ((won == r->n_rows) - (lost == r->n_rows))
        + r->majority_bonus * ((won >= r->majority_min) - (lost >= r->majority_min))
        + r->foul_extra * ((int)b->foul - (int)a->foul)
        + a->royalty_total - b->royalty_total;
    if (a->finnish_row >= 0)
        pts += a->royalty[a->finnish_row] - b->royalty[a->finnish_row];
    if (b->finnish_row >= 0 && b->finnish_row != a->finnish_row)
        pts += a->royalty[b->finnish_row] - b->royalty[b->finnish_row];
    return pts;
}

#endif
