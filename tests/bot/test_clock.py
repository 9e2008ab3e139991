"""The real clock's sleep: it ends at its time or when woken, and a cancellation is never
lost, even one that arrives together with the wake-up (a stop must not hang)."""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import SystemClock

LATER = 3600.0
"""Far enough ahead that only a wake-up or a cancellation ends the sleep."""


async def until_waiting() -> None:
    """Let the sleeper reach its wait (a few turns of the loop, no time passes)."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_sleep_whose_time_has_passed_returns() -> None:
    clock = SystemClock()
    await clock.sleep_until(clock.now() - 1, asyncio.Event())


async def test_a_wake_up_ends_the_sleep() -> None:
    clock = SystemClock()
    wake = asyncio.Event()
    sleeper = asyncio.create_task(clock.sleep_until(clock.now() + LATER, wake))
    await until_waiting()
    assert not sleeper.done()
    wake.set()
    await sleeper


async def test_a_cancellation_arriving_with_a_wake_up_is_not_swallowed() -> None:
    clock = SystemClock()
    wake = asyncio.Event()
    sleeper = asyncio.create_task(clock.sleep_until(clock.now() + LATER, wake))
    await until_waiting()
    wake.set()  # the wake-up and the cancellation land in the same turn of the loop
    sleeper.cancel()
    with pytest.raises(asyncio.CancelledError):
        await sleeper
    assert sleeper.cancelled()
