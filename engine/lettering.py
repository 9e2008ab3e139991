"""How a text becomes glyphs in every game's pictures: which bundled font draws each
character, in what order the pieces stand on the line, and how wide they are.

Players' names come from Discord in any script, and no one font has them all. The fonts in
``engine/fonts`` (its README says how each was made) form a chain (:data:`CHAIN`): DejaVu
Sans first (Latin, Greek, Cyrillic, Armenian, Georgian, symbols), then Noto Sans Hebrew,
Arabic, Devanagari and Thai, Droid Sans Fallback (Chinese characters, kana), Noto Sans CJK
(hangul), Noto Sans Math (the bold and script letters of fancy names) and Noto Emoji
(monochrome). Pillow draws a string in one font, so a text is cut into *runs*, each drawn
by the first font of the chain that has its letters; marks, joiners and variation
selectors stay in the run of the character they belong to, and spaces, digits, punctuation
and symbols stay in the run they follow when its font has them. A character no bundled
font has is drawn by the first font, whose ``.notdef`` is a box: visible, never blank.

Runs stand on the line in visual order, by the Unicode bidirectional algorithm (UAX #9)
on a line laid out left to right, as every picture is, isolates included (:func:`isolated`
sets a name apart from the sentence it is put in); explicit embeddings and overrides are
ignored, and brackets take their sides' direction (no pairing, rule N0). Each run is shaped
by libraqm (Arabic joining, Devanagari conjuncts, Thai marks, right to left inside the run)
when Pillow has it (:data:`SHAPING`: Pillow's wheels carry libraqm and load the system's
libfribidi). Without it a run is laid out by Pillow's basic layout: right-to-left runs are
reversed here (brackets mirrored), Arabic letters stand unjoined and Indic vowel signs
where they were typed, but every character is drawn, in reading order.

Widths are the runs' advances added up, so text measured here (fitting, cutting with "…")
is the text drawn. Fonts, coverage and runs are cached: a picture full of names draws as
fast as one in Latin.
"""

from __future__ import annotations

import functools
import io
import logging
import struct
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

from PIL import ImageDraw, ImageFont, features

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Face:
    """One bundled font of the chain: its file, and its bold file where it has one (text
    in bold falls back to the regular file)."""

    regular: str
    bold: str | None = None

    def file(self, bold: bool) -> str:
        return self.bold if bold and self.bold is not None else self.regular


