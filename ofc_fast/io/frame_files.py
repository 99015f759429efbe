"""Files of hands straight into frames: :func:`ofc_fast.io.read_frame` reads any format
of the registry (:mod:`ofc_fast.io.formats`), scored or not, into a pandas,
polars or Arrow frame (docs/formats.md, "Frames in memory").

Every format comes out in the one schema of :mod:`ofc_fast.io.schema`, as
:func:`~ofc_fast.io.chunk_table` builds it for Parquet: the keys, the
rules, the layout as uint8 card ids, the discards and the results.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ofc_fast._args import choice, flag
from ofc_fast._tabular import frame_kind, require
from ofc_fast.errors import ArgumentError
from ofc_fast.io.schema import RESULTS
from ofc_fast.io.tables import chunk_table, concat_tables, require_pyarrow
from ofc_fast.records import DEFAULT_RULES, Chunk, Rules, chunk_from_records

__all__ = ["frame_from_chunks", "frame_options", "DTYPE_BACKENDS"]

DTYPE_BACKENDS = ("numpy", "numpy_nullable", "pyarrow")
"""The ``dtype_backend`` choices of :func:`read_frame` for pandas frames."""

_NULLABLE = frozenset(c.name for c in RESULTS if c.nullable)


def frame_from_chunks(chunks: Iterable[Chunk], kind: str = "pandas", *, scored: bool = True,
                      results_only: bool = False, dtype_backend: str = "numpy",
                      rules: Rules = DEFAULT_RULES) -> Any:
    """The chunks of a file as one frame (:func:`ofc_fast.io.read_frame`).

    Parameters
    ----------
    chunks : iterable of Chunk
        A file's chunks, in order (:func:`~ofc_fast.io.read_chunks`).
    kind : str
        ``"pandas"``, ``"polars"`` or ``"arrow"``.
    scored : bool
        Score each chunk (else the recorded ``points``).
    results_only : bool
        Keys and results only.
    dtype_backend : str
        pandas only: one of :data:`DTYPE_BACKENDS`.
    rules : Rules
        The rules of the columns of an empty file.

    Returns
    -------
    pandas.DataFrame, polars.DataFrame or pyarrow.Table

    Raises
    ------
    ArgumentError
        A bad ``kind`` or ``dtype_backend``; ``results_only`` without ``scored``.
    ImportError
        pyarrow (or the frame library) is not installed.

    Examples
    --------
    >>> from ofc_fast.io import read_chunks
    >>> from ofc_fast.report import sample_path
    >>> frame_from_chunks(read_chunks(sample_path()), "arrow").num_rows
    4100
    """
    kind, scored, results_only, dtype_backend = frame_options(kind, scored, results_only,
                                                              dtype_backend)
    tables: list[Any] = []
    for chunk in chunks:
        if chunk.n_rows == 0 and tables:
            continue
        tables.append(chunk_table(chunk.score() if scored else chunk,
                                  results_only=results_only))
    if not tables:                  # an empty file: the columns of an empty chunk
        empty = chunk_from_records([], rules)
        tables.append(chunk_table(empty.score() if scored else empty,
                                  results_only=results_only))
    table = concat_tables(tables)
    if kind == "arrow":
        return table.combine_chunks()
    if kind == "polars":
        import polars as pl
        return pl.from_arrow(table)
    return _pandas(table, dtype_backend, nullable=_NULLABLE | (set() if scored else {"points"}))


def frame_options(kind: object, scored: object, results_only: object,
                  dtype_backend: object) -> tuple[str, bool, bool, str]:
    """The options of :func:`frame_from_chunks`, checked (before any reading).

    Parameters
    ----------
    kind, scored, results_only, dtype_backend
        As :func:`frame_from_chunks` takes them.

    Returns
    -------
    tuple
        ``(kind, scored, results_only, dtype_backend)``.

    Raises
    ------
    ArgumentError, TypeError
        A bad value or type.
    ImportError
        pyarrow (or the frame library) is not installed.

    Examples
    --------
    >>> frame_options("polars", True, False, "numpy")
    ('polars', True, False, 'numpy')
    """
    kind = frame_kind(kind)
    scored, results_only = flag(scored, "scored"), flag(results_only, "results_only")
    backend = choice(dtype_backend, "dtype_backend", DTYPE_BACKENDS)
    if results_only and not scored:
        raise ArgumentError("results_only=True needs scored=True: the results are what it keeps")
    require_pyarrow()
    require(kind)
    return kind, scored, results_only, backend


def _pandas(table: Any, dtype_backend: str, nullable: set[str] | frozenset[str]) -> Any:
    """An Arrow table as a pandas frame, integer widths kept."""
    import pandas as pd
    pa = require_pyarrow()[0]
    if dtype_backend == "pyarrow":
        return table.to_pandas(types_mapper=pd.ArrowDtype)
    if dtype_backend == "numpy_nullable":
        return table.to_pandas(types_mapper=_nullable_type)
    df = table.to_pandas()
    for name, col in zip(table.column_names, table.columns, strict=True):
        t = col.type
        if (pa.types.is_integer(t) or pa.types.is_boolean(t)) and \
                (col.null_count or name in nullable):
            df[name] = col.to_pandas(types_mapper=_nullable_type)
    return df


def _nullable_type(t: Any) -> Any:
    """pandas' nullable dtype of an Arrow type (None: pandas' default)."""
    import pandas as pd
    pa = require_pyarrow()[0]
    if pa.types.is_boolean(t):
        return pd.BooleanDtype()
    if pa.types.is_integer(t):
        return pd.api.types.pandas_dtype(str(t).replace("int", "Int").replace("uInt", "UInt"))
    if pa.types.is_floating(t):
        return pd.api.types.pandas_dtype("Float64" if t.bit_width == 64 else "Float32")
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return pd.StringDtype()
    return None
