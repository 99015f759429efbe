"""Chunks: the player-hands of a run of records as columns, grouped by
(rules, number of players) so that each group is scored by one batch call;
their validation (every card once per table, discards included), scoring,
and the messages that say which card of which seat is wrong.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ofc_fast._args import as_array, int_array
from ofc_fast.cards import (
    EMPTY,
    ID_TEXT,
    JOKER,
    MAX_CARD,
    MAX_JOKERS,
    card_masks,
    format_row,
    is_joker,
    joker_refusal,
)
from ofc_fast.deprecation import warn_renamed
from ofc_fast.errors import ArgumentError, RecordError, StateError
from ofc_fast.records.model import RulesEntry
from ofc_fast.rules import Variant

if TYPE_CHECKING:
    from ofc_fast.scoring import TableResult

Discards = tuple[np.ndarray, np.ndarray]
"""Discarded cards of N player-hands: ``(offsets (N + 1,) int64, card ids uint8)``."""

__all__ = ["Chunk", "Group", "SourceRecords"]

HAND_RECORD: list[Any] = []
"""The hand record type of the deprecated :meth:`Chunk.record` (set by
:mod:`ofc_fast.records.hand`, which sits above this module: a chunk does not
import the records made from it)."""


@dataclass
class Group:
    """The hands of one chunk that share rules and player count: one batch call.

    Attributes
    ----------
    variant : Variant
        Their rules.
    n_players : int
        Players at each table (P).
    cards : numpy.ndarray
        ``(G, P, n_cards)`` uint8 card ids, for :func:`ofc_fast.score_tables`.
    in_fantasyland : numpy.ndarray
        ``(G, P)`` uint8.
    hands : numpy.ndarray
        ``(G,)`` the hands' positions in the chunk.
    rows : numpy.ndarray
        ``(G, P)`` the player-hands' row positions in the chunk.
    result : TableResult, optional
        The group's scores, once scored.

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> chunk = chunk_from_records([{"players": [p, q]}, {"variant": "classic", "players": [q, p]}])
    >>> [(g.variant.name, g.cards.shape, g.hands.tolist()) for g in chunk.groups]
    [('pineapple', (1, 2, 13), [0]), ('classic', (1, 2, 13), [1])]
    """
    variant: Variant
    n_players: int
    cards: np.ndarray
    in_fantasyland: np.ndarray
    hands: np.ndarray
    rows: np.ndarray
    result: TableResult | None = None


@dataclass
class Chunk:
    """A run of recorded hands in input order, as columns grouped for scoring.

    What the readers yield (:func:`ofc_fast.io.read_chunks`): hand-level fields
    have one entry per hand (H), row-level fields one per player-hand (N rows;
    a hand's players are consecutive rows in seat order).  After :meth:`score`,
    ``points``, ``royalty_total``, ``foul`` and ``next_fantasyland`` hold our
    results per row (written to files as the columns ``points``,
    ``royalties``, ``foul``, ``fantasyland``).

    Attributes
    ----------
    source : str
        The file (or ``<stdin>``, or what the frame is), for messages.
    hand_start : numpy.ndarray
        ``(H + 1,)`` int64: the first row of each hand, then N.
    hand_id : list or pyarrow.Array
        ``(H,)`` the hands' ids as recorded.
    hand_line : numpy.ndarray
        ``(H,)`` int64 line (text) or row (Parquet) of each hand in the source.
    hand_variant : list or numpy.ndarray
        ``(H,)`` index into ``variants`` of each hand's rules.
    variants : list of tuple
        The rules of the chunk: ``(Variant, name, options)``
        (:data:`ofc_fast.records.model.RulesEntry`).
    groups : list of Group
        The hands by (rules, number of players).
    name : list, numpy.ndarray (object) or pyarrow.Array
        ``(N,)`` the players' names (None: unnamed).
    in_fantasyland : numpy.ndarray
        ``(N,)`` uint8.
    recorded : numpy.ndarray
        ``(N,)`` int64 recorded points (0 where none).
    has_recorded : numpy.ndarray
        ``(N,)`` bool: points were recorded.
    discards : tuple, optional
        ``(offsets (N + 1,), card ids)`` of the discarded cards.
    raw : list or SourceRecords, optional
        ``(H,)`` the source records (JSON Lines), for the JSON Lines writer.
    arrow : pyarrow.Table, optional
        The source rows (Parquet, Arrow), for the Parquet writer.
    errors : list of RecordError
        The errors of the hands left out (``skip_bad``).
    row_line : numpy.ndarray, optional
        ``(N,)`` line or row of each player-hand, where rows have their own.
    unit : str
        What ``hand_line`` counts: ``"line"``, ``"row"`` or ``"position"``
        (0-based rows of a frame).
    position : int
        How far the reader got: bytes (text) or rows (Parquet); -1 unknown.
    n_records : int
        Hand records read into this chunk, good and bad (-1: unknown).
    points : numpy.ndarray, optional
        ``(N,)`` int32 our points, after :meth:`score`.
    royalty_total : numpy.ndarray, optional
        ``(N,)`` int16 royalties (0 when fouled), after :meth:`score`.
    foul : numpy.ndarray, optional
        ``(N,)`` bool, after :meth:`score`.
    next_fantasyland : numpy.ndarray, optional
        ``(N,)`` uint8 cards dealt in fantasyland next hand, after :meth:`score`.
    name_codes : tuple, optional
        ``((N,) code of each row's name, the names by code)``, when the reader
        coded them.
    substitutes : numpy.ndarray, optional
        ``(N, 2)`` uint8, after :meth:`score` when a hand's rules deal jokers:
        the card each joker of the row stands for (X1's, X2's; 255 where the
        row holds no such joker; docs/jokers.md); None when no hand deals one.

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"name": "ann", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d",
    ...      "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"name": "bob", "top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d",
    ...      "bottom": "Tc Td Ts Th 8d"}
    >>> chunk = chunk_from_records([{"id": "h1", "players": [p, q]}]).score()
    >>> chunk.n_hands, chunk.n_rows, chunk.names(), chunk.points.tolist()
    (1, 2, ['ann', 'bob'], [6, -6])
    """
    source: str
    hand_start: np.ndarray          # (H + 1,) first row of each hand, then N
    hand_id: Any                    # (H,) list or pyarrow array
    hand_line: np.ndarray           # (H,) line / row number of each hand in the source
    hand_variant: Any               # (H,) index into ``variants`` (list or int array)
    variants: list[RulesEntry]      # [(Variant, name, options)]
    groups: list[Group]
    name: Any                       # (N,) list, object array or pyarrow array (None = unnamed)
    in_fantasyland: np.ndarray      # (N,) uint8
    recorded: np.ndarray            # (N,) int64 recorded points
    has_recorded: np.ndarray        # (N,) bool
    discards: Discards | None = None   # (offsets (N + 1,), ids) of discarded cards, or None
    raw: list[Any] | SourceRecords | None = None   # (H,) source dicts (JSON Lines), or None
    arrow: Any = None               # source record batch (Parquet), or None
    errors: list[RecordError] = field(default_factory=list)   # errors of skipped hands
    row_line: np.ndarray | None = None  # (N,) line of each row when rows have their own
    unit: str = "line"              # what hand_line counts: "line" or "row"
    position: int = -1              # how far the reader got: bytes (text) or rows (Parquet)
    n_records: int = -1             # hand records read into this chunk, good and bad (-1: unknown)
    points: np.ndarray | None = None
    royalty_total: np.ndarray | None = None
    foul: np.ndarray | None = None
    next_fantasyland: np.ndarray | None = None
    name_codes: tuple[np.ndarray, list[Any]] | None = None  # ((N,) name codes, names), or None
    substitutes: np.ndarray | None = None   # (N, MAX_JOKERS) uint8 after score(), jokers only
    _cache: dict[Any, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def royalties(self) -> np.ndarray | None:
        """Deprecated alias of ``royalty_total`` (renamed in 0.2)."""
        warn_renamed("Chunk.royalties", "Chunk.royalty_total")
        return self.royalty_total

    @property
    def fantasyland(self) -> np.ndarray | None:
        """Deprecated alias of ``next_fantasyland`` (renamed in 0.2)."""
        warn_renamed("Chunk.fantasyland", "Chunk.next_fantasyland")
        return self.next_fantasyland

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
        seat: np.ndarray = (np.arange(self.n_rows) - starts).astype(np.int8)
        return seat

    def row_hand(self) -> np.ndarray:
        """(N,) hand index of each row."""
        return np.repeat(np.arange(self.n_hands), self.n_players)

    def hand_ids(self) -> list[Any]:
        """The hands' ids as a list."""
        ids = self.hand_id
        return ids.to_pylist() if hasattr(ids, "to_pylist") else list(ids)

    def names(self) -> list[Any]:
        """The players' names as a list (None: unnamed)."""
        n = self.name
        return n.to_pylist() if hasattr(n, "to_pylist") else list(n)

    def cards(self, width: int | None = None) -> np.ndarray:
        """``(N, width)`` uint8 card ids per row (EMPTY-padded).

        Parameters
        ----------
        width : int, optional
            Columns (13 or 18); default the widest layout of the chunk.

        Returns
        -------
        numpy.ndarray
        """
        widest = max((g.cards.shape[2] for g in self.groups), default=13)
        n_cards: int = widest if width is None else width
        if n_cards < widest:
            return self.cards()[:, :n_cards]
        hit = self._cache.get(("cards", n_cards))
        if hit is not None:
            return hit
        out = np.full((self.n_rows, n_cards), EMPTY, np.uint8)
        for g in self.groups:
            out[g.rows.reshape(-1), :g.cards.shape[2]] = g.cards.reshape(-1, g.cards.shape[2])
        self._cache[("cards", n_cards)] = out
        return out

    def line_of(self, r: int, h: int | None = None) -> int:
        """Line (text) or row (Parquet, frames) of player-hand ``r`` in the source.

        Parameters
        ----------
        r : int
            The row (player-hand) in the chunk.
        h : int, optional
            Its hand, when known.

        Returns
        -------
        int
        """
        if self.row_line is not None:
            return int(self.row_line[r])
        if h is None:
            h = int(np.searchsorted(self.hand_start, r, "right") - 1)
        if self.unit == "row":
            return int(self.hand_line[h]) + r - int(self.hand_start[h])
        return int(self.hand_line[h])

    def hand_rules(self, h: int) -> RulesEntry:
        """The rules of hand ``h``.

        Parameters
        ----------
        h : int
            The hand in the chunk.

        Returns
        -------
        tuple
            ``(Variant, name, options)``.
        """
        return self.variants[int(self.hand_variant[h])]

    # ------------------------------------------------------------------ validation
    def validate(self, skip_bad: bool = False) -> Chunk:
        """Check every table: cards only, each card once per table, discards included.

        Parameters
        ----------
        skip_bad : bool
            Drop bad hands (keeping their errors in ``errors``) instead of raising.

        Returns
        -------
        Chunk
            This chunk, or one without the bad hands.

        Raises
        ------
        RecordError
            Without ``skip_bad``: the first error in input order (counting errors
            found while reading).
        """
        bad: dict[int, RecordError] = {}
        from ofc_fast.layouts import LayoutError
        for g in self.groups:
            # The scoring kernel checks every card (a card, once per table) as it
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

    def drop(self, hands: np.ndarray, errors: list[RecordError]) -> Chunk:
        """A chunk without the given hands.

        Parameters
        ----------
        hands : numpy.ndarray
            Hand positions to leave out.
        errors : list of RecordError
            The new chunk's ``errors``.

        Returns
        -------
        Chunk
        """
        keep = np.ones(self.n_hands, bool)
        keep[_positions(hands, self.n_hands)] = False
        return self.take(np.flatnonzero(keep), errors)

    def take(self, hands: np.ndarray | Sequence[int],
             errors: list[RecordError] | None = None) -> Chunk:
        """A chunk of the given hands, in that order (each at most once).

        Parameters
        ----------
        hands : array_like of int
            Hand positions.
        errors : list of RecordError, optional
            The new chunk's ``errors`` (default: this chunk's).

        Returns
        -------
        Chunk

        Raises
        ------
        ArgumentError
            ``hands`` is not one-dimensional, holds a position out of
            ``0 .. n_hands - 1``, or a position twice.
        TypeError
            ``hands`` holds something other than integers.

        Examples
        --------
        >>> from ofc_fast.records import chunk_from_records
        >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
        >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
        >>> chunk = chunk_from_records([{"id": i, "players": [p, q]} for i in range(3)])
        >>> chunk.take([2, 0]).hand_ids()
        [2, 0]
        >>> chunk.take([1, 1])
        Traceback (most recent call last):
        ...
        ofc_fast.errors.ArgumentError: hands holds position 1 twice
        """
        hands = _positions(hands, self.n_hands)
        counts = np.diff(self.hand_start)
        new_start = np.zeros(len(hands) + 1, np.int64)
        np.cumsum(counts[hands], out=new_start[1:])
        hand_map = np.full(self.n_hands, -1, np.int64)
        hand_map[hands] = np.arange(len(hands))
        rows = np.repeat(self.hand_start[:-1][hands] - new_start[:-1], counts[hands]) + \
            np.arange(int(new_start[-1]))
        row_map = np.full(self.n_rows, -1, np.int64)
        row_map[rows] = np.arange(len(rows))
        groups = []
        for g in self.groups:
            k = hand_map[g.hands] >= 0
            if k.all():
                groups.append(Group(g.variant, g.n_players, g.cards, g.in_fantasyland,
                                    hand_map[g.hands], row_map[g.rows]))
            elif k.any():
                groups.append(Group(g.variant, g.n_players, np.ascontiguousarray(g.cards[k]),
                                    np.ascontiguousarray(g.in_fantasyland[k]),
                                    hand_map[g.hands[k]], row_map[g.rows[k]]))
        codes = None
        if self.name_codes is not None:
            codes = (self.name_codes[0][rows], self.name_codes[1])
        return Chunk(
            source=self.source, hand_start=new_start, hand_id=_take(self.hand_id, hands),
            hand_line=self.hand_line[hands],
            hand_variant=np.asarray(self.hand_variant, np.int64)[hands],
            variants=self.variants, groups=groups, name=_take(self.name, rows),
            in_fantasyland=self.in_fantasyland[rows], recorded=self.recorded[rows],
            has_recorded=self.has_recorded[rows],
            discards=None if self.discards is None else _take_ragged(self.discards, rows),
            raw=_take(self.raw, hands), arrow=_take(self.arrow, rows),
            errors=self.errors if errors is None else errors,
            row_line=None if self.row_line is None else self.row_line[rows],
            unit=self.unit, position=self.position, n_records=self.n_records, name_codes=codes)

    @staticmethod
    def concat(first: Chunk, second: Chunk) -> Chunk:
        """The hands of two chunks of one reader, ``first``'s then ``second``'s.

        Both must have the same source and ``variants`` list, and no Arrow data;
        see :meth:`take` to put their hands in another order.

        Parameters
        ----------
        first : Chunk
            The hands first.
        second : Chunk
            The hands after them (both chunks' errors are kept).

        Returns
        -------
        Chunk

        Raises
        ------
        ArgumentError
            The chunks come from different readers.
        """
        if first.variants is not second.variants:
            raise ArgumentError("chunks of different readers cannot be joined")
        H, N = first.n_hands, first.n_rows
        groups = list(first.groups) + [
            Group(g.variant, g.n_players, g.cards, g.in_fantasyland, g.hands + H, g.rows + N)
            for g in second.groups]
        discards = None
        if first.discards is not None or second.discards is not None:
            (oa, ia), (ob, ib) = (c.discards if c.discards is not None else
                                  (np.zeros(c.n_rows + 1, np.int64), np.zeros(0, np.uint8))
                                  for c in (first, second))
            discards = (np.concatenate([oa[:-1], ob + oa[-1]]), np.concatenate([ia, ib]))
        raw = None
        if first.raw is not None and second.raw is not None:
            raw = SourceRecords.of(first.raw).concat(SourceRecords.of(second.raw))
        return Chunk(
            source=first.source, hand_start=np.concatenate([first.hand_start[:-1],
                                                            second.hand_start + N]),
            hand_id=first.hand_ids() + second.hand_ids(),
            hand_line=np.concatenate([first.hand_line, second.hand_line]),
            hand_variant=np.concatenate([np.asarray(first.hand_variant, np.int64),
                                         np.asarray(second.hand_variant, np.int64)]),
            variants=first.variants, groups=groups, name=first.names() + second.names(),
            in_fantasyland=np.concatenate([first.in_fantasyland, second.in_fantasyland]),
            recorded=np.concatenate([first.recorded, second.recorded]),
            has_recorded=np.concatenate([first.has_recorded, second.has_recorded]),
            discards=discards, raw=raw, errors=first.errors + second.errors,
            row_line=None if first.row_line is None or second.row_line is None else
            np.concatenate([first.row_line, second.row_line]),
            unit=first.unit, position=max(first.position, second.position),
            n_records=first.n_records + second.n_records)

    # --------------------------------------------------------------------- scoring
    def score(self) -> Chunk:
        """Score every group with one :func:`ofc_fast.score_tables` call each.

        Returns
        -------
        Chunk
            This chunk, with ``points``, ``royalty_total``, ``foul`` and
            ``next_fantasyland`` filled.
        """
        n = self.n_rows
        self.points = np.zeros(n, np.int32)
        self.royalty_total = np.zeros(n, np.int16)
        self.foul = np.zeros(n, bool)
        self.next_fantasyland = np.zeros(n, np.uint8)
        self.substitutes = None
        for g in self.groups:
            r = g.result if g.result is not None else _score_group(g)
            g.result = r
            rows = g.rows
            if g.variant.jokers:
                if self.substitutes is None:
                    self.substitutes = np.full((n, MAX_JOKERS), EMPTY, np.uint8)
                self.substitutes[rows.reshape(-1), :g.variant.jokers] = \
                    r.substitutes.reshape(-1, g.variant.jokers)
            if len(self.groups) == 1 and rows.size == n:
                self.points, self.royalty_total = r.points.reshape(-1), r.royalty_total.reshape(-1)
                self.foul = r.foul.reshape(-1)
                self.next_fantasyland = r.next_fantasyland.reshape(-1)
                break
            self.points[rows] = r.points
            self.royalty_total[rows] = r.royalty_total
            self.foul[rows] = r.foul
            self.next_fantasyland[rows] = r.next_fantasyland
        return self

    def substitute_codes(self) -> tuple[np.ndarray, list[str]]:
        """What each row's jokers stand for, as text: ``(codes, texts)``,
        ``texts[codes[r]]`` the cards of row ``r``'s jokers, X1's then X2's
        (``texts[0]`` is ``""``: a row without a joker).  After :meth:`score`.

        Returns
        -------
        tuple
            ``((N,) int64, list of str)``.

        Examples
        --------
        >>> from ofc_fast.records import chunk_from_records
        >>> p = {"top": "Qs X1 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
        >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
        >>> rec = {"options": {"jokers": 1}, "players": [p, q]}
        >>> codes, texts = chunk_from_records([rec]).score().substitute_codes()
        >>> [texts[c] for c in codes.tolist()]
        ['Qh', '']
        """
        subs = self.substitutes
        if subs is None:
            return np.zeros(self.n_rows, np.int64), [""]
        # a row's substitutes as one key (X1's card, X2's), counted, not sorted;
        # no joker (255, 255) is the greatest key
        key = subs[:, 0].astype(np.int64) << 8 | subs[:, 1]
        present = np.bincount(key, minlength=1 << 16) > 0
        present[(1 << 16) - 1] = True
        uniq = np.flatnonzero(present)
        code = np.cumsum(present) - 1
        texts = [format_row([c for c in (u >> 8, u & 255) if c != EMPTY])
                 for u in uniq.tolist()]
        codes = (code[key] + 1) % len(uniq)       # no joker: code 0
        return codes.astype(np.int64), [texts[-1], *texts[:-1]]

    def results(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Our results per row, after :meth:`score`.

        Returns
        -------
        tuple of numpy.ndarray
            ``(points, royalty_total, foul, next_fantasyland)``, each ``(N,)``.

        Raises
        ------
        StateError
            The chunk is not scored yet.
        """
        if self.points is None or self.royalty_total is None or self.foul is None or \
                self.next_fantasyland is None:
            raise StateError("score the chunk first (chunk.score())")
        return self.points, self.royalty_total, self.foul, self.next_fantasyland

    def record(self, h: int) -> Any:
        """Deprecated: :meth:`ofc_fast.records.HandRecord.from_chunk` ``(chunk, h)``.

        Parameters
        ----------
        h : int
            The hand in the chunk.

        Returns
        -------
        HandRecord
        """
        warn_renamed("Chunk.record(h)", "HandRecord.from_chunk(chunk, h)", since="0.3")
        return HAND_RECORD[0].from_chunk(self, h)

    def discard_ids(self, r: int) -> list[int]:
        """Discarded card ids of row ``r``.

        Parameters
        ----------
        r : int
            The row (player-hand) in the chunk.

        Returns
        -------
        list of int
        """
        if self.discards is None:
            return []
        off, ids = self.discards
        out: list[int] = ids[off[r]:off[r + 1]].tolist()
        return out

    def records(self) -> Iterator[Any]:
        """Deprecated: :func:`ofc_fast.records.hand_records` ``(chunk)``.

        Yields
        ------
        HandRecord
        """
        warn_renamed("Chunk.records()", "ofc_fast.records.hand_records(chunk)", since="0.3")
        for h in range(self.n_hands):
            yield HAND_RECORD[0].from_chunk(self, h)


def _score_group(g: Group) -> TableResult:
    """One ``score_tables`` call; a big group uses every core (the kernel splits
    it in contiguous chunks; the result does not depend on it)."""
    from ofc_fast.scoring import TableResult, score_tables
    scorer: Any = score_tables          # (typed where scoring is)
    big = len(g.cards) * g.n_players >= 400_000
    return cast(TableResult, scorer(g.cards, g.variant, in_fantasyland=g.in_fantasyland,
                                    details=True, n_threads=None if big else 1))


def _bad_tables(chunk: Chunk, g: Group) -> list[tuple[int, RecordError]]:
    """(position in group, RecordError) of every bad table of a group."""
    cards = g.cards
    G = len(cards)
    if G == 0:
        return []
    flat = cards.reshape(G, -1)
    out_of_range = (flat > MAX_CARD).any(axis=1)
    dup = np.bitwise_count(card_masks(flat)) != np.where(out_of_range, -1, flat.shape[1])
    bad = np.flatnonzero(dup | out_of_range)
    # (tables with a joker are looked at one by one: None for a good one)
    errs = [(int(i), _table_error(chunk, g, int(i))) for i in bad]
    return [(i, e) for i, e in errs if e is not None]


def _table_error(chunk: Chunk, g: Group, i: int) -> RecordError | None:
    """What is wrong with table ``i`` of group ``g`` (None: nothing, a table
    whose jokers the variant deals)."""
    h = int(g.hands[i])
    v = g.variant
    names = _names_of(chunk, h)
    where: dict[int, tuple[int, str]] = {}
    for p in range(g.n_players):
        ctx = _hand_ctx(chunk, h, p)
        pos = 0
        for row, size in zip(v.row_names, v.row_sizes, strict=True):
            for k, c in enumerate(g.cards[i, p, pos:pos + size].tolist(), start=pos):
                if c == EMPTY:
                    return RecordError("wrong row size", f"no card in slot {k} of the layout "
                                     f"(empty or null; Parquet column c{k:02d})",
                                     seat=p, name=names[p], row=row, **ctx)
                if c > MAX_CARD and not (is_joker(c) and c < JOKER + v.jokers):
                    why = joker_refusal(c, v.jokers, f"variant {v.name}") if is_joker(c) else \
                        f"card id {c} is not a card (0-{MAX_CARD}" + \
                        (f", a joker {JOKER}-{JOKER + v.jokers - 1})" if v.jokers else ")")
                    return RecordError("unknown card", why,
                                     seat=p, name=names[p], row=row, **ctx)
                if c in where:
                    q, qrow = where[c]
                    other = "the same row" if (q, qrow) == (p, row) else \
                        (f"its {qrow} row" if q == p else f"seat {q} {qrow} row")
                    return RecordError("duplicate card", f"{ID_TEXT[c]} appears twice "
                                     f"(also in {other})", seat=p, name=names[p], row=row, **ctx)
                where[c] = (p, row)
            pos += size
    return None if v.jokers else \
        RecordError("duplicate card", "a card appears twice", **_hand_ctx(chunk, h))


def _hand_ctx(chunk: Chunk, h: int, seat: int | None = None) -> dict[str, Any]:
    hid = chunk.hand_id[h]
    hid = hid.as_py() if hasattr(hid, "as_py") else hid
    line = int(chunk.hand_line[h])
    if seat is not None:
        line = chunk.line_of(int(chunk.hand_start[h]) + seat, h)
    return dict(source=chunk.source, line=line, hand_id=hid, unit=chunk.unit)


def _take(x: Any, idx: np.ndarray) -> Any:
    """``x`` (a list, array, Arrow array or :class:`SourceRecords`) at ``idx``."""
    if x is None:
        return None
    if isinstance(x, np.ndarray):
        return x[idx]
    if isinstance(x, list):
        return [x[i] for i in idx.tolist()]
    if isinstance(x, SourceRecords):
        return x.take(idx)
    import pyarrow as pa
    return x.take(pa.array(idx))


class SourceRecords:
    """The source dicts of a chunk's hands (JSON Lines).

    Given, or read from their lines with orjson when first asked for (the fast
    reader keeps only where each line is), then kept, so changes to them stay.

    Parameters
    ----------
    items : list
        ``(H,)`` the dicts, or None where not read yet.
    blocks : list of bytes
        The blocks of the file that hold the lines.
    where : numpy.ndarray
        ``(H, 3)`` int64: block, start and end of each line (-1: given).
    splice : numpy.ndarray, optional
        ``(H, 16)`` int32: where the JSON Lines writer puts our results into
        each line (``SPLICE`` of ``ofc_fast/_scan.pxd``: first column 1 for a
        line as orjson writes it, 0 for one it must walk), or None.

    Examples
    --------
    >>> import numpy as np
    >>> raw = SourceRecords([None], [b'{"id": 1}'], np.array([[0, 0, 9]]))
    >>> raw[0]
    {'id': 1}
    """

    def __init__(self, items: list[Any], blocks: list[bytes], where: np.ndarray,
                 splice: np.ndarray | None = None):
        self.items = items          # (H,) dict, or None: not read yet
        self.blocks = blocks        # bytes holding the lines
        self.where = where          # (H, 3) int64: block, start, end of each line
        self.splice = splice        # (H, 16) int32, or None

    @classmethod
    def of(cls, x: SourceRecords | Sequence[Any]) -> SourceRecords:
        """``x`` itself, or a list of dicts as SourceRecords.

        Parameters
        ----------
        x : SourceRecords or sequence of dict
            The records.

        Returns
        -------
        SourceRecords
        """
        if isinstance(x, SourceRecords):
            return x
        return cls(list(x), [], np.full((len(x), 3), -1, np.int64))

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, h: int) -> dict[str, Any]:
        rec = self.items[h]
        if rec is None:
            import orjson
            b, lo, hi = self.where[h].tolist()
            rec = self.items[h] = orjson.loads(self.blocks[b][lo:hi])
        return cast("dict[str, Any]", rec)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self[h] for h in range(len(self)))

    def take(self, idx: np.ndarray | Sequence[int]) -> SourceRecords:
        """The records at ``idx``, in that order.

        Parameters
        ----------
        idx : array_like of int
            Positions.

        Returns
        -------
        SourceRecords
        """
        idx = np.asarray(idx, np.int64)
        return SourceRecords([self.items[i] for i in idx.tolist()], self.blocks, self.where[idx],
                             None if self.splice is None else self.splice[idx])

    def concat(self, other: SourceRecords) -> SourceRecords:
        """These records, then ``other``'s.

        Parameters
        ----------
        other : SourceRecords
            The records after these.

        Returns
        -------
        SourceRecords
        """
        where = other.where.copy()
        where[where[:, 0] >= 0, 0] += len(self.blocks)
        splice = None
        given = [x.splice for x in (self, other) if x.splice is not None]
        if given:
            splice = np.concatenate([
                x.splice if x.splice is not None else np.zeros((len(x), given[0].shape[1]),
                                                               np.int32)
                for x in (self, other)])
        return SourceRecords(self.items + other.items, self.blocks + other.blocks,
                             np.concatenate([self.where, where]), splice)


def _take_ragged(ragged: Discards, rows: np.ndarray) -> Discards:
    off, ids = ragged
    lens = (off[1:] - off[:-1])[rows]
    new_off = np.zeros(len(rows) + 1, np.int64)
    np.cumsum(lens, out=new_off[1:])
    idx = np.repeat(off[:-1][rows] - new_off[:-1], lens) + np.arange(int(new_off[-1]))
    return new_off, ids[idx]


def _names_of(chunk: Chunk, h: int) -> list[Any]:
    lo, hi = int(chunk.hand_start[h]), int(chunk.hand_start[h + 1])
    n = chunk.name[lo:hi]
    return n.to_pylist() if hasattr(n, "to_pylist") else list(n)


def _placed_masks(chunk: Chunk) -> np.ndarray:
    """(H,) uint64: the cards placed at each table, one bit per card (ids that
    are no card set none; hands in no group have none)."""
    placed = np.zeros(chunk.n_hands, np.uint64)
    for g in chunk.groups:
        placed[g.hands] = card_masks(g.cards.reshape(len(g.cards), -1))
    return placed


def _bad_discards(chunk: Chunk) -> list[tuple[int, RecordError]]:
    """(hand, RecordError) for discards that repeat a card of their table or are
    not cards (one pass in C; only bad hands are looked at one by one)."""
    from ofc_fast._records import bad_discards, bad_discards_at
    off, ids = cast(Discards, chunk.discards)
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
    errs = [(h, _discard_error(chunk, h)) for h in np.flatnonzero(bad).tolist()]
    return [(h, e) for h, e in errs if e is not None]


def _discard_error(chunk: Chunk, h: int) -> RecordError | None:
    """What is wrong with the discards of hand ``h`` (None: nothing, a
    discarded joker that the hand's variant deals)."""
    off, ids = cast(Discards, chunk.discards)
    jokers = chunk.hand_rules(h)[0].jokers
    lo_row, hi_row = int(chunk.hand_start[h]), int(chunk.hand_start[h + 1])
    placed: dict[int, int] = {}
    for g in chunk.groups:
        k = np.flatnonzero(g.hands == h)
        if len(k):
            placed = {c: p for p in range(g.n_players) for c in g.cards[k[0], p].tolist()}
    names = _names_of(chunk, h)
    seen: dict[int, int] = {}
    for r in range(lo_row, hi_row):
        seat = r - lo_row
        ctx = _hand_ctx(chunk, h, seat)
        for c in ids[off[r]:off[r + 1]].tolist():
            if c > MAX_CARD and not (is_joker(c) and c < JOKER + jokers):
                vname = f"variant {chunk.hand_rules(h)[0].name}"
                why = f"discards: {joker_refusal(c, jokers, vname)}" if is_joker(c) else \
                    f"discard id {c} is not a card (0-{MAX_CARD})"
                return RecordError("unknown card", why, seat=seat, name=names[seat], **ctx)
            if c in placed:
                where = "by this player" if placed[c] == seat else f"by seat {placed[c]}"
                return RecordError("duplicate card", f"discard {ID_TEXT[c]} is also placed "
                                 f"{where}", seat=seat, name=names[seat], **ctx)
            if c in seen:
                who = "this player" if seen[c] == seat else f"seat {seen[c]}"
                return RecordError("duplicate card", f"discard {ID_TEXT[c]} is also discarded "
                                 f"by {who}", seat=seat, name=names[seat], **ctx)
            seen[c] = seat
    return None if jokers else \
        RecordError("duplicate card", "a discarded card appears twice", **_hand_ctx(chunk, h))


def _positions(hands: object, n: int) -> np.ndarray:
    """``hands`` of :meth:`Chunk.take` as int64 positions, each of ``0 .. n - 1``
    at most once (a position twice, or one that numpy would wrap, would make a
    chunk whose rows belong to the wrong hands)."""
    arr = as_array(hands, "hands")
    if arr.ndim != 1:
        raise ArgumentError(f"hands must be one-dimensional positions, got shape {arr.shape}")
    out = int_array(arr, "hands", arr.shape, 0, n - 1)
    if len(out):
        seen = np.bincount(out, minlength=n)
        if seen.max() > 1:
            raise ArgumentError(f"hands holds position {int(np.argmax(seen > 1))} twice")
    return out
