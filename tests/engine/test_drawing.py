"""The shared drawing helpers: text that fits, readable ink, patterns, recorded sizes, and
text in every script (each character drawn by a bundled font, in reading order)."""

import io
from collections.abc import Callable

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

from engine import lettering
from engine.drawing import (
    ELLIPSIS,
    INK,
    MIN_TEXT,
    OUTPUT_SCALE,
    WHITE,
    Canvas,
    Kept,
    Layer,
    Layers,
    Pattern,
    fit_text,
    text_colour,
    text_width,
    without_last_character,
    wrap_text,
)
from engine.lettering import bidi_levels, isolated, runs, visual_order
from tests.engine.scripts import NAMES


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


def _scene(canvas: Canvas) -> None:
    """Shapes and text at fractions of a pixel, inside (13.3, 20.7)–(91.1, 70.4)."""
    canvas.rect((13.3, 20.7, 40.45, 44.1), (200, 80, 60), INK, 1.5, radius=4.2)
    canvas.circle((60.37, 33.21), 9.6, (40, 160, 90), INK, 1)
    canvas.line([(14.1, 69.9), (50.55, 52.3), (90.9, 68.05)], (30, 60, 200), 2.3)
    canvas.polygon([(70.2, 45.5), (90.7, 50.1), (78.3, 70.2)], (230, 200, 40), INK)
    canvas.arc((20.6, 46.3, 44.9, 69.8), 180, 360, INK, 1.2)
    canvas.pattern((47.3, 21.9, 91.1, 44.6), Pattern.HOUSES, (90, 90, 90))
    canvas.piece((30.55, 58.45), 10, (150, 60, 170), "B", 12)
    canvas.text((52.3, 60.6), "Zoë 12", 12, INK, "lm")


def test_a_layer_drawn_apart_is_laid_pixel_for_pixel_as_drawn_in_place() -> None:
    whole = Canvas(100, 90, (240, 230, 210))
    whole.text((5, 5), "above", 12, INK)
    _scene(whole)
    laid = Canvas(100, 90, (240, 230, 210))
    laid.text((5, 5), "above", 12, INK)
    layer = laid.layer((13.3, 20.7, 91.1, 70.4), 1.5)
    _scene(layer)
    laid.lay(layer.kept())
    assert laid.image.tobytes() == whole.image.tobytes()
    assert (laid.texts, laid.text_boxes, laid.disc_radii) == (
        whole.texts,
        whole.text_boxes,
        whole.disc_radii,
    )


def test_kept_layers_stay_within_their_budget_the_most_recently_used_staying() -> None:
    canvas = Canvas(100, 100, WHITE)
    layer = canvas.layer((0, 0, 50, 50), 0).kept()  # 100 × 100 pixels
    kept = Layers(budget=3 * layer.bytes)
    drawn: list[str] = []

    def draw(name: str) -> Callable[[], Layer]:
        def drawing() -> Layer:
            drawn.append(name)
            return layer

        return drawing

    for name in ("a", "b", "c", "a", "d"):
        assert kept.get(name, draw(name)) is layer
    assert drawn == ["a", "b", "c", "d"]
    assert len(kept) == 3 and kept.bytes == 3 * layer.bytes
    kept.get("a", draw("a again"))
    kept.get("b", draw("b again"))
    assert drawn[-1] == "b again"


def test_values_kept_stay_within_their_budget_the_oldest_going_first() -> None:
    kept: Kept[bytes] = Kept(budget=10, size=len)
    kept.keep("a", b"1234")
    kept.keep("b", b"5678")
    assert kept.find("a") == b"1234"  # now the most recent
    kept.keep("c", b"90ab")
    assert kept.find("b") is None and kept.find("a") == b"1234" and kept.find("c") == b"90ab"
    kept.keep("huge", b"x" * 11)
    assert kept.find("huge") is None and kept.find("a") == b"1234"


@pytest.mark.parametrize("kind", list(Pattern))
def test_every_pattern_marks_its_box(kind: Pattern) -> None:
    canvas = Canvas(40, 40, (255, 255, 255))
    canvas.pattern((0, 0, 40, 40), kind, INK)
    image = Image.open(io.BytesIO(canvas.picture().png)).convert("L")
    assert image.getextrema()[0] < 128


# --------------------------------------------------------------------------- every script


NO_FONT_HAS = "\ue000"
"""A private-use character: no bundled font has it."""


def drawn(text: str, bold: bool = False) -> Image.Image:
    """``text`` drawn at 16 on a white strip, as grey levels."""
    canvas = Canvas(300, 40, WHITE)
    canvas.text((10, 20), text, 16, INK, "lm", bold)
    return Image.open(io.BytesIO(canvas.picture().png)).convert("L")


def ink(image: Image.Image) -> int:
    """How many pixels are dark."""
    return sum(count for level, count in enumerate(image.histogram()) if level < 128)


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_every_character_of_every_script_is_drawn_with_its_own_glyph(name: str, bold: bool) -> None:
    assert ink(drawn(name, bold)) > 0
    for char in name.replace(" ", ""):
        assert ink(drawn(char, bold)) > 0, f"{char!r} of {name} is blank"
        (run,) = runs(char, bold)
        assert ord(char) in lettering.coverage(run.file), f"{char!r} of {name} is a box"


