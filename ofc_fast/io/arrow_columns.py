"""The columns of an Arrow table of player-hands, one by one: what each may
hold (:func:`check_schema`, before any row is read), their values as numpy
(integers with the rows whose value is not one) and the layout given as
card text (decoded in one C pass, the odd cell by the card grammar).  The
rows are put together into hands by :func:`ofc_fast.io.arrow.chunk_from_arrow`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ofc_fast._cards import decode_cells, number_layouts
from ofc_fast.cards import EMPTY, parse_card_list, split_rows
from ofc_fast.errors import CardError, FileFormatError, RecordError, shorten
from ofc_fast.io.schema import card_columns
from ofc_fast.io.tables import require_pyarrow
from ofc_fast.records import RulesEntry, clip
from ofc_fast.records.builder import layout_ids
from ofc_fast.records.model import describe_cards, rows_disagreement
from ofc_fast.rules import Variant

__all__ = ["TEXT_ROWS", "check_schema", "plain_views"]


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
_COLUMN_KINDS = {"hand_id": ("integer", "text", "null"), "seat": _NUMERIC, "n_players": _NUMERIC,
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


def plain_views(table: Any) -> Any:
    """The table with its view columns (``string_view``, ``binary_view``:
    what polars and newer Arrow writers give) as the plain types they view,
    which every Arrow compute kernel takes; other columns as they are.

    Parameters
    ----------
    table : pyarrow.Table
        The table.

    Returns
    -------
    pyarrow.Table

    Raises
    ------
    ImportError
        pyarrow is not installed.

    Examples
    --------
    >>> pa = require_pyarrow()[0]
    >>> t = pa.table({"hand_id": pa.array(["h1"], pa.string_view())})
    >>> plain_views(t).schema.field("hand_id").type
    DataType(string)
    """
    pa, pc, _ = require_pyarrow()
    plain = {"string_view": pa.string(), "binary_view": pa.binary()}
    for i, field in enumerate(table.schema):
        want = plain.get(str(field.type))
        if want is not None:
            table = table.set_column(i, field.name, pc.cast(table.column(i), want))
    return table


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
        arr = arr.astype(np.float64, copy=False)     # float16 and float32 compared exactly
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
                if (row, size) not in decoded:      # Xj left marked: numbered below
                    decoded[row, size] = _decode_text(table.column(row), size, marked=True)
                ids, ok = decoded[row, size]
                cards[rows, pos:pos + size] = ids[rows]
                slow[rows[~ok[rows]]] = True
            else:
                slow[rows] = True
            pos += size
    # each Xj: the lowest joker the player's layout does not name otherwise
    # (across its rows); a third joker: the card grammar says so
    numbered = (good & ~slow).astype(np.uint8)
    number_layouts(cards, numbered)
    slow |= good & ~numbered.view(bool)
    if "rows" in cols and cols & set(TEXT_ROWS[:5]):    # both forms: compared row by row
        slow |= _given(table.column("rows"))
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


def _given(col: Any) -> np.ndarray:
    """(N,) bool: the cells of a text column that hold text (not null, not empty)."""
    pa, pc, _ = require_pyarrow()
    col = _one(col)
    if pa.types.is_null(col.type):
        return np.zeros(len(col), bool)
    if pa.types.is_dictionary(col.type):
        col = col.cast(col.type.value_type)
    if not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)):
        try:
            col = col.cast(pa.large_string())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):   # not text: read cell by cell
            given: np.ndarray = ~col.is_null().to_numpy(zero_copy_only=False)
            return given
    has = pc.greater(pc.utf8_length(col), 0)
    out: np.ndarray = pc.fill_null(has, False).to_numpy(zero_copy_only=False).astype(bool)
    return out


def _decode_text(col: Any, size: int, marked: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """((N, size) card ids, (N,) bool read) of a text column: cells of plain
    ASCII card text with ``size`` cards, straight from the Arrow buffers
    (``marked``: each ``Xj`` left as ``NEXT_JOKER``, for the layout to number)."""
    pa, pc, pq = require_pyarrow()
    col = _one(col)
    N = len(col)
    if pa.types.is_dictionary(col.type):
        ids, ok = _decode_text(col.dictionary, size, marked)
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
    decode_cells(text, off, size, ids, ok, -1 if marked else 0)
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
    both = bool(given) and bool(whole)        # two forms: they must agree (below)
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
    try:        # each Xj numbered across the layout
        numbered: list[list[int]] | None = layout_ids([given[row] for row in v.row_names])
    except CardError as e:
        if "third joker" in str(e):
            return _error("unknown card", clip(e), source, line, **ctx)
        numbered = None         # the row at fault says what is wrong, below
    for i, (row, size) in enumerate(zip(v.row_names, v.row_sizes, strict=True)):
        try:
            ids = numbered[i] if numbered is not None else parse_card_list(given[row])
        except CardError as e:
            return _error("unknown card", clip(e), source, line, row=row, **ctx)
        if len(ids) != size:
            return _error("wrong row size", f"{describe_cards(ids)}; the {row} row needs {size}",
                          source, line, row=row, **ctx)
        out[pos:pos + size] = ids
        pos += size
    if both:                                  # two forms: the same layout
        detail = rows_disagreement(whole, out[:pos].tolist(), v)
        if detail is not None:
            return _error("contradictory record", detail, source, line, **ctx)
    return None
