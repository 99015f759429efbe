# cython: language_level=3
# The C API of ofc_fast._policies: the built-in policies, each written once.
# A policy is a kind and its parameters (policy_params); policy_move plays
# the seat to act of a hand (ofc_hand of _hand.pxd) from what that seat may
# see, drawing its randomness from a stream (ofc_rng), with scratch memory
# in a policy_work.  The batch engine (_batch) calls it for its built-in
# seats; the Python policy classes (ofc_fast.policies) call it through
# PolicyCore, so a policy plays alike in Game, Match and GameBatch.
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t

from ofc_fast._hand cimport HandCore, ofc_hand
from ofc_fast._layout cimport OFC_MAX_ROWS
from ofc_fast._rng cimport ofc_rng
from ofc_fast._solver cimport solver_params, solver_stats, solver_work
from ofc_fast._stop cimport ofc_stop

cdef enum:
    POL_EXTERNAL = 0      # the caller's (the batch engine's external seats)
    POL_RANDOM = 1        # a uniformly random legal move
    POL_GREEDY = 2        # every move valued by rollouts, the first best
    POL_HEURISTIC = 3     # the same, dead moves avoided, ties at random
    POL_RACING = 4        # the heuristic's values raced on common samples
    POL_SOLVER = 5        # SolverPolicy's decision (_solver.solver_move)
    # policy_move's answers other than 0
    POLICY_FAILED = -1    # could not decide: dest holds the first legal move
    POLICY_STOPPED = -2   # the call's stop was set: nothing decided, the stream as before


cdef struct policy_params:
    int kind
    int samples              # completions per move
    int tries                # arrangements per completion (the best kept)
    int64_t max_moves        # most moves valued (a random sample beyond)
    double foul_cost         # points a foul costs
    double fl_value          # a fantasyland entry's worth; a repeat's in fantasyland
    int fl_bonus             # int(fl_value): the arrangement bonus of the completion model
    solver_params solver     # POL_SOLVER's settings (its fantasyland value is fl_value)


cdef struct race_cand:
    # a candidate of the race (raced_move)
    double v                         # sum of its sample values so far, plus its tie break
    double tie                       # its tie break
    int64_t c                        # its position among the decision's candidates
    uint64_t key[OFC_MAX_ROWS]       # each row's placed cards as an additive key (row_key)
    uint16_t st[OFC_MAX_ROWS]        # the strength of each complete row
    int32_t shape                    # its empty slots per row (index into policy_work.shapes)
    int32_t brank                    # this sample: its best arrangement's rank so far
    double bval                      # ... and that arrangement's value
    uint8_t live                     # a sample did not foul (it is not dead)
    uint8_t joker                    # its layout holds a joker (race_eval_jokers)


cdef struct cand_key:
    # a candidate's sort key (sort_cands): ascending by hi, then lo
    uint64_t hi
    uint64_t lo
    int64_t j                        # its index in policy_work.cand


cdef struct race_shape:
    # the empty slots of a move per row (moves of one shape share their
    # arrangements of a sample's cards)
    uint8_t e[OFC_MAX_ROWS]          # empty slots per row
    uint8_t first[OFC_MAX_ROWS]      # the row's first among the ne (empty slots row by row)
    int64_t ways                     # distinct arrangements: ne! / prod(e!)
    int64_t lo, hi                   # its candidates in the round: W.cand[lo .. hi)


cdef struct policy_work:
    # a decision's scratch (one per thread, grown on demand)
    int64_t cap
    int64_t *idx
    uint8_t *lays
    race_cand *cand
    race_cand *cand2                 # sort_cands: the candidates in their new order
    cand_key *keys                   # sort_cands: the keys, and a merge's other half
    int64_t scap                     # samples the race's decks hold
    uint8_t *decks                   # (scap, PLAY_MAX_CARDS): sample k's cards
    ofc_rng *streams                 # sample k's arrangement stream, after its deal
    # the race's decision: its sample decks are drawn as needed
    int64_t ndecks                   # decks drawn
    uint64_t seed                    # sample k: the stream (seed, k)
    const uint8_t *u0                # the unseen cards, sorted
    int nu, ne                       # how many; the empty slots of every move
    race_shape *shapes               # the shapes of the decision's moves
    int nshapes, shcap
    int chain                        # the foul order's row pairs (race_eval)
    bint jokers                      # the variant deals jokers (race_round keeps the cards)
    solver_work sw                   # POL_SOLVER's scratch


cdef class Stream:
    cdef ofc_rng g

cdef class PolicyCore:
    cdef policy_params p
    cdef solver_stats last
    cdef readonly Stream stream

cdef void policy_work_init(policy_work *W) noexcept nogil
cdef void policy_work_free(policy_work *W) noexcept nogil
cdef int policy_move(const policy_params *pp, const ofc_hand *h, ofc_rng *g, policy_work *W,
                     int8_t *dest, uint64_t kseed, solver_stats *stats,
                     ofc_stop *S) noexcept nogil
cdef int policy_fantasyland(const ofc_hand *h, double fl_value, int8_t *dest) noexcept nogil
