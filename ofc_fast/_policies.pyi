"""Type stub for the compiled ``ofc_fast._policies`` (the built-in policies,
each written once in C; the C API is ``_policies.pxd``).

Public faces: ``ofc_fast.policies`` (``RandomPolicy``, ``GreedyPolicy``,
``HeuristicPolicy``, ``RacingPolicy``) and the batch engine's seats.
"""
from collections.abc import Sequence
from typing import Any, Final

from typing_extensions import disjoint_base

from ofc_fast._hand import HandCore

KINDS: Final[dict[str, int]]
"""Policy names and their codes in C."""

@disjoint_base
class Stream:
    """A random stream of the policies: stream ``index`` of a 64-bit ``key``."""
    def __init__(self, key: int = 0, index: int = 0) -> None: ...
    def reseed(self, key: int, index: int) -> None:
        """Restart as stream ``index`` of ``key``."""
    def state(self) -> tuple[int, int, int, int]:
        """The stream's four 64-bit words."""
    def solver_seed(self) -> int:
        """The next solver decision's seed, as a ``"solver"`` seat draws it."""
    def below(self, n: int) -> int:
        """The next draw below ``n``, as the policies draw a move index."""
    def set_state(self, words: Sequence[int]) -> None:
        """Continue from four 64-bit words."""

@disjoint_base
class PolicyCore:
    """A built-in policy as C runs it (built by ``ofc_fast.policies``)."""
    @property
    def stream(self) -> Stream: ...
    def __init__(self, kind: int, samples: int, tries: int, max_moves: int, foul_cost: float,
                 fantasyland_value: float, stream: Stream, n: int = 1, z: float = 0.0,
                 first_round: int = 1, time_budget_ms: float = 0.0) -> None: ...
    def choose(self, core: HandCore, kseed: int = 0) -> int:
        """The policy's move for the seat to act (its index in the move
        order), or -1 when the hand is over; ``kseed``: the solver's seed
        (0: drawn from the stream)."""
    def last_decision(self) -> dict[str, Any]:
        """What the solver's last decision did."""
    def params(self) -> tuple[int, int, int, int, float, float, int, float, int, float]:
        """(kind, samples, tries, max_moves, foul_cost, fantasyland_value, n, z,
        first_round, time_budget_ms)."""

def fantasyland_choice(core: HandCore, fantasyland_value: float) -> int:
    """The exact solver's move (its index) for the fantasyland deal to act."""
