"""The RL interfaces (ofc_fast.rl): Gymnasium's and PettingZoo's checkers, the
observation encoding against Game's views, rewards against the engine's
points, determinism by seed, autoreset, and the library's errors."""
import subprocess
import sys
import types
import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import ofc_fast.rl  # noqa: E402
from ofc_fast.cards import EMPTY  # noqa: E402
from ofc_fast.errors import ArgumentError, MoveError, RulesError, StateError  # noqa: E402
from ofc_fast.game import Game  # noqa: E402
from ofc_fast.rl.encoding import ObservationEncoding  # noqa: E402
from ofc_fast.rl.gym import OFCEnv, OFCVectorEnv  # noqa: E402
from ofc_fast.rl.pettingzoo import OFCAECEnv, env  # noqa: E402
from ofc_fast.rules import as_variant  # noqa: E402
from ofc_fast.sim import GameBatch, action_of  # noqa: E402

LIGHT = ("heuristic", {"samples": 2, "tries": 2})


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def _pick(mask, rng):
    """A random legal action per row of an int8 mask."""
    m = np.atleast_2d(mask).astype(bool)
    u = rng.random(len(m))[:, None] * m.sum(1)[:, None]
    out = (m.cumsum(1) > u).argmax(1)
    return out if np.ndim(mask) == 2 else int(out[0])


@pytest.mark.slow
def test_importing_ofc_fast_does_not_import_the_rl_libraries(tmp_path):
    # (from another folder: in a checkout, its uncompiled ofc_fast/ would be
    # imported instead of the installed package)
    code = ("import sys, ofc_fast, ofc_fast.sim, ofc_fast.io, ofc_fast.cli; "
            "print(sorted(m for m in ('gymnasium', 'pettingzoo') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.slow
def test_the_sb3_module_imports_without_stable_baselines3_and_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['stable_baselines3'] = None\n"
            "import ofc_fast.rl.sb3 as m\n"
            "assert not m.HAVE_SB3\n"
            "try:\n    m.OFCSB3VecEnv(4)\n"
            "except ImportError as e:\n    print(e)\n")
    # run outside the checkout: its source tree would shadow an installed ofc_fast
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "pip install stable-baselines3 sb3-contrib" in done.stdout


# ----------------------------------------------------------------------- checkers
@pytest.mark.parametrize("kw", [dict(), dict(n_players=3, policies=[LIGHT, "greedy", "external"]),
                                dict(variant="classic", n_players=4, seat=1),
                                dict(variant="big-pineapple", auto=False),
                                dict(variant="turbo-pineapple", n_players=3,
                                     fantasyland={0: 14})])
def test_gymnasium_check_env(kw, capsys):
    _quiet(check_env, OFCEnv(**kw))


def test_gymnasium_ids_and_make_vec(capsys):
    assert set(ofc_fast.rl.ENV_IDS) == {"classic", "turbo", "pineapple", "progressive",
                                        "pineapple-2-7", "turbo-pineapple", "big-pineapple"}
    e = gym.make("ofc_fast/Progressive-v0", n_players=3, render_mode="ansi")
    assert e.unwrapped.encoding.variant.name == "progressive"
    _quiet(check_env, e.unwrapped)                      # the render modes too (via the spec)
    e.reset(seed=1)
    assert "street 0: place" in e.render()
    vec = gym.make_vec("ofc_fast/Pineapple-v0", num_envs=5, n_players=3,
                       vectorization_mode="vector_entry_point")
    assert isinstance(vec.unwrapped, OFCVectorEnv)
    obs, infos = vec.reset(seed=3)
    assert obs.shape == (5, 843) and infos["action_mask"].dtype == np.int8


@pytest.mark.parametrize("kw", [dict(), dict(n_players=3, hands=4, fantasyland={1: 14}),
                                dict(variant="classic", n_players=4, hands=2),
                                dict(variant="big-pineapple")])
