"""Results as tables for notebooks: frames of the kind asked for (pandas,
polars, Arrow) and HTML tables (``_repr_html_``).

pandas, polars and pyarrow are imported only when a frame of their kind is
asked for; the HTML needs none of them.

>>> frame_of({"x": [1, 2]}, "arrow").column("x").to_pylist()
[1, 2]
>>> html_table(["a", "b"], [("<1>", "2")], caption="t").count("<td")
2
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from ofc_fast._args import choice

__all__ = ["FRAME_KINDS", "frame_kind", "frame_of", "html_table"]

FRAME_KINDS = ("pandas", "polars", "arrow")
"""The kinds of frame ``to_frame`` and :func:`ofc_fast.io.read_frame` make."""

_NEEDS = {"pandas": "pandas", "polars": "polars", "arrow": "pyarrow"}


def frame_kind(kind: object) -> str:
    """``kind`` checked: one of :data:`FRAME_KINDS`.

    Parameters
    ----------
    kind : str
        ``"pandas"``, ``"polars"`` or ``"arrow"``.

    Returns
    -------
    str

    Raises
    ------
    ArgumentError
        Another text.
    TypeError
        Not text.

    Examples
    --------
    >>> frame_kind("polars")
    'polars'
    """
    return choice(kind, "kind", FRAME_KINDS)


def require(kind: str) -> Any:
    """The module of a frame kind (``pyarrow`` for ``"arrow"``), imported,
    or an ImportError saying which extra brings it."""
    try:
        if kind == "pandas":
            import pandas
            return pandas
        if kind == "polars":
            import polars
            return polars
        import pyarrow
        return pyarrow
    except ImportError:
        raise ImportError(f"a {kind} frame needs {_NEEDS[kind]}: pip install "
                          f"'ofc-fast[{kind}]'") from None


def frame_of(columns: Mapping[str, Any], kind: str) -> Any:
    """A frame of ``kind`` with these columns (numpy arrays or lists), in order.

    Parameters
    ----------
    columns : mapping
        Column name to values (all of one length).
    kind : str
        One of :data:`FRAME_KINDS` (checked).

    Returns
    -------
    pandas.DataFrame, polars.DataFrame or pyarrow.Table

    Raises
    ------
    ArgumentError, TypeError
        A bad ``kind``.
    ImportError
        The frame library is not installed.

    Examples
    --------
    >>> frame_of({"player": ["ann"], "net": [3]}, "pandas")
      player  net
    0    ann    3
    """
    mod = require(frame_kind(kind))
    if kind == "pandas":
        return mod.DataFrame(dict(columns))
    if kind == "polars":
        return mod.DataFrame(dict(columns))
    return mod.table(dict(columns))


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]], *,
               caption: str | None = None, left: int = 1) -> str:
    """An HTML table of text cells (escaped), for ``_repr_html_``.

    Parameters
    ----------
    header : sequence of str
        Column titles.
    rows : sequence of sequences of str
        The cells, already formatted.
    caption : str, optional
        A line above the table.
    left : int
        Columns aligned left (the first ones); the others, numbers, right.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        ``caption`` is not text.

    Examples
    --------
    >>> print(html_table(["player", "net"], [("ann", "+3")]))  # doctest: +NORMALIZE_WHITESPACE
    <table><thead><tr><th style="text-align: left">player</th><th style="text-align:
    right">net</th></tr></thead><tbody><tr><td style="text-align: left">ann</td><td
    style="text-align: right">+3</td></tr></tbody></table>
    """
    def cells(tag: str, row: Sequence[str]) -> str:
        return "".join(f'<{tag} style="text-align: {"left" if i < left else "right"}">'
                       f"{html.escape(str(c))}</{tag}>" for i, c in enumerate(row))
    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{cells('th', header)}</tr></thead><tbody>{body}</tbody></table>"
