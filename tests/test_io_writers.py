"""The writers' C formatters (ofc_fast._write) against the reference writers
they stand in for, byte for byte.

* JSON Lines source lines with our results added (the walker) against
  ``orjson.dumps`` of the reference dicts (:func:`ofc_fast.io.jsonl.chunk_records`),
  on generated lines of every style (spaced, escaped, floats, keys twice,
  result keys already there, options, other rules, nested values);
* JSON Lines records written from columns (``hand_dict``), full and
  results only, from every kind of source;
* CSV rows against Python's csv module writing :func:`ofc_fast.io.csv.csv_records`,
  with names and ids that need quoting, line breaks, numbers and nulls;
* the Arrow table writer and frames against the one result schema.
"""
from __future__ import annotations

import copy
import csv
import io
import json
import random

import numpy as np
import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ofc_fast.io as fio
from ofc_fast._write import WriteBuffer, csv_texts, int_texts, json_texts
from ofc_fast.errors import FileFormatError
from ofc_fast.io.csv import csv_bytes, csv_records
from ofc_fast.io.jsonl import _dumps, _records_of, _results_records, jsonl_bytes, read_jsonl
from ofc_fast.io.schema import KEY_COLUMNS, RESULT_COLUMNS, RESULTS, result_values
from ofc_fast.records import DEFAULT_RULES, Rules, chunk_from_records
from ofc_fast.records.chunk import SourceRecords
from ofc_fast.report import sample_path
from optional import FORMATS_HERE
from readers_agree import examples
from test_io_jsonl import lines

