"""Summaries of scored hands: per-player totals, --verify mismatches, plots.

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

from ofc_fast.errors import shorten
from ofc_fast.cards import format_cards
from ofc_fast.records import Chunk

__all__ = ["Summary", "PlayerTotals", "Mismatch", "find_mismatches", "plot", "sample_path"]


def sample_path() -> str:
    """Path of the bundled sample of recorded hands (``ofc_fast/data/sample.jsonl``)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "sample.jsonl")


@dataclass
class PlayerTotals:
    """One player's totals over the hands scored."""
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

    def as_dict(self) -> dict:
        return dict(name=self.name, hands=self.hands, net=self.net,
                    points_per_hand=round(self.points_per_hand, 4),
                    foul_pct=round(self.foul_pct, 3), fantasyland_pct=round(self.fantasyland_pct, 3),
                    royalties_per_hand=round(self.royalties_per_hand, 4),
                    in_fantasyland=self.in_fantasyland)


def _row_names(chunk: Chunk) -> tuple:
    """(codes per row, list of names) with unnamed players called 'seat N'."""
    seat = chunk.seat
    name = chunk.name
    if hasattr(name, "to_pylist") and not isinstance(name, list):
        import pyarrow as pa
        import pyarrow.compute as pc
        if name.null_count == len(name):
            return seat.astype(np.int64), [f"seat {i}" for i in range(int(seat.max(initial=0)) + 1)]
        enc = pc.dictionary_encode(name)
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


def _coded_names(codes: np.ndarray, uniq: list, seat: np.ndarray) -> tuple:
    """:func:`_row_names` of rows whose names are ``uniq[codes]`` (each name
    once in ``uniq``; None for unnamed players)."""
    remap = np.empty(len(uniq), np.int64)
    names: list = []
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


class Summary:
    """Per-player totals accumulated chunk by chunk (streaming)."""

    def __init__(self, track: bool = False):
        self.index: dict = {}
        self.stats = np.zeros((0, 6), np.int64)  # hands, net, fouls, fl, in_fl, royalties
        self.hands = 0
        self.player_hands = 0
        self.track = track
        self._series: list = []   # (hand number, player id, points) per chunk
        self._royalties: list = []
        self.variants: dict = {}

    def add(self, chunk: Chunk) -> None:
        if chunk.points is None:
            raise ValueError("score the chunk first (chunk.score())")
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
        for (_, name, _), c in zip(chunk.variants, counts.tolist()):
            if c:
                self.variants[name] = self.variants.get(name, 0) + c
        self.hands += chunk.n_hands
        self.player_hands += chunk.n_rows

    def players(self) -> list:
        """:class:`PlayerTotals` per player, most hands first."""
        out = [PlayerTotals(n, *map(int, self.stats[i]))
               for n, i in self.index.items()]
        return sorted(out, key=lambda p: (-p.hands, p.name))

    def table(self) -> str:
        """The per-player summary as aligned text."""
        rows = [("player", "hands", "net", "pts/hand", "foul %", "FL %", "royalties/hand")]
        for p in self.players():
            rows.append((_display(p.name), f"{p.hands:,}", f"{p.net:+,}", f"{p.points_per_hand:+.3f}",
                         f"{p.foul_pct:.1f}", f"{p.fantasyland_pct:.1f}",
                         f"{p.royalties_per_hand:.2f}"))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = []
        for r in rows:
            lines.append("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i])
                                   for i, c in enumerate(r)))
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return dict(hands=self.hands, player_hands=self.player_hands, variants=self.variants,
                    players=[p.as_dict() for p in self.players()])

    def series(self) -> dict:
        """Per player: (hand numbers, cumulative net points) over the hands (needs track=True)."""
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
    """A player-hand whose recorded points differ from ours."""
    source: str
    line: int
    unit: str
    hand_id: object
    seat: int
    name: str | None
    recorded: int
    ours: int
    variant: object
    table: np.ndarray          # (P, n_cards) the hand's layouts
    royalties: int
    foul: bool

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.unit == "line" else \
            f"{self.source}, {self.unit} {self.line}"

    def breakdown(self) -> list:
        """Per opponent: our points for this player with the row/royalty split."""
        from ofc_fast.scoring import score_pair
        out = []
        me = self.table[self.seat]
        for q in range(len(self.table)):
            if q == self.seat:
                continue
            r = score_pair(me, self.table[q], self.variant)
            out.append(dict(opponent=q, points=r.points, rows=r.rows, row_points=r.row_points,
                            royalty_points=r.royalty_points, royalties=r.royalties_a,
                            opponent_royalties=r.royalties_b, foul=r.foul_a,
                            opponent_foul=r.foul_b, scoop=r.scoop))
        return out

    def describe(self) -> str:
        who = f"seat {self.seat}" + (f" ({str(self.name)[:40]})" if self.name is not None else "")
        head = (f"{self.where}: hand {shorten(self.hand_id, 40)}, {who}: recorded {self.recorded:+d}, "
                f"ours {self.ours:+d} (difference {self.recorded - self.ours:+d}); "
                f"royalties {self.royalties}{', fouled' if self.foul else ''}")
        lines = [head]
        for b in self.breakdown():
            rows = " ".join({1: "W", -1: "L", 0: "T"}[x] for x in b["rows"])
            fouls = {(True, True): "both fouled", (True, False): "this player fouled",
                     (False, True): "the opponent fouled"}.get((b["foul"], b["opponent_foul"]), "")
            lines.append(f"    vs seat {b['opponent']}: {b['points']:+d} = rows {b['row_points']:+d} "
                         f"[{rows}{', scoop' if b['scoop'] else ''}] + royalties "
                         f"{b['royalty_points']:+d} ({'/'.join(map(str, b['royalties']))} vs "
                         f"{'/'.join(map(str, b['opponent_royalties']))})"
                         + (f"; {fouls.strip()}" if fouls else ""))
        return "\n".join(lines)