CHAIN: tuple[Face, ...] = (
    Face("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    Face("NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf"),
    Face("NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"),
    Face("NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Bold.ttf"),
    Face("NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf"),
    Face("DroidSansFallback-Han.ttf"),
    Face("NotoSansCJKkr-Hangul.otf"),
    Face("NotoSansMath-Letters.ttf"),
    Face("NotoEmoji-Regular.ttf"),
)
"""The bundled fonts in the order a character looks for its glyph."""

SHAPING = bool(features.check_feature("raqm"))
"""Whether Pillow shapes text with libraqm (complex scripts, right to left)."""
if not SHAPING:
    log.warning(
        "Pillow cannot shape text (its libraqm needs the system's libfribidi): pictures "
        "draw Arabic letters unjoined and Devanagari and Thai unshaped"
    )


@dataclass(frozen=True)
class Run:
    """A piece of a line drawn by one font in one direction. ``text`` is in reading order
    when shaped (libraqm turns a right-to-left run round), else already as it stands."""

    text: str
    file: str
    rtl: bool


# --------------------------------------------------------------------------- fonts


@functools.cache
def font_data(file: str) -> bytes:
    """A bundled font file's bytes (read once, shared by every size)."""
    return resources.files("engine").joinpath("fonts", file).read_bytes()


def _shaped(shaped: bool | None) -> bool:
    """Shaped as asked, or as :data:`SHAPING` says (read when called, so a test can draw
    as a machine without libraqm does)."""
    return SHAPING if shaped is None else shaped


@functools.cache
def _font(file: str, size: int, shaped: bool) -> ImageFont.FreeTypeFont:
    """The bundled font ``file`` at ``size`` pixels, laid out by libraqm or not."""
    layout = ImageFont.Layout.RAQM if shaped else ImageFont.Layout.BASIC
    return ImageFont.truetype(io.BytesIO(font_data(file)), size, layout_engine=layout)


@functools.cache
def coverage(file: str) -> frozenset[int]:
    """The characters the bundled font ``file`` has a glyph for."""
    return frozenset(cmap_characters(font_data(file)))


def cmap_characters(data: bytes) -> set[int]:
    """The characters an OpenType font maps to a glyph other than ``.notdef``, read from
    its Unicode cmap subtable (format 12, or format 4 for the Basic Multilingual Plane)."""
    (tables,) = struct.unpack_from(">H", data, 4)
    records = (struct.unpack_from(">4sIII", data, 12 + 16 * i) for i in range(tables))
    cmap = next((offset for tag, _, offset, _ in records if tag == b"cmap"), None)
    if cmap is None:
        raise ValueError("the font has no cmap table")
    _, count = struct.unpack_from(">HH", data, cmap)
    subtables: dict[tuple[int, int, int], int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        (form,) = struct.unpack_from(">H", data, cmap + offset)
        subtables[(platform, encoding, form)] = cmap + offset
    for key in ((3, 10, 12), (0, 4, 12), (3, 1, 4), (0, 3, 4)):
        if key in subtables:
            read = _cmap_format_12 if key[2] == 12 else _cmap_format_4
            return read(data, subtables[key])
    raise ValueError("the font has no Unicode cmap of format 4 or 12")


def _cmap_format_12(data: bytes, start: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", data, start + 12)
    found: set[int] = set()
    for i in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * i)
        found.update(range(first if glyph else first + 1, last + 1))
    return found


def _cmap_format_4(data: bytes, start: int) -> set[int]:
    (double,) = struct.unpack_from(">H", data, start + 6)
    segments = double // 2
    ends = struct.unpack_from(f">{segments}H", data, start + 14)
    starts = struct.unpack_from(f">{segments}H", data, start + 16 + double)
    deltas = struct.unpack_from(f">{segments}h", data, start + 16 + 2 * double)
    range_at = start + 16 + 3 * double
    offsets = struct.unpack_from(f">{segments}H", data, range_at)
    found: set[int] = set()
    for i, (first, last, delta, offset) in enumerate(
        zip(starts, ends, deltas, offsets, strict=True)
    ):
        for code in range(first, min(last, 0xFFFE) + 1):
            if offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                (glyph,) = struct.unpack_from(
                    ">H", data, range_at + 2 * i + offset + 2 * (code - first)
                )
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                found.add(code)
    return found


def uncovered(text: str, bold: bool = False) -> str:
    """The characters of ``text`` no bundled font draws (shown as boxes); the invisible
    ones (joiners, variation selectors) are not counted."""
    files = [face.file(bold) for face in CHAIN]
    return "".join(
        char
        for char in text
        if not _invisible(char) and not any(ord(char) in coverage(file) for file in files)
    )


# --------------------------------------------------------------------------- runs


def _invisible(char: str) -> bool:
    """Joiners, variation selectors and other format characters: drawn as nothing, they
    belong to the run they are in."""
    return (
        unicodedata.category(char) == "Cf"
        or 0xFE00 <= ord(char) <= 0xFE0F
        or (0xE0100 <= ord(char) <= 0xE01EF)
    )


def _font_index(char: str, current: int | None, files: Sequence[str]) -> int:
    """Which font of the chain draws ``char``, the run so far being drawn by ``current``."""
    if current is not None and _invisible(char):
        return current
    code = ord(char)
    follows = unicodedata.category(char)[0] != "L"
    if current is not None and follows and code in coverage(files[current]):
        return current
    for index, file in enumerate(files):
        if code in coverage(file):
            return index
    return 0


MIRRORED = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))
"""Brackets as they stand in a right-to-left run (basic layout only: libraqm mirrors)."""


