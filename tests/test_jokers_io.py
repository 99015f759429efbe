"""Jokers in files (issue 27 item 1; docs/jokers.md, "Files"): the joker
options as record options, X1/X2/Xj read by every reader (the C scanners and
the general readers numbering each Xj across the player's layout alike),
written by every writer, the substitutions in every scored output, the
errors, and the command line."""
from __future__ import annotations

import io
import json

import numpy as np
import orjson
import pytest

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast import cli
from ofc_fast.errors import RecordError
from ofc_fast.io.csv import csv_bytes, read_csv
from ofc_fast.io.jsonl import read_jsonl
from ofc_fast.records import Rules, chunk_from_records

pa = pytest.importorskip("pyarrow")

# Two players; seat 0 holds jokers.  A: the joker completes QQ on top (Qh).
A = {"name": "ann", "top": "Qs X1 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
B = {"name": "bob", "top": "As Ad 3c", "middle": "Kh Kd Kc 4s 4d", "bottom": "Th Jh Qh Ks Ah"}
# Xj twice across rows: the top's is X1, the middle's X2 (a full house of fives).
C = {"name": "cat", "top": "Qs Xj 2c", "middle": "9h 9d 9c 5s Xj", "bottom": "7h 7d 7c 7s 2d"}
PLAIN = {"name": "dan", "top": "Js Jc 3d", "middle": "2h 3h 4h 5h 6d",
         "bottom": "Tc Td Ts 8c 8d"}


def _records():
    return [{"id": "h1", "variant": "pineapple", "options": {"jokers": 1}, "players": [A, B]},
            {"id": "h2", "variant": "pineapple", "options": {"jokers": 2}, "players": [C, B]},
            {"id": "h3", "variant": "pineapple", "players": [PLAIN, B]},
            {"id": "h4", "variant": "progressive",
             "options": {"jokers": 1, "joker_objective": "strength", "joker_top_natural": True},
             "players": [{"top": "Qs Qh X1", "middle": "Ks Kh Ad Jd 9d",
                          "bottom": "As Ah Ac 8s 7s"}, PLAIN]}]


def _jsonl(records) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in records)


def _expected(rec):
    """score_tables on the layouts parsed by parse_layout (the core's reader)."""
    v = ofc.variant(rec["variant"], **rec.get("options", {}))
    lays = np.stack([ofc.parse_layout(" / ".join(p[r] for r in v.row_names), v)
                     for p in rec["players"]])
    r = ofc.score_tables(lays[None], v, details=True)
    return lays, r.points[0].tolist(), r.royalty_total[0].tolist(), r.substitutes[0]


def _subs_text(subs) -> str | None:
    held = [c for c in subs.tolist() if c != ofc.EMPTY]
    return ofc.format_cards(held) if held else None


def _scored(chunks):
    """(cards, points, royalties, substitutes text) of every row, in order."""
    cards, pts, roy, subs = [], [], [], []
    for c in chunks:
        c.score()
        cards += c.cards(13).tolist()
        pts += c.points.tolist()
        roy += c.royalty_total.tolist()
        codes, texts = c.substitute_codes()
        subs += [texts[k] or None for k in codes.tolist()]
    return cards, pts, roy, subs


def _want():
    cards, pts, roy, subs = [], [], [], []
    for rec in _records():
        lays, p, r, s = _expected(rec)
        cards += lays.tolist()
        pts += p
        roy += r
        subs += [_subs_text(x) for x in s]
    return cards, pts, roy, subs


def test_values_match_the_core():
    got = _scored([chunk_from_records(_records())])
    want = _want()
    assert got == want
    cards, pts, roy, subs = got
    assert cards[0][:3] == [43, 52, 0]                 # X1 read
    assert cards[2][1] == 52 and cards[2][7] == 53     # Xj across rows: X1 on top, X2 middle
    assert subs[:4] == ["Qh", None, "Qh 5h", None]
    assert roy[0] == 29 and pts[0] == -pts[1]
    assert subs[6] == "As"                              # giovinco's case, docs/jokers.md


