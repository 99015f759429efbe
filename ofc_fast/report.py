"""Summaries of scored hands: per-player totals, --verify mismatches, plots.

One concern (results for people: tables, frames and figures), a little over
800 lines.

>>> import ofc_fast.io as fio, ofc_fast.report as rep
>>> s = rep.Summary()
>>> for chunk in fio.read_chunks(rep.sample_path()):
...     s.add(chunk.score())
>>> s.hands >= 1000
True
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ofc_fast._args import integer
from ofc_fast.errors import ArgumentError, StateError, shorten
from ofc_fast.records import Chunk
from ofc_fast.rules import Variant

__all__ = ["Summary", "PlayerTotals", "Mismatch", "find_mismatches", "plot", "plot_points",
           "plot_royalties", "plot_rates", "save_figure", "sample_path"]


def sample_path() -> str:
    """Path of the bundled sample of recorded hands (``ofc_fast/data/sample.jsonl``).

    Returns
    -------
    str

    Raises
    ------
    OSError
        Never: the path is computed, not opened.

    Examples
    --------
    >>> sample_path().endswith("sample.jsonl")
    True
    """
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sample.jsonl")


@dataclass
class PlayerTotals:
    """One player's totals over the hands scored.

    Attributes
    ----------
    name : str
        The player's name (``seat N`` for unnamed players).
    hands : int
        Player-hands played.
    net : int
        Points won, net.
    fouls : int
        Fouled hands.
    fantasyland : int
        Hands that earned fantasyland (entry or repeat).
    in_fantasyland : int
        Hands played in fantasyland.
    royalties : int
        Royalties earned.

    Examples
    --------
    >>> t = PlayerTotals("ann", hands=4, net=10, fouls=1, fantasyland=1, in_fantasyland=0,
    ...                  royalties=12)
    >>> t.points_per_hand, t.foul_pct
    (2.5, 25.0)
    """
    name: str
    hands: int
    net: int
    fouls: int
    fantasyland: int        # hands that earned fantasyland (entry or repeat)
    in_fantasyland: int     # hands played in fantasyland
    royalties: int

    @property
    def points_per_hand(self) -> float:
        return self.net / self.hands if self.hands else 0.0

    @property
    def foul_pct(self) -> float:
        return 100.0 * self.fouls / self.hands if self.hands else 0.0

    @property
    def fantasyland_pct(self) -> float:
        return 100.0 * self.fantasyland / self.hands if self.hands else 0.0

    @property
    def royalties_per_hand(self) -> float:
        return self.royalties / self.hands if self.hands else 0.0

    def as_dict(self) -> dict[str, Any]:
        """These totals as plain values (for JSON; rates rounded)."""
        return dict(name=self.name, hands=self.hands, net=self.net,
                    points_per_hand=round(self.points_per_hand, 4),
                    foul_pct=round(self.foul_pct, 3),
                    fantasyland_pct=round(self.fantasyland_pct, 3),
                    royalties_per_hand=round(self.royalties_per_hand, 4),
                    in_fantasyland=self.in_fantasyland)


def _row_names(chunk: Chunk) -> tuple[np.ndarray, list[str]]:
    """(codes per row, list of names) with unnamed players called 'seat N'."""
    seat = chunk.seat
    name = chunk.name
    if hasattr(name, "to_pylist") and not isinstance(name, list):
        import pyarrow as pa
        import pyarrow.compute as pc
        if name.null_count == len(name):
            return seat.astype(np.int64), [f"seat {i}" for i in range(int(seat.max(initial=0)) + 1)]
        enc = name.dictionary_encode()
        if isinstance(enc, pa.ChunkedArray):
            enc = enc.combine_chunks()
        codes = pc.fill_null(enc.indices, 0).to_numpy(zero_copy_only=False).astype(np.int64)
        names = [str(x) for x in enc.dictionary.to_pylist()]
        if enc.null_count:
            nulls = enc.indices.is_null().to_numpy(zero_copy_only=False)
            base = len(names)
            names += [f"seat {i}" for i in range(int(seat.max(initial=0)) + 1)]
            codes = np.where(nulls, base + seat, codes)
        return codes, names
    if chunk.name_codes is not None:      # the reader coded the names already
        codes, uniq_names = chunk.name_codes
        return _coded_names(codes, uniq_names, seat)
    uniq = dict.fromkeys(name)
    unnamed = None in uniq
    uniq.pop(None, None)
    names = [n if n.__class__ is str else str(n) for n in uniq]
    lookup = {n: i for i, n in enumerate(uniq)}
    if unnamed:
        base = len(names)
        lookup[None] = -1
        codes = np.fromiter(map(lookup.__getitem__, name), np.int64, len(name))
        names += [f"seat {i}" for i in range(int(seat.max(initial=0)) + 1)]
        codes = np.where(codes < 0, base + seat, codes)
    else:
        codes = np.fromiter(map(lookup.__getitem__, name), np.int64, len(name))
    return codes, names


def _coded_names(codes: np.ndarray, uniq: list[Any],
                 seat: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """:func:`_row_names` of rows whose names are ``uniq[codes]`` (each name
    once in ``uniq``; None for unnamed players)."""
    remap = np.empty(len(uniq), np.int64)
    names: list[str] = []
    for i, n in enumerate(uniq):
        if n is None:
            remap[i] = -1
        else:
            remap[i] = len(names)
            names.append(n if n.__class__ is str else str(n))
    out = remap[codes]
    if (remap < 0).any():
        base = len(names)
        names += [f"seat {i}" for i in range(int(seat.max(initial=0)) + 1)]
        out = np.where(out < 0, base + seat, out)
    return out, names


def _display(name: str, limit: int = 40) -> str:
    """A player name for the summary table: one line, at most ``limit`` characters."""
    if len(name) <= limit and name.isprintable():
        return name
    text = "".join(c if c.isprintable() else " " for c in name[:limit + 1])
    return text if len(name) <= limit else text[:limit - 3] + "..."


_HEADER = ("player", "hands", "net", "pts/hand", "foul %", "FL %", "royalties/hand")


class Summary:
    """Per-player totals accumulated chunk by chunk (streaming).

    Parameters
    ----------
    track : bool
        Also keep each player's points hand by hand and every royalty (for
        :func:`plot`; memory grows with the hands).

    Examples
    --------
    >>> import ofc_fast.io as fio
    >>> s = Summary()
    >>> for chunk in fio.read_chunks(sample_path()):
    ...     s.add(chunk.score())
    >>> s.hands, len(s.players()) > 3
    (1479, True)
    """

    def __init__(self, track: bool = False):
        self.index: dict[str, int] = {}
        self.stats = np.zeros((0, 6), np.int64)  # hands, net, fouls, fl, in_fl, royalties
        self.hands = 0
        self.player_hands = 0
        self.track = track
        self._series: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []   # hand, player, pts
        self._royalties: list[np.ndarray] = []
        self.variants: dict[str, int] = {}

    def add(self, chunk: Chunk) -> None:
        """Add the results of a scored chunk.

        Parameters
        ----------
        chunk : Chunk
            A chunk after :meth:`Chunk.score`.

        Raises
        ------
        StateError
            The chunk is not scored.
        TypeError
            ``chunk`` is not a :class:`~ofc_fast.records.Chunk`.
        """
        if not isinstance(chunk, Chunk):
            raise TypeError(f"add() takes a Chunk, got {type(chunk).__name__}")
        if chunk.points is None:
            raise StateError("score the chunk first (chunk.score())")
        codes, names = _row_names(chunk)
        remap = np.array([self.index.setdefault(n, len(self.index)) for n in names] or [0],
                         np.int64)
        ids = remap[codes] if len(codes) else codes
        k = len(self.index)
        if len(self.stats) < k:
            self.stats = np.vstack([self.stats, np.zeros((k - len(self.stats), 6), np.int64)])
        points = chunk.points
        foul, fan, roy = (cast(np.ndarray, x) for x in (chunk.foul, chunk.next_fantasyland,
                                                          chunk.royalty_total))
        cols = (np.ones(len(ids)), points, foul, fan > 0, chunk.in_fantasyland > 0, roy)
        for j, w in enumerate(cols):
            self.stats[:, j] += np.bincount(ids, weights=w, minlength=k).astype(np.int64)
        if self.track:
            hand_no = self.hands + chunk.row_hand()
            self._series.append((hand_no, ids, points.astype(np.int64)))
            self._royalties.append(roy.astype(np.int64))
        counts = np.bincount(np.asarray(chunk.hand_variant, np.int64),
                             minlength=len(chunk.variants))
        for (_, name, _), c in zip(chunk.variants, counts.tolist(), strict=True):
            if c:
                self.variants[name] = self.variants.get(name, 0) + c
        self.hands += chunk.n_hands
        self.player_hands += chunk.n_rows

    def players(self) -> list[PlayerTotals]:
        """:class:`PlayerTotals` per player, most hands first.

        Returns
        -------
        list of PlayerTotals
        """
        out = [PlayerTotals(n, *map(int, self.stats[i]))
               for n, i in self.index.items()]
        return sorted(out, key=lambda p: (-p.hands, p.name))

    def table(self) -> str:
        """The per-player summary as aligned text.

        Returns
        -------
        str
        """
        rows = [_HEADER, *self._rows()]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = []
        for r in rows:
            lines.append("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])
                                   for i, c in enumerate(r)))
        return "\n".join(lines)

    def to_frame(self, kind: str = "pandas") -> Any:
        """The per-player totals as a frame, one row per player, most hands first.

        Parameters
        ----------
        kind : str
            ``"pandas"``, ``"polars"`` or ``"arrow"`` (a pyarrow Table).

        Returns
        -------
        pandas.DataFrame, polars.DataFrame or pyarrow.Table
            Columns ``name``, ``hands``, ``net``, ``points_per_hand``,
            ``foul_pct``, ``fantasyland_pct``, ``royalties_per_hand`` (the
            rates of :meth:`table`, unrounded), then the counts ``fouls``,
            ``fantasyland`` (hands that earned it), ``in_fantasyland`` (hands
            played there) and ``royalties``.

        Raises
        ------
        ArgumentError, TypeError
            An unknown ``kind``.
        ImportError
            The frame library is not installed.

        Examples
        --------
        >>> import ofc_fast.io as fio
        >>> s = Summary()
        >>> for chunk in fio.read_chunks(sample_path()):
        ...     s.add(chunk.score())
        >>> df = s.to_frame()
        >>> int(df["hands"].sum()) == s.player_hands, int(df["net"].sum())
        (True, 0)
        >>> df.iloc[0]["name"] == s.players()[0].name
        True
        """
        from ofc_fast._tabular import frame_kind, frame_of
        kind = frame_kind(kind)
        ps = self.players()
        ints = {c: np.array([getattr(p, c) for p in ps], np.int64)
                for c in ("hands", "net", "fouls", "fantasyland", "in_fantasyland", "royalties")}
        rates = {c: np.array([getattr(p, c) for p in ps], np.float64)
                 for c in ("points_per_hand", "foul_pct", "fantasyland_pct",
                           "royalties_per_hand")}
        counts = ("fouls", "fantasyland", "in_fantasyland", "royalties")
        return frame_of({"name": [p.name for p in ps], "hands": ints["hands"], "net": ints["net"],
                         **rates, **{c: ints[c] for c in counts}}, kind)

    def _rows(self) -> list[tuple[str, ...]]:
        """The rows of :meth:`table` (and the notebook's HTML), formatted."""
        return [(_display(p.name), f"{p.hands:,}", f"{p.net:+,}", f"{p.points_per_hand:+.3f}",
                 f"{p.foul_pct:.1f}", f"{p.fantasyland_pct:.1f}", f"{p.royalties_per_hand:.2f}")
                for p in self.players()]

    def _head(self) -> str:
        return (f"{self.hands:,} hands, {self.player_hands:,} player-hands, "
                f"{len(self.index):,} players")

    def __repr__(self) -> str:
        variants = ", ".join(f"{k} {v:,}" for k, v in sorted(self.variants.items()))
        return f"<Summary: {self._head()}" + (f" ({variants})>" if variants else ">")

    def _repr_html_(self) -> str:
        """The per-player table as HTML (what a notebook shows)."""
        from ofc_fast._tabular import html_table
        return html_table(_HEADER, self._rows(), caption=self._head())

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain values (for JSON): hands, player-hands,
        variants and each player's totals."""
        return dict(hands=self.hands, player_hands=self.player_hands, variants=self.variants,
                    players=[p.as_dict() for p in self.players()])

    def series(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Per player: hand numbers and cumulative net points (needs ``track=True``).

        Returns
        -------
        dict
            ``{name: (hand numbers, cumulative points)}``, arrays.
        """
        if not self._series:
            return {}
        hand = np.concatenate([s[0] for s in self._series])
        pid = np.concatenate([s[1] for s in self._series])
        pts = np.concatenate([s[2] for s in self._series])
        out = {}
        for name, i in self.index.items():
            sel = pid == i
            out[name] = (hand[sel], np.cumsum(pts[sel]))
        return out


# ------------------------------------------------------------------------- verify
@dataclass
class Mismatch:
    """A player-hand whose recorded points differ from ours.

    Attributes
    ----------
    source : str
        The file.
    line : int
        The line, row or position of the player-hand there.
    unit : str
        What ``line`` counts (``"line"``, ``"row"``, ``"position"``).
    hand_id : object
        The hand's id.
    seat : int
        The player's seat.
    name : str, optional
        The player's name.
    recorded : int
        The recorded points.
    ours : int
        Our points.
    variant : Variant
        The hand's rules.
    table : numpy.ndarray
        ``(P, n_cards)`` the hand's layouts.
    royalties : int
        The player's royalties.
    foul : bool
        The player fouled.

    Examples
    --------
    >>> import ofc_fast.io as fio
    >>> chunk = next(fio.read_chunks(sample_path())).score()
    >>> chunk.recorded[0] += 5                        # a recording error
    >>> m = find_mismatches(chunk)[0][0]
    >>> m.recorded - m.ours, m.where.endswith("sample.jsonl:1")
    (5, True)
    """
    source: str
    line: int
    unit: str
    hand_id: object
    seat: int
    name: str | None
    recorded: int
    ours: int
    variant: Variant
    table: np.ndarray          # (P, n_cards) the hand's layouts
    royalties: int
    foul: bool

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.unit == "line" else \
            f"{self.source}, {self.unit} {self.line}"

    def breakdown(self) -> list[dict[str, Any]]:
        """Per opponent: our points for this player with the row and royalty split.

        Returns
        -------
        list of dict
            ``opponent``, ``points``, ``rows`` (1 won, -1 lost, 0 tied per row),
            ``row_points``, ``royalty_points``, ``royalties``,
            ``opponent_royalties``, ``foul``, ``opponent_foul``, ``scoop``.
        """
        from ofc_fast.scoring import score_pair
        pair: Any = score_pair            # (typed where scoring is)
        out = []
        me = self.table[self.seat]
        for q in range(len(self.table)):
            if q == self.seat:
                continue
            r = pair(me, self.table[q], self.variant)
            out.append(dict(opponent=q, points=r.points, rows=r.rows, row_points=r.row_points,
                            royalty_points=r.royalty_points, royalties=r.royalties_a,
                            opponent_royalties=r.royalties_b, foul=r.foul_a,
                            opponent_foul=r.foul_b, scoop=r.scoop))
        return out

    def describe(self) -> str:
        """The mismatch and its breakdown as text, one line per opponent.

        Returns
        -------
        str
        """
        who = f"seat {self.seat}" + (f" ({str(self.name)[:40]})" if self.name is not None else "")
        head = (f"{self.where}: hand {shorten(self.hand_id, 40)}, {who}: "
                f"recorded {self.recorded:+d}, "
                f"ours {self.ours:+d} (difference {self.recorded - self.ours:+d}); "
                f"royalties {self.royalties}{', fouled' if self.foul else ''}")
        lines = [head, *self._jokers()]
        for b in self.breakdown():
            rows = " ".join({1: "W", -1: "L", 0: "T"}[x] for x in b["rows"])
            fouls = {(True, True): "both fouled", (True, False): "this player fouled",
                     (False, True): "the opponent fouled"}.get((b["foul"], b["opponent_foul"]), "")
            lines.append(f"    vs seat {b['opponent']}: {b['points']:+d} = "
                         f"rows {b['row_points']:+d} "
                         f"[{rows}{', scoop' if b['scoop'] else ''}] + royalties "
                         f"{b['royalty_points']:+d} ({'/'.join(map(str, b['royalties']))} vs "
                         f"{'/'.join(map(str, b['opponent_royalties']))})"
                         + (f"; {fouls.strip()}" if fouls else ""))
        return "\n".join(lines)


    def _jokers(self) -> list[str]:
        """A line per seat holding a joker: its layout with each joker shown
        as the card it stands for (``*Qh``), what the points were scored on."""
        from ofc_fast.cards import JOKER
        from ofc_fast.layouts import evaluate, format_layout
        held = [q for q in range(len(self.table)) if (self.table[q] >= JOKER).any()
                and (self.table[q] != 255).all()]
        if not held:
            return []
        subs = evaluate(self.table[held], self.variant).substitutes
        v = self.variant
        return [f"    seat {q}'s jokers: {format_layout(self.table[q], v, substitutes=sub)}"
                for q, sub in zip(held, subs, strict=True)]


def find_mismatches(chunk: Chunk) -> tuple[list[Mismatch], int]:
    """Every player-hand of a scored chunk whose recorded points differ from ours.

    Parameters
    ----------
    chunk : Chunk
        A scored chunk.

    Returns
    -------
    tuple
        ``(list of Mismatch, number of player-hands without recorded points)``.

    Raises
    ------
    StateError
        The chunk is not scored.

    Examples
    --------
    >>> import ofc_fast.io as fio
    >>> mismatches, unrecorded = find_mismatches(next(fio.read_chunks(sample_path())).score())
    >>> mismatches, unrecorded
    ([], 0)
    """
    if chunk.points is None:
        raise StateError("score the chunk first (chunk.score())")
    has = chunk.has_recorded
    points, roy, foul = (cast(np.ndarray, x)
                         for x in (chunk.points, chunk.royalty_total, chunk.foul))
    bad = np.flatnonzero(has & (chunk.recorded != points))
    out = []
    if len(bad):
        row_hand = chunk.row_hand()
        cards = chunk.cards()
        names = chunk.names()
        ids = chunk.hand_ids()
        for r in bad.tolist():
            h = int(row_hand[r])
            v = chunk.hand_rules(h)[0]
            lo, hi = int(chunk.hand_start[h]), int(chunk.hand_start[h + 1])
            line = chunk.line_of(r, h)
            out.append(Mismatch(chunk.source, line, chunk.unit, ids[h], r - lo, names[r],
                                int(chunk.recorded[r]), int(points[r]), v,
                                cards[lo:hi, :v.n_cards].copy(), int(roy[r]),
                                bool(foul[r])))
    return out, int((~has).sum())


# --------------------------------------------------------------------------- plots
def _figure(ax: Any, n_axes: int, figsize: tuple[float, float]) -> tuple[Any, list[Any]]:
    """(Figure, axes to draw on): ``ax`` (one Axes, or ``n_axes`` of them)
    and its Figure, or a new :class:`matplotlib.figure.Figure` (no pyplot: the
    backend and pyplot's figures are left alone)."""
    try:
        from matplotlib.axes import Axes
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'ofc-fast[plot]'") from None
    if ax is None:
        fig = Figure(figsize=figsize, layout="constrained")
        if n_axes == 1:
            return fig, [fig.add_subplot()]
        gs = fig.add_gridspec(2, 2)
        return fig, [fig.add_subplot(gs[0, :]), fig.add_subplot(gs[1, 0]),
                     fig.add_subplot(gs[1, 1])]
    axes = [ax] if isinstance(ax, Axes) else list(np.ravel(ax)) \
        if isinstance(ax, (list, tuple, np.ndarray)) else []
    if not all(isinstance(a, Axes) for a in axes) or len(axes) not in (1, n_axes):
        raise TypeError(f"ax is a matplotlib Axes{' or a sequence of three' if n_axes > 1 else ''}"
                        f", got {shorten(ax)}")
    return axes[0].get_figure(), axes


def plot_points(summary: Summary, ax: Any = None, *, title: str | None = None,
                max_players: int = 12) -> Any:
    """Draw each player's cumulative net points over the hands.

    Parameters
    ----------
    summary : Summary
        Made with ``track=True`` (without, the lines are empty).
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new Figure).
    title : str, optional
        The title (default: the numbers of hands).
    max_players : int
        Players drawn (those with most hands).

    Returns
    -------
    matplotlib.figure.Figure
        ``ax``'s Figure, or the new one.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    TypeError
        ``ax`` is not an Axes.

    Examples
    --------
    >>> import ofc_fast.io as fio
    >>> s = Summary(track=True)
    >>> for chunk in fio.read_chunks(sample_path()):
    ...     s.add(chunk.score())
    >>> fig = plot_points(s)
    >>> fig.axes[0].get_ylabel(), len(fig.axes[0].get_lines()) - 1   # one line a player, and 0
    ('cumulative net points', 8)
    """
    fig, (ax,) = _figure(ax, 1, (8, 5))
    _draw_points(ax, summary, title, integer(max_players, "max_players", 1))
    return fig


def plot_royalties(summary: Summary, ax: Any = None) -> Any:
    """Draw the distribution of royalties per player-hand (log scale).

    Parameters
    ----------
    summary : Summary
        Made with ``track=True`` (without, the histogram is empty).
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new Figure).

    Returns
    -------
    matplotlib.figure.Figure
        ``ax``'s Figure, or the new one.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    TypeError
        ``ax`` is not an Axes.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> import ofc_fast.io as fio
    >>> s = Summary(track=True)
    >>> s.add(next(fio.read_chunks(sample_path())).score())
    >>> fig = Figure()
    >>> left, right = fig.subplots(1, 2)
    >>> plot_royalties(s, ax=right) is fig, right.get_title()
    (True, 'royalty distribution')
    """
    fig, (ax,) = _figure(ax, 1, (6, 4))
    _draw_royalties(ax, summary)
    return fig


def plot_rates(summary: Summary, ax: Any = None, *, max_players: int = 12) -> Any:
    """Draw each player's foul and fantasyland rates as bars.

    Parameters
    ----------
    summary : Summary
        The totals (``track`` not needed).
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new Figure).
    max_players : int
        Players drawn (those with most hands).

    Returns
    -------
    matplotlib.figure.Figure
        ``ax``'s Figure, or the new one.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    TypeError
        ``ax`` is not an Axes.

    Examples
    --------
    >>> import ofc_fast.io as fio
    >>> s = Summary()
    >>> s.add(next(fio.read_chunks(sample_path())).score())
    >>> fig = plot_rates(s, max_players=3)
    >>> [t.get_text() for t in fig.axes[0].get_xticklabels()] == [p.name for p in s.players()[:3]]
    True
    """
    fig, (ax,) = _figure(ax, 1, (6, 4))
    _draw_rates(ax, summary, integer(max_players, "max_players", 1))
    return fig


def plot(summary: Summary, path: Any = None, *, ax: Any = None, title: str | None = None,
         max_players: int = 12) -> Any:
    """Draw a summary: cumulative net points per player over the hands, the
    royalty distribution, and foul / fantasyland rates per player.

    The picture is a :class:`matplotlib.figure.Figure` made without pyplot:
    matplotlib's backend and pyplot's current figure are left as they were
    (inline and interactive figures in a notebook keep working).  A
    notebook shows the returned Figure; :func:`save_figure` (or
    ``fig.savefig``) writes it.  Needs matplotlib (``pip install
    'ofc-fast[plot]'``).

    Parameters
    ----------
    summary : Summary
        Made with ``track=True`` for the points over the hands.
    path : str, optional
        Deprecated (0.3): save the picture there and return ``path``, as 0.2
        did; use ``save_figure(plot(summary), path)``.
    ax : matplotlib.axes.Axes or sequence of three, optional
        Where to draw: three Axes get the three panels (points, royalties,
        rates); one Axes gets the cumulative points alone
        (:func:`plot_points`).  Default: a new Figure of 12 x 8 inches.
    title : str, optional
        The title of the points panel (default: the numbers of hands).
    max_players : int
        Players drawn (those with most hands).

    Returns
    -------
    matplotlib.figure.Figure
        The new Figure, or ``ax``'s (``path`` when given).

    Raises
    ------
    ImportError
        matplotlib is not installed.
    TypeError
        ``ax`` is not an Axes or three of them.
    ArgumentError
        With ``path``: a picture format matplotlib does not know (a ValueError).
    OutputError
        With ``path``: the picture cannot be written.

    Examples
    --------
    >>> import ofc_fast.io as fio
    >>> s = Summary(track=True)
    >>> for chunk in fio.read_chunks(sample_path()):
    ...     s.add(chunk.score())
    >>> fig = plot(s)                  # a notebook shows it; nothing else changes
    >>> fig
    <Figure size 1200x800 with 3 Axes>
    >>> [ax.get_title() for ax in fig.axes][1:]
    ['royalty distribution', 'fouls and fantasyland per player']
    """
    if path is not None:
        from ofc_fast.deprecation import warn_renamed
        warn_renamed("report.plot(summary, path)", "report.save_figure(report.plot(summary), "
                     "path)", since="0.3")
        return save_figure(plot(summary, ax=ax, title=title, max_players=max_players), path)
    max_players = integer(max_players, "max_players", 1)
    fig, axes = _figure(ax, 3, (12, 8))
    _draw_points(axes[0], summary, title, max_players)
    if len(axes) == 3:
        _draw_royalties(axes[1], summary)
        _draw_rates(axes[2], summary, max_players)
    return fig


def save_figure(fig: Any, path: str | os.PathLike[str], *, dpi: float = 100) -> str:
    """Write a Figure to a file, whole or not at all
    (:func:`ofc_fast.outputs.open_output`); the format from the extension.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The picture (:func:`plot`).
    path : str or path
        The file: ``.png``, ``.svg``, ``.pdf`` ... (what matplotlib writes).
    dpi : float
        Dots per inch of raster formats.

    Returns
    -------
    str
        ``path``.

    Raises
    ------
    ArgumentError
        A picture format matplotlib does not know (a ValueError).
    OutputError
        The picture cannot be written.

    Examples
    --------
    >>> import os, tempfile
    >>> import ofc_fast.io as fio
    >>> s = Summary()
    >>> s.add(next(fio.read_chunks(sample_path())).score())
    >>> path = save_figure(plot_rates(s), os.path.join(tempfile.mkdtemp(), "rates.svg"))
    >>> open(path).read(5)
    '<?xml'
    """
    from ofc_fast.outputs import open_output
    fmt = os.path.splitext(os.fspath(path))[1][1:].lower() or "png"
    kinds = fig.canvas.get_supported_filetypes()
    if fmt not in kinds:
        raise ArgumentError(f"unknown picture format {fmt!r}; use one of "
                            f"{', '.join(sorted(kinds))}")
    with open_output(path) as f:       # the picture appears whole, or not at all
        fig.savefig(f, format=fmt, dpi=dpi)
    return cast(str, path)


def _draw_points(ax: Any, summary: Summary, title: str | None, max_players: int) -> None:
    players = summary.players()[:max_players]
    series = summary.series()
    for p in players:
        x, y = series.get(p.name, (np.zeros(0), np.zeros(0)))
        if len(x) > 5000:   # keep the picture light: every k-th point
            step = len(x) // 5000 + 1
            x, y = x[::step], y[::step]
        ax.plot(x, y, label=f"{p.name} ({p.net:+,})", linewidth=1.2)
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xlabel("hand")
    ax.set_ylabel("cumulative net points")
    ax.set_title(title or f"{summary.hands:,} hands, {summary.player_hands:,} player-hands")
    if players:
        ax.legend(fontsize="small", ncol=2)


def _draw_royalties(ax: Any, summary: Summary) -> None:
    roy = np.concatenate(summary._royalties) if summary._royalties else np.zeros(0, np.int64)
    if len(roy):
        top = int(np.percentile(roy, 99.5)) + 1
        bins = np.arange(0, max(top, 2) + 2) - 0.5
        ax.hist(np.minimum(roy, top), bins=cast(Any, bins), color="tab:blue")
        ax.set_yscale("log")
    ax.set_xlabel("royalties per player-hand")
    ax.set_ylabel("player-hands")
    ax.set_title("royalty distribution")


def _draw_rates(ax: Any, summary: Summary, max_players: int) -> None:
    players = summary.players()[:max_players]
    idx = np.arange(len(players))
    ax.bar(idx - 0.2, [p.foul_pct for p in players], 0.4, label="foul %", color="tab:red")
    ax.bar(idx + 0.2, [p.fantasyland_pct for p in players], 0.4, label="fantasyland %",
           color="tab:green")
    ax.set_xticks(idx, [p.name for p in players], rotation=45, ha="right", fontsize="small")
    ax.set_ylabel("% of hands")
    ax.set_title("fouls and fantasyland per player")
    ax.legend(fontsize="small")
