"""Golden files for the text renderers: fixed positions and turns → the expected text.

The positions live in ``golden/*.position.json`` (spec §10 notation; a ``moves`` object
holds the turn to resolve), the expected texts in ``golden/*.txt``. After a deliberate
change of wording or layout, rewrite the expected texts with

    CIRCUS_UPDATE_GOLDEN=1 python -m pytest tests/engine/charioteer/test_render_golden.py

and read every changed file by eye (``git diff``) before committing: they must read well.
"""

import json
import os
from pathlib import Path

import pytest

from engine.charioteer import Move, Race
from engine.charioteer.render import board_text, hand_text, preview_text, reveal_text
from engine.core import JSON, Event, public_events

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CIRCUS_UPDATE_GOLDEN") == "1"

NAMES = {
    "A": "Bartholomew the Great",
    "B": "Zoë",
    "C": "xX_Slayer_Xx",
    "D": "li`l bobby",
    "E": "🦊 Fox",
}
"""Discord-like nicknames: long, accented, markdown, a backtick, an emoji; F has none."""


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text + "\n", encoding="utf-8")
    assert path.exists(), f"{name} is missing: run with CIRCUS_UPDATE_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    assert text + "\n" == expected, f"{name} differs (CIRCUS_UPDATE_GOLDEN=1 rewrites it)"


def load(name: str) -> tuple[dict[str, JSON], dict[str, JSON]]:
    document = json.loads((GOLDEN / f"{name}.position.json").read_text(encoding="utf-8"))
    moves = document.pop("moves", {})
    return document, moves


def race_of(name: str) -> Race:
    position, _ = load(name)
    return Race.from_position(position)


def resolved(name: str) -> tuple[Race, list[Event]]:
    position, moves = load(name)
    race = Race.from_position(position)
    events: list[Event] = []
    for seat in race.seats:
        events.extend(race.commit(seat, moves[seat]))
    return race, events


@pytest.mark.parametrize(
    ("position", "names"),
    [("start", NAMES), ("start", None), ("midrace", NAMES), ("midrace", None)],
)
def test_board_text(position: str, names: dict[str, str] | None) -> None:
    suffix = "names" if names else "colours"
    check_golden(
        f"{position}.board.{suffix}.txt", board_text(race_of(position).view(), names=names)
    )


@pytest.mark.parametrize("turn", ["turn", "whips", "finish"])
def test_board_after_a_turn(turn: str) -> None:
    race, _ = resolved(turn)
    check_golden(f"{turn}.board.txt", board_text(race.view()))


@pytest.mark.parametrize("turn", ["turn", "whips", "finish"])
def test_reveal_text(turn: str) -> None:
    race, events = resolved(turn)
    check_golden(f"{turn}.reveal.txt", reveal_text(public_events(events), race.view()))


def test_reveal_text_with_names() -> None:
    race, events = resolved("turn")
    text = reveal_text(public_events(events), race.view(), names=NAMES)
    check_golden("turn.reveal.names.txt", text)


@pytest.mark.parametrize(("position", "seat"), [("midrace", "A"), ("start", "C")])
def test_hand_text(position: str, seat: str) -> None:
    check_golden(f"{position}.hand.{seat}.txt", hand_text(race_of(position).view(seat)))


PREVIEWS: dict[tuple[str, str], list[dict[str, JSON]]] = {
    ("midrace", "A"): [
        {"symbol": "R5", "cards": [0, 1, 2], "crowd": True, "token": 0},
        {"symbol": "R5", "cards": [0, 1], "token": 2, "wild": 1},
        {"symbol": "Y4", "cards": [0, 4]},
        {"symbol": "R5", "cards": [0, 1, 3], "token": 1},
        {"symbol": "G6", "cards": [5, 7], "crowd": True},
        {"symbol": "G2", "cards": [2, 7]},
        {"symbol": "B0", "cards": [6, 1]},
        {"reset": True, "cards": [3], "discard": {"token": 3, "cards": [5, 6]}},
        {"symbol": "R5", "cards": [0, 1], "token": 3},
        {"symbol": "R5", "cards": [0, 9]},
    ],
    ("start", "C"): [
        {"symbol": "G2", "cards": [0, 1, 5], "token": 2},
        {"symbol": "G2", "cards": [0, 2, 4], "token": 4},
        {"symbol": "R5", "cards": [2, 6], "token": 1},
        {"reset": True, "cards": [5]},
    ],
}


@pytest.mark.parametrize(("position", "seat"), list(PREVIEWS))
def test_preview_text(position: str, seat: str) -> None:
    view = race_of(position).view(seat)
    lines = []
    for move in PREVIEWS[position, seat]:
        lines.append(json.dumps(move))
        lines.append("  " + preview_text(view, Move.from_json(move)))
    check_golden(f"{position}.previews.{seat}.txt", "\n".join(lines))
