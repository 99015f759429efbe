"""Finished layouts: building them from text and evaluating them in batches.

A layout is a uint8 row of card ids: top (3), middle (5), bottom (5) for three
rows, or top, third, second, bottom (3 + 5 + 5 + 5) for Big Pineapple.

>>> import ofc_fast as ofc
>>> v = ofc.variant("pineapple")
>>> lay = ofc.parse_layout("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v)
>>> ev = ofc.evaluate(lay, v)
>>> bool(ev.foul[0]), ev.royalties[0].tolist(), int(ev.next_fantasyland[0])
(False, [7, 12, 10], 14)

With jokers (docs/jokers.md) each is resolved to the card that serves the
board best, and the result says which:

>>> v = ofc.variant("pineapple", jokers=1)
>>> ev = ofc.evaluate("Qs X1 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v)
>>> ofc.format_layout(ev.resolved("Qs X1 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d")[0], v)
'Qs Qh 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d'
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc_fast._args import broadcast
from ofc_fast._layout import evaluate_columns, rules_for
from ofc_fast.cards import (
    EMPTY,
    JOKER,
    MAX_CARD,
    MAX_ID,
    _scan,
    format_card,
    format_resolved,
    is_joker,
    joker_refusal,
    number_jokers,
    parse_card_list,
    parse_card_text,
    refuse_masked,
    split_rows,
    substitute_jokers,
)
from ofc_fast.deprecation import renamed_attribute
from ofc_fast.errors import ArgumentError, CardError, LayoutError, shorten
from ofc_fast.hands import describe_strength
from ofc_fast.rules import Variant, as_variant, compile_rules

__all__ = ["LayoutError", "Evaluation", "parse_layout", "parse_layouts", "layout_from_rows",
           "foul_reason",
           "format_layout", "evaluate", "as_variant", "check_layouts"]

def parse_layout(text: str, variant: Variant | str = "pineapple") -> npt.NDArray[np.uint8]:
    """One layout from text with rows separated by ``/`` or ``|`` (top first).

    Parameters
    ----------
    text : str
        Rows of card text (the grammar of :func:`ofc_fast.parse_card_text`),
        top first; ``__`` marks an empty slot of a partial layout.
    variant : Variant or str
        Decides the number and sizes of the rows.

    Returns
    -------
    ndarray of uint8, shape (n_cards,)

    Raises
    ------
    LayoutError
        For a wrong number of rows or cards in a row, or bad card text.

    Examples
    --------
    >>> parse_layout("Ah Ad 2c / 3c 4c 5c 6c 7c / Ts Js Qs Ks As").shape
    (13,)
    """
    v = as_variant(variant)
    return layout_from_rows(split_rows(text, v.n_rows), v)


def layout_from_rows(rows: Sequence[str | Sequence[int]],
                     variant: Variant | str = "pineapple") -> npt.NDArray[np.uint8]:
    """One layout from a list of rows (text or card ids), top first.

    Parameters
    ----------
    rows : sequence of str or sequence of int
        One entry per row, top first: card text or card ids.
    variant : Variant or str
        Decides the number and sizes of the rows.

    Returns
    -------
    ndarray of uint8, shape (n_cards,)

    Raises
    ------
    LayoutError
        For a wrong number of rows or cards in a row, or a bad card.
    TypeError
        For a row that is neither text nor a sequence of ids.

    Examples
    --------
    >>> layout_from_rows(["Qs Qd 2c", "9h 9d 9c 5s 5d", [20, 21, 22, 23, 1]]).tolist()[-5:]
    [20, 21, 22, 23, 1]
    """
    v = as_variant(variant)
    if len(rows) != v.n_rows:
        raise LayoutError(f"expected {v.n_rows} rows ({', '.join(v.row_names)}), got {len(rows)}")
    out: list[int] = []
    for name, size, row in zip(v.row_names, v.row_sizes, rows, strict=True):
        if not isinstance(row, (str, list, tuple, np.ndarray)):
            raise TypeError(f"a row is card text or a list of card ids, got {type(row).__name__}")
        try:
            ids = _row_ids(row) if isinstance(row, str) else \
                parse_card_list(list(row), allow_empty=True)
        except CardError as e:
            raise LayoutError(f"{name} row: {e}") from None
        if len(ids) != size:
            raise LayoutError(f"{name} row {row!r} has {len(ids)} cards; it needs {size}")
        out.extend(ids)
    try:     # each Xj: the lowest joker the layout does not name otherwise
        out = list(number_jokers(out, " / ".join(map(str, rows))))
    except CardError as e:
        raise LayoutError(str(e)) from None
    for pos, c in enumerate(out):
        if is_joker(c) and c >= JOKER + v.jokers:
            raise LayoutError(f"{_row_of(pos, v)}: "
                              f"{joker_refusal(c, v.jokers, f'variant {v.name}')}")
    return np.array(out, dtype=np.uint8)


def _row_ids(text: str) -> tuple[int, ...]:
    """Card ids of one row's text, each Xj left as NEXT_JOKER: the layout
    numbers them (an Xj in the top and one in the middle are X1 and X2)."""
    if "j" in text or "J" in text:
        return _scan(text, number=False)
    return parse_card_text(text)


def parse_layouts(texts: Sequence[str],
                  variant: Variant | str = "pineapple") -> npt.NDArray[np.uint8]:
    """``(N, n_cards)`` layouts from a list of layout strings.

    Parameters
    ----------
    texts : sequence of str
        Layouts as for :func:`parse_layout`.
    variant : Variant or str
        Decides the number and sizes of the rows.

    Returns
    -------
    ndarray of uint8, shape (N, n_cards)

    Raises
    ------
    LayoutError
        Naming the first bad layout and why.

    Examples
    --------
    >>> parse_layouts(["Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"] * 2).shape
    (2, 13)
    """
    v = as_variant(variant)
    out = np.empty((len(texts), v.n_cards), np.uint8)
    for i, t in enumerate(texts):
        try:
            out[i] = parse_layout(t, v)
        except CardError as e:
            raise LayoutError(f"layout {i}: {e}") from None
    return out


def format_layout(layout: npt.ArrayLike, variant: Variant | str = "pineapple",
                  substitutes: npt.ArrayLike | None = None) -> str:
    """Text of one layout, rows separated by `` / `` (``__`` for EMPTY).

    Parameters
    ----------
    layout : array_like of int, shape (n_cards,)
        Card ids, top row first.
    variant : Variant or str
        Decides the rows.
    substitutes : array_like of int, shape (jokers,), optional
        The natural card each joker stands for (a row of
        ``Evaluation.substitutes``): a joker is shown as ``*`` and that card
        (``*Qd``); without it, as itself (``X1``).

    Returns
    -------
    str

    Raises
    ------
    LayoutError
        For a layout of the wrong size or a bad card id.
    ArgumentError
        For an array of another shape than ``(n_cards,)`` (a batch), or
        substitutes of another shape than ``(jokers,)``.
    CardError
        A substitute that is not a natural card or EMPTY.
    TypeError
        For non-integer ids.

    Examples
    --------
    >>> format_layout(parse_layout("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s __"))
    'Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s __'
    >>> from ofc_fast import variant
    >>> v = variant("pineapple", jokers=1)
    >>> format_layout(parse_layout("Qs X1 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v), v, [42])
    'Qs *Qh 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d'
    """
    v = as_variant(variant)
    lay = np.asarray(layout)
    if lay.dtype.kind not in "iu":
        raise TypeError(f"a layout is integer card ids, got dtype {lay.dtype}")
    if lay.shape != (v.n_cards,):
        if lay.ndim == 1:
            raise LayoutError(f"a {v.name} layout has {v.n_cards} cards, got {lay.size}")
        raise ArgumentError(f"format_layout takes one layout of shape ({v.n_cards},), got shape "
                            f"{lay.shape} (format a batch one row at a time)")
    subs = [EMPTY] * v.jokers
    if substitutes is not None:
        given = np.asarray(substitutes)
        if given.shape != (v.jokers,) or given.dtype.kind not in "iu":
            raise ArgumentError(f"substitutes must be {v.jokers} card ids (one per joker of "
                                f"{v.name}), got {shorten(substitutes)}")
        subs = [int(x) for x in given.tolist()]
    rows, pos = [], 0
    for size in v.row_sizes:
        rows.append(" ".join(
            format_resolved(c, subs[c - JOKER] if is_joker(c) and c - JOKER < len(subs)
                            else EMPTY) for c in lay[pos:pos + size].tolist()))
        pos += size
    return " / ".join(rows)


def _row_of(pos: int, v: Variant) -> str:
    edge = 0
    for name, size in zip(v.row_names, v.row_sizes, strict=True):
        if pos < edge + size:
            return f"{name} row"
        edge += size
    return "?"


def layout_problem(layout: npt.ArrayLike, v: Variant, label: str) -> str:
    """Why one layout is not a finished hand (for error messages)."""
    seen: dict[int, int] = {}
    for pos, c in enumerate(np.asarray(layout).reshape(-1).tolist()):
        where = f"{label}, {_row_of(pos, v)}"
        if c == EMPTY:
            return f"{where}: slot {pos} is empty (255); scoring needs finished layouts"
        if is_joker(c) and c >= JOKER + v.jokers:
            return f"{where}: {joker_refusal(c, v.jokers, f'variant {v.name}', pos)}"
        if c > MAX_ID:
            return f"{where}: card id {c} at slot {pos} is not a card (0-{MAX_CARD}" \
                   + (f", a joker {JOKER}-{JOKER + v.jokers - 1})" if v.jokers else ")")
        if c in seen:
            return (f"{where}: {format_card(c)} appears twice "
                    f"(also in the {_row_of(seen[c], v)})")
        seen[c] = pos
    return f"{label}: invalid layout"


def check_layouts(layouts: Any, v: Variant, name: str = "layouts") -> npt.NDArray[np.uint8]:
    """Layouts as a C-contiguous ``(N, n_cards)`` uint8 array, container,
    dtype, shape and id range checked (the cards themselves are checked by
    the kernels).

    Parameters
    ----------
    layouts : array_like of int, or layout text, or a list of layout texts
        One layout or a batch.
    v : Variant
        Decides ``n_cards``.
    name : str
        What the caller calls them, for messages.

    Returns
    -------
    ndarray of uint8, shape (N, n_cards)

    Raises
    ------
    TypeError
        For a non-integer dtype.
    ArgumentError
        For a wrong shape.
    LayoutError
        For ids outside 0-255, bad layout text, or masked entries.

    Examples
    --------
    >>> check_layouts("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d",
    ...               as_variant("pineapple")).shape
    (1, 13)
    """
    if isinstance(layouts, str):
        layouts = parse_layout(layouts, v)
    elif isinstance(layouts, (list, tuple)) and layouts and isinstance(layouts[0], str):
        layouts = parse_layouts(layouts, v)
    refuse_masked(layouts, name)
    arr = np.asarray(layouts)
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        raise TypeError(f"{name} must be integer card ids, got dtype {arr.dtype}")
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != v.n_cards:
        raise ArgumentError(f"{name} must have shape (N, {v.n_cards}) for {v.name} "
                            f"({' + '.join(map(str, v.row_sizes))} cards), got {arr.shape}")
    if arr.dtype != np.uint8:
        bad = (arr < 0) | (arr > 255)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise LayoutError(f"{name}[{i}], {_row_of(j, v)}: card id {arr[i, j]} at slot {j} "
                              f"is not a card (0-{MAX_CARD})")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def fantasyland_counts(in_fantasyland: Any, shape: int | tuple[int, ...],
                       name: str = "in_fantasyland",
                       dims: str = "layouts") -> npt.NDArray[np.uint8] | None:
    """Fantasyland counts broadcast to ``shape`` as C-contiguous uint8, or
    None when ``in_fantasyland`` is None (nobody in fantasyland).

    Parameters
    ----------
    in_fantasyland : None, bool or int array_like
        0 for a normal hand, k for the k-th fantasyland hand in a row (True
        is 1); one value, or any shape that broadcasts to ``shape``.
    shape : int or tuple of int
        The documented shape (an int n is ``(n,)``).
    name : str
        The argument's name, for messages.
    dims : str
        What the axes of ``shape`` are, for messages.

    Returns
    -------
    ndarray of uint8 or None

    Raises
    ------
    TypeError
        For values that are not bools or integers.
    ArgumentError
        For counts outside 0 .. 255, or a shape that does not broadcast.

    Examples
    --------
    >>> fantasyland_counts([True, 0], (3, 2), dims="tables, players").tolist()
    [[1, 0], [1, 0], [1, 0]]
    >>> fantasyland_counts([1, 300], 2)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: in_fantasyland must be counts 0 .. 255 (or bools), got 300
    """
    if in_fantasyland is None:
        return None
    fl = np.asarray(in_fantasyland)
    if fl.dtype.kind not in "biu":
        ints = fl.dtype == object and all(
            isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))
            for x in fl.reshape(-1).tolist())
        if not ints:
            raise TypeError(f"{name} must be bool or integer counts, got dtype {fl.dtype}: "
                            f"{shorten(in_fantasyland)}")
        bad = [x for x in fl.reshape(-1).tolist() if not 0 <= x <= 255]
        if bad:
            raise ArgumentError(f"{name} must be counts 0 .. 255 (or bools), got {shorten(bad[0])}")
        fl = fl.astype(np.int64)
    if fl.dtype.kind != "b" and fl.dtype != np.uint8 and fl.size \
            and (fl.min() < 0 or fl.max() > 255):
        worst = fl.min() if fl.min() < 0 else fl.max()
        raise ArgumentError(f"{name} must be counts 0 .. 255 (or bools), got {int(worst)}")
    want = (shape,) if isinstance(shape, int) else shape
    if fl.shape != want:
        fl = broadcast(fl, want, name, dims)
    return np.ascontiguousarray(fl, dtype=np.uint8)


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` finds for N layouts.

    Attributes
    ----------
    variant : Variant
        The rules they were evaluated under.
    strengths : (N, rows) uint16
        Row strengths on the joint scale (``ofc_fast.describe_strength`` names them).
    foul : (N,) bool
    royalties : (N, rows) int16
        Per-row royalties; zero for fouled hands.
    royalty_total : (N,) int32
    next_fantasyland : (N,) uint8
        Cards dealt next hand in fantasyland (0 = none), entry or repeat.
    repeat : (N,) bool
        A hand played in fantasyland earned a repeat.
    next_in_fantasyland : (N,) uint8
        The fantasyland count to pass for the next hand (0, or one more than
        this hand's count, at most 255, 1 for a fresh entry).
    substitutes : (N, jokers) uint8
        The natural card each joker (``X1``, ``X2``) stands for once the
        board is resolved (docs/jokers.md); 255 where the layout has no such
        joker.  No columns for a variant without jokers.

    Examples
    --------
    >>> ev = evaluate("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", "pineapple")
    >>> len(ev), ev.royalty_total.tolist(), ev.next_in_fantasyland.tolist()
    (1, [29], [1])
    >>> from ofc_fast import format_cards, variant
    >>> ev = evaluate("Qs X1 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", variant("pineapple", jokers=1))
    >>> format_cards(ev.substitutes[0]), ev.royalty_total.tolist()
    ('Qh', [29])
    """
    variant: Variant
    strengths: np.ndarray
    foul: np.ndarray
    royalties: np.ndarray
    royalty_total: np.ndarray
    next_fantasyland: np.ndarray
    repeat: np.ndarray
    next_in_fantasyland: np.ndarray
    substitutes: np.ndarray
    _columns: dict[str, Any]

    fantasyland = renamed_attribute("next_fantasyland", "fantasyland")

    def __len__(self) -> int:
        return len(self.foul)

    def resolved(self, layouts: Any) -> np.ndarray:
        """The evaluated layouts with each joker replaced by the card it stands for.

        Parameters
        ----------
        layouts : array_like or layout text
            The layouts given to :func:`evaluate` (as it took them).

        Returns
        -------
        ndarray of uint8, shape (N, n_cards)

        Raises
        ------
        ArgumentError
            Layouts of another number or shape than those evaluated.

        Examples
        --------
        >>> from ofc_fast import variant
        >>> v = variant("pineapple", jokers=2)
        >>> lay = "X1 X2 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"
        >>> format_layout(evaluate(lay, v).resolved(lay)[0], v)      # trips beat aces
        '2s 2h 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d'
        """
        arr = check_layouts(layouts, self.variant)
        if len(arr) != len(self):
            raise ArgumentError(f"{len(arr)} layouts given for an evaluation of {len(self)}")
        return substitute_jokers(arr, self.substitutes)


def evaluate_columns_checked(arr: np.ndarray, v: Variant, fl: np.ndarray | None, name: str,
                             for_scoring: bool = True, reuse: dict[str, Any] | None = None,
                             n_threads: int | None = 1) -> dict[str, Any]:
    """The kernel's columns of validated-shape layouts, or a LayoutError naming
    the first bad layout (shared by :func:`evaluate` and the scoring module)."""
    cols, bad = evaluate_columns(rules_for(v), arr, fl, for_scoring, reuse, n_threads)
    if bad >= 0:
        raise LayoutError(layout_problem(arr[bad], v, f"{name}[{bad}]"))
    return cols


def evaluate(layouts: Any, variant: Variant | str = "pineapple", in_fantasyland: Any = None, *,
             out: Evaluation | None = None, n_threads: int | None = 1) -> Evaluation:
    """Fouls, royalties and fantasyland of finished layouts, in one pass.

    Parameters
    ----------
    layouts : array_like, shape (N, 13) or (N, 18); or layout text
    variant : Variant or str
    in_fantasyland : None, bool or int array of shape (N,)
        0 for a normal hand; k for the k-th fantasyland hand in a row (True =
        1).  Hands played in fantasyland earn a repeat (per the variant's rule
        and limit) instead of an entry.
    out : Evaluation, optional
        An earlier result for as many layouts with as many rows, whose arrays
        are filled again and returned (saves allocating and first-touching
        fresh memory, about half the time of a large batch).
    n_threads : int or None
        Threads that split the batch into contiguous chunks of layouts,
        without the GIL: 1 (the default) runs in this thread, ``None`` uses
        every CPU.  A batch is split only into chunks of at least 16,384
        layouts.  The result, and the layout an error names, do not depend
        on it.

    Returns
    -------
    Evaluation
        Per-row strengths and royalties, fouls, royalty totals and the
        fantasyland cards of the next hand; ``out`` itself when given.

    Raises
    ------
    LayoutError
        Naming the layout, row and card of the first bad layout.
    TypeError, ArgumentError
        For a wrong dtype or shape of ``layouts``, ``in_fantasyland`` or
        ``out``, or an ``n_threads`` that is not 1 .. 256 or None.

    Examples
    --------
    >>> ev = evaluate(["Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d",
    ...                "Ks Kd Kc / 2h 3h 4h 5h 7d / Tc Td Ts Th 8d"], "pineapple")
    >>> ev.foul.tolist(), ev.next_fantasyland.tolist()
    ([False, True], [14, 0])
    """
    v = as_variant(variant)
    arr = check_layouts(layouts, v)
    fl = fantasyland_counts(in_fantasyland, len(arr))
    reuse = None
    if out is not None:
        if not isinstance(out, Evaluation):
            raise TypeError(f"out must be an Evaluation, got {type(out).__name__}")
        if out.strengths.shape != (len(arr), v.n_rows):
            raise ArgumentError(f"out holds {out.strengths.shape[0]} layouts of "
                                f"{out.strengths.shape[1]} rows; these are {len(arr)} of "
                                f"{v.n_rows}")
        if out.substitutes.shape[1] != v.jokers:
            raise ArgumentError(f"out was made for {out.substitutes.shape[1]} jokers; "
                                f"{v.name} has {v.jokers}")
        reuse = out._columns
        # Inputs that share memory with the columns about to be written are
        # copied first (as numpy does), so they are read before they change.
        written = [c for c in reuse.values() if isinstance(c, np.ndarray)]
        if any(np.may_share_memory(arr, c) for c in written):
            arr = arr.copy()
        if fl is not None and any(np.may_share_memory(fl, c) for c in written):
            fl = fl.copy()
    cols = evaluate_columns_checked(arr, v, fl, "layouts", for_scoring=False, reuse=reuse,
                                    n_threads=n_threads)
    return Evaluation(
        variant=v, strengths=cols["strength"].T, foul=cols["foul"].view(bool),
        royalties=cols["royalty"].T, royalty_total=cols["royalty_total"],
        next_fantasyland=cols["fantasyland"], repeat=cols["repeat"].view(bool),
        next_in_fantasyland=cols["next_in_fantasyland"], substitutes=cols["substitutes"],
        _columns=cols,
    )


def foul_reason(strengths: npt.ArrayLike, variant: Variant | str = "pineapple") -> str | None:
    """Why a layout is fouled, for people: which row beats which, or which
    row is not allowed alone (a 2-7 middle that is not a low).

    It reads the same compiled rule the kernels apply (the rows in the foul
    order must not get stronger going up; a row whose rule table marks its
    hand invalid fouls alone), so it names a reason exactly when
    :func:`evaluate` says ``foul``.

    Parameters
    ----------
    strengths : array_like of int, shape (rows,)
        The strength of each row, top first (``Evaluation.strengths[i]``:
        one joint scale over 3- and 5-card rows).
    variant : Variant or str
        The rules (row names, 2-7 middle).

    Returns
    -------
    str or None
        The reason, or None if the layout is not fouled.

    Raises
    ------
    ArgumentError
        Strengths of another shape than ``(rows,)``, or not row strengths.
    TypeError
        Strengths that are not integers.

    Examples
    --------
    >>> v = as_variant("pineapple")
    >>> ev = evaluate(parse_layout("As Ah Kd / 2c 3d 4h 9s Jc / 7h 7d 2s 5c 8d", v), v)
    >>> foul_reason(ev.strengths[0], v)
    'the top (Pair of Aces, King kicker) beats the middle (Jack-high, ...); rows must not ...'
    >>> foul_reason(evaluate("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d").strengths[0]) is None
    True
    """
    v = as_variant(variant)
    arr = np.asarray(strengths)
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        raise TypeError(f"strengths must be integer row strengths, got {shorten(strengths)}")
    if arr.shape != (v.n_rows,):
        raise ArgumentError(f"strengths must have shape ({v.n_rows},) (one per row, top first) "
                            f"for {v.name}, got shape {arr.shape}")
    s = [int(x) for x in arr.tolist()]
    rules = compile_rules(v)
    valid, chain = rules["valid"], rules["in_chain"]
    if any(not 1 <= x < valid.shape[1] for x in s):
        raise ArgumentError(f"strengths must be row strengths 1 .. {valid.shape[1] - 1}, got {s}")
    names = v.row_names
    for i, x in enumerate(s):
        if not valid[i, x]:
            return (f"the {names[i]} ({describe_strength(x)}) is not a 2-7 low: it needs five "
                    "different ranks, ten or lower, no straight and no flush")
    rows = [i for i in range(v.n_rows) if chain[i]]
    for hi, lo in reversed(list(itertools.pairwise(rows))):
        if s[hi] > s[lo]:
            return (f"the {names[hi]} ({describe_strength(s[hi])}) beats the {names[lo]} "
                    f"({describe_strength(s[lo])}); rows must not get stronger going up")
    return None
