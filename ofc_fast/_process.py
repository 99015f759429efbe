"""The process around the ``ofc-fast`` command: the signals that end it and
its standard streams (docs/cli.md, "Exit status").

* :func:`stop_on_signals`: every catchable signal whose default is to end the
  process (SIGHUP when the terminal or the ssh session goes, SIGTERM,
  SIGQUIT, SIGXCPU, SIGALRM, SIGUSR1 ...; SIGINT stays Python's
  ``KeyboardInterrupt``) raises ``SystemExit(128 + n)`` instead, so that the
  run unwinds and removes its temporary outputs
  (:class:`ofc_fast.outputs.Output`) and exits with the conventional status.
  A signal that is ignored when the command starts (``nohup``: SIGHUP) stays
  ignored; SIGPIPE and SIGXFSZ are ignored by Python, so a closed pipe or a
  file over the size limit is a write error.  Signals that come while the
  first one unwinds are ignored: the clean-up is not cut short.
* :class:`Streams`: stdout and stderr through guards that record a failed
  write (closed with ``>&-``, a full device, a broken pipe) instead of
  raising in the middle of the run; the command then says which stream
  failed and exits 2, or 0 when nothing needed writing there.  A closed
  descriptor 0, 1 or 2 is held by ``/dev/null`` meanwhile, so that no file
  the run opens takes its number.

>>> sorted(signal.Signals(n).name for n in stopping_signals())[:4]
['SIGALRM', 'SIGHUP', 'SIGIO', 'SIGPROF']
"""
from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["stopping_signals", "stop_on_signals", "Streams", "GuardedStream"]

# what a signal does by default other than end the process, or a fault of the
# process itself (not a request to stop: faulthandler's business)
_NOT_REQUESTS = {"SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG",
                 "SIGWINCH", "SIGKILL", "SIGINFO", "SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE",
                 "SIGABRT", "SIGIOT", "SIGTRAP", "SIGSYS", "SIGEMT", "SIGINT", "SIGBREAK"}


def stopping_signals() -> list[int]:
    """The signals :func:`stop_on_signals` handles: every valid signal whose
    default action ends the process, but SIGINT (Python's
    ``KeyboardInterrupt``) and the faults of the process itself (SIGSEGV,
    SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS); the real-time signals
    included.

    Returns
    -------
    list of int
        Signal numbers (none on a platform without POSIX signals).

    Examples
    --------
    >>> int(signal.SIGTERM) in stopping_signals(), int(signal.SIGCHLD) in stopping_signals()
    (True, False)
    """
    if not hasattr(signal, "valid_signals") or os.name != "posix":
        return [int(signal.SIGTERM)]
    out = []
    for n in sorted(signal.valid_signals()):
        try:
            name = signal.Signals(n).name
        except ValueError:           # a real-time signal without a name: ends the process
            name = ""
        if name not in _NOT_REQUESTS:
            out.append(int(n))
    return out


class _Stopping:
    signum: int | None = None


@contextlib.contextmanager
def stop_on_signals() -> Iterator[Callable[[], int | None]]:
    """Turn every signal of :func:`stopping_signals` into ``SystemExit(128 + n)``
    while the block runs (the main thread only; elsewhere nothing changes).

    Signals ignored on entry stay ignored.  After the first, the others are
    ignored until the block ends, so that the clean-up the first started
    runs to its end.  The old handlers are put back at the end.

    Yields
    ------
    callable
        ``stopped()``: the signal that came, or None.

    Raises
    ------
    SystemExit
        With status 128 + the signal's number, when one comes.

    Examples
    --------
    >>> with stop_on_signals() as stopped:
    ...     signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL, stopped()
    (True, None)
    """
    state = _Stopping()

    def stop(signum: int, frame: object) -> None:
        if state.signum is not None:
            return                   # unwinding already: let the clean-up finish
        state.signum = signum
        raise SystemExit(128 + signum)

    def interrupt(signum: int, frame: object) -> None:
        if state.signum is not None:
            return
        state.signum = signum
        raise KeyboardInterrupt

    def unraisable(u: Any) -> None:
        # a stop raised inside a finaliser or weakref callback cannot leave
        # it (Python prints it and goes on): the caller sees it by stopped()
        if isinstance(u.exc_value, (SystemExit, KeyboardInterrupt)) and state.signum is not None:
            return
        hook(u)

    hook = sys.unraisablehook
    sys.unraisablehook = unraisable
    old: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for n in stopping_signals() + [int(signal.SIGINT)]:
            try:
                now = signal.getsignal(n)
                if n == signal.SIGINT:
                    if now is signal.default_int_handler:
                        old[n] = signal.signal(n, interrupt)
                elif now == signal.SIG_DFL:
                    old[n] = signal.signal(n, stop)
            except (OSError, ValueError, RuntimeError):    # one the platform keeps
                continue
    try:
        yield lambda: state.signum
    finally:
        sys.unraisablehook = hook
        for n, handler in old.items():
            with contextlib.suppress(OSError, ValueError, RuntimeError):
                signal.signal(n, handler)


