"""A table's lobby on Discord, for every game: the ``/… new`` answer with the lobby message
and its buttons (Join, Leave, Start, Remove AI, Add an AI seat), the clicks on them, the
message kept up to date, and the host's Start, which opens the game's thread.

A game's front says only what is its own (:class:`Lobby`'s hooks): the lobby's header and
settings lines, how a seat is named, what its AI levels are about, and its thread's name.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.community.server import ServerSettingsStore
from bot.games.base import ServiceError
from bot.service import DEFAULT_TURN_LIMIT, TURN_LIMITS, Table, TableService, TableSettings
from bot.text import t
from bot.timebank import BANK_PRESETS, DAY, HOUR, bank_in_bounds, parse_bank
from cogs.front.announce import Announcer
from cogs.front.answers import (
    FOR_THREADS,
    THREAD_ARCHIVE_MINUTES,
    TRANSIENT,
    UNKNOWN_INTERACTION,
    display_name,
    locale_of,
    reply,
)
from cogs.front.components import OPTION_LIMIT, Controls, clip
from cogs.front.place import is_admin
from cogs.server_checks import enforce_server_settings, public_locale

log = logging.getLogger(__name__)

LOBBY_VERBS = frozenset({"join", "leave", "start", "addai", "noai"})
TURN_LIMIT_CHOICES = [
    app_commands.Choice(name=_(name, key=f"limit.{name}"), value=name) for name in TURN_LIMITS
] + [
    app_commands.Choice(name=_(f"bank {name}", key=f"limit.bank_{name}"), value=f"bank_{name}")
    for name in BANK_PRESETS
]
"""The choices of a ``turn_limit`` option: the host's presets, then the time banks'."""
TIME_BANK_OPTION = _("Or a time bank per player, like 36h+12h", key="cmd.new.time_bank")
AWAY_PAUSES_OPTION = _("Banks pause while a player is away", key="cmd.new.away_pauses")
NewCommand = Callable[
    [Callable[..., Coroutine[Any, Any, None]]], app_commands.Command[Any, ..., None]
]


def command_group(name: str, about: str) -> dict[str, app_commands.locale_str]:
    """A game's own slash-command group (``/race``): its name and description, translated
    by the catalogue (``cmd.<name>``, ``cmd.<name>.about``)."""
    return {
        "group_name": _(name, key=f"cmd.{name}"),
        "group_description": _(about, key=f"cmd.{name}.about"),
    }


def new_command(about: str, key: str) -> NewCommand:
    """A game's ``/… new``, which opens a lobby (``about``: its description)."""
    return app_commands.command(name=_("new", key="cmd.new"), description=_(about, key=key))


REQUIRED = ("view_channel", "send_messages")
"""What the bot needs in a channel to open a lobby there."""

_LOBBIES_POSTING: dict[int, asyncio.Event] = {}


