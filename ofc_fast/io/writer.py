"""Writing chunks of hands to a file in any format, whole or not at all
(:class:`Writer`, :func:`open_writer`), and records to a file in one call
(:func:`write_hands`)."""
from __future__ import annotations

import contextlib
import gzip
import os
from collections.abc import Iterable
from typing import Any, BinaryIO, Protocol

from ofc_fast._args import flag, instance
from ofc_fast.errors import StateError, shorten
from ofc_fast.io.formats import REGISTRY, detect_format
from ofc_fast.io.inputs import Source
from ofc_fast.outputs import Output, OutputError, is_url
from ofc_fast.records import DEFAULT_RULES, Chunk, HandRecord, Rules

__all__ = ["ChunkWriter", "Writer", "open_writer", "write_hands"]


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
    >>> from ofc_fast.io import read_chunks
    >>> from ofc_fast.report import sample_path
    >>> path = os.path.join(tempfile.mkdtemp(), "scored.csv")
    >>> with Writer(path) as w:
    ...     for chunk in read_chunks(sample_path()):
    ...         w.write(chunk.score())
    >>> open(path).readline().split(",")[:3]
    ['hand_id', 'seat', 'n_players']
    """

    def __init__(self, path: Source, format: str | None = None, **options: Any):
        check_output(path)
        self.format = detect_format(path, format, output=True)
        self.path = path
        _known_options(self.format, options)
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
        if self._w is None or self._out.done:
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


def check_output(path: object) -> None:
    """A TypeError for what is no output: not a path, ``-`` or an fsspec URL."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"the output must be a path, '-' or an fsspec URL, got "
                        f"{type(path).__name__} {shorten(path)}")


def _known_options(fmt: str, options: dict[str, Any]) -> None:
    """A TypeError naming the options the format's writer does not take
    (before the output is created); a writer that takes any (Parquet:
    pyarrow's options) checks them itself."""
    import inspect
    params = inspect.signature(REGISTRY[fmt].writer).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return
    takes = [p.name for p in params if p.kind is p.KEYWORD_ONLY or
             (p.kind is p.POSITIONAL_OR_KEYWORD and p.default is not p.empty)]
    unknown = [k for k in options if k not in takes]
    if unknown:
        raise TypeError(f"the {fmt} writer takes no option {', '.join(map(repr, unknown))} "
                        f"(its options: {', '.join(takes) or 'none'})")


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
    >>> from ofc_fast.io import read_chunks
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
