"""Reading and writing recorded hands: JSON Lines, CSV, Parquet (docs/formats.md).

One concern, the files layer's public entry points (each its docstring and
a call into the format modules), so one module of about 860 lines.

Readers stream: they yield validated :class:`~ofc_fast.records.Chunk`\\ s of
whole hands, so a file larger than memory is scored chunk by chunk::

    import ofc_fast.io as fio
    with fio.open_writer("scored.parquet") as w:
        for chunk in fio.read_chunks("hands.jsonl"):
            w.write(chunk.score())

or in one call: ``fio.score_file("hands.jsonl", "scored.parquet")``.  A frame
already in memory (pandas, pyarrow or polars) is scored with
:func:`score_frame`, which returns the same kind of frame with the results.

Paths may be local, ``-`` (stdin/stdout), end in ``.gz`` (JSON Lines, CSV),
or any fsspec URL (``s3://...``) when fsspec is installed.
"""
from __future__ import annotations

import contextlib
import errno
import gzip
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol, cast

from ofc_fast._args import choice, flag, instance, integer
from ofc_fast._args import n_threads as n_threads_arg
from ofc_fast.deprecation import UNSET, warn_renamed
from ofc_fast.errors import FileFormatError, RecordError, SameFileError, StateError
from ofc_fast.io.arrow import chunk_from_arrow, chunk_table
from ofc_fast.io.formats import FORMATS, REGISTRY, detect_format
from ofc_fast.io.frame_files import frame_from_chunks, frame_options
from ofc_fast.io.frames import score_frame
from ofc_fast.outputs import Output, OutputError, check_distinct, is_url, open_output
from ofc_fast.records import DEFAULT_RULES, Chunk, HandRecord, Rules, hand_records
from ofc_fast.threads import Behind, gc_paused, prefetch

if TYPE_CHECKING:
    from ofc_fast.report import Mismatch, Summary


def __getattr__(name: str) -> Any:
    """``HandError``: the deprecated name (0.1) of :class:`ofc_fast.errors.RecordError`."""
    if name == "HandError":
        warn_renamed("ofc_fast.io.HandError", "ofc_fast.errors.RecordError", since="0.3")
        return RecordError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


Source = str | os.PathLike[str]
"""A file to read or write: a path, ``-`` (stdin or stdout) or an fsspec URL."""

__all__ = ["FORMATS", "REGISTRY", "detect_format", "read_chunks", "read_hands", "read_frame",
           "open_writer",
           "write_hands", "score_file", "score_frame", "ScoreRun", "Writer", "chunk_from_arrow",
           "chunk_table",
           "RecordError", "FileFormatError", "SameFileError", "OutputError", "open_output",
           "check_distinct"]


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


def _stdin() -> BinaryIO:
    buf = getattr(sys.stdin, "buffer", None)
    if buf is None or not sys.stdin.readable():
        raise OSError(errno.EBADF, "standard input is closed or cannot be read", "<stdin>")
    return cast(BinaryIO, buf)


MAX_CHUNK = 2**31 - 1
"""The largest ``chunk_size`` (hands, or rows for Parquet) a reader takes."""


