"""Rules as data: variants, royalty tables, scoring schemes, fantasyland rules.

A :class:`Variant` is a frozen, hashable description of one game (docs/rules.md
sections 4-8).  :func:`variant` builds one by name with options; the kernels
never read it directly: :func:`compile_rules` turns it once into per-row
lookup tables indexed by the joint row strength (cached per variant).

>>> v = variant("pineapple")
>>> v.scoring.name, v.royalties.name, v.entry_cards
('1-6', 'american', (0, 14))
>>> variant("classic", finnish=True).finnish
True
"""
from __future__ import annotations

import dataclasses
import functools
import math
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from ofc_fast._eval import JOINT_CATEGORY, JOINT_RANKS, JOINT_SIZE, MAX_DEAL
from ofc_fast.cards import DECK_SIZE, RANKS
from ofc_fast.errors import RulesError, shorten
from ofc_fast.hands import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)

__all__ = [
    "ROYAL_FLUSH", "HAND_CODES", "Scoring", "Royalties", "Variant", "variant", "as_variant",
    "scoring_scheme", "royalty_table", "compile_rules", "VARIANTS", "SCORING_PRESETS",
    "ROYALTY_PRESETS", "REPEAT_RULES", "ENTRY_RULES", "RulesError", "MAX_DEAL",
    "MAX_ROYALTY", "MAX_SCORING", "variant_options", "deal_schedule",
]

_T = TypeVar("_T")

ROYAL_FLUSH = 9  # hand code beyond the categories: the ace-high straight flush
HAND_CODES = {
    "high_card": HIGH_CARD, "pair": PAIR, "two_pair": TWO_PAIR, "trips": TRIPS,
    "straight": STRAIGHT, "flush": FLUSH, "full_house": FULL_HOUSE, "quads": QUADS,
    "straight_flush": STRAIGHT_FLUSH, "royal_flush": ROYAL_FLUSH,
}


# Bounds that keep every output inside its documented dtype (README, "Guarantees"):
# a hand's royalties add up in the 16 bits of the kernels' packed row word and
# in int16 outputs, doubled by the Finnish 2s; a pair's points in int32, three
# pairs per player at a table, with room to spare.
MAX_ROYALTY = 16_383
"""Largest royalty a hand can earn: the best top plus the best of each 5-card row."""
MAX_SCORING = 10_000_000
"""Largest value of any field of a :class:`Scoring` (points per row, bonuses, penalty)."""


def _choose(kind: str, name: object, valid: Mapping[str, _T]) -> _T:
    if not isinstance(name, str) or name not in valid:
        raise RulesError(f"unknown {kind} {shorten(name)}; valid: {', '.join(map(str, valid))}")
    return valid[name]


