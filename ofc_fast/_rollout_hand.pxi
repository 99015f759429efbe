# Included by ofc_fast/_rollout.pyx (move counting and the per-hand state machine); not compiled on its own.

# ----------------------------------------------------------------- move counting
cdef int64_t WAYS[19][4][6][6][6]   # ways to send j labelled cards to rows with these rooms
cdef int64_t BINOM[OFC_MAX_DEAL + 1][OFC_MAX_DEAL + 1]   # a turn deals at most OFC_MAX_DEAL cards


cdef void _init_counts() noexcept:
    cdef int j, a, b, c, d, n, k
    for n in range(OFC_MAX_DEAL + 1):
        for k in range(OFC_MAX_DEAL + 1):
            BINOM[n][k] = 0
        BINOM[n][0] = 1
        for k in range(1, n + 1):
            BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]
    for a in range(4):
        for b in range(6):
            for c in range(6):
                for d in range(6):
                    WAYS[0][a][b][c][d] = 1
    for j in range(1, 19):
        for a in range(4):
            for b in range(6):
                for c in range(6):
                    for d in range(6):
                        WAYS[j][a][b][c][d] = (
                            (WAYS[j - 1][a - 1][b][c][d] if a else 0)
                            + (WAYS[j - 1][a][b - 1][c][d] if b else 0)
                            + (WAYS[j - 1][a][b][c - 1][d] if c else 0)
                            + (WAYS[j - 1][a][b][c][d - 1] if d else 0))


_init_counts()


cdef inline int64_t ways(int j, const int *room) noexcept nogil:
    if j > 18:
        return 0
    return WAYS[j][room[0]][room[1]][room[2]][room[3]]


def count_placements(n, keep, rooms):
    """Number of distinct moves: choose the n - keep discards, then send the
    kept cards to rows with room (rooms: free slots per row, top first; at
    most 3 on the top row and 5 on the others).  0 when keep > n or more
    than OFC_MAX_DEAL cards are dealt."""
    cdef int room[4]
    cdef int i, cn, ck
    rooms = tuple(rooms)
    if len(rooms) > 4:
        raise ValueError(f"rooms: at most 4 rows, got {len(rooms)}")
    for i in range(4):
        room[i] = _bounded(rooms[i], f"rooms[{i}]", 0, 3 if i == 0 else 5, ValueError) \
            if i < len(rooms) else 0
    cn = _bounded(n, "n", 0, 1 << 30, ValueError)
    ck = _bounded(keep, "keep", 0, 1 << 30, ValueError)
    if ck > cn or cn > OFC_MAX_DEAL:
        return 0
    return BINOM[cn][cn - ck] * ways(ck, room)


cdef void unrank_move(int64_t idx, int n, int keep, const int *rooms, int R, int8_t *dest) noexcept nogil:
    """Move number idx (0 <= idx < count) as a destination per dealt card
    (row, or -1 = discard).  Order: discard sets in lexicographic order, then
    row vectors of the kept cards in lexicographic order."""
    cdef int room[4]
    cdef int i, pos, d = n - keep, left, row
    cdef int64_t a, cnt
    for i in range(4):
        room[i] = rooms[i]
    a = ways(keep, room)
    cdef int64_t di = idx // a, ai = idx % a
    for pos in range(n):
        if d > 0:
            cnt = BINOM[n - pos - 1][d - 1]
            if di < cnt:
                dest[pos] = -1
                d -= 1
                continue
            di -= cnt
        dest[pos] = 0     # kept; row chosen below
    left = keep
    for pos in range(n):
        if dest[pos] < 0:
            continue
        for row in range(R):
            if room[row] == 0:
                continue
            room[row] -= 1
            cnt = ways(left - 1, room)
            if ai < cnt:
                dest[pos] = <int8_t> row
                left -= 1
                break
            ai -= cnt
            room[row] += 1


cdef int64_t rank_move(int n, int keep, const int *rooms, int R, const int8_t *dest) noexcept nogil:
    """Inverse of unrank_move (dest assumed valid)."""
    cdef int room[4]
    cdef int i, pos, d = n - keep, left, row
    cdef int64_t di = 0, ai = 0
    for i in range(4):
        room[i] = rooms[i]
    for pos in range(n):
        if d == 0:
            break
        if dest[pos] < 0:
            d -= 1
        else:
            di += BINOM[n - pos - 1][d - 1]
    left = keep
    for pos in range(n):
        if dest[pos] < 0:
            continue
        for row in range(dest[pos]):
            if room[row]:
                room[row] -= 1
                ai += ways(left - 1, room)
                room[row] += 1
        room[dest[pos]] -= 1
        left -= 1
    return di * ways(keep, rooms) + ai


