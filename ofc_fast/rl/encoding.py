"""The observation of one seat as a flat vector of 0/1 features (int8): what
the Gymnasium and PettingZoo environments return, computed from
:meth:`ofc_fast.sim.GameBatch.observe` for every game at once (numpy only).

Seats are taken relative to the seat whose view it is (``q = 0`` itself,
``q = 1`` the next seat, ...), so one network plays any seat.  A card plane
has ``C`` entries, one per card of the variant's deck: ``C = 52``, or with
jokers 53 / 54 (the joker planes: ``X1`` is entry 52, ``X2`` entry 53).
Card ``c`` of a plane sits at ``offset + C * plane + c``:

=============================  ==================  ===========================================
feature                        size                1 when
=============================  ==================  ===========================================
``dealt`` (plane ``j``)        ``C * K``           card ``j`` of the cards to place (deal
                                                   order: digit ``j`` of the action) is ``c``
``rows`` (plane ``q * R + r``) ``C * P * R``       seat ``q`` shows card ``c`` in row ``r``
``discards``                   ``C``               the seat discarded ``c``
``unseen``                     ``C``               the seat has not seen ``c``
``street``                     ``S``               the seat plays street ``s`` (0 first)
``button``                     ``P``               seat ``q`` has the button
``fantasyland``                ``P``               seat ``q`` plays this hand in fantasyland
=============================  ==================  ===========================================

``K`` is the most cards a street deals, ``R`` the rows, ``S`` the streets of
a normal hand, ``P`` the seats.  Three-player Pineapple: ``52 * (5 + 9 + 2)
+ 5 + 3 + 3 = 843`` features; with two jokers ``54 * (5 + 9 + 2) + 11 = 875``
(a joker stays a joker: the encoding shows the card dealt, never what it
may become).  The action encoding does not change with jokers.

>>> import ofc_fast
>>> from ofc_fast.sim import GameBatch
>>> enc = ObservationEncoding("pineapple", 3)
>>> enc.size, [(s.name, s.start, s.size) for s in enc.sections][:3]
(843, [('dealt', 0, 260), ('rows', 260, 468), ('discards', 728, 52)])
>>> ObservationEncoding(ofc_fast.variant("pineapple", jokers=2), 3).size
875
>>> b = GameBatch("pineapple", 2, 3, seed=1, policies=["external", "random", "random"])
>>> x = enc.encode(b.observe())
>>> x.shape, x.dtype, int(x[0, :260].sum())             # 5 cards dealt on the first street
((2, 843), dtype('int8'), 5)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc_fast._args import holds_integers, instance, integer
from ofc_fast.cards import EMPTY, format_row
from ofc_fast.errors import ArgumentError, shorten
from ofc_fast.moves import PlayerView
from ofc_fast.rules import Variant, as_variant, deal_schedule

__all__ = ["ObservationEncoding", "Section", "table_text"]

_READS = ("seat", "hand", "layouts", "discards", "unseen", "street", "button", "fantasyland")


@dataclass(frozen=True)
class Section:
    """One feature group of the observation vector.

    Attributes
    ----------
    name : str
        ``dealt``, ``rows``, ``discards``, ``unseen``, ``street``, ``button``
        or ``fantasyland``.
    start : int
        Its first feature.
    size : int
        Its features.

    Examples
    --------
    >>> ObservationEncoding("pineapple", 2).sections[-1]
    Section(name='fantasyland', start=683, size=2)
    """
    name: str
    start: int
    size: int


class ObservationEncoding:
    """The flat 0/1 observation of a variant and table size (the module's table).

    Parameters
    ----------
    variant : Variant or str
        The rules.
    n_players : int
        Seats at the table.

    Attributes
    ----------
    variant : Variant
    n_players : int
    size : int
        Features.
    sections : tuple of Section
        Where each feature group sits.

    Raises
    ------
    RulesError, ArgumentError, TypeError
        An unknown variant, a number of players it does not seat.

    Examples
    --------
    >>> ObservationEncoding("classic", 2).size        # 52 * (5 + 6 + 2) + 9 + 2 + 2
    689
    """

    def __init__(self, variant: Variant | str, n_players: int):
        v = as_variant(variant)
        P = integer(n_players, "n_players", v.min_players, v.max_players)
        schedule = list(deal_schedule(v.first_street, v.streets, v.n_cards))
        R = len(v.row_sizes)
        K = max(d for d, _ in schedule)
        S = len(schedule)
        C = v.deck_size                 # a card plane: 52 cards, then the jokers
        self.variant, self.n_players = v, P
        self._K, self._R, self._S, self._C = K, R, S, C
        sizes = [("dealt", C * K), ("rows", C * P * R), ("discards", C), ("unseen", C),
                 ("street", S), ("button", P), ("fantasyland", P)]
        starts = np.cumsum([0] + [n for _, n in sizes])
        self.sections = tuple(Section(name, int(s), n)
                              for (name, n), s in zip(sizes, starts, strict=False))
        self.size = int(starts[-1])
        self._at = {s.name: s.start for s in self.sections}
        # the plane of every layout slot of seat q (rows top first, slots in a row)
        row_of_slot = np.repeat(np.arange(R), v.row_sizes)
        self._slot_plane = (np.arange(P)[:, None] * R + row_of_slot[None, :]).astype(np.intp)

    def encode(self, obs: dict[str, npt.NDArray[Any]]) -> npt.NDArray[np.int8]:
        """The observation vectors of the rows of :meth:`GameBatch.observe`.

        Parameters
        ----------
        obs : dict of str to ndarray
            What :meth:`ofc_fast.sim.GameBatch.observe` returned (a batch of
            this variant and table size).

        Returns
        -------
        ndarray of int8, shape (k, size)
            One row per row of ``obs`` (a new array).

        Raises
        ------
        ArgumentError
            An observation of another table size or deal width, or without
            one of the arrays it reads.
        TypeError
            ``obs`` is not a mapping.

        Examples
        --------
        >>> from ofc_fast.sim import GameBatch
        >>> b = GameBatch("pineapple", 1, 2, seed=3, policies=["external", "random"])
        >>> o = b.observe()
        >>> x = ObservationEncoding("pineapple", 2).encode(o)[0]
        >>> sorted(np.flatnonzero(x[:260]) % 52) == sorted(o["hand"][0][:5].tolist())
        True
        """
        instance(obs, "obs", Mapping, "what GameBatch.observe returns (a dict of arrays)")
        for key in _READS:
            if key not in obs:
                raise ArgumentError(f"the observation has no {key!r}: pass what "
                                    f"GameBatch.observe returns")
        P, NC = self.n_players, self.variant.n_cards
        for key in _READS:
            a = obs[key]
            if not isinstance(a, np.ndarray) or not (holds_integers(a) or a.dtype == np.bool_):
                raise TypeError(f"obs[{key!r}] must be an integer array (what GameBatch.observe "
                                f"returns), got {shorten(a)}")
        if obs["hand"].ndim != 2 or obs["hand"].shape[1:] != (self._K,) \
                or obs["layouts"].shape[1:] != (P, NC):
            raise ArgumentError(f"the observation is not of a {self.variant.name} table of {P}: "
                                f"hand {obs['hand'].shape}, layouts {obs['layouts'].shape} "
                                f"(want (k, {self._K}) and (k, {P}, {NC}))")
        seat = obs["seat"].astype(np.intp)
        k = len(seat)
        want = {"seat": (k,), "street": (k,), "button": (k,), "hand": (k, self._K),
                "layouts": (k, P, NC), "fantasyland": (k, P), "unseen": (k, self._C)}
        for key, shape in want.items():
            if obs[key].shape != shape:
                raise ArgumentError(f"obs[{key!r}] has shape {obs[key].shape}; an observation of "
                                    f"{k} rows of this table has {shape}")
        if obs["discards"].ndim != 2 or len(obs["discards"]) != k:
            raise ArgumentError(f"obs['discards'] has shape {obs['discards'].shape}, want (k, D)")
        out = np.zeros((k, self.size), np.int8)
        if not k:
            return out
        rows = np.arange(k)[:, None]
        rel = (seat[:, None] + np.arange(P)) % P                         # (k, P) seat q
        # every card shown, with the first feature of its plane: one scatter
        hand, disc = obs["hand"], obs["discards"]
        cards = np.concatenate([hand, obs["layouts"][rows, rel].reshape(k, -1), disc], axis=1)
        C = self._C
        base = np.concatenate([self._at["dealt"] + C * np.arange(hand.shape[1]),
                               self._at["rows"] + C * self._slot_plane.reshape(-1),
                               np.full(disc.shape[1], self._at["discards"])])
        there = cards != EMPTY
        flat = (rows * self.size + base[None, :]) + cards.astype(np.intp)
        out.reshape(-1)[flat[there]] = 1
        u = self._at["unseen"]
        out[:, u:u + C] = obs["unseen"]
        street = obs["street"].astype(np.intp)
        on = street >= 0
        out[np.flatnonzero(on), self._at["street"] + street[on]] = 1
        out[np.arange(k), self._at["button"] + (obs["button"].astype(np.intp) - seat) % P] = 1
        out[:, self._at["fantasyland"]:self._at["fantasyland"] + P] = \
            obs["fantasyland"][rows, rel] > 0
        return out

    def encode_view(self, view: PlayerView | Sequence[PlayerView]) -> npt.NDArray[np.int8]:
        """The observation vector of a :class:`~ofc_fast.PlayerView`
        (``Game.view(seat)``): exactly what :meth:`encode` gives for
        ``GameBatch.observe()`` of the same position, so a network trained on
        the environments plays in :class:`Game` and :class:`Match`
        (:class:`ofc_fast.rl.policy.ObservationPolicy` does it).

        Parameters
        ----------
        view : PlayerView or sequence of PlayerView
            Views of games of this variant and table size.

        Returns
        -------
        ndarray of int8
            Shape ``(size,)`` for one view, ``(k, size)`` for a sequence (new).

        Raises
        ------
        ArgumentError
            A view of another variant or table size.
        TypeError
            Not a PlayerView.

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> from ofc_fast.sim import GameBatch
        >>> b = GameBatch("pineapple", 1, 3, seed=5, policies="external")
        >>> g = ofc.Game("pineapple", 3, seed=5)       # game 0 of the batch: the same deal
        >>> enc = ObservationEncoding("pineapple", 3)
        >>> bool((enc.encode_view(g.view(g.to_act)) == enc.encode(b.observe())[0]).all())
        True
        """
        one = isinstance(view, PlayerView)
        views = [view] if one else view
        if not isinstance(views, Sequence) or not all(isinstance(w, PlayerView) for w in views):
            raise TypeError(f"view must be a PlayerView (Game.view(seat)) or a sequence of "
                            f"them, got {shorten(view)}")
        x = self.encode(self._view_arrays(views))     # type: ignore[arg-type]
        return x[0] if one else x

    def _view_arrays(self, views: Sequence[PlayerView]) -> dict[str, npt.NDArray[Any]]:
        """What ``GameBatch.observe`` shows of these positions (the arrays
        :meth:`encode` reads), from their views."""
        v, P, k = self.variant, self.n_players, len(views)
        for w in views:
            if w.variant.name != v.name or w.n_players != P or w.variant.jokers != v.jokers:
                raise ArgumentError(f"a view of a {w.variant.name} table of {w.n_players} with "
                                    f"{w.variant.jokers} joker(s): this encoding is {v.name}, "
                                    f"{P} players, {v.jokers} joker(s)")
        D = max([len(w.discards) for w in views] + [1])
        obs: dict[str, npt.NDArray[Any]] = {
            "seat": np.array([w.seat for w in views], np.uint8),
            "street": np.array([w.street if w.to_act and w.street is not None else -2
                                for w in views], np.int8),
            "button": np.array([w.button for w in views], np.int8),
            "hand": np.full((k, self._K), EMPTY, np.uint8),
            "layouts": np.array([w.layouts for w in views], np.uint8).reshape(k, P, v.n_cards),
            "discards": np.full((k, D), EMPTY, np.uint8),
            "fantasyland": np.array([[n if d else 0 for d, n in zip(w.fantasyland_deal,
                                                                    w.fantasyland_count,
                                                                    strict=True)]
                                     for w in views], np.uint8).reshape(k, P),
            "unseen": np.zeros((k, self._C), np.bool_)}
        for j, w in enumerate(views):
            dealt = w.hand[:self._K]           # observe() shows as many as a street deals
            obs["hand"][j, :len(dealt)] = dealt
            obs["discards"][j, :len(w.discards)] = w.discards
            obs["unseen"][j, w.unseen] = True
        return obs

    def __repr__(self) -> str:
        return (f"<ObservationEncoding {self.variant.name}, {self.n_players} players, "
                f"{self.size} features>")


def table_text(obs: dict[str, npt.NDArray[Any]], row: int, variant: Variant) -> str:
    """A game of :meth:`GameBatch.observe` as text, from its seat's view (the
    ``render()`` of the environments).

    Parameters
    ----------
    obs : dict of str to ndarray
        What :meth:`~ofc_fast.sim.GameBatch.observe` returned.
    row : int
        Its row to show.
    variant : Variant
        The rules.

    Returns
    -------
    str

    Raises
    ------
    IndexError
        No such row.

    Examples
    --------
    >>> from ofc_fast.sim import GameBatch
    >>> b = GameBatch("pineapple", 1, 2, seed=3, policies=["external", "random"])
    >>> print(table_text(b.observe(), 0, b.variant))
    seat 0 (you, button): - | - | -
    seat 1: Ac | Kc 3s 3h | 2s
    street 0: place Ah 6d 9c Qs 9d (keep 5)
    """
    seat = int(obs["seat"][row])
    P = obs["layouts"].shape[1]
    bounds = np.cumsum([0, *variant.row_sizes])
    lines = []
    for p in range(P):
        lay = obs["layouts"][row, p]
        rows = [format_row([c for c in lay[a:b].tolist() if c != EMPTY]) or "-"
                for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        tags = [t for t, on in (("you", p == seat), ("button", p == int(obs["button"][row])),
                                ("fantasyland", obs["fantasyland"][row, p] > 0)) if on]
        lines.append(f"seat {p}{' (' + ', '.join(tags) + ')' if tags else ''}: "
                     + " | ".join(rows))
    disc = [c for c in obs["discards"][row].tolist() if c != EMPTY]
    if disc:
        lines.append(f"discards: {format_row(disc)}")
    street = int(obs["street"][row])
    if street >= 0:
        hand = [c for c in obs["hand"][row].tolist() if c != EMPTY]
        lines.append(f"street {street}: place {format_row(hand)} (keep {int(obs['keep'][row])})")
    return "\n".join(lines)
