"""Ambushes: the solo scan of all four cards (positions worked out by hand), ignored
ambushes, ambush cards accumulating across seasons, and neighbour-drawn monsters."""

from __future__ import annotations

import pytest

from engine.cartographers.components import AMBUSH_BY_ID, Side, Terrain
from engine.cartographers.events import AmbushIgnored, MonsterPlaced, SeasonEnded
from engine.cartographers.placement import ambush_scan, solo_ambush
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import Phase
from engine.core import IllegalAction
from tests.engine.cartographers.helpers import labels, sheet, table

BORDER = "T T T T T T T T T T T"
SIDES = "T . . . . . . . . . T"
RING_ONE = "T T T T T T T T T T T"


def scan(card: str, board: MapSheet) -> set[str] | None:
    found = solo_ambush(board, AMBUSH_BY_ID[card])
    return None if found is None else labels(found)


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        # bottom-right corner: the diagonal's bounding box fills I9–K11
        ("goblin_attack", {"I9", "J10", "K11"}),
        # top-right corner: #.#/#.# in I1–K2
        ("bugbear_assault", {"I1", "K1", "I2", "K2"}),
        # bottom-left corner: #./##/#. in A9–B11
        ("kobold_onslaught", {"A9", "A10", "B10", "A11"}),
        # top-left corner: ##/#./## in A1–B3
        ("gnoll_raid", {"A1", "B1", "A2", "A3", "B3"}),
    ],
)
def test_on_an_empty_map_each_ambush_lands_in_its_corner(card: str, expected: set[str]) -> None:
    assert scan(card, sheet()) == expected
    assert scan(card, MapSheet.blank(Side.A)) == expected


def test_goblin_attack_walks_into_the_second_ring_when_the_border_is_full() -> None:
    board = sheet(
        BORDER,
        SIDES,
        SIDES,
        SIDES,
        SIDES,
        SIDES,
        SIDES,
        SIDES,
        SIDES,
        "T . . . . . . . . T T",
        BORDER,
    )
    # every border spot is blocked (the diagonal always has a cell on the border); ring 1
    # starts at its bottom-right corner H8–J10, blocked by J10, then slides up: H7–J9
    assert scan("goblin_attack", board) == {"H7", "I8", "J9"}


def test_bugbear_assault_slides_down_the_right_edge_past_side_a_mountain() -> None:
    board = MapSheet(MapSheet.blank(Side.A).grid[:10] + "T" + MapSheet.blank(Side.A).grid[11:])
    assert board.code(10) == "T"
    # K1 is filled; one step down (I2–K3) and two (I3–K4) hit the mountain at I3
    assert scan("bugbear_assault", board) == {"I4", "K4", "I5", "K5"}


def test_kobold_onslaught_climbs_the_left_edge_then_turns_along_the_top() -> None:
    grid = list(MapSheet.blank(Side.A).grid)
    for row in range(11):
        grid[row * 11] = "V"
    board = MapSheet("".join(grid))
    # column A is full; the first spot off it is at the top-left turn, B1–C3, and it
    # may cover the open ruins at B3
    assert scan("kobold_onslaught", board) == {"B1", "B2", "C2", "B3"}


def test_gnoll_raid_reaches_the_third_ring_and_turns_down_its_left_side() -> None:
    middle = "T T . . . . . . . T T"
    board = sheet(
        RING_ONE,
        RING_ONE,
        "T T T . . . . . . T T",
        middle,
        middle,
        middle,
        middle,
        middle,
        middle,
        RING_ONE,
        RING_ONE,
    )
    # rings 0 and 1 are full, and so is C3, ring 2's top-left corner: counter-clockwise
    # from there runs down ring 2's left side: C4–D6
    assert scan("gnoll_raid", board) == {"C4", "D4", "C5", "C6", "D6"}


def test_an_ambush_that_fits_nowhere_is_ignored() -> None:
    # every other row is filled: each monster spans at least two rows
    stripes = "".join(("T" if row % 2 else ".") * 11 for row in range(11))
    board = MapSheet(stripes)
    for card in AMBUSH_BY_ID:
        assert scan(card, board) is None


def test_the_scan_visits_every_placement_once_ring_by_ring() -> None:
    for ambush in AMBUSH_BY_ID.values():
        order = ambush_scan(ambush)
        shape = ambush.shape
        assert len(order) == (12 - shape.height) * (12 - shape.width)
        assert len({mask for _, mask in order}) == len(order)
        rings = [ring for ring, _ in order]
        assert rings == sorted(rings)


# --------------------------------------------------------------------------- in a game


REST = ["great_river", "hamlet", "farmland", "marshlands", "orchard", "homestead"]


def test_solo_ambush_is_drawn_after_the_turn_and_ruins_carry_over() -> None:
    expedition = table(
        card="great_river",
        column=["great_river"],
        deck=["temple_ruins", "gnoll_raid", "hamlet", *REST[2:]],
        ambush_deck=["goblin_attack"],
    )
    events = expedition.place("1", {"terrain": "water", "shape": 0, "at": "E8"})
    placed = [e for e in events if isinstance(e, MonsterPlaced)]
    assert [(e.card, set(e.cells)) for e in placed] == [
        ("gnoll_raid", {"A1", "B1", "A2", "A3", "B3"})
    ]
    sheet_ = expedition.state.player("1").sheet
    assert sheet_.code(2 * 11 + 1) == "x"  # the monster drew on the ruins at B3
    assert expedition.state.card == "hamlet" and expedition.state.ruins
    assert expedition.state.ambushes_out == ("gnoll_raid",)


