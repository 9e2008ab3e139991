"""The pictures: a map with its legend, card and edicts, a candidate placement, the explore
card alone and the season composite, all readable on a phone (400 px wide)."""

from __future__ import annotations

import dataclasses
import io
import itertools
import re

import pytest
from PIL import Image

from engine.cartographers import Expedition
from engine.cartographers.components import (
    AMBUSH_BY_ID,
    DRAWABLE,
    EXPLORE_BY_ID,
    SEASONS,
    Terrain,
)
from engine.cartographers.geometry import parse_label
from engine.cartographers.messages import name, text
from engine.cartographers.render import (
    COLOURS,
    EMPTY,
    MONSTER_COLUMN,
    PATTERNS,
    card_picture,
    map_cell_box,
    map_picture,
    season_layout,
    season_picture,
    seat_map_picture,
)
from engine.cartographers.state import SeasonScore
from engine.cartographers.view import view
from engine.core import Rng
from engine.drawing import ELLIPSIS, MIN_TEXT, OUTPUT_SCALE, PHONE_WIDTH, Picture
from tests.engine.cartographers.helpers import options_for, random_move, sheet, table

MIN_SEASON_CELL = 10
"""A map cell in the season composite, in pixels on a phone: big enough to see."""


def pixel(picture: Picture, cell: str, across: float, down: float) -> tuple[int, ...]:
    """The colour at a point of a cell of :func:`map_picture` (fractions of the cell)."""
    left, top, right, bottom = map_cell_box(parse_label(cell) or 0, titled=False)
    x = (left + (right - left) * across) * OUTPUT_SCALE
    y = (top + (bottom - top) * down) * OUTPUT_SCALE
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    return image.getpixel((round(x), round(y)))  # type: ignore[return-value]


def near(found: tuple[int, ...], wanted: tuple[int, int, int]) -> bool:
    """The same colour, give or take the palette the PNG is saved with."""
    return all(abs(a - b) <= 6 for a, b in zip(found, wanted, strict=True))


def readable(picture: Picture) -> None:
    assert picture.width == PHONE_WIDTH
    assert picture.smallest_text(400) >= MIN_TEXT
    image = Image.open(io.BytesIO(picture.png))
    assert image.format == "PNG"
    assert image.width == PHONE_WIDTH * OUTPUT_SCALE


def test_the_map_paints_every_terrain_in_its_colour() -> None:
    board = sheet("T V F W X", ". . . . .")
    picture = map_picture(board, coins=3)
    for cell, terrain in zip(
        ["A1", "B1", "C1", "D1", "E1"],
        [Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER, Terrain.MONSTER],
        strict=True,
    ):
        assert near(pixel(picture, cell, 0.5, 0.08), COLOURS[terrain])
    assert near(pixel(picture, "B2", 0.5, 0.5), EMPTY)


def test_every_terrain_has_its_own_pattern_besides_its_colour() -> None:
    """Colour-blind players tell terrains apart by their marks (mountains get a drawn
    mountain)."""
    patterned = [terrain for terrain in Terrain if terrain is not Terrain.MOUNTAIN]
    assert sorted(PATTERNS) == sorted(patterned)
    assert len(set(PATTERNS.values())) == len(patterned)
    board = sheet("T V F W X")
    picture = map_picture(board)
    for cell in ["A1", "B1", "C1", "D1", "E1"]:
        left, top, right, bottom = map_cell_box(parse_label(cell) or 0, titled=False)
        image = Image.open(io.BytesIO(picture.png)).convert("RGB")
        crop = image.crop(
            tuple(round(v * OUTPUT_SCALE) for v in (left + 2, top + 2, right - 2, bottom - 2))
        )
        counts = sorted((count for count, _ in crop.getcolors(10_000) or []), reverse=True)
        marked = sum(counts[1:])
        assert marked >= 0.05 * sum(counts), f"{cell} is (almost) one flat colour"


def test_the_legend_names_every_terrain_and_ruins() -> None:
    picture = map_picture(sheet())
    for terrain in Terrain:
        assert picture.says(name("terrain", terrain.value))
    assert picture.says(name("terrain", "ruins"))


