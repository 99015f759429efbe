/* Jokers: the resolution of a finished layout's jokers (RULES.md section 12).
 *
 * A part of ofc_rules.h, which includes it after the compiled rules struct and
 * its row primitives (read here), never included alone; the completions of
 * a row with jokers, by the rank multiset of its naturals, are ofc_eval.h's
 * (ofc_tables.jc).  docs/tables.md, "Jokers", gives the scheme:
 *
 * - a joker stands for a natural card: under joker_cards "row" any natural
 *   not in its own row (two jokers of one row differ), under "board" any
 *   natural not on the board (the two jokers differ);
 * - the board is resolved as a whole: no foul if some substitution avoids
 *   one, then the objective (fantasyland outcome, royalties, or row strengths
 *   bottom up, each row in its own order: a 2-7 middle wants the lowest);
 *   equal outcomes take the canonical substitution (X1 before X2, ranks A
 *   down to 2, suits s h d c: the highest card ids);
 * - greedy from the bottom row up when the rows below the top pay no less
 *   when stronger (ofc_rules.joker_monotone): each row with jokers takes its
 *   best completion no stronger than the row below, the top the best by the
 *   objective; that is optimal for all three objectives at once, and finds a
 *   layout that does not foul whenever one exists.  Otherwise (a custom
 *   table that is not monotone, or two jokers of a board wanting one card)
 *   an exact search over the completions of the rows with jokers.
 */
#ifndef OFC_JOKERS_H
#define OFC_JOKERS_H
#ifndef OFC_RULES_H
#error "ofc_jokers.h is a part of ofc_rules.h: include that"
#endif
#include <stdint.h>
#include "ofc_eval.h"

#define OFC_RANK_CARDS(r) (0xFull << (4 * (r)))             /* the four cards of rank r */
#define OFC_SUIT_CARDS(u) (0x1111111111111ull << (u))       /* the 13 cards of suit u */

/* One row with jokers and its completions. */
typedef struct {
    int row, nj;               /* the row, its jokers (1 or 2) */
    int check;                 /* some completion may lack its cards (joker_cards "board") */
    int jid[2];                /* which jokers (0: X1, 1: X2), ascending */
    const ofc_jlist *list;     /* its completions ... */
    const ofc_jcand *c;        /* ... strongest first (ofc_joker_lists) */
    int n;
    int suit;                  /* the naturals' common suit (5-card rows), or -1 */
    int nat_ranks;             /* bit r: a natural of rank r (joker_top_natural) */
    uint64_t avail;            /* the naturals its jokers may stand for */
    uint64_t m[2];             /* of those, the ones that make no flush, and a flush */
} ofc_jrow;

/* The cards the joker of a one-joker row may be for completion e. */
OFC_ALWAYS_INLINE uint64_t ofc_jmask1(const ofc_jrow *j, const ofc_jcand *e)
{
    return j->m[e->flush] & OFC_RANK_CARDS(e->ranks & 15);
}

/* Can the jokers of row j make completion e?  Under joker_cards "row" every
 * completion of a list can (docs/tables.md, "Jokers"): only "board" checks. */
OFC_ALWAYS_INLINE int ofc_jok(const ofc_jrow *j, const ofc_jcand *e)
{
    if (!j->check)
        return 1;
    if (j->nj == 1)
        return ofc_jmask1(j, e) != 0;
    int r1 = e->ranks & 15, r2 = e->ranks >> 4;
    uint64_t a = j->avail & OFC_RANK_CARDS(r1), b = j->avail & OFC_RANK_CARDS(r2);
    if (r1 == r2)                 /* two cards of one rank: never both of the naturals' suit */
        return ofc_popcount64(a) >= 2;
    if (j->suit < 0)
        return a && b;
    uint64_t S = OFC_SUIT_CARDS(j->suit);
    if (e->flush)
        return (a & S) && (b & S);
    return ((a & ~S) && b) || (a && (b & ~S));
}

/* The canonical cards of the two jokers of row j for completion e (a
 * possible one): X1 the highest card it can be, then X2. */
