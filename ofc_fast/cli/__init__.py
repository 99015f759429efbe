"""The ``ofc-fast`` command: score, verify, show and report recorded hands, and play
new ones (``selfplay``).  A package of one concern each: the parser
(:mod:`~ofc_fast.cli.parser`), what the commands share (``common``), ``score``
and ``report`` (``score``), ``show``, ``fantasyland`` and ``selfplay``
(``play``); this module runs a command and turns what it raised into one line
and an exit status.

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
import sys
from collections.abc import Sequence

from ofc_fast.cli.common import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_MISMATCH, EXIT_OK, _err, _Fail
from ofc_fast.cli.parser import build_parser
from ofc_fast.cli.play import _cmd_fantasyland, _cmd_selfplay
from ofc_fast.cli.score import _cmd_report, _cmd_score
from ofc_fast.cli.show import _cmd_show
from ofc_fast.cli.show import foul_reason as foul_reason  # deprecated (0.3), kept here

__all__ = ["main", "build_parser"]


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

