"""The PostgreSQL backend of :class:`bot.storage.Storage` (asyncpg): a connection pool, the
numbered migrations in PostgreSQL's dialect, and write transactions.

Several bot processes may share one database. A write transaction runs on one pooled
connection; an UPDATE that finds no row (a table whose ``seq`` moved on) aborts it with
:class:`bot.sql.StaleWrite`, and a broken unique key with :class:`bot.sql.DuplicateRow`.
A transaction whose statements allow it is sent as one statement, one round trip
(:func:`one_statement`): a stored action was a BEGIN, an UPDATE, an INSERT or more and a
COMMIT, each waiting for the server's answer before the next.
Work done inside a transaction by synchronous code (ratings) runs on a worker thread and
reaches the transaction's connection through :class:`_Bridge`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.migrations import migrations
from bot.sql import (
    LAST_ID,
    POSTGRES,
    DuplicateRow,
    InTransaction,
    Row,
    StaleWrite,
    numbered_placeholders,
    with_last_id,
)

log = logging.getLogger(__name__)

POOL_SIZE = 4
APPLICATION_NAME = "circus"
"""How the bot's connections show in ``pg_stat_activity``."""
LOST_CONNECTION = (
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    OSError,
)
"""A connection the server closed or never gave (a restart, a proxy's time-out, the
network): what a query is tried again for, on a new connection."""
RECONNECT_PAUSES = (0.1, 0.3, 1.0, 3.0)
"""Seconds to wait before each new try after a lost connection (some 4 s in all: a
server restarting, a fail-over); then the error goes to the caller."""
MIGRATION_LOCK = 0x43697263
"""The advisory lock key (``Circ``) that lets one process at a time migrate a schema."""
TABLES_WITH_IDS = frozenset({"game_tables", "outbox", "rating_changes", "tournaments"})
"""Tables whose INSERTs answer the new row's id (``lastrowid`` on SQLite)."""

_INSERT_INTO = re.compile(r"\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
_WRITES_TO = re.compile(r"(?:UPDATE|INSERT\s+INTO)\s+(\w+)\s")
_READS_OR_MERGES = re.compile(r"\b(SELECT|RETURNING|ON\s+CONFLICT|FROM)\b", re.IGNORECASE)
"""What a statement of a one-statement transaction may not hold: a read of a table (which
would not see what the statement's other clauses write), a conflict clause (which the
same row met twice in one statement refuses), rows of its own to return."""

_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)

MIGRATIONS = migrations(POSTGRES)
"""The numbered migrations in PostgreSQL's dialect."""


class _Cursor:
    """A statement's answer, shaped like ``sqlite3.Cursor``."""

    def __init__(self, rows: list[Row], rowcount: int, lastrowid: int | None) -> None:
        self.rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[Any]:
        return list(self.rows)

    def close(self) -> None:
        pass


async def _run(connection: asyncpg.Connection, sql: str, params: Sequence[Any]) -> _Cursor:
    text = numbered_placeholders(sql)
    insert = _INSERT_INTO.match(sql)
    if insert and insert.group(1).lower() in TABLES_WITH_IDS and not _RETURNS_ROWS.search(sql):
        row = await connection.fetchrow(text + " RETURNING id", *params)
        return _Cursor([], 1, None if row is None else int(row[0]))
    if _RETURNS_ROWS.search(sql):
        rows = await connection.fetch(text, *params)
        return _Cursor(rows, len(rows), None)
    status = await connection.execute(text, *params)
    count = status.rsplit(" ", 1)[-1]
    return _Cursor([], int(count) if count.isdigit() else 0, None)


