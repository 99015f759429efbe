"""Scale-out: scoring a Parquet dataset with Dask on a LocalCluster (ofc_fast.dask)."""
import os
import re

import numpy as np
import pytest

pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pytest.importorskip("pyarrow")

import ofc_fast.dask as od  # noqa: E402
import ofc_fast.io as fio  # noqa: E402
from ofc_fast.errors import RecordError  # noqa: E402
from ofc_fast.report import sample_path  # noqa: E402

# long (subprocesses, builds or many games): the full run, not the edit-test loop.
# dask's own Parquet reader calls DataFrame.reset_index(inplace=True), which
# pandas 3 deprecates (dask/dataframe/io/parquet/arrow.py): not ours to fix,
# and exactly that warning is let pass.
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings(
    "ignore:The inplace keyword in DataFrame.reset_index is deprecated")]

# A scheduler always serves HTTP (health, metrics) at its dashboard address,
# 8787 unless given one: ":0" takes a free port, so that two clusters at once
# (pytest-xdist, another program) do not collide on 8787 (a warning, and a
# socket distributed leaves open).
FREE_PORT = ":0"


def _sample_player_hands():
    import orjson
    with open(sample_path(), "rb") as f:
        return sum(len(orjson.loads(x)["players"]) for x in f if x.strip())


SAMPLE_PLAYER_HANDS = _sample_player_hands()


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=FREE_PORT) as c, \
            distributed.Client(c) as client:
        yield client


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """The bundled sample as three Parquet files, several row groups each."""
    folder = tmp_path_factory.mktemp("hands")
    chunks = list(fio.read_chunks(sample_path(), chunk_size=150))
    for i in range(3):
        with fio.open_writer(str(folder / f"part-{i}.parquet"), width=18) as w:
            for c in chunks[i::3]:
                w.write(c)
    return folder


def expected(folder):
    out = {}
    for path in sorted(folder.glob("*.parquet")):
        for c in fio.read_chunks(str(path)):
            c.score()
            for hid, seat, pts in zip(np.repeat(c.hand_ids(), c.n_players), c.seat, c.points,
                                      strict=True):
                out[(hid, int(seat))] = int(pts)
    return out


def test_score_parquet_on_a_local_cluster(cluster, dataset):
    scored = od.score_parquet(str(dataset / "*.parquet"))
    assert scored.results.npartitions >= 3
    results, totals = scored.compute()
    assert len(results) == SAMPLE_PLAYER_HANDS
    assert list(results.columns) == list(od.RESULT_DTYPES)
    got = {(h, int(s)): int(p) for h, s, p in
           zip(results.hand_id, results.seat, results.points, strict=True)}
    assert got == expected(dataset)
    assert results.recorded_points.isna().all()       # the sample's points are ours
    run = fio.score_file(sample_path())
    want = {p.name: p for p in run.summary.players()}
    assert set(totals.index) == set(want)
    for name, row in totals.iterrows():
        assert row["hands"] == want[name].hands and row["net"] == want[name].net
        assert row["fouls"] == want[name].fouls and row["royalties"] == want[name].royalties
        assert row["fantasyland"] == want[name].fantasyland
        assert abs(row["foul_pct"] - want[name].foul_pct) < 1e-9


def test_fsspec_url_and_rules(cluster, dataset):
    fsspec = pytest.importorskip("fsspec")
    mem = fsspec.filesystem("memory")
    for path in sorted(dataset.glob("*.parquet")):
        mem.pipe(f"/ofc-test/{path.name}", path.read_bytes())
    scored = od.score_parquet("memory://ofc-test/*.parquet")
    results = scored.results.compute()
    assert len(results) == SAMPLE_PLAYER_HANDS
    # override the recorded rules: every hand scored as classic
    over = od.score_parquet(str(dataset / "*.parquet"), variant="classic", override=True,
                            skip_bad=True).results.compute()
    assert set(over.variant) == {"classic"}
    assert len(over) < SAMPLE_PLAYER_HANDS   # 4-row and 3-player-only hands are not classic
    assert (over.groupby("hand_id").points.sum() == 0).all()


