"""Per-key locks that are forgotten once nobody holds or waits for them."""

from __future__ import annotations

import asyncio

import pytest

from bot.locks import KeyedLocks


async def test_one_holder_per_key_at_a_time_in_arrival_order() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    order: list[str] = []
    release = asyncio.Event()

    async def first() -> None:
        async with locks.hold(1):
            order.append("first in")
            await release.wait()
            order.append("first out")

    async def second() -> None:
        async with locks.hold(1):
            order.append("second in")

    async def other_key() -> None:
        async with locks.hold(2):
            order.append("other key in")

    tasks = [asyncio.create_task(first())]
    await asyncio.sleep(0)
    tasks.append(asyncio.create_task(second()))
    tasks.append(asyncio.create_task(other_key()))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert order == ["first in", "other key in"]
    assert locks.held(1) and not locks.held(2)
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["first in", "other key in", "first out", "second in"]


async def test_a_key_is_forgotten_when_its_last_holder_or_waiter_is_done() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    for key in range(1000):
        async with locks.hold(key):
            assert len(locks) == 1
    assert len(locks) == 0
    assert not locks.held(7)


async def test_a_waiter_keeps_the_key_and_a_failing_holder_lets_it_go() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    entered = asyncio.Event()
    release = asyncio.Event()

    async def failing() -> None:
        async with locks.hold("t"):
            entered.set()
            await release.wait()
            raise RuntimeError("boom")

    holder = asyncio.create_task(failing())
    await entered.wait()
    waiter = asyncio.create_task(_hold_once(locks, "t"))
    await asyncio.sleep(0)
    assert len(locks) == 1
    release.set()
    with pytest.raises(RuntimeError):
        await holder
    assert await waiter == "got it"
    assert len(locks) == 0


async def test_a_cancelled_waiter_does_not_leave_the_key_behind() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    release = asyncio.Event()

    async def holding() -> None:
        async with locks.hold(5):
            await release.wait()

    holder = asyncio.create_task(holding())
    await asyncio.sleep(0)
    waiter = asyncio.create_task(_hold_once(locks, 5))
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    release.set()
    await holder
    assert len(locks) == 0


async def _hold_once(locks: KeyedLocks[str] | KeyedLocks[int], key: object) -> str:
    async with locks.hold(key):  # type: ignore[arg-type]
        return "got it"