def read_chunks(path: Source | BinaryIO, format: str | None = None, *,
                rules: Rules = DEFAULT_RULES, chunk_size: int | None = None,
                skip_bad: bool = False, source: str | None = None,
                n_threads: int | None = 1, threads: Any = UNSET) -> Iterator[Chunk]:
    """Validated chunks of hands from a file in any of :data:`FORMATS`, streaming.

    Two kinds of error (docs/formats.md, "Validation and messages"): a bad
    record raises :class:`~ofc_fast.errors.RecordError` (file, line or row,
    hand, reason) unless ``skip_bad``, which leaves bad hands out and lists
    them in each chunk's ``errors``; a file that cannot be read as its format
    raises :class:`~ofc_fast.errors.FileFormatError` either way.

    Parameters
    ----------
    path : str, path or binary file
        The file: a path, ``-`` (stdin), a ``.gz`` path (text formats), an
        fsspec URL, or an open binary file.
    format : str, optional
        One of :data:`FORMATS` (default: from the name, :func:`detect_format`).
    rules : Rules
        The rules of records that name none (or of all, with ``override``).
    chunk_size : int, optional
        Hands a chunk for JSON Lines and CSV (default 20,000); rows for Parquet
        (default 65,536; each chunk is one row group when written).
    skip_bad : bool
        Leave bad hands out instead of raising at the first.
    source : str, optional
        The name in messages (default: the path, ``<stdin>`` for ``-``).
    n_threads : int or None
        1 reads in the caller's thread; more (None: one per CPU, when there
        is more than one) reads ahead in a background thread while the
        caller works on a chunk: for CSV the next block of lines is read and
        its rows parsed there (:func:`~ofc_fast.io.csv.read_csv`), for the
        other formats the next chunks.  The chunks are the same either way.
    threads : bool
        Deprecated: ``threads=True`` is ``n_threads=2``, False is 1.

    Returns
    -------
    iterator of Chunk
        Validated, not scored (``chunk.score()``); ``chunk.n_records`` counts
        the records read into it, good and bad.  The arguments are checked
        when called, the file read as the chunks are taken.

    Raises
    ------
    RecordError
        Without ``skip_bad``: the first bad record, in file order.
    FileFormatError
        Corrupt or truncated compression, text that is not UTF-8, an
        unbalanced CSV quote, unreadable Parquet, columns of the wrong type.
    ArgumentError
        The format cannot be told (or is not one of :data:`FORMATS`).
    OSError
        The file cannot be read.

    Examples
    --------
    >>> from ofc_fast.report import sample_path
    >>> chunks = list(read_chunks(sample_path(), chunk_size=500))
    >>> [c.n_hands for c in chunks]
    [500, 500, 479]
    """
    ahead = _background(n_threads, threads, "read_chunks")
    fmt = detect_format(path, format)
    skip_bad = flag(skip_bad, "skip_bad")
    rules = instance(rules, "rules", Rules, "a Rules (ofc_fast.records.Rules)")
    if chunk_size is not None:
        chunk_size = integer(chunk_size, "chunk_size", 1, MAX_CHUNK)
    instance(source, "source", str, "text", none=True)
    src = source if source is not None else ("<stdin>" if str(path) == "-" else str(path))
    own = REGISTRY[fmt].read_ahead
    chunks = _read_chunks(path, fmt, src, rules, chunk_size, skip_bad, ahead and own)
    return prefetch(chunks) if ahead and not own else chunks


def _background(n_threads: object, threads: object, call: str) -> bool:
    """Whether ``n_threads`` (or the deprecated ``threads``) allows a
    background thread."""
    if threads is not UNSET:
        warn_renamed(f"{call}(threads=...)", f"{call}(n_threads=...)", since="0.3", stacklevel=4)
        if threads is None:
            return n_threads_arg(None) > 1
        return flag(threads, "threads")
    return n_threads_arg(n_threads) > 1


def _read_chunks(path: Source | BinaryIO, fmt: str, src: str, rules: Rules,
                 chunk_size: int | None, skip_bad: bool, read_ahead: bool) -> Iterator[Chunk]:
    spec = REGISTRY[fmt]
    kw: dict[str, Any] = dict(source=src, rules=rules, skip_bad=skip_bad,
                              chunk_size=chunk_size or spec.chunk_size)
    if spec.read_ahead:
        kw["read_ahead"] = read_ahead
    if not spec.seekable:
        with _open_input(path) as f:
            yield from spec.read(f, **kw)
    elif is_url(path):
        import fsspec
        with fsspec.open(path, "rb") as f:
            yield from spec.read(f, **kw)
    elif str(path) == "-":
        # read from its end (Parquet's footer): a pipe is read whole first
        with _spooled(_stdin(), src, spec.magic) as f:
            yield from spec.read(f, **kw)
    else:
        yield from spec.read(path, **kw)


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


