"""The text map and the turn in words: every tile drawn with its edges where its
neighbours meet them, maps that fit 80 columns, features named without ids or coordinates,
and what a placement or a deployment would join, score or fight."""

from __future__ import annotations

import re

import pytest

from engine.carcassonne import Placement, Size, view
from engine.carcassonne.ai import next_action, policy_for
from engine.carcassonne.battle import battle_odds
from engine.carcassonne.board import FeatureRef
from engine.carcassonne.components import Edge, Side, catalogue, tile_type
from engine.carcassonne.rules import legal_placements
from engine.carcassonne.table import Table
from engine.carcassonne.text import (
    FIELD,
    ROUTE_END,
    ROUTE_LINES,
    SPACE,
    deployment_text,
    feature_words,
    map_lines,
    placement_lines,
    tile_rows,
    tile_words,
)
from engine.core import Rng
from tests.engine.carcassonne.builders import position

NAMES = {"red": "Red (you)", "white": "White AI", "green": "Green AI", "black": "Black AI"}
MARKS = "REBIC"
EDGE_CELL = {Side.N: (0, 2), Side.E: (1, 4), Side.S: (2, 2), Side.W: (1, 0)}


@pytest.mark.parametrize("tile", [tile.id for tile in catalogue().tiles])
def test_every_tile_shows_each_edge_where_its_neighbour_meets_it(tile: str) -> None:
    kind = tile_type(tile)
    for rotation in range(4):
        rows = tile_rows(tile, rotation)
        assert [len(row) for row in rows] == [5, 5, 5]
        for side in Side:
            line, column = EDGE_CELL[side]
            shown = rows[line][column]
            edge = kind.edge(side, rotation)
            if edge is Edge.ROUTE:
                assert shown in ROUTE_LINES + MARKS, (tile, rotation, side, rows)
                assert ROUTE_END[side] == (line, column)
            elif edge is Edge.ASTEROID:
                assert shown in FIELD + MARKS, (tile, rotation, side, rows)
            else:
                assert shown == SPACE, (tile, rotation, side, rows)


def test_a_planet_shows_its_faction_and_meeples_their_players() -> None:
    rows = tile_rows("SW05", 0, [(None, "2"), (0, "①")])
    assert "(E)" in rows[1]
    assert "2" in "".join(rows) and "①" in rows[2]
    assert tile_rows("SW05", 0, locale="es")[1] == "·(I)·"


def test_features_are_named_as_a_player_says_them() -> None:
    assert feature_words("SW22", 1, 0) == "route, east end"
    assert feature_words("SW34", 0, 1) == "route, east–west"
    assert feature_words("SW25", 0, 0) == "asteroid field, north-east corner"
    assert feature_words("SW30", 0, 0) == "asteroid field, all but the south edge"
    assert feature_words("SW35", 0, 0) == "route, north–south (Rebel Alliance symbol)"
    assert feature_words("SW02", None, 0) == "planet (Rebel Alliance)"
    assert feature_words("SW22", 1, 0, "es") == "ruta, extremo este"
    assert feature_words("SW25", 0, 0, "it") == "campo di asteroidi, angolo nord-est"
    for tile in catalogue().tiles:
        for rotation in range(4):
            words = tile_words(tile.id, rotation)
            assert not re.search(r"SW\d|\d", words), words


def played_tables(seeds: range) -> list[Table]:
    tables = []
    for seed in seeds:
        table = Table.new(seats=3, seed=seed)
        step = 0
        while not table.is_over:
            step += 1
            seat_view = table.view(table.active)
            table.act(next_action(policy_for("random"), seat_view, Rng(seed, step)))
            if step == 60:
                tables.append(Table(table.game))
        tables.append(table)
    return tables


def test_every_map_fits_80_columns_and_says_what_lies_beyond() -> None:
    clipped = 0
    for table in played_tables(range(6)):
        seat_view = table.view(table.active)
        numbers = {seat: index for index, seat in enumerate(seat_view.seats, start=1)}
        spots = sorted({(p.x, p.y) for p in legal_placements(table.state)})
        last = seat_view.board.tiles[-1].square
        lines = map_lines(seat_view, numbers, spots=spots, last=last)
        assert all(len(line) <= 80 for line in lines), max(len(line) for line in lines)
        assert "v" in lines[0] and any(line.startswith(">") for line in lines)
        for number in range(1, len(spots) + 1):
            assert f"[{number}]" in "\n".join(lines) or "Beyond the screen" in lines[-1]
        clipped += lines[-1].startswith("Beyond the screen")
        for meeple in seat_view.meeples:
            assert str(numbers[meeple.seat]) in "\n".join(lines)
    assert clipped, "no map in these games is wider than the screen: pick wider ones"


def test_a_placement_says_what_it_completes_and_who_holds_it() -> None:
    """The start tile's asteroid field (north), held by White, closed by a field facing
    south above it: a field of 2 tiles, complete, worth 4."""
    state = position([], [("white", "small", 0, 0, 0)], current="SW13")
    lines = placement_lines(view(state, "red"), Placement(0, -1, 2), NAMES)
    assert lines == [
        "asteroid field, south: joins an asteroid field of 2 tiles, now complete and worth 4,"
        " held by White AI."
    ]


def test_a_placement_that_joins_two_holders_says_they_fight() -> None:
    state = position(
        [(2, 0, "SW38", 0)],
        [("white", "small", 0, 0, 1), ("red", "small", 2, 0, 0)],
        current="SW34",
    )
    [line] = placement_lines(view(state, "red"), Placement(1, 0, 1), NAMES)
    assert "joins a trade route of 3 tiles" in line and "held by Red (you), White AI" in line
    assert line.endswith("Its holders fight a battle for it.")


def test_an_attack_says_every_side_s_dice_and_the_chance_to_win() -> None:
    """A rebel planet held by White, attacked by Red from the tile below it: Red rolls 1
    die and 1 more for its faction's symbol in the feature, White 1."""
    state = position(
        [(1, -1, "SW02", 0), (1, 0, "SW34", 90)],
        [("white", "small", 1, -1, None)],
        placed=(1, 0),
    )
    seat_view = view(state, "red")
    text = deployment_text(seat_view, FeatureRef(1, -1, None), Size.SMALL, NAMES)
    chances, _ = battle_odds({"red": 2, "white": 1})
    percent = round(100 * chances["red"])
    assert (
        text == f"a battle: your 2 dice against White AI with 1 die; you win {percent}% of the time"
    )


def test_a_meeple_on_a_feature_it_completes_scores_at_once() -> None:
    state = position([(0, -1, "SW13", 180)], placed=(0, -1))
    text = deployment_text(view(state, "red"), FeatureRef(0, -1, 0), Size.SMALL, NAMES)
    assert text == "complete: you score 4 at once"
