# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
# cython: initializedcheck=False
"""The built-in policies, each written once (C API in ``_policies.pxd``).

Every policy plays the seat to act of a hand (``ofc_hand``) from what that
seat may see, drawing its randomness from a stream it is given:

* ``random``: a uniformly random legal move (random_dest, no ranking);
* ``greedy``, ``heuristic``: every legal move (or a random sample of
  ``max_moves``) valued by ``samples`` completions of the best-of-``tries``
  model (rollout_value); the heuristic avoids dead moves and breaks ties at
  random, the greedy policy keeps the first best;
* ``racing``: the heuristic's values raced by successive halving on common
  samples (``_policies_race.pxi``): a different, faster player;
* a fantasyland deal: the exact solver (``_fantasy.fantasy_place``, a
  repeat worth ``fantasyland_value``) for every valued policy, a random
  move for ``random``.

``policy_move`` is what the batch engine (``_batch``) calls per turn;
:class:`PolicyCore` is what the Python classes of ``ofc_fast.policies``
call per decision, so a policy chooses alike in ``Game``, ``Match`` and
``GameBatch`` given the same position and the same stream (:class:`Stream`).
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcmp, memcpy, memset

from ofc_fast._cards cimport OFC_CARD_IDS, OFC_EMPTY as EMPTY, OFC_JOKER, ofc_mask_card_ids
from ofc_fast._compat cimport ofc_ctz64 as ctz
from ofc_fast._eval cimport (OFC_MAX_DEAL, OFC_SUIT_BIAS, ofc_row5_key, ofc_tables, ofc_top_index,
                             tables)
from ofc_fast._fantasy cimport fantasy_place
from ofc_fast._hand cimport (hand_after, hand_cards, hand_done, hand_n_moves, hand_rank,
                             hand_unrank, hand_unseen)
from ofc_fast._layout cimport ofc_eval_layout, ofc_layout_eval, ofc_rules
from ofc_fast._play cimport PLAY_MAX_CARDS, ofc_play
from ofc_fast._rng cimport (ofc_rng_below, ofc_rng_next, ofc_rng_seed, ofc_shuffle_into,
                            ofc_shuffle_prefix)
from ofc_fast._rollout cimport ARRANGEMENT_FOUL, arrangement_rank, best_arrangement
from ofc_fast._search cimport search_layout
from ofc_fast._solver cimport (SOLVER_MAX_ROUNDS, SOLVER_STOPPED, solver_move,
                               solver_work_free, solver_work_init)
from ofc_fast._stop cimport Stop, ofc_stop, stop_begin, stop_end

cdef const ofc_tables *T = tables()

KINDS = {"external": POL_EXTERNAL, "random": POL_RANDOM, "greedy": POL_GREEDY,
         "heuristic": POL_HEURISTIC, "racing": POL_RACING, "solver": POL_SOLVER}
"""Policy names and their codes in C."""

cdef uint64_t LOW32 = 0xFFFFFFFF


cdef inline int64_t draw_below(ofc_rng *g, int64_t n) noexcept nogil:
    if n <= <int64_t> LOW32:
        return ofc_rng_below(g, <uint32_t> n)
    return <int64_t> (ofc_rng_next(g) % <uint64_t> n)


cdef inline double draw_unit(ofc_rng *g) noexcept nogil:
    return (ofc_rng_next(g) >> 11) * (1.0 / 9007199254740992.0)


cdef void random_dest(const ofc_hand *h, int R, ofc_rng *stream, int8_t *dest) noexcept nogil:
    """A legal move of the player to act uniformly at random, without ranking:
    the discards a uniform subset of the dealt cards (a partial Fisher-Yates
    pass over their positions), the kept cards' rows a uniform valid row
    vector (each card a row with room drawn uniformly; a vector that
    overfills a row is drawn again: rejection keeps it uniform).  Every move
    has probability 1 / hand_n_moves, as uniform move indexes give.
    The sets are bit masks in registers and dest is written once at the end:
    dest's stores could alias the stream, and reading dest back after stores
    at random places stalls."""
    cdef int n = h.ncur, d = h.ncur - h.nkeep, i, j, r, nr = 0
    cdef uint8_t pos[OFC_MAX_DEAL]
    cdef uint8_t tmp
    cdef int left[OFC_MAX_ROWS]
    cdef int rows[OFC_MAX_ROWS]
    cdef int8_t row[OFC_MAX_DEAL]
    cdef const uint8_t *room = h.room[h.seat[h.turn]]
    cdef uint32_t disc = 0, kb        # bit i: dealt card i discarded / still to place
    cdef ofc_rng g[1]
    g[0] = stream[0]
    for i in range(n):
        pos[i] = <uint8_t> i
    for i in range(d):
        j = i + <int> ofc_rng_below(g, n - i)
        tmp = pos[i]
        pos[i] = pos[j]
        pos[j] = tmp
        disc |= 1u << pos[i]
    for r in range(R):
        if room[r]:
            rows[nr] = r
            nr += 1
    while True:
        for r in range(OFC_MAX_ROWS):
            left[r] = room[r]
        kb = ((1u << n) - 1) & ~disc  # the kept cards, in deal order
        while kb:
            i = ctz(kb)
            r = rows[ofc_rng_below(g, nr)]
            if left[r] == 0:
                break
            left[r] -= 1
            row[i] = <int8_t> r
            kb &= kb - 1
        if kb == 0:
            break
    for i in range(n):
        dest[i] = -1 if (disc >> i) & 1 else row[i]
    stream[0] = g[0]


cdef void policy_work_init(policy_work *W) noexcept nogil:
    memset(W, 0, sizeof(policy_work))
    solver_work_init(&W.sw)


cdef void policy_work_free(policy_work *W) noexcept nogil:
    free(W.idx)
    free(W.lays)
    free(W.cand)
    free(W.cand2)
    free(W.keys)
    free(W.decks)
    free(W.streams)
    free(W.shapes)
    solver_work_free(&W.sw)
    policy_work_init(W)


cdef int regrow(void **p, size_t size) noexcept nogil:
    """realloc *p to size bytes: 0, or -1 (*p unchanged) when out of memory."""
    cdef void *q = realloc(p[0], size)
    if q == NULL:
        return -1
    p[0] = q
    return 0


cdef int grow(policy_work *W, int64_t m) noexcept nogil:
    """Room for m candidates: 0, or -1 when out of memory."""
    if m <= W.cap:
        return 0
    if (regrow(<void **> &W.idx, m * sizeof(int64_t))
            or regrow(<void **> &W.lays, m * PLAY_MAX_CARDS)
            or regrow(<void **> &W.cand, m * sizeof(race_cand))
            or regrow(<void **> &W.cand2, m * sizeof(race_cand))
            or regrow(<void **> &W.keys, 2 * m * sizeof(cand_key))):
        return -1
    W.cap = m
    return 0


cdef int grow_samples(policy_work *W, int64_t s) noexcept nogil:
    """Room for the race's s sample decks: 0, or -1 when out of memory."""
    if s <= W.scap:
        return 0
    if (regrow(<void **> &W.decks, s * PLAY_MAX_CARDS)
            or regrow(<void **> &W.streams, s * sizeof(ofc_rng))):
        return -1
    W.scap = s
    return 0


