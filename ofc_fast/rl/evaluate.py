"""How good is a policy: :func:`evaluate_policy` plays it against chosen
opponents on the same deals with the seats rotated (in a
:class:`~ofc_fast.sim.GameBatch`; numpy only) and returns its points per
hand with a standard error, its foul rate, royalties and fantasyland rate
(:class:`Evaluation`).

>>> ev = evaluate_policy(("greedy", {"samples": 2, "tries": 2}), "random", "pineapple",
...                      n_players=2, n_hands=200, seed=1)
>>> ev.n_hands, ev.points > 0, ev.foul_rate < 0.6
(400, True, True)
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ofc_fast._args import SeedLike, integer, seed_entropy
from ofc_fast._table import n_players as n_players_of
from ofc_fast.errors import ArgumentError, shorten
from ofc_fast.policies import BuiltinPolicy
from ofc_fast.rl.policy import ObservationFn, ObservationPolicy
from ofc_fast.rules import Variant, as_variant
from ofc_fast.sim import FinishedHands, GameBatch
from ofc_fast.sim.spec import python_seat

__all__ = ["Evaluation", "evaluate_policy"]


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate_policy` measured, per hand the policy played.

    Attributes
    ----------
    points : float
        Mean points per hand.
    points_se : float
        Its standard error: over the matches (each match's hands, all seat
        rotations together, one sample; NaN with one match).
    foul_rate : float
        Share of its hands that fouled.
    royalties : float
        Mean royalties per hand (0 for a fouled hand).
    fantasyland_rate : float
        Share of its hands that earned fantasyland (an entry or a repeat).
    by_seat : tuple of float
        Mean points per hand with the policy at seat 0, 1, ... (the button
        starts at seat 0 and moves).
    n_hands : int
        Hands it played: the deals times the seats.

    Examples
    --------
    >>> ev = evaluate_policy("random", "random", n_hands=10, seed=2)
    >>> ev.n_hands, len(ev.by_seat)
    (20, 2)
    """
    points: float
    points_se: float
    foul_rate: float
    royalties: float
    fantasyland_rate: float
    by_seat: tuple[float, ...]
    n_hands: int

    def __str__(self) -> str:
        return (f"{self.points:+.3f} +- {self.points_se:.3f} points/hand over {self.n_hands:,} "
                f"hands; fouls {self.foul_rate:.1%}, royalties {self.royalties:.2f}/hand, "
                f"fantasyland {self.fantasyland_rate:.2%}")


def _seat(entry: Any, variant: Variant, P: int) -> object:
    """A batch seat: a built-in policy as given, a Python policy object, or
    an observation function as an :class:`ObservationPolicy`."""
    if isinstance(entry, (str, tuple, BuiltinPolicy)) or python_seat(entry):
        return entry
    if callable(entry):
        return ObservationPolicy(cast(ObservationFn, entry), variant, P)
    raise TypeError(f"a policy is a built-in name, a (name, options) pair, a policy object or "
                    f"a function fn(observations, masks) -> actions, got {shorten(entry, 60)}")


def _opponents(opponents: Any, P: int, variant: Variant) -> list[object]:
    one = isinstance(opponents, (str, BuiltinPolicy)) or python_seat(opponents) or (
        isinstance(opponents, tuple) and len(opponents) == 2 and isinstance(opponents[1], Mapping)
    ) or (callable(opponents) and not isinstance(opponents, (list, tuple)))
    if one:
        return [_seat(opponents, variant, P)] * (P - 1)
    if not isinstance(opponents, Sequence) or isinstance(opponents, (str, bytes)):
        raise TypeError(f"opponents must be a policy for every other seat or a list of "
                        f"{P - 1}, got {shorten(opponents, 60)}")
    if len(opponents) != P - 1:
        raise ArgumentError(f"opponents must give one policy per other seat ({P - 1}), got "
                            f"{len(opponents)}")
    return [_seat(o, variant, P) for o in opponents]


