"""JSON Lines ``ofc-hand/1``: one hand per line (docs/formats.md).

The reader takes the file in blocks of lines, parses each with orjson and
collects a :class:`~ofc_fast.records.Chunk` every ``chunk_size`` hands, so a
file of any size streams in bounded memory.  The writer adds our results to
each player (``points``, ``royalties``, ``foul``, ``fantasyland``) and keeps
every other field of the source record as it was.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

import orjson

from ofc_fast._args import flag
from ofc_fast._scan import FALLBACK, NEW_RULES
from ofc_fast._scan_json import LineScanner
from ofc_fast._write import WriteBuffer, jsonl_lines, jsonl_records
from ofc_fast.errors import RecordError, StateError
from ofc_fast.io._text import byte_blocks, not_utf8
from ofc_fast.io.columns import hand_ids, hand_variants, layout, names, texts, variant_texts
from ofc_fast.io.schema import result_values
from ofc_fast.records import (
    DEFAULT_RULES,
    Chunk,
    ChunkBuilder,
    Rules,
    RulesEntry,
    clip,
    hand_dict,
)
from ofc_fast.records.builder import register_scanned_rules
from ofc_fast.records.chunk import SourceRecords
from ofc_fast.threads import gc_paused

__all__ = ["read_jsonl", "JsonlWriter", "chunk_records", "jsonl_bytes", "MAX_LINE"]

MAX_LINE = 1 << 20
"""The longest JSON Lines line, in bytes (1 MiB, its end included): a longer
line is a bad record.  Reading keeps at most that much of a line
(:func:`~ofc_fast.io._text.byte_blocks`), so memory stays bounded on a line
without end."""


def read_jsonl(f: BinaryIO, *, source: str = "", rules: Rules = DEFAULT_RULES,
               chunk_size: int = 20_000, skip_bad: bool = False, keep_raw: bool = True,
               fast: bool = True) -> Iterator[Chunk]:
    """Validated chunks of up to ``chunk_size`` hands from a JSON Lines file.

    Lines of the common shape are read by a C scanner straight into the
    chunk's columns (:mod:`ofc_fast._scan_json`); every other line is parsed with
    orjson and read by :class:`~ofc_fast.records.ChunkBuilder`, which says what
    is wrong with a bad one.  A UTF-8 byte order mark at the start is skipped.

    Parameters
    ----------
    f : binary file
        The file, opened for reading bytes.
    source : str
        Its name, for messages.
    rules : Rules
        The rules of records that name none (or of all, with ``override``).
    chunk_size : int
        Hands a chunk.
    skip_bad : bool
        Leave bad hands out (listed in each chunk's ``errors``) instead of
        raising at the first (in file order).
    keep_raw : bool
        Keep each hand's source (``chunk.raw``, read on demand) for the JSON
        Lines writer.
    fast : bool
        Use the C scanner; False reads every line with the general reader (the
        reference for tests).

    Yields
    ------
    Chunk
        Validated, in file order; ``chunk.position`` is the bytes read so far.

    Raises
    ------
    RecordError
        Without ``skip_bad``: the first bad record (line, hand, reason).
    FileFormatError
        The file itself: not UTF-8, corrupt or truncated compression.

    Examples
    --------
    >>> import io
    >>> p = '{"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}'
    >>> q = '{"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}'
    >>> line = ('{"id": "h1", "players": [' + p + ", " + q + "]}").encode()
    >>> [c.score().points.tolist() for c in read_jsonl(io.BytesIO(line), source="h.jsonl")]
    [[6, -6]]
    """
    scanner = LineScanner(fast)
    table: list[tuple[int, RulesEntry]] = []   # the scanner's rules k: (Rules id, rules)
    line = 1                  # number of the next line
    done = 0                  # bytes of the blocks before this one

    def new_builder() -> ChunkBuilder:
        return ChunkBuilder(source, rules, strict=False, keep_raw=keep_raw)

    def finish(builder: ChunkBuilder, position: int) -> Chunk:
        cols = scanner.take()
        cols["rules_table"] = table
        chunk = builder.finish(fast=cols, names=scanner.names)
        chunk.position = position
        return chunk.validate(skip_bad)

    builder = new_builder()
    stop = False
    for block in byte_blocks(f, source, max_line=MAX_LINE,
                             starts=_json_start):
        pos, n = 0, len(block)
        while pos < n and not stop:
            # Parsing allocates many small containers and no cycles: the
            # cyclic GC would only rescan them (paused in the main thread)
            with gc_paused():
                while pos < n:
                    room = chunk_size - len(builder) - scanner.n
                    what, pos, end, line = scanner.scan(block, pos, line, room)
                    if what == NEW_RULES:
                        register_scanned_rules(scanner, table, rules)
                        continue
                    if what == FALLBACK:
                        ok = _general_line(builder, block[pos:end], line, source)
                        pos, line = end, line + 1
                        if not ok and not skip_bad:
                            stop = True
                            break
                    if len(builder) + scanner.n >= chunk_size:
                        break
            if len(builder) + scanner.n >= chunk_size:
                yield finish(builder, done + pos)
                builder = new_builder()
        if stop:
            done += pos
            break
        done += n
    if len(builder) or builder.errors or scanner.n:
        yield finish(builder, done)


def _json_start(byte: int) -> str | None:
    """None if ``byte`` can start a JSON Lines record (``{``), else why not."""
    if byte == 0x7B:
        return None
    what = f"{chr(byte)!r}" if 0x20 < byte < 0x7F else f"the byte {byte:#04x}"
    hint = " (a JSON array? write one hand a line)" if byte == 0x5B else \
        " (a binary file, or a stream of zeros?)" if byte < 0x20 or byte >= 0x7F else ""
    return (f"the file starts with {what}, which cannot start a JSON Lines record: each line "
            f"is one JSON object, starting with '{{'{hint}")


def _general_line(builder: ChunkBuilder, raw: bytes, lineno: int, source: str) -> bool:
    """One line through orjson and the general reader; False if it is bad."""
    if len(raw) > MAX_LINE:
        builder.reject(RecordError(
            "bad record", f"the line is longer than {MAX_LINE:,} bytes, the longest a JSON Lines "
            "record may be (a line end missing?)", source=source, line=lineno))
        return False
    try:
        rec = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        if not raw.strip():
            return True
        bad_text = not_utf8(raw, source, lineno)
        if bad_text is not None:
            raise bad_text from None
        builder.reject(RecordError(
            "bad json", f"{clip(e, 120)}; each line must be one JSON object "
            f"(text starts {raw[:40]!r})", source=source, line=lineno))
        return False
    repeated = _repeated_key(raw, rec)
    if repeated is not None:
        key, times, seat = repeated
        hid = rec.get("id") if isinstance(rec, dict) else None
        builder.reject(RecordError("bad record", f"key {key!r} appears {times} times",
                                   source=source, line=lineno, hand_id=hid, seat=seat))
        return False
    return builder.add(rec, lineno)


_KEYS = ("format", "id", "variant", "options", "players", "top", "middle", "bottom", "third",
         "second", "rows", "name", "in_fantasyland", "discards", "points")
"""The keys the reader reads, of a record or of its players."""


class _Object(dict[str, Any]):
    """A JSON object that remembers its first repeated key (and how many times)."""

    repeated: tuple[str, int] | None = None


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object(pairs)
    if len(obj) < len(pairs):
        keys = [k for k, _ in pairs]
        first = next(k for k in keys if keys.count(k) > 1)
        obj.repeated = (first, keys.count(first))
    return obj


def _repeated_key(raw: bytes, rec: object) -> tuple[str, int, int | None] | None:
    """A key the reader reads given more than once in the record's object or
    in one of its players' (orjson keeps the last copy, silently): ``(key,
    times, seat or None)``, else None.

    Cheap first: every key of every object is followed by one colon (and
    a colon elsewhere is inside a string), so a line with no more colons
    than the parsed record, its players and its options hold keys repeats
    none.  Any other line is parsed again, with :mod:`json`, to find which
    object repeats one."""
    if not isinstance(rec, dict):
        return None
    players = rec.get("players")
    options = rec.get("options")
    held = len(rec) + (len(options) if isinstance(options, dict) else 0) + \
        (sum(len(p) for p in players if isinstance(p, dict)) if isinstance(players, list) else 0)
    if raw.count(b":") == held:
        return None
    import json
    try:
        again = json.loads(raw, object_pairs_hook=_object)
    except ValueError:
        return None
    if not isinstance(again, _Object):
        return None
    found: list[tuple[tuple[str, int] | None, int | None]] = [(again.repeated, None)]
    listed = again.get("players")
    if isinstance(listed, list):
        found += [(p.repeated, seat) for seat, p in enumerate(listed) if isinstance(p, _Object)]
    for repeated, seat in found:
        if repeated is not None and repeated[0] in _KEYS:
            return repeated[0], repeated[1], seat
    return None


def chunk_records(chunk: Chunk, scored: bool | None = None) -> list[dict[str, Any]]:
    """The hands of a chunk as ``ofc-hand/1`` dicts, with our results if scored.

    The reference of the JSON Lines writer (:class:`JsonlWriter` writes these
    dicts' ``orjson.dumps`` from the chunk's columns and source lines
    directly).  Source dicts (``chunk.raw``) are updated in place and reused,
    so fields the format does not know survive a round trip.  Per player, a
    scored chunk sets the result columns of :mod:`ofc_fast.io.schema` in their
    order: ``points`` (ours), ``royalties``, ``foul``, ``fantasyland`` and,
    where the recorded points differ, ``recorded_points``.

    Parameters
    ----------
    chunk : Chunk
        The hands.
    scored : bool, optional
        Add the results (default: when the chunk is scored).

    Returns
    -------
    list of dict

    Raises
    ------
    StateError
        ``scored`` is True for a chunk that is not scored.

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d",
    ...      "points": -5}
    >>> rec = chunk_records(chunk_from_records([{"id": 1, "players": [p, q]}]).score())[0]
    >>> {k: rec["players"][1][k] for k in ("points", "royalties", "recorded_points")}
    {'points': -6, 'royalties': 22, 'recorded_points': -5}
    """
    return _records_of(chunk, range(chunk.n_hands), scored)


def _records_of(chunk: Chunk, hands: Iterable[int], scored: bool | None = None
                ) -> list[dict[str, Any]]:
    """:func:`chunk_records` of some hands."""
    scored = chunk.points is not None if scored is None else scored
    starts = chunk.hand_start.tolist()
    res = result_values(chunk) if scored else {}
    results = [(name, values.tolist()) for name, (values, _) in res.items()
               if name not in _OPTIONAL_RESULTS]
    sub_text, sub_held = res["substitutes"] if scored else (None, None)
    valid = res["recorded_points"][1] if scored else None
    differ = [] if valid is None else valid.tolist()
    rec_pts = chunk.recorded.tolist()
    has_rec = chunk.has_recorded.tolist()
    raw = chunk.raw
    variants = chunk.variants
    hv = chunk.hand_variant
    out = []
    ids: list[Any] = []
    names: list[Any] = []
    fl: list[int] = []
    cards: list[list[int]] = []
    disc_off: list[int] = []
    disc_ids: list[int] = []
    disc = chunk.discards
    if raw is None:
        ids, names = chunk.hand_ids(), chunk.names()
        fl, cards = chunk.in_fantasyland.tolist(), chunk.cards().tolist()
        if disc is not None:
            disc_off, disc_ids = disc[0].tolist(), disc[1].tolist()
    for h in hands:
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
        else:
            hi = starts[h + 1]
            rec = hand_dict(v, cards[lo:hi], id=ids[h], names=names[lo:hi],
                            in_fantasyland=fl[lo:hi],
                            discards=None if disc is None else
                            [disc_ids[disc_off[r]:disc_off[r + 1]] for r in range(lo, hi)],
                            points=[rec_pts[r] if has_rec[r] else None for r in range(lo, hi)],
                            variant_name=vname, options=opts)
        if scored:
            for r, p in enumerate(rec["players"], lo):
                for name, values in results:
                    p[name] = values[r]
                if differ[r]:
                    p["recorded_points"] = rec_pts[r]
                if sub_held is not None and sub_text is not None and sub_held[r]:
                    p["substitutes"] = sub_text[r]      # a player with a joker
                else:                                   # ours replace the source's
                    p.pop("substitutes", None)
        out.append(rec)
    return out


_OPTIONAL_RESULTS = ("recorded_points", "substitutes")
"""The results written only where they say something (given to the C
writers apart: :func:`_results_of`)."""


def _results_of(chunk: Chunk) -> tuple[Any, ...]:
    """The results the C writers take: ``(points, royalties, foul,
    fantasyland)``, then the texts of the jokers' substitutes and each row's
    (0: no joker) when a hand deals jokers."""
    res = tuple(values for name, (values, _) in result_values(chunk).items()
                if name not in _OPTIONAL_RESULTS)
    if chunk.substitutes is None:
        return res
    codes, subs = chunk.substitute_codes()
    return (*res, texts([None, *subs[1:]], "json")[0], codes)


def _results_records(chunk: Chunk, hands: Iterable[int] | None = None) -> list[dict[str, Any]]:
    """Per hand: ``{"id", "variant", "players": [{"name", "points", "royalties",
    "foul", "fantasyland"[, "recorded_points"][, "substitutes"]}]}`` (results
    only, no cards; the reference of ``JsonlWriter(results_only=True)``)."""
    starts = chunk.hand_start.tolist()
    ids = chunk.hand_ids()
    names = chunk.names()
    res = {name: (values.tolist(), None if valid is None else valid.tolist())
           for name, (values, valid) in result_values(chunk).items()}
    out = []
    for h in range(chunk.n_hands) if hands is None else hands:
        players = []
        for r in range(starts[h], starts[h + 1]):
            p = {"name": names[r]}
            for name, (values, valid) in res.items():
                if valid is None or valid[r]:
                    p[name] = values[r]
            players.append(p)
        out.append({"id": ids[h], "variant": chunk.hand_rules(h)[1], "players": players})
    return out


def jsonl_bytes(chunk: Chunk, results_only: bool = False, out: WriteBuffer | None = None
                ) -> bytes | WriteBuffer:
    """The JSON Lines of a chunk's hands, as :class:`JsonlWriter` writes them.

    One pass of C over the chunk's columns (:mod:`ofc_fast._write`): hands
    read from JSON Lines are their source lines with our results added
    (white space dropped, every other value as it was); other hands are
    written as :func:`~ofc_fast.records.hand_dict` records.  The bytes are
    those of ``orjson.dumps`` of :func:`chunk_records`, each line ending in
    a line break; a source line the C pass cannot copy exactly (an escape
    in a string, a float, a key twice, ``options``) is written that way.

    Parameters
    ----------
    chunk : Chunk
        The hands (with our results if scored).
    results_only : bool
        For a scored chunk, one line per hand with keys and results only.
    out : WriteBuffer, optional
        A buffer to write into (reused by a writer from chunk to chunk).

    Returns
    -------
    bytes or WriteBuffer
        The lines (``out`` if given).

    Raises
    ------
    MemoryError
        No memory for the output.
    orjson.JSONEncodeError
        A value orjson cannot write (an id that is an integer beyond 64 bits).

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> chunk = chunk_from_records([{"id": 1, "players": [p, q]}]).score()
    >>> jsonl_bytes(chunk, results_only=True)[-73:]
    b'{"name":null,"points":-6,"royalties":22,"foul":false,"fantasyland":14}]}\\n'
    """
    scored = chunk.points is not None
    results = _results_of(chunk) if scored else None
    raw = chunk.raw
    if results_only and scored:
        return _generated(chunk, results, True, out)
    if raw is None:
        return _generated(chunk, results, False, out)
    if not isinstance(raw, SourceRecords) or chunk.n_hands == 0:
        return _dumps(_records_of(chunk, range(chunk.n_hands)))
    where = raw.where
    if raw.items.count(None) != len(raw.items):    # some read (and maybe changed) already
        where = where.copy()
        where[[h for h, x in enumerate(raw.items) if x is not None], 0] = -1
    vnames, vopts = variant_texts(chunk, "json")
    data, ends, left = jsonl_lines(raw.blocks, where, chunk.hand_start, hand_variants(chunk),
                                   vnames, vopts, chunk.recorded, chunk.has_recorded, results,
                                   out=out, splice=raw.splice)
    if not len(left):
        return data
    lines = _dumps(_records_of(chunk, left.tolist())).splitlines(keepends=True)
    view = memoryview(data)
    parts: list[Any] = []
    at = 0
    for h, line in zip(left.tolist(), lines, strict=True):
        end = int(ends[h])
        parts += [view[at:end], line]
        at = end
    parts.append(view[at:])
    joined = b"".join(parts)
    parts.clear()
    view.release()
    return joined


def _dumps(records: list[dict[str, Any]]) -> bytes:
    """``orjson.dumps`` of each record, a line each (the cyclic GC paused in the
    main thread)."""
    dumps = orjson.dumps
    with gc_paused():
        return b"".join([dumps(r) + b"\n" for r in records])


def _generated(chunk: Chunk, results: tuple[Any, ...] | None,
               results_only: bool, out: WriteBuffer | None) -> bytes | WriteBuffer:
    """Records written from the columns (:func:`ofc_fast._write.jsonl_records`)."""
    ids, id_ix = hand_ids(chunk, "json")
    nm, name_ix = names(chunk, "json")
    vnames, vopts = variant_texts(chunk, "json")
    cards, spec = layout(chunk)
    return jsonl_records(
        ids, id_ix, nm, name_ix, vnames, vopts, chunk.hand_start, hand_variants(chunk), cards, spec,
        chunk.discards, chunk.in_fantasyland, chunk.recorded, chunk.has_recorded, results,
        results_only, out=out)


class JsonlWriter:
    """Write chunks (scored or not) as JSON Lines ``ofc-hand/1`` to a binary file.

    Each chunk is formatted in one pass (:func:`jsonl_bytes`) and written
    with one call.

    Parameters
    ----------
    f : binary file
        Where the lines go.
    results_only : bool
        For scored chunks, one line per hand with the results but no cards:
        ``{"id", "variant", "players": [{"name", "points", "royalties", "foul",
        "fantasyland"}]}``.

    Examples
    --------
    >>> import io
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> out = io.BytesIO()
    >>> JsonlWriter(out, results_only=True).write(
    ...     chunk_from_records([{"id": 1, "players": [p, q]}]).score())
    >>> out.getvalue()[:60]
    b'{"id":1,"variant":"pineapple","players":[{"name":null,"point'
    """

    def __init__(self, f: BinaryIO, results_only: bool = False):
        self.f = f
        self.results_only = flag(results_only, "results_only")
        self.out = WriteBuffer()
        self.closed = False

    def write(self, chunk: Chunk) -> None:
        """Write the hands of a chunk, one line each.

        Parameters
        ----------
        chunk : Chunk
            The hands (with our results if scored).

        Raises
        ------
        StateError
            The writer is closed.
        """
        if self.closed:
            raise StateError("write() after close(): the writer is closed")
        data = jsonl_bytes(chunk, self.results_only, out=self.out)
        if len(data):
            self.f.write(data)

    def close(self) -> None:
        """Nothing to finish: every chunk is written whole (no more are taken)."""
        self.closed = True
