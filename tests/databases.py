"""Where a test's races are stored: a SQLite file, or a fresh PostgreSQL schema.

PostgreSQL is the server at ``TEST_DATABASE_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``); each test gets a schema of its own, made
for it and dropped after. When no server answers, PostgreSQL tests are skipped, or fail
where PostgreSQL is required (``CI`` or ``CIRCUS_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import pytest

from bot.sql import numbered_placeholders
from bot.storage import is_postgres_url

BACKENDS = ("sqlite", "postgres")
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"

_unreachable: dict[str, str | None] = {}


def server_url() -> str:
    return os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_URL


def postgres_required() -> bool:
    return bool(os.environ.get("CI")) or os.environ.get("CIRCUS_REQUIRE_POSTGRES") == "1"


def with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    query.append(("search_path", schema))
    return urlunsplit(parts._replace(query=urlencode(query)))


async def _problem(url: str) -> str | None:
    """Why the server cannot be used, or ``None`` (asked once per test run)."""
    if url not in _unreachable:
        try:
            connection = await asyncpg.connect(url, timeout=5)
            await connection.close()
            _unreachable[url] = None
        except (OSError, TimeoutError, asyncpg.PostgresError) as error:
            _unreachable[url] = f"{error.__class__.__name__}: {error}"
    return _unreachable[url]


@contextlib.asynccontextmanager
async def fresh_schema(server: str, prefix: str = "test") -> AsyncIterator[str]:
    """A new, empty schema on ``server`` (named ``<prefix>_<random hex>``), as a URL whose
    ``search_path`` is that schema; dropped afterwards. The benches make theirs here too."""
    schema = f"{prefix}_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_search_path(server, schema)
    finally:
        try:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        finally:
            await admin.close()


@contextlib.asynccontextmanager
async def postgres_schema() -> AsyncIterator[str]:
    """A fresh schema on the test server (:func:`fresh_schema`); skipped, or failed where
    PostgreSQL is required, when no server answers."""
    url = server_url()
    problem = await _problem(url)
    if problem is not None:
        where = url.split("@")[-1]
        reason = (
            f"PostgreSQL not reachable at {where} ({problem}); start one (README) or set"
            " TEST_DATABASE_URL"
        )
        if postgres_required():
            pytest.fail(reason)
        pytest.skip(reason)
    async with fresh_schema(url) as schema_url:
        yield schema_url


@contextlib.asynccontextmanager
async def database_for(backend: str, folder: Path, name: str = "races.db") -> AsyncIterator[str]:
    """The database a test stores races in: a SQLite file in ``folder`` or a fresh schema."""
    if backend == "sqlite":
        yield str(folder / name)
    else:
        async with postgres_schema() as url:
            yield url


async def _fetch(url: str, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    connection = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await connection.fetch(numbered_placeholders(sql), *params)]
    finally:
        await connection.close()


def rows(database: str | Path, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows of a query, read straight from the database (either backend), from synchronous
    code: what a test checks behind the bot's back."""
    if not is_postgres_url(database):
        import sqlite3

        with contextlib.closing(sqlite3.connect(database)) as db:
            return [tuple(row) for row in db.execute(sql, params)]
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, _fetch(str(database), sql, params)).result()


def execute(database: str | Path, sql: str, params: Sequence[Any] = ()) -> None:
    """Change rows behind the bot's back (either backend)."""
    if not is_postgres_url(database):
        import sqlite3

        with contextlib.closing(sqlite3.connect(database)) as db, db:
            db.execute(sql, params)
        return
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, _fetch(str(database), sql, params)).result()
