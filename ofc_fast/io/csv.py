"""CSV: one row per player-hand (docs/formats.md).

Columns (header required; order free; unknown columns ignored):
``hand_id`` (or ``id``), ``seat``, ``n_players``, ``name``, ``variant``,
``options`` (JSON object text), ``in_fantasyland``, the rows ``top``,
``middle``, ``bottom`` (four rows: ``top``, ``third``, ``second``,
``bottom``) or all rows in one ``rows`` column (``/`` or ``|`` between
rows), ``discards``, ``points`` (recorded).  The rows of one hand are
consecutive, in any seat order.  The writer adds ``royalties``, ``foul``,
``fantasyland`` and, when they differ from ours, ``recorded_points``.
"""
from __future__ import annotations

import csv as _csv
import io
import re

import numpy as np
import orjson

from ofc_fast.errors import FileFormatError, shorten
from ofc_fast.io._text import BLOCK, line_blocks, not_utf8
from ofc_fast.records import DEFAULT_RULES, ChunkBuilder, HandError, Rules, clip, format_row

__all__ = ["read_csv", "CsvWriter", "COLUMNS"]

COLUMNS = ("hand_id", "seat", "n_players", "name", "variant", "options", "in_fantasyland",
           "top", "middle", "bottom", "third", "second", "discards", "points")
RESULT_COLUMNS = ("royalties", "foul", "fantasyland", "recorded_points")
_ROWS = ("top", "middle", "bottom", "third", "second", "rows")


def _hand_record(rows, lines, source, rules):
    """One ofc-hand/1 dict from the CSV rows of a hand (seat order restored)."""
    first = rows[0]
    hid = first.get("hand_id") or first.get("id")
    ctx = dict(source=source, line=lines[0], hand_id=hid)
    seats = []
    for row, line in zip(rows, lines):
        s = (row.get("seat") or "").strip()
        if s == "" and len(rows) == 1:
            s = "0"
        if not _SMALL_INT.fullmatch(s):
            raise HandError("bad value", f"seat must be an integer, got {shorten(s)}",
                            **{**ctx, "line": line})
        seats.append(int(s))
    order = sorted(range(len(rows)), key=seats.__getitem__)
    if sorted(seats) != list(range(len(rows))):
        raise HandError("bad value", f"seats {shorten(sorted(seats))}: a hand's rows need seats "
                        f"0..{len(rows) - 1}, "
                        "each once (rows of one hand must be consecutive)", **ctx)
    for row, line in zip(rows, lines):
        n = (row.get("n_players") or "").strip()
        if n and n != str(len(rows)):
            raise HandError("wrong number of players", f"n_players is {shorten(n)} but the hand "
                            f"has {len(rows)} rows (rows of one hand must be consecutive)",
                            **{**ctx, "line": line})
    rec = {"id": hid}
    v = (first.get("variant") or "").strip()
    if v:
        rec["variant"] = v
    o = (first.get("options") or "").strip()
    if o:
        try:
            rec["options"] = orjson.loads(o)
        except orjson.JSONDecodeError as e:
            raise HandError("unknown variant", f"options {shorten(o)} is not a JSON object: "
                            f"{clip(e, 120)}", **ctx) from None
    players = []
    for i in order:
        row = rows[i]
        p = {}
        for k in _ROWS:
            val = row.get(k)
            if val:
                p[k] = val
        name = row.get("name")
        if name:
            p["name"] = name
        for k in ("in_fantasyland", "points"):
            val = (row.get(k) or "").strip()
            if val:
                # plain integers here; anything else (and the bounds) is the
                # record model's to judge
                digits = val[1:] if val[:1] == "-" else val
                p[k] = int(val) if digits.isascii() and digits.isdigit() else \
                    _BOOLS.get(val.lower(), val)
        d = row.get("discards")
        if d:
            p["discards"] = d
        players.append(p)
    rec["players"] = players
    return rec, [lines[i] for i in order]


_SMALL_INT = re.compile(r"[+-]?[0-9]{1,9}")
_BOOLS = {"true": True, "false": False}


