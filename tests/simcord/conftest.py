"""SimCord fixtures: the real :class:`~cogs.app.CircusBot`, in this process, on SimCord's
simulated Discord (discord.py's own parsers, views and modals over an in-memory backend).

The bot's SQLite file is real (one per test) and its races are seeded, so a test plays the
same races every run. Its clock is SimCord's virtual clock: the
time-limit dispatcher's wait is declared to SimCord as an intentional external wait, so
``env.advance_time`` fires time limits and reminders without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from simcord import Env

from bot.config import Settings
from bot.service import TableService
from bot.shards import Shards
from cogs.app import CircusBot


class SimCordClock:
    """The host's :class:`~bot.clock.Clock` on SimCord's virtual time."""

    def __init__(self) -> None:
        self.env: Env | None = None

    def now(self) -> float:
        assert self.env is not None, "the clock is bound to the env before the bot starts"
        return self.env.now().timestamp()

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        assert self.env is not None
        delay = max(0.0, when - self.now())

        async def until_woken_or_due() -> None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await wake.wait()

        await self.env.external_wait(until_woken_or_due(), reason="time limits and reminders")


SETTLE_SECONDS = 60.0
"""How long the bot may work after an event before the env counts it as stuck: a game's
last move has its whole game drawn as the podium's animated replay, seconds of a picture
worker's time on a busy machine (SimCord's own 5 s is for a click's answers)."""


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "races.db"


@pytest.fixture
async def simcord_env(database: Path, request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    """Replaces SimCord's own fixture of that name: the bot needs the env's clock before it
    starts. Options come from ``@pytest.mark.simcord(...)`` as with SimCord's fixture."""
    clock = SimCordClock()
    service = await TableService.create(
        str(database), clock=clock, seeds=itertools.count(1).__next__
    )
    bot = CircusBot(Settings(None, database, "INFO", None, shards=Shards.of(1)), service)
    marker = request.node.get_closest_marker("simcord")
    options = {"settle_timeout": SETTLE_SECONDS} | (marker.kwargs if marker else {})
    env = Env(bot, **options)
    clock.env = env
    await env.start()
    try:
        yield env
    finally:
        try:
            await env.shutdown()
        finally:
            # SimCord detaches the bot but never calls its close(): the image workers and
            # the SQLite connection (a thread that would keep pytest from exiting) are
            # released here, as ``CircusBot.close`` does.
            if bot.images is not None:
                bot.images.close()
            if bot.animations is not None:
                bot.animations.close()
            await service.close()
        if env.check_errors:
            # as SimCord's own fixture does: errors a test read through ``env.errors`` are
            # the ones it expected; any other error the bot swallowed fails the test
            env._raise_errors_since(env._errors_acknowledged)
