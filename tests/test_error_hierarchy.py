"""Errors inside the hierarchy (issue 18, item 10): every input error the
library raises is an ``OFCError`` (a ``ValueError``) or, for a wrong type, a
``TypeError``.  The source is walked for plain built-in exceptions raised
anywhere else; what remains is listed here with the reason it may stay."""
from __future__ import annotations

import ast
import builtins
import collections
import functools
import pathlib
import re

import numpy as np
import pytest

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast.errors import ArgumentError, MoveIndexError, OFCError

PKG = pathlib.Path(ofc.__file__).resolve().parent

# Built-ins a Python module may raise anywhere: a wrong type (TypeError, as
# numpy), a missing optional dependency, the attribute protocol of module
# __getattr__ and read-only aliases, the process's own exits, and the
# operating system's errors of a stream or file.
ALWAYS = {"TypeError", "ImportError", "AttributeError", "SystemExit", "KeyboardInterrupt",
          "OSError", "NotImplementedError"}

# (file, exception) -> how many times, and why it may stay.
PY_ALLOWED = {
    ("records/hand.py", "IndexError"): (1, "HandRecord.from_chunk(chunk, h): an index past the "
                                          "chunk, as a sequence (tests/test_records.py)"),
    ("io/tables.py", "KeyError"): (1, "wide_cards(schema): a schema without c12; the Parquet "
                                      "writer passes only schemas it built with c12"),
    ("_args.py", "MemoryError"): (1, "fits_memory: a batch of more games (or finished hands) "
                                     "than the machine's memory, said before allocating (numpy "
                                     "and malloc raise it after)"),
}

# The compiled kernels' own checks of what the Python layer already
# validated (private modules: a raise here is a broken invariant, not a
# user's input), per file: how many.  A new plain raise in a kernel that a
# public call can reach belongs in the Python layer (ofc_fast._args).
PYX_ALLOWED = {
    "_search.pyx": 5, "_scan_json.pyx": 1, "_cards.pyx": 5, "_hand.pyx": 2, "_order.pyx": 1,
    "_scan_csv.pyx": 6, "_fantasy.pyx": 1, "_records.pyx": 9,
    "_batch.pyx": 1,
    "_rollout.pyx": 6, "_write_records.pxi": 1,
    "_solver.pyx": 2,   # solver_choose's settings, seat_position's moves (solver.py checks them)
}
PLAIN = ("ValueError", "RuntimeError", "IndexError", "KeyError", "OverflowError",
         "AssertionError", "Exception")


def _raised(tree: ast.AST) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            e = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(e, ast.Name) and hasattr(builtins, e.id):
                out.append((e.id, node.lineno))
    return out


def test_python_modules_raise_the_library_errors():
    found: collections.Counter[tuple[str, str]] = collections.Counter()
    lines = collections.defaultdict(list)
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        for name, line in _raised(ast.parse(path.read_text(encoding="utf-8"))):
            if name not in ALWAYS:
                found[rel, name] += 1
                lines[rel, name].append(line)
    allowed = {k: n for k, (n, _) in PY_ALLOWED.items()}
    assert dict(found) == allowed, {k: lines[k] for k in found if found[k] != allowed.get(k)}


def test_kernels_raise_plain_errors_only_where_listed():
    pattern = re.compile(rf"^\s*raise ({'|'.join(PLAIN)})\(", re.M)
    found = {}
    for path in sorted([*PKG.glob("*.pyx"), *PKG.glob("*.pxi")]):
        n = len(pattern.findall(path.read_text(encoding="utf-8")))
        if n:
            found[path.name] = n
    assert found == PYX_ALLOWED


V = ofc.variant("pineapple")


@pytest.mark.parametrize("call, exc, text", [
    (lambda: ofc.strength5(np.zeros((2, 4), np.uint8)), ArgumentError,
     r"cards must have shape \(\.\.\., 5\), got \(2, 4\)"),
    (lambda: ofc.strength3(np.zeros(5, np.uint8)), ArgumentError, r"got \(5,\)"),
    (lambda: ofc.row_strength(np.zeros((1, 4), np.uint8)), ArgumentError,
     r"\(\.\.\., 3 or 5\), got \(1, 4\)"),
    (lambda: ofc.strength5(np.arange(10, dtype=np.uint8).reshape(2, 5),
                           out=np.zeros(3, np.uint16)), ArgumentError,
     r"out must have shape \(2,\), got \(3,\)"),
])
def test_kernel_arguments_are_library_errors(call, exc, text):
    with pytest.raises(exc, match=text) as info:
        call()
    assert isinstance(info.value, OFCError) and isinstance(info.value, ValueError)


