#!/usr/bin/env python
"""Ctrl-C latency per entry point: how long after SIGINT the call raises
KeyboardInterrupt, while it runs its C loops (one run, this machine).

Run from the repository root (ofc_fast built in place or installed)::

    python benchmarks/bench_interrupts.py            # every entry point
    python benchmarks/bench_interrupts.py --only run-heuristic

Each scenario starts a call that would take far longer than a second, sends
the process SIGINT from a timer thread after ``--after`` seconds, and prints
the time from the signal to the KeyboardInterrupt (goal: under 0.5 s), then
checks that the object the call worked on is still usable.  The scenarios
are importable (``SCENARIOS``): tests/test_interrupts.py runs them too.
"""
from __future__ import annotations

import argparse
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any


def _batch(policies: Any, n: int, P: int = 3, **kw: Any) -> Any:
    from ofc_fast.sim import GameBatch
    return GameBatch("pineapple", n, P, seed=1, policies=policies, **kw)


def _external_step(threads: int) -> tuple[Callable[[], Any], Callable[[], None]]:
    b = _batch(["external", "heuristic", "heuristic"], 400, n_threads=threads)
    obs = b.observe()

    def call() -> None:
        b.step(obs["legal"][:, 0])

    def after() -> None:
        o = b.observe()                 # the games left mid-turn are played on first
        b.step(o["legal"][:, 0])
    return call, after


def _run(policies: Any, threads: int, hands: int = 100_000) -> tuple[Callable[[], Any],
                                                                      Callable[[], None]]:
    b = _batch(policies, 4000 if policies == "random" else 100, n_threads=threads)
    before = b.hands_played.copy()

    def after() -> None:
        played = b.hands_played.copy()
        assert (played >= before).all() and int(b.scores.sum()) == 0
        b.run(1)                        # usable: every game one more hand
        assert (b.hands_played == played + 1).all()
    return (lambda: b.run(hands)), after


def _run_recorded(threads: int) -> tuple[Callable[[], Any], Callable[[], None]]:
    b = _batch("random", 20_000, n_threads=threads)
    return (lambda: b.run_recorded(200)), (lambda: b.run(1))


def _selfplay(threads: int) -> tuple[Callable[[], Any], Callable[[], None]]:
    from ofc_fast.sim import selfplay
    return (lambda: selfplay("pineapple", 5_000_000, ["heuristic", "random"], seed=1,
                             n_games=5000, n_threads=threads)), (lambda: None)


SCENARIOS: dict[str, Callable[[], tuple[Callable[[], Any], Callable[[], None]]]] = {
    "run-random": lambda: _run("random", 1),
    "run-random-2-threads": lambda: _run("random", 2),
    # (bounded: a loop that did not stop would end after some 20 s, and show)
    "run-heuristic": lambda: _run("heuristic", 1, hands=30),
    "run-heuristic-2-threads": lambda: _run("heuristic", 2, hands=30),
    "run-racing": lambda: _run("racing", 1, hands=300),
    "run_recorded": lambda: _run_recorded(1),
    "selfplay": lambda: _selfplay(1),
    "step-heuristic-opponents": lambda: _external_step(1),
    "step-heuristic-opponents-2-threads": lambda: _external_step(2),
}
"""Entry point -> a setup returning (the long call, a check of the object after)."""


def latency(name: str, after: float = 0.3) -> float:
    """Seconds from SIGINT to KeyboardInterrupt in scenario ``name`` (run in
    the main thread of this process); raises if the call was not interrupted."""
    signal.signal(signal.SIGINT, signal.default_int_handler)   # also under a background job
    call, check = SCENARIOS[name]()
    sent: list[float] = []

    def interrupt() -> None:
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)
    timer = threading.Timer(after, interrupt)
    timer.start()
    try:
        call()
    except KeyboardInterrupt:
        done = time.perf_counter()
    else:
        timer.cancel()
        raise AssertionError(f"{name}: the call ended before the signal")
    finally:
        timer.join()
    check()
    return done - sent[0]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=sorted(SCENARIOS), default=None)
    ap.add_argument("--after", type=float, default=0.3, help="seconds before the signal")
    args = ap.parse_args(argv)
    for name in [args.only] if args.only else SCENARIOS:
        t = latency(name, args.after)
        print(f"{name:36s} {t * 1e3:8.1f} ms from SIGINT to KeyboardInterrupt "
              f"(goal < 500 ms: {'ok' if t < 0.5 else 'MISSED'})")


if __name__ == "__main__":
    main()
