"""Dead-hand checks and batch rollouts of partial layouts (Cython kernels).

A *partial layout* is a uint8 row in the usual column order (top, middle,
bottom; four rows for Big Pineapple) with ``EMPTY`` (255) in the free slots.

* :func:`is_dead` decides exactly whether any completion of a partial layout
  with the given unseen cards can be legal (docs/rules.md section 9), and
  :func:`completion` returns such a legal completion;
* :func:`rollout` completes partial layouts many times with random unseen
  cards and returns the finished layouts, per-completion results, or foul,
  royalty and fantasyland rates;
* :func:`rollout_ev` scores random completions against opponents' partial or
  finished layouts, all dealt from one deck.

No Python object is created per completion; the loops run without the GIL.

>>> import ofc_fast as ofc
>>> v = ofc.variant("pineapple")
>>> lay = ofc.parse_layout("Kc Kd __ / Qh Qs 3c 4d __ / __ __ __ __ __", v)
>>> is_dead(lay, variant=v)       # a queen, a three or a four still saves it
False
>>> lay = ofc.parse_layout("Kc Kd Ks / Qh Qs 3c 4d 5h / __ __ __ __ __", v)
>>> is_dead(lay, variant=v)
True
>>> st = rollout("__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __", n=20000, variant=v, seed=1)
>>> 0.5 < float(st.foul_rate[0]) < 1.0
True
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from ofc_fast._rollout import (
    PlayRules,
    cards_mask,
    dead_kernel,
    dead_one,
    play_rules_for,
    rollout_ev_kernel,
    rollout_kernel,
)
from ofc_fast.cards import (
    ALL_CARDS,
    EMPTY,
    card_mask,
    card_masks,
    format_card,
    mask_cards,
    parse_cards,
)
from ofc_fast.deprecation import UNSET, warn_renamed
from ofc_fast.errors import RulesError, shorten
from ofc_fast.layouts import LayoutError, check_layouts, layout_problem
from ofc_fast.rules import Variant, as_variant
from ofc_fast.threads import run_chunks, thread_count

__all__ = ["is_dead", "completion", "rollout", "rollout_ev", "RolloutStats", "RolloutEvals",
           "RolloutEV", "play_rules", "card_mask", "mask_cards", "POLICIES"]

POLICIES = ("random", "best")


MAX_COMPLETIONS = 2**31 - 1
"""Most completions per layout (and ``tries``) one :func:`rollout` /
:func:`rollout_ev` call takes."""
MAX_BONUS = 1_000_000
"""Largest ``|fantasyland_bonus|`` of :func:`rollout` (kept far from int32 overflow)."""
MAX_OUTPUT_BYTES = 2**34
"""Largest ``out="layouts"`` / ``out="evals"`` result :func:`rollout` allocates (16 GiB)."""


def int_arg(value, name: str, lo: int | None = None, hi: int | None = None, *,
             floats: bool = False) -> int:
    """``value`` as an int within ``lo .. hi`` (either may be None).

    TypeError for what is not an integer (bools, text, None; floats unless
    ``floats``, and then only integral ones), ValueError naming ``name`` for
    a value out of range.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if isinstance(value, (int, np.integer)):
        n = int(value)
    elif floats and isinstance(value, (float, np.floating)):
        if not (math.isfinite(value) and float(value).is_integer()):
            raise ValueError(f"{name} must be a whole number, got {value!r}")
        n = int(value)
    else:
        raise TypeError(f"{name} must be an integer, got {shorten(value)}")
    if lo is not None and n < lo:
        raise ValueError(f"{name} must be at least {lo}, got {shorten(n)}")
    if hi is not None and n > hi:
        raise ValueError(f"{name} must be at most {hi:,}, got {shorten(n)}")
    return n


