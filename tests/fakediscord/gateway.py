"""The fake Gateway v10: a WebSocket speaking Discord's opcodes over JSON.

Served at `/gateway`; discord.py connects with `?v=10&encoding=json&compress=zlib-stream`
(or `zstd-stream` when the `zstandard` module is installed). With zlib-stream every payload
goes out as one binary frame from a single per-connection zlib stream, flushed with
Z_SYNC_FLUSH, exactly as Discord does; without `compress`, payloads are text frames.

Lifecycle: HELLO (heartbeat interval) → the client's IDENTIFY (token, intents) → READY
(user, application, session_id, resume_gateway_url, guilds unavailable) → one GUILD_CREATE
per guild. Heartbeats are acknowledged. A session outlives its connection: events
dispatched while the bot is disconnected are buffered, and a RESUME with the last sequence
number replays them and ends with RESUMED. An unknown session gets INVALID_SESSION.

Sharding as Discord does it: IDENTIFY may carry ``shard: [shard_id, num_shards]`` (left
out: ``[0, 1]``); a session gets the guilds, guild events and interactions of servers with
``(guild_id >> 22) % num_shards == shard_id``, and everything outside a server (DMs) goes
to shard 0. ``FakeDiscord(shards_required=N)`` plays a bot in more than 2,500 servers:
IDENTIFY with fewer than N shards is refused, and ``GET /gateway/bot`` recommends N.

Close codes as Discord uses them: 4003 not authenticated, 4004 bad token, 4005 already
identified, 4010 invalid shard, 4011 sharding required, 4012 bad API version, 4013 invalid
intents, 4014 disallowed (privileged) intents.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .model import SHARD_SHIFT

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT = 0, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED = {"members": GUILD_MEMBERS, "presences": GUILD_PRESENCES, "message_content": 1 << 15}
ALL_INTENTS = (1 << 26) - 1
RESUME_BUFFER = 20_000
GUILD_LIFECYCLE = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")
"""Events whose data is the guild itself (its id in ``id``, not ``guild_id``)."""


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The server an event concerns; None for a DM (or nothing server-bound)."""
    raw = data.get("id") if event in GUILD_LIFECYCLE else data.get("guild_id")
    return None if raw is None else int(raw)


class Compressor:
    """Transport compression of one connection."""

    def __init__(self, kind: str | None) -> None:
        self.kind = kind
        self._zlib = zlib.compressobj() if kind == "zlib-stream" else None
        self._zstd: Any = None
        if kind == "zstd-stream":
            import zstandard  # type: ignore[import-not-found]

            self._zstd = zstandard.ZstdCompressor().compressobj()

    def pack(self, text: str) -> bytes | str:
        if self._zlib is not None:
            return self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self._zstd is not None:
            import zstandard

            data = self._zstd.compress(text.encode())
            flushed = self._zstd.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
            return bytes(data) + bytes(flushed)
        return text


@dataclass(eq=False)
class Connection:
    """One WebSocket connection; payloads leave in order through a single writer task."""

    socket: web.WebSocketResponse
    request: web.Request
    compressor: Compressor
    outbox: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    writer: asyncio.Task[None] | None = None

    def send(self, payload: dict[str, Any]) -> None:
        self.outbox.put_nowait(payload)

    async def write_loop(self) -> None:
        while True:
            payload = await self.outbox.get()
            if payload is None or self.socket.closed:
                return
            packed = self.compressor.pack(json.dumps(payload, separators=(",", ":")))
            try:
                if isinstance(packed, bytes):
                    await self.socket.send_bytes(packed)
                else:
                    await self.socket.send_str(packed)
            except (ConnectionError, RuntimeError):
                return