def runs(text: str, bold: bool = False, shaped: bool | None = None) -> tuple[Run, ...]:
    """``text`` cut into runs by font and direction, in the order they stand from left to
    right (see the module docstring)."""
    return _runs(text, bold, _shaped(shaped))


@functools.lru_cache(maxsize=8192)
def _runs(text: str, bold: bool, shaped: bool) -> tuple[Run, ...]:
    files = [face.file(bold) for face in CHAIN]
    if text.isascii():
        return (Run(text, files[0], False),)
    text = unicodedata.normalize("NFC", text)
    pieces: list[tuple[int, int, list[str]]] = []
    current: int | None = None
    for char, level in zip(text, bidi_levels(text), strict=True):
        if unicodedata.bidirectional(char) in CONTROLS or (not shaped and _invisible(char)):
            continue
        index = _font_index(char, current, files)
        if pieces and pieces[-1][0] == index and pieces[-1][1] == level:
            pieces[-1][2].append(char)
        else:
            pieces.append((index, level, [char]))
        current = index
    ordered = visual_order([level for _, level, _ in pieces])
    laid: list[Run] = []
    for position in ordered:
        index, level, chars = pieces[position]
        rtl = level % 2 == 1
        piece = "".join(chars)
        if rtl and not shaped:
            piece = "".join(MIRRORED.get(char, char) for char in reversed(piece))
        laid.append(Run(piece, files[index], rtl))
    return tuple(laid)


def visual_order(levels: Sequence[int]) -> list[int]:
    """The pieces at ``levels`` (in reading order) in the order they stand from left to
    right: from the highest level to the lowest odd one, every stretch at that level or
    higher is turned round (UAX #9, rule L2)."""
    order = list(range(len(levels)))
    odd = [level for level in levels if level % 2]
    if not odd:
        return order
    for level in range(max(levels), min(odd) - 1, -1):
        start = 0
        while start < len(order):
            if levels[order[start]] < level:
                start += 1
                continue
            end = start
            while end < len(order) and levels[order[end]] >= level:
                end += 1
            order[start:end] = order[start:end][::-1]
            start = end
    return order


STRONG = frozenset({"L", "R", "AL"})
NEUTRAL = frozenset({"B", "S", "WS", "ON"})
EMBEDDINGS = frozenset({"BN", "LRE", "RLE", "LRO", "RLO", "PDF"})
"""Explicit embeddings and overrides (and boundary neutrals): ignored (rule X9)."""
OPENERS = frozenset({"LRI", "RLI", "FSI"})
ISOLATES = OPENERS | {"PDI"}
CONTROLS = (EMBEDDINGS - {"BN"}) | ISOLATES
"""The bidirectional formatting characters: they place text and are not drawn."""
TRAILING = frozenset({"WS", "S", "B"}) | EMBEDDINGS | ISOLATES
"""What rule L1 puts back at the line's level at its end."""


def isolated(text: str) -> str:
    """``text`` set apart from the text it is put in (first-strong isolate), so that a
    right-to-left name keeps its place in a left-to-right sentence and the words after it
    stay after it ("Map of محمد · 3 stars", not "Map of 3 · محمد stars"). Text without
    right-to-left letters is returned as it is."""
    if any(unicodedata.bidirectional(char) in ("R", "AL") for char in text):
        return f"\u2068{text}\u2069"
    return text


def bidi_levels(text: str) -> list[int]:
    """Each character's embedding level (even: left to right, odd: right to left) on a
    line laid out left to right, as pictures are, by the Unicode bidirectional algorithm
    (UAX #9) with isolates (LRI, RLI, FSI … PDI) and without explicit embeddings or
    overrides (ignored)."""
    classes = [unicodedata.bidirectional(char) or "L" for char in text]
    levels = _resolve(classes, 0)
    end = len(text)
    while end > 0 and classes[end - 1] in TRAILING:  # L1
        end -= 1
        levels[end] = 0
    return levels


