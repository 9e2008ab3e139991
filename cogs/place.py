"""Where a request may act on a table from: a table belongs to the server it was opened in.

The rule every shared command and every Cartographers control applies before it calls the
service (which then checks seats and host rights):

- from a server: only that table's own server; the Manage Server override counts there and
  nowhere else; another server's table reads as no table at all;
- from a direct message: only a seated player's own move (the panel opened from the turn
  notice the bot sent them); nothing else.

Components carry ids a modified client can forge, so the table id of a custom_id is never
trusted beyond this check and the service's own.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import discord

from bot.service import ServiceError, Table


class Act(StrEnum):
    LOOK = "look"
    """Read what the table shows publicly in its server (status, log)."""
    PLAY = "play"
    """Act in one's own seat: the private panel, a drawing, leaving."""
    MANAGE = "manage"
    """Join, the host's and admins' controls: lobby buttons, abandon, substitute."""


def manages_server(interaction: discord.Interaction[Any]) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


def check_place(table: Table, interaction: discord.Interaction[Any], act: Act) -> bool:
    """Refuse (:class:`ServiceError`) a request from the wrong place; returns whether the
    Manage Server override applies."""
    if interaction.guild_id is None:
        if act is not Act.PLAY:
            raise ServiceError("game.server_only")
        if table.seat_of(interaction.user.id) is None:
            raise ServiceError("error.not_seated")
        return False
    if table.row.guild_id is None or table.row.guild_id != interaction.guild_id:
        raise ServiceError("error.no_such_race", race=table.id)
    return manages_server(interaction)


__all__ = ["Act", "check_place", "manages_server"]
