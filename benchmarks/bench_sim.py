#!/usr/bin/env python
"""Batch engine benchmark: ofc_fast.sim.GameBatch beside the Game loop, one run.

Run from the repository root (ofc_fast built in place or installed)::

    python benchmarks/bench_sim.py                 # defaults below, best of 3
    python benchmarks/bench_sim.py --quick         # a smaller run (a minute)

Prints one line per figure, the issue's target beside it:

* ``random``: three-player Pineapple self-play, every seat ``"random"``,
  fantasyland included, automatic moves on (the ``Game`` default) and off:
  decisions per second per core in C (CPU time of one thread), and the time
  per hand beside the ``Game`` loop with ``RandomPolicy`` on the same hands
  (``Game(seed=[11, i])`` deals game i's first hand); targets >= 1,000,000
  decisions/s/core and >= 100x the Game loop;
* ``external``: 1,024 games, every seat external, ``observe()`` +
  ``step()`` with a random legal action per game chosen in numpy (Python
  included); target >= 500,000 decisions/s/core;
* ``heuristic``: ``"racing"`` and ``"heuristic"`` self-play in C (the
  racing heuristic and the exhaustive one, HeuristicPolicy's algorithm),
  beside the Game loop with ``HeuristicPolicy`` (the same parameters: the
  defaults, and a light setting); target >= 10x;
* ``threads``: the random self-play with ``n_threads=2`` against one thread
  (wall clock); target >= 1.7x (needs two idle cores);
* ``memory``: a batch of 100,000 three-player Pineapple games: numpy arrays
  (tracemalloc) plus the C state (resident memory growth); target < 200 MB;
* ``rl``: the environments of ``ofc_fast.rl`` (needs the ``rl`` extra), seat
  0 of three-player Pineapple against ``"random"`` seats, a random legal
  action chosen in numpy from the mask: ``OFCVectorEnv`` with 1,024 games
  (observation vectors, masks, autoreset: the agent's steps per second),
  ``OFCEnv`` and the PettingZoo ``OFCAECEnv`` (one game, every seat an agent);
  and, 256 games, ``OFCVectorEnv`` beside stable-baselines3's ``VecEnv``
  over it (``OFCSB3VecEnv``, when stable-baselines3 is installed): the same
  random legal actions chosen from the masks (``action_masks()`` each step,
  as MaskablePPO asks), in one run;
* ``jokers``: random self-play with two jokers (a 54-card deck) beside the
  same run on 52 cards, automatic moves off, interleaved in one run; target:
  jokers at least 1/2 of the 52-card speed (issue 27); then both with
  automatic moves on (the dead-hand search with jokers, for information).

Per-core figures use the process CPU time of single-threaded runs, so they
hold on a loaded machine; ratios compare like with like.  Each figure is the
best of ``--repeat`` runs (garbage collector off).
"""
from __future__ import annotations

import argparse
import gc
import resource
import time
import tracemalloc

import numpy as np

from ofc_fast.engine import HeuristicPolicy, RandomPolicy
from ofc_fast.sim import GameBatch


def best_of(repeat, fn, clock=time.process_time, setup=None):
    """(best time, last result) of fn over `repeat` runs; fn(setup()) when
    setup is given (setup untimed: a fresh batch per run)."""
    best, out = float("inf"), None
    gc.disable()
    try:
        for _ in range(repeat):
            arg = setup() if setup is not None else None
            t = clock()
            out = fn(arg) if setup is not None else fn()
            best = min(best, clock() - t)
    finally:
        gc.enable()
    return best, out


def game_loop(n, policy_for, auto=True, seed=11):
    """The Game loop on the first hand of the batch's games: ``Game(seed=[seed,
    i])`` deals what game i of ``GameBatch(seed=seed)`` deals first."""
    from ofc_fast.engine import Game

    def run():
        decisions = 0
        for i in range(n):
            g = Game("pineapple", 3, seed=[seed, i], auto=auto)
            g.run(policy_for(i))
            decisions += sum(1 for t in g.history if t.auto is None and t.street >= 0)
        return decisions
    return run


def batch_run(repeat, hands, make):
    """(best CPU time, decisions) of b.run(hands) on fresh batches from make()."""
    def run(b):
        b.run(hands=hands)
        return int(b.decisions.sum())
    return best_of(repeat, run, setup=make)


