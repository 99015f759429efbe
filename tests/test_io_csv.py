"""The CSV reader's scanner (ofc_fast._scan_csv.RowScanner) against its
row-by-row reader.

Generated files, good rows and mangled ones (seats out of order, n_players,
names with commas or quotes, odd numbers, bad cards, missing or extra
fields, blank lines, CRLF, unbalanced quotes, other variants), are read
with ``read_csv(fast=True)`` (its lines read ahead in another thread or
not) and ``fast=False``, in blocks small enough that hands straddle them:
every hand, error and chunk must come out the same.
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
       'say "hi"', "99999999999999999999", "-0", "00", "4",
       # long values: the scanner splits lines eight bytes at a time
       "a-rather-long-name,with-a-comma", "longer-than-a-word-ü-and-more", "ü" * 9,
       "0123456\u00e9", "x" * 15 + '"', "\t\tKs Qd 2c\t\t"]


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
        if draw(st.integers(0, 5)) == 0:
            # the fields the scanner reads by their first byte: n_players and name
            r = draw(st.sampled_from(hand))
            r[draw(st.sampled_from([2, 3]))] = draw(st.sampled_from(["", "0", "1", "5", "9"]))
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


def read_all(data: bytes, fast: bool, skip_bad: bool, chunk_size: int,
             read_ahead: bool = False):
    return outcome(fcsv.read_csv(io.BytesIO(data), source="f", chunk_size=chunk_size,
                                 skip_bad=skip_bad, fast=fast, read_ahead=read_ahead))


def _compare(n: int, skip_bad: bool, derandomize: bool):
    @examples(n, derandomize)
    @given(csv_files(), st.integers(1, 4), st.sampled_from([40, 90, 200, 1 << 22]),
           st.booleans())
    def check(data, chunk_size, block, read_ahead):
        old = fcsv.CSV_BLOCK
        fcsv.CSV_BLOCK = block
        try:
            assert read_all(data, True, skip_bad, chunk_size, read_ahead) == \
                read_all(data, False, skip_bad, chunk_size)
        finally:
            fcsv.CSV_BLOCK = old
    check()


@pytest.mark.slow
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


@pytest.mark.slow
def test_read_ahead_reads_the_same_chunks(monkeypatch):
    """Lines read ahead in another thread (and each read on its own first)
    give the chunks of lines read in place, at every block size."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    for h in range(400):
        for s in range(3):
            w.writerow([f"h{h}", s, 3] + SEATS[s][:1] + ["pineapple"] + SEATS[s][2:])
        if h % 97 == 5:
            w.writerow([f"h{h}x", 0, 1, "ünïcode name", "", "", "Qs Qd 2c", "x", "", "", ""])
    data = buf.getvalue().encode()
    for block in (100, 777, 5000, 1 << 22):
        monkeypatch.setattr(fcsv, "CSV_BLOCK", block)
        for skip_bad in (True, False):
            assert read_all(data, True, skip_bad, 50, read_ahead=True) == \
                read_all(data, True, skip_bad, 50) == read_all(data, False, skip_bad, 50)


def test_scan_refuses_lines_of_another_block():
    from ofc_fast._scan_csv import CSV_FIELDS, RowScanner
    sc = RowScanner([HEADER.index(f) if f in HEADER else -1 for f in CSV_FIELDS],
                    len(HEADER), 1000)
    block = b"h1,0,,,,,Qs Qd 2c,9h 9d 9c 5s 5d,7h 7d 7c 7s 2d,,\n"
    lines = sc.lines(block)
    assert len(lines) == 1
    with pytest.raises(ValueError, match="lines"):
        sc.scan(block + b"\n", 0, 1, None, True, 10, lines, 0)
    with pytest.raises(ValueError, match="lines"):
        sc.scan(block, 0, 1, None, True, 10, lines, -1)
    with pytest.raises(ValueError, match="past the block"):
        sc.scan(block, 0, 1, None, True, 10, None, 0, len(block) + 1)
    with pytest.raises(ValueError, match="start of a line"):
        lines.cut(3)
    two = block + block.replace(b"h1", b"h2")
    lines = sc.lines(two)
    assert lines.last_hand() == len(block) and lines.cut(len(block)) == two[len(block):]
    assert (len(lines), lines.size) == (1, len(block))
    sc.add_rules(b"", None, 0, 1, 4)
    assert sc.scan(two, 0, 1, None, True, 10, lines, 0, len(block)) == (fcsv.DONE, len(block), 2)
    assert sc.take()["ids"] == ["h1"]


