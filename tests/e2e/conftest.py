"""End-to-end fixtures: the real bot process (``python -m bot``) against the fake Discord
on loopback, with its own SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotProcess, run_bot
from tests.fakediscord.model import Channel, Guild, User
from tests.fakediscord.plugin import fake

__all__ = ["Table", "fake", "started_bot", "table"]


@dataclass
class Table:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    carol: User
    database: Path


@pytest.fixture
def table(fake: FakeDiscord, tmp_path: Path) -> Table:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    return Table(
        fake,
        guild,
        channel,
        guild.add_member("alice"),
        guild.add_member("bob"),
        guild.add_member("carol"),
        tmp_path / "races.db",
    )


def bot_env(table: Table) -> dict[str, str]:
    return {"DATABASE_PATH": str(table.database), "LOG_LEVEL": "INFO"}


async def start(table: Table) -> AsyncIterator[BotProcess]:
    async with run_bot(table.fake, "bot", env=bot_env(table)) as process:
        await table.fake.wait_for_command("race", timeout=60)
        await table.fake.wait_until_ready(timeout=60)
        yield process


@pytest.fixture
async def started_bot(table: Table) -> AsyncIterator[BotProcess]:
    async for process in start(table):
        yield process
