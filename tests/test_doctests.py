"""The examples in the docstrings of the installed modules run and pass."""
import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", [
    "ofc_fast.errors", "ofc_fast.cards", "ofc_fast.hands", "ofc_fast._eval", "ofc_fast.rules", "ofc_fast.layouts",
    "ofc_fast.scoring", "ofc_fast.fantasyland", "ofc_fast.engine", "ofc_fast.rollouts",
    "ofc_fast.policies", "ofc_fast.solver", "ofc_fast.threads",
    "ofc_fast.records", "ofc_fast.report",
])
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, verbose=False, report=True,
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"no doctests found in {name}"
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
