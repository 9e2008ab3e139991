"""Storage details the service tests do not reach: the host's own facts, and a start-up
that leaves no statement running."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.storage import StaleWrite, Storage


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


async def test_a_host_fact_is_kept_replaced_and_survives_reopening(db_path: Path) -> None:
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


async def test_a_read_waits_for_no_write_in_progress(db_path: Path) -> None:
    """Reads do not queue behind a write on the connection's thread (under load they waited
    for every commit before them): while a write transaction is held open, a read of a
    race completes at once and sees the last committed state."""
    storage = await Storage.open(str(db_path))
    try:
        race_id = await storage.create_race(
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
            connection.execute("UPDATE races SET status = 'running' WHERE id = ?", (race_id,))
            entered.set()
            release.wait()

        writing = asyncio.create_task(storage.write_with(hold))
        await asyncio.to_thread(entered.wait)
        reading = asyncio.create_task(storage.race(race_id))
        await asyncio.sleep(0)
        done = reading.done()
        release.set()
        await writing
        assert done
        row = await reading
        assert row is not None and row.status == "lobby"
        assert (await storage.race(race_id)).status == "running"  # type: ignore[union-attr]
    finally:
        await storage.close()


async def test_writes_made_together_commit_together_and_fail_alone(db_path: Path) -> None:
    """Writes that arrive while one commits share the next commit (one disk sync), each
    still all or nothing: one that fails is rolled back alone."""
    storage = await Storage.open(str(db_path))
    try:
        commits = storage.commits
        facts = [storage.set_fact(f"fact:{n}", str(n)) for n in range(8)]
        stale = storage.update_race(999, 1.0, status="running")  # no such race: StaleWrite
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
