"""The game as a picture and as a text summary (issue: Rendering).

:func:`board_picture` draws the map for a phone first, on the shared
:class:`~engine.drawing.Canvas` (layout units: one unit is one pixel of a picture shown
:data:`~engine.drawing.PHONE_WIDTH` wide). From the top:

* the caption: the tile set played, and the tiles left in the stack;
* the legend: one row per player with their meeple in their colour, their name, their
  colour in words, their score and the small and large meeples they have left (in the team
  variant a line per team carries the team's score), the player to move marked with a
  pointer, the winners with a star;
* the map. A map that fits the phone with squares at least :data:`ZOOM_BELOW` units wide
  is drawn whole; a larger one as a close-up of the last placement and its neighbourhood
  (squares :data:`CLOSE_TILE` units wide) with the whole map as an overview under it, or
  beside it when the map is a tall strip (whichever shows the overview larger), the
  close-up's squares outlined on the overview. Space is dark; asteroid fields are rocky
  wedges from their edges; trade routes are bright lines with a dark casing; a planet is a
  ringed globe with its faction's icon; a faction symbol is the icon alone; the icons
  (a shield for the rebels, a hexagon for the empire, a diamond for the bounty hunters)
  are in colours no player has. Meeples are meeple-shaped, in their player's colour with
  an outline that contrasts with it, at least :data:`SMALL_MEEPLE` units tall, the large
  one taller. The last tile is framed; coordinates run along the top and left of each
  map; the squares of ``spots`` and the features of ``targets`` are numbered in badges;
* the key: what each icon, the planet, the frame and the badges mean.

The whole picture is :data:`~engine.drawing.PHONE_WIDTH` units wide and never taller than
:data:`MAX_HEIGHT`. Every text and meeple size is recorded in the :class:`Picture` (a
meeple's recorded radius is half its height). Each map is drawn as its tile layer, then
its overlay (meeples, numbers, frames). :func:`summary` is the text: scores, meeples
left, tiles left, every feature held. Both say which tile set is played, in the locale
asked (:mod:`engine.carcassonne.messages`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.carcassonne.board import Board, FeatureRef, Placed, turned
from engine.carcassonne.components import Faction, Kind, Size
from engine.carcassonne.messages import (
    catalogue,
    colour_name,
    faction_mark,
    faction_name,
    kind_name,
    say,
)
from engine.carcassonne.state import TEAM_FACTION, TEAM_OF, Meeple
from engine.carcassonne.view import SeatView
from engine.drawing import (
    INK,
    MIN_TEXT,
    PHONE_WIDTH,
    WHITE,
    Canvas,
    Picture,
    Point,
    mix,
    text_colour,
    text_width,
)

RGB = tuple[int, int, int]
Window = tuple[int, int, int, int]
"""Squares (x0, y0, x1, y1), both ends included."""

WIDTH = float(PHONE_WIDTH)
MAX_HEIGHT = 2.5 * WIDTH
"""No picture is taller than this: a tall picture is shrunk to fit a phone's screen."""
PAD = 8.0
GAP = 10.0
CAPTION = 22.0
AXIS = 16.0
"""The band along the top and left of a map holding its coordinates."""
WHOLE_TILE = 64.0
"""The largest square of a map drawn whole."""
ZOOM_BELOW = 44.0
"""A map whose squares would be narrower than this is drawn as a close-up and an
overview."""
CLOSE_SIZE = (7, 5)
"""Squares of the close-up (columns, rows) above the overview."""
CLOSE_TILE = (WIDTH - 2 * PAD - AXIS) / CLOSE_SIZE[0]
"""A square of the close-up above the overview, in layout units (about 52)."""
SIDE_CLOSE_SIZE = (5, 5)
SIDE_CLOSE_TILE = 44.0
"""A square of the close-up beside the overview."""
OVERVIEW_TILE = 40.0
"""The largest square of the overview."""
SMALL_MEEPLE = 12.0
"""The shortest small meeple, in layout units (it grows with the squares)."""
LARGE_SHARE = 1.4
"""How much taller a large meeple is than a small one."""
NAME_TEXT = 14
LEGEND_HEAD = 16.0
LEGEND_ROW = 22.0
KEY_ROW = 22.0
BADGE_TEXT = 18
"""The largest number in a badge (the smallest is :data:`~engine.drawing.MIN_TEXT`)."""

