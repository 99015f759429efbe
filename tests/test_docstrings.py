"""Every public function and class of the recorded-hands and engine modules has a
numpydoc docstring as the docs site's check wants (docs/conf.py: functions
document Parameters, Returns, Raises and Examples; classes their parameters
and an Example; methods their parameters), whether or not the API pages
list it yet."""
from __future__ import annotations

import importlib
import inspect

import pytest

numpydoc = pytest.importorskip("numpydoc.docscrape")

MODULES = [
    "ofc_fast.cards", "ofc_fast.records.model", "ofc_fast.records.chunk",
    "ofc_fast.records.builder", "ofc_fast.outputs", "ofc_fast.report", "ofc_fast.io",
    "ofc_fast.io._text", "ofc_fast.io.arrow", "ofc_fast.io.frames", "ofc_fast.io.jsonl",
    "ofc_fast.io.csv", "ofc_fast.io.parquet", "ofc_fast.dask", "ofc_fast.cli",
    "ofc_fast.fantasyland", "ofc_fast.rollouts", "ofc_fast.moves", "ofc_fast.policies",
    "ofc_fast.engine", "ofc_fast.solver",
]


def _documented(doc, section):
    return {name.strip().strip("*") for item in doc[section] for name in item.name.split(",")}


def _parameters(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values()
            if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            and not p.name.startswith("_")]


def problems(obj, what):
    """What docs/conf.py's check would say of ``obj`` (a list, empty if fine)."""
    doc = numpydoc.FunctionDoc(obj if what != "class" else obj.__init__,
                               doc=inspect.getdoc(obj) or "")
    out = []
    known = _documented(doc, "Parameters") | _documented(doc, "Attributes")
    missing = [p for p in _parameters(obj) if p not in known]
    if missing and (what != "class" or obj.__init__ is not object.__init__):
        out.append(f"parameters not documented: {', '.join(missing)}")
    if what in ("function", "class") and not doc["Examples"]:
        out.append("no Examples section")
    if what == "function":
        if not doc["Returns"] and not doc["Yields"]:
            out.append("no Returns section")
        if not doc["Raises"]:
            out.append("no Raises section")
    return out


def public_objects():
    for name in MODULES:
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if attr.startswith("_") or getattr(obj, "__module__", None) != name:
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
