"""Type stub for the compiled ``ofc_fast._solver`` (SolverPolicy's decision in C).

Public face: ``ofc_fast.solver.SolverPolicy``.  The C API (``solver_move``,
``_solver.pxd``) is for other extensions (the batch engine).
"""
from typing import Any

from ofc_fast._hand import HandCore

def solver_choose(core: HandCore, n: int, tries: int, fantasyland_value: float, z: float,
                  first_round: int, time_budget_ms: float, kseed: int
                  ) -> tuple[int, dict[str, Any]]:
    """SolverPolicy's decision for the seat to act on a street: (move index in
    the hand's move order, what the decision did); ``time_budget_ms <= 0``:
    no limit.  ValueError for bad settings, StateError when the hand is over
    or the seat plays a fantasyland deal, ArgumentError when the table cannot
    be completed."""
    ...
