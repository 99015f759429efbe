"""Arrow tables of player-hands and chunks, both ways (docs/formats.md,
"Parquet / Arrow" and "Frames in memory").

One row per player-hand: ``hand_id``, ``seat``, ``n_players``, the layout as
uint8 card ids ``c00`` .. ``c12`` (``c00`` .. ``c17`` when four-row hands are
present; EMPTY 255 or null beyond a hand's cards), optional ``variant``,
``options`` (JSON object text), ``name``, ``in_fantasyland``, ``discards``
(list of uint8, or card text) and ``points`` (recorded).  The rows of one
hand are consecutive, in seat order.

:func:`chunk_from_arrow` reads such a table straight from its Arrow buffers,
step by step (:class:`_HandRows`: the hands' bounds, rules, cards, numbers):
each card column is viewed as numpy without a copy, gathered in one pass
(:func:`ofc_fast._records.gather_columns`) into the ``(G, P, n)`` table
array, and validated with vectorised checks and one C pass over the
discards; only bad hands take a slow path to say what is wrong.  The columns
one by one are :mod:`ofc_fast.io.arrow_columns`'.  :func:`chunk_table`
(:mod:`ofc_fast.io.tables`) is the way back.  The Parquet files of
:mod:`ofc_fast.io.parquet` and the frames of :func:`ofc_fast.io.score_frame`
are read and written through these two.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import orjson

from ofc_fast._args import flag, instance, integer
from ofc_fast._records import gather_columns
from ofc_fast.cards import EMPTY, parse_card_list
from ofc_fast.errors import CardError, RecordError, shorten
from ofc_fast.io.arrow_columns import (
    TEXT_ROWS,
    _error,
    _given,
    _int_column,
    _is_int,
    _kind,
    _np,
    _one,
    _text_cards,
    check_schema,
    plain_views,
)
from ofc_fast.io.schema import RESULT_COLUMNS, card_columns
from ofc_fast.io.tables import chunk_table, require_pyarrow
from ofc_fast.records import DEFAULT_RULES, NUMBER_BOUNDS, Chunk, Group, Rules, RulesEntry, clip
from ofc_fast.records.model import disagreement

__all__ = ["chunk_from_arrow", "chunk_table", "card_columns", "check_schema", "require_pyarrow",
           "RESULT_COLUMNS", "TEXT_ROWS"]


def chunk_from_arrow(table: Any, *, source: str = "<arrow>", rules: Rules = DEFAULT_RULES,
                     row_offset: int = 0, final: bool = True,
                     skip_bad: bool = False) -> tuple[Chunk, Any]:
    """A validated :class:`~ofc_fast.records.Chunk` from an Arrow table of player-hand rows.

    The table has one row per player-hand in the columns of docs/formats.md
    (Parquet: ``hand_id``, ``seat``, ``n_players``, the layout as uint8 card
    ids ``c00`` .. ``c12`` or as card text ``top``, ``middle``, ``bottom`` (or
    ``rows``), optional ``variant``, ``options``, ``name``, ``in_fantasyland``,
    ``discards``, ``points``); the rows of a hand are consecutive, in seat
    order.  Card id columns are read from the Arrow buffers without a copy.
    The chunk keeps the table (``chunk.arrow``) for :func:`chunk_table`.

    Parameters
    ----------
    table : pyarrow.Table or pyarrow.RecordBatch
        The rows.
    source : str
        What the table is, for messages.
    rules : Rules
        The rules of hands that name none (or of all, with ``override``).
    row_offset : int
        Rows before this table (messages give row ``row_offset + i + 1`` for
        the table's row ``i``: 1-based rows of a file; -1 gives 0-based
        positions).
    final : bool
        The table ends at the end of a hand.  With False, the rows of an
        unfinished last hand come back as ``carry`` for the next call (then
        ``n_players`` is needed).
    skip_bad : bool
        Leave bad hands out (their errors in ``chunk.errors``) instead of
        raising.

    Returns
    -------
    tuple
        ``(chunk, carry)``: the validated chunk (not scored), and an Arrow
        table of the rows carried (None when there are none).

    Raises
    ------
    FileFormatError
        A column missing, twice, or of a type that cannot hold it.
    RecordError
        Without ``skip_bad``: the first bad hand (wrong seats or number of
        players, unknown rules, bad cards or numbers).
    ImportError
        pyarrow is not installed.

    Examples
    --------
    >>> pa = require_pyarrow()[0]
    >>> table = pa.table({"hand_id": ["h1", "h1"], "seat": [0, 1],
    ...                   "top": ["Qs Qd 2c", "Ks Kd 3c"],
    ...                   "middle": ["9h 9d 9c 5s 5d", "2h 3h 4h 5h 6d"],
    ...                   "bottom": ["7h 7d 7c 7s 2d", "Tc Td Ts Th 8d"]})
    >>> chunk, carry = chunk_from_arrow(table)
    >>> chunk.score().points.tolist(), carry
    ([6, -6], None)
    >>> chunk_table(chunk).column("c00").to_pylist()      # the layout as card ids
    [43, 47]
    """
    pa, pc, pq = require_pyarrow()
    rules = instance(rules, "rules", Rules, "a Rules (ofc_fast.records.Rules)")
    instance(source, "source", str, "text")
    row_offset = integer(row_offset, "row_offset", -1, 1 << 62)   # -1: 0-based (frames)
    final, skip_bad = flag(final, "final"), flag(skip_bad, "skip_bad")
    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    instance(table, "table", pa.Table, "a pyarrow Table or RecordBatch")
    table = plain_views(table)
    check_schema(table.schema, source, need_players=not final)
    rows = _HandRows(_ids_as_values(table, pa, pc), source, rules, row_offset)
    carry = rows.split_hands(final)
    if rows.N == 0:
        return _empty_chunk(source, rules), carry
    if not rows.ok_hand.all():
        return rows.without_broken_hands(skip_bad), carry
    rows.read_rules()
    rows.read_cards()
    rows.read_numbers()
    return rows.chunk(skip_bad), carry


def _ids_as_values(table: Any, pa: Any, pc: Any) -> Any:
    """The table with a dictionary ``hand_id`` decoded (ids are compared
    row to row), and one of the null type (every id missing: pandas 2 gives
    an empty text column that type) as text."""
    t = table.schema.field("hand_id").type
    want = t.value_type if pa.types.is_dictionary(t) else pa.string() if pa.types.is_null(t) \
        else None
    if want is not None:
        i = table.column_names.index("hand_id")
        table = table.set_column(i, "hand_id", pc.cast(table.column(i), want))
    return table


class _HandRows:
    """The player-hand rows of an Arrow table on their way into a chunk,
    step by step (:func:`chunk_from_arrow`): the hands' bounds, their rules,
    cards and numbers, each step adding the errors of the hands it finds bad
    (``errors``, ``bad_hand``)."""

    def __init__(self, table: Any, source: str, rules: Rules, row_offset: int):
        self.pa, self.pc, _ = require_pyarrow()
        self.table, self.source, self.rules, self.row_offset = table, source, rules, row_offset
        self.cols = set(table.column_names)
        self.N = table.num_rows
        self.errors: list[RecordError] = []
        # a missing or non-integral seat or player count is -1: the hand's rows
        # then fail the structure check (a record error; any integer passes here)
        # (a value that is there but no integer, 0.5, is named in the message)
        self.not_int: list[tuple[str, np.ndarray]] = []
        values, bad = _int_column(table.column("seat"), -(1 << 62), 1 << 62)
        self.seat: np.ndarray = values if bad is None else np.where(bad, -1, values)
        self._not_integers("seat", bad)
        if "n_players" in self.cols:
            values, bad = _int_column(table.column("n_players"), -(1 << 62), 1 << 62)
            self.nplay: np.ndarray = values if bad is None else np.where(bad, -1, values)
            self._not_integers("n_players", bad)
        else:       # a whole table: each hand's rows are counted
            self.nplay = _counted_players(self.seat, table.column("hand_id"), self.N, self.pc)

    def _not_integers(self, column: str, bad: np.ndarray | None) -> None:
        """Keep the rows whose ``column`` holds a value that is no integer."""
        if bad is not None:
            there = bad & ~_np(self.table.column(column).is_null(), column, bool)
            if there.any():
                self.not_int.append((column, there))

    def _structure_detail(self, s: int, L: int) -> tuple[int, str] | None:
        """(row, detail) of the first seat or n_players of rows ``s .. s + L``
        that is a value but no integer (``seat must be an integer, got 0.5``)."""
        for column, there in self.not_int:
            rows = np.flatnonzero(there[s:s + L])
            if len(rows):
                r = s + int(rows[0])
                got = self.table.column(column)[r].as_py()
                return r, f"{column} must be an integer, got {shorten(got)}"
        return None

    # ------------------------------------------------------------------ hands
    def split_hands(self, final: bool) -> Any:
        """Find the hands (``starts``, ``lens``, ``ok_hand``); without
        ``final``, cut off the rows of an unfinished last hand and return them
        (the carry), else None."""
        seat, nplay, N = self.seat, self.nplay, self.N
        carry = None
        P0 = int(nplay[0]) if N else 0
        # --- fast path: every hand has P0 players, seats 0 .. P0-1 in order
        uniform = False
        if N and 2 <= P0 <= 8 and nplay.min() == nplay.max():
            tail = N % P0
            if tail and not final and (seat[N - tail:] == np.arange(tail)).all():
                carry = self.table.slice(N - tail)
                self._keep_rows(N - tail)
            if self.N % P0 == 0 and (self.seat.reshape(-1, P0) == np.arange(P0)).all():
                uniform = True
        if self.N == 0:
            return carry
        hid = self.table.column("hand_id")
        if uniform:
            self.starts = np.arange(0, self.N, P0)
            self.lens = np.full(len(self.starts), P0)
            self.ok_hand = _same_id_within(hid, self.N, P0, None, self.pc)
            return carry
        self.seat, self.nplay = self.seat.astype(np.int64), self.nplay.astype(np.int64)
        # tentative hands: a hand starts at seat 0, and where the hand id
        # changes (so a broken row never drags its neighbour hand down with it)
        starts = np.flatnonzero((self.seat == 0) | _id_breaks(hid, self.N, self.pc))
        if not len(starts) or starts[0] != 0:
            starts = np.concatenate([[0], starts])
        lens = np.diff(np.append(starts, self.N))
        if not final and len(starts) and carry is None:
            s, L = int(starts[-1]), int(lens[-1])
            if self.seat[s] == 0 and L < self.nplay[s] and \
                    (self.seat[s:] == np.arange(L)).all():
                carry = self.table.slice(s)
                self._keep_rows(s)
                starts, lens = starts[:-1], lens[:-1]
        self.starts, self.lens = starts, lens
        if self.N == 0:
            return carry
        seat, nplay = self.seat, self.nplay
        first = np.repeat(starts, lens)
        self.ok_hand = (nplay[starts] == lens) & (seat[starts] == 0)
        row_bad = (seat != np.arange(self.N) - first) | (nplay != nplay[first])
        if row_bad.any():
            self.ok_hand &= np.bincount(np.repeat(np.arange(len(starts)), lens),
                                        weights=row_bad, minlength=len(starts)) == 0
        return carry

    def _keep_rows(self, n: int) -> None:
        """Only the first ``n`` rows go on."""
        self.table, self.N = self.table.slice(0, n), n
        self.seat, self.nplay = self.seat[:n], self.nplay[:n]

    def without_broken_hands(self, skip_bad: bool) -> Chunk:
        """The chunk of the hands whose rows make a hand (seats 0, 1, ...,
        n_players rows, one hand id); the others' errors first (raised
        without ``skip_bad``)."""
        hid, seat, nplay = self.table.column("hand_id"), self.seat, self.nplay
        off, source = self.row_offset, self.source
        for h in np.flatnonzero(~self.ok_hand):
            s, L = int(self.starts[h]), int(self.lens[h])
            named = self._structure_detail(s, L)
            if named is not None:
                r, detail = named
                self.errors.append(_error("bad value", detail, source, off + r + 1,
                                          hand_id=hid[s].as_py()))
                continue
            self.errors.append(_error(
                "wrong number of players" if seat[s] == 0 and L != nplay[s] and
                (seat[s:s + L] == np.arange(L)).all() else "bad value",
                f"rows {off + s + 1}-{off + s + L} have seats "
                f"{shorten(seat[s:s + L].tolist())}, n_players "
                f"{shorten(sorted(set(nplay[s:s + L].tolist())))}, hand ids "
                f"{shorten(sorted(set(map(str, hid.slice(s, min(L, 50)).to_pylist()))))}; "
                "a hand is n_players consecutive rows with seats 0, 1, ... (-1: missing) "
                "and one hand_id", source, off + s + 1, hand_id=hid[s].as_py()))
        if not skip_bad:
            raise self.errors[0]
        keep = np.repeat(self.ok_hand, self.lens)
        chunk, _ = chunk_from_arrow(self.table.filter(self.pa.array(keep)), source=source,
                                    rules=self.rules, row_offset=off, final=True,
                                    skip_bad=True)
        # row numbers of the filtered table shift; map them back
        orig_rows = np.flatnonzero(keep)
        if chunk.row_line is not None:
            inner = np.asarray(chunk.row_line, np.int64)
        else:       # the row of each player-hand kept: its hand's row + its seat
            inner = np.repeat(np.asarray(chunk.hand_line, np.int64) - chunk.hand_start[:-1],
                              chunk.n_players) + np.arange(chunk.n_rows)
        chunk.hand_line = orig_rows[chunk.hand_line - off - 1] + off + 1
        chunk.row_line = orig_rows[inner - off - 1] + off + 1
        for e in chunk.errors:
            if e.line is not None:
                e.line = int(orig_rows[e.line - off - 1]) + off + 1
                e.args = (e.message,)
        chunk.errors = sorted(self.errors + chunk.errors, key=lambda e: e.line or 0)
        chunk.n_records = len(self.starts)
        return chunk

    # ------------------------------------------------------------------ rules
    def read_rules(self) -> None:
        """Each hand's rules (``variants``, ``hv``) and its number of players
        checked against them."""
        self.H = len(self.starts)
        self.P = P = self.lens
        self.hid = self.table.column("hand_id")
        self.row_hand = _LazyRowHand(self.H, P)
        self.variants, hand_variant, bad_variant = _hand_rules(
            self.table, self.starts, self.rules, self.source, self.row_offset)
        self.hand_variant = hand_variant
        self.errors += [err for _, err in bad_variant]
        variants = self.variants
        vmin = np.array([v.min_players for v, _, _ in variants] or [0])
        vmax = np.array([v.max_players for v, _, _ in variants] or [0])
        self.hv = hv = np.asarray(hand_variant, np.int64)
        bad_p = (P < vmin[hv]) | (P > vmax[hv])
        bad_p[[h for h, _ in bad_variant]] = False
        for h in np.flatnonzero(bad_p):
            v = variants[hv[h]][0]
            self.errors.append(_error(
                "wrong number of players",
                f"{int(P[h])} players; {v.name} is played by {v.played_by}", self.source,
                self.row_offset + int(self.starts[h]) + 1, hand_id=self._hand_id(int(h))))
        self.bad_hand = bad_p.copy()
        self.bad_hand[[h for h, _ in bad_variant]] = True
        self.name = _one(self.table.column("name")) if "name" in self.cols else None

    def _hand_id(self, h: int) -> Any:
        return self.hid[int(self.starts[h])].as_py()

    # ------------------------------------------------------------------ cards
    def read_cards(self) -> None:
        """The layout of every row (``cards``): card id columns gathered in
        one pass, or card text decoded."""
        if "c00" not in self.cols:
            self.cards = _text_cards(self.table, self.variants, self.hv, self.starts, self.P,
                                     self.seat, self.hid, self.name, self.bad_hand, self.errors,
                                     self.source, self.row_offset)
            self.ncol = self.cards.shape[1]
            return
        pa, table, N = self.pa, self.table, self.N
        width = max((v.n_cards for v, _, _ in self.variants), default=13)
        have = [c for c in card_columns(18) if c in self.cols]
        if width == 18 and len(have) < 18:
            self._missing_card_columns(have)
        self.ncol = ncol = max(width, len(have))
        cards = np.empty((N, ncol), np.uint8)
        card_arrays = []
        not_ids = []          # (column, rows whose value is no card id 0-255)
        for cname in have[:ncol]:
            col = table.column(cname)
            if col.type == pa.uint8() and not col.null_count:
                arr = _np(col, cname)
            else:
                # nulls are empty slots (EMPTY); values that are not card ids 0-255
                # (-1, 300, 2.5, NaN) are reported below with their value
                a, bad = _int_column(col, 0, 255)
                arr = a.astype(np.uint8)
                if bad is not None:
                    isnull = np.ones(N, bool) if pa.types.is_null(col.type) else \
                        _np(col.is_null(), cname, bool)
                    arr[isnull] = EMPTY
                    if (bad & ~isnull).any():
                        arr[bad & ~isnull] = 254
                        not_ids.append((cname, bad & ~isnull))
            card_arrays.append(np.ascontiguousarray(arr))
        # one pass, column pointers straight from the Arrow buffers (read-only views)
        gather_columns(card_arrays, cards)
        if ncol > len(have):
            cards[:, len(have):] = EMPTY
        self.cards = cards
        if ncol > 13:
            self._three_rows_in_four()
        for column, bad_rows in not_ids:
            self._flag(bad_rows, column, "a card id 0-51 (null: no card)", "unknown card")
        if self.cols & set(TEXT_ROWS):
            self._text_beside_ids()

    def _text_beside_ids(self) -> None:
        """A hand whose layout is given as card ids and as card text too
        (any row of it with text) is bad unless both are the same layout."""
        N, row_hand = self.N, self.row_hand._arr()
        text_cols = [c for c in TEXT_ROWS if c in self.cols]
        has = np.zeros(N, bool)
        for c in text_cols:
            has |= _given(self.table.column(c))
        hand_has = np.zeros(len(self.starts), bool)
        hand_has[row_hand[has]] = True
        skip = self.bad_hand | ~hand_has
        if skip.all():
            return
        tried = skip.copy()
        errors: list[RecordError] = []
        text = _text_cards(self.table, self.variants, self.hv, self.starts, self.P, self.seat,
                           self.hid, self.name, tried, errors, self.source, self.row_offset)
        ids_form = f"card ids {card_columns(18)[0]}..{card_columns(18)[text.shape[1] - 1]}"
        text_form = "card text (" + ", ".join(text_cols) + ")"
        for e in errors:                      # the text form cannot be read
            self.errors.append(_error(
                "contradictory record", f"the layout is given as {ids_form} and as {text_form}, "
                f"which cannot be read: {e.detail}", self.source, e.line, hand_id=e.hand_id,
                seat=e.seat, name=e.name, row=e.row))
        self.bad_hand |= tried
        width = text.shape[1]
        differ = (text != self.cards[:, :width]).any(axis=1) & ~self.bad_hand[row_hand]
        for h in np.unique(row_hand[differ]).tolist():
            r = int(np.flatnonzero(differ & (row_hand == h))[0])
            v = self.variants[self.hv[h]][0]
            n = v.n_cards
            self.errors.append(_error(
                "contradictory record", disagreement(ids_form, self.cards[r, :n].tolist(),
                                                     text_form, text[r, :n].tolist(),
                                                     v.row_sizes) or "",
                self.source, self.row_offset + r + 1, hand_id=self._hand_id(h),
                seat=int(self.seat[r]), name=self.name[r].as_py() if self.name is not None
                else None))
            self.bad_hand[h] = True

    def _missing_card_columns(self, have: list[str]) -> None:
        """A four-row hand in a table without c13..c17 is bad."""
        four = [g for g in range(len(self.starts))
                if self.variants[self.hv[g]][0].n_rows == 4 and not self.bad_hand[g]]
        missing = sorted(set(card_columns(18)) - set(have))
        for g in four:
            self.errors.append(_error(
                "wrong row size", f"a four-row hand needs card columns c00..c17; missing "
                f"{missing}", self.source, self.row_offset + int(self.starts[g]) + 1,
                hand_id=self._hand_id(g)))
            self.bad_hand[g] = True

    def _three_rows_in_four(self) -> None:
        """Three-row hands must leave c13.. empty."""
        row_hand = self.row_hand
        hand_width = np.array([v.n_cards for v, _, _ in self.variants] or [13])[self.hv]
        extra = (self.cards[:, 13:] != EMPTY).any(axis=1) & (hand_width[row_hand._arr()] == 13)
        for h in np.unique(row_hand[extra]):
            if not self.bad_hand[h]:
                r = int(np.flatnonzero(extra & (row_hand == h))[0])
                self.errors.append(_error(
                    "wrong row size", "a three-row hand has cards in columns c13..c17 "
                    f"(seat {int(self.seat[r])})", self.source, self.row_offset + r + 1,
                    hand_id=self._hand_id(h), seat=int(self.seat[r])))
                self.bad_hand[h] = True

    def _flag(self, bad_rows: np.ndarray, column: str, what: str,
              reason: str = "bad value") -> None:
        """An error for each hand with a bad row (its first)."""
        row_hand = self.row_hand
        for h in np.unique(row_hand[bad_rows]):
            if not self.bad_hand[h]:
                r = int(np.flatnonzero(bad_rows & (row_hand == h))[0])
                got = self.table.column(column)[r].as_py()
                self.errors.append(_error(
                    reason, f"{column} must be {what}, got {shorten(got)}", self.source,
                    self.row_offset + r + 1, seat=int(self.seat[r]),
                    name=self.name[r].as_py() if self.name is not None else None,
                    hand_id=self._hand_id(h)))
                self.bad_hand[h] = True

    # ------------------------------------------------------------------ numbers
    def read_numbers(self) -> None:
        """``in_fantasyland`` (``fl``), recorded ``points`` (``recorded``,
        ``has``), names and discards."""
        pa, N = self.pa, self.N
        if "in_fantasyland" in self.cols:
            c = self.table.column("in_fantasyland")
            fl, badf = _int_column(c, 0, 255)
            if c.null_count:           # null: not in fantasyland
                isnull = _np(c.is_null(), "in_fantasyland", bool)
                badf = None if badf is None else (badf & ~isnull)
            if badf is not None and badf.any():
                self._flag(badf, "in_fantasyland", "an integer 0-255 (or true/false)")
                fl = np.where(badf, 0, fl)
            self.fl = fl.astype(np.uint8, copy=False)
        else:
            self.fl = np.zeros(N, np.uint8)
        if "points" in self.cols:
            c = self.table.column("points")
            recorded, badp = _int_column(c, *NUMBER_BOUNDS["points"])
            self.has = ~_np(c.is_null(), "points", bool) if c.null_count else np.ones(N, bool)
            if badp is not None and (badp & self.has).any():
                self._flag(badp & self.has, "points", "an integer (int64)")
            self.recorded = recorded.astype(np.int64, copy=False)
        else:
            self.has, self.recorded = np.zeros(N, bool), np.zeros(N, np.int64)
        if self.name is None:
            self.name = pa.nulls(N, pa.string())
        self.discards = _discards(self.table, N, self.source, self.row_offset, self.errors,
                                  self.bad_hand, self.row_hand, self.hid, self.starts) \
            if "discards" in self.cols else None

    # ------------------------------------------------------------------ the chunk
    def _groups(self) -> list[Group]:
        """The good hands by (rules, players): one batch call each."""
        H, P, N, hv, fl, cards = self.H, self.P, self.N, self.hv, self.fl, self.cards
        key = hv * 8 + P
        good = ~self.bad_hand
        if good.all() and len(self.variants) == 1 and (P == P[0]).all():
            v = self.variants[0][0]
            n, p = v.n_cards, int(P[0])
            gc = cards if self.ncol == n else np.ascontiguousarray(cards[:, :n])
            return [Group(v, p, gc.reshape(H, p, n), fl.reshape(H, p), np.arange(H),
                          np.arange(N).reshape(H, p))]
        groups = []
        for k in np.unique(key[good]):
            hands = np.flatnonzero((key == k) & good)
            v = self.variants[int(k) // 8][0]
            p = int(k) % 8
            rows = self.starts[hands][:, None] + np.arange(p)
            gc = cards[rows.reshape(-1), :v.n_cards].reshape(len(hands), p, v.n_cards)
            groups.append(Group(v, p, gc, fl[rows], hands, rows))
        return groups

    def chunk(self, skip_bad: bool) -> Chunk:
        """The validated chunk of the good hands (the bad ones' errors in it)."""
        H, N = self.H, self.N
        hand_start = np.empty(H + 1, np.int64)
        hand_start[:H] = self.starts
        hand_start[H] = N
        chunk = Chunk(
            source=self.source, hand_start=hand_start,
            hand_id=self.hid.take(self.pa.array(self.starts)),
            hand_line=self.starts + self.row_offset + 1, hand_variant=self.hand_variant,
            variants=self.variants, groups=self._groups(), name=self.name,
            in_fantasyland=self.fl, recorded=self.recorded, has_recorded=self.has,
            discards=self.discards, arrow=self.table, errors=[], unit="row")
        errors = self.errors
        if errors:
            errors.sort(key=lambda e: e.line or 0)
            if not skip_bad:
                # an earlier hand may still have a duplicate card: let validate() order them
                chunk.errors = errors
                chunk.validate(False)
            chunk = chunk.drop(np.flatnonzero(self.bad_hand), errors)
        chunk.n_records = H
        return chunk.validate(skip_bad)


def _counted_players(seat: np.ndarray, hid: Any, N: int, pc: Any) -> np.ndarray:
    """(N,) players of each row's hand, counted: a hand is the rows from a
    seat 0, or from where the hand id changes, to the next such row."""
    starts = np.flatnonzero((seat == 0) | _id_breaks(hid, N, pc))
    if not len(starts) or starts[0] != 0:
        starts = np.concatenate([[0], starts]).astype(np.int64)
    lens = np.diff(np.append(starts, N))
    return np.repeat(lens, lens)


class _LazyRowHand:
    """Hand index of each row, computed only when an error needs it."""

    def __init__(self, H: int, P: np.ndarray):
        self.H, self.P = H, P
        self._a: np.ndarray | None = None

    def _arr(self) -> np.ndarray:
        if self._a is None:
            self._a = np.repeat(np.arange(self.H), self.P)
        return self._a

    def __getitem__(self, i: Any) -> Any:
        return self._arr()[i]

    def __eq__(self, other: object) -> Any:
        return self._arr() == other


def _id_breaks(hid: Any, N: int, pc: Any) -> np.ndarray:
    """(N,) bool: row i has another hand_id than row i - 1 (row 0 and null ids too)."""
    hid = _one(hid)
    out = np.ones(N, bool)
    if N < 2:
        return out
    if hid.null_count == 0 and _is_int(hid.type):
        ids = hid.to_numpy(zero_copy_only=False)
        out[1:] = ids[1:] != ids[:-1]
    else:
        same = pc.fill_null(pc.equal(hid.slice(1), hid.slice(0, N - 1)), False)
        out[1:] = ~same.to_numpy(zero_copy_only=False)
    return out


def _same_id_within(hid: Any, N: int, P0: int, starts: np.ndarray | None,
                    pc: Any) -> np.ndarray:
    """(H,) bool: every row of the hand has the hand's first hand_id."""
    if N < 2:
        return np.ones(1 if N else 0, bool)
    hid = _one(hid)
    H = N // P0 if starts is None else len(starts)
    if hid.null_count == 0 and (_is_int(hid.type)):
        ids = hid.to_numpy(zero_copy_only=False)
        if starts is None:
            m = ids.reshape(H, P0)
            ok: np.ndarray = m[:, 1] == m[:, 0]
            for j in range(2, P0):
                ok &= m[:, j] == m[:, 0]
            return ok
        same = ids[1:] == ids[:-1]
    else:
        same = pc.fill_null(pc.equal(hid.slice(1), hid.slice(0, N - 1)), False)
        same = same.to_numpy(zero_copy_only=False)
    # row i (i >= 1) must match row i - 1 unless it starts a hand
    row_start = np.zeros(N, bool)
    if starts is None:
        row_start[::P0] = True
    else:
        row_start[starts] = True
    bad_row = np.zeros(N, bool)
    bad_row[1:] = ~same & ~row_start[1:]
    if not bad_row.any():
        return np.ones(H, bool)
    idx = np.arange(0, N, P0) if starts is None else starts
    whole: np.ndarray = np.add.reduceat(bad_row, idx) == 0
    return whole


def _hand_rules(table: Any, starts: np.ndarray, rules: Rules, source: str, row_offset: int
                ) -> tuple[list[RulesEntry], np.ndarray, list[tuple[int, RecordError]]]:
    """(variants, hand_variant, [(hand, error)]) from the variant/options columns."""
    pa, pc, pq = require_pyarrow()
    H = len(starts)
    cols = table.column_names
    parts: list[tuple[np.ndarray, list[Any]]] = []
    const: list[np.ndarray | None] = []      # the code arrays of one value for every hand
    for name in ("variant", "options"):
        col = table.column(name) if name in cols else None
        if col is not None and col.null_count == len(col):
            col = None
        if col is None:
            parts.append((np.full(H, -1, np.int64), []))
            const.append(parts[-1][0])
            continue
        col = _one(col)
        enc = col if pa.types.is_dictionary(col.type) else pc.dictionary_encode(col)
        words = enc.dictionary.to_pylist()
        if col.null_count == 0 and len(words) == 1:
            parts.append((np.zeros(H, np.int64), words))
            const.append(parts[-1][0])
            continue
        const.append(None)
        codes = enc.indices.to_numpy(zero_copy_only=False)[starts]
        if col.null_count:
            nulls = enc.indices.is_null().to_numpy(zero_copy_only=False)[starts]
            codes = np.where(nulls, -1, codes)
        parts.append((codes.astype(np.int64), words))
    (vc, vd), (oc, od) = parts
    if H and len(vd) <= 1 and len(od) <= 1 and (vc is const[0]) and (oc is const[1]):
        # one variant and options for every hand (or none named): no sort
        uniq = np.array([(vc[0] + 1) * (len(od) + 1) + (oc[0] + 1)])
        inv = np.zeros(H, np.int64)
    else:
        combo = (vc + 1) * (len(od) + 1) + (oc + 1)
        uniq, inv = np.unique(combo, return_inverse=True)
    variants, errors, bad_u = [], [], {}
    for u_i, u in enumerate(uniq.tolist()):
        vi, oi = u // (len(od) + 1) - 1, u % (len(od) + 1) - 1
        vname = vd[vi] if vi >= 0 else None
        opts = od[oi] if oi >= 0 else None
        try:
            if isinstance(opts, str):
                opts = orjson.loads(opts) if opts.strip() else None
            variants.append(rules.resolve(vname or None, opts))
        except Exception as e:  # noqa: BLE001
            variants.append(rules.resolve(None, None))
            bad_u[u_i] = e
    hand_variant = inv.reshape(-1)
    for h in np.flatnonzero(np.isin(inv.reshape(-1), list(bad_u))) if bad_u else []:
        s = int(starts[h])
        err = bad_u[int(inv.reshape(-1)[h])]
        errors.append((int(h), _error("unknown variant", clip(err), source,
                                      row_offset + s + 1,
                                      hand_id=table.column("hand_id")[s].as_py())))
    return variants, hand_variant, errors


def _discards(table: Any, N: int, source: str, row_offset: int, errors: list[RecordError],
              bad_hand: np.ndarray, row_hand: _LazyRowHand, hid: Any,
              starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, ids) from a list<uint8> (or text) discards column."""
    pa, pc, pq = require_pyarrow()
    col = _one(table.column("discards"))
    if (pa.types.is_list(col.type) or pa.types.is_large_list(col.type)) and \
            _kind(col.type.value_type) in ("integer", "float"):
        if col.null_count:
            col = pc.fill_null(col, pa.scalar([], col.type))
        off = col.offsets.to_numpy()
        vals = col.values.slice(int(off[0]), int(off[-1] - off[0]))
        off = np.subtract(off, off[0], dtype=np.int64)
        if vals.type == pa.uint8() and not vals.null_count:
            return off, vals.to_numpy(zero_copy_only=False)
        # values that are not card ids 0-255 (nulls, -1, 2.5): the hand is bad
        a, bad = _int_column(vals, 0, 255)
        ids = a.astype(np.uint8)
        if bad is not None:
            ids[bad] = 254
            for k in np.flatnonzero(bad).tolist():
                r = int(np.searchsorted(off, k, "right") - 1)
                h = int(row_hand[r])
                if not bad_hand[h]:
                    errors.append(_error("unknown card", f"discards: {shorten(vals[k].as_py())} "
                                         "is not a card id (0-51)", source, row_offset + r + 1,
                                         hand_id=hid[int(starts[h])].as_py(),
                                         seat=r - int(starts[h])))
                    bad_hand[h] = True
        return off, ids
    # card text, or lists of anything: each row read by the one card grammar
    texts = col.to_pylist()
    offsets, flat = [0], []
    for r, t in enumerate(texts):
        if t:
            try:
                flat += parse_card_list(t)
            except CardError as e:
                h = int(row_hand[r])
                if not bad_hand[h]:
                    errors.append(_error("unknown card", f"discards: {clip(e)}", source,
                                         row_offset + r + 1, hand_id=hid[int(starts[h])].as_py(),
                                         seat=r - int(starts[h])))
                    bad_hand[h] = True
        offsets.append(len(flat))
    return np.array(offsets, np.int64), np.array(flat, np.uint8)


def _empty_chunk(source: str, rules: Rules) -> Chunk:
    pa, pc, pq = require_pyarrow()
    return Chunk(source=source, hand_start=np.zeros(1, np.int64), hand_id=[],
                 hand_line=np.zeros(0, np.int64), hand_variant=[], variants=[], groups=[],
                 name=[], in_fantasyland=np.zeros(0, np.uint8),
                 recorded=np.zeros(0, np.int64), has_recorded=np.zeros(0, bool), unit="row",
                 n_records=0)
