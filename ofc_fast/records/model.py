"""The ``ofc-hand/1`` record model: what a recorded hand is, which rules
apply to it, what its numbers may hold, and how a finished hand is written
as a record (:func:`hand_dict`, the one record writer).

>>> hand_dict("pineapple", [[42, 41, 0, 30, 29, 28, 15, 13, 22, 21, 20, 23, 1]],
...           id="h1", names=["alice"], points=[0])["players"][0]["top"]
'Qh Qd 2c'
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson

from ofc_fast.cards import format_row, parse_card_list
from ofc_fast.errors import CardError, RecordError, RulesError, shorten
from ofc_fast.rules import Variant
from ofc_fast.rules import variant as _variant

__all__ = ["FORMAT", "HandError", "Rules", "DEFAULT_RULES", "NUMBER_BOUNDS", "PlayerRecord",
           "HandRecord", "hand_dict", "player_dict", "parse_row", "clip", "describe_cards",
           "integer_value"]

FORMAT = "ofc-hand/1"

HandError = RecordError
"""Deprecated alias of :class:`ofc_fast.errors.RecordError` (0.1 name)."""


def parse_row(cards, size: int | None = None) -> list[int]:
    """Card ids of one recorded row; with ``size``, check the number of cards.

    Raises :class:`CardError` naming the bad card.
    """
    ids = parse_card_list(cards)
    if size is not None and len(ids) != size:
        raise CardError(f"has {describe_cards(ids)}; it needs {size}")
    return ids


def describe_cards(ids: list) -> str:
    """``"4 cards (Qs Qd 2c 3c)"`` for messages: the list cut after a few cards (a huge row
    must not flood a message)."""
    n = len(ids)
    text = format_row(ids[:_SHOW_CARDS]) + (f" ... {n - _SHOW_CARDS:,} more" if n > _SHOW_CARDS
                                             else "")
    return f"{n:,} card{'s' if n != 1 else ''} ({text})"


_SHOW_CARDS = 20
_MAX_DETAIL = 300


def clip(text: object, limit: int = _MAX_DETAIL) -> str:
    """A message from elsewhere (a rules error ...), cut to ``limit`` characters."""
    out = str(text)
    if len(out) <= limit:
        return out
    return f"{out[:limit]}... ({len(out):,} characters)"


# ----------------------------------------------------------------------------- rules
@dataclass(frozen=True)
class Rules:
    """Which rules apply to a record: defaults for records naming no variant,
    or (``override=True``) for every record."""
    variant: str = "pineapple"
    options: Mapping | None = None
    override: bool = False
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _ids: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def resolve(self, name, options):
        """(Variant, label name, options) for a record's variant/options fields."""
        return self.resolve_id(name, options)[1]

    def resolve_id(self, name, options):
        """(small int id, (Variant, name, options)): the id is cheap to hash."""
        if self.override or name is None:
            name = self.variant
            options = self.options if (self.override or options is None) else options
        try:
            key = (name, orjson.dumps(options, option=orjson.OPT_SORT_KEYS) if options else b"")
            hit = self._cache.get(key)
        except (TypeError, orjson.JSONEncodeError):
            key, hit = None, None
        if hit is None:
            try:
                if not isinstance(name, str):
                    raise RulesError(f"variant must be a name, got {shorten(name)}")
                if options is not None and not isinstance(options, Mapping):
                    raise RulesError(f"options must be an object, got {shorten(options)}")
                if options is not None and not all(isinstance(k, str) for k in options):
                    raise RulesError(f"option names must be text, got {shorten(list(options))}")
                v = _variant(name, **(options or {}))
                rules = (v, name, dict(options) if options else None)
                same = next((i for i, r in self._ids.items() if r[0] is rules[0] or
                             (r[1:] == rules[1:])), None)
                hit = (len(self._ids) if same is None else same, rules)
                self._ids.setdefault(hit[0], rules)
            except RulesError as e:  # variant() validates every option and value
                hit = e
            if key is not None:
                self._cache[key] = hit
        if isinstance(hit, Exception):
            raise hit.with_traceback(None)
        return hit


DEFAULT_RULES = Rules()


# --------------------------------------------------------------------------- numbers
NUMBER_BOUNDS = {"in_fantasyland": (0, 255), "points": (-(1 << 63), (1 << 63) - 1)}
"""What a record's numbers may hold: ``in_fantasyland`` 0-255 (a uint8: the
k-th fantasyland hand in a row), recorded ``points`` any int64.  A number
written as a float (``3.0``) is read when it is integral and at most 2**53
in size (beyond that a float is not one exact integer)."""
BOUNDS_TEXT = {"in_fantasyland": " (0-255, or true/false)", "points": " (int64)"}
_EXACT = float(1 << 53)     # floats up to here hold every integer exactly
_INT_TEXT = re.compile(r"\s*[+-]?[0-9]+\s*")


def integer_value(x):
    """The integer a record's number field holds, or None if it holds none:
    null/false 0, true 1, an int, an integral float, or integer text."""
    if x is None or x is False:
        return 0
    if x is True:
        return 1
    t = x.__class__
    if t is int:
        return x
    if t is float:   # beyond 2**53 a float no longer says which integer was written
        return int(x) if x.is_integer() and -_EXACT <= x <= _EXACT else None
    if t is str and len(x) < 100 and _INT_TEXT.fullmatch(x):
        return int(x)
    return None



