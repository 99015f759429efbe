# cython: language_level=3
"""The columns the text readers' scanners fill (``_scan.pyx``), shared by
the JSON Lines scanner (``_scan_json``) and the CSV one (``_scan_csv``): the
sizes of a hand, what a line or row read holds, the base class."""
from libc.stdint cimport uint8_t, int64_t, int32_t, uint64_t

cdef enum:
    MAX_P = 4
    MAX_DISC = 16
    MAX_RULES = 64
    N_CARDS = 13

cdef enum:
    OK = 0
    S_FALLBACK = 1
    S_NEW_RULES = 2
    S_BLANK = 3


cdef struct Line:
    int P
    uint8_t cards[MAX_P * N_CARDS]
    uint8_t fl[MAX_P]
    int64_t pts[MAX_P]
    uint8_t has[MAX_P]
    Py_ssize_t name_lo[MAX_P]
    Py_ssize_t name_n[MAX_P]        # -1: no name
    uint8_t disc[MAX_P * MAX_DISC]
    uint8_t ndisc[MAX_P]
    int id_kind                     # 0 none, 1 text, 2 integer
    Py_ssize_t id_lo, id_n
    int64_t id_val
    Py_ssize_t var_lo, var_n        # var_n -1: none
    Py_ssize_t opt_lo, opt_n        # opt_n -1: none
    Py_ssize_t row_line[MAX_P]      # CSV: the line of each player's row
    # JSON: where the JSON Lines writer splices our results into the line
    # (offsets in it), when it is as orjson writes it (``canon``)
    bint canon
    Py_ssize_t close                # the record's closing brace
    Py_ssize_t var_at, var_end      # the variant's value (var_at -1: no such key)
    Py_ssize_t pts_at[MAX_P]        # each player's points value (-1: no such key)
    Py_ssize_t pts_end[MAX_P]
    Py_ssize_t p_close[MAX_P]       # each player's closing brace


# a hand's splice row (int32; -1: none): canon, close, var_at, var_end, then
# per player pts_at, pts_end, p_close
cdef enum:
    SPLICE = 4 + 3 * MAX_P


cdef class Columns:
    cdef public list names
    cdef list ids, blocks, rules_keys
    cdef object _h_line, _h_P, _h_rules, _h_blk, _h_lo, _h_hi
    cdef object _cards, _fl, _pts, _has, _name, _ndisc, _disc
    cdef int64_t[::1] h_line, h_lo, h_hi
    cdef uint8_t[::1] h_P, fl, has, ndisc, cards, disc
    cdef int32_t[::1] h_rules, h_blk, name
    cdef int64_t[::1] pts
    cdef Py_ssize_t n_hands, n_rows, n_disc, cap_h
    # rules registered: (variant, options) text -> what the caller said of them
    cdef int n_rules, last_rules
    cdef int rules_id[MAX_RULES]
    cdef int rules_min[MAX_RULES]
    cdef int rules_max[MAX_RULES]
    cdef Py_ssize_t rules_vn[MAX_RULES]
    cdef Py_ssize_t rules_on[MAX_RULES]
    cdef const uint8_t *rules_v[MAX_RULES]
    cdef const uint8_t *rules_o[MAX_RULES]
    # names: open addressing table of codes, their hashes and bytes
    cdef int32_t *slots
    cdef Py_ssize_t n_slots
    cdef uint64_t *n_hash
    cdef Py_ssize_t *n_off
    cdef Py_ssize_t *n_len
    cdef uint8_t *arena
    cdef Py_ssize_t arena_len, arena_cap, n_codes, codes_cap
    cdef object cur_block
    cdef int cur_blk
    cdef object _pend, _row_line, _splice
    cdef int64_t[::1] row_line
    cdef int32_t[:, ::1] splice
    cdef bint fast, with_row_lines, with_splice

    cdef int _find_rules(self, const uint8_t *s, Line *ln) noexcept nogil
    cdef _use_block(self, bytes block)
    cdef int _commit(self, const uint8_t *buf, Py_ssize_t pos, Py_ssize_t e, Py_ssize_t line,
                     Line *ln, int rk) except -1
    cdef void _keep_splice(self, Py_ssize_t k, Line *ln, Py_ssize_t length) noexcept
    cdef _pending(self, bytes block, Py_ssize_t pos, Line *ln)
    cdef int _name_code(self, const uint8_t *s, Py_ssize_t n) except -2
    cdef _rehash(self)
