"""The fake REST API v10, served under `/api/v10`.

Every request goes through the same steps, in Discord's order:

1. match an operation of Discord's OpenAPI specification (an unknown route is a violation);
2. parse the body: JSON, or multipart with `payload_json` and `files[n]` parts;
3. log it (`FakeDiscord.requests`);
4. answer a scripted rate limit with 429, `Retry-After`, `X-RateLimit-*`, `Via`, and the
   JSON body discord.py reads (`retry_after`, `global`);
5. check the `Authorization: Bot <token>` header (webhook and interaction routes carry their
   token in the path instead);
6. validate the body against the operation's request schema (a mismatch is a violation
   answered 400 / 50035 "Invalid Form Body");
7. run the fake's handler for the route; a route the specification knows but the fake does
   not implement is answered 404 and recorded as a violation, so gaps are never silent.

Between steps 3 and 4 the fake can fail a request the way Discord and its edge sometimes do
(`FakeDiscord.inject_faults`, `FakeDiscord.random_faults`): a 5xx answer, a request held
and then cut off (a timeout upstream), or a connection dropped at once. A failed request
changes nothing in the world.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from . import spec
from .errors import ApiError, RequestRecord, Upload
from .limits import check_commands, check_message
from .model import PERMISSIONS, Channel, ChannelType, Command, Message

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
TOKEN_FREE_PREFIXES = ("/webhooks/", "/interactions/")


@dataclass
class Call:
    """What a handler gets: the path parameters, query, body and uploaded files."""

    params: dict[str, str]
    query: dict[str, str]
    body: Any
    uploads: list[Upload]

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Handler = Callable[["Rest", Call], Awaitable[Any]]
ROUTES: dict[tuple[str, str], Handler] = {}
NO_CONTENT = object()


def route(method: str, template: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        ROUTES[(method, template)] = handler
        return handler

    return register


@dataclass
class RateLimitScript:
    method: str
    route: str
    times: int
    retry_after: float
    is_global: bool


FAULT_KINDS = ("5xx", "timeout", "drop")
SERVER_ERROR_BODY = {
    "message": "upstream connect error or disconnect/reset before headers",
    "code": 0,
}


@dataclass
class FaultScript:
    """Fail the next `times` calls to `method route` (after letting `skip` through): `kind`
    "5xx" answers `status`; "timeout" holds the request `hold` seconds, then drops the
    connection without an answer; "drop" drops it at once. With `only`, a call whose path
    it refuses passes untouched (and counts for neither `skip` nor `times`)."""

    method: str
    route: str
    times: int
    kind: str = "5xx"
    status: int = 503
    hold: float = 1.0
    skip: int = 0
    only: Callable[[str], bool] | None = None


@dataclass
class RandomFaults:
    """Fail each matching request with probability `rate`, drawing its kind from `kinds`
    with a seeded generator. `routes` are path prefixes (all routes if empty)."""

    rate: float
    seed: int = 1
    kinds: tuple[str, ...] = ("5xx",)
    routes: tuple[str, ...] = ()
    status: int = 503
    hold: float = 1.0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def draw(self, path: str) -> FaultScript | None:
        if self.routes and not path.startswith(self.routes):
            return None
        if self.rng.random() >= self.rate:
            return None
        kind = self.kinds[self.rng.randrange(len(self.kinds))]
        return FaultScript("", "", 1, kind, self.status, self.hold)


def _snowflake(text: str) -> int:
    if not text.isdigit():
        raise ApiError(404, 10003, "Unknown Channel")
    return int(text)


class Rest:
    """The request pipeline and the route handlers."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.rate_limits: list[RateLimitScript] = []
        self.faults: list[FaultScript] = []
        self.random_faults: RandomFaults | None = None
        self.faults_served: list[RequestRecord] = []

    async def handle(self, request: web.Request) -> web.StreamResponse:
        fake = self.fake
        path = request.path
        if not path.startswith(API_PREFIX + "/"):
            fake.record_violation("route", f"not API v10: {path}", request.method, path)
            return self._json(404, {"message": "404: Not Found", "code": 0})
        path = path[len(API_PREFIX) :]
        method = request.method
        matched, path_known = spec.match_route(method, path)
        query = dict(request.query)
        try:
            body, uploads = await self._read_body(request)
        except ApiError as error:
            record = RequestRecord(method, path, "", query, None, at=fake.clock.now())
            fake.requests.append(record)
            return self._error(error, record)
        template = matched.operation.template if matched else ""
        record = RequestRecord(method, path, template, query, body, uploads, at=fake.clock.now())
        fake.requests.append(record)
        try:
            if matched is None:
                status = 405 if path_known else 404
                raise ApiError(
                    status,
                    0,
                    f"{status}: Not Found" if status == 404 else "405: Method Not Allowed",
                    violation="no such route in Discord's API specification",
                )
            fault = self._fault(method, template, path)
            if fault is not None:
                return await self._fail(fault, request, record)
            limited = self._rate_limited(method, template)
            if limited is not None:
                return self._rate_limit_response(limited, record)
            if not path.startswith(TOKEN_FREE_PREFIXES) or path.count("/") < 3:
                self._authorize(request)
            self._validate(matched.operation, body, request)
            handler = ROUTES.get((method, template))
            if handler is None:
                raise ApiError(
                    404,
                    0,
                    "404: Not Found",
                    violation=f"{method} {template} is in Discord's API but not in the fake",
                )
            result = await handler(self, Call(matched.params, query, body, uploads))
        except ApiError as error:
            return self._error(error, record)
        except Exception:
            # A bug in the fake, not Discord behaviour: answered 400 so that discord.py does
            # not retry it like a 500, and recorded so that the test fails and says where.
            log.exception("fake Discord failed on %s %s", method, path)
            crash = ApiError(
                400, 0, "fake Discord internal error", violation=traceback.format_exc()
            )
            return self._error(crash, record)
        finally:
            fake.notify()
        if result is NO_CONTENT:
            record.status = 204
            return web.Response(status=204, headers=self._headers(template))
        record.status, record.response = 200, result
        return self._json(200, result, template)

    # Pipeline steps.

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Upload]]:
        if not request.can_read_body:
            return None, []
        if request.content_type == "multipart/form-data":
            body: Any = None
            uploads: list[Upload] = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                data = await part.read(decode=False)
                if part.name == "payload_json":
                    body = self._parse_json(bytes(data))
                else:
                    uploads.append(
                        Upload(
                            part.name or "",
                            part.filename or "",
                            part.headers.get("Content-Type", "application/octet-stream"),
                            bytes(data),
                        )
                    )
            return body, uploads
        raw = await request.read()
        if not raw:
            return None, []
        if request.content_type != "application/json":
            raise ApiError(
                400, 50035, "Invalid Form Body", violation=f"unexpected {request.content_type}"
            )
        return self._parse_json(raw), []

    @staticmethod
    def _parse_json(raw: bytes) -> Any:
        try:
            return json.loads(raw)
        except ValueError as error:
            raise ApiError(
                400, 50109, "The request body contains invalid JSON.", violation=str(error)
            ) from None

    def _rate_limited(self, method: str, template: str) -> RateLimitScript | None:
        wanted = spec.normalize_template(template)
        for script in self.rate_limits:
            matches = script.method == method and spec.normalize_template(script.route) == wanted
            if matches and script.times > 0:
                script.times -= 1
                return script
        return None

    def _fault(self, method: str, template: str, path: str) -> FaultScript | None:
        wanted = spec.normalize_template(template)
        for script in self.faults:
            matches = script.method == method and spec.normalize_template(script.route) == wanted
            if matches and script.only is not None and not script.only(path):
                continue
            if matches and script.times > 0:
                if script.skip > 0:
                    script.skip -= 1
                    return None
                script.times -= 1
                return script
        if self.random_faults is not None:
            return self.random_faults.draw(path)
        return None

    async def _fail(
        self, fault: FaultScript, request: web.Request, record: RequestRecord
    ) -> web.StreamResponse:
        self.faults_served.append(record)
        if fault.kind == "5xx":
            record.status, record.response = fault.status, SERVER_ERROR_BODY
            return json_response(fault.status, SERVER_ERROR_BODY, {"Via": "1.1 google"})
        if fault.kind == "timeout":
            await asyncio.sleep(fault.hold)
        record.status = 0
        transport = request.transport
        if transport is not None:
            transport.abort()
        raise asyncio.CancelledError  # nothing is answered on a dropped connection

    def _rate_limit_response(self, script: RateLimitScript, record: RequestRecord) -> web.Response:
        body = {
            "message": "You are being rate limited.",
            "retry_after": script.retry_after,
            "global": script.is_global,
            "code": 0,
        }
        headers = {
            "Retry-After": str(max(1, round(script.retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{self.fake.clock.now() + script.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{script.retry_after:.3f}",
            "X-RateLimit-Bucket": _bucket(script.route),
            "X-RateLimit-Scope": "global" if script.is_global else "user",
            "Via": "1.1 google",
        }
        if script.is_global:
            headers["X-RateLimit-Global"] = "true"
        record.status, record.response = 429, body
        return json_response(429, body, headers)

    def _authorize(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.fake.token}":
            raise ApiError(401, 0, "401: Unauthorized")

    def _validate(self, operation: spec.Operation, body: Any, request: web.Request) -> None:
        if body is None:
            if operation.body_required:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    violation="the request body is required and missing",
                )
            return
        if operation.json_pointer is None:
            raise ApiError(
                400, 50035, "Invalid Form Body", violation="this route takes no request body"
            )
        problem = spec.validate_body(operation, body)
        if problem is not None:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=problem.errors,
                violation=f"schema: {problem.message}",
            )

    # Answers.

    def _headers(self, template: str) -> dict[str, str]:
        return {
            "Via": "1.1 google",
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": "49",
            "X-RateLimit-Reset": f"{self.fake.clock.now() + 1:.3f}",
            "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": _bucket(template),
        }

    def _json(self, status: int, body: Any, template: str = "") -> web.Response:
        return json_response(status, body, self._headers(template))

    def _error(self, error: ApiError, record: RequestRecord) -> web.Response:
        record.status, record.response = error.status, error.body()
        if error.violation is not None:
            self.fake.record_violation(
                "request", error.violation, record.method, record.path, record.body
            )
        return self._json(error.status, error.body(), record.route)

    # Helpers for handlers.

    def channel(self, call: Call, *, for_bot: bool = True) -> Channel:
        channel = self.fake.channels.get(_snowflake(call.params["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        if for_bot and not channel.visible_to(self.fake.bot_user):
            raise ApiError(403, 50001, "Missing Access")
        return channel

    def require(self, channel: Channel, *names: str) -> None:
        have = channel.permissions_for(self.fake.bot_user)
        for name in names:
            if not have & PERMISSIONS[name]:
                raise ApiError(403, 50013, "Missing Permissions")

    def message(self, channel: Channel, call: Call) -> Message:
        wanted = call.params["message_id"]
        for message in channel.messages:
            if str(message.id) == wanted and not message.deleted and not message.ephemeral:
                return message
        raise ApiError(404, 10008, "Unknown Message")

    def application(self, call: Call) -> None:
        if call.params["application_id"] != str(self.fake.application_id):
            raise ApiError(403, 50001, "Missing Access")

    def guild(self, call: Call) -> Any:
        guild = self.fake.guilds.get(int(call.params["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild


def json_response(status: int, body: Any, headers: dict[str, str]) -> web.Response:
    """JSON with Discord's exact `Content-Type` (discord.py compares it literally)."""
    data = json.dumps(body, separators=(",", ":")).encode()
    return web.Response(
        status=status, body=data, headers=headers | {"Content-Type": "application/json"}
    )


def _bucket(template: str) -> str:
    return format(abs(hash(spec.normalize_template(template))) % (1 << 48), "x")


def _send_permissions(channel: Channel, uploads: list[Upload]) -> list[str]:
    names = ["send_messages_in_threads" if channel.is_thread else "send_messages"]
    if uploads:
        names.append("attach_files")
    return names


# Users, gateway, application.


@route("GET", "/users/@me")
async def get_me(rest: Rest, call: Call) -> Any:
    return rest.fake.bot_user_payload()


@route("GET", "/users/{user_id}")
async def get_user(rest: Rest, call: Call) -> Any:
    user = rest.fake.users.get(int(call.params["user_id"]))
    if user is None:
        raise ApiError(404, 10013, "Unknown User")
    return user.payload()


@route("GET", "/gateway")
async def get_gateway(rest: Rest, call: Call) -> Any:
    return {"url": rest.fake.gateway_url}


@route("GET", "/gateway/bot")
async def get_gateway_bot(rest: Rest, call: Call) -> Any:
    return {
        "url": rest.fake.gateway_url,
        "shards": rest.fake.shards_required,
        "session_start_limit": {
            "total": 1000,
            "remaining": 999,
            "reset_after": 86_400_000,
            "max_concurrency": 1,
        },
    }


@route("GET", "/applications/@me")
@route("GET", "/oauth2/applications/@me")
async def get_application(rest: Rest, call: Call) -> Any:
    return rest.fake.application_payload()


# Application commands.


def _command_scope(rest: Rest, call: Call) -> Any:
    rest.application(call)
    return rest.guild(call) if "guild_id" in call.params else None


@route("GET", "/applications/{application_id}/commands")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def list_commands(rest: Rest, call: Call) -> Any:
    guild = _command_scope(rest, call)
    return [c.payload() for c in rest.fake.commands if c.guild is guild]


@route("PUT", "/applications/{application_id}/commands")
@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def overwrite_commands(rest: Rest, call: Call) -> Any:
    guild = _command_scope(rest, call)
    body: list[dict[str, Any]] = call.body or []
    rest.fake.raise_for_problems(check_commands(body))
    return [c.payload() for c in rest.fake.set_commands(guild, body)]


@route("POST", "/applications/{application_id}/commands")
@route("POST", "/applications/{application_id}/guilds/{guild_id}/commands")
async def upsert_command(rest: Rest, call: Call) -> Any:
    guild = _command_scope(rest, call)
    fake = rest.fake
    kept = [c.data for c in fake.commands if c.guild is guild]
    body = call.body
    key = (body["name"], body.get("type", 1))
    merged = [c for c in kept if (c["name"], c.get("type", 1)) != key]
    merged.append(body)
    fake.raise_for_problems(check_commands(merged))
    commands = fake.set_commands(guild, merged)
    return next(c.payload() for c in commands if c.name == body["name"])


@route("GET", "/applications/{application_id}/commands/{command_id}")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
async def get_command(rest: Rest, call: Call) -> Any:
    return _find_command(rest, call).payload()


@route("DELETE", "/applications/{application_id}/commands/{command_id}")
@route("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
async def delete_command(rest: Rest, call: Call) -> Any:
    command = _find_command(rest, call)
    rest.fake.commands.remove(command)
    return NO_CONTENT


def _find_command(rest: Rest, call: Call) -> Command:
    guild = _command_scope(rest, call)
    for command in rest.fake.commands:
        if str(command.id) == call.params["command_id"] and command.guild is guild:
            return command
    raise ApiError(404, 10063, "Unknown application command")


# Interactions and their webhooks.


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
async def interaction_callback(rest: Rest, call: Call) -> Any:
    ident = call.params["interaction_id"]
    if not ident.isdigit():
        raise ApiError(404, 10062, "Unknown interaction")
    answer = rest.fake.interactions.callback(
        int(ident),
        call.params["interaction_token"],
        call.body or {},
        call.uploads,
        call.flag("with_response"),
    )
    return NO_CONTENT if answer is None else answer


def _webhook_interaction(rest: Rest, call: Call) -> Any:
    ident = call.params["webhook_id"]
    if not ident.isdigit():
        raise ApiError(404, 10015, "Unknown Webhook")
    return rest.fake.interactions.by_webhook(int(ident), call.params["webhook_token"])


@route("POST", "/webhooks/{webhook_id}/{webhook_token}")
async def execute_webhook(rest: Rest, call: Call) -> Any:
    interaction = _webhook_interaction(rest, call)
    message = rest.fake.interactions.followup(interaction, call.body or {}, call.uploads)
    return message.payload() if call.flag("wait") else NO_CONTENT


@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def get_webhook_message(rest: Rest, call: Call) -> Any:
    interaction = _webhook_interaction(rest, call)
    message_id = call.params.get("message_id", "@original")
    return rest.fake.interactions.message_of(interaction, message_id).payload()


@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def edit_webhook_message(rest: Rest, call: Call) -> Any:
    interactions = rest.fake.interactions
    interaction = _webhook_interaction(rest, call)
    message = interactions.message_of(interaction, call.params.get("message_id", "@original"))
    return interactions.edit(interaction, message, call.body or {}, call.uploads).payload()


@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def delete_webhook_message(rest: Rest, call: Call) -> Any:
    interaction = _webhook_interaction(rest, call)
    message_id = call.params.get("message_id", "@original")
    message = rest.fake.interactions.message_of(interaction, message_id)
    rest.fake.delete_message(message)
    return NO_CONTENT


# Channels and messages.


@route("GET", "/channels/{channel_id}")
async def get_channel(rest: Rest, call: Call) -> Any:
    return rest.channel(call).payload()


@route("PATCH", "/channels/{channel_id}")
async def edit_channel(rest: Rest, call: Call) -> Any:
    channel = rest.channel(call)
    body = call.body or {}
    if channel.is_thread:
        locking = bool(body.get("locked", channel.locked)) != channel.locked
        if channel.owner is not rest.fake.bot_user or locking:
            rest.require(channel, "manage_threads")  # a thread's owner may not (un)lock it
        channel.name = body.get("name", channel.name)
        channel.archived = bool(body.get("archived", channel.archived))
        channel.locked = bool(body.get("locked", channel.locked))
        channel.auto_archive_duration = int(
            body.get("auto_archive_duration") or channel.auto_archive_duration
        )
        rest.fake.touch_thread(channel)
        rest.fake.dispatch_channel_update(channel)
        return channel.payload()
    rest.require(channel, "manage_channels")
    channel.name = body.get("name", channel.name)
    rest.fake.dispatch_channel_update(channel)
    return channel.payload()


@route("GET", "/channels/{channel_id}/messages")
async def list_messages(rest: Rest, call: Call) -> Any:
    channel = rest.channel(call)
    rest.require(channel, "read_message_history")
    limit = int(call.query.get("limit", "50"))
    visible = channel.public_messages()
    return [m.payload() for m in reversed(visible)][:limit]


@route("POST", "/channels/{channel_id}/messages")
async def create_message(rest: Rest, call: Call) -> Any:
    fake = rest.fake
    channel = rest.channel(call)
    body = call.body or {}
    fake.raise_for_problems(check_message(body, **fake.file_facts(call.uploads), creating=True))
    if channel.type == ChannelType.DM:
        assert channel.recipient is not None
        shares_a_guild = any(
            channel.recipient.id in guild.members for guild in fake.guilds.values()
        )
        if not channel.recipient.dms_open or not shares_a_guild:
            raise ApiError(403, 50007, "Cannot send messages to this user")
    else:
        rest.require(channel, *_send_permissions(channel, call.uploads))
        if channel.is_thread and channel.locked:
            rest.require(channel, "manage_threads")
    nonce = body.get("nonce")
    if body.get("enforce_nonce") and nonce is not None:
        earlier = fake.message_with_nonce(channel, str(nonce))
        if earlier is not None:
            return earlier.payload()
    if channel.is_thread and channel.archived:
        channel.archived = False
        fake.dispatch_channel_update(channel)
    message = fake.new_message(channel, body, call.uploads)
    if nonce is not None:
        fake.remember_nonce(message, str(nonce))
    return message.payload()


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(rest: Rest, call: Call) -> Any:
    channel = rest.channel(call)
    rest.require(channel, "read_message_history")
    return rest.message(channel, call).payload()


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(rest: Rest, call: Call) -> Any:
    fake = rest.fake
    channel = rest.channel(call)
    message = rest.message(channel, call)
    body = call.body or {}
    if message.author is not fake.bot_user:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    if channel.is_thread and channel.archived:
        raise ApiError(400, 50083, "Thread is archived")
    fake.raise_for_problems(check_message(body, **fake.file_facts(call.uploads), creating=False))
    if call.uploads and channel.type != ChannelType.DM:
        rest.require(channel, "attach_files")
    fake.edit_message(message, body, call.uploads)
    return message.payload()


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(rest: Rest, call: Call) -> Any:
    channel = rest.channel(call)
    message = rest.message(channel, call)
    if message.author is not rest.fake.bot_user:
        rest.require(channel, "manage_messages")
    rest.fake.delete_message(message)
    return NO_CONTENT


@route("POST", "/channels/{channel_id}/typing")
async def trigger_typing(rest: Rest, call: Call) -> Any:
    channel = rest.channel(call)
    if channel.type != ChannelType.DM:
        rest.require(channel, "send_messages")
    return NO_CONTENT


# Threads.


@route("POST", "/channels/{channel_id}/threads")
async def create_thread(rest: Rest, call: Call) -> Any:
    fake = rest.fake
    parent = rest.channel(call)
    body = call.body or {}
    if parent.type != ChannelType.GUILD_TEXT:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    kind = ChannelType(body.get("type") or ChannelType.PRIVATE_THREAD)
    if kind == ChannelType.PUBLIC_THREAD:
        rest.require(parent, "create_public_threads")
    elif kind == ChannelType.PRIVATE_THREAD:
        rest.require(parent, "create_private_threads")
    else:
        raise ApiError(400, 50035, "Invalid Form Body", violation=f"thread type {kind}")
    thread = fake.create_thread(parent, body, kind, starter=None)
    return thread.payload() | {"member": thread.thread_member_payload(fake.bot_user)}


@route("POST", "/channels/{channel_id}/messages/{message_id}/threads")
async def create_thread_from_message(rest: Rest, call: Call) -> Any:
    fake = rest.fake
    parent = rest.channel(call)
    message = rest.message(parent, call)
    if parent.type != ChannelType.GUILD_TEXT:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    if message.thread is not None:
        raise ApiError(400, 160004, "A thread has already been created for this message")
    rest.require(parent, "create_public_threads")
    thread = fake.create_thread(parent, call.body or {}, ChannelType.PUBLIC_THREAD, message)
    return thread.payload() | {"member": thread.thread_member_payload(fake.bot_user)}


def _thread(rest: Rest, call: Call) -> Channel:
    thread = rest.channel(call)
    if not thread.is_thread:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    return thread


@route("PUT", "/channels/{channel_id}/thread-members/@me")
async def join_thread(rest: Rest, call: Call) -> Any:
    thread = _thread(rest, call)
    thread.thread_members.add(rest.fake.bot_user.id)
    return NO_CONTENT


@route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
async def add_thread_member(rest: Rest, call: Call) -> Any:
    fake = rest.fake
    thread = _thread(rest, call)
    user = fake.users.get(int(call.params["user_id"]))
    guild = thread.guild
    if user is None or guild is None or user.id not in guild.members:
        raise ApiError(404, 10013, "Unknown User")
    if thread.type == ChannelType.PRIVATE_THREAD and fake.bot_user.id not in thread.thread_members:
        rest.require(thread, "manage_threads")
    rest.require(thread, "send_messages_in_threads")
    thread.thread_members.add(user.id)
    return NO_CONTENT


@route("DELETE", "/channels/{channel_id}/thread-members/@me")
async def leave_thread(rest: Rest, call: Call) -> Any:
    _thread(rest, call).thread_members.discard(rest.fake.bot_user.id)
    return NO_CONTENT


@route("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
async def remove_thread_member(rest: Rest, call: Call) -> Any:
    thread = _thread(rest, call)
    if thread.owner is not rest.fake.bot_user:
        rest.require(thread, "manage_threads")
    thread.thread_members.discard(int(call.params["user_id"]))
    return NO_CONTENT


# Direct messages and guilds.


@route("POST", "/users/@me/channels")
async def open_dm(rest: Rest, call: Call) -> Any:
    fake = rest.fake
    body = call.body or {}
    recipient = body.get("recipient_id")
    user = fake.users.get(int(recipient)) if recipient is not None else None
    if user is None or user.bot:
        raise ApiError(400, 50035, "Invalid Form Body", violation="unknown recipient_id")
    return fake.open_dm_channel(user).payload()


@route("GET", "/guilds/{guild_id}")
async def get_guild(rest: Rest, call: Call) -> Any:
    data = rest.guild(call).payload(include_members=False)
    for key in ("members", "channels", "threads", "voice_states", "presences", "joined_at"):
        data.pop(key, None)
    return data


@route("GET", "/guilds/{guild_id}/channels")
async def list_guild_channels(rest: Rest, call: Call) -> Any:
    guild = rest.guild(call)
    return [c.payload() for c in guild.channels if not c.is_thread]


@route("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(rest: Rest, call: Call) -> Any:
    guild = rest.guild(call)
    member = guild.members.get(int(call.params["user_id"]))
    if member is None:
        raise ApiError(404, 10007, "Unknown Member")
    return member.payload()
