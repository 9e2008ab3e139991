"""The sixteen scoring cards on hand-made maps with answers worked out by hand, including
every ruling of spec §3."""

from __future__ import annotations

import pytest

from engine.cartographers.components import SCORING_CARDS, Side
from engine.cartographers.scoring import broken_road_diagonals, score, score_all
from engine.cartographers.sheet import MapSheet
from tests.engine.cartographers.helpers import labels, sheet


def check(card: str, board: MapSheet, points: int, scored: set[str]) -> None:
    result = score(card, board)
    assert (result.points, labels(result.cells)) == (points, scored)


# --------------------------------------------------------------------------- forest


def test_sentinel_wood_counts_forest_on_the_edge_only() -> None:
    board = sheet(
        "T T . . . . . . . . T",
        ". T . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        "T . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . T .",
        ". . . . . T . . . . .",
    )
    check("sentinel_wood", board, 5, {"A1", "B1", "K1", "A6", "F11"})


def test_greenbough_counts_rows_and_columns_once_each() -> None:
    board = sheet(
        "T . . .",
        ". T . .",
        ". . . .",
        ". . . .",
        ". T . .",
    )
    # rows 1, 2, 5 and columns A, B
    check("greenbough", board, 5, {"A1", "B2", "B5"})
    check("greenbough", sheet(), 0, set())


def test_treetower_edges_count_as_filled_and_open_ruins_as_empty() -> None:
    board = sheet(
        "T V . . . . . . . . .",
        "F . V . . . . . . . .",
        ". W T W . . . . . . .",
        ". . R . V . . . . . .",
        ". . . M T W . . . . .",
        ". . . . X . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . T T",
    )
    # A1: two sides off the map, B1 and A2 filled. E5: four filled sides. C3: its
    # south side is an unfilled ruins cell, which is empty. J11 and K11 touch empty cells.
    check("treetower", board, 2, {"A1", "E5"})
    drawn_ruins = MapSheet(board.grid.replace("R", "v"))
    check("treetower", drawn_ruins, 3, {"A1", "C3", "E5"})
    corner = sheet(*board.rows()[:9], ". . . . . . . . . . F", ". . . . . . . . . T T")
    # K11 in the corner: K10 filled, J11 filled, two sides off the map
    check("treetower", corner, 3, {"A1", "E5", "K11"})


def test_stoneside_forest_scores_each_linked_mountain_once() -> None:
    board = sheet(
        ". . . . . . . . . . .",
        ". M T T T M T T T M .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . M T . . . .",
        ". . . . . . T . . . .",
        ". . . . . . T . . . .",
        ". . . . . . T T M . .",
        ". . . . . . . . T . .",
        ". . . . . . . . . . .",
    )
    # C2–E2 links B2 and F2; G2–I2 links F2 (again) and J2; G6–G9+H9 links F6 and I9;
    # I10 touches only I9. Five mountains, 3 each.
    forest = {"C2", "D2", "E2", "G2", "H2", "I2", "G6", "G7", "G8", "G9", "H9"}
    mountains = {"B2", "F2", "J2", "F6", "I9"}
    check("stoneside_forest", board, 15, forest | mountains)
    lone = sheet(". M T . M")
    check("stoneside_forest", lone, 0, set())


# --------------------------------------------------------------------------- farm and water


def test_canal_lake_counts_both_sides_of_each_bank() -> None:
    board = sheet(
        "W F . . .",
        "W . . . .",
        ". . F F W",
    )
    check("canal_lake", board, 4, {"A1", "B1", "D3", "E3"})


def test_mages_valley_weights_water_double() -> None:
    board = sheet(
        "W . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . W W . . . . .",
        ". . . . W M F . . . .",
        ". . . . . F . . . . .",
    )
    # water E6 and F5 touch the mountain (2 each); farm G6 and F7 (1 each); E5 is diagonal
    check("mages_valley", board, 6, {"E6", "F5", "G6", "F7"})


