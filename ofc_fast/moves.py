"""Moves, what a player sees, and hand results (the vocabulary of ``ofc_fast.engine``).

A :class:`Move` names the dealt cards (in deal order) and a destination for
each: a row index (0 = top) or ``DISCARD`` (-1).  :class:`MoveList` is the
lazy sequence of every distinct placement; :class:`PlayerView` is what one
player may see.  The hand core (``ofc_fast._hand.HandCore``) reports
problems as :class:`~ofc_fast._hand.HandStatus` codes; :data:`HAND_MESSAGES`
words them (:func:`hand_error`) and :data:`AUTO_REASONS` names its
automatic-move codes.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, SupportsIndex, overload

import numpy as np
import numpy.typing as npt

from ofc_fast._args import integer
from ofc_fast._args import seat as seat_arg
from ofc_fast._hand import MAX_DEAL, HandCore
from ofc_fast._hand import HandStatus as S
from ofc_fast._order import action_code, action_dest
from ofc_fast.cards import (
    ALL_CARDS,
    DECK_SIZE,
    format_card,
    format_cards,
    mask_cards,
    parse_card_list,
)
from ofc_fast.deprecation import renamed_attribute
from ofc_fast.errors import (
    ArgumentError,
    CardError,
    MoveError,
    MoveIndexError,
    RulesError,
    StateError,
    shorten,
)
from ofc_fast.rules import Variant, as_variant, deal_schedule

__all__ = ["DISCARD", "Move", "MoveList", "PlayerView", "HandResult", "Turn", "MoveIndexError",
           "AUTO_REASONS", "HAND_MESSAGES", "hand_error", "move_from_mapping", "normalize_move",
           "action_space"]

DISCARD = -1

AUTO_REASONS: tuple[str | None, ...] = (None, "only option", "dead", "every option dead",
                                        "time-out")
"""Why a turn was played automatically, by the hand core's reason code
(``Turn.auto``; docs/rules.md section 9)."""

# ------------------------------------------------------------------ hand statuses
HAND_MESSAGES: dict[S, tuple[type[Exception], str]] = {
    S.HAND_OVER: (MoveError, "the hand is over: no move to make"),
    S.MOVE_NOT_SEQUENCE: (MoveError, "a move is a sequence of cards and one of rows, got "
                                     "{cards} and {rows}"),
    S.MOVE_LENGTHS: (MoveError, "the move gives {a} cards but {b} destinations"),
    S.CARD_NOT_DEALT: (MoveError, "{card} is not among the cards dealt to seat {seat} ({hand})"),
    S.CARD_TWICE: (MoveError, "the move places {card} twice"),
    S.ROW_NOT_INDEX: (MoveError, "{card}: row {row} is not a row index "
                                 "(rows 0 .. {last_row}, -1 = discard)"),
    S.ROW_MISSING: (MoveError, "{card}: row {row} does not exist "
                               "(rows 0 .. {last_row}, -1 = discard)"),
    S.CARD_UNPLACED: (MoveError, "the move does not say where {dealt} goes "
                                 "(every dealt card is placed or discarded)"),
    S.DISCARD_COUNT: (MoveError, "{n_dealt} cards dealt, {keep} to place: the move must "
                                 "discard {n_discard}, it discards {a}"),
    S.ROW_FULL: (MoveError, "the {row_name} row has room for {c} more card(s), the move puts "
                            "{b} there"),
    S.DEST_COUNT: (MoveError, "{n_dealt} cards dealt, {a} destinations given"),
    S.DEST_ILLEGAL: (MoveError, "not a legal move: {rows}"),
    S.INDEX_RANGE: (MoveIndexError, "move index {a} out of range"),
    S.NO_SEAT: (ArgumentError, "no seat {a} at a table of {n_players}"),
    S.NOT_FINISHED: (StateError, "the hand is not finished"),
    S.BAD_PLAYERS: (ArgumentError, "n_players must be 2 .. 4, got {a}"),
    S.BAD_BUTTON: (ArgumentError, "no seat {a} at a table of {n_players}: button must be "
                                  "0 .. {last_seat}"),
    S.BAD_DECK: (CardError, "deck must list all {deck_size} cards exactly once"),
    S.BAD_SCHEDULE: (RulesError, "the variant's deal cannot be played"),
    S.BAD_FL_CARDS: (RulesError, "seat {a}'s fantasyland deal of {b} cards cannot fill the "
                                 "{n_cards}-card layout ({n_cards} .. {max_deal} cards)"),
    S.BAD_FL_COUNT: (ArgumentError, "seat {a}'s fantasyland count must be 0 .. 255, got {b}"),
    S.DEAL_TOO_BIG: (RulesError, "the deal needs {a} cards, the deck has {deck_size}"),
    S.BAD_REASON: (ArgumentError, "reason must be 0 .. 4, got {a}"),
}
"""What each :class:`~ofc_fast._hand.HandStatus` means: the exception
class and its message template (fields filled by :func:`hand_error`)."""


def _card_text(c: Any) -> str:
    try:
        return format_card(int(c))
    except (CardError, TypeError, ValueError, OverflowError):
        return shorten(c)


def _item(seq: Any, i: int) -> object:
    try:
        return seq[i]
    except Exception:  # noqa: BLE001 - only for a message: whatever the sequence does
        return None


def hand_error(core: HandCore, status: int, cards: object = None, rows: object = None,
               variant: Variant | None = None) -> Exception:
    """The exception for a status the hand core returned (``HAND_MESSAGES``).

    Its message is filled from the core's ``error_detail()`` and the move
    (``cards``, ``rows``) it was given.

    Parameters
    ----------
    core : ofc_fast._hand.HandCore
        The hand core that returned the status.
    status : int
        A :class:`~ofc_fast._hand.HandStatus` other than ``HAND_OK``.
    cards : object, optional
        The move's cards as given, for the message.
    rows : object, optional
        The move's destinations as given, for the message.
    variant : Variant, optional
        The rules (row names in the message).

    Returns
    -------
    Exception
        The exception to raise: a MoveError (MoveIndexError for an index), a
        CardError, a RulesError, an ArgumentError or a StateError, as
        ``HAND_MESSAGES`` says.

    Raises
    ------
    KeyError
        For a status ``HAND_MESSAGES`` does not word (``HAND_OK``).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=7)
    >>> hand_error(g._core, S.INDEX_RANGE, variant=g.variant)
    MoveIndexError('move index 0 out of range')
    """
    exc, template = HAND_MESSAGES[S(status)]
    a, b, c = core.error_detail()
    hand = core.hand()
    R = variant.n_rows if variant is not None else len(hand)
    names = variant.row_names if variant is not None else ()
    fields = dict(
        a=a, b=b, c=c, seat=core.to_act, hand=format_cards(list(hand)), n_dealt=len(hand),
        keep=core.keep, n_discard=len(hand) - core.keep, last_row=R - 1,
        n_players=core.n_players, last_seat=core.n_players - 1, max_deal=MAX_DEAL,
        n_cards=variant.n_cards if variant is not None else "?",
        deck_size=variant.deck_size if variant is not None else DECK_SIZE,
        card=_card_text(_item(cards, a)) if cards is not None else "",
        row=shorten(_item(rows, a)) if rows is not None else "",
        dealt=_card_text(a), row_name=names[a] if 0 <= a < len(names) else f"row {a}",
        cards=shorten(cards), rows=shorten(tuple(rows) if isinstance(rows, list) else rows),
    )
    return exc(template.format(**fields))

# --------------------------------------------------------------------------- moves
class Move(NamedTuple):
    """One move: the dealt cards (deal order) and each card's destination,
    a row index (0 = top) or ``DISCARD`` (-1).

    Attributes
    ----------
    cards : tuple of int
        The dealt cards, in deal order.
    rows : tuple of int
        Each card's row (0 = top) or ``DISCARD``.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> m = Move(ofc.parse_card_text("Ah Kd 7c"), (0, 2, DISCARD))
    >>> m.describe(), m.discards, m.placed()
    ('top: Ah / bottom: Kd / discard: 7c', (20,), {0: (50,), 2: (45,)})
    >>> m                                       # the cards as text; m.cards holds the ids
    Move(cards=(Ah, Kd, 7c), rows=(0, 2, -1))
    """
    cards: tuple[int, ...]
    rows: tuple[int, ...]

    def __repr__(self) -> str:
        """``Move(cards=(Ah, Kd, 7c), rows=(0, 2, -1))``: the cards as text."""
        try:
            cards = ", ".join(format_card(int(c)) for c in self.cards)
        except (CardError, TypeError, ValueError, OverflowError):
            cards = None                    # not card ids: as given
        if cards is not None and len(self.cards) == 1:
            cards += ","
        return (f"Move(cards={'(' + cards + ')' if cards is not None else repr(self.cards)}, "
                f"rows={self.rows!r})")

    @property
    def discards(self) -> tuple[int, ...]:
        """The cards discarded."""
        return tuple(c for c, r in zip(self.cards, self.rows, strict=False) if r == DISCARD)

    def placed(self) -> dict[int, tuple[int, ...]]:
        """``{row: (cards...)}`` for the rows that receive cards.

        Returns
        -------
        dict of int to tuple of int
        """
        out: dict[int, tuple[int, ...]] = {}
        for c, r in zip(self.cards, self.rows, strict=False):
            if r != DISCARD:
                out[r] = out.get(r, ()) + (c,)
        return out

    def describe(self, variant: Variant | str = "pineapple") -> str:
        """The move in words, ``"top: Ah / bottom: Kd 7c / discard: 2s"``.

        Parameters
        ----------
        variant : Variant or str
            The rules (their row names).

        Returns
        -------
        str
        """
        names = as_variant(variant).row_names
        placed = self.placed()
        bad = [r for r in placed if not (isinstance(r, (int, np.integer)) and 0 <= r < len(names))]
        if bad:
            raise MoveError(f"row {shorten(bad[0])} does not exist (rows 0 .. {len(names) - 1}, "
                            f"-1 = discard)")
        parts = [f"{names[r]}: {format_cards(list(cs))}" for r, cs in sorted(placed.items())]
        if self.discards:
            parts.append(f"discard: {format_cards(list(self.discards))}")
        return " / ".join(parts)


def action_space(variant: Variant) -> tuple[int, int]:
    """``(R, size)``: the rows of a variant and the size of its action space,
    ``(R + 1) ** k`` with ``k`` the most cards one street deals (the action
    encoding of :meth:`MoveList.action`; ``ofc_fast.sim.action_size``).

    Parameters
    ----------
    variant : Variant
        The rules (checked).

    Returns
    -------
    (int, int)

    Raises
    ------
    RulesError
        A deal the engine cannot play.

    Examples
    --------
    >>> action_space(as_variant("pineapple")), action_space(as_variant("big-pineapple"))
    ((3, 1024), (4, 15625))
    """
    R = len(variant.row_sizes)
    k = max(d for d, _ in deal_schedule(variant.first_street, variant.streets, variant.n_cards))
    return R, (R + 1) ** k


def _row_names(variant: Variant) -> dict[str, int]:
    names = {n: i for i, n in enumerate(variant.row_names)}
    names.update({"discard": DISCARD, "discards": DISCARD, "front": 0, "back": variant.n_rows - 1})
    return names


def move_from_mapping(spec: Mapping[Any, Any], hand: Sequence[int], variant: Variant) -> Move:
    """A :class:`Move` from a mapping of row names (or indexes) to cards.

    Parameters
    ----------
    spec : mapping
        Row name (``"top"``, ``"middle"``, ``"bottom"``, ``"third"``,
        ``"second"``, ``"front"``, ``"back"``, ``"discard"``) or row index to
        cards (text, ids, or one id).
    hand : sequence of int
        The dealt cards; those ``spec`` does not name are discarded.
    variant : Variant
        The rules (their row names).

    Returns
    -------
    Move
        The named cards in the mapping's order, then the discards.

    Raises
    ------
    MoveError
        For an unknown row name, a key that is neither a name nor an index,
        or cards that do not parse.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> move_from_mapping({"top": "As"}, (51, 3), ofc.variant("pineapple"))
    Move(cards=(As, 2s), rows=(0, -1))
    """
    names = _row_names(variant)
    cards: list[int] = []
    rows: list[int] = []
    for key, val in spec.items():
        if isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)):
            row = int(key)
        elif isinstance(key, str):
            k = key.lower()
            if k not in names:
                raise MoveError(f"unknown row {key!r}; valid: {', '.join(variant.row_names)}, "
                                f"discard")
            row = names[k]
        else:
            raise MoveError(f"a row is a row name or index, got {shorten(key)}")
        try:
            ids = parse_card_list(val if isinstance(val, str) else
                                  [val] if isinstance(val, (int, np.integer)) else list(val))
        except (CardError, TypeError) as e:
            raise MoveError(f"the {key} cards of the move: {e}") from None
        for c in ids:
            cards.append(c)
            rows.append(row)
    for c in hand:                      # dealt cards the mapping does not name are discarded
        if c not in cards:
            cards.append(c)
            rows.append(DISCARD)
    return Move(tuple(cards), tuple(rows))


def normalize_move(cards: Any, rows: Any,
                   variant: Variant) -> tuple[object, tuple[int, ...]] | None:
    """A move's ``(cards, rows)`` as card ids and row indexes.

    Parameters
    ----------
    cards : sequence or str
        The move's cards as given (text or ids).
    rows : sequence
        Its destinations as given (row names or indexes).
    variant : Variant
        The rules (their row names).

    Returns
    -------
    tuple or None
        ``(cards, rows)`` when the move names cards by text or rows by name
        (``cards`` as given when they were ids already); None when it uses
        ids and indexes already, so the hand core's error about it stands.

    Raises
    ------
    MoveError
        For cards or rows that are neither (an unknown row name, bad card
        text, something that is not a sequence).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> normalize_move(["As", "Kd"], ["top", "discard"], ofc.variant("pineapple"))
    ((51, 45), (0, -1))
    >>> normalize_move([51, 45], [0, -1], ofc.variant("pineapple")) is None
    True
    """
    changed = False
    if isinstance(cards, str) or not all(
            isinstance(c, (int, np.integer)) and not isinstance(c, (bool, np.bool_))
            for c in _items(cards, "cards")):
        try:
            cards = tuple(parse_card_list(cards if isinstance(cards, str) else list(cards)))
        except (CardError, TypeError) as e:
            raise MoveError(f"the move's cards: {e}") from None
        changed = True
    if isinstance(rows, str):
        raise MoveError(f"a move's rows are one row (index or name) per card, got {rows!r}")
    names = _row_names(variant)
    out: list[int] = []
    for r in _items(rows, "rows"):
        if isinstance(r, str):
            if r.lower() not in names:
                raise MoveError(f"unknown row {r!r}; valid: {', '.join(variant.row_names)}, "
                                f"discard")
            out.append(names[r.lower()])
            changed = True
        elif isinstance(r, (int, np.integer)) and not isinstance(r, (bool, np.bool_)):
            out.append(int(r))
        else:
            raise MoveError(f"a row is an index (0 = top, -1 = discard) or a row name, got "
                            f"{shorten(r)}")
    return (cards, tuple(out)) if changed else None


def _items(seq: Any, what: str) -> Sequence[Any]:
    if isinstance(seq, (str, bytes)):
        return seq
    try:
        return list(seq)
    except TypeError:
        raise MoveError(f"a move's {what} are a sequence, got {shorten(seq)}") from None


class MoveList(Sequence[Move]):
    """Every legal move of the player to act, enumerated lazily (a fantasyland
    hand has millions).  Indexing decodes one move; ``len`` is exact.

    Order: discard choices, then row vectors of the kept cards in
    lexicographic order (see ``docs/engine.md``).  A list goes stale
    (:class:`~ofc_fast.errors.StateError`, a RuntimeError) once a move is
    played.  An index out of range raises
    :class:`MoveIndexError` (a MoveError and an IndexError); one that is not
    an integer, TypeError.

    Parameters
    ----------
    core : ofc_fast._hand.HandCore
        The hand (``Game.legal_moves`` makes the list).
    variant : Variant, optional
        The rules, so :meth:`index` reads card text and row names.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> moves = ofc.Game("pineapple", 2, seed=7).legal_moves()
    >>> moves
    <MoveList of 232 moves for Kc 6d 3c 7h Th>
    >>> moves[5].describe(), moves.index(moves[5])
    ('top: Kc 6d 7h / middle: 3c / bottom: Th', 5)
    >>> moves.index((["Th", "7h", "3c", "6d", "Kc"], ["top", "top", "top", "middle", "bottom"]))
    178
    """
    __slots__ = ("_core", "_turn", "_n", "_cards", "_variant")

    def __init__(self, core: HandCore, variant: Variant | None = None) -> None:
        self._core = core
        self._turn = core.turn
        self._n = core.n_moves()
        self._cards = core.hand()
        self._variant = variant

    def _live(self) -> None:
        if self._core.turn != self._turn:
            raise StateError("this move list is stale: a move has been played since")

    def _live_core(self) -> HandCore:
        """The hand these moves are of (a policy in C reads the position there)."""
        self._live()
        return self._core

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: SupportsIndex) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...
    def __getitem__(self, i: SupportsIndex | slice) -> Move | list[Move]:
        if type(i) is not int or not -self._n <= i < self._n:
            if isinstance(i, slice):
                return [self[k] for k in range(*i.indices(self._n))]
            if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
                raise TypeError(f"move indexes are integers or slices, got {shorten(i)}")
            i = int(i)
            if not -self._n <= i < self._n:
                raise MoveIndexError(f"move index {shorten(i)} out of range: {self._n} moves")
        if self._core.turn != self._turn:
            self._live()
        return tuple.__new__(Move, (self._cards, self._core.move_rows(i)))

    def __iter__(self) -> Iterator[Move]:
        for k in range(self._n):
            yield self[k]

    def __contains__(self, move: object) -> bool:
        try:
            self.index(move)
        except (ValueError, TypeError):
            return False
        return True

    def index(self, move: object, start: int = 0, stop: int | None = None) -> int:
        """Position of a move in this list (any card order; card text and row
        names are fine).

        Parameters
        ----------
        move : Move or (cards, rows)
            The move.
        start : int
            Ignored (``Sequence.index`` compatibility: a move is in the list
            once).
        stop : int or None
            Ignored.

        Returns
        -------
        int

        Raises
        ------
        MoveError
            (A ValueError) if it is not a legal move, saying why.
        TypeError
            If it is not a move at all.
        StateError
            If the list is stale (also a RuntimeError).
        """
        self._live()
        if isinstance(move, Move) or (isinstance(move, (tuple, list)) and len(move) == 2):
            cards, rows = move
        else:
            raise TypeError(f"a move is a Move or a (cards, rows) pair, got {shorten(move)}")
        i = self._core.index_of(cards, rows)
        if i < 0:
            fixed = normalize_move(cards, rows, self._variant) if self._variant else None
            if fixed is not None:
                cards, rows = fixed
                i = self._core.index_of(cards, rows)
            if i < 0:
                raise hand_error(self._core, -i, cards, rows, self._variant)
        return int(i)

    @property
    def cards(self) -> tuple[int, ...]:
        """The dealt cards the moves place (deal order)."""
        return self._cards

    def layouts(self, limit: int | None = None
                ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
        """The player's layout after each move, and what each discards.

        Parameters
        ----------
        limit : int or None
            Only the first ``limit`` moves (default all).

        Returns
        -------
        tuple of two ndarrays of uint8
            ``(layouts, discards)``: shapes ``(M, n_cards)`` and
            ``(M, n_discards)``.
        """
        self._live()
        if limit is None:
            return self._core.move_layouts(-1)
        return self._core.move_layouts(min(integer(limit, "limit", 0), self._n))

    # ------------------------------------------------------------ actions
    def _street_turn(self) -> tuple[int, int]:
        """``(R, size)`` of the action encoding, for a turn of a street."""
        self._live()
        if self._variant is None:       # pragma: no cover - Game always gives it
            raise StateError("this move list has no variant: its actions are unknown")
        if self._n and self._core.street == -1:
            raise StateError("a fantasyland deal has no actions (the action encoding covers "
                             "the streets; the engine sets fantasyland hands: "
                             "ofc_fast.policies.fantasyland_move)")
        return action_space(self._variant)

    def action(self, i: SupportsIndex) -> int:
        """The action of move ``i``: the destination of each dealt card, in
        deal order, as base ``R + 1`` digits, card 0 the lowest (a row 0 ..
        ``R - 1``, or ``R`` for a discard; docs/sim.md, *The action
        encoding*): what ``GameBatch.observe()["legal"]`` lists for this
        turn, in this order, and what the environments' actions are.

        Parameters
        ----------
        i : int
            A move index (negative counts from the end).

        Returns
        -------
        int

        Raises
        ------
        MoveIndexError
            An index out of range (TypeError: not an integer).
        StateError
            A fantasyland deal (it has no action), or a stale list.

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> moves = ofc.Game("pineapple", 2, seed=7).legal_moves()
        >>> moves[5].rows, moves.action(5)        # 0 + 0*4 + 1*16 + 0*64 + 2*256
        ((0, 0, 1, 0, 2), 528)
        >>> moves.from_action(528) == moves[5]
        True
        """
        R, _ = self._street_turn()
        return int(action_code([int(r) for r in self[i].rows], R))

    def actions(self) -> npt.NDArray[np.int64]:
        """Every move's action, in the move order (:meth:`action`): equal to
        the legal actions ``GameBatch.observe()`` lists for the same turn.

        Returns
        -------
        ndarray of int64, shape (len(self),)

        Raises
        ------
        StateError
            A fantasyland deal, or a stale list.

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> g = ofc.Game("pineapple", 2, seed=7)
        >>> g.play(g.legal_moves()[0]); g.play(g.legal_moves()[0])
        >>> g.legal_moves().actions().tolist()       # 3 dealt: 2 kept, one discarded
        [23, 39, 27, 43, 29, 45, 30, 46, 53, 57, 54, 58]
        """
        R, _ = self._street_turn()
        return np.array([action_code(self[k].rows, R) for k in range(self._n)], np.int64)

    def action_mask(self) -> npt.NDArray[np.bool_]:
        """The legal actions as a mask over the action space (``True`` at
        each move's action): ``GameBatch.observe()["mask"]`` of this turn.

        Returns
        -------
        ndarray of bool, shape (action_size,)

        Raises
        ------
        StateError
            A fantasyland deal, or a stale list.
        """
        _, size = self._street_turn()
        mask = np.zeros(size, np.bool_)
        mask[self.actions()] = True
        return mask

    def from_action(self, action: object) -> Move:
        """The move of an action: the inverse of :meth:`action`.

        Parameters
        ----------
        action : int
            An action of the variant's action space (a numpy integer is one).

        Returns
        -------
        Move
            ``self[i]`` for the ``i`` with ``self.action(i) == action``.

        Raises
        ------
        ArgumentError
            An action outside the action space (``TypeError``: not an integer).
        MoveError
            An action that is no legal move of this turn (a digit beyond the
            cards dealt, a full row, a wrong number of discards), saying why.
        StateError
            A fantasyland deal, or a stale list.

        Examples
        --------
        >>> import ofc_fast as ofc
        >>> moves = ofc.Game("pineapple", 2, seed=7).legal_moves()
        >>> moves.from_action(moves.action(17)) == moves[17]
        True
        """
        R, size = self._street_turn()
        a = integer(action, "action", 0, size - 1)
        dest = action_dest(a, len(self._cards), R, size)
        if isinstance(dest, int):
            raise MoveError(f"action {a} names a destination for more than the "
                            f"{len(self._cards)} cards dealt ({format_cards(list(self._cards))})")
        i = self._core.index_of(self._cards, dest)
        if i < 0:
            raise hand_error(self._core, -i, self._cards, dest, self._variant)
        return self[i]

    def __repr__(self) -> str:
        return f"<MoveList of {self._n} moves for {format_cards(list(self._cards))}>"


# --------------------------------------------------------------------- views, results
class _Viewable(Protocol):
    """What :class:`PlayerView` reads a view from (``ofc_fast.engine.Game``)."""

    def view(self, seat: int) -> PlayerView: ...


class PlayerView:
    """What one player may see (docs/rules.md section 9): their own layout, hand and
    discards; opponents' placed cards, except a fantasyland hand before the
    showdown; never an opponent's discards.  A snapshot: it does not change
    when the game goes on.

    Parameters
    ----------
    game : Game
        The game (``PlayerView(game, seat)`` is ``game.view(seat)``).
    seat : int
        The player.

    Attributes
    ----------
    variant : Variant
        The rules.
    seat : int
        The player this view belongs to.
    n_players : int
        Players at the table.
    button : int
        The button's seat.
    to_act : bool
        This player acts now.
    street : int or None
        The street this player plays now (-1 for a fantasyland hand), None
        when it does not act.
    hand : tuple of int
        The cards dealt to this player now (empty when it does not act).
    keep : int
        How many of them it places.
    fantasyland_deal : tuple of int
        Per seat, the cards dealt in fantasyland this hand (0 = not in it).
    fantasyland_count : tuple of int
        Per seat, fantasyland hands in a row, this one included.
    done : bool
        The hand is over.
    dead : bool
        This player's hand is dead.
    timed_out : tuple of int
        The seats that ran out of time in this hand (public: their later
        moves are time-out placements).

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=7)
    >>> view = g.view(1)
    >>> view
    <PlayerView seat 1, street 0, hand Kc 6d 3c 7h Th>
    >>> view.to_act, view.layouts.shape, len(view.unseen), g.view(0).hand
    (True, (2, 13), 47, ())
    """
    __slots__ = ("variant", "seat", "n_players", "button", "to_act", "street", "hand", "keep",
                 "fantasyland_deal", "fantasyland_count", "done", "dead", "timed_out", "_vis",
                 "_disc", "_seen", "_arr")
    variant: Variant
    seat: int
    n_players: int
    button: int
    to_act: bool
    street: int | None
    hand: tuple[int, ...]
    keep: int
    fantasyland_deal: tuple[int, ...]
    fantasyland_count: tuple[int, ...]
    done: bool
    dead: bool
    timed_out: tuple[int, ...]
    _vis: bytes
    _disc: bytes
    _seen: int
    _arr: npt.NDArray[np.uint8] | None

    def __init__(self, game: _Viewable, seat: int) -> None:
        view = game.view(seat)
        for name in PlayerView.__slots__:
            setattr(self, name, getattr(view, name))

    @classmethod
    def from_core(cls, core: HandCore, seat: int, variant: Variant) -> PlayerView:
        """The view of ``seat`` from a hand core (``ofc_fast.engine.Game`` builds
        its views so); ``seat`` is checked.

        Parameters
        ----------
        core : ofc_fast._hand.HandCore
            The hand.
        seat : int
            The player.
        variant : Variant
            The hand's rules.

        Returns
        -------
        PlayerView

        Raises
        ------
        TypeError, ArgumentError
            For a seat that is not an integer, or not at the table.
        """
        self = cls.__new__(cls)
        if type(seat) is not int or not 0 <= seat < core.n_players:
            seat = seat_arg(seat, core.n_players)
        self.variant = variant
        self.seat = seat
        self.n_players = core.n_players
        self.button = core.button
        self.done = core.done
        act = core.to_act
        self.to_act = act == seat
        self.street = core.street if self.to_act else None
        self.hand = core.hand() if self.to_act else ()
        self.keep = core.keep if self.to_act else 0
        self.fantasyland_deal, self.fantasyland_count = core.fantasyland()
        self.dead = core.dead_flags()[seat]
        self.timed_out = core.timed_out()
        self._vis = core.visible(seat)
        self._disc = core.discards(seat)
        self._seen = core.seen(seat)
        self._arr = None
        return self

    @property
    def in_fantasyland(self) -> tuple[bool, ...]:
        """Per seat: playing this hand in fantasyland (public knowledge)."""
        return tuple(c > 0 for c in self.fantasyland_deal)

    fantasyland = renamed_attribute("fantasyland_deal", "fantasyland")

    @property
    def layouts(self) -> npt.NDArray[np.uint8]:
        """``(players, n_cards)`` layouts as this player sees them (EMPTY when
        hidden or still free); read-only."""
        if self._arr is None:
            a = np.frombuffer(self._vis, dtype=np.uint8).reshape(self.n_players, -1)
            self._arr = a
            return a
        return self._arr

    @property
    def layout(self) -> npt.NDArray[np.uint8]:
        """This player's own layout."""
        own: npt.NDArray[np.uint8] = self.layouts[self.seat]
        return own

    @property
    def discards(self) -> npt.NDArray[np.uint8]:
        """This player's own discards so far."""
        return np.frombuffer(self._disc, dtype=np.uint8)

    @property
    def seen_mask(self) -> int:
        """Card mask of every card this player has seen (hand included;
        jokers at bits 52 and 53)."""
        return self._seen

    @property
    def unseen(self) -> npt.NDArray[np.uint8]:
        """Cards of the deck this player has not seen (ascending ids: the
        naturals, then the variant's jokers it has not seen, 52 = ``X1``, 53 = ``X2``)."""
        cards = mask_cards(ALL_CARDS & ~self._seen)
        jokers = [DECK_SIZE + j for j in range(self.variant.jokers)
                  if not self._seen >> (DECK_SIZE + j) & 1]
        return np.concatenate([cards, np.array(jokers, np.uint8)]) if jokers else cards

    def __repr__(self) -> str:
        return (f"<PlayerView seat {self.seat}, street {self.street}, "
                f"hand {format_cards(list(self.hand)) or '-'}>")


