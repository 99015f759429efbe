"""CSV: one row per player-hand (docs/formats.md).

Columns (header required; order free; unknown columns ignored; a column the
reader reads may appear once):
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
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import IO, Any, cast

import numpy as np
import orjson

from ofc_fast._args import flag
from ofc_fast._scan import DONE, FALLBACK, FLUSH, NEW_RULES, ROOM
from ofc_fast._scan_csv import CSV_FIELDS, RowLines, RowScanner
from ofc_fast._write import (
    COL_CARDS,
    COL_DISCARDS,
    COL_INT,
    COL_PLAYERS,
    COL_SEAT,
    COL_TEXT,
    SLOTS,
    WriteBuffer,
    csv_rows,
)
from ofc_fast.errors import FileFormatError, RecordError, StateError, shorten
from ofc_fast.io._text import BLOCK, byte_blocks, not_utf8
from ofc_fast.io.columns import hand_ids, hand_variants, layout, names, texts, variant_texts
from ofc_fast.io.schema import CSV_COLUMNS, KEY_COLUMNS, RESULT_COLUMNS, ROW_COLUMNS, result_values
from ofc_fast.records import (
    DEFAULT_RULES,
    Chunk,
    ChunkBuilder,
    Rules,
    RulesEntry,
    chunk_from_records,
    clip,
    format_row,
)
from ofc_fast.records.builder import register_scanned_rules
from ofc_fast.threads import prefetch

__all__ = ["read_csv", "CsvWriter", "COLUMNS", "csv_bytes", "csv_records"]

COLUMNS = CSV_COLUMNS
"""A hands file's columns as the writer writes them (:data:`ofc_fast.io.schema.CSV_COLUMNS`)."""
_ROWS = ("top", "middle", "bottom", "third", "second", "rows")
_READ = frozenset(CSV_FIELDS) | {"id"}
"""The columns the reader reads (each may appear once; others are ignored)."""


Row = dict[str, str]
"""One CSV row by column name."""


def _hand_record(rows: list[Row], lines: list[int], source: str,
                 rules: Rules) -> tuple[dict[str, Any], list[int]]:
    """One ofc-hand/1 dict from the CSV rows of a hand (seat order restored)."""
    first = rows[0]
    hid = first.get("hand_id") or first.get("id")
    ctx: dict[str, Any] = dict(source=source, line=lines[0], hand_id=hid)
    seats = []
    for row, line in zip(rows, lines, strict=True):
        s = (row.get("seat") or "").strip()
        if s == "" and len(rows) == 1:
            s = "0"
        if not _SMALL_INT.fullmatch(s):
            raise RecordError("bad value", f"seat must be an integer, got {shorten(s)}",
                            **{**ctx, "line": line})
        seats.append(int(s))
    order = sorted(range(len(rows)), key=seats.__getitem__)
    if sorted(seats) != list(range(len(rows))):
        raise RecordError("bad value", f"seats {shorten(sorted(seats))}: a hand's rows need seats "
                        f"0..{len(rows) - 1}, "
                        "each once (rows of one hand must be consecutive)", **ctx)
    for row, line in zip(rows, lines, strict=True):
        n = (row.get("n_players") or "").strip()
        if n and n != str(len(rows)):
            raise RecordError("wrong number of players", f"n_players is {shorten(n)} but the hand "
                            f"has {len(rows)} rows (rows of one hand must be consecutive)",
                            **{**ctx, "line": line})
    rec: dict[str, Any] = {"id": hid}
    v = (first.get("variant") or "").strip()
    if v:
        rec["variant"] = v
    o = (first.get("options") or "").strip()
    if o:
        try:
            rec["options"] = orjson.loads(o)
        except orjson.JSONDecodeError as e:
            raise RecordError("unknown variant", f"options {shorten(o)} is not a JSON object: "
                            f"{clip(e, 120)}", **ctx) from None
    players = []
    for i in order:
        row = rows[i]
        p: dict[str, Any] = {}
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
                # plain integers here (true/false for in_fantasyland only, as
                # the format says); anything else (and the bounds) is the
                # record model's to judge
                digits = val[1:] if val[:1] == "-" else val
                p[k] = int(val) if digits.isascii() and digits.isdigit() else \
                    _BOOLS.get(val.lower(), val) if k == "in_fantasyland" else val
        d = row.get("discards")
        if d:
            p["discards"] = d
        players.append(p)
    rec["players"] = players
    return rec, [lines[i] for i in order]


