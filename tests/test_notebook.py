"""At home in a notebook (issue 19, items 1 and 2): figures drawn without
pyplot or the backend, on a given Axes or a new Figure; rich reprs of
summaries, move values and moves; results as frames (``to_frame``); files
straight into frames (``io.read_frame``) that agree with the readers; and
``score_frame`` results in the frame's own dtype backend."""
from __future__ import annotations

import warnings

import numpy as np
import orjson
import pytest

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast import report as rep
from ofc_fast.errors import ArgumentError
from ofc_fast.moves import DISCARD, Move
from ofc_fast.records import chunk_from_records
from ofc_fast.solver import move_values


@pytest.fixture(scope="module")
def summary():
    s = rep.Summary(track=True)
    for chunk in fio.read_chunks(rep.sample_path()):
        s.add(chunk.score())
    return s


@pytest.fixture(scope="module")
def values():
    return move_values(ofc.Game("pineapple", 2, seed=3), n=200, seed=1)


# ---------------------------------------------------------------------- figures
@pytest.fixture
def svg_pyplot():
    """pyplot on the svg backend (not the Agg that 0.2 forced), with one
    figure of its own: the state a notebook's plots depend on."""
    mpl = pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    before = mpl.get_backend()
    plt.switch_backend("svg")
    mine = plt.figure()
    try:
        yield mpl, plt, mine
    finally:
        plt.close("all")
        plt.switch_backend(before)


def test_plotting_leaves_the_backend_and_pyplot_alone(summary, svg_pyplot, tmp_path):
    mpl, plt, mine = svg_pyplot
    figs = [rep.plot(summary), rep.plot_points(summary), rep.plot_royalties(summary),
            rep.plot_rates(summary)]
    rep.save_figure(figs[0], tmp_path / "r.png")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        rep.plot(summary, str(tmp_path / "old.png"))
    assert mpl.get_backend() == "svg"
    assert plt.gcf() is mine and plt.get_fignums() == [mine.number]
    assert all(type(f).__name__ == "Figure" and f not in map(plt.figure, plt.get_fignums())
               for f in figs)


def test_plot_returns_a_figure_of_the_summary(summary):
    pytest.importorskip("matplotlib")
    fig = rep.plot(summary, max_players=3)
    points, royalties, rates = fig.axes
    series = summary.series()
    top = summary.players()[:3]
    lines = [ln for ln in points.get_lines() if ln.get_label() and not
             ln.get_label().startswith("_")]
    assert [ln.get_label() for ln in lines] == [f"{p.name} ({p.net:+,})" for p in top]
    for ln, p in zip(lines, top, strict=True):          # the cumulative points, ending at the net
        x, y = series[p.name]
        assert np.array_equal(ln.get_xdata(), x) and np.array_equal(ln.get_ydata(), y)
        assert y[-1] == p.net
    heights = [b.get_height() for b in rates.patches]
    assert heights == pytest.approx([p.foul_pct for p in top] + [p.fantasyland_pct for p in top])
    roy = np.concatenate(summary._royalties)
    assert sum(b.get_height() for b in royalties.patches) == len(roy)


def test_plots_draw_on_given_axes(summary):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure
    fig = Figure()
    axes = fig.subplots(2, 2).ravel()
    assert rep.plot(summary, ax=axes[:3]) is fig
    assert [a.get_title() for a in axes[1:3]] == ["royalty distribution",
                                                  "fouls and fantasyland per player"]
    assert rep.plot(summary, ax=axes[3], title="mine") is fig     # one Axes: the points
    assert axes[3].get_title() == "mine" and len(fig.axes) == 4
    other = Figure()
    ax = other.subplots()
    for helper in (rep.plot_points, rep.plot_royalties, rep.plot_rates):
        assert helper(summary, ax=ax) is other
    assert len(other.axes) == 1
    for bad in ("x", [ax, ax], [ax, ax, "x"]):
        with pytest.raises(TypeError, match="ax is a matplotlib Axes"):
            rep.plot(summary, ax=bad)
    with pytest.raises(TypeError, match="ax is a matplotlib Axes, got"):
        rep.plot_points(summary, ax=[ax, ax, ax])


def test_plot_with_a_path_is_deprecated_and_still_saves(summary, tmp_path):
    pytest.importorskip("matplotlib")
    path = str(tmp_path / "r.svg")
    with pytest.warns(DeprecationWarning, match=r"save_figure\(report.plot\(summary\), path\)"):
        assert rep.plot(summary, path) == path
    assert open(path).read(5) == "<?xml"
    with pytest.raises(ValueError, match="unknown picture format 'nope'"):
        rep.save_figure(rep.plot_rates(summary), tmp_path / "r.nope")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.svg"]     # nothing half-written


