"""Completion of every feature shape, and what features score during play and at the end
(spec §4)."""

from __future__ import annotations

from engine.carcassonne.battle import battle_odds
from engine.carcassonne.board import FeatureRef
from engine.carcassonne.components import Kind
from engine.carcassonne.events import FeatureScored
from engine.carcassonne.rules import final_scores
from tests.engine.carcassonne.builders import board, deploy, of_type, position, score


def test_a_route_loop_is_complete() -> None:
    """Four curves closing on themselves: 4 tiles, 4 points."""
    state = position(
        [(0, 1, "SW38", 270), (1, 1, "SW38", 0), (1, 2, "SW38", 90), (0, 2, "SW38", 180)],
        placed=(0, 2),
    )
    region = state.board.region(FeatureRef(0, 2, 0))
    assert region.complete and region.tiles == 4 and region.open_edges == 0
    after, events = deploy(state, {"x": 0, "y": 2, "feature": 0})
    assert [(e.kind, e.points) for e in of_type(events, FeatureScored)] == [(Kind.ROUTE, 4)]
    assert score(after, "red") == 4


def test_a_route_between_two_junctions_is_complete_and_counts_its_symbols() -> None:
    """Junction, a rebel straight, junction: 3 tiles + 2 for the symbol."""
    placed = board((0, 5, "SW43", 0), (0, 6, "SW35", 0), (0, 7, "SW43", 0))
    region = placed.region(FeatureRef(0, 6, 0))
    assert region.complete and region.tiles == 3
    assert region.value(final=False) == 5


def test_an_open_route_scores_the_same_at_the_end() -> None:
    region = board((1, 0, "SW36", 90)).region(FeatureRef(0, 0, 1))
    assert not region.complete
    assert region.value(final=True) == region.value(final=False) == 2 + 2


def test_a_field_enclosed_by_several_tiles() -> None:
    """Start tile's field N, a three-sided field, two ends and a corner: closed."""
    field = board(
        (0, -1, "SW30", 180),  # three sides E, S, W
        (-1, -1, "SW13", 90),  # end facing E
        (1, -1, "SW13", 270),  # end facing W
    ).region(FeatureRef(0, 0, 0))
    assert field.complete and field.tiles == 4 and field.symbols == ()
    assert field.value(final=False) == 8


def test_an_open_field_scores_half_at_the_end() -> None:
    field = board((0, -1, "SW14", 90)).region(FeatureRef(0, 0, 0))  # rebel band N-S
    assert not field.complete and field.tiles == 2
    assert field.value(final=True) == 2 + 2
    assert field.value(final=False) == 4 + 2


def test_two_fields_on_one_tile_stay_apart() -> None:
    placed = board((0, -1, "SW17", 0))
    assert placed.region(FeatureRef(0, -1, 0)) is not placed.region(FeatureRef(0, -1, 1))
    assert placed.region(FeatureRef(0, -1, 1)) is placed.region(FeatureRef(0, 0, 0))


def test_a_planet_surrounded_by_8_tiles_scores_11() -> None:
    state = position(
        [
            (0, 1, "SW02", 0),
            (-1, 0, "SW34", 90),
            (1, 0, "SW34", 90),
            (-1, 1, "SW13", 180),
            (-1, 2, "SW13", 0),
            (1, 1, "SW13", 180),
            (1, 2, "SW13", 0),
            (0, 2, "SW04", 0),
        ],
        [("white", "small", 0, 1, None)],
        placed=(0, 2),
        active=0,
    )
    after, events = deploy(state)
    scored = of_type(events, FeatureScored)
    assert [(e.kind, e.unit, e.points) for e in scored] == [(Kind.PLANET, "white", 11)]
    assert score(after, "white") == 11


def test_an_open_planet_scores_1_per_surrounding_tile_plus_itself_and_its_symbol() -> None:
    state = position(
        [(0, 1, "SW02", 0), (1, 0, "SW34", 90)],
        [("red", "small", 0, 1, None), ("white", "small", 1, 0, 0)],
    )
    finals = {(e.kind, e.unit): e.points for e in final_scores(state)}
    assert finals == {(Kind.PLANET, "red"): 1 + 2 + 2, (Kind.ROUTE, "white"): 2}


def test_battle_odds_are_exact() -> None:
    win, points = battle_odds({"a": 1, "b": 1})
    assert abs(win["a"] - 0.5) < 1e-12
    assert abs(points["a"] - (0.5 + (1 / 6) / (5 / 6))) < 1e-12
    # 2 dice against 1: P(max of 2 > 1 die) / P(not a tie), ties replayed.
    strict = sum((f / 6) ** 2 - ((f - 1) / 6) ** 2 for f in range(1, 7) for g in range(1, f)) / 6
    tie = sum(((f / 6) ** 2 - ((f - 1) / 6) ** 2) / 6 for f in range(1, 7))
    win, points = battle_odds({"a": 2, "b": 1})
    assert abs(win["a"] - strict / (1 - tie)) < 1e-12
    assert abs(sum(win.values()) - 1) < 1e-12
    assert points["b"] > points["a"] > 0
    three, _ = battle_odds({"a": 3, "b": 1, "c": 2})
    assert abs(sum(three.values()) - 1) < 1e-12
    assert three["a"] > three["c"] > three["b"]
