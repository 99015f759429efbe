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

from ofc_fast._cards import decode_cells, decode_lists
from ofc_fast._records import plain_ints
from ofc_fast.errors import FileFormatError, shorten
from ofc_fast.io._text import BLOCK, byte_blocks, not_utf8
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


CSV_BLOCK = 1 << 22     # bytes of lines read at a time (one pyarrow read each)
_SMALL_INT = re.compile(r"[+-]?[0-9]{1,9}")
_BOOLS = {"true": True, "false": False}


def _text_rows(lines: list, lineno: int, source: str):
    """(line number, list of fields) of each CSV row of a block of text lines
    (the first is line ``lineno + 1``), one physical line per row; (line,
    None) for a line too long to be a row.

    Raises :class:`FileFormatError` for a quoted field that does not end on
    its line (an unbalanced quote: in this format no value spans lines, so a
    stray quote cannot swallow the rows after it)."""
    limit = _csv.field_size_limit()
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


def _decode(block: bytes, lineno: int, source: str) -> list:
    """The lines of a block of UTF-8 bytes as text (FileFormatError naming the
    first line that is not UTF-8)."""
    lines = block.split(b"\n")
    last = lines.pop()
    lines = [x + b"\n" for x in lines] + ([last] if last else [])
    try:
        return [x.decode("utf-8") for x in lines]
    except UnicodeDecodeError:
        for k, x in enumerate(lines):
            err = not_utf8(x, source, lineno + k + 1)
            if err is not None:
                raise err from None
        raise


def _blocks(f, source: str):
    """(number of the block's first line - 1, block): bytes of whole lines
    (binary files, a byte order mark skipped) or a list of text lines."""
    lineno = 0
    if isinstance(f, io.TextIOBase):
        for lines in iter(lambda: f.readlines(BLOCK), []):
            if lineno == 0 and lines and lines[0].startswith("\ufeff"):
                lines[0] = lines[0][1:]
            yield lineno, lines
            lineno += len(lines)
        return
    for block, n in byte_blocks(f, source, CSV_BLOCK, counts=True):
        yield lineno, block
        lineno += n


def read_csv(f, *, source: str = "", rules: Rules = DEFAULT_RULES, chunk_size: int = 20_000,
             skip_bad: bool = False, fast: bool = True):
    """Yield validated chunks from a CSV file, binary (UTF-8) or text (see module doc).

    A row with more fields than the header, or a line longer than the CSV
    field limit (131,072 characters), is a bad record; an unbalanced quote or
    text that is not UTF-8 is a :class:`FileFormatError`.

    Blocks of plain lines of a binary file (no quotes, rows as wide as the
    header, cards as plain text, numbers as plain integers, seats in order)
    are read by pyarrow's CSV reader and decoded column by column in C
    (:class:`_FastBlocks`); any other block is read row by row (every block
    with ``fast=False``), with the same results and messages."""
    items = ((lineno, block, None) for lineno, block in _blocks(f, source))
    yield from _read_blocks(items, source, rules, chunk_size, skip_bad, fast)


def _read_blocks(items, source, rules, chunk_size, skip_bad, fast):
    """:func:`read_csv` after its first block: (line, block, parse) items."""
    try:
        reader = None
        carry, carry_line = b"", 0
        while (item := next(items, None)) is not None:
            lineno, block, parsed = item
            table = None
            if parsed is not None:
                table = parsed.result()
                if carry and table is not None:
                    head = reader.columns.parse(carry)
                    table = None if head is None else _concat(head, table)
            if isinstance(block, bytes) and carry:
                block, lineno = carry + block, carry_line
                carry = b""
            if reader is None:
                if isinstance(block, bytes):
                    head, lineno_rest, block = _split_header(block, lineno)
                    lines = _decode(head, lineno, source)
                else:
                    lines, lineno_rest, block = block, lineno + len(block), []
                rows = _text_rows(lines, lineno, source)
                header = line = None
                for line, header in rows:
                    if header is None:
                        raise FileFormatError(source, "the header line is too long to be a CSV "
                                              "header", position=f"line {line:,}")
                    break
                if header is None:
                    continue            # only blank lines so far
                reader = _Reader(header, line, source, rules, chunk_size, skip_bad, fast)
                items = _parse_ahead(items, reader.columns)
                yield from reader.rows(rows)
                if reader.stopped:
                    return
                lineno = lineno_rest
            if isinstance(block, bytes):
                got = reader.fast_block(block, lineno, False, table)
                if got is not None:
                    yield from got
                    if reader.stopped:
                        return
                    if reader.carry is not None:
                        carry, carry_line = reader.carry
                    continue
                block = _decode(block, lineno, source)
            yield from reader.rows(_text_rows(block, lineno, source))
            if reader.stopped:
                return
        if reader is None:
            return
        if carry:
            got = reader.fast_block(carry, carry_line, True)
            if got is None:
                got = reader.rows(_text_rows(_decode(carry, carry_line, source), carry_line, source))
            yield from got
            if reader.stopped:
                return
        yield from reader.end()
    finally:
        items.close()


