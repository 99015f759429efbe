"""The play engine with jokers (issue 27 item 4; RULES.md section 12): Game,
Match and GameBatch deal 53/54-card decks, check explicit decks, score the
showdown through the joker-aware C rules (against score_tables), and a batch
game replays through Game and Match (random, external and Python seats,
time-outs, pickles).  A 52-card batch plays bit for bit as before jokers were
dealt.  What cannot play jokers yet refuses them with a RulesError that says
what works."""
from __future__ import annotations

import hashlib
import pickle

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast._args import kernel_seed
from ofc_fast._hand import seeded_deck
from ofc_fast.cards import EMPTY, JOKER, CardError, parse_cards
from ofc_fast.engine import Game, Match, RandomPolicy
from ofc_fast.errors import LayoutError
from ofc_fast.rollouts import engine_rules
from ofc_fast.scoring import score_tables
from ofc_fast.sim import TIMEOUT, GameBatch
from ofc_fast.variants import VARIANTS
from test_sim import _check_hand, _check_obs, _check_view, _play_fantasyland, replay_as_objects


def jv(name: str = "pineapple", jokers: int = 2, **options) -> ofc.Variant:
    return ofc.variant(name, jokers=jokers, **options)


# ------------------------------------------------------- 52 cards: as before
def _batch_digest(variant, P, policies="random", auto=True):
    b = GameBatch(variant, 16, P, seed=2026, policies=policies, auto=auto)
    f = b.run_recorded(hands=3)
    h = hashlib.sha256()
    for a in (f.game, f.hand_number, f.button, f.layouts, f.discards, f.fantasyland_count,
              f.points, f.foul, f.royalty_total, f.next_fantasyland):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def _obs_digest(variant, P, auto=True):
    b = GameBatch(variant, 8, P, seed=99, policies=["external"] + ["random"] * (P - 1),
                  auto=auto)
    h = hashlib.sha256()
    for _ in range(4):
        o = b.observe()
        for k in sorted(o):
            h.update(k.encode())
            h.update(np.ascontiguousarray(o[k]).tobytes())
        b.step(o["legal"][:, 0])
    return h.hexdigest()[:16]


# main at c55aa86 (before the engine dealt jokers): the same runs, digested
MAIN_DIGESTS = [
    ("pineapple", 3, True, "8796545bf0ad3657", "10eb02d742022384"),
    ("pineapple", 3, False, "cd07b9d29d71be1e", "b31187f0274723f7"),
    ("classic", 2, True, "aad0511ae62e37de", "498d917214e0d9c1"),
    ("pineapple-2-7", 2, False, "c80f87b6596fcad9", "ffd340e5836a4bd7"),
    ("big-pineapple", 2, True, "319c2e8efe5542c2", "6e68582fb54d21be"),
    ("turbo", 4, False, "ccb09a092039d1cd", "22f402698c063f3d"),
]


@pytest.mark.parametrize("name, P, auto, played, observed", MAIN_DIGESTS)
def test_a_52_card_batch_plays_bit_for_bit_as_before(name, P, auto, played, observed):
    assert _batch_digest(name, P, auto=auto) == played
    assert _obs_digest(name, P, auto) == observed


def test_a_52_card_heuristic_batch_plays_as_before():
    assert _batch_digest("pineapple", 2, policies="heuristic") == "ce6ba4db2619b183"


# ------------------------------------------------------------------ the deck
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_the_deck_holds_the_variants_jokers(jokers):
    v = ofc.variant("pineapple", jokers=jokers)
    assert engine_rules(v).deck_size == 52 + jokers
    g = Game(v, 3, seed=5, auto=False)
    assert sorted(g.deck.tolist()) == list(range(52 + jokers))
    assert (g.deck == seeded_deck(kernel_seed(5), 0, jokers)).all()
    m = Match(v, 3, seed=5, auto=False)
    assert (m.start_hand().deck == g.deck).all()
    b = GameBatch(v, 3, 3, seed=5, auto=False)
    assert (b.game(0).deck == g.deck).all()
    assert (seeded_deck(kernel_seed(5), 0, jokers)[:52] != seeded_deck(kernel_seed(5), 0)).any() \
        or jokers == 0


