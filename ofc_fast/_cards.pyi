"""Card kernels: the deck, card masks and card text over raw bytes (see ofc_fast/_cards.pyx)."""
from typing import Final

import numpy as np
from numpy.typing import NDArray

DECK: Final[int]
"""Cards in the deck (``OFC_DECK`` of ``src/ofc_cards.h``)."""
MAX_CARD: Final[int]
"""The highest card id."""
ALL_CARDS: Final[int]
"""The mask of every card."""
EMPTY: Final[int]
"""An empty slot (never a card)."""
JOKER: Final[int]
"""The first joker's id, X1 (``OFC_JOKER``); X2 is ``JOKER + 1``."""
MAX_JOKERS: Final[int]
"""Most jokers a variant deals (``OFC_MAX_JOKERS``)."""

def masks_of(cards: NDArray[np.uint8], out: NDArray[np.uint64]) -> NDArray[np.uint64]: ...
def cards_mask(ids: NDArray[np.uint8]) -> int:
    """Card mask of card ids (EMPTY skipped), -1 if an id is neither a card nor EMPTY."""
    ...
def decode_cells(data: NDArray[np.uint8], off: NDArray[np.int64], size: int,
                 out: NDArray[np.uint8], ok: NDArray[np.uint8], layout: int = 0) -> int: ...
def number_layouts(ids: NDArray[np.uint8], ok: NDArray[np.uint8]) -> int: ...
def scan_text(text: str) -> tuple[int, ...] | None: ...