def read_hands(path: Source | BinaryIO, format: str | None = None,
               **kw: Any) -> Iterator[HandRecord]:
    """Each hand of a file as a :class:`~ofc_fast.records.HandRecord` (convenient; slower).

    Parameters
    ----------
    path : str, path or binary file
        The file (see :func:`read_chunks`).
    format : str, optional
        One of :data:`FORMATS` (default: from the name).
    **kw
        More :func:`read_chunks` arguments (``rules``, ``skip_bad`` ...).

    Yields
    ------
    HandRecord
        In file order.

    Raises
    ------
    RecordError
        A bad record (see :func:`read_chunks`).
    FileFormatError
        A file that is not its format.

    Examples
    --------
    >>> from ofc_fast.report import sample_path
    >>> hand = next(read_hands(sample_path()))
    >>> hand.variant.name, len(hand.players)
    ('pineapple', 3)
    """
    for chunk in read_chunks(path, format, **kw):
        yield from hand_records(chunk)


def read_frame(path: Source | BinaryIO, kind: str = "pandas", *,
               scored: bool = True, format: str | None = None, rules: Rules = DEFAULT_RULES,
               skip_bad: bool = False, results_only: bool = False,
               dtype_backend: str = "numpy", chunk_size: int | None = None,
               n_threads: int | None = 1) -> Any:
    """Read a file of hands (any of :data:`~ofc_fast.io.FORMATS`) into a frame,
    one row per player-hand, scored or as recorded.

    The rows are those :func:`~ofc_fast.io.score_file` writes to Parquet, in
    file order and the columns of :func:`~ofc_fast.io.chunk_table`: the keys
    (``hand_id``, ``seat``, ``n_players``, ``name``, ``variant``: the rules
    applied, a categorical), ``options``, ``in_fantasyland``, the layout as
    uint8 card ids ``c00`` .. ``c12`` (``c17`` when the file has four-row
    hands; 255 pads three-row hands), ``discards`` (a list of card ids), then
    the results (``points`` ... ``recorded_points``) when scored, or the
    recorded ``points``.  A Parquet file keeps its own columns, as read.

    Parameters
    ----------
    path : str, path or binary file
        The file (see :func:`~ofc_fast.io.read_chunks`: ``-``, ``.gz``,
        fsspec URLs).
    kind : str
        ``"pandas"``, ``"polars"`` or ``"arrow"`` (a pyarrow Table).
    scored : bool
        Validate and score the hands, adding our results (:data:`~ofc_fast.io.schema.RESULTS`);
        False: validate only, with the recorded ``points``.
    format : str, optional
        One of :data:`~ofc_fast.io.FORMATS` (default: from the name).
    rules : Rules
        The rules of records that name none (or of all, with ``override``).
    skip_bad : bool
        Leave bad hands out instead of raising at the first
        (:func:`~ofc_fast.io.score_file` lists them).
    results_only : bool
        Keys and results only, no layout (needs ``scored``).
    dtype_backend : str
        pandas only: ``"numpy"`` (numpy columns; integer and boolean columns
        that hold nulls, and ``recorded_points`` always, in pandas' nullable
        types such as ``Int64``), ``"numpy_nullable"`` (every column in a
        nullable type) or ``"pyarrow"`` (``pandas.ArrowDtype`` columns), as
        ``pandas.read_parquet`` names them.
    chunk_size : int, optional
        See :func:`~ofc_fast.io.read_chunks`.
    n_threads : int or None
        See :func:`~ofc_fast.io.read_chunks` (more than 1 reads ahead).

    Returns
    -------
    pandas.DataFrame, polars.DataFrame or pyarrow.Table
        Integer columns keep their widths (``seat`` int8, cards uint8,
        ``points`` int32 ...), whichever format the file was, so a frame
        written to Parquet and read back is the frame it was.

    Raises
    ------
    RecordError
        Without ``skip_bad``: the first bad record.
    FileFormatError
        The file cannot be read as its format.
    ArgumentError
        An unknown ``kind``, format or ``dtype_backend``; ``results_only``
        without ``scored``.
    TypeError
        A flag that is not a bool, a ``kind`` that is not text.
    ImportError
        pyarrow (or the frame library) is not installed.
    OSError
        The file cannot be read.

    Examples
    --------
    >>> from ofc_fast.report import sample_path
    >>> df = read_frame(sample_path())
    >>> len(df), df["points"].dtype, df["seat"].dtype, df["recorded_points"].dtype
    (4100, dtype('int32'), dtype('int8'), Int64Dtype())
    >>> int(df.groupby("name")["points"].sum().loc["alice"])
    1359
    >>> pl = read_frame(sample_path(), "polars", scored=False)
    >>> pl.columns[-1], pl["points"].dtype
    ('points', Int64)
    """
    kind, scored, results_only, dtype_backend = frame_options(kind, scored, results_only,
                                                              dtype_backend)
    chunks = read_chunks(path, format, rules=rules, skip_bad=skip_bad, chunk_size=chunk_size,
                         n_threads=n_threads)
    return frame_from_chunks(chunks, kind, scored=scored, results_only=results_only,
                             dtype_backend=dtype_backend, rules=rules)


