"""Cartographers' public texts, without Discord: a resolved turn told from its public
events (what each player drew and where, the ambushes the solo scan drew, a season's
scores). A player is named as given (a display name), never mentioned."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.text import t
from engine.cartographers import Phase, SeatView
from engine.cartographers.components import EXPLORE_BY_ID
from engine.cartographers.events import AmbushIgnored, MonsterPlaced, SeasonScored, ShapeDrawn
from engine.cartographers.geometry import label
from engine.cartographers.messages import name
from engine.core import Event
from engine.i18n import base_locale


def _named(seat: str, names: Mapping[str, str]) -> str:
    return names.get(seat, "").strip() or seat


def drawn_line(event: ShapeDrawn, names: Mapping[str, str], locale: str | None) -> str:
    lang = base_locale(locale)
    return t(
        locale,
        "carto.story.drawn" if event.seat == event.map else "carto.story.drawn_on",
        name=_named(event.seat, names),
        map=_named(event.map, names),
        terrain=name("terrain", event.drawing.terrain.value, lang),
        card=name("card", event.card, lang),
        cells=", ".join(label(cell) for cell in event.drawing.cells),
    )


def ambush_line(
    event: MonsterPlaced | AmbushIgnored, names: Mapping[str, str], locale: str | None
) -> str:
    card = name("card", event.card, base_locale(locale))
    if isinstance(event, MonsterPlaced):
        return t(
            locale,
            "carto.ambush.placed",
            card=card,
            name=_named(event.map, names),
            cells=", ".join(event.cells),
        )
    return t(locale, "carto.ambush.ignored", card=card, name=_named(event.map, names))


def score_line(event: SeasonScored, names: Mapping[str, str], locale: str | None) -> str:
    lang = base_locale(locale)
    first, second = event.edicts
    return t(
        locale,
        "carto.season.line",
        name=_named(event.seat, names),
        first=name("card", first, lang),
        first_points=event.score.edicts[0],
        second=name("card", second, lang),
        second_points=event.score.edicts[1],
        coins=event.score.coins,
        monsters=event.score.monsters,
        total=event.score.total,
        stars=event.stars,
    )


def turn_story(events: Sequence[Event], names: Mapping[str, str], locale: str | None) -> list[str]:
    """One line per drawing, ambush and season score of a resolved turn, in order."""
    lines = []
    for event in events:
        if isinstance(event, ShapeDrawn):
            lines.append(drawn_line(event, names, locale))
        elif isinstance(event, (MonsterPlaced, AmbushIgnored)):
            lines.append(ambush_line(event, names, locale))
        elif isinstance(event, SeasonScored):
            lines.append(score_line(event, names, locale))
    return lines


def position_lines(view: SeatView, locale: str | None) -> list[str]:
    """The card in play and the season's edicts."""
    lang = base_locale(locale)
    edicts = ", ".join(
        f"{letter.value} {name('card', edict, lang)}" for letter, edict in view.season_edicts
    )
    lines = []
    if view.card is not None and view.result is None:
        card = name("card", view.card, lang)
        if view.phase is Phase.AMBUSH:
            lines.append(t(locale, "carto.card_ambush", card=card))
        else:
            key = "carto.card_ruins" if view.ruins else "carto.card"
            lines.append(t(locale, key, card=card, time=EXPLORE_BY_ID[view.card].time))
    lines.append(t(locale, "carto.board.edicts", edicts=edicts))
    return lines


__all__ = ["ambush_line", "drawn_line", "position_lines", "score_line", "turn_story"]
