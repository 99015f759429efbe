"""The play engine: Game, Match, policies, views, automatic moves, records."""
import itertools
import json

import numpy as np
import pytest

import ofc_fast as ofc
import slow_scorer as S
from ofc_fast._args import kernel_seed
from ofc_fast._hand import seeded_deck
from ofc_fast.engine import (
    DISCARD,
    Game,
    HeuristicPolicy,
    Match,
    Move,
    Policy,
    RandomPolicy,
    variant_options,
)
from ofc_fast.errors import ArgumentError, StateError
from ofc_fast.policies import fantasyland_move
from ofc_fast.rollouts import is_dead, mask_cards
from ofc_fast.rules import VARIANTS

EMPTY = 255
ALL_VARIANTS = list(VARIANTS)


# ------------------------------------------------------------------------ helpers
class Script:
    """Places cards by a fixed card -> row map; unmapped cards are discarded."""

    def __init__(self, variant, **rows):
        v = ofc.variant(variant) if isinstance(variant, str) else variant
        self.rows = {}
        for name, cards in rows.items():
            r = v.row_names.index(name)
            for c in ofc.parse_cards(cards).tolist():
                self.rows[c] = r

    def choose(self, view, moves):
        return Move(moves.cards, tuple(self.rows.get(c, DISCARD) for c in moves.cards))


def build_deck(variant, players, button=0, fantasyland=None, **cards_by_seat):
    """A deck dealing the given cards (text, deal order) to the named seats
    (``seat0="..."``); other cards fill the rest."""
    probe = Game(variant, players, button=button, fantasyland=fantasyland,
                 deck=list(range(52)), auto=False)
    want = {int(k[4:]): list(ofc.parse_cards(v).tolist()) for k, v in cards_by_seat.items()}
    used = {c for cs in want.values() for c in cs}
    assert len(used) == sum(len(cs) for cs in want.values()), "a card is given twice"
    spare = [c for c in range(52) if c not in used]
    deck = []
    for seat, _street, dealt, _kept in probe.schedule:
        for _ in range(dealt):
            deck.append(want[seat].pop(0) if want.get(seat) else spare.pop(0))
    return deck + spare


def all_cards(game):
    cards = []
    for p in range(game.n_players):
        cards += [c for c in game.layout(p).tolist() if c != EMPTY]
        cards += game.discards(p).tolist()
    return cards


# --------------------------------------------------------------------- basics
def test_player_limits():
    with pytest.raises(ValueError, match="pineapple is played by 2 to 3 players, got 4"):
        Game("pineapple", 4)
    with pytest.raises(ValueError, match="big-pineapple is played by 2 players, got 3"):
        Game("big-pineapple", names=["a", "b", "c"])
    with pytest.raises(ValueError, match="by 2 to 4 players, got 1"):
        Game("classic", 1)
    with pytest.raises(ValueError, match=r"no seat 2 at a table of 2: button must be 0 \.\. 1"):
        Game("classic", 2, button=2)
    Game("classic", 4)


def test_reproducible_deal_and_play():
    a = Game("pineapple", 3, seed=123)
    b = Game("pineapple", 3, seed=123)
    # the deck is deck 0 of the seed's C stream (pinned: a change of the stream is a
    # change of every seeded game), hand k of a match deck k of the same key
    assert a.deck[:8].tolist() == [49, 39, 22, 6, 31, 19, 42, 8]
    assert (a.deck == seeded_deck(kernel_seed(123), 0)).all()
    m = Match("pineapple", 3, seed=123)
    assert (m.start_hand().deck == a.deck).all()
    m._game.run(RandomPolicy(1))
    m.end_hand()
    assert (m.start_hand().deck == seeded_deck(kernel_seed(123), 1)).all()
    ra, rb = a.run(RandomPolicy(9)), b.run(RandomPolicy(9))
    assert ra == rb and a.history == b.history and a.record() == b.record()
    assert (Game("pineapple", 3, seed=124).deck != a.deck).any()
    ma, mb = Match("turbo", 3, seed=5), Match("turbo", 3, seed=5)
    assert (ma.run(RandomPolicy(1)) == mb.run(RandomPolicy(1))).all()
    assert ma.records == mb.records
    # default policies are seeded from the game / match seed
    assert Game("pineapple", 2, seed=3).run() == Game("pineapple", 2, seed=3).run()
    assert (Match("pineapple", 2, seed=3).run() == Match("pineapple", 2, seed=3).run()).all()


def test_acting_order_left_of_button():
    g = Game("classic", 4, seed=1, button=2)
    assert g.acting_order == (3, 0, 1, 2)
    assert g.to_act == 3
    first = [seat for seat, street, *_ in g.schedule if street == 0]
    assert first == [3, 0, 1, 2]


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_card_counts_discards_and_street_order(name):
    v = ofc.variant(name)
    for P in range(v.min_players, v.max_players + 1):
        g = Game(v, P, seed=P, button=P - 1)
        sched = [(v.first_street, v.first_street)] + list(v.streets)
        expect = [(seat, s, d, k) for s, (d, k) in enumerate(sched) for seat in g.acting_order]
        assert g.schedule == expect
        g.run(RandomPolicy(P))
        hist = g.history
        assert [(t.seat, t.street, len(t.move.cards)) for t in hist] == \
            [(s, st, d) for s, st, d, _ in expect]
        for p in range(P):
            assert (g.layout(p) != EMPTY).all()
            assert len(g.discards(p)) == sum(d - k for d, k in sched)
        cards = all_cards(g)
        assert len(cards) == len(set(cards)) == P * sum(d for d, _ in sched)
        assert sorted(cards) == sorted(g.deck[:len(cards)].tolist())


@pytest.mark.parametrize("name", [n for n, v in VARIANTS.items() if v.fantasyland])
def test_fantasyland_deal(name):
    v = ofc.variant(name)
    counts = sorted({c for c in v.entry_cards if c})
    P = v.max_players
    for n in counts:
        fl = [0] * P
        fl[1] = n
        if P > 2:
            fl[2] = (v.repeat_cards, 2)
        g = Game(v, P, seed=n, fantasyland=fl)
        # fantasyland players act first, all cards at once
        assert g.schedule[0] == (1, -1, n, v.n_cards)
        if P > 2:
            assert g.schedule[1] == (2, -1, v.repeat_cards, v.n_cards)
            assert g.fantasyland_count[2] == 2
        assert g.to_act == 1 and g.street == -1 and len(g.hand) == n
        g.run(RandomPolicy(n))
        assert len(g.discards(1)) == n - v.n_cards
        if P > 2:
            assert len(g.discards(2)) == v.repeat_cards - v.n_cards
        cards = all_cards(g)
        assert len(cards) == len(set(cards))
        assert sorted(cards) == sorted(g.deck[:len(cards)].tolist())


def test_fantasyland_argument_checks():
    with pytest.raises(ValueError, match="deals 14 cards in fantasyland, not 13"):
        Game("pineapple", 2, fantasyland=[13, 0])
    with pytest.raises(ValueError, match="without fantasyland"):
        Game(ofc.variant("pineapple", fantasyland=False), 2, fantasyland=[14, 0])
    with pytest.raises(ValueError, match="one entry per player"):
        Game("pineapple", 2, fantasyland=[14])
    g = Game("progressive", 3, fantasyland={2: 17, 0: True})
    assert g.fantasyland_deal == (14, 0, 17)


# -------------------------------------------------------------------- moves
def brute_moves(hand, keep, rooms):
    out = set()
    R = len(rooms)
    for dest in itertools.product(range(-1, R), repeat=len(hand)):
        if dest.count(-1) != len(hand) - keep:
            continue
        if all(dest.count(r) <= rooms[r] for r in range(R)):
            out.add(dest)
    return out


@pytest.mark.parametrize("name", ["pineapple", "classic", "turbo-pineapple", "big-pineapple",
                                  "turbo"])
