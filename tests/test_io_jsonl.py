"""The JSON Lines fast path (ofc_fast._jsonl) against the general reader.

Generated lines, good and mutated (wrong types, huge numbers, escapes,
unknown keys, other rules, bad cards, stray bytes, broken JSON), are read by
both readers (``read_jsonl(fast=True)`` and ``fast=False``): every line must
come out the same, hand by hand (cards, names, numbers, discards, our
points) or error by error (same message), and chunk by chunk.  The default
run is short and derandomized; ``pytest -m fuzz`` runs many more.
"""
from __future__ import annotations

import io
import json
import random

import numpy as np
import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ofc_fast.io import jsonl
from ofc_fast.io.jsonl import read_jsonl
from ofc_fast.records.builder import register_scanned_rules
from readers_agree import examples, outcome
from test_io_fuzz import card_texts

BASE = {"format": "ofc-hand/1", "id": "h1", "variant": "pineapple", "players": [
    {"name": "alice", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d",
     "in_fantasyland": 0, "discards": "Ah 3d 8c 4s", "points": 12},
    {"name": "bob", "top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d",
     "discards": "Js Jh 6s 9s", "points": -12}]}
CAROL = {"name": "carol", "top": "Ac Ad 4c", "middle": "3s 4s 5c 6c 7s",
         "bottom": "Jd Qc Kc 2s 8h"}

VALUES = [None, True, False, 0, 1, -1, 3, 255, 256, -300, 2 ** 62, 2 ** 63, -(2 ** 63), 10 ** 18,
          10 ** 19, 10 ** 30, 3.0, 2.5, 1e30, "12", " -3 ", "lots", "", "é", "a\"b", "\\n",
          [], [1], {}, {"a": 1}, "Ks Qd 2c", "ks qd 2c", "K♠ Qd 2c"]
NAMES = ["alice", "bob", "", "José", "名前", "a\"q", "tab\there", "x" * 300, None, 7, ["x"]]
VARIANTS = [None, "pineapple", "classic", "turbo", "big-pineapple", "pinapple", "", 3, "Pineapple"]
OPTIONS = [None, {}, {"finnish": True}, {"american": True, "finnish": False}, {"bogus": 1},
           {"foul_penalty": 1e30}, {"royalties": "american"}, [], "x", {"finnish": "yes"}]
KEYS = ["top", "middle", "bottom", "name", "in_fantasyland", "discards", "points", "rows",
        "third", "second", "extra", "royalties", "foul"]
JUNK = ["{", "}", "[", "]", ",", ":", '"', "\\", " ", "\t", "\r", "0", "-", "e", ".", "x",
        "\x00", "\x0c", "é", "♠", "null", "true"]


