"""``/away`` and ``/back``: a member away from this server's games for a while (a duration
such as ``3d`` or an end date), and back. Only the member sets their own absence; the
service plays their seats' moves as they come due, or pauses their bank where a table
allows it (:meth:`bot.service.TableService.set_away`), and each table's board shows it
from its next post on."""

from __future__ import annotations

import datetime
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games.base import ServiceError
from bot.service import TableService
from bot.text import t
from bot.timebank import parse_duration
from cogs.front.announce import timestamp
from cogs.front.answers import fail, locale_of, reply


def away_until(text: str, now: float) -> float:
    """When an absence typed as a duration (``3d``, ``12h``) or a date (``2026-12-24``,
    the end of that day in UTC; or ``2026-12-24 18:00`` UTC) ends."""
    seconds = parse_duration(text)
    if seconds is not None:
        return now + seconds
    for pattern, extra in (("%Y-%m-%d %H:%M", 0), ("%Y-%m-%d", 86400)):
        try:
            moment = datetime.datetime.strptime(text.strip(), pattern)
        except ValueError:
            continue
        return moment.replace(tzinfo=datetime.UTC).timestamp() + extra
    raise ServiceError("error.bad_duration")


class AwayCog(commands.Cog):
    """The member's own absence from this server's games."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await fail(interaction, getattr(error, "original", error))

    @app_commands.command(
        name=_("away", key="cmd.away"),
        description=_("Be away from this server's games for a while", key="cmd.away.about"),
    )
    @app_commands.describe(
        until=_("How long (3d, 12h) or until when (2026-12-24)", key="cmd.away.until")
    )
    @app_commands.guild_only()
    async def away(
        self, interaction: discord.Interaction[Any], until: app_commands.Range[str, 1, 40]
    ) -> None:
        assert interaction.guild_id is not None
        ends = away_until(until, self.service.clock.now())
        await self.service.set_away(interaction.guild_id, interaction.user.id, ends)
        await reply(interaction, t(locale_of(interaction), "away.set", until=timestamp(ends)))

    @app_commands.command(
        name=_("back", key="cmd.back"),
        description=_("End your absence from this server's games", key="cmd.back.about"),
    )
    @app_commands.guild_only()
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        await self.service.back(interaction.guild_id, interaction.user.id)
        await reply(interaction, t(locale_of(interaction), "away.back"))


__all__ = ["AwayCog", "away_until"]