cdef inline double outcome_value(const policy_params *pol, bint foul, int32_t royalty,
                                 bint entry) noexcept nogil:
    """What the valued policies make of one completed layout: -foul_cost for
    a foul, else its royalties plus fl_value for a fantasyland entry."""
    return -pol.foul_cost if foul else royalty + (pol.fl_value if entry else 0.0)


cdef inline double layout_value(const policy_params *pol, const ofc_layout_eval *e) noexcept nogil:
    """outcome_value of an evaluated layout."""
    return outcome_value(pol, e.foul, e.royalty_total, e.fantasyland != 0)


cdef double rollout_value(const ofc_play *C, const policy_params *pol, const uint8_t *lay,
                          uint8_t *u, int nu, ofc_rng *g) noexcept nogil:
    """Mean of royalties - foul_cost * foul + fl_value * entry over pol.samples
    completions of lay from the nu cards of u, each the best of pol.tries
    arrangements (the best-of-tries completion model of rollout(completion="best"))."""
    cdef uint8_t cards[PLAY_MAX_CARDS]
    cdef uint8_t emp[PLAY_MAX_CARDS]
    cdef int j, _, ne = 0, NC = C.NC
    cdef ofc_layout_eval e
    cdef double s = 0
    for j in range(NC):
        cards[j] = lay[j]
        if lay[j] == EMPTY:
            emp[ne] = <uint8_t> j
            ne += 1
    if ne == 0:            # complete: every completion is this layout
        ofc_eval_layout(T, C.r, cards, 0, &e)
        return layout_value(pol, &e)
    if nu < ne:
        return -pol.foul_cost
    for _ in range(pol.samples):
        ofc_shuffle_into(g, u, nu, ne, cards, emp)
        if pol.tries > 1:
            best_arrangement(C.r, cards, emp, ne, 0, pol.tries, pol.fl_bonus, g, &e)
        else:
            ofc_eval_layout(T, C.r, cards, 0, &e)
        s += layout_value(pol, &e)
    return s / pol.samples