def test_legal_moves_are_every_distinct_placement(name):
    v = ofc.variant(name)
    g = Game(v, 2, seed=3, auto=False)
    pol = RandomPolicy(4)
    while not g.done:
        moves = g.legal_moves()
        lay = g.layout(g.to_act)
        rooms, off = [], 0
        for size in v.row_sizes:
            rooms.append(int((lay[off:off + size] == EMPTY).sum()))
            off += size
        want = brute_moves(g.hand, g.keep, rooms)
        got = [m.rows for m in moves]
        assert len(got) == len(set(got)) == len(moves) == len(want)
        assert set(got) == want
        for i in (0, len(moves) // 2, len(moves) - 1):
            assert moves.index(moves[i]) == i
        g.play(pol.choose(g.view(g.to_act), moves))


def test_fantasyland_move_count():
    g = Game("progressive", 2, seed=1, fantasyland=[17, 0])
    assert len(g.legal_moves()) == 2380 * 72072     # C(17, 4) discards x 13!/(3! 5! 5!)
    m = g.legal_moves()[123456789]
    assert sorted(m.cards) == sorted(g.hand) and m.rows.count(DISCARD) == 4


def test_illegal_moves_raise_and_leave_state_unchanged():
    g = Game("pineapple", 2, seed=8, auto=False)
    g.play(g.timeout_move())                   # seat 1: five cards to the bottom
    g.play(g.timeout_move())                   # seat 0
    assert g.to_act == 1 and len(g.hand) == 3
    a, b, c = g.hand
    before = (g.layouts.copy(), g.hand, g.to_act, [g.discards(p).tolist() for p in range(2)])
    other = next(x for x in range(52) if x not in all_cards(g) and x not in g.hand)
    cases = [
        (Move((a, b, c), (0, 1, 1)), "must discard 1, it discards 0"),
        (Move((a, b, c), (0, DISCARD, DISCARD)), "must discard 1, it discards 2"),
        (Move((a, b, c), (2, 1, DISCARD)), "bottom row has room for 0 more"),
        (Move((a, b, other), (0, 1, DISCARD)), "is not among the cards dealt to seat 1"),
        (Move((a, a, c), (0, 1, DISCARD)), "places .* twice"),
        (Move((a, b), (0, 1)), "does not say where"),
        (Move((a, b, c), (0, 5, DISCARD)), "row 5 does not exist"),
        ({"top": ofc.format_card(a), "bottom": ofc.format_card(b), "discard": ofc.format_card(c)},
         "bottom row has room for 0 more"),
        ({"roof": "As"}, "unknown row 'roof'"),
    ]
    for move, msg in cases:
        with pytest.raises(ValueError, match=msg):
            g.play(move)
        assert (g.layouts == before[0]).all() and g.hand == before[1] and g.to_act == before[2]
        assert [g.discards(p).tolist() for p in range(2)] == before[3]
    # mapping form and card order do not matter
    g.play({"top": ofc.format_card(c), "middle": [a], "discard": ofc.format_card(b)})
    assert g.layout(1)[0] == c and g.layout(1)[3] == a and g.discards(1).tolist() == [b]


def test_mapping_moves_discard_unnamed_cards_and_describe():
    v = ofc.variant("pineapple")
    g = Game(v, 2, seed=8, auto=False)
    g.play(g.timeout_move())
    g.play(g.timeout_move())
    a, b, c = g.hand
    g.play({"top": [a], "middle": [b]})                 # c is discarded
    turn = g.history[-1]
    assert turn.move.discards == (c,) and turn.auto is None
    assert turn.move.describe(v) == (f"top: {ofc.format_card(a)} / middle: {ofc.format_card(b)}"
                                     f" / discard: {ofc.format_card(c)}")
    assert turn.move.placed() == {0: (a,), 1: (b,)}


def test_auto_can_be_switched_on_later():
    v = ofc.variant("classic")
    g = Game(v, 2, seed=5, auto=False)
    pol = RandomPolicy(3)
    while len(g.history) < 16:                          # up to the last street
        g.play(pol.choose(g.view(g.to_act), g.legal_moves()))
    assert g.automatic_move()[0] in ("only option", "dead", "every option dead")
    g.auto = True                                       # plays the remaining forced moves
    assert g.done and g.history[-1].auto is not None


def test_play_after_the_hand_is_over():
    g = Game("pineapple", 2, seed=2)
    g.run(RandomPolicy(0))
    with pytest.raises(ValueError, match="the hand is over"):
        g.play(Move((0,), (0,)))
    assert len(g.legal_moves()) == 0


def test_placed_cards_never_move_and_fouls_are_legal():
    g = Game("pineapple", 3, seed=21, auto=False)
    pol = RandomPolicy(5)
    prev = g.layouts.copy()
    fouled_moves = 0
    while not g.done:
        p = g.to_act
        move = pol.choose(g.view(p), g.legal_moves())
        g.play(move)
        now = g.layouts
        placed = prev != EMPTY
        assert (now[placed] == prev[placed]).all()
        fouled_moves += g.is_dead(p)
        prev = now.copy()
    assert fouled_moves > 0      # random play kills hands, and those moves were accepted


def test_stale_move_list():
    g = Game("pineapple", 2, seed=1, auto=False)
    moves = g.legal_moves()
    g.play(moves[0])
    with pytest.raises(RuntimeError, match="stale"):
        moves[1]


# -------------------------------------------------------------------- visibility
def test_views_hide_discards_and_fantasyland_hands():
    g = Game("pineapple", 3, seed=4, fantasyland=[0, 14, 0], auto=False)
    assert g.to_act == 1
    v1 = g.view(1)
    assert v1.to_act and len(v1.hand) == 14 and v1.in_fantasyland == (False, True, False)
    assert g.view(2).hand == () and not g.view(2).to_act
    g.play(g.timeout_move())                      # seat 1 sets its fantasyland hand
    while not g.done:
        p = g.to_act
        view = g.view(p)
        assert (view.layouts[1] == EMPTY).all(), "a fantasyland hand is hidden before showdown"
        assert (view.layout == g.layout(p)).all()
        for q in range(3):
            if q not in (p, 1):
                assert (view.layouts[q] == g.layout(q)).all()     # placed cards are public
        assert view.discards.tolist() == g.discards(p).tolist()
        seen = set(mask_cards(view.seen_mask).tolist())
        for q in range(3):
            if q != p:
                assert not seen & set(g.discards(q).tolist()), "never an opponent's discard"
        assert not seen & set(g.layout(1).tolist())
        assert set(view.hand) <= seen
        assert set(view.unseen.tolist()) == set(range(52)) - seen
        g.play(g.legal_moves()[0])
    final = g.view(2)
    assert (final.layouts == g.layouts).all()    # showdown: everything placed is shown
    assert final.discards.tolist() == g.discards(2).tolist()
    assert not set(mask_cards(final.seen_mask).tolist()) & set(g.discards(1).tolist())


# -------------------------------------------------------------- automatic moves
def small_brute_dead(lay, pool, v):
    """Exhaustive for a few empty slots: every ordered choice of pool cards."""
    empty = np.flatnonzero(lay == EMPTY)
    if len(empty) == 0:
        return bool(ofc.evaluate(lay, v).foul[0])
    fills = np.array(list(itertools.permutations(pool.tolist(), len(empty))), np.uint8)
    lays = np.repeat(lay[None], len(fills), axis=0)
    lays[:, empty] = fills
    return bool(ofc.evaluate(lays, v).foul.all())


def auto_brute(g):
    """Expected automatic-move reason class for the player to act, by brute force."""
    v = g.variant
    view = g.view(g.to_act)
    moves = g.legal_moves()
    if len(moves) == 1:
        return "only option"
    lays, _ = moves.layouts()
    alive = any(not small_brute_dead(lay, view.unseen, v) for lay in lays)
    return None if alive else "dead"


def auto_by_searches(g):
    """The automatic-move reason for the player to act from the exact searches
    alone (rollouts.is_dead: no cheap witness), by the rules' definitions."""
    v, p = g.variant, g.to_act
    moves = g.legal_moves()
    view = g.view(p)
    if len(moves) == 1:
        return "only option"
    if view.dead:                                   # found dead on an earlier turn
        return "dead"
    lays, _ = moves.layouts()
    if (g.layout(p) == EMPTY).sum() == g.keep:      # the move completes the layout
        return "every option dead" if ofc.evaluate(lays, v).foul.all() else None
    # dead: no completion from the unseen cards and the hand (the search itself,
    # not Game.is_dead, which shares the hand core's shortcuts)
    if is_dead(g.layout(p), np.concatenate([view.unseen, np.array(view.hand, np.uint8)]), v):
        return "dead"
    return "every option dead" if is_dead(lays, [view.unseen] * len(lays), v).all() else None


@pytest.mark.slow
@pytest.mark.parametrize("name, P", [("pineapple", 3), ("classic", 2), ("pineapple-2-7", 3),
                                     ("big-pineapple", 2), ("turbo-pineapple", 3)])
def test_automatic_moves_match_exact_searches(name, P):
    """Every state of random play (with time-outs): the hand core's reason
    (a cheap witness first, then the searches) is the searches' alone."""
    v = ofc.variant(name)
    rng = np.random.default_rng(3)
    seen = {None: 0, "dead": 0, "every option dead": 0, "only option": 0}
    for seed in range(40):
        g = Game(v, P, seed=seed, auto=False)
        while not g.done:
            if g.street != -1 and len(g.legal_moves()) <= 300:   # big first streets: slow refs
                want = auto_by_searches(g)      # first: automatic_move() marks dead seats
                got = g.automatic_move()
                assert (None if got is None else got[0]) == want
                seen[want] += 1
            moves = g.legal_moves()
            g.play(moves[int(rng.integers(len(moves)))])
    assert seen[None] and seen["dead"] and seen["every option dead"], seen


@pytest.mark.parametrize("name, P", [("pineapple", 3), ("pineapple-2-7", 2),
                                     ("big-pineapple", 2)])
def test_automatic_moves_match_the_searches_near_dead(name, P):
    """The cheap proofs of the automatic-move check (greedy witnesses, the
    row-floor dead test) against the exact searches on every option, in
    positions played towards a foul: rows filled from the top with the
    strongest cards, so that many seats die, some on their last option."""
    v = ofc.variant(name)
    rng = np.random.default_rng(5)
    seen = {None: 0, "dead": 0, "every option dead": 0, "only option": 0}
    for seed in range(12):
        g = Game(v, P, seed=[77, seed], auto=False)
        while not g.done:
            moves = g.legal_moves()
            if g.street > 0 and len(moves) <= 300:
                want = auto_by_searches(g)
                got = g.automatic_move()
                assert (None if got is None else got[0]) == want, (seed, g.history)
                seen[want] += 1
            if rng.random() < 0.5:      # top-heavy: a random move placing the most up top
                lays, _ = moves.layouts()
                tops = (lays[:, :3] != EMPTY).sum(1)
                best = np.flatnonzero(tops == tops.max())
                g.play(moves[int(best[rng.integers(len(best))])])
            else:
                g.play(moves[int(rng.integers(len(moves)))])
    assert seen[None] > 20 and seen["dead"] > 5 and seen["every option dead"], seen


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pineapple", "classic", "pineapple-2-7", "big-pineapple",
                                  "turbo"])
def test_automatic_moves_match_brute_force(name):
    v = ofc.variant(name)
    rng = np.random.default_rng(7)
    checked = {None: 0, "only option": 0, "dead": 0}
    for seed in range(25):
        g = Game(v, 2, seed=seed, auto=False)
        pol = RandomPolicy(seed)
        while not g.done:
            p = g.to_act
            empties = int((g.layout(p) == EMPTY).sum())
            if empties - g.keep <= 2 and len(g.legal_moves()) <= 40:
                want = auto_brute(g)
                got = g.automatic_move()
                reason = None if got is None else got[0]
                if want == "dead":
                    assert reason in ("dead", "every option dead")
                    assert g.is_dead(p) or reason == "every option dead"
                    checked["dead"] += 1
                else:
                    assert reason == want
                    checked[want] += 1
                if got is not None:
                    assert got[1] in g.legal_moves()
            g.play(pol.choose(g.view(p), g.legal_moves()) if rng.random() < 0.9
                   else g.timeout_move())
    assert checked[None] and checked["dead"]


