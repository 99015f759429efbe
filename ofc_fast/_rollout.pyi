"""Type stub for the compiled ``ofc_fast._rollout`` (random rollouts, move values).

Public wrappers: ``ofc_fast.rollouts`` (``rollout``, ``rollout_ev``) and
``ofc_fast.solver`` (``move_values``).  Card masks are Python ints / uint64
with bit ``c`` set for card ``c``.
"""
from typing import Final

import numpy as np
import numpy.typing as npt

from ofc_fast._play import PlayRules
from ofc_fast._stop import Stop

_U8 = npt.NDArray[np.uint8]

def rollout_kernel(pr: PlayRules, layouts: _U8, dead: npt.NDArray[np.uint64], fl: _U8, n: int,
                   seed: int, mode: int, stats: npt.NDArray[np.int64], out_layouts: _U8,
                   out_foul: _U8, out_royalty: npt.NDArray[np.int16], out_fantasy: _U8,
                   tries: int = 1, fl_bonus: int = 0, base: int = 0,
                   stop: Stop | None = None) -> tuple[int, int]:
    """Complete each layout n times (layout i from the stream of (seed, base + i)),
    until stop (None: the call's own); (first bad layout or -1, first layout
    with too few unseen cards or -1)."""
    ...

def rollout_ev_kernel(pr: PlayRules, hero: _U8, opp: _U8, dead: npt.NDArray[np.uint64],
                      fl_hero: _U8, fl_opp: _U8, n: int, seed: int,
                      out: npt.NDArray[np.float64], base: int = 0,
                      stop: Stop | None = None) -> tuple[int, int, int]:
    """Score n completions of each hero row (stream (seed, base + i)) against the
    opponents, until stop (None: the call's own); (first bad hero row, first
    short row, first bad opponent), -1 for none."""
    ...

VALUE_SUMS: Final[int]
"""Columns of the per-move int64 sums of :func:`values_kernel`: points,
squared points, fouls, royalties, fantasyland, fantasyland x points, and the
four cross sums with the reference move (points x points, points x
fantasyland, fantasyland x points, fantasyland x fantasyland)."""

def values_kernel(pr: PlayRules, hero: _U8, room: npt.NDArray[np.int32], opp: _U8, pool: int,
                  fl_hero: int, fl_opp: _U8, k0: int, k1: int, seed: int, tries: int,
                  fl_bonus: int, ref: int, acc: npt.NDArray[np.int64],
                  stop: Stop | None = None) -> int:
    """Add each move's sums over completions k0 .. k1 - 1 into acc (M, VALUE_SUMS),
    until stop (None: the call's own):
    hero[m] the layout after move m, room the empty slots per row before the
    move (ValueError when a move leaves more), opp the opponents' layouts as seen, pool
    the unseen cards, ref the row of the reference move (-1: none).
    Completion k is one deck from the stream of (seed, k), the same for every
    move (the hero's cards from one block of it per row).  0, or -1 when the
    pool is smaller than the empty slots."""
    ...