def test_read_only_and_strided_out():
    hands = np.array([[0, 5, 10, 15, 20], [1, 6, 11, 16, 21]], np.uint8)
    ro = np.zeros(2, np.uint16)
    ro.flags.writeable = False
    with pytest.raises(ArgumentError, match="out is read-only"):
        ofc.strength5(hands, out=ro)
    strided = np.zeros(4, np.uint16)[::2]            # written through a copy, as before
    assert ofc.strength5(hands, out=strided) is strided
    assert strided.tolist() == ofc.strength5(hands).tolist()


def test_move_values_index_is_a_move_index_error():
    mv = ofc.move_values(ofc.Game(V, 2, seed=3), n=20, seed=1)
    with pytest.raises(MoveIndexError, match=f"index {len(mv)} out of range"):
        mv[len(mv)]
    with pytest.raises(IndexError):                   # still the sequence protocol's
        mv[-len(mv) - 1]


def test_unknown_picture_format_is_an_argument_error(tmp_path):
    pytest.importorskip("matplotlib")
    import ofc_fast.io as fio
    from ofc_fast.report import Summary, plot, sample_path, save_figure
    summary = Summary(track=True)
    for chunk in fio.read_chunks(sample_path()):
        summary.add(chunk.score())
    with pytest.raises(ArgumentError, match="unknown picture format 'xyz'"):
        save_figure(plot(summary), tmp_path / "r.xyz")
    assert not (tmp_path / "r.xyz").exists()


# ------------------------------------------------- messages that show the value
@pytest.mark.parametrize("column, value, text", [
    ("seat", 0.5, "seat must be an integer, got 0.5"),
    ("n_players", 2.5, "n_players must be an integer, got 2.5"),
    ("seat", None, "(-1: missing)"),          # a null is missing, and said so
])
def test_a_seat_that_is_no_integer_is_named_not_missing(tmp_path, column, value, text):
    """0.2 reported a Parquet or frame seat of 0.5 as a missing seat (-1)."""
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    QQ = dict(top="Qs Qd 2c", middle="9h 9d 9c 5s 5d", bottom="Ah Ac Ad 4c 4d")
    KK = dict(top="Ks Kd 3c", middle="2h 3h 4h 5h 6d", bottom="Tc Td Ts Th 8d")
    rows = [dict(hand_id=h, n_players=2.0, seat=float(s), **lay)
            for h in ("h1", "h2", "h3") for s, lay in enumerate((QQ, KK))]
    rows[2][column] = value
    df = pd.DataFrame(rows)
    path = tmp_path / "h.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), path)
    run = fio.score_file(path, skip_bad=True)
    assert run.hands == 2
    (err,) = run.skipped
    assert (err.reason, err.hand_id, err.line) == ("bad value", "h2", 3)
    assert text in err.detail
    errors = fio.score_frame(df, skip_bad=True)["error"]
    assert errors.notna().tolist() == [False, False, True, True, False, False]
    assert text in errors[2]


# ------------------------------- the files layer's entry points, with hostile values
# (issue 28): io, records, dask and the command, given ragged, empty, boolean,
# decimal and huge values (and values of no sensible type) in each argument.
# What may come out: a result, the library's errors (OFCError, OutputError),
# TypeError for a wrong type, OSError for a file the system refuses (a path
# of "" does not exist), IndexError from HandRecord.from_chunk (documented:
# an index past the chunk, as a sequence).  Never numpy's, pyarrow's or
# another builtin's (ValueError, AttributeError, KeyError, RecursionError ...).
HOSTILE = {"ragged": [[1, 2], [3]], "empty": [], "empty text": "", "bool": True,
           "decimal": __import__("decimal").Decimal("5"), "huge": 10**30,
           "negative": -(10**30), "nan": float("nan"), "bytes": b"x", "none": None,
           "object": object()}


def _one_field(key, p, q, value):
    from ofc_fast.records import chunk_from_records
    return chunk_from_records([{"players": [dict(p, **{key: value}), q]}])