def test_jokers_are_dealt_and_placed():
    """Over many hands every joker is dealt, placed and discarded somewhere,
    and a layout with a joker scores as its resolution."""
    b = GameBatch(jv(), 200, 3, seed=3, auto=False)
    f = b.run_recorded(hands=2)
    placed = np.isin(f.layouts, [JOKER, JOKER + 1])
    assert placed.any(axis=(1, 2)).mean() > 0.5          # 39 of 54 cards dealt to layouts
    assert np.isin(f.discards, [JOKER, JOKER + 1]).any()
    assert (f.layouts != EMPTY).all()


def test_explicit_decks_are_checked():
    v1, v2 = jv(jokers=1), jv()
    deck54 = np.arange(54, dtype=np.uint8)[::-1]
    g = Game(v2, 2, deck=deck54, auto=False)
    assert g.hand == (53, 52, 51, 50, 49)
    assert parse_cards("X2 X1 As Ah Ad").tolist() == list(g.hand)
    text = " ".join(["X2", "X1"] + [ofc.format_card(c) for c in range(51, -1, -1)])
    assert (Game(v2, 2, deck=text, auto=False).deck == deck54).all()
    with pytest.raises(CardError, match=r"holds a joker \(X1\).*52 cards without jokers"):
        Game("pineapple", 2, deck=list(range(51)) + [52])
    with pytest.raises(CardError, match="deck must list all 52 cards exactly once"):
        Game("pineapple", 2, deck=list(range(51)) + [0])
    with pytest.raises(CardError, match="52 cards and its 1 joker"):
        Game(v1, 2, deck=list(range(52)) + [53], auto=False)        # X2 in a one-joker game
    with pytest.raises(CardError, match="52 cards and its 2 joker"):
        Game(v2, 2, deck=list(range(53)) + [52], auto=False)        # X1 twice
    with pytest.raises(CardError, match="52 cards and its 2 joker"):
        Game(v2, 2, deck=list(range(53)), auto=False)               # a card short
    with pytest.raises(CardError, match="decks\\[1\\] holds a joker"):
        GameBatch("pineapple", 2, 2, decks=[list(range(52)), list(range(51)) + [53]])
    with pytest.raises(CardError, match="decks\\[0\\] must list all 52 cards and its 2"):
        GameBatch(v2, 1, 2, auto=False, decks=[list(range(52)) + [52, 52]])
    b = GameBatch(v2, 2, 2, auto=False, decks=[deck54, deck54])
    assert b.game(1).hand == (53, 52, 51, 50, 49)


# ------------------------------------------------------------- the showdown
def _showdown_cases():
    for name in VARIANTS:
        for jokers in (1, 2):
            yield name, jokers


@pytest.mark.parametrize("name, jokers", list(_showdown_cases()))
def test_the_showdown_is_score_tables(name, jokers):
    v = jv(name, jokers)
    fl_deal = max((c for c in v.entry_cards if c), default=0) if v.fantasyland else 0
    seen = 0
    for seed in range(12):
        P = v.max_players if seed % 2 else v.min_players
        fl = [fl_deal if (p == 0 and seed % 3 == 0) else 0 for p in range(P)]
        g = Game(v, P, seed=seed, auto=False, fantasyland=fl)
        res = g.run()
        counts = np.array(g.fantasyland_count)
        tables = g.layouts[None]
        seen += int(np.isin(tables, [JOKER, JOKER + 1]).any())
        want = score_tables(tables, v, counts[None], details=True)
        assert list(res.points) == want.points[0].tolist()
        assert list(res.foul) == want.foul[0].tolist()
        assert list(res.royalty_total) == want.royalty_total[0].tolist()
        assert list(res.next_fantasyland) == want.next_fantasyland[0].tolist()
    assert seen >= 6        # most hands hold a joker