BACKGROUND: RGB = (8, 8, 16)
SPACE: RGB = (18, 20, 38)
GRID: RGB = (44, 48, 74)
ASTEROID: RGB = (122, 104, 88)
ASTEROID_EDGE: RGB = (160, 140, 118)
ROUTE: RGB = (236, 214, 140)
ROUTE_CASING: RGB = (60, 48, 20)
RING: RGB = (196, 200, 214)
FRAME: RGB = (255, 214, 0)
TEXT: RGB = (230, 230, 230)
MUTED: RGB = (150, 154, 176)
FACTION_RGB: dict[Faction, RGB] = {
    Faction.REBEL: (60, 130, 250),
    Faction.EMPIRE: (200, 80, 220),
    Faction.BOUNTY: (0, 200, 220),
}
"""The factions' icons: blue, purple and cyan, colours no player has (nor their darker
shades)."""
PLAYER_RGB: dict[str, RGB] = {
    "red": (230, 45, 45),
    "green": (40, 190, 70),
    "black": (10, 10, 10),
    "white": (250, 250, 250),
    "orange": (250, 140, 20),
}
UNKNOWN_PLAYER: RGB = (200, 200, 200)

MEEPLE_OUTLINE = (
    (-0.1, -0.5),
    (0.1, -0.5),
    (0.2, -0.4),
    (0.2, -0.26),
    (0.46, -0.14),
    (0.5, 0.0),
    (0.22, 0.04),
    (0.38, 0.5),
    (0.08, 0.5),
    (0.0, 0.32),
    (-0.08, 0.5),
    (-0.38, 0.5),
    (-0.22, 0.04),
    (-0.5, 0.0),
    (-0.46, -0.14),
    (-0.2, -0.26),
    (-0.2, -0.4),
)
"""A meeple one unit tall and wide, centred on the origin."""
SHIELD = ((-1.0, -0.9), (1.0, -0.9), (1.0, 0.2), (0.0, 1.05), (-1.0, 0.2))
HEXAGON = tuple(
    (1.08 * math.cos(math.pi / 3 * k), 1.08 * math.sin(math.pi / 3 * k)) for k in range(6)
)
DIAMOND = ((0.0, -1.2), (1.2, 0.0), (0.0, 1.2), (-1.2, 0.0))
ICON_SHAPE: dict[Faction, tuple[tuple[float, float], ...]] = {
    Faction.REBEL: SHIELD,
    Faction.EMPIRE: HEXAGON,
    Faction.BOUNTY: DIAMOND,
}
"""Each faction's icon, one unit from its centre to its sides."""
ICON_LETTER_FROM = 8.0
"""An icon this large (centre to side) or larger shows its faction's letter."""


def player_rgb(seat: str) -> RGB:
    return PLAYER_RGB.get(seat, UNKNOWN_PLAYER)


def _outline_for(fill: RGB) -> RGB:
    """White around a dark meeple, near-black around a light one."""
    return WHITE if text_colour(fill) == WHITE else INK


def _shape(
    canvas: Canvas,
    centre: Point,
    shape: Sequence[tuple[float, float]],
    size: float,
    fill: RGB,
    outline: RGB,
    border: float,
) -> None:
    """``shape`` scaled by ``size`` at ``centre``, with an outline ``border`` units thick
    (drawn as the shape grown under it)."""
    x, y = centre
    grown = size + 2 * border
    canvas.polygon([(x + dx * grown, y + dy * grown) for dx, dy in shape], outline)
    canvas.polygon([(x + dx * size, y + dy * size) for dx, dy in shape], fill)


def draw_meeple(canvas: Canvas, centre: Point, height: float, fill: RGB) -> None:
    """A meeple ``height`` units tall in ``fill``, outlined in a contrasting colour; its
    size is recorded (as a piece of radius ``height / 2``)."""
    canvas.disc_radii.append(height / 2)
    _shape(canvas, centre, MEEPLE_OUTLINE, height, fill, _outline_for(fill), 1.25)


def faction_shades(faction: Faction) -> tuple[RGB, RGB, RGB]:
    """The colours a faction is drawn in: its icon, the icon's outline, its planets'
    globe."""
    fill = FACTION_RGB[faction]
    return fill, mix(fill, INK, 0.7), mix(fill, SPACE, 0.55)


def draw_icon(
    canvas: Canvas, centre: Point, half: float, faction: Faction, letter: str | None
) -> None:
    """The faction's icon, ``half`` units from its centre to its sides, with its letter
    when it is large enough to read."""
    fill, outline, _ = faction_shades(faction)
    _shape(canvas, centre, ICON_SHAPE[faction], half, fill, outline, 1.0)
    if letter and half >= ICON_LETTER_FROM:
        canvas.text(centre, letter, MIN_TEXT, text_colour(fill), "mm", bold=True)


