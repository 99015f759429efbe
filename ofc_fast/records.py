"""Recorded hands: the ``ofc-hand/1`` record model, tolerant card parsing and
grouping into batches for :func:`ofc_fast.score_tables`.

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

import os
import re
from collections.abc import Iterable, Mapping
from operator import itemgetter
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import orjson

from ofc_fast.cards import (CARD_TEXT, CARD_TOKENS, EMPTY, RANKS, SUITS, format_row,
                            parse_card_list, split_rows)
from ofc_fast.errors import REASONS, CardError, RecordError, RulesError, shorten
from ofc_fast.rules import Variant, variant as _variant

__all__ = [
    "FORMAT", "CARD_TOKENS", "CARD_TEXT", "HandError", "REASONS", "Rules", "NUMBER_BOUNDS",
    "parse_row", "parse_card_list", "split_rows", "PlayerRecord", "HandRecord",
    "Chunk", "Group", "ChunkBuilder", "format_row",
]

FORMAT = "ofc-hand/1"

# ---------------------------------------------------------------------------- errors
HandError = RecordError
"""Deprecated alias of :class:`ofc_fast.errors.RecordError` (0.1 name)."""


def parse_row(cards, size: int | None = None) -> list[int]:
    """Card ids of one recorded row; with ``size``, check the number of cards.

    Raises :class:`CardError` naming the bad card.
    """
    ids = parse_card_list(cards)
    if size is not None and len(ids) != size:
        raise CardError(f"has {_n_cards(ids)}; it needs {size}")
    return ids


def _n_cards(ids: list) -> str:
    """``"4 cards (Qs Qd 2c 3c)"``, the list cut after a few cards (a huge row
    must not flood a message)."""
    n = len(ids)
    text = format_row(ids[:_SHOW_CARDS]) + (f" ... {n - _SHOW_CARDS:,} more" if n > _SHOW_CARDS
                                             else "")
    return f"{n:,} card{'s' if n != 1 else ''} ({text})"


_SHOW_CARDS = 20
_MAX_DETAIL = 300


def clip(text: str, limit: int = _MAX_DETAIL) -> str:
    """A message from elsewhere (a rules error ...), cut to ``limit`` characters."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


# ----------------------------------------------------------------------------- rules
@dataclass(frozen=True)
class Rules:
    """Which rules apply to a record: defaults for records naming no variant,
    or (``override=True``) for every record."""
    variant: str = "pineapple"
    options: Mapping | None = None
    override: bool = False

    def __post_init__(self):
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "_ids", {})

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
        d: dict[str, Any] = {} if self.name is None else {"name": self.name}
        pos = 0
        for row, size in zip(v.row_names, v.row_sizes):
            d[row] = format_row(self.layout[pos:pos + size].tolist())
            pos += size
        if self.in_fantasyland:
            d["in_fantasyland"] = int(self.in_fantasyland)
        if self.discards:
            d["discards"] = format_row(self.discards)
        if self.points is not None:
            d["points"] = int(self.points)
        return d


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
        b = ChunkBuilder(source, rules, strict=True)
        b.add(rec, line)
        chunk = b.finish()
        chunk.validate()
        return chunk.record(0)

    def to_dict(self) -> dict:
        d = {"format": FORMAT, "id": self.id, "variant": self.variant_name}
        if self.options:
            d["options"] = self.options
        d["players"] = [p.to_dict(self.variant) for p in self.players]
        return d

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


# ---------------------------------------------------------------------------- chunks
@dataclass
class Group:
    """Hands of one chunk sharing rules and player count: one batch call.

    ``cards`` ``(G, P, n_cards)`` uint8, ``in_fantasyland`` ``(G, P)``,
    ``hands`` ``(G,)`` hand positions in the chunk, ``rows`` ``(G, P)`` row
    (player-hand) positions in the chunk.
    """
    variant: Variant
    n_players: int
    cards: np.ndarray
    in_fantasyland: np.ndarray
    hands: np.ndarray
    rows: np.ndarray
    result: object = None


