"""Cartographers' pictures for the Discord posts and the drawing panel, as PNG bytes: a map
with a candidate drawing highlighted, the card in play, and one composite of every map at
a season's end (spec §4: maps, coins and scores are public; a seat's uncommitted drawing
is drawn only in its own panel).

Module-level functions taking picklable arguments, so the bot's picture worker process can
draw them (:mod:`bot.images`). Each map is drawn by the engine's renderer
(:mod:`engine.cartographers.image`); this module only lays pictures out.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping

from PIL import Image, ImageDraw, ImageFont

from engine.cartographers import SeatView
from engine.cartographers.components import AMBUSH_BY_ID, EXPLORE_BY_ID, Terrain
from engine.cartographers.geometry import Shape
from engine.cartographers.image import COLOURS, render_png
from engine.cartographers.messages import name, text
from engine.cartographers.sheet import MapSheet

CARD_CELL = 28
CARD_MARGIN = 16
CARD_GAP = 24
BACKGROUND = (244, 236, 214)
INK = (60, 48, 36)
COIN = (218, 170, 40)
TILE_WIDTH = 360
"""A map's width in the season composite: three across stay readable on a phone."""
TILE_CAPTION = 44


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", optimize=True)
    return out.getvalue()


def panel_png(sheet: MapSheet, coins: int, cells: tuple[int, ...], legal: bool) -> bytes:
    """The map a seat draws on, its candidate drawing tinted green (legal) or red."""
    return render_png(sheet, coins=coins, pending=cells, pending_legal=legal)


def card_png(card_id: str, ruins: bool, lang: str = "en") -> bytes:
    """The card in play: its name and time, then its shapes side by side in the card's
    terrain colours, coin shapes marked."""
    explore = EXPLORE_BY_ID.get(card_id)
    ambush = AMBUSH_BY_ID.get(card_id)
    if ambush is not None:
        shapes: tuple[Shape, ...] = (ambush.shape,)
        terrains: tuple[Terrain, ...] = (Terrain.MONSTER,)
        coins: frozenset[int] = frozenset()
        heading = text("text.card_ambush", {"card": card_id, "target": "…"}, lang)
    else:
        assert explore is not None, card_id
        shapes, terrains, coins = explore.shapes, explore.terrains, explore.coin_shapes
        key = "text.card_ruins" if ruins else "text.card"
        heading = text(key, {"card": card_id, "time": explore.time}, lang)
    title = _font(18)
    small = _font(14)
    widths = [shape.width * CARD_CELL for shape in shapes]
    height = max((shape.height for shape in shapes), default=1) * CARD_CELL
    width = max(
        CARD_MARGIN * 2 + sum(widths) + CARD_GAP * max(len(shapes) - 1, 0),
        int(title.getlength(heading)) + CARD_MARGIN * 2,
        320,
    )
    image = Image.new("RGB", (width, CARD_MARGIN * 3 + 24 + height + 44), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((CARD_MARGIN, CARD_MARGIN), heading, fill=INK, font=title)
    top = CARD_MARGIN * 2 + 24
    left = CARD_MARGIN
    for index, shape in enumerate(shapes):
        fill = COLOURS[terrains[0]] if terrains else BACKGROUND
        for row, line in enumerate(shape.pattern().split("/")):
            for col, mark in enumerate(line):
                if mark == "#":
                    x, y = left + col * CARD_CELL, top + row * CARD_CELL
                    draw.rectangle((x, y, x + CARD_CELL, y + CARD_CELL), fill=fill, outline=INK)
        caption = str(index + 1) + (text("text.coin_mark", lang=lang) if index in coins else "")
        draw.text(
            (left, top + height + 6), caption, fill=COIN if index in coins else INK, font=small
        )
        left += shape.width * CARD_CELL + CARD_GAP
    terrain_names = ", ".join(name("terrain", t.value, lang) for t in terrains)
    draw.text((CARD_MARGIN, top + height + 24), terrain_names, fill=INK, font=small)
    return _png(image)


def season_png(view: SeatView, names: Mapping[str, str], lang: str = "en") -> bytes:
    """Every player's map with their name, stars and coins, three across (one or two for
    small tables), for a season's end or the final ranking: up to 12 maps in one picture
    a phone shows readably."""
    players = view.players
    columns = 1 if len(players) == 1 else 2 if len(players) <= 4 else 3
    rows = math.ceil(len(players) / columns)
    tile_height = TILE_WIDTH + TILE_WIDTH // 11 + TILE_CAPTION
    image = Image.new("RGB", (columns * TILE_WIDTH, rows * tile_height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = _font(18)
    for index, player in enumerate(players):
        column, row = index % columns, index // columns
        left, top = column * TILE_WIDTH, row * tile_height
        who = names.get(player.seat, player.seat)
        caption = text(
            "text.map_of",
            {"seat": f"{player.seat}. {who}", "coins": player.coins, "stars": player.stars},
            lang,
        )
        while len(caption) > 8 and font.getlength(caption) > TILE_WIDTH - 12:
            caption = caption[:-2] + "…"
        draw.text((left + 8, top + 12), caption, fill=INK, font=font)
        drawn = Image.open(io.BytesIO(render_png(player.sheet, coins=player.coins)))
        size = (TILE_WIDTH, int(drawn.height * TILE_WIDTH / drawn.width))
        image.paste(drawn.resize(size, Image.Resampling.LANCZOS), (left, top + TILE_CAPTION))
    return _png(image)


__all__ = ["card_png", "panel_png", "season_png"]
