"""The public board as a picture (spec §2, §9), designed for a phone first: Discord shows
it about 400 px wide there, and every text and chariot stays readable at that width.

From the top:

* the turn and the emperor die, then the crowd cards (the usable one outlined in gold);
  once the race is over, the winner instead;
* **where the chariots are**: a close-up of the stretch of track they stand on, drawn
  straight, left to right in the direction of the race, every space numbered by its lap
  index (1–62 from the finish line), outer spaces hatched, long empty stretches folded into
  one "+n" cell, the chariots of a space stacked with the one ahead (lane 0) on top, and a
  legend;
* the whole lap as a small oval, with the close-up's spaces in gold and every chariot's
  disc beside its space;
* the table: one two-line row per chariot in race order (place, chariot and name, lap,
  damage, attack boxes, tokens held; its four skills and last move).

Laid out in the phone's pixels on a :class:`~engine.drawing.Canvas` (see
:mod:`engine.drawing`), which records the sizes it draws at for the render test. Like
:func:`~engine.charioteer.render.board.board_text` it reads only public information.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.charioteer.components import COLOURS, Card, Colour, EmperorFace
from engine.charioteer.moves import RevealedMove
from engine.charioteer.render.board import last_move_text
from engine.charioteer.render.common import (
    CHARIOT_RGB,
    chariot_colour,
    chariot_mark,
    display_names,
    say,
    section_key,
    section_named,
    skill_text,
    symbol_text,
)
from engine.charioteer.track import (
    LAP_LENGTH,
    OUTER_LAP_INDICES,
    SECTIONS,
    START_LAP_INDEX,
    Section,
    lap_index,
)
from engine.charioteer.view import PublicChariot, SeatView
from engine.drawing import (
    INK,
    PHONE_WIDTH,
    RGB,
    WHITE,
    Canvas,
    Pattern,
    Picture,
    Point,
    bundled_palette,
)
from engine.lettering import isolated

WIDTH = PHONE_WIDTH
PALETTE = bundled_palette("charioteer")
"""The colours its pictures are saved with (``engine/palettes/charioteer.txt``)."""
MARGIN = 10

BACKGROUND: RGB = (238, 228, 205)
TRACK: RGB = (198, 168, 120)
TRACK_EDGE: RGB = (150, 118, 76)
INFIELD: RGB = (104, 142, 84)
INFIELD_TEXT: RGB = (246, 244, 232)
REGULAR_FILL: RGB = (246, 238, 218)
OUTER_FILL: RGB = (214, 130, 96)
OUTER_HATCH: RGB = (150, 70, 40)
MUTED: RGB = (96, 86, 72)
CARD_FILL: RGB = (252, 248, 236)
GOLD: RGB = (222, 170, 30)
DARK_GOLD: RGB = (150, 105, 0)
ZEBRA: RGB = (228, 215, 186)
CARD_RGB: dict[Colour, RGB] = {
    Colour.GREEN: (52, 150, 70),
    Colour.RED: (204, 52, 52),
    Colour.YELLOW: (232, 184, 28),
    Colour.BLACK: (36, 36, 36),
}
SKILL_TEXT: dict[Colour, RGB] = {
    Colour.GREEN: WHITE,
    Colour.RED: WHITE,
    Colour.YELLOW: INK,
    Colour.BLACK: WHITE,
}
EMPEROR_RGB: dict[EmperorFace, RGB] = {
    EmperorFace.GREEN: CARD_RGB[Colour.GREEN],
    EmperorFace.RED: CARD_RGB[Colour.RED],
    EmperorFace.YELLOW: CARD_RGB[Colour.YELLOW],
    EmperorFace.BLACK: CARD_RGB[Colour.BLACK],
    EmperorFace.DISRUPT: (120, 120, 128),
}

TEXT = 14
"""Body text; nothing is smaller than :data:`~engine.drawing.MIN_TEXT`."""
SMALL = 12
TITLE = 15

HEADER_HEIGHT = 44
CROWD_HEIGHT = 78
CARD_HEIGHT = 50

CELLS_PER_ROW = 12
CELL_WIDTH = (WIDTH - 2 * MARGIN) / CELLS_PER_ROW
PIECE_RADIUS = 12
"""A chariot in the close-up."""
PIECE_STEP = 2 * PIECE_RADIUS + 2
SECTION_LABEL = 16
NUMBER_ROW = 18
KEEP_EMPTY = 5
"""Empty spaces between chariots shown one by one; longer runs fold into a "+n" cell."""
LEGEND_LINE = 18
LEGEND_LINES = 4
"""Outer spaces, folded stretches, how spaces are counted, which chariot is ahead."""

OVAL_SPACING = 13
"""Layout units between neighbouring spaces on the small oval of the whole lap."""
OVAL_DOT = 3.5
OVAL_OUTER_OFFSET = 7
OVAL_BAND = 9
OVAL_PIECE = 10
"""A chariot on the oval."""
OVAL_PIECE_STEP = 2 * OVAL_PIECE + 2

TABLE_HEADER = 36
TABLE_ROW = 48
TABLE_PIECE = 11


# --------------------------------------------------------------------------- close-up


@dataclass(frozen=True)
class Cell:
    """One cell of the close-up: a space by lap index, or ``skipped`` empty spaces folded
    into one cell (``index`` is then ``None``)."""

    index: int | None
    skipped: int = 0


def _next(index: int) -> int:
    return index % LAP_LENGTH + 1


def _previous(index: int) -> int:
    return (index - 2) % LAP_LENGTH + 1


def closeup_cells(occupied: Sequence[int]) -> list[Cell]:
    """The close-up of the lap indices ``occupied``: from one space behind the last chariot
    to one space ahead of the first, going round the lap the short way (leaving out the
    longest empty stretch), runs of more than :data:`KEEP_EMPTY` empty spaces between
    chariots folded into one cell that keeps their first and last space."""
    spaces = sorted(set(occupied))
    if not spaces:
        return []
    gaps = [
        ((spaces[(number + 1) % len(spaces)] - index - 1) % LAP_LENGTH, number)
        for number, index in enumerate(spaces)
    ]
    if len(spaces) == 1:
        gaps = [(LAP_LENGTH - 1, 0)]
    _, widest = max(gaps, key=lambda gap: (gap[0], -gap[1]))
    rearmost = spaces[(widest + 1) % len(spaces)]
    leader = spaces[widest]
    walk = [_previous(rearmost)] if _previous(rearmost) != leader else []
    index = rearmost
    while True:
        walk.append(index)
        if index == leader:
            break
        index = _next(index)
    if _next(leader) not in walk:
        walk.append(_next(leader))

    taken = set(spaces)
    cells: list[Cell] = []
    run: list[int] = []
    for index in walk:
        if index in taken:
            if len(run) > KEEP_EMPTY and cells:
                cells += [Cell(run[0]), Cell(None, len(run) - 2), Cell(run[-1])]
            else:
                cells += [Cell(empty) for empty in run]
            run = []
            cells.append(Cell(index))
        else:
            run.append(index)
    cells += [Cell(empty) for empty in run]
    return cells


def _section_of_index(index: int) -> Section:
    """The section holding lap index ``index``."""
    return next(section for section in SECTIONS if section.first <= index <= section.last)


def _stacks(view: SeatView) -> dict[int, list[PublicChariot]]:
    """Chariots by lap index, lane 0 (ahead, inside) first."""
    spaces: dict[int, list[PublicChariot]] = {}
    for chariot in sorted(view.chariots, key=lambda c: (-c.position, c.lane)):
        spaces.setdefault(lap_index(chariot.position), []).append(chariot)
    return spaces


def _rows(cells: Sequence[Cell]) -> list[list[Cell]]:
    return [
        list(cells[start : start + CELLS_PER_ROW]) for start in range(0, len(cells), CELLS_PER_ROW)
    ]


def _row_height(row: Sequence[Cell], stacks: Mapping[int, list[PublicChariot]]) -> float:
    deepest = max((len(stacks.get(cell.index, [])) for cell in row if cell.index), default=0)
    return SECTION_LABEL + max(1, deepest) * PIECE_STEP + 2 + NUMBER_ROW


def _closeup_height(view: SeatView) -> float:
    stacks = _stacks(view)
    rows = _rows(closeup_cells(list(stacks)))
    return 24 + sum(_row_height(row, stacks) for row in rows) + 6 + LEGEND_LINES * LEGEND_LINE


def _draw_closeup(canvas: Canvas, top: float, view: SeatView, locale: str) -> None:
    stacks = _stacks(view)
    cells = closeup_cells(list(stacks))
    canvas.text((MARGIN, top + 4), say(locale, "image.closeup"), TITLE, INK, "la", bold=True)
    y = top + 24
    for row in _rows(cells):
        height = _row_height(row, stacks)
        tile_top = y + SECTION_LABEL
        tile_bottom = y + height - NUMBER_ROW
        labels: list[tuple[float, Section]] = []
        for column, cell in enumerate(row):
            left = MARGIN + column * CELL_WIDTH
            middle = left + CELL_WIDTH / 2
            if cell.index is None:
                for dot in (-7.0, 0.0, 7.0):
                    canvas.circle((middle + dot, (tile_top + tile_bottom) / 2), 2, MUTED)
                canvas.text((middle, tile_bottom + 3), f"+{cell.skipped}", SMALL, MUTED, "mt", True)
                continue
            section = _section_of_index(cell.index)
            if column == 0 or not labels or labels[-1][1] != section:
                labels.append((left, section))
            box = (left + 2, tile_top, left + CELL_WIDTH - 2, tile_bottom)
            if cell.index in OUTER_LAP_INDICES:
                canvas.rect(box, OUTER_FILL, TRACK_EDGE, 1, radius=4)
                canvas.pattern(box, Pattern.HATCH, OUTER_HATCH)
            else:
                canvas.rect(box, REGULAR_FILL, TRACK_EDGE, 1, radius=4)
            if cell.index == 1:
                _chequer(canvas, left - 3, tile_top, tile_bottom)
            if cell.index == START_LAP_INDEX:
                canvas.line([(left, tile_top - 2), (left, tile_bottom + 2)], INK, 2)
            for lane, chariot in enumerate(stacks.get(cell.index, [])):
                centre = (middle, tile_top + 1 + PIECE_RADIUS + lane * PIECE_STEP)
                fill = CHARIOT_RGB[chariot_colour(chariot.seat)]
                canvas.piece(centre, PIECE_RADIUS, fill, chariot_mark(chariot.seat, locale), 14)
            canvas.text((middle, tile_bottom + 3), str(cell.index), SMALL, INK, "mt", True)
        ends = [left for left, _ in labels[1:]] + [MARGIN + len(row) * CELL_WIDTH]
        for (left, section), end in zip(labels, ends, strict=True):
            name = say(locale, f"section.{section_key(section)}")
            if end - left >= 2 * CELL_WIDTH:
                canvas.fitted_text((left + 2, y + 1), name, end - left - 4, SMALL, MUTED)
        y += height
    _draw_legend(canvas, y + 6, locale)


def _chequer(canvas: Canvas, x: float, top: float, bottom: float) -> None:
    """The finish line: two columns of black and white squares."""
    square = 3.0
    rows = math.ceil((bottom - top) / square)
    for row in range(rows):
        for column in range(2):
            colour = INK if (row + column) % 2 else WHITE
            y = top + row * square
            canvas.rect(
                (x + column * square, y, x + (column + 1) * square, min(bottom, y + square)), colour
            )


def _draw_legend(canvas: Canvas, top: float, locale: str) -> None:
    """What the close-up's marks mean: outer spaces, folded stretches, stacked chariots."""
    swatch = (MARGIN, top + 1, MARGIN + 22, top + 15)
    canvas.rect(swatch, OUTER_FILL, TRACK_EDGE, 1, radius=3)
    canvas.pattern(swatch, Pattern.HATCH, OUTER_HATCH)
    room = WIDTH - 2 * MARGIN - 30
    canvas.fitted_text((MARGIN + 30, top), say(locale, "image.legend.outer"), room, SMALL, INK)
    top += LEGEND_LINE
    canvas.text((MARGIN + 11, top), "+n", SMALL, MUTED, "ma", bold=True)
    canvas.fitted_text((MARGIN + 30, top), say(locale, "image.legend.folded"), room, SMALL, INK)
    top += LEGEND_LINE
    for key in ("image.legend.numbers", "image.legend.ahead"):
        canvas.fitted_text((MARGIN, top), say(locale, key), WIDTH - 2 * MARGIN, SMALL, INK)
        top += LEGEND_LINE


