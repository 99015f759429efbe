"""The exceptions of ofc_fast: one hierarchy, all of it here.

Every error the library raises on bad input is an :class:`OFCError`, which
is a :class:`ValueError`, so ``except ValueError`` keeps working::

    OFCError(ValueError)
    ├── CardError            bad card text or card ids
    │   └── LayoutError      a layout that cannot be scored (size, bad or repeated card)
    ├── RulesError           an unknown variant or option, or a value the kernels cannot hold
    ├── ArgumentError        an argument value out of range or not one of its choices
    ├── StateError           a call the object's state does not allow (also a RuntimeError)
    ├── MoveError            an illegal move in the game engine
    │   └── MoveIndexError   a move index out of range (also an IndexError)
    ├── RecordError          one recorded hand that cannot be scored (file, line, hand, seat, row)
    └── FileFormatError      a file that cannot be read as its format (corrupt, truncated, ...)

    OutputError(OSError)     an output that cannot be written (names the output)

Wrong argument *types* (a string where an array is needed) raise
:class:`TypeError`, as numpy does.

>>> import ofc_fast as ofc
>>> try:
...     ofc.parse_cards("As Zz")
... except ofc.OFCError as e:
...     print(type(e).__name__)
CardError
"""
from __future__ import annotations

import errno
import shutil
from typing import Any

__all__ = ["OutputError", "OFCError", "CardError", "LayoutError", "RulesError", "RulesTypeError",
           "ArgumentError",
           "StateError", "MoveError",
           "MoveIndexError", "RecordError", "FileFormatError", "SameFileError", "shorten",
           "REASONS"]

_MAX_ECHO = 80  # characters of a field value quoted in a message


def shorten(value: object, limit: int = _MAX_ECHO) -> str:
    """``repr(value)``, cut to about ``limit`` characters so that a huge field
    never floods a message.

    Parameters
    ----------
    value : object
        What to quote.
    limit : int
        About how many characters to keep.

    Returns
    -------
    str

    Raises
    ------
    Nothing
        A ``repr`` that fails is replaced by the type's name.

    Examples
    --------
    >>> shorten("x" * 1000, 20)
    "'xxxxxxxxxxxxxxxxxx... (1,002 characters)"
    """
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    return f"{text[:limit - 1]}... ({len(text):,} characters)"


class OFCError(ValueError):
    """Base class of every ofc_fast input error (a :class:`ValueError`).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> issubclass(ofc.RulesError, ofc.OFCError), issubclass(ofc.OFCError, ValueError)
    (True, True)
    """


class CardError(OFCError):
    """Bad card text or card ids; the message names the card and where it is.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> ofc.strength5([[0, 1, 2, 3, 60]])
    Traceback (most recent call last):
    ...
    ofc_fast.errors.CardError: hand 0: card 4 has id 60, not a card (0-51, a joker 52-53)
    """


class LayoutError(CardError):
    """A layout that cannot be scored: wrong size, bad or repeated card.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> ofc.parse_layout("Qs Qd / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.LayoutError: top row 'Qs Qd' has 2 cards; it needs 3
    """


class RulesError(OFCError):
    """An unknown variant, option or preset, an inconsistent custom rule, or a
    value outside what the kernels can hold; the message names the option.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> ofc.variant("pineapple", repeat_limit=2.7)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesError: repeat_limit must be an integer, got 2.7
    """


class RulesTypeError(RulesError, TypeError):
    """A rule option of the wrong type (text where a number goes, a list
    where a name goes).  Both a :class:`RulesError`, as every bad rule is
    (options also come from the files read, where a type is a value), and a
    :class:`TypeError`, as every wrong type given to the Python API is.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> ofc.variant("pineapple", repeat_limit="2")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.RulesTypeError: repeat_limit must be an integer, got '2'
    """


