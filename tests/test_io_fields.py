"""What a field may hold, in every reader (issue 28).

A column given twice (in JSON Lines: a key the reader reads, given twice in
one object) is refused by every reader with one message, never read as one
of its copies: CSV (the C scanner's column path and the row reader alike),
JSON Lines (the scanner's lines and the general reader's), Parquet, Arrow
tables and batches, pandas frames.  ``true``/``false`` are read only where
the format says so (``in_fantasyland``: 1/0); anywhere else they are a bad
value naming the hand and the field (``points``, ``id``, ``name``), or, in
a typed table, a column of the wrong type."""
from __future__ import annotations

import io
import json

import pytest

import ofc_fast.io as fio
from ofc_fast.errors import FileFormatError, RecordError
from ofc_fast.io.csv import read_csv
from ofc_fast.io.jsonl import read_jsonl

QQ = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
KK = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
OTHER = {"top": "As Ad 3c", "middle": "2s 3s 4s 5s 6s", "bottom": "Tc Td Ts Th 8d",
         "points": "9"}          # what a second copy of a column holds
HEADER = ["hand_id", "seat", "n_players", "name", "variant", "options", "in_fantasyland",
          "top", "middle", "bottom", "discards", "points"]
TWICE = "column {!r} appears 2 times"


def _csv_rows(header, extra=()):
    """Two hands of QQ against KK (6, -6), with ``extra`` columns after the
    header's, each holding OTHER's value (or 'x')."""
    lines = [",".join([*header, *extra])]
    for h in ("h1", "h2"):
        for seat, p in enumerate((QQ, KK)):
            row = {"hand_id": h, "seat": str(seat), "n_players": "2", "name": f"p{seat}",
                   "variant": "pineapple", "options": "", "in_fantasyland": "0",
                   "discards": "", "points": str(6 - 12 * seat), **p}
            lines.append(",".join([*(row[c] for c in header),
                                   *(OTHER.get(c, "x") for c in extra)]))
    return ("\n".join(lines) + "\n").encode()


def _read_csv(data, path):
    if path == "text":
        return list(read_csv(io.StringIO(data.decode()), source="f"))
    return list(read_csv(io.BytesIO(data), source="f", fast=path == "columns"))


# ------------------------------------------------------------- a column twice
@pytest.mark.parametrize("path", ["columns", "rows", "text"])
@pytest.mark.parametrize("column", [*HEADER, "id", "rows", "third"])
def test_a_csv_column_twice_is_refused_by_both_paths(column, path):
    """Before: the second copy was read (a second top scored the hand on other
    cards, a second points became the recorded points)."""
    extra = [column, column] if column in ("id", "rows", "third") else [column]
    with pytest.raises(FileFormatError, match=rf"^f \(line 1\): {TWICE.format(column)}$"):
        _read_csv(_csv_rows(HEADER, extra), path)


@pytest.mark.parametrize("path", ["columns", "rows", "text"])
def test_a_csv_column_the_reader_does_not_read_may_be_twice(path):
    chunks = _read_csv(_csv_rows(HEADER, ["note", "note", "royalties", "royalties"]), path)
    assert [c.score().points.tolist() for c in chunks] == [[6, -6, 6, -6]]


def test_a_csv_column_twice_through_score_file_and_the_command(tmp_path, capsys):
    from ofc_fast.cli import main
    path = tmp_path / "h.csv"
    path.write_bytes(_csv_rows(HEADER, ["points"]))
    with pytest.raises(FileFormatError, match=TWICE.format("points")):
        fio.score_file(path, skip_bad=True)            # a file error: skip_bad skips no file
    assert main(["score", str(path), "-q"]) == 2
    assert capsys.readouterr().err.strip() == f"ofc-fast: {path} (line 1): {TWICE.format('points')}"


def _table(pa, twice):
    """A hands table (card text, or card ids) with column ``twice`` added again."""
    from ofc_fast.records import chunk_from_records
    rec = {"id": "h1", "players": [dict(QQ, points=6), dict(KK, points=-6)]}
    table = fio.chunk_table(chunk_from_records([rec]))
    if twice in ("top", "middle", "bottom"):
        for row in ("top", "middle", "bottom"):
            table = table.append_column(row, pa.array([QQ[row], KK[row]]))
        table = table.drop([c for c in table.column_names if c[0] == "c" and c[1:].isdigit()])
    col = table.column(twice)
    return table.append_column(twice, col if twice != "points" else pa.array([9, -9]))


