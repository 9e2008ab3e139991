"""Shapes, orientations, placements and their legality: ruins forcing, the 1×1 fallback
(offered only when nothing fits), coins from coin shapes and from surrounded mountains."""

from __future__ import annotations

import pytest

from engine.cartographers.components import (
    AMBUSH_CARDS,
    EXPLORE_BY_ID,
    EXPLORE_CARDS,
    MAP_SIDES,
    Side,
    Terrain,
)
from engine.cartographers.geometry import Orientation, Shape, label, parse_label, spots
from engine.cartographers.placement import (
    Offer,
    Placement,
    analyse,
    can_draw_a_shape,
    legal_drawings,
    read_placement,
)
from engine.cartographers.sheet import MapSheet
from engine.core import IllegalAction, MalformedAction
from tests.engine.cartographers.helpers import labels, sheet, table

# --------------------------------------------------------------------------- components


def test_the_decks_hold_the_printed_cards() -> None:
    assert len(EXPLORE_CARDS) == 13
    assert sum(card.time for card in EXPLORE_CARDS) == 16
    assert [card.number for card in EXPLORE_CARDS] == list(range(5, 18))
    assert len(AMBUSH_CARDS) == 4
    for side in Side:
        printed = MAP_SIDES[side]
        assert len(printed.mountains) == 5 and len(printed.ruins) == 6
    assert len(MAP_SIDES[Side.B].wasteland) == 7
    blank = MapSheet.blank(Side.B)
    assert labels(blank.cells_of(Terrain.MOUNTAIN)) == {"I2", "D3", "F8", "J9", "C10"}
    assert labels(frozenset(i for i in range(121) if blank.is_ruins(i))) == {
        "G2",
        "C3",
        "G5",
        "B7",
        "I8",
        "D10",
    }


@pytest.mark.parametrize(
    ("card", "shape", "orientations"),
    [
        ("great_river", 0, 2),
        ("great_river", 1, 4),
        ("farmland", 0, 2),
        ("farmland", 1, 1),
        ("hamlet", 0, 4),
        ("hamlet", 1, 8),
        ("forgotten_forest", 0, 2),
        ("forgotten_forest", 1, 4),
        ("hinterland_stream", 0, 4),
        ("homestead", 0, 4),
        ("orchard", 0, 8),
        ("treetop_village", 0, 8),
        ("marshlands", 0, 4),
        ("fishing_village", 0, 2),
        ("rift_lands", 0, 1),
    ],
)
def test_rotations_and_flips_are_deduplicated(card: str, shape: int, orientations: int) -> None:
    assert len(EXPLORE_BY_ID[card].shapes[shape].orientations()) == orientations


def test_orientation_is_flip_then_clockwise_rotation() -> None:
    ell = Shape.parse("###/#..")
    assert ell.turned(Orientation(90)).pattern() == "##/.#/.#"
    assert ell.turned(Orientation(0, flip=True)).pattern() == "###/..#"
    assert ell.turned(Orientation(90, flip=True)).pattern() == ".#/.#/##"
    assert ell.turned(Orientation(360 - 90)).turned(Orientation(90)) == ell


def test_cell_labels_round_trip() -> None:
    assert label(0) == "A1" and label(120) == "K11" and label(3 * 11 + 2) == "C4"
    assert all(parse_label(label(index)) == index for index in range(121))
    assert parse_label("c4") == 3 * 11 + 2
    assert parse_label("L1") is None and parse_label("A12") is None and parse_label("4C") is None


def test_empty_map_placement_counts_by_hand() -> None:
    # 2 orientations × (11 × 8) for a line of four; 1 × 9 × 9 for the plus
    assert len(spots(Shape.parse("####"))) == 176
    assert len(spots(Shape.parse(".#./###/.#."))) == 81
    assert len(spots(Shape.parse("##"))) == 220


# --------------------------------------------------------------------------- reading


RIVER = Offer.explore(EXPLORE_BY_ID["great_river"], ruins=False)
STREAM = Offer.explore(EXPLORE_BY_ID["hinterland_stream"], ruins=False)


