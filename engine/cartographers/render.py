"""Cartographers as pictures (spec §1–§4), designed for a phone first (see
:mod:`engine.drawing`): every text is at least 12 px when Discord shows the picture 400 px
wide, and terrains differ by a pattern as well as a colour, for colour-blind players.

* :func:`map_picture`: one map sheet with column letters and row numbers, its coins and a
  legend; with a table view, also the season and its time, the card in play and the four
  edicts (the season's two marked); optionally a candidate placement outlined (solid
  green with a tick when legal, red and crossed out when not) and the cells a scoring
  card counted framed in gold.
* :func:`card_picture`: an explore or ambush card alone: name, time, terrains, shapes
  (numbered as players choose them, coins marked).
* :func:`season_picture`: every player's map side by side (up to 12 stay readable on a
  phone) with the season's scores per player.

Pure: bytes in memory, no files, no clock. Only public information is read: maps, coins
and scores are public (spec §4), a seat's uncommitted drawing is shown only when the
caller passes it as the candidate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from engine.cartographers.components import (
    COIN_TRACK,
    EDICTS,
    SEASONS,
    AmbushCard,
    Edict,
    Terrain,
    card,
)
from engine.cartographers.geometry import COLUMN_LETTERS, SIZE, Shape, row_col
from engine.cartographers.messages import name, text, winners_text
from engine.cartographers.placement import Drawing
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import Phase, SeasonScore
from engine.cartographers.view import SeatView
from engine.drawing import (
    INK,
    PHONE_WIDTH,
    RGB,
    WHITE,
    Box,
    Canvas,
    Pattern,
    Picture,
    bundled_palette,
    mix,
    wrap_text,
)
from engine.i18n import shown, signed
from engine.lettering import isolated

WIDTH = PHONE_WIDTH
PALETTE = bundled_palette("cartographers")
"""The colours its pictures are saved with (``engine/palettes/cartographers.txt``)."""
MARGIN = 8
TEXT = 14
SMALL = 12
TITLE = 16

BACKGROUND: RGB = (244, 236, 214)
GRID: RGB = (120, 104, 80)
EMPTY: RGB = (252, 249, 238)
MUTED: RGB = (100, 88, 70)
PANEL: RGB = (232, 221, 192)
GOLD: RGB = (214, 160, 20)
DARK_GOLD: RGB = (140, 96, 0)
COIN: RGB = (218, 170, 40)
SHAPE_FILL: RGB = (190, 180, 160)
LEGAL: RGB = (20, 150, 60)
ILLEGAL: RGB = (210, 30, 30)
COLOURS: dict[Terrain, RGB] = {
    Terrain.FOREST: (76, 140, 72),
    Terrain.VILLAGE: (200, 86, 70),
    Terrain.FARM: (236, 196, 82),
    Terrain.WATER: (78, 146, 206),
    Terrain.MONSTER: (132, 82, 160),
    Terrain.MOUNTAIN: (150, 128, 104),
    Terrain.WASTELAND: (176, 168, 158),
}
PATTERNS: dict[Terrain, Pattern] = {
    Terrain.FOREST: Pattern.TREES,
    Terrain.VILLAGE: Pattern.HOUSES,
    Terrain.FARM: Pattern.STRIPES,
    Terrain.WATER: Pattern.WAVES,
    Terrain.MONSTER: Pattern.CROSS,
    Terrain.WASTELAND: Pattern.HATCH,
}
"""Marks that tell terrains apart without colour (mountains get a drawn mountain)."""
LEGEND_TERRAINS: tuple[Terrain, ...] = (
    Terrain.FOREST,
    Terrain.VILLAGE,
    Terrain.FARM,
    Terrain.WATER,
    Terrain.MONSTER,
    Terrain.MOUNTAIN,
    Terrain.WASTELAND,
)

LABEL_ROOM = 18
"""Room for row numbers left of the grid and column letters above it."""
MAP_CELL = (WIDTH - 2 * MARGIN - LABEL_ROOM) / SIZE
TITLE_ROOM = 24


# --------------------------------------------------------------------------- cells


def draw_terrain(canvas: Canvas, box: Box, terrain: Terrain | None, *, ruins: bool = False) -> None:
    """One cell: its terrain's colour and pattern (empty cells plain), ruins as an arch."""
    left, top, right, bottom = box
    if terrain is None:
        canvas.rect(box, EMPTY)
    else:
        fill = COLOURS[terrain]
        canvas.rect(box, fill)
        if terrain is Terrain.MOUNTAIN:
            _mountain(canvas, box)
        else:
            canvas.pattern(box, PATTERNS[terrain], mix(fill, INK, 0.45))
    if ruins:
        size = right - left
        inset = size * 0.2
        line = max(1.0, size / 12)
        arch_top = top + inset
        arch = (left + inset, arch_top, right - inset, arch_top + (size - 2 * inset))
        canvas.arc(arch, 180, 360, INK, line)
        middle = arch_top + (size - 2 * inset) / 2
        canvas.line([(left + inset, middle), (left + inset, bottom - inset)], INK, line)
        canvas.line([(right - inset, middle), (right - inset, bottom - inset)], INK, line)


