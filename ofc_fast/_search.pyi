"""Type stub for the compiled ``ofc_fast._search`` (the exact dead-hand search).

Public wrappers: ``ofc_fast.rollouts`` (``is_dead``, ``completion``).  Card
masks are Python ints / uint64 with bit ``c`` set for card ``c``.
"""
import numpy as np
import numpy.typing as npt

from ofc_fast._play import PlayRules
from ofc_fast._stop import Stop

_U8 = npt.NDArray[np.uint8]

def dead_kernel(rules: PlayRules, layouts: _U8, pools: npt.NDArray[np.uint64],
                dead: _U8, completions: _U8, nodes: npt.NDArray[np.int64],
                stop: Stop | None = None) -> int:
    """Exact dead-hand search for each partial layout, until stop (None: the
    call's own); -1, the first bad row, or -2 - row when a pool holds one of
    the layout's cards."""
    ...

def dead_one(rules: PlayRules, layout: _U8, pool: int) -> int:
    """1 dead, 0 alive, -1 malformed layout (one partial layout)."""
    ...

def dead_jokers_one(rules: PlayRules, layout: _U8, pool: int) -> int:
    """1 dead, 0 alive, -1 malformed layout (one partial layout with the
    variant's jokers; a joker counts as any card it may become)."""
    ...

def dead_quick_one(rules: PlayRules, layout: _U8) -> int:
    """1 when the cheap test proves a partial layout dead whatever cards
    complete it (each row's cards first), 0 proves nothing, -1 malformed."""
    ...

def max5_kernel(row: _U8, pool: int) -> tuple[int, int]:
    """(strongest completion, cards used) of a partial 5-card row."""
    ...

def min_kernel(row: _U8, pool: int) -> tuple[int, int]:
    """(weakest completion, cards used) of a partial 3- or 5-card row."""
    ...
