"""Fuzzing the boundaries of ofc_fast.io and the CLI (issue 9).

* Card text: every reader of records (JSON Lines rows and discards, CSV
  cells, Parquet text discards) agrees with the one grammar,
  :func:`ofc_fast.cards.parse_card_text`, on generated strings, including
  those of the plain length that the vectorised fast path looks at first.
* Files: generated good records mixed with bad ones (bad JSON, wrong types,
  huge numbers, nulls, bad cards, wrong counts, bad options, byte order
  marks, truncated or flipped .gz bytes, unbalanced CSV quotes, huge fields,
  Parquet values and types): nothing but the library's own errors is
  raised, records read = scored + skipped, and every good record gets the
  points it gets in a clean file.
* The CLI, in a child interpreter (a crash fails the test): exit status 0,
  1 or 2, never a traceback, short messages, and the summary's counts add up.

The default run is short and derandomized (the same examples every time);
``pytest -m fuzz tests/test_io_fuzz.py`` runs many more, randomly.
"""
from __future__ import annotations

import copy
import csv
import gzip
import io
import json
import os
import random
import re
import tempfile

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ofc_fast as ofc
import ofc_fast.io as fio
from fuzz_budget import examples
from isolated import run_isolated
from ofc_fast.cards import CardError, format_row, parse_card_text
from ofc_fast.errors import FileFormatError, OFCError, RecordError

pytestmark = pytest.mark.fuzz


@pytest.fixture
def budget(request):
    """``budget(short, long)``: hypothesis settings with ``short`` examples in
    the default run (derandomized), ``long`` under ``-m fuzz``."""
    expr = request.config.getoption("markexpr", "") or ""
    fuzzing = "fuzz" in expr and "not fuzz" not in expr

    def make(short: int, long: int):
        return settings(max_examples=long if fuzzing else examples(short), deadline=None,
                        derandomize=not fuzzing, database=None,
                        suppress_health_check=list(HealthCheck))
    return make


# ------------------------------------------------------------------ card text
TOKENS = ["Ks", "kS", "ks", "KS", "10h", "10H", "Th", "tH", "t♠", "K♠", "k♤", "Q♡", "2♧", "3♢",
          "A♠\ufe0f", "Ks1", "Qd2", "Jc0", "As", "2c", "9h", "5d", "Jc", "8s", "4d", "__", "xx",
          "XX", "??", "--", "Xs", "1s", "K", "s", "10", "Kx", "KS0", "Ks12", "101h", "0s"]
SEPS = ["", " ", " ", " ", "  ", ",", ";", "\t", ", ", " ;", "\u00a0", "\u2003", "/", "|", '"']
ALPHABET = "23456789TtJjQqKkAa10cdhsCDHS♣♦♥♠♧♢♡♤ ,;\t/|_-?xX\ufe0f\u00a0\u2003\"'é"


@st.composite
def card_texts(draw):
    """Card text: tokens (good and bad) with separators (often of the plain
    length, 3 characters a card), or any string of card-ish characters."""
    if draw(st.integers(0, 3)):
        k = draw(st.integers(0, 6))
        toks = draw(st.lists(st.sampled_from(TOKENS), min_size=k, max_size=k))
        seps = draw(st.lists(st.sampled_from(SEPS), min_size=k + 1, max_size=k + 1))
        text = "".join(s + t for s, t in zip(seps, toks, strict=False)) + \
            (seps[-1] if draw(st.booleans()) else "")
        return text.strip() if draw(st.booleans()) else text
    return draw(st.text(alphabet=ALPHABET, max_size=18))


A = {"name": "alice", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d",
     "discards": "Ah 3d 8c 4s"}
B = {"name": "bob", "top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d",
     "discards": "Js Jh 6s 9s"}
SIZES = {"top": 3, "middle": 5, "bottom": 5}


def _ids(text):
    return set(parse_card_text(text))


def expect_row(text: str, row: str):
    """What a reader must make of ``text`` as alice's ``row`` (the rest of the
    hand fixed): ("ok", ids) or (reason, None), by the grammar alone."""
    try:
        ids = parse_card_text(text, allow_empty=False)
    except CardError:
        return "unknown card", None
    if len(ids) != SIZES[row]:
        return "wrong row size", None
    others = set().union(*(_ids(A[r]) for r in SIZES if r != row), *(_ids(B[r]) for r in SIZES),
                         _ids(A["discards"]), _ids(B["discards"]))
    if len(set(ids)) != len(ids) or set(ids) & others:
        return "duplicate card", None
    return "ok", list(ids)


