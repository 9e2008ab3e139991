"""PNG rendering of a map sheet with Pillow (pure: bytes in memory, no files, no clock):
terrain colours, mountain and ruins glyphs, the coin track, and optional overlays of a
pending placement (green when legal, red when not) and of the cells a scoring card
counted.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import Image, ImageDraw, ImageFont

from engine.cartographers.components import COIN_TRACK, Terrain
from engine.cartographers.geometry import COLUMN_LETTERS, SIZE, row_col
from engine.cartographers.sheet import MapSheet

CELL = 40
MARGIN = 28
COIN_ROW = 36
BACKGROUND = (244, 236, 214)
GRID = (120, 104, 80)
EMPTY = (250, 246, 232)
INK = (60, 48, 36)
COLOURS: dict[Terrain, tuple[int, int, int]] = {
    Terrain.FOREST: (76, 140, 72),
    Terrain.VILLAGE: (200, 86, 70),
    Terrain.FARM: (236, 196, 82),
    Terrain.WATER: (78, 146, 206),
    Terrain.MONSTER: (132, 82, 160),
    Terrain.MOUNTAIN: (150, 128, 104),
    Terrain.WASTELAND: (168, 160, 150),
}
LEGAL = (40, 200, 80, 120)
ILLEGAL = (230, 40, 40, 130)
SCORED = (255, 215, 0)
COIN = (218, 170, 40)


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size)


def _box(index: int) -> tuple[int, int, int, int]:
    row, col = row_col(index)
    left, top = MARGIN + col * CELL, MARGIN + row * CELL
    return left, top, left + CELL, top + CELL


def render_png(
    sheet: MapSheet,
    *,
    coins: int = 0,
    pending: Iterable[int] = (),
    pending_legal: bool = True,
    scored: Iterable[int] = (),
) -> bytes:
    """The map as PNG bytes. ``pending`` cells are tinted green (``pending_legal``) or
    red; ``scored`` cells get a gold frame."""
    width = MARGIN * 2 + CELL * SIZE
    height = width + COIN_ROW
    image = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = _font(14)
    for index in range(SIZE * SIZE):
        _draw_cell(draw, sheet, index)
    for number, letter in enumerate(COLUMN_LETTERS):
        x = MARGIN + number * CELL + CELL // 2
        draw.text((x, MARGIN // 2), letter, fill=INK, font=font, anchor="mm")
    for row in range(SIZE):
        y = MARGIN + row * CELL + CELL // 2
        draw.text((MARGIN // 2, y), str(row + 1), fill=INK, font=font, anchor="mm")
    _draw_coins(draw, coins, top=MARGIN * 2 + CELL * SIZE - MARGIN // 2)

    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    tint = ImageDraw.Draw(overlay)
    for index in sorted(set(pending)):
        tint.rectangle(_box(index), fill=LEGAL if pending_legal else ILLEGAL)
    image = Image.alpha_composite(image, overlay)
    draw = ImageDraw.Draw(image)
    for index in sorted(set(scored)):
        left, top, right, bottom = _box(index)
        draw.rectangle((left + 2, top + 2, right - 2, bottom - 2), outline=SCORED, width=3)
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG")
    return out.getvalue()


def _draw_cell(draw: ImageDraw.ImageDraw, sheet: MapSheet, index: int) -> None:
    left, top, right, bottom = _box(index)
    terrain = sheet.terrain(index)
    draw.rectangle((left, top, right, bottom), fill=EMPTY if terrain is None else COLOURS[terrain])
    draw.rectangle((left, top, right, bottom), outline=GRID, width=1)
    if terrain is Terrain.MOUNTAIN:
        draw.polygon(
            [(left + 6, bottom - 8), ((left + right) // 2, top + 7), (right - 6, bottom - 8)],
            fill=(96, 80, 64),
            outline=INK,
        )
        draw.polygon(
            [
                ((left + right) // 2 - 5, top + 15),
                ((left + right) // 2, top + 7),
                ((left + right) // 2 + 5, top + 15),
            ],
            fill=(240, 240, 240),
        )
    elif terrain is Terrain.WASTELAND:
        for step in range(0, CELL, 8):
            draw.line((left + step, bottom, left, bottom - step), fill=(130, 122, 112), width=1)
    if sheet.is_ruins(index):
        inset = 7
        draw.arc(
            (left + inset, top + inset, right - inset, bottom + CELL // 2 - inset),
            start=180,
            end=360,
            fill=INK,
            width=3,
        )
        draw.line((left + inset, top + CELL // 2, left + inset, bottom - inset), fill=INK, width=3)
        draw.line(
            (right - inset, top + CELL // 2, right - inset, bottom - inset), fill=INK, width=3
        )


def _draw_coins(draw: ImageDraw.ImageDraw, coins: int, top: int) -> None:
    radius = 9
    for slot in range(COIN_TRACK):
        x = MARGIN + radius + slot * (2 * radius + 6)
        box = (x - radius, top + 10, x + radius, top + 10 + 2 * radius)
        draw.ellipse(box, fill=COIN if slot < coins else EMPTY, outline=INK, width=2)