def _parse_ahead(items, columns):
    """The (line, block, None) items with the pyarrow parse of each block
    started one block ahead in a thread (it releases the GIL): (line, block,
    future of the table or None)."""
    if columns is None or not columns.usable:
        yield from items
        return
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(1, thread_name_prefix="ofc-fast-csv")
    try:
        ahead = None
        for lineno, block, _ in items:
            item = (lineno, block, pool.submit(columns.parse, block)
                    if isinstance(block, bytes) else None)
            if ahead is not None:
                yield ahead
            ahead = item
        if ahead is not None:
            yield ahead
    finally:
        pool.shutdown(wait=False, cancel_futures=True)   # a parse under way just ends


def _concat(a, b):
    import pyarrow as pa
    try:
        return pa.concat_tables([a, b])
    except pa.ArrowInvalid:
        return None


def _split_header(block: bytes, lineno: int) -> tuple:
    """(the lines up to the first that is not blank, the number of that line,
    the rest of the block)."""
    pos, n = 0, lineno
    while pos < len(block):
        end = block.find(b"\n", pos)
        end = len(block) if end < 0 else end + 1
        n += 1
        if block[pos:end].strip(b"\r\n"):
            return block[:end], n, block[end:]
        pos = end
    return block, n, b""


class _Reader:
    """The hands of a CSV file after its header: rows read one by one
    (:meth:`rows`) or blocks read column by column (:meth:`fast_block`),
    collected into chunks of ``chunk_size`` hands in file order."""

    def __init__(self, header: list, line: int, source: str, rules: Rules, chunk_size: int,
                 skip_bad: bool, fast: bool):
        self.fieldnames = [k.strip() for k in header]
        fields = set(self.fieldnames)
        if not (fields & {"hand_id", "id"}) or not (fields & set(_ROWS)):
            raise FileFormatError(source, f"CSV header {shorten(header)} needs hand_id, seat "
                                  "and the rows (top, middle, bottom or rows)",
                                  position=f"line {line}")
        self.source, self.rules = source, rules
        self.chunk_size, self.skip_bad = chunk_size, skip_bad
        self.width = len(self.fieldnames)
        self.builder = ChunkBuilder(source, rules, strict=False)
        self.row_lines: list = []
        self.cur: list = []
        self.cur_lines: list = []
        self.cur_id = None
        self.stopped = False
        self.carry: tuple | None = None
        self.columns = _FastBlocks(self.fieldnames, rules) if fast else None

    def count(self) -> int:
        """Hands collected for the next chunk."""
        return len(self.builder) + (self.columns.n if self.columns is not None else 0)

    def flush(self) -> bool:
        """Add the hand of the rows read so far; False if it is bad."""
        cur, cur_lines, builder = self.cur, self.cur_lines, self.builder
        if not cur:
            return True
        self.cur, self.cur_lines = [], []
        try:
            rec, lines = _hand_record(cur, cur_lines, self.source, self.rules)
        except HandError as e:
            builder.reject(e)
            return False
        n_err = len(builder.errors)
        ok = builder.add(rec, lines[0])
        if ok:
            self.row_lines.extend(lines)
        elif len(builder.errors) > n_err:
            err = builder.errors[-1]
            if err.seat is not None and err.seat < len(lines):
                err.line = lines[err.seat]
                err.args = (err.message,)
        return ok

    def finish(self):
        fast, names = (None, None) if self.columns is None else self.columns.take()
        chunk = self.builder.finish(fast=fast, names=names,
                                    row_line=np.asarray(self.row_lines, np.int64))
        self.builder, self.row_lines = ChunkBuilder(self.source, self.rules, strict=False), []
        return chunk.validate(self.skip_bad)

    def rows(self, rows):
        """Read rows one by one (``stopped`` at a bad one, without skip_bad)."""
        fieldnames, width = self.fieldnames, self.width
        for line, fields_ in rows:
            if fields_ is None or len(fields_) > width:
                what = (f"more than {_csv.field_size_limit():,} characters" if fields_ is None
                        else f"{len(fields_)} fields but the header has {width}")
                self.builder.reject(HandError("bad record", f"the line has {what}; it is not a "
                                              "player-hand row", source=self.source, line=line))
                if not self.skip_bad:
                    self.flush()
                    self.stopped = True
                    yield self.finish()
                    return
                continue
            row = dict(zip(fieldnames, fields_))
            hid = row.get("hand_id") or row.get("id")
            if self.cur and hid != self.cur_id:
                if not self.flush() and not self.skip_bad:
                    self.stopped = True
                    yield self.finish()
                    return
                if self.count() >= self.chunk_size:
                    yield self.finish()
            self.cur.append(row)
            self.cur_lines.append(line)
            self.cur_id = hid

    def end(self):
        """The last chunk."""
        if not self.flush() and not self.skip_bad:
            yield self.finish()
            return
        if self.count() or self.builder.errors:
            yield self.finish()

    def fast_block(self, block: bytes, lineno: int, eof: bool, table=None):
        """The hands of a block read column by column, as a generator of the
        chunks they complete, or None: read the block row by row.  The rows of
        the block's last hand, which may go on in the next block, are left in
        ``carry`` (bytes, number of their first line - 1) unless ``eof``."""
        self.carry = None
        if self.columns is None:
            return None
        got = self.columns.read(block, lineno, eof, self.cur_id if self.cur else None, table)
        if got is None:
            return None
        piece, carry_at, carry_line = got
        if carry_at < len(block):
            self.carry = (block[carry_at:], carry_line)
        return self._add_fast(piece)

    def _add_fast(self, piece: dict):
        if self.cur:            # the hand before the block ends where the block starts
            if not self.flush() and not self.skip_bad:
                self.stopped = True
                self.carry = None
                yield self.finish()
                return
            if self.count() >= self.chunk_size:
                yield self.finish()
        H = len(piece["P"])
        a = 0
        while a < H:
            b = min(H, a + self.chunk_size - self.count())
            self.columns.add(piece, a, b)
            a = b
            if self.count() >= self.chunk_size and (a < H or self.carry is not None):
                yield self.finish()


