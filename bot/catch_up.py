"""The start-up catch-up: the work stored tables still owe after a start or a restart (AI
seats' moves, announcements a crash left unposted), done in the background.

A few workers take the tables from a bounded queue, one table at a time each, so the
catch-up never has more than ``workers`` tables in hand and ``queue_size`` waiting, however
many are owed; between two tables a worker lets every other ready task (players'
interactions) run first. A table that fails is logged and left to the outbox's retries.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

log = logging.getLogger(__name__)

WORKERS = 2
QUEUE_SIZE = 32

Settle = Callable[[int], Awaitable[None]]


class CatchUp:
    """Settles every table it is given, exactly once; :attr:`done` is set when it ends."""

    def __init__(self, settle: Settle, *, workers: int = WORKERS, queue_size: int = QUEUE_SIZE):
        self._settle = settle
        self.workers = workers
        self.queue_size = queue_size
        self.settled = 0
        self.done = asyncio.Event()

    async def run(self, table_ids: Iterable[int]) -> int:
        """Settle these tables; returns how many settled without an error."""
        queue: asyncio.Queue[int] = asyncio.Queue(self.queue_size)
        workers = [asyncio.create_task(self._work(queue)) for _ in range(self.workers)]
        try:
            for table_id in table_ids:
                await queue.put(table_id)
            await queue.join()
        finally:
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            self.done.set()
        return self.settled

    async def _work(self, queue: asyncio.Queue[int]) -> None:
        while True:
            table_id = await queue.get()
            try:
                await self._settle(table_id)
                self.settled += 1
            except Exception:
                log.exception("table %d: catching up after the start failed", table_id)
            finally:
                queue.task_done()
            await asyncio.sleep(0)  # what became ready meanwhile (a click) runs first
