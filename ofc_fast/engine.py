"""Play Open Face Chinese hands and matches (RULES.md sections 7-9).

:class:`Game` deals one hand from a seeded 52-card deck and walks the players
through the variant's streets; :class:`Match` plays a sequence of hands with
the button, fantasyland and running scores.  Policies (:class:`RandomPolicy`,
:class:`HeuristicPolicy`, or anything with a ``choose(view, moves)`` method)
decide moves.  The state machine, move enumeration and dead-hand search run in
the Cython core ``ofc_fast._rollout``.

>>> g = Game("pineapple", players=3, seed=7)
>>> g.to_act, g.street, len(g.hand)       # left of the button acts first
(1, 0, 5)
>>> result = g.run(RandomPolicy(seed=1))
>>> sum(result.points)                    # zero-sum
0
>>> record = g.record()
>>> record["format"], len(record["players"])
('ofc-hand/1', 3)

Moves
-----
A :class:`Move` names the dealt cards (in deal order) and a destination for
each: a row index (0 = top) or ``DISCARD`` (-1).  :meth:`Game.legal_moves`
returns every distinct placement as a lazy sequence; :meth:`Game.play` also
accepts a mapping such as ``{"bottom": "Kd 7c", "discard": "2s"}``.
"""
from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping

import numpy as np

from ofc_fast._rollout import AUTO_REASONS, HandCore
from ofc_fast.cards import CardError, format_cards, parse_cards
from ofc_fast.layouts import as_variant
from ofc_fast.rollouts import (completion, is_dead, play_rules, rollout, rollout_ev)
from ofc_fast.rules import (ROYALTY_PRESETS, SCORING_PRESETS, VARIANTS, Variant, variant,
                            big_pineapple_royalties)
from ofc_fast.moves import (DISCARD, HandResult, Move, MoveList, PlayerView, Turn,
                            _move_from_mapping)
from ofc_fast.policies import HeuristicPolicy, Policy, RandomPolicy, _default_policies, _policies

__all__ = [
    "DISCARD", "Move", "MoveList", "Game", "Match", "PlayerView", "HandResult", "Turn",
    "Policy", "RandomPolicy", "HeuristicPolicy", "is_dead", "completion", "rollout",
    "rollout_ev", "variant_options",
]

# ---------------------------------------------------------------------------- game
def _fantasyland_spec(spec, P: int, v: Variant):
    """Per-seat (cards, count) from the ``fantasyland=`` argument."""
    cards = [0] * P
    count = [0] * P
    if spec is None:
        return cards, count
    if isinstance(spec, Mapping):
        items = list(spec.items())
    else:
        items = list(enumerate(spec))
        if len(items) != P:
            raise ValueError(f"fantasyland needs one entry per player ({P}), got {len(items)}")
    allowed = sorted({c for c in v.entry_cards if c} | ({v.repeat_cards} if v.fantasyland else set()))
    for seat, entry in items:
        seat = int(seat)
        if not 0 <= seat < P:
            raise ValueError(f"fantasyland: no seat {seat} at a table of {P}")
        if entry is None or entry is False or (isinstance(entry, (int, np.integer)) and entry == 0
                                               and not isinstance(entry, bool)):
            continue
        if not v.fantasyland:
            raise ValueError(f"{v.name} is played without fantasyland, seat {seat} cannot be in it")
        if entry is True:
            n, k = allowed[0], 1
        elif isinstance(entry, (tuple, list)):
            if len(entry) != 2:
                raise ValueError(f"fantasyland seat {seat}: expected (cards, count), got {entry!r}")
            n, k = int(entry[0]), int(entry[1])
            if n == 0:
                continue
        else:
            n, k = int(entry), 1
        if n not in allowed:
            raise ValueError(f"fantasyland seat {seat}: {v.name} deals "
                             f"{' or '.join(map(str, allowed))} cards in fantasyland, not {n}")
        if not 1 <= k <= 255:
            raise ValueError(f"fantasyland seat {seat}: count must be 1 .. 255, got {k}")
        cards[seat], count[seat] = n, k
    return cards, count


def _deck(seed, deck):
    if deck is not None:
        d = parse_cards(deck) if isinstance(deck, str) else parse_cards(list(deck)) \
            if not isinstance(deck, np.ndarray) else parse_cards(deck)
        d = np.asarray(d, dtype=np.uint8).reshape(-1)
        if len(d) != 52 or len(set(d.tolist())) != 52 or (d > 51).any():
            raise CardError("deck must list all 52 cards exactly once")
        return d
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return rng.permutation(52).astype(np.uint8)


