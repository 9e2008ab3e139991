"""A server's own rules for its games, set by its admins with ``/settings``: the channels
games may be opened in, the role that may host (games and tournaments), the default
language, how many open games a member and the whole server may have (a tournament's games
are not counted), and how long an unstarted lobby stays open.

:func:`check_may_open` is the one check every front end runs before opening a lobby; its
refusals name the reason (a channel list, a role, a limit).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.games.base import ServiceError
from bot.shards import EVERY_SHARD, Shards
from bot.storage import Storage

LANGUAGES = ("en", "es", "it")
"""Languages the bot's messages are written in."""
MAX_OPEN_LIMIT = 1000
MAX_EXPIRY_HOURS = 24 * 14


@dataclass(frozen=True)
class ServerSettings:
    channels: tuple[int, ...] = ()
    """Channels where games may be opened (a game's thread counts as its channel); none
    listed: every channel."""
    host_role: int | None = None
    """Only members with this role may open a game (admins always may); None: anyone."""
    language: str | None = None
    """The language of public messages; None: the server's own locale."""
    max_open_per_member: int | None = None
    max_open_per_server: int | None = None
    lobby_expiry_hours: float | None = None
    """Unstarted lobbies close after this long; None: they stay open."""

    def checked(self) -> ServerSettings:
        if self.language is not None and self.language not in LANGUAGES:
            raise ServiceError("error.settings_language", languages=", ".join(LANGUAGES))
        for limit in (self.max_open_per_member, self.max_open_per_server):
            if limit is not None and not 1 <= limit <= MAX_OPEN_LIMIT:
                raise ServiceError("error.settings_limit", most=MAX_OPEN_LIMIT)
        hours = self.lobby_expiry_hours
        if hours is not None and not 0.25 <= hours <= MAX_EXPIRY_HOURS:
            raise ServiceError("error.settings_expiry", most=MAX_EXPIRY_HOURS)
        return replace(self, channels=tuple(sorted(set(self.channels))))

    def to_json(self) -> dict[str, Any]:
        return {
            "channels": list(self.channels),
            "host_role": self.host_role,
            "language": self.language,
            "max_open_per_member": self.max_open_per_member,
            "max_open_per_server": self.max_open_per_server,
            "lobby_expiry_hours": self.lobby_expiry_hours,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ServerSettings:
        return cls(
            channels=tuple(int(c) for c in obj.get("channels", ())),
            host_role=obj.get("host_role"),
            language=obj.get("language"),
            max_open_per_member=obj.get("max_open_per_member"),
            max_open_per_server=obj.get("max_open_per_server"),
            lobby_expiry_hours=obj.get("lobby_expiry_hours"),
        )


def check_may_open(
    settings: ServerSettings,
    *,
    channel_ids: Collection[int],
    role_ids: Collection[int],
    admin: bool,
    member_open: int,
    server_open: int,
) -> None:
    """Refuse (:class:`ServiceError`) a new lobby the server's settings do not allow.
    ``channel_ids``: the channel asked from and its parent (a thread's channel)."""
    if settings.channels and not set(channel_ids) & set(settings.channels):
        raise ServiceError(
            "error.channel_not_allowed",
            channels=", ".join(f"<#{channel}>" for channel in settings.channels),
        )
    if settings.host_role is not None and not admin and settings.host_role not in role_ids:
        raise ServiceError("error.host_role_needed", role=f"<@&{settings.host_role}>")
    limit = settings.max_open_per_member
    if limit is not None and member_open >= limit:
        raise ServiceError("error.too_many_open_member", limit=limit)
    limit = settings.max_open_per_server
    if limit is not None and server_open >= limit:
        raise ServiceError("error.too_many_open_server", limit=limit)


class ServerSettingsStore:
    """Every server's settings in the database (a server never configured has defaults)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def get(self, guild_id: int) -> ServerSettings:
        rows = await self.storage.read(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return ServerSettings.from_json(json.loads(rows[0][0])) if rows else ServerSettings()

    async def set(self, guild_id: int, settings: ServerSettings) -> ServerSettings:
        checked = settings.checked()
        body = json.dumps(checked.to_json(), sort_keys=True)
        await self.storage.write_with(
            lambda connection: connection.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, body),
            ).close()
        )
        return checked

    async def open_counts(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """(the member's, the server's) lobbies and running games in this server, those of
        tournaments left out: a tournament opens its games itself, and refusing one
        mid-tournament would break it."""
        rows = await self.storage.read(
            "SELECT COUNT(DISTINCT game_tables.id),"
            " COUNT(DISTINCT CASE WHEN seats.user_id = ? THEN game_tables.id END)"
            " FROM game_tables LEFT JOIN seats ON seats.table_id = game_tables.id"
            " WHERE game_tables.guild_id = ? AND game_tables.status IN ('lobby', 'running')"
            " AND NOT EXISTS (SELECT 1 FROM tournament_tables"
            " WHERE tournament_tables.table_id = game_tables.id)",
            (user_id, guild_id),
        )
        return int(rows[0][1]), int(rows[0][0])

    async def expired_lobbies(self, now: float, shards: Shards = EVERY_SHARD) -> list[int]:
        """Lobbies (of servers on ``shards``) older than their server's expiry."""
        hours = self.storage.json_number("guild_settings.settings", "lobby_expiry_hours")
        rows = await self.storage.read(
            "SELECT game_tables.id FROM game_tables JOIN guild_settings"
            " ON guild_settings.guild_id = game_tables.guild_id WHERE game_tables.status = 'lobby'"
            f" AND {hours} IS NOT NULL AND game_tables.created_at + 3600 * {hours} <= ?"
            f" AND {shards.where('game_tables.guild_id')}"
            " ORDER BY game_tables.id",
            (now,),
        )
        return [int(row[0]) for row in rows]


__all__ = ["ServerSettings", "ServerSettingsStore", "check_may_open"]
