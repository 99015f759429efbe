"""The record model's writer (hand_dict), the card helpers that cards owns
(coloured text, 52-bit masks) and the records package's layout."""
from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast.cards import ALL_CARDS, CardError, card_mask, card_masks, format_cards, mask_cards
from ofc_fast.records import HandRecord, hand_dict


@pytest.mark.parametrize("name", ["ofc_fast.records", "ofc_fast.records.model"])
def test_doctests(name):
    res = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert res.attempted and not res.failed


def test_every_module_says_its_job_and_the_package_keeps_its_names():
    import ofc_fast.records as rec
    for mod in ("model", "chunk", "builder"):
        assert importlib.import_module(f"ofc_fast.records.{mod}").__doc__.strip()
    for name in ("FORMAT", "HandError", "Rules", "NUMBER_BOUNDS", "parse_row", "PlayerRecord",
                 "HandRecord", "Chunk", "Group", "ChunkBuilder", "format_row", "CARD_TEXT",
                 "CARD_TOKENS", "chunk_from_records", "DEFAULT_RULES", "clip", "hand_dict"):
        assert hasattr(rec, name), name


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
