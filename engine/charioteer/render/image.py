"""The public board as a PNG image (spec §2, §9), for players who would rather look than
read: the oval with its outer spaces, the chariots in their colours in lane order, the
crowd cards, the emperor die, and a table of every chariot.

Drawn with Pillow and the DejaVu Sans subset bundled in ``fonts/`` (no system font is
assumed), at twice the size and reduced, so edges are smooth; the track itself, which is
the same in every race, is drawn once per layout and reused. Like
:func:`~engine.charioteer.render.board.board_text` it reads only public information from
the view.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Mapping
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from engine.charioteer.components import COLOURS, Card, Colour, EmperorFace
from engine.charioteer.render.board import last_move_text
from engine.charioteer.render.common import (
    CHARIOT_RGB,
    chariot_colour,
    chariot_mark,
    display_names,
    say,
    section_named,
    skill_text,
)
from engine.charioteer.track import (
    LAP_LENGTH,
    OUTER_LAP_INDICES,
    START_LAP_INDEX,
    lap_index,
)
from engine.charioteer.view import PublicChariot, SeatView

RGB = tuple[int, int, int]
Point = tuple[float, float]

WIDTH = 960
SPACING = 36
"""Pixels between neighbouring spaces along the track."""
LANE_STEP = 21
CHARIOT_RADIUS = 10
SPACE_RADIUS = 8
OUTER_OFFSET = 24
"""How far outside the regular spaces the outer spaces of a curve sit."""
BAND_INSIDE = 16
BAND_OUTSIDE = 40
TABLE_ROW = 30
SUPERSAMPLE = 2
"""Every image is drawn this many times larger, then reduced (smooth edges)."""

BACKGROUND: RGB = (238, 228, 205)
TRACK: RGB = (198, 168, 120)
TRACK_EDGE: RGB = (150, 118, 76)
INFIELD: RGB = (104, 142, 84)
INFIELD_TEXT: RGB = (246, 244, 232)
INFIELD_MUTED: RGB = (214, 228, 196)
REGULAR_FILL: RGB = (246, 238, 218)
OUTER_FILL: RGB = (178, 84, 52)
INK: RGB = (40, 36, 30)
MUTED: RGB = (110, 100, 86)
CARD_FILL: RGB = (252, 248, 236)
GOLD: RGB = (222, 170, 30)
CARD_RGB: dict[Colour, RGB] = {
    Colour.GREEN: (52, 150, 70),
    Colour.RED: (204, 52, 52),
    Colour.YELLOW: (232, 184, 28),
    Colour.BLACK: (36, 36, 36),
}
SKILL_TEXT: dict[Colour, RGB] = {
    Colour.GREEN: (255, 255, 255),
    Colour.RED: (255, 255, 255),
    Colour.YELLOW: (40, 36, 30),
    Colour.BLACK: (255, 255, 255),
}


ZEBRA: RGB = (230, 218, 192)
WHITE: RGB = (255, 255, 255)
EMPEROR_RGB: dict[EmperorFace, RGB] = {
    EmperorFace.GREEN: CARD_RGB[Colour.GREEN],
    EmperorFace.RED: CARD_RGB[Colour.RED],
    EmperorFace.YELLOW: CARD_RGB[Colour.YELLOW],
    EmperorFace.BLACK: CARD_RGB[Colour.BLACK],
    EmperorFace.DISRUPT: (120, 120, 128),
}


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans (subset) at ``size`` pixels."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("engine.charioteer.render").joinpath("fonts", name).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


class Pen:
    """Draws in board pixels on an image ``scale`` times as large."""

    def __init__(self, image: Image.Image, scale: int) -> None:
        self.draw = ImageDraw.Draw(image)
        self.scale = scale

    def _box(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        left, top, right, bottom = box
        s = self.scale
        return (left * s, top * s, right * s, bottom * s)

    def circle(
        self, centre: Point, radius: float, fill: RGB, outline: RGB | None = None, width: int = 1
    ) -> None:
        x, y = centre
        box = self._box((x - radius, y - radius, x + radius, y + radius))
        self.draw.ellipse(box, fill=fill, outline=outline, width=width * self.scale)

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: RGB | None,
        outline: RGB | None = None,
        width: int = 1,
        radius: float = 0,
    ) -> None:
        scaled = self._box(box)
        if radius:
            self.draw.rounded_rectangle(
                scaled,
                radius=radius * self.scale,
                fill=fill,
                outline=outline,
                width=width * self.scale,
            )
        else:
            self.draw.rectangle(scaled, fill=fill, outline=outline, width=width * self.scale)

    def line(self, start: Point, end: Point, fill: RGB, width: int = 1) -> None:
        s = self.scale
        self.draw.line(
            (start[0] * s, start[1] * s, end[0] * s, end[1] * s), fill=fill, width=width * s
        )

    def text(
        self,
        place: Point,
        text: str,
        size: int,
        fill: RGB,
        anchor: str = "la",
        bold: bool = False,
        outline: RGB | None = None,
    ) -> None:
        s = self.scale
        self.draw.text(
            (place[0] * s, place[1] * s),
            text,
            font=font(size * s, bold),
            fill=fill,
            anchor=anchor,
            stroke_width=2 * s if outline is not None else 0,
            stroke_fill=outline,
        )

    def token(self, centre: Point, fill: RGB, mark: str) -> None:
        """A chariot: a disc in its colour with its mark."""
        self.circle(centre, CHARIOT_RADIUS, fill, INK, 2)
        self.text(centre, mark, 11, _text_colour(fill), "mm", bold=True)


def _text_colour(fill: RGB) -> RGB:
    red, green, blue = fill
    return INK if red * 0.299 + green * 0.587 + blue * 0.114 > 150 else WHITE


def _bounds(name: str) -> tuple[int, int]:
    section = section_named(name)
    return section.first, section.last


class Geometry:
    """Pixel places of the track: two straights joined by two half circles, run counter-
    clockwise (along the bottom to the right, up the right curve, along the top to the
    left, down the left curve), with outer spaces outside the regular ones in the curves.
    ``lanes_above`` / ``lanes_below`` make room for that many chariots in one space."""

    def __init__(self, top: float, lanes_above: int, lanes_below: int) -> None:
        home_first, _ = _bounds("home straight")
        _, first_last = _bounds("first straight")
        back_first, back_last = _bounds("back straight")
        self.curve1 = _bounds("first curve")
        self.curve2 = _bounds("second curve")
        self.bottom = [*range(home_first, LAP_LENGTH + 1), *range(1, first_last + 1)]
        self.top = list(range(back_last, back_first - 1, -1))
        cells = max(len(self.bottom), len(self.top))
        self.length = SPACING * (cells - 1)
        self.radius = SPACING * self.arc_steps(*self.curve1) / math.pi
        self.left = (WIDTH - self.length) / 2
        self.right = self.left + self.length
        self.middle = top + self.radius + BAND_OUTSIDE + LANE_STEP * max(0, lanes_above - 1)
        self.height = (
            self.middle + self.radius + BAND_OUTSIDE + 36 + LANE_STEP * max(0, lanes_below - 2)
        )

    @staticmethod
    def arc_steps(first: int, last: int) -> float:
        """Gaps between neighbouring regular spaces along a curve, from one straight's end
        to the other's (outer spaces sit halfway between two regular spaces)."""
        return (last - first) / 2 + 2

    def place(self, index: int) -> tuple[Point, Point]:
        """A lap index's centre and the unit vector pointing out of the track."""
        if index in self.bottom:
            x = self.left + SPACING * self.bottom.index(index)
            return (x, self.middle + self.radius), (0.0, 1.0)
        if index in self.top:
            x = self.left + SPACING * self.top.index(index)
            return (x, self.middle - self.radius), (0.0, -1.0)
        first, last = self.curve1 if self.curve1[0] <= index <= self.curve1[1] else self.curve2
        angle = math.pi * ((index - first) / 2 + 1) / self.arc_steps(first, last)
        radius = self.radius + (OUTER_OFFSET if index in OUTER_LAP_INDICES else 0)
        if (first, last) == self.curve1:
            theta = -math.pi / 2 + angle  # from the bottom up, on the right
            normal = (math.cos(theta), -math.sin(theta))
            return (self.right + radius * normal[0], self.middle + radius * normal[1]), normal
        theta = math.pi / 2 + angle  # from the top down, on the left
        normal = (math.cos(theta), -math.sin(theta))
        return (self.left + radius * normal[0], self.middle + radius * normal[1]), normal


