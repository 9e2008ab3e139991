"""Sharding in the fake Gateway: IDENTIFY's ``shard``, events routed by server, refusals."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from .gateway import GUILDS, HELLO, IDENTIFY
from .server import FakeDiscord


async def connect(fake: FakeDiscord, shard: Any) -> aiohttp.ClientWebSocketResponse:
    """A raw Gateway connection that has sent IDENTIFY with ``shard`` (None: left out)."""
    session = aiohttp.ClientSession()
    socket = await session.ws_connect(f"{fake.gateway_url}?v=10&encoding=json")
    socket._circus_session = session  # type: ignore[attr-defined]  # closed with the socket
    hello = await socket.receive_json()
    assert hello["op"] == HELLO
    identify: dict[str, Any] = {"token": fake.token, "intents": GUILDS, "properties": {}}
    if shard is not None:
        identify["shard"] = shard
    await socket.send_str(json.dumps({"op": IDENTIFY, "d": identify}))
    return socket


async def disconnect(socket: aiohttp.ClientWebSocketResponse) -> None:
    await socket.close()
    await socket._circus_session.close()  # type: ignore[attr-defined]


async def dispatches(socket: aiohttp.ClientWebSocketResponse, count: int) -> list[dict[str, Any]]:
    return [await socket.receive_json(timeout=5) for _ in range(count)]


@pytest.fixture
async def two_shards(fake: FakeDiscord) -> AsyncIterator[list[aiohttp.ClientWebSocketResponse]]:
    sockets = [await connect(fake, [0, 2]), await connect(fake, [1, 2])]
    await fake.wait_for(lambda: len(fake.gateway.live_sessions()) == 2)
    yield sockets
    for socket in sockets:
        await disconnect(socket)


def events(fake: FakeDiscord, shard: int) -> list[tuple[str, Any]]:
    [session] = [s for s in fake.gateway.live_sessions() if s.shard[0] == shard]
    return [(payload["t"], payload["d"]) for payload in session.buffer]


async def test_each_shard_gets_the_servers_discord_would_route_to_it(fake: FakeDiscord) -> None:
    first = fake.add_guild("first", shard=(0, 2))
    second = fake.add_guild("second", shard=(1, 2))
    assert (first.id >> 22) % 2 == 0 and (second.id >> 22) % 2 == 1
    sockets = [await connect(fake, [0, 2]), await connect(fake, [1, 2])]
    try:
        for socket, guild in zip(sockets, (first, second), strict=True):
            ready, created = await dispatches(socket, 2)
            assert ready["t"] == "READY"
            assert ready["d"]["shard"] == [sockets.index(socket), 2]
            assert ready["d"]["guilds"] == [{"id": str(guild.id), "unavailable": True}]
            assert created["t"] == "GUILD_CREATE" and created["d"]["id"] == str(guild.id)
    finally:
        for socket in sockets:
            await disconnect(socket)


async def test_events_go_to_the_shard_of_their_server_and_dms_to_shard_0(
    fake: FakeDiscord, two_shards: list[aiohttp.ClientWebSocketResponse]
) -> None:
    on_1 = fake.add_guild("one", shard=(1, 2))
    channel = on_1.add_text_channel("races")
    fake.gateway.dispatch("INTERACTION_CREATE", {"id": "7", "guild_id": str(on_1.id)})
    fake.gateway.dispatch("INTERACTION_CREATE", {"id": "8", "channel_id": "9"})  # a DM
    assert [name for name, _ in events(fake, 1)] == [
        "READY",
        "GUILD_CREATE",
        "CHANNEL_CREATE",
        "INTERACTION_CREATE",
    ]
    assert events(fake, 1)[2][1]["id"] == str(channel.id)
    assert events(fake, 1)[3][1]["id"] == "7"
    assert events(fake, 0) == [
        events(fake, 0)[0],
        ("INTERACTION_CREATE", {"id": "8", "channel_id": "9"}),
    ]


async def test_a_bot_without_shard_gets_everything_as_shard_0_of_1(fake: FakeDiscord) -> None:
    fake.add_guild("one", shard=(1, 2))
    fake.add_guild("two", shard=(0, 2))
    socket = await connect(fake, None)
    try:
        ready, *created = await dispatches(socket, 3)
        assert ready["d"]["shard"] == [0, 1] and len(ready["d"]["guilds"]) == 2
        assert [payload["t"] for payload in created] == ["GUILD_CREATE", "GUILD_CREATE"]
    finally:
        await disconnect(socket)


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [0], "0,2", [0.0, 2]])
async def test_an_invalid_shard_is_refused_with_4010(fake: FakeDiscord, shard: Any) -> None:
    socket = await connect(fake, shard)
    try:
        message = await socket.receive(timeout=5)
        assert message.type == aiohttp.WSMsgType.CLOSE
        assert socket.close_code == 4010
        assert fake.gateway.live_sessions() == []
    finally:
        await disconnect(socket)


async def test_too_few_shards_for_a_big_bot_are_refused_with_4011() -> None:
    async with FakeDiscord(shards_required=2) as fake:
        socket = await connect(fake, [0, 1])
        try:
            await socket.receive(timeout=5)
            assert socket.close_code == 4011
        finally:
            await disconnect(socket)
        socket = await connect(fake, [1, 2])
        try:
            [ready] = await dispatches(socket, 1)
            assert ready["t"] == "READY"
        finally:
            await disconnect(socket)
        async with (
            aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http,
            http.get(f"{fake.api_base}/gateway/bot") as response,
        ):
            assert (await response.json())["shards"] == 2
