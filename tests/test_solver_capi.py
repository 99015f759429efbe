"""The solver's C API (``ofc_fast/_solver.pxd``) from another extension, as
the batch engine seats it: a small Cython module, compiled here, cimports it
and plays whole hands without the GIL, every seat to act on a street deciding
by ``solver_move`` with one scratch (``solver_work``) for all; ``Game`` replays
the same decks with ``SolverPolicy`` drawing its kernel seeds from the same
generator, and must choose and score alike, decision for decision.
"""
from __future__ import annotations

import numpy as np
import pytest

import ofc_fast as ofc
from capi_build import build_module, capi_marks
from ofc_fast.engine import Game
from ofc_fast.solver import SolverPolicy

pytestmark = capi_marks("_solver.pxd")

CODE = '''
# cython: language_level=3, boundscheck=False, wraparound=False
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from ofc_fast._eval cimport OFC_MAX_DEAL
from ofc_fast._hand cimport (HAND_MAX_SEATS, hand_apply, hand_deal, hand_done, hand_result,
                             hand_run_auto, hand_unrank, ofc_hand)
from ofc_fast._layout cimport ofc_layout_eval
from ofc_fast._play cimport PlayRules
from ofc_fast._solver cimport (solver_move, solver_params, solver_stats, solver_work,
                               solver_work_free, solver_work_init)


def play(PlayRules pr, const uint8_t[:, ::1] decks, int n_players, int button,
         const uint8_t[::1] fl_cards, const uint8_t[::1] fl_count, const uint64_t[::1] kseeds,
         int64_t n, int tries, double fantasyland_value, double z, int64_t first_round,
         int64_t[:, ::1] choices, int64_t[:, ::1] completions, int32_t[:, ::1] points):
    """Play every deck's hand in C: a seat to act on a street plays
    solver_move's choice (decision d with kseeds[d]), a fantasyland deal its
    move 0.  Per hand the moves chosen (-1 after the last) and each
    decision's completions; the points.  Returns the decisions made, or
    -1 - d when decision d failed."""
    cdef ofc_hand h
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef ofc_layout_eval ev[HAND_MAX_SEATS]
    cdef solver_params sp
    cdef solver_stats st
    cdef solver_work W
    cdef int64_t idx, d = 0, failed = 0
    cdef Py_ssize_t i, k
    sp.n = n
    sp.tries = tries
    sp.fantasyland_value = fantasyland_value
    sp.z = z
    sp.first_round = first_round
    sp.time_budget_ms = 0
    solver_work_init(&W)
    with nogil:
        for i in range(decks.shape[0]):
            hand_deal(&h, &pr.c, n_players, button, &decks[i, 0], &fl_cards[0], &fl_count[0],
                      True)
            k = 0
            while not hand_done(&h) and not failed:
                completions[i, k] = 0
                if h.street[h.turn] < 0:
                    idx = 0
                else:
                    idx = solver_move(&sp, &h, kseeds[d], &W, &st, NULL)   # never stopped
                    if idx < 0 or d + 1 >= kseeds.shape[0]:
                        failed = -1 - d
                        break
                    completions[i, k] = st.completions
                    d += 1
                choices[i, k] = idx
                k += 1
                hand_unrank(&h, idx, dest)
                hand_apply(&h, dest, 0)
                hand_run_auto(&h)
            if failed:
                break
            hand_result(&h, ev, &points[i, 0])
        solver_work_free(&W)
    return failed if failed else d
'''


@pytest.fixture(scope="module")
def capi(tmp_path_factory):
    return build_module(tmp_path_factory.mktemp("solver_capi"), "solver_capi_check", CODE)


@pytest.mark.parametrize("name, P, fl, completion", [
    ("pineapple", 2, None, "best"), ("pineapple", 3, [0, 14, 0], "random"),
    ("big-pineapple", 2, None, "best"), ("progressive", 3, None, "random")])
def test_c_api_seats_the_solver_as_solver_policy_plays(capi, name, P, fl, completion):
    v = ofc.variant(name)
    H, button, seed = 4, 1, 11
    opts = dict(n=160, fantasyland_value=25.0, z=2.0, first_round=16)
    tries = 4 if completion == "best" else 1
    rng = np.random.default_rng(3)
    decks = np.array([rng.permutation(ofc.cards.DECK_SIZE) for _ in range(H)], np.uint8)
    probe = Game(v, P, button=button, fantasyland=fl, deck=decks[0])
    fl_cards, fl_count = (np.array(x, np.uint8) for x in probe._core.fantasyland())
    draw = np.random.default_rng(seed)
    kseeds = np.array([int(draw.integers(0, 2**63, dtype=np.int64)) * 2 + 1
                       for _ in range(H * 64)], np.uint64)
    choices = np.full((H, 64), -1, np.int64)
    completions = np.full((H, 64), -1, np.int64)
    points = np.zeros((H, 4), np.int32)
    made = capi.play(ofc.rollouts.play_rules(v), decks, P, button, fl_cards, fl_count, kseeds,
                     opts["n"], tries, opts["fantasyland_value"], opts["z"], opts["first_round"],
                     choices, completions, points)
    assert made > 0
    pol = SolverPolicy(seed=np.random.default_rng(seed), time_budget_ms=None,
                       completion=completion, tries=4, **opts)
    decisions = 0
    for i in range(H):
        g = Game(v, P, button=button, fantasyland=fl, deck=decks[i])
        for idx, done in zip(choices[i], completions[i], strict=True):
            if idx < 0:
                break
            moves = g.legal_moves()
            if g.street == -1:
                move = moves[0]
            else:
                move = pol.choose(g.view(g.to_act), moves)
                assert pol.last["completions"] == done > 0
                decisions += 1
            assert moves.index(move) == idx, (i, decisions)
            g.play(move)
        assert g.done
        assert list(g.result().points) == points[i, :P].tolist()
    assert decisions == made > 3 * H
