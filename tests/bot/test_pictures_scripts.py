"""The host's pictures draw every display name whatever its script (see
:mod:`tests.engine.scripts`): a Cartographers drawing panel's caption, a tournament's
standings and a member's rating chart."""

from __future__ import annotations

import pytest

from bot.community.pictures import rating_chart, standings_picture
from bot.community.ratings import Rating
from bot.community.tournament import StandingRow
from bot.games.cartographers.pictures import panel_picture
from bot.text import t
from engine.cartographers import Expedition
from engine.lettering import runs
from tests.engine.scripts import NAMES, assert_names_drawn


@pytest.mark.parametrize("name", NAMES)
def test_the_cartographers_panel_picture_draws_the_players_name(name: str) -> None:
    seat_view = Expedition.new(seats=1, seed=2, side="A").view("1")
    assert_names_drawn(panel_picture(seat_view, {"1": name}, None, (), True, "en"), [name])


def test_the_standings_draw_every_entrants_name() -> None:
    rows = [
        StandingRow(rank, f"user:{rank}", name, 3, 2, 1500, 2, 0, rank % 5 != 0)
        for rank, name in enumerate(NAMES, start=1)
    ]
    picture = standings_picture("🏆 Кубок 杯", rows)
    assert_names_drawn(picture, ["🏆 Кубок 杯", *NAMES])


@pytest.mark.parametrize("name", NAMES)
def test_the_rating_chart_draws_the_members_name(name: str) -> None:
    title = t("en", "profile.chart_title", name=name, game="Charioteer")
    history = [(0.0, Rating(25, 8)), (1.0, Rating(27, 7))]
    assert_names_drawn(rating_chart(title, history), [name])


def test_a_right_to_left_name_keeps_its_place_in_the_panel_caption() -> None:
    seat_view = Expedition.new(seats=1, seed=2, side="A").view("1")
    picture = panel_picture(seat_view, {"1": "דוד"}, None, (), True, "en")
    (title,) = [text for text, _ in picture.texts if "דוד" in text]
    assert [run.text for run in runs(title, shaped=True)] == ["Map of ", "דוד", " · 0 stars"]
