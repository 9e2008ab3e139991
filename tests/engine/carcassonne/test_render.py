"""The board picture grows with the map and gains a close-up once large; the text summary
tells scores, meeples, tiles left and features held; both name the tile set."""

from __future__ import annotations

import io

from PIL import Image

from engine.carcassonne import Table
from engine.carcassonne.ai import next_action, policy_for
from engine.carcassonne.render import CROP_FROM, board_image, board_png, summary
from engine.core import Rng


def _played(tiles: int, seed: int = 3) -> Table:
    table = Table.new(seats=4, seed=seed)
    policy = policy_for("greedy")
    step = 0
    while len(table.state.board) < tiles and not table.is_over:
        step += 1
        table.act(next_action(policy, table.view(table.active), Rng(seed, step)))
    return table


def test_the_picture_grows_with_the_map_and_is_a_png() -> None:
    small = Image.open(io.BytesIO(board_png(Table.new(seats=2, seed=1).view())))
    bigger = Image.open(io.BytesIO(board_png(_played(6).view())))
    assert small.format == "PNG"
    assert bigger.width * bigger.height > small.width * small.height


def test_a_large_map_gets_a_close_up_beside_it() -> None:
    table = _played(70)
    x0, y0, x1, y1 = table.state.board.bounds
    assert max(x1 - x0, y1 - y0) + 3 >= CROP_FROM
    image = board_image(table.view())
    whole_width = (x1 - x0 + 3) * 72 + 44
    assert image.width > whole_width


def test_numbered_spots_are_drawn_once_per_square() -> None:
    table = Table.new(seats=2, seed=1)
    spots = [(p.x, p.y) for p in table.legal_placements()]
    plain = board_image(table.view())
    marked = board_image(table.view(), spots=spots)
    assert plain.size == marked.size and plain.tobytes() != marked.tobytes()


def test_the_summary_tells_the_state_of_play() -> None:
    table = _played(30)
    text = summary(table.view())
    assert "tile set: reconstruction" in text
    assert "tiles left in the stack" in text
    assert "Meeples left: red" in text
    for unit, points in zip(table.state.units, table.state.scores, strict=True):
        assert f"{unit} {points}" in text
    if table.state.meeples:
        assert "Features held:" in text
