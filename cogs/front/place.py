"""The place check of every command, button, select and form that reaches a table: the
host's rule book :mod:`bot.access` (a table belongs to its server and is seen by whoever
views its channel; from a DM only a seated player's own move, through the bot's own DM
button) applied to a Discord interaction.

What the host cannot know, Discord's side of it, is computed here: who asks
(:func:`asker_of`), whether they hold Manage Server, and which channels they can view
(:func:`viewer_of`), from the member's role ids the interaction carries and the cached
channel's permission overwrites, as Discord computes it. A public answer is read by
everyone in its channel, not only by the asker: what it names must be readable by them
too (:func:`audience_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.access import Act, Asker, Place, Verdict, judge
from bot.service import ServiceError, Table


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server in the server the interaction comes from (never in a DM)."""
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(interaction.guild_id is not None and permissions and permissions.manage_guild)


def viewer_of(interaction: discord.Interaction[Any]) -> Callable[[int], bool]:
    """Whether the interaction's member can view a channel of its server, by the channel's
    id: Discord's computation (``permissions_for``) over the cached channel and the role
    ids the interaction carries. A thread is seen as its parent channel is; a channel the
    bot no longer knows is not seen. Each channel is worked out once (a list of tables
    asks for the same few channels again and again)."""
    guild, member = interaction.guild, interaction.user
    known: dict[int, bool] = {}

    def views(channel_id: int) -> bool:
        if guild is None or not isinstance(member, discord.Member):
            return False
        if channel_id not in known:
            channel = guild.get_channel_or_thread(channel_id)
            known[channel_id] = channel is not None and channel.permissions_for(member).view_channel
        return known[channel_id]

    return views


def asker_of(interaction: discord.Interaction[Any]) -> Asker:
    """Who acts and from where, for :func:`bot.access.judge`: a button, select or form in
    the bot's own DM with the user counts as a DM button (only the bot writes messages
    with components there, and only that user can click them)."""
    context = interaction.context  # empty if Discord left it out: then the channel decides
    in_bot_dm = (
        interaction.guild_id is None
        and not context.private_channel
        and (context.dm_channel or isinstance(interaction.channel, discord.DMChannel))
    )
    by_control = interaction.type in (
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    )
    return Asker(
        user_id=interaction.user.id,
        guild_id=interaction.guild_id,
        manages_server=is_admin(interaction),
        via_dm_button=bool(in_bot_dm and by_control),
        views=viewer_of(interaction),
    )


def audience_of(interaction: discord.Interaction[Any]) -> Asker:
    """Everyone who reads a public answer to the interaction, as one asker: they view the
    channel it is posted in (a thread's: its parent) and the channels @everyone may view.
    The bot knows no member list, so a channel that only some of them view counts as
    unseen; and no Manage Server override: the readers are not the admin who asked."""
    guild = interaction.guild
    here = interaction.channel
    home = here.parent_id if isinstance(here, discord.Thread) else interaction.channel_id

    def views(channel_id: int) -> bool:
        if channel_id == home:
            return True
        if guild is None:
            return False
        channel = guild.get_channel_or_thread(channel_id)
        return channel is not None and channel.permissions_for(guild.default_role).view_channel

    return Asker(user_id=interaction.user.id, guild_id=interaction.guild_id, views=views)


def place_of(table: Table) -> Place:
    return Place(table.row.guild_id, table.row.channel_id)


def admit(table: Table, interaction: discord.Interaction[Any], act: Act) -> Verdict:
    """The verdict of :func:`bot.access.judge` on this interaction's ``act`` on ``table``;
    a refusal is raised (:class:`ServiceError`), worded as for a table that does not
    exist where the table is none of the asker's business."""
    verdict = judge(
        place_of(table),
        asker_of(interaction),
        act,
        seated=table.seat_of(interaction.user.id) is not None,
    )
    if verdict.refusal is not None:
        raise ServiceError(verdict.refusal, race=table.id)
    return verdict


def check_place(table: Table, interaction: discord.Interaction[Any], act: Act) -> bool:
    """Refuse (:class:`ServiceError`) a request from the wrong place; returns whether the
    Manage Server override applies."""
    return admit(table, interaction, act).admin


__all__ = [
    "Act",
    "admit",
    "asker_of",
    "audience_of",
    "check_place",
    "is_admin",
    "place_of",
    "viewer_of",
]
