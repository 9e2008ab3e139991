"""The map on a phone (400 px wide): meeples, labels and the close-up's squares large
enough to read, a legend with every player's name, colour, score and meeples left, faction
icons no player's colour can be taken for, and a final map in one picture no taller than
2.5 times its width, from the drawing's recorded sizes."""

from __future__ import annotations

import io
import math
from collections import Counter

import pytest
from PIL import Image

from engine.carcassonne import Table, view
from engine.carcassonne.ai import next_action, policy_for
from engine.carcassonne.components import Faction, Size
from engine.carcassonne.messages import colour_name
from engine.carcassonne.render import (
    LARGE_SHARE,
    MAX_HEIGHT,
    PLAYER_RGB,
    SMALL_MEEPLE,
    MapPlace,
    board_picture,
    faction_shades,
    layout,
    meeple_height,
)
from engine.carcassonne.rules import deploy_targets
from engine.carcassonne.view import SeatView
from engine.core import Rng
from engine.drawing import MIN_TEXT, PHONE_WIDTH
from tests.engine.carcassonne.builders import position

NAMES = {
    "red": "Lucía",
    "green": "Dmitri",
    "black": "Mohammed",
    "white": "Anna-Maria",
    "orange": "Drake",
}
SHOWN = 400
"""The phone's width in pixels."""


def played(tiles: int, *, seats: int = 5, seed: int = 7, team: bool = False) -> Table:
    """A greedy game (it deploys meeples) until the map has ``tiles`` tiles."""
    table = Table.new(seats=seats, seed=seed, team=team)
    policy = policy_for("greedy")
    step = 0
    while len(table.state.board) < tiles and not table.is_over:
        step += 1
        table.act(next_action(policy, table.view(table.active), Rng(seed, step)))
    return table


def finished(seed: int, strip: bool) -> Table:
    """A whole random 5-player game; with ``strip``, every tile goes as far south as it
    fits, so the map is a long narrow strip."""
    table = Table.new(seats=5, seed=seed)
    policy = policy_for("random")
    rng = Rng(seed, 1)
    while not table.is_over:
        if strip and table.state.phase.value == "place":
            placements = table.legal_placements()
            table.place(table.active, max(placements, key=lambda p: (p.y, -abs(p.x))))
            continue
        table.act(next_action(policy, table.view(table.active), rng))
    return table


def shows(place: MapPlace, square: tuple[int, int]) -> bool:
    x0, y0, x1, y1 = place.window
    return x0 <= square[0] <= x1 and y0 <= square[1] <= y1


@pytest.mark.parametrize("tiles", [10, 40, 70])
def test_at_400_px_meeples_labels_and_close_up_squares_are_large_enough(tiles: int) -> None:
    seat_view = played(tiles).view()
    assert seat_view.meeples
    picture = board_picture(seat_view, names=NAMES)
    assert picture.width == PHONE_WIDTH
    assert picture.smallest_text(SHOWN) >= MIN_TEXT
    assert 2 * picture.smallest_disc(SHOWN) >= SMALL_MEEPLE >= 12  # a meeple's height
    plan = layout(seat_view, names=NAMES)
    biggest = plan.close or plan.whole
    assert biggest.tile * SHOWN / picture.width >= 40


def test_every_meeple_is_drawn_on_each_map_that_shows_it_and_the_legend_counts_them() -> None:
    seat_view = played(70).view()
    plan = layout(seat_view, names=NAMES)
    assert plan.close is not None
    picture = board_picture(seat_view, names=NAMES)
    on_maps = sum(
        shows(place, meeple.at.square)
        for meeple in seat_view.meeples
        for place in (plan.close, plan.whole)
    )
    in_stock = sum(
        (supply[Size.SMALL] > 0) + (supply[Size.LARGE] > 0)
        for supply in map(seat_view.supply, seat_view.seats)
    )
    beside_names = len(seat_view.seats)
    assert len(picture.disc_radii) == on_maps + in_stock + beside_names


