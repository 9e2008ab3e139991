"""The server's settings, checked before any lobby command opens a game: where it is asked
from (a thread counts as its channel), the member's roles, and the open games already
there. Every front end's "new game" command calls :func:`enforce_server_settings`; the
language of a game's public posts is :func:`public_locale`."""

from __future__ import annotations

from typing import Any

import discord

from bot.community.server import ServerSettings, ServerSettingsStore, check_may_open


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
    store: ServerSettingsStore,
    interaction: discord.Interaction[Any],
    *,
    admin: bool,
    counting_games: bool = True,
) -> ServerSettings:
    """Refuse a new lobby the server's settings forbid here, by this member (raises
    :class:`~bot.games.base.ServiceError` naming the reason); ``admin``: the member holds
    Manage Server, so the host role does not apply; ``counting_games`` False (a new
    tournament): the open-game limits do not apply. Returns the server's settings."""
    if interaction.guild_id is None:
        return ServerSettings()
    settings = await store.get(interaction.guild_id)
    member_open, server_open = 0, 0
    if counting_games:
        member_open, server_open = await store.open_counts(
            interaction.guild_id, interaction.user.id
        )
    check_may_open(
        settings,
        channel_ids=_channels(interaction),
        role_ids=_roles(interaction.user),
        admin=admin,
        member_open=member_open,
        server_open=server_open,
    )
    return settings


def public_locale(interaction: discord.Interaction[Any], settings: ServerSettings) -> str:
    """The language of posts everyone in the server reads (lobby, boards, reveals, podium,
    tournament posts): the server's ``/settings`` language, else the server's own locale,
    else the asking member's."""
    if settings.language:
        return settings.language
    guild_locale = interaction.guild_locale or getattr(interaction.guild, "preferred_locale", None)
    if guild_locale:
        return str(guild_locale.value)
    return str(interaction.locale.value) if interaction.locale else "en"


async def server_locale(store: ServerSettingsStore, guild: discord.Guild | None) -> str:
    """The language of a server's public posts when no member is asking (a tournament
    round opened as its last game ends): its ``/settings`` language, else its own."""
    if guild is None:
        return "en"
    settings = await store.get(guild.id)
    if settings.language:
        return settings.language
    return str(guild.preferred_locale.value) if guild.preferred_locale else "en"


__all__ = ["enforce_server_settings", "public_locale", "server_locale"]
