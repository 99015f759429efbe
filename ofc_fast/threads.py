"""Threads for the batch kernels: split a batch into contiguous chunks and run
them in a shared pool.

Every kernel releases the GIL, writes its own slice of the outputs, and draws
random numbers by item index, so the result never depends on the number of
threads.  ``n_threads=1`` (the default everywhere) runs in the caller's
thread; ``None`` means one thread per CPU.

>>> import numpy as np
>>> out = np.zeros(10, np.int64)
>>> def kernel(lo, hi):
...     out[lo:hi] = np.arange(lo, hi) ** 2
>>> _ = run_chunks(kernel, 10, n_threads=3)
>>> out.tolist()
[0, 1, 4, 9, 16, 25, 36, 49, 64, 81]
"""
from __future__ import annotations

import contextlib
import gc
import queue
import threading
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Generic, TypeVar, cast

from ofc_fast._args import MAX_THREADS
from ofc_fast._args import n_threads as _n_threads
from ofc_fast._stop import Stop

__all__ = ["MAX_THREADS", "thread_count", "run_chunks", "prefetch", "Behind", "gc_paused"]


T = TypeVar("T")
_pools: dict[int, ThreadPoolExecutor] = {}   # by size: a call never runs more than it asked
_pools_lock = threading.Lock()
_worker = threading.local()                  # .active in the pools' threads


def thread_count(n_threads: int | None, n_items: int | None = None) -> int:
    """Validate ``n_threads`` and return how many threads to use
    (:func:`ofc_fast._args.n_threads`).

    Parameters
    ----------
    n_threads : int or None
        1 .. :data:`MAX_THREADS`, or ``None`` for one per CPU.
    n_items : int, optional
        Never more threads than items.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        For anything but an integer or None.
    ArgumentError
        For a count outside 1 .. MAX_THREADS.

    Examples
    --------
    >>> thread_count(4, n_items=2)
    2
    """
    return _n_threads(n_threads, n_items)


def _mark_worker() -> None:
    _worker.active = True


def _shared_pool(size: int) -> ThreadPoolExecutor:
    with _pools_lock:
        pool = _pools.get(size)
        if pool is None:
            pool = _pools[size] = ThreadPoolExecutor(max_workers=size,
                                                     thread_name_prefix=f"ofc-fast-{size}",
                                                     initializer=_mark_worker)
        return pool


