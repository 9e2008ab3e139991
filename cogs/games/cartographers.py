"""Cartographers on Discord: ``/cartographers new`` (the lobby), the public posts of every
turn, season and the final ranking, and each player's private drawing panel.

Controls are persistent components whose custom_id carries ids, not state
(``cg:{table}:{verb}:{turn}`` buttons, ``cs:…`` selects, ``cm:…`` the typed-cell form);
a click is looked up in the service, checked for its place (:mod:`cogs.place`) and seat,
and the draft is stored, so old panels keep working after a restart. The panel logic is
:mod:`bot.games.cartographers.panel`; pictures are :mod:`bot.games.cartographers.pictures`.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.community.server import ServerSettingsStore
from bot.games.base import BOARD, PODIUM, REVEAL
from bot.games.cartographers import HOST, SEASON, drawing_action
from bot.games.cartographers.panel import (
    DrawDraft,
    DrawPanel,
    Option,
    apply_choice,
    build_panel,
    column_options,
    row_options,
)
from bot.games.cartographers.pictures import card_png, panel_png, season_png
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
from cogs.announce import Announcer, mention, player_ids, waiting_ids, waiting_line
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
from engine.cartographers import Phase, SeatView
from engine.cartographers.components import EDICTS, EXPLORE_BY_ID
from engine.cartographers.events import AmbushIgnored, MonsterPlaced, SeasonScored
from engine.cartographers.geometry import label
from engine.cartographers.messages import name
from engine.core import public_events
from engine.i18n import base_locale

log = logging.getLogger(__name__)

BUTTON_TEMPLATE = r"cg:(?P<table>\d{1,18}):(?P<verb>[a-z]{1,12}):(?P<turn>\d{1,6})"
SELECT_TEMPLATE = r"cs:(?P<table>\d{1,18}):(?P<verb>[a-z]{1,12}):(?P<turn>\d{1,6})"
MODAL_PATTERN = re.compile(r"cm:(?P<table>\d{1,18}):(?P<verb>[a-z]{1,12}):(?P<turn>\d{1,6})")
CELL_FIELD = "cell"
LOBBY_VERBS = frozenset({"join", "leave", "start", "addai", "noai"})
PANEL_VERBS = frozenset({"terrain", "shape", "rotate", "flip", "row", "col", "suggest"})
PLAY_VERBS = PANEL_VERBS | {"draw", "confirm", "type"}
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
    cog: CartographersCog | None = getattr(interaction.client, "cartographers", None)
    if cog is not None:
        await cog.on_component(interaction, table, verb, turn, values)


class MapButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """A button of a Cartographers table; the service decides what a click means now."""

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
                custom_id=custom_id("cg", table, verb, turn),
                row=row,
            )
        )
        self.table, self.verb, self.turn = table, verb, turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> MapButton:
        return cls(int(match["table"]), match["verb"], int(match["turn"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.table, self.verb, self.turn, [])


class MapSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A select of a Cartographers table (terrain, shape, row, column, AI level)."""

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
                custom_id=custom_id("cs", table, verb, turn),
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
        match: re.Match[str],
    ) -> MapSelect:
        return cls(
            int(match["table"]),
            match["verb"],
            int(match["turn"]),
            options=list(getattr(item, "options", [])),
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.table, self.verb, self.turn, list(self.item.values))


class CellModal(discord.ui.Modal):
    """ "Type a cell": one text field (``C4``). Its submission is read by the bot's
    interaction listener, so it works after a restart."""

    def __init__(self, table: int, turn: int, locale: str | None, current: str) -> None:
        super().__init__(
            title=_clip(t(locale, "carto.modal.title"), 45),
            custom_id=custom_id("cm", table, "cell", turn),
            timeout=None,
        )
        self.add_item(
            discord.ui.TextInput(
                label=_clip(t(locale, "carto.modal.label"), 45),
                placeholder=_clip(t(locale, "carto.modal.placeholder"), 100),
                default=current or None,
                custom_id=CELL_FIELD,
                max_length=8,
            )
        )


