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
# Every public function and class documents its parameters, returns and an
# example: a missing section is a warning, and warnings fail the build.
numpydoc_validation_checks = {"PR01", "PR02", "RT01", "EX01"}
numpydoc_validation_exclude = {
    r"\.__\w+__$",                  # dunder methods
    r"\.records$", r"\.n_hands$",   # properties documented by their class
}

html_theme = "pydata_sphinx_theme"
html_title = f"ofc_fast {release}"
html_theme_options = {
    "github_url": "https://github.com/ofc-fast/ofc-fast",
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path = ["_static"]
