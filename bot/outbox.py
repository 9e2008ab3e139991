"""Delivering announcements until they are delivered, for any game and any front end.

The service stores each announcement in the outbox with the action that caused it; a front
end delivers a table's pending announcements (``deliver(table_id) -> bool``: True when none
is left). :class:`Outbox` runs every delivery: a table whose delivery failed (a 5xx Discord
gave up on, a timeout or a dropped connection, a permission missing) is tried again after a
bounded, jittered exponential backoff until it goes through, and every ``rescan`` seconds
the stored outbox is read again, so nothing pending is ever left behind (not even what a
crash or an unexpected error left).

Only one delivery of a table runs at a time here; the front end keeps the order of a
table's announcements and makes each post idempotent (Discord nonces, stored message ids).

:class:`Backoff` is three lines of arithmetic kept here rather than tenacity's or backoff's:
those retry a call by sleeping inside it, while a failed delivery here is put back on the
outbox's clock for its sweeper (a fake clock in tests/bot/test_outbox.py), which neither
offers.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from bot.clock import Clock
from bot.locks import KeyedLocks

log = logging.getLogger(__name__)

Deliver = Callable[[int], Awaitable[bool]]
Pending = Callable[[], Awaitable[Iterable[int]]]


@dataclass(frozen=True)
class Backoff:
    """Waits between tries: doubling from ``base`` up to ``cap`` seconds, each drawn in the
    upper half of its range ("equal jitter"), so tables that failed together do not all
    come back at the same moment, and no wait is ever longer than ``cap``."""

    base: float = 1.0
    cap: float = 120.0

    def delay(self, failures: int, rng: random.Random) -> float:
        ceiling = min(self.cap, self.base * 2.0 ** max(0, failures - 1))
        return ceiling / 2 + rng.random() * ceiling / 2


class Outbox:
    """Runs deliveries and retries failed ones; :meth:`run` is the background sweeper."""

    def __init__(
        self,
        deliver: Deliver,
        pending: Pending,
        clock: Clock,
        *,
        backoff: Backoff | None = None,
        rescan: float = 300.0,
        rng: random.Random | None = None,
    ) -> None:
        self._deliver = deliver
        self._pending = pending
        self.clock = clock
        self.backoff = backoff or Backoff()
        self.rescan = rescan
        self._rng = rng or random.Random()
        self._retry_at: dict[int, float] = {}
        self._failures: dict[int, int] = {}
        self._running: KeyedLocks[int] = KeyedLocks()
        self._wake = asyncio.Event()

    def failures(self, table_id: int) -> int:
        """Failed tries in a row for this table (0 once delivered)."""
        return self._failures.get(table_id, 0)

    def retry_at(self, table_id: int) -> float | None:
        return self._retry_at.get(table_id)

    async def deliver(self, table_id: int) -> bool:
        """Deliver the table's pending announcements now; on failure, schedule a retry."""
        async with self._running.hold(table_id):
            try:
                done = await self._deliver(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %d: delivering its announcements failed", table_id)
                done = False
        if done:
            if self._failures.pop(table_id, 0):
                log.info("table %d: announcements delivered after retries", table_id)
            self._retry_at.pop(table_id, None)
        else:
            failures = self._failures.get(table_id, 0) + 1
            self._failures[table_id] = failures
            wait = self.backoff.delay(failures, self._rng)
            self._retry_at[table_id] = self.clock.now() + wait
            log.warning(
                "table %d: delivery failed (%d in a row); retry in %.1f s", table_id, failures, wait
            )
            self._wake.set()
        return done

    async def sweep(self) -> None:
        """Retry every table whose wait is over, oldest first."""
        now = self.clock.now()
        due = sorted((when, table) for table, when in self._retry_at.items() if when <= now)
        for _, table_id in due:
            await self.deliver(table_id)

    async def rescan_stored(self) -> None:
        """Read the stored outbox: every table with something pending is due now unless a
        retry is already scheduled."""
        now = self.clock.now()
        for table_id in await self._pending():
            self._retry_at.setdefault(table_id, now)

    async def run(self) -> None:
        """Sweep forever: retries as they come due, the stored outbox every ``rescan`` s."""
        next_rescan = self.clock.now()
        while True:
            try:
                self._wake.clear()
                if self.clock.now() >= next_rescan:
                    await self.rescan_stored()
                    next_rescan = self.clock.now() + self.rescan
                await self.sweep()
                wake_at = min([next_rescan, *self._retry_at.values()])
                if wake_at > self.clock.now():
                    await self.clock.sleep_until(wake_at, self._wake)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the outbox sweeper failed; it goes on")
                await self.clock.sleep_until(self.clock.now() + self.backoff.cap, self._wake)
