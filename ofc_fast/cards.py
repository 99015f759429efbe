"""Card ids and their text form.

A card id is ``4 * rank + suit``: rank 0 = deuce .. 12 = ace, suits
``c d h s`` = 0 .. 3, so ``2c`` = 0 and ``As`` = 51 (:data:`MAX_CARD`; the
deck has :data:`DECK_SIZE` cards, the compiled kernels' ``OFC_DECK`` of
``src/ofc_cards.h``).  The jokers come after the naturals: ``X1`` = 52
(:data:`JOKER`) and ``X2`` = 53 (docs/jokers.md; a variant deals them only
with its ``jokers`` option).  ``EMPTY`` (255) marks an empty slot of a
partial layout.

Examples
--------
>>> parse_cards("As Kd 10h")
array([51, 45, 34], dtype=uint8)
>>> format_cards([51, 45, 34])
'As Kd Th'
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

import ofc_fast._cards as _cards
from ofc_fast._args import integer
from ofc_fast._cards import scan_text
from ofc_fast.errors import ArgumentError, CardError, LayoutError, shorten

__all__ = [
    "DECK_SIZE", "MAX_CARD", "EMPTY", "RANKS", "SUITS", "CARD_TOKENS", "CARD_TEXT",
    "EMPTY_TOKENS", "CardError", "JOKER", "JOKERS", "MAX_JOKERS", "JOKER_TEXT", "ID_TEXT",
    "is_joker", "format_resolved", "number_jokers", "joker_refusal", "MAX_ID",
    "substitute_jokers",
    "card_id", "parse_cards", "parse_card_text", "parse_card_list", "split_rows",
    "format_cards", "format_card", "format_row", "bad_hand_message", "refuse_masked",
    "ALL_CARDS", "card_mask", "mask_cards", "card_masks",
]

DECK_SIZE: int = _cards.DECK
"""Cards in the deck, ids 0 .. :data:`MAX_CARD` (read from the compiled kernels)."""
MAX_CARD: int = DECK_SIZE - 1
"""The highest card id."""
EMPTY = 255
RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER: int = _cards.JOKER
"""The first joker's id, ``X1`` (52, after the naturals); ``X2`` is ``JOKER + 1``."""
MAX_JOKERS: int = _cards.MAX_JOKERS
"""Most jokers a variant deals (2)."""
JOKERS: tuple[int, ...] = tuple(range(JOKER, JOKER + MAX_JOKERS))
"""The joker ids, ``(52, 53)``: ``X1``, ``X2``."""
JOKER_TEXT: tuple[str, ...] = tuple(f"X{i + 1}" for i in range(MAX_JOKERS))
"""The text of each joker, ``("X1", "X2")``."""
NEXT_JOKER = 254
"""The reader's mark of an ``Xj`` before it is numbered (never in a result)."""

# --------------------------------------------------------------------------- grammar
# The one card-text grammar (docs/formats.md, "Card text"), spelled out once;
# the token table, the scanner and the vectorised readers of ofc_fast.io are
# all derived from (or tested against) these lines.
#
#   text   := (sep* card)* sep*         cards may also be glued: "AsKd7h"
#   sep    := white space | "," | ";"
#   card   := rank suit [U+FE0F] [street] | joker [street] | empty
#   rank   := "2".."9" | "T" | "10" | "J" | "Q" | "K" | "A"    (any case)
#   joker  := ("X" | "x") ("1" | "2" | "j" | "J"): X1, X2, or Xj, "the next
#             joker": each Xj is the lowest joker its hand does not name
#             otherwise (alone, the first Xj is X1 and the second X2)
#   suit   := "c" "d" "h" "s" (any case) | "♣♦♥♠" | "♧♢♡♤"
#   street := one digit that does not start the next card (room captures
#             write the street a card was placed on: "Ks1"; it is ignored)
#   empty  := "__" | "--" | "??" | "xx" (any case): an empty slot (EMPTY),
#             only where partial layouts are allowed
RANK_SPELLINGS: dict[str, int] = {r: i for i, r in enumerate(RANKS)} \
    | {r.lower(): i for i, r in enumerate(RANKS) if r.isalpha()} | {"10": 8}
SUIT_SPELLINGS: dict[str, int] = {
    "c": 0, "d": 1, "h": 2, "s": 3, "C": 0, "D": 1, "H": 2, "S": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3}
EMPTY_TOKENS = frozenset({"__", "--", "??", "xx", "xX", "Xx", "XX"})
_VS16 = "\ufe0f"                       # emoji presentation selector after a suit symbol
_SEP_CHARS = ",;"