_CARD_COLUMNS = (("top", 0, 3), ("middle", 3, 5), ("bottom", 8, 5))


def _utf8(arr):
    """(bytes as uint8, offsets as int64) of an Arrow string array."""
    import pyarrow as pa
    if arr.type != pa.string():
        raise TypeError("not a string column")
    bufs = arr.buffers()
    off = np.frombuffer(bufs[1], np.int32, len(arr) + 1, arr.offset * 4).astype(np.int64)
    data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None and len(bufs[2]) else \
        np.zeros(1, np.uint8)
    return data, off


_NO_HANDS = {"P": np.zeros(0, np.uint8)}


class _FastBlocks:
    """Blocks of a CSV file read column by column: pyarrow's CSV reader, then
    the card columns decoded by the grammar's C kernel
    (:func:`ofc_fast._cards.decode_cells`), numbers and seats checked in
    whole columns.  A block is read here only when every row is of the plain
    shape (see :func:`read_csv`); :meth:`read` answers None for any other,
    and the block is read row by row, which says what is wrong."""

    def __init__(self, fieldnames: list, rules: Rules):
        self.fieldnames = fieldnames
        self.rules = rules
        names = set(fieldnames)
        self.hid = "hand_id" if "hand_id" in names else "id"
        self.usable = len(names) == len(fieldnames) and "seat" in names and \
            all(c in names for c, _, _ in _CARD_COLUMNS)
        self.names: list = []         # player names by code
        self.codes: dict = {}
        self.table: list = []         # rules k: (Rules id, rules)
        self.kinds: dict = {}         # variant text -> (k, min, max) or None
        self.pieces: list = []
        self.n = 0

    def read(self, block: bytes, lineno: int, eof: bool, pending_id, table=None):
        """(columns of the block's complete hands, where the rest starts in
        ``block``, its line number - 1), or None.  ``table``: the block as
        :meth:`parse` reads it, if it was read already."""
        if not self.usable or b'"' in block or b"\r" in block or not block:
            return None
        raw = np.frombuffer(block, np.uint8)
        ends = np.flatnonzero(raw == 10)
        if not len(ends) or ends[-1] != len(block) - 1:
            ends = np.append(ends, len(block))
        starts = np.concatenate([[0], ends[:-1] + 1])
        if (ends - starts).max() + 1 > _csv.field_size_limit():
            return None
        rows_at = np.flatnonzero(ends > starts)          # lines that are rows
        t = self.parse(block) if table is None else table
        if t is None:
            return None
        N = t.num_rows
        if N != len(rows_at) or N == 0:
            return None
        return self._columns(t, rows_at, starts, lineno, eof, pending_id, len(block))

    def parse(self, block: bytes):
        """The block as a table of text columns (those the reader uses), or
        None if pyarrow finds a line it cannot read as a row of the header."""
        try:
            return self._parse(block)
        except Exception:  # noqa: BLE001 - pyarrow's word for any odd line: read it row by row
            return None

    def _parse(self, block: bytes):
        import pyarrow as pa
        import pyarrow.csv as pcsv
        wanted = [c for c in ("hand_id", "id", "seat", "n_players", "name", "variant", "options",
                              "in_fantasyland", "top", "middle", "bottom", "third", "second",
                              "rows", "discards", "points") if c in self.fieldnames]
        return pcsv.read_csv(
            pa.py_buffer(block),
            read_options=pcsv.ReadOptions(column_names=self.fieldnames),
            parse_options=pcsv.ParseOptions(newlines_in_values=False),
            convert_options=pcsv.ConvertOptions(
                column_types={c: pa.string() for c in self.fieldnames}, include_columns=wanted,
                strings_can_be_null=False, quoted_strings_can_be_null=False))

    def _columns(self, t, rows_at, starts, lineno, eof, pending_id, size):
        import pyarrow.compute as pc
        col = {c: t.column(c).combine_chunks() for c in t.column_names}
        N = t.num_rows
        hid = col[self.hid]
        if pc.any(pc.equal(pc.utf8_length(hid), 0)).as_py():
            return None
        new = np.ones(N, bool)
        new[1:] = pc.not_equal(hid.slice(1), hid.slice(0, N - 1)).to_numpy(zero_copy_only=False)
        first = np.flatnonzero(new)
        if pending_id is not None and hid[0].as_py() == pending_id:
            return None
        H = len(first) if eof else len(first) - 1         # the last hand may go on
        if H == 0:                                          # all of it goes on
            return _NO_HANDS, 0, lineno
        n_rows = int(first[H]) if H < len(first) else N
        P = np.diff(np.append(first[:H], n_rows))
        if P.max() > 4:
            return None
        for c in ("options", "third", "second", "rows"):
            if c in col and _utf8(col[c])[1][-1] > _utf8(col[c])[1][0]:
                return None
        # seats and n_players: one digit each (the row reader judges the rest)
        expect = np.arange(n_rows) - np.repeat(first[:H], P)
        data, off = _utf8(col["seat"])
        if not (np.diff(off[:n_rows + 1]) == 1).all() or \
                not (data[off[:n_rows]] == expect + 48).all():
            return None
        if "n_players" in col:
            data, off = _utf8(col["n_players"])
            width = np.diff(off[:n_rows + 1])
            if not ((width == 0) | ((width == 1) & (data[off[:n_rows]] == np.repeat(P, P) + 48))
                    ).all():
                return None
        kinds = self._rules(col.get("variant"), first[:H], P)
        if kinds is None:
            return None
        out = {"P": P.astype(np.uint8), "rules": kinds, "line": None,
               "row_line": (lineno + 1 + rows_at[:n_rows]).astype(np.int64)}
        out["line"] = out["row_line"][first[:H]]
        cards = np.empty((n_rows, 13), np.uint8)
        ok = np.empty(n_rows, np.uint8)
        part = np.empty((n_rows, 5), np.uint8)
        for c, lo, k in _CARD_COLUMNS:
            data, off = _utf8(col[c])
            if decode_cells(data, off[:n_rows + 1], k, part, ok) != n_rows:
                return None
            cards[:, lo:lo + k] = part[:, :k]
        out["cards"] = cards
        for c, lo, hi in (("in_fantasyland", 0, 255), ("points", None, None)):
            vals, has = self._integers(col.get(c), n_rows, lo, hi)
            if vals is None:
                return None
            out[c] = vals.astype(np.uint8) if c == "in_fantasyland" else vals
            if c == "points":
                out["has_points"] = has
        out["n_discards"], out["discards"] = np.zeros(n_rows, np.uint8), np.zeros(0, np.uint8)
        if "discards" in col:
            data, off = _utf8(col["discards"])
            off = off[:n_rows + 1]
            ids = np.empty(int(off[-1] - off[0]) // 2 + 1, np.uint8)
            counts = np.empty(n_rows, np.int64)
            got = decode_lists(data, off, ids, counts, ok)
            if not ok[:n_rows].all() or counts.max(initial=0) > 255:
                return None
            out["n_discards"], out["discards"] = counts.astype(np.uint8), ids[:got].copy()
        out["name"] = self._names(col.get("name"), n_rows)
        out["ids"] = hid.take(first[:H]).to_pylist()
        if H < len(first):
            at = int(rows_at[first[H]])
            return out, int(starts[at]), lineno + at
        return out, size, lineno

    def _integers(self, arr, n_rows: int, lo, hi):
        """(int64 values, given) of a column of plain integers ("" = not
        given), or (None, None)."""
        vals = np.zeros(n_rows, np.int64)
        given = np.zeros(n_rows, np.uint8)
        if arr is None:
            return vals, given.view(bool)
        data, off = _utf8(arr)
        if plain_ints(data, off[:n_rows + 1], vals, given) >= 0:
            return None, None
        if lo is not None and len(vals) and (vals.min() < lo or vals.max() > hi):
            return None, None
        return vals, given.view(bool)

    def _rules(self, arr, first, P):
        """The rules k of each hand (its first row's variant), or None if one
        is not read here (unknown, four rows, players out of range)."""
        import pyarrow.compute as pc
        if arr is None:
            texts, idx = [""], np.zeros(len(first), np.int64)
        else:
            heads = arr.take(first)
            uniq = pc.unique(heads)
            texts = uniq.to_pylist()
            idx = pc.index_in(heads, value_set=uniq).to_numpy(zero_copy_only=False)
        ks = np.empty(len(texts), np.int64)
        lo, hi = np.empty(len(texts), np.int64), np.empty(len(texts), np.int64)
        for i, text in enumerate(texts):
            kind = self.kinds.get(text, False)
            if kind is False:
                kind = self.kinds[text] = self._resolve(text)
            if kind is None:
                return None
            ks[i], lo[i], hi[i] = kind
        if ((P < lo[idx]) | (P > hi[idx])).any():
            return None
        return ks[idx].astype(np.int32)

    def _resolve(self, text: str):
        try:
            rid, found = self.rules.resolve_id(text.strip() or None, None)
        except Exception:  # noqa: BLE001 - the row reader reports it
            return None
        v = found[0]
        if v.row_names != ("top", "middle", "bottom") or tuple(v.row_sizes) != (3, 5, 5):
            return None
        self.table.append((rid, found))
        return len(self.table) - 1, v.min_players, v.max_players

    def _names(self, arr, n_rows: int) -> np.ndarray:
        """Codes of the players' names ("" = no name: -1)."""
        import pyarrow.compute as pc
        if arr is None:
            return np.full(n_rows, -1, np.int32)
        enc = pc.dictionary_encode(arr.slice(0, n_rows))
        remap = np.empty(len(enc.dictionary), np.int32)
        for i, name in enumerate(enc.dictionary.to_pylist()):
            if not name:
                remap[i] = -1
                continue
            code = self.codes.get(name)
            if code is None:
                code = self.codes[name] = len(self.names)
                self.names.append(name)
            remap[i] = code
        return remap[enc.indices.to_numpy(zero_copy_only=False)]

    def add(self, piece: dict, a: int, b: int) -> None:
        """Hands ``a`` .. ``b - 1`` of a block's columns join the next chunk."""
        if a == 0 and b == len(piece["P"]):
            self.pieces.append(piece)
        else:
            starts = np.zeros(len(piece["P"]) + 1, np.int64)
            np.cumsum(piece["P"], out=starts[1:])
            r0, r1 = int(starts[a]), int(starts[b])
            doff = np.zeros(len(piece["n_discards"]) + 1, np.int64)
            np.cumsum(piece["n_discards"], out=doff[1:])
            part = {k: piece[k][a:b] for k in ("P", "rules", "line", "ids")}
            part.update({k: piece[k][r0:r1] for k in ("row_line", "cards", "in_fantasyland",
                                                      "points", "has_points", "n_discards",
                                                      "name")})
            part["discards"] = piece["discards"][doff[r0]:doff[r1]]
            self.pieces.append(part)
        self.n += b - a

    def take(self) -> tuple:
        """(columns of the hands added since the last call, names by code),
        or (None, names) if there are none."""
        pieces, self.pieces, self.n = self.pieces, [], 0
        if not pieces:
            return None, self.names
        cols = {k: np.concatenate([p[k] for p in pieces]) for k in pieces[0] if k != "ids"}
        cols["ids"] = [x for p in pieces for x in p["ids"]]
        cols["rules_table"] = self.table
        return cols, self.names


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
