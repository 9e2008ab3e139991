"""A turn (spec §2): placement legality, who may act when, the draw (the unplaceable tile),
and the end of the game."""

from __future__ import annotations

import pytest

from engine.carcassonne import Table
from engine.carcassonne.components import tile_type
from engine.carcassonne.events import GameEnded, TileDrawn, TileRemoved, TileReturned
from engine.carcassonne.rules import RULESET, Placement, game_config, legal_placements
from engine.carcassonne.state import Phase, Unplaceable
from engine.core import (
    Action,
    Chance,
    GameOver,
    IllegalAction,
    MalformedAction,
    MalformedPosition,
)
from tests.engine.carcassonne.builders import deploy, of_type, place, position


def test_every_shared_edge_must_match() -> None:
    state = position([], current="SW34")  # route N-S
    with pytest.raises(IllegalAction, match="does not fit"):
        place(state, 1, 0, 0)  # its W edge (space) against the start tile's route
    after = place(state, 1, 0, 90)
    assert after.phase is Phase.DEPLOY and after.placed == (1, 0)


def test_a_tile_must_touch_the_map_and_take_a_free_square() -> None:
    state = position([], current="SW02")
    with pytest.raises(IllegalAction):
        place(state, 0, 2, 0)
    with pytest.raises(IllegalAction):
        place(state, 0, 0, 0)


def test_legal_placements_are_exactly_the_fitting_ones() -> None:
    state = position([(0, -1, "SW13", 180)], current="SW38")
    listed = set(legal_placements(state))
    tile = tile_type("SW38")
    expected = {
        Placement(x, y, r)
        for x, y in state.board.frontier
        for r in range(4)
        if state.board.fits(tile, x, y, r)
    }
    assert listed == expected and listed


def test_a_symmetric_tile_is_listed_once_per_look() -> None:
    state = position([], current="SW34")
    rotations = {p.rotation for p in legal_placements(state)}
    assert rotations <= {0, 1}


def test_only_the_active_seat_acts_and_in_order() -> None:
    state = position([], current="SW34")
    with pytest.raises(IllegalAction, match="red's turn"):
        RULESET.apply(
            state, Action("place", "white", {"x": 1, "y": 0, "rotation": 90}), Chance.scripted([])
        )
    with pytest.raises(MalformedAction):
        RULESET.apply(state, Action("place", "blue", {"x": 1, "y": 0}), Chance.scripted([]))
    with pytest.raises(IllegalAction, match="first place"):
        deploy(state)
    with pytest.raises(MalformedAction):
        RULESET.apply(state, Action("pass", "red"), Chance.scripted([]))
    with pytest.raises(MalformedAction):
        RULESET.apply(state, Action("place", "red", {"x": "1", "y": 0}), Chance.scripted([]))
    with pytest.raises(MalformedAction):
        RULESET.apply(
            state, Action("place", "red", {"x": 1, "y": 0, "rotation": 45}), Chance.scripted([])
        )


def test_no_meeple_of_a_size_left_means_no_deployment_of_it() -> None:
    state = position(
        [(3, 3, "SW13", 0), (0, -1, "SW13", 180)],
        [("red", "large", 3, 3, 0)],
        placed=(0, -1),
    )
    with pytest.raises(IllegalAction, match="no large meeple"):
        deploy(state, {"x": 0, "y": -1, "feature": 0, "meeple": "large"})


def test_a_tile_that_fits_nowhere_is_removed_and_another_drawn() -> None:
    """Next to a lone field end, the all-asteroid tile has no square: it leaves the game."""
    state = position([(0, -1, "SW13", 180)], placed=(0, -1), stack=("SW11", "SW34"))
    after, events = deploy(state)
    assert of_type(events, TileRemoved) == [TileRemoved("SW11")]
    assert of_type(events, TileDrawn) == [TileDrawn("white", "SW34", 0)]
    assert after.removed == ("SW11",) and after.current == "SW34" and after.active_seat == "white"


def test_the_table_option_returns_it_into_the_stack() -> None:
    from dataclasses import replace

    from engine.carcassonne.state import Options

    state = position([(0, -1, "SW13", 180)], placed=(0, -1), stack=("SW11", "SW34", "SW38"))
    state = replace(state, options=Options(unplaceable=Unplaceable.RETURN))
    chance = Chance.scripted([{"what": "returned tile depth", "roll": 1}])
    transition = RULESET.apply(state, Action("deploy", "red"), chance)
    chance.finish()
    after = transition.state
    assert of_type(transition.events, TileReturned) == [TileReturned("SW11")]
    assert after.current == "SW34" and after.stack == ("SW38", "SW11")


def test_the_game_ends_when_no_tile_can_be_drawn() -> None:
    state = position([(0, -1, "SW13", 180)], placed=(0, -1), stack=())
    after, events = deploy(state, {"x": 0, "y": -1, "feature": 0})
    assert after.phase is Phase.OVER and after.current is None
    ended = of_type(events, GameEnded)
    assert len(ended) == 1 and ended[0].result.winners == ("red",)
    with pytest.raises(GameOver):
        place(after, 1, 0, 90)


def test_same_seed_same_actions_same_game() -> None:
    def play(seed: int) -> dict[str, object]:
        table = Table.new(seats=3, seed=seed)
        for _ in range(12):
            table.place(table.active, table.legal_placements()[0])
            table.deploy(table.active, table.legal_deployments()[-1])
        return table.record.to_json()

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_configuration_errors_are_clear() -> None:
    with pytest.raises(MalformedPosition, match="2 to 5"):
        Table.new(seats=6)
    with pytest.raises(MalformedPosition, match="team variant"):
        Table.new(seats=3, team=True)
    with pytest.raises(MalformedPosition, match="colours"):
        Table.from_config(game_config(colours=["red", "red"]), 1)
    table = Table.new(seats=4, team=True)
    assert table.seats == ("red", "black", "green", "white")
    assert table.state.units == ("rebels", "empire")
