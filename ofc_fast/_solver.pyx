# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
# cython: initializedcheck=False
"""SolverPolicy's decision, once, in C (docs/solver.md, "SolverPolicy").

``solver_move`` (``_solver.pxd``) chooses the move of the seat to act on a
street from what that seat may see of an ``ofc_hand`` (``_hand.pxd``): each
legal move's layout after it (``hand_unrank``, ``hand_after``), the others'
layouts with what the seat has not seen emptied (``hand_seen``: a hidden
fantasyland hand is all EMPTY), the cards it has not seen.  Then:

1. rounds of completions on common decks (``_rollout.values_sums``:
   completion ``k`` is the deck of the stream ``(kseed, k)``, the same for
   every move), the first of ``first_round`` completions per move, each
   later one about as many as all rounds before, until ``n``;
2. after each round, a move whose mean is below the leader's by more than
   ``z`` standard errors of the paired difference is dropped (the variance
   from the cross sums with the reference move, the leader since it last
   changed);
3. with a time budget, the first round's size is guessed from a typical
   rate and the later ones from the rate measured, and the rounds stop when
   the next would not fit;
4. the move played is the best that keeps a live hand alive: the moves still
   in by their mean, then the dropped ones by their mean when dropped, each
   checked with the exact dead-hand search (``_search.search_layout``) until
   one is alive.

A decision stops early when its call's stop says so (``values_sums`` looks
between completions, ``_stop.pxd``): ``SOLVER_STOPPED``, nothing decided.

The arithmetic is that of ``SolverPolicy.choose`` before it moved here
(``tests/solver_reference.py`` keeps it): the same double expressions in the
same order, each product rounded on its own as numpy rounds it (``mul``: no
fused multiply-add), so without a time budget the C decision is the Python
one.
``solver_choose`` is the Python entry point (``ofc_fast.solver.SolverPolicy``).
"""
from libc.math cimport INFINITY, rint, sqrt
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from ofc_fast._cards cimport OFC_EMPTY as EMPTY, ofc_card_bit
from ofc_fast._compat cimport ofc_seconds
from ofc_fast._eval cimport OFC_MAX_DEAL
from ofc_fast._hand cimport (HAND_MAX_SEATS, HandCore, hand_after, hand_done, hand_n_moves,
                             hand_seen, hand_unrank, hand_unseen)
from ofc_fast._layout cimport OFC_MAX_ROWS
from ofc_fast._play cimport PLAY_MAX_CARDS, ofc_play
from ofc_fast._rollout cimport (ACC_FL, ACC_FL_POINTS, ACC_POINTS, ACC_POINTS2, ACC_X_FF,
                                ACC_X_FP, ACC_X_PF, ACC_X_PP, N_ACC, VALUES_OK, VALUES_SHORT,
                                VALUES_STOPPED, values_scratch_free, values_scratch_init,
                                values_sums)
from ofc_fast._search cimport search_layout
from ofc_fast._stop cimport Stop, ofc_stop, stop_begin, stop_end

import numpy as np

from ofc_fast.errors import ArgumentError, StateError

cdef extern from *:
    """
    /* x * y rounded on its own: a compiler that contracts a * b + c into a
       fused multiply-add (arm64) would round differently from numpy, which
       multiplies and adds in separate steps (the arithmetic here is the
       reference's, tests/solver_reference.py). */
    static inline double ofc_solver_mul(double x, double y)
    {
        volatile double p = x * y;
        return p;
    }
    """
    double mul "ofc_solver_mul" (double x, double y) noexcept nogil

cdef enum:
    MIN_ROUND = 8                  # fewest completions in a round under a time budget

cdef double SURVIVOR = 1e12        # ranks the moves still in above the dropped ones
cdef double GUESS_RATE = 16e6      # move-completions per second times tries, three rows


# ---------------------------------------------------------------------- scratch
cdef void solver_work_init(solver_work *W) noexcept nogil:
    """An empty scratch (solver_move grows it)."""
    W.cap = 0
    W.after = W.lays = W.keep = NULL
    W.cand = W.cum = W.cross = W.acc = NULL
    W.mean = W.se = W.last_mean = NULL
    values_scratch_init(&W.vs)


