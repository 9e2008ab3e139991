"""The position notation round-trips and refuses what no game can reach; views hide the
stack's order and nothing else (spec §7)."""

from __future__ import annotations

import copy
import json

import pytest

from engine.carcassonne import Table, read_position, view, write_position
from engine.core import JSON, MalformedPosition


def _midgame() -> Table:
    table = Table.new(seats=3, seed=11)
    for _ in range(10):
        table.place(table.active, table.legal_placements()[0])
        table.deploy(table.active, table.legal_deployments()[-1])
    table.place(table.active, table.legal_placements()[0])  # stop in the deploy phase
    return table


def test_round_trip_through_json_text() -> None:
    table = _midgame()
    position = table.position()
    again = read_position(json.loads(json.dumps(position)))
    assert again == table.state
    assert write_position(again) == position
    assert position["tile_set"] == "reconstruction"
    assert Table.from_position(position).legal_deployments() == table.legal_deployments()


def _broken(change: str) -> dict[str, JSON]:
    position = copy.deepcopy(_midgame().position())
    if change == "unknown key":
        position["colour"] = "red"
    elif change == "lost tile":
        position["stack"] = position["stack"][1:]
    elif change == "bad fit":
        position["board"][1]["rotation"] = (position["board"][1]["rotation"] + 90) % 360
    elif change == "too many meeples":
        extra = {"seat": "red", "size": "large", "x": 0, "y": 0, "feature": 0}
        position["meeples"] = [*position["meeples"], extra, extra]
    elif change == "no feature":
        position["meeples"] = [{"seat": "red", "size": "small", "x": 0, "y": 0, "feature": 7}]
    elif change == "two sides":
        position["meeples"] = [
            {"seat": "red", "size": "small", "x": 0, "y": 0, "feature": 1},
            {"seat": "green", "size": "small", "x": 0, "y": 0, "feature": 1},
        ]
    elif change == "phase":
        position["phase"] = "place"
    elif change == "stranger":
        position["active"] = "blue"
    elif change == "scores":
        position["scores"] = {"red": 0}
    return position


@pytest.mark.parametrize(
    "change",
    [
        "unknown key",
        "lost tile",
        "bad fit",
        "too many meeples",
        "no feature",
        "two sides",
        "phase",
        "stranger",
        "scores",
    ],
)
def test_impossible_positions_are_refused(change: str) -> None:
    with pytest.raises(MalformedPosition):
        read_position(_broken(change))


def test_views_show_everything_but_the_stack_order() -> None:
    table = _midgame()
    shown = view(table.state, "red").to_json()
    text = json.dumps(shown)
    assert "stack" not in {key for key in shown if key != "stack_size"}
    assert "seed" not in shown
    assert shown["stack_size"] == len(table.state.stack)
    assert sum(shown["tiles_left"].values()) == len(table.state.stack)
    assert json.dumps(table.state.stack) not in text
    assert view(table.state, "red").to_json() | {"seat": None} == view(table.state).to_json()