def _files_layer_calls(tmp_path):
    """(name, call of one hostile value) of every public entry point of io,
    records and dask, one argument at a time."""
    import os

    from ofc_fast.records import HandRecord, Rules, chunk_from_records
    from ofc_fast.report import Summary, sample_path
    sample = sample_path()
    p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    chunk = chunk_from_records([{"id": 1, "players": [p, q]}])
    out = str(tmp_path / "out")
    calls = {
        "read_chunks(path)": lambda v: list(fio.read_chunks(v)),
        "read_chunks(path, 'jsonl')": lambda v: list(fio.read_chunks(v, "jsonl")),
        "read_chunks(format=)": lambda v: list(fio.read_chunks(sample, v)),
        "read_chunks(chunk_size=)": lambda v: list(fio.read_chunks(sample, chunk_size=v)),
        "read_chunks(n_threads=)": lambda v: list(fio.read_chunks(sample, n_threads=v)),
        "read_chunks(rules=)": lambda v: list(fio.read_chunks(sample, rules=v)),
        "read_chunks(skip_bad=)": lambda v: list(fio.read_chunks(sample, skip_bad=v)),
        "read_hands(path)": lambda v: list(fio.read_hands(v, "jsonl")),
        "score_file(path)": lambda v: fio.score_file(v, format="jsonl"),
        "score_file(output)": lambda v: fio.score_file(sample, v, output_format="csv"),
        "score_file(verify=)": lambda v: fio.score_file(sample, verify=v),
        "score_file(closed_pipe=)": lambda v: fio.score_file(sample, closed_pipe=v),
        "score_file(**writer options)": lambda v: fio.score_file(sample, width=v),
        "open_writer(path)": lambda v: fio.open_writer(v, "csv").abort(),
        "open_writer(format=)": lambda v: fio.open_writer(out + ".csv", v).abort(),
        "open_writer(results_only=)": lambda v: fio.open_writer(out + ".csv",
                                                                results_only=v).abort(),
        "Writer.write": lambda v: fio.open_writer(out + ".jsonl").write(v),
        "write_hands(records)": lambda v: fio.write_hands(v, out + ".jsonl"),
        "write_hands([record])": lambda v: fio.write_hands([v], out + ".jsonl"),
        "detect_format(path)": lambda v: fio.detect_format(v),
        "chunk_from_records(records)": lambda v: chunk_from_records(v),
        "chunk_from_records([record])": lambda v: chunk_from_records([v]),
        "record players": lambda v: chunk_from_records([{"players": v}]),
        "record id": lambda v: chunk_from_records([{"id": v, "players": [p, q]}]),
        "record variant": lambda v: chunk_from_records([{"variant": v, "players": [p, q]}]),
        "record options": lambda v: chunk_from_records([{"options": v, "players": [p, q]}]),
        **{f"player {k}": functools.partial(_one_field, k, p, q)
           for k in ("top", "rows", "name", "in_fantasyland", "discards", "points")},
        "chunk_from_records(rules=)": lambda v: chunk_from_records([], v),
        "Rules(variant)": lambda v: Rules(v).resolve(None, None),
        "Rules(options=)": lambda v: Rules("pineapple", v).resolve(None, None),
        "Chunk.take(hands)": lambda v: chunk.take(v),
        "Chunk.take([hand])": lambda v: chunk.take([v]),
        "Chunk.drop(hands)": lambda v: chunk.drop(v, []),
        "HandRecord.from_dict": lambda v: HandRecord.from_dict(v),
        "HandRecord.from_chunk(h)": lambda v: HandRecord.from_chunk(chunk, v),
        "Summary.add": lambda v: Summary().add(v),
    }
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pass
    else:
        table = fio.chunk_table(chunk)
        calls.update({
            "score_frame(frame)": lambda v: fio.score_frame(v),
            "score_frame(variant=)": lambda v: fio.score_frame(table, variant=v),
            "score_frame(options=)": lambda v: fio.score_frame(table, options=v),
            "score_frame(skip_bad=)": lambda v: fio.score_frame(table, skip_bad=v),
            "chunk_from_arrow(table)": lambda v: fio.chunk_from_arrow(v),
            "chunk_table(chunk)": lambda v: fio.chunk_table(v),
            "chunk_table(width)": lambda v: fio.chunk_table(chunk, v),
            "read_frame(kind)": lambda v: fio.read_frame(sample, v),
            "read_frame(dtype_backend=)": lambda v: fio.read_frame(sample, dtype_backend=v),
            "open_writer(width=)": lambda v: fio.open_writer(out + ".parquet", width=v).abort(),
            "open_writer(compression=)": lambda v: fio.open_writer(out + ".parquet",
                                                                   compression=v).abort(),
        })
    try:
        import dask.dataframe  # noqa: F401

        import ofc_fast.dask as od
    except ImportError:
        return calls
    folder = os.path.join(tmp_path, "selfplay")
    calls.update({
        "dask.selfplay_parquet(path)": lambda v: od.selfplay_parquet(v, n_hands=2, compute=False),
        "dask.selfplay_parquet(n_hands=)": lambda v: od.selfplay_parquet(folder, n_hands=v,
                                                                         compute=False),
        "dask.selfplay_parquet(partitions=)": lambda v: od.selfplay_parquet(
            folder, n_hands=2, partitions=v, compute=False),
        "dask.selfplay_parquet(seed=)": lambda v: od.selfplay_parquet(folder, n_hands=2, seed=v,
                                                                      compute=False),
        "dask.score_frame(ddf)": lambda v: od.score_frame(v),
        "dask.score_parquet(path)": lambda v: od.score_parquet(v),
        "dask.score_parquet(variant=)": lambda v: od.score_parquet(sample, variant=v),
        "dask.player_totals(results)": lambda v: od.player_totals(v),
    })
    return calls


