"""Discord-layer fixtures: the bot in this event loop against the fake Discord, on a real
database (a SQLite file or a PostgreSQL schema: tests using them run on both)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

import cogs.app
from bot.config import Settings
from bot.images import ImageProcess
from bot.storage import is_postgres_url
from cogs.app import CircusBot
from tests.fakediscord.harness import pointed_at
from tests.fakediscord.model import Channel, Guild, User
from tests.fakediscord.plugin import fake
from tests.fakediscord.server import FakeDiscord

__all__ = ["Circus", "circus", "fake"]


class SharedImageWorkers(ImageProcess):
    """The bot's image process on workers kept for every bot these tests start. A worker is
    a fresh interpreter that imports the engines and Pillow (some 0.3 s of CPU), and each
    test's bot started one for its first picture: more than half of a short test's CPU."""

    pool: ClassVar[ProcessPoolExecutor | None] = None

    def _process(self) -> ProcessPoolExecutor:
        if SharedImageWorkers.pool is None:
            SharedImageWorkers.pool = super()._process()
        self._pool = SharedImageWorkers.pool
        return self._pool

    def restart(self) -> None:
        SharedImageWorkers.pool = None
        super().restart()

    def close(self) -> None:
        self._pool = None  # the workers stay for the next test's bot


@pytest.fixture(autouse=True, scope="package")
def shared_image_workers() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cogs.app, "ImageProcess", SharedImageWorkers)
        yield
    if SharedImageWorkers.pool is not None:
        SharedImageWorkers.pool.shutdown()
        SharedImageWorkers.pool = None


@dataclass
class Circus:
    fake: FakeDiscord
    bot: CircusBot
    guild: Guild
    channel: Channel
    alice: User
    bob: User


def settings_for(
    fake: FakeDiscord, database: str | Path, dev_guild_id: int | None = None
) -> Settings:
    url = str(database) if is_postgres_url(database) else None
    return Settings(
        token=fake.token,
        database_path=Path("unused.db") if url else Path(database),
        log_level="INFO",
        dev_guild_id=dev_guild_id,
        database_url=url,
    )


@pytest.fixture
async def circus(fake: FakeDiscord, database: str) -> AsyncIterator[Circus]:
    """The bot, connected, its commands synced, in this event loop."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    with pointed_at(fake):
        bot = CircusBot(settings_for(fake, database))
        runner = asyncio.create_task(bot.start(fake.token))
        try:
            await fake.wait_for_command("race", timeout=60)
            await fake.wait_until_ready(timeout=60)
            yield Circus(fake, bot, guild, channel, alice, bob)
        finally:
            await bot.close()
            await runner
