# cython: language_level=3
# Declarations of ofc_fast._play: what every play kernel (the dead-hand search
# of _search, the rollouts and move values of _rollout, the hand state machine
# of _hand) reads of a variant, as one plain C struct shared read-only by every
# hand and every thread (a PlayRules holds it).
from libc.stdint cimport uint8_t, uint64_t

from ofc_fast._cards cimport OFC_CARD_IDS
from ofc_fast._layout cimport OFC_MAX_ROWS, OFC_SCALE, CompiledRules, ofc_rules

cdef enum:
    PLAY_MAX_DECK = OFC_CARD_IDS    # cards of the largest deck: 52 naturals and 2 jokers
    PLAY_MAX_TURNS = PLAY_MAX_DECK  # turns of a hand (and streets): each deals at least one card
    PLAY_MAX_CARDS = 18         # cards of a layout the play kernels take: 3 + 5 + 5 + 5

cdef struct ofc_play:
    const ofc_rules *r          # the compiled rules: scoring, royalties, fantasyland
    int R                       # rows (3 or 4)
    int NC                      # cards of a layout
    int deck                    # cards of the deck: 52 naturals and the variant's jokers
    uint64_t deck_mask          # their mask (ofc_deck_mask)
    int row_len[OFC_MAX_ROWS]
    int row_off[OFC_MAX_ROWS]
    int in_chain[OFC_MAX_ROWS]  # the row is in the foul chain
    int low                     # the 2-7 middle out of the chain, or -1
    uint8_t lowvalid[OFC_SCALE]  # its validity by joint strength (1 elsewhere)
    int nst                     # streets of a player's deal (0: the deal is not readable)
    uint8_t sdealt[PLAY_MAX_TURNS]   # cards dealt on each street
    uint8_t skeep[PLAY_MAX_TURNS]    # and kept
    int street_total            # cards the streets deal a player (-1: not readable)

cdef class PlayRules:
    cdef ofc_play c
    cdef CompiledRules compiled
    cdef readonly object variant