def test_a_placement_reads_from_anchor_or_cells_to_the_same_drawing() -> None:
    board = sheet()
    by_anchor = read_placement(
        {"terrain": "farm", "shape": 0, "rotation": 90, "flip": True, "at": "C4"}, STREAM
    )
    drawing = analyse(board, STREAM, by_anchor)
    # ###/#../#.. flipped is ###/..#/..#, turned 90° clockwise is ..#/..#/### at C4
    assert labels(drawing.cells) == {"E4", "E5", "C6", "D6", "E6"}
    by_cells = read_placement(
        {"terrain": "farm", "shape": 0, "cells": ["E4", "E5", "C6", "D6", "E6"]}, STREAM
    )
    assert analyse(board, STREAM, by_cells) == drawing
    assert str(drawing.placement) in {"farm 1 r180 C4", "farm 1 r90 flip C4"}
    # the canonical placement is the first orientation (in r0…r270, then flipped) to fit
    assert drawing.placement.orientation == Orientation(180)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"terrain": "lava", "at": "A1"}, MalformedAction),
        ({"terrain": "forest", "at": "A1"}, IllegalAction),
        ({"terrain": "water", "shape": 2, "at": "A1"}, MalformedAction),
        ({"terrain": "water", "at": "Z9"}, MalformedAction),
        ({"terrain": "water", "rotation": 45, "at": "A1"}, MalformedAction),
        ({"terrain": "water", "at": "A1", "colour": "blue"}, MalformedAction),
        ({"terrain": "water", "cells": ["A1", "A2", "B2"]}, IllegalAction),
        ({"terrain": "water", "cells": ["A1"], "at": "A1"}, MalformedAction),
        ({"terrain": "water", "fallback": True, "shape": 0, "at": "A1"}, MalformedAction),
        ("water A1", MalformedAction),
    ],
)
def test_unreadable_or_unoffered_placements_are_refused(data: object, error: type) -> None:
    with pytest.raises(error):
        read_placement(data, RIVER)


def test_errors_carry_a_message_id_and_a_readable_reason() -> None:
    with pytest.raises(IllegalAction) as caught:
        read_placement({"terrain": "forest", "at": "A1"}, RIVER, seat="1")
    assert caught.value.message == "terrain_not_offered"
    assert caught.value.params == {"terrain": "forest", "card": "great_river", "choices": "water"}
    assert caught.value.reason == "You cannot draw forest now; the choices are: water."


# --------------------------------------------------------------------------- legality


def test_shapes_may_not_leave_the_map_or_cover_filled_cells() -> None:
    board = MapSheet.blank(Side.A)
    line = Placement(Terrain.WATER, 0, Orientation(), parse_label("J1") or 0)
    with pytest.raises(IllegalAction, match="runs off the map"):
        analyse(board, RIVER, line)
    on_mountain = Placement(Terrain.WATER, 0, Orientation(), parse_label("C2") or 0)
    with pytest.raises(IllegalAction, match="D2"):
        analyse(board, RIVER, on_mountain)
    on_ruins = Placement(Terrain.WATER, 0, Orientation(), parse_label("E2") or 0)
    assert labels(analyse(board, RIVER, on_ruins).cells) == {"E2", "F2", "G2"}


def test_ruins_force_a_shape_over_an_open_ruins_cell() -> None:
    board = MapSheet.blank(Side.A)
    ruined = Offer.explore(EXPLORE_BY_ID["great_river"], ruins=True)
    away = Placement(Terrain.WATER, 0, Orientation(), parse_label("A1") or 0)
    with pytest.raises(IllegalAction, match="ruins"):
        analyse(board, ruined, away)
    over = analyse(
        board, ruined, Placement(Terrain.WATER, 0, Orientation(), parse_label("E2") or 0)
    )
    assert "F2" in labels(over.cells)
    drawings = legal_drawings(board, ruined, Terrain.WATER, 0)
    assert drawings and all(board.open_ruins_mask & d.mask for d in drawings)
    assert len(drawings) == len({d.cells for d in drawings})


def test_after_ruins_with_no_open_ruins_the_1x1_of_any_terrain_is_the_only_choice() -> None:
    board = MapSheet(MapSheet.blank(Side.A).grid.replace("R", "t"))
    ruined = Offer.explore(EXPLORE_BY_ID["great_river"], ruins=True)
    assert not can_draw_a_shape(board, ruined)
    assert legal_drawings(board, ruined, Terrain.WATER, 0) == []
    village = legal_drawings(board, ruined, Terrain.VILLAGE, None)
    assert len(village) == len(board.empty_cells) == 121 - 5 - 6
    single = Placement(Terrain.VILLAGE, None, Orientation(), parse_label("A1") or 0)
    assert analyse(board, ruined, single).cells == (0,)


def test_after_ruins_a_shape_that_fits_elsewhere_but_not_on_ruins_gives_the_fallback() -> None:
    # the only open ruins cell B2 is boxed in: a line of three fits elsewhere, not over it
    board = sheet(
        ". T . . .",
        "T R T . .",
        ". T . . .",
    )
    ruined = Offer.explore(EXPLORE_BY_ID["fishing_village"], ruins=True)
    assert legal_drawings(board, ruined, Terrain.WATER, 0) == []
    assert len(legal_drawings(board, ruined, Terrain.FOREST, None)) == len(board.empty_cells)
    # without ruins, the same shape fits, so no fallback
    plain = Offer.explore(EXPLORE_BY_ID["fishing_village"], ruins=False)
    assert legal_drawings(board, plain, Terrain.WATER, None) == []


CROWDED_THREES = sheet(
    "W W W . W W W W W W W",
    "W . W W W . W W W W W",
    "W W W W W W W W W W W",
    "W W W W W W W W W W W",
    "W W W W W W W W W W W",
    "W W W W W W W W W W W",
    "W W W W W W W W W W W",
    "W W W W W W W W W W W",
    "W W W W W W W W W W W",
    "W W W W W W W W W W W",
    ". . . W W W W W W W W",
)


