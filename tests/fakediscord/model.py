"""The fake Discord's world: users, guilds, channels, messages, commands, and their JSON.

Each entity renders itself the way Discord's API v10 does (`payload()`), so discord.py
parses the fake's answers and gateway events exactly as it parses Discord's. Entities also
carry the test-facing helpers (a guild adds channels and members, a channel denies the bot a
permission, a message lists its buttons); the user's actions (slash commands, clicks) live
on `User` and are built in `interactions.py`.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from .limits import walk_components

if TYPE_CHECKING:
    from .interactions import Interaction
    from .server import FakeDiscord

DISCORD_EPOCH_MS = 1_420_070_400_000
SHARD_SHIFT = 22
"""A snowflake's timestamp starts at this bit; Discord shards servers by it."""
EPHEMERAL = 1 << 6
LOADING = 1 << 7
HAS_THREAD = 1 << 5
USER_MENTION = re.compile(r"<@!?(\d+)>")


class ChannelType(IntEnum):
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class MessageType(IntEnum):
    DEFAULT = 0
    THREAD_CREATED = 18
    REPLY = 19
    CHAT_INPUT_COMMAND = 20


PERMISSIONS: dict[str, int] = {
    name: 1 << bit
    for bit, name in enumerate(
        [
            "create_instant_invite",
            "kick_members",
            "ban_members",
            "administrator",
            "manage_channels",
            "manage_guild",
            "add_reactions",
            "view_audit_log",
            "priority_speaker",
            "stream",
            "view_channel",
            "send_messages",
            "send_tts_messages",
            "manage_messages",
            "embed_links",
            "attach_files",
            "read_message_history",
            "mention_everyone",
            "use_external_emojis",
            "view_guild_insights",
            "connect",
            "speak",
            "mute_members",
            "deafen_members",
            "move_members",
            "use_voice_activation",
            "change_nickname",
            "manage_nicknames",
            "manage_roles",
            "manage_webhooks",
            "manage_expressions",
            "use_application_commands",
            "request_to_speak",
            "manage_events",
            "manage_threads",
            "create_public_threads",
            "create_private_threads",
            "use_external_stickers",
            "send_messages_in_threads",
        ]
    )
}
ALL_PERMISSIONS = sum(PERMISSIONS.values())


def permission_bits(names: Iterable[str]) -> int:
    bits = 0
    for name in names:
        if name not in PERMISSIONS:
            raise ValueError(f"unknown permission {name!r}; known: {sorted(PERMISSIONS)}")
        bits |= PERMISSIONS[name]
    return bits


EVERYONE_PERMISSIONS = permission_bits(
    [
        "create_instant_invite",
        "add_reactions",
        "view_channel",
        "send_messages",
        "embed_links",
        "attach_files",
        "read_message_history",
        "use_external_emojis",
        "connect",
        "speak",
        "use_voice_activation",
        "change_nickname",
        "use_application_commands",
        "create_public_threads",
        "create_private_threads",
        "use_external_stickers",
        "send_messages_in_threads",
    ]
)
DM_PERMISSIONS = permission_bits(
    ["view_channel", "send_messages", "embed_links", "attach_files", "read_message_history"]
)
BOT_ROLE_PERMISSIONS = permission_bits(
    [
        "view_channel",
        "send_messages",
        "send_messages_in_threads",
        "create_public_threads",
        "create_private_threads",
        "manage_threads",
        "embed_links",
        "attach_files",
        "read_message_history",
        "add_reactions",
        "use_external_emojis",
        "use_application_commands",
    ]
)


def iso(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).isoformat()


class Snowflakes:
    """Discord ids: milliseconds since 2015 in the high bits, a counter in the low ones."""

    def __init__(self) -> None:
        self._last = 0
        self._increment = itertools.count()

    def next(self, now: float) -> int:
        candidate = ((int(now * 1000) - DISCORD_EPOCH_MS) << 22) | (next(self._increment) & 0xFFF)
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on_shard(self, now: float, shard: int, count: int) -> int:
        """The next id that, as a server's id, lands on ``shard`` of ``count`` (moved a
        few milliseconds on where needed)."""
        snowflake = self.next(now)
        moved = snowflake + (((shard - (snowflake >> SHARD_SHIFT)) % count) << SHARD_SHIFT)
        self._last = max(self._last, moved)
        return moved


