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
One concern: the Python face of the completion kernels (their argument
checks, result types and error reports).

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias, TypeGuard, overload

import numpy as np
import numpy.typing as npt

from ofc_fast._args import MAX_POINTS, SeedLike, choice, integer, kernel_seed
from ofc_fast._cards import cards_mask
from ofc_fast._play import PlayRules, play_rules_for
from ofc_fast._rollout import rollout_ev_kernel, rollout_kernel
from ofc_fast._search import dead_kernel, dead_one
from ofc_fast._stop import Stop
from ofc_fast.cards import (
    ALL_CARDS,  # noqa: F401  (ofc_fast.rollouts.ALL_CARDS: 0.3 callers build pools with it)
    EMPTY,
    JOKER,
    MAX_JOKERS,
    card_mask,
    card_masks,
    format_card,
    mask_cards,
    parse_cards,
)
from ofc_fast.deprecation import UNSET, renamed_attribute, warn_renamed
from ofc_fast.errors import ArgumentError, CardError, RulesError, shorten
from ofc_fast.layouts import (
    LayoutError,
    check_layouts,
    fantasyland_counts,
    layout_problem,
)
from ofc_fast.rules import Variant, as_variant
from ofc_fast.threads import run_chunks, thread_count

__all__ = ["is_dead", "completion", "rollout", "rollout_ev", "RolloutStats", "RolloutEvals",
           "RolloutEV", "play_rules", "engine_rules", "card_mask",
           "mask_cards", "COMPLETIONS", "SeedLike", "CardsLike"]

CardsLike: TypeAlias = npt.ArrayLike | Sequence[object] | None
"""A set of cards: card text, card ids, a card mask (int), or one of those
per layout (a list of card sets, an ``(N, k)`` id array, a uint64 array of
masks); None where the argument is optional."""

COMPLETIONS = ("random", "best")
"""The completion models (``completion=`` of :func:`rollout`,
:func:`ofc_fast.move_values` and :class:`ofc_fast.SolverPolicy`): ``"random"``
deals the unseen cards into the empty slots uniformly at random; ``"best"``
keeps the best of ``tries`` random arrangements of the cards each layout is
dealt.  (0.3 called it ``POLICIES``, a deprecated alias now.)"""


def __getattr__(name: str) -> object:
    """The deprecated module names (``POLICIES``), with a warning."""
    if name == "POLICIES":
        warn_renamed("ofc_fast.rollouts.POLICIES", "ofc_fast.rollouts.COMPLETIONS", since="0.4")
        return COMPLETIONS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def completion_model(completion: object, policy: object, fn: str) -> str:
    """The completion model a call asks for, checked: ``completion``, or
    ``policy`` (its deprecated alias, with a warning naming ``fn``) when given.

    Parameters
    ----------
    completion : object
        The ``completion=`` argument.
    policy : object
        The ``policy=`` argument, or ``UNSET``.
    fn : str
        The function or class the user called (for the warning).

    Returns
    -------
    str
        One of :data:`COMPLETIONS`.

    Raises
    ------
    ArgumentError
        An unknown model (TypeError for what is not text).

    Examples
    --------
    >>> completion_model("best", UNSET, "rollout")
    'best'
    """
    if policy is not UNSET:
        warn_renamed(f"{fn}(policy=...)", f"{fn}(completion=...)", since="0.4", stacklevel=4)
        completion = policy
    return choice(completion, "completion", COMPLETIONS, what="completion model")


MAX_COMPLETIONS = 2**31 - 1
"""Most completions per layout (and ``tries``) one :func:`rollout` /
:func:`rollout_ev` call takes."""
MAX_BONUS = MAX_POINTS
"""Largest ``|fantasyland_value|`` of :func:`rollout` (kept far from int32 overflow)."""
MAX_OUTPUT_BYTES = 2**34
"""Largest ``out="layouts"`` / ``out="evals"`` result :func:`rollout` allocates (16 GiB)."""