class ChunkWriter(Protocol):
    """What a format's writer does: write chunks, then close.

    :class:`~ofc_fast.io.jsonl.JsonlWriter`, :class:`~ofc_fast.io.csv.CsvWriter`
    and :class:`~ofc_fast.io.parquet.ParquetWriter` are such writers.  A
    writer whose ``close`` adds to the output (a footer, the header of a file
    without hands) also has ``abort()``: give up, adding nothing
    (:meth:`Writer.abort` calls it instead of ``close``).

    Examples
    --------
    >>> import io
    >>> from ofc_fast.io.jsonl import JsonlWriter
    >>> w: ChunkWriter = JsonlWriter(io.BytesIO())
    """

    def write(self, chunk: Chunk) -> None:
        """Write the hands of a chunk.

        Parameters
        ----------
        chunk : Chunk
            Whole hands, scored or not.
        """
        ...

    def close(self) -> None:
        """Finish the output."""
        ...


class Writer:
    """Writes chunks to a file in one of :data:`FORMATS`; a context manager.

    The output appears only when the writer is closed after a successful run:
    a regular file is written beside the target and renamed over it
    (:class:`~ofc_fast.outputs.Output`); leaving the ``with`` block with an
    exception, an error of :meth:`write`, or :meth:`abort`, removes what was
    written and leaves an existing target as it was, and so does a writer
    dropped without :meth:`close` (when it is garbage-collected, with a
    :class:`ResourceWarning`, or at the latest when the interpreter exits).
    The format's options are checked when the writer is made.

    Parameters
    ----------
    path : str or path
        The output: a path (``.gz`` compresses the text formats), ``-``
        (stdout) or an fsspec URL.
    format : str, optional
        One of :data:`FORMATS` (default: from the name).
    **options
        Options of the format's writer (``results_only``; for Parquet ``width``,
        ``compression`` and pyarrow's writer options).

    Raises
    ------
    ArgumentError
        The format cannot be told (or is not one of :data:`FORMATS`), or an
        option value the format's writer cannot take.
    TypeError
        An option the format's writer does not take, or of the wrong type.
    OutputError
        The output cannot be created.

    Examples
    --------
    >>> import os, tempfile
    >>> from ofc_fast.report import sample_path
    >>> path = os.path.join(tempfile.mkdtemp(), "scored.csv")
    >>> with Writer(path) as w:
    ...     for chunk in read_chunks(sample_path()):
    ...         w.write(chunk.score())
    >>> open(path).readline().split(",")[:3]
    ['hand_id', 'seat', 'n_players']
    """

    def __init__(self, path: Source, format: str | None = None, **options: Any):
        self.format = detect_format(path, format, output=True)
        self.path = path
        self._out = Output(path)
        self._f: BinaryIO | None = None
        self._gz: gzip.GzipFile | None = None
        self._w: ChunkWriter | None = None
        try:
            spec = REGISTRY[self.format]
            where: Any
            if spec.seekable and not (self._out.stdout or is_url(path)):
                where = self._out.release()       # a path: the writer may rewrite it
            else:
                where = self._f = self._out.open("wb")
                if spec.gzip and str(path).endswith(".gz"):
                    name = self._out.final or str(path)
                    where = self._gz = gzip.GzipFile(filename=name, mode="wb", fileobj=where)
            self._w = spec.writer(where, **options)
        except BaseException:
            self.abort()
            raise

    def write(self, chunk: Chunk) -> None:
        """Write a chunk (whole hands, scored or not).

        Parameters
        ----------
        chunk : Chunk
            The hands.

        Raises
        ------
        OutputError
            The write failed (it names the output); the output is given up
            (:meth:`abort`), as after any error of the write.
        StateError
            The writer is closed or given up.
        TypeError
            ``chunk`` is not a :class:`~ofc_fast.records.Chunk`.
        """
        if self._w is None:
            raise StateError(f"{self.path}: the writer is closed")
        if not isinstance(chunk, Chunk):
            raise TypeError(f"write() takes a Chunk, got {type(chunk).__name__}")
        try:
            self._w.write(chunk)
            self._out.writeback()       # the disk works while the next chunk is scored
        except BaseException as e:
            # a chunk half written cannot be completed: nothing is left
            self.abort()
            if isinstance(e, OSError) and not isinstance(e, OutputError):
                raise OutputError(self.path, e) from None
            raise

    def close(self) -> None:
        """Finish the output and put it in place (see the class docstring)."""
        if self._out.done:
            return
        try:
            if self._w is not None:
                self._w.close()
            for f in (self._gz, self._f):
                if f is not None:
                    f.close()
            self._gz, self._f = None, None
            self._out.commit()
        except OSError as e:
            self.abort()
            if isinstance(e, OutputError):
                raise
            raise OutputError(self.path, e) from None
        except BaseException:
            self.abort()
            raise

    def abort(self) -> None:
        """Give up: nothing is left at the output (a replaced file is untouched)."""
        if self._out.done:
            return
        # the format writer's abort adds nothing (its close may: a footer, a header)
        stops = [getattr(self._w, "abort", self._w.close)] if self._w is not None else []
        stops += [f.close for f in (self._gz, self._f) if f is not None]
        for stop in stops:
            with contextlib.suppress(Exception):
                stop()
        self._w, self._gz, self._f = None, None, None
        self._out.abort()

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


