"""The game as a picture and as a text summary (issue: Rendering).

:func:`board_png` draws the map from the catalogue's data: space, asteroid fields reaching
in from their edges, trade routes to the centre or across, planets with their faction
symbol, feature symbols, meeples in player colours (the large one bigger, ringed), the
last placement framed, coordinates along every edge, and optional numbered spots (the
legal squares of a placement). Once the map is wider or taller than :data:`CROP_FROM`
squares, a close-up around the last placement is drawn beside the whole map so a phone
screen can read it. :func:`summary` is the text: scores, meeples left, tiles left, and
every feature in contest. Both say which tile set is played.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from engine.carcassonne.board import Board, FeatureRef, Placed, turned
from engine.carcassonne.components import Faction, Kind, Size
from engine.carcassonne.state import Meeple
from engine.carcassonne.view import SeatView
from engine.drawing import font

TILE = 72
MARGIN = 22
CROP_FROM = 9
"""A map at least this many squares wide or tall gets a close-up beside it."""
CROP_RADIUS = 2

SPACE = (18, 20, 38)
GRID = (44, 48, 74)
ASTEROID = (122, 104, 88)
ASTEROID_EDGE = (160, 140, 118)
ROUTE = (236, 214, 140)
FRAME = (255, 214, 0)
TEXT = (230, 230, 230)
FACTION_RGB: dict[Faction, tuple[int, int, int]] = {
    Faction.REBEL: (214, 60, 52),
    Faction.EMPIRE: (120, 140, 170),
    Faction.BOUNTY: (74, 170, 96),
}
FACTION_MARK: dict[Faction, str] = {Faction.REBEL: "R", Faction.EMPIRE: "E", Faction.BOUNTY: "B"}
PLAYER_RGB: dict[str, tuple[int, int, int]] = {
    "red": (230, 45, 45),
    "green": (40, 190, 70),
    "black": (10, 10, 10),
    "white": (250, 250, 250),
    "orange": (250, 140, 20),
}
OUTLINE: dict[str, tuple[int, int, int]] = {"black": (240, 240, 240)}


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return font(size)


def _side_point(side: int, cx: float, cy: float, half: float) -> tuple[float, float]:
    dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
    return (cx + dx * half, cy + dy * half)


def _feature_anchor(
    placed: Placed, feature: int | None, cx: float, cy: float
) -> tuple[float, float]:
    """Where a meeple or symbol sits on a feature: the centre for a planet, part way to
    the feature's first side otherwise (a through-route sits at the centre)."""
    if feature is None:
        return (cx, cy)
    sides = turned(placed.tile, placed.rotation)[0][feature]
    kind = placed.type.features[feature].kind
    if kind is Kind.ROUTE and len(sides) == 2:
        px, py = _side_point(sides[0], cx, cy, TILE * 0.22)
        return (px, py)
    sx = sum(_side_point(s, cx, cy, TILE * 0.32)[0] for s in sides) / len(sides)
    sy = sum(_side_point(s, cx, cy, TILE * 0.32)[1] for s in sides) / len(sides)
    return (sx, sy)