def play_rules(variant: Variant | str) -> PlayRules:
    """The play tables of a variant (cached), for every play kernel: the hand
    state machine of :class:`~ofc_fast.Game`, :class:`~ofc_fast.Match` and
    ``ofc_fast.sim.GameBatch``, the dead-hand search (:func:`is_dead`,
    :func:`completion`), the rollouts, move values and the policies.

    Its compiled rules (``rules.compile_rules`` through ``_layout.rules_for``:
    rows, foul chain, 2-7 validity, scoring, the jokers' resolution) and its
    deal: the streets and the deck (52 cards and the variant's jokers).

    Parameters
    ----------
    variant : Variant or str
        The rules.

    Returns
    -------
    ofc_fast._play.PlayRules

    Raises
    ------
    RulesError
        For an unknown variant name, or a variant the play kernels cannot
        hold (a Variant forged around its own checks).
    TypeError
        For an unhashable variant.

    Examples
    --------
    >>> from ofc_fast.rule_options import variant
    >>> pr = play_rules("pineapple")
    >>> pr.n_cards, pr.street_total, play_rules("pineapple") is pr
    (13, 17, True)
    >>> play_rules(variant("pineapple", jokers=2)).deck_size
    54
    """
    return _play_rules(as_variant(variant))


engine_rules = play_rules
"""The hand state machine's name for :func:`play_rules` (one set of tables)."""


@functools.lru_cache(maxsize=64)
def _play_rules(v: Variant) -> PlayRules:
    n_rows = getattr(v, "n_rows", None)
    if type(n_rows) is not int or n_rows not in (3, 4):    # before anything sizes tables by it
        raise RulesError(f"n_rows must be 3 or 4, got {shorten(n_rows)}")
    try:
        return play_rules_for(v)
    except (ArithmeticError, LookupError, AttributeError) as e:
        # only a Variant built around Variant.__post_init__ gets here
        raise RulesError(f"variant {shorten(getattr(v, 'name', v))} cannot be compiled for play: "
                         f"{type(e).__name__}: {e}") from None


def _layouts(partial: npt.ArrayLike, v: Variant,
             name: str = "partial") -> tuple[npt.NDArray[np.uint8], bool]:
    """(N, n_cards) uint8 layouts and whether the input was a single layout."""
    if isinstance(partial, str):
        single = True
    elif isinstance(partial, (list, tuple)) and partial and isinstance(partial[0], str):
        single = False
    else:
        single = np.asarray(partial).ndim == 1
    return check_layouts(partial, v, name), single


def _per_layout(spec: object, n: int) -> TypeGuard[list[object] | tuple[object, ...]]:
    """Whether a list of card sets gives one set per layout (rather than one
    set of cards written as a list)."""
    if not isinstance(spec, (list, tuple)) or len(spec) != n or n < 2:
        return False
    if any(isinstance(x, (int, np.integer)) for x in spec):
        return False
    if all(isinstance(x, str) for x in spec):
        return any(len(parse_cards(x)) != 1 for x in spec)
    return True


def _pools(arr: npt.NDArray[np.uint8], v: Variant, unseen: CardsLike) -> npt.NDArray[np.uint64]:
    """Per-layout pool masks: the unseen cards (the variant's jokers
    included) minus the layout's own cards."""
    n = len(arr)
    full = deck_mask(v)
    if unseen is None:
        base = np.full(n, full, dtype=np.uint64)
    elif isinstance(unseen, np.ndarray) and unseen.dtype == np.uint64 and unseen.ndim == 1 \
            and len(unseen) == n:
        base = unseen & np.uint64(full)
    elif isinstance(unseen, np.ndarray) and unseen.ndim >= 2:
        if unseen.ndim > 2 or len(unseen) != n:
            raise ArgumentError(f"unseen as an array of ids must have shape ({n}, k) (one set of "
                                f"cards per layout), got shape {unseen.shape}")
        base = np.array([cards_of(row, v) for row in unseen], dtype=np.uint64)
    elif _per_layout(unseen, n):
        base = np.array([full if row is None else cards_of(row, v) for row in unseen],
                        dtype=np.uint64)
    else:
        base = np.full(n, cards_of(unseen, v), dtype=np.uint64)
    own = layout_masks(arr)
    return base & ~own


def layout_masks(arr: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint64]:
    """Per layout, the card mask of its cards (jokers included: bits 52, 53).

    Parameters
    ----------
    arr : ndarray of uint8, shape (N, n_cards)
        Layouts, ``EMPTY`` in the free slots.

    Returns
    -------
    ndarray of uint64, shape (N,)

    Raises
    ------
    CardError
        For an id that is neither a card nor ``EMPTY``.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> lays = ofc.parse_layouts(["2c 2d __ / __ __ __ __ __ / __ __ __ __ __"])
    >>> [hex(int(m)) for m in layout_masks(lays)]
    ['0x3']
    """
    masks = card_masks(arr)
    for j in range(MAX_JOKERS):
        held = (arr == JOKER + j).any(axis=-1)
        masks |= held.astype(np.uint64) << np.uint64(JOKER + j)
    return masks


