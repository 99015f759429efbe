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
DEE = {"name": "dee", "top": "As Ah 3d", "middle": "6s 6h 8c 9s 4d", "bottom": "Jc Js Jh Kh Qh"}
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


@pytest.mark.slow
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
        rec = {"id": rng.choice(WEIRD + [i, -i, None, 2 ** 63 - 1, 1.5, 0]),
               "players": ps}
        if big:
            rec["variant"] = "big-pineapple"
        elif rng.random() < 0.3:
            rec["variant"] = rng.choice(["classic", "turbo", "pineapple"])
        if not big and rng.random() < 0.3:
            rec["options"] = rng.choice([{"finnish": True}, {"american": True, "finnish": False}])
        recs.append(rec)
    return recs


@pytest.mark.slow
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
         b'"Tc Td Ts Th 8d","nick":"a","nick":"b"}],"options":{"finnish":true}}',
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


@pytest.mark.slow
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
    res = tuple(v for k, (v, _) in result_values(chunk).items()
                if k not in ("recorded_points", "substitutes"))
    vn, vo = variant_texts(chunk, "json")
    data, ends, left = jsonl_lines(walked.raw.blocks, walked.raw.where, chunk.hand_start,
                                   np.asarray(chunk.hand_variant), vn, vo, chunk.recorded,
                                   chunk.has_recorded, res)
    # escapes, floats, -0, a key twice (one the reader does not read: one it reads twice
    # is a bad record), options, 20 digits: the reference's; the others copied
    assert left.tolist() == [1, 2, 4]
    first = orjson.loads(data[:ends[0]])
    assert first["players"][0] == {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d",
                                   "bottom": "7h 7d 7c 7s 2d", "points": 6, "royalties": 29,
                                   "foul": False, "fantasyland": 14, "recorded_points": 3}
    assert list(first["players"][1])[-4:] == ["points", "royalties", "foul", "fantasyland"]
    assert data[ends[2]:].endswith(b',"id":1234,"variant":"pineapple"}\n')   # the rules applied


# ------------------------------------------------------------------ splicing
def _splice_agrees(got_lines, scored, rules=DEFAULT_RULES) -> int:
    """The lines as the reader reads them (the scanner's splice rows kept),
    written: the same bytes as the walker (splice rows dropped) and as
    orjson.  Returns how many lines were spliced."""
    data = b"\n".join(got_lines) + b"\n"
    try:
        chunks = list(read_jsonl(io.BytesIO(data), source="f", skip_bad=True, chunk_size=5,
                                 rules=rules))
    except FileFormatError:         # not UTF-8: no hands file
        return 0
    spliced = 0
    for chunk in chunks:
        if scored:
            chunk.score()
        raw = chunk.raw
        if isinstance(raw, SourceRecords) and raw.splice is not None:
            spliced += int(sum(raw.splice[h, 0] == 1 for h in range(chunk.n_hands)
                               if raw.items[h] is None))
        walked = copy.deepcopy(chunk)
        if isinstance(walked.raw, SourceRecords):
            walked.raw.splice = None
        got = jsonl_bytes(chunk)
        assert got == jsonl_bytes(walked) == reference_jsonl(chunk)
    return spliced


COMPACT = {"format": "ofc-hand/1", "id": "h1", "variant": "pineapple",
           "players": [dict(P, in_fantasyland=0, discards="Ah 3d 8c 4s", points=6),
                       dict(Q, discards="Js Jh 6s 9s", points=-6)]}


def _compact(rec) -> bytes:
    return orjson.dumps(rec)