def _draw_tile(draw: ImageDraw.ImageDraw, placed: Placed, left: float, top: float) -> None:
    half = TILE / 2
    cx, cy = left + half, top + half
    draw.rectangle((left, top, left + TILE - 1, top + TILE - 1), fill=SPACE, outline=GRID)
    kind = placed.type
    shapes = turned(placed.tile, placed.rotation)[0]
    corners = {
        0: ((left, top), (left + TILE, top)),
        1: ((left + TILE, top), (left + TILE, top + TILE)),
        2: ((left + TILE, top + TILE), (left, top + TILE)),
        3: ((left, top + TILE), (left, top)),
    }
    for index, feature in enumerate(kind.features):
        if feature.kind is not Kind.ASTEROID:
            continue
        sides = shapes[index]
        depth = 0.34 if len(sides) == 1 else 0.5
        for side in sides:
            a, b = corners[side]
            inner = _side_point(side, cx, cy, half * (1 - 2 * depth))
            if len(sides) == 1:
                draw.polygon([a, b, inner], fill=ASTEROID, outline=ASTEROID_EDGE)
            else:
                draw.polygon([a, b, (cx, cy)], fill=ASTEROID, outline=ASTEROID)
        for k in range(3 * len(sides)):
            angle = (k * 2.4 + index) % (2 * math.pi)
            rx, ry = _side_point(sides[k % len(sides)], cx, cy, half * 0.78)
            rx += math.cos(angle) * 6
            ry += math.sin(angle) * 6
            draw.ellipse((rx - 2, ry - 2, rx + 2, ry + 2), fill=ASTEROID_EDGE)
    for index, feature in enumerate(kind.features):
        if feature.kind is not Kind.ROUTE:
            continue
        points = [_side_point(side, cx, cy, half) for side in shapes[index]]
        if len(points) == 2:
            draw.line([points[0], (cx, cy), points[1]], fill=ROUTE, width=5, joint="curve")
        else:
            draw.line([points[0], (cx, cy)], fill=ROUTE, width=5)
            if kind.planet is None and sum(f.ends_at_centre for f in kind.features) >= 3:
                draw.rectangle((cx - 5, cy - 5, cx + 5, cy + 5), fill=ROUTE)
    if kind.planet is not None:
        r = TILE * 0.2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=FACTION_RGB[kind.planet], outline=TEXT)
        draw.text((cx, cy), FACTION_MARK[kind.planet], fill=TEXT, font=_font(13), anchor="mm")
    for index, feature in enumerate(kind.features):
        if feature.symbol is None:
            continue
        sx, sy = _feature_anchor(placed, index, cx, cy)
        sx, sy = (sx + cx) / 2 + 9, (sy + cy) / 2 + 9
        draw.rectangle((sx - 6, sy - 6, sx + 6, sy + 6), fill=FACTION_RGB[feature.symbol])
        draw.text((sx, sy), FACTION_MARK[feature.symbol], fill=TEXT, font=_font(10), anchor="mm")


def _draw_meeple(
    draw: ImageDraw.ImageDraw, meeple: Meeple, placed: Placed, left: float, top: float, slot: int
) -> None:
    cx, cy = left + TILE / 2, top + TILE / 2
    x, y = _feature_anchor(placed, meeple.at.feature, cx, cy)
    if meeple.at.is_planet:
        x += (slot % 3 - 1) * 12
        y += TILE * 0.26 - (slot // 3) * 10
    r = 10 if meeple.size is Size.LARGE else 6
    fill = PLAYER_RGB.get(meeple.seat, (200, 200, 200))
    outline = OUTLINE.get(meeple.seat, (0, 0, 0))
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=2)
    if meeple.size is Size.LARGE:
        draw.ellipse((x - r - 3, y - r - 3, x + r + 3, y + r + 3), outline=FRAME, width=2)


def _render(
    board: Board,
    meeples: Sequence[Meeple],
    window: tuple[int, int, int, int],
    last: tuple[int, int] | None,
    spots: Mapping[tuple[int, int], str],
) -> Image.Image:
    x0, y0, x1, y1 = window
    width = (x1 - x0 + 1) * TILE + 2 * MARGIN
    height = (y1 - y0 + 1) * TILE + 2 * MARGIN
    image = Image.new("RGB", (width, height), (8, 8, 16))
    draw = ImageDraw.Draw(image)
    small = _font(12)
    for x in range(x0, x1 + 1):
        px = MARGIN + (x - x0) * TILE + TILE / 2
        draw.text((px, MARGIN / 2), str(x), fill=TEXT, font=small, anchor="mm")
        draw.text((px, height - MARGIN / 2), str(x), fill=TEXT, font=small, anchor="mm")
    for y in range(y0, y1 + 1):
        py = MARGIN + (y - y0) * TILE + TILE / 2
        draw.text((MARGIN / 2, py), str(y), fill=TEXT, font=small, anchor="mm")
        draw.text((width - MARGIN / 2, py), str(y), fill=TEXT, font=small, anchor="mm")
    for placed in board.tiles:
        if x0 <= placed.x <= x1 and y0 <= placed.y <= y1:
            _draw_tile(
                draw, placed, MARGIN + (placed.x - x0) * TILE, MARGIN + (placed.y - y0) * TILE
            )
    on_planet: dict[FeatureRef, int] = {}
    for meeple in meeples:
        placed = board.at[meeple.at.square]
        if x0 <= placed.x <= x1 and y0 <= placed.y <= y1:
            slot = on_planet.get(meeple.at, 0)
            on_planet[meeple.at] = slot + 1
            left = MARGIN + (placed.x - x0) * TILE
            _draw_meeple(draw, meeple, placed, left, MARGIN + (placed.y - y0) * TILE, slot)
    for (x, y), label in spots.items():
        if x0 <= x <= x1 and y0 <= y <= y1:
            left, top = MARGIN + (x - x0) * TILE, MARGIN + (y - y0) * TILE
            draw.rectangle((left + 3, top + 3, left + TILE - 4, top + TILE - 4), outline=FRAME)
            draw.text(
                (left + TILE / 2, top + TILE / 2), label, fill=FRAME, font=_font(20), anchor="mm"
            )
    if last is not None and x0 <= last[0] <= x1 and y0 <= last[1] <= y1:
        left, top = MARGIN + (last[0] - x0) * TILE, MARGIN + (last[1] - y0) * TILE
        draw.rectangle((left, top, left + TILE - 1, top + TILE - 1), outline=FRAME, width=3)
    return image


