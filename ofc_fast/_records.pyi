"""Helper kernels of the recorded-hand readers (see ofc_fast/_records.pyx)."""
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

def placed_masks(cards: NDArray[np.uint8], hands: NDArray[np.int64],
                 out: NDArray[np.uint64]) -> NDArray[np.uint64]: ...
def bad_discards(off: NDArray[np.int64], ids: NDArray[np.uint8], hand_start: NDArray[np.int64],
                 placed: NDArray[np.uint64]) -> NDArray[np.bool_]: ...
def bad_discards_at(cards: NDArray[np.uint8], hands: NDArray[np.int64], off: NDArray[np.int64],
                    ids: NDArray[np.uint8], hand_start: NDArray[np.int64]) -> NDArray[np.bool_]: ...
def gather_columns(cols: Sequence[NDArray[np.uint8]],
                   out: NDArray[np.uint8]) -> NDArray[np.uint8]: ...
