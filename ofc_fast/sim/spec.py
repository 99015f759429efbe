"""A batch's arguments, checked once: :class:`BatchSpec`.

:class:`~ofc_fast.sim.batch.GameBatch`, self-play, the environments of
:mod:`ofc_fast.rl`, the Dask adapter and the command line check their
table arguments here, before anything is built (no throwaway batch), with
one wording: the variant, the seats, each seat's policy, the first hand's
fantasyland, the button and the automatic moves.  Derived sizes come with
it (actions, cards a street deals, legal moves a street offers, discards a
seat keeps), read off the rules, not off a built batch.

>>> spec = BatchSpec.check("pineapple", 3, policies=["heuristic", "random", "external"])
>>> spec.policies, spec.action_size, spec.max_legal
(('heuristic', 'random', 'external'), 1024, 232)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, runtime_checkable

import numpy.typing as npt

from ofc_fast._args import flag, integer
from ofc_fast._batch import MAX_DISCARDS
from ofc_fast._order import count_placements
from ofc_fast._table import FantasylandLike, fantasyland_spec
from ofc_fast._table import n_players as n_players_of
from ofc_fast.deals import check_match_deal, fantasyland_deals, street_total
from ofc_fast.errors import ArgumentError, shorten
from ofc_fast.policies import (
    SEAT_POLICIES,
    BuiltinPolicy,
    Policy,
    PolicySpec,
    RolloutParams,
    per_seat,
    policy_spec,
    seat_policy,
)
from ofc_fast.rollouts import engine_rules
from ofc_fast.rules import Variant, as_variant
from ofc_fast.sim.actions import MAX_ACTIONS, _streets, action_size

__all__ = ["BatchSpec", "PolicyLike", "BatchPolicies", "POLICIES", "ArrayPolicy", "PYTHON"]

POLICIES = SEAT_POLICIES
"""The built-in policies a batch seat takes by name, and ``"external"`` (the
caller's): ``ofc_fast.policies.SEAT_POLICIES``."""

PYTHON = "python"
"""The name of a Python seat in :attr:`BatchSpec.policies` (a policy object
that is not built in: :class:`ArrayPolicy` or :class:`~ofc_fast.policies.Policy`)."""


@runtime_checkable
class ArrayPolicy(Protocol):
    """Chooses for many games at once: ``act(obs) -> actions``, where ``obs``
    is what :meth:`GameBatch.observe` returns for some games waiting on the
    policy's seat (every key, ``legal`` and ``mask`` included) and
    ``actions`` one legal action per row.  A batch plays such a seat in
    Python between its C calls (:meth:`GameBatch.run`);
    :class:`ofc_fast.rl.policy.ObservationPolicy` is one.

    Examples
    --------
    >>> import numpy as np
    >>> class FirstLegal:
    ...     def act(self, obs):
    ...         return obs["legal"][:, 0]
    >>> isinstance(FirstLegal(), ArrayPolicy)
    True
    """

    def act(self, obs: dict[str, npt.NDArray[Any]]) -> npt.ArrayLike:
        """One action per row of ``obs``.

        Parameters
        ----------
        obs : dict of str to ndarray
            :meth:`GameBatch.observe`'s arrays, for the rows to play.

        Returns
        -------
        array_like of int, shape (len(obs["game"]),)
        """
        ...


PolicyLike: TypeAlias = str | BuiltinPolicy | tuple[str, Mapping[str, Any]] | ArrayPolicy | Policy
"""A seat's policy in a batch: a name of :data:`POLICIES`, a ``(name,
options)`` pair, or a built-in policy object (:class:`RandomPolicy`,
:class:`HeuristicPolicy`, ...: the same C algorithm with its parameters),
played in C; or a Python policy (:class:`ArrayPolicy`, or any
:class:`~ofc_fast.policies.Policy` object), played in Python between the C
calls by :meth:`GameBatch.run` and :meth:`GameBatch.run_recorded`."""

BatchPolicies: TypeAlias = PolicyLike | Sequence[PolicyLike] | Mapping[int, PolicyLike]
"""The ``policies=`` of :class:`GameBatch`: one policy for every seat, a list
per seat, or a dict seat -> policy."""


def python_seat(entry: object) -> bool:
    """A Python seat's policy: an object (not a class, not built in) with an
    ``act`` (:class:`ArrayPolicy`) or a ``choose`` method (a Policy)."""
    return not isinstance(entry, (type, BuiltinPolicy)) and (
        callable(getattr(entry, "act", None)) or callable(getattr(entry, "choose", None)))


def _is_seat_policy(entry: object) -> bool:
    return isinstance(entry, (str, BuiltinPolicy)) or python_seat(entry) or (
        isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], Mapping))


def _seat_spec(entry: object, who: str) -> PolicySpec:
    """A seat's checked policy: a Python seat is played as an external seat
    by the C loop (its fantasyland hands by the exact solver, a repeat worth
    the policy's ``fantasyland_value`` when it has one)."""
    if python_seat(entry):
        fv = getattr(entry, "fantasyland_value", RolloutParams.fantasyland_value)
        return PYTHON, RolloutParams(fantasyland_value=fv)
    return policy_spec(entry, who)


