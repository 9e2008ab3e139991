"""The worked examples of the rule text (battles for a route, an asteroid field and a
planet), as positions with the dice the text rolls."""

from __future__ import annotations

from engine.carcassonne.components import Kind
from engine.carcassonne.events import (
    BattleLost,
    BattleStarted,
    BattleTied,
    BattleWon,
    DiceRolled,
    FeatureScored,
)
from tests.engine.carcassonne.builders import deploy, of_type, position, score


def test_route_battle_next_to_a_rebel_planet() -> None:
    """Red joins its route to White's: one die each (the planet's rebel symbol beside the
    route gives nothing); Red's 6 beats White's 1; White scores 1 for its die, Red the
    completed 4-tile route."""
    state = position(
        [
            (-1, 0, "SW43", 0),  # junction: the route's west end
            (2, 0, "SW43", 0),  # junction: the route's east end
            (0, 1, "SW02", 0),  # rebel planet beside the route
            (1, 0, "SW34", 90),  # the placed tile joins the two routes
        ],
        [("white", "small", 0, 0, 1), ("red", "small", 2, 0, 3)],
        placed=(1, 0),
    )
    after, events = deploy(state, rolls=[6, 1])
    started = of_type(events, BattleStarted)
    assert [e.sides for e in started] == [(("red", 1), ("white", 1))]
    assert of_type(events, BattleLost) == [BattleLost(started[0].at, "white", 1)]
    scored = of_type(events, FeatureScored)
    assert [(e.unit, e.points) for e in scored] == [("red", 4)]
    assert (score(after, "red"), score(after, "white")) == (4, 1)
    assert after.meeples == ()


def test_three_way_battle_for_an_asteroid_field() -> None:
    """Red (1 meeple + its faction's symbol in the field: 2 dice), White (1 die) and
    Black (large meeple: 2 dice) meet in a 5-tile field. First roll: White's 3 loses
    (1 point), Red and Black tie on 4 (1 point each). Second roll: Black's 6 wins, Red
    scores its 2 dice; Black scores the field: 5 tiles x 2 + 2 for the symbol = 12."""
    state = position(
        [
            (0, 1, "SW13", 180),  # north arm
            (-1, 1, "SW02", 0),  # a rebel planet (not part of the field)
            (-1, 2, "SW14", 0),  # band with the rebel symbol
            (-2, 2, "SW13", 90),  # west end
            (1, 1, "SW03", 0),  # an empire planet (not part of the field)
            (1, 2, "SW13", 270),  # east arm
            (0, 2, "SW30", 0),  # the placed tile joins the three fields
        ],
        [
            ("red", "small", -2, 2, 0),
            ("white", "small", 0, 1, 0),
            ("black", "large", 1, 2, 0),
        ],
        seats=("red", "white", "black"),
        placed=(0, 2),
    )
    after, events = deploy(state, rolls=[4, 2, 3, 4, 1, 3, 2, 6, 5])
    at = of_type(events, BattleStarted)[0].at
    battle = [
        e
        for e in events
        if isinstance(e, BattleStarted | DiceRolled | BattleLost | BattleTied | BattleWon)
    ]
    assert battle == [
        BattleStarted(at, Kind.ASTEROID, (("red", 2), ("white", 1), ("black", 2))),
        DiceRolled(at, 1, (("red", (4, 2)), ("white", (3,)), ("black", (4, 1)))),
        BattleLost(at, "white", 1),
        BattleTied(at, ("red", "black")),
        DiceRolled(at, 2, (("red", (3, 2)), ("black", (6, 5)))),
        BattleLost(at, "red", 2),
        BattleWon(at, "black"),
    ]
    scored = of_type(events, FeatureScored)
    assert [(e.unit, e.points, e.tiles, e.symbols) for e in scored] == [("black", 12, 5, 1)]
    assert [score(after, seat) for seat in ("red", "white", "black")] == [3, 1, 13]


def test_attack_on_a_planet_held_by_a_large_meeple() -> None:
    """Red places a tile diagonal to a rebel planet White holds with its large meeple and
    attacks it: Red 1 die + 1 for the planet's rebel symbol, White 2 for the large meeple.
    Both roll 5 (1 point each), then Red's 5 beats White's 4: White scores its 2 dice and
    leaves; Red holds the planet, which is not complete, so nothing is scored."""
    state = position(
        [(0, 1, "SW02", 0), (1, 0, "SW34", 90)],
        [("white", "large", 0, 1, None)],
        placed=(1, 0),
    )
    attack = {"x": 0, "y": 1, "feature": "planet", "meeple": "small"}
    after, events = deploy(state, attack, rolls=[5, 2, 5, 1, 5, 3, 4, 2])
    assert of_type(events, BattleStarted)[0].sides == (("red", 2), ("white", 2))
    assert of_type(events, BattleWon)[0].unit == "red"
    assert of_type(events, FeatureScored) == []
    assert (score(after, "red"), score(after, "white")) == (1, 3)
    assert [(m.seat, m.at.square) for m in after.meeples] == [("red", (0, 1))]