def test_pettingzoo_api_test(kw, capsys):
    _quiet(api_test, OFCAECEnv(**kw), num_cycles=60)
    _quiet(api_test, env(**kw), num_cycles=60)
    _quiet(seed_test, lambda: OFCAECEnv(**kw), num_cycles=30)


# ----------------------------------------------------------------------- encoding
def _reference(view, variant):
    """The observation vector of a PlayerView, built feature by feature from
    the module's table (independent of the encoder)."""
    v = as_variant(variant)
    enc = ObservationEncoding(v, view.n_players)
    at = {s.name: s.start for s in enc.sections}
    x = np.zeros(enc.size, np.int8)
    for j, c in enumerate(view.hand):
        x[at["dealt"] + 52 * j + c] = 1
    bounds = np.cumsum([0, *v.row_sizes])
    P, R = view.n_players, len(v.row_sizes)
    for q in range(P):
        lay = view.layouts[(view.seat + q) % P]
        for r in range(R):
            for c in lay[bounds[r]:bounds[r + 1]].tolist():
                if c != EMPTY:
                    x[at["rows"] + 52 * (q * R + r) + c] = 1
        x[at["button"] + q] = (view.seat + q) % P == view.button
        x[at["fantasyland"] + q] = view.in_fantasyland[(view.seat + q) % P]
    for c in view.discards.tolist():
        x[at["discards"] + c] = 1
    for c in view.unseen.tolist():
        x[at["unseen"] + c] = 1
    if view.street is not None and view.street >= 0:
        x[at["street"] + view.street] = 1
    return x


@pytest.mark.parametrize("variant,P,fl", [("pineapple", 3, {2: 14}), ("classic", 4, None),
                                          ("big-pineapple", 2, None),
                                          ("turbo-pineapple", 3, {0: 14})])
def test_encoding_is_the_players_view(variant, P, fl):
    """Every seat's vector, mid-hand and at the showdown, equals the one
    built from Game.view."""
    rng = np.random.default_rng(1)
    b = GameBatch(variant, 6, P, seed=4, policies="external", fantasyland=fl, auto_deal=False)
    enc = ObservationEncoding(variant, P)
    checked = 0
    while len(b.waiting) or b.over.any():
        for seat in range(P):
            o = b.observe(np.arange(6), seat, legal=False, mask=False)
            x = enc.encode(o)
            for i in range(6):
                assert (x[i] == _reference(b.game(i).view(seat), variant)).all()
                checked += 1
        if not len(b.waiting):
            break
        b.step(_pick(b.observe()["mask"], rng))
    assert checked > 6 * P * 4


def test_encoding_refuses_another_tables_observation():
    """An observation of another table size or deal width is refused: it was
    encoded into the wrong features (a third seat dropped, a fifth dealt card
    written over the rows) or failed in numpy's broadcasting."""
    o = GameBatch("pineapple", 2, 3, seed=1, policies="external").observe()
    assert ObservationEncoding("pineapple", 3).encode(o).shape == (2, 843)
    for variant, P in [("pineapple", 2), ("turbo-pineapple", 3), ("big-pineapple", 2)]:
        with pytest.raises(ArgumentError, match="observation"):
            ObservationEncoding(variant, P).encode(o)
    with pytest.raises(ArgumentError, match="hand"):
        ObservationEncoding("pineapple", 3).encode({k: v for k, v in o.items() if k != "hand"})
    with pytest.raises(TypeError, match="obs"):
        ObservationEncoding("pineapple", 3).encode([o])