def find_mismatches(chunk: Chunk) -> tuple:
    """(list of :class:`Mismatch`, number of player-hands without recorded points)."""
    if chunk.points is None:
        raise ValueError("score the chunk first (chunk.score())")
    has = chunk.has_recorded
    points, roy, foul = (cast(np.ndarray, x) for x in (chunk.points, chunk.royalty_total, chunk.foul))
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
def plot(summary: Summary, path: str, *, title: str | None = None, max_players: int = 12):
    """Save a picture: cumulative net points per player over the hands, the
    royalty distribution, and foul / fantasyland rates per player.

    Needs matplotlib (``pip install 'ofc-fast[plot]'``); uses the Agg backend.
    """
    try:
        import matplotlib
        matplotlib.use("Agg", force=True)
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'ofc-fast[plot]'") from None
    players = summary.players()[:max_players]
    series = summary.series()
    fig = plt.figure(figsize=(12, 8), layout="constrained")
    gs = fig.add_gridspec(2, 2)
    ax = fig.add_subplot(gs[0, :])
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
    ax2 = fig.add_subplot(gs[1, 0])
    roy = np.concatenate(summary._royalties) if summary._royalties else np.zeros(0, np.int64)
    if len(roy):
        top = int(np.percentile(roy, 99.5)) + 1
        bins = np.arange(0, max(top, 2) + 2) - 0.5
        ax2.hist(np.minimum(roy, top), bins=cast(Any, bins), color="tab:blue")
        ax2.set_yscale("log")
    ax2.set_xlabel("royalties per player-hand")
    ax2.set_ylabel("player-hands")
    ax2.set_title("royalty distribution")
    ax3 = fig.add_subplot(gs[1, 1])
    idx = np.arange(len(players))
    ax3.bar(idx - 0.2, [p.foul_pct for p in players], 0.4, label="foul %", color="tab:red")
    ax3.bar(idx + 0.2, [p.fantasyland_pct for p in players], 0.4, label="fantasyland %",
            color="tab:green")
    ax3.set_xticks(idx, [p.name for p in players], rotation=45, ha="right", fontsize="small")
    ax3.set_ylabel("% of hands")
    ax3.set_title("fouls and fantasyland per player")
    ax3.legend(fontsize="small")
    from ofc_fast.outputs import open_output
    fmt = os.path.splitext(str(path))[1][1:].lower() or "png"
    try:
        if fmt not in fig.canvas.get_supported_filetypes():
            raise ValueError(f"unknown picture format {fmt!r}; use one of "
                             f"{', '.join(sorted(fig.canvas.get_supported_filetypes()))}")
        with open_output(path) as f:       # the picture appears whole, or not at all
            fig.savefig(f, format=fmt, dpi=100)
    finally:
        plt.close(fig)
    return path


def format_cards_coloured(ids, colour: bool) -> str:
    """Card text with suit symbols, coloured with ANSI codes when ``colour``
    (:func:`ofc_fast.cards.format_cards` with ``symbols=True``)."""
    return cast(str, format_cards(ids, colour=colour, symbols=True))
