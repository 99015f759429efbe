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
import gc
import gzip
import io
import os
import queue
import sys
import threading
from dataclasses import dataclass, field
from typing import Any

from ofc_fast.records import DEFAULT_RULES, Chunk, HandError, HandRecord, Rules

__all__ = ["FORMATS", "detect_format", "read_chunks", "read_hands", "open_writer",
           "write_hands", "score_file", "ScoreRun", "Writer", "HandError"]

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
    return isinstance(path, str) and "://" in path and not path.startswith("file://")


@contextlib.contextmanager
def _open(path, mode: str):
    """Binary file for a path, '-', a .gz path or an fsspec URL."""
    if hasattr(path, "read") or hasattr(path, "write"):
        yield path
        return
    if str(path) == "-":
        yield sys.stdin.buffer if "r" in mode else sys.stdout.buffer
        return
    path = os.fspath(path)
    if _is_url(path):
        import fsspec
        with fsspec.open(path, mode, compression="infer") as f:
            yield f
        return
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, mode) as f:
        yield f


def read_chunks(path, format: str | None = None, *, rules: Rules = DEFAULT_RULES,
                chunk_size: int | None = None, skip_bad: bool = False, source: str | None = None):
    """Yield validated chunks of hands from a file (any of :data:`FORMATS`).

    ``chunk_size`` counts hands for JSON Lines and CSV (default 20,000) and
    rows for Parquet (default 131,072; each chunk is one row group when
    written).  Without ``skip_bad`` the first bad record raises
    :class:`~ofc_fast.records.HandError` (file, line, reason); with it, bad
    hands are left out and listed in each chunk's ``errors``.
    """
    fmt = detect_format(path, format)
    src = source if source is not None else ("<stdin>" if str(path) == "-" else str(path))
    if fmt == "parquet":
        from ofc_fast.io.parquet import read_parquet
        kw: dict[str, Any] = dict(source=src, rules=rules, skip_bad=skip_bad)
        if chunk_size:
            kw["chunk_size"] = chunk_size
        if _is_url(path):
            import fsspec
            with fsspec.open(path, "rb") as f:
                yield from read_parquet(f, **kw)
        else:
            yield from read_parquet(path, **kw)
        return
    with _open(path, "rb") as f:
        if fmt == "jsonl":
            from ofc_fast.io.jsonl import read_jsonl
            yield from read_jsonl(f, source=src, rules=rules, chunk_size=chunk_size or 20_000,
                                  skip_bad=skip_bad)
        else:
            from ofc_fast.io.csv import read_csv
            text = io.TextIOWrapper(f, encoding="utf-8-sig", newline="")
            try:
                yield from read_csv(text, source=src, rules=rules,
                                    chunk_size=chunk_size or 20_000, skip_bad=skip_bad)
            finally:
                text.detach()


def read_hands(path, format: str | None = None, **kw):
    """Yield :class:`~ofc_fast.records.HandRecord`\\ s from a file (convenience; slower)."""
    for chunk in read_chunks(path, format, **kw):
        yield from chunk.records()


class Writer:
    """Context manager writing chunks to a file in one of :data:`FORMATS`."""

    def __init__(self, path, format: str | None = None, **options):
        self.format = detect_format(path, format)
        self.path = path
        self._stack = contextlib.ExitStack()
        self._w: Any
        if self.format == "parquet":
            from ofc_fast.io.parquet import ParquetWriter
            where = sys.stdout.buffer if str(path) == "-" else path
            if _is_url(path):
                import fsspec
                where = self._stack.enter_context(fsspec.open(path, "wb"))
            self._w = ParquetWriter(where, **options)
        else:
            f = self._stack.enter_context(_open(path, "wb"))
            if self.format == "jsonl":
                from ofc_fast.io.jsonl import JsonlWriter
                self._w = JsonlWriter(f, **options)
            else:
                from ofc_fast.io.csv import CsvWriter
                self._text = io.TextIOWrapper(f, encoding="utf-8", newline="")
                self._w = CsvWriter(self._text, **options)

    def write(self, chunk: Chunk):
        self._w.write(chunk)

    def close(self):
        self._w.close()
        if getattr(self, "_text", None) is not None:
            self._text.flush()
            self._text.detach()
            self._text = None
        self._stack.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


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
    """What :func:`score_file` did: counts, skipped hands, verify mismatches, summary."""
    hands: int = 0
    player_hands: int = 0
    skipped: list = field(default_factory=list)
    mismatches: list = field(default_factory=list)
    unrecorded: int = 0
    summary: Any = None


def score_file(path, out=None, *, format: str | None = None, out_format: str | None = None,
               rules: Rules = DEFAULT_RULES, skip_bad: bool = False, verify: bool = False,
               chunk_size: int | None = None, summary: bool = True, progress=None,
               on_chunk=None, threads: bool | None = None, results_only: bool = False,
               **writer_options) -> ScoreRun:
    """Read, validate, score and (with ``out``) write a file of hands, chunk by chunk.

    ``verify`` collects every player-hand whose recorded points differ from
    ours (:class:`ofc_fast.report.Mismatch`).  ``progress(chunk)`` and
    ``on_chunk(chunk)`` are called after each chunk (``chunk.position`` is
    how far the reader got).  ``threads`` (default: on for Parquet) reads the
    next chunk and writes the previous one in background threads while a
    chunk is scored; the Arrow decoder and encoder and the scoring kernels
    release the GIL, so this uses more than one core.  ``results_only``
    writes only keys and results (Parquet and CSV: no card columns).
    """
    from ofc_fast.report import Summary, find_mismatches
    run = ScoreRun(summary=Summary() if summary else None)
    fmt = detect_format(path, format)
    ofmt = None if out is None else detect_format(
        out, out_format or ("jsonl" if str(out) == "-" else None))
    if threads is None:
        threads = fmt == "parquet" or ofmt == "parquet"
    # Hands are many small acyclic containers: the cyclic GC would rescan them
    # over and over (a third of the run time); pause it for the run.
    gc_was = gc.isenabled()
    gc.disable()
    if results_only:
        writer_options["results_only"] = True
    writer: Any = open_writer(out, ofmt, **writer_options) if out is not None else None
    if writer is not None and threads:
        writer = _ThreadedWriter(writer)
    chunks = read_chunks(path, fmt, rules=rules, chunk_size=chunk_size, skip_bad=skip_bad)
    if threads:
        chunks = _prefetch(chunks)
    try:
        for chunk in chunks:
            chunk.score()
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
                writer.write(chunk)
            if on_chunk is not None:
                on_chunk(chunk)
            if progress is not None:
                progress(chunk)
    except BaseException:
        if writer is not None:
            try:
                writer.close()
            finally:
                writer = None
                # a run that fails leaves no half-written output behind
                if isinstance(out, (str, os.PathLike)) and str(out) != "-" and \
                        not _is_url(out) and os.path.isfile(out):
                    os.remove(out)
        raise
    finally:
        if gc_was:
            gc.enable()
        if hasattr(chunks, "close"):
            chunks.close()
        if writer is not None:
            writer.close()
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
        self.t = threading.Thread(target=self._run, name="ofc-fast-writer", daemon=True)
        self.t.start()

    def _run(self):
        while True:
            item = self.q.get()
            if item is _END:
                return
            if self.error is None:
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
        self.writer.close()
        if self.error is not None:
            raise self.error
