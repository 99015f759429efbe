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
from fuzz_budget import examples
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


@pytest.mark.slow
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
    assert len(out) == 0 and list(out.columns)[-6:] == list(fio.schema.RESULT_COLUMNS)
    assert fio.score_frame(pa.Table.from_pandas(empty, preserve_index=False)).num_rows == 0
    missing = df.assign(hand_id=[None, None])
    out = fio.score_frame(missing, skip_bad=True)
    assert out["error"].notna().all() and out["points"].isna().all()


# -------------------------------------------------- closed and full streams
_STREAMS_CHILD = r"""
import contextlib, io, json, os, sys
from ofc_fast.cli import main

cases, result_path = json.loads(sys.stdin.read())

def call(argv):
    try:
        return main(argv)
    except SystemExit as e:
        return e.code

def text_on(fd):
    return io.TextIOWrapper(io.FileIO(fd, "w", closefd=False), encoding="utf-8",
                            line_buffering=True)

results = []
for argv in cases:
    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8") for _ in range(2))
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        base = call(argv)
    out.flush(), err.flush()
    row = {"argv": argv, "base": base, "out": bool(out.buffer.getvalue()),
           "err": bool(err.buffer.getvalue()), "runs": []}
    for stream, fd in (("stdout", 1), ("stderr", 2)):
        for how in ("closed at start", "closed", "full"):
            other_fd = 3 - fd
            saved = os.dup(fd), os.dup(other_fd)
            log = os.open(result_path + ".log", os.O_RDWR | os.O_CREAT | os.O_TRUNC)
            os.dup2(log, other_fd)
            old = sys.stdout, sys.stderr
            setattr(sys, "stdout" if other_fd == 1 else "stderr", text_on(other_fd))
            if how == "full":
                dev = os.open("/dev/full", os.O_WRONLY)
                os.dup2(dev, fd)
                os.close(dev)
                setattr(sys, stream, text_on(fd))
            else:
                setattr(sys, stream, None if how == "closed at start" else text_on(fd))
                os.close(fd)
            try:
                code = call(argv)
            except BaseException as e:
                code = "escaped: " + repr(e)
            for s in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    s.flush()
            sys.stdout, sys.stderr = old
            os.dup2(saved[0], fd)
            os.dup2(saved[1], other_fd)
            for x in (*saved, log):
                os.close(x)
            with open(result_path + ".log", encoding="utf-8", errors="replace") as f:
                other = f.read()
            row["runs"].append([stream, how, code, other[-2000:]])
    results.append(row)
with open(result_path, "w") as f:
    json.dump(results, f)
"""


def run_with_streams(argvs, tmp_path):
    """Each argv's run with stdout, then stderr, closed at start (``>&-``),
    closed while running, and full (``/dev/full``), in one child: the rows of
    [stream, how, status, what the other stream got], with the status and
    what each stream got in a normal run."""
    import json

    from isolated import run_isolated
    path = str(tmp_path / "results.json")
    run_isolated(_STREAMS_CHILD, stdin=json.dumps([argvs, path]).encode(), cwd=str(tmp_path))
    return json.load(open(path))


def stream_cases(tmp_path):
    """One argv of every kind for every subcommand (a small hands file)."""
    from ofc_fast.records import chunk_from_records  # noqa: F401 - the package imports
    src = tmp_path / "h.jsonl"
    with open(sample_path(), "rb") as f:
        src.write_bytes(b"".join(next(f) for _ in range(12)))
    h, out = str(src), str(tmp_path / "out.csv")
    layout = "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"
    cards = "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c"
    return [["score", h, "-o", out], ["score", h, "-q", "--no-summary", "-o", out],
            ["score", h, "-o", "-"], ["score", h, "--verify", "--no-summary", "-q"],
            ["score", h, "-q", "--no-summary", "--summary-json", "-"],
            ["show", layout], ["show", h, "--index", "3"], ["fantasyland", cards, "--json"],
            ["report", h, "-q"], ["report", h, "-q", "--json", str(tmp_path / "r.json")],
            ["--help"], ["score", "--help"], ["--version"], [], ["score", "--bogus"],
            ["score", str(tmp_path / "missing.jsonl")]]


