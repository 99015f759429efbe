"""Jokers in cards, text and rules (RULES.md section 12): ids 52 and 53, the
text X1, X2, Xj (in Python and in the C scanner), a resolved joker shown as
``*Qd``, the joker options of every variant, and the errors for jokers
where they do not belong."""
from __future__ import annotations

import numpy as np
import pytest

import ofc_fast as ofc
from ofc_fast import CardError, LayoutError, RulesError
from ofc_fast._cards import decode_cells, scan_text
from ofc_fast.cards import (
    ID_TEXT,
    JOKER,
    JOKERS,
    format_resolved,
    is_joker,
    number_jokers,
    parse_card_list,
    parse_card_text,
)
from ofc_fast.rules import variant_options


# ------------------------------------------------------------------------ text
@pytest.mark.parametrize("text, ids", [
    ("X1", (52,)), ("x2", (53,)), ("Xj", (52,)), ("Xj As Xj", (52, 51, 53)),
    ("X1 Xj", (52, 53)), ("Xj X1", (53, 52)), ("X2 xJ", (53, 52)), ("XjKs", (52, 47)),
    ("X12c", (52, 0)), ("X13 Ks", (52, 47)), ("As,X2;Xj", (51, 53, 52)),
])
def test_joker_text(text, ids):
    assert parse_card_text(text) == ids
    assert scan_text(text) == ids          # the C grammar reads them the same way


def test_c_scanner_leaves_what_python_refuses():
    for text in ("X3", "Xj Xj Xj", "*Qd", "Xx", "X"):
        assert scan_text(text) is None
    out, ok = np.zeros((3, 3), np.uint8), np.zeros(3, np.uint8)
    data = np.frombuffer(b"Xj Ks XjX1 2c X2Xj Xj Xj", np.uint8)
    assert decode_cells(data, np.array([0, 8, 16, 24], np.int64), 3, out, ok) == 2
    assert ok.tolist() == [1, 1, 0] and out[:2].tolist() == [[52, 47, 53], [52, 0, 53]]


@pytest.mark.parametrize("text, message", [
    ("As X3", r"unknown card 'X3' at position 1 .*a joker is X1, X2 or Xj"),
    ("Xj Xj Xj", r"Xj at position 2 of 'Xj Xj Xj' is a third joker; a hand holds at most 2"),
    ("Qs *Qd", r"'\*Qd' at position 1 .* is a resolved joker .*write the joker itself as X1"),
])
def test_bad_joker_text(text, message):
    with pytest.raises(CardError, match=message):
        parse_card_text(text)


def test_text_out():
    assert [ofc.format_card(c) for c in JOKERS] == ["X1", "X2"] == list(ID_TEXT[52:])
    assert ofc.format_cards([52, 51, 53]) == "X1 As X2"
    assert ofc.format_cards([52, 51], symbols=True, colour=True).startswith("X1 ")
    assert format_resolved(52, 42) == "*Qh" and format_resolved(53) == "X2"
    assert format_resolved(51, 42) == "As"              # a natural shows itself
    with pytest.raises(CardError, match="substitute of X1 must be a natural card"):
        format_resolved(52, 53)
    assert is_joker(52) and is_joker(53) and not is_joker(51) and not is_joker(54)
    assert number_jokers([254, 52]) == (53, 52)
    assert parse_card_list(["X1", 53, "Xj"]) == [52, 53, 52]    # each element alone


def test_xj_is_numbered_across_a_layout():
    v = ofc.variant("pineapple", jokers=2)
    assert ofc.parse_layout("Xj 2c 3c / Xj 5d 6d 7d 8d / 9h Th Jh Qh Kh", v)[[0, 3]].tolist() \
        == [52, 53]
    assert ofc.layout_from_rows(["Xj 2c 3c", "X1 5d 6d 7d 8d", "9h Th Jh Qh Kh"], v)[0] == 53
    with pytest.raises(LayoutError, match="Xj at position 2 .* is a third joker"):
        ofc.parse_layout("Xj Xj Xj / 4d 5d 6d 7d 8d / 9h Th Jh Qh Kh", v)


