# Included in _write.pyx: a chunk's player-hands as CSV rows and as JSON Lines
# records, from its columns.

# ------------------------------------------------------------------ integer columns
cdef struct Ints:
    const void *p          # NULL: none
    int size               # bytes a value: 1, 2, 4 or 8
    bint is_signed


cdef Ints _ints(object a, list keep) except *:
    """A C view of an integer (or bool) array as it is: no copy, no widening."""
    cdef Ints out
    cdef const uint8_t[::1] v
    out.p = NULL
    out.size = 8
    out.is_signed = True
    if a is None:
        return out
    a = np.ascontiguousarray(a).reshape(-1)
    if a.dtype == np.bool_:
        a = a.view(np.uint8)
    if a.dtype.kind not in "iu" or a.dtype.itemsize not in (1, 2, 4, 8):
        a = a.astype(np.int64)
    keep.append(a)
    out.size = a.dtype.itemsize
    out.is_signed = a.dtype.kind == "i"
    if a.size == 0:
        out.p = _ZERO_I64
        return out
    v = a.view(np.uint8)
    out.p = &v[0]
    return out


cdef inline int64_t _at(Ints *x, Py_ssize_t r) noexcept nogil:
    if x.size == 1:
        if x.is_signed:
            return (<const int8_t *>x.p)[r]
        return (<const uint8_t *>x.p)[r]
    if x.size == 2:
        if x.is_signed:
            return (<const int16_t *>x.p)[r]
        return (<const uint16_t *>x.p)[r]
    if x.size == 4:
        if x.is_signed:
            return (<const int32_t *>x.p)[r]
        return (<const uint32_t *>x.p)[r]
    return (<const int64_t *>x.p)[r]


# ------------------------------------------------------------------ hands of a chunk
cdef struct Rows:
    Py_ssize_t H
    const int64_t *hand_start   # (H + 1,)
    const int64_t *hand_var     # (H,) the variant entry of each hand (NULL: all 0)
    const uint8_t *cards        # (N, width)
    Py_ssize_t width
    const int64_t *spec         # (V, SPEC)
    const int64_t *doff         # (N + 1,) or NULL
    const uint8_t *dids
    Py_ssize_t most_discards


cdef Rows _rows(object hand_start, object hand_var, object cards, object spec, object discards,
                list keep) except *:
    cdef Rows R
    R.H = len(hand_start) - 1
    R.hand_start = _i64(hand_start, keep)
    R.hand_var = _i64(hand_var, keep)
    R.width = 0 if cards is None else cards.shape[1]
    R.cards = _u8(cards, keep)
    R.spec = _i64(spec, keep)
    R.doff = NULL
    R.dids = NULL
    R.most_discards = 0
    if discards is not None:
        off = np.ascontiguousarray(discards[0], np.int64)
        R.doff = _i64(off, keep)
        R.dids = _u8(discards[1], keep)
        if len(off) > 1:
            R.most_discards = int(np.diff(off).max())
    return R


cdef inline int64_t _var(Rows *R, Py_ssize_t h) noexcept nogil:
    return 0 if R.hand_var == NULL else R.hand_var[h]


cdef inline uint8_t *_q_named_row(uint8_t *q, Rows *R, Py_ssize_t h, Py_ssize_t r,
                                  int slot) noexcept nogil:
    cdef const int64_t *sp = R.spec + SPEC * _var(R, h)
    cdef int j
    for j in range(sp[0]):
        if sp[1 + 3 * j] == slot:
            return _q_cards(q, R.cards + r * R.width + sp[2 + 3 * j], sp[3 + 3 * j])
    return q


cdef inline void _discards(Buf *b, Rows *R, Py_ssize_t r) noexcept nogil:
    b.n = _q_discards(b.p + b.n, R, r) - b.p


cdef inline uint8_t *_q_discards(uint8_t *q, Rows *R, Py_ssize_t r) noexcept nogil:
    if R.doff != NULL:
        return _q_cards(q, R.dids + R.doff[r], R.doff[r + 1] - R.doff[r])
    return q


