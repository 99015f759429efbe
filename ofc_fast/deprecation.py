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
from typing import Any, NoReturn, overload

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

    Returns
    -------
    None

    Raises
    ------
    DeprecationWarning
        When warnings are turned into errors.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_renamed("f(out=...)", "f(result=...)")
    >>> str(w[0].message)
    'f(out=...) is deprecated since ofc_fast 0.2; use f(result=...)'
    """
    warnings.warn(f"{old} is deprecated since ofc_fast {since}; use {new}", DeprecationWarning,
                  stacklevel=stacklevel)


class _RenamedAttribute:
    """A read-only attribute ``old`` reading ``<instance>.<new>``, with a warning.

    A descriptor rather than a ``property`` so type checkers and stubtest see
    an attribute read as ``Any`` (a ``property`` object assigned in a class
    body types as ``property``)."""

    def __init__(self, new: str, old: str, since: str = "0.2") -> None:
        self.new = new
        self.old = old
        self.since = since
        self.__doc__ = f"Deprecated alias of ``{new}`` (renamed in {since})."

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> _RenamedAttribute: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> Any: ...
    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        cls = type(obj).__name__
        warn_renamed(f"{cls}.{self.old}", f"{cls}.{self.new}", since=self.since)
        return getattr(obj, self.new)

    def __set__(self, obj: object, value: object) -> NoReturn:
        raise AttributeError(f"{type(obj).__name__}.{self.old} is a read-only alias of "
                             f"{self.new}")

    def __delete__(self, obj: object) -> NoReturn:
        raise AttributeError(f"{type(obj).__name__}.{self.old} is a read-only alias of "
                             f"{self.new}")


def renamed_attribute(new: str, old: str, since: str = "0.2") -> _RenamedAttribute:
    """A read-only attribute ``old`` returning ``self.<new>``, with a warning.

    Parameters
    ----------
    new : str
        The attribute's name now.
    old : str
        Its name before (the attribute's own name).
    since : str
        The release that renamed it.

    Returns
    -------
    descriptor
        A data descriptor (read-only, like a ``property`` without a setter)
        to assign in the class body; reading it through an instance is typed
        ``Any``.

    Raises
    ------
    AttributeError
        (From the descriptor) on assignment: the old name is read-only.

    Examples
    --------
    See the module docstring.
    """
    return _RenamedAttribute(new, old, since)