@st.composite
def lines(draw):
    """One line: a record built from BASE with a few changes, written as JSON
    (escaped or not, spaced or not), then maybe mangled byte by byte."""
    rec = json.loads(json.dumps(BASE))
    rec["id"] = draw(st.sampled_from(["h1", "h 2", "ид", 17, -5, None, 10 ** 20, 2.5, "h\"3"]))
    if draw(st.booleans()):
        rec["players"].append(dict(CAROL))
    for _ in range(draw(st.integers(0, 4))):
        what = draw(st.integers(0, 9))
        ps = rec.get("players")
        p = draw(st.sampled_from(ps)) if isinstance(ps, list) and ps and \
            all(isinstance(x, dict) for x in ps) else {}
        if what == 0:
            p[draw(st.sampled_from(["top", "middle", "bottom", "discards"]))] = draw(card_texts())
        elif what == 1:
            p[draw(st.sampled_from(KEYS))] = draw(st.sampled_from(VALUES))
        elif what == 2:
            p.pop(draw(st.sampled_from(KEYS)), None)
        elif what == 3:
            p["name"] = draw(st.sampled_from(NAMES))
        elif what == 4:
            rec["variant"] = draw(st.sampled_from(VARIANTS))
        elif what == 5:
            rec["options"] = draw(st.sampled_from(OPTIONS))
        elif what == 6:
            rec[draw(st.sampled_from(["format", "extra", "players", "id", "variant"]))] = \
                draw(st.sampled_from(VALUES + ["ofc-hand/1", "ofc-hand/2"]))
        elif what == 7:
            rec.pop(draw(st.sampled_from(["format", "id", "variant", "players"])), None)
        elif what == 8:
            rec["players"] = list(ps if isinstance(ps, list) else [])[:draw(st.integers(0, 5))] + \
                [dict(CAROL)] * draw(st.integers(0, 2))
        else:
            p["extra"] = draw(st.sampled_from([{"nested": [1, 2]}, [1, "a"], "plain", 5, 1.5]))
    style = draw(st.integers(0, 3))
    if style == 0:
        text = json.dumps(rec, separators=(",", ":"), ensure_ascii=False)
    elif style == 1:
        text = json.dumps(rec, ensure_ascii=True)
    elif style == 2:
        text = json.dumps(rec, indent=None, separators=(" , ", " : "), ensure_ascii=False)
    else:
        text = "  " + json.dumps(rec, ensure_ascii=False) + " \r"
    data = text.encode()
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        k = draw(st.integers(0, len(data)))
        op = draw(st.integers(0, 2))
        if op == 0:
            data = data[:k] + data[k + 1:]
        elif op == 1:
            data = data[:k] + draw(st.sampled_from(JUNK)).encode() + data[k:]
        else:
            data = data[:k] + draw(st.sampled_from([b"\xff", b"\xed\xa0\x80", b"\xc3"])) + data[k:]
    if draw(st.integers(0, 5)) == 0:   # the same key twice
        data = data.replace(b'"points"', b'"points": 1, "points"', 1)
    return data.replace(b"\n", b" ")


def read_all(data: bytes, fast: bool, skip_bad: bool, chunk_size: int):
    return outcome(read_jsonl(io.BytesIO(data), source="f", chunk_size=chunk_size,
                              skip_bad=skip_bad, fast=fast))


def _compare(n: int, skip_bad: bool, derandomize: bool):
    @examples(n, derandomize)
    @given(st.lists(lines(), min_size=1, max_size=12), st.integers(1, 5), st.booleans())
    def check(got_lines, chunk_size, blank):
        data = b"\n".join(got_lines) + (b"\n\n  \n" if blank else b"\n")
        assert read_all(data, True, skip_bad, chunk_size) == \
            read_all(data, False, skip_bad, chunk_size)
    check()


@pytest.mark.slow
@pytest.mark.parametrize("skip_bad", [True, False])
def test_fast_path_reads_every_line_as_the_general_reader(skip_bad):
    _compare(150, skip_bad, derandomize=True)


@pytest.mark.fuzz
@pytest.mark.parametrize("skip_bad", [True, False])
def test_fast_path_reads_every_line_as_the_general_reader_long(skip_bad):
    _compare(3000, skip_bad, derandomize=False)


def test_fast_path_takes_the_common_shape(tmp_path):
    """The bench's shape is read by the fast path (no line falls back)."""
    lines_ = []
    for i in range(50):
        rec = json.loads(json.dumps(BASE))
        rec["id"] = f"h{i}"
        rec["options"] = {"finnish": True} if i % 2 else None
        rec["players"][1]["in_fantasyland"] = True
        lines_.append(orjson.dumps(rec))
    from ofc_fast._scan import DONE, NEW_RULES
    from ofc_fast._scan_json import LineScanner
    sc = LineScanner()
    block = b"\n".join(lines_) + b"\n"
    pos, line, table = 0, 1, []
    while True:
        what, pos, _, line = sc.scan(block, pos, line, 1 << 30)
        if what == NEW_RULES:
            register_scanned_rules(sc, table, jsonl.DEFAULT_RULES)
            continue
        assert what == DONE
        break
    assert sc.n == 50 and pos == len(block) and line == 51
    cols = sc.take()
    assert cols["has_points"].all() and cols["in_fantasyland"].tolist()[:2] == [0, 1]
    assert sc.names == ["alice", "bob"] and cols["ids"][:2] == ["h0", "h1"]