def expect_discards(text: str):
    """What a reader must make of ``text`` as alice's discards."""
    try:
        ids = parse_card_text(text, allow_empty=False)
    except CardError:
        return "unknown card", None
    others = set().union(*(_ids(A[r]) for r in SIZES), *(_ids(B[r]) for r in SIZES),
                         _ids(B["discards"]))
    if len(set(ids)) != len(ids) or set(ids) & others:
        return "duplicate card", None
    return "ok", list(ids)


def outcomes(chunks, field):
    """{hand id: ("ok", alice's ids of ``field``) or (reason, None)} of read chunks."""
    out = {}
    for c in chunks:
        ids = c.hand_ids()
        cards = c.cards()
        for h in range(c.n_hands):
            r = int(c.hand_start[h])
            if field == "discards":
                got = c.discard_ids(r)
            else:
                lo = {"top": 0, "middle": 3, "bottom": 8}[field]
                got = cards[r, lo:lo + SIZES[field]].tolist()
            out[str(ids[h])] = ("ok", got)
        for e in c.errors:
            out[str(e.hand_id)] = (e.reason, None)
    return out


def _write_csv(path, recs, lines=None):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["hand_id", "seat", "name", "top", "middle", "bottom", "discards"])
        for r in recs:
            for s, p in enumerate(r["players"]):
                w.writerow([r["id"], s, p["name"], p["top"], p["middle"], p["bottom"],
                            p.get("discards", "")])
    return str(path)


def _jsonl(path, recs):
    with open(path, "wb") as f:
        f.write(b"".join(orjson.dumps(r) + b"\n" for r in recs))
    return str(path)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize("field", ["top", "middle", "discards"])
def test_readers_agree_with_the_grammar(budget, fmt, field):
    @budget(40, 1500)
    @given(st.lists(card_texts(), min_size=1, max_size=25))
    def check(texts):
        if fmt == "csv":    # a CSV value never spans lines (an unbalanced quote otherwise)
            texts = [t.replace("\n", " ").replace("\r", " ") for t in texts]
        recs = [{"id": f"f{i}", "variant": "pineapple",
                 "players": [dict(A, **{field: t}), dict(B)]} for i, t in enumerate(texts)]
        with tempfile.TemporaryDirectory() as d:
            path = _jsonl(os.path.join(d, "h.jsonl"), recs) if fmt == "jsonl" else \
                _write_csv(os.path.join(d, "h.csv"), recs)
            got = outcomes(fio.read_chunks(path, skip_bad=True), field)
        for i, t in enumerate(texts):
            want = expect_discards(t) if field == "discards" else expect_row(t, field)
            if field == "discards" and fmt == "csv" and want[0] == "ok" and not t:
                want = ("ok", [])
            assert got[f"f{i}"] == want, (t, got[f"f{i}"], want)
    check()


def test_parquet_text_discards_agree_with_the_grammar(budget):
    import pyarrow as pa

    from ofc_fast.io.parquet import chunk_from_arrow
    with tempfile.TemporaryDirectory() as d:
        base = _jsonl(os.path.join(d, "b.jsonl"), [{"id": "b", "variant": "pineapple",
                                                    "players": [A, B]}])
        with fio.open_writer(os.path.join(d, "b.parquet")) as w:
            for c in fio.read_chunks(base):
                w.write(c)
        import pyarrow.parquet as pq
        one = pq.read_table(os.path.join(d, "b.parquet"))

    @budget(40, 1500)
    @given(st.lists(card_texts(), min_size=1, max_size=25))
    def check(texts):
        n = len(texts)
        t = pa.concat_tables([one] * n)
        t = t.set_column(t.column_names.index("hand_id"), "hand_id",
                         pa.array([f"f{i}" for i in range(n) for _ in (0, 1)]))
        disc = [x for text in texts for x in (text, B["discards"])]
        t = t.set_column(t.column_names.index("discards"), "discards", pa.array(disc))
        chunk, _ = chunk_from_arrow(t, skip_bad=True)
        got = outcomes([chunk], "discards")
        for i, text in enumerate(texts):
            want = expect_discards(text)
            if want[0] == "ok" and not text:
                want = ("ok", [])
            assert got[f"f{i}"] == want, (text, got[f"f{i}"], want)
    check()


# --------------------------------------------------------- records, good and bad
VARIANTS = [("pineapple", 2, 3), ("classic", 2, 4), ("big-pineapple", 2, 2), ("turbo", 2, 2),
            ("pineapple-2-7", 2, 3)]


