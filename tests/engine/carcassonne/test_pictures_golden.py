"""Golden pictures: a fixed map of 70 tiles → the picture players see, with the spots where
the tile in hand fits numbered, and with the places a meeple can go once it is placed,
compared with the stored ones (``golden/*.png``; see :mod:`tests.engine.pictures`)."""

import json
from pathlib import Path

from engine.carcassonne import Table
from engine.carcassonne.render import board_png
from engine.carcassonne.rules import deploy_targets, legal_placements
from tests.engine.pictures import check_golden_picture

GOLDEN = Path(__file__).parent / "golden"
NAMES = {"red": "Bartholomew the Great", "green": "Zoë", "black": "محمد", "white": "山田太郎"}


def seventy() -> Table:
    position = json.loads((GOLDEN / "seventy.position.json").read_text(encoding="utf-8"))
    return Table.from_position(position)


def test_the_map_of_seventy_tiles() -> None:
    table = seventy()
    check_golden_picture(GOLDEN / "seventy.map.png", board_png(table.view(), names=NAMES))


def test_the_spots_and_the_places_for_a_meeple() -> None:
    table = seventy()
    view = table.view(table.active)
    placements = legal_placements(view.as_state())
    spots = [(placement.x, placement.y) for placement in placements]
    png = board_png(view, names=NAMES, spots=spots, locale="it")
    check_golden_picture(GOLDEN / "seventy.spots.png", png)
    table.place(table.active, placements[0])
    view = table.view(table.active)
    png = board_png(view, names=NAMES, targets=deploy_targets(view.as_state()), locale="es")
    check_golden_picture(GOLDEN / "seventy.targets.png", png)