# --------------------------------------------------------------------------- the lap


class Oval:
    """Where each lap index sits on the small oval of the whole lap: two straights joined
    by two half circles, run counter-clockwise (along the bottom to the right, up the right
    curve, along the top to the left, down the left curve), outer spaces outside the
    regular ones in the curves. Coordinates relative to the oval's centre."""

    def __init__(self) -> None:
        home = section_named("home straight")
        first = section_named("first straight")
        back = section_named("back straight")
        curve1 = section_named("first curve")
        curve2 = section_named("second curve")
        self.curve1 = (curve1.first, curve1.last)
        self.curve2 = (curve2.first, curve2.last)
        self.bottom = [*range(home.first, LAP_LENGTH + 1), *range(1, first.last + 1)]
        self.top = list(range(back.last, back.first - 1, -1))
        self.length = OVAL_SPACING * (max(len(self.bottom), len(self.top)) - 1)
        steps = (self.curve1[1] - self.curve1[0]) / 2 + 2
        self.radius = OVAL_SPACING * steps / math.pi
        self.steps = steps

    def place(self, index: int) -> tuple[Point, Point]:
        """A lap index's centre and the unit vector pointing out of the track."""
        half = self.length / 2
        if index in self.bottom:
            return (-half + OVAL_SPACING * self.bottom.index(index), self.radius), (0.0, 1.0)
        if index in self.top:
            return (-half + OVAL_SPACING * self.top.index(index), -self.radius), (0.0, -1.0)
        first = self.curve1[0] if self.curve1[0] <= index <= self.curve1[1] else self.curve2[0]
        angle = math.pi * ((index - first) / 2 + 1) / self.steps
        radius = self.radius + (OVAL_OUTER_OFFSET if index in OUTER_LAP_INDICES else 0)
        if first == self.curve1[0]:
            theta = -math.pi / 2 + angle
            normal = (math.cos(theta), -math.sin(theta))
            return (half + radius * normal[0], radius * normal[1]), normal
        theta = math.pi / 2 + angle
        normal = (math.cos(theta), -math.sin(theta))
        return (-half + radius * normal[0], radius * normal[1]), normal


