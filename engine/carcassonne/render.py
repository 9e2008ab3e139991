"""The game as a picture and as a text summary (issue: Rendering).

:func:`board_picture` draws the map from the catalogue's data on the shared
:class:`~engine.drawing.Canvas` (layout units, one unit a pixel on a phone): space,
asteroid fields reaching in from their edges, trade routes to the centre or across,
planets in their faction's colour with its initial, feature symbols, meeples in player
colours (the large one bigger and ringed), the last placement framed, coordinates along
every edge, and optional numbered squares (the legal squares of a placement). The whole
map is fitted to the phone's width; once it is :data:`CROP_FROM` squares wide or tall, a
close-up around the last placement comes first, above it. :func:`summary` is the text:
scores, meeples left, tiles left, every feature held. Both say which tile set is played,
in the locale asked (:mod:`engine.carcassonne.messages`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engine.carcassonne.board import Board, FeatureRef, Placed, turned
from engine.carcassonne.components import Faction, Kind, Size
from engine.carcassonne.messages import catalogue, colour_name, faction_mark, kind_name, say
from engine.carcassonne.state import Meeple
from engine.carcassonne.view import SeatView
from engine.drawing import MIN_TEXT, PHONE_WIDTH, Canvas, Picture

RGB = tuple[int, int, int]
CLOSE_TILE = 72.0
"""A square of the close-up (and of a small map), in layout units."""
MARGIN = 18.0
CAPTION = 22.0
GAP = 10.0
CROP_FROM = 9
"""A map (with its border of empty squares) this many squares wide or tall gets a close-up."""
CROP_RADIUS = 2

BACKGROUND: RGB = (8, 8, 16)
SPACE: RGB = (18, 20, 38)
GRID: RGB = (44, 48, 74)
ASTEROID: RGB = (122, 104, 88)
ASTEROID_EDGE: RGB = (160, 140, 118)
ROUTE: RGB = (236, 214, 140)
FRAME: RGB = (255, 214, 0)
TEXT: RGB = (230, 230, 230)
FACTION_RGB: dict[Faction, RGB] = {
    Faction.REBEL: (214, 60, 52),
    Faction.EMPIRE: (120, 140, 170),
    Faction.BOUNTY: (74, 170, 96),
}
PLAYER_RGB: dict[str, RGB] = {
    "red": (230, 45, 45),
    "green": (40, 190, 70),
    "black": (10, 10, 10),
    "white": (250, 250, 250),
    "orange": (250, 140, 20),
}
OUTLINE: dict[str, RGB] = {"black": (240, 240, 240)}

Window = tuple[int, int, int, int]


def _side_point(side: int, cx: float, cy: float, half: float) -> tuple[float, float]:
    dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
    return (cx + dx * half, cy + dy * half)


def _feature_anchor(
    placed: Placed, feature: int | None, cx: float, cy: float, tile: float
) -> tuple[float, float]:
    """Where a meeple or symbol sits on a feature: the centre for a planet, part way to
    the feature's sides otherwise."""
    if feature is None:
        return (cx, cy)
    sides = turned(placed.tile, placed.rotation)[0][feature]
    kind = placed.type.features[feature].kind
    if kind is Kind.ROUTE and len(sides) == 2:
        return _side_point(sides[0], cx, cy, tile * 0.22)
    points = [_side_point(side, cx, cy, tile * 0.32) for side in sides]
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


