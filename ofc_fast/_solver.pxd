# cython: language_level=3
# The C API of ofc_fast._solver: SolverPolicy's decision for the seat to act
# on a street, without the GIL, for ofc_fast.solver (SolverPolicy's Python
# face) and the batch engine's "solver" seats.  solver_move reads only what
# the seat to act may see of the hand (its layout, hand and discards, the
# others' placed cards, hidden fantasyland hands EMPTY) and returns the index
# of the move it plays in the hand's move order (hand_unrank).  The caller
# checks the parameters (ofc_fast.solver.solver_options: the defaults and
# bounds) and passes a fresh kernel seed per decision, and the check of its
# call's stop (_stop.pxd; NULL: never stops) when the decision may be cut
# short by Ctrl-C (SOLVER_STOPPED: nothing decided).
from libc.stdint cimport int64_t, uint8_t, uint64_t

from ofc_fast._hand cimport ofc_hand
from ofc_fast._rollout cimport values_scratch
from ofc_fast._stop cimport ofc_stop

cdef enum:
    SOLVER_MAX_ROUNDS = 64     # rounds kept in solver_stats (all are counted)
    # solver_move's answers other than a move index
    SOLVER_NO_MEMORY = -1
    SOLVER_SHORT = -2          # fewer unseen cards than empty slots at the table
    SOLVER_NOT_STREET = -3     # the hand is over, or the seat plays a fantasyland deal
    SOLVER_STOPPED = -4        # the call's stop was set: nothing decided

cdef struct solver_params:
    int64_t n                  # most completions per move (>= 1)
    int tries                  # arrangements per completion (1: completion "random")
    double fantasyland_value   # points per fantasyland earned (a repeat in fantasyland)
    double z                   # standard errors below the leader that drop a move (>= 0)
    int64_t first_round        # completions per move in the first round (>= 1)
    double time_budget_ms      # <= 0: no limit (the decision depends only on seed and position)

cdef struct solver_stats:
    int64_t moves              # legal moves
    int64_t completions        # completions per move still in at the end
    int64_t left               # moves still in at the end
    int64_t dead_checks        # exact dead-hand searches of the final choice
    int n_rounds               # rounds run
    int64_t round_moves[SOLVER_MAX_ROUNDS]   # moves valued in round i
    int64_t round_size[SOLVER_MAX_ROUNDS]    # completions per move in round i
    double ms                  # wall-clock time of the decision

cdef struct solver_work:
    # scratch grown on demand: solver_work_init before the first use,
    # solver_work_free after the last; one per thread
    int64_t cap                # moves the buffers hold
    uint8_t *after             # each move's layout after it (PLAY_MAX_CARDS a move)
    uint8_t *lays              # the layouts of the moves still in, in order
    int64_t *cand              # the moves still in (move indexes, ascending)
    int64_t *cum               # their sums over every completion (N_ACC a move)
    int64_t *cross             # over the completions since the reference was chosen
    int64_t *acc               # over this round's
    double *mean               # their means
    double *se                 # standard errors of their difference with the reference
    double *last_mean          # each move's mean when last valued (by move index)
    uint8_t *keep              # still in after this round / already checked
    values_scratch vs          # values_sums's scratch

cdef void solver_work_init(solver_work *W) noexcept nogil
cdef void solver_work_free(solver_work *W) noexcept nogil
cdef int64_t solver_move(const solver_params *sp, const ofc_hand *h, uint64_t kseed,
                         solver_work *W, solver_stats *stats, ofc_stop *S) noexcept nogil