def good_record(rng: random.Random, hid: str) -> dict:
    """A valid hand: random cards, names, discards, fantasyland, recorded points."""
    name, lo, hi = rng.choice(VARIANTS)
    v = ofc.variant(name)
    P = rng.randint(lo, hi)
    deck = list(range(52))
    rng.shuffle(deck)
    spare = deck[P * v.n_cards:]
    players = []
    for p in range(P):
        cards = deck[p * v.n_cards:(p + 1) * v.n_cards]
        pl: dict = {"name": rng.choice(["ann", "ben", "cy", "dee", "é", "名"])}
        k = 0
        for row, size in zip(v.row_names, v.row_sizes, strict=True):
            pl[row] = format_row(cards[k:k + size])
            k += size
        if spare and rng.random() < 0.5:
            d, spare = spare[:rng.randint(0, min(4, len(spare)))], spare[4:]
            pl["discards"] = format_row(d)
        if rng.random() < 0.2:
            pl["in_fantasyland"] = rng.randint(0, 3)
        if rng.random() < 0.7:
            pl["points"] = rng.randint(-40, 40)
        players.append(pl)
    rec = {"format": "ofc-hand/1", "id": hid, "variant": name, "players": players}
    if name == "pineapple" and rng.random() < 0.2:
        rec["options"] = {"finnish": True}
    return rec


def _raw_with(rec, path, text):
    """The record as JSON with the value at ``path`` (player 0 field) replaced
    by raw JSON ``text`` (for numbers orjson would not write)."""
    marker = "__RAW__"
    r = copy.deepcopy(rec)
    r["players"][0][path] = marker
    return orjson.dumps(r).replace(f'"{marker}"'.encode(), text.encode())


def _set(rec, field, value, player=0):
    rec = copy.deepcopy(rec)
    rec["players"][player][field] = value
    return rec


def _without(rec, field, player=0):
    rec = copy.deepcopy(rec)
    del rec["players"][player][field]
    return rec


def _first_row(rec):
    return ofc.variant(rec["variant"]).row_names[0]


# Each mutation makes a good record certainly bad (one line of a JSON Lines file).
JSONL_MUTATIONS = {
    "bad json": lambda rec, rng: orjson.dumps(rec)[:rng.randint(1, 40)],
    "not an object": lambda rec, rng: rng.choice([b"[1, 2]", b"null", b"12", b'"x"', b"true"]),
    "players type": lambda rec, rng: dict(rec, players=rng.choice([{"a": 1}, [], "x", [1, 2],
                                                                   None])),
    "row type": lambda rec, rng: _set(rec, _first_row(rec), rng.choice(
        [5, None, {"a": 1}, [[1]], True, 1.5, ["Ks", 99], [-1, 2, 3]])),
    "row missing": lambda rec, rng: _without(rec, "middle" if "middle" in rec["players"][0]
                                             else "second"),
    "bad card": lambda rec, rng: _set(rec, _first_row(rec), rng.choice(
        ["Xx Qd 2c", "Qs Qd 1c", "Qs Qd __", "Qs Qd ??", "Q♠ Q♦ 2♣ 3"])),
    "row size": lambda rec, rng: _set(rec, _first_row(rec), rng.choice(
        ["", "Qs", "Qs Qd 2c 3c 4c 5c"])),
    "duplicate": lambda rec, rng: _set(rec, "bottom", rec["players"][0]["bottom"], 1),
    "points": lambda rec, rng: rng.choice([
        _set(rec, "points", rng.choice([1e20, 1.8e19, 2.7, [1], {"a": 1}, "9" * 500, "x",
                                        -1e19])),
        _raw_with(rec, "points", rng.choice(["18446744073709551615", "-9223372036854775809"]))]),
    "in_fantasyland": lambda rec, rng: rng.choice([
        _set(rec, "in_fantasyland", rng.choice([256, -1, 1.5, "x", [0], 1e10])),
        _raw_with(rec, "in_fantasyland", "9223372036854775808")]),
    "options": lambda rec, rng: dict(rec, options=rng.choice(
        [{"colour": 1}, {"foul_penalty": 1e30}, {"scoring": "x"}, 5, [1], {"repeat_limit": -5},
         {"scoring": {"row": 1}}, {"royalties": "nope"}, {"1": 2}])),
    "variant": lambda rec, rng: dict(rec, variant=rng.choice(["nope", 5, [1], {"a": 1}, ""])),
    "format": lambda rec, rng: dict(rec, format=rng.choice(["ofc-hand/2", 1, "OFC-HAND/1"])),
    "players count": lambda rec, rng: dict(rec, players=rng.choice(
        [rec["players"][:1], rec["players"] * 3])),
    "huge field": lambda rec, rng: _set(rec, _first_row(rec), "Zz " * rng.randint(50_000,
                                                                                   200_000)),
    "player type": lambda rec, rng: dict(rec, players=[rng.choice([1, "x", None, []])] +
                                         rec["players"][1:]),
}


