"""``ofc-fast show``: a layout, a table of layouts or a recorded hand as text
(rows, hand names, royalties, fouls and why, fantasyland, points), coloured
or not."""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ofc_fast.cli.common import EXIT_OK, _Fail, _rules

if TYPE_CHECKING:
    from ofc_fast.rules import Variant


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

    from ofc_fast.cards import EMPTY, JOKER, format_cards, is_joker
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
            text = format_cards(cards, colour=colour, symbols=symbols)
            if v.jokers and any(map(is_joker, cards)):      # a resolved joker: *Q♥
                subs = ev.substitutes[p].tolist()
                text = " ".join(
                    "*" + str(format_cards([subs[c - JOKER]], colour=colour, symbols=symbols))
                    if is_joker(c) and subs[c - JOKER] != EMPTY else
                    str(format_cards([c], colour=colour, symbols=symbols)) for c in cards)
            # (a resolved joker's '*' takes a column of the padding)
            texts.append((row, text, 3 * (5 - len(cards)) - sum(map(is_joker, cards)),
                          describe_strength(int(ev.strengths[p, r])), int(ev.royalties[p, r])))
        for row, text, k, name, roy in texts:
            pad = " " * max(1, 3 + k)
            print(f"  {row:<{width}}  {text}{pad}{name:<42} {roy:>3}", file=out)
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

