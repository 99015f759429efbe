"""Reading and writing recorded hands: JSON Lines, CSV, Parquet (docs/formats.md).

Readers stream: they yield validated :class:`~ofc_fast.records.Chunk`\\ s of
whole hands, so a file larger than memory is scored chunk by chunk::

    import ofc_fast.io as fio
    with fio.open_writer("scored.parquet") as w:
        for chunk in fio.read_chunks("hands.jsonl"):
            w.write(chunk.score())

or in one call: ``fio.score_file("hands.jsonl", "scored.parquet")``.

Paths may be local, ``-`` (stdin/stdout), end in ``.gz`` (JSON Lines, CSV),
or any fsspec URL (``s3://...``) when fsspec is installed.
"""
from __future__ import annotations

import contextlib
import errno
import gc
import gzip
import io
import os
import queue
import sys
import threading
from dataclasses import dataclass, field
from typing import Any

from ofc_fast.errors import FileFormatError, RecordError
from ofc_fast.io.arrow import chunk_from_arrow, chunk_table
from ofc_fast.io.frames import score_frame
from ofc_fast.outputs import Output, OutputError, check_distinct, is_url, open_output
from ofc_fast.records import DEFAULT_RULES, Chunk, HandError, HandRecord, Rules

__all__ = ["FORMATS", "detect_format", "read_chunks", "read_hands", "open_writer",
           "write_hands", "score_file", "score_frame", "ScoreRun", "Writer", "chunk_from_arrow",
           "chunk_table",
           "HandError", "RecordError", "FileFormatError", "OutputError", "open_output",
           "check_distinct"]

FORMATS = ("jsonl", "csv", "parquet")
_EXT = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv",
        ".parquet": "parquet", ".pq": "parquet"}


def detect_format(path, format: str | None = None) -> str:
    """``format`` if given, else from the file extension (``.jsonl``, ``.csv``,
    ``.parquet``; ``.gz`` is looked through)."""
    if format:
        if format not in FORMATS:
            raise ValueError(f"unknown format {format!r}; valid: {', '.join(FORMATS)}")
        return format
    name = str(path).lower()
    if name.endswith(".gz"):
        name = name[:-3]
    for ext, fmt in _EXT.items():
        if name.endswith(ext):
            return fmt
    if str(path) == "-":
        return "jsonl"
    raise ValueError(f"cannot tell the format of {str(path)!r} from its name; pass "
                     f"format= (--format): one of {', '.join(FORMATS)}")


def _is_url(path) -> bool:
    return is_url(path)


@contextlib.contextmanager
def _open_input(path):
    """Binary file to read: a path, ``-`` (stdin), a ``.gz`` path, an fsspec
    URL, or an open binary file."""
    if hasattr(path, "read"):
        yield path
        return
    if str(path) == "-":
        yield _stdin()
        return
    path = os.fspath(path)
    if is_url(path):
        import fsspec
        with fsspec.open(path, "rb", compression="infer") as f:
            yield f
        return
    if path.endswith(".gz"):
        if os.path.isfile(path) and os.path.getsize(path) == 0:
            raise FileFormatError(path, "empty file: not even a gzip header (truncated?)")
        with gzip.open(path, "rb") as f:
            yield f
        return
    with open(path, "rb") as f:
        yield f


def _stdin():
    buf = getattr(sys.stdin, "buffer", None)
    if buf is None or not sys.stdin.readable():
        raise OSError(errno.EBADF, "standard input cannot be read")
    return buf


