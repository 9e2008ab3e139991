"""Cartographers on Discord: ``/cartographers new`` with the game's options, each player's
private drawing panel with its typed-cell form, and the public posts of every turn, season
and the final ranking. The lobby, the panel's plumbing, the error answer and the
announcements are the shared front's (:mod:`cogs.front`); pictures are
:mod:`bot.games.cartographers.pictures`.
"""

from __future__ import annotations

import dataclasses
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.games.base import BOARD, PODIUM, REVEAL
from bot.games.cartographers import SEASON, drawing_action
from bot.games.cartographers.panel import DrawDraft, apply_choice, build_panel
from bot.games.cartographers.pictures import card_png, panel_png, season_png
from bot.service import Announcement, ServiceError, Table, TableSettings, TurnReport
from bot.text import t
from cogs.front.announce import Post, can_attach, player_ids, waiting_ids
from cogs.front.components import MoveForm
from cogs.front.game import Click, GameFront, Keys
from cogs.front.lobby import (
    AWAY_PAUSES_OPTION,
    TIME_BANK_OPTION,
    TURN_LIMIT_CHOICES,
    command_group,
    new_command,
    time_control,
)
from cogs.front.panel import PanelMessage, PanelPicture
from cogs.games.cartographers.panel import (
    CONTROLS,
    cell_form,
    drawing_text,
    panel_content,
    panel_view,
)
from cogs.games.cartographers.posts import (
    ambush_lines,
    board_text,
    card_line,
    lang,
    podium_text,
    score_line,
    season_text,
    status_text,
)
from engine.cartographers import SeatView
from engine.cartographers.events import SeasonScored
from engine.cartographers.geometry import label
from engine.core import public_events

log = logging.getLogger(__name__)

GROUP = command_group("cartographers", "Cartographers: draw the map, score the edicts")
KEYS = Keys.of("cartographers", "carto", open="carto.draw")


