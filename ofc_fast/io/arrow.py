"""Arrow tables of player-hands and chunks, both ways (docs/formats.md,
"Parquet / Arrow" and "Frames in memory").

One row per player-hand: ``hand_id``, ``seat``, ``n_players``, the layout as
uint8 card ids ``c00`` .. ``c12`` (``c00`` .. ``c17`` when four-row hands are
present; EMPTY 255 or null beyond a hand's cards), optional ``variant``,
``options`` (JSON object text), ``name``, ``in_fantasyland``, ``discards``
(list of uint8, or card text) and ``points`` (recorded).  The rows of one
hand are consecutive, in seat order.

:func:`chunk_from_arrow` reads such a table straight from its Arrow buffers:
each card column is viewed as numpy without a copy, gathered in one pass
(:func:`ofc_fast._records.gather_columns`) into the ``(G, P, n)`` table
array, and validated with vectorised checks and one C pass over the
discards; only bad hands take a slow path to say what is wrong.
:func:`chunk_table` is the way back: every source column kept as the Arrow
array read (nothing converted back), with ``points`` (ours), ``royalties``,
``foul``, ``fantasyland`` and ``recorded_points`` (where it differs from
ours) added.  The Parquet files of :mod:`ofc_fast.io.parquet` and the frames
of :func:`ofc_fast.io.score_frame` are read and written through these two.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import orjson

from ofc_fast._cards import decode_cells
from ofc_fast._records import gather_columns
from ofc_fast.cards import EMPTY, parse_card_list, split_rows
from ofc_fast.errors import CardError, FileFormatError, RecordError, shorten
from ofc_fast.io.schema import RESULT_COLUMNS, card_columns
from ofc_fast.io.tables import chunk_table, require_pyarrow
from ofc_fast.records import (
    DEFAULT_RULES,
    NUMBER_BOUNDS,
    Chunk,
    Group,
    Rules,
    RulesEntry,
    clip,
)
from ofc_fast.records.model import describe_cards
from ofc_fast.rules import Variant

__all__ = ["chunk_from_arrow", "chunk_table", "card_columns", "check_schema", "require_pyarrow",
           "RESULT_COLUMNS"]


def _is_int(t: Any) -> bool:
    """An Arrow integer type."""
    return bool(require_pyarrow()[0].types.is_integer(t))


TEXT_ROWS = ("top", "middle", "bottom", "third", "second", "rows")
"""Columns that give a layout as card text instead of ``c00`` .. ``c12``: the
rows by name, or all of them in ``rows`` (``/`` or ``|`` between rows), as in
CSV."""


# What each known column may hold (docs/formats.md); any other type is a
# FileFormatError: the file is not a hands file, whatever its rows say.
_NUMERIC = ("integer", "float", "null")
_COLUMN_KINDS = {"hand_id": ("integer", "text"), "seat": _NUMERIC, "n_players": _NUMERIC,
                 "in_fantasyland": _NUMERIC + ("bool",), "points": _NUMERIC,
                 "variant": ("text", "null"), "options": ("text", "null"),
                 "name": ("text", "integer", "null"),
                 **{row: ("text", "null") for row in TEXT_ROWS}}
_KIND_TEXT = {"integer": "an integer", "float": "a float", "null": "the null", "text": "a text",
              "bool": "a boolean"}


def _kind(t: Any) -> str:
    pa = require_pyarrow()[0]
    if pa.types.is_dictionary(t):
        return _kind(t.value_type)
    if pa.types.is_integer(t):
        return "integer"
    if pa.types.is_floating(t):
        return "float"
    if pa.types.is_boolean(t):
        return "bool"
    if pa.types.is_null(t):
        return "null"
    if pa.types.is_string(t) or pa.types.is_large_string(t) or \
            getattr(pa.types, "is_string_view", lambda _: False)(t):
        return "text"
    return str(t)


def check_schema(schema: Any, source: str, *, need_players: bool = True) -> None:
    """Check the columns of a hands table before any row is read.

    A table needs ``hand_id``, ``seat`` (and ``n_players`` when read in
    batches), and the layout as card ids ``c00`` .. ``c12`` or as card text
    (:data:`TEXT_ROWS`); a known column may appear once and must be of a type
    that can hold it (docs/formats.md).  Other columns are not looked at.

    Parameters
    ----------
    schema : pyarrow.Schema
        The table's schema.
    source : str
        The table or file, for the message.
    need_players : bool
        ``n_players`` is required.

    Returns
    -------
    None

    Raises
    ------
    FileFormatError
        A missing column, a known one twice or of the wrong type; the message
        names the column.

    Examples
    --------
    >>> pa = require_pyarrow()[0]
    >>> check_schema(pa.schema([("hand_id", pa.string()), ("seat", pa.int8()),
    ...                         ("top", pa.string())]), "t", need_players=False)
    >>> check_schema(pa.schema([("hand_id", pa.string()), ("seat", pa.string()),
    ...                         ("top", pa.string())]), "t", need_players=False)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.FileFormatError: t: column 'seat' has type 'string'; it must be of ...
    """
    names = schema.names
    need = {"hand_id", "seat"} | ({"n_players"} if need_players else set())
    ids = set(card_columns(13))
    text = bool(set(TEXT_ROWS) & set(names)) and not ids & set(names)
    cards = ids <= set(names) or text
    if not need <= set(names) or not cards:
        missing = sorted(need - set(names))
        if not cards:
            missing += sorted(ids - set(names)) if ids & set(names) else ["c00..c12"]
        raise FileFormatError(source, f"missing columns {missing}; a hands table needs "
                              f"{', '.join(sorted(need))} and the layout: the uint8 card "
                              "columns c00..c12 (c00..c17 for four rows), or the rows as card "
                              "text (top, middle, bottom, or rows)")
    for name in set(names):
        kinds = _COLUMN_KINDS.get(name, _NUMERIC if _is_card_column(name) else None)
        if kinds is None or (not text and name in TEXT_ROWS):    # card ids: text not read
            continue
        if names.count(name) > 1:
            raise FileFormatError(source, f"column {name!r} appears {names.count(name)} times")
        t = schema.field(name).type
        if _kind(t) not in kinds:
            want = [_KIND_TEXT[k] for k in kinds]
            must = f"{', '.join(want[:-1])} or {want[-1]}" if len(want) > 1 else want[0]
            raise FileFormatError(source, f"column {name!r} has type {shorten(str(t), 60)}; it "
                                  f"must be of {must} type")


def _is_card_column(name: str) -> bool:
    return len(name) == 3 and name[0] == "c" and name[1:].isdigit() and int(name[1:]) < 18


def _int_column(col: Any, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray | None]:
    """(int64 values, bad) of a numeric column: ``bad`` marks nulls, values
    that are not integers (2.7, NaN) and values outside ``lo..hi`` (None if
    there are none).  Integer columns without nulls stay zero-copy views
    until a value is out of bounds."""
    pa, pc, pq = require_pyarrow()
    col = _one(col)
    if pa.types.is_dictionary(col.type):
        col = col.dictionary_decode()
    if pa.types.is_null(col.type):
        return np.zeros(len(col), np.int64), np.ones(len(col), bool)
    nulls = col.null_count
    if nulls:
        zero = pa.scalar(False) if pa.types.is_boolean(col.type) else pa.scalar(0, col.type)
        arr = pc.fill_null(col, zero).to_numpy(zero_copy_only=False)
    else:
        arr = col.to_numpy(zero_copy_only=False)
    bad = None
    if arr.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            # integral, in bounds, and exact (beyond 2**53 a float is not one integer)
            ok = np.isfinite(arr) & (arr == np.floor(arr)) & (arr >= max(lo, -2.0 ** 53)) & \
                (arr <= min(float(hi), 2.0 ** 53))
        if not ok.all():
            bad = ~ok
            arr = np.where(ok, arr, 0)
        arr = arr.astype(np.int64)
    elif arr.dtype.kind == "b":
        arr = arr.view(np.uint8)
    elif arr.dtype.kind == "u" and arr.dtype.itemsize == 8:
        over = arr > np.uint64(hi)
        if over.any():
            bad = over
            arr = np.where(over, 0, arr)
        arr = arr.astype(np.int64)
    if bad is None and (lo > np.iinfo(arr.dtype).min or hi < np.iinfo(arr.dtype).max):
        out = (arr < lo) | (arr > hi)
        if out.any():
            bad = out
    if nulls:
        isnull = col.is_null().to_numpy(zero_copy_only=False)
        bad = isnull if bad is None else bad | isnull
    return arr, bad


def _one(col: Any) -> Any:
    """One Arrow array of a column: its only chunk as is (no copy), or the
    chunks combined."""
    if hasattr(col, "num_chunks"):
        return col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()
    return col


def _np(col: Any, name: str, dtype: Any = None) -> np.ndarray:
    """Numpy view (zero-copy when possible) of an Arrow column without nulls."""
    arr: np.ndarray = _one(col).to_numpy(zero_copy_only=False)
    return arr if dtype is None else arr.astype(dtype, copy=False)


def _error(reason: str, detail: str, source: str, line: int | None = None,
           **kw: Any) -> RecordError:
    return RecordError(reason, detail, source=source, line=line, unit="row", **kw)


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
    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    cols = set(table.column_names)
    check_schema(table.schema, source, need_players=not final)
    if pa.types.is_dictionary(table.schema.field("hand_id").type):
        i = table.column_names.index("hand_id")
        table = table.set_column(i, "hand_id", pc.cast(
            table.column(i), table.schema.field(i).type.value_type))
    N = table.num_rows
    errors: list[RecordError] = []
    # a missing or non-integral seat or player count is -1: the hand's rows
    # then fail the structure check below (a record error)
    # (any integer passes here: the structure check judges seats and counts)
    values, bad = _int_column(table.column("seat"), -(1 << 62), 1 << 62)
    seat: np.ndarray = values if bad is None else np.where(bad, -1, values)
    nplay: np.ndarray
    if "n_players" in cols:
        values, bad = _int_column(table.column("n_players"), -(1 << 62), 1 << 62)
        nplay = values if bad is None else np.where(bad, -1, values)
    else:       # a whole table: each hand's rows are counted
        nplay = _counted_players(seat, table.column("hand_id"), N, pc)
    carry = None
    P0 = int(nplay[0]) if N else 0
    # --- fast path: every hand has P0 players, seats 0 .. P0-1 in order
    uniform = False
    if N and 2 <= P0 <= 8 and nplay.min() == nplay.max():
        tail = N % P0
        if tail and not final and (seat[N - tail:] == np.arange(tail)).all():
            carry = table.slice(N - tail)
            N -= tail
            table, seat, nplay = table.slice(0, N), seat[:N], nplay[:N]
        if N % P0 == 0 and (seat.reshape(-1, P0) == np.arange(P0)).all():
            uniform = True
    if N == 0:
        return _empty_chunk(source, rules), carry
    hid = table.column("hand_id")
    if uniform:
        starts = np.arange(0, N, P0)
        lens = np.full(len(starts), P0)
        ok_hand = _same_id_within(hid, N, P0, None, pc)
    else:
        seat = seat.astype(np.int64)
        nplay = nplay.astype(np.int64)
        # --- tentative hands: a hand starts at seat 0, and where the hand id
        # changes (so a broken row never drags its neighbour hand down with it)
        starts = np.flatnonzero((seat == 0) | _id_breaks(hid, N, pc))
        if not len(starts) or starts[0] != 0:
            starts = np.concatenate([[0], starts])
        lens = np.diff(np.append(starts, N))
        if not final and len(starts) and carry is None:
            s, L = int(starts[-1]), int(lens[-1])
            if seat[s] == 0 and L < nplay[s] and (seat[s:] == np.arange(L)).all():
                carry = table.slice(s)
                table, N = table.slice(0, s), s
                starts, lens = starts[:-1], lens[:-1]
                seat, nplay = seat[:N], nplay[:N]
                hid = table.column("hand_id")
        if N == 0:
            return _empty_chunk(source, rules), carry
        first = np.repeat(starts, lens)
        ok_hand = (nplay[starts] == lens) & (seat[starts] == 0)
        row_bad = (seat != np.arange(N) - first) | (nplay != nplay[first])
        if row_bad.any():
            ok_hand &= np.bincount(np.repeat(np.arange(len(starts)), lens), weights=row_bad,
                                   minlength=len(starts)) == 0
    if not ok_hand.all():
        for h in np.flatnonzero(~ok_hand):
            s, L = int(starts[h]), int(lens[h])
            hid_s = hid[s].as_py()
            errors.append(_error(
                "wrong number of players" if seat[s] == 0 and L != nplay[s] and
                (seat[s:s + L] == np.arange(L)).all() else "bad value",
                f"rows {row_offset + s + 1}-{row_offset + s + L} have seats "
                f"{shorten(seat[s:s + L].tolist())}, n_players "
                f"{shorten(sorted(set(nplay[s:s + L].tolist())))}, hand ids "
                f"{shorten(sorted(set(map(str, hid.slice(s, min(L, 50)).to_pylist()))))}; "
                "a hand is n_players consecutive rows with seats 0, 1, ... (-1: missing) "
                "and one hand_id",
                source, row_offset + s + 1, hand_id=hid_s))
        keep = np.repeat(ok_hand, lens)
        if not skip_bad:
            raise errors[0]
        table = table.filter(pa.array(keep))
        chunk, _ = chunk_from_arrow(table, source=source, rules=rules, row_offset=row_offset,
                                    final=True, skip_bad=True)
        # row numbers of the filtered table shift; map them back
        orig_rows = np.flatnonzero(keep)
        if chunk.row_line is not None:
            inner = np.asarray(chunk.row_line, np.int64)
        else:       # the row of each player-hand kept: its hand's row + its seat
            inner = np.repeat(np.asarray(chunk.hand_line, np.int64) - chunk.hand_start[:-1],
                              chunk.n_players) + np.arange(chunk.n_rows)
        chunk.hand_line = orig_rows[chunk.hand_line - row_offset - 1] + row_offset + 1
        chunk.row_line = orig_rows[inner - row_offset - 1] + row_offset + 1
        for e in chunk.errors:
            if e.line is not None:
                e.line = int(orig_rows[e.line - row_offset - 1]) + row_offset + 1
                e.args = (e.message,)
        chunk.errors = sorted(errors + chunk.errors, key=lambda e: e.line or 0)
        chunk.n_records = len(starts)
        return chunk, carry
    H = len(starts)
    P = lens
    # --- rules per hand
    variants, hand_variant, bad_variant = _hand_rules(table, starts, rules, source, row_offset)
    for _, err in bad_variant:
        errors.append(err)
    # --- players per variant
    vmin = np.array([v.min_players for v, _, _ in variants] or [0])
    vmax = np.array([v.max_players for v, _, _ in variants] or [0])
    hv = np.asarray(hand_variant, np.int64)
    bad_p = (P < vmin[hv]) | (P > vmax[hv])
    bad_p[[h for h, _ in bad_variant]] = False
    for h in np.flatnonzero(bad_p):
        v = variants[hv[h]][0]
        errors.append(_error("wrong number of players", f"{int(P[h])} players; {v.name} is played "
                             f"by {v.min_players}-{v.max_players}", source,
                             row_offset + int(starts[h]) + 1, hand_id=hid[int(starts[h])].as_py()))
    bad_hand = bad_p.copy()
    bad_hand[[h for h, _ in bad_variant]] = True
    name = _one(table.column("name")) if "name" in cols else None
    # --- cards
    if "c00" in cols:
        width = max((v.n_cards for v, _, _ in variants), default=13)
        have = [c for c in card_columns(18) if c in cols]
        if width == 18 and len(have) < 18:
            four = [g for g in range(H) if variants[hv[g]][0].n_rows == 4 and not bad_hand[g]]
            if four:
                missing = sorted(set(card_columns(18)) - set(have))
                for g in four:
                    errors.append(_error("wrong row size", f"a four-row hand needs card columns "
                                         f"c00..c17; missing {missing}", source,
                                         row_offset + int(starts[g]) + 1,
                                         hand_id=hid[int(starts[g])].as_py()))
                    bad_hand[g] = True
        ncol = max(width, len(have))
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
        row_hand = _LazyRowHand(H, P)
        hand_width = np.array([v.n_cards for v, _, _ in variants] or [13])[hv]
        if ncol > 13:
            # three-row hands must leave c13.. empty
            extra = (cards[:, 13:] != EMPTY).any(axis=1) & (hand_width[row_hand._arr()] == 13)
            for h in np.unique(row_hand[extra]):
                if not bad_hand[h]:
                    r = int(np.flatnonzero(extra & (row_hand == h))[0])
                    errors.append(_error("wrong row size", "a three-row hand has cards in "
                                         f"columns c13..c17 (seat {int(seat[r])})", source,
                                         row_offset + r + 1, hand_id=hid[int(starts[h])].as_py(),
                                         seat=int(seat[r])))
                    bad_hand[h] = True
    else:
        row_hand = _LazyRowHand(H, P)
        cards = _text_cards(table, variants, hv, starts, P, seat, hid, name, bad_hand, errors,
                            source, row_offset)
        ncol = cards.shape[1]
        not_ids = []
    # --- other columns

    def flag(bad_rows: np.ndarray, column: str, what: str, reason: str = "bad value") -> None:
        """An error for each hand with a bad row (its first)."""
        for h in np.unique(row_hand[bad_rows]):
            if not bad_hand[h]:
                r = int(np.flatnonzero(bad_rows & (row_hand == h))[0])
                got = table.column(column)[r].as_py()
                errors.append(_error(reason, f"{column} must be {what}, got {shorten(got)}",
                                     source, row_offset + r + 1, seat=int(seat[r]),
                                     name=name[r].as_py() if name is not None else None,
                                     hand_id=hid[int(starts[h])].as_py()))
                bad_hand[h] = True

    for column, rows in not_ids:
        flag(rows, column, "a card id 0-51 (null: no card)", "unknown card")

    if "in_fantasyland" in cols:
        c = table.column("in_fantasyland")
        fl, badf = _int_column(c, 0, 255)
        if c.null_count:           # null: not in fantasyland
            isnull = _np(c.is_null(), "in_fantasyland", bool)
            badf = None if badf is None else (badf & ~isnull)
        if badf is not None and badf.any():
            flag(badf, "in_fantasyland", "an integer 0-255 (or true/false)")
            fl = np.where(badf, 0, fl)
        fl = fl.astype(np.uint8, copy=False)
    else:
        fl = np.zeros(N, np.uint8)
    if "points" in cols:
        c = table.column("points")
        recorded, badp = _int_column(c, *NUMBER_BOUNDS["points"])
        has = ~_np(c.is_null(), "points", bool) if c.null_count else np.ones(N, bool)
        if badp is not None and (badp & has).any():
            flag(badp & has, "points", "an integer (int64)")
        recorded = recorded.astype(np.int64, copy=False)
    else:
        has, recorded = np.zeros(N, bool), np.zeros(N, np.int64)
    if name is None:
        name = pa.nulls(N, pa.string())
    discards = _discards(table, N, source, row_offset, errors, bad_hand, row_hand, hid, starts) \
        if "discards" in cols else None
    # --- groups
    key = hv * 8 + P
    groups = []
    good = ~bad_hand
    if good.all() and len(variants) == 1 and (P == P[0]).all():
        v = variants[0][0]
        n, p = v.n_cards, int(P[0])
        gc = cards if ncol == n else np.ascontiguousarray(cards[:, :n])
        groups.append(Group(v, p, gc.reshape(H, p, n), fl.reshape(H, p), np.arange(H),
                            np.arange(N).reshape(H, p)))
    else:
        for k in np.unique(key[good]):
            hands = np.flatnonzero((key == k) & good)
            v = variants[int(k) // 8][0]
            p = int(k) % 8
            rows = starts[hands][:, None] + np.arange(p)
            gc = cards[rows.reshape(-1), :v.n_cards].reshape(len(hands), p, v.n_cards)
            groups.append(Group(v, p, gc, fl[rows], hands, rows))
    hand_start = np.empty(H + 1, np.int64)
    hand_start[:H] = starts
    hand_start[H] = N
    chunk = Chunk(
        source=source, hand_start=hand_start,
        hand_id=hid.take(pa.array(starts)), hand_line=starts + row_offset + 1,
        hand_variant=hand_variant, variants=variants, groups=groups, name=name,
        in_fantasyland=fl, recorded=recorded, has_recorded=has, discards=discards,
        arrow=table, errors=[], unit="row")
    if errors:
        errors.sort(key=lambda e: e.line or 0)
        if not skip_bad:
            # an earlier hand may still have a duplicate card: let validate() order them
            chunk.errors = errors
            chunk.validate(False)
        chunk = chunk.drop(np.flatnonzero(bad_hand), errors)
    chunk.n_records = H
    return chunk.validate(skip_bad), carry


def _text_cards(table: Any, variants: list[RulesEntry], hv: np.ndarray, starts: np.ndarray,
                P: np.ndarray, seat: np.ndarray, hid: Any, name: Any, bad_hand: np.ndarray,
                errors: list[RecordError], source: str, row_offset: int) -> np.ndarray:
    """(N, width) card ids of layouts given as card text (:data:`TEXT_ROWS`).

    Each row column is decoded in one C pass (:func:`ofc_fast._cards.decode_cells`:
    plain ASCII card text of the row's size); a player-hand with a cell it
    does not read (other spellings, the ``rows`` column, a bad or missing row)
    is read by the card grammar, which says what is wrong.  Hands with a bad
    row go to ``errors`` and ``bad_hand``."""
    N = table.num_rows
    cols = set(table.column_names)
    width = max((v.n_cards for v, _, _ in variants), default=13)
    cards = np.full((N, width), EMPTY, np.uint8)
    row_hand = np.repeat(np.arange(len(starts)), P)
    row_v = hv[row_hand]
    good = ~bad_hand[row_hand]
    slow = np.zeros(N, bool)
    decoded: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}
    for k in np.unique(row_v[good]).tolist():
        v = variants[k][0]
        rows = np.flatnonzero((row_v == k) & good)
        pos = 0
        for row, size in zip(v.row_names, v.row_sizes, strict=True):
            if row in cols:
                if (row, size) not in decoded:
                    decoded[row, size] = _decode_text(table.column(row), size)
                ids, ok = decoded[row, size]
                cards[rows, pos:pos + size] = ids[rows]
                slow[rows[~ok[rows]]] = True
            else:
                slow[rows] = True
            pos += size
    for r in np.flatnonzero(slow).tolist():
        h = int(row_hand[r])
        if bad_hand[h]:
            continue
        s = int(starts[h])
        err = _text_row(table, r, variants[row_v[r]][0], cards[r], source, row_offset + r + 1,
                        hand_id=hid[s].as_py(), seat=int(seat[r]),
                        name=name[r].as_py() if name is not None else None)
        if err is not None:
            errors.append(err)
            bad_hand[h] = True
    return cards


def _decode_text(col: Any, size: int) -> tuple[np.ndarray, np.ndarray]:
    """((N, size) card ids, (N,) bool read) of a text column: cells of plain
    ASCII card text with ``size`` cards, straight from the Arrow buffers."""
    pa, pc, pq = require_pyarrow()
    col = _one(col)
    N = len(col)
    if pa.types.is_dictionary(col.type):
        ids, ok = _decode_text(col.dictionary, size)
        codes = pc.fill_null(col.indices, 0).to_numpy(zero_copy_only=False)
        ids, ok = ids[codes], ok[codes]
        if col.null_count:
            ok &= col.is_valid().to_numpy(zero_copy_only=False)
        return ids, ok
    ids = np.full((N, size), EMPTY, np.uint8)
    ok = np.zeros(N, np.uint8)
    if pa.types.is_null(col.type) or N == 0:
        return ids, ok.view(bool)
    if not pa.types.is_string(col.type) and not pa.types.is_large_string(col.type):
        col = col.cast(pa.large_string())           # string_view (polars)
    _, offsets, data = col.buffers()
    width = np.int32 if pa.types.is_string(col.type) else np.int64
    off = np.frombuffer(offsets, width)[col.offset:col.offset + N + 1].astype(np.int64)
    text = np.frombuffer(data, np.uint8) if data is not None and data.size else \
        np.zeros(1, np.uint8)
    decode_cells(text, off, size, ids, ok)
    read = ok.view(bool)
    if col.null_count:
        read &= col.is_valid().to_numpy(zero_copy_only=False)
    return ids, read


def _text_row(table: Any, r: int, v: Variant, out: np.ndarray, source: str, line: int,
              **ctx: Any) -> RecordError | None:
    """Read the layout of row ``r`` by the card grammar into ``out``; the
    RecordError of its first bad row, or None."""
    cols = table.column_names
    cells = {row: table.column(row)[r].as_py() for row in v.row_names if row in cols}
    given = {row: text for row, text in cells.items() if text}
    whole = table.column("rows")[r].as_py() if "rows" in cols else None
    if not given and whole:
        try:
            given = dict(zip(v.row_names, split_rows(whole, v.n_rows), strict=True))
        except CardError as e:
            return _error("wrong row size", f"rows: {clip(e)}", source, line, **ctx)
    missing = [row for row in v.row_names if row not in given]
    if missing:
        other = [row for row in TEXT_ROWS[:5] if row in cols and row not in v.row_names]
        hint = f" ({v.name} has rows {', '.join(v.row_names)})" if other else ""
        return _error("wrong row size", f"no {', '.join(missing)} row"
                      f"{'s' if len(missing) > 1 else ''} (null or empty){hint}", source, line,
                      row=missing[0] if len(missing) == 1 else None, **ctx)
    pos = 0
    for row, size in zip(v.row_names, v.row_sizes, strict=True):
        try:
            ids = parse_card_list(given[row])
        except CardError as e:
            return _error("unknown card", clip(e), source, line, row=row, **ctx)
        if len(ids) != size:
            return _error("wrong row size", f"{describe_cards(ids)}; the {row} row needs {size}",
                          source, line, row=row, **ctx)
        out[pos:pos + size] = ids
        pos += size
    return None


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
