# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
# cython: initializedcheck=False
"""The hand state machine: one hand of OFC from the deal to the showdown,
and the match rule between hands.

* C API (``_hand.pxd``): the state is one plain struct, ``ofc_hand`` (the
  deck, where each dealt card went by deck position, the schedule, layouts
  and a few flags; the rules shared through one ``ofc_play`` pointer), and
  ``hand_*`` functions on it that run without the GIL and trust their input,
  so another extension can cimport them and play many hands in a loop: the
  deal, moves applied (numbered in the move order of ``_order``), the
  automatic moves and time-outs of docs/rules.md section 9 (the dead-hand
  tests are ``_search``'s), what a seat sees, the showdown, and the match
  rule that makes the next hand's fantasyland and button (``hand_next``);
* decks: deck ``index`` of a 64-bit ``key`` is the cards shuffled by the
  random stream ``(key, index)`` (``hand_deck``; :func:`seeded_deck`):
  ``Game(seed=s)`` deals deck 0 of ``kernel_seed(s)``, hand ``k`` of a
  ``Match`` deck ``k``, so a batch engine deals the same cards in C;
* Python: :class:`HandCore` wraps one struct for ``ofc_fast.engine.Game``
  and ``Match``, checks every argument before it changes state, and reports
  problems as :class:`HandStatus` codes that ``ofc_fast.moves.HAND_MESSAGES``
  words.
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

from ofc_fast._cards cimport (OFC_ALL_CARDS, OFC_DECK, OFC_EMPTY as EMPTY, OFC_MAX_JOKERS,
                              OFC_NATURALS, ofc_mask_ids)
from ofc_fast._compat cimport ofc_popcount64 as popc
from ofc_fast._eval cimport OFC_MAX_DEAL, ofc_tables, tables
from ofc_fast._layout cimport (ofc_eval_layout, ofc_has_joker, ofc_layout_foul, ofc_next_fl_count,
                               ofc_pair_points)
from ofc_fast._order cimport count_moves, rank_move, unrank_move
from ofc_fast._rng cimport ofc_rng, ofc_rng_next, ofc_rng_seed, ofc_shuffle_into, ofc_shuffle_prefix
from ofc_fast._search cimport jokers_alive, search_dead_quick, search_greedy, search_layout

import numpy as np

from ofc_fast.errors import ArgumentError


MAX_DEAL = OFC_MAX_DEAL
"""Most cards dealt to one player in one hand, and in one turn: the size of
the hand's card buffers."""

AUTO_CODES = (AUTO_NONE, AUTO_ONLY, AUTO_DEAD, AUTO_ALL_DEAD, AUTO_TIMEOUT)
"""The automatic-move reason codes of the history (``ofc_fast.moves.AUTO_REASONS``
names them)."""

STATE_SIZE = sizeof(ofc_hand)
"""Bytes of one hand's C state (``ofc_hand``; the rules are shared, not copied)."""

cdef const ofc_tables *T = tables()


# ------------------------------------------------------------------ decks
cdef void hand_deck(uint64_t key, uint64_t index, int n, uint8_t *deck) noexcept nogil:
    """Deck number `index` of `key` into deck (n cards: the 52 naturals and
    the jokers after them): the ids in order, shuffled by a Fisher-Yates
    pass of the stream (key, index).  A 52-card deck is the same as before
    jokers were dealt (the pass is the same for n = 52)."""
    cdef ofc_rng g
    cdef int i
    for i in range(n):
        deck[i] = <uint8_t> i
    ofc_rng_seed(&g, key, index)
    ofc_shuffle_prefix(&g, deck, n, n - 1)


def seeded_deck(uint64_t key, uint64_t index=0, int jokers=0):
    """Deck number ``index`` of a 64-bit key (``ofc_fast._args.kernel_seed``
    of a ``seed=`` argument): the 52 natural card ids and ``jokers`` jokers
    (52, 53: 0 to 2) as a uint8 array.  ``Game(seed=s)`` deals
    ``seeded_deck(kernel_seed(s), 0, v.jokers)``, hand ``k`` of
    ``Match(seed=s)`` ``seeded_deck(kernel_seed(s), k, v.jokers)``, and
    ``ofc_fast.sim.GameBatch`` the same decks in C.

    >>> seeded_deck(7, 0).tolist() == seeded_deck(7, 0).tolist()
    True
    >>> len(seeded_deck(7, 0)), len(seeded_deck(7, 0, 2)), max(seeded_deck(7, 0, 2))
    (52, 54, 53)
    """
    if not 0 <= jokers <= OFC_MAX_JOKERS:
        raise ArgumentError(f"jokers must be 0 to {OFC_MAX_JOKERS}, got {jokers}")
    out = np.empty(OFC_NATURALS + jokers, np.uint8)
    cdef uint8_t[::1] d = out
    hand_deck(key, index, OFC_NATURALS + jokers, &d[0])
    return out