def _rows(f, source: str):
    """(line number, list of fields) of each CSV row of a file, one physical
    line per row; (line, None) for a line too long to be a row.

    The file is binary (UTF-8, a byte order mark skipped) or text.  Raises
    :class:`FileFormatError` for undecodable text and for a quoted field that
    does not end on its line (an unbalanced quote: in this format no value
    spans lines, so a stray quote cannot swallow the rows after it)."""
    limit = _csv.field_size_limit()
    lineno = 0
    if isinstance(f, io.TextIOBase):
        blocks = iter(lambda: f.readlines(BLOCK), [])
        text = True
    else:
        blocks = line_blocks(f, source)
        text = False
    for lines in blocks:
        if not text:
            try:
                lines = [x.decode("utf-8") for x in lines]
            except UnicodeDecodeError:
                for k, x in enumerate(lines):
                    err = not_utf8(x, source, lineno + k + 1)
                    if err is not None:
                        raise err from None
                raise
        elif lineno == 0 and lines and lines[0].startswith("\ufeff"):
            lines[0] = lines[0][1:]
        too_long = {k for k, x in enumerate(lines) if len(x) > limit}
        if too_long:
            lines = ["\n" if k in too_long else x for k, x in enumerate(lines)]
        reader = _csv.reader(lines, strict=True)
        k = 0
        try:
            for row in reader:
                if reader.line_num != k + 1:
                    raise FileFormatError(
                        source, "unbalanced quote: a quoted field starts on this line and does "
                        "not end on it (values may not span lines)",
                        position=f"line {lineno + k + 1:,}")
                k += 1
                if k - 1 in too_long:
                    yield lineno + k, None
                elif row:
                    yield lineno + k, row
        except _csv.Error as e:
            why = "a quoted field does not end" if "end of data" in str(e) else clip(e, 120)
            raise FileFormatError(source, f"malformed CSV in the row that starts on this line: "
                                  f"{why} (an unbalanced quote?)",
                                  position=f"line {lineno + k + 1:,}") from None
        lineno += len(lines)


def read_csv(f, *, source: str = "", rules: Rules = DEFAULT_RULES, chunk_size: int = 20_000,
             skip_bad: bool = False):
    """Yield validated chunks from a CSV file, binary (UTF-8) or text (see module doc).

    A row with more fields than the header, or a line longer than the CSV
    field limit (131,072 characters), is a bad record; an unbalanced quote or
    text that is not UTF-8 is a :class:`FileFormatError`."""
    rows = _rows(f, source)
    for line, header in rows:
        if header is None:
            raise FileFormatError(source, "the header line is too long to be a CSV header",
                                  position=f"line {line:,}")
        break
    else:
        return
    fieldnames = [k.strip() for k in header]
    fields = set(fieldnames)
    if not (fields & {"hand_id", "id"}) or not (fields & set(_ROWS)):
        raise FileFormatError(source, f"CSV header {shorten(header)} needs hand_id, seat and "
                              "the rows (top, middle, bottom or rows)", position=f"line {line}")
    width = len(fieldnames)
    builder = ChunkBuilder(source, rules, strict=False)
    row_lines: list = []
    cur: list = []
    cur_lines: list = []
    cur_id = None

    def flush():
        nonlocal cur, cur_lines
        if not cur:
            return True
        try:
            rec, lines = _hand_record(cur, cur_lines, source, rules)
        except HandError as e:
            builder.reject(e)
            cur, cur_lines = [], []
            return False
        n_err = len(builder.errors)
        ok = builder.add(rec, lines[0])
        if ok:
            row_lines.extend(lines)
        elif len(builder.errors) > n_err:
            err = builder.errors[-1]
            if err.seat is not None and err.seat < len(lines):
                err.line = lines[err.seat]
                err.args = (err.message,)
        cur, cur_lines = [], []
        return ok

    def finish():
        nonlocal builder, row_lines
        chunk = builder.finish()
        chunk.row_line = np.asarray(row_lines, np.int64)
        builder, row_lines = ChunkBuilder(source, rules, strict=False), []
        return chunk.validate(skip_bad)

    for line, fields_ in rows:
        if fields_ is None or len(fields_) > width:
            what = (f"more than {_csv.field_size_limit():,} characters" if fields_ is None else
                    f"{len(fields_)} fields but the header has {width}")
            builder.reject(HandError("bad record", f"the line has {what}; it is not a "
                                     "player-hand row", source=source, line=line))
            if not skip_bad:
                flush()
                yield finish()
                return
            continue
        row = dict(zip(fieldnames, fields_))
        hid = row.get("hand_id") or row.get("id")
        if cur and hid != cur_id:
            if not flush() and not skip_bad:
                yield finish()
                return
            if len(builder) >= chunk_size:
                yield finish()
        cur.append(row)
        cur_lines.append(line)
        cur_id = hid
    if not flush() and not skip_bad:
        yield finish()
        return
    if len(builder) or builder.errors:
        yield finish()