OFC_INLINE void ofc_jpick2(const ofc_jrow *j, const ofc_jcand *e, uint8_t *x1, uint8_t *x2)
{
    int r1 = e->ranks & 15, r2 = e->ranks >> 4;
    uint64_t a = j->avail & OFC_RANK_CARDS(r1), b = j->avail & OFC_RANK_CARDS(r2);
    uint64_t S = j->suit >= 0 ? OFC_SUIT_CARDS(j->suit) : 0;
    int x;
    if (e->flush) {
        a &= S;
        b &= S;
    }
    if (r1 == r2) {               /* the two highest of the rank */
        x = ofc_msb64(a);
        *x1 = (uint8_t)x;
        *x2 = (uint8_t)ofc_msb64(a & ~(1ull << x));
        return;
    }
    x = ofc_msb64(a);             /* r1 > r2: X1 takes rank r1, its highest card that leaves X2 one */
    if (S && !e->flush && ((1ull << x) & S) && !(b & ~S))
        x = ofc_msb64(a & ~S);
    if (S && !e->flush && ((1ull << x) & S))
        b &= ~S;
    *x1 = (uint8_t)x;
    *x2 = (uint8_t)ofc_msb64(b);
}

/* The rule class of a top of strength s whose naturals have ranks nat_ranks:
 * with joker_top_natural, a pair or trips without a natural of its rank pays
 * and earns as a high card (class 0). */
OFC_ALWAYS_INLINE int ofc_top_class(const ofc_tables *t, const ofc_rules *r, int s, int nat_ranks,
                                    int has_joker)
{
    int g = t->top_group[s];
    if (has_joker && r->joker_top_natural && g && !((nat_ranks >> (g - 1)) & 1))
        return 0;
    return r->cls[s];
}

/* Sort a[i] < a[j] (branch-free: min and max). */
#define OFC_CSWAP(a, i, j) do { int lo_ = a[i] < a[j] ? a[i] : a[j];             \
                                a[j] = a[i] < a[j] ? a[j] : a[i]; a[i] = lo_; } while (0)

/* Where a layout's jokers lie: the sum of 3^k x (jokers in row k), 0 for
 * none (below 3^4). */
OFC_ALWAYS_INLINE int ofc_joker_pattern(const uint8_t *cards, const int R)
{
    int pattern = 0;
    for (int k = 0, w3 = 1; k < R; k++, w3 *= 3) {
        int nj = 0;
        for (int q = 0; q < (k ? 5 : 3); q++)
            nj += cards[OFC_ROW_OFF(k) + q] >= OFC_JOKER;
        pattern += w3 * nj;
    }
    return pattern;
}

/* The rows with jokers of a layout, into j[]; returns how many (1 or 2).
 * any: the bits of its cards (ofc_card_bits); pattern: ofc_joker_pattern.
 * Branch-light: a card's rank is id >> 2, 13 for a joker, so sorting a row's
 * five (three) ranks puts its naturals' ranks first, ascending. */
