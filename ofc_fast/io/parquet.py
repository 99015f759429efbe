"""Parquet files of recorded hands: one row per player-hand with uint8 card
columns, read and written through Arrow tables (:mod:`ofc_fast.io.arrow`;
docs/formats.md, "Parquet / Arrow").

Reading goes from the file's Arrow buffers to the kernels without a copy
(:func:`~ofc_fast.io.arrow.chunk_from_arrow`), a record batch at a time; a
hand split across batches is carried into the next chunk.  Writing keeps
every source column as the Arrow array read and adds our results
(:func:`~ofc_fast.io.arrow.chunk_table`); the column encodings are chosen
for speed (:data:`DELTA`).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ofc_fast._args import flag, integer
from ofc_fast.errors import ArgumentError, FileFormatError, RecordError, StateError, shorten
from ofc_fast.io.arrow import chunk_from_arrow
from ofc_fast.io.arrow_columns import check_schema
from ofc_fast.io.schema import RESULT_COLUMNS, card_columns
from ofc_fast.io.tables import (
    chunk_table,
    conform,
    require_pyarrow,
    wide_cards,
    wider_ids,
)
from ofc_fast.records import DEFAULT_RULES, Chunk, Rules, chunk_from_records, clip

__all__ = ["read_parquet", "chunk_from_arrow", "chunk_table", "ParquetWriter", "card_columns",
           "RESULT_COLUMNS", "CHUNK_SIZE", "DELTA", "STATISTICS"]

CHUNK_SIZE = 1 << 16
"""Default player-hands (rows) per chunk, and so per row group written.  Small
enough that reading, scoring and writing overlap well: ``score_file`` waits
alone for the first chunk's read, and its writer alone for the last chunk's
write, so each costs a chunk's time (65,536 rows instead of 131,072: Parquet
to JSON Lines in 1.3 instead of 1.5 times the time of scoring alone), and
that a chunk's buffers are reused rather than fresh memory each time; large
enough that the per-chunk costs are a few percent (reading alone is as fast
as with 131,072), near the row groups of the CSV and JSON Lines readers'
20,000 hands (60,000 rows of three players)."""


def read_parquet(where: Any, *, source: str | None = None, rules: Rules = DEFAULT_RULES,
                 chunk_size: int = CHUNK_SIZE, skip_bad: bool = False,
                 filesystem: Any = None) -> Iterator[Chunk]:
    """Validated chunks of about ``chunk_size`` player-hands from a Parquet file.

    The file is read a record batch at a time, each batch straight from its
    Arrow buffers (:func:`~ofc_fast.io.arrow.chunk_from_arrow`); a hand split
    across batches is carried into the next chunk.

    Parameters
    ----------
    where : str, path or binary file
        The file; with ``filesystem``, a path on that filesystem.
    source : str, optional
        Its name, for messages (default: its name or path).
    rules : Rules
        The rules of hands that name none (or of all, with ``override``).
    chunk_size : int
        Rows a batch (and so about a chunk).
    skip_bad : bool
        Leave bad hands out (listed in each chunk's ``errors``) instead of
        raising at the first.
    filesystem : fsspec or pyarrow filesystem, optional
        Where ``where`` is.

    Yields
    ------
    Chunk
        Validated, in file order; ``chunk.position`` is the rows read so far.

    Raises
    ------
    FileFormatError
        Not a Parquet file, cut short or corrupt; a column missing, twice or of
        the wrong type.
    RecordError
        Without ``skip_bad``: the first bad hand (its row, hand id and reason).
    OSError
        The file cannot be opened.

    Examples
    --------
    >>> import os, tempfile
    >>> import ofc_fast.io as fio
    >>> from ofc_fast.report import sample_path
    >>> path = os.path.join(tempfile.mkdtemp(), "hands.parquet")
    >>> _ = fio.score_file(sample_path(), path, summary=False)
    >>> sum(c.n_hands for c in read_parquet(path, chunk_size=1000))
    1479
    """
    pa, pc, pq = require_pyarrow("parquet")
    if filesystem is not None:
        where = filesystem.open(where, "rb")
    source = source if source is not None else str(getattr(where, "name", where))
    try:
        pf = pq.ParquetFile(where)
        check_schema(pf.schema_arrow, source)
    except Exception as e:  # noqa: BLE001 - sorted by _unreadable
        raise _unreadable(e, source, "at its footer") from None
    carry = None
    offset = 0
    batches = pf.iter_batches(batch_size=chunk_size)
    while True:
        try:
            batch = next(batches, None)
        except Exception as e:  # noqa: BLE001 - sorted by _unreadable
            raise _unreadable(e, source, f"after row {offset + (carry.num_rows if carry else 0):,}"
                              ) from None
        if batch is None:
            break
        table = batch if carry is None else pa.concat_tables(
            [carry, pa.Table.from_batches([batch])]).combine_chunks()
        chunk, carry = chunk_from_arrow(table, source=source, rules=rules, row_offset=offset,
                                        final=False, skip_bad=skip_bad)
        offset += table.num_rows - (0 if carry is None else carry.num_rows)
        chunk.position = offset
        yield chunk
    if carry is not None and carry.num_rows:
        chunk, _ = chunk_from_arrow(carry, source=source, rules=rules, row_offset=offset,
                                    final=True, skip_bad=skip_bad)
        chunk.position = offset + carry.num_rows
        yield chunk


def _unreadable(e: BaseException, source: str, position: str) -> BaseException:
    """A :class:`FileFormatError` for what pyarrow says of a file it cannot
    read (not Parquet, truncated, corrupt pages); a real I/O error (one with
    an errno: no such file, no permission) and our own errors stay as they are."""
    pa, pc, pq = require_pyarrow("parquet")
    if isinstance(e, (FileFormatError, RecordError)) or (isinstance(e, OSError) and e.errno):
        return e
    if isinstance(e, (pa.ArrowException, OSError, ValueError, EOFError)):
        return FileFormatError(source, f"not a readable Parquet file: {clip(e, 200)}",
                               position=position)
    return e



STATISTICS = ["hand_id", "seat", "n_players", "points", "royalties", "foul", "fantasyland"]

DELTA = ("hand_id", "points", *card_columns(18), "discards")
"""Integer columns written ``DELTA_BINARY_PACKED`` (when the writer options
name no encodings): ids that count up, our points, the card ids and the
discards.  Other integer columns (seat, royalties ...) are written PLAIN and
left to the compression; text columns get a dictionary.  Writing is the
slowest stage of ``ofc-fast score`` on Parquet, and pyarrow's default, a
dictionary for every column, hashes every value: with these encodings a
chunk is written in about 30% less time (benchmarks/bench_files.py: ~135
instead of ~190 ns per player-hand), the file is about 6% larger, and every
Parquet reader knows them (format 2.0).  Compression stays snappy: turning
it off saves nothing measurable and doubles the file."""


def _encodings(schema: Any, options: dict[str, Any]) -> dict[str, Any]:
    """``use_dictionary`` and ``column_encoding`` for a file schema (see
    :data:`DELTA`; a text ``hand_id`` is PLAIN too: nearly every value differs,
    so a dictionary would be tried and given up).  Empty if the caller chose
    encodings."""
    if {"use_dictionary", "column_encoding", "use_byte_stream_split"} & set(options):
        return {}
    pa, pc, pq = require_pyarrow("parquet")
    # the Parquet leaf paths of the columns (``discards.list.element`` ...)
    try:
        buf = pa.BufferOutputStream()
        pq.ParquetWriter(buf, schema, use_compliant_nested_type=options.get(
            "use_compliant_nested_type", True)).close()
        leaves = pq.read_metadata(pa.BufferReader(buf.getvalue())).schema
    except Exception:  # noqa: BLE001 - the real writer will say what is wrong
        return {}
    delta, plain = {}, set()
    for i in range(len(leaves)):
        col = leaves.column(i)
        top = col.path.split(".")[0]
        if col.physical_type in ("INT32", "INT64"):
            if top in DELTA:
                delta[col.path] = "DELTA_BINARY_PACKED"
            else:
                plain.add(col.path)
        elif top == "hand_id" and col.physical_type == "BYTE_ARRAY":
            plain.add(col.path)
    if not delta and not plain:
        return {}
    return {"use_dictionary": [leaves.column(i).path for i in range(len(leaves))
                               if leaves.column(i).path not in delta and
                               leaves.column(i).path not in plain],
            "column_encoding": delta or None}


class ParquetWriter:
    """Write chunks to one Parquet file; each chunk (whole hands) is one row group.

    Column statistics are kept for the key and result columns
    (:data:`STATISTICS`), not for the card columns (a fifth of the write
    time).  Integer ids, our points, cards and discards are delta-packed, other
    integers plain, text dictionary-encoded (:data:`DELTA`: 30% less write time
    than pyarrow's dictionary everywhere), then compressed with snappy.

    Parameters
    ----------
    where : str, path or binary file
        The file (a path may be rewritten once, see ``width``).
    width : int, optional
        Card columns: 13 or 18.  Default 13 until four-row hands come; then the
        file is rewritten with 18 (a stream cannot be: pass ``width=18``).
    compression : str
        The Parquet compression (``"snappy"``, ``"zstd"``, ``"none"`` ...).
    filesystem : pyarrow or fsspec filesystem, optional
        Where ``where`` is.
    results_only : bool
        Keys and results only, no card columns (not a hands file).
    **pq_options
        Any other ``pyarrow.parquet.ParquetWriter`` option; ``use_dictionary``
        or ``column_encoding`` replaces these encodings
        (``use_dictionary=True``: pyarrow's default).

    Raises
    ------
    TypeError
        An option pyarrow's writer does not take, or of the wrong type.
    ArgumentError
        An option value pyarrow's writer refuses (an unknown compression),
        or a ``width`` other than 13 or 18: all checked here, before the
        first write.

    Examples
    --------
    >>> import os, tempfile
    >>> import pyarrow.parquet as pq
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> path = os.path.join(tempfile.mkdtemp(), "out.parquet")
    >>> w = ParquetWriter(path)
    >>> w.write(chunk_from_records([{"id": 1, "players": [p, q]}]).score())
    >>> w.close()
    >>> pq.read_table(path).column("points").to_pylist()
    [6, -6]
    """

    def __init__(self, where: Any, *, width: int | None = None, compression: str = "snappy",
                 filesystem: Any = None, results_only: bool = False, **pq_options: Any):
        self.where, self.width, self.compression = where, _width(width), compression
        self.results_only = flag(results_only, "results_only")
        self.pq_options = dict({"write_statistics": STATISTICS}, **pq_options)
        self.filesystem = filesystem
        _check_options(compression, pq_options)
        self.w: Any = None              # the pyarrow writer, once the schema is known
        self.schema: Any = None
        self.closed = False

    def write(self, chunk: Chunk) -> None:
        """Write a chunk as one row group (the file is opened with the first).

        Parameters
        ----------
        chunk : Chunk
            Whole hands (with our results if scored).

        Raises
        ------
        StateError
            The writer is closed or given up.
        """
        if self.closed:
            raise StateError("write() after close(): the writer is closed")
        pa, pc, pq = require_pyarrow("parquet")
        if self.w is not None and self.width == 13 and not self.results_only and \
                any(g.cards.shape[2] == 18 for g in chunk.groups):
            self._rewrite(wide_cards(self.schema),
                          "four-row hands after three-row ones (the file was started "
                          "with 13 card columns; write with width=18 from the start)")
            self.width = 18
        table = chunk_table(chunk, self.width, self.results_only)
        if self.w is None:
            self.width = sum(1 for c in table.column_names if c in card_columns(18)) or None
            self.schema = table.schema
            self.w = pq.ParquetWriter(self.where, self.schema, compression=self.compression,
                                      filesystem=self.filesystem, **self._options())
        else:
            wider = wider_ids(self.schema, table.schema)
            if wider is not None:
                self._rewrite(wider, "hand ids that are numbers, then text")
            table = conform(table, self.schema)
        if table.num_rows:
            self.w.write_table(table, row_group_size=max(table.num_rows, 1))

    def _options(self) -> dict[str, Any]:
        """pyarrow writer options for the current schema."""
        return dict(_encodings(self.schema, self.pq_options), **self.pq_options)

    def _rewrite(self, schema: Any, why: str) -> None:
        """Go on with a wider ``schema``: what is written so far is read back
        and written again under it (card columns added as EMPTY, columns cast)."""
        import os
        import tempfile
        pa, pc, pq = require_pyarrow("parquet")
        if self.filesystem is not None or not isinstance(self.where, (str, os.PathLike)):
            import errno
            raise OSError(errno.ESPIPE, f"{why}: a Parquet stream cannot be rewritten")
        self.w.close()
        path = os.fspath(self.where)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)) or ".",
                                   suffix=".parquet")
        os.close(fd)
        os.replace(path, tmp)
        try:
            old = pq.ParquetFile(tmp)
            self.schema = schema
            self.w = pq.ParquetWriter(path, self.schema, compression=self.compression,
                                      **self._options())
            for i in range(old.num_row_groups):
                t = conform(old.read_row_group(i), schema)
                self.w.write_table(t, row_group_size=max(t.num_rows, 1))
            old.close() if hasattr(old, "close") else None
        finally:
            os.remove(tmp)

    def close(self) -> None:
        """Finish the file (its footer); nothing is readable before.  A
        writer given no hands still writes a Parquet file: a scored file's
        columns and no rows (not 0 bytes, which no reader opens)."""
        if self.w is None and not self.closed:
            self.write(chunk_from_records([]).score())     # opens self.w
        self._release()

    def abort(self) -> None:
        """Give up: release the file (:class:`ofc_fast.io.Writer` removes it);
        a writer given no hands writes nothing."""
        self._release()

    def _release(self) -> None:
        self.closed = True
        if self.w is not None:
            self.w.close()


def _width(width: object) -> int | None:
    """``width``: None, 13 or 18 card columns."""
    if width is None:
        return None
    n = integer(width, "width")
    if n not in (13, 18):
        raise ArgumentError(f"width must be 13 or 18 (card columns) or None, got {n}")
    return n


def _check_options(compression: object, options: dict[str, Any]) -> None:
    """The compression and pyarrow writer options, tried on an empty table in
    memory: what pyarrow refuses is refused when the writer is made, not at
    its first write."""
    pa, pc, pq = require_pyarrow("parquet")
    given = f"compression={shorten(compression)}" + "".join(
        f", {k}={shorten(v)}" for k, v in options.items())
    try:
        w = pq.ParquetWriter(pa.BufferOutputStream(), pa.schema([("hand_id", pa.string())]),
                             compression=compression,
                             **dict({"write_statistics": STATISTICS}, **options))
        w.close()
    except (TypeError, AttributeError) as e:     # an unknown option, a value of a wrong type
        raise TypeError(f"Parquet writer options ({given}): {clip(e, 160)}") from None
    except (ValueError, pa.ArrowException) as e:
        raise ArgumentError(f"Parquet writer options ({given}): pyarrow refuses them: "
                            f"{clip(e, 160)}") from None
