"""Self-play as recorded hands: :func:`selfplay` plays hands of built-in
policies in a :class:`~ofc_fast.sim.batch.GameBatch` and returns them as an
``ofc-hand/1`` records chunk (:func:`hands_chunk`), :func:`selfplay_chunks`
one round at a time.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ofc_fast._args import SeedLike, fits_memory, instance, integer, seed_entropy
from ofc_fast._table import FantasylandLike
from ofc_fast.cards import EMPTY
from ofc_fast.errors import ArgumentError, shorten
from ofc_fast.records import Chunk, Group
from ofc_fast.rule_options import variant_options
from ofc_fast.rules import Variant, as_variant
from ofc_fast.sim.batch import FinishedHands, GameBatch, _finished, hand_bytes
from ofc_fast.sim.spec import BatchPolicies, BatchSpec, _is_seat_policy
from ofc_fast.threads import thread_count

__all__ = ["selfplay", "selfplay_chunks", "selfplay_spec", "SelfplaySpec", "hands_chunk"]


# -------------------------------------------------------------- self-play
def _seat_names(names: object, policies: tuple[str, ...]) -> tuple[str, ...]:
    """Player names by seat: ``names``, or the policies' (``"random-1"`` when
    a policy plays more than one seat)."""
    P = len(policies)
    if names is None:
        return tuple(n if policies.count(n) == 1 else f"{n}-{p}" for p, n in enumerate(policies))
    if isinstance(names, (str, bytes)) or not isinstance(names, (Sequence, np.ndarray)):
        raise TypeError(f"names must be a sequence of names, one per seat, got {shorten(names)}")
    if len(names) != P:
        raise ArgumentError(f"names must give one name per seat ({P}), got {shorten(names)}")
    return tuple(str(n) for n in names)


def hands_chunk(hands: FinishedHands, names: Sequence[str] | None = None, *,
                id_prefix: str = "", source: str = "<selfplay>") -> Chunk:
    """Finished hands as a records :class:`~ofc_fast.records.Chunk` in the
    ``ofc-hand/1`` model, what a reader yields: every writer, frame tool and
    ``ofc-fast score --verify`` take it.

    Each hand is one record: players in record seat order (seat 0 the
    button, as :meth:`Game.record`), their rows, discards, fantasyland count
    and points (as recorded points); its id is ``f"{id_prefix}{game}-{hand}"``.

    Parameters
    ----------
    hands : FinishedHands
        From :meth:`GameBatch.run_recorded` or :meth:`GameBatch.last_hands`.
    names : sequence of str, optional
        Player names by batch seat (default ``player 0`` ...).
    id_prefix : str
        Put before every hand id.
    source : str
        What the chunk's messages call its source.

    Returns
    -------
    Chunk
        Not scored (``chunk.score()`` adds our results; the recorded points
        are the batch's).

    Raises
    ------
    ArgumentError
        ``names`` of another length than the seats; a variant that is not
        one of the named variants (its records could not name it).
    TypeError
        ``hands`` that are not :class:`FinishedHands`, ``id_prefix`` or
        ``source`` not text.

    Examples
    --------
    >>> played = GameBatch("pineapple", 2, 3, seed=4).run_recorded(hands=1)
    >>> chunk = hands_chunk(played, ["ann", "bob", "cy"])
    >>> chunk.n_hands, chunk.hand_ids(), chunk.score().points.tolist() == chunk.recorded.tolist()
    (2, ['0-0', '1-0'], True)
    """
    instance(hands, "hands", FinishedHands, "FinishedHands (GameBatch.run_recorded, last_hands)")
    instance(id_prefix, "id_prefix", str, "text")
    instance(source, "source", str, "text")
    v = hands.variant
    H, P = hands.points.shape
    seat_names = _seat_names(names, ("player",) * P) if names is not None else \
        tuple(f"player {p}" for p in range(P))
    # record seat k is batch seat (button + k) % P
    seat = (hands.button.astype(np.int64)[:, None] + np.arange(P)) % P
    rows_ix = np.arange(H)[:, None]
    layouts = hands.layouts[rows_ix, seat]
    disc = hands.discards[rows_ix, seat].reshape(H * P, hands.discards.shape[2])
    keep = disc != EMPTY
    off = np.zeros(H * P + 1, np.int64)
    np.cumsum(keep.sum(axis=1), out=off[1:])
    fl = np.ascontiguousarray(hands.fantasyland_count[rows_ix, seat])
    code = seat.reshape(-1)
    name = np.array(seat_names, object)[code] if H else np.empty(0, object)
    ids = [f"{id_prefix}{g}-{k}" for g, k in zip(hands.game.tolist(), hands.hand_number.tolist(),
                                                    strict=True)]
    opts = variant_options(v)
    return Chunk(
        source=source, hand_start=np.arange(H + 1, dtype=np.int64) * P, hand_id=ids,
        hand_line=np.arange(H, dtype=np.int64), hand_variant=np.zeros(H, np.int64),
        variants=[(v, v.name, opts or None)],
        groups=[Group(v, P, layouts, fl, np.arange(H), np.arange(H * P).reshape(H, P))] if H
        else [],
        name=name, in_fantasyland=fl.reshape(-1),
        recorded=hands.points[rows_ix, seat].reshape(-1).astype(np.int64),
        has_recorded=np.ones(H * P, bool), discards=(off, disc[keep]), unit="position",
        n_records=H, name_codes=(code, list(seat_names)))


@dataclass(frozen=True)
class SelfplaySpec:
    """Self-play's arguments, checked (:func:`selfplay_spec`).

    Parameters
    ----------
    batch : BatchSpec
        The games' arguments.
    n_hands : int
        Hands to play.
    n_games : int
        Games side by side.
    names : tuple of str
        Player names by seat.
    seed : tuple of int
        The seed's entropy.

    Examples
    --------
    >>> selfplay_spec("pineapple", 25, n_games=10, seed=3).seed
    (3,)
    """
    batch: BatchSpec
    n_hands: int
    n_games: int
    names: tuple[str, ...]
    seed: tuple[int, ...]


def selfplay_spec(variant: Variant | str = "pineapple", n_hands: int = 1000,
                  policies: BatchPolicies = "random", *, n_players: int | None = None,
                  seed: SeedLike = None, n_games: int | None = None,
                  fantasyland: FantasylandLike = None, auto: bool = True,
                  names: Sequence[str] | None = None) -> SelfplaySpec:
    """Check :func:`selfplay`'s arguments without playing (or building) anything.

    Parameters
    ----------
    variant, n_hands, policies, n_players, seed, n_games, fantasyland, auto, names
        As for :func:`selfplay`.

    Returns
    -------
    SelfplaySpec

    Raises
    ------
    ArgumentError, TypeError, RulesError
        Bad arguments, an ``"external"`` seat, a variant its records cannot name.

    Examples
    --------
    >>> selfplay_spec("pineapple", 25, ["heuristic", "random"], n_games=10).names
    ('heuristic', 'random')
    """
    v = as_variant(variant)
    n = integer(n_hands, "n_hands", 0, 2**62)
    if n_players is None:       # a list or a dict names every seat
        P: object = len(policies) if isinstance(policies, (list, np.ndarray, Mapping)) or (
            isinstance(policies, tuple) and not _is_seat_policy(policies)) else 2
    else:
        P = n_players
    spec = BatchSpec.check(v, P, policies=policies, fantasyland=fantasyland, auto=auto)
    if spec.external:
        raise ArgumentError(f"selfplay plays built-in policies; seat {spec.external[0]} is "
                            f"'external'")
    G = min(max(n, 1), 10_000) if n_games is None else integer(n_games, "n_games", 1, 2**31 - 1)
    G = min(G, max(n, 1))       # more games would play no hand (one plays alike in any batch)
    variant_options(v)                  # a variant its records can name
    return SelfplaySpec(spec, n, G, _seat_names(names, spec.policies), tuple(seed_entropy(seed)))


def _rounds(sp: SelfplaySpec, n_threads: int | None) -> Iterator[FinishedHands]:
    """Self-play's rounds of ``n_games`` hands (the last cut to ``n_hands``)."""
    b = sp.batch
    batch = GameBatch.from_spec(b, sp.n_games, seed=list(sp.seed), n_threads=n_threads)
    done = 0
    while done < sp.n_hands:
        hands = batch.run_recorded(hands=1)
        if sp.n_hands - done < sp.n_games:
            hands = hands.head(sp.n_hands - done)
        done += len(hands)
        yield hands


def _source(sp: SelfplaySpec) -> str:
    return f"<selfplay {sp.batch.variant.name} seed={list(sp.seed)}>"


def selfplay_chunks(variant: Variant | str = "pineapple", n_hands: int = 1000,
                    policies: BatchPolicies = "random", *, n_players: int | None = None,
                    seed: SeedLike = None, n_games: int | None = None,
                    fantasyland: FantasylandLike = None, auto: bool = True,
                    names: Sequence[str] | None = None, id_prefix: str = "",
                    n_threads: int | None = 1) -> Iterator[Chunk]:
    """:func:`selfplay`, a chunk at a time: one chunk per round of hands
    (``n_games`` hands, the last round cut to ``n_hands``), for files and
    progress bars.

    Parameters
    ----------
    variant, n_hands, policies, n_players, seed, n_games, fantasyland, auto, names, n_threads
        As for :func:`selfplay`.
    id_prefix : str
        Put before every hand id (``f"{id_prefix}{game}-{hand}"``).

    Returns
    -------
    iterator of Chunk
        The arguments are checked when called, the hands played as the
        chunks are taken.

    Raises
    ------
    ArgumentError, TypeError, RulesError
        Bad arguments (before any hand is played).

    Examples
    --------
    >>> [c.n_hands for c in selfplay_chunks("pineapple", 25, n_games=10, seed=1)]
    [10, 10, 5]
    """
    prefix = instance(id_prefix, "id_prefix", str, "text")
    sp = selfplay_spec(variant, n_hands, policies, n_players=n_players, seed=seed,
                       n_games=n_games, fantasyland=fantasyland, auto=auto, names=names)
    thread_count(n_threads)
    return (hands_chunk(h, sp.names, id_prefix=prefix, source=_source(sp))
            for h in _rounds(sp, n_threads))


def selfplay(variant: Variant | str = "pineapple", n_hands: int = 1000,
             policies: BatchPolicies = "random", *, n_players: int | None = None,
             seed: SeedLike = None, n_games: int | None = None,
             fantasyland: FantasylandLike = None, auto: bool = True,
             names: Sequence[str] | None = None, n_threads: int | None = 1) -> Chunk:
    """Play ``n_hands`` hands of built-in policies in C and return them as
    recorded hands: a records :class:`~ofc_fast.records.Chunk` in the
    ``ofc-hand/1`` model (layouts, discards, fantasyland, points).

    ``n_games`` games (a :class:`GameBatch`) play side by side, each a match
    (fantasyland carried from hand to hand); every round each plays one
    hand, until ``n_hands`` are played (the last round cut short).  The
    hands come round by round, game by game; hand ``"g-k"`` is hand ``k``
    of game ``g``: deck ``k`` of ``Match(variant, n_players,
    seed=[seed, g])`` (:meth:`GameBatch.game_seed`).

    Parameters
    ----------
    variant : Variant or str
        The rules (a named variant, with any options).
    n_hands : int
        Hands to play.
    policies : policy, list or dict per seat
        Built-in policies, as for :class:`GameBatch` (not ``"external"``).
    n_players : int, optional
        Seats (default: ``len(policies)`` for a list or a dict, else 2).
    seed : int, sequence of int, SeedSequence, Generator or None
        As for :class:`GameBatch`: the same seed plays the same hands.
    n_games : int, optional
        Games side by side (default ``min(n_hands, 10_000)``; never more than
        ``n_hands``, as the others would play no hand).  The hands depend on
        it (a game's hands are a match), not on ``n_threads``.
    fantasyland : None, list or dict per seat
        Fantasyland of every game's first hand.
    auto : bool
        Automatic moves (docs/rules.md section 9).
    names : sequence of str, optional
        Player names by seat (default: the seat's policy, ``"random-1"``
        style when a policy plays more than one seat).
    n_threads : int or None
        Threads (None: one per CPU).

    Returns
    -------
    Chunk
        The hands, not scored; the recorded points are the batch's (so
        ``chunk.score()`` gives them again, and ``ofc-fast score --verify``
        on a file of them reports no mismatch).  Write it with
        :func:`ofc_fast.io.open_writer`, or use it as any chunk a reader
        yields.

    Raises
    ------
    ArgumentError, TypeError, RulesError
        Bad arguments, an ``"external"`` seat.

    Examples
    --------
    >>> chunk = selfplay("pineapple", 200, ["heuristic", "random"], seed=1, n_games=100)
    >>> chunk.n_hands, sorted(set(chunk.names()))
    (200, ['heuristic', 'random'])
    >>> bool((chunk.score().points == chunk.recorded).all())
    True
    """
    sp = selfplay_spec(variant, n_hands, policies, n_players=n_players, seed=seed,
                       n_games=n_games, fantasyland=fantasyland, auto=auto, names=names)
    # the rounds' rows, their concatenation and the chunk's columns: about 6x
    # a row at the peak (measured; 8x said)
    fits_memory(sp.n_hands * 8 * hand_bytes(sp.batch),
                f"{sp.n_hands:,} hands of self-play (selfplay_chunks yields them a round at "
                f"a time)")
    parts = list(_rounds(sp, n_threads))
    if len(parts) == 1:
        hands = parts[0]
    else:
        v, P = sp.batch.variant, sp.batch.n_players
        hands = _finished(v, 0, P, 1) if not parts else FinishedHands.concat(v, parts)
    return hands_chunk(hands, sp.names, source=_source(sp))