def test_auto_only_option_and_dead_hands_are_played():
    v = ofc.variant("classic")
    g = Game(v, 2, seed=3)           # auto: the last card has one place to go
    g.run(RandomPolicy(1))
    last = [t for t in g.history if t.street == 8]
    assert last and all(t.auto in ("only option", "dead", "every option dead") for t in last)
    # a hand killed on the second street is played out automatically
    pv = ofc.variant("pineapple")
    deck = build_deck(pv, 2, seat1="Qc Qd Qh 2c 7d  9h 3s Kc")
    g = Game(pv, 2, deck=deck)
    # trips on top, then a middle that can no longer beat them
    me = Script(pv, top="Qc Qd Qh", middle="2c 7d 9h", bottom="3s")
    g.run([RandomPolicy(0), me])
    mine = [t for t in g.history if t.seat == 1]
    assert [t.auto for t in mine[:2]] == [None, None]
    assert all(t.auto in ("dead", "every option dead") for t in mine[2:])
    assert g.result().foul[1]


def test_each_view_says_whether_its_own_seat_is_dead():
    """Seat 1 is found dead on its third turn (trips on top, a middle that can
    no longer beat them): from then on its view says dead, seat 0's (the
    seat to act) does not."""
    pv = ofc.variant("pineapple")
    deck = build_deck(pv, 2, seat1="Qc Qd Qh 2c 7d  9h 3s Kc")
    g = Game(pv, 2, deck=deck)
    pols = [RandomPolicy(0), Script(pv, top="Qc Qd Qh", middle="2c 7d 9h", bottom="3s")]
    while not any(t.auto == "dead" for t in g.history):
        assert [g.view(p).dead for p in range(2)] == [False, False]
        g.play(pols[g.to_act].choose(g.view(g.to_act), g.legal_moves()))
    assert g.to_act == 0 and g.history[-1].seat == 1
    assert [g.view(p).dead for p in range(2)] == [False, True]
    assert g.is_dead(1) and not g.is_dead(0)


def test_last_street_option_with_equal_rows_is_not_a_foul():
    """Seat 0's only legal completions make the middle and the bottom the same
    straight (5-9 twice): equal rows are legal (RULES.md section 4), so the
    seat keeps its choice; a check that took a tie for a foul would call
    every option dead and move for it."""
    g = Game.from_position("pineapple", [
        "Ah Ad 3c / 5h 6h 7d 8c __ / 5c 6c 7s 8d __",
        "Kc Ks 4d / Tc Td Jh Js __ / Qc Qh Qs 4s __"], button=1, hand="9s 9d 2h", seed=1)
    assert (g.to_act, g.street) == (0, 4)       # no automatic move was made
    assert g.automatic_move() is None
    legal = []
    for move in g.legal_moves():
        h = g.copy()
        h.play(move)
        if not ofc.evaluate(h.layout(0)[None], "pineapple").foul[0]:
            legal.append(ofc.format_layout(h.layout(0), "pineapple"))
    # the two nines to the two straights, either way round
    assert sorted(legal) == ["Ah Ad 3c / 5h 6h 7d 8c 9d / 5c 6c 7s 8d 9s",
                             "Ah Ad 3c / 5h 6h 7d 8c 9s / 5c 6c 7s 8d 9d"]


def test_game_is_dead_matches_is_dead():
    v = ofc.variant("pineapple")
    for seed in range(20):
        g = Game(v, 3, seed=seed, auto=False)
        pol = RandomPolicy(seed)
        while not g.done:
            for p in range(3):
                if p == g.to_act:
                    continue
                view = g.view(p)
                assert g.is_dead(p) == is_dead(g.layout(p), view.unseen, v)
            g.play(pol.choose(g.view(g.to_act), g.legal_moves()))


# ---------------------------------------------------------------------- time-out
def test_timeout_placement():
    v = ofc.variant("pineapple")
    g = Game(v, 2, seed=6, auto=False)
    while not g.done:
        move = g.timeout_move()
        kept = len(g.hand) if len(g.hand) == 5 else 2
        assert move.cards == g.hand
        assert move.rows[kept:] == (DISCARD,) * (len(g.hand) - kept)
        g.timeout()          # the seat's later turns are played at once (timed out for the hand)
    assert g.timed_out == (1, 0)
    dealt = {p: [t.move.cards for t in g.history if t.seat == p] for p in range(2)}
    for p in range(2):
        kept = [c for hand in dealt[p] for c in (hand if len(hand) == 5 else hand[:2])]
        # in order dealt: bottom (5), then middle (5), then top (3)
        lay = g.layout(p).tolist()
        assert lay[8:13] == kept[:5] and lay[3:8] == kept[5:10] and lay[0:3] == kept[10:13]
        assert g.discards(p).tolist() == [hand[2] for hand in dealt[p][1:]]
        assert all(t.auto == "time-out" for t in g.history)


def test_timeout_fantasyland_and_four_rows():
    g = Game("big-pineapple", 2, seed=2, fantasyland=[0, 19], auto=False)
    hand = g.hand
    g.timeout()
    lay = g.layout(1).tolist()
    assert lay[13:18] == list(hand[:5]) and lay[8:13] == list(hand[5:10])
    assert lay[3:8] == list(hand[10:15]) and lay[0:3] == list(hand[15:18])
    assert g.discards(1).tolist() == [hand[18]]


# ------------------------------------------------------------------- results
def test_result_matches_scoring_api():
    for name in ("pineapple", "classic", "big-pineapple", "pineapple-2-7"):
        v = ofc.variant(name)
        for seed in range(15):
            P = v.max_players
            fl = [0] * P
            if v.fantasyland and seed % 3 == 0:
                fl[0] = (v.repeat_cards, 1 + seed % 2)
            g = Game(v, P, seed=seed, fantasyland=fl)
            res = g.run(HeuristicPolicy(seed) if seed % 5 == 0 else RandomPolicy(seed))
            counts = np.array(g.fantasyland_count, np.uint8)
            tab = ofc.score_tables(g.layouts[None], v, in_fantasyland=counts[None], details=True)
            assert tuple(tab.points[0].tolist()) == res.points
            assert tuple(tab.foul[0].tolist()) == res.foul
            assert tuple(tab.next_fantasyland[0].tolist()) == res.next_fantasyland
            assert sum(res.points) == 0


def test_record_format():
    v = ofc.variant("pineapple")
    g = Game(v, 3, seed=10, button=2, fantasyland=[0, 0, 14])
    g.names = ("ann", "bob", "cy")
    res = g.run(RandomPolicy(2))
    rec = g.record(id="h1")
    assert list(rec) == ["format", "id", "variant", "options", "players"]
    assert rec["format"] == "ofc-hand/1" and rec["id"] == "h1" and rec["variant"] == "pineapple"
    assert [p["name"] for p in rec["players"]] == ["cy", "ann", "bob"]     # seat 0 = button
    first = rec["players"][0]
    assert list(first) == ["name", "top", "middle", "bottom", "in_fantasyland", "discards",
                           "points"]
    assert first["in_fantasyland"] == 1 and first["points"] == res.points[2]
    assert rec["players"][1]["in_fantasyland"] == 0
    assert ofc.parse_cards(first["bottom"]).tolist() == g.layout(2)[8:13].tolist()
    assert len(ofc.parse_cards(first["discards"])) == 1
    assert json.loads(json.dumps(rec)) == rec
    bp = Game("big-pineapple", 2, seed=1)
    bp.run(RandomPolicy(1))
    assert list(bp.record()["players"][0])[1:5] == ["top", "third", "second", "bottom"]


def test_records_read_back_by_the_reader():
    records = pytest.importorskip("ofc_fast.records")
    for name in ("pineapple", "big-pineapple", "progressive", "classic"):
        v = ofc.variant(name)
        fl = [0] * v.max_players
        if v.fantasyland:
            fl[-1] = (v.repeat_cards, 2)
        g = Game(ofc.variant(name, finnish=True), v.max_players, seed=4, fantasyland=fl)
        res = g.run(RandomPolicy(4))
        rec = records.HandRecord.from_dict(json.loads(json.dumps(g.record())))
        order = [(g.button + k) % g.n_players for k in range(g.n_players)]
        assert rec.score().points.tolist() == [res.points[p] for p in order]
        assert [p.points for p in rec.players] == [res.points[p] for p in order]


@pytest.mark.parametrize("v", [
    ofc.variant("pineapple"), ofc.variant("classic", royalties="american", finnish=True),
    ofc.variant("turbo-pineapple", lowball=True), ofc.variant("pineapple", repeat="infinite"),
    ofc.variant("progressive", fantasyland=False), ofc.variant("big-pineapple", american=True),
    ofc.variant("classic", scoring={"per_row": 1, "scoop_bonus": 3, "foul_penalty": 9}),
    ofc.variant("pineapple", royalties={"bottom": {"straight": 3, "flush": 5}}, repeat_limit=2),
])
def test_variant_options_round_trip(v):
    opts = json.loads(json.dumps(variant_options(v)))
    assert ofc.variant(v.name, **opts) == v


# -------------------------------------------------------------------- policies
def test_policies():
    assert isinstance(RandomPolicy(), Policy) and isinstance(HeuristicPolicy(), Policy)
    v = ofc.variant("pineapple")
    fouls = {"random": 0, "heuristic": 0}
    for seed in range(12):
        for kind, pol in (("random", RandomPolicy(seed)), ("heuristic", HeuristicPolicy(seed))):
            res = Game(v, 2, seed=seed).run(pol)
            fouls[kind] += sum(res.foul)
    assert fouls["heuristic"] <= 4 < fouls["random"]