# ------------------------------------------------------------ the state machine
cdef void hand_init(ofc_hand *h, const ofc_play *pr) noexcept nogil:
    """An empty hand of these rules (no turns)."""
    memset(h, 0, sizeof(ofc_hand))
    h.pr = pr


cdef void hand_deal(ofc_hand *h, const ofc_play *pr, int n_players, int button,
                    const uint8_t *deck, const uint8_t *fl_cards, const uint8_t *fl_count,
                    bint auto) noexcept nogil:
    """Deal a hand from deck (pr.deck distinct cards) to n_players seats
    (fantasyland deal and count per seat: fl_cards 0 or n_cards .. OFC_MAX_DEAL,
    all deals within the deck; the rules' deal readable), then play its first
    automatic moves.  Fantasyland seats act first, in acting order, then the
    streets go round the others."""
    cdef int p, q, s, i, t = 0, total = 0, street_cards = 0
    hand_init(h, pr)
    for s in range(pr.nst):
        street_cards += pr.sdealt[s]
    h.n_players = <uint8_t> n_players
    h.button = <uint8_t> button
    h.auto = 1 if auto else 0
    memcpy(h.deck, deck, pr.deck)
    for p in range(HAND_MAX_SEATS):
        if p < n_players:
            h.fl_cards[p] = fl_cards[p]
            h.fl_count[p] = fl_count[p]
            total += fl_cards[p] if fl_cards[p] else street_cards
        memset(h.lay[p], EMPTY, PLAY_MAX_CARDS)
        for i in range(OFC_MAX_ROWS):
            h.room[p][i] = <uint8_t> pr.row_len[i]
    for q in range(n_players):
        h.order[q] = <uint8_t> ((button + 1 + q) % n_players)
    for q in range(n_players):
        p = h.order[q]
        if h.fl_cards[p]:
            h.seat[t] = <uint8_t> p
            h.street[t] = -1
            t += 1
    for s in range(pr.nst):
        for q in range(n_players):
            p = h.order[q]
            if not h.fl_cards[p]:
                h.seat[t] = <uint8_t> p
                h.street[t] = <int8_t> s
                t += 1
    h.n_turns = <uint8_t> t
    h.deck_used = <uint8_t> total
    if t:
        begin_turn(h)
        hand_run_auto(h)


cdef int64_t hand_n_moves(const ofc_hand *h) noexcept nogil:
    """Legal moves of the player to act (0 when the hand is over)."""
    if hand_done(h):
        return 0
    return count_moves(h.ncur, h.nkeep, h.room[h.seat[h.turn]])


cdef void hand_unrank(const ofc_hand *h, int64_t idx, int8_t *dest) noexcept nogil:
    """Move idx (0 <= idx < hand_n_moves) as a row or -1 per dealt card, deal order."""
    unrank_move(idx, h.ncur, h.nkeep, h.room[h.seat[h.turn]], h.pr.R, dest)


cdef int64_t hand_rank(const ofc_hand *h, const int8_t *dest) noexcept nogil:
    """The index of a legal move (hand_dest_problem(dest) == 0) in the move order."""
    return rank_move(h.ncur, h.nkeep, h.room[h.seat[h.turn]], dest)


cdef int64_t hand_moves(const ofc_hand *h, int64_t first, int64_t n, int8_t *dests) noexcept nogil:
    """Moves first .. first + n - 1 (those that exist) into dests, h.ncur
    destinations each; returns how many were written."""
    cdef int64_t k, total = hand_n_moves(h)
    if first < 0:
        first = 0
    if n > total - first:
        n = total - first
    for k in range(n):
        hand_unrank(h, first + k, dests + k * h.ncur)
    return n if n > 0 else 0


