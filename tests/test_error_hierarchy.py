"""Errors inside the hierarchy (issue 18, item 10): every input error the
library raises is an ``OFCError`` (a ``ValueError``) or, for a wrong type, a
``TypeError``.  The source is walked for plain built-in exceptions raised
anywhere else; what remains is listed here with the reason it may stay."""
from __future__ import annotations

import ast
import builtins
import collections
import pathlib
import re

import numpy as np
import pytest

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast.errors import ArgumentError, MoveIndexError, OFCError

PKG = pathlib.Path(ofc.__file__).resolve().parent

# Built-ins a Python module may raise anywhere: a wrong type (TypeError, as
# numpy), a missing optional dependency, the attribute protocol of module
# __getattr__ and read-only aliases, the process's own exits, and the
# operating system's errors of a stream or file.
ALWAYS = {"TypeError", "ImportError", "AttributeError", "SystemExit", "KeyboardInterrupt",
          "OSError", "NotImplementedError"}

# (file, exception) -> how many times, and why it may stay.
PY_ALLOWED = {
    ("records/hand.py", "IndexError"): (1, "HandRecord.from_chunk(chunk, h): an index past the "
                                          "chunk, as a sequence (tests/test_records.py)"),
    ("io/tables.py", "KeyError"): (1, "wide_cards(schema): a schema without c12; the Parquet "
                                      "writer passes only schemas it built with c12"),
    ("sim.py", "MemoryError"): (1, "GameBatch: more games than the machine's memory, said "
                                   "before allocating (numpy and malloc raise it after)"),
}

# The compiled kernels' own checks of what the Python layer already
# validated (private modules: a raise here is a broken invariant, not a
# user's input), per file: how many.  A new plain raise in a kernel that a
# public call can reach belongs in the Python layer (ofc_fast._args).
PYX_ALLOWED = {
    "_search.pyx": 5, "_scan_json.pyx": 1, "_cards.pyx": 3, "_hand.pyx": 3,
    "_scan_csv.pyx": 6, "_fantasy.pyx": 1, "_records.pyx": 9,
    "_batch.pyx": 3,   # two in BatchCore._policy_move, the private hook of the race tests
    "_rollout.pyx": 6, "_write_records.pxi": 1,
    "_solver.pyx": 2,   # solver_choose's settings, seat_position's moves (solver.py checks them)
}
PLAIN = ("ValueError", "RuntimeError", "IndexError", "KeyError", "OverflowError",
         "AssertionError", "Exception")


def _raised(tree: ast.AST) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            e = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(e, ast.Name) and hasattr(builtins, e.id):
                out.append((e.id, node.lineno))
    return out


def test_python_modules_raise_the_library_errors():
    found: collections.Counter[tuple[str, str]] = collections.Counter()
    lines = collections.defaultdict(list)
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        for name, line in _raised(ast.parse(path.read_text(encoding="utf-8"))):
            if name not in ALWAYS:
                found[rel, name] += 1
                lines[rel, name].append(line)
    allowed = {k: n for k, (n, _) in PY_ALLOWED.items()}
    assert dict(found) == allowed, {k: lines[k] for k in found if found[k] != allowed.get(k)}


def test_kernels_raise_plain_errors_only_where_listed():
    pattern = re.compile(rf"^\s*raise ({'|'.join(PLAIN)})\(", re.M)
    found = {}
    for path in sorted([*PKG.glob("*.pyx"), *PKG.glob("*.pxi")]):
        n = len(pattern.findall(path.read_text(encoding="utf-8")))
        if n:
            found[path.name] = n
    assert found == PYX_ALLOWED


V = ofc.variant("pineapple")


@pytest.mark.parametrize("call, exc, text", [
    (lambda: ofc.strength5(np.zeros((2, 4), np.uint8)), ArgumentError,
     r"cards must have shape \(\.\.\., 5\), got \(2, 4\)"),
    (lambda: ofc.strength3(np.zeros(5, np.uint8)), ArgumentError, r"got \(5,\)"),
    (lambda: ofc.row_strength(np.zeros((1, 4), np.uint8)), ArgumentError,
     r"\(\.\.\., 3 or 5\), got \(1, 4\)"),
    (lambda: ofc.strength5(np.arange(10, dtype=np.uint8).reshape(2, 5),
                           out=np.zeros(3, np.uint16)), ArgumentError,
     r"out must have shape \(2,\), got \(3,\)"),
])
def test_kernel_arguments_are_library_errors(call, exc, text):
    with pytest.raises(exc, match=text) as info:
        call()
    assert isinstance(info.value, OFCError) and isinstance(info.value, ValueError)


def test_read_only_and_strided_out():
    hands = np.array([[0, 5, 10, 15, 20], [1, 6, 11, 16, 21]], np.uint8)
    ro = np.zeros(2, np.uint16)
    ro.flags.writeable = False
    with pytest.raises(ArgumentError, match="out is read-only"):
        ofc.strength5(hands, out=ro)
    strided = np.zeros(4, np.uint16)[::2]            # written through a copy, as before
    assert ofc.strength5(hands, out=strided) is strided
    assert strided.tolist() == ofc.strength5(hands).tolist()


def test_move_values_index_is_a_move_index_error():
    mv = ofc.move_values(ofc.Game(V, 2, seed=3), n=20, seed=1)
    with pytest.raises(MoveIndexError, match=f"index {len(mv)} out of range"):
        mv[len(mv)]
    with pytest.raises(IndexError):                   # still the sequence protocol's
        mv[-len(mv) - 1]


def test_unknown_picture_format_is_an_argument_error(tmp_path):
    pytest.importorskip("matplotlib")
    import ofc_fast.io as fio
    from ofc_fast.report import Summary, plot, sample_path, save_figure
    summary = Summary(track=True)
    for chunk in fio.read_chunks(sample_path()):
        summary.add(chunk.score())
    with pytest.raises(ArgumentError, match="unknown picture format 'xyz'"):
        save_figure(plot(summary), tmp_path / "r.xyz")
    assert not (tmp_path / "r.xyz").exists()


# ------------------------------------------------- messages that show the value
@pytest.mark.parametrize("column, value, text", [
    ("seat", 0.5, "seat must be an integer, got 0.5"),
    ("n_players", 2.5, "n_players must be an integer, got 2.5"),
    ("seat", None, "(-1: missing)"),          # a null is missing, and said so
])
def test_a_seat_that_is_no_integer_is_named_not_missing(tmp_path, column, value, text):
    """0.2 reported a Parquet or frame seat of 0.5 as a missing seat (-1)."""
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    QQ = dict(top="Qs Qd 2c", middle="9h 9d 9c 5s 5d", bottom="Ah Ac Ad 4c 4d")
    KK = dict(top="Ks Kd 3c", middle="2h 3h 4h 5h 6d", bottom="Tc Td Ts Th 8d")
    rows = [dict(hand_id=h, n_players=2.0, seat=float(s), **lay)
            for h in ("h1", "h2", "h3") for s, lay in enumerate((QQ, KK))]
    rows[2][column] = value
    df = pd.DataFrame(rows)
    path = tmp_path / "h.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), path)
    run = fio.score_file(path, skip_bad=True)
    assert run.hands == 2
    (err,) = run.skipped
    assert (err.reason, err.hand_id, err.line) == ("bad value", "h2", 3)
    assert text in err.detail
    errors = fio.score_frame(df, skip_bad=True)["error"]
    assert errors.notna().tolist() == [False, False, True, True, False, False]
    assert text in errors[2]
