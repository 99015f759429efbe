"""Pairwise scoring kernels (see ofc_fast/_score.pyx)."""
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ofc_fast._layout import CompiledRules

_Columns = dict[str, NDArray[Any]]

MIN_PAIRS: int
"""Fewest pairs per thread for ``matrix`` and ``totals`` (524,288)."""
MIN_TABLES: int
"""Fewest tables per thread for ``score_tables_kernel`` (4,096)."""

def matrix(rules: CompiledRules, a: _Columns, b: _Columns,
           out: NDArray[np.int32], n_threads: int | None = 1) -> NDArray[np.int32]: ...
def totals(rules: CompiledRules, a: _Columns, b: _Columns,
           out: NDArray[np.int64], n_threads: int | None = 1) -> NDArray[np.int64]: ...
def score_tables_kernel(
    rules: CompiledRules, cards: NDArray[np.uint8], fl: NDArray[np.uint8] | None,
    details: bool = True, n_threads: int | None = 1,
) -> tuple[NDArray[np.int32], NDArray[np.uint8], NDArray[np.int16], NDArray[np.uint8],
           NDArray[np.uint8], int]: ...
