"""The games' palettes: every colour a game names is saved as itself, and a picture saved
with its game's palette is closer to its drawing than with colours picked for it."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from engine.drawing import (
    PALETTE_COLOURS,
    Palette,
    bundled_palette,
    keeping_drawings,
    lookup_key,
)
from engine.palettes.make_palettes import GAMES, named_colours
from tests.engine.carcassonne.test_pictures_golden import NAMES as CARCASSONNE_NAMES
from tests.engine.carcassonne.test_pictures_golden import seventy
from tests.engine.cartographers.test_pictures_golden import NAMES as CARTOGRAPHERS_NAMES
from tests.engine.cartographers.test_pictures_golden import midgame
from tests.engine.charioteer.test_render_golden import NAMES, race_of
from tests.engine.pictures import decoded, differences


def test_a_colour_of_a_palette_is_saved_as_itself() -> None:
    colours = [(255, 255, 255), (250, 250, 250), (8, 8, 16), (10, 10, 10), (0, 0, 0)]
    colours += [(red, 255 - red, (red * 7) % 256) for red in range(1, 250, 5)]
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(colours)
    saved = Palette(colours).apply(strip).convert("RGB")
    assert [saved.getpixel((x, 0)) for x in range(len(colours))] == colours


def test_a_palette_refuses_colours_the_lookup_cannot_tell_apart() -> None:
    assert lookup_key((255, 254, 3)) == lookup_key((252, 252, 0))
    with pytest.raises(ValueError, match="one colour"):
        Palette([(255, 254, 3), (252, 252, 0)])
    with pytest.raises(ValueError):
        Palette([(0, 0, 0)] * (PALETTE_COLOURS + 1))


def test_a_palette_reads_back_from_its_text() -> None:
    palette = Palette([(1, 2, 3), (250, 128, 0)])
    assert Palette.parse("# a comment\n\n" + palette.text()).colours == palette.colours
    with pytest.raises(ValueError, match="not a colour"):
        Palette.parse("#12345\n")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_colour_a_game_names_is_in_its_palette_and_saved_as_itself(game: str) -> None:
    """A colour added to a game's pictures and not to its palette fails here: make the
    palettes again (``engine/palettes/make_palettes.py``)."""
    modules, _ = GAMES[game]()
    named = named_colours(modules)
    palette = bundled_palette(game)
    assert len(palette.colours) == PALETTE_COLOURS
    assert set(named) <= set(palette.colours)
    strip = Image.new("RGB", (len(named), 1))
    strip.putdata(named)
    saved = palette.apply(strip).convert("RGB")
    assert [saved.getpixel((x, 0)) for x in range(len(named))] == named


def _charioteer() -> bytes:
    from engine.charioteer.render import board_png

    return board_png(race_of("midrace").view(), names=NAMES)


def _cartographers() -> bytes:
    from engine.cartographers.ai.base import legal_choices
    from engine.cartographers.render import seat_map_picture

    view = midgame().view("1")
    candidate = legal_choices(view)[0]
    return seat_map_picture(view, "1", names=CARTOGRAPHERS_NAMES, candidate=candidate).png


def _carcassonne() -> bytes:
    from engine.carcassonne.render import board_png

    return board_png(seventy().view(), names=CARCASSONNE_NAMES)


@pytest.mark.parametrize("picture", [_charioteer, _cartographers, _carcassonne])
def test_a_picture_saved_with_its_palette_keeps_close_to_its_drawing(
    picture: Callable[[], bytes],
) -> None:
    """Closer on average than colours picked for the picture (Pillow's fast octree, as
    pictures were saved before), and never far from it at any pixel."""
    with keeping_drawings() as drawings:
        png = picture()
    (drawing,) = drawings
    saved = differences(decoded(png), drawing)
    picked = drawing.quantize(
        PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    before = differences(picked.convert("RGB"), drawing)
    assert max(level for level, count in enumerate(saved) if count) <= 20
    assert _mean(saved) <= 0.2
    assert _mean(saved) < _mean(before) / 4
    assert Image.open(io.BytesIO(png)).mode == "P"


def _mean(counts: list[int]) -> float:
    return sum(level * count for level, count in enumerate(counts)) / sum(counts)
