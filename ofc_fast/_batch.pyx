# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
# cython: initializedcheck=False
"""The batch engine's C loops: many games of OFC advanced together without
the GIL (``ofc_fast.sim.GameBatch`` is the Python face; it validates, this
module trusts it, except for the actions of :meth:`BatchCore.check_actions`).

Design
------
* a game is one plain struct (``sim_game``): the hand in play (``ofc_hand``
  of ``_hand.pxd``: the state machine is shared, not copied), its deck key,
  its policy stream, the next hand's fantasyland, the button and the last
  finished hand; the per-game counters Python reads (state, scores,
  rewards, hands finished) live in numpy arrays beside the structs, so
  reading them costs no gather;
* decks: hand ``k`` of game ``i`` deals ``hand_deck(key_i, k)`` (52 cards and
  the variant's jokers), key_i the
  64-bit key of the entropy ``[seed, i]`` (``ofc_seed_key``, numpy's
  SeedSequence computed in C), which is ``Match(seed=[seed, i])``'s hand k;
* the engine plays every turn that is not an external seat's street turn:
  the built-in policies (``_policies.policy_move``: the same C a Python
  policy object runs), and an external seat's fantasyland deals (the exact
  solver); automatic moves, time-outs, the showdown and the match rule
  between hands are the hand state machine's (``_hand``);
* each game draws its policies' random numbers from its own stream, seeded
  per hand by (key, hand), so a game's play never depends on the others,
  on chunks or on threads;
* actions: the action codes of ``_order`` (base-(R + 1) digits, digit j the
  destination of dealt card j), listed per street and room vector in the
  move order.
"""
from libc.stdint cimport int8_t, int32_t, int64_t, intptr_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

import numpy as np

from ofc_fast._cards cimport OFC_EMPTY as EMPTY
from ofc_fast._eval cimport OFC_MAX_DEAL
from ofc_fast._hand cimport (AUTO_NONE, HAND_MAX_SEATS, hand_all_discards, hand_apply, hand_cards,
                             hand_deal, hand_deck, hand_dest_problem, hand_discards, hand_done,
                             hand_next, hand_result, hand_run_auto, hand_seen, hand_sequel,
                             hand_timeout, hand_turns, hand_view, ofc_hand)
from ofc_fast._layout cimport OFC_MAX_ROWS, ofc_layout_eval
from ofc_fast._order cimport (ACTION_DIGITS, ACTION_RANGE, ORDER_ROOMS, count_moves,
                              order_actions, order_decode, room_index)
from ofc_fast._play cimport PLAY_MAX_CARDS, PLAY_MAX_DECK, PlayRules, ofc_play
from ofc_fast._policies cimport (POL_EXTERNAL, POL_RANDOM, POLICY_STOPPED, policy_fantasyland,
                                 policy_move, policy_params, policy_work, policy_work_free,
                                 policy_work_init)
from ofc_fast._rng cimport ofc_rng, ofc_rng_seed, ofc_seed_key
from ofc_fast._stop cimport Stop, ofc_stop, ofc_stop_now, stop_begin, stop_end

cdef enum:
    ST_LIVE = 0          # the hand goes on; the engine plays the seat to act
    ST_WAIT = 1          # an external seat acts
    ST_OVER = 2          # the hand is over and scored; the next one is not dealt

    MAX_DISC = OFC_MAX_DEAL   # one seat's discards in one hand

    # why an action is not legal (check_actions): ACTION_RANGE, ACTION_DIGITS
    # (_order), or
    BAD_MOVE = 3         # not a legal move (hand_dest_problem)

    ACT_TIMEOUT = -1     # the action of a seat that runs out of time

STATES = {"live": ST_LIVE, "wait": ST_WAIT, "over": ST_OVER}
"""Game states: ``wait`` an external seat acts, ``over`` the hand is over
and the next one is not dealt, ``live`` the engine has turns to play."""

ACTION_PROBLEMS = {ACTION_RANGE: "outside the action space",
                   ACTION_DIGITS: "names a destination for a card that was not dealt",
                   BAD_MOVE: "is not a legal move"}
"""Why :meth:`BatchCore.check_actions` refused an action, by code."""