@functools.lru_cache(maxsize=64)
def _track_layer(lanes_above: int, lanes_below: int, locale: str) -> Image.Image:
    """The track for a layout, at the supersampled size: band, infield, spaces, start and
    finish lines, section names. The same for every race, so drawn once."""
    g = Geometry(12, lanes_above, lanes_below)
    image = Image.new("RGB", (WIDTH * SUPERSAMPLE, math.ceil(g.height) * SUPERSAMPLE), BACKGROUND)
    pen = Pen(image, SUPERSAMPLE)
    outer = g.radius + BAND_OUTSIDE
    inner = g.radius - BAND_INSIDE
    band = (g.left - outer, g.middle - outer, g.right + outer, g.middle + outer)
    pen.rect(band, TRACK, TRACK_EDGE, 2, radius=outer)
    infield = (g.left - inner, g.middle - inner, g.right + inner, g.middle + inner)
    pen.rect(infield, INFIELD, TRACK_EDGE, 2, radius=inner)

    # the finish line (chequered) and the start line across the bottom straight
    bottom_top, bottom_end = g.middle + inner, g.middle + outer
    finish_x = g.left + SPACING * (g.bottom.index(1) - 0.5)
    square = (bottom_end - bottom_top) / 8
    for row in range(8):
        for column in range(2):
            x = finish_x - square + column * square
            y = bottom_top + row * square
            pen.rect((x, y, x + square, y + square), INK if (row + column) % 2 else WHITE)
    start_x = g.left + SPACING * (g.bottom.index(START_LAP_INDEX) - 0.5)
    pen.line((start_x, bottom_top), (start_x, bottom_end), WHITE, 3)
    pen.text((start_x - 4, bottom_end + 10), say(locale, "board.start"), 12, MUTED, "rt")
    pen.text((finish_x + 4, bottom_end + 10), say(locale, "board.finish"), 12, MUTED, "lt")

    for index in range(1, LAP_LENGTH + 1):
        centre, _ = g.place(index)
        if index in OUTER_LAP_INDICES:
            x, y = centre
            half = SPACE_RADIUS - 1
            pen.rect((x - half, y - half, x + half, y + half), OUTER_FILL, TRACK_EDGE, radius=2)
        else:
            pen.circle(centre, SPACE_RADIUS, REGULAR_FILL, TRACK_EDGE)

    labels = (
        ("back_straight", ((g.left + g.right) / 2, g.middle - inner + 8), "mt"),
        ("home_straight", (g.left + SPACING * 5, g.middle + inner - 8), "mb"),
        ("first_curve", (g.right + inner - 10, g.middle), "rm"),
        ("second_curve", (g.left - inner + 10, g.middle), "lm"),
    )
    for key, place, anchor in labels:
        pen.text(place, say(locale, f"image.label.{key}"), 12, INFIELD_MUTED, anchor)
    return image