OFC_ALWAYS_INLINE int ofc_joker_rows(const ofc_tables *t, const ofc_rules *r, const uint8_t *cards,
                                     uint64_t any, int pattern, const int R, ofc_jrow *j)
{
    int nr = 0;
    for (int k = 0; k < R; k++, pattern /= 3) {
        const uint8_t *c = cards + OFC_ROW_OFF(k);
        const int len = k == 0 ? 3 : 5, nj = pattern % 3;
        if (!nj)
            continue;
        ofc_jrow *w = &j[nr++];
        int rk[5] = {0, 0, 0, 0, 0}, suits = 0, ranks = 0;
        uint64_t rowbits = 0;
        for (int i = 0; i < len; i++) {
            rk[i] = c[i] >> 2;
            rowbits |= t->bit[c[i]];
        }
        w->jid[0] = (int)(rowbits >> (OFC_JOKER + 1)) & 1;   /* one joker: X2 or X1 */
        rowbits &= OFC_ALL_CARDS;                             /* the naturals */
        for (int u = 0; u < 4; u++)
            suits |= (int)((rowbits & OFC_SUIT_CARDS(u)) != 0) << u;
        for (int i = 0; i < len; i++)
            ranks |= (int)(c[i] < OFC_JOKER) << rk[i];
        if (len == 5) {           /* a sorting network of five */
            OFC_CSWAP(rk, 0, 1); OFC_CSWAP(rk, 3, 4); OFC_CSWAP(rk, 2, 4);
            OFC_CSWAP(rk, 2, 3); OFC_CSWAP(rk, 1, 4); OFC_CSWAP(rk, 0, 3);
            OFC_CSWAP(rk, 0, 2); OFC_CSWAP(rk, 1, 3); OFC_CSWAP(rk, 1, 2);
        } else {
            OFC_CSWAP(rk, 0, 1); OFC_CSWAP(rk, 1, 2); OFC_CSWAP(rk, 0, 1);
        }
        if (nj == 2) {
            w->jid[0] = 0;
            w->jid[1] = 1;
        }
        w->row = k;
        w->nj = nj;
        w->check = r->joker_board;
        w->nat_ranks = ranks;
        w->suit = len == 5 && (suits & (suits - 1)) == 0 ? ofc_ctz64((uint64_t)suits) : -1;
        w->list = len == 5 ? &t->jl5[nj - 1][ofc_ms_index(t, rk, len - nj)][w->suit >= 0]
                           : &t->jl3[nj - 1][ofc_ms_index(t, rk, len - nj)];
        w->avail = OFC_ALL_CARDS & ~(r->joker_board ? any : rowbits);
        uint64_t S = w->suit >= 0 ? OFC_SUIT_CARDS(w->suit) : 0;
        w->m[0] = w->avail & ~S;
        w->m[1] = w->avail & S;
    }
    return nr;
}

/* The completions of the rows found by ofc_joker_rows (a separate step, so
 * that a batch can look up many lists at once). */
OFC_ALWAYS_INLINE void ofc_joker_lists(const ofc_tables *t, ofc_jrow *j, int nr)
{
    for (int q = 0; q < nr; q++) {
        j[q].c = t->jc + j[q].list->off;
        j[q].n = (int)j[q].list->n;
    }
}

/* Two one-joker rows of a board must stand for different cards: can the
 * jokers take cards of m1 and m2 (both non-empty) that differ? */
OFC_ALWAYS_INLINE int ofc_jdistinct(uint64_t m1, uint64_t m2)
{
    return !(m1 == m2 && !(m1 & (m1 - 1)));
}

/* The cards of the chosen completions (pick[q] of row j[q]) into sub[]. */
OFC_ALWAYS_INLINE void ofc_jsubs(const ofc_rules *r, const ofc_jrow *j, int nr, const int *pick,
                          uint8_t *sub)
{
    for (int q = 0; q < OFC_MAX_JOKERS; q++)
        sub[q] = OFC_EMPTY;
    if (nr == 1 && j[0].nj == 2) {
        ofc_jpick2(&j[0], &j[0].c[pick[0]], &sub[j[0].jid[0]], &sub[j[0].jid[1]]);
        return;
    }
    uint64_t m[2] = {0, 0};
    for (int q = 0; q < nr; q++)
        m[q] = ofc_jmask1(&j[q], &j[q].c[pick[q]]);
    if (nr == 2 && j[1].jid[0] < j[0].jid[0]) {   /* m[0]: X1's cards */
        uint64_t x = m[0];
        m[0] = m[1];
        m[1] = x;
    }
    int x1 = ofc_msb64(m[0]);
    if (nr == 2 && r->joker_board && m[1] == (1ull << x1))
        x1 = ofc_msb64(m[0] & ~(1ull << x1));   /* X2 needs that card: X1 its next best */
    if (nr == 1) {
        sub[j[0].jid[0]] = (uint8_t)x1;
        return;
    }
    sub[0] = (uint8_t)x1;
    sub[1] = (uint8_t)ofc_msb64(r->joker_board ? m[1] & ~(1ull << x1) : m[1]);
}