cdef int hand_dest_problem(const ofc_hand *h, const int8_t *dest) noexcept nogil:
    """0 when dest (a row or -1 per dealt card) is a legal move of the player
    to act, else 1: bad row, 2: wrong discard count, 3: row full."""
    cdef int used[OFC_MAX_ROWS]
    cdef int i, row, nd = 0, p = h.seat[h.turn]
    for i in range(OFC_MAX_ROWS):
        used[i] = 0
    for i in range(h.ncur):
        row = dest[i]
        if row < -1 or row >= h.pr.R:
            return 1
        if row < 0:
            nd += 1
        else:
            used[row] += 1
    if nd != h.ncur - h.nkeep:
        return 2
    for i in range(h.pr.R):
        if used[i] > h.room[p][i]:
            return 3
    return 0


cdef int hand_after(const ofc_hand *h, const int8_t *dest, uint8_t *lay,
                    uint8_t *disc) noexcept nogil:
    """The layout of the player to act after move dest into lay
    (PLAY_MAX_CARDS), its discards into disc (when not NULL); returns how
    many it discards."""
    cdef uint8_t room[OFC_MAX_ROWS]
    cdef const uint8_t *cur = hand_cards(h)
    cdef int i, row, nd = 0, p = h.seat[h.turn]
    memcpy(lay, h.lay[p], PLAY_MAX_CARDS)
    memcpy(room, h.room[p], OFC_MAX_ROWS)
    for i in range(h.ncur):
        row = dest[i]
        if row >= 0:
            lay[h.pr.row_off[row] + h.pr.row_len[row] - room[row]] = cur[i]
            room[row] -= 1
        else:
            if disc != NULL:
                disc[nd] = cur[i]
            nd += 1
    return nd


cdef uint64_t hand_seen(const ofc_hand *h, int p, bint with_hand) noexcept nogil:
    """Cards seat p has seen: its layout, its discards and (with_hand) the
    cards in its hand; the others' placed cards it is shown (hand_shows)."""
    cdef uint64_t m = h.discarded[p]
    cdef const uint8_t *cur
    cdef int q, i
    for q in range(h.n_players):
        if hand_shows(h, p, q):
            m |= h.placed[q]
    if with_hand and not hand_done(h) and h.seat[h.turn] == p:
        cur = hand_cards(h)
        for i in range(h.ncur):       # the dealt cards, jokers included
            m |= ofc_card_bit(cur[i])
    return m


cdef void hand_view(const ofc_hand *h, int p, uint8_t *out) noexcept nogil:
    """Every seat's layout as seat p sees it (hand_shows; EMPTY where hidden)
    into out, n_players x NC cards in seat order."""
    cdef int q, NC = h.pr.NC
    for q in range(h.n_players):
        if hand_shows(h, p, q):
            memcpy(out + q * NC, h.lay[q], NC)
        else:
            memset(out + q * NC, EMPTY, NC)


include "_hand_auto.pxi"


cdef void hand_all_discards(const ofc_hand *h, uint8_t *counts, uint8_t *out) noexcept nogil:
    """Every seat's discards so far, in the order discarded: seat p's
    counts[p] cards at out[p * OFC_MAX_DEAL ..] (room for HAND_MAX_SEATS
    rows).  One pass over the turns, branch-free (discards fall at random):
    each dealt card is written at its seat's next free place, which only a
    discard takes (a seat is dealt at most OFC_MAX_DEAL cards a hand)."""
    cdef int t, i, d, p, pos = 0
    for p in range(h.n_players):
        counts[p] = 0
    for t in range(h.turn):
        d = hand_turn_dealt(h, t)
        p = h.seat[t]
        for i in range(d):
            out[p * OFC_MAX_DEAL + counts[p]] = h.deck[pos + i]
            counts[p] += h.dest[pos + i] < 0
        pos += d


cdef int hand_discards(const ofc_hand *h, int p, uint8_t *out) noexcept nogil:
    """Seat p's discards so far, in the order discarded, into out (room for
    OFC_MAX_DEAL); returns how many."""
    cdef uint8_t counts[HAND_MAX_SEATS]
    cdef uint8_t every[HAND_MAX_SEATS * OFC_MAX_DEAL]
    hand_all_discards(h, counts, every)
    memcpy(out, every + p * OFC_MAX_DEAL, counts[p])
    return counts[p]


