"""Every ruling of spec §6 and the team variant's rulings of §5, as positions."""

from __future__ import annotations

import pytest

from engine.carcassonne.battle import dice_for
from engine.carcassonne.board import FeatureRef
from engine.carcassonne.components import Colour, Faction, Kind, Size
from engine.carcassonne.events import (
    BattleLost,
    BattleStarted,
    BattleTied,
    BattleWon,
    DiceRolled,
    FeatureScored,
    MeepleDeployed,
)
from engine.carcassonne.rules import Deployment, legal_deployments
from engine.carcassonne.state import EMPIRE, REBELS, Meeple
from engine.core import IllegalAction
from tests.engine.carcassonne.builders import board, deploy, of_type, position, score

# The route of the rule text's first example: junction, start tile, placed tile, junction.
ROUTE = [(-1, 0, "SW43", 0), (2, 0, "SW43", 0), (1, 0, "SW34", 90)]


def _unit(seat: str) -> str:
    return seat


def _faction(unit: str) -> Faction:
    return Colour(unit).faction


def test_a_faction_die_comes_only_from_symbols_inside_the_feature() -> None:
    """A bounty route symbol on a tile with an asteroid field belongs to the route: the
    field holds no symbol, so Orange gets no faction die there, but does on the route."""
    placed = board((0, -1, "SW20", 180))  # asteroid faces the start tile's field
    field = placed.region(FeatureRef(0, 0, 0))
    route = placed.region(FeatureRef(0, -1, 1))
    assert field.kind is Kind.ASTEROID and field.symbols == ()
    assert route.symbols == (Faction.BOUNTY,)
    orange = [Meeple("orange", Size.SMALL, FeatureRef(0, 0, 0))]
    assert dice_for("orange", orange, field, _unit, _faction) == 1
    assert dice_for("orange", orange, route, _unit, _faction) == 2


def test_a_planets_symbol_is_not_part_of_a_route_ending_at_it() -> None:
    """Junction, start tile, a curve and an empire planet the route ends at: 4 tiles, 4
    points, the planet's symbol scoring nothing for the route."""
    state = position(
        [(-1, 0, "SW43", 0), (1, 0, "SW38", 90), (1, -1, "SW05", 0)],
        placed=(1, -1),
    )
    assert state.board.region(FeatureRef(1, -1, 0)).symbols == ()
    after, events = deploy(state, {"x": 1, "y": -1, "feature": 0})
    assert [(e.kind, e.points) for e in of_type(events, FeatureScored)] == [(Kind.ROUTE, 4)]
    assert score(after, "red") == 4


def test_every_tied_player_scores_1_per_tied_roll_and_only_they_roll_again() -> None:
    """Three on a route, one die each: 5, 5, 2 (the 2 loses), then 3, 3 (tie again), then
    6, 1. Red and White score 1 per tie (2 each); Black its 1 die; White its 1 die; Red
    the completed 5-tile route."""
    # The start tile's route turns south at -1,0 to a junction holding Black's route.
    state = position(
        [(-1, 0, "SW38", 270), (2, 0, "SW43", 0), (-1, 1, "SW43", 0), (1, 0, "SW34", 90)],
        [("white", "small", 0, 0, 1), ("red", "small", 2, 0, 3), ("black", "small", -1, 1, 0)],
        seats=("red", "white", "black"),
        placed=(1, 0),
    )
    after, events = deploy(state, rolls=[5, 5, 2, 3, 3, 6, 1])
    rolled = of_type(events, DiceRolled)
    assert [[unit for unit, _ in e.rolls] for e in rolled] == [
        ["red", "white", "black"],
        ["red", "white"],
        ["red", "white"],
    ]
    assert [e.units for e in of_type(events, BattleTied)] == [("red", "white")] * 2
    assert [score(after, s) for s in ("red", "white", "black")] == [2 + 5, 2 + 1, 1]


def test_a_loser_scores_its_dice_while_others_still_fight() -> None:
    state = position(
        [(-1, 0, "SW38", 270), (2, 0, "SW43", 0), (-1, 1, "SW43", 0), (1, 0, "SW34", 90)],
        [("white", "small", 0, 0, 1), ("red", "large", 2, 0, 3), ("black", "small", -1, 1, 0)],
        seats=("red", "white", "black"),
        placed=(1, 0),
    )
    after, events = deploy(state, rolls=[4, 1, 4, 2, 6, 5, 3])
    kinds = [type(e).__name__ for e in events if isinstance(e, BattleLost | BattleTied | BattleWon)]
    assert kinds == ["BattleLost", "BattleTied", "BattleLost", "BattleWon"]
    assert of_type(events, BattleLost)[0].unit == "black"
    assert score(after, "black") == 1


def test_deploying_again_on_your_own_planet_reinforces_without_a_battle() -> None:
    state = position(
        [(0, 1, "SW02", 0), (1, 0, "SW34", 90)],
        [("red", "small", 0, 1, None)],
        placed=(1, 0),
    )
    after, events = deploy(state, {"x": 0, "y": 1, "feature": "planet"})
    assert of_type(events, BattleStarted) == []
    assert of_type(events, MeepleDeployed)[0].attack is True
    assert [m.seat for m in after.meeples] == ["red", "red"]


