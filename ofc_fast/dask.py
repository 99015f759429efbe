"""Score Parquet datasets of recorded hands with Dask, and generate them by
self-play (``pip install 'ofc-fast[dask]'``).

>>> import ofc_fast.dask as od                                   # doctest: +SKIP
>>> scored = od.score_parquet("s3://bucket/hands/*.parquet",     # doctest: +SKIP
...                           storage_options={"anon": False})
>>> scored.results.head()                                        # doctest: +SKIP
>>> scored.totals.compute()                                      # doctest: +SKIP

The dataset is read with ``dask.dataframe.read_parquet`` (a path, a folder, a
glob or a list, local or any fsspec URL), each partition is scored with
``map_partitions`` by the same batch kernels as ``ofc-fast score``, and you
get back a lazy Dask dataframe of per player-hand results plus per-player
totals.  Nothing is computed until you ask (``.compute()``, ``.to_parquet()``).

It runs wherever the Dask scheduler runs: the default threaded scheduler, a
``LocalCluster``, or any cluster you connect a ``distributed.Client`` to, as
long as ``ofc-fast`` is installed on the workers (docs/cli.md, "Scale-out").

:func:`selfplay_parquet` plays hands of built-in policies
(:func:`ofc_fast.sim.selfplay`) on the workers, one Parquet file per
partition: partition ``p`` is seeded ``[seed, p]``, so the dataset is the
same whatever the number of workers.

Each partition must hold whole hands: the rows of a hand consecutive in seat
order and never split across row groups or files.  Files written by
``ofc_fast`` (``ofc-fast score -o x.parquet`` or :class:`ofc_fast.io.Writer`)
write each chunk of whole hands as one row group, so any partitioning by row
group or file is safe.  A partition that ends inside a hand is reported as a
bad hand (``skip_bad=True`` leaves it out).  A frame made with
``dd.from_pandas`` keeps list columns (the discards as card ids) only under
``dask.config.set({"dataframe.convert-string": False})``; otherwise Dask
makes them text and :func:`score_frame` says so.
"""
from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import orjson

from ofc_fast._args import flag, instance, integer, seed_entropy
from ofc_fast.errors import ArgumentError, FileFormatError, shorten
from ofc_fast.io.schema import KEYS, RESULTS, result_values
from ofc_fast.io.tables import require_pyarrow
from ofc_fast.records import Rules, clip

__all__ = ["score_parquet", "score_frame", "player_totals", "ScoredHands", "RESULT_DTYPES",
           "selfplay_parquet"]

RESULT_DTYPES = {c.name: ("Int64" if c.nullable and c.dtype == "int64" else c.dtype)
                 for c in KEYS + RESULTS}
"""Columns of the results dataframe: the keys and results of
:mod:`ofc_fast.io.schema` (``recorded_points``, pandas' nullable int64 so
that any recorded int64 is kept exactly, is missing where it matches ours or
nothing was recorded; ``hand_id`` keeps the source type)."""


@dataclass
class ScoredHands:
    """Lazy results of :func:`score_parquet` and :func:`score_frame`.

    Attributes
    ----------
    results : dask.dataframe.DataFrame
        One row per player-hand (columns :data:`RESULT_DTYPES`).
    totals : dask.dataframe.DataFrame
        One row per player name (see :func:`player_totals`).

    Examples
    --------
    >>> import ofc_fast.dask as od                                   # doctest: +SKIP
    >>> results, totals = od.score_parquet("hands/*.parquet").compute()  # doctest: +SKIP
    """
    results: Any   # dask DataFrame, one row per player-hand
    totals: Any    # dask DataFrame, one row per player name

    def compute(self, **kw: Any) -> tuple[Any, Any]:
        """``(results, totals)`` as pandas dataframes, both computed in one pass.

        Parameters
        ----------
        **kw
            Passed to ``dask.compute`` (``scheduler`` ...).

        Returns
        -------
        tuple
            ``(results, totals)``.
        """
        from dask.base import compute
        run: Any = compute                  # (untyped in dask)
        both: tuple[Any, Any] = run(self.results, self.totals, **kw)
        return both


