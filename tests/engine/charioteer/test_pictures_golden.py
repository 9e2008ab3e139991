"""Golden pictures of the board: fixed positions → the picture players see, compared with
the stored one (``golden/*.board.png``; see :mod:`tests.engine.pictures`)."""

import pytest

from engine.charioteer.render import board_png
from tests.engine.charioteer.test_render_golden import GOLDEN, NAMES, race_of, resolved
from tests.engine.pictures import check_golden_picture


@pytest.mark.parametrize("locale", ["en", "it"])
def test_the_board_mid_race(locale: str) -> None:
    png = board_png(race_of("midrace").view(), names=NAMES, locale=locale)
    check_golden_picture(GOLDEN / f"midrace.board.{locale}.png", png)


def test_the_board_at_the_finish() -> None:
    race, _ = resolved("finish")
    check_golden_picture(GOLDEN / "finish.board.png", board_png(race.view()))
