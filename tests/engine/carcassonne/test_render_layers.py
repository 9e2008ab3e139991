"""The tiles already placed are drawn once and laid from a kept layer: the picture is pixel
for pixel the map drawn whole, and a kept layer is never laid for other tiles, another
place or size, or another language's letters."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

import pytest

import engine.carcassonne.render as render
from engine.carcassonne import Table
from engine.carcassonne.ai import next_action, policy_for
from engine.carcassonne.render import TILE_LAYERS, board_png
from engine.carcassonne.rules import deploy_targets, legal_placements
from engine.core import Rng
from engine.drawing import Canvas, Layer
from tests.engine.carcassonne.test_pictures_golden import NAMES, seventy
from tests.engine.pictures import decoded


def previews() -> Iterator[Callable[[], bytes]]:
    """A player's panel at 70 tiles: the tile tried on several spots and turns, then
    placed (the places for a meeple), then the public map, in three languages."""
    table = seventy()
    view = table.view(table.active)
    placements = legal_placements(view.as_state())
    spots = list(dict.fromkeys((placement.x, placement.y) for placement in placements))
    for number, placement in enumerate(placements[:: max(1, len(placements) // 6)]):
        tried = seventy()
        tried.place(tried.active, placement)
        shown = tried.view(tried.active)
        locale = ("en", "it", "es")[number % 3]
        yield partial(board_png, shown, names=NAMES, spots=spots, locale=locale)
        yield partial(board_png, shown, names=NAMES, targets=deploy_targets(shown.as_state()))
    yield partial(board_png, table.view(), names=NAMES, locale="it")


def later_turns() -> Iterator[Callable[[], bytes]]:
    """The public map after every move of a game (a tile more, or a meeple more), then
    every tenth, as it grows large."""
    table = Table.new(seats=3, seed=8)
    policy = policy_for("random")
    step = 0
    while not table.is_over:
        step += 1
        table.act(next_action(policy, table.view(table.active), Rng(8, step)))
        if step < 30 or step % 10 == 0:
            yield partial(board_png, table.view(), locale="es")


_going_on = Canvas.going_on


def drawn_whole(self: render._Map, board: render.Board) -> None:
    """The tiles drawn straight on the picture, as before layers were kept."""
    self.draw_coordinates()
    for placed in board.tiles[:-1]:
        if self.shows(placed.x, placed.y):
            self._tile(placed)


@pytest.mark.parametrize("pictures", [previews, later_turns])
def test_a_map_laid_from_kept_tiles_is_the_map_drawn_whole(
    pictures: Callable[[], Iterator[Callable[[], bytes]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    TILE_LAYERS.clear()
    laid = [draw() for draw in pictures()]
    assert len(TILE_LAYERS) > 0
    fresh = []
    for draw in pictures():
        TILE_LAYERS.clear()
        fresh.append(draw())
    monkeypatch.setattr(render._Map, "lay_tiles", drawn_whole)
    whole = [draw() for draw in pictures()]
    assert laid == fresh
    assert [decoded(png).tobytes() for png in laid] == [decoded(png).tobytes() for png in whole]


def test_a_tile_more_is_drawn_on_a_copy_of_the_layer_of_the_tiles_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    going_on: list[Layer] = []

    def counted(canvas: Canvas, layer: Layer) -> Canvas:
        going_on.append(layer)
        return _going_on(canvas, layer)

    monkeypatch.setattr(Canvas, "going_on", counted)
    TILE_LAYERS.clear()
    for draw in later_turns():
        draw()
    assert len(going_on) >= 3


def test_a_kept_layer_is_never_laid_for_another_language() -> None:
    table = seventy()
    TILE_LAYERS.clear()
    english = board_png(table.view())
    italian = board_png(table.view(), locale="it")  # the empire is I, the bounty hunters C
    TILE_LAYERS.clear()
    assert board_png(table.view(), locale="it") == italian != english


def test_the_kept_layers_stay_within_their_budget() -> None:
    TILE_LAYERS.clear()
    for draw in later_turns():
        draw()
        assert TILE_LAYERS.bytes <= TILE_LAYERS.budget
    assert len(TILE_LAYERS) > 1