CSV_BLOCK = 1 << 22     # bytes of lines read at a time
MAX_LINE = 131_072
"""The longest CSV line, in characters (its end included; Python's CSV field
limit): a longer line is a bad record.  Reading keeps at most 4 bytes a
character of a line (:func:`~ofc_fast.io._text.byte_blocks`), so memory
stays bounded on a line without end."""
FIRST_BLOCK = 1 << 16   # the first read: the header, and a start while reading ahead begins
_SMALL_INT = re.compile(r"[+-]?[0-9]{1,9}")
_BOOLS = {"true": True, "false": False}


def _text_rows(lines: list[str], lineno: int,
               source: str) -> Iterator[tuple[int, list[str] | None]]:
    """(line number, list of fields) of each CSV row of a block of text lines
    (the first is line ``lineno + 1``), one physical line per row; (line,
    None) for a line too long to be a row.

    Raises :class:`FileFormatError` for a quoted field that does not end on
    its line (an unbalanced quote: in this format no value spans lines, so a
    stray quote cannot swallow the rows after it)."""
    too_long = {k for k, x in enumerate(lines) if len(x) > MAX_LINE}
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
        if "field limit" in str(e) and _csv.field_size_limit() < MAX_LINE:
            # the csv module's limit is the process's: this program lowered it
            raise FileFormatError(
                source, f"a field longer than the csv module's field size limit "
                f"({_csv.field_size_limit():,} characters, lowered in this process by "
                f"csv.field_size_limit; ofc_fast reads lines of up to {MAX_LINE:,})",
                position=f"line {lineno + k + 1:,}") from None
        why = "a quoted field does not end" if "end of data" in str(e) else clip(e, 120)
        raise FileFormatError(source, f"malformed CSV in the row that starts on this line: "
                              f"{why} (an unbalanced quote?)",
                              position=f"line {lineno + k + 1:,}") from None


def _decode(block: bytes, lineno: int, source: str) -> list[str]:
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


def _blocks(f: IO[bytes] | IO[str], source: str) -> Iterator[bytes | list[str]]:
    """Blocks of whole lines: bytes (binary files, a byte order mark
    skipped), or lists of text lines (text files)."""
    if isinstance(f, io.TextIOBase):
        first = True
        text: Any = f
        for lines in iter(lambda: text.readlines(BLOCK), []):
            if first and lines and lines[0].startswith("\ufeff"):
                lines[0] = lines[0][1:]
            first = False
            yield lines
        return
    binary: Any = f
    yield from byte_blocks(binary, source, CSV_BLOCK,
                           first=min(CSV_BLOCK, FIRST_BLOCK), max_line=4 * MAX_LINE,
                           starts=_csv_start)


def _csv_start(byte: int) -> str | None:
    """None if ``byte`` can start CSV text (UTF-8: no control character, no
    byte that cannot start a character), else why not."""
    if (byte < 0x20 and byte not in (0x09, 0x0A, 0x0D)) or byte == 0x7F or \
            0x80 <= byte < 0xC2 or byte >= 0xF5:
        return (f"the file starts with the byte {byte:#04x}, which cannot start CSV text "
                "(a binary file, or a stream of zeros?)")
    return None


