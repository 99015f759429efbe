"""Recorded-hand files: tolerant parsing, validation messages, round trips,
streaming (ofc_fast.records, ofc_fast.io; docs/formats.md)."""
import copy
import doctest
import gzip
import importlib

import numpy as np
import orjson
import pytest

import ofc_fast as ofc
import ofc_fast.io as fio
from io_records import A, B, C, hand, parquet_rows, scored, write_jsonl
from ofc_fast.errors import ArgumentError, FileFormatError, RecordError
from ofc_fast.records import (
    CARD_TOKENS,
    HandRecord,
    Rules,
    chunk_from_records,
    parse_card_list,
)
from ofc_fast.report import Summary, find_mismatches, sample_path
from optional import FORMATS_HERE


# ------------------------------------------------------------------------ card tokens
@pytest.mark.parametrize("text, ids", [
    ("As Kd 7h", [51, 45, 22]),
    ("10h Th tH 10H", [34] * 4),
    ("ks KS kS Ks", [47] * 4),
    ("K♠ k♠ Q♥ 2♣ 3♦", [47, 47, 42, 0, 5]),
    ("K♤ Q♡ 2♧ 3♢", [47, 42, 0, 5]),
    ("Ks1 qd2 10h3 T♠9", [47, 41, 34, 35]),
    ("AsKd7h", [51, 45, 22]),
    ("Ks1Qd2", [47, 41]),
    ("As,Kd;7h", [51, 45, 22]),
    ("A♠️ K♥️", [51, 46]),
])
def test_tolerant_tokens(text, ids):
    assert parse_card_list(text) == ids


def test_token_table_covers_every_spelling():
    for c in range(52):
        r, s = "23456789TJQKA"[c >> 2], "cdhs"[c & 3]
        for rank in {r, r.lower()} | ({"10"} if r == "T" else set()):
            for suit in (s, s.upper(), "♣♦♥♠"[c & 3], "♧♢♡♤"[c & 3]):
                for street in ("",) + tuple("0123456789"):
                    assert CARD_TOKENS[rank + suit + street] == c
    assert all(len(k) >= 2 for k in CARD_TOKENS)


@pytest.mark.parametrize("text", ["Xs", "Kx", "1s", "K", "__", "Ks Qd 2"])
def test_unknown_tokens(text):
    with pytest.raises(ValueError, match="unknown card"):
        parse_card_list(text)


def test_row_forms_agree():
    base = HandRecord.from_dict(hand())
    forms = [
        {"rows": "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"},
        {"rows": "qs1 qd1 2c2 | 9h 9d 9c 5s 5d | 7h 7d 7c 7s 2d"},
        {"rows": ["Qs Qd 2c", "9h 9d 9c 5s 5d", "7h 7d 7c 7s 2d"]},
        {"top": ["Qs", "Qd", "2c"], "middle": [30, 29, 28, 15, 13], "bottom": "7h7d7c7s2d"},
        {"top": "Q♠ Q♦ 2♣", "middle": "9♥ 9♦ 9♣ 5♠ 5♦", "bottom": "7♥ 7♦ 7♣ 7♠ 2♦"},
        {"top": "QS  QD\t2C", "middle": "9H 9D 9C 5S 5D", "bottom": "7H 7D 7C 7S 2D"},
    ]
    for form in forms:
        a = dict(form, name="alice")
        rec = HandRecord.from_dict(hand(players=(a, B)))
        assert rec.players[0].layout.tolist() == base.players[0].layout.tolist(), form
        assert rec.score().points.tolist() == base.score().points.tolist()


def test_record_model_round_trip():
    rec = HandRecord.from_dict(hand(options={"finnish": True}, players=(
        dict(A, points=3, in_fantasyland=1), B)))
    d = rec.to_dict()
    assert d["options"] == {"finnish": True}
    assert d["players"][0]["in_fantasyland"] == 1 and d["players"][0]["points"] == 3
    again = HandRecord.from_dict(d)
    assert again.players[0].layout.tolist() == rec.players[0].layout.tolist()
    assert again.players[1].discards == rec.players[1].discards
    assert again.variant == ofc.variant("pineapple", finnish=True)


def test_scores_match_score_tables(sample_records):
    chunk = chunk_from_records(sample_records[:300]).score()
    for g in chunk.groups:
        r = ofc.score_tables(g.cards, g.variant, in_fantasyland=g.in_fantasyland, details=True)
        assert (chunk.points[g.rows] == r.points).all()
        assert (chunk.next_fantasyland[g.rows] == r.next_fantasyland).all()
    assert (chunk.points == chunk.recorded).all()


def test_groups_by_rules_and_player_count(sample_records):
    chunk = chunk_from_records(sample_records)
    keys = {(g.variant.name, g.variant.finnish, g.n_players) for g in chunk.groups}
    assert ("pineapple", False, 3) in keys and ("pineapple", True, 2) in keys
    assert ("classic", False, 4) in keys and ("big-pineapple", False, 2) in keys
    assert sum(len(g.hands) for g in chunk.groups) == chunk.n_hands == len(sample_records)


