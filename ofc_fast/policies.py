"""Policies that choose moves: the :class:`Policy` protocol; the built-in
policies, faces over one C algorithm each (``ofc_fast._policies``):
:class:`RandomPolicy`, :class:`GreedyPolicy`, :class:`HeuristicPolicy`,
:class:`RacingPolicy` (their parameters declared once, :class:`RolloutParams`);
:func:`policy_spec`, a batch seat's policy from a name, a pair or an
object; and :func:`resolve_policies`, the one place that turns what a
caller gives (one policy, a list or a dict per seat, nothing) into a policy
per seat.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Protocol, TypeAlias, TypeGuard, runtime_checkable

import numpy as np

from ofc_fast._args import (
    SeedLike,
    choice,
    flag,
    integer,
    kernel_seed,
    no_unknown,
    number,
    points,
    seat,
    seed_sequence,
)
from ofc_fast._policies import KINDS, PolicyCore, Stream, fantasyland_choice
from ofc_fast.deprecation import UNSET, renamed_attribute, warn_renamed
from ofc_fast.errors import ArgumentError, shorten
from ofc_fast.moves import Move, MoveList, PlayerView
from ofc_fast.rollouts import COMPLETIONS, MAX_COMPLETIONS, completion_model

__all__ = ["Policy", "BuiltinPolicy", "RandomPolicy", "GreedyPolicy", "HeuristicPolicy",
           "RacingPolicy", "RolloutParams", "BUILTIN", "SEAT_POLICIES", "PolicySpec",
           "policy_spec", "resolve_policies", "seeded_policies", "fantasyland_move",
           "PoliciesLike"]

# -------------------------------------------------------------------------- policies
@runtime_checkable
class Policy(Protocol):
    """Chooses a move: ``choose(view, moves) -> Move`` where ``view`` is the
    acting player's :class:`PlayerView` and ``moves`` the :class:`MoveList`.

    Any object with such a method is a policy (a structural protocol: no
    need to inherit from it; ``isinstance(obj, Policy)`` checks for the
    method).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> class FirstMove:
    ...     def choose(self, view: ofc.PlayerView, moves: ofc.MoveList) -> ofc.Move:
    ...         return moves[0]
    >>> isinstance(FirstMove(), Policy)
    True
    >>> sum(ofc.Game("pineapple", 2, seed=1).run(FirstMove()).points)
    0
    """

    def choose(self, view: PlayerView, moves: MoveList) -> Move:
        """The move to play.

        Parameters
        ----------
        view : PlayerView
            What the player to act sees.
        moves : MoveList
            Its legal moves.

        Returns
        -------
        Move
            One of ``moves`` (or any form :meth:`Game.play` takes).
        """
        ...


PoliciesLike: TypeAlias = Policy | Sequence[Policy] | Mapping[int, Policy] | None
"""What ``Game.run`` and ``Match`` take as ``policies``: one policy for
every seat, one per seat (a list, or a dict seat -> policy), or None for the
default."""


@dataclass(frozen=True)
class RolloutParams:
    """The parameters of the valued policies (``greedy``, ``heuristic``,
    ``racing``), their defaults and bounds declared once: the Python
    classes, the batch engine's seats and the command line read them here.

    Parameters
    ----------
    samples : int
        Completions per move (1 .. 1,000,000).
    tries : int
        Arrangements per completion, the best kept (1 .. 1,000,000).
    max_moves : int
        Most moves valued per decision; a random sample of them beyond
        (1 .. 10,000,000).
    foul_cost : float
        Points a foul costs.
    fantasyland_value : float
        Points a fantasyland entry is worth (and, in a fantasyland hand, a
        repeat: the exact solver's objective ``"royalties+repeat"``).

    Raises
    ------
    TypeError, ArgumentError
        A value of the wrong type or out of range, naming it.

    Examples
    --------
    >>> RolloutParams(samples=8).samples, RolloutParams().tries
    (8, 12)
    """
    samples: int = 24
    tries: int = 12
    max_moves: int = 400
    foul_cost: float = 5.0
    fantasyland_value: float = 12.0

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "samples", integer(self.samples, "samples", 1, 1_000_000, floats=True))
        set_(self, "tries", integer(self.tries, "tries", 1, 1_000_000, floats=True))
        set_(self, "max_moves", integer(self.max_moves, "max_moves", 1, 10_000_000, floats=True))
        set_(self, "foul_cost", points(self.foul_cost, "foul_cost"))
        set_(self, "fantasyland_value", points(self.fantasyland_value, "fantasyland_value"))


_NONE = RolloutParams(samples=1, tries=1, max_moves=1, foul_cost=0.0, fantasyland_value=0.0)
"""What the C struct holds for a policy without parameters (random)."""


class BuiltinPolicy:
    """A built-in policy: one algorithm, written once in C
    (``ofc_fast._policies``), that chooses alike in :class:`Game`,
    :class:`Match` and as a seat of ``ofc_fast.sim.GameBatch`` (its
    :attr:`name`, with :attr:`params`), given the same position and the same
    random stream.

    Subclasses: :class:`RandomPolicy`, :class:`GreedyPolicy`,
    :class:`HeuristicPolicy`, :class:`RacingPolicy`.

    Parameters
    ----------
    seed : int, sequence of int, SeedSequence, Generator or None
        Seeds the policy's stream (when ``stream`` is None).
    params : RolloutParams
        The parameters (checked).
    stream : ofc_fast._policies.Stream or None
        A stream to draw from instead.

    Raises
    ------
    TypeError, ArgumentError
        A bad seed or stream.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> pol = ofc.HeuristicPolicy(seed=1, samples=4)
    >>> pol.name, pol.params.samples, isinstance(pol, BuiltinPolicy)
    ('heuristic', 4, True)
    """

    name: ClassVar[str]
    """The policy's name as a batch seat takes it."""

    def __init__(self, seed: SeedLike, params: RolloutParams | SolverOptions,
                 stream: Stream | None) -> None:
        if stream is not None and not isinstance(stream, Stream):
            raise TypeError(f"stream must be an ofc_fast._policies.Stream, got {shorten(stream)}")
        self.params = params
        c = seat_policy((self.name, params))
        self._core = PolicyCore(*c[:6], Stream(kernel_seed(seed)) if stream is None else stream,
                                *c[6:])

    def choose(self, view: PlayerView, moves: MoveList) -> Move:
        """The policy's move for the player to act.

        Parameters
        ----------
        view : PlayerView
            What the player to act sees (the C policy reads the same from
            the hand: its layout, hand and discards, the others' placed cards).
        moves : MoveList
            Its legal moves (``game.legal_moves()``).

        Returns
        -------
        Move
            One of ``moves``.

        Raises
        ------
        MoveError
            ``moves`` of a game that has moved on since they were listed.
        """
        return moves[self._core.choose(moves._live_core())]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params})" if self.name != "random" else \
            "RandomPolicy()"


