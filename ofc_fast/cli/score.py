"""``ofc-fast score`` and ``ofc-fast report``: read, score and summarise a file
of hands (the input, the progress bar, the skipped hands, --verify)."""
from __future__ import annotations

import argparse
import os
import stat
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

import orjson

from ofc_fast.cli.common import EXIT_MISMATCH, EXIT_OK, _Fail, _hands, _note, _rules

if TYPE_CHECKING:
    from ofc_fast.errors import RecordError
    from ofc_fast.io import ScoreRun
    from ofc_fast.records import Chunk
    from ofc_fast.report import Summary


def _stdin_piped() -> bool:
    """Data may be piped or redirected in: standard input is a pipe, a file or
    a socket; not a terminal, and not ``/dev/null`` or another device (what a
    script or a CI job without input gives: the sample is scored then)."""
    f = sys.stdin
    if f is None:
        return False
    try:
        if not f.readable():
            return False
        mode = os.fstat(f.fileno()).st_mode
    except (AttributeError, ValueError, OSError):
        try:                    # a stream without a file descriptor: not a terminal
            return not f.isatty()
        except (AttributeError, ValueError, OSError):
            return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode) or stat.S_ISSOCK(mode)


def _input(args: argparse.Namespace) -> str:
    """The input: FILE; with none, stdin when something is piped in (never the
    sample then: piped data must not be ignored), else the bundled sample."""
    from ofc_fast.outputs import is_url
    from ofc_fast.report import sample_path
    if args.file is None:
        args.from_stdin = _stdin_piped()
        return "-" if args.from_stdin else sample_path()
    path: str = args.file
    if path != "-" and not is_url(path) and not os.path.exists(path):
        raise _Fail(f"ofc-fast: {path}: no such file")
    return path