_SUIT_CLASS = re.escape("".join(SUIT_SPELLINGS))
_RANK_ALT = "10|[" + "".join(k for k in RANK_SPELLINGS if len(k) == 1) + "]"
_SCAN = re.compile(
    rf"(?P<empty>__|--|\?\?|[xX][xX])"
    rf"|(?:(?P<rank>{_RANK_ALT})(?P<suit>[{_SUIT_CLASS}]){_VS16}?|(?P<joker>[xX][12jJ]))"
    rf"(?:[0-9](?![{_SUIT_CLASS}]|0[{_SUIT_CLASS}]))?")
_BAD_JOKER = re.compile(r"[xX](?:[0-9]+|[a-zA-Z])$")     # X3, X0, Xk: a joker misspelt
_SPLIT = re.compile(r"[\s,;]+")
_ROW_SPLIT = re.compile(r"\s*[/|]\s*")
EXPECTED = ("expected a rank (2-9, T or 10, J, Q, K, A) then a suit (c d h s or ♣ ♦ ♥ ♠), "
            "optionally a street digit, e.g. 'Ks', '10h', 'q♦', 'Ks1', or a joker X1, X2, Xj")


def _card_tokens() -> dict[str, int]:
    """Every single-token spelling of a card -> its id (one dict look-up each)."""
    out = {}
    for rank_text, rank in RANK_SPELLINGS.items():
        for suit_text, suit in SUIT_SPELLINGS.items():
            endings = [suit_text] + ([suit_text + _VS16] if not suit_text.isascii() else [])
            for ending in endings:
                for street in ("",) + tuple("0123456789"):
                    out[rank_text + ending + street] = 4 * rank + suit
    for j, text in enumerate(JOKER_TEXT):      # X1, x1, X12 (street 2) ...; Xj needs numbering
        for x in "Xx":
            for street in ("",) + tuple("0123456789"):
                out[x + text[1:] + street] = JOKER + j
    return out


CARD_TOKENS: dict[str, int] = _card_tokens()
"""Every accepted single-token spelling of a card (``"Ks"``, ``"kS"``,
``"10h"``, ``"K♠"``, ``"Ks1"`` ...) to its id."""
MAX_ID = JOKER + MAX_JOKERS - 1
"""The highest card id, jokers included (53)."""
ID_RANGE = f"0-{MAX_CARD}, a joker {JOKER}-{MAX_ID}"
CARD_TEXT: tuple[str, ...] = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(DECK_SIZE))
"""Canonical text of each natural card id (``CARD_TEXT[51] == "As"``)."""
ID_TEXT: tuple[str, ...] = CARD_TEXT + JOKER_TEXT
"""Canonical text of each card id, jokers included (``ID_TEXT[52] == "X1"``)."""


def _check_kernels() -> None:
    """The compiled kernels and this grammar know the same deck (a stale build,
    or a deck size changed in one place only, stops the import here)."""
    if (len(RANKS) * len(SUITS) != DECK_SIZE or _cards.MAX_CARD != MAX_CARD
            or _cards.EMPTY != EMPTY or _cards.ALL_CARDS != (1 << DECK_SIZE) - 1
            or JOKER != DECK_SIZE or JOKER + MAX_JOKERS > NEXT_JOKER):
        raise ImportError(f"ofc_fast._cards was built for a deck of {DECK_SIZE} cards (empty slot "
                          f"{_cards.EMPTY}); ofc_fast.cards knows {len(RANKS)} ranks of "
                          f"{len(SUITS)} suits (empty slot {EMPTY}): rebuild the extensions")


_check_kernels()


def card_id(token: str) -> int:
    """Id of one card written as text (``"As"``, ``"10h"``, ``"k♠"``).

    Parameters
    ----------
    token : str
        One card in the card-text grammar (module docstring).

    Returns
    -------
    int
        The card id, 0 .. :data:`MAX_CARD`.

    Raises
    ------
    CardError
        ``token`` is not exactly one card (an unknown token, an empty slot,
        several cards).
    TypeError
        ``token`` is not a str.

    Examples
    --------
    >>> card_id("10h")
    34
    """
    ids = parse_card_text(token, allow_empty=False)
    if len(ids) != 1:
        raise CardError(f"{shorten(token)} is not a single card")
    return ids[0]