class RandomPolicy(BuiltinPolicy):
    """A uniformly random legal move, fantasyland hands included (the batch
    seat ``"random"``).

    Parameters
    ----------
    seed : int, sequence of int, SeedSequence, Generator or None
        The choices' random stream (``kernel_seed(seed)``; a Generator advances).
    stream : ofc_fast._policies.Stream, optional
        Draw from this stream instead of one seeded by ``seed`` (policies
        sharing a stream draw from it in turn, as the built-in seats of a
        batch game share the game's stream).

    Raises
    ------
    TypeError, ArgumentError
        For a bad seed.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=1)
    >>> move = RandomPolicy(seed=2).choose(g.view(g.to_act), g.legal_moves())
    >>> move == RandomPolicy(seed=2).choose(g.view(g.to_act), g.legal_moves())
    True
    """

    name = "random"

    def __init__(self, seed: SeedLike = None, *, stream: Stream | None = None) -> None:
        super().__init__(seed, _NONE, stream)


class _Valued(BuiltinPolicy):
    """The valued policies' constructor (one parameter set: RolloutParams)."""

    params: RolloutParams

    def __init__(self, seed: SeedLike = None, samples: int = RolloutParams.samples,
                 max_moves: int = RolloutParams.max_moves,
                 foul_cost: float = RolloutParams.foul_cost,
                 fantasyland_value: float = RolloutParams.fantasyland_value,
                 tries: int = RolloutParams.tries, *, stream: Stream | None = None) -> None:
        super().__init__(seed, RolloutParams(samples=samples, tries=tries, max_moves=max_moves,
                                             foul_cost=foul_cost,
                                             fantasyland_value=fantasyland_value), stream)

    @property
    def samples(self) -> int:
        """Completions per move."""
        return self.params.samples

    @property
    def tries(self) -> int:
        """Arrangements per completion."""
        return self.params.tries

    @property
    def max_moves(self) -> int:
        """Most moves valued per decision."""
        return self.params.max_moves

    @property
    def foul_cost(self) -> float:
        """Points a foul costs."""
        return self.params.foul_cost

    @property
    def fantasyland_value(self) -> float:
        """Points a fantasyland entry (a repeat) is worth."""
        return self.params.fantasyland_value


