"""Carcassonne: Star Wars on Discord: ``/carcassonne new`` (the lobby), the public posts of
every turn (the story with every die, then the board and whose turn it is) and the final
scoring, and the active player's private panel (place the tile, then deploy or not).

Controls are persistent components whose custom_id carries ids, not state
(``cc:{table}:{verb}:{turn}`` buttons, ``cx:…`` selects): a click is looked up in the
service, checked for its place (:mod:`cogs.place`) and seat, and the draft is stored, so
old panels keep working after a restart. Only the active seat gets a panel; everyone else
sees the public board. The panel logic is :mod:`bot.games.carcassonne.panel`, the texts
:mod:`bot.games.carcassonne.story`.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.community.server import ServerSettingsStore
from bot.games.base import BOARD, PODIUM, REVEAL
from bot.games.carcassonne import HOST
from bot.games.carcassonne.panel import (
    NOTHING,
    DeployPanel,
    PlacePanel,
    TurnDraft,
    choose,
    deploy_action,
    deploy_panel,
    deploy_png,
    place_action,
    place_panel,
    place_png,
    square_text,
    tile_text,
)
from bot.games.carcassonne.story import (
    final_scoring,
    ranking_lines,
    scores_line,
    seat_name,
    supplies_line,
    turn_story,
)
from bot.images import ImageProcess
from bot.service import (
    TURN_LIMITS,
    Announcement,
    ServiceError,
    Table,
    TableService,
    TableSettings,
)
from bot.text import t
from cogs.announce import Announcer, waiting_ids, waiting_line
from cogs.answers import (
    FollowsUp,
    display_name,
    fail,
    lobby_posted,
    locale_of,
    open_table,
    post_lobby,
    reply,
)
from cogs.games import MESSAGE_LIMIT, AnnouncedFront, Post, is_lobby
from cogs.place import Act, check_place, is_admin
from cogs.race import on_own_panel
from cogs.server_checks import enforce_server_settings, public_locale
from cogs.ui import PanelView
from engine.carcassonne import Phase, SeatView, Size
from engine.carcassonne.render import board_png
from engine.core import public_events
from engine.i18n import base_locale

log = logging.getLogger(__name__)


def lang(locale: str | None) -> str:
    """The engine catalogue's language for a Discord locale (``es-419`` → ``es``)."""
    return base_locale(locale)


BUTTON_TEMPLATE = r"cc:(?P<table>\d{1,18}):(?P<verb>[a-z]{1,12}):(?P<turn>\d{1,6})"
SELECT_TEMPLATE = r"cx:(?P<table>\d{1,18}):(?P<verb>[a-z]{1,12}):(?P<turn>\d{1,6})"
LOBBY_VERBS = frozenset({"join", "leave", "start", "addai", "noai"})
CHOICE_VERBS = frozenset({"spot", "rotate", "page", "where", "size"})
PLAY_VERBS = CHOICE_VERBS | {"play", "place", "confirm"}
LABEL_LIMIT = 80
REQUIRED = ("view_channel", "send_messages")
UNKNOWN_INTERACTION = 10062


