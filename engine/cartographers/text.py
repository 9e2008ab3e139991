"""Plain-text rendering (pure): a map with column letters A–K and row numbers, one
character per cell, and a table summary that fits one Discord message (season bar, the
card in play with its shapes, the four edicts, the viewer's map and a legend).

Wrap the result in a code block to show it on Discord; every sentence comes from the
message catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cartographers.components import EDICTS, EXPLORE_BY_ID, SEASONS, AmbushCard, card
from engine.cartographers.geometry import COLUMN_LETTERS, SIZE, Shape, cell
from engine.cartographers.messages import name, text, winners_text
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import Phase
from engine.cartographers.view import SeatView

BAR_USED = "■"
BAR_LEFT = "□"
DISCORD_LIMIT = 2000


def render_map(
    sheet: MapSheet, overlay: Mapping[int, str] | None = None, *, spaced: bool = True
) -> list[str]:
    """The map as lines: a header of column letters, then one numbered line per row.
    ``overlay`` replaces the characters of some cells (a pending placement, say)."""
    marks = overlay or {}
    gap = " " if spaced else ""
    lines = ["   " + gap.join(COLUMN_LETTERS)]
    for row in range(SIZE):
        codes = [marks.get(cell(row, col), sheet.code(cell(row, col))) for col in range(SIZE)]
        lines.append(f"{row + 1:>2} " + gap.join(codes))
    return lines


def render_shape(shape: Shape, mark: str = "#") -> list[str]:
    return [line.replace("#", mark) for line in shape.pattern().split("/")]


def season_bar(used: int, threshold: int) -> str:
    shown = min(used, threshold)
    return BAR_USED * shown + BAR_LEFT * (threshold - shown)


def _shapes_side_by_side(shapes: list[tuple[str, list[str]]]) -> list[str]:
    """Captions above small shape drawings, laid out in columns."""
    widths = [max(len(caption), *(len(line) for line in lines)) for caption, lines in shapes]
    height = max(len(lines) for _, lines in shapes)
    out = ["   ".join(caption.ljust(w) for (caption, _), w in zip(shapes, widths, strict=True))]
    for row in range(height):
        out.append(
            "   ".join(
                (lines[row] if row < len(lines) else "").ljust(w)
                for (_, lines), w in zip(shapes, widths, strict=True)
            ).rstrip()
        )
    return out


def render_card(view: SeatView, lang: str = "en") -> list[str]:
    """The card in play: name, time, the ruins mark, its shapes and terrains."""
    if view.card is None or view.phase is Phase.OVER:
        return [text("text.no_card", lang=lang)]
    found = card(view.card)
    if isinstance(found, AmbushCard):
        target = view.target or ""
        lines = [text("text.card_ambush", {"card": found.id, "target": target}, lang)]
        lines += _shapes_side_by_side(
            [(text("text.shape", {"number": 1, "coin": ""}, lang), render_shape(found.shape))]
        )
        return lines
    explore = EXPLORE_BY_ID[found.id]
    key = "text.card_ruins" if view.ruins else "text.card"
    lines = [text(key, {"card": explore.id, "time": explore.time}, lang)]
    shapes = []
    for index, shape in enumerate(explore.shapes):
        coin = text("text.coin_mark", lang=lang) if index in explore.coin_shapes else ""
        caption = text("text.shape", {"number": index + 1, "coin": coin}, lang)
        shapes.append((caption, render_shape(shape)))
    lines += _shapes_side_by_side(shapes)
    terrains = ", ".join(name("terrain", terrain.value, lang) for terrain in explore.terrains)
    lines.append(text("text.terrains", {"terrains": terrains}, lang))
    return lines


def render_edicts(view: SeatView, lang: str = "en") -> list[str]:
    current = set(view.season.edicts)
    lines = []
    for letter, edict in zip(EDICTS, view.edicts, strict=True):
        now = text("text.edict_now", lang=lang) if letter in current else ""
        lines.append(text("text.edict", {"edict": letter.value, "card": edict, "now": now}, lang))
    return lines


def render_table(
    view: SeatView, map_seat: str | None = None, lang: str = "en", *, legend: bool = True
) -> str:
    """One message: season and bar, the card in play, the edicts, one map and the legend.

    ``map_seat`` picks the map shown (default: the one the viewer draws on — its own, or
    a neighbour's during an ambush — else the first)."""
    seat = map_seat or view.target or view.seat or view.players[0].seat
    player = view.player(seat)
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
    lines = [header, season_bar(view.time_used, view.season.threshold)]
    if view.last_turn_of_season:
        lines.append(text("text.last_turn", lang=lang))
    lines.append("")
    lines += render_card(view, lang)
    lines.append("")
    lines += render_edicts(view, lang)
    lines.append("")
    lines.append(
        text("text.map_of", {"seat": seat, "coins": player.coins, "stars": player.stars}, lang)
    )
    lines += render_map(player.sheet)
    if legend:
        lines.append(text("text.legend", lang=lang))
    if view.waiting_for and len(view.players) > 1:
        lines.append(text("text.waiting", {"seats": ", ".join(view.waiting_for)}, lang))
    return "\n".join(lines)


def render_scores(view: SeatView, seat: str, lang: str = "en") -> list[str]:
    """A player's season-by-season scores, and the final result once the game is over."""
    player = view.player(seat)
    lines = []
    for index, season in enumerate(player.seasons):
        letters = SEASONS[index].edicts
        first, second = (view.edicts[EDICTS.index(letter)] for letter in letters)
        lines.append(
            text(
                "text.season_scores",
                {
                    "season": season.season,
                    "first": first,
                    "first_points": season.edicts[0],
                    "second": second,
                    "second_points": season.edicts[1],
                    "coins": season.coins,
                    "monsters": season.monsters,
                    "total": season.total,
                },
                lang,
            )
        )
    result = view.result
    if result is not None:
        monsters = sum(season.monsters for season in player.seasons)
        lines.append(
            text("text.final", {"seat": seat, "count": player.stars, "monsters": monsters}, lang)
        )
        if result.solo is not None:
            solo = result.solo
            lines.append(
                text(
                    "text.solo_result",
                    {
                        "total": solo.score,
                        "solo": solo.solo_values,
                        "rating": solo.rating,
                        "title": solo.title,
                    },
                    lang,
                )
            )
        else:
            lines.append(winners_text(result.winners, lang))
    return lines