cdef void free_buffers(solver_work *W) noexcept nogil:
    """Free the buffers sized by moves (values_sums's scratch stays)."""
    free(W.after)
    free(W.lays)
    free(W.cand)
    free(W.cum)
    free(W.cross)
    free(W.acc)
    free(W.mean)
    free(W.se)
    free(W.last_mean)
    free(W.keep)
    W.after = W.lays = W.keep = NULL
    W.cand = W.cum = W.cross = W.acc = NULL
    W.mean = W.se = W.last_mean = NULL
    W.cap = 0


cdef void solver_work_free(solver_work *W) noexcept nogil:
    """Free a scratch's buffers (it is empty again)."""
    free_buffers(W)
    values_scratch_free(&W.vs)


cdef bint work_grow(solver_work *W, int64_t M) noexcept nogil:
    """Room for M moves; False when out of memory."""
    if M <= W.cap:
        return True
    free_buffers(W)            # values_sums grows its own scratch
    W.after = <uint8_t *> malloc(M * PLAY_MAX_CARDS)
    W.lays = <uint8_t *> malloc(M * PLAY_MAX_CARDS)
    W.cand = <int64_t *> malloc(M * sizeof(int64_t))
    W.cum = <int64_t *> malloc(M * N_ACC * sizeof(int64_t))
    W.cross = <int64_t *> malloc(M * N_ACC * sizeof(int64_t))
    W.acc = <int64_t *> malloc(M * N_ACC * sizeof(int64_t))
    W.mean = <double *> malloc(M * sizeof(double))
    W.se = <double *> malloc(M * sizeof(double))
    W.last_mean = <double *> malloc(M * sizeof(double))
    W.keep = <uint8_t *> malloc(M)
    if (W.after == NULL or W.lays == NULL or W.cand == NULL or W.cum == NULL
            or W.cross == NULL or W.acc == NULL or W.mean == NULL or W.se == NULL
            or W.last_mean == NULL or W.keep == NULL):
        free_buffers(W)
        return False
    W.cap = M
    return True


# ----------------------------------------------------------------- the statistics
cdef inline double value_mean(const int64_t *a, double fv, int64_t n) noexcept nogil:
    """A move's mean value over n completions: points plus fv per fantasyland."""
    return (<double> a[ACC_POINTS] + mul(fv, <double> a[ACC_FL])) / <double> n


cdef void paired_se(const int64_t *cross, int64_t M, int64_t ref, int64_t cn, int64_t n,
                    double fv, double *se) noexcept nogil:
    """Standard error of each move's mean minus the reference's over n
    completions, its variance estimated from the cn completions of the cross
    sums (infinite while there are none)."""
    cdef int64_t m
    cdef const int64_t *c
    cdef const int64_t *r = cross + ref * N_ACC
    cdef double sx, sxx, sxr, d, d2, v
    cdef double sx_ref = <double> r[ACC_POINTS] + mul(fv, <double> r[ACC_FL])
    cdef double sxx_ref = (<double> r[ACC_POINTS2] + mul(2 * fv, <double> r[ACC_FL_POINTS])
                           + mul(fv * fv, <double> r[ACC_FL]))
    for m in range(M):
        if cn == 0:
            se[m] = INFINITY
            continue
        c = cross + m * N_ACC
        sx = <double> c[ACC_POINTS] + mul(fv, <double> c[ACC_FL])
        sxx = (<double> c[ACC_POINTS2] + mul(2 * fv, <double> c[ACC_FL_POINTS])
               + mul(fv * fv, <double> c[ACC_FL]))
        sxr = (<double> c[ACC_X_PP] + mul(fv, <double> c[ACC_X_PF] + <double> c[ACC_X_FP])
               + mul(fv * fv, <double> c[ACC_X_FF]))
        d = (sx - sx_ref) / <double> cn
        d2 = (sxx - 2 * sxr + sxx_ref) / <double> cn
        v = d2 - mul(d, d)
        se[m] = sqrt((v if v > 0.0 else 0.0) / <double> n)