def draw_planet(
    canvas: Canvas, centre: Point, radius: float, faction: Faction, letter: str | None
) -> None:
    """A globe tinted with its faction's colour, a ring round it once it is large enough,
    and the faction's icon on it."""
    x, y = centre
    fill, _, globe = faction_shades(faction)
    ring = (x - radius * 1.55, y - radius * 0.42, x + radius * 1.55, y + radius * 0.42)
    ringed = radius >= 8
    width = max(1.0, radius * 0.12)
    if ringed:
        canvas.arc(ring, 180, 360, RING, width)
    canvas.circle(centre, radius, globe, fill, max(1.0, radius * 0.1))
    if ringed:
        canvas.arc(ring, 0, 180, RING, width)
    draw_icon(canvas, centre, radius * 0.7, faction, letter)


def draw_badge(canvas: Canvas, centre: Point, label: str, size: int) -> None:
    """A number on a gold badge."""
    half_width = text_width(label, size, bold=True) / 2 + 3
    half_height = size * 0.62
    x, y = centre
    box = (x - half_width, y - half_height, x + half_width, y + half_height)
    canvas.rect(box, FRAME, INK, 1, radius=3)
    canvas.text(centre, label, size, INK, "mm", bold=True)


def meeple_height(tile: float) -> float:
    """A small meeple on squares ``tile`` units wide."""
    return min(16.0, max(SMALL_MEEPLE, tile * 0.27))


def _on_side(side: int, centre: Point, tile: float, along: float, across: float = 0.0) -> Point:
    """A point of a square: ``along`` squares from its centre towards ``side``, then
    ``across`` squares clockwise from that direction."""
    dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
    x, y = centre
    return (x + (dx * along - dy * across) * tile, y + (dy * along + dx * across) * tile)


def _planet_crowd(placed: Placed, centre: Point, tile: float) -> Point:
    """Where the meeples on a planet stand: under the globe, or over it when a feature
    of the tile reaches the south side and not the north."""
    taken = {side for sides in turned(placed.tile, placed.rotation)[0] for side in sides}
    side = 0 if 2 in taken and 0 not in taken else 2
    return _on_side(side, centre, tile, 0.33)


def _feature_anchor(placed: Placed, feature: int | None, centre: Point, tile: float) -> Point:
    """Where a meeple (or a deployment's number) sits on a feature: by the globe for a
    planet, on the route near its first side, inside the asteroid field."""
    if feature is None:
        return _planet_crowd(placed, centre, tile)
    sides = turned(placed.tile, placed.rotation)[0][feature]
    if placed.type.features[feature].kind is Kind.ROUTE:
        return _on_side(sides[0], centre, tile, 0.3)
    if len(sides) == 1:
        return _on_side(sides[0], centre, tile, 0.3, -0.14)
    points = [_on_side(side, centre, tile, 0.32) for side in sides]
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def _symbol_point(placed: Placed, feature: int, centre: Point, tile: float) -> Point:
    """Where a feature's faction symbol sits, clear of a meeple at its anchor: on a route
    near its other end (beside a route that ends at the centre), in the corner of an
    asteroid field farthest from the meeple."""
    sides = turned(placed.tile, placed.rotation)[0][feature]
    if placed.type.features[feature].kind is Kind.ROUTE:
        return _on_side(sides[-1], centre, tile, 0.3, 0.0 if len(sides) == 2 else 0.28)
    along, across = (0.36, 0.17) if len(sides) == 1 else (0.36, 0.14)
    meeple = _feature_anchor(placed, feature, centre, tile)
    corners = [_on_side(side, centre, tile, along, a) for side in sides for a in (across, -across)]
    return max(corners, key=lambda corner: math.dist(corner, meeple))


