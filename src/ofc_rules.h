/* Compiled rules of a variant and the per-layout / per-pair kernels.
 *
 * A variant compiles (ofc_fast/rules.py) into per-row lookup tables indexed by
 * the joint row strength (1 .. 7917), so the kernels never branch on a rule:
 * royalties, row validity (2-7 middles), scoring keys (reversed for lowball),
 * fantasyland entry and repeat points are all table reads.  A layout with
 * jokers first has them resolved (RULES.md section 12, docs/tables.md
 * "Jokers"): its rows take the strengths of the best substitution, then the
 * same rules apply.
 */
#ifndef OFC_RULES_H
#define OFC_RULES_H
#include <stdint.h>
#include "ofc_eval.h"

#define OFC_MAX_ROWS 4
#define OFC_SCALE (OFC_N_JOINT + 1)  /* joint strengths 1 .. 7917, 0 unused */
#define OFC_NO_LIMIT 255         /* max_repeats: no limit */
#define OFC_ROW_CLASSES 64       /* coarse classes a rule can depend on */
#define OFC_ENTRY_SUMS 256       /* summed fantasyland entry points: an 8-bit sum */

/* Everything a row's class decides, packed so one load serves a row. */
typedef struct {
    int16_t royalty;
    uint8_t valid;         /* 0: the row alone fouls the hand (2-7 middle) */
    uint8_t entry_pts;     /* fantasyland entry points */
    uint8_t repeat_pts;    /* fantasyland repeat points */
} ofc_row_rule;

typedef struct {
    int n_rows, n_cards;
    int row_len[OFC_MAX_ROWS], row_off[OFC_MAX_ROWS];
    int in_chain[OFC_MAX_ROWS];              /* row takes part in the foul order */
    int may_be_invalid[OFC_MAX_ROWS];        /* some hand fouls alone in the row (2-7 middle) */
    int reverse[OFC_MAX_ROWS];               /* lower wins head-to-head (2-7 middle) */
    uint8_t cls[OFC_SCALE];                  /* joint strength -> row class */
    ofc_row_rule row[OFC_MAX_ROWS][OFC_ROW_CLASSES];
    /* row[][] packed in one word whose fields add up over a layout's rows:
     * royalty (bits 0-15, non-negative), invalid (16-23), entry points
     * (24-31), repeat points (32-39) */
    uint64_t word[OFC_MAX_ROWS][OFC_ROW_CLASSES];
    uint8_t entry_cards[OFC_ENTRY_SUMS];     /* by summed entry points (any 8-bit sum) */
    int repeat_threshold, repeat_cards, max_repeats;
    int finnish;                             /* 2s doubles its row's royalties */
    int per_row, scoop_bonus, majority_bonus, majority_min, foul_extra;
    int chunk;                               /* pairs per int16 partial sum; 0: 32-bit path */
    /* jokers (RULES.md section 12) */
    int jokers;                              /* 0, 1 or 2: X1 .. X<jokers> are cards */
    int joker_board;                         /* joker_cards "board" (else "row") */
    int joker_objective;                     /* OFC_JOKER_FANTASYLAND, _ROYALTIES, _STRENGTH */
    int joker_top_natural;                   /* a top pair/trips pays only with a natural of its rank */
    int joker_monotone;                      /* rows below the top pay no less when stronger */
    int top_monotone;                        /* the top pays no less when stronger */
} ofc_rules;

#define OFC_JOKER_FANTASYLAND 0
#define OFC_JOKER_ROYALTIES 1
#define OFC_JOKER_STRENGTH 2

/* What one finished layout brings to scoring (fouled: keys 0, royalties 0). */
typedef struct {
    uint16_t strength[OFC_MAX_ROWS];
    uint16_t key[OFC_MAX_ROWS];
    int16_t royalty[OFC_MAX_ROWS];
    int32_t royalty_total;
    uint8_t foul, fantasyland, repeat;
    int8_t finnish_row;                      /* row holding the (natural) 2 of spades, or -1 */
    uint8_t sub[OFC_MAX_JOKERS];             /* the natural card X1, X2 stand for; OFC_EMPTY: none */
} ofc_layout_eval;

