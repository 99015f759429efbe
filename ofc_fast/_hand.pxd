# cython: language_level=3
# The C API of ofc_fast._hand: one hand's state machine as a plain struct
# (ofc_hand) and functions on it, without the GIL.  A batch engine holds many
# ofc_hand structs (about 500 bytes each, the rules shared read-only through
# one ofc_play pointer) and advances them in a loop: hand_deal, then per turn
# hand_n_moves / hand_moves (or hand_unrank), hand_apply and hand_run_auto,
# hand_result at the showdown and hand_next for the match's next hand.  What
# a seat sees is hand_shows / hand_view / hand_seen, its discards
# hand_discards.  The functions trust their input: the Python wrapper
# HandCore (used by ofc_fast.engine.Game and Match) checks every argument
# first, and returns HandStatus codes.
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t

from ofc_fast._cards cimport ofc_card_bit
from ofc_fast._layout cimport OFC_MAX_ROWS, ofc_layout_eval
from ofc_fast._play cimport PLAY_MAX_CARDS, PLAY_MAX_DECK, PLAY_MAX_TURNS, PlayRules, ofc_play

cdef enum:
    HAND_MAX_SEATS = 4

# Why a turn was played without a decision: the reason codes of the history.
cdef enum:
    AUTO_NONE = 0
    AUTO_ONLY = 1          # only one legal move
    AUTO_DEAD = 2          # the hand is already dead
    AUTO_ALL_DEAD = 3      # every move makes it dead
    AUTO_TIMEOUT = 4       # time-out placement (the seat timed out for the rest of the hand)

# What a check of the hand found.  The state machine never words a problem:
# HandCore's checks return one of these, with details in error_detail(), and
# ofc_fast.moves.HAND_MESSAGES turns them into exceptions.
cpdef enum HandStatus:
    HAND_OK = 0
    HAND_OVER = 1          # no move to make
    MOVE_NOT_SEQUENCE = 2  # cards or rows is not a sequence
    MOVE_LENGTHS = 3       # (number of cards, number of rows)
    CARD_NOT_DEALT = 4     # (position in cards,)
    CARD_TWICE = 5         # (position in cards,)
    ROW_NOT_INDEX = 6      # (position in rows,)
    ROW_MISSING = 7        # (position in rows,): no such row
    CARD_UNPLACED = 8      # (dealt card id,)
    DISCARD_COUNT = 9      # (cards the move discards,)
    ROW_FULL = 10          # (row, cards the move puts there, room left)
    DEST_COUNT = 11        # (destinations given,)
    DEST_ILLEGAL = 12      # destinations that are not a legal move
    INDEX_RANGE = 13       # (move index,)
    NO_SEAT = 14           # (seat,)
    NOT_FINISHED = 15      # the hand is not over
    BAD_PLAYERS = 16       # (players,)
    BAD_BUTTON = 17        # (button,)
    BAD_DECK = 18          # not the deck's cards (52 and the jokers), each once
    BAD_SCHEDULE = 19      # the rules carry no readable deal
    BAD_FL_CARDS = 20      # (seat, cards)
    BAD_FL_COUNT = 21      # (seat, count)
    DEAL_TOO_BIG = 22      # (cards the deal needs,)
    BAD_REASON = 23        # (reason code,)

cdef struct hand_sequel:
    # what the match rule makes of a finished hand (hand_next)
    uint8_t fl_cards[HAND_MAX_SEATS]    # each seat's fantasyland deal next hand (0: none)
    uint8_t fl_count[HAND_MAX_SEATS]    # and its fantasyland count
    uint8_t button                      # the next hand's button
    uint8_t button_moved                # it moved (no fantasyland player this hand)