# ------------------------------------------------------------------ CSV rows
cdef struct Col:
    int kind
    Texts t
    const int64_t *ix       # C_TEXT: which value of ``t`` (NULL: the row or hand itself; < 0 empty)
    bint per_hand           # C_TEXT: ``ix`` (or the value) is the hand's, not the row's
    Ints iv                 # C_INT values
    const uint8_t *valid    # C_INT: NULL (all) or 0/1 per row
    int slot                # C_CARDS


cdef int _csv_all(Buf *b, Col *cols, int nc, Rows *R, Py_ssize_t row_bytes) noexcept nogil:
    cdef Py_ssize_t h, r, i, lo, hi
    cdef int k
    cdef Col *c
    cdef uint8_t *q
    for h in range(R.H):
        lo, hi = R.hand_start[h], R.hand_start[h + 1]
        for r in range(lo, hi):
            if _room(b, row_bytes) < 0:
                return -1
            q = b.p + b.n               # the row is written at a local cursor
            for k in range(nc):
                if k:
                    q[0] = 44
                    q += 1
                c = &cols[k]
                if c.kind == C_TEXT:
                    i = h if c.per_hand else r
                    q = _q_csv_value(q, &c.t, i if c.ix == NULL else c.ix[i])
                elif c.kind == C_INT:
                    if c.valid == NULL or c.valid[r]:
                        q = _q_int(q, _at(&c.iv, r))
                elif c.kind == C_SEAT:
                    q = _q_int(q, r - lo)
                elif c.kind == C_PLAYERS:
                    q = _q_int(q, hi - lo)
                elif c.kind == C_CARDS:
                    q = _q_named_row(q, R, h, r, c.slot)
                else:
                    q = _q_discards(q, R, r)
            q[0] = 10
            b.n = q + 1 - b.p
    return 0


def csv_rows(list columns, hand_start, hand_var=None, cards=None, spec=None, discards=None,
             bytes head=b"", WriteBuffer out=None):
    """CSV lines of the N player-hands of H hands, one per row (``\\n`` after each).

    Parameters
    ----------
    columns : list of tuple
        One per field: ``(COL_TEXT, texts, index[, per_hand])`` (which value
        each row, or each hand with ``per_hand``, writes; None: its own),
        ``(COL_INT, values, valid)`` (any integer or bool array; valid
        None: all), ``(COL_SEAT,)``, ``(COL_PLAYERS,)``, ``(COL_CARDS, slot)``,
        ``(COL_DISCARDS,)``.
    hand_start : numpy.ndarray
        ``(H + 1,)`` the first row of each hand, then N.
    hand_var : numpy.ndarray, optional
        ``(H,)`` the variant entry of each hand (None: all the first).
    cards : numpy.ndarray, optional
        ``(N, width)`` uint8 card ids (COL_CARDS).
    spec : numpy.ndarray, optional
        :func:`layout_spec` of the variant entries (COL_CARDS).
    discards : tuple, optional
        ``(offsets (N + 1,), card ids)`` (COL_DISCARDS; None: empty).
    head : bytes
        Written first (a header line).
    out : WriteBuffer, optional
        Write here (returned) instead of into new bytes.

    Returns
    -------
    bytes or WriteBuffer

    Examples
    --------
    >>> csv_rows([(COL_TEXT, csv_texts(["h,1"]), np.array([0]), True), (COL_SEAT,),
    ...           (COL_INT, np.array([3, -3], np.int8), np.array([1, 0], np.uint8))],
    ...          np.array([0, 2]))
    b'"h,1",0,3\\n"h,1",1,\\n'
    """
    cdef list keep = []
    cdef Py_ssize_t row_bytes = 1
    cdef int nc = len(columns), k
    cdef Col *cols = <Col *>malloc(sizeof(Col) * (nc + 1))
    cdef Rows R
    cdef _Scratch scratch = _Scratch()
    cdef Buf *b = _start(out, scratch)
    cdef int st
    if cols == NULL:
        raise MemoryError()
    try:
        R = _rows(hand_start, hand_var, cards, spec, discards, keep)
        for k, c in enumerate(columns):
            cols[k].kind = c[0]
            cols[k].ix = NULL
            cols[k].per_hand = False
            cols[k].iv = _ints(None, keep)
            cols[k].valid = NULL
            cols[k].slot = 0
            cols[k].t = _texts(None, keep)
            if c[0] == C_TEXT:
                cols[k].t = _texts(c[1], keep, 1)
                cols[k].ix = _i64(c[2], keep)
                cols[k].per_hand = len(c) > 3 and c[3]
                row_bytes += 2 * cols[k].t.longest + 3
            elif c[0] == C_INT:
                cols[k].iv = _ints(c[1], keep)
                cols[k].valid = _u8(None if c[2] is None else
                                    np.ascontiguousarray(c[2]).view(np.uint8), keep)
            elif c[0] == C_CARDS:
                cols[k].slot = c[1]
                row_bytes += 3 * R.width + 1
            elif c[0] == C_DISCARDS:
                row_bytes += 3 * R.most_discards + 1
            elif c[0] not in (C_SEAT, C_PLAYERS):
                raise ValueError(f"unknown column kind {c[0]!r}")
            row_bytes += INT_BYTES
        if _room(b, len(head)) < 0:
            raise MemoryError()
        _put(b, <const uint8_t *><char *>head, len(head))
        with nogil:
            st = _csv_all(b, cols, nc, &R, row_bytes)
        return _result(out, b)
    finally:
        free(cols)


