"""The files layer's trust at the boundaries (issue 9 regressions) and atomic
outputs: bad arguments and records give the library's errors, and a failed
run leaves no partial file."""
import copy
import gzip
import os

import numpy as np
import orjson
import pytest

import ofc_fast as ofc
import ofc_fast.io as fio
from io_records import A, B, hand, parquet_rows, scored, write_jsonl
from ofc_fast.errors import FileFormatError, RecordError
from ofc_fast.report import sample_path

# -------------------------------- issue 9: trust at the boundaries (regressions)
ODD_TEXT = [  # documented card text of the plain length, for the cards of A and B
    # (the first release asserted on these: same length as "Qs Qd 2c", not that form)
    (dict(top="Qs,Qd,2c", middle="9h;9d;9c;5s;5d", bottom="7h\t7d\t7c\t7s\t2d"), {}),
    (dict(top="QsQd  2c", middle="9h9d  9c5s  5d", bottom="7h  7d7c 7s 2d"), {}),
    (dict(top="Qs1 Qd2c", middle="9h 9d 9c 5s5d4"), {}),
    ({}, dict(bottom="10cTd Ts 10h8d", top="Ks;Kd,3c")),
]


def _write_csv(path, recs):
    import csv
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["hand_id", "seat", "name", "top", "middle", "bottom", "discards"])
        for r in recs:
            for s, p in enumerate(r["players"]):
                w.writerow([r["id"], s, p.get("name", ""), p["top"], p["middle"], p["bottom"],
                            p.get("discards", "")])
    return str(path)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize("odd", ODD_TEXT, ids=["separators", "glued", "street digits", "10"])
def test_odd_card_text_of_plain_length(tmp_path, fmt, odd):
    a, b = dict(A, **odd[0]), dict(B, **odd[1])
    for p in (a, b):
        for row in ("top", "middle", "bottom"):
            assert len(p[row]) == len(A[row]), (row, p[row])
    a["discards"] = "Ah,3d;8c\t4s"
    recs = [hand("x", players=(a, b)), hand("y")]
    path = write_jsonl(tmp_path / "h.jsonl", recs) if fmt == "jsonl" else \
        _write_csv(tmp_path / "h.csv", recs)
    got = scored(path)
    clean = scored(write_jsonl(tmp_path / "clean.jsonl", [hand("x"), hand("y")]))
    assert np.array_equal(got["cards"], clean["cards"])
    assert np.array_equal(got["points"], clean["points"])
    chunk = next(fio.read_chunks(path))
    assert chunk.discard_ids(0) == list(ofc.cards.parse_card_text("Ah 3d 8c 4s"))