class ArgumentError(OFCError):
    """An argument value the call cannot take: out of its range, not one of
    its choices, or the wrong shape; the message names the argument and
    quotes the value.  A wrong *type* is a :class:`TypeError` instead.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> ofc.strength5([[0, 1, 2, 3, 4]], n_threads=0)
    Traceback (most recent call last):
    ...
    ofc_fast.errors.ArgumentError: n_threads must be 1 .. 256 or None, got 0
    """


class StateError(OFCError, RuntimeError):
    """A call the object's state does not allow: a move or a new hand when
    the game or match is over, a result before the hand is finished.  Also a
    :class:`RuntimeError`, as these were before 0.3.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> m = ofc.Match("pineapple", 2, seed=1)
    >>> m.end_hand()
    Traceback (most recent call last):
    ...
    ofc_fast.errors.StateError: no hand in progress: call start_hand() first
    """


class MoveError(OFCError):
    """An illegal move: wrong cards, a full row, a card placed twice, no hand
    in progress, or a seat that does not act.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=7)
    >>> try:
    ...     g.play({"top": "As Ks Qs Js"})
    ... except ofc.MoveError:
    ...     print("refused")
    refused
    """


class MoveIndexError(MoveError, IndexError):
    """A move index outside a :class:`~ofc_fast.MoveList` (a MoveError that
    is also the IndexError the sequence protocol expects).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> moves = ofc.Game("pineapple", 2, seed=7).legal_moves()
    >>> try:
    ...     moves[10 ** 6]
    ... except IndexError:
    ...     print("out of range")
    out of range
    """


REASONS = {
    "bad json": "the line is not a JSON object",
    "bad record": "a required field is missing or has the wrong type",
    "unknown variant": "the variant, one of its options or an option's value is not valid",
    "wrong number of players": "the variant is not played by that many players",
    "unknown card": "a card token cannot be read",
    "wrong row size": "a row has the wrong number of cards, or rows are missing",
    "duplicate card": "a card appears twice at one table (rows or discards)",
    "bad value": "in_fantasyland, points or seat is not a valid number",
    "contradictory record": "the layout is given in two forms that disagree (rows and the row "
                            "fields, card ids and card text)",
}
"""Why a record can be rejected (:attr:`RecordError.reason`)."""


class RecordError(OFCError):
    """A recorded hand that cannot be scored.

    Says file, line (or row), hand id, seat, name, row and a reason from
    :data:`REASONS`; under ``skip_bad`` such hands are skipped and counted.

    Parameters
    ----------
    reason : str
        A key of :data:`REASONS`.
    detail : str
        What is wrong, for a person.
    source : str
        The file (or ``<stdin>``).
    line : int, optional
        Line (text formats) or row (Parquet) of the hand.
    hand_id, seat, name, row : optional
        Where in the hand.
    unit : str
        What ``line`` counts: ``"line"`` or ``"row"``.

    Examples
    --------
    >>> print(RecordError("unknown card", "unknown card 'Xs'", source="h.jsonl", line=7,
    ...                   hand_id="h7", seat=1, row="top"))
    h.jsonl:7: unknown card: hand 'h7', seat 1, top row: unknown card 'Xs'
    """

    def __init__(self, reason: str, detail: str, *, source: str = "", line: int | None = None,
                 hand_id: object = None, seat: int | None = None, name: object = None,
                 row: str | None = None, unit: str = "line"):
        self.reason, self.detail, self.source, self.line = reason, detail, source, line
        self.unit = unit
        self.hand_id, self.seat, self.name, self.row = hand_id, seat, name, row
        super().__init__(self.message)

    @property
    def where(self) -> str:
        loc = f"{self.source or '<input>'}"
        if self.line is not None:
            loc += f":{self.line}" if self.unit == "line" else f", {self.unit} {self.line}"
        return loc

    @property
    def message(self) -> str:
        parts = []
        if self.hand_id is not None:
            parts.append(f"hand {shorten(self.hand_id, 40)}")
        if self.seat is not None:
            who = f"seat {self.seat}"
            if self.name is not None:
                who += f" ({str(self.name)[:40]})"
            parts.append(who)
        if self.row is not None:
            parts.append(f"{self.row} row")
        ctx = ", ".join(parts)
        return f"{self.where}: {self.reason}: " + (f"{ctx}: " if ctx else "") + self.detail

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:  # keyword-only fields: pickle (Dask) needs this
        return (_rebuild_record_error, (self.reason, self.detail, dict(
            source=self.source, line=self.line, hand_id=self.hand_id, seat=self.seat,
            name=self.name, row=self.row, unit=self.unit)))


