"""The mutation job's table (tools/mutants.py, run by tools/mutate.py) matches
the tree: every anchor occurs exactly once in its file, so that whoever moves
or rewrites code takes its mutants along (CONTRIBUTING.md, "Mutation testing")."""
import functools
import importlib.util
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
if not (ROOT / "tools" / "mutants.py").exists():     # an unpacked sdist: no tools/
    pytest.skip("no tools/mutants.py here", allow_module_level=True)


@functools.cache
def _mutate():
    spec = importlib.util.spec_from_file_location("ofc_mutate", ROOT / "tools" / "mutate.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["ofc_mutate"] = mod      # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_every_anchor_occurs_once():
    mutate = _mutate()
    mutants = mutate.load_mutants(ROOT)
    assert mutate.anchor_problems(mutants, ROOT) == []


def test_the_mutants_cover_every_layer():
    mutants = _mutate().load_mutants(ROOT)
    assert len(mutants) >= 30
    files = [m["file"] for m in mutants]
    layers = {          # any of these files (modules move; keep the layers covered)
        "C headers": ("src/ofc_",), "Cython kernels": (".pyx", ".pxd", ".pxi"),
        "rules": ("ofc_fast/rule", "ofc_fast/variants.py"),
        "engine": ("ofc_fast/engine.py", "ofc_fast/game.py", "ofc_fast/match.py",
                   "ofc_fast/positions.py"),
        "solver": ("ofc_fast/solver.py",), "readers and writers": ("ofc_fast/io/",),
        "records": ("ofc_fast/records/",), "outputs": ("ofc_fast/outputs.py",),
        "CLI": ("ofc_fast/cli/",)}
    for layer, where in layers.items():
        assert any(w in f for f in files for w in where), layer


def test_the_table_checker_finds_what_is_wrong(tmp_path):
    mutate = _mutate()
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("")
    (tmp_path / "a.py").write_text("x = 1\ny = 1\n")
    good = dict(id="a", file="a.py", anchor="x = 1", replace="x = 2", tests=["tests/test_a.py"],
                what="")
    assert mutate.anchor_problems([good], tmp_path) == []
    bad = [dict(good, anchor=" = 1"), dict(good, id="b", anchor="z"),
           dict(good, id="c", file="b.py"), dict(good, id="d", tests=["tests/test_b.py"]),
           dict(good, id="a")]
    got = mutate.anchor_problems(bad, tmp_path)
    assert [p.split(":")[0] for p in got] == ["a", "b", "c", "d", "a"]
    assert "occurs 2 times" in got[0] and "occurs 0 times" in got[1]
    assert "id used twice" in got[4]