def _resolve(classes: Sequence[str], level: int) -> list[int]:
    """The levels of text of bidirectional ``classes`` embedded at ``level``: each isolate
    resolved on its own one or two levels up (its direction its first strong letter's
    for FSI), and counted as a neutral around it (rules X5a–X6a, W1–W7, N1–N2, I1–I2)."""
    if level % 2 == 0 and not any(kind in ("R", "AL", "AN", "RLI") for kind in classes):
        return [level] * len(classes)
    levels = [level] * len(classes)
    outside: list[int] = []
    start = 0
    while start < len(classes):
        kind = classes[start]
        if kind not in OPENERS:
            if kind not in EMBEDDINGS:
                outside.append(start)
            start += 1
            continue
        end = _closing(classes, start)
        inside = classes[start + 1 : end]
        rtl = kind == "RLI" or (
            kind == "FSI" and next((c for c in inside if c in STRONG), "L") != "L"
        )
        above = level + 1 if (level + 1) % 2 == rtl else level + 2
        levels[start + 1 : end] = _resolve(inside, above)
        outside.extend(i for i in (start, end) if i < len(classes))
        start = end + 1
    types = ["ON" if classes[i] in ISOLATES else classes[i] for i in outside]
    for i, kind in zip(outside, _weak_and_neutral(types, "R" if level % 2 else "L"), strict=True):
        if level % 2 == 0:  # I1, I2
            levels[i] = level if kind == "L" else level + 1 if kind == "R" else level + 2
        else:
            levels[i] = level if kind == "R" else level + 1
    for i, kind in enumerate(classes):  # what X9 ignored stays with the text before it
        if kind in EMBEDDINGS and i > 0:
            levels[i] = levels[i - 1]
    return levels


def _closing(classes: Sequence[str], opener: int) -> int:
    """Where the isolate opened at ``opener`` closes (its PDI), or the end of the text."""
    depth = 0
    for i in range(opener, len(classes)):
        if classes[i] in OPENERS:
            depth += 1
        elif classes[i] == "PDI":
            depth -= 1
            if depth == 0:
                return i
    return len(classes)


def _weak_and_neutral(types: list[str], edge: str) -> list[str]:
    """``types`` (one isolating run) resolved to L, R, EN or AN (rules W1–W7, N1–N2),
    ``edge`` being the direction at both its ends."""
    previous = edge
    for i, kind in enumerate(types):  # W1: a mark takes the type before it
        if kind == "NSM":
            types[i] = previous
        previous = types[i]
    strong = edge
    for i, kind in enumerate(types):  # W2, W3: numbers after Arabic letters are Arabic
        if kind in STRONG:
            strong = kind
        elif kind == "EN" and strong == "AL":
            types[i] = "AN"
    types = ["R" if kind == "AL" else kind for kind in types]
    for i in range(1, len(types) - 1):  # W4: 1,000 and 1.5 stay one number
        before, after = types[i - 1], types[i + 1]
        if types[i] == "ES" and before == after == "EN":
            types[i] = "EN"
        elif types[i] == "CS" and before == after and before in ("EN", "AN"):
            types[i] = before
    for start, end in _stretches(types, {"ET"}):  # W5: $ and % go with their number
        if (start > 0 and types[start - 1] == "EN") or (end < len(types) and types[end] == "EN"):
            types[start:end] = ["EN"] * (end - start)
    types = ["ON" if kind in ("ES", "ET", "CS") else kind for kind in types]  # W6
    strong = edge
    for i, kind in enumerate(types):  # W7: numbers in left-to-right text are letters
        if kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            types[i] = "L"
    for start, end in _stretches(types, NEUTRAL):  # N1, N2: neutrals take their sides'
        before = _side(types[start - 1]) if start > 0 else edge
        after = _side(types[end]) if end < len(types) else edge
        types[start:end] = [before if before == after else edge] * (end - start)
    return types


