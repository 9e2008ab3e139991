"""Charioteer's public posts: each turn's reveal in a few short lines (the whole story on
demand: its Details button, ``/game log``), the board of the new turn (a header, the
board's picture where the channel allows files, else the track in a code block, then the
players it waits for), and the podium with the final board's picture."""

from __future__ import annotations

import io

import discord

from bot.images import ImageProcess
from bot.service import Table, TurnReport
from bot.text import t
from cogs.front.announce import Post, can_attach, mention, waiting_ids, waiting_line
from cogs.front.answers import MESSAGE_LIMIT
from engine.charioteer import SeatView
from engine.charioteer.render import board_png, board_text, reveal_summary, reveal_text
from engine.charioteer.render.common import chariot_name
from engine.core import public_events


def board_content(table: Table, view: SeatView, locale: str | None, *, pictured: bool) -> str:
    """The board message: its header; the track in a code block unless the board's
    picture goes with it; the waiting players on the last line."""
    loc = locale or "en"
    header = t(locale, "board.header", race=table.id, turn=view.turn)
    status = waiting_line(table, locale)
    if pictured:
        return f"{header}\n{status}"[:MESSAGE_LIMIT]
    text = board_text(view, names=table.names, locale=loc, squares=True)
    content = f"{header}\n{text}\n{status}"
    if len(content) > MESSAGE_LIMIT:
        content = f"{header}\n{text}"
    return content[:MESSAGE_LIMIT]


def status_content(table: Table, view: SeatView, locale: str | None) -> str:
    """``/game status``: the board as text, with who it waits for."""
    return board_content(table, view, locale, pictured=False)


def podium_content(table: Table, view: SeatView, locale: str | None) -> str:
    """The ranking, each player with their chariot's colour (as the picture draws it)."""
    result = view.result
    if result is None:
        return t(locale, "podium.abandoned", name=t(locale, "thread.name", race=table.id))
    lines = [t(locale, "podium.header", race=table.id, turns=result.turns)]
    for place, seat in enumerate(result.ranking, start=1):
        row = table.seat(seat)
        chariot = chariot_name(seat, locale or "en")
        name = mention(row.user_id, row.name)
        lines.append(t(locale, "podium.line", place=place, name=name, chariot=chariot))
    return "\n".join(lines)[:MESSAGE_LIMIT]


def reveal_post(table: Table, report: TurnReport, locale: str | None) -> str:
    """A turn's reveal in short: every chariot's move and distance, in order."""
    summary = reveal_summary(
        public_events(report.events),
        report.view,
        names=table.names,
        locale=locale or "en",
        squares=True,
    )
    header = t(locale, "reveal.header", race=table.id, turn=report.turn)
    return f"{header}\n{summary}"


def reveal_details(table: Table, report: TurnReport, locale: str | None) -> str:
    """A turn's whole story (its Details button, ``/game log``)."""
    story = reveal_text(
        public_events(report.events),
        report.view,
        names=table.names,
        locale=locale or "en",
        titled=False,
        squares=True,
    )
    header = t(locale, "reveal.header", race=table.id, turn=report.turn)
    return f"{header}\n{story}"[:MESSAGE_LIMIT]


async def picture(images: ImageProcess, table: Table, view: SeatView, name: str) -> discord.File:
    png = await images.run(board_png, view, names=table.names, locale=table.row.locale or "en")
    return discord.File(io.BytesIO(png), filename=f"race-{table.id}-{name}.png")


async def board_post(
    images: ImageProcess, channel: object, table: Table, view: SeatView, buttons: discord.ui.View
) -> Post:
    """The board alone as a picture where the bot may attach files, else as text; it
    pings the players it waits for (each once a turn: the turn's only post naming them)."""
    locale = table.row.locale
    pictured = can_attach(channel)
    files = [await picture(images, table, view, f"turn-{view.turn}")] if pictured else []
    content = board_content(table, view, locale, pictured=pictured)
    return Post(content, files, buttons, pings=waiting_ids(table))


async def podium_post(images: ImageProcess, channel: object, table: Table, view: SeatView) -> Post:
    """The ranking and the final board's picture; it pings nobody (no move is owed)."""
    files = []
    if view.result is not None and can_attach(channel):
        files.append(await picture(images, table, view, "final"))
    return Post(podium_content(table, view, table.row.locale), files)


__all__ = [
    "board_content",
    "board_post",
    "podium_content",
    "podium_post",
    "reveal_details",
    "reveal_post",
    "status_content",
]
