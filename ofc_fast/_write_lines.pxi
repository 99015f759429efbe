# Included in _write.pyx: JSON Lines source lines with our results added.
#
# A source line is written as orjson.dumps(orjson.loads(line)) with our
# results set in each player (ofc_fast.io.jsonl.chunk_records): white space
# dropped, every value as it was.  The walker only reads the line and
# copies runs of it between the white space it drops and the values it
# replaces (w.mark: the start of the run not copied yet).  A line it cannot
# copy byte for byte as orjson would write it (an escape in a string, a
# float, -0, a key twice, ``options`` other than the rules' own as orjson
# writes them, too deep) is left to that reference, hand by hand.
cdef struct W:
    const uint8_t *s
    Py_ssize_t i
    Py_ssize_t n
    Py_ssize_t mark      # s[mark:i] is still to be copied
    Buf *b               # room made for the whole line beforehand
    int depth
    bint skipping        # passing over a value that is replaced: nothing copied


cdef uint8_t _PLAIN[256]     # bytes a string holds as they are (ASCII, no quote or control)
cdef uint8_t _SPACE[256]     # JSON white space


def _byte_tables():
    cdef int c
    for c in range(256):
        _PLAIN[c] = 32 <= c < 128 and c != 34 and c != 92
        _SPACE[c] = c in (9, 10, 13, 32)


_byte_tables()


cdef inline void _flush(W *w, Py_ssize_t upto) noexcept nogil:
    """Copy the input up to ``upto`` (room was made for the whole line)."""
    if w.skipping:
        return
    if upto > w.mark:
        memcpy(w.b.p + w.b.n, w.s + w.mark, upto - w.mark)
        w.b.n += upto - w.mark
    w.mark = upto


cdef inline void _ws(W *w) noexcept nogil:
    """Pass over white space (dropped from the output)."""
    if w.i < w.n and _SPACE[w.s[w.i]]:
        _flush(w, w.i)
        while w.i < w.n and _SPACE[w.s[w.i]]:
            w.i += 1
        if not w.skipping:
            w.mark = w.i


cdef inline int _w_string(W *w) noexcept nogil:
    """Pass over the string at ``s[i]`` (no escapes, no control characters,
    UTF-8), eight bytes a step where it can."""
    cdef Py_ssize_t i = w.i + 1, k
    cdef uint8_t c
    cdef uint64_t x, m, q, e
    while i < w.n:
        if i + 8 <= w.n:
            # a quote, a backslash, a byte below 0x20 or above 0x7f among the
            # next eight? (the lowest flag found is exact)
            memcpy(&x, w.s + i, 8)
            q = x ^ 0x2222222222222222ULL           # zero where a quote
            e = x ^ 0x5C5C5C5C5C5C5C5CULL           # zero where a backslash
            m = (((q - 0x0101010101010101ULL) & ~q) | ((e - 0x0101010101010101ULL) & ~e) |
                 ((x - 0x2020202020202020ULL) & ~x) | x) & 0x8080808080808080ULL
            if m == 0:
                i += 8
                continue
            i += ofc_ctz64(m) >> 3
        c = w.s[i]
        if _PLAIN[c]:
            i += 1
        elif c == 34:
            w.i = i + 1
            return 0
        elif c >= 128:
            k = utf8_len(w.s, i, w.n)
            if k < 0:
                return -1
            i += k
        else:
            return -1
    return -1


cdef int _w_number(W *w) noexcept nogil:
    """Pass over an integer that orjson writes back as it is (not -0, at
    most 18 digits)."""
    cdef Py_ssize_t i = w.i, start
    if i < w.n and w.s[i] == 45:
        i += 1
    start = i
    while i < w.n and w.s[i] >= 48 and w.s[i] <= 57:
        i += 1
    if i == start or i - start > 18 or (w.s[start] == 48 and (i - start > 1 or start > w.i)):
        return -1
    if i < w.n and (w.s[i] == 46 or w.s[i] == 101 or w.s[i] == 69):
        return -1
    w.i = i
    return 0