def read_chunks(path, format: str | None = None, *, rules: Rules = DEFAULT_RULES,
                chunk_size: int | None = None, skip_bad: bool = False, source: str | None = None):
    """Yield validated chunks of hands from a file (any of :data:`FORMATS`).

    ``chunk_size`` counts hands for JSON Lines and CSV (default 20,000) and
    rows for Parquet (default 131,072; each chunk is one row group when
    written).  Two kinds of error (docs/formats.md, "Validation and
    messages"): a bad record raises :class:`~ofc_fast.errors.RecordError`
    (file, line or row, hand, reason) unless ``skip_bad``, which leaves bad
    hands out and lists them in each chunk's ``errors``; a file that cannot
    be read as its format (corrupt or truncated compression, text that is
    not UTF-8, an unbalanced CSV quote, unreadable Parquet, columns of the
    wrong type) raises :class:`~ofc_fast.errors.FileFormatError` either way.
    ``chunk.n_records`` counts the records read into each chunk, good and bad.
    """
    fmt = detect_format(path, format)
    src = source if source is not None else ("<stdin>" if str(path) == "-" else str(path))
    if fmt == "parquet":
        from ofc_fast.io.parquet import read_parquet
        kw: dict[str, Any] = dict(source=src, rules=rules, skip_bad=skip_bad)
        if chunk_size:
            kw["chunk_size"] = chunk_size
        if is_url(path):
            import fsspec
            with fsspec.open(path, "rb") as f:
                yield from read_parquet(f, **kw)
        elif str(path) == "-":
            # Parquet is read from its end (the footer): a pipe is read whole first
            yield from read_parquet(io.BytesIO(_stdin().read()), **kw)
        else:
            yield from read_parquet(path, **kw)
        return
    with _open_input(path) as f:
        if fmt == "jsonl":
            from ofc_fast.io.jsonl import read_jsonl
            yield from read_jsonl(f, source=src, rules=rules, chunk_size=chunk_size or 20_000,
                                  skip_bad=skip_bad)
        else:
            from ofc_fast.io.csv import read_csv
            yield from read_csv(f, source=src, rules=rules, chunk_size=chunk_size or 20_000,
                                skip_bad=skip_bad)


def read_hands(path, format: str | None = None, **kw):
    """Yield :class:`~ofc_fast.records.HandRecord`\\ s from a file (convenience; slower)."""
    for chunk in read_chunks(path, format, **kw):
        yield from chunk.records()


class Writer:
    """Context manager writing chunks to a file in one of :data:`FORMATS`.

    The output appears only when the writer is closed after a successful
    run: a regular file is written beside the target and renamed over it
    (:class:`~ofc_fast.outputs.Output`); leaving the ``with`` block with
    an exception, or :meth:`abort`, removes what was written and leaves an
    existing target as it was.  Write errors raise :class:`OutputError`,
    which names the output.
    """

    def __init__(self, path, format: str | None = None, **options):
        self.format = detect_format(path, format)
        self.path = path
        self._out = Output(path)
        self._f = self._gz = self._text = None
        self._w: Any = None
        try:
            if self.format == "parquet":
                from ofc_fast.io.parquet import ParquetWriter
                if self._out.stdout or is_url(path):
                    where = self._f = self._out.open("wb")
                else:
                    where = self._out.release()
                self._w = ParquetWriter(where, **options)
            else:
                f = self._f = self._out.open("wb")
                if str(path).endswith(".gz"):
                    name = self._out.final or str(path)
                    f = self._gz = gzip.GzipFile(filename=name, mode="wb", fileobj=f)
                if self.format == "jsonl":
                    from ofc_fast.io.jsonl import JsonlWriter
                    self._w = JsonlWriter(f, **options)
                else:
                    from ofc_fast.io.csv import CsvWriter
                    self._text = io.TextIOWrapper(f, encoding="utf-8", newline="")
                    self._w = CsvWriter(self._text, **options)
        except BaseException:
            self.abort()
            raise

    def write(self, chunk: Chunk):
        try:
            self._w.write(chunk)
        except OutputError:
            raise
        except OSError as e:
            raise OutputError(self.path, e) from None

    def close(self):
        """Finish the output and put it in place (see the class docstring)."""
        if self._out.done:
            return
        try:
            self._w.close()
            if self._text is not None:
                self._text.flush()
                self._text.detach()
                self._text = None
            for f in (self._gz, self._f):
                if f is not None:
                    f.close()
            self._gz = self._f = None
            self._out.commit()
        except OSError as e:
            self.abort()
            if isinstance(e, OutputError):
                raise
            raise OutputError(self.path, e) from None
        except BaseException:
            self.abort()
            raise

    def abort(self):
        """Give up: nothing is left at the output (a replaced file is untouched)."""
        if self._out.done:
            return
        for obj in (self._w, self._text, self._gz, self._f):
            if obj is not None:
                with contextlib.suppress(Exception):
                    obj.close()
        self._w = self._text = self._gz = self._f = None
        self._out.abort()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is None:
            self.close()
        else:
            self.abort()