def one_statement(statements: Sequence[tuple[str, Sequence[Any]]]) -> tuple[str, list[Any]] | None:
    """The statements of a transaction as one statement (and its parameters), or None when
    they do not allow it.

    Each becomes a data-modifying ``WITH`` clause of one statement, which PostgreSQL runs
    atomically on its own; its result row has, for each statement, the id its INSERT made
    (``RETURNING id``), else NULL. An UPDATE that changes no row makes the statement fail
    (a division by its count of rows) before anything of it is kept, as
    :class:`StaleWrite` aborts a transaction. A parameter ``LAST_ID`` becomes the id the
    previous INSERT returned. The clauses of one statement all see the database as it was
    before it, so only statements no other one of the transaction depends on are allowed:
    INSERT … VALUES and UPDATE without a read of their own, no table updated and written
    again, no ``ON CONFLICT`` or ``RETURNING``."""
    clauses: list[str] = []
    shown: list[str] = []
    params: list[Any] = []
    updated: set[str] = set()
    written: set[str] = set()
    last: str | None = None
    for index, (sql, values) in enumerate(statements):
        target = _WRITES_TO.match(sql)
        if target is None or _READS_OR_MERGES.search(sql):
            return None
        table = target.group(1).lower()
        update = sql.startswith("UPDATE")
        if table in updated or (update and table in written):
            return None
        (updated if update else written).add(table)
        text = _numbered(sql, values, params, last)
        name = f"s{index}"
        if update:
            clauses.append(f"{name} AS ({text} RETURNING 1)")
            shown.append(f"CASE WHEN 1 / (SELECT COUNT(*) FROM {name})::int > 0 THEN NULL END")
        elif table in TABLES_WITH_IDS:
            clauses.append(f"{name} AS ({text} RETURNING id)")
            shown.append(f"(SELECT MAX(id) FROM {name})")
            last = name
        else:
            clauses.append(f"{name} AS ({text})")
            shown.append("NULL::bigint")
    return f"WITH {', '.join(clauses)} SELECT {', '.join(shown)}", params


def _numbered(sql: str, values: Sequence[Any], params: list[Any], last: str | None) -> str:
    """``sql`` with its ``?`` placeholders numbered after ``params`` (which its values
    join), ``LAST_ID`` read from the clause ``last``."""
    out: list[str] = []
    supplied = iter(values)
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char != "?" or quoted:
            out.append(char)
            continue
        value = next(supplied)
        if value is LAST_ID:
            if last is None:
                raise ValueError("LAST_ID without an INSERT before it")
            out.append(f"(SELECT MAX(id) FROM {last})")
        else:
            params.append(value)
            out.append(f"${len(params)}")
    return "".join(out)


class _Bridge:
    """The transaction's connection for synchronous work on a worker thread: each
    statement runs on the event loop, and the thread waits for its answer."""

    def __init__(self, connection: asyncpg.Connection, loop: asyncio.AbstractEventLoop) -> None:
        self.connection = connection
        self.loop = loop

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> _Cursor:
        job = asyncio.run_coroutine_threadsafe(_run(self.connection, sql, parameters), self.loop)
        return job.result()


async def _keep_session(connection: asyncpg.Connection) -> None:
    """How a connection goes back to the pool: as it is. asyncpg rolls back a transaction
    left open either way; its default reset also clears the session (settings, listeners,
    advisory locks, cursors: the host keeps none past a transaction), a round trip more for
    every read and write, and under load most of a read's time."""