@dataclass(eq=False)
class User:
    """A Discord account: the bot, or a person the test acts as (see the action methods)."""

    fake: FakeDiscord
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    notices: list[Notice] = field(default_factory=list)
    locale: str = "en-US"
    """The language of the person's Discord client, sent with each of their interactions."""

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name.title(),
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }

    # Settings a person controls.

    def close_dms(self) -> None:
        """Refuse direct messages: the bot then gets error 50007 when it writes."""
        self.dms_open = False

    def open_dms(self) -> None:
        self.dms_open = True

    # What this person sees.

    def visible_messages(self, channel: Channel) -> list[Message]:
        """The messages of a channel as this user's client shows them, oldest first."""
        if not channel.visible_to(self):
            return []
        return [m for m in channel.messages if not m.deleted and m.visible_to(self)]

    def ephemerals(self) -> list[Message]:
        """Every ephemeral message addressed to this user, oldest first."""
        return [m for m in self.fake.all_messages() if m.ephemeral_to is self and not m.deleted]

    def dms(self) -> list[Message]:
        """The messages of this user's direct-message channel with the bot."""
        channel = self.fake.dm_channel_of(self)
        return [] if channel is None else self.visible_messages(channel)

    def failures(self) -> list[Notice]:
        """The "This interaction failed" notices this user saw."""
        return [n for n in self.notices if n.kind == "interaction_failed"]

    # Actions (implemented in interactions.py).

    async def slash(self, channel: Channel, command: str, **options: Any) -> Interaction:
        """Run a slash command, e.g. `slash(ch, "race new", seats=3)`."""
        return await self.fake.interactions.slash(self, channel, command, options)

    async def forge_slash(self, channel: Channel, command: str, **options: Any) -> Interaction:
        """Send a slash command where the Discord client would not offer it (a DM for a
        server-only command, missing permissions), or with values outside an option's
        choices, range or length: a modified client, or a command list Discord has not
        refreshed yet."""
        return await self.fake.interactions.slash(self, channel, command, options, forged=True)

    async def forge(
        self,
        channel: Channel,
        custom_id: str,
        *,
        values: list[str] | None = None,
        fields: dict[str, str] | None = None,
        source: Message | None = None,
    ) -> Interaction:
        """Send a component (a select with ``values``) or, with ``fields``, a modal
        submission with any custom_id, as a modified client can."""
        return await self.fake.interactions.forge(
            self, channel, custom_id, values=values, fields=fields, source=source
        )

    async def autocomplete(
        self, channel: Channel, command: str, focused: str, value: str, **options: Any
    ) -> Interaction:
        """Type `value` into option `focused` of a slash command and ask for suggestions."""
        return await self.fake.interactions.autocomplete(
            self, channel, command, focused, value, options
        )

    async def click(
        self, message: Message, custom_id: str | None = None, *, label: str | None = None
    ) -> Interaction:
        """Click a button of a message, found by custom_id or by its label."""
        return await self.fake.interactions.click(self, message, custom_id, label)

    async def select(self, message: Message, custom_id: str, values: list[str]) -> Interaction:
        """Pick options (their values) in a select menu of a message."""
        return await self.fake.interactions.select(self, message, custom_id, values)

    async def submit_modal(
        self, opened_by: Interaction, values: dict[str, str | list[str]]
    ) -> Interaction:
        """Fill in and submit the modal the bot showed in answer to `opened_by`."""
        return await self.fake.interactions.submit_modal(self, opened_by, values)

    async def say(self, channel: Channel, content: str) -> Message:
        """Post an ordinary message in a channel."""
        return self.fake.post_user_message(self, channel, content)


