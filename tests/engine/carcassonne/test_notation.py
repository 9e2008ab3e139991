"""The position notation round-trips and refuses what no game can reach; views hide the
stack's order and nothing else (spec §7)."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from engine.carcassonne import GameState, Table, read_position, view, write_position
from engine.carcassonne.battle import units_in
from engine.core import JSON, MalformedPosition, Rng


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


def _contested(state: GameState) -> bool:
    """Whether some feature holds meeples of two sides (a battle not yet fought)."""
    board = state.board
    for region in board.regions:
        inside = [m for m in state.meeples if board.region(m.at) is region]
        if len(units_in(inside, state.unit_of)) > 1:
            return True
    return False


def _placement_joining_two_sides() -> Table:
    """A game of random play stopped right after the first placement that joins features
    held by two players: the deploy phase, with the battle still to fight."""
    for seed in range(20):
        table = Table.new(seats=2, seed=seed)
        rng = Rng(seed, 1)
        while not table.is_over:
            placements = table.legal_placements()
            table.place(table.active, placements[rng.below(len(placements))])
            if _contested(table.state):
                return table
            deployments = table.legal_deployments()
            table.deploy(table.active, deployments[rng.below(len(deployments))])
    raise AssertionError("no placement joined two sides' features")


def test_a_placement_joining_two_sides_reads_back_before_its_battle() -> None:
    table = _placement_joining_two_sides()
    position = json.loads(json.dumps(table.position()))
    again = read_position(position)
    assert again == table.state
    assert write_position(again) == table.position()
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


def _contested_broken(change: str) -> dict[str, JSON]:
    table = _placement_joining_two_sides()
    position = copy.deepcopy(table.position())
    if change == "place phase":
        position["phase"] = "place"
        position["placed"] = None
        position["current"], position["stack"] = position["stack"][0], position["stack"][1:]
    elif change == "shared before the tile":
        red, green = (
            next(m for m in position["meeples"] if m["seat"] == seat) for seat in ("red", "green")
        )
        green.update(x=red["x"], y=red["y"], feature=red["feature"])
    elif change == "placed not last":
        position["placed"] = [0, 0]
    elif change == "meeple on the tile placed":
        x, y = position["placed"]
        position["meeples"][0] = {"seat": "red", "size": "small", "x": x, "y": y, "feature": 0}
    return position


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ("place phase", "holds two sides"),
        ("shared before the tile", "held two sides before the tile placed"),
        ("placed not last", "placed names the tile placed last"),
        ("meeple on the tile placed", "no meeple stands on the tile just placed"),
    ],
)
def test_two_sides_share_a_feature_only_between_the_placement_and_the_battle(
    change: str, reason: str
) -> None:
    """Only the tile placed last may have joined two sides' features, and only until the
    deploy fights the battle."""
    with pytest.raises(MalformedPosition, match=reason):
        read_position(_contested_broken(change))


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


def test_a_view_sent_to_another_process_carries_no_state_it_worked_out() -> None:
    """A view works out its state once (:meth:`SeatView.as_state`); pickled for a picture
    drawn elsewhere it is the view alone, and equal to the view it was."""
    table = Table.new(seats=3, seed=4)
    seat_view = table.view(table.active)
    bare = pickle.dumps(seat_view)
    assert seat_view.as_state() is seat_view.as_state()
    assert pickle.dumps(seat_view) == bare
    again = pickle.loads(bare)
    assert again == seat_view and again.as_state() == seat_view.as_state()