def parse_card_text(text: str, *, allow_empty: bool = True) -> tuple[int, ...]:
    """Card ids of card text under the one grammar (module docstring).

    Short texts are cached, so a repeated hand costs one dict look-up.

    Parameters
    ----------
    text : str
        Card text: tokens such as ``Ks``, ``10h``, ``q♦``, ``Ks1``, separated by
        white space, commas or semicolons, or glued (``AsKd``).
    allow_empty : bool
        Accept empty-slot tokens (``__``, read as EMPTY); False for finished
        hands and recorded rows, which must be complete.

    Returns
    -------
    tuple of int
        The card ids in text order (EMPTY for an empty slot).

    Raises
    ------
    CardError
        An unknown token (named with its position and character offset), or an
        empty slot where ``allow_empty`` is False.
    TypeError
        ``text`` is not a str.

    Examples
    --------
    >>> parse_card_text("Ks1 qd2, 10h;AsKd")
    (47, 41, 34, 51, 45)
    """
    ids = _TEXT_CACHE.get(text) if type(text) is str else None
    if ids is None:
        if not isinstance(text, str):
            raise TypeError(f"card text must be a str, got {type(text).__name__}")
        ids = _parse_and_cache(text)
    if not allow_empty and EMPTY in ids:
        k = ids.index(EMPTY)
        raise CardError(f"unknown card: position {k} of {shorten(text)} is an empty slot; "
                        "a complete hand is needed here")
    return ids


TEXT_CACHE_SIZE = 1 << 16
"""Distinct short card texts remembered by :func:`parse_card_text`."""
_TEXT_CACHE: dict[str, tuple[int, ...]] = {}


def _parse_and_cache(text: str) -> tuple[int, ...]:
    """Parse text that missed the cache, and remember it if it is short (the
    kernels' per-hand fast path calls this on a miss)."""
    ids = _parse_uncached(text)
    if len(text) <= 64:
        if len(_TEXT_CACHE) >= TEXT_CACHE_SIZE:
            _TEXT_CACHE.clear()
        _TEXT_CACHE[text] = ids
    return ids


def _parse_uncached(text: str) -> tuple[int, ...]:
    ids = scan_text(text)       # plain ASCII text, in C (the grammar's ASCII part)
    if ids is not None:
        return ids
    tokens = CARD_TOKENS
    try:  # the common form, separated tokens: one dict look-up each
        if "," in text or ";" in text:
            text = text.replace(",", " ").replace(";", " ")
        return tuple([tokens[t] for t in text.split()])
    except KeyError:
        return _scan(text)


def _scan(text: str, number: bool = True) -> tuple[int, ...]:
    """The grammar's scanner: glued tokens, empty slots, jokers, and precise
    errors.  ``number``: each ``Xj`` numbered (:func:`number_jokers`), else
    left as :data:`NEXT_JOKER` for a caller that numbers a whole layout."""
    ids: list[int] = []
    pos, n = 0, len(text)
    while pos < n:
        ch = text[pos]
        if ch.isspace() or ch in _SEP_CHARS:
            pos += 1
            continue
        m = _SCAN.match(text, pos)
        if m is None:
            bad = _SPLIT.split(text[pos:], maxsplit=1)[0][:12]
            where = f"{bad!r} at position {len(ids)} (character {pos}) of {shorten(text)}"
            if bad.startswith("*"):
                raise CardError(f"{where} is a resolved joker (how a scored joker is shown), "
                                "not a card: write the joker itself as X1, X2 or Xj")
            if _BAD_JOKER.match(bad):
                raise CardError(f"unknown card {where}: a joker is X1, X2 or Xj (the next "
                                f"joker); a hand holds at most {MAX_JOKERS}")
            raise CardError(f"unknown card {where}: {EXPECTED}")
        if m.group("empty"):
            ids.append(EMPTY)
        elif m.group("joker"):
            j = m.group("joker")[1]
            ids.append(NEXT_JOKER if j in "jJ" else JOKER + int(j) - 1)
        else:
            ids.append(4 * RANK_SPELLINGS[m.group("rank")] + SUIT_SPELLINGS[m.group("suit")])
        pos = m.end()
    return number_jokers(ids, text) if number else tuple(ids)


def number_jokers(ids: Sequence[int], where: object = "hand") -> tuple[int, ...]:
    """Number each ``Xj`` of one hand: the lowest joker the hand does not name
    otherwise (alone, the first is ``X1`` and the second ``X2``).

    Parameters
    ----------
    ids : sequence of int
        Card ids of one hand, ``Xj`` as :data:`NEXT_JOKER` (254).
    where : object
        The hand (its text), for the message.

    Returns
    -------
    tuple of int
        The ids with every ``Xj`` numbered.

    Raises
    ------
    CardError
        More jokers than :data:`MAX_JOKERS`.

    Examples
    --------
    >>> number_jokers([NEXT_JOKER, 51, JOKER, NEXT_JOKER], "Xj As X1 Xj")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.CardError: Xj at position 3 of 'Xj As X1 Xj' is a third joker; a hand holds ...
    >>> number_jokers([NEXT_JOKER, 51, NEXT_JOKER])
    (52, 51, 53)
    """
    if NEXT_JOKER not in ids:
        return tuple(ids)
    free = [j for j in JOKERS if j not in ids]
    out = list(ids)
    for k, c in enumerate(out):
        if c == NEXT_JOKER:
            if not free:
                text = where if isinstance(where, str) else str(where)
                raise CardError(f"Xj at position {k} of {shorten(text)} is a third joker; a "
                                f"hand holds at most {MAX_JOKERS} ({', '.join(JOKER_TEXT)})")
            out[k] = free.pop(0)
    return tuple(out)


