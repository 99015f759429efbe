"""Rule data: scoring schemes, royalty tables, fantasyland rules and the
:class:`Variant` that holds one game's complete rules (docs/rules.md sections
4-8), with the named variants and presets.

One concern, the rules as values: each class validates and normalises its
fields when made, so a rule that exists can be played and scored.  Options
by name are :mod:`ofc_fast.rule_options`; the deal's ranges
:mod:`ofc_fast.deals`; the kernels' tables :mod:`ofc_fast.rule_tables`;
:mod:`ofc_fast.rules` gathers them all.

>>> VARIANTS["pineapple"].scoring.name, as_variant("classic").n_cards
('1-6', 13)
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ofc_fast._args import choice, flag, integer, integers
from ofc_fast._eval import MAX_DEAL
from ofc_fast.cards import DECK_SIZE, MAX_JOKERS, RANKS
from ofc_fast.errors import RulesError, RulesTypeError, shorten
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
    "ROYAL_FLUSH", "HAND_CODES", "Scoring", "Royalties", "Variant", "as_variant",
    "scoring_scheme", "royalty_table", "big_pineapple_royalties", "VARIANTS", "SCORING_PRESETS",
    "ROYALTY_PRESETS", "REPEAT_RULES", "ENTRY_RULES", "MAX_DEAL", "MAX_ROYALTY", "MAX_SCORING",
    "JOKER_CARDS", "JOKER_OBJECTIVES",
]


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


_T = TypeVar("_T")


# Rule options come from the files read as well as from code: a wrong value
# is a RulesError, a wrong type a RulesTypeError (a RulesError and a TypeError).
def _rule_choice(kind: str, name: object, valid: Mapping[str, _T]) -> _T:
    return valid[choice(name, kind, valid, what=kind, error=RulesError, type_error=RulesTypeError)]


def _rule_int(value: object, what: str, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo .. hi``; an integral float is accepted, 2.7 is not."""
    return integer(value, what, lo, hi, floats=True, error=RulesError, type_error=RulesTypeError)


def _rule_ints(values: object, what: str, lo: int, hi: int,
              size: int | None = None) -> tuple[int, ...]:
    return integers(values, what, lo, hi, size=size, floats=True, error=RulesError,
                    type_error=RulesTypeError)


