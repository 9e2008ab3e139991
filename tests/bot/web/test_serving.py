"""``python -m bot web`` as it starts: it serves the bot's database as it is, and never
creates, migrates or writes one (a missing file is a setting to fix, an older schema waits
for the bot to migrate it)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.config import Settings
from bot.migrations import migrations
from bot.sql import POSTGRES, SQLITE
from bot.storage import Storage, is_postgres_url
from bot.web.app import run
from tests.databases import rows

UNBOUND = "192.0.2.1"
"""An address of no machine (TEST-NET-1): a server that got as far as listening fails."""


def settings_for(database: str) -> Settings:
    settings = Settings(None, Path("unused.db"), "INFO", None, web_host=UNBOUND)
    return settings.with_database(database)


async def older_database(target: str, applied: int) -> None:
    """A database the bot migrated up to ``applied`` only (an older bot's)."""
    if not is_postgres_url(target):
        db = sqlite3.connect(target)
        for script in migrations(SQLITE)[:applied]:
            db.executescript(script)
        db.execute(f"PRAGMA user_version={applied}")
        db.close()
        return
    connection = await asyncpg.connect(target)
    try:
        await connection.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
        for number, script in enumerate(migrations(POSTGRES)[:applied], start=1):
            await connection.execute(script)
            await connection.execute("INSERT INTO schema_version VALUES ($1)", number)
    finally:
        await connection.close()


def tables(database: str) -> set[str]:
    if is_postgres_url(database):
        found = rows(
            database,
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema()",
        )
    else:
        found = rows(database, "SELECT name FROM sqlite_master WHERE type = 'table'")
    return {str(row[0]) for row in found}


def test_a_missing_database_file_is_refused_and_not_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo" / "circus.db"
    assert run(settings_for(str(missing)), pauses=(0.0,)) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("circus: ") and str(missing) in line and "DATABASE_PATH" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("applied", [0, 3])
async def test_an_older_database_is_refused_and_left_as_it_is(
    database: str, applied: int, capsys: pytest.CaptureFixture[str]
) -> None:
    await older_database(database, applied)
    before = tables(database)
    assert await asyncio.to_thread(run, settings_for(database), pauses=()) == 75
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("circus: ") and "start the bot" in line
    assert f"version {applied}" in line
    assert tables(database) == before


async def test_a_database_opened_as_is_is_read_and_never_written(database: str) -> None:
    made = await Storage.open(database)
    await made.set_fact("kept", "yes")
    await made.close()
    storage = await Storage.open_as_is(database)
    try:
        assert await storage.fact("kept") == "yes"
        with pytest.raises(Exception, match=r"read-only|readonly") as refused:
            await storage.set_fact("kept", "no")
        assert not isinstance(refused.value, AssertionError)
        assert await storage.fact("kept") == "yes"
    finally:
        await storage.close()
