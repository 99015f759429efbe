"""Frames in memory (issue 12): ``ofc_fast.io.score_frame`` on pandas, pyarrow
and polars frames, and Arrow tables of the library that every frame library
reads (docs/formats.md, "Frames in memory")."""

import numpy as np
import orjson
import pytest

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")

import ofc_fast.io as fio  # noqa: E402
from io_records import A, B, hand  # noqa: E402
from ofc_fast.records import chunk_from_records  # noqa: E402


# ------------------------------------------------- Arrow tables of the library
def test_library_tables_convert_to_pandas(sample_records):
    """One variant name under several options was a duplicate dictionary
    entry, which pandas refuses as categories."""
    recs = [hand("a"), hand("b", options={"finnish": True}), hand("c", variant="classic"),
            hand("d", options={"finnish": True, "american": True})]
    chunk = chunk_from_records(recs).score()
    for table in (fio.chunk_table(chunk), fio.chunk_table(chunk, results_only=True)):
        df = table.to_pandas()
        assert df["variant"].tolist() == ["pineapple"] * 4 + ["classic"] * 2 + ["pineapple"] * 2
        assert list(df["variant"].cat.categories) == ["pineapple", "classic"]
    chunk = chunk_from_records(sample_records).score()
    df = fio.chunk_table(chunk).to_pandas()
    assert len(df) == chunk.n_rows and df["variant"].notna().all()


# ------------------------------------------------------------- score_frame
RESULTS = ("points", "royalties", "foul", "fantasyland", "recorded_points", "substitutes")


def _expected(records, **rules):
    """Our results per player-hand, by the record reader (not by frames)."""
    from ofc_fast.records import Rules
    chunk = chunk_from_records(records, Rules(**rules) if rules else Rules()).score()
    differ = chunk.has_recorded & (chunk.recorded != chunk.points)
    return {"points": chunk.points.tolist(), "royalties": chunk.royalty_total.tolist(),
            "foul": chunk.foul.tolist(), "fantasyland": chunk.next_fantasyland.tolist(),
            "recorded_points": [int(x) if d else None for x, d in
                                zip(chunk.recorded.tolist(), differ.tolist(), strict=True)],
            "substitutes": [t or None for t in
                            (lambda c, t: [t[k] for k in c.tolist()])(*chunk.substitute_codes())]}


def _got(out):
    """The result columns of any frame as lists (nulls as None)."""
    if isinstance(out, pd.DataFrame):
        return {k: [None if pd.isna(x) else (bool(x) if k == "foul" else
                                             x if k == "substitutes" else int(x))
                    for x in out[k].tolist()] for k in RESULTS}
    if not isinstance(out, (pa.Table, pa.RecordBatch)):
        out = out.to_arrow()
    return {k: out.column(k).to_pylist() for k in RESULTS}


def _text_rows(records):
    """The CSV columns of records, one dict of lists (as pandas.read_csv gives them)."""
    cols = {k: [] for k in ("hand_id", "seat", "name", "variant", "options", "top", "middle",
                            "bottom", "third", "second", "discards", "in_fantasyland",
                            "points")}
    for r in records:
        for seat, p in enumerate(r["players"]):
            cols["hand_id"].append(str(r["id"]))
            cols["seat"].append(seat)
            cols["name"].append(p.get("name"))
            cols["variant"].append(r.get("variant"))
            cols["options"].append(orjson.dumps(r["options"]).decode() if r.get("options")
                                   else None)
            for row in ("top", "middle", "bottom", "third", "second"):
                cols[row].append(p.get(row))
            cols["discards"].append(p.get("discards"))
            cols["in_fantasyland"].append(p.get("in_fantasyland", 0))
            cols["points"].append(p.get("points"))
    return cols


def _ids_table(records):
    """The records as the library's Arrow table with card ids (unscored)."""
    return fio.chunk_table(chunk_from_records(records))


@pytest.fixture(scope="module")
def sample_text(sample_records):
    return _text_rows(sample_records)


def test_pandas_text_rows_score_like_the_file_readers(sample_records, sample_text):
    df = pd.DataFrame(sample_text)
    out = fio.score_frame(df)
    assert _got(out) == _expected(sample_records)
    assert list(out.columns) == [c for c in df.columns if c != "points"] + list(RESULTS)
    assert str(out["points"].dtype) == "int32" and str(out["recorded_points"].dtype) == "Int64"
    assert out["name"].tolist() == df["name"].tolist()       # the frame's own columns kept


