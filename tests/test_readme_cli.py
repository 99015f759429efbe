"""README's command-line examples run as written, in order, in an empty
folder (the first one writes the bundled sample out as the file the others
read), each ending with the exit status 0 and writing what it names."""
from __future__ import annotations

import os
import pathlib
import re
import shlex

import pytest

from ofc_fast import cli

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"
try:
    import pyarrow  # noqa: F401
    HAVE_ARROW = True
except ImportError:       # a wheel test without the extras: the Parquet lines are skipped
    HAVE_ARROW = False
pytestmark = pytest.mark.skipif(not README.exists(), reason="README.md is not beside tests/")


def _commands() -> list[list[str]]:
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Recorded hands and the command line\n(.*?)(?=^## )", text,
                        re.S | re.M)
    assert section, "README.md has no 'Recorded hands and the command line' section"
    block = re.search(r"```bash\n(.*?)```", section.group(1), re.S)
    assert block
    return [shlex.split(line, comments=True) for line in block.group(1).splitlines()
            if line.strip()]


def _run_all(tmp_path, monkeypatch, capsys, plots: bool) -> None:
    monkeypatch.chdir(tmp_path)
    with open(os.devnull) as devnull:     # a script's stdin: no data piped in
        monkeypatch.setattr("sys.stdin", devnull)
        commands = _commands()
        assert len(commands) >= 5 and all(c[0] == "ofc-fast" for c in commands)
        for argv in commands:
            if not HAVE_ARROW and any(a.endswith(".parquet") for a in argv):
                continue
            outputs = [argv[i + 1] for i, a in enumerate(argv) if a in ("-o", "--plot")]
            inputs = [a for a in argv[2:] if re.fullmatch(r"[\w.-]+\.(jsonl|csv|parquet)", a)
                      and a not in outputs]
            assert all((tmp_path / f).exists() for f in inputs), (argv, "input not made yet")
            if "--plot" in argv and not plots:
                continue       # matplotlib's 3 s: test_report_plot and the slow test below
            code = cli.main(argv[1:])
            err = capsys.readouterr().err
            assert code == 0, (argv, err)
            assert all((tmp_path / f).stat().st_size > 0 for f in outputs), argv


def test_readme_cli_examples_run_as_written(tmp_path, monkeypatch, capsys):
    _run_all(tmp_path, monkeypatch, capsys, plots=False)


@pytest.mark.slow
def test_readme_cli_examples_with_the_plot(tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")
    _run_all(tmp_path, monkeypatch, capsys, plots=True)
