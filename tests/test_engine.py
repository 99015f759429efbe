"""The play engine: Game, policies, views, automatic moves, time-outs, results
(matches: test_match.py; bad input: test_engine_boundaries.py)."""
import itertools
import json

import numpy as np
import pytest

import ofc_fast as ofc
from engine_scripts import ALL_VARIANTS, EMPTY, Script, all_cards, build_deck
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
from ofc_fast.policies import fantasyland_move
from ofc_fast.rollouts import is_dead, mask_cards
from ofc_fast.rules import VARIANTS


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
