"""The components of spec §1 as the engine holds them: the deck, the fan bag, player
tokens, skills cards, the emperor die and the disrupt table."""

from __future__ import annotations

from collections import Counter

from engine.charioteer import Race
from engine.charioteer.components import (
    DISRUPT_CUBES,
    EMPEROR_FACES,
    SKILLS_CARDS,
    SYMBOLS,
    deck,
    fan_tokens,
)


def test_the_deck_holds_147_cards_of_symbols_and_at_most_one_icon() -> None:
    """§1: 147 cards; a card holds symbols and at most one icon, or a whip alone."""
    cards = deck()
    assert len(cards) == 147
    for card in cards:
        if card.is_whip:
            assert card.symbols == ()
        else:
            assert card.symbols and all(symbol in SYMBOLS for symbol, _ in card.symbols)
            assert all(count in (1, 2) for _, count in card.symbols)


def test_the_fan_bag_holds_the_60_tokens_of_the_spec() -> None:
    """§1: +3 each colour ×3, +5 ×2, wild ×2, learning ×2; white shield 5, whip 5,
    recovery 6, discard-2 4, discard-3 4."""
    bag = Counter(token.label for token in fan_tokens())
    expected: Counter[str] = Counter()
    for colour in ("green", "red", "yellow", "black"):
        expected.update({f"{colour}:+3": 3, f"{colour}:+5": 2})
        expected.update({f"{colour}:wild": 2, f"{colour}:learning": 2})
    expected.update({"shield": 5, "whip": 5, "recovery": 6, "discard2": 4, "discard3": 4})
    assert bag == expected
    assert sum(bag.values()) == 60


def test_every_chariot_starts_with_five_white_player_tokens_and_eight_cards() -> None:
    """§1: five white tokens (+3, +5, whip, shield, recovery); a hand of 8; 3 crowd cards;
    every card of the deck is somewhere."""
    race = Race.new(seats=5, seed=4)
    written = race.position()
    for item in written["chariots"]:
        assert item["tokens"] == ["+3", "+5", "whip", "shield", "recovery"]
        assert len(item["hand"]) == 8
    assert len(written["crowd"]) == 3
    everywhere = written["deck"] + written["crowd"]
    for item in written["chariots"]:
        everywhere += item["hand"]
    assert Counter(everywhere) == Counter(str(card) for card in deck())


def test_skills_cards_emperor_die_and_disrupt_table() -> None:
    """§1: 24 skills cards (every ordering of the colours), six emperor faces, disrupt
    cubes by player count."""
    assert len(set(SKILLS_CARDS)) == 24
    assert [face.value for face in EMPEROR_FACES] == [
        "green",
        "red",
        "yellow",
        "black",
        "all",
        "disrupt",
    ]
    assert DISRUPT_CUBES == {2: 3, 3: 2, 4: 1, 5: 0, 6: 0}
