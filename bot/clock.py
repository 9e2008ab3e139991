"""Time for the host: the real clock, and a fake one tests move by hand.

The engine never reads a clock; the host does, for time limits and reminders. Everything
that waits goes through a :class:`Clock`, so tests advance time instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        """Wait until ``when`` or until ``wake`` is set, whichever comes first."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        """The event is awaited in this task, not a task of its own (as ``wait_for`` does
        on Python 3.11), so a cancellation that arrives with the wake-up is raised, not
        swallowed; only this sleep's own timeout ends it quietly."""
        delay = max(0.0, when - self.now())
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(delay):
                await wake.wait()


class FakeClock:
    """A clock that only moves when told to: ``advance(seconds)`` wakes every sleeper whose
    time has come."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._moved = asyncio.Event()
        self.sleepers: list[float] = []
        """The times the sleepers now waiting wait for, in the order they began."""

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds
        self._moved.set()
        self._moved = asyncio.Event()

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        self.sleepers.append(when)
        try:
            while self._now < when and not wake.is_set():
                moved = asyncio.ensure_future(self._moved.wait())
                woken = asyncio.ensure_future(wake.wait())
                _, pending = await asyncio.wait({moved, woken}, return_when=asyncio.FIRST_COMPLETED)
                for task in pending:
                    task.cancel()
        finally:
            self.sleepers.remove(when)