class _Map:
    """One drawing of part of the map: ``window`` with its coordinates' band at ``origin``
    and squares ``tile`` units wide."""

    def __init__(
        self, canvas: Canvas, window: Window, origin: Point, tile: float, marks: dict[Faction, str]
    ) -> None:
        self.canvas = canvas
        self.window = window
        self.origin = origin
        self.tile = tile
        self.marks = marks

    @staticmethod
    def size(window: Window, tile: float) -> tuple[float, float]:
        x0, y0, x1, y1 = window
        return (AXIS + (x1 - x0 + 1) * tile, AXIS + (y1 - y0 + 1) * tile)

    def shows(self, x: int, y: int) -> bool:
        x0, y0, x1, y1 = self.window
        return x0 <= x <= x1 and y0 <= y <= y1

    def corner(self, x: int, y: int) -> Point:
        return (
            self.origin[0] + AXIS + (x - self.window[0]) * self.tile,
            self.origin[1] + AXIS + (y - self.window[1]) * self.tile,
        )

    def centre(self, square: tuple[int, int]) -> Point:
        left, top = self.corner(*square)
        return (left + self.tile / 2, top + self.tile / 2)

    def draw_tiles(self, board: Board) -> None:
        """The tile layer: the coordinates, then every tile in the window."""
        canvas, tile = self.canvas, self.tile
        x0, y0, x1, y1 = self.window
        ox, oy = self.origin
        across = math.ceil((text_width(f"-{max(abs(x0), abs(x1))}", MIN_TEXT) + 4) / tile)
        down = math.ceil((MIN_TEXT + 2) / tile)
        for x in range(x0, x1 + 1):
            if x % across == 0:
                canvas.text((self.centre((x, y0))[0], oy + AXIS / 2), str(x), MIN_TEXT, MUTED, "mm")
        for y in range(y0, y1 + 1):
            if y % down == 0:
                canvas.text((ox + AXIS / 2, self.centre((x0, y))[1]), str(y), MIN_TEXT, MUTED, "mm")
        for placed in board.tiles:
            if self.shows(placed.x, placed.y):
                self._tile(placed)

    def _tile(self, placed: Placed) -> None:
        canvas, tile = self.canvas, self.tile
        left, top = self.corner(placed.x, placed.y)
        half = tile / 2
        cx, cy = left + half, top + half
        canvas.rect((left, top, left + tile, top + tile), SPACE, GRID, 0.5)
        kind = placed.type
        shapes = turned(placed.tile, placed.rotation)[0]
        corners = (
            ((left, top), (left + tile, top)),
            ((left + tile, top), (left + tile, top + tile)),
            ((left + tile, top + tile), (left, top + tile)),
            ((left, top + tile), (left, top)),
        )
        rocks = tile >= 30
        for index, feature in enumerate(kind.features):
            if feature.kind is not Kind.ASTEROID:
                continue
            sides = shapes[index]
            for side in sides:
                a, b = corners[side]
                inner = _on_side(side, (cx, cy), tile, 0.16) if len(sides) == 1 else (cx, cy)
                canvas.polygon([a, b, inner], ASTEROID, ASTEROID_EDGE if len(sides) == 1 else None)
            if rocks:
                for k in range(3 * len(sides)):
                    angle = (k * 2.4 + index) % (2 * math.pi)
                    rx, ry = _on_side(sides[k % len(sides)], (cx, cy), tile, 0.39)
                    rx += math.cos(angle) * tile * 0.08
                    ry += math.sin(angle) * tile * 0.08
                    canvas.circle((rx, ry), tile * 0.028, ASTEROID_EDGE)
        route_width = max(1.5, tile * 0.085)
        routes = [
            [_on_side(side, (cx, cy), tile, 0.5) for side in shapes[index]]
            for index, feature in enumerate(kind.features)
            if feature.kind is Kind.ROUTE
        ]
        for casing, colour, width in (
            (True, ROUTE_CASING, route_width + 2),
            (False, ROUTE, route_width),
        ):
            if casing and tile < 20:
                continue
            for points in routes:
                if len(points) == 2:
                    canvas.line([points[0], (cx, cy), points[1]], colour, width)
                    canvas.circle((cx, cy), width / 2, colour)
                else:
                    canvas.line([points[0], (cx, cy)], colour, width)
        if kind.planet is None and sum(f.ends_at_centre for f in kind.features) >= 3:
            r = max(1.5, tile * 0.08)
            canvas.rect((cx - r, cy - r, cx + r, cy + r), ROUTE, ROUTE_CASING, 1)
        if kind.planet is not None:
            draw_planet(canvas, (cx, cy), tile * 0.23, kind.planet, self.marks[kind.planet])
        for index, feature in enumerate(kind.features):
            if feature.symbol is not None:
                at = _symbol_point(placed, index, (cx, cy), tile)
                draw_icon(canvas, at, tile * 0.13, feature.symbol, self.marks[feature.symbol])

    def draw_overlay(
        self,
        board: Board,
        meeples: Sequence[Meeple],
        last: tuple[int, int] | None,
        spots: Mapping[tuple[int, int], str],
        targets: Mapping[FeatureRef, str],
    ) -> None:
        """Over the tiles: the meeples, the frame round the last tile, and the numbered
        spots and deployment targets."""
        canvas, tile = self.canvas, self.tile
        small = meeple_height(tile)
        on_planet: dict[FeatureRef, list[Meeple]] = {}
        for meeple in meeples:
            if not self.shows(meeple.at.x, meeple.at.y):
                continue
            if meeple.at.is_planet:
                on_planet.setdefault(meeple.at, []).append(meeple)
                continue
            placed = board.at[meeple.at.square]
            at = _feature_anchor(placed, meeple.at.feature, self.centre(placed.square), tile)
            self._meeple(meeple, at, small)
        for ref, crowd in on_planet.items():
            x, y = _planet_crowd(board.at[ref.square], self.centre(ref.square), tile)
            step = min(small * 0.85, tile * 0.8 / len(crowd))
            for slot, meeple in enumerate(crowd):
                self._meeple(meeple, (x + (slot - (len(crowd) - 1) / 2) * step, y), small)
        if last is not None and self.shows(*last):
            left, top = self.corner(*last)
            canvas.rect((left - 1, top - 1, left + tile + 1, top + tile + 1), None, INK, 4)
            canvas.rect((left, top, left + tile, top + tile), None, FRAME, 2.5)
        badge = max(MIN_TEXT, min(BADGE_TEXT, round(tile * 0.34)))
        for square, label in spots.items():
            if self.shows(*square):
                left, top = self.corner(*square)
                inset = min(3.0, tile * 0.1)
                box = (left + inset, top + inset, left + tile - inset, top + tile - inset)
                canvas.rect(box, None, FRAME, 1)
                if square == last:  # on the corner, so the tile shown there stays in sight
                    draw_badge(canvas, (left, top), label, badge)
                else:
                    draw_badge(canvas, self.centre(square), label, badge)
        for ref, label in targets.items():
            if self.shows(ref.x, ref.y):
                cx, cy = self.centre(ref.square)
                if ref.is_planet:
                    at = (cx + tile * 0.3, cy - tile * 0.3)
                else:
                    at = _feature_anchor(board.at[ref.square], ref.feature, (cx, cy), tile)
                draw_badge(canvas, at, label, badge)

    def _meeple(self, meeple: Meeple, at: Point, small: float) -> None:
        height = small * (LARGE_SHARE if meeple.size is Size.LARGE else 1.0)
        draw_meeple(self.canvas, at, height, player_rgb(meeple.seat))

    def outline(self, window: Window) -> None:
        """Outlines the squares of ``window`` (the close-up's, on the overview)."""
        x0, y0, x1, y1 = window
        left, top = self.corner(max(x0, self.window[0]), max(y0, self.window[1]))
        right, bottom = self.corner(min(x1, self.window[2]) + 1, min(y1, self.window[3]) + 1)
        self.canvas.rect((left, top, right, bottom), None, TEXT, 1)


