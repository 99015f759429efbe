"""A user's script written against README.md and the docs type-checks with
``mypy --strict``, with no cast and no ignore (tests/typing/user_script.py;
CI's lint job also runs pyright on it).  About 3 s with a cold mypy cache,
well under a second with a warm one (the repository's ``.mypy_cache``)."""
from __future__ import annotations

import pathlib

import pytest

# long (subprocesses, builds or many games): the full run, not the edit-test loop
pytestmark = pytest.mark.slow

api = pytest.importorskip("mypy.api", reason="mypy is in the test and dev extras")

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "typing" / "user_script.py"

def test_user_script_passes_mypy_strict(monkeypatch):
    monkeypatch.chdir(ROOT)          # the source tree's stubs, as CI's lint job sees them
    out, err, status = api.run(["--strict", "--no-error-summary", "--cache-dir",
                                str(ROOT / ".mypy_cache"), str(SCRIPT)])
    assert (status, out, err) == (0, "", "")