# ------------------------------------------------------------------------ reprs
def test_summary_repr_and_html(summary):
    assert repr(summary).startswith("<Summary: 1,479 hands, 4,100 player-hands, 8 players (")
    assert "pineapple 503" in repr(summary)
    page = summary._repr_html_()
    assert page.count("<tr>") == 1 + len(summary.players())
    for p, line in zip(summary.players(), summary.table().splitlines()[1:], strict=True):
        cells = line.split()
        assert f">{p.name}</td>" in page and f">{cells[-5]}</td>" in page   # net, as the table
    s = rep.Summary()
    chunk = chunk_from_records([{"players": [
        {"name": "<b>&", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"},
        {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}]}])
    s.add(chunk.score())
    assert "&lt;b&gt;&amp;" in s._repr_html_() and "<b>" not in s._repr_html_()
    assert repr(rep.Summary()) == "<Summary: 0 hands, 0 player-hands, 0 players>"


def test_move_reprs_show_cards():
    m = Move(ofc.parse_card_text("Ah Kd 7c"), (0, 2, DISCARD))
    assert repr(m) == "Move(cards=(Ah, Kd, 7c), rows=(0, 2, -1))"
    assert repr(Move((51,), (0,))) == "Move(cards=(As,), rows=(0,))"
    assert repr(Move((99, 1), (0, 1))) == "Move(cards=(99, 1), rows=(0, 1))"   # not card ids
    assert m == (m.cards, m.rows) and eval(repr(m.rows)) == m.rows


def test_move_value_repr_shows_cards(values):
    x = values[0]
    cards = " ".join(ofc.format_card(c) for c in x.move.cards)
    assert f"move=Move(cards=({cards.replace(' ', ', ')}), " in repr(x)
    assert f"cards={x.move.cards}" not in repr(x)


def test_move_values_html(values):
    page = values._repr_html_()
    best = values.top(10)
    rows = page.split("<tbody>")[1].split("</tr>")[:-1]
    assert len(rows) == 10
    for row, x in zip(rows, best, strict=True):
        assert f">{x.move.describe(values.variant)}</td>" in row and f">{x.ev:+.3f}</td>" in row
    assert "the best 10 of 232" in page


# ------------------------------------------------------------------- to_frame
@pytest.mark.parametrize("kind", ["pandas", "polars", "arrow"])
def test_summary_to_frame(summary, kind):
    pytest.importorskip({"arrow": "pyarrow"}.get(kind, kind))
    pytest.importorskip("pyarrow")
    frame = summary.to_frame(kind)
    rows = frame.to_pylist() if kind == "arrow" else frame.to_dicts() if kind == "polars" \
        else frame.to_dict("records")
    ps = summary.players()
    assert len(rows) == len(ps)
    assert list(rows[0]) == ["name", "hands", "net", "points_per_hand", "foul_pct",
                             "fantasyland_pct", "royalties_per_hand", "fouls", "fantasyland",
                             "in_fantasyland", "royalties"]
    for row, p in zip(rows, ps, strict=True):
        assert row == {"name": p.name, "hands": p.hands, "net": p.net,
                       "points_per_hand": p.points_per_hand, "foul_pct": p.foul_pct,
                       "fantasyland_pct": p.fantasyland_pct,
                       "royalties_per_hand": p.royalties_per_hand, "fouls": p.fouls,
                       "fantasyland": p.fantasyland, "in_fantasyland": p.in_fantasyland,
                       "royalties": p.royalties}


@pytest.mark.parametrize("kind", ["pandas", "polars", "arrow"])
def test_move_values_to_frame(values, kind):
    pytest.importorskip({"arrow": "pyarrow"}.get(kind, kind))
    frame = values.to_frame(kind)
    rows = frame.to_pylist() if kind == "arrow" else frame.to_dicts() if kind == "polars" \
        else frame.to_dict("records")
    assert len(rows) == len(values) == 232
    for row, x in zip(rows, values, strict=True):
        assert row["move"] == x.move.describe(values.variant)
        assert (row["move_index"], row["ev"], row["ev_se"], row["foul_rate"],
                row["royalty_mean"], row["fantasyland_rate"]) == \
            (x.move_index, x.ev, x.ev_se, x.foul_rate, x.royalty_mean, x.fantasyland_rate)
    assert [r["points_mean"] for r in rows] == values.points_mean.tolist()


def test_to_frame_kind_is_checked(summary, values):
    with pytest.raises(ArgumentError, match="kind must be one of pandas, polars, arrow"):
        summary.to_frame("spark")
    with pytest.raises(TypeError, match="kind must be one of"):
        values.to_frame(3)


# ------------------------------------------------------------------ read_frame
@pytest.fixture(scope="module")
def sample_files(tmp_path_factory):
    """The bundled sample, unscored, in every format."""
    pytest.importorskip("pyarrow")
    d = tmp_path_factory.mktemp("sample")
    out = {"jsonl": rep.sample_path()}
    for fmt in ("csv", "parquet"):
        out[fmt] = str(d / f"sample.{fmt}")
        with fio.open_writer(out[fmt]) as w:
            for chunk in fio.read_chunks(rep.sample_path()):
                w.write(chunk)
    return out


def _reader_rows(path):
    """What read_chunks gives, scored: per row the keys, cards and results."""
    rows = []
    for chunk in fio.read_chunks(path):
        chunk.score()
        cards = chunk.cards(18)
        ids = np.repeat(np.array(chunk.hand_ids(), object), chunk.n_players)
        names = chunk.names()
        pts, roy, foul, fan = chunk.results()
        for r in range(chunk.n_rows):
            rec = int(chunk.recorded[r]) if chunk.has_recorded[r] else None
            rows.append((str(ids[r]), int(chunk.seat[r]), names[r], cards[r].tolist(),
                         int(pts[r]), int(roy[r]), bool(foul[r]), int(fan[r]),
                         rec if rec != int(pts[r]) else None))
    return rows


def _frame_rows(df):
    cards = df[[f"c{i:02d}" for i in range(18)]].to_numpy().tolist()
    rec = df["recorded_points"]
    return [(str(h), int(s), n, c, int(p), int(r), bool(f), int(fl),
             None if rec.isna().iloc[i] else int(rec.iloc[i]))
            for i, (h, s, n, c, p, r, f, fl) in enumerate(zip(
                df["hand_id"], df["seat"], df["name"], cards, df["points"], df["royalties"],
                df["foul"], df["fantasyland"], strict=True))]


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_read_frame_agrees_with_the_readers(sample_files, fmt):
    pytest.importorskip("pandas")
    df = fio.read_frame(sample_files[fmt])
    assert len(df) == 4100
    assert _frame_rows(df) == _reader_rows(sample_files[fmt])
    assert {c: str(df[c].dtype) for c in ("seat", "c00", "c17", "points", "royalties", "foul",
                                          "fantasyland", "recorded_points")} == \
        {"seat": "int8", "c00": "uint8", "c17": "uint8", "points": "int32", "royalties": "int16",
         "foul": "bool", "fantasyland": "uint8", "recorded_points": "Int64"}


def test_read_frame_is_one_frame_whatever_the_format_and_chunks(sample_files):
    pd = pytest.importorskip("pandas")
    base = fio.read_frame(sample_files["jsonl"])
    for fmt in ("csv", "parquet"):
        pd.testing.assert_frame_equal(fio.read_frame(sample_files[fmt]), base)
    # small chunks: three-row and four-row chunks (13 and 18 card columns) joined
    pd.testing.assert_frame_equal(fio.read_frame(sample_files["jsonl"], chunk_size=7), base)
    pd.testing.assert_frame_equal(fio.read_frame(sample_files["parquet"], chunk_size=50,
                                                 n_threads=2), base)


def test_read_frame_unscored_has_the_recorded_points(sample_files):
    pytest.importorskip("pandas")
    df = fio.read_frame(sample_files["csv"], scored=False)
    assert "royalties" not in df.columns and str(df["points"].dtype) == "Int64"
    recorded = []
    for chunk in fio.read_chunks(sample_files["csv"]):
        recorded += [int(p) if h else None
                     for p, h in zip(chunk.recorded, chunk.has_recorded, strict=True)]
    points = df["points"]
    assert [None if na else int(v) for v, na in zip(points, points.isna(), strict=True)] \
        == recorded


def test_read_frame_kinds_and_backends(sample_files):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    base = fio.read_frame(sample_files["parquet"])
    table = fio.read_frame(sample_files["parquet"], "arrow")
    polars = fio.read_frame(sample_files["parquet"], "polars")
    assert isinstance(table, pa.Table) and isinstance(polars, pl.DataFrame)
    for col in ("hand_id", "seat", "points", "royalties", "recorded_points", "c05"):
        expect = [None if v is pd.NA else v for v in base[col].astype(object).tolist()]
        assert table.column(col).to_pylist() == expect == polars[col].to_list()
    assert str(polars["seat"].dtype) == "Int8" and str(table.column("points").type) == "int32"
    arrow_backed = fio.read_frame(sample_files["parquet"], dtype_backend="pyarrow")
    assert str(arrow_backed["points"].dtype) == "int32[pyarrow]"
    assert arrow_backed["recorded_points"].isna().sum() == base["recorded_points"].isna().sum()
    nullable = fio.read_frame(sample_files["parquet"], dtype_backend="numpy_nullable")
    assert str(nullable["seat"].dtype) == "Int8" and str(nullable["foul"].dtype) == "boolean"
    only = fio.read_frame(sample_files["jsonl"], results_only=True)
    assert list(only.columns) == ["hand_id", "seat", "n_players", "name", "variant", "points",
                                  "royalties", "foul", "fantasyland", "recorded_points",
                                  "substitutes"]
    assert only["points"].tolist() == base["points"].tolist()


def test_read_frame_parquet_round_trip_keeps_dtypes(sample_files, tmp_path):
    pd = pytest.importorskip("pandas")
    df = fio.read_frame(sample_files["jsonl"])
    df.to_parquet(tmp_path / "rt.parquet")
    pd.testing.assert_frame_equal(fio.read_frame(tmp_path / "rt.parquet"), df)
    scored = fio.score_frame(df.drop(columns=["recorded_points"]))
    scored.to_parquet(tmp_path / "sf.parquet")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "sf.parquet"), scored)


