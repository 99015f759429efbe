"""The optional dependencies this platform has, for tests that cover them
where they are installed (pyarrow: Parquet files, Arrow tables, frames) and
test the rest without them.

>>> "jsonl" in FORMATS_HERE
True
"""
from __future__ import annotations

import importlib

from ofc_fast.io import FORMATS


def have(module: str) -> bool:
    """Whether ``module`` imports here."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


HAVE_PYARROW = have("pyarrow")
FORMATS_HERE = tuple(f for f in FORMATS if f != "parquet" or HAVE_PYARROW)
"""The file formats this platform reads and writes (Parquet needs pyarrow)."""