@dataclass(frozen=True)
class Notice:
    """Something the Discord client showed one user outside any message."""

    kind: str
    text: str
    interaction_id: int


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int
    managed: bool = False
    bot_id: int | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class Member:
    user: User
    joined_at: float
    roles: list[Role] = field(default_factory=list)

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(role.id) for role in self.roles],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass(eq=False)
class Guild:
    """A server. Add channels and members to it; the bot is always a member."""

    fake: FakeDiscord
    id: int
    name: str
    owner: User
    created_at: float
    everyone: Role
    bot_role: Role
    members: dict[int, Member] = field(default_factory=dict)
    channels: list[Channel] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
    """Roles beyond @everyone and the bot's own."""
    preferred_locale: str = "en-US"
    """The server's language (Server Settings → Community), sent as ``guild_locale``."""

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"

    def add_role(self, name: str, *permissions: str) -> Role:
        """A new role (no member holds it yet); the bot is told with GUILD_ROLE_CREATE."""
        role = Role(self.fake.snowflake(), name, permission_bits(permissions), 2 + len(self.roles))
        self.roles.append(role)
        self.fake.dispatch_guild_event("GUILD_ROLE_CREATE", self, self._role_event(role))
        return role

    def give_role(self, user: User, role: Role) -> None:
        """A member is given a role: their next interactions carry it (the bot, without the
        members intent, gets no member update)."""
        member = self.members[user.id]
        if role not in member.roles:
            member.roles.append(role)

    def take_role(self, user: User, role: Role) -> None:
        """A member loses a role: their next interactions no longer carry it."""
        member = self.members[user.id]
        if role in member.roles:
            member.roles.remove(role)

    def add_text_channel(self, name: str) -> Channel:
        """A new text channel; the bot is told with CHANNEL_CREATE if it is connected."""
        return self.fake.create_text_channel(self, name)

    def add_member(self, who: str | User) -> User:
        """A person joins the server; returns the user to act as."""
        return self.fake.add_member(self, who)

    def member(self, user: User) -> Member:
        return self.members[user.id]

    def set_bot_permissions(self, *names: str) -> None:
        """Replace the bot role's guild-wide permissions."""
        self.bot_role.permissions = permission_bits(names)
        self.fake.dispatch_guild_event("GUILD_ROLE_UPDATE", self, self._role_event(self.bot_role))

    def _role_event(self, role: Role) -> dict[str, Any]:
        return {"guild_id": str(self.id), "role": role.payload()}

    def threads(self) -> list[Channel]:
        return [c for c in self.channels if c.is_thread]

    def payload(self, *, include_members: bool) -> dict[str, Any]:
        members = list(self.members.values())
        if not include_members:
            members = [m for m in members if m.user.bot]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                self.everyone.payload(),
                self.bot_role.payload(),
                *(role.payload() for role in self.roles),
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.preferred_locale,
            "nsfw_level": 0,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": iso(self.members[self.fake.bot_user.id].joined_at),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "presences": [],
            "members": [m.payload() for m in members],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            "threads": [c.payload() for c in self.channels if c.is_thread and not c.archived],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "lazy": True,
        }

    def base_permissions(self, user: User) -> int:
        if user is self.owner:
            return ALL_PERMISSIONS
        member = self.members.get(user.id)
        if member is None:
            return 0
        bits = self.everyone.permissions
        for role in member.roles:
            bits |= role.permissions
        if bits & PERMISSIONS["administrator"]:
            return ALL_PERMISSIONS
        return bits


