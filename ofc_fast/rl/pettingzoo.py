"""A PettingZoo AEC environment: one game of OFC, every seat an agent
(``player_0`` ... in seat order), as PettingZoo's classic games are built.

* Observation of an agent: ``{"observation": Box(0, 1, (size,), int8),
  "action_mask": Box(0, 1, (action_size,), int8)}``, its view as
  :class:`~ofc_fast.rl.encoding.ObservationEncoding` lays it out; the mask
  is all zeros but for the agent to act.
* Action: ``Discrete(action_size)``, the destinations of the dealt cards
  (:func:`ofc_fast.sim.action_of`).
* Episode: ``hands`` hands of a match (default 1; fantasyland earned is
  played in the next hand, by the engine's exact solver, and the button
  moves).  Every agent is rewarded its points at the end of each hand
  (the rewards of an episode add up to the match's scores).
  ``reset(seed=s)``: hand ``k`` is what ``Match(variant, n_players,
  seed=s)`` deals.
* At the end of each hand every agent's ``infos[agent]`` holds its seat's
  figures of that hand (:data:`~ofc_fast.rl.gym.HAND_INFO`: ``points``,
  ``foul``, ``royalty_total``, ``next_fantasyland``, ``fantasyland_count``),
  until it next acts.
* An action outside the action space is an :class:`~ofc_fast.errors.ArgumentError`;
  an illegal one a time-out for the rest of the agent's hand
  (``illegal="timeout"``, flagged ``infos[agent]["illegal"]``) or a
  :class:`~ofc_fast.errors.MoveError` (``illegal="raise"``).  ``step()`` or
  ``last()`` before ``reset()``, and ``step()`` once every agent is done, are
  a :class:`~ofc_fast.errors.StateError`, through :func:`env` as through the
  raw environment.

The game is turn-based: one seat acts at a time, and what it is dealt and
sees depends on the moves before it (the cards placed, the discards, who
is dead).  So the environment is an AEC one, and there is no parallel
form: a ``ParallelEnv`` steps every agent at once, and here, but for the
agent to act, every agent's action would be a no-op.  For one learner
playing every seat against its own snapshot, :class:`SelfPlayEnv` is a
Gymnasium view of this environment (docs/sim.md gives the MaskablePPO recipe).

>>> env = OFCAECEnv("pineapple", n_players=3)
>>> env.reset(seed=2)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)
>>> sorted(env.possible_agents), env.agents
(['player_0', 'player_1', 'player_2'], [])
"""
from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ofc_fast._args import choice, integer
from ofc_fast._table import FantasylandLike
from ofc_fast.errors import ArgumentError, StateError, shorten
from ofc_fast.rl.encoding import table_text
from ofc_fast.rl.gym import _action, hand_info
from ofc_fast.rl.spec import TableSpec, deal_on, play
from ofc_fast.rules import Variant
from ofc_fast.sim import GameBatch

__all__ = ["OFCAECEnv", "env", "raw_env", "SelfPlayEnv"]

_ObsDict = dict[str, npt.NDArray[np.int8]]
_Last = tuple[_ObsDict | None, float, bool, bool, dict[str, Any]]


