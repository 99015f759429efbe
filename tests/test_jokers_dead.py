"""Dead-hand detection and automatic moves with jokers (RULES.md section 12:
"dead-hand checks, automatic moves and time-outs count the joker as the
cards it may become"), exact against a brute force: every completion of the
empty slots with pool cards (naturals and jokers), each scored by the
joker-aware evaluator (a layout fouls when every substitution does)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast._search import dead_jokers_one
from ofc_fast.cards import EMPTY, JOKER
from ofc_fast.engine import Game
from ofc_fast.rollouts import engine_rules
from ofc_fast.sim import GameBatch


def brute_dead(layout: np.ndarray, pool: list[int], v: ofc.Variant) -> bool:
    """No completion of layout with distinct pool cards is legal."""
    offs = np.cumsum((0,) + v.row_sizes)
    empty = [int(i) for i in np.flatnonzero(layout == EMPTY)]
    rows = [[i for i in empty if offs[r] <= i < offs[r + 1]] for r in range(len(v.row_sizes))]
    fills = []

    def fill(r: int, left: list[int], lay: np.ndarray) -> None:
        if r == len(rows):
            fills.append(lay.copy())
            return
        for cards in itertools.combinations(left, len(rows[r])):
            lay[rows[r]] = cards
            fill(r + 1, [c for c in left if c not in cards], lay)
        lay[rows[r]] = EMPTY

    fill(0, list(pool), layout.copy())
    if not fills:
        return True
    ev = ofc.evaluate(np.array(fills, np.uint8), v)
    return bool(np.asarray(ev.foul).all())


def _cases(name: str, jokers: int, cards: str, seed: int, n: int):
    rng = np.random.default_rng(seed)
    v = ofc.variant(name, jokers=jokers, joker_cards=cards)
    NC = v.n_cards
    for _ in range(n):
        deck = rng.permutation(52 + jokers).astype(np.uint8)
        lay = deck[:NC].copy()
        # sorted rows foul less: half the layouts bottom-heavy, so both answers occur
        if rng.random() < 0.5:
            lay = np.sort(lay)
        e = int(rng.integers(1, 4))
        lay[rng.choice(NC, e, replace=False)] = EMPTY
        rest = deck[NC:].tolist()
        k = int(rng.integers(e, e + 6))
        pool = [int(c) for c in rng.choice(rest, min(k, len(rest)), replace=False)]
        yield v, lay, pool


@pytest.mark.parametrize("name, jokers, cards", [
    ("pineapple", 1, "row"), ("pineapple", 2, "row"), ("pineapple", 2, "board"),
    ("pineapple-2-7", 2, "row"), ("big-pineapple", 1, "row"), ("big-pineapple", 2, "board"),
    ("progressive", 2, "row"), ("classic", 1, "board"),
])
def test_dead_with_jokers_is_the_brute_force(name, jokers, cards):
    dead = alive = 0
    for v, lay, pool in _cases(name, jokers, cards, seed=len(name) + 10 * jokers, n=160):
        rules = engine_rules(v)
        mask = sum(1 << c for c in pool)
        got = dead_jokers_one(rules, lay, mask)
        want = brute_dead(lay, pool, v)
        assert got == int(want), (ofc.format_cards(lay.tolist()), ofc.format_cards(pool))
        dead += want
        alive += not want
    assert dead >= 10 and alive >= 10


@pytest.mark.parametrize("name, jokers, cards", [
    ("pineapple", 2, "row"), ("pineapple-2-7", 1, "row"), ("big-pineapple", 2, "board"),
])
def test_is_dead_and_completion_with_jokers_are_the_brute_force(name, jokers, cards):
    """The public faces (one layout, and a batch with a pool per layout):
    dead exactly when the brute force says so; an alive layout's
    completion keeps its cards, adds distinct pool cards, and does not foul."""
    cases = list(_cases(name, jokers, cards, seed=3 + jokers, n=120))
    v = cases[0][0]
    lays = np.array([lay for _, lay, _ in cases])
    pools = np.array([sum(1 << c for c in pool) for _, _, pool in cases], np.uint64)
    want = [brute_dead(lay, pool, v) for _, lay, pool in cases]
    dead, comp = ofc.completion(lays, unseen=pools, variant=v)
    assert dead.tolist() == want and 10 <= sum(want) <= len(want) - 10
    for (_, lay, pool), d, c in zip(cases, want, comp, strict=True):
        assert ofc.is_dead(lay, unseen=np.array(pool, np.uint8), variant=v) == d
        if d:
            assert (c == lay).all()
            continue
        kept = lay != EMPTY
        assert (c[kept] == lay[kept]).all()
        added = c[~kept].tolist()
        assert len(set(added)) == len(added) and set(added) <= set(pool)
        assert not ofc.evaluate(c, v).foul[0]


def test_an_unseen_joker_completes_what_naturals_cannot():
    v = ofc.variant("pineapple", jokers=2)
    lay = "Kc Kd __ / Qh Qs 3c 4d __ / __ __ __ __ __"
    naturals = "2c 2d 2h 2s 5c 6d 7h 8s"
    assert ofc.is_dead(lay, unseen=naturals, variant=v)
    assert ofc.completion(lay, unseen=naturals, variant=v) is None
    c = ofc.completion(lay, unseen=naturals + " X2", variant=v)
    assert ofc.format_layout(c, v) == "Kc Kd 2c / Qh Qs 3c 4d X2 / 2d 2h 2s 5c 6d"
    assert not ofc.evaluate(c, v).foul[0]


def test_a_joker_rescues_or_not():
    """Hand-made cases: a joker on top standing for a card in another row,
    a joker the pool deals, the board option that forbids a card."""
    v = ofc.variant("pineapple", jokers=1)
    rules = engine_rules(v)

    def dead(text: str, pool: str) -> int:
        lay = np.asarray(ofc.parse_layout(text, v), np.uint8)
        mask = sum(1 << int(c) for c in ofc.parse_cards(pool)) if pool else 0
        want = brute_dead(lay, [int(c) for c in ofc.parse_cards(pool)] if pool else [], v)
        got = dead_jokers_one(rules, lay, mask)
        assert got == int(want)
        return got
    # top AA? below a middle of two pair: only a top no stronger than the middle
    assert dead("As Ah __ / Kd Kc 2d 2c 3h / Qs Qh Qd 4c 4d", "Ad") == 1       # AAA > KK22
    assert dead("As Ah __ / Kd Kc 2d 2c 3h / Qs Qh Qd 4c 4d", "Ad 5c") == 0    # AA5 < KK22
    # the joker on top may be any card not on top (here a 5, a card of the bottom)
    assert dead("As Ah X1 / Kd Kc 2d 2c 3h / Qs Qh Qd 4c 4d", "") == 0
    # an unseen joker is a card the pool holds: it fills the slot as a small card
    assert dead("As Ah __ / Kd Kc 2d 2c 3h / Qs Qh Qd 4c 4d", "Ad X1") == 0
    assert rules.deck_size == 53


def test_bad_layouts_are_refused():
    rules = engine_rules(ofc.variant("pineapple", jokers=1))
    lay = np.full(13, EMPTY, np.uint8)
    lay[0] = JOKER + 1                      # X2 in a one-joker game
    assert dead_jokers_one(rules, lay, 0) == -1
    lay[0], lay[1] = 5, 5
    assert dead_jokers_one(rules, lay, 0) == -1


@pytest.mark.parametrize("name, jokers", [("pineapple", 2), ("pineapple-2-7", 1)])
def test_game_is_dead_on_the_last_street_is_the_brute_force(name, jokers):
    """Random hands with jokers played to the last street: each seat's
    is_dead against the brute force over the cards it has not seen (its
    hand included)."""
    v = ofc.variant(name, jokers=jokers)
    checked = dead = 0
    for seed in range(100):
        g = Game(v, 2, seed=seed, auto=False)
        pol = ofc.RandomPolicy(seed=seed)
        last = max(s for _, s, _, _ in g.schedule)
        while not g.done and g.street != last:
            g.play(pol.choose(g.view(), g.legal_moves()))
        if g.done:
            continue
        p = g.to_act
        view = g.view(p)
        pool = view.unseen.tolist() + list(view.hand)
        want = brute_dead(g.layout(p).copy(), pool, v)
        assert g.is_dead(p) == want, seed
        checked += 1
        dead += want
    assert checked >= 80 and dead >= 5


@pytest.mark.parametrize("name, P", [("pineapple", 3), ("classic", 2), ("progressive", 2)])
def test_automatic_moves_with_jokers_replay_through_game(name, P):
    """auto=True with jokers: a batch game and a Game on its deck make the
    same automatic moves (dead hands, every option dead, only option) and
    score the same."""
    v = ofc.variant(name, jokers=2)
    b = GameBatch(v, 6, P, seed=5, auto_deal=False)
    b.run(hands=1)
    reasons = set()
    for i in range(6):
        bg = b.game(i)
        g = Game(v, P, deck=bg.deck, button=bg.button)
        for t in bg.history:
            reasons.add(t.auto)
            if t.auto is None:
                g.play(t.move)
        assert g.history == bg.history
        assert g.result().points == tuple(b.last_hands([i]).points[0].tolist())
    assert reasons & {"dead", "every option dead", "only option"}


def test_a_joker_standing_for_a_card_placed_in_another_row():
    """Joker_cards "row": the joker of the second row must be Ts (a straight
    flush no weaker than the row above), and the natural Ts, the only card
    left, must fill the bottom: alive only with the card in two rows (the
    board option forbids it)."""
    text = "2c 3c 4h / Td 9d 8d 7d 6d / X1 9s 8s 7s 6s / As Ks Qs Js __"
    for cards, want in (("row", 0), ("board", 1)):
        v = ofc.variant("big-pineapple", jokers=1, joker_cards=cards)
        lay = np.asarray(ofc.parse_layout(text, v), np.uint8)
        ts = int(ofc.parse_cards("Ts")[0])
        assert brute_dead(lay, [ts], v) == bool(want)
        assert dead_jokers_one(engine_rules(v), lay, 1 << ts) == want
        # the same with Ts on the board already: "board" forbids the joker to be it
        full = lay.copy()
        full[full == EMPTY] = ts
        assert brute_dead(full, [], v) == bool(want)
        assert dead_jokers_one(engine_rules(v), full, 0) == want
        part = full.copy()
        part[0] = EMPTY                         # and with a slot to fill on top
        assert brute_dead(part, [0, 1, 5], v) == bool(want)
        assert dead_jokers_one(engine_rules(v), part, 0b100011) == want
