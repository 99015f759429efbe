"""The gallery (docs/examples/*.md) runs outside Sphinx too.

The docs build executes every example with myst-nb and fails on an error;
these tests run the same code cells, in order, as one script per example in a
fresh interpreter (from docs/examples, as the build does, with matplotlib's
Agg backend), so that ``pytest`` catches a broken example without building
the site.  The hidden cells (``:tags: [remove-cell]``) that check what each
page claims run here as well.
"""
from __future__ import annotations

import os
import pathlib
import re
import runpy
import subprocess
import sys

import pytest

# long (subprocesses, builds or many games): the full run, not the edit-test loop
pytestmark = pytest.mark.slow

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "docs" / "examples"
PAGES = sorted(p for p in EXAMPLES.glob("*.md") if p.name != "index.md") \
    if EXAMPLES.exists() else []
# Examples that take more than a few seconds here (sizes: see each page).
SLOW = {"tournament", "first_street"}

_FENCE = re.compile(r"^```\{code-cell\}\s*(\S*)\s*$")


def code_cells(text: str) -> list[str]:
    """The code cells of a MyST notebook, in order, without their options
    (``:key: value`` lines or a ``---`` YAML block at the top of a cell)."""
    cells: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        i += 1
        if not m:
            continue
        if m.group(1) not in ("ipython3", "python3", "python"):
            raise ValueError(f"code cell in {m.group(1)!r}, not Python")
        body: list[str] = []
        while i < len(lines) and lines[i] != "```":
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise ValueError("code cell not closed")
        i += 1
        if body and body[0] == "---":
            body = body[body.index("---", 1) + 1:]
        while body and body[0].startswith(":"):
            body.pop(0)
        cells.append("\n".join(body))
    return cells


def as_script(text: str) -> str:
    """One script of every code cell; IPython syntax (magics, shell escapes)
    is refused: an example must be plain Python to run both here and in a
    kernel."""
    parts = []
    for k, cell in enumerate(code_cells(text)):
        for line in cell.splitlines():
            if line.lstrip().startswith(("%", "!")):
                raise ValueError(f"cell {k}: IPython syntax {line.strip()!r}")
        parts.append(f"# ---- cell {k}\n{cell}\n")
    return "\n".join(parts)


def run_example(text: str, tmp_path: pathlib.Path, name: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / f"{name}.py"
    script.write_text(as_script(text), encoding="utf-8")
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run([sys.executable, str(script)], cwd=EXAMPLES, env=env,
                          capture_output=True, text=True, timeout=600)


def _params() -> list[object]:
    return [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in SLOW else [])
            for p in PAGES]


@pytest.mark.skipif(not PAGES, reason="docs/examples is not beside tests/")
@pytest.mark.parametrize("page", _params())
def test_example_runs(page: pathlib.Path, tmp_path: pathlib.Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert text.startswith("---\nfile_format: mystnb\n"), \
        "not a MyST notebook: the docs build would not execute it"
    assert len(code_cells(text)) >= 3
    done = run_example(text, tmp_path, page.stem)
    assert done.returncode == 0, f"{page.name} failed:\n{done.stderr[-4000:]}"


@pytest.mark.skipif(not PAGES, reason="docs/examples is not beside tests/")
def test_every_example_is_in_the_gallery() -> None:
    index = (EXAMPLES / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^(\w+)$", index.split("{toctree}", 1)[1].split("```", 1)[0], re.M))
    assert listed == {p.stem for p in PAGES}


def test_a_failing_cell_fails(tmp_path: pathlib.Path) -> None:
    page = ("---\nfile_format: mystnb\n---\n# t\n\n```{code-cell} ipython3\nx = 1\n```\n\n"
            "```{code-cell} ipython3\n:tags: [remove-cell]\nassert x == 2, 'planted'\n```\n")
    assert code_cells(page) == ["x = 1", "assert x == 2, 'planted'"]
    done = run_example(page, tmp_path, "planted")
    assert done.returncode != 0 and "AssertionError: planted" in done.stderr


def test_parser_refuses_what_a_script_cannot_run() -> None:
    with pytest.raises(ValueError, match="IPython syntax"):
        as_script("```{code-cell} ipython3\n%timeit 1\n```\n")
    with pytest.raises(ValueError, match="not Python"):
        code_cells("```{code-cell} bash\nls\n```\n")
    with pytest.raises(ValueError, match="not closed"):
        code_cells("```{code-cell} ipython3\nx = 1\n")
    page = "```{code-cell} ipython3\n---\ntags: [hide-input]\n---\ny = 2\n```\n"
    assert code_cells(page) == ["y = 2"]


@pytest.mark.skipif(not EXAMPLES.exists(), reason="docs/ is not beside tests/")
def test_the_docs_build_fails_on_a_broken_example() -> None:
    pytest.importorskip("sphinx")
    saved = list(sys.path)
    try:
        conf = runpy.run_path(str(EXAMPLES.parent / "conf.py"))
    finally:
        sys.path[:] = saved
    assert "myst_nb" in conf["extensions"]
    assert conf["nb_execution_mode"] in ("cache", "force", "auto")
    assert conf["nb_execution_raise_on_error"] is True
    assert not conf.get("nb_execution_allow_errors", False)
