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


def test_score_outputs_every_format(tmp_path, capsys):
    for fmt in ("jsonl", "csv", "parquet"):
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
    assert code == 0 and data["hands"] == SAMPLE_HANDS and data["player_hands"] == SAMPLE_PLAYER_HANDS
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
    head = f"{path}:18: hand {target['id']!r}, seat 1 ({name}): recorded {ours + 3:+d}, ours {ours:+d}"
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
    for extra in ([], ["--variant", "classic"], ["--variant", "classic", "--option",
                                                  "finnish=true", "--option", f"royalties={custom}"]):
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
