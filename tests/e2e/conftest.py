"""End-to-end fixtures: the real bot process (``python -m bot``) against the fake Discord
on loopback, with its own database (a SQLite file, or a PostgreSQL schema: every
end-to-end test runs on both)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from bot.storage import is_postgres_url
from tests.e2e.leaks import leaks_in_log, leaks_in_public
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import BotProcess, run_bot
from tests.fakediscord.model import Channel, ChannelType, Guild, User
from tests.fakediscord.plugin import fake
from tests.fakediscord.pointing import SERVERS_WAIT

__all__ = ["Table", "bot_running", "fake", "started_bot", "table"]


@dataclass
class Table:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    carol: User
    database: str
    """A SQLite file's path or a PostgreSQL URL."""
    processes: list[BotProcess] = field(default_factory=list)


@pytest.fixture
def table(fake: FakeDiscord, database: str) -> Table:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    return Table(
        fake,
        guild,
        channel,
        guild.add_member("alice"),
        guild.add_member("bob"),
        guild.add_member("carol"),
        database,
    )


def bot_env(table: Table) -> dict[str, str]:
    if is_postgres_url(table.database):
        database = {"DATABASE_URL": table.database}
    else:
        database = {"DATABASE_PATH": table.database}
    ready = {"FAKEDISCORD_GUILD_READY_TIMEOUT": str(SERVERS_WAIT)}
    return database | {"LOG_LEVEL": "DEBUG"} | ready


async def start_up_over(fake: FakeDiscord, process: BotProcess, what: str = "the bot") -> None:
    """Wait until the bot has resumed the tables it found stored (after ``on_ready``), so
    that a test's games start after the start-up's catch-up. A game started just as the
    catch-up lists the tables has its first board posted by the catch-up, in the channel,
    and never in its thread."""
    await fake.wait_for(
        lambda: any(" resumed " in line and " tables" in line for line in process.lines),
        timeout=60,
        what=f"{what} to resume its tables",
    )


@contextlib.asynccontextmanager
async def bot_running(table: Table) -> AsyncIterator[BotProcess]:
    """``python -m bot`` against the fake, ready for interactions, its start-up over (its
    log at DEBUG, so the leak scan reads everything the bot could ever write)."""
    async with run_bot(table.fake, "bot", env=bot_env(table)) as process:
        table.processes.append(process)
        await table.fake.wait_for_command("race", timeout=60)
        await table.fake.wait_until_ready(timeout=60)
        await start_up_over(table.fake, process)
        yield process


@pytest.fixture(autouse=True)
async def nothing_secret_is_public(table: Table) -> AsyncIterator[None]:
    """After every end-to-end test: no public message and no log line shows a hand, a
    held token or an unrevealed move."""
    yield
    public = [
        message.text()
        for message in table.fake.public_messages()
        if message.channel.type != ChannelType.DM
    ]
    problems = leaks_in_public(public, table.database)
    for process in table.processes:
        problems += leaks_in_log(process.lines, table.database)
    assert problems == [], "\n".join(problems[:20])


@pytest.fixture
async def started_bot(table: Table) -> AsyncIterator[BotProcess]:
    async with bot_running(table) as process:
        yield process
