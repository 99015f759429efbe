"""pytest-benchmark suites for hand strength.

Run from the repository root (not collected by a plain ``pytest``)::

    pytest benchmarks --benchmark-only
    pytest benchmarks --benchmark-only --benchmark-group-by=group --benchmark-columns=min,median,ops

Batch benchmarks time one call on 1,000,000 hands; per-hand benchmarks time
a Python loop over 10,000 prebuilt hands.  Each records ``ns_per_hand``
(from the minimum round) in ``extra_info``, which ``--benchmark-json`` keeps.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

from ofc_fast import RANKS, SUITS, row_strength, strength3, strength5


def _record(benchmark, n: int) -> None:
    """Store the best time per hand (ns) once the benchmark has run."""
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["hands"] = n
        benchmark.extra_info["ns_per_hand"] = round(stats.stats.min / n * 1e9, 2)


def _loop(f: Callable, items: Sequence, star: bool = False) -> Callable[[], None]:
    if star:
        def run(f=f, items=items):
            for x in items:
                f(*x)
    else:
        def run(f=f, items=items):
            for x in items:
                f(x)
    return run


# -- batches of 1,000,000 hands ------------------------------------------------

BATCH = {
    "strength5": (strength5, "hands5", False),
    "strength5 out=": (strength5, "hands5", True),
    "row_strength 5 cards": (row_strength, "hands5", True),
    "row_strength 3 cards": (row_strength, "hands3", True),
    "strength3": (strength3, "hands3", False),
    "strength3 out=": (strength3, "hands3", True),
}


@pytest.mark.benchmark(group="batch 1M hands")
@pytest.mark.parametrize("case", list(BATCH))
def test_batch(benchmark, request, case: str) -> None:
    fn, data, with_out = BATCH[case]
    hands = request.getfixturevalue(data)
    if with_out:
        out = np.empty(len(hands), np.uint16)
        result = benchmark(fn, hands, out=out)
    else:
        result = benchmark(fn, hands)
    assert result.shape == (len(hands),) and result.dtype == np.uint16
    assert result.min() >= 1
    _record(benchmark, len(hands))


@pytest.mark.benchmark(group="batch 1M hands")
def test_batch_strength5_strided(benchmark, hands5: np.ndarray) -> None:
    """The same hands as a strided view (row stride 8 bytes)."""
    wide = np.zeros((len(hands5), 8), np.uint8)
    wide[:, :5] = hands5
    out = np.empty(len(hands5), np.uint16)
    benchmark(strength5, wide[:, :5], out=out)
    assert np.array_equal(out, strength5(hands5))
    _record(benchmark, len(hands5))


# -- per-hand calls (a Python loop over 10,000 prebuilt hands) ----------------

@pytest.mark.benchmark(group="per hand, 10k-hand loop")
def test_single_strength5_list(benchmark, single_lists) -> None:
    benchmark(_loop(strength5, single_lists))
    _record(benchmark, len(single_lists))


@pytest.mark.benchmark(group="per hand, 10k-hand loop")
def test_single_strength5_text(benchmark, single_text) -> None:
    """Card text; each distinct string is parsed once, then served from a cache."""
    benchmark(_loop(strength5, single_text))
    _record(benchmark, len(single_text))


@pytest.mark.benchmark(group="per hand, 10k-hand loop")
def test_single_strength3_list(benchmark, single_lists) -> None:
    benchmark(_loop(strength3, [x[:3] for x in single_lists]))
    _record(benchmark, len(single_lists))


@pytest.mark.benchmark(group="per hand, 10k-hand loop")
def test_single_row_strength_list(benchmark, single_lists) -> None:
    benchmark(_loop(row_strength, single_lists))
    _record(benchmark, len(single_lists))


# Peers on the same hands, each with its own card objects built beforehand.

@pytest.mark.benchmark(group="per hand, 10k-hand loop")
def test_single_peer_treys(benchmark, single_text) -> None:
    treys = pytest.importorskip("treys")
    ev = treys.Evaluator()
    cards = [[treys.Card.new(c) for c in t.split()] for t in single_text]
    benchmark(_loop(ev.evaluate, [(c[:2], c[2:]) for c in cards], star=True))
    _record(benchmark, len(single_text))


@pytest.mark.benchmark(group="per hand, 10k-hand loop")
def test_single_peer_phevaluator(benchmark, single_lists) -> None:
    phe = pytest.importorskip("phevaluator")
    benchmark(_loop(phe.evaluate_cards, single_lists, star=True))
    _record(benchmark, len(single_lists))


@pytest.mark.benchmark(group="per hand, 10k-hand loop")
def test_single_peer_eval7(benchmark, single_text) -> None:
    eval7 = pytest.importorskip("eval7")
    deck = {r + s: eval7.Card(r + s) for r in RANKS for s in SUITS}
    benchmark(_loop(eval7.evaluate, [[deck[c] for c in t.split()] for t in single_text]))
    _record(benchmark, len(single_text))


@pytest.mark.benchmark(group="per hand, 10k-hand loop")
def test_single_peer_pokerkit(benchmark, single_text) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    cards = [tuple(pokerkit.Card.parse(t.replace(" ", ""))) for t in single_text]
    benchmark(_loop(pokerkit.StandardHighHand.lookup.get_entry, cards))
    _record(benchmark, len(single_text))