@st.composite
def record_mixes(draw, mutations):
    """(specs, seed): specs[i] is None (a good record) or a mutation name."""
    n = draw(st.integers(1, 40))
    specs = draw(st.lists(st.one_of(st.none(), st.none(), st.sampled_from(sorted(mutations))),
                          min_size=n, max_size=n))
    return specs, draw(st.integers(0, 2 ** 32 - 1))


def build(specs, seed, mutations):
    """(records or raw lines, good records, index of the first bad one)."""
    rng = random.Random(seed)
    items, good = [], []
    for i, kind in enumerate(specs):
        rec = good_record(rng, f"r{i}")
        if kind is None:
            items.append(rec)
            good.append(rec)
        else:
            items.append(mutations[kind](rec, rng))
    return items, good


def scored_points(path, **kw):
    """(run, {hand id: points}) of a file scored with skip_bad."""
    points = {}

    def keep(chunk):
        for h, hid in enumerate(chunk.hand_ids()):
            lo, hi = int(chunk.hand_start[h]), int(chunk.hand_start[h + 1])
            points[str(hid)] = chunk.points[lo:hi].tolist()
    run = fio.score_file(path, on_chunk=keep, **kw)
    return run, points


def clean_points(good, d):
    if not good:
        return {}
    return scored_points(_jsonl(os.path.join(d, "clean.jsonl"), good))[1]


def check_mixed(path, good, n_records, d, first_bad_line=None, out=None, chunk_size=None):
    """The properties every mixed file must have (module docstring)."""
    try:
        run, points = scored_points(path, skip_bad=True, out=out, verify=True,
                                    chunk_size=chunk_size)
    except OFCError as e:
        assert not isinstance(e, RecordError), e     # skip_bad: only file errors stop
        raise
    assert run.records == run.hands + len(run.skipped)
    if n_records is not None:
        assert run.records == n_records
    assert set(points) == {r["id"] for r in good}
    assert points == clean_points(good, d)
    assert all(len(str(e)) < 1000 for e in run.skipped)
    if first_bad_line is not None:
        with pytest.raises(RecordError) as ei:
            fio.score_file(path, chunk_size=chunk_size)
        assert ei.value.line == first_bad_line
    if out is not None:
        again = fio.score_file(out)
        assert again.hands == len(good) and not again.skipped
    return run


def test_jsonl_good_and_bad_records(budget):
    @budget(25, 600)
    @given(record_mixes(JSONL_MUTATIONS), st.booleans(), st.booleans(), st.sampled_from(
        ["jsonl", "csv", "parquet", "jsonl.gz"]), st.sampled_from([None, 3]))
    def check(mix, bom, crlf, out_fmt, chunk_size):
        specs, seed = mix
        items, good = build(specs, seed, JSONL_MUTATIONS)
        lines = [x if isinstance(x, bytes) else orjson.dumps(x) for x in items]
        end = b"\r\n" if crlf else b"\n"
        data = (b"\xef\xbb\xbf" if bom else b"") + b"".join(x + end for x in lines)
        first_bad = next((i + 1 for i, k in enumerate(specs) if k is not None), None)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "h.jsonl")
            with open(path, "wb") as f:
                f.write(data)
            check_mixed(path, good, len(items), d, first_bad,
                        out=os.path.join(d, f"out.{out_fmt}"), chunk_size=chunk_size)
    check()