def _mountain(canvas: Canvas, box: Box) -> None:
    left, top, right, bottom = box
    size = right - left
    peak = ((left + right) / 2, top + size * 0.18)
    canvas.polygon(
        [
            (left + size * 0.14, bottom - size * 0.2),
            peak,
            (right - size * 0.14, bottom - size * 0.2),
        ],
        (96, 80, 64),
        INK,
    )
    canvas.polygon(
        [
            (peak[0] - size * 0.12, peak[1] + size * 0.2),
            peak,
            (peak[0] + size * 0.12, peak[1] + size * 0.2),
        ],
        (240, 240, 240),
    )


def _grid(
    canvas: Canvas,
    sheet: MapSheet,
    left: float,
    top: float,
    cell: float,
    *,
    labels: bool,
    candidate: Drawing | None = None,
    candidate_legal: bool = True,
    scored: Iterable[int] = (),
) -> None:
    """The 11×11 map with its top-left cell at (left, top); ``labels`` adds the column
    letters above and the row numbers to the left (they need :data:`LABEL_ROOM`)."""

    def box(index: int) -> Box:
        row, col = row_col(index)
        return (
            left + col * cell,
            top + row * cell,
            left + (col + 1) * cell,
            top + (row + 1) * cell,
        )

    for index in range(SIZE * SIZE):
        draw_terrain(canvas, box(index), sheet.terrain(index), ruins=sheet.is_ruins(index))
    for line in range(SIZE + 1):
        width = 1.0 if cell >= 20 else 0.5
        canvas.line(
            [(left + line * cell, top), (left + line * cell, top + SIZE * cell)], GRID, width
        )
        canvas.line(
            [(left, top + line * cell), (left + SIZE * cell, top + line * cell)], GRID, width
        )
    if labels:
        for number, letter in enumerate(COLUMN_LETTERS):
            canvas.text((left + (number + 0.5) * cell, top - 3), letter, SMALL, INK, "md", True)
        for row in range(SIZE):
            canvas.text((left - 3, top + (row + 0.5) * cell), str(row + 1), SMALL, INK, "rm", True)
    for index in sorted(set(scored)):
        x0, y0, x1, y1 = box(index)
        canvas.rect((x0 + 2, y0 + 2, x1 - 2, y1 - 2), None, GOLD, 3)
    if candidate is not None:
        _candidate(canvas, [box(index) for index in candidate.cells], candidate, candidate_legal)


def _candidate(canvas: Canvas, boxes: Sequence[Box], drawing: Drawing, legal: bool) -> None:
    """A placement being considered: the cells in its terrain, outlined thickly; a tick
    when legal, crossed out when not (so it reads without telling red from green)."""
    colour = LEGAL if legal else ILLEGAL
    for cell_box in boxes:
        draw_terrain(canvas, cell_box, drawing.terrain)
    for cell_box in boxes:
        x0, y0, x1, y1 = cell_box
        canvas.rect((x0 + 1, y0 + 1, x1 - 1, y1 - 1), None, colour, 3)
        if not legal:
            canvas.line([(x0 + 4, y0 + 4), (x1 - 4, y1 - 4)], colour, 3)
            canvas.line([(x1 - 4, y0 + 4), (x0 + 4, y1 - 4)], colour, 3)
    x0, y0, _, _ = boxes[0]
    mark = "✓" if legal else "!"
    canvas.circle((x0 + 3, y0 + 3), 9, colour, WHITE, 2)
    canvas.text((x0 + 3, y0 + 3), mark, SMALL, WHITE, "mm", True)