# ------------------------------------------------------------------ JSON Lines records
cdef struct Rec:
    Texts ids        # indexed by id_ix
    const int64_t *id_ix     # per hand (NULL: the hand itself)
    Texts names      # indexed by name_ix
    const int64_t *name_ix   # per row (NULL: the row itself)
    Texts vnames     # per variant entry: the name
    Texts vopts      # per variant entry: the options as JSON (null: none)
    Ints fl
    Ints recorded
    const uint8_t *has
    Ints pts         # p NULL: not scored
    Ints roy
    const uint8_t *foul
    Ints fan
    Texts subs       # indexed by sub_ix: what the jokers stand for (card text)
    const int64_t *sub_ix    # per row, 0: no joker (NULL: no row has one)


cdef const char *_ROW_KEY[5]
_ROW_KEY[0] = b'"top":"'
_ROW_KEY[1] = b'"middle":"'
_ROW_KEY[2] = b'"bottom":"'
_ROW_KEY[3] = b'"third":"'
_ROW_KEY[4] = b'"second":"'
cdef Py_ssize_t _ROW_KEY_LEN[5]     # their lengths (a runtime strlen per row otherwise)
for _k in range(5):
    _ROW_KEY_LEN[_k] = strlen(_ROW_KEY[_k])

cdef enum:
    # the results of a player, keys and all (substitutes: at most 5 characters)
    RESULT_BYTES = 128 + 5 * INT_BYTES


cdef inline bint _differs(Rec *J, Py_ssize_t r) noexcept nogil:
    """The recorded points of row ``r`` are not ours."""
    return J.has[r] and _at(&J.recorded, r) != _at(&J.pts, r)


cdef inline void _results(Buf *b, Rec *J, Py_ssize_t r) noexcept nogil:
    """``"points":..,"royalties":..,"foul":..,"fantasyland":..`` and
    ``,"recorded_points":..`` where the recorded points differ (the schema's
    order)."""
    b.n = _q_results(b.p + b.n, J, r) - b.p


cdef inline uint8_t *_q_results(uint8_t *q, Rec *J, Py_ssize_t r) noexcept nogil:
    q = _q_puts(q, '"points":')
    q = _q_int(q, _at(&J.pts, r))
    return _q_results_after_points(q, J, r)