class GreedyPolicy(_Valued):
    """Every legal move (a random sample of ``max_moves`` when there are
    more) valued by ``samples`` completions of the best-of-``tries`` model
    (mean royalties - ``foul_cost`` x fouls + ``fantasyland_value`` x
    entries); the first best move plays.  Fantasyland hands: the exact
    solver.  The batch seat ``"greedy"`` (``"best"`` before 0.4).

    Parameters
    ----------
    seed, samples, max_moves, foul_cost, fantasyland_value, tries, stream
        As :class:`HeuristicPolicy`.

    Raises
    ------
    TypeError, ArgumentError
        For a bad argument, naming it.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> res = ofc.Game("pineapple", 2, seed=3).run([GreedyPolicy(seed=1, samples=4),
    ...                                             ofc.RandomPolicy(2)])
    >>> sum(res.points)
    0
    """

    name = "greedy"


class HeuristicPolicy(_Valued):
    """A simple greedy player that avoids fouls and chases royalties (the
    batch seat ``"heuristic"``).

    Every legal move (a random sample of ``max_moves`` when there are more)
    is valued by ``samples`` random completions of the resulting layout,
    each the best of ``tries`` arrangements: mean royalties, minus
    ``foul_cost`` per foul, plus ``fantasyland_value`` per fantasyland
    entry; moves that leave the hand dead are avoided, ties broken at
    random.  Fantasyland hands are set by the exact solver
    (:func:`ofc_fast.solve_fantasyland`, a repeat worth ``fantasyland_value``).

    Parameters
    ----------
    seed : int, sequence of int, SeedSequence, Generator or None
        The random stream of the samples and of the tie breaks.
    samples, max_moves, foul_cost, fantasyland_value, tries
        As :class:`RolloutParams` (defaults there: 24, 400, 5, 12, 12).
    stream : ofc_fast._policies.Stream, optional
        Draw from this stream instead of one seeded by ``seed`` (policies
        sharing a stream draw from it in turn, as the built-in seats of a
        batch game share the game's stream).

    Raises
    ------
    TypeError, ArgumentError
        For a bad argument, naming it.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> res = ofc.Game("pineapple", 2, seed=3).run([HeuristicPolicy(seed=1, samples=8),
    ...                                             ofc.RandomPolicy(2)])
    >>> sum(res.points)
    0
    """

    name = "heuristic"


class RacingPolicy(_Valued):
    """The heuristic's values raced on common samples: a different, faster
    player (the batch seat ``"racing"``; before 0.4 the batch's
    ``"heuristic"`` with ``race=True``).

    The moves meet the same sample decks and arrangements (common random
    numbers); more than 40 moves are first screened on a quarter of the
    samples, then successive halving gives the survivors up to twice
    ``samples`` samples until one move is left (docs/sim.md).  Moves that
    leave the hand dead are dropped exactly; fantasyland hands: the exact
    solver.  About 10x faster than :class:`HeuristicPolicy` at its defaults
    and about as strong head to head.

    Parameters
    ----------
    seed, samples, max_moves, foul_cost, fantasyland_value, tries, stream
        As :class:`HeuristicPolicy`.

    Raises
    ------
    TypeError, ArgumentError
        For a bad argument, naming it.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> res = ofc.Game("pineapple", 2, seed=3).run([RacingPolicy(seed=1), ofc.RandomPolicy(2)])
    >>> sum(res.points)
    0
    """

    name = "racing"


