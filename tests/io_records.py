"""Records, files and scoring helpers shared by test_io.py and
test_io_boundaries.py."""
import copy

import numpy as np
import orjson

import ofc_fast.io as fio

A = {"name": "alice", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d",
     "discards": "Ah 3d 8c 4s"}
B = {"name": "bob", "top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d",
     "discards": "Js Jh 6s 9s"}
C = {"name": "carol", "top": "4c 4d 6c", "middle": "Jc Jd 8s 8h 2s", "bottom": "As Ad Ac Kc 3s",
     "discards": "Qh Qc 6h 5c"}


def hand(id="h1", players=(A, B), **kw):
    rec = {"format": "ofc-hand/1", "id": id, "variant": "pineapple",
           "players": [copy.deepcopy(p) for p in players]}
    rec.update(kw)
    return rec


def write_jsonl(path, records):
    with open(path, "wb") as f:
        for r in records:
            f.write((r if isinstance(r, bytes) else orjson.dumps(r)) + b"\n")
    return str(path)


def scored(path, **kw):
    """(chunks scored, concatenated columns) of a file."""
    cols = {k: [] for k in ("points", "royalties", "foul", "fantasyland", "recorded", "cards",
                            "ids", "names", "fl")}
    for chunk in fio.read_chunks(path, **kw):
        chunk.score()
        cols["points"].append(chunk.points)
        cols["royalties"].append(chunk.royalty_total)
        cols["foul"].append(chunk.foul)
        cols["fantasyland"].append(chunk.next_fantasyland)
        cols["recorded"].append(np.where(chunk.has_recorded, chunk.recorded, -99999))
        cols["cards"].append(chunk.cards(18))
        cols["ids"] += [str(i) for i in chunk.hand_ids()]
        cols["names"] += chunk.names()
        cols["fl"].append(chunk.in_fantasyland)
    return {k: (np.concatenate(v) if k not in ("ids", "names") else v) for k, v in cols.items()}


def parquet_rows(tmp_path, recs, name="h.parquet", **kw):
    src = write_jsonl(tmp_path / "src.jsonl", recs)
    out = str(tmp_path / name)
    with fio.open_writer(out, **kw) as w:
        for c in fio.read_chunks(src):
            w.write(c)
    import pyarrow.parquet as pq
    return pq.read_table(out)
