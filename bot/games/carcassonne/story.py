"""Carcassonne's public texts, without Discord: the story of a turn (the tile placed, the
meeple deployed, each battle told round by round with every die, what was scored, the
tiles that fit nowhere, the next tile drawn), the final scoring feature by feature, the
ranking and the board post's header. Every event is public (spec §7: only the stack's
order is secret, and no event tells it).

Names: a seat is its player's name and colour, in the reader's language ("alice (red)",
"alice (rojo)"); in the team variant the scores and battles are the teams' (spec §5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.text import t
from engine.carcassonne import FeatureRef, SeatView, Size
from engine.carcassonne.events import (
    BattleLost,
    BattleStarted,
    BattleTied,
    BattleWon,
    DiceRolled,
    FeatureScored,
    MeepleDeployed,
    NothingDeployed,
    TileDrawn,
    TilePlaced,
    TileRemoved,
    TileReturned,
)
from engine.carcassonne.messages import (
    colour_name,
    count_text,
    feature_text,
    kind_name,
    say,
    square_text,
)
from engine.carcassonne.state import EMPIRE, REBELS
from engine.carcassonne.text import DIRECTIONS, tile_words
from engine.core import Event
from engine.i18n import base_locale

TEAMS = (REBELS, EMPIRE)


def seat_name(seat: str, names: Mapping[str, str], locale: str | None) -> str:
    """A seat as its player's name and its colour in the reader's language: "alice (red)"."""
    person = names.get(seat, "").strip()
    colour = colour_name(seat, locale)
    return f"{person} ({colour})" if person and person != seat else colour


def tile_text(tile: str, rotation: int = 0, locale: str | None = None) -> str:
    """A tile the way a player says it, as the terminal game does: "asteroid field,
    north · route, east–west" (turned ``rotation`` quarter turns)."""
    return tile_words(tile, rotation, base_locale(locale))


def unit_name(unit: str, names: Mapping[str, str], locale: str | None) -> str:
    if unit in TEAMS:
        return t(locale, f"carc.team.{unit}")
    return seat_name(unit, names, locale)


def where(ref: FeatureRef, seat_view: SeatView, locale: str | None, form: str) -> str:
    """A feature in words with its article (``form`` "the") or its preposition too
    (``form`` "on"), from the tile placed last (the turn's): "on the trade route
    (north–south)", "the planet (Empire) to the north-west" (the map marks that tile)."""
    board = seat_view.board
    placed = board.at.get(ref.square)
    if placed is None:
        return square_text(ref.square)
    feature = feature_text(placed.tile, ref.feature, placed.rotation, locale, form)
    last = board.tiles[-1].square
    step = (ref.square[0] - last[0], ref.square[1] - last[1])
    if step not in DIRECTIONS:
        return feature
    direction = say(locale, f"direction.{DIRECTIONS[step]}")
    return say(locale, "words.toward", feature=feature, direction=direction)


def dice_text(rolls: Sequence[int]) -> str:
    return " ".join(f"[{die}]" for die in rolls)


