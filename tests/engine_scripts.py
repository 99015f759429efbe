"""Scripted seats and decks shared by the engine's tests (test_engine.py,
test_match.py, test_engine_boundaries.py)."""
import ofc_fast as ofc
from ofc_fast.engine import DISCARD, Game, Move
from ofc_fast.rules import VARIANTS

EMPTY = 255
ALL_VARIANTS = list(VARIANTS)


class Script:
    """Places cards by a fixed card -> row map; unmapped cards are discarded."""

    def __init__(self, variant, **rows):
        v = ofc.variant(variant) if isinstance(variant, str) else variant
        self.rows = {}
        for name, cards in rows.items():
            r = v.row_names.index(name)
            for c in ofc.parse_cards(cards).tolist():
                self.rows[c] = r

    def choose(self, view, moves):
        return Move(moves.cards, tuple(self.rows.get(c, DISCARD) for c in moves.cards))


def build_deck(variant, players, button=0, fantasyland=None, **cards_by_seat):
    """A deck dealing the given cards (text, deal order) to the named seats
    (``seat0="..."``); other cards fill the rest."""
    probe = Game(variant, players, button=button, fantasyland=fantasyland,
                 deck=list(range(52)), auto=False)
    want = {int(k[4:]): list(ofc.parse_cards(v).tolist()) for k, v in cards_by_seat.items()}
    used = {c for cs in want.values() for c in cs}
    assert len(used) == sum(len(cs) for cs in want.values()), "a card is given twice"
    spare = [c for c in range(52) if c not in used]
    deck = []
    for seat, _street, dealt, _kept in probe.schedule:
        for _ in range(dealt):
            deck.append(want[seat].pop(0) if want.get(seat) else spare.pop(0))
    return deck + spare


def all_cards(game):
    cards = []
    for p in range(game.n_players):
        cards += [c for c in game.layout(p).tolist() if c != EMPTY]
        cards += game.discards(p).tolist()
    return cards
