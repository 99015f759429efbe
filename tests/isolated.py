"""Run test code in a child interpreter, so that a crash fails a test instead
of killing the whole run (fuzz tests drive the C kernels with odd input).

>>> run_isolated("import ofc_fast; print(ofc_fast.strength5('As Ks Qs Js Ts'))").stdout
'7462\\n'
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))


def run_isolated(code: str, *, timeout: float = 120.0, check: bool = True,
                 stdin: bytes | None = None, cwd: str = TESTS_DIR) -> subprocess.CompletedProcess:
    """Run ``code`` in ``python -c`` with this interpreter and environment.

    The child starts in ``tests/`` (so the test helpers import, and the
    source tree, which has no compiled modules when the package is
    installed, does not shadow the installed ``ofc_fast``).  A signal
    (segfault, abort) or, with ``check``, any non-zero exit fails the calling
    test with the child's stderr; the result is returned otherwise.
    """
    env = dict(os.environ)
    env.setdefault("PYTHONFAULTHANDLER", "1")
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], input=stdin,
                          capture_output=True, timeout=timeout, env=env, cwd=cwd)
    out = subprocess.CompletedProcess(proc.args, proc.returncode,
                                      proc.stdout.decode("utf-8", "replace"),
                                      proc.stderr.decode("utf-8", "replace"))
    if proc.returncode < 0:
        pytest.fail(f"child crashed with signal {-proc.returncode}:\n{out.stderr[-4000:]}")
    if check and proc.returncode != 0:
        pytest.fail(f"child exited with {proc.returncode}:\n{out.stderr[-4000:]}")
    return out