# ---------------------------------------------------------------------- the solver
DEFAULT_FANTASYLAND_VALUE = 25.0
"""Points :class:`SolverPolicy` counts for earning fantasyland (and for a
repeat) by default (docs/solver.md says how it was chosen)."""


class SolverOptions(NamedTuple):
    """:class:`SolverPolicy`'s settings, checked (:func:`solver_options`); its
    defaults are these fields' defaults (a batch engine's ``"solver"`` seats
    take the same settings).

    Attributes
    ----------
    n : int
        Most completions per move in one decision.
    time_budget_ms : float or None
        Wall-clock time per decision (None: no limit).
    completion : str
        The completion model (:data:`ofc_fast.rollouts.COMPLETIONS`).
    fantasyland_value : float
        Points counted per fantasyland earned (and per repeat).
    tries : int
        Arrangements per completion under ``completion="best"``.
    z : float
        Standard errors below the leader at which a move is dropped.
    first_round : int
        Completions per move in the first round.

    Examples
    --------
    >>> SolverOptions().n, SolverOptions().completion
    (50000, 'best')
    """
    n: int = 50_000
    time_budget_ms: float | None = 100
    completion: str = "best"
    fantasyland_value: float = DEFAULT_FANTASYLAND_VALUE
    tries: int = 16
    z: float = 3.0
    first_round: int = 32


_SOLVER = SolverOptions()


def solver_options(**options: Any) -> SolverOptions:
    """The solver's settings from keyword arguments, checked: the one place
    that holds their bounds (:class:`SolverPolicy` and the batch engine's
    ``"solver"`` seats call it).

    Parameters
    ----------
    **options
        Any fields of :class:`SolverOptions`; the others take its defaults.

    Returns
    -------
    SolverOptions

    Raises
    ------
    ArgumentError, TypeError
        For an unknown option or a bad value, naming it.

    Examples
    --------
    >>> solver_options(n=2000, completion="random").n
    2000
    >>> solver_options(z=-1)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: z must be a finite number >= 0, got -1
    """
    for name in options:
        if name not in SolverOptions._fields:
            raise ArgumentError(f"unknown solver option {shorten(name)}; valid: "
                                f"{', '.join(SolverOptions._fields)}")
    o = _SOLVER._replace(**options)
    budget = o.time_budget_ms
    return SolverOptions(
        n=integer(o.n, "n", 1, MAX_COMPLETIONS, floats=True),
        time_budget_ms=None if budget is None else number(budget, "time_budget_ms", above=0),
        completion=choice(o.completion, "completion", COMPLETIONS, what="completion model"),
        fantasyland_value=points(o.fantasyland_value, "fantasyland_value"),
        tries=integer(o.tries, "tries", 1, 1_000_000, floats=True),
        z=number(o.z, "z", lo=0),
        first_round=integer(o.first_round, "first_round", 1, MAX_COMPLETIONS, floats=True))