cdef inline int64_t next_best(const double *rank, uint8_t *taken, int64_t M) noexcept nogil:
    """The move of highest rank not taken yet (the first of equal ones), taken."""
    cdef int64_t m, best = -1
    for m in range(M):
        if not taken[m] and (best < 0 or rank[m] > rank[best]):
            best = m
    taken[best] = 1
    return best


# ------------------------------------------------------------------- the position
cdef inline void move_layout(const ofc_hand *h, int64_t m, uint8_t *out) noexcept nogil:
    """The layout of the seat to act after move m of the move order into out
    (the layout's cards; m must be a move)."""
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef uint8_t lay[PLAY_MAX_CARDS]
    hand_unrank(h, m, dest)
    hand_after(h, dest, lay, NULL)
    memcpy(out, lay, h.pr.NC)


cdef int seat_table(const ofc_hand *h, uint8_t *opp, uint8_t *fl_opp, int32_t *room,
                    uint64_t *pool) noexcept nogil:
    """The table as the seat to act sees it (the hand not over): the others'
    layouts in seat order with every card it has not seen EMPTY (a hidden
    fantasyland hand is all EMPTY) into opp (NC cards each), their
    fantasyland counts, its empty slots per row, the cards it has not seen.
    Returns how many others."""
    cdef int p = h.seat[h.turn], q, i, Q = 0, nc = h.pr.NC
    cdef uint64_t seen = hand_seen(h, p, False)
    cdef uint8_t c
    for q in range(h.n_players):
        if q == p:
            continue
        for i in range(nc):
            c = h.lay[q][i]
            opp[Q * nc + i] = c if c != EMPTY and (seen & ofc_card_bit(c)) != 0 else EMPTY
        fl_opp[Q] = h.fl_count[q]
        Q += 1
    for i in range(h.pr.R):
        room[i] = h.room[p][i]
    pool[0] = hand_unseen(h, p)       # jokers included
    return Q