def test_unrevealed_ambushes_stay_in_the_deck_and_another_joins_each_season() -> None:
    expedition = table(
        card="great_river",
        column=["hinterland_stream", "orchard", "treetop_village", "farmland", "great_river"],
        deck=["hamlet", "goblin_attack"],
        ambush_deck=["gnoll_raid", "bugbear_assault"],
    )
    events = expedition.place("1", {"terrain": "water", "shape": 0, "at": "E8"})
    ended = [e for e in events if isinstance(e, SeasonEnded)]
    assert [(e.season, e.next_season, e.deck_size, e.ambushes) for e in ended] == [
        ("spring", "summer", 15, 2)
    ]
    state = expedition.state
    in_deck = [card for card in state.deck if card in AMBUSH_BY_ID]
    # (summer's first reveals may already have turned one of them over)
    assert sorted([*in_deck, *state.ambushes_out]) == ["gnoll_raid", "goblin_attack"]
    assert expedition.view("1").ambushes_in_deck == len(in_deck)
    assert state.ambush_deck == ("bugbear_assault",)


def test_an_ignored_ambush_leaves_the_game_all_the_same() -> None:
    checker = ["".join("T" if (row + col) % 2 else "." for col in range(11)) for row in range(11)]
    expedition = table(
        maps=[checker],
        card="rift_lands",
        column=["rift_lands"],
        deck=["bugbear_assault", *REST],
    )
    events = expedition.place("1", {"terrain": "forest", "at": "A1"})
    assert [e.card for e in events if isinstance(e, AmbushIgnored)] == ["bugbear_assault"]
    assert expedition.state.ambushes_out == ("bugbear_assault",)


# --------------------------------------------------------------------------- neighbours


def test_neighbours_draw_the_monster_on_the_map_passed_to_them() -> None:
    expedition = table(
        seats=3,
        ambush="neighbour",
        card="great_river",
        column=["great_river"],
        deck=["bugbear_assault", "goblin_attack", *REST],
    )
    for seat in ("1", "2", "3"):
        expedition.place(seat, {"terrain": "water", "shape": 0, "at": "E8"})
    state = expedition.state
    assert state.phase is Phase.AMBUSH and state.card == "bugbear_assault"
    # bugbear's arrow is clockwise: maps pass to the next seat, so 2 holds 1's map
    assert [state.target_of(seat) for seat in ("1", "2", "3")] == ["3", "1", "2"]
    with pytest.raises(IllegalAction):
        expedition.place("1", {"terrain": "water", "shape": 0, "at": "A1"})
    expedition.draw_monster("2", {"shape": 0, "rotation": 90, "at": "A1"})
    # the pending monster is secret: no view shows it but the drawer's own
    assert expedition.view("1").my_drawing is None
    assert expedition.view("3").to_json()["my_drawing"] is None
    assert expedition.view("2").my_drawing is not None
    assert "commits" not in expedition.view(None).to_json()
    for seat in ("1", "2", "3", None):
        assert expedition.view(seat).player("1").sheet.cells_of(Terrain.MONSTER) == ()
    expedition.draw_monster("1", {"terrain": "monster", "cells": ["J9", "K9", "J11", "K11"]})
    expedition.draw_monster("3", {"shape": 0, "at": "A1"})
    state = expedition.state
    # bugbear #.#/#.# turned 90°: ##/../## at A1
    assert labels(state.player("1").sheet.cells_of(Terrain.MONSTER)) == {"A1", "B1", "A3", "B3"}
    assert labels(state.player("3").sheet.cells_of(Terrain.MONSTER)) == {"J9", "K9", "J11", "K11"}
    assert labels(state.player("2").sheet.cells_of(Terrain.MONSTER)) == {"A1", "C1", "A2", "C2"}
    # the next card is another ambush, goblin's arrow is counter-clockwise
    assert state.phase is Phase.AMBUSH and state.card == "goblin_attack"
    assert [state.target_of(seat) for seat in ("1", "2", "3")] == ["2", "3", "1"]


def test_a_neighbour_draws_a_1x1_monster_only_when_the_shape_fits_nowhere() -> None:
    checker = ["".join("T" if (row + col) % 2 else "." for col in range(11)) for row in range(11)]
    blank = list(MapSheet.blank(Side.A).rows())
    expedition = table(
        seats=2,
        ambush="neighbour",
        phase="ambush",
        card="gnoll_raid",
        column=[],
        deck=REST,
        maps=[checker, blank],
    )
    # seat 2 holds seat 1's checkered map: nothing fits, the 1×1 is the only drawing
    assert expedition.state.target_of("2") == "1"
    assert expedition.legal_placements("2", "monster", 0) == []
    singles = expedition.legal_placements("2", "monster", None)
    assert len(singles) == 61
    with pytest.raises(IllegalAction):
        expedition.draw_monster("1", {"fallback": True, "at": "A1"})
    expedition.draw_monster("1", {"shape": 0, "at": "E5"})
    expedition.draw_monster("2", {"fallback": True, "at": "A1"})
    assert labels(expedition.state.player("1").sheet.cells_of(Terrain.MONSTER)) == {"A1"}
