"""Play Open Face Chinese hands and matches (docs/rules.md sections 7-9).

:class:`Game` deals one hand from a seeded 52-card deck and walks the players
through the variant's streets; :class:`Match` plays a sequence of hands with
the button, fantasyland and running scores.  Policies (the built-in
:class:`RandomPolicy`, :class:`GreedyPolicy`, :class:`HeuristicPolicy`,
:class:`RacingPolicy`, ``SolverPolicy``, or anything with a
``choose(view, moves)`` method) decide moves.  The state machine, move
enumeration and dead-hand search run in the Cython hand core.

This module gathers the engine's names from the rooms that hold them:
:mod:`ofc_fast.game` (one hand), :mod:`ofc_fast.positions` (a game at a
given position), :mod:`ofc_fast.match` (a sequence of hands),
:mod:`ofc_fast.moves` and :mod:`ofc_fast.policies`.

>>> g = Game("pineapple", n_players=2, seed=7)
>>> res = g.run([HeuristicPolicy(seed=1, samples=4), RandomPolicy(seed=2)])
>>> sum(res.points), g.record()["format"]
(0, 'ofc-hand/1')

Moves
-----
A :class:`Move` names the dealt cards (in deal order) and a destination for
each: a row index (0 = top) or ``DISCARD`` (-1).  :meth:`Game.legal_moves`
returns every distinct placement as a lazy sequence; :meth:`Game.play` also
accepts a mapping such as ``{"bottom": "Kd 7c", "discard": "2s"}``.
"""
from __future__ import annotations

from ofc_fast._table import FantasylandLike
from ofc_fast.game import Game
from ofc_fast.match import Match
from ofc_fast.moves import DISCARD, HandResult, Move, MoveIndexError, MoveList, PlayerView, Turn
from ofc_fast.policies import (
    BuiltinPolicy,
    GreedyPolicy,
    HeuristicPolicy,
    Policy,
    RacingPolicy,
    RandomPolicy,
)
from ofc_fast.rollouts import completion, is_dead, rollout, rollout_ev
from ofc_fast.rules import variant_options

__all__ = [
    "DISCARD", "Move", "MoveList", "MoveIndexError", "Game", "Match", "PlayerView", "HandResult",
    "Turn", "Policy", "BuiltinPolicy", "RandomPolicy", "GreedyPolicy", "HeuristicPolicy",
    "RacingPolicy", "is_dead", "completion", "rollout",
    "rollout_ev", "variant_options", "FantasylandLike",
]
