"""Storage details the service tests do not reach: the host's own facts, and a start-up
that leaves no statement running."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg
import pytest

from bot.postgres import PostgresDatabase
from bot.shards import EVERY_SHARD, Shards
from bot.sql import DuplicateRow
from bot.storage import StaleWrite, Storage, StorageError, StorageUnavailable, StoredAction
from engine.core import Action
from tests.databases import postgres_schema


async def test_opening_leaves_no_cursor_open_when_something_holds_on_to_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cursor that is never closed keeps its statement running until the garbage collector
    finds it; anything that holds on to results for a while (a debugger, a test harness that
    tracks futures) then makes the first migration fail with "cannot commit transaction - SQL
    statements in progress". Every cursor opened at start-up is closed."""
    held: list[aiosqlite.Cursor] = []
    make_cursor = aiosqlite.Cursor.__init__

    def make_and_hold(self: aiosqlite.Cursor, *args: Any) -> None:
        make_cursor(self, *args)
        held.append(self)

    monkeypatch.setattr(aiosqlite.Cursor, "__init__", make_and_hold)
    storage = await Storage.open(tmp_path / "races.db")
    try:
        assert held, "start-up opened no cursor"
        assert not storage.db.in_transaction
        async with storage.db.execute("PRAGMA journal_mode") as cursor:
            assert tuple(await cursor.fetchone() or ()) == ("wal",)
    finally:
        await storage.close()


async def test_a_host_fact_is_kept_replaced_and_survives_reopening(db_path: str) -> None:
    storage = await Storage.open(str(db_path))
    try:
        assert await storage.fact("commands:global") is None
        await storage.set_fact("commands:global", "one")
        await storage.set_fact("commands:global", "two")
        await storage.set_fact("commands:guild:5", "three")
    finally:
        await storage.close()
    reopened = await Storage.open(str(db_path))
    try:
        assert await reopened.fact("commands:global") == "two"
        assert await reopened.fact("commands:guild:5") == "three"
    finally:
        await reopened.close()


async def test_two_connections_storing_the_same_seq_at_once_store_it_once(db_path: str) -> None:
    """Two processes' writes of one table's next action: the table row's lock serialises
    them and the seq is re-checked under it, so one commits and the other is stale."""
    first, second = await Storage.open(db_path), await Storage.open(db_path)
    try:
        table_id = await first.create_table(
            game="charioteer",
            guild_id=1,
            channel_id=2,
            host_id=11,
            host_name="alice",
            settings={},
            seed=7,
            locale=None,
            now=1.0,
        )

        def action(storage_name: str) -> StoredAction:
            return StoredAction(
                table_id=table_id,
                seq=1,
                action=Action("move", "1", {"by": storage_name}, ()),
                by_user=11,
                source="player",
                at=2.0,
                state={"by": storage_name},
                turn=1,
                waiting="",
                status="running",
                deadline=None,
                announcements=(("reveal", 1),),
            )

        outcomes = await asyncio.gather(
            first.store_action(action("first")),
            second.store_action(action("second")),
            return_exceptions=True,
        )
        assert sorted(type(outcome).__name__ for outcome in outcomes) == ["NoneType", "StaleWrite"]
        winner = "first" if outcomes[0] is None else "second"
        assert [a.data for a in await second.actions(table_id)] == [{"by": winner}]
        table = await first.table(table_id)
        assert table is not None and table.seq == 1 and table.state == f'{{"by":"{winner}"}}'
        assert len(await first.pending_announcements(table_id)) == 1
    finally:
        await first.close()
        await second.close()