def evaluate_policy(policy: object, opponents: object = "random",
                    variant: Variant | str = "pineapple", n_players: int = 2,
                    n_hands: int = 1000, seed: SeedLike = None, *, match_hands: int = 1,
                    n_threads: int | None = 1,
                    progress: Callable[[int], Any] | None = None) -> Evaluation:
    """Play ``policy`` against ``opponents`` on the same deals with the seats
    rotated: every deal is played once with the policy at each seat, the
    opponents in the other seats in their order after it.

    Parameters
    ----------
    policy : policy
        A built-in policy (a name, a ``(name, options)`` pair, an object
        such as :class:`~ofc_fast.HeuristicPolicy`: played in C), any
        :class:`~ofc_fast.policies.Policy` object or
        :class:`~ofc_fast.sim.spec.ArrayPolicy` (played in Python), or a
        function ``fn(observations, masks) -> actions`` over the
        environments' observations (an :class:`~ofc_fast.rl.policy.ObservationPolicy`).
    opponents : policy, or a list of one per other seat
        The same kinds; a list in seat order after the policy's seat.
    variant : Variant or str
        The rules.
    n_players : int
        Seats.
    n_hands : int
        Deals (each played ``n_players`` times): ``n_hands / match_hands``
        matches of ``match_hands`` hands.
    seed : int, sequence of int, SeedSequence, Generator or None
        The deals (game ``i`` of every rotation deals what ``Match(variant,
        n_players, seed=[seed, i])`` deals); the same seed, the same figures.
    match_hands : int
        Hands per match (fantasyland earned is played in the next hand of
        its match; with 1, its worth is not in the points).
    n_threads : int or None
        Threads for the built-in seats (the figures do not depend on it).
    progress : callable, optional
        Called with each rotation's seat once it is played.

    Returns
    -------
    Evaluation

    Raises
    ------
    ArgumentError, TypeError, RulesError
        Bad arguments, naming them (``n_hands`` not a multiple of
        ``match_hands``; an ``"external"`` seat).
    MoveError
        A Python policy chose an illegal move.

    Examples
    --------
    >>> import numpy as np
    >>> first = lambda obs, mask: mask.argmax(axis=1)       # the first legal action
    >>> ev = evaluate_policy(first, "random", "pineapple", 2, n_hands=50, seed=3)
    >>> ev.n_hands, round(ev.foul_rate, 2) > 0
    (100, True)
    """
    v = as_variant(variant)
    P = n_players_of(n_players, v)
    n = integer(n_hands, "n_hands", 1, 2**40)
    per = integer(match_hands, "match_hands", 1, 2**31 - 1)
    if n % per:
        raise ArgumentError(f"n_hands must be a multiple of match_hands ({per}), got {n}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, got {shorten(progress)}")
    hero = _seat(policy, v, P)
    others = _opponents(opponents, P, v)
    entropy = seed_entropy(seed)        # one draw: every rotation deals the same decks
    G = n // per
    pts = np.zeros((P, G, per))
    foul = royalty = fantasyland = 0.0
    for r in range(P):
        seats: list[object] = [None] * P
        seats[r] = hero
        for j, o in enumerate(others):
            seats[(r + 1 + j) % P] = o
        if any(s == "external" for s in seats):
            raise ArgumentError("evaluate_policy plays its seats itself: no 'external' seat")
        b = GameBatch(v, G, P, seed=list(entropy), policies=seats,     # type: ignore[arg-type]
                      n_threads=n_threads)
        h: FinishedHands = b.run_recorded(per)
        pts[r] = h.points[:, r].reshape(G, per)
        foul += float(h.foul[:, r].sum())
        royalty += float(h.royalty_total[:, r].sum())
        fantasyland += float((h.next_fantasyland[:, r] > 0).sum())
        if progress is not None:
            progress(r)
    total = P * n
    per_match = pts.mean(axis=(0, 2))
    se = float(per_match.std(ddof=1) / math.sqrt(G)) if G > 1 else math.nan
    return Evaluation(points=float(pts.mean()), points_se=se, foul_rate=foul / total,
                      royalties=royalty / total, fantasyland_rate=fantasyland / total,
                      by_seat=tuple(float(x) for x in pts.mean(axis=(1, 2))), n_hands=total)