OVAL = Oval()
OVAL_REACH = OVAL.radius + OVAL_OUTER_OFFSET + OVAL_BAND
"""How far the track band reaches from the oval's centre line."""


def _oval_pieces(view: SeatView) -> list[tuple[PublicChariot, Point]]:
    """Each chariot's disc on the oval, relative to its centre: beside its space along the
    outward line, further out for each chariot already there, inside the infield when the
    picture's edge is reached; leader first, no two discs overlapping."""
    placed: list[tuple[PublicChariot, Point]] = []
    half_width = WIDTH / 2 - MARGIN
    for index, chariots in _stacks(view).items():
        (x, y), (nx, ny) = OVAL.place(index)
        offset = OVAL_OUTER_OFFSET if index in OUTER_LAP_INDICES else 0
        outward = [
            OVAL_BAND + 3 + OVAL_PIECE - offset + step * OVAL_PIECE_STEP for step in range(8)
        ]
        inward = [
            -(OVAL_BAND + 3 + OVAL_PIECE + offset + step * OVAL_PIECE_STEP) for step in range(3)
        ]
        for chariot in chariots:
            spot = None
            for distance in [*outward[:3], *inward, *outward[3:]]:
                candidate = (x + nx * distance, y + ny * distance)
                if abs(candidate[0]) > half_width - OVAL_PIECE:
                    continue
                if any(math.dist(candidate, other) < 2 * OVAL_PIECE + 1 for _, other in placed):
                    continue
                spot = candidate
                break
            if spot is None:
                spot = (x + nx * outward[0], y + ny * outward[0])
            placed.append((chariot, spot))
    return placed