def open_writer(path, format: str | None = None, **options) -> Writer:
    """A :class:`Writer` for ``path`` (format from the extension unless given)."""
    return Writer(path, format, **options)


def write_hands(records, path, format: str | None = None, *, rules: Rules = DEFAULT_RULES,
                score: bool = False, **options):
    """Write ``ofc-hand/1`` dicts or :class:`HandRecord`\\ s to a file (optionally scored)."""
    from ofc_fast.records import chunk_from_records
    dicts = [r.to_dict() if isinstance(r, HandRecord) else r for r in records]
    chunk = chunk_from_records(dicts, rules)
    with open_writer(path, format, **options) as w:
        w.write(chunk.score() if score else chunk)
    return chunk


@dataclass
class ScoreRun:
    """What :func:`score_file` did.

    ``records`` hand records were read; ``hands`` of them were scored
    (``player_hands`` rows) and ``len(skipped)`` skipped as bad, always
    ``records == hands + len(skipped)``.  ``mismatches`` and ``unrecorded``
    come from ``verify``; ``output_closed`` says that the reader of a stdout
    pipe went away (see ``closed_pipe``)."""
    hands: int = 0
    player_hands: int = 0
    skipped: list = field(default_factory=list)
    mismatches: list = field(default_factory=list)
    unrecorded: int = 0
    summary: Any = None
    records: int = 0
    output_closed: bool = False

    @property
    def read(self) -> int:
        """Hand records read (``records``): ``hands + len(skipped)``."""
        return self.records


CLOSED_PIPE = ("raise", "stop", "drain")