# ------------------------------------------------- replays: batch = Game, Match
@pytest.mark.parametrize("name, P, fl, auto", [
    ("pineapple", 3, None, False), ("pineapple", 2, [0, 14], False), ("classic", 2, None, False),
    ("pineapple-2-7", 2, None, False), ("progressive", 3, [0, 0, 16], False),
    ("pineapple", 3, None, True), ("pineapple-2-7", 2, [15, 0], True), ("turbo", 2, None, True)])
def test_external_play_replays_through_game_and_match(name, P, fl, auto):
    """Every seat external (random legal actions): each batch game is a Match
    with its seed, turn by turn (observations, legal actions, automatic
    moves, points)."""
    v = jv(name)
    b = GameBatch(v, 4, P, seed=11, fantasyland=fl, policies="external", auto=auto,
                  auto_deal=False)
    matches = [Match(v, P, n_hands=P * 100, seed=b.game_seed(i), fantasyland=fl, auto=auto)
               for i in range(4)]
    games: list[Game | None] = [m.start_hand() for m in matches]
    rng = np.random.default_rng(1)
    hands = [0] * 4
    while any(g is not None for g in games):
        for g in games:
            if g is not None:
                _play_fantasyland(g)
        obs = b.observe()
        waiting = obs["game"].tolist()
        assert waiting == [i for i, g in enumerate(games) if g is not None and not g.done]
        actions = np.zeros(len(waiting), np.int64)
        for j, i in enumerate(waiting):
            g = games[i]
            assert g is not None
            legal = _check_obs(b, obs, j, g)
            other = (g.to_act + 1) % P
            _check_view(b.observe(games=[i], seats=[other]), 0, g, other)
            k = int(rng.integers(len(legal)))
            actions[j] = legal[k]
            g.play(g.legal_moves()[k])
        rewards, done = b.step(actions)
        for i, g in enumerate(games):
            if g is None:
                continue
            _play_fantasyland(g)
            assert done[i] == g.done
            if g.done:
                _check_hand(b, i, g, matches[i], rewards)
                hands[i] += 1
                games[i] = matches[i].start_hand() if hands[i] < 2 else None
                if hands[i] < 2:
                    b.next_hand([i])


def test_random_and_python_seats_replay_through_game():
    """Built-in random seats and a Python seat: each batch hand is the Match
    hand with the same seed, its moves legal there, the same points."""
    v = jv()

    class First:
        def choose(self, view, moves):
            assert len(view.unseen) == 54 - len(view.hand) - int((view.layouts != EMPTY).sum()) \
                - len(view.discards) or view.street != 0
            return moves[0]

    b = GameBatch(v, 3, 3, seed=4, auto=False, auto_deal=False,
                  policies=["random", First(), RandomPolicy(seed=3)])
    matches = [Match(v, 3, n_hands=300, seed=b.game_seed(i), auto=False) for i in range(3)]
    for _ in range(3):
        b.run(hands=1)
        for i, m in enumerate(matches):
            bg = b.game(i)
            g = m.start_hand()
            assert (g.deck == bg.deck).all() and g.button == bg.button
            for t in bg.history:
                assert t.auto is None and t.seat == g.to_act and t.move in g.legal_moves()
                g.play(t.move)
            assert g.history == bg.history
            res = m.end_hand()
            assert b.last_hands([i]).points[0].tolist() == list(res.points)
            assert (b.scores[i] == m.scores).all()


@pytest.mark.parametrize("name, P, fl", [("pineapple", 3, None), ("progressive", 2, [0, 15]),
                                         ("classic", 4, None)])