def _splice_cases():
    """(line, spliced?) pairs: lines as orjson writes them are spliced, others walked."""
    base = copy.deepcopy(COMPACT)
    for line in (b'"players":[', b',"top":"Ks Kd 3c"', b'"name":"bob"', b'"id":"h1"',
                 b'"in_fantasyland":0'):
        assert line in _compact(base)
    out = [(_compact(base), True)]
    r = copy.deepcopy(base)
    del r["variant"]
    out.append((_compact(r), True))                                 # variant added at the end
    r = copy.deepcopy(base)
    r["variant"] = None
    out.append((_compact(r), True))                                 # a null variant replaced
    r = copy.deepcopy(base)
    for pl in r["players"]:
        del pl["points"]
    out.append((_compact(r), True))                                 # points appended
    r = {"players": base["players"], "variant": "classic", "id": 7}
    out.append((_compact(r), True))                                 # variant after the players
    r = copy.deepcopy(base)
    r["players"][0]["name"] = "José 名前"
    r["players"][1]["in_fantasyland"] = True
    r["format"] = None
    out.append((_compact(r), True))                                 # UTF-8, true, null
    r = dict(copy.deepcopy(base), players=[dict(P, points=1), dict(Q), dict(R, points=0)])
    out.append((_compact(r), True))                                 # three players
    out.append((_compact(base) + b"  \r", True))                   # white space after the end
    out.append((b" " + _compact(base), False))                      # white space before
    out.append((_compact(base).replace(b'"players":[', b'"players": ['), False))
    out.append((_compact(base).replace(b',"top":"Ks Kd 3c"', b' ,"top":"Ks Kd 3c"'), False))
    out.append((_compact(base).replace(b'"id":"h1"', b'"id":-0'), False))     # orjson: 0
    out.append((_compact(base).replace(b'"in_fantasyland":0', b'"in_fantasyland":-0'), False))
    out.append((_compact(base).replace(b'"id":"h1"', b'"id":"h1","x":1,"x":2'), False))
    out.append((_compact(base).replace(b'"name":"bob"', b'"name":"bob","y":1,"y":2'), False))
    out.append((_compact(base).replace(b'"id":"h1"', b'"id":"h1","options":null'), False))
    return out


@pytest.mark.parametrize("scored", [True, False])
@pytest.mark.parametrize("case", range(len(_splice_cases())))
def test_spliced_lines_are_the_bytes_orjson_writes(case, scored):
    line, spliced = _splice_cases()[case]
    assert _splice_agrees([line], scored) == int(spliced)


@pytest.mark.parametrize("rules", [Rules("classic", {"finnish": True}),
                                   Rules("turbo", override=True),
                                   Rules("pineapple", {"finnish": True}, override=True)])
def test_spliced_lines_with_other_rules(rules):
    lines_ = [c for c, _ in _splice_cases()]
    assert _splice_agrees(lines_, True, rules) == sum(s for _, s in _splice_cases())


def test_spliced_generated_lines_agree_with_the_walker_and_orjson():
    seen = []

    @examples(60, True)
    @given(st.lists(lines(), min_size=1, max_size=8), st.booleans())
    def check(got_lines, scored):
        seen.append(_splice_agrees(got_lines, scored))
    check()
    compact = [orjson.dumps(json.loads(line)) for line in
               open(sample_path(), "rb").read().splitlines()[:200]]
    assert _splice_agrees(compact, True) > 150 and _splice_agrees(compact, False) > 150