cdef inline void _results_after_points(Buf *b, Rec *J, Py_ssize_t r) noexcept nogil:
    """:func:`_results` after the points: ``,"royalties":..`` and on."""
    b.n = _q_results_after_points(b.p + b.n, J, r) - b.p


cdef inline uint8_t *_q_results_after_points(uint8_t *q, Rec *J, Py_ssize_t r) noexcept nogil:
    q = _q_puts(q, ',"royalties":')
    q = _q_int(q, _at(&J.roy, r))
    # each branch a literal (strlen of a conditional is not folded: a call per row)
    if J.foul[r]:
        q = _q_puts(q, ',"foul":true')
    else:
        q = _q_puts(q, ',"foul":false')
    q = _q_puts(q, ',"fantasyland":')
    q = _q_int(q, _at(&J.fan, r))
    if _differs(J, r):
        q = _q_puts(q, ',"recorded_points":')
        q = _q_int(q, _at(&J.recorded, r))
    if J.sub_ix != NULL and J.sub_ix[r] > 0:       # a player with a joker
        q = _q_puts(q, ',"substitutes":')
        q = _q_json_value(q, &J.subs, J.sub_ix[r])
    return q


cdef inline uint8_t *_q_json_player(uint8_t *q, Rec *J, Rows *R, Py_ssize_t h,
                                    Py_ssize_t r) noexcept nogil:
    """One player as ``hand_dict`` writes it, with our results if scored."""
    cdef const int64_t *sp = R.spec + SPEC * _var(R, h)
    cdef int j
    cdef int64_t ni = r if J.name_ix == NULL else J.name_ix[r]
    cdef int64_t fl = _at(&J.fl, r)
    q[0] = 123
    q += 1
    if _present(&J.names, ni):
        q = _q_puts(q, '"name":')
        q = _q_json_value(q, &J.names, ni)
        q[0] = 44
        q += 1
    for j in range(sp[0]):
        if j:
            q[0] = 44
            q += 1
        q = _q_put(q, <const uint8_t *> _ROW_KEY[sp[1 + 3 * j]], _ROW_KEY_LEN[sp[1 + 3 * j]])
        q = _q_cards(q, R.cards + r * R.width + sp[2 + 3 * j], sp[3 + 3 * j])
        q[0] = 34
        q += 1
    if fl:
        q = _q_puts(q, ',"in_fantasyland":')
        q = _q_int(q, fl)
    if R.doff != NULL and R.doff[r + 1] > R.doff[r]:
        q = _q_puts(q, ',"discards":"')
        q = _q_discards(q, R, r)
        q[0] = 34
        q += 1
    if J.pts.p != NULL:
        q[0] = 44
        q = _q_results(q + 1, J, r)
    elif J.has[r]:
        q = _q_puts(q, ',"points":')
        q = _q_int(q, _at(&J.recorded, r))
    q[0] = 125
    return q + 1


cdef int _json_all(Buf *b, Rec *J, Rows *R, bint results_only,
                   Py_ssize_t player_bytes) noexcept nogil:
    cdef Py_ssize_t h, r, lo, hi
    cdef int64_t v, i
    cdef uint8_t *q
    for h in range(R.H):
        v = _var(R, h)
        i = h if J.id_ix == NULL else J.id_ix[h]
        lo, hi = R.hand_start[h], R.hand_start[h + 1]
        if _room(b, 96 + _json_len(&J.ids, i) + _json_len(&J.vnames, v) +
                 _json_len(&J.vopts, v) + (hi - lo) * player_bytes) < 0:
            return -1
        q = b.p + b.n                   # the hand is written at a local cursor
        if results_only:
            q = _q_puts(q, '{"id":')
        else:
            q = _q_puts(q, '{"format":"ofc-hand/1","id":')
        q = _q_json_value(q, &J.ids, i)
        q = _q_puts(q, ',"variant":')
        q = _q_json_value(q, &J.vnames, v)
        if not results_only and _present(&J.vopts, v):
            q = _q_puts(q, ',"options":')
            q = _q_json_value(q, &J.vopts, v)
        q = _q_puts(q, ',"players":[')
        for r in range(lo, hi):
            if r > lo:
                q[0] = 44
                q += 1
            if results_only:
                q = _q_puts(q, '{"name":')
                q = _q_json_value(q, &J.names, r if J.name_ix == NULL else J.name_ix[r])
                q[0] = 44
                q = _q_results(q + 1, J, r)
                q[0] = 125
                q += 1
            else:
                q = _q_json_player(q, J, R, h, r)
        q = _q_puts(q, ']}\n')
        b.n = q - b.p
    return 0


