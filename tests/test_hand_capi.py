"""The hand state machine's C API (``ofc_fast/_hand.pxd``) from another
extension: a small Cython module, compiled here, cimports it and plays whole
hands in C without the GIL (random moves), as a batch engine would; ``Game``
replays the same decks and choices and must deal, count moves and score alike.
"""
from __future__ import annotations

import numpy as np
import pytest

import ofc_fast as ofc
from capi_build import build_module, capi_marks
from ofc_fast.engine import Game

pytestmark = capi_marks("_hand.pxd")

CODE = '''
# cython: language_level=3, boundscheck=False, wraparound=False
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from ofc_fast._eval cimport OFC_MAX_DEAL
from ofc_fast._hand cimport (HAND_MAX_SEATS, hand_apply, hand_deal, hand_done, hand_moves,
                             hand_n_moves, hand_rank, hand_result, hand_run_auto, hand_seen,
                             hand_to_act, hand_unrank, hand_unseen, ofc_hand)
from ofc_fast._layout cimport ofc_layout_eval
from ofc_fast._play cimport PlayRules
from ofc_fast._rng cimport ofc_rng, ofc_rng_next, ofc_rng_seed


def play(PlayRules pr, const uint8_t[:, ::1] decks, int n_players, int button,
         const uint8_t[::1] fl_cards, const uint8_t[::1] fl_count, uint64_t seed,
         int64_t[:, ::1] choices, int64_t[:, ::1] counts, int32_t[:, ::1] points):
    """Play every deck's hand in C, each decision a random move; per hand the
    moves chosen and how many there were (-1 after the last), the points.
    Returns the number of hands where a C API function disagreed with another."""
    cdef ofc_hand h
    cdef ofc_rng g
    cdef int8_t dest[OFC_MAX_DEAL]
    cdef int8_t listed[4 * OFC_MAX_DEAL]
    cdef ofc_layout_eval ev[HAND_MAX_SEATS]
    cdef int64_t n, idx
    cdef Py_ssize_t i, k, j, bad = 0
    with nogil:
        for i in range(decks.shape[0]):
            hand_deal(&h, &pr.c, n_players, button, &decks[i, 0], &fl_cards[0], &fl_count[0],
                      True)
            ofc_rng_seed(&g, seed, <uint64_t> i)
            k = 0
            while not hand_done(&h):
                n = hand_n_moves(&h)
                idx = <int64_t> (ofc_rng_next(&g) % <uint64_t> n)
                hand_unrank(&h, idx, dest)
                if hand_rank(&h, dest) != idx:
                    bad += 1
                if hand_moves(&h, idx, 4, listed) < 1:
                    bad += 1
                for j in range(h.ncur):
                    if listed[j] != dest[j]:
                        bad += 1
                if hand_unseen(&h, hand_to_act(&h)) & hand_seen(&h, hand_to_act(&h), True):
                    bad += 1
                choices[i, k] = idx
                counts[i, k] = n
                k += 1
                hand_apply(&h, dest, 0)
                hand_run_auto(&h)
            if not hand_result(&h, ev, &points[i, 0]):
                bad += 1
    return bad
'''


@pytest.fixture(scope="module")
def capi(tmp_path_factory):
    return build_module(tmp_path_factory.mktemp("hand_capi"), "hand_capi_check", CODE)


@pytest.mark.parametrize("name, P, fl", [("pineapple", 3, None), ("pineapple", 3, [0, 14, 0]),
                                         ("classic", 4, None), ("big-pineapple", 2, [19, 0]),
                                         ("pineapple-2-7", 2, None)])
def test_c_api_plays_what_game_plays(capi, name, P, fl):
    v = ofc.variant(name)
    H, button = 40, 1
    rng = np.random.default_rng(3)
    decks = np.array([rng.permutation(ofc.cards.DECK_SIZE) for _ in range(H)], np.uint8)
    probe = Game(v, P, button=button, fantasyland=fl, deck=decks[0])
    fl_cards, fl_count = (np.array(x, np.uint8) for x in probe._core.fantasyland())
    choices = np.full((H, 64), -1, np.int64)
    counts = np.full((H, 64), -1, np.int64)
    points = np.zeros((H, 4), np.int32)
    bad = capi.play(play_rules := ofc.rollouts.play_rules(v), decks, P, button, fl_cards,
                    fl_count, 9, choices, counts, points)
    assert bad == 0 and play_rules.n_cards == v.n_cards
    decisions = 0
    for i in range(H):
        g = Game(v, P, button=button, fantasyland=fl, deck=decks[i])
        for idx, n in zip(choices[i], counts[i], strict=True):
            if idx < 0:
                break
            moves = g.legal_moves()
            assert len(moves) == n
            g.play(moves[int(idx)])
            decisions += 1
        assert g.done
        assert list(g.result().points) == points[i, :P].tolist()
    assert decisions > H