def _rule_flag(value: object, what: str) -> bool:
    """A yes/no option: a bool (or 0 / 1)."""
    return flag(value, what, type_error=RulesTypeError)


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
            _set(self, f, _rule_int(getattr(self, f), f"scoring {f}", 0, MAX_SCORING))
        if self.foul_penalty is not None:
            _set(self, "foul_penalty", _rule_int(self.foul_penalty, "foul_penalty", 0, MAX_SCORING))

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
        return _rule_choice("scoring scheme", spec, SCORING_PRESETS)
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
             _rule_ints(self.top_pairs, "royalties top_pairs", 0, MAX_ROYALTY, 13))
        _set(self, "top_trips",
             _rule_ints(self.top_trips, "royalties top_trips", 0, MAX_ROYALTY, 13))
        if isinstance(self.rows, (str, Mapping)) or not hasattr(self.rows, "__iter__"):
            raise RulesError(f"royalty rows must be a sequence of 10-value rows, got "
                             f"{shorten(self.rows)}")
        _set(self, "rows", tuple(_rule_ints(row, f"royalties rows[{i}]", 0, MAX_ROYALTY, 10)
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
            clean[int(pair[0])] = _rule_int(pair[1], f"royalties lowball[{pair[0]}]", 0,
                                            MAX_ROYALTY)
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

    Parameters
    ----------
    base : Royalties, optional
        A three-row table (default American).
    third_row_trips : int
        What trips on the third row pay.

    Returns
    -------
    Royalties
        With rows third, second, bottom.

    Raises
    ------
    RulesError
        For a value the table cannot hold.

    Examples
    --------
    >>> r = big_pineapple_royalties()
    >>> r.name, r.rows[0][HAND_CODES["trips"]], r.rows[0][HAND_CODES["flush"]]
    ('american-4-row', 4, 16)
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
        preset = _rule_choice("royalty table", spec, ROYALTY_PRESETS)
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
            row[HAND_CODES[hand]] = _rule_int(pts, f"royalties[{row_name!r}][{hand!r}]", 0,
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
            out[rank] = _rule_int(pts, f"royalties[{what!r}][{text!r}]", 0, MAX_ROYALTY)
        return tuple(out)
    return _rule_ints(values, f"royalties[{what!r}]", 0, MAX_ROYALTY, 13)



# ------------------------------------------------------------------------ fantasyland
REPEAT_RULES = ("classic", "pineapple", "infinite", "big-pineapple", "none")
ENTRY_RULES = ("qq", "progressive", "lowball", "none")


# ---------------------------------------------------------------------------- jokers
JOKER_CARDS = ("row", "board")
"""What a joker may stand for (docs/rules.md section 12, option ``joker_cards``):
``row`` any natural card not in its own row, ``board`` any natural not on the board."""
JOKER_OBJECTIVES = ("fantasyland", "royalties", "strength")
"""How a board's jokers are resolved once no foul is forced (option ``joker_objective``)."""


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
    jokers : int
        Jokers in the deck, 0 (the default: 52 cards), 1 or 2 (X1 = 52,
        X2 = 53; docs/jokers.md).
    joker_cards : str
        What a joker may stand for (:data:`JOKER_CARDS`): ``"row"`` (the
        default) any natural card not in its own row, ``"board"`` any
        natural not on the player's board.
    joker_objective : str
        How jokers resolve once no foul is forced (:data:`JOKER_OBJECTIVES`):
        ``"fantasyland"`` (the default) the best fantasyland outcome, then
        royalties, then row strengths bottom up; ``"royalties"``;
        ``"strength"`` (row strengths bottom up).
    joker_top_natural : bool
        A pair or trips on top pays and earns fantasyland only with a
        natural card of its rank (default False: a joker counts fully).

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
    >>> v = VARIANTS["pineapple"]
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
    jokers: int = 0
    joker_cards: str = "row"
    joker_objective: str = "fantasyland"
    joker_top_natural: bool = False

    def __post_init__(self) -> None:
        """Validate and normalise every field: a Variant that exists can be
        played and scored (``dataclasses.replace`` comes through here too)."""
        if not isinstance(self.name, str) or not self.name:
            raise RulesError(f"name must be a non-empty str, got {shorten(self.name)}")
        n_rows = _rule_int(self.n_rows, "n_rows", 3, 4)
        _set(self, "n_rows", n_rows)
        n_cards = self.n_cards
        for f in ("lowball", "finnish"):
            _set(self, f, _rule_flag(getattr(self, f), f))
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
        _rule_choice("fantasyland entry rule", self.entry, dict.fromkeys(ENTRY_RULES))
        _rule_choice("repeat rule", self.repeat, dict.fromkeys(REPEAT_RULES))
        if self.repeat == "big-pineapple" and n_rows != 4:
            raise RulesError("repeat 'big-pineapple' needs a four-row variant")
        deal = f"{n_cards} .. {MAX_DEAL} ({n_cards} placed, the rest discarded)"
        cards = _rule_ints(self.entry_cards, "entry_cards", 0, 255)
        if not 1 <= len(cards) <= 16 or cards[0] != 0:
            raise RulesError(f"entry_cards must start with 0 (no fantasyland) and list the "
                             f"cards dealt per entry tier, at most 16 values; got {cards!r}")
        if any(not n_cards <= c <= MAX_DEAL for c in cards[1:]):
            raise RulesError(f"entry_cards {cards!r}: each fantasyland deal must be {deal}")
        if self.entry == "none" and len(cards) > 1:
            raise RulesError(f"entry_cards {cards!r} given, but the fantasyland entry rule is "
                             "'none'")
        _set(self, "entry_cards", cards)
        repeat_cards = _rule_int(self.repeat_cards, "repeat_cards", 0, MAX_DEAL)
        if self.fantasyland and self.repeat != "none" and repeat_cards < n_cards:
            raise RulesError(f"repeat_cards must be {deal}, got {repeat_cards}")
        _set(self, "repeat_cards", repeat_cards)
        if self.repeat_limit is not None:
            _set(self, "repeat_limit", _rule_int(self.repeat_limit, "repeat_limit", 0, 254))
        # The deal: streets that place exactly the layout, within the buffers.
        first = _rule_int(self.first_street, "first_street", 1, n_cards)
        if isinstance(self.streets, (str, Mapping)) or not hasattr(self.streets, "__iter__"):
            raise RulesError(f"streets must be a sequence of (dealt, kept) pairs, got "
                             f"{shorten(self.streets)}")
        streets = tuple(_rule_ints(st, f"streets[{i}]", 1, MAX_DEAL, 2)
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
        jokers = _rule_int(self.jokers, "jokers", 0, MAX_JOKERS)
        _set(self, "jokers", jokers)
        _rule_choice("joker_cards", self.joker_cards, dict.fromkeys(JOKER_CARDS))
        _rule_choice("joker_objective", self.joker_objective, dict.fromkeys(JOKER_OBJECTIVES))
        _set(self, "joker_top_natural", _rule_flag(self.joker_top_natural, "joker_top_natural"))
        lo = _rule_int(self.min_players, "min_players", 2, 4)
        hi = _rule_int(self.max_players, "max_players", lo, 4)
        if hi * dealt_total > self.deck_size:
            raise RulesError(f"{hi} players dealt {dealt_total} cards each need more than "
                             f"{self.deck_size} cards; lower max_players or the streets")
        _set(self, "min_players", lo)
        _set(self, "max_players", hi)
        _set(self, "_checked", True)    # not a field: as_variant trusts this object

    @property
    def deck_size(self) -> int:
        """Cards in the deck: 52 and the jokers."""
        return DECK_SIZE + self.jokers

    @property
    def max_royalty(self) -> int:
        """Most royalty one hand can earn (the best top plus the best of each row)."""
        r = self.royalties
        rows = [max(row) for row in r.rows]
        if self.lowball:   # the 2-7 table replaces the middle's
            rows[0] = max((v for _, v in r.lowball), default=0)
        return max(r.top_pairs + r.top_trips) + sum(rows)

    @property
    def played_by(self) -> str:
        """How many players the variant seats, for messages.

        Examples
        --------
        >>> VARIANTS["pineapple"].played_by, VARIANTS["big-pineapple"].played_by
        ('2 to 3 players', '2 players')
        """
        lo, hi = self.min_players, self.max_players
        return f"{lo} players" if lo == hi else f"{lo} to {hi} players"

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
        if self.jokers:
            natural = ", natural top" if self.joker_top_natural else ""
            opts.append(f"{self.jokers} joker{'s' if self.jokers > 1 else ''} "
                        f"({self.joker_cards}, {self.joker_objective}{natural})")
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
    named = VARIANTS.get(v) if type(v) is str else None      # the common case, first
    return named if named is not None else _rule_choice("variant", v, VARIANTS)