# --------------------------------------------------------------------------- the legend


class Marker(StrEnum):
    """What marks a line of the legend."""

    NONE = ""
    TURN = "turn"
    """The player to move: a pointer."""
    WINNER = "winner"
    """A star."""


@dataclass(frozen=True)
class LegendRow:
    """One line of the legend: a player (``seat``), or a team (``seat`` None)."""

    seat: str | None
    name: str
    colour: str
    """The seat's colour in words, when the name is not already the colour."""
    score: int | None
    left: tuple[int, int]
    """Small and large meeples left (a player's row)."""
    faction: Faction | None
    """A team's faction (its icon)."""
    marker: Marker


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def legend_rows(view: SeatView, names: Mapping[str, str] | None, locale: str) -> list[LegendRow]:
    """The legend's lines in order: each player (or, in the team variant, each team and
    then its players)."""
    winners = set(view.result.winners) if view.result is not None else set()
    team = view.options.team

    def player(seat: str, score: int | None) -> LegendRow:
        given = " ".join((names or {}).get(seat, "").split())
        colour = colour_name(seat, locale)
        supply = view.supply(seat)
        if not team and seat in winners:
            marker = Marker.WINNER
        elif view.result is None and seat == view.active:
            marker = Marker.TURN
        else:
            marker = Marker.NONE
        return LegendRow(
            seat,
            given or _capital(colour),
            colour if given else "",
            score,
            (supply[Size.SMALL], supply[Size.LARGE]),
            None,
            marker,
        )

    if not team:
        return [player(seat, view.scores[view.units.index(seat)]) for seat in view.seats]
    rows = []
    for unit, points in zip(view.units, view.scores, strict=True):
        name = _capital(say(locale, f"team.{unit}"))
        marker = Marker.WINNER if unit in winners else Marker.NONE
        rows.append(LegendRow(None, name, "", points, (0, 0), TEAM_FACTION[unit], marker))
        rows += [player(seat, None) for seat in view.seats if TEAM_OF.get(seat) == unit]
    return rows