/* The strongest completion of row j (step +1) or the weakest (step -1)
 * that its jokers can make and no stronger than bound; -1 if none. */
OFC_ALWAYS_INLINE int ofc_jfirst(const ofc_jrow *j, int bound, int step)
{
    int p = step > 0 ? 0 : j->n - 1;
    for (; p >= 0 && p < j->n; p += step)
        if (j->c[p].s <= bound && ofc_jok(j, &j->c[p]))
            return p;
    return -1;
}

/* What the objective weighs in one resolution (ofc_jbetter compares them). */
typedef struct {
    int live, fl, roy;
    int s[OFC_MAX_ROWS];   /* row strengths in their own order (reversed rows turned over) */
} ofc_joutcome;

/* The outcome of row strengths s with the top's rule class tcls. */
OFC_INLINE void ofc_joutcome_of(const ofc_rules *r, const uint16_t *s, int tcls, int fl_count,
                                const int R, ofc_joutcome *o)
{
    int foul = 0, prev = 0, entry = 0, repeat = 0, roy = 0;
    for (int k = 0; k < R; k++) {
        const ofc_row_rule *rr = k == 0 ? &r->row[0][tcls] : ofc_row_rule_at(r, k, s[k]);
        if (r->in_chain[k]) {
            foul |= s[k] < prev;
            prev = s[k];
        }
        foul |= !rr->valid;
        entry += rr->entry_pts;
        repeat += rr->repeat_pts;
        roy += rr->royalty;
        o->s[k] = ofc_row_key(r, k, s[k]);
    }
    o->live = !foul;
    o->fl = foul || r->joker_objective != OFC_JOKER_FANTASYLAND ? 0
            : ofc_fl_cards(r, fl_count, entry, repeat);
    o->roy = foul || r->joker_objective == OFC_JOKER_STRENGTH ? 0 : roy;
}

/* Is outcome a better than b (no foul, then the objective, then the row
 * strengths from the bottom up)? */
OFC_INLINE int ofc_jbetter(const ofc_joutcome *a, const ofc_joutcome *b, const int R)
{
    if (a->live != b->live)
        return a->live > b->live;
    if (a->fl != b->fl)
        return a->fl > b->fl;
    if (a->roy != b->roy)
        return a->roy > b->roy;
    for (int k = R - 1; k >= 0; k--)
        if (a->s[k] != b->s[k])
            return a->s[k] > b->s[k];
    return 0;
}

/* The exact search: every pair of completions of the rows with jokers. */
OFC_INLINE void ofc_jsearch(const ofc_tables *t, const ofc_rules *r, const ofc_jrow *j, int nr,
                            int fl_count, const int R, uint16_t *s, int *best)
{
    ofc_joutcome o, b = {0, 0, 0, {0, 0, 0, 0}};
    int top = -1, found = 0, pick[2];
    if (nr < 1)
        return;
    for (int q = 0; q < nr; q++)
        if (j[q].row == 0)
            top = q;
    for (pick[0] = 0; pick[0] < j[0].n; pick[0]++) {
        if (!ofc_jok(&j[0], &j[0].c[pick[0]]))
            continue;
        s[j[0].row] = j[0].c[pick[0]].s;
        for (pick[1] = 0; pick[1] < (nr == 2 ? j[1].n : 1); pick[1]++) {
            if (nr == 2) {
                if (!ofc_jok(&j[1], &j[1].c[pick[1]]))
                    continue;
                if (r->joker_board && !ofc_jdistinct(ofc_jmask1(&j[0], &j[0].c[pick[0]]),
                                                     ofc_jmask1(&j[1], &j[1].c[pick[1]])))
                    continue;
                s[j[1].row] = j[1].c[pick[1]].s;
            }
            int tcls = ofc_top_class(t, r, s[0], top >= 0 ? j[top].nat_ranks : 0, top >= 0);
            ofc_joutcome_of(r, s, tcls, fl_count, R, &o);
            if (!found || ofc_jbetter(&o, &b, R)) {
                b = o;
                best[0] = pick[0];
                best[1] = pick[1];
                found = 1;
            }
        }
    }
}