# ----------------------------------------------------------------------- single env
def test_reset_seed_deals_the_games_deck_and_episodes_are_hands():
    e = OFCEnv("pineapple", 2, seat=0, policies="random")
    obs, info = e.reset(seed=12)
    g = Game("pineapple", 2, seed=12)
    assert (e.batch.game(0).deck == g.deck).all()
    rng = np.random.default_rng(0)
    total, hands, buttons = 0.0, 0, set()
    while hands < 6:
        buttons.add(e.batch.game(0).button)
        done = False
        while not done:
            obs, reward, done, trunc, info = e.step(_pick(info["action_mask"], rng))
            total += reward
            assert not trunc
        hands += 1
        last = e.batch.last_hands([0])
        if not last.fantasyland_count.any():
            assert reward == last.points[0, 0] == info["points"][0]
        # at the showdown the mask is the next hand's first decision's (an
        # all-zero mask made a masked learner's distribution NaN), the one
        # reset() returns and action_masks() gives
        terminal_mask = info["action_mask"]
        assert terminal_mask.any() and (e.action_masks() == terminal_mask).all()
        with pytest.raises(StateError, match="reset"):
            e.step(0)
        obs, info = e.reset()                                # the match's next hand
        assert (info["action_mask"] == terminal_mask).all()
    assert buttons == {0, 1}
    assert total == e.batch.scores[0, 0]                     # rewards add up to the score


def test_fantasyland_hands_are_rewarded():
    """A hand the seat plays in fantasyland (by the engine) pays with the next
    step: the rewards still add up to the match's score."""
    for seed in range(3):
        e = OFCEnv("pineapple", 2, seat=1, fantasyland={1: 14})
        obs, info = e.reset(seed=seed)
        assert e.batch.hands_played[0] >= 1                  # hand 0 was the engine's
        rng, total = np.random.default_rng(seed), 0.0
        for _ in range(15):
            obs, reward, done, _, info = e.step(_pick(info["action_mask"], rng))
            total += reward
            if done:
                obs, info = e.reset()
        assert total == e.batch.scores[0, 1]
        assert e.batch.scores[0, 1] != 0


def test_single_env_errors():
    e = OFCEnv("pineapple", 2, illegal="raise")
    with pytest.raises(StateError):
        e.step(0)
    obs, info = e.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    decisions = e.batch.decisions.copy()
    with pytest.raises(MoveError, match="not a legal move"):
        e.step(illegal)
    assert (e.batch.decisions == decisions).all()            # nothing played
    with pytest.raises(ArgumentError, match="action"):
        e.step(1024)
    with pytest.raises(TypeError):
        e.step(1.5)
    # a 0-d integer array is in the action space (Discrete.contains), so step takes it
    legal = int(np.flatnonzero(info["action_mask"])[0])
    assert e.action_space.contains(np.array(legal))
    assert not e.step(np.array(legal))[4]["illegal"]
    for bad in (np.array([legal]), np.array(1.0), np.array(True)):
        assert not e.action_space.contains(bad)
        with pytest.raises(TypeError, match="action"):
            e.step(bad)
    # seeds: the library's errors (Gymnasium's seeding raised its own), numpy integers taken
    with pytest.raises(ArgumentError, match="seed"):
        e.reset(seed=-1)
    with pytest.raises(TypeError, match="seed"):
        e.reset(seed=1.5)
    assert (e.reset(seed=np.int64(5))[0] == e.reset(seed=5)[0]).all()
    with pytest.raises(ArgumentError, match="illegal"):
        OFCEnv(illegal="ignore")
    with pytest.raises(ArgumentError, match="external"):
        OFCEnv(policies="external")
    pair = ("greedy", types.MappingProxyType({"samples": 1}))    # a pair, as GameBatch reads it
    assert OFCEnv(policies=pair).table.batch.policies == ("external", "greedy")
    for P, others in [(2, ("external", {})),
                      (3, ["external", ("external", {"fantasyland_value": 2}), "random"]),
                      (3, ["random", "random", "random"]), (3, ["external", "external", "random"])]:
        # another seat's turns were the agent's (its actions played for that seat)
        with pytest.raises(ArgumentError, match="external"):
            OFCEnv(n_players=P, policies=others)
        with pytest.raises(ArgumentError, match="external"):
            OFCVectorEnv(2, n_players=P, policies=others)
    with pytest.raises(ArgumentError, match="one policy per seat"):
        OFCEnv(n_players=3, policies=["random", "external"])
    with pytest.raises(ArgumentError, match="seat=0, but policies names seat 1"):
        OFCEnv(n_players=2, seat=0, policies=["random", "external"])
    with pytest.raises(ArgumentError, match="seat"):
        OFCEnv(seat=2)
    with pytest.raises(ArgumentError, match="too many"):
        OFCEnv("chinese")
    with pytest.raises(RulesError):
        OFCEnv("nope")
    with pytest.raises(ArgumentError, match="render_mode"):
        OFCEnv(render_mode="rgb_array")