#define OFC_TWO_OF_SPADES 3

/* Row i of a layout: 3 cards at 0 for the top, then 5-card rows from slot 3. */
#define OFC_ROW_OFF(i) ((i) == 0 ? 0 : 3 + 5 * ((i) - 1))

/* ---- the row primitives: what the compiled rules say at a joint strength.
 * Every kernel reads ofc_rules through these (or through the packed word[]
 * of the batch evaluator below), never through its own index arithmetic. */

/* The rule of row `row` for a row of joint strength s (1 .. 7917). */
OFC_INLINE const ofc_row_rule *ofc_row_rule_at(const ofc_rules *r, int row, int s)
{
    return &r->row[row][r->cls[s]];
}

/* Head-to-head key of strength s in a row that is reversed (2-7 middle:
 * lower wins) or not. */
OFC_INLINE int ofc_key_of(int reversed, int s)
{
    return reversed ? (int)OFC_SCALE - s : s;
}

OFC_INLINE int ofc_row_key(const ofc_rules *r, int row, int s)
{
    return ofc_key_of(r->reverse[row], s);
}

/* A hand played as the fl_count-th fantasyland hand in a row may still earn
 * a repeat under the variant's limit. */
OFC_INLINE int ofc_repeat_allowed(int max_repeats, int fl_count)
{
    return max_repeats == OFC_NO_LIMIT || fl_count <= max_repeats;
}

/* The row holding layout slot i (Finnish 2s: the row the 2 of spades is in). */
OFC_INLINE int ofc_row_of_slot(int i)
{
    return i < 3 ? 0 : 1 + (i - 3) / 5;
}

/* Cards dealt in fantasyland next hand: summed entry points of a normal hand
 * (fl_count 0), or a repeat of the fl_count-th fantasyland hand in a row. */
OFC_INLINE int ofc_fl_cards(const ofc_rules *r, int fl_count, int entry, int repeat)
{
    if (!fl_count)
        return r->entry_cards[entry & 0xff];
    return ofc_repeat_allowed(r->max_repeats, fl_count) && r->repeat_threshold > 0
           && repeat >= r->repeat_threshold ? r->repeat_cards : 0;
}

/* The fantasyland count of the next hand (issue 26): one more than this
 * hand's (at most 255) when it deals fantasyland cards, else 0. */
OFC_INLINE int ofc_next_fl_count(int fl_count, int fl_cards)
{
    return fl_cards ? (fl_count < 255 ? fl_count + 1 : 255) : 0;
}

#include "ofc_jokers.h"

/* The row strengths of a finished layout whose cards were validated (into
 * s) and whether it fouls: a row of the foul chain weaker than one above it,
 * or a row that alone fouls (a 2-7 middle): what ofc_eval_layout_rows finds
 * first, and all that a check for a foul needs.  (Jokers: see ofc_layout_foul.) */
OFC_ALWAYS_INLINE int
ofc_layout_foul_rows(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                     uint16_t *s, const int R)
{
    int foul = 0, prev = 0, i;
    for (i = 0; i < R; i++) {
        s[i] = i == 0 ? ofc_row3(t, cards) : ofc_row5(t, cards + OFC_ROW_OFF(i));
        if (r->in_chain[i]) {
            foul |= s[i] < prev;
            prev = s[i];
        }
        foul |= !ofc_row_rule_at(r, i, s[i])->valid;
    }
    return foul;
}

OFC_INLINE void ofc_eval_layout(const ofc_tables *t, const ofc_rules *r,
                                const uint8_t *cards, int fl_count, ofc_layout_eval *e);

/* ofc_eval_layout's foul flag alone (no royalties, keys or fantasyland): a
 * layout with jokers fouls when every substitution does. */