def test_unusual_lines_keep_their_fields(tmp_path):
    """Lines with unknown fields (plain or nested) are written back whole."""
    rec = json.loads(json.dumps(BASE))
    rec["room"] = {"table": 7, "stakes": [1, 2]}
    rec["players"][0]["seat_time"] = 12
    plain = json.loads(json.dumps(BASE))
    plain["note"] = "kept"
    path = tmp_path / "h.jsonl"
    path.write_bytes(orjson.dumps(rec) + b"\n" + orjson.dumps(plain) + b"\n")
    import ofc_fast.io as fio
    fio.score_file(str(path), str(tmp_path / "o.jsonl"))
    back = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert back[0]["room"] == rec["room"] and back[0]["players"][0]["seat_time"] == 12
    assert back[1]["note"] == "kept" and back[1]["players"][0]["royalties"] >= 0


@pytest.mark.slow
def test_many_rules_and_names():
    """More than 64 sets of rules and thousands of names: still the same."""
    rng = random.Random(3)
    out = []
    for i in range(3000):
        rec = json.loads(json.dumps(BASE))
        rec["id"] = i
        rec["options"] = {"foul_penalty": i % 80}
        rec["players"][0]["name"] = f"p{rng.randrange(5000)}"
        out.append(orjson.dumps(rec))
    data = b"\n".join(out)
    assert read_all(data, True, True, 700) == read_all(data, False, True, 700)


def test_the_fast_chunk_feeds_the_summary():
    import ofc_fast.report as rep
    data = b"\n".join(orjson.dumps(dict(BASE, id=f"h{i}")) for i in range(5))
    got = []
    for fast in (True, False):
        s = rep.Summary()
        for c in read_jsonl(io.BytesIO(data), fast=fast):
            assert (c.name_codes is not None) == fast
            s.add(c.score())
        got.append([(p.name, p.hands, p.net, p.royalties) for p in s.players()])
    assert got[0] == got[1] and [x[:2] for x in got[0]] == [("alice", 5), ("bob", 5)]
    assert np.array_equal(*[next(read_jsonl(io.BytesIO(data), fast=f)).cards() for f in (1, 0)])


@pytest.mark.parametrize("spacing", ['"points": null', '"points":null', '"points" : null '])
def test_null_points_are_not_recorded_on_both_paths(tmp_path, capsys, monkeypatch, spacing):
    """``"points": null`` is "not recorded" (docs/formats.md), never a recorded
    0, on the fast path as on the general reader: the chunk's columns, the
    JSON Lines writer (no ``recorded_points`` for it) and ``--verify`` (3 of
    the 6 player-hands recorded, no mismatch for the others) agree between the two (issue 16)."""
    from ofc_fast.cli import main
    lines = []
    for i, (a, b) in enumerate([(None, -6), (None, None), (6, -5)]):
        rec = json.loads(json.dumps(BASE))
        rec["id"] = f"h{i}"
        for p, pts in zip(rec["players"], (a, b), strict=True):
            p["points"] = pts
        lines.append(orjson.dumps(rec).replace(b'"points":null', spacing.encode()))
    data = b"\n".join(lines) + b"\n"
    assert data.count(spacing.encode()) == 3
    for fast in (True, False):
        (c,) = read_jsonl(io.BytesIO(data), source="f", fast=fast)
        assert c.has_recorded.tolist() == [False, True, False, False, True, True], fast
        assert c.recorded.tolist() == [0, -6, 0, 0, 6, -5], fast
        c.score()
        assert c.points.tolist() == [6, -6] * 3
        recs = jsonl.chunk_records(c)
        assert ["recorded_points" in p for r in recs for p in r["players"]] == \
            [False] * 5 + [True]
        assert recs[2]["players"][1]["recorded_points"] == -5
    path = tmp_path / "h.jsonl"
    path.write_bytes(data)
    outputs = []
    for fast in (True, False):
        if not fast:
            import functools
            monkeypatch.setattr(jsonl, "read_jsonl", functools.partial(read_jsonl, fast=False))
        out = tmp_path / f"o{fast}.jsonl"
        code = main(["score", str(path), "--verify", "-q", "--no-summary", "-o", str(out)])
        text, _ = capsys.readouterr()
        assert code == 1
        assert "1 of 3 recorded player-hands differ" in text
        assert "h2" in text and "h0" not in text and "h1" not in text
        outputs.append((text, out.read_bytes()))
    assert outputs[0] == (outputs[1][0], outputs[1][1])