def test_every_frame_kind_of_card_ids(sample_records):
    table = _ids_table(sample_records)
    want = _expected(sample_records)
    out = fio.score_frame(table)
    assert isinstance(out, pa.Table) and _got(out) == want
    batch = table.combine_chunks().to_batches()[0]
    out = fio.score_frame(batch)
    assert isinstance(out, pa.RecordBatch) and _got(out) == want
    out = fio.score_frame(table.to_pandas())
    assert isinstance(out, pd.DataFrame) and _got(out) == want


@pytest.mark.slow
def test_polars(sample_records, sample_text):
    pl = pytest.importorskip("polars")
    want = _expected(sample_records)
    for frame in (pl.from_arrow(_ids_table(sample_records)), pl.DataFrame(sample_text)):
        out = fio.score_frame(frame)
        assert isinstance(out, pl.DataFrame) and _got(out) == want
        assert out["points"].dtype == pl.Int32 and out["foul"].dtype == pl.Boolean
    with pytest.raises(TypeError, match="collect"):
        fio.score_frame(pl.DataFrame(sample_text).lazy())


def test_round_trips_with_the_parquet_writer(tmp_path, sample_records):
    import pyarrow.parquet as pq
    src = tmp_path / "in.jsonl"
    src.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in sample_records))
    want = _expected(sample_records)
    plain = str(tmp_path / "plain.parquet")
    fio.write_hands(sample_records, plain)                       # a hands file, unscored
    assert _got(fio.score_frame(pq.read_table(plain))) == want
    assert _got(fio.score_frame(pd.read_parquet(plain))) == want
    done = str(tmp_path / "scored.parquet")
    fio.score_file(str(src), done)                               # scored: points are ours
    scored = pq.read_table(done)
    again = fio.score_frame(scored)
    for k in ("points", "royalties", "foul", "fantasyland"):
        assert again.column(k).to_pylist() == scored.column(k).to_pylist() == want[k]
    assert again.column("recorded_points").null_count == again.num_rows
    # and a scored frame written by pyarrow is a hands file again
    pq.write_table(fio.score_frame(pq.read_table(plain)), str(tmp_path / "frame.parquet"))
    run = fio.score_file(str(tmp_path / "frame.parquet"), verify=True)
    assert run.hands == len(sample_records) and not run.mismatches


def test_pandas_of_arrow_backed_columns(tmp_path, sample_records):
    path = str(tmp_path / "h.parquet")
    fio.write_hands(sample_records, path)
    df = pd.read_parquet(path, dtype_backend="pyarrow")
    assert _got(fio.score_frame(df)) == _expected(sample_records)


def test_csv_written_by_the_library_reads_back_as_a_frame(tmp_path, sample_records):
    path = str(tmp_path / "h.csv")
    fio.write_hands(sample_records, path)
    out = fio.score_frame(pd.read_csv(path))       # empty columns come as float NaN
    assert _got(out) == _expected(sample_records)


def _uint8_addresses(frame_columns):
    return {c: a.__array_interface__["data"][0] for c, a in frame_columns.items()}


def test_arrow_and_pandas_card_ids_are_read_without_copies(monkeypatch, sample_records):
    """The card id columns reach the one gather pass at the addresses where
    the frame holds them (Arrow buffers, pandas' and polars' numpy memory)."""
    import ofc_fast.io.arrow as arrow
    seen = []
    real = arrow.gather_columns

    def spy(cols, out):
        seen.append([c.__array_interface__["data"][0] for c in cols])
        return real(cols, out)

    monkeypatch.setattr(arrow, "gather_columns", spy)
    table = _ids_table(sample_records).combine_chunks()
    names = [f"c{i:02d}" for i in range(18)]

    def buffer(col):
        a = col.chunk(0) if hasattr(col, "chunk") else col
        return a.buffers()[1].address + a.offset

    fio.score_frame(table)
    assert seen[-1] == [buffer(table.column(c)) for c in names]
    fio.score_frame(table.to_batches()[0])
    assert seen[-1] == [buffer(table.column(c)) for c in names]
    df = table.to_pandas()
    fio.score_frame(df)
    assert seen[-1] == [df[c].to_numpy().__array_interface__["data"][0] for c in names]
    pl = pytest.importorskip("polars")
    frame = pl.from_arrow(table)
    fio.score_frame(frame)
    assert seen[-1] == [frame[c].to_numpy().__array_interface__["data"][0] for c in names]


