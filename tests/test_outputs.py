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