def _shape(
    canvas: Canvas, shape: Shape, left: float, top: float, cell: float, terrain: Terrain | None
) -> None:
    """A card's shape; in its terrain when the card has one, else in a neutral grey (the
    player picks the terrain)."""
    for row, col in shape.offsets:
        cell_box = (
            left + col * cell,
            top + row * cell,
            left + (col + 1) * cell,
            top + (row + 1) * cell,
        )
        if terrain is None:
            canvas.rect(cell_box, SHAPE_FILL)
        else:
            draw_terrain(canvas, cell_box, terrain)
        canvas.rect(cell_box, None, INK, 1)


# --------------------------------------------------------------------------- pieces of a picture


def _coins(canvas: Canvas, top: float, coins: int, lang: str) -> float:
    label = text("picture.coins", {"coins": coins}, lang)
    width = canvas.text((MARGIN, top + 9), label, SMALL, INK, "lm", True)
    radius = 8.0
    step = (WIDTH - MARGIN - (MARGIN + width + 8) - 2 * radius) / (COIN_TRACK - 1)
    for slot in range(COIN_TRACK):
        x = MARGIN + width + 8 + radius + slot * min(step, 2 * radius + 4)
        canvas.circle((x, top + 9), radius, COIN if slot < coins else EMPTY, INK, 1.5)
    return 24


LEGEND_ROW = 20


def _legend_height() -> float:
    return 22 + math.ceil((len(LEGEND_TERRAINS) + 1) / 2) * LEGEND_ROW


