"""Opening what the readers read: a path, ``-`` (stdin), a ``.gz`` path, an
fsspec URL or an open binary file; a seekable copy of a pipe for a format
read from its end (Parquet from stdin)."""
from __future__ import annotations

import contextlib
import errno
import gzip
import os
import sys
from collections.abc import Iterator
from typing import BinaryIO, cast

from ofc_fast.errors import FileFormatError, shorten
from ofc_fast.outputs import is_url

Source = str | os.PathLike[str]
"""A file to read or write: a path, ``-`` (stdin or stdout) or an fsspec URL."""


@contextlib.contextmanager
def _open_input(path: Source | BinaryIO) -> Iterator[BinaryIO]:
    """Binary file to read: a path, ``-`` (stdin), a ``.gz`` path, an fsspec
    URL, or an open binary file."""
    if not isinstance(path, (str, os.PathLike)):      # an open binary file
        yield path
        return
    if str(path) == "-":
        yield _stdin()
        return
    name = os.fspath(path)
    if is_url(name):
        import fsspec
        with fsspec.open(name, "rb", compression="infer") as f:
            yield cast(BinaryIO, f)
        return
    if name.endswith(".gz"):
        if os.path.isfile(name) and os.path.getsize(name) == 0:
            raise FileFormatError(name, "empty file: not even a gzip header (truncated?)")
        with gzip.open(name, "rb") as gz:
            yield cast(BinaryIO, gz)
        return
    with open(name, "rb") as f:
        yield f


def check_input(path: object) -> None:
    """A TypeError for what is no input of the readers: not a path, ``-``, an
    fsspec URL or an open binary file (an object with ``read``).

    Parameters
    ----------
    path : object
        What a reader was given.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        ``path`` is none of those.

    Examples
    --------
    >>> check_input("hands.jsonl")
    >>> check_input([["h1"], ["h2", "h3"]])
    Traceback (most recent call last):
    ...
    TypeError: path must be a path, '-', an fsspec URL or an open binary file, got list ...
    """
    if isinstance(path, (str, os.PathLike)) or callable(getattr(path, "read", None)):
        return
    raise TypeError(f"path must be a path, '-', an fsspec URL or an open binary file, got "
                    f"{type(path).__name__} {shorten(path)}")


def _stdin() -> BinaryIO:
    buf = getattr(sys.stdin, "buffer", None)
    if buf is None or not sys.stdin.readable():
        raise OSError(errno.EBADF, "standard input is closed or cannot be read", "<stdin>")
    return cast(BinaryIO, buf)


SPOOL = 1 << 26
"""Bytes of a pipe kept in memory when a format needs the whole file (Parquet
from stdin); the rest goes to a temporary file."""


@contextlib.contextmanager
def _spooled(f: BinaryIO, source: str, magic: bytes) -> Iterator[BinaryIO]:
    """A seekable copy of a stream: in memory up to :data:`SPOOL` bytes, then
    in a temporary file; one that does not start with ``magic`` is refused
    at its first bytes (a stream of zeros is not read to its end)."""
    import shutil
    import tempfile
    head = f.read(len(magic)) if magic else b""
    while len(head) < len(magic):
        more = f.read(len(magic) - len(head))
        if not more:
            break
        head += more
    if head != magic:
        raise FileFormatError(source, f"not a Parquet file: it starts with {head!r}, not "
                              f"{magic!r}", position="byte 0")
    with tempfile.SpooledTemporaryFile(max_size=SPOOL) as copy:
        copy.write(head)
        shutil.copyfileobj(f, copy, 1 << 20)
        copy.seek(0)
        yield cast(BinaryIO, copy)