TIMEOUT = ACT_TIMEOUT
"""The action of a seat that runs out of time (its time-out placements for
the rest of the hand)."""

MAX_DISCARDS = MAX_DISC

cdef uint64_t POLICY_SALT = <uint64_t> 0x3C6EF372FE94F82B   # policy streams: (key ^ salt, hand)

POLICY_STREAM_SALT = POLICY_SALT
"""Hand ``k`` of a batch game with deck key ``key`` draws its policies'
randomness from the stream ``(key ^ POLICY_STREAM_SALT, k)``."""


cdef struct sim_conf:
    const ofc_play *pr
    int P, R, NC, kmax, auto, auto_deal
    int64_t pw[OFC_MAX_DEAL + 1]     # (R + 1) ** j
    int64_t n_actions                # (R + 1) ** kmax
    policy_params pol[HAND_MAX_SEATS]


cdef struct sim_game:
    ofc_hand h
    ofc_rng g                        # the policies' stream of this hand
    uint64_t key                     # deck key: hand k deals hand_deck(key, k)
    int64_t hand_no                  # the hand in play (its deck number)
    uint8_t next_cards[HAND_MAX_SEATS]
    uint8_t next_count[HAND_MAX_SEATS]
    uint8_t button
    uint8_t oom                      # the solver ran out of memory (a fallback move was played)
    # the last finished hand
    int64_t last_no                  # its number, -1: none yet
    int32_t last_points[HAND_MAX_SEATS]
    uint8_t last_button
    uint8_t last_fl[HAND_MAX_SEATS]
    uint8_t last_foul[HAND_MAX_SEATS]
    int32_t last_royalty[HAND_MAX_SEATS]
    uint8_t last_next[HAND_MAX_SEATS]     # the fantasyland deal earned (0: none)
    uint8_t last_nd[HAND_MAX_SEATS]
    uint8_t last_lay[HAND_MAX_SEATS][PLAY_MAX_CARDS]
    uint8_t last_disc[HAND_MAX_SEATS][MAX_DISC]


cdef struct sim_legal:
    # every street's legal actions by the rooms of the seat to act (its rows'
    # free slots add up to what the street leaves, so few room vectors occur)
    int32_t *codes
    int64_t *start        # (street, room index) -> first code, -1: not built
    int32_t *count


cdef struct sim_arrays:
    # the per-game arrays Python reads (rows of n_games)
    uint8_t *state
    int64_t *scores                  # (n, P) running points
    int64_t *rewards                 # (n, P) points of hands finished since cleared
    int32_t *finished                # hands finished since cleared
    int64_t *hands                   # hands finished in all
    int64_t *decisions               # policy decisions played (built-in and external)


cdef struct sim_rec:
    # rows of finished hands (run(record=True), last_hands)
    int64_t *game
    int64_t *hand
    int8_t *button
    uint8_t *layouts                 # (N, P, NC)
    uint8_t *discards                # (N, P, D)
    int D
    uint8_t *fantasyland             # (N, P) fantasyland count of the hand
    int32_t *points                  # (N, P)
    uint8_t *foul                    # (N, P)
    int32_t *royalty                 # (N, P) royalty totals
    uint8_t *next_fantasyland        # (N, P) the fantasyland deal earned


STATE_BYTES = sizeof(sim_game)
"""Bytes of one game's C state (its arrays of scores and flags aside)."""


# ---------------------------------------------------------------------- keys
cdef int entropy_words(uint64_t x, uint32_t *out) noexcept nogil:
    """The 32-bit words numpy's SeedSequence makes of an int >= 0."""
    if x == 0:
        out[0] = 0
        return 1
    cdef int n = 0
    while x:
        out[n] = <uint32_t> x
        x >>= 32
        n += 1
    return n


def seed_keys(const uint32_t[::1] words, uint64_t first, intptr_t n):
    """The deck keys of games first .. first + n - 1: the key of the entropy
    ``words + [i]`` (``kernel_seed([*seed, i])`` when ``words`` are the
    seed's SeedSequence words), as a uint64 array."""
    out = np.empty(n, np.uint64)
    cdef uint64_t[::1] o = out
    cdef intptr_t i, nw = words.shape[0]
    cdef uint32_t *buf = <uint32_t *> malloc((nw + 2) * sizeof(uint32_t))
    if buf == NULL:
        raise MemoryError()
    try:
        if nw:
            memcpy(buf, &words[0], nw * sizeof(uint32_t))
        with nogil:
            for i in range(n):
                o[i] = ofc_seed_key(buf, <int> nw + entropy_words(first + <uint64_t> i, buf + nw))
    finally:
        free(buf)
    return out