def deck_mask(v: Variant) -> int:
    """The mask of the cards ``v`` deals: the 52 naturals and its jokers.

    Examples
    --------
    >>> from ofc_fast.rule_options import variant
    >>> deck_mask(variant("pineapple", jokers=1)) == (1 << 53) - 1
    True
    """
    return (1 << v.deck_size) - 1


def cards_of(cards: object, v: Variant, name: str = "unseen") -> int:
    """The card mask of a set of cards a variant deals: card text, ids, or a
    mask (:func:`ofc_fast.cards.card_mask`), jokers included where ``v``
    deals them.

    Raises
    ------
    CardError
        A card ``v`` does not deal (a joker of a 52-card variant, ``X2`` of a
        one-joker variant), or what is not a card, named as ``name``.
    TypeError
        What is neither text, ids nor a mask.

    Examples
    --------
    >>> from ofc_fast.rule_options import variant
    >>> cards_of("As X1", variant("pineapple", jokers=1)) == (1 << 51) | (1 << 52)
    True
    """
    try:
        return card_mask(cards, v.jokers, f"variant {v.name}")
    except CardError as e:
        raise CardError(f"{name}: {e}") from None


def _solve(partial: npt.ArrayLike, unseen: CardsLike, variant: Variant | str
           ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8], npt.NDArray[np.int64], bool]:
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


def _partial_problem(row: npt.NDArray[np.uint8], v: Variant, label: str) -> str:
    seen: dict[int, int] = {}
    for pos, c in enumerate(row.tolist()):
        if c == EMPTY:
            continue
        if c >= v.deck_size:
            return f"{label}: card id {c} at slot {pos} is not a card of variant {v.name} " \
                   f"(0-{v.deck_size - 1}) or EMPTY (255)"
        if c in seen:
            return f"{label}: {format_card(c)} appears twice (slots {seen[c]} and {pos})"
        seen[c] = pos
    return layout_problem(row, v, label)


_OneLayout: TypeAlias = str | Sequence[int]
_LayoutBatch: TypeAlias = list[str] | tuple[str, ...] | Sequence[Sequence[int]]


@overload
def is_dead(partial: _OneLayout, unseen: CardsLike = None,
            variant: Variant | str = "pineapple") -> bool: ...
@overload
def is_dead(partial: _LayoutBatch, unseen: CardsLike = None,
            variant: Variant | str = "pineapple") -> npt.NDArray[np.bool_]: ...
@overload
def is_dead(partial: npt.ArrayLike, unseen: CardsLike = None,
            variant: Variant | str = "pineapple") -> bool | npt.NDArray[np.bool_]: ...
def is_dead(partial: npt.ArrayLike, unseen: CardsLike = None,
            variant: Variant | str = "pineapple") -> bool | npt.NDArray[np.bool_]:
    """Whether no completion of a partial layout can be legal (exact).

    Parameters
    ----------
    partial : array_like (n_cards,) or (N, n_cards), or layout text
        Card ids with ``EMPTY`` (255) in the free slots (text: ``__``); a
        list of layout texts is a batch.
    unseen : None, card text, ids, a card mask, or one of those per layout
        (a list of N card sets, an ``(N, k)`` id array or a uint64 array of N
        masks).  The cards that may still fill the free slots (the cards the
        player has not seen).  ``None``: every card not in the layout.  Cards
        of the layout itself are ignored.
    variant : Variant or str
        The rules.

    Returns
    -------
    bool or ndarray of bool
        For one layout (text, a list of ids, a 1-D array) a bool; for a batch
        a bool array of shape (N,).

    Raises
    ------
    LayoutError
        For a bad partial layout (a card twice, an id that is not a card),
        naming it, the slot and the card.
    CardError
        For ``unseen`` that is not cards.
    RulesError
        For an unknown variant.
    TypeError, ArgumentError
        For a layout of the wrong type or shape, or ``unseen`` given per
        layout for another number of layouts.
    KeyboardInterrupt
        Ctrl-C (any signal handler that raises) stops a batch's search
        between two layouts, within a few milliseconds: nothing is
        returned, the arguments are unchanged.

    Notes
    -----
    Fouls follow the variant (a 2-7 middle must be a valid low).  A layout
    with fewer unseen cards than free slots cannot be completed and is dead.
    Typical calls take about a microsecond; the search is exact (see
    ``docs/engine.md``).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> is_dead("Kc Kd Ks / Qh Qs 3c 4d 5h / __ __ __ __ __")
    True
    >>> partial = "Kc Kd __ / Qh Qs 3c 4d __ / __ __ __ __ __"
    >>> is_dead([partial, partial], unseen=[None, "2c 2d 2h 2s 5c 6d 7h 8s"])
    array([False,  True])
    """
    if type(partial) is np.ndarray and partial.ndim == 1 and partial.dtype == np.uint8:
        # fast path for one layout: no temporary arrays
        v = as_variant(variant)
        if unseen is None:
            mask = deck_mask(v)
        elif type(unseen) is np.ndarray and unseen.dtype == np.uint8 and unseen.ndim == 1 \
                and not v.jokers:
            mask = cards_mask(np.ascontiguousarray(unseen))
        elif type(unseen) is int:
            mask = unseen if 0 <= unseen <= deck_mask(v) else -1
        elif isinstance(unseen, np.ndarray) and unseen.ndim > 1:
            mask = -1                   # per-layout rows: checked by shape below
        else:
            mask = cards_of(unseen, v)
        if mask >= 0:
            r = dead_one(play_rules(v), np.ascontiguousarray(partial), mask)
            if r >= 0:
                return bool(r)
    dead, _, _, single = _solve(partial, unseen, variant)
    return bool(dead[0]) if single else dead