def play_rules(variant) -> PlayRules:
    """The play tables of a variant (cached): its compiled rules
    (``rules.compile_rules`` through ``_layout.rules_for``: rows, foul
    chain, 2-7 validity, scoring) and its deal.

    Raises RulesError for a variant the play kernels cannot hold (a Variant
    forged around its own checks), TypeError for an unhashable one.
    """
    return _play_rules(as_variant(variant))


@functools.lru_cache(maxsize=64)
def _play_rules(v) -> PlayRules:
    n_rows = getattr(v, "n_rows", None)
    if type(n_rows) is not int or n_rows not in (3, 4):    # before anything sizes tables by it
        raise RulesError(f"n_rows must be 3 or 4, got {shorten(n_rows)}")
    try:
        return play_rules_for(v)
    except (ArithmeticError, LookupError, AttributeError) as e:
        # only a Variant built around Variant.__post_init__ gets here
        raise RulesError(f"variant {shorten(getattr(v, 'name', v))} cannot be compiled for play: "
                         f"{type(e).__name__}: {e}") from None


def _layouts(partial, v, name="partial"):
    """(N, n_cards) uint8 layouts and whether the input was a single layout."""
    if isinstance(partial, str):
        single = True
    elif isinstance(partial, (list, tuple)) and partial and isinstance(partial[0], str):
        single = False
    else:
        single = np.asarray(partial).ndim == 1
    return check_layouts(partial, v, name), single


def _per_layout(spec, n) -> bool:
    """Whether a list of card sets gives one set per layout (rather than one
    set of cards written as a list)."""
    if not isinstance(spec, (list, tuple)) or len(spec) != n or n < 2:
        return False
    if any(isinstance(x, (int, np.integer)) for x in spec):
        return False
    if all(isinstance(x, str) for x in spec):
        return any(len(parse_cards(x)) != 1 for x in spec)
    return True


def _pools(arr, v, unseen):
    """Per-layout pool masks: the unseen cards minus the layout's own cards."""
    n = len(arr)
    if unseen is None:
        base = np.full(n, ALL_CARDS, dtype=np.uint64)
    elif isinstance(unseen, np.ndarray) and unseen.dtype == np.uint64 and unseen.ndim == 1 \
            and len(unseen) == n:
        base = unseen & np.uint64(ALL_CARDS)
    elif isinstance(unseen, np.ndarray) and unseen.ndim == 2:
        if len(unseen) != n:
            raise ValueError(f"unseen has {len(unseen)} rows for {n} layouts")
        base = np.array([card_mask(row) for row in unseen], dtype=np.uint64)
    elif _per_layout(unseen, n):
        base = np.array([ALL_CARDS if row is None else card_mask(row) for row in unseen], dtype=np.uint64)
    else:
        base = np.full(n, card_mask(unseen), dtype=np.uint64)
    own = layout_masks(arr)
    return base & ~own


def layout_masks(arr: np.ndarray) -> np.ndarray:
    """Per layout row of ``arr`` (uint8, EMPTY for free slots), the 52-bit mask of its cards."""
    return card_masks(arr)


def _solve(partial, unseen, variant):
    v = as_variant(variant)
    pr = play_rules(v)
    arr, single = _layouts(partial, v)
    pools = _pools(arr, v, unseen)
    n = len(arr)
    dead = np.zeros(n, np.uint8)
    comp = np.empty((n, v.n_cards), np.uint8)
    nodes = np.zeros(n, np.int64)
    bad = dead_kernel(pr, arr, pools, dead, comp, nodes)
    if bad != -1:
        i = bad if bad >= 0 else -2 - bad
        raise LayoutError(_partial_problem(arr[i], v, f"partial[{i}]"))
    return dead.view(bool), comp, nodes, single


def _partial_problem(row, v, label):
    seen = {}
    for pos, c in enumerate(row.tolist()):
        if c == EMPTY:
            continue
        if c > 51:
            return f"{label}: card id {c} at slot {pos} is not a card (0-51) or EMPTY (255)"
        if c in seen:
            return f"{label}: {format_card(c)} appears twice (slots {seen[c]} and {pos})"
        seen[c] = pos
    return layout_problem(row, v, label)