def test_a_large_meeple_is_visibly_larger_than_a_small_one() -> None:
    state = position([], [("red", "large", 0, 0, 0), ("white", "small", 0, 0, 1)])
    seat_view = view(state)
    plan = layout(seat_view)
    small = meeple_height(plan.whole.tile)
    radii = board_picture(seat_view).disc_radii
    assert LARGE_SHARE >= 1.3
    assert any(math.isclose(radius, small / 2) for radius in radii)
    assert any(math.isclose(radius, small * LARGE_SHARE / 2) for radius in radii)


def legend_texts(seat_view: SeatView, locale: str, names: dict[str, str]) -> list[str]:
    return [text for text, _ in board_picture(seat_view, names=names, locale=locale).texts]


@pytest.mark.parametrize("locale", ["en", "es", "it"])
def test_the_legend_gives_every_players_name_colour_score_and_meeples_left(locale: str) -> None:
    seat_view = played(40).view()
    assert any(seat_view.scores)
    named = {seat: name for seat, name in NAMES.items() if seat != "orange"}
    texts = legend_texts(seat_view, locale, named)
    for seat, points in zip(seat_view.units, seat_view.scores, strict=True):
        supply = seat_view.supply(seat)
        left = [f"×{supply[Size.SMALL]}", f"×{supply[Size.LARGE]}"]
        if seat in named:
            at = texts.index(named[seat])
            assert texts[at : at + 5] == [
                named[seat],
                colour_name(seat, locale),
                str(points),
                *left,
            ]
        else:  # a seat without a name is called by its colour
            colour = colour_name(seat, locale).capitalize()
            at = texts.index(colour)
            assert texts[at : at + 4] == [colour, str(points), *left]


def test_in_the_team_variant_each_team_shows_its_score_above_its_players() -> None:
    seat_view = played(30, seats=4, seed=3, team=True).view()
    texts = legend_texts(seat_view, "en", NAMES)
    for team, points, players in (
        ("Rebels", seat_view.scores[0], ("red", "green")),
        ("Empire", seat_view.scores[1], ("black", "white")),
    ):
        at = texts.index(team)
        expected = [team, str(points)]
        for seat in players:
            supply = seat_view.supply(seat)
            left = [f"×{supply[Size.SMALL]}", f"×{supply[Size.LARGE]}"]
            expected += [NAMES[seat], colour_name(seat), *left]
        assert texts[at : at + len(expected)] == expected


@pytest.mark.parametrize(("seed", "strip"), [(1, False), (2, False), (3, True)])
def test_a_final_map_fits_one_picture_no_taller_than_two_and_a_half_widths(
    seed: int, strip: bool
) -> None:
    table = finished(seed, strip)
    seat_view = table.view()
    picture = board_picture(seat_view, names=NAMES)
    image = Image.open(io.BytesIO(picture.png))
    assert picture.height <= MAX_HEIGHT == 2.5 * picture.width
    assert image.height <= 2.5 * image.width
    x0, y0, x1, y1 = seat_view.board.bounds
    assert layout(seat_view, names=NAMES).whole.window == (x0 - 1, y0 - 1, x1 + 1, y1 + 1)
    assert picture.smallest_text(SHOWN) >= MIN_TEXT
    if strip:
        assert y1 - y0 > 3 * (x1 - x0)


def test_faction_icons_use_no_player_colour() -> None:
    for faction in Faction:
        for shade in faction_shades(faction):
            for player, colour in PLAYER_RGB.items():
                assert math.dist(shade, colour) >= 100, (faction, player, shade)


def test_the_places_a_meeple_can_go_are_numbered_on_the_map() -> None:
    table = played(20)
    step = 0
    while table.state.phase.value != "deploy" or len(deploy_targets(table.state)) < 2:
        step += 1
        table.act(next_action(policy_for("greedy"), table.view(table.active), Rng(1, step)))
        assert not table.is_over
    seat_view = table.view(table.active)
    targets = deploy_targets(table.state)
    plain = board_picture(seat_view)
    marked = board_picture(seat_view, targets=targets)
    added = Counter(marked.texts) - Counter(plain.texts)
    numbers = Counter(text for text, _ in added.elements() if text.isdigit())
    assert numbers == Counter(str(n) for n in range(1, len(targets) + 1)) + Counter({"1": 1})
    assert marked.says("Where a meeple can go")
    assert marked.smallest_text(SHOWN) >= MIN_TEXT
