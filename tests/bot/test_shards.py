"""Shard settings and the table-ownership predicate: which servers a process serves."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.config import Settings, SettingsError
from bot.service import CLAIMED_ELSEWHERE_WAIT, ServiceError, TableService, TableSettings, Update
from bot.shards import EVERY_SHARD, Shards, cluster_shards, shard_of
from bot.storage import Storage, StoredAction
from tests.bot.conftest import first_choice
from tests.bot.test_main import run_bot
from tests.databases import postgres_schema

ALICE, BOB = 11, 22
SHARD_SETTINGS = ("SHARD_COUNT", "SHARD_IDS", "CLUSTER_INDEX", "CLUSTER_SIZE")


def guild_on(shard: int, count: int, serial: int = 1) -> int:
    """A server id whose snowflake lands on ``shard`` of ``count``."""
    return ((serial * count + shard) << 22) | 12345


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (*SHARD_SETTINGS, "LOG_LEVEL", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def load(env: pytest.MonkeyPatch, **values: str) -> Shards | None:
    for name, value in values.items():
        env.setenv(name, value)
    return Settings.load(env_file=None).shards


def test_without_shard_settings_one_process_serves_everything(env: pytest.MonkeyPatch) -> None:
    assert load(env) is None


def test_a_shard_count_alone_holds_every_shard(env: pytest.MonkeyPatch) -> None:
    assert load(env, SHARD_COUNT="4") == Shards(4, (0, 1, 2, 3))


def test_shard_ids_are_read_as_a_list(env: pytest.MonkeyPatch) -> None:
    shards = load(env, SHARD_COUNT="4", SHARD_IDS="3, 1")
    assert shards == Shards(4, (1, 3)) and not shards.holds_dms


def test_a_cluster_index_and_size_pick_a_range_of_shards(env: pytest.MonkeyPatch) -> None:
    assert load(env, SHARD_COUNT="2", CLUSTER_INDEX="0", CLUSTER_SIZE="2") == Shards(2, (0,))
    assert load(env, SHARD_COUNT="2", CLUSTER_INDEX="1", CLUSTER_SIZE="2") == Shards(2, (1,))


def test_clusters_cover_every_shard_once() -> None:
    for count in range(1, 12):
        for size in range(1, count + 1):
            held = [s for index in range(size) for s in cluster_shards(count, index, size)]
            assert held == list(range(count))
            assert all(cluster_shards(count, index, size) for index in range(size))


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"CLUSTER_INDEX": "0", "CLUSTER_SIZE": "2"}, "CLUSTER_INDEX needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,-1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,01"}, "twice"),
        ({"SHARD_COUNT": "2", "CLUSTER_INDEX": "0"}, "go together"),
        ({"SHARD_COUNT": "2", "CLUSTER_INDEX": "2", "CLUSTER_SIZE": "2"}, "CLUSTER_INDEX"),
        ({"SHARD_COUNT": "2", "CLUSTER_INDEX": "0", "CLUSTER_SIZE": "3"}, "CLUSTER_SIZE"),
        ({"SHARD_COUNT": "2", "CLUSTER_INDEX": "0", "CLUSTER_SIZE": "0"}, "CLUSTER_SIZE"),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "0", "CLUSTER_INDEX": "0", "CLUSTER_SIZE": "1"},
            "not both",
        ),
    ],
)
def test_a_wrong_shard_setting_is_named_in_one_line(
    env: pytest.MonkeyPatch, values: dict[str, str], named: str
) -> None:
    with pytest.raises(SettingsError) as raised:
        load(env, **values)
    assert named in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_server_belongs_to_the_shard_discord_routes_it_to() -> None:
    assert shard_of(None, 4) == 0
    assert [shard_of(guild_on(shard, 4), 4) for shard in range(4)] == [0, 1, 2, 3]
    second = Shards(4, (1, 2))
    assert [second.owns(guild_on(shard, 4)) for shard in range(4)] == [False, True, True, False]
    assert not second.owns(None) and Shards(4, (0,)).owns(None)
    assert EVERY_SHARD.owns(guild_on(3, 4)) and Shards.of(4).everything


async def test_the_sql_condition_agrees_with_the_python_predicate(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "shards.db")
    try:
        guilds = [
            None,
            *(guild_on(shard, 3, serial) for serial in (1, 9, 4000) for shard in range(3)),
        ]
        guilds.append(1_100_000_000_000_000_000)  # a server id of today's size
        for shards in (Shards(3, (0,)), Shards(3, (1, 2)), Shards(3, (2,)), Shards.of(3)):
            for guild in guilds:
                rows = await storage.read(
                    f"SELECT {shards.where('g')} FROM (SELECT ? AS g)", (guild,)
                )
                assert bool(rows[0][0]) == shards.owns(guild), (shards, guild)
    finally:
        await storage.close()


async def open_timed_race(service: TableService, guild_id: int | None) -> int:
    """A started race in this server: alice against an AI seat, five minutes a turn."""
    table = await service.open_lobby(
        game="charioteer",
        host_id=ALICE,
        host_name="alice",
        settings=TableSettings(seats=2, turn_seconds=300),
        guild_id=guild_id,
        channel_id=5,
    )
    await service.add_ai(table.id, ALICE, "greedy")
    await service.start(table.id, ALICE)
    return table.id


async def test_each_process_serves_only_the_tables_of_its_shards(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Two processes over one database, one shard each: time limits, reminders, AI seats
    to resume and the outbox of a table are one process's, the one holding its server."""
    path = str(tmp_path / "cluster.db")
    first = await TableService.create(
        path, clock=clock, choose_action=first_choice, shards=Shards(2, (0,))
    )
    second = await TableService.create(
        path, clock=clock, choose_action=first_choice, shards=Shards(2, (1,))
    )
    try:
        start = clock.now()
        on_first = await open_timed_race(first, guild_on(0, 2))
        in_no_server = await open_timed_race(first, None)
        clock.advance(60)
        on_second = await open_timed_race(second, guild_on(1, 2))
        assert await first.tables_to_resume() == [on_first, in_no_server]
        assert await second.tables_to_resume() == [on_second]
        assert await first.tables_with_pending() == [on_first, in_no_server]
        assert await second.tables_with_pending() == [on_second]
        assert await first.next_wakeup() == start + 150  # half time: the first reminder
        assert await second.next_wakeup() == start + 60 + 150

        clock.advance(160)
        assert {table.id for table, _ in await second.reminders_due()} == {on_second}
        assert {table.id for table, _ in await first.reminders_due()} == {on_first, in_no_server}

        clock.advance(90)  # past the first process's deadlines, not the second's
        assert await second.fire_due() == []
        fired = await first.fire_due()
        assert {update.table.id for update in fired} == {on_first, in_no_server}
        assert (await second.table(on_second)).row.seq == 0
        clock.advance(60)
        assert {update.table.id for update in await second.fire_due()} == {on_second}
    finally:
        await first.close()
        await second.close()


