"""stable-baselines3's vector environment over one :class:`~ofc_fast.sim.GameBatch`:
:class:`OFCSB3VecEnv`, a ``stable_baselines3.common.vec_env.VecEnv`` whose
games step together in C, with ``action_masks()`` so that sb3-contrib's
``MaskablePPO`` trains on it as it is (``pip install stable-baselines3
sb3-contrib``; this module imports without them, and the class says what to
install when used)::

    from sb3_contrib import MaskablePPO
    from ofc_fast.rl.sb3 import OFCSB3VecEnv

    env = OFCSB3VecEnv(256, "pineapple", n_players=2, policies="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=1024)
    model.learn(200_000)

One seat against built-in opponents in ``num_envs`` games, as
:class:`~ofc_fast.rl.gym.OFCVectorEnv` (the same observations, actions,
rewards and seeds): an episode is one hand the seat plays, and a game whose
hand ends returns the first observation of its next hand at once (SB3's
autoreset), the showdown in ``infos[i]["terminal_observation"]`` and the
hand's figures per seat (:data:`~ofc_fast.rl.gym.HAND_INFO`) in
``infos[i]``.  So ``action_masks()`` is always of a decision to make: no
mask without a legal action reaches the learner.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ofc_fast._args import integer
from ofc_fast._table import FantasylandLike
from ofc_fast.deprecation import UNSET
from ofc_fast.errors import ArgumentError
from ofc_fast.rl.gym import _Seat
from ofc_fast.rules import Variant
from ofc_fast.sim import GameBatch, PolicyLike

__all__ = ["OFCSB3VecEnv", "HAVE_SB3", "INSTALL"]

INSTALL = ("ofc_fast.rl.sb3 needs stable-baselines3 (and sb3-contrib for MaskablePPO): "
           "pip install stable-baselines3 sb3-contrib")
"""What to install for :class:`OFCSB3VecEnv`."""

if TYPE_CHECKING:      # (not installed in CI: mypy's override, pyright's ignore)
    from stable_baselines3.common.vec_env import VecEnv  # pyright: ignore[reportMissingImports]
    HAVE_SB3 = True
else:
    try:
        from stable_baselines3.common.vec_env import VecEnv
    except ImportError:          # the module imports; the class says what to install
        HAVE_SB3 = False

        class VecEnv:
            """Stands for stable-baselines3's VecEnv when it is not installed."""
    else:
        HAVE_SB3 = True