def _draw_chariots(pen: Pen, geometry: Geometry, view: SeatView, locale: str) -> None:
    """Every chariot on its space, inside lane first, further lanes outwards."""
    spaces: dict[int, list[PublicChariot]] = {}
    for chariot in sorted(view.chariots, key=lambda c: (c.position, c.lane)):
        spaces.setdefault(lap_index(chariot.position), []).append(chariot)
    for index, chariots in spaces.items():
        (x, y), (nx, ny) = geometry.place(index)
        for lane, chariot in enumerate(chariots):
            centre = (x + nx * LANE_STEP * lane, y + ny * LANE_STEP * lane)
            fill = CHARIOT_RGB[chariot_colour(chariot.seat)]
            pen.token(centre, fill, chariot_mark(chariot.seat, locale))


def _draw_card(
    pen: Pen, box: tuple[float, float, float, float], card: Card, locale: str, usable: bool
) -> None:
    left, top, right, bottom = box
    pen.rect(box, CARD_FILL, GOLD if usable else INK, 3 if usable else 1, radius=6)
    middle = (left + right) / 2
    if not card.symbols:
        pen.text((middle, (top + bottom) / 2), say(locale, "icon.whip"), 13, INK, "mm", True)
        return
    step = (right - left) / (len(card.symbols) + 1)
    chip_y = top + (bottom - top) * (0.4 if card.icon else 0.5)
    for number, (symbol, count) in enumerate(card.symbols, start=1):
        centre = (left + step * number, chip_y)
        pen.circle(centre, 11, CARD_RGB[symbol.colour], INK)
        pen.text(centre, str(symbol.number), 13, SKILL_TEXT[symbol.colour], "mm", True)
        if count == 2:
            pen.text((centre[0] + 8, centre[1] + 6), "×2", 10, INK, "lt", True)
    if card.icon is not None:
        pen.text((middle, bottom - 10), say(locale, f"icon.{card.icon.value}"), 11, INK, "mm")


def _draw_emperor(pen: Pen, centre: Point, face: EmperorFace, locale: str) -> None:
    x, y = centre
    half = 24
    box = (x - half, y - half, x + half, y + half)
    if face is EmperorFace.ALL:
        pen.rect(box, CARD_FILL, INK, 2, radius=8)
        for number, colour in enumerate(COLOURS):
            quarter = (x - half / 2 + (number % 2) * half, y - half / 2 + (number // 2) * half)
            pen.circle(quarter, 8, CARD_RGB[colour], INK)
    else:
        pen.rect(box, EMPEROR_RGB[face], INK, 2, radius=8)
        if face is EmperorFace.DISRUPT:
            pen.text(centre, "!", 28, WHITE, "mm", bold=True)
    label = say(locale, "board.emperor", face=say(locale, f"emperor.{face.value}"))
    pen.text((x, y + half + 6), label, 13, INFIELD_TEXT, "mt")


def _draw_infield(
    pen: Pen, geometry: Geometry, view: SeatView, names: Mapping[str, str], locale: str
) -> None:
    """The turn, the emperor die and the crowd cards; once the race is over, the winner."""
    g = geometry
    top = g.middle - g.radius + BAND_INSIDE + 30
    if view.result is not None:
        finished = say(locale, "board.finished", count=view.result.turns)
        pen.text((g.left + 10, top), finished, 20, INFIELD_TEXT, "lt", True)
        banner = say(locale, "board.winner", name=names[view.result.winner])
        pen.text(((g.left + g.right) / 2, g.middle + 8), banner, 24, GOLD, "mm", True, INK)
        return
    pen.text(
        (g.left + 10, top), say(locale, "board.turn", turn=view.turn), 20, INFIELD_TEXT, "lt", True
    )
    _draw_emperor(pen, (g.left + 50, g.middle + 8), view.emperor, locale)
    card_w, card_h, gap = 86, 60, 14
    cards_left = g.right - 3 * card_w - 2 * gap - 10
    cards_top = g.middle - card_h / 2 + 4
    pen.text((cards_left, cards_top - 8), say(locale, "board.crowd"), 13, INFIELD_TEXT, "lb")
    for slot, card in enumerate(view.crowd[:3]):
        left = cards_left + slot * (card_w + gap)
        box = (left, cards_top, left + card_w, cards_top + card_h)
        _draw_card(pen, box, card, locale, slot == 0)
        if slot == 0:
            usable = say(locale, "board.usable")
            pen.text((left + card_w / 2, cards_top + card_h + 5), usable, 12, GOLD, "mt", True)


TABLE_COLUMNS = {
    "place": 24,
    "chariot": 52,
    "lap": 250,
    "damage": 300,
    "attack": 350,
    "skills": 430,
    "tokens": 620,
    "last": 670,
}
SKILL_STEP = 42


def _draw_table(
    pen: Pen, top: float, view: SeatView, names: Mapping[str, str], locale: str
) -> None:
    """One row per chariot in race order: place, chariot and name, lap, damage, attack
    boxes, skills, tokens held, last move."""
    columns = TABLE_COLUMNS
    y = top
    for key in ("place", "chariot", "lap", "damage", "attack", "tokens", "last"):
        pen.text((columns[key], y), say(locale, f"board.col.{key}"), 12, MUTED, "lm")
    for number, colour in enumerate(COLOURS):
        pen.circle((columns["skills"] + 17 + number * SKILL_STEP, y), 6, CARD_RGB[colour])
    pen.line((16, y + 12), (WIDTH - 16, y + 12), TRACK_EDGE)
    laps = view.options.laps
    for place, seat in enumerate(view.race_order, start=1):
        y += TABLE_ROW
        chariot = view.chariot(seat)
        if place % 2 == 0:
            pen.rect((16, y - TABLE_ROW / 2, WIDTH - 16, y + TABLE_ROW / 2), ZEBRA)
        pen.text((columns["place"], y), str(place), 15, INK, "lm", True)
        fill = CHARIOT_RGB[chariot_colour(seat)]
        pen.token((columns["chariot"] + 10, y), fill, chariot_mark(seat, locale))
        pen.text((columns["chariot"] + 28, y), names[seat], 15, INK, "lm")
        lap = say(locale, "board.lap", lap=min(chariot.laps + 1, laps), laps=laps)
        pen.text((columns["lap"], y), lap, 15, INK, "lm")
        damage_colour = CARD_RGB[Colour.RED] if chariot.damage else INK
        pen.text((columns["damage"], y), str(chariot.damage), 15, damage_colour, "lm", True)
        for box in range(3):
            x = columns["attack"] + box * 16
            pen.rect((x, y - 6, x + 12, y + 6), INK if box < chariot.attack else CARD_FILL, INK)
        for number, (colour, skill) in enumerate(zip(COLOURS, chariot.skills, strict=True)):
            x = columns["skills"] + number * SKILL_STEP
            outline = GOLD if skill.in_box else None
            pen.rect((x, y - 10, x + 34, y + 10), CARD_RGB[colour], outline, 2, radius=5)
            pen.text((x + 17, y), skill_text(skill, locale), 13, SKILL_TEXT[colour], "mm", True)
        pen.text((columns["tokens"], y), str(chariot.token_count), 15, INK, "lm")
        pen.text((columns["last"], y), last_move_text(chariot.last_move, locale), 15, INK, "lm")


def _lanes(view: SeatView) -> tuple[int, int]:
    """The most chariots in one space above the oval's middle, and below it."""
    stacks: dict[int, int] = {}
    for chariot in view.chariots:
        index = lap_index(chariot.position)
        stacks[index] = stacks.get(index, 0) + 1
    probe = Geometry(0, 0, 0)
    above = [count for index, count in stacks.items() if probe.place(index)[1][1] < 0]
    below = [count for index, count in stacks.items() if probe.place(index)[1][1] >= 0]
    return max(above, default=0), max(below, default=0)


def board_png(
    view: SeatView, *, names: Mapping[str, str] | None = None, locale: str = "en"
) -> bytes:
    """The public board as PNG bytes: track, chariots, crowd cards, emperor die, and a
    table of every chariot. Reads only public information from the view."""
    shown = display_names([chariot.seat for chariot in view.chariots], names, locale, width=18)
    above, below = _lanes(view)
    geometry = Geometry(12, above, below)
    track = _track_layer(above, below, locale)
    table_top = math.ceil(geometry.height) + 8
    height = table_top + TABLE_ROW * (len(view.chariots) + 1)
    image = Image.new("RGB", (WIDTH * SUPERSAMPLE, height * SUPERSAMPLE), BACKGROUND)
    image.paste(track, (0, 0))
    pen = Pen(image, SUPERSAMPLE)
    _draw_infield(pen, geometry, view, shown, locale)
    _draw_chariots(pen, geometry, view, locale)
    _draw_table(pen, table_top, view, shown, locale)
    out = io.BytesIO()
    image.reduce(SUPERSAMPLE).save(out, format="PNG")
    return out.getvalue()