@dataclass
class Chunk:
    """A run of recorded hands in input order, grouped for scoring.

    Hand-level fields have one entry per hand (H), row-level fields one per
    player-hand (N rows; a hand's players are consecutive rows in seat order).
    After :meth:`score`, ``points``, ``royalties``, ``foul`` and
    ``fantasyland`` hold our results per row.
    """
    source: str
    hand_start: np.ndarray          # (H + 1,) first row of each hand, then N
    hand_id: Any                    # (H,) list or pyarrow array
    hand_line: np.ndarray           # (H,) line / row number of each hand in the source
    hand_variant: Any               # (H,) index into ``variants`` (list or int array)
    variants: list                  # [(Variant, name, options)]
    groups: list
    name: Any                       # (N,) list or pyarrow array (None = unnamed)
    in_fantasyland: np.ndarray      # (N,) uint8
    recorded: np.ndarray            # (N,) int64 recorded points
    has_recorded: np.ndarray        # (N,) bool
    discards: tuple | None = None   # (offsets (N + 1,), ids) of discarded cards, or None
    raw: list | None = None         # (H,) source dicts (JSON Lines), or None
    arrow: Any = None               # source record batch (Parquet), or None
    errors: list = field(default_factory=list)   # HandError of skipped hands
    row_line: np.ndarray | None = None  # (N,) line of each row when rows have their own
    unit: str = "line"              # what hand_line counts: "line" or "row"
    position: int = -1              # how far the reader got: bytes (text) or rows (Parquet)
    n_records: int = -1             # hand records read into this chunk, good and bad (-1: unknown)
    points: np.ndarray | None = None
    royalties: np.ndarray | None = None
    foul: np.ndarray | None = None
    fantasyland: np.ndarray | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def n_hands(self) -> int:
        return len(self.hand_start) - 1

    @property
    def n_rows(self) -> int:
        return int(self.hand_start[-1])

    @property
    def n_players(self) -> np.ndarray:
        return np.diff(self.hand_start)

    @property
    def seat(self) -> np.ndarray:
        """(N,) seat of each row."""
        starts = np.repeat(self.hand_start[:-1], self.n_players)
        return (np.arange(self.n_rows) - starts).astype(np.int8)

    def row_hand(self) -> np.ndarray:
        """(N,) hand index of each row."""
        return np.repeat(np.arange(self.n_hands), self.n_players)

    def hand_ids(self) -> list:
        ids = self.hand_id
        return ids.to_pylist() if hasattr(ids, "to_pylist") else list(ids)

    def names(self) -> list:
        n = self.name
        return n.to_pylist() if hasattr(n, "to_pylist") else list(n)

    def cards(self, width: int | None = None) -> np.ndarray:
        """(N, width) uint8 card ids per row (EMPTY-padded; width = widest layout)."""
        widest = max((g.cards.shape[2] for g in self.groups), default=13)
        width = widest if width is None else width
        if width < widest:
            return self.cards()[:, :width]
        hit = self._cache.get(("cards", width))
        if hit is not None:
            return hit
        out = np.full((self.n_rows, width), EMPTY, np.uint8)
        for g in self.groups:
            out[g.rows.reshape(-1), :g.cards.shape[2]] = g.cards.reshape(-1, g.cards.shape[2])
        self._cache[("cards", width)] = out
        return out

    def line_of(self, r: int, h: int | None = None) -> int:
        """Line (text) or row (Parquet) number of row ``r`` in the source."""
        if self.row_line is not None:
            return int(self.row_line[r])
        if h is None:
            h = int(np.searchsorted(self.hand_start, r, "right") - 1)
        if self.unit == "row":
            return int(self.hand_line[h]) + r - int(self.hand_start[h])
        return int(self.hand_line[h])

    def hand_rules(self, h: int):
        """(Variant, name, options) of hand ``h``."""
        return self.variants[self.hand_variant[h]]

    # ------------------------------------------------------------------ validation
    def validate(self, skip_bad: bool = False) -> Chunk:
        """Check every table (cards 0-51, each card once per table incl. discards).

        Raises the first :class:`HandError` (in input order, counting errors
        found while reading), or with ``skip_bad`` drops bad hands and keeps
        their errors in ``errors``.  Returns the (possibly smaller) chunk.
        """
        bad: dict[int, HandError] = {}
        from ofc_fast.layouts import LayoutError
        for g in self.groups:
            # The scoring kernel checks every card (0-51, once per table) as it
            # goes and costs about as much as a separate check: score now, keep
            # the results, and look for every bad table only if one is found.
            try:
                g.result = _score_group(g)
            except LayoutError:
                g.result = None
                for gi, err in _bad_tables(self, g):
                    bad[int(g.hands[gi])] = err
        if self.discards is not None:
            for h, err in _bad_discards(self):
                bad.setdefault(h, err)
        if not bad:
            if self.errors and not skip_bad:
                raise self.errors[0]
            return self
        errors = sorted(self.errors + list(bad.values()),
                        key=lambda e: e.line if e.line is not None else -1)
        if not skip_bad:
            raise errors[0]
        return self.drop(np.fromiter(bad, np.int64, len(bad)), errors)

    def drop(self, hands: np.ndarray, errors: list) -> Chunk:
        """A chunk without the given hand positions."""
        keep = np.ones(self.n_hands, bool)
        keep[hands] = False
        counts = np.diff(self.hand_start)
        row_keep = np.repeat(keep, counts)
        new_start = np.concatenate([[0], np.cumsum(counts[keep])]).astype(np.int64)
        hand_map = np.cumsum(keep) - 1
        row_map = np.cumsum(row_keep) - 1
        groups = []
        for g in self.groups:
            k = keep[g.hands]
            if k.any():
                groups.append(Group(g.variant, g.n_players, np.ascontiguousarray(g.cards[k]),
                                    np.ascontiguousarray(g.in_fantasyland[k]),
                                    hand_map[g.hands[k]], row_map[g.rows[k]]))
        kept = np.flatnonzero(keep)
        rows = np.flatnonzero(row_keep)

        def take(x, idx):
            if x is None:
                return None
            if hasattr(x, "take") and not isinstance(x, np.ndarray):
                import pyarrow as pa
                return x.take(pa.array(idx))
            if isinstance(x, np.ndarray):
                return x[idx]
            return [x[i] for i in idx]

        return Chunk(
            source=self.source, hand_start=new_start, hand_id=take(self.hand_id, kept),
            hand_line=self.hand_line[kept],
            hand_variant=np.asarray(self.hand_variant, np.int64)[kept],
            variants=self.variants, groups=groups, name=take(self.name, rows),
            in_fantasyland=self.in_fantasyland[rows], recorded=self.recorded[rows],
            has_recorded=self.has_recorded[rows],
            discards=None if self.discards is None else _take_ragged(self.discards, rows),
            raw=take(self.raw, kept),
            arrow=None if self.arrow is None else self.arrow.take(
                __import__("pyarrow").array(rows)),
            errors=errors, row_line=None if self.row_line is None else self.row_line[rows],
            unit=self.unit, position=self.position, n_records=self.n_records)

    # --------------------------------------------------------------------- scoring
    def score(self) -> Chunk:
        """Score every group with one :func:`ofc_fast.score_tables` call each."""
        n = self.n_rows
        self.points = np.zeros(n, np.int32)
        self.royalties = np.zeros(n, np.int16)
        self.foul = np.zeros(n, bool)
        self.fantasyland = np.zeros(n, np.uint8)
        for g in self.groups:
            r = g.result if g.result is not None else _score_group(g)
            g.result = r
            rows = g.rows
            if len(self.groups) == 1 and rows.size == n:
                self.points, self.royalties = r.points.reshape(-1), r.royalty_total.reshape(-1)
                self.foul, self.fantasyland = r.foul.reshape(-1), r.next_fantasyland.reshape(-1)
                break
            self.points[rows] = r.points
            self.royalties[rows] = r.royalty_total
            self.foul[rows] = r.foul
            self.fantasyland[rows] = r.next_fantasyland
        return self

    def record(self, h: int) -> HandRecord:
        """Hand ``h`` as a :class:`HandRecord` (recorded points, not ours)."""
        v, vname, opts = self.hand_rules(h)
        lo, hi = int(self.hand_start[h]), int(self.hand_start[h + 1])
        cards = self.cards()[:, :v.n_cards]
        names = self.name[lo:hi]
        names = names.to_pylist() if hasattr(names, "to_pylist") else list(names)
        players = []
        for i, r in enumerate(range(lo, hi)):
            players.append(PlayerRecord(
                layout=cards[r].copy(), name=names[i], in_fantasyland=int(self.in_fantasyland[r]),
                discards=self.discard_ids(r),
                points=int(self.recorded[r]) if self.has_recorded[r] else None))
        hid = self.hand_id[h]
        hid = hid.as_py() if hasattr(hid, "as_py") else hid
        return HandRecord(id=hid, variant=v, players=players, variant_name=vname, options=opts,
                          source=self.source, line=int(self.hand_line[h]))

    def discard_ids(self, r: int) -> list:
        """Discarded card ids of row ``r``."""
        if self.discards is None:
            return []
        off, ids = self.discards
        return ids[off[r]:off[r + 1]].tolist()

    def records(self):
        for h in range(self.n_hands):
            yield self.record(h)


