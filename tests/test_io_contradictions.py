"""Records that contradict themselves (issue 18, item 9): a layout given in
two forms that disagree (``rows`` beside ``top``/``middle``/``bottom``; the
card ids ``c00``.. beside card text) is one bad record, reason
``contradictory record``, naming both forms and what each says, in every
reader: JSON Lines (the C scanner's lines and the general reader's), CSV,
Parquet and frames.  Two forms that agree are read as one."""
from __future__ import annotations

import json

import numpy as np
import pytest

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast.errors import REASONS, RecordError

QQ = ("Qs Qd 2c", "9h 9d 9c 5s 5d", "Ah Ac Ad 4c 4d")
KK = ("Ks Kd 3c", "2h 3h 4h 5h 6d", "Tc Td Ts Th 8d")
JJ = ("Js Jd 7c", "2s 3s 4s 5s 6s", "Tc Td Ts Th 8d")     # not KK: the contradiction
ROWS = ("top", "middle", "bottom")
POINTS = [2, -2]                         # QQ against KK (pineapple), as one form gives it

BOTH = ("the layout's two forms disagree: rows 'Js Jd 7c / 2s 3s 4s 5s 6s / Tc Td Ts Th 8d', "
        "top, middle, bottom 'Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d'")
IDS_TEXT = ("the layout's two forms disagree: card ids c00..c12 'Ks Kd 3c / 2h 3h 4h 5h 6d / Tc "
            "Td Ts Th 8d', card text (top, middle, bottom) 'Js Jd 7c / 2s 3s 4s 5s 6s / Tc Td "
            "Ts Th 8d'")


def _player(rows, whole=None):
    p = dict(zip(ROWS, rows, strict=True))
    if whole is not None:
        p["rows"] = whole
    return p


def _jsonl(tmp_path, second, name="h.jsonl"):
    path = tmp_path / name
    lines = [json.dumps({"id": "h1", "players": [_player(QQ), _player(KK)]}),
             json.dumps({"id": "h2", "players": [_player(QQ), second]}, ensure_ascii=False),
             json.dumps({"id": "h3", "players": [_player(QQ), _player(KK)]})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _skipped_one(path, detail, line, **kw):
    """Hands h1 and h3 scored, h2 skipped as a contradictory record; without
    skip_bad the error stops the run."""
    run = fio.score_file(path, skip_bad=True, **kw)
    assert run.hands == 2 and len(run.skipped) == 1
    err = run.skipped[0]
    assert (err.reason, err.hand_id, err.seat, err.line) == ("contradictory record", "h2", 1,
                                                             line)
    assert err.detail == detail
    with pytest.raises(RecordError, match="contradictory record"):
        fio.score_file(path)
    return err


def test_the_reason_is_documented():
    assert "contradictory record" in REASONS


@pytest.mark.parametrize("second", [
    _player(KK, " / ".join(JJ)),                         # plain text: a line the C scanner sees
    _player(("K♠ Kd 3c",) + KK[1:], " | ".join(JJ)),      # a suit symbol: the general reader
    _player(KK, list(JJ)),                               # rows as a list of row strings
], ids=["scanner-line", "general-reader", "rows-list"])
def test_jsonl_rows_beside_row_fields(tmp_path, second):
    _skipped_one(_jsonl(tmp_path, second), BOTH, 2)


def test_jsonl_forms_that_agree_are_one_layout(tmp_path):
    """Another spelling of the same cards is no contradiction."""
    same = _player(KK, "ks kd 3c | 2h 3h 4h 5h 6d | 10c Td Ts Th 8d")
    run = fio.score_file(_jsonl(tmp_path, same), skip_bad=True)
    assert run.hands == 3 and run.skipped == []
    chunk = next(fio.read_chunks(_jsonl(tmp_path, same, "again.jsonl")))
    assert chunk.score().points.reshape(3, 2).tolist() == [POINTS] * 3


def test_jsonl_unreadable_rows_beside_row_fields(tmp_path):
    run = fio.score_file(_jsonl(tmp_path, _player(KK, "Ks Kd 3c / 2h 3h")), skip_bad=True)
    (err,) = run.skipped
    assert err.reason == "contradictory record"
    assert "rows 'Ks Kd 3c / 2h 3h' (" in err.detail
    assert "top, middle, bottom 'Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d'" in err.detail


def _frame(second_rows, whole=None, ids=None):
    pd = pytest.importorskip("pandas")
    recs = []
    for h in ("h1", "h2", "h3"):
        for seat, rows in enumerate((QQ, second_rows if h == "h2" else KK)):
            r = dict(hand_id=h, n_players=2, seat=seat, **dict(zip(ROWS, rows, strict=True)))
            if whole is not None:
                r["rows"] = whole if (h, seat) == ("h2", 1) else " / ".join(rows)
            if ids is not None:
                lay = ofc.parse_layout(" / ".join(ids if (h, seat) == ("h2", 1) else rows))
                r.update({f"c{i:02d}": np.uint8(c) for i, c in enumerate(lay)})
            recs.append(r)
    df = pd.DataFrame(recs)
    for c in df.columns:
        if c[0] == "c" and c[1:].isdigit():
            df[c] = df[c].astype(np.uint8)
    return df


def test_csv_rows_beside_row_fields(tmp_path):
    path = tmp_path / "h.csv"
    _frame(KK, whole=" / ".join(JJ)).to_csv(path, index=False)
    _skipped_one(path, BOTH, 5)


@pytest.mark.parametrize("kind", ["rows", "ids"])
def test_parquet_and_frames_two_forms(tmp_path, kind):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    if kind == "rows":
        df, detail = _frame(KK, whole=" / ".join(JJ)), BOTH
    else:
        df, detail = _frame(JJ, ids=KK), IDS_TEXT
    path = tmp_path / "h.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), path)
    _skipped_one(path, detail, 4)
    out = fio.score_frame(df, skip_bad=True)
    assert out["error"].notna().tolist() == [False, False, True, True, False, False]
    errors = out["error"].tolist()
    assert errors[2] == errors[3] and f"contradictory record: hand 'h2', seat 1: {detail}" \
        in errors[2]
    assert out["points"].tolist()[:2] == POINTS


def test_frames_forms_that_agree_are_one_layout():
    df = _frame(KK, ids=KK)
    out = fio.score_frame(df)
    assert out["points"].tolist() == POINTS * 3
    df.loc[3, "top"] = None                  # a hand's text form with a row missing
    out = fio.score_frame(df, skip_bad=True)
    assert out["error"].notna().tolist() == [False, False, True, True, False, False]
    assert "contradictory record" in out["error"][3] and "cannot be read" in out["error"][3]