def score_file(path, out=None, *, format: str | None = None, out_format: str | None = None,
               rules: Rules = DEFAULT_RULES, skip_bad: bool = False, verify: bool = False,
               chunk_size: int | None = None, summary: bool = True, progress=None,
               on_chunk=None, threads: bool | None = None, results_only: bool = False,
               closed_pipe: str = "raise", **writer_options) -> ScoreRun:
    """Read, validate, score and (with ``out``) write a file of hands, chunk by chunk.

    ``verify`` collects every player-hand whose recorded points differ from
    ours (:class:`ofc_fast.report.Mismatch`).  ``progress(chunk)`` and
    ``on_chunk(chunk)`` are called after each chunk (``chunk.position`` is
    how far the reader got).  ``threads`` (default: on for Parquet) reads the
    next chunk and writes the previous one in background threads while a
    chunk is scored; the Arrow decoder and encoder and the scoring kernels
    release the GIL, so this uses more than one core.  ``results_only``
    writes only keys and results (Parquet and CSV: no card columns).

    Outputs are atomic (:class:`Writer`): a run that raises leaves nothing
    at ``out`` and an existing file there untouched.  An ``out`` that is the
    input file (another name, a link, stdin/stdout redirected) is refused
    with :class:`shutil.SameFileError` before anything is read or written.
    ``closed_pipe`` says what a broken pipe on stdout (``out="-"``, e.g.
    piped into ``head``) does: ``"raise"`` :class:`OutputError`, ``"stop"``
    reading quietly, or ``"drain"``: read, score and verify to the end
    writing nothing more (so ``mismatches`` is complete); both set
    ``run.output_closed``.
    """
    from ofc_fast.report import Summary, find_mismatches
    if closed_pipe not in CLOSED_PIPE:
        raise ValueError(f"closed_pipe must be one of {CLOSED_PIPE}, got {closed_pipe!r}")
    run = ScoreRun(summary=Summary() if summary else None)
    fmt = detect_format(path, format)
    ofmt = None if out is None else detect_format(
        out, out_format or ("jsonl" if str(out) == "-" else None))
    if out is not None:
        check_distinct([path], [out])
    if threads is None:
        threads = fmt == "parquet" or ofmt == "parquet"
    if results_only:
        writer_options["results_only"] = True
    writer: Any = open_writer(out, ofmt, **writer_options) if out is not None else None
    if writer is not None and threads:
        writer = _ThreadedWriter(writer)

    def pipe_closed(e: OutputError) -> bool:
        return e.broken_pipe and str(out) == "-" and closed_pipe != "raise"

    # Hands are many small acyclic containers: the cyclic GC would rescan them
    # over and over (a third of the run time); pause it for the run.
    gc_was = gc.isenabled()
    gc.disable()
    chunks = read_chunks(path, fmt, rules=rules, chunk_size=chunk_size, skip_bad=skip_bad)
    if threads:
        chunks = _prefetch(chunks)
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
                    writer.write(chunk)
                except OutputError as e:
                    if not pipe_closed(e):
                        raise
                    run.output_closed = True
                    writer.abort()
                    writer = None
                    if closed_pipe == "stop":
                        break
            if on_chunk is not None:
                on_chunk(chunk)
            if progress is not None:
                progress(chunk)
        if writer is not None:
            w, writer = writer, None
            try:
                w.close()
            except OutputError as e:
                if not pipe_closed(e):
                    raise
                run.output_closed = True
    finally:
        if gc_was:
            gc.enable()
        if hasattr(chunks, "close"):
            chunks.close()
        if writer is not None:      # the run failed or was interrupted
            writer.abort()
    return run


_END = object()


class _Failed:
    def __init__(self, exc):
        self.exc = exc


def _prefetch(gen, depth: int = 2):
    """Run a generator in a background thread, ``depth`` items ahead."""
    q: queue.Queue = queue.Queue(depth)
    stop = threading.Event()

    def run():
        try:
            for item in gen:
                while not stop.is_set():
                    try:
                        q.put(item, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            q.put(_END)
        except BaseException as e:  # noqa: BLE001 - handed to the consumer
            q.put(_Failed(e))

    t = threading.Thread(target=run, name="ofc-fast-reader", daemon=True)
    t.start()
    try:
        while True:
            item = q.get()
            if item is _END:
                return
            if isinstance(item, _Failed):
                raise item.exc
            yield item
    finally:
        stop.set()
        t.join(timeout=5)


class _ThreadedWriter:
    """A writer whose writes happen in a background thread (in order)."""

    def __init__(self, writer, depth: int = 2):
        self.writer = writer
        self.q: queue.Queue = queue.Queue(depth)
        self.error = None
        self.aborted = False
        self.t = threading.Thread(target=self._run, name="ofc-fast-writer", daemon=True)
        self.t.start()

    def _run(self):
        while True:
            item = self.q.get()
            if item is _END:
                return
            if self.error is None and not self.aborted:
                try:
                    self.writer.write(item)
                except BaseException as e:  # noqa: BLE001 - raised in the caller
                    self.error = e

    def write(self, chunk):
        if self.error is not None:
            raise self.error
        self.q.put(chunk)

    def close(self):
        self.q.put(_END)
        self.t.join()
        if self.error is not None:
            self.writer.abort()
            raise self.error
        self.writer.close()

    def abort(self):
        self.aborted = True
        if self.t.is_alive():
            self.q.put(_END)
            self.t.join()
        self.writer.abort()
