# cython: language_level=3
# Well-formed UTF-8, as Python's strict decoder judges it, for the scanners
# and writers that pass text through byte by byte.
from libc.stdint cimport uint8_t


cdef inline Py_ssize_t utf8_len(const uint8_t *s, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Bytes of the UTF-8 sequence at ``s[i]`` (a byte above 0x7f) within
    ``s[:n]``, or -1 if it is not one: no overlong forms, no surrogates,
    nothing above U+10FFFF."""
    cdef uint8_t c = s[i], lo = 0x80, hi = 0xBF
    cdef int k, j
    if 0xC2 <= c <= 0xDF:
        k = 1
    elif 0xE0 <= c <= 0xEF:
        k = 2
        if c == 0xE0:
            lo = 0xA0
        elif c == 0xED:
            hi = 0x9F
    elif 0xF0 <= c <= 0xF4:
        k = 3
        if c == 0xF0:
            lo = 0x90
        elif c == 0xF4:
            hi = 0x8F
    else:
        return -1
    if i + k >= n:
        return -1
    for j in range(1, k + 1):
        c = s[i + j]
        if c < lo or c > hi:
            return -1
        lo, hi = 0x80, 0xBF      # only the first continuation byte is narrowed
    return k + 1
