"""Slow, independent OFC scorer written row by row from RULES.md (sections 3-8, 10).

Plain Python, one layout at a time.  It shares nothing with ``ofc_fast`` but
the card codec for text (``ofc_fast.cards.parse_cards``): hands are classified
here from rank counts, the variants and their options are re-stated here from
the rule book's tables, and no lookup table of the library is read.

* ``rules(name, **options)`` - a :class:`SlowRules` for a variant of section 8
  with the options of ``ofc_fast.variant`` (american, lowball, finnish,
  fantasyland, repeat, repeat_limit, royalties, scoring, foul_penalty,
  third_row_trips).
* ``hand_key(cards)`` - ``(category, ranks)``; Python tuple order *is* the
  rule book's order, including a 3-card top against a 5-card row (section 3:
  the grouped-rank sequence of a top is a proper prefix or differs, and a
  prefix sorts first, i.e. below the longer 5-card hand).
* ``evaluate(layout, rules, fl_count=0)`` - :class:`SlowEval` (foul, per-row
  royalties, fantasyland cards, repeat).
* ``pair(a, b, rules)`` - points ``a`` wins from ``b`` and the per-row verdicts.
* ``matrix(a_list, b_list, rules)``, ``table(layouts, rules)``.
"""
from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, replace

from ofc_fast.cards import parse_cards

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
ROYAL_FLUSH = 9
HAND_NAMES = ("high_card", "pair", "two_pair", "trips", "straight", "flush", "full_house",
              "quads", "straight_flush", "royal_flush")
TWO_OF_SPADES = 3           # 4 * rank(2) + suit(s)
R_TEN, R_JACK, R_QUEEN, R_KING, R_ACE = 8, 9, 10, 11, 12