def test_golden_granary_uses_ruins_positions_filled_or_not() -> None:
    board = sheet(
        ". . . . . . . . . . .",
        "W R . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . F f . . . . . . .",
        ". . . W . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . w W . . .",
    )
    # A2 next to open ruins B2: 1; D5 next to the farmed ruins D4: 1; H7 next to the
    # watered ruins G7: 1; farm on ruins D4: 3. G7 (water on ruins) touches no ruins;
    # C4 is a farm next to ruins, not on them.
    check("golden_granary", board, 6, {"A2", "D5", "H7", "D4"})


def test_shoreside_expanse_needs_clusters_away_from_the_edge_and_each_other() -> None:
    board = sheet(
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . F F . F W . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . W . . . . . . . .",
        ". . . . . . . . . . .",
        "W . . . . . . . . . .",
        ". . . . F . . . . . .",
        ". . . . F . . . . . .",
    )
    # farm C3–D3 (alone inside): 3; water C7 (alone inside): 3; F3 and G3 touch each
    # other; A9 and E10–E11 touch the edge.
    check("shoreside_expanse", board, 6, {"C3", "D3", "C7"})


# --------------------------------------------------------------------------- village


def test_wildholds_scores_clusters_of_six_or_more() -> None:
    board = sheet(
        ". V V V V V V . . . .",
        ". . . . . . . . . . .",
        "V V V V V . . . . . .",
        ". . . . . . . . . . .",
        "V V V V V V V . . . .",
    )
    six = {"B1", "C1", "D1", "E1", "F1", "G1"}
    seven = {"A5", "B5", "C5", "D5", "E5", "F5", "G5"}
    check("wildholds", board, 16, six | seven)


def test_great_city_takes_the_largest_cluster_away_from_mountains() -> None:
    board = sheet(
        ". V V V V V . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". V V V V V V V . . .",
        ". . . . M . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . V V M .",
    )
    check("great_city", board, 5, {"B1", "C1", "D1", "E1", "F1"})
    no_city = sheet(". V M V V")
    check("great_city", no_city, 0, set())


def test_greengold_plains_counts_types_but_not_empty_ruins_or_edge() -> None:
    board = sheet(
        ". T . . . . . # . . .",
        ". V V W . . X V T . .",
        ". M . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . F . . . . .",
        ". . . . . V F . . . .",
        ". . . . . R . . . . .",
        ". . . . . . . . . X .",
        ". . . . . . . . F V T",
        ". . . . . . . . . R .",
    )
    # B2–C2: forest, water, mountain → 3. H2: wasteland, monster, forest → 0 (wasteland
    # is filled but no terrain type). F6: farm only (open ruins and empty cells do not
    # count) → 0. J9: monster, farm, forest (the ruins below is open) → 3.
    check("greengold_plains", board, 6, {"B2", "C2", "J9"})


def test_greengold_plains_does_not_count_wasteland_as_a_terrain_type() -> None:
    board = sheet(
        ". T . . .",
        "# V W . .",
    )
    check("greengold_plains", board, 0, set())
    board_with_mountain = sheet(
        ". T . . .",
        "# V W . .",
        ". M . . .",
    )
    check("greengold_plains", board_with_mountain, 3, {"B2"})


def test_shieldgate_takes_the_second_cluster_even_when_tied_with_the_first() -> None:
    tied = sheet(
        "V V V V V . . . . . .",
        ". . . . . . . . . . .",
        "V V V V V . . . . . .",
        ". . . . . . . . . . .",
        "V V V . . . . . . . .",
    )
    # two clusters of 5: the second counts (the lower one, ordered by first cell)
    check("shieldgate", tied, 10, {"A3", "B3", "C3", "D3", "E3"})
    ordered = sheet("V V V V V V . . . . .", ". . . . . . . . . . .", "V V . V V V V . . . .")
    check("shieldgate", ordered, 8, {"D3", "E3", "F3", "G3"})
    check("shieldgate", sheet("V V V"), 0, set())
    check("shieldgate", sheet(), 0, set())


# --------------------------------------------------------------------------- placement


