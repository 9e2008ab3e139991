"""What holds the event loop is named and counted, and watching can be turned off."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import pytest

from bot.loopwatch import LoopWatch, describe


async def hold_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # blocks the loop, as a long computation would
    await asyncio.sleep(0)


async def test_a_callback_holding_the_loop_is_logged_and_counted_by_its_task(
    caplog: pytest.LogCaptureFixture,
) -> None:
    watch = LoopWatch(threshold=0.05)
    watch.start()
    try:
        with caplog.at_level(logging.WARNING, logger="bot.loopwatch"):
            await asyncio.create_task(hold_the_loop(0.08))
            await asyncio.create_task(asyncio.sleep(0.01))  # short: not a hold
    finally:
        watch.stop()
    report = watch.report()
    [(name, hold)] = report["callbacks"].items()
    assert name.startswith("task hold_the_loop (at ")
    assert hold["count"] == 1 and hold["longest_ms"] >= 80
    assert report["threshold_ms"] == 50
    assert any(
        "held" in r.getMessage() and "hold_the_loop" in r.getMessage() for r in caplog.records
    )


async def test_garbage_collections_are_counted_by_generation_with_their_cpu_time() -> None:
    watch = LoopWatch(threshold=10.0)
    watch.start()
    try:
        gc.collect()
    finally:
        watch.stop()
    full = watch.report()["collections"]["2"]
    assert full["count"] >= 1
    assert 0 <= full["cpu_ms"] <= full["total_ms"] + 1  # one thread: no more CPU than time


async def test_stopping_restores_the_loop_and_reset_forgets_the_holds() -> None:
    original = asyncio.Handle._run
    watch = LoopWatch(threshold=0.0)
    watch.start()
    assert LoopWatch.running is watch
    await asyncio.create_task(asyncio.sleep(0))  # a task step, timed when it ends
    assert watch.report()["callbacks"]
    watch.reset()
    assert watch.report()["callbacks"] == {} and watch.report()["collections"] == {}
    watch.stop()
    assert asyncio.Handle._run is original
    assert LoopWatch.running is None
    assert watch._on_collection not in gc.callbacks


def test_a_plain_callback_is_named_by_its_function() -> None:
    def tick() -> None:
        pass

    assert describe(tick).endswith("tick")