@pytest.mark.parametrize("fast", [True, False])
def test_jsonl_readers_agree(fast):
    chunks = list(read_jsonl(io.BytesIO(_jsonl(_records())), source="f", fast=fast))
    assert _scored(chunks) == _want()


def _csv_text(records) -> bytes:
    return bytes(csv_bytes(chunk_from_records(records), header=True))


@pytest.mark.parametrize("fast", [True, False])
def test_csv_readers_agree(fast):
    data = _csv_text(_records())
    assert b"X1" in data and b"__" not in data
    chunks = list(read_csv(io.BytesIO(data), source="f", fast=fast))
    assert _scored(chunks) == _want()


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("seat_text", ["Qs Xj 2c|9h 9d 9c 5s Xj", "Qs xJ 2c|9h 9d 9c 5s X2",
                                       "Qs X2 2c|9h 9d 9c 5s Xj", "Qs X1 2c|9h 9d 9c 5s Xj"])
def test_csv_xj_numbering_across_rows(fast, seat_text):
    top, middle = seat_text.split("|")
    rec = {"id": 1, "options": {"jokers": 2},
           "players": [dict(C, top=top, middle=middle), B]}
    lays = _expected({"variant": "pineapple", **rec})[0]
    data = b"hand_id,seat,options,top,middle,bottom\n" + "".join(
        f'1,{s},"{{""jokers"": 2}}",{p["top"]},{p["middle"]},{p["bottom"]}\n'
        for s, p in enumerate(rec["players"])).encode()
    (c,) = read_csv(io.BytesIO(data), source="f", fast=fast)
    assert c.cards(13).tolist() == lays.tolist()
    # rows without options (the rules given): the CSV scanner's own path
    plain = b"hand_id,seat,top,middle,bottom\n" + "".join(
        f'1,{s},{p["top"]},{p["middle"]},{p["bottom"]}\n'
        for s, p in enumerate(rec["players"])).encode()
    (c,) = read_csv(io.BytesIO(plain), source="f", fast=fast, rules=Rules(jokers=2))
    assert c.cards(13).tolist() == lays.tolist()
    line = orjson.dumps(rec) + b"\n"
    (c,) = read_jsonl(io.BytesIO(line), source="f", fast=fast)
    assert c.cards(13).tolist() == lays.tolist()


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_round_trip_through_every_format(tmp_path, fmt):
    src = tmp_path / "in.jsonl"
    src.write_bytes(_jsonl(_records()))
    out = tmp_path / f"hands.{fmt}"
    with fio.open_writer(out) as w:
        for c in fio.read_chunks(src):
            w.write(c)
    again = _scored(fio.read_chunks(out))
    assert again == _want()
    scored = tmp_path / f"scored.{fmt}"
    fio.score_file(src, scored)
    assert _scored(fio.read_chunks(scored)) == _want()


