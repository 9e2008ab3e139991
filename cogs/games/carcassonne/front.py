"""Carcassonne: Star Wars on Discord: ``/carcassonne new`` with the game's options, the
active player's private panel (place the tile, then deploy or not), and the public posts
of every turn (the story with every die, then the board and whose turn it is) and the
final scoring. Only the active seat gets a panel; everyone else sees the public board.
The lobby, the panel's plumbing, the error answer and the announcements are the shared
front's (:mod:`cogs.front`).
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.games.base import BOARD, PODIUM
from bot.games.carcassonne import panel as tiles
from bot.games.carcassonne.panel import TurnDraft, tile_text
from bot.games.carcassonne.story import seat_name
from bot.service import Announcement, ServiceError, Table, TableSettings, TurnReport
from bot.storage import SeatRow
from bot.text import t
from cogs.front.announce import Post, can_attach, waiting_ids
from cogs.front.answers import MESSAGE_LIMIT, locale_of
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
from cogs.games.carcassonne.panel import CONTROLS, deploy_view, deployment_text, place_view
from cogs.games.carcassonne.posts import (
    board_post,
    board_text,
    lang,
    podium_post,
    story_text,
    told_lines,
    told_reports,
)
from engine.carcassonne import Phase, SeatView, Size
from engine.carcassonne.messages import colour_name
from engine.carcassonne.render import board_png

log = logging.getLogger(__name__)

GROUP = command_group("carcassonne", "Carcassonne: Star Wars: lay tiles, fight for planets")
KEYS = Keys.of("carcassonne", "carc", open="carc.play")


class CarcassonneFront(GameFront, game="carcassonne", controls=CONTROLS, keys=KEYS, **GROUP):
    """Carcassonne tables: the lobby, the active player's panel (only the active seat gets
    one: everyone else sees the public board), the public posts."""

    drafts = TurnDraft

    # ------------------------------------------------------------------ the game's words

    def seat_label(self, seat: str, locale: str | None) -> str:
        return colour_name(seat, locale)

    def lobby_options(self, table: Table, locale: str | None) -> dict[str, Any]:
        team = table.settings.options.get("team")
        return {"variant": t(locale, "carc.variant.team" if team else "carc.variant.free")}

    def status_of(self, table: Table, view: Any, locale: str | None) -> str:
        return board_text(table, view, locale, pings=False)

    def log_entry(self, table: Table, report: TurnReport, locale: str | None) -> str:
        return story_text(table, report.turn, report.events, report.view, locale)

    # ------------------------------------------------------------------ the lobby

    @new_command("Open a Carcassonne lobby in this channel", "cmd.carc.new.about")
    @app_commands.describe(
        seats=_("How many players (2–5)", key="cmd.carc.seats"),
        team=_("The team variant: 4 players, Rebels against the Empire", key="cmd.carc.team"),
        turn_limit=_("Time for each turn", key="cmd.carc.turn_limit"),
        time_bank=TIME_BANK_OPTION,
        away_pauses=AWAY_PAUSES_OPTION,
    )
    @app_commands.choices(turn_limit=TURN_LIMIT_CHOICES)
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 2, 5] = 2,
        team: bool = False,
        turn_limit: str = "24h",
        time_bank: str | None = None,
        away_pauses: bool = False,
    ) -> None:
        def settings() -> TableSettings:
            if team and seats != 4:
                raise ServiceError("carc.team_needs_four")
            return TableSettings(
                seats=seats,
                options={"team": team, "unplaceable": "remove"},
                **time_control(turn_limit, time_bank, away_pauses),
            )

        await self.open_lobby(interaction, settings)

    # ------------------------------------------------------------------ the panel

    def check_seat(
        self, interaction: discord.Interaction[Any], table: Table, seat: SeatRow, view: Any
    ) -> None:
        """Only the active seat of a game still on plays."""
        if view.result is not None:
            raise ServiceError("game.over")
        if view.active != seat.seat:
            name = seat_name(view.active, table.names, locale_of(interaction))
            raise ServiceError("carc.not_your_turn", name=name)

    async def panel_message(
        self, table: Table, view: SeatView, draft: TurnDraft, locale: str, note: str = ""
    ) -> PanelMessage:
        """The panel of the step in play: its text, controls and picture."""
        header = t(locale, "carc.panel.header", table=table.id, turn=view.turn)
        lines = [header]
        placing = tiles.place_panel(view, draft)
        if placing is not None:
            lines.append(t(locale, "carc.panel.tile", tile=tile_text(placing.tile, locale=locale)))
            lines.append(t(locale, "carc.panel.spots", count=len(placing.squares)))
            lines.append(
                t(
                    locale,
                    "carc.panel.placing",
                    number=placing.spot + 1,
                    rotation=placing.turn * 90,
                    tile=tile_text(placing.tile, placing.turn, locale),
                )
            )
            picture = PanelPicture.of(
                f"carcassonne-{table.id}-{view.turn}",
                tiles.place_png,
                table,
                view,
                placing.placement,
                placing.squares,
                lang(locale),
                table.names,
            )
            controls = place_view(table.id, view.turn, placing, locale)
        else:
            deploying = tiles.deploy_panel(view, draft, locale)
            if deploying is None:
                raise ServiceError("carc.nothing_to_do")
            lines.append(
                t(
                    locale,
                    "carc.panel.placed",
                    tile=tile_text(deploying.tile, deploying.rotation, locale),
                )
            )
            supply = view.supply(view.active)  # the same with the tile placed or in hand
            lines.append(
                t(
                    locale,
                    "carc.panel.supply",
                    small=supply[Size.SMALL],
                    large=supply[Size.LARGE],
                )
            )
            if not deploying.sizes:
                lines.append(t(locale, "carc.panel.no_meeples"))
            lines.append(
                t(locale, "carc.panel.deploying", choice=deployment_text(deploying, locale))
            )
            picture = PanelPicture.of(
                f"carcassonne-{table.id}-{view.turn}",
                tiles.deploy_png,
                table,
                view,
                lang(locale),
                table.names,
                tiles.draft_placement(view, draft),
            )
            undo = view.phase is Phase.PLACE  # placed in the draft only: not played yet
            controls = deploy_view(table.id, view.turn, deploying, locale, undo=undo)
        if note:
            lines.append(note)
        return PanelMessage("\n".join(lines)[:MESSAGE_LIMIT], controls, picture)

    async def choose(self, click: Click) -> None:
        """A choice on the panel; Place keeps the placement it shows in the draft (Confirm
        plays it), Undo takes it back."""
        if click.verb == "place":
            await self.place(click)
            return
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        draft = await self.draft(table, click.user_id, click.turn, view)
        draft = tiles.choose(view, draft, click.verb, click.values)
        await self.keep(click, draft)
        locale = click.locale
        note = t(locale, "console.carc.taken_back") if click.verb == "undo" else ""
        await self.show_panel(
            click.interaction, lambda: self.panel_message(table, view, draft, locale, note)
        )

    async def place(self, click: Click) -> None:
        """Place the tile as the panel shows it, in the draft: the panel moves on to the
        deployment, with Undo; nothing is played before Confirm."""
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        draft = tiles.placed(view, await self.draft(table, click.user_id, click.turn, view))
        await self.keep(click, draft)
        note = t(click.locale, "carc.placed_note")
        await self.show_panel(
            click.interaction, lambda: self.panel_message(table, view, draft, click.locale, note)
        )

    async def confirm(self, click: Click) -> None:
        """Play the turn: the placement (unless stored already), then the deployment."""
        locale = click.locale
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        draft = await self.draft(table, click.user_id, click.turn, view)
        deploying = tiles.deploy_panel(view, draft, locale)
        actions = tiles.turn_actions(view, draft, deploying)
        assert deploying is not None  # turn_actions refuses a turn not placed
        await self.service.submit_all(table.id, click.user_id, actions, click.turn)
        try:
            done = t(locale, "carc.done", choice=deployment_text(deploying, locale))
            await self.answer_done(click.interaction, done)
        finally:
            self.announcer.settle_later(table.id)  # the turn is stored, answered or not

    # ------------------------------------------------------------------ posts

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        locale = table.row.locale
        kind = announcement.row.kind
        view: SeatView = announcement.view
        files = []
        if kind == BOARD:
            if can_attach(channel):
                png = await self.images.run(board_png, view, names=table.names, locale=lang(locale))
                files.append(
                    discord.File(io.BytesIO(png), filename=f"map-{table.id}-{view.turn}.png")
                )
            lead, content = board_post(table, view, locale, await self.told(table, view.turn))
            return Post(
                content,
                files,
                self.board_view(table, view.turn, locale),
                pings=waiting_ids(table),
                lead=lead,
            )
        report = announcement.report
        assert report is not None
        if kind == PODIUM:
            story = await self.told(table, report.turn + 1)
            lead, content = podium_post(table, report.events, report.view, locale, story)
            if can_attach(channel):
                png = await self.images.run(
                    board_png, report.view, names=table.names, locale=lang(locale)
                )
                files.append(discord.File(io.BytesIO(png), filename=f"map-{table.id}-final.png"))
            return Post(content, files, lead=lead)
        # A turn's story posted on its own (announced before a turn became one post).
        return Post(story_text(table, report.turn, report.events, report.view, locale))

    async def told(self, table: Table, turn: int) -> list[str]:
        """The story lines a post of ``turn`` tells: the turns since the last post."""
        reports = await self.service.recent_reports(table.id)
        return told_lines(table, told_reports(table, reports, turn), table.row.locale)

    async def board_content(self, table: Table, view: Any, channel: Any) -> str | None:
        return board_post(table, view, table.row.locale, await self.told(table, view.turn))[1]

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        locale = table.row.locale
        _, view = await self.service.view_for(table.id, user_id)
        text = t(locale, "carc.dm.turn", table=table.id, turn=view.turn)
        if view.current is not None:
            text += "\n" + t(locale, "carc.panel.tile", tile=tile_text(view.current, locale=locale))
        return text, self.notice_view(table.id, view.turn, locale)


__all__ = ["CarcassonneFront"]
