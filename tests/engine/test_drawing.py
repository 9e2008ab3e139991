"""The shared drawing helpers: text that fits, readable ink, patterns, recorded sizes."""

import io

import pytest
from PIL import Image

from engine.drawing import (
    ELLIPSIS,
    INK,
    MIN_TEXT,
    OUTPUT_SCALE,
    WHITE,
    Canvas,
    Pattern,
    fit_text,
    text_colour,
    text_width,
    wrap_text,
)


def test_text_that_fits_keeps_its_size() -> None:
    assert fit_text("Turn 3", 200, 16) == ("Turn 3", 16)


def test_text_too_wide_shrinks_then_is_cut_at_the_smallest_size() -> None:
    shown, size = fit_text("Maximilianus", text_width("Maximilianus", 14) + 1, 16)
    assert shown == "Maximilianus" and size in (14, 15)
    shown, size = fit_text("W" * 40, 100, 16)
    assert size == MIN_TEXT
    assert shown.endswith(ELLIPSIS)
    assert text_width(shown, size) <= 100


def test_wrapped_lines_fit_and_keep_every_word() -> None:
    sentence = "1 star per cell of the largest village cluster not next to a mountain."
    lines = wrap_text(sentence, 150, 12)
    assert len(lines) > 1
    assert all(text_width(line, 12) <= 150 for line in lines)
    assert " ".join(lines) == sentence


def test_ink_is_chosen_for_contrast() -> None:
    assert text_colour((245, 245, 240)) == INK
    assert text_colour((36, 36, 36)) == WHITE


def test_the_canvas_records_what_it_draws_and_outputs_at_scale() -> None:
    canvas = Canvas(100, 50, (255, 255, 255))
    canvas.text((10, 10), "Hello", 13, INK)
    canvas.piece((50, 25), 11, (200, 0, 0), "R", 12)
    picture = canvas.picture()
    assert picture.says("Hello") and picture.says("R")
    assert picture.text_sizes == (13, 12)
    assert picture.disc_radii == (11,)
    assert picture.smallest_text(shown_width=200) == 24
    image = Image.open(io.BytesIO(picture.png))
    assert image.size == (100 * OUTPUT_SCALE, 50 * OUTPUT_SCALE)


@pytest.mark.parametrize("kind", list(Pattern))
def test_every_pattern_marks_its_box(kind: Pattern) -> None:
    canvas = Canvas(40, 40, (255, 255, 255))
    canvas.pattern((0, 0, 40, 40), kind, INK)
    image = Image.open(io.BytesIO(canvas.picture().png)).convert("L")
    assert image.getextrema()[0] < 128