def test_illegal_action_times_out():
    e = OFCEnv("pineapple", 2, seat=0)
    obs, info = e.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, done, _, info = e.step(illegal)
    assert info["illegal"] and done                          # the rest of the hand timed out
    assert obs[52 * 5:52 * 8].sum() == 13                    # its layout, set by time-outs
    assert reward == e.batch.last_hands([0]).points[0, 0]


# ----------------------------------------------------------------------- vector env
def test_vector_env_same_step_autoreset_and_rewards():
    n = 40
    envs = OFCVectorEnv(n, "pineapple", 3, policies=[LIGHT, "external", "random"], n_threads=2)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=5)
    enc = envs.encoding
    street0 = [s for s in enc.sections if s.name == "street"][0].start
    rng = np.random.default_rng(3)
    total = np.zeros(n)
    ends = 0
    for _ in range(12):
        hands0 = envs.batch.hands_played
        obs, rew, term, trunc, infos = envs.step(_pick(infos["action_mask"], rng))
        total += rew
        assert not trunc.any() and infos["action_mask"].shape == (n, 1024)
        assert (term == (envs.batch.hands_played > hands0)).all()
        if term.any():
            ends += int(term.sum())
            assert (infos["_final_obs"] == term).all()
            for i in np.flatnonzero(term):
                fin = infos["final_obs"][i]
                assert fin.shape == (enc.size,) and fin[:52 * 5].sum() == 0   # nothing dealt
                assert fin[52 * 5:52 * 8].sum() == 13                # its own rows, full
            assert (obs[term, street0] == 1).all()                   # the next hand's start
            assert infos["final_obs"][~term].tolist() == [None] * int((~term).sum())
        assert (infos["action_mask"].sum(1) > 0).all()
    assert ends >= n
    assert (total == envs.batch.scores[:, 1]).all()


def test_final_obs_is_the_agents_view_of_the_showdown():
    """A hand's final observation is the agent's seat's view (seats relative to
    it) of the hand that ended: every layout, its own discards, the button."""
    n, P, seat = 12, 3, 1
    envs = OFCVectorEnv(n, "pineapple", P, seat=seat, policies="random")
    v = as_variant("pineapple")
    at = {s.name: s.start for s in envs.encoding.sections}
    bounds = np.cumsum([0, *v.row_sizes])
    R = len(v.row_sizes)
    obs, infos = envs.reset(seed=7)
    rng, checked = np.random.default_rng(2), 0
    for _ in range(10):
        hands0 = envs.batch.hands_played
        obs, rew, term, _, infos = envs.step(_pick(infos["action_mask"], rng))
        one = np.flatnonzero(term & (envs.batch.hands_played == hands0 + 1))
        if not len(one):
            continue
        last = envs.batch.last_hands(one)
        for j, i in enumerate(one):
            want = np.zeros(envs.encoding.size, np.int8)
            for q in range(P):
                lay = last.layouts[j, (seat + q) % P].astype(np.intp)
                for r in range(R):
                    want[at["rows"] + 52 * (q * R + r) + lay[bounds[r]:bounds[r + 1]]] = 1
            disc = last.discards[j, seat].astype(np.intp)
            want[at["discards"] + disc[disc != EMPTY]] = 1
            fin = infos["final_obs"][i]
            rows = slice(at["rows"], at["unseen"])
            assert (fin[rows] == want[rows]).all()
            b = at["button"]
            assert fin[b:b + P].tolist() == [int((seat + q) % P == last.button[j])
                                             for q in range(P)]
            checked += 1
    assert checked >= n


