"""The community pictures, drawn with the games' own canvas (:mod:`engine.drawing`), for a
phone 400 px wide: a member's rating history as a small chart, and a standings table.

Pure functions of their data (no database, no clock): the same data draws the same PNG.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.community.ratings import Rating
from bot.community.tournament import StandingRow
from bot.text import t
from engine.drawing import INK, MIN_TEXT, PHONE_WIDTH, WHITE, Canvas, Picture, mix
from engine.lettering import isolated

PAPER = (246, 242, 232)
LINE = (52, 101, 164)
BAND = mix(LINE, PAPER, 0.8)
GRID = (214, 206, 190)
STRIPE = (236, 230, 216)
HEADER = (70, 62, 52)

CHART_HEIGHT = 220
MARGIN = 12
TITLE_SIZE = 16
ROW_HEIGHT = 22
COLUMNS = ("player", "points", "opponents", "games")
"""The standings table's columns after the place, by message id (``standings.player``)."""


def rating_chart(title: str, history: Sequence[tuple[float, Rating]]) -> Picture:
    """The rating (mu) after each game as a line over its uncertainty band (± sigma),
    games in order along the bottom; the last rating is written at the top right."""
    canvas = Canvas(PHONE_WIDTH, CHART_HEIGHT, PAPER)
    canvas.fitted_text(
        (MARGIN, MARGIN), title, PHONE_WIDTH - 2 * MARGIN, TITLE_SIZE, INK, bold=True
    )
    left, top = MARGIN + 34, MARGIN + TITLE_SIZE + 14
    right, bottom = PHONE_WIDTH - MARGIN, CHART_HEIGHT - MARGIN - MIN_TEXT - 6
    ratings = [rating for _, rating in history]
    if not ratings:
        canvas.text((PHONE_WIDTH / 2, (top + bottom) / 2), "—", MIN_TEXT, INK, "mm")
        return canvas.picture()
    low = min(r.mu - r.sigma for r in ratings)
    high = max(r.mu + r.sigma for r in ratings)
    low, high = (low - 1, high + 1) if high - low < 2 else (low, high)

    def y(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    def x(index: int) -> float:
        return left + (right - left) * (index / max(1, len(ratings) - 1))

    for value in (low, (low + high) / 2, high):
        canvas.line([(left, y(value)), (right, y(value))], GRID)
        canvas.text((left - 4, y(value)), f"{value:.0f}", MIN_TEXT, INK, "rm")
    upper = [(x(i), y(r.mu + r.sigma)) for i, r in enumerate(ratings)]
    lower = [(x(i), y(r.mu - r.sigma)) for i, r in enumerate(ratings)]
    if len(ratings) > 1:
        canvas.polygon([*upper, *reversed(lower)], BAND)
        canvas.line([(x(i), y(r.mu)) for i, r in enumerate(ratings)], LINE, 2.5)
    for i, r in enumerate(ratings):
        canvas.circle((x(i), y(r.mu)), 2.5, LINE)
    last = ratings[-1]
    canvas.text(
        (right, MARGIN), f"{last.mu:.1f} ± {last.sigma:.1f}", TITLE_SIZE, LINE, "ra", bold=True
    )
    canvas.text((left, bottom + 4), "1", MIN_TEXT, INK, "la")
    canvas.text((right, bottom + 4), str(len(ratings) - 1), MIN_TEXT, INK, "ra")
    return canvas.picture()


def table_picture(
    title: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    shares: Sequence[float],
    name_column: int = 1,
) -> Picture:
    """A table with a title and a header row; column ``i`` takes ``shares[i]`` of the width;
    the names in ``name_column`` are left-aligned, every other column (numbers)
    right-aligned; rows are striped for reading."""
    height = MARGIN * 2 + TITLE_SIZE + 8 + ROW_HEIGHT * (len(rows) + 1)
    canvas = Canvas(PHONE_WIDTH, height, PAPER)
    width = PHONE_WIDTH - 2 * MARGIN
    canvas.fitted_text((MARGIN, MARGIN), title, width, TITLE_SIZE, INK, bold=True)
    total = sum(shares)
    edges: list[float] = [MARGIN]
    for share in shares:
        edges.append(edges[-1] + width * share / total)
    top = MARGIN + TITLE_SIZE + 8

    def row(
        y: float,
        cells: Sequence[str],
        fill: tuple[int, int, int],
        ink: tuple[int, int, int],
        bold: bool,
    ) -> None:
        canvas.rect((MARGIN, y, PHONE_WIDTH - MARGIN, y + ROW_HEIGHT), fill)
        for column, cell in enumerate(cells):
            room = edges[column + 1] - edges[column] - 6
            middle = y + ROW_HEIGHT / 2
            if column == name_column:
                canvas.fitted_text(
                    (edges[column] + 3, middle), cell, room, MIN_TEXT, ink, "lm", bold
                )
            else:
                canvas.fitted_text(
                    (edges[column + 1] - 3, middle), cell, room, MIN_TEXT, ink, "rm", bold
                )

    row(top, headers, HEADER, WHITE, True)
    for index, cells in enumerate(rows):
        row(top + ROW_HEIGHT * (index + 1), cells, STRIPE if index % 2 else PAPER, INK, False)
    return canvas.picture()


def standings_picture(
    title: str, standings: Sequence[StandingRow], locale: str | None = None
) -> Picture:
    """A tournament's standings: place, player (dropped players marked), points,
    opponents' points and games played, headed in ``locale``."""
    rows = [
        [
            str(row.rank),
            row.name if row.active else t(locale, "standings.dropped", name=isolated(row.name)),
            f"{row.points:g}",
            f"{row.opponents_points:g}",
            str(row.games),
        ]
        for row in standings
    ]
    headers = ["#", *(t(locale, f"standings.{column}") for column in COLUMNS)]
    return table_picture(title, headers, rows, [1, 4, 1.4, 1.4, 2])


__all__ = ["rating_chart", "standings_picture", "table_picture"]