def count_round_trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every query the bot's PostgreSQL connections send from now on (a BEGIN and a COMMIT
    included), each a round trip to the server."""
    sent: list[str] = []
    for method in ("execute", "executemany", "fetch", "fetchrow", "fetchval"):
        original = getattr(asyncpg.Connection, method)

        async def counted(self: Any, query: str, *args: Any, _original: Any = original) -> Any:
            sent.append(query)
            return await _original(self, query, *args)

        monkeypatch.setattr(asyncpg.Connection, method, counted)
    return sent


async def test_a_postgresql_transaction_of_writes_is_one_round_trip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A new table with its seats, an action with the table's new position and its
    announcements, a stale action: each one statement sent, one answer awaited. The
    stale one keeps nothing; the ids each INSERT made are the ones stored."""
    async with postgres_schema() as url:
        storage = await Storage.open(url)
        try:
            sent = count_round_trips(monkeypatch)
            table_id = await storage.create_table(
                game="charioteer",
                guild_id=1,
                channel_id=2,
                host_id=11,
                host_name="alice",
                settings={},
                seed=7,
                locale=None,
                now=1.0,
                seated=[(11, "alice"), (22, "bob")],
            )
            assert len(sent) == 1
            assert [(s.seat, s.name) for s in await storage.seats(table_id)] == [
                ("1", "alice"),
                ("2", "bob"),
            ]
            stored = StoredAction(
                table_id=table_id,
                seq=1,
                action=Action("move", "1", {"to": 3}, ()),
                by_user=11,
                source="player",
                at=2.0,
                state={"moved": 1},
                turn=1,
                waiting="2",
                status="running",
                deadline=None,
                announcements=(("reveal", 1), ("board", 2)),
            )
            del sent[:]
            await storage.store_action(stored)
            assert len(sent) == 1
            with pytest.raises(StaleWrite):
                await storage.store_action(stored)
            assert len(sent) == 2
            table = await storage.table(table_id)
            assert table is not None and table.seq == 1 and table.state == '{"moved":1}'
            assert [a.data for a in await storage.actions(table_id)] == [{"to": 3}]
            posts = await storage.pending_announcements(table_id)
            assert sorted((post.kind, post.turn) for post in posts) == [("board", 2), ("reveal", 1)]
        finally:
            await storage.close()


async def test_a_duplicate_row_is_the_same_error_on_both_databases(db_path: str) -> None:
    storage = await Storage.open(db_path)
    try:
        insert = "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
        await storage.write_with(lambda db: db.execute(insert, (5, "{}")).close())
        with pytest.raises(DuplicateRow):
            await storage.write_with(lambda db: db.execute(insert, (5, "{}")).close())
        assert [tuple(row) for row in await storage.read("SELECT * FROM guild_settings")] == [
            (5, "{}")
        ]
    finally:
        await storage.close()


async def test_an_unreachable_postgresql_is_one_sentence_without_the_password() -> None:
    """And it may answer later: a start is tried again (:class:`StorageUnavailable`)."""
    with pytest.raises(StorageUnavailable) as raised:
        await Storage.open("postgresql://circus:secret@127.0.0.1:1/circus")
    message = str(raised.value)
    assert message.startswith("cannot reach the PostgreSQL database at 127.0.0.1:1/circus")
    assert "secret" not in message


async def test_a_postgresql_database_that_is_not_there_is_a_setting_to_fix() -> None:
    """A database name that is wrong will not be right later: not tried again."""
    async with postgres_schema() as url:
        parts = urlsplit(url)
        wrong = urlunsplit(parts._replace(path="/no_such_circus_database"))
        with pytest.raises(StorageError) as raised:
            await Storage.open(wrong)
    assert not isinstance(raised.value, StorageUnavailable)
    assert "no_such_circus_database" in str(raised.value)


async def running_tables(storage: Storage, deadlines: list[float]) -> list[int]:
    ids = []
    for deadline in deadlines:
        table_id = await storage.create_table(
            game="charioteer",
            guild_id=1,
            channel_id=2,
            host_id=11,
            host_name="alice",
            settings={},
            seed=7,
            locale=None,
            now=1.0,
        )
        await storage.update_table(table_id, 1.0, status="running", deadline=deadline)
        ids.append(table_id)
    return ids


