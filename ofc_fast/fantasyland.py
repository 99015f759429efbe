"""Fantasyland solver: the best placement of all the cards dealt at once.

A player in fantasyland receives 13-19 cards, places 13 (18 on four rows)
and discards the rest.  :func:`solve_fantasyland` finds the placement of
greatest value, exactly (branch and bound over every placement, see
``docs/fantasyland.md``); :func:`solve_fantasyland_batch` does the same for an
``(N, k)`` array of hands without the GIL, optionally on several threads.

Objectives (the value of a layout; a fouled layout is chosen only when every
placement fouls):

* ``"royalties"`` - its royalty total;
* ``"royalties+repeat"`` (default) - royalty total plus ``fantasyland_value``
  when it earns a repeat of fantasyland.  ``fantasyland_value=None`` means *repeat
  first*: a repeat is worth one point more than the widest royalty range of
  the variant (98 under American royalties), so any repeat beats any
  non-repeat and royalties order the rest;
* a number - the same as ``"royalties+repeat"`` with that ``fantasyland_value``.

Ties (equal value) go to the stronger rows, compared head to head (bottom
first, then up to the top; a 2-7 middle is stronger when lower), then to the
rows holding the higher cards (bottom first; a row's cards compared by id,
highest first).  The result does not depend on the order of the input cards.

>>> sol = solve_fantasyland("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s", "pineapple")
>>> print(sol.text)
9s 9d 9c / Ks Kd Kc 6d 4c / As Ah Ad Ac 7h
>>> sol.royalties, sol.royalty_total, sol.repeat, sol.next_fantasyland, format_cards(sol.discards)
((17, 2, 10), 29, True, 14, '3s')
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from ofc_fast._args import integer, points
from ofc_fast._eval import row_strength
from ofc_fast._fantasy import MAX_CARDS, solve_into
from ofc_fast._layout import rules_for
from ofc_fast.cards import (
    JOKERS,
    MAX_CARD,
    bad_hand_message,
    format_cards,
    format_resolved,
    is_joker,
    joker_refusal,
    parse_card_text,
)
from ofc_fast.deals import fantasyland_deals
from ofc_fast.deprecation import UNSET, renamed_attribute, warn_renamed
from ofc_fast.errors import ArgumentError, CardError, shorten
from ofc_fast.hands import describe, describe_strength
from ofc_fast.layouts import evaluate, format_layout
from ofc_fast.rules import Variant, as_variant
from ofc_fast.threads import run_chunks, thread_count

__all__ = [
    "OBJECTIVES", "FantasylandSolution", "FantasylandBatch", "solve_fantasyland",
    "solve_fantasyland_batch", "fantasyland_card_counts", "repeat_first_value",
]

OBJECTIVES = ("royalties", "royalties+repeat")
_LARGEST_THREE_ROW_DEAL = 17   # Progressive Pineapple, trips on top
_LARGEST_FOUR_ROW_DEAL = 19    # Big Pineapple
MAX_FANTASYLAND_VALUE = 1e12
"""Largest ``|fantasyland_value|`` (points of a repeat) the solver takes."""
MAX_REPEAT_VALUE = MAX_FANTASYLAND_VALUE      # its name before 0.3


def fantasyland_card_counts(variant: Variant | str = "pineapple") -> range:
    """Numbers of cards :func:`solve_fantasyland` accepts for a variant.

    From the variant's smallest fantasyland deal (its row count when it has
    no fantasyland) up to 17 cards on three rows (the largest three-row deal
    of the named variants, Progressive's trips tier) or 19 on four rows, and
    always up to the variant's own largest deal (``entry_cards``,
    ``repeat_cards``: at most :data:`~ofc_fast.rules.MAX_DEAL`), so every
    hand the variant deals in fantasyland can be solved.

    Parameters
    ----------
    variant : Variant or str
        The rules.

    Returns
    -------
    range
        The card counts, ascending.

    Raises
    ------
    RulesError
        For an unknown variant.

    Examples
    --------
    >>> fantasyland_card_counts("pineapple"), fantasyland_card_counts("classic")
    (range(14, 18), range(13, 18))
    >>> fantasyland_card_counts("big-pineapple")
    range(19, 20)
    >>> from ofc_fast import variant
    >>> fantasyland_card_counts(variant("pineapple", entry_cards=(0, 14, 22)))
    range(14, 23)
    """
    v = as_variant(variant)
    deals = fantasyland_deals(v)
    lo = max(deals[0], v.n_cards) if deals else v.n_cards
    hi = _LARGEST_THREE_ROW_DEAL if v.n_rows == 3 else _LARGEST_FOUR_ROW_DEAL
    hi = min(max(hi, lo, *deals), MAX_CARDS)
    return range(lo, hi + 1)


def _royalty_ranges(v: Variant) -> list[tuple[int, int]]:
    roy = v.royalties
    top = [0, *roy.top_pairs, *roy.top_trips]
    rows = [list(row) + [0] for row in roy.rows]
    if v.lowball and v.n_rows == 3:
        rows[0] = [0, *(pts for _, pts in roy.lowball)]
    return [(min(top), max(top))] + [(min(r), max(r)) for r in rows]


def repeat_first_value(variant: Variant | str = "pineapple") -> int:
    """The points a repeat is worth under the *repeat first* objective.

    One more than the widest spread of royalty totals the variant can pay
    (sum over rows of the largest minus the smallest royalty), so a layout
    that repeats always beats one that does not, and royalties decide
    between layouts that both repeat or both do not.

    Parameters
    ----------
    variant : Variant or str
        The rules (its royalty table).

    Returns
    -------
    int

    Raises
    ------
    RulesError
        For an unknown variant.

    Examples
    --------
    >>> repeat_first_value("pineapple"), repeat_first_value("big-pineapple")
    (98, 198)
    """
    return 1 + sum(hi - lo for lo, hi in _royalty_ranges(as_variant(variant)))


_OBJECTIVE_HELP = ("valid: 'royalties', 'royalties+repeat' (optionally with "
                   "fantasyland_value=points), or a number (the points of a repeat)")


def _objective(objective: object, fantasyland_value: Any, v: Variant) -> tuple[str, float]:
    """(name, value of a repeat in points) of an objective specification."""
    if isinstance(objective, (int, float, np.integer, np.floating)) \
            and not isinstance(objective, (bool, np.bool_)):
        if fantasyland_value is not None:
            raise ArgumentError("give the value of a repeat either as objective or as "
                                "fantasyland_value, not both")
        objective, fantasyland_value = "royalties+repeat", objective
    if not isinstance(objective, str):
        raise TypeError(f"unknown objective {shorten(objective)}; {_OBJECTIVE_HELP}")
    if objective == "royalties":
        if fantasyland_value is not None:
            raise ArgumentError("fantasyland_value needs objective 'royalties+repeat' "
                                "(objective 'royalties' ignores repeats)")
        return "royalties", 0.0
    if objective in ("royalties+repeat", "repeat"):
        if fantasyland_value is None:
            return "royalties+repeat", float(repeat_first_value(v))
        return "royalties+repeat", points(fantasyland_value, "fantasyland_value",
                                          MAX_FANTASYLAND_VALUE)
    raise ArgumentError(f"unknown objective {shorten(objective)}; {_OBJECTIVE_HELP}")


def _fl_count(in_fantasyland: object) -> int:
    return integer(in_fantasyland, "in_fantasyland", 1, 255)   # this hand's number in a row


def _count_message(v: Variant, k: int, where: str) -> str:
    counts = fantasyland_card_counts(v)
    want = str(counts.start) if len(counts) == 1 else f"{counts.start} to {counts.stop - 1}"
    return (f"{where} has {k} cards; {v.name} fantasyland takes {want} cards "
            f"({v.n_cards} placed, the rest discarded)")


def _as_hands(hands: npt.ArrayLike, v: Variant, single: bool) -> npt.NDArray[np.uint8]:
    """Validate hands and return them as a C-contiguous (N, k) uint8 array."""
    data: object = hands
    if isinstance(hands, str):
        if not single:
            raise TypeError("hands must be an (N, k) array of card ids or a list of hand strings")
        data = [parse_card_text(hands)]
    elif isinstance(hands, (list, tuple)) and hands and all(isinstance(h, str) for h in hands):
        texts = [h for h in hands if isinstance(h, str)]        # all of them
        if single:
            data = [[c for h in texts for c in parse_card_text(h)]]
        else:
            rows = []
            for i, h in enumerate(texts):
                try:
                    rows.append(parse_card_text(h))
                except CardError as e:
                    raise CardError(f"hand {i}: {e}") from None
            lengths = {len(r) for r in rows}
            if len(lengths) > 1:
                raise ArgumentError(f"hands have different numbers of cards: {sorted(lengths)}")
            data = rows
    elif single:
        data = [hands]
    arr = np.asarray(data)
    if arr.size == 0 and arr.ndim < 2:
        arr = arr.reshape(len(arr), 0)
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        if arr.size == 0:
            arr = arr.astype(np.int64)
        else:
            raise TypeError(f"cards must be card ids or card text, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ArgumentError(f"hands must have shape (N, k) (hands, cards), got {arr.shape}")
    k = arr.shape[1]
    if k not in fantasyland_card_counts(v):
        raise ArgumentError(_count_message(v, k, "hand" if single else "hands"))
    bad = (arr < 0) | (arr > MAX_CARD + v.jokers)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        where = "hand" if single else f"hand {i}"
        if arr[i, j] == 255:
            raise CardError(f"{where}: card {j} is EMPTY (255); fantasyland needs every card dealt")
        if is_joker(int(arr[i, j])):
            refusal = joker_refusal(int(arr[i, j]), v.jokers, f"variant {v.name}", j)
            raise CardError(f"{where}: {refusal}")
        raise CardError(f"{where}: card {j} has id {arr[i, j]}, not a card (0-{MAX_CARD})")
    arr = np.ascontiguousarray(arr, dtype=np.uint8)
    srt = np.sort(arr, axis=1)
    dup = np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))
    if dup.size:
        i = int(dup[0])
        raise CardError(bad_hand_message(arr[i].tolist(), "hand" if single else f"hand {i}",
                                         jokers=v.jokers, context=f"variant {v.name}"))
    return arr


@dataclass(frozen=True)
class FantasylandSolution:
    """The best placement of one fantasyland hand (:func:`solve_fantasyland`).

    Attributes
    ----------
    variant : Variant
        The rules solved for.
    cards : ndarray of uint8, shape (k,)
        The cards dealt.
    layout : ndarray of uint8, shape (13,) or (18,)
        The placed cards, top row first (as :func:`ofc_fast.evaluate` takes them).
    discards : ndarray of uint8, shape (k - 13,) or (k - 18,)
        The cards not placed.
    royalties : tuple of int
        Per row, top first (all 0 when fouled).
    royalty_total : int
        Their sum.
    repeat : bool
        The layout earns another fantasyland hand.
    next_fantasyland : int
        Cards dealt in the next hand's fantasyland (0 without a repeat).
    foul : bool
        Only when every placement fouls (e.g. no valid 2-7 middle).
    score : float
        Value under the objective: royalty_total + fantasyland_value * repeat;
        ``-inf`` when fouled.
    objective : str
        The objective solved: ``"royalties"`` or ``"royalties+repeat"``.
    fantasyland_value : float
        The points of a repeat under it (0 for ``"royalties"``); its 0.2 name
        ``repeat_value`` is a deprecated alias.
    substitutes : ndarray of uint8, shape (jokers,)
        The natural card each joker of the layout stands for once resolved
        (docs/jokers.md; 255 for a joker discarded or not dealt).

    Examples
    --------
    >>> sol = solve_fantasyland("As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s")
    >>> sol.text, sol.royalties, sol.score
    ('9s 9d 9c / Ks Kd Kc 6d 4c / As Ah Ad Ac 7h', (17, 2, 10), 127.0)
    >>> [row.tolist() for row in sol.rows][0], sol.to_dict()["discards"]
    ([31, 29, 28], '3s')
    """
    variant: Variant
    cards: npt.NDArray[np.uint8]
    layout: npt.NDArray[np.uint8]
    discards: npt.NDArray[np.uint8]
    royalties: tuple[int, ...]
    royalty_total: int
    repeat: bool
    next_fantasyland: int
    foul: bool
    score: float
    objective: str
    fantasyland_value: float
    substitutes: npt.NDArray[np.uint8] = field(default_factory=lambda: np.empty(0, np.uint8))

    next_cards = renamed_attribute("next_fantasyland", "next_cards")
    repeat_value = renamed_attribute("fantasyland_value", "repeat_value", since="0.3")

    @property
    def rows(self) -> tuple[npt.NDArray[np.uint8], ...]:
        """The rows, top first, each a uint8 array of card ids."""
        out: list[npt.NDArray[np.uint8]] = []
        pos = 0
        for size in self.variant.row_sizes:
            out.append(self.layout[pos:pos + size])
            pos += size
        return tuple(out)

    @property
    def text(self) -> str:
        """The layout as text, rows separated by `` / `` (top first)."""
        return format_layout(self.layout, self.variant)

    @staticmethod
    def format_cards(cards: Sequence[int] | npt.NDArray[np.uint8]) -> str | list[Any]:
        """Card text of ``cards`` (:func:`ofc_fast.format_cards`), ``"-"`` for none.

        Parameters
        ----------
        cards : sequence of int or ndarray of uint8
            Card ids.

        Returns
        -------
        str
            (A list of str for a 2-D array, as :func:`ofc_fast.format_cards`.)
        """
        return format_cards(cards) if len(cards) else "-"

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python form (for JSON): card text, rows by name, ``score``
        None when fouled.

        Returns
        -------
        dict
        """
        names = self.variant.row_names
        return {
            "variant": self.variant.name, "cards": format_cards(self.cards),
            "rows": {name: format_cards(row) for name, row in zip(names, self.rows, strict=True)},
            "layout": self.text, "discards": format_cards(self.discards),
            "royalties": dict(zip(names, self.royalties, strict=True)),
            "royalty_total": self.royalty_total, "repeat": self.repeat,
            "next_fantasyland": self.next_fantasyland, "foul": self.foul,
            "score": None if self.foul else self.score, "objective": self.objective,
            "fantasyland_value": self.fantasyland_value,
            "substitutes": format_cards(self.substitutes[self.substitutes != 255]),
        }

    def __str__(self) -> str:
        v = self.variant
        width = max(len(n) for n in v.row_names + ("discard",))
        lines = [f"{v.name} fantasyland, {len(self.cards)} cards: {format_cards(self.cards)}"]
        for name, row, roy in zip(v.row_names, self.rows, self.royalties, strict=True):
            hand = describe(row.tolist(), self.substitutes) if v.jokers else \
                describe_strength(int(row_strength(row.tolist())))
            shown = " ".join(format_resolved(c, int(self.substitutes[c - JOKERS[0]]))
                             if is_joker(c) else format_resolved(c) for c in row.tolist())
            lines.append(f"  {name:<{width}}  {shown:<15}  {hand}"
                         + (f"  (+{roy})" if roy else ""))
        lines.append(f"  {'discard':<{width}}  {self.format_cards(self.discards)}")
        if self.foul:
            lines.append("every placement fouls: fouled layout, no royalties")
            return "\n".join(lines)
        lines.append(f"royalties {self.royalty_total}; "
                     + (f"repeats fantasyland ({self.next_fantasyland} cards next hand)"
                        if self.repeat else "no repeat"))
        if self.objective == "royalties":
            lines.append(f"score {self.score:g} (objective royalties)")
        else:
            lines.append(f"score {self.score:g} (objective royalties+repeat, "
                         f"a repeat is worth {self.fantasyland_value:g})")
        return "\n".join(lines)