# ----------------------------------------------------------------- hand classification
def hand_key(cards) -> tuple:
    """``(category, grouped ranks)`` of a 3- or 5-card row (RULES.md section 3).

    Ranks: grouped cards first (by count, then rank), then kickers high to low;
    a straight (flush) is represented by its top card, the wheel by the five.
    """
    cards = [int(c) for c in cards]
    ranks = [c // 4 for c in cards]
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    seq = tuple(r for r, _ in groups)
    shape = tuple(n for _, n in groups)
    if len(cards) == 3:
        if shape == (3,):
            return (TRIPS, seq)
        if shape == (2, 1):
            return (PAIR, seq)
        return (HIGH_CARD, seq)
    assert len(cards) == 5, cards
    flush = len({c % 4 for c in cards}) == 1
    top = None
    if len(counts) == 5:
        s = sorted(counts)
        if s[4] - s[0] == 4:
            top = s[4]
        elif s == [0, 1, 2, 3, 12]:
            top = 3  # A-2-3-4-5: five-high
    if top is not None and flush:
        return (STRAIGHT_FLUSH, (top,))
    if shape == (4, 1):
        return (QUADS, seq)
    if shape == (3, 2):
        return (FULL_HOUSE, seq)
    if flush:
        return (FLUSH, seq)
    if top is not None:
        return (STRAIGHT, (top,))
    if shape == (3, 1, 1):
        return (TRIPS, seq)
    if shape == (2, 2, 1):
        return (TWO_PAIR, seq)
    if shape == (2, 1, 1, 1):
        return (PAIR, seq)
    return (HIGH_CARD, seq)


def hand_code(key) -> int:
    """Category, or ROYAL_FLUSH for the ace-high straight flush."""
    return ROYAL_FLUSH if key == (STRAIGHT_FLUSH, (R_ACE,)) else key[0]


def is_low(cards) -> bool:
    """A valid 2-7 low: five distinct ranks, all ten or lower, no straight, no flush."""
    ranks = sorted(c // 4 for c in cards)
    if len(set(ranks)) != 5 or ranks[-1] > R_TEN:
        return False
    if ranks[-1] - ranks[0] == 4:
        return False
    return len({c % 4 for c in cards}) != 1


def low_ranks(cards) -> tuple:
    """Ranks high to low; the smaller tuple is the better 2-7 low."""
    return tuple(sorted((c // 4 for c in cards), reverse=True))


def low_royalty(cards, table) -> int:
    """Section 5: 9-high 1, 8-high 2, 7-6 high 4, 7-5-4-3-2 8, ten-high 0."""
    r = low_ranks(cards)
    if r[0] == 7:
        return table.get(9, 0)
    if r[0] == 6:
        return table.get(8, 0)
    if r[0] == 5:
        return table.get(76, 0) if r[1] == 4 else table.get(75, 0)
    return 0


# ----------------------------------------------------------------------- rule tables
# Section 5, bottom row, by preset (hand code -> points).
_BOTTOM = {
    "american": {STRAIGHT: 2, FLUSH: 4, FULL_HOUSE: 6, QUADS: 10,
                 STRAIGHT_FLUSH: 15, ROYAL_FLUSH: 25},
    "pokerstars": {STRAIGHT: 2, FLUSH: 4, FULL_HOUSE: 6, QUADS: 10,
                   STRAIGHT_FLUSH: 15, ROYAL_FLUSH: 25},
    "russian": {STRAIGHT: 2, FLUSH: 4, FULL_HOUSE: 6, QUADS: 8,
                STRAIGHT_FLUSH: 10, ROYAL_FLUSH: 15},
}
_MIDDLE_TRIPS = {"american": 2, "pokerstars": 0, "russian": 2}
# Top: 66 .. AA pay 1 .. 9, 222 .. AAA pay 10 .. 22 (index = rank, deuce = 0).
TOP_PAIRS = tuple(max(0, r - 3) for r in range(13))
TOP_TRIPS = tuple(10 + r for r in range(13))
LOWBALL = {9: 1, 8: 2, 76: 4, 75: 8}

SCHEMES = {   # section 6: per row won, bonus for all rows, bonus for a majority of rows
    "1-6": dict(per_row=1, scoop_bonus=3, majority_bonus=0),
    "2-4": dict(per_row=1, scoop_bonus=0, majority_bonus=1),
    "2-6": dict(per_row=2, scoop_bonus=0, majority_bonus=0),
    "1-12": dict(per_row=1, scoop_bonus=8, majority_bonus=0),
}


@dataclass(frozen=True)
class SlowScoring:
    per_row: int
    scoop_bonus: int = 0
    majority_bonus: int = 0
    foul_penalty: int | None = None

    def scoop_total(self, n_rows):
        # winning every row also wins a majority of them
        return self.per_row * n_rows + self.scoop_bonus + self.majority_bonus

    def penalty(self, n_rows):
        return self.scoop_total(n_rows) if self.foul_penalty is None else self.foul_penalty


@dataclass(frozen=True)
class SlowRoyalties:
    top_pairs: tuple
    top_trips: tuple
    rows: tuple        # one dict (hand code -> points) per 5-card row, top to bottom
    lowball: dict


@dataclass(frozen=True)
class SlowRules:
    name: str
    n_rows: int
    lowball: bool
    royalties: SlowRoyalties
    scoring: SlowScoring
    finnish: bool
    entry: str | None        # None, "qq", "progressive", "lowball"
    cards: int               # entry card count (progressive: its QQ tier), also repeat count
    repeat: str | None       # None, "classic", "pineapple", "infinite", "big-pineapple"
    repeat_limit: int | None
    players: tuple

    @property
    def row_sizes(self):
        return (3,) + (5,) * (self.n_rows - 1)


def _preset_royalties(preset: str, n_rows: int, third_row_trips: int = 4) -> SlowRoyalties:
    bottom = dict(_BOTTOM[preset])
    middle = {h: 2 * v for h, v in bottom.items()}
    middle[TRIPS] = _MIDDLE_TRIPS[preset]
    if n_rows == 3:
        rows = (middle, bottom)
    else:  # section 8: third row = bottom x 4 (trips: Interpretation, 4), second = bottom x 2
        third = {h: 4 * v for h, v in bottom.items()}
        third[TRIPS] = third_row_trips
        rows = (third, middle, bottom)
    return SlowRoyalties(TOP_PAIRS, TOP_TRIPS, rows, dict(LOWBALL))


def _top_values(spec, default, size):
    if spec is None:
        return default
    if isinstance(spec, dict):
        out = [0] * 13
        for text, pts in spec.items():
            out["23456789TJQKA".index(text[0].upper())] = pts
        return tuple(out)
    return tuple(spec)


def _custom_royalties(spec: dict, n_rows: int) -> SlowRoyalties:
    names = ("middle", "bottom") if n_rows == 3 else ("third", "second", "bottom")
    rows = []
    for name in names:
        given = {HAND_NAMES.index(h): v for h, v in spec.get(name, {}).items()}
        if ROYAL_FLUSH not in given:  # section 10: a missing royal pays the straight flush
            given[ROYAL_FLUSH] = given.get(STRAIGHT_FLUSH, 0)
        rows.append(given)
    return SlowRoyalties(_top_values(spec.get("top_pairs"), TOP_PAIRS, 2),
                         _top_values(spec.get("top_trips"), TOP_TRIPS, 3),
                         tuple(rows), dict(spec.get("lowball", LOWBALL)))


# Section 8 table.
_VARIANTS = {
    "classic": dict(n_rows=3, players=(2, 4), roy="russian", scheme="2-6", entry="qq",
                    cards=13, repeat="classic"),
    "chinese": dict(n_rows=3, players=(2, 4), roy="russian", scheme="2-6", entry=None,
                    cards=0, repeat=None),
    "turbo": dict(n_rows=3, players=(2, 4), roy="russian", scheme="2-6", entry="qq",
                  cards=13, repeat="classic"),
    "pineapple": dict(n_rows=3, players=(2, 3), roy="american", scheme="1-6", entry="qq",
                      cards=14, repeat="pineapple"),
    "progressive": dict(n_rows=3, players=(2, 3), roy="american", scheme="1-6",
                        entry="progressive", cards=14, repeat="pineapple"),
    "pineapple-2-7": dict(n_rows=3, players=(2, 3), roy="american", scheme="1-6",
                          entry="lowball", cards=14, repeat="pineapple", lowball=True),
    "turbo-pineapple": dict(n_rows=3, players=(2, 3), roy="american", scheme="1-6",
                            entry="qq", cards=14, repeat="pineapple"),
    "big-pineapple": dict(n_rows=4, players=(2, 2), roy="american", scheme="1-12", entry="qq",
                          cards=19, repeat="big-pineapple"),
}


def rules(name: str, **options) -> SlowRules:
    """Rules of a section 8 variant with ``ofc_fast.variant``-style options."""
    base = _VARIANTS[name]
    n_rows = base["n_rows"]
    four = n_rows == 4
    preset = "american" if options.get("american") else base["roy"]
    scheme = ("1-12" if four else "1-6") if options.get("american") else base["scheme"]
    trips3 = options.get("third_row_trips", 4)
    roy_spec = options.get("royalties", preset)
    if isinstance(roy_spec, str):
        roy = _preset_royalties(roy_spec, n_rows, trips3)
    else:
        roy = _custom_royalties(roy_spec, n_rows)
        if four and "third_row_trips" in options:
            third = dict(roy.rows[0])
            third[TRIPS] = trips3
            roy = replace(roy, rows=(third,) + roy.rows[1:])
    sc_spec = options.get("scoring", scheme)
    if isinstance(sc_spec, str):
        sc = SlowScoring(**SCHEMES[sc_spec])
    else:
        sc = SlowScoring(**{k: v for k, v in sc_spec.items() if k != "name"})
    if options.get("foul_penalty") is not None:
        sc = replace(sc, foul_penalty=options["foul_penalty"])
    lowball = bool(options.get("lowball", base.get("lowball", False)))
    entry, cards, repeat = base["entry"], base["cards"], base["repeat"]
    if lowball != base.get("lowball", False) and entry is not None:
        # section 10: a lowball middle takes the 2-7 entry rule with the variant's count
        entry = "lowball" if lowball else "qq"
    limit = 1
    if "repeat" in options:
        rule = options["repeat"] or None
        if rule == "infinite":
            limit = None
            if not four:  # section 10: on four rows infinite only lifts the limit
                repeat = "infinite"
        elif rule == "none":
            repeat = None
        else:
            repeat = rule
    if "repeat_limit" in options:
        limit = options["repeat_limit"]
    if "fantasyland" in options and not options["fantasyland"]:
        entry, repeat = None, None
    return SlowRules(name=name, n_rows=n_rows, lowball=lowball, royalties=roy, scoring=sc,
                     finnish=bool(options.get("finnish", False)), entry=entry, cards=cards,
                     repeat=repeat, repeat_limit=limit, players=base["players"])


# ------------------------------------------------------------------------ evaluation
@dataclass
class SlowEval:
    rows: list            # card lists, top first
    keys: list            # hand_key per row
    foul: bool
    royalties: list
    fantasyland: int
    repeat: bool
    finnish_row: int      # row holding the 2s (Finnish rules only), else -1

    @property
    def royalty_total(self):
        return sum(self.royalties)


def as_ids(layout):
    if isinstance(layout, str):
        rows = [r for r in layout.replace("|", "/").split("/")]
        return [int(c) for r in rows for c in parse_cards(r.strip())]
    return [int(c) for c in layout]


def split_rows(layout, r: SlowRules):
    ids = as_ids(layout)
    assert len(ids) == sum(r.row_sizes), ids
    out, pos = [], 0
    for n in r.row_sizes:
        out.append(ids[pos:pos + n])
        pos += n
    return out


def _top_royalty(key, roy: SlowRoyalties) -> int:
    cat, ranks = key
    if cat == PAIR:
        return roy.top_pairs[ranks[0]]
    if cat == TRIPS:
        return roy.top_trips[ranks[0]]
    return 0


def _top_at_least(key, rank) -> bool:
    """Section 10: a pair of ``rank`` or better on top, every trips included."""
    return key[0] == TRIPS or (key[0] == PAIR and key[1][0] >= rank)


@functools.lru_cache(maxsize=1 << 16)
def _row_key(row: tuple) -> tuple:
    return hand_key(row)


def evaluate(layout, r: SlowRules, fl_count: int = 0, top_counts: bool = True) -> SlowEval:
    """``top_counts`` False: the top pays and earns fantasyland as a high card
    (a joker's pair without a natural of its rank, ``joker_top_natural``)
    while it still compares as what it is."""
    rows = split_rows(layout, r)
    keys = [_row_key(tuple(sorted(row))) for row in rows]
    rule_top = keys[0] if top_counts else (HIGH_CARD, keys[0][1])
    R = r.n_rows
    if R == 3 and r.lowball:  # section 4: 2-7 middle valid, bottom >= top
        foul = not is_low(rows[1]) or keys[2] < keys[0]
    else:                     # bottom >= ... >= top
        foul = any(keys[i + 1] < keys[i] for i in range(R - 1))
    royalties = [0] * R
    if not foul:
        royalties[0] = _top_royalty(rule_top, r.royalties)
        for i in range(1, R):
            if r.lowball and i == 1:
                royalties[i] = low_royalty(rows[1], r.royalties.lowball)
            else:
                royalties[i] = r.royalties.rows[i - 1].get(hand_code(keys[i]), 0)
    fin = -1
    if r.finnish:
        for i, row in enumerate(rows):
            if TWO_OF_SPADES in row:
                fin = i
    fl, rep = 0, False
    if not foul:
        top = rule_top
        if fl_count == 0:
            if r.entry == "qq":
                fl = r.cards if _top_at_least(top, R_QUEEN) else 0
            elif r.entry == "progressive":   # QQ 14, KK 15, AA 16, trips 17
                if top[0] == TRIPS:
                    fl = 17
                elif top[0] == PAIR and top[1][0] >= R_QUEEN:
                    fl = {R_QUEEN: 14, R_KING: 15, R_ACE: 16}[top[1][0]]
            elif r.entry == "lowball":
                kk = _top_at_least(top, R_KING)
                low75 = r.lowball and low_ranks(rows[1]) == (5, 3, 2, 1, 0)
                fl = r.cards + 1 if (kk and low75) else r.cards if (kk or low75) else 0
        else:
            cond = False
            if r.repeat in ("classic", "infinite"):
                cond = (top[0] == TRIPS or keys[R - 1][0] >= QUADS
                        or (R == 3 and not r.lowball and keys[1][0] >= FULL_HOUSE))
            elif r.repeat == "pineapple":
                cond = top[0] == TRIPS or keys[R - 1][0] >= QUADS
            elif r.repeat == "big-pineapple":
                cond = hand_code(keys[R - 1]) == ROYAL_FLUSH and (
                    keys[R - 2][0] >= QUADS or top[0] == TRIPS)
            allowed = r.repeat_limit is None or fl_count <= r.repeat_limit
            rep = bool(cond and allowed)
            fl = r.cards if rep else 0
    return SlowEval(rows, keys, foul, royalties, fl, rep, fin)


# --------------------------------------------------------------------------- scoring
def _row_verdict(ea: SlowEval, eb: SlowEval, i: int, r: SlowRules) -> int:
    """+1 a wins row i, -1 b wins, 0 tie (both live)."""
    if r.lowball and i == 1 and r.n_rows == 3:
        la, lb = low_ranks(ea.rows[1]), low_ranks(eb.rows[1])
        return (la < lb) - (la > lb)
    return (ea.keys[i] > eb.keys[i]) - (ea.keys[i] < eb.keys[i])


def pair(a, b, r: SlowRules):
    """``(points a wins from b, per-row verdicts)``; a or b may be SlowEval."""
    ea = a if isinstance(a, SlowEval) else evaluate(a, r)
    eb = b if isinstance(b, SlowEval) else evaluate(b, r)
    R = r.n_rows
    sc = r.scoring
    if ea.foul and eb.foul:
        verdicts, pts = [0] * R, 0
    elif eb.foul:
        verdicts, pts = [1] * R, sc.penalty(R)
    elif ea.foul:
        verdicts, pts = [-1] * R, -sc.penalty(R)
    else:
        verdicts = [_row_verdict(ea, eb, i, r) for i in range(R)]
        won, lost = verdicts.count(1), verdicts.count(-1)
        pts = sc.per_row * (won - lost)
        pts += sc.scoop_bonus * ((won == R) - (lost == R))
        pts += sc.majority_bonus * ((2 * won > R) - (2 * lost > R))
    for i in range(R):
        exchanged = ea.royalties[i] - eb.royalties[i]
        if r.finnish and i in (ea.finnish_row, eb.finnish_row):
            exchanged *= 2
        pts += exchanged
    return pts, tuple(verdicts)


def points(a, b, r: SlowRules) -> int:
    return pair(a, b, r)[0]


def matrix(alist, blist, r: SlowRules):
    ea = [evaluate(x, r) for x in alist]
    eb = ea if blist is None else [evaluate(x, r) for x in blist]
    return [[pair(x, y, r)[0] for y in eb] for x in ea]


def table(layouts, r: SlowRules):
    """Per-player totals of one table (sum over opponents)."""
    ev = [evaluate(x, r) for x in layouts]
    return [sum(pair(ev[p], ev[q], r)[0] for q in range(len(ev)) if q != p)
            for p in range(len(ev))]
