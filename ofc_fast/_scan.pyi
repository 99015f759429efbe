"""The columns of the hands the text readers' scanners read (see
ofc_fast/_scan.pyx)."""
from typing import Any

from typing_extensions import disjoint_base

DONE: int
FALLBACK: int
NEW_RULES: int
ROOM: int
FLUSH: int

@disjoint_base
class Columns:
    names: list[str]
    def __init__(self, fast: bool = ..., splice: bool = ...) -> None: ...
    @property
    def n(self) -> int: ...
    @property
    def full(self) -> bool: ...
    def add_rules(self, variant: bytes | None, options: bytes | None, rules_id: int,
                  min_players: int, max_players: int) -> bool: ...
    def rules_text(self) -> tuple[bytes | None, bytes | None]: ...
    def take(self) -> dict[str, Any]: ...