@overload
def completion(partial: _OneLayout, unseen: CardsLike = None,
               variant: Variant | str = "pineapple") -> npt.NDArray[np.uint8] | None: ...
@overload
def completion(partial: _LayoutBatch, unseen: CardsLike = None, variant: Variant | str = "pineapple"
               ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8]]: ...
@overload
def completion(partial: npt.ArrayLike, unseen: CardsLike = None,
               variant: Variant | str = "pineapple"
               ) -> (npt.NDArray[np.uint8] | None
                     | tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8]]): ...
def completion(partial: npt.ArrayLike, unseen: CardsLike = None,
               variant: Variant | str = "pineapple"
               ) -> (npt.NDArray[np.uint8] | None
                     | tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint8]]):
    """A legal completion of a partial layout using only unseen cards.

    Parameters
    ----------
    partial : array_like (n_cards,) or (N, n_cards), or layout text
        Card ids with ``EMPTY`` (255) in the free slots, as for
        :func:`is_dead`.
    unseen : None, card text, ids, a card mask, or one of those per layout
        The cards that may fill the free slots (``None``: every card not in
        the layout), as for :func:`is_dead`.
    variant : Variant or str
        The rules.

    Returns
    -------
    ndarray of uint8, None, or a tuple of two ndarrays
        For one layout: a legal finished layout of shape ``(n_cards,)``, or
        None when the layout is dead.  For a batch: ``(dead, completions)``,
        a bool array ``(N,)`` and the layouts ``(N, n_cards)``, where the dead
        ones keep their empty slots.

    Raises
    ------
    LayoutError, CardError, RulesError, TypeError, ArgumentError, KeyboardInterrupt
        As :func:`is_dead`.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> lay = completion("Kc Kd __ / Qh Qs 3c 4d __ / __ __ __ __ __",
    ...                  unseen="Qd 3d 2c 2d 2h 2s 7c")
    >>> ofc.format_layout(lay)
    'Kc Kd 2c / Qh Qs 3c 4d 3d / 2d 2h 2s 7c Qd'
    >>> completion("Kc Kd Ks / Qh Qs 3c 4d 5h / __ __ __ __ __") is None
    True
    """
    dead, comp, _, single = _solve(partial, unseen, variant)
    if single:
        return None if dead[0] else comp[0]
    return dead, comp


@dataclass(frozen=True)
class RolloutStats:
    """Rates over ``n`` random completions of each of N partial layouts
    (:func:`rollout` with ``result="stats"``).

    Attributes
    ----------
    n : int
        Completions per layout.
    foul_rate : ndarray of float64, shape (N,)
        Completions that foul.
    royalty_mean : ndarray of float64, shape (N,)
        Mean royalty total (fouls count 0).
    royalty_std : ndarray of float64, shape (N,)
        Standard deviation of the royalty total.
    fantasyland_rate : ndarray of float64, shape (N,)
        Completions earning fantasyland (a repeat, for a fantasyland hand).
    repeat_rate : ndarray of float64, shape (N,)
        Completions earning a repeat (fantasyland hands; 0 otherwise).

    Examples
    --------
    >>> st = rollout("As Ad __ / __ __ __ __ __ / __ __ __ __ __", n=1000, seed=1)
    >>> st.n, st.foul_rate.shape, bool(st.fantasyland_rate[0] > 0)
    (1000, (1,), True)
    """
    n: int
    foul_rate: npt.NDArray[np.float64]
    royalty_mean: npt.NDArray[np.float64]
    royalty_std: npt.NDArray[np.float64]
    fantasyland_rate: npt.NDArray[np.float64]
    repeat_rate: npt.NDArray[np.float64]


