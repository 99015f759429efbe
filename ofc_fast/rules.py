"""Rules as data: variants, royalty tables, scoring schemes, fantasyland rules.

A :class:`Variant` is a frozen, hashable description of one game (docs/rules.md
sections 4-8).  :func:`variant` builds one by name with options; the kernels
never read it directly: :func:`compile_rules` turns it once into per-row
lookup tables indexed by the joint row strength (cached per variant).

This module gathers the rules' public names from the rooms that hold them:
the rule data (:mod:`ofc_fast.variants`), options by name
(:mod:`ofc_fast.rule_options`), the deal's ranges (:mod:`ofc_fast.deals`)
and the rule compiler (:mod:`ofc_fast.rule_tables`).

>>> v = variant("pineapple")
>>> v.scoring.name, v.royalties.name, v.entry_cards
('1-6', 'american', (0, 14))
>>> variant("classic", finnish=True).finnish
True
"""
from __future__ import annotations

from ofc_fast.deals import MAX_STREETS as MAX_STREETS
from ofc_fast.deals import deal_schedule
from ofc_fast.errors import RulesError
from ofc_fast.rule_options import OPTIONS as OPTIONS
from ofc_fast.rule_options import variant, variant_options
from ofc_fast.rule_tables import N_ROW_CLASSES as N_ROW_CLASSES
from ofc_fast.rule_tables import SCALE as SCALE
from ofc_fast.rule_tables import compile_rules
from ofc_fast.rule_tables import lowball_royalty as lowball_royalty
from ofc_fast.rule_tables import lowball_valid as lowball_valid
from ofc_fast.rule_tables import row_classes as row_classes
from ofc_fast.variants import (
    ENTRY_RULES,
    HAND_CODES,
    MAX_DEAL,
    MAX_ROYALTY,
    MAX_SCORING,
    REPEAT_RULES,
    ROYAL_FLUSH,
    ROYALTY_PRESETS,
    SCORING_PRESETS,
    VARIANTS,
    Royalties,
    Scoring,
    Variant,
    as_variant,
    royalty_table,
    scoring_scheme,
)
from ofc_fast.variants import big_pineapple_royalties as big_pineapple_royalties

__all__ = [
    "ROYAL_FLUSH", "HAND_CODES", "Scoring", "Royalties", "Variant", "variant", "as_variant",
    "scoring_scheme", "royalty_table", "compile_rules", "VARIANTS", "SCORING_PRESETS",
    "ROYALTY_PRESETS", "REPEAT_RULES", "ENTRY_RULES", "RulesError", "MAX_DEAL",
    "MAX_ROYALTY", "MAX_SCORING", "variant_options", "deal_schedule",
]
