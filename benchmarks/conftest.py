"""Fixtures for the pytest-benchmark suites in this folder.

These are not collected by a plain ``pytest`` (``testpaths = ["tests"]`` in
pyproject.toml); run them with::

    pytest benchmarks --benchmark-only
"""
from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from compare import random_hands  # noqa: E402  (one generator for both harnesses)

N_BATCH = 1_000_000
N_SINGLE = 10_000
SEED = 20240601


def pytest_ignore_collect(collection_path, config):
    """Without pytest-benchmark (pip install ".[bench]") there is nothing to run."""
    if not config.pluginmanager.hasplugin("benchmark") and collection_path.name.startswith("test_"):
        return True
    return None


@pytest.fixture(scope="session")
def hands5() -> np.ndarray:
    """1,000,000 random distinct 5-card hands, shape (N_BATCH, 5), uint8."""
    return random_hands(N_BATCH, 5, np.random.default_rng(SEED))


@pytest.fixture(scope="session")
def hands3(hands5: np.ndarray) -> np.ndarray:
    """The first three cards of each hand, shape (N_BATCH, 3), C-contiguous."""
    return np.ascontiguousarray(hands5[:, :3])


@pytest.fixture(scope="session")
def single_lists(hands5: np.ndarray) -> list[list[int]]:
    """The first N_SINGLE hands as lists of Python ints."""
    return hands5[:N_SINGLE].tolist()


@pytest.fixture(scope="session")
def single_text(hands5: np.ndarray) -> list[str]:
    """The first N_SINGLE hands as card text ("Qh 7d 2c As 9s")."""
    from ofc_fast import format_cards
    return format_cards(hands5[:N_SINGLE])
