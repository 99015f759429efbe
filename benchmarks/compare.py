#!/usr/bin/env python
"""Compare ofc_fast with other Python poker evaluators on one set of random hands.

Run from the repository root (ofc_fast installed, peers from ``.[bench]``)::

    python benchmarks/compare.py                       # 1,000,000 hands batch, 100,000 per hand
    python benchmarks/compare.py --n 200000 --n-single 20000 --repeat 3   # quick look

Every implementation is timed in the same run on the same hands (one numpy
array of distinct 5-card hands; 3-card rows are its first three cards).
Batch calls time the whole array; per-hand calls loop over the first
``--n-single`` hands with each library's own card objects built beforehand
(conversion is not timed).  Each figure is the best of ``--repeat`` runs
with ``time.perf_counter`` and the garbage collector off, in ns per hand.

The script is a list of *sections*: a section is a function registered with
``@section(...)`` that takes the shared :class:`Context` and returns
:class:`Row` s.  Later sections (layout evaluation, scoring) are added the
same way and get their own table; ``--only NAME`` runs some of them.
"""
from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

import ofc_fast
from ofc_fast import format_cards, row_strength, strength3, strength5

# ----------------------------------------------------------------------------
# Shared data, timing and reporting
# ----------------------------------------------------------------------------


@dataclass
class Context:
    """What every section gets: options, the generator and the one hand set."""

    args: argparse.Namespace
    rng: np.random.Generator
    hands5: np.ndarray          # (n, 5) uint8, C-contiguous, distinct cards per row
    hands3: np.ndarray          # (n, 3) uint8, the first three cards of each hand
    _cache: dict = field(default_factory=dict)

    @property
    def n_single(self) -> int:
        return min(self.args.n_single, len(self.hands5))

    def single_lists(self) -> list[list[int]]:
        """The first ``n_single`` hands as lists of Python ints (built once)."""
        if "lists" not in self._cache:
            self._cache["lists"] = self.hands5[:self.n_single].tolist()
        return self._cache["lists"]

    def single_text(self) -> list[str]:
        if "text" not in self._cache:
            self._cache["text"] = format_cards(self.hands5[:self.n_single])
        return self._cache["text"]


@dataclass
class Row:
    """One measured implementation."""

    name: str
    ns: float                   # best time per hand (or per item), nanoseconds
    n: int                      # items per timed run
    kind: str = "ours"          # "ours", "peer" (gets a ratio column) or "other"
    peer: str = ""              # short column name for peers ("treys", ...)
    note: str = ""


@dataclass
class Section:
    name: str
    title: str
    run: Callable[[Context], list[Row]]
    unit: str = "hand"


SECTIONS: list[Section] = []


def section(name: str, title: str, unit: str = "hand"):
    """Register a benchmark section; sections run in registration order."""
    def deco(fn: Callable[[Context], list[Row]]):
        SECTIONS.append(Section(name, title, fn, unit))
        return fn
    return deco


