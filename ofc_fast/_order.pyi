"""Type stub for the compiled ``ofc_fast._order`` (the move order of a turn
and the action code of a move; the C API is ``_order.pxd``).

Public faces: ``ofc_fast.sim.actions`` (actions), ``Game.legal_moves``
(the move order).
"""
from collections.abc import Sequence
from typing import Final

MAX_CARDS: Final[int]
"""Most cards a layout has (18)."""

def count_placements(n: int, keep: int, rooms: Sequence[int]) -> int:
    """Distinct moves placing keep of n dealt cards into rows with these free
    slots (ValueError for rooms beyond 3 / 5 or negative counts)."""

def action_code(dest: Sequence[int], R: int) -> int:
    """The action of destinations ``dest`` (rows ``-1 .. R - 1``, checked by the caller)."""

def action_dest(action: int, n: int, R: int, n_actions: int) -> tuple[int, ...] | int:
    """The destinations of ``action`` for ``n`` dealt cards, or minus the reason
    code (1: outside the action space, 2: a digit beyond the cards dealt)."""
