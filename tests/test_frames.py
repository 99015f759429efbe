"""Frames in memory (issue 12): ``ofc_fast.io.score_frame`` on pandas, pyarrow
and polars frames, and Arrow tables of the library that every frame library
reads (docs/formats.md, "Frames in memory")."""
import copy

import numpy as np
import orjson
import pytest

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")

import ofc_fast.io as fio  # noqa: E402
from ofc_fast.records import chunk_from_records  # noqa: E402
from ofc_fast.report import sample_path  # noqa: E402

A = {"name": "alice", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d",
     "discards": "Ah 3d 8c 4s"}
B = {"name": "bob", "top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d",
     "discards": "Js Jh 6s 9s"}


def hand(id="h1", players=(A, B), **kw):
    rec = {"format": "ofc-hand/1", "id": id, "variant": "pineapple",
           "players": [copy.deepcopy(p) for p in players]}
    rec.update(kw)
    return rec


@pytest.fixture(scope="module")
def sample_records():
    with open(sample_path(), "rb") as f:
        return [orjson.loads(line) for line in f]


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