include "_policies_race.pxi"


cdef int64_t valued_move(const ofc_hand *h, ofc_rng *g, const ofc_play *C,
                         const policy_params *pol, policy_work *W) noexcept nogil:
    """The move of the valued policies (index in the move list), or -1 when
    out of memory.  Each candidate (every legal move, or a random sample of
    max_moves of them) is valued by rollout_value; "heuristic" also avoids
    moves that leave the layout dead (valued -foul_cost - 1000, which is
    what their rollouts give: every completion fouls) and breaks ties at
    random; "greedy" keeps the first best; "racing" races them instead
    (raced_move)."""
    cdef int64_t n = hand_n_moves(h), m, c, j, k, t, best = 0
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef uint8_t u0[OFC_CARD_IDS]
    cdef int nu, p = h.seat[h.turn], found
    cdef uint64_t pool
    cdef double v, bv = -1e300
    cdef bint heur = pol.kind == POL_HEURISTIC
    cdef uint8_t *lay
    if n <= 1:
        return 0
    m = n if n <= pol.max_moves else pol.max_moves
    if grow(W, m):
        return -1
    if m == n:
        for c in range(n):
            W.idx[c] = c
    else:                   # Floyd's sample of m distinct moves
        t = 0
        for j in range(n - m, n):
            c = draw_below(g, j + 1)
            found = 0
            for k in range(t):
                if W.idx[k] == c:
                    found = 1
                    break
            W.idx[t] = j if found else c
            t += 1
    pool = hand_unseen(h, p)          # jokers included
    nu = ofc_mask_card_ids(pool, u0)
    if pol.kind == POL_RACING:
        return raced_move(h, g, C, pol, W, m, pool, u0, nu)
    for c in range(m):
        lay = W.lays + c * PLAY_MAX_CARDS
        hand_unrank(h, W.idx[c], dest)
        hand_after(h, dest, lay, NULL)
        if heur and not search_layout(C, lay, pool, NULL, NULL):
            v = -pol.foul_cost - 1000.0
        else:
            v = rollout_value(C, pol, lay, u0, nu, g)
        if heur:
            v += draw_unit(g) * 1e-6
        if v > bv:
            bv = v
            best = W.idx[c]
    return best


cdef int fantasyland_dest(const ofc_hand *h, double fl_value, int8_t *dest) noexcept nogil:
    """The exact solver's placement of the fantasyland hand to act (a repeat
    worth fl_value) as destinations; -1 when out of memory."""
    cdef int p = h.seat[h.turn], i, j, r
    cdef uint8_t lay[PLAY_MAX_CARDS]
    cdef const uint8_t *cards = hand_cards(h)
    cdef const ofc_play *pr = h.pr
    cdef int cnt = h.fl_count[p] if h.fl_count[p] > 0 else 1
    if fantasy_place(pr.r, cards, h.ncur, cnt, fl_value, lay):
        return -1
    for i in range(h.ncur):
        dest[i] = -1
        for j in range(pr.NC):
            if lay[j] == cards[i]:
                for r in range(pr.R):
                    if pr.row_off[r] <= j < pr.row_off[r] + pr.row_len[r]:
                        dest[i] = <int8_t> r
                break
    return 0