@dataclass(frozen=True)
class BatchSpec:
    """What a batch of games is, checked (:meth:`check`).

    Attributes
    ----------
    variant : Variant
    n_players : int
    seats : tuple of (str, RolloutParams)
        Each seat's policy (:func:`ofc_fast.policies.policy_spec`).
    fl_cards, fl_count : tuple of int
        Each seat's fantasyland deal and count in the first hand.
    button : int
    auto, auto_deal : bool
    action_size : int
        Actions of an external seat (``(R + 1) ** max_cards``).
    max_cards : int
        Most cards one street deals.
    max_legal : int
        Most legal moves one street offers.
    max_discards : int
        Most discards of one seat in one hand (the records' width).
    python : tuple of (int, object)
        The Python seats and their policies (``"python"`` in :attr:`policies`).

    Examples
    --------
    >>> BatchSpec.check("big-pineapple", 2).action_size
    15625
    """

    variant: Variant
    n_players: int
    seats: tuple[PolicySpec, ...]
    fl_cards: tuple[int, ...]
    fl_count: tuple[int, ...]
    button: int
    auto: bool
    auto_deal: bool
    action_size: int
    max_cards: int
    max_legal: int
    max_discards: int
    python: tuple[tuple[int, Any], ...] = ()

    @classmethod
    def check(cls, variant: Variant | str = "pineapple", n_players: object = 2, *,
              policies: object = "random", fantasyland: FantasylandLike = None,
              auto: object = True, auto_deal: object = True, button: object = 0) -> BatchSpec:
        """Check a batch's arguments (as :class:`GameBatch` takes them).

        Parameters
        ----------
        variant, n_players, policies, fantasyland, auto, auto_deal, button
            As for :class:`~ofc_fast.sim.GameBatch`.

        Returns
        -------
        BatchSpec

        Raises
        ------
        RulesError
            A variant the engine cannot play, a deal that does not fit
            the deck, or with jokers a built-in policy other than
            ``"random"`` (the valued ones do not play jokers yet).
        ArgumentError, TypeError
            Any other bad argument, naming it; an external seat in a variant
            whose actions are more than :data:`MAX_ACTIONS`.
        """
        v = as_variant(variant)
        engine_rules(v)                 # the engine plays it (else RulesError)
        P = n_players_of(n_players, v)
        b = integer(button, "button", 0, P - 1)
        cards, count = fantasyland_spec(fantasyland, P, v)
        check_match_deal(v, P)
        entries = per_seat(policies, P, _is_seat_policy, lambda pol: TypeError(
            f"policies must be a policy for every seat, a list per seat or a dict seat -> "
            f"policy, got {shorten(pol, 60)}"))
        specs = tuple(_seat_spec(e, f"policies[{p}]") for p, e in enumerate(entries))
        python = tuple((p, e) for p, e in enumerate(entries) if python_seat(e))
        external = [p for p, (n, _) in enumerate(specs) if n == "external"]
        if python and external:
            raise ArgumentError(f"seat {python[0][0]} plays a Python policy and seat "
                                f"{external[0]} is 'external': a batch plays Python seats in "
                                f"run(), external ones through step(), not both")
        streets = _streets(v)
        kmax = max(d for d, _ in streets)
        size = action_size(v)
        if any(n in ("external", PYTHON) for n, _ in specs) and size > MAX_ACTIONS:
            raise ArgumentError(f"{v.name} deals {kmax} cards at once: its {size:,} actions are "
                                f"too many for external seats (at most {MAX_ACTIONS:,}); play "
                                f"it with built-in policies")
        legal = max(count_placements(d, k, v.row_sizes) for d, k in streets)
        # one seat's discards in a hand: its streets', or its largest fantasyland deal's
        disc = min(MAX_DISCARDS, max([1, street_total(v) - v.n_cards]
                                     + [d - v.n_cards for d in fantasyland_deals(v)]))
        return cls(variant=v, n_players=P, seats=specs, fl_cards=tuple(cards),
                   fl_count=tuple(count), button=b, auto=flag(auto, "auto"),
                   auto_deal=flag(auto_deal, "auto_deal"), action_size=size, max_cards=kmax,
                   max_legal=legal, max_discards=disc, python=python)

    @property
    def policies(self) -> tuple[str, ...]:
        """Each seat's policy by name."""
        return tuple(n for n, _ in self.seats)

    @property
    def external(self) -> tuple[int, ...]:
        """The external seats."""
        return tuple(p for p, (n, _) in enumerate(self.seats) if n == "external")

    def c_policies(self) -> list[tuple[int, int, int, int, float, float, int, float, int, float]]:
        """Each seat's policy as the C loop's struct."""
        return [seat_policy(("external", p) if n == PYTHON else (n, p)) for n, p in self.seats]