def test_pandas_index_and_other_columns_stay(sample_records):
    recs = sample_records[:20]
    df = pd.DataFrame(_text_rows(recs))
    df.index = ["x"] * len(df)                 # duplicate labels: placed by position
    df["note"] = range(len(df))
    out = fio.score_frame(df)
    assert list(out.index) == list(df.index) and out["note"].tolist() == list(range(len(df)))
    assert _got(out) == _expected(recs)
    assert _got(fio.score_frame(out)) == dict(_expected(recs),  # scored again: points agree
                                              recorded_points=[None] * len(df))


def test_seats_in_any_order_within_a_hand(sample_records):
    recs = sample_records[:60]
    df = pd.DataFrame(_text_rows(recs))
    rng = np.random.default_rng(5)
    order = np.concatenate([rng.permutation(g.index.to_numpy())
                            for _, g in df.groupby("hand_id", sort=False)])
    shuffled = df.loc[order].reset_index(drop=True)
    out = fio.score_frame(shuffled)
    want = pd.DataFrame(_expected(recs)).loc[order].reset_index(drop=True)
    assert _got(out) == {k: [None if pd.isna(x) else x for x in want[k].tolist()]
                         for k in RESULTS}


def test_a_frame_of_one_hand_with_its_seats_reversed(sample_records):
    """The smallest frame to put in seat order: two rows, seat 1 first."""
    recs = [r for r in sample_records if len(r["players"]) == 2][:1]
    df = pd.DataFrame(_text_rows(recs))
    assert df["seat"].tolist() == [0, 1]
    out = fio.score_frame(df.loc[[1, 0]].reset_index(drop=True))
    want = pd.DataFrame(_expected(recs)).loc[[1, 0]].reset_index(drop=True)
    assert _got(out) == {k: [None if pd.isna(x) else x for x in want[k].tolist()]
                         for k in RESULTS}
    assert out["points"].tolist() == [recs[0]["players"][1]["points"],
                                      recs[0]["players"][0]["points"]]


def test_four_row_and_one_string_rows(sample_records):
    recs = [r for r in sample_records if r.get("variant") == "big-pineapple"][:5]
    recs += sample_records[:5]
    cols = _text_rows(recs)
    cols["rows"] = [None] * len(cols["top"])
    for i in range(0, len(cols["top"]), 3):     # some players give all rows in one cell
        if cols["third"][i] is None:
            cols["rows"][i] = " / ".join(cols[k][i] for k in ("top", "middle", "bottom"))
            for k in ("top", "middle", "bottom"):
                cols[k][i] = None
    assert _got(fio.score_frame(pa.table(cols))) == _expected(recs)


def test_bad_hands_raise_with_position_and_hand(sample_records):
    from ofc_fast.errors import RecordError
    recs = [hand("a"), hand("b"), hand("c")]
    df = pd.DataFrame(_text_rows(recs))
    df.loc[3, "top"] = "Ks Kd Xs"
    with pytest.raises(RecordError, match=r"^pandas DataFrame, position 3: unknown card: hand "
                                          r"'b', seat 1 \(bob\), top row: unknown card 'Xs'"):
        fio.score_frame(df)
    df.loc[3, "top"] = "Ks Kd"
    with pytest.raises(RecordError, match=r"position 3: wrong row size: .*the top row needs 3"):
        fio.score_frame(df)
    df.loc[3, "top"] = "Ks Kd 4c"
    df.loc[5, "middle"] = "Ks 3h 4h 5h 6d"            # Ks: also in hand c seat 0's top
    with pytest.raises(RecordError, match=r"position 5: duplicate card: hand 'c', seat 1"):
        fio.score_frame(df)


def test_skip_bad_keeps_the_rows_with_the_reason(sample_records):
    recs = [hand("a"), hand("b"), hand("c"), hand("d")]
    df = pd.DataFrame(_text_rows(recs))
    df.loc[2, "bottom"] = "Ts Td"                             # hand b: a bad row
    df.loc[4, "seat"] = 3                                     # hand c: bad seats
    out = fio.score_frame(df, skip_bad=True)
    assert out["error"].isna().tolist() == [True, True, False, False, False, False, True, True]
    assert out.loc[2, "error"] == out.loc[3, "error"] and "wrong row size" in out.loc[2, "error"]
    assert "hand 'c'" in out.loc[4, "error"] and "seats [1, 3]" in out.loc[4, "error"]
    assert out["points"].isna().tolist() == out["error"].notna().tolist()
    assert str(out["points"].dtype) == "Int32" and str(out["foul"].dtype) == "boolean"
    good = _expected([recs[0], recs[3]])
    assert [int(x) for x in out["points"].dropna()] == good["points"]
    table = fio.score_frame(pa.Table.from_pandas(df), skip_bad=True)
    assert table.column("error").to_pylist() == [
        None if pd.isna(x) else x.replace("pandas DataFrame", "Arrow table")
        for x in out["error"].tolist()]


