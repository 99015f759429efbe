"""Renamed parts of the public API: an old name keeps working for one release,
with a :class:`DeprecationWarning` that names its replacement.

>>> import warnings
>>> class Result:
...     next_fantasyland = 14
...     fantasyland = renamed_attribute("next_fantasyland", "fantasyland")
>>> with warnings.catch_warnings(record=True) as w:
...     warnings.simplefilter("always")
...     Result().fantasyland, str(w[0].message)
(14, 'Result.fantasyland is deprecated since ofc_fast 0.2; use Result.next_fantasyland')
"""
from __future__ import annotations

import warnings
from typing import Any

__all__ = ["warn_renamed", "renamed_attribute", "UNSET"]

UNSET: Any = object()
"""Default of a deprecated keyword argument: tells "not given" from None."""


def warn_renamed(old: str, new: str, *, since: str = "0.2", stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated in favour of ``new``.

    Parameters
    ----------
    old, new : str
        The old and the new name, as a user writes them.
    since : str
        The release that renamed it.
    stacklevel : int
        Passed to :func:`warnings.warn` (3: the caller of the renamed thing).
    """
    warnings.warn(f"{old} is deprecated since ofc_fast {since}; use {new}", DeprecationWarning,
                  stacklevel=stacklevel)


def renamed_attribute(new: str, old: str) -> property:
    """A read-only property ``old`` returning ``self.<new>``, with a warning.

    Parameters
    ----------
    new : str
        The attribute's name now.
    old : str
        Its name before (the property's own name).

    Returns
    -------
    property
    """
    def get(self: Any) -> Any:
        cls = type(self).__name__
        warn_renamed(f"{cls}.{old}", f"{cls}.{new}")
        return getattr(self, new)
    return property(get, doc=f"Deprecated alias of ``{new}`` (renamed in 0.2).")