@pytest.mark.slow
def test_fantasyland_earned_pays_in_the_step_that_ends_the_hand():
    """The engine plays the fantasyland hand a seat earned before it acts
    again: its points come with the step that ended the hand that earned it
    (the rewards match the score after every step), and the step's hand
    figures are of the hand the seat played, which earned it (not of the
    fantasyland hand after it)."""
    envs = OFCVectorEnv(3000, "pineapple", 2)
    obs, infos = envs.reset(seed=0)
    rng, total, jumps = np.random.default_rng(0), np.zeros(3000), 0
    for _ in range(6):
        hands0 = envs.batch.hands_played
        obs, rew, term, _, infos = envs.step(_pick(infos["action_mask"], rng))
        total += rew
        jump = envs.batch.hands_played - hands0 >= 2
        jumps += int(jump.sum())
        assert (total == envs.batch.scores[:, 0]).all()
        if term.any():
            last = infos["final_info"]
            assert (last["fantasyland_count"][term, 0] == 0).all()
            assert (last["next_fantasyland"][jump, 0] > 0).all()
    assert jumps >= 1


def test_hand_figures_in_every_environments_info():
    """At a hand's end the info holds that hand's figures per seat (points,
    foul, royalties, fantasyland earned and played), as last_hands() reads
    them: OFCEnv's info, OFCVectorEnv's final_info (Gymnasium's vector
    convention, each key with its mask), every PettingZoo agent's info."""
    keys = {"points", "foul", "royalty_total", "next_fantasyland", "fantasyland_count"}
    e = OFCEnv("pineapple", 3, seat=2, policies="random")
    obs, info = e.reset(seed=4)
    rng, ends = np.random.default_rng(4), 0
    while ends < 5:
        hands0 = int(e.batch.hands_played[0])
        obs, reward, done, _, info = e.step(_pick(info["action_mask"], rng))
        assert done == (keys <= set(info))
        if done:
            ends += 1
            if e.batch.hands_played[0] == hands0 + 1:
                last = e.batch.last_hands([0])
                for key in keys:
                    assert (info[key] == getattr(last, key)[0]).all(), key
                assert reward == info["points"][2]
            obs, info = e.reset()
    n = 16
    envs = OFCVectorEnv(n, "classic", 2, policies=LIGHT)
    obs, infos = envs.reset(seed=2)
    for _ in range(12):
        hands0 = envs.batch.hands_played
        obs, rew, term, _, infos = envs.step(_pick(infos["action_mask"], rng))
        if not term.any():
            assert "final_info" not in infos
            continue
        fin = infos["final_info"]
        assert (infos["_final_info"] == term).all()
        one = np.flatnonzero(term & (envs.batch.hands_played == hands0 + 1))
        last = envs.batch.last_hands(one)
        for key in keys:
            assert fin[key].shape == (n, 2) and (fin[f"_{key}"] == term).all()
            assert (fin[key][one] == getattr(last, key)).all(), key
            assert not fin[key][~term].any()
    aec = OFCAECEnv("pineapple", 3, hands=3)
    aec.reset(seed=8)
    seen = 0
    for _agent in aec.agent_iter():
        obs, reward, term, _, info = aec.last()
        hands0 = int(aec.batch.hands_played[0])
        aec.step(None if term else _pick(obs["action_mask"], rng))
        if aec.batch.hands_played[0] > hands0:
            last = aec.batch.last_hands([0])
            for p, ag in enumerate(aec.possible_agents):
                assert {k: aec.infos[ag][k] for k in keys} == \
                    {k: getattr(last, k)[0, p].item() for k in keys}
            seen += 1
    assert seen == 3