_POOL = None


def _score_group(g: Group):
    """One ``score_tables`` call; a big group is split over a few threads (the
    kernel releases the GIL)."""
    from ofc_fast.scoring import TableResult, score_tables
    G = len(g.cards)
    workers = min(4, os.cpu_count() or 1)
    if workers < 2 or G * g.n_players < 400_000:
        return score_tables(g.cards, g.variant, in_fantasyland=g.in_fantasyland, details=True)
    global _POOL
    if _POOL is None:
        from concurrent.futures import ThreadPoolExecutor
        _POOL = ThreadPoolExecutor(workers, thread_name_prefix="ofc-fast-score")
    edges = np.linspace(0, G, workers + 1).astype(int)
    parts = [_POOL.submit(score_tables, g.cards[a:b], g.variant,
                          in_fantasyland=g.in_fantasyland[a:b], details=True)
             for a, b in zip(edges[:-1], edges[1:])]
    res = [p.result() for p in parts]
    return TableResult(*(np.concatenate([getattr(r, f) for r in res])
                         for f in ("points", "foul", "royalty_total", "next_fantasyland")))


_BIT = np.array([1 << c for c in range(52)] + [0] * 204, np.uint64)


def _bad_tables(chunk: Chunk, g: Group):
    """(position in group, HandError) of every bad table of a group."""
    cards = g.cards
    G = len(cards)
    if G == 0:
        return []
    flat = cards.reshape(G, -1)
    out_of_range = (flat > 51).any(axis=1)
    masks = np.bitwise_or.reduce(_BIT[flat], axis=1)
    dup = np.bitwise_count(masks) != np.where(out_of_range, -1, flat.shape[1])
    bad = np.flatnonzero(dup | out_of_range)
    return [(int(i), _table_error(chunk, g, int(i))) for i in bad]