def test_the_fallback_is_refused_while_any_shape_of_the_card_fits() -> None:
    river = Offer.explore(EXPLORE_BY_ID["great_river"], ruins=False)
    # A11–C11 still takes the straight river, though the bent one fits nowhere
    assert legal_drawings(CROWDED_THREES, river, Terrain.WATER, 1) == []
    assert len(legal_drawings(CROWDED_THREES, river, Terrain.WATER, 0)) == 1
    single = Placement(Terrain.WATER, None, Orientation(), parse_label("D1") or 0)
    with pytest.raises(IllegalAction, match="still fits"):
        analyse(CROWDED_THREES, river, single)
    assert legal_drawings(CROWDED_THREES, river, Terrain.WATER, None) == []


def test_the_fallback_is_any_empty_cell_with_a_terrain_of_the_card_when_nothing_fits() -> None:
    fishing = Offer.explore(EXPLORE_BY_ID["fishing_village"], ruins=False)
    assert not can_draw_a_shape(CROWDED_THREES, fishing)
    fallbacks = legal_drawings(CROWDED_THREES, fishing, Terrain.VILLAGE, None)
    assert {label(d.cells[0]) for d in fallbacks} == {"D1", "B2", "F2", "A11", "B11", "C11"}
    assert legal_drawings(CROWDED_THREES, fishing, Terrain.FOREST, None) == []
    with pytest.raises(IllegalAction):
        read_placement({"terrain": "forest", "fallback": True, "at": "D1"}, fishing)
    with pytest.raises(IllegalAction, match="already filled"):
        analyse(
            CROWDED_THREES,
            fishing,
            Placement(Terrain.WATER, None, Orientation(), parse_label("E1") or 0),
        )


def test_legal_placements_lists_each_set_of_cells_once_and_only_legal_ones() -> None:
    board = MapSheet.blank(Side.B)
    orchard = Offer.explore(EXPLORE_BY_ID["orchard"], ruins=False)
    drawings = legal_drawings(board, orchard, Terrain.FARM, 0)
    assert len({d.cells for d in drawings}) == len(drawings)
    assert all(not board.filled_mask & d.mask for d in drawings)
    for drawing in drawings[:: max(1, len(drawings) // 25)]:
        assert analyse(board, orchard, drawing.placement) == drawing


# --------------------------------------------------------------------------- coins


def test_coin_shapes_earn_a_coin_and_surrounding_a_mountain_earns_one_once() -> None:
    # Side A's mountain at F6 (row 5, col 5): three sides already drawn
    board = [
        "...........",
        "...M.R.....",
        ".R......MR.",
        "...........",
        ".....T.....",
        "....TM.....",
        ".....T.....",
        "...........",
        ".RM......R.",
        ".....R.M...",
        "...........",
    ]
    expedition = table(
        maps=[board],
        card="forgotten_forest",
        column=["forgotten_forest"],
        deck=["great_river", "hamlet", "farmland", "marshlands", "orchard", "homestead"],
    )
    # the coin shape (two diagonal cells) closes the mountain's east side: two coins
    events = expedition.place("1", {"terrain": "forest", "shape": 0, "cells": ["G6", "H7"]})
    assert expedition.state.player("1").coins == 2
    gained = [e for e in events if e.type == "coins"]
    assert [(e.to_json()["shape"], e.to_json()["mountains"]) for e in gained] == [(1, ["F6"])]
    # the surrounded mountain never pays again: a later drawing earns nothing
    assert expedition.state.card == "great_river"
    expedition.place("1", {"terrain": "water", "shape": 1, "at": "A5"})
    assert expedition.state.player("1").coins == 2


def test_one_drawing_can_surround_two_mountains_and_the_track_stops_at_fourteen() -> None:
    board = [
        "...........",
        "...........",
        "...T.T.....",
        "..TM.MT....",
        "...T.T.....",
        "...........",
        "...........",
        "...........",
        "...........",
        "...........",
        "...........",
    ]
    rest = ["great_river", "hamlet", "farmland", "marshlands", "orchard", "homestead"]
    for coins, expected in ((0, 2), (13, 14)):
        expedition = table(
            maps=[board], coins=[coins], card="rift_lands", column=["rift_lands"], deck=rest
        )
        events = expedition.place("1", {"terrain": "forest", "shape": 0, "at": "E4"})
        gained = [e.to_json() for e in events if e.type == "coins"]
        assert [(e["shape"], e["mountains"], e["coins"]) for e in gained] == [
            (0, ["D4", "F4"], expected)
        ]
        assert expedition.state.player("1").coins == expected


def test_analysing_a_placement_object_checks_its_terrain_and_shape_too() -> None:
    board = MapSheet.blank(Side.A)
    with pytest.raises(IllegalAction, match="cannot draw forest"):
        analyse(board, RIVER, Placement(Terrain.FOREST, 0, Orientation(), 0))
    with pytest.raises(MalformedAction):
        analyse(board, RIVER, Placement(Terrain.WATER, 5, Orientation(), 0))
