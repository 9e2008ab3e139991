"""Carcassonne: Star Wars' public texts on Discord: a resolved turn's story (the placement,
the deployment, every battle die, scoring, the next draw), the board post (scores,
meeples, tiles left and whose turn it is) and the final scoring with the ranking. The
sentences themselves are :mod:`bot.games.carcassonne.story`'s."""

from __future__ import annotations

from typing import Any

from bot.games.carcassonne.panel import tile_text
from bot.games.carcassonne.story import (
    final_scoring,
    ranking_lines,
    scores_line,
    seat_name,
    supplies_line,
    turn_story,
)
from bot.service import Table
from bot.text import t
from cogs.front.announce import waiting_line
from cogs.front.answers import MESSAGE_LIMIT
from engine.carcassonne import Phase, SeatView
from engine.core import public_events
from engine.i18n import base_locale


def lang(locale: str | None) -> str:
    """The engine catalogue's language for a Discord locale (``es-419`` → ``es``)."""
    return base_locale(locale)


def story_text(table: Table, turn: int, events: Any, view: SeatView, locale: str | None) -> str:
    """A resolved turn told in order: the placement (from the map: the step that
    announces is the deployment), the deployment, battles, scoring, the next draw."""
    lines = [t(locale, "carc.story.header", table=table.id, turn=turn)]
    lines += turn_story(public_events(events), view, table.names, locale)
    return "\n".join(lines)[:MESSAGE_LIMIT]


def board_text(table: Table, view: SeatView, locale: str | None, *, pings: bool = True) -> str:
    """The turn's post: header, tile set, scores, meeples, tiles left and whose turn it
    is (mentioned, with the time limit, on the post itself)."""
    names = table.names
    lines = [
        t(locale, "carc.board.header", table=table.id, turn=view.turn),
        t(locale, "carc.tile_set"),
        t(locale, "carc.board.scores", scores=scores_line(view, names, locale)),
        t(locale, "carc.board.supplies", supplies=supplies_line(view, names, locale)),
    ]
    if view.result is None:
        if view.phase is Phase.PLACE and view.current is not None:
            lines.append(
                t(
                    locale,
                    "carc.board.to_place",
                    name=seat_name(view.active, names, locale),
                    tile=tile_text(view.current, locale=locale),
                    left=view.stack_size,
                )
            )
        else:
            lines.append(
                t(locale, "carc.board.to_deploy", name=seat_name(view.active, names, locale))
            )
        if pings:
            lines.append(waiting_text(table, view, locale))
    return "\n".join(lines)[:MESSAGE_LIMIT]


def waiting_text(table: Table, view: SeatView, locale: str | None) -> str:
    """Who is to play, from the post's own position: a post delivered after the game
    moved on (AI seats play fast) pings nobody."""
    if table.row.turn != view.turn or table.status != "running":
        return t(locale, "carc.board.moved_on")
    if table.seat(view.active).is_ai:
        name = seat_name(view.active, table.names, locale)
        return t(locale, "carc.board.ai_playing", name=name)
    return waiting_line(table, locale)


def podium_text(table: Table, events: Any, view: SeatView, locale: str | None) -> str:
    """The final scoring feature by feature, then the ranking (cut to fit one post:
    the ranking always shows)."""
    if view.result is None:
        return t(locale, "podium.abandoned", name=t(locale, "carc.thread", table=table.id))
    names = table.names
    head = [t(locale, "carc.podium.header", table=table.id), t(locale, "carc.tile_set")]
    ranking = [t(locale, "carc.podium.ranking"), *ranking_lines(view, names, locale)]
    scored = final_scoring(public_events(events), view, names, locale)
    room = MESSAGE_LIMIT - len("\n".join(head + ranking)) - 80
    shown: list[str] = [t(locale, "carc.podium.final", count=len(scored))]
    for number, line in enumerate(scored):
        if len("\n".join(shown)) + len(line) + 1 > room:
            shown.append(t(locale, "carc.podium.more", count=len(scored) - number))
            break
        shown.append(line)
    if not scored:
        shown = [t(locale, "carc.podium.none")]
    return "\n".join(head + shown + ranking)


__all__ = ["board_text", "lang", "podium_text", "story_text", "waiting_text"]
