"""Python seats of a batch: policies that cannot run inside the C loop (an
:class:`~ofc_fast.sim.spec.ArrayPolicy` acting on ``observe()``'s arrays,
such as a trained network, or any :class:`~ofc_fast.policies.Policy`
object), played between the C calls by ``GameBatch.run`` and
``GameBatch.run_recorded`` (:func:`run_python`).

A batch with Python seats is built with the C loop's ``auto_deal`` off, so
that it stops at every showdown: the hands a run plays are counted and kept
here exactly, and the batch's ``auto_deal`` is honoured here.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ofc_fast._args import int_array
from ofc_fast._batch import STATES
from ofc_fast._stop import Stop
from ofc_fast.sim.spec import ArrayPolicy

__all__ = ["run_python", "BLOCK"]

BLOCK = 4096
"""Games whose Python decisions are asked at once (bounds the observation's memory)."""


def run_python(batch: Any, k: int, record: list[Any] | None) -> npt.NDArray[np.int64]:
    """``batch.run(k)`` with Python seats (``batch`` a ``GameBatch``, its lock
    held): the C loop plays up to each Python decision or showdown, the
    decisions are asked of the seats' policies a block of games at a time,
    and each game deals on until it has finished ``k`` more hands (each kept
    in ``record``, FinishedHands of the games that finished one).  With
    ``auto_deal`` the next hands are then dealt, played up to their first
    Python decision; a game whose next hand the engine would play alone
    (every Python seat in fantasyland) waits over, for the next call.

    Returns
    -------
    ndarray of int64, shape (n_games, n_players)
        The points of the hands finished.
    """
    core = batch._core
    target = core.hands + k
    seen = core.hands.copy()

    def settle() -> None:            # keep the hands finished, deal on below target
        while True:
            over = core.state == STATES["over"]
            fresh = np.flatnonzero(over & (core.hands > seen))
            if len(fresh):
                if record is not None:
                    record.append(batch.last_hands(fresh))
                seen[fresh] = core.hands[fresh]
            deal = np.flatnonzero(over & (core.hands < target))
            if not len(deal):
                return
            core.deal_next(deal)
            batch._advance(deal)

    settle()
    stop = Stop()
    batch._chunks(lambda lo, hi: core.advance(lo, hi, -1, stop), uneven=True, stop=stop)
    settle()
    while True:
        wait = np.flatnonzero((core.state == STATES["wait"]) & (core.hands < target))
        if not len(wait):
            break
        for block in np.array_split(wait, -(-len(wait) // BLOCK)):
            core.apply_actions(block, _actions(batch, block))
            batch._advance(block)
        settle()
    points: npt.NDArray[np.int64] = batch._take_rewards()[0]
    over = np.flatnonzero(core.state == STATES["over"])
    if batch.auto_deal and len(over):
        seats = list(batch._python)
        alone = (batch.last_hands(over).next_fantasyland[:, seats] > 0).all(axis=1)
        if (~alone).any():
            core.deal_next(over[~alone])
            batch._advance(over[~alone])
    return points


def _actions(batch: Any, games: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The Python seats' actions in these games (each waiting on one),
    checked: an ArrayPolicy acts on the rows of its seat at once; any other
    Policy chooses in each game rebuilt as a :class:`Game`."""
    obs = batch.observe(games)
    actions = np.empty(len(games), np.int64)
    for p, pol in batch._python.items():
        rows = np.flatnonzero(obs["seat"] == p)
        if not len(rows):
            continue
        who = f"the actions of seat {p}'s policy ({type(pol).__name__})"
        if isinstance(pol, ArrayPolicy):
            got = pol.act({key: arr[rows] for key, arr in obs.items()})
            actions[rows] = int_array(got, who, (len(rows),), 0, batch.action_size - 1)
        else:
            for r in rows.tolist():
                g = batch.game(int(games[r]))
                moves = g.legal_moves()
                actions[r] = moves.action(moves.index(pol.choose(g.view(p), moves)))
    j, problem = batch._core.check_actions(games, actions)
    if j >= 0:
        raise batch._illegal(int(games[j]), int(actions[j]), problem)
    return actions
