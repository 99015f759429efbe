"""Recorded hands one at a time: :class:`HandRecord` (a table of players
in seat order) and :class:`PlayerRecord`, parsed from an ``ofc-hand/1``
dict by the builder (:meth:`HandRecord.from_dict`) or taken from a chunk
(:meth:`HandRecord.from_chunk`, :func:`hand_records`).  The top of
``records/``: it reads through the builder and the chunks, never the other
way round.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ofc_fast.errors import shorten
from ofc_fast.records.builder import ChunkBuilder
from ofc_fast.records.chunk import HAND_RECORD, Chunk
from ofc_fast.records.model import DEFAULT_RULES, Rules, hand_dict, player_dict
from ofc_fast.rules import Variant

if TYPE_CHECKING:
    from ofc_fast.scoring import TableResult

__all__ = ["PlayerRecord", "HandRecord", "hand_records"]


@dataclass
class PlayerRecord:
    """One player's finished hand in a record.

    Attributes
    ----------
    layout : numpy.ndarray
        ``(n_cards,)`` uint8 card ids, top row first.
    name : str, optional
        The player's name.
    in_fantasyland : int
        0 for a normal hand, *k* for the *k*-th fantasyland hand in a row.
    discards : list of int
        The cards the player discarded.
    points : int, optional
        The recorded points, if any.

    Examples
    --------
    >>> import ofc_fast as ofc
    >>> p = PlayerRecord(ofc.parse_cards("Qs Qd 2c 9h 9d 9c 5s 5d 7h 7d 7c 7s 2d"), "ann")
    >>> p.to_dict(ofc.variant("pineapple"))["middle"]
    '9h 9d 9c 5s 5d'
    """
    layout: np.ndarray                 # (n_cards,) uint8, top row first
    name: str | None = None
    in_fantasyland: int = 0
    discards: list[int] = field(default_factory=list)
    points: int | None = None          # recorded points, if any

    def to_dict(self, v: Variant) -> dict[str, Any]:
        """This player as the player object of an ``ofc-hand/1`` record.

        Parameters
        ----------
        v : Variant
            The hand's rules (its row names and sizes).

        Returns
        -------
        dict
            See :func:`player_dict`.
        """
        return player_dict(v, self.layout.tolist(), self.name, self.in_fantasyland,
                           self.discards, self.points)


@dataclass
class HandRecord:
    """One recorded hand (a table): players in seat order, seat 0 = button.

    Attributes
    ----------
    id : object
        The hand's id, as recorded.
    variant : Variant
        The rules it is scored by.
    players : list of PlayerRecord
        In seat order.
    variant_name : str
        The variant's name as written (files keep it).
    options : dict, optional
        The options as written.
    source : str
        The file it was read from.
    line : int, optional
        Its line (or row) there.

    Examples
    --------
    >>> rec = HandRecord.from_dict({"id": "h1", "players": [
    ...     {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"},
    ...     {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}]})
    >>> rec.score().points.tolist(), rec.variant.name
    ([6, -6], 'pineapple')
    """
    id: object
    variant: Variant
    players: list[PlayerRecord]
    variant_name: str = "pineapple"
    options: dict[str, Any] | None = None
    source: str = ""
    line: int | None = None

    @classmethod
    def from_dict(cls, rec: Mapping[str, Any], rules: Rules = DEFAULT_RULES, *,
                  source: str = "", line: int | None = None) -> HandRecord:
        """Parse and validate one ``ofc-hand/1`` dict.

        Parameters
        ----------
        rec : mapping
            The record (docs/formats.md, "JSON Lines").
        rules : Rules
            The rules of a record that names none.
        source : str
            The file, for messages.
        line : int, optional
            The line, for messages.

        Returns
        -------
        HandRecord

        Raises
        ------
        RecordError
            What is wrong with the record (cards, rows, players, rules, numbers).
        """
        b = ChunkBuilder(source, rules, strict=True)
        b.add(rec, line)
        chunk = b.finish()
        chunk.validate()
        return cls.from_chunk(chunk, 0)

    @classmethod
    def from_chunk(cls, chunk: Chunk, h: int) -> HandRecord:
        """Hand ``h`` of a chunk (recorded points, not ours).

        Parameters
        ----------
        chunk : Chunk
            Hands a reader read.
        h : int
            The hand in the chunk.

        Returns
        -------
        HandRecord

        Raises
        ------
        IndexError
            ``h`` is not a hand of the chunk.
        TypeError
            ``h`` is not an integer.

        Examples
        --------
        >>> from ofc_fast.records import chunk_from_records
        >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
        >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
        >>> rec = HandRecord.from_chunk(chunk_from_records([{"id": 7, "players": [p, q]}]), 0)
        >>> rec.id, rec.players[1].layout[:3].tolist()
        (7, [47, 45, 4])
        """
        if isinstance(h, (bool, np.bool_)) or not isinstance(h, (int, np.integer)):
            raise TypeError(f"h must be an integer (a hand of the chunk), got {shorten(h)}")
        if not 0 <= h < chunk.n_hands:
            raise IndexError(f"hand {h} of a chunk of {chunk.n_hands}")
        v, vname, opts = chunk.hand_rules(h)
        lo, hi = int(chunk.hand_start[h]), int(chunk.hand_start[h + 1])
        cards = chunk.cards()[:, :v.n_cards]
        names = chunk.name[lo:hi]
        names = names.to_pylist() if hasattr(names, "to_pylist") else list(names)
        players = []
        for i, r in enumerate(range(lo, hi)):
            players.append(PlayerRecord(
                layout=cards[r].copy(), name=names[i],
                in_fantasyland=int(chunk.in_fantasyland[r]), discards=chunk.discard_ids(r),
                points=int(chunk.recorded[r]) if chunk.has_recorded[r] else None))
        hid = chunk.hand_id[h]
        hid = hid.as_py() if hasattr(hid, "as_py") else hid
        return cls(id=hid, variant=v, players=players, variant_name=vname, options=opts,
                   source=chunk.source, line=int(chunk.hand_line[h]))

    def to_dict(self) -> dict[str, Any]:
        """This hand as an ``ofc-hand/1`` dict (:func:`hand_dict`).

        Returns
        -------
        dict
        """
        ps = self.players
        return hand_dict(self.variant, [p.layout.tolist() for p in ps], id=self.id,
                         names=[p.name for p in ps],
                         in_fantasyland=[p.in_fantasyland for p in ps],
                         discards=[p.discards for p in ps], points=[p.points for p in ps],
                         variant_name=self.variant_name, options=self.options)

    @property
    def tables(self) -> np.ndarray:
        """``(1, P, n_cards)`` uint8, for :func:`ofc_fast.score_tables`."""
        return np.stack([p.layout for p in self.players])[None]

    def score(self) -> TableResult:
        """Score this hand.

        Returns
        -------
        TableResult
            :class:`ofc_fast.TableResult` of this table; each field has shape ``(P,)``
            (``substitutes`` ``(P, jokers)``: the card each joker stands for,
            255 where the player holds no such joker; docs/jokers.md).
        """
        from ofc_fast.scoring import TableResult, score_tables
        fl = np.array([[p.in_fantasyland for p in self.players]], np.uint8)
        scorer: Any = score_tables         # (typed where scoring is)
        r = cast(TableResult, scorer(self.tables, self.variant, in_fantasyland=fl, details=True))
        return TableResult(points=r.points[0], foul=r.foul[0], royalty_total=r.royalty_total[0],
                           next_fantasyland=r.next_fantasyland[0], substitutes=r.substitutes[0])


def hand_records(chunk: Chunk) -> Iterator[HandRecord]:
    """Each hand of a chunk as a :class:`HandRecord`, in order.

    Parameters
    ----------
    chunk : Chunk
        Hands a reader read.

    Yields
    ------
    HandRecord

    Raises
    ------
    RecordError
        Never for a chunk a reader made (its hands are validated).

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    >>> [r.id for r in hand_records(chunk_from_records([{"id": 1, "players": [p, q]}]))]
    [1]
    """
    for h in range(chunk.n_hands):
        yield HandRecord.from_chunk(chunk, h)


HAND_RECORD[:] = [HandRecord]     # for the deprecated Chunk.record / Chunk.records