@dataclass(frozen=True)
class RolloutEvals:
    """Per-completion results of N partial layouts, each of shape ``(N, n)``
    (:func:`rollout` with ``result="evals"``).

    The names are those of :class:`~ofc_fast.layouts.Evaluation`; the 0.2
    names ``royalty`` and ``fantasyland`` are deprecated aliases.

    Attributes
    ----------
    foul : ndarray of bool
        The completion fouls.
    royalty_total : ndarray of int16
        Its royalty total (0 when fouled).
    next_fantasyland : ndarray of uint8
        Cards dealt in fantasyland next hand (0 = none).

    Examples
    --------
    >>> ev = rollout("As Ad __ / __ __ __ __ __ / __ __ __ __ __", n=50, seed=1,
    ...              result="evals")
    >>> ev.foul.shape, ev.royalty_total.dtype.name, ev.next_fantasyland.dtype.name
    ((1, 50), 'int16', 'uint8')
    """
    foul: npt.NDArray[np.bool_]
    royalty_total: npt.NDArray[np.int16]
    next_fantasyland: npt.NDArray[np.uint8]

    royalty = renamed_attribute("royalty_total", "royalty", since="0.3")
    fantasyland = renamed_attribute("next_fantasyland", "fantasyland", since="0.3")


@dataclass(frozen=True)
class RolloutEV:
    """Points won against the opponents over ``n`` random deals, per hero
    layout (:func:`rollout_ev`).

    Attributes
    ----------
    n : int
        Deals per hero layout.
    ev : ndarray of float64, shape (N,)
        Mean points per hand (summed over the opponents).
    std_err : ndarray of float64, shape (N,)
        Standard error of ``ev``.
    foul_rate : ndarray of float64, shape (N,)
        The hero's fouls.
    royalty_mean : ndarray of float64, shape (N,)
        The hero's mean royalty total.
    fantasyland_rate : ndarray of float64, shape (N,)
        The hero's fantasyland entries (or repeats).
    opponent_foul_rate : ndarray of float64, shape (N,)
        The opponents' fouls, mean over the opponents.

    Examples
    --------
    >>> r = rollout_ev("Qs Qd __ / __ __ __ __ __ / __ __ __ __ __",
    ...                ["Ks Kd __ / __ __ __ __ __ / __ __ __ __ __"], n=500, seed=1)
    >>> r.n, r.ev.shape, bool(r.std_err[0] > 0)
    (500, (1,), True)
    """
    n: int
    ev: npt.NDArray[np.float64]
    std_err: npt.NDArray[np.float64]
    foul_rate: npt.NDArray[np.float64]
    royalty_mean: npt.NDArray[np.float64]
    fantasyland_rate: npt.NDArray[np.float64]
    opponent_foul_rate: npt.NDArray[np.float64]


def _dead_masks(dead_cards: CardsLike, n: int, v: Variant,
                name: str = "dead_cards") -> npt.NDArray[np.uint64]:
    """One card mask per layout from cards, a mask, or one per layout."""
    if dead_cards is None:
        return np.zeros(n, np.uint64)
    if isinstance(dead_cards, np.ndarray) and dead_cards.dtype == np.uint64 \
            and dead_cards.ndim == 1:
        if len(dead_cards) != n:
            raise ArgumentError(f"{name} as masks must have shape ({n},) (one per layout), got "
                                f"shape {dead_cards.shape}")
        masks: npt.NDArray[np.uint64] = np.ascontiguousarray(dead_cards) & np.uint64(deck_mask(v))
        return masks
    if isinstance(dead_cards, np.ndarray) and dead_cards.ndim >= 2:
        if dead_cards.ndim > 2 or len(dead_cards) != n:
            raise ArgumentError(f"{name} as an array of ids must have shape ({n}, k) (one set "
                                f"of cards per layout), got shape {dead_cards.shape}")
        return np.array([cards_of(r, v, name) for r in dead_cards], dtype=np.uint64)
    return np.full(n, cards_of(dead_cards, v, name), dtype=np.uint64)


