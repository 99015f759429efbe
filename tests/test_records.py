"""The record model's writer (hand_dict), the card helpers that cards owns
(coloured text, 52-bit masks) and the records package's layout."""
from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast.cards import ALL_CARDS, CardError, card_mask, card_masks, format_cards, mask_cards
from ofc_fast.errors import ArgumentError
from ofc_fast.records import HandRecord, hand_dict


@pytest.mark.parametrize("name", ["ofc_fast.records", "ofc_fast.records.model"])
def test_doctests(name):
    res = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert res.attempted and not res.failed


def test_every_module_says_its_job_and_the_package_keeps_its_names():
    import ofc_fast.records as rec
    for mod in ("model", "chunk", "builder", "hand"):
        assert importlib.import_module(f"ofc_fast.records.{mod}").__doc__.strip()
    for name in ("FORMAT", "Rules", "NUMBER_BOUNDS", "parse_row", "PlayerRecord",
                 "HandRecord", "Chunk", "Group", "ChunkBuilder", "format_row", "CARD_TEXT",
                 "CARD_TOKENS", "chunk_from_records", "DEFAULT_RULES", "clip", "hand_dict"):
        assert hasattr(rec, name), name


def _sibling_imports(pkg: str) -> dict[str, set[str]]:
    """Each module of subpackage ``pkg`` and the modules of ``pkg`` it imports
    (at the top or inside a function; ``__init__`` for the package itself)."""
    import pathlib
    import re
    root = pathlib.Path(importlib.import_module(f"ofc_fast.{pkg}").__file__).parent
    mods = {p.stem for p in root.glob("*.py")}
    graph = {}
    for m in mods:
        text = (root / f"{m}.py").read_text(encoding="utf-8")
        deps = set(re.findall(rf"^\s*(?:from|import)\s+ofc_fast\.{pkg}\.(\w+)", text, re.M))
        for paren, plain in re.findall(rf"^\s*from\s+ofc_fast\.{pkg}\s+import\s+"
                                       r"(?:\(([\w\s,]+)\)|([\w ,]+)$)", text, re.M):
            names = paren or plain
            for name in re.findall(r"\w+", re.sub(r"\s+as\s+\w+", "", names)):
                deps.add(name if name in mods else "__init__")
        graph[m] = deps - {m}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, done = [], set()

    def walk(m, path):
        if m in path:
            found.append(path[path.index(m):] + [m])
            return
        if m in done:
            return
        for d in sorted(graph.get(m, ())):
            walk(d, path + [m])
        done.add(m)
    for m in sorted(graph):
        walk(m, [])
    return found


@pytest.mark.parametrize("pkg, order", [
    ("records", ["model", "chunk", "builder", "hand", "__init__"]),
    ("io", ["schema", "_text", "columns", "tables", "arrow_columns", "arrow", "jsonl", "csv",
            "parquet", "formats", "frames", "__init__"]),
])
def test_no_import_circle_inside_a_subpackage(pkg, order):
    graph = _sibling_imports(pkg)
    assert _circles(graph) == []            # every module, also one added later
    assert set(order) <= set(graph)
    for m in order:                         # the layers as they are
        assert graph[m] & set(order) <= set(order[:order.index(m)]), m
    # the circle the 0.2 review found (model -> builder -> chunk -> model) is gone
    if pkg == "records":
        assert "builder" not in graph["model"] and "hand" not in graph["chunk"]


def test_chunk_record_is_deprecated_for_hand_record_from_chunk():
    from ofc_fast.records import HandRecord, chunk_from_records, hand_records
    p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d", "points": 3}
    chunk = chunk_from_records([{"id": "a", "players": [p, q]}, {"id": "b", "players": [q, p]}])
    want = [HandRecord.from_chunk(chunk, h).to_dict() for h in range(2)]
    assert [r.to_dict() for r in hand_records(chunk)] == want
    assert want[1]["id"] == "b" and want[1]["players"][0]["points"] == 3
    with pytest.warns(DeprecationWarning, match=r"Chunk.record\(h\) is deprecated.*"
                                                r"HandRecord.from_chunk\(chunk, h\)"):
        assert chunk.record(1).to_dict() == want[1]
    with pytest.warns(DeprecationWarning, match=r"Chunk.records\(\) is deprecated"):
        assert [r.to_dict() for r in chunk.records()] == want
    with pytest.raises(IndexError, match="hand 2 of a chunk of 2"):
        HandRecord.from_chunk(chunk, 2)