@dataclass(eq=False)
class Session:
    """A gateway session: survives dropped connections until invalidated."""

    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)
    sequence: int = 0
    buffer: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RESUME_BUFFER))
    connection: Connection | None = None
    invalidated: bool = False
    resumes: int = 0
    ready: bool = False

    def wants(self, intent: int | None) -> bool:
        return intent is None or bool(self.intents & intent)

    def holds(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the events of this server (DMs: shard 0)."""
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> SHARD_SHIFT) % count) == shard_id

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.sequence += 1
        payload = {"op": DISPATCH, "t": event, "s": self.sequence, "d": data}
        self.buffer.append(payload)
        if self.connection is not None:
            self.connection.send(payload)


class Gateway:
    """Accepts connections, runs sessions, and dispatches the fake's events to them."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: list[Session] = []
        self.connections: list[Connection] = []
        self.identify_count = 0

    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions if not s.invalidated]

    def receivers(self, event: str, data: dict[str, Any], intent: int | None) -> list[Session]:
        """The ready sessions an event goes to: those on the shard of its server."""
        guild_id = guild_of(event, data)
        return [
            session
            for session in self.live_sessions()
            if session.ready and session.wants(intent) and session.holds(guild_id)
        ]

    def dispatch(self, event: str, data: dict[str, Any], intent: int | None = None) -> None:
        for session in self.receivers(event, data, intent):
            session.dispatch(event, data)

    def dispatch_guild_create(self, guild: Any) -> None:
        """GUILD_CREATE, with the member list only for sessions holding the members intent."""
        for session in self.receivers("GUILD_CREATE", {"id": str(guild.id)}, GUILDS):
            members = session.wants(GUILD_MEMBERS)
            session.dispatch("GUILD_CREATE", guild.payload(include_members=members))

    async def drop(self, code: int = 4000) -> None:
        """Close every connection as a network failure would; sessions stay resumable."""
        for connection in list(self.connections):
            await connection.socket.close(code=code, message=b"dropped by the test")

    def request_reconnect(self) -> None:
        """Ask connected clients to reconnect and resume (opcode 7)."""
        for connection in list(self.connections):
            connection.send({"op": RECONNECT, "d": None})

    async def close(self) -> None:
        for connection in list(self.connections):
            await connection.socket.close(code=1001, message=b"fake Discord shutting down")

    async def handle(self, request: web.Request) -> web.StreamResponse:
        version = request.query.get("v")
        encoding = request.query.get("encoding", "json")
        compress = request.query.get("compress")
        socket = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await socket.prepare(request)
        if compress not in (None, "zlib-stream", "zstd-stream"):
            await socket.close(code=4000, message=b"unknown compression")
            return socket
        connection = Connection(socket, request, Compressor(compress))
        connection.writer = asyncio.create_task(connection.write_loop())
        self.connections.append(connection)
        try:
            if version != "10":
                await self._close(connection, 4012, "Invalid API version")
                return socket
            if encoding != "json":
                await self._close(connection, 4002, "Decode error: only json is supported")
                return socket
            connection.send(
                {"op": HELLO, "d": {"heartbeat_interval": self.fake.heartbeat_interval_ms}}
            )
            async for message in socket:
                if message.type == WSMsgType.TEXT:
                    await self._receive(connection, json.loads(message.data))
                elif message.type == WSMsgType.BINARY:
                    await self._close(connection, 4002, "Decode error")
                elif message.type == WSMsgType.ERROR:
                    break
        finally:
            self.connections.remove(connection)
            if connection.session is not None and connection.session.connection is connection:
                connection.session.connection = None
            connection.outbox.put_nowait(None)
            await connection.writer
            self.fake.notify()
        return socket

    async def _close(self, connection: Connection, code: int, reason: str) -> None:
        connection.outbox.put_nowait(None)
        if connection.writer is not None:
            await connection.writer
        await connection.socket.close(code=code, message=reason.encode())

    async def _receive(self, connection: Connection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d") or {}
        if op == HEARTBEAT:
            connection.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif connection.session is None:
            await self._close(connection, 4003, "Not authenticated")
        elif op in (PRESENCE, VOICE, REQUEST_MEMBERS):
            log.debug("gateway: ignoring opcode %s", op)
        else:
            await self._close(connection, 4001, f"Unknown opcode {op}")

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        fake = self.fake
        if connection.session is not None:
            await self._close(connection, 4005, "Already authenticated")
            return
        if data.get("token") != fake.token:
            await self._close(connection, 4004, "Authentication failed")
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or intents & ~ALL_INTENTS:
            await self._close(connection, 4013, "Invalid intent(s)")
            return
        granted = sum(PRIVILEGED[name] for name in fake.privileged_intents)
        privileged = sum(PRIVILEGED.values())
        if intents & privileged & ~granted:
            await self._close(connection, 4014, "Disallowed intent(s)")
            return
        shard = data.get("shard", [0, 1])
        if not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(type(number) is int for number in shard)
            and 0 <= shard[0] < shard[1]
        ):
            await self._close(connection, 4010, "Invalid shard")
            return
        if shard[1] < fake.shards_required:
            await self._close(connection, 4011, "Sharding required")
            return
        for old in self.live_sessions():
            if old.connection is None and old.shard == tuple(shard):
                old.invalidated = True
        session = Session(
            id=secrets.token_hex(16),
            intents=intents,
            shard=(shard[0], shard[1]),
            connection=connection,
        )
        connection.session = session
        self.sessions.append(session)
        self.identify_count += 1
        guilds = [guild for guild in fake.guilds.values() if session.holds(guild.id)]
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": fake.bot_user_payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": fake.gateway_url,
                "shard": list(session.shard),
                "application": {"id": str(fake.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
            },
        )
        session.ready = True
        for guild in guilds:
            session.dispatch(
                "GUILD_CREATE", guild.payload(include_members=bool(intents & GUILD_MEMBERS))
            )
        fake.notify()

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = next((s for s in self.live_sessions() if s.id == data.get("session_id")), None)
        if session is None or data.get("token") != self.fake.token:
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        if session.connection is not None and session.connection is not connection:
            await session.connection.socket.close(code=4000, message=b"session resumed elsewhere")
        session.connection = connection
        connection.session = session
        session.resumes += 1
        last = data.get("seq") or 0
        if session.buffer and session.buffer[0]["s"] > last + 1:
            session.invalidated = True
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        for payload in session.buffer:
            if payload["s"] > last:
                connection.send(payload)
        session.dispatch("RESUMED", {})
        self.fake.notify()
