"""Hostile conditions for the files layer (issue 18): the process-wide state
the readers and writers touch, signals, closed and full standard streams,
outputs that are one file, endless input, the io API's argument checks,
frames of every Arrow type and records that contradict themselves.

The child-process fuzz twins are in ``tests/test_io_fuzz.py``.
"""
from __future__ import annotations

import gc
import threading

import pytest

import ofc_fast.io as fio
from ofc_fast.report import sample_path


# ------------------------------------------------------------ the cyclic GC
@pytest.fixture
def gc_calls(monkeypatch):
    """The threads that called gc.disable / gc.enable."""
    calls: list[tuple[str, str]] = []
    real_disable, real_enable = gc.disable, gc.enable

    def disable():
        calls.append(("disable", threading.current_thread().name))
        real_disable()

    def enable():
        calls.append(("enable", threading.current_thread().name))
        real_enable()

    monkeypatch.setattr(gc, "disable", disable)
    monkeypatch.setattr(gc, "enable", enable)
    yield calls
    real_enable()


@pytest.mark.parametrize("n_threads", [1, 2])
def test_readers_and_writers_leave_the_gc_alone_outside_the_main_thread(gc_calls, tmp_path,
                                                                         n_threads):
    """The collector is the process's: a reader thread (prefetch) or a writer
    thread (Behind) never pauses it; the main thread's pause ends enabled."""
    chunks = list(fio.read_chunks(sample_path(), chunk_size=300, n_threads=n_threads))
    assert sum(c.n_hands for c in chunks) == 1479
    fio.score_file(sample_path(), tmp_path / "out.jsonl", n_threads=n_threads, chunk_size=300)

    def in_thread():
        list(fio.read_chunks(sample_path(), chunk_size=300))
    t = threading.Thread(target=in_thread, name="user-thread")
    t.start()
    t.join()
    assert gc_calls, "the main thread pauses the collector"
    assert {who for _, who in gc_calls} == {"MainThread"}
    assert gc.isenabled()


# ------------------------------------------------------------- without pyarrow
def test_without_pyarrow_the_advice_names_the_extra_of_the_call(monkeypatch):
    """Frames need the [arrow] (or [pandas], [polars]) extra, Parquet files [parquet]."""
    import sys

    for mod in ("pyarrow", "pyarrow.compute", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, mod, None)
    with pytest.raises(ImportError, match=r"frames need pyarrow: pip install 'ofc-fast\[arrow\]'"):
        fio.score_frame({"hand_id": [1]})
    with pytest.raises(ImportError, match=r"Parquet files need pyarrow: .*\[parquet\]'$"):
        list(fio.read_chunks("x.parquet"))


# ------------------------------------------------------- frames of every type
def _arrow_types(pa):
    """pyarrow's type list: every kind of type its factories make (the newer
    ones where this pyarrow has them)."""
    types = [pa.null(), pa.bool_(), pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(),
             pa.uint16(), pa.uint32(), pa.uint64(), pa.float16(), pa.float32(), pa.float64(),
             pa.decimal128(38, 0), pa.decimal128(10, 2), pa.decimal256(76, 0), pa.date32(),
             pa.date64(), pa.time32("s"), pa.time64("ns"), pa.timestamp("us"),
             pa.timestamp("ns", "UTC"), pa.duration("ms"), pa.month_day_nano_interval(),
             pa.binary(), pa.large_binary(), pa.binary(3), pa.string(), pa.large_string(),
             pa.list_(pa.uint8()), pa.large_list(pa.uint8()), pa.list_(pa.string()),
             pa.list_(pa.uint8(), 3), pa.struct([("a", pa.int64())]),
             pa.map_(pa.string(), pa.int64()), pa.dictionary(pa.int8(), pa.string()),
             pa.dictionary(pa.int32(), pa.int64()), pa.dictionary(pa.int16(), pa.uint8()),
             pa.dictionary(pa.uint8(), pa.large_string()),
             pa.run_end_encoded(pa.int32(), pa.string()),
             pa.dense_union([pa.field("a", pa.int64())]),
             pa.sparse_union([pa.field("a", pa.string())])]
    for factory, args in (("decimal32", (9, 0)), ("decimal64", (18, 0)), ("string_view", ()),
                          ("binary_view", ()), ("list_view", (pa.uint8(),)),
                          ("large_list_view", (pa.uint8(),)), ("uuid", ()), ("json_", ()),
                          ("bool8", ())):
        if hasattr(pa, factory):
            types.append(getattr(pa, factory)(*args))
    return types


