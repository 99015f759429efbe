# cython: language_level=3
# Declarations of src/ofc_stop.h (stopping a long C loop early: a flag shared
# by a call's threads, and Python's pending signals looked at from the main
# thread), and the Stop object a call shares between its chunks.  A kernel:
#     cdef ofc_stop s
#     stop_begin(&s, stop)            # with the GIL, in the chunk's thread
#     with nogil:
#         for i in range(lo, hi):
#             if ofc_stop_now(&s): break
#             ...
#     stop_end(&s)                    # raises the KeyboardInterrupt caught here
# A loop whose units cost unevenly calls ofc_stop_after(&s, cost) instead,
# cost in layout evaluations (it looks every OFC_STOP_WORK of them).
cdef extern from "ofc_stop.h" nogil:
    ctypedef struct ofc_stop:
        int raised
    void ofc_stop_init(ofc_stop *s, volatile int *flag, int main)
    int ofc_stop_now(ofc_stop *s)
    int ofc_stop_look(ofc_stop *s)
    int ofc_stop_after(ofc_stop *s, long long cost)


cdef class Stop:
    cdef volatile int flag


cdef int stop_begin(ofc_stop *s, Stop stop) except -1
cdef int stop_end(ofc_stop *s) except -1
