"""Display names in every script, and a check that a picture draws each of them: every
character by a bundled font, and ink in the name's box, as much as the name alone has."""

from __future__ import annotations

import io
from collections.abc import Iterable

from PIL import Image

from engine.drawing import INK, OUTPUT_SCALE, WHITE, Box, Canvas, Picture
from engine.lettering import uncovered

NAMES = (
    "李小龙",
    "Σωκράτης",
    "Дмитрий",
    "محمد",
    "דוד",
    "देवनागरी",
    "สมชาย",
    "🐉😀",
    "김민준",
    "さくら",
    "𝓐𝓵𝓲𝓬𝓮",
    "Ana 李 محمد 2 דוד",
)
"""Display names in every script a picture must draw, the last mixing them."""


def _ink(image: Image.Image, box: Box) -> int:
    """How many pixels of ``box`` (layout units) stand out from its commonest colour."""
    left, top, right, bottom = (round(edge * OUTPUT_SCALE) for edge in box)
    crop = image.crop((left - 2, top - 2, right + 2, bottom + 2))
    colours = crop.getcolors(crop.width * crop.height) or []
    _, background = max(colours)
    return sum(
        count
        for count, colour in colours
        if max(abs(a - b) for a, b in zip(colour, background, strict=True)) > 80
    )


def ink_alone(text: str, size: int) -> int:
    """The ink of ``text`` drawn by itself at ``size``, in ink on white."""
    canvas = Canvas(20 + len(text) * size * 2, size * 3, WHITE)
    canvas.text((10, size * 1.5), text, size, INK, "lm")
    picture = canvas.picture()
    return _ink(Image.open(io.BytesIO(picture.png)).convert("RGB"), picture.text_boxes[0])


def assert_names_drawn(picture: Picture, names: Iterable[str]) -> None:
    """Each of ``names`` is drawn whole somewhere in ``picture``, every character of it by
    a bundled font that has it (none is a box), and each text showing it holds most of the
    ink the name alone has (a blank or half-blank name has far less)."""
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    for name in names:
        assert uncovered(name) == "", name
        shown = [
            (size, box)
            for (text, size), box in zip(picture.texts, picture.text_boxes, strict=True)
            if name in text
        ]
        assert shown, f"{name} is not drawn whole"
        for size, box in shown:
            ink = ink_alone(name, size)
            assert ink > 0 and _ink(image, box) >= 0.6 * ink, name
