"""The start-up catch-up: bounded, every table settled exactly once, failures contained."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator

from bot.catch_up import CatchUp


async def test_every_table_is_settled_once_by_at_most_workers_at_a_time() -> None:
    settled: Counter[int] = Counter()
    busy = busiest = 0
    handed_out = 0
    gate = asyncio.Event()

    def tables() -> Iterator[int]:
        nonlocal handed_out
        for table_id in range(1, 41):
            handed_out += 1
            yield table_id

    async def settle(table_id: int) -> None:
        nonlocal busy, busiest
        busy += 1
        busiest = max(busiest, busy)
        await gate.wait()
        busy -= 1
        settled[table_id] += 1

    catch_up = CatchUp(settle, workers=3, queue_size=5)
    running = asyncio.create_task(catch_up.run(tables()))
    while busy < 3:
        await asyncio.sleep(0)
    for _ in range(10):  # however long the workers are stuck, nothing more is taken
        await asyncio.sleep(0)
    assert handed_out == 3 + 5 + 1  # in hand, queued, and the one waiting for a place
    gate.set()
    assert await running == 40
    assert settled == Counter(range(1, 41))
    assert busiest == 3
    assert catch_up.done.is_set()


async def test_a_table_that_fails_does_not_stop_the_others() -> None:
    settled: list[int] = []

    async def settle(table_id: int) -> None:
        if table_id == 2:
            raise RuntimeError("Discord is down")
        settled.append(table_id)

    assert await CatchUp(settle, workers=2, queue_size=2).run([1, 2, 3, 4]) == 3
    assert sorted(settled) == [1, 3, 4]


async def test_other_work_runs_between_two_tables() -> None:
    order: list[str] = []

    async def settle(table_id: int) -> None:
        order.append(f"table {table_id}")

    async def click() -> None:
        order.append("click")

    catch_up = asyncio.create_task(CatchUp(settle, workers=1, queue_size=4).run([1, 2, 3]))
    await asyncio.sleep(0)  # the catch-up starts its worker
    clicked = asyncio.create_task(click())
    await catch_up
    await clicked
    assert order.index("click") < order.index("table 3")
