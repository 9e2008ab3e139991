"""The pieces of Carcassonne: Star Wars (spec §1): sides, features, factions, colours and
the tile catalogue, read from data so that the real tile list can replace the packaged
reconstruction without a code change.

The catalogue (``data/tiles.yaml``) lists tile types with their four edges, their
features (a route or asteroid field and the sides it touches; a route touching one side
ends at the tile's centre) and an optional planet with its faction symbol. ``data/tileset.json``
names the set ("reconstruction") and the file to read; every place that shows the game
says which set it plays with.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import cache, cached_property
from importlib import resources
from typing import Any

import yaml

from engine.core import JSON, MalformedPosition


class Side(IntEnum):
    """A tile's edge, clockwise from north; rotating a tile by ``r`` quarter turns
    clockwise moves its side ``s`` to ``(s + r) % 4``."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        return Side((self + 2) % 4)

    @property
    def step(self) -> tuple[int, int]:
        """The offset to the neighbouring square on this side (x east, y south)."""
        return STEPS[self]


STEPS: dict[Side, tuple[int, int]] = {
    Side.N: (0, -1),
    Side.E: (1, 0),
    Side.S: (0, 1),
    Side.W: (-1, 0),
}

AROUND: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
)
"""The 8 squares around a square (orthogonal and diagonal), clockwise from north-west."""


class Edge(StrEnum):
    SPACE = "space"
    ROUTE = "route"
    ASTEROID = "asteroid"


class Kind(StrEnum):
    """A claimable feature (spec §1); space is never claimed, so it is not one."""

    ROUTE = "route"
    ASTEROID = "asteroid"
    PLANET = "planet"


class Faction(StrEnum):
    REBEL = "rebel"
    EMPIRE = "empire"
    BOUNTY = "bounty"


class Colour(StrEnum):
    """A player's colour, which is also their seat's name."""

    RED = "red"
    GREEN = "green"
    BLACK = "black"
    WHITE = "white"
    ORANGE = "orange"

    @property
    def faction(self) -> Faction:
        """The faction on the colour's character card (spec §1)."""
        return FACTION_OF[self]


FACTION_OF: dict[Colour, Faction] = {
    Colour.RED: Faction.REBEL,
    Colour.GREEN: Faction.REBEL,
    Colour.BLACK: Faction.EMPIRE,
    Colour.WHITE: Faction.EMPIRE,
    Colour.ORANGE: Faction.BOUNTY,
}

COLOURS: tuple[Colour, ...] = tuple(Colour)
TEAM_COLOURS: tuple[Colour, ...] = (Colour.RED, Colour.BLACK, Colour.GREEN, Colour.WHITE)
"""The team variant's seating (spec §5): team-mates sit diagonally, so the teams alternate."""

MIN_PLAYERS = 2
MAX_PLAYERS = 5
SMALL_MEEPLES = 4
LARGE_MEEPLES = 1
DIE_SIDES = 6
MAX_DICE = 3


class Size(StrEnum):
    SMALL = "small"
    LARGE = "large"

    @property
    def dice(self) -> int:
        """Battle dice a meeple of this size brings (spec §3)."""
        return 2 if self is Size.LARGE else 1


@dataclass(frozen=True)
class FeatureSpec:
    """One route or asteroid field printed on a tile (unrotated sides)."""

    kind: Kind
    sides: tuple[Side, ...]
    symbol: Faction | None

    @property
    def ends_at_centre(self) -> bool:
        """A route touching one side ends at the tile's centre (junction, planet, field)."""
        return self.kind is Kind.ROUTE and len(self.sides) == 1


@dataclass(frozen=True)
class TileType:
    """One tile type of the catalogue, unrotated."""

    id: str
    count: int
    start: bool
    edges: tuple[Edge, Edge, Edge, Edge]
    features: tuple[FeatureSpec, ...]
    planet: Faction | None

    def edge(self, side: Side, rotation: int) -> Edge:
        """The edge shown on ``side`` once the tile is turned ``rotation`` quarter turns."""
        return self.edges[(side - rotation) % 4]

    def rotated_edges(self, rotation: int) -> tuple[Edge, Edge, Edge, Edge]:
        return self._turns[rotation % 4]

    @cached_property
    def _turns(self) -> tuple[tuple[Edge, Edge, Edge, Edge], ...]:
        e = self.edges
        return tuple(
            (e[(0 - r) % 4], e[(1 - r) % 4], e[(2 - r) % 4], e[(3 - r) % 4]) for r in range(4)
        )

    def feature_sides(self, index: int, rotation: int) -> tuple[Side, ...]:
        """The sides feature ``index`` touches once the tile is turned."""
        return tuple(Side((side + rotation) % 4) for side in self.features[index].sides)

    def feature_on(self, side: Side, rotation: int) -> int | None:
        """The index of the feature touching ``side`` of the turned tile, if any."""
        original = Side((side - rotation) % 4)
        for index, feature in enumerate(self.features):
            if original in feature.sides:
                return index
        return None

    @cached_property
    def symmetric_rotations(self) -> tuple[int, ...]:
        """The rotations that give different-looking tiles (edges and features)."""
        seen: list[tuple[object, ...]] = []
        kept: list[int] = []
        for rotation in range(4):
            shape = (
                self.rotated_edges(rotation),
                tuple(
                    sorted(
                        (f.kind, tuple(sorted(self.feature_sides(i, rotation))), f.symbol or "")
                        for i, f in enumerate(self.features)
                    )
                ),
            )
            if shape not in seen:
                seen.append(shape)
                kept.append(rotation)
        return tuple(kept)


