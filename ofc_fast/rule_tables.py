"""The rule compiler: :func:`compile_rules` turns a
:class:`~ofc_fast.variants.Variant` once into per-row lookup tables indexed
by the joint row strength (cached per variant), which the kernels read
instead of the Variant; :func:`row_classes` is the coarse class every rule
depends on.

>>> from ofc_fast.variants import VARIANTS
>>> t = compile_rules(VARIANTS["pineapple"])
>>> t["n_rows"], t["royalty"].shape
(3, (4, 7918))
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ofc_fast._eval import JOINT_CATEGORY, JOINT_RANKS, JOINT_SIZE
from ofc_fast.errors import RulesError
from ofc_fast.hands import FULL_HOUSE, HIGH_CARD, PAIR, QUADS, STRAIGHT_FLUSH, TRIPS
from ofc_fast.variants import JOKER_OBJECTIVES, ROYAL_FLUSH, Royalties, Variant

__all__ = ["compile_rules", "row_classes", "lowball_valid", "lowball_royalty", "SCALE",
           "N_ROW_CLASSES"]

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
    no straight, no flush).

    Returns
    -------
    ndarray of bool, shape (7918,)

    Raises
    ------
    Nothing

    Examples
    --------
    >>> from ofc_fast import row_strength, parse_cards
    >>> valid = lowball_valid()
    >>> bool(valid[row_strength(parse_cards("7c 5d 4h 3s 2c"))])
    True
    >>> bool(valid[row_strength(parse_cards("6c 5d 4h 3s 2c"))])      # a straight
    False
    """
    valid: np.ndarray = (JOINT_SIZE == 5) & (JOINT_CATEGORY == HIGH_CARD) & (JOINT_RANKS[:, 0] <= 8)
    return valid


def lowball_royalty(table: Royalties) -> np.ndarray:
    """Per joint strength: royalty of a 2-7 middle (0 where not a valid low).

    Parameters
    ----------
    table : Royalties
        Its ``lowball`` pays.

    Returns
    -------
    ndarray of int16, shape (7918,)

    Raises
    ------
    Nothing

    Examples
    --------
    >>> from ofc_fast import row_strength, parse_cards
    >>> from ofc_fast.variants import ROYALTY_PRESETS
    >>> pay = lowball_royalty(ROYALTY_PRESETS["american"])
    >>> int(pay[row_strength(parse_cards("7c 5d 4h 3s 2c"))])
    8
    """
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


def _monotone(tables: tuple[np.ndarray, ...], order: np.ndarray) -> bool:
    """Do the per-strength tables pay no less along ``order`` (strengths from
    the weakest to the best in the row's own order)?"""
    return all(bool(np.all(np.diff(t[order].astype(np.int64)) >= 0)) for t in tables)


def _joker_monotone(R: int, royalty: np.ndarray, valid: np.ndarray, entry: np.ndarray,
                    repeat: np.ndarray, reverse: list[int],
                    entry_cards: np.ndarray) -> tuple[int, int]:
    """(rows below the top, the top): do they pay no less when stronger in
    their own order?  The joker resolution is greedy from the bottom up when
    the first holds (docs/tables.md, "Jokers"), and takes the top's best
    completion no stronger than the row below when both do."""
    fives = np.flatnonzero(JOINT_SIZE == 5)
    rows = bool(np.all(np.diff(entry_cards.astype(np.int64)) >= 0))
    for k in range(1, R):
        order = fives
        if reverse[k]:      # a 2-7 middle: its valid lows, the best (lowest) last
            ok = valid[k, fives] == 1
            # the valid lows are the weakest 5-card hands (the lowest available
            # completion is valid whenever any is)
            rows &= bool(ok[:ok.sum()].all())
            order = fives[ok][::-1]
        else:
            rows &= bool(valid[k, fives].all())
        rows &= _monotone((royalty[k], entry[k], repeat[k]), order)
    top = _monotone((royalty[0], entry[0], repeat[0]), np.flatnonzero(JOINT_SIZE == 3))
    return int(rows), int(top)


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
    reverse = [int(v.lowball and i == 1) for i in range(4)]
    monotone, top_monotone = _joker_monotone(R, royalty, valid, entry, repeat, reverse,
                                             entry_cards)
    return dict(
        n_rows=R, n_cards=v.n_cards, row_len=row_len, row_off=[int(x) for x in row_off],
        in_chain=in_chain, may_be_invalid=[int(not valid[k, 1:].all()) for k in range(4)],
        royalty=royalty, valid=valid, key=key, entry_pts=entry,
        repeat_pts=repeat, entry_cards=entry_cards, repeat_threshold=threshold,
        repeat_cards=v.repeat_cards if v.fantasyland else 0,
        max_repeats=255 if v.repeat_limit is None else v.repeat_limit,
        finnish=int(v.finnish), per_row=s.per_row, scoop_bonus=s.scoop_bonus,
        majority_bonus=s.majority_bonus, majority_min=R // 2 + 1,
        foul_extra=s.penalty(R) - s.scoop_total(R), chunk=chunk if chunk >= 8 else 0,
        max_pair=max_pair, row_class=row_classes(), reverse=reverse,
        jokers=v.jokers, joker_board=int(v.joker_cards == "board"),
        joker_objective=JOKER_OBJECTIVES.index(v.joker_objective),
        joker_top_natural=int(v.joker_top_natural), joker_monotone=monotone,
        top_monotone=top_monotone,
        **{f"{name}_by_class": _by_class(arr, name) for name, arr in (
            ("royalty", royalty), ("valid", valid), ("entry_pts", entry), ("repeat_pts", repeat))},
    )
