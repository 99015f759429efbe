"""``scripts/make_sample.py`` (not part of the package) still plays matches
whose records the scorer agrees with: it stopped running once, when the
match rules changed under it (docs/formats.md, "The bundled sample")."""
from __future__ import annotations

import importlib.util
import pathlib

import orjson
import pytest

import ofc_fast.io as fio
from ofc_fast.report import sample_path

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "make_sample.py"


@pytest.mark.slow
@pytest.mark.skipif(not SCRIPT.exists(), reason="not a source checkout")
def test_make_sample_writes_hands_that_verify(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("make_sample", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    out = tmp_path / "sample.jsonl"
    assert script.main(["-o", str(out), "--scale", "0.01"]) == 0
    assert "hands" in capsys.readouterr().err
    run = fio.score_file(out, verify=True)
    assert run.hands > 200 and run.records == run.hands
    assert not run.mismatches and not run.skipped and not run.unrecorded
    assert set(run.summary.variants) == {m[0] for m in script.MATCHES}


def test_bundled_sample_has_one_hand_per_id():
    """A ``groupby("hand_id")`` on the sample never merges unrelated hands."""
    with open(sample_path(), "rb") as f:
        records = [orjson.loads(line) for line in f]
    ids = [r["id"] for r in records]
    assert len(records) == 1479 and len(set(ids)) == len(ids)
    run = fio.score_file(sample_path())
    assert run.hands == len(records)