def _more_splice_cases():
    """(line, spliced?) pairs beyond the first set: escapes, nested values,
    null and odd points, four and five players, unicode."""
    base = copy.deepcopy(COMPACT)
    c = _compact(base)
    out = []
    for name in ('a"q', "back\\slash", "tab\there", "\x01ctl", "nul\x00"):
        r = copy.deepcopy(base)
        r["players"][0]["name"] = name
        out.append((_compact(r), False))                            # escaped by orjson too
    out.append((c.replace(b'"name":"bob"', b'"name":"Jos\\u00e9"'), False))  # orjson: raw é
    out.append((c.replace(b'"name":"bob"', b'"name":"a\\/b"'), False))      # orjson: /
    r = copy.deepcopy(base)
    r["players"][0]["name"] = "🂡 José 名前 ♠"
    r["id"] = "ид"
    out.append((_compact(r), True))                                 # raw UTF-8
    r = copy.deepcopy(base)
    r["players"][1]["extra"] = {"nested": [1, {"deep": None}]}
    out.append((_compact(r), False))                                # nested value
    r = copy.deepcopy(base)
    r["extra"] = [1, "a", {"b": []}]
    out.append((_compact(r), False))
    r = copy.deepcopy(base)
    for pl in r["players"]:
        pl["points"] = None
    out.append((_compact(r), True))                                 # null points replaced
    r = copy.deepcopy(base)
    r["players"][0]["points"] = None
    del r["players"][1]["points"]
    out.append((_compact(r), True))                                 # null and missing
    r = copy.deepcopy(base)
    r["players"][0]["points"] = 2 ** 40
    r["players"][1]["points"] = -(2 ** 40)
    out.append((_compact(r), True))                                 # big points
    r = copy.deepcopy(base)
    r["players"][0]["points"] = True
    out.append((_compact(r), False))                                # points true: a bad value
    out.append((c.replace(b'"points":6', b'"points":6.0'), False))  # a float
    out.append((c.replace(b'"points":6', b'"points":6e0'), False))
    r = dict(copy.deepcopy(base), variant="classic",
             players=[dict(P, points=3), dict(Q, points=None), dict(R), dict(DEE)])
    out.append((_compact(r), True))                                 # four players
    r = dict(copy.deepcopy(base), variant="classic",
             players=[dict(P), dict(Q), dict(R), dict(DEE), dict(Q, name="eve")])
    out.append((_compact(r), False))                                # five: no hand
    r = {"players": base["players"], "id": 3, "format": "ofc-hand/1"}
    out.append((_compact(r), True))                                 # no variant, id an int
    out.append((c.replace(b'"id":"h1"', b'"id":-12'), True))
    out.append((c.replace(b',"variant":"pineapple"', b',"variant":"pineapple" '), False))
    out.append((c.replace(b'"points":6', b'"points":\t6'), False))
    out.append((c.replace(b'"points":-6}', b'"points":-6 }'), False))
    out.append((c[:-1] + b" }", False))
    out.append((c + b"\r", True))                                   # CRLF
    out.append((c.replace(b'"top":"Qs Qd 2c"', b'"top":"qs qd 2c"'), True))    # lower case
    return out


@pytest.mark.parametrize("scored", [True, False])
@pytest.mark.parametrize("case", range(len(_more_splice_cases())))
def test_more_spliced_lines_are_the_bytes_orjson_writes(case, scored):
    line, spliced = _more_splice_cases()[case]
    assert _splice_agrees([line], scored) == int(spliced)


def test_spliced_lines_crlf_and_mixed_in_one_file():
    """Every case in one file with CRLF line ends, a spaced line between each
    (walked) and chunks cut across them: the same bytes, each canonical line
    spliced."""
    cases = _splice_cases() + _more_splice_cases()
    got = []
    for line, _ in cases:
        got += [line + b"\r", b' {"id": 1, "players": [' + orjson.dumps(P)[1:-1].replace(
            b",", b", ") + b"]}"]
    for scored in (True, False):
        assert _splice_agrees(got, scored) == sum(s for _, s in cases)


@st.composite
def canonical_records(draw):
    """A record as orjson writes it (maybe with the layout of another writer):
    1 to 5 players, names in any script (escapes too), points an integer,
    null, true or missing, the variant anywhere, null or missing."""
    names = st.sampled_from(["ann", "bob", "José", "名前", "🂡x", "a b", "", 'q"t', "b\\s",
                             "tab\t", "x" * 150])
    n = draw(st.integers(1, 5))
    players = []
    for p in range(n):
        pl = dict([P, Q, R, DEE][p % 4])
        if draw(st.booleans()):
            pl["name"] = draw(names)
        else:
            del pl["name"]
        pts = draw(st.sampled_from([None, True, False, 0, 7, -13, 2 ** 50, "missing"]))
        if pts != "missing":
            pl["points"] = pts
        if draw(st.booleans()):
            pl["in_fantasyland"] = draw(st.sampled_from([0, 1, 3, True, False]))
        if p < 2 and draw(st.booleans()):
            pl["discards"] = ["Ah 3d 8c 4s", "Js Jh 6s 9s"][p]
        keys = list(pl)
        order = draw(st.permutations(keys))
        players.append({k: pl[k] for k in order})
    rec = {"format": "ofc-hand/1", "id": draw(st.sampled_from(["h1", 0, 17, -5, "ид", "h 2"])),
           "variant": draw(st.sampled_from(["pineapple", "classic", None, "missing"])),
           "players": players}
    if rec["variant"] == "missing":
        del rec["variant"]
    order = draw(st.permutations(list(rec)))
    return {k: rec[k] for k in order}