def is_dead(partial, unseen=None, variant="pineapple"):
    """Whether no completion of a partial layout can be legal (exact).

    Parameters
    ----------
    partial : array_like (n_cards,) or (N, n_cards), or layout text
        Card ids with ``EMPTY`` (255) in the free slots (text: ``__``).
    unseen : None, card text, ids, a 52-bit mask, or one of those per layout
        (a list of N card sets, an ``(N, k)`` id array or a uint64 array of N
        masks).  The cards that may still fill the free slots (the cards the
        player has not seen).  ``None``: every card not in the layout.  Cards
        of the layout itself are ignored.
    variant : Variant or str

    Returns
    -------
    bool, or a bool array of shape (N,) for a batch.

    Notes
    -----
    Fouls follow the variant (a 2-7 middle must be a valid low).  A layout
    with fewer unseen cards than free slots cannot be completed and is dead.
    Typical calls take about a microsecond; the search is exact (see
    ``docs/engine.md``).
    """
    if type(partial) is np.ndarray and partial.ndim == 1 and partial.dtype == np.uint8:
        # fast path for one layout: no temporary arrays
        v = variant if type(variant) is Variant else as_variant(variant)
        if unseen is None:
            mask = ALL_CARDS
        elif type(unseen) is np.ndarray and unseen.dtype == np.uint8:
            mask = cards_mask(np.ascontiguousarray(unseen).reshape(-1))
        elif type(unseen) is int:
            mask = unseen if 0 <= unseen <= ALL_CARDS else -1
        else:
            mask = card_mask(unseen)
        if mask >= 0:
            r = dead_one(play_rules(v), np.ascontiguousarray(partial), mask)
            if r >= 0:
                return bool(r)
    dead, _, _, single = _solve(partial, unseen, variant)
    return bool(dead[0]) if single else dead


def completion(partial, unseen=None, variant="pineapple"):
    """A legal completion of a partial layout using only unseen cards, or
    ``None`` when it is dead (for a batch: ``(dead, completions)`` where dead
    rows keep their empty slots)."""
    dead, comp, _, single = _solve(partial, unseen, variant)
    if single:
        return None if dead[0] else comp[0]
    return dead, comp


@dataclass(frozen=True)
class RolloutStats:
    """Rates over ``n`` random completions of each of N partial layouts."""
    n: int
    foul_rate: np.ndarray          # (N,) float64
    royalty_mean: np.ndarray       # (N,) mean royalty total (fouls count 0)
    royalty_std: np.ndarray        # (N,)
    fantasyland_rate: np.ndarray   # (N,) completions earning fantasyland (or a repeat)
    repeat_rate: np.ndarray        # (N,) completions earning a repeat (fantasyland hands)


@dataclass(frozen=True)
class RolloutEvals:
    """Per-completion results, each ``(N, n)``."""
    foul: np.ndarray               # bool
    royalty: np.ndarray            # int16 royalty totals
    fantasyland: np.ndarray        # uint8 cards dealt next hand (0 = none)


@dataclass(frozen=True)
class RolloutEV:
    """Points won against the opponents over ``n`` random deals."""
    n: int
    ev: np.ndarray                 # (N,) mean points per hand
    std_err: np.ndarray            # (N,) standard error of ev
    foul_rate: np.ndarray
    royalty_mean: np.ndarray
    fantasyland_rate: np.ndarray
    opponent_foul_rate: np.ndarray  # (N,) mean over opponents


