"""The file formats of recorded hands, one registry entry each: its name,
extensions, reader, writer and what it can do.

Everything that lists formats derives from :data:`REGISTRY`:
:data:`ofc_fast.io.FORMATS`, :func:`detect_format`, the command line's
``--format``/``--input-format`` choices and help, and the table of
docs/formats.md (:func:`markdown_table`; a test checks both).  Adding a
format is a module with its reader and writer (as :mod:`ofc_fast.io.csv`),
one :class:`Format` entry here, and its docs page (``docs/formats/*.md``).

>>> FORMATS
('jsonl', 'csv', 'parquet')
>>> REGISTRY["csv"].extensions, REGISTRY["parquet"].gzip
(('.csv',), False)
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, cast

from ofc_fast._args import choice, flag
from ofc_fast.errors import ArgumentError, shorten
from ofc_fast.io import csv as _csv
from ofc_fast.io import jsonl as _jsonl
from ofc_fast.io import parquet as _parquet
from ofc_fast.records import Chunk

__all__ = ["Format", "REGISTRY", "FORMATS", "PIPE_FORMAT", "detect_format", "markdown_table",
           "extensions_text"]


@dataclass(frozen=True)
class Format:
    """One file format of recorded hands.

    Attributes
    ----------
    name : str
        Its name (``format=``, ``--format``).
    title : str
        What it is, in a few words (help and docs).
    extensions : tuple of str
        The file name endings that say it (lower case, with the dot).
    module : module
        The format's module.
    reader_name, writer_name : str
        Its reader and writer there (looked up when used, so that a
        patched module is used): :attr:`read` and :attr:`writer`.
    chunk_size : int
        The reader's default chunk size, in ``chunk_unit``.
    chunk_unit : str
        ``"hands"`` or ``"rows"``.
    gzip : bool
        A ``.gz`` file is read and written through gzip.
    seekable : bool
        The reader needs random access (a pipe is read whole first) and the
        writer writes to a path when it has one (Parquet's footer; a file
        may be rewritten once).
    read_ahead : bool
        The reader reads ahead in a second thread itself (``read_ahead=``;
        other readers are read ahead by :func:`ofc_fast.threads.prefetch`).
    threads : bool
        Reading releases the GIL enough that :func:`ofc_fast.io.score_file`
        reads ahead by default (when it may use more than one thread).
    docs : str
        Its page in the docs.
    magic : bytes
        What a file of the format starts with, if something always is (a
        stream that does not is refused at its first bytes).

    Examples
    --------
    >>> REGISTRY["jsonl"].title
    'JSON Lines (ofc-hand/1), one hand per line'
    """
    name: str
    title: str
    extensions: tuple[str, ...]
    module: ModuleType
    reader_name: str
    writer_name: str
    chunk_size: int
    chunk_unit: str
    gzip: bool
    seekable: bool
    read_ahead: bool
    threads: bool
    docs: str
    magic: bytes = b""

    @property
    def read(self) -> Callable[..., Iterator[Chunk]]:
        """``read(f, *, source, rules, chunk_size, skip_bad[, read_ahead])``:
        validated chunks from a binary file (a path too when ``seekable``)."""
        return cast("Callable[..., Iterator[Chunk]]", getattr(self.module, self.reader_name))

    @property
    def writer(self) -> Callable[..., Any]:
        """``writer(f, **options)``: an object with ``write(chunk)`` and
        ``close()`` (:class:`ofc_fast.io.ChunkWriter`) writing to a binary file
        (a path too when ``seekable``)."""
        return cast("Callable[..., Any]", getattr(self.module, self.writer_name))


REGISTRY: dict[str, Format] = {f.name: f for f in (
    Format("jsonl", "JSON Lines (ofc-hand/1), one hand per line", (".jsonl", ".ndjson", ".json"),
           _jsonl, "read_jsonl", "JsonlWriter", chunk_size=20_000, chunk_unit="hands",
           gzip=True, seekable=False, read_ahead=False, threads=False, docs="formats/jsonl.md"),
    Format("csv", "CSV, one row per player-hand", (".csv",), _csv, "read_csv", "CsvWriter",
           chunk_size=20_000, chunk_unit="hands", gzip=True, seekable=False, read_ahead=True,
           threads=True, docs="formats/csv.md"),
    Format("parquet", "Parquet, one row per player-hand, uint8 card columns",
           (".parquet", ".pq"), _parquet, "read_parquet", "ParquetWriter",
           chunk_size=_parquet.CHUNK_SIZE,
           chunk_unit="rows", gzip=False, seekable=True, read_ahead=False, threads=True,
           docs="formats/parquet.md", magic=b"PAR1"),
)}
"""Every format, by name, in the order they are listed."""

FORMATS = tuple(REGISTRY)
"""The format names."""

PIPE_FORMAT = "jsonl"
"""The format of ``-`` (stdin, stdout) unless one is given."""


def detect_format(path: object, format: str | None = None, *, output: bool = False) -> str:
    """The format of a file: ``format`` if given, else from its name.

    Parameters
    ----------
    path : str or path
        The file; its extension says the format (:func:`extensions_text`;
        ``.gz`` is looked through; ``-`` is :data:`PIPE_FORMAT`).
    format : str, optional
        One of :data:`FORMATS`, whatever the name.
    output : bool
        The file is an output: a message names ``output_format=`` and the
        command line's ``--format`` (else ``format=`` and
        ``--input-format``).

    Returns
    -------
    str
        A name of :data:`FORMATS`.

    Raises
    ------
    ArgumentError
        An unknown ``format``, or a name that does not tell.
    TypeError
        ``format`` is not text.

    Examples
    --------
    >>> detect_format("hands.csv.gz"), detect_format("x.data", "parquet")
    ('csv', 'parquet')
    >>> try:
    ...     detect_format("scored.txt", output=True)
    ... except ValueError as e:
    ...     print(str(e).split("; ")[1])
    pass output_format= (--format): one of jsonl, csv, parquet
    """
    output = flag(output, "output")
    argument, option = ("output_format", "--format") if output else ("format", "--input-format")
    if format is not None:
        return choice(format, argument, REGISTRY)
    name = str(path).lower()
    if name.endswith(".gz"):
        name = name[:-3]
    for fmt in REGISTRY.values():
        if name.endswith(fmt.extensions):
            return fmt.name
    if str(path) == "-":
        return PIPE_FORMAT
    raise ArgumentError(f"cannot tell the format of {shorten(str(path))} from its name; pass "
                        f"{argument}= ({option}): one of {', '.join(REGISTRY)}")


def extensions_text() -> str:
    """The extensions of each format, for help texts.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        Never for the registry's entries (an extension that is not text).

    Examples
    --------
    >>> extensions_text()
    '.jsonl/.ndjson/.json, .csv, .parquet/.pq'
    """
    return ", ".join("/".join(f.extensions) for f in REGISTRY.values())


def markdown_table() -> str:
    """The formats as the Markdown table of docs/formats.md.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        Never for the registry's entries (a field of the wrong type).

    Examples
    --------
    >>> print(markdown_table().splitlines()[3].split(" | ")[2:])
    ['`.csv`', 'yes', 'streamed', '20,000 hands |']
    """
    lines = ["| format | what | extensions | `.gz` | stdin | chunk |", "|---|---|---|---|---|---|"]
    for f in REGISTRY.values():
        lines.append(f"| [`{f.name}`]({f.docs}) | {f.title} | "
                     f"{' '.join(f'`{e}`' for e in f.extensions)} | "
                     f"{'yes' if f.gzip else 'no'} | "
                     f"{'read whole first' if f.seekable else 'streamed'} | "
                     f"{f.chunk_size:,} {f.chunk_unit} |")
    return "\n".join(lines)
