"""Sphinx configuration of the ofc_fast documentation site.

Build (warnings are errors, as in CI)::

    pip install ".[docs]"
    python -m sphinx -W --keep-going -b html docs docs/_build/html
"""
from __future__ import annotations

import ofc_fast

project = "ofc_fast"
author = "ofc_fast developers"
copyright = "2026, ofc_fast developers"
release = ofc_fast.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "api/generated/*.md"]
root_doc = "index"

# Markdown pages (the user guide) keep their GitHub-friendly form.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# API reference: one page per public object, from the numpydoc docstrings.
autosummary_generate = True
autodoc_typehints = "none"          # types live in the numpydoc sections
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

html_theme = "pydata_sphinx_theme"
html_title = f"ofc_fast {release}"
html_theme_options = {
    "github_url": "https://github.com/ofc-fast/ofc-fast",
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path = ["_static"]


# ---------------------------------------------------------------- docstring check
# Every public function documents Parameters, Returns, Raises and an Example;
# every class an Example and its constructor's parameters; every method its
# parameters.  A miss is a warning, and CI builds with -W.  (numpydoc's own
# validator reads source code, which compiled Cython functions do not have.)
import inspect  # noqa: E402
from typing import Any  # noqa: E402

from numpydoc.docscrape import FunctionDoc  # noqa: E402
from sphinx.application import Sphinx  # noqa: E402
from sphinx.util import logging  # noqa: E402

_log = logging.getLogger("ofc_fast.docstrings")
_SKIP_METHODS = {"count", "index"}          # inherited from tuple (NamedTuple results)


def _documented(doc: FunctionDoc, section: str) -> set[str]:
    return {name.strip().strip("*") for item in doc[section] for name in item.name.split(",")}


def _parameters(obj: Any) -> list[str]:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values()
            if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _check_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                     lines: list[str]) -> None:
    if what not in ("function", "class", "method") or name.rsplit(".", 1)[-1] in _SKIP_METHODS:
        return
    if name.rsplit(".", 1)[-1].startswith("_"):
        return
    doc = FunctionDoc(obj if what != "class" else obj.__init__, doc=inspect.getdoc(obj) or "")
    problems = []
    params = _parameters(obj)
    # a result class (dataclass, NamedTuple) documents its fields as Attributes
    known = _documented(doc, "Parameters") | _documented(doc, "Attributes")
    missing = [p for p in params if p not in known and not p.startswith("_")]
    if missing and (what != "class" or obj.__init__ is not object.__init__):
        problems.append(f"parameters not documented: {', '.join(missing)}")
    if what in ("function", "class") and not doc["Examples"]:
        problems.append("no Examples section")
    if what == "function":
        if not doc["Returns"] and not doc["Yields"]:
            problems.append("no Returns section")
        if not doc["Raises"]:
            problems.append("no Raises section")
    if problems and name not in _WARNED:
        _WARNED.add(name)
        _log.warning(f"docstring of {name}: {'; '.join(problems)}", type="ofc_fast",
                     subtype="docstring")


_WARNED: set[str] = set()


def setup(app: Sphinx) -> None:
    app.connect("autodoc-process-docstring", _check_docstring, priority=400)
