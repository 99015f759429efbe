"""What an environment is, per variant and table: :class:`TableSpec`, one spec
from which the Gymnasium and PettingZoo spaces and the observation encoding
are derived, and the one loop that drives its batch (:func:`deal_on`,
:func:`play`): the environments only translate.

>>> spec = TableSpec.check("pineapple", 3, policies=["external", "heuristic", "random"])
>>> spec.observation_space(), spec.action_space()
(Box(0, 1, (843,), int8), Discrete(1024))
>>> spec.agents
(0,)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ofc_fast._args import choice
from ofc_fast._table import FantasylandLike
from ofc_fast.errors import ArgumentError, shorten
from ofc_fast.rl.encoding import ObservationEncoding
from ofc_fast.rules import Variant
from ofc_fast.sim import TIMEOUT, BatchSpec, GameBatch

__all__ = ["TableSpec", "ILLEGAL", "deal_on", "play"]

ILLEGAL = ("timeout", "raise")
"""What an illegal action does: a time-out for the rest of the hand (flagged
``info["illegal"]``), or a :class:`~ofc_fast.errors.MoveError`."""


@dataclass(frozen=True)
class TableSpec:
    """An environment's table: the batch it drives (its agents are the
    external seats), the observation encoding, what an illegal action does,
    and the spaces derived from them.

    Attributes
    ----------
    batch : BatchSpec
        The games' arguments, checked (``auto_deal`` off: a game waits after
        each hand so its showdown can be observed).
    encoding : ObservationEncoding
    illegal : str
        ``"timeout"`` or ``"raise"`` (:data:`ILLEGAL`).

    Examples
    --------
    >>> TableSpec.check("classic", 2, policies="external").agents
    (0, 1)
    """

    batch: BatchSpec
    encoding: ObservationEncoding
    illegal: str = "timeout"

    @classmethod
    def check(cls, variant: Variant | str = "pineapple", n_players: object = 2, *,
              policies: object = "external", fantasyland: FantasylandLike = None,
              auto: object = True, illegal: object = "timeout") -> TableSpec:
        """Check an environment's arguments (the batch's, through
        :class:`~ofc_fast.sim.BatchSpec`).

        Parameters
        ----------
        variant, n_players, policies, fantasyland, auto
            As for :class:`~ofc_fast.sim.GameBatch`; the ``"external"`` seats
            are the agents (at least one).
        illegal : {"timeout", "raise"}

        Returns
        -------
        TableSpec

        Raises
        ------
        ArgumentError, TypeError, RulesError
            Bad arguments; no external seat.
        """
        spec = BatchSpec.check(variant, n_players, policies=policies, fantasyland=fantasyland,
                               auto=auto, auto_deal=False)
        if not spec.external:
            raise ArgumentError(f"an environment's agents are its external seats; policies "
                                f"{shorten(policies)} names none")
        return cls(spec, ObservationEncoding(spec.variant, spec.n_players),
                   choice(illegal, "illegal", ILLEGAL))

    @property
    def agents(self) -> tuple[int, ...]:
        """The agents' seats (the external seats)."""
        return self.batch.external

    @property
    def action_size(self) -> int:
        """Actions of a seat (:func:`ofc_fast.sim.action_size`)."""
        return self.batch.action_size

    def observation_space(self) -> spaces.Box[np.int8]:
        """``Box(0, 1, (size,), int8)``: the encoded view of a seat."""
        return spaces.Box(0, 1, (self.encoding.size,), np.int8)

    def action_space(self) -> spaces.Discrete:
        """``Discrete(action_size)``: the dealt cards' destinations as digits."""
        return spaces.Discrete(self.action_size)

    def masked_observation_space(self) -> spaces.Dict:
        """``Dict(observation=Box, action_mask=Box)`` (PettingZoo's classic games' form)."""
        return spaces.Dict({"observation": self.observation_space(),
                            "action_mask": spaces.Box(0, 1, (self.action_size,), np.int8)})

    def new_batch(self, n_games: int, seed: object, n_threads: int | None = 1) -> GameBatch:
        """A new batch of ``n_games`` games (new matches)."""
        return GameBatch.from_spec(self.batch, n_games, seed=seed,     # type: ignore[arg-type]
                                   n_threads=n_threads)


def deal_on(batch: GameBatch, games: npt.NDArray[np.int64], *,
            hands: int | None = None) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Deal the next hand of those ``games`` whose hand is over, again while a
    dealt hand is played out without an agent (an agent's fantasyland hand),
    until an agent acts in each (or it has played ``hands`` hands).

    Returns
    -------
    rewards : ndarray of int64, shape (n_games, n_players)
        Points of the hands finished meanwhile.
    done : ndarray of bool, shape (n_games,)
        A hand of the game finished meanwhile.
    """
    rewards = np.zeros((batch.n_games, batch.n_players), np.int64)
    done = np.zeros(batch.n_games, np.bool_)
    games = games[batch.over[games]]
    while len(games):
        if hands is not None:
            games = games[batch.hands_played[games] < hands]
            if not len(games):
                break
        r, d = batch.next_hand(games)
        rewards += r
        done |= d
        games = games[batch.over[games]]
    return rewards, done


def play(batch: GameBatch, actions: npt.NDArray[np.int64], legal: npt.NDArray[np.bool_],
         illegal: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Play one action per waiting game (``legal``: whether each is legal);
    an illegal one times the seat out (``illegal="timeout"``) or is refused
    with a MoveError (``"raise"``, nothing played).  The rewards and done
    flags of :meth:`GameBatch.step`."""
    if illegal == "timeout":
        actions = np.where(legal, actions, TIMEOUT)
    return batch.step(actions)