@dataclass(frozen=True)
class FantasylandBatch:
    """Best placements of N hands (:func:`solve_fantasyland_batch`): arrays,
    and ``batch[i]`` gives hand ``i`` as a :class:`FantasylandSolution`.

    Attributes
    ----------
    variant : Variant
        The rules solved for.
    hands : ndarray of uint8, shape (N, k)
        The cards dealt.
    layouts : ndarray of uint8, shape (N, 13) or (N, 18)
        The placed cards, top row first.
    discards : ndarray of uint8, shape (N, k - 13) or (N, k - 18)
        The cards not placed.
    royalties : ndarray of int16, shape (N, rows)
        Per row, top first (0 when fouled).
    royalty_total : ndarray of int32, shape (N,)
        Their sum.
    repeat : ndarray of bool, shape (N,)
        The layout earns another fantasyland hand.
    next_fantasyland : ndarray of uint8, shape (N,)
        Cards dealt in the next hand's fantasyland (0 without a repeat).
    foul : ndarray of bool, shape (N,)
        Every placement fouls.
    score : ndarray of float64, shape (N,)
        Value under the objective (``-inf`` when fouled).
    objective : str
        The objective solved.
    fantasyland_value : float
        The points of a repeat under it (deprecated alias: ``repeat_value``).
    substitutes : ndarray of uint8, shape (N, jokers)
        The natural card each joker stands for once the layout is resolved
        (docs/jokers.md; 255 for a joker discarded or not dealt).

    Examples
    --------
    >>> batch = solve_fantasyland_batch(["As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s",
    ...                                  "Qs Qd 2c 3c 4c 5c 6c 7d 8d 9h Th Jh Kh 2s"])
    >>> len(batch), batch.royalty_total.tolist(), batch.repeat_rate
    (2, [29, 26], 1.0)
    >>> batch[1].text
    'Kh Qs Qd / Jh Th 9h 8d 7d / 6c 5c 4c 3c 2c'
    """
    variant: Variant
    hands: npt.NDArray[np.uint8]
    layouts: npt.NDArray[np.uint8]
    discards: npt.NDArray[np.uint8]
    royalties: npt.NDArray[np.int16]
    royalty_total: npt.NDArray[np.int32]
    repeat: npt.NDArray[np.bool_]
    next_fantasyland: npt.NDArray[np.uint8]
    foul: npt.NDArray[np.bool_]
    score: npt.NDArray[np.float64]
    objective: str
    fantasyland_value: float
    substitutes: npt.NDArray[np.uint8] = field(default_factory=lambda: np.empty((0, 0), np.uint8))

    next_cards = renamed_attribute("next_fantasyland", "next_cards")
    repeat_value = renamed_attribute("fantasyland_value", "repeat_value", since="0.3")

    def __len__(self) -> int:
        return len(self.layouts)

    def __getitem__(self, i: SupportsIndex) -> FantasylandSolution:
        i = range(len(self))[i]
        return FantasylandSolution(
            variant=self.variant, cards=self.hands[i], layout=self.layouts[i],
            discards=self.discards[i], royalties=tuple(int(x) for x in self.royalties[i]),
            royalty_total=int(self.royalty_total[i]), repeat=bool(self.repeat[i]),
            next_fantasyland=int(self.next_fantasyland[i]), foul=bool(self.foul[i]),
            score=float(self.score[i]), objective=self.objective,
            fantasyland_value=self.fantasyland_value, substitutes=self.substitutes[i])

    @property
    def repeat_rate(self) -> float:
        """The share of hands that repeat fantasyland (nan for no hands)."""
        return float(self.repeat.mean()) if len(self) else float("nan")

    @property
    def mean_royalties(self) -> float:
        """The mean royalty total (nan for no hands)."""
        return float(self.royalty_total.mean()) if len(self) else float("nan")


