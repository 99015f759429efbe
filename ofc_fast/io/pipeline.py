"""The scoring pipeline of a file: read, validate, score, verify, summarise
and write, chunk by chunk, reading ahead and writing behind the scoring
(:func:`score_file`, its :class:`ScoreRun`)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

from ofc_fast._args import choice, flag
from ofc_fast.deprecation import UNSET, warn_renamed
from ofc_fast.errors import RecordError
from ofc_fast.io.formats import REGISTRY, detect_format
from ofc_fast.io.inputs import Source, check_input
from ofc_fast.io.readers import _background, read_chunks
from ofc_fast.io.writer import Writer, check_output, open_writer
from ofc_fast.outputs import OutputError, check_distinct
from ofc_fast.records import DEFAULT_RULES, Chunk, Rules
from ofc_fast.threads import Behind, gc_paused

if TYPE_CHECKING:
    from ofc_fast.report import Mismatch, Summary

__all__ = ["ScoreRun", "score_file", "CLOSED_PIPE"]


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
        A flag that is not a bool, ``n_threads`` that is not an integer;
        writer options without an ``output``, or ones its writer does not
        take.

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
    check_input(path)
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
    if output is not None:
        check_output(output)
    elif writer_options:
        raise TypeError(f"score_file() got writer options ({', '.join(writer_options)}) but no "
                        "output: they go with output=...")
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
