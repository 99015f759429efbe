"""Type stub for the compiled ``ofc_fast._fantasy`` (exact fantasyland solver kernel).

Use :mod:`ofc_fast.fantasyland` (``solve_fantasyland``,
``solve_fantasyland_batch``); this kernel takes validated arrays.
"""
from typing import Final

import numpy as np
import numpy.typing as npt

from ofc_fast._layout import CompiledRules

MAX_CARDS: Final[int]
"""Most cards one hand may hold (24: card sets are 32-bit masks)."""

def solve_into(
    rules: CompiledRules,
    hands: npt.NDArray[np.uint8],
    layouts: npt.NDArray[np.uint8],
    discards: npt.NDArray[np.uint8],
    royalties: npt.NDArray[np.int16],
    total: npt.NDArray[np.int32],
    foul: npt.NDArray[np.uint8],
    repeat: npt.NDArray[np.uint8],
    next_cards: npt.NDArray[np.uint8],
    score: npt.NDArray[np.float64],
    fl_count: int,
    repeat_value: float,
) -> int:
    """Solve ``hands`` (N, k) into the preallocated C-contiguous outputs
    (layouts (N, n_cards), discards (N, k - n_cards), royalties (N, rows),
    total / foul / repeat / next_cards / score (N,)) without the GIL.
    ``repeat_value`` 0 ignores repeats.  Returns the first invalid hand, or -1."""
    ...