def _seats(players, v: Variant):
    if isinstance(players, (int, np.integer)) and not isinstance(players, bool):
        n = int(players)
        names = tuple(f"player {i}" for i in range(n))
    else:
        names = tuple(str(p) for p in players)
        n = len(names)
    if not v.min_players <= n <= v.max_players:
        raise ValueError(f"{v.name} is played by {v.min_players} to {v.max_players} players, "
                         f"got {n}")
    return n, names


class Game:
    """One hand of OFC.

    Parameters
    ----------
    variant : Variant or name
    players : number of players, or their names (seat order)
    seed : int, SeedSequence, Generator or None; the deck is
        ``numpy.random.default_rng(seed).permutation(52)``, dealt in turn order
    button : the button's seat; the seat to its left acts first
    fantasyland : None, or per seat (list, or dict seat -> entry): 0/None
        (normal hand), True (the variant's first fantasyland tier), a card
        count (e.g. 14; first fantasyland hand), or ``(cards, count)`` for the
        count-th fantasyland hand in a row (repeat limits use it)
    auto : make automatic moves (RULES.md section 9: only one option, hand
        dead, every option dead) without asking the player; the time-out
        placement is played for dead hands
    deck : explicit deck order (52 cards) instead of a seeded shuffle
    id : hand id for the hand history (default: derived from the seed)

    Fantasyland players receive all their cards at once and place first
    (their hands stay hidden until the showdown, so this order is invisible to
    the others); then the other players play the streets, left of the button
    first.
    """

    def __init__(self, variant="pineapple", players=2, seed=None, button: int = 0,
                 fantasyland=None, *, auto: bool = True, deck=None, id=None):
        v = as_variant(variant)
        P, names = _seats(players, v)
        if not 0 <= int(button) < P:
            raise ValueError(f"button must be a seat 0 .. {P - 1}, got {button}")
        cards, count = _fantasyland_spec(fantasyland, P, v)
        self.variant = v
        self.names = names
        self.seed = seed
        self.id = id if id is not None else (f"{v.name}-{seed}" if isinstance(seed, (int, np.integer))
                                             else uuid.uuid4().hex[:16])
        self._core = HandCore(play_rules(v), P, _deck(seed, deck), int(button), cards, count,
                              v.first_street, v.streets, bool(auto))
        self._result: HandResult | None = None

    # ----------------------------------------------------------------- state
    @property
    def n_players(self) -> int:
        return self._core.n_players

    @property
    def button(self) -> int:
        return self._core.button

    @property
    def auto(self) -> bool:
        return self._core.auto

    @auto.setter
    def auto(self, value: bool):
        self._core.auto = bool(value)
        if value:
            self._core.run_automatic()

    @property
    def done(self) -> bool:
        return self._core.done

    @property
    def to_act(self):
        """Seat of the player to act, or None when the hand is over."""
        p = self._core.to_act
        return None if p < 0 else p

    @property
    def street(self):
        """Street of the player to act (0 = first; -1 = fantasyland), or None."""
        return self._core.street

    @property
    def hand(self) -> tuple:
        """Cards dealt to the player to act (deal order)."""
        return self._core.hand()

    @property
    def keep(self) -> int:
        """How many of the dealt cards the player to act places."""
        return self._core.keep

    @property
    def acting_order(self) -> tuple:
        """Seats in acting order: left of the button first, the button last."""
        return self._core.order_seats()

    @property
    def schedule(self) -> list:
        """Every turn of the hand in deal order: ``(seat, street, dealt, kept)``
        (street -1: a fantasyland hand, dealt at once)."""
        return self._core.schedule()

    @property
    def fantasyland(self) -> tuple:
        """Cards dealt in fantasyland this hand per seat (0 = not in fantasyland)."""
        return self._core.fantasyland()[0]

    @property
    def fantasyland_count(self) -> tuple:
        """Fantasyland hands in a row per seat, this one included (0 = none)."""
        return self._core.fantasyland()[1]

    @property
    def in_fantasyland(self) -> tuple:
        return tuple(c > 0 for c in self._core.fantasyland()[0])

    @property
    def layouts(self) -> np.ndarray:
        """``(players, n_cards)`` layouts, everything placed so far (omniscient)."""
        P = self.n_players
        return np.frombuffer(b"".join(self._core.layout(p) for p in range(P)),
                             dtype=np.uint8).reshape(P, -1).copy()

    def layout(self, seat: int) -> np.ndarray:
        return np.frombuffer(self._core.layout(seat), dtype=np.uint8).copy()

    def discards(self, seat: int) -> np.ndarray:
        return np.frombuffer(self._core.discards(seat), dtype=np.uint8).copy()

    @property
    def deck(self) -> np.ndarray:
        """The deck order this hand deals from."""
        return np.frombuffer(self._core.deck_order(), dtype=np.uint8).copy()

    @property
    def history(self) -> list:
        """Played turns in order (:class:`Turn`)."""
        return [Turn(seat, street, Move(cards, rows), AUTO_REASONS[reason])
                for seat, street, cards, rows, reason in self._core.history()]

    # ----------------------------------------------------------------- moves
    def legal_moves(self) -> MoveList:
        """Every distinct move of the player to act (empty when the hand is over).
        Moves that foul are legal."""
        return MoveList(self._core)

    def play(self, move) -> None:
        """Play a move for the player to act, then any automatic moves.

        ``move`` is a :class:`Move` (cards in any order), a ``(cards, rows)``
        pair, or a mapping from row names (``"top"``, ``"middle"``,
        ``"bottom"``; four rows: ``"third"``, ``"second"``; ``"discard"``) to
        cards, where dealt cards it does not name are discarded.  An illegal
        move raises ValueError saying why, and the state is unchanged.
        """
        core = self._core
        if type(move) is Move or (isinstance(move, tuple) and len(move) == 2
                                  and not isinstance(move, Mapping)):
            cards, rows = move
        elif isinstance(move, Mapping):
            if core.done:
                raise ValueError("the hand is over: no move to make")
            cards, rows = _move_from_mapping(move, core.hand(), self.variant)
        else:
            raise TypeError(f"a move is a Move, a (cards, rows) pair or a mapping, got {type(move).__name__}")
        core.apply(core.check(cards, rows))

    def timeout_move(self) -> Move:
        """The time-out placement for the player to act (RULES.md section 9):
        first cards dealt placed bottom row first, then up; last ones discarded."""
        return Move(self._core.hand(), self._core.timeout_rows())

    def timeout(self) -> None:
        """Play the time-out placement for the player to act."""
        core = self._core
        core.apply(core.timeout_rows(), 4)

    def automatic_move(self):
        """``(reason, Move)`` when the player to act may be moved automatically
        ("only option", "dead", "every option dead"), else None."""
        reason, rows = self._core.automatic()
        if not reason:
            return None
        return AUTO_REASONS[reason], Move(self._core.hand(), rows)

    def is_dead(self, seat: int) -> bool:
        """No completion of the seat's layout with cards it has not seen can be
        legal (the cards in its hand count as available)."""
        return bool(self._core.is_dead(int(seat)))

    def view(self, seat: int) -> PlayerView:
        if not 0 <= seat < self.n_players:
            raise ValueError(f"no seat {seat} at a table of {self.n_players}")
        return PlayerView(self, seat)

    def run(self, policies=None) -> HandResult:
        """Play the hand to the end with policies (one for every seat, a list
        per seat, or a dict seat -> policy; default: a RandomPolicy per seat
        seeded from the game's seed) and return the result."""
        if policies is None:
            policies = _default_policies(self.n_players, self.seed, salt=1)
        pols = _policies(policies, self.n_players)
        core = self._core
        while not core.done:
            p = core.to_act
            move = pols[p].choose(PlayerView(self, p), MoveList(core))
            self.play(move)
        return self.result()

    # --------------------------------------------------------------- results
    def result(self) -> HandResult:
        """Points, fouls, royalties and next-hand fantasyland (hand over)."""
        if self._result is None:
            if not self._core.done:
                raise ValueError("the hand is not finished")
            pts, foul, roy, rows, strengths, fan, rep = self._core.result()
            cnt = self.fantasyland_count
            nxt = tuple(min(cnt[p] + 1, 255) if fan[p] else 0 for p in range(self.n_players))
            self._result = HandResult(points=pts, foul=foul, royalties=roy, row_royalties=rows,
                                      strengths=strengths, fantasyland=fan,
                                      next_in_fantasyland=nxt, repeat=rep)
        return self._result

    def record(self, id=None, names=None) -> dict:
        """The finished hand as an ``ofc-hand/1`` record (one JSON Lines object):
        players in seat order starting with the button (seat 0 = button);
        rows and discards as card text, ``in_fantasyland`` the fantasyland
        count (0 normal, k for the k-th fantasyland hand in a row), ``points``
        the hand's result, ``options`` the keyword arguments that rebuild the
        variant with :func:`ofc_fast.variant`."""
        res = self.result()
        v = self.variant
        P = self.n_players
        names = tuple(names) if names is not None else self.names
        players = []
        for k in range(P):
            p = (self.button + k) % P
            lay = self._core.layout(p)
            entry = {"name": names[p]}
            off = 0
            for row, size in zip(v.row_names, v.row_sizes):
                entry[row] = format_cards(list(lay[off:off + size]))
                off += size
            entry["in_fantasyland"] = int(self.fantasyland_count[p])
            entry["discards"] = format_cards(list(self._core.discards(p)))
            entry["points"] = int(res.points[p])
            players.append(entry)
        return {"format": "ofc-hand/1", "id": str(id if id is not None else self.id),
                "variant": v.name, "options": variant_options(v), "players": players}

    def __repr__(self) -> str:
        state = "over" if self.done else f"seat {self.to_act} to act"
        return f"<Game {self.variant.name}, {self.n_players} players, button {self.button}, {state}>"