@dataclass(frozen=True)
class Catalogue:
    """A whole tile set: its name, its tile types, and the start tile."""

    name: str
    tiles: tuple[TileType, ...]

    @property
    def by_id(self) -> dict[str, TileType]:
        return {tile.id: tile for tile in self.tiles}

    @property
    def start(self) -> TileType:
        return next(tile for tile in self.tiles if tile.start)

    def stack(self) -> tuple[str, ...]:
        """Every tile but the start tile, one id per physical tile, in catalogue order."""
        out: list[str] = []
        for tile in self.tiles:
            out.extend([tile.id] * (tile.count - (1 if tile.start else 0)))
        return tuple(out)


def _side(value: Any, where: str) -> Side:
    if value not in Side.__members__:
        raise MalformedPosition(f"{where}: unknown side {value!r}")
    return Side[value]


def _faction(value: Any, where: str) -> Faction | None:
    if value is None:
        return None
    try:
        return Faction(value)
    except ValueError:
        raise MalformedPosition(f"{where}: unknown faction {value!r}") from None


def parse_tile(entry: Any) -> TileType:
    """One catalogue entry as a :class:`TileType` (``check_tiles.py`` holds the full rules
    of a valid catalogue; this reads and refuses what the engine cannot use)."""
    if not isinstance(entry, dict):
        raise MalformedPosition(f"a catalogue entry must be a mapping: {entry!r}")
    tile_id = entry.get("id")
    where = f"tile {tile_id}"
    try:
        edges_obj = entry["edges"]
        edges = (
            Edge(edges_obj["N"]),
            Edge(edges_obj["E"]),
            Edge(edges_obj["S"]),
            Edge(edges_obj["W"]),
        )
        features = tuple(
            FeatureSpec(
                Kind(feature["type"]),
                tuple(_side(side, where) for side in feature["sides"]),
                _faction(feature.get("symbol"), where),
            )
            for feature in entry["features"]
        )
        planet_obj = entry["planet"]
        planet = None if planet_obj is None else _faction(planet_obj["symbol"], where)
        count, start = entry["count"], entry["start"]
    except (KeyError, TypeError, ValueError) as error:
        raise MalformedPosition(f"{where}: cannot read the entry ({error})") from None
    if not isinstance(tile_id, str) or not isinstance(count, int) or not isinstance(start, bool):
        raise MalformedPosition(f"{where}: id, count or start has the wrong type")
    if any(feature.kind is Kind.PLANET for feature in features):
        raise MalformedPosition(f"{where}: a planet is given by 'planet', not as a feature")
    return TileType(tile_id, count, start, edges, features, planet)


def parse_catalogue(name: str, entries: Any) -> Catalogue:
    if not isinstance(entries, list) or not entries:
        raise MalformedPosition("a catalogue is a non-empty list of tile types")
    tiles = tuple(parse_tile(entry) for entry in entries)
    if sum(tile.start for tile in tiles) != 1:
        raise MalformedPosition("a catalogue needs exactly one start tile type")
    if len({tile.id for tile in tiles}) != len(tiles):
        raise MalformedPosition("a catalogue repeats a tile id")
    return Catalogue(name, tiles)


def data_text(filename: str) -> str:
    return resources.files("engine.carcassonne").joinpath("data", filename).read_text("utf-8")


@cache
def catalogue() -> Catalogue:
    """The packaged tile set (named by ``data/tileset.json``)."""
    meta: JSON = json.loads(data_text("tileset.json"))
    return parse_catalogue(meta["name"], yaml.safe_load(data_text(meta["catalogue"])))


@cache
def tile_type(tile_id: str) -> TileType:
    """A tile type of the packaged catalogue by id."""
    found = catalogue().by_id.get(tile_id)
    if found is None:
        raise MalformedPosition(f"no tile '{tile_id}' in the tile set")
    return found