def test_gzip_truncated_or_flipped(budget):
    @budget(15, 400)
    @given(st.integers(0, 2 ** 32 - 1), st.integers(2, 30), st.sampled_from(["cut", "flip"]),
           st.floats(0, 1, exclude_max=True))
    def check(seed, n, how, where):
        rng = random.Random(seed)
        good = [good_record(rng, f"r{i}") for i in range(n)]
        blob = gzip.compress(b"".join(orjson.dumps(r) + b"\n" for r in good))
        k = int(where * len(blob))
        blob = blob[:k] if how == "cut" else \
            blob[:k] + bytes([blob[k] ^ (1 << rng.randint(0, 7))]) + blob[k + 1:]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "h.jsonl.gz")
            with open(path, "wb") as f:
                f.write(blob)
            out = os.path.join(d, "o.parquet")
            try:
                run, points = scored_points(path, skip_bad=True, out=out)
            except FileFormatError as e:
                assert str(e).startswith(path)
                assert not os.path.exists(out)
                return
            # the flip hit a byte gzip does not check (header time, OS ...): all is read
            assert how == "flip" and run.hands == n and not run.skipped
            assert points == clean_points(good, d)
    check()


# -------------------------------------------------------------------------- CSV
CSV_COLUMNS = ["hand_id", "seat", "n_players", "name", "variant", "options", "in_fantasyland",
               "top", "middle", "bottom", "third", "second", "discards", "points"]


def csv_rows(rec):
    out = []
    opts = json.dumps(rec["options"]) if rec.get("options") else ""
    for s, p in enumerate(rec["players"]):
        out.append([rec["id"], str(s), str(len(rec["players"])), p["name"], rec["variant"],
                    opts, str(p.get("in_fantasyland", "")), p["top"], p.get("middle", ""),
                    p["bottom"], p.get("third", ""), p.get("second", ""),
                    p.get("discards", ""), str(p.get("points", ""))])
    return out


def _cell(rows, rng, column, values, raw=False):
    """One row's ``column`` set to one of ``values`` (``raw``: split at commas,
    so the row gets more fields than the header)."""
    r = rng.randrange(len(rows))
    value = rng.choice(values)
    k = CSV_COLUMNS.index(column)
    rows[r][k:k + 1] = value.split(",") if raw else [value]
    return rows


CSV_MUTATIONS = {
    "seat": lambda rows, rng: _cell(rows, rng, "seat", ["x", "1.5", "99", "-1", "", "²"]),
    "n_players": lambda rows, rng: _cell(rows, rng, "n_players", ["9", "x", "1"]),
    "points": lambda rows, rng: _cell(rows, rng, "points", ["2.7", "1e20", "9" * 30, "abc",
                                                            "1_000", "٣", "--5", "-", "+-1"]),
    "in_fantasyland": lambda rows, rng: _cell(rows, rng, "in_fantasyland", ["300", "-1", "x",
                                                                            "1.5"]),
    "options": lambda rows, rng: [r[:5] + [rng.choice(["{bad", "[1]", '{"colour": 1}', "5"])]
                                  + r[6:] for r in rows],
    "variant": lambda rows, rng: [r[:4] + [rng.choice(["nope", "pineapple-9"])] + r[5:]
                                  for r in rows],
    "card": lambda rows, rng: _cell(rows, rng, "top", ["Xx Qd 2c", "Qs Qd", "__ Qd 2c"]),
    "huge field": lambda rows, rng: _cell(rows, rng, "name", ["n" * 140_000]),
    "extra field": lambda rows, rng: _cell(rows, rng, "points", ["1,x", "0,0"], raw=True),
}


@st.composite
def csv_mixes(draw):
    specs, seed = draw(record_mixes(CSV_MUTATIONS))
    return specs, seed, draw(st.booleans()), draw(st.one_of(st.none(), st.integers(0, 10 ** 6)))


def test_csv_good_and_bad_records(budget):
    @budget(20, 500)
    @given(csv_mixes(), st.sampled_from([None, 2]))
    def check(mix, chunk_size):
        specs, seed, bom, quote_at = mix
        rng = random.Random(seed)
        rows, good, starts = [], [], []
        for i, kind in enumerate(specs):
            rec = good_record(rng, f"r{i}")
            hand_rows = csv_rows(rec)
            if kind is None:
                good.append(rec)
            else:
                hand_rows = CSV_MUTATIONS[kind](hand_rows, rng)
            starts.append(len(rows))
            rows += hand_rows
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(CSV_COLUMNS)
        w.writerows(rows)
        text = buf.getvalue()
        quote_line = None
        if quote_at is not None and rows:          # one stray quote: a file error
            lines = text.split("\n")
            k = 1 + quote_at % len(rows)
            if '"' not in lines[k] and len(lines[k]) < 100_000:
                lines[k] = lines[k].replace(",", ',"', 1)
                quote_line = k + 1
                text = "\n".join(lines)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "h.csv")
            with open(path, "wb") as f:
                f.write((b"\xef\xbb\xbf" if bom else b"") + text.encode())
            if quote_line is not None:
                with pytest.raises(FileFormatError) as ei:
                    fio.score_file(path, skip_bad=True, chunk_size=chunk_size)
                assert re.search(r"\(line ([\d,]+)\)", str(ei.value)).group(1).replace(",", "") \
                    == str(quote_line), str(ei.value)
                return
            check_mixed(path, good, None, d, out=os.path.join(d, "o.csv"),
                        chunk_size=chunk_size)
    check()


