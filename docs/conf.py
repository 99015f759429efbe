"""Sphinx configuration of the ofc_fast documentation site.

Build (warnings are errors, as in CI and on Read the Docs)::

    pip install ".[docs]"
    cd docs && python -m sphinx -W --keep-going -b html . _build/html

Cross-references to Python, numpy, pandas, pyarrow and polars resolve through
intersphinx, which downloads their inventories; on a machine without network
access set ``OFC_DOCS_OFFLINE=1`` to build without those links.
"""
from __future__ import annotations

import os

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
    "sphinx.ext.intersphinx",
    "numpydoc",
    "myst_nb",          # MyST markdown, and the gallery's notebooks (executed)
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
exclude_patterns = ["_build", "api/generated/*.md"]
root_doc = "index"

# Markdown pages (the user guide) keep their GitHub-friendly form.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# The gallery (docs/examples/*.md): MyST markdown notebooks, executed at every
# build (jupyter-cache keeps the outputs until a notebook's code changes).
# An example that raises fails the build, so the examples cannot go stale;
# tests/test_examples.py runs the same cells outside Sphinx.
nb_execution_mode = "cache"
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_execution_timeout = 300           # a cell; the whole gallery takes well under a minute
nb_merge_streams = True

# Links into the documentation of the libraries our API takes and returns.
intersphinx_mapping = {} if os.environ.get("OFC_DOCS_OFFLINE") else {
    "python": ("https://docs.python.org/3", None),
    "numpy": ("https://numpy.org/doc/stable/", None),
    "pandas": ("https://pandas.pydata.org/docs/", None),
    "pyarrow": ("https://arrow.apache.org/docs/", None),
    "polars": ("https://docs.pola.rs/api/python/stable/", None),
}
intersphinx_timeout = 30

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
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from sphinx.application import Sphinx  # noqa: E402
from sphinx.util import logging  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docstring_check import SKIP_METHODS, problems  # noqa: E402

_log = logging.getLogger("ofc_fast.docstrings")
_WARNED: set[str] = set()


def _check_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                     lines: list[str]) -> None:
    short = name.rsplit(".", 1)[-1]
    if what not in ("function", "class", "method") or short in SKIP_METHODS or \
            short.startswith("_"):
        return
    if not (getattr(obj, "__module__", None) or "ofc_fast").startswith("ofc_fast"):
        return   # inherited from gymnasium or pettingzoo: their docstrings, their style
    found = problems(obj, what)
    if found and name not in _WARNED:
        _WARNED.add(name)
        _log.warning(f"docstring of {name}: {'; '.join(found)}", type="ofc_fast",
                     subtype="docstring")


def _drop_type_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                         lines: list[str]) -> None:
    """A constant without a ``#:`` comment would show its type's docstring
    (``int([x]) -> integer ...``): show only its value instead."""
    doc = getattr(type(obj), "__doc__", None)
    if what in ("data", "attribute") and isinstance(doc, str) and "\n".join(lines).strip() == \
            "\n".join(line.strip() for line in doc.strip().splitlines()).strip():
        lines.clear()


def setup(app: Sphinx) -> None:
    app.connect("autodoc-process-docstring", _drop_type_docstring, priority=300)
    app.connect("autodoc-process-docstring", _check_docstring, priority=400)
