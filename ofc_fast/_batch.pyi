"""Type stub for the compiled ``ofc_fast._batch`` (the batch engine's C loops).

Public wrapper: :class:`ofc_fast.sim.GameBatch`, which validates every
argument; these kernels trust it (the actions excepted: ``check_actions``).
"""
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from ofc_fast._play import PlayRules
from ofc_fast._stop import Stop

_U8 = npt.NDArray[np.uint8]
_I64 = npt.NDArray[np.int64]

POLICY_STREAM_SALT: Final[int]
"""Hand ``k`` of a game with deck key ``key`` draws its policies' randomness
from the stream ``(key ^ POLICY_STREAM_SALT, k)``."""
STATES: Final[dict[str, int]]
"""Game states: ``wait`` (an external seat acts), ``over`` (the hand is over,
the next not dealt), ``live`` (the engine has turns to play)."""
ACTION_PROBLEMS: Final[dict[int, str]]
"""Why ``BatchCore.check_actions`` refused an action, by code."""
TIMEOUT: Final[int]
"""The action of a seat that runs out of time."""
MAX_DISCARDS: Final[int]
"""Most discards of one seat in one hand the records hold."""
STATE_BYTES: Final[int]
"""Bytes of one game's C state."""

def seed_keys(words: npt.NDArray[np.uint32], first: int, n: int) -> npt.NDArray[np.uint64]:
    """The deck keys of games ``first .. first + n - 1``: the kernel seed of
    the entropy ``words + [i]``."""

@disjoint_base
class BatchCore:
    """The C state of a batch of games (built and driven by ``GameBatch``)."""
    n_games: Final[int]
    state: Final[_U8]
    scores: Final[_I64]
    rewards: Final[_I64]
    finished: Final[npt.NDArray[np.int32]]
    hands: Final[_I64]
    decisions: Final[_I64]
    max_legal: Final[int]
    def __init__(self, pr: PlayRules, n_players: int, keys: npt.NDArray[np.uint64],
                 policies: list[tuple[int, int, int, int, float, float, int, float, int,
                                      float]],
                 auto: bool, auto_deal: bool, fl_cards: list[int], fl_count: list[int],
                 button: int) -> None: ...
    def _bind(self) -> None: ...
    @property
    def n_actions(self) -> int: ...
    @property
    def max_cards(self) -> int: ...
    def deal_first(self, lo: int, hi: int, decks: _U8 | None = None) -> None:
        """Deal the first hand of games ``lo .. hi - 1`` (seeded, or from ``decks``)."""
    def advance(self, lo: int, hi: int, hands: int, stop: Stop,
                rec: tuple[Any, ...] | None = None) -> None:
        """Play the engine's turns of games ``lo .. hi - 1`` (until ``stop``)."""
    def advance_games(self, idx: _I64, lo: int, hi: int, stop: Stop) -> None:
        """Play the engine's turns of games ``idx[lo:hi]`` up to an external seat's."""
    def last_into(self, idx: _I64, arrays: tuple[Any, ...]) -> None:
        """The last finished hand of games ``idx`` into record arrays."""
    def deal_next(self, idx: _I64, decks: _U8 | None = None) -> None:
        """Deal the next hand of games ``idx`` (over)."""
    def stream_state(self, i: int) -> tuple[int, int, int, int]:
        """Game ``i``'s policy stream now (what its built-in seats draw next)."""
    def check_actions(self, idx: _I64, actions: _I64) -> tuple[int, int]:
        """``(-1, 0)``, or the row of the first illegal action and why."""
    def apply_actions(self, idx: _I64, actions: _I64) -> None:
        """Play checked actions, one per game of ``idx``."""
    def prepare_legal(self) -> None:
        """Build the legal-action lists (once, before threads)."""
    @property
    def legal_codes(self) -> int: ...
    def observe_into(self, idx: _I64, seats: npt.NDArray[np.int8], lo: int, hi: int, seat: _U8,
                     street: npt.NDArray[np.int8], button: npt.NDArray[np.int8], hand: _U8,
                     keep: _U8, layouts: _U8, discards: _U8, fantasyland: _U8, unseen: _U8,
                     legal: npt.NDArray[np.int32], n_legal: npt.NDArray[np.int32],
                     mask: _U8) -> None:
        """What seat ``seats[j]`` (the seat to act when empty) of games ``idx``
        sees, its legal actions and mask when it acts on a street."""
    def hand_state(self, i: int) -> tuple[bytes, int, tuple[int, ...], tuple[int, ...], bool,
                                          list[tuple[tuple[int, ...], tuple[int, ...], int]],
                                          tuple[int, ...], tuple[bool, ...]]:
        """Game ``i``'s hand: what rebuilds it as a Game."""
    def turn_info(self, i: int) -> tuple[int, int, bytes, int] | None:
        """Game ``i``'s turn to act: (seat, street, dealt cards, legal moves), or None."""
    def game_info(self, i: int) -> tuple[int, int, tuple[int, ...], tuple[int, ...], int, bool]:
        """(hand in play, button, next fantasyland cards and counts, key, oom)."""
