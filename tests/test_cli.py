"""The ofc-fast command line (ofc_fast.cli; docs/cli.md), through main(argv)
and through the installed console script."""
import copy
import os
import pathlib
import pty
import re
import shlex
import shutil
import subprocess
import sys

import orjson
import pytest

from ofc_fast.cli import main
from ofc_fast.report import sample_path
from optional import FORMATS_HERE, HAVE_PYARROW

ROOT = pathlib.Path(__file__).resolve().parent.parent
A = {"name": "alice", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
B = {"name": "bob", "top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
LAYOUT_A = "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"
LAYOUT_B = "Ks Kd 3c | 2h 3h 4h 5h 6d | Tc Td Ts Th 8d"


def hand(id, a=A, b=B, **kw):
    return dict({"format": "ofc-hand/1", "id": id, "variant": "pineapple",
                 "players": [copy.deepcopy(a), copy.deepcopy(b)]}, **kw)


def write(path, records):
    with open(path, "wb") as f:
        for r in records:
            f.write((r if isinstance(r, bytes) else orjson.dumps(r)) + b"\n")
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _sample_counts():
    """(hands, player-hands) of the bundled sample, counted independently."""
    with open(sample_path(), "rb") as f:
        recs = [orjson.loads(x) for x in f if x.strip()]
    return len(recs), sum(len(r["players"]) for r in recs)


SAMPLE_HANDS, SAMPLE_PLAYER_HANDS = _sample_counts()


@pytest.fixture(scope="module")
def sample_lines():
    with open(sample_path(), "rb") as f:
        return f.read().splitlines()


# ------------------------------------------------------------------------------ score
def test_score_bundled_sample(capsys):
    code, out, err = run(capsys, "score")
    assert code == 0
    assert out.splitlines()[0].split() == ["player", "hands", "net", "pts/hand", "foul", "%",
                                           "FL", "%", "royalties/hand"]
    assert "alice" in out and (f"read {SAMPLE_HANDS:,} hands: {SAMPLE_HANDS:,} scored, 0 skipped "
                               f"({SAMPLE_PLAYER_HANDS:,} player-hands)") in err


@pytest.mark.slow
def test_score_outputs_every_format(tmp_path, capsys):
    for fmt in FORMATS_HERE:
        out_path = tmp_path / f"out.{fmt}"
        code, out, err = run(capsys, "score", sample_path(), "-o", str(out_path), "-q")
        assert code == 0 and out_path.stat().st_size > 0 and err == ""
        code, out, err = run(capsys, "score", str(out_path), "--verify", "-q", "--no-summary")
        assert code == 0 and f"all {SAMPLE_PLAYER_HANDS:,} recorded player-hands agree" in out
    code, out, err = run(capsys, "score", sample_path(), "-o", str(tmp_path / "x.dat"),
                         "--format", "csv", "-q", "--no-summary")
    assert code == 0 and (tmp_path / "x.dat").read_text().startswith("hand_id,seat,")


def test_score_to_stdout(tmp_path, capfd):
    path = write(tmp_path / "h.jsonl", [hand("h1"), hand("h2")])
    code = main(["score", path, "-o", "-"])
    out, err = capfd.readouterr()
    lines = [orjson.loads(x) for x in out.splitlines()]
    assert code == 0 and [p["points"] for p in lines[0]["players"]] == [6, -6]
    assert "player" in err       # the summary goes to stderr when results go to stdout


def test_summary_json(tmp_path, capsys):
    code, out, err = run(capsys, "score", "-q", "--no-summary", "--summary-json", "-")
    data = orjson.loads(out)
    assert code == 0 and data["hands"] == SAMPLE_HANDS
    assert data["player_hands"] == SAMPLE_PLAYER_HANDS
    assert {p["name"] for p in data["players"]} >= {"alice", "bob"}
    assert sum(p["net"] for p in data["players"]) == 0


def test_verify_catches_a_planted_mismatch(tmp_path, capsys, sample_lines):
    recs = [orjson.loads(x) for x in sample_lines[:40]]
    target = recs[17]
    target["players"][1]["points"] += 3
    path = write(tmp_path / "h.jsonl", recs)
    code, out, err = run(capsys, "score", path, "--verify", "-q", "--no-summary")
    assert code == 1
    assert "1 of" in out and "recorded player-hands differ" in out
    ours = target["players"][1]["points"] - 3
    name = target["players"][1]["name"]
    head = (f"{path}:18: hand {target['id']!r}, seat 1 ({name}): recorded {ours + 3:+d}, "
            f"ours {ours:+d}")
    assert head in out, out
    assert re.search(r"vs seat 0: [+-]\d+ = rows [+-]\d+ \[[WLT ]+.*\] \+ royalties", out)


def test_verify_without_recorded_points(tmp_path, capsys):
    path = write(tmp_path / "h.jsonl", [hand("h1")])
    code, out, err = run(capsys, "score", path, "--verify", "-q", "--no-summary")
    assert code == 0 and "(2 had no recorded points)" in out


BAD = [
    ("unknown card", dict(hand("x", b=dict(B, middle="2h 3h 4h 5h Xd"))),
     "unknown card: hand 'x', seat 1 (bob), middle row: unknown card 'Xd'"),
    ("duplicate card", dict(hand("x", b=dict(B, bottom="Tc Td Ts Th Qs"))),
     "duplicate card: hand 'x', seat 1 (bob), bottom row: Qs appears twice"),
    ("wrong row size", dict(hand("x", a=dict(A, top="Qs Qd"))),
     "wrong row size: hand 'x', seat 0 (alice), top row: 2 cards (Qs Qd); the top row needs 3"),
    ("unknown variant", hand("x", variant="pineapple-9"),
     "unknown variant: hand 'x': unknown variant 'pineapple-9'"),
    ("bad json", b'{"id": "x", "players": [', "bad json:"),
]


@pytest.mark.parametrize("reason, rec, text", BAD, ids=[b[0] for b in BAD])
def test_bad_input_stops_with_file_line_reason(tmp_path, capsys, reason, rec, text):
    path = write(tmp_path / "h.jsonl", [hand("ok1"), rec, hand("ok2")])
    code, out, err = run(capsys, "score", path, "-q", "-o", str(tmp_path / "o.parquet"))
    assert code == 2 and out == "" and not (tmp_path / "o.parquet").exists()
    assert f"ofc-fast: {path}:2: {text}" in err, err
    assert "--skip-bad" in err
    code, out, err = run(capsys, "score", path, "--skip-bad")
    assert code == 0
    assert f"skipped 1 bad hand (1 {reason}):" in err and f"{path}:2: {reason}" in err
    assert "read 3 hands: 2 scored, 1 skipped (4 player-hands)" in err and "alice" in out


def test_skip_bad_reports_counts_by_reason(tmp_path, capsys):
    recs = [hand("a", b=dict(B, middle="Xx 3h 4h 5h 6d")), hand("b", b=dict(B, top="Ks")),
            hand("c"), hand("d", b=dict(B, middle="Zz 3h 4h 5h 6d"))]
    path = write(tmp_path / "h.jsonl", recs)
    code, out, err = run(capsys, "score", path, "--skip-bad", "-o", str(tmp_path / "o.csv"))
    assert code == 0
    assert "skipped 3 bad hands (2 unknown card, 1 wrong row size)" in err
    assert (tmp_path / "o.csv").read_text().count("\nc,") == 2


def test_usage_errors(tmp_path, capsys):
    code, out, err = run(capsys, "score", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "no such file" in err
    code, out, err = run(capsys, "score", "--variant", "pinapple")
    assert code == 2 and "unknown variant 'pinapple'" in err
    code, out, err = run(capsys, "score", "--option", "colour=red")
    assert code == 2 and "unknown option 'colour'" in err
    p = tmp_path / "hands.txt"
    p.write_text("x")
    code, out, err = run(capsys, "score", str(p))
    assert code == 2 and "cannot tell the format" in err
    with pytest.raises(SystemExit) as e:
        main(["score", "--option", "novalue"])
    assert e.value.code == 2
    assert main([]) == 2


def test_variant_and_options(tmp_path, capsys):
    rec = hand("h1")
    del rec["variant"]
    path = write(tmp_path / "h.jsonl", [rec])
    outs = {}
    custom = '{"middle": {"full_house": 40}}'
    for extra in ([], ["--variant", "classic"],
                  ["--variant", "classic", "--option", "finnish=true", "--option",
                   f"royalties={custom}"]):
        out_path = str(tmp_path / "o.jsonl")
        assert main(["score", path, "-q", "-o", out_path] + extra) == 0
        outs[" ".join(extra)] = orjson.loads(open(out_path, "rb").read())
    assert outs[""]["variant"] == "pineapple"
    assert outs["--variant classic"]["variant"] == "classic"
    last = outs[f"--variant classic --option finnish=true --option royalties={custom}"]
    assert last["options"] == {"finnish": True, "royalties": {"middle": {"full_house": 40}}}
    assert len({o["players"][0]["points"] for o in outs.values()}) == 3
    # --override replaces the rules a record names
    path2 = write(tmp_path / "h2.jsonl", [hand("h1")])
    assert main(["score", path2, "-q", "-o", out_path, "--variant", "classic", "--override"]) == 0
    assert orjson.loads(open(out_path, "rb").read())["variant"] == "classic"


def test_progress_bar_only_on_a_terminal(tmp_path, capsys, monkeypatch):
    code, out, err = run(capsys, "score", "--no-summary")
    assert "scoring" not in err            # stderr is not a terminal here
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, out, err = run(capsys, "score", "--no-summary")
    assert code == 0 and "scoring" in err
    code, out, err = run(capsys, "score", "--no-summary", "--quiet")
    assert err == ""


# ------------------------------------------------------------------------------- show
def test_show_layouts(capsys):
    code, out, err = run(capsys, "show", LAYOUT_A, LAYOUT_B, "--color", "never")
    assert code == 0 and "\033[" not in out
    assert "Pair of Queens, Deuce kicker" in out and "Four Tens, Eight kicker" in out
    assert "royalties 29" in out and "fantasyland next hand: 14 cards (entry)" in out
    assert "points +6" in out and "points -6" in out
    assert "vs seat 1: +6 (rows L W L: -1, royalties +7)" in out


def test_the_cli_explains_fouls_with_the_foul_rule(monkeypatch, capsys):
    """``show`` says why a layout fouls with layouts.foul_reason (one
    explanation, beside the rule); cli.foul_reason is its deprecated alias."""
    import ofc_fast as ofc
    from ofc_fast import cli as cli_module
    from ofc_fast import layouts
    seen = []
    real = layouts.foul_reason
    monkeypatch.setattr(layouts, "foul_reason", lambda s, v: seen.append(v.name) or real(s, v))
    assert main(["show", "As Ah Kd / 2c 3d 4h 9s Jc / 7h 7d 2s 5c 8d", "--color", "never"]) == 0
    assert seen == ["pineapple"] and "FOUL: the top" in capsys.readouterr().out
    v = ofc.variant("pineapple")
    ev = ofc.evaluate(ofc.parse_layout("As Ah Kd / 2c 3d 4h 9s Jc / 7h 7d 2s 5c 8d", v), v)
    with pytest.warns(DeprecationWarning, match=r"ofc_fast.cli.foul_reason is deprecated.*"
                                                r"use ofc_fast.foul_reason"):
        assert cli_module.foul_reason(ev.strengths[0], v) == real(ev.strengths[0], v)


def test_show_foul_reason_and_colour(capsys):
    code, out, err = run(capsys, "show", "As Ad 2c / 3c 4d 5h 7s 9s / Kc Kd 4s 8h Jd",
                         "--color", "always")
    assert code == 0 and "\033[" in out
    assert "FOUL: the top (Pair of Aces, Deuce kicker) beats the middle (Nine-high" in out
    code, out, err = run(capsys, "show", "Ks Qd Jc / 2c 3c 4d 5d 8h / Ac Ad Ah 9s 9d",
                         "--variant", "pineapple-2-7", "--color", "never")
    assert code == 0 and "royalties" in out
    code, out, err = run(capsys, "show", "Ks Qd Jc / 2c 3c 4d 5d 6h / Ac Ad Ah 9s 9d",
                         "--variant", "pineapple-2-7", "--color", "never")
    assert "FOUL: the middle (Six-high straight) is not a 2-7 low" in out


def test_show_hand_from_file(tmp_path, capsys, sample_lines):
    rec = orjson.loads(sample_lines[5])
    code, out, err = run(capsys, "show", sample_path(), "--id", rec["id"], "--color", "never")
    assert code == 0 and f"hand {rec['id']!r} ({sample_path()}:6)" in out
    for p in rec["players"]:
        assert p["name"] in out and f"points {p['points']:+d} (recorded {p['points']:+d})" in out
    code, out, err = run(capsys, "show", sample_path(), "--index", "5", "--color", "never")
    assert f"hand {rec['id']!r}" in out
    code, out, err = run(capsys, "show", sample_path(), "--id", "nope")
    assert code == 2 and "no hand with id 'nope'" in err


def test_show_bad_layouts(capsys):
    code, out, err = run(capsys, "show", "Qs Qd / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d")
    assert code == 2 and "the top row has 2 cards; it needs 3" in err
    code, out, err = run(capsys, "show", LAYOUT_A, LAYOUT_A)
    assert code == 2 and "appears twice" in err
    code, out, err = run(capsys, "show", "nothing-here")
    assert code == 2 and "no such file, and not a layout" in err


# ----------------------------------------------------------------------------- report
@pytest.mark.slow
def test_report_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png, js = tmp_path / "r.png", tmp_path / "r.json"
    code, out, err = run(capsys, "report", "--plot", str(png), "--json", str(js), "-q")
    assert code == 0 and f"{SAMPLE_HANDS:,} hands" in out and "alice" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert orjson.loads(js.read_bytes())["hands"] == SAMPLE_HANDS


# ------------------------------------------------------------------------------- help
@pytest.mark.parametrize("argv", [["--help"], ["score", "--help"], ["show", "--help"],
                                  ["report", "--help"]])
def test_help_explains_with_examples(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out = capsys.readouterr().out
    assert e.value.code == 0 and "examples:" in out and "ofc-fast" in out


# ------------------------------------------------------------- entry point and README
def _console_script():
    exe = shutil.which("ofc-fast")
    if exe is None:
        pytest.skip("the ofc-fast console script is not installed (pip install .)")
    return exe


@pytest.mark.slow
def test_console_script_entry_point(tmp_path):
    exe = _console_script()
    path = write(tmp_path / "h.jsonl", [hand("h1", a=dict(A, points=5), b=dict(B, points=-5))])
    r = subprocess.run([exe, "score", path, "--verify"], capture_output=True, text=True)
    assert r.returncode == 1 and "recorded +5, ours +6" in r.stdout
    # run from tmp_path: `-m` puts the working directory first on sys.path, and
    # the source tree's ofc_fast/ (no compiled modules) must not shadow the install
    r = subprocess.run([sys.executable, "-m", "ofc_fast.cli", "--version"], capture_output=True,
                       text=True, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("ofc-fast ")


@pytest.mark.slow
def test_readme_quick_start():
    """README's first quick-start command is `pip install . && ofc-fast score`;
    run its ofc-fast part with the installed package."""
    text = (ROOT / "README.md").read_text()
    section = re.search(r"^## Quick start\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert section, "README.md has no Quick start section"
    block = re.search(r"```(?:bash|sh|console)?\n(.*?)```", section.group(1), re.S)
    assert block, "README.md has no Quick start code block"
    first = block.group(1).strip().splitlines()[0]
    assert first == "pip install . && ofc-fast score", first
    exe = _console_script()
    for cmd in first.split("&&")[1:]:
        argv = shlex.split(cmd)
        assert argv[0] == "ofc-fast"
        # typed in a terminal: stdin is a terminal (with no FILE, piped stdin is read instead)
        master, slave = pty.openpty()
        try:
            r = subprocess.run([exe] + argv[1:], capture_output=True, text=True, stdin=slave,
                               env=dict(os.environ, NO_COLOR="1"))
        finally:
            os.close(slave)
            os.close(master)
        assert r.returncode == 0, r.stderr
        assert "player" in r.stdout and "alice" in r.stdout


def test_fantasyland_subcommand(capsys):
    code, out, err = run(capsys, "fantasyland", "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c")
    assert code == 0 and "Royal Flush" in out and "royalties 46" in out
    code, out, err = run(capsys, "fantasyland", "As Ks")
    assert code == 2 and "takes 14 to 17 cards" in err
    from ofc_fast.cli import build_parser
    assert "fantasyland" in build_parser().format_help()


def test_fantasyland_is_an_ordinary_subcommand(capsys):
    """Issue 12: the shared rules options, the solver's own, JSON as before."""
    from ofc_fast import solve_fantasyland, variant
    cards = "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c"
    code, out, err = run(capsys, "fantasyland", *cards.split(), "--variant", "classic",
                         "--option", "finnish=true", "--objective", "royalties", "--json")
    assert code == 0, err
    want = solve_fantasyland(cards, variant("classic", finnish=True), "royalties")
    assert orjson.loads(out) == orjson.loads(orjson.dumps(want.to_dict()))
    code, out, err = run(capsys, "fantasyland", cards + " 6c", "--repeat-value", "5",
                         "--in-fantasyland", "2")
    assert code == 0 and "a repeat is worth 5" in out
    for argv, text in [(["--variant", "nope"], "unknown variant 'nope'"),
                       (["--option", "repeat_limit=-1"], "repeat_limit"),
                       (["--repeat-value", "1e300"], "fantasyland_value must be a finite number")]:
        code, out, err = run(capsys, "fantasyland", cards + " 6c", *argv)
        assert code == 2 and text in err and "Traceback" not in err, (argv, err)
    with pytest.raises(SystemExit) as stop:             # a usage error, as argparse's
        main(["fantasyland", cards + " 6c", "--in-fantasyland", "0"])
    assert stop.value.code == 2 and "argument --in-fantasyland: expected an integer 1 .. 255, " \
        "got '0'" in capsys.readouterr().err
    code, out, err = run(capsys, "fantasyland", "As Ks Xx 2c")
    assert code == 2 and err.startswith("ofc-fast: ") and out == ""


def _short_options():
    """{short option: {(subcommand, dest)}} over every subcommand."""
    import argparse

    from ofc_fast.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    seen: dict = {}
    for name, p in sub.choices.items():
        for action in p._actions:
            for opt in action.option_strings:
                if len(opt) == 2 and opt != "-h":
                    seen.setdefault(opt, set()).add((name, action.dest))
    return seen, set(sub.choices)


def test_a_short_option_means_one_thing_in_every_subcommand():
    seen, commands = _short_options()
    assert {"score", "show", "report", "fantasyland"} <= commands
    for opt, uses in seen.items():
        assert len({dest for _, dest in uses}) == 1, (opt, uses)
    assert {dest for _, dest in seen["-o"]} == {"output"}


LAYOUT = "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"
FL_CARDS = "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c"


def _integer_options():
    """(subcommand, option, its IntRange) of every integer option of every
    subcommand, read from the parser itself; an option of argparse's plain
    ``int`` (no range) fails here."""
    import argparse

    from ofc_fast.cli import build_parser
    from ofc_fast.cli.parser import IntRange
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for name, p in sub.choices.items():
        for action in p._actions:
            assert action.type is not int, (name, action.option_strings)
            if isinstance(action.type, IntRange):
                found.append((name, action.option_strings[-1], action.type))
    return found


def _base(command, tmp_path):
    return {"score": [sample_path(), "-q", "--no-summary"], "report": [sample_path(), "-q"],
            "show": [LAYOUT], "fantasyland": [FL_CARDS],
            "selfplay": ["--hands", "4", "-o", str(tmp_path / "s.jsonl"), "-q",
                         "--no-summary"]}[command]


def test_every_integer_option_of_every_command_is_range_checked(tmp_path, capsys):
    """Walks the parser's integer options: a value out of the option's range,
    or no integer at all, is a usage error (exit status 2, one line naming
    the option and quoting the value), before anything runs (before: `show
    --in-fantasyland 300` ended in "internal error ... OverflowError")."""
    options = _integer_options()
    assert {(c, o) for c, o, _ in options} >= {
        ("show", "--in-fantasyland"), ("show", "--index"), ("fantasyland", "--in-fantasyland"),
        ("score", "--chunk-size"), ("report", "--chunk-size"), ("selfplay", "--hands"),
        ("selfplay", "--players"), ("selfplay", "--seed"), ("selfplay", "--games"),
        ("selfplay", "--threads")}
    for command, option, rng in options:
        base = _base(command, tmp_path)
        want = f"{rng.lo:,} .. {rng.hi:,}" if rng.hi is not None else f">= {rng.lo:,}"
        bad = [str(rng.lo - 1), str(-10**30), "1.5", "x", "", "9" * 5000]
        if rng.hi is not None:
            bad += [str(rng.hi + 1), str(10**30)]
        for value in bad:
            with pytest.raises(SystemExit) as stop:
                main([command, *base, option, value])
            err = capsys.readouterr().err
            assert stop.value.code == 2, (command, option, value)
            last = err.strip().splitlines()[-1]
            assert last.startswith(f"ofc-fast {command}: error: argument {option}: expected "
                                   f"an integer {want}, got "), (command, option, value, err)
            assert len(last) < 250 and "Traceback" not in err


@pytest.mark.slow
def test_every_integer_option_at_its_bounds_runs_or_is_a_library_error(tmp_path, capsys):
    """The least value of each integer option, and its greatest (10**30 where
    the command sets no bound: the library's checks say more): a run, or
    exit status 2 with the library's message, never an internal error."""
    for command, option, rng in _integer_options():
        base = _base(command, tmp_path)
        for value in [rng.lo, rng.hi if rng.hi is not None else 10**30]:
            code = main([command, *base, option, str(value)])
            err = capsys.readouterr().err
            assert code in (0, 2) and "Traceback" not in err and "internal error" not in err, \
                (command, option, value, err)


def test_rules_options_are_shared():
    from ofc_fast.cli import build_parser
    for command in ("score", "show", "report", "fantasyland"):
        text = build_parser().parse_args([command, "x", "--variant", "classic",
                                          "--option", "finnish=true"])
        assert text.variant == "classic" and text.option == [("finnish", True)], command


@pytest.mark.slow
def test_python_dash_m_ofc_fast_is_the_same_command(tmp_path):
    """``python -m ofc_fast`` runs ofc_fast/__main__.py: the same CLI as ``ofc-fast``."""
    import ofc_fast
    # the package under test, wherever it is (installed, or a checkout built in place)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(ofc_fast.__file__)))
    r = subprocess.run([sys.executable, "-m", "ofc_fast", "--version"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == f"ofc-fast {ofc_fast.__version__}"
    path = write(tmp_path / "h.jsonl", [hand("h1")])
    r = subprocess.run([sys.executable, "-m", "ofc_fast", "score", path, "-q"], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "alice" in r.stdout, r.stderr
    r = subprocess.run([sys.executable, "-m", "ofc_fast", "fantasyland", "As Ks"], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "takes 14 to 17 cards" in r.stderr
    r = subprocess.run([sys.executable, "-m", "ofc_fast"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "usage: ofc-fast" in r.stdout


# ------------------------------------------- issue 9: trust at the boundaries (CLI)
def cli(tmp_path, *argv, **kw):
    """Run ``ofc-fast`` in a child process from tmp_path (so that the source
    tree does not shadow the package under test); a crash fails the test."""
    if "stdout" not in kw and "stderr" not in kw:
        kw["capture_output"] = True
    r = subprocess.run([sys.executable, "-m", "ofc_fast.cli", *argv], cwd=tmp_path,
                       timeout=120, **kw)
    assert r.returncode >= 0, f"crashed with signal {-r.returncode}"
    return r


def _bad_files(tmp_path):
    """Files that the first release answered with a traceback and exit status 1."""
    import gzip

    import pyarrow as pa
    import pyarrow.parquet as pq
    files = {}
    blob = gzip.compress(b"".join(orjson.dumps(hand(f"h{i}")) + b"\n" for i in range(200)))
    (tmp_path / "cut.jsonl.gz").write_bytes(blob[:len(blob) // 2])
    files["cut.jsonl.gz"] = "corrupt or truncated compressed data"
    files["big.jsonl"] = "points must be an integer (int64), got 1e+20"
    write(tmp_path / "big.jsonl", [hand("a", a=dict(A, points=1e20))])
    files["fl.jsonl"] = "in_fantasyland must be an integer (0-255, or true/false), got 92233"
    (tmp_path / "fl.jsonl").write_bytes(
        orjson.dumps(hand("a"))[:-3] + b', "in_fantasyland": 9223372036854775808}]}\n')
    files["opts.jsonl"] = "unknown variant: hand 'a': foul_penalty must be 0 .. 10,000,000"
    write(tmp_path / "opts.jsonl", [hand("a", options={"foul_penalty": 1e30})])
    (tmp_path / "q.csv").write_text("hand_id,seat,name,top,middle,bottom\n"
                                    'h1,0,"alice,Qs Qd 2c,9h 9d 9c 5s 5d,7h 7d 7c 7s 2d\n'
                                    "h1,1,bob,Ks Kd 3c,2h 3h 4h 5h 6d,Tc Td Ts Th 8d\n")
    files["q.csv"] = "(line 2): malformed CSV"
    src = write(tmp_path / "src.jsonl", [hand("a"), hand("b")])
    assert main(["score", src, "-q", "-o", str(tmp_path / "ok.parquet")]) == 0
    t = pq.read_table(tmp_path / "ok.parquet")
    pq.write_table(t.set_column(t.column_names.index("seat"), "seat",
                                pa.array(["0", "1", "0", "1"])), tmp_path / "type.parquet")
    files["type.parquet"] = "column 'seat' has type"
    (tmp_path / "bad.parquet").write_bytes((tmp_path / "ok.parquet").read_bytes()[:200])
    files["bad.parquet"] = "not a readable Parquet file"
    return files


@pytest.mark.slow
def test_bad_files_exit_2_with_one_line(tmp_path):
    pytest.importorskip("pyarrow")
    for name, text in _bad_files(tmp_path).items():
        for extra in ([], ["--skip-bad"]):
            (tmp_path / "out.csv").unlink(missing_ok=True)
            r = cli(tmp_path, "score", name, "-q", "-o", "out.csv", *extra, text=True)
            record_level = name.endswith(".jsonl")
            if record_level and extra:
                assert r.returncode == 0 and text in r.stderr, (name, r.stderr)
                continue
            assert r.returncode == 2, (name, r.returncode, r.stderr)
            assert "Traceback" not in r.stderr and text in r.stderr, (name, r.stderr)
            assert r.stderr.startswith(f"ofc-fast: {name}") and len(r.stderr) < 600, r.stderr
            assert not (tmp_path / "out.csv").exists()


def test_parquet_non_integral_values_are_skipped_not_truncated(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq
    src = write(tmp_path / "src.jsonl", [hand("a", a=dict(A, points=6), b=dict(B, points=-6)),
                                         hand("b", a=dict(A, points=6), b=dict(B, points=-6))])
    assert main(["score", src, "-q", "-o", str(tmp_path / "h.parquet")]) == 0
    t = pq.read_table(tmp_path / "h.parquet").drop(["recorded_points"])
    t = t.set_column(t.column_names.index("points"), "points", pa.array([6.0, -6.0, 6.7, -6.0]))
    pq.write_table(t, tmp_path / "f.parquet")
    code, out, err = run(capsys, "score", str(tmp_path / "f.parquet"), "--verify", "--skip-bad")
    assert code == 0 and "read 2 hands: 1 scored, 1 skipped" in err
    assert "row 3: bad value: hand 'b', seat 0 (alice): points must be an integer (int64), " \
           "got 6.7" in err


@pytest.mark.slow
def test_output_that_is_the_input_is_refused(tmp_path, capsys):
    path = write(tmp_path / "h.jsonl", [hand("a"), hand("b")])
    before = open(path, "rb").read()
    (tmp_path / "l.jsonl").symlink_to("h.jsonl")
    for argv in (["score", path, "-o", path], ["score", path, "-o", str(tmp_path / "l.jsonl")],
                 ["score", path, "--summary-json", path], ["report", path, "--json", path]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and "the output is the input file" in err and out == ""
        assert open(path, "rb").read() == before
    with open(path, "ab") as same:          # ofc-fast score h.jsonl -o - >> h.jsonl
        r = cli(tmp_path, "score", "h.jsonl", "-o", "-", stdout=same, stderr=subprocess.PIPE)
    assert r.returncode == 2 and b"stdout: the output is the input file" in r.stderr
    assert open(path, "rb").read() == before


@pytest.mark.slow
def test_piped_stdin_is_read_not_the_sample(tmp_path):
    path = write(tmp_path / "h.jsonl", [hand("a"), hand("b")])
    for argv in (["score"], ["score", "-"], ["report"]):
        with open(path, "rb") as f:
            r = cli(tmp_path, *argv, stdin=f, text=True)
        assert r.returncode == 0, r.stderr
        assert "read 2 hands: 2 scored, 0 skipped (4 player-hands) from <stdin>" in \
            r.stderr + r.stdout
        assert "carol" not in r.stdout            # a player of the bundled sample
    r = cli(tmp_path, "score", input="", text=True)          # an empty pipe
    assert r.returncode == 0 and "no hands on stdin" in r.stderr
    # /dev/null is no data piped in (a script's or a CI job's stdin): README's
    # quick start scores the sample there as in a terminal
    r = cli(tmp_path, "score", stdin=subprocess.DEVNULL, text=True)
    assert r.returncode == 0 and "read 1,479 hands" in r.stderr and "carol" in r.stdout
    with open(tmp_path / "o.csv", "w") as f:          # CSV on stdin
        assert main(["score", path, "-q", "-o", f.name]) == 0
    with open(tmp_path / "o.csv", "rb") as f:
        r = cli(tmp_path, "score", "--input-format", "csv", stdin=f, text=True)
    assert r.returncode == 0 and "read 2 hands" in r.stderr


def _mismatching(tmp_path, n=300):
    with open(sample_path(), "rb") as f:
        recs = [orjson.loads(x) for x in f][:n]
    for r in recs[::2]:
        r["players"][0]["points"] += 1
    return write(tmp_path / "mm.jsonl", recs)


def _head(tmp_path, *argv, lines=1):
    """``ofc-fast ARGV | head -n LINES``: the exit status of ofc-fast."""
    p = subprocess.Popen([sys.executable, "-m", "ofc_fast.cli", *argv], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for _ in range(lines):
        p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.stderr.close()
    code = p.wait(timeout=120)
    assert code >= 0 and "Traceback" not in err and "Exception ignored" not in err, err
    return code, err


@pytest.mark.slow
def test_verify_into_head_exits_1(tmp_path):
    mm = _mismatching(tmp_path)
    for _ in range(3):          # "sometimes 0" in the first release
        assert _head(tmp_path, "score", mm, "--verify")[0] == 1
    assert _head(tmp_path, "score", mm, "--verify", "-o", "-")[0] == 1
    assert _head(tmp_path, "score", sample_path(), "--verify")[0] == 0


@pytest.mark.slow
def test_closed_stdout_pipe_stops_quietly(tmp_path):
    big = write(tmp_path / "big.jsonl", [orjson.loads(x) for x in open(sample_path(), "rb")] * 8)
    code, err = _head(tmp_path, "score", big, "-o", "-", "-q")
    assert code == 0 and err == ""
    code, err = _head(tmp_path, "score", big, "-o", "-", "--format", "csv", lines=3)
    assert code == 0 and "Traceback" not in err


def test_write_errors_are_reported_against_the_output(tmp_path, capsys):
    path = write(tmp_path / "h.jsonl", [hand("a"), hand("b")])
    for argv, name in ((["-o", "/dev/full", "--format", "jsonl"], "/dev/full"),
                       (["--summary-json", "/dev/full"], "/dev/full"),
                       (["-o", str(tmp_path / "no" / "o.csv")], str(tmp_path / "no" / "o.csv"))):
        code, out, err = run(capsys, "score", path, "-q", *argv)
        assert code == 2 and err.startswith(f"ofc-fast: {name}: cannot"), err
        assert path not in err


@pytest.mark.slow
@pytest.mark.parametrize("bad", [
    dict(b=dict(B, middle="Zz " * 2_000_000)),          # a 6 MB field
    dict(b=dict(B, middle="Ks " * 1_000_000)),          # a million cards in a row
    dict(b=dict(B, points="9" * 1_000_000)),
    dict(options={"royalties": "r" * 1_000_000}),
    dict(b=dict(B, top="Xx Kd 3c"), id="c" * 1_000_000)],
    ids=["cards", "row size", "points", "option", "id"])
def test_huge_fields_make_short_messages(tmp_path, bad):
    bad = dict(bad)
    write(tmp_path / "h.jsonl", [hand("a"), hand(bad.pop("id", "b"), **bad)])
    for extra in ([], ["--skip-bad"]):
        r = cli(tmp_path, "score", "h.jsonl", "-q", *extra, text=True)
        assert r.returncode == (0 if extra else 2) and len(r.stderr) < 2000, len(r.stderr)


def test_interrupted_run_leaves_no_output(tmp_path, capsys, monkeypatch):
    from ofc_fast.report import Summary
    big = write(tmp_path / "h.jsonl", [orjson.loads(x) for x in open(sample_path(), "rb")])
    calls = []

    def add(self, chunk):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
    monkeypatch.setattr(Summary, "add", add)
    for name in ("new.parquet" if HAVE_PYARROW else "new.jsonl", "old.csv"):
        out = tmp_path / name
        if name.startswith("old"):
            out.write_text("old results")
        code, _, err = run(capsys, "score", big, "-o", str(out), "--chunk-size", "100")
        assert code == 130 and "interrupted" in err
        assert (out.read_text() == "old results") if name.startswith("old") else not out.exists()
        calls.clear()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl", "old.csv"]


def test_internal_errors_are_one_line_and_not_status_1(tmp_path, capsys, monkeypatch):
    import ofc_fast.io as fio

    def broken(*a, **k):
        raise RuntimeError("oops")
    monkeypatch.setattr(fio, "score_file", broken)
    code, out, err = run(capsys, "score", sample_path())
    assert code == 3 and err.startswith("ofc-fast: internal error") and err.count("\n") == 1


def test_skip_bad_summary_adds_up(tmp_path, capsys):
    recs = [hand("a"), b"{bad", hand("c", b=dict(B, top="Ks")), hand("d")]
    path = write(tmp_path / "h.jsonl", recs)
    code, out, err = run(capsys, "score", path, "--skip-bad")
    assert code == 0 and "read 4 hands: 2 scored, 2 skipped (4 player-hands)" in err
    code, out, err = run(capsys, "report", path, "--skip-bad", "-q")
    assert code == 0 and "read 4 hands: 2 scored, 2 skipped" in out


@pytest.mark.slow
def test_permission_and_broken_fifo_are_write_errors(tmp_path, capsys, monkeypatch):
    import errno
    import threading
    path = write(tmp_path / "h.jsonl", [orjson.loads(x) for x in open(sample_path(), "rb")])
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def read_a_little():
        with open(fifo, "rb") as f:
            f.read(10)
    t = threading.Thread(target=read_a_little, daemon=True)
    t.start()
    r = cli(tmp_path, "score", "h.jsonl", "-q", "-o", "fifo", "--format", "jsonl", text=True)
    t.join(timeout=10)
    assert r.returncode == 2 and r.stderr.startswith("ofc-fast: fifo: cannot write: [Errno 32]")
    real_open = os.open

    def no_permission(name, *a, **k):
        if str(name).endswith(".tmp"):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(name, *a, **k)
    monkeypatch.setattr(os, "open", no_permission)
    code, out, err = run(capsys, "score", path, "-q", "-o", str(tmp_path / "o.csv"))
    assert code == 2 and err == f"ofc-fast: {tmp_path / 'o.csv'}: cannot create: [Errno 13] " \
                                "Permission denied\n"