def test_random_seats_play_alike_in_the_batch_and_as_objects(name, P, fl):
    """Game i of a random-seat batch with jokers is a Match of RandomPolicy
    objects drawing from the game's stream (reseeded per hand, as the batch
    does): every layout, discard and point, fantasyland carried."""
    v = jv(name)
    hands = 3
    b = GameBatch(v, 3, P, seed=12, auto=False, fantasyland=fl)
    rec = b.run_recorded(hands)
    replay_as_objects(b, rec, hands, lambda stream: [RandomPolicy(stream=stream) for _ in range(P)],
                      fantasyland=fl, auto=False)


def test_time_outs_with_jokers():
    """An external seat runs out of time: its time-out placements for the
    rest of the hand, the same as Game.timeout on the same deck."""
    v = jv()
    b = GameBatch(v, 2, 2, seed=8, policies=["external", "random"], auto=False,
                  auto_deal=False)
    b.step(np.full(len(b.waiting), TIMEOUT))
    assert b.over.all()
    for i in range(2):
        bg = b.game(i)
        assert bg.timed_out == (0,)
        g = Game(v, 2, deck=bg.deck, auto=False)
        for t in bg.history:
            if t.seat in g.timed_out:
                continue                       # played with the time-out
            if t.auto == "time-out":
                g.timeout()
            else:
                g.play(t.move)
        assert g.history == bg.history and g.result().points == bg.result().points
        assert b.last_hands([i]).points[0].tolist() == list(g.result().points)


def test_games_with_jokers_copy_and_pickle():
    v = jv(jokers=1)
    g = Game(v, 3, seed=2, auto=False)
    for _ in range(4):
        g.play(g.legal_moves()[-1])
    for h in (pickle.loads(pickle.dumps(g)), g.copy()):
        assert h == g and (h.deck == g.deck).all() and len(h.deck) == 53
        assert h.run().points == g.copy().run().points
    m = Match(v, 2, seed=3, auto=False)
    m.run()
    assert pickle.loads(pickle.dumps(m)).scores.tolist() == m.scores.tolist()
    rec = Game(v, 2, seed=9, auto=False)
    rec.run()
    assert rec.record()["options"]["jokers"] == 1


def test_views_count_the_jokers_unseen():
    g = Game(jv(), 2, deck=np.arange(54, dtype=np.uint8)[::-1], auto=False)
    view = g.view()
    assert view.hand == (53, 52, 51, 50, 49) and view.unseen.tolist() == list(range(49))
    other = g.view(1 - g.to_act)
    assert other.unseen.tolist() == list(range(54))


# ----------------------------------------------------------- what refuses
def test_a_position_with_jokers_is_set_up_and_played_on():
    """Game.from_position deals a joker table: the placed and held jokers
    where given, the unseen joker in the rest of the deck; played to the
    end, the points are score_tables of the layouts."""
    v = jv()
    g = Game.from_position(v, ["As __ __ / 2c X2 5c __ __ / Tc Jc Qc __ __",
                               "__ __ __ / Kd Kc __ __ __ / 7h 8h 9h __ __"],
                           button=1, discards=["4s", None], hand="Qh X1 3d", seed=1)
    assert (g.to_act, g.street) == (1, 1) and ofc.format_cards(list(g.hand)) == "Qh X1 3d"
    assert g.layouts[0].tolist().count(JOKER + 1) == 1
    assert sorted(g.deck.tolist()) == list(range(54))
    while not g.done:
        g.play(g.legal_moves()[-1])
    assert (g.layouts >= JOKER).sum() >= 1
    assert list(g.result().points) == score_tables(g.layouts[None], v)[0].tolist()


