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

import contextlib
import functools
import io
import math
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from typing import Generic, TypeVar

from PIL import Image, ImageDraw

from engine import lettering

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[float, float, float, float]
V = TypeVar("V")

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
"""Pictures are saved with a palette of at most this many colours: a third of the bytes of
full colour, as quick to encode, and no visible change on flat-coloured boards."""
COMPRESS_LEVEL = 3
"""How hard the PNG is compressed (zlib, 0–9): 3 takes half the time of 6 for about a
quarter more bytes, still a fraction of what a phone loads for an image."""

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


class Palette:
    """A fixed set of colours pictures are saved with, in order (see the module
    docstring). Pillow maps a pixel to a palette by looking up, for the pixel's colour
    with the two low bits of each channel cleared, the nearest colour of the palette; so
    the lookup is given each colour with those bits cleared too, and the picture is saved
    with the colours themselves: a colour of the palette is saved as itself, and any
    other as the palette's colour nearest to it at that precision. Two colours that differ
    only in those bits are one for the lookup; a palette refuses them."""

    def __init__(self, colours: Sequence[RGB]) -> None:
        if not 0 < len(colours) <= PALETTE_COLOURS:
            raise ValueError(f"a palette has 1 to {PALETTE_COLOURS} colours, not {len(colours)}")
        looked_up = [lookup_key(colour) for colour in colours]
        if len(set(looked_up)) < len(looked_up):
            seen: dict[RGB, RGB] = {}
            for colour, key in zip(colours, looked_up, strict=True):
                if key in seen:
                    raise ValueError(f"{seen[key]} and {colour} are one colour to the lookup")
                seen[key] = colour
        self.colours = tuple(colours)
        self._saved = [channel for colour in self.colours for channel in colour]
        self._lookup = Image.new("P", (1, 1))
        self._lookup.putpalette([channel for colour in looked_up for channel in colour])

    @classmethod
    def parse(cls, text: str) -> Palette:
        """A palette from its text: a colour a line, ``#rrggbb``; lines starting ``# `` and
        blank lines are comments."""
        colours = []
        for line in text.splitlines():
            line = line.strip()
            if len(line) == 7 and line.startswith("#"):
                colours.append((int(line[1:3], 16), int(line[3:5], 16), int(line[5:7], 16)))
            elif line and not line.startswith("# "):
                raise ValueError(f"not a colour: {line!r}")
        return cls(colours)

    def text(self) -> str:
        """The palette as :meth:`parse` reads it."""
        return "".join(f"#{r:02x}{g:02x}{b:02x}\n" for r, g, b in self.colours)

    def apply(self, image: Image.Image) -> Image.Image:
        """``image`` (RGB) with each pixel mapped to this palette, without dithering."""
        indexed = image.quantize(palette=self._lookup, dither=Image.Dither.NONE)
        indexed.putpalette(self._saved)
        return indexed


def lookup_key(colour: RGB) -> RGB:
    """What Pillow looks up to map ``colour`` to a palette: its channels with the two low
    bits cleared."""
    red, green, blue = colour
    return (red & ~3, green & ~3, blue & ~3)


@functools.cache
def bundled_palette(name: str) -> Palette:
    """The palette ``engine/palettes/<name>.txt`` (a game's)."""
    path = resources.files("engine").joinpath("palettes", f"{name}.txt")
    return Palette.parse(path.read_text(encoding="utf-8"))


_kept_drawings: ContextVar[list[Image.Image] | None] = ContextVar("kept_drawings", default=None)


@contextlib.contextmanager
def keeping_drawings() -> Iterator[list[Image.Image]]:
    """Every canvas finished inside keeps its drawing in the list yielded, in full colour
    as drawn, before it is saved with a palette: what the palette maker learns from, and
    what a test compares a saved picture with."""
    kept: list[Image.Image] = []
    token = _kept_drawings.set(kept)
    try:
        yield kept
    finally:
        _kept_drawings.reset(token)


@dataclass
class Canvas:
    """An image drawn in layout units; see the module docstring. With a ``palette`` the
    picture is saved with those colours, else with colours picked for it."""

    width: float
    height: float
    background: RGB
    palette: Palette | None = None
    scale: int = OUTPUT_SCALE * SUPERSAMPLE
    shift: tuple[int, int] = (0, 0)
    """The pixel of the whole picture this canvas's top left pixel is, for a layer of it
    (see :meth:`layer`): everything is drawn that many pixels up and to the left."""
    texts: list[tuple[str, int]] = field(default_factory=list)
    text_boxes: list[Box] = field(default_factory=list)
    disc_radii: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        size = (round(self.width * self.scale), round(self.height * self.scale))
        self.image = Image.new("RGB", size, self.background)
        self.draw = ImageDraw.Draw(self.image)

    def _at(self, point: Point) -> Point:
        """Where ``point`` is drawn, in this canvas's pixels."""
        s = self.scale
        return (point[0] * s - self.shift[0], point[1] * s - self.shift[1])

    def _box(self, box: Box) -> Box:
        left, top, right, bottom = box
        return (*self._at((left, top)), *self._at((right, bottom)))

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
        at = self._at
        self.draw.line([at(point) for point in points], fill=fill, width=round(width * self.scale))

    def polygon(
        self, points: Sequence[Point], fill: RGB | None, outline: RGB | None = None
    ) -> None:
        self.draw.polygon([self._at(point) for point in points], fill=fill, outline=outline)

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
            self._at(place),
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

    def layer(self, box: Box, margin: float) -> Canvas:
        """A canvas for the part ``box`` of this one, widened by ``margin`` all round
        (layout units: as far as what is drawn in the box may stand out of it) and to
        whole pixels, to be drawn apart and laid on this canvas, or on another picture's
        canvas of the same layout, with :meth:`lay`: a layer drawn once and kept. Each
        pixel of a layer is drawn as on this canvas (coordinates move by whole pixels
        only), over this canvas's background, and laying it paints the whole widened box:
        nothing else may be drawn there before."""
        s = self.scale
        left, top = math.floor((box[0] - margin) * s), math.floor((box[1] - margin) * s)
        right, bottom = math.ceil((box[2] + margin) * s), math.ceil((box[3] + margin) * s)
        return Canvas(
            (right - left) / s,
            (bottom - top) / s,
            self.background,
            scale=s,
            shift=(left + self.shift[0], top + self.shift[1]),
        )

    def going_on(self, layer: Layer) -> Canvas:
        """A layer of this canvas that goes on from ``layer`` (a :meth:`layer` of the
        same part): a copy of it, with what it drew, to draw more on."""
        canvas = Canvas(
            layer.image.width / self.scale,
            layer.image.height / self.scale,
            self.background,
            scale=self.scale,
            shift=layer.shift,
            texts=list(layer.texts),
            text_boxes=list(layer.text_boxes),
            disc_radii=list(layer.disc_radii),
        )
        canvas.image = layer.image.copy()
        canvas.draw = ImageDraw.Draw(canvas.image)
        return canvas

    def lay(self, layer: Layer) -> None:
        """Puts ``layer`` (a :meth:`layer` of a canvas like this one, kept with
        :meth:`kept`) in its place, over whatever is drawn there, and records what it
        drew."""
        self.image.paste(
            layer.image, (layer.shift[0] - self.shift[0], layer.shift[1] - self.shift[1])
        )
        self.texts += layer.texts
        self.text_boxes += layer.text_boxes
        self.disc_radii += layer.disc_radii

    def kept(self) -> Layer:
        """This canvas as a :class:`Layer`, to be laid with :meth:`lay`."""
        return Layer(
            self.image,
            self.shift,
            tuple(self.texts),
            tuple(self.text_boxes),
            tuple(self.disc_radii),
        )

    def pattern(self, box: Box, kind: Pattern, colour: RGB) -> None:
        """Fills ``box`` with a pattern drawn in ``colour`` (see :class:`Pattern`)."""
        draw_pattern(self, box, kind, colour)

    def picture(self) -> Picture:
        """The finished PNG, reduced to :data:`OUTPUT_SCALE` pixels per layout unit."""
        reduced = self.image.reduce(SUPERSAMPLE) if SUPERSAMPLE > 1 else self.image
        kept = _kept_drawings.get()
        if kept is not None:
            kept.append(reduced.copy())
        if self.palette is not None:
            indexed = self.palette.apply(reduced)
        else:
            indexed = reduced.quantize(
                PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
            )
        out = io.BytesIO()
        indexed.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
        return Picture(
            png=out.getvalue(),
            width=self.width,
            height=self.height,
            texts=tuple(self.texts),
            disc_radii=tuple(self.disc_radii),
            text_boxes=tuple(self.text_boxes),
        )


@dataclass(frozen=True)
class Layer:
    """A part of a picture drawn once (:meth:`Canvas.layer`) and what it drew, to be laid
    on pictures of the same layout (:meth:`Canvas.lay`). Its image is never drawn on
    again: it is pasted."""

    image: Image.Image
    shift: tuple[int, int]
    """The pixel of the whole picture its top left pixel is."""
    texts: tuple[tuple[str, int], ...]
    text_boxes: tuple[Box, ...]
    disc_radii: tuple[float, ...]

    @property
    def bytes(self) -> int:
        """Roughly how much memory its image takes."""
        return self.image.width * self.image.height * 4


class Kept(Generic[V]):
    """Values kept for reuse, by a key that holds everything that decides them, the most
    recently used first, within ``budget`` bytes as ``size`` counts them (the oldest go;
    one larger than the whole budget is not kept).

    Forty lines kept rather than cachetools' ``LRUCache(maxsize, getsizeof)``, which does
    the same but raises for a value over the budget and would be the engine's one
    dependency besides Pillow (tests/engine/test_drawing.py checks the budget)."""

    def __init__(self, budget: int, size: Callable[[V], int]) -> None:
        self.budget = budget
        self._size = size
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self._bytes = 0

    def get(self, key: Hashable, draw: Callable[[], V]) -> V:
        """The value kept for ``key``, or the one ``draw`` makes (then kept)."""
        value = self.find(key)
        if value is None:
            value = draw()
            self.keep(key, value)
        return value

    def find(self, key: Hashable) -> V | None:
        """The value kept for ``key``, if any."""
        value = self._kept.get(key)
        if value is not None:
            self._kept.move_to_end(key)
        return value

    def keep(self, key: Hashable, value: V) -> None:
        """Keep ``value`` for ``key`` (the most recent), letting the oldest go as needed."""
        size = self._size(value)
        if key in self._kept or size > self.budget:
            return
        self._kept[key] = value
        self._bytes += size
        while self._bytes > self.budget:
            _, gone = self._kept.popitem(last=False)
            self._bytes -= self._size(gone)

    def clear(self) -> None:
        self._kept.clear()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def bytes(self) -> int:
        return self._bytes


class Layers(Kept[Layer]):
    """Layers kept for reuse (:class:`Kept`), within ``budget`` bytes of images."""

    def __init__(self, budget: int) -> None:
        super().__init__(budget, lambda layer: layer.bytes)


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
