"""Slow, independent reference classifier for the hand-strength tests.

Written directly from RULES.md section 3, deliberately unlike
``src/gen_tables.py`` (which hashes rank multisets): every hand is classified
on its own, rule by rule, from its cards.

* ``hand_keys(cards)`` - numpy, vectorised over an ``(N, 5)`` or ``(N, 3)``
  array of card ids: one int64 sort key per hand (category first, then the
  tie-break ranks).
* ``classify(cards)`` - plain Python, one hand: ``(category, tiebreak tuple)``.
* ``class_index(keys)`` - 1-based class numbers obtained by sorting the
  distinct keys (equal keys = one class, higher = stronger).

Tie-break ranks are written "expanded": every card's rank, ordered by
(number of cards of that rank, rank) descending, e.g. K K 5 5 A -> K K 5 5 A.
Within one category this orders hands exactly like the grouped form of the
rule book; across a 3-card top and a 5-card row of the same category it also
implements the prefix rule (missing kickers rank below a deuce), because the
key digit of a rank is rank + 1 and a missing card is digit 0.
Straights (and straight flushes) use only their top card, the wheel A-2-3-4-5
counting as five-high.
"""
from __future__ import annotations

import itertools
from collections import Counter

import numpy as np

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
WHEEL = (0, 1, 2, 3, 12)  # 2 3 4 5 A
BASE = 14                 # key digit: rank + 1, 0 for a missing card
N_DIGITS = 5


# ---------------------------------------------------------------- helpers

def card_text(card: int) -> str:
    """Independent text of one card id (4 * rank + suit)."""
    return RANK_CHARS[card // 4] + SUIT_CHARS[card % 4]


def card_from_text(text: str) -> int:
    """Independent id of one card written as e.g. 'As' or 'Td'."""
    return 4 * RANK_CHARS.index(text[0].upper()) + SUIT_CHARS.index(text[1].lower())


def hand_from_text(text: str) -> list[int]:
    return [card_from_text(tok) for tok in text.split()]


def all_hands(k: int) -> np.ndarray:
    """Every k-card hand from 52 cards, in itertools.combinations order, uint8 (N, k)."""
    n = 1
    for i in range(k):
        n = n * (52 - i) // (i + 1)
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), k)),
                       dtype=np.uint8, count=n * k)
    return flat.reshape(n, k)


def encode(category: int, tiebreak) -> int:
    """Integer sort key of (category, tiebreak ranks), prefix-aware (see module doc)."""
    key = category
    digits = list(tiebreak) + [-1] * (N_DIGITS - len(tiebreak))
    for r in digits:
        key = key * BASE + (r + 1)
    return key


def decode(key: int) -> tuple[int, tuple[int, ...]]:
    """Inverse of ``encode`` (expanded tie-break ranks, missing cards dropped)."""
    digits = []
    for _ in range(N_DIGITS):
        key, d = divmod(key, BASE)
        digits.append(d)
    ranks = tuple(d - 1 for d in reversed(digits) if d)
    return key, ranks


# ---------------------------------------------------------- plain Python

def classify(cards) -> tuple[int, tuple[int, ...]]:
    """(category, expanded tie-break ranks) of one 3- or 5-card hand, rule by rule."""
    cards = [int(c) for c in cards]
    assert len(cards) in (3, 5) and len(set(cards)) == len(cards)
    assert all(0 <= c < 52 for c in cards)
    ranks = [c // 4 for c in cards]
    suits = [c % 4 for c in cards]
    count = Counter(ranks)
    expanded = tuple(sorted(ranks, key=lambda r: (count[r], r), reverse=True))
    shape = sorted(count.values(), reverse=True)
    if len(cards) == 3:  # tops: no straights, no flushes
        if shape == [3]:
            return TRIPS, expanded
        if shape == [2, 1]:
            return PAIR, expanded
        return HIGH_CARD, expanded
    if shape == [4, 1]:
        return QUADS, expanded
    if shape == [3, 2]:
        return FULL_HOUSE, expanded
    if shape == [3, 1, 1]:
        return TRIPS, expanded
    if shape == [2, 2, 1]:
        return TWO_PAIR, expanded
    if shape == [2, 1, 1, 1]:
        return PAIR, expanded
    flush = len(set(suits)) == 1
    ordered = sorted(ranks)
    if tuple(ordered) == WHEEL:
        straight_top = 3
    elif ordered[4] - ordered[0] == 4:
        straight_top = ordered[4]
    else:
        straight_top = None
    if straight_top is not None:
        return (STRAIGHT_FLUSH if flush else STRAIGHT), (straight_top,)
    return (FLUSH if flush else HIGH_CARD), expanded


def key_of(cards) -> int:
    return encode(*classify(cards))


# ------------------------------------------------------------------ numpy

def hand_keys(cards) -> np.ndarray:
    """int64 sort key of every hand in an (N, 5) or (N, 3) array of card ids."""
    c = np.asarray(cards).astype(np.int64)
    n, k = c.shape
    assert k in (3, 5)
    ranks = c >> 2
    suits = c & 3
    # how many cards of the hand share each card's rank
    same = np.zeros((n, k), dtype=np.int64)
    for j in range(k):
        same[:, j] = (ranks == ranks[:, j:j + 1]).sum(axis=1)
    most = same.max(axis=1)
    n_distinct = (1.0 / same).sum(axis=1).round().astype(np.int64)
    # expanded tie-break: cards ordered by (count, rank), descending
    order_key = np.sort(same * 16 + ranks, axis=1)[:, ::-1]
    tiebreak = order_key % 16

    cat = np.full(n, HIGH_CARD, dtype=np.int64)
    if k == 3:
        cat[most == 2] = PAIR
        cat[most == 3] = TRIPS
    else:
        cat[(most == 2) & (n_distinct == 4)] = PAIR
        cat[(most == 2) & (n_distinct == 3)] = TWO_PAIR
        cat[(most == 3) & (n_distinct == 3)] = TRIPS
        cat[(most == 3) & (n_distinct == 2)] = FULL_HOUSE
        cat[most == 4] = QUADS
        distinct = n_distinct == 5
        flush = (suits == suits[:, :1]).all(axis=1)
        low = ranks.min(axis=1)
        high = ranks.max(axis=1)
        ordinary = distinct & (high - low == 4)
        wheel = distinct & (np.sort(ranks, axis=1) == np.array(WHEEL)).all(axis=1)
        straight = ordinary | wheel
        cat[distinct & flush] = FLUSH
        cat[straight] = STRAIGHT
        cat[straight & flush] = STRAIGHT_FLUSH
        # a straight is ranked by its top card alone (five for the wheel)
        top = np.where(wheel, 3, high)
        tiebreak = np.where(straight[:, None],
                            np.concatenate([top[:, None], np.full((n, 4), -1)], axis=1),
                            tiebreak)

    key = cat
    for j in range(N_DIGITS):
        digit = tiebreak[:, j] + 1 if j < k else np.zeros(n, dtype=np.int64)
        key = key * BASE + digit
    return key


def class_index(keys) -> tuple[np.ndarray, int]:
    """1-based class of every key among the distinct keys (ascending), and the class count."""
    uniq, inverse = np.unique(np.asarray(keys), return_inverse=True)
    return inverse.reshape(-1).astype(np.int64) + 1, len(uniq)


def category_of_key(keys) -> np.ndarray:
    return np.asarray(keys) // BASE ** N_DIGITS