def test_scored_outputs_carry_substitutes(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(_jsonl(_records()))
    subs = _want()[3]
    # JSON Lines: only players with a joker get the key
    fio.score_file(src, tmp_path / "s.jsonl")
    lines = [json.loads(x) for x in (tmp_path / "s.jsonl").read_text().splitlines()]
    got = [p.get("substitutes") for rec in lines for p in rec["players"]]
    assert got == subs
    assert "substitutes" not in lines[2]["players"][0]
    # CSV: a column, empty without a joker
    fio.score_file(src, tmp_path / "s.csv")
    import csv
    rows = list(csv.DictReader(open(tmp_path / "s.csv", newline="")))
    assert [r["substitutes"] or None for r in rows] == subs
    # Parquet: a text column, null without a joker
    fio.score_file(src, tmp_path / "s.parquet")
    import pyarrow.parquet as pq
    assert pq.read_table(tmp_path / "s.parquet").column("substitutes").to_pylist() == subs
    # results only
    fio.score_file(src, tmp_path / "r.jsonl", results_only=True)
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [p.get("substitutes") for rec in lines for p in rec["players"]] == subs


def test_frames_and_hand_records_carry_substitutes():
    table = fio.chunk_table(chunk_from_records(_records()))
    out = fio.score_frame(table)
    assert out.column("substitutes").to_pylist() == _want()[3]
    pd = pytest.importorskip("pandas")
    df = fio.score_frame(table.to_pandas())
    assert [None if x is None or (isinstance(x, float) and x != x) else x
            for x in df["substitutes"]] == _want()[3]
    rec = next(fio.read_hands(io.BytesIO(_jsonl(_records()[:1])), "jsonl"))
    r = rec.score()
    assert r.substitutes.tolist() == [[42], [255]] and r.points.tolist() == _want()[1][:2]
    assert pd is not None


@pytest.mark.parametrize("kind", ["arrow", "pandas"])
def test_frames_of_card_text_number_xj_across_the_layout(kind):
    cols = {k: [] for k in ("hand_id", "seat", "name", "variant", "options", "top", "middle",
                            "bottom")}
    for rec in _records():
        for seat, p in enumerate(rec["players"]):
            for k, x in (("hand_id", rec["id"]), ("seat", seat), ("name", p.get("name")),
                         ("variant", rec["variant"]),
                         ("options", orjson.dumps(rec["options"]).decode()
                          if "options" in rec else None)):
                cols[k].append(x)
            for row in ("top", "middle", "bottom"):
                cols[row].append(p[row])
    table = pa.table(cols)
    frame = table if kind == "arrow" else table.to_pandas()
    out = fio.score_frame(frame)
    got = out.column("substitutes").to_pylist() if kind == "arrow" else \
        [None if not isinstance(x, str) else x for x in out["substitutes"]]
    want = _want()
    assert got == want[3]
    points = out.column("points").to_pylist() if kind == "arrow" else out["points"].tolist()
    assert points == want[1]


def test_52_card_outputs_only_gain_an_empty_column(tmp_path):
    recs = [r for r in _records() if "options" not in r]
    src = tmp_path / "plain.jsonl"
    src.write_bytes(_jsonl(recs))
    fio.score_file(src, tmp_path / "s.jsonl")
    assert b"substitutes" not in (tmp_path / "s.jsonl").read_bytes()
    fio.score_file(src, tmp_path / "s.csv")
    head = (tmp_path / "s.csv").read_text().splitlines()[0]
    assert head.endswith(",recorded_points,substitutes")
    assert (tmp_path / "s.csv").read_text().splitlines()[1].endswith(",,")


def test_a_joker_option_without_jokers_changes_nothing():
    plain = {"id": 1, "players": [PLAIN, B]}
    opts = dict(plain, options={"jokers": 2, "joker_cards": "board"})
    a, b = (chunk_from_records([r]).score() for r in (plain, opts))
    assert a.points.tolist() == b.points.tolist()
    assert a.royalty_total.tolist() == b.royalty_total.tolist()
    assert b.substitute_codes()[0].tolist() == [0, 0]


def test_rules_take_jokers():
    assert Rules(jokers=1).options == {"jokers": 1}
    assert Rules("classic", {"finnish": True}, jokers=2).options == {"finnish": True, "jokers": 2}
    assert Rules().options is None
    assert Rules(jokers=0).options is None      # the default: no option written
    assert Rules(options={"jokers": 2, "finnish": True}, jokers=0).options == {"finnish": True}
    rec = {"id": 1, "players": [A, B]}
    c = chunk_from_records([rec], Rules(jokers=1)).score()
    assert c.points.tolist() == _want()[1][:2]
    assert c.hand_rules(0)[2] == {"jokers": 1}


# ---------------------------------------------------------------------- errors
BAD = [
    ({"players": [A, B]}, "X1 is a joker; variant pineapple is played without jokers"),
    ({"options": {"jokers": 1}, "players": [dict(A, top="Qs X2 2c"), B]},
     "X2 is a joker; variant pineapple is played with one joker"),
    ({"options": {"jokers": 2}, "players": [dict(A, top="Qs X3 2c"), B]},
     "a joker is X1, X2 or Xj"),
    ({"options": {"jokers": 2}, "players": [dict(A, middle="9h 9d 9c 5s X1"), B]},
     "X1 appears twice"),
    ({"options": {"jokers": 1}, "players": [A, dict(B, top="As Ad X1")]},
     "X1 appears twice (also in seat 0 top row)"),
    ({"options": {"jokers": 1}, "players": [dict(A, top="Qs *Qh 2c"), B]},
     "is a resolved joker"),
    ({"options": {"jokers": 2}, "players": [dict(C, bottom="7h 7d 7c 7s Xj"), B]},
     "is a third joker"),
]


@pytest.mark.parametrize("rec,message", BAD)
@pytest.mark.parametrize("reader", ["records", "jsonl-fast", "jsonl", "csv-fast", "csv"])
def test_bad_jokers_are_record_errors_naming_hand_seat_and_card(rec, message, reader):
    rec = {"id": "bad", **rec}
    with pytest.raises(RecordError) as e:
        if reader == "records":
            chunk_from_records([rec])
        elif reader.startswith("jsonl"):
            list(read_jsonl(io.BytesIO(_jsonl([rec])), source="f", fast=reader == "jsonl-fast"))
        else:
            opts = orjson.dumps(rec.get("options")).decode().replace('"', '""') \
                if "options" in rec else ""
            data = "hand_id,seat,name,options,top,middle,bottom\n" + "".join(
                f'bad,{s},{p["name"]},"{opts}",{p["top"]},{p["middle"]},{p["bottom"]}\n'
                for s, p in enumerate(rec["players"]))
            list(read_csv(io.BytesIO(data.encode()), source="f", fast=reader == "csv-fast"))
    text = str(e.value)
    assert message in text
    assert "hand 'bad'" in text and "seat" in text


def test_bad_jokers_are_skipped_and_counted(tmp_path):
    src = tmp_path / "mixed.jsonl"
    good = _records()
    bad = [{"id": f"b{i}", **rec} for i, (rec, _) in enumerate(BAD)]
    src.write_bytes(_jsonl(good + bad))
    out = tmp_path / "out.jsonl"
    run = fio.score_file(src, out, skip_bad=True)
    assert (run.records, run.hands, len(run.skipped)) == (len(good) + len(bad), len(good),
                                                           len(bad))
    assert run.player_hands == sum(len(r["players"]) for r in good)
    assert len(out.read_text().splitlines()) == len(good)
    assert sorted(e.hand_id for e in run.skipped) == sorted(r["id"] for r in bad)


def test_a_bad_joker_leaves_no_partial_output(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(_jsonl(_records() + [{"id": "x", "players": [A, B]}]))
    out = tmp_path / "out.csv"
    out.write_text("keep me\n")
    assert cli.main(["score", str(src), "-o", str(out), "-q"]) != 0
    assert out.read_text() == "keep me\n"          # written atomically: untouched
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]


def test_discarded_jokers():
    rec = {"id": 1, "options": {"jokers": 2},
           "players": [dict(A, discards="X2 8c"), dict(B, discards="8d")]}
    c = chunk_from_records([rec]).score()
    assert c.discard_ids(0) == [53, 24]
    with pytest.raises(RecordError, match="discard X1 is also placed by this player"):
        chunk_from_records([dict(rec, players=[dict(A, discards="X1"), B])])
    with pytest.raises(RecordError, match="played with one joker"):
        chunk_from_records([dict(rec, options={"jokers": 1},
                                 players=[dict(A, discards="X2"), B])])


# ---------------------------------------------------------------------- command line
def test_cli_joker_options(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_bytes(_jsonl([{"id": 1, "players": [A, B]}]))
    assert cli.main(["score", str(src), "-q", "-o", str(tmp_path / "o.jsonl")]) != 0
    capsys.readouterr()
    assert cli.main(["score", str(src), "-q", "--jokers", "1", "-o",
                     str(tmp_path / "o.jsonl")]) == 0
    rec = json.loads((tmp_path / "o.jsonl").read_text())
    assert rec["players"][0]["substitutes"] == "Qh"
    assert rec["options"] == {"jokers": 1}
    assert cli.main(["score", str(src), "-q", "--jokers", "1", "--joker-cards", "board",
                     "--joker-objective", "royalties", "--joker-top-natural", "-o",
                     str(tmp_path / "o2.jsonl")]) == 0
    rec = json.loads((tmp_path / "o2.jsonl").read_text())
    assert rec["options"] == {"jokers": 1, "joker_cards": "board",
                              "joker_objective": "royalties", "joker_top_natural": True}
    with pytest.raises(SystemExit):
        cli.main(["score", str(src), "--jokers", "3"])
    with pytest.raises(SystemExit):
        cli.main(["score", str(src), "--joker-cards", "deck"])
    capsys.readouterr()


@pytest.mark.parametrize("flags", [[], ["--jokers", "0"]])
def test_cli_without_joker_options_writes_no_joker_option(tmp_path, flags):
    src = tmp_path / "in.jsonl"
    src.write_bytes(_jsonl([{"id": 1, "players": [PLAIN, B]}]))
    for out in ("o.jsonl", "o.csv"):
        assert cli.main(["score", str(src), "-q", *flags, "-o", str(tmp_path / out)]) == 0
    assert b"options" not in (tmp_path / "o.jsonl").read_bytes()
    assert b"jokers" not in (tmp_path / "o.csv").read_bytes()


def test_verify_shows_what_each_joker_stood_for(tmp_path, capsys):
    """A recorded-points mismatch at a joker table names the card each
    joker was scored as, for every seat holding one."""
    p = {"top": "X1 Ad 2c", "middle": "Kd Kc 5s 5h 3d", "bottom": "7h 8h 9h Th X2",
         "points": 99}
    q = {"top": "Ks Kh 3c", "middle": "2h 3h 4h 5d 6d", "bottom": "Tc Td Ts 8c 8d",
         "points": -7}
    src = tmp_path / "in.jsonl"
    src.write_bytes(_jsonl([{"id": "h1", "options": {"jokers": 2}, "players": [p, q]}]))
    assert cli.main(["score", str(src), "--verify", "-q", "-o", str(tmp_path / "o.jsonl")]) == 1
    out = capsys.readouterr().out
    assert "recorded +99, ours +7" in out
    assert "seat 0's jokers: *As Ad 2c / Kd Kc 5s 5h 3d / 7h 8h 9h Th *Jh" in out
    assert "seat 1's jokers" not in out


def test_show_prints_a_resolved_joker(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert cli.main(["show", "Qs X1 2c/9h 9d 9c 5s 5d/7h 7d 7c 7s 2d", "--jokers", "1"]) == 0
    out = capsys.readouterr().out
    assert "*Qh" in out or "*Q\u2665" in out
    src = tmp_path / "in.jsonl"
    src.write_bytes(_jsonl(_records()[:1]))
    assert cli.main(["show", str(src)]) == 0
    out = capsys.readouterr().out
    assert "*Qh" in out or "*Q\u2665" in out
    assert cli.main(["show", "Qs X1 2c/9h 9d 9c 5s 5d/7h 7d 7c 7s 2d"]) != 0
    assert "without jokers" in capsys.readouterr().err


def test_dask_results_carry_substitutes():
    dd = pytest.importorskip("dask.dataframe")
    import ofc_fast.dask as od
    df = fio.chunk_table(chunk_from_records(_records())).to_pandas()
    df = df.drop(columns=[c for c in ("discards",) if c in df.columns])
    results, _ = od.score_frame(dd.from_pandas(df, npartitions=2)).compute(scheduler="sync")
    got = [x if isinstance(x, str) else None for x in results["substitutes"]]
    assert got == _want()[3] and results["points"].tolist() == _want()[1]


@pytest.mark.parametrize("rules", [Rules(), Rules(jokers=1, override=True)])
@pytest.mark.parametrize("results_only", [False, True])
def test_jsonl_writer_writes_what_orjson_writes(rules, results_only):
    """The C writer (lines with options walked, substitutes added) against the
    reference: orjson of each record with our results set."""
    from ofc_fast.io.jsonl import _dumps, _records_of, _results_records, jsonl_bytes
    recs = _records()[:3] if rules.override else _records()
    if rules.override:      # every record dealt one joker: h2's two are X1 twice, left out
        recs = [recs[0], recs[2]]
    data = _jsonl(recs) + b'{"id":9,"options":{"jokers": 1},"players":' + \
        orjson.dumps([A, B]) + b"}\n"                  # options with a space: orjson's
    (chunk,) = read_jsonl(io.BytesIO(data), source="f", rules=rules)
    chunk.score()
    want = _dumps(_results_records(chunk) if results_only else
                  _records_of(chunk, range(chunk.n_hands)))
    assert bytes(jsonl_bytes(chunk, results_only)) == want
    assert want.count(b'"substitutes"') == (2 if rules.override else 4)


OPTION_CELLS = ['"{""jokers"":1}"', '" {""jokers"": 1} "', '"{""finnish"":true,""jokers"":1}"',
                "{}", '""', '"1"', '"{""jokers"":1"', '"{""jokers"":3}"', 'x"{}"',
                '"{""jokers"":1}', '"{""jokers"":1}"x', '"{""nick"":""a,b""}"',
                '"{""jokers"":1}"\r', '"{""name"":""\u00e9""}"']


@pytest.mark.parametrize("cell", OPTION_CELLS)
@pytest.mark.parametrize("skip_bad", [True, False])
def test_csv_scanner_reads_quoted_options_as_the_row_reader(cell, skip_bad):
    """The C CSV scanner reads a quoted options field (the library's own CSV
    of joker hands): the same chunks and errors as the row reader."""
    from readers_agree import outcome
    rows = [(s, p) for s, p in enumerate([A, B])]
    body = "".join(f'h{i},{s},{p["name"]},{cell if s == 0 else ""},{p["top"]},{p["middle"]},'
                   f'{p["bottom"]}\n' for i in range(3) for s, p in rows)
    data = ("hand_id,seat,name,options,top,middle,bottom\n" + body).encode()

    def read(fast):
        return outcome(read_csv(io.BytesIO(data), source="f", skip_bad=skip_bad, fast=fast,
                                chunk_size=2))
    assert read(True) == read(False)


@pytest.mark.parametrize("cell", OPTION_CELLS[:3])
def test_csv_scanner_takes_the_quoted_options_it_reads(cell, monkeypatch):
    """Hands whose options are quoted JSON never reach the row reader."""
    import ofc_fast.io.csv as fcsv
    calls = []
    real = fcsv._hand_record
    monkeypatch.setattr(fcsv, "_hand_record", lambda *a, **k: calls.append(1) or real(*a, **k))
    body = "".join(f'h{i},{s},{cell if s == 0 else ""},{p["top"]},{p["middle"]},{p["bottom"]}\n'
                   for i in range(3) for s, p in enumerate([A, B]))
    data = ("hand_id,seat,options,top,middle,bottom\n" + body).encode()
    chunks = list(read_csv(io.BytesIO(data), source="f", fast=True))
    assert sum(c.n_hands for c in chunks) == 3 and calls == []


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_selfplay_with_jokers_writes_records_that_score_to_their_points(tmp_path, capsys, fmt):
    """The engine's joker hands, written by ``ofc-fast selfplay --jokers``,
    carry their options and score back to the points the engine recorded."""
    out = tmp_path / f"hands.{fmt}"
    assert cli.main(["selfplay", "pineapple", "--hands", "300", "--seed", "3", "--jokers", "2",
                     "--joker-objective", "royalties", "-o", str(out), "-q",
                     "--no-summary"]) == 0
    chunks = list(fio.read_chunks(str(out)))
    cards = np.concatenate([c.cards() for c in chunks])
    assert sum(c.n_hands for c in chunks) == 300
    assert (cards >= 52).sum() > 100                  # jokers dealt, X1 and X2 both
    assert {52, 53} <= set(np.unique(cards).tolist())
    assert all(c.has_recorded.all() for c in chunks)
    recorded = np.concatenate([c.recorded for c in chunks])
    scored = np.concatenate([c.score().points for c in chunks])
    np.testing.assert_array_equal(scored, recorded)
    assert recorded.any()
    if fmt == "jsonl":
        rec = json.loads(out.read_text().splitlines()[0])
        assert rec["options"] == {"jokers": 2, "joker_objective": "royalties"}
    capsys.readouterr()