@pytest.mark.parametrize("module", ["ofc_fast.records", "ofc_fast.records.model", "ofc_fast.io"])
def test_the_old_error_name_warns_and_is_record_error(module):
    from ofc_fast.errors import RecordError
    mod = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=r"HandError is deprecated since ofc_fast 0.3; "
                                                r"use ofc_fast.errors.RecordError"):
        assert mod.HandError is RecordError
    assert "HandError" not in mod.__all__
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        getattr(mod, "Nope")  # noqa: B009


def test_the_package_does_not_use_the_old_error_name():
    import pathlib
    root = pathlib.Path(importlib.import_module("ofc_fast").__file__).parent
    users = [str(p.relative_to(root)) for p in root.rglob("*.py")
             if "HandError" in p.read_text(encoding="utf-8")]
    assert sorted(users) == ["io/__init__.py", "records/__init__.py", "records/model.py"]


@pytest.mark.parametrize("variant", ["pineapple", "big-pineapple", "classic"])
def test_hand_dict_writes_what_game_record_writes(variant):
    """Game.record can be one call of hand_dict (complete=True)."""
    from ofc_fast.engine import Game, variant_options
    from ofc_fast.policies import RandomPolicy
    v = ofc.variant(variant)
    g = Game(v, v.max_players, seed=3)
    res = g.run(RandomPolicy(3))
    P = g.n_players
    seats = [(g.button + k) % P for k in range(P)]
    got = hand_dict(v, [g.layout(p).tolist() for p in seats], id=str(g.id),
                    names=[g.names[p] for p in seats],
                    in_fantasyland=[g.fantasyland_count[p] for p in seats],
                    discards=[g.discards(p).tolist() for p in seats],
                    points=[int(res.points[p]) for p in seats], variant_name=v.name,
                    options=variant_options(v), complete=True)
    assert got == g.record()
    assert list(got) == list(g.record()) and \
        [list(p) for p in got["players"]] == [list(p) for p in g.record()["players"]]


def test_hand_dict_compact_form_round_trips():
    rec = {"format": "ofc-hand/1", "id": "h1", "variant": "pineapple",
           "options": {"finnish": True},
           "players": [{"name": "a", "top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d",
                        "bottom": "7h 7d 7c 7s 2d", "discards": "Ah 3d", "points": 6},
                       {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d",
                        "bottom": "Tc Td Ts Th 8d", "in_fantasyland": 2}]}
    assert HandRecord.from_dict(rec).to_dict() == rec
    short = hand_dict("pineapple", [list(range(13))])
    assert short == {"format": "ofc-hand/1", "id": None, "variant": "pineapple",
                     "players": [{"top": "2c 2d 2h", "middle": "2s 3c 3d 3h 3s",
                                  "bottom": "4c 4d 4h 4s 5c"}]}


def test_coloured_text_is_the_four_colour_deck():
    assert format_cards([51, 34, 0, 5], symbols=True) == "A♠ T♥ 2♣ 3♦"
    assert format_cards([51, 34, 0, 5], colour=True) == \
        "As \033[31mTh\033[0m \033[32m2c\033[0m \033[34m3d\033[0m"
    assert format_cards([[51], [0]], colour=True, symbols=True) == ["A♠", "\033[32m2♣\033[0m"]
    assert format_cards([255, 51], symbols=True) == "__ A♠"


