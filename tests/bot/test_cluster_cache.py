"""Two processes of a cluster over one database, each keeping the tables it read in memory:
a copy is used only while the stored table's version is the copy's, so what one process
stores the other sees at once, no action is lost or stored twice, and a copy nobody moved
is not read back."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

from bot.clock import FakeClock
from bot.service import TableService
from bot.shards import Shards
from engine.core import Rng, replay
from tests.bot.conftest import first_choice
from tests.bot.test_reloads import GUILD, MAX_CALLS, Setting, count_reads, open_table

RACE = Setting("charioteer", 2, (), {"laps": 1}, seed=1)


@pytest.fixture
async def cluster(database: str, clock: FakeClock) -> AsyncIterator[list[TableService]]:
    """Two processes, shard 0 and shard 1 of 2, on the test's database (the tables are on
    shard 0's server: the other process acts on them as one holding DMs would)."""
    services = [
        await TableService.create(
            database, clock=clock, choose_action=first_choice, shards=Shards(2, (shard,))
        )
        for shard in (0, 1)
    ]
    try:
        yield services
    finally:
        for service in services:
            await service.close()


async def test_two_processes_acting_on_one_table_lose_and_double_no_action(
    cluster: list[TableService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The two processes take turns at random, each through its own copy of the table:
    every move stored is one action, the game each reads is the replay of the record,
    and a process acting again with nobody acting between reads nothing back."""
    reads = count_reads("charioteer", monkeypatch)
    table_id = await open_table(cluster[0], RACE)
    rng = Rng(5, 1)
    stored = again = 0
    last = None
    for _ in range(MAX_CALLS):
        service = cluster[rng.below(2)]
        table = await service.table(table_id)
        for other in cluster:
            assert (await other.table(table_id)).row.seq == table.row.seq
        if table.status != "running":
            break
        user = table.waiting_humans()[0].user_id
        assert user is not None
        _, view = await service.view_for(table_id, user)
        read_before = reads[0]
        move = first_choice(table.host, "random", view, rng)
        update = await service.submit(table_id, user, move, table.row.turn)
        stored += update.stored
        if service is last:
            again += 1
            assert reads[0] == read_before, "a copy nobody moved was read back"
        last = service
    else:
        raise AssertionError("the race did not end")
    assert again > 0 and stored > again
    games = [await service.game(table_id) for service in cluster]
    assert len(games[0].record.actions) == stored
    for game in games:
        assert game.record.actions == games[0].record.actions
        assert replay(game.record) == game.state


async def test_a_change_by_another_process_to_a_table_kept_in_memory_is_seen_at_once(
    cluster: list[TableService], clock: FakeClock
) -> None:
    """Not only actions: a change to the table's row (its thread, say) or its seats that
    another process stores moves the table's version, and the copy is read anew."""
    owner, other = cluster
    table_id = await open_table(owner, RACE)
    assert (await owner.table(table_id)).row.guild_id == GUILD
    await other.storage.update_table(table_id, clock.now(), thread_id=4242)
    assert (await owner.table(table_id)).row.thread_id == 4242
    seats = list((await owner.table(table_id)).seats)
    renamed = [dataclasses.replace(seat, name="renamed") for seat in seats]
    await other.storage.replace_seats(table_id, renamed, clock.now())
    assert {seat.name for seat in (await owner.table(table_id)).seats} == {"renamed"}