def test_no_mask_without_a_legal_action_reaches_a_learner():
    """What each API gives at a hand's end: OFCEnv's info mask and
    action_masks() are the next hand's first decision's (what reset()
    returns), the vector envs' masks after an autoreset the next hand's;
    PettingZoo's mask is zero for an agent not to act (its API: the loop
    passes None), and SelfPlayEnv.action_masks() refuses once the episode
    is over."""
    from ofc_fast.rl.pettingzoo import SelfPlayEnv
    rng = np.random.default_rng(5)
    e = OFCEnv("turbo-pineapple", 2, policies="random")
    with pytest.raises(StateError, match="reset"):
        e.action_masks()
    obs, info = e.reset(seed=1)
    for _ in range(40):
        assert info["action_mask"].any() and (e.action_masks() == info["action_mask"]).all()
        obs, _, done, _, info = e.step(_pick(info["action_mask"], rng))
        if done:
            mask = info["action_mask"]
            assert mask.any() and (e.reset()[1]["action_mask"] == mask).all()
    envs = OFCVectorEnv(8, "pineapple", 2)
    obs, infos = envs.reset(seed=3)
    for _ in range(12):
        assert (envs.action_masks() == infos["action_mask"]).all()
        assert envs.action_masks().any(axis=1).all()
        obs, _, term, _, infos = envs.step(_pick(infos["action_mask"], rng))
    sp = SelfPlayEnv(variant="pineapple", n_players=3, hands=2)
    with pytest.raises(StateError):
        sp.action_masks()
    for episode in range(3):
        obs, info = sp.reset(seed=episode)
        assert sp.learner == f"player_{episode % 3}"
        done, total = False, 0.0
        while not done:
            assert sp.action_masks().any()
            obs, r, done, _, info = sp.step(_pick(sp.action_masks(), rng))
            total += r
        assert total == sp.aec.batch.scores[0, episode % 3]
        with pytest.raises(StateError):
            sp.action_masks()
        with pytest.raises(StateError, match="over"):
            sp.step(0)


def test_documented_pettingzoo_env_gives_the_library_errors():
    """Through env() (PettingZoo's order-enforcing wrapper): step() before
    reset() was an AssertionError, last() an AttributeError, and step()
    after every agent was done only logged a warning; each is the StateError
    the raw environment raises."""
    e = env(variant="pineapple", n_players=2)
    for what, call in [("step", lambda: e.step(0)), ("last", e.last),
                       ("observe", lambda: e.observe("player_0")), ("render", e.render),
                       ("agent_iter", e.agent_iter)]:
        with pytest.raises(StateError, match=rf"^call reset\(\) before {what}\(\)$"):
            call()
    e.reset(seed=1)
    for _agent in e.agent_iter():
        obs, _, term, _, _ = e.last()
        e.step(None if term else int(np.flatnonzero(obs["action_mask"])[0]))
    for call in (lambda: e.step(0), lambda: e.step(None), e.last):
        with pytest.raises(StateError, match="episode is over"):
            call()
    e.reset(seed=2)
    assert e.agents == e.possible_agents