def test_masks_take_what_the_rollout_masks_take():
    assert card_mask(None) == 0 and card_mask(5) == 5 and card_mask("As __") == 1 << 51
    assert card_mask(np.array([0, 255, 3], np.uint8)) == 0b1001
    assert card_mask(["As", "Kd"]) == card_mask([51, 45]) == (1 << 51) | (1 << 45)
    assert mask_cards(card_mask("As 2c Kd")).tolist() == [0, 45, 51]
    assert mask_cards(ALL_CARDS).tolist() == list(range(52)) and mask_cards(0).size == 0
    for bad, exc in [(-1, CardError), (1 << 52, CardError), (np.array([60], np.uint8), CardError),
                     (3.5, TypeError), (True, TypeError)]:
        with pytest.raises(exc):
            card_mask(bad)
    for bad, exc in [(2 ** 70, ValueError), (-1, ValueError), ("x", TypeError), (True, TypeError)]:
        with pytest.raises(exc):
            mask_cards(bad)


def test_vectorised_masks():
    rng = np.random.default_rng(1)
    cards = rng.integers(0, 256, (50, 4, 7)).astype(np.uint8)
    got = card_masks(cards)
    assert got.shape == (50, 4) and got.dtype == np.uint64
    for idx in np.ndindex(50, 4):
        assert int(got[idx]) == sum({1 << int(c) for c in cards[idx] if c < 52})
    assert card_masks(cards.astype(np.int64)).tolist() == got.tolist()
    assert card_masks(np.zeros((2, 0), np.uint8)).tolist() == [0, 0]
    with pytest.raises(CardError):
        card_masks([[300]])


def test_plain_length_rows_with_another_card_count_are_not_misread():
    """The builder decodes hands of plain-length rows in one C pass
    (_decode_text); a row that glues four cards into a three-card row's
    length while the next spreads four over five cards' length has the
    hand's card count, but is no plain hand: the grammar reads it and says
    the rows are the wrong size (never a hand with cards moved across rows)."""
    from ofc_fast.records.builder import ChunkBuilder
    other = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    plain = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    odd = {"top": "QsQd2c5d", "middle": "9h  9d  9c  5s", "bottom": "7h 7d 7c 7s 2d"}
    b = ChunkBuilder("h.jsonl", strict=False)
    assert b.add({"players": [plain, other]}, 1) and b.add({"players": [odd, other]}, 2)
    assert b.add({"players": [other, {**plain, "top": "qs,QD 2C"}]}, 3)
    chunk = b.finish()
    assert chunk.n_hands == 2 and [e.reason for e in chunk.errors] == ["wrong row size"]
    assert "top row: 4 cards" in str(chunk.errors[0])
    cards = chunk.groups[0].cards
    assert format_cards(cards[0, 0]) == format_cards(cards[1, 1]) == \
        "Qs Qd 2c 9h 9d 9c 5s 5d 7h 7d 7c 7s 2d"


@pytest.mark.parametrize("hands, error, says", [
    ([[0, 1]], ArgumentError, "one-dimensional"),
    ([0, 0], ArgumentError, "position 0 twice"),
    ([-1], ArgumentError, "0 .. 2, got -1"),        # numpy would take the last hand
    ([3], ArgumentError, "0 .. 2, got 3"),
    ([1.0], TypeError, "integers"),
    ([[0, 1], [2]], ArgumentError, r"^hands must be one array, of rows of one length \(not a "
                                   r"ragged nested sequence\), got \[\[0, 1\], \[2\]\]$"),
])
def test_chunk_take_refuses_positions_that_would_mix_hands(hands, error, says):
    from ofc_fast.records import chunk_from_records
    p = {"top": "Qs Qd 2c", "middle": "9h 9d 9c 5s 5d", "bottom": "7h 7d 7c 7s 2d"}
    q = {"top": "Ks Kd 3c", "middle": "2h 3h 4h 5h 6d", "bottom": "Tc Td Ts Th 8d"}
    chunk = chunk_from_records([{"id": i, "players": [p, q]} for i in range(3)])
    with pytest.raises(error, match=says):
        chunk.take(hands)
    with pytest.raises(error, match=says):      # drop() reads positions the same way
        chunk.drop(hands, [])
    taken = chunk.take(np.array([2, 0], np.uint8))
    assert taken.hand_ids() == [2, 0] and taken.hand_start.tolist() == [0, 2, 4]