def _oval_extent(pieces: Sequence[tuple[PublicChariot, Point]]) -> tuple[float, float]:
    """How far the oval's drawing reaches above and below its centre."""
    above = max([OVAL_REACH, *(-y + OVAL_PIECE + 2 for _, (_, y) in pieces)])
    below = max([OVAL_REACH, *(y + OVAL_PIECE + 2 for _, (_, y) in pieces)])
    return above, below


def _draw_oval(
    canvas: Canvas,
    top: float,
    view: SeatView,
    pieces: Sequence[tuple[PublicChariot, Point]],
    locale: str,
) -> None:
    canvas.text((MARGIN, top + 4), say(locale, "image.lap"), TITLE, INK, "la", bold=True)
    above, _ = _oval_extent(pieces)
    cx, cy = WIDTH / 2, top + 26 + above
    half = OVAL.length / 2

    def at(point: Point) -> Point:
        return (cx + point[0], cy + point[1])

    reach, inner = OVAL_REACH, OVAL.radius - OVAL_BAND
    canvas.rect(
        (cx - half - reach, cy - reach, cx + half + reach, cy + reach),
        TRACK,
        TRACK_EDGE,
        1,
        radius=reach,
    )
    canvas.rect(
        (cx - half - inner, cy - inner, cx + half + inner, cy + inner),
        INFIELD,
        TRACK_EDGE,
        1,
        radius=inner,
    )
    finish_x = cx - half + OVAL_SPACING * (OVAL.bottom.index(1) - 0.5)
    _chequer(canvas, finish_x - 3, cy + inner, cy + reach)
    start_x = cx - half + OVAL_SPACING * (OVAL.bottom.index(START_LAP_INDEX) - 0.5)
    canvas.line([(start_x, cy + inner), (start_x, cy + reach)], WHITE, 2)

    shown = {cell.index for cell in closeup_cells(list(_stacks(view))) if cell.index is not None}
    for index in range(1, LAP_LENGTH + 1):
        centre, _ = OVAL.place(index)
        if index in shown:
            canvas.circle(at(centre), OVAL_DOT + 2.5, GOLD, DARK_GOLD)
        elif index in OUTER_LAP_INDICES:
            x, y = at(centre)
            canvas.rect(
                (x - OVAL_DOT, y - OVAL_DOT, x + OVAL_DOT, y + OVAL_DOT), OUTER_FILL, OUTER_HATCH
            )
        else:
            canvas.circle(at(centre), OVAL_DOT, REGULAR_FILL, TRACK_EDGE)
    for index, label in ((1, "1"), (21, "← 21"), (35, "35"), (52, "52 →")):
        (x, y), (nx, ny) = OVAL.place(index)
        place = at((x - nx * (OVAL_BAND + 9), y - ny * (OVAL_BAND + 9)))
        canvas.text(place, label, SMALL, INFIELD_TEXT, "mm", bold=True)
    for chariot, spot in pieces:
        fill = CHARIOT_RGB[chariot_colour(chariot.seat)]
        canvas.piece(at(spot), OVAL_PIECE, fill, chariot_mark(chariot.seat, locale), 12)


