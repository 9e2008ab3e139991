"""Every picture the engines draw speaks Spanish and Italian: the labels come from the
game's catalogue in the language asked, none is left in English, every text stays
readable at a phone's width, and no label is cut short with "…" (longer words fit)."""

from __future__ import annotations

import re

import pytest

from engine.carcassonne import Table
from engine.carcassonne.ai import next_action, policy_for
from engine.carcassonne.messages import catalogue as carcassonne_catalogue
from engine.carcassonne.render import board_picture as carcassonne_picture
from engine.cartographers import Expedition
from engine.cartographers.messages import catalogue as cartographers_catalogue
from engine.cartographers.messages import name, text
from engine.cartographers.render import card_picture, map_picture, season_picture, seat_map_picture
from engine.charioteer import Race
from engine.charioteer.render.common import catalogue as charioteer_catalogue
from engine.charioteer.render.image import board_picture as charioteer_picture
from engine.core import Rng
from engine.drawing import ELLIPSIS, MIN_TEXT, Picture
from engine.i18n import Catalogue
from tests.engine.cartographers.helpers import options_for

LANGUAGES = ("es", "it")


def readable(picture: Picture) -> None:
    assert picture.smallest_text() >= MIN_TEXT
    cut = [text for text, _ in picture.texts if text.endswith(ELLIPSIS)]
    assert cut == []


def speaks(picture: Picture, catalogue: Catalogue, locale: str, keys: list[str]) -> None:
    """Each message is drawn in ``locale`` (its words before any placeholder), and the
    English one is not."""
    for key in keys:
        shown = catalogue.text(locale, key).split("{")[0].strip()
        english = catalogue.text("en", key).split("{")[0].strip()
        assert picture.says(shown), (key, shown)
        if english != shown:
            pattern = re.compile(rf"\b{re.escape(english)}\b")
            assert not any(pattern.search(text) for text, _ in picture.texts), (key, english)


def labels(catalogue: Catalogue, locale: str, key: str, **params: object) -> str:
    return catalogue.text(locale, key, **params)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_charioteer_board_speaks_the_language(locale: str) -> None:
    race = Race.new(seats=6, seed=3)
    picture = charioteer_picture(race.view(None), locale=locale)
    catalogue = charioteer_catalogue()
    speaks(picture, catalogue, locale, ["image.closeup", "image.lap", "image.crowd"])
    assert picture.says(labels(catalogue, locale, "board.col.chariot"))
    assert picture.says(labels(catalogue, locale, "chariot.yellow"))
    readable(picture)


def played(turns: int) -> Expedition:
    expedition = Expedition.new(seats=2, seed=5, side="A")
    while expedition.state.turn < turns and not expedition.is_over:
        for seat in sorted(expedition.view(None).waiting_for):
            choices = options_for(expedition.state, seat)
            expedition.place(seat, choices[len(choices) // 2].placement)
    return expedition


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_cartographers_pictures_speak_the_language(locale: str) -> None:
    catalogue = cartographers_catalogue()
    expedition = played(12)
    public = expedition.view(None)
    seat = public.players[0].seat
    names = dict(zip([player.seat for player in public.players], ["Ana", "Luca"], strict=True))

    table = seat_map_picture(public, seat, names=names, lang=locale)
    speaks(table, catalogue, locale, ["picture.legend", "picture.edicts"])
    assert table.says(name("terrain", "wasteland", locale))
    assert table.says(name("season", public.season.id, locale))
    readable(table)

    bare = map_picture(public.player(seat).sheet, coins=3, lang=locale)
    assert bare.says(labels(catalogue, locale, "picture.coins", coins=3))
    readable(bare)

    for card_id in ("rift_lands", "goblin_attack", "temple_ruins", "hinterland_stream"):
        card = card_picture(card_id, ruins=card_id == "hinterland_stream", lang=locale)
        assert card.says(name("card", card_id, locale))
        readable(card)

    season = season_picture(public, names=names, lang=locale)
    speaks(season, catalogue, locale, ["picture.col.player", "picture.col.season"])
    scored = public.players[0].seasons[-1].season
    assert season.says(text("picture.season_end", {"season_end": scored}, locale))
    readable(season)


def carcassonne_played(tiles: int) -> Table:
    table = Table.new(seats=4, seed=3)
    policy = policy_for("greedy")
    step = 0
    while len(table.state.board) < tiles and not table.is_over:
        step += 1
        table.act(next_action(policy, table.view(table.active), Rng(3, step)))
    return table


@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_carcassonne_map_speaks_the_language(locale: str) -> None:
    catalogue = carcassonne_catalogue()
    picture = carcassonne_picture(carcassonne_played(40).view(), locale=locale)
    assert picture.says(labels(catalogue, locale, "picture.tile_set", tile_set="reconstruction"))
    assert not picture.says("tile set")
    marks = {catalogue.text(locale, f"faction.{f}.mark") for f in ("rebel", "empire", "bounty")}
    assert marks & {text for text, _ in picture.texts}
    readable(picture)
