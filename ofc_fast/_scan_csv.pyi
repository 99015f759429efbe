"""The CSV reader's fast path: plain hands read into columns (see
ofc_fast/_scan_csv.pyx)."""
from collections.abc import Sequence

from typing_extensions import disjoint_base

from ofc_fast._scan import DONE as DONE
from ofc_fast._scan import FALLBACK as FALLBACK
from ofc_fast._scan import FLUSH as FLUSH
from ofc_fast._scan import NEW_RULES as NEW_RULES
from ofc_fast._scan import ROOM as ROOM
from ofc_fast._scan import Columns

CSV_FIELDS: tuple[str, ...]

@disjoint_base
class RowLines:
    @property
    def block(self) -> bytes: ...
    @property
    def size(self) -> int: ...
    def __len__(self) -> int: ...
    def last_hand(self) -> int: ...
    def cut(self, at: int) -> bytes: ...

@disjoint_base
class RowScanner(Columns):
    def __init__(self, columns: Sequence[int], width: int, limit: int,
                 fast: bool = ...) -> None: ...
    def lines(self, block: bytes) -> RowLines: ...
    def scan(self, block: bytes, pos: int, line: int, pending: bytes | None, eof: bool,
             max_hands: int, lines: RowLines | None = ...,
             shift: int = ..., end: int = ...) -> tuple[int, int, int]: ...
