"""The Discord side of the servers' web pages (:mod:`bot.web`): ``/settings web`` turns a
server's page on or off and gives its link (``/settings`` hands the choice here), and the
bot keeps, for every server whose page is on, which of its channels the server's default
role (``@everyone``) can view: the web server has no Discord connection, and shows a
table or a tournament only when its channel is one of those.

The channels are read from the guild cache when the page is turned on, when the bot is
ready (for every server it holds), and again on every change that can open or close a
channel to ``@everyone``: a channel or thread created, changed or deleted, the default
role changed. A server the bot leaves stops publishing.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.community.server import ServerSettingsStore
from bot.service import TableService
from bot.text import t
from bot.web.publish import Publishing, WebPage
from cogs.server_checks import public_locale

log = logging.getLogger(__name__)

ON, OFF = "on", "off"


def public_channel_ids(guild: discord.Guild) -> list[int]:
    """The server's channels (and public threads of those) that ``@everyone`` can view."""
    everyone = guild.default_role
    viewed = {
        channel.id for channel in guild.channels if channel.permissions_for(everyone).view_channel
    }
    threads = {
        thread.id
        for thread in guild.threads
        if thread.type is discord.ChannelType.public_thread and thread.parent_id in viewed
    }
    return sorted(viewed | threads)


class WebCog(commands.Cog):
    """Publishing servers' pages, and keeping their public channels."""

    def __init__(self, bot: commands.AutoShardedBot, service: TableService, base_url: str) -> None:
        self.bot = bot
        self.publishing = Publishing(service.storage)
        self.server_settings = ServerSettingsStore(service.storage)
        self.clock = service.clock
        self.base_url = base_url.rstrip("/")

    def link(self, page: WebPage) -> str:
        return f"{self.base_url}/s/{page.slug}"

    async def settings_lines(
        self, interaction: discord.Interaction[Any], choice: str | None, locale: str
    ) -> list[str]:
        """``/settings web``: turn the page on (``on``) or off (``off``), or tell how it
        is (None); the answer's lines."""
        guild = interaction.guild
        assert guild is not None
        if choice == ON:
            language = public_locale(interaction, await self.server_settings.get(guild.id))
            page = await self.publishing.turn_on(guild.id, guild.name, language, self.clock.now())
            await self.sync(guild)
            return [t(locale, "settings.web_turned_on", url=self.link(page))]
        if choice == OFF:
            await self.publishing.turn_off(guild.id)
            return [t(locale, "settings.web_turned_off")]
        shown = await self.publishing.page_of(guild.id)
        if shown is None:
            return [t(locale, "settings.web_none")]
        return [t(locale, "settings.web_link", url=self.link(shown))]

    async def sync(self, guild: discord.Guild) -> None:
        """Store the server's public channels, name and language, if its page is on."""
        page = await self.publishing.page_of(guild.id)
        if page is None:
            return
        await self.publishing.set_public_channels(guild.id, public_channel_ids(guild))
        locale = str(guild.preferred_locale.value) if guild.preferred_locale else page.locale
        if guild.name != page.name or locale != page.locale:
            await self.publishing.describe(guild.id, guild.name, locale)

    async def _sync_quietly(self, guild: discord.Guild | None) -> None:
        if guild is None:
            return
        try:
            await self.sync(guild)
        except Exception:
            log.exception("server %d: could not store its public channels", guild.id)

    # ------------------------------------------------------------------ what changes them

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        published = await self.publishing.published_guilds()
        for guild in self.bot.guilds:
            if guild.id in published:
                await self._sync_quietly(guild)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self._sync_quietly(guild)

    @commands.Cog.listener()
    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        await self._sync_quietly(channel.guild)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._sync_quietly(channel.guild)

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        await self._sync_quietly(after.guild)

    @commands.Cog.listener()
    async def on_thread_create(self, thread: discord.Thread) -> None:
        await self._sync_quietly(thread.guild)

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self._sync_quietly(thread.guild)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self._sync_quietly(after.guild)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        if after.is_default():
            await self._sync_quietly(after.guild)

    @commands.Cog.listener()
    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        await self._sync_quietly(after)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left the server (or was removed): its page goes with it."""
        try:
            await self.publishing.turn_off(guild.id)
        except Exception:
            log.exception("server %d: could not turn its page off", guild.id)


__all__ = ["OFF", "ON", "WebCog", "public_channel_ids"]