def board_image(
    view: SeatView,
    *,
    last: tuple[int, int] | None = None,
    spots: Sequence[tuple[int, int]] = (),
) -> Image.Image:
    """The map (one empty square of border all round), with a close-up around ``last``
    beside it once the map is large. ``spots`` (squares) are numbered from 1 in the order
    given, each square once."""
    board = view.board
    bx0, by0, bx1, by1 = board.bounds
    window = (bx0 - 1, by0 - 1, bx1 + 1, by1 + 1)
    labels = {spot: str(number) for number, spot in enumerate(dict.fromkeys(spots), start=1)}
    if last is None:
        last = view.placed if view.placed is not None else board.tiles[-1].square
    whole = _render(board, view.meeples, window, last, labels)
    large = max(window[2] - window[0], window[3] - window[1]) + 1 >= CROP_FROM
    if not large:
        return _with_caption(whole, view)
    lx, ly = last
    crop_window = (lx - CROP_RADIUS, ly - CROP_RADIUS, lx + CROP_RADIUS, ly + CROP_RADIUS)
    close = _render(board, view.meeples, crop_window, last, labels)
    canvas = Image.new("RGB", (close.width + 12 + whole.width, max(close.height, whole.height)))
    canvas.paste(close, (0, 0))
    canvas.paste(whole, (close.width + 12, 0))
    return _with_caption(canvas, view)


def _with_caption(image: Image.Image, view: SeatView) -> Image.Image:
    caption = 20
    out = Image.new("RGB", (max(image.width, 260), image.height + caption), (8, 8, 16))
    out.paste(image, (0, caption))
    ImageDraw.Draw(out).text(
        (6, caption / 2), f"tile set: {view.tile_set}", fill=TEXT, font=_font(12), anchor="lm"
    )
    return out


def board_png(
    view: SeatView, *, last: tuple[int, int] | None = None, spots: Sequence[tuple[int, int]] = ()
) -> bytes:
    buffer = io.BytesIO()
    board_image(view, last=last, spots=spots).save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


KIND_NAME = {Kind.ROUTE: "trade route", Kind.ASTEROID: "asteroid field", Kind.PLANET: "planet"}


def summary(view: SeatView) -> str:
    """Scores, meeples left, tiles left and the features in contest, as plain text."""
    lines = [f"Carcassonne: Star Wars (tile set: {view.tile_set})"]
    if view.result is not None:
        lines.append("Game over. Winner: " + ", ".join(view.result.winners))
    else:
        doing = f"holds {view.current}" if view.current else "deploys"
        lines.append(
            f"Turn {view.turn}: {view.active} {doing}; {view.stack_size} tiles left in the stack"
        )
    scores = dict(zip(view.units, view.scores, strict=True))
    lines.append("Scores: " + ", ".join(f"{unit} {points}" for unit, points in scores.items()))
    supplies = []
    for seat in view.seats:
        supply = view.supply(seat)
        supplies.append(f"{seat} {supply[Size.SMALL]} small + {supply[Size.LARGE]} large")
    lines.append("Meeples left: " + ", ".join(supplies))
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
            f"  {KIND_NAME[region.kind]} at {region.anchor}: {', '.join(holders)}, "
            f"{region.tiles} tile(s), {len(region.symbols)} symbol(s), worth "
            f"{region.value(final=True)} now at the end"
        )
    if contested:
        lines.append("Features held:")
        lines.extend(contested)
    return "\n".join(lines)