def _oval_height(pieces: Sequence[tuple[PublicChariot, Point]]) -> float:
    above, below = _oval_extent(pieces)
    return 26 + above + below + 8


# --------------------------------------------------------------------------- header


def _draw_header(canvas: Canvas, view: SeatView, names: Mapping[str, str], locale: str) -> float:
    """Turn and emperor die, then the crowd cards; or the result. Returns the height."""
    if view.result is not None:
        finished = say(locale, "board.finished", count=view.result.turns)
        canvas.text((MARGIN, 12), finished, 16, INK, "la", bold=True)
        banner = say(locale, "board.winner", name=isolated(names[view.result.winner]))
        canvas.fitted_text((MARGIN, 38), banner, WIDTH - 2 * MARGIN, 18, DARK_GOLD, "la", bold=True)
        return HEADER_HEIGHT + 24
    canvas.text((MARGIN, 12), say(locale, "board.turn", turn=view.turn), 20, INK, "la", bold=True)
    die = 28
    left = WIDTH - MARGIN - die
    _draw_emperor(canvas, (left, 8, left + die, 8 + die), view.emperor)
    label = say(locale, "board.emperor", face=say(locale, f"emperor.{view.emperor.value}"))
    canvas.text((left - 8, 8 + die / 2), label, TEXT, INK, "rm")

    top = HEADER_HEIGHT
    canvas.text((MARGIN, top), say(locale, "image.crowd"), SMALL, MUTED)
    card_width = (WIDTH - 2 * MARGIN - 2 * 8) / 3
    for slot, card in enumerate(view.crowd[:3]):
        card_left = MARGIN + slot * (card_width + 8)
        box = (card_left, top + 18, card_left + card_width, top + 18 + CARD_HEIGHT)
        _draw_card(canvas, box, card, locale, usable=slot == 0)
    return HEADER_HEIGHT + CROWD_HEIGHT


