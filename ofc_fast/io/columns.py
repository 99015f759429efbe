"""A chunk's columns in the shape the writers' C formatters take
(:mod:`ofc_fast._write`): text values as ``(offsets, data, kinds)``, from
Python values or straight from Arrow buffers, each with an index per row;
the layout as card ids with each variant's named rows.

>>> from ofc_fast.records import chunk_from_records
>>> p = {"name": "ann", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d",
...      "bottom": "7h 7d 7c 7s 2d"}
>>> q = {"name": "bob,b", "top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d",
...      "bottom": "Tc Td Ts Th 8d"}
>>> chunk = chunk_from_records([{"id": 1, "players": [p, q]}])
>>> texts, index = names(chunk, "csv")
>>> texts[1], index
(b'annbob,b', None)
"""
from __future__ import annotations

from typing import Any

import numpy as np
import orjson

from ofc_fast._write import (
    KIND_LITERAL,
    KIND_NULL,
    KIND_TEXT,
    csv_texts,
    int_texts,
    json_texts,
    layout_spec,
)
from ofc_fast.records import Chunk

Texts = tuple[np.ndarray, Any, np.ndarray]
"""``(offsets (n + 1,) int64, data (bytes or uint8 array), kinds (n,) uint8)``."""

__all__ = ["Texts", "texts", "hand_ids", "names", "variant_texts", "layout", "hand_variants"]


def _python(values: Any, target: str) -> Texts:
    vals = values if isinstance(values, list) else list(values)
    return csv_texts(vals) if target == "csv" else json_texts(vals)


def _arrow(arr: Any, target: str) -> tuple[Texts, np.ndarray | None]:
    """Texts of an Arrow array: strings and integers from its buffers, a
    dictionary as its values and indices, anything else as Python values."""
    import pyarrow as pa
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    t = arr.type
    n = len(arr)
    if pa.types.is_dictionary(t):
        values, inner = _arrow(arr.dictionary, target)
        index = arr.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
        if inner is not None:
            index = np.where(index < 0, -1, inner[np.maximum(index, 0)])
        return values, index
    valid = None if not arr.null_count else \
        arr.is_valid().to_numpy(zero_copy_only=False).astype(np.uint8)
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        bufs = arr.buffers()
        wide = np.int64 if pa.types.is_large_string(t) else np.int32
        off = np.frombuffer(bufs[1], wide)[arr.offset:arr.offset + n + 1].astype(np.int64)
        data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None and n else \
            np.zeros(0, np.uint8)
        kinds = np.full(n, KIND_TEXT, np.uint8)
        if valid is not None:
            kinds[valid == 0] = KIND_NULL
        return (off, data, kinds), None
    if pa.types.is_integer(t) and t != pa.uint64():
        values = arr.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        return int_texts(values, valid), None
    return _python(arr.to_pylist(), target), None


def texts(values: Any, target: str) -> tuple[Texts, np.ndarray | None]:
    """Texts of a column of values (a list, an object array or an Arrow array)
    for ``target`` (``"csv"`` or ``"json"``), with the index of each value
    (None: one text per value).

    Parameters
    ----------
    values : list, numpy.ndarray or pyarrow.Array
        The values.
    target : str
        ``"csv"`` (csv module text) or ``"json"`` (orjson's).

    Returns
    -------
    tuple
        ``(texts, index)``.

    Examples
    --------
    >>> (off, data, kinds), index = texts(["a", None, 3], "json")
    >>> data, kinds.tolist(), index
    (b'a3', [0, 2, 1], None)
    """
    if isinstance(values, (list, np.ndarray)):
        return _python(values, target), None
    return _arrow(values, target)


def hand_variants(chunk: Chunk) -> np.ndarray | None:
    """``(H,)`` int64: the variant entry of each hand (None: one entry).

    Parameters
    ----------
    chunk : Chunk
        The hands.

    Returns
    -------
    numpy.ndarray or None
    """
    if len(chunk.variants) <= 1:
        return None
    return np.asarray(chunk.hand_variant, np.int64)


def hand_ids(chunk: Chunk, target: str) -> tuple[Texts, np.ndarray | None]:
    """The hand ids as texts, with the index of each hand's (None: its own).

    Parameters
    ----------
    chunk : Chunk
        The hands.
    target : str
        ``"csv"`` or ``"json"``.

    Returns
    -------
    tuple
        ``(texts, index (H,) or None)``.
    """
    return texts(chunk.hand_id, target)


def names(chunk: Chunk, target: str) -> tuple[Texts, np.ndarray | None]:
    """The players' names as texts, with the index of each row's (the
    reader's name codes when it coded them; None: its own).

    Parameters
    ----------
    chunk : Chunk
        The hands.
    target : str
        ``"csv"`` or ``"json"``.

    Returns
    -------
    tuple
        ``(texts, index (N,) or None)``.
    """
    if chunk.name_codes is not None and len(chunk.name_codes[0]) == chunk.n_rows:
        codes, uniq = chunk.name_codes
        t, _ = texts(list(uniq), target)
        return t, np.asarray(codes, np.int64)
    return texts(chunk.name, target)


def variant_texts(chunk: Chunk, target: str) -> tuple[Texts, Texts]:
    """Each variant entry's name and options (``orjson`` text, keys sorted
    for CSV, as written for JSON; null for none) as texts.

    Parameters
    ----------
    chunk : Chunk
        The hands.
    target : str
        ``"csv"`` or ``"json"``.

    Returns
    -------
    tuple
        ``(names, options)``, one value per entry of ``chunk.variants``.
    """
    vnames = [name for _, name, _ in chunk.variants]
    if target == "csv":
        opts = [orjson.dumps(o, option=orjson.OPT_SORT_KEYS).decode() if o else None
                for _, _, o in chunk.variants]
        return csv_texts(vnames), csv_texts(opts)
    pieces = [orjson.dumps(o) if o else b"" for _, _, o in chunk.variants]
    off = np.zeros(len(pieces) + 1, np.int64)
    np.cumsum([len(x) for x in pieces], out=off[1:])
    kinds = np.array([KIND_LITERAL if x else KIND_NULL for x in pieces], np.uint8)
    return json_texts(vnames), (off, b"".join(pieces), kinds)


def layout(chunk: Chunk) -> tuple[np.ndarray, np.ndarray]:
    """The layout of each row as the formatters read it.

    Parameters
    ----------
    chunk : Chunk
        The hands.

    Returns
    -------
    tuple
        ``(cards (N, width) uint8, spec (V, 13) of the named rows of each
        variant entry)``.
    """
    return chunk.cards(), layout_spec([v for v, _, _ in chunk.variants])