/* Does a layout with row strengths s foul (the chain, a row invalid alone)? */
OFC_ALWAYS_INLINE int ofc_jfoul(const ofc_rules *r, const uint16_t *s, const int R)
{
    int foul = 0, prev = 0;
    for (int k = 0; k < R; k++) {
        if (r->in_chain[k]) {
            foul |= s[k] < prev;
            prev = s[k];
        }
        if (r->may_be_invalid[k])
            foul |= !ofc_row_rule_at(r, k, s[k])->valid;
    }
    return foul;
}

/* The top's completion by the objective, from p (its strongest no stronger
 * than the row below) on: the most fantasyland, then royalties, the rows
 * below it as in s.  The first when the top pays no less when stronger. */
OFC_ALWAYS_INLINE int ofc_jtop_best(const ofc_tables *t, const ofc_rules *r, const ofc_jrow *w,
                                    int p, int fl_count, const int R, const uint16_t *s)
{
    if (r->joker_objective == OFC_JOKER_STRENGTH || (r->top_monotone && !r->joker_top_natural))
        return p;
    int entry = 0, repeat = 0, roy = 0, best = p, best_fl = -1, best_roy = 0;
    for (int k = 1; k < R; k++) {
        const ofc_row_rule *rr = ofc_row_rule_at(r, k, s[k]);
        entry += rr->entry_pts;
        repeat += rr->repeat_pts;
        roy += rr->royalty;
    }
    for (; p < w->n; p++) {
        if (!ofc_jok(w, &w->c[p]))
            continue;
        const ofc_row_rule *rr = &r->row[0][ofc_top_class(t, r, w->c[p].s, w->nat_ranks, 1)];
        int fl = r->joker_objective == OFC_JOKER_FANTASYLAND
                 ? ofc_fl_cards(r, fl_count, entry + rr->entry_pts, repeat + rr->repeat_pts) : 0;
        if (fl > best_fl || (fl == best_fl && roy + rr->royalty > best_roy)) {
            best_fl = fl;
            best_roy = roy + rr->royalty;
            best = p;
        }
    }
    return best;
}

/* The greedy resolution (monotone rules: see the top of this file); 0 when
 * it cannot decide (two jokers of a board want one card): then the search. */