def _legend_height(rows: Sequence[LegendRow]) -> float:
    return LEGEND_HEAD + LEGEND_ROW * len(rows)


def _draw_marker(canvas: Canvas, marker: Marker, x: float, y: float) -> None:
    if marker is Marker.TURN:
        canvas.polygon([(x - 4, y - 6), (x + 5, y), (x - 4, y + 6)], FRAME)
    elif marker is Marker.WINNER:
        star = [
            (
                x + (6.5 if k % 2 == 0 else 2.8) * math.sin(math.pi * k / 5),
                y - (6.5 if k % 2 == 0 else 2.8) * math.cos(math.pi * k / 5),
            )
            for k in range(10)
        ]
        canvas.polygon(star, FRAME)


def _draw_legend(canvas: Canvas, top: float, rows: Sequence[LegendRow], locale: str) -> None:
    """Columns from the right: meeples left, points; the name and colour take the rest."""
    right = WIDTH - PAD
    small, large = SMALL_MEEPLE, SMALL_MEEPLE * LARGE_SHARE
    count_width = text_width("×0", MIN_TEXT, bold=True)
    meeples_block = small + 3 + count_width + 8 + large + 3 + count_width
    meeples_width = max(meeples_block, text_width(say(locale, "picture.left"), MIN_TEXT))
    meeples_left = right - meeples_width
    points_right = meeples_left - 14
    points_width = max(
        text_width(say(locale, "picture.points"), MIN_TEXT),
        max((text_width(str(row.score), NAME_TEXT, True) for row in rows), default=0.0),
    )
    name_left = PAD + 32
    colours = [text_width(row.colour, MIN_TEXT) for row in rows if row.colour]
    colour_width = max(colours, default=0.0)
    name_right = points_right - points_width - 10 - (colour_width + 8 if colours else 0)
    canvas.text(
        (name_left, top + LEGEND_HEAD / 2), say(locale, "picture.player"), MIN_TEXT, MUTED, "lm"
    )
    canvas.text(
        (points_right, top + LEGEND_HEAD / 2), say(locale, "picture.points"), MIN_TEXT, MUTED, "rm"
    )
    canvas.text(
        (meeples_left, top + LEGEND_HEAD / 2), say(locale, "picture.left"), MIN_TEXT, MUTED, "lm"
    )
    y = top + LEGEND_HEAD + LEGEND_ROW / 2
    for row in rows:
        _draw_marker(canvas, row.marker, PAD + 5, y)
        if row.faction is not None:
            draw_icon(canvas, (PAD + 20, y), 7, row.faction, None)
            canvas.fitted_text(
                (name_left, y), row.name, name_right - name_left, NAME_TEXT, TEXT, "lm", True
            )
        elif row.seat is not None:
            draw_meeple(canvas, (PAD + 20, y), small * 1.25, player_rgb(row.seat))
            canvas.fitted_text(
                (name_left, y), row.name, name_right - name_left, NAME_TEXT, TEXT, "lm"
            )
            if row.colour:
                canvas.text((name_right + 8, y), row.colour, MIN_TEXT, MUTED, "lm")
        if row.score is not None:
            canvas.text((points_right, y), str(row.score), NAME_TEXT, TEXT, "rm", bold=True)
        if row.seat is not None:
            x = meeples_left
            fill = player_rgb(row.seat)
            for height, count in ((small, row.left[0]), (large, row.left[1])):
                if count:
                    draw_meeple(canvas, (x + height / 2, y), height, fill)
                else:
                    _shape(
                        canvas, (x + height / 2, y), MEEPLE_OUTLINE, height, BACKGROUND, MUTED, 1
                    )
                x += height + 3
                x += canvas.text(
                    (x, y), f"×{count}", MIN_TEXT, TEXT if count else MUTED, "lm", True
                )
                x += 8
        y += LEGEND_ROW


# --------------------------------------------------------------------------- the key


class Sign(StrEnum):
    """A sign of the key besides the factions' icons."""

    PLANET = "planet"
    LAST = "last"
    """The last tile's frame."""
    NUMBER = "number"
    """A numbered badge."""


