"""Type stub for the compiled ``ofc_fast._hand`` (the hand state machine).

Public wrapper: ``ofc_fast.engine`` (``Game``, ``Match``); the C API is
``_hand.pxd``.  Card masks are Python ints with bit ``c`` set for card ``c``.
"""
import enum
from collections.abc import Iterable, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from ofc_fast._play import PlayRules

_U8 = npt.NDArray[np.uint8]

def seeded_deck(key: int, index: int = 0, jokers: int = 0) -> _U8:
    """Deck number ``index`` of a 64-bit key (``ofc_fast._args.kernel_seed``
    of a ``seed=`` argument): the card ids (52 naturals and ``jokers``
    jokers) shuffled by the stream ``(key, index)``; ``Game(seed=s)`` deals
    deck 0, hand ``k`` of a ``Match`` deck ``k``."""

AUTO_CODES: Final[tuple[int, ...]]
"""The automatic-move reason codes of the history, 0 (none) .. 4 (time-out);
``ofc_fast.moves.AUTO_REASONS`` names them."""

class HandStatus(enum.IntEnum):
    """What a check of the hand core found (``ofc_fast.moves.HAND_MESSAGES``
    words each; details in ``HandCore.error_detail``)."""
    HAND_OK = 0
    HAND_OVER = 1
    MOVE_NOT_SEQUENCE = 2
    MOVE_LENGTHS = 3
    CARD_NOT_DEALT = 4
    CARD_TWICE = 5
    ROW_NOT_INDEX = 6
    ROW_MISSING = 7
    CARD_UNPLACED = 8
    DISCARD_COUNT = 9
    ROW_FULL = 10
    DEST_COUNT = 11
    DEST_ILLEGAL = 12
    INDEX_RANGE = 13
    NO_SEAT = 14
    NOT_FINISHED = 15
    BAD_PLAYERS = 16
    BAD_BUTTON = 17
    BAD_DECK = 18
    BAD_SCHEDULE = 19
    BAD_FL_CARDS = 20
    BAD_FL_COUNT = 21
    DEAL_TOO_BIG = 22
    BAD_REASON = 23

MAX_DEAL: Final[int]
"""Most cards dealt to one player in one hand, and in one turn (``OFC_MAX_DEAL``
of ``src/ofc_eval.h``): the size of the hand's card buffers."""

STATE_SIZE: Final[int]
"""Bytes of one hand's C state (``ofc_hand`` of ``_hand.pxd``; the rules are shared)."""

@disjoint_base
class HandCore:
    """One hand's state machine (used by ``ofc_fast.engine.Game``).

    ``HandCore(pr)`` is empty (no turns); ``deal`` deals a hand into it.
    Methods that can refuse return a ``HandStatus`` (0 = done) with details
    in ``error_detail()`` and never word a problem; a seat outside the table
    raises IndexError carrying ``HandStatus.NO_SEAT``.  All state is one C
    struct: ``copy()`` is a struct assignment; pickling replays the moves."""
    auto: bool
    def __init__(self, pr: PlayRules) -> None: ...
    def deal(self, n_players: int, deck: npt.NDArray[np.uint8] | bytes, button: int,
             fl_cards: Sequence[int], fl_count: Sequence[int], auto: bool) -> int:
        """Deal a hand (the rules' streets); a HandStatus."""
        ...
    def error_detail(self) -> tuple[int, int, int]:
        """Details of the last status returned."""
        ...
    def copy(self) -> HandCore:
        """An independent copy (one struct assignment; the rules are shared)."""
        ...
    def __copy__(self) -> HandCore: ...
    def __deepcopy__(self, memo: dict[int, Any]) -> HandCore: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    @property
    def n_players(self) -> int: ...
    @property
    def button(self) -> int: ...
    @property
    def n_turns(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def deck_used(self) -> int: ...
    @property
    def solves(self) -> int: ...
    @property
    def to_act(self) -> int: ...
    @property
    def done(self) -> bool: ...
    @property
    def street(self) -> int | None: ...
    @property
    def keep(self) -> int: ...
    def hand(self) -> tuple[int, ...]: ...
    def n_moves(self) -> int: ...
    def move_rows(self, idx: int) -> tuple[int, ...] | None: ...
    def move_index(self, rows: Sequence[int]) -> int:
        """Index of destinations in the move order, or minus the status."""
        ...
    def index_of(self, cards: Any, rows: Any) -> int:
        """Index of a move (cards, rows) in the move order, or minus the status."""
        ...
    def check(self, cards: Any, rows: Any) -> tuple[int, ...] | int:
        """Destinations of a move, or the status saying why it is illegal."""
        ...
    def play(self, cards: Any, rows: Any) -> int:
        """check, then apply the move and any automatic moves; the status."""
        ...
    def apply(self, dest_rows: Sequence[int], reason: int = 0) -> int: ...
    def apply_index(self, idx: int) -> int: ...
    def timeout_rows(self) -> tuple[int, ...] | None: ...
    def timeout(self) -> int:
        """The player to act times out for the rest of the hand (its turns are
        time-out placements from now on); the status."""
        ...
    def timed_out(self) -> tuple[int, ...]:
        """Seats timed out in this hand, in the order they timed out."""
        ...
    def _replay(self, turns: Iterable[tuple[Sequence[int], Sequence[int], int]],
                timed_out: Iterable[int], dead: Sequence[bool], auto: bool) -> int: ...
    def automatic(self) -> tuple[int, tuple[int, ...] | None]: ...
    def run_automatic(self) -> None: ...
    def is_dead(self, p: int) -> bool: ...
    def layout(self, p: int) -> bytes: ...
    def discards(self, p: int) -> bytes: ...
    def visible(self, p: int) -> bytes: ...
    def seen(self, p: int) -> int: ...
    def dead_flags(self) -> tuple[bool, ...]: ...
    def fantasyland(self) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
    def order_seats(self) -> tuple[int, ...]: ...
    def schedule(self) -> list[tuple[int, int, int, int]]: ...
    def history(self) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...], int]]: ...
    def deck_order(self) -> bytes: ...
    def move_layouts(self, limit: int = -1) -> tuple[_U8, _U8]: ...
    def settle(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int,
                              bool] | None:
        """The finished hand's points and the match rule's next hand: (points,
        fantasyland cards, counts, button, button moved); None while it goes on."""
    def result(self) -> tuple[tuple[int, ...], tuple[bool, ...], tuple[int, ...],
                              tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...],
                              tuple[int, ...], tuple[bool, ...], tuple[int, ...]] | None:
        """The showdown (points, fouls, royalties, rows, strengths, next
        fantasyland deals, repeats, next fantasyland counts), or None."""