def test_module_doctests():
    for name in ("ofc_fast.records", "ofc_fast.report"):
        res = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        assert res.attempted and not res.failed, name


# ------------------------------------------------------------------------ round trips
@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_round_trip_unscored(tmp_path, fmt, sample_records):
    src = write_jsonl(tmp_path / "in.jsonl", sample_records)
    out = str(tmp_path / f"out.{fmt}")
    with fio.open_writer(out) as w:
        for chunk in fio.read_chunks(src, chunk_size=300):
            w.write(chunk)
    a, b = scored(src), scored(out)
    for k in a:
        if k == "names":
            assert a[k] == b[k]
        else:
            assert np.array_equal(np.asarray(a[k]), np.asarray(b[k])), k
    # discards, variants and options survive too
    ra = list(fio.read_hands(src))
    rb = list(fio.read_hands(out))
    assert [r.variant for r in ra] == [r.variant for r in rb]
    assert [[p.discards for p in r.players] for r in ra] == \
        [[p.discards for p in r.players] for r in rb]


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("to", ["jsonl", "csv", "parquet"])
def test_round_trip_scored(tmp_path, fmt, to, sample_records):
    src = write_jsonl(tmp_path / "in.jsonl", sample_records[:400])
    mid = str(tmp_path / f"mid.{fmt}")
    fio.score_file(src, mid)
    out = str(tmp_path / f"out.{to}")
    run = fio.score_file(mid, out, verify=True)
    assert run.hands == 400 and not run.mismatches and not run.skipped
    assert np.array_equal(scored(out)["points"], scored(src)["points"])
    assert np.array_equal(scored(out)["recorded"], scored(src)["points"])


def test_jsonl_writer_keeps_unknown_fields_and_adds_results(tmp_path):
    rec = hand(players=(dict(A, points=99, seat_note="x"), B), table="T7")
    src = write_jsonl(tmp_path / "in.jsonl", [rec])
    fio.score_file(src, str(tmp_path / "out.jsonl"))
    out = orjson.loads(open(tmp_path / "out.jsonl", "rb").read())
    assert out["table"] == "T7" and out["players"][0]["seat_note"] == "x"
    p0, p1 = out["players"]
    assert p0["recorded_points"] == 99 and p0["points"] == 6 and p1["points"] == -6
    assert p0["royalties"] == 29 and p0["foul"] is False and p0["fantasyland"] == 14
    assert "recorded_points" not in p1


def test_results_only(tmp_path, sample_records):
    pytest.importorskip("pyarrow")
    src = write_jsonl(tmp_path / "in.jsonl", sample_records[:50])
    for fmt in ("jsonl", "csv", "parquet"):
        out = str(tmp_path / f"r.{fmt}")
        fio.score_file(src, out, results_only=True)
    import pyarrow.parquet as pq
    t = pq.read_table(tmp_path / "r.parquet")
    assert "c00" not in t.column_names and t.column("points").to_pylist() == \
        scored(src)["points"].tolist()
    first = orjson.loads(open(tmp_path / "r.jsonl", "rb").readline())
    assert set(first["players"][0]) >= {"name", "points", "royalties", "foul", "fantasyland"}
    assert "top" not in first["players"][0]


def test_four_row_and_three_row_in_one_parquet(tmp_path):
    pytest.importorskip("pyarrow")
    big = {"top": "Qs Qd 2c", "third": "9h 9d 9c 5s 5d", "second": "7h 7d 7c 7s 2d",
           "bottom": "Ah Kh Jh Th 3h", "name": "x"}
    big2 = {"top": "Ks Kd 3c", "third": "2h 4h 4d 5h 6d", "second": "Tc Td Ts 8s 8d",
            "bottom": "Ac Kc Qc Jc 8c", "name": "y"}
    recs = [hand("b1", (big, big2), variant="big-pineapple"), hand("p1")]
    src = write_jsonl(tmp_path / "in.jsonl", recs)
    out = str(tmp_path / "out.parquet")
    fio.score_file(src, out)
    import pyarrow.parquet as pq
    t = pq.read_table(out)
    assert "c17" in t.column_names and t.column("c13").to_pylist()[2:] == [255, 255]
    assert np.array_equal(scored(out)["points"], scored(src)["points"])


def test_gzip_and_stdin_names(tmp_path, sample_records):
    path = tmp_path / "in.jsonl.gz"
    with gzip.open(path, "wb") as f:
        for r in sample_records[:20]:
            f.write(orjson.dumps(r) + b"\n")
    assert fio.score_file(str(path), str(tmp_path / "o.csv.gz")).hands == 20
    assert fio.score_file(str(tmp_path / "o.csv.gz")).hands == 20
    assert fio.detect_format("x.ndjson") == "jsonl" and fio.detect_format("x.pq") == "parquet"
    with pytest.raises(ValueError, match="cannot tell the format"):
        fio.detect_format("hands.txt")


