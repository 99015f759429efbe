"""The one schema of a player-hand row: the columns every writer writes and
:func:`~ofc_fast.io.score_frame` adds, their names, types and order
(docs/formats.md).

A row is the hand's keys (:data:`KEYS`), the hand's rules and the
player's fantasyland state, the layout (card text in the text formats,
:data:`ROW_COLUMNS`; uint8 card ids ``c00`` .. in Arrow), the discards, the
recorded ``points``; a scored row then holds our results,
:data:`RESULTS` in this order.  Every writer takes its columns from here:
CSV's header, the Arrow tables of Parquet and frames, the keys JSON Lines
adds to each player.

>>> RESULT_COLUMNS
('points', 'royalties', 'foul', 'fantasyland', 'recorded_points', 'substitutes')
>>> [(c.name, c.dtype) for c in RESULTS][:2]
[('points', 'int32'), ('royalties', 'int16')]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ofc_fast.records import Chunk

__all__ = ["Column", "RESULTS", "RESULT_COLUMNS", "KEYS", "KEY_COLUMNS", "HAND_COLUMNS",
           "ROW_COLUMNS", "CSV_COLUMNS", "card_columns", "result_values"]


@dataclass(frozen=True)
class Column:
    """One column of the schema.

    Attributes
    ----------
    name : str
        Its name in every format.
    dtype : str
        Its numpy dtype (the Arrow type is the same width; JSON Lines writes
        ``bool`` as true/false, CSV as 0/1).
    nullable : bool
        It may hold nulls (null: nothing to say; left out in JSON Lines).
    doc : str
        What it holds, for the docs.

    Examples
    --------
    >>> c = RESULTS[4]
    >>> c.name, c.dtype, c.nullable
    ('recorded_points', 'int64', True)
    """
    name: str
    dtype: str
    nullable: bool = False
    doc: str = ""


RESULTS = (
    Column("points", "int32", doc="our points for the hand (sum over opponents)"),
    Column("royalties", "int16", doc="the player's royalties (0 when fouled)"),
    Column("foul", "bool", doc="the hand is fouled (dead)"),
    Column("fantasyland", "uint8", doc="cards dealt in fantasyland next hand (0 = none): an "
           "entry, or a repeat for a player in fantasyland"),
    Column("recorded_points", "int64", nullable=True,
           doc="the recorded points, only where they differ from ours"),
    Column("substitutes", "object", nullable=True,
           doc="the cards the player's jokers stand for, X1's then X2's (card text, "
           "e.g. 'Qh' or 'Qh 5h'; docs/jokers.md), only for a player with a joker"),
)
"""Our results, in the order every writer writes them."""

RESULT_COLUMNS = tuple(c.name for c in RESULTS)
"""The names of :data:`RESULTS`."""

KEYS = (
    Column("hand_id", "object", doc="the hand's id (an integer or text)"),
    Column("seat", "int8", doc="0 .. n_players - 1 (0 = button)"),
    Column("n_players", "int8", doc="players at the table"),
    Column("name", "object", nullable=True, doc="the player's name"),
    Column("variant", "object", doc="the rules applied (a dictionary column in Arrow)"),
)
"""What says whose row it is: the first columns of every row written (also
of results-only output)."""

KEY_COLUMNS = tuple(c.name for c in KEYS)
"""The names of :data:`KEYS`."""

HAND_COLUMNS = KEY_COLUMNS + ("options", "in_fantasyland")
"""The keys, then the hand's options and the player's fantasyland state."""

ROW_COLUMNS = ("top", "middle", "bottom", "third", "second")
"""The layout as card text, one column a row (CSV; ``third`` and ``second``
for four-row hands)."""

CSV_COLUMNS = HAND_COLUMNS + ROW_COLUMNS + ("discards", "points")
"""A CSV hands file's header (``points``: the recorded ones; a scored file's
``points`` are ours, then the other results)."""


def card_columns(width: int) -> list[str]:
    """The names of ``width`` card id columns (Arrow, Parquet, frames).

    Parameters
    ----------
    width : int
        13 (three rows) or 18 (four).

    Returns
    -------
    list of str

    Raises
    ------
    TypeError
        ``width`` is not an integer.

    Examples
    --------
    >>> card_columns(13)[-2:], len(card_columns(18))
    (['c11', 'c12'], 18)
    """
    return [f"c{i:02d}" for i in range(width)]


def result_values(chunk: Chunk) -> dict[str, tuple[np.ndarray, np.ndarray | None]]:
    """A scored chunk's results by column: ``(values, valid)``, in the schema's
    dtypes and order (``valid`` None: every row has a value).

    Parameters
    ----------
    chunk : Chunk
        Scored.

    Returns
    -------
    dict

    Raises
    ------
    StateError
        The chunk is not scored.

    Examples
    --------
    >>> from ofc_fast.records import chunk_from_records
    >>> p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d",
    ...      "points": 6}
    >>> q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d",
    ...      "points": 0}
    >>> res = result_values(chunk_from_records([{"players": [p, q]}]).score())
    >>> res["points"][0].tolist(), res["recorded_points"][1].tolist()
    ([6, -6], [False, True])
    """
    pts, roy, foul, fan = chunk.results()
    values = (pts, roy, foul, fan, chunk.recorded)
    out: dict[str, tuple[np.ndarray, np.ndarray | None]] = {
        c.name: (np.asarray(x, c.dtype), None) for c, x in zip(RESULTS, values, strict=False)}
    out["recorded_points"] = (out["recorded_points"][0],
                              chunk.has_recorded & (chunk.recorded != pts))
    codes, texts = chunk.substitute_codes()
    out["substitutes"] = (np.array(texts, object)[codes], codes > 0)
    return out
