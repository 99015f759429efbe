# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False, initializedcheck=False
"""Play kernels: exact dead-hand search, random rollouts and the engine's hand core.

Design
------
* per item, C: rows are evaluated by the primitives of ``src/ofc_eval.h``
  (``ofc_row5``/``ofc_row3``; by ranks ``ofc_plain5``, ``ofc_flush5``,
  ``ofc_row3_ranks`` over ``OFC_RANK_BASE`` sums) and layouts by
  ``ofc_eval_layout``/``ofc_pair_points`` of ``src/ofc_rules.h``; bit
  helpers come from ``src/ofc_compat.h``.  Nothing here re-derives a table
  index;
* loops: ``solve`` (the dead-hand search, ``_rollout_search.pxi``), the
  rollout kernels (``_rollout_random.pxi``) and the hand state machine
  (``_rollout_hand.pxi``), all on plain C structs without the GIL where they
  loop; the state machine's checks return ``HandStatus`` codes;
* Python: ``PlayRules`` (built from a variant's ``CompiledRules`` and its
  deal), the ``*_kernel`` entry points and ``HandCore``'s methods check
  arguments; ``ofc_fast.rollouts`` and ``ofc_fast.engine`` hold the API and
  turn status codes into messages.

Everything here works on card ids (``4 * rank + suit``) and 64-bit card masks
(bit ``c`` set for card ``c``); nothing allocates a Python object per
completion or per search node.

Dead-hand search
----------------
A partial layout is *dead* when no assignment of pool cards (the cards the
player has not seen) to its empty slots gives a legal (non-fouled) layout.
``solve`` decides this exactly:

1. rows already complete must be in order (and a complete 2-7 middle valid);
2. a greedy witness: weakest possible top (exact), strongest possible bottom
   (exact, by hand category), middle rows fitted between them; a legal witness
   proves the hand alive (with one open row this step is exact);
3. necessary conditions per row, each row taken alone against the others'
   exact bounds (rows share the pool, so these only prove deadness);
4. a second witness for tight hands: rows top-down, each the weakest
   completion at least as strong as the row above;
5. rank demand: the fewest cards of each rank every open row's completions
   need; more than the pool holds proves the hand dead;
6. otherwise branch on the row with the fewest completion patterns in its
   interval: rank patterns first, then suits (cards of one rank whose suit
   cannot make a flush in any open row are interchangeable), solving the rest
   recursively.
"""
from libc.stdint cimport (int8_t, int16_t, int32_t, int64_t, intptr_t, uint8_t, uint16_t,
                          uint32_t, uint64_t)
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from cpython.long cimport PyLong_AsLongAndOverflow

import functools
import operator

import numpy as np

from ofc_fast._compat cimport ofc_ctz64 as ctz, ofc_popcount64 as popc
from ofc_fast._cards cimport (OFC_ALL_CARDS as ALL_CARDS, OFC_DECK, OFC_EMPTY as EMPTY,
                              OFC_EMPTY_OK, ofc_cards_check, ofc_cards_mask, ofc_is_card,
                              ofc_mask_ids)
from ofc_fast._eval cimport (OFC_MAX_DEAL,
                             OFC_N_JOINT as TOP_STRENGTH, OFC_RANK_BASE as RBASE, ofc_flush5,
                             ofc_plain5, ofc_row3, ofc_row3_ranks, ofc_row5, ofc_tables, tables)
from ofc_fast._layout cimport (OFC_MAX_ROWS, OFC_SCALE, CompiledRules, ofc_eval_layout,
                               ofc_layout_eval, ofc_pair_points, ofc_row_rule_at, ofc_rules)
from ofc_fast._layout import rules_for
from ofc_fast.errors import RulesError, shorten
from ofc_fast.rules import deal_schedule

cdef enum:
    MAX_TURNS = OFC_DECK   # turns per hand: each deals at least one card

# Most cards dealt to one player in one hand (all streets, or a fantasyland
# deal), and so in one turn: sizes the hand core's card buffers.
MAX_DEAL = OFC_MAX_DEAL

cdef const ofc_tables *T = tables()
cdef uint32_t WIN[10]            # straight windows, ace-high first, wheel last
cdef int POP4[16]                # set bits of a 4-bit suit set (a table: faster than popcount)

cdef int _i
for _i in range(9):
    WIN[_i] = 0x1F << (8 - _i)
WIN[9] = (1 << 12) | 0xF
for _i in range(16):
    POP4[_i] = (_i & 1) + ((_i >> 1) & 1) + ((_i >> 2) & 1) + ((_i >> 3) & 1)