# ----------------------------------------------------------------- the streams
class _ClosedBinary:
    """The binary side of a stream closed when the command started."""

    closed = False

    def write(self, data: object) -> int:
        raise OSError(errno.EBADF, "the stream is closed")

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "the stream is closed")

    def isatty(self) -> bool:
        return False


class _Closed(_ClosedBinary):
    """What ``sys.stdout``/``sys.stderr`` is when its descriptor was closed at
    start (Python makes it None)."""

    encoding = "utf-8"
    errors = "strict"
    buffer = _ClosedBinary()


class GuardedStream:
    """A text stream whose write and flush errors are recorded, not raised.

    After the first failure (``error``), what is written is dropped; the
    command reports the failure at its end.  Every other attribute is the
    stream's.

    Parameters
    ----------
    stream : text stream or None
        The stream (None: closed at start).
    name : str
        ``"stdout"`` or ``"stderr"``, for the message.

    Examples
    --------
    >>> g = GuardedStream(None, "stdout")
    >>> g.write("lost"), g.error.errno == errno.EBADF
    (4, True)
    """

    def __init__(self, stream: Any, name: str):
        self.stream = _Closed() if stream is None else stream
        self.name = name
        self.error: OSError | None = None
        self.written = False

    def _fail(self, e: BaseException) -> None:
        if self.error is None:
            self.error = e if isinstance(e, OSError) else OSError(errno.EBADF, str(e))

    def write(self, text: str) -> int:
        if text:
            self.written = True
        if self.error is None:
            try:
                return int(self.stream.write(text))
            except (OSError, ValueError) as e:      # ValueError: a closed file object
                self._fail(e)
        return len(text)

    def flush(self) -> None:
        if self.error is None:
            try:
                self.stream.flush()
            except (OSError, ValueError) as e:
                self._fail(e)

    def isatty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (OSError, ValueError, AttributeError):
            return False

    @property
    def broken_pipe(self) -> bool:
        """The reader of the pipe went away (``| head``): not an error of the run."""
        return self.error is not None and self.error.errno == errno.EPIPE

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


class Streams:
    """stdout and stderr guarded while the command runs (a context manager).

    On entry a closed descriptor 0, 1 or 2 is held by ``/dev/null`` (so that
    no file the run opens takes its number, which a later write to the
    stream would damage) and ``sys.stdout``/``sys.stderr`` become
    :class:`GuardedStream`\\ s; on exit both are flushed, a failed one is
    pointed at ``/dev/null`` (so that the interpreter's own flush at exit
    does not fail again), and the old streams are put back.

    Examples
    --------
    >>> with Streams() as streams:
    ...     print("hello")
    hello
    >>> streams.failed()
    []
    """

    def __init__(self) -> None:
        self.out: GuardedStream
        self.err: GuardedStream
        self._saved: tuple[Any, Any] = (None, None)
        self._held: list[int] = []

    def __enter__(self) -> Streams:
        closed = []
        for fd in (0, 1, 2):
            try:
                os.fstat(fd)
            except OSError:
                closed.append(fd)
                with contextlib.suppress(OSError):
                    got = os.open(os.devnull, os.O_RDWR)
                    if got != fd:                 # a lower one was free: not ours to fill
                        os.dup2(got, fd)
                        os.close(got)
                    self._held.append(fd)
        self._saved = (sys.stdout, sys.stderr)
        # a stream on a closed descriptor is closed (not /dev/null's now)
        self.out = GuardedStream(None if _on(sys.stdout, 1, closed) else sys.stdout, "stdout")
        self.err = GuardedStream(None if _on(sys.stderr, 2, closed) else sys.stderr, "stderr")
        sys.stdout, sys.stderr = self.out, self.err
        return self

    def __exit__(self, *exc: object) -> None:
        self.out.flush()
        self.err.flush()
        sys.stdout, sys.stderr = self._saved
        for g in (self.out, self.err):
            if g.error is not None:
                _to_devnull(g.stream)
        for fd in self._held:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._held = []

    def failed(self) -> list[GuardedStream]:
        """The streams whose writes failed (a broken pipe included)."""
        return [g for g in (self.out, self.err) if g.error is not None]


def _on(stream: Any, fd: int, closed: list[int]) -> bool:
    """Whether ``stream`` writes to the descriptor ``fd``, which was closed."""
    if fd not in closed or stream is None:
        return fd in closed
    try:
        return bool(stream.fileno() == fd)
    except (OSError, ValueError, AttributeError):
        return False


def _to_devnull(stream: Any) -> None:
    """Point a stream's descriptor at /dev/null (what is buffered in it is
    dropped there at exit, not written again)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, stream.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass
