"""`FakeDiscord`: the server (REST + Gateway on 127.0.0.1) and the world it serves.

Start it in the test's event loop with `fake = await FakeDiscord.start()`, build a guild,
channels and members, point discord.py at `fake.api_base` / `fake.gateway_url` (see
`harness.py` and `launch.py`), then act as users through `User` (see `model.py`) and read
what each user sees. Every REST call is logged in `fake.requests`; everything the bot did
that Discord would refuse, or that failed a user, is in `fake.violations`.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from . import spec
from .clock import FakeClock, Timer
from .errors import ApiError, RequestRecord, Upload, Violation
from .gateway import DIRECT_MESSAGES, GUILD_MESSAGES, GUILDS, MESSAGE_CONTENT, Gateway
from .interactions import ClientRefused, Interaction, Interactions
from .limits import Problem, walk_components
from .model import (
    BOT_ROLE_PERMISSIONS,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    LOADING,
    Attachment,
    Channel,
    ChannelType,
    Command,
    Guild,
    Member,
    Message,
    MessageType,
    Role,
    Snowflakes,
    User,
)
from .rest import FAULT_KINDS, FaultScript, RandomFaults, RateLimitScript, Rest

POLL_INTERVAL = 0.02
SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2 = 1 << 2, 1 << 12, 1 << 15
CREATE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2 | EPHEMERAL | LOADING


NONCE_WINDOW = 300.0
"""Seconds during which Discord refuses a duplicate of an enforced nonce."""


class FakeDiscord:
    """A fake Discord for one test: one application and its bot user, any number of guilds."""

    def __init__(
        self,
        *,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        heartbeat_interval: float = 41.25,
        privileged_intents: Iterable[str] = (),
        shards_required: int = 1,
    ) -> None:
        self.interaction_deadline = interaction_deadline
        self.token_lifetime = token_lifetime
        self.heartbeat_interval_ms = int(heartbeat_interval * 1000)
        self.privileged_intents = frozenset(privileged_intents)
        self.shards_required = shards_required
        """Fewer shards than this are refused (4011), as for a bot in many servers."""
        self.clock = FakeClock()
        self.nonces: dict[tuple[int, str], Message] = {}
        self._ids = Snowflakes()
        self.application_id = self.snowflake()
        self.token = f"fake.{self.application_id}.{secrets.token_urlsafe(24)}"
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self._archive_timers: dict[int, Timer] = {}
        self.commands: list[Command] = []
        self.violations: list[Violation] = []
        self.requests: list[RequestRecord] = []
        self.bot_user = User(self, self.application_id, "circus", bot=True)
        self.users[self.bot_user.id] = self.bot_user
        self.interactions = Interactions(self)
        self.gateway = Gateway(self)
        self.rest = Rest(self)
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.http_base = ""

    # Server lifecycle.

    @classmethod
    async def start(cls, **options: Any) -> FakeDiscord:
        fake = cls(**options)
        await fake._serve()
        return fake

    async def _serve(self) -> None:
        spec.warm_up()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._file)
        app.router.add_route("*", "/api/{tail:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.base_events.Server)
        port = server.sockets[0].getsockname()[1]
        self.http_base = f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        self.clock.close()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        if self._runner is None:
            await self._serve()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def api_base(self) -> str:
        """What discord.py's `Route.BASE` must be set to."""
        return f"{self.http_base}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway URL (`GET /gateway/bot`, `resume_gateway_url`)."""
        return self.http_base.replace("http://", "ws://", 1) + "/gateway"

    def bot_env(self) -> dict[str, str]:
        """Environment variables for a bot subprocess started through `launch.py`."""
        return {
            "DISCORD_TOKEN": self.token,
            "FAKEDISCORD_API_BASE": self.api_base,
            "FAKEDISCORD_GATEWAY": self.gateway_url,
        }

    async def _file(self, request: web.Request) -> web.StreamResponse:
        channel = self.channels.get(int(request.match_info["channel_id"]))
        wanted = request.match_info["attachment_id"]
        for message in channel.messages if channel else []:
            for attachment in message.attachments:
                if str(attachment.id) == wanted:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        raise web.HTTPNotFound()

    # Waiting.

    def notify(self) -> None:
        """Wake everything waiting in `wait_for` to re-check its condition."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], object], timeout: float = 5.0, what: str = "a condition"
    ) -> None:
        """Wait until `predicate()` is true, re-checking after every change in the fake
        (and every `POLL_INTERVAL`, for conditions on an in-process bot's own state)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n  ".join(repr(r) for r in self.requests[-8:]) or "(none)"
                problems = "\n  ".join(str(v) for v in self.violations) or "(none)"
                raise TimeoutError(
                    f"timed out after {timeout:g} s waiting for {what}\n"
                    f"recent requests:\n  {recent}\nviolations:\n  {problems}"
                )
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, POLL_INTERVAL))

    async def wait_until_ready(self, timeout: float = 10.0) -> None:
        """Wait until a bot has identified on the gateway and been sent its guilds."""
        await self.wait_for(
            lambda: any(s.ready and s.connection for s in self.gateway.live_sessions()),
            timeout,
            "the bot to connect to the gateway",
        )

    async def wait_for_command(
        self, name: str, guild: Guild | None = None, timeout: float = 10.0
    ) -> Command:
        """Wait until the bot has registered the slash command `name` (global or guild)."""
        await self.wait_for(
            lambda: self.command(name, guild) is not None, timeout, f"command /{name}"
        )
        command = self.command(name, guild)
        assert command is not None
        return command

    async def wait_for_requests(
        self, method: str, route: str, count: int = 1, timeout: float = 5.0
    ) -> list[RequestRecord]:
        """Wait until the bot has made `count` calls to a route; return them."""
        await self.wait_for(
            lambda: len(self.requests_for(method, route)) >= count,
            timeout,
            f"{count} × {method} {route}",
        )
        return self.requests_for(method, route)

    # Ids.

    def snowflake(self) -> int:
        return self._ids.next(self.clock.now())

    # The world: users, guilds, channels.

    def add_user(self, name: str) -> User:
        user = User(self, self.snowflake(), name)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Circus",
        *,
        owner: User | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild with the bot as a member (its role holds the usual invite permissions);
        with ``shard=(shard_id, num_shards)``, one whose id lands on that shard."""
        if shard is None:
            guild_id = self.snowflake()
        else:
            guild_id = self._ids.next_on_shard(self.clock.now(), *shard)
        owner = owner or self.add_user(f"{name.lower()}-owner")
        everyone = Role(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0)
        bot_role = Role(
            self.snowflake(), self.bot_user.name, BOT_ROLE_PERMISSIONS, 1, True, self.bot_user.id
        )
        guild = Guild(self, guild_id, name, owner, self.clock.now(), everyone, bot_role)
        self.guilds[guild.id] = guild
        now = self.clock.now()
        guild.members[owner.id] = Member(owner, now)
        guild.members[self.bot_user.id] = Member(self.bot_user, now, [bot_role])
        self.gateway.dispatch_guild_create(guild)
        self.notify()
        return guild

    def add_member(self, guild: Guild, who: str | User) -> User:
        user = self.add_user(who) if isinstance(who, str) else who
        if user.id not in guild.members:
            guild.members[user.id] = Member(user, self.clock.now())
        self.notify()
        return user

    def create_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            self,
            self.snowflake(),
            ChannelType.GUILD_TEXT,
            name,
            guild=guild,
            position=len(guild.channels),
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self.gateway.dispatch("CHANNEL_CREATE", channel.payload(), GUILDS)
        self.notify()
        return channel

    def open_dm_channel(self, user: User) -> Channel:
        existing = self.dm_channel_of(user)
        if existing is not None:
            return existing
        channel = Channel(self, self.snowflake(), ChannelType.DM, user.name, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def dm_channel_of(self, user: User) -> Channel | None:
        for channel in self.channels.values():
            if channel.type == ChannelType.DM and channel.recipient is user:
                return channel
        return None

    def create_thread(
        self, parent: Channel, body: dict[str, Any], kind: ChannelType, starter: Message | None
    ) -> Channel:
        assert parent.guild is not None
        now = self.clock.now()
        thread = Channel(
            self,
            starter.id if starter is not None else self.snowflake(),
            kind,
            body["name"],
            guild=parent.guild,
            parent=parent,
            owner=self.bot_user,
            created_at=now,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            thread_members={self.bot_user.id},
            starter_message=starter,
        )
        parent.guild.channels.append(thread)
        self.channels[thread.id] = thread
        self.touch_thread(thread)
        data = thread.payload() | {
            "newly_created": True,
            "member": thread.thread_member_payload(self.bot_user),
        }
        self.gateway.dispatch("THREAD_CREATE", data, GUILDS)
        if starter is not None:
            starter.thread = thread
            self._dispatch_message("MESSAGE_UPDATE", starter)
        elif kind == ChannelType.PUBLIC_THREAD:
            self.new_message(parent, {"content": thread.name}, [], type=MessageType.THREAD_CREATED)
        self.notify()
        return thread

    def touch_thread(self, thread: Channel) -> None:
        """Restart a thread's inactivity countdown: it archives itself after
        `auto_archive_duration` minutes without a message, as Discord does."""
        timer = self._archive_timers.pop(thread.id, None)
        if timer is not None:
            timer.cancel()
        if thread.archived:
            return
        due = self.clock.now() + thread.auto_archive_duration * 60.0
        self._archive_timers[thread.id] = self.clock.call_at(
            due, lambda: self._auto_archive(thread)
        )

    def _auto_archive(self, thread: Channel) -> None:
        self._archive_timers.pop(thread.id, None)
        if not thread.archived:
            thread.archived = True
            self.dispatch_channel_update(thread)

    def dispatch_channel_update(self, channel: Channel) -> None:
        if channel.type == ChannelType.DM:
            return
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        self.gateway.dispatch(event, channel.payload(), GUILDS)
        self.notify()

    def dispatch_guild_event(self, event: str, guild: Guild, data: dict[str, Any]) -> None:
        del guild
        self.gateway.dispatch(event, data, GUILDS)
        self.notify()

    def dispatch_interaction(self, interaction: Interaction) -> None:
        self.gateway.dispatch("INTERACTION_CREATE", interaction.payload())
        self.notify()

    # Commands.

    def set_commands(self, guild: Guild | None, bodies: list[dict[str, Any]]) -> list[Command]:
        """Bulk overwrite: commands keep their id when their name and type stay."""
        old = {(c.name, c.type): c for c in self.commands if c.guild is guild}
        kept = [c for c in self.commands if c.guild is not guild]
        new = []
        for body in bodies:
            key = (body["name"], int(body.get("type") or 1))
            previous = old.get(key)
            if previous is not None and previous.data == body:
                new.append(previous)
                continue
            ident = previous.id if previous is not None else self.snowflake()
            version = self.snowflake()
            new.append(Command(ident, self.application_id, guild, version, copy.deepcopy(body)))
        self.commands = kept + new
        return new

    def commands_for(self, guild: Guild | None) -> list[Command]:
        """The commands a user can see in a guild (guild ones first) or in DMs (global)."""
        scoped = [c for c in self.commands if guild is not None and c.guild is guild]
        return scoped + [c for c in self.commands if c.guild is None]

    def command(self, name: str, guild: Guild | None = None) -> Command | None:
        for command in self.commands:
            if command.name == name and (command.guild is None or command.guild is guild):
                return command
        return None

    def commands_payload(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The registered commands as the bot sent them, e.g. to register them elsewhere."""
        return [copy.deepcopy(c.data) for c in self.commands if c.guild is guild]

    # Messages.

    def all_messages(self) -> list[Message]:
        return sorted(self.messages.values(), key=lambda m: m.id)

    def public_messages(self, channel: Channel | None = None) -> list[Message]:
        """Messages everyone who can see the channel sees (not ephemeral, not deleted)."""
        found = self.all_messages() if channel is None else channel.messages
        return [m for m in found if not m.deleted and m.ephemeral_to is None]

    def message_with_nonce(self, channel: Channel, nonce: str) -> Message | None:
        """The bot's message created with this nonce in the last few minutes, if any: with
        ``enforce_nonce`` Discord returns it instead of posting again."""
        found = self.nonces.get((channel.id, nonce))
        if found is None or self.clock.now() - found.created_at > NONCE_WINDOW:
            return None
        return found

    def remember_nonce(self, message: Message, nonce: str) -> None:
        self.nonces[(message.channel.id, nonce)] = message

    def new_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        ephemeral_to: User | None = None,
        interaction: Interaction | None = None,
        type: MessageType = MessageType.DEFAULT,
        author: User | None = None,
    ) -> Message:
        message = Message(
            self,
            self.snowflake(),
            channel,
            author or self.bot_user,
            self.clock.now(),
            type=type,
            ephemeral_to=ephemeral_to,
            interaction=interaction,
        )
        message.flags = (body.get("flags") or 0) & CREATE_FLAGS
        self._apply(message, body, uploads)
        message.note_pings(body)
        channel.messages.append(message)
        self.messages[message.id] = message
        if channel.is_thread:
            self.touch_thread(channel)
        if ephemeral_to is None:
            self._dispatch_message("MESSAGE_CREATE", message)
        self.notify()
        return message

    def edit_message(self, message: Message, body: dict[str, Any], uploads: list[Upload]) -> None:
        message.revisions.append(message.snapshot())
        flags = body.get("flags")
        if flags is not None:
            kept = message.flags & ~SUPPRESS_EMBEDS
            message.flags = kept | (flags & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
        self._apply(message, body, uploads)
        message.edited_at = self.clock.now()
        if message.ephemeral_to is None:
            self._dispatch_message("MESSAGE_UPDATE", message)
        self.notify()

    def fill_message(
        self, message: Message, body: dict[str, Any], uploads: list[Upload], flags: int
    ) -> None:
        """Complete a deferred ("thinking") response: its first real content."""
        self._apply(message, body, uploads)
        message.note_pings(body)
        kept = message.flags & EPHEMERAL
        message.flags = kept | (
            flags & (SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2)
        )
        if message.ephemeral_to is None:
            self._dispatch_message("MESSAGE_UPDATE", message)
        self.notify()

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        if message.ephemeral_to is None:
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
            self.gateway.dispatch("MESSAGE_DELETE", data, self._message_intent(message))
        self.notify()

    def post_user_message(self, user: User, channel: Channel, content: str) -> Message:
        if channel.type == ChannelType.DM and channel.recipient is not user:
            raise ClientRefused(f"{user!r} is not in {channel!r}")
        if channel.guild is not None and not channel.permissions_for(user) & (1 << 11):
            raise ClientRefused(f"{user!r} may not post in {channel!r}")
        return self.new_message(channel, {"content": content}, [], author=user)

    def _apply(self, message: Message, body: dict[str, Any], uploads: list[Upload]) -> None:
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = [_normalize_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            message.components = _number_components(body["components"] or [])
        if "attachments" in body or uploads:
            message.attachments = self._attachments(message, body.get("attachments"), uploads)

    def _attachments(
        self, message: Message, wanted: list[dict[str, Any]] | None, uploads: list[Upload]
    ) -> list[Attachment]:
        by_index: dict[int, Upload] = {}
        for position, upload in enumerate(uploads):
            name = upload.field_name
            index = (
                int(name[6:-1]) if name.startswith("files[") and name.endswith("]") else position
            )
            by_index[index] = upload
        existing = {a.id: a for a in message.attachments}
        result: list[Attachment] = []
        used: set[int] = set()
        for entry in wanted if wanted is not None else [{"id": a} for a in existing]:
            ident = int(entry["id"])
            if ident in existing:
                result.append(existing[ident])
            elif ident in by_index:
                upload = by_index[ident]
                used.add(ident)
                result.append(self._attachment(message, upload, entry))
            else:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    violation=f"attachments: id {ident} is neither kept nor uploaded",
                )
        for index, upload in sorted(by_index.items()):
            if index not in used:
                result.append(self._attachment(message, upload, {}))
        return result

    def _attachment(self, message: Message, upload: Upload, entry: dict[str, Any]) -> Attachment:
        return Attachment(
            self.snowflake(),
            entry.get("filename") or upload.filename,
            upload.content_type,
            upload.data,
            entry.get("description"),
            ephemeral=message.ephemeral,
        )

    def _message_intent(self, message: Message) -> int:
        return DIRECT_MESSAGES if message.channel.type == ChannelType.DM else GUILD_MESSAGES

    def _dispatch_message(self, event: str, message: Message) -> None:
        data = message.payload(for_gateway=True)
        intent = self._message_intent(message)
        if message.author.bot or message.channel.type == ChannelType.DM:
            self.gateway.dispatch(event, data, intent)
            return
        mentioned = self.bot_user.mention in message.content
        for session in self.gateway.receivers(event, data, intent):
            if session.wants(MESSAGE_CONTENT) or mentioned:
                session.dispatch(event, data)
            else:
                hidden = data | {"content": "", "embeds": [], "attachments": []}
                session.dispatch(event, hidden | {"components": []})

    # Violations, rate limits, request log.

    def record_violation(
        self, kind: str, message: str, method: str = "", path: str = "", body: Any = None
    ) -> None:
        self.violations.append(Violation(kind, message, method, path, body))
        self.notify()

    def take_violations(self) -> list[Violation]:
        """The violations so far, cleared: for tests that provoke them on purpose."""
        taken, self.violations = self.violations, []
        return taken

    def raise_for_problems(self, problems: list[Problem]) -> None:
        if not problems:
            return
        first = problems[0]
        errors: dict[str, Any] = {}
        for problem in problems:
            errors[problem.path] = {"_errors": [{"code": "LIMIT", "message": problem.message}]}
        text = "; ".join(str(p) for p in problems)
        if first.code == 50006:
            raise ApiError(400, 50006, first.message, violation=f"limit: {text}")
        if first.code == 40005:
            raise ApiError(413, 40005, first.message, violation=f"limit: {text}")
        raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=f"limit: {text}")

    @staticmethod
    def file_facts(uploads: list[Upload]) -> dict[str, Any]:
        return {"files": len(uploads), "file_sizes": tuple(len(u.data) for u in uploads)}

    def script_rate_limit(
        self,
        method: str,
        route: str,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> None:
        """Answer the next `times` calls to `method route` (a template such as
        "/channels/{channel_id}/messages") with 429 and `retry_after` seconds."""
        self.rest.rate_limits.append(
            RateLimitScript(method.upper(), route, times, retry_after, is_global)
        )

    def inject_faults(
        self,
        method: str,
        route: str,
        *,
        times: int = 1,
        kind: str = "5xx",
        status: int = 503,
        hold: float = 1.0,
        skip: int = 0,
        only: Callable[[str], bool] | None = None,
    ) -> None:
        """Fail the next `times` calls to `method route`, after letting `skip` through
        (with `only`, just the calls whose path it takes):
        `kind` "5xx" answers `status` (503 by default: discord.py gives up on it at once;
        it retries 500, 502, 504 and 524 itself), "timeout" holds the request `hold`
        seconds and then drops the connection unanswered, "drop" drops it at once."""
        if kind not in FAULT_KINDS:
            raise ValueError(f"kind must be one of {FAULT_KINDS}")
        self.rest.faults.append(
            FaultScript(method.upper(), route, times, kind, status, hold, skip, only)
        )

    def random_faults(self, faults: RandomFaults | None) -> None:
        """Fail a share of requests at random (seeded); None stops it."""
        self.rest.random_faults = faults

    def requests_for(self, method: str, route: str) -> list[RequestRecord]:
        """Logged calls to a route template (parameter names do not matter)."""
        wanted = spec.normalize_template(route)
        return [
            r
            for r in self.requests
            if r.method == method.upper() and spec.normalize_template(r.route) == wanted
        ]

    # Gateway control.

    async def drop_gateway(self) -> None:
        """Cut the bot's gateway connection; it reconnects and resumes its session."""
        await self.gateway.drop()

    def request_reconnect(self) -> None:
        """Send opcode 7 RECONNECT: the bot reconnects and resumes."""
        self.gateway.request_reconnect()

    # Payloads.

    def bot_user_payload(self) -> dict[str, Any]:
        return self.bot_user.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
            "bio": "",
        }

    def application_payload(self) -> dict[str, Any]:
        owner = next(iter(self.guilds.values())).owner if self.guilds else self.bot_user
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": owner.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "install_params": None,
        }


def _normalize_embed(embed: dict[str, Any]) -> dict[str, Any]:
    data = {k: v for k, v in embed.items() if v is not None}
    data.setdefault("type", "rich")
    for field in data.get("fields") or []:
        field.setdefault("inline", False)
    return data


def _number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Discord gives every component of a message a numeric `id` if the bot did not."""
    tree = copy.deepcopy(components)
    used = {c["id"] for c in _walk(tree) if isinstance(c.get("id"), int)}
    counter = 1
    for component in _walk(tree):
        if component.get("id") is None:
            while counter in used:
                counter += 1
            component["id"] = counter
            used.add(counter)
    return tree


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(walk_components(components))