@pytest.mark.slow
@pytest.mark.parametrize("bad", [b"\xff", b"\xc3", b"\xe2\x99", b"\xed\xa0\x80", b"\xc0\xaf",
                                 b"\x00", b"\r", b'"'])
def test_odd_bytes_anywhere_in_a_line_are_judged_as_the_row_reader_does(bad):
    """The scanner splits lines eight bytes at a time: a byte it may not read
    (not UTF-8, NUL, carriage return, quote) at any offset in a word, in any
    field, sends the line to the row reader, which says what is wrong."""
    head = ",".join(HEADER).encode() + b"\n"
    good = b"h1,0,2,alice,pineapple,0,Qs Qd 2c,9h 9d 9c 5s 5d,7h 7d 7c 7s 2d,,6\n" \
           b"h1,1,2,bob,pineapple,0,Ks Kd 3c,2h 3h 4h 5h 6d,Tc Td Ts Th 8d,,-6\n"
    for at in range(0, len(good) - 1):
        if good[at:at + 1] == b"\n":
            continue
        data = head + good[:at] + bad + good[at:]
        for skip_bad in (True, False):
            assert read_all(data, True, skip_bad, 5) == read_all(data, False, skip_bad, 5), at


def test_read_ahead_thread_stops_with_the_reader(monkeypatch):
    """A reader that stops early (a bad hand, or a caller that stops reading)
    stops its read-ahead thread before it returns: none reads on from a file
    its caller then closes."""
    import threading

    from ofc_fast.errors import RecordError
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    for h in range(2000):
        for s in range(2):
            w.writerow([f"h{h}", s, 2] + SEATS[s][:1] + ["pineapple"] + SEATS[s][2:])
    data = buf.getvalue().encode().replace(b"h5,1,2,bob,pineapple,,Ks", b"h5,1,2,bob,pineapple,,Xs")
    monkeypatch.setattr(fcsv, "CSV_BLOCK", 4096)

    def readers() -> int:      # (beyond those other tests left running)
        return sum(t.name == "ofc-fast-reader" and t.is_alive()
                   for t in threading.enumerate()) - before

    before = 0
    before = readers()

    with pytest.raises(RecordError, match=":12: unknown card"):
        list(fcsv.read_csv(io.BytesIO(data), read_ahead=True, chunk_size=10))
    assert readers() == 0
    chunks = fcsv.read_csv(io.BytesIO(data), read_ahead=True, chunk_size=10, skip_bad=True)
    assert [next(chunks).n_records for _ in range(5)] == [10] * 5    # past the first block
    assert readers() == 1
    chunks.close()
    assert readers() == 0


