"""Building chunks from records: :class:`ChunkBuilder` checks each
``ofc-hand/1`` dict's shape as it is added and turns the card text of a
whole chunk into card ids at once (plain ``"Ks Qd 2c"`` text in one pass of
the C card scanner, anything else by the grammar's reader, :mod:`ofc_fast.cards`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, Protocol, cast

import numpy as np
import orjson

from ofc_fast._cards import decode_cells
from ofc_fast.cards import EMPTY, NEXT_JOKER, format_row, number_jokers, parse_card_list, split_rows
from ofc_fast.errors import CardError, RecordError, shorten
from ofc_fast.records.chunk import Chunk, Group, SourceRecords
from ofc_fast.records.model import (
    BOUNDS_TEXT,
    DEFAULT_RULES,
    FORMAT,
    NUMBER_BOUNDS,
    Rules,
    RulesEntry,
    clip,
    describe_cards,
    integer_value,
    rows_disagreement,
)
from ofc_fast.rules import Variant

RowsOf = Callable[[Any], tuple[Any, ...]]
Info = tuple[Variant, int, int, RowsOf]


class RulesScanner(Protocol):
    """What :func:`register_scanned_rules` asks of a scanner.

    The C scanners of ``ofc_fast._scan_json`` and ``ofc_fast._scan_csv`` (which sit
    above this layer) have it.

    Examples
    --------
    >>> from ofc_fast._scan_json import LineScanner
    >>> scanner: RulesScanner = LineScanner()
    >>> scanner.full
    False
    """

    @property
    def full(self) -> bool: ...

    def rules_text(self) -> tuple[bytes | None, bytes | None]: ...

    def add_rules(self, variant: bytes | None, options: bytes | None, rules_id: int,
                  min_players: int, max_players: int) -> bool:
        """Give the scanner the rules of a variant and options text.

        Parameters
        ----------
        variant : bytes or None
            The variant as written.
        options : bytes or None
            The options as written (JSON).
        rules_id : int
            The index in the reader's rules table, -1: not read by the scanner.
        min_players : int
            Players the rules allow, at least.
        max_players : int
            Players the rules allow, at most.
        """
        ...

__all__ = ["ChunkBuilder", "chunk_from_records", "register_scanned_rules"]


class _Acc:
    """The hands of one (rules, player count) group: canonical text of the hands
    whose rows are plain ``Ks Qd 2c`` text (decoded at finish, vectorised), and
    card ids of the others (read token by token when added)."""
    __slots__ = ("variant", "P", "hands", "canon", "text", "text_pos", "special")

    def __init__(self, variant: Variant, P: int):
        self.variant, self.P = variant, P
        self.hands: list[int] = []
        self.canon = tuple(_ROW_CHARS[k] for k in variant.row_sizes) * P
        self.text: list[str] = []             # hand text
        self.text_pos: list[int] = []         # its position in the group
        self.special: dict[int, list[int]] = {}   # position in the group -> card ids


def _decode_text(text: str, per: int, layout: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Card ids of ``"Ks Qd 2c ..."`` ASCII text in cells of ``per`` cards (two
    characters a card, one space after each but the last), by the C card
    scanner (``ofc_fast._cards.decode_cells``) in one pass; and per cell
    whether it is not that plain form (its ids are then not to be used).
    ``layout``: each ``Xj`` is numbered within each run of that many cards
    (a player's layout; 0: within the cell).

    A cell the scanner reads as exactly ``per`` cards with a space after every
    two characters holds ``per`` two-character tokens, each one card."""
    data = np.frombuffer((text + " ").encode("ascii"), np.uint8)
    n = len(data) // (3 * per)
    ids = np.empty((n, per), np.uint8)
    ok = np.empty(n, np.uint8)
    decode_cells(data, np.arange(0, 3 * per * (n + 1), 3 * per, dtype=np.int64), per, ids, ok,
                 layout)
    bad = (ok == 0) | (data.reshape(n, 3 * per)[:, 2::3] != 32).any(axis=1)
    return ids.reshape(-1), bad