# The module is one extension built from four parts (they share inline C
# helpers and structs): the search, the rules object and its kernels here,
# then the rollouts and the hand state machine.
include "_rollout_search.pxi"

cdef class PlayRules:
    """What the play kernels need of a variant, read from its compiled rules
    (row layout, foul chain, 2-7 validity, scoring) plus its deal (build
    with :func:`play_rules_for`, or ``ofc_fast.rollouts.play_rules``)."""
    cdef CompiledRules compiled
    cdef const ofc_rules *r
    cdef int R, NC, low
    cdef int row_len[OFC_MAX_ROWS]
    cdef int row_off[OFC_MAX_ROWS]
    cdef int in_chain[OFC_MAX_ROWS]
    cdef uint8_t lowvalid[OFC_SCALE]   # the 2-7 row's validity by joint strength
    cdef readonly object variant
    cdef int nst                  # the variant's deal, checked (0: not readable)
    cdef uint8_t sdealt[MAX_TURNS]
    cdef uint8_t skeep[MAX_TURNS]
    cdef readonly int street_total   # cards the streets deal one player (-1: not readable)

    def __init__(self, CompiledRules compiled):
        cdef const ofc_rules *r = compiled.r
        cdef int i, s, off = 0, free = 0
        sizes = tuple([r.row_len[i] for i in range(r.n_rows)])
        if sizes not in ((3, 5, 5), (3, 5, 5, 5)):
            raise RulesError(f"rows of {shorten(sizes)} cards: the play kernels take three rows "
                             f"(3, 5, 5) or four (3, 5, 5, 5)")
        self.variant = compiled.variant
        self.compiled = compiled
        self.r = r
        self.R = r.n_rows
        self.NC = r.n_cards
        self.low = -1
        for i in range(OFC_MAX_ROWS):
            self.row_len[i] = r.row_len[i] if i < self.R else 0
            self.row_off[i] = off if i < self.R else 0
            off += self.row_len[i]
            self.in_chain[i] = i < self.R and r.in_chain[i] != 0
            if i < self.R and not self.in_chain[i]:
                self.low = i
                free += 1
        if off != self.NC or free > 1 or (free and (self.R != 3 or self.low != 1)):
            raise RulesError(f"foul chain {shorten(tuple([self.in_chain[i] for i in range(self.R)]))}: the play "
                             f"kernels take every row in order, or a 2-7 middle out of it "
                             f"on three rows")
        # the row out of the chain is a 2-7 middle: its validity from the compiled rules
        for s in range(OFC_SCALE):
            self.lowvalid[s] = ofc_row_rule_at(r, self.low, s).valid if self.low >= 0 else 1
        self.nst = 0
        self.street_total = -1
        try:
            sched = deal_schedule(self.variant.first_street, self.variant.streets, self.NC)
        except (RulesError, TypeError, ValueError, AttributeError):
            return        # a forged variant: the engine says what is wrong with its deal
        if len(sched) > MAX_TURNS:
            return
        self.nst = len(sched)
        for i, (dealt, kept) in enumerate(sched):
            self.sdealt[i] = dealt
            self.skeep[i] = kept
        self.street_total = sum([d for d, _ in sched])

    @property
    def n_cards(self):
        return self.NC

    def __reduce__(self):
        return (play_rules_for, (self.variant,))


@functools.lru_cache(maxsize=64)
def play_rules_for(variant):
    """The :class:`PlayRules` of a variant: its compiled rules
    (``ofc_fast._layout.rules_for``) and its deal (cached)."""
    return PlayRules(rules_for(variant))


cdef void ctx_init(Ctx *cx, PlayRules pr) noexcept:
    cdef int i
    cx.R = pr.R
    cx.nch = 0
    cx.low = pr.low
    cx.lowvalid = pr.lowvalid
    cx.nodes = 0
    for i in range(pr.R):
        cx.row_len[i] = pr.row_len[i]
        cx.row_off[i] = pr.row_off[i]
        if pr.in_chain[i]:
            cx.ch[cx.nch] = i
            cx.nch += 1


cdef int prob_from_layout(Ctx *cx, SProb *p, const uint8_t *lay, uint64_t *placed) noexcept nogil:
    """Load a partial layout (EMPTY = 255 anywhere in a row); -1 on a bad or
    repeated card, else 0.  placed receives the mask of its cards."""
    cdef int i, j, c
    if ofc_cards_check(lay, cx.row_off[cx.R - 1] + cx.row_len[cx.R - 1], OFC_EMPTY_OK,
                       placed) >= 0:
        return -1
    for i in range(cx.R):
        p.row[i].n = 0
        p.row[i].size = cx.row_len[i]
        p.row[i].s = 0
        for j in range(cx.row_len[i]):
            c = lay[cx.row_off[i] + j]
            if c != EMPTY:
                p.row[i].c[p.row[i].n] = <uint8_t> c
                p.row[i].n += 1
        if p.row[i].n == p.row[i].size:
            p.row[i].s = eval_row(&p.row[i])
    return 0


