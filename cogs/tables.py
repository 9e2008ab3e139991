"""``/game …``: the commands every hosted game shares — ``list`` (this server's open
tables), ``panel``, ``status``, ``log``, ``rules``, ``leave``, ``abandon``, ``substitute``
and ``dm``. Each takes a ``game`` option, the table's number, which autocompletes with
this server's open tables; without it, the channel's or thread's table is meant. Lists
and suggestions hold only the tables of the channels the member views.

A handler finds the table, checks the place (:mod:`cogs.place`: a table belongs to its
server and is seen by whoever views its channel), calls the service, answers, and hands
the rest to the game's Discord adapter (:class:`~cogs.games.GameFront`). Errors go
through the one error policy of :func:`cogs.answers.fail`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.service import ServiceError, Table, TableService
from bot.text import t
from cogs.answers import display_name, fail, locale_of, reply
from cogs.games import MESSAGE_LIMIT, GameFront
from cogs.place import Act, asker_of, check_place

log = logging.getLogger(__name__)

GAME_OPTION = _("The table's number (this channel's table if left out)", key="cmd.option.game")
CHOICE_LIMIT = 25
NAME_LIMIT = 100


class TablesCog(
    commands.GroupCog,
    group_name=_("game", key="cmd.game"),
    group_description=_("Every game's tables: panel, status, log, rules…", key="cmd.game.about"),
):
    """The shared table commands, dispatched to each game's adapter."""

    def __init__(
        self,
        bot: commands.AutoShardedBot,
        service: TableService,
        fronts: Mapping[str, GameFront],
    ) -> None:
        super().__init__()
        self.bot = bot
        self.service = service
        self.fronts = fronts

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await fail(interaction, getattr(error, "original", error))

    async def find(
        self, interaction: discord.Interaction[Any], game: int | None, act: Act
    ) -> tuple[Table, bool]:
        """The table meant, checked for this place; and whether Manage Server applies."""
        if game is not None:
            table = await self.service.table(game)
        else:
            table = await self.service.find_table(
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                guild_id=interaction.guild_id,
            )
        return table, check_place(table, interaction, act)

    def describe(self, table: Table, locale: str | None) -> str:
        """``#12 Cartographers · alice, bob · turn 3``"""
        front = self.fronts.get(table.game)
        title = front.title(locale) if front else table.game
        people = ", ".join(seat.name for seat in table.seats)
        if table.status == "lobby":
            stage = t(locale, "game.in_lobby")
        else:
            stage = t(locale, "game.turn", turn=table.row.turn)
        return f"#{table.id} {title} · {people} · {stage}"

    async def game_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """This server's open tables the member may look at (those of the channels they
        view) whose description holds what was typed."""
        locale = locale_of(interaction)
        typed = current.strip().lower().lstrip("#")
        choices = []
        for table in await self.service.open_tables(asker_of(interaction), CHOICE_LIMIT):
            text = self.describe(table, locale)
            if typed in text.lower():
                clipped = text if len(text) <= NAME_LIMIT else text[: NAME_LIMIT - 1] + "…"
                choices.append(app_commands.Choice(name=clipped, value=table.id))
        return choices[:CHOICE_LIMIT]

    async def seat_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The seats of the table named by the ``game`` option (or this channel's), with
        who holds them: ``2 · bob``; none of a table the member may not look at (another
        server's, or of a channel they do not view)."""
        game = getattr(interaction.namespace, "game", None)
        try:
            table, _ = await self.find(
                interaction, game if isinstance(game, int) else None, Act.LOOK
            )
        except ServiceError:
            return []
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=f"{seat.seat} · {seat.name}"[:NAME_LIMIT], value=seat.seat)
            for seat in table.seats
            if typed in f"{seat.seat} · {seat.name}".lower()
        ][:CHOICE_LIMIT]

    def front(self, table: Table) -> GameFront:
        front = self.fronts.get(table.game)
        if front is None:
            raise ServiceError("error.no_such_game", game=table.game)
        return front

    # ------------------------------------------------------------------ commands

    @app_commands.command(
        name=_("list", key="cmd.list"),
        description=_("This server's open tables", key="cmd.list.about"),
    )
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            raise ServiceError("game.server_only")
        locale = locale_of(interaction)
        tables = await self.service.open_tables(asker_of(interaction), CHOICE_LIMIT)
        if not tables:
            await reply(interaction, t(locale, "game.list.empty"))
            return
        lines = [t(locale, "game.list.header", count=len(tables))]
        lines += [self.describe(table, locale) for table in tables]
        await reply(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(
        name=_("panel", key="cmd.panel"),
        description=_("Open your private panel", key="cmd.panel.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def panel(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, _ = await self.find(interaction, game, Act.PLAY)
        await self.front(table).open_panel(interaction, table)

    @app_commands.command(
        name=_("status", key="cmd.status"),
        description=_("Where the game stands", key="cmd.game.status.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, _ = await self.find(interaction, game, Act.LOOK)
        text = await self.front(table).status_text(table, locale_of(interaction))
        await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(
        name=_("log", key="cmd.log"),
        description=_("The latest turns of the game", key="cmd.game.log.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def log_(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, _ = await self.find(interaction, game, Act.LOOK)
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        chunks = await self.front(table).log_chunks(table, locale)
        if not chunks:
            chunks = [t(locale, "log.empty")]
        for chunk in chunks:
            await interaction.followup.send(
                chunk[:MESSAGE_LIMIT],
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @app_commands.command(
        name=_("rules", key="cmd.rules"),
        description=_("The game's short rules card", key="cmd.game.rules.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def rules(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        locale = locale_of(interaction)
        try:
            table, _ = await self.find(interaction, game, Act.LOOK)
            cards = [self.front(table).rules_card(locale)]
        except ServiceError as error:
            if game is not None or error.key != "error.no_race_here":
                raise
            cards = [front.rules_card(locale) for front in self.fronts.values()]
        await reply(interaction, "\n\n".join(cards))

    @app_commands.command(
        name=_("leave", key="cmd.leave"),
        description=_("Leave the game (an AI takes your seat)", key="cmd.game.leave.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, _ = await self.find(interaction, game, Act.PLAY)
        locale = locale_of(interaction)
        front = self.front(table)
        if table.status == "lobby":
            table = await self.service.leave_lobby(table.id, interaction.user.id)
            await reply(interaction, t(locale, "lobby.left"))
            await front.refresh_lobby(table)
            return
        update = await self.service.leave_game(table.id, interaction.user.id)
        try:
            key = "game.left" if update.table.status == "running" else "game.abandoned_by_leaving"
            await reply(interaction, t(locale, key, table=table.id))
        finally:
            await front.settle(table.id)

    @app_commands.command(
        name=_("abandon", key="cmd.abandon"),
        description=_("End the game (host or Manage Server)", key="cmd.game.abandon.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, admin = await self.find(interaction, game, Act.MANAGE)
        update = await self.service.abandon(table.id, interaction.user.id, admin=admin)
        try:
            await interaction.response.send_message(
                t(
                    update.table.row.locale,
                    "game.abandoned",
                    table=table.id,
                    by=display_name(interaction.user),
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        finally:
            await self.front(table).settle(table.id)

    @app_commands.command(
        name=_("substitute", key="cmd.substitute"),
        description=_("Put a member in a seat (host)", key="cmd.substitute.about"),
    )
    @app_commands.describe(
        seat=_("The seat to hand over", key="cmd.option.seat"),
        member=_("Who plays it from now on", key="cmd.option.player"),
        game=GAME_OPTION,
    )
    @app_commands.guild_only()
    async def substitute(
        self,
        interaction: discord.Interaction[Any],
        seat: app_commands.Range[str, 1, 3],
        member: discord.Member,
        game: int | None = None,
    ) -> None:
        table, admin = await self.find(interaction, game, Act.MANAGE)
        await self.service.substitute(
            table.id, interaction.user.id, seat, member.id, display_name(member), admin=admin
        )
        try:
            await interaction.response.send_message(
                t(table.row.locale, "game.substituted", seat=seat, member=member.mention),
                allowed_mentions=discord.AllowedMentions(users=[member]),
            )
        finally:
            await self.front(table).settle(table.id)

    @app_commands.command(
        name=_("dm", key="cmd.dm"),
        description=_("Get a direct message when your move is due", key="cmd.dm.about"),
    )
    @app_commands.describe(
        enabled=_("On: a direct message when your move is due", key="cmd.option.enabled")
    )
    async def dm(self, interaction: discord.Interaction[Any], enabled: bool) -> None:
        await self.service.storage.set_dm(interaction.user.id, enabled)
        await reply(interaction, t(locale_of(interaction), "dm.on" if enabled else "dm.off"))

    @panel.autocomplete("game")
    @status.autocomplete("game")
    @log_.autocomplete("game")
    @rules.autocomplete("game")
    @leave.autocomplete("game")
    @abandon.autocomplete("game")
    @substitute.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.game_choices(interaction, current)

    @substitute.autocomplete("seat")
    async def _seat_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.seat_choices(interaction, current)


__all__ = ["TablesCog"]