def _dd() -> Any:
    try:
        import dask.dataframe as dd
    except ImportError:  # pragma: no cover - only without the extra
        raise ImportError("ofc_fast.dask needs dask: pip install 'ofc-fast[dask]'") from None
    return dd


@functools.lru_cache(maxsize=32)
def _rules(variant: str | None, options_json: bytes, override: bool) -> Rules:
    options = orjson.loads(options_json) if options_json else None
    return Rules(variant or "pineapple", options, override=override)


def _meta(hand_id_dtype: str = "object") -> Any:
    import pandas as pd
    dtypes = dict(RESULT_DTYPES, hand_id=hand_id_dtype)
    return pd.DataFrame({k: pd.Series([], dtype=v) for k, v in dtypes.items()})


def _score_partition(pdf: Any, variant: str | None = None, options_json: bytes = b"",
                     override: bool = False, skip_bad: bool = False,
                     hand_id_dtype: str = "object",
                     partition_info: Mapping[str, Any] | None = None) -> Any:
    """Score one pandas partition; return its results (columns of RESULT_DTYPES)."""
    import pandas as pd

    from ofc_fast.io import chunk_from_arrow
    from ofc_fast.io.frames import _as_table
    if len(pdf) == 0:
        return _meta(hand_id_dtype)
    where = "partition" + (f" {partition_info['number']}" if partition_info else "")
    _check_discards_not_text_of_lists(pdf, where)
    # the columns read, each converted alone: a column twice, or one of mixed
    # values, is a FileFormatError naming it (not pyarrow's error)
    table, _ = _as_table(pdf, "pandas", where)
    chunk, _ = chunk_from_arrow(table, source=where, rules=_rules(variant, options_json, override),
                                final=True, skip_bad=skip_bad)
    results = result_values(chunk.score())
    N = chunk.n_rows
    seat = chunk.seat
    names = chunk.names()
    names = [n if n is not None else f"seat {s}" for n, s in zip(names, seat.tolist(), strict=True)]
    rh = np.repeat(np.asarray(chunk.hand_variant, np.int64), chunk.n_players)
    vnames = np.array([n for _, n, _ in chunk.variants] or ["?"], dtype=object)
    src = chunk.arrow
    hid = src.column("hand_id").to_pandas() if src is not None and N else \
        pd.Series(np.repeat(np.asarray(chunk.hand_ids(), dtype=object), chunk.n_players))
    out = pd.DataFrame({
        "hand_id": hid.to_numpy(), "seat": seat.astype(np.int8),
        "n_players": np.repeat(chunk.n_players, chunk.n_players).astype(np.int8),
        "name": np.array(names, object), "variant": vnames[rh] if N else np.array([], object),
        **{name: values if valid is None else _nulls(values, valid, pd)
           for name, (values, valid) in results.items()},
    })
    return out.astype({"hand_id": hand_id_dtype}) if hand_id_dtype != "object" else out


def _check_discards_not_text_of_lists(pdf: Any, where: str) -> None:
    """Dask turns object columns into strings by default (its
    ``dataframe.convert-string``), so a list column of card ids reaches a
    partition as ``'[37 39 29 44]'``; say so rather than fail on its first
    character as card text (which never starts with ``[``)."""
    if "discards" not in pdf.columns:
        return
    first = pdf["discards"].dropna().iloc[:1].tolist()
    if first and isinstance(first[0], str) and first[0].lstrip().startswith("["):
        raise FileFormatError(
            where, f"column 'discards' holds {shorten(first[0], 40)}, the text of a list: Dask "
            f"turned the list column into strings (its 'dataframe.convert-string' setting); "
            f"build the Dask frame under dask.config.set({{'dataframe.convert-string': False}}),"
            f" or read the files with dask.dataframe.read_parquet")