@dataclass(frozen=True)
class HandResult:
    """Showdown of one hand, per seat (:meth:`Game.result`).

    Attributes
    ----------
    points : tuple of int
        Zero-sum points won, per seat.
    foul : tuple of bool
        Fouled, per seat.
    royalty_total : tuple of int
        Royalties earned (0 when fouled).
    royalties : tuple of tuple of int
        Per seat, the royalties of each row, top first.  (0.1 called this
        ``row_royalties``, and ``royalties`` was the total.)
    strengths : tuple of tuple of int
        Per seat, joint row strengths, top first.
    next_fantasyland : tuple of int
        Cards dealt in fantasyland next hand (0 = none).
    next_in_fantasyland : tuple of int
        Fantasyland count for the next hand (0 = none).
    repeat : tuple of bool
        A fantasyland hand earned a repeat.
    timed_out : tuple of int
        Seats that ran out of time, in the order they did.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> res = ofc.Game("pineapple", 2, seed=3).run(ofc.RandomPolicy(4))
    >>> sum(res.points), len(res.royalties[0])
    (0, 3)
    """
    points: tuple[int, ...]
    foul: tuple[bool, ...]
    royalty_total: tuple[int, ...]
    royalties: tuple[tuple[int, ...], ...]
    strengths: tuple[tuple[int, ...], ...]
    next_fantasyland: tuple[int, ...]
    next_in_fantasyland: tuple[int, ...]
    repeat: tuple[bool, ...]
    timed_out: tuple[int, ...] = ()

    row_royalties = renamed_attribute("royalties", "row_royalties")
    fantasyland = renamed_attribute("next_fantasyland", "fantasyland")


class Turn(NamedTuple):
    """One played turn of the hand history (:attr:`Game.history`).

    Attributes
    ----------
    seat : int
        The player.
    street : int
        The street (0 first; -1 for a fantasyland hand).
    move : Move
        What was played.
    auto : str or None
        Why it was played automatically (``"only option"``, ``"dead"``,
        ``"every option dead"``, ``"time-out"``), or None for a player's move.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> g = ofc.Game("pineapple", 2, seed=7)
    >>> g.play(g.legal_moves()[0])
    >>> turn = g.history[0]
    >>> turn.seat, turn.street, turn.move.describe(), turn.auto
    (1, 0, 'top: Kc 6d 3c / middle: 7h Th', None)
    """
    seat: int
    street: int
    move: Move
    auto: str | None