async def test_processes_claim_disjoint_due_tables_until_their_lease_ends() -> None:
    """PostgreSQL: each due table is handled by one process at a time (a lease it renews);
    claiming at the same moment, two processes take disjoint tables."""
    async with postgres_schema() as url:
        first, second = await Storage.open(url), await Storage.open(url)
        try:
            tables = await running_tables(first, [10.0, 20.0, 30.0, 500.0])
            mine, theirs = await asyncio.gather(
                first.claim_due_tables(100.0, "first", lease=60.0, limit=2),
                second.claim_due_tables(100.0, "second", lease=60.0, limit=2),
            )
            assert not set(mine) & set(theirs)
            assert sorted(mine + theirs) == tables[:3]
            assert await first.claim_due_tables(110.0, "first", lease=60.0) == mine
            assert await second.claim_due_tables(110.0, "second", lease=60.0) == theirs
            assert await second.claim_due_tables(200.0, "second", lease=60.0) == tables[:3]
            await second.release_claims("second", tables[:1])
            assert await first.claim_due_tables(201.0, "first", lease=60.0) == tables[:1]
        finally:
            await first.close()
            await second.close()


async def test_processes_claim_disjoint_tables_with_posts_pending() -> None:
    async with postgres_schema() as url:
        first, second = await Storage.open(url), await Storage.open(url)
        try:
            tables = await running_tables(first, [1000.0, 1000.0, 1000.0])
            insert = (
                "INSERT INTO outbox (table_id, kind, seq, turn, created_at)"
                " VALUES (?, 'board', 0, 1, 1.0)"
            )
            for table_id in tables[:2]:
                await first.write_with(lambda db, r=table_id: db.execute(insert, (r,)).close())
            mine = await first.claim_tables_with_pending(5.0, "first", lease=60.0, limit=1)
            theirs = await second.claim_tables_with_pending(5.0, "second", lease=60.0)
            assert sorted(mine + theirs) == tables[:2] and len(mine) == 1
            await first.release_claims("first")
            assert await second.claim_tables_with_pending(6.0, "second", lease=60.0) == tables[:2]
        finally:
            await first.close()
            await second.close()


async def test_a_read_waits_for_no_write_in_progress(tmp_path: Path) -> None:
    """Reads do not queue behind a write on the connection's thread (under load they waited
    for every commit before them): while a write transaction is held open, a read of a
    table completes at once and sees the last committed state."""
    db_path = tmp_path / "circus.db"  # SQLite: its second, read-only connection
    storage = await Storage.open(str(db_path))
    try:
        table_id = await storage.create_table(
            game="charioteer",
            guild_id=None,
            channel_id=None,
            host_id=1,
            host_name="alice",
            settings={"seats": 2},
            seed=1,
            locale=None,
            now=1.0,
        )
        entered, release = threading.Event(), threading.Event()

        def hold(connection: sqlite3.Connection) -> None:
            connection.execute(
                "UPDATE game_tables SET status = 'running' WHERE id = ?", (table_id,)
            )
            entered.set()
            release.wait()

        writing = asyncio.create_task(storage.write_with(hold))
        await asyncio.to_thread(entered.wait)
        reading = asyncio.create_task(storage.table(table_id))
        await asyncio.sleep(0)
        done = reading.done()
        release.set()
        await writing
        assert done
        row = await reading
        assert row is not None and row.status == "lobby"
        assert (await storage.table(table_id)).status == "running"  # type: ignore[union-attr]
    finally:
        await storage.close()


async def test_writes_made_together_commit_together_and_fail_alone(tmp_path: Path) -> None:
    """Writes that arrive while one commits share the next commit (one disk sync), each
    still all or nothing: one that fails is rolled back alone."""
    db_path = tmp_path / "circus.db"  # SQLite: its second, read-only connection
    storage = await Storage.open(str(db_path))
    try:
        commits = storage.commits
        facts = [storage.set_fact(f"fact:{n}", str(n)) for n in range(8)]
        stale = storage.update_table(999, 1.0, status="running")  # no such table: StaleWrite
        outcomes = await asyncio.gather(*facts, stale, return_exceptions=True)
        assert outcomes[:8] == [None] * 8
        assert isinstance(outcomes[8], StaleWrite)
        assert storage.commits - commits < 8  # one each: 8
        assert [await storage.fact(f"fact:{n}") for n in range(8)] == [str(n) for n in range(8)]
    finally:
        await storage.close()
    reopened = await Storage.open(str(db_path))
    try:
        assert await reopened.fact("fact:7") == "7"
    finally:
        await reopened.close()