def read_csv(f: IO[bytes] | IO[str], *, source: str = "", rules: Rules = DEFAULT_RULES,
             chunk_size: int = 20_000, skip_bad: bool = False,
             fast: bool = True, read_ahead: bool = False) -> Iterator[Chunk]:
    """Validated chunks of up to ``chunk_size`` hands from a CSV file (module docstring).

    Hands of plain rows in a binary file (no quotes, rows as wide as the
    header, cards as plain text, numbers as plain integers, seats in order) are
    read by a C scanner straight into the chunk's columns
    (:class:`ofc_fast._scan_csv.RowScanner`); the rows of any other hand, and a few
    hundred lines after it, are read row by row with the csv module (every row
    with ``fast=False``), with the same results and messages.

    Parameters
    ----------
    f : binary or text file
        The file: bytes (UTF-8; a byte order mark is skipped) or text.
    source : str
        Its name, for messages.
    rules : Rules
        The rules of hands that name none (or of all, with ``override``).
    chunk_size : int
        Hands a chunk.
    skip_bad : bool
        Leave bad hands out (listed in each chunk's ``errors``) instead of
        raising at the first.
    fast : bool
        Use the C scanner (binary files).
    read_ahead : bool
        Read the next block of the file, and split its lines into fields and
        cards (:meth:`~ofc_fast._scan_csv.RowScanner.lines`, most of the work,
        without the GIL), in a background thread while the hands of this
        block are collected and the caller works on its chunks (binary files
        read by the scanner; the chunks are the same either way).

    Yields
    ------
    Chunk
        Validated, in file order.

    Raises
    ------
    RecordError
        Without ``skip_bad``: the first bad hand; also a row with more fields
        than the header, or a line longer than the CSV field limit (131,072
        characters).
    FileFormatError
        An unbalanced quote, text that is not UTF-8, a header without
        ``hand_id`` and rows.

    Examples
    --------
    >>> import io
    >>> text = ("hand_id,seat,top,middle,bottom\\n"
    ...         "h1,0,Qs Qd 2c,9h 9d 9c 5s 5d,7h 7d 7c 7s 2d\\n"
    ...         "h1,1,Ks Kd 3c,2h 3h 4h 5h 6d,Tc Td Ts Th 8d\\n")
    >>> [c.score().points.tolist() for c in read_csv(io.BytesIO(text.encode()))]
    [[6, -6]]
    """
    reader: _Reader | None = None
    carry = b""
    lineno = 0                  # lines before the block

    blocks = _blocks(f, source)
    ahead: Generator[tuple[Any, RowLines | None, bool], None, None] = \
        ((b, None, False) for b in blocks)
    block: Any
    # closed however reading ends: a read-ahead thread stops before the
    # caller closes the file
    try:
        while (item := next(ahead, None)) is not None:
            block, block_lines, whole = item
            shift = len(carry)          # where block_lines' lines start
            end = None if block_lines is None else shift + block_lines.size
            if carry:
                block, carry = carry + block, b""
            if reader is None:
                if isinstance(block, bytes):
                    head, lineno_rest, block = _split_header(block, lineno)
                    lines = _decode(head, lineno, source)
                else:
                    lines, lineno_rest, block = block, lineno + len(block), []
                rows = _text_rows(lines, lineno, source)
                header: list[str] | None = None
                line: int | None = None
                for line, header in rows:
                    if header is None:
                        raise FileFormatError(source, "the header line is too long to be a CSV "
                                              "header", position=f"line {line:,}")
                    break
                if header is None:      # only blank lines so far
                    lineno = lineno_rest
                    continue
                reader = _Reader(header, line, source, rules, chunk_size, skip_bad,
                                 fast and isinstance(block, bytes))
                if read_ahead and reader.scanner is not None:
                    # (the scanner reads binary files only)
                    ahead = prefetch(_whole_hands(cast(Iterator[bytes], blocks),
                                                  reader.scanner.lines))
                yield from reader.rows(rows)
                if reader.stopped:
                    return
                lineno = lineno_rest
            if isinstance(block, bytes):
                yield from reader.block(block, lineno, whole, block_lines, shift, end)
                lineno = reader.lines_after
                if reader.carry is not None:
                    carry = reader.carry
            else:
                yield from reader.rows(_text_rows(block, lineno, source))
                lineno += len(block)
            if reader.stopped:
                return
        if reader is None:
            return
        if carry:
            yield from reader.block(carry, lineno, True)
            if reader.stopped:
                return
        yield from reader.end()
    finally:
        ahead.close()