cdef struct ofc_hand:
    # Everything a hand is: a copy of a game is a struct assignment.  The
    # history is the deck, the schedule and where each dealt card went (by
    # deck position), so nothing per turn and card is stored twice.
    const ofc_play *pr                  # the rules (shared, read-only)
    int64_t solves                      # dead-hand searches run (statistics)
    uint64_t placed[HAND_MAX_SEATS]     # cards on each seat's layout
    uint64_t discarded[HAND_MAX_SEATS]  # cards each seat discarded
    uint8_t deck[PLAY_MAX_DECK]         # the deck order (pr.deck cards: 52 and the jokers)
    int8_t dest[PLAY_MAX_DECK]          # each dealt card's row, -1 discarded (played turns)
    uint8_t seat[PLAY_MAX_TURNS]        # turn t: the seat to act
    int8_t street[PLAY_MAX_TURNS]       # its street (-1: a fantasyland deal)
    uint8_t reason[PLAY_MAX_TURNS]      # AUTO_* of each played turn
    uint8_t lay[HAND_MAX_SEATS][PLAY_MAX_CARDS]   # layouts (EMPTY where free)
    uint8_t room[HAND_MAX_SEATS][OFC_MAX_ROWS]    # free slots per row
    uint8_t fl_cards[HAND_MAX_SEATS]    # fantasyland deal per seat (0: none)
    uint8_t fl_count[HAND_MAX_SEATS]    # fantasyland hands played in a row
    uint8_t order[HAND_MAX_SEATS]       # seats in acting order
    uint8_t dead[HAND_MAX_SEATS]        # seat known dead
    uint8_t timed_out[HAND_MAX_SEATS]   # seat timed out: its turns are time-out placements
    uint8_t tout_seq[HAND_MAX_SEATS]    # seats in the order they timed out
    uint8_t n_players, button, n_turns, turn
    uint8_t deck_used                   # cards the deal needs
    uint8_t deck_pos                    # cards dealt so far (the turn to act's included)
    uint8_t ncur, nkeep                 # cards dealt to the player to act, to keep
    uint8_t auto                        # play automatic moves
    uint8_t ntout                       # seats timed out

cdef void hand_deck(uint64_t key, uint64_t index, int n, uint8_t *deck) noexcept nogil
cdef void hand_init(ofc_hand *h, const ofc_play *pr) noexcept nogil
cdef void hand_deal(ofc_hand *h, const ofc_play *pr, int n_players, int button,
                    const uint8_t *deck, const uint8_t *fl_cards, const uint8_t *fl_count,
                    bint auto) noexcept nogil
cdef int64_t hand_n_moves(const ofc_hand *h) noexcept nogil
cdef void hand_unrank(const ofc_hand *h, int64_t idx, int8_t *dest) noexcept nogil
cdef int64_t hand_rank(const ofc_hand *h, const int8_t *dest) noexcept nogil
cdef int64_t hand_moves(const ofc_hand *h, int64_t first, int64_t n, int8_t *dests) noexcept nogil
cdef int hand_dest_problem(const ofc_hand *h, const int8_t *dest) noexcept nogil
cdef int hand_after(const ofc_hand *h, const int8_t *dest, uint8_t *lay,
                    uint8_t *disc) noexcept nogil
cdef int hand_automatic(ofc_hand *h, int8_t *dest) noexcept nogil
cdef void hand_play_auto(ofc_hand *h) noexcept nogil
cdef void hand_timeout_dest(const ofc_hand *h, int8_t *dest) noexcept nogil
cdef void hand_mark_timed_out(ofc_hand *h, int p) noexcept nogil
cdef void hand_timeout(ofc_hand *h) noexcept nogil
cdef uint64_t hand_seen(const ofc_hand *h, int p, bint with_hand) noexcept nogil
cdef bint hand_is_dead(ofc_hand *h, int p) noexcept nogil
cdef void hand_view(const ofc_hand *h, int p, uint8_t *out) noexcept nogil
cdef void hand_all_discards(const ofc_hand *h, uint8_t *counts, uint8_t *out) noexcept nogil
cdef int hand_discards(const ofc_hand *h, int p, uint8_t *out) noexcept nogil
cdef bint hand_result(const ofc_hand *h, ofc_layout_eval *evals, int32_t *points) noexcept nogil
cdef void hand_next(const ofc_hand *h, const ofc_layout_eval *evals,
                    hand_sequel *nx) noexcept nogil