def _side(kind: str) -> str:
    """The direction a resolved type gives the neutrals beside it (numbers count as
    right to left)."""
    return "L" if kind == "L" else "R"


def _stretches(types: Sequence[str], wanted: set[str] | frozenset[str]) -> list[tuple[int, int]]:
    """The maximal stretches ``[start, end)`` of ``types`` whose types are all in
    ``wanted``."""
    found = []
    start = None
    for i, kind in enumerate([*types, ""]):
        if kind in wanted and start is None:
            start = i
        elif kind not in wanted and start is not None:
            found.append((start, i))
            start = None
    return found


# --------------------------------------------------------------------------- measure, draw


def _direction(run: Run, shaped: bool) -> str | None:
    """The direction libraqm lays ``run`` out in (basic layout takes none)."""
    return ("rtl" if run.rtl else "ltr") if shaped else None


def length(text: str, size: int, bold: bool = False, shaped: bool | None = None) -> float:
    """How far ``text`` advances at ``size`` pixels."""
    shaped = _shaped(shaped)
    return sum(
        _font(run.file, size, shaped).getlength(run.text, direction=_direction(run, shaped))
        for run in _runs(text, bold, shaped)
    )


@functools.cache
def line_metrics(size: int, bold: bool = False) -> tuple[int, int]:
    """A line's ascent and descent at ``size`` pixels: the first font's, whatever fonts
    its runs take."""
    return _font(CHAIN[0].file(bold), size, SHAPING).getmetrics()


def draw_text(
    draw: ImageDraw.ImageDraw,
    place: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    anchor: str = "la",
    bold: bool = False,
    stroke_width: int = 0,
    stroke_fill: Colour | None = None,
    shaped: bool | None = None,
) -> None:
    """Draws ``text`` at ``size`` pixels, ``anchor`` (Pillow's two letters: left, middle
    or right; ascender, top, middle, baseline, bottom or descender) at ``place``. The line's
    vertical metrics are the first font's, whatever fonts its runs take."""
    shaped = _shaped(shaped)
    laid = _runs(text, bold, shaped)
    first = _font(CHAIN[0].file(bold), size, shaped)
    if len(laid) == 1 and laid[0].file == CHAIN[0].file(bold) and not laid[0].rtl:
        draw.text(
            place,
            laid[0].text,
            font=first,
            fill=fill,
            anchor=anchor,
            stroke_width=stroke_width,
            stroke_fill=stroke_fill,
        )
        return
    fonts = [_font(run.file, size, shaped) for run in laid]
    advances = [
        typeface.getlength(run.text, direction=_direction(run, shaped))
        for typeface, run in zip(fonts, laid, strict=True)
    ]
    horizontal, vertical = anchor[0], anchor[1]
    x = place[0] - sum(advances) * {"l": 0.0, "m": 0.5, "r": 1.0}[horizontal]
    ascent, descent = first.getmetrics()
    if vertical in "tb":
        boxes = [
            typeface.getbbox(run.text, anchor="ls", direction=_direction(run, shaped))
            for typeface, run in zip(fonts, laid, strict=True)
        ]
        rise = min(box[1] for box in boxes) if vertical == "t" else max(box[3] for box in boxes)
        baseline = place[1] - rise
    else:
        baseline = (
            place[1] + {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}[vertical]
        )
    for typeface, run, advance in zip(fonts, laid, advances, strict=True):
        draw.text(
            (x, baseline),
            run.text,
            font=typeface,
            fill=fill,
            anchor="ls",
            stroke_width=stroke_width,
            stroke_fill=stroke_fill,
            direction=_direction(run, shaped),
        )
        x += advance