class SolverPolicy(BuiltinPolicy):
    """A policy that chooses the move of highest value (:func:`move_values`).

    Each decision values the player's moves in rounds on common completion
    decks: after each round the moves whose value is clearly below the
    leader's (by more than ``z`` standard errors of the paired difference)
    are dropped, and the next round, about as many completions as all rounds
    before, goes to the rest, until one move is left, ``n`` completions are
    reached or the time budget is spent.  The move played is the best one
    that keeps a live hand alive (the moves still in by value, then the
    dropped ones by their value when dropped, each checked with the exact
    :func:`ofc_fast.is_dead` until one is alive): a move that makes a live
    hand dead is never chosen while another keeps it alive.
    Fantasyland hands are set by the exact solver
    (:func:`ofc_fast.solve_fantasyland`, a repeat worth
    ``fantasyland_value``).

    The decision is written once, in C (``ofc_fast._solver``, without the
    GIL), and shared with the batch engine's ``"solver"`` seats (the same
    settings, :class:`SolverOptions`); this class checks the settings, draws
    each decision's seed and returns the move.  Ctrl-C stops a decision
    between two completions, within a few milliseconds of work, however
    large ``n``: :meth:`choose` raises ``KeyboardInterrupt``, nothing is
    played, and the policy is as it was (its seeds, :attr:`last`), so the
    decision made again is the same; a batch ``"solver"`` seat stops alike,
    its game left at that turn (:class:`ofc_fast.sim.GameBatch`).

    Parameters
    ----------
    n : int
        Most completions per move in one decision.
    seed : int, SeedSequence, Generator or None
        The decisions' completion decks.
    time_budget_ms : float or None
        Wall-clock time per decision (about; one core).  ``None``: no limit,
        so a decision depends only on the seed and the position.
    completion : str
        Completion model, ``"best"`` (default) or ``"random"``
        (:data:`ofc_fast.rollouts.COMPLETIONS`).
    fantasyland_value : float
        Points counted per fantasyland earned (and per repeat).
    tries : int
        Arrangements per completion under ``completion="best"`` (16:
        stronger than 8 in matches, as strong as 32 and cheaper;
        docs/solver.md).
    z : float
        Standard errors below the leader at which a move is dropped.
    first_round : int
        Completions per move in the first round.
    stream : ofc_fast._policies.Stream, optional
        Draw each decision's seed from this stream, as a batch seat draws it
        from its game's (instead of from ``seed``'s numpy Generator, as 0.3
        did: the same seed still plays the same moves).
    policy : str
        Deprecated (0.4): ``completion``.

    Attributes
    ----------
    last : dict or None
        What the last decision did (docs/solver.md): ``moves``,
        ``completions``, ``rounds`` (moves valued and completions per move,
        per round), ``left``, ``dead_checks`` and ``ms``; or ``moves`` and a
        ``reason`` when there was nothing to value.

    Raises
    ------
    TypeError, ValueError
        For a bad argument, naming it.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=5)
    >>> res = g.run([SolverPolicy(seed=1, time_budget_ms=20), ofc.RandomPolicy(2)])
    >>> sum(res.points)
    0
    """

    name = "solver"
    params: SolverOptions

    def __init__(self, n: int = _SOLVER.n, seed: SeedLike = None,
                 time_budget_ms: float | None = _SOLVER.time_budget_ms,
                 completion: str = _SOLVER.completion,
                 fantasyland_value: float = _SOLVER.fantasyland_value, *,
                 tries: int = _SOLVER.tries, z: float = _SOLVER.z,
                 first_round: int = _SOLVER.first_round, stream: Stream | None = None,
                 policy: str = UNSET) -> None:
        completion = completion_model(completion, policy, "SolverPolicy")
        o = solver_options(n=n, time_budget_ms=time_budget_ms, completion=completion,
                           fantasyland_value=fantasyland_value, tries=tries, z=z,
                           first_round=first_round)
        self._rng = seed if isinstance(seed, np.random.Generator) else \
            np.random.default_rng(seed_sequence(seed))
        self._own_stream = stream is not None
        super().__init__(None, o, stream if stream is not None else Stream())
        self.last: dict[str, Any] | None = None     # what the last decision did (docs/solver.md)

    @property
    def n(self) -> int:
        """Most completions per move."""
        return self.params.n

    @property
    def time_budget_ms(self) -> float | None:
        """Wall-clock time per decision (None: no limit)."""
        return self.params.time_budget_ms

    @property
    def completion(self) -> str:
        """The completion model."""
        return self.params.completion

    @property
    def fantasyland_value(self) -> float:
        """Points per fantasyland earned (and per repeat)."""
        return self.params.fantasyland_value

    @property
    def tries(self) -> int:
        """Arrangements per completion."""
        return self.params.tries

    @property
    def z(self) -> float:
        """Standard errors below the leader that drop a move."""
        return self.params.z

    @property
    def first_round(self) -> int:
        """Completions per move in the first round."""
        return self.params.first_round

    policy = renamed_attribute("completion", "policy", since="0.4")

    def choose(self, view: PlayerView, moves: MoveList) -> Move:
        """The move to play (see the class).

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
        TypeError
            ``moves`` is not a MoveList.
        StateError
            A stale move list (a move was played since), or the hand is over.
        ArgumentError
            ``view`` is not the view of the seat to act, or the position
            cannot be completed (fewer unseen cards than empty slots).
        KeyboardInterrupt
            Ctrl-C during the decision (see the class): the policy and the
            game unchanged.

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> g = ofc.Game("pineapple", 2, seed=5)
        >>> pol = SolverPolicy(seed=1, time_budget_ms=None, n=256)
        >>> pol.choose(g.view(g.to_act), g.legal_moves()) in g.legal_moves()
        True
        """
        if not isinstance(moves, MoveList):
            raise TypeError(f"SolverPolicy.choose takes a MoveList, got {shorten(moves)}")
        moves._live()                    # StateError for a stale list
        total = len(moves)
        if total == 1:
            self.last = {"moves": 1, "reason": "only move"}
            return moves[0]
        if view.street == -1:
            self.last = {"moves": total, "reason": "fantasyland solver"}
            return fantasyland_move(view, moves, self.fantasyland_value)
        core = moves._core
        if view.seat != core.to_act:
            raise ArgumentError(f"view is seat {shorten(view.seat)}'s, but seat "
                                f"{core.to_act} is to act")
        before = None if self._own_stream else self._rng.bit_generator.state
        kseed = 0 if self._own_stream else \
            int(self._rng.integers(0, 2**63, dtype=np.int64)) * 2 + 1
        try:
            index = self._core.choose(core, kseed)
        except KeyboardInterrupt:       # the decision again is the same
            if before is not None:
                self._rng.bit_generator.state = before
            raise
        self.last = self._core.last_decision()
        return moves[index]