# ------------------------------------------------------------------- the decision
cdef int64_t solver_move(const solver_params *sp, const ofc_hand *h, uint64_t kseed,
                         solver_work *W, solver_stats *stats, ofc_stop *S) noexcept nogil:
    """The move the seat to act on a street plays (module docstring): its
    index in the hand's move order, or SOLVER_NO_MEMORY, SOLVER_SHORT (fewer
    unseen cards than empty slots at the table), SOLVER_NOT_STREET (the
    hand is over, or the seat plays a fantasyland deal: the exact
    fantasyland solver sets those) or SOLVER_STOPPED (S, when not NULL,
    said stop).  stats receives what the decision did."""
    cdef double t0 = ofc_seconds(), deadline = 0.0, left, rate, t, x, fv = sp.fantasyland_value
    cdef const ofc_play *pc = h.pr
    cdef int nc = pc.NC, p, Q, i, st
    cdef int64_t total, m, j, ncand, done = 0, cross_n = 0, size, ref = 0, lead, new_lead
    cdef int64_t best, checked = 0
    cdef uint8_t opp[(HAND_MAX_SEATS - 1) * PLAY_MAX_CARDS]
    cdef uint8_t fl_opp[HAND_MAX_SEATS]
    cdef int32_t room[OFC_MAX_ROWS]
    cdef uint64_t seen, pool
    cdef int bonus = <int> rint(fv)    # round half to even, as Python's round
    cdef bint timed = sp.time_budget_ms > 0
    cdef double *rank
    memset(stats, 0, sizeof(solver_stats))
    if hand_done(h) or h.street[h.turn] < 0:
        return SOLVER_NOT_STREET
    total = hand_n_moves(h)
    stats.moves = total
    if total == 1:
        return 0
    if not work_grow(W, total):
        return SOLVER_NO_MEMORY
    # the position as the seat to act sees it
    p = h.seat[h.turn]
    for m in range(total):
        move_layout(h, m, W.after + m * nc)
    Q = seat_table(h, opp, fl_opp, room, &pool)
    seen = hand_seen(h, p, False)
    # the rounds
    ncand = total
    for m in range(total):
        W.cand[m] = m
        W.last_mean[m] = -INFINITY
    memcpy(W.lays, W.after, total * nc)
    memset(W.cum, 0, total * N_ACC * sizeof(int64_t))
    memset(W.cross, 0, total * N_ACC * sizeof(int64_t))
    size = sp.first_round if sp.first_round < sp.n else sp.n
    if timed:
        deadline = t0 + 0.95 * sp.time_budget_ms / 1e3
        # the first round takes at most about a third of what is left, at a
        # rate guessed from a typical machine (later rounds measure it)
        left = deadline - ofc_seconds()
        x = left / 3 * (GUESS_RATE / sp.tries * 3 / pc.R) / ncand
        if x < size:
            size = <int64_t> x
        if size < MIN_ROUND:
            size = MIN_ROUND
        if size > sp.n:
            size = sp.n
    while True:
        memset(W.acc, 0, ncand * N_ACC * sizeof(int64_t))
        t = ofc_seconds()
        st = values_sums(pc, W.lays, ncand, room, opp, Q, pool, h.fl_count[p], fl_opp, done,
                         done + size, kseed, sp.tries, bonus, ref, W.acc, &W.vs, S)
        if st != VALUES_OK:
            return (SOLVER_SHORT if st == VALUES_SHORT else
                    SOLVER_STOPPED if st == VALUES_STOPPED else SOLVER_NO_MEMORY)
        t = ofc_seconds() - t
        rate = ncand * size / (t if t > 1e-6 else 1e-6)     # move-completions per second
        for j in range(ncand * N_ACC):
            W.cum[j] += W.acc[j]
            W.cross[j] += W.acc[j]
        done += size
        cross_n += size
        if stats.n_rounds < SOLVER_MAX_ROUNDS:
            stats.round_moves[stats.n_rounds] = ncand
            stats.round_size[stats.n_rounds] = size
        stats.n_rounds += 1
        lead = 0
        for j in range(ncand):
            W.mean[j] = value_mean(W.cum + j * N_ACC, fv, done)
            W.last_mean[W.cand[j]] = W.mean[j]
            if W.mean[j] > W.mean[lead]:
                lead = j
        paired_se(W.cross, ncand, ref, cross_n, done, fv, W.se)
        # sd(m - lead) <= sd(m - ref) + sd(lead - ref): exact when lead is the reference
        new_lead = 0
        for j in range(ncand):
            W.keep[j] = j == lead or W.mean[lead] - W.mean[j] <= sp.z * (W.se[j] + W.se[lead])
            if j < lead:
                new_lead += W.keep[j]
        if lead != ref:
            memset(W.cross, 0, ncand * N_ACC * sizeof(int64_t))
            cross_n = 0
        i = 0
        for j in range(ncand):
            if W.keep[j]:
                if i != j:
                    W.cand[i] = W.cand[j]
                    memcpy(W.cum + i * N_ACC, W.cum + j * N_ACC, N_ACC * sizeof(int64_t))
                    memcpy(W.cross + i * N_ACC, W.cross + j * N_ACC, N_ACC * sizeof(int64_t))
                    memcpy(W.lays + i * nc, W.lays + j * nc, nc)
                i += 1
        ncand = i
        ref = new_lead
        if ncand == 1 or done >= sp.n:
            break
        size = done if done < sp.n - done else sp.n - done
        if timed:
            left = deadline - ofc_seconds()
            x = 0.8 * left * rate / ncand
            if x < size:
                size = <int64_t> x
            if size < MIN_ROUND:
                break
    # the best move that keeps a live hand alive: the moves still in by their
    # mean, then the dropped ones by their mean when dropped
    rank = W.last_mean
    for j in range(ncand):
        rank[W.cand[j]] = value_mean(W.cum + j * N_ACC, fv, done) + SURVIVOR
    memset(W.keep, 0, total)
    best = next_best(rank, W.keep, total)
    if search_layout(pc, h.lay[p], pc.deck_mask & ~seen, NULL, NULL) > 0:
        m = best
        for j in range(total):
            if j:
                m = next_best(rank, W.keep, total)
            checked += 1
            if search_layout(pc, W.after + m * nc, pool, NULL, NULL) > 0:
                best = m
                break
    stats.completions = done
    stats.left = ncand
    stats.dead_checks = checked
    stats.ms = (ofc_seconds() - t0) * 1e3
    return best