def substitute_jokers(layouts: Any, substitutes: Any) -> np.ndarray:
    """Layouts with each joker replaced by the natural card it stands for.

    Parameters
    ----------
    layouts : array_like of int, shape (N, n_cards) or (n_cards,)
        Card ids (jokers 52 for ``X1``, 53 for ``X2``).
    substitutes : array_like of int, shape (N, jokers) or (jokers,)
        ``Evaluation.substitutes``: the card each joker stands for (255: the
        layout has no such joker).

    Returns
    -------
    ndarray of uint8
        A copy of ``layouts`` with the jokers replaced (a joker without a
        substitute stays).

    Raises
    ------
    ArgumentError
        Shapes that do not match.
    TypeError
        Ids that are not integers.

    Examples
    --------
    >>> substitute_jokers([[52, 51, 0]], [[47]]).tolist()
    [[47, 51, 0]]
    """
    lay, sub = np.asarray(layouts), np.asarray(substitutes)
    if lay.dtype.kind not in "iu" or sub.dtype.kind not in "iu":
        raise TypeError("layouts and substitutes must be integer card ids")
    single = lay.ndim == 1
    lay2 = np.atleast_2d(lay).astype(np.uint8)
    sub2 = np.atleast_2d(sub).astype(np.uint8)
    if lay2.ndim != 2 or sub2.ndim != 2 or len(sub2) != len(lay2) or sub2.shape[1] > 2:
        raise ArgumentError(f"substitutes of shape {sub.shape} do not match layouts of shape "
                            f"{lay.shape}: one row of jokers per layout")
    out = lay2.copy()
    for j in range(sub2.shape[1]):
        hit = (out == JOKER + j) & (sub2[:, j:j + 1] != EMPTY)
        out[hit] = np.broadcast_to(sub2[:, j:j + 1], out.shape)[hit]
    result: np.ndarray = out[0] if single else out
    return result


def is_joker(card: int) -> bool:
    """Is ``card`` a joker id (``X1`` = 52, ``X2`` = 53)?

    Parameters
    ----------
    card : int
        A card id.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        ``card`` cannot be compared with an integer.

    Examples
    --------
    >>> is_joker(52), is_joker(51), is_joker(255)
    (True, False, False)
    """
    return JOKER <= card < JOKER + MAX_JOKERS


def split_rows(text: str, n_rows: int) -> list[str]:
    """Split layout text into its rows at ``/`` or ``|`` (top row first).

    Parameters
    ----------
    text : str
        The rows of a layout, separated by ``/`` or ``|``.
    n_rows : int
        How many rows the layout has (3, or 4 for Big Pineapple).

    Returns
    -------
    list of str
        The text of each row, stripped.

    Raises
    ------
    LayoutError
        ``text`` does not have ``n_rows`` rows.
    TypeError
        ``text`` is not a str.

    Examples
    --------
    >>> split_rows("Qs Qd 2c / 9h 9d 9c 5s 5d | 7h 7d 7c 7s 2d", 3)
    ['Qs Qd 2c', '9h 9d 9c 5s 5d', '7h 7d 7c 7s 2d']
    """
    if not isinstance(text, str):
        raise TypeError(f"layout text must be a str, got {type(text).__name__}")
    rows = _ROW_SPLIT.split(text.strip())
    if len(rows) != n_rows:
        raise LayoutError(f"{shorten(text)}: expected {n_rows} rows separated by '/' or '|', "
                          f"got {len(rows)}")
    return rows


