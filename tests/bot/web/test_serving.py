"""``python -m bot web`` as it starts: it serves the bot's database as it is, and never
creates, migrates or writes one (a missing file is a setting to fix, an older schema waits
for the bot to migrate it)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.health import web_health
from bot.migrations import migrations
from bot.sql import POSTGRES, SQLITE
from bot.storage import Storage, is_postgres_url
from bot.web.app import Site, access_log, run
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


@contextlib.asynccontextmanager
async def served(storage: Storage, settings: Settings) -> AsyncIterator[TestClient]:
    """The site over ``storage``, on a loopback port, logging as ``settings`` say."""
    site = Site(storage)
    server = TestServer(site.application(), host="127.0.0.1")
    await server.start_server(**access_log(settings))
    client = TestClient(server)
    await client.start_server()
    try:
        yield client
    finally:
        await client.close()


async def test_healthz_answers_while_the_database_does(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "circus.db"))
    settings = settings_for(str(tmp_path / "circus.db"))
    async with served(storage, settings) as client:
        async with client.get("/healthz") as answer:
            assert answer.status == 200 and await answer.text() == "ok\n"
            assert answer.headers["Cache-Control"] == "no-store"
            assert "default-src 'none'" in answer.headers["Content-Security-Policy"]
        port = client.server.port
        assert port is not None
        checked = await asyncio.to_thread(web_health, "0.0.0.0", port)
        assert checked.well and checked.status == 0
        await storage.close()
        async with client.get("/healthz") as answer:
            assert answer.status == 503 and "database" in await answer.text()
        checked = await asyncio.to_thread(web_health, "127.0.0.1", port)
        assert not checked.well and checked.status == 1 and "503" in checked.said


@pytest.mark.parametrize("on", [True, False])
async def test_the_access_log_hides_the_pages_keys_and_skips_health_checks(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, on: bool
) -> None:
    storage = await Storage.open(str(tmp_path / "circus.db"))
    settings = dataclasses.replace(settings_for(str(tmp_path / "circus.db")), web_access_log=on)
    slug, token = "A" * 11 + "b_-" + "9" * 8, "0123456789abcdef"
    try:
        with caplog.at_level(logging.INFO, logger="bot.web.access"):
            async with served(storage, settings) as client:
                for path in ("/healthz", f"/s/{slug}/g/4?page=2", f"/s/{slug}/p/{token}"):
                    async with client.get(path) as answer:
                        await answer.read()
    finally:
        await storage.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.web.access"]
    if not on:
        assert lines == []
        return
    assert len(lines) == 2
    assert lines[0].startswith("GET /s/…/g/4?page=2 404 ")
    assert lines[1].startswith("GET /s/…/p/… 404 ") and lines[1].endswith(" ms")
    assert not any(slug in line or token in line for line in lines)