def _nulls(values: np.ndarray, valid: np.ndarray, pd: Any) -> Any:
    """A result column with nulls where not ``valid``: pandas' nullable
    integers, or objects (text) with None."""
    if values.dtype != object:
        return pd.arrays.IntegerArray(values, ~valid)
    out = values.copy()
    out[~valid] = None
    return out


def score_frame(ddf: Any, *, variant: str | None = None,
                options: Mapping[str, Any] | None = None, override: bool = False,
                skip_bad: bool = False) -> ScoredHands:
    """Score a Dask dataframe of player-hand rows (the Parquet layout of docs/formats.md).

    For a frame in memory (pandas, pyarrow, polars) use
    :func:`ofc_fast.io.score_frame`, which adds the results to the frame itself.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        Each partition holds whole hands (see the module docstring).
    variant : str, optional
        Rules for rows with no ``variant`` (with ``override``: for every row),
        as ``ofc-fast score --variant``.
    options : mapping, optional
        Options of those rules (``--option``).
    override : bool
        Apply ``variant`` and ``options`` to every row (``--override``).
    skip_bad : bool
        Leave bad hands out instead of failing the computation.

    Returns
    -------
    ScoredHands
        Lazy: nothing is computed until asked.

    Raises
    ------
    RecordError
        When computed, without ``skip_bad``: the first bad hand of a partition.
    FileFormatError
        When computed: a column of the wrong type or given twice.
    RulesError
        ``variant`` or ``options`` are not rules (here, before anything runs).
    TypeError
        ``ddf`` is not a Dask dataframe; an argument of the wrong type.

    Examples
    --------
    >>> import dask.dataframe as dd                                  # doctest: +SKIP
    >>> import ofc_fast.dask as od                                   # doctest: +SKIP
    >>> scored = od.score_frame(dd.read_parquet("hands/"), variant="classic")  # doctest: +SKIP
    >>> scored.totals.compute()                                      # doctest: +SKIP
    """
    if not isinstance(ddf, _dd().DataFrame):
        raise TypeError(f"score_frame takes a Dask dataframe, got {type(ddf).__module__}."
                        f"{type(ddf).__name__} (for a frame in memory: ofc_fast.io.score_frame)")
    _check_rules(variant, options, override)
    skip_bad = flag(skip_bad, "skip_bad")
    hid = ddf.dtypes["hand_id"] if "hand_id" in ddf.columns else np.dtype(object)
    hid_dtype = str(hid) if isinstance(hid, np.dtype) and hid.kind in "iu" else "object"
    opts = orjson.dumps(options, option=orjson.OPT_SORT_KEYS) if options else b""
    results = ddf.map_partitions(_score_partition, variant=variant, options_json=opts,
                                 override=override, skip_bad=skip_bad, hand_id_dtype=hid_dtype,
                                 meta=_meta(hid_dtype), enforce_metadata=False)
    return ScoredHands(results=results, totals=player_totals(results))


def _check_rules(variant: object, options: object, override: object) -> None:
    """The rules arguments, checked before any partition is read (a bad one
    would otherwise be every partition's error, when computed)."""
    instance(variant, "variant", str, "a variant name", none=True)
    instance(options, "options", Mapping, "a mapping of rule options", none=True)
    flag(override, "override")
    opts = orjson.dumps(options, option=orjson.OPT_SORT_KEYS) if options else b""
    _rules(variant, opts, bool(override)).resolve(None, None)


