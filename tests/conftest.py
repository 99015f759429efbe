"""Shared test setup.

* ``tests/`` is importable (``from reference import ...``): pytest runs with
  ``--import-mode=importlib``, which does not put the test directory on
  ``sys.path``, and the independent reference implementations live here.
* Long fuzz runs (``@pytest.mark.fuzz``) run only when asked for with
  ``pytest -m fuzz``; every default run keeps a short, bounded version.
"""
import pathlib
import sys

TESTS_DIR = str(pathlib.Path(__file__).resolve().parent)
if TESTS_DIR not in sys.path:
    sys.path.insert(0, TESTS_DIR)


def pytest_collection_modifyitems(config, items):
    if "fuzz" in (config.getoption("markexpr") or ""):
        return
    keep = [item for item in items if item.get_closest_marker("fuzz") is None]
    if len(keep) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep
