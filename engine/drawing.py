"""What every game's pictures share: the bundled fonts, a canvas drawn in layout units,
text that fits its room, colours that stay readable, and patterns that tell areas apart
without colour.

Pictures are designed for a phone first: Discord shows an image about 400 px wide there,
so a picture is laid out in *layout units* on a canvas :data:`PHONE_WIDTH` units wide, and
one unit is one pixel on that phone. The canvas draws at :data:`OUTPUT_SCALE` pixels per
unit (sharp on high-density screens and on a desktop) and saves it as a PNG with a palette
(:data:`PALETTE_COLOURS`).

Every text and disc drawn is recorded with its size in layout units, so a test can check
the smallest text and disc a phone user sees from the drawing's own numbers
(:class:`Picture`), not from guessing at pixels, and where, so a test can look for a
name's ink in its box.

Text is any Unicode: players' names come in every script. :mod:`engine.lettering` picks,
for each character, the bundled font that has it (``engine/fonts``, see its README; no
system font is assumed), lays right-to-left and mixed lines out in visual order and shapes
complex scripts; a character no bundled font has shows as a box. Text is measured as it is
drawn, so fitting and cutting with "…" hold in every script.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from PIL import Image, ImageDraw

from engine import lettering

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]

PHONE_WIDTH = 400
"""How wide Discord shows a picture on a phone, in pixels: the width pictures are designed
for, in layout units."""
OUTPUT_SCALE = 2
"""Output pixels per layout unit."""
SUPERSAMPLE = 1
"""Drawn this many times larger again, then reduced (smooth edges). Off: text is drawn
smooth anyway, shapes at twice a phone's pixels look smooth once the phone reduces them,
and supersampling twice took half again as long."""

PALETTE_COLOURS = 256
"""Pictures are saved with a palette of this many colours: a third of the bytes of full
colour, as quick to encode, and no visible change on flat-coloured boards."""

MIN_TEXT = 12
"""The smallest text, in layout units, that a picture may use: readable at 400 px without
zooming."""
MIN_DISC_RADIUS = 10
"""The smallest radius of a playing piece's disc, in layout units."""

INK: RGB = (40, 36, 30)
WHITE: RGB = (255, 255, 255)
ELLIPSIS = "…"


def text_width(text: str, size: int, bold: bool = False) -> float:
    """How wide ``text`` is at ``size``, in the same units as ``size``."""
    return lettering.length(text, size * 4, bold) / 4


def without_last_character(text: str) -> str:
    """``text`` less its last character as a reader sees one: a letter with its marks, an
    emoji with its modifiers and joined emoji, a conjunct joined by a virama."""
    end = len(text) - 1
    while end > 0 and (_extends(text[end]) or _joins(text[end - 1])):
        end -= 1
    return text[:end]


def _extends(char: str) -> bool:
    """Whether ``char`` belongs to the character before it (a mark, a joiner, a variation
    selector, a skin tone)."""
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me", "Cf")
        or 0x1F3FB <= ord(char) <= 0x1F3FF
        or 0xE0020 <= ord(char) <= 0xE007F
    )


def _joins(char: str) -> bool:
    """Whether ``char`` joins the character after it to the one before (a zero-width
    joiner, a virama)."""
    return char == "\u200d" or unicodedata.combining(char) == 9


def fit_text(
    text: str, width: float, size: int, *, bold: bool = False, smallest: int = MIN_TEXT
) -> tuple[str, int]:
    """``text`` and a size at which it fits ``width``: ``size`` if it fits, else the
    largest smaller size down to ``smallest``, else cut with "…" at ``smallest``."""
    for candidate in range(size, smallest - 1, -1):
        if text_width(text, candidate, bold) <= width:
            return text, candidate
    cut = text
    while cut and text_width(cut + ELLIPSIS, smallest, bold) > width:
        cut = without_last_character(cut)
    return (cut.rstrip() + ELLIPSIS if cut else ""), smallest


def wrap_text(text: str, width: float, size: int, *, bold: bool = False) -> list[str]:
    """``text`` broken into lines at spaces, each at most ``width`` wide at ``size`` (a
    single word wider than that is cut with "…")."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = (
            word
            if text_width(word, size, bold) <= width
            else fit_text(word, width, size, bold=bold, smallest=size)[0]
        )
    if current:
        lines.append(current)
    return lines


def text_colour(fill: RGB) -> RGB:
    """Ink or white, whichever reads better on ``fill``."""
    red, green, blue = fill
    return INK if red * 0.299 + green * 0.587 + blue * 0.114 > 150 else WHITE


def mix(first: RGB, second: RGB, share: float) -> RGB:
    """``first`` moved ``share`` (0–1) of the way towards ``second``."""
    r, g, b = (round(a + (c - a) * share) for a, c in zip(first, second, strict=True))
    return (r, g, b)


@dataclass(frozen=True)
class Picture:
    """A finished picture: its PNG bytes and the sizes it drew things at, in layout units
    (one unit is one pixel on a phone when the picture is shown ``width`` pixels wide)."""

    png: bytes
    width: float
    height: float
    texts: tuple[tuple[str, int], ...]
    """Every text drawn, with its size."""
    disc_radii: tuple[float, ...]
    text_boxes: tuple[Box, ...]
    """Where each text of :attr:`texts` was drawn: its line's box (advance by the first
    font's ascent and descent), in layout units."""

    @property
    def text_sizes(self) -> tuple[int, ...]:
        return tuple(size for _, size in self.texts)

    def says(self, wanted: str) -> bool:
        """Whether some text drawn contains ``wanted``."""
        return any(wanted in shown for shown, _ in self.texts)

    def smallest_text(self, shown_width: float = PHONE_WIDTH) -> float:
        """The smallest text, in pixels, when the picture is shown ``shown_width`` wide."""
        return min(self.text_sizes) * shown_width / self.width

    def smallest_disc(self, shown_width: float = PHONE_WIDTH) -> float:
        """The smallest playing piece's radius, in pixels, shown ``shown_width`` wide."""
        return min(self.disc_radii, default=float("inf")) * shown_width / self.width