async def asleep_or_done(clock: FakeClock, waiting: asyncio.Task[None]) -> None:
    """Let the dispatcher's wait run until it sleeps on the clock or returns (it reads the
    database first); give up after some 5 s, leaving the caller's assertions to tell."""
    for _ in range(500):
        if clock.sleepers or waiting.done():
            return
        await asyncio.sleep(0.01)


async def test_two_processes_holding_one_shard_time_out_a_table_once_by_claims(
    clock: FakeClock,
) -> None:
    """PostgreSQL, two processes holding the same shard (a rolling restart): the process
    that claimed a due table times it out; the other leaves it alone, and its dispatcher
    waits instead of spinning on a deadline it cannot take, until the claim is let go."""
    async with postgres_schema() as url:
        first = await TableService.create(url, clock=clock, choose_action=first_choice)
        second = await TableService.create(url, clock=clock, choose_action=first_choice)
        try:
            race = await open_timed_race(first, guild_on(0, 1))
            await first.play_ai_seats(race)
            clock.advance(301)
            claimed = await first.storage.claim_due_tables(clock.now(), first.holder, 60.0)
            assert claimed == [race]
            assert await second.fire_due() == []
            waiting = asyncio.create_task(second.wait_until_due(3600))
            await asleep_or_done(clock, waiting)
            assert clock.sleepers == [clock.now() + CLAIMED_ELSEWHERE_WAIT]
            clock.advance(CLAIMED_ELSEWHERE_WAIT)
            await asyncio.wait_for(waiting, 5)
            assert (await second.table(race)).row.seq == 1  # untouched: alice's turn still
            [timed_out] = await first.fire_due()
            assert timed_out.table.id == race and timed_out.resolved
            assert await second.fire_due() == []  # the deadline moved on: nothing due
        finally:
            await first.close()
            await second.close()