class _Progress:
    """tqdm on stderr when it is a terminal (and not --quiet)."""

    def __init__(self, path: str, fmt: str, quiet: bool):
        self.bar: Any = None
        if quiet or not sys.stderr.isatty():
            return
        try:
            from tqdm import tqdm
        except ImportError:  # pragma: no cover
            return
        total: int | None = None
        unit = "B"
        try:
            if fmt == "parquet":
                import pyarrow.parquet as pq
                total, unit = pq.ParquetFile(path).metadata.num_rows, " rows"
            elif not str(path).endswith(".gz") and path != "-":
                total = os.path.getsize(path)
        except Exception:  # noqa: BLE001 - progress is best effort
            total = None
        self.unit = unit
        self.done = 0
        self.hands = 0
        self.bar = tqdm(total=total, unit=unit.strip(), unit_scale=True,
                        unit_divisor=1024 if unit == "B" else 1000, file=sys.stderr,
                        desc="scoring", dynamic_ncols=True, leave=False)

    def __call__(self, chunk: Chunk) -> None:
        if self.bar is None:
            return
        self.hands += chunk.n_hands
        if chunk.position >= 0:
            self.bar.update(chunk.position - self.done)
            self.done = chunk.position
        self.bar.set_postfix(hands=f"{self.hands:,}", refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()



def _report_skipped(skipped: Sequence[RecordError], out: TextIO | None = None,
                    limit: int = 20) -> None:
    if not skipped:
        return
    out = out or sys.stderr
    from collections import Counter
    reasons = Counter(e.reason for e in skipped)
    why = ", ".join(f"{n} {r}" for r, n in reasons.most_common())
    print(f"ofc-fast: skipped {len(skipped):,} bad hand{'s' if len(skipped) != 1 else ''} "
          f"({why}):", file=out)
    for e in skipped[:limit]:
        print(f"  {e}", file=out)
    if len(skipped) > limit:
        print(f"  ... and {len(skipped) - limit:,} more", file=out)


def _write_json(path: str, data: object) -> None:
    from ofc_fast.outputs import open_output
    with open_output(path) as f:
        f.write(orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")



@dataclass
class _Scored:
    """A ``score`` or ``report`` run: what score_file did, and more."""
    run: ScoreRun
    summary: Summary
    seconds: float
    path: str


def _run_scoring(args: argparse.Namespace, *, output: str | None = None,
                 output_format: str | None = None, verify: bool = False, track: bool = False,
                 results_only: bool = False, outputs: Sequence[str | None] = ()) -> _Scored:
    """Score the input of a ``score`` or ``report`` command.

    Every output (``output`` and ``outputs``: --summary-json, --json, --plot) is
    checked against the input first: one that is the input is refused before
    anything is read or written."""
    import ofc_fast.io as fio
    from ofc_fast.report import Summary
    path = _input(args)
    rules = _rules(args)
    try:
        fmt = fio.detect_format(path, args.input_format)
        if output is not None:
            fio.detect_format(output, output_format, output=True)
    except ValueError as e:
        raise _Fail(f"ofc-fast: {e}") from None
    fio.check_distinct([path], [output, *outputs])
    progress = _Progress(path, fmt, args.quiet)
    t0 = time.perf_counter()
    summary = Summary(track=track)
    try:
        run = fio.score_file(path, output, format=fmt, output_format=output_format, rules=rules,
                             skip_bad=args.skip_bad, verify=verify, chunk_size=args.chunk_size,
                             summary=False, progress=progress, on_chunk=summary.add,
                             results_only=results_only,
                             closed_pipe="drain" if verify else "stop")
    finally:
        progress.close()
    run.summary = summary
    done = _Scored(run, summary, time.perf_counter() - t0, "<stdin>" if path == "-" else path)
    if getattr(args, "from_stdin", False) and run.records == 0:
        _note(args, "ofc-fast: no hands on stdin (give a FILE; in a terminal, 'ofc-fast "
                    f"{args.command}' alone scores the bundled sample)")
    return done


def _read_line(done: _Scored) -> str:
    """``read 1,479 hands: 1,478 scored, 1 skipped (4,098 player-hands) from X``."""
    run = done.run
    return (f"read {_hands(run.records)}: {run.hands:,} scored, {len(run.skipped):,} skipped "
            f"({run.player_hands:,} player-hands) from {done.path}")


def _cmd_score(args: argparse.Namespace) -> int:
    out_is_stdout = args.output == "-"
    done = _run_scoring(args, output=args.output, output_format=args.format, verify=args.verify,
                        results_only=args.results_only, outputs=[args.summary_json])
    run, summary = done.run, done.summary
    # the result is known now: a closed stdout pipe below changes nothing of it
    args.status = EXIT_MISMATCH if run.mismatches else EXIT_OK
    if run.output_closed and not args.verify:
        return EXIT_OK             # the reader of stdout went away: stop quietly
    text_out = sys.stderr if out_is_stdout else sys.stdout
    rate = run.player_hands / done.seconds if done.seconds > 0 else 0.0
    _note(args, f"ofc-fast: {_read_line(done)} in {done.seconds:.2f} s "
                f"({rate:,.0f} player-hands/s)"
                + (f"; results in {args.output}" if args.output and not out_is_stdout else ""))
    _report_skipped(run.skipped)
    if not args.no_summary:
        print(summary.table(), file=text_out)
        text_out.flush()
    if args.summary_json:
        _write_json(args.summary_json, summary.as_dict())
    if args.verify:
        checked = run.player_hands - run.unrecorded
        if run.mismatches:
            print(f"ofc-fast: --verify: {len(run.mismatches):,} of {checked:,} recorded "
                  f"player-hands differ from our points:", file=text_out)
            for m in run.mismatches:
                print(m.describe(), file=text_out)
        else:
            print(f"ofc-fast: --verify: all {checked:,} recorded player-hands agree with our "
                  "points" + (f" ({run.unrecorded:,} had no recorded points)"
                              if run.unrecorded else ""), file=text_out)
        text_out.flush()
    status: int = args.status
    return status


def _cmd_report(args: argparse.Namespace) -> int:
    done = _run_scoring(args, track=bool(args.plot), outputs=[args.json, args.plot])
    summary = done.summary
    _report_skipped(done.run.skipped)
    print(f"{_read_line(done)}; variants: "
          + ", ".join(f"{k} {v:,}" for k, v in sorted(summary.variants.items())))
    print(summary.table())
    if args.json:
        _write_json(args.json, summary.as_dict())
    if args.plot:
        from ofc_fast.report import plot, save_figure
        try:
            save_figure(plot(summary, title=args.title), args.plot)
        except ImportError as e:
            raise _Fail(f"ofc-fast: {e}") from None
        except ValueError as e:    # a picture format matplotlib does not know
            raise _Fail(f"ofc-fast: {args.plot}: {e}") from None
        _note(args, f"ofc-fast: picture saved to {args.plot}")
    return EXIT_OK