@pytest.mark.slow
def test_files_layer_entry_points_let_no_foreign_exception_out(tmp_path, monkeypatch):
    from ofc_fast.errors import OutputError
    monkeypatch.chdir(tmp_path)          # a value taken for a relative path lands here
    before = set(tmp_path.iterdir())
    from ofc_fast.records import HandRecord
    escaped = []
    for name, call in _files_layer_calls(tmp_path).items():
        for label, value in HOSTILE.items():
            try:
                call(value)
            except (OFCError, OutputError, TypeError, OSError):
                pass
            except IndexError:
                if name != "HandRecord.from_chunk(h)":
                    escaped.append((name, label, "IndexError"))
            except BaseException as e:  # noqa: BLE001 - the failure to report
                escaped.append((name, label, f"{type(e).__module__}.{type(e).__name__}: "
                                             f"{str(e)[:120]}"))
    assert escaped == []
    made = sorted(p.name for p in set(tmp_path.iterdir()) - before)
    # Writer.write's output (given up: nothing), the folder of selfplay_parquet's
    # good values; never a file or folder named by a hostile value (`True/`)
    assert set(made) <= {"out.jsonl", "selfplay"}, made
    assert HandRecord.from_chunk.__doc__ and "IndexError" in HandRecord.from_chunk.__doc__


@pytest.mark.parametrize("argv", [
    ["show", "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", "--in-fantasyland", "1e3"],
    ["show", "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", "--in-fantasyland", "256"],
    ["show", "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", "--in-fantasyland", "true"],
    ["show", "[[Qs, Qd], [2c]] / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"],
    ["show", ""], ["show", "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", "--index", "1.5"],
    ["fantasyland", ""], ["fantasyland", "As Ks", "--repeat-value", "1e400"],
    ["fantasyland", "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c", "--repeat-value", "true"],
    ["fantasyland", "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c", "--option",
     "repeat_limit=[[1], 2]"],
    ["fantasyland", "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c", "--option",
     "foul_penalty=1e400"],
    ["fantasyland", "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c", "--option", "finnish=5.0"],
    ["selfplay", "--hands", "1e3", "-o", "-"], ["selfplay", "--hands", "true", "-o", "-"],
    ["selfplay", "--hands", str(10**30), "-o", "-"],
    ["selfplay", "--hands", "2", "--policy", "random:samples=[[1],[2,3]]", "-o", "-"],
    ["selfplay", "--hands", "2", "--seed", str(10**40), "-o", "-", "-q", "--no-summary"],
])
def test_the_command_ends_every_hostile_value_in_a_line_and_a_status(argv, capsys):
    """The command with hostile values: exit status 0 or 2 (argparse's usage
    errors included) and one line, never an internal error (3) or a
    traceback."""
    from ofc_fast.cli import main
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code in (0, 2), (argv, err)
    assert "Traceback" not in err and "internal error" not in err, err
    assert code == 0 or err.strip().splitlines()[-1].startswith("ofc-fast"), err