async def test_a_deadline_that_comes_due_after_an_empty_look_is_fired_at_once(
    service: TableService, clock: FakeClock
) -> None:
    """The dispatcher looked while nothing was due (it claimed nothing); a deadline that
    passes after that look is not taken for one claimed elsewhere: the dispatcher does not
    sleep, it fires the deadline."""
    race = await open_timed_race(service, guild_on(0, 1))
    await service.play_ai_seats(race)
    assert await service.fire_due() == []  # nothing due yet
    clock.advance(301)
    waiting = asyncio.create_task(service.wait_until_due(3600))
    await asleep_or_done(clock, waiting)
    done, not_done = waiting.done(), list(clock.sleepers)
    waiting.cancel()
    assert done and not not_done
    [timed_out] = await service.fire_due()
    assert timed_out.table.id == race and timed_out.resolved


async def test_a_move_stored_by_another_process_is_seen_at_once(
    tmp_path: Path, clock: FakeClock
) -> None:
    """DMs reach the process holding shard 0 whatever the table's server: the table's own
    process reads what it stored, and goes on from it, without a stale copy."""
    path = str(tmp_path / "cluster.db")
    owner = await TableService.create(
        path, clock=clock, choose_action=first_choice, shards=Shards(2, (1,))
    )
    dms = await TableService.create(
        path, clock=clock, choose_action=first_choice, shards=Shards(2, (0,))
    )
    try:
        table = await owner.open_lobby(
            game="charioteer",
            host_id=ALICE,
            host_name="alice",
            settings=TableSettings(seats=2),
            guild_id=guild_on(1, 2),
        )
        await owner.join(table.id, BOB, "bob")
        await owner.start(table.id, ALICE)
        for turn in (1, 2):
            _, view = await owner.view_for(table.id, ALICE)
            await dms.submit(table.id, ALICE, view.legal_moves(discards=False)[0], turn)
            _, view = await owner.view_for(table.id, BOB)
            assert view.waiting_for == ("B",)
            update = await owner.submit(table.id, BOB, view.legal_moves(discards=False)[0], turn)
            assert update.resolved and update.table.row.seq == 2 * turn
    finally:
        await owner.close()
        await dms.close()


def write_after(storage: Storage, other: Callable[[], Awaitable[object]]) -> list[object]:
    """Make ``storage``'s next stored action wait until ``other`` has run: whatever it
    read before is stale by then, as when another process wins the race to the write."""
    store = storage.store_actions
    results: list[object] = []

    async def late(stored: Sequence[StoredAction]) -> None:
        storage.store_actions = store  # type: ignore[method-assign]
        results.append(await other())
        await store(stored)

    storage.store_actions = late  # type: ignore[method-assign]
    return results


