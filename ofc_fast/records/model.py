"""The ``ofc-hand/1`` record model: what a recorded hand is, which rules
apply to it, what its numbers may hold, and how a finished hand is written
as a record (:func:`hand_dict`, the one record writer).

>>> hand_dict("pineapple", [[42, 41, 0, 30, 29, 28, 15, 13, 22, 21, 20, 23, 1]],
...           id="h1", names=["alice"], points=[0])["players"][0]["top"]
'Qh Qd 2c'
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import orjson

from ofc_fast.cards import format_row, parse_card_list, split_rows
from ofc_fast.deprecation import warn_renamed
from ofc_fast.errors import CardError, RecordError, RulesError, shorten
from ofc_fast.rules import Variant
from ofc_fast.rules import variant as _variant

if TYPE_CHECKING:
    pass

RulesEntry = tuple[Variant, str, "dict[str, Any] | None"]
"""What rules a record is scored by: ``(Variant, the name as written (the
``variant`` of files), the options as written or None)``."""

__all__ = ["FORMAT", "Rules", "DEFAULT_RULES", "NUMBER_BOUNDS", "hand_dict", "player_dict",
           "parse_row", "clip", "describe_cards", "integer_value", "disagreement",
           "rows_disagreement", "layout_rows"]

FORMAT = "ofc-hand/1"



def __getattr__(name: str) -> Any:
    """``HandError``: the deprecated name (0.1) of :class:`ofc_fast.errors.RecordError`."""
    if name == "HandError":
        warn_renamed("ofc_fast.records.HandError", "ofc_fast.errors.RecordError", since="0.3")
        return RecordError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parse_row(cards: object, size: int | None = None) -> list[int]:
    """Card ids of one recorded row; with ``size``, check the number of cards.

    Parameters
    ----------
    cards : str or list
        The row: card text, or a list of card tokens or ids
        (:func:`ofc_fast.cards.parse_card_list`).
    size : int, optional
        The number of cards the row must have.

    Returns
    -------
    list of int
        The card ids.

    Raises
    ------
    CardError
        A bad card, or not ``size`` cards.

    Examples
    --------
    >>> parse_row("Qs Qd 2c", 3)
    [43, 41, 0]
    """
    ids = parse_card_list(cards)
    if size is not None and len(ids) != size:
        raise CardError(f"has {describe_cards(ids)}; it needs {size}")
    return ids


def describe_cards(ids: Sequence[int]) -> str:
    """A list of cards for messages: ``"4 cards (Qs Qd 2c 3c)"``.

    The list is cut after a few cards (a huge row must not flood a message).

    Parameters
    ----------
    ids : sequence of int
        Card ids (an id that is no card shows as ``__``).

    Returns
    -------
    str
        How many cards, and which.

    Raises
    ------
    TypeError
        An id that is not an integer.

    Examples
    --------
    >>> describe_cards([43, 41, 0, 4])
    '4 cards (Qs Qd 2c 3c)'
    """
    n = len(ids)
    text = format_row(ids[:_SHOW_CARDS]) + (f" ... {n - _SHOW_CARDS:,} more" if n > _SHOW_CARDS
                                             else "")
    return f"{n:,} card{'s' if n != 1 else ''} ({text})"


def disagreement(first: str, a: Sequence[int], second: str, b: Sequence[int],
                 row_sizes: Sequence[int]) -> str | None:
    """The detail of a ``contradictory record`` when a layout given in two
    forms (``rows`` and the row fields; card ids and card text) is not the
    same layout in both, else None.  Each form is named and shown by rows.

    Parameters
    ----------
    first, second : str
        The names of the two forms (``"rows"``, ``"top, middle, bottom"``).
    a, b : sequence of int
        The layout's card ids in each form, rows in order.
    row_sizes : sequence of int
        The rows' sizes (to show the layouts by rows).

    Returns
    -------
    str or None

    Raises
    ------
    Nothing

    Examples
    --------
    >>> disagreement("rows", [43, 41, 0], "top", [43, 41, 0], [3]) is None
    True
    >>> disagreement("rows", [43, 41, 0], "top", [43, 41, 1], [3])
    "the layout's two forms disagree: rows 'Qs Qd 2c', top 'Qs Qd 2d'"
    """
    a, b = [int(c) for c in a], [int(c) for c in b]
    if a == b:
        return None

    return (f"the layout's two forms disagree: {first} {layout_rows(a, row_sizes)!r}, "
            f"{second} {layout_rows(b, row_sizes)!r}")


def rows_disagreement(whole: object, layout: Sequence[int], v: Variant) -> str | None:
    """The detail of a ``contradictory record`` when ``rows`` (one string,
    or a list of row strings) given beside the row fields is not their
    layout (or cannot be read), else None.

    Parameters
    ----------
    whole : object
        The ``rows`` value.
    layout : sequence of int
        The card ids the row fields give, rows in order.
    v : Variant
        The hand's rules.

    Returns
    -------
    str or None

    Raises
    ------
    Nothing

    Examples
    --------
    >>> from ofc_fast.rules import variant
    >>> v = variant("pineapple")
    >>> ids = parse_card_list("Qs Qd 2c 9h 9d 9c 5s 5d Ah Ac Ad 4c 4d")
    >>> rows_disagreement("qs qd 2c | 9h 9d 9c 5s 5d | ah ac ad 4c 4d", ids, v) is None
    True
    >>> print(rows_disagreement("Qs Qd 2c / 9h 9d", ids, v).split(" (")[0])
    the layout is given twice: rows 'Qs Qd 2c / 9h 9d'
    """
    fields = ", ".join(v.row_names)
    try:
        rows = split_rows(whole, v.n_rows) if isinstance(whole, str) else whole
        if not isinstance(rows, (list, tuple)) or len(rows) != v.n_rows:
            raise CardError(f"not {v.n_rows} rows")
        ids = [c for row in rows for c in parse_card_list(row)]
    except CardError as e:
        return (f"the layout is given twice: rows {shorten(whole)} ({clip(e, 120)}) and "
                f"{fields} {layout_rows(layout, v.row_sizes)!r}")
    return disagreement("rows", ids, fields, layout, v.row_sizes)


def layout_rows(ids: Sequence[int], row_sizes: Sequence[int]) -> str:
    """A layout's card ids as row text, rows separated by ``/``.

    Parameters
    ----------
    ids : sequence of int
        The card ids, rows in order.
    row_sizes : sequence of int
        The rows' sizes.

    Returns
    -------
    str

    Raises
    ------
    Nothing

    Examples
    --------
    >>> layout_rows([43, 41, 0, 1], [3, 1])
    'Qs Qd 2c / 2d'
    """
    out, pos = [], 0
    for size in row_sizes:
        out.append(format_row(ids[pos:pos + size]))
        pos += size
    return " / ".join(out)


_SHOW_CARDS = 20
_MAX_DETAIL = 300


def clip(text: object, limit: int = _MAX_DETAIL) -> str:
    """A message from elsewhere (a rules error ...), cut to ``limit`` characters.

    Parameters
    ----------
    text : object
        Its ``str`` is the message.
    limit : int
        Characters kept.

    Returns
    -------
    str
        The text, or its first ``limit`` characters and its length.

    Raises
    ------
    Exception
        Whatever ``str(text)`` raises.

    Examples
    --------
    >>> clip("x" * 500, 10)
    'xxxxxxxxxx... (500 characters)'
    """
    out = str(text)
    if len(out) <= limit:
        return out
    return f"{out[:limit]}... ({len(out):,} characters)"


# ----------------------------------------------------------------------------- rules
@dataclass(frozen=True)
class Rules:
    """Which rules apply to a record: defaults for records naming no variant,
    or (``override=True``) for every record.

    Rules are resolved once per distinct (variant, options) and cached.

    Parameters
    ----------
    variant : str
        The variant of records that name none.
    options : mapping, optional
        Its options (``ofc_fast.variant(variant, **options)``).
    override : bool
        Apply ``variant`` and ``options`` to every record, whatever it names.
    jokers : int, optional
        Shorthand for the option ``jokers`` (0, 1 or 2; docs/jokers.md):
        ``Rules(jokers=1)`` is ``Rules(options={"jokers": 1})``; 0, the
        default, leaves the option out (records get no ``"jokers": 0``).
        The other joker options go in ``options`` (``joker_cards`` ...).

    Examples
    --------
    >>> Rules(jokers=1).options, Rules(jokers=0).options
    ({'jokers': 1}, None)
    >>> rules = Rules("classic", {"finnish": True})
    >>> v, name, options = rules.resolve(None, None)
    >>> name, options, v.finnish
    ('classic', {'finnish': True}, True)
    >>> Rules().resolve("turbo", None)[1]
    'turbo'
    """
    variant: str = "pineapple"
    options: Mapping[str, Any] | None = None
    override: bool = False
    jokers: int | None = None
    _cache: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    _ids: dict[int, RulesEntry] = field(default_factory=dict, init=False, repr=False,
                                        compare=False)

    def __post_init__(self) -> None:
        if self.jokers is not None:     # one place for the option: options
            opts = {k: x for k, x in (self.options or {}).items() if k != "jokers"}
            if self.jokers != 0:        # 0, the default, is no option (none written)
                opts["jokers"] = self.jokers
            object.__setattr__(self, "options", opts or None)

    def resolve(self, name: object, options: object) -> RulesEntry:
        """The rules of a record's ``variant`` and ``options`` fields.

        Parameters
        ----------
        name : str or None
            The record's ``variant`` (None: the default).
        options : mapping or None
            The record's ``options``.

        Returns
        -------
        tuple
            ``(Variant, name, options)`` (:data:`RulesEntry`).

        Raises
        ------
        RulesError
            An unknown variant or option, or a value the rules refuse.
        """
        return self.resolve_id(name, options)[1]

    def resolve_id(self, name: object, options: object) -> tuple[int, RulesEntry]:
        """As :meth:`resolve`, with a small integer id of the rules (cheap to hash).

        Parameters
        ----------
        name : str or None
            The record's ``variant`` (None: the default).
        options : mapping or None
            The record's ``options``.

        Returns
        -------
        tuple
            ``(id, (Variant, name, options))``; equal rules have equal ids.

        Raises
        ------
        RulesError
            An unknown variant or option, or a value the rules refuse.
        """
        if self.override or name is None:
            name = self.variant
            options = self.options if (self.override or options is None) else options
        try:
            key = (name, orjson.dumps(options, option=orjson.OPT_SORT_KEYS) if options else b"")
            hit = self._cache.get(key)
        except (TypeError, orjson.JSONEncodeError):
            key, hit = None, None
        if hit is None:
            try:
                if not isinstance(name, str):
                    raise RulesError(f"variant must be a name, got {shorten(name)}")
                if options is not None and not isinstance(options, Mapping):
                    raise RulesError(f"options must be an object, got {shorten(options)}")
                if options is not None and not all(isinstance(k, str) for k in options):
                    raise RulesError(f"option names must be text, got {shorten(list(options))}")
                v = _variant(name, **(options or {}))
                rules: RulesEntry = (v, name, dict(options) if options else None)
                same = next((i for i, r in self._ids.items() if r[0] is rules[0] or
                             (r[1:] == rules[1:])), None)
                hit = (len(self._ids) if same is None else same, rules)
                self._ids.setdefault(hit[0], rules)
            except RulesError as e:  # variant() validates every option and value
                hit = e
            if key is not None:
                self._cache[key] = hit
        if isinstance(hit, Exception):
            raise hit.with_traceback(None)
        return cast("tuple[int, RulesEntry]", hit)


DEFAULT_RULES = Rules()


# --------------------------------------------------------------------------- numbers
NUMBER_BOUNDS = {"in_fantasyland": (0, 255), "points": (-(1 << 63), (1 << 63) - 1)}
"""What a record's numbers may hold: ``in_fantasyland`` 0-255 (a uint8: the
k-th fantasyland hand in a row), recorded ``points`` any int64.  A number
written as a float (``3.0``) is read when it is integral and at most 2**53
in size (beyond that a float is not one exact integer)."""
BOUNDS_TEXT = {"in_fantasyland": " (0-255, or true/false)", "points": " (int64)"}
_EXACT = float(1 << 53)     # floats up to here hold every integer exactly
_INT_TEXT = re.compile(r"\s*[+-]?[0-9]+\s*")


def integer_value(x: object) -> int | None:
    """The integer a record's number field holds, or None if it holds none.

    Parameters
    ----------
    x : object
        The field's value: null or false (0), true (1), an int, an integral
        float up to 2**53 (``3.0``), or integer text (``"-12"``).

    Returns
    -------
    int or None
        The integer; None for anything else (``2.7``, ``1e20``, ``"lots"``).

    Raises
    ------
    TypeError
        Never for a JSON value; an object whose ``__class__`` lies may raise.

    Examples
    --------
    >>> integer_value(3.0), integer_value("-12"), integer_value(True), integer_value(2.5)
    (3, -12, 1, None)
    """
    if x is None or x is False:
        return 0
    if x is True:
        return 1
    t = x.__class__
    if t is int:
        return cast(int, x)
    if t is float:   # beyond 2**53 a float no longer says which integer was written
        f = cast(float, x)
        return int(f) if f.is_integer() and -_EXACT <= f <= _EXACT else None
    if t is str and len(cast(str, x)) < 100 and _INT_TEXT.fullmatch(cast(str, x)):
        return int(cast(str, x))
    return None



# ----------------------------------------------------------------------------- writer
def player_dict(v: Variant, layout: Sequence[int], name: object = None, in_fantasyland: int = 0,
                discards: Sequence[int] = (), points: int | None = None, *,
                complete: bool = False) -> dict[str, Any]:
    """One player of an ``ofc-hand/1`` record (see :func:`hand_dict`).

    Parameters
    ----------
    v : Variant
        The rules (row names and sizes).
    layout : sequence of int
        The player's card ids, top row first.
    name : object, optional
        The player's name (left out when None).
    in_fantasyland : int
        0 (left out unless ``complete``) or the fantasyland count.
    discards : sequence of int
        Discarded card ids (left out when none, unless ``complete``).
    points : int, optional
        Recorded points (left out when None).
    complete : bool
        Write ``in_fantasyland`` and ``discards`` always.

    Returns
    -------
    dict
        ``name``, the rows as card text, ``in_fantasyland``, ``discards`` and
        ``points``, in that order.

    Raises
    ------
    TypeError
        A card id that is not an integer.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> d = player_dict(ofc.variant("pineapple"), list(range(13)), "ann", points=3)
    >>> list(d), d["middle"]
    (['name', 'top', 'middle', 'bottom', 'points'], '2s 3c 3d 3h 3s')
    """
    d: dict[str, Any] = {} if name is None else {"name": name}
    pos = 0
    for row, size in zip(v.row_names, v.row_sizes, strict=True):
        d[row] = format_row(layout[pos:pos + size])
        pos += size
    if complete or in_fantasyland:
        d["in_fantasyland"] = int(in_fantasyland)
    if complete or len(discards):
        d["discards"] = format_row(discards)
    if points is not None:
        d["points"] = int(points)
    return d


def hand_dict(variant: Variant | str, layouts: Sequence[Sequence[int]], *, id: object = None,
              names: Sequence[object] | None = None,
              in_fantasyland: Sequence[int] | None = None,
              discards: Sequence[Sequence[int]] | None = None,
              points: Sequence[int | None] | None = None, variant_name: str | None = None,
              options: Mapping[str, Any] | None = None,
              complete: bool = False) -> dict[str, Any]:
    """A finished hand as an ``ofc-hand/1`` dict (one JSON Lines object): the
    one record writer of ofc_fast (records, the chunk writers, ``Game.record``).

    The compact form (default) leaves out what holds nothing: an unnamed
    player's name, ``in_fantasyland`` 0, no discards, points None, empty
    options.

    Parameters
    ----------
    variant : Variant or str
        The rules.
    layouts : sequence of sequence of int
        Each player's card ids (top row first), in seat order, seat 0 = button.
    id : object, optional
        The hand's id.
    names : sequence, optional
        One name per player (None: unnamed).
    in_fantasyland : sequence of int, optional
        Per player: 0 normal, *k* for the *k*-th fantasyland hand in a row.
    discards : sequence of sequence of int, optional
        Per player: the discarded card ids.
    points : sequence of int or None, optional
        Per player: the recorded points (None: not given).
    variant_name : str, optional
        Written as ``variant`` (default: the variant's name).
    options : mapping, optional
        Written as ``options`` (the keyword arguments that rebuild the variant).
    complete : bool
        Write ``in_fantasyland``, ``discards`` and ``options`` always, as
        ``Game.record`` does.

    Returns
    -------
    dict
        The record.

    Raises
    ------
    RulesError
        ``variant`` is an unknown name.
    TypeError
        A card id that is not an integer.

    Examples
    --------
    >>> hand_dict("pineapple", [list(range(13)), list(range(13, 26))], id=7,
    ...           points=[3, -3])["players"][1]
    {'top': '5d 5h 5s', 'middle': '6c 6d 6h 6s 7c', 'bottom': '7d 7h 7s 8c 8d', 'points': -3}
    """
    v = _variant(variant) if isinstance(variant, str) else variant
    P = len(layouts)
    rec: dict[str, Any] = {"format": FORMAT, "id": id,
                           "variant": v.name if variant_name is None else variant_name}
    if options or (complete and options is not None):
        rec["options"] = options
    rec["players"] = [
        player_dict(v, layouts[i], None if names is None else names[i],
                    0 if in_fantasyland is None else in_fantasyland[i],
                    () if discards is None else discards[i],
                    None if points is None else points[i], complete=complete)
        for i in range(P)]
    return rec