def _clip(text: str, limit: int = LABEL_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def custom_id(prefix: str, table: int, verb: str, turn: int) -> str:
    return f"{prefix}:{table}:{verb}:{turn}"


async def _dispatch(
    interaction: discord.Interaction[Any], table: int, verb: str, turn: int, values: list[str]
) -> None:
    cog: CarcassonneCog | None = getattr(interaction.client, "carcassonne", None)
    if cog is not None:
        await cog.on_component(interaction, table, verb, turn, values)


class TileButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """A button of a Carcassonne table; the service decides what a click means now."""

    def __init__(
        self,
        table: int,
        verb: str,
        turn: int,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=_clip(label),
                style=style,
                disabled=disabled,
                custom_id=custom_id("cc", table, verb, turn),
                row=row,
            )
        )
        self.table, self.verb, self.turn = table, verb, turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> TileButton:
        return cls(int(match["table"]), match["verb"], int(match["turn"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.table, self.verb, self.turn, [])


class TileSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A select of a Carcassonne table (spot, where to deploy, meeple size, AI level)."""

    def __init__(
        self,
        table: int,
        verb: str,
        turn: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id("cx", table, verb, turn),
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=_clip(placeholder or "", 150) or None,
                row=row,
            )
        )
        self.table, self.verb, self.turn = table, verb, turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> TileSelect:
        return cls(
            int(match["table"]),
            match["verb"],
            int(match["turn"]),
            options=list(getattr(item, "options", [])),
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.table, self.verb, self.turn, list(self.item.values))


def lobby_view(table: Table, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    tid = table.id
    primary, success = discord.ButtonStyle.primary, discord.ButtonStyle.success
    view.add_item(TileButton(tid, "join", 0, label=t(locale, "lobby.join"), style=primary, row=0))
    view.add_item(TileButton(tid, "leave", 0, label=t(locale, "lobby.leave"), row=0))
    view.add_item(TileButton(tid, "start", 0, label=t(locale, "lobby.start"), style=success, row=0))
    view.add_item(TileButton(tid, "noai", 0, label=t(locale, "lobby.remove_ai"), row=0))
    levels = [
        discord.SelectOption(label=t(locale, f"ai.{level}"), value=level)
        for level in HOST.ai_levels
    ]
    view.add_item(
        TileSelect(tid, "addai", 0, options=levels, placeholder=t(locale, "lobby.add_ai"), row=1)
    )
    return view


def play_button(table: int, turn: int, locale: str | None) -> TileButton:
    return TileButton(
        table, "play", turn, label=t(locale, "carc.play"), style=discord.ButtonStyle.primary
    )


def board_view(table: int, turn: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(play_button(table, turn, locale))
    view.add_item(TileButton(table, "status", turn, label=t(locale, "board.status")))
    return view


def place_view(table: int, turn: int, panel: PlacePanel, locale: str | None) -> discord.ui.View:
    """The spot select (this page's spots), Rotate, More spots, Place."""
    view = PanelView()
    options = [
        discord.SelectOption(
            label=_clip(t(locale, "carc.spot", number=index + 1, at=square_text(square))),
            value=str(index),
            default=index == panel.spot,
        )
        for index, square in panel.page_spots()
    ]
    view.add_item(
        TileSelect(
            table, "spot", turn, options=options, placeholder=t(locale, "carc.pick_spot"), row=0
        )
    )
    view.add_item(
        TileButton(
            table,
            "rotate",
            turn,
            label=t(locale, "carc.rotate"),
            disabled=len(panel.turns) < 2,
            row=1,
        )
    )
    if panel.pages > 1:
        view.add_item(TileButton(table, "page", turn, label=t(locale, "carc.more_spots"), row=1))
    view.add_item(
        TileButton(
            table,
            "place",
            turn,
            label=t(locale, "carc.place"),
            style=discord.ButtonStyle.success,
            row=1,
        )
    )
    return view


def deploy_view(table: int, turn: int, panel: DeployPanel, locale: str | None) -> discord.ui.View:
    """Where (nothing, or a feature), which meeple, Confirm."""
    view = PanelView()
    wheres = [
        discord.SelectOption(
            label=_clip(t(locale, "carc.deploy_nothing")),
            value=NOTHING,
            default=panel.target is None,
        )
    ]
    if panel.sizes:
        wheres += [
            discord.SelectOption(
                label=_clip(label), value=str(index), default=index == panel.target
            )
            for index, label in enumerate(panel.labels[:24])
        ]
    view.add_item(
        TileSelect(
            table, "where", turn, options=wheres, placeholder=t(locale, "carc.pick_where"), row=0
        )
    )
    if panel.sizes:
        sizes = [
            discord.SelectOption(
                label=t(locale, f"carc.size.{size}"), value=size, default=size == panel.size
            )
            for size in panel.sizes
        ]
        view.add_item(
            TileSelect(
                table, "size", turn, options=sizes, placeholder=t(locale, "carc.pick_size"), row=1
            )
        )
    view.add_item(
        TileButton(
            table,
            "confirm",
            turn,
            label=t(locale, "panel.confirm"),
            style=discord.ButtonStyle.success,
            row=2,
        )
    )
    return view


def deployment_text(panel: DeployPanel, locale: str | None) -> str:
    if panel.target is None or not panel.sizes:
        return t(locale, "carc.deploy_nothing")
    return t(
        locale,
        "carc.deploy_choice",
        size=t(locale, f"carc.size.{panel.size}"),
        feature=panel.labels[panel.target],
    )


class CarcassonneCog(
    AnnouncedFront,
    FollowsUp,
    commands.GroupCog,
    group_name=_("carcassonne", key="cmd.carcassonne"),
    group_description=_(
        "Carcassonne: Star Wars: lay tiles, fight for planets", key="cmd.carcassonne.about"
    ),
):
    """Carcassonne tables: the lobby, the active player's panel, the public posts."""

    game = "carcassonne"

    def __init__(
        self,
        bot: commands.AutoShardedBot,
        service: TableService,
        announcer: Announcer,
        images: ImageProcess,
    ) -> None:
        super().__init__()
        self.bot = bot
        self.service = service
        self.announcer = announcer
        self.images = images
        self._background: set[asyncio.Task[None]] = set()

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await fail(interaction, getattr(error, "original", error))

    # ------------------------------------------------------------------ the lobby

    @app_commands.command(
        name=_("new", key="cmd.new"),
        description=_("Open a Carcassonne lobby in this channel", key="cmd.carc.new.about"),
    )
    @app_commands.describe(
        seats=_("How many players (2–5)", key="cmd.carc.seats"),
        team=_("The team variant: 4 players, Rebels against the Empire", key="cmd.carc.team"),
        turn_limit=_("Time for each turn", key="cmd.carc.turn_limit"),
    )
    @app_commands.choices(
        turn_limit=[
            app_commands.Choice(name=_(limit, key=f"limit.{limit}"), value=limit)
            for limit in TURN_LIMITS
        ],
    )
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 2, 5] = 2,
        team: bool = False,
        turn_limit: str = "24h",
    ) -> None:
        missing = [
            perm for perm in REQUIRED if not getattr(interaction.app_permissions, perm, False)
        ]
        if missing:
            await reply(
                interaction,
                t(
                    locale_of(interaction),
                    "error.missing_permissions",
                    permissions=", ".join(missing),
                ),
            )
            return
        if team and seats != 4:
            raise ServiceError("carc.team_needs_four")
        settings = TableSettings(
            seats=seats,
            options={"team": team, "unplaceable": "remove"},
            turn_seconds=TURN_LIMITS.get(turn_limit, TURN_LIMITS["24h"]),
        )
        server = await enforce_server_settings(
            ServerSettingsStore(self.service.storage), interaction, admin=is_admin(interaction)
        )
        locale = public_locale(interaction, server)
        table = await self.service.open_lobby(
            game=self.game,
            host_id=interaction.user.id,
            host_name=display_name(interaction.user),
            settings=settings,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            locale=locale,
        )
        await post_lobby(
            interaction,
            table.id,
            self.lobby_text(table),
            lobby_view(table, locale),
            lambda message_id: self.service.set_channel_message(
                table.id, lobby_message_id=message_id
            ),
        )

    def lobby_text(self, table: Table) -> str:
        locale = table.row.locale
        settings = table.settings
        limit = next(
            (key for key, seconds in TURN_LIMITS.items() if seconds == settings.turn_seconds),
            "none",
        )
        variant = "carc.variant.team" if settings.options.get("team") else "carc.variant.free"
        lines = [
            t(locale, "carc.lobby.header", table=table.id, host=f"<@{table.row.host_id}>"),
            t(
                locale,
                "carc.lobby.settings",
                variant=t(locale, variant),
                limit=t(locale, f"limit.{limit}"),
            ),
            t(locale, "lobby.players", count=len(table.seats), seats=settings.seats),
        ]
        for seat in table.seats:
            who = (
                f"<@{seat.user_id}>"
                if seat.user_id is not None
                else t(
                    locale, "lobby.ai_seat", name=seat.name, level=t(locale, f"ai.{seat.ai_level}")
                )
            )
            lines.append(f"{seat.seat}. {who}")
        if table.status != "lobby":
            lines.append(
                t(locale, "game.lobby_started" if table.status == "running" else "lobby.closed")
            )
        return "\n".join(lines)

    async def refresh_lobby(self, table: Table) -> None:
        channel = self.bot.get_channel(table.row.channel_id or 0)
        if channel is None or table.row.lobby_message_id is None:
            return
        try:
            await channel.get_partial_message(table.row.lobby_message_id).edit(  # type: ignore[union-attr]
                content=self.lobby_text(table),
                view=lobby_view(table, table.row.locale) if table.status == "lobby" else None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("table %d: could not update the lobby", table.id)

    # ------------------------------------------------------------------ components

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        verb: str,
        turn: int,
        values: list[str],
    ) -> None:
        try:
            table = await self.service.table(table_id)
            act = Act.PLAY if verb in PLAY_VERBS else Act.LOOK if verb == "status" else Act.MANAGE
            check_place(table, interaction, act)
            if table.game != self.game:
                raise ServiceError("error.unknown_button")
            if verb in LOBBY_VERBS:
                await self.on_lobby(interaction, table, verb, values)
            elif verb == "status":
                await reply(
                    interaction,
                    await self.status_text(table, locale_of(interaction)),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            elif verb == "play":
                await self.open_panel(interaction, table, turn)
            elif verb in CHOICE_VERBS:
                await self.on_choice(interaction, table, verb, turn, values)
            elif verb == "place":
                await self.place(interaction, table, turn)
            elif verb == "confirm":
                await self.confirm(interaction, table, turn)
            else:
                raise ServiceError("error.unknown_button")
        except Exception as error:
            await fail(interaction, error)

    async def on_lobby(
        self, interaction: discord.Interaction[Any], table: Table, verb: str, values: list[str]
    ) -> None:
        user = interaction.user
        if table.row.lobby_message_id is None:
            await lobby_posted(table.id)
            table = await self.service.table(table.id)
        if verb == "join":
            table = await self.service.join(table.id, user.id, display_name(user))
        elif verb == "leave":
            table = await self.service.leave_lobby(table.id, user.id)
        elif verb == "addai":
            table = await self.service.add_ai(table.id, user.id, values[0] if values else "")
        elif verb == "noai":
            table = await self.service.remove_ai(table.id, user.id)
        else:
            await self.start(interaction, table)
            return
        if is_lobby(interaction.message, table):
            await interaction.response.edit_message(
                content=self.lobby_text(table),
                view=lobby_view(table, table.row.locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        else:
            await reply(
                interaction, self.lobby_text(table), allowed_mentions=discord.AllowedMentions.none()
            )
            await self.refresh_lobby(table)

    def thread_name(self, table: Table, locale: str | None) -> str:
        return t(locale, "carc.thread", table=table.id)

    async def start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        await open_table(
            self,
            interaction,
            table.id,
            lambda started: self.thread_name(started, started.row.locale),
        )
        self.later(self.settle(table.id, moved=False))

    # ------------------------------------------------------------------ the panel

    async def _seat_view(
        self, interaction: discord.Interaction[Any], table: Table, turn: int | None
    ) -> SeatView:
        """The asker's view, once it is sure they are the active seat of this turn."""
        if table.status != "running":
            over = table.status in ("finished", "abandoned")
            raise ServiceError("game.over" if over else "game.not_started")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("error.not_seated")
        _, seen = await self.service.view_for(table.id, interaction.user.id)
        view: SeatView = seen
        if turn is not None and turn != view.turn:
            raise ServiceError("game.stale_turn", turn=view.turn)
        if view.result is not None:
            raise ServiceError("game.over")
        if view.active != seat.seat:
            active = table.seat(view.active)
            name = seat_name(active.seat, table.names, locale_of(interaction))
            raise ServiceError("carc.not_your_turn", name=name)
        return view

    async def _draft(self, table: Table, user_id: int, turn: int) -> TurnDraft:
        return TurnDraft.from_json(await self.service.get_draft(table.id, user_id, turn))

    async def panel_message(
        self, table: Table, view: SeatView, draft: TurnDraft, locale: str, note: str = ""
    ) -> dict[str, Any]:
        """The panel of the step in play: its text, controls and picture."""
        header = t(locale, "carc.panel.header", table=table.id, turn=view.turn)
        lines = [header, t(locale, "carc.tile_set")]
        placing = place_panel(view, draft)
        if placing is not None:
            lines.append(t(locale, "carc.panel.tile", tile=tile_text(placing.tile, locale=locale)))
            lines.append(t(locale, "carc.panel.spots", count=len(placing.squares)))
            lines.append(
                t(
                    locale,
                    "carc.panel.placing",
                    number=placing.spot + 1,
                    at=square_text(placing.square),
                    rotation=placing.turn * 90,
                    tile=tile_text(placing.tile, placing.turn, locale),
                )
            )
            png = await self.images.run(
                place_png, view, placing.placement, placing.squares, lang(locale)
            )
            controls = place_view(table.id, view.turn, placing, locale)
        else:
            deploying = deploy_panel(view, draft, locale)
            if deploying is None:
                raise ServiceError("carc.nothing_to_do")
            lines.append(
                t(
                    locale,
                    "carc.panel.placed",
                    at=square_text(deploying.placed),
                    tile=tile_text(deploying.tile, deploying.rotation, locale),
                )
            )
            supply = view.supply(view.active)
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
            png = await self.images.run(deploy_png, view, lang(locale))
            controls = deploy_view(table.id, view.turn, deploying, locale)
        if note:
            lines.append(note)
        picture = discord.File(io.BytesIO(png), filename=f"carcassonne-{table.id}-{view.turn}.png")
        return {
            "content": "\n".join(lines)[:MESSAGE_LIMIT],
            "view": controls,
            "file": picture,
        }

    async def show_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        view: SeatView,
        draft: TurnDraft,
        note: str = "",
    ) -> None:
        """Answer with the panel: in place on the player's own panel, else a new one."""
        if on_own_panel(interaction):
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        message = await self.panel_message(table, view, draft, locale_of(interaction), note)
        picture = message.pop("file")
        await interaction.edit_original_response(**message, attachments=[picture])

    async def open_panel(
        self, interaction: discord.Interaction[Any], table: Table, turn: int | None = None
    ) -> None:
        view = await self._seat_view(interaction, table, turn)
        draft = await self._draft(table, interaction.user.id, view.turn)
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await self.panel_message(table, view, draft, locale_of(interaction))
        picture = message.pop("file")
        await interaction.edit_original_response(**message, attachments=[picture])

    async def on_choice(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        verb: str,
        turn: int,
        values: list[str],
    ) -> None:
        view = await self._seat_view(interaction, table, turn)
        draft = choose(view, await self._draft(table, interaction.user.id, turn), verb, values)
        await self.service.save_draft(table.id, interaction.user.id, turn, draft.to_json())
        await self.show_panel(interaction, table, view, draft)

    async def place(self, interaction: discord.Interaction[Any], table: Table, turn: int) -> None:
        """Play the placement the panel shows; the panel moves on to the deployment."""
        locale = locale_of(interaction)
        view = await self._seat_view(interaction, table, turn)
        draft = await self._draft(table, interaction.user.id, turn)
        placing = place_panel(view, draft)
        if placing is None:
            raise ServiceError("carc.already_placed")
        await self.service.submit(table.id, interaction.user.id, place_action(view, placing), turn)
        self.later(self.refresh(table.id))  # the placement is stored, answered or not
        _, after = await self.service.view_for(table.id, interaction.user.id)
        note = t(locale, "carc.placed_note", at=square_text(placing.square))
        await self.show_panel(interaction, table, after, TurnDraft(spot=draft.spot), note)

    async def refresh(self, table_id: int) -> None:
        try:
            await self.announcer.refresh_board(table_id)
        except Exception:
            log.exception("table %d: could not refresh the board", table_id)

    async def confirm(self, interaction: discord.Interaction[Any], table: Table, turn: int) -> None:
        locale = locale_of(interaction)
        view = await self._seat_view(interaction, table, turn)
        deploying = deploy_panel(view, await self._draft(table, interaction.user.id, turn), locale)
        if deploying is None:
            raise ServiceError("carc.place_first")
        action = deploy_action(view, deploying)
        await self.service.submit(table.id, interaction.user.id, action, turn)
        try:
            text = t(locale, "carc.done", choice=deployment_text(deploying, locale))
            if on_own_panel(interaction):
                await interaction.response.edit_message(content=text, view=None, attachments=[])
            else:
                await reply(interaction, text)
        finally:
            self.later(self.settle(table.id))  # the turn is stored, answered or not

    # ------------------------------------------------------------------ shared commands

    def title(self, locale: str | None) -> str:
        return t(locale, "game.carcassonne")

    def rules_card(self, locale: str | None) -> str:
        return t(locale, "carc.rules")

    async def status_text(self, table: Table, locale: str | None) -> str:
        if table.status == "lobby":
            return self.lobby_text(table)
        _, view = await self.service.view_for(table.id, None)
        return board_text(table, view, locale, pings=False)

    async def log_chunks(self, table: Table, locale: str | None) -> list[str]:
        chunks = []
        for report in (await self.service.turn_reports(table.id))[-10:]:
            chunks.append(story_text(table, report.turn, report.events, report.view, locale))
        return chunks[-3:]

    # ------------------------------------------------------------------ announcements

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        locale = table.row.locale
        kind = announcement.row.kind
        view: SeatView = announcement.view
        files = []
        if kind == BOARD:
            if self.announcer.can_attach(channel):
                png = await self.images.run(board_png, view, locale=lang(locale))
                files.append(
                    discord.File(io.BytesIO(png), filename=f"map-{table.id}-{view.turn}.png")
                )
            return Post(
                board_text(table, view, locale),
                files,
                board_view(table.id, view.turn, locale),
                pings=waiting_ids(table),
            )
        report = announcement.report
        assert report is not None
        if kind == REVEAL:
            content = story_text(table, report.turn, report.events, report.view, locale)
        elif kind == PODIUM:
            content = podium_text(table, report.events, report.view, locale)
            if self.announcer.can_attach(channel):
                png = await self.images.run(board_png, report.view, locale=lang(locale))
                files.append(discord.File(io.BytesIO(png), filename=f"map-{table.id}-final.png"))
        else:
            content = t(locale, "carc.story.header", table=table.id, turn=report.turn)
        return Post(content, files)

    async def board_content(self, table: Table) -> str | None:
        _, view = await self.service.view_for(table.id, None)
        return board_text(table, view, table.row.locale)

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        locale = table.row.locale
        _, view = await self.service.view_for(table.id, user_id)
        text = t(locale, "carc.dm.turn", table=table.id, turn=view.turn)
        if view.current is not None:
            text += "\n" + t(locale, "carc.panel.tile", tile=tile_text(view.current, locale=locale))
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(play_button(table.id, view.turn, locale))
        return text, buttons


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
        return t(locale, "podium.abandoned", race=table.id)
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


__all__ = [
    "BUTTON_TEMPLATE",
    "SELECT_TEMPLATE",
    "CarcassonneCog",
    "TileButton",
    "TileSelect",
    "board_text",
    "podium_text",
    "story_text",
    "waiting_text",
]