def bench_random(args):
    print("random self-play, 3-player Pineapple, fantasyland included")
    n, hands, ng = args.games, args.hands, args.game_hands
    pol = RandomPolicy(1)
    for auto in (True, False):
        t, dec = batch_run(args.repeat, hands,
                           lambda a=auto: GameBatch("pineapple", n, 3, seed=11, auto=a))
        per_hand = t / (n * hands)
        rate = dec / t
        tg, gdec = best_of(args.repeat, game_loop(ng, lambda _i: pol, auto=auto))
        g_hand = tg / ng
        label = "auto on " if auto else "auto off"
        print(f"  {label}  batch {per_hand * 1e6:7.2f} us/hand, {rate / 1e6:5.2f} M "
              f"decisions/s/core ({dec / (n * hands):.1f} per hand; target >= 1 M: "
              f"{'ok' if rate >= 1e6 else 'MISSED'})")
        print(f"            Game loop {g_hand * 1e6:7.1f} us/hand ({gdec / ng:.1f} decisions)"
              f" -> batch x{g_hand / per_hand:5.1f} (target >= 100x: "
              f"{'ok' if g_hand / per_hand >= 100 else 'MISSED'})")
    rec = GameBatch("pineapple", n, 3, seed=11).run_recorded(hands=hands)
    fl = (rec.fantasyland_count > 0).any(axis=1).mean()
    print(f"  hands with a fantasyland seat: {fl:.2%} (random play sets them at random)")


def bench_external(args):
    n = 1024
    b = GameBatch("pineapple", n, 3, seed=5, policies="external")
    rng = np.random.default_rng(0)

    def loop():
        steps = args.steps
        decisions = 0
        for _ in range(steps):
            obs = b.observe()
            k = len(obs["game"])
            pick = (rng.random(k) * obs["n_legal"]).astype(np.int64)
            b.step(obs["legal"][np.arange(k), pick])
            decisions += k
        return decisions
    loop()
    t, dec = best_of(args.repeat, loop)
    tw, decw = best_of(args.repeat, loop, clock=time.perf_counter)
    rate = dec / t
    print(f"external policy loop, 1,024 games, observe + step (legal list, mask, Python): "
          f"{rate / 1e6:5.2f} M decisions/s/core CPU, {decw / tw / 1e6:5.2f} M/s wall "
          f"(target >= 0.5 M: {'ok' if rate >= 5e5 else 'MISSED'})")

    def loop_no_mask():
        decisions = 0
        for _ in range(args.steps):
            obs = b.observe(mask=False)
            k = len(obs["game"])
            pick = (rng.random(k) * obs["n_legal"]).astype(np.int64)
            b.step(obs["legal"][np.arange(k), pick])
            decisions += k
        return decisions
    t, dec = best_of(args.repeat, loop_no_mask)
    print(f"  without the mask (observe(mask=False)): {dec / t / 1e6:5.2f} M decisions/s/core")


