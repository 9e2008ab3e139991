"""Storage details the service tests do not reach: the host's own facts, and a start-up
that leaves no statement running."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.storage import Storage


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
