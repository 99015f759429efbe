"""A trained network back at the table: :class:`ObservationPolicy`, a policy
built from a function over the environments' observations, that plays in
:class:`~ofc_fast.Game` and :class:`~ofc_fast.Match` (a
:class:`~ofc_fast.policies.Policy`) and as a seat of
:class:`~ofc_fast.sim.GameBatch` (an :class:`~ofc_fast.sim.spec.ArrayPolicy`,
played in Python between the C calls), seeing exactly what the
environments show (numpy only).

The function takes a batch of observation vectors and their action masks
and returns one action per row, the form of a stable-baselines3 model's
``predict``::

    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load("ofc.zip")
    pol = ObservationPolicy(
        lambda obs, mask: model.predict(obs, action_masks=mask, deterministic=True)[0],
        "pineapple", 3)
    Match("pineapple", 3, n_hands=10, policies=[pol, HeuristicPolicy(1), RandomPolicy(2)])

>>> import numpy as np
>>> import ofc_fast as ofc
>>> first = ObservationPolicy(lambda obs, mask: mask.argmax(axis=1), "pineapple", 2)
>>> sum(ofc.Game("pineapple", 2, seed=1).run([first, ofc.RandomPolicy(2)]).points)
0
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ofc_fast._args import int_array, points
from ofc_fast.errors import shorten
from ofc_fast.moves import Move, MoveList, PlayerView
from ofc_fast.policies import RolloutParams, fantasyland_move
from ofc_fast.rl.encoding import ObservationEncoding
from ofc_fast.rules import Variant

__all__ = ["ObservationPolicy", "ObservationFn"]

ObservationFn = Callable[[npt.NDArray[np.int8], npt.NDArray[np.bool_]], npt.ArrayLike]
"""``fn(observations, masks) -> actions``: observation vectors ``(k, size)``
int8 (:class:`~ofc_fast.rl.encoding.ObservationEncoding`), the legal actions
``(k, action_size)`` bool, one action per row."""


class ObservationPolicy:
    """A policy over observations: ``fn(observations, masks) -> actions``
    chooses, and the same function plays a :class:`~ofc_fast.Game`, a
    :class:`~ofc_fast.Match` and a :class:`~ofc_fast.sim.GameBatch` seat.

    In a game it sees ``ObservationEncoding.encode_view(view)`` and the
    mask of the legal moves' actions (:meth:`MoveList.action_mask`), and its
    action is played as ``moves.from_action(action)``; in a batch it sees
    ``encode(observe())`` and ``observe()["mask"]`` of the games waiting on
    its seat, all at once.  Fantasyland hands are set by the exact solver,
    as the engine sets an external seat's (:func:`~ofc_fast.policies.fantasyland_move`,
    a repeat worth ``fantasyland_value``), so a batch seat and the policy in
    a :class:`Match` play alike.

    Parameters
    ----------
    fn : callable
        ``fn(observations, masks) -> actions`` (:data:`ObservationFn`); an
        action must be legal (a :class:`~ofc_fast.errors.MoveError` else).
    variant : Variant or str
        The rules it plays.
    n_players : int
        Seats at its tables.
    fantasyland_value : float
        Points a fantasyland repeat is worth to the solver of its fantasyland hands.

    Attributes
    ----------
    encoding : ObservationEncoding
        What it sees.
    fantasyland_value : float

    Raises
    ------
    TypeError
        ``fn`` not callable.
    ArgumentError, RulesError
        A bad variant, table size or ``fantasyland_value``.

    Examples
    --------
    >>> from ofc_fast.sim import GameBatch
    >>> pol = ObservationPolicy(lambda obs, mask: mask.argmax(axis=1), "pineapple", 2)
    >>> b = GameBatch("pineapple", 100, 2, seed=1, policies=[pol, "random"])
    >>> points = b.run(hands=1)
    >>> points.shape, int(b.hands_played.sum())
    ((100, 2), 100)
    """

    def __init__(self, fn: ObservationFn, variant: Variant | str = "pineapple",
                 n_players: int = 2, *,
                 fantasyland_value: float = RolloutParams.fantasyland_value) -> None:
        if not callable(fn):
            raise TypeError(f"fn must be a function fn(observations, masks) -> actions, got "
                            f"{shorten(fn)}")
        self.fn = fn
        self.encoding = ObservationEncoding(variant, n_players)
        self.fantasyland_value = points(fantasyland_value, "fantasyland_value")

    def _actions(self, x: npt.NDArray[np.int8],
                 mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        got = self.fn(x, mask)
        return int_array(got, "the actions fn returned", (len(x),), 0, mask.shape[1] - 1)

    def act(self, obs: dict[str, npt.NDArray[Any]]) -> npt.NDArray[np.int64]:
        """Actions for rows of :meth:`GameBatch.observe` (a batch seat).

        Parameters
        ----------
        obs : dict of str to ndarray
            The observation of games waiting on this policy's seat (with ``mask``).

        Returns
        -------
        ndarray of int64

        Raises
        ------
        ArgumentError
            An observation of another table, without ``mask``; ``fn``
            returning other than one action of the space per row.
        """
        return self._actions(self.encoding.encode(obs), obs["mask"])

    def choose(self, view: PlayerView, moves: MoveList) -> Move:
        """The move of ``fn``'s action (a :class:`~ofc_fast.policies.Policy`).

        Parameters
        ----------
        view : PlayerView
            What the player to act sees.
        moves : MoveList
            Its legal moves.

        Returns
        -------
        Move

        Raises
        ------
        MoveError
            ``fn`` chose an action that is not a legal move.
        ArgumentError
            A view of another table; ``fn`` returning other than one action.
        """
        if view.street == -1:
            return fantasyland_move(view, moves, self.fantasyland_value)
        mask = moves.action_mask()
        a = self._actions(self.encoding.encode_view([view]), mask[None])
        return moves.from_action(int(a[0]))

    def __repr__(self) -> str:
        name = getattr(self.fn, "__qualname__", type(self.fn).__name__)
        return (f"ObservationPolicy({name}, {self.encoding.variant.name!r}, "
                f"{self.encoding.n_players})")