@dataclass(frozen=True)
class KeyItem:
    """One entry of the key: a faction's icon or another sign, and what it means."""

    sign: Faction | Sign
    label: str

    @property
    def width(self) -> float:
        return 26.0 if self.sign is Sign.PLANET else 18.0

    def draw(self, canvas: Canvas, at: Point, marks: Mapping[Faction, str]) -> None:
        x, y = at
        if isinstance(self.sign, Faction):
            draw_icon(canvas, at, 8.5, self.sign, marks[self.sign])
        elif self.sign is Sign.PLANET:
            draw_planet(canvas, at, 7.5, Faction.REBEL, None)
        elif self.sign is Sign.LAST:
            canvas.rect((x - 7, y - 7, x + 7, y + 7), SPACE, FRAME, 2.5)
        else:
            draw_badge(canvas, at, "1", MIN_TEXT)


def _key_items(locale: str, numbers: str | None) -> list[KeyItem]:
    items = [KeyItem(faction, _capital(faction_name(faction, locale))) for faction in Faction]
    items.append(KeyItem(Sign.PLANET, _capital(kind_name(Kind.PLANET, locale))))
    items.append(KeyItem(Sign.LAST, _capital(say(locale, "picture.last_tile"))))
    if numbers is not None:
        items.append(KeyItem(Sign.NUMBER, _capital(say(locale, numbers))))
    return items


def _key_lines(items: Sequence[KeyItem]) -> list[list[tuple[float, KeyItem]]]:
    """The key's items flowed into lines across the picture, each with its left edge."""
    lines: list[list[tuple[float, KeyItem]]] = [[]]
    x = PAD
    for item in items:
        width = item.width + 4 + text_width(item.label, MIN_TEXT)
        if lines[-1] and x + width > WIDTH - PAD:
            lines.append([])
            x = PAD
        lines[-1].append((x, item))
        x += width + 14
    return lines


def _draw_key(
    canvas: Canvas,
    top: float,
    lines: Sequence[Sequence[tuple[float, KeyItem]]],
    marks: Mapping[Faction, str],
) -> None:
    y = top + KEY_ROW / 2
    for line in lines:
        for x, item in line:
            item.draw(canvas, (x + item.width / 2, y), marks)
            canvas.text((x + item.width + 4, y), item.label, MIN_TEXT, TEXT, "lm")
        y += KEY_ROW


# --------------------------------------------------------------------------- the picture


def _within(window: Window, around: tuple[int, int], size: tuple[int, int]) -> Window:
    """A window of ``size`` squares centred on ``around``, moved inside ``window`` where it
    is large enough to hold it."""
    corner = []
    for axis in (0, 1):
        low, high = window[axis], window[axis + 2]
        start = around[axis] - size[axis] // 2
        if high - low + 1 >= size[axis]:
            start = max(low, min(start, high - size[axis] + 1))
        corner.append(start)
    return (corner[0], corner[1], corner[0] + size[0] - 1, corner[1] + size[1] - 1)


@dataclass(frozen=True)
class MapPlace:
    """One map of a picture: its squares, the top left of its coordinates' band, and its
    squares' width (layout units)."""

    window: Window
    origin: Point
    tile: float


@dataclass(frozen=True)
class Layout:
    """Where everything in a picture goes (layout units)."""

    height: float
    legend: tuple[LegendRow, ...]
    close: MapPlace | None
    """The close-up, once the map is large."""
    whole: MapPlace
    """The whole map (the overview when there is a close-up)."""
    maps_bottom: float
    key: tuple[tuple[tuple[float, KeyItem], ...], ...]
    last: tuple[int, int]


def _maps(
    window: Window, last: tuple[int, int], top: float, room: float
) -> tuple[MapPlace | None, MapPlace, float]:
    """The close-up (if any), the whole map and their bottom, in ``room`` units of height
    from ``top``: the whole map alone if its squares can be :data:`ZOOM_BELOW` wide, else
    a close-up with the overview under it or beside it, whichever draws the overview
    larger."""
    columns, rows = window[2] - window[0] + 1, window[3] - window[1] + 1
    wide = WIDTH - 2 * PAD - AXIS
    tile = min(WHOLE_TILE, wide / columns, (room - AXIS) / rows)
    if tile >= ZOOM_BELOW:
        width, height = _Map.size(window, tile)
        return None, MapPlace(window, ((WIDTH - width) / 2, top), tile), top + height

    close = _within(window, last, CLOSE_SIZE)
    close_width, close_height = _Map.size(close, CLOSE_TILE)
    under = min(OVERVIEW_TILE, wide / columns, (room - close_height - GAP - AXIS) / rows)
    side_close = _within(window, last, SIDE_CLOSE_SIZE)
    side_width, side_height = _Map.size(side_close, SIDE_CLOSE_TILE)
    beside = min(OVERVIEW_TILE, (wide - side_width - GAP) / columns, (room - AXIS) / rows)
    if beside > under:
        overview_width, overview_height = _Map.size(window, beside)
        return (
            MapPlace(side_close, (PAD, top), SIDE_CLOSE_TILE),
            MapPlace(window, (WIDTH - PAD - overview_width, top), beside),
            top + max(side_height, overview_height),
        )
    overview_top = top + close_height + GAP
    overview_width, overview_height = _Map.size(window, under)
    return (
        MapPlace(close, ((WIDTH - close_width) / 2, top), CLOSE_TILE),
        MapPlace(window, ((WIDTH - overview_width) / 2, overview_top), under),
        overview_top + overview_height,
    )