def test_the_legal_candidate_is_outlined_green_and_the_illegal_red() -> None:
    expedition = Expedition.new(seats=1, seed=3)
    drawing = options_for(expedition.state, "1")[0]
    board = expedition.state.player("1").sheet
    first = next(iter(drawing.cells))
    cell = "ABCDEFGHIJK"[first % 11] + str(first // 11 + 1)
    legal = pixel(map_picture(board, candidate=drawing), cell, 0.5, 0.04)
    illegal = pixel(map_picture(board, candidate=drawing, candidate_legal=False), cell, 0.5, 0.04)
    assert legal[1] > legal[0] and legal[1] > legal[2]
    assert illegal[0] > illegal[1] and illegal[0] > illegal[2]
    assert map_picture(board, candidate=drawing).says("✓")


def test_the_seat_map_shows_the_card_the_season_and_its_edicts() -> None:
    expedition = table(seats=3, card="orchard", column=["orchard"], ruins=True)
    seat_view = expedition.view("2")
    picture = seat_map_picture(seat_view, "2", names={"2": "Gwen"})
    readable(picture)
    assert picture.says("Gwen")
    assert picture.says(name("card", "orchard"))
    assert picture.says("cover a ruins cell")
    assert picture.says(name("season", seat_view.season.id))
    for edict in seat_view.edicts:
        assert picture.says(name("card", edict))
    for terrain in EXPLORE_BY_ID["orchard"].terrains:
        assert picture.says(name("terrain", terrain.value))


def test_a_private_view_draws_the_same_map_as_the_public_one() -> None:
    expedition = Expedition.new(seats=3, seed=4)
    state = expedition.state
    expedition.place("1", options_for(state, "1")[0].placement)
    state = expedition.state
    public = seat_map_picture(view(state, None), "1").png
    for seat in state.seats:
        assert seat_map_picture(view(state, seat), "1").png == public


@pytest.mark.parametrize("card", sorted([*EXPLORE_BY_ID, *AMBUSH_BY_ID]))
def test_every_card_alone_is_readable_and_named(card: str) -> None:
    picture = card_picture(card)
    readable(picture)
    assert picture.says(name("card", card))
    found = EXPLORE_BY_ID.get(card)
    if found is not None:
        for number in range(1, len(found.shapes) + 1):
            assert picture.says(f"Shape {number}")
        for terrain in found.terrains:
            assert picture.says(name("terrain", terrain.value))


def season_over(seats: int, seed: int) -> Expedition:
    expedition = Expedition.new(seats=seats, seed=seed, side="B")
    rng = Rng(seed, 2)
    while not any(player.seasons for player in expedition.state.players):
        kind, seat, drawing = random_move(expedition, rng)
        expedition.act(kind, seat, drawing.placement)
    return expedition


@pytest.mark.parametrize("seats", [1, 2, 4, 5, 12])
def test_the_season_composite_stays_readable_on_a_phone(seats: int) -> None:
    columns, cell = season_layout(seats)
    assert cell * 400 / PHONE_WIDTH >= MIN_SEASON_CELL
    assert columns * 11 * cell <= PHONE_WIDTH
    if seats not in (1, 12):
        return
    expedition = season_over(seats, seed=seats)
    names = {seat: f"Player number {seat}" for seat in expedition.seats}
    picture = season_picture(expedition.view(), names=names)
    readable(picture)
    assert picture.says(text("picture.season_end", {"season_end": SEASONS[0].id}))
    for seat in expedition.seats:
        player = expedition.state.player(seat)
        assert picture.says(f"Player number {seat}")
        assert player.seasons
        assert picture.says(str(player.seasons[0].total))


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_three_maps_a_row_keep_their_captions_whole(lang: str) -> None:
    """Twelve maps, three a row: each caption (115 stars, −12 this season) is drawn whole,
    and so is every other text; a number below zero has the minus sign."""
    public = season_over(12, seed=12).view()
    lost = SeasonScore("spring", (0, 3), 2, 17)
    players = tuple(
        dataclasses.replace(player, stars=115, seasons=(lost,)) for player in public.players
    )
    names = {player.seat: f"Ana {player.seat}" for player in players}
    picture = season_picture(dataclasses.replace(public, players=players), names=names, lang=lang)
    assert season_layout(12)[0] == 3
    readable(picture)
    cut = [shown for shown, _ in picture.texts if shown.endswith(ELLIPSIS)]
    assert cut == []
    captions = [shown for shown, _ in picture.texts if "115" in shown and "−12" in shown]
    assert len(captions) == 12, picture.texts
    assert [shown for shown, _ in picture.texts if re.fullmatch(r"-\d+", shown)] == []


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_the_composite_mid_season_shows_no_season_score(lang: str) -> None:
    """Before the season in play is scored, a map's caption gives its stars alone (not
    "season 0"), and the table has no season's columns to leave blank."""
    expedition = Expedition.new(seats=2, seed=3)
    public = expedition.view()
    picture = season_picture(public, names={"1": "Ana", "2": "Bo"}, season="spring", lang=lang)
    season_word = text("picture.col.season", lang=lang)
    assert not any(season_word in shown for shown, _ in picture.texts), picture.texts
    assert picture.says("Ana") and picture.says("Bo")


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_the_score_tables_headings_are_words_not_abbreviations(lang: str) -> None:
    expedition = season_over(2, seed=2)
    picture = season_picture(expedition.view(), names={"1": "Ana", "2": "Bo"}, lang=lang)
    shortened = [shown for shown, _ in picture.texts if re.fullmatch(r"\w+\.", shown)]
    assert shortened == []
    headings = [
        text(f"picture.col.{column}", lang=lang) for column in ("player", "season", "total")
    ]
    drawn = [shown for shown, _ in picture.texts]
    first = drawn.index(headings[0])
    row = list(zip(drawn, picture.text_boxes, strict=True))[first : drawn.index(headings[-1]) + 1]
    assert [shown for shown, _ in row] == [headings[0], "A", "B", *headings[1:]]
    for (_, (_, _, right, _)), (_, (left, _, _, _)) in itertools.pairwise(row):
        assert right < left, row
    season_left = row[3][1][0]
    assert season_left > MONSTER_COLUMN + 7, "the season's heading clears the monster cell"


def test_the_final_composite_names_the_winners() -> None:
    expedition = Expedition.new(seats=2, seed=9)
    rng = Rng(9, 2)
    while not expedition.is_over:
        kind, seat, drawing = random_move(expedition, rng)
        expedition.act(kind, seat, drawing.placement)
    result = expedition.result
    assert result is not None
    names = {"1": "Ana", "2": "Bo"}
    picture = season_picture(expedition.view(), names=names)
    readable(picture)
    assert picture.says(text("picture.season_end", {"season_end": SEASONS[-1].id}))
    winners = [names[seat] for seat in result.winners]
    assert any(
        shown.startswith("Winner") and all(w in shown for w in winners)
        for shown, _ in picture.texts
    )


def test_drawable_terrains_are_all_in_the_legend_and_patterns() -> None:
    assert set(DRAWABLE) <= set(PATTERNS)
