"""The board picture grows with the map and gains a close-up once large, readable on a
phone; the text summary
tells scores, meeples, tiles left and features held; both name the tile set."""

from __future__ import annotations

import io

from PIL import Image

from engine.carcassonne import Table
from engine.carcassonne.ai import next_action, policy_for
from engine.carcassonne.render import CROP_FROM, board_picture, board_png, summary
from engine.core import Rng
from engine.drawing import MIN_TEXT, PHONE_WIDTH


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


def _coordinate_labels(view: object, **kwargs: object) -> int:
    picture = board_picture(view, **kwargs)  # type: ignore[arg-type]
    return sum(text.lstrip("-").isdigit() for text, _ in picture.texts)


def test_a_large_map_gets_a_close_up_above_it() -> None:
    for tiles, large in ((6, False), (70, True)):
        table = _played(tiles)
        x0, y0, x1, y1 = table.state.board.bounds
        columns, rows = x1 - x0 + 3, y1 - y0 + 3
        assert (max(columns, rows) >= CROP_FROM) is large
        close_up = 2 * (5 + 5) if large else 0
        assert _coordinate_labels(table.view()) == 2 * (columns + rows) + close_up


def test_the_picture_is_readable_on_a_phone() -> None:
    picture = board_picture(_played(70).view())
    assert picture.width == PHONE_WIDTH
    assert picture.smallest_text() >= MIN_TEXT
    assert picture.says("tile set: reconstruction")


def test_numbered_spots_are_drawn_once_per_square() -> None:
    table = Table.new(seats=2, seed=1)
    squares = [(p.x, p.y) for p in table.legal_placements()]
    spots = squares + squares[:1]  # a square given twice is numbered once
    plain = board_picture(table.view())
    marked = board_picture(table.view(), spots=spots)
    assert plain.png != marked.png
    numbers = [text for text, _ in marked.texts[len(plain.texts) :]]
    assert numbers == [str(n) for n in range(1, len(squares) + 1)]


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
