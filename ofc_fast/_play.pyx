# cython: language_level=3
"""What the play kernels read of a variant: :class:`PlayRules`.

One plain C struct (``ofc_play`` of ``_play.pxd``) per variant, read from its
compiled rules (row layout, foul chain, 2-7 validity, scoring) and its deal
(the streets); the dead-hand search (``_search``), the rollouts and move
values (``_rollout``) and the hand state machine (``_hand``) take a pointer
to it and never copy it, so a batch of games shares one.
"""
from ofc_fast._cards cimport OFC_NATURALS, ofc_deck_mask
from ofc_fast._layout cimport ofc_row_rule_at

import functools

from ofc_fast._layout import rules_for
from ofc_fast.errors import RulesError, shorten
from ofc_fast.rules import deal_schedule


cdef class PlayRules:
    """What the play kernels need of a variant, read from its compiled rules
    (row layout, foul chain, 2-7 validity, scoring) plus its deal (build
    with :func:`play_rules_for`, or ``ofc_fast.rollouts.play_rules``)."""

    def __init__(self, CompiledRules compiled):
        cdef const ofc_rules *r = compiled.r
        cdef ofc_play *c = &self.c
        cdef int i, s, off = 0, free = 0
        sizes = tuple([r.row_len[i] for i in range(r.n_rows)])
        if sizes not in ((3, 5, 5), (3, 5, 5, 5)):
            raise RulesError(f"rows of {shorten(sizes)} cards: the play kernels take three rows "
                             f"(3, 5, 5) or four (3, 5, 5, 5)")
        self.variant = compiled.variant
        self.compiled = compiled
        c.r = r
        c.R = r.n_rows
        c.NC = r.n_cards
        c.deck = OFC_NATURALS + r.jokers        # the jokers after the naturals (RULES.md 12)
        c.deck_mask = ofc_deck_mask(r.jokers)
        c.low = -1
        for i in range(OFC_MAX_ROWS):
            c.row_len[i] = r.row_len[i] if i < c.R else 0
            c.row_off[i] = off if i < c.R else 0
            off += c.row_len[i]
            c.in_chain[i] = i < c.R and r.in_chain[i] != 0
            if i < c.R and not c.in_chain[i]:
                c.low = i
                free += 1
        if off != c.NC or free > 1 or (free and (c.R != 3 or c.low != 1)):
            chain = shorten(tuple([c.in_chain[i] for i in range(c.R)]))
            raise RulesError(f"foul chain {chain}: the play kernels take every row in order, "
                             f"or a 2-7 middle out of it on three rows")
        # the row out of the chain is a 2-7 middle: its validity from the compiled rules
        for s in range(OFC_SCALE):
            c.lowvalid[s] = ofc_row_rule_at(r, c.low, s).valid if c.low >= 0 else 1
        c.nst = 0
        c.street_total = -1
        try:
            sched = deal_schedule(self.variant.first_street, self.variant.streets, c.NC)
        except (RulesError, TypeError, ValueError, AttributeError):
            return        # a forged variant: the engine says what is wrong with its deal
        if len(sched) > PLAY_MAX_TURNS:
            return
        c.nst = len(sched)
        for i, (dealt, kept) in enumerate(sched):
            c.sdealt[i] = dealt
            c.skeep[i] = kept
        c.street_total = sum([d for d, _ in sched])

    @property
    def n_cards(self):
        return self.c.NC

    @property
    def deck_size(self):
        """Cards of the deck the engine deals: 52, and the variant's jokers."""
        return self.c.deck

    @property
    def street_total(self):
        """Cards the variant's streets deal one player (-1: its deal is not readable)."""
        return self.c.street_total

    def __reduce__(self):
        return (play_rules_for, (self.variant,))


@functools.lru_cache(maxsize=64)
def play_rules_for(variant):
    """The :class:`PlayRules` of a variant: its compiled rules
    (``ofc_fast._layout.rules_for``) and its deal (cached)."""
    return PlayRules(rules_for(variant))