def run_chunks(fn: Callable[[int, int], T], n: int, n_threads: int | None = 1, *,
               min_chunk: int = 1, chunks_per_thread: int = 1,
               stop: Stop | None = None) -> list[T]:
    """Call ``fn(lo, hi)`` over contiguous chunks covering ``range(n)``.

    Parameters
    ----------
    fn : callable
        Does the work for items ``lo .. hi - 1`` (it should release the GIL).
    n : int
        Number of items.
    n_threads : int or None
        As for :func:`thread_count`; 1 runs ``fn(0, n)`` in this thread, and
        so does a call made from a chunk already running in a pool (a
        kernel called inside another's chunk): its threads are busy, and
        waiting on them would deadlock.
    min_chunk : int
        Fewest items per chunk worth a thread.
    chunks_per_thread : int
        More, smaller chunks than threads, for items of uneven cost (the
        threads take the next chunk as they finish one).
    stop : ofc_fast._stop.Stop, optional
        The flag the chunks' C loops check (``fn`` passes it to its
        kernel): set when an exception (Ctrl-C) reaches this thread while
        chunks run, so they return at their next check instead of running
        to their end.

    Returns
    -------
    list
        What each call returned, in chunk order.

    Raises
    ------
    TypeError, ArgumentError
        For a bad ``n_threads``; whatever ``fn`` raises.

    Examples
    --------
    >>> run_chunks(lambda lo, hi: (lo, hi), 7, n_threads=2)
    [(0, 3), (3, 7)]
    """
    k = thread_count(n_threads, max(1, n // max(1, min_chunk)))
    if k == 1 or n <= 1 or getattr(_worker, "active", False):
        return [fn(0, n)]
    parts = min(n, k * max(1, chunks_per_thread))
    bounds = [n * i // parts for i in range(parts + 1)]
    chunks = list(zip(bounds[:-1], bounds[1:], strict=True))
    if parts > k:   # uneven items: every thread pulls the next chunk from the pool
        pool = _shared_pool(k)
        pending = [pool.submit(fn, lo, hi) for lo, hi in chunks]
        try:
            return [f.result() for f in pending]
        except BaseException:
            _settle(pending, stop)
            raise
    # One chunk a thread: this thread runs the first itself (no hand-off and
    # wake-up for it), the pool the others.
    futures = [_shared_pool(k - 1).submit(fn, lo, hi) for lo, hi in chunks[1:]]
    _worker.active = True          # a kernel called inside this chunk runs inline
    try:
        first = fn(*chunks[0])
        wait(futures)
    except BaseException:
        _settle(futures, stop)     # never leave chunks running behind an exception
        raise
    finally:
        _worker.active = False
    return [first] + [f.result() for f in futures]


def _settle(futures: list[Future[T]], stop: Stop | None) -> None:
    """After an error or a Ctrl-C (while waiting), return only when no chunk
    of the call runs: chunks not started are cancelled, running ones are
    told to stop (their C loops check ``stop``) and waited for, through
    further Ctrl-Cs.  A chunk left running would change the caller's data
    after the call, beside its next call."""
    if stop is not None:
        stop.set()
    while True:
        try:
            for f in futures:
                f.cancel()
            wait(futures)
            return
        except KeyboardInterrupt:
            continue


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for a block, in the main thread only.

    Reading and writing hands allocate many small containers and no cycles:
    the cyclic GC would only rescan them (a third of the run time).  The
    collector is one for the whole process, so a pause is taken only by
    code running in the main thread (a reader or writer thread of
    :func:`prefetch` or :class:`Behind`, or a caller's own thread, leaves it
    alone: it would pause the collector under the rest of the program).
    Pauses nest; the collector is enabled again at the end of the outermost
    one if it was enabled at its start.

    Yields
    ------
    None

    Raises
    ------
    Exception
        Whatever the block raises (the collector is enabled again first).

    Examples
    --------
    >>> import gc
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    if threading.current_thread() is not threading.main_thread() or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_END = object()


class _Failed:
    def __init__(self, exc: BaseException):
        self.exc = exc


def prefetch(items: Iterator[T], depth: int = 2) -> Generator[T, None, None]:
    """The items of an iterator, taken ``depth`` ahead in a background thread.

    For a reader whose work releases the GIL (file reads, Arrow decoding,
    the CSV line scanner): the next items are read while the caller works
    on this one.  An exception in the thread is raised here, where its item
    would have come; closing the result stops the thread.

    Parameters
    ----------
    items : iterator
        Advanced only in the background thread.
    depth : int
        Items taken ahead.

    Yields
    ------
    object
        The items, in order.

    Raises
    ------
    Exception
        Whatever taking an item raised, where that item would have come.

    Examples
    --------
    >>> list(prefetch(iter(range(5))))
    [0, 1, 2, 3, 4]
    """
    q: queue.Queue[object] = queue.Queue(depth)
    stop = threading.Event()

    def run() -> None:
        try:
            for item in items:
                while not stop.is_set():
                    try:
                        q.put(item, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            q.put(_END)
        except BaseException as e:  # noqa: BLE001 - handed to the consumer
            q.put(_Failed(e))

    t = threading.Thread(target=run, name="ofc-fast-reader", daemon=True)
    t.start()
    try:
        while True:
            item = q.get()
            if item is _END:
                return
            if isinstance(item, _Failed):
                raise item.exc
            yield cast(T, item)
    finally:
        stop.set()
        deadline = time.monotonic() + 5
        while t.is_alive() and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):     # a put waiting for room returns
                while True:
                    q.get_nowait()
            t.join(timeout=0.01)


class Behind(Generic[T]):
    """Calls ``fn(item)`` for each item put, in order, in a background thread:
    the writing side of :func:`prefetch`.

    For a consumer whose work releases the GIL (the writers' formatters,
    file writes, the Parquet encoder): the caller goes on with the next item
    while this one is consumed, at most ``depth`` items ahead.  An exception
    in the thread is raised by the next :meth:`put` or by :meth:`close`; after
    it, the items still queued are dropped.

    Parameters
    ----------
    fn : callable
        Called with each item, in the background thread.
    depth : int
        Items queued at most (``put`` waits for room).

    Examples
    --------
    >>> seen = []
    >>> behind = Behind(seen.append)
    >>> for i in range(5):
    ...     behind.put(i)
    >>> behind.close()
    >>> seen
    [0, 1, 2, 3, 4]
    """

    def __init__(self, fn: Callable[[T], object], depth: int = 2):
        self.fn = fn
        self.q: queue.Queue[object] = queue.Queue(depth)
        self.error: BaseException | None = None
        self.stopped = False
        self.t = threading.Thread(target=self._run, name="ofc-fast-behind", daemon=True)
        self.t.start()

    def _run(self) -> None:
        while True:
            item = self.q.get()
            if item is _END:
                return
            if self.error is None and not self.stopped:
                try:
                    self.fn(cast(T, item))
                except BaseException as e:  # noqa: BLE001 - raised in the caller
                    self.error = e

    def put(self, item: T) -> None:
        """Queue ``item`` (waits while ``depth`` items are queued).

        Parameters
        ----------
        item : object
            For ``fn``.

        Raises
        ------
        Exception
            What an earlier ``fn`` call raised.
        """
        if self.error is not None:
            raise self.error
        self.q.put(item)

    def close(self) -> None:
        """Wait for every item queued to be consumed.

        Raises
        ------
        Exception
            What an ``fn`` call raised.
        """
        if self.t.is_alive():
            self.q.put(_END)
            self.t.join()
        if self.error is not None:
            raise self.error

    def abort(self) -> None:
        """Drop the items still queued and wait for the one being consumed."""
        self.stopped = True
        if self.t.is_alive():
            with contextlib.suppress(queue.Empty):
                while True:
                    self.q.get_nowait()
            self.q.put(_END)
            self.t.join()