cdef bint hand_result(const ofc_hand *h, ofc_layout_eval *evals, int32_t *points) noexcept nogil:
    """The showdown: each seat's evaluation and points (HAND_MAX_SEATS room
    each); False while the hand is not over."""
    cdef int p, q
    cdef int32_t x
    if not hand_done(h):
        return False
    for p in range(h.n_players):
        ofc_eval_layout(T, h.pr.r, h.lay[p], h.fl_count[p], &evals[p])
        points[p] = 0
    for p in range(h.n_players):
        for q in range(p + 1, h.n_players):
            x = ofc_pair_points(h.pr.r, &evals[p], &evals[q])
            points[p] += x
            points[q] -= x
    return True


cdef void hand_next(const ofc_hand *h, const ofc_layout_eval *evals,
                    hand_sequel *nx) noexcept nogil:
    """The match rule between hands (docs/rules.md sections 7 and 9), from
    the finished hand and its evaluations (hand_result): each seat's
    fantasyland deal and count next hand (an entry or a repeat carries, the
    count one more: ofc_next_fl_count), and the button, which moves one seat
    unless a fantasyland player was at the table."""
    cdef int p, P = h.n_players
    cdef bint any_fl = False
    for p in range(P):
        any_fl = any_fl or h.fl_cards[p] != 0
        nx.fl_cards[p] = evals[p].fantasyland
        nx.fl_count[p] = ofc_next_fl_count(h.fl_count[p], evals[p].fantasyland)
    nx.button_moved = not any_fl
    nx.button = <uint8_t> ((h.button + 1) % P if nx.button_moved else h.button)


cdef list hand_turns(const ofc_hand *h):
    """Per played turn: (seat, street, dealt cards, destinations, reason code),
    rebuilt from the deck, the schedule and where each card went."""
    cdef int t, i, d, pos = 0
    out = []
    for t in range(h.turn):
        d = hand_turn_dealt(h, t)
        out.append((h.seat[t], h.street[t], tuple([h.deck[pos + i] for i in range(d)]),
                    tuple([h.dest[pos + i] for i in range(d)]), h.reason[t]))
        pos += d
    return out


# --------------------------------------------------------------------- HandCore
cdef inline bint _is_index(object r):
    """A row given as an integer (numpy integers too), not a bool."""
    return type(r) is int or (isinstance(r, (int, np.integer))
                              and not isinstance(r, (bool, np.bool_)))