def _table_error(chunk: Chunk, g: Group, i: int) -> HandError:
    h = int(g.hands[i])
    v = g.variant
    names = _names_of(chunk, h)
    where: dict[int, tuple] = {}
    for p in range(g.n_players):
        ctx = _hand_ctx(chunk, h, p)
        pos = 0
        for row, size in zip(v.row_names, v.row_sizes):
            for k, c in enumerate(g.cards[i, p, pos:pos + size].tolist(), start=pos):
                if c == EMPTY:
                    return HandError("wrong row size", f"no card in slot {k} of the layout "
                                     f"(empty or null; Parquet column c{k:02d})",
                                     seat=p, name=names[p], row=row, **ctx)
                if c > 51:
                    return HandError("unknown card", f"card id {c} is not a card (0-51)",
                                     seat=p, name=names[p], row=row, **ctx)
                if c in where:
                    q, qrow = where[c]
                    other = "the same row" if (q, qrow) == (p, row) else \
                        (f"its {qrow} row" if q == p else f"seat {q} {qrow} row")
                    return HandError("duplicate card", f"{CARD_TEXT[c]} appears twice "
                                     f"(also in {other})", seat=p, name=names[p], row=row, **ctx)
                where[c] = (p, row)
            pos += size
    return HandError("duplicate card", "a card appears twice", **_hand_ctx(chunk, h))


def _hand_ctx(chunk: Chunk, h: int, seat: int | None = None) -> dict:
    hid = chunk.hand_id[h]
    hid = hid.as_py() if hasattr(hid, "as_py") else hid
    line = int(chunk.hand_line[h])
    if seat is not None:
        line = chunk.line_of(int(chunk.hand_start[h]) + seat, h)
    return dict(source=chunk.source, line=line, hand_id=hid, unit=chunk.unit)


def _take_ragged(ragged, rows):
    off, ids = ragged
    lens = (off[1:] - off[:-1])[rows]
    new_off = np.zeros(len(rows) + 1, np.int64)
    np.cumsum(lens, out=new_off[1:])
    idx = np.repeat(off[:-1][rows] - new_off[:-1], lens) + np.arange(int(new_off[-1]))
    return new_off, ids[idx]


def _names_of(chunk: Chunk, h: int) -> list:
    lo, hi = int(chunk.hand_start[h]), int(chunk.hand_start[h + 1])
    n = chunk.name[lo:hi]
    return n.to_pylist() if hasattr(n, "to_pylist") else list(n)


def _placed_masks(chunk: Chunk) -> np.ndarray:
    """(H,) uint64: the cards placed at each table, one bit per card (ids above
    51 set none; hands in no group have none)."""
    from ofc_fast._records import placed_masks
    placed = np.zeros(chunk.n_hands, np.uint64)
    for g in chunk.groups:
        flat = g.cards.reshape(len(g.cards), -1)
        if not flat.flags.c_contiguous or flat.dtype != np.uint8:
            flat = np.ascontiguousarray(flat, np.uint8)
        placed_masks(flat, np.ascontiguousarray(g.hands, np.int64), placed)
    return placed


def _bad_discards(chunk: Chunk):
    """(hand, HandError) for discards that repeat a card of their table or are
    not cards (one pass in C; only bad hands are looked at one by one)."""
    from ofc_fast._records import bad_discards, bad_discards_at
    off, ids = cast(tuple, chunk.discards)
    if not len(ids):
        return []
    off = np.ascontiguousarray(off, np.int64)
    ids = np.ascontiguousarray(ids, np.uint8)
    starts = np.ascontiguousarray(chunk.hand_start, np.int64)
    H = chunk.n_hands
    bad = None
    if len(chunk.groups) == 1 and len(chunk.groups[0].hands) == H:
        # one group of every hand in order (the usual case): one pass
        g = chunk.groups[0]
        flat = g.cards.reshape(H, -1)
        if not flat.flags.c_contiguous or flat.dtype != np.uint8:
            flat = np.ascontiguousarray(flat, np.uint8)
        try:
            bad = bad_discards_at(flat, np.ascontiguousarray(g.hands, np.int64), off, ids,
                                  starts)
        except ValueError:
            bad = None
    if bad is None:
        bad = bad_discards(off, ids, starts, _placed_masks(chunk))
    return [(h, _discard_error(chunk, h)) for h in np.flatnonzero(bad).tolist()]


