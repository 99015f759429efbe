"""Random wrong-typed and misspelled keyword arguments through every public
function of ``ofc_fast.io`` (issue 18, items 5 and 10): each call ends in
an ``OFCError`` or a ``TypeError`` that names the argument, never an
``AttributeError``, ``KeyError``, ``OverflowError``, a numpy or pyarrow
error, or a record error quoting one (a wrong ``rules`` used to reach every
hand as ``'int' object has no attribute 'resolve_id'``), and never a hang.

``pytest -m fuzz`` runs the long twin."""
from __future__ import annotations

import itertools
import json
import signal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ofc_fast.io as fio
from fuzz_budget import LONG, QUICK, examples
from ofc_fast.errors import OFCError

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")

QQ = dict(top="Qs Qd 2c", middle="9h 9d 9c 5s 5d", bottom="Ah Ac Ad 4c 4d")
KK = dict(top="Ks Kd 3c", middle="2h 3h 4h 5h 6d", bottom="Tc Td Ts Th 8d")
FRAME = pd.DataFrame([dict(hand_id=h, n_players=2, seat=s, **lay)
                      for h in ("h1", "h2") for s, lay in enumerate((QQ, KK))])

WRONG = [None, True, 0, -1, 2**70, 0.5, float("nan"), "", "x", "jsonl", b"x", [], [1], {},
         {"a": 1}, object(), np.int64(3), np.array([1, 2]), print]
# what an internal error looks like when quoted in one of ours
LEAKS = ("has no attribute", "object is not", "truth value of an array", "too large to convert",
         "unhashable", "not subscriptable", "ssize_t")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("args")
    src = d / "in.jsonl"
    src.write_text("".join(json.dumps({"id": i, "players": [QQ, KK]}) + "\n" for i in range(3)))
    return src, d / "out.csv"


def _calls(src, out):
    """name -> (call taking keyword arguments, the keyword arguments it takes)."""
    chunk = next(fio.read_chunks(src))
    hands = list(itertools.islice(fio.read_hands(src), 2))
    table = pa.Table.from_pandas(FRAME, preserve_index=False)
    return {
        "detect_format": (lambda **k: fio.detect_format(src, **k), ["format", "output"]),
        "read_chunks": (lambda **k: list(fio.read_chunks(src, **k)),
                        ["format", "rules", "chunk_size", "skip_bad", "source", "n_threads"]),
        "read_hands": (lambda **k: list(fio.read_hands(src, **k)),
                       ["format", "rules", "chunk_size", "skip_bad"]),
        "open_writer": (lambda **k: fio.open_writer(out, **k).close(),
                        ["format", "results_only", "compression", "width"]),
        "write_hands": (lambda **k: fio.write_hands(hands, out, **k), ["format", "rules", "score"]),
        "score_file": (lambda **k: fio.score_file(src, **k),
                       ["output", "format", "output_format", "rules", "skip_bad", "verify",
                        "chunk_size", "summary", "n_threads", "results_only", "closed_pipe"]),
        "score_frame": (lambda **k: fio.score_frame(FRAME, **k),
                        ["variant", "options", "override", "verify", "skip_bad"]),
        "chunk_from_arrow": (lambda **k: fio.chunk_from_arrow(table, **k),
                             ["source", "rules", "row_offset", "final", "skip_bad"]),
        "chunk_table": (lambda **k: fio.chunk_table(chunk, **k), ["width", "results_only"]),
        "check_distinct": (lambda **k: fio.check_distinct(**{"inputs": [src], "outputs": [out],
                                                               **k}),
                           ["inputs", "outputs"]),
    }


def _timeout(*_):
    raise TimeoutError("the call hangs")


def check_call(call, kwargs, out):
    old = signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(30)
    try:
        call(**kwargs)
    except (OFCError, TypeError) as e:
        text = str(e)
        assert not any(leak in text for leak in LEAKS), (kwargs, text)
        assert type(e).__module__.startswith("ofc_fast") or isinstance(e, TypeError), kwargs
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        out.unlink(missing_ok=True)


@pytest.mark.parametrize("name", ["detect_format", "read_chunks", "read_hands", "open_writer",
                                  "write_hands", "score_file", "score_frame", "chunk_from_arrow",
                                  "chunk_table", "check_distinct"])
def test_every_wrong_value_of_every_keyword(files, name):
    src, out = files
    call, params = _calls(src, out)[name]
    for param, value in itertools.product(params, WRONG):
        check_call(call, {param: value}, out)


def test_the_wrong_values_that_were_leaks(files):
    """0.2 (and this branch's start): an AttributeError quoted in every
    hand's record error, OverflowError, numpy's truth-value error."""
    src, out = files
    with pytest.raises(TypeError, match="rules must be a Rules"):
        fio.read_chunks(src, rules=5)
    with pytest.raises(OFCError, match="chunk_size must be 1 .. 2,147,483,647, got"):
        fio.read_chunks(src, chunk_size=2**70)
    with pytest.raises(TypeError, match="output must be True or False"):
        fio.detect_format(src, output=np.array([1, 2]))
    with pytest.raises(TypeError, match="options must be a mapping of rule options or None, "
                                        "got 'x'"):
        fio.score_frame(FRAME, options="x")
    with pytest.raises(TypeError, match="rules must be a Rules"):
        fio.chunk_from_arrow(pa.Table.from_pandas(FRAME), rules=None)
    with pytest.raises(OFCError, match="width must be 13 .. 18, got"):
        fio.chunk_table(next(fio.read_chunks(src)), width=2**70)


NAMES = ["detect_format", "read_chunks", "read_hands", "open_writer", "write_hands",
         "score_file", "score_frame", "chunk_from_arrow", "chunk_table"]


@st.composite
def wrong_calls(draw):
    name = draw(st.sampled_from(NAMES))
    key = draw(st.sampled_from(["format", "rules", "chunk_size", "skip_bad", "source", "score",
                                "variant", "options", "width", "final", "row_offset", "verify",
                                "results_only", "output", "summary"])
               | st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12))
    value = draw(st.sampled_from(WRONG) | st.integers() | st.floats() | st.text(max_size=5))
    return name, {key: value}


@settings(QUICK, max_examples=examples(60))
@given(wrong_calls())
def test_random_keywords_are_refused_by_name(files, case):
    src, out = files
    name, kwargs = case
    check_call(_calls(src, out)[name][0], kwargs, out)


@pytest.mark.fuzz
@settings(LONG, max_examples=1500)
@given(wrong_calls())
def test_random_keywords_are_refused_by_name_long(files, case):
    src, out = files
    name, kwargs = case
    check_call(_calls(src, out)[name][0], kwargs, out)
