"""pytest-benchmark suites for layouts and scoring (not collected by a plain ``pytest``)::

    pytest benchmarks/test_bench_scoring.py --benchmark-only

Each records ``ns_per_item`` (layout, pair or table; from the minimum round)
in ``extra_info``.
"""
from __future__ import annotations

import numpy as np
import pytest
from compare import random_hands

import ofc_fast as ofc

N_LAYOUTS = 1_000_000
N_FIELD = 10_000
N_TABLES = 300_000


def _record(benchmark, n: int) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["items"] = n
        benchmark.extra_info["ns_per_item"] = round(stats.stats.min / n * 1e9, 3)


@pytest.fixture(scope="module")
def rng():
    return np.random.default_rng(20240601)


@pytest.mark.benchmark(group="evaluate 1M layouts")
@pytest.mark.parametrize("name", ["pineapple", "pineapple-2-7", "big-pineapple"])
@pytest.mark.parametrize("reuse", [False, True], ids=["fresh", "out="])
def test_evaluate(benchmark, rng, name, reuse):
    v = ofc.variant(name)
    lay = random_hands(N_LAYOUTS, v.n_cards, rng)
    out = ofc.evaluate(lay, v) if reuse else None
    benchmark(ofc.evaluate, lay, v, out=out)
    _record(benchmark, N_LAYOUTS)


@pytest.mark.benchmark(group="pairs of 10,000 layouts")
@pytest.mark.parametrize("kind", ["score_field", "score_matrix"])
def test_pairs(benchmark, rng, kind):
    v = ofc.variant("pineapple")
    lay = random_hands(N_FIELD, 13, rng)
    if kind == "score_field":
        benchmark(ofc.score_field, lay, v)
    else:
        out = np.empty((N_FIELD, N_FIELD), np.int32)
        benchmark(ofc.score_matrix, lay, v, out=out)
    _record(benchmark, N_FIELD * N_FIELD)


@pytest.mark.benchmark(group="tables")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tables(benchmark, rng, players):
    v = ofc.variant("classic")
    tables = random_hands(N_TABLES, 13 * players, rng).reshape(-1, players, 13)
    benchmark(ofc.score_tables, tables, v)
    _record(benchmark, N_TABLES)
