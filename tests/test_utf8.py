"""The kernels' one UTF-8 check (``ofc_fast/_utf8.pxd``, used by the CSV
scanner and the text writers) against Python's strict decoder, on every
lead byte with every second byte and the edge values of the third and
fourth.  (A wrong answer there is invisible in the files: the line only
goes to the slow path, so the check is tested directly.)"""
from __future__ import annotations

import itertools

from ofc_fast._write import _utf8_lengths

EDGES = (0x7F, 0x80, 0xBF, 0xC0)       # around the continuation range


def python_length(seq: bytes) -> int:
    """Bytes of the one character ``seq`` starts with, as Python decodes
    strictly, or -1."""
    for k in (2, 3, 4):
        try:
            if len(seq[:k].decode("utf-8")) == 1:
                return k
        except UnicodeDecodeError:
            continue
    return -1


def test_every_lead_byte_is_judged_as_python_decodes():
    cases = [bytes((b0, b1, b2, b3)) for b0 in range(0x80, 0x100) for b1 in range(256)
             for b2, b3 in itertools.product(EDGES, repeat=2)]
    got = _utf8_lengths(b"".join(cases))[::4]      # each case starts at a multiple of 4
    want = [python_length(c) for c in cases]
    wrong = [(c.hex(), g, w) for c, g, w in zip(cases, got, want, strict=True) if g != w]
    assert wrong == [], wrong[:10]


def test_a_sequence_cut_by_the_end_is_refused():
    assert _utf8_lengths("€".encode()[:2]) == [-1, -1]
    assert _utf8_lengths("é€".encode()) == [2, -1, 3, -1, -1]
