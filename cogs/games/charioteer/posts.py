"""Charioteer's public posts: each turn's reveal, the board of the new turn (a header with
the players it waits for, the track in a code block, its picture where the channel allows
files, and a "Choose move" button), and the podium."""

from __future__ import annotations

import io

import discord

from bot.images import ImageProcess
from bot.service import Table, TurnReport
from bot.text import t
from cogs.front.announce import Post, can_attach, mention, player_ids, waiting_ids, waiting_line
from cogs.front.answers import MESSAGE_LIMIT
from engine.charioteer import SeatView
from engine.charioteer.render import board_png, board_text, reveal_text
from engine.core import public_events


def board_content(table: Table, view: SeatView, locale: str | None) -> str:
    """The board message: a header with the waiting players, then the track in a code block."""
    loc = locale or "en"
    header = t(locale, "board.header", race=table.id, turn=view.turn)
    status = waiting_line(table, locale)
    text = board_text(view, names=table.names, locale=loc)
    content = f"{header} · {status}\n{text}"
    if len(content) > MESSAGE_LIMIT:
        content = f"{header}\n{text}"
    return content[:MESSAGE_LIMIT]


def podium_content(table: Table, view: SeatView, locale: str | None) -> str:
    result = view.result
    if result is None:
        return t(locale, "podium.abandoned", name=t(locale, "thread.name", race=table.id))
    lines = [t(locale, "podium.header", race=table.id, turns=result.turns)]
    for place, seat in enumerate(result.ranking, start=1):
        row = table.seat(seat)
        lines.append(
            t(locale, "podium.line", place=place, name=mention(row.user_id, row.name), seat=seat)
        )
    return "\n".join(lines)[:MESSAGE_LIMIT]


def reveal_post(table: Table, report: TurnReport, locale: str | None) -> str:
    """A turn's reveal: every chariot's move, in order."""
    story = reveal_text(
        public_events(report.events), report.view, names=table.names, locale=locale or "en"
    )
    header = t(locale, "reveal.header", race=table.id, turn=report.turn)
    return f"{header}\n{story}"


async def board_post(
    images: ImageProcess, channel: object, table: Table, view: SeatView, buttons: discord.ui.View
) -> Post:
    locale = table.row.locale
    files = []
    if can_attach(channel):
        png = await images.run(board_png, view, names=table.names, locale=locale or "en")
        files.append(
            discord.File(io.BytesIO(png), filename=f"race-{table.id}-turn-{view.turn}.png")
        )
    return Post(board_content(table, view, locale), files, buttons, pings=waiting_ids(table))


def podium_post(table: Table, view: SeatView) -> Post:
    finished = view.result is not None
    return Post(
        podium_content(table, view, table.row.locale),
        pings=player_ids(table) if finished else (),
    )


__all__ = ["board_content", "board_post", "podium_content", "podium_post", "reveal_post"]
