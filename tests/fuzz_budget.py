"""How many examples the property and fuzz tests run.

* The full run (``pytest``, as CI) runs each test's own count (:data:`QUICK`
  for the fuzz tests); the long twins (``pytest -m fuzz``) run :data:`LONG`.
* The edit-test loop (``pytest -m "not slow"``) runs a tenth of each count
  (:func:`examples`).  ``conftest.py`` switches it on through the environment
  variable ``OFC_TEST_FAST_LOOP``, which fuzz children inherit.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

FAST_LOOP = os.environ.get("OFC_TEST_FAST_LOOP") == "1"


def examples(n: int) -> int:
    """``n`` examples in a full run, a tenth (at least 5) in the fast loop."""
    return max(5, n // 10) if FAST_LOOP else n


QUICK = settings(max_examples=examples(60), deadline=None, derandomize=True,
                 suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
