"""Reading text formats (JSON Lines, CSV) as blocks of lines, trusting nothing.

:func:`byte_blocks` is the one place where the bytes of a text file come in:

* a UTF-8 byte order mark at the start is dropped (any text format, also
  inside ``.gz``); a UTF-16 or UTF-32 one, gzip data in a file not named
  ``.gz`` and a Parquet file are refused with :class:`FileFormatError`;
* a corrupt or truncated compressed stream (``EOFError``, ``zlib.error``,
  ``gzip.BadGzipFile``) becomes :class:`FileFormatError` naming the file and
  the last whole line before the damage (a compressed file is read a
  decompressed piece at a time, so that is where reading stopped), instead
  of escaping as a traceback.

Other :class:`OSError`\\ s (no permission, I/O error) are left as they are:
the file could not be read, which is not a fault of its format.
"""
from __future__ import annotations

import gzip
import lzma
import zlib
from collections.abc import Callable, Iterator
from typing import BinaryIO

from ofc_fast.errors import FileFormatError

__all__ = ["byte_blocks", "BLOCK", "CUT", "not_utf8"]

BLOCK = 1 << 22   # bytes of lines read at a time
_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = ((b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe\x00\x00", "UTF-32"),
               (b"\xfe\xff", "UTF-16"), (b"\xff\xfe", "UTF-16"))
_DECOMPRESS_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile, lzma.LZMAError)
_DECOMPRESSORS = (gzip.GzipFile, lzma.LZMAFile)