cdef Rec _rec(object ids, object id_ix, object names, object name_ix, object vnames,
              object vopts, object fl, object recorded, object has, object results,
              list keep) except *:
    cdef Rec J
    J.ids = _texts(ids, keep, 0)
    J.id_ix = _i64(id_ix, keep)
    J.names = _texts(names, keep, 0)
    J.name_ix = _i64(name_ix, keep)
    J.vnames = _texts(vnames, keep, 0)
    J.vopts = _texts(vopts, keep, 0)
    J.fl = _ints(fl, keep)
    J.recorded = _ints(recorded, keep)
    J.has = _u8(None if has is None else np.ascontiguousarray(has).view(np.uint8), keep)
    J.pts = J.roy = J.fan = _ints(None, keep)
    J.foul = NULL
    J.subs = _texts(None, keep)
    J.sub_ix = NULL
    if results is not None:
        J.pts = _ints(results[0], keep)
        J.roy = _ints(results[1], keep)
        J.foul = _u8(np.ascontiguousarray(results[2]).view(np.uint8), keep)
        J.fan = _ints(results[3], keep)
        if len(results) > 4:        # (texts, (N,) index): the jokers' substitutes
            J.subs = _texts(results[4], keep, 0)
            J.sub_ix = _i64(results[5], keep)
    return J


def jsonl_records(ids, id_ix, names, name_ix, vnames, vopts, hand_start, hand_var, cards,
                  spec, discards, fl, recorded, has, results=None, bint results_only=False,
                  WriteBuffer out=None):
    """JSON Lines records of H hands as :func:`ofc_fast.records.hand_dict`
    and orjson write them, our results added to each player when given.

    Parameters
    ----------
    ids, id_ix :
        Texts (JSON) of the hand ids, and ``(H,)`` which is each hand's
        (None: the hand's own).
    names, name_ix :
        Texts (JSON) of the names, and ``(N,)`` which is each row's (< 0:
        none; None: the row's own).
    vnames, vopts :
        Texts (JSON) of each variant entry's name and options (null: none).
    hand_start, hand_var, cards, spec, discards :
        As for :func:`csv_rows`.
    fl, recorded, has : numpy.ndarray
        ``(N,)`` in_fantasyland, recorded points and whether recorded.
    results : tuple, optional
        ``(points, royalties, foul, fantasyland)``, each ``(N,)``, and
        optionally texts (JSON) of the jokers' substitutes and ``(N,)`` which
        is each row's (0: no joker, no ``substitutes`` key).
    results_only : bool
        ``{"id", "variant", "players": [{"name", results}]}`` per hand.
    out : WriteBuffer, optional
        Write here (returned) instead of into new bytes.

    Returns
    -------
    bytes or WriteBuffer
        One line per hand, each ending in ``\\n``.
    """
    cdef list keep = []
    cdef Rows R = _rows(hand_start, hand_var, cards, spec, discards, keep)
    cdef Rec J = _rec(ids, id_ix, names, name_ix, vnames, vopts, fl, recorded, has, results,
                      keep)
    cdef Py_ssize_t player_bytes = 64 + 6 * J.names.longest + 3 * R.width + 16 * MAX_ROWS + \
        3 * R.most_discards + RESULT_BYTES
    cdef _Scratch scratch = _Scratch()
    cdef Buf *b = _start(out, scratch)
    cdef int st
    with nogil:
        st = _json_all(b, &J, &R, results_only, player_bytes)
    return _result(out, b)