class OFCSB3VecEnv(VecEnv):
    """One seat against built-in opponents in ``num_envs`` games: a
    stable-baselines3 ``VecEnv`` over one :class:`~ofc_fast.sim.GameBatch`
    (module docstring), with :meth:`action_masks` for ``MaskablePPO``.

    Parameters
    ----------
    num_envs : int
        Games.
    variant, n_players, seat, policies, fantasyland, auto, illegal, n_threads, opponents
        As for :class:`~ofc_fast.rl.gym.OFCVectorEnv`.

    Attributes
    ----------
    batch : GameBatch
        The games, after :meth:`reset`.
    encoding : ObservationEncoding
        The observation's layout.

    Raises
    ------
    ImportError
        stable-baselines3 is not installed (:data:`INSTALL` says what to do).
    ArgumentError, TypeError, RulesError
        Bad arguments, as :class:`~ofc_fast.rl.gym.OFCVectorEnv`.

    Examples
    --------
    >>> env = OFCSB3VecEnv(8, "pineapple", n_players=2)
    >>> obs = env.reset()
    >>> masks = env.action_masks()
    >>> obs.shape, masks.shape, bool(masks.any(axis=1).all())
    ((8, 685), (8, 1024), True)
    >>> actions = masks.argmax(axis=1)              # the first legal action of each game
    >>> obs, rewards, dones, infos = env.step(actions)
    >>> len(infos), rewards.dtype
    (8, dtype('float32'))
    """

    def __init__(self, num_envs: int = 1, variant: Variant | str = "pineapple",
                 n_players: int = 2, *, seat: int | None = None,
                 policies: PolicyLike | Sequence[PolicyLike] = "random",
                 fantasyland: FantasylandLike = None, auto: bool = True,
                 illegal: str = "timeout", n_threads: int | None = 1,
                 opponents: PolicyLike | Sequence[PolicyLike] = UNSET) -> None:
        if not HAVE_SB3:
            raise ImportError(INSTALL)
        self._seat = _Seat(variant, num_envs, n_players, seat, policies, fantasyland, auto,
                           illegal, n_threads, opponents)
        self.table = self._seat.table
        self.encoding = self.table.encoding
        self.render_mode = None
        self._actions: npt.NDArray[np.int64] | None = None
        super().__init__(self._seat.n, self.table.observation_space(), self.table.action_space())

    @property
    def batch(self) -> GameBatch:
        """The games (a :class:`~ofc_fast.sim.GameBatch`)."""
        return self._seat._live()

    def reset(self) -> npt.NDArray[np.int8]:
        """New matches in every game: game ``i`` deals what ``Match(variant,
        n_players, seed=[seed, i])`` deals, ``seed`` the one given to
        :meth:`seed` (SB3's ``model.set_random_seed``), else a fresh one.

        Returns
        -------
        ndarray of int8, shape (num_envs, size)
        """
        given = self._seeds[0]
        s = integer(given, "seed", 0) if given is not None else int(np.random.randint(2**63))
        self._reset_seeds()
        self._reset_options()
        obs, _ = self._seat.start(s)
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Take the actions :meth:`step_wait` plays (one per game).

        Parameters
        ----------
        actions : ndarray of int, shape (num_envs,)
        """
        self._actions = actions

    def step_wait(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32],
                                 npt.NDArray[np.bool_], list[dict[str, Any]]]:
        """Play the actions of :meth:`step_async` (SB3's ``step``).

        Returns
        -------
        obs : ndarray of int8, shape (num_envs, size)
            A game whose hand ended: its next hand's first observation.
        rewards : ndarray of float32
            The seat's points of the hands finished (as ``OFCVectorEnv``).
        dones : ndarray of bool
            The hand ended.
        infos : list of dict
            Per game: ``illegal`` when its action was illegal (a time-out);
            when its hand ended ``terminal_observation`` (the showdown as the
            seat sees it), ``TimeLimit.truncated`` (False) and the hand's
            :data:`~ofc_fast.rl.gym.HAND_INFO` per seat.

        Raises
        ------
        StateError
            Before :meth:`reset`, or without :meth:`step_async`.
        ArgumentError, TypeError
            Actions of another shape, outside the action space.
        MoveError
            An illegal action with ``illegal="raise"``.
        """
        if self._actions is None:
            from ofc_fast.errors import StateError
            raise StateError("step_wait() without step_async(): call step(actions)")
        actions, self._actions = self._actions, None
        obs, _, reward, done, final, illegal, hand = self._seat.step(actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(illegal).tolist():
            infos[i]["illegal"] = True
        for j, i in enumerate(np.flatnonzero(done).tolist()):
            info = infos[i]
            info["terminal_observation"] = final[j]
            info["TimeLimit.truncated"] = False
            for key, col in hand.items():
                info[key] = col[j]
        return obs, reward.astype(np.float32), done, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game's decision now (bool,
        ``(num_envs, action_size)``): what ``MaskablePPO`` asks for
        (``env_method("action_masks")``); never a row without a legal action.

        Returns
        -------
        ndarray of bool

        Raises
        ------
        StateError
            Before :meth:`reset`.
        """
        return self._seat.masks()

    def close(self) -> None:
        """Nothing to free (the games are memory only)."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """An attribute of every game (all share the environment's).

        Parameters
        ----------
        attr_name : str
        indices : None, int or sequence of int
            The games (default all).

        Raises
        ------
        AttributeError
            No such attribute.
        """
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute (of the environment: every game shares it).

        Parameters
        ----------
        attr_name : str
        value : object
        indices : None, int or sequence of int
            Every game (default).

        Raises
        ------
        ArgumentError
            For some games only: they share one environment.
        """
        if len(list(self._indices(indices))) != self.num_envs:
            raise ArgumentError("the games share one environment: set an attribute of all")
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        """Call a method per game: ``action_masks`` gives each game's mask
        (sb3-contrib's ``get_action_masks``); another method is called once
        and its result given for every game.

        Parameters
        ----------
        method_name : str
        *method_args, **method_kwargs
            Its arguments.
        indices : None, int or sequence of int
            The games (default all).

        Raises
        ------
        AttributeError
            No such method.
        """
        rows = list(self._indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        out = getattr(self, method_name)(*method_args, **method_kwargs)
        return [out for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No game is wrapped in a Gymnasium wrapper.

        Parameters
        ----------
        wrapper_class : type
        indices : None, int or sequence of int
            The games (default all).
        """
        return [False for _ in self._indices(indices)]

    def _indices(self, indices: Any) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]