def _discard_error(chunk: Chunk, h: int) -> HandError:
    off, ids = cast(tuple, chunk.discards)
    lo_row, hi_row = int(chunk.hand_start[h]), int(chunk.hand_start[h + 1])
    placed = {}
    for g in chunk.groups:
        k = np.flatnonzero(g.hands == h)
        if len(k):
            placed = {c: p for p in range(g.n_players) for c in g.cards[k[0], p].tolist()}
    names = _names_of(chunk, h)
    seen: dict = {}
    for r in range(lo_row, hi_row):
        seat = r - lo_row
        ctx = _hand_ctx(chunk, h, seat)
        for c in ids[off[r]:off[r + 1]].tolist():
            if c > 51:
                return HandError("unknown card", f"discard id {c} is not a card (0-51)",
                                 seat=seat, name=names[seat], **ctx)
            if c in placed:
                where = "by this player" if placed[c] == seat else f"by seat {placed[c]}"
                return HandError("duplicate card", f"discard {CARD_TEXT[c]} is also placed "
                                 f"{where}", seat=seat, name=names[seat], **ctx)
            if c in seen:
                who = "this player" if seen[c] == seat else f"seat {seen[c]}"
                return HandError("duplicate card", f"discard {CARD_TEXT[c]} is also discarded "
                                 f"by {who}", seat=seat, name=names[seat], **ctx)
            seen[c] = seat
    return HandError("duplicate card", "a discarded card appears twice", **_hand_ctx(chunk, h))


# --------------------------------------------------------------------------- builder
class _Acc:
    """The hands of one (rules, player count) group: canonical text of the hands
    whose rows are plain ``Ks Qd 2c`` text (decoded at finish, vectorised), and
    card ids of the others (read token by token when added)."""
    __slots__ = ("variant", "P", "hands", "canon", "text", "text_pos", "special")

    def __init__(self, variant, P):
        self.variant, self.P = variant, P
        self.hands = []
        self.canon = tuple(_ROW_CHARS[k] for k in variant.row_sizes) * P
        self.text, self.text_pos = [], []     # hand text, its position in the group
        self.special = {}                     # position in the group -> card ids


_RANK_LUT = np.full(256, 255, np.uint8)
_SUIT_LUT = np.full(256, 255, np.uint8)
for _i, _r in enumerate(RANKS):
    _RANK_LUT[ord(_r)] = _RANK_LUT[ord(_r.lower())] = _i
for _i, _s in enumerate(SUITS):
    _SUIT_LUT[ord(_s)] = _SUIT_LUT[ord(_s.upper())] = _i


def _decode_text(text: str):
    """Card ids of ``"Ks Qd 2c ..."`` text (two ASCII characters a card, one space
    between), vectorised; and a mask of tokens that are not cards."""
    b = np.frombuffer((text + " ").encode("ascii"), np.uint8).reshape(-1, 3)
    r, s = _RANK_LUT[b[:, 0]], _SUIT_LUT[b[:, 1]]
    bad = (r == 255) | (s == 255) | (b[:, 2] != 32)
    return (r << 2) | (s & 3), bad


NUMBER_BOUNDS = {"in_fantasyland": (0, 255), "points": (-(1 << 63), (1 << 63) - 1)}
"""What a record's numbers may hold: ``in_fantasyland`` 0-255 (a uint8: the
k-th fantasyland hand in a row), recorded ``points`` any int64.  A number
written as a float (``3.0``) is read when it is integral and at most 2**53
in size (beyond that a float is not one exact integer)."""
_BOUNDS_TEXT = {"in_fantasyland": " (0-255, or true/false)", "points": " (int64)"}
_EXACT = float(1 << 53)     # floats up to here hold every integer exactly
_INT_TEXT = re.compile(r"\s*[+-]?[0-9]+\s*")


def _integer(x):
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


_ROWS_OF = {3: itemgetter("top", "middle", "bottom"),
            4: itemgetter("top", "third", "second", "bottom")}
_OPTIONAL = ("in_fantasyland", "points", "name", "discards")
_ROW_CHARS = {3: 8, 5: 14}   # canonical text length of a 3- and a 5-card row


