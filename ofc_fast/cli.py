"""The ``ofc-fast`` command: score, verify, show and report recorded hands, and play
new ones (``selfplay``).  One concern (the command line: its parser, its
subcommands and their exit status), so one module of about 1,000 lines.

Run ``ofc-fast --help`` or ``ofc-fast COMMAND --help``; docs/cli.md has the
full story.  Exit status: 0 success, 1 ``--verify`` found mismatches, 2 bad
input or an output that cannot be written (a bad record, a file that is not
its format, unknown format or option, missing file, disk full), 3 an
internal error (a bug).  Nothing that comes in ends in a traceback: every
error of the library (:class:`ofc_fast.errors.OFCError`) and of the system
(:class:`OSError`) is one line naming the file.
"""
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

if TYPE_CHECKING:
    from ofc_fast.errors import RecordError
    from ofc_fast.io import ScoreRun
    from ofc_fast.records import Chunk, Rules
    from ofc_fast.report import Summary
    from ofc_fast.rules import Variant

__all__ = ["main", "build_parser"]

EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3

_EPILOG_MAIN = """\
examples:
  ofc-fast score                          score the bundled sample of recorded hands
  ofc-fast score hands.jsonl -o scored.parquet
  ofc-fast score hands.csv --variant classic --option finnish=true --verify
  ofc-fast show "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"
  ofc-fast show hands.jsonl --id h17
  ofc-fast report hands.jsonl --plot report.png
  ofc-fast fantasyland "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c"
  ofc-fast selfplay pineapple --hands 100000 --players 3 -o hands.parquet

exit status: 0 ok, 1 --verify found mismatches, 2 bad input.
File formats: docs/formats.md.  Run 'ofc-fast COMMAND --help' for a command's options.
"""

_EPILOG_SCORE = """\
examples:
  ofc-fast score                                   the bundled sample (in a terminal)
  ofc-fast score < hands.jsonl                     JSON Lines piped in (same as FILE '-')
  ofc-fast score hands.jsonl                       summary per player on stdout
  ofc-fast score hands.jsonl -o scored.csv         per player-hand results to a file
  ofc-fast score hands.parquet -o - | head         results as JSON Lines on stdout
  ofc-fast score hands.jsonl --verify              list every recorded-points mismatch
  ofc-fast score hands.csv --variant classic --option royalties=american
  ofc-fast score big.jsonl --skip-bad -o out.parquet

Input format comes from the extension
  {extensions}
(.gz is read through for {gzip}) unless --input-format is given; the output
format from -o's extension unless --format is given ({pipe} for '-').  Records that name
no variant use --variant/--option; with --override every record does.
Bad records stop the run with file, line and reason (exit 2); --skip-bad
scores the rest and reports what was skipped and why.  A file that cannot be
read as its format stops the run either way (exit 2).  Outputs appear only
when complete (written beside, then renamed); an output that is the input
is refused.  With no FILE, piped stdin is read as JSON Lines.
"""

_EPILOG_SHOW = """\
examples:
  ofc-fast show "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"
  ofc-fast show "Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d" \
                "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"         a table of two
  ofc-fast show "As Ah 2c|Kc Qc Jc Tc 9c|..." --variant pineapple --option finnish=true
  ofc-fast show hands.jsonl                        the first hand of a file
  ofc-fast show hands.jsonl --id h17               the hand with id h17
  ofc-fast show hands.parquet --index 3            the fourth hand of a file

Several layouts are one table, in seat order (seat 0 = button).
"""

_EPILOG_FANTASYLAND = """\
examples:
  ofc-fast fantasyland "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c"
  ofc-fast fantasyland As Ad Ac Ah Ks Kd Kc 9s 9d 9c 7h 6d 4c 3s --objective royalties
  ofc-fast fantasyland "Qs Qd ..." --variant progressive --option repeat_limit=2 --json
  ofc-fast fantasyland "..." --repeat-value 25 --in-fantasyland 2

The cards may be one argument or several.  The rules options are those of
'ofc-fast score' (--variant, --option KEY=VALUE); docs/fantasyland.md has the
solver's objectives and tie rules.
"""

