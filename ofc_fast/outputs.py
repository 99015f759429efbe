"""Outputs that never leave half a file, and never overwrite an input.

Every file ``ofc_fast`` writes (scored hands, ``--summary-json``, report
JSON and pictures) goes through :class:`Output`:

* a regular file (or a name that does not exist yet) is written to a
  temporary file beside it (``.NAME.XXXXXXXX.tmp``, same directory, so the
  same file system) and renamed over the target with :func:`os.replace` when
  everything was written; a run that fails or is interrupted removes the
  temporary file and leaves an existing target as it was.  A symbolic link
  is followed: the file it points to is replaced, the link stays.  A file
  that is replaced keeps its permission bits.
* ``-`` (stdout), devices (``/dev/stdout``, ``/dev/null``), FIFOs and
  fsspec URLs are written directly: they cannot be renamed over.

Any :class:`OSError` while writing becomes :class:`OutputError`, which names
the output (not the input): "disk full" is about where the results go.

:func:`check_distinct` refuses an output that is one of the inputs (same
file through another name, a symbolic or a hard link, or stdin/stdout
redirected to it) before anything is read or written.
"""
from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import stat
import sys
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO, cast

from ofc_fast.errors import OutputError

__all__ = ["Output", "OutputError", "open_output", "check_distinct", "is_url", "STDIO"]

STDIO = "-"
"""The name of standard input (as an input) and standard output (as an output)."""

Target = str | os.PathLike[str]
"""Where an output goes: a path, ``-`` (stdout) or an fsspec URL."""


def is_url(path: object) -> bool:
    """Whether ``path`` is an fsspec URL (``s3://...``; ``file://`` is a local path).

    Parameters
    ----------
    path : object
        A path, or anything else (which is not a URL).

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        Never; any object is accepted.

    Examples
    --------
    >>> is_url("s3://bucket/hands.parquet"), is_url("hands.parquet"), is_url("file:///tmp/x")
    (True, False, False)
    """
    return isinstance(path, str) and "://" in path and not path.startswith("file://")


