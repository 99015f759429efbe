"""The docstring rule of the API reference, in one place: the docs build
(conf.py) warns with it, and tests/test_docstrings.py applies it to every
public object of the package.

Every public function documents Parameters, Returns (or Yields), Raises and
an Example; every class an Example and its constructor's parameters (a result
class may document its fields as Attributes); every method its parameters.
numpydoc's own validator reads source code, which compiled (Cython)
functions do not have, hence this small check.
"""
from __future__ import annotations

import inspect
from typing import Any

from numpydoc.docscrape import FunctionDoc

SKIP_METHODS = {"count", "index"}          # inherited from tuple (NamedTuple results)


def _documented(doc: FunctionDoc, section: str) -> set[str]:
    return {name.strip().strip("*") for item in doc[section] for name in item.name.split(",")}


def _parameters(obj: Any) -> list[str]:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values()
            if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            and not p.name.startswith("_")]


def problems(obj: Any, what: str) -> list[str]:
    """What is missing from the docstring of ``obj`` (empty if nothing).

    Parameters
    ----------
    obj : object
        A function, class or method.
    what : str
        ``"function"``, ``"class"`` or ``"method"`` (as Sphinx's autodoc says).

    Returns
    -------
    list of str
    """
    doc = FunctionDoc(obj if what != "class" else obj.__init__, doc=inspect.getdoc(obj) or "")
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