def test_bad_rows_fail_or_are_skipped(cluster, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    src = tmp_path / "a.parquet"
    fio.score_file(sample_path(), str(src))
    t = pq.read_table(src).slice(0, 30)
    c = t.column("c04").to_pylist()
    c[4] = 99
    t = t.set_column(t.column_names.index("c04"), "c04", pa.array(c, pa.uint8()))
    pq.write_table(t, tmp_path / "bad.parquet")
    scored = od.score_parquet(str(tmp_path / "bad.parquet"))
    with pytest.raises(RecordError, match="card id 99 is not a card"):
        scored.results.compute()
    ok = od.score_parquet(str(tmp_path / "bad.parquet"), skip_bad=True).results.compute()
    assert len(ok) == 30 - 3


def test_recorded_points_exact_and_file_errors(cluster, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ofc_fast.errors import FileFormatError
    src = tmp_path / "a.parquet"
    fio.score_file(sample_path(), str(src))
    t = pq.read_table(src).slice(0, 30).drop(["recorded_points"])
    pts = t.column("points").to_pylist()
    big = (1 << 60) + 1                       # not a float64: must stay exact
    pts[4] = big
    t = t.set_column(t.column_names.index("points"), "points", pa.array(pts, pa.int64()))
    pq.write_table(t, tmp_path / "big.parquet")
    results = od.score_parquet(str(tmp_path / "big.parquet")).results.compute()
    assert results.recorded_points.dropna().tolist() == [big]
    seat = t.column("seat").to_pylist()
    bad = t.set_column(t.column_names.index("seat"), "seat", pa.array([str(s) for s in seat]))
    pq.write_table(bad, tmp_path / "bad.parquet")
    with pytest.raises(FileFormatError, match="column 'seat' has type"):
        od.score_parquet(str(tmp_path / "bad.parquet"), skip_bad=True).results.compute()


# ------------------------------------------------------------------------ self-play
def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.parquet"))}


def test_selfplay_dataset_same_for_any_number_of_workers(tmp_path):
    """One and two workers (and the default scheduler) write the same files;
    partition p is seeded [seed, p]; every recorded point verifies."""
    kw = dict(variant="pineapple", n_hands=1000, partitions=3, seed=5, n_games=150,
              policies=[("greedy", {"samples": 2, "tries": 2}), "random", "random"],
              fantasyland={1: 14})
    got = {}
    for workers in (1, 2):
        with distributed.LocalCluster(processes=False, n_workers=workers, threads_per_worker=1,
                                      dashboard_address=FREE_PORT) as c, distributed.Client(c):
            folder = tmp_path / f"w{workers}"
            files = od.selfplay_parquet(str(folder), **kw)
            assert files == [str(folder / f"part-{p:05d}.parquet") for p in range(3)]
            got[workers] = _files(folder)
    assert got[1] == got[2] and len(got[1]) == 3
    od.selfplay_parquet(str(tmp_path / "local"), **kw)          # no cluster
    assert _files(tmp_path / "local") == got[1]
    # partition 1 is selfplay seeded [5, 1], its ids "1-g-k"
    from ofc_fast.sim import selfplay
    ref = selfplay("pineapple", 333, kw["policies"], seed=[5, 1], n_games=150,
                   fantasyland={1: 14})
    part = [c for c in fio.read_chunks(str(tmp_path / "w1" / "part-00001.parquet"))]
    assert sum(c.n_hands for c in part) == 333
    assert [i for c in part for i in c.hand_ids()] == [f"1-{i}" for i in ref.hand_ids()]
    assert (np.concatenate([c.cards(13) for c in part]) == ref.cards()).all()
    results, totals = od.score_parquet(str(tmp_path / "w2")).compute()
    assert len(results) == 3000 and results.recorded_points.isna().all()   # all agree
    assert int(totals["hands"].sum()) == 3000


def test_selfplay_dataset_partitions_without_hands(tmp_path):
    """More partitions than hands, or no hands: every file is a Parquet file
    with the dataset's columns (they were empty files, which no reader opens),
    so the dataset scores."""
    import pyarrow.parquet as pq
    for variant in ("pineapple", "big-pineapple"):
        folder = tmp_path / variant
        files = od.selfplay_parquet(str(folder), variant, 3, partitions=5, seed=1, n_games=2)
        assert [pq.ParquetFile(f).metadata.num_rows for f in files] == [2, 2, 2, 0, 0]
        assert len({pq.read_schema(f).names.__repr__() for f in files}) == 1
        results, totals = od.score_parquet(str(folder)).compute()
        assert len(results) == 6 and totals["hands"].tolist() == [3, 3]     # per player
        assert results.recorded_points.isna().all()
    empty = od.selfplay_parquet(str(tmp_path / "none"), "pineapple", 0, seed=1)
    assert len(empty) == 1 and pq.ParquetFile(empty[0]).metadata.num_rows == 0


def test_selfplay_dataset_refuses_a_folder_with_other_parts(tmp_path):
    """A folder holding parts the run would not write (another run's, with
    more partitions) is refused before any task: they were left beside the
    new ones, so reading the folder mixed the two datasets."""
    from ofc_fast.errors import ArgumentError
    folder = tmp_path / "d"
    od.selfplay_parquet(str(folder), "pineapple", 50, partitions=5, seed=1)
    before = _files(folder)
    with pytest.raises(ArgumentError, match="part-00002.parquet"):
        od.selfplay_parquet(str(folder), "pineapple", 20, partitions=2, seed=2)
    assert _files(folder) == before                         # nothing written
    od.selfplay_parquet(str(folder), "pineapple", 50, partitions=5, seed=3)   # replaced
    after = _files(folder)
    assert after.keys() == before.keys() and after != before


def test_selfplay_dataset_refuses_other_parts_at_a_url_too():
    """The same check through fsspec (here its in-memory file system)."""
    import fsspec

    from ofc_fast.errors import ArgumentError
    fs = fsspec.filesystem("memory")
    fs.pipe("/olddata/part-00004.parquet", b"PAR1")
    fs.pipe("/olddata/notes.txt", b"")
    try:
        with pytest.raises(ArgumentError, match="memory://olddata holds part-00004.parquet"):
            od.selfplay_parquet("memory://olddata", "pineapple", 20, partitions=2, seed=2,
                                compute=False)
        assert len(od.selfplay_parquet("memory://olddata", "pineapple", 50, partitions=5,
                                       seed=2, compute=False)) == 5    # its own parts: fine
    finally:
        fs.rm("/olddata", recursive=True)


def test_selfplay_dataset_default_partitions_are_bounded(tmp_path, monkeypatch):
    """One partition per 100,000 hands, at most the partitions' limit: 2**62
    hands made a list of 4.6e13 tasks (a MemoryError after the machine's
    memory)."""
    monkeypatch.setattr(od, "_MAX_PARTITIONS", 7)
    tasks = od.selfplay_parquet(str(tmp_path / "big"), "pineapple", 2**62, seed=1,
                                compute=False)
    assert len(tasks) == 7
    assert len(od.selfplay_parquet(str(tmp_path / "small"), "pineapple", 250_000, seed=1,
                                   compute=False)) == 3


def test_selfplay_dataset_bad_arguments(tmp_path):
    from ofc_fast.errors import ArgumentError
    with pytest.raises(ArgumentError, match="external"):
        od.selfplay_parquet(str(tmp_path / "a"), n_hands=10, policies=["external", "random"])
    with pytest.raises(TypeError, match="seed"):
        od.selfplay_parquet(str(tmp_path / "a"), n_hands=10, seed=1.5)
    with pytest.raises(ArgumentError, match="partitions"):
        od.selfplay_parquet(str(tmp_path / "a"), n_hands=10, partitions=0)
    with pytest.raises(TypeError, match="compute"):      # was truthy: ran
        od.selfplay_parquet(str(tmp_path / "a"), n_hands=10, compute="no")
    assert not (tmp_path / "a").exists()


def test_selfplay_dataset_at_a_file_or_a_device_is_an_output_error(tmp_path):
    """A path that is a file (or /dev/null), or under one: the library's
    OutputError naming it, before any task (before: a raw FileExistsError)."""
    from ofc_fast.errors import OutputError
    file = tmp_path / "hands"
    file.write_text("mine")
    cases = [(str(file), "cannot hold the dataset's part files: [Errno 20] it is a file or a "
                         "device, not a folder"),
             (str(file / "sub"), "cannot create the folder: [Errno 20] Not a directory")]
    if os.path.exists("/dev/null"):
        cases.append(("/dev/null", "cannot hold the dataset's part files"))
    for path, text in cases:
        with pytest.raises(OutputError, match="^" + re.escape(f"{path}: {text}")):
            od.selfplay_parquet(path, n_hands=10)
    assert file.read_text() == "mine"


def test_a_partition_with_a_column_twice_is_the_file_error_of_frames(cluster):
    """A Dask dataframe whose partitions name a column twice: the frames'
    message, naming the partition (before: pyarrow's "Duplicate column
    names found")."""
    import dask.dataframe as dd
    import pandas as pd

    from ofc_fast.errors import FileFormatError
    df = pd.DataFrame([["h1", 0, "Qs Qd 2c", "9h 9d 9c 5s 5d", "7h 7d 7c 7s 2d", "As Ad 3c"],
                       ["h1", 1, "Ks Kd 3c", "2h 3h 4h 5h 6d", "Tc Td Ts Th 8d", "2s 3s 4s"]],
                      columns=["hand_id", "seat", "top", "middle", "bottom", "top"])
    scored = od.score_frame(dd.from_pandas(df, npartitions=1))
    with pytest.raises(FileFormatError, match=r"^partition( 0)?: column 'top' appears 2 times$"):
        scored.results.compute()


def test_a_list_column_dask_made_text_is_named(cluster):
    """dd.from_pandas turns object columns into strings (Dask's
    'dataframe.convert-string'), so a discards list column arrives as
    '[37 39 29 44]': the error says so and how to keep the lists; kept, the
    frame scores as the file does."""
    import dask
    import dask.dataframe as dd

    from ofc_fast.errors import FileFormatError
    chunk = next(iter(fio.read_chunks(sample_path(), chunk_size=40)))
    pdf = fio.chunk_table(chunk).to_pandas()
    with dask.config.set({"dataframe.convert-string": True}):
        scored = od.score_frame(dd.from_pandas(pdf, npartitions=1))
    with pytest.raises(FileFormatError, match=r"column 'discards' holds '\[\d+ .*the text of "
                                              r"a list: .*'dataframe.convert-string': False"):
        scored.results.compute()
    with dask.config.set({"dataframe.convert-string": False}):
        results, _ = od.score_frame(dd.from_pandas(pdf, npartitions=1)).compute()
    chunk.score()
    assert results["points"].tolist() == chunk.points.tolist()


_INTERRUPTED = r"""
import os, signal, sys, threading, time
import ofc_fast.dask as od
folder, after, n_hands = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
signal.signal(signal.SIGALRM, signal.default_int_handler)     # the timer is a Ctrl-C

def watch():        # the timer goes off once `after` parts are in place (0: at once)
    while after and not (os.path.isdir(folder) and sum(
            n.startswith("part-") for n in os.listdir(folder)) >= after):
        time.sleep(0.002)
    signal.setitimer(signal.ITIMER_REAL, 0.001)

try:                # (the watch starts inside: an early signal is caught here too)
    threading.Thread(target=watch, daemon=True).start()
    od.selfplay_parquet(folder, "pineapple", n_hands, partitions=40, seed=3)
except KeyboardInterrupt:
    sys.exit(130)
"""


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="no interval timers")
def test_an_interrupted_selfplay_dataset_leaves_only_whole_parts(tmp_path):
    """A KeyboardInterrupt during selfplay_parquet (a timer's signal in a
    child process: at once, and after 1, 5 and 15 of 40 parts): every part
    file present reads whole, with all its hands, nothing else is left in
    the folder, and the run stops (status 130) without finishing."""
    import subprocess
    import sys
    n_hands, parts = 320_000, 40
    for after in (0, 1, 5, 15):
        folder = tmp_path / f"after{after}"
        r = subprocess.run([sys.executable, "-c", _INTERRUPTED, str(folder), str(after),
                            str(n_hands)], capture_output=True, text=True, timeout=300,
                           cwd=tmp_path)
        assert r.returncode == 130, (after, r.stderr)
        names = sorted(os.listdir(folder)) if folder.exists() else []
        assert all(n.startswith("part-") and n.endswith(".parquet") for n in names), names
        assert after <= len(names) < parts, (after, names)
        for name in names:
            hands = sum(c.n_hands for c in fio.read_chunks(str(folder / name)))
            assert hands == n_hands // parts and int(name[5:10]) < parts, (after, name, hands)
