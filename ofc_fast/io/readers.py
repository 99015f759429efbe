"""The readers' entry points: validated chunks of hands from a file in any
format, streaming (:func:`read_chunks`), its hands one by one
(:func:`read_hands`) and a whole file as a frame (:func:`read_frame`)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from ofc_fast._args import flag, instance, integer
from ofc_fast._args import n_threads as n_threads_arg
from ofc_fast.deprecation import UNSET, warn_renamed
from ofc_fast.io.formats import REGISTRY, detect_format
from ofc_fast.io.frame_files import frame_from_chunks, frame_options
from ofc_fast.io.inputs import Source, _open_input, _spooled, _stdin, check_input
from ofc_fast.outputs import is_url
from ofc_fast.records import DEFAULT_RULES, Chunk, HandRecord, Rules, hand_records
from ofc_fast.threads import prefetch

__all__ = ["read_chunks", "read_hands", "read_frame", "MAX_CHUNK"]

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
    TypeError
        ``path`` is no path, ``-``, URL or binary file; an argument of the
        wrong type.
    OSError
        The file cannot be read.

    Examples
    --------
    >>> from ofc_fast.report import sample_path
    >>> chunks = list(read_chunks(sample_path(), chunk_size=500))
    >>> [c.n_hands for c in chunks]
    [500, 500, 479]
    """
    check_input(path)
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
