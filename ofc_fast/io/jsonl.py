"""JSON Lines ``ofc-hand/1``: one hand per line (docs/formats.md).

The reader takes the file in blocks of lines, parses each with orjson and
collects a :class:`~ofc_fast.records.Chunk` every ``chunk_size`` hands, so a
file of any size streams in bounded memory.  The writer adds our results to
each player (``points``, ``royalties``, ``foul``, ``fantasyland``) and keeps
every other field of the source record as it was.
"""
from __future__ import annotations

import gc

import orjson

from ofc_fast.io._text import line_blocks, not_utf8
from ofc_fast.records import (DEFAULT_RULES, FORMAT, ChunkBuilder, HandError, Rules, clip,
                              format_row)

__all__ = ["read_jsonl", "JsonlWriter", "chunk_records"]

def read_jsonl(f, *, source: str = "", rules: Rules = DEFAULT_RULES, chunk_size: int = 20_000,
               skip_bad: bool = False, keep_raw: bool = True):
    """Yield validated :class:`Chunk`\\ s of up to ``chunk_size`` hands from a binary file.

    Without ``skip_bad`` the first bad record (in file order) raises
    :class:`HandError`; with it, bad hands are left out and listed in each
    chunk's ``errors``.  A problem with the file itself (not UTF-8, corrupt
    or truncated compression) raises :class:`FileFormatError` either way.
    A UTF-8 byte order mark at the start is skipped.
    """
    loads = orjson.loads
    JSONDecodeError = orjson.JSONDecodeError
    lineno = nbytes = 0
    gc_was = gc.isenabled()
    try:
        builder = ChunkBuilder(source, rules, strict=False, keep_raw=keep_raw)
        add, hands = builder.add, builder.hand_id
        stop = False
        blocks = line_blocks(f, source)
        while not stop:
            lines = next(blocks, None)
            if lines is None:
                break
            # Parsing allocates many small containers and no cycles: the cyclic
            # GC would only rescan them (about twice the parse time), so pause it.
            gc.disable()
            for raw in lines:
                lineno += 1
                nbytes += len(raw)
                try:
                    rec = loads(raw)
                except JSONDecodeError as e:
                    if not raw.strip():
                        continue
                    bad_text = not_utf8(raw, source, lineno)
                    if bad_text is not None:
                        raise bad_text from None
                    builder.reject(HandError(
                        "bad json", f"{clip(e, 120)}; each line must be one JSON object "
                        f"(text starts {raw[:40]!r})", source=source, line=lineno))
                    if not skip_bad:
                        stop = True
                        break
                    continue
                if not add(rec, lineno) and not skip_bad:
                    stop = True
                    break
                if len(hands) >= chunk_size:
                    if gc_was:
                        gc.enable()
                    chunk = builder.finish()
                    chunk.position = nbytes
                    yield chunk.validate(skip_bad)
                    gc.disable()
                    builder = ChunkBuilder(source, rules, strict=False, keep_raw=keep_raw)
                    add, hands = builder.add, builder.hand_id
            if gc_was:
                gc.enable()
        if gc_was:
            gc.enable()
        if len(builder) or builder.errors:
            chunk = builder.finish()
            chunk.position = nbytes
            yield chunk.validate(skip_bad)
    finally:
        if gc_was:
            gc.enable()


def chunk_records(chunk, scored: bool | None = None):
    """The hands of a chunk as ``ofc-hand/1`` dicts (with our results if scored).

    Source dicts (``chunk.raw``) are updated in place and reused, so fields the
    format does not know survive a round trip.
    """
    scored = chunk.points is not None if scored is None else scored
    H = chunk.n_hands
    starts = chunk.hand_start.tolist()
    if scored:
        pts, roy = chunk.points.tolist(), chunk.royalties.tolist()
        foul, fan = chunk.foul.tolist(), chunk.fantasyland.tolist()
    rec_pts = chunk.recorded.tolist()
    has_rec = chunk.has_recorded.tolist()
    raw = chunk.raw
    variants = chunk.variants
    hv = chunk.hand_variant
    out = []
    if raw is None:
        ids = chunk.hand_ids()
        names = chunk.names()
        fl = chunk.in_fantasyland.tolist()
        cards = chunk.cards().tolist()
        disc = chunk.discards
    for h in range(H):
        v, vname, opts = variants[hv[h]]
        lo = starts[h]
        if raw is not None:
            rec = raw[h]
            if rec.get("variant") != vname or rec.get("options") != opts:
                rec["variant"] = vname
                if opts:
                    rec["options"] = opts
                else:
                    rec.pop("options", None)
            players = rec["players"]
        else:
            rec = {"format": FORMAT, "id": ids[h], "variant": vname}
            if opts:
                rec["options"] = opts
            players = []
            hi = starts[h + 1]
            for r in range(lo, hi):
                p = {} if names[r] is None else {"name": names[r]}
                c = cards[r]
                pos = 0
                for row, size in zip(v.row_names, v.row_sizes):
                    p[row] = format_row(c[pos:pos + size])
                    pos += size
                if fl[r]:
                    p["in_fantasyland"] = fl[r]
                if disc is not None and disc[0][r + 1] > disc[0][r]:
                    p["discards"] = format_row(disc[1][disc[0][r]:disc[0][r + 1]].tolist())
                if has_rec[r]:
                    p["points"] = rec_pts[r]
                players.append(p)
            rec["players"] = players
        if scored:
            r = lo
            for p in players:
                x = pts[r]
                if rec_pts[r] != x and has_rec[r]:
                    p["recorded_points"] = rec_pts[r]
                p["points"] = x
                p["royalties"] = roy[r]
                p["foul"] = foul[r]
                p["fantasyland"] = fan[r]
                r += 1
        out.append(rec)
    return out


def chunk_results(chunk):
    """Per hand: ``{"id", "variant", "players": [{"name", "points", "royalties",
    "foul", "fantasyland"}]}`` (results only, no cards)."""
    starts = chunk.hand_start.tolist()
    ids = chunk.hand_ids()
    names = chunk.names()
    pts, roy = chunk.points.tolist(), chunk.royalties.tolist()
    foul, fan = chunk.foul.tolist(), chunk.fantasyland.tolist()
    rec, has = chunk.recorded.tolist(), chunk.has_recorded.tolist()
    out = []
    for h in range(chunk.n_hands):
        players = []
        for r in range(starts[h], starts[h + 1]):
            p = {"name": names[r], "points": pts[r], "royalties": roy[r], "foul": foul[r],
                 "fantasyland": fan[r]}
            if has[r] and rec[r] != pts[r]:
                p["recorded_points"] = rec[r]
            players.append(p)
        out.append({"id": ids[h], "variant": chunk.hand_rules(h)[1], "players": players})
    return out


class JsonlWriter:
    """Write chunks (scored or not) as JSON Lines ``ofc-hand/1`` to a binary file.

    ``results_only``: one line per hand with the results but no cards."""

    def __init__(self, f, results_only: bool = False):
        self.f = f
        self.results_only = results_only

    def write(self, chunk):
        dumps = orjson.dumps
        was = gc.isenabled()
        gc.disable()
        try:
            recs = chunk_results(chunk) if self.results_only and chunk.points is not None \
                else chunk_records(chunk)
            data = b"\n".join([dumps(r) for r in recs])
        finally:
            if was:
                gc.enable()
        if recs:
            self.f.write(data + b"\n")

    def close(self):
        pass