def check_stream_runs(rows):
    """Exit 0 (the run's status) when nothing needed writing on the failed
    stream, else 2 naming it (stdout: on stderr); never 3, never escaping."""
    for row in rows:
        for stream, how, code, other in row["runs"]:
            wrote = row["out"] if stream == "stdout" else row["err"]
            want = 2 if wrote and row["base"] in (0, 1) else row["base"]
            assert code == want, (row["argv"], stream, how, code, want, other)
            if stream == "stdout" and wrote:
                assert "<stdout>: cannot write" in other, (row["argv"], how, other)
            assert "Traceback" not in other and "internal error" not in other


@pytest.mark.slow
def test_closed_and_full_standard_streams_for_every_subcommand(tmp_path):
    """stdout or stderr closed (``>&-`` or later) or full (``/dev/full``):
    exit 2 naming the stream when something needed writing there, the run's
    status otherwise (before: "internal error", exit 3, or exit 0 with the
    summary lost)."""
    rows = run_with_streams(stream_cases(tmp_path), tmp_path)
    check_stream_runs(rows)
    wrote = {(tuple(r["argv"][:1]), r["out"], r["err"]) for r in rows}
    assert (("score",), False, False) in wrote and (("score",), True, True) in wrote


# ----------------------------------------------------------- signals, writers
def _big_input(tmp_path, copies=12):
    src = tmp_path / "big.jsonl"
    data = open(sample_path(), "rb").read()
    src.write_bytes(data * copies)
    return src