@st.composite
def canonical_lines(draw):
    """(line, as orjson writes it?): a canonical record, mostly as orjson
    writes it, sometimes spaced, ASCII-escaped or ending in CR."""
    rec = draw(canonical_records())
    style = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4]))
    if style == 1:
        return json.dumps(rec).encode(), False                          # spaced
    if style == 2:
        return json.dumps(rec, ensure_ascii=True, separators=(",", ":")).encode(), None
    if style == 3:
        data = orjson.dumps(rec)
        k = draw(st.sampled_from([i for i, c in enumerate(data) if c in b",:[{"]))
        return data[:k + 1] + draw(st.sampled_from([b" ", b"\t", b"\r"])) + data[k + 1:], False
    return orjson.dumps(rec) + (b"\r" if style == 4 else b""), None


def test_spliced_canonical_lines_agree_with_the_walker_and_orjson():
    """Generated lines close to orjson's layout: the spliced bytes are the
    walker's and orjson's, and lines as orjson writes them are spliced (which
    ones exactly: the listed cases above)."""
    seen = []

    @examples(120, True)
    @given(st.lists(canonical_lines(), min_size=1, max_size=9), st.booleans())
    def check(got, scored):
        seen.append((_splice_agrees([x for x, _ in got], scored),
                     sum(1 for _, canon in got if canon is None)))
        assert seen[-1][0] <= seen[-1][1]           # a spaced line is never spliced
    check()
    spliced, canonical = map(sum, zip(*seen, strict=True))
    assert 0 < spliced <= canonical     # not all: escapes, invalid hands, five players


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
                                              "recorded_points", "substitutes")
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
        assert cols[-6:] == names
        if ro:
            assert cols == [*KEY_COLUMNS, *names]
        header = open(got["csv", ro]).readline().strip().split(",")
        assert header[-5:] == names[1:] and header[header.index("points"):] == names
        if ro:
            assert header == [*KEY_COLUMNS, *names]
        rec = orjson.loads(open(got["jsonl", ro], "rb").readline())
        # JSON Lines leaves out what is null: no joker, no substitutes
        assert [k for k in rec["players"][1] if k in names] == names[:-1]
    table = pq.read_table(got["parquet", False])
    for c in RESULTS:
        assert table.schema.field(c.name).type.to_pandas_dtype() == np.dtype(c.dtype)
    assert table.column("substitutes").null_count == table.num_rows     # no joker
    hands = str(tmp_path / "hands.parquet")
    fio.write_hands([{"id": 1, "players": [P, q]}], hands)
    frame = fio.score_frame(pq.read_table(hands))
    assert frame.column_names[-6:] == names
    assert frame.column("recorded_points").to_pylist() == [None, -5]


def test_dask_results_follow_the_schema():
    from ofc_fast.dask import RESULT_DTYPES
    assert list(RESULT_DTYPES) == [*KEY_COLUMNS, *RESULT_COLUMNS]
    assert [RESULT_DTYPES[c.name] for c in RESULTS] == ["int32", "int16", "bool", "uint8",
                                                         "Int64", "object"]