def _whole_hands(blocks: Iterator[bytes],
                 lines_of: Callable[[bytes], RowLines]) -> Iterator[tuple[bytes, RowLines, bool]]:
    """``(block, its lines, whole)``: blocks with their lines read (in the
    read-ahead thread), cut where their last hand begins when the lines tell
    (``whole``: the block's hands end with it, at ``lines.size``; the rest is
    carried into the next block, so the reader need not join blocks itself)."""
    rest = b""
    for b in blocks:
        data = rest + b if rest else b
        lines = lines_of(data)
        at = lines.last_hand()
        if at <= 0:
            rest = b""
            yield data, lines, False
        else:
            rest = lines.cut(at)
            yield data, lines, True         # the hands of data[:lines.size]
    if rest:
        yield rest, lines_of(rest), False


def _split_header(block: bytes, lineno: int) -> tuple[bytes, int, bytes]:
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


WINDOW = 256
"""Lines read row by row after a hand that the scanner does not read."""


def _window_end(block: bytes, pos: int, n: int) -> int:
    """Where a stretch of :data:`WINDOW` lines from ``pos`` ends in
    ``block[:n]`` (``n`` if its last line has a quote: a quote that does not
    end on its line is then judged as in a whole block)."""
    end = pos
    for _ in range(WINDOW):
        k = block.find(b"\n", end, n)
        if k < 0:
            return n
        end = k + 1
    if b'"' in block[block.rfind(b"\n", pos, end - 1) + 1:end]:
        return n
    return end