# ---------------------------------------------------------------------- Parquet
def _column_set(t, name, values, type=None):
    import pyarrow as pa
    arr = pa.array(values, type) if type is not None else pa.array(values)
    return t.set_column(t.column_names.index(name), name, arr)


def _pq_value(name, make):
    def mutate(t, rows, rng):
        vals = t.column(name).to_pylist()
        for r in rows:
            vals[r] = make(rng)
        return _column_set(t, name, vals)
    return mutate


PARQUET_MUTATIONS = {
    "points float": _pq_value("points", lambda rng: rng.choice([2.7, float("nan"), 1e20,
                                                                float("-inf")])),
    "fl": _pq_value("in_fantasyland", lambda rng: rng.choice([300, -1, 1.5])),
    "card": _pq_value("c04", lambda rng: rng.choice([77, 255, 2.5, None, -3, 300])),
    "seat": _pq_value("seat", lambda rng: rng.choice([None, 9, 1.5, -1])),
    "n_players": _pq_value("n_players", lambda rng: rng.choice([None, 9, 2.5])),
    "discards": _pq_value("discards", lambda rng: rng.choice([[99], [None], [1, 1], [2.5]])),
    "variant": _pq_value("variant", lambda rng: rng.choice(["nope", "pineapple-9"])),
    "options": _pq_value("options", lambda rng: rng.choice(["{bad", "[1]", '{"colour": 1}'])),
}
PARQUET_TYPE_MUTATIONS = {
    "card text": lambda t: _column_set(t, "c02", [str(x) for x in t.column("c02").to_pylist()]),
    "seat text": lambda t: _column_set(t, "seat", [str(x) for x in t.column("seat").to_pylist()]),
    "hand_id list": lambda t: _column_set(t, "hand_id", [[x] for x in
                                                         t.column("hand_id").to_pylist()]),
    "points text": lambda t: _column_set(t, "points", [str(x) for x in
                                                       t.column("points").to_pylist()]),
}


def test_parquet_good_and_bad_records(budget):
    import pyarrow as pa
    import pyarrow.parquet as pq

    @budget(20, 500)
    @given(record_mixes(PARQUET_MUTATIONS), st.one_of(st.none(), st.sampled_from(
        sorted(PARQUET_TYPE_MUTATIONS))), st.sampled_from([None, 7]))
    def check(mix, retype, chunk_size):
        specs, seed = mix
        rng = random.Random(seed)
        recs = [good_record(rng, f"r{i}") for i in range(len(specs))]
        for r in recs:                      # Parquet: every row has the same columns
            for p in r["players"]:
                p.setdefault("points", 0)
        with tempfile.TemporaryDirectory() as d:
            src = _jsonl(os.path.join(d, "src.jsonl"), recs)
            with fio.open_writer(os.path.join(d, "h.parquet"), width=18) as w:
                for c in fio.read_chunks(src):
                    w.write(c)
            t = pq.read_table(os.path.join(d, "h.parquet"))
            t = t.set_column(t.column_names.index("points"), "points",
                             t.column("points").cast(pa.float64()))
            t = t.set_column(t.column_names.index("in_fantasyland"), "in_fantasyland",
                             t.column("in_fantasyland").cast(pa.float64()))
            hid = t.column("hand_id").to_pylist()
            good = []
            for rec, kind in zip(recs, specs, strict=True):
                if kind is None:
                    good.append(rec)
                    continue
                rows = [i for i, h in enumerate(hid) if h == rec["id"]]
                t = PARQUET_MUTATIONS[kind](t, rows[:rng.randint(1, len(rows))], rng)
            if retype is not None:
                t = PARQUET_TYPE_MUTATIONS[retype](t)
            path = os.path.join(d, "x.parquet")
            pq.write_table(t, path)
            if retype is not None:
                with pytest.raises(FileFormatError, match="has type"):
                    fio.score_file(path, skip_bad=True)
                return
            check_mixed(path, good, None, d, out=os.path.join(d, "o.parquet"),
                        chunk_size=chunk_size)
    check()