def open_writer(path: Source, format: str | None = None, **options: Any) -> Writer:
    """A :class:`Writer` for ``path``.

    Parameters
    ----------
    path : str or path
        The output (see :class:`Writer`).
    format : str, optional
        One of :data:`FORMATS` (default: from the name).
    **options
        Options of the format's writer.

    Returns
    -------
    Writer

    Raises
    ------
    ArgumentError
        The format cannot be told (or is not one of :data:`FORMATS`).
    OutputError
        The output cannot be created.

    Examples
    --------
    >>> import os, tempfile
    >>> from ofc_fast.report import sample_path
    >>> path = os.path.join(tempfile.mkdtemp(), "hands.parquet")
    >>> with open_writer(path) as w:
    ...     for chunk in read_chunks(sample_path()):
    ...         w.write(chunk)
    >>> sum(c.n_hands for c in read_chunks(path))
    1479
    """
    return Writer(path, format, **options)


def write_hands(records: Iterable[HandRecord | dict[str, Any]], path: Source,
                format: str | None = None, *, rules: Rules = DEFAULT_RULES, score: bool = False,
                **options: Any) -> Chunk:
    """Write ``ofc-hand/1`` records to a file, optionally scored.

    Parameters
    ----------
    records : iterable of dict or HandRecord
        The hands.
    path : str or path
        The output (see :class:`Writer`).
    format : str, optional
        One of :data:`FORMATS` (default: from the name).
    rules : Rules
        The rules of records that name none.
    score : bool
        Add our results.
    **options
        Options of the format's writer.

    Returns
    -------
    Chunk
        The hands written.

    Raises
    ------
    RecordError
        A bad record (nothing is written).
    OutputError
        The output cannot be written.

    Examples
    --------
    >>> import os, tempfile
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> path = os.path.join(tempfile.mkdtemp(), "h.jsonl")
    >>> write_hands([{"id": 1, "players": [p, q]}], path, score=True).n_rows
    2
    >>> open(path).read().count('"points"')
    2
    """
    from ofc_fast.records import chunk_from_records
    rules = instance(rules, "rules", Rules, "a Rules (ofc_fast.records.Rules)")
    score = flag(score, "score")
    dicts = [r.to_dict() if isinstance(r, HandRecord) else r for r in records]
    chunk = chunk_from_records(dicts, rules)
    with open_writer(path, format, **options) as w:
        w.write(chunk.score() if score else chunk)
    return chunk


