"""Plausible races behind a seat's view: consistent with the view, built from public
information only."""

from __future__ import annotations

from collections import Counter

from engine.charioteer import view
from engine.charioteer.ai.sampling import sample_state, unseen_cards, unseen_fan_tokens
from engine.charioteer.components import deck, fan_tokens
from engine.core import Rng
from tests.engine.charioteer.test_ai import position, race_positions


def test_a_sampled_race_looks_the_same_from_the_seat() -> None:
    for number, state in enumerate(race_positions(4, races=1, seed=6, every=5)):
        seat = state.seats[number % 4]
        seat_view = view(state, seat)
        sampled = sample_state(seat_view, Rng(3, number), seed=number)
        assert view(sampled, seat) == seat_view


def test_unseen_cards_are_the_rivals_hands_and_the_draw_pile() -> None:
    for state in race_positions(3, races=1, seed=2, every=6):
        hidden = [card for chariot in state.chariots[1:] for card in chariot.hand]
        hidden += list(state.deck)
        assert Counter(unseen_cards(view(state, "A"))) == Counter(hidden)


def test_sampled_hidden_cards_are_a_deal_of_the_unseen_ones() -> None:
    state = next(iter(race_positions(3, races=1, seed=2, every=7)))
    seat_view = view(state, "A")
    sampled = sample_state(seat_view, Rng(1), seed=0)
    dealt = [card for chariot in sampled.chariots[1:] for card in chariot.hand]
    dealt += list(sampled.deck)
    assert Counter(dealt) == Counter(unseen_cards(seat_view))
    other = sample_state(seat_view, Rng(2), seed=0)
    assert [c.hand for c in other.chariots[1:]] != [c.hand for c in sampled.chariots[1:]]


def test_unseen_fan_tokens_leave_out_held_and_discarded_ones() -> None:
    """Of two white shields held, one is the seat's own player token."""
    state = position(a={"tokens": ["green:wild", "fan:shield", "shield", "+3"]})
    left = Counter(unseen_fan_tokens(view(state, "A")))
    standard = Counter(token.public() for token in fan_tokens())
    wild = next(token for token in standard if str(token) == "green:wild")
    shield = next(token for token in standard if str(token) == "shield")
    assert left[wild] == standard[wild] - 1
    assert left[shield] == standard[shield] - 1
    assert sum(left.values()) == sum(standard.values()) - 2


def test_a_hand_made_position_short_of_cards_is_still_filled() -> None:
    """Hands full of one card the deck holds few of: sampling makes up the difference."""
    greens = ["G6x2 R3x2"] * 8
    state = position(
        a={"hand": greens},
        b={"hand": greens},
        discard=[str(card) for card in deck()],
    )
    seat_view = view(state, "A")
    sampled = sample_state(seat_view, Rng(0), seed=0)
    assert len(sampled.chariot("B").hand) == 8
    assert len(sampled.deck) == seat_view.deck_size
