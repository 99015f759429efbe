"""The ``ofc-fast`` command's argument parser: its subcommands, their options,
their help texts and the argparse types that check the options' values."""
from __future__ import annotations

import argparse
from typing import Any

import orjson

from ofc_fast.cards import MAX_JOKERS
from ofc_fast.errors import shorten
from ofc_fast.variants import JOKER_CARDS, JOKER_OBJECTIVES

__all__ = ["build_parser", "IntRange"]

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


class IntRange:
    """An integer option's type: ``lo`` .. ``hi`` (no ``hi``: no upper
    bound of the command's own; the library's checks then apply).  Anything
    else is a usage error (exit status 2) that quotes the value, before
    any work starts and before a number reaches a kernel that could not
    hold it.

    Parameters
    ----------
    lo : int
        The least value.
    hi : int, optional
        The greatest value.

    Examples
    --------
    >>> IntRange(0, 255)("12")
    12
    >>> IntRange(0, 255)("300")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an integer 0 .. 255, got '300'
    """

    def __init__(self, lo: int, hi: int | None = None):
        self.lo, self.hi = lo, hi

    def __call__(self, text: str) -> int:
        try:
            n = int(text)
        except ValueError:              # not an integer (or more digits than int() reads)
            n = None
        if n is None or n < self.lo or (self.hi is not None and n > self.hi):
            want = f"{self.lo:,} .. {self.hi:,}" if self.hi is not None else \
                f">= {self.lo:,}"
            raise argparse.ArgumentTypeError(f"expected an integer {want}, got {shorten(text)}")
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
    _add_joker_options(g)
    if records:
        g.add_argument("--override", action="store_true",
                       help="apply --variant/--option to every record, whatever it names")


def _add_joker_options(g: Any) -> None:
    """The joker options of a command's rules group (docs/jokers.md)."""
    g.add_argument("--jokers", type=IntRange(0, MAX_JOKERS), default=None, metavar="N",
                   help="jokers in the deck, 0-2 (docs/jokers.md; the option jokers=N)")
    g.add_argument("--joker-cards", choices=JOKER_CARDS, default=None,
                   help="what a joker may stand for (default row)")
    g.add_argument("--joker-objective", choices=JOKER_OBJECTIVES, default=None,
                   help="how a board's jokers are resolved once no foul is forced "
                        "(default fantasyland)")
    g.add_argument("--joker-top-natural", action="store_const", const=True, default=None,
                   help="a pair or trips on top pays and earns fantasyland only with a "
                        "natural card of its rank")


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
    from ofc_fast.io.readers import MAX_CHUNK
    p.add_argument("file", nargs=nargs, metavar="FILE", default=None,
                   help=f"hands file ({_extensions()}; '-' = {_pipe()} on stdin); "
                        "default: stdin when data is piped in, else the bundled sample")
    p.add_argument("--input-format", choices=_formats(), default=None,
                   help=f"input format: {_format_list()} (default: from the extension)")
    p.add_argument("--skip-bad", action="store_true",
                   help="skip bad records (and say how many and why) instead of stopping")
    p.add_argument("--chunk-size", type=IntRange(1, MAX_CHUNK), default=None, metavar="N",
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
    from ofc_fast.records.model import NUMBER_BOUNDS
    FL_BOUNDS = NUMBER_BOUNDS["in_fantasyland"]     # a uint8: the k-th hand in a row
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
    sh.add_argument("--index", type=IntRange(0), default=None,
                    help="with a file: the hand at this position (0 = first)")
    sh.add_argument("--in-fantasyland", type=IntRange(*FL_BOUNDS), nargs="*", default=None,
                    metavar="K",
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
    fl.add_argument("--in-fantasyland", type=IntRange(1, FL_BOUNDS[1]), default=1, metavar="K",
                    help="this hand's number in a run of fantasyland hands (default 1); past "
                         "the variant's repeat limit no repeat is possible")
    fl.add_argument("--json", action="store_true", help="print the result as JSON")
    _add_rules(fl, records=False)
    _add_selfplay(sub)
    return parser



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
    from ofc_fast._args import MAX_THREADS
    sp = sub.add_parser("selfplay", formatter_class=_Formatter, epilog=_EPILOG_SELFPLAY,
                        help="play hands of built-in policies in C and write them as records",
                        description="Play hands of OFC between built-in policies (many games "
                                    "at once, in C) and write them as ofc-hand/1 records: "
                                    "layouts, discards, fantasyland, points.")
    sp.add_argument("variant", nargs="?", default="pineapple", metavar="VARIANT",
                    help="the variant (default: pineapple); --option sets its options")
    sp.add_argument("--hands", type=IntRange(0), required=True, metavar="N",
                    help="hands to play (0: an empty file of the format)")
    sp.add_argument("--players", type=IntRange(1), default=None, metavar="P",
                    help="players at each table (default: one per --policy, else 2)")
    sp.add_argument("--policy", type=_policy_arg, action="append", default=None,
                    metavar="NAME[:K=V,...]",
                    help="a seat's policy (repeat per seat; one for every seat; default random)")
    sp.add_argument("--seed", type=IntRange(0), default=None,
                    help="seed (default: fresh entropy)")
    sp.add_argument("--games", type=IntRange(1), default=None, metavar="G",
                    help="games side by side, each a match (default min(N, 10000))")
    sp.add_argument("--threads", type=IntRange(1, MAX_THREADS), default=None, metavar="T",
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
    _add_joker_options(g)