cdef void prob_to_layout(Ctx *cx, const SProb *p, const uint8_t *orig, uint8_t *lay) noexcept nogil:
    """Fill the empty slots of orig (in place order) with the cards p added."""
    cdef int i, j, k
    for i in range(cx.R):
        k = 0
        for j in range(cx.row_len[i]):
            if orig[cx.row_off[i] + j] != EMPTY:
                k += 1
        for j in range(cx.row_len[i]):
            if orig[cx.row_off[i] + j] != EMPTY:
                lay[cx.row_off[i] + j] = orig[cx.row_off[i] + j]
            elif k < p.row[i].n:
                lay[cx.row_off[i] + j] = p.row[i].c[k]
                k += 1
            else:
                lay[cx.row_off[i] + j] = EMPTY


def dead_kernel(PlayRules rules, const uint8_t[:, ::1] layouts, const uint64_t[::1] pools,
                uint8_t[::1] dead, uint8_t[:, ::1] completions, int64_t[::1] nodes):
    """dead[i] = layout i cannot be completed legally from pools[i]; where it can,
    completions[i] receives a legal completion.  Returns the first bad row or -1.

    Pools must not contain the layout's own cards (checked: returns -2 - i)."""
    cdef Ctx cx
    cdef SProb p
    cdef intptr_t i, n = layouts.shape[0]
    cdef uint64_t placed
    cdef int alive
    cdef intptr_t bad = -1
    if n and (layouts.shape[1] != rules.NC or completions.shape[1] != rules.NC
              or pools.shape[0] < n or dead.shape[0] < n or completions.shape[0] < n
              or nodes.shape[0] < n):
        raise ValueError("dead_kernel: arrays do not match the layouts")
    ctx_init(&cx, rules)
    with nogil:
        for i in range(n):
            if prob_from_layout(&cx, &p, &layouts[i, 0], &placed) < 0:
                bad = i
                break
            if placed & pools[i]:
                bad = -2 - i
                break
            cx.nodes = 0
            alive = solve(&cx, &p, pools[i] & ALL_CARDS)
            dead[i] = not alive
            nodes[i] = cx.nodes
            if alive:
                prob_to_layout(&cx, &p, &layouts[i, 0], &completions[i, 0])
            else:
                memcpy(&completions[i, 0], &layouts[i, 0], rules.NC)
    return bad


def max5_kernel(const uint8_t[::1] row, uint64_t pool):
    """(strongest completion strength, cards used mask) of one partial 5-card row (testing aid)."""
    cdef SRow w
    cdef uint64_t u
    cdef int j
    if row.shape[0] != 5:
        raise ValueError(f"max5_kernel takes a 5-card row, got {row.shape[0]} slots")
    for j in range(5):
        if row[j] != EMPTY and not ofc_is_card(row[j]):
            raise ValueError(f"max5_kernel: {row[j]} is not a card")
    w.n = 0
    w.size = 5
    for j in range(row.shape[0]):
        if row[j] != EMPTY:
            w.c[w.n] = row[j]
            w.n += 1
    if w.n == 5:
        w.s = eval_row(&w)
    v = max5(&w, pool, &u)
    return v, u


def min_kernel(const uint8_t[::1] row, uint64_t pool):
    """(weakest completion strength, cards used mask) of one partial 3- or 5-card row."""
    cdef SRow w
    cdef uint64_t u
    cdef int j
    if row.shape[0] not in (3, 5):
        raise ValueError(f"min_kernel takes a 3- or 5-card row, got {row.shape[0]} slots")
    for j in range(row.shape[0]):
        if row[j] != EMPTY and not ofc_is_card(row[j]):
            raise ValueError(f"min_kernel: {row[j]} is not a card")
    w.n = 0
    w.size = row.shape[0]
    for j in range(row.shape[0]):
        if row[j] != EMPTY:
            w.c[w.n] = row[j]
            w.n += 1
    if w.n == w.size:
        w.s = eval_row(&w)
    v = min_top(&w, pool, &u)
    return v, u


include "_rollout_random.pxi"
include "_rollout_hand.pxi"
include "_rollout_values.pxi"