def solve_fantasyland_batch(hands: npt.ArrayLike, variant: Variant | str = "pineapple",
                            objective: str | float = "royalties+repeat",
                            fantasyland_value: float | None = None, in_fantasyland: int = 1,
                            n_threads: int | None = 1, *,
                            repeat_value: float | None = UNSET) -> FantasylandBatch:
    """Solve N fantasyland hands of k cards each.

    Parameters
    ----------
    hands : array_like of int, shape (N, k), or a list of N hand strings
        Card ids, or card text per hand.
    variant : Variant or str
        The rules.
    objective : str or float
        ``"royalties"``, ``"royalties+repeat"`` (default), or a number: the
        points of a repeat (see the module docstring).
    fantasyland_value : float or None
        With ``"royalties+repeat"``: the points a repeat adds; None means
        *repeat first* (:func:`repeat_first_value`).
    in_fantasyland : int
        This hand's number in a run of fantasyland hands (1: entered last
        hand).  A repeat needs it within the variant's ``repeat_limit``.
    n_threads : int or None
        Threads over chunks of hands (the kernel releases the GIL); ``None``
        uses every CPU.  Results do not depend on it.
    repeat_value
        Deprecated (0.3): ``fantasyland_value``.

    Returns
    -------
    FantasylandBatch
        The best placement of each hand.

    Raises
    ------
    CardError
        A repeated card, an unknown card or an id that is no card; the message names
        the hand and the card.
    ArgumentError
        The wrong card count for the variant, hands of different sizes, an
        unknown objective, a ``fantasyland_value`` that is not finite, an
        ``in_fantasyland`` out of 1 .. 255.
    TypeError
        Hands that are not cards, an ``in_fantasyland`` or ``n_threads``
        that is not an integer, an objective or value of the wrong type.
    RulesError
        An unknown variant.

    Examples
    --------
    >>> import numpy as np
    >>> hands = np.array([np.random.default_rng(s).permutation(52)[:14] for s in range(100)])
    >>> batch = solve_fantasyland_batch(hands, "pineapple", "royalties", n_threads=2)
    >>> batch.layouts.shape, batch.discards.shape, bool(batch.foul.any())
    ((100, 13), (100, 1), False)
    """
    v = as_variant(variant)
    if repeat_value is not UNSET:
        warn_renamed("solve_fantasyland_batch(repeat_value=...)",
                     "solve_fantasyland_batch(fantasyland_value=...)", since="0.3")
        fantasyland_value = repeat_value
    name, rv = _objective(objective, fantasyland_value, v)
    fl = _fl_count(in_fantasyland)
    thread_count(n_threads)
    arr = _as_hands(hands, v, single=False)
    n, k = arr.shape
    R, nc = v.n_rows, v.n_cards
    layouts, discards = np.zeros((n, nc), np.uint8), np.zeros((n, k - nc), np.uint8)
    royalties, total = np.zeros((n, R), np.int16), np.zeros(n, np.int32)
    foul, repeat = np.zeros(n, np.uint8), np.zeros(n, np.uint8)
    next_fl, score = np.zeros(n, np.uint8), np.zeros(n, np.float64)
    rules = rules_for(v)

    def run(lo: int, hi: int) -> int:
        bad = solve_into(rules, arr[lo:hi], layouts[lo:hi], discards[lo:hi], royalties[lo:hi],
                         total[lo:hi], foul[lo:hi], repeat[lo:hi], next_fl[lo:hi], score[lo:hi],
                         fl, rv)
        return -1 if bad < 0 else lo + bad

    results = run_chunks(run, n, n_threads, chunks_per_thread=8)
    bad = min([b for b in results if b >= 0], default=-1)
    if bad >= 0:  # unreachable after _as_hands; kept as a guard
        raise CardError(bad_hand_message(arr[bad].tolist(), f"hand {bad}", jokers=v.jokers))
    # the card each joker stands for: the layouts resolved as the kernel scored them
    subs = evaluate(layouts, v, fl).substitutes if v.jokers and n else \
        np.full((n, v.jokers), 255, np.uint8)
    return FantasylandBatch(
        variant=v, hands=arr, layouts=layouts, discards=discards, royalties=royalties,
        royalty_total=total, repeat=repeat.view(bool), next_fantasyland=next_fl,
        foul=foul.view(bool), score=score, objective=name, fantasyland_value=rv,
        substitutes=subs)


