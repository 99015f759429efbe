"""Games at a given position: a spot from a real hand read against the
variant's deal (which turns each seat has played), the cards it does not
give drawn from the unused ones, and the turns replayed
(:meth:`Game.from_position <ofc_fast.game.Game.from_position>`).

>>> from ofc_fast import Game
>>> g = Game.from_position("pineapple", [
...     "As __ __ / 2c 2d 5c __ __ / Tc Jc Qc __ __",
...     "__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __"], button=1, seed=1)
>>> g.to_act, g.street
(1, 1)
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np

from ofc_fast._args import seat as seat_arg
from ofc_fast._args import seed_sequence
from ofc_fast._hand import HandCore
from ofc_fast._table import card_list, fantasyland_spec, per_seat, seats
from ofc_fast.cards import EMPTY, CardError, format_cards, is_joker, joker_refusal
from ofc_fast.errors import ArgumentError, LayoutError, shorten
from ofc_fast.fantasyland import solve_fantasyland
from ofc_fast.layouts import check_layouts
from ofc_fast.moves import DISCARD, hand_error
from ofc_fast.rules import as_variant

__all__ = ["game_at_position"]


class _GameLike(Protocol):
    """What this module needs of a game (``Game``, without importing it)."""
    _core: HandCore

    @property
    def auto(self) -> bool: ...
    @auto.setter
    def auto(self, value: bool) -> None: ...

    @property
    def schedule(self) -> list[tuple[int, int, int, int]]: ...


G = TypeVar("G", bound=_GameLike)


def game_at_position(cls: Callable[..., G], variant: Any, layouts: Any, discards: Any, hand: Any,
                     to_act: Any, street: Any, button: Any, fantasyland: Any, seed: Any,
                     players: Any, auto: Any, id: Any) -> G:
    """The game of :meth:`Game.from_position <ofc_fast.game.Game.from_position>`.

    Parameters
    ----------
    cls : type
        The game class to make (``Game`` or a subclass).
    variant, layouts, discards, hand, to_act, street, button, fantasyland, seed, players, auto, id
        As :meth:`Game.from_position <ofc_fast.game.Game.from_position>` takes them.

    Returns
    -------
    cls
        The game at the position.

    Raises
    ------
    ArgumentError, LayoutError, CardError, TypeError
        As :meth:`Game.from_position <ofc_fast.game.Game.from_position>`.

    Examples
    --------
    >>> from ofc_fast import Game
    >>> g = game_at_position(Game, "pineapple", ["__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __",
    ...                                          "__ __ __ / __ __ __ __ __ / __ __ __ __ __"],
    ...                      None, None, None, None, 1, None, 1, None, True, None)
    >>> g.to_act, g.street              # seat 0 (left of the button) has played its 5
    (1, 0)
    """
    v = as_variant(variant)
    if isinstance(layouts, (str, bytes)) or not isinstance(layouts, (Sequence, np.ndarray)):
        raise TypeError(f"layouts must give one layout per seat, got {shorten(layouts)}")
    if not isinstance(layouts, np.ndarray):      # text and ids may be mixed, one per seat
        layouts = [check_layouts(x, v, f"layouts[{p}]")[0] if isinstance(x, str) else x
                   for p, x in enumerate(layouts)]
        if any(isinstance(x, np.ndarray) and x.ndim != 1 for x in layouts):
            raise ArgumentError("layouts must give one layout per seat")
    lays = check_layouts(layouts, v, "layouts")
    P = len(lays)
    P, names = seats(players if players is not None else P, v)
    if len(lays) != P:
        raise ArgumentError(f"{len(lays)} layouts for {P} players")
    button = seat_arg(button, P, "button")
    fl_cards, fl_count = fantasyland_spec(fantasyland, P, v)
    # the deal (validates the variant, players and fantasyland like any Game)
    probe = cls(v, names=names, button=button, fantasyland=fantasyland, auto=False,
                deck=np.arange(v.deck_size, dtype=np.uint8))
    sched = probe.schedule
    offs = np.cumsum((0,) + v.row_sizes)
    # ---- cards: ids, no repeats anywhere
    owner: dict[int, str] = {}

    def claim(c: int, where: str) -> None:
        if c >= v.deck_size:
            if is_joker(c):
                raise CardError(f"{where}: " + joker_refusal(c, v.jokers, f"variant {v.name}"))
            raise LayoutError(f"{where}: card id {c} is not a card (0-{v.deck_size - 1}) or "
                              f"EMPTY (255)")
        if c in owner:
            raise CardError(f"{format_cards([c])} is twice in {where}" if owner[c] == where
                            else f"{format_cards([c])} is both in {owner[c]} and in {where}")
        owner[c] = where

    placed = []
    for p in range(P):
        cards_p = []
        for r in range(v.n_rows):
            for c in lays[p, offs[r]:offs[r + 1]].tolist():
                if c != EMPTY:
                    claim(c, f"seat {p}'s layout")
                    cards_p.append((c, r))
        placed.append(cards_p)
    disc = [card_list(d, f"seat {p}'s discards")
            for p, d in enumerate(per_seat(discards, P, "discards"))]
    for p, d in enumerate(disc):
        for c in d:
            claim(c, f"seat {p}'s discards")
    hand_ids = None if hand is None else card_list(hand, "hand")
    for c in hand_ids or ():
        claim(c, "the hand")
    # ---- which turns each seat has played
    turns_of = [[t for t, (seat, *_rest) in enumerate(sched) if seat == p] for p in range(P)]
    done = [0] * P
    hidden = [False] * P
    for p in range(P):
        n = len(placed[p])
        kept = 0
        for t in turns_of[p]:
            if kept == n:
                break
            kept += sched[t][3]
            done[p] += 1
        if kept != n:
            counts = [0]
            for t in turns_of[p]:
                counts.append(counts[-1] + sched[t][3])
            raise ArgumentError(f"seat {p} has placed {n} cards; after its turns of this deal it "
                             f"has {', '.join(map(str, counts))}")
    if to_act is not None:
        seat = seat_arg(to_act, P, "to_act")
        if done[seat] >= len(turns_of[seat]):
            raise ArgumentError(f"seat {seat} has placed all its cards: it has no turn to play")
        now = turns_of[seat][done[seat]]
        for p in range(P):       # a fantasyland seat to act before: played, face down
            if fl_cards[p] and done[p] == 0 and turns_of[p][0] < now:
                hidden[p] = True
                done[p] = 1
    elif any(done[p] for p in range(P) if not fl_cards[p]):
        for p in range(P):       # the others have played: so have the fantasyland seats
            if fl_cards[p] and done[p] == 0:
                hidden[p] = True
                done[p] = 1
    playing = sorted(t for p in range(P) for t in turns_of[p][:done[p]])
    now = len(playing)
    if playing != list(range(now)):
        late = min(set(range(len(sched))) - set(playing))
        seat_late = sched[late][0]
        raise ArgumentError(f"not a position of the deal: seat {seat_late} has placed "
                         f"{len(placed[seat_late])} cards, so it has not played turn {late} "
                         f"(street {sched[late][1]}), but a later turn has been played "
                         f"(turn order: {', '.join(str(t[0]) for t in sched[:now + 1])})")
    finished = now == len(sched)
    if to_act is not None and (finished or sched[now][0] != seat_arg(to_act, P, "to_act")):
        who = "nobody (the hand is over)" if finished else f"seat {sched[now][0]}"
        raise ArgumentError(f"to_act is seat {to_act}, but at this position {who} acts")
    if street is not None:
        st = None if finished else sched[now][1]
        if isinstance(street, (bool, np.bool_)) or not isinstance(street, (int, np.integer)) \
                or int(street) != st:
            where = "the hand is over" if finished else f"seat {sched[now][0]} plays street {st}"
            raise ArgumentError(f"street is {shorten(street)}, but at this position {where}")
    if hand_ids is not None:
        if finished:
            raise ArgumentError("the hand is over: no hand to act with")
        if len(hand_ids) != sched[now][2]:
            raise ArgumentError(f"seat {sched[now][0]} is dealt {sched[now][2]} cards now, the "
                             f"hand gives {len(hand_ids)}")
    for p in range(P):
        if hidden[p] and placed[p]:
            raise ArgumentError(f"seat {p} is in fantasyland with a partial layout")
        n_disc = sum(sched[t][2] - sched[t][3] for t in turns_of[p][:done[p]])
        if len(disc[p]) > n_disc:
            raise ArgumentError(f"seat {p} has discarded {n_disc} cards so far, the discards "
                             f"give {len(disc[p])}")
    # ---- the deck: turns played, the hand, then the rest shuffled
    rng = seed if isinstance(seed, np.random.Generator) else \
        np.random.default_rng(seed_sequence(seed))
    rest = [c for c in rng.permutation(v.deck_size).tolist() if c not in owner]
    deck: list[int] = []
    moves = []
    pos = [0] * P
    dpos = [0] * P
    for t in range(now):
        p, _, dealt, kept = sched[t]
        if hidden[p]:
            cards: list[int] = [rest.pop() for _ in range(dealt)]
            sol = solve_fantasyland(np.array(cards, np.uint8), v, in_fantasyland=fl_count[p])
            row_of = {int(c): int(np.searchsorted(offs, i, side="right") - 1)
                      for i, c in enumerate(sol.layout.tolist())}
            rows = [row_of.get(c, DISCARD) for c in cards]
        else:
            cards = [c for c, _ in placed[p][pos[p]:pos[p] + kept]]
            rows = [r for _, r in placed[p][pos[p]:pos[p] + kept]]
            pos[p] += kept
            for _ in range(dealt - kept):
                c = disc[p][dpos[p]] if dpos[p] < len(disc[p]) else rest.pop()
                dpos[p] += 1
                cards.append(c)
                rows.append(DISCARD)
        deck += cards
        moves.append(tuple(rows))
    if not finished:
        deck += hand_ids if hand_ids is not None else [rest.pop() for _ in range(sched[now][2])]
    deck += rest
    g = cls(v, names=names, seed=seed if not isinstance(seed, np.random.Generator) else None,
            button=button, fantasyland=fantasyland, auto=False, deck=deck, id=id)
    for dest in moves:
        status = g._core.apply(dest)
        if status:              # unreachable: the deck was built for these moves
            raise hand_error(g._core, status, variant=v)
    g.auto = bool(auto)
    return g