cdef list hand_turns(const ofc_hand *h)


cdef inline bint hand_done(const ofc_hand *h) noexcept nogil:
    """No turn left to play (the showdown)."""
    return h.turn >= h.n_turns


cdef inline int hand_to_act(const ofc_hand *h) noexcept nogil:
    """The seat to act, or -1 when the hand is over."""
    return h.seat[h.turn] if h.turn < h.n_turns else -1


cdef inline const uint8_t *hand_cards(const ofc_hand *h) noexcept nogil:
    """The cards dealt to the player to act (h.ncur of them, in deal order)."""
    return &h.deck[h.deck_pos - h.ncur]


cdef inline bint hand_shows(const ofc_hand *h, int p, int q) noexcept nogil:
    """Seat p sees seat q's placed cards: its own, a seat not in fantasyland,
    and every seat at the showdown (a fantasyland hand is hidden until then)."""
    return q == p or not h.fl_cards[q] or hand_done(h)


cdef inline uint64_t hand_unseen(const ofc_hand *h, int p) noexcept nogil:
    """The cards of the deck (jokers included) seat p has not seen (its
    cards in hand are seen)."""
    return h.pr.deck_mask & ~hand_seen(h, p, True)


cdef class HandCore:
    cdef PlayRules pr
    cdef ofc_hand s
    cdef int64_t err[3]
    cdef int fail(self, int status, int64_t a, int64_t b, int64_t c) noexcept
    cdef int load_dest(self, dest_rows, int8_t *dest) except -1
    cdef int check_into(self, cards, rows, int8_t *dest) except -1
    cdef int check_seat(self, int p) except -1
    cdef tuple dest_tuple(self, const int8_t *dest)
    cpdef HandCore copy(self)


cdef inline int hand_turn_dealt(const ofc_hand *h, int t) noexcept nogil:
    """Cards turn t deals (inline: the batch engine asks per turn)."""
    return h.fl_cards[h.seat[t]] if h.street[t] < 0 else h.pr.sdealt[h.street[t]]


cdef inline int hand_turn_keep(const ofc_hand *h, int t) noexcept nogil:
    """Cards turn t keeps (places)."""
    return h.pr.NC if h.street[t] < 0 else h.pr.skeep[h.street[t]]


cdef inline void begin_turn(ofc_hand *h) noexcept nogil:
    h.ncur = <uint8_t> hand_turn_dealt(h, h.turn)
    h.nkeep = <uint8_t> hand_turn_keep(h, h.turn)
    h.deck_pos += h.ncur


cdef inline void hand_apply(ofc_hand *h, const int8_t *dest, int reason) noexcept nogil:
    """Play move dest (legal) for the player to act, recorded with reason
    (AUTO_*); no automatic moves after it (hand_run_auto).  Inline: the
    batch engine applies a move per turn."""
    cdef int i, row, c, p = h.seat[h.turn], pos = h.deck_pos - h.ncur
    cdef const ofc_play *pr = h.pr
    for i in range(h.ncur):
        c = h.deck[pos + i]
        row = dest[i]
        h.dest[pos + i] = <int8_t> row
        if row < 0:
            h.discarded[p] |= ofc_card_bit(c)
        else:
            h.lay[p][pr.row_off[row] + pr.row_len[row] - h.room[p][row]] = <uint8_t> c
            h.room[p][row] -= 1
            h.placed[p] |= ofc_card_bit(c)
    h.reason[h.turn] = <uint8_t> reason
    h.turn += 1
    h.ncur = 0
    if h.turn < h.n_turns:
        begin_turn(h)


cdef inline void hand_run_auto(ofc_hand *h) noexcept nogil:
    """Play the turns that need no decision (hand_play_auto): a call only when
    there can be one, a seat timed out or auto on (most random self-play
    turns then skip a call into this module)."""
    if h.auto or h.ntout:
        hand_play_auto(h)
