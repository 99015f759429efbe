"""What the ``ofc-fast`` commands share: the exit statuses, the stop with a
message and a status, the rules of the rules options, lines on stderr."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ofc_fast.records import Rules

EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class _Fail(Exception):
    """Stop with a message and an exit status."""

    def __init__(self, message: str, status: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.status = status


def _rules(args: argparse.Namespace) -> Rules:
    from ofc_fast.errors import RulesError
    from ofc_fast.records import Rules, clip
    options = dict(args.option) or None
    jokers = joker_options(args)
    if jokers:
        options = {**(options or {}), **jokers}
    rules = Rules(args.variant or "pineapple", options,
                  override=getattr(args, "override", False))
    try:
        rules.resolve(None, None)       # variant() and one test table, as for a record
    except RulesError as e:
        raise _Fail(f"ofc-fast: unknown variant or option: {clip(e)}") from None
    return rules



def joker_options(args: argparse.Namespace) -> dict[str, object]:
    """The joker options given on the command line (``--jokers``,
    ``--joker-cards``, ``--joker-objective``, ``--joker-top-natural``), by
    their option names; those not given are left out, and so is
    ``--jokers 0``, the default (a record's rules keep their defaults, and
    no ``"jokers": 0`` is written into records)."""
    from ofc_fast.rule_options import JOKER_OPTIONS
    given = {key: getattr(args, key, None) for key in JOKER_OPTIONS}
    return {key: x for key, x in given.items()
            if x is not None and not (key == "jokers" and x == 0)}


def _note(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        _err(text)


def _err(text: str) -> None:
    """A line on stderr; a closed stderr is not worth a traceback."""
    try:
        print(text, file=sys.stderr)
    except (OSError, ValueError):
        pass



def _hands(n: int) -> str:
    return f"{n:,} hand{'s' if n != 1 else ''}"