class ChunkBuilder:
    """Collects records (``ofc-hand/1`` dicts) into a :class:`Chunk`.

    ``add(record, line)`` checks the record's shape and keeps each player's
    row text; :meth:`finish` turns all the text of a group into card ids at
    once (one split and one dict lookup per token, in C loops).  Anything
    unusual (lists, compact text, one-string rows, bad input) takes the
    tolerant path, which either reads it or says what is wrong as a
    :class:`HandError` naming file, line, hand, seat, row and card.  With
    ``strict=True`` the first record-level error raises at once; otherwise
    errors are collected and bad hands left out of the chunk.
    """

    def __init__(self, source: str = "", rules: Rules = DEFAULT_RULES, *, strict: bool = True,
                 keep_raw: bool = False):
        self.source, self.rules, self.strict, self.keep_raw = source, rules, strict, keep_raw
        self.accs: dict = {}
        self.variants: list = []
        self._vindex: dict = {}
        self._info: dict = {}
        self._last_name, self._last = None, None
        self.hand_id: list = []
        self.hand_line: list = []
        self.hand_variant: list = []
        self.hand_start = [0]
        self.opt: list = []       # per player: in_fantasyland, points, name, discards
        self.raw: list | None = [] if keep_raw else None
        self.errors: list = []
        self.n_rows = 0
        self.records = 0          # records read: added, or rejected with an error

    def __len__(self) -> int:
        return len(self.hand_id)

    def fail(self, err: HandError):
        """Keep the error of a record (raise it when strict)."""
        if self.strict:
            raise err
        self.errors.append(err)

    def reject(self, err: HandError):
        """A record that could not even be read (bad JSON ...): counted, and
        its error kept (raised when strict)."""
        self.records += 1
        self.fail(err)

    def add(self, rec, line: int | None = None) -> bool:
        """Add one record; False (and an error) if it is bad."""
        self.records += 1
        try:
            self._add(rec, line)
            return True
        except HandError as e:
            self.fail(e)
            return False

    def _add(self, rec, line):
        src = self.source
        if rec.__class__ is not dict:
            if not isinstance(rec, Mapping):
                raise HandError("bad record", f"a hand record is a JSON object, got "
                                f"{type(rec).__name__}", source=src, line=line)
            rec = dict(rec)
        rget = rec.get
        hid = rget("id")
        fmt = rget("format")
        if fmt is not None and fmt != FORMAT:
            raise HandError("bad record", f"unsupported format {shorten(fmt)}; this reader knows "
                            f"{FORMAT!r}",
                            source=src, line=line, hand_id=hid)
        vname = rget("variant")
        opts = rget("options")
        if opts is None and vname == self._last_name and self._last is not None:
            rid, info = self._last
        else:
            try:
                rid, rules = self.rules.resolve_id(vname, opts)
            except Exception as e:  # noqa: BLE001 - RulesError or a bad option value
                raise HandError("unknown variant", clip(e), source=src, line=line,
                                hand_id=hid) from None
            info = self._info.get(rid)
            if info is None:
                v = rules[0]
                info = self._info[rid] = (v, v.min_players, v.max_players, _ROWS_OF[v.n_rows])
                self._vindex[rid] = len(self.variants)
                self.variants.append(rules)
            if opts is None:
                self._last_name, self._last = vname, (rid, info)
        v, pmin, pmax, rows_of = info
        players = rget("players")
        if players.__class__ is not list or not players:
            raise HandError("bad record", "'players' must be a non-empty list of player objects "
                            "in seat order", source=src, line=line, hand_id=hid)
        P = len(players)
        if not pmin <= P <= pmax:
            raise HandError("wrong number of players", f"{P} players; {v.name} is played by "
                            f"{pmin}-{pmax}", source=src, line=line, hand_id=hid)
        key = rid * 8 + P
        acc = self.accs.get(key)
        if acc is None:
            acc = self.accs[key] = _Acc(v, P)
        opt = self.opt
        n_opt = len(opt)
        rows: list = []
        try:
            for p in players:
                try:
                    rows += rows_of(p)
                except (KeyError, TypeError):
                    rows += self._slow_player(p, v, len(rows) // v.n_rows, hid, line)
                opt += map(p.get, _OPTIONAL)
            # A row of 3k - 1 characters holds at most k tokens (each has 2+): when
            # every row is that long and plain ASCII, the hand's text is decoded with
            # the others at finish(), vectorised; anything else is read here.
            pos = len(acc.hands)
            try:
                canon = tuple(map(len, rows)) == acc.canon
            except TypeError:
                canon = False
            if canon:
                try:
                    text = " ".join(rows)
                except TypeError:
                    text = ""
                if text.isascii() and text:
                    acc.text.append(text)
                    acc.text_pos.append(pos)
                else:
                    acc.special[pos] = self._rows_ids(rows, v, P, hid, line)
            else:
                acc.special[pos] = self._rows_ids(rows, v, P, hid, line)
        except BaseException:
            del opt[n_opt:]
            if len(acc.text_pos) > len(acc.hands):
                del acc.text[len(acc.hands):], acc.text_pos[len(acc.hands):]
            acc.special.pop(len(acc.hands), None)
            raise
        acc.hands.append(len(self.hand_id))
        self.hand_id.append(hid)
        self.hand_line.append(line)
        self.hand_variant.append(self._vindex[rid])
        self.n_rows += P
        self.hand_start.append(self.n_rows)
        if self.raw is not None:
            self.raw.append(rec)

    def _rows_ids(self, rows, v: Variant, P, hid, line, names=None) -> list:
        """Card ids of a hand's rows read one by one, or a HandError for the first bad row."""
        out = []
        R = v.n_rows
        if names is None:
            names = self.opt[len(self.opt) - 4 * P + 2::4]
        for i, text in enumerate(rows):
            seat, r = divmod(i, R)
            ctx = dict(source=self.source, line=line, hand_id=hid, seat=seat,
                       name=names[seat], row=v.row_names[r])
            try:
                ids = parse_card_list(text)
            except CardError as e:
                raise HandError("unknown card", clip(e), **ctx) from None
            if len(ids) != v.row_sizes[r]:
                raise HandError("wrong row size", f"{_n_cards(ids)}; the "
                                f"{v.row_names[r]} row needs {v.row_sizes[r]}", **ctx)
            out += ids
        return out

    def _slow_player(self, p, v: Variant, seat, hid, line) -> list:
        """Tolerant parse of one player's rows to canonical row text, or a HandError."""
        ctx = dict(source=self.source, line=line, hand_id=hid, seat=seat)
        if not isinstance(p, Mapping):
            raise HandError("bad record", f"a player is an object with rows, got {shorten(p)}",
                            **ctx)
        ctx["name"] = p.get("name")
        names = v.row_names
        given = [r for r in names if r in p]
        if "rows" in p and not given:
            rows = p["rows"]
            try:
                if isinstance(rows, str):
                    rows = split_rows(rows, v.n_rows)
                elif not isinstance(rows, (list, tuple)) or len(rows) != v.n_rows:
                    raise CardError(f"'rows' must be one string with rows separated by "
                                         f"'/' or '|', or a list of {v.n_rows} rows")
            except CardError as e:
                raise HandError("wrong row size", clip(e), **ctx) from None
        else:
            missing = [r for r in names if r not in p]
            if missing:
                extra = [r for r in ("top", "middle", "bottom", "third", "second") if r in p
                         and r not in names]
                hint = f" ({v.name} has rows {', '.join(names)})" if extra else ""
                raise HandError("wrong row size", f"missing {', '.join(missing)} row"
                                f"{'s' if len(missing) > 1 else ''}{hint}", **ctx)
            rows = [p[r] for r in names]
        out = []
        for row, size, cards in zip(names, v.row_sizes, rows):
            try:
                ids = parse_card_list(cards)
            except CardError as e:
                raise HandError("unknown card", clip(e), row=row, **ctx) from None
            if len(ids) != size:
                raise HandError("wrong row size", f"{_n_cards(ids)}; the {row} row needs {size}",
                                row=row, **ctx)
            out.append(format_row(ids))
        return out

    # ------------------------------------------------------------------ finish
    def _ctx(self, h: int, seat=None, **kw) -> dict:
        name = None
        if seat is not None:
            name = self.opt[4 * (self.hand_start[h] + seat) + 2]
        return dict(source=self.source, line=self.hand_line[h], hand_id=self.hand_id[h],
                    seat=seat, name=name, **kw)

    def _numbers(self, values: list, key: str, bad: dict, allow_none: bool) -> np.ndarray:
        """int64 array of in_fantasyland or points; bad values -> ``bad``.

        Bounds: :data:`NUMBER_BOUNDS`.  Integers, true/false, integral floats
        (``3.0``) and integer text (``"-12"``) are read; anything else, or a
        number out of bounds, is a ``bad value``."""
        lo, hi = NUMBER_BOUNDS[key]
        if set(map(type, values)) <= {int, bool, type(None)}:
            try:
                arr = np.array([0 if x is None else x for x in values] if None in values
                               else values, np.int64)
            except OverflowError:      # beyond int64: looked at one by one below
                arr = None
            if arr is not None and (lo < 0 or not ((arr < lo) | (arr > hi)).any()):
                return arr
        arr = np.zeros(len(values), np.int64)
        starts = np.asarray(self.hand_start)
        for r, x in enumerate(values):
            y = _integer(x)
            if y is not None and lo <= y <= hi:
                arr[r] = y
                continue
            h = int(np.searchsorted(starts, r, "right") - 1)
            if h not in bad:
                why = f"{key} must be an integer{_BOUNDS_TEXT[key]}, got {shorten(x)}"
                if y is not None or (x.__class__ is float and x.is_integer()):
                    why += " (out of range)"
                bad[h] = HandError("bad value", why, **self._ctx(h, r - int(starts[h])))
        return arr

    def _group_cards(self, acc: _Acc, names, bad: dict) -> np.ndarray:
        """(G, P, n) card ids of a group; hands with bad cards -> ``bad``."""
        v, P, n = acc.variant, acc.P, acc.variant.n_cards
        G = len(acc.hands)
        out = np.empty((G, P * n), np.uint8)
        if acc.text:
            ids, wrong = _decode_text(" ".join(acc.text))
            pos = np.asarray(acc.text_pos, np.int64)
            out[pos] = ids.reshape(-1, P * n)
            if wrong.any():
                starts = self.hand_start
                for j in np.unique(np.flatnonzero(wrong) // (P * n)).tolist():
                    g = int(pos[j])
                    h = acc.hands[g]
                    text = acc.text[j]
                    rows, k = [], 0
                    for size in v.row_sizes * P:
                        rows.append(text[k:k + 3 * size - 1])
                        k += 3 * size
                    # Not the plain form after all (other separators, street
                    # digits, glued tokens that happen to have its length): the
                    # grammar's reader decides.
                    try:
                        out[g] = self._rows_ids(rows, v, P, self.hand_id[h], self.hand_line[h],
                                                names[starts[h]:starts[h] + P])
                    except RecordError as e:
                        bad.setdefault(h, e)
                        out[g] = EMPTY
        for g, ids in acc.special.items():
            out[g] = ids
        return out.reshape(G, P, n)

    def _discards(self, values: list, bad: dict):
        """(offsets, ids) of the discards (vectorised for plain text); bad ones -> ``bad``."""
        N = len(values)
        if not any(values):
            return None
        if set(map(type, values)) <= {str, type(None)}:
            texts = [x or "" for x in values]
            lens = np.fromiter(map(len, texts), np.int64, N)
            joined = " ".join(filter(None, texts))
            if ((lens == 0) | (lens % 3 == 2)).all() and joined.isascii():
                ids, wrong = _decode_text(joined)
                if not wrong.any():
                    off = np.zeros(N + 1, np.int64)
                    np.cumsum((lens + 1) // 3, out=off[1:])
                    return off, ids
        starts = np.asarray(self.hand_start)
        flat: list = []
        offs = [0]
        for r, x in enumerate(values):
            if x:
                try:
                    flat += parse_card_list(x)
                except CardError as e:
                    h = int(np.searchsorted(starts, r, "right") - 1)
                    seat = r - int(starts[h])
                    if h not in bad:
                        bad[h] = HandError(
                            "unknown card", f"discards: {clip(e)}", source=self.source,
                            line=self.hand_line[h], hand_id=self.hand_id[h], seat=seat,
                            name=self.opt[4 * r + 2])
            offs.append(len(flat))
        return np.array(offs, np.int64), np.array(flat, np.uint8)

    def finish(self, arrow=None) -> Chunk:
        """The :class:`Chunk` of everything added so far (bad hands left out,
        their errors in ``chunk.errors``)."""
        starts = np.asarray(self.hand_start, np.int64)
        hl = self.hand_line
        line = np.asarray(hl if None not in hl else
                          [i + 1 if x is None else x for i, x in enumerate(hl)], np.int64)
        opt = self.opt
        bad: dict = {}
        groups = []
        fl = self._numbers(opt[0::4], "in_fantasyland", bad, allow_none=False).astype(np.uint8)
        points = opt[1::4]
        if None in points:
            has = np.fromiter((x is not None for x in points), bool, len(points))
        else:
            has = np.ones(len(points), bool)
        recorded = self._numbers(points, "points", bad, allow_none=True)
        names = opt[2::4]
        if not set(map(type, names)) <= {str, type(None)}:
            names = [x if x is None or x.__class__ is str else str(x) for x in names]
        discards = self._discards(opt[3::4], bad)
        for acc in self.accs.values():
            G = len(acc.hands)
            if not G:
                continue
            cards = self._group_cards(acc, names, bad)
            hands = np.array(acc.hands, np.int64)
            rows = starts[hands][:, None] + np.arange(acc.P)
            groups.append(Group(acc.variant, acc.P, cards, fl[rows], hands, rows))
        chunk = Chunk(
            source=self.source, hand_start=starts, hand_id=self.hand_id,
            hand_line=line, hand_variant=self.hand_variant,
            variants=self.variants, groups=groups, name=names,
            in_fantasyland=fl, recorded=recorded, has_recorded=has,
            discards=discards, raw=self.raw, arrow=arrow, errors=self.errors,
            n_records=self.records)
        if bad:
            errors = sorted(self.errors + list(bad.values()),
                            key=lambda e: e.line if e.line is not None else -1)
            if self.strict:
                raise errors[0]
            chunk = chunk.drop(np.fromiter(bad, np.int64, len(bad)), errors)
        return chunk


def chunk_from_records(records: Iterable, rules: Rules = DEFAULT_RULES, *, source: str = "",
                       skip_bad: bool = False) -> Chunk:
    """Parse, validate and group an iterable of record dicts into one chunk."""
    b = ChunkBuilder(source, rules, strict=not skip_bad)
    for i, rec in enumerate(records, 1):
        b.add(rec, i)
    return b.finish().validate(skip_bad)
