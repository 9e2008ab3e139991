"""Carcassonne: Star Wars as text (pure): the map drawn in characters, five columns and three
lines per tile so that fifteen tiles fit an 80-column terminal, and what a placement or a
deployment would do, in the words a player says ("route, east end", "planet (rebel) to
the north-west") — no tile ids, no coordinates.

On the map ``·`` is space, ``─ │ ┌ ┐ └ ┘ ┬ ┼`` are trade routes, ``▒`` asteroid fields,
``(R)`` a planet with its faction's mark, a faction's mark inside a route or field its
symbol, a digit a player's small meeple and a circled digit (①) their large one. ``[3]``
numbers an empty square where the tile in hand fits; ``v`` above and ``>`` beside point at
the tile placed last. A map wider than the screen is shown around that tile, with a line
saying how much lies beyond.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.carcassonne.battle import battle_odds, dice_for
from engine.carcassonne.board import Board, FeatureRef, Region
from engine.carcassonne.components import AROUND, Edge, Faction, Kind, Side, Size, tile_type
from engine.carcassonne.messages import faction_mark, faction_name, say
from engine.carcassonne.rules import Placement, place, touched_regions
from engine.carcassonne.state import GameState, Meeple
from engine.carcassonne.view import SeatView

TILE_WIDTH = 5
TILE_HEIGHT = 3
SCREEN_WIDTH = 80
MARGIN = 2
"""The map's left margin, where ``>`` points at the row of the tile placed last."""
SPACE = "·"
FIELD = "▒"
BLANK = " "
LARGE_MEEPLES = "①②③④⑤"
ROUTE_CHARS = {
    frozenset({Side.N, Side.S}): "│",
    frozenset({Side.E, Side.W}): "─",
    frozenset({Side.N, Side.E}): "└",
    frozenset({Side.E, Side.S}): "┌",
    frozenset({Side.S, Side.W}): "┐",
    frozenset({Side.N, Side.W}): "┘",
    frozenset({Side.E, Side.S, Side.W}): "┬",
    frozenset({Side.N, Side.E, Side.W}): "┴",
    frozenset({Side.N, Side.E, Side.S}): "├",
    frozenset({Side.N, Side.S, Side.W}): "┤",
    frozenset(Side): "┼",
}
ROUTE_LINES = "─│" + "".join(ROUTE_CHARS.values())
EDGE_CELLS: dict[Side, tuple[tuple[int, int], ...]] = {
    Side.N: ((0, 1), (0, 2), (0, 3)),
    Side.E: ((1, 4),),
    Side.S: ((2, 1), (2, 2), (2, 3)),
    Side.W: ((1, 0),),
}
"""The cells along each edge (line, column) that a field touching it fills."""
ROUTE_END: dict[Side, tuple[int, int]] = {
    Side.N: (0, 2),
    Side.E: (1, 4),
    Side.S: (2, 2),
    Side.W: (1, 0),
}
INNER: dict[Side, tuple[int, int] | None] = {
    Side.N: None,
    Side.E: (1, 3),
    Side.S: None,
    Side.W: (1, 1),
}
"""The cell between an edge and the centre (none north and south: the tile is 3 lines)."""
CORNERS: dict[tuple[Side, Side], tuple[int, int]] = {
    (Side.N, Side.E): (0, 4),
    (Side.E, Side.S): (2, 4),
    (Side.S, Side.W): (2, 0),
    (Side.W, Side.N): (0, 0),
}
CENTRE = (1, 2)
JUNCTION = -1
"""The centre where routes end, which belongs to none of them."""
PLANET_CELLS = ((1, 1), (1, 2), (1, 3))
PLANET_MEEPLES = ((1, 4), (1, 0), (0, 2), (2, 1), (2, 3))
DIRECTIONS = dict(zip(AROUND, ("nw", "n", "ne", "e", "se", "s", "sw", "w"), strict=True))
"""The 8 squares around a square, by the compass point a player names them."""


def meeple_mark(number: int, size: Size) -> str:
    """A meeple on the map: its player's number, circled for the large one."""
    return LARGE_MEEPLES[number - 1] if size is Size.LARGE else str(number)