def _fl(in_fantasyland: npt.ArrayLike | None, n: int, name: str = "in_fantasyland",
        dims: str = "layouts") -> npt.NDArray[np.uint8]:
    fl = fantasyland_counts(in_fantasyland, n, name, dims)
    return fl if fl is not None else np.zeros(n, np.uint8)


def _dead(arr: npt.NDArray[np.uint8], v: Variant, unseen: CardsLike, dead_cards: CardsLike,
          fn: str, table: int | np.uint64 = 0) -> npt.NDArray[np.uint64]:
    """Masks of the cards that may not be drawn, per layout, from ``unseen``
    (or the deprecated ``dead_cards``); cards on the table never count."""
    N = len(arr)
    if dead_cards is not UNSET:
        warn_renamed(f"{fn}(dead_cards=...)", f"{fn}(unseen=...), its complement", stacklevel=4)
        if unseen is not None:
            raise TypeError(f"{fn}: give unseen or dead_cards, not both")
        dead = _dead_masks(dead_cards, N, v)
        _check_dead_overlap(arr, dead, v)
        return dead
    if unseen is None:
        return np.zeros(N, np.uint64)
    pool = _dead_masks(unseen, N, v, "unseen")
    on_table = layout_masks(arr) | np.uint64(table)
    never_drawn: npt.NDArray[np.uint64] = (~pool & np.uint64(deck_mask(v))) & ~on_table
    return never_drawn


def _check_dead_overlap(arr: npt.NDArray[np.uint8], masks: npt.NDArray[np.uint64], v: Variant,
                        label: str = "partial") -> None:
    own = layout_masks(arr)
    clash = np.flatnonzero(own & masks)
    if clash.size:
        i = int(clash[0])
        c = int(np.uint64(own[i] & masks[i])).bit_length() - 1
        raise LayoutError(f"{label}[{i}]: {format_card(c)} is both in the layout and a dead card")


