"""Type stub for the compiled ``ofc_fast._solver`` (SolverPolicy's decision in C).

Public face: ``ofc_fast.solver.SolverPolicy``.  The C API (``solver_move``,
``_solver.pxd``) is for other extensions (the batch engine).
"""
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc_fast._hand import HandCore

_U8 = npt.NDArray[np.uint8]

def seat_position(core: HandCore, index: npt.NDArray[np.int64]
                  ) -> tuple[_U8, _U8, _U8, npt.NDArray[np.int32], int, int]:
    """What valuing the moves ``index`` of the seat to act takes, as it sees the
    table: (layouts after the moves, the others' layouts, their fantasyland
    counts, empty slots per row, unseen cards' mask, its fantasyland count).
    StateError when the hand is over, ValueError for a move out of range."""
    ...

def solver_choose(core: HandCore, n: int, tries: int, fantasyland_value: float, z: float,
                  first_round: int, time_budget_ms: float, kseed: int
                  ) -> tuple[int, dict[str, Any]]:
    """SolverPolicy's decision for the seat to act on a street: (move index in
    the hand's move order, what the decision did); ``time_budget_ms <= 0``:
    no limit.  ValueError for bad settings, StateError when the hand is over
    or the seat plays a fantasyland deal, ArgumentError when the table cannot
    be completed."""
    ...
