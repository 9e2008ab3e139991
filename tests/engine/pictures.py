"""Golden pictures: a fixed position's picture compared with the picture stored when it
was last read by eye (``golden/*.png`` beside the test).

Pictures are compared as players see them, decoded to colour, pixel by pixel: the same
size, and every pixel within :data:`MOST` of the stored one in each channel, the mean
difference within :data:`MEAN`. Not exact, because a picture is saved with a palette:
the shades of its smoothed text and edges are the palette's nearest. The stored pictures
were saved with colours picked for each picture, up to 15 from the drawing in a channel
and about 1 on average; the games' palettes keep within 17, and 0.1 on average. A
layout that moved, a colour that changed or a layer drawn for another position differs
by far more than :data:`MOST` somewhere.
After a deliberate change of a picture, rewrite the stored ones with

    CIRCUS_UPDATE_GOLDEN=1 python -m pytest tests/engine -k golden

and look at every changed picture before committing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops

UPDATE = os.environ.get("CIRCUS_UPDATE_GOLDEN") == "1"
MOST = 32
"""The largest difference allowed in a channel of one pixel (0–255)."""
MEAN = 1.5
"""The largest mean difference allowed over all pixels (the most different channel of
each)."""


def differences(first: Image.Image, second: Image.Image) -> list[int]:
    """How many pixels differ by each amount (0–255) in their most different channel."""
    red, green, blue = ImageChops.difference(first, second).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()


def decoded(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def check_golden_picture(path: Path, png: bytes) -> None:
    """``png`` looks like the stored picture ``path`` (see the module docstring)."""
    if UPDATE:
        path.write_bytes(png)
    assert path.exists(), f"{path.name} is missing: run with CIRCUS_UPDATE_GOLDEN=1"
    now, then = decoded(png), decoded(path.read_bytes())
    assert now.size == then.size, f"{path.name}: {now.size} instead of {then.size}"
    counts = differences(now, then)
    most = max(level for level, count in enumerate(counts) if count)
    mean = sum(level * count for level, count in enumerate(counts)) / sum(counts)
    assert most <= MOST and mean <= MEAN, (
        f"{path.name} differs: up to {most} in a channel, {mean:.2f} on average"
    )