# -------------------------------------------------------------------------- streaming
@pytest.mark.slow
@pytest.mark.parametrize("fmt, chunk_size", [("jsonl", 7), ("csv", 13), ("parquet", 101),
                                             ("parquet", 1000)])
def test_streaming_chunks_give_the_same_results(tmp_path, fmt, chunk_size, sample_records):
    src = write_jsonl(tmp_path / "in.jsonl", sample_records)
    path = str(tmp_path / f"all.{fmt}")
    with fio.open_writer(path, width=18) if fmt == "parquet" else fio.open_writer(path) as w:
        for chunk in fio.read_chunks(src, chunk_size=400):
            w.write(chunk)
    whole = scored(path)
    chunks = list(fio.read_chunks(path, chunk_size=chunk_size))
    assert len(chunks) > 2
    # a Parquet chunk size that does not divide the rows splits hands across
    # batches: they are carried into the next chunk, whole
    for c in chunks:
        assert (np.diff(c.hand_start) >= 2).all()
    parts = scored(path, chunk_size=chunk_size)
    assert np.array_equal(parts["points"], whole["points"])
    assert parts["ids"] == whole["ids"]


def test_threads_do_not_change_results(tmp_path, sample_records):
    pytest.importorskip("pyarrow")
    src = write_jsonl(tmp_path / "in.jsonl", sample_records)
    pq_path = str(tmp_path / "h.parquet")
    fio.score_file(src, pq_path)
    a = fio.score_file(pq_path, str(tmp_path / "a.parquet"), n_threads=1, chunk_size=500)
    b = fio.score_file(pq_path, str(tmp_path / "b.parquet"), n_threads=2, chunk_size=500)
    assert a.summary.as_dict() == b.summary.as_dict()
    assert np.array_equal(scored(str(tmp_path / "a.parquet"))["points"],
                          scored(str(tmp_path / "b.parquet"))["points"])
    with pytest.warns(DeprecationWarning, match=r"score_file\(threads=...\) is deprecated.*"
                      r"score_file\(n_threads=...\)"):
        c = fio.score_file(pq_path, str(tmp_path / "c.parquet"), threads=True, chunk_size=500)
    assert c.summary.as_dict() == a.summary.as_dict()
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes() == \
        (tmp_path / "c.parquet").read_bytes()


def test_old_argument_names_warn_and_still_work(tmp_path, sample_records):
    src = write_jsonl(tmp_path / "in.jsonl", sample_records)
    with pytest.warns(DeprecationWarning, match=r"score_file\(out=...\).*score_file\(output="):
        run = fio.score_file(src, out=str(tmp_path / "a.csv"))
    assert run.hands == len(sample_records)
    with pytest.warns(DeprecationWarning, match=r"out_format=...\).*output_format="):
        fio.score_file(src, str(tmp_path / "b.txt"), out_format="csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.txt").read_bytes()
    with pytest.warns(DeprecationWarning, match=r"read_chunks\(threads=...\)"):
        chunks = fio.read_chunks(src, threads=True)
    assert sum(c.n_hands for c in chunks) == len(sample_records)


@pytest.mark.parametrize("kw, error, match", [
    (dict(n_threads=0), ArgumentError, "n_threads must be 1 .. 256"),
    (dict(n_threads="2"), TypeError, "n_threads must be an integer"),
    (dict(closed_pipe="ignore"), ArgumentError, "closed_pipe must be one of raise, stop, drain"),
    (dict(verify="yes"), TypeError, "verify must be True or False"),
    (dict(chunk_size=0), ArgumentError, "chunk_size must be 1 .. 2,147,483,647, got 0"),
    (dict(format="xml"), ArgumentError, "format must be one of jsonl, csv, parquet"),
])
def test_score_file_refuses_bad_arguments_with_the_library_errors(tmp_path, sample_records, kw,
                                                                  error, match):
    src = write_jsonl(tmp_path / "in.jsonl", sample_records)
    with pytest.raises(error, match=match):
        fio.score_file(src, str(tmp_path / "out.csv"), **kw)
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("output, kw, match", [
    (None, dict(bogus=1), r"^score_file\(\) got writer options \(bogus\) but no output"),
    (None, dict(width=18, compression="zstd"),
     r"^score_file\(\) got writer options \(width, compression\) but no output"),
    ("out.csv", dict(bogus=1), r"^the csv writer takes no option 'bogus' \(its options: "
                               r"results_only\)$"),
    ("out.jsonl", dict(width=18), r"^the jsonl writer takes no option 'width'"),
    ("out.parquet", dict(bogus=1), r"^Parquet writer options \(.*bogus=1\)"),
])
def test_writer_options_without_an_output_or_unknown_to_its_writer(tmp_path, output, kw, match):
    """Before: score_file(path, bogus=1) with no output was silently
    accepted (and the text writers' TypeError named their class)."""
    if output is not None and output.endswith("parquet"):
        pytest.importorskip("pyarrow")
    out = None if output is None else tmp_path / output
    with pytest.raises(TypeError, match=match):
        fio.score_file(sample_path(), out, **kw)
    assert list(tmp_path.iterdir()) == []
    if out is not None:
        with pytest.raises(TypeError, match=match):
            fio.open_writer(out, **kw)
        assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------ bad records
