"""Frames in memory: score a pandas, pyarrow or polars frame of player-hands
(docs/formats.md, "Frames in memory").

A frame holds one row per player-hand in the columns of the CSV and Parquet
formats: ``hand_id``, ``seat``, the layout as card text (``top``,
``middle``, ``bottom``, or ``rows``) or as uint8 card ids (``c00`` ..
``c12``), and optionally ``n_players``, ``variant``, ``options``, ``name``,
``in_fantasyland``, ``discards`` and ``points`` (recorded).  It is read as an
Arrow table (pandas and polars columns of numbers come over without a copy)
by :func:`ofc_fast.io.chunk_from_arrow`, validated and scored like a file,
and the results are added to a frame of the same kind.

pandas and polars are imported only when such a frame is given.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import numpy as np

from ofc_fast._args import flag, instance
from ofc_fast.errors import FileFormatError, RecordError, shorten
from ofc_fast.io.arrow import chunk_from_arrow
from ofc_fast.io.arrow_columns import TEXT_ROWS, plain_views
from ofc_fast.io.schema import HAND_COLUMNS, RESULT_COLUMNS, card_columns, result_values
from ofc_fast.io.tables import require_pyarrow
from ofc_fast.records import Chunk, Rules, clip

__all__ = ["score_frame", "FRAME_COLUMNS", "FRAME_RESULTS"]

FrameT = TypeVar("FrameT")

FRAME_COLUMNS = (*HAND_COLUMNS, "discards", "points", *card_columns(18), *TEXT_ROWS)
"""The columns :func:`score_frame` reads; any other column is carried along
untouched."""

FRAME_RESULTS = (*RESULT_COLUMNS, "error", "mismatch")
"""The columns :func:`score_frame` adds, in this order (``error`` only with
``skip_bad=True``, ``mismatch`` only with ``verify=True``); a column of the
frame with one of these names is replaced (``points`` is read first: it
holds the recorded points)."""


def score_frame(frame: FrameT, *, variant: str | None = None,
                options: Mapping[str, Any] | None = None, override: bool = False,
                verify: bool = False, skip_bad: bool = False) -> FrameT:
    """Validate and score a frame of player-hands; the same kind of frame with our results.

    Parameters
    ----------
    frame : pandas.DataFrame, pyarrow.Table, pyarrow.RecordBatch or polars.DataFrame
        One row per player-hand in the columns of docs/formats.md (CSV or
        Parquet): ``hand_id``, ``seat``, the layout as card text (``top``,
        ``middle``, ``bottom``; ``third``, ``second`` for four rows; or all
        rows in ``rows``) or as card ids ``c00`` .. ``c12`` (``c17``), and
        optionally ``n_players``, ``variant``, ``options`` (JSON object
        text), ``name``, ``in_fantasyland``, ``discards`` and ``points``
        (recorded).  The rows of a hand are consecutive; in seat order, or
        in any order when each hand has its own ``hand_id`` (as in CSV).
    variant : str, optional
        Rules for hands that name no variant (default ``"pineapple"``).
    options : mapping, optional
        Options of those rules (``ofc_fast.variant(variant, **options)``).
    override : bool
        Apply ``variant`` and ``options`` to every hand, whatever it names.
    verify : bool
        Add a ``mismatch`` column: for each player-hand whose recorded
        ``points`` differ from ours, why (our points against each opponent,
        rows and royalties; :meth:`ofc_fast.report.Mismatch.describe`), null
        elsewhere.
    skip_bad : bool
        Score the good hands and keep the bad ones' rows with null results
        and the reason in an ``error`` column (null on scored rows), instead
        of raising at the first bad hand.

    Returns
    -------
    frame
        Of the input's kind (pandas keeps its index), with its rows in their
        order, every column it had, and ``points`` (int32, ours),
        ``royalties`` (int16), ``foul`` (bool), ``fantasyland`` (uint8: cards
        dealt in fantasyland next hand, 0 for none) and ``recorded_points``
        (int64, the recorded points where they differ from ours, null
        elsewhere), then ``error`` and ``mismatch`` when asked for
        (:data:`FRAME_RESULTS`).  With ``skip_bad`` the result columns are
        nullable (pandas: ``Int32``, ``Int16``, ``boolean``, ``UInt8``);
        ``recorded_points`` always is (pandas ``Int64``).  The result columns
        of a pandas frame follow its backend: a frame with
        ``pandas.ArrowDtype`` columns (``dtype_backend="pyarrow"``) gets
        ArrowDtype results (``int32[pyarrow]`` ...), one with pandas'
        nullable columns (``Int64``, ``boolean``) gets nullable results.

    Raises
    ------
    TypeError
        ``frame`` is not one of the frames above.
    ofc_fast.errors.FileFormatError
        A column the hands need is missing, given twice, or of a type that
        cannot hold it (text card ids, a list of hand ids); the message
        names the column.
    ofc_fast.errors.RecordError
        A bad hand (without ``skip_bad``): unknown card, wrong row size,
        duplicate card, wrong seats or number of players, bad rules or
        numbers; the message gives the row's position (0 = first row), the
        hand id, seat, name and row.
    ofc_fast.errors.RulesError
        ``variant`` or ``options`` are not rules.
    ImportError
        pyarrow is not installed (``pip install 'ofc-fast[arrow]'``, or
        ``[pandas]``, ``[polars]``).

    Examples
    --------
    >>> import pandas as pd
    >>> import ofc_fast.io as fio
    >>> df = pd.DataFrame({
    ...     "hand_id": ["h1", "h1"], "seat": [0, 1], "name": ["ann", "bob"],
    ...     "top": ["Qs Qd 2c", "Ks Kd 3c"], "middle": ["9h 9d 9c 5s 5d", "2h 3h 4h 5h 6d"],
    ...     "bottom": ["7h 7d 7c 7s 2d", "Tc Td Ts Th 8d"], "points": [6, -5]})
    >>> out = fio.score_frame(df)
    >>> out[["name", "points", "royalties", "foul", "fantasyland", "recorded_points"]]
      name  points  royalties   foul  fantasyland  recorded_points
    0  ann       6         29  False           14             <NA>
    1  bob      -6         22  False           14               -5
    """
    pa = require_pyarrow()[0]
    kind = _kind_of(frame)
    table, source = _as_table(frame, kind)
    instance(variant, "variant", str, "a variant name", none=True)
    instance(options, "options", Mapping, "a mapping of rule options", none=True)
    override = flag(override, "override")
    verify, skip_bad = flag(verify, "verify"), flag(skip_bad, "skip_bad")
    rules = Rules(variant or "pineapple", dict(options) if options else None, override=override)
    rules.resolve(None, None)           # bad rules raise here, not as every hand's error
    N = table.num_rows
    order = _seat_order(table)
    if order is not None:
        table = table.take(pa.array(order))
    try:
        chunk, _ = chunk_from_arrow(table, source=source, rules=rules, row_offset=-1,
                                    final=True, skip_bad=skip_bad)
    except RecordError as e:
        raise _at_position(e, order) from None
    chunk.score()
    rows = _chunk_rows(chunk, order)
    chunk.row_line, chunk.unit = rows, "position"
    for err in chunk.errors:
        _at_position(err, order)
    columns = _results(chunk, rows, N, skip_bad)
    if skip_bad:
        columns["error"] = _error_column(chunk, table, rows, order, N)
    if verify:
        columns["mismatch"] = _mismatch_column(chunk, N)
    out: FrameT = _attach(frame, kind, columns)
    return out


# ---------------------------------------------------------------------- frames in
def _kind_of(frame: object) -> str:
    """``"arrow"``, ``"batch"``, ``"pandas"`` or ``"polars"`` (TypeError for anything else)."""
    pa = require_pyarrow()[0]
    if isinstance(frame, pa.Table):
        return "arrow"
    if isinstance(frame, pa.RecordBatch):
        return "batch"
    module = type(frame).__module__.split(".")[0]
    if module == "pandas":
        import pandas as pd
        if isinstance(frame, pd.DataFrame):
            return "pandas"
    if module == "polars":
        import polars as pl
        if isinstance(frame, pl.DataFrame):
            return "polars"
        if isinstance(frame, pl.LazyFrame):
            raise TypeError("score_frame takes a polars DataFrame; collect() the LazyFrame first")
    if module == "dask":
        raise TypeError("score_frame takes a frame in memory; for a Dask dataframe use "
                        "ofc_fast.dask.score_frame")
    raise TypeError("score_frame takes a pandas DataFrame, a pyarrow Table or RecordBatch or a "
                    f"polars DataFrame, got {type(frame).__module__}.{type(frame).__name__}")


_SOURCE = {"arrow": "Arrow table", "batch": "Arrow record batch", "pandas": "pandas DataFrame",
           "polars": "polars DataFrame"}


def _as_table(frame: Any, kind: str, source: str | None = None) -> tuple[Any, str]:
    """(Arrow table of the columns read, name of the frame for messages:
    ``source``, else the kind's)."""
    pa = require_pyarrow()[0]
    source = _SOURCE[kind] if source is None else source
    names = [str(c) for c in frame.columns] if kind == "pandas" else list(frame.schema.names) \
        if kind in ("arrow", "batch") else list(frame.columns)
    for name in set(names):
        if name in FRAME_COLUMNS and names.count(name) > 1:
            raise FileFormatError(source, f"column {name!r} appears {names.count(name)} times")
    keep = [c for c in names if c in FRAME_COLUMNS]
    if kind == "arrow":
        table = frame.select(keep)
    elif kind == "batch":
        table = pa.Table.from_batches([frame.select(keep)])
    elif kind == "polars":
        table = _polars_table(frame, keep, source)
    else:
        arrays = []
        for name, label in ((str(c), c) for c in frame.columns):
            if name not in keep:
                continue
            try:
                arrays.append(pa.array(frame[label], from_pandas=True))
            except (pa.ArrowException, TypeError, ValueError, OverflowError) as e:
                raise FileFormatError(source, f"column {name!r} cannot be read as one Arrow "
                                      f"type (mixed values?): {clip(e, 160)}") from None
        table = pa.Table.from_arrays(arrays, names=keep)
    # a column of nothing but nulls holds nothing, whatever its type (pandas
    # reads an empty CSV column as float NaN; a frame filtered down to no
    # rows keeps whatever types its columns had, polars gives an empty column
    # of None text): an optional one is as good as absent (n_players of
    # nulls is no count to check), a needed one of the null type (hand ids
    # are compared row to row: missing ones as text)
    for name in [n for n, c in zip(table.column_names, table.columns, strict=True)
                 if c.null_count == len(c)]:
        i = table.column_names.index(name)
        if name in _OPTIONAL:
            table = table.remove_column(i)
            continue
        want = pa.string() if name == "hand_id" else pa.null()
        if table.column(i).type != want:
            table = table.set_column(i, name, pa.nulls(table.num_rows, want))
    return plain_views(table), source


_OPTIONAL = frozenset({"n_players", "name", "variant", "options", "in_fantasyland", "discards",
                       "points"})
"""The columns a frame may leave out (:func:`score_frame`)."""


def _polars_table(frame: Any, keep: list[str], source: str) -> Any:
    """The columns ``keep`` of a polars frame as an Arrow table; a column
    that has no Arrow type (``Int128``, ``Object``) is a FileFormatError
    naming it."""
    try:
        return frame.select(keep).to_arrow()
    except Exception as e:  # noqa: BLE001 - one of the columns; found below
        first = e
    for name in keep:
        try:
            frame.select([name]).to_arrow()
        except Exception as e:  # noqa: BLE001 - polars' and pyarrow's errors
            raise FileFormatError(source, f"column {name!r} has type "
                                  f"{shorten(str(frame.schema[name]), 60)}, which cannot be "
                                  f"read as Arrow ({clip(e, 100)})") from None
    raise first


def _seat_order(table: Any) -> np.ndarray | None:
    """The order that puts each hand's rows in seat order (a hand: the rows
    of one ``hand_id`` in a run), or None when they are in order already."""
    pa, pc, pq = require_pyarrow()
    N = table.num_rows
    if N < 2 or "seat" not in table.column_names:
        return None
    seat = table.column("seat")
    if seat.null_count or not pa.types.is_integer(seat.type):
        return None                     # the reader reports what is wrong
    s = seat.to_numpy().astype(np.int64)
    if s[0] == 0 and ((s[1:] == 0) | (s[1:] == s[:-1] + 1)).all():
        return None
    hid = table.column("hand_id")
    same = pc.fill_null(pc.equal(hid.slice(1), hid.slice(0, N - 1)), False)
    run = np.concatenate([[0], np.cumsum(~same.to_numpy(zero_copy_only=False))])
    order = np.lexsort((s, run))
    return None if (order == np.arange(N)).all() else order


# ---------------------------------------------------------------------- results
def _at_position(e: RecordError, order: np.ndarray | None) -> RecordError:
    """``e`` naming the row's position in the frame (0 = its first row)."""
    if e.line is not None and order is not None:
        e.line = int(order[e.line])
    e.unit = "position"
    e.args = (e.message,)
    return e


def _chunk_rows(chunk: Chunk, order: np.ndarray | None) -> np.ndarray:
    """(n_rows,) position in the frame of each row of the chunk."""
    if chunk.row_line is not None:
        rows = np.asarray(chunk.row_line, np.int64)
    else:      # the reader's 0-based row numbers (row_offset -1): hand start + seat
        starts = chunk.hand_start[:-1]
        rows = np.repeat(np.asarray(chunk.hand_line, np.int64) - starts, chunk.n_players) + \
            np.arange(chunk.n_rows)
    return rows if order is None else order[rows]


def _results(chunk: Chunk, rows: np.ndarray, N: int, nullable: bool) -> dict[str, Any]:
    """The result columns (:func:`~ofc_fast.io.schema.result_values`), each
    ``(values, valid)`` over the frame's N rows (``valid`` None: every row has
    a value)."""
    whole = len(rows) == N and not chunk.errors and (rows == np.arange(N)).all()
    scored = None
    if not whole or nullable:
        scored = np.zeros(N, bool)
        scored[rows] = True
    out: dict[str, Any] = {}
    for name, (values, valid) in result_values(chunk).items():
        if whole and valid is None:
            out[name] = (values, scored)
            continue
        full = np.zeros(N, values.dtype)
        full[rows] = values
        if valid is None:
            out[name] = (full, scored)
        else:
            has = np.zeros(N, bool)
            has[rows] = valid
            out[name] = (full, has)
    return out


def _error_column(chunk: Chunk, table: Any, rows: np.ndarray, order: np.ndarray | None,
                  N: int) -> tuple[np.ndarray, np.ndarray]:
    """The message of each bad hand's error on every row of that hand.

    A skipped hand is a run of rows the chunk does not hold with one hand
    id (in the reader's order); its error is the one whose row is in the run
    (or, for a broken run without one, the error before it)."""
    pa, pc, pq = require_pyarrow()
    text = np.full(N, None, object)
    if not chunk.errors:
        return text, np.zeros(N, bool)
    inv = np.argsort(order) if order is not None else None
    kept = np.zeros(N, bool)
    kept[rows if inv is None else inv[rows]] = True          # in the reader's order
    bad = np.flatnonzero(~kept)
    hid = table.column("hand_id")
    same = np.zeros(N, bool)
    if N > 1:
        same[1:] = pc.fill_null(pc.equal(hid.slice(1), hid.slice(0, N - 1)),
                                False).to_numpy(zero_copy_only=False)
    new_run = np.ones(len(bad), bool)
    new_run[1:] = (np.diff(bad) != 1) | ~same[bad[1:]]
    run = np.cumsum(new_run) - 1
    message: list[str | None] = [None] * int(run[-1] + 1) if len(bad) else []
    at = {int(r if inv is None else inv[r]): e for e in chunk.errors
          if (r := e.line) is not None}
    where = np.searchsorted(bad, np.fromiter(at, np.int64, len(at)))
    for (line, e), k in zip(at.items(), where.tolist(), strict=True):
        if k < len(bad) and bad[k] == line and message[run[k]] is None:
            message[run[k]] = str(e)
    last = str(chunk.errors[0])
    for i, m in enumerate(message):
        last = m if m is not None else last
        message[i] = last
    in_reader = np.array(message, object)[run]
    text[bad if order is None else order[bad]] = in_reader
    valid = np.zeros(N, bool)
    valid[bad if order is None else order[bad]] = True
    return text, valid


def _mismatch_column(chunk: Chunk, N: int) -> tuple[np.ndarray, np.ndarray]:
    """Why our points differ from the recorded ones, on those rows."""
    from ofc_fast.report import find_mismatches
    text = np.full(N, None, object)
    valid = np.zeros(N, bool)
    for m in find_mismatches(chunk)[0]:
        text[m.line] = m.describe()
        valid[m.line] = True
    return text, valid


# --------------------------------------------------------------------- frames out
def _attach(frame: Any, kind: str, columns: dict[str, Any]) -> Any:
    """``frame`` without columns named as results, then the result columns."""
    pa = require_pyarrow()[0]
    if kind == "pandas":
        return _attach_pandas(frame, columns)
    arrays = {name: _arrow(values, valid, pa) for name, (values, valid) in columns.items()}
    if kind == "polars":
        import polars as pl
        drop = [c for c in frame.columns if c in FRAME_RESULTS]
        results = pl.DataFrame(pl.from_arrow(pa.table(arrays)))
        return frame.drop(drop).hstack(results.get_columns())
    names = [c for c in frame.schema.names if c not in FRAME_RESULTS]
    data = [frame.column(c) for c in names] + list(arrays.values())
    names += list(arrays)
    if kind == "batch":
        return pa.RecordBatch.from_arrays(data, names=names)
    return pa.Table.from_arrays(data, names=names)


def _arrow(values: np.ndarray, valid: np.ndarray | None, pa: Any) -> Any:
    """An Arrow array of numpy values (null where not ``valid``)."""
    if values.dtype == object:
        return pa.array(values, pa.string(), mask=None if valid is None else ~valid)
    if valid is None:
        return pa.array(values)
    return pa.array(values, mask=~valid)


def _attach_pandas(frame: Any, columns: dict[str, Any]) -> Any:
    """The pandas frame with the result columns in the frame's own backend
    (:func:`_pandas_backend`)."""
    import pandas as pd
    backend = _pandas_backend(frame)
    pa = require_pyarrow()[0] if backend == "pyarrow" else None
    new: dict[str, Any] = {}
    for name, (values, valid) in columns.items():
        if pa is not None:
            new[name] = pd.arrays.ArrowExtensionArray(_arrow(values, valid, pa))
        elif values.dtype == object:
            new[name] = pd.array(np.where(valid, values, None), pd.StringDtype()) \
                if backend == "numpy_nullable" else np.where(valid, values, None)
        elif valid is None and backend == "numpy":
            new[name] = values
        elif values.dtype == bool:
            new[name] = pd.arrays.BooleanArray(values, np.zeros(len(values), bool)
                                               if valid is None else ~valid)
        else:
            new[name] = pd.arrays.IntegerArray(values, np.zeros(len(values), bool)
                                               if valid is None else ~valid)
    # arrays, not Series: placed by position, whatever the index holds
    return frame.drop(columns=[c for c in frame.columns if c in FRAME_RESULTS]).assign(**new)


def _pandas_backend(frame: Any) -> str:
    """The dtype backend of a pandas frame, as ``pandas.read_parquet`` names
    them: ``"pyarrow"`` when a column is a ``pandas.ArrowDtype``, else
    ``"numpy_nullable"`` when a column is one of pandas' nullable numbers or
    booleans (``Int64``, ``boolean`` ...), else ``"numpy"``."""
    import pandas as pd
    masked = (pd.arrays.IntegerArray, pd.arrays.BooleanArray, pd.arrays.FloatingArray)
    backend = "numpy"
    for dtype in frame.dtypes:
        if isinstance(dtype, pd.ArrowDtype):
            return "pyarrow"
        if isinstance(dtype, pd.api.extensions.ExtensionDtype) and \
                issubclass(dtype.construct_array_type(), masked):
            backend = "numpy_nullable"
    return backend