_EPILOG_REPORT = """\
examples:
  ofc-fast report                                  summary of the bundled sample
  ofc-fast report hands.jsonl --plot report.png    and a picture (needs matplotlib)
  ofc-fast report hands.parquet --json summary.json

The picture shows cumulative net points per player over the hands, the
distribution of royalties per player-hand, and foul / fantasyland rates.
"""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def _option(text: str) -> tuple[str, Any]:
    """KEY=VALUE, VALUE read as JSON when it is JSON (true, 2, null, {...})."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"--option takes KEY=VALUE, got {text!r}")
    key, raw = text.split("=", 1)
    value: Any = raw
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    return key.strip(), value


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return n


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return n


def _add_rules(p: argparse.ArgumentParser, records: bool = True) -> None:
    """The rules options, the same in every subcommand (``records``: the
    rules are the default of records that name none, and --override exists)."""
    g = p.add_argument_group("rules")
    g.add_argument("--variant", metavar="V", default=None,
                   help=("variant for records that name none" if records else "the variant") +
                        " (default: pineapple); "
                        "e.g. classic, turbo, pineapple, progressive, pineapple-2-7, "
                        "turbo-pineapple, big-pineapple, chinese")
    g.add_argument("--option", metavar="KEY=VALUE", type=_option, action="append", default=[],
                   help="a variant option (repeatable): finnish=true, american=true, "
                        "lowball=true, fantasyland=false, repeat=infinite, repeat_limit=2, "
                        "royalties=russian, scoring=2-4, foul_penalty=6, third_row_trips=4")
    if records:
        g.add_argument("--override", action="store_true",
                       help="apply --variant/--option to every record, whatever it names")


def _formats() -> tuple[str, ...]:
    """The file formats (:data:`ofc_fast.io.formats.REGISTRY`)."""
    from ofc_fast.io.formats import REGISTRY
    return tuple(REGISTRY)


def _format_list() -> str:
    """``jsonl (JSON Lines ...), csv (...)``: each format and what it is."""
    from ofc_fast.io.formats import REGISTRY
    return ", ".join(f"{f.name} ({f.title})" for f in REGISTRY.values())


def _extensions() -> str:
    from ofc_fast.io.formats import extensions_text
    return extensions_text()


def _pipe() -> str:
    """The title of the format of '-'."""
    from ofc_fast.io.formats import PIPE_FORMAT, REGISTRY
    return REGISTRY[PIPE_FORMAT].title.split(" (")[0]


def _add_input(p: argparse.ArgumentParser, nargs: str = "?") -> None:
    p.add_argument("file", nargs=nargs, metavar="FILE", default=None,
                   help=f"hands file ({_extensions()}; '-' = {_pipe()} on stdin); "
                        "default: stdin when data is piped in, else the bundled sample")
    p.add_argument("--input-format", choices=_formats(), default=None,
                   help=f"input format: {_format_list()} (default: from the extension)")
    p.add_argument("--skip-bad", action="store_true",
                   help="skip bad records (and say how many and why) instead of stopping")
    p.add_argument("--chunk-size", type=_positive, default=None, metavar="N",
                   help="hands per chunk (rows for Parquet); memory stays bounded")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar and no notes on stderr")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``ofc-fast``: its subcommands and their options.

    Returns
    -------
    argparse.ArgumentParser

    Raises
    ------
    ImportError
        Never for an installed package (the solver's objectives are imported).

    Examples
    --------
    >>> args = build_parser().parse_args(["score", "hands.csv", "-o", "out.parquet",
    ...                                   "--option", "finnish=true"])
    >>> args.command, args.output, args.option
    ('score', 'out.parquet', [('finnish', True)])
    """
    from ofc_fast import __version__
    parser = argparse.ArgumentParser(
        prog="ofc-fast", formatter_class=_Formatter,
        description="Validate and score recorded Open Face Chinese poker hands, fast.",
        epilog=_EPILOG_MAIN)
    parser.add_argument("--version", action="version", version=f"ofc-fast {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    from ofc_fast.io.formats import REGISTRY
    epilog = _EPILOG_SCORE.format(extensions=_extensions(), pipe=_pipe(), gzip=", ".join(
        f.name for f in REGISTRY.values() if f.gzip))
    sc = sub.add_parser("score", formatter_class=_Formatter, epilog=epilog,
                        help="score a file of hands: per-hand results and a per-player summary",
                        description="Read, validate and score recorded hands: points, "
                                    "royalties, fouls and next-hand fantasyland per player-"
                                    "hand, and a summary per player name.")
    _add_input(sc)
    sc.add_argument("-o", "--output", metavar="OUT", default=None,
                    help="write per player-hand results here ('-' = stdout)")
    sc.add_argument("--format", choices=_formats(), default=None,
                    help=f"output format: {_format_list()} (default: from OUT's extension; "
                         f"{_pipe()} for '-')")
    sc.add_argument("--results-only", action="store_true",
                    help="write only keys and results, no cards (smaller, faster; not a "
                         "hands file)")
    sc.add_argument("--verify", action="store_true",
                    help="compare recorded points with ours; list every mismatch "
                         "(exit status 1 if any)")
    sc.add_argument("--summary-json", metavar="PATH", default=None,
                    help="also write the per-player summary as JSON ('-' = stdout)")
    sc.add_argument("--no-summary", action="store_true", help="do not print the summary")
    _add_rules(sc)

    sh = sub.add_parser("show", formatter_class=_Formatter, epilog=_EPILOG_SHOW,
                        help="pretty-print a layout, a table of layouts, or a hand from a file",
                        description="Pretty-print layouts or a recorded hand: rows with hand "
                                    "names, royalties, fouls and why, fantasyland, points.")
    sh.add_argument("hand", nargs="+", metavar="HAND",
                    help="a layout ('top / middle / bottom', rows split by / or |), several "
                         "layouts (one table), or a hands file")
    sh.add_argument("--id", default=None, help="with a file: the hand with this id")
    sh.add_argument("--index", type=int, default=None,
                    help="with a file: the hand at this position (0 = first)")
    sh.add_argument("--in-fantasyland", type=int, nargs="*", default=None, metavar="K",
                    help="with layouts: fantasyland count per player (0 = normal hand)")
    sh.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                    help="coloured suits (auto: when stdout is a terminal and NO_COLOR is unset)")
    sh.add_argument("--input-format", choices=_formats(), default=None,
                    help=f"input format: {_format_list()} (default: from the extension)")
    _add_rules(sh)

    rp = sub.add_parser("report", formatter_class=_Formatter, epilog=_EPILOG_REPORT,
                        help="per-player summary and a picture of a file's results",
                        description="Score a file and summarise it per player; with --plot, "
                                    "draw cumulative net points and royalty/foul distributions.")
    _add_input(rp)
    rp.add_argument("--plot", metavar="PNG", default=None,
                    help="save a picture here (needs matplotlib: pip install 'ofc-fast[plot]')")
    rp.add_argument("--json", metavar="PATH", default=None,
                    help="write the summary as JSON ('-' = stdout)")
    rp.add_argument("--title", default=None, help="title of the picture")
    _add_rules(rp)

    from ofc_fast.fantasyland import OBJECTIVES
    fl = sub.add_parser("fantasyland", formatter_class=_Formatter, epilog=_EPILOG_FANTASYLAND,
                        help="best placement of a fantasyland hand (exact solver)",
                        description="Place the cards of a fantasyland hand for the greatest "
                                    "value, exactly: the rows, their royalties, the discards "
                                    "and whether the layout repeats fantasyland.")
    fl.add_argument("cards", nargs="+", metavar="CARDS",
                    help='the cards dealt, e.g. "As Ks Qd ..." (one argument or several)')
    fl.add_argument("--objective", default="royalties+repeat", choices=OBJECTIVES,
                    help="what to maximise (default: royalties+repeat, a repeat first)")
    fl.add_argument("--repeat-value", type=float, default=None, metavar="POINTS",
                    help="points a repeat is worth with royalties+repeat (default: more than "
                         "any royalties, so a repeat comes first)")
    fl.add_argument("--in-fantasyland", type=int, default=1, metavar="K",
                    help="this hand's number in a run of fantasyland hands (default 1); past "
                         "the variant's repeat limit no repeat is possible")
    fl.add_argument("--json", action="store_true", help="print the result as JSON")
    _add_rules(fl, records=False)
    _add_selfplay(sub)
    return parser