BUILTIN: dict[str, type[BuiltinPolicy]] = {
    c.name: c for c in (RandomPolicy, GreedyPolicy, HeuristicPolicy, RacingPolicy, SolverPolicy)}
"""The built-in policy classes by name."""

SEAT_POLICIES = (*BUILTIN, "external")
"""What a batch seat takes by name: the built-in policies, and ``"external"``
(the caller acts, through ``GameBatch.observe`` / ``step``)."""

PolicySpec: TypeAlias = tuple[str, "RolloutParams | SolverOptions"]
"""A seat's policy checked: its name and its parameters (the solver's
:class:`SolverOptions`, the others' :class:`RolloutParams`)."""


def policy_spec(entry: object, who: str) -> PolicySpec:
    """A batch seat's policy from what a caller gives: a name of
    :data:`SEAT_POLICIES`, a ``(name, options)`` pair (the options are
    :class:`RolloutParams` fields; ``"external"`` takes
    ``fantasyland_value``, for the fantasyland hands the engine sets for
    it), or a :class:`BuiltinPolicy` object (its name and parameters; its
    stream is not used: a batch game draws from its own).

    Parameters
    ----------
    entry : str, (str, mapping) or BuiltinPolicy
    who : str
        The argument, for messages (``"policies[1]"``).

    Returns
    -------
    (str, RolloutParams)

    Raises
    ------
    ArgumentError
        An unknown name.
    TypeError
        Anything else, or an option the policy does not take.

    Examples
    --------
    >>> policy_spec(("heuristic", {"samples": 4}), "policies[0]")[1].samples
    4
    >>> policy_spec(HeuristicPolicy(samples=8), "policies[0]")[0]
    'heuristic'
    """
    if isinstance(entry, BuiltinPolicy):
        return entry.name, entry.params
    opts: Mapping[str, Any] = {}
    if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], Mapping):
        entry, opts = entry
    if not isinstance(entry, str):
        raise TypeError(f"the policy of {who} is {shorten(entry, 60)}: a batch seat takes a name "
                        f"({', '.join(SEAT_POLICIES)}), a (name, options) pair or a built-in "
                        f"policy object ({', '.join(c.__name__ for c in BUILTIN.values())})")
    name, opts = _renamed(entry, dict(opts), who)
    name = choice(name, who, SEAT_POLICIES, what="batch policy")
    if name == "random":
        no_unknown(opts, f"policy 'random' of {who}")
        return name, _NONE
    if name == "solver":
        return name, solver_options(**opts)
    if name == "external":
        no_unknown({k: v for k, v in opts.items() if k != "fantasyland_value"},
                   f"policy 'external' of {who}")
    fields = {f.name for f in dataclasses.fields(RolloutParams)}
    no_unknown({k: v for k, v in opts.items() if k not in fields}, f"policy {name!r} of {who}")
    return name, RolloutParams(**opts)