OFC_INLINE int ofc_layout_foul(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards)
{
    uint16_t s[OFC_MAX_ROWS];
    if (r->jokers && ofc_has_joker(cards, r->n_cards)) {
        ofc_layout_eval e;
        ofc_eval_layout(t, r, cards, 0, &e);
        return e.foul;
    }
    if (r->n_rows == 3)
        return ofc_layout_foul_rows(t, r, cards, s, 3);
    return ofc_layout_foul_rows(t, r, cards, s, 4);
}

/* Evaluate a finished layout whose cards were validated (jokers resolved
 * first: e->sub names the card each stands for). fl_count: 0 for a normal
 * hand, k for the k-th fantasyland hand in a row.  R is a literal at each
 * call site below, so the row loops unroll. */
OFC_ALWAYS_INLINE void
ofc_eval_layout_rows(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                     int fl_count, ofc_layout_eval *e, const int R)
{
    /* not through ofc_layout_foul_rows: looking each row's rule up once (here
     * for the royalties too) keeps the rollouts' evaluation 5-8% faster */
    int foul = 0, prev = 0, entry = 0, repeat = 0, i, tcls;
    const ofc_row_rule *rr[OFC_MAX_ROWS];
    uint16_t s[OFC_MAX_ROWS];
    for (i = 0; i < R; i++)
        s[i] = i == 0 ? ofc_row3(t, cards) : ofc_row5(t, cards + OFC_ROW_OFF(i));
    e->sub[0] = e->sub[1] = OFC_EMPTY;
    if (r->jokers && ofc_has_joker(cards, 3 + 5 * (R - 1))) {
        uint64_t sum, any = ofc_card_bits(t, cards, 3 + 5 * (R - 1), &sum);
        ofc_resolve_jokers(t, r, cards, any, fl_count, s, &tcls, e->sub, R);
    } else {
        tcls = r->cls[s[0]];
    }
    for (i = 0; i < R; i++) {
        e->strength[i] = s[i];
        rr[i] = i == 0 ? &r->row[0][tcls] : ofc_row_rule_at(r, i, s[i]);
        if (r->in_chain[i]) {
            foul |= s[i] < prev;
            prev = s[i];
        }
        foul |= !rr[i]->valid;
    }
    e->foul = (uint8_t)foul;
    e->royalty_total = 0;
    for (i = 0; i < R; i++) {
        e->key[i] = foul ? 0 : (uint16_t)ofc_row_key(r, i, e->strength[i]);
        e->royalty[i] = foul ? 0 : rr[i]->royalty;
        e->royalty_total += e->royalty[i];
        entry += rr[i]->entry_pts;
        repeat += rr[i]->repeat_pts;
    }
    e->finnish_row = -1;
    if (r->finnish) {   /* a joker standing for the 2s does not double (docs/jokers.md) */
        for (i = 0; i < 3 + 5 * (R - 1); i++)
            if (cards[i] == OFC_TWO_OF_SPADES)
                e->finnish_row = (int8_t)ofc_row_of_slot(i);
    }
    e->fantasyland = foul ? 0 : (uint8_t)ofc_fl_cards(r, fl_count, entry, repeat);
    e->repeat = (uint8_t)(fl_count && e->fantasyland);
}

OFC_INLINE void ofc_eval_layout(const ofc_tables *t, const ofc_rules *r,
                                   const uint8_t *cards, int fl_count, ofc_layout_eval *e)
{
    if (r->n_rows == 3)
        ofc_eval_layout_rows(t, r, cards, fl_count, e, 3);
    else
        ofc_eval_layout_rows(t, r, cards, fl_count, e, 4);
}

/* Output columns of a batch evaluation (rows x N arrays given per row);
 * key, finnish_row, sub (the card each joker stands for, n x jokers) and
 * next_fl (the fantasyland count of the next hand) may be NULL when not
 * wanted. */
typedef struct {
    uint16_t *strength[OFC_MAX_ROWS], *key[OFC_MAX_ROWS];
    int16_t *royalty[OFC_MAX_ROWS];
    int32_t *total;
    uint8_t *foul, *fantasyland, *repeat;
    int8_t *finnish_row;
    uint8_t *sub, *next_fl;
} ofc_eval_cols;

