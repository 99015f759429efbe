# cython: language_level=3
"""Stopping the C loops early (``src/ofc_stop.h``; C API in ``_stop.pxd``).

A :class:`Stop` is one call's flag, shared by its chunks
(:func:`ofc_fast.threads.run_chunks` makes one per call and sets it when a
Ctrl-C reaches the main thread while it waits); a kernel's chunk checks it
between units of work and, when it runs in the main thread, also looks at
Python's pending signals, so a KeyboardInterrupt reaches Python within tens
of milliseconds of work, whatever the loop is doing.

>>> s = Stop()
>>> s.is_set, s.set(), s.is_set
(False, None, True)
"""
import threading


cdef class Stop:
    """One call's stop flag (shared by its chunks' threads; clear when made)."""

    def set(self):
        """Ask every chunk of the call to return at its next check."""
        self.flag = 1

    @property
    def is_set(self):
        """The call was asked to stop."""
        return self.flag != 0

    def __reduce__(self):
        raise TypeError("a Stop is one call's flag: it does not pickle or copy")


cdef int stop_begin(ofc_stop *s, Stop stop) except -1:
    """Start a chunk's checks on ``stop`` (in the chunk's thread, with the GIL)."""
    ofc_stop_init(s, &stop.flag, threading.current_thread() is threading.main_thread())
    return 0


cdef int stop_end(ofc_stop *s) except -1:
    """After the chunk's loop: -1 (raise) when a signal handler raised in it."""
    return -1 if s.raised else 0
