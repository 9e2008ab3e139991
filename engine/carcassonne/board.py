"""The map: placed tiles on integer squares (x east, y south; the start tile at 0,0), the
placement test of spec §2 and the features the tiles form together (spec §4).

A *segment* is one feature printed on one tile; segments joined across matching edges
form a *region* (a whole trade route or asteroid field). Each planet is a region of its
own. A region is named by a :class:`FeatureRef` to one of its segments, its *anchor*: the
first in placement order.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property

from engine.carcassonne.components import (
    AROUND,
    Edge,
    Faction,
    Kind,
    Side,
    TileType,
    tile_type,
)
from engine.core import JSON, MalformedAction, MalformedPosition

PLANET = "planet"
PLANET_TILES = 9
"""A planet and the 8 tiles around it (spec §4)."""


@dataclass(frozen=True)
class Placed:
    """A tile on the map, turned ``rotation`` quarter turns clockwise."""

    x: int
    y: int
    tile: str
    rotation: int

    @property
    def type(self) -> TileType:
        return tile_type(self.tile)

    @property
    def square(self) -> tuple[int, int]:
        return (self.x, self.y)

    def to_json(self) -> dict[str, JSON]:
        return {"x": self.x, "y": self.y, "tile": self.tile, "rotation": self.rotation * 90}


@dataclass(frozen=True, order=True)
class FeatureRef:
    """Feature ``feature`` (its index in the catalogue entry) of the tile on (x, y), or
    that tile's planet when ``feature`` is ``None``."""

    x: int
    y: int
    feature: int | None

    @property
    def square(self) -> tuple[int, int]:
        return (self.x, self.y)

    @property
    def is_planet(self) -> bool:
        return self.feature is None

    def to_json(self) -> dict[str, JSON]:
        return {
            "x": self.x,
            "y": self.y,
            "feature": PLANET if self.feature is None else self.feature,
        }

    @classmethod
    def from_json(
        cls, obj: Mapping[str, JSON], error: type[Exception] = MalformedAction
    ) -> FeatureRef:
        x, y, feature = obj.get("x"), obj.get("y"), obj.get("feature")
        if not _is_int(x) or not _is_int(y):
            raise error("a feature needs integer 'x' and 'y'")
        assert isinstance(x, int) and isinstance(y, int)
        if feature == PLANET:
            return cls(x, y, None)
        if not _is_int(feature) or not isinstance(feature, int) or feature < 0:
            raise error("'feature' must be a feature index or \"planet\"")
        return cls(x, y, feature)

    def __str__(self) -> str:
        return f"{self.x},{self.y}:{PLANET if self.feature is None else self.feature}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Region:
    """A whole feature: its segments (anchor first), the squares it covers, its faction
    symbols, and what decides its completion."""

    kind: Kind
    segments: tuple[FeatureRef, ...]
    tiles: int
    symbols: tuple[Faction, ...]
    open_edges: int
    """Route or field edges facing an empty square (0 for a planet)."""
    surrounding: int
    """Tiles on the 8 squares around a planet (0 for a route or field)."""

    @property
    def anchor(self) -> FeatureRef:
        return self.segments[0]

    @property
    def complete(self) -> bool:
        if self.kind is Kind.PLANET:
            return self.surrounding == PLANET_TILES - 1
        return self.open_edges == 0

    def value(self, *, final: bool) -> int:
        """Its points (spec §4): during play once complete, or at the end of the game."""
        symbols = 2 * len(self.symbols)
        if self.kind is Kind.ROUTE:
            return self.tiles + symbols
        if self.kind is Kind.ASTEROID:
            return (1 if final and not self.complete else 2) * self.tiles + symbols
        if self.complete:
            return PLANET_TILES + symbols
        return 1 + self.surrounding + symbols


STRIDE = 8
"""Node numbering of segments while regions are built: tile index * STRIDE + feature."""