def layout(
    view: SeatView,
    *,
    names: Mapping[str, str] | None = None,
    last: tuple[int, int] | None = None,
    numbers: str | None = None,
    locale: str = "en",
) -> Layout:
    """Where :func:`board_picture` draws each part; ``numbers`` is the key's message for
    the numbered badges, if any."""
    board = view.board
    bx0, by0, bx1, by1 = board.bounds
    window = (bx0 - 1, by0 - 1, bx1 + 1, by1 + 1)
    if last is None:
        last = view.placed if view.placed is not None else board.tiles[-1].square
    rows = tuple(legend_rows(view, names, locale))
    key = tuple(tuple(line) for line in _key_lines(_key_items(locale, numbers)))
    maps_top = CAPTION + _legend_height(rows) + GAP
    below_maps = GAP + KEY_ROW * len(key) + PAD
    close, whole, bottom = _maps(window, last, maps_top, MAX_HEIGHT - maps_top - below_maps)
    return Layout(math.ceil(bottom + below_maps), rows, close, whole, bottom, key, last)


def board_picture(
    view: SeatView,
    *,
    names: Mapping[str, str] | None = None,
    last: tuple[int, int] | None = None,
    spots: Sequence[tuple[int, int]] = (),
    targets: Sequence[FeatureRef] = (),
    locale: str = "en",
) -> Picture:
    """The map laid out for a phone (see the module docstring): the players' legend with
    ``names`` (seat → display name; a seat without one is named by its colour), the map
    (one empty square of border all round), as a close-up round ``last`` (by default the
    tile placed last) and an overview once it is large. ``spots`` (squares) and
    ``targets`` (features, shown on the larger map of ``last``) are numbered from 1 in
    the order given, each once; the words are in ``locale``."""
    spot_labels = {spot: str(n) for n, spot in enumerate(dict.fromkeys(spots), start=1)}
    target_labels = {ref: str(n) for n, ref in enumerate(dict.fromkeys(targets), start=1)}
    numbers = "picture.spots" if spot_labels else "picture.targets" if target_labels else None
    plan = layout(view, names=names, last=last, numbers=numbers, locale=locale)
    marks = {faction: faction_mark(faction, locale) for faction in Faction}

    canvas = Canvas(WIDTH, plan.height, BACKGROUND)
    caption = say(locale, "picture.tile_set", tile_set=view.tile_set)
    canvas.text((PAD, CAPTION / 2), caption, MIN_TEXT, MUTED, "lm")
    if view.result is None:
        left = say(locale, "picture.tiles_left", count=view.stack_size)
        canvas.text((WIDTH - PAD, CAPTION / 2), left, MIN_TEXT, MUTED, "rm")
    _draw_legend(canvas, CAPTION, plan.legend, locale)
    places = [place for place in (plan.close, plan.whole) if place is not None]
    maps = [_Map(canvas, place.window, place.origin, place.tile, marks) for place in places]
    for drawn in maps:
        drawn.draw_tiles(view.board)
    for number, drawn in enumerate(maps):
        shown = target_labels if number == 0 else {}
        drawn.draw_overlay(view.board, view.meeples, plan.last, spot_labels, shown)
    if plan.close is not None:
        maps[-1].outline(plan.close.window)
    _draw_key(canvas, plan.maps_bottom + GAP, plan.key, marks)
    return canvas.picture()


def board_png(
    view: SeatView,
    *,
    names: Mapping[str, str] | None = None,
    last: tuple[int, int] | None = None,
    spots: Sequence[tuple[int, int]] = (),
    targets: Sequence[FeatureRef] = (),
    locale: str = "en",
) -> bytes:
    """The map as PNG bytes (see :func:`board_picture`)."""
    return board_picture(
        view, names=names, last=last, spots=spots, targets=targets, locale=locale
    ).png


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
