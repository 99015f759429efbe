"""The play engine's trust at the boundaries (issue 9): bad decks, moves,
seats, policies and arguments give the library's errors, naming what is wrong."""

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast.engine import (
    DISCARD,
    Game,
    HeuristicPolicy,
    Match,
    Move,
    RandomPolicy,
    variant_options,
)
from ofc_fast.rollouts import is_dead, mask_cards
from ofc_fast.rules import VARIANTS


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
        from test_engine_boundaries import forged
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