# ------------------------------------------------------------------ actions
cdef int decode_action(const sim_conf *C, const ofc_hand *h, int64_t a,
                       int8_t *dest) noexcept nogil:
    """dest of action a for the player to act: 0, or why it is not legal."""
    cdef int bad = order_decode(a, h.ncur, C.R, C.n_actions, dest)
    if bad:
        return bad
    return BAD_MOVE if hand_dest_problem(h, dest) else 0


# --------------------------------------------------------------------- games
cdef void deal_hand(sim_game *G, const sim_conf *C, const uint8_t *deck) noexcept nogil:
    """Deal hand G.hand_no (from its seeded deck, or deck) and seed its policy stream."""
    cdef uint8_t d[PLAY_MAX_DECK]
    if deck == NULL:
        hand_deck(G.key, <uint64_t> G.hand_no, C.pr.deck, d)
        deck = d
    hand_deal(&G.h, C.pr, C.P, G.button, deck, G.next_cards, G.next_count, C.auto)
    ofc_rng_seed(&G.g, G.key ^ POLICY_SALT, <uint64_t> G.hand_no)


cdef void finish_hand(sim_game *G, const sim_conf *C, sim_arrays *A, int64_t i) noexcept nogil:
    """Score the finished hand, keep it as the last hand, and start the next
    from what the match rule makes of it (hand_next: fantasyland, button)."""
    cdef ofc_hand *h = &G.h
    cdef ofc_layout_eval ev[HAND_MAX_SEATS]
    cdef int32_t pts[HAND_MAX_SEATS]
    cdef hand_sequel nx
    cdef int p, P = C.P
    hand_result(h, ev, pts)
    hand_next(h, ev, &nx)
    hand_all_discards(h, G.last_nd, &G.last_disc[0][0])
    G.last_no = G.hand_no
    G.last_button = G.button
    for p in range(P):
        A.scores[i * P + p] += pts[p]
        A.rewards[i * P + p] += pts[p]
        G.last_points[p] = pts[p]
        G.last_fl[p] = h.fl_count[p] if h.fl_cards[p] else 0
        G.last_foul[p] = ev[p].foul
        G.last_royalty[p] = ev[p].royalty_total
        G.last_next[p] = nx.fl_cards[p]
        memcpy(G.last_lay[p], h.lay[p], PLAY_MAX_CARDS)
        G.next_cards[p] = nx.fl_cards[p]
        G.next_count[p] = nx.fl_count[p]
    G.button = nx.button
    A.finished[i] += 1
    A.hands[i] += 1
    A.state[i] = ST_OVER


cdef void write_rec(const sim_game *G, const sim_conf *C, int64_t i, sim_rec *R,
                    int64_t row) noexcept nogil:
    cdef int p, j, P = C.P, NC = C.NC
    R.game[row] = i
    R.hand[row] = G.last_no
    R.button[row] = <int8_t> G.last_button
    for p in range(P):
        memcpy(R.layouts + (row * P + p) * NC, G.last_lay[p], NC)
        for j in range(R.D):
            R.discards[(row * P + p) * R.D + j] = G.last_disc[p][j] if j < G.last_nd[p] \
                else EMPTY
        R.fantasyland[row * P + p] = G.last_fl[p]
        R.points[row * P + p] = G.last_points[p]
        R.foul[row * P + p] = G.last_foul[p]
        R.royalty[row * P + p] = G.last_royalty[p]
        R.next_fantasyland[row * P + p] = G.last_next[p]