def _start_cli(args, cwd, **kw):
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    return subprocess.Popen([sys.executable, "-m", "ofc_fast", *args], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


def _temporaries(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGHUP", "SIGQUIT", "SIGXCPU"])
def test_a_hang_up_or_other_stop_signal_leaves_no_temporary_output(tmp_path, sig):
    """The signal of a closed terminal (SIGHUP), SIGQUIT, SIGXCPU ... are
    handled as SIGTERM is: the temporary output is removed, an existing
    target is left as it was, and the exit status is 128 + n (before: the
    process died at once and the half-written temporary file stayed)."""
    import signal
    n = getattr(signal, sig)
    # the child starts with the signal's default action, whatever this process
    # was given (under nohup, SIGHUP is ignored and children inherit that)
    proc, out = _score_until_writing(tmp_path, lambda: signal.signal(n, signal.SIG_DFL))
    proc.send_signal(n)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + n, (proc.returncode, err)
    assert _temporaries(tmp_path) == [] and out.read_text() == "old results\n"
    assert b"Traceback" not in err


def _score_until_writing(tmp_path, preexec_fn):
    """``ofc-fast score`` of a large file into ``out.csv`` (which holds old
    results), started with ``preexec_fn`` and returned once its temporary
    output exists."""
    import time
    src = _big_input(tmp_path)
    out = tmp_path / "out.csv"
    out.write_text("old results\n")
    proc = _start_cli(["score", str(src), "-o", str(out), "-q", "--chunk-size", "200"],
                      tmp_path, preexec_fn=preexec_fn)
    deadline = time.monotonic() + 60
    while not _temporaries(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert _temporaries(tmp_path), "the temporary output appears while the run writes"
    return proc, out


@pytest.mark.slow
def test_a_hang_up_that_the_parent_ignores_stays_ignored(tmp_path):
    """Under ``nohup`` (SIGHUP ignored when the command starts) a hang-up
    does not stop the run: it finishes, exit 0, the output complete."""
    import signal
    proc, out = _score_until_writing(tmp_path,
                                     lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    proc.send_signal(signal.SIGHUP)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, (proc.returncode, err)
    assert _temporaries(tmp_path) == []
    assert out.read_text().startswith("hand_id") and out.read_text().count("\n") > 1000


@pytest.mark.slow
def test_a_file_over_the_size_limit_is_a_write_error(tmp_path):
    """SIGXFSZ is ignored (as Python does): a write past RLIMIT_FSIZE is an
    OutputError naming the output, exit 2, and no temporary file is left."""
    resource = pytest.importorskip("resource")
    out = tmp_path / "out.csv"

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))
    proc = _start_cli(["score", sample_path(), "-o", str(out), "-q"], tmp_path,
                      preexec_fn=limit)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and b"out.csv: cannot write: [Errno 27] File too large" in err
    assert not out.exists() and _temporaries(tmp_path) == []


@pytest.mark.slow
def test_writers_leave_nothing_when_dropped_failed_or_misconfigured(tmp_path):
    """A writer dropped without close() (garbage-collected), one whose write
    raised, and one with a bad option leave no temporary file; the option is
    refused when the writer is made (before: at the first write, and the
    temporary file stayed)."""
    import gc as gc_module
    import warnings

    from ofc_fast.errors import ArgumentError, StateError
    chunk = next(fio.read_chunks(sample_path(), chunk_size=50)).score()
    for name in ("a.jsonl", "a.csv", "a.parquet", "a.csv.gz"):
        if name.endswith("parquet"):
            pytest.importorskip("pyarrow")
        w = fio.open_writer(tmp_path / name)
        w.write(chunk)
        assert _temporaries(tmp_path)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            del w
            gc_module.collect()
        assert _temporaries(tmp_path) == [] and not (tmp_path / name).exists()
        assert any(issubclass(x.category, ResourceWarning) and "not committed" in str(x.message)
                   for x in seen)
    w = fio.open_writer(tmp_path / "b.csv")
    with pytest.raises(TypeError, match="takes a Chunk"):
        w.write({"id": 1})
    w.write(chunk)

    def broken(chunk):
        raise OSError(28, "No space left on device")
    w._w.write = broken
    with pytest.raises(fio.OutputError, match=r"b\.csv: cannot write: \[Errno 28\]"):
        w.write(chunk)
    assert _temporaries(tmp_path) == [] and not (tmp_path / "b.csv").exists()
    with pytest.raises(StateError, match="closed"):
        w.write(chunk)
    bad = [({"compression": "nope"}, ArgumentError, "Unsupported compression"),
           ({"width": 14}, ArgumentError, "width must be 13 or 18"),
           ({"compresion": "zstd"}, TypeError, "unexpected keyword argument 'compresion'"),
           ({"results_only": "yes"}, TypeError, "results_only must be True or False")]
    pytest.importorskip("pyarrow")
    for options, error, match in bad:
        with pytest.raises(error, match=match):
            fio.open_writer(tmp_path / "c.parquet", **options)
        assert _temporaries(tmp_path) == [] and not (tmp_path / "c.parquet").exists()
    with pytest.raises(TypeError, match="results_only must be True or False"):
        fio.open_writer(tmp_path / "c.jsonl", results_only="yes")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_completed_output_is_flushed_to_the_disk_before_the_rename(tmp_path, monkeypatch):
    """fsync of the file before os.replace, of its folder after."""
    import os

    from ofc_fast import outputs
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(outputs.os, "fsync", lambda fd: (calls.append(("fsync", fd)),
                                                         real_fsync(fd)))
    monkeypatch.setattr(outputs.os, "replace", lambda a, b: (calls.append(("replace", b)),
                                                             real_replace(a, b)))
    with outputs.open_output(tmp_path / "x.txt") as f:
        f.write(b"data")
    assert [c[0] for c in calls] == ["fsync", "replace", "fsync"]
    assert (tmp_path / "x.txt").read_bytes() == b"data"


# ------------------------------------------------------- outputs that are one
def test_two_outputs_that_are_one_file_are_refused_before_anything_is_read(tmp_path, capsys):
    """The results and the summary (or a picture and its JSON) given one file,
    in any spelling, are refused with exit 2 and nothing written (before:
    both written, one over the other, exit 0)."""
    import os

    from ofc_fast.cli import main
    from ofc_fast.errors import OFCError, SameFileError
    from ofc_fast.outputs import check_distinct
    out = tmp_path / "out.csv"
    (tmp_path / "sub").mkdir()
    os.symlink(out, tmp_path / "link.csv")
    spellings = [str(out), str(tmp_path / "sub" / ".." / "out.csv"), str(tmp_path / "link.csv")]
    for a in spellings:
        for b in spellings:
            with pytest.raises(SameFileError, match="two outputs are one file"):
                check_distinct([sample_path()], [a, b])
    out.write_text("old")
    os.link(out, tmp_path / "hard.csv")
    with pytest.raises(SameFileError, match=r"two outputs are one file \(.*out.csv and "):
        check_distinct([], [out, None, tmp_path / "hard.csv"])
    with pytest.raises(SameFileError, match=r"stdout: two outputs are one file \(stdout and "):
        check_distinct([], ["-", "-"])
    assert issubclass(SameFileError, OFCError) and issubclass(SameFileError, ValueError)
    check_distinct([sample_path()], [out, tmp_path / "other.csv", os.devnull, os.devnull])
    for argv in (["score", sample_path(), "-o", str(out), "--summary-json",
                  str(tmp_path / "link.csv")],
                 ["score", sample_path(), "-o", "-", "--summary-json", "-"],
                 ["report", sample_path(), "--json", str(tmp_path / "r.png"),
                  "--plot", str(tmp_path / "sub" / ".." / "r.png")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "two outputs are one file" in err and err.count("\n") == 1, err
    assert out.read_text() == "old" and not (tmp_path / "r.png").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard.csv", "link.csv", "out.csv",
                                                           "sub"]


# ------------------------------------------------------------- endless input
@pytest.mark.slow
def test_byte_blocks_cut_long_lines_whatever_the_reads():
    """byte_blocks with max_line: every line as it is, but a line longer than
    max_line (its end included) cut to its first max_line bytes and CUT, the
    rest dropped; whatever the block size and the lines' lengths."""
    import io

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from ofc_fast.io._text import CUT, byte_blocks

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(st.lists(st.integers(0, 40), max_size=12), st.booleans(), st.integers(1, 16),
           st.integers(1, 20))
    def check(lengths, ends, block, max_line):
        lines = [bytes([97 + i % 26]) * n for i, n in enumerate(lengths)]
        data = b"\n".join(lines) + (b"\n" if ends and lines else b"")
        want = []
        for i, line in enumerate(lines):
            last = i == len(lines) - 1 and not ends
            whole = line if last else line + b"\n"
            if last and not line:
                continue
            want.append(whole if len(whole) <= max_line else line[:max_line] + CUT)
        got = b"".join(byte_blocks(io.BytesIO(data), "x", block=block, max_line=max_line))
        assert got == b"".join(want)
    check()


def test_a_first_byte_that_cannot_start_the_text_is_a_file_error_at_once():
    import io

    from ofc_fast.errors import FileFormatError
    from ofc_fast.io._text import byte_blocks

    def brace(b):
        return None if b == ord("{") else f"byte {b:#04x}"
    assert b"".join(byte_blocks(io.BytesIO(b"\n \n{}\n"), "x", starts=brace)) == b"\n \n{}\n"
    for data, line in ((b"\x00" * 100, 1), (b"\n\n  y", 3), (b"\xef\xbb\xbf[1]", 1)):
        with pytest.raises(FileFormatError, match=rf"x \(line {line}\): byte 0x"):
            list(byte_blocks(io.BytesIO(data), "x", block=2, starts=brace))


class _Stream:
    """A raw binary stream: ``head``, then ``n`` bytes of ``fill``, then
    ``tail``; counts the bytes read (an endless line without the file)."""

    def __init__(self, head: bytes, n: int, tail: bytes = b"", fill: bytes = b"a"):
        import io
        self.parts = [head, None, tail]
        self.left, self.fill, self.read_bytes = n, fill, 0
        self.raw = io.RawIOBase()

    def readinto(self, b) -> int:
        while self.parts:
            part = self.parts[0]
            if part is None:
                if self.left <= 0:
                    self.parts.pop(0)
                    continue
                n = min(len(b), self.left)
                b[:n] = (self.fill * (n // len(self.fill) + 1))[:n]
                self.left -= n
            else:
                if not part:
                    self.parts.pop(0)
                    continue
                n = min(len(b), len(part))
                b[:n] = part[:n]
                self.parts[0] = part[n:]
            self.read_bytes += n
            return n
        return 0

    def file(self):
        import io

        class Raw(io.RawIOBase):
            def readable(inner):
                return True

            def readinto(inner, b):
                return self.readinto(b)
        return io.BufferedReader(Raw())


def _sample_lines(fmt, n):
    """The first ``n`` records of the sample in ``fmt`` (CSV: the header, then
    the rows of ``n`` hands)."""
    import io
    if fmt == "jsonl":
        with open(sample_path(), "rb") as f:
            return [next(f) for _ in range(n)]
    buf = io.BytesIO()
    from ofc_fast.io.csv import CsvWriter
    CsvWriter(buf).write(next(fio.read_chunks(sample_path(), chunk_size=n)))
    return buf.getvalue().splitlines(keepends=True)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_line_without_end_is_read_in_bounded_memory_and_is_one_bad_record(fmt):
    """A 96 MiB line (a broken export, a line end missing) between good
    records: memory stays within a block and the line limit (before: the
    whole line was kept, then parsed), the line is one bad record naming the
    limit, and the records after it are read."""
    import tracemalloc
    lines = _sample_lines(fmt, 6)
    # after the first hands (CSV: the header, then a row a seat)
    ids = [ln.split(b",")[0] for ln in lines]
    at = 2 if fmt == "jsonl" else next(i for i in range(2, len(ids)) if ids[i] != ids[i - 1])
    head = b"".join(lines[:at]) + (b'{"id": "x", "players": "' if fmt == "jsonl" else b"x,")
    stream = _Stream(head, 96 << 20, b'"}\n' + b"".join(lines[at:]))
    tracemalloc.start()
    try:
        chunks = list(fio.read_chunks(stream.file(), fmt, skip_bad=True, source="h"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert stream.read_bytes > 96 << 20           # read to its end, and on
    good = sum(c.n_hands for c in chunks)
    errors = [str(e) for c in chunks for e in c.errors]
    assert good == 6, (good, errors)
    limit = "longer than 1,048,576 bytes" if fmt == "jsonl" else "more than 131,072 characters"
    assert len(errors) == 1 and limit in errors[0]
    assert errors[0].startswith(f"h:{at + 1}: bad record:"), errors[0]
    assert peak < 24 << 20, peak


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_stream_of_zeros_is_a_file_error_at_its_first_block(fmt):
    """A binary file or /dev/zero given as hands is refused at its first
    byte, after one block, not read to its end (before: without end)."""
    from ofc_fast.errors import FileFormatError
    stream = _Stream(b"", 64 << 20, fill=b"\x00")   # endless enough
    with pytest.raises(FileFormatError, match=r"^z \(line 1\): the file starts with the byte 0x00"):
        list(fio.read_chunks(stream.file(), fmt, source="z"))
    assert stream.read_bytes <= 4 << 20
    with pytest.raises(FileFormatError, match=r"starts with '\['.*a JSON array"):
        list(fio.read_chunks(_Stream(b"\n[{}]\n", 0).file(), "jsonl", source="z"))


def test_parquet_from_a_pipe_is_spooled_and_refused_at_its_first_bytes(monkeypatch):
    """Parquet on stdin (read whole first) goes through a spooled copy: a
    stream that does not start with PAR1 is refused at its first bytes."""
    import sys
    import types
    pytest.importorskip("pyarrow")
    from ofc_fast.errors import FileFormatError
    stream = _Stream(b"", 64 << 20, fill=b"\x00")   # endless enough
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=stream.file(),
                                                            readable=lambda: True))
    with pytest.raises(FileFormatError, match=r"<stdin> \(byte 0\): not a Parquet file: it "
                                              r"starts with b'\\x00\\x00\\x00\\x00'"):
        list(fio.read_chunks("-", "parquet"))
    assert stream.read_bytes <= 1 << 20


# ------------------------------------------------ child-process fuzz: signals, memory
@pytest.mark.slow
def test_signals_at_random_moments_leave_the_target_old_or_complete(tmp_path):
    """A stopping signal at a random moment of ``ofc-fast score -o OUT``
    (starting, reading, writing, renaming, exiting): the target holds the
    old results or the complete new ones (byte for byte what an undisturbed
    run writes), never a part; no temporary file is left; the exit status
    is 0, 128 + n, or death by the signal before the handlers are set."""
    import random
    import signal
    import subprocess
    import sys
    import time
    src = _big_input(tmp_path, copies=4)
    ref = tmp_path / "ref.csv"
    subprocess.run([sys.executable, "-m", "ofc_fast", "score", str(src), "-o", str(ref), "-q",
                    "--no-summary"], check=True, capture_output=True, cwd=tmp_path)
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-m", "ofc_fast", "score", str(src), "-o",
                    str(tmp_path / "timing.csv"), "-q", "--no-summary"], check=True,
                   capture_output=True, cwd=tmp_path)
    span = time.monotonic() - t0                   # how long a run takes here
    complete, old = ref.read_bytes(), b"old results\n"
    rng = random.Random(20261202)
    names = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGALRM", "SIGXCPU"]
    seen = set()
    for _ in range(examples(24)):
        n = int(getattr(signal, rng.choice(names)))
        out = tmp_path / "out.csv"
        out.write_bytes(old)
        proc = _start_cli(["score", str(src), "-o", str(out), "-q", "--no-summary"], tmp_path,
                          preexec_fn=lambda n=n: signal.signal(n, signal.SIG_DFL))
        time.sleep(rng.uniform(0.0, span * 2))   # about half the runs end first
        if proc.poll() is None:
            proc.send_signal(n)
        _, err = proc.communicate(timeout=120)
        code = proc.returncode
        got = out.read_bytes()
        assert _temporaries(tmp_path) == [], (n, code)
        assert got in (old, complete), (n, code, len(got))
        assert code in (0, 128 + n, -n) or (n == signal.SIGINT and code == 130), (n, code, err)
        # success means the new results are there (a signal after the rename
        # may still end the run with 128 + n: the target is complete then)
        assert code != 0 or got == complete, (n, code)
        # (Python's own KeyboardInterrupt traceback when SIGINT comes during start-up)
        assert b"Traceback" not in err or code == -n, err[-300:]
        seen.add("complete" if got == complete else "old")
    assert seen == {"complete", "old"}, seen          # both ends were reached


@pytest.mark.slow
def test_an_endless_line_on_stdin_runs_in_bounded_memory_under_a_data_limit(tmp_path):
    """1 GiB without a line end piped into ``ofc-fast score`` whose data
    segment is limited to 200 MiB (``resource.setrlimit``): the line is one
    bad record, the hands around it are scored, exit 0 with ``--skip-bad``
    (an unbounded reader runs out of memory)."""
    resource = pytest.importorskip("resource")
    import os
    import subprocess
    import sys
    limit = 200 << 20

    def cap():
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))

    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "ofc_fast", "score", "-", "--skip-bad", "-q",
                             "--no-summary", "-o", str(out)], stdin=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tmp_path, preexec_fn=cap,
                            env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    lines = _sample_lines("jsonl", 6)
    block = b"x" * (1 << 20)
    try:
        proc.stdin.write(b"".join(lines[:3]) + b'{"id": "x", "players": "')
        for _ in range(1024):
            proc.stdin.write(block)
        proc.stdin.write(b'"}\n' + b"".join(lines[3:]))
        proc.stdin.close()
    except BrokenPipeError:
        pass                                      # the child died: the asserts say how
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0, err[-500:]
    assert b"longer than 1,048,576 bytes" in err
    assert out.read_bytes().count(b"\n") == 6


def test_a_stop_inside_a_finaliser_is_not_lost():
    """A signal whose handler runs inside a finaliser (``__del__``, a weakref
    callback) cannot raise out of it: Python printed "Exception ignored"
    and the command went on to exit 0.  Now the stop is kept (``stopped()``,
    which ``ofc-fast`` checks when the run ends: exit 128 + n) and nothing
    is printed."""
    import os
    import signal
    import sys

    from ofc_fast._process import stop_on_signals
    printed = []
    before = sys.unraisablehook
    sys.unraisablehook = printed.append
    try:
        class Dropped:
            def __del__(self):
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(1000):         # the handler runs here, inside __del__
                    pass

        with stop_on_signals() as stopped:
            Dropped()
            assert stopped() == signal.SIGTERM
        assert printed == []
    finally:
        sys.unraisablehook = before