def score_parquet(path: Any, *, variant: str | None = None,
                  options: Mapping[str, Any] | None = None, override: bool = False,
                  skip_bad: bool = False, storage_options: Mapping[str, Any] | None = None,
                  **read_kw: Any) -> ScoredHands:
    """Score a Parquet dataset of recorded hands with Dask.

    Parameters
    ----------
    path : str or list
        A file, folder, glob or list of them; local or any fsspec URL
        (``s3://``, ``gs://``, ``abfs://``, ``hdfs://`` ...).
    variant : str, optional
        Rules for rows with no ``variant`` value (with ``override``: for every
        row), as ``ofc-fast score --variant``.
    options : mapping, optional
        Options of those rules (``--option``).
    override : bool
        Apply ``variant`` and ``options`` to every row (``--override``).
    skip_bad : bool
        Leave bad hands out instead of failing the computation with a
        :class:`ofc_fast.errors.RecordError`.
    storage_options : mapping, optional
        Passed to fsspec (credentials, endpoint ...).
    **read_kw
        More ``dask.dataframe.read_parquet`` arguments (``blocksize``, ...).

    Returns
    -------
    ScoredHands
        ``results``: a Dask dataframe, one row per player-hand (columns
        :data:`RESULT_DTYPES`); ``totals``: per player name (hands, net,
        points_per_hand, fouls, foul_pct, fantasyland, fantasyland_pct,
        royalties, royalties_per_hand).

    Raises
    ------
    ImportError
        Dask is not installed (``pip install 'ofc-fast[dask]'``).
    RecordError
        When computed, without ``skip_bad``: a bad hand.
    FileFormatError
        A file that is not Parquet, or a path of no Parquet files (here); a
        column of the wrong type (when computed).
    TypeError
        ``path`` is no path (or list of them); an argument of the wrong type.

    Examples
    --------
    >>> import ofc_fast.dask as od                                   # doctest: +SKIP
    >>> scored = od.score_parquet("s3://bucket/hands/*.parquet",     # doctest: +SKIP
    ...                           storage_options={"anon": False})
    >>> scored.results.to_parquet("s3://bucket/scored/")             # doctest: +SKIP
    """
    dd = _dd()
    paths = list(path) if isinstance(path, (list, tuple)) else [path]
    if not paths or not all(isinstance(p, (str, os.PathLike)) for p in paths):
        raise TypeError(f"path must be a path, folder, glob or URL, or a non-empty list of "
                        f"them, got {shorten(path)}")
    _check_rules(variant, options, override)
    pa = require_pyarrow()[0]
    try:
        ddf = dd.read_parquet(path, storage_options=storage_options, **read_kw)
    except (pa.ArrowException, ValueError) as e:    # dask reads the schema here: not
        # Parquet (pyarrow's error), no files (dask's ValueError), each wrapped by dask
        why = str(e).split("Original Message:")[-1].strip()
        raise FileFormatError(str(path), f"cannot be read as a Parquet dataset: "
                              f"{clip(why, 200)}") from None
    return score_frame(ddf, variant=variant, options=options, override=override,
                       skip_bad=skip_bad)