class OFCAECEnv(AECEnv[str, _ObsDict, int]):
    """One game of OFC for PettingZoo, every seat an agent (module docstring).

    Parameters
    ----------
    variant : Variant or str
        The rules (not ``chinese``).
    n_players : int
        Seats (agents ``player_0`` ...).
    hands : int
        Hands an episode plays (a match: fantasyland carried).
    fantasyland : None, list or dict per seat
        Fantasyland of the first hand.
    auto : bool
        Automatic moves (docs/rules.md section 9).
    illegal : {"timeout", "raise"}
        What an illegal action does.
    render_mode : {None, "ansi", "human"}
        ``render()`` returns the table as the agent to act sees it, or prints it.

    Raises
    ------
    ArgumentError, TypeError, RulesError
        Bad arguments (the library's checks, as :class:`~ofc_fast.sim.GameBatch`'s).

    Examples
    --------
    >>> env = OFCAECEnv("classic", 2, hands=3)
    >>> env.reset(seed=1)
    >>> env.agent_selection, env.action_space("player_0")
    ('player_1', Discrete(1024))
    """

    metadata = {"name": "ofc_fast_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, variant: Variant | str = "pineapple", n_players: int = 2, *,
                 hands: int = 1, fantasyland: FantasylandLike = None, auto: bool = True,
                 illegal: str = "timeout", render_mode: str | None = None):
        super().__init__()
        self.table = TableSpec.check(variant, n_players, policies="external",
                                     fantasyland=fantasyland, auto=auto, illegal=illegal)
        self.hands = integer(hands, "hands", 1, 2**31 - 1)
        self.illegal = self.table.illegal
        self.render_mode = None if render_mode is None else \
            choice(render_mode, "render_mode", ("ansi", "human"))
        self.variant, self.n_players = self.table.batch.variant, self.table.batch.n_players
        self.encoding = self.table.encoding
        self.possible_agents = [f"player_{p}" for p in range(self.n_players)]
        self.agents: list[str] = []
        self.agent_selection = self.possible_agents[0]   # last() before reset(): StateError
        self._obs_space = self.table.masked_observation_space()
        self._act_space = self.table.action_space()
        self._batch: GameBatch | None = None
        self._view: dict[str, npt.NDArray[Any]] = {}
        self._owed = np.zeros(self.n_players, np.int64)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``Dict(observation=Box, action_mask=Box)`` (the same for every agent).

        Parameters
        ----------
        agent : str
            An agent (all have the same space).

        Returns
        -------
        gymnasium.spaces.Dict
        """
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(action_size)`` (the same for every agent).

        Parameters
        ----------
        agent : str
            An agent (all have the same space).

        Returns
        -------
        gymnasium.spaces.Discrete
        """
        return self._act_space

    @property
    def batch(self) -> GameBatch:
        """The game (a :class:`~ofc_fast.sim.GameBatch` of one), after :meth:`reset`."""
        if self._batch is None:
            raise StateError("call reset() first")
        return self._batch

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match: its first hand dealt, the first agent to act selected.

        Parameters
        ----------
        seed : int, optional
            The match's seed (None: fresh entropy).
        options : dict, optional
            Not used.
        """
        self._batch = self.table.new_batch(1, seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._owed = self._settle()        # hands no agent acted in come with the first step

    def _settle(self) -> npt.NDArray[np.int64]:
        """Deal on after a hand (until ``hands`` are played, then terminate
        every agent) and select the agent to act; the points of the hands
        finished meanwhile."""
        b = self.batch
        rewards, _ = deal_on(b, np.zeros(1, np.int64), hands=self.hands)
        if b.over[0]:
            self.terminations = dict.fromkeys(self.agents, True)
            self._view = {}
        else:
            self._view = b.observe()
            self.agent_selection = self.possible_agents[int(self._view["seat"][0])]
        won: npt.NDArray[np.int64] = rewards[0]
        return won

    def observe(self, agent: str) -> _ObsDict:
        """The agent's observation (a new dict of new arrays).

        Parameters
        ----------
        agent : str

        Returns
        -------
        dict
            ``observation`` and ``action_mask`` (int8).

        Raises
        ------
        ArgumentError, TypeError
            Not an agent of :attr:`possible_agents`.
        StateError
            Before :meth:`reset`.
        """
        p = self.possible_agents.index(choice(agent, "agent", self.possible_agents))
        acting = bool(self._view) and int(self._view["seat"][0]) == p
        o = self._view if acting else self.batch.observe([0], p, legal=False, mask=False)
        mask = o["mask"][0].view(np.int8).copy() if acting else \
            np.zeros(self._act_space.n, np.int8)
        return {"observation": self.encoding.encode(o)[0], "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (None for an agent done).

        Parameters
        ----------
        action : int or None

        Raises
        ------
        ArgumentError, TypeError
            An action outside the action space (or None for a live agent), or
            an action other than None for an agent done.
        MoveError
            An illegal action with ``illegal="raise"`` (nothing is played).
        StateError
            Before :meth:`reset`, or after every agent is done (reset first).
        """
        self._live_episode()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ArgumentError(f"{agent} is done: its only action is None, got "
                                    f"{shorten(action)}")
            # pettingzoo types it int, but a dead agent's action is None by its API
            self._was_dead_step(action)  # pyright: ignore[reportArgumentType]
            return
        a = _action(action, int(self._act_space.n))
        b = self.batch
        legal = bool(self._view["mask"][0, a])
        won, done = play(b, np.array([a]), np.array([legal]), self.illegal)
        self.infos[agent] = {"illegal": not legal} if not legal else {}
        if done[0]:                     # the hand's figures, each agent its seat's
            hand = hand_info(b.last_hands([0]))
            for p, ag in enumerate(self.possible_agents):
                if ag in self.infos:
                    self.infos[ag].update((key, col[0, p].item()) for key, col in hand.items())
        self._cumulative_rewards[agent] = 0.0
        won = won[0] + self._settle() + self._owed
        self._owed[...] = 0
        self.rewards = {ag: float(won[p]) for p, ag in enumerate(self.possible_agents)
                        if ag in self.rewards}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _live_episode(self) -> None:
        if not self.agents:
            raise StateError("call reset() first" if self._batch is None else
                             "the episode is over (every agent is done): call reset() first")

    def last(self, observe: bool = True) -> _Last:
        """The selected agent's observation, cumulative reward, termination,
        truncation and info (PettingZoo's ``last``).

        Parameters
        ----------
        observe : bool
            Include the observation (else None).

        Returns
        -------
        tuple

        Raises
        ------
        StateError
            Before :meth:`reset`, or after every agent is done (reset first).
        """
        self._live_episode()
        out: _Last = super().last(observe)
        return out

    def render(self) -> str | None:
        """The table as the agent to act sees it (the showdown at the end).

        Returns
        -------
        str or None
            The text (``"ansi"``); printed in ``"human"`` mode.
        """
        if self.render_mode is None:
            return None
        o = self._view or self.batch.observe([0], 0, legal=False, mask=False)
        text = table_text(o, 0, self.variant)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to free (the game is memory only)."""


class _OrderEnforcing(wrappers.OrderEnforcingWrapper[str, _ObsDict, int]):
    """PettingZoo's order-enforcing wrapper, the library's checks first: its
    ``step()`` before ``reset()`` was a bare AssertionError, ``last()`` an
    AttributeError, and ``step()`` after the episode only logged a warning."""

    def _reset_first(self, what: str) -> None:
        if not self._has_reset:
            raise StateError(f"call reset() before {what}")

    def step(self, action: int) -> None:
        self._reset_first("step()")
        if not self.env.agents:
            raise StateError("the episode is over (every agent is done): call reset() first")
        super().step(action)

    def last(self, observe: bool = True) -> _Last:
        self._reset_first("last()")
        out: _Last = self.env.last(observe)
        return out

    def observe(self, agent: str) -> _ObsDict | None:
        self._reset_first("observe()")
        out: _ObsDict | None = super().observe(agent)
        return out

    def render(self) -> Any:
        self._reset_first("render()")
        return super().render()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        self._reset_first("agent_iter()")
        return super().agent_iter(max_iter)


def env(**kwargs: Any) -> Any:
    """:class:`OFCAECEnv` in PettingZoo's order-enforcing wrapper (as its
    classic games' ``env()``), whose errors are the library's:
    ``step()``, ``last()``, ``observe()``, ``render()`` and ``agent_iter()``
    before ``reset()``, and ``step()`` once every agent is done, are a
    :class:`~ofc_fast.errors.StateError`.

    Parameters
    ----------
    **kwargs
        Arguments of :class:`OFCAECEnv`.

    Returns
    -------
    pettingzoo.utils.wrappers.OrderEnforcingWrapper
        (a subclass, the library's checks first).

    Raises
    ------
    ArgumentError, TypeError, RulesError
        Bad arguments, as :class:`OFCAECEnv`.

    Examples
    --------
    >>> e = env(variant="turbo", n_players=3)
    >>> e.reset(seed=0)
    >>> e.unwrapped.batch.n_players
    3
    """
    return _OrderEnforcing(OFCAECEnv(**kwargs))


raw_env = OFCAECEnv
"""PettingZoo's name of the unwrapped environment class."""


class SelfPlayEnv(gym.Env[npt.NDArray[np.int8], np.int64]):
    """One learner's seat of an :class:`OFCAECEnv`, the other seats played
    by a function over observations (the learner's own snapshot, for
    self-play): a Gymnasium environment with ``action_masks()``, so
    sb3-contrib's ``MaskablePPO`` trains on it as it is.

    An episode is the AEC environment's (``hands`` hands of a match); the
    learner sits at seat ``k % n_players`` in episode ``k`` (every seat in
    turn).  A step plays its action, then the others' turns up to its next
    (``opponent(observations, masks) -> actions``, one row at a time); the
    reward is what the AEC environment paid the learner meanwhile, so an
    episode's rewards are its points.

    Parameters
    ----------
    opponent : callable or None
        ``fn(observations, masks) -> actions``
        (:data:`~ofc_fast.rl.policy.ObservationFn`; a stable-baselines3
        model: ``lambda obs, mask: model.predict(obs, action_masks=mask)[0]``);
        None: a random legal action.  An attribute: set it again to play
        against a newer snapshot.
    **kwargs
        Arguments of :class:`OFCAECEnv` (``variant``, ``n_players``,
        ``hands``, ...).

    Attributes
    ----------
    aec : OFCAECEnv
        The game.
    learner : str
        The learner's agent this episode.

    Raises
    ------
    ArgumentError, TypeError, RulesError
        Bad arguments, as :class:`OFCAECEnv`.

    Examples
    --------
    >>> env = SelfPlayEnv(variant="pineapple", n_players=2)
    >>> obs, info = env.reset(seed=1)
    >>> done, total = False, 0.0
    >>> while not done:
    ...     a = int(np.flatnonzero(env.action_masks())[0])
    ...     obs, reward, done, _, info = env.step(a)
    ...     total += reward
    >>> bool(total == env.aec.batch.scores[0, 0])
    True
    """

    metadata = {"render_modes": []}

    def __init__(self, opponent: Any = None, **kwargs: Any) -> None:
        if opponent is not None and not callable(opponent):
            raise TypeError(f"opponent must be a function fn(observations, masks) -> actions "
                            f"or None, got {shorten(opponent)}")
        self.aec = OFCAECEnv(**kwargs)
        self.opponent = opponent
        self.observation_space = self.aec.table.observation_space()
        self.action_space = self.aec.table.action_space()
        self.learner = self.aec.possible_agents[0]
        self._episodes = 0
        self._mask: npt.NDArray[np.int8] | None = None

    def _others(self) -> tuple[npt.NDArray[np.int8], float, bool, dict[str, Any]]:
        """Play the other agents up to the learner's turn (or its end): its
        observation, reward meanwhile, termination and info."""
        e = self.aec
        while True:
            agent = e.agent_selection
            obs, reward, term, trunc, info = e.last()
            assert obs is not None
            if agent == self.learner:
                self._mask = None if term or trunc else obs["action_mask"]
                return obs["observation"], float(reward), term or trunc, dict(info)
            if term or trunc:
                e.step(None)  # pyright: ignore[reportArgumentType]  (a dead agent's: None)
            elif self.opponent is None:
                e.step(int(self.np_random.choice(np.flatnonzero(obs["action_mask"]))))
            else:
                got = self.opponent(obs["observation"][None], obs["action_mask"][None] > 0)
                e.step(int(integer(np.asarray(got).reshape(-1)[0], "the opponent's action")))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.int8],
                                                              dict[str, Any]]:
        """A new match, the learner at the next seat in turn.

        Parameters
        ----------
        seed : int, optional
            The match's seed (None: drawn from ``np_random``).
        options : dict, optional
            Not used.

        Returns
        -------
        obs, info
        """
        super().reset(seed=seed)
        s = seed if seed is not None else int(self.np_random.integers(2**63))
        self.aec.reset(seed=s)
        P = len(self.aec.possible_agents)
        self.learner = self.aec.possible_agents[self._episodes % P]
        self._episodes += 1
        obs, _, _, info = self._others()
        return obs, info

    def step(self, action: Any) -> tuple[npt.NDArray[np.int8], float, bool, bool,
                                         dict[str, Any]]:
        """Play the learner's action and the others' turns up to its next.

        Parameters
        ----------
        action : int

        Returns
        -------
        obs, reward, terminated, truncated, info

        Raises
        ------
        StateError
            Before :meth:`reset`, or after the episode ended.
        """
        if self._mask is None:
            raise StateError("call reset() first" if self.aec._batch is None else
                             "the episode is over: call reset() first")
        self.aec.step(action)
        obs, reward, done, info = self._others()
        return obs, reward, done, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now (bool; MaskablePPO asks for them).

        Returns
        -------
        ndarray of bool

        Raises
        ------
        StateError
            Before :meth:`reset` or after the episode ended (no mask
            without a legal action reaches a learner).
        """
        if self._mask is None:
            raise StateError("no decision to make: call reset() first")
        return self._mask > 0
