"""Every public function and class of the package's Python modules has a
numpydoc docstring as the docs site's check wants (docs/docstring_check.py:
functions document Parameters, Returns, Raises and Examples; classes their
parameters and an Example; methods their parameters), whether or not the API
pages list it yet."""
from __future__ import annotations

import importlib
import inspect

import pytest

pytest.importorskip("numpydoc.docscrape")
from docstring_check import problems  # noqa: E402  (docs/, on pytest's pythonpath)

MODULES = [
    "ofc_fast.errors", "ofc_fast.deprecation", "ofc_fast.threads", "ofc_fast.hands",
    "ofc_fast.rules", "ofc_fast.variants", "ofc_fast.deals", "ofc_fast.rule_options",
    "ofc_fast.rule_tables", "ofc_fast.layouts", "ofc_fast.scoring", "ofc_fast.cards",
    "ofc_fast.records.model", "ofc_fast.records.chunk",
    "ofc_fast.records.builder", "ofc_fast.outputs", "ofc_fast.report", "ofc_fast.io",
    "ofc_fast.io._text", "ofc_fast.io.arrow", "ofc_fast.io.frames", "ofc_fast.io.jsonl",
    "ofc_fast.io.csv", "ofc_fast.io.parquet", "ofc_fast.io.frame_files", "ofc_fast.io.tables",
    "ofc_fast.io.inputs", "ofc_fast.io.readers", "ofc_fast.io.writer", "ofc_fast.io.pipeline",
    "ofc_fast._tabular", "ofc_fast.dask", "ofc_fast.cli", "ofc_fast.cli.parser",
    "ofc_fast.fantasyland", "ofc_fast.rollouts", "ofc_fast.moves", "ofc_fast.policies",
    "ofc_fast.engine", "ofc_fast.game", "ofc_fast.match", "ofc_fast.positions", "ofc_fast.solver",
    "ofc_fast.sim", "ofc_fast.rl", "ofc_fast.rl.encoding", "ofc_fast.rl.gym",
    "ofc_fast.rl.pettingzoo", "ofc_fast.rl.policy", "ofc_fast.rl.evaluate", "ofc_fast.rl.sb3",
    "ofc_fast.sim.spec", "ofc_fast.sim.batch", "ofc_fast.sim.actions", "ofc_fast.sim.selfplay",
]


def public_objects():
    for name in MODULES:
        module = importlib.import_module(name)
        public = getattr(module, "__all__", None)   # a module's declared API, else every name
        for attr, obj in vars(module).items():
            if attr.startswith("_") or getattr(obj, "__module__", None) != name or \
                    (public is not None and attr not in public):
                continue
            if inspect.isfunction(obj):
                yield f"{name}.{attr}", obj, "function"
            elif inspect.isclass(obj):
                yield f"{name}.{attr}", obj, "class"
                for m, raw in vars(obj).items():
                    if m.startswith("_"):
                        continue
                    if isinstance(raw, (staticmethod, classmethod)):
                        raw = raw.__func__
                    if inspect.isfunction(raw):
                        yield f"{name}.{attr}.{m}", raw, "method"


def test_public_docstrings():
    found = {name: problems(obj, what) for name, obj, what in public_objects()}
    assert len(found) > 50
    assert {k: v for k, v in found.items() if v} == {}
