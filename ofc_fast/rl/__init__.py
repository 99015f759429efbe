"""The standard reinforcement-learning interfaces over :mod:`ofc_fast.sim`
(``pip install 'ofc-fast[rl]'``: gymnasium and pettingzoo).

* :class:`ofc_fast.rl.gym.OFCEnv`: a Gymnasium environment for one seat
  against built-in opponents (one game);
* :class:`ofc_fast.rl.gym.OFCVectorEnv`: the same for ``num_envs`` games at
  once, a ``gymnasium.vector.VectorEnv`` over one :class:`~ofc_fast.sim.GameBatch`
  (autoreset mode ``SAME_STEP``);
* :class:`ofc_fast.rl.pettingzoo.OFCAECEnv` (and ``env()``): a PettingZoo AEC
  environment, every seat an agent (one game);
* :class:`ofc_fast.rl.encoding.ObservationEncoding`: the observation vector
  they share (numpy only);
* :class:`ofc_fast.rl.sb3.OFCSB3VecEnv`: the vector environment as
  stable-baselines3's ``VecEnv``, with ``action_masks()`` for sb3-contrib's
  ``MaskablePPO`` (stable-baselines3 is not an extra);
* :class:`ofc_fast.rl.pettingzoo.SelfPlayEnv`: one learner's seat of the
  PettingZoo environment, the others its snapshot (self-play);
* :class:`ofc_fast.rl.policy.ObservationPolicy`: a trained network (a
  function over observations) playing ``Game``, ``Match`` and a batch seat
  (numpy only);
* :func:`ofc_fast.rl.evaluate.evaluate_policy`: a policy against opponents
  on the same deals, seats rotated (numpy only).

They are a thin layer over :class:`~ofc_fast.sim.GameBatch`: the rules, the
fantasyland hands, the automatic moves and the scores are the engine's.
Neither ``import ofc_fast`` nor ``import ofc_fast.sim`` imports gymnasium or
pettingzoo; importing this package registers the Gymnasium ids
``ofc_fast/Pineapple-v0`` (and one per variant: ``ofc_fast/Classic-v0``,
``Turbo``, ``Progressive``, ``Pineapple27``, ``TurboPineapple``,
``BigPineapple``) when gymnasium is installed::

    import gymnasium as gym
    env = gym.make("ofc_fast.rl:ofc_fast/Pineapple-v0", n_players=3, policies="heuristic")
    envs = gym.make_vec("ofc_fast.rl:ofc_fast/Pineapple-v0", num_envs=1024,
                        vectorization_mode="vector_entry_point")
"""
from __future__ import annotations

from typing import Any

__all__ = ["ENV_IDS", "register_envs"]

ENV_IDS = {"classic": "ofc_fast/Classic-v0", "turbo": "ofc_fast/Turbo-v0",
           "pineapple": "ofc_fast/Pineapple-v0", "progressive": "ofc_fast/Progressive-v0",
           "pineapple-2-7": "ofc_fast/Pineapple27-v0",
           "turbo-pineapple": "ofc_fast/TurboPineapple-v0",
           "big-pineapple": "ofc_fast/BigPineapple-v0"}
"""The Gymnasium id of each variant's environment (``chinese`` deals 13 cards
at once: too many actions for an external seat)."""

_LAZY = {"OFCEnv": "gym", "OFCVectorEnv": "gym", "OFCAECEnv": "pettingzoo",
         "ObservationEncoding": "encoding", "OFCSB3VecEnv": "sb3", "SelfPlayEnv": "pettingzoo",
         "ObservationPolicy": "policy", "evaluate_policy": "evaluate", "Evaluation": "evaluate"}


def register_envs() -> None:
    """Register :data:`ENV_IDS` with Gymnasium (done when this package is
    imported with gymnasium installed; again is harmless).

    Returns
    -------
    None

    Raises
    ------
    ImportError
        Gymnasium is not installed.

    Examples
    --------
    >>> import gymnasium as gym
    >>> register_envs()
    >>> gym.spec("ofc_fast/Pineapple-v0").kwargs
    {'variant': 'pineapple'}
    """
    from gymnasium.envs.registration import register, registry
    for name, env_id in ENV_IDS.items():
        if env_id not in registry:
            register(id=env_id, entry_point="ofc_fast.rl.gym:OFCEnv",
                     vector_entry_point="ofc_fast.rl.gym:OFCVectorEnv",
                     kwargs={"variant": name})


def __getattr__(name: str) -> Any:
    """The environments, imported when first used."""
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(f"ofc_fast.rl.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


try:
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:  # pragma: no cover - without the extra
    pass
else:
    register_envs()
