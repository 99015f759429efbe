"""Packaging: the sdist carries everything the test suite needs (its tests
then run from the unpacked tree: CI's sdist job), and a source tree whose
extensions are not built says so on import instead of failing obscurely."""
from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

# long (subprocesses, builds or many games): the full run, not the edit-test loop
pytestmark = pytest.mark.slow

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Tracked files that stay out of the sdist: the CI machinery only (the
# mutation job, tools/, is CI's: tests/test_mutants.py skips without it).
NOT_SHIPPED = (".github/", ".ci/", ".gitignore", "tools/")


def _manifest_files() -> set[str]:
    """The files MANIFEST.in selects, as setuptools' sdist reads it."""
    pytest.importorskip("setuptools", reason="setuptools reads MANIFEST.in")
    from setuptools._distutils.filelist import FileList

    files = FileList()
    files.findall(str(ROOT))
    files.files = [os.path.relpath(f, ROOT) for f in files.allfiles]
    files.allfiles = list(files.files)
    selected = FileList()
    selected.allfiles = files.allfiles
    for line in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            selected.process_template_line(line)
    return {pathlib.Path(f).as_posix() for f in selected.files}


def _tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist)")
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return [f for f in out.splitlines() if (ROOT / f).exists()]


def test_sdist_ships_every_tracked_file_but_the_ci_machinery():
    shipped = _manifest_files()
    missing = [f for f in _tracked_files() if not f.startswith(NOT_SHIPPED) and f not in shipped]
    assert missing == []
    # and no build products
    assert [f for f in shipped if f.endswith((".so", ".pyd", ".pyc")) or
            (f.startswith("ofc_fast/") and f.endswith(".c"))] == []


def _source_copy(tmp_path: pathlib.Path) -> pathlib.Path:
    """The package's sources without any compiled module, as in a fresh checkout."""
    shutil.copytree(ROOT / "ofc_fast", tmp_path / "ofc_fast",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
    return tmp_path


def _python(cwd: pathlib.Path, *args: str) -> subprocess.CompletedProcess[str]:
    # -S: no site-packages, so nothing (an editable install's finder included)
    # can supply the compiled modules; the current folder comes first on
    # sys.path, as in a checkout after `pip install .`.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return subprocess.run([sys.executable, "-S", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args", [("-c", "import ofc_fast"), ("-m", "ofc_fast", "--version")],
                         ids=["import", "python -m"])
def test_unbuilt_source_tree_explains_itself(tmp_path, args):
    r = _python(_source_copy(tmp_path), *args)
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: ofc_fast was imported from its source tree (")
    assert str(tmp_path / "ofc_fast") in last
    assert "No module named 'ofc_fast._eval'" in last
    assert "`pip install -e .`" in last and "run Python from another folder" in last


def test_other_missing_modules_are_not_explained_away(tmp_path):
    """A missing dependency is reported as itself, not as an unbuilt tree."""
    src = _source_copy(tmp_path)
    (src / "ofc_fast" / "_eval.py").write_text("import no_such_dependency_of_ofc_fast\n")
    r = _python(src, "-c", "import ofc_fast")
    assert r.stderr.strip().splitlines()[-1] == \
        "ModuleNotFoundError: No module named 'no_such_dependency_of_ofc_fast'"


WORKFLOWS = ROOT / ".github" / "workflows"


@pytest.mark.skipif(not WORKFLOWS.exists(), reason="the CI machinery is not in the sdist")
def test_workflows_pin_actions_by_sha_with_least_permissions():
    import re

    for path in sorted(WORKFLOWS.glob("*.yml")):
        text = path.read_text(encoding="utf-8")
        # a token that can only read, unless a job widens it for one purpose
        assert re.search(r"^permissions:\n  contents: read$", text, re.M), path.name
        for m in re.finditer(r"^\s*(?:-\s*)?uses:\s*(\S+)(.*)$", text, re.M):
            ref, rest = m.group(1), m.group(2)
            if ref.startswith("./"):
                continue                    # a workflow of this repository
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref), (path.name, ref)
            assert re.fullmatch(r"\s*# v\d+(\.\d+)*", rest), (path.name, ref, "tag comment")
        for m in re.finditer(r"^\s+(\S+): write", text, re.M):
            assert m.group(1) == "id-token" and path.name == "release.yml", (path.name, m.group(0))


def test_cibuildwheel_builds_free_threaded_and_windows_arm_wheels():
    tomllib = pytest.importorskip("tomllib")
    cibw = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "cibuildwheel"]
    build = cibw["build"].split()
    assert {"cp313t-*", "cp314t-*"} <= set(build)
    assert "cpython-freethreading" in cibw["enable"]
    assert "win_arm64" not in cibw["skip"].replace("cp310-win_arm64", "")
    assert cibw["windows"]["archs"] == ["native"]