def test_a_character_no_font_has_is_drawn_as_a_box_in_the_texts_ink() -> None:
    assert ink(drawn(NO_FONT_HAS)) > 20
    assert ink(drawn(f"ab{NO_FONT_HAS}")) > ink(drawn("ab"))


@pytest.mark.parametrize("name", NAMES)
def test_text_is_measured_as_it_is_drawn(name: str) -> None:
    image = drawn(name)
    left, _, right, _ = image.point(lambda level: 255 if level < 128 else 0).getbbox() or (0,) * 4
    width = text_width(name, 16) * OUTPUT_SCALE
    start = 10 * OUTPUT_SCALE
    em = 16 * OUTPUT_SCALE  # ink may stand a little off its advance (side bearings, marks)
    assert start - em / 8 <= left <= start + em / 4
    assert start + width - em / 2 <= right <= start + width + em / 4


def test_right_to_left_names_stand_right_to_left_among_left_to_right_text() -> None:
    assert bidi_levels("abc אבג def") == [0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0]
    assert bidi_levels("אבג 123 abc") == [1, 1, 1, 1, 2, 2, 2, 0, 0, 0, 0]
    assert bidi_levels("محمد 12") == [1, 1, 1, 1, 1, 2, 2]
    assert visual_order([0, 1, 1, 0]) == [0, 2, 1, 3]
    assert visual_order([1, 2, 1]) == [2, 1, 0]
    laid = runs("Ana דוד 2 محمد", shaped=True)
    assert [run.text for run in laid] == ["Ana ", "محمد", " ", "2", " ", "דוד"]
    assert [run.rtl for run in laid] == [False, True, True, False, True, True]


def test_a_right_to_left_name_put_in_a_sentence_keeps_the_words_after_it_after_it() -> None:
    assert bidi_levels("a محمد · 3 b") == [0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0]
    assert isolated("Ana") == "Ana"
    sentence = f"a {isolated('محمد')} · 3 b"
    assert bidi_levels(sentence) == [0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    assert [run.text for run in runs(sentence, shaped=True)] == ["a ", "محمد", " · 3 b"]


def test_without_libraqm_every_name_is_still_drawn_in_reading_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lettering, "SHAPING", False)
    assert [run.text for run in runs("Ana אבג")] == ["Ana ", "גבא"]
    assert [run.text for run in runs("אב (גד) הו")] == ["וה", " (", "דג", ") ", "בא"]
    for name in NAMES:
        assert ink(drawn(name)) > 0, name
        assert fit_text(name, 40, 16)[0]


def test_names_are_cut_between_characters_as_a_reader_sees_them() -> None:
    thumbs = "👍🏽" * 30
    shown, _ = fit_text(thumbs, 80, 16)
    assert shown.endswith(ELLIPSIS) and shown[:-1] == "👍🏽" * (len(shown[:-1]) // 2)
    family = "👨‍👩‍👧" * 20
    shown, _ = fit_text(family, 80, 16)
    assert shown[:-1] == "👨‍👩‍👧" * (len(shown[:-1]) // 5)
    assert without_last_character("क्ष") == ""
    assert without_last_character("देव") == "दे"
    assert without_last_character("é") == "" and without_last_character("ab") == "a"


@pytest.mark.parametrize("face", lettering.CHAIN)
def test_the_coverage_read_from_each_bundled_font_is_its_cmap(face: lettering.Face) -> None:
    for file in {face.regular, face.bold} - {None}:
        assert file is not None
        cmap = TTFont(io.BytesIO(lettering.font_data(file))).getBestCmap()
        assert lettering.coverage(file) == {
            code for code, glyph in cmap.items() if glyph != ".notdef"
        }


@pytest.mark.parametrize("place", [(12.0, 30.0), (12.25, 30.5), (12.75, 30.125)])
@pytest.mark.parametrize("text", ["Turn 12", "Ana דוד 2 محمد"])
def test_text_drawn_from_remembered_glyphs_is_what_pillow_draws(
    text: str, place: tuple[float, float]
) -> None:
    """Each run's glyphs are rasterised once per fraction of a pixel it starts at, then
    stamped: the same pixels as Pillow drawing the runs itself, wherever the text falls."""
    alone = Image.new("RGB", (400, 60), WHITE)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lettering, "_draw_run", _pillow_run)
        lettering.draw_text(ImageDraw.Draw(alone), place, text, 28, INK, "lm")
    before = lettering._glyph_mask.cache_info().hits
    for _ in range(2):
        stamped = Image.new("RGB", (400, 60), WHITE)
        lettering.draw_text(ImageDraw.Draw(stamped), place, text, 28, INK, "lm")
        assert stamped.tobytes() == alone.tobytes()
    assert lettering._glyph_mask.cache_info().hits > before


def _pillow_run(
    draw: ImageDraw.ImageDraw,
    place: tuple[float, float],
    text: str,
    typeface: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
    anchor: str,
    direction: str | None,
    stroke_width: int,
    stroke_fill: tuple[int, int, int] | None,
) -> None:
    """A run as Pillow draws it."""
    draw.text(place, text, font=typeface, fill=fill, anchor=anchor, direction=direction)