cdef inline bint _same(const uint8_t *a, const uint8_t *b, Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t j
    for j in range(m):
        if a[j] != b[j]:
            return False
    return True


cdef int _w_key(W *w, Py_ssize_t *keys, int *nkeys) noexcept nogil:
    """Pass over ``"key":`` (a key not seen before in its object: its span,
    quotes included, is ``keys[2 * nkeys - 2:2 * nkeys]`` after)."""
    cdef Py_ssize_t at = w.i, m
    cdef int j
    if w.i >= w.n or w.s[w.i] != 34 or _w_string(w) < 0:
        return -1
    m = w.i - at
    for j in range(nkeys[0]):
        if keys[2 * j + 1] == m and _same(w.s + keys[2 * j], w.s + at, m):
            return -1
    if nkeys[0] >= MAX_KEYS:
        return -1
    keys[2 * nkeys[0]] = at
    keys[2 * nkeys[0] + 1] = m
    nkeys[0] += 1
    _ws(w)
    if w.i >= w.n or w.s[w.i] != 58:
        return -1
    w.i += 1
    _ws(w)
    return 0


cdef inline int _w_more(W *w, uint8_t close) noexcept nogil:
    """After a member or element: 1 (past a comma), 0 (past ``close``) or -1."""
    _ws(w)
    if w.i < w.n and w.s[w.i] == 44:
        w.i += 1
        _ws(w)
        return 1
    if w.i < w.n and w.s[w.i] == close:
        w.i += 1
        return 0
    return -1


cdef int _w_value(W *w) noexcept nogil:
    """Pass over any value (objects and arrays member by member, each key once)."""
    cdef Py_ssize_t keys[2 * MAX_KEYS]
    cdef int nkeys = 0, more
    cdef uint8_t c, close
    if w.i >= w.n:
        return -1
    c = w.s[w.i]
    if c == 34:
        return _w_string(w)
    if c == 123 or c == 91:
        if w.depth >= MAX_DEPTH:
            return -1
        close = c + 2
        w.i += 1
        _ws(w)
        if w.i < w.n and w.s[w.i] == close:
            w.i += 1
            return 0
        w.depth += 1
        while True:
            if c == 123 and _w_key(w, keys, &nkeys) < 0:
                return -1
            if _w_value(w) < 0:
                return -1
            more = _w_more(w, close)
            if more < 0:
                return -1
            if more == 0:
                w.depth -= 1
                return 0
    if c == 116 and w.i + 4 <= w.n and memcmp(w.s + w.i, b"true", 4) == 0:
        w.i += 4
        return 0
    if c == 102 and w.i + 5 <= w.n and memcmp(w.s + w.i, b"false", 5) == 0:
        w.i += 5
        return 0
    if c == 110 and w.i + 4 <= w.n and memcmp(w.s + w.i, b"null", 4) == 0:
        w.i += 4
        return 0
    return _w_number(w)


cdef inline int _w_replace(W *w) noexcept nogil:
    """Copy what comes before the value at ``s[i]`` and pass over the value
    (the caller writes another)."""
    cdef bint was = w.skipping
    _flush(w, w.i)
    w.skipping = True
    if _w_value(w) < 0:
        return -1
    w.skipping = was
    w.mark = w.i
    return 0


cdef enum:
    P_POINTS = 1
    P_ROYALTIES = 2
    P_FOUL = 4
    P_FANTASYLAND = 8
    P_RECORDED = 16
    P_SUBS = 32


cdef inline int _result_key(const uint8_t *k, Py_ssize_t m) noexcept nogil:
    """The flag of a result key (with its quotes), 0 for another."""
    if m == 8 and memcmp(k, b'"points"', 8) == 0:
        return P_POINTS
    if m == 11 and memcmp(k, b'"royalties"', 11) == 0:
        return P_ROYALTIES
    if m == 6 and memcmp(k, b'"foul"', 6) == 0:
        return P_FOUL
    if m == 13 and memcmp(k, b'"fantasyland"', 13) == 0:
        return P_FANTASYLAND
    if m == 17 and memcmp(k, b'"recorded_points"', 17) == 0:
        return P_RECORDED
    if m == 13 and memcmp(k, b'"substitutes"', 13) == 0:
        return P_SUBS
    return 0


cdef inline void _w_result(Buf *b, Rec *J, Py_ssize_t r, int key) noexcept nogil:
    """Our value of result ``key`` for row ``r``."""
    if key == P_POINTS:
        _int(b, _at(&J.pts, r))
    elif key == P_ROYALTIES:
        _int(b, _at(&J.roy, r))
    elif key == P_FANTASYLAND:
        _int(b, _at(&J.fan, r))
    elif key == P_FOUL:
        if J.foul[r]:             # a literal each: strlen of a conditional is a call
            _puts(b, "true")
        else:
            _puts(b, "false")
    else:
        _int(b, _at(&J.recorded, r))


cdef int _w_player(W *w, Rec *J, Py_ssize_t r) noexcept nogil:
    """A player object with our results: each set where its key is, the
    missing ones appended in the schema's order."""
    cdef Py_ssize_t keys[2 * MAX_KEYS]
    cdef int nkeys = 0, more, key, seen = 0, j
    cdef int order[5]
    cdef bint differ = _differs(J, r)
    if w.i >= w.n or w.s[w.i] != 123:
        return -1
    w.i += 1
    _ws(w)
    if w.i < w.n and w.s[w.i] == 125:
        w.i += 1
    else:
        while True:
            if _w_key(w, keys, &nkeys) < 0:
                return -1
            key = _result_key(w.s + keys[2 * nkeys - 2], keys[2 * nkeys - 1])
            if key == P_SUBS:       # substitutes given: the reference replaces or drops them
                return -1
            seen |= key
            if key and (key != P_RECORDED or differ):
                if _w_replace(w) < 0:
                    return -1
                _w_result(w.b, J, r, key)
            elif _w_value(w) < 0:
                return -1
            more = _w_more(w, 125)
            if more < 0:
                return -1
            if more == 0:
                break
    _flush(w, w.i - 1)              # all but the closing brace
    order[0] = P_POINTS
    order[1] = P_ROYALTIES
    order[2] = P_FOUL
    order[3] = P_FANTASYLAND
    order[4] = P_RECORDED
    for j in range(5):
        key = order[j]
        if seen & key or (key == P_RECORDED and not differ):
            continue
        if nkeys:
            _putc(w.b, 44)
        nkeys += 1
        if key == P_POINTS:
            _puts(w.b, '"points":')
        elif key == P_ROYALTIES:
            _puts(w.b, '"royalties":')
        elif key == P_FOUL:
            _puts(w.b, '"foul":')
        elif key == P_FANTASYLAND:
            _puts(w.b, '"fantasyland":')
        else:
            _puts(w.b, '"recorded_points":')
        _w_result(w.b, J, r, key)
    if J.sub_ix != NULL and J.sub_ix[r] > 0:       # a player with a joker
        if nkeys:
            _putc(w.b, 44)
        _puts(w.b, '"substitutes":')
        _json_value(w.b, &J.subs, J.sub_ix[r])
    w.mark = w.i - 1
    return 0


cdef int _w_record(W *w, Rec *J, Py_ssize_t lo, Py_ssize_t hi, int64_t v) noexcept nogil:
    """One source line, results added (see above); -1: left to the reference."""
    cdef Py_ssize_t keys[2 * MAX_KEYS]
    cdef Py_ssize_t r = lo, end
    cdef int nkeys = 0, more, el
    cdef bint variant = False, options = False
    cdef const uint8_t *k
    cdef Py_ssize_t m, at
    w.depth = 1
    w.mark = 0
    w.skipping = False
    _ws(w)
    if w.i >= w.n or w.s[w.i] != 123:
        return -1
    w.i += 1
    _ws(w)
    while True:
        if _w_key(w, keys, &nkeys) < 0:
            return -1
        k = w.s + keys[2 * nkeys - 2]
        m = keys[2 * nkeys - 1]
        if m == 9 and memcmp(k, b'"players"', 9) == 0 and J.pts.p != NULL:
            if w.i >= w.n or w.s[w.i] != 91:
                return -1
            w.i += 1
            _ws(w)
            while True:
                if r >= hi or _w_player(w, J, r) < 0:
                    return -1
                r += 1
                el = _w_more(w, 93)
                if el < 0:
                    return -1
                if el == 0:
                    break
        elif m == 9 and memcmp(k, b'"variant"', 9) == 0:
            variant = True
            if _w_replace(w) < 0:
                return -1
            _json_value(w.b, &J.vnames, v)
        elif m == 9 and memcmp(k, b'"options"', 9) == 0:
            # the rules' options, byte for byte as orjson writes them (the
            # reference keeps or sets the same dict): copied; else left to it
            at = w.i
            if _w_value(w) < 0 or not _present(&J.vopts, v) or \
                    J.vopts.kind[v] != K_LITERAL or \
                    w.i - at != J.vopts.off[v + 1] - J.vopts.off[v] or \
                    not _same(w.s + at, J.vopts.data + J.vopts.off[v], w.i - at):
                return -1
            options = True
        elif _w_value(w) < 0:
            return -1
        more = _w_more(w, 125)
        if more < 0:
            return -1
        if more == 0:
            break
    if J.pts.p != NULL and r != hi:
        return -1
    end = w.i
    while w.i < w.n and _SPACE[w.s[w.i]]:
        w.i += 1
    if w.i != w.n:
        return -1
    _flush(w, end - 1)              # all but the closing brace
    if not variant:
        _puts(w.b, ',"variant":')
        _json_value(w.b, &J.vnames, v)
    if _present(&J.vopts, v) and not options:
        _puts(w.b, ',"options":')
        _json_value(w.b, &J.vopts, v)
    _puts(w.b, "}\n")
    return 0


# ------------------------------------------------------------------ splicing
# A line the JSON Lines scanner found as orjson writes it (``canon``: no white
# space, no escapes, floats, -0, other keys or options) is not walked: the
# scanner kept where its variant value, each player's points value and
# closing brace, and its own closing brace are (a splice row, ``SPLICE`` in
# _scan.pxd), and the line is copied between them with our values put in.
cdef enum:
    SPLICE_ROW = 16         # SPLICE of _scan.pxd (checked where a row is given)
    E_VARIANT = 0           # replace the variant's value
    E_POINTS = 1            # replace a player's points value
    E_PLAYER = 2            # a player's closing brace: the other results before it
    E_CLOSE = 3             # the record's closing brace: variant, options, end


cdef int _w_splice(Buf *b, const uint8_t *s, const int32_t *sp, Rec *J, Py_ssize_t lo,
                   Py_ssize_t hi, int64_t v) noexcept nogil:
    """A line as orjson writes it with our results put in (as the walker
    would: the same bytes), room made; -1 if its players are not the hand's
    rows (left to the walker)."""
    cdef int32_t at[3 + 2 * MAX_ROWS_P]
    cdef int32_t end[3 + 2 * MAX_ROWS_P]
    cdef int kind[3 + 2 * MAX_ROWS_P]
    cdef int who[3 + 2 * MAX_ROWS_P]
    cdef int m = 0, p, j, k
    cdef int P = <int>(hi - lo)
    cdef int32_t mark = 0
    cdef uint8_t *q = b.p + b.n
    if sp[2] >= 0:
        at[m], end[m], kind[m], who[m] = sp[2], sp[3], E_VARIANT, 0
        m += 1
    if J.pts.p != NULL:
        if P > MAX_ROWS_P or (P < MAX_ROWS_P and sp[6 + 3 * P] >= 0):
            return -1
        for p in range(P):
            if sp[6 + 3 * p] < 0:
                return -1
            if sp[4 + 3 * p] >= 0:
                at[m], end[m], kind[m], who[m] = sp[4 + 3 * p], sp[5 + 3 * p], E_POINTS, p
                m += 1
            at[m], end[m], kind[m], who[m] = sp[6 + 3 * p], sp[6 + 3 * p], E_PLAYER, p
            m += 1
    at[m], end[m], kind[m], who[m] = sp[1], sp[1], E_CLOSE, 0
    m += 1
    for j in range(1, m):           # in line order (a few edits: insertion)
        k = j
        while k > 0 and at[k - 1] > at[k]:
            at[k], at[k - 1] = at[k - 1], at[k]
            end[k], end[k - 1] = end[k - 1], end[k]
            kind[k], kind[k - 1] = kind[k - 1], kind[k]
            who[k], who[k - 1] = who[k - 1], who[k]
            k -= 1
    for j in range(m):
        q = _q_put(q, s + mark, at[j] - mark)
        if kind[j] == E_VARIANT:
            q = _q_json_value(q, &J.vnames, v)
            mark = end[j]
        elif kind[j] == E_POINTS:
            q = _q_int(q, _at(&J.pts, lo + who[j]))
            mark = end[j]
        elif kind[j] == E_PLAYER:
            if sp[4 + 3 * who[j]] < 0:
                q[0] = 44
                q = _q_results(q + 1, J, lo + who[j])
            else:
                q = _q_results_after_points(q, J, lo + who[j])
            mark = at[j]
        else:
            if sp[2] < 0:
                q = _q_puts(q, ',"variant":')
                q = _q_json_value(q, &J.vnames, v)
            if _present(&J.vopts, v):
                q = _q_puts(q, ',"options":')
                q = _q_json_value(q, &J.vopts, v)
            q = _q_puts(q, "}\n")
    b.n = q - b.p
    return 0


def jsonl_lines(list blocks, where, hand_start, hand_var, vnames, vopts, recorded, has,
                results=None, WriteBuffer out=None, splice=None):
    """The source lines of H hands with our results added, as the reference
    writer (``orjson.dumps`` of each line's dict, results set) writes them.

    Parameters
    ----------
    blocks : list of bytes
        The blocks holding the lines.
    where : numpy.ndarray
        ``(H, 3)`` int64: block, start and end of each hand's line (block
        < 0: not a line; the hand is left to the reference).
    hand_start, hand_var, vnames, vopts :
        As for :func:`jsonl_records`.
    recorded, has, results :
        The recorded points, whether recorded, and our results (None: not
        scored: the lines with the rules applied, players as they are).
    out : WriteBuffer, optional
        Write here (returned) instead of into new bytes.
    splice : numpy.ndarray, optional
        ``(H, 16)`` int32: the JSON Lines scanner's splice rows
        (:class:`ofc_fast.records.chunk.SourceRecords`): a line marked as
        orjson writes it is copied around our values instead of walked.

    Returns
    -------
    tuple
        ``(data, ends (H,) int64, left (K,) int64)``: the lines
        written (each ending in ``\\n``), where each hand's ends in ``data``,
        and the hands left to the reference (nothing written for them).
    """
    cdef list keep = []
    cdef Py_ssize_t nb = len(blocks), H = len(hand_start) - 1, h, lo, hi
    cdef const uint8_t **bp = <const uint8_t **>malloc(sizeof(uint8_t *) * (nb + 1))
    cdef Py_ssize_t *bn = <Py_ssize_t *>malloc(sizeof(Py_ssize_t) * (nb + 1))
    cdef Rec J
    cdef Rows R
    cdef _Scratch scratch = _Scratch()
    cdef Buf *b = _start(out, scratch)
    cdef W w
    cdef Py_ssize_t at, k = 0
    cdef int st
    cdef int64_t v
    cdef const int64_t[:, ::1] wh
    cdef const int32_t[:, ::1] spl
    cdef const int32_t *sp = NULL
    ends = np.zeros(H, np.int64)
    left = np.zeros(H, np.int64)
    cdef int64_t[::1] e = ends, lf = left
    if bp == NULL or bn == NULL:
        free(bp)
        free(bn)
        raise MemoryError()
    try:
        for h in range(nb):
            bp[h] = <const uint8_t *><char *><bytes>blocks[h]
            bn[h] = len(<bytes>blocks[h])
        wh = np.ascontiguousarray(where, np.int64).reshape(-1, 3)
        if splice is not None and H:
            spl = np.ascontiguousarray(splice, np.int32).reshape(H, SPLICE_ROW)
            sp = &spl[0, 0]
        R = _rows(hand_start, hand_var, None, None, None, keep)
        J = _rec(None, None, None, None, vnames, vopts, None, recorded, has, results, keep)
        w.b = b
        with nogil:
            for h in range(H):
                at = b.n
                lo, hi = R.hand_start[h], R.hand_start[h + 1]
                v = _var(&R, h)
                st = -1
                if 0 <= wh[h, 0] < nb and 0 <= wh[h, 1] <= wh[h, 2] <= bn[wh[h, 0]]:
                    w.s = bp[wh[h, 0]] + wh[h, 1]
                    w.i = 0
                    w.n = wh[h, 2] - wh[h, 1]
                    if _room(b, w.n + 64 + _json_len(&J.vnames, v) + _json_len(&J.vopts, v) +
                             (hi - lo) * RESULT_BYTES) < 0:
                        break
                    if sp != NULL and sp[h * SPLICE_ROW] == 1:
                        st = _w_splice(b, w.s, sp + h * SPLICE_ROW, &J, lo, hi, v)
                        if st < 0:
                            b.n = at
                    if st < 0:
                        st = _w_record(&w, &J, lo, hi, v)
                if st < 0:
                    b.n = at
                    lf[k] = h
                    k += 1
                e[h] = b.n
        return _result(out, b), ends, left[:k].copy()
    finally:
        free(bp)
        free(bn)
