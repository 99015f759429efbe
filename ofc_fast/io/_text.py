"""Reading text formats (JSON Lines, CSV) as blocks of lines, trusting nothing.

:func:`byte_blocks` is the one place where the bytes of a text file come in:

* a UTF-8 byte order mark at the start is dropped (any text format, also
  inside ``.gz``); a UTF-16 or UTF-32 one, gzip data in a file not named
  ``.gz`` and a Parquet file are refused with :class:`FileFormatError`;
* a corrupt or truncated compressed stream (``EOFError``, ``zlib.error``,
  ``gzip.BadGzipFile``) becomes :class:`FileFormatError` naming the file and
  the last line read, instead of escaping as a traceback.

Other :class:`OSError`\\ s (no permission, I/O error) are left as they are:
the file could not be read, which is not a fault of its format.
"""
from __future__ import annotations

import gzip
import lzma
import zlib

from ofc_fast.errors import FileFormatError

__all__ = ["byte_blocks", "BLOCK", "not_utf8"]

BLOCK = 1 << 22   # bytes of lines read at a time
_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = ((b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe\x00\x00", "UTF-32"),
               (b"\xfe\xff", "UTF-16"), (b"\xff\xfe", "UTF-16"))
_DECOMPRESS_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile, lzma.LZMAError)


def byte_blocks(f, source: str, block: int = BLOCK, lines_read=None):
    """Yield blocks of whole lines (``bytes``; each ends with a line end but
    perhaps the last) from a binary file, about ``block`` bytes at a time
    (see the module docstring).  ``lines_read()``, if given, says how many
    lines the caller has read, for the message of a corrupt compressed
    stream (else the blocks' lines are counted)."""
    count = 0
    first = True
    rest = b""
    read = f.read
    while True:
        try:
            data = read(block)
        except _DECOMPRESS_ERRORS as e:
            raise _corrupt(source, e, count if lines_read is None else lines_read()) from None
        if first and data:
            first = False
            if data.startswith(_BOM):
                data = data[len(_BOM):]
            _check_start(data, source)
        if not data:
            if rest:
                yield rest
            return
        if rest:
            data = rest + data
        cut = data.rfind(b"\n") + 1
        if cut == 0:             # one line longer than a block: read on
            rest = data
            continue
        if cut < len(data):
            data, rest = data[:cut], data[cut:]
        else:
            rest = b""
        if lines_read is None:
            count += data.count(b"\n")
        yield data


def _corrupt(source: str, e: BaseException, lines_read: int) -> FileFormatError:
    return FileFormatError(source, f"corrupt or truncated compressed data ({e})",
                           position=f"after line {lines_read:,}" if lines_read else
                           "at its start")


def _check_start(head: bytes, source: str):
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
    """A :class:`FileFormatError` if ``raw`` is not UTF-8 text, else None."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return FileFormatError(source, f"undecodable text: byte {raw[e.start]:#04x} at "
                               f"character {e.start + 1} of the line is not UTF-8; hands "
                               "files are UTF-8 text", position=f"line {line:,}")
    return None