def parse_cards(cards: str | Iterable[object] | np.ndarray) -> np.ndarray:
    """Parse cards to a uint8 array of ids.

    Parameters
    ----------
    cards : str, iterable or numpy.ndarray
        Card text under the one grammar (``"As Kd 7h"``, ``"AsKd7h"``,
        ``"10h"``, either case, suit symbols ``"A♠"``, street digits ``"Ks1"``,
        ``"__"`` for an empty slot), a list of card strings, a list of hand
        strings (giving shape ``(n, k)``), or integer ids (cards, or EMPTY = 255).

    Returns
    -------
    numpy.ndarray
        uint8 card ids: shape ``(k,)`` for one hand, ``(n, k)`` for a list of
        hands, the input's shape for an integer array.

    Raises
    ------
    CardError
        naming the unknown token or id and its position.
    TypeError
        for values that are neither card text nor integer ids.

    Examples
    --------
    >>> parse_cards("AsKd7h").tolist()
    [51, 45, 22]
    >>> parse_cards(["Qs Qd 2c", "Ah Ad Kc"]).shape
    (2, 3)
    """
    if isinstance(cards, str):
        return np.array(parse_card_text(cards), dtype=np.uint8)
    refuse_masked(cards)
    if isinstance(cards, np.ndarray):
        if cards.dtype.kind in "iu":
            return _checked_ids(cards)
        if cards.dtype.kind in "UO" and cards.ndim == 1:
            return parse_cards(cards.tolist())
        raise TypeError(f"cards must be card text or integer ids, got an array of dtype "
                        f"{cards.dtype}")
    if isinstance(cards, (bytes, bytearray)) or not isinstance(cards, Iterable):
        raise TypeError(f"cards must be card text or integer ids, got {type(cards).__name__}")
    items: list[Any] = list(cards)
    if items and all(isinstance(x, str) for x in items):
        parsed = []
        for i, x in enumerate(items):
            try:
                parsed.append(parse_card_text(x))
            except CardError as e:
                raise CardError(f"item {i}: {e}") from None
        if all(len(p) == 1 for p in parsed):
            return np.array([p[0] for p in parsed], dtype=np.uint8)
        lengths = {len(p) for p in parsed}
        if len(lengths) > 1:
            raise CardError(f"hands have different numbers of cards: {sorted(lengths)}")
        return np.array(parsed, dtype=np.uint8).reshape(len(parsed), -1)
    if all(_is_int(x) for x in items):
        for i, x in enumerate(items):
            if not 0 <= x <= MAX_ID and x != EMPTY:
                raise CardError(f"card id {shorten(int(x))} at index ({i},) is not a card "
                                f"({ID_RANGE}) or EMPTY (255)")
        return np.array(items, dtype=np.uint8).reshape(len(items))
    bad = next((x for x in items if not isinstance(x, (str, Iterable)) or
                isinstance(x, (bytes, bytearray))), None)
    if bad is not None:
        raise TypeError(f"cards must be card text or integer ids, got {type(bad).__name__} "
                        f"{shorten(bad)}")
    return np.stack([parse_cards(x) for x in items])


