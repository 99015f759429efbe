"""The fast paths of the text readers: common JSON Lines lines and plain CSV
hands read into columns (see ofc_fast/_scan.pyx)."""
from collections.abc import Sequence
from typing import Any

from typing_extensions import disjoint_base

DONE: int
FALLBACK: int
NEW_RULES: int
ROOM: int
FLUSH: int
CSV_FIELDS: tuple[str, ...]

@disjoint_base
class Columns:
    names: list[str]
    def __init__(self, fast: bool = ...) -> None: ...
    @property
    def n(self) -> int: ...
    @property
    def full(self) -> bool: ...
    def add_rules(self, variant: bytes | None, options: bytes | None, rules_id: int,
                  min_players: int, max_players: int) -> bool: ...
    def rules_text(self) -> tuple[bytes | None, bytes | None]: ...
    def take(self) -> dict[str, Any]: ...

class LineScanner(Columns):
    def scan(self, block: bytes, pos: int, line: int,
             max_hands: int) -> tuple[int, int, int, int]: ...

@disjoint_base
class RowLines:
    @property
    def block(self) -> bytes: ...
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
             shift: int = ...) -> tuple[int, int, int]: ...