def _keyword(make, key, value):
    return make(**{key: value})


def _sim_rl_calls():
    """(name, call of one hostile value) of every public entry point of sim
    and rl (and the move <-> action mapping), one argument at a time."""
    from ofc_fast.rl.encoding import ObservationEncoding
    from ofc_fast.rl.evaluate import evaluate_policy
    from ofc_fast.rl.policy import ObservationPolicy
    from ofc_fast.sim import (
        BatchSpec,
        GameBatch,
        action_of,
        action_rows,
        action_size,
        hands_chunk,
        selfplay,
        selfplay_chunks,
    )

    def batch(**kw):
        return GameBatch("pineapple", 2, 2, **{"seed": 1, **kw})

    ext = dict(policies=["external", "random"])
    moves = ofc.Game("pineapple", 2, seed=1).legal_moves()
    enc = ObservationEncoding("pineapple", 2)
    first = ObservationPolicy(lambda o, m: m.argmax(axis=1), "pineapple", 2)
    done = batch()
    done.run(1)
    calls = {
        **{f"GameBatch({k}=)": functools.partial(_keyword, batch, k)
           for k in ("variant", "n_games", "n_players", "seed", "fantasyland", "policies",
                     "auto", "auto_deal", "button", "decks", "n_threads")},
        "GameBatch(policies=[v, random])": lambda v: batch(policies=[v, "random"]).run(1),
        "GameBatch.observe(games)": lambda v: batch(**ext).observe(v),
        "GameBatch.observe(seats)": lambda v: batch(**ext).observe([0], v),
        "GameBatch.observe(legal=)": lambda v: batch(**ext).observe(legal=v),
        "GameBatch.observe(out=)": lambda v: batch(**ext).observe(out=v),
        "GameBatch.step(actions)": lambda v: batch(**ext).step(v),
        "GameBatch.step([action])": lambda v: batch(**ext).step([v, v]),
        "GameBatch.next_hand(games)": lambda v: batch(auto_deal=False).next_hand(v),
        "GameBatch.next_hand(decks=)": lambda v: GameBatch(
            "pineapple", 1, 2, seed=1, auto_deal=False).run(1) is None or
        GameBatch("pineapple", 1, 2, seed=1, auto_deal=False).next_hand(decks=v),
        "GameBatch.run(hands)": lambda v: batch().run(v),
        "GameBatch.run_recorded(hands)": lambda v: batch().run_recorded(v),
        "GameBatch.last_hands(games)": lambda v: done.last_hands(v),
        "GameBatch.game(i)": lambda v: done.game(v),
        "GameBatch.game_seed(i)": lambda v: done.game_seed(v),
        "GameBatch.from_spec(spec)": lambda v: GameBatch.from_spec(v),
        "BatchSpec.check(policies=)": lambda v: BatchSpec.check(policies=v),
        "selfplay(n_hands)": lambda v: selfplay("pineapple", v, seed=1),
        "selfplay(policies)": lambda v: selfplay("pineapple", 2, v, seed=1),
        "selfplay(names=)": lambda v: selfplay("pineapple", 2, seed=1, names=v),
        "selfplay_chunks(n_games=)": lambda v: list(selfplay_chunks("pineapple", 2, n_games=v)),
        "hands_chunk(hands)": lambda v: hands_chunk(v),
        "hands_chunk(names)": lambda v: hands_chunk(done.last_hands(), v),
        "action_size(variant)": lambda v: action_size(v),
        "action_of(rows)": lambda v: action_of(v, "pineapple"),
        "action_rows(action)": lambda v: action_rows(v, 3, "pineapple"),
        "action_rows(n_cards)": lambda v: action_rows(0, v, "pineapple"),
        "MoveList.action(i)": lambda v: moves.action(v),
        "MoveList.from_action(a)": lambda v: moves.from_action(v),
        "ObservationEncoding(variant)": lambda v: ObservationEncoding(v, 2),
        "ObservationEncoding(n_players)": lambda v: ObservationEncoding("pineapple", v),
        "ObservationEncoding.encode(obs)": lambda v: enc.encode(v),
        "ObservationEncoding.encode({hand: v})": lambda v: enc.encode(
            dict(batch(**ext).observe(), hand=v)),
        "ObservationEncoding.encode_view(view)": lambda v: enc.encode_view(v),
        "ObservationPolicy(fn)": lambda v: ObservationPolicy(v),
        "ObservationPolicy(fantasyland_value=)": lambda v: ObservationPolicy(
            len, fantasyland_value=v),
        "ObservationPolicy fn returning v": lambda v: batch(policies=[ObservationPolicy(
            lambda o, m: v), "random"]).run(1),
        "ObservationPolicy.act(obs)": lambda v: first.act(v),
        "evaluate_policy(policy)": lambda v: evaluate_policy(v, n_hands=2),
        "evaluate_policy(opponents)": lambda v: evaluate_policy("random", v, n_hands=2),
        "evaluate_policy(n_hands=)": lambda v: evaluate_policy("random", n_hands=v),
        "evaluate_policy(match_hands=)": lambda v: evaluate_policy("random", n_hands=2,
                                                                   match_hands=v),
        "evaluate_policy(seed=)": lambda v: evaluate_policy("random", n_hands=2, seed=v),
    }
    try:
        from ofc_fast.rl.gym import OFCEnv, OFCVectorEnv
        from ofc_fast.rl.pettingzoo import OFCAECEnv, SelfPlayEnv, env
        from ofc_fast.rl.spec import TableSpec
    except ImportError:
        return calls

    def single():
        e = OFCEnv()
        e.reset(seed=1)
        return e

    def aec():
        e = env()
        e.reset(seed=1)
        return e
    calls.update({
        **{f"OFCEnv({k}=)": functools.partial(_keyword, lambda **kw: OFCEnv(**kw).reset(seed=1),
                                              k)
           for k in ("variant", "n_players", "seat", "policies", "fantasyland", "auto",
                     "illegal", "render_mode")},
        "OFCEnv.reset(seed=)": lambda v: OFCEnv().reset(seed=v),
        "OFCEnv.step(action)": lambda v: single().step(v),
        "OFCEnv.action_masks()": lambda v: OFCEnv().action_masks(),
        "OFCVectorEnv(num_envs)": lambda v: OFCVectorEnv(v).reset(seed=1),
        "OFCVectorEnv.step(actions)": lambda v: (lambda e: (e.reset(seed=1), e.step(v)))(
            OFCVectorEnv(2)),
        "OFCAECEnv(hands=)": lambda v: OFCAECEnv(hands=v).reset(seed=1),
        "env().step before reset": lambda v: env().step(v),
        "env().last before reset": lambda v: env().last(v),
        "env().step(action)": lambda v: aec().step(v),
        "env().observe(agent)": lambda v: aec().observe(v),
        "env().reset(seed=)": lambda v: env().reset(seed=v),
        "SelfPlayEnv(opponent=)": lambda v: SelfPlayEnv(opponent=v).reset(seed=1),
        "SelfPlayEnv.step(action)": lambda v: (lambda e: (e.reset(seed=1), e.step(v)))(
            SelfPlayEnv()),
        "TableSpec.check(illegal=)": lambda v: TableSpec.check(illegal=v),
    })
    try:
        from ofc_fast.rl.sb3 import HAVE_SB3, OFCSB3VecEnv
    except ImportError:
        return calls
    if HAVE_SB3:
        calls.update({
            "OFCSB3VecEnv(num_envs)": lambda v: OFCSB3VecEnv(v).reset(),
            "OFCSB3VecEnv.step(actions)": lambda v: (lambda e: (e.reset(), e.step(v)))(
                OFCSB3VecEnv(2)),
        })
    return calls


def test_sim_and_rl_entry_points_let_no_foreign_exception_out():
    """Ragged, empty, boolean, decimal, huge, NaN, None values given to every
    public call of sim and rl, one argument at a time: the library's errors
    (an OFCError, a TypeError, the MemoryError said before allocating), or
    the call works; never numpy's, PettingZoo's or a builtin's own."""
    import warnings
    escaped = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, call in _sim_rl_calls().items():
            for label, value in HOSTILE.items():
                try:
                    call(value)
                except (OFCError, TypeError):
                    pass
                except MemoryError as e:
                    if "need about" not in str(e):
                        escaped.append((name, label, f"MemoryError: {str(e)[:120]}"))
                except BaseException as e:  # noqa: BLE001 - the failure to report
                    escaped.append((name, label, f"{type(e).__module__}.{type(e).__name__}: "
                                                 f"{str(e)[:120]}"))
    assert escaped == []
