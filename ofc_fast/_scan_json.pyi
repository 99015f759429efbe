"""The JSON Lines reader's fast path: the common ofc-hand/1 line read into
columns (see ofc_fast/_scan_json.pyx)."""
from ofc_fast._scan import DONE as DONE
from ofc_fast._scan import FALLBACK as FALLBACK
from ofc_fast._scan import NEW_RULES as NEW_RULES
from ofc_fast._scan import Columns

class LineScanner(Columns):
    def __init__(self, fast: bool = ...) -> None: ...
    def scan(self, block: bytes, pos: int, line: int,
             max_hands: int) -> tuple[int, int, int, int]: ...
