"""The board picture grows with the map and gains a close-up once large, readable on a
phone; the text summary
tells scores, meeples, tiles left and features held; both name the tile set."""

from __future__ import annotations

import io
from collections import Counter

from PIL import Image

from engine.carcassonne import Table
from engine.carcassonne.ai import next_action, policy_for
from engine.carcassonne.render import board_picture, board_png, layout, summary
from engine.core import Rng
from engine.drawing import MIN_TEXT, PHONE_WIDTH


def _played(tiles: int, seed: int = 3, seats: int = 4) -> Table:
    table = Table.new(seats=seats, seed=seed)
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


def test_a_large_map_gets_a_close_up_of_the_last_tile_and_an_overview() -> None:
    small = _played(6)
    plan = layout(small.view())
    assert plan.close is None
    x0, y0, x1, y1 = small.state.board.bounds
    assert plan.whole.window == (x0 - 1, y0 - 1, x1 + 1, y1 + 1)

    large = _played(70)
    view = large.view()
    plan = layout(view)
    assert plan.close is not None
    x0, y0, x1, y1 = large.state.board.bounds
    assert plan.whole.window == (x0 - 1, y0 - 1, x1 + 1, y1 + 1)
    lx, ly = view.board.tiles[-1].square
    cx0, cy0, cx1, cy1 = plan.close.window
    assert cx0 < lx < cx1 and cy0 < ly < cy1  # the last tile with its neighbours
    assert plan.close.tile > plan.whole.tile


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
    added = Counter(marked.texts) - Counter(plain.texts)
    numbers = Counter(text for text, _ in added.elements() if text.isdigit())
    key_sample = Counter({"1": 1})
    assert numbers == Counter(str(n) for n in range(1, len(squares) + 1)) + key_sample
    assert marked.says("Where the tile fits")
    assert marked.smallest_text() >= MIN_TEXT


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
