"""Recorded hands: the ``ofc-hand/1`` record model, tolerant card parsing and
grouping into batches for :func:`ofc_fast.score_tables`.

One module a job, each importing only those before it: :mod:`~ofc_fast.records.model`
(a record's rules and numbers, :func:`hand_dict` the one record writer),
:mod:`~ofc_fast.records.chunk` (chunks of player-hands as columns, their
validation and scoring), :mod:`~ofc_fast.records.builder` (records into
chunks), :mod:`~ofc_fast.records.hand` (one hand as a :class:`HandRecord`,
parsed by the builder or taken from a chunk).  Card text itself is :mod:`ofc_fast.cards`'.

A recorded hand is one table of 2-4 players, in seat order (seat 0 = button),
each with finished rows as card text (docs/formats.md)::

    {"format": "ofc-hand/1", "id": "h1", "variant": "pineapple",
     "options": {"finnish": true},
     "players": [{"name": "alice", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d",
                  "bottom": "7h 7d 7c 7s 2d", "in_fantasyland": 0,
                  "discards": "Ks 3d", "points": 12}, ...]}

Card tokens are read tolerantly: ``T`` or ``10``, any case, suit letters or
symbols (``K♠``), a trailing street digit as some room captures write
(``Ks1`` = king of spades placed on street 1); a row may also be a list of
tokens or card ids, and all rows may be given as one string ``"rows": "Qs Qd
2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"`` (``/`` or ``|`` between rows).

The readers (``ofc_fast.io``) turn a stream of records into :class:`Chunk`\\ s:
the player-hands of a run of records in input order, grouped by (rules,
number of players) so each group is scored by one batch call.

>>> rec = HandRecord.from_dict({"id": "h1", "variant": "pineapple", "players": [
...     {"name": "a", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"},
...     {"name": "b", "rows": "ks1 kd2 3c3 | 2h 3h 4h 5h 6d | 10c Td Ts Th 8d"}]})
>>> rec.players[1].layout.tolist()[:3]
[47, 45, 4]
>>> rec.score().points.tolist()
[6, -6]
"""
from __future__ import annotations

from typing import Any

from ofc_fast.cards import (
    CARD_TEXT,
    CARD_TOKENS,
    EMPTY,
    RANKS,
    SUITS,
    format_row,
    parse_card_list,
    split_rows,
)
from ofc_fast.deprecation import warn_renamed
from ofc_fast.errors import REASONS, RecordError
from ofc_fast.records.builder import ChunkBuilder, chunk_from_records
from ofc_fast.records.chunk import Chunk, Group
from ofc_fast.records.hand import HandRecord, PlayerRecord, hand_records
from ofc_fast.records.model import (
    DEFAULT_RULES,
    FORMAT,
    NUMBER_BOUNDS,
    Rules,
    RulesEntry,
    clip,
    hand_dict,
    parse_row,
    player_dict,
)


def __getattr__(name: str) -> Any:
    """``HandError``: the deprecated name (0.1) of :class:`ofc_fast.errors.RecordError`."""
    if name == "HandError":
        warn_renamed("ofc_fast.records.HandError", "ofc_fast.errors.RecordError", since="0.3")
        return RecordError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FORMAT", "CARD_TOKENS", "CARD_TEXT", "REASONS", "Rules", "NUMBER_BOUNDS",
    "parse_row", "parse_card_list", "split_rows", "PlayerRecord", "HandRecord",
    "Chunk", "Group", "ChunkBuilder", "format_row", "hand_dict", "player_dict",
    "chunk_from_records", "DEFAULT_RULES", "clip", "EMPTY", "RANKS", "SUITS", "RulesEntry",
    "hand_records",
]
