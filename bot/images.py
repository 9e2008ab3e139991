"""Game pictures (boards, maps), drawn in processes of their own.

Drawing a board with Pillow is some 40 ms of interpreter work. In the bot's process it
would hold the interpreter lock for that long, again and again while many races resolve
their turns, and every click waiting for an answer would wait behind it. Worker processes
draw the images side by side, one per usable core except the one left to the bot's event
loop, and at least one: a single worker on a many-core machine made hundreds of boards of
different races wait in one line under load, while a worker on every core of a two-core
machine took the CPU the answers to clicks need. Workers run at a lower priority than
the bot (:data:`WORKER_NICENESS`): a one-core worker drawing the boards of 20 races started
a second still took CPU from the answers. The event loop only sends the workers the
public view and receives the PNG bytes. A table's pictures still come in its order: its
announcements are delivered one after the other.

The workers start with the first images (fresh interpreters: ``spawn``, never a fork of a
process that runs threads) and leave when the bot's process is gone, even a killed one. If
one dies, or a job cannot be sent, that image is drawn in the fallback the caller gives (a
thread) and the next one starts fresh workers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

PARENT_CHECK_SECONDS = 0.5
WORKER_NICENESS = 10
"""How much lower than the bot's own the workers' CPU priority is: when the machine is
busy, answering a click (within Discord's 3 seconds) comes before drawing a picture."""

T = TypeVar("T")


class ImagesClosed(BrokenProcessPool):
    """The picture was not drawn: the bot is stopping (:meth:`ImageProcess.close`)."""


Fallback = Callable[..., Awaitable[Any]]


def _start_worker(parent: int) -> None:
    """In a new worker: yield the CPU to the bot's event loop (lower priority), and exit as
    soon as the bot's process is gone, however it ended (a killed bot cannot stop its
    worker, and the worker would keep the bot's output pipe open)."""
    os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def default_workers() -> int:
    """Image workers for this machine: every usable core but the event loop's, at least one."""
    return max(1, usable_cores() - 1)


class ImageProcess:
    """Draws board images in worker processes; see the module docstring."""

    def __init__(self, fallback: Fallback, workers: int | None = None) -> None:
        self._fallback = fallback
        self.workers = workers if workers is not None else default_workers()
        """How many images may be drawn at once."""
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    async def run(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` in a worker process (a module-level function, and
        arguments that pickle); in the fallback if the workers are gone, never once closed."""
        job = functools.partial(function, *args, **kwargs)
        if self._closed:
            raise ImagesClosed("the image process is closed")
        try:
            return await asyncio.get_running_loop().run_in_executor(self._process(), job)
        except (BrokenProcessPool, pickle.PicklingError, OSError) as error:
            if self._closed:
                raise ImagesClosed("the image process was closed") from error
            log.warning("the image process failed (%s); this job runs in a thread", error)
            self.restart()
            result: T = await self._fallback(function, *args, **kwargs)
            return result

    def _process(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def restart(self) -> None:
        """Let the worker processes go (a stuck one is killed): the next image starts fresh
        ones. Images being drawn fail and are drawn again by their callers' retries."""
        pool, self._pool = self._pool, None
        if pool is not None:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker processes now, in the middle of a picture if need be, and draw
        nothing more: the bot stops only once no click is being answered, so what is left
        is drawing for announcements the outbox still owes and delivers after the restart
        (a whole game's replay takes seconds, and waiting for it held up every stop)."""
        self._closed = True
        self.restart()
