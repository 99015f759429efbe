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
cdef extern from "ofc_stop.h" nogil:
    ctypedef struct ofc_stop:
        int raised
    void ofc_stop_init(ofc_stop *s, volatile int *flag, int main)
    int ofc_stop_now(ofc_stop *s)


cdef class Stop:
    cdef volatile int flag


cdef int stop_begin(ofc_stop *s, Stop stop) except -1
cdef int stop_end(ofc_stop *s) except -1