OFC_ALWAYS_INLINE int ofc_jgreedy(const ofc_tables *t, const ofc_rules *r, const ofc_jrow *j, int nr,
                                  int fl_count, const int R, uint16_t *s, int *pick)
{
    const ofc_jrow *at[OFC_MAX_ROWS] = {0};
    int live = 1, bound = OFC_SCALE, k, q;
    if (nr == 1) {            /* one row with jokers (the common case) */
        const ofc_jrow *w = &j[0];
        int p;
        k = w->row;
        if (r->in_chain[k]) {             /* its best no stronger than the chained row below */
            for (int b = k + 1; b < R; b++)
                if (r->in_chain[b]) {
                    bound = s[b];
                    break;
                }
            p = ofc_jfirst(w, bound, 1);
            if (p >= 0 && k == 0)
                p = ofc_jtop_best(t, r, w, p, fl_count, R, s);
        } else {                          /* a 2-7 middle: its lowest */
            p = ofc_jfirst(w, OFC_SCALE, -1);
        }
        if (p >= 0)
            s[k] = w->c[p].s;
        if (p < 0 || ofc_jfoul(r, s, R)) {   /* every substitution fouls: its own best */
            p = ofc_jfirst(w, OFC_SCALE, r->in_chain[k] ? 1 : -1);
            s[k] = w->c[p].s;
        }
        pick[0] = p;
        return 1;
    }
    for (q = 0; q < nr; q++)
        at[j[q].row] = &j[q];
    /* the rows below the top, bottom first: the chain's best no stronger than
     * the row below; a row out of the chain (a 2-7 middle) its lowest */
    for (k = R - 1; k >= 1; k--) {
        if (at[k]) {
            q = (int)(at[k] - j);
            pick[q] = r->in_chain[k] ? ofc_jfirst(at[k], bound, 1)
                                     : ofc_jfirst(at[k], OFC_SCALE, -1);
            if (pick[q] < 0) {
                live = 0;
                break;
            }
            s[k] = at[k]->c[pick[q]].s;
        }
        if (r->may_be_invalid[k])
            live &= ofc_row_rule_at(r, k, s[k])->valid;
        if (r->in_chain[k]) {
            live &= s[k] <= bound;
            bound = s[k];
        }
    }
    /* the top: the best by the objective no stronger than the row below */
    if (live && at[0]) {
        q = (int)(at[0] - j);
        pick[q] = ofc_jfirst(at[0], bound, 1);
        if (pick[q] < 0)
            live = 0;
        else
            s[0] = at[0]->c[pick[q] = ofc_jtop_best(t, r, at[0], pick[q], fl_count, R, s)].s;
    } else if (live) {
        live = s[0] <= bound;
    }
    /* every substitution fouls: each row its own best, top included */
    if (!live)
        for (q = 0; q < nr; q++) {
            pick[q] = ofc_jfirst(&j[q], OFC_SCALE, r->in_chain[j[q].row] ? 1 : -1);
            s[j[q].row] = j[q].c[pick[q]].s;
        }
    return !r->joker_board
           || ofc_jdistinct(ofc_jmask1(&j[0], &j[0].c[pick[0]]), ofc_jmask1(&j[1], &j[1].c[pick[1]]));
}

/* Resolve the jokers of a layout whose rows with jokers are j[0 .. nr)
 * (ofc_joker_rows).  On entry s[] holds the strengths of its rows without
 * jokers; on return every row's strength, in *tcls the top's rule class, and
 * in sub[0 .. 1] the natural card X1 and X2 stand for (OFC_EMPTY for a joker
 * it lacks).  fl_count: as for ofc_eval_layout (the fantasyland objective
 * weighs a repeat in a fantasyland hand, an entry otherwise).  R: the rows,
 * a literal. */
OFC_ALWAYS_INLINE void ofc_resolve_rows(const ofc_tables *t, const ofc_rules *r,
                                        const ofc_jrow *j, int nr, int fl_count, uint16_t *s,
                                        int *tcls, uint8_t *sub, const int R)
{
    int pick[2] = {0, 0}, top = -1;
    if (!r->joker_monotone || !ofc_jgreedy(t, r, j, nr, fl_count, R, s, pick))
        ofc_jsearch(t, r, j, nr, fl_count, R, s, pick);
    for (int q = 0; q < nr; q++) {
        s[j[q].row] = j[q].c[pick[q]].s;
        if (j[q].row == 0)
            top = q;
    }
    *tcls = ofc_top_class(t, r, s[0], top >= 0 ? j[top].nat_ranks : 0, top >= 0);
    ofc_jsubs(r, j, nr, pick, sub);
}

/* The same from the layout's cards (any: their bits, ofc_card_bits). */
OFC_ALWAYS_INLINE void ofc_resolve_jokers(const ofc_tables *t, const ofc_rules *r,
                                          const uint8_t *cards, uint64_t any, int fl_count,
                                          uint16_t *s, int *tcls, uint8_t *sub, const int R)
{
    ofc_jrow j[OFC_MAX_JOKERS];
    int nr = ofc_joker_rows(t, r, cards, any, ofc_joker_pattern(cards, R), R, j);
    ofc_joker_lists(t, j, nr);
    ofc_resolve_rows(t, r, j, nr, fl_count, s, tcls, sub, R);
}

/* Does the layout hold a joker? */
OFC_ALWAYS_INLINE int ofc_has_joker(const uint8_t *cards, int n)
{
    int any = 0;
    for (int i = 0; i < n; i++)
        any |= ofc_is_joker(cards[i]);
    return any;
}

#endif
