"""Delivery until delivered: the backoff's bounds and jitter, retries on the fake clock,
the stored outbox read again; the board marked delivered and stored in one transaction;
closed DMs remembered; no lost wake-up for the time-limit dispatcher."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.outbox import Backoff, Outbox
from bot.service import TableService
from tests.bot.test_service import ALICE, BOB, open_race


def test_the_backoff_doubles_up_to_its_cap_with_jitter_in_the_upper_half() -> None:
    backoff = Backoff(base=1.0, cap=60.0)
    rng = random.Random(7)
    for failures in range(1, 30):
        ceiling = min(60.0, 2.0 ** (failures - 1))
        draws = [backoff.delay(failures, rng) for _ in range(50)]
        assert all(ceiling / 2 <= d <= ceiling for d in draws)
        assert len(set(draws)) > 1
    assert max(backoff.delay(100, rng) for _ in range(50)) <= 60.0


class Flaky:
    """A front end whose deliveries fail a set number of times."""

    def __init__(self, failures: int, *, raises: bool = False) -> None:
        self.left = failures
        self.raises = raises
        self.tries = 0

    async def __call__(self, table_id: int) -> bool:
        self.tries += 1
        if self.left > 0:
            self.left -= 1
            if self.raises:
                raise ConnectionResetError("the connection dropped")
            return False
        return True


async def nothing_pending() -> list[int]:
    return []


async def test_a_failed_delivery_is_retried_after_its_backoff_until_it_succeeds() -> None:
    clock = FakeClock()
    flaky = Flaky(3, raises=True)
    outbox = Outbox(flaky, nothing_pending, clock, backoff=Backoff(1.0, 8.0))
    assert not await outbox.deliver(5)
    for failures in (1, 2, 3):
        assert outbox.failures(5) == failures
        due = outbox.retry_at(5)
        assert due is not None
        clock.advance(due - clock.now() - 0.01)
        await outbox.sweep()
        assert flaky.tries == failures  # not before its time
        clock.advance(0.01)
        await outbox.sweep()
        assert flaky.tries == failures + 1
    assert outbox.failures(5) == 0 and outbox.retry_at(5) is None


async def test_the_sweeper_finds_what_is_stored_and_retries_in_the_background() -> None:
    clock = FakeClock()
    flaky = Flaky(1)
    delivered = asyncio.Event()

    async def deliver(table_id: int) -> bool:
        done = await flaky(table_id)
        if done:
            delivered.set()
        return done

    async def pending() -> list[int]:
        return [] if delivered.is_set() else [9]

    outbox = Outbox(deliver, pending, clock, backoff=Backoff(1.0, 4.0))
    sweeper = asyncio.create_task(outbox.run())
    try:
        for _ in range(100):  # the fake clock moves a second per round, never real time
            if delivered.is_set():
                break
            clock.advance(1.0)
            await asyncio.sleep(0)
        assert delivered.is_set()
        assert flaky.tries == 2
    finally:
        sweeper.cancel()


async def test_a_posted_board_is_marked_and_stored_in_one_transaction(
    service: TableService,
) -> None:
    table = await open_race(service)
    [board] = await service.announcements(table.id)
    commits = service.storage.commits
    await service.announced(board, 4242)
    assert service.storage.commits == commits + 1
    assert (await service.table(table.id)).row.board_message_id == 4242
    assert await service.announcements(table.id) == []


async def test_a_posted_board_keeps_the_race_in_memory(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Marking a board posted changes where the race lives, not its game: the next click
    does not rebuild the game from the stored actions."""
    table = await open_race(service)
    [board] = await service.announcements(table.id)
    await service.announced(board, 4242)
    rebuilt: list[int] = []
    read_actions = service.storage.actions

    async def counted(table_id: int) -> Any:
        rebuilt.append(table_id)
        return await read_actions(table_id)

    monkeypatch.setattr(service.storage, "actions", counted)
    table_now, _ = await service.view_for(table.id, None)
    assert table_now.row.board_message_id == 4242
    assert rebuilt == []


async def test_closed_dms_are_remembered_until_dms_are_chosen_again(
    service: TableService,
) -> None:
    storage = service.storage

    async def reachable(user_id: int) -> bool:
        return (await service.notices.member(user_id)).delivery(0.0).dm

    assert not await reachable(ALICE)
    await storage.set_dm(ALICE, True)
    assert await reachable(ALICE)
    await storage.mark_dm_closed(ALICE)
    await storage.mark_dm_closed(ALICE)
    assert not await reachable(ALICE)
    await storage.set_dm(ALICE, True)
    assert await reachable(ALICE)
    await storage.mark_dm_closed(BOB)
    assert not await reachable(BOB)


class RecordingClock(FakeClock):
    """Records whether the wake-up signal was already set when a sleep began."""

    def __init__(self) -> None:
        super().__init__()
        self.woken_at_start: list[bool] = []

    async def sleep_until(self, when: float, wake: asyncio.Event) -> None:
        self.woken_at_start.append(wake.is_set())


async def test_a_deadline_stored_while_the_next_one_is_read_is_not_missed(
    service: TableService,
) -> None:
    clock = RecordingClock()
    service.clock = clock
    read = service.next_wakeup

    async def read_while_a_move_lands() -> float | None:
        when = await read()
        service.deadline_changed.set()  # a move stores a new deadline meanwhile
        return when

    service.next_wakeup = read_while_a_move_lands  # type: ignore[method-assign]
    await service.wait_until_due(3600.0)
    assert clock.woken_at_start == [True]