# ----------------------------------------------------------------------------- helpers
class _Fail(Exception):
    """Stop with a message and an exit status."""

    def __init__(self, message: str, status: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.status = status


def _rules(args: argparse.Namespace) -> Rules:
    from ofc_fast.errors import RulesError
    from ofc_fast.records import Rules, clip
    options = dict(args.option) or None
    rules = Rules(args.variant or "pineapple", options,
                  override=getattr(args, "override", False))
    try:
        rules.resolve(None, None)       # variant() and one test table, as for a record
    except RulesError as e:
        raise _Fail(f"ofc-fast: unknown variant or option: {clip(e)}") from None
    return rules


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


def _note(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        _err(text)


def _err(text: str) -> None:
    """A line on stderr; a closed stderr is not worth a traceback."""
    try:
        print(text, file=sys.stderr)
    except (OSError, ValueError):
        pass


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


def _hands(n: int) -> str:
    return f"{n:,} hand{'s' if n != 1 else ''}"


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


# --------------------------------------------------------------------------- show
def _colour_on(mode: str) -> bool:
    """``--color always/never`` decide; with ``auto``, a non-empty ``NO_COLOR``
    turns colour off (no-color.org), else a non-empty ``FORCE_COLOR`` turns it
    on (force-color.org), else colour goes to a terminal that is not ``dumb``
    (the order CPython's own colour output follows)."""
    if mode == "always":
        return True
    if mode == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty() and os.environ.get("TERM", "") != "dumb"


def _symbols_ok() -> bool:
    enc = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "♠♥♦♣".encode(enc)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def foul_reason(strengths: Sequence[int], v: Variant) -> str | None:
    """Deprecated: :func:`ofc_fast.foul_reason` (``layouts``), beside the foul
    rule it explains.

    Parameters
    ----------
    strengths : sequence of int
        The strength of each row, top first.
    v : Variant
        The rules.

    Returns
    -------
    str or None
        The reason, or None if the layout is not fouled.

    Raises
    ------
    ArgumentError
        Strengths of another shape than the variant's rows.
    """
    from ofc_fast.deprecation import warn_renamed
    from ofc_fast.layouts import foul_reason as reason
    warn_renamed("ofc_fast.cli.foul_reason", "ofc_fast.foul_reason", since="0.3")
    return reason(strengths, v)


def _show_table(title: str, v: Variant, layouts: Any, fl: Sequence[int],
                names: Sequence[object] | None, recorded: Sequence[int | None] | None,
                colour: bool, out: TextIO | None = None) -> None:
    import numpy as np

    from ofc_fast.cards import format_cards
    from ofc_fast.hands import describe_strength
    from ofc_fast.layouts import evaluate
    from ofc_fast.layouts import foul_reason as layouts_foul_reason
    from ofc_fast.scoring import score_pair, score_tables
    out = out or sys.stdout
    scorer: Any = score_tables              # (typed where scoring is)
    symbols = _symbols_ok()
    P = len(layouts)
    tables = np.asarray(layouts, np.uint8)
    ev = evaluate(tables, v, in_fantasyland=np.asarray(fl, np.uint8))
    pts = None
    if P >= 2:
        if P > v.max_players or P < v.min_players:
            raise _Fail(f"ofc-fast: {v.name} is played by {v.played_by}, got {P} layouts")
        pts = scorer(tables[None], v, in_fantasyland=np.asarray(fl, np.uint8)[None])[0]
    bold = ("\033[1m", "\033[0m") if colour else ("", "")
    print(f"{bold[0]}{title}{bold[1]}", file=out)
    print(f"rules: {v}", file=out)
    width = max(len(n) for n in v.row_names)
    for p in range(P):
        who = f"seat {p}" + (" (button)" if p == 0 and P > 1 else "") + \
            (f"  {names[p]}" if names and names[p] is not None else "")
        if fl[p]:
            who += f"  [in fantasyland{'' if fl[p] == 1 else f', hand {fl[p]} in a row'}]"
        print(f"\n{bold[0]}{who}{bold[1]}", file=out)
        pos = 0
        texts = []
        for r, (row, size) in enumerate(zip(v.row_names, v.row_sizes, strict=True)):
            cards = tables[p, pos:pos + size].tolist()
            pos += size
            texts.append((row, format_cards(cards, colour=colour, symbols=symbols), len(cards),
                          describe_strength(int(ev.strengths[p, r])), int(ev.royalties[p, r])))
        for row, text, k, name, roy in texts:
            pad = " " * (3 * (5 - k))
            print(f"  {row:<{width}}  {text}{pad}   {name:<42} {roy:>3}", file=out)
        foul = bool(ev.foul[p])
        line = f"  royalties {int(ev.royalty_total[p])}"
        if foul:
            reason = layouts_foul_reason(ev.strengths[p], v)
            line = f"  FOUL: {reason}" + ("  (no royalties, loses every row)" if P > 1 else "")
        print(line, file=out)
        fan = int(ev.next_fantasyland[p])
        if fan:
            kind = "repeat" if ev.repeat[p] else "entry"
            print(f"  fantasyland next hand: {fan} cards ({kind})", file=out)
        if pts is not None:
            extra = ""
            if recorded and recorded[p] is not None:
                same = recorded[p] == int(pts[p])
                extra = f" (recorded {recorded[p]:+d}{'' if same else ', MISMATCH'})"
            print(f"  points {int(pts[p]):+d}{extra}", file=out)
            for q in range(P):
                if q == p:
                    continue
                pair = score_pair(tables[p], tables[q], v)
                rows = " ".join({1: "W", -1: "L", 0: "T"}[x] for x in pair.rows)
                print(f"    vs seat {q}: {pair.points:+d} (rows {rows}: {pair.row_points:+d}, "
                      f"royalties {pair.royalty_points:+d}{', scoop' if pair.scoop else ''})",
                      file=out)


def _cmd_show(args: argparse.Namespace) -> int:
    import numpy as np

    from ofc_fast.cards import parse_card_list, split_rows
    from ofc_fast.errors import CardError, OFCError, shorten
    from ofc_fast.layouts import LayoutError, as_variant
    colour = _colour_on(args.color)
    first = args.hand[0]
    is_file = len(args.hand) == 1 and (os.path.isfile(first) or first == "-")
    if is_file:
        import ofc_fast.io as fio
        rules = _rules(args)
        try:
            want = None
            for i, rec in enumerate(fio.read_hands(first, args.input_format, rules=rules)):
                if (args.id is not None and str(rec.id) == args.id) or \
                        (args.id is None and i == (args.index or 0)):
                    want = rec
                    break
        except OFCError:
            raise                  # a bad record or file: reported by main()
        except ValueError as e:    # the format cannot be told from the name
            raise _Fail(f"ofc-fast: {e}") from None
        if want is None:
            what = f"id {args.id!r}" if args.id is not None else f"index {args.index}"
            raise _Fail(f"ofc-fast: {first}: no hand with {what}")
        where = f"{want.source}:{want.line}"
        _show_table(f"hand {shorten(want.id)} ({where})", want.variant,
                    [p.layout for p in want.players], [p.in_fantasyland for p in want.players],
                    [p.name for p in want.players], [p.points for p in want.players], colour)
        return EXIT_OK
    if len(args.hand) == 1 and not any(c in first for c in "/|") and not os.path.exists(first) \
            and len(first.split()) <= 2:
        raise _Fail(f"ofc-fast: {first}: no such file, and not a layout (rows are separated "
                    "by '/' or '|', e.g. \"Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d\")")
    rules = _rules(args)
    v = as_variant(rules.resolve(None, None)[0])
    layouts = []
    for i, text in enumerate(args.hand):
        try:
            rows = split_rows(text, v.n_rows)
            ids = []
            for row, size, rtext in zip(v.row_names, v.row_sizes, rows, strict=True):
                got = parse_card_list(rtext)
                if len(got) != size:
                    raise CardError(f"the {row} row has {len(got)} cards; it needs {size}")
                ids += got
        except CardError as e:
            raise _Fail(f"ofc-fast: layout {i + 1} {shorten(text)}: {e}") from None
        layouts.append(ids)
    flat = [c for lay in layouts for c in lay]
    if len(set(flat)) != len(flat):
        dup = next(c for c in flat if flat.count(c) > 1)
        from ofc_fast.cards import CARD_TEXT
        raise _Fail(f"ofc-fast: {CARD_TEXT[dup]} appears twice")
    fl = args.in_fantasyland or [0] * len(layouts)
    if len(fl) != len(layouts):
        raise _Fail(f"ofc-fast: --in-fantasyland needs one value per layout ({len(layouts)})")
    try:
        _show_table("layout" if len(layouts) == 1 else f"table of {len(layouts)}", v,
                    np.array(layouts, np.uint8), fl, None, None, colour)
    except LayoutError as e:
        raise _Fail(f"ofc-fast: {e}") from None
    return EXIT_OK


# --------------------------------------------------------------------- fantasyland
def _cmd_fantasyland(args: argparse.Namespace) -> int:
    import json

    from ofc_fast.errors import OFCError
    from ofc_fast.fantasyland import solve_fantasyland
    v = _rules(args).resolve(None, None)[0]
    try:
        sol = solve_fantasyland(" ".join(args.cards), v, args.objective, args.repeat_value,
                                args.in_fantasyland)
    except OFCError:
        raise                  # bad cards: reported by main()
    except ValueError as e:    # a number the solver refuses (--repeat-value, --in-fantasyland)
        raise _Fail(f"ofc-fast: {e}") from None
    print(json.dumps(sol.to_dict()) if args.json else sol)
    return EXIT_OK


# ------------------------------------------------------------------------ selfplay
_EPILOG_SELFPLAY = """\
examples:
  ofc-fast selfplay pineapple --hands 100000 --players 3 -o hands.parquet
  ofc-fast selfplay classic --hands 10000 --policy heuristic --policy random -o h.jsonl.gz
  ofc-fast selfplay pineapple --hands 1000 --policy heuristic:samples=8,tries=4 \\
                    --policy random --seed 7 -o hands.csv
  ofc-fast selfplay progressive --hands 50000 --option repeat_limit=2 -o - | head

Policies (--policy, once for every seat or once per seat in seat order):
random, best, heuristic (docs/sim.md), with options NAME:KEY=VALUE,... (samples,
tries, max_moves, foul_cost, fantasyland_value; heuristic: race=false for
the exhaustive algorithm).  The same --seed (and --games)
plays the same hands, whatever --threads.  The hands are ofc-hand/1 records
(docs/formats.md) with the points played: 'ofc-fast score FILE --verify'
agrees with every one.  The output appears only when complete.
"""


def _policy_arg(text: str) -> str | tuple[str, dict[str, Any]]:
    """NAME or NAME:KEY=VALUE,KEY=VALUE (values read as JSON when they are),
    NAME a built-in policy (selfplay has no external seat)."""
    from ofc_fast.sim import POLICIES
    builtin = [p for p in POLICIES if p != "external"]
    name, _, opts = text.partition(":")
    name = name.strip()
    if name not in builtin:
        raise argparse.ArgumentTypeError(f"unknown policy {name!r}; valid: {', '.join(builtin)}")
    options: dict[str, Any] = {}
    for item in (o for o in opts.split(",") if o.strip()):
        if "=" not in item:
            raise argparse.ArgumentTypeError(f"{text!r}: policy options are KEY=VALUE, got "
                                             f"{item.strip()!r}")
        key, value = _option(item)
        if key in options:
            raise argparse.ArgumentTypeError(f"{text!r}: {key} given twice")
        options[key] = value
    return (name, options) if options else name


def _add_selfplay(sub: Any) -> None:
    sp = sub.add_parser("selfplay", formatter_class=_Formatter, epilog=_EPILOG_SELFPLAY,
                        help="play hands of built-in policies in C and write them as records",
                        description="Play hands of OFC between built-in policies (many games "
                                    "at once, in C) and write them as ofc-hand/1 records: "
                                    "layouts, discards, fantasyland, points.")
    sp.add_argument("variant", nargs="?", default="pineapple", metavar="VARIANT",
                    help="the variant (default: pineapple); --option sets its options")
    sp.add_argument("--hands", type=_count, required=True, metavar="N",
                    help="hands to play (0: an empty file of the format)")
    sp.add_argument("--players", type=_positive, default=None, metavar="P",
                    help="players at each table (default: one per --policy, else 2)")
    sp.add_argument("--policy", type=_policy_arg, action="append", default=None,
                    metavar="NAME[:K=V,...]",
                    help="a seat's policy (repeat per seat; one for every seat; default random)")
    sp.add_argument("--seed", type=int, default=None, help="seed (default: fresh entropy)")
    sp.add_argument("--games", type=_positive, default=None, metavar="G",
                    help="games side by side, each a match (default min(N, 10000))")
    sp.add_argument("--threads", type=_positive, default=None, metavar="T",
                    help="threads (default: one per CPU; the hands do not depend on it)")
    sp.add_argument("-o", "--output", metavar="OUT", required=True,
                    help="write the hands here ('-' = stdout)")
    sp.add_argument("--format", choices=_formats(), default=None,
                    help=f"output format: {_format_list()} (default: from OUT's extension; "
                         f"{_pipe()} for '-')")
    sp.add_argument("--no-summary", action="store_true", help="do not print the summary")
    sp.add_argument("-q", "--quiet", action="store_true",
                    help="no progress bar and no notes on stderr")
    g = sp.add_argument_group("rules")
    g.add_argument("--option", metavar="KEY=VALUE", type=_option, action="append", default=[],
                   help="a variant option (repeatable), as for 'ofc-fast score'")


def _cmd_selfplay(args: argparse.Namespace) -> int:
    import ofc_fast.io as fio
    from ofc_fast.report import Summary
    from ofc_fast.sim import selfplay_chunks
    args.variant = args.variant or "pineapple"
    v = _rules(args).resolve(None, None)[0]
    pols = args.policy or ["random"]
    policies = pols[0] if len(pols) == 1 else pols
    try:
        fio.detect_format(args.output, args.format, output=True)
    except ValueError as e:
        raise _Fail(f"ofc-fast: {e}") from None
    try:
        chunks = selfplay_chunks(v, args.hands, policies, n_players=args.players,
                                 seed=args.seed, n_games=args.games, n_threads=args.threads)
    except TypeError as e:          # a policy option of the wrong name or type
        raise _Fail(f"ofc-fast: {e}") from None
    bar: Any = None
    if not args.quiet and sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=args.hands, unit="hands", unit_scale=True, file=sys.stderr,
                   desc="selfplay", dynamic_ncols=True, leave=False)
    summary = Summary()
    t0 = time.perf_counter()
    try:
        with fio.open_writer(args.output, args.format) as w:
            for chunk in chunks:
                w.write(chunk)
                summary.add(chunk.score())
                if bar is not None:
                    bar.update(chunk.n_hands)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    to_stdout = args.output == "-"
    rate = summary.hands / seconds if seconds > 0 else 0.0
    _note(args, f"ofc-fast: played {_hands(summary.hands)} of {v.name} in {seconds:.2f} s "
                f"({rate:,.0f} hands/s)" + ("" if to_stdout else f"; hands in {args.output}"))
    if not args.no_summary:
        out = sys.stderr if to_stdout else sys.stdout
        print(summary.table(), file=out)
        out.flush()
    return EXIT_OK


# ---------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    """The ``ofc-fast`` command (and ``python -m ofc_fast``); returns the exit status.

    Every error from the input or the outputs ends here as one line on stderr
    and exit status 2; a broken stdout pipe (``... | head``) ends quietly
    with the status of what was found; a stdout or stderr that is closed,
    full or fails otherwise is exit status 2 (0 when nothing needed writing
    there); a signal that ends a process (SIGTERM, SIGHUP, SIGQUIT ...)
    unwinds the run, removing its temporary outputs, and exits with
    128 + its number (docs/cli.md, "Exit status").

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the command name (default ``sys.argv[1:]``).

    Returns
    -------
    int
        0 success, 1 ``--verify`` found mismatches, 2 bad input or an output
        that cannot be written (a standard stream included), 3 an internal
        error, 130 interrupted (Ctrl-C).

    Raises
    ------
    SystemExit
        From ``--help``, ``--version`` and bad usage (argparse; status 0 or
        2, or 2 when the help cannot be written), and on a signal that ends a
        process (``128 + n``: 143 for SIGTERM, 129 for SIGHUP), after the
        clean-up.

    Examples
    --------
    >>> main(["fantasyland", "As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c", "--json"])
    {"variant": "pineapple", ...}
    0
    """
    from ofc_fast._process import Streams, stop_on_signals
    argv = sys.argv[1:] if argv is None else list(argv)
    with stop_on_signals() as stopped, Streams() as streams:
        parsed = True
        try:
            status = _run(argv)
        except SystemExit as e:    # argparse: --help, --version (0), bad usage (2)
            if not isinstance(e.code, int) or e.code >= 128:
                raise              # a signal, after the clean-up
            status, parsed = e.code, False
        signum = stopped()
        if signum is not None:     # a stop that came inside a finaliser, where it
            raise SystemExit(128 + signum)   # could not be raised: the run finished
        streams.out.flush()
        streams.err.flush()
        for g in streams.failed():
            if g.broken_pipe:
                continue           # the reader went away: quiet, the status is the run's
            if g is streams.out:
                from ofc_fast.outputs import OutputError
                _err(f"ofc-fast: {OutputError('-', g.error or OSError())}")
            if status in (EXIT_OK, EXIT_MISMATCH):
                status = EXIT_BAD_INPUT
    if not parsed:
        raise SystemExit(status)   # as argparse does
    return status


def _run(argv: list[str]) -> int:
    """Parse and run a command (:func:`main` around it: signals and streams)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    args.status = EXIT_OK
    try:
        if args.command == "score":
            status = _cmd_score(args)
        elif args.command == "show":
            status = _cmd_show(args)
        elif args.command == "fantasyland":
            status = _cmd_fantasyland(args)
        elif args.command == "selfplay":
            status = _cmd_selfplay(args)
        else:
            status = _cmd_report(args)
        return status
    except _Fail as e:
        _err(str(e))
        return e.status
    except Exception as e:  # noqa: BLE001 - sorted below; nothing escapes as a traceback
        return _failed(e, args)
    except KeyboardInterrupt:
        _err("ofc-fast: interrupted")
        return 130


def _failed(e: Exception, args: argparse.Namespace) -> int:
    """The exit status (and the one line on stderr) for an error of a run."""
    from ofc_fast.errors import OFCError, RecordError
    from ofc_fast.io import OutputError
    if isinstance(e, BrokenPipeError) or (isinstance(e, OutputError) and e.broken_pipe and
                                          e.target == "-"):
        _quiet_stdout()            # the reader of stdout went away: stop quietly
        status: int = args.status
        return status
    if isinstance(e, RecordError):
        hint = "\n(use --skip-bad to score the other hands and list the bad ones)" \
            if not getattr(args, "skip_bad", True) else ""
        _err(f"ofc-fast: {e}{hint}")
        return EXIT_BAD_INPUT
    if isinstance(e, OFCError):
        _err(f"ofc-fast: {e}")
        return EXIT_BAD_INPUT
    if isinstance(e, OSError):
        if e.filename is not None and not isinstance(e, OutputError):
            _err(f"ofc-fast: {e.filename}: cannot read: {e.strerror or e}")
        else:
            _err(f"ofc-fast: {e}")
        return EXIT_BAD_INPUT
    if isinstance(e, ImportError):
        _err(f"ofc-fast: {e}")
        return EXIT_BAD_INPUT
    import traceback
    _err(f"ofc-fast: internal error (a bug in ofc-fast; please report it with the command "
         f"that caused it): {type(e).__name__}: {e}")
    if os.environ.get("OFC_FAST_DEBUG"):
        _err("".join(traceback.format_exception(e)))
    return EXIT_INTERNAL


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit cannot fail."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