def variant_options(v: Variant) -> dict:
    """Options that rebuild ``v`` from its base variant: ``variant(v.name,
    **variant_options(v)) == v`` (JSON-safe)."""
    base = VARIANTS.get(v.name)
    if base is None:
        raise ValueError(f"{v.name!r} is not a named variant")
    opts: dict = {}
    if v.royalties != base.royalties:
        preset = [k for k, r in ROYALTY_PRESETS.items()
                  if (r if v.n_rows == 3 else big_pineapple_royalties(r)) == v.royalties]
        opts["royalties"] = preset[0] if preset else _royalty_mapping(v)
    if v.scoring != base.scoring:
        preset = [k for k, s in SCORING_PRESETS.items() if s == v.scoring]
        opts["scoring"] = preset[0] if preset else {
            f.name: getattr(v.scoring, f.name) for f in dataclasses.fields(v.scoring)}
    if v.lowball != base.lowball:
        opts["lowball"] = v.lowball
    if v.finnish != base.finnish:
        opts["finnish"] = v.finnish
    if not v.fantasyland and base.fantasyland:
        opts["fantasyland"] = False
    elif v.repeat != base.repeat:
        opts["repeat"] = v.repeat
    if v.repeat_limit != base.repeat_limit and v.fantasyland:
        opts["repeat_limit"] = v.repeat_limit
    if v.fantasyland:
        # after lowball, which sets its own entry tiers
        rebuilt = variant(v.name, **opts) if opts else base
        if v.entry_cards != rebuilt.entry_cards:
            opts["entry_cards"] = list(v.entry_cards)
        if v.repeat_cards != rebuilt.repeat_cards:
            opts["repeat_cards"] = v.repeat_cards
    return opts