cdef inline uint64_t solver_seed(ofc_rng *g) noexcept nogil:
    """A solver decision's kernel seed drawn from a policy stream (odd, as
    SolverPolicy's own draws are)."""
    return ofc_rng_next(g) | 1


cdef int policy_move(const policy_params *pp, const ofc_hand *h, ofc_rng *g, policy_work *W,
                     int8_t *dest, uint64_t kseed, solver_stats *stats,
                     ofc_stop *S) noexcept nogil:
    """The move of policy pp for the seat to act of h (a turn of a street or
    a fantasyland deal) into dest (a row or -1 per dealt card, deal order):
    0, or POLICY_FAILED when it could not decide (out of memory; the solver:
    fewer unseen cards than empty slots), dest then holding the first legal
    move.  The solver draws its decision's seed from g unless kseed is given
    (not 0), reports its decision in stats (when not NULL), and stops when S
    (when not NULL) says so: POLICY_STOPPED, dest not set and g as it was,
    so the decision made again is the same."""
    cdef int64_t idx
    cdef solver_stats st
    cdef ofc_rng g0
    if pp.kind == POL_RANDOM:
        random_dest(h, h.pr.R, g, dest)
        return 0
    if h.street[h.turn] < 0:
        if fantasyland_dest(h, pp.fl_value, dest):
            hand_unrank(h, 0, dest)
            return POLICY_FAILED
        return 0
    if pp.kind == POL_SOLVER:
        if hand_n_moves(h) <= 1:
            idx = 0
        else:
            g0 = g[0]
            idx = solver_move(&pp.solver, h, kseed if kseed else solver_seed(g), &W.sw,
                              stats if stats != NULL else &st, S)
            if idx == SOLVER_STOPPED:
                g[0] = g0
                return POLICY_STOPPED
    else:
        idx = valued_move(h, g, h.pr, pp, W)
    hand_unrank(h, idx if idx >= 0 else 0, dest)
    return 0 if idx >= 0 else POLICY_FAILED


cdef int policy_fantasyland(const ofc_hand *h, double fl_value, int8_t *dest) noexcept nogil:
    """The exact solver's placement of the fantasyland deal to act (what the
    engine plays for a seat that has no policy in C); -1 when out of memory
    (dest then holds the first legal move)."""
    if fantasyland_dest(h, fl_value, dest):
        hand_unrank(h, 0, dest)
        return -1
    return 0


# -------------------------------------------------------------------- Python
cdef class Stream:
    """A random stream of the policies (xoshiro256** of ``src/ofc_rng.h``),
    stream ``index`` of a 64-bit ``key``.  Policies that share one draw
    from it in turn, as the seats of a batch game share the game's stream.

    Parameters
    ----------
    key, index : int
        0 .. 2**64 - 1 each.
    """

    def __init__(self, uint64_t key=0, uint64_t index=0):
        ofc_rng_seed(&self.g, key, index)

    def reseed(self, uint64_t key, uint64_t index):
        """Restart as stream ``index`` of ``key``."""
        ofc_rng_seed(&self.g, key, index)

    def state(self):
        """The stream's four 64-bit words."""
        return tuple([self.g.s[i] for i in range(4)])

    def below(self, uint64_t n):
        """The next draw below ``n`` (1 .. 2**64 - 1), as the policies draw
        a move index (tests read a policy's choices off it)."""
        return draw_below(&self.g, <int64_t> n)

    def solver_seed(self):
        """The next solver decision's seed, as a ``"solver"`` seat draws it."""
        return solver_seed(&self.g)

    def set_state(self, words):
        """Continue from four 64-bit words (``state()``)."""
        cdef int i
        for i in range(4):
            self.g.s[i] = words[i]

    def __reduce__(self):
        return (_stream_at, (self.state(),))


def _stream_at(words):
    cdef Stream s = Stream()
    s.set_state(words)
    return s