def turn_story(
    events: Iterable[Event],
    seat_view: SeatView,
    names: Mapping[str, str],
    locale: str | None,
) -> list[str]:
    """One line per thing that happened in a turn, in order; the scoring at the end of
    the game is left to :func:`final_scoring`.

    The step that ends a turn is the deployment: when its events do not include the
    placement, the placement is read from the map (the tile placed last, since the next
    tile is only drawn)."""
    lines: list[str] = []
    placed = False
    for event in events:
        if isinstance(event, (MeepleDeployed, NothingDeployed)) and not placed:
            last = seat_view.board.tiles[-1]
            event_placed = TilePlaced(event.seat, last.tile, last.x, last.y, last.rotation * 90)
            lines.append(placement_line(event_placed, names, locale))
            placed = True
        if isinstance(event, TilePlaced):
            lines.append(placement_line(event, names, locale))
            placed = True
        elif isinstance(event, MeepleDeployed):
            key, form = "carc.story.deployed", "on"
            if event.attack:
                key, form = "carc.story.attack", "the"
            lines.append(
                t(
                    locale,
                    key,
                    name=seat_name(event.seat, names, locale),
                    size=t(locale, f"carc.size.{event.size.value}"),
                    feature=where(event.at, seat_view, locale, form),
                )
            )
        elif isinstance(event, NothingDeployed):
            lines.append(t(locale, "carc.story.nothing", name=seat_name(event.seat, names, locale)))
        elif isinstance(event, BattleStarted):
            sides = ", ".join(
                t(locale, "carc.story.side", unit=unit_name(unit, names, locale), count=dice)
                for unit, dice in event.sides
            )
            lines.append(
                t(
                    locale,
                    "carc.story.battle",
                    feature=where(event.at, seat_view, locale, "the"),
                    sides=sides,
                )
            )
        elif isinstance(event, DiceRolled):
            rolls = " · ".join(
                f"{unit_name(unit, names, locale)} {dice_text(dice)}" for unit, dice in event.rolls
            )
            lines.append(t(locale, "carc.story.roll", round=event.round, rolls=rolls))
        elif isinstance(event, BattleTied):
            units = ", ".join(unit_name(unit, names, locale) for unit in event.units)
            lines.append(t(locale, "carc.story.tied", units=units))
        elif isinstance(event, BattleLost):
            lines.append(
                t(
                    locale,
                    "carc.story.lost",
                    unit=unit_name(event.unit, names, locale),
                    count=event.points,
                )
            )
        elif isinstance(event, BattleWon):
            lines.append(t(locale, "carc.story.won", unit=unit_name(event.unit, names, locale)))
        elif isinstance(event, FeatureScored) and not event.final:
            lines.append(scored_line(event, seat_view, names, locale))
        elif isinstance(event, TileRemoved):
            lines.append(t(locale, "carc.story.removed", tile=tile_text(event.tile, 0, locale)))
        elif isinstance(event, TileReturned):
            lines.append(t(locale, "carc.story.returned", tile=tile_text(event.tile, 0, locale)))
        elif isinstance(event, TileDrawn):
            lines.append(
                t(
                    locale,
                    "carc.story.drawn",
                    name=seat_name(event.seat, names, locale),
                    tile=tile_text(event.tile, 0, locale),
                    left=event.stack_left,
                )
            )
    return lines


def placement_line(event: TilePlaced, names: Mapping[str, str], locale: str | None) -> str:
    return t(
        locale,
        "carc.story.placed",
        name=seat_name(event.seat, names, locale),
        tile=tile_text(event.tile, event.rotation // 90, locale),
    )


def scored_line(
    event: FeatureScored, seat_view: SeatView, names: Mapping[str, str], locale: str | None
) -> str:
    return t(
        locale,
        "carc.story.scored_final" if event.final else "carc.story.scored",
        kind=kind_name(event.kind, locale),
        completed=t(locale, f"carc.story.completed.{event.kind.value}"),
        unit=unit_name(event.unit, names, locale),
        points=event.points,
        tiles=count_text("tiles", event.tiles, locale),
        symbols=count_text("symbols", event.symbols, locale),
    )


def final_scoring(
    events: Iterable[Event], seat_view: SeatView, names: Mapping[str, str], locale: str | None
) -> list[str]:
    """Every feature scored at the end of the game, one line each."""
    return [
        scored_line(event, seat_view, names, locale)
        for event in events
        if isinstance(event, FeatureScored) and event.final
    ]


def scores_line(seat_view: SeatView, names: Mapping[str, str], locale: str | None) -> str:
    return " · ".join(
        f"{unit_name(unit, names, locale)} {points}"
        for unit, points in zip(seat_view.units, seat_view.scores, strict=True)
    )


def ranking_lines(seat_view: SeatView, names: Mapping[str, str], locale: str | None) -> list[str]:
    """Best first; units sharing a score share a place (written "1." not "1)")."""
    scores = dict(zip(seat_view.units, seat_view.scores, strict=True))
    order = sorted(scores, key=lambda unit: (-scores[unit], seat_view.units.index(unit)))
    lines = []
    for unit in order:
        place = 1 + sum(other > scores[unit] for other in scores.values())
        lines.append(
            t(
                locale,
                "carc.podium.line",
                place=place,
                name=unit_name(unit, names, locale),
                count=scores[unit],
            )
        )
    return lines


def supplies_line(seat_view: SeatView, names: Mapping[str, str], locale: str | None) -> str:
    parts = []
    for seat in seat_view.seats:
        supply = seat_view.supply(seat)
        parts.append(
            t(
                locale,
                "carc.supply",
                name=seat_name(seat, names, locale),
                small=supply[Size.SMALL],
                large=supply[Size.LARGE],
            )
        )
    return " · ".join(parts)


__all__ = [
    "final_scoring",
    "ranking_lines",
    "scored_line",
    "scores_line",
    "seat_name",
    "supplies_line",
    "tile_text",
    "turn_story",
    "unit_name",
]
