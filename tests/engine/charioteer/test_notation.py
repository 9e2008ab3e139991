"""The JSON position notation (spec §10 and the engine's documented additions): exact
round trips, the spec's own example, and what the reader refuses."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from engine.charioteer import Card, Race, read_position, write_position
from engine.charioteer.cli import resolve_file
from engine.charioteer.components import deck, fan_tokens
from engine.core import JSON, MalformedPosition
from tests.engine.charioteer.builders import STAY, chariot, move, position

POSITIONS = Path(__file__).parent / "positions"


def canonical(card: str) -> str:
    return str(Card.parse(card))


def round_trips(written: dict[str, JSON]) -> None:
    """write(read(p)) == p, also through JSON text, and reading twice gives one state."""
    assert write_position(read_position(written)) == written
    assert write_position(read_position(json.loads(json.dumps(written)))) == written
    assert read_position(written) == read_position(copy.deepcopy(written))


def a_move(race: Race, seat: str, turn: int) -> JSON:
    """A legal move chosen by a fixed rule (varied by turn and seat), as JSON."""
    moves = race.legal_moves(seat)
    return moves[(turn * 7 + ord(seat)) % len(moves)].to_json()


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_a_fresh_race_round_trips(seats: int) -> None:
    """§10: the position of a new race is read back and written identically."""
    race = Race.new(seats=seats, seed=seats * 101)
    round_trips(race.position())
    assert Race.from_position(race.position()).position() == race.position()


def test_positions_round_trip_after_several_turns_and_mid_turn() -> None:
    """§10: after every turn of a played race, and with commits pending mid-turn."""
    race = Race.new(seats=4, seed=3, laps=1)
    for turn in range(1, 9):
        if race.is_over:
            break
        first, *others = race.seats
        race.commit(first, a_move(race, first, turn))
        round_trips(race.position())
        assert "commits" in race.position()
        for seat in others:
            race.commit(seat, a_move(race, seat, turn))
        round_trips(race.position())
    assert race.turn > 4
    assert any("last_move" in item for item in race.position()["chariots"])


def test_the_specs_example_position_reads_and_writes_canonically() -> None:
    """§10: the spec's example (with a second chariot, as a race needs two) is read; the
    crowd card written ``"R5x2 G2"`` comes back canonical, ``"G2 R5x2"``; deck and fan
    bag, absent, are drawn from the seed; the rest is written as given."""
    given = json.loads((POSITIONS / "spec-example.json").read_text("utf-8"))
    written = Race.from_position(given).position()
    assert written["crowd"] == ["G2 R5x2", "Y0x2 B1", "whip"]
    assert written["turn"] == 7
    assert (written["emperor"], written["next_emperor"]) == ("red", "all")
    a = written["chariots"][0]
    assert a["skills"] == {"green": 4, "red": 1, "yellow": 0, "black": {"bonus": 3}}
    assert a["hand"] == ["R5x2 Y4", "R5x2 B2", "G2 R5x2", "whip"]
    assert a["tokens"] == ["red:+3", "shield"]
    assert (a["position"], a["lane"], a["damage"], a["attack"]) == (40, 0, 2, 1)
    on_table = Counter(given["crowd"] + [card for c in written["chariots"] for card in c["hand"]])
    standard_deck = Counter(str(card) for card in deck())
    assert Counter(written["deck"]) == standard_deck - Counter(map(canonical, on_table.elements()))
    standard_bag = Counter(token.label for token in fan_tokens())
    assert Counter(written["fan_bag"]) == standard_bag - Counter(["red:+3"])
    round_trips(written)
    assert Race.from_position(given).position() == written


def test_reading_a_seedless_position_twice_draws_the_same_deck() -> None:
    """§10: absent ``deck``/``fan_bag`` are drawn from the seeded source: same input, same
    position."""
    given = json.loads((POSITIONS / "spec-example.json").read_text("utf-8"))
    other_seed = {**given, "seed": 99}
    assert Race.from_position(given).position() == Race.from_position(given).position()
    assert (
        Race.from_position(other_seed).position()["deck"]
        != (Race.from_position(given).position()["deck"])
    )


def small() -> dict[str, JSON]:
    return position(chariot("A", 3, hand=["G2", "G2"]), chariot("B", 0, hand=["G6"]))


@pytest.mark.parametrize(
    ("where", "key"),
    [("position", "colour"), ("chariot", "speed"), ("options", "fast_horses")],
)
def test_unknown_keys_are_an_error(where: str, key: str) -> None:
    """§10: unknown keys are an error, at every level."""
    bad = small()
    target = {"position": bad, "chariot": bad["chariots"][0], "options": {}}[where]
    target[key] = 1
    if where == "options":
        bad["options"] = target
    with pytest.raises(MalformedPosition, match=key):
        Race.from_position(bad)


def test_moves_are_accepted_only_by_resolve() -> None:
    """§10, §11: a ``moves`` key is refused by the position reader, read by ``resolve``."""
    document = {**small(), "moves": {"A": move("G2", 0, 1), "B": STAY}}
    with pytest.raises(MalformedPosition, match="moves"):
        Race.from_position(document)
    resolved = resolve_file(document)
    assert resolved["position"]["turn"] == 3
    assert resolved["result"] is None


def test_resolve_needs_a_move_from_every_seat() -> None:
    """§11: a file missing a seat's move is an error naming that seat."""
    document = {**small(), "moves": {"A": move("G2", 0, 1)}}
    with pytest.raises(MalformedPosition) as raised:
        resolve_file(document)
    assert raised.value.seat == "B"
    assert "no move for B" in str(raised.value)
