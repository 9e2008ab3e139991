"""The text and PNG renderers."""

from __future__ import annotations

import pytest

from engine.cartographers import Expedition
from engine.cartographers.components import EXPLORE_BY_ID, Side, Terrain
from engine.cartographers.geometry import parse_label
from engine.cartographers.messages import name, text
from engine.cartographers.sheet import MapSheet
from engine.cartographers.text import DISCORD_LIMIT, render_map, render_table, season_bar
from engine.core import Rng
from tests.engine.cartographers.helpers import play_randomly, table


def test_the_text_map_has_letters_numbers_and_one_character_per_cell() -> None:
    board = MapSheet.blank(Side.B).draw([0, 1], Terrain.FOREST)
    lines = render_map(board)
    assert lines[0].split() == list("ABCDEFGHIJK")
    assert [line.split()[0] for line in lines[1:]] == [str(n) for n in range(1, 12)]
    for row, line in enumerate(lines[1:]):
        assert "".join(line.split()[1:]) == board.rows()[row]
    assert lines[1].split()[1:3] == ["T", "T"]
    marked = render_map(board, {parse_label("K11") or 0: "@"})
    assert marked[11].endswith("@")


def test_the_season_bar_shows_time_used_against_the_threshold() -> None:
    assert season_bar(3, 8) == "■■■□□□□□"
    assert season_bar(9, 8) == "■" * 8


@pytest.mark.parametrize("card", sorted(c for c in EXPLORE_BY_ID if not c.endswith("_ruins")))
def test_the_table_message_fits_discord_with_card_edicts_and_bar(card: str) -> None:
    expedition = table(seats=12, side="B", card=card, column=["orchard", card], ruins=True)
    message = render_table(expedition.view("7"))
    assert len("```\n" + message + "\n```") <= DISCORD_LIMIT
    assert name("card", card) in message
    for edict in expedition.state.edicts:
        assert name("card", edict) in message
    time = expedition.state.time_used
    assert season_bar(time, 8) in message and f"time {time}/8" in message
    assert "cover a ruins cell" in message
    assert "Map of player 7" in message and text("text.legend") in message


def test_a_finished_table_still_renders() -> None:
    expedition = Expedition.new(seats=1, seed=2)
    play_randomly(expedition, Rng(2, 2))
    message = render_table(expedition.view("1"))
    assert text("text.no_card") in message


def test_a_seasons_last_turn_is_said_and_its_time_stops_at_the_threshold() -> None:
    column = ["orchard", "homestead", "marshlands", "treetop_village", "great_river"]
    last = table(seats=2, card="great_river", column=column).view("1")
    assert last.time_used == 9 and last.season_time == 8 and last.last_turn_of_season
    message = render_table(last)
    assert "time 8/8" in message and "9/8" not in message
    assert text("text.last_turn") in message
    earlier = table(seats=2, card="great_river", column=[*column[:2], "great_river"]).view("1")
    assert not earlier.last_turn_of_season and text("text.last_turn") not in render_table(earlier)


def test_a_season_opens_with_its_first_explore_card_ruins_aside() -> None:
    assert table(card="orchard", column=["temple_ruins", "orchard"]).view().opens_season
    assert not table(card="orchard", column=["hamlet", "orchard"]).view().opens_season