class _Reader:
    """The hands of a CSV file after its header: rows read one by one
    (:meth:`rows`) or blocks whose plain hands the scanner reads
    (:meth:`block`), collected into chunks of ``chunk_size`` hands in file
    order."""

    def __init__(self, header: list[str], line: int | None, source: str, rules: Rules,
                 chunk_size: int, skip_bad: bool, fast: bool):
        self.fieldnames = names = [k.strip() for k in header]
        fields = set(names)
        if not (fields & {"hand_id", "id"}) or not (fields & set(_ROWS)):
            raise FileFormatError(source, f"CSV header {shorten(header)} needs hand_id, seat "
                                  "and the rows (top, middle, bottom or rows)",
                                  position=f"line {line}")
        for name in dict.fromkeys(names):       # a column read twice: which copy is meant?
            if name in _READ and names.count(name) > 1:
                raise FileFormatError(source, f"column {name!r} appears {names.count(name)} "
                                      "times", position=f"line {line}")
        self.source, self.rules = source, rules
        self.chunk_size, self.skip_bad = chunk_size, skip_bad
        self.width = len(names)
        self.builder = ChunkBuilder(source, rules, strict=False)
        self.row_lines: list[int] = []
        self.cur: list[Row] = []
        self.cur_lines: list[int] = []
        self.cur_id: str | None = None
        self.stopped = False
        self.carry: bytes | None = None
        self.lines_after = 0
        self.table: list[tuple[int, RulesEntry]] = []   # the scanner's rules k
        self.scanner: RowScanner | None = None
        hid = "hand_id" if "hand_id" in fields else "id"
        if fast and len(fields) == len(names) and self.width <= 256 and \
                {"seat", "top", "middle", "bottom"} <= fields:
            columns = [names.index(hid if f == "hand_id" else f) if
                       (hid if f == "hand_id" else f) in fields else -1 for f in CSV_FIELDS]
            self.scanner = RowScanner(columns, self.width, MAX_LINE)

    def count(self) -> int:
        """Hands collected for the next chunk."""
        return len(self.builder) + (self.scanner.n if self.scanner is not None else 0)

    def flush(self) -> bool:
        """Add the hand of the rows read so far; False if it is bad."""
        cur, cur_lines, builder = self.cur, self.cur_lines, self.builder
        if not cur:
            return True
        self.cur, self.cur_lines = [], []
        try:
            rec, lines = _hand_record(cur, cur_lines, self.source, self.rules)
        except RecordError as e:
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

    def finish(self) -> Chunk:
        """The chunk of the hands collected (validated); a new one starts."""
        fast: dict[str, Any] | None = None
        names: list[Any] | None = None
        if self.scanner is not None:
            fast, names = self.scanner.take(), self.scanner.names
            fast["rules_table"] = self.table
        chunk = self.builder.finish(fast=fast, names=names,
                                    row_line=np.asarray(self.row_lines, np.int64))
        self.builder, self.row_lines = ChunkBuilder(self.source, self.rules, strict=False), []
        return chunk.validate(self.skip_bad)

    def rows(self, rows: Iterable[tuple[int, list[str] | None]]) -> Iterator[Chunk]:
        """Read rows one by one (``stopped`` at a bad one, without skip_bad)."""
        fieldnames, width = self.fieldnames, self.width
        for line, fields_ in rows:
            if fields_ is None or len(fields_) > width:
                what = (f"more than {MAX_LINE:,} characters" if fields_ is None
                        else f"{len(fields_)} fields but the header has {width}")
                self.builder.reject(RecordError("bad record", f"the line has {what}; it is not a "
                                              "player-hand row", source=self.source, line=line))
                if not self.skip_bad:
                    self.flush()
                    self.stopped = True
                    yield self.finish()
                    return
                continue
            row = dict(zip(fieldnames, fields_, strict=False))
            hid = row.get("hand_id") or row.get("id")
            if self.cur and hid != self.cur_id:
                yield from self._end_hand()
                if self.stopped:
                    return
            self.cur.append(row)
            self.cur_lines.append(line)
            self.cur_id = hid

    def _end_hand(self) -> Iterator[Chunk]:
        """The hand of the rows read one by one ends."""
        if not self.flush() and not self.skip_bad:
            self.stopped = True
            yield self.finish()
            return
        if self.count() >= self.chunk_size:
            yield self.finish()

    def end(self) -> Iterator[Chunk]:
        """The last chunk."""
        if not self.flush() and not self.skip_bad:
            yield self.finish()
            return
        if self.count() or self.builder.errors:
            yield self.finish()

    def block(self, block: bytes, lineno: int, eof: bool, prepared: RowLines | None = None,
              shift: int = 0, end: int | None = None) -> Iterator[Chunk]:
        """The hands of a block of lines, ``block[:end]`` (the first is line
        ``lineno + 1``): plain ones by the scanner, the others row by row;
        ``prepared`` holds the lines of ``block[shift:end]`` read beforehand
        (:meth:`RowScanner.lines`).
        The rows of the block's last hand, which may go on in the next block,
        are left in ``carry`` (bytes) unless ``eof`` (the end of the file, or
        of a block cut where a hand ends); ``lines_after`` counts the lines
        before the next block's (or the carry's) first line."""
        self.carry = None
        self.lines_after = lineno
        sc = self.scanner
        pos, line, n = 0, lineno + 1, len(block) if end is None else end
        while pos < n:
            what = FALLBACK
            if sc is not None:
                pending = (self.cur_id or "").encode() if self.cur else None
                what, pos, line = sc.scan(block, pos, line, pending, eof,
                                          max(1, self.chunk_size - self.count()), prepared, shift,
                                          n)
            if what == FLUSH:
                yield from self._end_hand()
                if self.stopped:
                    return
            elif what == NEW_RULES and sc is not None:
                register_scanned_rules(sc, self.table, self.rules, strip=True)
            elif what == ROOM:
                yield self.finish()
            elif what == DONE:
                if pos < n:
                    self.carry = block[pos:n]
                self.lines_after = line - 1
                return
            else:
                stop = _window_end(block, pos, n)
                lines = _decode(block[pos:stop], line - 1, self.source)
                yield from self.rows(_text_rows(lines, line - 1, self.source))
                if self.stopped:
                    return
                pos, line = stop, line + len(lines)
        self.lines_after = line - 1     # also after a hand that ends with the block