def test_score_file_writes_each_format_the_same_with_and_without_threads(tmp_path):
    src = str(tmp_path / "in.jsonl")
    recs = [json.loads(x) for x in open(sample_path(), encoding="utf-8")][:300]
    fio.write_hands(recs, src)
    for fmt in FORMATS_HERE:
        a, b = str(tmp_path / f"a.{fmt}"), str(tmp_path / f"b.{fmt}")
        fio.score_file(src, a, n_threads=1, chunk_size=37)
        fio.score_file(src, b, n_threads=2, chunk_size=37)
        assert open(a, "rb").read() == open(b, "rb").read()


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_a_file_of_no_hands_is_a_file_of_its_format(tmp_path, fmt):
    """A writer given no hands (selfplay of 0 hands, an input of none) leaves
    a file every reader opens: Parquet with a scored file's columns and no
    rows (was 0 bytes), CSV its header, JSON Lines nothing."""
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    from ofc_fast.io.csv import COLUMNS
    path = tmp_path / f"none.{fmt}"
    fio.open_writer(path).close()
    assert sum(c.n_hands for c in fio.read_chunks(path)) == 0
    if fmt == "csv":
        assert path.read_text().startswith(",".join(COLUMNS) + ",royalties,foul,")
    elif fmt == "parquet":
        import pyarrow.parquet as pq
        t = pq.read_table(path)
        assert t.num_rows == 0 and {"c00", "points", "foul"} <= set(t.column_names)
    else:
        assert path.read_bytes() == b""
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    scored = tmp_path / f"scored.{fmt}"
    assert fio.score_file(empty, scored).hands == 0
    assert sum(c.n_hands for c in fio.read_chunks(scored)) == 0


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_writer_given_up_adds_nothing(fmt):
    """abort() before any chunk: no header, no footer (a stream aborted
    must not emit a file of no hands)."""
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    from ofc_fast.io.csv import CsvWriter
    from ofc_fast.io.parquet import ParquetWriter
    buf = io.BytesIO()
    (CsvWriter if fmt == "csv" else ParquetWriter)(buf).abort()
    assert buf.getvalue() == b""


def test_score_file_to_a_stream_that_fails_first_writes_nothing(monkeypatch, capsysbinary):
    """A Parquet output on stdout given up before its first chunk emits nothing."""
    pytest.importorskip("pyarrow")
    from ofc_fast.errors import RecordError
    bad = io.BytesIO(b'{"id": 1, "players": [{"top": "As As 2c"}]}\n')
    with pytest.raises(RecordError):
        fio.score_file(bad, "-", format="jsonl", output_format="parquet", n_threads=1)
    assert capsysbinary.readouterr().out == b""


# --------------------------------------------------------- writers after close
_WRITERS = {"jsonl": "ofc_fast.io.jsonl:JsonlWriter", "csv": "ofc_fast.io.csv:CsvWriter",
            "parquet": "ofc_fast.io.parquet:ParquetWriter"}


@pytest.mark.parametrize("fmt", FORMATS_HERE)
@pytest.mark.parametrize("stop", ["close", "abort"])
def test_a_writer_closed_or_given_up_takes_no_more(tmp_path, fmt, stop):
    """write() after close() or abort(): the library's StateError, and the
    output as it was (before: a bare ValueError or AssertionError from the
    file or pyarrow, or, on a stream still open, lines after the end)."""
    import importlib

    from ofc_fast.errors import StateError
    chunk = chunk_from_records([{"id": "h1", "players": [P, Q]}]).score()
    path = tmp_path / f"h.{fmt}"
    w = fio.open_writer(path)
    w.write(chunk)
    getattr(w, stop)()
    done = path.read_bytes() if path.exists() else None
    with pytest.raises(StateError, match=rf"^{path}: the writer is closed$"):
        w.write(chunk)
    assert (path.read_bytes() if path.exists() else None) == done
    module, name = _WRITERS[fmt].split(":")
    buf = io.BytesIO()
    f = getattr(importlib.import_module(module), name)(buf)
    f.write(chunk)
    getattr(f, stop if hasattr(f, stop) else "close")()
    size = len(buf.getvalue())
    with pytest.raises(StateError, match=r"^write\(\) after close\(\): the writer is closed$"):
        f.write(chunk)
    assert len(buf.getvalue()) == size