@dataclass
class ScoreRun:
    """What :func:`score_file` did.

    Always ``records == hands + len(skipped)``: every hand record read is
    either scored or skipped.

    Attributes
    ----------
    hands : int
        Hands scored.
    player_hands : int
        Their player-hands (rows).
    skipped : list of RecordError
        The errors of the hands skipped as bad (``skip_bad``).
    mismatches : list of Mismatch
        With ``verify``: every player-hand whose recorded points differ from
        ours.
    unrecorded : int
        With ``verify``: player-hands without recorded points.
    summary : Summary, optional
        Per-player totals (:class:`ofc_fast.report.Summary`).
    records : int
        Hand records read.
    output_closed : bool
        The reader of a stdout pipe went away (see ``closed_pipe``).

    Examples
    --------
    >>> from ofc_fast.report import sample_path
    >>> run = score_file(sample_path(), verify=True)
    >>> run.records, run.hands, len(run.skipped), run.player_hands, len(run.mismatches)
    (1479, 1479, 0, 4100, 0)
    """
    hands: int = 0
    player_hands: int = 0
    skipped: list[RecordError] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    unrecorded: int = 0
    summary: Summary | None = None
    records: int = 0
    output_closed: bool = False

    @property
    def read(self) -> int:
        """Hand records read (``records``): ``hands + len(skipped)``."""
        return self.records


CLOSED_PIPE = ("raise", "stop", "drain")


