"""What each seat may see (spec §9): its own hand, tokens and move, and nobody else's;
a spectator sees no hand at all; private events reach only their seat."""

from __future__ import annotations

import json

from engine.charioteer import Race
from engine.charioteer.events import CardsDrawn, FanTokenReceived, MoveCommitted
from engine.core import events_for, public_events
from tests.engine.charioteer.builders import BACK_STRAIGHT, chariot, move, position

A_HAND = ["G4x2 Y4x2 shield", "G4 R3x2", "G4 B2x2"]
B_HAND = ["G6x2 R5x2", "G6 B1x2 recovery", "R1x2 Y0x2", "Y2 B0x2"]
B_TOKENS = ["green:learning", "yellow:discard3"]
SECRET_DECK = ["R5x2 Y4x2", "G6x2 B2x2", "R3x2 Y2x2", "G2x2 B0x2"]
PUBLIC_CHARIOT_KEYS = {
    "seat",
    "position",
    "lane",
    "laps",
    "damage",
    "attack",
    "skills",
    "hand_size",
    "token_count",
    "committed",
    "last_move",
}


def race_with_b_committed() -> Race:
    race = Race.from_position(
        position(
            chariot("A", BACK_STRAIGHT, hand=A_HAND, tokens=["shield"]),
            chariot("B", 0, hand=B_HAND, tokens=B_TOKENS),
            deck=[*SECRET_DECK, "Y0 B0", "Y0 B0"],
        )
    )
    race.commit("B", move("G6", 0, 1, token=0))
    return race


def test_a_seat_sees_its_own_hand_and_nothing_of_anothers() -> None:
    """§9: A's view holds A's hand and tokens; B's hand, tokens and committed move appear
    nowhere in it, only how many cards and tokens B holds and that B has chosen."""
    seen = race_with_b_committed().view("A").to_json()
    text = json.dumps(seen)
    assert seen["hand"] == A_HAND
    assert seen["tokens"] == ["shield"]
    assert seen["my_move"] is None
    for secret in [*B_HAND, *B_TOKENS, *SECRET_DECK, "G6"]:
        assert secret not in text, secret
    b = seen["chariots"][1]
    assert set(b) == PUBLIC_CHARIOT_KEYS
    assert (b["hand_size"], b["token_count"], b["committed"]) == (4, 2, True)
    assert b["last_move"] is None
    for hidden in ("deck", "fan_bag", "next_emperor", "seed", "draws", "commits"):
        assert hidden not in seen


def test_a_seat_sees_its_own_committed_move() -> None:
    """§9: the move is private to its owner until reveal."""
    seen = race_with_b_committed().view("B").to_json()
    assert seen["my_move"] == {"symbol": "G6", "cards": [0, 1], "token": 0}
    assert seen["hand"] == B_HAND


def test_a_spectator_sees_no_hand_at_all() -> None:
    """§9: the public view has no hand, tokens or move, only the public display."""
    seen = race_with_b_committed().view(None).to_json()
    text = json.dumps(seen)
    for key in ("hand", "tokens", "my_move"):
        assert key not in seen
    for secret in [*A_HAND, *B_HAND, *B_TOKENS, *SECRET_DECK]:
        assert secret not in text, secret
    assert [item["hand_size"] for item in seen["chariots"]] == [3, 4]


def test_commit_events_do_not_show_the_move() -> None:
    """§9, §3.2: committing tells everyone that a seat has chosen, not what."""
    race = Race.from_position(
        position(chariot("A", BACK_STRAIGHT, hand=A_HAND), chariot("B", 0, hand=B_HAND))
    )
    (committed,) = race.commit("B", move("G6", 0, 1))
    assert isinstance(committed, MoveCommitted)
    assert committed.to_json() == {
        "type": "committed",
        "seat": "B",
        "changed": False,
        "waiting_for": ["A"],
    }


def test_drawn_cards_and_fan_token_faces_reach_only_their_owner() -> None:
    """§9, §5: cards drawn and a fan token's face are private events; the public events
    of the turn name neither."""
    race = Race.from_position(
        position(
            chariot("A", BACK_STRAIGHT, hand=["G4x2 Y4x2 shield", "G4x2 R3x2", "G4x2 B2x2"]),
            chariot("B", 0, hand=B_HAND, tokens=B_TOKENS),
            deck=[*SECRET_DECK, "Y0 B0", "Y0 B0"],
            fan_bag=["black:wild"],
        )
    )
    race.commit("B", move("G6", 0, 1, token=0))
    events = race.commit("A", move("G4", 0, 1, 2))  # six G4s: a fan token
    private = [event for event in events if event.audience is not None]
    assert {type(event) for event in private} == {CardsDrawn, FanTokenReceived}
    assert all(event.audience in ("A", "B") for event in private)
    public_text = json.dumps([event.to_json() for event in public_events(events)])
    for secret in [*SECRET_DECK, "black:wild"]:
        assert secret not in public_text, secret
    seen_by_b = events_for(events, "B")
    assert not any(isinstance(event, FanTokenReceived) for event in seen_by_b)
    assert [event for event in events_for(events, "A") if isinstance(event, FanTokenReceived)]


def test_a_seat_lists_its_legal_moves_from_its_own_view() -> None:
    """§9: what a seat sees is enough to know its moves: the view lists the same legal
    moves as the race."""
    race = race_with_b_committed()
    for seat in ("A", "B"):
        assert race.view(seat).legal_moves() == race.legal_moves(seat)
    assert race.view(None).legal_moves() == []
