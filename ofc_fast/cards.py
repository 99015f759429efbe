"""Card ids and their text form.

A card id is ``4 * rank + suit``: rank 0 = deuce .. 12 = ace, suits
``c d h s`` = 0 .. 3, so ``2c`` = 0 and ``As`` = 51.  ``EMPTY`` (255) marks an
empty slot of a partial layout.

Examples
--------
>>> parse_cards("As Kd 10h")
array([51, 45, 34], dtype=uint8)
>>> format_cards([51, 45, 34])
'As Kd Th'
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "EMPTY", "RANKS", "SUITS", "CardError", "card_id", "parse_cards",
    "format_cards", "format_card", "bad_hand_message",
]

EMPTY = 255
RANKS = "23456789TJQKA"
SUITS = "cdhs"
_SUIT_ALIASES = {"c": 0, "d": 1, "h": 2, "s": 3,
                 "♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"10": 8}
# One token: a rank (10 or a single character) then a suit letter or symbol.
# Explicit classes, not re.IGNORECASE, which would also match Unicode look-alikes.
_TOKEN = re.compile(r"(10|[2-9TtJjQqKkAa])([CDHScdhs♣♦♥♠♧♢♡♤])")
_EMPTY_TOKENS = {"__", "--", "xx", "XX", "??"}


class CardError(ValueError):
    """Bad card text or card ids; the message names the card and where it is."""


def card_id(token: str) -> int:
    """Id of one card written as text (``"As"``, ``"10h"``, ``"k♠"``)."""
    ids = _parse_text(token)
    if len(ids) != 1:
        raise CardError(f"{token!r} is not a single card")
    return ids[0]


def _token_table() -> dict[str, int]:
    """Every accepted spelling of one card (rank case, 10, suit letters and symbols)."""
    table = {t: EMPTY for t in _EMPTY_TOKENS}
    for rank_text, rank in _RANK_ALIASES.items():
        for suit_text, suit in _SUIT_ALIASES.items():
            for r in {rank_text, rank_text.lower()}:
                for su in {suit_text, suit_text.upper()}:
                    table[r + su] = 4 * rank + suit
    return table


_TOKENS = _token_table()


@functools.lru_cache(maxsize=1 << 16)
def _parse_text(text: str) -> tuple[int, ...]:
    try:  # the common form, space-separated tokens: one dict look-up each
        return tuple([_TOKENS[t] for t in text.replace(",", " ").split()])
    except KeyError:
        return _parse_text_slow(text)


def _parse_text_slow(text: str) -> tuple[int, ...]:
    ids: list[int] = []
    pos = 0
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch.isspace() or ch in ",;":
            pos += 1
            continue
        if text[pos:pos + 2].lower() in _EMPTY_TOKENS:
            ids.append(EMPTY)
            pos += 2
            continue
        m = _TOKEN.match(text, pos)
        if m is None:
            bad = text[pos:].split()[0][:3]
            raise CardError(
                f"unknown card {bad!r} at position {len(ids)} (character {pos}) of {text!r}: "
                f"expected a rank from {RANKS} (or 10) followed by a suit from {SUITS}")
        rank = _RANK_ALIASES[m.group(1).upper()]
        suit = _SUIT_ALIASES[m.group(2).lower()]
        ids.append(4 * rank + suit)
        pos = m.end()
    return tuple(ids)


def parse_cards(cards: str | Iterable[object] | np.ndarray) -> np.ndarray:
    """Parse cards to a uint8 array of ids.

    Accepts ``"As Kd 7h"``, ``"AsKd7h"``, ``"10h"``, either case, suit
    symbols (``"A♠"``), ``"__"`` for an empty slot, lists of card strings,
    lists of hand strings (giving shape ``(n, k)``), or integer ids.

    Raises
    ------
    CardError
        naming the unknown token and its position.

    Examples
    --------
    >>> parse_cards("AsKd7h").tolist()
    [51, 45, 22]
    >>> parse_cards(["Qs Qd 2c", "Ah Ad Kc"]).shape
    (2, 3)
    """
    if isinstance(cards, str):
        return np.array(_parse_text(cards), dtype=np.uint8)
    if isinstance(cards, np.ndarray) and cards.dtype.kind in "iu":
        return _checked_ids(cards)
    items: list[Any] = list(cards)
    if all(isinstance(x, str) for x in items):
        parsed = []
        for i, x in enumerate(items):
            try:
                parsed.append(_parse_text(x))
            except CardError as e:
                raise CardError(f"item {i}: {e}") from None
        if all(len(p) == 1 for p in parsed):
            return np.array([p[0] for p in parsed], dtype=np.uint8)
        lengths = {len(p) for p in parsed}
        if len(lengths) > 1:
            raise CardError(f"hands have different numbers of cards: {sorted(lengths)}")
        return np.array(parsed, dtype=np.uint8).reshape(len(parsed), -1)
    if all(isinstance(x, (int, np.integer)) for x in items):
        return _checked_ids(np.asarray(items, dtype=np.int64))
    return np.stack([parse_cards(x) for x in items])


def _checked_ids(arr: np.ndarray) -> np.ndarray:
    bad = (arr < 0) | ((arr > 51) & (arr != EMPTY))
    if bad.any():
        where = np.argwhere(bad)[0]
        raise CardError(f"card id {arr[tuple(where)]} at index {tuple(where.tolist())} "
                        f"is not a card (0-51) or EMPTY (255)")
    return arr.astype(np.uint8, copy=False)


def format_card(card: int) -> str:
    """Text of one card id (``"__"`` for EMPTY)."""
    card = int(card)
    if card == EMPTY:
        return "__"
    if not 0 <= card <= 51:
        raise CardError(f"card id {card} is not a card (0-51) or EMPTY (255)")
    return RANKS[card >> 2] + SUITS[card & 3]


def format_cards(cards: object, sep: str = " ") -> str | list:
    """Text of card ids: a string for a 1-D input, a list of strings for 2-D.

    >>> format_cards([[51, 47, 43], [0, 1, 2]])
    ['As Ks Qs', '2c 2d 2h']
    """
    arr = np.asarray(cards)
    if arr.ndim == 0:
        return format_card(int(arr))
    if arr.ndim == 1:
        return sep.join(format_card(c) for c in arr.tolist())
    return [format_cards(row, sep) for row in arr]


def bad_hand_message(hand: Sequence[int], where: str, allow_empty: bool = False) -> str:
    """Why the card ids of one hand are not a valid hand (for error messages)."""
    seen: dict[int, int] = {}
    for pos, c in enumerate(int(x) for x in hand):
        if c == EMPTY and not allow_empty:
            return f"{where}: card {pos} is EMPTY (255); a complete hand is needed"
        if c > 51 and c != EMPTY:
            return f"{where}: card {pos} has id {c}, not a card (0-51)"
        if c in seen and c != EMPTY:
            return (f"{where}: card {format_card(c)} appears twice "
                    f"(positions {seen[c]} and {pos})")
        seen[c] = pos
    return f"{where}: invalid hand {list(hand)}"