def test_odd_discard_text_in_parquet(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq
    t = parquet_rows(tmp_path, [hand("a"), hand("b")])
    texts = ["Ah,3d;8c\t4s", "JsJh 6s9s", "Ah 3d 8c 4s", "Js1 Jh2 6s 9s"]
    t = t.set_column(t.column_names.index("discards"), "discards", pa.array(texts))
    pq.write_table(t, tmp_path / "d.parquet")
    chunk = next(fio.read_chunks(str(tmp_path / "d.parquet")))
    assert [chunk.discard_ids(r) for r in range(4)] == \
        [list(ofc.cards.parse_card_text(x)) for x in texts]


def test_numbers_out_of_range_are_bad_values(tmp_path):
    recs = [hand("a", players=(dict(A, points=1e20), B)),
            b'{"id": "b", "players": [' + orjson.dumps(dict(A)) + b"," +
            orjson.dumps(dict(B))[:-1] + b', "in_fantasyland": 9223372036854775808}]}',
            hand("c", players=(dict(A, points=3.0), dict(B, points=-3))),
            hand("d", players=(dict(A, in_fantasyland=256), B)),
            hand("e", players=(dict(A, points=float("nan") if False else "1e3"), B))]
    path = write_jsonl(tmp_path / "h.jsonl", recs)
    run = fio.score_file(path, skip_bad=True)
    assert run.records == 5 and run.hands == 1
    assert [(e.line, e.reason) for e in run.skipped] == [(1, "bad value"), (2, "bad value"),
                                                         (4, "bad value"), (5, "bad value")]
    assert "points must be an integer (int64), got 1e+20 (out of range)" in str(run.skipped[0])
    assert "in_fantasyland must be an integer (0-255, or true/false), got 9223372036854775808" \
        in str(run.skipped[1])


@pytest.mark.parametrize("options, reason", [
    ({"foul_penalty": 1e30}, None), ({"scoring": {"scoop": 10 ** 18}}, None),
    ({"royalties": {"middle": {"trips": 1e300}}}, None), ({"repeat_limit": [1]}, None),
    ({"scoring": "1-6", "colour": 1}, "unknown variant")])
def test_bad_options_are_record_errors(tmp_path, options, reason):
    path = write_jsonl(tmp_path / "h.jsonl", [hand("a"), hand("b", options=options), hand("c")])
    run = fio.score_file(path, skip_bad=True)
    assert run.hands == 2 and run.records == 3 and len(run.skipped) == 1
    e = run.skipped[0]
    assert e.line == 2 and e.reason in ("unknown variant", "bad value") and len(str(e)) < 500
    assert reason is None or e.reason == reason


def _gz_lines(recs):
    return gzip.compress(b"".join(orjson.dumps(r) + b"\n" for r in recs))


def test_truncated_or_corrupt_gzip_is_a_file_error(tmp_path):
    data = _gz_lines([hand(f"h{i}") for i in range(300)])
    cases = {"truncated": data[:len(data) // 2], "flipped": data[:60] + bytes([data[60] ^ 0xFF])
             + data[61:], "no gzip": b"plain text\n", "empty member": data[:5]}
    for label, blob in cases.items():
        path = tmp_path / f"{label.replace(' ', '_')}.jsonl.gz"
        path.write_bytes(blob)
        for skip in (False, True):
            with pytest.raises(FileFormatError) as ei:
                fio.score_file(str(path), str(tmp_path / "o.csv"), skip_bad=skip)
            assert str(ei.value).startswith(str(path)) and "compressed" in str(ei.value), label
            assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_damaged_compressed_file_is_placed_where_its_intact_text_ends(tmp_path, fmt):
    """A truncated .gz of 3 copies of the sample names the last
    line whose text came out whole, as zlib itself decompresses it (0.2
    said "at its start" for any damage within the first 4 MiB)."""
    import zlib

    text = open(sample_path(), "rb").read() * 3
    if fmt == "csv":
        (tmp_path / "h.jsonl").write_bytes(text)
        fio.score_file(str(tmp_path / "h.jsonl"), str(tmp_path / "h.csv"))
        text = (tmp_path / "h.csv").read_bytes()
    for level in (1, 9):
        blob = gzip.compress(text, compresslevel=level)
        cut = blob[:len(blob) * 2 // 3]
        whole = zlib.decompressobj(31).decompress(cut)
        path = tmp_path / f"h{level}.{fmt}.gz"
        path.write_bytes(cut)
        with pytest.raises(FileFormatError) as ei:
            for _ in fio.read_chunks(str(path)):
                pass
        n = whole.count(b"\n")
        assert 1000 < n < text.count(b"\n")
        assert f"(after line {n:,})" in str(ei.value), (level, str(ei.value))


def test_byte_order_mark_accepted_in_every_text_format(tmp_path):
    recs = [hand("a"), hand("b")]
    plain = b"".join(orjson.dumps(r) + b"\n" for r in recs)
    (tmp_path / "b.jsonl").write_bytes(b"\xef\xbb\xbf" + plain)
    (tmp_path / "b.jsonl.gz").write_bytes(gzip.compress(b"\xef\xbb\xbf" + plain))
    csv_path = _write_csv(tmp_path / "p.csv", recs)
    (tmp_path / "b.csv").write_bytes(b"\xef\xbb\xbf" + open(csv_path, "rb").read())
    (tmp_path / "b.csv.gz").write_bytes(gzip.compress(open(tmp_path / "b.csv", "rb").read()))
    for name in ("b.jsonl", "b.jsonl.gz", "b.csv", "b.csv.gz"):
        run = fio.score_file(str(tmp_path / name))
        assert run.hands == 2 and not run.skipped, name
    (tmp_path / "u.jsonl").write_bytes("\ufeff".encode("utf-16-le") + plain.decode()
                                       .encode("utf-16-le"))
    with pytest.raises(FileFormatError, match="UTF-16"):
        fio.score_file(str(tmp_path / "u.jsonl"))


def test_undecodable_text_is_a_file_error(tmp_path):
    good = orjson.dumps(hand("a")) + b"\n"
    (tmp_path / "h.jsonl").write_bytes(good + good.replace(b"alice", b"al\xe9ce") + good)
    with pytest.raises(FileFormatError, match=r"h.jsonl \(line 2\): undecodable text"):
        fio.score_file(str(tmp_path / "h.jsonl"), skip_bad=True)
    csv_path = _write_csv(tmp_path / "h.csv", [hand("a"), hand("b")])
    data = open(csv_path, "rb").read().replace(b"bob", b"b\xffb", 1)
    (tmp_path / "h.csv").write_bytes(data)
    with pytest.raises(FileFormatError, match=r"h.csv \(line 3\): undecodable text"):
        fio.score_file(str(tmp_path / "h.csv"), skip_bad=True)


def test_csv_unbalanced_quote_stops_instead_of_swallowing_rows(tmp_path, sample_records):
    src = write_jsonl(tmp_path / "s.jsonl", sample_records)
    fio.score_file(src, str(tmp_path / "all.csv"))
    lines = open(tmp_path / "all.csv", encoding="utf-8").read().splitlines(keepends=True)
    n = 1 + len(lines) // 3
    fields = lines[n].split(",")
    fields[3] = '"' + fields[3]                  # the name: an opening quote, never closed
    lines[n] = ",".join(fields)
    (tmp_path / "q.csv").write_text("".join(lines), encoding="utf-8")
    with pytest.raises(FileFormatError) as ei:
        fio.score_file(str(tmp_path / "q.csv"), str(tmp_path / "o.parquet"), skip_bad=True)
    assert f"q.csv (line {n + 1:,})" in str(ei.value) and "quote" in str(ei.value)
    assert not (tmp_path / "o.parquet").exists()


def test_csv_huge_field_is_a_bad_record(tmp_path):
    path = _write_csv(tmp_path / "h.csv", [hand("a"), hand("b", players=(
        dict(A, middle="9h " * 100_000), B)), hand("c")])
    with pytest.raises(RecordError) as ei:
        fio.score_file(path)
    assert ei.value.line == 4 and len(str(ei.value)) < 400
    run = fio.score_file(path, skip_bad=True)
    assert run.hands == 2 and run.records == 4      # the long line, then hand b without it
    assert [(e.line, e.reason) for e in run.skipped] == [(4, "bad record"), (5, "bad value")]


def test_csv_writer_keeps_each_row_on_one_line(tmp_path):
    recs = [hand("a", players=(dict(A, name="al\nice"), dict(B, name="b\r\nob")))]
    src = write_jsonl(tmp_path / "h.jsonl", recs)
    fio.score_file(src, str(tmp_path / "o.csv"))
    run = fio.score_file(str(tmp_path / "o.csv"))
    assert run.hands == 1 and {p.name for p in run.summary.players()} == {"al ice", "b ob"}


def _parquet_with(tmp_path, column, values, type=None):
    import pyarrow as pa
    import pyarrow.parquet as pq
    t = parquet_rows(tmp_path, [hand(f"h{i}", players=(dict(A, points=6), dict(B, points=-6)))
                                for i in range(3)])
    arr = pa.array(values, type) if type is not None or not isinstance(values, pa.Array) \
        else values
    t = t.set_column(t.column_names.index(column), column, arr) if column in t.column_names \
        else t.append_column(column, arr)
    path = str(tmp_path / "x.parquet")
    pq.write_table(t, path)
    return path


@pytest.mark.parametrize("column, values, bad_rows", [
    ("points", [6, -6, 2.7, -6, 6.0, -6.0], [3]),                 # 2.7 is not truncated to 2
    ("in_fantasyland", [0, 0, 1.5, 0, 0, 0], [3]),
    ("in_fantasyland", [0.0, 300.0, 0, 0, None, 0], [2]),
    ("points", [6, -6, float("nan"), -6, float("inf"), -6], [3, 5]),
    ("seat", [0, None, 0, 1, 0, 1], [1]),
    ("n_players", [2, 2, 2, 2.5, 2, 2], [4]),                  # the row of the 2.5 (issue 18)
    ("c03", [30.0, 2, 2.5, 2, None, 2], [3, 5]),
], ids=["points 2.7", "fl 1.5", "fl 300", "points nan", "seat null", "n_players 2.5",
        "card 2.5"])
def test_parquet_values_that_are_not_integers_are_record_errors(tmp_path, column, values,
                                                                bad_rows):
    pytest.importorskip("pyarrow")
    path = _parquet_with(tmp_path, column, values)
    run = fio.score_file(path, skip_bad=True)
    assert run.records == 3 and run.hands == 3 - len(bad_rows)
    assert [e.line for e in run.skipped] == bad_rows
    with pytest.raises(RecordError):
        fio.score_file(path)


@pytest.mark.parametrize("column, values", [
    ("seat", ["0", "1"] * 3), ("c00", ["Qs"] * 6), ("points", ["6"] * 6),
    ("hand_id", [[1]] * 6), ("name", [{"a": 1}] * 6), ("variant", [1] * 6)])
def test_parquet_columns_of_the_wrong_type_are_file_errors(tmp_path, column, values):
    pytest.importorskip("pyarrow")
    path = _parquet_with(tmp_path, column, values)
    with pytest.raises(FileFormatError, match=f"column '{column}' has type"):
        fio.score_file(path, skip_bad=True)


def test_unreadable_parquet_is_a_file_error(tmp_path):
    pytest.importorskip("pyarrow")
    path = _parquet_with(tmp_path, "points", [6, -6] * 3)
    data = open(path, "rb").read()
    for blob in (data[:len(data) // 2], b"hand_id,seat\n", b""):    # truncated, text, empty
        (tmp_path / "b.parquet").write_bytes(blob)
        with pytest.raises(FileFormatError, match="not a readable Parquet file"):
            fio.score_file(str(tmp_path / "b.parquet"), skip_bad=True)


def test_records_read_are_scored_or_skipped(tmp_path, sample_records):
    recs = copy.deepcopy(sample_records[:200])
    lines = [orjson.dumps(r) for r in recs]
    lines[3] = b"{not json"
    lines[10] = b"[]"
    recs[20]["players"][0]["top"] = "Xx Qd 2c"
    lines[20] = orjson.dumps(recs[20])
    lines.insert(30, b"   ")                       # blank: not a record
    path = write_jsonl(tmp_path / "h.jsonl", lines)
    for chunk_size in (7, 1000):
        run = fio.score_file(path, skip_bad=True, chunk_size=chunk_size)
        assert (run.records, run.hands, len(run.skipped)) == (200, 197, 3)
        assert run.read == run.records == run.hands + len(run.skipped)


# ----------------------------------------------------------------- atomic outputs
@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet", "jsonl.gz"])
def test_failed_run_leaves_an_existing_output_untouched(tmp_path, fmt):
    recs = [hand(f"h{i}") for i in range(50)] + [b"{bad"] + [hand("z")]
    src = write_jsonl(tmp_path / "h.jsonl", recs)
    out = tmp_path / f"o.{fmt}"
    out.write_bytes(b"previous results")
    with pytest.raises(RecordError):
        fio.score_file(src, str(out), chunk_size=10)
    assert out.read_bytes() == b"previous results"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl", f"o.{fmt}"]
    run = fio.score_file(src, str(out), chunk_size=10, skip_bad=True)
    assert run.hands == 51 and fio.score_file(str(out)).hands == 51
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl", f"o.{fmt}"]


def test_output_that_is_the_input_is_refused_before_anything(tmp_path):
    import shutil
    src = write_jsonl(tmp_path / "h.jsonl", [hand("a")])
    before = open(src, "rb").read()
    (tmp_path / "link.jsonl").symlink_to("h.jsonl")
    os.link(src, tmp_path / "hard.jsonl")
    for out in (src, str(tmp_path / "link.jsonl"), str(tmp_path / "hard.jsonl"),
                str(tmp_path / "." / "h.jsonl")):
        with pytest.raises(shutil.SameFileError, match="the output is the input"):
            fio.score_file(src, out)
        assert open(src, "rb").read() == before


def test_write_errors_name_the_output(tmp_path, monkeypatch):
    import errno
    src = write_jsonl(tmp_path / "h.jsonl", [hand(f"h{i}") for i in range(30)])
    with pytest.raises(fio.OutputError) as ei:
        fio.score_file(src, "/dev/full", output_format="jsonl")
    assert str(ei.value) == "/dev/full: cannot write: [Errno 28] No space left on device"
    with pytest.raises(fio.OutputError, match=r"missing/o.csv: cannot create"):
        fio.score_file(src, str(tmp_path / "missing" / "o.csv"))
    from ofc_fast.io.jsonl import JsonlWriter

    def full(self, chunk):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(JsonlWriter, "write", full)
    out = tmp_path / "o.jsonl"
    out.write_text("old")
    with pytest.raises(fio.OutputError) as ei:
        fio.score_file(src, str(out))
    assert str(ei.value).startswith(f"{out}: cannot write: [Errno 28]") and ei.value.errno == 28
    assert out.read_text() == "old" and len(list(tmp_path.iterdir())) == 2


def test_atomic_output_keeps_mode_and_follows_symlinks(tmp_path):
    src = write_jsonl(tmp_path / "h.jsonl", [hand("a")])
    real = tmp_path / "real.jsonl"
    real.write_text("old")
    os.chmod(real, 0o640)
    (tmp_path / "link.jsonl").symlink_to("real.jsonl")
    fio.score_file(src, str(tmp_path / "link.jsonl"))
    assert (tmp_path / "link.jsonl").is_symlink()
    assert orjson.loads(real.read_bytes())["id"] == "a"
    assert (real.stat().st_mode & 0o777) == 0o640


@pytest.mark.slow
def test_messages_quote_huge_fields_briefly(tmp_path):
    huge = "Zz" * 5_000_000
    recs = [hand("a", players=(dict(A, middle=huge), B)),
            hand("b" * 1_000_000), hand("c", variant="x" * 1_000_000),
            hand("d", players=(dict(A, points="9" * 1_000_000), B)),
            hand("e", players=(dict(A, discards=huge), B)),
            hand("f", players=(dict(A, name="n" * 1_000_000, top=huge), B)),
            hand("g", options={"royalties": "r" * 1_000_000})]
    path = write_jsonl(tmp_path / "h.jsonl", recs)
    run = fio.score_file(path, skip_bad=True)
    assert run.hands == 1 and len(run.skipped) == 6
    for e in run.skipped:
        assert len(str(e)) < 800, str(e)[:300]


@pytest.mark.slow
@pytest.mark.parametrize("first", [None, 1, 3])
def test_byte_blocks_are_the_file_in_whole_lines(first):
    """Every text reader's bytes come from byte_blocks: the blocks join to the
    file (a leading UTF-8 BOM dropped), and each but the last ends a line,
    whatever the block size, the first read's size and the lines' lengths
    (also lines longer than many blocks)."""
    import io

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from ofc_fast.io._text import byte_blocks

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), max_size=12),
           st.booleans(), st.booleans(), st.integers(1, 16))
    def check(lines, bom, ends, block):
        data = b"\n".join(lines) + (b"\n" if ends and lines else b"")
        text = data if bom else data.removeprefix(b"\xef\xbb\xbf")
        try:
            blocks = list(byte_blocks(io.BytesIO((b"\xef\xbb\xbf" if bom else b"") + data), "x",
                                      block, first=first))
        except FileFormatError:     # gzip, Parquet, UTF-16 or UTF-32 bytes first
            assert text.startswith((b"\x1f\x8b", b"PAR1", b"\xff\xfe", b"\xfe\xff",
                                    b"\x00\x00\xfe\xff"))
            return
        assert b"".join(blocks) == text
        assert all(b.endswith(b"\n") for b in blocks[:-1]) and all(blocks)
    check()