def _legend(canvas: Canvas, top: float, lang: str) -> None:
    canvas.text((MARGIN, top), text("picture.legend", lang=lang), SMALL, MUTED, "la", True)
    entries: list[tuple[Terrain | None, bool, str]] = [
        (terrain, False, name("terrain", terrain.value, lang)) for terrain in LEGEND_TERRAINS
    ]
    entries.append((None, True, name("terrain", "ruins", lang)))
    column_width = (WIDTH - 2 * MARGIN) / 2
    for number, (terrain, ruins, label) in enumerate(entries):
        x = MARGIN + (number % 2) * column_width
        y = top + 20 + (number // 2) * LEGEND_ROW
        draw_terrain(canvas, (x, y, x + 18, y + 18), terrain, ruins=ruins)
        canvas.rect((x, y, x + 18, y + 18), None, GRID, 1)
        canvas.fitted_text((x + 24, y + 9), label, column_width - 28, SMALL, INK, "lm")


def _card_height(view: SeatView, lang: str) -> float:
    return _season_height() + _play_height(view, lang)


def _season_height() -> float:
    return 46


def _season(canvas: Canvas, top: float, view: SeatView, lang: str) -> None:
    header = text(
        "text.header",
        {
            "season": view.season.id,
            "turn": view.turn,
            "time": view.season_time,
            "threshold": view.season.threshold,
        },
        lang,
    )
    canvas.fitted_text((MARGIN, top), header, WIDTH - 2 * MARGIN, TEXT, INK, "la", True)
    threshold = view.season.threshold
    step = (WIDTH - 2 * MARGIN) / threshold
    for slot in range(threshold):
        x = MARGIN + slot * step
        used = slot < view.time_used
        canvas.rect(
            (x + 1, top + 22, x + step - 1, top + 36), GOLD if used else EMPTY, GRID, 1, radius=3
        )
        if used:
            canvas.pattern((x + 1, top + 22, x + step - 1, top + 36), Pattern.HATCH, DARK_GOLD)


SHAPE_CELL = 16
"""A shape's cell beside a map; on the card alone, :data:`CARD_SHAPE_CELL`."""
CARD_SHAPE_CELL = 24


def _play_lines(view: SeatView, lang: str) -> list[str]:
    """The sentences about the card in play (name and time, ruins, ambush target)."""
    if view.card is None or view.phase is Phase.OVER:
        return [text("text.no_card", lang=lang)]
    found = card(view.card)
    if isinstance(found, AmbushCard):
        return [text("text.card_ambush", {"card": found.id, "target": view.target or ""}, lang)]
    key = "text.card_ruins" if view.ruins else "text.card"
    return [text(key, {"card": found.id, "time": found.time}, lang)]


def _play_height(view: SeatView, lang: str) -> float:
    lines = sum(len(wrap_text(line, WIDTH - 2 * MARGIN, TEXT)) for line in _play_lines(view, lang))
    shapes = 0.0
    if view.card is not None and view.phase is not Phase.OVER:
        shapes = _shapes_height(view.card)
    return 6 + lines * 18 + shapes + 6


def _shapes_height(card_id: str, cell: float = SHAPE_CELL) -> float:
    found = card(card_id)
    if isinstance(found, AmbushCard):
        return 20 + found.shape.height * cell + 8
    if not found.shapes:
        return 0
    return 20 + max(shape.height for shape in found.shapes) * cell + 8 + 22


def _play(canvas: Canvas, top: float, view: SeatView, lang: str) -> None:
    y = top + 6
    for line in _play_lines(view, lang):
        for part in wrap_text(line, WIDTH - 2 * MARGIN, TEXT):
            canvas.text((MARGIN, y), part, TEXT, INK, "la", True)
            y += 18
    if view.card is not None and view.phase is not Phase.OVER:
        _draw_card_shapes(canvas, y, view.card, lang)


def _draw_card_shapes(
    canvas: Canvas, top: float, card_id: str, lang: str, cell: float = SHAPE_CELL
) -> None:
    """The card's shapes, numbered, coins marked; its terrains as swatches below."""
    found = card(card_id)
    if isinstance(found, AmbushCard):
        shapes: tuple[Shape, ...] = (found.shape,)
        terrains: tuple[Terrain, ...] = (Terrain.MONSTER,)
        coins: frozenset[int] = frozenset()
    else:
        shapes, terrains, coins = found.shapes, found.terrains, found.coin_shapes
    if not shapes:
        return
    x: float = MARGIN
    for number, shape in enumerate(shapes):
        caption = text("text.shape", {"number": number + 1, "coin": ""}, lang)
        width = canvas.text((x, top), caption, SMALL, INK, "la", True)
        if number in coins:
            canvas.circle((x + width + 10, top + 7), 7, COIN, INK, 1.5)
        _shape(canvas, shape, x, top + 20, cell, terrains[0] if len(terrains) == 1 else None)
        x += max(shape.width * cell, width + (22 if number in coins else 0)) + 24
    if isinstance(found, AmbushCard):
        return
    y = top + 20 + max(shape.height for shape in shapes) * cell + 8
    x = MARGIN
    for terrain in terrains:
        draw_terrain(canvas, (x, y, x + 16, y + 16), terrain)
        canvas.rect((x, y, x + 16, y + 16), None, GRID, 1)
        x += 22 + canvas.text(
            (x + 22, y + 8), name("terrain", terrain.value, lang), SMALL, INK, "lm"
        )
        x += 12


def _edict_lines(view: SeatView, lang: str) -> list[tuple[str, bool, list[str]]]:
    """Each edict: its heading, whether it scores this season, and (this season's only)
    its rule, wrapped."""
    current = set(view.season.edicts)
    out = []
    for letter, edict in zip(EDICTS, view.edicts, strict=True):
        now = letter in current
        heading = text("picture.edict", {"edict": letter.value, "card": edict}, lang)
        rule = (
            wrap_text(text(f"rule.{edict}", lang=lang), WIDTH - 2 * MARGIN - 14, SMALL)
            if now
            else []
        )
        out.append((heading, now, rule))
    return out


def _edicts_height(view: SeatView, lang: str) -> float:
    return 22 + sum(18 + 15 * len(rule) + 2 for _, _, rule in _edict_lines(view, lang))


def _edicts(canvas: Canvas, top: float, view: SeatView, lang: str) -> None:
    canvas.text((MARGIN, top), text("picture.edicts", lang=lang), SMALL, MUTED, "la", True)
    y = top + 20
    for heading, now, rule in _edict_lines(view, lang):
        if now:
            canvas.rect((MARGIN, y, MARGIN + 6, y + 16 + 15 * len(rule)), GOLD)
        canvas.fitted_text(
            (MARGIN + 12, y),
            heading,
            WIDTH - 2 * MARGIN - 12,
            TEXT,
            INK if now else MUTED,
            "la",
            now,
        )
        y += 18
        for line in rule:
            canvas.text((MARGIN + 12, y), line, SMALL, INK)
            y += 15
        y += 2


# --------------------------------------------------------------------------- pictures


def map_cell_box(index: int, *, titled: bool) -> Box:
    """Where :func:`map_picture` draws cell ``index``, in layout units (``titled``: the
    picture has a title line)."""
    row, col = row_col(index)
    left = MARGIN + LABEL_ROOM + col * MAP_CELL
    top = MARGIN + (TITLE_ROOM if titled else 0) + LABEL_ROOM + row * MAP_CELL
    return (left, top, left + MAP_CELL, top + MAP_CELL)


def map_picture(
    sheet: MapSheet,
    *,
    coins: int = 0,
    title: str | None = None,
    table: SeatView | None = None,
    candidate: Drawing | None = None,
    candidate_legal: bool = True,
    scored: Iterable[int] = (),
    lang: str = "en",
) -> Picture:
    """A map sheet for a phone: ``title`` above, the grid, the coins, the legend; with
    ``table``, the season, the card in play and the edicts below. ``candidate`` is a
    placement being considered, outlined; ``scored`` cells are framed in gold."""
    top = MARGIN
    grid_left, grid_top, _, _ = map_cell_box(0, titled=bool(title))
    grid_height = SIZE * MAP_CELL
    coins_top = grid_top + grid_height + 8
    play_top = coins_top + 28
    play_height = _card_height(table, lang) if table is not None else 0
    edicts_height = _edicts_height(table, lang) if table is not None else 0
    legend_top = play_top + play_height + edicts_height
    height = legend_top + _legend_height() + MARGIN
    canvas = Canvas(WIDTH, math.ceil(height), BACKGROUND, PALETTE)
    if title:
        canvas.fitted_text((MARGIN, top), title, WIDTH - 2 * MARGIN, TITLE, INK, "la", True)
    _grid(
        canvas,
        sheet,
        grid_left,
        grid_top,
        MAP_CELL,
        labels=True,
        candidate=candidate,
        candidate_legal=candidate_legal,
        scored=scored,
    )
    _coins(canvas, coins_top, coins, lang)
    if table is not None:
        canvas.rect((0, play_top - 4, WIDTH, play_top + play_height - 2), PANEL)
        _season(canvas, play_top, table, lang)
        _play(canvas, play_top + _season_height(), table, lang)
        _edicts(canvas, play_top + play_height, table, lang)
    _legend(canvas, legend_top, lang)
    return canvas.picture()


def seat_map_picture(
    view: SeatView,
    seat: str,
    *,
    names: Mapping[str, str] | None = None,
    candidate: Drawing | None = None,
    candidate_legal: bool = True,
    lang: str = "en",
) -> Picture:
    """``seat``'s map at this table, with the season, the card in play and the edicts:
    the public post's map, or (with ``candidate``) a player's panel."""
    player = view.player(seat)
    title = text(
        "picture.map_of",
        {"name": _name(seat, names), "count": player.stars},
        lang,
    )
    return map_picture(
        player.sheet,
        coins=player.coins,
        title=title,
        table=view,
        candidate=candidate,
        candidate_legal=candidate_legal,
        lang=lang,
    )


def card_picture(card_id: str, *, ruins: bool = False, lang: str = "en") -> Picture:
    """The explore or ambush card ``card_id`` alone: name and time (and the ruins rule
    when a ruins card came before), its shapes numbered with coins marked, its terrains."""
    found = card(card_id)
    if isinstance(found, AmbushCard):
        heading = text("picture.card_ambush", {"card": found.id}, lang)
    else:
        key = "text.card_ruins" if ruins else "text.card"
        heading = text(key, {"card": found.id, "time": found.time}, lang)
    lines = wrap_text(heading, WIDTH - 2 * MARGIN, TEXT, bold=True)
    height = MARGIN + len(lines) * 19 + 6 + _shapes_height(card_id, CARD_SHAPE_CELL) + MARGIN
    canvas = Canvas(WIDTH, math.ceil(height), BACKGROUND, PALETTE)
    y = MARGIN
    for line in lines:
        canvas.text((MARGIN, y), line, TEXT, INK, "la", True)
        y += 19
    _draw_card_shapes(canvas, y + 6, card_id, lang, CARD_SHAPE_CELL)
    return canvas.picture()


def _name(seat: str, names: Mapping[str, str] | None) -> str:
    """A player's display name (or seat), set apart from the sentence it is put in."""
    given = (names or {}).get(seat, "").strip()
    return isolated(given or seat)


SEASON_GAP = 8.0


def season_layout(players: int) -> tuple[int, float]:
    """Maps per row in the season picture (one alone, two up to four, else three) and
    the size of a map cell there, in layout units."""
    columns = 1 if players == 1 else 2 if players <= 4 else 3
    tile_width = (WIDTH - 2 * MARGIN - SEASON_GAP * (columns - 1)) / columns
    return columns, tile_width / SIZE


def season_picture(
    view: SeatView,
    *,
    names: Mapping[str, str] | None = None,
    season: str | None = None,
    lang: str = "en",
) -> Picture:
    """Every player's map with their score for ``season`` (default: the last one scored)
    under a heading, then a table of that season's scores: each edict, coins, monsters,
    the season's total and the stars so far."""
    players = view.players
    columns, cell = season_layout(len(players))
    gap = SEASON_GAP
    tile_width = cell * SIZE
    caption = 34.0
    rows = math.ceil(len(players) / columns)
    tile_height = caption + SIZE * cell + gap
    scores = {player.seat: _score_of(player.seasons, season) for player in players}
    season_id = next((score.season for score in scores.values() if score is not None), None)
    heading = (
        text("picture.season_end", {"season_end": season_id}, lang)
        if season_id
        else text("picture.maps", lang=lang)
    )
    notes: list[tuple[str, bool]] = []
    if season_id:
        edicts = ", ".join(
            text(
                "picture.edict",
                {"edict": letter.value, "card": view.edicts[EDICTS.index(letter)]},
                lang,
            )
            for letter in _season_edicts(season_id)
        )
        notes.append((edicts, False))
    if view.result is not None:
        winners = (_name(seat, names) for seat in view.result.winners)
        notes.append((winners_text(winners, lang), True))
    maps_top = MARGIN + 24 + 18 * len(notes)
    table_top = maps_top + rows * tile_height + 4
    height = table_top + 22 + SCORE_ROW * len(players) + MARGIN
    canvas = Canvas(WIDTH, math.ceil(height), BACKGROUND, PALETTE)
    canvas.fitted_text((MARGIN, MARGIN), heading, WIDTH - 2 * MARGIN, TITLE, INK, "la", True)
    for line_number, (note, bold) in enumerate(notes):
        colour = DARK_GOLD if bold else MUTED
        place = (MARGIN, MARGIN + 22 + 18 * line_number)
        canvas.fitted_text(
            place, note, WIDTH - 2 * MARGIN, SMALL if not bold else TEXT, colour, "la", bold
        )
    for number, player in enumerate(players):
        left = MARGIN + (number % columns) * (tile_width + gap)
        top = maps_top + (number // columns) * tile_height
        label = _name(player.seat, names)
        canvas.fitted_text((left, top), label, tile_width, SMALL, INK, "la", True)
        canvas.fitted_text(
            (left, top + 15),
            _tile_score(player.stars, scores[player.seat], lang),
            tile_width,
            SMALL,
            MUTED,
            "la",
        )
        _grid(canvas, player.sheet, left, top + caption, cell, labels=False)
        canvas.rect(
            (left, top + caption, left + SIZE * cell, top + caption + SIZE * cell), None, INK, 1
        )
    _score_table(canvas, table_top, view, scores, names, lang)
    return canvas.picture()


def _tile_score(stars: int, score: SeasonScore | None, lang: str) -> str:
    """A map's caption: its stars, and what the season shown brought ("115 stars (+12)");
    the stars alone before that season is scored."""
    if score is None:
        return text("picture.tile_stars", {"count": stars}, lang)
    return text("picture.tile_score", {"count": stars, "season": signed(score.total)}, lang)


def _score_of(seasons: Sequence[SeasonScore], season: str | None) -> SeasonScore | None:
    if season is None:
        return seasons[-1] if seasons else None
    return next((score for score in seasons if score.season == season), None)


SCORE_ROW = 20
EDICTS_COLUMN = 168.0
"""The right edge of the first edict's column (the player's name before it)."""
SEASON_COLUMN = 324.0
"""The right edge of the season's stars (the stars so far end at the margin)."""
COIN_COLUMN = 222.0
MONSTER_COLUMN = 254.0
"""The centres of the coins and monsters columns: headed by a coin and a monster cell, as
the maps draw them (a word or its abbreviation would not fit, nor read the same in every
language)."""


def _score_table(
    canvas: Canvas,
    top: float,
    view: SeatView,
    scores: Mapping[str, SeasonScore | None],
    names: Mapping[str, str] | None,
    lang: str,
) -> None:
    """One line a player: the season's two edicts, coins, monsters, the season's stars and
    the stars so far; before the season shown is scored, the stars so far alone."""
    season = next((score for score in scores.values() if score is not None), None)
    columns: list[tuple[str, float, str]] = [(text("picture.col.player", lang=lang), MARGIN, "la")]
    if season is not None:
        first, second = (edict.value for edict in _season_edicts(season.season))
        columns += [
            (first, EDICTS_COLUMN, "ra"),
            (second, EDICTS_COLUMN + 28, "ra"),
            ("", COIN_COLUMN, "ma"),
            ("", MONSTER_COLUMN, "ma"),
            (text("picture.col.season", lang=lang), SEASON_COLUMN, "ra"),
        ]
        canvas.circle((COIN_COLUMN, top + 7), 6, COIN, INK, 1.5)
        monster = (MONSTER_COLUMN - 7, top, MONSTER_COLUMN + 7, top + 14)
        draw_terrain(canvas, monster, Terrain.MONSTER)
        canvas.rect(monster, None, GRID, 1)
    columns.append((text("picture.col.total", lang=lang), WIDTH - MARGIN, "ra"))
    for heading, x, anchor in columns:
        canvas.text((x, top), heading, SMALL, MUTED, anchor, True)
    canvas.line([(MARGIN, top + 17), (WIDTH - MARGIN, top + 17)], GRID)
    name_width = (EDICTS_COLUMN if season is not None else WIDTH - MARGIN - 40) - 24 - MARGIN
    y = top + 22
    for number, player in enumerate(view.players):
        if number % 2:
            canvas.rect((MARGIN, y - 2, WIDTH - MARGIN, y + 18), PANEL)
        score = scores[player.seat]
        cells = [_name(player.seat, names)]
        if season is not None:
            if score is None:
                cells += ["", "", "", "", ""]
            else:
                cells += [
                    str(score.edicts[0]),
                    str(score.edicts[1]),
                    str(score.coins),
                    signed(-score.monsters) if score.monsters else "0",
                    str(shown(score.total)),
                ]
        cells.append(str(shown(player.stars)))
        for index, ((_, x, anchor), value) in enumerate(zip(columns, cells, strict=True)):
            if index == 0:
                canvas.fitted_text((x, y), value, name_width, SMALL, INK, anchor)
            else:
                canvas.text((x, y), value, SMALL, INK, anchor, index == len(cells) - 1)
        y += SCORE_ROW


def _season_edicts(season_id: str) -> tuple[Edict, Edict]:
    for season in SEASONS:
        if season.id == season_id:
            return season.edicts
    raise KeyError(season_id)


__all__ = [
    "COLOURS",
    "EMPTY",
    "MAP_CELL",
    "PATTERNS",
    "card_picture",
    "map_cell_box",
    "map_picture",
    "season_layout",
    "season_picture",
    "seat_map_picture",
]
