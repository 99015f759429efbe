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