# --------------------------------------------------------------------- options
def test_joker_options_on_every_variant():
    for name in ofc.VARIANTS:
        for jokers in (0, 1, 2):
            v = ofc.variant(name, jokers=jokers)
            assert v.jokers == jokers and v.deck_size == 52 + jokers
            assert ofc.variant(name, **variant_options(v)) == v
    v = ofc.variant("classic", jokers=2, joker_cards="board", joker_objective="strength",
                    joker_top_natural=True)
    assert variant_options(v) == dict(jokers=2, joker_cards="board", joker_objective="strength",
                                      joker_top_natural=True)
    assert str(v).endswith("2 jokers (board, strength, natural top))")
    assert "joker" not in str(ofc.variant("classic"))
    # an option without jokers is accepted and changes nothing a layout shows
    assert ofc.variant("pineapple", joker_cards="board").jokers == 0


@pytest.mark.parametrize("options, error, message", [
    (dict(jokers=3), RulesError, r"jokers must be 0 \.\. 2, got 3"),
    (dict(jokers=-1), RulesError, r"jokers must be 0 \.\. 2, got -1"),
    (dict(jokers="2"), TypeError, r"jokers"),
    (dict(joker_cards="deck"), RulesError, r"unknown joker_cards 'deck'; valid: row, board"),
    (dict(joker_objective="money"), RulesError,
     r"unknown joker_objective 'money'; valid: fantasyland, royalties, strength"),
    (dict(joker_top_natural="yes"), TypeError, r"joker_top_natural"),
])
def test_bad_joker_options(options, error, message):
    with pytest.raises(error, match=message):
        ofc.variant("pineapple", **options)


def test_the_deck_with_jokers_seats_more_players():
    """Three players dealt 18 cards each need 54: a deck with both jokers."""
    from ofc_fast.rules import Variant
    deal = dict(first_street=5, streets=((2, 1),) * 5 + ((1, 1),) * 3, max_players=3)
    for jokers in (0, 1):
        with pytest.raises(RulesError, match=f"3 players dealt 18 cards each need more than "
                                             f"{52 + jokers} cards"):
            Variant("eighteen", jokers=jokers, **deal)
    assert Variant("eighteen", jokers=2, **deal).deck_size == 54


# ---------------------------------------------------------------------- errors
def test_a_joker_in_a_variant_without_jokers():
    with pytest.raises(LayoutError, match=r"^top row: X1 is a joker; variant pineapple is played "
                                          r"without jokers \(jokers=0\)"):
        ofc.parse_layout("Qs X1 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", "pineapple")
    lay = ofc.parse_layout("Qs X1 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d",
                           ofc.variant("pineapple", jokers=1))
    for call in (lambda: ofc.evaluate(lay, "pineapple"),
                 lambda: ofc.score_matrix([lay, lay], "pineapple"),
                 lambda: ofc.score_tables(np.stack([lay])[None].repeat(2, 1), "pineapple")):
        with pytest.raises(LayoutError, match=r"top row: X1 is a joker \(card 1\); variant "
                                              r"pineapple is played without jokers"):
            call()


def test_a_second_joker_in_a_one_joker_variant():
    v = ofc.variant("classic", jokers=1)
    with pytest.raises(LayoutError, match=r"X2 is a joker; variant classic is played with one "
                                          r"joker \(jokers=1\): X1 only"):
        ofc.parse_layout("Qs X2 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v)
    with pytest.raises(LayoutError, match=r"layouts\[0\], middle row: X2 is a joker \(card 4\)"):
        ofc.evaluate(np.array([[0, 1, 2, 3, 53] + list(range(4, 12))], np.uint8), v)


def test_two_x1_in_one_hand_or_table():
    v = ofc.variant("pineapple", jokers=2)
    with pytest.raises(LayoutError, match=r"layouts\[0\], middle row: X1 appears twice "
                                          r"\(also in the top row\)"):
        ofc.evaluate("Qs X1 2c / 9h X1 9c 5s 5d / 7h 7d 7c 7s 2d", v)
    a = ofc.parse_layout("Qs X1 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v)
    b = ofc.parse_layout("X1 Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d", v)
    with pytest.raises(LayoutError, match="table 0: X1 is held by player 0 and player 1"):
        ofc.score_tables([[a, b]], v)
    b[0] = 53                                # one deck of 54: X1 for one, X2 for the other
    assert ofc.score_tables([[a, b]], v).sum() == 0
    assert ofc.score_matrix([a, a], v).tolist() == [[0, 0], [0, 0]]   # independent deals


def test_hand_strength_takes_natural_cards():
    with pytest.raises(CardError, match=r"X1 is a joker \(card 2\); hand strength takes natural "
                                        r"cards"):
        ofc.row_strength("As Kd X1")
    with pytest.raises(CardError, match="hand 1: X2 is a joker"):
        ofc.strength5(np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, JOKER + 1]]))