def player_totals(results: Any) -> Any:
    """Per-player totals of a results dataframe (Dask or pandas).

    Parameters
    ----------
    results : dask.dataframe.DataFrame or pandas.DataFrame
        Per player-hand results (``name``, ``points``, ``royalties``, ``foul``,
        ``fantasyland``), as :func:`score_parquet` makes.

    Returns
    -------
    DataFrame
        Indexed by name: ``hands``, ``net``, ``fouls``, ``fantasyland``,
        ``royalties``, ``points_per_hand``, ``foul_pct``, ``fantasyland_pct``,
        ``royalties_per_hand`` (lazy for Dask).

    Raises
    ------
    KeyError
        A column is missing.
    TypeError
        ``results`` is not a pandas or Dask dataframe.

    Examples
    --------
    >>> import pandas as pd
    >>> t = player_totals(pd.DataFrame({"name": ["ann", "ann", "bob"], "points": [3, 1, -4],
    ...                                 "royalties": [2, 0, 6], "foul": [False, True, False],
    ...                                 "fantasyland": [0, 0, 14]}))
    >>> int(t.loc["ann", "hands"]), int(t.loc["ann", "net"]), float(t.loc["ann", "foul_pct"])
    (2, 4, 50.0)
    """
    if type(results).__module__.split(".")[0] not in ("pandas", "dask") or \
            not hasattr(results, "groupby"):
        raise TypeError(f"player_totals takes a pandas or Dask dataframe, got "
                        f"{type(results).__name__}")
    r = results.assign(earned_fantasyland=results["fantasyland"] > 0,
                       fouls=results["foul"].astype("int64"))
    g = r.groupby("name")
    t = g.agg({"points": ["count", "sum"], "fouls": "sum", "earned_fantasyland": "sum",
               "royalties": "sum"})
    t.columns = ["hands", "net", "fouls", "fantasyland", "royalties"]
    t = t.assign(points_per_hand=t["net"] / t["hands"], foul_pct=100 * t["fouls"] / t["hands"],
                 fantasyland_pct=100 * t["fantasyland"] / t["hands"],
                 royalties_per_hand=t["royalties"] / t["hands"])
    return t


# --------------------------------------------------------------------- self-play
_MAX_PARTITIONS = 1_000_000     # files of one selfplay_parquet


def _play_partition(path: str, p: int, n: int, seed: list[int], kw: dict[str, Any]) -> int:
    """Partition ``p``: ``n`` hands seeded ``seed``, written to ``path``."""
    from ofc_fast.io import open_writer
    from ofc_fast.rules import as_variant
    from ofc_fast.sim import selfplay, selfplay_chunks
    width = 18 if as_variant(kw["variant"]).n_cards > 13 else 13    # every file's columns
    with open_writer(path, "parquet", width=width) as w:
        for chunk in selfplay_chunks(n_hands=n, seed=seed, id_prefix=f"{p}-", **kw):
            w.write(chunk)
        if n == 0:          # no hands: still a Parquet file (a writer given none writes 0 bytes)
            w.write(selfplay(n_hands=0, seed=seed, **kw))
    return n