# -------------------------------------------------------------------------- CLI
_CHILD = """
import contextlib, io, json, sys, traceback
from ofc_fast.cli import main
results = []
for argv in json.loads(sys.stdin.read()):
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
        except BaseException as e:
            code = "escaped: " + traceback.format_exc()
    results.append([code, err.getvalue()[-20000:], len(err.getvalue()), out.getvalue()[:3000]])
print(json.dumps(results))
"""


def run_cli_batch(argvs, cwd):
    """Run ``main(argv)`` for each argv in one child interpreter (a crash fails
    the test); [(status, stderr tail, stderr length, stdout head)]."""
    r = run_isolated(_CHILD, stdin=json.dumps(argvs).encode(), timeout=300, cwd=str(cwd))
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_cli_never_a_traceback(budget, tmp_path):
    @budget(2, 40)
    @given(record_mixes(JSONL_MUTATIONS), st.integers(0, 2 ** 32 - 1))
    def check(mix, seed):
        specs, s = mix
        items, good = build(specs, s, JSONL_MUTATIONS)
        rng = random.Random(seed)
        d = tempfile.mkdtemp(dir=tmp_path)
        j = os.path.join(d, "h.jsonl")
        with open(j, "wb") as f:
            f.write(b"\xef\xbb\xbf" + b"".join((x if isinstance(x, bytes) else orjson.dumps(x))
                                                + b"\n" for x in items))
        blob = gzip.compress(open(j, "rb").read())
        with open(os.path.join(d, "cut.jsonl.gz"), "wb") as f:
            f.write(blob[:rng.randrange(1, len(blob))])
        with open(os.path.join(d, "q.csv"), "w") as f:
            f.write('hand_id,seat,top,middle,bottom\nh1,0,"Qs Qd 2c,9h 9d 9c 5s 5d,7h\n')
        with open(os.path.join(d, "b.parquet"), "wb") as f:
            f.write(b"PAR1" + bytes(rng.randrange(256) for _ in range(200)) + b"PAR1")
        argvs = [["score", j, "--skip-bad", "-q", "-o", os.path.join(d, "o.csv")],
                 ["score", j, "--verify", "--no-summary"],
                 ["score", j, "--skip-bad", "--verify", "-o", os.path.join(d, "o.parquet")],
                 ["report", j, "--skip-bad", "--json", os.path.join(d, "r.json")],
                 ["score", os.path.join(d, "cut.jsonl.gz"), "--skip-bad"],
                 ["score", os.path.join(d, "q.csv"), "--skip-bad"],
                 ["score", os.path.join(d, "b.parquet"), "--skip-bad"],
                 ["score", j, "-o", j], ["show", j, "--index", "0"],
                 ["score", j, "--option", rng.choice(["foul_penalty=1e30", "scoring=x",
                                                      "colour=1", "repeat_limit=[1]"])]]
        results = run_cli_batch(argvs, d)
        any_bad = any(k is not None for k in specs)
        for argv, (code, err, n_err, out) in zip(argvs, results, strict=True):
            assert code in (0, 1, 2), (argv, code)
            assert "Traceback" not in err and "internal error" not in err, (argv, err)
            assert n_err < 100_000, (argv, n_err)
            m = re.search(r"read ([\d,]+) hands?: ([\d,]+) scored, ([\d,]+) skipped", err + out)
            if m:
                n, scored, skipped = (int(x.replace(",", "")) for x in m.groups())
                assert n == scored + skipped == len(items) and scored == len(good), argv
        codes = [r[0] for r in results]
        assert codes[0] == 0 and codes[4:8] == [2, 2, 2, 2] and codes[9] == 2
        assert codes[1] == (2 if any_bad else codes[1])
    check()


# ------------------------------------------------------- any value, any type
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 70), 1 << 70) |
    st.floats(allow_nan=False, allow_infinity=False) | st.text(alphabet=ALPHABET, max_size=20) |
    st.sampled_from(TOKENS),
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(
        st.sampled_from(["top", "middle", "bottom", "rows", "name", "points", "a", "1"]),
        inner, max_size=4)), max_leaves=12)
FIELDS = [("record", k) for k in ("id", "variant", "options", "players", "format")] + \
    [("player", k) for k in ("top", "middle", "bottom", "rows", "name", "in_fantasyland",
                             "discards", "points", "third")]


def _json_bytes(value) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:          # integers beyond 64 bits: written as JSON text
        return json.dumps(value).encode()