def _integer(value: object, what: str, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo .. hi``; an integral float is accepted, 2.7 is not."""
    if isinstance(value, (bool, np.bool_)) or \
            not isinstance(value, (int, np.integer, float, np.floating)):
        raise RulesError(f"{what} must be an integer, got {shorten(value)}")
    if isinstance(value, (float, np.floating)) and not (math.isfinite(value)
                                                        and float(value).is_integer()):
        raise RulesError(f"{what} must be an integer, got {value!r}")
    v = int(value)
    if not lo <= v <= hi:
        raise RulesError(f"{what} must be {lo:,} .. {hi:,}, got {v:,}")
    return v


def _integers(values: object, what: str, lo: int, hi: int,
              size: int | None = None) -> tuple[int, ...]:
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
        raise RulesError(f"{what} must be a sequence of integers, got {shorten(values)}")
    out = tuple(_integer(v, f"{what}[{i}]", lo, hi) for i, v in enumerate(values))
    if size is not None and len(out) != size:
        raise RulesError(f"{what} needs {size} values, got {len(out)}")
    return out


def _flag(value: object, what: str) -> bool:
    """A yes/no option: a bool (or 0 / 1)."""
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer))
                                               and value in (0, 1)):
        return bool(value)
    raise RulesError(f"{what} must be true or false, got {shorten(value)}")


def _set(obj: object, name: str, value: object) -> None:
    """Store a normalised field of a frozen dataclass (from __post_init__)."""
    object.__setattr__(obj, name, value)


# --------------------------------------------------------------------------- scoring
@dataclass(frozen=True)
class Scoring:
    """A scoring scheme (docs/rules.md section 6), validated when made.

    Parameters
    ----------
    name : str
        A label (``"1-6"``, ``"custom"``, ...).
    per_row : int
        Points per row won, 0 .. :data:`MAX_SCORING`.
    scoop_bonus : int
        Extra points for winning every row.
    majority_bonus : int
        Extra points for winning more than half the rows (2 of 3, 3 of 4).
    foul_penalty : int or None
        What a fouled hand pays a live one before royalties; ``None`` (the
        default, docs/rules.md's Interpretation) means the scoop total.

    Raises
    ------
    RulesError
        For a value that is not an integer in 0 .. MAX_SCORING.

    Examples
    --------
    >>> s = Scoring("1-6", per_row=1, scoop_bonus=3)
    >>> s.scoop_total(3), s.penalty(3)
    (6, 6)
    """
    name: str
    per_row: int
    scoop_bonus: int = 0
    majority_bonus: int = 0
    foul_penalty: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise RulesError(f"scoring name must be a str, got {shorten(self.name)}")
        for f in ("per_row", "scoop_bonus", "majority_bonus"):
            _set(self, f, _integer(getattr(self, f), f"scoring {f}", 0, MAX_SCORING))
        if self.foul_penalty is not None:
            _set(self, "foul_penalty", _integer(self.foul_penalty, "foul_penalty", 0, MAX_SCORING))

    def scoop_total(self, n_rows: int) -> int:
        """Points for winning every row of an ``n_rows`` layout.

        Parameters
        ----------
        n_rows : int
            3, or 4 for Big Pineapple.

        Returns
        -------
        int
        """
        return self.per_row * n_rows + self.scoop_bonus + self.majority_bonus

    def penalty(self, n_rows: int) -> int:
        """What a fouled hand pays a live one, before royalties.

        Parameters
        ----------
        n_rows : int
            3, or 4 for Big Pineapple.

        Returns
        -------
        int
        """
        return self.scoop_total(n_rows) if self.foul_penalty is None else self.foul_penalty


SCORING_PRESETS = {
    "1-6": Scoring("1-6", per_row=1, scoop_bonus=3),
    "2-4": Scoring("2-4", per_row=1, majority_bonus=1),
    "2-6": Scoring("2-6", per_row=2),
    "1-12": Scoring("1-12", per_row=1, scoop_bonus=8),
}


def scoring_scheme(spec: str | Mapping[str, Any] | Scoring) -> Scoring:
    """A :class:`Scoring` from a preset name, a mapping of its fields, or itself.

    Parameters
    ----------
    spec : str, mapping or Scoring
        ``"1-6"``, ``"2-4"``, ``"2-6"`` or ``"1-12"`` (:data:`SCORING_PRESETS`),
        or ``{"per_row": ..., "scoop_bonus": ..., "majority_bonus": ...,
        "foul_penalty": ...}``.

    Returns
    -------
    Scoring

    Raises
    ------
    RulesError
        For an unknown preset or field, or a bad value.

    Examples
    --------
    >>> scoring_scheme("2-4").scoop_total(3)
    4
    >>> scoring_scheme({"per_row": 1, "scoop_bonus": 3, "foul_penalty": 9}).penalty(3)
    9
    """
    if isinstance(spec, Scoring):
        return spec
    if isinstance(spec, str):
        return _choose("scoring scheme", spec, SCORING_PRESETS)
    if isinstance(spec, Mapping):
        spec = dict(spec)
        spec.setdefault("name", "custom")
        fields = ("name", "per_row", "scoop_bonus", "majority_bonus", "foul_penalty")
        unknown = [k for k in spec if k not in fields]
        if unknown or "per_row" not in spec:
            what = f"unknown fields {shorten(unknown)}" if unknown else "per_row is missing"
            raise RulesError(f"bad custom scoring: {what}; fields: per_row, scoop_bonus, "
                             "majority_bonus, foul_penalty")
        return Scoring(**spec)
    raise RulesError(f"scoring must be a preset name, a mapping or a Scoring, got {shorten(spec)}")


# ------------------------------------------------------------------------- royalties
def _five(straight: int, flush: int, full_house: int, quads: int, straight_flush: int,
          royal_flush: int, trips: int = 0) -> tuple[int, ...]:
    row = [0] * 10
    row[TRIPS], row[STRAIGHT], row[FLUSH], row[FULL_HOUSE] = trips, straight, flush, full_house
    row[QUADS], row[STRAIGHT_FLUSH], row[ROYAL_FLUSH] = quads, straight_flush, royal_flush
    return tuple(row)


def _scaled(row: tuple[int, ...], factor: int, trips: int) -> tuple[int, ...]:
    out = [v * factor for v in row]
    out[TRIPS] = trips
    return tuple(out)


_TOP_PAIRS = (0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)       # 22 .. AA: 66 pays 1
_TOP_TRIPS = tuple(range(10, 23))                          # 222 pays 10 .. AAA 22
_LOWBALL = {9: 1, 8: 2, 76: 4, 75: 8}                       # see lowball_royalty()


def _lowball_key(key: object) -> object:
    """9, 8, 76 or 75; JSON object keys arrive as text ("76")."""
    if isinstance(key, str) and key.strip().isdigit():
        return int(key)
    return key


@dataclass(frozen=True)
class Royalties:
    """Royalty table: what each row pays by hand (docs/rules.md section 5).

    Build one with :func:`royalty_table`; every value is validated when made.

    Parameters
    ----------
    name : str
        A label (``"american"``, ``"custom"``, ...).
    top_pairs, top_trips : tuple of 13 int
        What a pair or trips on top pays, by rank (deuce .. ace).
    rows : tuple of 10-int tuples
        One per 5-card row, top to bottom (three rows: middle, bottom; four
        rows: third, second, bottom), indexed by hand code
        (:data:`HAND_CODES`; index 9 is the royal flush).
    lowball : tuple of (key, int) pairs
        What a 2-7 middle pays: keys 9 (nine-high), 8 (eight-high), 76
        (seven-six high), 75 (7-5-4-3-2); a ten-high low pays nothing.

    Raises
    ------
    RulesError
        For a value that is not an integer in 0 .. :data:`MAX_ROYALTY`, or
        a table of the wrong size.

    Examples
    --------
    >>> r = ROYALTY_PRESETS["american"]
    >>> r.rows[-1][HAND_CODES["royal_flush"]], r.top_trips[12]
    (25, 22)
    """
    name: str
    top_pairs: tuple[int, ...] = _TOP_PAIRS
    top_trips: tuple[int, ...] = _TOP_TRIPS
    rows: tuple[tuple[int, ...], ...] = ()
    lowball: tuple[tuple[int, int], ...] = tuple(sorted(_LOWBALL.items()))

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise RulesError(f"royalty table name must be a str, got {shorten(self.name)}")
        _set(self, "top_pairs",
             _integers(self.top_pairs, "royalties top_pairs", 0, MAX_ROYALTY, 13))
        _set(self, "top_trips",
             _integers(self.top_trips, "royalties top_trips", 0, MAX_ROYALTY, 13))
        if isinstance(self.rows, (str, Mapping)) or not hasattr(self.rows, "__iter__"):
            raise RulesError(f"royalty rows must be a sequence of 10-value rows, got "
                             f"{shorten(self.rows)}")
        _set(self, "rows", tuple(_integers(row, f"royalties rows[{i}]", 0, MAX_ROYALTY, 10)
                                 for i, row in enumerate(self.rows)))
        low = self.lowball
        items = low.items() if isinstance(low, Mapping) else low
        try:
            pairs = [tuple(x) for x in items]
        except TypeError:
            raise RulesError(f"royalties lowball must map 9, 8, 76, 75 to points, got "
                             f"{shorten(low)}") from None
        clean = {}
        for pair in pairs:
            if len(pair) == 2:
                pair = (_lowball_key(pair[0]), pair[1])
            if len(pair) != 2 or type(pair[0]) is not int or pair[0] not in _LOWBALL:
                raise RulesError(f"royalties lowball: keys are 9 (nine-high), 8, 76 (seven-six) "
                                 f"and 75 (7-5-4-3-2), got {shorten(pair)}")
            clean[int(pair[0])] = _integer(pair[1], f"royalties lowball[{pair[0]}]", 0, MAX_ROYALTY)
        _set(self, "lowball", tuple(sorted(clean.items())))


def _three_row_preset(name: str, bottom: tuple[int, ...], middle_trips: int) -> Royalties:
    return Royalties(name, rows=(_scaled(bottom, 2, middle_trips), bottom))


_AMERICAN_BOTTOM = _five(2, 4, 6, 10, 15, 25)
_RUSSIAN_BOTTOM = _five(2, 4, 6, 8, 10, 15)
ROYALTY_PRESETS = {
    "american": _three_row_preset("american", _AMERICAN_BOTTOM, 2),
    "pokerstars": _three_row_preset("pokerstars", _AMERICAN_BOTTOM, 0),
    "russian": _three_row_preset("russian", _RUSSIAN_BOTTOM, 2),
}


def big_pineapple_royalties(base: Royalties | None = None, third_row_trips: int = 4) -> Royalties:
    """Four-row royalties: the bottom table x 4 on the third row, x 2 on the second.

    Trips on the third row pay ``third_row_trips`` (docs/rules.md Interpretation: 4,
    twice the second row's 2).
    """
    base = base or ROYALTY_PRESETS["american"]
    middle, bottom = base.rows[-2], base.rows[-1]
    third = _scaled(bottom, 4, third_row_trips)
    return dataclasses.replace(base, name=f"{base.name}-4-row", rows=(third, middle, bottom))


def royalty_table(spec: str | Mapping[str, Any] | Royalties, n_rows: int = 3) -> Royalties:
    """A :class:`Royalties` from a preset name, a mapping, or itself.

    Parameters
    ----------
    spec : str, mapping or Royalties
        ``"american"``, ``"pokerstars"`` or ``"russian"``
        (:data:`ROYALTY_PRESETS`; on four rows the Big Pineapple scaling is
        applied), a mapping as below, or a table.
    n_rows : int
        3, or 4 for Big Pineapple.

    Returns
    -------
    Royalties

    Raises
    ------
    RulesError
        For an unknown preset, row or hand name, or a bad value, naming it.

    Notes
    -----
    A mapping may give ``top_pairs``/``top_trips`` (13 values each, or a dict
    from rank text like ``"66"``/``"AAA"`` to points) and, per 5-card row
    (``middle``, ``bottom``; four rows: ``third``, ``second``, ``bottom``), a
    dict from hand name (``trips``, ``straight`` .. ``royal_flush``) to points.
    Missing rows and hands pay 0; a missing ``royal_flush`` pays the straight
    flush value (docs/rules.md section 10).

    Examples
    --------
    >>> r = royalty_table({"bottom": {"straight": 2, "flush": 4, "straight_flush": 15}})
    >>> r.rows[-1][9]
    15
    """
    if isinstance(spec, Royalties):
        return spec
    if isinstance(spec, str):
        preset = _choose("royalty table", spec, ROYALTY_PRESETS)
        return preset if n_rows == 3 else big_pineapple_royalties(preset)
    if not isinstance(spec, Mapping):
        raise RulesError(f"royalties must be a preset name, a mapping or Royalties, got "
                         f"{shorten(spec)}")
    names = ("middle", "bottom") if n_rows == 3 else ("third", "second", "bottom")
    valid = ("top_pairs", "top_trips", "lowball", "name", *names)
    unknown = [k for k in spec if k not in valid]
    if unknown:
        raise RulesError(f"unknown royalty rows {shorten(unknown)}; valid: {', '.join(valid)}")
    rows = []
    for row_name in names:
        given = spec.get(row_name, {})
        if not isinstance(given, Mapping):
            raise RulesError(f"royalties[{row_name!r}] must map hand names to points, got "
                             f"{shorten(given)}")
        bad = [h for h in given if h not in HAND_CODES]
        if bad:
            raise RulesError(f"royalties[{row_name!r}]: unknown hands {shorten(bad)}; "
                             f"valid: {', '.join(HAND_CODES)}")
        row = [0] * 10
        for hand, pts in given.items():
            row[HAND_CODES[hand]] = _integer(pts, f"royalties[{row_name!r}][{hand!r}]", 0,
                                             MAX_ROYALTY)
        if "royal_flush" not in given:
            row[ROYAL_FLUSH] = row[STRAIGHT_FLUSH]
        rows.append(tuple(row))
    name = spec.get("name", "custom")
    if not isinstance(name, str):
        raise RulesError(f"royalties['name'] must be a str, got {shorten(name)}")
    low = spec.get("lowball", _LOWBALL)
    return Royalties(
        name=name,
        top_pairs=_rank_values(spec.get("top_pairs", _TOP_PAIRS), 2),
        top_trips=_rank_values(spec.get("top_trips", _TOP_TRIPS), 3),
        rows=tuple(rows),
        lowball=low,
    )


def _rank_values(values: object, size: int) -> tuple[int, ...]:
    what = "top_pairs" if size == 2 else "top_trips"
    if isinstance(values, Mapping):
        out = [0] * 13
        for text, pts in values.items():
            t = str(text).upper()
            rank = RANKS.find(t[:1]) if t else -1
            if rank < 0 or len(t) != size or len(set(t)) != 1:
                raise RulesError(f"royalties[{what!r}]: bad top hand {shorten(text)}; expected "
                                 f"e.g. {'66' if size == 2 else '222'}")
            out[rank] = _integer(pts, f"royalties[{what!r}][{text!r}]", 0, MAX_ROYALTY)
        return tuple(out)
    return _integers(values, f"royalties[{what!r}]", 0, MAX_ROYALTY, 13)


# ------------------------------------------------------------------------ fantasyland
REPEAT_RULES = ("classic", "pineapple", "infinite", "big-pineapple", "none")
ENTRY_RULES = ("qq", "progressive", "lowball", "none")


# --------------------------------------------------------------------------- variant
@dataclass(frozen=True)
class Variant:
    """One game's complete rules (frozen, hashable, picklable).

    Build one with :func:`variant`; ``dataclasses.replace`` gives a modified
    copy.  Every field is validated and normalised when a Variant is made, so
    a Variant that exists can be played and scored.

    Parameters
    ----------
    name : str
        The variant's name (``"pineapple"``, ...).
    n_rows : int
        3, or 4 for Big Pineapple.
    lowball : bool
        A 2-7 middle (three rows only).
    royalties : Royalties
        With ``n_rows - 1`` five-card rows; a hand can earn at most
        :data:`MAX_ROYALTY`.
    scoring : Scoring
        The scoring scheme.
    finnish : bool
        The 2 of spades doubles the royalties exchanged on its row.
    entry : str
        Fantasyland entry rule: ``"qq"``, ``"progressive"``, ``"lowball"`` or
        ``"none"`` (:data:`ENTRY_RULES`).
    entry_cards : tuple of int
        Cards dealt by entry points; index 0 = no fantasyland, then one deal
        per tier of ``n_cards`` .. :data:`MAX_DEAL` cards.
    repeat : str
        Repeat rule (:data:`REPEAT_RULES`).
    repeat_cards : int
        Cards dealt on a repeat.
    repeat_limit : int or None
        Repeats in a row (0 .. 254); ``None`` = no limit.
    first_street : int
        Cards dealt (and placed) on the first street.
    streets : tuple of (dealt, kept) pairs
        The later streets; with ``first_street`` they place exactly
        ``n_cards`` cards and deal at most :data:`MAX_DEAL`.
    min_players, max_players : int
        2 .. 4.

    Attributes
    ----------
    row_names, row_sizes, n_cards, fantasyland, max_royalty
        Derived: see each property.

    Raises
    ------
    RulesError
        For any field out of range or inconsistent, naming it and the value.

    Examples
    --------
    >>> v = variant("pineapple")
    >>> v.n_cards, v.row_names, v.streets[0]
    (13, ('top', 'middle', 'bottom'), (3, 2))
    >>> import dataclasses
    >>> dataclasses.replace(v, n_rows=5)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesError: n_rows must be 3 .. 4, got 5
    """
    name: str
    n_rows: int = 3
    lowball: bool = False
    royalties: Royalties = ROYALTY_PRESETS["russian"]
    scoring: Scoring = SCORING_PRESETS["2-6"]
    finnish: bool = False
    entry: str = "qq"
    entry_cards: tuple[int, ...] = (0, 13)
    repeat: str = "classic"
    repeat_cards: int = 13
    repeat_limit: int | None = 1
    first_street: int = 5
    streets: tuple[tuple[int, int], ...] = ((1, 1),) * 8
    min_players: int = 2
    max_players: int = 4

    def __post_init__(self) -> None:
        """Validate and normalise every field: a Variant that exists can be
        played and scored (``dataclasses.replace`` comes through here too)."""
        if not isinstance(self.name, str) or not self.name:
            raise RulesError(f"name must be a non-empty str, got {shorten(self.name)}")
        n_rows = _integer(self.n_rows, "n_rows", 3, 4)
        _set(self, "n_rows", n_rows)
        n_cards = self.n_cards
        for f in ("lowball", "finnish"):
            _set(self, f, _flag(getattr(self, f), f))
        if self.lowball and n_rows == 4:
            raise RulesError("lowball: a 2-7 middle needs a three-row variant")
        if not isinstance(self.royalties, Royalties):
            raise RulesError(f"royalties must be a Royalties, got {shorten(self.royalties)}")
        if len(self.royalties.rows) != n_rows - 1:
            raise RulesError(f"royalties {self.royalties.name!r} has "
                             f"{len(self.royalties.rows)} five-card rows; a {n_rows}-row "
                             f"variant needs {n_rows - 1}")
        if not isinstance(self.scoring, Scoring):
            raise RulesError(f"scoring must be a Scoring, got {shorten(self.scoring)}")
        best = self.max_royalty
        if best > MAX_ROYALTY:
            raise RulesError(f"royalties {self.royalties.name!r}: a hand can earn {best:,}, more "
                             f"than the {MAX_ROYALTY:,} the kernels hold (the best top plus "
                             "the best of each row)")
        # Fantasyland: the rules, and deals the engine can play.
        _choose("fantasyland entry rule", self.entry, dict.fromkeys(ENTRY_RULES))
        _choose("repeat rule", self.repeat, dict.fromkeys(REPEAT_RULES))
        if self.repeat == "big-pineapple" and n_rows != 4:
            raise RulesError("repeat 'big-pineapple' needs a four-row variant")
        deal = f"{n_cards} .. {MAX_DEAL} ({n_cards} placed, the rest discarded)"
        cards = _integers(self.entry_cards, "entry_cards", 0, 255)
        if not 1 <= len(cards) <= 16 or cards[0] != 0:
            raise RulesError(f"entry_cards must start with 0 (no fantasyland) and list the "
                             f"cards dealt per entry tier, at most 16 values; got {cards!r}")
        if any(not n_cards <= c <= MAX_DEAL for c in cards[1:]):
            raise RulesError(f"entry_cards {cards!r}: each fantasyland deal must be {deal}")
        if self.entry == "none" and len(cards) > 1:
            raise RulesError(f"entry_cards {cards!r} given, but the fantasyland entry rule is "
                             "'none'")
        _set(self, "entry_cards", cards)
        repeat_cards = _integer(self.repeat_cards, "repeat_cards", 0, MAX_DEAL)
        if self.fantasyland and self.repeat != "none" and repeat_cards < n_cards:
            raise RulesError(f"repeat_cards must be {deal}, got {repeat_cards}")
        _set(self, "repeat_cards", repeat_cards)
        if self.repeat_limit is not None:
            _set(self, "repeat_limit", _integer(self.repeat_limit, "repeat_limit", 0, 254))
        # The deal: streets that place exactly the layout, within the buffers.
        first = _integer(self.first_street, "first_street", 1, n_cards)
        if isinstance(self.streets, (str, Mapping)) or not hasattr(self.streets, "__iter__"):
            raise RulesError(f"streets must be a sequence of (dealt, kept) pairs, got "
                             f"{shorten(self.streets)}")
        streets = tuple(_integers(st, f"streets[{i}]", 1, MAX_DEAL, 2)
                        for i, st in enumerate(self.streets))
        for i, (dealt, kept) in enumerate(streets):
            if kept > dealt:
                raise RulesError(f"streets[{i}] = {(dealt, kept)}: keeps more cards than dealt")
        placed = first + sum(k for _, k in streets)
        dealt_total = first + sum(d for d, _ in streets)
        if placed != n_cards:
            raise RulesError(f"first_street {first} and streets {streets!r} place {placed} "
                             f"cards; the layout has {n_cards}")
        if dealt_total > MAX_DEAL:
            raise RulesError(f"streets deal {dealt_total} cards to a player; at most "
                             f"{MAX_DEAL} fit the engine")
        _set(self, "first_street", first)
        _set(self, "streets", streets)
        lo = _integer(self.min_players, "min_players", 2, 4)
        hi = _integer(self.max_players, "max_players", lo, 4)
        if hi * dealt_total > DECK_SIZE:
            raise RulesError(f"{hi} players dealt {dealt_total} cards each need more than "
                             f"{DECK_SIZE} cards; lower max_players or the streets")
        _set(self, "min_players", lo)
        _set(self, "max_players", hi)
        _set(self, "_checked", True)    # not a field: as_variant trusts this object

    @property
    def max_royalty(self) -> int:
        """Most royalty one hand can earn (the best top plus the best of each row)."""
        r = self.royalties
        rows = [max(row) for row in r.rows]
        if self.lowball:   # the 2-7 table replaces the middle's
            rows[0] = max((v for _, v in r.lowball), default=0)
        return max(r.top_pairs + r.top_trips) + sum(rows)

    @property
    def row_names(self) -> tuple[str, ...]:
        if self.n_rows == 3:
            return ("top", "middle", "bottom")
        return ("top", "third", "second", "bottom")

    @property
    def row_sizes(self) -> tuple[int, ...]:
        return (3,) + (5,) * (self.n_rows - 1)

    @property
    def n_cards(self) -> int:
        return 3 + 5 * (self.n_rows - 1)

    @property
    def fantasyland(self) -> bool:
        return any(self.entry_cards)

    def __str__(self) -> str:
        opts = [f"scoring {self.scoring.name}", f"royalties {self.royalties.name}"]
        if self.lowball:
            opts.append("2-7 middle")
        if self.finnish:
            opts.append("Finnish 2s")
        if not self.fantasyland:
            opts.append("no fantasyland")
        else:
            limit = "no limit" if self.repeat_limit is None else f"limit {self.repeat_limit}"
            opts.append(f"fantasyland {self.entry} -> {max(self.entry_cards)}, "
                        f"repeat {self.repeat} ({limit})")
        return f"{self.name} ({', '.join(opts)})"


_PINEAPPLE_DEAL: dict[str, Any] = dict(first_street=5, streets=((3, 2),) * 4, max_players=3)
VARIANTS = {
    "classic": Variant("classic"),
    "chinese": Variant("chinese", entry="none", entry_cards=(0,), repeat="none",
                       first_street=13, streets=()),
    "turbo": Variant("turbo", streets=((4, 4),) * 2),
    "pineapple": Variant("pineapple", royalties=ROYALTY_PRESETS["american"],
                         scoring=SCORING_PRESETS["1-6"], entry_cards=(0, 14), repeat="pineapple",
                         repeat_cards=14, **_PINEAPPLE_DEAL),
    "progressive": Variant("progressive", royalties=ROYALTY_PRESETS["american"],
                           scoring=SCORING_PRESETS["1-6"], entry="progressive",
                           entry_cards=(0, 14, 15, 16, 17), repeat="pineapple", repeat_cards=14,
                           **_PINEAPPLE_DEAL),
    "pineapple-2-7": Variant("pineapple-2-7", lowball=True, royalties=ROYALTY_PRESETS["american"],
                             scoring=SCORING_PRESETS["1-6"], entry="lowball",
                             entry_cards=(0, 14, 15), repeat="pineapple", repeat_cards=14,
                             **_PINEAPPLE_DEAL),
    "turbo-pineapple": Variant("turbo-pineapple", royalties=ROYALTY_PRESETS["american"],
                               scoring=SCORING_PRESETS["1-6"], entry_cards=(0, 14),
                               repeat="pineapple", repeat_cards=14, first_street=4,
                               streets=((4, 3),) * 3, max_players=3),
    "big-pineapple": Variant("big-pineapple", n_rows=4,
                             royalties=big_pineapple_royalties(ROYALTY_PRESETS["american"]),
                             scoring=SCORING_PRESETS["1-12"], entry_cards=(0, 19),
                             repeat="big-pineapple", repeat_cards=19, first_street=6,
                             streets=((3, 2),) * 6, max_players=2),
}

_OPTIONS = ("american", "lowball", "finnish", "fantasyland", "repeat", "repeat_limit",
            "royalties", "scoring", "foul_penalty", "third_row_trips", "entry_cards",
            "repeat_cards")


def as_variant(v: Variant | str) -> Variant:
    """The :class:`Variant` for ``v``: ``v`` itself, or the variant of that name.

    Every function that takes ``variant=`` takes a name or a Variant through
    this one function.

    Parameters
    ----------
    v : Variant or str
        A Variant, or a name of :data:`VARIANTS`.

    Returns
    -------
    Variant

    Raises
    ------
    RulesError
        For an unknown name or anything else, and for a Variant whose fields
        are not valid (one made without its constructor is validated here).

    Examples
    --------
    >>> as_variant("classic") is VARIANTS["classic"]
    True
    """
    if isinstance(v, Variant):
        if getattr(v, "_checked", False):
            return v
        # made without its constructor (object.__new__ and setattr): made
        # again from its fields, so it is validated like any other
        made: dict[str, Any] = {f.name: getattr(v, f.name, None)
                                for f in dataclasses.fields(Variant)}
        return Variant(**made)
    return _choose("variant", v, VARIANTS)


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
        ``(0, 14, 15, 16, 17)`` for Progressive) and ``repeat_cards`` (cards
        dealt on a repeat; docs/rules.md section 10: the variant's entry
        count, 14 for Progressive and 2-7).  Numbers must be integers (an
        integral float such as ``2.0`` is accepted); royalties and scoring
        are bounded by :data:`MAX_ROYALTY` and :data:`MAX_SCORING`.

    Returns
    -------
    Variant
        Frozen and hashable; equal options give equal variants.

    Raises
    ------
    RulesError
        For an unknown variant or option, or a bad value, naming the option
        and the value.

    Examples
    --------
    >>> str(variant("turbo-pineapple", lowball=True))
    'turbo-pineapple (scoring 1-6, royalties american, 2-7 middle, fantasyland lowball -> 15,
    repeat pineapple (limit 1))'
    >>> variant("classic", colour="red")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesError: unknown option 'colour'; valid: american, lowball, finnish,
    fantasyland, repeat, repeat_limit, royalties, scoring, foul_penalty, third_row_trips,
    entry_cards, repeat_cards
    """
    v = name if isinstance(name, Variant) else _choose("variant", name, VARIANTS)
    for key in options:
        if key not in _OPTIONS:
            raise RulesError(f"unknown option {shorten(key)}; valid: {', '.join(_OPTIONS)}")
    o = options
    four = v.n_rows == 4
    if "american" in o and _flag(o["american"], "american"):
        v = dataclasses.replace(
            v, scoring=SCORING_PRESETS["1-12" if four else "1-6"],
            royalties=royalty_table("american", v.n_rows))
    if "royalties" in o:
        v = dataclasses.replace(v, royalties=royalty_table(o["royalties"], v.n_rows))
    if "third_row_trips" in o:
        if not four:
            raise RulesError("third_row_trips applies to four-row variants only")
        trips = _integer(o["third_row_trips"], "third_row_trips", 0, MAX_ROYALTY)
        rows = list(v.royalties.rows)
        rows[0] = rows[0][:TRIPS] + (trips,) + rows[0][TRIPS + 1:]
        v = dataclasses.replace(v, royalties=dataclasses.replace(v.royalties, rows=tuple(rows)))
    if "scoring" in o:
        v = dataclasses.replace(v, scoring=scoring_scheme(o["scoring"]))
    if o.get("foul_penalty") is not None:
        v = dataclasses.replace(v, scoring=dataclasses.replace(
            v.scoring, foul_penalty=_integer(o["foul_penalty"], "foul_penalty", 0, MAX_SCORING)))
    if "lowball" in o and _flag(o["lowball"], "lowball") != v.lowball:
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
        v = dataclasses.replace(v, finnish=_flag(o["finnish"], "finnish"))
    if "repeat" in o:
        rule = o["repeat"] if o["repeat"] not in (None, False) else "none"
        _choose("repeat rule", rule, dict.fromkeys(REPEAT_RULES))
        if rule == "infinite":
            v = dataclasses.replace(v, repeat=v.repeat if four else "infinite", repeat_limit=None)
        else:
            v = dataclasses.replace(v, repeat=rule)
    if "repeat_limit" in o:
        limit = o["repeat_limit"]
        v = dataclasses.replace(
            v, repeat_limit=None if limit is None else _integer(limit, "repeat_limit", 0, 254))
    if "entry_cards" in o:
        v = dataclasses.replace(v, entry_cards=_integers(o["entry_cards"], "entry_cards", 0, 255))
    if "repeat_cards" in o:
        v = dataclasses.replace(v, repeat_cards=_integer(o["repeat_cards"], "repeat_cards", 0,
                                                         MAX_DEAL))
    if "fantasyland" in o and not _flag(o["fantasyland"], "fantasyland"):
        v = dataclasses.replace(v, entry="none", entry_cards=(0,), repeat="none")
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
    ValueError
        For a variant whose name is not one of :data:`VARIANTS`.

    Examples
    --------
    >>> variant_options(variant("classic", finnish=True, scoring="1-6"))
    {'scoring': '1-6', 'finnish': True}
    """
    v = v if isinstance(v, Variant) else variant(v)
    base = VARIANTS.get(v.name)
    if base is None:
        raise ValueError(f"{v.name!r} is not a named variant")
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


# ---------------------------------------------------------------------------- deal
MAX_STREETS = 64
"""Most streets (the first included) a deal schedule may list: the size of
the engine's per-hand schedule buffers."""


def _deal_int(value: Any, what: str, lo: int, hi: int) -> int:
    """One count of a deal schedule: an int in ``lo .. hi`` (TypeError for
    what is not an integer, RulesError out of range)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, got {shorten(value)}")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {shorten(value)}") from None
    if not lo <= n <= hi:
        raise RulesError(f"{what} must be {lo} .. {hi}, got {shorten(n)}")
    return n


def deal_schedule(first_street: Any, streets: Any,
                  n_cards: int) -> tuple[tuple[int, int], ...]:
    """A deal as ``((dealt, kept), ...)``, the first street first, checked
    against the layout (``n_cards`` placed) and the engine's buffers
    (:data:`MAX_DEAL` cards a player, :data:`MAX_STREETS` streets).

    A :class:`Variant` checks its own deal; this check serves the engine,
    which also meets variants forged around that check.

    Parameters
    ----------
    first_street : int
        Cards dealt (and placed) on the first street.
    streets : sequence of (dealt, kept) pairs
        The later streets.
    n_cards : int
        Cards of the layout (13 or 18).

    Returns
    -------
    tuple of (int, int)

    Raises
    ------
    RulesError
        For a schedule that does not place exactly the layout, or deals more
        than the engine holds.
    TypeError
        For counts that are not integers.

    Examples
    --------
    >>> deal_schedule(5, ((3, 2),) * 4, 13)
    ((5, 5), (3, 2), (3, 2), (3, 2), (3, 2))
    """
    try:
        sched = [(first_street, first_street)] + [tuple(x) for x in streets]
    except TypeError:
        raise RulesError(f"streets must be a sequence of (dealt, kept) pairs, got "
                         f"{shorten(streets)}") from None
    if len(sched) > MAX_STREETS:
        raise RulesError(f"{len(sched) - 1} streets after the first: more than a hand can have")
    out = []
    for s, street in enumerate(sched):
        if len(street) != 2:
            raise RulesError(f"streets[{s - 1}] must be a (dealt, kept) pair, got "
                             f"{shorten(street)}")
        what = "first_street" if s == 0 else f"streets[{s - 1}]"
        dealt = _deal_int(street[0], what + " dealt", 1, MAX_DEAL)
        kept = _deal_int(street[1], what + " kept", 0, dealt)
        out.append((dealt, kept))
    placed = sum(k for _, k in out)
    if placed != n_cards:
        raise RulesError(f"the streets place {placed} cards; the layout has {n_cards}")
    total = sum(d for d, _ in out)
    if total > MAX_DEAL:
        raise RulesError(f"the streets deal {total} cards to a player; at most "
                         f"{MAX_DEAL} fit the engine")
    return tuple(out)


# --------------------------------------------------------------------------- compile
SCALE = len(JOINT_CATEGORY)  # 7918: joint strengths 1 .. 7917


def _hand_codes() -> np.ndarray:
    """Hand code per joint strength (category, or ROYAL_FLUSH)."""
    codes = JOINT_CATEGORY.astype(np.int64)
    royal = (codes == STRAIGHT_FLUSH) & (JOINT_RANKS[:, 0] == 12)
    codes[royal] = ROYAL_FLUSH
    codes[0] = HIGH_CARD
    return codes


def lowball_valid() -> np.ndarray:
    """Per joint strength: a valid 2-7 low (five distinct ranks, ten or lower,
    no straight, no flush)."""
    valid: np.ndarray = (JOINT_SIZE == 5) & (JOINT_CATEGORY == HIGH_CARD) & (JOINT_RANKS[:, 0] <= 8)
    return valid


def lowball_royalty(table: Royalties) -> np.ndarray:
    """Per joint strength: royalty of a 2-7 middle (0 where not a valid low)."""
    pay = dict(table.lowball)
    r = JOINT_RANKS
    out = np.zeros(SCALE, np.int16)
    valid = lowball_valid()
    out[valid & (r[:, 0] == 7)] = pay.get(9, 0)
    out[valid & (r[:, 0] == 6)] = pay.get(8, 0)
    out[valid & (r[:, 0] == 5) & (r[:, 1] == 4)] = pay.get(76, 0)
    out[valid & (r[:, 0] == 5) & (r[:, 1] == 3)] = pay.get(75, 0)
    return out


def _top_at_least(rank_pair: int) -> np.ndarray:
    """Tops with a pair of rank >= rank_pair, or any trips."""
    tops = JOINT_SIZE == 3
    cat = JOINT_CATEGORY
    pair_or_better = (cat == PAIR) & (JOINT_RANKS[:, 0] >= rank_pair)
    at_least: np.ndarray = tops & ((cat == TRIPS) | pair_or_better)
    return at_least


def _at_least(cat: int, rows5: bool = True) -> np.ndarray:
    at_least: np.ndarray = (JOINT_SIZE == (5 if rows5 else 3)) & (JOINT_CATEGORY >= cat)
    return at_least


N_ROW_CLASSES = 64


@functools.lru_cache(maxsize=1)
def row_classes() -> np.ndarray:
    """Per joint strength, the coarse class every rule depends on (uint8).

    Tops: 0 high card, 1 + rank for pairs, 14 + rank for trips.  Five cards:
    27 + hand code (``HAND_CODES``, royal flush apart), and the valid 2-7 lows
    split out: 37 ten-high, 38 nine-high, 39 eight-high, 40 seven-six, 41
    7-5-4-3-2.  The kernels look rules up by class, so a variant's tables fit
    in a few kilobytes and stay in L1 cache.
    """
    cat, rank0, rank1 = JOINT_CATEGORY, JOINT_RANKS[:, 0], JOINT_RANKS[:, 1]
    top = JOINT_SIZE == 3
    cls = np.where(top, np.select([cat == PAIR, cat == TRIPS], [1 + rank0, 14 + rank0], 0),
                   27 + _hand_codes())
    low = lowball_valid()
    low_class = np.select([rank0 == 8, rank0 == 7, rank0 == 6, rank1 == 4], [37, 38, 39, 40], 41)
    cls = np.where(low, low_class, cls)
    cls[0] = 0
    return cls.astype(np.uint8)


def _by_class(table: np.ndarray, name: str) -> np.ndarray:
    """Compact a (4, SCALE) per-strength table to (4, N_ROW_CLASSES) per class."""
    cls = row_classes()
    out = np.zeros((table.shape[0], N_ROW_CLASSES), table.dtype)
    out[:, cls] = table
    if not np.array_equal(out[:, cls], table):
        raise RulesError(f"rule table {name!r} is not a function of the row class")
    return out


@functools.lru_cache(maxsize=64)
def compile_rules(v: Variant) -> dict[str, Any]:
    """Per-row lookup tables for the kernels (all indexed by joint strength).

    Returns a dict of numpy arrays and ints, read by ``ofc_fast._layout``.
    """
    R = v.n_rows
    codes = _hand_codes()
    royalty = np.zeros((4, SCALE), np.int16)
    valid = np.ones((4, SCALE), np.uint8)
    key = np.zeros((4, SCALE), np.uint16)
    entry = np.zeros((4, SCALE), np.uint8)
    repeat = np.zeros((4, SCALE), np.uint8)
    strengths = np.arange(SCALE, dtype=np.int64)
    top = JOINT_SIZE == 3
    rank0 = JOINT_RANKS[:, 0]
    royalty[0] = np.where(top & (JOINT_CATEGORY == PAIR),
                          np.take(v.royalties.top_pairs, rank0), 0)
    royalty[0] += np.where(top & (JOINT_CATEGORY == TRIPS),
                           np.take(v.royalties.top_trips, rank0), 0)
    for i, row in enumerate(v.royalties.rows, start=1):
        royalty[i] = np.where(JOINT_SIZE == 5, np.take(row, codes), 0)
    key[:R] = strengths
    in_chain = [1] * R + [0] * (4 - R)
    if v.lowball:
        low = lowball_valid()
        valid[1] = low
        royalty[1] = lowball_royalty(v.royalties)
        key[1] = np.where(low, SCALE - strengths, 0)
        in_chain[1] = 0
    bottom = R - 1
    trips_top = top & (JOINT_CATEGORY == TRIPS)
    # Fantasyland entry points per row, summed; entry_cards maps the sum to cards.
    if v.entry == "qq":
        entry[0] = _top_at_least(10)
    elif v.entry == "progressive":
        entry[0] = (_top_at_least(10).astype(np.uint8) + _top_at_least(11) + _top_at_least(12)
                    + trips_top)
    elif v.entry == "lowball":
        entry[0] = _top_at_least(11)
        if v.lowball:
            entry[1] = lowball_valid() & (rank0 == 5) & (JOINT_RANKS[:, 1] == 3)
    elif v.entry != "none":
        raise RulesError(f"unknown fantasyland entry rule {v.entry!r}")
    # Repeat points per row, compared with a threshold (a sum of ORs, or an AND).
    threshold = 1
    if v.repeat in ("classic", "infinite", "pineapple"):
        repeat[0] = trips_top
        repeat[bottom] = _at_least(QUADS)
        if v.repeat != "pineapple" and R == 3 and not v.lowball:
            repeat[1] = _at_least(FULL_HOUSE)
    elif v.repeat == "big-pineapple":
        # royal flush on the bottom (2) AND (quads+ on the second row or trips on top) (1)
        repeat[0] = trips_top
        repeat[bottom] = 2 * (codes == ROYAL_FLUSH) * (JOINT_SIZE == 5)
        repeat[bottom - 1] = _at_least(QUADS)
        threshold = 3
    elif v.repeat == "none":
        threshold = 0
    entry_cards = np.zeros(256, np.uint8)   # by summed entry points (an 8-bit sum)
    n = min(len(v.entry_cards), 256)
    entry_cards[:n] = v.entry_cards[:n]
    entry_cards[n:] = v.entry_cards[-1]  # more points than tiers: the top tier
    row_len = list(v.row_sizes) + [0] * (4 - R)
    row_off = list(np.cumsum([0] + list(v.row_sizes[:-1]))) + [0] * (4 - R)
    s = v.scoring
    # Bound on |points| of one pair (Finnish doubling included); Variant's
    # bounds (MAX_ROYALTY, MAX_SCORING) keep it far inside int32.
    max_royalty = int(np.abs(royalty).max(axis=1).sum())
    max_pair = s.per_row * R + s.scoop_bonus + s.majority_bonus + s.penalty(R) \
        + 4 * max_royalty + 1
    # Pairs summed per int16 partial sum in the fast kernels (0: use 32-bit path).
    chunk = min(256, 32767 // max_pair)
    return dict(
        n_rows=R, n_cards=v.n_cards, row_len=row_len, row_off=[int(x) for x in row_off],
        in_chain=in_chain, royalty=royalty, valid=valid, key=key, entry_pts=entry,
        repeat_pts=repeat, entry_cards=entry_cards, repeat_threshold=threshold,
        repeat_cards=v.repeat_cards if v.fantasyland else 0,
        max_repeats=255 if v.repeat_limit is None else v.repeat_limit,
        finnish=int(v.finnish), per_row=s.per_row, scoop_bonus=s.scoop_bonus,
        majority_bonus=s.majority_bonus, majority_min=R // 2 + 1,
        foul_extra=s.penalty(R) - s.scoop_total(R), chunk=chunk if chunk >= 8 else 0,
        max_pair=max_pair, row_class=row_classes(),
        reverse=[int(v.lowball and i == 1) for i in range(4)],
        **{f"{name}_by_class": _by_class(arr, name) for name, arr in (
            ("royalty", royalty), ("valid", valid), ("entry_pts", entry), ("repeat_pts", repeat))},
    )