cdef class PolicyCore:
    """A built-in policy as C runs it: its kind and parameters, and the
    stream it draws from (ofc_fast.policies builds these after checking
    every parameter).  The solver's settings (``n``, ``z``, ``first_round``,
    ``time_budget_ms``: 0 for none) matter to kind ``"solver"`` only; its
    ``tries`` are ``tries``."""

    def __init__(self, int kind, int samples, int tries, int64_t max_moves, double foul_cost,
                 double fantasyland_value, Stream stream not None, int64_t n=1, double z=0.0,
                 int64_t first_round=1, double time_budget_ms=0.0):
        self.p.kind = kind
        self.p.samples = samples
        self.p.tries = tries
        self.p.max_moves = max_moves
        self.p.foul_cost = foul_cost
        self.p.fl_value = fantasyland_value
        self.p.fl_bonus = <int> fantasyland_value
        self.p.solver.n = n
        self.p.solver.tries = tries
        self.p.solver.fantasyland_value = fantasyland_value
        self.p.solver.z = z
        self.p.solver.first_round = first_round
        self.p.solver.time_budget_ms = time_budget_ms
        self.stream = stream
        memset(&self.last, 0, sizeof(solver_stats))

    def choose(self, HandCore core not None, uint64_t kseed=0):
        """The policy's move for the seat to act of ``core`` (its index in
        the move order), or -1 when the hand is over.  The core is not
        changed; the stream moves on.  ``kseed``: the solver decision's seed
        (0: drawn from the stream, as a batch seat draws it).  Ctrl-C stops
        a solver's decision (KeyboardInterrupt, in the main thread): the
        stream and ``last_decision()`` are then as they were."""
        cdef int8_t dest[OFC_MAX_DEAL]
        cdef policy_work W
        cdef solver_stats last
        cdef int st
        cdef ofc_stop S
        cdef ofc_stop *sp = NULL
        cdef Stop stop
        if hand_done(&core.s):
            return -1
        memset(&last, 0, sizeof(solver_stats))
        if self.p.kind == POL_SOLVER:       # the only decision that may take long
            stop = Stop()
            stop_begin(&S, stop)
            sp = &S
        policy_work_init(&W)
        with nogil:
            st = policy_move(&self.p, &core.s, &self.stream.g, &W, dest, kseed, &last, sp)
            policy_work_free(&W)
        if sp != NULL:
            stop_end(&S)
        if st == POLICY_STOPPED:
            raise KeyboardInterrupt     # (stop_end raised the handler's exception first)
        self.last = last
        if st < 0:
            raise MemoryError("the policy could not decide (out of memory, or fewer unseen "
                              "cards than empty slots)")
        return hand_rank(&core.s, dest)

    def last_decision(self):
        """What the solver's last decision did: moves, completions, rounds
        (moves valued, completions per move), left, dead_checks, ms."""
        cdef int i
        rounds = [(self.last.round_moves[i], self.last.round_size[i])
                  for i in range(min(self.last.n_rounds, SOLVER_MAX_ROUNDS))]
        return {"moves": self.last.moves, "completions": self.last.completions,
                "rounds": rounds, "left": self.last.left, "dead_checks": self.last.dead_checks,
                "ms": self.last.ms}

    def params(self):
        """(kind, samples, tries, max_moves, foul_cost, fantasyland_value, n, z,
        first_round, time_budget_ms)."""
        return (self.p.kind, self.p.samples, self.p.tries, self.p.max_moves, self.p.foul_cost,
                self.p.fl_value, self.p.solver.n, self.p.solver.z, self.p.solver.first_round,
                self.p.solver.time_budget_ms)

    def __reduce__(self):
        p = self.params()
        return (PolicyCore, (*p[:6], self.stream, *p[6:]))


def fantasyland_choice(HandCore core not None, double fantasyland_value):
    """The exact solver's move (its index in the move order) for the
    fantasyland deal to act in ``core`` (a repeat worth ``fantasyland_value``)."""
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef int st
    with nogil:
        st = policy_fantasyland(&core.s, fantasyland_value, dest)
    if st < 0:
        raise MemoryError("the fantasyland solver")
    return hand_rank(&core.s, dest)