def test_jsonl_any_value_in_any_field(budget):
    """A field set to any JSON value (or a line of any bytes): only the
    library's errors, and the counts add up."""
    @budget(30, 1000)
    @given(st.lists(st.tuples(st.sampled_from(FIELDS), json_values | st.binary(max_size=30)),
                    min_size=1, max_size=12), st.integers(0, 2 ** 32 - 1))
    def check(changes, seed):
        rng = random.Random(seed)
        lines = []
        for i, ((where, key), value) in enumerate(changes):
            rec = good_record(rng, f"r{i}")
            if isinstance(value, bytes):
                lines.append(value.replace(b"\n", b" ") or b"x")
                continue
            (rec if where == "record" else rec["players"][0])[key] = value
            lines.append(_json_bytes(rec))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "h.jsonl")
            with open(path, "wb") as f:
                f.write(b"".join(x + b"\n" for x in lines))
            try:
                run = fio.score_file(path, skip_bad=True, output=os.path.join(d, "o.jsonl"),
                                     verify=True)
            except FileFormatError:        # a line of bytes that are not UTF-8
                return
            first = lines[0][3:] if lines[0].startswith(b"\xef\xbb\xbf") else lines[0]
            blank = sum(1 for x in [first] + lines[1:] if not x.strip())
            assert run.records == run.hands + len(run.skipped) == len(lines) - blank
    check()


@st.composite
def arrow_arrays(draw, n):
    """An Arrow array of ``n`` values of some type (numbers, text, lists, nulls ...)."""
    import pyarrow as pa
    kind = draw(st.sampled_from(["int", "uint64", "float", "bool", "text", "null", "list",
                                 "struct", "dict"]))
    if kind == "int":
        return pa.array(draw(st.lists(st.integers(-300, 300) | st.none(), min_size=n,
                                      max_size=n)), pa.int64())
    if kind == "uint64":
        return pa.array(draw(st.lists(st.integers(0, (1 << 64) - 1), min_size=n, max_size=n)),
                        pa.uint64())
    if kind == "float":
        return pa.array(draw(st.lists(st.floats() | st.none(), min_size=n, max_size=n)),
                        pa.float64())
    if kind == "bool":
        return pa.array(draw(st.lists(st.booleans() | st.none(), min_size=n, max_size=n)))
    if kind == "text":
        return pa.array(draw(st.lists(card_texts() | st.none(), min_size=n, max_size=n)),
                        pa.string())
    if kind == "null":
        return pa.nulls(n)
    if kind == "list":
        return pa.array(draw(st.lists(st.lists(st.integers(-2, 300), max_size=4) | st.none(),
                                      min_size=n, max_size=n)), pa.list_(pa.int64()))
    if kind == "struct":
        return pa.array([{"a": i} for i in range(n)])
    return pa.array(draw(st.lists(st.sampled_from(["pineapple", "x", "0"]), min_size=n,
                                  max_size=n))).dictionary_encode()


def test_parquet_any_column_of_any_type(budget):
    """A known column replaced by values of any type: a FileFormatError for a
    type the column cannot hold, else only record errors, counts adding up."""
    import pyarrow.parquet as pq
    columns = ["hand_id", "seat", "n_players", "c00", "c07", "c12", "variant", "options",
               "name", "in_fantasyland", "discards", "points"]

    @budget(30, 1000)
    @given(st.integers(0, 2 ** 32 - 1), st.sampled_from(columns), st.data())
    def check(seed, column, data):
        rng = random.Random(seed)
        recs = [good_record(rng, f"r{i}") for i in range(rng.randint(1, 6))]
        with tempfile.TemporaryDirectory() as d:
            src = _jsonl(os.path.join(d, "s.jsonl"), recs)
            with fio.open_writer(os.path.join(d, "h.parquet"), width=18) as w:
                for c in fio.read_chunks(src):
                    w.write(c)
            t = pq.read_table(os.path.join(d, "h.parquet"))
            arr = data.draw(arrow_arrays(t.num_rows))
            t = t.set_column(t.column_names.index(column), column, arr)
            path = os.path.join(d, "x.parquet")
            pq.write_table(t, path)
            try:
                run = fio.score_file(path, skip_bad=True, output=os.path.join(d, "o.parquet"))
            except FileFormatError as e:
                assert "has type" in str(e), e
                return
            assert run.records == run.hands + len(run.skipped)
            assert run.player_hands <= t.num_rows
    check()
