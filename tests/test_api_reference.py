"""The API reference (docs/api/index.rst) is complete: every public name of
ofc_fast, that is every name in ``__all__`` of the package and of the modules
users are pointed to, appears in it (once, under any module that holds the
same object), and every name it lists exists."""
from __future__ import annotations

import importlib
import inspect
import pathlib
import re

import pytest

import ofc_fast

INDEX = pathlib.Path(__file__).resolve().parent.parent / "docs" / "api" / "index.rst"
pytestmark = pytest.mark.skipif(not INDEX.exists(), reason="docs/ is not beside tests/")

# The public namespaces: the package and the modules the docs send users to.
PUBLIC_MODULES = ["ofc_fast", "ofc_fast.errors", "ofc_fast.io", "ofc_fast.records",
                  "ofc_fast.report", "ofc_fast.outputs", "ofc_fast.threads", "ofc_fast.dask",
                  "ofc_fast.cli"]


def documented_names(text: str) -> list[str]:
    """Dotted names of every autosummary and ``data`` entry, under its ``currentmodule``."""
    names, module, in_list = [], "ofc_fast", False
    for line in text.splitlines():
        m = re.match(r"\.\. currentmodule:: (\S+)", line)
        data = re.match(r"\.\. (?:py:)?data:: (\S+)", line)    # a type alias, by hand
        if m:
            module, in_list = m.group(1), False
        elif data:
            names.append(f"{module}.{data.group(1)}")
            in_list = False
        elif line.startswith(".. autosummary::"):
            in_list = True
        elif in_list and line.startswith("   ") and not line.strip().startswith(":"):
            names.append(f"{module}.{line.strip()}")
        elif in_list and line.strip() and not line.startswith("   "):
            in_list = False
    return names


def resolve(dotted: str) -> object:
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


def _is_value(obj: object) -> bool:
    """Data (constants), which identity cannot match across names (small ints)."""
    return not (inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj) or
                callable(obj))


def missing_from_reference(listed: list[str]) -> list[str]:
    objects = {name: resolve(name) for name in listed}
    same_objects = {id(o) for o in objects.values() if not _is_value(o)}
    missing = []
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if f"{module_name}.{name}" in objects:
                continue
            if not _is_value(obj) and id(obj) in same_objects:
                continue                      # a re-export of a documented class or function
            if any(getattr(importlib.import_module(m), name, None) is obj and f"{m}.{name}"
                   in objects for m in PUBLIC_MODULES):
                continue                      # a constant documented where it is re-exported
            missing.append(f"{module_name}.{name}")
    return missing


def test_every_public_name_is_in_the_reference():
    assert missing_from_reference(documented_names(INDEX.read_text(encoding="utf-8"))) == []


def test_every_listed_name_exists_once():
    listed = documented_names(INDEX.read_text(encoding="utf-8"))
    assert len(listed) > 150
    assert sorted({n for n in listed if listed.count(n) > 1}) == []
    for name in listed:
        resolve(name)                        # raises for a stale entry


def test_the_check_sees_a_missing_name():
    listed = documented_names(INDEX.read_text(encoding="utf-8"))
    assert "ofc_fast.io.FORMATS" in listed and "ofc_fast.MAX_ROYALTY" in listed
    fewer = [n for n in listed if n not in ("ofc_fast.io.FORMATS", "ofc_fast.MAX_ROYALTY",
                                            "ofc_fast.OFCError")]
    assert missing_from_reference(fewer) == ["ofc_fast.OFCError", "ofc_fast.MAX_ROYALTY",
                                             "ofc_fast.errors.OFCError", "ofc_fast.io.FORMATS"]
    assert ofc_fast.OFCError.__module__ == "ofc_fast.errors"
