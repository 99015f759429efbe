"""Shared test setup: long fuzz runs (``@pytest.mark.fuzz``) run only when
asked for with ``pytest -m fuzz``; every default run keeps a short, bounded
version of each, and the edit-test loop (``-m "not slow"``) runs fewer
examples of each property test (``fuzz_budget.examples``).  (The test helpers
import as top-level modules through pytest's ``pythonpath = ["tests"]`` in
pyproject.toml.)

pyarrow is optional: a test parametrized with the Parquet format (a
parameter ``"parquet"``) is skipped where pyarrow is not installed, and a test
that uses pyarrow itself calls ``pytest.importorskip("pyarrow")``, so that a
platform without it tests the rest."""
import os

import pytest


def pytest_configure(config):
    if "not slow" in (config.getoption("markexpr") or ""):
        os.environ["OFC_TEST_FAST_LOOP"] = "1"     # read by fuzz_budget, here and in children


def pytest_collection_modifyitems(config, items):
    if "fuzz" in (config.getoption("markexpr") or ""):
        return
    keep = [item for item in items if item.get_closest_marker("fuzz") is None]
    if len(keep) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep


def pytest_runtest_setup(item):
    params = getattr(getattr(item, "callspec", None), "params", {})
    if any(isinstance(v, str) and v.split(".")[0] == "parquet" for v in params.values()):
        pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def sample_records():
    """The bundled sample of recorded hands (ofc_fast/data/sample.jsonl), as dicts."""
    import orjson

    from ofc_fast.report import sample_path
    with open(sample_path(), "rb") as f:
        return [orjson.loads(line) for line in f]