P = {"name": "ann", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
Q = {"name": "bob", "top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
R = {"name": "cy", "top": "Ac Ad 4c", "middle": "3s 4s 5c 6c 8s", "bottom": "Jd Qc Kc 2s 8h"}
BIG = {"top": "As Ah 2c", "third": "Kc Kd Ks 3d 4d", "second": "Qc Qd Qh 5d 6d",
       "bottom": "Jc Jd Jh Js 7d"}
BIG2 = {"top": "2h 2d 3c", "third": "4c 5c 6c 7c 9s", "second": "8c 8d 8h 9d 9h",
        "bottom": "Tc Td Th Ts 6h"}
WEIRD = ["a,b", 'say "hi"', "line\nbreak", "cr\r\nlf", "lone\rcr", "", " lead", "José",
         "名前", "tab\there", "x" * 200, "\x00nul", "\x1fctl", "back\\slash", "🂡", ","]


def reference_jsonl(chunk, results_only=False) -> bytes:
    """What the reference JSON Lines writer writes (on a copy: it sets results in place)."""
    c = copy.deepcopy(chunk)
    if results_only and c.points is not None:
        return _dumps(_results_records(c))
    return _dumps(_records_of(c, range(c.n_hands)))


def reference_csv(chunk, results_only=False) -> bytes:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(csv_records(chunk, results_only))
    return buf.getvalue().encode()


def _sources(tmp_path):
    """Chunks of the bundled sample as each reader makes them."""
    out = {}
    for fmt in FORMATS_HERE:
        path = str(tmp_path / f"s.{fmt}")
        fio.score_file(sample_path(), path, summary=False)
        out[fmt] = path
    return out


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("scored, results_only", [(True, False), (True, True), (False, False)])
def test_writers_match_the_reference_on_every_source(tmp_path, fmt, scored, results_only):
    paths = _sources(tmp_path) if fmt != "jsonl" else {"jsonl": sample_path()}
    for chunk in fio.read_chunks(paths[fmt], chunk_size=300):
        if scored:
            chunk.score()
        ref_j, ref_c = reference_jsonl(chunk, results_only), reference_csv(chunk, results_only)
        assert jsonl_bytes(chunk, results_only) == ref_j
        assert csv_bytes(chunk, results_only, header=True) == ref_c
        out = WriteBuffer()
        assert bytes(jsonl_bytes(chunk, results_only, out=out)) == ref_j
        assert bytes(csv_bytes(chunk, results_only, header=True, out=out)) == ref_c


def _odd_chunk(rng: random.Random, n_hands: int):
    """Hands with names and ids of every awkward kind, options, four-row
    hands, fantasyland counts, recorded points equal to ours or not."""
    recs = []
    for i in range(n_hands):
        big = rng.random() < 0.2
        ps = copy.deepcopy([BIG, BIG2] if big else rng.sample([P, Q, R], rng.choice([2, 3])))
        for p in ps:
            p["name"] = rng.choice(WEIRD + [None, None])
            if p["name"] is None:
                del p["name"]
            if rng.random() < 0.3:
                p["in_fantasyland"] = rng.choice([1, 2, 255])
            if rng.random() < 0.5:
                p["points"] = rng.choice([0, 6, -6, 12, -(2 ** 63), 2 ** 63 - 1])
        rec = {"id": rng.choice(WEIRD + [i, -i, None, 2 ** 63 - 1, 1.5, True]),
               "players": ps}
        if big:
            rec["variant"] = "big-pineapple"
        elif rng.random() < 0.3:
            rec["variant"] = rng.choice(["classic", "turbo", "pineapple"])
        if not big and rng.random() < 0.3:
            rec["options"] = rng.choice([{"finnish": True}, {"american": True, "finnish": False}])
        recs.append(rec)
    return recs


def test_one_variant_many_hands(tmp_path):
    """One variant entry for many hands (the common file): every writer reads
    the entry of each hand from it, not past it."""
    rng = random.Random(5)
    recs = [{"id": f"h{i}", "players": copy.deepcopy(rng.sample([P, Q, R], 3))}
            for i in range(2000)]
    chunk = chunk_from_records(recs).score()
    assert len(chunk.variants) == 1
    assert csv_bytes(chunk, header=True) == reference_csv(chunk)
    assert csv_bytes(chunk, True, header=True) == reference_csv(chunk, True)
    chunk.raw = None
    assert jsonl_bytes(chunk) == reference_jsonl(chunk)


@pytest.mark.parametrize("seed", range(4))
def test_generated_records_and_csv_rows_match_the_reference(seed):
    rng = random.Random(seed)
    recs = _odd_chunk(rng, 60)
    for scored in (False, True):
        chunk = chunk_from_records(copy.deepcopy(recs))
        if scored:
            chunk.score()
        for results_only in (False, True):
            assert csv_bytes(chunk, results_only, header=True) == \
                reference_csv(chunk, results_only)
        chunk.raw = None            # written from the columns, as a CSV or Parquet source is
        for results_only in (False, True):
            assert jsonl_bytes(chunk, results_only) == reference_jsonl(chunk, results_only)


def _as_source_lines(chunk, line_bytes):
    """``chunk`` with each hand's source line to be read by the walker (none parsed)."""
    c = copy.deepcopy(chunk)
    blocks = [line_bytes[int(h) - 1] for h in c.hand_line]
    c.raw = SourceRecords([None] * c.n_hands, blocks,
                          np.array([[k, 0, len(b)] for k, b in enumerate(blocks)], np.int64)
                          .reshape(-1, 3))
    return c


def _walker_agrees(got_lines, scored, rules=DEFAULT_RULES):
    data = b"\n".join(got_lines) + b"\n"
    try:
        chunks = list(read_jsonl(io.BytesIO(data), source="f", skip_bad=True, chunk_size=5,
                                 rules=rules))
    except FileFormatError:         # not UTF-8: no hands file
        return
    for chunk in chunks:
        if scored:
            chunk.score()
        walked = _as_source_lines(chunk, got_lines)
        ref = copy.deepcopy(chunk)
        ref.raw = [orjson.loads(got_lines[int(h) - 1]) for h in chunk.hand_line]
        assert jsonl_bytes(walked) == _dumps(_records_of(ref, range(ref.n_hands)))


EXTRA = [b'{"id":"w1","players":[{"top":"Qs Qd 2c","middle":"9h 9d 9c 5s 5d","bottom":'
         b'"7h 7d 7c 7s 2d","points":3,"royalties":99,"foul":true,"fantasyland":0,'
         b'"recorded_points":5},{"bottom":"Tc Td Ts Th 8d","top":"Ks Kd 3c","middle":'
         b'"2h 3h 4h 5h 6d","recorded_points":-6}],"variant":"pineapple"}',
         b' { "players" : [ {"top":"Qs Qd 2c","middle":"9h 9d 9c 5s 5d","bottom":'
         b'"7h 7d 7c 7s 2d","meta":{"a":[1,{"b":null}],"c":"\\u00e9"}} , {"top":"Ks Kd 3c",'
         b'"middle":"2h 3h 4h 5h 6d","bottom":"Tc Td Ts Th 8d","points":-0,"x":1.5e3} ] , '
         b'"variant":"classic" } \r',
         b'{"players":[{"top":"Qs Qd 2c","middle":"9h 9d 9c 5s 5d","bottom":"7h 7d 7c 7s 2d",'
         b'"name":"Jos\xc3\xa9"},{"top":"Ks Kd 3c","middle":"2h 3h 4h 5h 6d","bottom":'
         b'"Tc Td Ts Th 8d","name":"a","name":"b"}],"options":{"finnish":true}}',
         b'{"players":[{"top":"Qs Qd 2c","middle":"9h 9d 9c 5s 5d",'
         b'"bottom":"7h 7d 7c 7s 2d","points":6,"points2":[]},{"top":"Ks Kd 3c","middle":'
         b'"2h 3h 4h 5h 6d","bottom":"Tc Td Ts Th 8d","points":-6}],"id":1234}',
         b'{"id":12345678901234567890,"players":[{"top":"Qs Qd 2c","middle":"9h 9d 9c 5s 5d",'
         b'"bottom":"7h 7d 7c 7s 2d"},{"top":"Ks Kd 3c","middle":"2h 3h 4h 5h 6d","bottom":'
         b'"Tc Td Ts Th 8d"}]}']


@pytest.mark.parametrize("scored", [True, False])
@pytest.mark.parametrize("rules", [DEFAULT_RULES, Rules("classic", {"finnish": True}),
                                   Rules("turbo", override=True),
                                   Rules("pineapple", {"finnish": True}, override=True)])
def test_the_walker_writes_what_orjson_writes_on_awkward_lines(scored, rules):
    _walker_agrees(EXTRA, scored, rules)


def test_the_walker_writes_what_orjson_writes_on_generated_lines():
    @examples(60, True)
    @given(st.lists(lines(), min_size=1, max_size=8), st.booleans())
    def check(got_lines, scored):
        _walker_agrees(got_lines, scored)
    check()


def test_the_walker_copies_the_common_line_and_leaves_the_rest_to_the_reference():
    from ofc_fast._write import jsonl_lines
    from ofc_fast.io.columns import variant_texts
    chunk = next(read_jsonl(io.BytesIO(b"\n".join(EXTRA) + b"\n"), source="f")).score()
    walked = _as_source_lines(chunk, EXTRA)
    res = tuple(v for k, (v, _) in result_values(chunk).items() if k != "recorded_points")
    vn, vo = variant_texts(chunk, "json")
    data, ends, left = jsonl_lines(walked.raw.blocks, walked.raw.where, chunk.hand_start,
                                   np.asarray(chunk.hand_variant), vn, vo, chunk.recorded,
                                   chunk.has_recorded, res)
    # escapes, floats, -0, a key twice, options, 20 digits: the reference's; the others copied
    assert left.tolist() == [1, 2, 4]
    first = orjson.loads(data[:ends[0]])
    assert first["players"][0] == {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d",
                                   "bottom": "7h 7d 7c 7s 2d", "points": 6, "royalties": 29,
                                   "foul": False, "fantasyland": 14, "recorded_points": 3}
    assert list(first["players"][1])[-4:] == ["points", "royalties", "foul", "fantasyland"]
    assert data[ends[2]:].endswith(b',"id":1234,"variant":"pineapple"}\n')   # the rules applied


@pytest.mark.parametrize("values, kinds", [
    (["a,b", 7, None, 1.5, True, 2 ** 70], [0, 1, 2, 0, 0, 0]),
])
def test_csv_and_json_texts(values, kinds):
    off, data, k = csv_texts(values)
    assert k.tolist() == kinds
    assert [data[a:b].decode() for a, b in zip(off[:-1], off[1:], strict=True)] == \
        ["a,b", "7", "", "1.5", "True", str(2 ** 70)]
    off, data, k = json_texts(values[:-1])
    assert [data[a:b] for a, b in zip(off[:-1], off[1:], strict=True)] == \
        [b"a,b", b"7", b"", b"1.5", b"true"]
    with pytest.raises(orjson.JSONEncodeError):
        json_texts([2 ** 70])
    off, data, k = int_texts(np.array([0, -(2 ** 63), 2 ** 63 - 1]))
    assert data == b"0" + str(-(2 ** 63)).encode() + str(2 ** 63 - 1).encode()


def test_a_buffer_being_read_is_not_written_over():
    chunk = chunk_from_records([{"id": 1, "players": [P, Q]}]).score()
    out = WriteBuffer()
    view = memoryview(csv_bytes(chunk, out=out))
    with pytest.raises(BufferError, match="still read"):
        csv_bytes(chunk, out=out)
    first = bytes(view)
    view.release()
    assert bytes(csv_bytes(chunk, out=out)) == first
    with pytest.raises(TypeError, match="read-only"):
        memoryview(out)[0] = 1


# ------------------------------------------------------------------ one schema
def test_every_writer_writes_the_schema_results_in_its_order(tmp_path):
    pytest.importorskip("pyarrow")
    names = [c.name for c in RESULTS]
    assert tuple(names) == RESULT_COLUMNS == ("points", "royalties", "foul", "fantasyland",
                                              "recorded_points")
    q = dict(Q, points=-5)
    src = str(tmp_path / "in.jsonl")
    fio.write_hands([{"id": 1, "players": [P, q]}], src)
    got = {}
    for fmt in fio.FORMATS:
        for ro in (False, True):
            out = str(tmp_path / f"o{int(ro)}.{fmt}")
            fio.score_file(src, out, results_only=ro)
            got[fmt, ro] = out
    import pyarrow.parquet as pq
    for ro in (False, True):
        cols = pq.read_table(got["parquet", ro]).column_names
        assert cols[-5:] == names
        if ro:
            assert cols == [*KEY_COLUMNS, *names]
        header = open(got["csv", ro]).readline().strip().split(",")
        assert header[-4:] == names[1:] and header[header.index("points"):] == names
        if ro:
            assert header == [*KEY_COLUMNS, *names]
        rec = orjson.loads(open(got["jsonl", ro], "rb").readline())
        assert [k for k in rec["players"][1] if k in names] == names
    table = pq.read_table(got["parquet", False])
    for c in RESULTS:
        assert table.schema.field(c.name).type.to_pandas_dtype() == np.dtype(c.dtype)
    hands = str(tmp_path / "hands.parquet")
    fio.write_hands([{"id": 1, "players": [P, q]}], hands)
    frame = fio.score_frame(pq.read_table(hands))
    assert frame.column_names[-5:] == names
    assert frame.column("recorded_points").to_pylist() == [None, -5]


def test_dask_results_follow_the_schema():
    from ofc_fast.dask import RESULT_DTYPES
    assert list(RESULT_DTYPES) == [*KEY_COLUMNS, *RESULT_COLUMNS]
    assert [RESULT_DTYPES[c.name] for c in RESULTS] == ["int32", "int16", "bool", "uint8",
                                                         "Int64"]


def test_score_file_writes_each_format_the_same_with_and_without_threads(tmp_path):
    src = str(tmp_path / "in.jsonl")
    recs = [json.loads(x) for x in open(sample_path(), encoding="utf-8")][:300]
    fio.write_hands(recs, src)
    for fmt in FORMATS_HERE:
        a, b = str(tmp_path / f"a.{fmt}"), str(tmp_path / f"b.{fmt}")
        fio.score_file(src, a, n_threads=1, chunk_size=37)
        fio.score_file(src, b, n_threads=2, chunk_size=37)
        assert open(a, "rb").read() == open(b, "rb").read()
