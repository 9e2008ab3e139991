"""Carcassonne: Star Wars' public texts on Discord: the one post of a turn (the turns played
since the last post told in order: placement, deployment, every battle die, scoring; then
scores, meeples, tiles left and whose turn it is, pinged), the final post (the last turns,
the final scoring and the ranking), and a resolved turn's story for the game's log. A turn
whose story does not fit one message gives its story a message of its own before the
post (:func:`split`). The sentences themselves are :mod:`bot.games.carcassonne.story`'s."""

from __future__ import annotations

from collections.abc import Sequence
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
from bot.service import Table, TurnReport
from bot.text import t
from cogs.front.announce import waiting_line
from cogs.front.answers import MESSAGE_LIMIT
from engine.carcassonne import Phase, SeatView
from engine.carcassonne.events import MeepleDeployed, NothingDeployed, TileDrawn, TilePlaced
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


def turn_seat(report: TurnReport) -> str | None:
    """The seat that played the turn ``report`` ends."""
    for event in report.events:
        if isinstance(event, (TilePlaced, MeepleDeployed, NothingDeployed)):
            return event.seat
    return None


def told_reports(table: Table, reports: Sequence[TurnReport], turn: int) -> list[TurnReport]:
    """The turns a post of ``turn`` tells: those since the last post, which was the board
    of the last human seat's turn (an AI seat's board is never posted: it has played
    before the post goes out), so that turn and the AI turns after it."""
    earlier = sorted((r for r in reports if r.turn < turn), key=lambda r: r.turn)
    told: list[TurnReport] = []
    for report in reversed(earlier):
        told.insert(0, report)
        seat = turn_seat(report)
        if seat is None or not table.seat(seat).is_ai:
            break
    return told


def told_lines(table: Table, reports: Sequence[TurnReport], locale: str | None) -> list[str]:
    """The told turns' stories, one line per thing that happened (the next tile drawn is
    left out: the post says which tile comes next)."""
    lines: list[str] = []
    for report in reports:
        events = [e for e in public_events(report.events) if not isinstance(e, TileDrawn)]
        lines += turn_story(events, report.view, table.names, locale)
    return lines


def split(head: Sequence[str], story: Sequence[str], tail: Sequence[str]) -> tuple[list[str], str]:
    """A post as one message when it fits; else its story in messages of its own first
    (``lead``), then the post with its head and tail."""
    whole = "\n".join([*head, *story, *tail])
    if len(whole) <= MESSAGE_LIMIT:
        return [], whole
    lead: list[str] = []
    chunk: list[str] = []
    for line in story:
        if chunk and len("\n".join([*chunk, line])) > MESSAGE_LIMIT:
            lead.append("\n".join(chunk))
            chunk = []
        chunk.append(line[:MESSAGE_LIMIT])
    if chunk:
        lead.append("\n".join(chunk))
    return lead, "\n".join([*head, *tail])[:MESSAGE_LIMIT]


def board_post(
    table: Table,
    view: SeatView,
    locale: str | None,
    story: Sequence[str] = (),
    *,
    pings: bool = True,
) -> tuple[list[str], str]:
    """The turn's post: header, the turns told since the last post, scores, meeples, the
    tile to place and the stack left, and whose turn it is (mentioned, with the time
    limit, on the post itself); with the messages its story takes before it, if any."""
    names = table.names
    head = [t(locale, "carc.board.header", table=table.id, turn=view.turn)]
    tail = [
        t(locale, "carc.board.scores", scores=scores_line(view, names, locale)),
        t(locale, "carc.board.supplies", supplies=supplies_line(view, names, locale)),
    ]
    if view.result is None:
        if view.phase is Phase.PLACE and view.current is not None:
            tail.append(
                t(
                    locale,
                    "carc.board.to_place",
                    name=seat_name(view.active, names, locale),
                    tile=tile_text(view.current, 0, locale),
                    left=view.stack_size,
                )
            )
        else:
            tail.append(
                t(locale, "carc.board.to_deploy", name=seat_name(view.active, names, locale))
            )
        if pings:
            tail.append(waiting_text(table, view, locale))
    return split(head, story, tail)


def board_text(table: Table, view: SeatView, locale: str | None, *, pings: bool = True) -> str:
    """Where the game stands, without the turns told: the status and a post's shape."""
    return board_post(table, view, locale, pings=pings)[1]


def waiting_text(table: Table, view: SeatView, locale: str | None) -> str:
    """Who is to play, from the post's own position: a post delivered after the game
    moved on (AI seats play fast) pings nobody."""
    if table.row.turn != view.turn or table.status != "running":
        return t(locale, "carc.board.moved_on")
    if table.seat(view.active).is_ai:
        name = seat_name(view.active, table.names, locale)
        return t(locale, "carc.board.ai_playing", name=name)
    return waiting_line(table, locale)


def podium_post(
    table: Table, events: Any, view: SeatView, locale: str | None, story: Sequence[str] = ()
) -> tuple[list[str], str]:
    """The final post: the tile set's note, the last turns told, the final scoring feature
    by feature (cut to fit: the ranking always shows) and the ranking; with the
    messages the last turns take before it when they do not fit with the rest."""
    if view.result is None:
        return [], t(locale, "podium.abandoned", name=t(locale, "carc.thread", table=table.id))
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
    return split(head, story, shown + ranking)


def podium_text(table: Table, events: Any, view: SeatView, locale: str | None) -> str:
    """The final post without the last turns told."""
    return podium_post(table, events, view, locale)[1]


__all__ = [
    "board_post",
    "board_text",
    "lang",
    "podium_post",
    "podium_text",
    "split",
    "story_text",
    "told_lines",
    "told_reports",
    "turn_seat",
    "waiting_text",
]
