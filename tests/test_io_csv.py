"""The CSV reader's scanner (ofc_fast._scan.RowScanner) against its
row-by-row reader.

Generated files, good rows and mangled ones (seats out of order, n_players,
names with commas or quotes, odd numbers, bad cards, missing or extra
fields, blank lines, CRLF, unbalanced quotes, other variants), are read
with ``read_csv(fast=True)`` and ``fast=False``, in blocks small enough that
hands straddle them: every hand, error and chunk must come out the same.
"""
from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ofc_fast.io.csv as fcsv
from readers_agree import examples, outcome

HEADER = ["hand_id", "seat", "n_players", "name", "variant", "in_fantasyland", "top", "middle",
          "bottom", "discards", "points"]
SEATS = [
    ["alice", "pineapple", "0", "Qs Qd 2c", "9h 9d 9c 5s 5d", "7h 7d 7c 7s 2d", "Ah 3d", "6"],
    ["bob", "pineapple", "", "Ks Kd 3c", "2h 3h 4h 5h 6d", "Tc Td Ts Th 8d", "Js Jh", "-6"],
    ["carol", "", "1", "Ac Ad 4c", "3s 4s 5c 6c 6s", "Jd Qc Kc 2s 8h", "", ""],
]
ODD = ["", " ", "0", "1", "-1", "+1", " 2", "300", "1e3", "2.0", "true", "x", "Xs Qd 2c",
       "ks qd 2c", "K♠ Qd 2c", "Ks Qd", "2c", "classic", "big-pineapple", "pinapple", "a,b",
       'say "hi"', "99999999999999999999", "-0", "00", "4"]


@st.composite
def csv_files(draw):
    rows = []
    for h in range(draw(st.integers(1, 12))):
        n = draw(st.sampled_from([2, 2, 3, 3, 1]))
        hand = [[f"h{h}", str(s), str(n)] + list(SEATS[s]) for s in range(n)]
        if draw(st.integers(0, 7)) == 0:
            draw(st.randoms()).shuffle(hand)
        for _ in range(draw(st.sampled_from([0, 0, 0, 0, 0, 0, 1, 2]))):
            r = draw(st.sampled_from(hand))
            r[draw(st.integers(0, len(r) - 1))] = draw(st.sampled_from(ODD))
        rows += hand
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(rows)
    lines = buf.getvalue().splitlines(keepends=True)
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 1, 2]))):
        k = draw(st.integers(1, len(lines) - 1))
        change = draw(st.integers(0, 4))
        if change == 0:
            lines.insert(k, "\n")
        elif change == 1:
            lines[k] = lines[k].rstrip("\n") + ",extra\n"
        elif change == 2:
            lines[k] = ",".join(lines[k].split(",")[:5]) + "\n"
        elif change == 3:
            lines[k] = lines[k].rstrip("\n") + "\r\n"
        else:
            lines[k] = lines[k].replace(",", ',"', 1)
    if draw(st.booleans()):
        lines[-1] = lines[-1].rstrip("\n")
    return "".join(lines).encode()


def read_all(data: bytes, fast: bool, skip_bad: bool, chunk_size: int):
    return outcome(fcsv.read_csv(io.BytesIO(data), source="f", chunk_size=chunk_size,
                                 skip_bad=skip_bad, fast=fast))


def _compare(n: int, skip_bad: bool, derandomize: bool):
    @examples(n, derandomize)
    @given(csv_files(), st.integers(1, 4), st.sampled_from([40, 90, 200, 1 << 22]))
    def check(data, chunk_size, block):
        old = fcsv.CSV_BLOCK
        fcsv.CSV_BLOCK = block
        try:
            assert read_all(data, True, skip_bad, chunk_size) == \
                read_all(data, False, skip_bad, chunk_size)
        finally:
            fcsv.CSV_BLOCK = old
    check()


@pytest.mark.parametrize("skip_bad", [True, False])
def test_column_path_reads_every_row_as_the_row_reader(skip_bad):
    _compare(150, skip_bad, derandomize=True)


@pytest.mark.fuzz
@pytest.mark.parametrize("skip_bad", [True, False])
def test_column_path_reads_every_row_as_the_row_reader_long(skip_bad):
    _compare(2500, skip_bad, derandomize=False)


def test_plain_files_take_the_column_path(monkeypatch):
    """A file as the writer writes it is read by the scanner (no row one by one)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    for h in range(300):
        for s in range(3):
            w.writerow([f"h{h}", s, 3] + SEATS[s][:1] + ["pineapple"] + SEATS[s][2:])
    data = buf.getvalue().encode()
    monkeypatch.setattr(fcsv, "CSV_BLOCK", 2000)
    called = []
    monkeypatch.setattr(fcsv._Reader, "rows", lambda self, rows: called.extend(rows) or iter(()))
    chunks = list(fcsv.read_csv(io.BytesIO(data), chunk_size=64))
    assert not called
    assert [c.n_hands for c in chunks] == [64] * 4 + [44]
    assert chunks[0].line_of(4) == 6 and chunks[-1].line_of(chunks[-1].n_rows - 1) == 901