def test_deploying_on_an_occupied_route_or_field_is_illegal() -> None:
    state = position(
        [(1, 0, "SW12", 0)],  # extends the start tile's route, and a new field N
        [("white", "small", 0, 0, 1)],
        placed=(1, 0),
    )
    targets = {d.at for d in legal_deployments(state) if d is not None}
    assert FeatureRef(1, 0, 1) not in targets  # the occupied route
    assert FeatureRef(1, 0, 0) in targets  # the free field
    with pytest.raises(IllegalAction, match="already holds a meeple"):
        deploy(state, {"x": 1, "y": 0, "feature": 1})
    field_state = position(
        [(0, -1, "SW13", 180)],
        [("white", "small", 0, 0, 0)],
        placed=(0, -1),
    )
    with pytest.raises(IllegalAction, match="already holds a meeple"):
        deploy(field_state, {"x": 0, "y": -1, "feature": 0})


def test_only_the_planet_attack_places_onto_an_occupied_feature() -> None:
    state = position(
        [(0, 1, "SW02", 0), (1, 0, "SW34", 90)],
        [("white", "small", 0, 1, None), ("white", "small", 0, 0, 1)],
        placed=(1, 0),
    )
    choices = legal_deployments(state)
    assert Deployment(FeatureRef(0, 1, None), Size.SMALL) in choices
    assert all(d is None or d.at != FeatureRef(1, 0, 0) for d in choices)


def test_a_planet_out_of_reach_cannot_be_attacked() -> None:
    state = position(
        [(0, 1, "SW02", 0), (2, 0, "SW43", 0), (1, 0, "SW34", 90), (3, 0, "SW34", 90)],
        [("white", "small", 0, 1, None)],
        placed=(3, 0),
    )
    with pytest.raises(IllegalAction, match="planet around it"):
        deploy(state, {"x": 0, "y": 1, "feature": "planet"})


def test_deploying_on_a_feature_the_tile_completes_scores_it_at_once() -> None:
    state = position([(0, -1, "SW13", 180)], placed=(0, -1))
    after, events = deploy(state, {"x": 0, "y": -1, "feature": 0})
    assert [(e.unit, e.points, e.returned) for e in of_type(events, FeatureScored)] == [
        ("red", 4, ("red",))
    ]
    assert after.meeples == ()
    assert after.supply("red")[Size.SMALL] == 4


def test_several_battles_are_fought_in_catalogue_order_the_planet_last() -> None:
    """The placed tile (asteroid N-W, route E-S) joins Red's field to White's, Red's route
    to White's, and Red attacks White's planet diagonal to it: field, route, planet."""
    state = position(
        [
            (1, 0, "SW38", 90),  # route W-N: White's route with the start tile
            (0, -1, "SW25", 90),  # field E-S: White's field with the start tile
            (0, -2, "SW02", 0),  # rebel planet, White's large meeple
            (1, -2, "SW13", 180),  # field S: Red's
            (2, -2, "SW04", 0),  # bounty planet, empty
            (2, -1, "SW38", 0),  # route W-S: Red's
            (1, -1, "SW28", 0),  # the placed tile
        ],
        [
            ("white", "small", 1, 0, 0),
            ("white", "small", 0, 0, 0),
            ("white", "large", 0, -2, None),
            ("red", "small", 1, -2, 0),
            ("red", "small", 2, -1, 0),
        ],
        placed=(1, -1),
    )
    attack = {"x": 0, "y": -2, "feature": "planet"}
    after, events = deploy(state, attack, rolls=[6, 2, 1, 5, 6, 1, 3, 3])
    started = of_type(events, BattleStarted)
    assert [e.kind for e in started] == [Kind.ASTEROID, Kind.ROUTE, Kind.PLANET]
    assert [e.sides for e in started] == [
        (("red", 1), ("white", 1)),
        (("red", 1), ("white", 1)),
        (("red", 2), ("white", 2)),
    ]
    assert [e.unit for e in of_type(events, BattleWon)] == ["red", "white", "red"]
    scored = of_type(events, FeatureScored)
    assert [(e.kind, e.unit, e.points) for e in scored] == [(Kind.ASTEROID, "red", 8)]
    assert (score(after, "red"), score(after, "white")) == (1 + 8, 1 + 2)


# --------------------------------------------------------------------------- team variant

TEAM = ("red", "black", "green", "white")


def test_team_mates_never_fight_and_their_feature_scores_once() -> None:
    state = position(
        ROUTE,
        [("green", "small", 0, 0, 1), ("red", "small", 2, 0, 3)],
        seats=TEAM,
        team=True,
        placed=(1, 0),
    )
    after, events = deploy(state)
    assert of_type(events, BattleStarted) == []
    assert [(e.unit, e.points) for e in of_type(events, FeatureScored)] == [(REBELS, 4)]
    assert (score(after, REBELS), score(after, EMPIRE)) == (4, 0)


def test_a_team_rolls_at_most_3_dice_and_a_tie_gives_each_team_1() -> None:
    state = position(
        [(0, 1, "SW02", 0), (1, 0, "SW34", 90)],
        [("green", "large", 0, 1, None), ("black", "small", 0, 1, None)],
        seats=TEAM,
        team=True,
        placed=(1, 0),
    )
    attack = {"x": 0, "y": 1, "feature": "planet"}  # Red joins Green: 1 + 2 + symbol, max 3
    after, events = deploy(state, attack, rolls=[6, 1, 1, 6, 5, 2, 1, 2])
    assert of_type(events, BattleStarted)[0].sides == ((REBELS, 3), (EMPIRE, 1))
    assert of_type(events, BattleTied)[0].units == (REBELS, EMPIRE)
    assert of_type(events, BattleWon)[0].unit == REBELS
    assert (score(after, REBELS), score(after, EMPIRE)) == (1, 1 + 1)
    assert sorted(m.seat for m in after.meeples) == ["green", "red"]
