"""Self-play as recorded hands (ofc_fast.sim.selfplay, ``ofc-fast selfplay``):
the records are what ``Game.record`` writes for the same hands, every writer
takes them, ``ofc-fast score --verify`` agrees with every recorded point, and
the same seed plays the same hands whatever the threads."""
import numpy as np
import orjson
import pytest

import ofc_fast.io as fio
from isolated import run_isolated
from ofc_fast.cli import main
from ofc_fast.errors import ArgumentError, RulesError
from ofc_fast.sim import GameBatch, hands_chunk, selfplay, selfplay_chunks


def _game_records(variant, n_games, P, seed, hands, names, **kw):
    """Hand k of game g as ``Game.record`` writes it, replayed hand by hand
    through ``GameBatch.game`` (the reference records)."""
    b = GameBatch(variant, n_games, P, seed=seed, auto_deal=False, **kw)
    b.run(hands=1)
    out = {}
    for k in range(hands):
        if k:
            b.next_hand()            # built-in seats only: plays the whole hand
        for g in range(n_games):
            rec = b.game(g).record(id=f"{g}-{k}", names=names)
            out[rec["id"]] = rec
    return out


def _read(path):
    """(hand ids, cards, recorded points, our points) of a file, every chunk."""
    chunks = [c.score() for c in fio.read_chunks(path)]
    return ([i for c in chunks for i in c.hand_ids()],
            np.concatenate([c.cards(13) for c in chunks]),
            np.concatenate([c.recorded for c in chunks]),
            np.concatenate([c.points for c in chunks]))


def _same_record(ours, ref):
    """A written record against ``Game.record``'s (which spells out defaults)."""
    ref = dict(ref)
    if not ref.pop("options", None):
        ours = {k: v for k, v in ours.items() if k != "options"}
    for p in ref["players"]:
        for key in ("in_fantasyland", "discards"):
            if not p[key]:
                del p[key]
    return ours == ref


@pytest.mark.parametrize("variant,P,fl", [("pineapple", 3, {2: 14}), ("classic", 2, None),
                                          ("progressive", 3, {0: 15}),
                                          ("big-pineapple", 2, None)])