def _is_int(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def parse_card_list(cards: object, *, allow_empty: bool = False) -> list[int]:
    """Card ids of one row or card list: card text, or a list of tokens and ids.

    The reader of recorded rows and discards: every element is one card (a
    token of the grammar, or a card id).

    Parameters
    ----------
    cards : str or list or tuple
        Card text, or a sequence whose elements are each one card (text or id).
    allow_empty : bool
        Accept empty slots (``__``, EMPTY).

    Returns
    -------
    list of int
        The card ids, in order.

    Raises
    ------
    CardError
        An unknown card, an element that is not one card, or ``cards`` that is
        neither text nor a list.

    Examples
    --------
    >>> parse_card_list("Ks1 qD2 10h")
    [47, 41, 34]
    >>> parse_card_list(["7c", 51])
    [20, 51]
    """
    if isinstance(cards, str):
        return list(parse_card_text(cards, allow_empty=allow_empty))
    if isinstance(cards, (list, tuple)):
        out = []
        for i, x in enumerate(cards):
            if isinstance(x, str):
                ids = parse_card_text(x, allow_empty=allow_empty)
                if len(ids) != 1:
                    raise CardError(f"element {i} {shorten(x)} is not one card; {EXPECTED}")
                out.append(ids[0])
            elif _is_int(x) and (0 <= x <= MAX_ID or (allow_empty and x == EMPTY)):
                out.append(int(x))
            else:
                raise CardError(f"unknown card {shorten(x)} (element {i}): a card is text "
                                f"like 'Ks' or 'X1', or an id {ID_RANGE}")
        return out
    raise CardError(f"cards must be text or a list, got {type(cards).__name__} {shorten(cards)}")


def refuse_masked(obj: object, what: str = "cards") -> None:
    """Refuse a numpy masked array with masked entries (its hidden data would
    otherwise be read as card ids).

    Parameters
    ----------
    obj : object
        Anything; only a masked array with masked entries is refused.
    what : str
        What ``obj`` is, for the message.

    Returns
    -------
    None

    Raises
    ------
    CardError
        ``obj`` is a masked array with masked entries.

    Examples
    --------
    >>> import numpy as np
    >>> refuse_masked(np.ma.masked_array([1, 2], mask=[False, True]))
    Traceback (most recent call last):
    ...
    ofc_fast.errors.CardError: cards is a masked array with masked entries; fill or drop them first
    """
    if isinstance(obj, np.ma.MaskedArray) and np.ma.is_masked(obj):
        raise CardError(f"{what} is a masked array with masked entries; fill or drop them first")


def _checked_ids(arr: np.ndarray) -> np.ndarray:
    bad = (arr < 0) | ((arr > MAX_ID) & (arr != EMPTY))
    if bad.any():
        where = np.argwhere(bad)[0]
        raise CardError(f"card id {arr[tuple(where)]} at index {tuple(where.tolist())} "
                        f"is not a card ({ID_RANGE}) or EMPTY (255)")
    return arr.astype(np.uint8, copy=False)


def format_card(card: int) -> str:
    """Text of one card id (``"X1"`` for a joker, ``"__"`` for EMPTY).

    Parameters
    ----------
    card : int
        A card id (0 .. :data:`MAX_CARD`, a joker 52 or 53), or EMPTY (255).

    Returns
    -------
    str
        Two characters: rank then suit (``"As"``), ``"X1"``, or ``"__"``.

    Raises
    ------
    CardError
        ``card`` is not a card id or EMPTY.
    TypeError
        ``card`` is not an integer.

    Examples
    --------
    >>> format_card(51)
    'As'
    """
    if not _is_int(card):
        raise TypeError(f"a card id is an integer, got {type(card).__name__} {shorten(card)}")
    card = int(card)
    if card == EMPTY:
        return "__"
    if not 0 <= card <= MAX_ID:
        raise CardError(f"card id {card} is not a card ({ID_RANGE}) or EMPTY (255)")
    return ID_TEXT[card]


def format_resolved(card: int, substitute: int = EMPTY) -> str:
    """Text of one card id, a joker shown as the card it stands for (``*Qd``).

    Parameters
    ----------
    card : int
        A card id (a natural, a joker or EMPTY).
    substitute : int
        For a joker: the natural card it stands for (``Evaluation.substitutes``);
        EMPTY (255) shows the joker itself (``X1``).

    Returns
    -------
    str
        ``"As"``, ``"*Qd"`` (a resolved joker, the ofc.coach notation), ``"X1"``, ``"__"``.

    Raises
    ------
    CardError
        ``card`` is not a card id or EMPTY, or ``substitute`` is not a natural card or EMPTY.
    TypeError
        An id that is not an integer.

    Examples
    --------
    >>> format_resolved(JOKER, 42), format_resolved(JOKER), format_resolved(51, 42)
    ('*Qh', 'X1', 'As')
    """
    text = format_card(card)
    if not is_joker(int(card)) or substitute == EMPTY:
        return text
    if not _is_int(substitute) or not 0 <= substitute <= MAX_CARD:
        raise CardError(f"the substitute of {text} must be a natural card (0-{MAX_CARD}) or "
                        f"EMPTY, got {shorten(substitute)}")
    return "*" + CARD_TEXT[int(substitute)]


def format_row(ids: Iterable[int]) -> str:
    """Canonical text of a list of card ids, fast (``"Qs Qd 2c"``).

    An id that is not a card shows as ``__``, so that messages about bad rows
    can quote them.

    Parameters
    ----------
    ids : iterable of int
        Card ids.

    Returns
    -------
    str
        The cards' text, one space between.

    Raises
    ------
    TypeError
        An id that is not an integer.

    Examples
    --------
    >>> format_row([42, 41, 0])
    'Qh Qd 2c'
    """
    return " ".join([ID_TEXT[c] if 0 <= c <= MAX_ID else "__" for c in ids])


SUIT_SYMBOLS = "♣♦♥♠"
"""Suit symbols in suit order (clubs, diamonds, hearts, spades)."""
_FOUR_COLOURS = ("\033[32m", "\033[34m", "\033[31m", "")   # clubs green, diamonds blue,
_RESET = "\033[0m"                                          # hearts red, spades plain


def format_cards(cards: object, sep: str = " ", *, colour: bool = False,
                 symbols: bool = False) -> str | list[Any]:
    """Text of card ids: a string for a 1-D input, a list of strings for 2-D.

    Parameters
    ----------
    cards : int or array_like of int
        Card ids (EMPTY shows as ``__``), of any number of dimensions.
    sep : str
        Between the cards of one hand.
    colour : bool
        Wrap each card in the ANSI colour codes of the four-colour deck (clubs
        green, diamonds blue, hearts red, spades in the terminal's colour), for
        terminals.
    symbols : bool
        Write suits as ``♣ ♦ ♥ ♠``.

    Returns
    -------
    str or list
        One string for a single card or a 1-D input; for more dimensions, a
        list (of lists ...) of strings, one per hand.

    Raises
    ------
    CardError
        An id that is not a card or EMPTY.
    TypeError
        The ids are not integers.

    Examples
    --------
    >>> format_cards([[51, 47, 43], [0, 1, 2]])
    ['As Ks Qs', '2c 2d 2h']
    >>> format_cards([51, 34], symbols=True)
    'A♠ T♥'
    """
    arr = np.asarray(cards)
    if arr.dtype.kind not in "iu" and arr.size:
        raise TypeError(f"card ids must be integers, got dtype {arr.dtype}")
    if arr.ndim == 0:
        card = int(arr[()])
        return _card_text(format_card(card), card, colour, symbols)
    if arr.ndim == 1:
        if not (colour or symbols):
            return sep.join(format_card(c) for c in arr.tolist())
        return sep.join(_card_text(format_card(c), c, colour, symbols) for c in arr.tolist())
    return [format_cards(row, sep, colour=colour, symbols=symbols) for row in arr]


def _card_text(text: str, card: int, colour: bool, symbols: bool) -> str:
    """One card's text with a suit symbol and colour codes as asked (EMPTY stays ``__``)."""
    if card == EMPTY or is_joker(card):
        return text
    if symbols:
        text = text[0] + SUIT_SYMBOLS[card & 3]
    code = _FOUR_COLOURS[card & 3]
    return f"{code}{text}{_RESET}" if colour and code else text


# ----------------------------------------------------------------------- card masks
ALL_CARDS = (1 << DECK_SIZE) - 1
"""The mask of every card (bit ``c`` stands for card id ``c``)."""


def card_mask(cards: object, jokers: int = 0, context: str = "") -> int:
    """A card mask (bit ``c`` for card ``c``) of card text, card ids or a mask.

    Parameters
    ----------
    cards : None, int, str, numpy.ndarray or iterable
        None (no cards), an int mask (checked: 0 .. :data:`ALL_CARDS`, the
        jokers' bits too where allowed), a uint8 array, or any card input of
        :func:`parse_cards`.  Empty slots (EMPTY) set no bit; a card given
        twice sets its bit once.
    jokers : int
        The jokers the cards may hold (``X1`` .. ``X<jokers>``: bits 52 and
        53); 0 (the default) takes natural cards only.
    context : str
        What the cards are for, naming a refused joker (``"variant pineapple"``).

    Returns
    -------
    int
        The mask.

    Raises
    ------
    CardError
        What is not a card or a card mask, or a joker beyond ``jokers``.
    TypeError
        What is neither text, ids nor a mask.

    Examples
    --------
    >>> card_mask("2c 3c As") == (1 << 0) | (1 << 4) | (1 << 51)
    True
    >>> card_mask("As X1", jokers=1) == (1 << 51) | (1 << 52)
    True
    """
    deck = DECK_SIZE + jokers
    if cards is None:
        return 0
    if isinstance(cards, (int, np.integer)) and not isinstance(cards, (bool, np.bool_)):
        m = int(cards)
        if m < 0 or m >> deck:
            raise CardError(f"card mask {shorten(m)} is not a {deck}-bit mask")
        return m
    if isinstance(cards, np.ndarray) and cards.dtype == np.uint8:
        refuse_masked(cards)
        ids = cards.reshape(-1)
    elif isinstance(cards, (str, np.ndarray)):
        ids = np.asarray(parse_cards(cards)).reshape(-1)
    elif isinstance(cards, Iterable):
        ids = np.asarray(parse_cards(list(cards))).reshape(-1)
    else:
        raise TypeError(f"cards must be card text, card ids or a {deck}-bit mask, got "
                        f"{shorten(cards)}")
    bad = (ids >= deck) & (ids != EMPTY)
    if bad.any():           # parse_cards reads jokers: refused here unless allowed
        c = int(ids[bad][0])
        if is_joker(c):
            raise CardError(joker_refusal(c, jokers, context) if context else
                            f"{ID_TEXT[c]} is a joker; this card mask takes "
                            f"{f'X1 .. X{jokers}' if jokers else 'natural cards only'}")
        raise CardError(f"card id {c} is not a card (0-{deck - 1})")
    held = sum(1 << int(c) for c in set(ids[ids >= JOKER].tolist()) if c != EMPTY)
    return (int(card_masks(ids.reshape(1, -1))[0]) if ids.size else 0) | held


def mask_cards(mask: object) -> np.ndarray:
    """Card ids of a card mask, ascending.

    Parameters
    ----------
    mask : int
        A card mask (bit ``c`` for card ``c``).

    Returns
    -------
    numpy.ndarray
        uint8 card ids, ascending.

    Raises
    ------
    TypeError
        ``mask`` is not an integer.
    ArgumentError
        ``mask`` is negative or above :data:`ALL_CARDS`.

    Examples
    --------
    >>> mask_cards(card_mask("As 2c Kd")).tolist()
    [0, 45, 51]
    """
    m = integer(mask, "card mask", 0, ALL_CARDS)
    bits = np.unpackbits(np.array([m], "<u8").view(np.uint8), bitorder="little")
    return np.flatnonzero(bits[:DECK_SIZE]).astype(np.uint8)


def card_masks(cards: object) -> np.ndarray:
    """Card masks of card id arrays, one pass in C.

    EMPTY (255) and other ids that are no card set no bit (check ids first where they
    must be cards); a card twice sets its bit once.

    Parameters
    ----------
    cards : array_like of int
        Card ids of shape ``(..., k)``, 0-255.

    Returns
    -------
    numpy.ndarray
        uint64 masks of shape ``(...)``.

    Raises
    ------
    CardError
        An id outside 0-255, or a masked array with masked entries.
    TypeError
        The ids are not integers.
    ArgumentError
        ``cards`` is a scalar.

    Examples
    --------
    >>> card_masks([[0, 1], [51, 255]]).tolist() == [3, 1 << 51]
    True
    """
    from ofc_fast._cards import masks_of
    refuse_masked(cards)
    arr = np.asarray(cards)
    if arr.ndim == 0:
        raise ArgumentError(f"card_masks needs an array of card ids of shape (..., k), got "
                            f"{shorten(cards)}")
    if arr.dtype != np.uint8:
        if arr.dtype.kind not in "iu" and arr.size:
            raise TypeError(f"card ids must be integers, got dtype {arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() > 255):
            raise CardError(f"card ids must be 0-255 ({MAX_CARD} at most for a card)")
        arr = arr.astype(np.uint8)
    lead = arr.shape[:-1]
    flat = np.ascontiguousarray(arr.reshape(int(np.prod(lead)), arr.shape[-1]))
    out = np.empty(len(flat), np.uint64)
    masks_of(flat, out)
    return out.reshape(lead)


def bad_hand_message(hand: Sequence[int], where: str, allow_empty: bool = False,
                     jokers: int = 0, context: str = "") -> str:
    """Why the card ids of one hand are not a valid hand, for error messages.

    Parameters
    ----------
    hand : sequence of int
        The card ids.
    where : str
        What the hand is (``"hand 3"``), the start of the message.
    allow_empty : bool
        EMPTY slots are allowed (a partial layout).
    jokers : int
        Jokers the hand may hold (``X1`` .. ``X<jokers>``; a variant's ``jokers``).
    context : str
        What refuses a joker it may not hold (``"variant pineapple"``), for
        the message; empty: a call that takes natural cards only.

    Returns
    -------
    str
        The first problem: an EMPTY slot, an id that is no card, a joker it
        may not hold, a card twice.

    Raises
    ------
    TypeError
        An id that is not an integer.

    Examples
    --------
    >>> bad_hand_message([51, 47, 51], "hand 0")
    'hand 0: card As appears twice (positions 0 and 2)'
    >>> bad_hand_message([51, 52, 50], "hand", context="variant pineapple")
    'hand: X1 is a joker (card 1); variant pineapple is played without jokers (jokers=0)'
    """
    seen: dict[int, int] = {}
    for pos, c in enumerate(int(x) for x in hand):
        if c == EMPTY and not allow_empty:
            return f"{where}: card {pos} is EMPTY (255); a complete hand is needed"
        if is_joker(c) and c >= JOKER + jokers:
            return f"{where}: {joker_refusal(c, jokers, context, pos)}"
        if c > MAX_ID and c != EMPTY:
            return f"{where}: card {pos} has id {c}, not a card ({ID_RANGE})"
        if c in seen and c != EMPTY:
            return (f"{where}: card {format_card(c)} appears twice "
                    f"(positions {seen[c]} and {pos})")
        seen[c] = pos
    return f"{where}: invalid hand {list(hand)}"


def joker_refusal(card: int, jokers: int, context: str = "", pos: int | None = None) -> str:
    """Why joker ``card`` is refused where ``jokers`` jokers are dealt.

    Parameters
    ----------
    card : int
        A joker id (52 or 53).
    jokers : int
        Jokers allowed there (0, 1 or 2).
    context : str
        What refuses it (``"variant pineapple"``); empty: a call that takes
        natural cards only.
    pos : int, optional
        Its place, named in the message.

    Returns
    -------
    str

    Raises
    ------
    IndexError
        ``card`` is not a card id.

    Examples
    --------
    >>> joker_refusal(53, 1, "variant classic")
    'X2 is a joker; variant classic is played with one joker (jokers=1): X1 only'
    """
    name = ID_TEXT[card] + (" is a joker" if pos is None else f" is a joker (card {pos})")
    if not context:
        return (f"{name}; hand strength takes natural cards (a layout with jokers is "
                "scored by evaluate under a variant with jokers)")
    if jokers == 0:
        return f"{name}; {context} is played without jokers (jokers=0)"
    return f"{name}; {context} is played with one joker (jokers=1): X1 only"