def csv_bytes(chunk: Chunk, results_only: bool = False, header: bool = False,
              out: WriteBuffer | None = None) -> bytes | WriteBuffer:
    """The CSV rows of a chunk's player-hands, as :class:`CsvWriter` writes them.

    One pass of C over the chunk's columns (:func:`ofc_fast._write.csv_rows`),
    byte for byte what Python's csv module writes (``lineterminator="\\n"``)
    for the rows of :func:`csv_records`: the columns of :data:`COLUMNS` (the
    layout as canonical card text), then for a scored chunk our results
    (:mod:`ofc_fast.io.schema`; ``foul`` as 0/1, ``recorded_points`` only
    where it differs from ours).  A line break in a value is written as a
    space: in this format no value spans lines.

    Parameters
    ----------
    chunk : Chunk
        The hands (with our results if scored).
    results_only : bool
        For a scored chunk: the keys (``hand_id``, ``seat``, ``n_players``,
        ``name``, ``variant``) and the results only.
    header : bool
        Start with the header line.
    out : WriteBuffer, optional
        A buffer to write into (reused by a writer from chunk to chunk).

    Returns
    -------
    bytes or WriteBuffer
        The lines (``out`` if given).

    Raises
    ------
    MemoryError
        No memory for the output.
    UnicodeEncodeError
        A name or hand id that is not text UTF-8 can hold (a lone surrogate).

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> chunk = chunk_from_records([{"id": "h,1", "players": [p, q]}])
    >>> print(csv_bytes(chunk).decode(), end="")
    "h,1",0,2,,pineapple,,0,Qs Qd 2c,9h 9d 9c 5s 5d,7h 7d 7c 7s 2d,,,,
    "h,1",1,2,,pineapple,,0,Ks Kd 3c,2h 3h 4h 5h 6d,Tc Td Ts Th 8d,,,,
    """
    scored = chunk.points is not None
    results_only = results_only and scored
    ids, id_ix = hand_ids(chunk, "csv")
    nm, name_ix = names(chunk, "csv")
    vnames, vopts = variant_texts(chunk, "csv")
    hand_var = hand_variants(chunk)
    entry = np.zeros(chunk.n_hands, np.int64) if hand_var is None else hand_var
    cols: list[tuple[Any, ...]] = [(COL_TEXT, ids, id_ix, True), (COL_SEAT,), (COL_PLAYERS,),
                                   (COL_TEXT, nm, name_ix), (COL_TEXT, vnames, entry, True)]
    cards = spec = None
    if results_only:
        columns = KEY_COLUMNS + RESULT_COLUMNS
    else:
        columns = COLUMNS + (RESULT_COLUMNS[1:] if scored else ())
        cards, spec = layout(chunk)
        cols += [(COL_TEXT, vopts, entry, True), (COL_INT, chunk.in_fantasyland, None)]
        cols += [(COL_CARDS, SLOTS.index(name)) for name in ROW_COLUMNS]
        cols.append((COL_DISCARDS,))
    if scored:
        for name, (values, valid) in result_values(chunk).items():
            if name == "substitutes":       # text: "" where the player holds no joker
                codes, subs = chunk.substitute_codes()
                cols.append((COL_TEXT, texts([None, *subs[1:]], "csv")[0], codes))
            else:
                cols.append((COL_INT, values, valid))
    else:
        cols.append((COL_INT, chunk.recorded, chunk.has_recorded))
    head = (",".join(columns) + "\n").encode() if header else b""
    return csv_rows(cols, chunk.hand_start, hand_var, cards, spec, chunk.discards, head=head,
                    out=out)