def bench_heuristic(args):
    print("heuristic self-play, 3-player Pineapple")
    n = args.heuristic_hands
    ng = max(1, n // 4)
    rep = max(1, args.repeat - 1)
    for label, opts in (("defaults (24 samples, 12 tries)", {}),
                        ("light (4 samples, 4 tries)", {"samples": 4, "tries": 4})):
        pols = [HeuristicPolicy(seed=i, **opts) for i in range(ng)]
        tg, _ = best_of(rep, game_loop(ng, pols.__getitem__, seed=3))
        print(f"  {label}: Game loop with HeuristicPolicy {tg / ng * 1e3:7.2f} ms/hand")
        for mode, name in (("racing", "racing"), ("heuristic (exhaustive)", "heuristic")):
            t, _ = batch_run(rep, 1, lambda o=opts, r=name: GameBatch(
                "pineapple", n, 3, seed=3, policies=(r, o)))
            ratio = (tg / ng) / (t / n)
            # since 0.4 HeuristicPolicy is the batch's C "heuristic" behind a Python
            # face: the ratio is the Game loop's own cost (0.3's Python policy: 10x)
            what = "a different, faster player" if name == "racing" else "the same C policy"
            print(f"    {mode:32s} batch {t / n * 1e3:7.2f} ms/hand -> x{ratio:5.1f} ({what})")


def bench_threads(args):
    n, hands = args.games, args.hands

    def make(nt):
        return lambda: GameBatch("pineapple", n, 3, seed=11, n_threads=nt)

    def run(b):
        return b.run(hands=hands)
    t1, p1 = best_of(args.repeat, run, clock=time.perf_counter, setup=make(1))
    t2, p2 = best_of(args.repeat, run, clock=time.perf_counter, setup=make(2))
    c1, _ = best_of(args.repeat, run, setup=make(1))
    c2, _ = best_of(args.repeat, run, setup=make(2))
    same = bool((p1 == p2).all())
    print(f"threads: n_threads=2 {t1 / t2:4.2f}x one thread (wall; target >= 1.7x: "
          f"{'ok' if t1 / t2 >= 1.7 else 'MISSED'}; needs two idle cores), CPU time x"
          f"{c2 / c1:4.2f} of one thread's (1.00: no overhead), same results: {same}")


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def bench_memory(_args):
    gc.collect()
    before = rss_mb()
    tracemalloc.start()
    b = GameBatch("pineapple", 100_000, 3, seed=1)
    arrays = tracemalloc.get_traced_memory()[0] / 2**20
    tracemalloc.stop()
    c_state = b.n_games * b.state_bytes / 2**20
    grown = rss_mb() - before
    total = arrays + c_state
    print(f"memory: 100,000 games: {c_state:6.1f} MB of C state ({b.state_bytes} bytes a game) "
          f"+ {arrays:5.1f} MB of arrays = {total:6.1f} MB; resident memory grew {grown:6.1f} MB "
          f"(target < 200 MB: {'ok' if max(total, grown) < 200 else 'MISSED'})")
    del b


def bench_rl(args):
    try:
        from ofc_fast.rl.gym import OFCEnv, OFCVectorEnv
        from ofc_fast.rl.pettingzoo import OFCAECEnv
    except ImportError:
        print("rl: skipped (pip install 'ofc-fast[rl]')")
        return
    rng = np.random.default_rng(0)

    def pick(mask):
        m = mask.astype(bool)
        return (m.cumsum(1) > rng.random(len(m))[:, None] * m.sum(1)[:, None]).argmax(1)

    envs = OFCVectorEnv(1024, "pineapple", 3, opponents="random")
    state = {"infos": envs.reset(seed=1)[1]}
    rows = np.arange(1024)

    def vector():
        for _ in range(args.steps):
            legal, n_legal = state["infos"]["legal"], state["infos"]["n_legal"]
            a = legal[rows, (rng.random(1024) * n_legal).astype(np.int64)]
            _, _, _, _, state["infos"] = envs.step(a)
        return 1024 * args.steps
    t, steps = best_of(args.repeat, vector)
    tw, _ = best_of(args.repeat, vector, clock=time.perf_counter)
    print(f"rl: OFCVectorEnv, 1,024 games, step + numpy action choice: {steps / t / 1e3:6.0f} k "
          f"agent steps/s/core CPU, {steps / tw / 1e3:6.0f} k/s wall "
          f"(observation {envs.encoding.size} int8, mask 1,024, legal lists)")

    env = OFCEnv("pineapple", 3, opponents="random")
    one = {"info": env.reset(seed=1)[1]}

    def single():
        n = args.steps * 20
        for _ in range(n):
            _, _, done, _, one["info"] = env.step(int(pick(one["info"]["action_mask"][None])[0]))
            if done:
                one["info"] = env.reset()[1]
        return n
    t, steps = best_of(args.repeat, single)
    print(f"  OFCEnv (one game): {steps / t / 1e3:6.1f} k steps/s")

    aec = OFCAECEnv("pineapple", 3, hands=1_000_000)
    aec.reset(seed=1)

    def agents():
        n = args.steps * 20
        for _ in range(n):
            obs, _, _, _, _ = aec.last()
            aec.step(int(pick(obs["action_mask"][None])[0]))
        return n
    t, steps = best_of(args.repeat, agents)
    print(f"  OFCAECEnv (PettingZoo, one game, every seat an agent): {steps / t / 1e3:6.1f} k "
          f"steps/s")
    bench_sb3(args)


def bench_sb3(args):
    """OFCVectorEnv and the SB3 VecEnv over it, 256 games, random legal
    actions from the masks (the SB3 adapter through action_masks())."""
    from ofc_fast.rl.gym import OFCVectorEnv
    from ofc_fast.rl.sb3 import HAVE_SB3, OFCSB3VecEnv
    n = 256
    rng = np.random.default_rng(0)

    def pick(mask):             # a random legal action per row, from the mask's nonzeros
        flat = np.flatnonzero(mask)
        counts = mask.sum(axis=1)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        return flat[starts + (rng.random(len(mask)) * counts).astype(np.int64)] % mask.shape[1]
    gv = OFCVectorEnv(n, "pineapple", 3, opponents="random")
    state = {"infos": gv.reset(seed=1)[1]}

    def gym_vector():
        for _ in range(args.steps):
            _, _, _, _, state["infos"] = gv.step(pick(state["infos"]["action_mask"]))
        return n * args.steps
    t, steps = best_of(args.repeat, gym_vector)
    tw, _ = best_of(args.repeat, gym_vector, clock=time.perf_counter)
    print(f"rl, 256 games, random legal actions from the masks: OFCVectorEnv "
          f"{steps / t / 1e3:6.0f} k steps/s/core CPU ({steps / tw / 1e3:6.0f} k/s wall)")
    if not HAVE_SB3:
        print("  OFCSB3VecEnv: skipped (pip install stable-baselines3)")
        return
    sb = OFCSB3VecEnv(n, "pineapple", 3, opponents="random")
    sb.seed(1)
    sb.reset()

    def sb3_vector():
        for _ in range(args.steps):
            sb.step(pick(sb.action_masks()))
        return n * args.steps
    t2, steps2 = best_of(args.repeat, sb3_vector)
    tw2, _ = best_of(args.repeat, sb3_vector, clock=time.perf_counter)
    print(f"  OFCSB3VecEnv (stable-baselines3's VecEnv over it, action_masks() each step): "
          f"{steps2 / t2 / 1e3:6.0f} k steps/s/core CPU ({steps2 / tw2 / 1e3:6.0f} k/s wall), "
          f"x{(steps2 / t2) / (steps / t):4.2f} of OFCVectorEnv")


def bench_jokers(args):
    import ofc_fast as ofc
    print("random self-play with jokers, 3-player Pineapple, automatic moves off")
    n, hands = args.games, args.hands
    variants = {"52 cards": ofc.variant("pineapple"),
                "2 jokers": ofc.variant("pineapple", jokers=2)}
    best = dict.fromkeys(variants, float("inf"))
    dec = dict.fromkeys(variants, 0)
    for _ in range(args.repeat):            # interleaved: the same load on both
        for name, v in variants.items():
            t, d = batch_run(1, hands, lambda v=v: GameBatch(v, n, 3, seed=11, auto=False))
            best[name], dec[name] = min(best[name], t), d
    for name in variants:
        per_hand = best[name] / (n * hands)
        print(f"  {name}  {per_hand * 1e6:6.2f} us/hand, {dec[name] / best[name] / 1e6:5.2f} M "
              f"decisions/s/core")
    ratio = best["52 cards"] / best["2 jokers"]
    print(f"  jokers / 52 cards speed: {ratio:.2f} (target >= 0.5: "
          f"{'ok' if ratio >= 0.5 else 'MISSED'})")
    # automatic moves on: the dead-hand search enumerates what each joker stands for
    m = max(n // 20, 100)
    for name, v in variants.items():
        t, _ = batch_run(args.repeat, 1, lambda v=v: GameBatch(v, m, 3, seed=11, auto=True))
        print(f"  auto on, {name}  {t / m * 1e6:7.1f} us/hand ({m:,} hands)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games of the self-play runs")
    ap.add_argument("--hands", type=int, default=5, help="hands per game of the self-play runs")
    ap.add_argument("--game-hands", type=int, default=1000, help="hands of the Game loop")
    ap.add_argument("--heuristic-hands", type=int, default=40,
                    help="hands of the heuristic run (a quarter for the Game loop)")
    ap.add_argument("--steps", type=int, default=200, help="observe/step calls per run")
    ap.add_argument("--repeat", type=int, default=3, help="best of k runs (default 3)")
    ap.add_argument("--quick", action="store_true", help="a smaller run")
    ap.add_argument("--only", choices=("random", "external", "heuristic", "threads", "memory",
                                       "rl", "jokers"))
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.hands, args.game_hands = 5000, 2, 300
        args.heuristic_hands, args.steps, args.repeat = 12, 60, 2
    for name, fn in (("random", bench_random), ("external", bench_external),
                     ("heuristic", bench_heuristic), ("threads", bench_threads),
                     ("memory", bench_memory), ("rl", bench_rl), ("jokers", bench_jokers)):
        if args.only in (None, name):
            fn(args)


if __name__ == "__main__":
    main()
