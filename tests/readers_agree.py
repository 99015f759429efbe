"""What a reader made of a file, for tests that compare a fast path with the
reader it stands in for (tests/test_io_jsonl.py, tests/test_io_csv.py)."""
from __future__ import annotations

import orjson
from hypothesis import HealthCheck, settings

import fuzz_budget
from ofc_fast.errors import OFCError
from ofc_fast.io.jsonl import chunk_records


def outcome(chunks) -> tuple:
    """({first line of each hand: what it holds and scores, ("error", line):
    messages}, [(hands, records) of each chunk], the error raised or None)."""
    out, sizes = {}, []
    try:
        for c in chunks:
            c.score()
            sizes.append((c.n_hands, c.n_records))
            ids, names, cards = c.hand_ids(), c.names(), c.cards()
            recs = chunk_records(c)
            for h in range(c.n_hands):
                lo, hi = int(c.hand_start[h]), int(c.hand_start[h + 1])
                out[int(c.hand_line[h])] = (
                    repr(ids[h]), c.hand_rules(h)[1:], names[lo:hi], cards[lo:hi].tolist(),
                    [c.line_of(r) for r in range(lo, hi)], c.in_fantasyland[lo:hi].tolist(),
                    c.recorded[lo:hi].tolist(), c.has_recorded[lo:hi].tolist(),
                    [c.discard_ids(r) for r in range(lo, hi)], c.points[lo:hi].tolist(),
                    c.foul[lo:hi].tolist(), orjson.dumps(recs[h], option=orjson.OPT_SORT_KEYS))
            for e in c.errors:
                out.setdefault(("error", e.line), []).append(str(e))
        raised = None
    except OFCError as e:
        raised = f"{type(e).__name__}: {e}"
    return out, sizes, raised


def examples(n: int, derandomize: bool):
    """Hypothesis settings of a comparison: ``n`` examples (fewer in the
    edit-test loop, ``fuzz_budget.examples``)."""
    return settings(max_examples=fuzz_budget.examples(n), deadline=None, derandomize=derandomize,
                    database=None, suppress_health_check=list(HealthCheck))