def test_random_policy_plays_every_move_alike():
    """Every legal move about equally often (a chi-square bound, on a later
    Pineapple street and on a first street)."""
    for g in (Game("pineapple", 2, seed=4, auto=False), Game("pineapple", 2, seed=5)):
        if len(g.legal_moves()) == 232:
            g.play(g.legal_moves()[100])
            g.play(g.legal_moves()[7])
        moves = g.legal_moves()
        n, draws = len(moves), 200 * len(moves)
        pol = RandomPolicy(3)
        counts = np.bincount([moves.index(pol.choose(g.view(g.to_act), moves))
                              for _ in range(draws)], minlength=n)
        chi2 = ((counts - 200) ** 2 / 200).sum()
        assert n >= 20 and chi2 < n + 5 * np.sqrt(2 * n), (n, chi2)


def test_heuristic_plays_one_of_the_moves_it_sampled():
    """Over max_moves legal moves it values a random sample of max_moves: with
    one, it plays the move it drew, the first draw of its stream."""
    from ofc_fast._policies import Stream
    g = Game("pineapple", 2, seed=2, auto=False)
    moves = g.legal_moves()
    n = len(moves)
    for key in (11, 12, 13):
        k = Stream(key).below(n)
        pol = HeuristicPolicy(max_moves=1, samples=2, tries=2, stream=Stream(key))
        assert pol.choose(g.view(g.to_act), moves) == moves[k]
        assert k != 0


def test_fantasyland_move_solves_for_the_seats_own_count():
    """Seat 1 plays its second fantasyland hand in a row (pineapple repeats
    once): no repeat is possible, so the move keeps the most royalties (23),
    not the repeat (13 royalties) a first fantasyland hand would take."""
    g = Game("pineapple", 2, seed=27, fantasyland=[0, (14, 2)])
    view = g.view(1)
    assert g.to_act == 1 and view.fantasyland_count == (0, 2)
    g.play(fantasyland_move(view, g.legal_moves(), 100.0))
    ev = ofc.evaluate(g.layout(1), "pineapple", in_fantasyland=2)
    assert ev.royalty_total[0] == 23 and not ev.foul[0]
    first = ofc.solve_fantasyland(np.array(view.hand, np.uint8), "pineapple",
                                  fantasyland_value=100.0, in_fantasyland=1)
    assert first.repeat and first.royalty_total == 13


def test_heuristic_fantasyland_hands_are_legal():
    for name in ("pineapple", "progressive", "pineapple-2-7", "big-pineapple", "classic"):
        v = ofc.variant(name)
        n = max(c for c in v.entry_cards)
        g = Game(v, 2, seed=3, fantasyland=[0, n])
        possible = not is_dead(np.full(v.n_cards, EMPTY, np.uint8), g.hand, v)
        g.run([RandomPolicy(1), HeuristicPolicy(2)])
        assert g.result().foul[1] == (not possible)


def test_run_policy_forms():
    g = Game("pineapple", 2, seed=1)
    with pytest.raises(ValueError, match="one policy per seat"):
        g.run([RandomPolicy()])
    g.run({0: RandomPolicy(1), 1: RandomPolicy(2)})
    assert g.done


# ---------------------------------------------------------------------- matches
def test_match_length_and_zero_sum():
    with pytest.raises(ValueError, match="at least one full orbit"):
        Match("pineapple", 3, n_hands=2)
    m = Match("pineapple", 3, seed=1)
    scores = m.run(RandomPolicy(3))
    assert scores.sum() == 0 and m.hands_played >= 3 and m.done
    fl_hands = sum(any(p["in_fantasyland"] > 0 for p in r["players"]) for r in m.records)
    assert m.hands_played == 3 + fl_hands
    assert (scores == np.sum([r.points for r in m.results], axis=0)).all()


@pytest.mark.slow
def test_match_button_and_fantasyland_carry():
    for name in ("pineapple", "progressive", "classic", "turbo-pineapple"):
        v = ofc.variant(name)
        for seed in range(6):
            m = Match(v, 2, n_hands=4, seed=seed)
            pols = [HeuristicPolicy(seed), HeuristicPolicy(seed + 100)]
            prev = None
            while not m.done:
                b = m.button
                expect_fl = m.next_fantasyland
                g = m.start_hand()
                assert g.button == b
                assert tuple(zip(g.fantasyland_deal, g.fantasyland_count, strict=True)) == expect_fl
                g.run(pols)
                res = m.end_hand()
                moved = not any(g.in_fantasyland)
                assert m.button == ((b + 1) % 2 if moved else b)
                assert m.next_fantasyland == tuple(
                    (res.next_fantasyland[p], res.next_in_fantasyland[p]) for p in range(2))
                prev = res
            assert m.button_moves == 4 and prev is not None


def scripted_match(variant, stop_at=99):
    """Seat 1 makes QQ on top in normal hands, then trips on top (a repeat) in
    fantasyland hands before its stop_at-th in a row, a plain QQ after."""
    v = ofc.variant(variant) if isinstance(variant, str) else variant
    m = Match(v, 2, seed=0)
    normal = dict(top="Qc Qd 2s", middle="3c 3h 4c 4d 5h", bottom="Ac Ad Ah Kc Kd")
    normal_deal = "Qc Qd Ac Ad Ah  2s Kc 6s  Kd 3c 7s  3h 4c 8h  4d 5h 9s"
    seat0 = Script(v, top="2c 3d 4h", middle="5c 6d 7h 8s Tc", bottom="9c 9d 9h Jc Jd")
    seat0_deal = "2c 3d 4h 5c 6d  7h 8s Th  Tc 9c Js  9d 9h Qs  Jc Jd 2h"
    trips = dict(top="Qc Qd Qh", middle="2c 3d 4h 5s 6c", bottom="As Ks Ts 8s 7s")
    plain = dict(top="Qc Qd 9d", middle="2c 3d 4h 5s 6c", bottom="As Ks Ts 8s 7s")
    fl_deal = "Qc Qd Qh 2c 3d 4h 5s 6c As Ks Ts 8s 7s 9d"
    seat0_fl = Script(v, top="2d 2h 3c", middle="4c 4d 5h 8h Tc", bottom="9c 9h Jc Jd Js")
    seat0_fl_deal = "2d 2h 3c 4c 4d  5h 8h 6d  Tc 9c 7h  9h Jc 5c  Jd Js 3h"
    log = []
    while not m.done:
        cards, count = m.next_fantasyland[1]
        fls = [fl if fl[0] else 0 for fl in m.next_fantasyland]
        if cards:
            deck = build_deck(v, 2, button=m.button, fantasyland=fls, seat1=fl_deal,
                              seat0=seat0_fl_deal)
            me, them = Script(v, **(trips if count < stop_at else plain)), seat0_fl
        else:
            deck = build_deck(v, 2, button=m.button, fantasyland=fls, seat1=normal_deal,
                              seat0=seat0_deal)
            me, them = Script(v, **normal), seat0
        b = m.button
        g = m.start_hand(deck=deck)
        g.run([them, me])
        res = m.end_hand()
        log.append((b, g.fantasyland_deal[1], g.fantasyland_count[1], res.next_fantasyland[1],
                    res.foul))
        assert len(log) < 20
    return m, log


def test_match_fantasyland_entry_repeat_and_limit():
    m, log = scripted_match("pineapple")
    # hand 1 normal: QQ on top enters (14 cards); hand 2 in fantasyland: trips
    # repeat; hand 3, the second fantasyland hand in a row: the limit (one
    # repeat) ends it; hand 4 normal, enters again; the match has had its two
    # button moves but the earned fantasyland is played out (hands 5, 6).
    assert [(fl, cnt, nxt) for _, fl, cnt, nxt, _ in log] == [
        (0, 0, 14), (14, 1, 14), (14, 2, 0), (0, 0, 14), (14, 1, 14), (14, 2, 0)]
    assert not any(any(f) for *_, f in log)
    # the button moves after the normal hands only
    assert [b for b, *_ in log] == [0, 1, 1, 1, 0, 0]
    assert m.button_moves == 2 and m.hands_played == 6
    assert m.scores.sum() == 0


def test_match_infinite_repeat():
    v = ofc.variant("pineapple", repeat="infinite")
    assert v.repeat_limit is None
    m, log = scripted_match(v, stop_at=4)
    assert [(fl, cnt, nxt) for _, fl, cnt, nxt, _ in log[:5]] == [
        (0, 0, 14), (14, 1, 14), (14, 2, 14), (14, 3, 14), (14, 4, 0)]


def test_match_without_finishing_fantasyland():
    m = Match("pineapple", 2, seed=0, finish_fantasyland=False)
    m.run(HeuristicPolicy(0))
    assert m.button_moves == 2


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_random_matches_every_variant(name):
    """Thousands of complete random matches per variant, no exception."""
    v = ofc.variant(name)
    hands = 0
    for i in range(2000):
        P = v.min_players + i % (v.max_players - v.min_players + 1)
        m = Match(v, P, seed=i, button=i % P)
        scores = m.run(RandomPolicy(i))
        assert scores.sum() == 0
        assert m.button_moves == P
        for rec in m.records:
            cards = []
            for pl in rec["players"]:
                for row in v.row_names:
                    cards += ofc.parse_cards(pl[row]).tolist()
                cards += ofc.parse_cards(pl["discards"]).tolist()
            assert len(cards) == len(set(cards))
        hands += m.hands_played
    assert hands >= 2000 * v.min_players


