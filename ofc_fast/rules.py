"""Rules as data: variants, royalty tables, scoring schemes, fantasyland rules.

A :class:`Variant` is a frozen, hashable description of one game (RULES.md
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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ofc_fast.errors import RulesError
from ofc_fast._eval import JOINT_CATEGORY, JOINT_RANKS, JOINT_SIZE
from ofc_fast.hands import (FLUSH, FULL_HOUSE, HIGH_CARD, PAIR, QUADS, STRAIGHT,
                            STRAIGHT_FLUSH, TRIPS, TWO_PAIR)

__all__ = [
    "ROYAL_FLUSH", "HAND_CODES", "Scoring", "Royalties", "Variant", "variant",
    "scoring_scheme", "royalty_table", "compile_rules", "VARIANTS", "SCORING_PRESETS",
    "ROYALTY_PRESETS", "REPEAT_RULES", "RulesError",
]

ROYAL_FLUSH = 9  # hand code beyond the categories: the ace-high straight flush
HAND_CODES = {
    "high_card": HIGH_CARD, "pair": PAIR, "two_pair": TWO_PAIR, "trips": TRIPS,
    "straight": STRAIGHT, "flush": FLUSH, "full_house": FULL_HOUSE, "quads": QUADS,
    "straight_flush": STRAIGHT_FLUSH, "royal_flush": ROYAL_FLUSH,
}


def _choose(kind: str, name, valid):
    if name not in valid:
        raise RulesError(f"unknown {kind} {name!r}; valid: {', '.join(map(str, valid))}")
    return valid[name]


# --------------------------------------------------------------------------- scoring
@dataclass(frozen=True)
class Scoring:
    """A scoring scheme (RULES.md section 6).

    ``per_row`` points per row won, ``scoop_bonus`` for winning every row,
    ``majority_bonus`` for winning more than half the rows (2 of 3, 3 of 4).
    ``foul_penalty`` is what a fouled hand pays a live one before royalties;
    ``None`` (the default, RULES.md's Interpretation) means the scoop total.
    """
    name: str
    per_row: int
    scoop_bonus: int = 0
    majority_bonus: int = 0
    foul_penalty: int | None = None

    def scoop_total(self, n_rows: int) -> int:
        return self.per_row * n_rows + self.scoop_bonus + self.majority_bonus

    def penalty(self, n_rows: int) -> int:
        return self.scoop_total(n_rows) if self.foul_penalty is None else self.foul_penalty


SCORING_PRESETS = {
    "1-6": Scoring("1-6", per_row=1, scoop_bonus=3),
    "2-4": Scoring("2-4", per_row=1, majority_bonus=1),
    "2-6": Scoring("2-6", per_row=2),
    "1-12": Scoring("1-12", per_row=1, scoop_bonus=8),
}


def scoring_scheme(spec) -> Scoring:
    """A :class:`Scoring` from a preset name, a mapping of its fields, or itself.

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
        try:
            return Scoring(**spec)
        except TypeError as e:
            raise RulesError(f"bad custom scoring {spec!r}: {e}; fields: per_row, "
                             "scoop_bonus, majority_bonus, foul_penalty") from None
    raise RulesError(f"scoring must be a preset name, a mapping or a Scoring, got {spec!r}")


# ------------------------------------------------------------------------- royalties
def _five(straight, flush, full_house, quads, straight_flush, royal_flush, trips=0):
    row = [0] * 10
    row[TRIPS], row[STRAIGHT], row[FLUSH], row[FULL_HOUSE] = trips, straight, flush, full_house
    row[QUADS], row[STRAIGHT_FLUSH], row[ROYAL_FLUSH] = quads, straight_flush, royal_flush
    return tuple(row)


def _scaled(row, factor, trips):
    out = [v * factor for v in row]
    out[TRIPS] = trips
    return tuple(out)


_TOP_PAIRS = (0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)       # 22 .. AA: 66 pays 1
_TOP_TRIPS = tuple(range(10, 23))                          # 222 pays 10 .. AAA 22
_LOWBALL = {9: 1, 8: 2, 76: 4, 75: 8}                       # see lowball_royalty()


@dataclass(frozen=True)
class Royalties:
    """Royalty table: what each row pays by hand (RULES.md section 5).

    ``top_pairs`` and ``top_trips`` are indexed by rank (deuce .. ace).
    ``rows`` holds one 10-entry tuple per 5-card row, top to bottom (three
    rows: middle, bottom; four rows: third, second, bottom), indexed by hand
    code (``HAND_CODES``; index 9 is the royal flush).  ``lowball`` pays a 2-7
    middle: keys 9 (nine-high), 8 (eight-high), 76 (seven-six high), 75
    (7-5-4-3-2); a ten-high low pays nothing.
    """
    name: str
    top_pairs: tuple = _TOP_PAIRS
    top_trips: tuple = _TOP_TRIPS
    rows: tuple = ()
    lowball: tuple = tuple(sorted(_LOWBALL.items()))


def _three_row_preset(name, bottom, middle_trips):
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

    Trips on the third row pay ``third_row_trips`` (RULES.md Interpretation: 4,
    twice the second row's 2).
    """
    base = base or ROYALTY_PRESETS["american"]
    middle, bottom = base.rows[-2], base.rows[-1]
    third = _scaled(bottom, 4, third_row_trips)
    return dataclasses.replace(base, name=f"{base.name}-4-row", rows=(third, middle, bottom))


def royalty_table(spec, n_rows: int = 3) -> Royalties:
    """A :class:`Royalties` from a preset name, a mapping, or itself.

    A mapping may give ``top_pairs``/``top_trips`` (13 values each, or a dict
    from rank text like ``"66"``/``"AAA"`` to points) and, per 5-card row
    (``middle``, ``bottom``; four rows: ``third``, ``second``, ``bottom``), a
    dict from hand name (``trips``, ``straight`` .. ``royal_flush``) to points.
    Missing rows and hands pay 0; a missing ``royal_flush`` pays the straight
    flush value (RULES.md section 10).

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
        raise RulesError(f"royalties must be a preset name, a mapping or Royalties, got {spec!r}")
    names = ("middle", "bottom") if n_rows == 3 else ("third", "second", "bottom")
    unknown = set(spec) - set(names) - {"top_pairs", "top_trips", "name", "lowball"}
    if unknown:
        raise RulesError(f"unknown royalty rows {sorted(unknown)}; valid: top_pairs, "
                         f"top_trips, lowball, {', '.join(names)}")
    rows = []
    for row_name in names:
        given = dict(spec.get(row_name, {}))
        bad = set(given) - set(HAND_CODES)
        if bad:
            raise RulesError(f"royalties[{row_name!r}]: unknown hands {sorted(bad)}; "
                             f"valid: {', '.join(HAND_CODES)}")
        given.setdefault("royal_flush", given.get("straight_flush", 0))
        row = [0] * 10
        for hand, pts in given.items():
            row[HAND_CODES[hand]] = int(pts)
        rows.append(tuple(row))
    return Royalties(
        name=str(spec.get("name", "custom")),
        top_pairs=_rank_values(spec.get("top_pairs", _TOP_PAIRS), 2),
        top_trips=_rank_values(spec.get("top_trips", _TOP_TRIPS), 3),
        rows=tuple(rows),
        lowball=tuple(sorted(dict(spec.get("lowball", _LOWBALL)).items())),
    )


def _rank_values(values, size):
    if isinstance(values, Mapping):
        out = [0] * 13
        for text, pts in values.items():
            rank = "23456789TJQKA".find(str(text)[0].upper())
            if rank < 0 or len(str(text)) != size or len(set(str(text).upper())) != 1:
                raise RulesError(f"bad top hand {text!r}: expected e.g. {'66' if size == 2 else '222'}")
            out[rank] = int(pts)
        return tuple(out)
    values = tuple(int(v) for v in values)
    if len(values) != 13:
        raise RulesError(f"top royalties need 13 values (deuce .. ace), got {len(values)}")
    return values


# ------------------------------------------------------------------------ fantasyland
REPEAT_RULES = ("classic", "pineapple", "infinite", "big-pineapple", "none")


# --------------------------------------------------------------------------- variant
@dataclass(frozen=True)
class Variant:
    """One game's complete rules (frozen, hashable, picklable).

    Build with :func:`variant`; ``dataclasses.replace`` gives a modified copy.
    Fields: ``name``; ``n_rows`` (3, or 4 for Big Pineapple); ``lowball``
    (2-7 middle); ``royalties``; ``scoring``; ``finnish`` (2s doubles its
    row's royalties); fantasyland ``entry`` rule (``"qq"``, ``"progressive"``,
    ``"lowball"``, ``"none"``) and ``entry_cards`` (cards dealt by entry
    points; index 0 = no fantasyland); ``repeat`` rule (``REPEAT_RULES``),
    ``repeat_cards`` and ``repeat_limit`` (repeats in a row; ``None`` = no
    limit); the deal: ``first_street`` cards, then ``streets`` of
    ``(dealt, kept)``; ``min_players`` / ``max_players``.
    """
    name: str
    n_rows: int = 3
    lowball: bool = False
    royalties: Royalties = ROYALTY_PRESETS["russian"]
    scoring: Scoring = SCORING_PRESETS["2-6"]
    finnish: bool = False
    entry: str = "qq"
    entry_cards: tuple = (0, 13)
    repeat: str = "classic"
    repeat_cards: int = 13
    repeat_limit: int | None = 1
    first_street: int = 5
    streets: tuple = ((1, 1),) * 8
    min_players: int = 2
    max_players: int = 4

    @property
    def row_names(self) -> tuple:
        return ("top", "middle", "bottom") if self.n_rows == 3 else ("top", "third", "second", "bottom")

    @property
    def row_sizes(self) -> tuple:
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
            opts.append(f"fantasyland {self.entry} -> {max(self.entry_cards)}, repeat {self.repeat} ({limit})")
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


def variant(name: str | Variant = "pineapple", **options) -> Variant:
    """The :class:`Variant` called ``name``, with options applied.

    Options (RULES.md section 8): ``american`` (1-6 scoring, except 1-12 on
    four rows, and American royalties), ``lowball`` (2-7 middle, with the 2-7
    fantasyland entry at the variant's card count), ``finnish``,
    ``fantasyland`` (False turns it off), ``repeat`` (a rule from
    ``REPEAT_RULES``; ``"infinite"`` also lifts the limit), ``repeat_limit``
    (int, or None for no limit), ``royalties`` (preset name, mapping or
    :class:`Royalties`), ``scoring`` (preset name, mapping or
    :class:`Scoring`), ``foul_penalty`` (points, default the scoop total),
    ``third_row_trips`` (Big Pineapple, default 4), ``entry_cards`` (cards
    dealt per fantasyland entry tier, e.g. ``(0, 14, 15, 16, 17)`` for
    Progressive) and ``repeat_cards`` (cards dealt on a repeat; RULES.md
    section 10: the variant's entry count, 14 for Progressive and 2-7).

    >>> str(variant("turbo-pineapple", lowball=True))
    'turbo-pineapple (scoring 1-6, royalties american, 2-7 middle, fantasyland lowball -> 15, repeat pineapple (limit 1))'
    >>> variant("classic", colour="red")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesError: unknown option 'colour'; valid: american, lowball, finnish, fantasyland, repeat, repeat_limit, royalties, scoring, foul_penalty, third_row_trips, entry_cards, repeat_cards
    """
    v = name if isinstance(name, Variant) else _choose("variant", name, VARIANTS)
    for key in options:
        if key not in _OPTIONS:
            raise RulesError(f"unknown option {key!r}; valid: {', '.join(_OPTIONS)}")
    o = options
    four = v.n_rows == 4
    if o.get("american"):
        v = dataclasses.replace(
            v, scoring=SCORING_PRESETS["1-12" if four else "1-6"],
            royalties=royalty_table("american", v.n_rows))
    if "royalties" in o:
        v = dataclasses.replace(v, royalties=royalty_table(o["royalties"], v.n_rows))
    if "third_row_trips" in o:
        if not four:
            raise RulesError("third_row_trips applies to four-row variants only")
        rows = list(v.royalties.rows)
        rows[0] = rows[0][:TRIPS] + (int(o["third_row_trips"]),) + rows[0][TRIPS + 1:]
        v = dataclasses.replace(v, royalties=dataclasses.replace(v.royalties, rows=tuple(rows)))
    if "scoring" in o:
        v = dataclasses.replace(v, scoring=scoring_scheme(o["scoring"]))
    if o.get("foul_penalty") is not None:
        v = dataclasses.replace(v, scoring=dataclasses.replace(
            v.scoring, foul_penalty=int(o["foul_penalty"])))
    if "lowball" in o and bool(o["lowball"]) != v.lowball:
        if four:
            raise RulesError("a lowball middle needs a three-row variant")
        if o["lowball"] and not v.fantasyland:
            v = dataclasses.replace(v, lowball=True)
        elif o["lowball"]:
            base = v.repeat_cards
            v = dataclasses.replace(v, lowball=True, entry="lowball", entry_cards=(0, base, base + 1))
        else:
            v = dataclasses.replace(v, lowball=False, entry="qq", entry_cards=(0, v.repeat_cards))
    if "finnish" in o:
        v = dataclasses.replace(v, finnish=bool(o["finnish"]))
    if "repeat" in o:
        rule = o["repeat"] or "none"
        if rule not in REPEAT_RULES:
            raise RulesError(f"unknown repeat rule {rule!r}; valid: {', '.join(REPEAT_RULES)}")
        if rule == "infinite":
            v = dataclasses.replace(v, repeat=v.repeat if four else "infinite", repeat_limit=None)
        else:
            v = dataclasses.replace(v, repeat=rule)
    if "repeat_limit" in o:
        limit = o["repeat_limit"]
        if limit is not None and (int(limit) < 0 or int(limit) > 254):
            raise RulesError(f"repeat_limit must be 0 .. 254 or None, got {limit!r}")
        v = dataclasses.replace(v, repeat_limit=None if limit is None else int(limit))
    if "entry_cards" in o:
        cards = tuple(int(c) for c in o["entry_cards"])
        if not cards or cards[0] != 0 or len(cards) > 16 or any(c < 0 or c > 52 for c in cards):
            raise RulesError(f"entry_cards must start with 0 (no fantasyland) and give the cards "
                             f"dealt per entry tier, at most 16 values of 0 .. 52; got {cards!r}")
        v = dataclasses.replace(v, entry_cards=cards)
    if "repeat_cards" in o:
        if not 0 <= int(o["repeat_cards"]) <= 52:
            raise RulesError(f"repeat_cards must be 0 .. 52, got {o['repeat_cards']!r}")
        v = dataclasses.replace(v, repeat_cards=int(o["repeat_cards"]))
    if "fantasyland" in o and not o["fantasyland"]:
        v = dataclasses.replace(v, entry="none", entry_cards=(0,), repeat="none")
    return v


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
    return (JOINT_SIZE == 5) & (JOINT_CATEGORY == HIGH_CARD) & (JOINT_RANKS[:, 0] <= 8)


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
    return tops & ((cat == TRIPS) | ((cat == PAIR) & (JOINT_RANKS[:, 0] >= rank_pair)))


def _at_least(cat: int, rows5=True) -> np.ndarray:
    return (JOINT_SIZE == (5 if rows5 else 3)) & (JOINT_CATEGORY >= cat)


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
    cls = np.where(low, np.select([rank0 == 8, rank0 == 7, rank0 == 6, rank1 == 4], [37, 38, 39, 40], 41), cls)
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
def compile_rules(v: Variant) -> dict:
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
    royalty[0] = np.where(top & (JOINT_CATEGORY == PAIR), np.take(v.royalties.top_pairs, rank0), 0)
    royalty[0] += np.where(top & (JOINT_CATEGORY == TRIPS), np.take(v.royalties.top_trips, rank0), 0)
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
        entry[0] = _top_at_least(10).astype(np.uint8) + _top_at_least(11) + _top_at_least(12) + trips_top
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
    # Bound on |points| of one pair (Finnish doubling included).
    max_royalty = int(np.abs(royalty).max(axis=1).sum())
    max_pair = abs(s.per_row) * R + abs(s.scoop_bonus) + abs(s.majority_bonus) \
        + abs(s.penalty(R)) + 4 * max_royalty + 1
    if (royalty < 0).any():
        raise RulesError("royalties must be non-negative")
    if max_royalty > 16383:
        raise RulesError(f"royalties up to {max_royalty} per hand: the kernels take at most 16383")
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