# --------------------------------------------------------------------------- a tile


@dataclass
class _Drawing:
    """One tile's 3 × 5 characters, and which cells each feature covers (best first)."""

    cells: list[list[str]]
    taken: dict[tuple[int, int], int | None]
    slots: dict[int | None, list[tuple[int, int]]]

    def put(self, cell: tuple[int, int], char: str, feature: int | None) -> None:
        self.cells[cell[0]][cell[1]] = char
        self.taken[cell] = feature
        self.slots.setdefault(feature, []).append(cell)

    def free(self, cell: tuple[int, int] | None) -> bool:
        return cell is not None and cell not in self.taken


def tile_rows(
    tile: str,
    rotation: int,
    meeples: Sequence[tuple[int | None, str]] = (),
    locale: str = "en",
) -> list[str]:
    """The tile turned ``rotation`` quarter turns as 3 lines of 5 characters, with
    ``meeples`` (feature index or None for the planet, and the mark to draw) on their
    features."""
    kind = tile_type(tile)
    drawing = _Drawing([[SPACE] * TILE_WIDTH for _ in range(TILE_HEIGHT)], {}, {})
    if kind.planet is not None:
        for cell, char in zip(PLANET_CELLS, f"({faction_mark(kind.planet, locale)})", strict=True):
            drawing.put(cell, char, None)
    sides = {index: kind.feature_sides(index, rotation) for index in range(len(kind.features))}
    ends = frozenset(
        sides[index][0]
        for index, spec in enumerate(kind.features)
        if spec.kind is Kind.ROUTE and len(sides[index]) == 1
    )
    for index, spec in enumerate(kind.features):
        if spec.kind is Kind.ROUTE:
            _draw_route(drawing, index, frozenset(sides[index]), ends)
    for index, spec in enumerate(kind.features):
        if spec.kind is Kind.ASTEROID:
            _draw_field(drawing, index, frozenset(sides[index]), kind.rotated_edges(rotation))
    for index, spec in enumerate(kind.features):
        if spec.symbol is not None:
            _mark(drawing, index, faction_mark(spec.symbol, locale), skip=1)
    for feature, mark in meeples:
        if feature is None:
            spot = next((c for c in PLANET_MEEPLES if drawing.free(c)), None)
            if spot is not None:
                drawing.put(spot, mark, None)
        else:
            _mark(drawing, feature, mark)
    return ["".join(line) for line in drawing.cells]


def _draw_route(
    drawing: _Drawing, index: int, sides: frozenset[Side], ends: frozenset[Side]
) -> None:
    for side in sides:
        drawing.put(ROUTE_END[side], "│" if side in (Side.N, Side.S) else "─", index)
        inner = INNER[side]
        if drawing.free(inner) and inner is not None:
            drawing.put(inner, "─", index)
    if len(sides) == 2 and drawing.free(CENTRE):
        drawing.put(CENTRE, ROUTE_CHARS[sides], index)
    elif len(ends) >= 2 and drawing.free(CENTRE):
        drawing.put(CENTRE, ROUTE_CHARS[ends], JUNCTION)


def _draw_field(
    drawing: _Drawing, index: int, sides: frozenset[Side], edges: Sequence[Edge]
) -> None:
    cells: list[tuple[int, int]] = []
    if len(sides) >= 2:
        cells.append(CENTRE)
        cells.extend(cell for side in sorted(sides) if (cell := INNER[side]) is not None)
    for side in sorted(sides):
        cells.extend(EDGE_CELLS[side])
    for (first, second), corner in CORNERS.items():
        if first in sides and second in sides:
            cells.append(corner)
        elif len(sides) == 1 and (first in sides or second in sides):
            other = second if first in sides else first
            if edges[other] is Edge.SPACE:
                cells.append(corner)
    for cell in cells:
        if drawing.free(cell):
            drawing.put(cell, FIELD, index)


def _closeness(cell: tuple[int, int]) -> tuple[int, int]:
    """How near the middle of the tile a cell lies (marks go there first, away from the
    edges where a neighbour's route or field meets this one)."""
    return (abs(cell[0] - CENTRE[0]) * 2 + abs(cell[1] - CENTRE[1]), cell[1])


