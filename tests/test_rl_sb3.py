"""stable-baselines3 and sb3-contrib over the environments (ofc_fast.rl.sb3,
SelfPlayEnv): the SB3 vector env is OFCVectorEnv step for step; MaskablePPO
trains on it as it is, and the trained network plays back through Game,
Match and a batch seat; the PettingZoo self-play recipe of docs/sim.md
runs.  Skipped without stable-baselines3 and sb3-contrib (CI installs only
the project's extras); without them the module still imports
(tests/test_rl.py)."""
import io

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pytest.importorskip("stable_baselines3")
sb3_contrib = pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

import ofc_fast as ofc  # noqa: E402
from ofc_fast.errors import StateError  # noqa: E402
from ofc_fast.rl.gym import OFCVectorEnv  # noqa: E402
from ofc_fast.rl.policy import ObservationPolicy  # noqa: E402
from ofc_fast.rl.sb3 import OFCSB3VecEnv  # noqa: E402
from ofc_fast.sim import GameBatch  # noqa: E402


@pytest.fixture(autouse=True)
def _one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)           # two shared cores: no oversubscription
    yield
    torch.set_num_threads(old)


def _pick(mask, rng):
    m = np.atleast_2d(mask).astype(bool)
    return (m.cumsum(1) > rng.random(len(m))[:, None] * m.sum(1)[:, None]).argmax(1)


def test_sb3_vec_env_is_the_vector_env_step_for_step():
    """The same seed and actions: the same observations, rewards, ends,
    showdowns (terminal_observation = final_obs) and hand figures; the masks
    are always of a decision (autoreset: never all zeros); SB3's own seeding
    (env.seed) seeds the batch."""
    from stable_baselines3.common.vec_env import VecEnv, VecMonitor
    n = 12
    sb = OFCSB3VecEnv(n, "pineapple", 3, policies=["random", "external", "random"])
    gv = OFCVectorEnv(n, "pineapple", 3, policies=["random", "external", "random"])
    assert isinstance(sb, VecEnv) and sb.observation_space == gv.single_observation_space
    with pytest.raises(StateError, match="reset"):
        sb.action_masks()
    sb.seed(11)
    obs_s = sb.reset()
    obs_g, infos = gv.reset(seed=11)
    assert (obs_s == obs_g).all()
    rng, ends = np.random.default_rng(0), 0
    for _ in range(15):
        masks = sb.action_masks()
        assert (masks == infos["action_mask"]).all() and masks.any(axis=1).all()
        assert (np.stack(sb.env_method("action_masks")) == masks).all()
        a = _pick(masks, rng)
        obs_s, rew_s, done_s, info_s = sb.step(a)
        obs_g, rew_g, term_g, _, infos = gv.step(a)
        assert (obs_s == obs_g).all() and (rew_s == rew_g).all() and (done_s == term_g).all()
        for i in np.flatnonzero(done_s):
            assert (info_s[i]["terminal_observation"] == infos["final_obs"][i]).all()
            assert info_s[i]["TimeLimit.truncated"] is False
            assert (info_s[i]["foul"] == infos["final_info"]["foul"][i]).all()
            ends += 1
        assert all("terminal_observation" not in info_s[i] for i in np.flatnonzero(~done_s))
    assert ends >= n
    assert sb.get_attr("render_mode") == [None] * n and sb.env_is_wrapped(object) == [False] * n
    mon = VecMonitor(sb)
    mon.reset()
    episodes = []
    for _ in range(6):
        _, _, dones, infos = mon.step(_pick(sb.action_masks(), rng))
        episodes += [infos[i]["episode"]["l"] for i in np.flatnonzero(dones)]
    assert len(episodes) >= n and set(episodes) <= {1, 2, 3, 4, 5}    # a hand: 5 streets


@pytest.mark.slow
def test_maskable_ppo_trains_on_it_and_plays_back_at_the_table():
    """MaskablePPO uses the SB3 vector env as it is (action_masks found, no
    mask without a legal action); the trained model is an observation
    function: an ObservationPolicy of it plays a Game, a Match, and a batch
    seat, and the batch seat plays what the Match plays."""
    from sb3_contrib import MaskablePPO
    env = OFCSB3VecEnv(16, "turbo-pineapple", 2, policies="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=128, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(512)
    assert model.num_timesteps >= 512

    def fn(obs, mask):
        return model.predict(obs, action_masks=mask, deterministic=True)[0]
    pol = ObservationPolicy(fn, "turbo-pineapple", 2)
    assert sum(ofc.Game("turbo-pineapple", 2, seed=3).run([pol, ofc.RandomPolicy(1)]).points) == 0
    b = GameBatch("turbo-pineapple", 3, 2, seed=5, policies=[pol, pol])
    rec = b.run_recorded(2)
    for i in range(3):
        m = ofc.Match("turbo-pineapple", 2, n_hands=4, seed=b.game_seed(i))
        for k in range(2):
            g = m.start_hand()
            g.run([pol, pol])
            m.end_hand()
            assert (g.layouts == rec.layouts[2 * i + k]).all()


@pytest.mark.slow
def test_pettingzoo_self_play_recipe():
    """docs/sim.md's recipe: MaskablePPO on SelfPlayEnv, the other seats its
    own snapshot, refreshed between rounds of learning."""
    from sb3_contrib import MaskablePPO

    from ofc_fast.rl.pettingzoo import SelfPlayEnv
    env = SelfPlayEnv(variant="pineapple", n_players=2)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    for _ in range(2):
        saved = io.BytesIO()                        # the others play the last round's self
        model.save(saved)
        saved.seek(0)
        snapshot = MaskablePPO.load(saved, device="cpu")
        env.opponent = lambda obs, mask, s=snapshot: s.predict(obs, action_masks=mask)[0]
        model.learn(64, reset_num_timesteps=False)
    assert model.num_timesteps >= 128 and env._episodes >= 2