async def post_lobby(
    interaction: discord.Interaction[Any],
    table_id: int,
    content: str,
    view: discord.ui.View,
    remember: Callable[[int], Awaitable[Any]],
) -> None:
    """Answer a ``/… new`` with the table's lobby and ``remember`` its message id. Until the
    id is stored, a click on the lobby (shown to everyone at once) waits for it
    (:func:`lobby_posted`): before, a Join clicked that quickly answered privately and the
    lobby never showed the player."""
    posted = _LOBBIES_POSTING[table_id] = asyncio.Event()
    try:
        answer = await interaction.response.send_message(
            content, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
        message_id = answer.message_id
        if message_id is None:  # Discord left the message out of its answer: ask for it
            message_id = (await interaction.original_response()).id
        await remember(message_id)
    finally:
        posted.set()
        del _LOBBIES_POSTING[table_id]


async def lobby_posted(table_id: int) -> None:
    """Wait until a lobby being posted has its message id stored (at once if none is)."""
    posting = _LOBBIES_POSTING.get(table_id)
    if posting is not None:
        await posting.wait()


def is_lobby(message: discord.Message | None, table: Table) -> bool:
    """Whether a click came from the table's lobby message, the only one updated in place.
    Until the lobby's id is stored (a host may click Start before), the public message
    carrying this table's lobby controls is its lobby: only the bot writes them."""
    if message is None or message.flags.ephemeral:
        return False
    stored = table.row.lobby_message_id
    return message.id == stored if stored is not None else message.author.bot


def turn_limit_name(seconds: int | None) -> str:
    """The preset a table's time per turn was chosen from (``none`` for no limit)."""
    return next((name for name, limit in TURN_LIMITS.items() if limit == seconds), "none")


def time_control(
    turn_limit: str, time_bank: str | None = None, away_pauses: bool = False
) -> dict[str, Any]:
    """A table's time control (its settings' fields) from a ``/… new``'s options: a time
    per turn, a bank preset (``bank_daily``), or a bank typed like ``36h+12h``, which wins
    over the preset (refused in words when it does not read as one or is out of bounds)."""
    bank = None
    if time_bank:
        bank = parse_bank(time_bank)
        if bank is None or not bank_in_bounds(bank):
            raise ServiceError("error.bad_bank")
    elif turn_limit.startswith("bank_"):
        bank = BANK_PRESETS.get(turn_limit.removeprefix("bank_"))
    turn_seconds = TURN_LIMITS.get(turn_limit, TURN_LIMITS[DEFAULT_TURN_LIMIT])
    return {
        "turn_seconds": None if bank is not None else turn_seconds,
        "bank": bank,
        "away_pauses": away_pauses,
    }


def time_control_words(settings: TableSettings, locale: str | None) -> str:
    """A table's time control as its lobby names it: a preset, or a bank typed."""
    if settings.bank is None:
        return t(locale, f"limit.{turn_limit_name(settings.turn_seconds)}")
    preset = next((name for name, bank in BANK_PRESETS.items() if bank == settings.bank), None)
    if preset is not None:
        return t(locale, f"limit.bank_{preset}")
    reserve, increment = settings.bank
    return t(locale, "bank.custom", reserve=_duration(reserve), increment=_duration(increment))


def _duration(seconds: int) -> str:
    """A bank's time, short: ``36 h``, ``7 d``, ``90 min``."""
    if seconds % DAY == 0:
        return f"{seconds // DAY} d"
    if seconds % HOUR == 0:
        return f"{seconds // HOUR} h"
    return f"{seconds // 60} min"


class Lobby:
    """Mixin of a game's front: its tables' lobbies. The hooks are the game's own words."""

    game: ClassVar[str]
    bot: commands.AutoShardedBot
    service: TableService
    controls: ClassVar[Controls]
    announcer: Announcer
    started_key: ClassVar[str] = "game.lobby_started"
    """The lobby's last line once the game has started."""

    # ------------------------------------------------------------------ the game's words

    def lobby_heading(self, table: Table) -> list[str]:
        """The lobby's first lines: its header (the host mentioned) and the settings."""
        raise NotImplementedError

    def seat_label(self, seat: str, locale: str | None) -> str:
        """A seat as the lobby lists it (its number, then the game's name for it)."""
        return seat

    def ai_about(self, level: str, locale: str | None) -> str | None:
        """What an AI level plays like, under its name in the Add AI select (None: nothing)."""
        return None

    def thread_name(self, table: Table, locale: str | None) -> str:
        """The name of the table's thread, as its Start names it (a tournament's too)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the message

    def lobby_text(self, table: Table) -> str:
        locale = table.row.locale
        settings = table.settings
        lines = [
            *self.lobby_heading(table),
            t(locale, "lobby.players", count=len(table.seats), seats=settings.seats),
        ]
        for seat in table.in_turn_order():
            who = (
                f"<@{seat.user_id}>"
                if seat.user_id is not None
                else t(
                    locale, "lobby.ai_seat", name=seat.name, level=t(locale, f"ai.{seat.ai_level}")
                )
            )
            lines.append(f"{self.seat_label(seat.seat, locale)}. {who}")
        if table.status != "lobby":
            lines.append(
                t(locale, self.started_key if table.status == "running" else "lobby.closed")
            )
        return "\n".join(lines)

    def lobby_view(self, table: Table, locale: str | None) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        controls, tid = self.controls, table.id
        primary, success = discord.ButtonStyle.primary, discord.ButtonStyle.success
        for verb, style in (("join", primary), ("leave", None), ("start", success)):
            label = t(locale, f"lobby.{verb}")
            view.add_item(controls.button(tid, verb, 0, label=label, style=style, row=0))
        view.add_item(controls.button(tid, "noai", 0, label=t(locale, "lobby.remove_ai"), row=0))
        levels = []
        for level in table.host.ai_levels:
            about = self.ai_about(level, locale)
            levels.append(
                discord.SelectOption(
                    label=t(locale, f"ai.{level}"),
                    value=level,
                    description=clip(about, OPTION_LIMIT) if about is not None else None,
                )
            )
        placeholder = t(locale, "lobby.add_ai")
        view.add_item(
            controls.select(tid, "addai", 0, options=levels, placeholder=placeholder, row=1)
        )
        return view

    async def refresh_lobby(self, table: Table) -> None:
        """Show the table's seats on its lobby message (without controls once started)."""
        channel = self.bot.get_channel(table.row.channel_id or 0)
        if channel is None or table.row.lobby_message_id is None:
            return
        try:
            await channel.get_partial_message(table.row.lobby_message_id).edit(  # type: ignore[union-attr]
                content=self.lobby_text(table),
                view=self.lobby_view(table, table.row.locale) if table.status == "lobby" else None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except TRANSIENT:
            log.warning("table %d: could not update the lobby", table.id)

    # ------------------------------------------------------------------ opening

    async def open_lobby(
        self, interaction: discord.Interaction[Any], settings: Callable[[], TableSettings]
    ) -> None:
        """A ``/… new``: the bot may post here, the server's settings allow a game here by
        this member, then the lobby with the ``settings`` the game read from its options
        (which may refuse them) is opened and posted in the server's language."""
        missing = [
            name for name in REQUIRED if not getattr(interaction.app_permissions, name, False)
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
        chosen = settings()
        server = await enforce_server_settings(
            ServerSettingsStore(self.service.storage), interaction, admin=is_admin(interaction)
        )
        locale = public_locale(interaction, server)
        table = await self.service.open_lobby(
            game=self.game,
            host_id=interaction.user.id,
            host_name=display_name(interaction.user),
            settings=chosen,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            locale=locale,
        )
        await post_lobby(
            interaction,
            table.id,
            self.lobby_text(table),
            self.lobby_view(table, locale),
            lambda message_id: self.service.set_channel_message(
                table.id, lobby_message_id=message_id
            ),
        )

    # ------------------------------------------------------------------ clicks

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
                view=self.lobby_view(table, table.row.locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        else:
            await reply(
                interaction, self.lobby_text(table), allowed_mentions=discord.AllowedMentions.none()
            )
            await self.refresh_lobby(table)

    async def start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The host's Start: the game begins (stored first), the lobby says so and loses its
        controls, and the game gets a thread of its own under the lobby where the bot may
        open one; else it is played in the channel and the host is told why. The first
        turn is posted after the answer. Its announcements wait meanwhile (the start-up
        catch-up or the outbox sweep may find the first board owed as soon as the game is
        stored): they go to the thread once it is open."""
        async with self.announcer.lock(table.id):
            started = (await self.service.start(table.id, interaction.user.id)).table
            lobby = interaction.message if is_lobby(interaction.message, started) else None
            try:
                if lobby is not None:
                    await interaction.response.edit_message(
                        content=self.lobby_text(started),
                        view=None,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                else:
                    await reply(
                        interaction,
                        self.lobby_text(started),
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                    await self.refresh_lobby(started)
            except discord.NotFound as error:
                if error.code != UNKNOWN_INTERACTION:
                    raise
                log.warning("table %d: started, but the Start click expired unanswered", table.id)
            permissions = interaction.app_permissions
            if lobby is not None and all(getattr(permissions, name, False) for name in FOR_THREADS):
                try:
                    thread = await lobby.create_thread(
                        name=self.thread_name(started, started.row.locale)[:100],
                        auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                    )
                except TRANSIENT:
                    log.warning(
                        "table %d: could not open a thread; playing in the channel", table.id
                    )
                else:
                    await self.service.set_channel_message(table.id, thread_id=thread.id)
            else:
                await interaction.followup.send(
                    t(locale_of(interaction), "error.no_threads"), ephemeral=True
                )
        self.begin(table.id)

    def begin(self, table_id: int) -> None:
        """After the Start's answer: AI seats play and the first turn is posted."""
        raise NotImplementedError


__all__ = [
    "LOBBY_VERBS",
    "TURN_LIMIT_CHOICES",
    "Lobby",
    "command_group",
    "is_lobby",
    "lobby_posted",
    "new_command",
    "post_lobby",
    "time_control",
    "time_control_words",
    "turn_limit_name",
]