def solve_fantasyland(cards: npt.ArrayLike, variant: Variant | str = "pineapple",
                      objective: str | float = "royalties+repeat",
                      fantasyland_value: float | None = None,
                      in_fantasyland: int = 1, *,
                      repeat_value: float | None = UNSET) -> FantasylandSolution:
    """The best placement of one fantasyland hand.

    Parameters
    ----------
    cards : str, or a sequence of card ids or card texts
        13 (classic), 14-17 (pineapple, progressive, 2-7) or 19 (big-pineapple)
        cards (``"As Ks Qd ..."``); see :func:`fantasyland_card_counts`.
    variant : Variant or str
        The rules.
    objective : str or float
        ``"royalties"``, ``"royalties+repeat"`` (default) or a number (the
        points of a repeat).
    fantasyland_value : float or None
        With ``"royalties+repeat"``: points a repeat adds; None = repeat first.
    in_fantasyland : int
        This hand's number in a run of fantasyland hands (1 = entered last
        hand); past the variant's ``repeat_limit`` no repeat is possible.
    repeat_value
        Deprecated (0.3): ``fantasyland_value``.

    Returns
    -------
    FantasylandSolution

    Raises
    ------
    CardError
        A card given twice, an unknown card or id.
    ArgumentError
        The wrong number of cards for the variant, an unknown objective, a
        ``fantasyland_value`` that is not finite.
    TypeError
        Cards that are not cards, an ``in_fantasyland`` that is not an integer.
    RulesError
        An unknown variant.

    Examples
    --------
    >>> hand = "Js Ah 3s Qs 7s 2h 5d Jc 7h 9d 6h Ts Jd Jh"
    >>> sol = solve_fantasyland(hand, "pineapple")          # repeat first
    >>> sol.text, sol.royalty_total, sol.repeat, format_cards(sol.discards)
    ('6h 5d 3s / Qs Ts 9d 7s 7h / Ah Js Jh Jd Jc', 10, True, '2h')
    >>> sol = solve_fantasyland(hand, "pineapple", objective="royalties")
    >>> sol.text, sol.royalty_total, sol.repeat
    ('Jd Jc 9d / Qs Js Ts 7s 3s / Ah Jh 7h 6h 2h', 18, False)
    """
    v = as_variant(variant)
    if repeat_value is not UNSET:
        warn_renamed("solve_fantasyland(repeat_value=...)",
                     "solve_fantasyland(fantasyland_value=...)", since="0.3")
        fantasyland_value = repeat_value
    _objective(objective, fantasyland_value, v)  # bad objective before bad cards
    arr = _as_hands(cards, v, single=True)
    return solve_fantasyland_batch(arr, v, objective, fantasyland_value, in_fantasyland)[0]


if __name__ == "__main__":     # 0.1's command line, now a subcommand of ofc-fast
    sys.exit("python -m ofc_fast.fantasyland is now `ofc-fast fantasyland` (or `python -m "
             "ofc_fast fantasyland`); see `ofc-fast fantasyland --help`")