@pytest.mark.parametrize("first", ["deadline", "move"])
async def test_a_deadline_and_the_last_move_in_two_processes_resolve_the_turn_once(
    tmp_path: Path, clock: FakeClock, first: str
) -> None:
    """The table's process times bob out while his last move, from a DM, is stored by the
    process holding shard 0: whichever writes second finds the turn resolved and reads it
    anew. The turn resolves once; a late move is told so in words, not with a crash."""
    path = str(tmp_path / "cluster.db")
    owner = await TableService.create(
        path, clock=clock, choose_action=first_choice, shards=Shards(2, (1,))
    )
    dms = await TableService.create(
        path, clock=clock, choose_action=first_choice, shards=Shards(2, (0,))
    )
    try:
        table = await owner.open_lobby(
            game="charioteer",
            host_id=ALICE,
            host_name="alice",
            settings=TableSettings(seats=2, turn_seconds=60, timeout_policy="reset"),
            guild_id=guild_on(1, 2),
        )
        await owner.join(table.id, BOB, "bob")
        await owner.start(table.id, ALICE)
        _, view = await owner.view_for(table.id, ALICE)
        await owner.submit(table.id, ALICE, view.legal_moves(discards=False)[0], 1)
        _, view = await dms.view_for(table.id, BOB)
        move = view.legal_moves(discards=False)[0]
        clock.advance(61)
        if first == "move":
            meanwhile = write_after(owner.storage, lambda: dms.submit(table.id, BOB, move, 1))
            assert await owner.fire_due() == []  # bob's move resolved the turn: nothing due
            [moved] = meanwhile
            assert isinstance(moved, Update) and moved.resolved
        else:
            meanwhile = write_after(dms.storage, owner.fire_due)
            with pytest.raises(ServiceError) as late:
                await dms.submit(table.id, BOB, move, 1)
            assert late.value.key == "error.stale_turn"
            [fired] = meanwhile
            assert isinstance(fired, list) and [u.resolved for u in fired] == [True]
        actions = await owner.storage.read(
            "SELECT seq, source FROM actions WHERE table_id = ? ORDER BY seq", (table.id,)
        )
        assert [tuple(row) for row in actions] == [
            (1, "player"),
            (2, "player" if first == "move" else "timeout"),
        ]
        reveals = await owner.storage.read(
            "SELECT turn FROM outbox WHERE table_id = ? AND kind = 'reveal'", (table.id,)
        )
        assert [row[0] for row in reveals] == [1]
        assert (await dms.table(table.id)).row.turn == 2
    finally:
        await owner.close()
        await dms.close()


async def test_ai_seats_played_before_another_process_acts_are_all_reported(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Alice's move, from a DM, is stored by the other process between the table's two AI
    moves: the second AI move is played again on the table as it now is, and every AI move
    is reported, the one stored before the conflict too."""
    path = str(tmp_path / "cluster.db")
    owner = await TableService.create(
        path, clock=clock, choose_action=first_choice, shards=Shards(2, (1,))
    )
    dms = await TableService.create(
        path, clock=clock, choose_action=first_choice, shards=Shards(2, (0,))
    )
    try:
        table = await owner.open_lobby(
            game="charioteer",
            host_id=ALICE,
            host_name="alice",
            settings=TableSettings(seats=3),
            guild_id=guild_on(1, 2),
        )
        await owner.add_ai(table.id, ALICE, "greedy")
        await owner.add_ai(table.id, ALICE, "greedy")
        await owner.start(table.id, ALICE)
        _, view = await dms.view_for(table.id, ALICE)
        move = view.legal_moves(discards=False)[0]
        store = owner.storage.store_actions
        meanwhile: list[list[object]] = []

        async def first_then_late(stored: Sequence[StoredAction]) -> None:
            owner.storage.store_actions = store  # type: ignore[method-assign]
            await store(stored)
            meanwhile.append(
                write_after(owner.storage, lambda: dms.submit(table.id, ALICE, move, 1))
            )

        owner.storage.store_actions = first_then_late  # type: ignore[method-assign]
        updates = await owner.play_ai_seats(table.id)
        # turn 1: B, then C played again after the conflict; turn 2 then starts
        assert [(update.seat, update.resolved) for update in updates] == [
            ("B", False),
            ("C", True),
            ("B", False),
            ("C", False),
        ]
        [[moved]] = meanwhile
        assert isinstance(moved, Update) and moved.seat == "A" and not moved.resolved
        actions = await owner.storage.read(
            "SELECT seq, source FROM actions WHERE table_id = ? ORDER BY seq", (table.id,)
        )
        assert [tuple(row) for row in actions] == [
            (1, "ai"),
            (2, "player"),
            (3, "ai"),
            (4, "ai"),
            (5, "ai"),
        ]
    finally:
        await owner.close()
        await dms.close()


def test_the_bot_stops_on_a_wrong_shard_setting_with_status_2(tmp_path: Path) -> None:
    done = run_bot(
        cwd=tmp_path,
        env={"DISCORD_TOKEN": "x", "SHARD_COUNT": "2", "CLUSTER_INDEX": "2", "CLUSTER_SIZE": "2"},
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("circus: CLUSTER_INDEX must be from 0 to 1")
    assert len(done.stderr.strip().splitlines()) == 1
