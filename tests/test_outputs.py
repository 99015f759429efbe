"""The output guard (ofc_fast.outputs.open_output), used by the command line,
the file writers and the picture writer: an output appears whole or not at
all, and a failed block leaves an existing file as it was, with no temporary
file beside it (issue 16)."""
import errno
import os

import pytest

from ofc_fast.outputs import Output, OutputError, open_output


class Planted(Exception):
    pass


@pytest.mark.parametrize("exc", [Planted, KeyboardInterrupt, SystemExit])
@pytest.mark.parametrize("existing", [True, False])
def test_an_exception_in_the_block_leaves_the_target_as_it_was(tmp_path, exc, existing):
    target = tmp_path / "out.bin"
    if existing:
        target.write_bytes(b"previous results")
    with pytest.raises(exc):
        with open_output(target) as f:
            f.write(b"half of the new ")
            f.flush()
            assert sorted(p.name for p in tmp_path.iterdir()) != \
                (["out.bin"] if existing else [])       # the new bytes go beside it
            raise exc()
    if existing:
        assert target.read_bytes() == b"previous results"
    assert sorted(p.name for p in tmp_path.iterdir()) == (["out.bin"] if existing else [])


def test_a_write_error_names_the_output_and_leaves_it(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"previous results")
    with pytest.raises(OutputError) as ei:
        with open_output(str(target)) as f:
            f.write(b"x")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert str(ei.value).startswith(f"{target}: ") and ei.value.errno == errno.ENOSPC
    assert target.read_bytes() == b"previous results"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_a_finished_block_replaces_the_target(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"previous results, longer than the new ones")
    os.chmod(target, 0o640)
    with open_output(target) as f:
        f.write(b"new")
        assert target.read_bytes().startswith(b"previous")     # not yet
    assert target.read_bytes() == b"new"
    assert (target.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_output_commit_and_abort(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    out = Output(target)
    assert out.atomic and out.path != str(target) and os.path.dirname(out.path) == str(tmp_path)
    with out.open() as f:
        f.write(b"new")
    out.abort()
    out.commit()                 # after abort: nothing more happens
    assert target.read_bytes() == b"old" and not os.path.exists(out.path)
    out = Output(target)
    with out.open() as f:
        f.write(b"new")
    out.commit()
    out.abort()                  # after commit: nothing more happens
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def _release_threads_done():
    import threading
    for t in threading.enumerate():
        if t.name == "ofc-fast-release":
            t.join(10)


@pytest.mark.skipif(os.name != "posix", reason="the replaced file is held only on POSIX")
def test_the_replaced_file_is_released_in_the_background_and_closed(tmp_path, monkeypatch):
    import ofc_fast.outputs as outputs
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")
    old_inode = os.stat(target).st_ino
    held = []
    real = outputs._close_behind

    def close_behind(fd):
        # after the rename: the old file, unlinked, still open through fd
        st = os.fstat(fd)
        held.append((fd, st.st_ino, st.st_nlink))
        real(fd)
    monkeypatch.setattr(outputs, "_close_behind", close_behind)
    out = Output(target)
    with out.open() as f:
        f.write(b"new")
    out.commit()
    _release_threads_done()
    assert target.read_bytes() == b"new"
    [(fd, inode, links)] = held
    assert (inode, links) == (old_inode, 0)
    with pytest.raises(OSError) as e:       # closed by the release thread
        os.fstat(fd)
    assert e.value.errno == errno.EBADF
    # a new target: nothing to hold
    held.clear()
    out = Output(tmp_path / "fresh.txt")
    with out.open() as f:
        f.write(b"x")
    out.commit()
    assert held == []


def test_writeback_starts_the_disk_writes_of_the_temporary_file_only(tmp_path, monkeypatch):
    import ofc_fast.outputs as outputs
    calls = []
    monkeypatch.setattr(outputs, "_START_WRITEBACK", True)
    monkeypatch.setattr(outputs.os, "posix_fadvise",
                        lambda fd, off, n, advice: calls.append(os.fstat(fd).st_ino),
                        raising=False)
    monkeypatch.setattr(outputs.os, "POSIX_FADV_DONTNEED", 4, raising=False)
    out = Output(tmp_path / "out.txt")
    f = out.open()
    f.write(b"abc")
    f.flush()
    out.writeback()
    assert calls == [os.stat(out.path).st_ino]      # the temporary file, not the target
    f.close()
    out.commit()
    out.writeback()                                 # committed: nothing more
    assert len(calls) == 1
    Output("-").writeback()                         # stdout: not a file of ours
    assert len(calls) == 1


def test_score_file_starts_the_writeback_after_every_chunk(tmp_path, monkeypatch):
    import ofc_fast.io as fio
    from ofc_fast.outputs import Output as Out
    from ofc_fast.report import sample_path
    seen = []
    real = Out.writeback

    def writeback(self):
        seen.append(os.path.basename(self.path))
        real(self)
    monkeypatch.setattr(Out, "writeback", writeback)
    for fmt in ("jsonl", "csv", "parquet"):
        pytest.importorskip("pyarrow") if fmt == "parquet" else None
        seen.clear()
        run = fio.score_file(sample_path(), tmp_path / f"out.{fmt}", chunk_size=400,
                             n_threads=1)
        n_chunks = -(-run.hands // 400)
        assert len(seen) == n_chunks and all(s.startswith(f".out.{fmt}.") for s in seen)