def _royalty_mapping(v: Variant) -> dict:
    from ofc_fast.rules import HAND_CODES
    r = v.royalties
    rows = ("middle", "bottom") if v.n_rows == 3 else ("third", "second", "bottom")
    out: dict[str, object] = {"name": r.name, "top_pairs": list(r.top_pairs),
                              "top_trips": list(r.top_trips),
                              "lowball": [list(x) for x in r.lowball]}
    for name, row in zip(rows, r.rows):
        out[name] = {h: int(row[code]) for h, code in HAND_CODES.items()}
    return out


# ---------------------------------------------------------------------------- match
class Match:
    """A sequence of hands at one table (RULES.md sections 7 and 9).

    The button moves one seat after every hand without a fantasyland player;
    fantasyland earned in a hand is played in the next one; running scores
    come from :func:`ofc_fast.score_tables`.  The match lasts until the
    button has moved ``hands`` times (default: one full orbit, one hand per
    player), so every fantasyland hand adds one hand.  With
    ``finish_fantasyland`` (default) fantasyland earned in the last hand is
    still played (a fantasyland hand, so it does not move the button).

    Parameters
    ----------
    variant, players : as for :class:`Game`
    hands : button moves the match lasts (default, and minimum: the number of
        players)
    seed : seeds every hand's deck (spawned per hand) and the default policies
    policies : default policies for :meth:`run` / :meth:`play_hand` (default:
        a RandomPolicy per seat, seeded from ``seed``)
    button : the first hand's button
    auto : automatic moves, as for :class:`Game`
    finish_fantasyland : play out fantasyland earned in the last hand
    fantasyland : fantasyland for the first hand, as for :class:`Game`

    >>> m = Match("pineapple", players=2, seed=3)
    >>> scores = m.run(RandomPolicy(seed=4))
    >>> int(scores.sum()), m.hands_played >= 2
    (0, True)
    """

    def __init__(self, variant="pineapple", players=2, hands: int | None = None, seed=None, *,
                 policies=None, button: int = 0, auto: bool = True,
                 finish_fantasyland: bool = True, id=None, fantasyland=None):
        v = as_variant(variant)
        P, names = _seats(players, v)
        hands = P if hands is None else int(hands)
        if hands < P:
            raise ValueError(f"a match lasts at least one full orbit ({P} hands for {P} players), "
                             f"got hands={hands}")
        if not 0 <= int(button) < P:
            raise ValueError(f"button must be a seat 0 .. {P - 1}, got {button}")
        self.variant = v
        self.names = names
        self.n_players = P
        self.hands = hands
        self.finish_fantasyland = bool(finish_fantasyland)
        self.auto = bool(auto)
        self.id = id if id is not None else (f"{v.name}-match-{seed}" if isinstance(seed, (int, np.integer))
                                             else uuid.uuid4().hex[:16])
        self._ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        self._policies = _policies(policies, P) if policies is not None \
            else [RandomPolicy(child) for child in self._ss.spawn(P)]
        self.button = int(button)
        self.button_moves = 0
        self.scores = np.zeros(P, np.int64)
        self.results: list = []
        self.records: list = []
        fl_cards, fl_count = _fantasyland_spec(fantasyland, P, v)
        self._fl = [(c, k) for c, k in zip(fl_cards, fl_count)]
        self._game: Game | None = None

    @property
    def hands_played(self) -> int:
        return len(self.results)

    @property
    def fantasyland(self) -> tuple:
        """Per seat ``(cards, count)`` for the next hand (``(0, 0)``: normal)."""
        return tuple(self._fl)

    @property
    def done(self) -> bool:
        if self._game is not None:
            return False
        if self.button_moves < self.hands:
            return False
        return not (self.finish_fantasyland and any(c for c, _ in self._fl))

    def start_hand(self, deck=None) -> Game:
        """Deal the next hand (play it, then call :meth:`end_hand`).  ``deck``
        replaces the seeded shuffle with a given order (replays, tests)."""
        if self._game is not None:
            raise RuntimeError("the current hand is not finished: call end_hand() first")
        if self.done:
            raise RuntimeError("the match is over")
        k = self.hands_played
        self._game = Game(self.variant, self.names, seed=self._ss.spawn(1)[0], button=self.button,
                          fantasyland=[fl if fl[0] else 0 for fl in self._fl], auto=self.auto,
                          id=f"{self.id}-{k}", deck=deck)
        return self._game

    def end_hand(self) -> HandResult:
        """Score the finished current hand, carry fantasyland, move the button."""
        from ofc_fast.scoring import score_tables
        g = self._game
        if g is None:
            raise RuntimeError("no hand in progress: call start_hand() first")
        if not g.done:
            raise RuntimeError("the current hand is not finished")
        counts = np.array(g.fantasyland_count, np.uint8)
        tab = score_tables(g.layouts[None], self.variant, in_fantasyland=counts[None], details=True)
        pts = tab.points[0].astype(np.int64)
        res = g.result()
        self.scores += pts
        self.results.append(res)
        self.records.append(g.record())
        fan = tab.fantasyland[0]
        self._fl = [(int(fan[p]), min(int(counts[p]) + 1, 255) if fan[p] else 0)
                    for p in range(self.n_players)]
        if not any(g.in_fantasyland):
            self.button = (self.button + 1) % self.n_players
            self.button_moves += 1
        self._game = None
        return res

    def play_hand(self, policies=None) -> HandResult:
        """Deal, play (with the given or the match's policies) and score one hand."""
        pols = policies if policies is not None else self._policies
        self.start_hand().run(pols)
        return self.end_hand()

    def run(self, policies=None) -> np.ndarray:
        """Play every remaining hand; returns the running scores per seat."""
        pols = _policies(policies, self.n_players) if policies is not None else self._policies
        while not self.done:
            self.play_hand(pols)
        return self.scores.copy()

    def __repr__(self) -> str:
        return (f"<Match {self.variant.name}, {self.n_players} players, "
                f"{self.hands_played} hands played, scores {self.scores.tolist()}>")

