"""Gymnasium environments: one seat against built-in opponents, one game
(:class:`OFCEnv`) or ``num_envs`` games in one :class:`~ofc_fast.sim.GameBatch`
(:class:`OFCVectorEnv`, a ``gymnasium.vector.VectorEnv``).

* Observation: ``Box(0, 1, (size,), int8)``, the seat's view as
  :class:`~ofc_fast.rl.encoding.ObservationEncoding` lays it out.
* Action: ``Discrete(action_size)``, the destinations of the dealt cards as
  base ``R + 1`` digits (:func:`ofc_fast.sim.action_of`); the legal ones in
  ``info["action_mask"]`` (int8, ``action_space.sample(mask=...)`` takes it).
* Episode: one hand the seat plays.  The reward is its points, at the step
  that ends the hand, plus the points of the hands that follow before it
  acts again (hands it plays in fantasyland, set by the exact solver: the
  worth of the fantasyland it earned); the rewards of a match add up to
  its score (hands played before the seat's first action come with that
  action's reward).  The game is a match: the next
  episode is its next hand (the button moves, fantasyland carries);
  ``reset(seed=...)`` starts a new match (hand ``k`` of match seed ``s`` is
  what ``Match(variant, n_players, seed=s)`` deals: ``reset(seed=s)`` deals
  what ``Game(variant, n_players, seed=s)`` deals).
* An action outside the action space is an :class:`~ofc_fast.errors.ArgumentError`
  (``TypeError`` for a non-integer).  A legal-looking but illegal action is,
  by default (``illegal="timeout"``), a time-out: the rules' default
  placement for the rest of the hand (docs/rules.md section 9), flagged
  ``info["illegal"]``; with ``illegal="raise"`` it is a
  :class:`~ofc_fast.errors.MoveError` and nothing is played.

>>> env = OFCEnv("pineapple", n_players=2, policies="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, env.action_space, int(info["action_mask"].sum())
((685,), Discrete(1024), 232)
>>> done = False
>>> while not done:
...     action = env.action_space.sample(mask=info["action_mask"])
...     obs, reward, done, truncated, info = env.step(action)
>>> bool(reward == env.batch.scores[0, 0] == -env.batch.scores[0, 1])   # zero-sum
True
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ofc_fast._args import choice, fits_memory, holds_integers, int_array, integer
from ofc_fast._batch import STATE_BYTES
from ofc_fast._table import FantasylandLike
from ofc_fast._table import n_players as n_players_of
from ofc_fast.deprecation import UNSET, warn_renamed
from ofc_fast.errors import ArgumentError, StateError
from ofc_fast.rl.encoding import table_text
from ofc_fast.rl.spec import ILLEGAL, TableSpec, deal_on, play
from ofc_fast.rules import Variant, as_variant
from ofc_fast.sim import FinishedHands, GameBatch, PolicyLike
from ofc_fast.sim.spec import _is_seat_policy

__all__ = ["OFCEnv", "OFCVectorEnv", "ILLEGAL", "HAND_INFO", "hand_info"]

_Obs = npt.NDArray[np.int8]

HAND_INFO = ("points", "foul", "royalty_total", "next_fantasyland", "fantasyland_count")
"""What ``info`` holds of a hand at its end, per seat (:class:`~ofc_fast.sim.FinishedHands`'s
columns): its points, whether the seat fouled, its royalties, the
fantasyland deal it earned (0: none), its fantasyland count in that hand
(0: it played the streets)."""


def hand_info(hands: FinishedHands) -> dict[str, npt.NDArray[Any]]:
    """The :data:`HAND_INFO` columns of finished hands (rows as ``hands``,
    seats in seat order).

    Parameters
    ----------
    hands : FinishedHands
        From :meth:`GameBatch.last_hands`.

    Returns
    -------
    dict of str to ndarray
        Copies, shape ``(len(hands), n_players)``.

    Raises
    ------
    AttributeError
        Not finished hands.

    Examples
    --------
    >>> h = GameBatch("pineapple", 2, 2, seed=1).run_recorded(1)
    >>> info = hand_info(h)
    >>> sorted(info)[:3], info["foul"].shape, info["points"].sum(axis=1).tolist()
    (['fantasyland_count', 'foul', 'next_fantasyland'], (2, 2), [0, 0])
    """
    return {key: getattr(hands, key).copy() for key in HAND_INFO}


def _seat_policies(policies: object, seat: object, n_players: object, variant: Variant,
                   opponents: object = UNSET) -> tuple[int, list[Any]]:
    """The agent's seat and the batch's policy per seat (``"external"`` at
    the agent's): ``policies`` is one policy for every other seat, or one
    per seat with ``"external"`` at the agent's (which then gives the seat).
    ``opponents`` is 0.3's spelling: one policy, or one per other seat."""
    P = n_players_of(n_players, variant)
    s = None if seat is None else integer(seat, "seat", 0, P - 1)
    if opponents is not UNSET:
        # warn_renamed -> here -> _Seat -> the environment -> the user's line
        warn_renamed("opponents=", "policies=", since="0.4", stacklevel=5)
        if not (isinstance(policies, str) and policies == "random"):
            raise ArgumentError("give policies= only (opponents= is its deprecated spelling)")
        if _per_seat(opponents):
            others = list(opponents)        # type: ignore[call-overload]
            if len(others) != P - 1:
                raise ArgumentError(f"opponents must give one policy per other seat ({P - 1}), "
                                    f"got {len(others)}")
            s = 0 if s is None else s
            return s, others[:s] + ["external"] + others[s:]
        policies = opponents
    if _per_seat(policies):
        seats = list(policies)              # type: ignore[call-overload]
        if len(seats) != P:
            raise ArgumentError(f"policies must give one policy per seat ({P}), 'external' at "
                                f"the agent's, got {len(seats)}")
        agent = [i for i, p in enumerate(seats) if isinstance(p, str) and p == "external"]
        if len(agent) != 1:
            raise ArgumentError(f"policies must name one seat 'external' (the agent's), "
                                f"got {len(agent)}")
        if s is not None and s != agent[0]:
            raise ArgumentError(f"seat={s}, but policies names seat {agent[0]} 'external'")
        return agent[0], seats
    s = 0 if s is None else s
    return s, [policies] * s + ["external"] + [policies] * (P - 1 - s)


def _per_seat(policies: object) -> bool:
    """A list of policies, one per seat (not one policy: a name, a
    ``(name, options)`` pair, a policy object)."""
    return isinstance(policies, (list, np.ndarray)) or (
        isinstance(policies, tuple) and not _is_seat_policy(policies))


def _action(action: object, n: int) -> int:
    """One action of ``Discrete(n)``: an integer, or a 0-d integer array
    (``Discrete.contains`` counts one in the space)."""
    if isinstance(action, np.ndarray) and action.shape == () and holds_integers(action):
        action = action[()]
    return integer(action, "action", 0, n - 1)


def _seed(seed: object, name: str) -> int | None:
    """A ``reset(seed=)``: None or an integer >= 0, as the Python int Gymnasium's
    seeding takes (it refuses numpy integers, with its own error class)."""
    return None if seed is None else integer(seed, name, 0)


class _Seat:
    """One agent's seat in every game of a batch against built-in opponents:
    what :class:`OFCEnv` and :class:`OFCVectorEnv` drive (games wait after
    each hand, and are dealt on before the seat acts)."""

    def __init__(self, variant: Variant | str, n_envs: int, n_players: int, seat: int | None,
                 policies: PolicyLike | Sequence[PolicyLike], fantasyland: FantasylandLike,
                 auto: bool, illegal: str, n_threads: int | None, opponents: object = UNSET):
        v = as_variant(variant)
        self.seat, policies = _seat_policies(policies, seat, n_players, v, opponents)
        self.table = TableSpec.check(v, n_players, policies=policies, fantasyland=fantasyland,
                                  auto=auto, illegal=illegal)
        if len(self.table.agents) > 1:       # by name or as a (name, options) pair
            raise ArgumentError("the other seats play built-in policies (random, greedy, "
                                "heuristic, racing, solver), not 'external'")
        self.n = integer(n_envs, "num_envs", 1, 2**31 - 1)
        b = self.table.batch
        # the batch's C state, its observation (mask and legal lists), the
        # encoded vectors (and the final ones of a step)
        fits_memory(self.n * (int(STATE_BYTES) + 256 + b.action_size + 4 * b.max_legal
                              + 2 * self.table.encoding.size),
                    f"{self.n:,} games of an environment")
        self.threads = n_threads
        self.n_actions = self.table.action_size
        self.encoding = self.table.encoding
        self.batch: GameBatch | None = None
        self._mask = np.zeros((0, self.n_actions), np.bool_)
        self._owed = np.zeros(0, np.int64)   # points of hands before the seat's first action
        self.lists = False                  # observe the legal-action lists too
        self._obs: dict[str, npt.NDArray[Any]] = {}

    def start(self, seed: int | Sequence[int]) -> tuple[_Obs, npt.NDArray[np.int8]]:
        """A new batch (a new match in every game): the first observations."""
        self.batch = self.table.new_batch(self.n, seed, self.threads)
        self._obs = {}
        rewards, _ = deal_on(self.batch, np.arange(self.n))
        self._owed = rewards[:, self.seat].copy()
        return self._observe()

    def _live(self) -> GameBatch:
        if self.batch is None:
            raise StateError("call reset() first")
        return self.batch

    def _observe(self) -> tuple[_Obs, npt.NDArray[np.int8]]:
        o = self._live().observe(legal=self.lists, out=self._obs or None)
        self._obs, self._mask = o, o["mask"]
        return self.encoding.encode(o), o["mask"].view(np.int8)

    def step(self, actions: object) -> tuple[_Obs, npt.NDArray[np.int8], npt.NDArray[np.float64],
                                             npt.NDArray[np.bool_], _Obs,
                                             npt.NDArray[np.bool_], dict[str, npt.NDArray[Any]]]:
        """Play one action per game: ``(obs, mask, reward, done, final_obs of
        the games done, illegal, hand_info of the games done)``.  The reward
        of a game is its seat's points of the hands finished by this step
        and by the dealing on after it (hands it plays in fantasyland), plus
        what hands before its first action earned; the hand info is of the
        hand the step ended (:func:`hand_info`)."""
        b = self._live()
        a = int_array(actions, "actions", (self.n,), 0, self.n_actions - 1)
        legal = self._mask[np.arange(self.n), a]
        rewards, done = play(b, a, legal, self.table.illegal)
        ended = np.flatnonzero(done)
        final = self.encoding.encode(b.observe(ended, self.seat, legal=False, mask=False)) \
            if len(ended) else np.zeros((0, self.encoding.size), np.int8)
        info = hand_info(b.last_hands(ended))
        more, _ = deal_on(b, ended)
        reward = (rewards + more)[:, self.seat] + self._owed
        self._owed[...] = 0
        obs, mask = self._observe()
        return obs, mask, reward.astype(np.float64), done, final, ~legal, info

    def masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of each game's decision now (a copy)."""
        self._live()
        out: npt.NDArray[np.bool_] = self._mask.copy()
        return out

    def text(self, row: int) -> str:
        """Game ``row`` as its seat sees it now."""
        return table_text(self._obs, row, self.table.batch.variant) if self._obs else ""


class OFCEnv(gym.Env[_Obs, np.int64]):
    """One seat of OFC against built-in opponents, one game (module docstring).

    Parameters
    ----------
    variant : Variant or str
        The rules (not ``chinese``: 13 cards at once are too many actions).
    n_players : int
        Seats at the table.
    seat : int, optional
        The agent's seat (the button moves from hand to hand): 0, or the
        seat that ``policies`` names ``"external"``.
    policies : policy, or a list of one per seat
        The other seats' built-in policies, as :class:`~ofc_fast.sim.GameBatch`
        takes them (``"random"``, ``"greedy"``, ``"heuristic"``,
        ``"racing"``, ``"solver"``, a ``(name, options)`` pair, a policy
        object): one for every other seat, or one per seat in seat order
        with ``"external"`` at the agent's.
    opponents : policy, or a list of one per other seat
        Deprecated since 0.4 (warns): ``policies``.
    fantasyland : None, list or dict per seat
        Fantasyland of each new match's first hand.
    auto : bool
        Automatic moves (docs/rules.md section 9).
    illegal : {"timeout", "raise"}
        What an illegal action does (:data:`ILLEGAL`).
    render_mode : {None, "ansi", "human"}
        ``render()`` returns the table as text (``"ansi"``) or prints it.

    Attributes
    ----------
    batch : GameBatch
        The game (a batch of one), after :meth:`reset`.
    encoding : ObservationEncoding
        The observation's layout.

    Raises
    ------
    ArgumentError, TypeError, RulesError
        Bad arguments (the library's checks, as :class:`GameBatch`'s).

    Examples
    --------
    >>> env = OFCEnv("pineapple", 3, policies=["heuristic", "external", "random"])
    >>> obs, info = env.reset(seed=7)
    >>> env.observation_space.shape, int(obs.sum()) > 0
    ((843,), True)
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, variant: Variant | str = "pineapple", n_players: int = 2, *,
                 seat: int | None = None, policies: PolicyLike | Sequence[PolicyLike] = "random",
                 fantasyland: FantasylandLike = None, auto: bool = True,
                 illegal: str = "timeout", render_mode: str | None = None,
                 opponents: PolicyLike | Sequence[PolicyLike] = UNSET):
        self._seat = _Seat(variant, 1, n_players, seat, policies, fantasyland, auto, illegal, 1,
                           opponents)
        self.render_mode = None if render_mode is None else \
            choice(render_mode, "render_mode", self.metadata["render_modes"])
        self.table = self._seat.table
        self.encoding = self.table.encoding
        self.observation_space = self.table.observation_space()
        self.action_space = self.table.action_space()
        self._next: tuple[_Obs, npt.NDArray[np.int8]] | None = None

    @property
    def batch(self) -> GameBatch:
        """The game (a :class:`~ofc_fast.sim.GameBatch` of one)."""
        return self._seat._live()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[_Obs, dict[str, Any]]:
        """Start an episode: the match's next hand after one ended, else (or
        with a seed) a new match.

        Parameters
        ----------
        seed : int, optional
            A new match with this seed (its first hand is what
            ``Game(variant, n_players, seed=seed)`` deals); without, the
            match seed comes from ``np_random``.
        options : dict, optional
            Not used.

        Returns
        -------
        obs : ndarray of int8
        info : dict
            ``action_mask`` (int8).

        Raises
        ------
        ArgumentError, TypeError
            A seed that is not an integer >= 0 (a numpy integer is one).
        """
        seed = _seed(seed, "seed")
        super().reset(seed=seed)
        if seed is None and self._next is not None:
            obs, mask = self._next
        else:
            s = seed if seed is not None else int(self.np_random.integers(2**63))
            obs, mask = self._seat.start(s)
        self._next = None
        if self.render_mode == "human":
            self.render()
        return obs[0], {"action_mask": mask[0].copy()}

    def step(self, action: Any) -> tuple[_Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the seat's action, then the opponents' turns up to its next.

        Parameters
        ----------
        action : int
            An action of :attr:`action_space`.

        Returns
        -------
        obs, reward, terminated, truncated, info
            At the hand's end ``terminated`` and the showdown as the seat
            sees it (every layout); ``info``: ``action_mask`` (int8; at the
            hand's end, of the next hand's first decision, what
            :meth:`reset` returns: never without a legal action),
            ``illegal`` (the action was illegal: timed out), and at the
            hand's end the hand's :data:`HAND_INFO`, per seat (``points``,
            ``foul``, ``royalty_total``, ``next_fantasyland``,
            ``fantasyland_count``).

        Raises
        ------
        StateError
            Before :meth:`reset`, or after the hand ended (reset first).
        ArgumentError, TypeError
            An action outside the action space.
        MoveError
            An illegal action with ``illegal="raise"``.
        """
        if self._next is not None:
            raise StateError("the hand is over: call reset() for the next one")
        a = np.array([_action(action, self._seat.n_actions)])
        obs, mask, reward, done, final, illegal, hand = self._seat.step(a)
        info: dict[str, Any] = {"illegal": bool(illegal[0]), "action_mask": mask[0].copy()}
        if done[0]:
            self._next = (obs, mask)
            out = final[0]
            info.update((key, col[0]) for key, col in hand.items())
        else:
            out = obs[0]
        if self.render_mode == "human":
            self.render()
        return out, float(reward[0]), bool(done[0]), False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the seat's decision now, as sb3-contrib's
        ``MaskablePPO`` asks for them (bool, ``(action_size,)``).  After the
        step that ends a hand: the next hand's first decision (what
        :meth:`reset` returns), never a mask without a legal action.

        Returns
        -------
        ndarray of bool

        Raises
        ------
        StateError
            Before :meth:`reset`.

        Examples
        --------
        >>> env = OFCEnv("pineapple", 2)
        >>> _, info = env.reset(seed=1)
        >>> bool((env.action_masks() == info["action_mask"].astype(bool)).all())
        True
        """
        mask: npt.NDArray[np.bool_] = self._seat.masks()[0]
        return mask

    def render(self) -> str | None:
        """The table as the seat sees it (text); printed in ``"human"`` mode.

        Returns
        -------
        str or None
        """
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode (OFCEnv(render_mode='ansi'))")
            return None
        text = self._seat.text(0)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text


class OFCVectorEnv(VectorEnv[_Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """One seat against built-in opponents in ``num_envs`` games at once: a
    ``gymnasium.vector.VectorEnv`` over one :class:`~ofc_fast.sim.GameBatch`
    (no Python per game).

    Autoreset mode ``SAME_STEP`` (``metadata["autoreset_mode"]``): a game
    whose hand ends in a step returns the first observation of its next
    hand (dealt at once), with ``terminations`` True, the reward of the hand
    ended, and the showdown in ``infos["final_obs"]`` (an object array,
    None for the others; ``infos["_final_obs"]`` marks them) and the
    hand's :data:`HAND_INFO` per seat in ``infos["final_info"]``
    (``final_info["foul"]`` of shape ``(num_envs, n_players)``, marked by
    ``final_info["_foul"]``: Gymnasium's vector info convention).  ``infos``
    holds ``action_mask`` (int8, ``(num_envs, action_size)``), the legal
    actions as lists, ``legal`` (int32, ``(num_envs, max_legal)``, in the
    order of :meth:`Game.legal_moves`, -1 after) and ``n_legal``, and, after
    a step, ``illegal``, each with its ``_key`` mask (Gymnasium's vector info
    convention).  A random legal action per game in numpy:
    ``legal[np.arange(n), (rng.random(n) * n_legal).astype(int)]``.

    Parameters
    ----------
    num_envs : int
        Games.
    variant, n_players, seat, policies, fantasyland, auto, illegal, opponents
        As for :class:`OFCEnv`.
    n_threads : int or None
        Threads the batch splits the games across (results do not depend
        on it).
    render_mode : None
        No render modes (``gymnasium.make_vec`` passes None).

    Raises
    ------
    ArgumentError, TypeError, RulesError
        Bad arguments.

    Examples
    --------
    >>> envs = OFCVectorEnv(64, "pineapple", n_players=3, policies="random")
    >>> obs, infos = envs.reset(seed=1)
    >>> obs.shape, infos["action_mask"].shape
    ((64, 843), (64, 1024))
    >>> rng, ended = np.random.default_rng(0), np.zeros(64, bool)
    >>> for _ in range(5):      # random legal actions, chosen in numpy
    ...     k = (rng.random(64) * infos["n_legal"]).astype(int)
    ...     pick = infos["legal"][np.arange(64), k]
    ...     obs, rewards, terminated, truncated, infos = envs.step(pick)
    ...     ended |= terminated
    >>> bool(ended.all()), int(envs.batch.hands_played.min())   # 5 streets: every hand ended
    (True, 1)
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, variant: Variant | str = "pineapple",
                 n_players: int = 2, *, seat: int | None = None,
                 policies: PolicyLike | Sequence[PolicyLike] = "random",
                 fantasyland: FantasylandLike = None, auto: bool = True,
                 illegal: str = "timeout", n_threads: int | None = 1,
                 render_mode: str | None = None,
                 opponents: PolicyLike | Sequence[PolicyLike] = UNSET):
        if render_mode is not None:
            raise ArgumentError(f"OFCVectorEnv has no render modes, got {render_mode!r}")
        self._seat = _Seat(variant, num_envs, n_players, seat, policies, fantasyland, auto,
                           illegal, n_threads, opponents)
        self._seat.lists = True
        self.num_envs = self._seat.n
        self.table = self._seat.table
        self.encoding = self.table.encoding
        self.single_observation_space = self.table.observation_space()
        self.single_action_space = self.table.action_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._all = np.ones(self.num_envs, np.bool_)

    @property
    def batch(self) -> GameBatch:
        """The games (a :class:`~ofc_fast.sim.GameBatch`)."""
        return self._seat._live()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[_Obs, dict[str, Any]]:
        """New matches in every game: game ``i`` deals what ``Match(variant,
        n_players, seed=[seed, i])`` deals.

        Parameters
        ----------
        seed : int, optional
            The batch's seed (default: drawn from ``np_random``).
        options : dict, optional
            Not used.

        Returns
        -------
        obs : ndarray of int8, shape (num_envs, size)
        infos : dict
            ``action_mask``.

        Raises
        ------
        TypeError
            A seed per game (a list): the batch takes one seed.
        ArgumentError
            A negative seed.
        """
        seed = _seed(seed, "seed (one integer for the batch: game i plays [seed, i])")
        super().reset(seed=seed)
        s = seed if seed is not None else int(self.np_random.integers(2**63))
        obs, mask = self._seat.start(s)
        return obs, self._infos(mask)

    def _infos(self, mask: npt.NDArray[np.int8]) -> dict[str, Any]:
        o = self._seat._obs
        return {"action_mask": mask, "_action_mask": self._all.copy(), "legal": o["legal"],
                "_legal": self._all.copy(), "n_legal": o["n_legal"],
                "_n_legal": self._all.copy()}

    def step(self, actions: Any) -> tuple[_Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                          npt.NDArray[np.bool_], dict[str, Any]]:
        """One action per game (module docstring; autoreset ``SAME_STEP``).

        Parameters
        ----------
        actions : array_like of int, shape (num_envs,)

        Returns
        -------
        obs, rewards, terminations, truncations, infos

        Raises
        ------
        StateError
            Before :meth:`reset`.
        ArgumentError, TypeError
            Actions of another shape, outside the action space, not integers.
        MoveError
            An illegal action with ``illegal="raise"`` (nothing is played).
        """
        obs, mask, reward, done, final, illegal, hand = self._seat.step(actions)
        infos = self._infos(mask)
        infos.update(illegal=illegal, _illegal=self._all.copy())
        if done.any():
            ended = np.flatnonzero(done)
            fo = np.full(self.num_envs, None, object)
            for j, i in enumerate(ended.tolist()):
                fo[i] = final[j]
            last: dict[str, Any] = {}
            for key, col in hand.items():
                full = np.zeros((self.num_envs, *col.shape[1:]), col.dtype)
                full[ended] = col
                last.update({key: full, f"_{key}": done})
            infos.update(final_obs=fo, _final_obs=done, final_info=last, _final_info=done)
        return obs, reward, done, np.zeros(self.num_envs, np.bool_), infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game's decision now (bool,
        ``(num_envs, action_size)``; a game whose hand ended in the last
        step: its next hand's, as ``infos["action_mask"]``).

        Returns
        -------
        ndarray of bool

        Raises
        ------
        StateError
            Before :meth:`reset`.
        """
        return self._seat.masks()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to free (the batch is memory only)."""