cdef class HandCore:
    """State of one hand: deck, turn schedule, layouts, discards, history.

    ``HandCore(rules)`` is an empty core (no turns); :meth:`deal` deals a hand
    into it.  Python never sees a half-applied move: every method validates
    before it changes state, and reports a problem as a :class:`HandStatus`
    code (details in :meth:`error_detail`) that ``ofc_fast.engine`` turns
    into an exception; no argument can make the C code read or write out of
    bounds (``OFC_MAX_DEAL`` cards per player and per turn, four seats, a
    deck of 52 cards and the variant's jokers).  Build through ``ofc_fast.engine.Game``."""

    def __init__(self, PlayRules pr):
        self.pr = pr
        hand_init(&self.s, &pr.c)
        self.err[0] = self.err[1] = self.err[2] = 0

    cdef int fail(self, int status, int64_t a, int64_t b, int64_t c) noexcept:
        self.err[0] = a
        self.err[1] = b
        self.err[2] = c
        return status

    def error_detail(self):
        """Details of the last status a method returned (see :class:`HandStatus`)."""
        return (self.err[0], self.err[1], self.err[2])

    def deal(self, int n_players, deck, int button, fl_cards, fl_count, bint auto):
        """Deal a hand (the rules' streets) and play its first automatic moves;
        returns a :class:`HandStatus` (HAND_OK, or why nothing was dealt)."""
        cdef const ofc_play *pr = &self.pr.c
        cdef int p, s, i, total = 0, P = n_players, b = button, street_cards = 0
        cdef int64_t c, k
        cdef uint64_t seen = 0
        cdef const uint8_t[::1] d
        cdef uint8_t flc[HAND_MAX_SEATS]
        cdef uint8_t flk[HAND_MAX_SEATS]
        # ---- validate everything before touching the state
        if not 2 <= P <= HAND_MAX_SEATS:
            return self.fail(BAD_PLAYERS, P, 0, 0)
        if not 0 <= b < P:
            return self.fail(BAD_BUTTON, b, 0, 0)
        try:
            d = deck
        except (TypeError, ValueError, BufferError):
            return self.fail(BAD_DECK, 0, 0, 0)
        if d.shape[0] != pr.deck:
            return self.fail(BAD_DECK, 0, 0, 0)
        for i in range(pr.deck):      # each card of the deck (jokers included) once
            if d[i] >= pr.deck or seen >> d[i] & 1:
                return self.fail(BAD_DECK, 0, 0, 0)
            seen |= ofc_card_bit(d[i])
        if pr.nst == 0:
            return self.fail(BAD_SCHEDULE, 0, 0, 0)
        for s in range(pr.nst):
            street_cards += pr.sdealt[s]
        if len(fl_cards) < P or len(fl_count) < P:
            return self.fail(BAD_FL_CARDS, -1, 0, 0)
        for p in range(P):
            c = fl_cards[p]
            if c < 0 or c > OFC_MAX_DEAL or (c and c < pr.NC):
                return self.fail(BAD_FL_CARDS, p, c, 0)
            k = fl_count[p]
            if not 0 <= k <= 255:
                return self.fail(BAD_FL_COUNT, p, k, 0)
            flc[p] = <uint8_t> c
            flk[p] = <uint8_t> k
            total += flc[p] if flc[p] else street_cards
        if total > pr.deck:
            return self.fail(DEAL_TOO_BIG, total, 0, 0)
        # ---- build (turns <= cards dealt <= pr.deck <= PLAY_MAX_TURNS)
        hand_deal(&self.s, pr, P, b, &d[0], flc, flk, auto)
        return <int> HAND_OK

    # ------------------------------------------------------- checks (codes)
    cdef tuple dest_tuple(self, const int8_t *dest):
        return tuple([dest[i] for i in range(self.s.ncur)])

    cdef int load_dest(self, dest_rows, int8_t *dest) except -1:
        """Copy destinations given by Python into dest and check them:
        HAND_OK, or the status of what is wrong."""
        cdef int i
        if hand_done(&self.s):
            return self.fail(HAND_OVER, 0, 0, 0)
        if len(dest_rows) != self.s.ncur:
            return self.fail(DEST_COUNT, len(dest_rows), 0, 0)
        for i in range(self.s.ncur):
            r = dest_rows[i]
            if not _is_index(r) or not -1 <= r < self.s.pr.R:
                return self.fail(DEST_ILLEGAL, i, 0, 0)
            dest[i] = <int8_t> (<long> r)
        if hand_dest_problem(&self.s, dest):
            return self.fail(DEST_ILLEGAL, -1, 0, 0)
        return <int> HAND_OK

    cdef int check_into(self, cards, rows, int8_t *dest) except -1:
        """Destinations in deal order of a move given as cards and rows
        (cards: ids; rows: row indexes or -1 = discard) into dest: HAND_OK,
        or the status saying why the move is illegal.  Changes no state."""
        cdef int i, j, n = self.s.ncur, p, row, nc, R = self.s.pr.R
        cdef int used[OFC_MAX_ROWS]
        cdef int ndisc = 0
        cdef const uint8_t *cur = hand_cards(&self.s)
        if hand_done(&self.s):
            return self.fail(HAND_OVER, 0, 0, 0)
        p = self.s.seat[self.s.turn]
        try:
            nc = len(cards)
            if len(rows) != nc:
                return self.fail(MOVE_LENGTHS, nc, len(rows), 0)
        except TypeError:
            return self.fail(MOVE_NOT_SEQUENCE, 0, 0, 0)
        for i in range(n):
            dest[i] = -2
        for i in range(OFC_MAX_ROWS):
            used[i] = 0
        for j in range(nc):
            c = cards[j]
            for i in range(n):
                if cur[i] == c:
                    break
            else:
                return self.fail(CARD_NOT_DEALT, j, 0, 0)
            if dest[i] != -2:
                return self.fail(CARD_TWICE, j, 0, 0)
            r = rows[j]
            if not _is_index(r):
                return self.fail(ROW_NOT_INDEX, j, 0, 0)
            if not -1 <= r < R:
                return self.fail(ROW_MISSING, j, 0, 0)
            row = r
            dest[i] = <int8_t> row
            if row < 0:
                ndisc += 1
            else:
                used[row] += 1
        for i in range(n):
            if dest[i] == -2:
                return self.fail(CARD_UNPLACED, cur[i], 0, 0)
        if ndisc != n - self.s.nkeep:
            return self.fail(DISCARD_COUNT, ndisc, 0, 0)
        for row in range(R):
            if used[row] > self.s.room[p][row]:
                return self.fail(ROW_FULL, row, used[row], self.s.room[p][row])
        return <int> HAND_OK

    cdef int check_seat(self, int p) except -1:
        """Seats outside the table are refused here (ofc_fast.engine checks
        them first, with a message): IndexError carrying the status."""
        if not 0 <= p < self.s.n_players:
            raise IndexError(HandStatus.NO_SEAT, p)
        return 0

    # ------------------------------------------------------------- Python API
    @property
    def n_players(self):
        return self.s.n_players

    @property
    def button(self):
        return self.s.button

    @property
    def n_turns(self):
        return self.s.n_turns

    @property
    def turn(self):
        return self.s.turn

    @property
    def deck_used(self):
        return self.s.deck_used

    @property
    def solves(self):
        return self.s.solves

    @property
    def auto(self):
        return bool(self.s.auto)

    @auto.setter
    def auto(self, value):
        self.s.auto = 1 if value else 0

    @property
    def to_act(self):
        return hand_to_act(&self.s)

    @property
    def done(self):
        return hand_done(&self.s)

    @property
    def street(self):
        return None if hand_done(&self.s) else self.s.street[self.s.turn]

    @property
    def keep(self):
        return self.s.nkeep

    def hand(self):
        """Cards dealt to the player to act (tuple of ids, deal order)."""
        cdef const uint8_t *cur = hand_cards(&self.s)
        return tuple([cur[i] for i in range(self.s.ncur)])

    def n_moves(self):
        return hand_n_moves(&self.s)

    def move_rows(self, int64_t idx):
        """Destinations of move number idx (negative from the end), or None
        outside the move list."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int64_t n = hand_n_moves(&self.s)
        if idx < 0:
            idx += n
        if idx < 0 or idx >= n:
            return None
        hand_unrank(&self.s, idx, dest)
        return self.dest_tuple(dest)

    def move_index(self, rows):
        """Index of a destination tuple (deal order) in the move order, or
        minus the status when it is not a legal move."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int st = self.load_dest(rows, dest)
        if st:
            return -st
        return hand_rank(&self.s, dest)

    def index_of(self, cards, rows):
        """Index in the move order of a move given as cards and rows, or
        minus the status saying why it is not a legal move."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int st = self.check_into(cards, rows, dest)
        if st:
            return -st
        return hand_rank(&self.s, dest)

    def check(self, cards, rows):
        """Destinations in deal order of a move given as cards and rows, or
        the status (an int) saying why the move is illegal."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int st = self.check_into(cards, rows, dest)
        if st:
            return st
        return self.dest_tuple(dest)

    def play(self, cards, rows):
        """Check a move (cards and rows), play it, then any automatic moves;
        returns the status (HAND_OK when played)."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int st = self.check_into(cards, rows, dest)
        if st:
            return st
        hand_apply(&self.s, dest, AUTO_NONE)
        hand_run_auto(&self.s)
        return <int> HAND_OK

    def apply(self, dest_rows, int reason=AUTO_NONE):
        """Apply destinations (deal order, checked again here), then any
        automatic moves; returns the status."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int st
        if not AUTO_NONE <= reason <= AUTO_TIMEOUT:
            return self.fail(BAD_REASON, reason, 0, 0)
        st = self.load_dest(dest_rows, dest)
        if st:
            return st
        hand_apply(&self.s, dest, reason)
        hand_run_auto(&self.s)
        return <int> HAND_OK

    def apply_index(self, int64_t idx):
        """Play move number idx of the move order, then any automatic moves;
        returns the status."""
        cdef int8_t dest[OFC_MAX_DEAL]
        if hand_done(&self.s):
            return self.fail(HAND_OVER, 0, 0, 0)
        if not 0 <= idx < hand_n_moves(&self.s):
            return self.fail(INDEX_RANGE, idx, 0, 0)
        hand_unrank(&self.s, idx, dest)
        hand_apply(&self.s, dest, AUTO_NONE)
        hand_run_auto(&self.s)
        return <int> HAND_OK

    def timeout_rows(self):
        """The time-out placement of the player to act, or None when the hand is over."""
        cdef int8_t dest[OFC_MAX_DEAL]
        if hand_done(&self.s):
            return None
        hand_timeout_dest(&self.s, dest)
        return self.dest_tuple(dest)

    def timeout(self):
        """The player to act runs out of time: mark the seat timed out for the
        rest of the hand and play its time-out placements (this turn and every
        later one), then any automatic moves of the others.  Returns the
        status (HAND_OVER when there is no move to make)."""
        if hand_done(&self.s):
            return self.fail(HAND_OVER, 0, 0, 0)
        hand_timeout(&self.s)
        return <int> HAND_OK

    def timed_out(self):
        """Seats timed out in this hand, in the order they timed out."""
        return tuple([self.s.tout_seq[i] for i in range(self.s.ntout)])

    def automatic(self):
        """(reason code, destinations) of the automatic move available to the
        player to act, or (0, None)."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int reason
        if hand_done(&self.s):
            return 0, None
        reason = hand_automatic(&self.s, dest)
        if reason == AUTO_NONE:
            return 0, None
        return reason, self.dest_tuple(dest)

    def run_automatic(self):
        hand_run_auto(&self.s)

    def is_dead(self, int p):
        """Player p's layout cannot be completed legally with cards p has not
        seen (dealt cards in hand count as available)."""
        self.check_seat(p)
        return hand_is_dead(&self.s, p)

    # ------------------------------------------------------- copies, pickles
    cpdef HandCore copy(self):
        """An independent copy: one struct assignment (the rules are shared)."""
        cdef HandCore c = HandCore.__new__(HandCore)
        c.pr = self.pr
        c.s = self.s
        c.err = self.err
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        """Pickled as the deal and the moves, replayed (and so validated) on load."""
        P = self.s.n_players
        turns = [(cards, rows, reason) for _, _, cards, rows, reason in self.history()]
        return (_rebuild_hand, (self.pr, P, self.deck_order(), self.s.button,
                                tuple([self.s.fl_cards[p] for p in range(P)]),
                                tuple([self.s.fl_count[p] for p in range(P)]),
                                bool(self.s.auto), turns, self.timed_out(), self.dead_flags()))

    def _replay(self, turns, timed_out, dead, auto):
        """Replay recorded turns (cards, rows, reason) without automatic
        moves; returns the status (HAND_OK, or the first problem)."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int p, st
        cdef int r
        for cards, rows, reason in turns:
            r = reason
            if not AUTO_NONE <= r <= AUTO_TIMEOUT:
                return self.fail(BAD_REASON, r, 0, 0)
            st = self.check_into(cards, rows, dest)
            if st:
                return st
            hand_apply(&self.s, dest, r)
        for seat in timed_out:
            p = seat
            if not 0 <= p < self.s.n_players:
                return self.fail(NO_SEAT, p, 0, 0)
            hand_mark_timed_out(&self.s, p)
        for p in range(self.s.n_players):
            self.s.dead[p] = 1 if dead[p] else 0
        self.s.auto = 1 if auto else 0
        return <int> HAND_OK

    def layout(self, int p):
        self.check_seat(p)
        return bytes(self.s.lay[p][:self.s.pr.NC])

    def discards(self, int p):
        cdef uint8_t out[OFC_MAX_DEAL]
        cdef int n
        self.check_seat(p)
        n = hand_discards(&self.s, p, out)
        return bytes(out[:n])

    def visible(self, int p):
        """Layouts as player p sees them (hidden fantasyland hands EMPTY)."""
        cdef uint8_t out[HAND_MAX_SEATS * PLAY_MAX_CARDS]
        self.check_seat(p)
        hand_view(&self.s, p, out)
        return bytes(out[:self.s.n_players * self.s.pr.NC])

    def seen(self, int p):
        self.check_seat(p)
        return hand_seen(&self.s, p, True)

    def dead_flags(self):
        return tuple([bool(self.s.dead[p]) for p in range(self.s.n_players)])

    def fantasyland(self):
        return (tuple([self.s.fl_cards[p] for p in range(self.s.n_players)]),
                tuple([self.s.fl_count[p] for p in range(self.s.n_players)]))

    def order_seats(self):
        return tuple([self.s.order[q] for q in range(self.s.n_players)])

    def schedule(self):
        return [(self.s.seat[t], self.s.street[t], hand_turn_dealt(&self.s, t),
                 hand_turn_keep(&self.s, t)) for t in range(self.s.n_turns)]

    def history(self):
        """Per played turn: (seat, street, dealt cards, destinations, reason
        code), rebuilt from the deck, the schedule and where each card went."""
        return hand_turns(&self.s)

    def deck_order(self):
        return bytes(self.s.deck[:self.s.pr.deck])

    def move_layouts(self, int64_t limit=-1):
        """Layouts after each move of the player to act (first `limit` moves):
        ((M, n_cards) uint8, (M, discards) uint8)."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef uint8_t lay[PLAY_MAX_CARDS]
        cdef int64_t k, n = hand_n_moves(&self.s)
        cdef int NC = self.s.pr.NC, nd = self.s.ncur - self.s.nkeep
        if limit >= 0 and limit < n:
            n = limit
        lays = np.empty((n, NC), np.uint8)
        discs = np.empty((n, nd), np.uint8)
        cdef uint8_t[:, ::1] L = lays
        cdef uint8_t[:, ::1] D = discs
        for k in range(n):
            hand_unrank(&self.s, k, dest)
            hand_after(&self.s, dest, lay, &D[k, 0] if nd else NULL)
            memcpy(&L[k, 0], lay, NC)
        return lays, discs

    def settle(self):
        """The finished hand's points per seat and what the match rule makes
        of it (hand_next): (points, next fantasyland cards, next counts, next
        button, whether the button moved); None while the hand goes on."""
        cdef ofc_layout_eval e[HAND_MAX_SEATS]
        cdef int32_t pts[HAND_MAX_SEATS]
        cdef hand_sequel nx
        cdef int p, P = self.s.n_players
        if not hand_result(&self.s, e, pts):
            return None
        hand_next(&self.s, e, &nx)
        return (tuple([pts[p] for p in range(P)]), tuple([nx.fl_cards[p] for p in range(P)]),
                tuple([nx.fl_count[p] for p in range(P)]), nx.button, bool(nx.button_moved))

    def result(self):
        """Showdown: (points, foul, royalty_total, royalties per row, strengths
        per row, next fantasyland cards, repeat, next fantasyland count) as
        tuples per seat, or None while the hand is not finished."""
        cdef ofc_layout_eval e[HAND_MAX_SEATS]
        cdef int32_t pts[HAND_MAX_SEATS]
        cdef hand_sequel nx
        cdef int p, i, R = self.s.pr.R
        if not hand_result(&self.s, e, pts):
            return None
        hand_next(&self.s, e, &nx)
        P = self.s.n_players
        return (tuple([pts[p] for p in range(P)]),
                tuple([bool(e[p].foul) for p in range(P)]),
                tuple([e[p].royalty_total for p in range(P)]),
                tuple([tuple([e[p].royalty[i] for i in range(R)]) for p in range(P)]),
                tuple([tuple([e[p].strength[i] for i in range(R)]) for p in range(P)]),
                tuple([e[p].fantasyland for p in range(P)]),
                tuple([bool(e[p].repeat) for p in range(P)]),
                tuple([nx.fl_count[p] for p in range(P)]))


def _rebuild_hand(PlayRules pr, n_players, deck, button, fl_cards, fl_count, auto, turns,
                  timed_out, dead):
    """Unpickle a HandCore: deal again, replay the recorded turns (validated);
    a pickle that does not replay raises ValueError carrying the status."""
    cdef HandCore core = HandCore(pr)
    st = core.deal(n_players, deck, button, fl_cards, fl_count, False)
    if not st:
        st = core._replay(turns, timed_out, dead, auto)
    if st:
        raise ValueError(HandStatus(st), core.error_detail())
    return core
