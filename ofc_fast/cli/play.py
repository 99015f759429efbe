"""``ofc-fast fantasyland`` (the exact placement of a fantasyland hand) and
``ofc-fast selfplay`` (hands of built-in policies, played in C, written as
records)."""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ofc_fast.cli.common import EXIT_OK, _Fail, _hands, _note, _rules


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