# ------------------------------------------------------------- issue 11: match rules
# Seat cards in deal order (pineapple: 5, then four streets of 3, the third discarded).
# TIMEOUT_QQ: the time-out placement of this deal (bottom first, then middle, then
# top) is legal with QQ on top: Ac Ad Ah Kc Kd / 3c 3h 4c 4d 5h / Qc Qd 2s.
TIMEOUT_QQ = "Ac Ad Ah Kc Kd  3c 3h 6s  4c 4d 7s  5h Qc 8h  Qd 2s 9s"
OPP_DEAL = "Tc Td Th Jc Jd  Qh Qs 9c  6c 6d 9d  7c 7d 9h  8s 2h 5c"
OPP_QQ = dict(top="Qh Qs 2h", middle="6c 6d 7c 7d 8s", bottom="Tc Td Th Jc Jd")
OPP_PLAIN = dict(top="Qh 9c 2h", middle="6c 6d 7c 7d 8s", bottom="Tc Td Th Jc Jd")
FL_DEAL = "Qc Qd Qh 2c 3d 4h 5s 6c As Ks Ts 8s 7s 9d"
FL_TRIPS = dict(top="Qc Qd Qh", middle="2c 3d 4h 5s 6c", bottom="As Ks Ts 8s 7s")   # repeats
FL_PLAIN = dict(top="Qc Qd 9d", middle="2c 3d 4h 5s 6c", bottom="As Ks Ts 8s 7s")   # QQ, no repeat
FL_OTHER_DEAL = "2d 2h 3c 4c 4d  5h 8h 6d  Tc 9c 7h  9h Jc 5c  Jd Js 3h"
FL_OTHER = dict(top="2d 2h 3c", middle="4c 4d 5h 8h Tc", bottom="9c 9h Jc Jd Js")
KK_DEAL = "Jc Jd Jh 4c 4d  7c 7d 3c  8c 8d 3h  9c Kc 6d  Kd 2d 5c"     # fits beside FL_DEAL
KK = dict(top="Kc Kd 2d", middle="7c 7d 8c 8d 9c", bottom="Jc Jd Jh 4c 4d")


def rigged_hand(m, deals, scripts, timeout_at=None):
    """Play one hand of match m from a rigged deck: deals[seat] is that seat's
    cards in deal order, scripts[seat] a Script kwargs dict; a seat in
    timeout_at runs out of time at that street (-1: its fantasyland hand)."""
    v = m.variant
    fls = [fl if fl[0] else 0 for fl in m.next_fantasyland]
    deck = build_deck(v, m.n_players, button=m.button, fantasyland=fls,
                      **{f"seat{p}": d for p, d in deals.items()})
    pols = {p: Script(v, **scripts[p]) if p in scripts else RandomPolicy(p)
            for p in range(m.n_players)}
    g = m.start_hand(deck=deck)
    timeout_at = timeout_at or {}
    while not g.done:
        p = g.to_act
        if p in timeout_at and g.street >= timeout_at[p]:
            g.timeout()
        else:
            g.play(pols[p].choose(g.view(p), g.legal_moves()), seat=p)
    res = m.end_hand()
    assert m.scores.sum() == 0 and sum(res.points) == 0
    return g, res


def test_timeout_lasts_the_rest_of_the_hand():
    v = ofc.variant("pineapple")
    g = Game(v, 3, seed=11, auto=False)
    g.play(g.legal_moves()[0])                    # seat 1
    g.timeout()                                   # seat 2 runs out of time on the first street
    assert g.timed_out == (2,) and g.to_act == 0 and g.view(0).timed_out == (2,)
    while not g.done:
        assert g.to_act != 2
        with pytest.raises(ofc.MoveError, match="seat 2 timed out"):
            g.play(g.legal_moves()[0], seat=2)
        with pytest.raises(ofc.MoveError, match="does not act now"):
            g.play(g.legal_moves()[0], seat=(g.to_act + 1) % 3 if g.to_act != 1 else 0)
        g.play(g.legal_moves()[0], seat=g.to_act)
    mine = [t for t in g.history if t.seat == 2]
    assert len(mine) == 5 and all(t.auto == "time-out" for t in mine)
    # each later turn is the time-out placement: in deal order, bottom, middle, then top
    kept = [c for t in mine for c in (t.move.cards if t.street == 0 else t.move.cards[:2])]
    lay = g.layout(2).tolist()
    assert lay[8:13] == kept[:5] and lay[3:8] == kept[5:10] and lay[0:3] == kept[10:13]
    assert g.result().timed_out == (2,)
    assert [t.auto for t in g.history if t.seat != 2] == [None] * 10


def test_timeout_label_wins_over_dead():
    v = ofc.variant("pineapple")
    # the time-out placement puts a weak bottom under a middle of aces: dead on street 1
    deck = build_deck(v, 2, seat1="2c 3d 4h 5s 7c  Ac Ad 8d  As Kd 9d  Kh Qs Td  Jh Jd Tc")
    g = Game(v, 2, deck=deck)                    # automatic moves on
    g.timeout()
    g.run([RandomPolicy(1), RandomPolicy(2)])
    mine = [t for t in g.history if t.seat == 1]
    assert g.result().foul[1] and len(mine) == 5
    assert all(t.auto == "time-out" for t in mine)


def test_timed_out_seat_is_scored_normally_and_can_win():
    v = ofc.variant("pineapple")
    deck = build_deck(v, 2, seat1=TIMEOUT_QQ, seat0=OPP_DEAL)
    g = Game(v, 2, deck=deck, auto=False)
    g.timeout()                                  # seat 1, first street
    g.run([Script(v, **OPP_PLAIN), RandomPolicy(0)])
    res = g.result()
    assert not res.foul[1] and res.next_fantasyland[1] == 14 and res.points[1] > 0
    assert ofc.format_layout(g.layout(1), v) == "Qc Qd 2s / 3c 3h 4c 4d 5h / Ac Ad Ah Kc Kd"


