"""Grid geometry: cells and their labels, shapes, rotations and flips, and the bit masks
that make legality checks cheap (spec §1 coordinates, §2 drawing).

A cell is an index ``row * 11 + col`` (row 0 at the top, col 0 at the left); players see
it as a column letter and a row number, ``"C4"`` being row 3, col 2. A shape is a set of
(row, col) offsets normalised to touch row 0 and col 0. An orientation is a flip (mirror
left↔right, applied first) then a clockwise rotation of 0, 90, 180 or 270 degrees; a
placed shape is anchored by the top-left corner of its bounding box.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from engine.core import typed_number

SIZE = 11
CELLS = SIZE * SIZE
COLUMN_LETTERS = "ABCDEFGHIJK"
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)
ALL_CELLS_MASK = (1 << CELLS) - 1


def cell(row: int, col: int) -> int:
    return row * SIZE + col


def row_col(index: int) -> tuple[int, int]:
    return divmod(index, SIZE)


def in_map(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def label(index: int) -> str:
    """``"C4"`` for row 3, col 2."""
    row, col = row_col(index)
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def parse_label(text: str) -> int | None:
    """The cell a label names (``"c4"`` is read as ``"C4"``), or ``None``."""
    text = text.strip().upper()
    number = typed_number(text[1:], 2)
    if not text or text[0] not in COLUMN_LETTERS or number is None or not 1 <= number <= SIZE:
        return None
    row = number - 1
    return cell(row, COLUMN_LETTERS.index(text[0]))


def neighbours(index: int) -> Iterator[int]:
    """The cells sharing a side with ``index``, in reading order."""
    row, col = row_col(index)
    if row > 0:
        yield index - SIZE
    if col > 0:
        yield index - 1
    if col < SIZE - 1:
        yield index + 1
    if row < SIZE - 1:
        yield index + SIZE


def side_count(index: int) -> int:
    """How many of the cell's four sides face another cell (not the map edge)."""
    return sum(1 for _ in neighbours(index))


def on_edge(index: int) -> bool:
    row, col = row_col(index)
    return row in (0, SIZE - 1) or col in (0, SIZE - 1)


def ring(index: int) -> int:
    """Distance from the map edge: 0 for the border cells, 5 for the centre."""
    row, col = row_col(index)
    return min(row, col, SIZE - 1 - row, SIZE - 1 - col)


def mask_of(cells: Iterator[int] | tuple[int, ...] | frozenset[int] | list[int]) -> int:
    mask = 0
    for index in cells:
        mask |= 1 << index
    return mask


def cells_of(mask: int) -> tuple[int, ...]:
    """The cells set in a mask, ascending."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


Offsets = tuple[tuple[int, int], ...]


def _normalise(offsets: frozenset[tuple[int, int]] | set[tuple[int, int]]) -> Offsets:
    top = min(row for row, _ in offsets)
    left = min(col for _, col in offsets)
    return tuple(sorted((row - top, col - left) for row, col in offsets))


@dataclass(frozen=True)
class Orientation:
    """How a shape is turned: mirrored left↔right first (``flip``), then rotated
    clockwise by ``rotation`` degrees."""

    rotation: int = 0
    flip: bool = False

    def __str__(self) -> str:
        return f"r{self.rotation}" + (" flip" if self.flip else "")


ORIENTATIONS: tuple[Orientation, ...] = tuple(
    Orientation(rotation, flip) for flip in (False, True) for rotation in ROTATIONS
)
"""Every orientation, in the order used to pick a canonical one for a set of cells."""


@dataclass(frozen=True)
class Shape:
    """A set of cells in printed orientation, as normalised (row, col) offsets."""

    offsets: Offsets

    @classmethod
    def parse(cls, pattern: str) -> Shape:
        """``"#./##"``: ``#`` a cell, ``.`` a gap, rows separated by ``/``."""
        offsets = {
            (row, col)
            for row, line in enumerate(pattern.split("/"))
            for col, char in enumerate(line)
            if char == "#"
        }
        if not offsets:
            raise ValueError(f"shape {pattern!r} has no cell")
        return cls(_normalise(offsets))

    @property
    def size(self) -> int:
        return len(self.offsets)

    @property
    def height(self) -> int:
        return 1 + max(row for row, _ in self.offsets)

    @property
    def width(self) -> int:
        return 1 + max(col for _, col in self.offsets)

    def pattern(self) -> str:
        """The ``#./##`` form."""
        cells = set(self.offsets)
        return "/".join(
            "".join("#" if (row, col) in cells else "." for col in range(self.width))
            for row in range(self.height)
        )

    def turned(self, orientation: Orientation) -> Shape:
        offsets = set(self.offsets)
        if orientation.flip:
            width = self.width
            offsets = {(row, width - 1 - col) for row, col in offsets}
        for _ in range(orientation.rotation // 90):
            height = 1 + max(row for row, _ in offsets)
            offsets = {(col, height - 1 - row) for row, col in offsets}
        return Shape(_normalise(offsets))

    def orientations(self) -> tuple[tuple[Orientation, Shape], ...]:
        """The distinct turned shapes, each with the first orientation that gives it."""
        return _orientations(self)

    def placed(self, row: int, col: int) -> tuple[int, ...] | None:
        """The cells covered with the bounding box's top-left at (row, col), or ``None``
        if part of it falls off the map."""
        if row < 0 or col < 0 or row + self.height > SIZE or col + self.width > SIZE:
            return None
        return tuple(cell(row + dr, col + dc) for dr, dc in self.offsets)


@functools.cache
def _orientations(shape: Shape) -> tuple[tuple[Orientation, Shape], ...]:
    seen: dict[Offsets, tuple[Orientation, Shape]] = {}
    for orientation in ORIENTATIONS:
        turned = shape.turned(orientation)
        seen.setdefault(turned.offsets, (orientation, turned))
    return tuple(seen.values())


@dataclass(frozen=True)
class Spot:
    """One way to lay a shape on the map: orientation, anchor and the cells covered."""

    orientation: Orientation
    anchor: int
    mask: int
    cells: tuple[int, ...]
    """Ascending."""


@functools.cache
def spots(shape: Shape, turn: bool = True) -> tuple[Spot, ...]:
    """Every distinct in-map placement of ``shape`` (rotated and flipped if ``turn``),
    orientation by orientation in canonical order, then anchors in reading order."""
    choices = shape.orientations() if turn else ((Orientation(), shape),)
    out: list[Spot] = []
    for orientation, turned in choices:
        for row in range(SIZE - turned.height + 1):
            for col in range(SIZE - turned.width + 1):
                placed = turned.placed(row, col)
                assert placed is not None
                out.append(
                    Spot(orientation, cell(row, col), mask_of(placed), tuple(sorted(placed)))
                )
    return tuple(out)


def spot_for_cells(shape: Shape, cells: frozenset[int]) -> Spot | None:
    """The canonical spot of ``shape`` covering exactly ``cells``, if there is one."""
    wanted = mask_of(cells)
    for spot in spots(shape):
        if spot.mask == wanted:
            return spot
    return None