BAD = [
    ("bad json", b"{not json", "bad json", "line 1 column"),
    ("not an object", b"[1, 2]", "bad record", "JSON object"),
    ("wrong format", hand(format="ofc-hand/9"), "bad record", "unsupported format 'ofc-hand/9'"),
    ("no players", hand(players=()), "bad record", "'players'"),
    ("unknown variant", hand(variant="pinapple"), "unknown variant", "unknown variant 'pinapple'"),
    ("bad option", hand(options={"colour": "red"}), "unknown variant", "unknown option 'colour'"),
    ("too many players", hand(players=(A, B, C, dict(C, name="dan"))), "wrong number of players",
     "4 players; pineapple is played by 2 to 3 players"),
    ("unknown card", hand(players=(A, dict(B, middle="2h 3h 4h 5h Xd"))), "unknown card",
     "hand 'h1', seat 1 (bob), middle row: unknown card 'Xd'"),
    ("unknown discard", hand(players=(A, dict(B, discards="Js Zz"))), "unknown card",
     "seat 1 (bob): discards: unknown card 'Zz'"),
    ("short row", hand(players=(dict(A, middle="9h 9d 9c 5s"), B)), "wrong row size",
     "seat 0 (alice), middle row: 4 cards (9h 9d 9c 5s); the middle row needs 5"),
    ("long top", hand(players=(dict(A, top="Qs Qd 2c 3c"), B)), "wrong row size",
     "top row: 4 cards"),
    ("missing row", hand(players=({"name": "alice", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d"},
                                  B)), "wrong row size", "missing bottom row"),
    ("four rows given three", hand(players=(A, B), variant="big-pineapple"), "wrong row size",
     "missing third, second rows (big-pineapple has rows top, third, second, bottom)"),
    ("duplicate across players", hand(players=(A, dict(B, bottom="Tc Td Ts Th Qs"))),
     "duplicate card", "seat 1 (bob), bottom row: Qs appears twice (also in seat 0 top row)"),
    ("duplicate in a row", hand(players=(dict(A, middle="9h 9d 9c 9h 5d"), B)), "duplicate card",
     "middle row: 9h appears twice (also in the same row)"),
    ("discard placed", hand(players=(A, dict(B, discards="Js Jh 6s Qs"))), "duplicate card",
     "discard Qs is also placed by seat 0"),
    ("discarded twice", hand(players=(A, dict(B, discards="Ah Jh 6s 9s"))), "duplicate card",
     "discard Ah is also discarded by seat 0"),
    ("bad fantasyland", hand(players=(dict(A, in_fantasyland="yes"), B)), "bad value",
     "in_fantasyland must be an integer"),
    ("bad points", hand(players=(dict(A, points="lots"), B)), "bad value",
     "points must be an integer (int64), got 'lots'"),
]


@pytest.mark.parametrize("label, rec, reason, text", BAD, ids=[b[0] for b in BAD])
def test_bad_record_messages(tmp_path, label, rec, reason, text):
    good = hand("ok")
    path = write_jsonl(tmp_path / "hands.jsonl", [good, rec, good])
    with pytest.raises(RecordError) as ei:
        list(fio.read_chunks(path))
    e = ei.value
    assert e.reason == reason and e.line == 2
    assert str(e).startswith(f"{path}:2: {reason}: "), str(e)
    assert text in str(e), str(e)
    chunks = list(fio.read_chunks(path, skip_bad=True))
    assert sum(c.n_hands for c in chunks) == 2
    errors = [err for c in chunks for err in c.errors]
    assert [(err.reason, err.line) for err in errors] == [(reason, 2)]


def test_first_bad_record_in_file_order(tmp_path):
    # the duplicate card (line 2) is found after reading, the unknown card
    # (line 4) while reading: line 2 is still reported first
    recs = [hand("a"), hand("b", players=(A, dict(B, bottom="Tc Td Ts Th Qs"))), hand("c"),
            hand("d", players=(A, dict(B, top="Ks Kd Xc")))]
    path = write_jsonl(tmp_path / "h.jsonl", recs)
    with pytest.raises(RecordError, match=r"h.jsonl:2: duplicate card"):
        fio.score_file(path)
    run = fio.score_file(path, skip_bad=True)
    assert run.hands == 2 and [e.line for e in run.skipped] == [2, 4]


def test_csv_messages_name_the_player_line(tmp_path):
    path = tmp_path / "h.csv"
    path.write_text(
        "hand_id,seat,name,top,middle,bottom\n"
        "h1,0,alice,Qs Qd 2c,9h 9d 9c 5s 5d,7h 7d 7c 7s 2d\n"
        "h1,1,bob,Ks Kd 3c,2h 3h 4h 5h 6d,Tc Td Ts Th 8d\n"
        "h2,1,bob,Ks Kd 3c,2h 3h 4h 5h 6d,Tc Td Ts Th 8d\n"
        "h2,0,alice,Qs Qd 2c,9h 9d 9c 5s 5d,7h 7d 7c 7s Kx\n"
        "h3,0,alice,Qs Qd 2c,9h 9d 9c 5s 5d,7h 7d 7c 7s 2d\n"
        "h3,0,bob,Ks Kd 3c,2h 3h 4h 5h 6d,Tc Td Ts Th 8d\n")
    with pytest.raises(RecordError, match=r"h.csv:5: unknown card: hand 'h2', seat 0 \(alice\), "
                                        r"bottom row: unknown card 'Kx'"):
        list(fio.read_chunks(str(path)))
    run = fio.score_file(str(path), skip_bad=True)
    assert run.hands == 1
    assert [(e.reason, e.line) for e in run.skipped] == [("unknown card", 5), ("bad value", 6)]
    assert "seats [0, 0]" in str(run.skipped[1])


def test_csv_seat_order_restored(tmp_path):
    path = tmp_path / "h.csv"
    path.write_text("id,seat,rows\n"
                    "h1,1,Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d\n"
                    "h1,0,Qs Qd 2c | 9h 9d 9c 5s 5d | 7h 7d 7c 7s 2d\n")
    run = fio.score_file(str(path), str(tmp_path / "o.jsonl"))
    out = orjson.loads(open(tmp_path / "o.jsonl", "rb").read())
    assert run.hands == 1 and [p["points"] for p in out["players"]] == [6, -6]


def test_parquet_bad_rows(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq
    t = parquet_rows(tmp_path, [hand("a"), hand("b"), hand("c")])
    # an unknown card id, a missing card and a duplicate, one hand each
    c05 = t.column("c05").to_pylist()
    c05[2] = 77                       # hand b, seat 0
    c01 = t.column("c01").to_pylist()
    c01[5] = None                     # hand c, seat 1
    t = t.set_column(t.column_names.index("c05"), "c05", pa.array(c05, pa.uint8()))
    t = t.set_column(t.column_names.index("c01"), "c01", pa.array(c01, pa.uint8()))
    path = str(tmp_path / "bad.parquet")
    pq.write_table(t, path)
    with pytest.raises(RecordError) as ei:
        list(fio.read_chunks(path))
    assert str(ei.value).startswith(f"{path}, row 3: unknown card: hand 'b', seat 0 (alice), "
                                    "middle row: card id 77 is not a card")
    run = fio.score_file(path, skip_bad=True)
    assert run.hands == 1
    assert [(e.reason, e.line) for e in run.skipped] == [("unknown card", 3),
                                                         ("wrong row size", 6)]
    assert "no card in slot 1 of the layout (empty or null; Parquet column c01)" in \
        str(run.skipped[1])


def test_parquet_later_seats_are_named_by_their_own_row(tmp_path):
    """What is found after reading (a card twice at a table, points that differ
    from the recorded ones) names the seat's own row of the file, in any hand."""
    pytest.importorskip("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq
    t = parquet_rows(tmp_path, [hand("a"), hand("b"), hand("c")])
    c00 = t.column("c00").to_pylist()
    c00[5] = c00[4]                    # hand c, seat 1: seat 0's first card again
    bad = t.set_column(t.column_names.index("c00"), "c00", pa.array(c00, pa.uint8()))
    path = str(tmp_path / "dup.parquet")
    pq.write_table(bad, path)
    with pytest.raises(RecordError) as ei:
        list(fio.read_chunks(path))
    assert (ei.value.reason, ei.value.line, ei.value.seat) == ("duplicate card", 6, 1)
    assert str(ei.value).startswith(f"{path}, row 6: duplicate card: hand 'c', seat 1")
    pts = [int(x) for c in fio.read_chunks(str(tmp_path / "h.parquet"))
           for x in c.score().points]
    pts[3] += 2                        # recorded, ours but for hand b, seat 1
    off = t.set_column(t.column_names.index("points"), "points", pa.array(pts, pa.int64()))
    path = str(tmp_path / "off.parquet")
    pq.write_table(off, path)
    mism = [m for c in fio.read_chunks(path) for m in find_mismatches(c.score())[0]]
    assert [(m.hand_id, m.seat, m.line, m.unit) for m in mism] == [("b", 1, 4, "row")]


def test_parquet_structure_errors(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq
    t = parquet_rows(tmp_path, [hand("a"), hand("b"), hand("c")])
    seat = t.column("seat").to_pylist()
    seat[3] = 0                       # hand b now has seats [0, 0]
    t2 = t.set_column(t.column_names.index("seat"), "seat", pa.array(seat, pa.int8()))
    path = str(tmp_path / "bad.parquet")
    pq.write_table(t2, path)
    with pytest.raises(RecordError, match=r"row 3: .*seats \[0\]"):
        list(fio.read_chunks(path))
    run = fio.score_file(path, skip_bad=True)
    assert run.hands == 2 and len(run.skipped) == 2
    missing = t.drop(["c12"])
    pq.write_table(missing, path)
    with pytest.raises(FileFormatError, match=r"missing columns \['c12'\]"):
        list(fio.read_chunks(path))
    variant = pa.array(["pineapple", "pineapple", "nope", "nope", "pineapple", "pineapple"])
    t3 = t.set_column(t.column_names.index("variant"), "variant", variant)
    pq.write_table(t3, path)
    with pytest.raises(RecordError,
                       match=r"row 3: unknown variant: hand 'b': unknown variant 'nope'"):
        list(fio.read_chunks(path))


def test_parquet_zero_copy_columns(tmp_path):
    """Card columns come to numpy without a copy, and a single-rules file is
    scored straight from one stacked array."""
    pytest.importorskip("pyarrow")
    t = parquet_rows(tmp_path, [hand(f"h{i}") for i in range(3)])
    col = t.column("c00").combine_chunks()
    arr = col.to_numpy(zero_copy_only=True)
    assert arr.dtype == np.uint8 and not arr.flags.owndata
    from ofc_fast.io.parquet import chunk_from_arrow
    chunk, carry = chunk_from_arrow(t)
    assert carry is None and len(chunk.groups) == 1 and chunk.groups[0].cards.shape == (3, 2, 13)


def test_rules_defaults_and_override(tmp_path):
    rec = hand()
    del rec["variant"]
    path = write_jsonl(tmp_path / "h.jsonl", [rec, hand("h2")])
    base = scored(path)["points"]
    layouts = [" / ".join((p["top"], p["middle"], p["bottom"])) for p in (A, B)]
    custom = {"royalties": {"middle": {"full_house": 40}}}
    am = ofc.score_pair(*layouts, ofc.variant("classic", **custom)).points
    ru = ofc.score_pair(*layouts, ofc.variant("classic")).points
    assert base.tolist() == [6, -6, 6, -6] and am != ru
    fin = scored(path, rules=Rules("classic", custom))["points"]
    assert fin.tolist() == [am, -am, 6, -6]
    over = scored(path, rules=Rules("classic", None, override=True))["points"]
    assert over.tolist() == [ru, -ru, ru, -ru]


def test_summary_totals(sample_records):
    s = Summary()
    chunk = chunk_from_records(sample_records).score()
    s.add(chunk)
    players = {p.name: p for p in s.players()}
    assert sum(p.net for p in players.values()) == 0
    assert sum(p.hands for p in players.values()) == chunk.n_rows
    names = np.array(chunk.names())
    alice = names == "alice"
    assert players["alice"].hands == alice.sum()
    assert players["alice"].fouls == chunk.foul[alice].sum()
    assert players["alice"].royalties == chunk.royalty_total[alice].sum()
    assert "alice" in s.table() and s.as_dict()["hands"] == len(sample_records)


def test_find_mismatches_breakdown(sample_records):
    recs = copy.deepcopy(sample_records[:10])
    recs[3]["players"][1]["points"] += 5
    chunk = chunk_from_records(recs).score()
    mism, unrecorded = find_mismatches(chunk)
    assert unrecorded == 0 and len(mism) == 1
    m = mism[0]
    assert (m.hand_id, m.seat, m.recorded - m.ours, m.line) == (recs[3]["id"], 1, 5, 4)
    assert sum(b["points"] for b in m.breakdown()) == m.ours
    assert f"hand {recs[3]['id']!r}, seat 1" in m.describe()


# ------------------------------------------------------------- validation kernels
def _reference_bad_discards(off, ids, hand_start, groups, H):
    """Hands whose discards hold an id above 51, a card twice, or a card placed
    at the table (cards of ``groups``: (cards (G, k), hands (G,)))."""
    placed = [set() for _ in range(H)]
    for cards, hands in groups:
        for g, h in enumerate(hands):
            placed[h] = set(cards[g].tolist())
    bad = []
    for h in range(H):
        d = ids[off[hand_start[h]]:off[hand_start[h + 1]]].tolist()
        if any(c > 51 for c in d) or len(set(d)) != len(d) or set(d) & placed[h]:
            bad.append(h)
    return bad


@pytest.mark.parametrize("seed", range(5))
def test_discard_kernel_matches_reference(seed):
    from ofc_fast._records import bad_discards, bad_discards_at, placed_masks
    rng = np.random.default_rng(seed)
    H, P = 300, 3
    hand_start = np.arange(0, H * P + 1, P, dtype=np.int64)
    deck = np.argsort(rng.random((H, 52)), axis=1).astype(np.uint8)
    cards = np.ascontiguousarray(deck[:, :P * 13])
    n = rng.integers(0, 5, H * P)                      # 0-4 discards a player
    off = np.zeros(H * P + 1, np.int64)
    np.cumsum(n, out=off[1:])
    ids = np.empty(int(off[-1]), np.uint8)
    for h in range(H):
        lo, hi = off[hand_start[h]], off[hand_start[h + 1]]
        ids[lo:hi] = deck[h, P * 13:P * 13 + hi - lo]
        kind = h % 6
        if kind == 1 and hi > lo:
            ids[lo] = cards[h, rng.integers(0, P * 13)]   # a placed card
        elif kind == 2 and hi - lo > 1:
            ids[hi - 1] = ids[lo]                         # discarded twice
        elif kind == 3 and hi > lo:
            ids[lo] = rng.choice([52, 63, 64, 200, 255])  # not a card
    # some hands in no group (left out of scoring): only their discards count
    in_group = np.flatnonzero(np.arange(H) % 7 != 5)
    placed = np.zeros(H, np.uint64)
    placed_masks(cards[in_group], in_group.astype(np.int64), placed)
    got = np.flatnonzero(bad_discards(off, ids, hand_start, placed)).tolist()
    assert got == _reference_bad_discards(off, ids, hand_start, [(cards[in_group], in_group)], H)
    assert got  # the data has bad hands of each kind
    # every hand in one group: the one-pass kernel
    every = np.arange(H, dtype=np.int64)
    got = np.flatnonzero(bad_discards_at(cards, every, off, ids, hand_start)).tolist()
    assert got == _reference_bad_discards(off, ids, hand_start, [(cards, every)], H)
    with pytest.raises(ValueError):
        bad_discards_at(cards, every[::-1].copy(), off, ids, hand_start)


def test_gather_columns():
    from ofc_fast._records import gather_columns
    rng = np.random.default_rng(3)
    for N in (0, 1, 1023, 1024, 1025, 5000):
        cols = [rng.integers(0, 256, N).astype(np.uint8) for _ in range(13)]
        out = np.full((N, 18), 7, np.uint8)
        gather_columns(cols, out)
        assert np.array_equal(out[:, :13], np.stack(cols, axis=1).reshape(N, 13))
        assert (out[:, 13:] == 7).all()
        ro = [c.copy() for c in cols]
        for c in ro:
            c.flags.writeable = False                 # Arrow buffers are read-only
        gather_columns(ro, out)
    with pytest.raises(ValueError):
        gather_columns([np.zeros(3, np.uint8)], np.zeros((4, 13), np.uint8))


# ----------------------------------------------------------------- Parquet writer
def test_parquet_encodings_and_options(tmp_path, sample_records):
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    src = write_jsonl(tmp_path / "in.jsonl", sample_records[:200])
    out = str(tmp_path / "out.parquet")
    fio.score_file(src, out)
    md = pq.ParquetFile(out).metadata
    enc = {md.row_group(0).column(i).path_in_schema: md.row_group(0).column(i).encodings
           for i in range(md.num_columns)}
    for col in ("c00", "c12", "points", "discards.list.element"):
        assert "DELTA_BINARY_PACKED" in enc[col], col
    assert "RLE_DICTIONARY" in enc["name"] and "RLE_DICTIONARY" not in enc["seat"]
    # pyarrow's own defaults on request: the same table either way
    out2 = str(tmp_path / "dict.parquet")
    fio.score_file(src, out2, use_dictionary=True)
    md2 = pq.ParquetFile(out2).metadata
    assert "RLE_DICTIONARY" in md2.row_group(0).column(md2.schema.names.index("c00")).encodings
    assert pq.read_table(out).equals(pq.read_table(out2))
    assert np.array_equal(scored(out)["points"], scored(src)["points"])


@pytest.mark.slow
def test_parquet_default_chunks_are_row_groups(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ofc_fast.io.parquet import CHUNK_SIZE
    n = CHUNK_SIZE + 1000 - (CHUNK_SIZE + 1000) % 2
    rows = parquet_rows(tmp_path, [hand()])
    big = pa.concat_tables([rows] * (n // 2))
    ids = pa.array(np.repeat(np.arange(n // 2), 2))
    big = big.set_column(big.column_names.index("hand_id"), "hand_id", ids)
    pq.write_table(big, tmp_path / "big.parquet")
    chunks = list(fio.read_chunks(str(tmp_path / "big.parquet")))
    assert [c.n_rows for c in chunks] == [CHUNK_SIZE, n - CHUNK_SIZE]
    fio.score_file(str(tmp_path / "big.parquet"), str(tmp_path / "out.parquet"))
    md = pq.read_metadata(tmp_path / "out.parquet")
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == \
        [CHUNK_SIZE, n - CHUNK_SIZE]


def test_parquet_options_column_kept(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    recs = [hand("f1", options={"finnish": True}), hand("f2", options={"finnish": True})]
    src = write_jsonl(tmp_path / "in.jsonl", recs)
    ours = scored(src)["points"].tolist()
    recs[1]["players"][0]["points"] = ours[2] + 3        # one recorded score differs
    recs[1]["players"][1]["points"] = ours[3]
    src = write_jsonl(tmp_path / "in.jsonl", recs)
    out = str(tmp_path / "o.parquet")
    fio.score_file(src, out)
    t = pq.read_table(out)
    assert t.column("options").to_pylist() == ['{"finnish":true}'] * 4
    assert t.column("recorded_points").to_pylist() == [None, None, ours[2] + 3, None]
    again = str(tmp_path / "again.parquet")
    fio.score_file(out, again)
    t = pq.read_table(again)
    assert t.column("options").to_pylist() == ['{"finnish":true}'] * 4
    assert t.column("recorded_points").to_pylist() == [None] * 4


# ------------------------------------------- writers: our points vs the recorded ones
def _ours(recs):
    """Our points per player of each record, computed without ofc_fast.io."""
    out = []
    for r in recs:
        v = ofc.variant(r["variant"], **r.get("options", {}))
        rows = [[p[k] for k in v.row_names] for p in r["players"]]
        tables = np.array([[ofc.parse_cards(" ".join(x)) for x in rows]], np.uint8)
        tables = tables.reshape(1, len(rows), v.n_cards)
        fl = np.array([[p.get("in_fantasyland", 0) for p in r["players"]]], np.uint8)
        out.append(ofc.score_tables(tables, v, in_fantasyland=fl)[0].tolist())
    return out


def _written_rows(path):
    """(hand id, seat, points, recorded_points) of every row of an output file,
    read with orjson / the csv module / pyarrow, not with ofc_fast.io."""
    if path.endswith(".jsonl"):
        rows = []
        for line in open(path, "rb"):
            rec = orjson.loads(line)
            for seat, p in enumerate(rec["players"]):
                rows.append((str(rec["id"]), seat, p["points"], p.get("recorded_points")))
        return rows
    if path.endswith(".csv"):
        import csv
        with open(path, newline="") as f:
            return [(r["hand_id"], int(r["seat"]), int(r["points"]),
                     int(r["recorded_points"]) if r["recorded_points"] else None)
                    for r in csv.DictReader(f)]
    import pyarrow.parquet as pq
    t = pq.read_table(path).to_pydict()
    return list(zip(map(str, t["hand_id"]), t["seat"], t["points"], t["recorded_points"],
                    strict=True))


@pytest.mark.parametrize("results_only", [False, True], ids=["hands", "results-only"])
@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_writers_put_our_points_in_points_and_the_recorded_in_recorded_points(
        tmp_path, fmt, results_only, sample_records):
    recs = copy.deepcopy(sample_records[:60])
    ours = _ours(recs)
    for r, pts in zip(recs, ours, strict=True):   # the sample's points are ours ...
        assert [p["points"] for p in r["players"]] == pts
    planted = {(recs[7]["id"], 1): ours[7][1] + 3, (recs[40]["id"], 0): ours[40][0] - 5}
    recs[7]["players"][1]["points"] += 3       # ... but for two planted mismatches
    recs[40]["players"][0]["points"] -= 5
    src = write_jsonl(tmp_path / "in.jsonl", recs)
    out = str(tmp_path / f"out.{fmt}")
    run = fio.score_file(src, out, verify=True, results_only=results_only)
    assert {(m.hand_id, m.seat): m.recorded for m in run.mismatches} == planted
    rows = _written_rows(out)
    assert len(rows) == sum(len(r["players"]) for r in recs)
    want = {(str(r["id"]), s): p for r, pts in zip(recs, ours, strict=True)
            for s, p in enumerate(pts)}
    assert {(h, s): p for h, s, p, _ in rows} == want
    assert {(h, s): rp for h, s, _, rp in rows if rp is not None} == \
        {(str(h), s): p for (h, s), p in planted.items()}
    if not results_only:                      # read back: a hands file whose points are ours
        again = fio.score_file(out, verify=True)
        assert again.hands == len(recs) and not again.mismatches


def test_recorded_points_keep_64_bits(tmp_path):
    big = 3 * 10 ** 12                         # does not fit in int32
    src = write_jsonl(tmp_path / "in.jsonl", [hand("h", players=(dict(A, points=big), B))])
    for fmt in FORMATS_HERE:
        out = str(tmp_path / f"o.{fmt}")
        fio.score_file(src, out)
        assert [rp for *_, rp in _written_rows(out)] == [big, None], fmt
