"""The sixteen scoring cards (spec §1 table, §3 rulings): each returns the stars a map
earns and the cells that earned them, so a renderer can highlight why.

"Filled" means anything drawn or printed (mountains, wasteland, drawn terrain, including
drawn ruins); an unfilled ruins cell is empty. Adjacent means sharing a side; a cluster
is an orthogonally connected group of one terrain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.cartographers.components import SCORING_BY_ID, Terrain
from engine.cartographers.geometry import SIZE, cell, label, neighbours, on_edge, row_col
from engine.cartographers.sheet import MapSheet
from engine.core import JSON


@dataclass(frozen=True)
class Score:
    """What one scoring card gives a map: the stars and the cells that earned them."""

    card: str
    points: int
    cells: frozenset[int]

    def to_json(self) -> dict[str, JSON]:
        return {
            "card": self.card,
            "points": self.points,
            "cells": [label(i) for i in sorted(self.cells)],
        }


Scorer = Callable[[MapSheet], tuple[int, frozenset[int]]]


def _touches(sheet: MapSheet, index: int, *terrains: Terrain) -> bool:
    return any(sheet.terrains[other] in terrains for other in neighbours(index))


def _enclosed(sheet: MapSheet, index: int) -> bool:
    """All four sides filled or off the map."""
    return all(sheet.is_filled(other) for other in neighbours(index))


def _cluster_touches(sheet: MapSheet, group: frozenset[int], *terrains: Terrain) -> bool:
    return any(_touches(sheet, index, *terrains) for index in group)


def _largest_first(groups: Iterable[frozenset[int]]) -> list[frozenset[int]]:
    """Clusters by size, largest first; equal sizes by their first cell."""
    return sorted(groups, key=lambda group: (-len(group), min(group)))


# --------------------------------------------------------------------------- forest


def sentinel_wood(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """1 per forest cell on the map edge."""
    cells = frozenset(i for i in sheet.cells_of(Terrain.FOREST) if on_edge(i))
    return len(cells), cells


def greenbough(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """1 per row and 1 per column holding at least one forest cell."""
    forests = sheet.cells_of(Terrain.FOREST)
    rows = {row_col(i)[0] for i in forests}
    cols = {row_col(i)[1] for i in forests}
    return len(rows) + len(cols), frozenset(forests)


def treetower(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """1 per forest cell whose four sides are filled or the map edge."""
    cells = frozenset(i for i in sheet.cells_of(Terrain.FOREST) if _enclosed(sheet, i))
    return len(cells), cells


def stoneside_forest(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """3 per mountain joined to at least one other mountain by a forest cluster."""
    linked: set[int] = set()
    forests: set[int] = set()
    for group in sheet.clusters(Terrain.FOREST):
        touched = {
            other
            for index in group
            for other in neighbours(index)
            if sheet.terrains[other] == Terrain.MOUNTAIN
        }
        if len(touched) >= 2:
            linked |= touched
            forests |= group
    return 3 * len(linked), frozenset(linked | forests)


# --------------------------------------------------------------------------- farm and water


def canal_lake(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """1 per water cell next to a farm, 1 per farm cell next to water."""
    waters = {i for i in sheet.cells_of(Terrain.WATER) if _touches(sheet, i, Terrain.FARM)}
    farms = {i for i in sheet.cells_of(Terrain.FARM) if _touches(sheet, i, Terrain.WATER)}
    return len(waters) + len(farms), frozenset(waters | farms)


def mages_valley(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """2 per water cell next to a mountain, 1 per farm cell next to a mountain."""
    waters = {i for i in sheet.cells_of(Terrain.WATER) if _touches(sheet, i, Terrain.MOUNTAIN)}
    farms = {i for i in sheet.cells_of(Terrain.FARM) if _touches(sheet, i, Terrain.MOUNTAIN)}
    return 2 * len(waters) + len(farms), frozenset(waters | farms)


def golden_granary(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """1 per water cell next to a ruins position (filled or not), 3 per farm on ruins."""
    waters = {
        i
        for i in sheet.cells_of(Terrain.WATER)
        if any(sheet.is_ruins(other) for other in neighbours(i))
    }
    farms = {i for i in sheet.cells_of(Terrain.FARM) if sheet.is_ruins(i)}
    return len(waters) + 3 * len(farms), frozenset(waters | farms)


def shoreside_expanse(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """3 per farm cluster touching neither water nor the edge, 3 per water cluster
    touching neither farm nor the edge."""
    points = 0
    cells: set[int] = set()
    for terrain, other in ((Terrain.FARM, Terrain.WATER), (Terrain.WATER, Terrain.FARM)):
        for group in sheet.clusters(terrain):
            if any(on_edge(i) for i in group) or _cluster_touches(sheet, group, other):
                continue
            points += 3
            cells |= group
    return points, frozenset(cells)


# --------------------------------------------------------------------------- village

WILDHOLDS_SIZE = 6
GREENGOLD_TYPES = frozenset(
    {
        Terrain.FOREST,
        Terrain.FARM,
        Terrain.WATER,
        Terrain.MONSTER,
        Terrain.MOUNTAIN,
    }
)
"""The types Greengold Plains counts [ruling, spec §3]: the rulebook's terrain types other
than village. Wasteland is filled but is no terrain type; empty cells and ruins are not
either."""


def wildholds(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """8 per village cluster of six or more cells."""
    groups = [g for g in sheet.clusters(Terrain.VILLAGE) if len(g) >= WILDHOLDS_SIZE]
    return 8 * len(groups), frozenset(i for group in groups for i in group)


def great_city(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """1 per cell of the largest village cluster with no cell next to a mountain."""
    groups = [
        group
        for group in sheet.clusters(Terrain.VILLAGE)
        if not _cluster_touches(sheet, group, Terrain.MOUNTAIN)
    ]
    if not groups:
        return 0, frozenset()
    largest = _largest_first(groups)[0]
    return len(largest), largest


def greengold_plains(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """3 per village cluster next to at least three different terrain types."""
    points = 0
    cells: set[int] = set()
    for group in sheet.clusters(Terrain.VILLAGE):
        kinds = {
            sheet.terrains[other]
            for index in group
            for other in neighbours(index)
            if sheet.terrains[other] in GREENGOLD_TYPES
        }
        if len(kinds) >= 3:
            points += 3
            cells |= group
    return points, frozenset(cells)


def shieldgate(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """2 per cell of the second-largest village cluster (it may be as large as the
    largest) [ruling]; 0 with fewer than two clusters."""
    groups = _largest_first(sheet.clusters(Terrain.VILLAGE))
    if len(groups) < 2:
        return 0, frozenset()
    return 2 * len(groups[1]), groups[1]


# --------------------------------------------------------------------------- placement


def borderlands(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """6 per complete row or column of filled cells."""
    points = 0
    cells: set[int] = set()
    for line in range(SIZE):
        row = [cell(line, col) for col in range(SIZE)]
        col = [cell(r, line) for r in range(SIZE)]
        for cells_of_line in (row, col):
            if all(sheet.is_filled(i) for i in cells_of_line):
                points += 6
                cells.update(cells_of_line)
    return points, frozenset(cells)


def lost_barony(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """3 per cell along one side of the largest square of filled cells (the topmost,
    then leftmost, of the largest size is the one highlighted)."""
    best = 0
    best_corner = (0, 0)
    # side[r][c]: the largest filled square whose bottom-right corner is (r, c)
    side = [[0] * (SIZE + 1) for _ in range(SIZE + 1)]
    for row in range(SIZE):
        for col in range(SIZE):
            if sheet.is_filled(cell(row, col)):
                size = 1 + min(side[row][col + 1], side[row + 1][col], side[row][col])
                side[row + 1][col + 1] = size
                top, left = row - size + 1, col - size + 1
                if size > best or (size == best and (top, left) < best_corner):
                    best, best_corner = size, (top, left)
    if best == 0:
        return 0, frozenset()
    top, left = best_corner
    cells = frozenset(
        cell(row, col) for row in range(top, top + best) for col in range(left, left + best)
    )
    return 3 * best, cells


def broken_road_diagonals() -> tuple[tuple[int, ...], ...]:
    """The 11 diagonals: from (r, 0) stepping (+1, +1) to the bottom edge, r = 0…10."""
    return tuple(
        tuple(cell(start + step, step) for step in range(SIZE - start)) for start in range(SIZE)
    )


def broken_road(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """3 per complete diagonal of filled cells from the left edge to the bottom edge."""
    points = 0
    cells: set[int] = set()
    for diagonal in broken_road_diagonals():
        if all(sheet.is_filled(i) for i in diagonal):
            points += 3
            cells.update(diagonal)
    return points, frozenset(cells)


def cauldrons(sheet: MapSheet) -> tuple[int, frozenset[int]]:
    """1 per empty cell whose four sides are filled or the map edge."""
    cells = frozenset(i for i in sheet.empty_cells if _enclosed(sheet, i))
    return len(cells), cells


SCORERS: dict[str, Scorer] = {
    "sentinel_wood": sentinel_wood,
    "greenbough": greenbough,
    "treetower": treetower,
    "stoneside_forest": stoneside_forest,
    "canal_lake": canal_lake,
    "mages_valley": mages_valley,
    "golden_granary": golden_granary,
    "shoreside_expanse": shoreside_expanse,
    "wildholds": wildholds,
    "great_city": great_city,
    "greengold_plains": greengold_plains,
    "shieldgate": shieldgate,
    "borderlands": borderlands,
    "lost_barony": lost_barony,
    "broken_road": broken_road,
    "cauldrons": cauldrons,
}
assert set(SCORERS) == set(SCORING_BY_ID), "every scoring card needs its scorer"


def score(card_id: str, sheet: MapSheet) -> Score:
    """What the scoring card ``card_id`` gives ``sheet`` (KeyError for an unknown card)."""
    points, cells = SCORERS[card_id](sheet)
    return Score(card_id, points, cells)


def score_all(sheet: MapSheet) -> tuple[Score, ...]:
    """Every scoring card on one map, in card-number order."""
    return tuple(score(card_id, sheet) for card_id in SCORING_BY_ID)
