"""A player's map sheet: what is drawn in each of its 121 cells (spec §1, §3).

The sheet is one immutable string of 121 codes, row by row, which is also its notation:
``.`` empty, ``R`` unfilled ruins, ``T`` forest, ``V`` village, ``F`` farm, ``W`` water,
``X`` monster, ``M`` mountain, ``#`` wasteland; a terrain drawn on ruins is written in
lower case (``f`` a farm on ruins). Mountains, wasteland and every drawn cell are filled;
an unfilled ruins cell is empty.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cartographers.components import (
    CODE_TERRAINS,
    DRAWABLE,
    EMPTY_CODE,
    MAP_SIDES,
    RUINS_CODE,
    Side,
    Terrain,
)
from engine.cartographers.geometry import CELLS, SIZE, cell, mask_of, neighbours
from engine.core import MalformedPosition

RUINS_TERRAIN_CODES = frozenset(terrain.code.lower() for terrain in DRAWABLE)
VALID_CODES = frozenset({EMPTY_CODE, RUINS_CODE, *CODE_TERRAINS, *RUINS_TERRAIN_CODES})


@dataclass(frozen=True)
class MapSheet:
    """One map sheet; ``grid`` holds the 121 cell codes, row by row."""

    grid: str

    def __post_init__(self) -> None:
        if len(self.grid) != CELLS:
            raise MalformedPosition(f"a map has {SIZE} rows of {SIZE} cells")
        wrong = sorted(set(self.grid) - VALID_CODES)
        if wrong:
            raise MalformedPosition(
                f"a map cell is one of {''.join(sorted(VALID_CODES))}, not {wrong[0]!r}"
            )

    # ----------------------------------------------------------------- construction

    @classmethod
    def blank(cls, side: Side) -> MapSheet:
        """A fresh sheet of side A or B: its mountains, ruins and wasteland."""
        printed = MAP_SIDES[side]
        codes = [EMPTY_CODE] * CELLS
        for row, col in printed.ruins:
            codes[cell(row, col)] = RUINS_CODE
        for row, col in printed.mountains:
            codes[cell(row, col)] = Terrain.MOUNTAIN.code
        for row, col in printed.wasteland:
            codes[cell(row, col)] = Terrain.WASTELAND.code
        return cls("".join(codes))

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> MapSheet:
        """A sheet from its 11 rows of 11 codes (spaces inside a row are ignored)."""
        if isinstance(rows, str) or len(rows) != SIZE:
            raise MalformedPosition(f"a map is a list of {SIZE} rows")
        cleaned = []
        for number, row in enumerate(rows, start=1):
            if not isinstance(row, str):
                raise MalformedPosition(f"map row {number} must be a string")
            text = row.replace(" ", "")
            if len(text) != SIZE:
                raise MalformedPosition(f"map row {number} has {len(text)} cells, not {SIZE}")
            cleaned.append(text)
        return cls("".join(cleaned))

    def rows(self) -> tuple[str, ...]:
        return tuple(self.grid[row * SIZE : (row + 1) * SIZE] for row in range(SIZE))

    # ----------------------------------------------------------------- reading cells

    def code(self, index: int) -> str:
        return self.grid[index]

    def terrain(self, index: int) -> Terrain | None:
        """The terrain in a cell (``None`` if it is empty, ruins or not)."""
        return _TERRAIN_OF_CODE[self.grid[index]]

    def is_ruins(self, index: int) -> bool:
        """Whether the cell is a ruins position, filled or not."""
        code = self.grid[index]
        return code == RUINS_CODE or code.islower()

    def is_filled(self, index: int) -> bool:
        return self.grid[index] not in _EMPTY_CODES

    @functools.cached_property
    def terrains(self) -> tuple[Terrain | None, ...]:
        return tuple(_TERRAIN_OF_CODE[code] for code in self.grid)

    @functools.cached_property
    def filled_mask(self) -> int:
        return mask_of(i for i, code in enumerate(self.grid) if code not in _EMPTY_CODES)

    @functools.cached_property
    def ruins_mask(self) -> int:
        """Every ruins position, filled or not."""
        return mask_of(
            i for i, code in enumerate(self.grid) if code == RUINS_CODE or code.islower()
        )

    @functools.cached_property
    def open_ruins_mask(self) -> int:
        """The ruins cells nothing is drawn on yet."""
        return mask_of(i for i, code in enumerate(self.grid) if code == RUINS_CODE)

    def cells_of(self, *terrains: Terrain) -> tuple[int, ...]:
        wanted = set(terrains)
        return tuple(i for i, terrain in enumerate(self.terrains) if terrain in wanted)

    @property
    def empty_cells(self) -> tuple[int, ...]:
        return tuple(i for i, code in enumerate(self.grid) if code in _EMPTY_CODES)

    @property
    def mountains(self) -> tuple[int, ...]:
        return self.cells_of(Terrain.MOUNTAIN)

    # ----------------------------------------------------------------- drawing

    def draw(self, cells: Iterable[int], terrain: Terrain) -> MapSheet:
        """The sheet with ``terrain`` drawn on ``cells`` (which must all be empty)."""
        codes = list(self.grid)
        upper = terrain.code
        for index in cells:
            current = codes[index]
            if current not in _EMPTY_CODES:
                raise ValueError(f"cell {index} is already filled")
            codes[index] = upper.lower() if current == RUINS_CODE else upper
        return MapSheet("".join(codes))

    # ----------------------------------------------------------------- derived facts

    def enclosed_mountains(self) -> frozenset[int]:
        """Mountains whose every neighbour on the map is filled."""
        return frozenset(
            index
            for index in self.mountains
            if all(self.is_filled(other) for other in neighbours(index))
        )

    def monster_threat(self) -> frozenset[int]:
        """Distinct empty cells next to a monster cell (each costs a star per season)."""
        return frozenset(
            other
            for index in self.cells_of(Terrain.MONSTER)
            for other in neighbours(index)
            if not self.is_filled(other)
        )

    def clusters(self, terrain: Terrain) -> tuple[frozenset[int], ...]:
        """The orthogonally connected groups of ``terrain``, ordered by their first cell."""
        seen: set[int] = set()
        out: list[frozenset[int]] = []
        for start in self.cells_of(terrain):
            if start in seen:
                continue
            group = {start}
            frontier = [start]
            while frontier:
                current = frontier.pop()
                for other in neighbours(current):
                    if other not in group and self.terrains[other] == terrain:
                        group.add(other)
                        frontier.append(other)
            seen |= group
            out.append(frozenset(group))
        return tuple(out)


_EMPTY_CODES = frozenset({EMPTY_CODE, RUINS_CODE})
_TERRAIN_OF_CODE: dict[str, Terrain | None] = {
    EMPTY_CODE: None,
    RUINS_CODE: None,
    **CODE_TERRAINS,
    **{terrain.code.lower(): terrain for terrain in DRAWABLE},
}