@dataclass
class Canvas:
    """An image drawn in layout units; see the module docstring."""

    width: float
    height: float
    background: RGB
    scale: int = OUTPUT_SCALE * SUPERSAMPLE
    texts: list[tuple[str, int]] = field(default_factory=list)
    text_boxes: list[Box] = field(default_factory=list)
    disc_radii: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        size = (round(self.width * self.scale), round(self.height * self.scale))
        self.image = Image.new("RGB", size, self.background)
        self.draw = ImageDraw.Draw(self.image)

    def _box(self, box: Box) -> Box:
        left, top, right, bottom = box
        s = self.scale
        return (left * s, top * s, right * s, bottom * s)

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: RGB | None,
        outline: RGB | None = None,
        width: float = 1,
    ) -> None:
        x, y = centre
        box = self._box((x - radius, y - radius, x + radius, y + radius))
        self.draw.ellipse(box, fill=fill, outline=outline, width=round(width * self.scale))

    def rect(
        self,
        box: Box,
        fill: RGB | None,
        outline: RGB | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        scaled = self._box(box)
        line = round(width * self.scale) if outline is not None else 0
        if radius:
            self.draw.rounded_rectangle(
                scaled, radius=radius * self.scale, fill=fill, outline=outline, width=line
            )
        else:
            self.draw.rectangle(scaled, fill=fill, outline=outline, width=line)

    def arc(self, box: Box, start: float, end: float, fill: RGB, width: float = 1) -> None:
        """The part of the ellipse in ``box`` from ``start`` to ``end`` degrees (clockwise
        from three o'clock)."""
        self.draw.arc(self._box(box), start, end, fill=fill, width=round(width * self.scale))

    def line(self, points: Sequence[Point], fill: RGB, width: float = 1) -> None:
        s = self.scale
        self.draw.line([(x * s, y * s) for x, y in points], fill=fill, width=round(width * s))

    def polygon(
        self, points: Sequence[Point], fill: RGB | None, outline: RGB | None = None
    ) -> None:
        s = self.scale
        self.draw.polygon([(x * s, y * s) for x, y in points], fill=fill, outline=outline)

    def text(
        self,
        place: Point,
        text: str,
        size: int,
        fill: RGB,
        anchor: str = "la",
        bold: bool = False,
        outline: RGB | None = None,
    ) -> float:
        """Draws ``text`` and returns its width in layout units."""
        if not text:
            return 0.0
        s = self.scale
        lettering.draw_text(
            self.draw,
            (place[0] * s, place[1] * s),
            text,
            size * s,
            fill,
            anchor,
            bold,
            stroke_width=round(1.5 * s) if outline is not None else 0,
            stroke_fill=outline,
        )
        width = text_width(text, size, bold)
        self.texts.append((text, size))
        self.text_boxes.append(_line_box(place, width, size, anchor, bold))
        return width

    def fitted_text(
        self,
        place: Point,
        text: str,
        width: float,
        size: int,
        fill: RGB,
        anchor: str = "la",
        bold: bool = False,
    ) -> float:
        """Draws ``text`` shrunk or cut to fit ``width`` (see :func:`fit_text`)."""
        shown, fitted = fit_text(text, width, size, bold=bold)
        return self.text(place, shown, fitted, fill, anchor, bold)

    def piece(self, centre: Point, radius: float, fill: RGB, mark: str, size: int) -> None:
        """A playing piece: a disc in its colour, outlined, with its mark in the middle."""
        self.disc_radii.append(radius)
        self.circle(centre, radius, fill, INK, 2)
        self.text(centre, mark, size, text_colour(fill), "mm", bold=True)

    def paste(self, layer: Image.Image, at: Point) -> None:
        """Pastes an image drawn at this canvas's scale, its top left at ``at``."""
        self.image.paste(layer, (round(at[0] * self.scale), round(at[1] * self.scale)))

    def pattern(self, box: Box, kind: Pattern, colour: RGB) -> None:
        """Fills ``box`` with a pattern drawn in ``colour`` (see :class:`Pattern`)."""
        draw_pattern(self, box, kind, colour)

    def picture(self) -> Picture:
        """The finished PNG, reduced to :data:`OUTPUT_SCALE` pixels per layout unit."""
        reduced = self.image.reduce(SUPERSAMPLE) if SUPERSAMPLE > 1 else self.image
        palette = reduced.quantize(
            PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        out = io.BytesIO()
        palette.save(out, format="PNG", compress_level=6)
        return Picture(
            png=out.getvalue(),
            width=self.width,
            height=self.height,
            texts=tuple(self.texts),
            disc_radii=tuple(self.disc_radii),
            text_boxes=tuple(self.text_boxes),
        )


def _line_box(place: Point, width: float, size: int, anchor: str, bold: bool) -> Box:
    """The box of a line ``width`` wide drawn at ``size`` with ``anchor`` at ``place``:
    from the first font's ascender to its descender (the top and bottom anchors taken as
    the ascender and descender)."""
    ascent, descent = (metric / 4 for metric in lettering.line_metrics(size * 4, bold))
    x, y = place
    left = x - width * {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]]
    top = y - {"a": 0, "t": 0, "m": (ascent + descent) / 2, "s": ascent}.get(
        anchor[1], ascent + descent
    )
    return (left, top, left + width, top + ascent + descent)


class Pattern(StrEnum):
    """Marks that tell an area apart without its colour (for colour-blind players)."""

    HATCH = "hatch"
    """Diagonal lines."""
    STRIPES = "stripes"
    """Horizontal lines."""
    DOTS = "dots"
    """A grid of dots."""
    WAVES = "waves"
    """Wavy horizontal lines."""
    CROSS = "cross"
    """Crossed diagonals."""
    TREES = "trees"
    """Small triangles (trees)."""
    HOUSES = "houses"
    """Small houses."""


def draw_pattern(canvas: Canvas, box: Box, kind: Pattern, colour: RGB) -> None:
    """Draws the pattern ``kind`` inside ``box``; see :class:`Pattern`."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    unit = min(width, height)
    line = max(1.0, unit / 16)
    if kind in (Pattern.HATCH, Pattern.CROSS):
        step = unit / 3
        offset = step / 2
        while offset < width + height:
            start = (left + max(0.0, offset - height), bottom - min(offset, height))
            end = (left + min(offset, width), bottom - max(0.0, offset - width))
            canvas.line([start, end], colour, line)
            if kind == Pattern.CROSS:
                start = (right - max(0.0, offset - height), bottom - min(offset, height))
                end = (right - min(offset, width), bottom - max(0.0, offset - width))
                canvas.line([start, end], colour, line)
            offset += step
    elif kind == Pattern.STRIPES:
        for row in range(1, 4):
            y = top + height * row / 4
            canvas.line([(left + unit * 0.15, y), (right - unit * 0.15, y)], colour, line)
    elif kind == Pattern.DOTS:
        for row in range(3):
            for column in range(3):
                centre = (left + width * (column + 0.5) / 3, top + height * (row + 0.5) / 3)
                canvas.circle(centre, unit / 14, colour)
    elif kind == Pattern.WAVES:
        for row in range(1, 4):
            y = top + height * row / 4
            points = []
            for step in range(9):
                x = left + unit * 0.1 + (width - unit * 0.2) * step / 8
                points.append((x, y + (unit / 16) * (1 if step % 2 else -1)))
            canvas.line(points, colour, line)
    elif kind == Pattern.TREES:
        for cx, cy in ((0.3, 0.35), (0.7, 0.35), (0.5, 0.72)):
            x, y = left + width * cx, top + height * cy
            half = unit * 0.14
            canvas.polygon(
                [(x - half, y + half), (x, y - half * 1.3), (x + half, y + half)], colour
            )
    elif kind == Pattern.HOUSES:
        for cx, cy in ((0.3, 0.38), (0.7, 0.38), (0.5, 0.75)):
            x, y = left + width * cx, top + height * cy
            half = unit * 0.12
            canvas.polygon(
                [
                    (x - half, y + half),
                    (x - half, y),
                    (x, y - half),
                    (x + half, y),
                    (x + half, y + half),
                ],
                colour,
            )
    else:
        raise ValueError(f"no pattern {kind!r}")