#define OFC_BLOCK 128
#define OFC_JPATTERNS 81    /* where a layout's jokers lie: 3^rows patterns of 0-2 a row */

/* Evaluate n layouts into columns, a block at a time: first all row strengths
 * of the block (a tight loop of independent table reads, like the hand
 * kernels), then, for a variant with jokers (JK), the jokers of the layouts
 * that hold one resolved, then the rules from the strengths.  Returns the
 * first layout with a bad or repeated card, or -1. */
OFC_ALWAYS_INLINE intptr_t
ofc_eval_layouts_rows(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards, intptr_t n,
                      const uint8_t *fl, const ofc_eval_cols *o, int validate, const int R,
                      const int scoring, const int JK)
{
    /* Everything the loops read goes into locals and the outputs are restrict:
     * the uint8 stores could otherwise alias the rules and force reloads. */
    const int nc = 3 + 5 * (R - 1);
    const uint8_t *OFC_RESTRICT cls = r->cls;
    const uint64_t *OFC_RESTRICT word[OFC_MAX_ROWS];
    uint16_t *OFC_RESTRICT strength[OFC_MAX_ROWS];
    uint16_t *OFC_RESTRICT key[OFC_MAX_ROWS];
    int16_t *OFC_RESTRICT royalty[OFC_MAX_ROWS];
    int reverse[OFC_MAX_ROWS];
    for (int k = 0; k < R; k++) {
        word[k] = r->word[k];
        strength[k] = o->strength[k];
        key[k] = o->key[k];
        royalty[k] = o->royalty[k];
        reverse[k] = r->reverse[k];
    }
    int32_t *OFC_RESTRICT total_out = o->total;
    uint8_t *OFC_RESTRICT foul_out = o->foul, *OFC_RESTRICT fan_out = o->fantasyland;
    uint8_t *OFC_RESTRICT repeat_out = o->repeat;
    int8_t *OFC_RESTRICT fin_out = o->finnish_row;
    uint8_t *OFC_RESTRICT sub_out = o->sub, *OFC_RESTRICT next_out = o->next_fl;
    const uint8_t *OFC_RESTRICT entry_cards = r->entry_cards;
    const int jokers = r->jokers;
    uint8_t tcls[OFC_BLOCK];          /* JK: the top's rule class */
    uint64_t bits[OFC_BLOCK];         /* JK: the bits of a layout's cards, 0 without a joker */
    ofc_jrow jrow[JK ? OFC_BLOCK : 1][OFC_MAX_JOKERS];   /* JK: its rows with jokers */
    uint8_t nrows[OFC_BLOCK], order[OFC_BLOCK];          /* JK: how many; layouts by pattern */
    /* Pairs of rows the foul order compares (see the rules pass). */
    int chain = 0, prev = -1;
    for (int k = 0; k < R; k++) {
        if (!r->in_chain[k])
            continue;
        if (prev >= 0)
            chain |= k == prev + 1 ? 1 << prev : 1 << 3;   /* consecutive, or 0-2 around a 2-7 middle */
        prev = k;
    }
    /* scoring wants keys (1: plain strengths, 2: some row reversed); evaluate() does not (0) */
    int keys = scoring && key[0] != NULL;
    for (int k = 0; keys && k < R; k++)
        if (reverse[k])
            keys = 2;
    const int finnish = r->finnish, threshold = r->repeat_threshold;
    const int repeat_cards = r->repeat_cards, max_repeats = r->max_repeats;

    for (intptr_t start = 0; start < n; start += OFC_BLOCK) {
        intptr_t stop = n - start < OFC_BLOCK ? n : start + OFC_BLOCK;
        /* Card check and row strengths in one pass over the cards (the tables
         * are sized for bad ids); a block with a bad layout is scanned again
         * to find the first one. */
        int bad = 0, any_joker = 0;
        for (intptr_t i = start; i < stop; i++) {
            const uint8_t *c = cards + i * nc;
            if (JK) {             /* X1 .. X<jokers> are cards; a joker's row waits for it */
                uint64_t sum, any = ofc_card_bits(t, c, nc, &sum);
                if (validate)
                    bad |= (sum != any) | (int)(any >> (OFC_DECK + jokers) != 0);
                bits[i - start] = any & OFC_JOKER_MASK ? any : 0;
                any_joker |= (any & OFC_JOKER_MASK) != 0;
            } else if (validate) {
                bad |= ofc_bad_cards(t, c, nc);
            }
            strength[0][i] = ofc_row3(t, c);
            for (int k = 1; k < R; k++)
                strength[k][i] = ofc_row5(t, c + OFC_ROW_OFF(k));
            if (JK)
                tcls[i - start] = cls[strength[0][i]];
        }
        if (bad) {
            for (intptr_t i = start; i < stop; i++)
                if (ofc_bad_ids(t, cards + i * nc, nc, JK ? jokers : 0))
                    return i;
        }
        if (JK && sub_out)
            memset(sub_out + start * jokers, OFC_EMPTY, (size_t)((stop - start) * jokers));
        /* The jokers, in the order of where they lie (the rows that hold
         * one or two: the branches of the resolution then predict well):
         * first every list of completions the block needs (their table reads
         * overlap), then each layout resolved. */
        int nj_layouts = 0;
        if (JK && any_joker) {
            int count[OFC_JPATTERNS + 1] = {0};
            for (intptr_t i = start; i < stop; i++) {
                int pattern = bits[i - start] ? ofc_joker_pattern(cards + i * nc, R) : 0;
                nrows[i - start] = (uint8_t)pattern;
                count[pattern + 1]++;
            }
            for (int q = 1; q <= OFC_JPATTERNS; q++)
                count[q] += count[q - 1];
            for (intptr_t i = start; i < stop; i++)
                order[count[nrows[i - start]]++] = (uint8_t)(i - start);
            nj_layouts = (int)(stop - start) - count[0];
        }
        for (int o = (int)(stop - start) - nj_layouts; o < (int)(stop - start); o++) {
            intptr_t i = start + order[o];
            ofc_jrow *w = jrow[i - start];
            nrows[i - start] = (uint8_t)ofc_joker_rows(t, r, cards + i * nc, bits[i - start],
                                                       nrows[i - start], R, w);
            for (int q = 0; q < nrows[i - start]; q++)
                OFC_PREFETCH(w[q].list);
        }
        for (int o = (int)(stop - start) - nj_layouts; o < (int)(stop - start); o++) {
            ofc_jrow *w = jrow[order[o]];
            ofc_joker_lists(t, w, nrows[order[o]]);
            for (int q = 0; q < nrows[order[o]]; q++)
                OFC_PREFETCH(w[q].c);
        }
        for (int o = (int)(stop - start) - nj_layouts; o < (int)(stop - start); o++) {
            intptr_t i = start + order[o];
            uint16_t sv[OFC_MAX_ROWS];
            uint8_t sub[OFC_MAX_JOKERS];
            int tc;
            for (int k = 0; k < R; k++)
                sv[k] = strength[k][i];
            ofc_resolve_rows(t, r, jrow[i - start], nrows[i - start], fl ? fl[i] : 0, sv, &tc,
                             sub, R);
            for (int k = 0; k < R; k++)
                strength[k][i] = sv[k];
            tcls[i - start] = (uint8_t)tc;
            for (int q = 0; sub_out && q < jokers; q++)
                sub_out[i * jokers + q] = sub[q];
        }
        int any_fl = 0;   /* fl may be NULL: no hand in fantasyland */
        for (intptr_t i = start; fl && i < stop; i++)
            any_fl |= fl[i];
        /* Rules from strengths, branch-free: random fouls would mispredict.
         * One word per row; their sum carries the totals. */
        for (intptr_t i = start; i < stop; i++) {
            int foul = 0, k;
            uint64_t sum = 0, w[OFC_MAX_ROWS];
            int s[OFC_MAX_ROWS];
            for (k = 0; k < R; k++) {
                s[k] = strength[k][i];
                w[k] = word[k][JK && k == 0 ? tcls[i - start] : cls[s[k]]];
                sum += w[k];
            }
            /* The foul order, branch-free: bit j compares a pair of rows; the
             * variant's chain picks the pairs (bits: 0-1, 1-2, 2-3, 0-2). */
            {
                int order = (s[0] > s[1]) | (s[1] > s[2]) << 1 | (s[0] > s[2]) << 3;
                if (R == 4)
                    order |= (s[2] > s[3]) << 2;
                foul |= (order & chain) != 0;
            }
            foul |= ((sum >> 16) & 0xff) != 0;
            const int entry = (int)((sum >> 24) & 0xff), repeat = (int)((sum >> 32) & 0xff);
            const int live = !foul, keep = -live;   /* keep: all ones when live */
            for (k = 0; k < R; k++) {
                royalty[k][i] = (int16_t)(w[k] & 0xffff & (uint64_t)(int64_t)keep);
            }
            if (keys == 1) {        /* no row is reversed: the key is the strength */
                for (k = 0; k < R; k++)
                    key[k][i] = (uint16_t)(s[k] & keep);
            } else if (keys == 2) { /* a 2-7 middle: lower wins */
                for (k = 0; k < R; k++)
                    key[k][i] = (uint16_t)(ofc_key_of(reverse[k], s[k]) & keep);
            }
            const int32_t total = (int32_t)(sum & 0xffff) & keep;
            total_out[i] = total;
            foul_out[i] = (uint8_t)foul;
            if (scoring && fin_out) {
                int8_t fin = -1;
                const uint8_t *c = cards + i * nc;
                for (k = 0; finnish && k < nc; k++)
                    if (c[k] == OFC_TWO_OF_SPADES)
                        fin = (int8_t)ofc_row_of_slot(k);
                fin_out[i] = fin;
            }
            if (!any_fl) {   /* the common case: nobody in this block is in fantasyland */
                repeat_out[i] = 0;
                fan_out[i] = (uint8_t)(entry_cards[entry] & keep);
            } else {
                const int in_fl = fl[i] != 0;
                const int allowed = ofc_repeat_allowed(max_repeats, fl[i]);
                const int rep = live & in_fl & allowed & (threshold > 0) & (repeat >= threshold);
                repeat_out[i] = (uint8_t)rep;
                fan_out[i] = (uint8_t)(rep * repeat_cards
                                       + live * (1 - in_fl) * entry_cards[entry]);
            }
            if (next_out)
                next_out[i] = (uint8_t)ofc_next_fl_count(any_fl ? fl[i] : 0, fan_out[i]);
        }
    }
    return -1;
}