def byte_blocks(f: BinaryIO, source: str, block: int = BLOCK,
                first: int | None = None, max_line: int | None = None,
                starts: Callable[[int], str | None] | None = None) -> Iterator[bytes]:
    """Blocks of whole lines of a binary file, about ``block`` bytes at a time.

    See the module docstring for what is refused and what is dropped.

    Parameters
    ----------
    f : binary file
        The file (``read(n)`` is all that is used).
    source : str
        Its name, for messages.
    block : int
        Bytes read at a time (a longer line is read whole, up to ``max_line``).
    first : int, optional
        Bytes of the first read (default ``block``): a small first block
        lets a reader that reads ahead in another thread start sooner.
    max_line : int, optional
        The longest line kept (bytes, line end included): a longer one is
        cut to its first ``max_line`` bytes followed by a NUL byte and its
        line end (:data:`CUT`), and the rest of it is read and dropped, so
        that memory stays within ``max_line`` plus a block whatever the
        file (a line without end, a stream of zeros).  The reader says the
        line is too long when it meets one longer than ``max_line``.
    starts : callable, optional
        ``starts(byte)`` of the first byte of the file that is not blank
        (space, tab, line ends; after a byte order mark): None if it can
        start the format's text, else what it is, for a
        :class:`FileFormatError` raised at once.

    Yields
    ------
    bytes
        Whole lines; each block ends with a line end, but perhaps the last.

    Raises
    ------
    FileFormatError
        Corrupt or truncated compressed data; a UTF-16 or UTF-32 byte order
        mark; gzip data or a Parquet file under a text name; a first byte
        that ``starts`` refuses.
    OSError
        The file cannot be read.

    Examples
    --------
    >>> import io
    >>> list(byte_blocks(io.BytesIO(b"a\\nbb\\nccc"), "x.jsonl", block=4))
    [b'a\\n', b'bb\\n', b'ccc']
    >>> list(byte_blocks(io.BytesIO(b"a\\nbbbbbbbbbb\\nc\\n"), "x.jsonl", block=4, max_line=5))
    [b'a\\n', b'bbbbb\\x00\\n', b'c\\n']
    """
    lines = 0                   # line ends read so far (a compressed file's position)
    pieces = getattr(f, "read1", None) if isinstance(f, _DECOMPRESSORS) else None
    rest: list[bytes] = []      # the start of a line that goes on in the next read
    kept = 0                    # its bytes
    dropping = False            # inside a line too long: its bytes are dropped to its end
    half = max(1, max_line // 2) if max_line is not None else 0

    def read(size: int) -> bytes:
        nonlocal lines
        if pieces is None:
            return f.read(size)
        got: list[bytes] = []
        n = 0
        try:
            while n < size:                 # a decompressed piece at a time
                piece = pieces(size - n)
                if not piece:
                    break
                got.append(piece)
                n += len(piece)
        except _DECOMPRESS_ERRORS as e:
            raise _corrupt(source, e, lines + sum(g.count(b"\n") for g in got)) from None
        data = b"".join(got)
        lines += data.count(b"\n")
        return data

    # the first bytes hold any byte order mark whole (a pipe may return less
    # than asked), unless the file is shorter
    data = read(block if first is None else first)
    while data and len(data) < 4:
        more = read(block)
        if not more:
            break
        data += more
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    _check_start(data, source)
    blank = 0                   # lines before the first text, while ``starts`` waits
    while data:
        if starts is not None:
            text = data.lstrip(b" \t\r\n")
            if text:
                what = starts(text[0])
                if what is not None:
                    line = 1 + blank + data.count(b"\n", 0, len(data) - len(text))
                    raise FileFormatError(source, what, position=f"line {line:,}")
                starts = None
            else:
                blank += data.count(b"\n")
        end = data.rfind(b"\n") + 1
        if max_line is not None and (dropping or not _short_lines(data, end, kept, max_line,
                                                                  half)):
            out, rest, kept, dropping = _cut_lines(data, rest, kept, dropping, max_line)
        elif end == 0:           # no line ends here (a long line): read on
            rest.append(data)
            kept += len(data)
            out = b""
        else:
            # the lines: the start of the first (from earlier reads), then
            # this read up to its last line end (copied once; not at all when
            # they are the whole read)
            out = b"".join((*rest, memoryview(data)[:end])) if rest or end < len(data) else data
            rest = [data[end:]] if end < len(data) else []
            kept = len(data) - end
        if out:
            yield out
        data = read(block)
    if rest:
        yield b"".join(rest)


CUT = b"\x00\n"
"""The end :func:`byte_blocks` gives a line cut at ``max_line`` bytes (a NUL
byte, which no line of a hands file holds, then the line end)."""


def _short_lines(data: bytes, end: int, kept: int, max_line: int, half: int) -> bool:
    """Whether every line of ``data`` (the first after ``kept`` bytes of its
    start, the last without its end) is at most ``max_line`` bytes: the
    first and the last are measured, and between them every window of
    ``half`` bytes holds a line end (a longer line would hold such a window
    without one).  A few ``find`` calls a block."""
    first = data.find(b"\n") + 1
    if first == 0:
        return kept + len(data) <= max_line
    if kept + first > max_line or len(data) - end > max_line:
        return False
    for i in range(first, end - half, half):
        if data.find(b"\n", i, i + half) < 0:
            return False
    return True


def _cut_lines(data: bytes, rest: list[bytes], kept: int, dropping: bool,
               max_line: int) -> tuple[bytes, list[bytes], int, bool]:
    """The whole lines of ``data``, a line longer than ``max_line`` cut to its
    first ``max_line`` bytes and :data:`CUT` (the rest dropped, also in the
    reads after); ``(lines, rest, kept, dropping)`` for the next read."""
    out: list[bytes] = []
    pos, n = 0, len(data)
    while pos < n:
        nl = data.find(b"\n", pos)
        if dropping:
            if nl < 0:
                break
            pos, dropping = nl + 1, False
            continue
        stop = nl + 1 if nl >= 0 else n
        if kept + stop - pos > max_line:
            keep = max_line - kept
            out.append(b"".join((*rest, data[pos:pos + keep], CUT)))
            rest, kept, dropping = [], 0, True
            pos += keep
            continue
        if nl < 0:
            rest.append(data[pos:])
            kept += n - pos
            break
        out.append(b"".join((*rest, data[pos:stop])))
        rest, kept = [], 0
        pos = stop
    return b"".join(out), rest, kept, dropping


def _corrupt(source: str, e: BaseException, lines: int) -> FileFormatError:
    return FileFormatError(source, f"corrupt or truncated compressed data ({e})",
                           position=f"after line {lines:,}" if lines else "at its start")


def _check_start(head: bytes, source: str) -> None:
    for bom, name in _OTHER_BOMS:
        if head.startswith(bom):
            raise FileFormatError(source, f"the text is {name} (it starts with a {name} byte "
                                  "order mark); hands files are UTF-8", position="line 1")
    if head.startswith(b"\x1f\x8b"):
        raise FileFormatError(source, "the file is gzip-compressed but its name does not end "
                              "in .gz (rename it, or decompress it first)", position="line 1")
    if head.startswith(b"PAR1"):
        raise FileFormatError(source, "this is a Parquet file (name it .parquet or pass "
                              "--input-format parquet)", position="line 1")


def not_utf8(raw: bytes, source: str, line: int) -> FileFormatError | None:
    """The error of a line that is not UTF-8 text, or None if it is.

    Parameters
    ----------
    raw : bytes
        The line.
    source : str
        The file, for the message.
    line : int
        The line's number, for the message.

    Returns
    -------
    FileFormatError or None
        Naming the first byte that is not UTF-8 (not raised: the caller
        raises it where it found the line).

    Raises
    ------
    TypeError
        ``raw`` is not bytes.

    Examples
    --------
    >>> print(not_utf8(b"caf\\xe9", "h.csv", 3))
    h.csv (line 3): undecodable text: byte 0xe9 at character 4 of the line is not UTF-8; ...
    """
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return FileFormatError(source, f"undecodable text: byte {raw[e.start]:#04x} at "
                               f"character {e.start + 1} of the line is not UTF-8; hands "
                               "files are UTF-8 text", position=f"line {line:,}")
    return None