def seed_sequence(seed) -> np.random.SeedSequence:
    """A SeedSequence from None, an int >= 0, a sequence of them or a
    SeedSequence; TypeError / ValueError naming ``seed`` otherwise."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, (bool, np.bool_, float, np.floating, complex, str, bytes)):
        raise TypeError(f"seed must be None, an integer >= 0, a SeedSequence or a Generator, "
                        f"got {shorten(seed)}")
    try:
        return np.random.SeedSequence(seed)
    except TypeError:
        raise TypeError(f"seed must be None, an integer >= 0, a SeedSequence or a "
                        f"Generator, got {shorten(seed)}") from None
    except ValueError:
        raise ValueError(f"seed must be an integer >= 0 (or a sequence of them), got "
                         f"{shorten(seed)}") from None


def _seed(seed) -> int:
    """A 64-bit kernel seed from None, an int >= 0, a sequence of them, a
    SeedSequence or a Generator."""
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**63, dtype=np.int64)) * 2 + 1
    return int(seed_sequence(seed).generate_state(1, np.uint64)[0])


def _dead_masks(dead_cards, n, name="dead_cards"):
    """One 52-bit mask per layout from cards, a mask, or one per layout."""
    if dead_cards is None:
        return np.zeros(n, np.uint64)
    if isinstance(dead_cards, np.ndarray) and dead_cards.dtype == np.uint64 and dead_cards.ndim == 1:
        if len(dead_cards) != n:
            raise ValueError(f"{name} masks: {len(dead_cards)} for {n} layouts")
        return np.ascontiguousarray(dead_cards) & np.uint64(ALL_CARDS)
    if isinstance(dead_cards, np.ndarray) and dead_cards.ndim == 2:
        if len(dead_cards) != n:
            raise ValueError(f"{name} has {len(dead_cards)} rows for {n} layouts")
        return np.array([card_mask(r) for r in dead_cards], dtype=np.uint64)
    return np.full(n, card_mask(dead_cards), dtype=np.uint64)


def _fl(in_fantasyland, n, name="in_fantasyland"):
    try:
        fl = np.broadcast_to(np.asarray(in_fantasyland if in_fantasyland is not None else 0), (n,))
    except ValueError:
        raise ValueError(f"{name} must be one count or one per layout ({n}), got "
                         f"{shorten(in_fantasyland)}") from None
    if fl.dtype.kind not in "biu" or (fl.dtype.kind != "b" and ((fl < 0) | (fl > 255)).any()):
        raise ValueError(f"{name} must be counts 0 .. 255 (or bools)")
    return np.ascontiguousarray(fl, dtype=np.uint8)


def _dead(arr, v, unseen, dead_cards, fn, table=np.uint64(0)):
    """Masks of the cards that may not be drawn, per layout, from ``unseen``
    (or the deprecated ``dead_cards``); cards on the table never count."""
    N = len(arr)
    if dead_cards is not UNSET:
        warn_renamed(f"{fn}(dead_cards=...)", f"{fn}(unseen=...), its complement", stacklevel=4)
        if unseen is not None:
            raise TypeError(f"{fn}: give unseen or dead_cards, not both")
        dead = _dead_masks(dead_cards, N)
        _check_dead_overlap(arr, dead, v)
        return dead
    if unseen is None:
        return np.zeros(N, np.uint64)
    pool = _dead_masks(unseen, N, "unseen")
    on_table = layout_masks(arr) | np.uint64(table)
    return (~pool & np.uint64(ALL_CARDS)) & ~on_table


def _check_dead_overlap(arr, masks, v, label="partial"):
    own = layout_masks(arr)
    clash = np.flatnonzero(own & masks)
    if clash.size:
        i = int(clash[0])
        c = int(np.uint64(own[i] & masks[i])).bit_length() - 1
        raise LayoutError(f"{label}[{i}]: {format_card(c)} is both in the layout and a dead card")


def _min_chunk(n: int, tries: int) -> int:
    """Layouts per chunk worth a thread: about 50,000 evaluations."""
    return max(1, 50_000 // max(1, n * tries))


def _first_problem(parts: list) -> tuple[int, int]:
    """(first bad layout, first short layout) over chunk results ``(bad, short)``
    (batch indexes, -1 for none), as one pass over the batch would stop at the
    first problem."""
    found = [(b, 0) for b, _ in parts if b >= 0] + [(sh, 1) for _, sh in parts if sh >= 0]
    if not found:
        return -1, -1
    i, kind = min(found)
    return (i, -1) if kind == 0 else (-1, i)


def _shift(lo: int, *found: int) -> tuple[int, ...]:
    """Chunk-relative indexes (-1: none) made batch indexes."""
    return tuple(lo + f if f >= 0 else -1 for f in found)


def rollout(partial, n: int = 1000, variant="pineapple", *, unseen=None, policy: str = "random",
            seed=None, result: str = "stats", in_fantasyland=0, tries: int = 8,
            fantasyland_bonus: int = 0, n_threads: int | None = 1, dead_cards=UNSET, out=UNSET):
    """Complete each partial layout ``n`` times with cards drawn from the unseen ones.

    Parameters
    ----------
    partial : array_like of int, shape (n_cards,) or (N, n_cards), or layout text
        Card ids with ``EMPTY`` (255) in the free slots.
    n : int
        Completions per layout.
    variant : Variant or str
        The rules.
    unseen : cards, a 52-bit mask, or one per layout, optional
        The cards that may be drawn (card text or ids, an int mask, an
        ``(N, k)`` array of ids, or a uint64 array of ``N`` masks), as in
        :func:`is_dead` and :attr:`PlayerView.unseen`.  Default: every card
        not in the layout.  The layout's own cards are never drawn.
    policy : str
        ``"random"``: uniformly random unseen cards into the empty slots (the
        rows are then determined).  ``"best"``: each completion draws its
        cards the same way, then keeps the best of ``tries`` random
        arrangements of them into the empty slots (royalties, plus
        ``fantasyland_bonus`` for a fantasyland entry; a foul is worst) -- a
        cheap model of a player who sees the cards coming.
    seed : int, SeedSequence, Generator or None
        Results are reproducible per (seed, layout index).
    result : str
        ``"stats"`` -> :class:`RolloutStats`; ``"layouts"`` -> ``(N, n,
        n_cards)`` uint8 finished layouts; ``"evals"`` -> :class:`RolloutEvals`.
    in_fantasyland : int or array_like of int
        0, or the fantasyland count of the hand being completed (then
        repeats, not entries, are counted).
    tries : int
        Arrangements tried per completion under ``policy="best"``.
    fantasyland_bonus : int
        What ``policy="best"`` adds for a fantasyland entry.
    n_threads : int or None
        Threads over chunks of layouts (``None``: one per CPU); the kernel
        runs without the GIL and the results do not depend on it (each
        layout draws from its own stream, so one layout is one thread's work).
    dead_cards
        Deprecated (0.1): the complement of ``unseen``.
    out
        Deprecated (0.1): ``result``.

    Returns
    -------
    RolloutStats, RolloutEvals or ndarray of uint8
        As chosen by ``result``.

    Raises
    ------
    LayoutError
        For a bad partial layout, naming it and the card.
    ValueError, TypeError
        For bad counts, seeds, policies, or fewer unseen cards than slots.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> lays = rollout("As Ad __ / __ __ __ __ __ / __ __ __ __ __", n=3, seed=7,
    ...                result="layouts")
    >>> lays.shape
    (1, 3, 13)
    """
    v = as_variant(variant)
    pr = play_rules(v)
    if out is not UNSET:
        warn_renamed("rollout(out=...)", "rollout(result=...)")
        result = out
    out = result
    if not isinstance(policy, str) or policy not in POLICIES:
        raise ValueError(f"unknown rollout policy {shorten(policy)}; valid: {', '.join(POLICIES)}")
    if not isinstance(out, str) or out not in ("stats", "layouts", "evals"):
        raise ValueError(f"result must be 'stats', 'layouts' or 'evals', got {shorten(out)}")
    n = int_arg(n, "n", 1, MAX_COMPLETIONS, floats=True)
    tries = int_arg(tries, "tries", 1, MAX_COMPLETIONS, floats=True)
    bonus = int_arg(fantasyland_bonus, "fantasyland_bonus", -MAX_BONUS, MAX_BONUS, floats=True)
    kseed = _seed(seed)
    arr, _ = _layouts(partial, v)
    N = len(arr)
    if out != "stats" and N * n * (v.n_cards if out == "layouts" else 4) > MAX_OUTPUT_BYTES:
        raise ValueError(f"result={out!r} for {N} layouts x n={n:,} completions needs more "
                         f"than {MAX_OUTPUT_BYTES // 2**30} GiB; use result='stats' or a smaller n")
    dead = _dead(arr, v, unseen, dead_cards, "rollout")
    fl = _fl(in_fantasyland, N)
    stats = np.zeros((N, 5), np.int64)
    d3 = np.zeros((1, 1, 1), np.uint8)
    d2 = np.zeros((1, 1), np.uint8)
    d16 = np.zeros((1, 1), np.int16)
    lays = foul = roy = fan = None
    mode = {"stats": 0, "layouts": 1, "evals": 2}[out]
    if mode == 1:
        lays = np.empty((N, n, v.n_cards), np.uint8)
    elif mode == 2:
        foul = np.empty((N, n), np.uint8)
        roy = np.empty((N, n), np.int16)
        fan = np.empty((N, n), np.uint8)
    tries = tries if policy == "best" else 1
    thread_count(n_threads)

    def run(lo: int, hi: int) -> tuple[int, ...]:
        return _shift(lo, *rollout_kernel(
            pr, arr[lo:hi], dead[lo:hi], fl[lo:hi], n, kseed, mode, stats[lo:hi],
            lays[lo:hi] if lays is not None else d3, foul[lo:hi] if foul is not None else d2,
            roy[lo:hi] if roy is not None else d16, fan[lo:hi] if fan is not None else d2,
            tries, bonus, lo))

    bad, short = _first_problem(run_chunks(run, N, n_threads, min_chunk=_min_chunk(n, tries)))
    if bad >= 0:
        raise LayoutError(_partial_problem(arr[bad], v, f"partial[{bad}]"))
    if short >= 0:
        raise ValueError(f"partial[{short}]: fewer unseen cards than empty slots")
    if mode == 1:
        return lays
    if mode == 2:
        return RolloutEvals(foul=foul.view(bool), royalty=roy, fantasyland=fan)
    mean = stats[:, 1] / n
    var = np.maximum(stats[:, 4] / n - mean * mean, 0.0)
    return RolloutStats(n=n, foul_rate=stats[:, 0] / n, royalty_mean=mean, royalty_std=np.sqrt(var),
                        fantasyland_rate=stats[:, 2] / n, repeat_rate=stats[:, 3] / n)


def rollout_ev(partial, opponents, n: int = 1000, variant="pineapple", *, unseen=None, seed=None,
               in_fantasyland=0, opponents_in_fantasyland=0, n_threads: int | None = 1,
               dead_cards=UNSET) -> RolloutEV:
    """Expected points of partial layouts against opponents, by random deals.

    Each of the ``n`` deals fills the empty slots of the hero layout *and* of
    every opponent layout from one shuffled unseen deck (cards never repeat),
    then scores the hero against each opponent with the variant's scoring
    (sum over opponents, docs/rules.md section 6).

    Parameters
    ----------
    partial : array_like of int, shape (n_cards,) or (N, n_cards), or layout text
        Candidate hero layouts, ``EMPTY`` in the free slots.
    opponents : array_like of int, shape (M, n_cards)
        Partial or finished opponent layouts, 1 <= M <= 3, shared by every
        hero row.
    n : int
        Deals per hero layout.
    variant : Variant or str
        The rules.
    unseen : cards, a 52-bit mask, or one per hero layout, optional
        The cards that may be dealt (as for :func:`rollout`); default every
        card not on the table.  Cards on the table are never dealt.
    seed : int, SeedSequence, Generator or None
        Reproducible per (seed, hero layout index).
    in_fantasyland : int or array_like of int
        Fantasyland counts of the hero rows.
    opponents_in_fantasyland : int or array_like of int
        Fantasyland counts of the opponents.
    n_threads : int or None
        Threads over chunks of hero rows (``None``: one per CPU); results do
        not depend on it.
    dead_cards
        Deprecated (0.1): the complement of ``unseen``.

    Returns
    -------
    RolloutEV
        Per hero row: ``ev`` and its standard error, foul, royalty and
        fantasyland rates.

    Raises
    ------
    LayoutError
        For a bad layout, or a card both in a hero layout and an opponent's.
    ValueError, TypeError
        For bad counts or seeds, or fewer unseen cards than slots.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> r = rollout_ev("Qs Qd __ / __ __ __ __ __ / __ __ __ __ __",
    ...                ["Ks Kd __ / __ __ __ __ __ / __ __ __ __ __"], n=2000, seed=1)
    >>> r.ev.shape, bool(abs(r.ev[0]) < 20)
    ((1,), True)
    """
    v = as_variant(variant)
    pr = play_rules(v)
    n = int_arg(n, "n", 1, MAX_COMPLETIONS, floats=True)
    kseed = _seed(seed)
    arr, _ = _layouts(partial, v)
    opp = check_layouts(opponents, v, "opponents")
    M = len(opp)
    if not 1 <= M <= 3:
        raise ValueError(f"rollout_ev takes 1 to 3 opponent layouts, got {M}")
    N = len(arr)
    om = layout_masks(opp)
    for q in range(M):
        for q2 in range(q):
            if om[q] & om[q2]:
                c = int(np.uint64(om[q] & om[q2])).bit_length() - 1
                raise LayoutError(f"opponents[{q2}] and opponents[{q}] both hold {format_card(c)}")
    allopp = np.bitwise_or.reduce(om)
    dead = _dead(arr, v, unseen, dead_cards, "rollout_ev", table=allopp)
    clash = np.flatnonzero(layout_masks(arr) & allopp)
    if clash.size:
        i = int(clash[0])
        c = int(np.uint64(layout_masks(arr[i:i + 1])[0] & allopp)).bit_length() - 1
        raise LayoutError(f"partial[{i}]: {format_card(c)} is also in an opponent's layout")
    res = np.zeros((N, 6), np.float64)
    fl_hero = _fl(in_fantasyland, N)
    fl_opp = _fl(opponents_in_fantasyland, M, "opponents_in_fantasyland")
    thread_count(n_threads)

    def run(lo: int, hi: int) -> tuple[int, ...]:
        bad, short, badopp = rollout_ev_kernel(pr, arr[lo:hi], opp, dead[lo:hi], fl_hero[lo:hi],
                                               fl_opp, n, kseed, res[lo:hi], lo)
        return _shift(lo, bad, short) + (badopp,)

    parts = run_chunks(run, N, n_threads, min_chunk=_min_chunk(n, 1))
    badopp = next((b for _, _, b in parts if b >= 0), -1)
    bad, short = _first_problem([(b, s) for b, s, _ in parts])
    if badopp >= 0:
        raise LayoutError(_partial_problem(opp[badopp], v, f"opponents[{badopp}]"))
    if bad >= 0:
        raise LayoutError(_partial_problem(arr[bad], v, f"partial[{bad}]"))
    if short >= 0:
        raise ValueError(f"partial[{short}]: fewer unseen cards than empty slots at the table")
    mean = res[:, 0] / n
    var = np.maximum(res[:, 1] / n - mean * mean, 0.0)
    return RolloutEV(n=n, ev=mean, std_err=np.sqrt(var / n), foul_rate=res[:, 2] / n,
                     royalty_mean=res[:, 3] / n, fantasyland_rate=res[:, 4] / n,
                     opponent_foul_rate=res[:, 5] / (n * M))
