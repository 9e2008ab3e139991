"""The packaged tile set: valid by the shared checker, and read faithfully by the engine."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from importlib import resources

import yaml

from engine.carcassonne.components import Edge, Kind, Side, catalogue, data_text
from tests.engine.carcassonne import check_tiles

PACKAGED = resources.files("engine.carcassonne").joinpath("data", "tiles.yaml")


def test_check_tiles_passes_on_the_packaged_catalogue() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        status = check_tiles.main(["check_tiles.py", str(PACKAGED)])
    assert status == 0, out.getvalue()
    assert "OK: all checks passed" in out.getvalue()


def test_the_tile_set_is_named_and_says_it_is_a_reconstruction() -> None:
    assert json.loads(data_text("tileset.json"))["name"] == "reconstruction"
    assert catalogue().name == "reconstruction"


def test_the_engine_reads_every_entry_as_written() -> None:
    raw = yaml.safe_load(data_text("tiles.yaml"))
    tiles = catalogue().tiles
    assert [tile.id for tile in tiles] == [entry["id"] for entry in raw]
    for tile, entry in zip(tiles, raw, strict=True):
        assert tile.count == entry["count"]
        assert [edge.value for edge in tile.edges] == [entry["edges"][s] for s in "NESW"]
        assert [(f.kind.value, [s.name for s in f.sides]) for f in tile.features] == [
            (f["type"], f["sides"]) for f in entry["features"]
        ]
        assert (tile.planet.value if tile.planet else None) == (
            entry["planet"]["symbol"] if entry["planet"] else None
        )


def test_76_tiles_one_of_them_the_start_tile() -> None:
    assert len(catalogue().stack()) == 75
    assert catalogue().start.id == "SW01"


def test_rotation_turns_edges_clockwise() -> None:
    start = catalogue().start  # asteroid N, route E-W, space S
    assert start.edge(Side.E, 1) is Edge.ASTEROID
    assert start.edge(Side.S, 1) is Edge.ROUTE
    assert start.edge(Side.W, 1) is Edge.SPACE
    assert start.feature_sides(0, 1) == (Side.E,)
    assert start.features[0].kind is Kind.ASTEROID
