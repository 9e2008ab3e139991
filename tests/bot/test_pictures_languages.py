"""The host's pictures take the language too: a Cartographers drawing panel, the
Carcassonne panel pictures and a tournament's standings are labelled in the locale
asked (the words come from the catalogues, so a language the host's catalogue does not
have yet falls back to English there)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.community.pictures import COLUMNS, standings_picture
from bot.community.tournament import StandingRow
from bot.games.carcassonne.panel import deploy_png, place_png
from bot.games.cartographers.pictures import panel_picture
from bot.text import t
from engine.carcassonne import Placement, Table
from engine.cartographers import Expedition
from engine.cartographers.messages import text
from engine.drawing import MIN_TEXT

LANGUAGES = ("es", "it")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_cartographers_panel_picture_speaks_the_language(locale: str) -> None:
    expedition = Expedition.new(seats=1, seed=2, side="A")
    seat_view = expedition.view("1")
    picture = panel_picture(seat_view, {"1": "Ana"}, None, (), True, locale)
    assert picture.says(text("picture.map_of", {"name": "Ana", "count": 0}, locale))
    assert picture.says(text("picture.legend", lang=locale))
    assert not picture.says("Map of") and not picture.says("Legend\n")
    assert picture.smallest_text() >= MIN_TEXT


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_carcassonne_panel_pictures_change_with_the_language(locale: str) -> None:
    table = Table.new(seats=2, seed=1)
    seat_view = table.view(table.active)
    placement: Placement = table.legal_placements()[0]
    squares = [(p.x, p.y) for p in table.legal_placements()]
    english = place_png(seat_view, placement, squares)
    spoken = place_png(seat_view, placement, squares, locale)
    assert Image.open(io.BytesIO(spoken)).format == "PNG"
    assert spoken != english
    assert deploy_png(seat_view, locale) != deploy_png(seat_view)


@pytest.mark.parametrize("locale", ["en", *LANGUAGES])
def test_standings_columns_come_from_the_catalogue(locale: str) -> None:
    rows = [
        StandingRow(1, "user:1", "Ana", 6, 4, 1500, 3, 0, True),
        StandingRow(2, "user:2", "Luca", 3, 5, 1490, 3, 0, False),
    ]
    picture = standings_picture("Copa", rows, locale)
    shown = {text for text, _ in picture.texts}
    for column in COLUMNS:
        assert t(locale, f"standings.{column}") in shown
    assert picture.says(t(locale, "standings.dropped", name="Luca"))
    assert picture.smallest_text() >= MIN_TEXT