/* validate: 0 when the caller has checked the cards already. */
OFC_INLINE intptr_t ofc_eval_layouts(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                                 intptr_t n, const uint8_t *fl, const ofc_eval_cols *o,
                                 int validate)
{
    /* R and whether keys are wanted are literals below, so each of the four
     * copies drops the code it does not need. */
    const int scoring = o->key[0] != NULL || o->finnish_row != NULL;
    if (r->jokers)   /* one general copy for variants with jokers */
        return r->n_rows == 3 ? ofc_eval_layouts_rows(t, r, cards, n, fl, o, validate, 3, 1, 1)
                              : ofc_eval_layouts_rows(t, r, cards, n, fl, o, validate, 4, 1, 1);
    if (r->n_rows == 3)
        return scoring ? ofc_eval_layouts_rows(t, r, cards, n, fl, o, validate, 3, 1, 0)
                       : ofc_eval_layouts_rows(t, r, cards, n, fl, o, validate, 3, 0, 0);
    return scoring ? ofc_eval_layouts_rows(t, r, cards, n, fl, o, validate, 4, 1, 0)
                   : ofc_eval_layouts_rows(t, r, cards, n, fl, o, validate, 4, 0, 0);
}

/* Points a wins from b (zero-sum). Rows compare by key; fouled keys are 0, so a
 * live hand scoops a fouled one and two fouled hands tie everything. */
OFC_INLINE int32_t ofc_pair_points(const ofc_rules *r, const ofc_layout_eval *a,
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
