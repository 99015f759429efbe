"""A chunk as an Arrow table, one row per player-hand in the columns of
:mod:`ofc_fast.io.schema` (the Parquet writer's and the frames' way out;
docs/formats.md, "Parquet / Arrow"), and pyarrow imported on demand.

Every column is built by Arrow from the chunk's arrays (no Python loop over
rows): a chunk read from Arrow keeps its source columns as read; others get
the schema's columns, text from the reader's name codes and the variant
entries as dictionaries.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import orjson

from ofc_fast._args import flag, instance, integer
from ofc_fast.cards import EMPTY
from ofc_fast.errors import ArgumentError
from ofc_fast.io.schema import KEY_COLUMNS, RESULT_COLUMNS, card_columns, result_values
from ofc_fast.records import Chunk

__all__ = ["require_pyarrow", "chunk_table", "result_arrays", "concat_tables", "conform",
           "wide_cards", "wider_ids"]


_EXTRAS = {
    "arrow": "Arrow tables and frames need pyarrow: pip install 'ofc-fast[arrow]' "
             "(or 'ofc-fast[pandas]', 'ofc-fast[polars]' with the frame library)",
    "parquet": "Parquet files need pyarrow: pip install 'ofc-fast[parquet]'",
}


def require_pyarrow(need: str = "arrow") -> tuple[Any, Any, Any]:
    """The pyarrow modules, imported when first needed (pyarrow is optional).

    Parameters
    ----------
    need : {"arrow", "parquet"}
        What needs it, for the advice of the error: frames and Arrow tables
        (the extras ``[arrow]``, ``[pandas]``, ``[polars]``) or Parquet files
        (``[parquet]``).

    Returns
    -------
    tuple
        ``(pyarrow, pyarrow.compute, pyarrow.parquet)``.

    Raises
    ------
    ImportError
        pyarrow is not installed; the message names the extra that installs it.

    Examples
    --------
    >>> pa, pc, pq = require_pyarrow()
    >>> pa.__name__, pq.__name__
    ('pyarrow', 'pyarrow.parquet')
    """
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportError(_EXTRAS[need]) from None
    return pa, pc, pq


def chunk_table(chunk: Chunk, width: int | None = None, results_only: bool = False) -> Any:
    """An Arrow table of a chunk, one row per player-hand (results added if scored).

    A chunk read from Arrow keeps every source column as read; others get the
    columns of :data:`~ofc_fast.io.schema.HAND_COLUMNS`, the card ids and the
    discards.  The ``variant`` column holds the rules applied (a dictionary
    of each name once, so pandas and polars read it as a categorical).  A
    scored chunk then has our results (:func:`result_arrays`, the schema's
    order: ``points``, ``royalties``, ``foul``, ``fantasyland``,
    ``recorded_points``); an unscored one the recorded ``points``.

    Parameters
    ----------
    chunk : Chunk
        The hands.
    width : int, optional
        Card columns (13 or 18; default the widest layout of the chunk).
    results_only : bool
        Keys and results only, no card columns (faster to write, but not a
        hands file: it cannot be scored again).

    Returns
    -------
    pyarrow.Table

    Raises
    ------
    ArgumentError
        The chunk has four-row hands and ``width`` is 13.
    ImportError
        pyarrow is not installed.

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"name": "ann", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d",
    ...      "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"name": "bob", "top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d",
    ...      "bottom": "Tc Td Ts Th 8d"}
    >>> table = chunk_table(chunk_from_records([{"id": 1, "players": [p, q]}]).score())
    >>> table.select(["name", "points", "royalties", "fantasyland"]).to_pylist()[0]
    {'name': 'ann', 'points': 6, 'royalties': 29, 'fantasyland': 14}
    >>> table.column_names[-5:]
    ['points', 'royalties', 'foul', 'fantasyland', 'recorded_points']
    """
    pa, pc, pq = require_pyarrow()
    instance(chunk, "chunk", Chunk, "a Chunk")
    results_only = flag(results_only, "results_only")
    if width is not None:
        width = integer(width, "width", 13, 18)
    scored = chunk.points is not None
    if results_only and scored:
        keys = _key_arrays(chunk, pa)
        return pa.table({**{k: keys[k] for k in KEY_COLUMNS}, **result_arrays(chunk)})
    widest = max((g.cards.shape[2] for g in chunk.groups), default=13)
    n_cards: int = widest if width is None else width
    if widest > n_cards:
        raise ArgumentError(f"this chunk has four-row hands ({widest} cards) but the file was "
                            f"started with {n_cards} card columns; write four-row hands with "
                            "width=18 from the start (or to their own file)")
    columns = _source_columns(chunk, n_cards, pa) if chunk.arrow is not None else \
        _hand_columns(chunk, n_cards, pa)
    if scored:
        columns.update(result_arrays(chunk))
    elif chunk.arrow is None:
        columns["points"] = pa.array(chunk.recorded, mask=~chunk.has_recorded)
    elif "points" in chunk.arrow.column_names:
        columns["points"] = chunk.arrow.column("points")
    return pa.table(columns)


def result_arrays(chunk: Chunk) -> dict[str, Any]:
    """A scored chunk's results as Arrow arrays, by column in the schema's
    order and types (``recorded_points`` null where it does not differ).

    Parameters
    ----------
    chunk : Chunk
        Scored.

    Returns
    -------
    dict

    Raises
    ------
    StateError
        The chunk is not scored.
    ImportError
        pyarrow is not installed.

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> res = result_arrays(chunk_from_records([{"players": [p, q]}]).score())
    >>> list(res), str(res["royalties"].type)
    (['points', 'royalties', 'foul', 'fantasyland', 'recorded_points', 'substitutes'], 'int16')
    """
    pa = require_pyarrow()[0]
    out = {}
    for name, (values, valid) in result_values(chunk).items():
        kind = pa.string() if values.dtype == object else pa.from_numpy_dtype(values.dtype)
        if valid is None:
            out[name] = pa.array(values, kind)
        elif not valid.any():
            out[name] = pa.nulls(len(values), kind)
        else:
            out[name] = pa.array(values, kind, mask=~valid)
    return out


def _source_columns(chunk: Chunk, width: int, pa: Any) -> dict[str, Any]:
    """The columns of a chunk read from Arrow: the source's, as read (the
    rules applied in ``variant`` and ``options``; missing card columns
    added)."""
    src = chunk.arrow
    keep = [c for c in src.column_names if c not in RESULT_COLUMNS and c not in
            card_columns(18)[width:]]
    columns = {c: src.column(c) for c in keep}
    # the rules actually applied (defaults or --override), one dictionary entry each
    rv = _row_variant(chunk)
    odict = [_options_text(o) for _, _, o in chunk.variants]
    rules = {"variant": _variant_column(chunk, rv, pa)}
    if "options" in columns or any(odict):
        rules["options"] = _options_column(odict, rv, pa)
    for cname, col in rules.items():
        if cname in columns:
            columns[cname] = col
        else:       # after the keys the source has
            names = list(columns)
            at = 3 if len(names) >= 3 else len(names)
            columns = dict([*list(columns.items())[:at], (cname, col),
                            *list(columns.items())[at:]])
    # a table of card text gets the layout as card ids; a table of ids
    # keeps its own, and gets EMPTY for columns it lacks (c13..c17)
    cards = chunk.cards(width) if "c00" not in columns else None
    N = chunk.n_rows
    for j, c in enumerate(card_columns(width)):
        if c not in columns:
            columns[c] = pa.array(np.full(N, EMPTY, np.uint8) if cards is None else
                                  np.ascontiguousarray(cards[:, j]))
    return columns


def _hand_columns(chunk: Chunk, width: int, pa: Any) -> dict[str, Any]:
    """The schema's columns of a chunk read from text
    (:data:`~ofc_fast.io.schema.HAND_COLUMNS`, cards, discards)."""
    N = chunk.n_rows
    columns = _key_arrays(chunk, pa)
    odict = [_options_text(o) for _, _, o in chunk.variants]
    columns["options"] = _options_column(odict, _row_variant(chunk), pa)
    columns["in_fantasyland"] = pa.array(chunk.in_fantasyland)
    cards = chunk.cards(width)
    for j, c in enumerate(card_columns(width)):
        columns[c] = pa.array(np.ascontiguousarray(cards[:, j]))
    if chunk.discards is not None:
        off, ids_ = chunk.discards
        columns["discards"] = pa.ListArray.from_arrays(pa.array(off.astype(np.int32)),
                                                       pa.array(ids_, pa.uint8()))
    else:
        columns["discards"] = pa.ListArray.from_arrays(pa.array(np.zeros(N + 1, np.int32)),
                                                       pa.array([], pa.uint8()))
    return columns


def _key_arrays(chunk: Chunk, pa: Any) -> dict[str, Any]:
    """The key columns (:data:`~ofc_fast.io.schema.KEY_COLUMNS`) as Arrow arrays."""
    src = chunk.arrow
    N = chunk.n_rows
    rh = np.repeat(np.arange(chunk.n_hands), chunk.n_players)
    if src is not None:
        hid, seat, nplay = src.column("hand_id"), src.column("seat"), src.column("n_players")
        name = src.column("name") if "name" in src.column_names else pa.nulls(N, pa.string())
    else:
        hid = _id_array(chunk.hand_ids(), pa).take(pa.array(rh)) if N else \
            pa.array([], pa.string())
        seat = pa.array(chunk.seat)
        nplay = pa.array(np.repeat(chunk.n_players, chunk.n_players).astype(np.int8))
        name = _names_array(chunk, pa)
    return {"hand_id": hid, "seat": seat, "n_players": nplay, "name": name,
            "variant": _variant_column(chunk, _row_variant(chunk), pa)}


def _options_text(options: dict[str, Any] | None) -> str | None:
    """Options as JSON object text (keys sorted), None for none."""
    return orjson.dumps(options, option=orjson.OPT_SORT_KEYS).decode() if options else None


def _names_array(chunk: Chunk, pa: Any) -> Any:
    """The players' names as an Arrow string array (from the reader's name
    codes when it coded them)."""
    if isinstance(chunk.name, (pa.Array, pa.ChunkedArray)):
        return chunk.name
    codes = chunk.name_codes
    if codes is not None and len(codes[0]) == chunk.n_rows:
        uniq = pa.array([x if x is None or x.__class__ is str else str(x) for x in codes[1]],
                        pa.string())
        return uniq.take(pa.array(codes[0]))
    return pa.array(chunk.names(), pa.string())


def _id_array(ids: list[Any], pa: Any) -> Any:
    """The hand ids of a chunk as an Arrow array: int64 when every id is an
    integer that fits, else text (``str`` of each id; null stays null)."""
    kinds = set(map(type, ids))         # at C speed: no Python loop over the ids
    if kinds == {int} and -(1 << 63) <= min(ids) and max(ids) < (1 << 63):
        return pa.array(ids, pa.int64())
    if kinds <= {str, type(None)}:
        return pa.array(ids, pa.string())
    return pa.array([i if i is None or i.__class__ is str else str(i) for i in ids], pa.string())


def _row_variant(chunk: Chunk) -> np.ndarray:
    """(N,) int32 index into ``chunk.variants`` of each row."""
    if len(chunk.variants) <= 1:
        return np.zeros(chunk.n_rows, np.int32)
    return np.repeat(np.asarray(chunk.hand_variant, np.int32), chunk.n_players)


def _variant_column(chunk: Chunk, rv: np.ndarray, pa: Any) -> Any:
    """The variant names applied, as a dictionary column with each name once
    (rules of one name with other options share its entry), so that pandas
    and polars read it as a categorical."""
    names = [name for _, name, _ in chunk.variants]
    words = list(dict.fromkeys(names))
    if len(words) < len(names):
        code = np.array([words.index(n) for n in names], np.int32)
        rv = code[rv] if len(rv) else np.asarray(rv, np.int32)
    return pa.DictionaryArray.from_arrays(pa.array(rv, pa.int32()), pa.array(words, pa.string()))


def _options_column(odict: list[str | None], rv: np.ndarray, pa: Any) -> Any:
    """The options applied (JSON text, null for none), one per row."""
    if len(odict) <= 1:
        if not odict or odict[0] is None:
            return pa.nulls(len(rv), pa.string())
        return pa.repeat(pa.scalar(odict[0], pa.string()), len(rv))
    return pa.array(odict, pa.string()).take(pa.array(rv))


# ------------------------------------------------------------- tables of many chunks
def wider_ids(schema: Any, new: Any) -> Any:
    """``schema`` with a text ``hand_id`` when its own is integer and the
    ``new`` schema's is not (ids are numbers, then text); else None.

    Parameters
    ----------
    schema, new : pyarrow.Schema
        The schema so far and a later chunk's.

    Returns
    -------
    pyarrow.Schema or None

    Raises
    ------
    ImportError
        pyarrow is not installed.

    Examples
    --------
    >>> pa = require_pyarrow()[0]
    >>> wider_ids(pa.schema([("hand_id", pa.int64())]), pa.schema([("hand_id", pa.string())]))
    hand_id: string
    """
    pa = require_pyarrow()[0]
    if "hand_id" not in schema.names or "hand_id" not in new.names:
        return None
    have, got = schema.field("hand_id").type, new.field("hand_id").type
    if pa.types.is_integer(have) and not pa.types.is_integer(got):
        return schema.set(schema.get_field_index("hand_id"), pa.field("hand_id", pa.string()))
    return None


def wide_cards(schema: Any) -> Any:
    """``schema`` with the card columns of four-row hands (``c13`` .. ``c17``)
    after ``c12``.

    Parameters
    ----------
    schema : pyarrow.Schema
        A schema with 13 card columns.

    Returns
    -------
    pyarrow.Schema

    Raises
    ------
    KeyError
        The schema has no ``c12``.

    Examples
    --------
    >>> pa = require_pyarrow()[0]
    >>> wide_cards(pa.schema([(c, pa.uint8()) for c in card_columns(13)])).names[-1]
    'c17'
    """
    pa = require_pyarrow()[0]
    idx = schema.get_field_index("c12") + 1
    if idx == 0:
        raise KeyError("c12")
    for j, name in enumerate(card_columns(18)[13:]):
        schema = schema.insert(idx + j, pa.field(name, pa.uint8()))
    return schema


def conform(table: Any, schema: Any) -> Any:
    """Cast a later chunk's table to the ``schema`` of the first (a missing
    card column holds EMPTY, any other missing column nulls).

    Parameters
    ----------
    table : pyarrow.Table
        A chunk's table (:func:`chunk_table`).
    schema : pyarrow.Schema
        The schema of the file or frame.

    Returns
    -------
    pyarrow.Table

    Raises
    ------
    ArgumentError
        The table has a column the schema does not.

    Examples
    --------
    >>> pa = require_pyarrow()[0]
    >>> t = conform(pa.table({"c12": pa.array([3], pa.uint8())}),
    ...             wide_cards(pa.schema([("c12", pa.uint8())])))
    >>> t.column("c17").to_pylist()
    [255]
    """
    pa = require_pyarrow()[0]
    if table.schema.equals(schema):
        return table
    extra = set(table.column_names) - set(schema.names)
    if extra:
        raise ArgumentError(f"columns {sorted(extra)} are not in the file's schema {schema.names}; "
                            "write chunks of one source to one file")
    arrays = []
    for f in schema:
        if f.name in table.column_names:
            col = table.column(f.name)
            arrays.append(col if col.type == f.type else col.cast(f.type))
        elif f.name in card_columns(18):
            arrays.append(pa.array(np.full(table.num_rows, EMPTY, np.uint8)))
        else:
            arrays.append(pa.nulls(table.num_rows, f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def concat_tables(tables: list[Any]) -> Any:
    """The tables of a file's chunks (:func:`chunk_table`) as one table, in
    the schema of the first widened as the later ones need (four-row hands'
    card columns, text hand ids after integer ones), as the Parquet writer
    widens its file; a dictionary column gets one dictionary, its values in
    order of appearance.

    Parameters
    ----------
    tables : list of pyarrow.Table
        At least one.

    Returns
    -------
    pyarrow.Table

    Raises
    ------
    ArgumentError
        A later table has a column the first does not.

    Examples
    --------
    >>> pa = require_pyarrow()[0]
    >>> t = concat_tables([pa.table({"hand_id": [1]}), pa.table({"hand_id": ["x"]})])
    >>> t.column("hand_id").to_pylist()
    ['1', 'x']
    """
    pa, pc, _ = require_pyarrow()
    schema = tables[0].schema
    for t in tables[1:]:
        if "c12" in schema.names and "c13" not in schema.names and "c13" in t.column_names:
            schema = wide_cards(schema)
        schema = wider_ids(schema, t.schema) or schema
    table = pa.concat_tables([conform(t, schema) for t in tables])
    for i, f in enumerate(table.schema):    # one dictionary, values in order of appearance
        if pa.types.is_dictionary(f.type):
            col = pc.dictionary_encode(table.column(i).cast(f.type.value_type))
            table = table.set_column(i, f.name, col.combine_chunks().cast(f.type))
    return table
