"""The board image: a valid PNG of sane size that shows only public information."""

import io
import json
from pathlib import Path

from PIL import Image

from engine.charioteer import Race, view
from engine.charioteer.render import board_png
from engine.charioteer.render.image import WIDTH
from engine.drawing import OUTPUT_SCALE
from tests.engine.charioteer.test_render_races import LONG_NAMES, every_turn, scrambled

GOLDEN = Path(__file__).parent / "golden"
MAX_BYTES = 300_000


def midrace() -> Race:
    position = json.loads((GOLDEN / "midrace.position.json").read_text(encoding="utf-8"))
    return Race.from_position(position)


def test_the_board_image_is_a_valid_png_of_sane_size() -> None:
    data = board_png(midrace().view(), names=LONG_NAMES)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) <= MAX_BYTES
    image = Image.open(io.BytesIO(data))
    image.verify()
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    width, height = image.size
    assert width == WIDTH * OUTPUT_SCALE
    assert width <= height <= 6 * width


def test_the_image_shows_the_chariots() -> None:
    race = midrace()
    before = board_png(race.view())
    for seat in race.seats:
        race.commit(seat, {"reset": True, "cards": [0]})
    assert board_png(race.view()) != before


def test_the_image_of_a_private_view_is_the_public_image() -> None:
    race = midrace()
    public = board_png(race.view(), names=LONG_NAMES)
    assert board_png(view(scrambled(race.state), None), names=LONG_NAMES) == public
    for seat in race.seats:
        assert board_png(race.view(seat), names=LONG_NAMES) == public


def test_secrets_never_change_the_image_over_a_race() -> None:
    for number, (state, _) in enumerate(every_turn(2)):
        if number % 5:
            continue
        public = board_png(view(state, None))
        assert board_png(view(state, state.seats[number % 6])) == public
        assert board_png(view(scrambled(state), None)) == public