def _rebuild_record_error(reason: str, detail: str, kw: dict[str, Any]) -> RecordError:
    return RecordError(reason, detail, **kw)


class FileFormatError(OFCError):
    """A file that cannot be read as its format: truncated or corrupt
    compression, undecodable text, an unbalanced quote, unreadable Parquet,
    columns of the wrong type.  Names the file and how far reading got.

    Parameters
    ----------
    source : str
        The file.
    detail : str
        What is wrong.
    position : str, optional
        How far reading got (``"line 12"``, ``"byte 4,096"``).

    Examples
    --------
    >>> print(FileFormatError("h.jsonl.gz", "truncated gzip data", position="line 1,200"))
    h.jsonl.gz (line 1,200): truncated gzip data
    """

    def __init__(self, source: str, detail: str, *, position: str | None = None):
        self.source, self.detail, self.position = source, detail, position
        where = source or "<input>"
        if position:
            where += f" ({position})"
        super().__init__(f"{where}: {detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_file_error, (self.source, self.detail, self.position))


def _rebuild_file_error(source: str, detail: str, position: str | None) -> FileFormatError:
    return FileFormatError(source, detail, position=position)


class SameFileError(OFCError, shutil.SameFileError):
    """Two files of one run are the same file: an output that is an input
    (which writing would destroy) or two outputs (which would overwrite each
    other), by another name, a symbolic or a hard link, or a standard stream
    redirected to it.  Raised before anything is read or written.

    Also a :class:`shutil.SameFileError` (an ``OSError``), what 0.2 raised.

    Examples
    --------
    >>> raise SameFileError("out.csv: the output is the input file out.csv")
    Traceback (most recent call last):
    ...
    ofc_fast.errors.SameFileError: out.csv: the output is the input file out.csv
    """


class OutputError(OSError):
    """Writing to an output failed (disk full, no permission, closed pipe ...).

    Not an input error: an :class:`OSError` that names the output, not the
    input ("disk full" is about where the results go).

    Parameters
    ----------
    target : str or path
        The output as given (``-`` for stdout).
    err : BaseException
        The failure; its ``errno`` and ``strerror`` are kept.
    action : str
        What could not be done (``"cannot write"``, ``"cannot create"``).

    Examples
    --------
    >>> print(OutputError("out.csv", OSError(28, "No space left on device")))
    out.csv: cannot write: [Errno 28] No space left on device
    """

    def __init__(self, target: object, err: BaseException, action: str = "cannot write"):
        code = getattr(err, "errno", None)
        text = getattr(err, "strerror", None) or str(err) or type(err).__name__
        super().__init__(code, text)
        self.target = str(target)
        self.action = action

    def __str__(self) -> str:
        name = "<stdout>" if self.target == "-" else self.target
        code = f"[Errno {self.errno}] " if self.errno else ""
        return f"{name}: {self.action}: {code}{self.strerror}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_output_error, (self.target, self.errno, self.strerror, self.action))

    @property
    def broken_pipe(self) -> bool:
        """The reader of a pipe went away (``... | head``)."""
        return self.errno == errno.EPIPE


def _rebuild_output_error(target: str, code: int | None, text: str, action: str) -> OutputError:
    return OutputError(target, OSError(code, text), action)