def _min_chunk(n: int, tries: int) -> int:
    """Layouts per chunk worth a thread: about 50,000 evaluations."""
    return max(1, 50_000 // max(1, n * tries))


def _first_problem(parts: Sequence[tuple[int, ...]]) -> tuple[int, int]:
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


@overload
def rollout(partial: npt.ArrayLike, n: int = ..., variant: Variant | str = ..., *,
            unseen: CardsLike = ..., completion: str = ..., seed: SeedLike = ...,
            result: Literal["stats"] = ..., in_fantasyland: npt.ArrayLike = ..., tries: int = ...,
            fantasyland_value: int = ..., n_threads: int | None = ...,
            dead_cards: CardsLike = ..., fantasyland_bonus: int = ..., policy: str = ...
            ) -> RolloutStats: ...
@overload
def rollout(partial: npt.ArrayLike, n: int = ..., variant: Variant | str = ..., *,
            unseen: CardsLike = ..., completion: str = ..., seed: SeedLike = ...,
            result: Literal["layouts"], in_fantasyland: npt.ArrayLike = ..., tries: int = ...,
            fantasyland_value: int = ..., n_threads: int | None = ...,
            dead_cards: CardsLike = ..., fantasyland_bonus: int = ..., policy: str = ...
            ) -> npt.NDArray[np.uint8]: ...
@overload
def rollout(partial: npt.ArrayLike, n: int = ..., variant: Variant | str = ..., *,
            unseen: CardsLike = ..., completion: str = ..., seed: SeedLike = ...,
            result: Literal["evals"], in_fantasyland: npt.ArrayLike = ..., tries: int = ...,
            fantasyland_value: int = ..., n_threads: int | None = ...,
            dead_cards: CardsLike = ..., fantasyland_bonus: int = ..., policy: str = ...
            ) -> RolloutEvals: ...
@overload
def rollout(partial: npt.ArrayLike, n: int = ..., variant: Variant | str = ..., *,
            unseen: CardsLike = ..., completion: str = ..., seed: SeedLike = ...,
            result: str = ..., in_fantasyland: npt.ArrayLike = ..., tries: int = ...,
            fantasyland_value: int = ..., n_threads: int | None = ...,
            dead_cards: CardsLike = ..., out: str = ..., fantasyland_bonus: int = ...,
            policy: str = ...) -> RolloutStats | RolloutEvals | npt.NDArray[np.uint8]: ...
def rollout(partial: npt.ArrayLike, n: int = 1000, variant: Variant | str = "pineapple", *,
            unseen: CardsLike = None, completion: str = "random", seed: SeedLike = None,
            result: str = "stats", in_fantasyland: npt.ArrayLike = 0, tries: int = 8,
            fantasyland_value: int = 0, n_threads: int | None = 1, dead_cards: CardsLike = UNSET,
            out: str = UNSET, fantasyland_bonus: int = UNSET, policy: str = UNSET
            ) -> RolloutStats | RolloutEvals | npt.NDArray[np.uint8]:
    """Complete each partial layout ``n`` times with cards drawn from the unseen ones.

    Parameters
    ----------
    partial : array_like of int, shape (n_cards,) or (N, n_cards), or layout text
        Card ids with ``EMPTY`` (255) in the free slots.
    n : int
        Completions per layout.
    variant : Variant or str
        The rules.
    unseen : cards, a card mask, or one per layout, optional
        The cards that may be drawn (card text or ids, an int mask, an
        ``(N, k)`` array of ids, or a uint64 array of ``N`` masks), as in
        :func:`is_dead` and :attr:`PlayerView.unseen`.  Default: every card
        not in the layout.  The layout's own cards are never drawn.
    completion : str
        The completion model (:data:`COMPLETIONS`).
        ``"random"``: uniformly random unseen cards into the empty slots (the
        rows are then determined).  ``"best"``: each completion draws its
        cards the same way, then keeps the best of ``tries`` random
        arrangements of them into the empty slots (royalties, plus
        ``fantasyland_value`` for a fantasyland entry; a foul is worst) -- a
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
        Arrangements tried per completion under ``completion="best"``.
    fantasyland_value : int
        What ``completion="best"`` adds for a fantasyland entry (points, an
        integer within +-:data:`MAX_BONUS`).
    n_threads : int or None
        Threads over chunks of layouts (``None``: one per CPU); the kernel
        runs without the GIL and the results do not depend on it (each
        layout draws from its own stream, so one layout is one thread's work).
    dead_cards
        Deprecated (0.1): the complement of ``unseen``.
    out
        Deprecated (0.1): ``result``.
    fantasyland_bonus
        Deprecated (0.3): ``fantasyland_value``.
    policy
        Deprecated (0.4): ``completion``.

    Returns
    -------
    RolloutStats, RolloutEvals or ndarray of uint8
        As chosen by ``result``.

    Raises
    ------
    LayoutError
        For a bad partial layout, naming it and the card.
    ArgumentError, TypeError
        For bad counts, seeds, completion models, or fewer unseen cards than slots.
    KeyboardInterrupt
        Ctrl-C (any signal handler that raises) stops every thread of the
        call within a few milliseconds of work (one completion at most):
        nothing is returned, the arguments are unchanged.

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
    if fantasyland_bonus is not UNSET:
        warn_renamed("rollout(fantasyland_bonus=...)", "rollout(fantasyland_value=...)",
                     since="0.3")
        fantasyland_value = fantasyland_bonus
    completion = completion_model(completion, policy, "rollout")
    kind = choice(result, "result", ("stats", "layouts", "evals"))
    n = integer(n, "n", 1, MAX_COMPLETIONS, floats=True)
    tries = integer(tries, "tries", 1, MAX_COMPLETIONS, floats=True)
    bonus = integer(fantasyland_value, "fantasyland_value", -MAX_BONUS, MAX_BONUS, floats=True)
    kseed = kernel_seed(seed)
    arr, _ = _layouts(partial, v)
    N = len(arr)
    if kind != "stats" and N * n * (v.n_cards if kind == "layouts" else 4) > MAX_OUTPUT_BYTES:
        raise ArgumentError(f"result={kind!r} for {N} layouts x n={n:,} completions needs more "
                            f"than {MAX_OUTPUT_BYTES // 2**30} GiB; use result='stats' or a "
                            f"smaller n")
    dead = _dead(arr, v, unseen, dead_cards, "rollout")
    fl = _fl(in_fantasyland, N)
    stats = np.zeros((N, 5), np.int64)
    d3 = np.zeros((1, 1, 1), np.uint8)
    d2 = np.zeros((1, 1), np.uint8)
    d16 = np.zeros((1, 1), np.int16)
    lays: npt.NDArray[np.uint8] | None = None
    evals: tuple[npt.NDArray[np.uint8], npt.NDArray[np.int16], npt.NDArray[np.uint8]] | None = None
    mode = {"stats": 0, "layouts": 1, "evals": 2}[kind]
    if mode == 1:
        lays = np.empty((N, n, v.n_cards), np.uint8)
    elif mode == 2:
        evals = (np.empty((N, n), np.uint8), np.empty((N, n), np.int16),
                 np.empty((N, n), np.uint8))
    tries = tries if completion == "best" else 1
    thread_count(n_threads)
    stop = Stop()

    def run(lo: int, hi: int) -> tuple[int, ...]:
        foul, roy, fan = (evals[0][lo:hi], evals[1][lo:hi], evals[2][lo:hi]) \
            if evals is not None else (d2, d16, d2)
        return _shift(lo, *rollout_kernel(
            pr, arr[lo:hi], dead[lo:hi], fl[lo:hi], n, kseed, mode, stats[lo:hi],
            lays[lo:hi] if lays is not None else d3, foul, roy, fan, tries, bonus, lo, stop))

    bad, short = _first_problem(run_chunks(run, N, n_threads, min_chunk=_min_chunk(n, tries),
                                           stop=stop))
    if bad >= 0:
        raise LayoutError(_partial_problem(arr[bad], v, f"partial[{bad}]"))
    if short >= 0:
        raise ArgumentError(f"partial[{short}]: fewer unseen cards than empty slots")
    if lays is not None:
        return lays
    if evals is not None:
        foul, roy, fan = evals
        return RolloutEvals(foul=foul.view(bool), royalty_total=roy, next_fantasyland=fan)
    mean = stats[:, 1] / n
    var = np.maximum(stats[:, 4] / n - mean * mean, 0.0)
    return RolloutStats(n=n, foul_rate=stats[:, 0] / n, royalty_mean=mean,
                        royalty_std=np.sqrt(var), fantasyland_rate=stats[:, 2] / n,
                        repeat_rate=stats[:, 3] / n)


def rollout_ev(partial: npt.ArrayLike, opponents: npt.ArrayLike, n: int = 1000,
               variant: Variant | str = "pineapple", *, unseen: CardsLike = None,
               seed: SeedLike = None, in_fantasyland: npt.ArrayLike = 0,
               opponents_in_fantasyland: npt.ArrayLike = 0, n_threads: int | None = 1,
               dead_cards: CardsLike = UNSET) -> RolloutEV:
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
    unseen : cards, a card mask, or one per hero layout, optional
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
    ArgumentError, TypeError
        For bad counts or seeds, or fewer unseen cards than slots.
    KeyboardInterrupt
        Ctrl-C stops the call as it stops :func:`rollout`: nothing is
        returned, the arguments are unchanged.

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
    n = integer(n, "n", 1, MAX_COMPLETIONS, floats=True)
    kseed = kernel_seed(seed)
    arr, _ = _layouts(partial, v)
    opp = check_layouts(opponents, v, "opponents")
    M = len(opp)
    if not 1 <= M <= 3:
        raise ArgumentError(f"rollout_ev takes 1 to 3 opponent layouts, got {M}")
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
    fl_opp = _fl(opponents_in_fantasyland, M, "opponents_in_fantasyland", "opponents")
    thread_count(n_threads)
    stop = Stop()

    def run(lo: int, hi: int) -> tuple[int, ...]:
        bad, short, badopp = rollout_ev_kernel(pr, arr[lo:hi], opp, dead[lo:hi], fl_hero[lo:hi],
                                               fl_opp, n, kseed, res[lo:hi], lo, stop)
        return _shift(lo, bad, short) + (badopp,)

    parts = run_chunks(run, N, n_threads, min_chunk=_min_chunk(n, 1), stop=stop)
    badopp = next((b for _, _, b in parts if b >= 0), -1)
    bad, short = _first_problem([(b, s) for b, s, _ in parts])
    if badopp >= 0:
        raise LayoutError(_partial_problem(opp[badopp], v, f"opponents[{badopp}]"))
    if bad >= 0:
        raise LayoutError(_partial_problem(arr[bad], v, f"partial[{bad}]"))
    if short >= 0:
        raise ArgumentError(f"partial[{short}]: fewer unseen cards than empty slots at the table")
    mean = res[:, 0] / n
    var = np.maximum(res[:, 1] / n - mean * mean, 0.0)
    return RolloutEV(n=n, ev=mean, std_err=np.sqrt(var / n), foul_rate=res[:, 2] / n,
                     royalty_mean=res[:, 3] / n, fantasyland_rate=res[:, 4] / n,
                     opponent_foul_rate=res[:, 5] / (n * M))
