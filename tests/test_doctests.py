"""The examples in the docstrings of the installed modules run and pass."""
import doctest
import importlib

import pytest

# module -> optional packages its examples need (skipped without them)
MODULES = {
    "ofc_fast.errors": (), "ofc_fast.cards": (), "ofc_fast.hands": (), "ofc_fast._eval": (),
    "ofc_fast.rules": (), "ofc_fast.variants": (), "ofc_fast.deals": (),
    "ofc_fast.rule_options": (), "ofc_fast.rule_tables": (), "ofc_fast._args": (),
    "ofc_fast.layouts": (), "ofc_fast.scoring": (),
    "ofc_fast.fantasyland": (), "ofc_fast.engine": (), "ofc_fast.game": (),
    "ofc_fast.match": (), "ofc_fast.positions": (), "ofc_fast._table": (), "ofc_fast.rollouts": (),
    "ofc_fast.policies": (), "ofc_fast.solver": (), "ofc_fast.sim": (), "ofc_fast.threads": (),
    "ofc_fast.records": (), "ofc_fast.records.model": (), "ofc_fast.records.chunk": (),
    "ofc_fast.records.builder": (), "ofc_fast.report": (), "ofc_fast.outputs": (),
    "ofc_fast.io": ("pyarrow",), "ofc_fast.io._text": (), "ofc_fast.io.jsonl": (),
    "ofc_fast.io.csv": (), "ofc_fast.io.arrow": ("pyarrow",),
    "ofc_fast.io.parquet": ("pyarrow",), "ofc_fast.io.frames": ("pyarrow", "pandas"),
    "ofc_fast.dask": ("pandas",), "ofc_fast.cli": (),
    "ofc_fast.rl": ("gymnasium",), "ofc_fast.rl.encoding": (), "ofc_fast.rl.gym": ("gymnasium",),
    "ofc_fast.rl.pettingzoo": ("pettingzoo",),
}


@pytest.mark.parametrize("name", list(MODULES))
def test_module_doctests(name):
    for package in MODULES[name]:
        pytest.importorskip(package)
    module = importlib.import_module(name)
    result = doctest.testmod(module, verbose=False, report=True,
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"no doctests found in {name}"
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