@pytest.mark.parametrize("kw, error, message", [
    (dict(variant="pineapple", layouts=["X1 __ __ / __ __ __ __ __ / __ __ __ __ __"]),
     LayoutError, "X1 is a joker; variant pineapple is played without jokers"),
    (dict(variant=ofc.variant("pineapple", jokers=1), hand="X2 2c 3c 4c 5c"),
     CardError, "the hand: X2 is a joker; variant pineapple is played with one joker"),
    (dict(variant=ofc.variant("pineapple", jokers=1), discards=[None, "X1"],
          layouts=["X1 __ __ / __ __ __ __ __ / __ __ __ __ __"]),
     CardError, "X1 is both in seat 0's layout and in seat 1's discards"),
])
def test_a_position_with_a_joker_it_cannot_hold_is_refused(kw, error, message):
    empty = "__ __ __ / __ __ __ __ __ / __ __ __ __ __"
    lays = kw.pop("layouts", [empty]) + [empty]
    with pytest.raises(error, match=message):
        Game.from_position(kw.pop("variant"), lays, **kw)


def test_the_racing_policy_plays_a_fantasyland_deal_with_jokers():
    """Only its street play refuses jokers (tests/test_jokers_rollouts.py);
    a fantasyland deal is the exact solver's."""
    fl = Game(jv(), 2, seed=1, auto=False, fantasyland=[14, 0])
    move = ofc.RacingPolicy(seed=1).choose(fl.view(), fl.legal_moves())
    assert move in fl.legal_moves()


# ---------------------------------------------------------- observations
@pytest.mark.parametrize("jokers, size", [(0, 843), (1, 859), (2, 875)])
def test_observations_gain_joker_planes(jokers, size):
    from ofc_fast.rl.encoding import ObservationEncoding
    v = ofc.variant("pineapple", jokers=jokers)
    enc = ObservationEncoding(v, 3)
    C = 52 + jokers
    assert enc.size == size == C * (5 + 9 + 2) + 5 + 3 + 3
    assert [(s.name, s.size) for s in enc.sections][:4] == [
        ("dealt", 5 * C), ("rows", 9 * C), ("discards", C), ("unseen", C)]
    deck = np.arange(C, dtype=np.uint8)[::-1].copy()       # the jokers come first
    b = GameBatch(v, 1, 3, seed=1, auto=False, policies="external", decks=[deck])
    o = b.observe()
    assert o["unseen"].shape == (1, C) and o["hand"][0].tolist() == deck[:5].tolist()
    x = enc.encode(o)[0]
    dealt = [int(i) for i in np.flatnonzero(x[:5 * C])]
    assert dealt == [j * C + int(c) for j, c in enumerate(deck[:5])]    # a joker is its plane
    u = enc.sections[3].start
    assert x[u:u + C].tolist() == [0 if c in deck[:5] else 1 for c in range(C)]
    g = Game(v, 3, deck=deck, auto=False)
    assert (enc.encode_view(g.view(g.to_act)) == x).all()
    a = o["legal"][0, 0]
    b.step([a])                                         # the seat's row planes show the joker
    g.play(g.legal_moves()[0])
    o2 = b.observe(games=[0], seats=[0])
    assert (enc.encode(o2)[0] == enc.encode_view(g.view(0))).all()
    if jokers:
        with pytest.raises(ofc.ArgumentError, match="joker"):
            ObservationEncoding("pineapple", 3).encode_view(g.view(0))


def test_environments_play_jokers_with_auto_off():
    pytest.importorskip("gymnasium")
    from ofc_fast.rl.gym import OFCEnv
    env = OFCEnv(jv(), 3, auto=False)
    obs, info = env.reset(seed=3)
    assert env.observation_space.shape == obs.shape == (875,)
    for _ in range(200):
        obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if term or trunc:
            break
    assert term or trunc
    pytest.importorskip("pettingzoo")
    from ofc_fast.rl.pettingzoo import OFCAECEnv
    aec = OFCAECEnv(jv(), 3, auto=False)
    aec.reset(seed=1)
    turns = 0
    for _ in aec.agent_iter():
        o, _, term, trunc, _ = aec.last()
        assert o["observation"].shape == (875,)
        aec.step(None if term or trunc else int(np.flatnonzero(o["action_mask"])[0]))
        turns += 1
    assert turns == 3 * 5 + 3               # five streets a seat, then each seat's last step
