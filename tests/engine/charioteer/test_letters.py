"""No letter means two things on a board, in English, Spanish and Italian: on Discord the
chariots keep their letters ("g" is the Giallo chariot in Italian) and the cards' symbols
and the skills are coloured squares ("🟩2", not "G2", which read as that chariot)."""

import json
import re
from pathlib import Path

import pytest

from engine.charioteer import Race, view
from engine.charioteer.render import board_text, hand_text, reveal_summary, reveal_text
from engine.charioteer.render.board import OUTER_SPACE
from engine.charioteer.render.common import SEAT_COLOURS, SQUARES, chariot_mark
from engine.core import public_events
from tests.engine.charioteer.test_render_races import every_turn

GOLDEN = Path(__file__).parent / "golden"
LOCALES = ("en", "es", "it")
SYMBOL = re.compile(r"(?<![\w])[GRYB]\d")
LONE_LETTER = re.compile(r"(?<![\w])[A-Za-z](?![\w])")


def midrace() -> Race:
    position = json.loads((GOLDEN / "midrace.position.json").read_text(encoding="utf-8"))
    return Race.from_position(position)


@pytest.mark.parametrize("locale", LOCALES)
def test_on_a_board_a_letter_is_a_chariot_and_a_square_a_colour(locale: str) -> None:
    view = midrace().view(None)
    marks = {chariot_mark(seat, locale) for seat in SEAT_COLOURS}
    assert len(marks) == len(SEAT_COLOURS)
    board = board_text(view, locale=locale, squares=True)
    assert not SYMBOL.findall(board), "a symbol written with a letter"
    assert OUTER_SPACE not in marks
    lone = set(LONE_LETTER.findall(board))
    assert lone <= marks | {OUTER_SPACE}, "a lone letter that is no chariot"
    for square in SQUARES.values():
        assert square in board  # the skills' columns and the symbols
    width = max(len(line) for line in board.splitlines())
    assert width <= 60


@pytest.mark.parametrize("locale", LOCALES)
def test_the_hand_and_the_story_show_symbols_as_coloured_squares(locale: str) -> None:
    race = midrace()
    hand = hand_text(race.view("A"), locale=locale, squares=True)
    assert not SYMBOL.findall(hand) and any(square in hand for square in SQUARES.values())
    told = 0
    for state, events in every_turn(2):
        after = view(state, None)
        for text in (
            reveal_text(public_events(events), after, locale=locale, squares=True),
            reveal_summary(public_events(events), after, locale=locale, squares=True),
        ):
            assert not SYMBOL.findall(text), text
            told += bool(events)
    assert told > 10
