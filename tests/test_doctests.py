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
    "ofc_fast.io._text": (), "ofc_fast.io.jsonl": (),
    "ofc_fast.io.csv": (), "ofc_fast.io.arrow": ("pyarrow",),
    "ofc_fast.io.parquet": ("pyarrow",), "ofc_fast.io.frames": ("pyarrow", "pandas"),
    "ofc_fast.io.readers": ("pyarrow",), "ofc_fast.io.writer": ("pyarrow",),
    "ofc_fast.io.pipeline": ("pyarrow",), "ofc_fast.io.inputs": (),
    "ofc_fast.dask": ("pandas",), "ofc_fast.cli": (), "ofc_fast.cli.parser": (),
    "ofc_fast._tabular": (),
    "ofc_fast.io.frame_files": ("pyarrow",),
    "ofc_fast.rl": ("gymnasium",), "ofc_fast.rl.encoding": (), "ofc_fast.rl.gym": ("gymnasium",),
    "ofc_fast.rl.pettingzoo": ("pettingzoo",), "ofc_fast.moves": (), "ofc_fast.rl.policy": (),
    "ofc_fast.rl.evaluate": (), "ofc_fast.sim.spec": (), "ofc_fast.sim.batch": (),
    "ofc_fast.rl.sb3": ("gymnasium", "stable_baselines3"),
}


# docstrings (module.qualname) whose examples need more than their module's
# packages: skipped alone without them, the module's other examples run
NEEDS = {
    "ofc_fast._tabular": ("pandas", "pyarrow"),
    "ofc_fast._tabular.frame_of": ("pandas",),
    "ofc_fast.report.Summary.to_frame": ("pandas",),
    "ofc_fast.report.plot": ("matplotlib",),
    "ofc_fast.report.plot_points": ("matplotlib",),
    "ofc_fast.report.plot_royalties": ("matplotlib",),
    "ofc_fast.report.plot_rates": ("matplotlib",),
    "ofc_fast.report.save_figure": ("matplotlib",),
    "ofc_fast.solver.MoveValues.to_frame": ("pandas",),
    "ofc_fast.io.readers.read_frame": ("pandas", "polars"),
}


def _missing(packages) -> list[str]:
    out = []
    for package in packages:
        try:
            importlib.import_module(package)
        except ImportError:
            out.append(package)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", list(MODULES))
def test_module_doctests(name):
    for package in MODULES[name]:
        pytest.importorskip(package)
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    skipped = []
    for test in doctest.DocTestFinder().find(module, name):
        if _missing(NEEDS.get(test.name, ())):
            skipped.append(test.name)
            continue
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 or skipped, f"no doctests found in {name}"
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
