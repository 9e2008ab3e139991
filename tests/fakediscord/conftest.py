"""Fixtures of the fake's own tests: a guild with two members and the sample bot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from .harness import pointed_at
from .model import Channel, Guild, User
from .plugin import fake
from .sample_bot import SampleBot
from .server import FakeDiscord

__all__ = ["fake"]


@dataclass
class World:
    guild: Guild
    channel: Channel
    alice: User
    bob: User


@pytest.fixture
def world(fake: FakeDiscord) -> World:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    return World(guild, channel, guild.add_member("alice"), guild.add_member("bob"))


@pytest.fixture
async def bot(fake: FakeDiscord, world: World) -> AsyncIterator[SampleBot]:
    """The sample bot, in this event loop, connected and with its commands synced."""
    with pointed_at(fake):
        client = SampleBot(guild_ready_timeout=0.05)
        runner = asyncio.create_task(client.start(fake.token))
        try:
            await fake.wait_for_command("demo")
            await fake.wait_until_ready()
            yield client
        finally:
            await client.close()
            await runner