def test_read_frame_ids_numbers_then_text_and_empty(tmp_path):
    pd = pytest.importorskip("pandas")
    p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    path = tmp_path / "ids.jsonl"
    path.write_bytes(b"".join(orjson.dumps({"id": i, "players": [p, q]}) + b"\n"
                              for i in (1, 2, "x")))
    df = fio.read_frame(path, chunk_size=1)
    assert df["hand_id"].tolist() == ["1", "1", "2", "2", "x", "x"]
    assert df["points"].tolist() == [6, -6] * 3
    (tmp_path / "empty.csv").write_bytes(b"")
    empty = fio.read_frame(tmp_path / "empty.csv")
    assert len(empty) == 0 and list(empty.columns) == list(df.columns)
    assert str(empty["points"].dtype) == "int32"
    assert isinstance(fio.read_frame(tmp_path / "empty.csv", "arrow").num_rows, int)
    del pd


def test_read_frame_checks_its_arguments_first(sample_files, tmp_path):
    missing = tmp_path / "none.jsonl"              # never opened: the arguments fail first
    with pytest.raises(ArgumentError, match="kind must be one of"):
        fio.read_frame(missing, "spark")
    with pytest.raises(ArgumentError, match="results_only=True needs scored=True"):
        fio.read_frame(missing, scored=False, results_only=True)
    with pytest.raises(ArgumentError, match="dtype_backend must be one of"):
        fio.read_frame(missing, dtype_backend="arrow")
    with pytest.raises(TypeError, match="scored"):
        fio.read_frame(missing, scored="yes")


