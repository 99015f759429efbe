"""Compile a small Cython module that cimports ofc_fast's C API (its ``.pxd``
files and ``src/`` headers), as another extension would, for the C API
tests (tests/test_hand_capi.py, tests/test_solver_capi.py)."""
from __future__ import annotations

import importlib
import pathlib
import subprocess
import sys
from types import ModuleType

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def capi_marks(pxd: str) -> list[pytest.MarkDecorator]:
    """A C API test module's marks: slow (it compiles), and skipped outside a
    source checkout (no headers, no ``ofc_fast/<pxd>``)."""
    return [pytest.mark.slow,
            pytest.mark.skipif(not (ROOT / "src" / "ofc_cards.h").exists()
                               or not (ROOT / "ofc_fast" / pxd).exists(),
                               reason="needs the source checkout (headers and .pxd files)")]


def build_module(build: pathlib.Path, name: str, code: str) -> ModuleType:
    """Write ``code`` to ``build/name.pyx``, compile it in place against the
    checkout and import it (a test failure when it does not compile; a skip
    without Cython)."""
    pytest.importorskip("Cython", reason="compiling the C API check needs Cython (the test extra)")
    (build / f"{name}.pyx").write_text(code)
    script = (
        "from setuptools import Extension, setup\n"
        "from Cython.Build import cythonize\n"
        f"setup(ext_modules=cythonize([Extension({name!r}, [{name + '.pyx'!r}], "
        f"include_dirs=[{str(ROOT / 'src')!r}])], include_path=[{str(ROOT)!r}], quiet=True),"
        " script_args=['build_ext', '--inplace', '-q'])\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=build, capture_output=True, text=True)
    if done.returncode:
        pytest.fail(f"the C API check did not compile:\n{done.stdout}\n{done.stderr}")
    sys.path.insert(0, str(build))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(build))
