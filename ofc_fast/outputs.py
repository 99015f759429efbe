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

A temporary file is removed however the run ends short of SIGKILL: by
:meth:`Output.abort` when the run fails, and otherwise by a finalizer
(:func:`weakref.finalize`) when the :class:`Output` is garbage-collected
unfinished or the interpreter exits (a signal turned into ``SystemExit``,
see :func:`ofc_fast.cli.main`).  A completed file is flushed to the disk
(:func:`os.fsync`) before it is renamed over the target, and the rename
after, where the platform allows, so that it survives a crash.  Two things
keep that off the writer's path: :meth:`Output.writeback` starts the disk
writes of what was written so far while the run goes on (the writers call
it after each chunk), so the flush at the end waits for little; and the
file a rename replaces is released in a background thread (freeing a large
file's blocks takes as long as writing a tenth of it).

Any :class:`OSError` while writing becomes :class:`OutputError`, which names
the output (not the input): "disk full" is about where the results go.

:func:`check_distinct` refuses an output that is one of the inputs (same
file through another name, a symbolic or a hard link, or stdin/stdout
redirected to it), and two outputs that are one file, before anything is
read or written.
"""
from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
import threading
import warnings
import weakref
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO, cast

from ofc_fast._args import instance
from ofc_fast.errors import OutputError, SameFileError, shorten

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
        self._tmp: _Temporary | None = None
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
            tmp = _Temporary(os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp"), target)
            # the finalizer is set before the file exists: however the run
            # ends from here on (a signal between two lines included), the
            # file is removed unless committed
            tmp.finalizer = weakref.finalize(self, tmp.remove, False)
            try:
                # mode 0o666 less the umask, as open() would give a new file
                tmp.fd = os.open(tmp.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                                 0o666)
                break
            except FileExistsError:
                tmp.finalizer.detach()     # another's file: not ours to remove
                continue
            except OSError as e:
                tmp.finalizer.detach()
                raise OutputError(target, e, "cannot create") from None
        else:  # pragma: no cover - 100 random names taken
            raise OutputError(target, OSError(errno.EEXIST, "no free temporary name"))
        self._tmp = tmp
        self.path, self.final = tmp.path, real
        if st is not None:
            with contextlib.suppress(OSError):
                os.chmod(tmp.path, stat.S_IMODE(st.st_mode))

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
                sink = _Sink(_stdout_buffer(), owned=False)
            elif self._tmp is not None and self._tmp.fd is not None:
                fd = self._tmp.fd
                sink = _Sink(os.fdopen(fd, mode))
                self._tmp.fd = None            # the file owns it now
            elif is_url(self.path):
                import fsspec
                sink = _Sink(cast(Any, fsspec.open(self.path, mode)).open())
            else:
                sink = _Sink(open(cast(str, self.path), mode))
            return cast(BinaryIO, sink)         # writes all, else as the file it wraps
        except OSError as e:
            raise OutputError(self.target, e, "cannot open") from None

    def writeback(self) -> None:
        """Start writing what was written so far to the disk, without waiting.

        Linux only (``posix_fadvise(DONTNEED)``, which starts the disk
        writes of the file's written pages and lets the kernel drop those
        already written); elsewhere, and for outputs that are not atomic
        files, nothing.  A hint: :meth:`commit` flushes everything whatever
        was started.  Called after each chunk (from the writer's thread), it
        lets the disk work while the run goes on, so the flush at the end
        waits for little.  An output read right after comes from the disk
        rather than the page cache; keeping its pages cached
        (``sync_file_range``) cost more than that in
        ``benchmarks/bench_files.py`` (one run against this code: JSON Lines
        to JSON Lines 1.83x the time of scoring alone instead of 1.07x, the
        kernel's work of keeping them).
        """
        if self.final is None or self.done or not _START_WRITEBACK:
            return
        with contextlib.suppress(OSError):
            fd = os.open(cast(str, self.path), os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)

    def release(self) -> str | None:
        """The path, for a library that opens it itself (pyarrow)."""
        if self._tmp is not None:
            self._tmp.close()
        return self.path

    def commit(self) -> None:
        """Everything is written: put the output in place (flushed to the
        disk first, where the platform allows)."""
        if self.done:
            return
        self.done = True
        self.release()
        if self.final is not None and self._tmp is not None:
            old = _hold(self.final)
            try:
                _fsync(self._tmp.path)
                os.replace(self._tmp.path, self.final)
            except OSError as e:
                self._tmp.remove(True)
                raise OutputError(self.target, e) from None
            finally:
                if old is not None:
                    _close_behind(old)
            self._tmp.finalizer.detach()    # in place: nothing of ours to remove
            _fsync_folder(self.final)

    def abort(self) -> None:
        """The run failed: remove the temporary file; the target is untouched."""
        if self.done:
            return
        self.done = True
        if self._tmp is not None:
            self._tmp.remove(True)

    def __repr__(self) -> str:
        return f"Output({self.target!r}{', atomic' if self.atomic else ''})"


class _Temporary:
    """A temporary output file and its descriptor until a file object takes
    it; :meth:`remove` is the :class:`Output`'s finalizer."""

    def __init__(self, path: str, target: Target):
        self.path = path
        self.target = target
        self.fd: int | None = None
        self.finalizer: weakref.finalize[Any, Any]

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            with contextlib.suppress(OSError):
                os.close(fd)

    def remove(self, asked: bool) -> None:
        """Remove the file (``asked``: by abort, else by the finalizer: the
        Output was dropped unfinished, or the interpreter is exiting)."""
        self.finalizer.detach()
        self.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        if not asked and not sys.is_finalizing():
            warnings.warn(f"{self.target}: output discarded: it was not committed (close the "
                          "writer, or use it in a with block)", ResourceWarning, stacklevel=2)


# posix_fadvise(DONTNEED) starts the writeback of a file's dirty pages on Linux
# (mm/fadvise.c); elsewhere it may only drop clean pages: not worth a call
_START_WRITEBACK = sys.platform.startswith("linux") and hasattr(os, "posix_fadvise")


def _hold(path: str) -> int | None:
    """A descriptor of the file at path (POSIX; None if there is none): held
    over a rename that replaces it, the file's blocks are freed when it is
    closed (:func:`_close_behind`), not by the rename."""
    if os.name != "posix":
        return None
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None


def _close_behind(fd: int) -> None:
    """Close fd in a background thread: the last close of a replaced file
    frees its blocks, which for a large file takes milliseconds (more with
    online discard) that the caller need not wait for."""
    try:
        threading.Thread(target=os.close, args=(fd,), name="ofc-fast-release",
                         daemon=True).start()
    except RuntimeError:      # no new threads (the interpreter is exiting): close here
        os.close(fd)


def _fsync(path: str) -> None:
    """Flush a written file to the disk (a completed output survives a crash)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(fd)
    except OSError as e:      # a file system without fsync (EINVAL): nothing to flush
        if e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _fsync_folder(path: str) -> None:
    """Flush the rename to the disk (POSIX: fsync of the folder; best effort)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _stdout_buffer() -> Any:
    """The binary stdout (an OSError when there is none: closed at start)."""
    buf = getattr(sys.stdout, "buffer", None)
    if buf is None:
        raise OSError(errno.EBADF, "standard output is closed")
    return buf


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
    if not isinstance(path, (str, bytes, os.PathLike, int)):    # a stream, or no path at all
        return None
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _stdio_stat(fd: int) -> os.stat_result | None:
    try:
        return os.fstat(fd)
    except (OSError, ValueError):
        return None


def _file(p: object, stdio: int) -> tuple[str, os.stat_result | None, str | None] | None:
    """(name in messages, os.stat, resolved path) of a path; ``-`` is the
    standard stream ``stdio``; None for what is not compared (None, URLs,
    open files)."""
    if p is None or is_url(p) or hasattr(p, "read") or hasattr(p, "write"):
        return None
    if str(p) == STDIO:
        return ("stdin" if stdio == 0 else "stdout"), _stdio_stat(stdio), None
    return str(p), _stat(cast(Target, p)), os.path.realpath(os.fspath(cast(Target, p)))


def _same(a: tuple[str, os.stat_result | None, str | None],
          b: tuple[str, os.stat_result | None, str | None]) -> bool:
    """Whether two files (:func:`_file`) are one: the same resolved path or
    ``(st_dev, st_ino)``, and not a device (a terminal, ``/dev/null``: what
    several uses may share)."""
    (_, sa, ra), (_, sb, rb) = a, b
    if sa is not None and sb is not None and (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino):
        return stat.S_IFMT(sa.st_mode) in _FILES
    return ra is not None and ra == rb and (sa is None or stat.S_IFMT(sa.st_mode) in _FILES)


_FILES = (stat.S_IFREG, stat.S_IFIFO, stat.S_IFSOCK)   # what two uses cannot share


def check_distinct(inputs: Iterable[object], outputs: Iterable[object]) -> None:
    """Refuse an output that is one of the inputs, or two outputs that are one
    file, before anything is read or written.

    Files are compared by what they resolve to: the resolved path (so a
    symbolic link, ``..`` or a name that does not exist yet is caught) and
    ``os.stat``'s ``(st_dev, st_ino)`` (so another name or a hard link is
    caught); ``-`` is stdin for an input and stdout for an output, so a
    standard stream redirected to a file is that file.  Regular files,
    pipes and sockets are compared (two outputs ``-`` are one, too);
    devices (``/dev/null``, a terminal) may take several uses.  URLs and
    open files are not compared.

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
    SameFileError
        An output is an input, or two outputs are one file; the message
        names both (an :class:`~ofc_fast.errors.OFCError` and a
        :class:`shutil.SameFileError`).

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
    ofc_fast.errors.SameFileError: ...hands.jsonl: the output is the input file ...
    >>> check_distinct([hands], [os.path.join(folder, "a.csv"), os.path.join(folder, "a.csv")])
    Traceback (most recent call last):
    ...
    ofc_fast.errors.SameFileError: ...a.csv: two outputs are one file (...a.csv and ...a.csv); ...
    """
    for name, paths in (("inputs", inputs), ("outputs", outputs)):
        if isinstance(paths, (str, bytes, os.PathLike)):        # one path, not a list of them
            raise TypeError(f"{name} must be a list of paths, got {shorten(paths)}")
        instance(paths, name, Iterable, "a list of paths")
    ins = [f for f in (_file(p, 0) for p in inputs) if f is not None]
    outs: list[tuple[tuple[str, os.stat_result | None, str | None], bool]] = []
    for o in outputs:
        out = _file(o, 1)
        if out is None:
            continue
        for inp in ins:
            if _same(inp, out):
                raise SameFileError(
                    f"{out[0]}: the output is the input file {inp[0]}; writing it would "
                    "destroy what is being read (choose another output name)")
        dash = str(o) == STDIO
        for other, other_dash in outs:
            if (dash and other_dash) or _same(other, out):
                raise SameFileError(
                    f"{out[0]}: two outputs are one file ({other[0]} and {out[0]}); they "
                    "would overwrite each other (choose another name for one)")
        outs.append((out, dash))
