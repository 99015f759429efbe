"""Many threads at once: the batch kernels (themselves split over threads),
``score_file`` and independent ``Game``s, called from 8 Python threads
together, give exactly what one thread gives.

Under the normal GIL this checks that no call keeps hidden shared state; on a
free-threaded interpreter (the cp313t/cp314t wheels, tested in CI with
``PYTHON_GIL=0``) the calls really run in parallel, and every compiled module
of ofc_fast declares that it can run without the GIL (so importing it does not
turn the GIL back on)."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast.report import sample_path

# long (subprocesses, builds or many games): the full run, not the edit-test loop
pytestmark = pytest.mark.slow

N_WORKERS = 8
ROUNDS = 2
FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


def _inputs(i: int) -> dict[str, Any]:
    """Thread ``i``'s own inputs (different in every thread, so a buffer that
    calls share would mix their results)."""
    rng = np.random.default_rng(19 + i)
    decks = np.argsort(rng.random((3000, 52)), axis=1).astype(np.uint8)
    return {
        "hands": decks[:, :5].copy(),
        "layouts": decks[:, :13].copy(),
        "tables": decks[:1000, :39].reshape(1000, 3, 13).copy(),
        "in_fantasyland": ((np.arange(3000) + i) % 3).astype(np.uint8),
        "partial": np.array([[51, 50, 255, 47, 46, 255, 255, 255, 3, 7, 255, 255, 255]],
                            dtype=np.uint8),
    }


def _work(i: int, data: dict[str, Any]) -> dict[str, Any]:
    """One thread's calls.  Every result is kept as returned until all calls
    are made, so that a buffer shared between calls or threads shows."""
    v = ofc.variant("pineapple")
    kept: dict[str, Any] = {}
    kept["strength5"] = ofc.strength5(data["hands"], n_threads=2)
    ev = ofc.evaluate(data["layouts"], v, in_fantasyland=data["in_fantasyland"])
    kept["evaluate"] = (ev.foul, ev.royalties, ev.next_fantasyland, ev.next_in_fantasyland)
    kept["score_tables"] = ofc.score_tables(data["tables"], v)
    stats = ofc.rollout(data["partial"], 300, v, seed=i)
    kept["rollout"] = (stats.foul_rate, stats.royalty_mean)
    run = fio.score_file(sample_path())
    kept["score_file"] = sorted((p.name, p.hands, p.net) for p in run.summary.players())
    games = []
    for seed in range(3 * i, 3 * i + 3):
        g = ofc.Game("pineapple", 3, seed=seed)
        games.append((g.run().points, g.record(id=str(seed))["players"][0]["top"]))
    kept["games"] = games
    return {key: _plain(value) for key, value in kept.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def test_many_threads_at_once_give_what_one_thread_gives():
    data = [_inputs(i) for i in range(N_WORKERS)]
    want = [_work(i, data[i]) for i in range(N_WORKERS)]
    start = threading.Barrier(N_WORKERS)

    def worker(i: int) -> list[dict[str, Any]]:
        start.wait()                         # every thread calls at the same moment
        return [_work(i, data[i]) for _ in range(ROUNDS)]

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)              # with the GIL: switch threads often
    try:
        with ThreadPoolExecutor(N_WORKERS) as pool:
            got = list(pool.map(worker, range(N_WORKERS)))
    finally:
        sys.setswitchinterval(switch)
    for i in range(N_WORKERS):
        for r in range(ROUNDS):
            for key in want[i]:
                assert got[i][r][key] == want[i][key], (i, r, key)


def test_one_game_per_thread_while_others_copy_theirs():
    """Independent games, each advanced by its own thread move by move, with
    copies taken along the way, end as the same games played alone."""
    def play(seed: int) -> tuple[tuple[int, ...], list[int]]:
        g = ofc.Game("pineapple", 2, seed=seed)
        copies = []
        while not g.done:
            g.play(g.legal_moves()[-1])
            copies.append(g.copy())
        return g.result().points, [int(c.layouts.sum()) for c in copies]

    want = [play(s) for s in range(N_WORKERS)]
    with ThreadPoolExecutor(N_WORKERS) as pool:
        got = list(pool.map(play, range(N_WORKERS)))
    assert got == want


@pytest.mark.skipif(not FREE_THREADED, reason="a free-threaded (3.13t/3.14t) interpreter")
def test_compiled_modules_keep_the_gil_off():
    """Importing every compiled module of ofc_fast leaves the GIL disabled: each
    declares ``freethreading_compatible`` (setup.py).  Run without PYTHON_GIL=0,
    which would keep the GIL off whatever the modules declare."""
    code = (
        "import importlib, importlib.machinery, pkgutil, sys, warnings\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    import ofc_fast\n"
        "    names = [m.name for m in pkgutil.iter_modules(ofc_fast.__path__, 'ofc_fast.')]\n"
        "    for name in names:\n"
        "        importlib.import_module(name)\n"
        "compiled = [n for n in names if sys.modules[n].__file__.endswith("
        "tuple(importlib.machinery.EXTENSION_SUFFIXES))]\n"
        "print(len(compiled))\n"
        "for w in seen:\n"
        "    if 'GIL' in str(w.message) and 'ofc_fast' in str(w.message):\n"
        "        print(w.message)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=os.path.dirname(__file__), timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert int(lines[0]) >= 8 and lines[1:] == []
