"""The format registry (ofc_fast.io.formats): everything that lists formats
is derived from it, and a format added to it is read, written and offered
by the command line with nothing else changed."""
from __future__ import annotations

import pathlib
import re

import pytest

import ofc_fast.io as fio
from ofc_fast import cli
from ofc_fast.errors import ArgumentError
from ofc_fast.io import formats
from ofc_fast.io.schema import RESULTS
from ofc_fast.report import sample_path

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"


def _choices(parser, command: str, option: str) -> tuple[str, ...]:
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    return tuple(next(a for a in sub._actions if option in a.option_strings).choices)


def test_the_cli_offers_exactly_the_registry():
    parser = cli.build_parser()
    assert fio.FORMATS == tuple(formats.REGISTRY) == ("jsonl", "csv", "parquet")
    for command, option in [("score", "--format"), ("score", "--input-format"),
                            ("show", "--input-format"), ("report", "--input-format")]:
        assert _choices(parser, command, option) == fio.FORMATS
    sub = next(a for a in parser._actions if a.dest == "command").choices["score"]
    text = " ".join(sub.format_help().split())
    for f in formats.REGISTRY.values():
        assert f.title in text
        for ext in f.extensions:
            assert ext in text


def test_the_docs_table_is_the_registry():
    text = (DOCS / "formats.md").read_text(encoding="utf-8")
    table = re.search(r"<!-- the formats table: [^\n]*-->\n(.*?)\n"
                      r"<!-- end of the formats table -->", text, re.S)
    assert table is not None and table.group(1) == formats.markdown_table()
    assert ":glob:\n\nformats/*\n" in text                   # every page in the toctree
    for f in formats.REGISTRY.values():
        assert (DOCS / f.docs).is_file() and f.docs.startswith("formats/")


def test_the_cli_docs_list_the_registry():
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for option in ("--format", "--input-format"):
        listed = re.search(rf"\| `{option} ([\w\\|]+)`", text)
        assert listed is not None and tuple(listed.group(1).split("\\|")) == fio.FORMATS


def test_the_docs_results_table_is_the_schema():
    text = (DOCS / "formats.md").read_text(encoding="utf-8")
    section = text[text.index("## Results"):]
    rows = re.findall(r"^\| `(\w+)` \| ([\w, ]+) \| (.*) \|$", section, re.M)[:len(RESULTS)]
    assert rows == [(c.name, c.dtype + (", nullable" if c.nullable else ""), c.doc)
                    for c in RESULTS]


@pytest.mark.parametrize("name", list(formats.REGISTRY))
def test_every_extension_tells_its_format(name):
    f = formats.REGISTRY[name]
    for ext in f.extensions:
        assert fio.detect_format(f"a/b{ext.upper()}") == name
        assert fio.detect_format(f"b{ext}.gz") == name
    assert fio.detect_format("x.unknown", name) == name


def test_unknown_formats_are_argument_errors():
    with pytest.raises(ArgumentError, match="format must be one of jsonl, csv, parquet; got 'xml'"):
        fio.detect_format("a.jsonl", "xml")
    with pytest.raises(ArgumentError, match="cannot tell the format of 'a.txt'"):
        fio.detect_format("a.txt")
    with pytest.raises(TypeError, match="format must be one of"):
        fio.detect_format("a.txt", 3)


def test_a_format_added_to_the_registry_is_read_written_and_offered(tmp_path, monkeypatch, capsys):
    import dataclasses
    tsv = dataclasses.replace(formats.REGISTRY["csv"], name="csv2", title="CSV again",
                              extensions=(".csv2",), docs="formats/csv.md")
    monkeypatch.setitem(formats.REGISTRY, "csv2", tsv)
    out = tmp_path / "scored.csv2"
    run = fio.score_file(sample_path(), str(out))
    assert fio.detect_format(str(out)) == "csv2"
    assert fio.score_file(str(out)).hands == run.hands == fio.score_file(sample_path()).hands
    assert "csv2" in _choices(cli.build_parser(), "score", "--format")
    assert cli.main(["score", str(out), "-q", "--no-summary", "-o", str(tmp_path / "b.csv"),
                     "--format", "csv2"]) == 0
    assert (tmp_path / "b.csv").read_bytes() == out.read_bytes()


def test_the_registry_looks_the_reader_and_writer_up_when_used(monkeypatch, tmp_path):
    """A patched reader or writer of a format's module is the one used (tests
    patch ``jsonl.read_jsonl`` to run the general reader)."""
    from ofc_fast.io import jsonl
    hands = fio.score_file(sample_path()).hands
    calls = []
    real_read, real_writer = jsonl.read_jsonl, jsonl.JsonlWriter
    monkeypatch.setattr(jsonl, "read_jsonl", lambda *a, **k: calls.append("read") or
                        real_read(*a, **dict(k, fast=False)))
    monkeypatch.setattr(jsonl, "JsonlWriter", lambda *a, **k: calls.append("write") or
                        real_writer(*a, **k))
    run = fio.score_file(sample_path(), str(tmp_path / "o.jsonl"))
    assert run.hands == hands and calls == ["write", "read"]
