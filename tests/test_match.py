"""Match: hands in a row, the match rules of issue 11 (button, fantasyland
carried, time-outs), and the match flow against a rule-book model."""

import numpy as np
import pytest

import ofc_fast as ofc
import slow_scorer as S
from engine_scripts import ALL_VARIANTS, EMPTY, Script, build_deck
from ofc_fast.engine import (
    DISCARD,
    Game,
    HeuristicPolicy,
    Match,
    RandomPolicy,
)
from ofc_fast.errors import ArgumentError, StateError


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
