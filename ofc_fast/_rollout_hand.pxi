# Included by ofc_fast/_rollout.pyx (move counting and the per-hand state machine); not compiled on its own.

# ----------------------------------------------------------------- move counting
cdef int64_t WAYS[19][4][6][6][6]   # ways to send j labelled cards to rows with these rooms
cdef int64_t BINOM[25][25]


cdef void _init_counts() noexcept:
    cdef int j, a, b, c, d, n, k
    for n in range(25):
        for k in range(25):
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


def count_placements(int n, int keep, rooms):
    """Number of distinct moves: choose the n - keep discards, then send the
    kept cards to rows with room (rooms: free slots per row, top first)."""
    cdef int room[4]
    cdef int i
    for i in range(4):
        room[i] = rooms[i] if i < len(rooms) else 0
    if keep < 0 or keep > n or n > 24:
        return 0
    return BINOM[n][n - keep] * ways(keep, room)


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


# --------------------------------------------------------------------- hand core
cdef enum:
    MAX_TURNS = 64
    AUTO_NONE = 0
    AUTO_ONLY = 1          # only one legal move
    AUTO_DEAD = 2          # the hand is already dead
    AUTO_ALL_DEAD = 3      # every move makes it dead
    AUTO_TIMEOUT = 4       # time-out placement played on request

AUTO_REASONS = (None, "only option", "dead", "every option dead", "time-out")


