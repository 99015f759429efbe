"""Pairwise and table scoring (docs/rules.md section 6) as batch calls.

>>> import ofc_fast as ofc
>>> v = ofc.variant("classic", royalties="american")       # 2-6 scoring
>>> a = "5s 5d 2c / 9h 9d Tc Ts 2d / Qc Qd Qs Qh 3h"        # bottom quads: 10
>>> b = "4s 4d 3c / 8h 8d 7c 7s 3d / Ah Kh Qh Jh 9h"        # bottom flush: 4
>>> ofc.score_pair(a, b, v).points                          # 6 + 10 - 4
12
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

from ofc_fast._args import broadcast, number, out_array
from ofc_fast._layout import rules_for
from ofc_fast._score import matrix as _matrix
from ofc_fast._score import score_tables_kernel
from ofc_fast._score import totals as _totals
from ofc_fast.cards import MAX_CARD, format_card, refuse_masked
from ofc_fast.deprecation import renamed_attribute
from ofc_fast.errors import ArgumentError
from ofc_fast.layouts import (
    LayoutError,
    check_layouts,
    evaluate_columns_checked,
    fantasyland_counts,
    layout_problem,
)
from ofc_fast.rules import VARIANTS, Variant, as_variant

__all__ = ["PairResult", "score_pair", "score_matrix", "score_field", "score_tables",
           "TableResult", "settle"]


@dataclass(frozen=True)
class PairResult:
    """Points for ``a`` against ``b`` (``b`` gets the negation) and why.

    Attributes
    ----------
    points : int
        What ``a`` wins from ``b``: ``row_points + royalty_points``.
    rows : tuple of int
        Per row, top first: +1 ``a`` wins it, -1 ``b`` wins it, 0 a tie.
    rows_won, rows_lost : int
        Rows ``a`` won and lost.
    row_points : int
        Points from rows and bonuses (a foul penalty included).
    royalty_points : int
        Net royalties exchanged (the Finnish doubling included).
    royalties_a, royalties_b : tuple of int
        Per-row royalties of each layout (0 when fouled).
    foul_a, foul_b : bool
        Which layouts are fouled.
    scoop : int
        +1 ``a`` scooped ``b``, -1 ``b`` scooped ``a``, 0 neither.
    substitutes_a, substitutes_b : tuple of int
        The natural card each joker of ``a`` and ``b`` stands for (255 where
        a layout lacks it); empty for a variant without jokers.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> r = ofc.score_pair("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d",
    ...                    "Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d", "pineapple")
    >>> r.rows, r.row_points, r.royalty_points, r.points
    ((-1, 1, -1), -1, 7, 6)
    """
    points: int
    rows: tuple[int, ...]
    rows_won: int
    rows_lost: int
    row_points: int
    royalty_points: int
    royalties_a: tuple[int, ...]
    royalties_b: tuple[int, ...]
    foul_a: bool
    foul_b: bool
    scoop: int
    substitutes_a: tuple[int, ...] = ()
    substitutes_b: tuple[int, ...] = ()


def _columns(layouts: Any, v: Variant, name: str, n_threads: int | None = 1) -> dict[str, Any]:
    arr = check_layouts(layouts, v, name)
    return evaluate_columns_checked(arr, v, None, name, n_threads=n_threads)


def score_pair(a: Any, b: Any, variant: Variant | str = "pineapple") -> PairResult:
    """Score one layout against another, with a breakdown.

    Parameters
    ----------
    a, b : str or array_like of int, shape (n_cards,)
        Layout text or card ids.  They are scored as independent deals, so
        they may share cards.
    variant : Variant or str
        The rules.

    Returns
    -------
    PairResult
        ``points`` is what ``a`` wins from ``b``.

    Raises
    ------
    LayoutError
        For a bad layout, naming it (``a`` or ``b``), the row and the card.
    ArgumentError
        For more than one layout on either side (use :func:`score_matrix`).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> v = ofc.variant("classic", royalties="american")
    >>> ofc.score_pair("5s 5d 2c / 9h 9d Tc Ts 2d / Qc Qd Qs Qh 3h",
    ...            "4s 4d 3c / 8h 8d 7c 7s 3d / Ah Kh Qh Jh 9h", v).points
    12
    """
    v = as_variant(variant)
    ca, cb = _columns(a, v, "a"), _columns(b, v, "b")
    if len(ca["foul"]) != 1 or len(cb["foul"]) != 1:
        raise ArgumentError(f"score_pair takes one layout each, got {len(ca['foul'])} and "
                            f"{len(cb['foul'])}; use score_matrix for batches")
    pts = int(_matrix(rules_for(v), ca, cb, np.empty((1, 1), np.int32))[0, 0])
    ka, kb = ca["key"][:, 0].astype(int), cb["key"][:, 0].astype(int)
    rows = tuple(int(x) for x in np.sign(ka - kb))
    won, lost = rows.count(1), rows.count(-1)
    ra, rb = tuple(ca["royalty"][:, 0].tolist()), tuple(cb["royalty"][:, 0].tolist())
    royalty_points = int(ca["royalty_total"][0] - cb["royalty_total"][0])
    for fin in {int(ca["finnish_row"][0]), int(cb["finnish_row"][0])} - {-1}:
        royalty_points += ra[fin] - rb[fin]
    R = v.n_rows
    return PairResult(
        points=pts, rows=rows, rows_won=won, rows_lost=lost,
        row_points=pts - royalty_points, royalty_points=royalty_points,
        royalties_a=ra, royalties_b=rb, foul_a=bool(ca["foul"][0]), foul_b=bool(cb["foul"][0]),
        scoop=(won == R) - (lost == R), substitutes_a=tuple(ca["substitutes"][0].tolist()),
        substitutes_b=tuple(cb["substitutes"][0].tolist()),
    )


def score_matrix(a: Any, b: Any = None, variant: Variant | str = "pineapple", *,
                 out: npt.NDArray[np.int32] | None = None,
                 n_threads: int | None = 1) -> np.ndarray:
    """What each layout of ``a`` wins from each layout of ``b``.

    Layouts are independent deals (a solver's field): a card may appear in
    several; only cards within one layout must be distinct.  The GIL is
    released while the matrix fills.

    Parameters
    ----------
    a : array_like of int, shape (N, n_cards), or layout texts
        The layouts whose points are wanted.
    b : array_like of int, shape (M, n_cards), or layout texts, optional
        The opponents; omitted, ``a`` against itself (antisymmetric, zero
        diagonal).  ``score_matrix(a, variant)`` also works.
    variant : Variant or str
        The rules.
    out : ndarray of int32, shape (N, M), optional
        A C-contiguous buffer to fill and return.
    n_threads : int or None
        Threads that split the matrix into blocks of rows (and the layouts
        into chunks while they are evaluated), without the GIL: 1 (the
        default) runs in this thread, ``None`` uses every CPU.  A block is
        at least 524,288 pairs.  The result, and the layout an error names,
        do not depend on it.

    Returns
    -------
    ndarray of int32, shape (N, M)
        ``[i, j]`` is what ``a[i]`` wins from ``b[j]``.

    Raises
    ------
    LayoutError
        Naming the first bad layout, row and card.
    TypeError, ArgumentError
        For a wrong dtype or shape of the layouts or ``out``, or an
        ``n_threads`` that is not 1 .. 256 or None.

    Examples
    --------
    >>> m = score_matrix(["Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d",
    ...                   "Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d"], "pineapple")
    >>> m.tolist()
    [[0, 6], [-6, 0]]
    """
    if isinstance(b, Variant) or (isinstance(b, str) and b in VARIANTS):
        b, variant = None, b  # score_matrix(layouts, variant)
    v = as_variant(variant)
    ca = _columns(a, v, "a", n_threads)
    cb = ca if b is None else _columns(b, v, "b", n_threads)
    res = out_array(out, (len(ca["foul"]), len(cb["foul"])), np.int32)
    return _matrix(rules_for(v), ca, cb, res, n_threads)


def score_field(layouts: Any, variant: Variant | str = "pineapple", *, field: Any = None,
                out: npt.NDArray[np.int64] | None = None,
                n_threads: int | None = 1) -> np.ndarray:
    """What each layout wins against a whole field, without an N x M matrix.

    The expected value of a layout against a field of M layouts is
    ``score_field(...) / M``.  Layouts are independent deals and may share
    cards.

    Parameters
    ----------
    layouts : array_like of int, shape (N, n_cards), or layout texts
        The layouts whose totals are wanted.
    variant : Variant or str
        The rules.
    field : array_like of int, shape (M, n_cards), or layout texts, optional
        The opponents (default: the layouts themselves; a layout against
        itself scores 0).
    out : ndarray of int64, shape (N,), optional
        A C-contiguous buffer to fill and return.
    n_threads : int or None
        Threads that split the layouts into contiguous chunks (each against
        the whole field), without the GIL: 1 (the default) runs in this
        thread, ``None`` uses every CPU.  A chunk is at least 524,288
        pairs.  The result, and the layout an error names, do not depend
        on it.

    Returns
    -------
    ndarray of int64, shape (N,)

    Raises
    ------
    LayoutError
        Naming the first bad layout, row and card.
    TypeError, ArgumentError
        For a wrong dtype or shape of the layouts or ``out``, or an
        ``n_threads`` that is not 1 .. 256 or None.

    Examples
    --------
    >>> score_field(["Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d",
    ...              "Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d"], "pineapple").tolist()
    [6, -6]
    """
    v = as_variant(variant)
    ca = _columns(layouts, v, "layouts", n_threads)
    cb = ca if field is None else _columns(field, v, "field", n_threads)
    res = out_array(out, (len(ca["foul"]),), np.int64)
    return _totals(rules_for(v), ca, cb, res, n_threads)


@dataclass(frozen=True)
class TableResult:
    """Per-player results of G tables of P players (:func:`score_tables`).

    Attributes
    ----------
    points : ndarray of int32, shape (G, P)
        Each player's points, summed over the opponents at the table.
    foul : ndarray of bool, shape (G, P)
    royalty_total : ndarray of int16, shape (G, P)
        Royalties earned (0 when fouled).
    next_fantasyland : ndarray of uint8, shape (G, P)
        Cards dealt in fantasyland next hand (0 = none).
    substitutes : ndarray of uint8, shape (G, P, jokers)
        The natural card each joker stands for (255 where a layout lacks it;
        docs/jokers.md).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> t = ofc.score_tables([[ofc.parse_layout("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"),
    ...                        ofc.parse_layout("Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d")]],
    ...                      "pineapple", details=True)
    >>> t.points.tolist(), t.next_fantasyland.tolist()
    ([[6, -6]], [[14, 14]])
    """
    points: np.ndarray
    foul: np.ndarray
    royalty_total: np.ndarray
    next_fantasyland: np.ndarray
    substitutes: np.ndarray = field(default_factory=lambda: np.empty((0, 0, 0), np.uint8))

    fantasyland = renamed_attribute("next_fantasyland", "fantasyland")


@overload
def score_tables(tables: Any, variant: Variant | str = ..., in_fantasyland: Any = ..., *,
                 details: Literal[False] = ..., n_threads: int | None = ...
                 ) -> npt.NDArray[np.int32]: ...
@overload
def score_tables(tables: Any, variant: Variant | str = ..., in_fantasyland: Any = ..., *,
                 details: Literal[True], n_threads: int | None = ...) -> TableResult: ...
@overload
def score_tables(tables: Any, variant: Variant | str = ..., in_fantasyland: Any = ..., *,
                 details: bool, n_threads: int | None = ...
                 ) -> npt.NDArray[np.int32] | TableResult: ...
def score_tables(tables: Any, variant: Variant | str = "pineapple", in_fantasyland: Any = None,
                 *, details: bool = False,
                 n_threads: int | None = 1) -> npt.NDArray[np.int32] | TableResult:
    """Score G independent tables of P players each.

    Every pair at a table is scored and the results summed per player, so
    each table's points sum to zero.  The players of one table share a deck:
    its cards must be distinct across the table (checked).  The GIL is
    released.

    Parameters
    ----------
    tables : array_like of int, shape (G, P, n_cards)
        P players' layouts per table, seat order.
    variant : Variant or str
        The rules; P must be between its ``min_players`` and ``max_players``.
    in_fantasyland : array_like of int or bool, shape (G, P), optional
        0 for a normal hand, k for the k-th fantasyland hand in a row (decides
        entry versus repeat); any shape that broadcasts to ``(G, P)`` (one
        value, or ``(P,)`` per seat for every table).
    details : bool
        Also return fouls, royalties and next-hand fantasyland.
    n_threads : int or None
        Threads that split the tables into contiguous chunks, without the
        GIL: 1 (the default) runs in this thread, ``None`` uses every CPU.
        A chunk is at least 4,096 tables.  The result, and the table an
        error names, do not depend on it.

    Returns
    -------
    ndarray of int32, shape (G, P), or TableResult
        Points per player; a :class:`TableResult` with ``details=True``.

    Raises
    ------
    LayoutError
        Naming the table, the player, the row and the bad or shared card.
    TypeError, ArgumentError
        For a wrong dtype or shape, a player count the variant does not
        allow, or an ``n_threads`` that is not 1 .. 256 or None.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> t = [[ofc.parse_layout("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"),
    ...       ofc.parse_layout("Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d")]]
    >>> ofc.score_tables(t, "pineapple").tolist()
    [[6, -6]]
    """
    v = as_variant(variant)
    refuse_masked(tables, "tables")
    arr = np.asarray(tables)
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        raise TypeError(f"tables must be integer card ids, got dtype {arr.dtype}")
    if arr.ndim != 3 or arr.shape[2] != v.n_cards:
        raise ArgumentError(f"tables must have shape (G, P, {v.n_cards}) (tables, players, "
                            f"cards), got {arr.shape}")
    G, P = arr.shape[:2]
    if not v.min_players <= P <= v.max_players:
        raise ArgumentError(f"{v.name} is played by {v.played_by}, got tables of {P}")
    flat = check_layouts(arr.reshape(G * P, v.n_cards), v, "tables")
    fl = fantasyland_counts(in_fantasyland, (G, P), dims="tables, players")
    pts, foul, roy, fan, sub, bad = score_tables_kernel(
        rules_for(v), flat.reshape(G, P, v.n_cards), fl, details, n_threads)
    if bad >= 0:
        players = flat[bad * P:(bad + 1) * P]
        for p, layout in enumerate(players):
            if _has_problem(layout, v):
                raise LayoutError(layout_problem(layout, v, f"table {bad}, player {p}"))
        raise LayoutError(_shared_card_message(players, v, bad))
    if details:
        return TableResult(points=pts, foul=foul.view(bool), royalty_total=roy,
                           next_fantasyland=fan, substitutes=sub)
    return pts


def _has_problem(layout: npt.NDArray[np.uint8], v: Variant) -> bool:
    ids = layout.tolist()
    return max(ids) > MAX_CARD + v.jokers or len(set(ids)) != len(ids)


def _shared_card_message(players: npt.NDArray[np.uint8], v: Variant, g: int) -> str:
    owner: dict[int, int] = {}
    for p, lay in enumerate(players):
        for c in lay.tolist():
            if c in owner and owner[c] != p:
                return (f"table {g}: {format_card(c)} is held by player {owner[c]} "
                        f"and player {p}")
            owner[c] = p
    return f"table {g}: a card appears twice"


def settle(points: npt.ArrayLike, stake: float = 1.0,
           stacks: npt.ArrayLike | None = None) -> npt.NDArray[np.float64]:
    """Money from a pairwise points matrix ``(P, P)`` (``[i, j]`` = i wins from j).

    Each pair's amount is ``points * stake``.  With ``stacks`` (one per
    player), each pairwise amount is capped at the smaller of the two stacks,
    and a loser whose capped payments exceed their stack pays each winner in
    proportion, so the payments add up to the stack (docs/rules.md sections 6, 10).

    Parameters
    ----------
    points : array_like of real, shape (P, P)
        Antisymmetric pairwise points (``score_matrix`` of a table's layouts).
    stake : float
        Money per point, finite and >= 0.
    stacks : array_like of real, shape (P,), optional
        Each player's stack (>= 0; ``inf`` for no cap).

    Returns
    -------
    ndarray of float64, shape (P,)
        Each player's net result.

    Raises
    ------
    ArgumentError
        For a non-square or non-antisymmetric matrix, non-finite points, a bad
        stake or stacks (``stacks`` broadcasts to ``(P,)``).
    TypeError
        For points or stacks that are not real numbers.

    Examples
    --------
    >>> settle([[0, 12], [-12, 0]], stake=2.0, stacks=[100, 10]).tolist()
    [10.0, -10.0]
    """
    stake = number(stake, "stake", lo=0)
    m = _real_array(points, "points") * stake
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ArgumentError(f"points must be a square (P, P) matrix, got shape {m.shape}")
    if not np.isfinite(m).all():
        raise ArgumentError("points must be finite numbers")
    if not np.allclose(m, -m.T):
        i, j = np.argwhere(~np.isclose(m, -m.T))[0]
        raise ArgumentError(f"points must be antisymmetric ([i, j] = -[j, i]), got [{i}, {j}] "
                            f"= {m[i, j] / (stake or 1):g} and [{j}, {i}] = "
                            f"{m[j, i] / (stake or 1):g}")
    owed = np.clip(-m, 0, None)  # owed[i, j]: what i pays j
    if stacks is not None:
        s = broadcast(_real_array(stacks, "stacks"), (m.shape[0],), "stacks", "players")
        if np.isnan(s).any() or (s < 0).any():
            bad = s[np.isnan(s) | (s < 0)][0]
            raise ArgumentError(f"stacks must be non-negative numbers (inf: no cap), got {bad:g}")
        owed = np.minimum(owed, np.minimum.outer(s, s))
        paid = owed.sum(axis=1)
        scale = np.where(paid > s, s / np.where(paid > 0, paid, 1), 1.0)
        owed = owed * scale[:, None]
    net: npt.NDArray[np.float64] = owed.sum(axis=0) - owed.sum(axis=1)
    return net


def _real_array(values: npt.ArrayLike, name: str) -> npt.NDArray[np.float64]:
    """float64 array of real numbers (no text, complex or object values)."""
    arr = np.asarray(values)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be real numbers, got dtype {arr.dtype}")
    return arr.astype(np.float64)