def _renamed(name: str, opts: dict[str, Any], who: str) -> tuple[str, dict[str, Any]]:
    """The 0.3 names: ``"best"`` is ``"greedy"``; the batch's ``"heuristic"``
    raced its moves unless ``race=False``, which is ``"racing"`` now."""
    if name == "best":
        warn_renamed(f"the batch policy 'best' ({who})", "'greedy'", since="0.4", stacklevel=5)
        name = "greedy"
    if "race" in opts:
        race = flag(opts.pop("race"), f"{who}: race")
        if name == "heuristic" and race:
            warn_renamed(f"('heuristic', {{'race': True}}) ({who})", "'racing'", since="0.4",
                         stacklevel=5)
            name = "racing"
        else:
            warn_renamed(f"the option race ({who})", "'heuristic' (exhaustive) or 'racing'",
                         since="0.4", stacklevel=5)
    return name, opts


def seat_policy(spec: PolicySpec) -> tuple[int, int, int, int, float, float, int, float, int,
                                            float]:
    """The C struct of a checked seat policy (``ofc_fast._policies.policy_params``):
    kind, samples, tries, max_moves, foul_cost, fantasyland_value, and the
    solver's n, z, first_round and time budget (0: none)."""
    name, p = spec
    if isinstance(p, SolverOptions):
        tries = p.tries if p.completion == "best" else 1
        return (KINDS[name], 1, tries, 1, 0.0, p.fantasyland_value, p.n, p.z, p.first_round,
                p.time_budget_ms or 0.0)
    return (KINDS[name], p.samples, p.tries, p.max_moves, p.foul_cost, p.fantasyland_value, 1,
            0.0, 1, 0.0)


def fantasyland_move(view: PlayerView, moves: MoveList, fantasyland_value: float = UNSET, *,
                     fl_value: float = UNSET) -> Move:
    """The move of a fantasyland hand that sets the exact best arrangement.

    Parameters
    ----------
    view : PlayerView
        The view of the player to act, in fantasyland (``view.street == -1``).
    moves : MoveList
        Its legal moves (the move is taken from the solution).
    fantasyland_value : float
        Points a repeat of fantasyland is worth (objective
        ``"royalties+repeat"`` of :func:`ofc_fast.solve_fantasyland`).
    fl_value
        Deprecated (0.3): ``fantasyland_value``.

    Returns
    -------
    Move
        Every dealt card to its row in the solution, the rest discarded.

    Raises
    ------
    ArgumentError
        When the view's hand is not a fantasyland deal, or
        ``fantasyland_value`` is not a finite number of points.
    TypeError
        ``fantasyland_value`` missing or not a number.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=1, fantasyland=[14, 0])
    >>> move = fantasyland_move(g.view(g.to_act), g.legal_moves(), 20.0)
    >>> move in g.legal_moves()
    True
    """
    if fl_value is not UNSET:
        warn_renamed("fantasyland_move(fl_value=...)", "fantasyland_move(fantasyland_value=...)",
                     since="0.3")
        fantasyland_value = fl_value
    if fantasyland_value is UNSET:
        raise TypeError("fantasyland_move() missing 1 required argument: 'fantasyland_value'")
    fv = points(fantasyland_value, "fantasyland_value")
    if view.street != -1:
        raise ArgumentError(f"seat {view.seat} plays a street, not a fantasyland deal: "
                            f"fantasyland_move sets fantasyland hands")
    return moves[fantasyland_choice(moves._live_core(), fv)]


