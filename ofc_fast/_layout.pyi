"""Finished-layout kernels (see ofc_fast/_layout.pyx)."""
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ofc_fast.rules import Variant

class CompiledRules:
    variant: Variant
    def __init__(self, variant: Variant) -> None: ...
    @property
    def n_rows(self) -> int: ...
    @property
    def n_cards(self) -> int: ...

def rules_for(variant: Variant) -> CompiledRules: ...
def evaluate_columns(
    rules: CompiledRules,
    cards: NDArray[np.uint8],
    fl: NDArray[np.uint8],
    for_scoring: bool = ...,
) -> tuple[dict[str, NDArray[Any]], int]: ...
