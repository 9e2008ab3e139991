"""What a server publishes on the web: whether its page is on, under which unguessable slug,
and which of its channels its default role (``@everyone``) can view.

The bot writes it (``/settings web``, and the channels from its guild cache at start and on
every channel or role change); the web server only reads it, and shows a server's tables
and tournaments only when their channel is in the server's public channels. A channel the
bot has not told of is not public. Turning a page off forgets its slug and its channels;
turning it on again makes a new slug, so an old link stops working.

A player's page is addressed by a token made from the player's rated identity and the
page's own secret (:func:`player_token`): never a Discord id, and it changes with the slug.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from bot.sql import Connection
from bot.storage import Storage

SLUG_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}")
"""A slug as :func:`new_slug` makes them: 16 random bytes, URL-safe base64."""
TOKEN_LENGTH = 16
TOKEN_PATTERN = re.compile(rf"[0-9a-f]{{{TOKEN_LENGTH}}}")


FORGET_CHANNELS = "DELETE FROM public_channels WHERE guild_id = ?"


def new_slug() -> str:
    return secrets.token_urlsafe(16)


def player_token(secret: str, player: str) -> str:
    """The address of a player's page on a server's site (``player`` as rated:
    ``user:<id>`` or ``ai:<level>``)."""
    digest = hmac.new(secret.encode(), player.encode(), hashlib.sha256).hexdigest()
    return digest[:TOKEN_LENGTH]


@dataclass(frozen=True)
class WebPage:
    """A server's published page."""

    guild_id: int
    slug: str
    secret: str
    name: str
    locale: str | None
    since: float


class Publishing:
    """The ``web_pages`` and ``public_channels`` rows: written by the bot, read by the web."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def page_of(self, guild_id: int) -> WebPage | None:
        rows = await self.storage.read(
            "SELECT guild_id, slug, secret, name, locale, since FROM web_pages WHERE guild_id = ?",
            (guild_id,),
        )
        return WebPage(*rows[0]) if rows else None

    async def page_by_slug(self, slug: str) -> WebPage | None:
        """The page of this slug; None for anything that is not one (checked before the
        database is asked)."""
        if not SLUG_PATTERN.fullmatch(slug):
            return None
        rows = await self.storage.read(
            "SELECT guild_id, slug, secret, name, locale, since FROM web_pages WHERE slug = ?",
            (slug,),
        )
        return WebPage(*rows[0]) if rows else None

    async def published_guilds(self) -> set[int]:
        rows = await self.storage.read("SELECT guild_id FROM web_pages")
        return {int(row[0]) for row in rows}

    async def turn_on(self, guild_id: int, name: str, locale: str | None, now: float) -> WebPage:
        """The server's page, made now with a new slug if it was off (an existing one
        keeps its slug)."""
        slug, secret = new_slug(), secrets.token_hex(16)

        def insert(connection: Connection) -> None:
            connection.execute(
                "INSERT INTO web_pages (guild_id, slug, secret, name, locale, since)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, slug, secret, name, locale, now),
            ).close()

        await self.storage.write_with(insert)
        page = await self.page_of(guild_id)
        assert page is not None
        return page

    async def turn_off(self, guild_id: int) -> None:
        """No page any more: its slug and its channels are forgotten."""

        def delete(connection: Connection) -> None:
            connection.execute(
                "DELETE FROM public_channels WHERE guild_id = ?", (guild_id,)
            ).close()
            connection.execute("DELETE FROM web_pages WHERE guild_id = ?", (guild_id,)).close()

        await self.storage.write_with(delete)

    async def describe(self, guild_id: int, name: str, locale: str | None) -> None:
        """Keep the server's name and language as the page shows them (the web server
        knows nothing of Discord)."""

        def update(connection: Connection) -> None:
            connection.execute(
                "UPDATE web_pages SET name = ?, locale = ? WHERE guild_id = ?",
                (name, locale, guild_id),
            ).close()

        await self.storage.write_with(update)

    async def set_public_channels(self, guild_id: int, channel_ids: Iterable[int]) -> None:
        """The server's public channels are exactly these now (kept only while its page is
        on)."""
        wanted = sorted(set(channel_ids))

        def replace(connection: Connection) -> None:
            connection.execute(
                "DELETE FROM public_channels WHERE guild_id = ?", (guild_id,)
            ).close()
            published = connection.execute(
                "SELECT 1 FROM web_pages WHERE guild_id = ?", (guild_id,)
            )
            on = published.fetchone() is not None
            published.close()
            if not on:
                return
            for channel_id in wanted:
                connection.execute(
                    "INSERT INTO public_channels (guild_id, channel_id) VALUES (?, ?)",
                    (guild_id, channel_id),
                ).close()

        await self.storage.write_with(replace)

    async def public_channels(self, guild_id: int) -> set[int]:
        rows = await self.storage.read(
            "SELECT channel_id FROM public_channels WHERE guild_id = ?", (guild_id,)
        )
        return {int(row[0]) for row in rows}


__all__ = [
    "SLUG_PATTERN",
    "TOKEN_PATTERN",
    "Publishing",
    "WebPage",
    "new_slug",
    "player_token",
]