def test_blocks_of_short_lines_read_ahead(monkeypatch):
    """Lines much shorter than a row (blank ones here) outgrow the room a
    block's lines start with: it grows, and past the most plain rows a block
    can hold the rest are read in place; the hands are the same."""
    from ofc_fast._scan_csv import CSV_FIELDS, RowScanner
    def row(h: int, s: int) -> str:
        return ",".join([f"h{h}", str(s), "2", SEATS[s][0], "pineapple", "0"] + SEATS[s][3:]) + "\n"

    parts = [",".join(HEADER) + "\n"]
    for h in range(300):
        parts += [row(h, 0), "\n" * (h % 7) * 40, row(h, 1)]
    data = "".join(parts).encode()
    sc = RowScanner([HEADER.index(f) if f in HEADER else -1 for f in CSV_FIELDS],
                    len(HEADER), 1000)
    block = data[data.index(b"\n") + 1:]
    lines = sc.lines(block)
    # it grew past its first room (lines of 64 bytes), up to the most plain rows
    assert len(block) // 64 + 64 < len(lines) == len(block) // 24 + 1 < block.count(b"\n")
    monkeypatch.setattr(fcsv, "CSV_BLOCK", 5000)          # most lines a block holds: 209
    for skip_bad in (True, False):
        got = read_all(data, True, skip_bad, 50, read_ahead=True)
        assert got == read_all(data, False, skip_bad, 50)
        assert sum(n for n, _ in got[1]) == 300


@pytest.mark.parametrize("points", ["999999999999999999", "1000000000000000000",
                                    "9223372036854775807", "-9223372036854775808",
                                    "9223372036854775808", "9999999999999999999",
                                    "-9999999999999999999"])
def test_points_of_18_and_19_digits(points):
    """The scanner reads points of up to 18 digits itself; longer ones go to
    the row reader, which keeps every int64 and refuses the rest: never a
    wrapped value."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    for s in range(2):
        w.writerow(["h1", str(s), "2"] + SEATS[s][:-1] + [points if s == 0 else "-6"])
    data = buf.getvalue().encode()
    got = read_all(data, True, True, 10)
    assert got == read_all(data, False, True, 10)
    (c,) = fcsv.read_csv(io.BytesIO(data), source="f", skip_bad=True)
    if -2**63 <= int(points) < 2**63:
        assert c.recorded.tolist() == [int(points), -6] and not c.errors
    else:
        assert c.n_hands == 0 and "out of range" in str(c.errors[0])


@pytest.mark.parametrize("n_players", ["0", "1", "2", "4", "5", ""])
def test_n_players_as_the_row_reader_reads_it(n_players):
    """One digit of n_players: the scanner takes 2 .. 4 (or nothing) itself and
    leaves the rest to the row reader, which refuses 0 and 1 for two seats."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    for s in range(2):
        w.writerow(["h1", str(s), n_players if s == 0 else "2"] + SEATS[s])
    data = buf.getvalue().encode()
    got = read_all(data, True, True, 10)
    assert got == read_all(data, False, True, 10)
    (c,) = fcsv.read_csv(io.BytesIO(data), source="f", skip_bad=True)
    assert c.n_hands == (1 if n_players in ("2", "") else 0)


def test_an_empty_name_is_no_name():
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    for s in range(2):
        w.writerow(["h1", str(s), "2"] + ["" if s == 1 else "alice"] + SEATS[s][1:])
    data = buf.getvalue().encode()
    got = read_all(data, True, True, 10)
    assert got == read_all(data, False, True, 10)
    (c,) = fcsv.read_csv(io.BytesIO(data), source="f")
    assert c.names() == ["alice", None]


def test_a_lowered_csv_field_limit_is_named_not_called_malformed(tmp_path):
    import ofc_fast.io as fio
    from ofc_fast.errors import FileFormatError
    path = tmp_path / "long.csv"
    # a quoted name with a comma: the row takes the csv module's path
    path.write_text('hand_id,seat,name,top,middle,bottom\n'
                    '1,0,"' + "x," * 150 + '",Qs Qd 2c,9h 9d 9c 5s 5d,7h 7d 7c 7s 2d\n'
                    '1,1,b,Ks Kd 3c,2h 3h 4h 5h 6d,Tc Td Ts Th 8d\n')
    assert fio.score_file(path).hands == 1
    old = csv.field_size_limit(100)
    try:
        with pytest.raises(FileFormatError, match=r"field size limit \(100 characters, lowered"):
            fio.score_file(path)
    finally:
        csv.field_size_limit(old)
