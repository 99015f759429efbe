"""Card ids and their text form (RULES.md section 1)."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ofc_fast as ofc
from fuzz_budget import LONG, QUICK
from ofc_fast import EMPTY, RANKS, SUITS, CardError, card_id, format_card, format_cards, parse_cards
from reference import RANK_CHARS, SUIT_CHARS

# Every card written out by hand from the rule book: id = 4 * rank + suit.
ALL_TEXT = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def test_constants():
    assert EMPTY == 255
    assert RANKS == RANK_CHARS == "23456789TJQKA"
    assert SUITS == SUIT_CHARS == "cdhs"
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("text, expected", [
    ("2c", 0), ("2d", 1), ("2h", 2), ("2s", 3), ("3c", 4), ("Th", 34), ("Jc", 36),
    ("Qd", 41), ("Kh", 46), ("Ac", 48), ("As", 51),
])
def test_card_ids_from_rule_book(text, expected):
    assert card_id(text) == expected
    assert parse_cards(text).tolist() == [expected]


def test_all_52_ids():
    ids = parse_cards(" ".join(ALL_TEXT))
    assert ids.dtype == np.uint8
    assert ids.tolist() == list(range(52))
    for i, text in enumerate(ALL_TEXT):
        assert card_id(text) == i
        assert format_card(i) == text


def test_format_round_trip_all_52():
    ids = np.arange(52)
    text = format_cards(ids)
    assert text == " ".join(ALL_TEXT)
    assert parse_cards(text).tolist() == ids.tolist()
    # each card alone, and in a shuffled order
    perm = np.random.default_rng(1).permutation(52)
    assert parse_cards(format_cards(perm)).tolist() == perm.tolist()
    for i in range(52):
        assert parse_cards(format_card(i)).tolist() == [i]


def test_format_cards_shapes_and_sep():
    assert format_cards([51, 45, 34]) == "As Kd Th"
    assert format_cards(np.array([51, 45, 34], dtype=np.uint8), sep="") == "AsKdTh"
    assert format_cards([[51, 47, 43], [0, 1, 2]]) == ["As Ks Qs", "2c 2d 2h"]
    assert format_cards(np.array(51)) == "As"
    assert format_card(EMPTY) == "__"
    assert format_cards([51, EMPTY]) == "As __"


@pytest.mark.parametrize("bad", [54, 254, 256, -1])
def test_format_card_rejects_non_cards(bad):
    with pytest.raises(CardError, match=f"card id {bad} is not a card"):
        format_card(bad)


def test_format_card_names_the_jokers():
    assert (format_card(52), format_card(53)) == ("X1", "X2")


@pytest.mark.parametrize("text", [
    "As Kd 7h", "AsKd7h", "as kd 7h", "AS KD 7H", "aS kD 7H", "As,Kd,7h", "As, Kd; 7h",
    "  As\tKd\n7h  ", "A♠ K♦ 7♥", "A♠K♦7♥", "a♠ k♦ 7♥",
])
def test_parse_text_forms(text):
    arr = parse_cards(text)
    assert isinstance(arr, np.ndarray) and arr.dtype == np.uint8 and arr.shape == (3,)
    assert arr.tolist() == [51, 45, 22]


def test_parse_suit_symbols():
    assert parse_cards("2♣ 2♦ 2♥ 2♠").tolist() == [0, 1, 2, 3]
    assert card_id("k♠") == 47
    assert card_id("10♥") == 34


@pytest.mark.parametrize("text, expected", [
    ("10h", [34]), ("10H", [34]), ("Th", [34]), ("th", [34]), ("10h10d", [34, 33]),
    ("10c Td", [32, 33]), ("Jh 10s 9d", [38, 35, 29]),
])
def test_parse_ten(text, expected):
    assert parse_cards(text).tolist() == expected


def test_every_spelling_with_and_without_separators():
    """Each accepted spelling of each card, space-separated, comma-separated and run
    together (the latter needs the character-by-character scanner)."""
    symbols = "♣♦♥♠"
    words, want = [], []
    for rank, rank_char in enumerate(RANK_CHARS):
        rank_spellings = {rank_char, rank_char.lower()} | ({"10"} if rank_char == "T" else set())
        for suit, suit_char in enumerate(SUIT_CHARS):
            for r in sorted(rank_spellings):
                for su in (suit_char, suit_char.upper(), symbols[suit]):
                    words.append(r + su)
                    want.append(4 * rank + suit)
    assert len(words) == (8 + 5 * 2 + 1) * 4 * 3   # digits, letters in two cases, "10"
    for sep in (" ", ",", ", ", "", "\t"):
        assert parse_cards(sep.join(words)).tolist() == want, repr(sep)
    assert parse_cards(words).tolist() == want
    assert [card_id(w) for w in words] == want


def test_parse_empty_slot_and_empty_text():
    assert parse_cards("As __ Kd").tolist() == [51, EMPTY, 45]
    assert parse_cards("As__Kd").tolist() == [51, EMPTY, 45]
    assert parse_cards(["As", "__"]).tolist() == [51, EMPTY]
    empty = parse_cards("")
    assert empty.shape == (0,) and empty.dtype == np.uint8


def test_parse_list_of_card_strings():
    arr = parse_cards(["As", "Kd", "7h"])
    assert arr.dtype == np.uint8 and arr.shape == (3,)
    assert arr.tolist() == [51, 45, 22]
    assert parse_cards(("10h", "2c")).tolist() == [34, 0]


def test_parse_list_of_hand_strings_is_2d():
    arr = parse_cards(["Qs Qd 2c", "Ah Ad Kc"])
    assert arr.dtype == np.uint8 and arr.shape == (2, 3)
    assert arr.tolist() == [[43, 41, 0], [50, 49, 44]]
    arr = parse_cards(["As Ks Qs Js Ts", "7c5d4h3s2c", "2♣ 3♦ 4♥ 5♠ 10c"])
    assert arr.shape == (3, 5)
    assert arr.tolist() == [[51, 47, 43, 39, 35], [20, 13, 10, 7, 0], [0, 5, 10, 15, 32]]


def test_parse_ids():
    arr = parse_cards([51, 0, 255])
    assert arr.dtype == np.uint8 and arr.tolist() == [51, 0, 255]
    for dtype in (np.int8, np.int64, np.uint16, np.uint8):
        arr = parse_cards(np.array([[0, 1], [50, 51]], dtype=dtype))
        assert arr.dtype == np.uint8 and arr.tolist() == [[0, 1], [50, 51]]
    arr = parse_cards([[0, 1, 2], [49, 50, 51]])
    assert arr.dtype == np.uint8 and arr.shape == (2, 3)
    assert arr.tolist() == [[0, 1, 2], [49, 50, 51]]
    assert parse_cards([np.int64(7), np.uint8(9)]).tolist() == [7, 9]


@pytest.mark.parametrize("text, token, position, char", [
    ("As Zz", "Zz", 1, 3),
    ("Zz As", "Zz", 0, 0),
    ("AsKd1c", "1c", 2, 4),
    ("As Kd Qx", "Qx", 2, 6),
    ("As Kd 11h", "11h", 2, 6),
    ("As K", "K", 1, 3),
    ("As 1", "1", 1, 3),
])
def test_parse_error_names_token_and_position(text, token, position, char):
    with pytest.raises(CardError, match=rf"unknown card '{token}' at position {position} "
                                        rf"\(character {char}\) of '{text}'"):
        parse_cards(text)


def test_parse_error_is_value_error():
    with pytest.raises(ValueError, match="unknown card 'Zz'"):
        parse_cards("Zz")


def test_parse_error_in_list_names_item():
    with pytest.raises(CardError, match=r"item 1: unknown card '1c' at position 1 "
                                        r"\(character 3\) of 'Qh 1c'"):
        parse_cards(["As Kd", "Qh 1c"])
    with pytest.raises(CardError, match=r"item 2: unknown card 'Xs' at position 0"):
        parse_cards(["As", "Kd", "Xs"])


def test_parse_ragged_hand_strings():
    with pytest.raises(CardError, match=r"different numbers of cards: \[2, 3\]"):
        parse_cards(["As Kd", "Qh Jc Tc"])


@pytest.mark.parametrize("ids, bad, index", [
    ([0, 54], 54, r"\(1,\)"),
    (np.array([0, 54]), 54, r"\(1,\)"),          # an id array: the first id past the jokers
    ([254, 1], 254, r"\(0,\)"),
    (np.array([[0, 1], [2, -1]]), -1, r"\(1, 1\)"),
    (np.array([[0, 300]], dtype=np.int16), 300, r"\(0, 1\)"),
])
def test_parse_bad_ids(ids, bad, index):
    with pytest.raises(CardError, match=rf"card id {bad} at index {index} is not a card"):
        parse_cards(ids)


def test_card_lists_take_empty_slots_only_when_asked():
    from ofc_fast.cards import parse_card_list
    assert parse_card_list([0, 51, "As"]) == [0, 51, 51]
    assert parse_card_list([0, EMPTY], allow_empty=True) == [0, EMPTY]
    assert parse_card_list([52, "X2"]) == [52, 53]          # the jokers X1, X2
    for bad in ([0, EMPTY], [54], [-1]):
        with pytest.raises(CardError, match="unknown card"):
            parse_card_list(bad)


def test_card_mask_takes_every_mask_of_the_deck():
    from ofc_fast.cards import ALL_CARDS, card_mask, mask_cards
    assert card_mask(ALL_CARDS) == ALL_CARDS == (1 << 52) - 1
    assert card_mask(0) == 0 and card_mask(1 << 51) == 1 << 51
    assert mask_cards(card_mask(ALL_CARDS)).tolist() == list(range(52))
    for bad in (ALL_CARDS + 1, -1):
        with pytest.raises(CardError, match="52-bit mask"):
            card_mask(bad)


def test_card_id_single_card_only():
    assert card_id("As") == 51
    with pytest.raises(CardError, match=r"'As Kd' is not a single card"):
        card_id("As Kd")
    with pytest.raises(CardError, match=r"'' is not a single card"):
        card_id("")
    with pytest.raises(CardError, match=r"unknown card 'Zz' at position 0"):
        card_id("Zz")


@pytest.mark.parametrize("text", ["A\u017f", "\u212as"])
def test_parse_unicode_lookalikes_raise_card_error(text):
    with pytest.raises(CardError, match="unknown card"):
        parse_cards(text)


# ------------------------------------------- the one grammar, against a reference reader
_REF_RANKS = {**{r: i for i, r in enumerate("23456789TJQKA")},
              **{r.lower(): i for i, r in enumerate("23456789TJQKA") if r.isalpha()}}
_REF_SUITS = {**{s: i for i, s in enumerate("cdhs")}, **{s: i for i, s in enumerate("CDHS")},
              **{s: i for i, s in enumerate("♣♦♥♠")}, **{s: i for i, s in enumerate("♧♢♡♤")}}


def reference_parse(text: str):
    """docs/formats.md's card grammar read character by character (written
    apart from ofc_fast.cards, which uses a token table and a regex): the
    ids, or None where the text is not card text."""
    ids, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch in ",;":
            i += 1
            continue
        if text[i:i + 2] in ("__", "--", "??") or text[i:i + 2].lower() == "xx":
            ids.append(255)
            i += 2
            continue
        if ch in "xX" and text[i + 1:i + 2] in ("1", "2", "j", "J"):     # a joker
            ids.append({"1": 52, "2": 53}.get(text[i + 1], "next"))
            i += 2
            if i < n and text[i] in "0123456789":
                nxt = text[i + 1:i + 2]
                if not (nxt in _REF_SUITS or (nxt == "0" and text[i + 2:i + 3] in _REF_SUITS)):
                    i += 1      # a street digit
            continue
        if text.startswith("10", i):
            rank, i = 8, i + 2
        elif ch in _REF_RANKS:
            rank, i = _REF_RANKS[ch], i + 1
        else:
            return None
        if i >= n or text[i] not in _REF_SUITS:
            return None
        ids.append(4 * rank + _REF_SUITS[text[i]])
        i += 1
        if i < n and text[i] == "\ufe0f":
            i += 1
        if i < n and text[i] in "0123456789":
            nxt = text[i + 1:i + 2]
            starts_card = nxt in _REF_SUITS or (nxt == "0" and text[i + 2:i + 3] in _REF_SUITS)
            if not starts_card:
                i += 1          # a street digit
    free = [j for j in (52, 53) if j not in ids]      # each Xj: the lowest joker not named
    for k, c in enumerate(ids):
        if c == "next":
            if not free:
                return None     # a third joker
            ids[k] = free.pop(0)
    return tuple(ids)


_ALPHABET = ("23456789TtJjQqKkAa10cdhsCDHS♣♦♥♠♧♢♡♤\ufe0f _-?xX,;\t\n/|Zz0\u00a0\u2003٣é*"
             "\x0b\x0c\r\x1c\x1f\x00")
card_text = st.one_of(
    st.text(alphabet=_ALPHABET, max_size=40),
    st.lists(st.sampled_from(sorted(ofc.cards.CARD_TOKENS) + ["__", "xx", "10h", "", "Xj", "xJ",
                                                              "X3", "*Qd"]),
             max_size=12).flatmap(lambda toks: st.sampled_from([" ", ",", ";", "\t", "", ", "]).map(
                 lambda sep: sep.join(toks))))


def _grammar_agrees(text):
    from ofc_fast._cards import scan_text
    want = reference_parse(text)
    fast = scan_text(text)      # the C path reads plain ASCII text, or leaves it
    assert fast is None or fast == want, text
    assert fast is not None or want is None or not text.isascii() or 255 in want \
        or len(want) > 64, text
    try:
        got = ofc.parse_card_text(text)
    except ofc.CardError:
        got = None
    assert got == want, text
    ids = None
    try:
        ids = ofc.parse_cards(text).tolist()
    except ofc.CardError:
        pass
    assert ids == (None if want is None else list(want)), text
    if want is not None and len(want) == 5 and max(want) < 52 and len(set(want)) == 5:
        assert ofc.strength5(text) == ofc.strength5(list(want))
    if want is not None and len(want) == 1 and want[0] != 255:
        assert ofc.card_id(text) == want[0]


@pytest.mark.slow
@given(card_text)
@QUICK
def test_card_text_grammar_matches_reference_reader(text):
    _grammar_agrees(text)


@pytest.mark.fuzz
@given(card_text)
@LONG
def test_card_text_grammar_matches_reference_reader_long(text):
    _grammar_agrees(text)


@pytest.mark.parametrize("text, ids", [
    ("Ks1 qd2, 10h;AsKd", (47, 41, 34, 51, 45)),
    ("Ks10h", (47, 34)), ("Ks110h", (47, 34)), ("Ks12c", (47, 0)),
    ("A♠️1K♥️", (51, 46)), ("As\tKd\n7h", (51, 45, 22)), ("Asxx__", (51, 255, 255)),
])
def test_grammar_examples(text, ids):
    assert ofc.parse_card_text(text) == ids == reference_parse(text)


def test_messages_quote_long_text_shortened():
    with pytest.raises(ofc.CardError) as e:
        ofc.parse_cards("As " * 100_000 + "Zz")
    assert len(str(e.value)) < 400 and "Zz" in str(e.value)


def test_the_deck_size_comes_from_the_kernels(monkeypatch):
    """ofc_fast.cards reads the deck from the compiled kernels (src/ofc_cards.h)
    and refuses, at import, kernels built for another deck."""
    import types

    from ofc_fast import _cards
    assert ofc.cards.DECK_SIZE == _cards.DECK == len(ofc.cards.CARD_TEXT) == 52
    assert ofc.cards.MAX_CARD == _cards.MAX_CARD == 51 and _cards.EMPTY == EMPTY
    assert ofc.cards.ALL_CARDS == _cards.ALL_CARDS == (1 << 52) - 1
    ofc.cards._check_kernels()
    for field, value in (("MAX_CARD", 53), ("EMPTY", 254), ("ALL_CARDS", (1 << 54) - 1)):
        stale = types.SimpleNamespace(**{k: getattr(_cards, k) for k in
                                         ("DECK", "MAX_CARD", "EMPTY", "ALL_CARDS")})
        setattr(stale, field, value)
        monkeypatch.setattr(ofc.cards, "_cards", stale)
        with pytest.raises(ImportError, match="rebuild the extensions"):
            ofc.cards._check_kernels()


def test_cards_mask_kernel_matches_python():
    """The one checked card-mask builder (ofc_cards_check): EMPTY skipped, a card
    twice counted once, anything else that is no card refused."""
    from ofc_fast._cards import cards_mask
    rng = np.random.default_rng(4)
    for _ in range(300):
        n = int(rng.integers(0, 20))
        pool = [0, 51, EMPTY] + list(range(52)) * 3 + ([52, 60, 254] if rng.random() < 0.3 else [])
        ids = np.array(rng.choice(pool, n), np.uint8)
        ref = 0
        for c in ids.tolist():
            if c == EMPTY:
                continue
            if c > 51:
                ref = -1
                break
            ref |= 1 << c
        assert cards_mask(ids) == ref, ids.tolist()
    assert cards_mask(np.array([5, 5, 255], np.uint8)) == 1 << 5
    assert cards_mask(np.zeros(0, np.uint8)) == 0
