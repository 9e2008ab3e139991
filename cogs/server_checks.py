"""The server's settings, checked before any lobby command opens a game: where it is asked
from (a thread counts as its channel), the member's roles, and the open games already
there. Every front end's "new game" command calls :func:`enforce_server_settings`."""

from __future__ import annotations

from typing import Any

import discord

from bot.community.server import ServerSettingsStore, check_may_open


def _roles(user: Any) -> set[int]:
    return {role.id for role in getattr(user, "roles", ())}


def _channels(interaction: discord.Interaction[Any]) -> set[int]:
    """The channel asked from and, for a thread, its parent channel."""
    ids = {interaction.channel_id} if interaction.channel_id is not None else set()
    parent = getattr(interaction.channel, "parent_id", None)
    if parent is not None:
        ids.add(parent)
    return ids


async def enforce_server_settings(
    store: ServerSettingsStore, interaction: discord.Interaction[Any], *, admin: bool
) -> None:
    """Refuse a new lobby the server's settings forbid here, by this member (raises
    :class:`~bot.games.base.ServiceError` naming the reason); ``admin``: the member holds
    Manage Server, so the host role does not apply."""
    if interaction.guild_id is None:
        return
    settings = await store.get(interaction.guild_id)
    member_open, server_open = await store.open_counts(interaction.guild_id, interaction.user.id)
    check_may_open(
        settings,
        channel_ids=_channels(interaction),
        role_ids=_roles(interaction.user),
        admin=admin,
        member_open=member_open,
        server_open=server_open,
    )


__all__ = ["enforce_server_settings"]