def _draw_emperor(
    canvas: Canvas, box: tuple[float, float, float, float], face: EmperorFace
) -> None:
    left, top, right, bottom = box
    if face is EmperorFace.ALL:
        canvas.rect(box, CARD_FILL, INK, 2, radius=6)
        quarter = (right - left) / 4
        for number, colour in enumerate(COLOURS):
            centre = (
                left + quarter * (1 + 2 * (number % 2)),
                top + quarter * (1 + 2 * (number // 2)),
            )
            canvas.circle(centre, quarter - 1.5, CARD_RGB[colour], INK)
        return
    canvas.rect(box, EMPEROR_RGB[face], INK, 2, radius=6)
    if face is EmperorFace.DISRUPT:
        canvas.text(((left + right) / 2, (top + bottom) / 2), "!", 20, WHITE, "mm", bold=True)


def _draw_card(
    canvas: Canvas, box: tuple[float, float, float, float], card: Card, locale: str, usable: bool
) -> None:
    left, top, right, bottom = box
    canvas.rect(box, CARD_FILL, GOLD if usable else INK, 3 if usable else 1, radius=6)
    if not card.symbols:
        canvas.text(
            ((left + right) / 2, (top + bottom) / 2),
            say(locale, "icon.whip"),
            TEXT,
            INK,
            "mm",
            True,
        )
        return
    step = (right - left) / len(card.symbols)
    chip_y = top + (17 if card.icon else (bottom - top) / 2)
    for number, (symbol, count) in enumerate(card.symbols):
        middle = left + step * (number + 0.5)
        chip_x = middle - (6 if count == 2 else 0)
        canvas.circle((chip_x, chip_y), 11, CARD_RGB[symbol.colour], INK)
        canvas.text((chip_x, chip_y), str(symbol.number), 13, SKILL_TEXT[symbol.colour], "mm", True)
        if count == 2:
            canvas.text((chip_x + 12, chip_y + 1), "×2", SMALL, INK, "lm", True)
    if card.icon is not None:
        icon = say(locale, f"icon.{card.icon.value}")
        canvas.fitted_text(
            ((left + right) / 2, bottom - 5), icon, right - left - 6, SMALL, INK, "md"
        )


# --------------------------------------------------------------------------- table


def _draw_table(
    canvas: Canvas, top: float, view: SeatView, names: Mapping[str, str], locale: str
) -> None:
    """One two-line row per chariot in race order."""
    name_x, lap_x, damage_x, attack_x, tokens_x = 56.0, 238.0, 284.0, 318.0, WIDTH - MARGIN - 4
    boxes_middle = attack_x + 22.5
    heading = {
        "place": (MARGIN + 8, "ma"),
        "chariot": (name_x, "la"),
        "lap": (lap_x, "la"),
        "damage": (damage_x, "la"),
        "attack": (boxes_middle, "ma"),
    }
    for key, (x, anchor) in heading.items():
        canvas.text((x, top), say(locale, f"board.col.{key}"), SMALL, MUTED, anchor)
    canvas.text((tokens_x, top), say(locale, "board.col.tokens"), SMALL, MUTED, "ra")
    for number, colour in enumerate(COLOURS):
        canvas.circle((name_x + 17 + number * 40, top + 24), 5, CARD_RGB[colour], INK)
    canvas.text((lap_x, top + 18), say(locale, "board.col.last"), SMALL, MUTED)
    canvas.line(
        [(MARGIN, top + TABLE_HEADER - 2), (WIDTH - MARGIN, top + TABLE_HEADER - 2)], TRACK_EDGE
    )
    laps = view.options.laps
    y = top + TABLE_HEADER
    for place, seat in enumerate(view.race_order, start=1):
        chariot = view.chariot(seat)
        if place % 2 == 0:
            canvas.rect((MARGIN, y, WIDTH - MARGIN, y + TABLE_ROW), ZEBRA)
        first, second = y + 14, y + 35
        canvas.text((MARGIN + 8, first), str(place), 16, INK, "mm", True)
        fill = CHARIOT_RGB[chariot_colour(seat)]
        canvas.piece((MARGIN + 28, first + 2), TABLE_PIECE, fill, chariot_mark(seat, locale), 13)
        canvas.fitted_text((name_x, first), names[seat], lap_x - name_x - 6, TEXT, INK, "lm")
        lap = say(locale, "board.lap", lap=min(chariot.laps + 1, laps), laps=laps)
        canvas.text((lap_x, first), lap, TEXT, INK, "lm")
        damage = CARD_RGB[Colour.RED] if chariot.damage else INK
        canvas.text((damage_x, first), str(chariot.damage), TEXT, damage, "lm", True)
        for box in range(3):
            x = attack_x + box * 15
            canvas.rect(
                (x, first - 6, x + 12, first + 6), INK if box < chariot.attack else CARD_FILL, INK
            )
        canvas.text((tokens_x, first), str(chariot.token_count), TEXT, INK, "rm")
        for number, (colour, skill) in enumerate(zip(COLOURS, chariot.skills, strict=True)):
            x = name_x + number * 40
            outline = GOLD if skill.in_box else None
            canvas.rect((x, second - 9, x + 34, second + 9), CARD_RGB[colour], outline, 2, radius=5)
            canvas.text(
                (x + 17, second), skill_text(skill, locale), 13, SKILL_TEXT[colour], "mm", True
            )
        _last_move(canvas, chariot.last_move, (lap_x, second), locale)
        y += TABLE_ROW


def _last_move(
    canvas: Canvas, move: RevealedMove | None, at: tuple[float, float], locale: str
) -> None:
    """A chariot's last move: its symbol as a chip of its colour, as the cards draw it
    (never a letter, which the pieces use for chariots), then "×5 → 9"; or "reset"."""
    x, y = at
    room = WIDTH - MARGIN - x
    if move is None or move.symbol is None:
        canvas.fitted_text((x, y), last_move_text(move, locale), room, TEXT, INK, "lm")
        return
    symbol = move.symbol
    canvas.circle((x + 9, y), 9, CARD_RGB[symbol.colour], INK)
    canvas.text((x + 9, y), str(symbol.number), 12, SKILL_TEXT[symbol.colour], "mm", True)
    rest = last_move_text(move, locale).removeprefix(symbol_text(symbol, locale)).strip()
    canvas.fitted_text((x + 22, y), rest, room - 22, TEXT, INK, "lm")


# --------------------------------------------------------------------------- the picture


def board_picture(
    view: SeatView, *, names: Mapping[str, str] | None = None, locale: str = "en"
) -> Picture:
    """The public board laid out for a phone (see the module docstring), with the sizes
    it was drawn at. Reads only public information from the view."""
    shown = display_names([chariot.seat for chariot in view.chariots], names, locale, width=18)
    pieces = _oval_pieces(view)
    header = HEADER_HEIGHT + (24 if view.result is not None else CROWD_HEIGHT)
    closeup = _closeup_height(view)
    oval = _oval_height(pieces)
    table = TABLE_HEADER + TABLE_ROW * len(view.chariots)
    canvas = Canvas(WIDTH, math.ceil(header + closeup + oval + table + 12), BACKGROUND, PALETTE)
    _draw_header(canvas, view, shown, locale)
    _draw_closeup(canvas, header, view, locale)
    _draw_oval(canvas, header + closeup, view, pieces, locale)
    _draw_table(canvas, header + closeup + oval, view, shown, locale)
    return canvas.picture()


def board_png(
    view: SeatView, *, names: Mapping[str, str] | None = None, locale: str = "en"
) -> bytes:
    """The public board as PNG bytes (see :func:`board_picture`)."""
    return board_picture(view, names=names, locale=locale).png


__all__ = ["board_picture", "board_png", "closeup_cells"]