class PostgresDatabase:
    """A pool of connections to one PostgreSQL schema (the URL's ``search_path``)."""

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.url = url
        self.commits = 0
        """Transactions committed so far."""

    @classmethod
    async def connect(cls, url: str, *, as_is: bool = False) -> PostgresDatabase:
        """Connect and migrate; raises ``OSError`` or ``asyncpg.PostgresError``. ``as_is``:
        only to read (every transaction read-only), a schema at this code's version."""
        settings = {"application_name": APPLICATION_NAME}
        if as_is:
            settings["default_transaction_read_only"] = "on"
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=POOL_SIZE, reset=_keep_session, server_settings=settings
        )
        database = cls(pool, url)
        if as_is:
            return database
        try:
            await database.migrate()
        except BaseException:
            await pool.close()
            raise
        return database

    async def close(self) -> None:
        await self.pool.close()

    async def migrate(self) -> None:
        """Apply the migrations the schema has not seen yet, each in its own transaction,
        one process at a time (the version is read again under the lock)."""
        async with self.pool.acquire() as connection:
            for number, script in enumerate(MIGRATIONS, start=1):
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    if await self._version(connection) >= number:
                        continue
                    await connection.execute(script)
                    await connection.execute("INSERT INTO schema_version VALUES ($1)", number)
                log.info("database schema migrated to version %d", number)

    async def schema_version(self) -> int:
        """The schema's version, read as it is (0: an empty schema)."""
        async with self.pool.acquire() as connection:
            return await self._version(connection, make=False)

    @staticmethod
    async def _version(connection: asyncpg.Connection, *, make: bool = True) -> int:
        """The schema's version (0 for an empty schema, where ``make`` makes the table
        that keeps it)."""
        if await connection.fetchval("SELECT to_regclass('schema_version')") is None:
            if not make:
                return 0
            await connection.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
        version = await connection.fetchval("SELECT MAX(version) FROM schema_version")
        return int(version or 0)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of a query; tried again on a new connection if the server closed one."""
        for pause in (*RECONNECT_PAUSES, None):
            try:
                async with self.pool.acquire() as connection:
                    rows: list[Row] = await connection.fetch(numbered_placeholders(sql), *params)
                    return rows
            except LOST_CONNECTION as error:
                if pause is None:
                    raise
                await self._lost(error, pause)
        raise AssertionError("unreachable")

    async def transaction(
        self, statements: Sequence[tuple[str, Sequence[Any]]], then: InTransaction | None
    ) -> list[int | None]:
        """The statements and ``then`` in one transaction (see :meth:`Storage._write`).

        A connection lost before the commit was asked for left nothing behind: the
        transaction is run again on a new one. One lost during the commit may or may not
        have committed, so that error goes to the caller (a stored action's unique seq
        refuses a second copy of it)."""
        for pause in (*RECONNECT_PAUSES, None):
            try:
                return await self._transaction(statements, then)
            except _LostBeforeCommit as lost:
                if pause is None:
                    raise lost.error from None
                await self._lost(lost.error, pause)
        raise AssertionError("unreachable")

    async def _transaction(
        self, statements: Sequence[tuple[str, Sequence[Any]]], then: InTransaction | None
    ) -> list[int | None]:
        single = one_statement(statements) if then is None and statements else None
        if single is not None:
            return await self._one_statement(*single)
        ids: list[int | None] = []
        try:
            async with self.pool.acquire() as connection:
                transaction = connection.transaction()
                try:
                    await transaction.start()
                    last: int | None = None
                    for sql, params in statements:
                        cursor = await _run(connection, sql, with_last_id(params, last))
                        if sql.startswith("UPDATE") and cursor.rowcount == 0:
                            raise StaleWrite(f"nothing to update: {sql.split(' WHERE ')[-1]}")
                        ids.append(cursor.lastrowid)
                        last = cursor.lastrowid if cursor.lastrowid is not None else last
                    if then is not None:
                        bridge = _Bridge(connection, asyncio.get_running_loop())
                        await asyncio.to_thread(then, bridge)
                except LOST_CONNECTION as error:
                    raise _LostBeforeCommit(error) from error
                except BaseException:
                    with contextlib.suppress(*LOST_CONNECTION):
                        await transaction.rollback()
                    raise
                await transaction.commit()
        except asyncpg.UniqueViolationError as error:
            raise DuplicateRow(str(error)) from None
        self.commits += 1
        return ids

    async def _one_statement(self, sql: str, params: Sequence[Any]) -> list[int | None]:
        """A transaction sent as one statement (:func:`one_statement`): the ids its INSERTs
        made. A connection lost while it runs may or may not have committed it: that error
        goes to the caller, as one lost during a commit."""
        async with self.pool.acquire() as connection:
            try:
                row = await connection.fetchrow(sql, *params)
            except asyncpg.DivisionByZeroError:
                raise StaleWrite("nothing to update: an UPDATE found no row") from None
            except asyncpg.UniqueViolationError as error:
                raise DuplicateRow(str(error)) from None
        self.commits += 1
        assert row is not None
        return [None if value is None else int(value) for value in row]

    @staticmethod
    async def _lost(error: BaseException, pause: float) -> None:
        log.warning(
            "the PostgreSQL connection was lost (%s); trying again in %.1f s",
            type(error).__name__,
            pause,
        )
        await asyncio.sleep(pause)


class _LostBeforeCommit(Exception):
    """The connection went before the transaction's commit was asked for."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error