def test_borderlands_counts_complete_rows_and_columns() -> None:
    board = sheet(
        "T V F W X M # t v f w",
        ". . . . . . . . . . T",
        ". . . . . . . . . . T",
        ". . . . . . . . . . T",
        ". . . . . . . . . . T",
        ". . . . . . . . . . T",
        ". . . . . . . . . . T",
        ". . . . . . . . . . T",
        ". . . . . . . . . . T",
        ". . . . . . . . . . T",
        "T T T T T R T T T T T",
    )
    # row 1 (every kind of filled cell) and column K; row 11 has an open ruins cell
    row_one = {f"{letter}1" for letter in "ABCDEFGHIJK"}
    column_k = {f"K{number}" for number in range(1, 12)}
    check("borderlands", board, 12, row_one | column_k)


def test_lost_barony_counts_mountains_in_the_square() -> None:
    board = sheet(
        ". . . . . . . . . . .",
        ". T T T . . . . F F .",
        ". T M T . . . . F F .",
        ". T T # . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . T T T T .",
        ". . . . . . T T T T .",
        ". . . . . . T T R T .",
        ". . . . . . T T T T .",
    )
    # B2–D4 is a 3×3 square with a mountain and wasteland in it; the 4×4 at G7–J10
    # has an open ruins cell, so its best squares are 2×2 (and 3×3 nowhere).
    square = {f"{letter}{number}" for letter in "BCD" for number in (2, 3, 4)}
    check("lost_barony", board, 9, square)
    filled = MapSheet(board.grid.replace("R", "t"))
    big = {f"{letter}{number}" for letter in "GHIJ" for number in (7, 8, 9, 10)}
    check("lost_barony", filled, 12, big)
    check("lost_barony", sheet(), 0, set())


def test_broken_road_has_eleven_diagonals_from_the_left_edge_to_the_bottom() -> None:
    diagonals = broken_road_diagonals()
    assert [len(diagonal) for diagonal in diagonals] == list(range(11, 0, -1))
    assert labels(diagonals[0]) == {f"{letter}{n}" for n, letter in enumerate("ABCDEFGHIJK", 1)}
    assert labels(diagonals[10]) == {"A11"}
    board = sheet(
        "T . . . . . . . . . .",
        ". T . . . . . . . . .",
        ". . T . . . . . . . .",
        ". . . M . . . . . . .",
        ". . . . T . . . . . .",
        "F . . . . T . . . . .",
        ". F . . . . T . . . .",
        ". . M . . . . T . . .",
        ". . . F . . . . T . .",
        "F . . . w . . . . T .",
        "F . . . . F . . . . T",
    )
    # the long diagonal A1–K11 (with a mountain), A6–F11 (with a mountain and drawn
    # ruins E10) and the single cell A11; A10–B11 misses B11
    long = {f"{letter}{n}" for n, letter in enumerate("ABCDEFGHIJK", 1)}
    six = {"A6", "B7", "C8", "D9", "E10", "F11"}
    check("broken_road", board, 9, long | six | {"A11"})


def test_cauldrons_counts_enclosed_empty_cells_edges_and_open_ruins() -> None:
    board = sheet(
        ". T . . . . . . . . .",
        "T . T . . . . . . . .",
        ". T . . W . . . . . .",
        ". . . W R W . . . . .",
        ". . . . W . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        "F . . . . . . . . . .",
        ". F . . . . . . . . .",
    )
    # B2 (four filled sides), A1 (two filled, two off the map), E4 (open ruins, empty,
    # enclosed), A11 (corner). C1 touches the empty D1.
    check("cauldrons", board, 4, {"A1", "B2", "E4", "A11"})


def test_every_card_has_a_scorer_and_scores_a_blank_side_b_map() -> None:
    results = {result.card: result.points for result in score_all(MapSheet.blank(Side.B))}
    assert set(results) == {card.id for card in SCORING_CARDS}
    # only the printed cells can score on a blank sheet: no row, column or diagonal is
    # complete; the largest filled square is the 2×2 of wasteland; no enclosed empty cell
    assert results["lost_barony"] == 6
    assert sum(results.values()) == 6


@pytest.mark.parametrize("card", [card.id for card in SCORING_CARDS])
def test_no_card_scores_an_empty_map(card: str) -> None:
    assert score(card, sheet()).points == 0