cdef int play_turn(sim_game *G, const sim_conf *C, policy_work *W, sim_arrays *A,
                   int64_t i, ofc_stop *S) noexcept nogil:
    """Play the engine's turn of the seat to act (its built-in policy, or a
    fantasyland deal of an external seat: the exact solver): 0, 1 when
    an external seat acts on a street, or 2 when S stopped the decision
    (nothing played, the game's stream as before it)."""
    cdef ofc_hand *h = &G.h
    cdef const policy_params *pol = &C.pol[h.seat[h.turn]]
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef int st
    if pol.kind == POL_EXTERNAL:
        if h.street[h.turn] >= 0:
            return 1
        if policy_fantasyland(h, pol.fl_value, dest):
            G.oom = 1
    else:
        st = policy_move(pol, h, &G.g, W, dest, 0, NULL, S)
        if st == POLICY_STOPPED:
            return 2
        if st:
            G.oom = 1
        A.decisions[i] += 1
    hand_apply(h, dest, AUTO_NONE)
    hand_run_auto(h)
    return 0


cdef int advance(sim_game *G, const sim_conf *C, policy_work *W, sim_arrays *A, int64_t i,
                 int64_t hands, sim_rec *R, int64_t row0, ofc_stop *S) noexcept nogil:
    """Play game i's engine turns.  hands < 0: until an external seat acts
    (state WAIT), or the hand is over and auto_deal is off (OVER), dealing
    the next hand otherwise.  hands >= 0: until `hands` hands have finished
    (dealing between them), then deal the next one when auto_deal is on;
    each finished hand is written to R (when not NULL) at rows row0, row0 + 1 ...
    Returns 1 when S says stop (the game stays LIVE, at a turn: consistent),
    else 0."""
    cdef int64_t done = 0
    cdef int st
    while True:
        if ofc_stop_now(S):
            return 1
        if A.state[i] == ST_OVER:
            if hands >= 0 and done >= hands:
                if C.auto_deal:
                    G.hand_no += 1
                    deal_hand(G, C, NULL)
                    A.state[i] = ST_LIVE
                return 0
            if hands < 0 and not C.auto_deal:
                return 0
            G.hand_no += 1
            deal_hand(G, C, NULL)
            A.state[i] = ST_LIVE
            continue
        if hands >= 0 and done >= hands:
            return 0            # the hands asked for are played (and the next dealt)
        if hand_done(&G.h):
            finish_hand(G, C, A, i)
            if R != NULL:
                write_rec(G, C, i, R, row0 + done)
            done += 1
            continue
        st = play_turn(G, C, W, A, i, S)
        if st == 2:
            return 1            # stopped in a decision: the game stays at the turn
        if st:
            A.state[i] = ST_WAIT
            return 0
        A.state[i] = ST_LIVE


