# cython: language_level=3
# Declarations of src/ofc_cards.h: the deck size and what derives from it, the jokers,
# the card check, card masks and the card-text grammar's ASCII part over raw
# bytes (ofc_fast.cards is the Python reference grammar; the scanner reads
# only what it reads the same way, tested).  Sizes are the header's macros,
# never retyped.
from libc.stdint cimport uint8_t, uint64_t

cdef extern from "ofc_cards.h" nogil:
    enum:
        OFC_DECK          # cards in the deck
        OFC_MAX_CARD      # the highest card id, OFC_DECK - 1
        OFC_NATURALS      # natural cards (52): the jokers come after them
        OFC_JOKER         # the first joker (X1); X2 is OFC_JOKER + 1
        OFC_MAX_JOKERS    # jokers a variant may deal (2)
        OFC_CARD_IDS      # naturals and jokers
        OFC_EMPTY         # an empty slot
        OFC_EMPTY_OK      # ofc_cards_check flags
        OFC_REPEAT_OK
    const uint64_t OFC_ALL_CARDS
    const uint64_t OFC_JOKER_MASK
    bint ofc_is_card(unsigned c)
    bint ofc_is_joker(unsigned c)
    uint64_t ofc_deck_mask(int jokers)
    uint64_t ofc_card_bit(unsigned c)
    uint64_t ofc_cards_mask(const uint8_t *ids, Py_ssize_t n)
    Py_ssize_t ofc_cards_check(const uint8_t *ids, Py_ssize_t n, int flags, uint64_t *mask)
    int ofc_mask_ids(uint64_t m, uint8_t *out)
    int ofc_mask_card_ids(uint64_t m, uint8_t *out)
    Py_ssize_t ofc_ids_check(const uint8_t *ids, Py_ssize_t n, unsigned deck, int flags,
                             uint64_t *mask)
    enum:
        OFC_NEXT_JOKER    # an Xj before ofc_number_jokers numbers it
    Py_ssize_t ofc_scan_cards(const uint8_t *s, Py_ssize_t n, uint8_t *out, Py_ssize_t cap)
    Py_ssize_t ofc_scan_marked(const uint8_t *s, Py_ssize_t n, uint8_t *out, Py_ssize_t cap,
                               unsigned *named)
    int ofc_number_jokers(uint8_t *out, Py_ssize_t k, unsigned named)
