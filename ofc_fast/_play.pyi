"""Type stub for the compiled ``ofc_fast._play`` (what the play kernels read of a variant).

Public wrapper: ``ofc_fast.rollouts.play_rules``.
"""
from typing import Any

from typing_extensions import disjoint_base

from ofc_fast._layout import CompiledRules
from ofc_fast.rules import Variant

@disjoint_base
class PlayRules:
    """A variant's row layout, foul chain, 2-7 validity and scoring, read from
    its compiled rules, plus its deal."""
    def __init__(self, compiled: CompiledRules) -> None: ...
    @property
    def variant(self) -> Variant: ...
    @property
    def n_cards(self) -> int: ...
    @property
    def deck_size(self) -> int:
        """Cards of the deck the engine deals: 52, and the variant's jokers."""
        ...
    @property
    def street_total(self) -> int:
        """Cards the variant's streets deal one player (-1: its deal is not readable)."""
        ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def play_rules_for(variant: Variant) -> PlayRules:
    """The PlayRules of a variant (its ``rules_for`` and its deal; cached)."""
    ...