def _hands_table(pa, ids: bool):
    """Two hands of two players: the layout as card ids (and list discards)
    or as card text."""
    from ofc_fast.records import chunk_from_records
    p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d",
         "discards": "Ah 4c", "name": "ann", "points": 6}
    q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d",
         "discards": "As 2s", "name": "bob", "in_fantasyland": 1}
    chunk = chunk_from_records([{"id": "h1", "players": [p, q]}, {"id": "h2", "players": [p, q]}])
    table = fio.chunk_table(chunk)
    if ids:
        return table
    table = table.drop([c for c in table.column_names if c[0] == "c" and c[1:].isdigit()])
    for row in ("top", "middle", "bottom"):
        table = table.append_column(row, pa.array([p[row], q[row]] * 2))
    return table


def _as_type(pa, pc, col, typ):
    """The column's values as ``typ`` where Arrow converts them, else a column
    of that type of nothing but nulls."""
    col = col.combine_chunks()
    for make in (lambda: pc.cast(col, typ), lambda: pa.array(col.to_pylist(), typ)):
        try:
            return make()
        except Exception:  # noqa: BLE001, S112 - the next way
            continue
    return pa.nulls(len(col), typ)


def _frame_outcome(frame, column):
    """'ok', or 'file error' if a FileFormatError names the column; anything
    else is returned as the failure."""
    from ofc_fast.errors import FileFormatError
    try:
        fio.score_frame(frame, skip_bad=True)
        return "ok"
    except FileFormatError as e:
        return "file error" if repr(column) in str(e) else f"not named: {e}"
    except Exception as e:  # noqa: BLE001 - the failure to report
        return f"{type(e).__name__}: {e}"


def _walk_types(kinds, columns):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.compute as pc
    failures = []
    outcomes = set()
    for ids in (True, False):
        base = _hands_table(pa, ids)
        for column in columns:
            if column not in base.column_names:
                continue
            for typ in _arrow_types(pa):
                i = base.column_names.index(column)
                table = base.set_column(i, column, _as_type(pa, pc, base.column(i), typ))
                for kind in kinds:
                    try:
                        frame = table if kind == "arrow" else table.to_pandas() \
                            if kind == "pandas" else pytest.importorskip("polars").from_arrow(
                                table)
                    except BaseException:  # noqa: BLE001 - the library cannot make it
                        continue
                    got = _frame_outcome(frame, column)
                    outcomes.add(got)
                    if got not in ("ok", "file error"):
                        failures.append((kind, column, str(typ), got[:200]))
    assert not failures, failures
    assert outcomes == {"ok", "file error"}


def test_every_arrow_type_in_a_known_column_works_or_is_a_file_error_naming_it():
    """score_frame of an Arrow table whose column is of any Arrow type: the
    results, or a FileFormatError naming the column and its type (before:
    pyarrow's own errors, e.g. a string_view hand_id)."""
    _walk_types(["arrow"], ["hand_id", "seat", "c00", "top", "discards", "points"])


@pytest.mark.slow
def test_every_arrow_type_from_pandas_and_polars_works_or_is_a_file_error():
    _walk_types(["arrow", "pandas", "polars"],
                ["hand_id", "seat", "n_players", "c00", "c07", "top", "discards", "points",
                 "in_fantasyland", "name", "variant", "options"])


def test_polars_columns_without_an_arrow_type_are_file_errors_naming_them():
    """polars' 128-bit integers have no Arrow type: a FileFormatError naming
    the column and its type (before: pyarrow's ArrowInvalid)."""
    pl = pytest.importorskip("polars")
    from ofc_fast.errors import FileFormatError
    df = pl.from_arrow(_hands_table(pytest.importorskip("pyarrow"), False))
    for dtype in [getattr(pl, n) for n in ("Int128", "UInt128") if hasattr(pl, n)]:
        for column in ("hand_id", "points"):
            with pytest.raises(FileFormatError, match=rf"column '{column}' has type '{dtype}'"):
                fio.score_frame(df.with_columns(pl.col(column).cast(dtype, strict=False)))


def test_empty_frames_of_object_columns():
    """pandas 2 gives an empty object column the Arrow null type: an empty
    frame (and one whose hand ids are all missing) is read, not refused."""
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    text = {"hand_id": ["h1", "h1"], "seat": [0, 1], "top": ["Qs Qd 2c", "Ks Kd 3c"],
            "middle": ["9h 9d 9c 5s 5d", "2h 3h 4h 5h 6d"],
            "bottom": ["7h 7d 7c 7s 2d", "Tc Td Ts Th 8d"], "name": ["ann", "bob"]}
    df = pd.DataFrame(text).astype({k: object for k in text if k != "seat"})
    empty = df.iloc[:0]
    assert pa.array(empty["hand_id"], from_pandas=True).type == pa.null()
    out = fio.score_frame(empty)
    assert len(out) == 0 and list(out.columns)[-5:] == list(fio.schema.RESULT_COLUMNS)
    assert fio.score_frame(pa.Table.from_pandas(empty, preserve_index=False)).num_rows == 0
    missing = df.assign(hand_id=[None, None])
    out = fio.score_frame(missing, skip_bad=True)
    assert out["error"].notna().all() and out["points"].isna().all()