def seeded_policies(n_players: int, seed: SeedLike, salt: int = 0) -> list[RandomPolicy]:
    """A RandomPolicy per seat, reproducible when ``seed`` is.

    Parameters
    ----------
    n_players : int
        Seats.
    seed : int, SeedSequence or other
        An int or a SeedSequence seeds the policies; anything else (None, a
        Generator) gives unseeded ones.
    salt : int
        Tells streams of one seed apart (``Game.run`` uses 1).

    Returns
    -------
    list of RandomPolicy

    Raises
    ------
    ArgumentError
        For a negative seed or salt.

    Examples
    --------
    >>> a, b = seeded_policies(2, 7), seeded_policies(2, 7)
    >>> [p._core.stream.state() for p in a] == [p._core.stream.state() for p in b]
    True
    """
    salt = integer(salt, "salt", 0)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        ss = np.random.SeedSequence([integer(seed, "seed", 0), salt])
    elif isinstance(seed, np.random.SeedSequence):
        ss = np.random.SeedSequence(seed.entropy, spawn_key=tuple(seed.spawn_key) + (salt,))
    else:
        return [RandomPolicy() for _ in range(n_players)]
    return [RandomPolicy(child) for child in ss.spawn(n_players)]


def resolve_policies(policies: PoliciesLike, n_players: int,
                     default: Callable[[], Sequence[Policy]] | None = None) -> list[Policy]:
    """One policy per seat from what a caller gives (``Game.run`` and
    ``Match`` resolve through here).

    Parameters
    ----------
    policies : Policy, sequence of Policy, mapping of int to Policy, or None
        One policy for every seat, a list per seat, or a dict seat -> policy.
    n_players : int
        Seats.
    default : callable or None
        For ``policies=None``: returns the list (default: an unseeded
        RandomPolicy per seat).

    Returns
    -------
    list of Policy
        One per seat.

    Raises
    ------
    TypeError
        For anything without a ``choose`` method, naming the seat, or a
        seat that is not an integer.
    ArgumentError
        For a seat missing or not at the table, or a list of the wrong length.

    Examples
    --------
    >>> pol = RandomPolicy(1)
    >>> resolve_policies(pol, 3) == [pol, pol, pol]
    True
    >>> resolve_policies({0: pol}, 2)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: policies must name every seat 0 .. 1; seat 1 has none
    """
    P = n_players
    if policies is None:
        return list(default()) if default is not None else [RandomPolicy() for _ in range(P)]
    out = per_seat(policies, P, _is_policy, lambda pol: _not_a_policy(pol, "every seat"))
    for p, pol in enumerate(out):
        if not _is_policy(pol):
            raise _not_a_policy(pol, f"seat {p}")
    return out


def per_seat(policies: object, n_players: int, single: Callable[[object], bool],
             refuse: Callable[[object], Exception]) -> list[Any]:
    """One entry per seat from what a caller gives as ``policies``: one entry
    for every seat (``single(policies)``), a sequence of one per seat, or a
    mapping seat -> entry naming every seat; anything else ``refuse``-d.
    :func:`resolve_policies` (policy objects) and the batch engine (names,
    pairs and built-in objects) read their ``policies=`` here."""
    P = n_players
    if single(policies):
        return [policies] * P                       # one policy plays every seat
    if isinstance(policies, Mapping):
        given = {seat(k, P, "a seat of policies"): pol for k, pol in policies.items()}
        missing = [p for p in range(P) if p not in given]
        if missing:
            raise ArgumentError(f"policies must name every seat 0 .. {P - 1}; seat {missing[0]} "
                                f"has none")
        return [given[p] for p in range(P)]
    if isinstance(policies, (Sequence, np.ndarray)) and not isinstance(policies, (str, bytes)):
        if len(policies) != P:
            raise ArgumentError(f"need one policy per seat ({P}), got {len(policies)}")
        return list(policies)
    raise refuse(policies)


def _is_policy(pol: object) -> TypeGuard[Policy]:
    return not isinstance(pol, type) and callable(getattr(pol, "choose", None))


def _not_a_policy(pol: object, who: str) -> TypeError:
    return TypeError(f"the policy of {who} is {shorten(pol, 60)}: a policy is an object "
                     f"with a choose(view, moves) method")