def _bounded(value, what, lo, hi, err=ValueError):
    """``value`` as an int in ``lo .. hi``, or ``err`` naming ``what`` (TypeError
    for a value that is not an integer)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, got {shorten(value)}")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {shorten(value)}") from None
    if not lo <= n <= hi:
        raise err(f"{what} must be {lo} .. {hi}, got {shorten(n)}")
    return n


# --------------------------------------------------------------------- hand core
cdef enum:
    AUTO_NONE = 0
    AUTO_ONLY = 1          # only one legal move
    AUTO_DEAD = 2          # the hand is already dead
    AUTO_ALL_DEAD = 3      # every move makes it dead
    AUTO_TIMEOUT = 4       # time-out placement (the seat timed out for the rest of the hand)

AUTO_CODES = (AUTO_NONE, AUTO_ONLY, AUTO_DEAD, AUTO_ALL_DEAD, AUTO_TIMEOUT)
"""The automatic-move reason codes of the history (``ofc_fast.moves.AUTO_REASONS``
names them)."""


# What a check of the hand core found.  The core never words a problem: its
# checks return one of these, with details in error_detail(), and
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
    BAD_DECK = 18          # not the OFC_DECK cards, each once
    BAD_SCHEDULE = 19      # the rules carry no readable deal
    BAD_FL_CARDS = 20      # (seat, cards)
    BAD_FL_COUNT = 21      # (seat, count)
    DEAL_TOO_BIG = 22      # (cards the deal needs,)
    BAD_REASON = 23        # (reason code,)


cdef struct HState:
    # Everything a hand is, in one plain C struct: a copy of the game is a
    # struct assignment (no Python objects inside; pr is shared, immutable).
    Ctx cx
    int n_players, button, n_turns, turn, deck_used
    int R, NC
    int deck_pos
    int ncur, nkeep
    int auto
    int nst                         # streets per normal player (first street included)
    int ntout                       # seats timed out so far
    int64_t solves
    int64_t err[3]                  # details of the last status (error_detail)
    uint8_t deck[OFC_DECK]
    uint8_t lay[4][18]
    int room[4][4]
    uint8_t disc[4][OFC_MAX_DEAL]
    int ndisc[4]
    int flc[4]
    int flk[4]
    int order[4]
    uint8_t sdealt[MAX_TURNS]
    uint8_t skeep[MAX_TURNS]
    int tp[MAX_TURNS]
    int tdealt[MAX_TURNS]
    int tkeep[MAX_TURNS]
    int tstreet[MAX_TURNS]
    uint8_t cur[OFC_MAX_DEAL]
    uint8_t deadf[4]
    uint8_t tout[4]                 # seat timed out: its later turns are time-out placements
    uint8_t tout_seq[4]             # seats in the order they timed out
    uint8_t hcards[MAX_TURNS][OFC_MAX_DEAL]
    int8_t hrows[MAX_TURNS][OFC_MAX_DEAL]
    uint8_t hreason[MAX_TURNS]


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
    deck of OFC_DECK cards).  Build through ``ofc_fast.engine.Game``."""
    cdef PlayRules pr
    cdef HState s

    def __init__(self, PlayRules pr):
        memset(&self.s, 0, sizeof(HState))
        self.pr = pr
        self.s.R = pr.R
        self.s.NC = pr.NC

    cdef int fail(self, int status, int64_t a, int64_t b, int64_t c) noexcept:
        self.s.err[0] = a
        self.s.err[1] = b
        self.s.err[2] = c
        return status

    def error_detail(self):
        """Details of the last status a method returned (see :class:`HandStatus`)."""
        return (self.s.err[0], self.s.err[1], self.s.err[2])

    def deal(self, int n_players, deck, int button, fl_cards, fl_count, bint auto):
        """Deal a hand (the rules' streets) and play its first automatic moves;
        returns a :class:`HandStatus` (HAND_OK, or why nothing was dealt)."""
        cdef PlayRules pr = self.pr
        cdef int p, q, i, s, t = 0, total = 0, P = n_players, b = button, NC = pr.NC
        cdef int nst = pr.nst, pdealt = 0
        cdef int64_t c, k
        cdef uint64_t seen = 0
        cdef const uint8_t[::1] d
        cdef int flc[4]
        cdef int flk[4]
        # ---- validate everything before touching the state
        if not 2 <= P <= 4:
            return self.fail(BAD_PLAYERS, P, 0, 0)
        if not 0 <= b < P:
            return self.fail(BAD_BUTTON, b, 0, 0)
        try:
            d = deck
        except (TypeError, ValueError, BufferError):
            return self.fail(BAD_DECK, 0, 0, 0)
        if d.shape[0] != OFC_DECK or ofc_cards_check(&d[0], OFC_DECK, 0, &seen) >= 0:
            return self.fail(BAD_DECK, 0, 0, 0)
        if nst == 0:
            return self.fail(BAD_SCHEDULE, 0, 0, 0)
        for s in range(nst):
            pdealt += pr.sdealt[s]
        if len(fl_cards) < P or len(fl_count) < P:
            return self.fail(BAD_FL_CARDS, -1, 0, 0)
        for p in range(4):
            flc[p] = flk[p] = 0
        for p in range(P):
            c = fl_cards[p]
            if c < 0 or c > OFC_MAX_DEAL or (c and c < NC):
                return self.fail(BAD_FL_CARDS, p, c, 0)
            k = fl_count[p]
            if not 0 <= k <= 255:
                return self.fail(BAD_FL_COUNT, p, k, 0)
            flc[p] = <int> c
            flk[p] = <int> k
            total += flc[p] if flc[p] else pdealt
        if total > OFC_DECK:
            return self.fail(DEAL_TOO_BIG, total, 0, 0)
        # ---- build (turns <= cards dealt <= OFC_DECK = MAX_TURNS)
        memset(&self.s, 0, sizeof(HState))
        ctx_init(&self.s.cx, pr)
        self.s.n_players = P
        self.s.button = b
        self.s.R = pr.R
        self.s.NC = NC
        self.s.auto = 1 if auto else 0
        self.s.nst = nst
        memcpy(self.s.sdealt, pr.sdealt, nst)
        memcpy(self.s.skeep, pr.skeep, nst)
        for i in range(OFC_DECK):
            self.s.deck[i] = d[i]
        for p in range(4):
            self.s.flc[p] = flc[p]
            self.s.flk[p] = flk[p]
            for i in range(18):
                self.s.lay[p][i] = EMPTY
            for i in range(4):
                self.s.room[p][i] = pr.row_len[i]
        for q in range(P):
            self.s.order[q] = (b + 1 + q) % P
        for q in range(P):
            p = self.s.order[q]
            if flc[p]:
                self.s.tp[t] = p
                self.s.tdealt[t] = flc[p]
                self.s.tkeep[t] = NC
                self.s.tstreet[t] = -1
                t += 1
        for s in range(nst):
            for q in range(P):
                p = self.s.order[q]
                if flc[p]:
                    continue
                self.s.tp[t] = p
                self.s.tdealt[t] = pr.sdealt[s]
                self.s.tkeep[t] = pr.skeep[s]
                self.s.tstreet[t] = s
                t += 1
        self.s.n_turns = t
        self.s.deck_used = total
        self.s.turn = 0
        if t:
            self.begin_turn()
            self.run_auto()
        return <int> HAND_OK

    # ------------------------------------------------------------ internals
    cdef void begin_turn(self) noexcept:
        cdef int i
        self.s.ncur = self.s.tdealt[self.s.turn]
        self.s.nkeep = self.s.tkeep[self.s.turn]
        for i in range(self.s.ncur):
            self.s.cur[i] = self.s.deck[self.s.deck_pos + i]
        self.s.deck_pos += self.s.ncur

    cdef int64_t count(self) noexcept:
        return BINOM[self.s.ncur][self.s.ncur - self.s.nkeep] * ways(self.s.nkeep, self.s.room[self.s.tp[self.s.turn]])

    cdef void timeout_dest(self, int8_t *dest) noexcept:
        """Section 9: first cards dealt are placed, bottom row first, then up;
        the last ones are discarded."""
        cdef int room[4]
        cdef int i, row, p = self.s.tp[self.s.turn]
        for i in range(4):
            room[i] = self.s.room[p][i]
        for i in range(self.s.ncur):
            dest[i] = -1
            if i < self.s.nkeep:
                for row in range(self.s.R - 1, -1, -1):
                    if room[row]:
                        room[row] -= 1
                        dest[i] = <int8_t> row
                        break

    cdef void do_apply(self, const int8_t *dest, int reason) noexcept:
        cdef int i, p = self.s.tp[self.s.turn], row, t = self.s.turn
        for i in range(self.s.ncur):
            self.s.hcards[t][i] = self.s.cur[i]
            self.s.hrows[t][i] = dest[i]
            row = dest[i]
            if row < 0:
                self.s.disc[p][self.s.ndisc[p]] = self.s.cur[i]
                self.s.ndisc[p] += 1
            else:
                self.s.lay[p][self.pr.row_off[row] + self.pr.row_len[row] - self.s.room[p][row]] = self.s.cur[i]
                self.s.room[p][row] -= 1
        self.s.hreason[t] = reason
        self.s.turn += 1
        self.s.ncur = 0
        if self.s.turn < self.s.n_turns:
            self.begin_turn()

    cdef uint64_t seen_mask(self, int p, bint with_cur) noexcept:
        """Cards player p has seen: own layout, discards and (optionally) the
        cards in hand; opponents' placed cards, except fantasyland hands
        before the showdown."""
        cdef uint64_t m
        cdef int q
        cdef bint done = self.s.turn >= self.s.n_turns
        m = ofc_cards_mask(self.s.disc[p], self.s.ndisc[p])
        for q in range(self.s.n_players):
            if q != p and self.s.flc[q] and not done:
                continue
            m |= ofc_cards_mask(self.s.lay[q], self.s.NC)
        if with_cur and not done and self.s.tp[self.s.turn] == p:
            m |= self.cur_mask()
        return m

    cdef uint64_t cur_mask(self) noexcept:
        return ofc_cards_mask(self.s.cur, self.s.ncur)

    cdef int solve_layout(self, const uint8_t *lay, uint64_t pool, uint64_t *added) noexcept:
        cdef SProb pb
        cdef uint64_t placed, after = 0
        cdef int alive, i, j
        self.s.solves += 1
        prob_from_layout(&self.s.cx, &pb, lay, &placed)
        alive = solve(&self.s.cx, &pb, pool & ~placed)
        if alive and added != NULL:
            for i in range(self.s.R):
                after |= ofc_cards_mask(pb.row[i].c, pb.row[i].n)
            added[0] = after & ~placed
        return alive

    cdef int option_alive(self, const int8_t *dest, uint64_t pool) noexcept:
        cdef uint8_t lay[18]
        cdef int room[4]
        cdef int i, row, p = self.s.tp[self.s.turn]
        memcpy(lay, self.s.lay[p], 18)
        for i in range(4):
            room[i] = self.s.room[p][i]
        for i in range(self.s.ncur):
            row = dest[i]
            if row >= 0:
                lay[self.pr.row_off[row] + self.pr.row_len[row] - room[row]] = self.s.cur[i]
                room[row] -= 1
        return self.solve_layout(lay, pool, NULL)

    cdef int auto_reason(self) noexcept:
        """Why the player to act may be moved automatically (docs/rules.md section 9)."""
        cdef int p = self.s.tp[self.s.turn], i, e = 0
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef uint64_t seen, cm, added = 0
        cdef int64_t k, n = self.count()
        if n == 1:
            return AUTO_ONLY
        if self.s.deadf[p]:
            return AUTO_DEAD
        for i in range(self.s.R):
            e += self.s.room[p][i]
        cm = self.cur_mask()
        if e == self.s.nkeep:
            # this move fills the layout: the moves are exactly the completions from the hand
            if self.solve_layout(self.s.lay[p], cm, NULL):
                return AUTO_NONE
            self.s.deadf[p] = 1
            return AUTO_ALL_DEAD
        seen = self.seen_mask(p, True)
        if not self.solve_layout(self.s.lay[p], (ALL_CARDS & ~seen) | cm, &added):
            self.s.deadf[p] = 1
            return AUTO_DEAD
        if popc(added & cm) == self.s.nkeep:
            return AUTO_NONE     # the witness places exactly the kept number of dealt cards
        self.timeout_dest(dest)
        if self.option_alive(dest, ALL_CARDS & ~seen):
            return AUTO_NONE
        for k in range(n):
            unrank_move(k, self.s.ncur, self.s.nkeep, self.s.room[p], self.s.R, dest)
            if self.option_alive(dest, ALL_CARDS & ~seen):
                return AUTO_NONE
        self.s.deadf[p] = 1
        return AUTO_ALL_DEAD

    cdef void run_auto(self) noexcept:
        """Play the turns that need no decision: every turn of a timed-out seat
        (the time-out placement, whatever auto says), and with auto on the
        automatic moves of docs/rules.md section 9."""
        cdef int reason
        cdef int8_t dest[OFC_MAX_DEAL]
        while self.s.turn < self.s.n_turns:
            if self.s.tout[self.s.tp[self.s.turn]]:
                self.timeout_dest(dest)
                self.do_apply(dest, AUTO_TIMEOUT)
                continue
            if not self.s.auto:
                return
            reason = self.auto_reason()
            if reason == AUTO_NONE:
                return
            if reason == AUTO_ONLY:
                unrank_move(0, self.s.ncur, self.s.nkeep, self.s.room[self.s.tp[self.s.turn]], self.s.R, dest)
            else:
                self.timeout_dest(dest)
            self.do_apply(dest, reason)

    cdef tuple dest_tuple(self, const int8_t *dest):
        return tuple([dest[i] for i in range(self.s.ncur)])

    cdef int dest_problem(self, const int8_t *dest) noexcept:
        """0 when dest (one row or -1 per dealt card) is a legal move of the
        player to act, else 1: bad row, 2: wrong discard count, 3: row full."""
        cdef int used[4]
        cdef int i, row, nd = 0, p = self.s.tp[self.s.turn]
        for i in range(4):
            used[i] = 0
        for i in range(self.s.ncur):
            row = dest[i]
            if row < -1 or row >= self.s.R:
                return 1
            if row < 0:
                nd += 1
            else:
                used[row] += 1
        if nd != self.s.ncur - self.s.nkeep:
            return 2
        for i in range(self.s.R):
            if used[i] > self.s.room[p][i]:
                return 3
        return 0

    # ------------------------------------------------------- checks (codes)
    cdef int load_dest(self, dest_rows, int8_t *dest) except -1:
        """Copy destinations given by Python into dest and check them:
        HAND_OK, or the status of what is wrong."""
        cdef int i
        cdef long row
        if self.s.turn >= self.s.n_turns:
            return self.fail(HAND_OVER, 0, 0, 0)
        if len(dest_rows) != self.s.ncur:
            return self.fail(DEST_COUNT, len(dest_rows), 0, 0)
        for i in range(self.s.ncur):
            r = dest_rows[i]
            if not _is_index(r) or not -1 <= r < self.s.R:
                return self.fail(DEST_ILLEGAL, i, 0, 0)
            dest[i] = <int8_t> (<long> r)
        if self.dest_problem(dest):
            return self.fail(DEST_ILLEGAL, -1, 0, 0)
        return <int> HAND_OK

    cdef int check_into(self, cards, rows, int8_t *dest) except -1:
        """Destinations in deal order of a move given as cards and rows
        (cards: ids; rows: row indexes or -1 = discard) into dest: HAND_OK,
        or the status saying why the move is illegal.  Changes no state."""
        cdef int i, j, n = self.s.ncur, p, row, nc
        cdef int used[4]
        cdef int ndisc = 0
        if self.s.turn >= self.s.n_turns:
            return self.fail(HAND_OVER, 0, 0, 0)
        p = self.s.tp[self.s.turn]
        try:
            nc = len(cards)
            if len(rows) != nc:
                return self.fail(MOVE_LENGTHS, nc, len(rows), 0)
        except TypeError:
            return self.fail(MOVE_NOT_SEQUENCE, 0, 0, 0)
        for i in range(n):
            dest[i] = -2
        for i in range(4):
            used[i] = 0
        for j in range(nc):
            c = cards[j]
            for i in range(n):
                if self.s.cur[i] == c:
                    break
            else:
                return self.fail(CARD_NOT_DEALT, j, 0, 0)
            if dest[i] != -2:
                return self.fail(CARD_TWICE, j, 0, 0)
            r = rows[j]
            if not _is_index(r):
                return self.fail(ROW_NOT_INDEX, j, 0, 0)
            if not -1 <= r < self.s.R:
                return self.fail(ROW_MISSING, j, 0, 0)
            row = r
            dest[i] = <int8_t> row
            if row < 0:
                ndisc += 1
            else:
                used[row] += 1
        for i in range(n):
            if dest[i] == -2:
                return self.fail(CARD_UNPLACED, self.s.cur[i], 0, 0)
        if ndisc != n - self.s.nkeep:
            return self.fail(DISCARD_COUNT, ndisc, 0, 0)
        for row in range(self.s.R):
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
        return self.s.tp[self.s.turn] if self.s.turn < self.s.n_turns else -1

    @property
    def done(self):
        return self.s.turn >= self.s.n_turns

    @property
    def street(self):
        return self.s.tstreet[self.s.turn] if self.s.turn < self.s.n_turns else None

    @property
    def keep(self):
        return self.s.nkeep

    def hand(self):
        """Cards dealt to the player to act (tuple of ids, deal order)."""
        return tuple([self.s.cur[i] for i in range(self.s.ncur)])

    def n_moves(self):
        if self.s.turn >= self.s.n_turns:
            return 0
        return self.count()

    def move_rows(self, int64_t idx):
        """Destinations of move number idx (negative from the end), or None
        outside the move list."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int64_t n = self.count() if self.s.turn < self.s.n_turns else 0
        if idx < 0:
            idx += n
        if idx < 0 or idx >= n:
            return None
        unrank_move(idx, self.s.ncur, self.s.nkeep, self.s.room[self.s.tp[self.s.turn]], self.s.R, dest)
        return self.dest_tuple(dest)

    def move_index(self, rows):
        """Index of a destination tuple (deal order) in the move order, or
        minus the status when it is not a legal move."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int st = self.load_dest(rows, dest)
        if st:
            return -st
        return rank_move(self.s.ncur, self.s.nkeep, self.s.room[self.s.tp[self.s.turn]], self.s.R, dest)

    def index_of(self, cards, rows):
        """Index in the move order of a move given as cards and rows, or
        minus the status saying why it is not a legal move."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int st = self.check_into(cards, rows, dest)
        if st:
            return -st
        return rank_move(self.s.ncur, self.s.nkeep, self.s.room[self.s.tp[self.s.turn]], self.s.R, dest)

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
        self.do_apply(dest, AUTO_NONE)
        self.run_auto()
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
        self.do_apply(dest, reason)
        self.run_auto()
        return <int> HAND_OK

    def apply_index(self, int64_t idx):
        """Play move number idx of the move order, then any automatic moves;
        returns the status."""
        cdef int8_t dest[OFC_MAX_DEAL]
        if self.s.turn >= self.s.n_turns:
            return self.fail(HAND_OVER, 0, 0, 0)
        if not 0 <= idx < self.count():
            return self.fail(INDEX_RANGE, idx, 0, 0)
        unrank_move(idx, self.s.ncur, self.s.nkeep, self.s.room[self.s.tp[self.s.turn]], self.s.R, dest)
        self.do_apply(dest, AUTO_NONE)
        self.run_auto()
        return <int> HAND_OK

    def timeout_rows(self):
        """The time-out placement of the player to act, or None when the hand is over."""
        cdef int8_t dest[OFC_MAX_DEAL]
        if self.s.turn >= self.s.n_turns:
            return None
        self.timeout_dest(dest)
        return self.dest_tuple(dest)

    def timeout(self):
        """The player to act runs out of time: mark the seat timed out for the
        rest of the hand and play its time-out placements (this turn and every
        later one), then any automatic moves of the others.  Returns the
        status (HAND_OVER when there is no move to make)."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int p
        if self.s.turn >= self.s.n_turns:
            return self.fail(HAND_OVER, 0, 0, 0)
        p = self.s.tp[self.s.turn]
        if not self.s.tout[p]:
            self.s.tout[p] = 1
            self.s.tout_seq[self.s.ntout] = <uint8_t> p
            self.s.ntout += 1
        self.timeout_dest(dest)
        self.do_apply(dest, AUTO_TIMEOUT)
        self.run_auto()
        return <int> HAND_OK

    def timed_out(self):
        """Seats timed out in this hand, in the order they timed out."""
        if not self.s.ntout:
            return ()
        return tuple([self.s.tout_seq[i] for i in range(self.s.ntout)])

    def automatic(self):
        """(reason code, destinations) of the automatic move available to the
        player to act, or (0, None)."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int reason
        if self.s.turn >= self.s.n_turns:
            return 0, None
        reason = self.auto_reason()
        if reason == AUTO_NONE:
            return 0, None
        if reason == AUTO_ONLY:
            unrank_move(0, self.s.ncur, self.s.nkeep, self.s.room[self.s.tp[self.s.turn]], self.s.R, dest)
        else:
            self.timeout_dest(dest)
        return reason, self.dest_tuple(dest)

    def run_automatic(self):
        self.run_auto()

    def is_dead(self, int p):
        """Player p's layout cannot be completed legally with cards p has not
        seen (dealt cards in hand count as available)."""
        cdef uint64_t seen
        cdef int e = 0, i
        self.check_seat(p)
        seen = self.seen_mask(p, False)
        if self.s.deadf[p]:
            return True
        if self.s.turn < self.s.n_turns and self.s.tp[self.s.turn] == p and self.s.flc[p]:
            return not self.solve_layout(self.s.lay[p], self.cur_mask(), NULL)
        for i in range(self.s.R):
            e += self.s.room[p][i]
        if e == 0:
            return bool(self.evaluate_one(p)[0])
        if self.s.flc[p]:
            return False
        return not self.solve_layout(self.s.lay[p], ALL_CARDS & ~seen, NULL)

    # ------------------------------------------------------- copies, pickles
    cpdef HandCore copy(self):
        """An independent copy: one struct assignment (the rules are shared)."""
        cdef HandCore c = HandCore.__new__(HandCore)
        c.pr = self.pr
        c.s = self.s
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        """Pickled as the deal and the moves, replayed (and so validated) on load."""
        P = self.s.n_players
        turns = [(tuple([self.s.hcards[t][i] for i in range(self.s.tdealt[t])]),
                  tuple([self.s.hrows[t][i] for i in range(self.s.tdealt[t])]),
                  self.s.hreason[t]) for t in range(self.s.turn)]
        return (_rebuild_hand, (self.pr, P, self.deck_order(), self.s.button,
                                tuple([self.s.flc[p] for p in range(P)]),
                                tuple([self.s.flk[p] for p in range(P)]),
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
            self.do_apply(dest, r)
        for seat in timed_out:
            p = seat
            if not 0 <= p < self.s.n_players:
                return self.fail(NO_SEAT, p, 0, 0)
            if not self.s.tout[p]:
                self.s.tout[p] = 1
                self.s.tout_seq[self.s.ntout] = <uint8_t> p
                self.s.ntout += 1
        for p in range(self.s.n_players):
            self.s.deadf[p] = 1 if dead[p] else 0
        self.s.auto = 1 if auto else 0
        return <int> HAND_OK

    cdef tuple evaluate_one(self, int p):
        cdef ofc_layout_eval e
        ofc_eval_layout(T, self.pr.r, self.s.lay[p], self.s.flk[p], &e)
        return e.foul, e.royalty_total

    def layout(self, int p):
        self.check_seat(p)
        return bytes(self.s.lay[p][:self.s.NC])

    def discards(self, int p):
        self.check_seat(p)
        return bytes(self.s.disc[p][:self.s.ndisc[p]])

    def visible(self, int p):
        """Layouts as player p sees them (hidden fantasyland hands EMPTY)."""
        cdef bytearray out = bytearray(self.s.n_players * self.s.NC)
        cdef int q, i
        cdef bint done = self.s.turn >= self.s.n_turns
        self.check_seat(p)
        for q in range(self.s.n_players):
            if q == p or not self.s.flc[q] or done:
                for i in range(self.s.NC):
                    out[q * self.s.NC + i] = self.s.lay[q][i]
            else:
                for i in range(self.s.NC):
                    out[q * self.s.NC + i] = EMPTY
        return bytes(out)

    def seen(self, int p):
        self.check_seat(p)
        return self.seen_mask(p, True)

    def dead_flags(self):
        return tuple([bool(self.s.deadf[p]) for p in range(self.s.n_players)])

    def fantasyland(self):
        return (tuple([self.s.flc[p] for p in range(self.s.n_players)]),
                tuple([self.s.flk[p] for p in range(self.s.n_players)]))

    def order_seats(self):
        return tuple([self.s.order[q] for q in range(self.s.n_players)])

    def schedule(self):
        return [(self.s.tp[t], self.s.tstreet[t], self.s.tdealt[t], self.s.tkeep[t])
                for t in range(self.s.n_turns)]

    def history(self):
        """Per played turn: (seat, street, dealt cards, destinations, reason code)."""
        return [(self.s.tp[t], self.s.tstreet[t],
                 tuple([self.s.hcards[t][i] for i in range(self.s.tdealt[t])]),
                 tuple([self.s.hrows[t][i] for i in range(self.s.tdealt[t])]),
                 self.s.hreason[t]) for t in range(self.s.turn)]

    def deck_order(self):
        return bytes(self.s.deck[:OFC_DECK])

    def move_layouts(self, int64_t limit=-1):
        """Layouts after each move of the player to act (first `limit` moves):
        ((M, n_cards) uint8, (M, discards) uint8)."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef int64_t k, n = self.count() if self.s.turn < self.s.n_turns else 0
        cdef int i, row, p, nd
        cdef int room[4]
        if limit >= 0 and limit < n:
            n = limit
        p = self.s.tp[self.s.turn] if self.s.turn < self.s.n_turns else 0
        nd = self.s.ncur - self.s.nkeep
        lays = np.empty((n, self.s.NC), np.uint8)
        discs = np.empty((n, nd), np.uint8)
        cdef uint8_t[:, ::1] L = lays
        cdef uint8_t[:, ::1] D = discs
        cdef int di
        for k in range(n):
            unrank_move(k, self.s.ncur, self.s.nkeep, self.s.room[p], self.s.R, dest)
            for i in range(self.s.NC):
                L[k, i] = self.s.lay[p][i]
            for i in range(4):
                room[i] = self.s.room[p][i]
            di = 0
            for i in range(self.s.ncur):
                row = dest[i]
                if row < 0:
                    D[k, di] = self.s.cur[i]
                    di += 1
                else:
                    L[k, self.pr.row_off[row] + self.pr.row_len[row] - room[row]] = self.s.cur[i]
                    room[row] -= 1
        return lays, discs

    def result(self):
        """Showdown: (points, foul, royalty_total, royalties per row,
        strengths per row, next fantasyland cards, repeat) as tuples per
        seat, or None while the hand is not finished."""
        cdef ofc_layout_eval e[4]
        cdef int p, q, i
        cdef int32_t pts[4]
        cdef int32_t x
        if self.s.turn < self.s.n_turns:
            return None
        for p in range(self.s.n_players):
            ofc_eval_layout(T, self.pr.r, self.s.lay[p], self.s.flk[p], &e[p])
            pts[p] = 0
        for p in range(self.s.n_players):
            for q in range(p + 1, self.s.n_players):
                x = ofc_pair_points(self.pr.r, &e[p], &e[q])
                pts[p] += x
                pts[q] -= x
        P = self.s.n_players
        return (tuple([pts[p] for p in range(P)]),
                tuple([bool(e[p].foul) for p in range(P)]),
                tuple([e[p].royalty_total for p in range(P)]),
                tuple([tuple([e[p].royalty[i] for i in range(self.s.R)]) for p in range(P)]),
                tuple([tuple([e[p].strength[i] for i in range(self.s.R)]) for p in range(P)]),
                tuple([e[p].fantasyland for p in range(P)]),
                tuple([bool(e[p].repeat) for p in range(P)]))


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


def dead_one(PlayRules rules, const uint8_t[::1] layout, uint64_t pool):
    """1 if one partial layout is dead with this pool (its own cards removed),
    0 if not, -1 if the layout is malformed (the caller reports why)."""
    cdef Ctx cx
    cdef SProb p
    cdef uint64_t placed
    cdef int alive
    if layout.shape[0] != rules.NC:
        return -1
    ctx_init(&cx, rules)
    with nogil:
        if prob_from_layout(&cx, &p, &layout[0], &placed) < 0:
            alive = -1
        else:
            alive = solve(&cx, &p, pool & ~placed & ALL_CARDS)
    if alive < 0:
        return -1
    return 0 if alive else 1