def test_verify_explains_each_mismatch():
    recs = [hand("a"), hand("b")]
    recs[1]["players"][0]["points"] = 10
    recs[1]["players"][1]["points"] = -6
    out = fio.score_frame(pd.DataFrame(_text_rows(recs)), verify=True)
    assert out["recorded_points"].tolist()[2] == 10
    assert out["mismatch"].notna().tolist() == [False, False, True, False]
    text = out.loc[2, "mismatch"]
    assert text.startswith("pandas DataFrame, position 2: hand 'b', seat 0 (alice): recorded "
                           "+10, ours +6") and "vs seat 1" in text
    assert "mismatch" not in fio.score_frame(pd.DataFrame(_text_rows(recs))).columns


@pytest.mark.parametrize("change, text", [
    (lambda df: df.drop(columns=["seat"]), r"missing columns \['seat'\]"),
    (lambda df: df.drop(columns=["top", "middle", "bottom", "third", "second"]),
     r"missing columns \['c00..c12'\]"),
    (lambda df: df.assign(seat=["0", "1", "0", "1"]), r"column 'seat' has type"),
    (lambda df: df.assign(hand_id=["a", "a", 2, 2]), r"column 'hand_id' cannot be read"),
    (lambda df: df.assign(top=[1, 2, 3, 4]), r"column 'top' has type 'int64'; it must be of a "),
    (lambda df: df.assign(options=[{"finnish": True}] * 4), r"column 'options' has type 'struct"),
    (lambda df: pd.concat([df, df[["seat"]]], axis=1), r"column 'seat' appears 2 times"),
])
def test_frames_of_the_wrong_shape_are_format_errors(change, text):
    from ofc_fast.errors import FileFormatError
    df = change(pd.DataFrame(_text_rows([hand("a"), hand("b")])))
    with pytest.raises(FileFormatError, match="^pandas DataFrame: " + text):
        fio.score_frame(df)


def test_card_id_columns_of_the_wrong_type():
    from ofc_fast.errors import FileFormatError, RecordError
    table = _ids_table([hand("a"), hand("b")])
    bad = table.set_column(table.column_names.index("c03"), "c03",
                           pa.array(["x"] * table.num_rows))
    with pytest.raises(FileFormatError, match="^Arrow table: column 'c03' has type 'string'"):
        fio.score_frame(bad)
    df = table.to_pandas()
    df["c04"] = df["c04"].astype(np.int64)
    df.loc[1, "c04"] = 300
    with pytest.raises(RecordError, match=r"position 1: unknown card: .* c04 must be a card id"):
        fio.score_frame(df)


def test_not_a_frame_and_bad_rules():
    from ofc_fast.errors import RulesError
    with pytest.raises(TypeError, match="pandas DataFrame, a pyarrow Table"):
        fio.score_frame({"hand_id": [1]})
    df = pd.DataFrame(_text_rows([hand("a")]))
    with pytest.raises(RulesError, match="nope"):
        fio.score_frame(df, variant="nope")
    out = fio.score_frame(df.drop(columns=["variant"]), variant="classic",
                          options={"finnish": True})
    assert _got(out) == _expected([hand("a")], variant="classic", options={"finnish": True},
                                  override=True)


def test_empty_frames():
    df = pd.DataFrame(_text_rows([hand("a")])).iloc[:0]
    out = fio.score_frame(df)
    assert len(out) == 0 and list(out.columns)[-6:] == list(RESULTS)
    assert fio.score_frame(pa.Table.from_pandas(df, preserve_index=False)).num_rows == 0