async def test_the_time_limit_dispatcher_reads_through_indexes(tmp_path: Path) -> None:
    """The dispatcher looks for deadlines and reminders after every change of any table's
    deadline; read by scanning, every look read every running table (under load, bursts that
    held the event loop). Each of its queries searches a range of an index by time on SQLite
    (not all running tables through the status index, and no sorting afterwards)."""
    storage = await Storage.open(str(tmp_path / "circus.db"))
    asked: list[tuple[str, Any]] = []
    fetch = storage.database.fetch

    async def recorded(sql: str, params: Any = ()) -> Any:
        asked.append((sql, params))
        return await fetch(sql, params)

    storage.database.fetch = recorded  # type: ignore[method-assign]
    try:
        shards = Shards(count=2, ids=(1,))
        for owned in (EVERY_SHARD, shards):
            await storage.next_deadline(owned)
            await storage.next_reminder(owned)
            await storage.due_tables(100.0, owned)
            await storage.reminder_candidates(100.0, owned)
        assert len(asked) == 8
        reader = storage.database.reader
        assert reader is not None
        for sql, params in asked:
            plan = [row[3] for row in reader.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
            searches_by_time = [
                step.startswith("SEARCH game_tables USING")
                and re.search(r"\((.*(deadline|remind_at)[<>])", step)
                for step in plan
            ]
            assert plan and all(searches_by_time), (sql, plan)
    finally:
        await storage.close()


async def test_a_pooled_postgresql_connection_comes_back_without_a_session_reset() -> None:
    """The pool skips asyncpg's session reset (a round trip more for every read): a setting
    made on a connection is still there when it is taken again. A transaction left open is
    still rolled back."""
    async with postgres_schema() as url:
        storage = await Storage.open(url)
        try:
            database = storage.database
            assert isinstance(database, PostgresDatabase)
            async with database.pool.acquire() as connection:
                server_process = connection.get_server_pid()
                await connection.execute("SET application_name = 'circus-test'")
                async with connection.transaction():
                    await connection.execute("INSERT INTO host_facts VALUES ('kept', 'yes')")
                await connection.execute("BEGIN")
                await connection.execute("INSERT INTO host_facts VALUES ('left', 'open')")
            async with database.pool.acquire() as connection:
                assert connection.get_server_pid() == server_process
                assert await connection.fetchval("SHOW application_name") == "circus-test"
                assert not connection.is_in_transaction()
            assert await storage.fact("kept") == "yes"
            assert await storage.fact("left") is None
        finally:
            await storage.close()


async def _terminate_when_running(url: str, marker: str) -> None:
    """End, from the server's side, the connection running the query that holds ``marker``
    (as a restart, a fail-over or a dropped network would), once it runs."""
    admin = await asyncpg.connect(url)
    try:
        for _ in range(200):
            pids = await admin.fetch(
                "SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1"
                " AND pid <> pg_backend_pid()",
                f"%{marker}%",
            )
            if pids:
                await admin.execute("SELECT pg_terminate_backend($1)", pids[0]["pid"])
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"no query with {marker} ran")
    finally:
        await admin.close()


async def test_a_postgresql_connection_lost_during_a_read_or_a_write_is_replaced() -> None:
    """The server ends the bot's connection in the middle of a query (a restart, a
    fail-over, a dropped network): the read is asked again and the write, which was not
    committed, made again on a new connection; it is stored once."""
    async with postgres_schema() as url:
        storage = await Storage.open(url)
        try:
            database = storage.database
            assert isinstance(database, PostgresDatabase)
            read = asyncio.create_task(
                database.fetch("SELECT 7 AS seven, pg_sleep(0.5) AS lost_read")
            )
            await _terminate_when_running(url, "lost_read")
            assert (await read)[0]["seven"] == 7
            write = asyncio.create_task(
                storage._write(
                    [
                        ("INSERT INTO host_facts (key, value) VALUES ('written', 'once')", ()),
                        ("SELECT pg_sleep(0.5) AS lost_write", ()),
                    ]
                )
            )
            await _terminate_when_running(url, "lost_write")
            await write
            assert await storage.fact("written") == "once"
            async with database.pool.acquire() as connection:
                assert await connection.fetchval("SHOW application_name") == "circus"
        finally:
            await storage.close()