def _row_marked(cards: object) -> list[int]:
    """Card ids of one row (text or a list of cards), each ``Xj`` left as
    :data:`~ofc_fast.cards.NEXT_JOKER` for :func:`layout_ids` to number."""
    from ofc_fast.layouts import _row_ids
    if isinstance(cards, str):
        ids = list(_row_ids(cards))
        # an empty slot is no card here: the grammar's reader says so
        return ids if EMPTY not in ids else parse_card_list(cards)
    if isinstance(cards, (list, tuple)):
        return [NEXT_JOKER if isinstance(x, str) and x.strip().lower() == "xj" else
                parse_card_list([x])[0] for x in cards]
    return parse_card_list(cards)


def layout_ids(rows: Sequence[object]) -> list[list[int]]:
    """Card ids of a player's rows, each ``Xj`` the lowest joker the layout
    does not name otherwise, across its rows (as
    :func:`ofc_fast.parse_layout` numbers them; the C readers the same way).

    Parameters
    ----------
    rows : sequence
        The rows in order, each card text or a list of cards.

    Returns
    -------
    list of list of int

    Raises
    ------
    CardError
        An unknown card or a third joker.

    Examples
    --------
    >>> layout_ids(["Xj 2c 3c", "Xj As Ks Qs Js"])
    [[52, 0, 4], [53, 51, 47, 43, 39]]
    >>> layout_ids(["X2 Xj 3c", "Xj As Ks Qs Js"])
    Traceback (most recent call last):
    ...
    ofc_fast.errors.CardError: Xj at position 3 of 'X2 Xj 3c / Xj As Ks Qs Js' is a third joker; ...
    """
    marked = [_row_marked(r) for r in rows]
    flat = [c for r in marked for c in r]
    if NEXT_JOKER in flat:
        flat = list(number_jokers(flat, " / ".join(map(str, rows))))
        out, k = [], 0
        for r in marked:
            out.append(flat[k:k + len(r)])
            k += len(r)
        return out
    return marked


_ROWS_OF: dict[int, RowsOf] = {3: itemgetter("top", "middle", "bottom"),
                               4: itemgetter("top", "third", "second", "bottom")}
_OPTIONAL = ("in_fantasyland", "points", "name", "discards")
_ROW_CHARS = {3: 8, 5: 14}   # canonical text length of a 3- and a 5-card row


