"""Brute-force reference for jokers (RULES.md section 12), on the slow scorer.

Written from the rule book, unlike the kernels (which look completions up by
the rank multiset of a row and resolve greedily from the bottom row up):
here every substitution of every joker is tried, each resolved layout is
evaluated by ``slow_scorer`` (which shares no code with ``ofc_fast``), and
the best is kept by the order of section 12:

1. no foul, if any substitution avoids one;
2. the objective: ``fantasyland`` (the most fantasyland cards next hand, a
   repeat in a fantasyland hand), then the royalty total, then the row
   strengths from the bottom row up; ``royalties`` (the royalty total, then
   the strengths); ``strength`` (the strengths alone).  A row's strength is
   in its own order: a 2-7 middle wants the lowest;
3. among equal outcomes the canonical substitution: X1 the highest card it
   can be (ranks A down to 2, suits s h d c: the highest id), then X2.

A joker stands for a natural card (ids 0-51): under ``row`` any card not in
its own row (two jokers of one row differ), under ``board`` any card not on
the board (the two jokers differ).  With ``top_natural`` a pair or trips on
top pays and earns fantasyland only with a natural card of its rank.  Only a
natural 2 of spades doubles under the Finnish rule (docs/jokers.md).

* ``resolve(layout, rules, jokers=..., fl_count=0)`` - :class:`Resolved`;
* ``pair(a, b, rules, **joker_options)`` - points ``a`` wins from ``b``.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import slow_scorer as S

JOKERS = (52, 53)                 # X1, X2 (RULES.md section 12)
NATURALS = range(52)
OBJECTIVES = ("fantasyland", "royalties", "strength")


@functools.total_ordering
class _Lowest:
    """A row key in the reverse order: a 2-7 middle wants the lowest."""

    def __init__(self, key):
        self.key = key

    def __eq__(self, other):
        return self.key == other.key

    def __lt__(self, other):
        return self.key > other.key


@dataclass
class Resolved:
    ev: S.SlowEval                 # the best resolution, evaluated
    subs: tuple                    # per joker X1, X2: the card it stands for, or None
    layout: list                   # the resolved card ids


def _rows_of(layout, rules):
    out, pos = [], 0
    for n in rules.row_sizes:
        out.append(list(range(pos, pos + n)))
        pos += n
    return out


def substitutions(layout, rules, cards="row"):
    """Every assignment {joker id: natural card} the option allows."""
    slots = [i for i, c in enumerate(layout) if c in JOKERS]
    rows = _rows_of(layout, rules)
    row_of = {i: k for k, row in enumerate(rows) for i in row}
    board = {c for c in layout if c not in JOKERS}
    choices = []
    for i in slots:
        if cards == "row":
            own = {layout[j] for j in rows[row_of[i]] if layout[j] not in JOKERS}
            choices.append([c for c in NATURALS if c not in own])
        else:
            choices.append([c for c in NATURALS if c not in board])
    for combo in itertools.product(*choices):
        if len(combo) == 2 and combo[0] == combo[1] and (
                cards == "board" or row_of[slots[0]] == row_of[slots[1]]):
            continue               # two jokers of one row (of a board) differ
        yield {layout[i]: c for i, c in zip(slots, combo, strict=True)}


def _top_counts(layout, resolved, rules, top_natural):
    """False when the top's pair or trips holds no natural card of its rank
    (only with ``top_natural``)."""
    top = resolved[:3]
    if not top_natural or not any(c in JOKERS for c in layout[:3]):
        return True
    cat, ranks = S.hand_key(top)
    if cat not in (S.PAIR, S.TRIPS):
        return True
    return any(c not in JOKERS and c // 4 == ranks[0] for c in layout[:3])


def _outcome(ev, rules, objective):
    live = not ev.foul
    fl = ev.fantasyland if live and objective == "fantasyland" else 0
    roy = ev.royalty_total if live and objective != "strength" else 0
    strengths = []
    for k in reversed(range(rules.n_rows)):         # bottom first
        key = ev.keys[k]
        strengths.append(_Lowest(key) if rules.lowball and k == 1 else key)
    return (live, fl, roy, tuple(strengths))


def resolve(layout, rules, cards="row", objective="fantasyland", top_natural=False,
            fl_count=0) -> Resolved:
    """The resolution of section 12 by trying every substitution."""
    layout = [int(c) for c in S.as_ids(layout)]
    best = None
    for sub in substitutions(layout, rules, cards):
        resolved = [sub.get(c, c) for c in layout]
        ev = S.evaluate(resolved, rules, fl_count,
                        top_counts=_top_counts(layout, resolved, rules, top_natural))
        subs = tuple(sub.get(j) for j in JOKERS)
        canon = tuple(-1 if x is None else x for x in subs)
        key = (_outcome(ev, rules, objective), canon)
        if best is None or key > best[0]:
            best = (key, Resolved(ev, subs, resolved))
    res = best[1]
    res.ev.finnish_row = -1        # only a natural 2s doubles
    if rules.finnish:
        for k, row in enumerate(_rows_of(layout, rules)):
            if S.TWO_OF_SPADES in [layout[i] for i in row]:
                res.ev.finnish_row = k
    return res


def pair(a, b, rules, fl_a=0, fl_b=0, **options):
    """Points ``a`` wins from ``b``, each resolved on its own."""
    ra = resolve(a, rules, fl_count=fl_a, **options)
    rb = resolve(b, rules, fl_count=fl_b, **options)
    return S.pair(ra.ev, rb.ev, rules)[0]