def test_records_are_game_records(tmp_path, variant, P, fl):
    """Seat order from the button, rows, discards, fantasyland counts, points."""
    names = ["ann", "bob", "cy"][:P]
    chunk = selfplay(variant, 12, "random", n_players=P, seed=9, n_games=4, names=names,
                     fantasyland=fl)
    path = tmp_path / "h.jsonl"
    with fio.open_writer(str(path)) as w:
        w.write(chunk)
    ours = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    ref = _game_records(variant, 4, P, 9, 3, names, fantasyland=fl)
    assert [r["id"] for r in ours] == [f"{g}-{k}" for k in range(3) for g in range(4)]
    assert all(_same_record(r, ref[r["id"]]) for r in ours)
    buttons = {r["players"][0]["name"] for r in ours}
    assert len(buttons) > 1                  # the button moved: seat order was rotated
    if fl:
        assert any(p.get("in_fantasyland") for r in ours for p in r["players"])


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet", "jsonl.gz"])
def test_written_hands_verify(tmp_path, capsys, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    chunk = selfplay("pineapple", 300, [("greedy", {"samples": 2, "tries": 2}), "random",
                                        "random"], seed=3, n_games=60, fantasyland={1: 14})
    assert chunk.n_hands == 300 and (chunk.in_fantasyland > 0).sum() >= 60
    path = str(tmp_path / f"h.{fmt}")
    with fio.open_writer(path) as w:
        w.write(chunk)
    code = main(["score", path, "--verify", "--no-summary", "-q"])
    out = capsys.readouterr().out
    assert code == 0 and "all 900 recorded player-hands agree" in out
    ids, cards, recorded, points = _read(path)
    assert ids == chunk.hand_ids() and (cards == chunk.cards()).all()
    assert recorded.tolist() == points.tolist() == chunk.recorded.tolist()


def test_points_are_the_batch_points():
    chunk = selfplay("pineapple", 40, "random", n_players=3, seed=5, n_games=20)
    played = GameBatch("pineapple", 20, 3, seed=5).run_recorded(hands=2)
    # selfplay's rounds: hand 0 of every game, then hand 1
    order = np.argsort(played.hand_number * 20 + played.game, kind="stable")
    by_seat = played.points[order]
    button = played.button[order].astype(int)
    rec = chunk.recorded.reshape(40, 3)
    for h in range(40):
        assert [rec[h, k] for k in range(3)] == [by_seat[h, (button[h] + k) % 3]
                                                 for k in range(3)]
    assert (chunk.score().points == chunk.recorded).all()
    assert chunk.recorded.reshape(40, 3).sum(axis=1).tolist() == [0] * 40


def test_determinism_threads_and_chunks():
    pol = [("heuristic", {"samples": 2, "tries": 2}), "random"]
    a = selfplay("pineapple", 300, pol, seed=11, n_games=150, n_threads=1)
    b = selfplay("pineapple", 300, pol, seed=11, n_games=150, n_threads=2)
    c = selfplay("pineapple", 300, pol, seed=12, n_games=150)
    assert a.hand_ids() == b.hand_ids()
    assert (a.cards() == b.cards()).all() and (a.recorded == b.recorded).all()
    assert (a.discards[1] == b.discards[1]).all()
    assert not (a.cards() == c.cards()).all()
    parts = list(selfplay_chunks("pineapple", 300, pol, seed=11, n_games=150, id_prefix="p-"))
    assert [p.n_hands for p in parts] == [150, 150]
    assert (np.concatenate([p.cards() for p in parts]) == a.cards()).all()
    assert parts[1].hand_ids()[0] == "p-0-1"


def test_rounds_cut_and_names():
    chunks = list(selfplay_chunks("classic", 7, "random", seed=1, n_games=3))
    assert [c.n_hands for c in chunks] == [3, 3, 1]
    c = selfplay("classic", 7, "random", seed=1, n_games=3)
    assert c.hand_ids() == ["0-0", "1-0", "2-0", "0-1", "1-1", "2-1", "0-2"]
    assert sorted(set(c.names())) == ["random-0", "random-1"]
    assert sorted(set(selfplay("classic", 2, ["greedy", "random"], seed=1).names())) == \
        ["greedy", "random"]
    # a dict names every seat: its seats are the table's (2 seats were assumed)
    trio = selfplay("pineapple", 3, {0: "random", 2: "greedy", 1: "random"}, seed=1)
    assert sorted(set(trio.names())) == ["greedy", "random-0", "random-1"]
    empty = selfplay("pineapple", 0, "random", seed=1)
    assert empty.n_hands == 0 and empty.score().points.tolist() == []


def test_more_games_than_hands_are_not_built():
    """n_games beyond n_hands play no hand: they are not built (2**31 - 1 of
    them took gigabytes, a MemoryError here under a 3 GB address space)."""
    run_isolated("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        from ofc_fast.sim import selfplay, selfplay_chunks
        big = selfplay("pineapple", 5, seed=1, n_games=2**31 - 1)
        ref = selfplay("pineapple", 5, seed=1, n_games=5)
        assert big.hand_ids() == ref.hand_ids() and (big.cards() == ref.cards()).all()
        assert [c.n_hands for c in selfplay_chunks("pineapple", 5, n_games=2**31 - 1)] == [5]
    """)


def test_hands_chunk_of_last_hands():
    b = GameBatch("pineapple", 3, 2, seed=2, auto_deal=False)
    b.run(hands=1)
    c = hands_chunk(b.last_hands(), ["x", "y"], id_prefix="t")
    assert c.hand_ids() == ["t0-0", "t1-0", "t2-0"]
    assert (c.score().points == c.recorded).all()


def test_bad_arguments():
    with pytest.raises(ArgumentError, match="external"):
        selfplay("pineapple", 3, ["external", "random"])
    with pytest.raises(ArgumentError, match="one name per seat"):
        selfplay("pineapple", 3, "random", names=["a"])
    with pytest.raises(TypeError, match="names"):
        selfplay("pineapple", 3, "random", names="ab")
    with pytest.raises(ArgumentError, match="n_hands"):
        selfplay("pineapple", -1)
    with pytest.raises(TypeError):
        selfplay("pineapple", 2.5)
    with pytest.raises(ArgumentError, match="n_games"):
        selfplay("pineapple", 3, n_games=0)
    with pytest.raises(RulesError):
        selfplay("nope", 3)
    with pytest.raises(ArgumentError, match="players"):
        selfplay("pineapple", 3, "random", n_players=5)
    with pytest.raises(TypeError, match="id_prefix"):      # ids "50-0" were game 50's
        selfplay_chunks("pineapple", 3, id_prefix=5)
    played = GameBatch("pineapple", 1, 2, seed=1).run_recorded(1)
    with pytest.raises(TypeError, match="hands"):          # was an AttributeError
        hands_chunk({"game": played.game})
    with pytest.raises(TypeError, match="source"):
        hands_chunk(played, source=None)
    with pytest.raises(TypeError, match="id_prefix"):
        hands_chunk(played, id_prefix=None)                 # was "None0-0"


# ---------------------------------------------------------------------------- the CLI
def test_cli_selfplay_writes_verified_hands(tmp_path, capsys):
    out = tmp_path / "s.csv"
    code = main(["selfplay", "pineapple", "--hands", "120", "--players", "3", "--seed", "4",
                 "--policy", "greedy:samples=2,tries=2", "--policy", "random",
                 "--policy", "random", "--games", "40", "--threads", "2", "-o", str(out)])
    std, err = capsys.readouterr()
    assert code == 0 and "played 120 hands of pineapple" in err
    assert "greedy" in std and "random-1" in std          # the per-player summary
    ref = selfplay("pineapple", 120, [("greedy", {"samples": 2, "tries": 2}), "random", "random"],
                   seed=4, n_games=40)
    ids, cards, recorded, _ = _read(str(out))
    assert ids == ref.hand_ids() and (cards == ref.cards()).all()
    assert (recorded == ref.recorded).all()
    assert main(["score", str(out), "--verify", "-q", "--no-summary"]) == 0


def test_cli_selfplay_errors_leave_no_output(tmp_path, capsys):
    out = tmp_path / "x.jsonl"
    for argv, msg in [(["--policy", "nope"], "unknown policy 'nope'; valid: random, greedy, "
                                             "heuristic, racing, solver\n"),
                      (["--policy", "external"], "unknown policy 'external'"),
                      (["--policy", "heuristic:samples=1,samples=2"], "samples given twice"),
                      (["--policy", "heuristic:samples"], "policy options are KEY=VALUE, "
                                                          "got 'samples'"),
                      (["--policy", "heuristic:samplez=3"], "samplez"),
                      (["--players", "5"], "2 to 3 players"),
                      (["--option", "finish=1"], "unknown option"),
                      (["--policy", "random"] * 3 + ["--players", "2"], "one policy per seat")]:
        try:
            code = main(["selfplay", "--hands", "5", "-o", str(out), *argv])
        except SystemExit as e:         # bad usage, as argparse ends it
            code = e.code
        err = capsys.readouterr().err
        assert code == 2 and msg in err and "internal error" not in err
        assert not out.exists()
    assert main(["selfplay", "--hands", "5", "-o", str(tmp_path / "x.txt")]) == 2
    err = capsys.readouterr().err
    assert "cannot tell the format" in err
    assert "(--format)" in err and "--input-format" not in err    # selfplay's option


def test_cli_selfplay_of_no_hands_writes_a_file_of_no_hands(tmp_path, capsys):
    """--hands 0, as selfplay(n_hands=0) takes: a file every reader opens."""
    pytest.importorskip("pyarrow")
    import ofc_fast.io as fio
    for fmt in ("jsonl", "csv", "parquet"):
        out = tmp_path / f"none.{fmt}"
        assert main(["selfplay", "--hands", "0", "-q", "--no-summary", "-o", str(out)]) == 0
        assert sum(c.n_hands for c in fio.read_chunks(out)) == 0
    with pytest.raises(SystemExit) as e:
        main(["selfplay", "--hands", "-1", "-o", str(tmp_path / "x.jsonl")])
    assert e.value.code == 2 and "expected an integer >= 0, got '-1'" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("sig,status", [("SIGINT", 130), ("SIGTERM", 143)])
def test_cli_selfplay_stopped_mid_run_leaves_the_old_output(tmp_path, sig, status):
    """Ctrl-C or SIGTERM while the threads play (the loops in C): the exit
    status of the signal, no traceback, no temporary file, the old output as
    it was."""
    import signal
    import time

    from test_io_hostile import _start_cli, _temporaries
    n = getattr(signal, sig)
    out = tmp_path / "hands.parquet"
    out.write_text("old hands\n")
    proc = _start_cli(["selfplay", "--hands", "100000000", "--threads", "2", "--games", "4000",
                       "-o", str(out), "-q"], tmp_path,
                      preexec_fn=lambda: signal.signal(n, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not _temporaries(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _temporaries(tmp_path), "the temporary output appears while the run writes"
    time.sleep(0.5)                 # rounds of 4,000 games under way
    assert proc.poll() is None
    proc.send_signal(n)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == status, (proc.returncode, err)
    assert b"Traceback" not in err and _temporaries(tmp_path) == []
    assert out.read_text() == "old hands\n"


def test_tournament_example_runs(tmp_path, capsys):
    """docs/examples/tournament.py (the docs' million-hand tournament), small."""
    import pathlib
    import runpy
    script = pathlib.Path(__file__).resolve().parent.parent / "docs" / "examples" / "tournament.py"
    if not script.exists():
        pytest.skip("docs/ is not beside tests/")
    main_fn = runpy.run_path(str(script), run_name="example")["main"]
    out = tmp_path / "t.jsonl"
    main_fn(["--hands", "600", "--games", "200", "--threads", "1", "-o", str(out)])
    text = capsys.readouterr().out
    assert text.startswith("600 hands of three-player Pineapple")
    rows = {line.split()[0]: float(line.split()[1]) for line in text.splitlines()[2:]}
    assert set(rows) == {"heuristic(2x2)", "greedy(2x2)", "random"}
    assert rows["heuristic(2x2)"] > rows["random"] and abs(sum(rows.values())) < 1e-9
    assert main(["score", str(out), "--verify", "-q", "--no-summary"]) == 0