@dataclass
class Overwrite:
    target_id: int
    is_member: bool
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.target_id),
            "type": 1 if self.is_member else 0,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    """A text channel, a thread, or a direct-message channel."""

    fake: FakeDiscord
    id: int
    type: ChannelType
    name: str
    guild: Guild | None = None
    parent: Channel | None = None
    position: int = 0
    recipient: User | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    # Threads only.
    owner: User | None = None
    created_at: float = 0.0
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    thread_members: set[int] = field(default_factory=set)
    starter_message: Message | None = None

    def __repr__(self) -> str:
        return f"<Channel #{self.name} {self.id} {self.type.name}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def deny_bot(self, *names: str) -> None:
        """Take permissions from the bot in this channel (a member overwrite), e.g.
        `deny_bot("send_messages")`; the bot then gets 403 / 50013 (50001 without
        view_channel) and sees the change in CHANNEL_UPDATE."""
        self.deny(self.fake.bot_user, *names)

    def allow_bot(self, *names: str) -> None:
        self.allow(self.fake.bot_user, *names)

    def deny(self, target: Role | User, *names: str) -> None:
        """Take permissions in this channel from a role (``guild.everyone`` for @everyone)
        or a member: a permission overwrite (on a thread, its parent's), which the bot sees
        in CHANNEL_UPDATE, as Discord sends it. E.g. a private channel:
        `deny(guild.everyone, "view_channel")`, then `allow(role, "view_channel")`."""
        overwrite = self._overwrite(target)
        overwrite.deny |= permission_bits(names)
        overwrite.allow &= ~permission_bits(names)
        self.fake.dispatch_channel_update(self.parent if self.parent is not None else self)

    def allow(self, target: Role | User, *names: str) -> None:
        """Give permissions in this channel to a role or a member (see :meth:`deny`)."""
        overwrite = self._overwrite(target)
        overwrite.allow |= permission_bits(names)
        overwrite.deny &= ~permission_bits(names)
        self.fake.dispatch_channel_update(self.parent if self.parent is not None else self)

    def _overwrite(self, target: Role | User) -> Overwrite:
        source = self.parent if self.parent is not None else self
        is_member = isinstance(target, User)
        for overwrite in source.overwrites:
            if overwrite.is_member == is_member and overwrite.target_id == target.id:
                return overwrite
        overwrite = Overwrite(target.id, is_member=is_member)
        source.overwrites.append(overwrite)
        return overwrite

    def permissions_for(self, user: User) -> int:
        """Discord's permission computation: base, then @everyone, role and member overwrites."""
        if self.type == ChannelType.DM:
            return DM_PERMISSIONS
        assert self.guild is not None
        source = self.parent if self.parent is not None else self
        bits = self.guild.base_permissions(user)
        if bits == ALL_PERMISSIONS:
            return bits
        member = self.guild.members.get(user.id)
        role_ids = {role.id for role in member.roles} if member else set()
        allow = deny = 0
        for overwrite in source.overwrites:
            if not overwrite.is_member and overwrite.target_id == self.guild.id:
                bits = (bits & ~overwrite.deny) | overwrite.allow
        for overwrite in source.overwrites:
            if not overwrite.is_member and overwrite.target_id in role_ids:
                allow |= overwrite.allow
                deny |= overwrite.deny
        bits = (bits & ~deny) | allow
        for overwrite in source.overwrites:
            if overwrite.is_member and overwrite.target_id == user.id:
                bits = (bits & ~overwrite.deny) | overwrite.allow
        if not bits & PERMISSIONS["view_channel"]:
            return 0
        if not bits & PERMISSIONS["send_messages"]:
            bits &= ~permission_bits(
                ["send_tts_messages", "mention_everyone", "embed_links", "attach_files"]
            )
        return bits

    def visible_to(self, user: User) -> bool:
        if self.type == ChannelType.DM:
            return user is self.recipient or user.bot
        if not self.permissions_for(user) & PERMISSIONS["view_channel"]:
            return False
        if self.type == ChannelType.PRIVATE_THREAD and not user.bot:
            manages = self.permissions_for(user) & PERMISSIONS["manage_threads"]
            return user.id in self.thread_members or bool(manages)
        return True

    def public_messages(self) -> list[Message]:
        return [m for m in self.messages if not m.deleted and m.ephemeral_to is None]

    def last_message_id(self) -> str | None:
        for message in reversed(self.messages):
            if message.ephemeral_to is None:
                return str(message.id)
        return None

    def payload(self) -> dict[str, Any]:
        if self.type == ChannelType.DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": int(self.type),
                "last_message_id": self.last_message_id(),
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        assert self.guild is not None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": int(self.type),
            "guild_id": str(self.guild.id),
            "name": self.name,
            "last_message_id": self.last_message_id(),
            "rate_limit_per_user": 0,
            "flags": 0,
            "nsfw": False,
        }
        if self.is_thread:
            assert self.parent is not None and self.owner is not None
            visible = sum(1 for m in self.messages if m.ephemeral_to is None)
            metadata: dict[str, Any] = {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": iso(self.created_at),
                "locked": self.locked,
                "create_timestamp": iso(self.created_at),
            }
            if self.type == ChannelType.PRIVATE_THREAD:
                metadata["invitable"] = True
            data.update(
                parent_id=str(self.parent.id),
                owner_id=str(self.owner.id),
                message_count=visible,
                total_message_sent=visible,
                member_count=min(len(self.thread_members), 50),
                thread_metadata=metadata,
                applied_tags=[],
            )
        else:
            data.update(
                position=self.position,
                permission_overwrites=[o.payload() for o in self.overwrites],
                parent_id=None,
                topic=None,
                default_thread_rate_limit_per_user=0,
            )
        return data

    def thread_member_payload(self, user: User) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "user_id": str(user.id),
            "join_timestamp": iso(self.created_at),
            "flags": 0,
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None
    ephemeral: bool = False

    def image_size(self) -> tuple[int, int] | None:
        """Width and height if the file is a PNG image, read from its IHDR chunk."""
        if self.data[:8] != b"\x89PNG\r\n\x1a\n" or self.data[12:16] != b"IHDR":
            return None
        width, height = struct.unpack(">II", self.data[16:24])
        return int(width), int(height)

    def payload(self, fake: FakeDiscord, channel_id: int) -> dict[str, Any]:
        url = f"{fake.http_base}/attachments/{channel_id}/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        size = self.image_size()
        if size is not None:
            data["width"], data["height"] = size
        if self.description is not None:
            data["description"] = self.description
        if self.ephemeral:
            data["ephemeral"] = True
        return data


@dataclass(eq=False)
class Message:
    """A message as Discord stores it; `revisions` keeps every earlier state."""

    fake: FakeDiscord
    id: int
    channel: Channel
    author: User
    created_at: float
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: MessageType = MessageType.DEFAULT
    ephemeral_to: User | None = None
    interaction: Interaction | None = None
    thread: Channel | None = None
    edited_at: float | None = None
    deleted: bool = False
    revisions: list[dict[str, Any]] = field(default_factory=list)
    pinged: frozenset[int] = frozenset()
    """The users this message notified when its content was first posted: those its
    content mentions, as far as its ``allowed_mentions`` let them (all without it)."""

    def __repr__(self) -> str:
        ephemeral = f" ephemeral to {self.ephemeral_to.name}" if self.ephemeral_to else ""
        return f"<Message {self.id} in #{self.channel.name}{ephemeral}: {self.content[:40]!r}>"

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        """Still the "is thinking…" placeholder of a deferred interaction response."""
        return bool(self.flags & LOADING)

    @property
    def edit_count(self) -> int:
        return len(self.revisions)

    def visible_to(self, user: User) -> bool:
        return self.ephemeral_to is None or self.ephemeral_to is user

    def note_pings(self, body: dict[str, Any]) -> None:
        """Whom the content posted with ``body`` notifies, as Discord decides it: the
        users mentioned, filtered by ``allowed_mentions`` (``parse`` with ``users``: all;
        a ``users`` list: those; neither: none). An ephemeral message notifies nobody."""
        if self.ephemeral_to is not None:
            return
        named = {int(user) for user in USER_MENTION.findall(self.content)}
        allowed = body.get("allowed_mentions")
        if allowed is not None and "users" not in (allowed.get("parse") or []):
            named &= {int(user) for user in allowed.get("users") or []}
        self.pinged = frozenset(named)

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": [dict(e) for e in self.embeds],
            "components": list(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    # Reading components.

    def all_components(self) -> Iterator[dict[str, Any]]:
        return walk_components(self.components)

    def component(self, custom_id: str) -> dict[str, Any]:
        for component in self.all_components():
            if component.get("custom_id") == custom_id:
                return component
        raise LookupError(f"{self!r} has no component {custom_id!r}; it has {self.custom_ids()}")

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if c.get("custom_id")]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def button(self, label: str) -> dict[str, Any]:
        for button in self.buttons():
            if button.get("label") == label:
                return button
        labels = [b.get("label") for b in self.buttons()]
        raise LookupError(f"{self!r} has no button labelled {label!r}; it has {labels}")

    def text(self) -> str:
        """Every piece of text a reader can see: content, embeds, component labels."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [(embed.get("footer") or {}).get("text") or ""]
            parts += [(embed.get("author") or {}).get("name") or ""]
            for embed_field in embed.get("fields") or []:
                parts += [embed_field.get("name") or "", embed_field.get("value") or ""]
        for component in self.all_components():
            parts += [component.get("label") or "", component.get("placeholder") or ""]
            parts += [component.get("content") or ""]
            for option in component.get("options") or []:
                parts += [option.get("label") or "", option.get("description") or ""]
        return "\n".join(p for p in parts if p)

    def payload(self, *, for_gateway: bool = False) -> dict[str, Any]:
        fake = self.fake
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": None if self.edited_at is None else iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(fake, self.channel.id) for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": int(self.type),
            "flags": self.flags | (HAS_THREAD if self.thread is not None else 0),
            "components": self.components,
        }
        if self.channel.is_thread:
            data["position"] = self.channel.messages.index(self)
        if self.interaction is not None:
            data["webhook_id"] = str(fake.application_id)
            data["application_id"] = str(fake.application_id)
            data["interaction_metadata"] = self.interaction.metadata_payload(self)
            if self.interaction.type == 2:
                data["interaction"] = {
                    "id": str(self.interaction.id),
                    "type": self.interaction.type,
                    "name": self.interaction.command_name,
                    "user": self.interaction.user.payload(),
                }
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        guild = self.channel.guild
        if for_gateway and guild is not None:
            data["guild_id"] = str(guild.id)
            member = guild.members.get(self.author.id)
            if member is not None:
                data["member"] = member.payload(with_user=False)
        return data


@dataclass(eq=False)
class Command:
    """An application command the bot registered, with the id Discord gave it."""

    id: int
    application_id: int
    guild: Guild | None
    version: int
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type") or 1)

    def payload(self) -> dict[str, Any]:
        data = {
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "type": 1,
            **{k: v for k, v in self.data.items() if v is not None},
            "id": str(self.id),
            "application_id": str(self.application_id),
            "version": str(self.version),
        }
        if self.data.get("default_member_permissions"):
            data["default_member_permissions"] = str(self.data["default_member_permissions"])
        if self.guild is not None:
            data["guild_id"] = str(self.guild.id)
        if self.guild is None:
            data.setdefault("integration_types", [0])
            data.setdefault("contexts", None)
        return data