def _mark(drawing: _Drawing, feature: int, mark: str, skip: int = 0) -> None:
    """``mark`` on a cell of ``feature`` not marked yet: the one nearest the middle, or
    the one after ``skip`` of them (a symbol leaves the best cell to a meeple)."""
    unmarked = [
        cell
        for cell in drawing.slots.get(feature, [])
        if drawing.cells[cell[0]][cell[1]] in ROUTE_LINES + FIELD
    ]
    if not unmarked:
        return
    unmarked.sort(key=_closeness)
    cell = unmarked[min(skip, len(unmarked) - 1)]
    drawing.cells[cell[0]][cell[1]] = mark


# --------------------------------------------------------------------------- the map


def map_lines(
    seat_view: SeatView,
    numbers: Mapping[str, int],
    *,
    spots: Sequence[tuple[int, int]] = (),
    last: tuple[int, int] | None = None,
    focus: tuple[int, int] | None = None,
    locale: str = "en",
    width: int = SCREEN_WIDTH,
    reach: int | None = None,
) -> list[str]:
    """The map as lines: every tile with its meeples (``numbers``: each seat's number),
    ``spots`` numbered from 1 on their empty squares, ``last`` pointed at. When the map
    is wider than ``width``, the columns around ``focus`` (else ``last``) are shown and
    a last line says how many lie beyond on each side. With ``reach``, only the squares
    that near ``focus`` are shown (a close-up), and nothing is said of the rest."""
    board = seat_view.board
    on_tile: dict[tuple[int, int], list[tuple[int | None, str]]] = {}
    for meeple in seat_view.meeples:
        mark = meeple_mark(numbers[meeple.seat], meeple.size)
        on_tile.setdefault(meeple.at.square, []).append((meeple.at.feature, mark))
    squares = [*board.at, *spots]
    centre = focus or last or (0, 0)
    if reach is not None:
        squares = [
            (x, y) for x, y in squares if max(abs(x - centre[0]), abs(y - centre[1])) <= reach
        ]
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    left, right = min(xs), max(xs)
    fits = max(1, (width - MARGIN) // TILE_WIDTH)
    hidden_left = hidden_right = 0
    if right - left + 1 > fits:
        start = min(max(left, centre[0] - fits // 2), right - fits + 1)
        hidden_left, hidden_right = start - left, right - (start + fits - 1)
        left, right = start, start + fits - 1
    spot_number = {square: number for number, square in enumerate(spots, start=1)}
    header = " " * MARGIN + "".join(
        f"{'v':^{TILE_WIDTH}}" if last is not None and x == last[0] else " " * TILE_WIDTH
        for x in range(left, right + 1)
    )
    lines = [header.rstrip()]
    for y in range(min(ys), max(ys) + 1):
        rows = [""] * TILE_HEIGHT
        for x in range(left, right + 1):
            placed = board.at.get((x, y))
            if placed is not None:
                glyph = tile_rows(placed.tile, placed.rotation, on_tile.get((x, y), ()), locale)
            elif (x, y) in spot_number:
                label = f"[{spot_number[(x, y)]}]"
                glyph = [BLANK * TILE_WIDTH, f"{label:^{TILE_WIDTH}}", BLANK * TILE_WIDTH]
            else:
                glyph = [BLANK * TILE_WIDTH] * TILE_HEIGHT
            for line in range(TILE_HEIGHT):
                rows[line] += glyph[line]
        pointer = ">" if last is not None and y == last[1] else " "
        for line in range(TILE_HEIGHT):
            margin = pointer if line == 1 else " "
            lines.append((margin + " " * (MARGIN - 1) + rows[line]).rstrip())
    if (hidden_left or hidden_right) and reach is None:
        lines.append(say(locale, "text.beyond", west=hidden_left, east=hidden_right))
    return lines


def legend(locale: str = "en") -> str:
    """What the map's characters mean."""
    marks = ", ".join(
        f"{faction_mark(faction, locale)} {faction_name(faction, locale)}" for faction in Faction
    )
    return say(locale, "text.legend", factions=marks, large=LARGE_MEEPLES[0])


# --------------------------------------------------------------------------- in words


def sides_text(sides: Sequence[Side], locale: str) -> str:
    return say(locale, "feature.side_joiner").join(
        say(locale, f"side.{side.name.lower()}") for side in sorted(sides)
    )


def feature_words(tile: str, index: int | None, rotation: int, locale: str = "en") -> str:
    """A feature of a placed tile the way a player says it: "route, east end", "route,
    north–south", "asteroid field, north-east corner", "planet (rebel)"."""
    kind = tile_type(tile)
    if index is None:
        assert kind.planet is not None
        return say(locale, "words.planet", faction=faction_name(kind.planet, locale))
    spec = kind.features[index]
    sides = sorted(kind.feature_sides(index, rotation))
    if spec.kind is Kind.ROUTE:
        if len(sides) == 1:
            words = say(
                locale, "words.route_end", side=say(locale, f"side.{sides[0].name.lower()}")
            )
        else:
            words = say(locale, "words.route", sides=sides_text(sides, locale))
    else:
        words = _field_words(sides, locale)
    if spec.symbol is not None:
        words = say(
            locale, "words.symbol", feature=words, faction=faction_name(spec.symbol, locale)
        )
    return words


def _field_words(sides: Sequence[Side], locale: str) -> str:
    if len(sides) == 1:
        return say(locale, "words.field_edge", side=say(locale, f"side.{sides[0].name.lower()}"))
    if len(sides) == 2 and (sides[1] - sides[0]) % 2 == 1:
        first, second = sides
        north_south = first if first in (Side.N, Side.S) else second
        east_west = second if north_south is first else first
        point = north_south.name.lower() + east_west.name.lower()
        return say(locale, "words.field_corner", direction=say(locale, f"direction.{point}"))
    if len(sides) == 2:
        return say(locale, "words.field_across", sides=sides_text(sides, locale))
    if len(sides) == 3:
        (missing,) = set(Side) - set(sides)
        return say(locale, "words.field_all_but", side=say(locale, f"side.{missing.name.lower()}"))
    return say(locale, "words.field_whole")


def tile_words(tile: str, rotation: int = 0, locale: str = "en") -> str:
    """The tile's features in words: "asteroid field, north · route, east–west"."""
    kind = tile_type(tile)
    parts = [feature_words(tile, index, rotation, locale) for index in range(len(kind.features))]
    if kind.planet is not None:
        parts.append(feature_words(tile, None, rotation, locale))
    return " · ".join(parts) if parts else say(locale, "words.space_only")


def target_words(
    board: Board, placed: tuple[int, int] | None, ref: FeatureRef, locale: str = "en"
) -> str:
    """A feature in words from the tile ``placed`` (where a meeple goes from): a feature
    of that tile, or a planet around it named by its direction ("planet (rebel) to the
    north-west")."""
    on = board.at[ref.square]
    words = feature_words(on.tile, ref.feature, on.rotation, locale)
    step = None if placed is None else (ref.x - placed[0], ref.y - placed[1])
    if step not in DIRECTIONS:
        return words
    direction = say(locale, f"direction.{DIRECTIONS[step]}")
    return say(locale, "words.toward", feature=words, direction=direction)


def region_label(board: Board, ref: FeatureRef, locale: str = "en") -> str:
    """A whole feature named wherever it lies: "planet (rebel)", "a trade route of 4 tiles"."""
    region = board.region(ref)
    if region.kind is Kind.PLANET:
        on = board.at[ref.square]
        return feature_words(on.tile, None, on.rotation, locale)
    return region_words(region, locale)


def region_words(region: Region, locale: str = "en") -> str:
    """A whole route or field, named by its kind and size: "a trade route of 3 tiles"."""
    return say(locale, f"words.region.{region.kind.value}", count=region.tiles)


# --------------------------------------------------------------------------- what it does


def holders_of(state: GameState, region: Region) -> list[str]:
    """The units holding meeples in ``region``, in turn order."""
    board = state.board
    inside = {state.unit_of(m.seat) for m in state.meeples if board.region(m.at) is region}
    return [unit for unit in state.units if unit in inside]


def placement_lines(
    seat_view: SeatView,
    placement: Placement,
    names: Mapping[str, str],
    locale: str = "en",
) -> list[str]:
    """What placing the tile in hand there would do, one line per feature it touches: the
    route or field it joins (its size, open or complete and what it is worth, who holds
    it, a battle between holders), the planets it surrounds. Features of the tile alone
    are left out: they join nothing."""
    assert seat_view.seat is not None
    square = (placement.x, placement.y)
    after, _ = place(seat_view.as_state(), seat_view.seat, placement)
    lines = []
    for region in touched_regions(after.board, placement.x, placement.y):
        holders = _holders_text(holders_of(after, region), names, locale)
        if region.kind is Kind.PLANET:
            planet = target_words(after.board, square, region.anchor, locale)
            if region.anchor.square == square:
                key = "effect.planet_own"
            elif region.complete:
                key = "effect.planet_complete"
            else:
                key = "effect.planet_around"
            points = region.value(final=False)
            lines.append(
                say(
                    locale,
                    key,
                    planet=planet,
                    count=region.surrounding,
                    points=points,
                    holders=holders,
                )
            )
            continue
        if region.tiles == 1:
            continue  # a feature of this tile alone: nothing joined, nothing to say
        segment = next(ref for ref in region.segments if ref.square == square)
        feature = target_words(after.board, square, segment, locale)
        status = (
            say(locale, "effect.complete", points=region.value(final=False))
            if region.complete
            else say(locale, "effect.open")
        )
        line = say(
            locale,
            "effect.joins",
            feature=feature,
            region=region_words(region, locale),
            status=status,
            holders=holders,
        )
        if len(holders_of(after, region)) >= 2:
            line += " " + say(locale, "effect.battle")
        lines.append(line)
    return lines


def _holders_text(holders: Sequence[str], names: Mapping[str, str], locale: str) -> str:
    if not holders:
        return say(locale, "effect.nobody")
    return say(locale, "effect.held_by", names=", ".join(names.get(u, u) for u in holders))


def deployment_text(
    seat_view: SeatView,
    ref: FeatureRef,
    size: Size,
    names: Mapping[str, str],
    locale: str = "en",
) -> str:
    """What a meeple of ``size`` there would do, for the tile just placed: a battle (every
    side's dice and the chance to win it), a feature it completes and scores at once, or
    the size of the open feature it claims."""
    state = seat_view.as_state()
    seat = seat_view.active
    board = state.board
    region = board.region(ref)
    meeples = [m for m in state.meeples if board.region(m.at) is region]
    meeples.append(Meeple(seat, size, ref))
    unit = state.unit_of(seat)
    units = [u for u in state.units if any(state.unit_of(m.seat) == u for m in meeples)]
    if len(units) >= 2:
        dice = {u: dice_for(u, meeples, region, state.unit_of, state.faction_of) for u in units}
        chances, _ = battle_odds(dice)
        others = ", ".join(
            say(locale, "effect.side", name=names.get(u, u), count=dice[u])
            for u in units
            if u != unit
        )
        return say(
            locale,
            "effect.attack",
            count=dice[unit],
            others=others,
            percent=round(100 * chances[unit]),
        )
    if region.complete:
        return say(locale, "effect.scores_now", points=region.value(final=False))
    if region.kind is Kind.PLANET:
        return say(
            locale,
            "effect.claims_planet",
            count=region.surrounding,
            points=region.value(final=True),
        )
    return say(
        locale,
        "effect.claims",
        region=region_words(region, locale),
        points=region.value(final=True),
    )


__all__ = [
    "LARGE_MEEPLES",
    "TILE_HEIGHT",
    "TILE_WIDTH",
    "deployment_text",
    "feature_words",
    "legend",
    "map_lines",
    "meeple_mark",
    "placement_lines",
    "region_label",
    "region_words",
    "target_words",
    "tile_rows",
    "tile_words",
]