@pytest.mark.parametrize("kind", ["pandas", "arrow", "batch", "polars"])
@pytest.mark.parametrize("options", [dict(), dict(verify=True, skip_bad=True)])
def test_a_filter_that_matched_no_rows_scores_to_an_empty_result(kind, options):
    """A frame filtered down to no rows, its optional columns all null (each
    library gives such a column a type of its own: pandas object, polars
    String, float NaN from a CSV): an empty frame of the same kind, with
    the columns and result types a non-empty one gets (before: a
    FileFormatError on the type of an all-null optional column)."""
    rows = pd.DataFrame({"hand_id": ["h1", "h1"], "seat": [0, 1],
                         "top": [A["top"], B["top"]], "middle": [A["middle"], B["middle"]],
                         "bottom": [A["bottom"], B["bottom"]], "name": [None, None],
                         "points": [None, None], "in_fantasyland": [np.nan, np.nan],
                         "options": [None, None], "discards": [None, None],
                         "variant": [None, None], "n_players": [np.nan, np.nan]})

    def as_kind(df):
        if kind == "pandas":
            return df
        if kind == "polars":
            return pytest.importorskip("polars").from_pandas(df)
        t = pa.Table.from_pandas(df, preserve_index=False)
        return t if kind == "arrow" else t.to_batches()[0] if len(df) else \
            pa.RecordBatch.from_pylist([], schema=t.schema)

    full = fio.score_frame(as_kind(rows), **options)
    empty = fio.score_frame(as_kind(rows[rows["seat"] > 5]), **options)
    assert type(empty) is type(full) and len(empty) == 0 and len(full) == 2
    if kind == "pandas":
        assert empty.dtypes.to_dict() == full.dtypes.to_dict()
    elif kind == "polars":
        assert empty.schema == full.schema
    else:
        assert empty.schema.names == full.schema.names
        assert [empty.schema.field(c).type for c in FRAME_RESULTS_OF(full)] == \
            [full.schema.field(c).type for c in FRAME_RESULTS_OF(full)]


def FRAME_RESULTS_OF(frame):
    return [c for c in frame.schema.names if c in fio.frames.FRAME_RESULTS]


def test_positions_after_skipped_hands_of_both_kinds():
    """A hand of broken seats and one of a bad card before a mismatch: every
    later row keeps its position (results, errors and the mismatch)."""
    recs = [hand(x) for x in "abcde"]
    recs[4]["players"][1]["points"] = 99
    df = pd.DataFrame(_text_rows(recs))
    df.loc[2, "seat"] = 1                 # hand b: seats [1, 1]
    df.loc[5, "top"] = "Ks Kd Zz"         # hand c: unknown card
    out = fio.score_frame(df, skip_bad=True, verify=True)
    assert out["error"].notna().tolist() == [False, False, True, True, True, True, False, False,
                                             False, False]
    assert out["mismatch"].notna().tolist() == [False] * 9 + [True]
    assert out.loc[9, "mismatch"].startswith("pandas DataFrame, position 9: hand 'e', seat 1")
    assert out.loc[9, "recorded_points"] == 99
    assert "position 5" in out.loc[5, "error"] and "Zz" in out.loc[5, "error"]
    assert out["points"].tolist()[6:] == _expected(recs[3:])["points"]


def test_parquet_files_of_card_text(tmp_path, sample_records):
    """A Parquet file may hold the rows as card text, as CSV does; written
    back, it gets the layout as card ids too."""
    import pyarrow.parquet as pq
    cols = _text_rows(sample_records)
    cols["n_players"] = [len(r["players"]) for r in sample_records for _ in r["players"]]
    path, out = str(tmp_path / "text.parquet"), str(tmp_path / "out.parquet")
    pq.write_table(pa.table(cols), path, row_group_size=500)
    run = fio.score_file(path, out, verify=True)
    assert run.hands == len(sample_records) and not run.mismatches
    written = pq.read_table(out)
    assert written.column("top").to_pylist() == cols["top"]
    want = _expected(sample_records)
    assert written.column("points").to_pylist() == want["points"]
    again = pq.read_table(out).drop_columns(["top", "middle", "bottom", "third", "second"])
    assert _got(fio.score_frame(again))["points"] == want["points"]     # from c00.. alone


@pytest.mark.slow
def test_pandas_and_polars_are_imported_only_for_their_frames():
    """ofc_fast imports neither at import time, and polars only for a polars
    frame (pyarrow itself loads pandas, when installed, for its own checks)."""
    import os
    import subprocess
    import sys
    code = """if True:
        import sys
        import ofc_fast.io as fio
        print(sorted(m for m in ("pandas", "polars", "pyarrow") if m in sys.modules))
        import pyarrow as pa
        t = pa.table({"hand_id": ["h", "h"], "seat": [0, 1], "top": ["Qs Qd 2c", "Ks Kd 3c"],
                      "middle": ["9h 9d 9c 5s 5d", "2h 3h 4h 5h 6d"],
                      "bottom": ["7h 7d 7c 7s 2d", "Tc Td Ts Th 8d"]})
        assert fio.score_frame(t).column("points").to_pylist() == [6, -6]
        print("polars" in sys.modules)
    """
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       cwd=os.path.dirname(os.path.abspath(__file__)))   # not the source tree
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["[]", "False"]