class CartographersFront(GameFront, game="cartographers", controls=CONTROLS, keys=KEYS, **GROUP):
    """Cartographers tables: the lobby, the private drawing panel, the public posts."""

    drafts = DrawDraft

    # ------------------------------------------------------------------ the game's words

    def lobby_options(self, table: Table, locale: str | None) -> dict[str, Any]:
        options = table.settings.options
        ambush = t(locale, f"carto.ambush.{options.get('ambush', 'auto')}")
        return {"side": options.get("side", "A"), "ambush": ambush}

    def status_of(self, table: Table, view: Any, locale: str | None) -> str:
        return status_text(table, view, locale)

    def log_entry(self, table: Table, report: TurnReport, locale: str | None) -> str:
        events = public_events(report.events)
        lines = [t(locale, "carto.log.turn", table=table.id, turn=report.turn)]
        lines += ambush_lines(events, table, locale)
        for event in events:
            if isinstance(event, SeasonScored):
                lines.append(score_line(table, event, report.view, locale))
        return "\n".join(lines)

    # ------------------------------------------------------------------ the lobby

    @new_command("Open a Cartographers lobby in this channel", "cmd.carto.new.about")
    @app_commands.describe(
        seats=_("How many players (1–12; 1 is solo)", key="cmd.carto.seats"),
        side=_("Map side A or B", key="cmd.carto.side"),
        ambush=_("Who draws an ambush's monsters", key="cmd.carto.ambush"),
        turn_limit=_("Time to draw each turn", key="cmd.new.turn_limit"),
        time_bank=TIME_BANK_OPTION,
        away_pauses=AWAY_PAUSES_OPTION,
    )
    @app_commands.choices(
        side=[app_commands.Choice(name=side, value=side) for side in ("A", "B")],
        ambush=[
            app_commands.Choice(
                name=_("drawn automatically", key="carto.ambush.auto"), value="auto"
            ),
            app_commands.Choice(
                name=_("each player on a neighbour's map", key="carto.ambush.neighbour"),
                value="neighbour",
            ),
        ],
        turn_limit=TURN_LIMIT_CHOICES,
    )
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 1, 12] = 2,
        side: str = "A",
        ambush: str = "auto",
        turn_limit: str = "24h",
        time_bank: str | None = None,
        away_pauses: bool = False,
    ) -> None:
        await self.open_lobby(
            interaction,
            lambda: TableSettings(
                seats=seats,
                options={"side": side, "ambush": "auto" if seats == 1 else ambush},
                **time_control(turn_limit, time_bank, away_pauses),
            ),
        )

    # ------------------------------------------------------------------ the panel

    async def panel_message(
        self, table: Table, view: SeatView, draft: DrawDraft, locale: str
    ) -> PanelMessage:
        panel = build_panel(view, draft, lang(locale))
        if panel is None:
            raise ServiceError("carto.nothing_to_draw")
        picture = PanelPicture.of(
            f"map-{table.id}-{view.turn}",
            panel_png,
            table,
            view,
            table.names,
            panel.shown,
            panel.cells,
            panel.candidate is not None,
            lang(locale),
        )
        return PanelMessage(
            panel_content(table, view, panel, locale),
            panel_view(table.id, view.turn, panel, locale),
            picture,
        )

    async def choose(self, click: Click) -> None:
        """A choice on the panel (or a typed cell: ``at``), kept as the draft and shown."""
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        shown = build_panel(view, await self.draft(table, click.user_id, click.turn, view))
        if shown is None:
            raise ServiceError("carto.nothing_to_draw")
        draft = apply_choice(shown.draft, click.verb, click.values)
        await self.keep(click, draft)
        locale = click.locale
        await self.show_panel(
            click.interaction, lambda: self.panel_message(table, view, draft, locale)
        )

    async def confirm(self, click: Click) -> None:
        locale = click.locale
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        panel = build_panel(
            view, await self.draft(table, click.user_id, click.turn, view), lang(locale)
        )
        if panel is None:
            raise ServiceError("carto.nothing_to_draw")
        if panel.candidate is None:
            if panel.refusal is None:
                raise ServiceError("carto.panel.nowhere")
            raise ServiceError("carto.not_legal", reason=panel.refusal)
        action = drawing_action(view, panel.placement())
        update = await self.service.submit(table.id, click.user_id, action, click.turn)
        try:
            key = (
                "move.unchanged"
                if not update.stored
                else (
                    "carto.resolved"
                    if update.resolved
                    else "carto.changed"
                    if update.changed_move
                    else "carto.accepted"
                )
            )
            await self.answer_done(
                click.interaction, t(locale, key, move=drawing_text(panel, locale))
            )
        finally:
            self.announcer.settle_later(table.id)  # the drawing is stored, answered or not

    async def form_for(self, click: Click) -> MoveForm:
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        draft = await self.draft(table, click.user_id, click.turn, view)
        current = label(draft.at) if draft.at is not None else ""
        return cell_form(table.id, view.turn, click.locale, current)

    async def typed(self, click: Click) -> None:
        """A typed cell: the drawing moves there."""
        await self.choose(dataclasses.replace(click, verb="at"))

    # ------------------------------------------------------------------ posts

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        locale = table.row.locale
        kind = announcement.row.kind
        view: SeatView = announcement.view
        files = []
        if kind == BOARD:
            if can_attach(channel) and view.card is not None:
                png = await self.images.run(card_png, view.card, view.ruins, lang(locale))
                files.append(
                    discord.File(io.BytesIO(png), filename=f"card-{table.id}-{view.turn}.png")
                )
            buttons = self.board_view(table, view.turn, locale)
            return Post(board_text(table, view), files, buttons, pings=waiting_ids(table))
        report = announcement.report
        assert report is not None
        if kind == REVEAL:
            lines = [t(locale, "carto.log.turn", table=table.id, turn=report.turn)]
            lines += ambush_lines(public_events(report.events), table, locale)
            return Post("\n".join(lines))
        named: list[int | None] = []
        if kind == SEASON:
            content = season_text(table, report.events, report.view, locale)
            named = player_ids(table)
        elif kind == PODIUM:
            content = podium_text(table, report.view, locale)
            named = player_ids(table) if report.view.result is not None else []
        else:
            content = t(locale, "carto.log.turn", table=table.id, turn=report.turn)
        if can_attach(channel):
            png = await self.images.run(season_png, report.view, table.names, lang(locale))
            files.append(
                discord.File(io.BytesIO(png), filename=f"maps-{table.id}-{report.turn}.png")
            )
        return Post(content, files, pings=named)

    async def board_content(self, table: Table, view: Any, channel: Any) -> str | None:
        return board_text(table, view)

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        locale = table.row.locale
        _, view = await self.service.view_for(table.id, user_id)
        text = (
            t(locale, "carto.dm.turn", table=table.id, turn=view.turn)
            + "\n"
            + card_line(view, locale)
        )
        return text, self.notice_view(table.id, view.turn, locale)


__all__ = ["CartographersFront"]
