"""Shared test setup: make ``tests/`` importable (``from reference import ...``).

pytest runs with ``--import-mode=importlib``, which does not put the test
directory on ``sys.path``; the reference classifier lives next to the tests.
"""
import pathlib
import sys

TESTS_DIR = str(pathlib.Path(__file__).resolve().parent)
if TESTS_DIR not in sys.path:
    sys.path.insert(0, TESTS_DIR)