@cache
def turned(tile: str, rotation: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """For a tile turned ``rotation``: each feature's sides, and each side's feature (-1
    for none), as plain integers."""
    kind = tile_type(tile)
    sides = tuple(
        tuple(int(side) for side in kind.feature_sides(index, rotation))
        for index in range(len(kind.features))
    )
    by_side = [-1, -1, -1, -1]
    for index, touched in enumerate(sides):
        for side in touched:
            by_side[side] = index
    return sides, tuple(by_side)


_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def fits_among(
    at: Mapping[tuple[int, int], Placed], tile: TileType, x: int, y: int, rotation: int
) -> bool:
    """Spec §2 against the tiles placed so far, by square: an empty square, touching a
    tile, every shared edge matching. :meth:`Board.fits` answers the same from the board's
    frontier, faster when one board is asked again and again."""
    if (x, y) in at:
        return False
    edges = tile.rotated_edges(rotation)
    touching = False
    for side in Side:
        dx, dy = _STEPS[side]
        neighbour = at.get((x + dx, y + dy))
        if neighbour is None:
            continue
        touching = True
        if neighbour.type.rotated_edges(neighbour.rotation)[(side + 2) % 4] is not edges[side]:
            return False
    return touching


@dataclass(frozen=True)
class Board:
    """The placed tiles in placement order (the start tile first)."""

    tiles: tuple[Placed, ...]

    @cached_property
    def at(self) -> dict[tuple[int, int], Placed]:
        return {placed.square: placed for placed in self.tiles}

    def __len__(self) -> int:
        return len(self.tiles)

    def with_tile(self, placed: Placed) -> Board:
        return Board((*self.tiles, placed))

    def edge_at(self, x: int, y: int, side: Side) -> Edge | None:
        placed = self.at.get((x, y))
        return None if placed is None else placed.type.edge(side, placed.rotation)

    @cached_property
    def frontier(self) -> tuple[tuple[int, int], ...]:
        """Empty squares next to (sharing an edge with) a placed tile, sorted."""
        at = self.at
        squares = {
            (x + dx, y + dy)
            for (x, y) in at
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
            if (x + dx, y + dy) not in at
        }
        return tuple(sorted(squares, key=lambda sq: (sq[1], sq[0])))

    def fits(self, tile: TileType, x: int, y: int, rotation: int) -> bool:
        """Spec §2: an empty square, touching a tile, every shared edge matching."""
        if (x, y) in self.at:
            return False
        needs = self.needs.get((x, y))
        if needs is None:
            return False
        edges = tile.rotated_edges(rotation)
        return all(edges[side] is edge for side, edge in needs)

    @cached_property
    def needs(self) -> dict[tuple[int, int], tuple[tuple[int, Edge], ...]]:
        """For each frontier square: the edge each neighbouring tile shows it, by side."""
        at = self.at
        out: dict[tuple[int, int], tuple[tuple[int, Edge], ...]] = {}
        for x, y in self.frontier:
            needs = []
            for side in Side:
                dx, dy = _STEPS[side]
                neighbour = at.get((x + dx, y + dy))
                if neighbour is not None:
                    needs.append(
                        (
                            int(side),
                            neighbour.type.rotated_edges(neighbour.rotation)[(side + 2) % 4],
                        )
                    )
            out[(x, y)] = tuple(needs)
        return out

    def fitting(self, tile: TileType) -> tuple[tuple[int, int, int], ...]:
        """Every (x, y, rotation) where ``tile`` fits, row by row, in the tile's
        :attr:`~TileType.symmetric_rotations`; worked out once per tile for this board."""
        kept = self._fitting.get(tile.id)
        if kept is None:
            kept = self._fitting[tile.id] = tuple(
                (x, y, rotation)
                for x, y in self.frontier
                for rotation in tile.symmetric_rotations
                if self.fits(tile, x, y, rotation)
            )
        return kept

    @cached_property
    def _fitting(self) -> dict[str, tuple[tuple[int, int, int], ...]]:
        return {}

    def fits_anywhere(self, tile: TileType) -> bool:
        return any(self.fits(tile, x, y, r) for x, y in self.frontier for r in range(4))

    # ----------------------------------------------------------------- regions

    @cached_property
    def _regions(self) -> tuple[dict[FeatureRef, Region], tuple[Region, ...]]:
        tiles = self.tiles
        index_of = {placed.square: i for i, placed in enumerate(tiles)}
        parent = list(range(len(tiles) * STRIDE))
        open_edges = [0] * (len(tiles) * STRIDE)

        def find(node: int) -> int:
            while parent[node] != node:
                parent[node] = parent[parent[node]]
                node = parent[node]
            return node

        shapes = [turned(placed.tile, placed.rotation) for placed in tiles]
        for i, placed in enumerate(tiles):
            for feature, sides in enumerate(shapes[i][0]):
                node = i * STRIDE + feature
                for side in sides:
                    dx, dy = _STEPS[side]
                    j = index_of.get((placed.x + dx, placed.y + dy))
                    if j is None:
                        open_edges[node] += 1
                        continue
                    other = shapes[j][1][(side + 2) % 4]
                    if other >= 0:
                        a, b = find(node), find(j * STRIDE + other)
                        if a != b:
                            parent[max(a, b)] = min(a, b)
        members: dict[int, list[int]] = {}
        for i, shape in enumerate(shapes):
            for feature in range(len(shape[0])):
                node = i * STRIDE + feature
                members.setdefault(find(node), []).append(node)
        of: dict[FeatureRef, Region] = {}
        ordered: list[Region] = []
        for nodes in members.values():
            refs = tuple(
                FeatureRef(tiles[n // STRIDE].x, tiles[n // STRIDE].y, n % STRIDE) for n in nodes
            )
            specs = [tiles[n // STRIDE].type.features[n % STRIDE] for n in nodes]
            region = Region(
                specs[0].kind,
                refs,
                len({n // STRIDE for n in nodes}),
                tuple(spec.symbol for spec in specs if spec.symbol is not None),
                sum(open_edges[n] for n in nodes),
                0,
            )
            ordered.append(region)
            for ref in refs:
                of[ref] = region
        at = self.at
        for placed in tiles:
            planet = placed.type.planet
            if planet is None:
                continue
            ref = FeatureRef(placed.x, placed.y, None)
            around = sum((placed.x + dx, placed.y + dy) in at for dx, dy in AROUND)
            region = Region(Kind.PLANET, (ref,), 1, (planet,), 0, around)
            ordered.append(region)
            of[ref] = region
        ordered.sort(
            key=lambda region: (
                index_of[region.anchor.square],
                -1 if region.anchor.feature is None else region.anchor.feature,
            )
        )
        return of, tuple(ordered)

    def region(self, ref: FeatureRef) -> Region:
        """The whole feature a segment or planet belongs to."""
        found = self._regions[0].get(ref)
        if found is None:
            raise MalformedPosition(f"there is no feature {ref} on the map")
        return found

    def has(self, ref: FeatureRef) -> bool:
        """Whether ``ref`` names a feature of a tile on the map (its planet, or one of
        its catalogue entry's features)."""
        placed = self.at.get(ref.square)
        if placed is None:
            return False
        if ref.feature is None:
            return placed.type.planet is not None
        return 0 <= ref.feature < len(placed.type.features)

    @property
    def regions(self) -> tuple[Region, ...]:
        """Every region, in the order of their anchors' placement."""
        return self._regions[1]

    def planets_around(self, x: int, y: int) -> Iterator[FeatureRef]:
        """The planets on the 8 squares around (x, y), clockwise from north-west."""
        for dx, dy in AROUND:
            placed = self.at.get((x + dx, y + dy))
            if placed is not None and placed.type.planet is not None:
                yield FeatureRef(placed.x, placed.y, None)

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """(min x, min y, max x, max y) of the placed tiles."""
        xs = [placed.x for placed in self.tiles]
        ys = [placed.y for placed in self.tiles]
        return (min(xs), min(ys), max(xs), max(ys))