def test_vector_env_determinism_and_single_env_equivalence():
    def run(envs, steps, seed):
        obs, infos = envs.reset(seed=seed)
        rng, out = np.random.default_rng(9), [obs]
        for _ in range(steps):
            obs, rew, term, _, infos = envs.step(_pick(infos["action_mask"], rng))
            out += [obs, rew, term]
        return out
    a = run(OFCVectorEnv(16, "pineapple", 2, policies=LIGHT, n_threads=1), 8, 21)
    b = run(OFCVectorEnv(16, "pineapple", 2, policies=LIGHT, n_threads=2), 8, 21)
    c = run(OFCVectorEnv(16, "pineapple", 2, policies=LIGHT), 8, 22)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert not (a[0] == c[0]).all()
    # game 0 of a batch seeded s is the single environment reset with seed s
    single = OFCEnv("pineapple", 2, policies=LIGHT)
    vec = OFCVectorEnv(3, "pineapple", 2, policies=LIGHT)
    o1, i1 = single.reset(seed=21)
    ov, iv = vec.reset(seed=21)
    assert (o1 == ov[0]).all()
    rng = np.random.default_rng(4)
    for _ in range(5):
        act = _pick(iv["action_mask"], rng)
        ov, rv, tv, _, iv = vec.step(act)
        o1, r1, t1, _, i1 = single.step(act[0])
        assert r1 == rv[0] and t1 == tv[0]
        if t1:
            assert (o1 == iv["final_obs"][0]).all()
            o1, i1 = single.reset()
        assert (o1 == ov[0]).all() and (i1["action_mask"] == iv["action_mask"][0]).all()


def test_vector_env_errors():
    envs = OFCVectorEnv(4, "pineapple", 2, illegal="raise")
    with pytest.raises(StateError):
        envs.step(np.zeros(4, np.int64))
    obs, infos = envs.reset(seed=1)
    with pytest.raises(ArgumentError, match="shape"):
        envs.step(np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="integers"):
        envs.step(np.zeros(4))
    with pytest.raises(TypeError, match="integers"):     # was taken: every game timed out
        envs.step(np.zeros(4, "m8[s]"))
    with pytest.raises(ArgumentError, match="0 .. 1023"):
        envs.step(np.full(4, 1024))
    act = _pick(infos["action_mask"], np.random.default_rng(0))
    act[2] = int(np.flatnonzero(infos["action_mask"][2] == 0)[0])
    decisions = envs.batch.decisions.copy()
    with pytest.raises(MoveError, match="game 2"):
        envs.step(act)
    assert (envs.batch.decisions == decisions).all()
    with pytest.raises(TypeError, match="one integer"):
        envs.reset(seed=[1, 2])
    with pytest.raises(ArgumentError, match="seed"):
        envs.reset(seed=-1)
    assert (envs.reset(seed=np.uint64(3))[0] == envs.reset(seed=3)[0]).all()
    with pytest.raises(ArgumentError, match="num_envs"):
        OFCVectorEnv(0)
    timeouts = OFCVectorEnv(4, "pineapple", 2)
    obs, infos = timeouts.reset(seed=1)
    obs, rew, term, _, infos = timeouts.step(act)
    assert infos["illegal"].tolist() == [False, False, True, False] and term[2]


def test_action_encoding_in_the_env():
    """The action of a Game move, taken by the env, plays that move."""
    e = OFCEnv("pineapple", 2, seat=0, policies="random")
    obs, info = e.reset(seed=8)
    g = e.batch.game(0)
    move = g.legal_moves()[17]
    a = action_of(move.rows, "pineapple")
    assert info["action_mask"][a] == 1
    e.step(a)
    g.play(move)
    assert (e.batch.game(0).layout(0) == g.layout(0)).all()


# ----------------------------------------------------------------------- AEC env
def test_aec_rewards_are_the_hands_points():
    e = OFCAECEnv("pineapple", 3, hands=5, fantasyland={2: 14})
    e.reset(seed=3)
    rng = np.random.default_rng(1)
    paid = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        paid[agent] += reward
        for other in e.possible_agents:
            if other != agent and other in e.agents:
                assert not e.observe(other)["action_mask"].any()
        e.step(None if term else _pick(obs["action_mask"], rng))
    scores = e.batch.scores[0]
    assert [paid[a] for a in e.possible_agents] == scores.tolist()
    assert e.batch.hands_played[0] == 5 and sum(paid.values()) == 0