def selfplay_parquet(path: str, variant: Any = "pineapple", n_hands: int = 1_000_000,
                     policies: Any = "random", *, partitions: int | None = None,
                     n_players: int | None = None, seed: int | Sequence[int] | None = None,
                     n_games: int | None = None, fantasyland: Any = None, auto: bool = True,
                     names: Sequence[str] | None = None, n_threads: int | None = 1,
                     compute: bool = True) -> Any:
    """Generate a Parquet dataset of self-play hands with Dask: one task and
    one file (``part-00000.parquet`` ...) per partition, on whatever
    scheduler is active (the threaded default, a ``LocalCluster``, a
    ``distributed.Client``).

    Partition ``p`` plays ``n_hands / partitions`` hands (the first ones one
    more when it does not divide) with :func:`ofc_fast.sim.selfplay_chunks`
    seeded ``[*seed, p]``, its hand ids ``"p-g-k"`` (hand ``k`` of game
    ``g``); each round of ``n_games`` hands is one row group.  The files
    depend on the seed and the partitions only: not on the workers, their
    number or the order they run in.

    Each part is written beside its name and renamed when complete
    (:class:`ofc_fast.io.Writer`), so the folder only ever holds whole
    parts: a run interrupted (Ctrl-C, ``KeyboardInterrupt``) stops with the
    parts that were running finished and the rest absent, and running it
    again with the same arguments writes the whole dataset (a worker killed
    hard may leave a hidden ``.part-*.tmp`` file, never a part of a part).

    Parameters
    ----------
    path : str
        The dataset's folder, local (created) or an fsspec URL.
    variant, n_hands, policies, n_players, n_games, fantasyland, auto, names, n_threads
        As for :func:`ofc_fast.sim.selfplay` (per partition: ``n_games``,
        ``n_threads``).
    partitions : int, optional
        Files (default: one per 100,000 hands, at most 1,000,000: the most
        it takes).
    seed : int, sequence of int or None
        The dataset's seed (None: fresh entropy, drawn once).
    compute : bool
        Run now (default) and return the files; False: return the Dask
        delayed tasks (``dask.compute(*tasks)`` runs them).

    Returns
    -------
    list of str or list of dask.delayed.Delayed
        The files in partition order (or the tasks, each giving its hands).

    Raises
    ------
    ImportError
        Dask or pyarrow is not installed.
    ArgumentError, TypeError, RulesError
        Bad arguments (checked here, before any task runs); a folder (local
        or at a URL) that holds ``part-*.parquet`` files this run would not write
        (another run's: reading the folder would mix them in).
    OutputError
        ``path`` is a file or a device (``/dev/null``), or the folder cannot
        be created (checked before any task runs).

    Examples
    --------
    >>> import ofc_fast.dask as od                                        # doctest: +SKIP
    >>> files = od.selfplay_parquet("hands/", "pineapple", 10_000_000,
    ...                             ["heuristic", "random", "random"], seed=7)  # doctest: +SKIP
    >>> od.score_parquet("hands/").totals.compute()                         # doctest: +SKIP
    """
    import errno
    import posixpath

    import fsspec
    from dask.base import compute as dask_compute
    from dask.delayed import delayed

    from ofc_fast.outputs import OutputError, is_url
    from ofc_fast.sim.selfplay import selfplay_spec
    from ofc_fast.threads import thread_count
    require_pyarrow()
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a folder's path or URL, got {type(path).__name__} "
                        f"{shorten(path)}")
    n = integer(n_hands, "n_hands", 0, 2**62)
    compute = flag(compute, "compute")
    parts = min(max(1, -(-n // 100_000)), _MAX_PARTITIONS) if partitions is None else \
        integer(partitions, "partitions", 1, _MAX_PARTITIONS)
    base = seed_entropy(seed)           # drawn once (None): every partition [*base, p]
    kw = dict(variant=variant, policies=policies, n_players=n_players, n_games=n_games,
              fantasyland=fantasyland, auto=auto, names=names)
    selfplay_spec(n_hands=n, seed=base, **kw)          # the checks, before any task
    kw["n_threads"] = thread_count(n_threads)
    root = os.fspath(path).rstrip("/")
    files = [f"{root}/part-{p:05d}.parquet" for p in range(parts)]
    fs, where = fsspec.core.url_to_fs(root)
    if fs.exists(where) and not fs.isdir(where):    # a file, a device (/dev/null) ...
        raise OutputError(root, NotADirectoryError(errno.ENOTDIR, "it is a file or a device, "
                                                   "not a folder"),
                          "cannot hold the dataset's part files")
    if fs.isdir(where):     # another run's parts beside these would mix two datasets
        ours = {posixpath.basename(f) for f in files}
        listed = (posixpath.basename(str(f).rstrip("/")) for f in fs.ls(where, detail=False))
        others = sorted(f for f in listed if f.startswith("part-") and f.endswith(".parquet")
                        and f not in ours)
        if others:
            more = f" and {len(others) - 1:,} more" if len(others) > 1 else ""
            raise ArgumentError(f"{root} holds {others[0]}{more}, parts of another run "
                                f"that this one ({parts:,} parts) would not replace: use "
                                f"another folder, or remove them")
    if not is_url(root):
        try:
            os.makedirs(root, exist_ok=True)
        except OSError as e:        # a file on the way, no permission, a read-only disk
            raise OutputError(root, e, "cannot create the folder") from None
    tasks = [delayed(_play_partition, pure=True)(files[p], p, n // parts + (p < n % parts),
                                                   [*base, p], kw) for p in range(parts)]
    if not compute:
        return tasks
    run: Any = dask_compute             # (untyped in dask)
    run(*tasks)
    return files