def best_time(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` calls of ``fn`` (seconds), GC off, one warm-up."""
    fn()
    gc_was = gc.isenabled()
    gc.disable()
    try:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
    finally:
        if gc_was:
            gc.enable()
    return best


def timed(name: str, fn: Callable[[], object], n: int, repeat: int, **kw) -> Row:
    ns = best_time(fn, repeat) / n * 1e9
    return Row(name, ns, n, **kw)


def random_hands(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` uniform random hands of ``k`` distinct cards, uint8 (n, k).

    Small k: draw with replacement and redraw the rows that repeat a card
    (about 18% of rows for k = 5).  Larger k (layouts, tables): the first k
    of a random permutation of the deck, a chunk of rows at a time.
    """
    if k > 8:
        chunks = []
        for start in range(0, n, 100_000):
            m = min(100_000, n - start)
            chunks.append(np.argsort(rng.random((m, 52)), axis=1)[:, :k].astype(np.uint8))
        return np.concatenate(chunks) if chunks else np.empty((0, k), np.uint8)
    out = rng.integers(0, 52, size=(n, k), dtype=np.uint8)
    while True:
        s = np.sort(out, axis=1)
        bad = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
        if bad.size == 0:
            return out
        out[bad] = rng.integers(0, 52, size=(bad.size, k), dtype=np.uint8)


def per_hand_loop(f: Callable, items: Sequence) -> Callable[[], None]:
    """A timed loop calling ``f(item)`` for each prebuilt item."""
    def run(f=f, items=items):
        for x in items:
            f(x)
    return run


def per_hand_loop_star(f: Callable, items: Sequence) -> Callable[[], None]:
    def run(f=f, items=items):
        for x in items:
            f(*x)
    return run


def print_section(sec: Section, rows: list[Row]) -> None:
    peers = [r for r in rows if r.kind == "peer"]
    unit = sec.unit
    head = ["implementation", f"ns/{unit}", f"{unit}s/s", "n timed"]
    head += [f"x {p.peer}" for p in peers]
    table = []
    for r in rows:
        line = [r.name + (f" [{r.note}]" if r.note else ""),
                f"{r.ns:,.2f}" if r.ns < 10 else f"{r.ns:,.1f}",
                f"{1e9 / r.ns:,.0f}", f"{r.n:,}"]
        for p in peers:
            line.append(f"{p.ns / r.ns:,.1f}" if r.kind == "ours" else "")
        table.append(line)
    widths = [max(len(head[i]), *(len(t[i]) for t in table)) for i in range(len(head))]
    print(f"\n## {sec.title}\n")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 1) + ":" if i else "-" * (w + 2)
                         for i, w in enumerate(widths)) + "|")
    for t in table:
        print("| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                for i, (c, w) in enumerate(zip(t, widths, strict=True))) + " |")
    if peers:
        print(f"\n'x PEER' = PEER's ns/{unit} divided by ours (our speedup).")


# ----------------------------------------------------------------------------
# Section: 5-card and 3-card hand strength
# ----------------------------------------------------------------------------


def _verify_strength(ctx: Context) -> None:
    """Untimed: ofc_fast agrees with phevaluator (and the other peers on a subset)."""
    h = ctx.hands5
    ours = strength5(h).astype(np.int64)
    try:
        from phevaluator import evaluate_cards
    except ImportError:
        print("verify: phevaluator not installed, skipped")
    else:
        ref = np.fromiter((evaluate_cards(*x) for x in h.tolist()), dtype=np.int64,
                          count=len(h))
        bad = np.flatnonzero(ours != 7463 - ref)
        if bad.size:
            i = bad[0]
            raise SystemExit(f"MISMATCH with phevaluator on {bad.size} hands, first: "
                             f"{format_cards(h[i])} ours {ours[i]} phevaluator {ref[i]}")
        print(f"verify: strength5 == 7463 - phevaluator.evaluate_cards on all {len(h):,} hands")
    # The batch kernels against each other and against the per-hand paths.
    m = ctx.n_single
    joint5, joint3 = row_strength(h), row_strength(ctx.hands3)
    size = ofc_fast._eval.JOINT_SIZE
    assert (size[joint5] == 5).all() and (size[joint3] == 3).all(), "joint scale sizes"
    assert _same_order(ours, joint5), "row_strength(5 cards) does not follow strength5"
    assert _same_order(strength3(ctx.hands3), joint3), "row_strength(3) does not follow strength3"
    assert [strength5(x) for x in ctx.single_lists()[:1000]] == ours[:1000].tolist()
    assert [strength5(t) for t in ctx.single_text()[:1000]] == ours[:1000].tolist()
    # Other peers on the per-hand subset: the same order, up to their scales.
    sub = ours[:m]
    checks = []
    try:
        from treys import Card as TCard
        from treys import Evaluator
        ev = Evaluator()
        tcards = _treys_cards(ctx, TCard)
        t = np.array([ev.evaluate(a, b) for a, b in tcards])
        checks.append(("treys (7463 - rank)", np.array_equal(sub, 7463 - t)))
    except ImportError:
        pass
    try:
        import eval7
        e = np.array([eval7.evaluate(c) for c in _eval7_cards(ctx, eval7)], dtype=np.int64)
        checks.append(("eval7 (same order)", _same_order(sub, e)))
    except ImportError:
        pass
    try:
        lookup, pcards = _pokerkit_setup(ctx)
        p = np.array([lookup.get_entry(c).index for c in pcards])
        checks.append(("pokerkit (index + 1)", np.array_equal(sub, p + 1)))
    except ImportError:
        pass
    for name, ok in checks:
        if not ok:
            raise SystemExit(f"MISMATCH with {name} on the first {m:,} hands")
    if checks:
        print(f"verify: agrees with {', '.join(n for n, _ in checks)} on the first {m:,} hands")


def _same_order(a: np.ndarray, b: np.ndarray) -> bool:
    """True if b is a strictly increasing function of a (same ranking, same ties)."""
    pairs = np.unique(np.stack([a, b], axis=1), axis=0)   # sorted by a, then b
    return bool(np.all(np.diff(pairs[:, 0]) > 0) and np.all(np.diff(pairs[:, 1]) > 0))


def _treys_cards(ctx: Context, TCard) -> list[tuple[list[int], list[int]]]:
    """treys card ints as (2 hole cards, 3 board cards), its documented call."""
    if "treys" not in ctx._cache:
        ints = [[TCard.new(c) for c in t.split()] for t in ctx.single_text()]
        ctx._cache["treys"] = [(x[:2], x[2:]) for x in ints]
    return ctx._cache["treys"]


def _eval7_cards(ctx: Context, eval7) -> list[list]:
    if "eval7" not in ctx._cache:
        deck = {s: eval7.Card(s) for s in (r + u for r in ofc_fast.RANKS for u in ofc_fast.SUITS)}
        ctx._cache["eval7"] = [[deck[c] for c in t.split()] for t in ctx.single_text()]
    return ctx._cache["eval7"]


def _pokerkit_setup(ctx: Context):
    from pokerkit import Card, StandardHighHand
    if "pokerkit" not in ctx._cache:
        ctx._cache["pokerkit"] = [tuple(Card.parse(t.replace(" ", "")))
                                  for t in ctx.single_text()]
    return StandardHighHand.lookup, ctx._cache["pokerkit"]


@section("strength", "Hand strength: 5-card (and 3-card) rows")
def bench_strength(ctx: Context) -> list[Row]:
    a = ctx.args
    r = a.repeat
    h5, h3 = ctx.hands5, ctx.hands3
    n = len(h5)
    if not a.no_verify:
        _verify_strength(ctx)
    rows: list[Row] = []
    out = np.empty(n, np.uint16)
    rows.append(timed("ofc_fast strength5 batch", lambda: strength5(h5), n, r))
    rows.append(timed("ofc_fast strength5 batch, out=", lambda: strength5(h5, out=out), n, r))
    wide = np.zeros((n, 8), np.uint8)
    wide[:, :5] = h5
    view = wide[:, :5]                  # same hands, strided (row stride 8)
    rows.append(timed("ofc_fast strength5 batch, strided view", lambda: strength5(view, out=out),
                      n, r))
    rows.append(timed("ofc_fast row_strength batch, 5 cards", lambda: row_strength(h5, out=out),
                      n, r))
    rows.append(timed("ofc_fast row_strength batch, 3 cards", lambda: row_strength(h3, out=out),
                      n, r))
    rows.append(timed("ofc_fast strength3 batch", lambda: strength3(h3, out=out), n, r))

    m = ctx.n_single
    lists = ctx.single_lists()
    text = ctx.single_text()
    rows.append(timed("ofc_fast strength5 per hand, list of ints",
                      per_hand_loop(strength5, lists), m, r))
    rows.append(timed("ofc_fast row_strength per hand, list of 3 ints",
                      per_hand_loop(row_strength, [x[:3] for x in lists]), m, r))
    # Text is parsed once per distinct string and then cached (an LRU cache):
    # a loop over more distinct hands than the cache holds always misses.
    cache_size = ofc_fast.cards.TEXT_CACHE_SIZE
    ofc_fast.cards._TEXT_CACHE.clear()
    rows.append(timed("ofc_fast strength5 per hand, card text", per_hand_loop(strength5, text),
                      m, r, note=f"{m:,} distinct, "
                      f"{'cache misses' if m > cache_size else 'cached'}"))
    few = text[:10_000]
    rows.append(timed("ofc_fast strength5 per hand, card text", per_hand_loop(strength5, few),
                      len(few), r, note="10,000 distinct, cached"))

    # Peers: each with its own card objects prebuilt, not timed.
    try:
        from treys import Card as TCard
        from treys import Evaluator
    except ImportError:
        print("treys not installed, skipped")
    else:
        ev = Evaluator()
        tc = _treys_cards(ctx, TCard)
        rows.append(timed("treys Evaluator.evaluate(hand, board)",
                          per_hand_loop_star(ev.evaluate, tc), m, r, kind="peer", peer="treys"))
    try:
        from phevaluator import evaluate_cards
    except ImportError:
        print("phevaluator not installed, skipped")
    else:
        rows.append(timed("phevaluator evaluate_cards(*ids)",
                          per_hand_loop_star(evaluate_cards, lists), m, r,
                          kind="peer", peer="phevaluator"))
    try:
        import eval7
    except ImportError:
        print("eval7 not installed, skipped")
    else:
        rows.append(timed("eval7 evaluate(cards)",
                          per_hand_loop(eval7.evaluate, _eval7_cards(ctx, eval7)), m, r,
                          kind="peer", peer="eval7"))
    try:
        lookup, pc = _pokerkit_setup(ctx)
    except ImportError:
        print("pokerkit not installed, skipped")
    else:
        # The fastest documented route: the lookup behind StandardHighHand.
        rows.append(timed("pokerkit StandardHighHand.lookup.get_entry",
                          per_hand_loop(lookup.get_entry, pc), m, r,
                          kind="peer", peer="pokerkit"))
        from pokerkit import StandardHighHand
        rows.append(timed("pokerkit StandardHighHand(cards)",
                          per_hand_loop(StandardHighHand, pc), m, r, kind="other",
                          note="hand object"))

    rows.append(timed("Python loop calling len(x) (call floor)", per_hand_loop(len, lists), m, r,
                      kind="other"))
    return rows


# ----------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------


@section("layouts", "Finished layouts: fouls, royalties, fantasyland", unit="layout")
def bench_layouts(ctx: Context) -> list[Row]:
    r = ctx.args.repeat
    rows = []
    for name in ("pineapple", "big-pineapple"):
        v = ofc_fast.variant(name)
        lay = random_hands(ctx.args.n, v.n_cards, ctx.rng)
        rows.append(timed(f"ofc_fast evaluate, {name} ({v.n_cards} cards)",
                          lambda lay=lay, v=v: ofc_fast.evaluate(lay, v), len(lay), r))
    return rows


@section("pairs", "Pairwise scoring, 10,000 layouts", unit="pair")
def bench_pairs(ctx: Context) -> list[Row]:
    r = max(1, ctx.args.repeat // 2)
    v = ofc_fast.variant("pineapple")
    lay = random_hands(10_000, 13, ctx.rng)
    n = len(lay)
    out = np.empty((n, n), np.int32)
    return [
        timed("ofc_fast score_field (row totals, no matrix)",
              lambda: ofc_fast.score_field(lay, v), n * n, r),
        timed("ofc_fast score_matrix int32, out=",
              lambda: ofc_fast.score_matrix(lay, v, out=out), n * n, r),
        timed("ofc_fast score_field, Finnish 2s on (general path)",
              lambda: ofc_fast.score_field(lay[:2000], ofc_fast.variant("pineapple", finnish=True)),
              2000 * 2000, r),
    ]


@section("tables", "Whole tables: every pair at each table", unit="table")
def bench_tables(ctx: Context) -> list[Row]:
    r = ctx.args.repeat
    rows = []
    for players in (2, 3):
        tables = random_hands(ctx.args.n, 13 * players, ctx.rng).reshape(-1, players, 13)
        rows.append(timed(f"ofc_fast score_tables, {players} players, pineapple",
                          lambda t=tables: ofc_fast.score_tables(t, "pineapple"), len(tables), r))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=1_000_000, help="hands for batch calls")
    p.add_argument("--n-single", type=int, default=100_000,
                   help="hands for per-hand calls (ours and peers)")
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--repeat", type=int, default=7, help="best of this many runs")
    p.add_argument("--only", action="append", choices=[s.name for s in SECTIONS],
                   help="run only this section (repeatable)")
    p.add_argument("--no-verify", action="store_true", help="skip the untimed cross-checks")
    p.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = p.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    hands5 = random_hands(args.n, 5, rng)
    ctx = Context(args, rng, hands5, np.ascontiguousarray(hands5[:, :3]))
    versions = {"python": platform.python_version(), "numpy": np.__version__,
                "ofc_fast": ofc_fast.__version__}
    for mod in ("treys", "phevaluator", "eval7", "pokerkit"):
        try:
            from importlib.metadata import version
            versions[mod] = version(mod)
        except Exception:
            pass
    print(f"# ofc_fast benchmark: {args.n:,} hands batch, {ctx.n_single:,} per hand, "
          f"seed {args.seed}, best of {args.repeat}")
    print("# " + ", ".join(f"{k} {v}" for k, v in versions.items())
          + f"; {platform.machine()}, {platform.system()}")
    results = {}
    for sec in SECTIONS:
        if args.only and sec.name not in args.only:
            continue
        rows = sec.run(ctx)
        print_section(sec, rows)
        results[sec.name] = [asdict(r) for r in rows]
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "versions": versions, "sections": results}, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
