"""Board images drawn in worker processes: the same bytes as in the bot's process, several
drawn at once, at a lower priority than the bot, a dead worker costs no image, and a killed
bot leaves no worker behind."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from bot.images import WORKER_NICENESS, ImageProcess, default_workers, usable_cores
from engine.charioteer import Race
from engine.charioteer.render import board_png

REPO_ROOT = Path(__file__).resolve().parents[2]
NAMES = {"A": "alice", "B": "bob", "C": "carol"}


async def in_a_thread(function: Any, /, *args: Any, **kwargs: Any) -> Any:
    fallbacks.append(function)
    return await asyncio.to_thread(function, *args, **kwargs)


fallbacks: list[Any] = []


@pytest.fixture
async def images() -> AsyncIterator[ImageProcess]:
    fallbacks.clear()
    worker = ImageProcess(in_a_thread)
    yield worker
    worker.close()


async def test_the_worker_draws_the_same_board_in_another_process(images: ImageProcess) -> None:
    view = Race.new(seats=3, seed=11).view()
    drawn = await images.run(board_png, view, names=NAMES, locale="en")
    assert drawn == board_png(view, names=NAMES, locale="en")
    assert await images.run(os.getpid) != os.getpid()
    assert fallbacks == []


async def test_workers_yield_the_cpu_to_the_bots_event_loop(images: ImageProcess) -> None:
    """Under load, drawing pictures took the core that answers to clicks needed: the
    workers run at a lower priority than the bot (a higher niceness)."""
    bot_niceness = os.nice(0)
    worker_niceness = await images.run(os.nice, 0)
    assert worker_niceness == min(19, bot_niceness + WORKER_NICENESS) > bot_niceness


async def test_boards_of_different_tables_are_drawn_at_the_same_time() -> None:
    """Two jobs meet at a barrier only if both are being drawn at once; with a single worker
    the first would wait alone until the barrier broke."""
    assert ImageProcess(in_a_thread).workers == default_workers() == max(1, usable_cores() - 1)
    fallbacks.clear()
    images = ImageProcess(in_a_thread, workers=2)
    with multiprocessing.get_context("spawn").Manager() as manager:
        # (The timeout only turns a single-file worker into a failure instead of a hang.)
        barrier = manager.Barrier(2, timeout=60)
        try:
            met = await asyncio.gather(images.run(barrier.wait), images.run(barrier.wait))
        finally:
            images.close()
    assert sorted(met) == [0, 1]
    assert fallbacks == []


async def test_a_killed_worker_costs_no_image_and_is_replaced(images: ImageProcess) -> None:
    view = Race.new(seats=3, seed=12).view()
    first = await images.run(os.getpid)
    os.kill(first, signal.SIGKILL)
    drawn = await images.run(board_png, view, names=NAMES, locale="en")
    assert drawn == board_png(view, names=NAMES, locale="en")
    assert fallbacks == [board_png], "the board was drawn in the fallback thread"
    second = await images.run(os.getpid)
    assert second not in (first, os.getpid())


def test_the_worker_leaves_when_the_bot_is_killed(tmp_path: Path) -> None:
    """A bot killed with SIGKILL cannot stop its worker; the worker notices and exits."""
    script = tmp_path / "host.py"
    script.write_text(
        "import asyncio, os, sys\n"
        "from bot.images import ImageProcess\n"
        "async def main():\n"
        "    images = ImageProcess(None)\n"
        "    print(await images.run(os.getpid), flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    bot = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        cwd=REPO_ROOT,
        env=os.environ | {"PYTHONPATH": str(REPO_ROOT)},
    )
    assert bot.stdout is not None
    worker = int(bot.stdout.readline())
    bot.kill()
    bot.wait()
    assert worker != bot.pid
    # The worker holds a copy of the bot's output pipe: end-of-file means it has exited.
    # (A deadline only so that a worker that never leaves fails the test, not hangs it.)
    readable, _, _ = select.select([bot.stdout], [], [], 60)
    ended = bool(readable) and os.read(bot.stdout.fileno(), 1) == b""
    if not ended:
        os.kill(worker, signal.SIGKILL)
    assert ended, "the worker outlived the killed bot"


def _wait_forever(started: Any, never_set: Any) -> None:
    started.set()
    never_set.wait()


async def test_closing_stops_a_worker_in_the_middle_of_a_picture() -> None:
    """A bot that stops does not wait for a picture being drawn (a whole game's replay
    takes seconds): the announcement it was for stays owed and is delivered after the
    restart, so the worker is stopped at once and the bot's process can end."""
    images = ImageProcess(in_a_thread, workers=1)
    with multiprocessing.get_context("spawn").Manager() as manager:
        started, never_set = manager.Event(), manager.Event()
        worker = await images.run(os.getpid)
        drawing = asyncio.ensure_future(images.run(_wait_forever, started, never_set))
        # (A deadline only so that a job that never starts fails the test, not hangs it.)
        assert await asyncio.to_thread(started.wait, 60), "the worker never took the job"
        images.close()
        # (A deadline only so that a worker that never leaves fails the test, not hangs it.)
        gone = await asyncio.to_thread(_reaped_or_gone, worker, 60)
        if not gone:
            os.kill(worker, signal.SIGKILL)
        assert gone, "the worker kept drawing after the bot closed"
        with pytest.raises(BrokenProcessPool):
            await drawing


def _reaped_or_gone(pid: int, seconds: float) -> bool:
    """Whether process `pid` has ended within `seconds` (it is this process's child)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            finished, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return True
        if finished:
            return True
        time.sleep(0.05)
    return False