cdef class HandCore:
    """State of one hand: deck, turn schedule, layouts, discards, history.

    Python never sees a half-applied move: ``apply`` validates everything
    before it changes state.  Build through ``ofc_fast.engine.Game``."""
    cdef PlayRules pr
    cdef Ctx cx
    cdef readonly int n_players, button, n_turns, turn, deck_used
    cdef int R, NC
    cdef uint8_t deck[52]
    cdef int deck_pos
    cdef uint8_t lay[4][18]
    cdef int room[4][4]
    cdef uint8_t disc[4][24]
    cdef int ndisc[4]
    cdef int flc[4]
    cdef int flk[4]
    cdef int order[4]
    cdef int tp[64]
    cdef int tdealt[64]
    cdef int tkeep[64]
    cdef int tstreet[64]
    cdef uint8_t cur[24]
    cdef int ncur, nkeep
    cdef uint8_t deadf[4]
    cdef public bint auto
    cdef uint8_t hcards[64][24]
    cdef int8_t hrows[64][24]
    cdef uint8_t hreason[64]
    cdef readonly int64_t solves

    def __init__(self, PlayRules pr, int n_players, deck, int button, fl_cards, fl_count,
                 int first_street, streets, bint auto):
        cdef int p, q, i, s, t = 0, total = 0
        cdef const uint8_t[::1] d = np.ascontiguousarray(deck, dtype=np.uint8)
        self.pr = pr
        ctx_init(&self.cx, pr)
        self.n_players = n_players
        self.button = button
        self.R = pr.R
        self.NC = pr.NC
        self.auto = auto
        self.solves = 0
        for i in range(52):
            self.deck[i] = d[i]
        self.deck_pos = 0
        for p in range(4):
            self.ndisc[p] = 0
            self.deadf[p] = 0
            self.flc[p] = fl_cards[p] if p < n_players else 0
            self.flk[p] = fl_count[p] if p < n_players else 0
            for i in range(18):
                self.lay[p][i] = EMPTY
            for i in range(4):
                self.room[p][i] = pr.row_len[i]
        for q in range(n_players):
            self.order[q] = (button + 1 + q) % n_players
        for q in range(n_players):
            p = self.order[q]
            if self.flc[p]:
                self.tp[t] = p
                self.tdealt[t] = self.flc[p]
                self.tkeep[t] = self.NC
                self.tstreet[t] = -1
                total += self.flc[p]
                t += 1
        sched = [(first_street, first_street)] + list(streets)
        for s in range(len(sched)):
            for q in range(n_players):
                p = self.order[q]
                if self.flc[p]:
                    continue
                if t >= MAX_TURNS:
                    raise ValueError("too many turns in one hand")
                self.tp[t] = p
                self.tdealt[t] = sched[s][0]
                self.tkeep[t] = sched[s][1]
                self.tstreet[t] = s
                total += sched[s][0]
                t += 1
        if total > 52:
            raise ValueError(f"the deal needs {total} cards, the deck has 52")
        self.n_turns = t
        self.deck_used = total
        self.turn = 0
        if t:
            self.begin_turn()
            self.run_auto()

    # ------------------------------------------------------------ internals
    cdef void begin_turn(self) noexcept:
        cdef int i
        self.ncur = self.tdealt[self.turn]
        self.nkeep = self.tkeep[self.turn]
        for i in range(self.ncur):
            self.cur[i] = self.deck[self.deck_pos + i]
        self.deck_pos += self.ncur

    cdef int64_t count(self) noexcept:
        return BINOM[self.ncur][self.ncur - self.nkeep] * ways(self.nkeep, self.room[self.tp[self.turn]])

    cdef void timeout_dest(self, int8_t *dest) noexcept:
        """Section 9: first cards dealt are placed, bottom row first, then up;
        the last ones are discarded."""
        cdef int room[4]
        cdef int i, row, p = self.tp[self.turn]
        for i in range(4):
            room[i] = self.room[p][i]
        for i in range(self.ncur):
            dest[i] = -1
            if i < self.nkeep:
                for row in range(self.R - 1, -1, -1):
                    if room[row]:
                        room[row] -= 1
                        dest[i] = <int8_t> row
                        break

    cdef void do_apply(self, const int8_t *dest, int reason) noexcept:
        cdef int i, p = self.tp[self.turn], row, t = self.turn
        for i in range(self.ncur):
            self.hcards[t][i] = self.cur[i]
            self.hrows[t][i] = dest[i]
            row = dest[i]
            if row < 0:
                self.disc[p][self.ndisc[p]] = self.cur[i]
                self.ndisc[p] += 1
            else:
                self.lay[p][self.pr.row_off[row] + self.pr.row_len[row] - self.room[p][row]] = self.cur[i]
                self.room[p][row] -= 1
        self.hreason[t] = reason
        self.turn += 1
        self.ncur = 0
        if self.turn < self.n_turns:
            self.begin_turn()

    cdef uint64_t seen_mask(self, int p, bint with_cur) noexcept:
        """Cards player p has seen: own layout, discards and (optionally) the
        cards in hand; opponents' placed cards, except fantasyland hands
        before the showdown."""
        cdef uint64_t m = 0
        cdef int q, i
        cdef bint done = self.turn >= self.n_turns
        for q in range(self.n_players):
            if q != p and self.flc[q] and not done:
                continue
            for i in range(self.NC):
                if self.lay[q][i] != EMPTY:
                    m |= (<uint64_t> 1) << self.lay[q][i]
        for i in range(self.ndisc[p]):
            m |= (<uint64_t> 1) << self.disc[p][i]
        if with_cur and not done and self.tp[self.turn] == p:
            for i in range(self.ncur):
                m |= (<uint64_t> 1) << self.cur[i]
        return m

    cdef uint64_t cur_mask(self) noexcept:
        cdef uint64_t m = 0
        cdef int i
        for i in range(self.ncur):
            m |= (<uint64_t> 1) << self.cur[i]
        return m

    cdef int solve_layout(self, const uint8_t *lay, uint64_t pool, uint64_t *added) noexcept:
        cdef SProb pb
        cdef uint64_t placed, after = 0
        cdef int alive, i, j
        self.solves += 1
        prob_from_layout(&self.cx, &pb, lay, &placed)
        alive = solve(&self.cx, &pb, pool & ~placed)
        if alive and added != NULL:
            for i in range(self.R):
                for j in range(pb.row[i].n):
                    after |= (<uint64_t> 1) << pb.row[i].c[j]
            added[0] = after & ~placed
        return alive

    cdef int option_alive(self, const int8_t *dest, uint64_t pool) noexcept:
        cdef uint8_t lay[18]
        cdef int room[4]
        cdef int i, row, p = self.tp[self.turn]
        memcpy(lay, self.lay[p], 18)
        for i in range(4):
            room[i] = self.room[p][i]
        for i in range(self.ncur):
            row = dest[i]
            if row >= 0:
                lay[self.pr.row_off[row] + self.pr.row_len[row] - room[row]] = self.cur[i]
                room[row] -= 1
        return self.solve_layout(lay, pool, NULL)

    cdef int auto_reason(self) noexcept:
        """Why the player to act may be moved automatically (RULES.md section 9)."""
        cdef int p = self.tp[self.turn], i, e = 0
        cdef int8_t dest[24]
        cdef uint64_t seen, cm, added = 0
        cdef int64_t k, n = self.count()
        if n == 1:
            return AUTO_ONLY
        if self.deadf[p]:
            return AUTO_DEAD
        for i in range(self.R):
            e += self.room[p][i]
        cm = self.cur_mask()
        if e == self.nkeep:
            # this move fills the layout: the moves are exactly the completions from the hand
            if self.solve_layout(self.lay[p], cm, NULL):
                return AUTO_NONE
            self.deadf[p] = 1
            return AUTO_ALL_DEAD
        seen = self.seen_mask(p, True)
        if not self.solve_layout(self.lay[p], (ALL_CARDS & ~seen) | cm, &added):
            self.deadf[p] = 1
            return AUTO_DEAD
        if popc(added & cm) == self.nkeep:
            return AUTO_NONE     # the witness places exactly the kept number of dealt cards
        self.timeout_dest(dest)
        if self.option_alive(dest, ALL_CARDS & ~seen):
            return AUTO_NONE
        for k in range(n):
            unrank_move(k, self.ncur, self.nkeep, self.room[p], self.R, dest)
            if self.option_alive(dest, ALL_CARDS & ~seen):
                return AUTO_NONE
        self.deadf[p] = 1
        return AUTO_ALL_DEAD

    cdef void run_auto(self) noexcept:
        cdef int reason
        cdef int8_t dest[24]
        while self.auto and self.turn < self.n_turns:
            reason = self.auto_reason()
            if reason == AUTO_NONE:
                return
            if reason == AUTO_ONLY:
                unrank_move(0, self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)
            else:
                self.timeout_dest(dest)
            self.do_apply(dest, reason)

    cdef tuple dest_tuple(self, const int8_t *dest):
        return tuple([dest[i] for i in range(self.ncur)])

    # ------------------------------------------------------------- Python API
    @property
    def to_act(self):
        return self.tp[self.turn] if self.turn < self.n_turns else -1

    @property
    def done(self):
        return self.turn >= self.n_turns

    @property
    def street(self):
        return self.tstreet[self.turn] if self.turn < self.n_turns else None

    @property
    def keep(self):
        return self.nkeep

    def hand(self):
        """Cards dealt to the player to act (tuple of ids, deal order)."""
        return tuple([self.cur[i] for i in range(self.ncur)])

    def n_moves(self):
        if self.turn >= self.n_turns:
            return 0
        return self.count()

    def move_rows(self, int64_t idx):
        cdef int8_t dest[24]
        cdef int64_t n = self.count()
        if idx < 0:
            idx += n
        if self.turn >= self.n_turns or idx < 0 or idx >= n:
            raise IndexError("move index out of range")
        unrank_move(idx, self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)
        return self.dest_tuple(dest)

    def move_index(self, rows):
        """Index of a validated destination tuple in the move order."""
        cdef int8_t dest[24]
        cdef int i
        for i in range(self.ncur):
            dest[i] = rows[i]
        return rank_move(self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)

    def check(self, cards, rows):
        """Destinations in deal order for a move given as cards and rows, or
        raise ValueError explaining why the move is illegal."""
        cdef int i, j, n = self.ncur, p, row
        cdef int8_t dest[24]
        cdef int used[4]
        cdef int ndisc = 0
        if self.turn >= self.n_turns:
            raise ValueError("the hand is over: no move to make")
        p = self.tp[self.turn]
        if len(cards) != len(rows):
            raise ValueError(f"the move gives {len(cards)} cards but {len(rows)} destinations")
        for i in range(n):
            dest[i] = -2
        for i in range(4):
            used[i] = 0
        for j in range(len(cards)):
            c = cards[j]
            for i in range(n):
                if self.cur[i] == c:
                    break
            else:
                raise ValueError(f"{_card_text(c)} is not among the cards dealt to seat {p} "
                                 f"({_cards_text(self.hand())})")
            if dest[i] != -2:
                raise ValueError(f"the move places {_card_text(c)} twice")
            row = rows[j]
            if row < -1 or row >= self.R:
                raise ValueError(f"{_card_text(c)}: row {row} does not exist "
                                 f"(rows 0 .. {self.R - 1}, -1 = discard)")
            dest[i] = row
            if row < 0:
                ndisc += 1
            else:
                used[row] += 1
        for i in range(n):
            if dest[i] == -2:
                raise ValueError(f"the move does not say where {_card_text(self.cur[i])} goes "
                                 f"(every dealt card is placed or discarded)")
        if ndisc != n - self.nkeep:
            raise ValueError(f"{n} cards dealt, {self.nkeep} to place: the move must discard "
                             f"{n - self.nkeep}, it discards {ndisc}")
        for row in range(self.R):
            if used[row] > self.room[p][row]:
                raise ValueError(f"the {self.pr.variant.row_names[row]} row has room for "
                                 f"{self.room[p][row]} more card(s), the move puts {used[row]} there")
        return self.dest_tuple(dest)

    def apply(self, dest_rows, int reason=AUTO_NONE):
        """Apply checked destinations (deal order), then any automatic moves."""
        cdef int8_t dest[24]
        cdef int i
        for i in range(self.ncur):
            dest[i] = dest_rows[i]
        self.do_apply(dest, reason)
        self.run_auto()

    def apply_index(self, int64_t idx):
        cdef int8_t dest[24]
        unrank_move(idx, self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)
        self.do_apply(dest, AUTO_NONE)
        self.run_auto()

    def timeout_rows(self):
        cdef int8_t dest[24]
        if self.turn >= self.n_turns:
            raise ValueError("the hand is over: no move to make")
        self.timeout_dest(dest)
        return self.dest_tuple(dest)

    def automatic(self):
        """(reason code, destinations) of the automatic move available to the
        player to act, or (0, None)."""
        cdef int8_t dest[24]
        cdef int reason
        if self.turn >= self.n_turns:
            return 0, None
        reason = self.auto_reason()
        if reason == AUTO_NONE:
            return 0, None
        if reason == AUTO_ONLY:
            unrank_move(0, self.ncur, self.nkeep, self.room[self.tp[self.turn]], self.R, dest)
        else:
            self.timeout_dest(dest)
        return reason, self.dest_tuple(dest)

    def run_automatic(self):
        self.run_auto()

    def is_dead(self, int p):
        """Player p's layout cannot be completed legally with cards p has not
        seen (dealt cards in hand count as available)."""
        cdef uint64_t seen = self.seen_mask(p, False)
        cdef int e = 0, i
        if self.deadf[p]:
            return True
        if self.turn < self.n_turns and self.tp[self.turn] == p and self.flc[p]:
            return not self.solve_layout(self.lay[p], self.cur_mask(), NULL)
        for i in range(self.R):
            e += self.room[p][i]
        if e == 0:
            return bool(self.evaluate_one(p)[0])
        if self.flc[p]:
            return False
        return not self.solve_layout(self.lay[p], ALL_CARDS & ~seen, NULL)

    cdef tuple evaluate_one(self, int p):
        cdef ofc_layout_eval e
        ofc_eval_layout(T, self.pr.r, self.lay[p], self.flk[p], &e)
        return e.foul, e.royalty_total

    def layout(self, int p):
        return bytes(self.lay[p][:self.NC])

    def discards(self, int p):
        return bytes(self.disc[p][:self.ndisc[p]])

    def visible(self, int p):
        """Layouts as player p sees them (hidden fantasyland hands EMPTY)."""
        cdef bytearray out = bytearray(self.n_players * self.NC)
        cdef int q, i
        cdef bint done = self.turn >= self.n_turns
        for q in range(self.n_players):
            if q == p or not self.flc[q] or done:
                for i in range(self.NC):
                    out[q * self.NC + i] = self.lay[q][i]
            else:
                for i in range(self.NC):
                    out[q * self.NC + i] = EMPTY
        return bytes(out)

    def seen(self, int p):
        return self.seen_mask(p, True)

    def dead_flags(self):
        return tuple([bool(self.deadf[p]) for p in range(self.n_players)])

    def fantasyland(self):
        return (tuple([self.flc[p] for p in range(self.n_players)]),
                tuple([self.flk[p] for p in range(self.n_players)]))

    def order_seats(self):
        return tuple([self.order[q] for q in range(self.n_players)])

    def schedule(self):
        return [(self.tp[t], self.tstreet[t], self.tdealt[t], self.tkeep[t])
                for t in range(self.n_turns)]

    def history(self):
        """Per played turn: (seat, street, dealt cards, destinations, reason code)."""
        return [(self.tp[t], self.tstreet[t],
                 tuple([self.hcards[t][i] for i in range(self.tdealt[t])]),
                 tuple([self.hrows[t][i] for i in range(self.tdealt[t])]),
                 self.hreason[t]) for t in range(self.turn)]

    def deck_order(self):
        return bytes(self.deck[:52])

    def move_layouts(self, int64_t limit=-1):
        """Layouts after each move of the player to act (first `limit` moves):
        ((M, n_cards) uint8, (M, discards) uint8)."""
        cdef int8_t dest[24]
        cdef int64_t k, n = self.count() if self.turn < self.n_turns else 0
        cdef int i, row, p, nd
        cdef int room[4]
        if limit >= 0 and limit < n:
            n = limit
        p = self.tp[self.turn] if self.turn < self.n_turns else 0
        nd = self.ncur - self.nkeep
        lays = np.empty((n, self.NC), np.uint8)
        discs = np.empty((n, nd), np.uint8)
        cdef uint8_t[:, ::1] L = lays
        cdef uint8_t[:, ::1] D = discs
        cdef int di
        for k in range(n):
            unrank_move(k, self.ncur, self.nkeep, self.room[p], self.R, dest)
            for i in range(self.NC):
                L[k, i] = self.lay[p][i]
            for i in range(4):
                room[i] = self.room[p][i]
            di = 0
            for i in range(self.ncur):
                row = dest[i]
                if row < 0:
                    D[k, di] = self.cur[i]
                    di += 1
                else:
                    L[k, self.pr.row_off[row] + self.pr.row_len[row] - room[row]] = self.cur[i]
                    room[row] -= 1
        return lays, discs

    def result(self):
        """Showdown: (points, foul, royalty_total, royalties per row,
        strengths per row, next fantasyland cards, repeat) as tuples per seat."""
        cdef ofc_layout_eval e[4]
        cdef int p, q, i
        cdef int32_t pts[4]
        cdef int32_t x
        if self.turn < self.n_turns:
            raise ValueError("the hand is not finished")
        for p in range(self.n_players):
            ofc_eval_layout(T, self.pr.r, self.lay[p], self.flk[p], &e[p])
            pts[p] = 0
        for p in range(self.n_players):
            for q in range(p + 1, self.n_players):
                x = ofc_pair_points(self.pr.r, &e[p], &e[q])
                pts[p] += x
                pts[q] -= x
        P = self.n_players
        return (tuple([pts[p] for p in range(P)]),
                tuple([bool(e[p].foul) for p in range(P)]),
                tuple([e[p].royalty_total for p in range(P)]),
                tuple([tuple([e[p].royalty[i] for i in range(self.R)]) for p in range(P)]),
                tuple([tuple([e[p].strength[i] for i in range(self.R)]) for p in range(P)]),
                tuple([e[p].fantasyland for p in range(P)]),
                tuple([bool(e[p].repeat) for p in range(P)]))


def _card_text(c):
    from ofc_fast.cards import format_card
    try:
        return format_card(int(c))
    except Exception:
        return repr(c)


def _cards_text(cards):
    return " ".join(_card_text(c) for c in cards)


def cards_mask(const uint8_t[::1] ids):
    """52-bit mask of card ids (EMPTY skipped), or -1 if an id is not a card."""
    cdef uint64_t m = 0
    cdef intptr_t i
    cdef uint8_t c
    for i in range(ids.shape[0]):
        c = ids[i]
        if c == EMPTY:
            continue
        if c > 51:
            return -1
        m |= (<uint64_t> 1) << c
    return m


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