# ----------------------------------------------------------------------------- model
@dataclass
class PlayerRecord:
    """One player's finished hand in a record."""
    layout: np.ndarray                 # (n_cards,) uint8, top row first
    name: str | None = None
    in_fantasyland: int = 0
    discards: list = field(default_factory=list)
    points: int | None = None          # recorded points, if any

    def to_dict(self, v: Variant) -> dict:
        """This player as the player object of an ``ofc-hand/1`` record."""
        return player_dict(v, self.layout.tolist(), self.name, self.in_fantasyland,
                           self.discards, self.points)


@dataclass
class HandRecord:
    """One recorded hand (a table): players in seat order, seat 0 = button."""
    id: object
    variant: Variant
    players: list
    variant_name: str = "pineapple"
    options: dict | None = None
    source: str = ""
    line: int | None = None

    @classmethod
    def from_dict(cls, rec: Mapping, rules: Rules = DEFAULT_RULES, *, source: str = "",
                  line: int | None = None) -> HandRecord:
        """Parse and validate one ``ofc-hand/1`` dict (raises :class:`HandError`)."""
        from ofc_fast.records.builder import ChunkBuilder
        b = ChunkBuilder(source, rules, strict=True)
        b.add(rec, line)
        chunk = b.finish()
        chunk.validate()
        return chunk.record(0)

    def to_dict(self) -> dict:
        """This hand as an ``ofc-hand/1`` dict (:func:`hand_dict`)."""
        ps = self.players
        return hand_dict(self.variant, [p.layout.tolist() for p in ps], id=self.id,
                         names=[p.name for p in ps],
                         in_fantasyland=[p.in_fantasyland for p in ps],
                         discards=[p.discards for p in ps], points=[p.points for p in ps],
                         variant_name=self.variant_name, options=self.options)

    @property
    def tables(self) -> np.ndarray:
        """``(1, P, n_cards)`` uint8, for :func:`ofc_fast.score_tables`."""
        return np.stack([p.layout for p in self.players])[None]

    def score(self):
        """:class:`ofc_fast.TableResult` of this hand (each field has shape ``(P,)``)."""
        from ofc_fast.scoring import TableResult, score_tables
        fl = np.array([[p.in_fantasyland for p in self.players]], np.uint8)
        r = score_tables(self.tables, self.variant, in_fantasyland=fl, details=True)
        return TableResult(points=r.points[0], foul=r.foul[0], royalty_total=r.royalty_total[0],
                           next_fantasyland=r.next_fantasyland[0])


# ----------------------------------------------------------------------------- writer
def player_dict(v: Variant, layout: Sequence[int], name: object = None, in_fantasyland: int = 0,
                discards: Sequence[int] = (), points: int | None = None, *,
                complete: bool = False) -> dict:
    """One player of an ``ofc-hand/1`` record: ``name``, the rows of ``v``
    as card text, ``in_fantasyland``, ``discards`` and ``points``, in that
    order (see :func:`hand_dict`)."""
    d: dict[str, Any] = {} if name is None else {"name": name}
    pos = 0
    for row, size in zip(v.row_names, v.row_sizes, strict=True):
        d[row] = format_row(layout[pos:pos + size])
        pos += size
    if complete or in_fantasyland:
        d["in_fantasyland"] = int(in_fantasyland)
    if complete or len(discards):
        d["discards"] = format_row(discards)
    if points is not None:
        d["points"] = int(points)
    return d


def hand_dict(variant: Variant | str, layouts: Sequence[Sequence[int]], *, id: object = None,
              names: Sequence | None = None, in_fantasyland: Sequence[int] | None = None,
              discards: Sequence[Sequence[int]] | None = None,
              points: Sequence[int | None] | None = None, variant_name: str | None = None,
              options: Mapping | None = None, complete: bool = False) -> dict:
    """A finished hand as an ``ofc-hand/1`` dict (one JSON Lines object): the
    one record writer of ofc_fast (records, the chunk writers, ``Game.record``).

    ``layouts`` holds each player's card ids (top row first) in seat order,
    seat 0 = button; ``names``, ``in_fantasyland`` (0 normal, *k* for the
    *k*-th fantasyland hand in a row), ``discards`` (card ids) and ``points``
    have one entry per player (None: not given).  ``variant_name`` is written
    as ``variant`` (default: the variant's name) and ``options`` as
    ``options`` (the keyword arguments that rebuild the variant).

    The compact form (default) leaves out what holds nothing: an unnamed
    player's name, ``in_fantasyland`` 0, no discards, points None, empty
    options.  ``complete=True`` writes ``in_fantasyland``, ``discards`` and
    ``options`` always, as ``Game.record`` does.
    """
    v = _variant(variant) if isinstance(variant, str) else variant
    P = len(layouts)
    rec: dict[str, Any] = {"format": FORMAT, "id": id,
                           "variant": v.name if variant_name is None else variant_name}
    if options or (complete and options is not None):
        rec["options"] = options
    rec["players"] = [
        player_dict(v, layouts[i], None if names is None else names[i],
                    0 if in_fantasyland is None else in_fantasyland[i],
                    () if discards is None else discards[i],
                    None if points is None else points[i], complete=complete)
        for i in range(P)]
    return rec