def test_aec_errors_and_illegal_actions():
    e = OFCAECEnv("pineapple", 2, illegal="raise")
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(MoveError):
        e.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ArgumentError):
        e.step(5000)
    with pytest.raises(TypeError):
        e.step(None)
    with pytest.raises(ArgumentError):
        e.step(np.array(5000))
    t = OFCAECEnv("pineapple", 2)
    t.reset(seed=1)
    agent = t.agent_selection
    t.step(int(np.flatnonzero(mask == 0)[0]))
    assert t.infos[agent] == {"illegal": True}
    with pytest.raises(ArgumentError, match="hands"):
        OFCAECEnv(hands=0)
    with pytest.raises(ArgumentError, match="players"):
        OFCAECEnv(n_players=5)
    with pytest.raises(StateError):
        _ = OFCAECEnv().batch
    # before reset, after the episode, unknown agents: the library's errors (were
    # AttributeError, KeyError and list.index's bare ValueError)
    fresh = OFCAECEnv()
    for call in (lambda: fresh.step(0), fresh.last):
        with pytest.raises(StateError, match="reset"):
            call()
    with pytest.raises(ArgumentError, match="agent"):
        t.observe("player_9")
    with pytest.raises(TypeError, match="agent"):
        t.observe(0)
    for agent in t.agent_iter():
        if t.terminations[agent]:
            with pytest.raises(ArgumentError, match="None"):    # was pettingzoo's ValueError
                t.step(0)
        t.step(None if t.terminations[agent] else
               int(np.flatnonzero(t.observe(agent)["action_mask"])[0]))
    assert t.agents == []
    for call in (lambda: t.step(0), lambda: t.step(None), t.last):    # last(): a KeyError
        with pytest.raises(StateError, match="episode is over"):
            call()
    t.reset(seed=2)
    assert t.agents == t.possible_agents and t.observe(t.agent_selection)["action_mask"].any()
    r = OFCAECEnv("classic", 2, render_mode="ansi")
    r.reset(seed=0)
    assert r.render().startswith("seat 0")


def test_one_table_spec_gives_every_space_and_encoding():
    """The environments' spaces and encoding all come from one TableSpec: the
    same for a Gymnasium env, its vector form and the PettingZoo env of the
    table; a spec without an agent is refused."""
    from ofc_fast.rl.pettingzoo import OFCAECEnv
    from ofc_fast.rl.spec import TableSpec
    spec = TableSpec.check("turbo-pineapple", 3, policies=["random", "external", "random"])
    single = OFCEnv("turbo-pineapple", 3, seat=1)
    vector = OFCVectorEnv(4, "turbo-pineapple", 3, seat=1)
    aec = OFCAECEnv("turbo-pineapple", 3)
    assert single.observation_space == vector.single_observation_space == \
        spec.observation_space() == aec.observation_space("player_0")["observation"]
    assert single.action_space == vector.single_action_space == spec.action_space() == \
        aec.action_space("player_2")
    assert spec.action_size == 4 ** 4 and spec.agents == (1,)
    assert single.encoding.size == spec.encoding.size == aec.encoding.size
    with pytest.raises(ArgumentError, match="names none"):
        TableSpec.check("pineapple", 2, policies="random")


def test_opponents_is_the_deprecated_spelling_of_policies():
    """0.3's opponents= (one policy per other seat) warns and seats the same
    table as policies= (one per seat, 'external' at the agent's)."""
    with pytest.warns(DeprecationWarning, match=r"opponents= is deprecated .* use policies="):
        old = OFCVectorEnv(2, "pineapple", 3, seat=1, opponents=["greedy", "random"])
    new = OFCVectorEnv(2, "pineapple", 3, policies=["greedy", "external", "random"])
    assert old.table.batch.policies == new.table.batch.policies == ("greedy", "external", "random")
    assert OFCEnv(n_players=3, seat=2, policies="greedy").table.batch.policies == \
        ("greedy", "greedy", "external")
    with pytest.warns(DeprecationWarning), pytest.raises(ArgumentError, match="policies= only"):
        OFCEnv(policies="greedy", opponents="random")