def csv_records(chunk: Chunk, results_only: bool = False) -> list[list[Any]]:
    """The rows :func:`csv_bytes` writes, as the values Python's csv module
    would be given (the reference of the C formatter, for tests).

    Parameters
    ----------
    chunk : Chunk
        The hands.
    results_only : bool
        See :func:`csv_bytes`.

    Returns
    -------
    list of list
        One row per player-hand, after the header row.

    Raises
    ------
    TypeError
        A card id that is not an integer (never in a chunk a reader made).

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> csv_records(chunk_from_records([{"id": 1, "players": [p, q]}]).score(), True)[1]
    [1, 0, 2, '', 'pineapple', 6, 29, 0, 14, '', '']
    """
    scored = chunk.points is not None
    results_only = results_only and scored
    columns = KEY_COLUMNS + RESULT_COLUMNS if results_only else \
        COLUMNS + (RESULT_COLUMNS[1:] if scored else ())
    rows: list[list[Any]] = [list(columns)]
    ids = _one_line(chunk.hand_ids())
    names_ = _one_line(chunk.names())
    starts = chunk.hand_start.tolist()
    res = [(values.tolist(), None if valid is None else valid.tolist())
           for values, valid in result_values(chunk).values()] if scored else []
    cards = [] if results_only else chunk.cards().tolist()
    fl = [] if results_only else chunk.in_fantasyland.tolist()
    disc = chunk.discards
    rec, has = chunk.recorded.tolist(), chunk.has_recorded.tolist()
    for h in range(chunk.n_hands):
        v, vname, opts = chunk.hand_rules(h)
        lo, hi = starts[h], starts[h + 1]
        o = orjson.dumps(opts, option=orjson.OPT_SORT_KEYS).decode() if opts else ""
        for r in range(lo, hi):
            line = [ids[h], r - lo, hi - lo, "" if names_[r] is None else names_[r], vname]
            if not results_only:
                text = {}
                pos = 0
                for row, size in zip(v.row_names, v.row_sizes, strict=True):
                    text[row] = format_row(cards[r][pos:pos + size])
                    pos += size
                d = "" if disc is None else format_row(disc[1][disc[0][r]:disc[0][r + 1]].tolist())
                line += [o, fl[r], *(text.get(row, "") for row in ROW_COLUMNS), d]
            if scored:
                line += [(values[r] if isinstance(values[r], str) else int(values[r]))
                         if valid is None or valid[r] else "" for values, valid in res]
            else:
                line.append(rec[r] if has[r] else "")
            rows.append(line)
    return rows


def _one_line(values: list[Any]) -> list[Any]:
    """A column's values with line breaks written as spaces: in this format
    no value spans lines (the reader takes a quote that does for an unbalanced one)."""
    if not any(v.__class__ is str and ("\n" in v or "\r" in v) for v in values):
        return values
    return [v.replace("\r\n", " ").replace("\r", " ").replace("\n", " ") if v.__class__ is str
            else v for v in values]


class CsvWriter:
    """Write chunks as CSV, one row per player-hand (results added if scored).

    Each chunk is formatted in one pass (:func:`csv_bytes`) and written with
    one call.  The columns are :data:`COLUMNS`, then for a scored chunk
    ``points`` (ours) and the other results of :mod:`ofc_fast.io.schema`; a
    value's line breaks are written as spaces (in this format no value spans
    lines).

    Parameters
    ----------
    f : binary or text file
        Where the rows go (UTF-8; a text file opened with ``newline=""``).
    results_only : bool
        For scored chunks: keys and results only (``hand_id``, ``seat``,
        ``n_players``, ``name``, ``variant``, ``points`` and the results), no
        cards.

    Examples
    --------
    >>> import io
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> out = io.StringIO()
    >>> CsvWriter(out, results_only=True).write(
    ...     chunk_from_records([{"id": "h1", "players": [p, q]}]).score())
    >>> print(out.getvalue(), end="")
    hand_id,seat,n_players,name,variant,points,royalties,foul,fantasyland,recorded_points,substitutes
    h1,0,2,,pineapple,6,29,0,14,,
    h1,1,2,,pineapple,-6,22,0,14,,
    """

    def __init__(self, f: IO[bytes] | IO[str], results_only: bool = False):
        self.f = f
        self.header = False
        self.results_only = flag(results_only, "results_only")
        self.text = isinstance(f, io.TextIOBase)
        self.out = WriteBuffer()
        self.closed = False

    def write(self, chunk: Chunk) -> None:
        """Write the player-hands of a chunk (the header first, once).

        Parameters
        ----------
        chunk : Chunk
            The hands (with our results if scored).

        Raises
        ------
        StateError
            The writer is closed or given up.
        """
        if self.closed:
            raise StateError("write() after close(): the writer is closed")
        data = csv_bytes(chunk, self.results_only, header=not self.header, out=self.out)
        self.header = True
        if self.text:
            cast(IO[str], self.f).write(bytes(data).decode("utf-8"))
        else:
            cast(IO[bytes], self.f).write(data)

    def close(self) -> None:
        """Every chunk is written whole; a writer given no hands writes the
        header of a scored file (a CSV file of no hands, with its columns)."""
        if not self.header and not self.closed:
            self.write(chunk_from_records([]).score())
        self.closed = True

    def abort(self) -> None:
        """Give up: nothing more is written (no header)."""
        self.closed = True