@pytest.mark.parametrize("column", ["hand_id", "seat", "n_players", "top", "c00", "points",
                                    "in_fantasyland", "name"])
def test_a_column_twice_in_every_table_reader(tmp_path, column):
    """Parquet files, Arrow tables and batches, pandas frames: the message of
    the CSV reader (polars frames cannot hold a name twice)."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    table = _table(pa, column)
    assert table.column_names.count(column) == 2
    path = tmp_path / "h.parquet"
    pq.write_table(table, path)
    message = TWICE.format(column)
    with pytest.raises(FileFormatError, match=rf"^{path}: {message}$"):
        list(fio.read_chunks(path))
    with pytest.raises(FileFormatError, match=rf"^Arrow table: {message}$"):
        fio.score_frame(table)
    with pytest.raises(FileFormatError, match=rf"^Arrow record batch: {message}$"):
        fio.score_frame(table.to_batches()[0])
    with pytest.raises(FileFormatError, match=rf"^<arrow>: {message}$"):
        fio.chunk_from_arrow(table)
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(dict(enumerate(table.columns)))
    frame.columns = table.column_names
    with pytest.raises(FileFormatError, match=rf"^pandas DataFrame: {message}$"):
        fio.score_frame(frame)


def _line(rec):
    return json.dumps(rec, separators=(",", ":")).encode() + b"\n"


def _with_twice(where, key, first, second):
    """A record line with ``key`` given twice (in the record, or in seat 0)."""
    rec = {"id": "h1", "players": [dict(QQ), dict(KK)]}
    target = rec if where == "record" else rec["players"][0]
    target[key] = "@@"
    text = _line(rec).decode()
    return text.replace('"@@"', f"{json.dumps(first)},\"{key}\":{json.dumps(second)}").encode()


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("where, key, first, second", [
    ("seat", "top", "As Ad 3c", QQ["top"]), ("seat", "points", 6, 9),
    ("seat", "in_fantasyland", 1, 0), ("seat", "name", "ann", "bob"),
    ("seat", "discards", "Jc", "Jd"), ("record", "id", "h1", "h9"),
    ("record", "variant", "pineapple", "classic"), ("record", "format", None, "ofc-hand/1")])
def test_a_json_lines_key_twice_is_a_bad_record(fast, where, key, first, second):
    """orjson keeps the last copy; the scanner falls back on a key it has seen:
    both readers say which key, in which hand and seat, and go on with the
    next hand under skip_bad."""
    bad = _with_twice(where, key, first, second)
    good = _line({"id": "h2", "players": [dict(QQ), dict(KK)]})
    data = good + bad + good
    with pytest.raises(RecordError, match=rf"^f:2: bad record: hand .*: key {key!r} appears "
                                          "2 times$") as e:
        list(read_jsonl(io.BytesIO(data), source="f", fast=fast))
    assert e.value.seat == (0 if where == "seat" else None)
    chunks = list(read_jsonl(io.BytesIO(data), source="f", fast=fast, skip_bad=True))
    assert [c.n_hands for c in chunks] == [2] and len(chunks[0].errors) == 1


@pytest.mark.parametrize("fast", [True, False])
def test_json_lines_keys_that_are_not_a_repeat(fast):
    """A key the reader does not read twice, a known key inside an unknown
    value, a colon inside a string, white space before the colons: read."""
    recs = [b'{"id":"h1","x":1,"x":2,"players":[%s,%s]}',
            b'{"id":"h2","meta":{"top":1,"points":2},"players":[%s,%s]}',
            b'{"id":"h3:a","players":[%s,%s]}',
            b'{"id" : "h4" , "players" : [%s,%s]}']
    players = (json.dumps(QQ).encode(), json.dumps(KK).encode())
    data = b"\n".join(r % players for r in recs) + b"\n"
    chunks = list(read_jsonl(io.BytesIO(data), source="f", fast=fast))
    assert [i for c in chunks for i in c.hand_ids()] == ["h1", "h2", "h3:a", "h4"]


@pytest.mark.parametrize("fast", [True, False])
def test_a_key_spelled_with_an_escape_is_the_same_key(fast):
    data = _line({"id": "h1", "players": [dict(QQ), dict(KK)]}).replace(
        b'"top":"Qs Qd 2c"', b'"top":"Qs Qd 2c","\\u0074op":"As Ad 3c"')
    with pytest.raises(RecordError, match="key 'top' appears 2 times"):
        list(read_jsonl(io.BytesIO(data), source="f", fast=fast))


# ------------------------------------------------------------------- booleans
@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("field, value, text", [
    ("points", True, "points must be an integer (int64), got True"),
    ("points", False, "points must be an integer (int64), got False"),
    ("name", True, "name must be text, got True")])
def test_json_booleans_outside_in_fantasyland_are_bad_values(fast, field, value, text):
    """Before: "points": true was read as 1 (and false as 0)."""
    data = _line({"id": "h1", "players": [dict(QQ, **{field: value}), dict(KK)]})
    with pytest.raises(RecordError) as e:
        list(read_jsonl(io.BytesIO(data), source="f", fast=fast))
    assert (e.value.reason, e.value.hand_id, e.value.seat, e.value.detail) == \
        ("bad value", "h1", 0, text)


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("value", [True, False, [1], {"a": 1}])
def test_json_hand_ids_are_text_or_numbers(fast, value):
    data = _line({"id": value, "players": [dict(QQ), dict(KK)]})
    with pytest.raises(RecordError, match=r"^f:1: bad value: id must be text or a number, got "):
        list(read_jsonl(io.BytesIO(data), source="f", fast=fast))


@pytest.mark.parametrize("fast", [True, False])
def test_json_in_fantasyland_takes_true_and_false(fast):
    data = _line({"id": "h1", "players": [dict(QQ, in_fantasyland=True),
                                          dict(KK, in_fantasyland=False, points=-6)]})
    (chunk,) = read_jsonl(io.BytesIO(data), source="f", fast=fast)
    assert chunk.in_fantasyland.tolist() == [1, 0]
    assert chunk.recorded.tolist() == [0, -6] and chunk.has_recorded.tolist() == [False, True]


@pytest.mark.parametrize("path", ["columns", "rows", "text"])
@pytest.mark.parametrize("value", ["true", "false", "TRUE", "True"])
def test_csv_booleans_only_in_in_fantasyland(path, value):
    data = _csv_rows(HEADER).replace(b",0,Qs Qd 2c", f",{value},Qs Qd 2c".encode(), 1)
    (chunk,) = _read_csv(data, path)
    assert chunk.in_fantasyland.tolist()[0] == (1 if value.lower() == "true" else 0)
    data = _csv_rows(HEADER).replace(b",,6\n", f",,{value}\n".encode(), 1)
    with pytest.raises(RecordError) as e:
        _read_csv(data, path)
    assert (e.value.reason, e.value.hand_id, e.value.seat, e.value.detail) == \
        ("bad value", "h1", 0, f"points must be an integer (int64), got {value!r}")


def test_records_booleans_only_in_in_fantasyland():
    from ofc_fast.records import chunk_from_records
    chunk = chunk_from_records([{"id": 1, "players": [dict(QQ, in_fantasyland=True), KK]}])
    assert chunk.in_fantasyland.tolist() == [1, 0]
    for field in ("points", "name"):
        with pytest.raises(RecordError, match=rf"bad value: hand 1, seat 1.*: {field} must be"):
            chunk_from_records([{"id": 1, "players": [QQ, dict(KK, **{field: False})]}])


@pytest.mark.parametrize("column", ["points", "seat", "n_players", "hand_id", "name"])
def test_boolean_columns_where_a_number_or_text_is_expected(tmp_path, column):
    """A typed table says its type: a boolean column is a file error naming
    the column, in_fantasyland's is read as 1/0."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from ofc_fast.records import chunk_from_records
    rec = {"id": "h1", "players": [dict(QQ, points=6, name="a"), dict(KK, name="b")]}
    table = fio.chunk_table(chunk_from_records([rec]))
    i = table.column_names.index(column)
    bad = table.set_column(i, column, pa.array([True, False]))
    with pytest.raises(FileFormatError, match=rf"^Arrow table: column {column!r} has type "
                                              "'bool'; it must be of "):
        fio.score_frame(bad)
    pq.write_table(bad, tmp_path / "b.parquet")
    with pytest.raises(FileFormatError, match=rf"column {column!r} has type 'bool'"):
        list(fio.read_chunks(tmp_path / "b.parquet"))
    i = table.column_names.index("in_fantasyland")
    ok = table.set_column(i, "in_fantasyland", pa.array([True, False]))
    assert fio.chunk_from_arrow(ok)[0].in_fantasyland.tolist() == [1, 0]