# ------------------------------------------------------------------- the core
cdef class BatchCore:
    """The C state of a batch of games (``ofc_fast.sim.GameBatch`` builds and
    drives it).  Methods taking ``lo, hi`` work on games (or rows of an
    index array) ``lo .. hi - 1`` without the GIL, so threads split them."""
    cdef PlayRules pr
    cdef sim_conf conf
    cdef sim_game *games
    cdef sim_arrays arr
    cdef readonly int64_t n_games
    cdef readonly object state, scores, rewards, finished, hands, decisions
    cdef readonly int64_t max_legal
    cdef sim_legal legal

    def __cinit__(self):
        self.games = NULL
        self.legal.codes = NULL
        self.legal.start = NULL
        self.legal.count = NULL

    def __init__(self, PlayRules pr, int n_players, const uint64_t[::1] keys, policies,
                 bint auto, bint auto_deal, fl_cards, fl_count, int button):
        cdef int p, s, j
        cdef intptr_t i, n = keys.shape[0]
        cdef sim_conf *C = &self.conf
        cdef uint8_t room[OFC_MAX_ROWS]
        cdef int64_t L = 1, c
        self.pr = pr
        C.pr = &pr.c
        C.P = n_players
        C.R = pr.c.R
        C.NC = pr.c.NC
        C.auto = auto
        C.auto_deal = auto_deal
        C.kmax = 0
        for s in range(pr.c.nst):
            if pr.c.sdealt[s] > C.kmax:
                C.kmax = pr.c.sdealt[s]
            for j in range(OFC_MAX_ROWS):
                room[j] = <uint8_t> pr.c.row_len[j]
            c = count_moves(pr.c.sdealt[s], pr.c.skeep[s], room)
            if c > L:
                L = c
        self.max_legal = L
        C.pw[0] = 1
        for j in range(1, OFC_MAX_DEAL + 1):
            C.pw[j] = C.pw[j - 1] * (C.R + 1) if j <= C.kmax else 0
        C.n_actions = C.pw[C.kmax]
        for p in range(HAND_MAX_SEATS):
            (kind, samples, tries, max_moves, foul_cost, fl_value, sn, sz, sfirst,
             sbudget) = policies[p] if p < n_players else (POL_RANDOM, 1, 1, 1, 0.0, 0.0, 1,
                                                           0.0, 1, 0.0)
            C.pol[p].kind = kind
            C.pol[p].samples = samples
            C.pol[p].tries = tries
            C.pol[p].max_moves = max_moves
            C.pol[p].foul_cost = foul_cost
            C.pol[p].fl_value = fl_value
            C.pol[p].fl_bonus = <int> fl_value
            C.pol[p].solver.n = sn
            C.pol[p].solver.tries = tries
            C.pol[p].solver.fantasyland_value = fl_value
            C.pol[p].solver.z = sz
            C.pol[p].solver.first_round = sfirst
            C.pol[p].solver.time_budget_ms = sbudget
        self.n_games = n
        self.state = np.zeros(n, np.uint8)
        self.scores = np.zeros((n, n_players), np.int64)
        self.rewards = np.zeros((n, n_players), np.int64)
        self.finished = np.zeros(n, np.int32)
        self.hands = np.zeros(n, np.int64)
        self.decisions = np.zeros(n, np.int64)
        self._bind()
        self.games = <sim_game *> malloc(max(n, 1) * sizeof(sim_game))
        if self.games == NULL:
            raise MemoryError(f"a batch of {n:,} games")
        for i in range(n):
            self.games[i].key = keys[i]
            self.games[i].hand_no = 0
            self.games[i].button = <uint8_t> button
            self.games[i].oom = 0
            self.games[i].last_no = -1
            for p in range(HAND_MAX_SEATS):
                self.games[i].next_cards[p] = fl_cards[p] if p < n_players else 0
                self.games[i].next_count[p] = fl_count[p] if p < n_players else 0

    def _bind(self):
        cdef uint8_t[::1] st = self.state
        cdef int64_t[:, ::1] sc = self.scores
        cdef int64_t[:, ::1] rw = self.rewards
        cdef int32_t[::1] fi = self.finished
        cdef int64_t[::1] hd = self.hands
        cdef int64_t[::1] dc = self.decisions
        self.arr.state = &st[0] if st.shape[0] else NULL
        self.arr.scores = &sc[0, 0] if sc.shape[0] else NULL
        self.arr.rewards = &rw[0, 0] if rw.shape[0] else NULL
        self.arr.finished = &fi[0] if fi.shape[0] else NULL
        self.arr.hands = &hd[0] if hd.shape[0] else NULL
        self.arr.decisions = &dc[0] if dc.shape[0] else NULL

    def __dealloc__(self):
        free(self.games)
        free(self.legal.codes)
        free(self.legal.start)
        free(self.legal.count)

    def prepare_legal(self):
        """Build the legal-action lists observe_into reads (once, before threads)."""
        if self.legal.codes == NULL:
            self._build_legal()

    @property
    def legal_codes(self):
        """How many legal actions the lists hold (all streets, all rooms)."""
        cdef int64_t ri, n = 0
        if self.legal.codes == NULL:
            return 0
        for ri in range(max(self.conf.pr.nst, 1) * ORDER_ROOMS):
            n += self.legal.count[ri]
        return n

    cdef int _build_legal(self) except -1:
        """The legal-action lists of every street and every room vector a seat
        can have on it: counted, allocated, then written."""
        cdef int64_t ri, n_rooms = max(self.conf.pr.nst, 1) * ORDER_ROOMS
        cdef int64_t total = self._room_lists(False)
        self.legal.codes = <int32_t *> malloc(max(total, 1) * sizeof(int32_t))
        self.legal.start = <int64_t *> malloc(n_rooms * sizeof(int64_t))
        self.legal.count = <int32_t *> malloc(n_rooms * sizeof(int32_t))
        if self.legal.codes == NULL or self.legal.start == NULL or self.legal.count == NULL:
            raise MemoryError("the legal-action lists")
        for ri in range(n_rooms):
            self.legal.start[ri] = -1
            self.legal.count[ri] = 0
        self._room_lists(True)
        return 0

    cdef int64_t _room_lists(self, bint fill) noexcept:
        """Walk every street's room vectors (the street's rooms add up to the
        slots it leaves) and count their legal actions; with ``fill``, also
        write each list into ``self.legal``.  The total count."""
        cdef const ofc_play *pr = self.conf.pr
        cdef int s, a, b, c, d, left = pr.NC
        cdef uint8_t room[4]
        cdef int64_t total = 0, m, ri
        for s in range(pr.nst):
            for a in range(pr.row_len[0] + 1):
                for b in range(pr.row_len[1] + 1):
                    for c in range(pr.row_len[2] + 1):
                        for d in range(pr.row_len[3] + 1):
                            if a + b + c + d != left:
                                continue
                            room[0], room[1], room[2], room[3] = a, b, c, d
                            if not fill:
                                total += count_moves(pr.sdealt[s], pr.skeep[s], room)
                                continue
                            ri = s * ORDER_ROOMS + room_index(room)
                            m = order_actions(pr.sdealt[s], pr.skeep[s], room, self.conf.R,
                                              self.legal.codes + total)
                            self.legal.start[ri] = total
                            self.legal.count[ri] = <int32_t> m
                            total += m
            left -= pr.skeep[s]
        return total

    @property
    def n_actions(self):
        return self.conf.n_actions

    @property
    def max_cards(self):
        return self.conf.kmax

    # ------------------------------------------------------------ the loops
    def deal_first(self, intptr_t lo, intptr_t hi, decks=None):
        """Deal the first hand of games lo .. hi - 1 (state LIVE), from their
        seeded decks or from decks (n_games, deck size)."""
        cdef intptr_t i
        cdef const uint8_t[:, ::1] d
        cdef bint given = decks is not None
        if given:
            d = decks
        with nogil:
            for i in range(lo, hi):
                deal_hand(&self.games[i], &self.conf, &d[i, 0] if given else NULL)
                self.arr.state[i] = ST_LIVE

    def advance(self, intptr_t lo, intptr_t hi, int64_t hands, Stop stop not None, rec=None):
        """advance() games lo .. hi - 1 (see the C function), until stop; rec:
        the arrays of run_recorded, rows (game - lo_of_rec) * hands ..."""
        cdef intptr_t i
        cdef policy_work W
        cdef sim_rec R
        cdef sim_rec *rp = NULL
        cdef int64_t base = 0
        cdef ofc_stop S
        stop_begin(&S, stop)
        policy_work_init(&W)
        if rec is not None:
            base = rec[0]
            self._rec(rec[1:], &R)
            rp = &R
        try:
            with nogil:
                for i in range(lo, hi):
                    if self.arr.state[i] != ST_WAIT and advance(
                            &self.games[i], &self.conf, &W, &self.arr, i, hands, rp,
                            (i - base) * hands, &S):
                        break
        finally:
            policy_work_free(&W)
        stop_end(&S)

    def advance_games(self, const int64_t[::1] idx, intptr_t lo, intptr_t hi,
                      Stop stop not None):
        """Play the engine's turns of games idx[lo .. hi - 1] up to an external
        seat's (or the hand's end, auto_deal off), until stop."""
        cdef intptr_t j
        cdef policy_work W
        cdef ofc_stop S
        stop_begin(&S, stop)
        policy_work_init(&W)
        try:
            with nogil:
                for j in range(lo, hi):
                    if self.arr.state[idx[j]] == ST_LIVE and advance(
                            &self.games[idx[j]], &self.conf, &W, &self.arr, idx[j], -1, NULL, 0,
                            &S):
                        break
        finally:
            policy_work_free(&W)
        stop_end(&S)

    cdef int _rec(self, arrays, sim_rec *R) except -1:
        cdef int64_t[::1] g = arrays[0]
        cdef int64_t[::1] h = arrays[1]
        cdef int8_t[::1] b = arrays[2]
        cdef uint8_t[:, :, ::1] lay = arrays[3]
        cdef uint8_t[:, :, ::1] disc = arrays[4]
        cdef uint8_t[:, ::1] fl = arrays[5]
        cdef int32_t[:, ::1] pts = arrays[6]
        cdef uint8_t[:, ::1] foul = arrays[7]
        cdef int32_t[:, ::1] roy = arrays[8]
        cdef uint8_t[:, ::1] nxt = arrays[9]
        if g.shape[0] == 0:
            R.game = NULL
            return 0
        if (lay.shape[1] != self.conf.P or lay.shape[2] != self.conf.NC
                or disc.shape[2] > MAX_DISC):
            raise ValueError("record arrays do not match the batch")
        R.game = &g[0]
        R.hand = &h[0]
        R.button = &b[0]
        R.layouts = &lay[0, 0, 0]
        R.discards = &disc[0, 0, 0] if disc.shape[2] else NULL
        R.D = <int> disc.shape[2]
        R.fantasyland = &fl[0, 0]
        R.points = &pts[0, 0]
        R.foul = &foul[0, 0]
        R.royalty = &roy[0, 0]
        R.next_fantasyland = &nxt[0, 0]
        return 0

    def last_into(self, const int64_t[::1] idx, arrays):
        """The last finished hand of games idx into the record arrays (rows
        in idx order)."""
        cdef sim_rec R
        cdef intptr_t j
        self._rec(arrays, &R)
        with nogil:
            for j in range(idx.shape[0]):
                write_rec(&self.games[idx[j]], &self.conf, idx[j], &R, j)

    def deal_next(self, const int64_t[::1] idx, decks=None):
        """Deal the next hand of games idx (state OVER), from their seeded decks
        or from decks (len(idx), deck size); advance_games plays them on."""
        cdef const uint8_t[:, ::1] d
        cdef intptr_t j, i
        if decks is not None:
            d = decks
        for j in range(idx.shape[0]):
            i = idx[j]
            self.games[i].hand_no += 1
            deal_hand(&self.games[i], &self.conf, &d[j, 0] if decks is not None else NULL)
            self.arr.state[i] = ST_LIVE

    def stream_state(self, intptr_t i):
        """Game i's policy stream now (four 64-bit words): what its built-in
        seats draw from next (the equivalence tests give a Python policy the
        same stream)."""
        return tuple([self.games[i].g.s[k] for k in range(4)])

    def check_actions(self, const int64_t[::1] idx, const int64_t[::1] actions):
        """(-1, 0) when every action is legal for its game (all waiting), else
        (position of the first bad one, its problem code)."""
        cdef intptr_t j
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int bad = 0
        cdef const sim_game *G
        with nogil:
            for j in range(idx.shape[0]):
                G = &self.games[idx[j]]
                if actions[j] == ACT_TIMEOUT:
                    continue
                bad = decode_action(&self.conf, &G.h, actions[j], dest)
                if bad:
                    break
        if bad:
            return j, bad
        return -1, 0

    def apply_actions(self, const int64_t[::1] idx, const int64_t[::1] actions):
        """Play checked actions, one per game of idx (waiting); advance_games
        plays them on."""
        cdef intptr_t j, i
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef sim_game *G
        with nogil:
            for j in range(idx.shape[0]):
                i = idx[j]
                G = &self.games[i]
                if actions[j] == ACT_TIMEOUT:
                    hand_timeout(&G.h)
                else:
                    decode_action(&self.conf, &G.h, actions[j], dest)
                    hand_apply(&G.h, dest, AUTO_NONE)
                    hand_run_auto(&G.h)
                    self.arr.decisions[i] += 1
                self.arr.state[i] = ST_LIVE

    def observe_into(self, const int64_t[::1] idx, const int8_t[::1] seats, intptr_t lo,
                     intptr_t hi, uint8_t[::1] seat, int8_t[::1] street, int8_t[::1] button,
                     uint8_t[:, ::1] hand, uint8_t[::1] keep, uint8_t[:, :, ::1] layouts,
                     uint8_t[:, ::1] discards, uint8_t[:, ::1] fantasyland,
                     uint8_t[:, ::1] unseen, int32_t[:, ::1] legal, int32_t[::1] n_legal,
                     uint8_t[:, ::1] mask):
        """What seat seats[j] (the seat to act when seats is empty; it must act
        then) of game idx[j] sees, rows lo .. hi - 1, and the legal actions
        and their mask when it acts on a street (rows of mask, legal and
        n_legal may be empty arrays: not wanted).  street is -2 for a seat
        that does not act (or a hand over)."""
        cdef intptr_t j, i
        cdef const ofc_hand *h
        cdef int p, q, c, k, P = self.conf.P
        cdef int64_t m
        cdef bint done, acts, want_mask = mask.shape[0] > 0, want_legal = legal.shape[0] > 0
        cdef bint given = seats.shape[0] > 0
        cdef uint64_t seen
        cdef const uint8_t *cur
        cdef uint8_t disc[OFC_MAX_DEAL]
        cdef const int32_t *lst = NULL
        cdef int64_t ri
        if self.legal.codes == NULL and (want_legal or want_mask):
            self._build_legal()         # GameBatch builds it first (prepare_legal)
        with nogil:
            for j in range(lo, hi):
                i = idx[j]
                h = &self.games[i].h
                done = hand_done(h)
                p = seats[j] if given else h.seat[h.turn]
                acts = not done and h.seat[h.turn] == p
                seat[j] = <uint8_t> p
                street[j] = h.street[h.turn] if acts else -2
                button[j] = <int8_t> h.button
                keep[j] = h.nkeep if acts else 0
                cur = hand_cards(h)
                for k in range(hand.shape[1]):
                    hand[j, k] = cur[k] if acts and k < h.ncur else EMPTY
                for q in range(P):
                    fantasyland[j, q] = h.fl_count[q] if h.fl_cards[q] else 0
                hand_view(h, p, &layouts[j, 0, 0])
                c = hand_discards(h, p, disc)
                for k in range(discards.shape[1]):
                    discards[j, k] = disc[k] if k < c else EMPTY
                seen = hand_seen(h, p, True)
                for k in range(unseen.shape[1]):      # the deck's cards: jokers after the 52
                    unseen[j, k] = not (seen >> k) & 1
                if want_legal or want_mask:
                    m = 0
                    if acts and street[j] >= 0:
                        ri = street[j] * ORDER_ROOMS + room_index(h.room[p])
                        m = self.legal.count[ri]
                        lst = self.legal.codes + self.legal.start[ri]
                    if want_legal:
                        n_legal[j] = <int32_t> m
                        if m:
                            memcpy(&legal[j, 0], lst, m * sizeof(int32_t))
                        for k in range(m, legal.shape[1]):
                            legal[j, k] = -1
                    if want_mask:
                        for k in range(m):
                            mask[j, lst[k]] = 1

    # ------------------------------------------------------- single games
    def hand_state(self, intptr_t i):
        """Game i's hand as (deck, button, fl_cards, fl_count, auto, turns,
        timed_out, dead): what rebuilds it as a Game."""
        cdef const ofc_hand *h = &self.games[i].h
        cdef int p, P = h.n_players
        turns = [(cards, rows, reason) for _, _, cards, rows, reason in hand_turns(h)]
        return (bytes(h.deck[:h.pr.deck]), h.button,
                tuple([h.fl_cards[p] for p in range(P)]), tuple([h.fl_count[p] for p in range(P)]),
                bool(h.auto), turns, tuple([h.tout_seq[k] for k in range(h.ntout)]),
                tuple([bool(h.dead[p]) for p in range(P)]))

    def turn_info(self, intptr_t i):
        """Game i's turn to act: (seat, street, dealt cards, legal moves), or
        None when its hand is over (for messages, without rebuilding a Game)."""
        cdef const ofc_hand *h = &self.games[i].h
        cdef const uint8_t *cur
        if hand_done(h):
            return None
        cur = hand_cards(h)
        return (h.seat[h.turn], h.street[h.turn], bytes(cur[:h.ncur]),
                count_moves(h.ncur, h.nkeep, h.room[h.seat[h.turn]]))

    def game_info(self, intptr_t i):
        """(hand number in play, button, next fantasyland cards, next counts, key, oom)."""
        cdef const sim_game *G = &self.games[i]
        P = self.conf.P
        return (G.hand_no, G.button, tuple([G.next_cards[p] for p in range(P)]),
                tuple([G.next_count[p] for p in range(P)]), G.key, bool(G.oom))