class ChunkBuilder:
    """Collects records (``ofc-hand/1`` dicts) into a :class:`~ofc_fast.records.Chunk`.

    ``add(record, line)`` checks the record's shape and keeps each player's row
    text; :meth:`finish` turns all the text of a group into card ids at once
    (one split and one dict look-up per token, in C loops).  Anything unusual
    (lists, compact text, one-string rows, bad input) takes the tolerant path,
    which either reads it or says what is wrong as a :class:`RecordError`
    naming file, line, hand, seat, row and card.

    Parameters
    ----------
    source : str
        The file, for messages.
    rules : Rules
        The rules of records that name none (or of all, with ``override``).
    strict : bool
        Raise the first record-level error at once; otherwise errors are
        collected in ``errors`` and bad hands left out of the chunk.
    keep_raw : bool
        Keep each record (``Chunk.raw``), for the JSON Lines writer.

    Examples
    --------
    >>> b = ChunkBuilder("hands.jsonl", strict=False)
    >>> b.add({"players": [{"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d",
    ...                     "bottom": "7h 7d 7c 7s 2d"},
    ...                    {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d",
    ...                     "bottom": "Tc Td Ts Th 8d"}]}, 1)
    True
    >>> b.add({"players": "nobody"}, 2)
    False
    >>> chunk = b.finish()
    >>> chunk.n_hands, [e.reason for e in chunk.errors]
    (1, ['bad record'])
    """

    def __init__(self, source: str = "", rules: Rules = DEFAULT_RULES, *, strict: bool = True,
                 keep_raw: bool = False):
        self.source, self.rules, self.strict, self.keep_raw = source, rules, strict, keep_raw
        self.accs: dict[int, _Acc] = {}
        self.variants: list[RulesEntry] = []
        self._vindex: dict[int, int] = {}
        self._info: dict[int, Info] = {}
        self._last_name: object = None
        self._last: tuple[int, Info] | None = None
        self.hand_id: list[Any] = []
        self.hand_line: list[int | None] = []
        self.hand_variant: list[int] = []
        self.hand_start = [0]
        self.opt: list[Any] = []  # per player: in_fantasyland, points, name, discards
        self.raw: list[Any] | None = [] if keep_raw else None
        self.errors: list[RecordError] = []
        self.n_rows = 0
        self.records = 0          # records read: added, or rejected with an error

    def __len__(self) -> int:
        return len(self.hand_id)

    def fail(self, err: RecordError) -> None:
        """Keep the error of a record (raise it when strict).

        Parameters
        ----------
        err : RecordError
            What is wrong.
        """
        if self.strict:
            raise err
        self.errors.append(err)

    def reject(self, err: RecordError) -> None:
        """A record that could not even be read (bad JSON ...): counted, and its
        error kept (raised when strict).

        Parameters
        ----------
        err : RecordError
            What is wrong.
        """
        self.records += 1
        self.fail(err)

    def add(self, rec: object, line: int | None = None) -> bool:
        """Add one record.

        Parameters
        ----------
        rec : mapping
            The record.
        line : int, optional
            Its line, for messages.

        Returns
        -------
        bool
            False if it is bad (its error is kept, or raised when strict).
        """
        self.records += 1
        try:
            self._add(rec, line)
            return True
        except RecordError as e:
            self.fail(e)
            return False

    def _add(self, rec: Any, line: int | None) -> None:
        src = self.source
        if rec.__class__ is not dict:
            if not isinstance(rec, Mapping):
                raise RecordError("bad record", f"a hand record is a JSON object, got "
                                f"{type(rec).__name__}", source=src, line=line)
            rec = dict(rec)
        rget = rec.get
        hid = rget("id")
        if hid is not None and hid.__class__ is not str and hid.__class__ is not int:
            _check_id(hid, src, line)
        fmt = rget("format")
        if fmt is not None and fmt != FORMAT:
            raise RecordError("bad record", f"unsupported format {shorten(fmt)}; this reader knows "
                            f"{FORMAT!r}",
                            source=src, line=line, hand_id=hid)
        vname = rget("variant")
        opts = rget("options")
        if opts is None and vname == self._last_name and self._last is not None:
            rid, info = self._last
        else:
            try:
                rid, rules = self.rules.resolve_id(vname, opts)
            except Exception as e:  # noqa: BLE001 - RulesError or a bad option value
                raise RecordError("unknown variant", clip(e), source=src, line=line,
                                hand_id=hid) from None
            info = self._register(rid, rules)
            if opts is None:
                self._last_name, self._last = vname, (rid, info)
        v, pmin, pmax, rows_of = info
        players = rget("players")
        if players.__class__ is not list or not players:
            raise RecordError("bad record", "'players' must be a non-empty list of player objects "
                            "in seat order", source=src, line=line, hand_id=hid)
        P = len(players)
        if not pmin <= P <= pmax:
            raise RecordError("wrong number of players", f"{P} players; {v.name} is played by "
                              f"{v.played_by}", source=src, line=line, hand_id=hid)
        key = rid * 8 + P
        acc = self.accs.get(key)
        if acc is None:
            acc = self.accs[key] = _Acc(v, P)
        opt = self.opt
        n_opt = len(opt)
        rows: list[Any] = []
        try:
            for p in players:
                try:        # rows beside the row fields: both forms compared (slow)
                    got = None if "rows" in p else rows_of(p)
                except (KeyError, TypeError):
                    got = None
                rows += got if got is not None else \
                    self._slow_player(p, v, len(rows) // v.n_rows, hid, line)
                opt += map(p.get, _OPTIONAL)
            # A row of 3k - 1 characters holds at most k tokens (each has 2+): when
            # every row is that long and plain ASCII, the hand's text is decoded with
            # the others at finish(), vectorised; anything else is read here.
            pos = len(acc.hands)
            try:
                canon = tuple(map(len, rows)) == acc.canon
            except TypeError:
                canon = False
            if canon:
                try:
                    text = " ".join(rows)
                except TypeError:
                    text = ""
                if text.isascii() and text:
                    acc.text.append(text)
                    acc.text_pos.append(pos)
                else:
                    acc.special[pos] = self._rows_ids(rows, v, P, hid, line)
            else:
                acc.special[pos] = self._rows_ids(rows, v, P, hid, line)
        except BaseException:
            del opt[n_opt:]
            if len(acc.text_pos) > len(acc.hands):
                del acc.text[len(acc.hands):], acc.text_pos[len(acc.hands):]
            acc.special.pop(len(acc.hands), None)
            raise
        acc.hands.append(len(self.hand_id))
        self.hand_id.append(hid)
        self.hand_line.append(line)
        self.hand_variant.append(self._vindex[rid])
        self.n_rows += P
        self.hand_start.append(self.n_rows)
        if self.raw is not None:
            self.raw.append(rec)

    def _register(self, rid: int, rules: RulesEntry) -> Info:
        """(Variant, min players, max players, row reader) of rules ``rid``,
        which join this chunk's ``variants`` when first seen."""
        info = self._info.get(rid)
        if info is None:
            v = rules[0]
            info = self._info[rid] = (v, v.min_players, v.max_players, _ROWS_OF[v.n_rows])
            self._vindex[rid] = len(self.variants)
            self.variants.append(rules)
        return info

    def _rows_ids(self, rows: Sequence[Any], v: Variant, P: int, hid: object, line: int | None,
                  names: Sequence[Any] | None = None) -> list[int]:
        """Card ids of a hand's rows read one by one, or a RecordError for the first bad row."""
        out: list[int] = []
        R = v.n_rows
        if names is None:
            names = self.opt[len(self.opt) - 4 * P + 2::4]
        layout: list[list[int]] = []
        for i, text in enumerate(rows):
            seat, r = divmod(i, R)
            ctx: dict[str, Any] = dict(source=self.source, line=line, hand_id=hid, seat=seat,
                                       name=names[seat], row=v.row_names[r])
            if r == 0:      # a player's rows: each Xj numbered across its layout
                try:
                    layout = layout_ids(rows[i:i + R])
                except CardError as e:
                    layout = []
                    if "third joker" in str(e):
                        raise RecordError("unknown card", clip(e), **ctx) from None
            try:
                ids = layout[r] if layout else parse_card_list(text)
            except CardError as e:
                raise RecordError("unknown card", clip(e), **ctx) from None
            if len(ids) != v.row_sizes[r]:
                raise RecordError("wrong row size", f"{describe_cards(ids)}; the "
                                f"{v.row_names[r]} row needs {v.row_sizes[r]}", **ctx)
            out += ids
        return out

    def _slow_player(self, p: object, v: Variant, seat: int, hid: object,
                     line: int | None) -> list[str]:
        """Tolerant parse of one player's rows to canonical row text, or a RecordError."""
        ctx: dict[str, Any] = dict(source=self.source, line=line, hand_id=hid, seat=seat)
        if not isinstance(p, Mapping):
            raise RecordError("bad record", f"a player is an object with rows, got {shorten(p)}",
                            **ctx)
        ctx["name"] = p.get("name")
        names = v.row_names
        given = [r for r in names if r in p]
        if "rows" in p and not given:
            rows = p["rows"]
            try:
                if isinstance(rows, str):
                    rows = split_rows(rows, v.n_rows)
                elif not isinstance(rows, (list, tuple)) or len(rows) != v.n_rows:
                    raise CardError(f"'rows' must be one string with rows separated by "
                                         f"'/' or '|', or a list of {v.n_rows} rows")
            except CardError as e:
                raise RecordError("wrong row size", clip(e), **ctx) from None
        else:
            missing = [r for r in names if r not in p]
            if missing:
                extra = [r for r in ("top", "middle", "bottom", "third", "second") if r in p
                         and r not in names]
                hint = f" ({v.name} has rows {', '.join(names)})" if extra else ""
                raise RecordError("wrong row size", f"missing {', '.join(missing)} row"
                                f"{'s' if len(missing) > 1 else ''}{hint}", **ctx)
            rows = [p[r] for r in names]
        out: list[str] = []
        layout: list[int] = []
        try:        # each Xj numbered across the layout
            numbered: list[list[int]] | None = layout_ids(rows)
        except CardError as e:
            if "third joker" in str(e):
                raise RecordError("unknown card", clip(e), **ctx) from None
            numbered = None     # the row at fault says what is wrong, below
        for i, (row, size, cards) in enumerate(zip(names, v.row_sizes, rows, strict=True)):
            try:
                ids = numbered[i] if numbered is not None else parse_card_list(cards)
            except CardError as e:
                raise RecordError("unknown card", clip(e), row=row, **ctx) from None
            if len(ids) != size:
                raise RecordError("wrong row size",
                                f"{describe_cards(ids)}; the {row} row needs {size}",
                                row=row, **ctx)
            out.append(format_row(ids))
            layout += ids
        if given and p.get("rows") not in (None, ""):     # two forms: the same layout
            detail = rows_disagreement(p["rows"], layout, v)
            if detail is not None:
                raise RecordError("contradictory record", detail, **ctx)
        return out

    # ------------------------------------------------------------------ finish
    def _ctx(self, h: int, seat: int | None = None, **kw: Any) -> dict[str, Any]:
        name = None
        if seat is not None:
            name = self.opt[4 * (self.hand_start[h] + seat) + 2]
        return dict(source=self.source, line=self.hand_line[h], hand_id=self.hand_id[h],
                    seat=seat, name=name, **kw)

    def _numbers(self, values: list[Any], key: str, bad: dict[int, RecordError],
                 allow_none: bool) -> np.ndarray:
        """int64 array of in_fantasyland or points; bad values -> ``bad``.

        Bounds: :data:`NUMBER_BOUNDS`.  Integers, integral floats (``3.0``),
        integer text (``"-12"``) and, for ``in_fantasyland`` only (the format
        says so), true/false are read; anything else, or a number out of
        bounds, is a ``bad value``."""
        lo, hi = NUMBER_BOUNDS[key]
        bools = key == "in_fantasyland"
        if set(map(type, values)) <= ({int, bool, type(None)} if bools else {int, type(None)}):
            try:
                arr = np.array([0 if x is None else x for x in values] if None in values
                               else values, np.int64)
            except OverflowError:      # beyond int64: looked at one by one below
                arr = None
            if arr is not None and (lo < 0 or not ((arr < lo) | (arr > hi)).any()):
                return cast(np.ndarray, arr)
        arr = np.zeros(len(values), np.int64)
        starts = np.asarray(self.hand_start)
        for r, x in enumerate(values):
            y = None if x.__class__ is bool and not bools else integer_value(x)
            if y is not None and lo <= y <= hi:
                arr[r] = y
                continue
            h = int(np.searchsorted(starts, r, "right") - 1)
            if h not in bad:
                why = f"{key} must be an integer{BOUNDS_TEXT[key]}, got {shorten(x)}"
                if y is not None or (x.__class__ is float and x.is_integer()):
                    why += " (out of range)"
                bad[h] = RecordError("bad value", why, **self._ctx(h, r - int(starts[h])))
        return arr

    def _group_cards(self, acc: _Acc, names: Sequence[Any],
                     bad: dict[int, RecordError]) -> np.ndarray:
        """(G, P, n) card ids of a group; hands with bad cards -> ``bad``."""
        v, P, n = acc.variant, acc.P, acc.variant.n_cards
        G = len(acc.hands)
        out = np.empty((G, P * n), np.uint8)
        if acc.text:
            ids, wrong = _decode_text(" ".join(acc.text), P * n, n)
            pos = np.asarray(acc.text_pos, np.int64)
            out[pos] = ids.reshape(-1, P * n)
            if wrong.any():
                starts = self.hand_start
                for j in np.flatnonzero(wrong).tolist():
                    g = int(pos[j])
                    h = acc.hands[g]
                    text = acc.text[j]
                    rows, k = [], 0
                    for size in v.row_sizes * P:
                        rows.append(text[k:k + 3 * size - 1])
                        k += 3 * size
                    # Not the plain form after all (other separators, street
                    # digits, glued tokens that happen to have its length): the
                    # grammar's reader decides.
                    try:
                        out[g] = self._rows_ids(rows, v, P, self.hand_id[h], self.hand_line[h],
                                                names[starts[h]:starts[h] + P])
                    except RecordError as e:
                        bad.setdefault(h, e)
                        out[g] = EMPTY
        for g, special in acc.special.items():
            out[g] = special
        return out.reshape(G, P, n)

    def _discards(self, values: list[Any],
                  bad: dict[int, RecordError]) -> tuple[np.ndarray, np.ndarray] | None:
        """(offsets, ids) of the discards (vectorised for plain text); bad ones -> ``bad``."""
        N = len(values)
        if not any(values):
            return None
        if set(map(type, values)) <= {str, type(None)}:
            texts = [x or "" for x in values]
            lens = np.fromiter(map(len, texts), np.int64, N)
            joined = " ".join(filter(None, texts))
            # (an Xj of the discards is numbered within the player's discards:
            # read one by one below)
            if ((lens == 0) | (lens % 3 == 2)).all() and joined.isascii() and \
                    "x" not in joined and "X" not in joined:
                ids, wrong = _decode_text(joined, (len(joined) + 1) // 3)
                if not wrong.any():
                    off = np.zeros(N + 1, np.int64)
                    np.cumsum((lens + 1) // 3, out=off[1:])
                    return off, ids
        starts = np.asarray(self.hand_start)
        flat: list[int] = []
        offs = [0]
        for r, x in enumerate(values):
            if x:
                try:
                    flat += parse_card_list(x)
                except CardError as e:
                    h = int(np.searchsorted(starts, r, "right") - 1)
                    seat = r - int(starts[h])
                    if h not in bad:
                        bad[h] = RecordError(
                            "unknown card", f"discards: {clip(e)}", source=self.source,
                            line=self.hand_line[h], hand_id=self.hand_id[h], seat=seat,
                            name=self.opt[4 * r + 2])
            offs.append(len(flat))
        return np.array(offs, np.int64), np.array(flat, np.uint8)

    def finish(self, arrow: Any = None, fast: dict[str, Any] | None = None,
               names: list[Any] | None = None, row_line: np.ndarray | None = None) -> Chunk:
        """The chunk of everything added so far, in line order.

        Bad hands are left out, their errors in ``chunk.errors``.

        Parameters
        ----------
        arrow : pyarrow.Table, optional
            The source rows, kept as ``Chunk.arrow``.
        fast : dict, optional
            Hands that a fast reader read as columns (the ``take()`` of a scanner
            of ``ofc_fast._scan_json`` or ``_scan_csv``, with ``"rules_table"``),
            added to the others.
        names : list, optional
            The names of ``fast`` by code.
        row_line : numpy.ndarray, optional
            The line of each row added (CSV, whose rows have lines of their own).

        Returns
        -------
        Chunk

        Raises
        ------
        RecordError
            When strict: the first bad card, row or number.
        """
        if fast is None or not len(fast["line"]):
            return self._finish(arrow, row_line)
        quick = self._fast_chunk(fast, names or [])
        if not len(self) and not self.errors:
            return quick
        both = Chunk.concat(quick, self._finish(arrow, row_line))
        return both.take(np.argsort(both.hand_line, kind="stable"))

    def _fast_chunk(self, cols: dict[str, Any], names: list[Any]) -> Chunk:
        """The chunk of the hands read by the fast path: three-row rules of 3,
        5 and 5 cards, every value already checked."""
        P = cols["P"].astype(np.int64)
        H = len(P)
        starts = np.zeros(H + 1, np.int64)
        np.cumsum(P, out=starts[1:])
        N = int(starts[-1])
        cards = cols["cards"]
        fl = cols["in_fantasyland"]
        # the fast path's rules k are rules_table[k] = (id of Rules.resolve_id, rules)
        ks = cols["rules"].astype(np.int64)
        table = cols["rules_table"]
        to_rid = np.zeros(len(table), np.int64)
        vmap = np.zeros(len(table), np.int64)
        for k in np.flatnonzero(np.bincount(ks, minlength=len(table))).tolist():
            r, rules = table[k]
            self._register(r, rules)
            to_rid[k], vmap[k] = r, self._vindex[r]
        rid = to_rid[ks]
        keys = rid * 8 + P
        groups = []
        if (keys == keys[0]).all():
            p = int(P[0])
            v = self._info[int(rid[0])][0]
            groups.append(Group(v, p, cards.reshape(H, p, -1), fl.reshape(H, p),
                                np.arange(H), np.arange(N).reshape(H, p)))
        else:
            for k in np.unique(keys).tolist():
                hands = np.flatnonzero(keys == k)
                p = k % 8
                rows = starts[hands][:, None] + np.arange(p)
                groups.append(Group(self._info[k // 8][0], p, cards[rows], fl[rows], hands, rows))
        # the scanner's name codes are dense (-1: no name): the chunk's own
        # codes by counting, not sorting
        code = cols["name"].astype(np.int64) + 1
        present = np.bincount(code, minlength=1) > 0
        uniq = np.flatnonzero(present) - 1
        inv = (np.cumsum(present) - 1)[code]
        chunk_names = [None if u < 0 else names[u] for u in uniq.tolist()]
        # an object array: a list of 60,000 names costs as much again
        name = np.array(chunk_names + [None], object)[inv] if N else []
        nd = cols["n_discards"]
        discards = None
        if len(cols["discards"]):
            off = np.zeros(N + 1, np.int64)
            np.cumsum(nd, out=off[1:])
            discards = (off, cols["discards"])
        raw = None
        if self.raw is not None:
            raw = SourceRecords([None] * H, cols["blocks"],
                                np.stack([cols["block"].astype(np.int64), cols["lo"], cols["hi"]],
                                         axis=1), cols.get("splice"))
        return Chunk(
            source=self.source, hand_start=starts, hand_id=cols["ids"], hand_line=cols["line"],
            hand_variant=vmap[ks], variants=self.variants, groups=groups, name=name,
            in_fantasyland=fl, recorded=cols["points"], has_recorded=cols["has_points"],
            discards=discards, raw=raw, errors=[], n_records=H, row_line=cols.get("row_line"),
            name_codes=(inv.astype(np.int64).reshape(-1), chunk_names))

    def _finish(self, arrow: Any = None, row_line: np.ndarray | None = None) -> Chunk:
        starts = np.asarray(self.hand_start, np.int64)
        hl = self.hand_line
        line = np.asarray(hl if None not in hl else
                          [i + 1 if x is None else x for i, x in enumerate(hl)], np.int64)
        opt = self.opt
        bad: dict[int, RecordError] = {}
        groups = []
        fl = self._numbers(opt[0::4], "in_fantasyland", bad, allow_none=False).astype(np.uint8)
        points = opt[1::4]
        if None in points:
            has = np.fromiter((x is not None for x in points), bool, len(points))
        else:
            has = np.ones(len(points), bool)
        recorded = self._numbers(points, "points", bad, allow_none=True)
        names = opt[2::4]
        if not set(map(type, names)) <= {str, type(None)}:
            for r, x in enumerate(names):
                if x.__class__ is bool:     # text or a number, never true/false
                    h = int(np.searchsorted(starts, r, "right") - 1)
                    bad.setdefault(h, RecordError(
                        "bad value", f"name must be text, got {shorten(x)}",
                        **self._ctx(h, r - int(starts[h]))))
            names = [x if x is None or x.__class__ is str else str(x) for x in names]
        discards = self._discards(opt[3::4], bad)
        for acc in self.accs.values():
            G = len(acc.hands)
            if not G:
                continue
            cards = self._group_cards(acc, names, bad)
            hands = np.array(acc.hands, np.int64)
            rows = starts[hands][:, None] + np.arange(acc.P)
            groups.append(Group(acc.variant, acc.P, cards, fl[rows], hands, rows))
        chunk = Chunk(
            source=self.source, hand_start=starts, hand_id=self.hand_id,
            hand_line=line, hand_variant=self.hand_variant,
            variants=self.variants, groups=groups, name=names,
            in_fantasyland=fl, recorded=recorded, has_recorded=has,
            discards=discards, raw=self.raw, arrow=arrow, errors=self.errors,
            n_records=self.records, row_line=row_line)
        if bad:
            errors = sorted(self.errors + list(bad.values()),
                            key=lambda e: e.line if e.line is not None else -1)
            if self.strict:
                raise errors[0]
            chunk = chunk.drop(np.fromiter(bad, np.int64, len(bad)), errors)
        return chunk


def _check_id(hid: object, source: str, line: int | None) -> None:
    """A hand id is text or a number (never true/false, a list or an object)."""
    if isinstance(hid, (bool, np.bool_)) or not isinstance(hid, (str, int, float, np.integer,
                                                                   np.floating)):
        raise RecordError("bad value", f"id must be text or a number, got {shorten(hid)}",
                          source=source, line=line)


def chunk_from_records(records: Iterable[object], rules: Rules = DEFAULT_RULES, *,
                       source: str = "", skip_bad: bool = False) -> Chunk:
    """Parse, validate and group an iterable of record dicts into one chunk.

    Parameters
    ----------
    records : iterable of mapping
        ``ofc-hand/1`` records; each one's line is its position, from 1.
    rules : Rules
        The rules of records that name none (or of all, with ``override``).
    source : str
        What the records are, for messages.
    skip_bad : bool
        Leave bad records out (their errors in ``chunk.errors``) instead of
        raising.

    Returns
    -------
    Chunk
        Validated, not scored yet.

    Raises
    ------
    RecordError
        Without ``skip_bad``: the first bad record.

    Examples
    --------
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> chunk_from_records([{"players": [p, q]}, {"players": [p, p]}], skip_bad=True).n_hands
    1
    """
    b = ChunkBuilder(source, rules, strict=not skip_bad)
    for i, rec in enumerate(records, 1):
        b.add(rec, i)
    return b.finish().validate(skip_bad)


def register_scanned_rules(scanner: RulesScanner, table: list[tuple[int, RulesEntry]], rules: Rules,
                           *, strip: bool = False) -> None:
    """Tell a scanner about the rules of the hand it stopped at.

    The scanner gives the variant and options as written
    (``scanner.rules_text()``).  It reads three-row rules of 3, 5 and 5 cards
    (``table`` gets ``(Rules id, rules)`` at the index it gives them, for
    :meth:`ChunkBuilder.finish`); other rules, rules that cannot be resolved,
    or more than the scanner holds, send their hands to the general reader,
    which says what is wrong.

    Parameters
    ----------
    scanner : RulesScanner
        An ``ofc_fast._scan_json`` or ``_scan_csv`` scanner that returned ``NEW_RULES``.
    table : list
        The scanner's rules so far, by the index it gives them.
    rules : Rules
        The reader's rules.
    strip : bool
        CSV: drop white space around the variant name and the options, and
        read the options as a CSV field (quoted, quotes doubled).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        The scanner refuses the rules (never for a scanner that asked).

    Examples
    --------
    >>> import orjson
    >>> from ofc_fast._scan import NEW_RULES
    >>> from ofc_fast._scan_json import LineScanner
    >>> rows = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> block = orjson.dumps({"variant": "classic", "players": [rows, rows]})
    >>> scanner, table = LineScanner(), []
    >>> scanner.scan(block, 0, 1, 10)[0] == NEW_RULES      # rules it has not seen
    True
    >>> register_scanned_rules(scanner, table, Rules())
    >>> [(name, options) for _, (_, name, options) in table]
    [('classic', None)]
    """
    vtext, otext = scanner.rules_text()
    k, lo, hi, rid = -1, 0, 0, -1
    if not scanner.full:
        try:
            name = None if vtext is None else vtext.decode("utf-8")
            if strip and name is not None:
                name = name.strip() or None
            if strip and otext is not None:     # a CSV field: quoted, quotes doubled
                o = otext.strip()
                if len(o) >= 2 and o[:1] == b'"' and o[-1:] == b'"':
                    o = o[1:-1].replace(b'""', b'"').strip()
                otext_json = o or None
            else:
                otext_json = otext
            opts = None if otext_json is None else orjson.loads(otext_json)
            rid, found = rules.resolve_id(name, opts)
        except Exception:  # noqa: BLE001 - the general reader reports it
            found = None
        if found is not None:
            v = found[0]
            if v.row_names == ("top", "middle", "bottom") and tuple(v.row_sizes) == (3, 5, 5):
                k, lo, hi = len(table), v.min_players, v.max_players
                table.append((rid, found))
    scanner.add_rules(vtext, otext, k, lo, hi)
