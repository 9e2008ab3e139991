"""The public board as monospace text (spec §2, §9): the oval track with every chariot on
its space, the turn, emperor and crowd cards in the infield, and one line per chariot.

Only public information is read from the view, so a seat's private view renders exactly as
a spectator's. The text fits one Discord message: at most 2,000 characters with its code
fences and at most 60 columns, for six chariots with 12-column names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.charioteer.components import COLOURS
from engine.charioteer.moves import RevealedMove
from engine.charioteer.render.common import (
    card_text,
    chariot_mark,
    colour_letter,
    display_names,
    pad,
    say,
    section_named,
    skill_text,
    symbol_text,
    truncate,
)
from engine.charioteer.track import OUTER_LAP_INDICES, SECTIONS, START_LAP_INDEX, Section, lap_index
from engine.charioteer.view import PublicChariot, SeatView
from engine.i18n import char_width, display_width

FENCE = "```"
MAX_COLUMNS = 60
MESSAGE_LIMIT = 2000

CELL = 3
"""Columns from one straight space to the next."""
REGULAR_SPACE = "·"
OUTER_SPACE = "o"
FINISH_LINE = "|"
START_LINE = ":"
MAX_BULGE = 2
"""Columns the curves bow out by, room permitting."""
NUMBER_WIDTH = 3
"""Columns of a number in the table (a lap "2/3", damage, attack boxes, tokens held)."""
LAST_MOVE_WIDTH = 10
"""Columns of the last move: "R5 ×8 → 35", "ripristino" (one more for a square's symbol)."""


def _indices(section: Section) -> list[int]:
    return list(range(section.first, section.last + 1))


@dataclass(frozen=True)
class Layout:
    """Where each lap index sits on the text oval (counter-clockwise: along the bottom to
    the right, up the right curve, along the top to the left, down the left curve)."""

    bottom: tuple[int, ...]
    top: tuple[int, ...]
    right: tuple[int, ...]
    left: tuple[int, ...]

    @classmethod
    def standard(cls) -> Layout:
        first = section_named("first straight")
        curve1 = section_named("first curve")
        back = section_named("back straight")
        curve2 = section_named("second curve")
        home = section_named("home straight")
        return cls(
            bottom=tuple(_indices(home) + _indices(first)),
            top=tuple(reversed(_indices(back))),
            right=tuple(reversed(_indices(curve1))),
            left=tuple(_indices(curve2)),
        )


LAYOUT = Layout.standard()


class Canvas:
    """A grid of characters, grown on demand; rows are joined without trailing spaces."""

    def __init__(self) -> None:
        self.rows: dict[int, dict[int, str]] = {}

    def put(self, x: int, y: int, text: str) -> None:
        """``text`` from column ``x``: a wide character (a coloured square) takes two
        columns, so what follows it on the row stays in its column."""
        assert x >= 0, "the layout keeps every character inside the grid"
        row = self.rows.setdefault(y, {})
        column = x
        for char in text:
            row[column] = char
            if char_width(char) == 2:
                column += 1
                row[column] = ""
            column += 1

    def free(self, x: int, y: int, width: int) -> bool:
        row = self.rows.get(y, {})
        return all(row.get(column, " ") == " " for column in range(x, x + width))

    def lines(self) -> list[str]:
        if not self.rows:
            return []
        out = []
        for y in range(min(self.rows), max(self.rows) + 1):
            row = self.rows.get(y, {})
            chars = [" "] * (max(row) + 1 if row else 0)  # "" behind a wide character
            for x, char in row.items():
                chars[x] = char
            out.append("".join(chars).rstrip())
        return out


def _on_spaces(view: SeatView) -> dict[int, list[PublicChariot]]:
    """Chariots by lap index, inside lane first."""
    spaces: dict[int, list[PublicChariot]] = {}
    for chariot in sorted(view.chariots, key=lambda c: (c.position, c.lane)):
        spaces.setdefault(lap_index(chariot.position), []).append(chariot)
    return spaces


def _is_outer(index: int) -> bool:
    return index in OUTER_LAP_INDICES


def track_lines(
    view: SeatView, names: Mapping[str, str], locale: str, *, squares: bool = False
) -> list[str]:
    """The oval: spaces (· regular, o outer), chariots' marks outside their space in lane
    order from the inside, start and finish lines, section names and the turn, emperor and
    crowd cards in the infield."""
    spaces = _on_spaces(view)
    marks = {chariot.seat: chariot_mark(chariot.seat, locale) for chariot in view.chariots}

    def crowd_of(index: int) -> list[str]:
        return [marks[chariot.seat] for chariot in spaces.get(index, [])]

    left_depth = max(
        [len(crowd_of(index)) + 1 + _is_outer(index) for index in LAYOUT.left if crowd_of(index)],
        default=1,
    )
    top_depth = max((len(crowd_of(index)) for index in LAYOUT.top), default=0)
    cells = max(len(LAYOUT.top), len(LAYOUT.bottom))
    curve_rows = max(len(LAYOUT.left), len(LAYOUT.right))

    right_depth = max(
        [len(crowd_of(index)) + 1 + _is_outer(index) for index in LAYOUT.right if crowd_of(index)],
        default=1,
    )
    natural_width = left_depth + 2 + CELL * (cells - 1) + 2 + 1 + right_depth
    bulge = max(0, min(MAX_BULGE, (MAX_COLUMNS - natural_width) // 2))
    left_x = left_depth + bulge
    first_cell_x = left_x + 2
    last_cell_x = first_cell_x + CELL * (cells - 1)
    right_x = last_cell_x + 2

    def swell(row: int) -> int:
        """How far a curve row bows out: nothing at the corners, ``bulge`` mid-curve."""
        from_end = min(row, curve_rows - 1 - row)
        return min(bulge, (from_end + 1) // 2)

    top_y = top_depth
    bottom_y = top_y + curve_rows + 1

    canvas = Canvas()
    # the straights: the back straight along the top, the home straight along the bottom
    for row_y, indices, outward in ((top_y, LAYOUT.top, -1), (bottom_y, LAYOUT.bottom, 1)):
        for cell, index in enumerate(indices):
            x = first_cell_x + CELL * cell
            canvas.put(x, row_y, REGULAR_SPACE)
            for lane, mark in enumerate(crowd_of(index)):
                canvas.put(x, row_y + outward * (lane + 1), mark)
    # the curves: one row per space, outer spaces one column further out
    for row, index in enumerate(LAYOUT.right):
        y = top_y + 1 + row
        outer = _is_outer(index)
        x = right_x + outer + swell(row)
        canvas.put(x, y, OUTER_SPACE if outer else REGULAR_SPACE)
        canvas.put(x + 2, y, "".join(crowd_of(index)))
    for row, index in enumerate(LAYOUT.left):
        y = top_y + 1 + row
        outer = _is_outer(index)
        x = left_x - outer - swell(row)
        canvas.put(x, y, OUTER_SPACE if outer else REGULAR_SPACE)
        crowd = crowd_of(index)
        if crowd:
            canvas.put(x - 1 - len(crowd), y, "".join(reversed(crowd)))

    # start and finish lines across the bottom straight, labelled below it
    bottom_lanes = max((len(crowd_of(index)) for index in LAYOUT.bottom), default=0)
    finish_cell = LAYOUT.bottom.index(SECTIONS[0].first)
    start_cell = LAYOUT.bottom.index(START_LAP_INDEX)
    finish_x = first_cell_x + CELL * finish_cell - 1
    start_x = first_cell_x + CELL * start_cell - 2
    for y in range(bottom_y, bottom_y + bottom_lanes + 1):
        canvas.put(finish_x, y, FINISH_LINE)
        canvas.put(start_x, y, START_LINE)
    label_y = bottom_y + bottom_lanes + 1
    start_label = say(locale, "board.start")
    canvas.put(start_x - display_width(start_label) + 1, label_y, start_label)
    canvas.put(finish_x, label_y, say(locale, "board.finish"))

    box = (left_x + 2, right_x - 2, top_y + 1, bottom_y - 1)
    _infield(canvas, view, names, locale, box, squares)
    return canvas.lines()


def _infield(
    canvas: Canvas,
    view: SeatView,
    names: Mapping[str, str],
    locale: str,
    box: tuple[int, int, int, int],
    squares: bool = False,
) -> None:
    """Section names along the inside of the track; turn, emperor and crowd in the middle,
    or the winner once the race is over."""
    left, right, top, bottom = box
    width = right - left + 1

    def centre(y: int, text: str) -> None:
        shown = truncate(text, width)
        canvas.put(left + (width - display_width(shown)) // 2, y, shown)

    centre(top, say(locale, "board.label.back_straight"))
    canvas.put(left, top + 1, truncate(say(locale, "board.label.second_curve"), width))
    label = truncate(say(locale, "board.label.first_curve"), width)
    canvas.put(right - display_width(label) + 1, bottom - 1, label)
    first = truncate(say(locale, "board.label.first_straight"), width // 2)
    canvas.put(right - display_width(first) + 1, bottom, first)
    home = truncate(say(locale, "board.label.home_straight"), width - display_width(first) - 1)
    canvas.put(left, bottom, home)

    if view.result is not None:
        lines = [
            say(locale, "board.finished", count=view.result.turns),
            "",
            say(locale, "board.winner", name=names[view.result.winner]),
        ]
    else:
        lines = [
            say(locale, "board.turn", turn=view.turn),
            say(locale, "board.emperor", face=say(locale, f"emperor.{view.emperor.value}")),
            "",
            say(locale, "board.crowd"),
        ]
        for slot, card in enumerate(view.crowd):
            key = "board.crowd_usable" if slot == 0 else "board.crowd_card"
            lines.append(say(locale, key, card=card_text(card, locale, squares=squares)))
    middle = (top + bottom) // 2
    start = middle - len(lines) // 2
    block = max(display_width(line) for line in lines)
    block_x = left + max(0, (width - block) // 2)
    for offset, line in enumerate(lines):
        canvas.put(block_x, start + offset, truncate(line, width))


# --------------------------------------------------------------------------- the table


def last_move_text(move: RevealedMove | None, locale: str, *, squares: bool = False) -> str:
    """A chariot's last revealed move in a few columns: "R5 ×6 → 13", "reset"."""
    if move is None:
        return ""
    if move.symbol is None:
        return say(locale, "board.last_reset")
    symbol = move.symbol
    symbols = 0
    for position, card in enumerate(move.cards):
        symbols += 2 if position == move.wild else card.count(symbol)
    if move.crowd is not None:
        symbols += move.crowd.count(symbol)
    return say(
        locale,
        "board.last_move",
        symbol=symbol_text(symbol, locale, squares=squares),
        symbols=symbols,
        distance=move.distance if move.distance is not None else "?",
    )


def table_lines(
    view: SeatView, shown: Mapping[str, str], locale: str, *, squares: bool = False
) -> list[str]:
    """One line per chariot in race order: place, mark and name (as :func:`display_names`
    gives them), lap, damage box, attack boxes, the four skills, tokens held, last move.
    A number's column is as wide as its heading ("vta.", "danni"), at least three."""

    def numbers(key: str) -> tuple[str, int, str]:
        heading = say(locale, key)
        return heading, max(NUMBER_WIDTH, display_width(heading)), ">"

    columns = [
        (say(locale, "board.col.place"), 1, ">"),
        (say(locale, "board.col.chariot"), 14, "<"),
        numbers("board.col.lap"),
        numbers("board.col.damage"),
        numbers("board.col.attack"),
        *((colour_letter(colour, locale, squares=squares), 2, ">") for colour in COLOURS),
        numbers("board.col.tokens"),
        (say(locale, "board.col.last"), LAST_MOVE_WIDTH + squares, "<"),
    ]

    def line(cells: Sequence[str]) -> str:
        parts = []
        for (_, width, align), cell in zip(columns, cells, strict=True):
            text = truncate(cell, width)
            room = " " * (width - display_width(text))
            parts.append(room + text if align == ">" else text + room)
        return " ".join(parts).rstrip()

    out = [line([heading for heading, _, _ in columns])]
    laps = view.options.laps
    for place, seat in enumerate(view.race_order, start=1):
        chariot = view.chariot(seat)
        lap = say(locale, "board.lap", lap=min(chariot.laps + 1, laps), laps=laps)
        out.append(
            line(
                [
                    str(place),
                    f"{chariot_mark(seat, locale)} {shown[seat]}",
                    lap,
                    str(chariot.damage),
                    str(chariot.attack),
                    *(skill_text(skill, locale) for skill in chariot.skills),
                    str(chariot.token_count),
                    last_move_text(chariot.last_move, locale, squares=squares),
                ]
            )
        )
    return out


def board_text(
    view: SeatView,
    *,
    names: Mapping[str, str] | None = None,
    locale: str = "en",
    squares: bool = False,
) -> str:
    """The whole public board in a code block (with its ``` fences): the oval track and
    one line per chariot. Reads only public information, so any seat's view gives the same
    text as the spectator's. With ``squares``, symbols and skills are coloured squares
    (chariots keep their letters)."""
    shown = display_names([chariot.seat for chariot in view.chariots], names, locale)
    lines = track_lines(view, shown, locale, squares=squares)
    lines.append("")
    lines.extend(table_lines(view, shown, locale, squares=squares))
    body = "\n".join(lines)
    return f"{FENCE}\n{body}\n{FENCE}"


__all__ = ["board_text", "pad"]