def test_timeout_survives_copy_and_pickle():
    import copy
    import pickle
    g = Game("pineapple", 2, seed=5, auto=False)
    g.timeout()
    for h in (g.copy(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert h == g and h.timed_out == (1,)
        while not h.done:
            h.play(h.legal_moves()[-1])
        assert all(t.auto == "time-out" for t in h.history if t.seat == 1)
    assert len(g.history) == 1


def test_match_hands_are_whole_orbits():
    for bad in (1, 2, 4, 5, 0, -3):
        with pytest.raises(ValueError, match="positive multiple of the 3 players"):
            Match("pineapple", 3, n_hands=bad)
    with pytest.raises(ofc.RulesError, match="at least one full orbit"):
        Match("classic", 4, n_hands=6)
    with pytest.raises(TypeError, match="hands must be an integer"):
        Match("classic", 2, n_hands="4")
    assert Match("pineapple", 3, n_hands=6).n_hands == 6 and Match("pineapple", 3).n_hands == 3
    m = Match("classic", 2, n_hands=4, seed=2)
    m.run()
    assert m.button_moves == 4 and m.ended_by == "orbits" and m.timeouts == []


def test_timeout_ends_the_match_after_that_hand():
    v = ofc.variant("pineapple")
    m = Match(v, 3, n_hands=6, seed=1)
    assert m.ended_by is None
    g, res = rigged_hand(m, {0: OPP_DEAL}, {0: OPP_PLAIN}, timeout_at={2: 2})
    assert g.timed_out == (2,) and res.next_fantasyland == (0, 0, 0)
    assert m.done and m.ended_by == "time-out" and m.hands_played == 1
    assert m.timeouts == [(0, (2,))]
    with pytest.raises(RuntimeError, match="the match is over"):
        m.start_hand()
    assert m.run().tolist() == m.scores.tolist()       # nothing left to play


def test_timed_out_players_own_fantasyland_does_not_extend():
    v = ofc.variant("pineapple")
    m = Match(v, 2, seed=1)
    g, res = rigged_hand(m, {1: TIMEOUT_QQ, 0: OPP_DEAL}, {0: OPP_PLAIN}, timeout_at={1: 0})
    assert res.next_fantasyland == (0, 14) and m.next_fantasyland[1] == (14, 1)
    assert m.done and m.ended_by == "time-out" and m.hands_played == 1


def test_timeout_while_opponent_makes_fantasyland():
    v = ofc.variant("pineapple")
    m = Match(v, 2, seed=1)
    g, res = rigged_hand(m, {0: OPP_DEAL}, {0: OPP_QQ}, timeout_at={1: 1})
    assert res.next_fantasyland[0] == 14 and g.timed_out == (1,)
    assert not m.done and m.ended_by is None
    # the opponent's fantasyland hand is played (the timed-out seat plays normally again)
    g, res = rigged_hand(m, {0: FL_DEAL, 1: FL_OTHER_DEAL}, {0: FL_PLAIN, 1: FL_OTHER})
    assert g.fantasyland_deal == (14, 0) and g.timed_out == () and not res.repeat[0]
    assert m.done and m.ended_by == "time-out" and m.hands_played == 2
    assert m.button_moves == 1 < m.n_hands


def test_timeout_match_extended_by_a_repeat():
    v = ofc.variant("pineapple")
    m = Match(v, 2, seed=1)
    rigged_hand(m, {0: OPP_DEAL}, {0: OPP_QQ}, timeout_at={1: 0})
    g, res = rigged_hand(m, {0: FL_DEAL, 1: FL_OTHER_DEAL}, {0: FL_TRIPS, 1: FL_OTHER})
    assert res.repeat[0] and not m.done                 # a repeat: one more hand
    g, res = rigged_hand(m, {0: FL_DEAL, 1: FL_OTHER_DEAL}, {0: FL_TRIPS, 1: FL_OTHER})
    assert g.fantasyland_count[0] == 2 and res.next_fantasyland[0] == 0   # limit: one repeat
    assert m.done and m.ended_by == "time-out" and m.hands_played == 3


def test_timeout_in_a_fantasyland_hand():
    v = ofc.variant("pineapple")
    # seat 0 in fantasyland times out: its 14 cards are placed in the order dealt
    m = Match(v, 2, seed=1, fantasyland=[14, 0])
    g, res = rigged_hand(m, {0: FL_DEAL, 1: FL_OTHER_DEAL}, {1: FL_OTHER}, timeout_at={0: -1})
    assert g.timed_out == (0,) and g.history[0].auto == "time-out"
    hand = ofc.parse_cards(FL_DEAL).tolist()
    assert g.layout(0).tolist() == hand[10:13] + hand[5:10] + hand[0:5]
    assert m.done and m.ended_by == "time-out"
    # the same with the other seat earning fantasyland in that hand: one more hand
    m = Match(v, 2, seed=1, fantasyland=[14, 0])
    g, res = rigged_hand(m, {0: FL_DEAL, 1: KK_DEAL}, {1: KK}, timeout_at={0: -1})
    assert res.next_fantasyland[1] == 14 and not m.done
    g, res = rigged_hand(m, {1: FL_DEAL, 0: FL_OTHER_DEAL}, {1: FL_PLAIN, 0: FL_OTHER})
    assert g.fantasyland_deal == (0, 14) and m.done and m.ended_by == "time-out"


def test_several_seats_time_out():
    v = ofc.variant("pineapple")
    m = Match(v, 3, seed=4)
    g, res = rigged_hand(m, {0: OPP_DEAL}, {0: OPP_QQ}, timeout_at={1: 0, 2: 1})
    assert g.timed_out == (1, 2) and m.timeouts == [(0, (1, 2))]
    assert res.next_fantasyland[0] == 14 and not m.done
    # in the extension hand seat 2 times out again, seat 0 does not repeat: the match ends
    g, res = rigged_hand(m, {0: FL_DEAL, 1: FL_OTHER_DEAL}, {0: FL_PLAIN, 1: FL_OTHER},
                         timeout_at={2: 0})
    assert m.done and m.ended_by == "time-out" and m.timeouts == [(0, (1, 2)), (1, (2,))]
    totals = np.sum([r.points for r in m.results], axis=0)
    assert (totals == m.scores).all() and m.scores.sum() == 0


# ------------------------------------------------------ issue 9: trust at the boundaries
def forged(base, **fields):
    """A Variant built around Variant.__post_init__ (object.__new__), so that the
    engine meets values ``variant()`` refuses."""
    import dataclasses
    v = object.__new__(ofc.Variant)
    for f in dataclasses.fields(ofc.Variant):
        object.__setattr__(v, f.name, fields.get(f.name, getattr(base, f.name)))
    return v


@pytest.mark.slow
def test_deals_beyond_the_buffers_are_refused_not_crashing():
    # 27+ cards crashed Game and Match (segfault), 25 gave a bogus error, 12 left
    # an empty slot scored as a foul: each is now a RulesError before anything is dealt
    from isolated import run_isolated
    here = str(__import__("pathlib").Path(__file__).parent)
    out = run_isolated(f"""
        import dataclasses, sys
        sys.path.insert(0, {here!r})
        import ofc_fast as ofc
        from test_engine import forged
        pv = ofc.variant("pineapple")
        for n in (12, 25, 27, 40, 200):
            v = forged(pv, entry_cards=(0, n), repeat_cards=n)
            for make in (lambda: ofc.Game(v, 2, fantasyland=[n, 0]),
                         lambda: ofc.Match(v, 2, fantasyland=[n, 0]).run()):
                try:
                    make()
                except ofc.RulesError as e:
                    print(n, "RulesError", e)
                else:
                    print(n, "accepted")
        """)
    lines = out.stdout.splitlines()
    assert len(lines) == 10 and all("RulesError" in line for line in lines), out.stdout
    assert "cannot fill the 13-card layout" in lines[0] or "13 .. 24" in lines[0]
    assert all("24" in line for line in lines[2:])


def test_fantasyland_deals_must_fit_the_deck():
    v = ofc.variant("pineapple", entry_cards=[0, 20])          # 20 <= MAX_DEAL: a valid variant
    with pytest.raises(ofc.RulesError, match=r"entry_cards \(0, 20\): 3 players can each be "
                                             r"dealt 20 cards in fantasyland, 60 cards"):
        Match(v, 3)
    with pytest.raises(ofc.RulesError, match=r"entry_cards \(0, 20\): 3 players dealt "
                                             r"20 \+ 17 \+ 17 = 54 cards"):
        Game(v, 3, fantasyland=[20, 0, 0])
    Game(v, 3).run()                                          # nobody in fantasyland: 51 cards
    m = Match(v, 2, seed=3)                                   # 2 x 20 fits
    m.run()
    g = Game(v, 2, fantasyland=[20, 20], seed=1)
    g.run()
    assert len(g.discards(0)) == 7 and g.done
    with pytest.raises(ofc.RulesError, match=r"repeat_cards 19: 3 players can each be dealt 19"):
        Match(ofc.variant("pineapple", repeat_cards=19), 3)
    with pytest.raises(ofc.RulesError, match=r"24 \+ 24 \+ 17 = 65 cards"):
        Game(ofc.variant("pineapple", entry_cards=[0, 24]), 3, fantasyland=[24, 24, 0])
    # a repeat deal a repeat_limit of 0 never deals does not count
    Match(ofc.variant("classic", repeat_cards=14, repeat_limit=0), 4, seed=1).run()
    with pytest.raises(ofc.RulesError, match=r"repeat_cards 14: 4 players can each be dealt 14"):
        Match(ofc.variant("classic", repeat_cards=14, repeat_limit=1), 4)
    # every built-in variant fits at its largest table
    for base in VARIANTS.values():
        Match(base, base.max_players)


def test_engine_survives_forged_variants():
    """A Variant made without its constructor (object.__new__, then its
    fields set) is validated where it comes in (rules.as_variant), with the
    constructor's messages."""
    pv = ofc.variant("pineapple")
    cases = [
        (dict(streets=((3, 2),) * 2), "place 9 cards; the layout has 13"),
        (dict(streets=((3, 2),) * 10), "place 25 cards"),
        (dict(streets=((30, 8),)), r"streets\[0\]\[0\] must be 1 .. 24, got 30"),
        (dict(streets=((3,),)), r"streets\[0\] needs 2 values, got 1"),
        (dict(streets=None), "streets must be a sequence"),
        (dict(streets=((3, 4), (3, 4), (3, 0))), r"streets\[2\]\[1\] must be 1 .. 24, got 0"),
        (dict(n_rows=5), "n_rows must be 3 .. 4, got 5"),
        (dict(n_rows=2), "n_rows must be 3 .. 4, got 2"),
        (dict(max_players=6), "max_players must be 2 .. 4, got 6"),
        (dict(first_street=2.5), "first_street must be an integer, got 2.5"),
        (dict(repeat_cards=float("nan")), "repeat_cards"),
    ]
    for fields, message in cases:
        v = forged(pv, **fields)
        players = fields.get("max_players", 2)
        with pytest.raises(ofc.RulesError, match=message):
            Game(v, players)
    # a forged variant with valid fields plays as the one it copies
    import copy
    g = Game(forged(pv), 2, seed=3)
    assert g.variant == pv and copy.copy(g) == g


def test_copy_is_independent_and_cheap():
    import copy
    import time
    g = Game("pineapple", 3, seed=9, fantasyland=[0, 14, 0], auto=False)
    g.play(g.legal_moves()[5])
    g.play(g.legal_moves()[7])
    for h in (copy.copy(g), copy.deepcopy(g), g.copy()):
        assert h == g and h is not g
        before = (g.layouts.tolist(), g.history, g.to_act, g.hand)
        while not h.done:
            h.play(h.legal_moves()[0])
        assert (g.layouts.tolist(), g.history, g.to_act, g.hand) == before
        assert h != g and not g.done
    t = time.perf_counter()
    for _ in range(1000):
        g.copy()
    assert (time.perf_counter() - t) / 1000 < 50e-6          # about 0.5 us measured


def test_pickle_round_trip_mid_hand():
    import pickle
    for name, fl in (("pineapple", [0, 14, 0]), ("big-pineapple", [19, 0]), ("classic", None)):
        v = ofc.variant(name)
        g = Game(v, len(fl) if fl else 4, seed=4, fantasyland=fl, auto=name != "classic")
        pol = RandomPolicy(2)
        states = []
        while True:
            h = pickle.loads(pickle.dumps(g))
            assert h == g
            assert (h.layouts == g.layouts).all() and h.hand == g.hand and h.to_act == g.to_act
            assert h.history == g.history and (h.deck == g.deck).all()
            assert h.timed_out == g.timed_out
            assert [h.discards(p).tolist() for p in range(g.n_players)] == \
                [g.discards(p).tolist() for p in range(g.n_players)]
            assert h.view(0).dead == g.view(0).dead
            states.append(h)
            if g.done:
                break
            if len(g.history) == 3:
                g.timeout()
            else:
                g.play(pol.choose(g.view(g.to_act), g.legal_moves()))
        assert g.result() == states[-1].result()
        # the unpickled games are independent of the original and of each other
        first = states[0]
        if not first.done:
            first.play(first.legal_moves()[0])
            assert first != states[1] or len(first.history) == len(states[1].history)


def test_hand_state_is_compact():
    """One hand's C state (ofc_hand) fits a batch of 100,000 games in well under
    200 MB: no per-turn card copies and no per-game rule tables (issue 20)."""
    from ofc_fast._hand import STATE_SIZE
    assert 256 <= STATE_SIZE <= 512


@pytest.mark.parametrize("name, P, fl", [("pineapple", 3, [0, 14, 0]), ("big-pineapple", 2, None),
                                         ("classic", 4, None), ("pineapple-2-7", 2, [15, 0])])
def test_history_discards_and_layouts_agree(name, P, fl):
    """The history, the discards and the hand are rebuilt from the deck and
    where each dealt card went; the layouts are kept as the moves are made.
    All four tell the same story, at every turn, time-outs included."""
    v = ofc.variant(name)
    g = Game(v, P, seed=11, fantasyland=fl)
    pol = RandomPolicy(5)
    while True:
        dealt = [c for t in g.history for c in t.move.cards]
        assert dealt + list(g.hand) == g.deck[:len(dealt) + len(g.hand)].tolist()
        for p in range(P):
            mine = [t.move for t in g.history if t.seat == p]
            assert g.discards(p).tolist() == \
                [c for m in mine for c, r in zip(m.cards, m.rows, strict=True) if r == DISCARD]
            placed = sorted(c for m in mine for c, r in zip(m.cards, m.rows, strict=True)
                            if r != DISCARD)
            assert sorted(c for c in g.layout(p).tolist() if c != 255) == placed
        if g.done:
            break
        if len(g.history) >= 1 and not g.timed_out:
            g.timeout()
        else:
            g.play(pol.choose(g.view(g.to_act), g.legal_moves()))
    assert any(t.auto == "time-out" for t in g.history)


def test_match_copies_and_pickles():
    import copy
    import pickle
    m = Match("pineapple", 2, seed=6, policies=[RandomPolicy(1), HeuristicPolicy(2)])
    m.play_hand()
    g = m.start_hand()
    g.play(g.legal_moves()[0])
    for c in (copy.copy(m), copy.deepcopy(m), m.copy(), pickle.loads(pickle.dumps(m))):
        assert c._game == m._game and c._game is not m._game
        c._game.run(c._policies)
        c.end_hand()
        c.run()
        assert c.done and c.scores.sum() == 0
        assert m.hands_played == 1 and not m._game.done
    m._game.run(m._policies)
    m.end_hand()

    class Local:
        def choose(self, view, moves):
            return moves[0]
    m = Match("pineapple", 2, policies=[Local(), Local()])
    with pytest.raises(TypeError, match="policy of seat 0 .* does not pickle"):
        pickle.dumps(m)
    assert copy.deepcopy(m).run().sum() == 0


def test_bad_arguments_are_value_or_type_errors():
    v = ofc.variant("pineapple")
    g = Game(v, 2, seed=1)

    class Garbage:
        def choose(self, view, moves):
            return None

    class Cheat:
        def choose(self, view, moves):
            return Move((0, 1, 2, 3, 4), (2, 2, 2, 2, 2))
    cases = [
        (lambda: Match("pineapple", 2, policies=[None, None]), TypeError,
         "policy of seat 0 is None"),
        (lambda: Match("pineapple", 2, policies={0: RandomPolicy()}), ValueError,
         "seat 1 has none"),
        (lambda: Game(v, 2).run(RandomPolicy), TypeError, "choose"),
        (lambda: Game(v, 2, seed=1).run(Garbage()), TypeError,
         "seat 1's policy Garbage returned None"),
        (lambda: Game(v, 2, seed=1).run(Cheat()), ofc.MoveError, "seat 1's policy Cheat chose"),
        (lambda: Game(v, "ab"), TypeError, "players is a number"),
        (lambda: Game(v, 2.0), TypeError, "players is a number"),
        (lambda: Game(v, 2, button="1"), TypeError,
         r"button must be an integer seat 0 \.\. 1, got '1'"),
        (lambda: Game(v, 2, button=2 ** 70), ofc.ArgumentError,
         r"no seat 1,180,591,620,717,411,303,424 at a table of 2: button must be 0 \.\. 1"),
        (lambda: Game(v, 2, seed=1.5), TypeError, "seed must be"),
        (lambda: Game(v, 2, seed=-1), ValueError, "seed must be an integer >= 0"),
        (lambda: Game(v, 2, deck=5), TypeError, "deck must list 52 cards"),
        (lambda: Game(v, 2, fantasyland=[(14, 2 ** 70), 0]), ValueError, "count must be 1 .. 255"),
        (lambda: Game(v, 2, fantasyland=["x", 0]), TypeError,
         "fantasyland seat 0 must be an integer"),
        (lambda: Game(v, 2, fantasyland="14"), TypeError, "one entry per seat"),
        (lambda: Game(v, 2, fantasyland={5: 14}), ofc.ArgumentError,
         r"no seat 5 at a table of 2: fantasyland seat must be 0 \.\. 1"),
        (lambda: Match(v, 2, n_hands="4"), TypeError, "hands must be an integer"),
        (lambda: Match(v, 2, n_hands=2 ** 70 + 1), ValueError, "multiple of the 2 players"),
        (lambda: g.view("a"), TypeError, r"seat must be an integer seat 0 \.\. 1, got 'a'"),
        (lambda: g.layout(7), ValueError, "no seat 7"),
        (lambda: g.discards(-1), ValueError, "no seat -1"),
        (lambda: g.is_dead(2 ** 70), ValueError, "no seat"),
        (lambda: g.legal_moves()[2 ** 70], IndexError, "out of range"),
        (lambda: g.legal_moves()[10 ** 9], ofc.MoveError, "out of range"),
        (lambda: g.legal_moves()["0"], TypeError, "move indexes are integers"),
        (lambda: g.legal_moves().layouts(-1), ValueError, "limit must be at least 0"),
        (lambda: g.play(5), TypeError, "a move is a Move"),
        (lambda: g.play(((1, 2), (2 ** 70, 0))), ofc.MoveError, "not among the cards dealt"),
        (lambda: g.play((g.hand, (2 ** 70,) * 5)), ofc.MoveError,
         "is not a row index|does not exist"),
        (lambda: g.play((g.hand, ("roof",) * 5)), ofc.MoveError, "unknown row 'roof'"),
        (lambda: g.play((g.hand, (1.5,) * 5)), ofc.MoveError, "a row is an index"),
        (lambda: g.play((5, 6)), ofc.MoveError, "sequence"),
        (lambda: g.legal_moves().index(((1, 2), (0, 0))), ofc.MoveError, "not among"),
        (lambda: g.record(), ValueError, "not finished"),
        (lambda: HeuristicPolicy(samples=0), ValueError,
         r"samples must be 1 \.\. 1,000,000, got 0"),
        (lambda: HeuristicPolicy(fantasyland_value=float("inf")), ValueError, "finite"),
        (lambda: HeuristicPolicy(tries="3"), TypeError, "tries must be an integer"),
        (lambda: RandomPolicy(seed="x"), TypeError, "seed must be"),
        (lambda: variant_options(5), ofc.RulesError, "unknown variant 5"),
        (lambda: Move((1,), (9,)).describe("pineapple"), ofc.MoveError, "row 9 does not exist"),
        (lambda: mask_cards(2 ** 70), ValueError,
         r"card mask must be 0 \.\. 4,503,599,627,370,495, got 1,180,591,620,717,411,303,424"),
        (lambda: is_dead(np.full(13, 255, np.uint8), 1.5, v), TypeError, "52-bit mask"),
    ]
    for call, exc, message in cases:
        with pytest.raises(exc, match=message):
            call()
    assert not g.history                         # nothing above changed the game
    g.run()
    with pytest.raises(ofc.MoveError, match="the hand is over"):
        g.timeout()
    with pytest.raises(ofc.MoveError, match="the hand is over"):
        g.timeout_move()
    with pytest.raises(ValueError, match="one name per seat"):
        g.record(names=["only one"])


def test_front_and_back_name_the_first_and_last_rows():
    for name in ("pineapple", "big-pineapple"):
        v = ofc.variant(name)
        g = Game(v, 2, seed=5, auto=False)
        a, b, c = g.hand[:3]
        g.play({"front": [a], "back": [b, c], 1: g.hand[3:]})
        placed = g.history[0].move.placed()
        assert placed[0][0] == a and placed[v.n_rows - 1] == (b, c), name
        text = [ofc.format_card(x) for x in g.hand]          # seat 1's first street
        assert g.keep == len(text)
        g.play((text, ["back", "Back", "front"] + [1] * (len(text) - 3)))
        assert g.history[-1].move.rows[:3] == (v.n_rows - 1, v.n_rows - 1, 0), name


def test_move_layouts_limit():
    g = Game("pineapple", 2, seed=4, auto=False)
    moves = g.legal_moves()
    lays, discards = moves.layouts()
    assert len(lays) == len(discards) == len(moves) > 3
    for k in (0, 1, 3, len(moves) - 1, len(moves), len(moves) + 5):
        part, part_discards = moves.layouts(k)
        m = min(k, len(moves))
        assert len(part) == len(part_discards) == m
        assert (part == lays[:m]).all() and (part_discards == discards[:m]).all(), k


def test_moves_as_card_text_and_row_names():
    v = ofc.variant("pineapple")
    g = Game(v, 2, seed=5, auto=False)
    text = [ofc.format_card(c) for c in g.hand]
    g.play((text, ["bottom", "bottom", "middle", "top", "discard"][:4] + ["top"]))
    assert g.history[0].move.rows == (2, 2, 1, 0, 0)
    g.play((" ".join(ofc.format_card(c) for c in g.hand), (2, 2, 2, 2, 2)))
    m = g.legal_moves()[3]
    assert g.legal_moves().index(([ofc.format_card(c) for c in m.cards],
                                  [v.row_names[r] if r >= 0 else "discard" for r in m.rows])) == 3


# ------------------------------------------- the match flow against a rule-book model
def _model_match(m, rng, slow, p_timeout, policy=None):
    """Play match m to its end with random moves and random time-outs, checking
    every hand against a model of RULES.md sections 7 and 9 written here (the
    fantasyland earned comes from the independent slow scorer):

    * the seat left of the button acts first, then clockwise; fantasyland seats
      act first, all their cards at once (the variant's entry / repeat deal);
    * the button moves one seat after a hand without a fantasyland player only;
    * the match lasts ``hands`` button moves, plus the fantasyland hands, and an
      earned fantasyland is played out (``finish_fantasyland``);
    * a time-out ends the match right after that hand unless an opponent (one
      who did not time out) earned fantasyland in it; then it goes on while such
      an opponent has a fantasyland hand pending (repeats included).
    """
    P = m.n_players
    button, moves_done = m.button, 0
    pending = list(m.next_fantasyland)     # (cards, count) per seat
    extenders, timed_out_once = set(), False
    hands = 0
    while True:
        assert m.button == button
        g = m.start_hand()
        hands += 1
        order = tuple((button + 1 + q) % P for q in range(P))
        assert g.acting_order == order
        fl_seats = [p for p in order if pending[p][0]]
        assert g.fantasyland_deal == tuple(c for c, _ in pending)
        assert g.fantasyland_count == tuple(k for _, k in pending)
        v = m.variant
        streets = [(v.first_street, v.first_street)] + list(v.streets)
        want = [(p, -1, pending[p][0], v.n_cards) for p in fl_seats]
        want += [(p, s, d, k) for s, (d, k) in enumerate(streets) for p in order
                 if not pending[p][0]]
        assert g.schedule == want
        while not g.done:
            if rng.random() < p_timeout:
                g.timeout()
            elif policy is not None:
                g.play(policy.choose(g.view(g.to_act), g.legal_moves()))
            else:
                moves = g.legal_moves()
                g.play(moves[int(rng.integers(len(moves)))])
        res = m.end_hand()
        # the slow scorer's verdict on every seat, from its fantasyland count
        evs = [S.evaluate(g.layouts[p], slow, pending[p][1]) for p in range(P)]
        assert list(res.points) == S.table(list(g.layouts), slow)
        earned = [(e.fantasyland, pending[p][1] + 1 if e.fantasyland else 0)
                  for p, e in enumerate(evs)]
        assert m.next_fantasyland == tuple(earned)
        if not fl_seats:
            button, moves_done = (button + 1) % P, moves_done + 1
        out = set(g.timed_out)
        if out:
            timed_out_once = True
            extenders = {p for p in range(P) if p not in out
                         and (earned[p][0] or p in extenders)}
        pending = earned
        if timed_out_once:
            end = None if any(pending[p][0] for p in extenders) else "time-out"
        else:
            end = None
        if end is None and moves_done >= m.n_hands and not any(c for c, _ in pending):
            end = "orbits"
        assert m.ended_by == end, f"hand {hands}: the model says {end}, the match {m.ended_by}"
        assert m.button_moves == moves_done
        if end:
            return hands


MODEL_MATCHES = [("pineapple", 3, {}), ("progressive", 2, {}), ("classic", 4, {}),
                 ("pineapple-2-7", 2, {}), ("big-pineapple", 2, {}),
                 ("turbo", 3, {"repeat": "infinite"}), ("turbo-pineapple", 3, {"lowball": True})]


def _model_matches(name, P, opts, n):
    v, slow = ofc.variant(name, **opts), S.rules(name, **opts)
    rng = np.random.default_rng(7)
    # a policy that goes for fantasyland, so that entries, repeats and extended
    # time-outs happen; seats start in fantasyland in some matches too
    pol = HeuristicPolicy(seed=1, samples=6, tries=4, fantasyland_value=40, max_moves=60)
    tiers = sorted({c for c in v.entry_cards if c})
    seen = {"orbits": 0, "time-out": 0, "fantasyland hands": 0, "extended": 0}
    for i in range(n):
        fl = [int(rng.choice(tiers)) if rng.random() < 0.4 else 0 for _ in range(P)]
        m = Match(v, P, n_hands=P * (1 + i % 2), seed=i, button=i % P, fantasyland=fl)
        _model_match(m, rng, slow, p_timeout=0.0 if i % 3 == 0 else 0.03, policy=pol)
        seen[m.ended_by] += 1
        seen["fantasyland hands"] += m.hands_played - m.button_moves
        seen["extended"] += bool(m.timeouts) and m.timeouts[0][0] < m.hands_played - 1
    return seen


@pytest.mark.parametrize("name,P,opts", MODEL_MATCHES)
def test_match_flow_follows_the_rule_book(name, P, opts):
    """RULES.md sections 7 and 9 (button, acting order, fantasyland deals and
    carries, match length, time-outs) over matches played to their end, each
    hand checked against a model of the rule book (``_model_match``)."""
    seen = _model_matches(name, P, opts, 8)
    assert seen["orbits"] and seen["time-out"] and seen["fantasyland hands"]


@pytest.mark.slow
def test_match_flow_follows_the_rule_book_long():
    seen = [_model_matches(name, P, opts, 40) for name, P, opts in MODEL_MATCHES]
    assert sum(s["extended"] for s in seen) >= 3      # time-outs extended by fantasyland


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_timeout_placement_every_variant(name):
    """RULES.md section 9, time-out: from the turn a seat runs out of time, the
    cards of each of its turns are placed in the order dealt, filling the
    bottom first, then the rows above it (middle; four rows: second, third),
    then the top; on a street with a discard the first cards dealt are placed
    and the last discarded.  Written out here row by row for every variant,
    its fantasyland deals and a time-out on any street."""
    v = ofc.variant(name)
    deals = [0] + sorted({c for c in v.entry_cards if c})
    rng = np.random.default_rng(3)
    offs = [0, 3, 8, 13][:v.n_rows]
    for k, fl_cards in enumerate(deals * 3):
        P = v.max_players
        g = Game(v, P, seed=k, fantasyland=[fl_cards] + [0] * (P - 1), auto=False)
        turns = [t for t in g.schedule if t[0] == 0]
        at = int(rng.integers(len(turns)))            # seat 0 times out on its at-th turn
        mine = 0
        while not g.done:
            if g.to_act == 0 and mine == at:
                g.timeout()
            else:
                mine += g.to_act == 0
                moves = g.legal_moves()
                g.play(moves[int(rng.integers(len(moves)))])
        assert g.timed_out == (0,)
        history = [t for t in g.history if t.seat == 0]
        assert len(history) == len(turns)
        room, lay, discards = list(v.row_sizes), [EMPTY] * v.n_cards, []
        for j, (turn, (_, _, dealt, kept)) in enumerate(zip(history, turns, strict=True)):
            assert len(turn.move.cards) == dealt
            if j < at:
                rows = turn.move.rows
                assert turn.auto is None
            else:
                rows = []
                for i in range(dealt):    # the first `kept` cards dealt: lowest row with room
                    rows.append(max(r for r in range(v.n_rows) if room[r] - rows.count(r) > 0)
                                if i < kept else DISCARD)
                assert turn.move.rows == tuple(rows) and turn.auto == "time-out"
            for c, row in zip(turn.move.cards, rows, strict=True):
                if row == DISCARD:
                    discards.append(c)
                else:
                    lay[offs[row] + v.row_sizes[row] - room[row]] = c
                    room[row] -= 1
        assert g.layout(0).tolist() == lay
        assert g.discards(0).tolist() == discards


def test_one_name_per_concept_and_the_old_names_still_work():
    """n_players / names / n_hands are the names; the 0.3 spellings (players=,
    names as the second argument, hands=, Match.hands) warn and work alike."""
    new = Match("pineapple", 3, n_hands=6, seed=2, names=["a", "b", "c"])
    with pytest.warns(DeprecationWarning, match=r"Match\(players=...\)"):
        old = Match("pineapple", players=["a", "b", "c"], seed=2, n_hands=6)
    with pytest.warns(DeprecationWarning, match=r"names=\[...\]"):
        positional = Match("pineapple", ["a", "b", "c"], 6, seed=2)
    with pytest.warns(DeprecationWarning, match=r"Match\(hands=...\) is deprecated"):
        hands = Match("pineapple", 3, hands=6, seed=2, names=["a", "b", "c"])
    for m in (old, positional, hands):
        assert m.names == new.names and m.n_hands == new.n_hands == 6
        assert (m.run() == Match("pineapple", 3, n_hands=6, seed=2).run()).all()
    with pytest.warns(DeprecationWarning, match="Match.n_hands"):
        assert new.hands == 6
    assert Game("pineapple", names=["x", "y", "z"]).n_players == 3
    assert Game("pineapple").n_players == 2
    with pytest.raises(ArgumentError, match="n_players=2 but 3 names"):
        Game("pineapple", 2, names=["x", "y", "z"])
    with pytest.warns(DeprecationWarning, match=r"Game\(players=...\)"):
        assert Game("pineapple", players=3).n_players == 3


def test_seat_to_act_is_an_int_while_the_hand_is_live():
    g = Game("pineapple", 3, seed=4)
    seen = set()
    while not g.done:
        assert g.seat_to_act == g.to_act and isinstance(g.seat_to_act, int)
        seen.add(g.seat_to_act)
        g.play(g.legal_moves()[0])
    assert seen == {0, 1, 2}
    with pytest.raises(StateError, match="no seat acts"):
        _ = g.seat_to_act


@pytest.mark.parametrize("name, options", [
    *((n, {}) for n in ("classic", "turbo", "pineapple", "progressive", "pineapple-2-7",
                        "turbo-pineapple", "big-pineapple")),
    ("progressive", {"entry_cards": (0, 24)}),          # the repeat deal (14) is smaller
    ("pineapple", {"entry_cards": (0, 16), "repeat_cards": 14}),
    ("progressive", {"entry_cards": (0, 16, 15), "repeat": "none"}),
    ("classic", {"repeat_cards": 15}),
])
def test_fantasyland_true_deals_the_first_entry_tier(name, options):
    """fantasyland=True is the variant's first fantasyland tier in Game,
    Match and GameBatch alike (0.3 dealt the smallest deal, which is the
    repeat's when it is smaller)."""
    from ofc_fast.sim import GameBatch
    v = ofc.variant(name, **options)
    first = next(c for c in v.entry_cards if c)
    P = 2
    assert Game(v, P, seed=1, fantasyland=[True, 0]).fantasyland_deal == (first, 0)
    assert Match(v, P, seed=1, fantasyland=[0, True]).start_hand().fantasyland_deal == (0, first)
    b = GameBatch(v, 1, P, seed=1, fantasyland=[True, 0], policies="external", auto_deal=False)
    assert b.game(0).fantasyland_deal == (first, 0)


def test_a_card_twice_in_one_place_says_so():
    empty = "__ __ __ / __ __ __ __ __ / __ __ __ __ __"
    with pytest.raises(ofc.CardError, match="Qd is twice in seat 0's layout"):
        Game.from_position("pineapple", ["Qd Qd __ / __ __ __ __ __ / __ __ __ __ __", empty])
    with pytest.raises(ofc.CardError, match="twice in the hand"):
        Game.from_position("pineapple", [empty, empty], hand="Qd Qd 2c 3c 4c")