# ---------------------------------------------------- score_frame: the backend
@pytest.mark.parametrize("backend", ["pyarrow", "numpy_nullable", "numpy"])
def test_score_frame_results_follow_the_pandas_backend(sample_files, backend):
    pd = pytest.importorskip("pandas")
    kw = {} if backend == "numpy" else {"dtype_backend": backend}
    df = pd.read_parquet(sample_files["parquet"], **kw)
    out = fio.score_frame(df, skip_bad=True, verify=True)
    plain = fio.score_frame(df)
    types = {c: str(out[c].dtype) for c in ("points", "foul", "recorded_points", "error")}
    assert types == {
        "pyarrow": {"points": "int32[pyarrow]", "foul": "bool[pyarrow]",
                    "recorded_points": "int64[pyarrow]", "error": "string[pyarrow]"},
        "numpy_nullable": {"points": "Int32", "foul": "boolean", "recorded_points": "Int64",
                           "error": "string"},
        "numpy": {"points": "Int32", "foul": "boolean", "recorded_points": "Int64",
                  "error": "object"}}[backend]
    assert str(plain["points"].dtype) == {"pyarrow": "int32[pyarrow]", "numpy_nullable": "Int32",
                                          "numpy": "int32"}[backend]
    expect = fio.read_frame(sample_files["parquet"])
    for col in ("points", "royalties", "foul", "fantasyland"):
        assert out[col].astype(object).tolist() == expect[col].tolist()