def _one_line(values: list) -> list:
    """A column's values with line breaks written as spaces: in this format
    no value spans lines (the reader takes a quote that does for an unbalanced one)."""
    if not any(v.__class__ is str and ("\n" in v or "\r" in v) for v in values):
        return values
    return [v.replace("\r\n", " ").replace("\r", " ").replace("\n", " ") if v.__class__ is str
            else v for v in values]


class CsvWriter:
    """Write chunks as CSV, one row per player-hand (results added if scored)."""

    def __init__(self, f, results_only: bool = False):
        self.f = f
        self.header = False
        self.results_only = results_only

    def write(self, chunk):
        scored = chunk.points is not None
        if self.results_only and scored:
            return self._write_results(chunk)
        cols = COLUMNS + (RESULT_COLUMNS if scored else ())
        buf = io.StringIO()
        w = _csv.writer(buf, lineterminator="\n")
        if not self.header:
            w.writerow(cols)
            self.header = True
        ids = _one_line(chunk.hand_ids())
        names = _one_line(chunk.names())
        cards = chunk.cards().tolist()
        fl = chunk.in_fantasyland.tolist()
        rec, has = chunk.recorded.tolist(), chunk.has_recorded.tolist()
        starts = chunk.hand_start.tolist()
        disc = chunk.discards
        if scored:
            pts, roy = chunk.points.tolist(), chunk.royalties.tolist()
            foul, fan = chunk.foul.tolist(), chunk.fantasyland.tolist()
        for h in range(chunk.n_hands):
            v, vname, opts = chunk.hand_rules(h)
            lo, hi = starts[h], starts[h + 1]
            o = orjson.dumps(opts, option=orjson.OPT_SORT_KEYS).decode() if opts else ""
            for r in range(lo, hi):
                c = cards[r]
                rows = {}
                pos = 0
                for row, size in zip(v.row_names, v.row_sizes):
                    rows[row] = format_row(c[pos:pos + size])
                    pos += size
                d = ""
                if disc is not None and disc[0][r + 1] > disc[0][r]:
                    d = format_row(disc[1][disc[0][r]:disc[0][r + 1]].tolist())
                line = [ids[h], r - lo, hi - lo, names[r] or "", vname, o, fl[r],
                        rows.get("top", ""), rows.get("middle", ""), rows.get("bottom", ""),
                        rows.get("third", ""), rows.get("second", ""), d]
                if scored:
                    line += [pts[r], roy[r], int(foul[r]), fan[r],
                             rec[r] if has[r] and rec[r] != pts[r] else ""]
                else:
                    line.append(rec[r] if has[r] else "")
                w.writerow(line)
        self.f.write(buf.getvalue())

    def _write_results(self, chunk):
        buf = io.StringIO()
        w = _csv.writer(buf, lineterminator="\n")
        if not self.header:
            w.writerow(("hand_id", "seat", "n_players", "name", "variant", "points") +
                       RESULT_COLUMNS)
            self.header = True
        ids, names = _one_line(chunk.hand_ids()), _one_line(chunk.names())
        starts = chunk.hand_start.tolist()
        pts, roy = chunk.points.tolist(), chunk.royalties.tolist()
        foul, fan = chunk.foul.tolist(), chunk.fantasyland.tolist()
        rec, has = chunk.recorded.tolist(), chunk.has_recorded.tolist()
        for h in range(chunk.n_hands):
            lo, hi = starts[h], starts[h + 1]
            vname = chunk.hand_rules(h)[1]
            for r in range(lo, hi):
                w.writerow([ids[h], r - lo, hi - lo, names[r] or "", vname, pts[r], roy[r],
                            int(foul[r]), fan[r], rec[r] if has[r] and rec[r] != pts[r] else ""])
        self.f.write(buf.getvalue())

    def close(self):
        pass