def typed_cell(data: Any) -> str:
    """The text of the cell field, wherever the submission nests it."""
    pending = [data]
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, dict):
            if node.get("custom_id") == CELL_FIELD and "value" in node:
                return str(node["value"])
            pending.extend(node.get(key) for key in ("components", "component") if key in node)
    return ""


def _options(options: tuple[Option, ...]) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=_clip(o.label), value=o.value, default=o.selected)
        for o in options[:25]
    ]


def lobby_view(table: Table, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    tid = table.id
    primary, success = discord.ButtonStyle.primary, discord.ButtonStyle.success
    view.add_item(MapButton(tid, "join", 0, label=t(locale, "lobby.join"), style=primary, row=0))
    view.add_item(MapButton(tid, "leave", 0, label=t(locale, "lobby.leave"), row=0))
    view.add_item(MapButton(tid, "start", 0, label=t(locale, "lobby.start"), style=success, row=0))
    view.add_item(MapButton(tid, "noai", 0, label=t(locale, "lobby.remove_ai"), row=0))
    levels = [
        discord.SelectOption(label=t(locale, f"ai.{level}"), value=level)
        for level in HOST.ai_levels
    ]
    view.add_item(
        MapSelect(tid, "addai", 0, options=levels, placeholder=t(locale, "lobby.add_ai"), row=1)
    )
    return view


def board_view(table: int, turn: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        MapButton(
            table, "draw", turn, label=t(locale, "carto.draw"), style=discord.ButtonStyle.primary
        )
    )
    view.add_item(MapButton(table, "status", turn, label=t(locale, "board.status")))
    return view


def panel_view(table: int, turn: int, panel: DrawPanel, locale: str | None) -> discord.ui.View:
    """Terrain, shape, row and column selects; rotate, flip, type a cell, Confirm."""
    view = PanelView()
    draft = panel.draft
    selects = (
        ("terrain", panel.terrains, "carto.pick_terrain"),
        ("shape", panel.shapes, "carto.pick_shape"),
        ("row", row_options(draft.row), "carto.pick_row"),
        ("col", column_options(draft.col), "carto.pick_col"),
    )
    for number, (verb, options, key) in enumerate(selects):
        view.add_item(
            MapSelect(
                table, verb, turn, options=_options(options), placeholder=t(locale, key), row=number
            )
        )
    turnable = not panel.fallback_only
    view.add_item(
        MapButton(
            table, "rotate", turn, label=t(locale, "carto.rotate"), disabled=not turnable, row=4
        )
    )
    view.add_item(
        MapButton(table, "flip", turn, label=t(locale, "carto.flip"), disabled=not turnable, row=4)
    )
    view.add_item(MapButton(table, "type", turn, label=t(locale, "carto.type"), row=4))
    view.add_item(MapButton(table, "suggest", turn, label=t(locale, "carto.suggest"), row=4))
    view.add_item(
        MapButton(
            table,
            "confirm",
            turn,
            label=t(locale, "panel.confirm"),
            style=discord.ButtonStyle.success,
            disabled=not panel.can_confirm,
            row=4,
        )
    )
    return view


def lang(locale: str | None) -> str:
    """The engine catalogue's language for a Discord locale (``es-419`` → ``es``)."""
    return base_locale(locale)


def season_edicts(view: SeatView, locale: str | None) -> str:
    return ", ".join(
        f"{letter.value} {name('card', view.edicts[EDICTS.index(letter)], lang(locale))}"
        for letter in view.season.edicts
    )


def card_line(view: SeatView, locale: str | None) -> str:
    if view.card is None:
        return ""
    if view.phase is Phase.AMBUSH:
        return t(locale, "carto.card_ambush", card=name("card", view.card, lang(locale)))
    key = "carto.card_ruins" if view.ruins else "carto.card"
    return t(
        locale, key, card=name("card", view.card, lang(locale)), time=EXPLORE_BY_ID[view.card].time
    )


def drawing_text(panel: DrawPanel, locale: str | None) -> str:
    draft = panel.draft
    shape = "1×1" if draft.fallback else str((draft.shape or 0) + 1)
    at = label(draft.at) if draft.at is not None else "?"
    turned = t(locale, "carto.turned", rotation=draft.rotation) if draft.rotation else ""
    flipped = t(locale, "carto.flipped") if draft.flip else ""
    return t(
        locale,
        "carto.drawing",
        terrain=name("terrain", draft.terrain or "", lang(locale)),
        shape=shape,
        turned=turned,
        flipped=flipped,
        at=at,
    )


def panel_content(table: Table, view: SeatView, panel: DrawPanel, locale: str | None) -> str:
    names = table.names
    lines = [t(locale, "carto.panel.header", table=table.id, turn=view.turn)]
    lines.append(card_line(view, locale))
    if panel.ambush:
        lines.append(t(locale, "carto.panel.ambush", name=names.get(panel.target, panel.target)))
    if panel.fallback_only:
        lines.append(
            t(locale, "carto.panel.fallback_ruins" if panel.ruins else "carto.panel.fallback")
        )
    elif panel.ruins:
        lines.append(t(locale, "carto.panel.ruins"))
    lines.append(drawing_text(panel, locale))
    if panel.candidate is not None:
        stars = ", ".join(
            t(
                locale,
                "carto.panel.stars",
                edict=name("card", edict, lang(locale)),
                stars=f"{gained:+d}",
            )
            for edict, gained in panel.stars
        )
        lines.append(t(locale, "carto.panel.legal", coins=panel.coins, stars=stars))
        if panel.proposed:
            lines.append(t(locale, "carto.panel.proposed"))
    elif panel.nowhere:
        lines.append(t(locale, "carto.panel.nowhere"))
    elif panel.refusal is not None:
        lines.append(t(locale, "carto.panel.illegal", reason=panel.refusal))
    if panel.committed is not None:
        lines.append(t(locale, "carto.panel.chosen"))
    return "\n".join(line for line in lines if line)[:MESSAGE_LIMIT]


class CartographersCog(
    AnnouncedFront,
    FollowsUp,
    commands.GroupCog,
    group_name=_("cartographers", key="cmd.cartographers"),
    group_description=_(
        "Cartographers: draw the map, score the edicts", key="cmd.cartographers.about"
    ),
):
    """Cartographers tables: the lobby, the private drawing panel, the public posts."""

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

    game = "cartographers"

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await fail(interaction, getattr(error, "original", error))

    # ------------------------------------------------------------------ the lobby

    @app_commands.command(
        name=_("new", key="cmd.new"),
        description=_("Open a Cartographers lobby in this channel", key="cmd.carto.new.about"),
    )
    @app_commands.describe(
        seats=_("How many players (1–12; 1 is solo)", key="cmd.carto.seats"),
        side=_("Map side A or B", key="cmd.carto.side"),
        ambush=_("Who draws an ambush's monsters", key="cmd.carto.ambush"),
        turn_limit=_("Time to draw each turn", key="cmd.new.turn_limit"),
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
        turn_limit=[
            app_commands.Choice(name=_(limit, key=f"limit.{limit}"), value=limit)
            for limit in TURN_LIMITS
        ],
    )
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 1, 12] = 2,
        side: str = "A",
        ambush: str = "auto",
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
        settings = TableSettings(
            seats=seats,
            options={"side": side, "ambush": "auto" if seats == 1 else ambush},
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
        lines = [
            t(locale, "carto.lobby.header", table=table.id, host=f"<@{table.row.host_id}>"),
            t(
                locale,
                "carto.lobby.settings",
                side=settings.options.get("side", "A"),
                ambush=t(locale, f"carto.ambush.{settings.options.get('ambush', 'auto')}"),
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
            elif verb == "draw":
                await self.open_panel(interaction, table, turn)
            elif verb in PANEL_VERBS:
                await self.on_panel(interaction, table, verb, turn, values)
            elif verb == "confirm":
                await self.confirm(interaction, table, turn)
            elif verb == "type":
                await self.open_modal(interaction, table, turn)
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
        return t(locale, "carto.thread", table=table.id)

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
        if table.status != "running":
            over = table.status in ("finished", "abandoned")
            raise ServiceError("game.over" if over else "game.not_started")
        if table.seat_of(interaction.user.id) is None:
            raise ServiceError("error.not_seated")
        _, seen = await self.service.view_for(table.id, interaction.user.id)
        view: SeatView = seen
        if turn is not None and turn != view.turn:
            raise ServiceError("game.stale_turn", turn=view.turn)
        return view

    async def _draft(self, table: Table, user_id: int, turn: int) -> DrawDraft:
        return DrawDraft.from_json(await self.service.get_draft(table.id, user_id, turn))

    async def panel_message(
        self, table: Table, view: SeatView, draft: DrawDraft, locale: str
    ) -> dict[str, Any]:
        panel = build_panel(view, draft, lang(locale))
        if panel is None:
            raise ServiceError("carto.nothing_to_draw")
        png = await self.images.run(
            panel_png,
            view,
            table.names,
            panel.shown,
            panel.cells,
            panel.candidate is not None,
            lang(locale),
        )
        picture = discord.File(io.BytesIO(png), filename=f"map-{table.id}-{view.turn}.png")
        return {
            "content": panel_content(table, view, panel, locale),
            "view": panel_view(table.id, view.turn, panel, locale),
            "file": picture,
        }

    async def open_panel(
        self, interaction: discord.Interaction[Any], table: Table, turn: int | None = None
    ) -> None:
        view = await self._seat_view(interaction, table, turn)
        await interaction.response.defer(ephemeral=True, thinking=True)
        draft = await self._draft(table, interaction.user.id, view.turn)
        message = await self.panel_message(table, view, draft, locale_of(interaction))
        picture = message.pop("file")
        await interaction.edit_original_response(**message, attachments=[picture])

    async def on_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        verb: str,
        turn: int,
        values: list[str],
    ) -> None:
        view = await self._seat_view(interaction, table, turn)
        draft = await self._draft(table, interaction.user.id, turn)
        shown = build_panel(view, draft)
        if shown is None:
            raise ServiceError("carto.nothing_to_draw")
        draft = apply_choice(shown.draft, verb, values)
        await self.edit_panel(interaction, table, view, draft)

    async def edit_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        view: SeatView,
        draft: DrawDraft,
    ) -> None:
        await self.service.save_draft(table.id, interaction.user.id, view.turn, draft.to_json())
        if on_own_panel(interaction):
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        message = await self.panel_message(table, view, draft, locale_of(interaction))
        picture = message.pop("file")
        await interaction.edit_original_response(**message, attachments=[picture])

    async def confirm(self, interaction: discord.Interaction[Any], table: Table, turn: int) -> None:
        locale = locale_of(interaction)
        view = await self._seat_view(interaction, table, turn)
        panel = build_panel(view, await self._draft(table, interaction.user.id, turn), lang(locale))
        if panel is None:
            raise ServiceError("carto.nothing_to_draw")
        if panel.candidate is None:
            if panel.refusal is None:
                raise ServiceError("carto.panel.nowhere")
            raise ServiceError("carto.not_legal", reason=panel.refusal)
        action = drawing_action(view, panel.placement())
        update = await self.service.submit(table.id, interaction.user.id, action, turn)
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
            text = t(locale, key, move=drawing_text(panel, locale))
            if on_own_panel(interaction):
                await interaction.response.edit_message(content=text, view=None, attachments=[])
            else:
                await reply(interaction, text)
        finally:
            self.later(self.settle(table.id))  # the drawing is stored, answered or not

    async def open_modal(
        self, interaction: discord.Interaction[Any], table: Table, turn: int
    ) -> None:
        view = await self._seat_view(interaction, table, turn)
        draft = await self._draft(table, interaction.user.id, turn)
        current = label(draft.at) if draft.at is not None else ""
        await interaction.response.send_modal(
            CellModal(table.id, view.turn, locale_of(interaction), current)
        )

    async def on_modal(self, interaction: discord.Interaction[Any]) -> None:
        """A typed cell (also after a restart: nothing is kept in memory)."""
        data: Any = interaction.data or {}
        match = MODAL_PATTERN.fullmatch(str(data.get("custom_id", "")))
        try:
            if match is None:
                raise ServiceError("error.unknown_button")
            table = await self.service.table(int(match["table"]))
            check_place(table, interaction, Act.PLAY)
            if table.game != self.game:
                raise ServiceError("error.unknown_button")
            turn = int(match["turn"])
            view = await self._seat_view(interaction, table, turn)
            shown = build_panel(view, await self._draft(table, interaction.user.id, turn))
            if shown is None:
                raise ServiceError("carto.nothing_to_draw")
            draft = apply_choice(shown.draft, "at", [typed_cell(data.get("components", []))])
            await self.edit_panel(interaction, table, view, draft)
        except Exception as error:
            await fail(interaction, error)

    # ------------------------------------------------------------------ shared commands

    def title(self, locale: str | None) -> str:
        return t(locale, "game.cartographers")

    def rules_card(self, locale: str | None) -> str:
        return t(locale, "carto.rules")

    async def status_text(self, table: Table, locale: str | None) -> str:
        if table.status == "lobby":
            return self.lobby_text(table)
        _, view = await self.service.view_for(table.id, None)
        lines = [board_header(table, view, locale)]
        for player in view.players:
            seat = table.seat(player.seat)
            lines.append(
                t(
                    locale,
                    "carto.status.line",
                    seat=player.seat,
                    name=mention(seat.user_id, seat.name),
                    stars=player.stars,
                    coins=player.coins,
                )
            )
        return "\n".join(lines)[:MESSAGE_LIMIT]

    async def log_chunks(self, table: Table, locale: str | None) -> list[str]:
        chunks = []
        for report in (await self.service.turn_reports(table.id))[-10:]:
            events = public_events(report.events)
            lines = [t(locale, "carto.log.turn", table=table.id, turn=report.turn)]
            lines += ambush_lines(events, table, locale)
            for event in events:
                if isinstance(event, SeasonScored):
                    lines.append(score_line(table, event, report.view, locale))
            chunks.append("\n".join(lines)[:MESSAGE_LIMIT])
        return chunks[-3:]

    # ------------------------------------------------------------------ announcements

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        locale = table.row.locale
        kind = announcement.row.kind
        view: SeatView = announcement.view
        files = []
        if kind == BOARD:
            content = self.board_text(table, view)
            if self.announcer.can_attach(channel) and view.card is not None:
                png = await self.images.run(card_png, view.card, view.ruins, lang(locale))
                files.append(
                    discord.File(io.BytesIO(png), filename=f"card-{table.id}-{view.turn}.png")
                )
            return Post(
                content, files, board_view(table.id, view.turn, locale), pings=waiting_ids(table)
            )
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
        if self.announcer.can_attach(channel):
            png = await self.images.run(season_png, report.view, table.names, lang(locale))
            files.append(
                discord.File(io.BytesIO(png), filename=f"maps-{table.id}-{report.turn}.png")
            )
        return Post(content, files, pings=named)

    def board_text(self, table: Table, view: SeatView) -> str:
        """A turn's post: season, turn and time, the card, the season's edicts, and who
        still owes a drawing (mentioned, with the time limit)."""
        locale = table.row.locale
        lines = [board_header(table, view, locale), card_line(view, locale)]
        lines.append(t(locale, "carto.board.edicts", edicts=season_edicts(view, locale)))
        lines.append(waiting_line(table, locale))
        return "\n".join(line for line in lines if line)[:MESSAGE_LIMIT]

    async def board_content(self, table: Table) -> str | None:
        _, view = await self.service.view_for(table.id, None)
        return self.board_text(table, view)

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        locale = table.row.locale
        _, view = await self.service.view_for(table.id, user_id)
        text = (
            t(locale, "carto.dm.turn", table=table.id, turn=view.turn)
            + "\n"
            + card_line(view, locale)
        )
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(
            MapButton(
                table.id,
                "draw",
                view.turn,
                label=t(locale, "carto.draw"),
                style=discord.ButtonStyle.primary,
            )
        )
        return text, buttons


def board_header(table: Table, view: SeatView, locale: str | None) -> str:
    return t(
        locale,
        "carto.board.header",
        table=table.id,
        season=name("season", view.season.id, lang(locale)),
        turn=view.turn,
        time=view.time_used,
        threshold=view.season.threshold,
    )


def ambush_lines(events: Any, table: Table, locale: str | None) -> list[str]:
    """Where the automatic ambushes landed (auto mode and solo)."""
    lines = []
    names = table.names
    for event in events:
        if isinstance(event, MonsterPlaced):
            lines.append(
                t(
                    locale,
                    "carto.ambush.placed",
                    card=name("card", event.card, lang(locale)),
                    name=names.get(event.map, event.map),
                    cells=", ".join(event.cells),
                )
            )
        elif isinstance(event, AmbushIgnored):
            lines.append(
                t(
                    locale,
                    "carto.ambush.ignored",
                    card=name("card", event.card, lang(locale)),
                    name=names.get(event.map, event.map),
                )
            )
    return lines


def score_line(table: Table, event: SeasonScored, view: SeatView, locale: str | None) -> str:
    seat = table.seat(event.seat)
    first, second = event.edicts
    return t(
        locale,
        "carto.season.line",
        name=mention(seat.user_id, seat.name),
        first=name("card", first, lang(locale)),
        first_points=event.score.edicts[0],
        second=name("card", second, lang(locale)),
        second_points=event.score.edicts[1],
        coins=event.score.coins,
        monsters=event.score.monsters,
        total=event.score.total,
        stars=event.stars,
    )


def season_text(table: Table, events: Any, view: SeatView, locale: str | None) -> str:
    scored = [event for event in events if isinstance(event, SeasonScored)]
    season = scored[0].score.season if scored else view.season.id
    lines = [
        t(
            locale,
            "carto.season.header",
            table=table.id,
            season=name("season", season, lang(locale)),
        )
    ]
    lines += [score_line(table, event, view, locale) for event in scored]
    return "\n".join(lines)


def podium_text(table: Table, view: SeatView, locale: str | None) -> str:
    result = view.result
    if result is None:
        return t(locale, "podium.abandoned", race=table.id)
    lines = [t(locale, "carto.podium.header", table=table.id)]
    for index, seat_name in enumerate(result.ranking, start=1):
        seat = table.seat(seat_name)
        player = view.player(seat_name)
        lines.append(
            t(
                locale,
                "carto.podium.line",
                place=1 if seat_name in result.winners else index,
                name=mention(seat.user_id, seat.name),
                stars=player.stars,
                monsters=player_monsters(player),
            )
        )
    if result.solo is not None:
        solo = result.solo
        lines.append(
            t(
                locale,
                "carto.podium.solo",
                score=solo.score,
                solo=solo.solo_values,
                rating=solo.rating,
                title=name("title", solo.title, lang(locale)),
            )
        )
    return "\n".join(lines)


def player_monsters(player: Any) -> int:
    return sum(season.monsters for season in player.seasons)


__all__ = [
    "BUTTON_TEMPLATE",
    "MODAL_PATTERN",
    "SELECT_TEMPLATE",
    "CartographersCog",
    "MapButton",
    "MapSelect",
]