# ------------------------------------------------------------------ Python entry
def seat_position(HandCore core, const int64_t[::1] index):
    """What valuing moves of the seat to act takes, from what it may see (as
    solver_move sees it): ``(layouts, others, fantasyland counts, room,
    unseen, own fantasyland count)``: its layout after each move of
    ``index`` (positions in the move order) ``(M, n_cards)`` uint8, the
    others' layouts as it sees them ``(Q, n_cards)`` uint8 and their
    fantasyland counts ``(Q,)`` uint8, its empty slots per row ``(rows,)``
    int32, the mask of the cards it has not seen, its fantasyland count."""
    cdef const ofc_hand *h = &core.s
    cdef int64_t k, M = index.shape[0], total = hand_n_moves(h)
    cdef int nc = h.pr.NC, Q
    cdef uint64_t pool
    if hand_done(h):
        raise StateError("the hand is over: no move to value")
    for k in range(M):
        if not 0 <= index[k] < total:
            raise ValueError(f"seat_position: move {index[k]} out of range ({total} moves)")
    lays = np.empty((M, nc), np.uint8)
    opp = np.empty((HAND_MAX_SEATS - 1, nc), np.uint8)
    fl_opp = np.empty(HAND_MAX_SEATS - 1, np.uint8)
    room = np.empty(h.pr.R, np.int32)
    cdef uint8_t[:, ::1] L = lays
    cdef uint8_t[:, ::1] OP = opp
    cdef uint8_t[::1] F = fl_opp
    cdef int32_t[::1] R = room
    with nogil:
        for k in range(M):
            move_layout(h, index[k], &L[k, 0])
        Q = seat_table(h, &OP[0, 0], &F[0], &R[0], &pool)
    return lays, opp[:Q].copy(), fl_opp[:Q].copy(), room, pool, h.fl_count[h.seat[h.turn]]


def solver_choose(HandCore core, int64_t n, int tries, double fantasyland_value, double z,
                  int64_t first_round, double time_budget_ms, uint64_t kseed):
    """SolverPolicy's decision for the seat to act in ``core`` (a street
    turn): ``(move index, stats)``, stats the dict ``SolverPolicy.last``
    shows (moves, completions, rounds, left, dead_checks, ms).  The
    arguments are ``solver_params`` (checked by ``ofc_fast.solver``);
    ``time_budget_ms <= 0`` means no limit.  The GIL is released while it
    decides; Ctrl-C stops it (KeyboardInterrupt, in the main thread)."""
    cdef solver_params sp
    cdef solver_stats stats
    cdef solver_work W
    cdef int64_t r
    cdef int i
    cdef ofc_stop S
    cdef Stop stop = Stop()
    if n < 1 or tries < 1 or first_round < 1 or not z >= 0:
        raise ValueError("solver_choose: n, tries and first_round must be >= 1 and z >= 0")
    sp.n = n
    sp.tries = tries
    sp.fantasyland_value = fantasyland_value
    sp.z = z
    sp.first_round = first_round
    sp.time_budget_ms = time_budget_ms
    stop_begin(&S, stop)
    solver_work_init(&W)
    with nogil:
        r = solver_move(&sp, &core.s, kseed, &W, &stats, &S)
        solver_work_free(&W)
    stop_end(&S)
    if r == SOLVER_STOPPED:
        raise KeyboardInterrupt     # a stop from no signal here: not expected
    if r == SOLVER_NO_MEMORY:
        raise MemoryError()
    if r == SOLVER_SHORT:
        raise ArgumentError("fewer unseen cards than empty slots at the table")
    if r == SOLVER_NOT_STREET:
        raise StateError("the solver decides a street turn: the hand is over, or the seat to "
                         "act plays a fantasyland deal (the fantasyland solver sets it)")
    rounds = [(stats.round_moves[i], stats.round_size[i])
              for i in range(min(stats.n_rounds, SOLVER_MAX_ROUNDS))]
    return r, {"moves": stats.moves, "completions": stats.completions, "rounds": rounds,
               "left": stats.left, "dead_checks": stats.dead_checks, "ms": stats.ms}
