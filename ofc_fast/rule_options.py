"""Rule options by name: :func:`variant` builds a :class:`~ofc_fast.variants.Variant`
from a named variant and options (docs/rules.md section 8), and
:func:`variant_options` gives back the options that rebuild one (as hand
records store them).

>>> v = variant("classic", finnish=True, scoring="1-6")
>>> variant_options(v)
{'scoring': '1-6', 'finnish': True}
>>> variant(v.name, **variant_options(v)) == v
True
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ofc_fast.errors import ArgumentError, RulesError, RulesTypeError, shorten
from ofc_fast.hands import TRIPS
from ofc_fast.variants import (
    HAND_CODES,
    MAX_DEAL,
    MAX_ROYALTY,
    MAX_SCORING,
    REPEAT_RULES,
    ROYALTY_PRESETS,
    SCORING_PRESETS,
    VARIANTS,
    Variant,
    _rule_choice,
    _rule_flag,
    _rule_int,
    _rule_ints,
    big_pineapple_royalties,
    royalty_table,
    scoring_scheme,
)

__all__ = ["variant", "variant_options", "OPTIONS"]

OPTIONS = ("american", "lowball", "finnish", "fantasyland", "repeat", "repeat_limit",
            "royalties", "scoring", "foul_penalty", "third_row_trips", "entry_cards",
            "repeat_cards", "jokers", "joker_cards", "joker_objective", "joker_top_natural")
JOKER_OPTIONS = ("jokers", "joker_cards", "joker_objective", "joker_top_natural")
"""The joker options (docs/rules.md section 12): each a field of :class:`Variant`."""
"""The options :func:`variant` takes, in the order it applies them."""


def variant(name: str | Variant = "pineapple", **options: Any) -> Variant:
    """The :class:`Variant` called ``name``, with options applied.

    Parameters
    ----------
    name : str or Variant
        ``classic``, ``chinese``, ``turbo``, ``pineapple``, ``progressive``,
        ``pineapple-2-7``, ``turbo-pineapple`` or ``big-pineapple``
        (:data:`VARIANTS`), or a Variant to modify.
    **options
        docs/rules.md section 8: ``american`` (1-6 scoring, except 1-12 on
        four rows, and American royalties), ``lowball`` (2-7 middle, with the
        2-7 fantasyland entry at the variant's card count), ``finnish``,
        ``fantasyland`` (False turns it off), ``repeat`` (a rule from
        :data:`REPEAT_RULES`; ``"infinite"`` also lifts the limit),
        ``repeat_limit`` (int, or None for no limit), ``royalties`` (preset
        name, mapping or :class:`Royalties`), ``scoring`` (preset name,
        mapping or :class:`Scoring`), ``foul_penalty`` (points, default the
        scoop total), ``third_row_trips`` (Big Pineapple, default 4),
        ``entry_cards`` (cards dealt per fantasyland entry tier, e.g.
        ``(0, 14, 15, 16, 17)`` for Progressive), ``repeat_cards`` (cards
        dealt on a repeat; docs/rules.md section 10: the variant's entry
        count, 14 for Progressive and 2-7) and the joker options of
        docs/rules.md section 12 (docs/jokers.md): ``jokers`` (0, 1 or 2),
        ``joker_cards`` (``"row"`` or ``"board"``), ``joker_objective``
        (``"fantasyland"``, ``"royalties"`` or ``"strength"``) and
        ``joker_top_natural`` (bool).  Numbers must be integers (an
        integral float such as ``2.0`` is accepted); royalties and scoring
        are bounded by :data:`MAX_ROYALTY` and :data:`MAX_SCORING`.

    Returns
    -------
    Variant
        Frozen and hashable; equal options give equal variants.

    Raises
    ------
    RulesError
        For an unknown variant or a bad value, naming the option and the
        value.
    RulesTypeError
        (A RulesError and a TypeError) for an unknown option or a value of
        the wrong type.

    Examples
    --------
    >>> str(variant("turbo-pineapple", lowball=True))
    'turbo-pineapple (scoring 1-6, royalties american, 2-7 middle, fantasyland lowball -> 15,
    repeat pineapple (limit 1))'
    >>> variant("pineapple", jokers=2).deck_size
    54
    >>> variant("classic", colour="red")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesTypeError: unknown option 'colour'; valid: american, lowball, finnish,
    fantasyland, repeat, repeat_limit, royalties, scoring, foul_penalty, third_row_trips,
    entry_cards, repeat_cards, jokers, joker_cards, joker_objective, joker_top_natural
    """
    v = name if isinstance(name, Variant) else _rule_choice("variant", name, VARIANTS)
    for key in options:
        if key not in OPTIONS:
            raise RulesTypeError(f"unknown option {shorten(key)}; valid: {', '.join(OPTIONS)}")
    o = options
    four = v.n_rows == 4
    if "american" in o and _rule_flag(o["american"], "american"):
        v = dataclasses.replace(
            v, scoring=SCORING_PRESETS["1-12" if four else "1-6"],
            royalties=royalty_table("american", v.n_rows))
    if "royalties" in o:
        v = dataclasses.replace(v, royalties=royalty_table(o["royalties"], v.n_rows))
    if "third_row_trips" in o:
        if not four:
            raise RulesError("third_row_trips applies to four-row variants only")
        trips = _rule_int(o["third_row_trips"], "third_row_trips", 0, MAX_ROYALTY)
        rows = list(v.royalties.rows)
        rows[0] = rows[0][:TRIPS] + (trips,) + rows[0][TRIPS + 1:]
        v = dataclasses.replace(v, royalties=dataclasses.replace(v.royalties, rows=tuple(rows)))
    if "scoring" in o:
        v = dataclasses.replace(v, scoring=scoring_scheme(o["scoring"]))
    if o.get("foul_penalty") is not None:
        v = dataclasses.replace(v, scoring=dataclasses.replace(
            v.scoring, foul_penalty=_rule_int(o["foul_penalty"], "foul_penalty", 0, MAX_SCORING)))
    if "lowball" in o and _rule_flag(o["lowball"], "lowball") != v.lowball:
        if four:
            raise RulesError("lowball: a 2-7 middle needs a three-row variant")
        if o["lowball"] and not v.fantasyland:
            v = dataclasses.replace(v, lowball=True)
        elif o["lowball"]:
            base = v.repeat_cards
            v = dataclasses.replace(v, lowball=True, entry="lowball",
                                    entry_cards=(0, base, base + 1))
        else:
            v = dataclasses.replace(v, lowball=False, entry="qq", entry_cards=(0, v.repeat_cards))
    if "finnish" in o:
        v = dataclasses.replace(v, finnish=_rule_flag(o["finnish"], "finnish"))
    if "repeat" in o:
        rule = o["repeat"] if o["repeat"] not in (None, False) else "none"
        _rule_choice("repeat rule", rule, dict.fromkeys(REPEAT_RULES))
        if rule == "infinite":
            v = dataclasses.replace(v, repeat=v.repeat if four else "infinite", repeat_limit=None)
        else:
            v = dataclasses.replace(v, repeat=rule)
    if "repeat_limit" in o:
        limit = o["repeat_limit"]
        v = dataclasses.replace(
            v, repeat_limit=None if limit is None else _rule_int(limit, "repeat_limit", 0, 254))
    if "entry_cards" in o:
        v = dataclasses.replace(v, entry_cards=_rule_ints(o["entry_cards"], "entry_cards", 0, 255))
    if "repeat_cards" in o:
        v = dataclasses.replace(v, repeat_cards=_rule_int(o["repeat_cards"], "repeat_cards", 0,
                                                         MAX_DEAL))
    if "fantasyland" in o and not _rule_flag(o["fantasyland"], "fantasyland"):
        v = dataclasses.replace(v, entry="none", entry_cards=(0,), repeat="none")
    jokers = {key: o[key] for key in JOKER_OPTIONS if key in o}
    if jokers:                                   # Variant validates each, naming it
        v = dataclasses.replace(v, **jokers)
    return v


def variant_options(v: Variant) -> dict[str, Any]:
    """Options that rebuild ``v`` from its base variant (JSON-safe):
    ``variant(v.name, **variant_options(v)) == v``.

    Parameters
    ----------
    v : Variant
        A variant made by :func:`variant`.

    Returns
    -------
    dict
        Keyword arguments of :func:`variant`.

    Raises
    ------
    ArgumentError
        For a variant whose name is not one of :data:`VARIANTS`.

    Examples
    --------
    >>> variant_options(variant("classic", finnish=True, scoring="1-6"))
    {'scoring': '1-6', 'finnish': True}
    """
    v = v if isinstance(v, Variant) else variant(v)
    base = VARIANTS.get(v.name)
    if base is None:
        raise ArgumentError(f"variant_options needs a named variant ({', '.join(VARIANTS)}), "
                            f"got one named {v.name!r}")
    opts: dict[str, Any] = {}
    if v.royalties != base.royalties:
        preset = [k for k, r in ROYALTY_PRESETS.items()
                  if (r if v.n_rows == 3 else big_pineapple_royalties(r)) == v.royalties]
        opts["royalties"] = preset[0] if preset else _royalty_mapping(v)
    if v.scoring != base.scoring:
        preset = [k for k, s in SCORING_PRESETS.items() if s == v.scoring]
        opts["scoring"] = preset[0] if preset else {
            f.name: getattr(v.scoring, f.name) for f in dataclasses.fields(v.scoring)}
    if v.lowball != base.lowball:
        opts["lowball"] = v.lowball
    if v.finnish != base.finnish:
        opts["finnish"] = v.finnish
    if not v.fantasyland and base.fantasyland:
        opts["fantasyland"] = False
    elif v.repeat != base.repeat:
        opts["repeat"] = v.repeat
    if v.repeat_limit != base.repeat_limit and v.fantasyland:
        opts["repeat_limit"] = v.repeat_limit
    for key in JOKER_OPTIONS:
        if getattr(v, key) != getattr(base, key):
            opts[key] = getattr(v, key)
    if v.fantasyland:
        # after lowball, which sets its own entry tiers
        rebuilt = variant(v.name, **opts) if opts else base
        if v.entry_cards != rebuilt.entry_cards:
            opts["entry_cards"] = list(v.entry_cards)
        if v.repeat_cards != rebuilt.repeat_cards:
            opts["repeat_cards"] = v.repeat_cards
    return opts


def _royalty_mapping(v: Variant) -> dict[str, Any]:
    r = v.royalties
    rows = ("middle", "bottom") if v.n_rows == 3 else ("third", "second", "bottom")
    out: dict[str, object] = {"name": r.name, "top_pairs": list(r.top_pairs),
                              "top_trips": list(r.top_trips),
                              "lowball": [list(x) for x in r.lowball]}
    for name, row in zip(rows, r.rows, strict=True):    # Variant checks the row count
        out[name] = {h: int(row[code]) for h, code in HAND_CODES.items()}
    return out