def score_file(path: Source | BinaryIO, output: Source | None = None, *,
               format: str | None = None, output_format: str | None = None,
               rules: Rules = DEFAULT_RULES, skip_bad: bool = False, verify: bool = False,
               chunk_size: int | None = None, summary: bool = True,
               progress: Callable[[Chunk], object] | None = None,
               on_chunk: Callable[[Chunk], object] | None = None, n_threads: int | None = None,
               results_only: bool = False, closed_pipe: str = "raise", out: Any = UNSET,
               out_format: Any = UNSET, threads: Any = UNSET,
               **writer_options: Any) -> ScoreRun:
    """Read, validate, score and (with ``output``) write a file of hands, chunk by chunk.

    Outputs are atomic (:class:`Writer`): a run that raises leaves nothing at
    ``output`` and an existing file there untouched.

    Parameters
    ----------
    path : str, path or binary file
        The hands (see :func:`read_chunks`).
    output : str or path, optional
        Where per player-hand results go (see :class:`Writer`); ``-`` is
        stdout (JSON Lines unless ``output_format``).
    format : str, optional
        The input format (default: from the name).
    output_format : str, optional
        The output format (default: from the name).
    rules : Rules
        The rules of records that name none (or of all, with ``override``).
    skip_bad : bool
        Score the good hands and list the bad ones in ``run.skipped``, instead
        of raising at the first.
    verify : bool
        Collect every player-hand whose recorded points differ from ours
        (:class:`ofc_fast.report.Mismatch`) in ``run.mismatches``.
    chunk_size : int, optional
        See :func:`read_chunks`.
    summary : bool
        Keep per-player totals in ``run.summary``.
    progress : callable, optional
        ``progress(chunk)`` after each chunk (``chunk.position`` is how far the
        reader got).
    on_chunk : callable, optional
        ``on_chunk(chunk)`` after each chunk, scored.
    n_threads : int or None
        1 runs in the caller's thread; more (None, the default: one per CPU,
        when there is more than one) reads ahead (CSV and Parquet, see
        :func:`read_chunks`) and writes the previous chunk in background
        threads while a chunk is scored.  The readers' scanners and decoders,
        the scoring kernels and the writers' formatters release the GIL, so
        this uses more than one core.
    results_only : bool
        Write only keys and results (Parquet and CSV: no card columns).
    closed_pipe : str
        What a broken pipe on stdout (``output="-"`` piped into ``head``) does:
        ``"raise"`` :class:`OutputError`, ``"stop"`` reading quietly, or
        ``"drain"``: read, score and verify to the end, writing nothing more
        (so ``mismatches`` is complete); both set ``run.output_closed``.
    out, out_format, threads :
        Deprecated names of ``output``, ``output_format`` and ``n_threads``
        (``threads=True``: ``n_threads=2``; False: 1; None: the default).
    **writer_options
        Options of the output format's writer.

    Returns
    -------
    ScoreRun

    Raises
    ------
    RecordError
        Without ``skip_bad``: the first bad record.
    FileFormatError
        The input cannot be read as its format.
    SameFileError
        ``output`` is the input (another name, a link, stdin/stdout
        redirected), before anything is read or written (an ``OFCError``
        and a :class:`shutil.SameFileError`).
    OutputError
        The output cannot be written.
    ArgumentError
        An unknown format or ``closed_pipe``, a bad ``n_threads`` or
        ``chunk_size``.
    TypeError
        A flag that is not a bool, ``n_threads`` that is not an integer.

    Examples
    --------
    >>> import os, tempfile
    >>> from ofc_fast.report import sample_path
    >>> output = os.path.join(tempfile.mkdtemp(), "scored.parquet")
    >>> run = score_file(sample_path(), output)
    >>> run.hands, run.summary.hands
    (1479, 1479)
    """
    from ofc_fast.report import Summary, find_mismatches
    if out is not UNSET:
        warn_renamed("score_file(out=...)", "score_file(output=...)", since="0.3")
        output = out
    if out_format is not UNSET:
        warn_renamed("score_file(out_format=...)", "score_file(output_format=...)", since="0.3")
        output_format = out_format
    background = _background(n_threads, threads, "score_file")
    closed_pipe = choice(closed_pipe, "closed_pipe", CLOSED_PIPE)
    verify, summary, results_only = (flag(verify, "verify"), flag(summary, "summary"),
                                     flag(results_only, "results_only"))
    run = ScoreRun(summary=Summary() if summary else None)
    fmt = detect_format(path, format)
    ofmt = None if output is None else detect_format(output, output_format, output=True)
    if output is not None:
        check_distinct([path], [output])
    if results_only:
        writer_options["results_only"] = True
    chunks: Iterator[Chunk] = read_chunks(path, fmt, rules=rules, chunk_size=chunk_size,
                                          skip_bad=skip_bad,
                                          n_threads=2 if background and REGISTRY[fmt].threads
                                          else 1)
    writer = open_writer(output, ofmt, **writer_options) if output is not None else None
    # the writer's formatting and file writes release the GIL: behind the scoring
    behind = Behind(writer.write) if writer is not None and background else None

    def pipe_closed(e: OutputError) -> bool:
        return e.broken_pipe and str(output) == "-" and closed_pipe != "raise"

    # Hands are many small acyclic containers: the cyclic GC would rescan them
    # over and over (a third of the run time); pause it for the run (in the
    # main thread: the collector is the whole process's).
    pause = gc_paused()
    pause.__enter__()
    try:
        for chunk in chunks:
            chunk.score()
            run.records += chunk.n_records if chunk.n_records >= 0 else \
                chunk.n_hands + len(chunk.errors)
            run.hands += chunk.n_hands
            run.player_hands += chunk.n_rows
            run.skipped += chunk.errors
            if verify:
                mism, unrec = find_mismatches(chunk)
                run.mismatches += mism
                run.unrecorded += unrec
            if run.summary is not None:
                run.summary.add(chunk)
            if writer is not None:
                try:
                    if behind is not None:
                        behind.put(chunk)
                    else:
                        writer.write(chunk)
                except OutputError as e:
                    if not pipe_closed(e):
                        raise
                    run.output_closed = True
                    _abort(writer, behind)
                    writer = behind = None
                    if closed_pipe == "stop":
                        break
            if on_chunk is not None:
                on_chunk(chunk)
            if progress is not None:
                progress(chunk)
        if writer is not None:
            w, b = writer, behind
            writer = behind = None
            try:
                if b is not None:
                    try:
                        b.close()
                    except BaseException:
                        w.abort()
                        raise
                w.close()
            except OutputError as e:
                if not pipe_closed(e):
                    raise
                run.output_closed = True
    finally:
        pause.__exit__(None, None, None)
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
        if writer is not None:      # the run failed or was interrupted
            _abort(writer, behind)
    return run


def _abort(writer: Writer, behind: Behind[Chunk] | None) -> None:
    """Give up an output (the chunks queued for it dropped)."""
    if behind is not None:
        behind.abort()
    writer.abort()
