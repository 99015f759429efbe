"""Finished-layout kernels (see ofc_fast/_layout.pyx)."""
from typing import Any

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Self, disjoint_base

from ofc_fast.rules import Variant

@disjoint_base
class CompiledRules:
    def __new__(cls, variant: Variant) -> Self: ...
    @property
    def variant(self) -> Variant: ...
    @property
    def n_rows(self) -> int: ...
    @property
    def n_cards(self) -> int: ...

N_ROW_CLASSES: int
"""Row classes per row (64), from ofc_fast.rules, checked against the header at import."""
SCALE: int
"""Joint strengths 0 .. 7917 (7918), from ofc_fast.rules, checked against the header."""

MIN_CHUNK: int
"""Fewest layouts per thread when ``n_threads > 1`` (16,384)."""

def rules_for(variant: Variant) -> CompiledRules: ...
def evaluate_columns(
    rules: CompiledRules,
    cards: NDArray[np.uint8],
    fl: NDArray[np.uint8] | None,
    for_scoring: bool = True,
    reuse: dict[str, NDArray[Any]] | None = None,
    n_threads: int | None = 1,
) -> tuple[dict[str, NDArray[Any]], int]: ...