class Output:
    """Where one output goes (see the module docstring).

    ``path`` is what to open for writing (the temporary file, or the target
    itself when it is written directly; None for stdout).  Call :meth:`commit`
    once everything is written, or :meth:`abort`.

    Parameters
    ----------
    target : str or os.PathLike
        The output: a path, ``-`` (stdout) or an fsspec URL.

    Raises
    ------
    OutputError
        The temporary file cannot be created (no such folder, no permission).

    Examples
    --------
    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> out = Output(target)
    >>> out.atomic, os.path.exists(target)
    (True, False)
    >>> with out.open() as f:
    ...     _ = f.write(b"all or nothing")
    >>> out.commit()
    >>> open(target, "rb").read()
    b'all or nothing'
    """

    def __init__(self, target: Target):
        self.target = target
        self.final: str | None = None       # renamed onto at commit (atomic outputs only)
        self.path: str | None = None
        self._fd: int | None = None
        self.done = False
        if str(target) == STDIO:
            return
        if is_url(target):
            self.path = str(target)
            return
        path = os.fspath(target)
        real = os.path.realpath(path)
        try:
            st = os.stat(real)
        except FileNotFoundError:
            st = None
        except OSError as e:
            raise OutputError(target, e, "cannot open") from None
        if st is not None and not stat.S_ISREG(st.st_mode):
            self.path = path                  # a device, FIFO, directory ...: written directly
            return
        folder, name = os.path.split(real)
        for _ in range(100):
            tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
            try:
                # mode 0o666 less the umask, as open() would give a new file
                self._fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                                   0o666)
                break
            except FileExistsError:
                continue
            except OSError as e:
                raise OutputError(target, e, "cannot create") from None
        else:  # pragma: no cover - 100 random names taken
            raise OutputError(target, OSError(errno.EEXIST, "no free temporary name"))
        self.path, self.final = tmp, real
        if st is not None:
            with contextlib.suppress(OSError):
                os.chmod(tmp, stat.S_IMODE(st.st_mode))

    @property
    def atomic(self) -> bool:
        return self.final is not None

    @property
    def stdout(self) -> bool:
        return str(self.target) == STDIO

    def open(self, mode: str = "wb") -> BinaryIO:
        """A binary file to write to.

        It is not closed by :meth:`commit` (close it first); for stdout it is
        ``sys.stdout.buffer``, which closing only flushes.  A write writes all of
        its data or raises.

        Parameters
        ----------
        mode : str
            The file mode (``"wb"``).

        Returns
        -------
        BinaryIO

        Raises
        ------
        OutputError
            The output cannot be opened.
        """
        try:
            if self.stdout:
                sink = _Sink(sys.stdout.buffer, owned=False)
            elif self._fd is not None:
                fd, self._fd = self._fd, None
                sink = _Sink(os.fdopen(fd, mode))
            elif is_url(self.path):
                import fsspec
                sink = _Sink(cast(Any, fsspec.open(self.path, mode)).open())
            else:
                sink = _Sink(open(cast(str, self.path), mode))
            return cast(BinaryIO, sink)         # writes all, else as the file it wraps
        except OSError as e:
            raise OutputError(self.target, e, "cannot open") from None

    def release(self) -> str | None:
        """The path, for a library that opens it itself (pyarrow)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        return self.path

    def commit(self) -> None:
        """Everything is written: put the output in place."""
        if self.done:
            return
        self.done = True
        self.release()
        if self.final is not None:
            try:
                os.replace(cast(str, self.path), self.final)
            except OSError as e:
                self._remove()
                raise OutputError(self.target, e) from None

    def abort(self) -> None:
        """The run failed: remove the temporary file; the target is untouched."""
        if self.done:
            return
        self.done = True
        with contextlib.suppress(OSError):
            self.release()
        self._remove()

    def _remove(self) -> None:
        if self.final is not None:
            with contextlib.suppress(OSError):
                os.unlink(cast(str, self.path))

    def __repr__(self) -> str:
        return f"Output({self.target!r}{', atomic' if self.atomic else ''})"


class _Sink:
    """A binary file whose ``write`` writes everything or raises.

    A large ``BufferedWriter.write`` can return after a short write without
    raising (a pipe whose reader left, a disk that filled up): the rest would
    be lost without a word.  This writes the rest, so that the error shows.
    ``close`` of stdout only flushes it."""

    def __init__(self, f: Any, owned: bool = True):
        self._f = f
        self._owned = owned

    def write(self, data: bytes | bytearray | memoryview) -> int:
        view = memoryview(data).cast("B")
        total = len(view)
        write = self._f.write
        while view:
            n = write(view)
            if n is None:      # pragma: no cover - non-blocking raw file: not ours
                raise OSError(errno.EAGAIN, "the output would block")
            view = view[n:]
        return total

    def close(self) -> None:
        if self._owned:
            self._f.close()
        else:
            self._f.flush()

    def __enter__(self) -> _Sink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._f, name)


@contextlib.contextmanager
def open_output(target: Target, mode: str = "wb") -> Iterator[BinaryIO]:
    """A binary file that appears at ``target`` only if the block finishes.

    ``with open_output(path) as f: f.write(...)``: the file is written beside
    ``target`` and renamed over it at the end of the block (see
    :class:`Output`); an exception in the block removes it and leaves an
    existing ``target`` as it was.

    Parameters
    ----------
    target : str or os.PathLike
        A path, ``-`` (stdout) or an fsspec URL.
    mode : str
        The file mode (``"wb"``).

    Yields
    ------
    BinaryIO
        The file to write.

    Raises
    ------
    OutputError
        The output cannot be created or written (it names the output).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "summary.json")
    >>> with open_output(path) as f:
    ...     _ = f.write(b'{"hands": 3}')
    >>> open(path, "rb").read()
    b'{"hands": 3}'
    """
    out = Output(target)
    f: BinaryIO | None = None
    try:
        f = out.open(mode)
        yield f
        f.close()
        f = None
        out.commit()
    except OSError as e:
        _close_quietly(f)
        out.abort()
        if isinstance(e, OutputError):
            raise
        raise OutputError(target, e) from None
    except BaseException:
        _close_quietly(f)
        out.abort()
        raise


def _close_quietly(f: BinaryIO | None) -> None:
    if f is not None:
        with contextlib.suppress(Exception):
            f.close()


# --------------------------------------------------------------------- same file
def _stat(path: Target) -> os.stat_result | None:
    """os.stat of a path, '-' meaning stdin (as an input) or stdout (as an
    output); None if it cannot be had."""
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _stdio_stat(fd: int) -> os.stat_result | None:
    try:
        return os.fstat(fd)
    except (OSError, ValueError):
        return None


def check_distinct(inputs: Iterable[object], outputs: Iterable[object]) -> None:
    """Refuse an output that is one of the inputs, before anything is read or written.

    Compares ``os.stat`` ``(st_dev, st_ino)`` of regular files (so another name,
    a symbolic or a hard link is caught; ``-`` is stdin for an input and stdout
    for an output), and the resolved paths.  URLs and open files are not
    compared.

    Parameters
    ----------
    inputs : iterable
        Input paths (None is skipped).
    outputs : iterable
        Output paths (None is skipped).

    Returns
    -------
    None

    Raises
    ------
    shutil.SameFileError
        An output is an input; the message names both.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> hands = os.path.join(folder, "hands.jsonl")
    >>> _ = open(hands, "w").close()
    >>> check_distinct([hands], [os.path.join(folder, "out.jsonl")])
    >>> check_distinct([hands], [os.path.join(folder, ".", "hands.jsonl")])
    Traceback (most recent call last):
    ...
    shutil.SameFileError: ...hands.jsonl: the output is the input file ...
    """
    ins = []
    for p in inputs:
        if p is None or is_url(p) or hasattr(p, "read"):
            continue
        st = _stdio_stat(0) if str(p) == STDIO else _stat(cast(Target, p))
        real = None if str(p) == STDIO else os.path.realpath(os.fspath(cast(Target, p)))
        ins.append((p, st, real))
    for o in outputs:
        if o is None or is_url(o) or hasattr(o, "write"):
            continue
        ost = _stdio_stat(1) if str(o) == STDIO else _stat(cast(Target, o))
        oreal = None if str(o) == STDIO else os.path.realpath(os.fspath(cast(Target, o)))
        for p, st, real in ins:
            same = real is not None and real == oreal
            if st is not None and ost is not None and stat.S_ISREG(st.st_mode) and \
                    stat.S_ISREG(ost.st_mode):
                same = same or (st.st_dev, st.st_ino) == (ost.st_dev, ost.st_ino)
            if same:
                oname = "stdout" if str(o) == STDIO else str(o)
                iname = "stdin" if str(p) == STDIO else str(p)
                raise shutil.SameFileError(
                    f"{oname}: the output is the input file {iname}; writing it would "
                    "destroy what is being read (choose another output name)")