class _Map:
    """One drawing of part of the map: ``window`` (squares) at ``origin`` with squares
    ``tile`` units wide."""

    def __init__(
        self,
        canvas: Canvas,
        window: Window,
        origin: tuple[float, float],
        tile: float,
        locale: str = "en",
    ):
        self.canvas = canvas
        self.window = window
        self.origin = origin
        self.tile = tile
        self.marks = {faction: faction_mark(faction, locale) for faction in Faction}

    @staticmethod
    def size(window: Window, tile: float) -> tuple[float, float]:
        x0, y0, x1, y1 = window
        return ((x1 - x0 + 1) * tile + 2 * MARGIN, (y1 - y0 + 1) * tile + 2 * MARGIN)

    def shows(self, x: int, y: int) -> bool:
        x0, y0, x1, y1 = self.window
        return x0 <= x <= x1 and y0 <= y <= y1

    def corner(self, x: int, y: int) -> tuple[float, float]:
        return (
            self.origin[0] + MARGIN + (x - self.window[0]) * self.tile,
            self.origin[1] + MARGIN + (y - self.window[1]) * self.tile,
        )

    def draw(
        self,
        board: Board,
        meeples: Sequence[Meeple],
        last: tuple[int, int] | None,
        spots: Mapping[tuple[int, int], str],
    ) -> None:
        canvas, tile = self.canvas, self.tile
        x0, y0, x1, y1 = self.window
        width, height = self.size(self.window, tile)
        ox, oy = self.origin
        for x in range(x0, x1 + 1):
            px = self.corner(x, y0)[0] + tile / 2
            canvas.text((px, oy + MARGIN / 2), str(x), MIN_TEXT, TEXT, "mm")
            canvas.text((px, oy + height - MARGIN / 2), str(x), MIN_TEXT, TEXT, "mm")
        for y in range(y0, y1 + 1):
            py = self.corner(x0, y)[1] + tile / 2
            canvas.text((ox + MARGIN / 2, py), str(y), MIN_TEXT, TEXT, "mm")
            canvas.text((ox + width - MARGIN / 2, py), str(y), MIN_TEXT, TEXT, "mm")
        for placed in board.tiles:
            if self.shows(placed.x, placed.y):
                self._tile(placed)
        on_planet: dict[FeatureRef, int] = {}
        for meeple in meeples:
            placed = board.at[meeple.at.square]
            if self.shows(placed.x, placed.y):
                slot = on_planet.get(meeple.at, 0)
                on_planet[meeple.at] = slot + 1
                self._meeple(meeple, placed, slot)
        label_size = max(MIN_TEXT, round(tile * 0.3))
        for (x, y), label in spots.items():
            if self.shows(x, y):
                left, top = self.corner(x, y)
                canvas.rect((left + 2, top + 2, left + tile - 2, top + tile - 2), None, FRAME, 1)
                centre = (left + tile / 2, top + tile / 2)
                canvas.text(centre, label, label_size, FRAME, "mm", bold=True)
        if last is not None and self.shows(*last):
            left, top = self.corner(*last)
            canvas.rect((left, top, left + tile, top + tile), None, FRAME, 2.5)

    def _tile(self, placed: Placed) -> None:
        canvas, tile = self.canvas, self.tile
        left, top = self.corner(placed.x, placed.y)
        half = tile / 2
        cx, cy = left + half, top + half
        canvas.rect((left, top, left + tile, top + tile), SPACE, GRID, 0.5)
        kind = placed.type
        shapes = turned(placed.tile, placed.rotation)[0]
        corners = {
            0: ((left, top), (left + tile, top)),
            1: ((left + tile, top), (left + tile, top + tile)),
            2: ((left + tile, top + tile), (left, top + tile)),
            3: ((left, top + tile), (left, top)),
        }
        for index, feature in enumerate(kind.features):
            if feature.kind is not Kind.ASTEROID:
                continue
            sides = shapes[index]
            for side in sides:
                a, b = corners[side]
                inner = _side_point(side, cx, cy, half * 0.32) if len(sides) == 1 else (cx, cy)
                canvas.polygon([a, b, inner], ASTEROID, ASTEROID_EDGE if len(sides) == 1 else None)
            for k in range(3 * len(sides)):
                angle = (k * 2.4 + index) % (2 * math.pi)
                rx, ry = _side_point(sides[k % len(sides)], cx, cy, half * 0.78)
                rx += math.cos(angle) * tile * 0.08
                ry += math.sin(angle) * tile * 0.08
                canvas.circle((rx, ry), tile * 0.028, ASTEROID_EDGE)
        route_width = max(1.5, tile * 0.07)
        for index, feature in enumerate(kind.features):
            if feature.kind is not Kind.ROUTE:
                continue
            points = [_side_point(side, cx, cy, half) for side in shapes[index]]
            if len(points) == 2:
                canvas.line([points[0], (cx, cy), points[1]], ROUTE, route_width)
                canvas.circle((cx, cy), route_width / 2, ROUTE)
            else:
                canvas.line([points[0], (cx, cy)], ROUTE, route_width)
        if kind.planet is None and sum(f.ends_at_centre for f in kind.features) >= 3:
            r = tile * 0.07
            canvas.rect((cx - r, cy - r, cx + r, cy + r), ROUTE)
        mark_size = max(MIN_TEXT, round(tile * 0.18))
        if kind.planet is not None:
            canvas.circle((cx, cy), tile * 0.2, FACTION_RGB[kind.planet], TEXT, 1)
            canvas.text((cx, cy), self.marks[kind.planet], mark_size, TEXT, "mm", bold=True)
        for index, feature in enumerate(kind.features):
            if feature.symbol is None:
                continue
            sx, sy = _feature_anchor(placed, index, cx, cy, tile)
            sx, sy = (sx + cx) / 2 + tile * 0.12, (sy + cy) / 2 + tile * 0.12
            r = tile * 0.09
            canvas.rect((sx - r, sy - r, sx + r, sy + r), FACTION_RGB[feature.symbol])
            if tile >= CLOSE_TILE * 0.9:
                canvas.text((sx, sy), self.marks[feature.symbol], MIN_TEXT, TEXT, "mm")

    def _meeple(self, meeple: Meeple, placed: Placed, slot: int) -> None:
        canvas, tile = self.canvas, self.tile
        left, top = self.corner(placed.x, placed.y)
        cx, cy = left + tile / 2, top + tile / 2
        x, y = _feature_anchor(placed, meeple.at.feature, cx, cy, tile)
        if meeple.at.is_planet:
            x += (slot % 3 - 1) * tile * 0.17
            y += tile * 0.26 - (slot // 3) * tile * 0.14
        radius = tile * (0.15 if meeple.size is Size.LARGE else 0.1)
        fill = PLAYER_RGB.get(meeple.seat, (200, 200, 200))
        canvas.circle((x, y), radius, fill, OUTLINE.get(meeple.seat, (0, 0, 0)), 1.5)
        if meeple.size is Size.LARGE:
            canvas.circle((x, y), radius + tile * 0.05, None, FRAME, 1.5)


def board_picture(
    view: SeatView,
    *,
    last: tuple[int, int] | None = None,
    spots: Sequence[tuple[int, int]] = (),
    locale: str = "en",
) -> Picture:
    """The map (one empty square of border all round) fitted to a phone's width, under a
    close-up around ``last`` (by default the tile placed last) once the map is large.
    ``spots`` (squares) are numbered from 1 in the order given, each square once; the
    caption and the factions' letters are in ``locale``."""
    board = view.board
    bx0, by0, bx1, by1 = board.bounds
    window = (bx0 - 1, by0 - 1, bx1 + 1, by1 + 1)
    labels = {spot: str(number) for number, spot in enumerate(dict.fromkeys(spots), start=1)}
    if last is None:
        last = view.placed if view.placed is not None else board.tiles[-1].square
    columns = window[2] - window[0] + 1
    large = max(columns, window[3] - window[1] + 1) >= CROP_FROM
    tile = min(CLOSE_TILE, (PHONE_WIDTH - 2 * MARGIN) / columns)
    whole_size = _Map.size(window, tile)
    close_window = (
        last[0] - CROP_RADIUS,
        last[1] - CROP_RADIUS,
        last[0] + CROP_RADIUS,
        last[1] + CROP_RADIUS,
    )
    close_size = _Map.size(close_window, CLOSE_TILE) if large else (0.0, -GAP)
    width = max(PHONE_WIDTH, whole_size[0], close_size[0])
    height = CAPTION + close_size[1] + GAP + whole_size[1]
    canvas = Canvas(width, height, BACKGROUND)
    caption = say(locale, "picture.tile_set", tile_set=view.tile_set)
    canvas.text((6, CAPTION / 2), caption, MIN_TEXT, TEXT, "lm")
    if large:
        origin = ((width - close_size[0]) / 2, CAPTION)
        close = _Map(canvas, close_window, origin, CLOSE_TILE, locale)
        close.draw(board, view.meeples, last, labels)
    top = CAPTION + close_size[1] + GAP
    whole = _Map(canvas, window, ((width - whole_size[0]) / 2, top), tile, locale)
    whole.draw(board, view.meeples, last, labels)
    return canvas.picture()


def board_png(
    view: SeatView,
    *,
    last: tuple[int, int] | None = None,
    spots: Sequence[tuple[int, int]] = (),
    locale: str = "en",
) -> bytes:
    return board_picture(view, last=last, spots=spots, locale=locale).png


def unit_text(unit: str, locale: str) -> str:
    """A seat by its colour, or a team, in words."""
    key = f"team.{unit}"
    return say(locale, key) if key in catalogue().ids() else colour_name(unit, locale)


def summary(view: SeatView, locale: str = "en") -> str:
    """Scores, meeples left, tiles left and the features in contest, as plain text."""
    lines = [say(locale, "summary.title", tile_set=view.tile_set)]
    if view.result is not None:
        winners = ", ".join(unit_text(unit, locale) for unit in view.result.winners)
        lines.append(say(locale, "summary.over", winners=winners))
    else:
        seat = colour_name(view.active, locale)
        left = view.stack_size
        if view.current:
            turn = say(
                locale, "summary.holds", turn=view.turn, seat=seat, tile=view.current, left=left
            )
        else:
            turn = say(locale, "summary.deploys", turn=view.turn, seat=seat, left=left)
        lines.append(turn)
    scores = ", ".join(
        say(locale, "summary.score", unit=unit_text(unit, locale), points=points)
        for unit, points in zip(view.units, view.scores, strict=True)
    )
    lines.append(say(locale, "summary.scores", scores=scores))
    supplies = []
    for seat in view.seats:
        supply = view.supply(seat)
        supplies.append(
            say(
                locale,
                "summary.supply",
                seat=colour_name(seat, locale),
                small=supply[Size.SMALL],
                large=supply[Size.LARGE],
            )
        )
    lines.append(say(locale, "summary.supplies", supplies=", ".join(supplies)))
    contested = []
    board = view.board
    seen: set[int] = set()
    for meeple in view.meeples:
        region = board.region(meeple.at)
        if id(region) in seen:
            continue
        seen.add(id(region))
        holders = sorted({m.seat for m in view.meeples if board.region(m.at) is region})
        contested.append(
            say(
                locale,
                "summary.feature",
                kind=kind_name(region.kind, locale),
                at=region.anchor,
                holders=", ".join(colour_name(seat, locale) for seat in holders),
                tiles=region.tiles,
                symbols=len(region.symbols),
                points=region.value(final=True),
            )
        )
    if contested:
        lines.append(say(locale, "summary.held"))
        lines.extend(contested)
    return "\n".join(lines)
