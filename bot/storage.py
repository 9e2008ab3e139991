"""Durable storage of game tables: lobbies, seats, the action log, the announcements still to
post, time limits, drafts of moves and results, in SQLite (aiosqlite; the default, one
process) or PostgreSQL (asyncpg, :mod:`bot.postgres`; several processes may share it).

Every accepted action is written in one transaction together with the table's snapshot,
its next deadline and the announcements it causes; ``(table_id, seq)`` is unique and the
table's ``seq`` is re-checked under the table row's lock, so an action can never be stored
twice. Schema changes are the numbered migrations of :mod:`bot.migrations`, written once
for both databases.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from bot.community.ratings import rate_finished_game
from bot.migrations import migrations
from bot.postgres import PostgresDatabase
from bot.shards import EVERY_SHARD, Shards
from bot.sql import DIALECTS, LAST_ID, SQLITE, DuplicateRow, Row, with_last_id
from bot.sql import InTransaction as InTransaction
from bot.sql import StaleWrite as StaleWrite
from bot.sql import StorageError as StorageError
from bot.sql import StorageUnavailable as StorageUnavailable
from bot.timebank import Away
from engine.core import JSON, Action

log = logging.getLogger(__name__)

MIGRATIONS = migrations(SQLITE)
"""The numbered migrations in SQLite's dialect."""


@dataclass(frozen=True)
class TableRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    host_id: int
    status: str
    settings: dict[str, JSON]
    seed: int
    setup: str | None
    """The set-up's chance outcomes, as stored JSON (parsed only to rebuild a table)."""
    state: str | None
    """The table's position after its last action, as stored JSON (parsed only to load it)."""
    seq: int
    turn: int
    waiting: str
    deadline: float | None
    reminders: int
    lobby_message_id: int | None
    board_message_id: int | None
    locale: str | None
    created_at: float
    updated_at: float
    claimed_by: str | None = None
    """The bot process handling the table's time limits and posts (PostgreSQL)."""
    claimed_until: float | None = None
    remind_at: float | None = None
    """When the table's next reminder is due, if one is owed (kept by the database)."""
    version: int = 0
    """Moved by every write to the table's row or seats, claims aside (see
    :meth:`Storage.table_version`)."""
    clocks: dict[str, JSON] | None = None
    """Each seat's clock (:mod:`bot.timebank`); None for a table started before them."""


@dataclass(frozen=True)
class SeatRow:
    table_id: int
    seat: str
    user_id: int | None
    name: str
    ai_level: str | None
    joined_at: float

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class OutboxRow:
    id: int
    table_id: int
    kind: str
    seq: int
    turn: int
    message_id: int | None
    snapshot: dict[str, JSON] | None = None
    """The table as the action that made this announcement left it (see
    :meth:`bot.service.TableService.announcements`); None for one stored before
    migration 13."""


@dataclass(frozen=True)
class ResultRow:
    table_id: int
    seat: str
    user_id: int | None
    name: str
    place: int
    turns: int
    finished_at: float
    team: str | None = None


@dataclass(frozen=True)
class StoredAction:
    """One accepted action and what it changed, written in one transaction."""

    table_id: int
    seq: int
    action: Action
    by_user: int | None
    source: str
    at: float
    state: dict[str, JSON]
    turn: int
    waiting: str
    status: str
    deadline: float | None
    clocks: dict[str, JSON] | None = None
    announcements: tuple[tuple[str, int], ...] = ()
    """(kind, turn) rows to add to the outbox, keyed by this action's seq."""
    results: tuple[ResultRow, ...] = ()
    """The final placings when this action ends the game (stored in the same transaction,
    with the rating changes they cause)."""
    seats: tuple[SeatRow, ...] | None = None
    """The table's seats after this action, when it comes with a change of hands (a
    substitution withdrawing the seat's move); ``holders`` are the new seat holders."""
    holders: tuple[SeatRow, ...] = ()
    snapshot: dict[str, JSON] | None = None
    """The snapshot stored with each of this action's announcements."""


JSON_TABLE_FIELDS = ("settings", "setup", "state", "clocks")


def table_row(row: Row) -> TableRow:
    """A ``game_tables`` row as read (``SELECT *``), its settings parsed."""
    values: dict[str, Any] = dict(row)
    values["settings"] = json.loads(values["settings"])
    values["clocks"] = _loads_or_none(values.get("clocks"))
    return TableRow(**values)


def _result_statements(results: Iterable[ResultRow]) -> list[tuple[str, Sequence[Any]]]:
    return [
        (
            "INSERT INTO results (table_id, seat, user_id, name, place, turns, finished_at, team)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
            " user_id = excluded.user_id, name = excluded.name, place = excluded.place,"
            " turns = excluded.turns, finished_at = excluded.finished_at, team = excluded.team",
            (r.table_id, r.seat, r.user_id, r.name, r.place, r.turns, r.finished_at, r.team),
        )
        for r in results
    ]


def _seat_statements(
    table_id: int, seats: Sequence[SeatRow], holders: Iterable[SeatRow], now: float
) -> list[tuple[str, Sequence[Any]]]:
    """Statements that rewrite a table's seats and record new seat holders."""
    statements: list[tuple[str, Sequence[Any]]] = [
        ("DELETE FROM seats WHERE table_id = ?", (table_id,))
    ]
    for seat in seats:
        statements.append(
            (
                "INSERT INTO seats (table_id, seat, user_id, name, ai_level, joined_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, seat.seat, seat.user_id, seat.name, seat.ai_level, seat.joined_at),
            )
        )
    for holder in holders:
        if holder.user_id is not None:
            statements.append(
                (
                    "INSERT INTO seat_holders (table_id, user_id, seat, since) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (table_id, user_id) DO NOTHING",
                    (table_id, holder.user_id, holder.seat, now),
                )
            )
    return statements


def _json_text_or_none(value: JSON | None) -> str | None:
    return None if value is None else json_text(value)


def _loads_or_none(text: str | None) -> JSON | None:
    return None if text is None else json.loads(text)


def json_text(value: JSON) -> str:
    """A value as the database stores JSON (compact, characters as they are)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _table_columns(fields: dict[str, Any]) -> dict[str, Any]:
    """Table fields as column values: the JSON ones (settings, setup, state) as text."""
    return {
        name: json_text(value) if name in JSON_TABLE_FIELDS and value is not None else value
        for name, value in fields.items()
    }


def _transaction(
    connection: sqlite3.Connection,
    statements: Sequence[tuple[str, Sequence[Any]]],
    then: InTransaction | None = None,
) -> list[int | None]:
    """Run on the connection's own thread: BEGIN IMMEDIATE, the statements, ``then``,
    COMMIT."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        ids = _statements(connection, statements, then)
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return ids


def _statements(
    connection: sqlite3.Connection,
    statements: Sequence[tuple[str, Sequence[Any]]],
    then: InTransaction | None,
) -> list[int | None]:
    ids: list[int | None] = []
    last: int | None = None
    for sql, params in statements:
        cursor = connection.execute(sql, with_last_id(params, last))
        if sql.startswith("UPDATE") and cursor.rowcount == 0:
            raise StaleWrite(f"nothing to update: {sql.split(' WHERE ')[-1]}")
        ids.append(cursor.lastrowid)
        last = cursor.lastrowid if sql.startswith("INSERT") else last
        cursor.close()
    if then is not None:
        then(connection)
    return ids


WriteJob = tuple[Sequence[tuple[str, Sequence[Any]]], "InTransaction | None"]


def _group(
    connection: sqlite3.Connection, jobs: Sequence[WriteJob]
) -> list[list[int | None] | Exception]:
    """Run on the connection's own thread: several writers' transactions under one
    BEGIN IMMEDIATE … COMMIT, each in its own savepoint (one that fails is rolled back
    alone and gets its error), so one disk sync makes them all durable."""
    outcomes: list[list[int | None] | Exception] = []
    connection.execute("BEGIN IMMEDIATE")
    try:
        for statements, then in jobs:
            connection.execute("SAVEPOINT job")
            try:
                outcomes.append(_statements(connection, statements, then))
            except Exception as error:
                connection.execute("ROLLBACK TO job")
                outcomes.append(error)
            connection.execute("RELEASE job")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return outcomes


STARTUP_PRAGMAS = (
    "PRAGMA busy_timeout=5000",  # first: another process may hold the file while we set up
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
)

AS_IS_PRAGMAS = ("PRAGMA busy_timeout=5000", "PRAGMA query_only=ON")
"""A file opened only to read: no statement may change it (the bot made it WAL)."""


def check_version(where: str, version: int) -> None:
    """Refuse a database opened as it is whose schema is older than this code's: the bot
    migrates it when it starts (a newer one, from a newer bot, is read as it is)."""
    latest = len(MIGRATIONS)
    if version >= latest:
        if version > latest:
            log.warning(
                "%s is at schema version %d, newer than this version's %d: upgrade this"
                " program to the bot's version",
                where,
                version,
                latest,
            )
        return
    if version == 0:
        raise StorageUnavailable(
            f"{where} has no tables of the bot yet (schema version 0, this version's is"
            f" {latest}): start the bot on it first, which makes them"
        )
    raise StorageUnavailable(
        f"{where} is at schema version {version}, older than this version's {latest}: start"
        " the bot on it first, which migrates it"
    )


PRAGMA_TRIES = 50
PRAGMA_RETRY_SECONDS = 0.1


async def _startup_pragma(db: aiosqlite.Connection, pragma: str) -> None:
    """Run a start-up pragma. Switching a new file to WAL while another process sets it
    up can be refused at once ("database is locked", the busy timeout does not apply to
    it): it is tried again for a few seconds."""
    for attempt in range(1, PRAGMA_TRIES + 1):
        try:
            # ``journal_mode`` answers with a row: an unclosed cursor would keep its
            # statement running and make the first COMMIT fail.
            async with db.execute(pragma):
                return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == PRAGMA_TRIES:
                raise
            await asyncio.sleep(PRAGMA_RETRY_SECONDS)


READ_BUSY_MS = 50
"""How long a read on the event loop waits for a busy file before it goes to the thread."""


def _reader(path: Path) -> sqlite3.Connection | None:
    """A read-only connection to the file (None for an in-memory database, which a second
    connection would not see)."""
    if str(path) == ":memory:" or not path.exists():
        return None
    reader = sqlite3.connect(path, isolation_level=None)
    reader.row_factory = sqlite3.Row
    reader.execute("PRAGMA query_only=ON")
    reader.execute(f"PRAGMA busy_timeout={READ_BUSY_MS}")
    return reader


def version_still(version: int) -> str:
    """SQL that fails (a broken CHECK) unless the file's schema version is ``version``."""
    return (
        f"CREATE TEMP TABLE version_read (version INTEGER CHECK (version = {int(version)}));"
        " INSERT INTO version_read SELECT user_version FROM pragma_user_version;"
        " DROP TABLE version_read;"
    )


class SqliteDatabase:
    """One SQLite file on one aiosqlite connection (one process)."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self.db = db
        self.path = path
        self.commits = 0
        """Disk commits so far (a group of writers' transactions is one)."""
        self.reader: sqlite3.Connection | None = None
        """A second connection for reads, used on the event loop's own thread (see
        :meth:`fetch`); None until :meth:`open` has migrated the file."""
        self._queued: list[tuple[WriteJob, asyncio.Future[list[int | None]]]] = []
        self._committing = False
        self._committer: asyncio.Future[None] | None = None

    @classmethod
    async def open(cls, path: Path, *, as_is: bool = False) -> SqliteDatabase:
        """Open the file, made and migrated if need be; ``as_is``: only to read, a file
        that is there and at this code's schema version (:meth:`Storage.open_as_is`)."""
        if path.is_dir():
            raise StorageError(f"{path} is a folder, not a database file")
        if as_is and not path.is_file():
            raise StorageError(
                f"there is no database at {path}: check DATABASE_PATH (or --database); the"
                " bot makes it when it first starts"
            )
        try:
            if as_is:
                db = await aiosqlite.connect(
                    f"{path.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None
                )
            else:
                if path.parent and not path.parent.exists():
                    path.parent.mkdir(parents=True, exist_ok=True)
                db = await aiosqlite.connect(path, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise StorageError(f"cannot open {path} as a database: {error}") from None
        try:
            db.row_factory = sqlite3.Row
            for pragma in AS_IS_PRAGMAS if as_is else STARTUP_PRAGMAS:
                await _startup_pragma(db, pragma)
            database = cls(db, path)
            if not as_is:
                await database.migrate()
            database.reader = _reader(path)
        except sqlite3.DatabaseError as error:
            await db.close()
            raise StorageError(f"{path} is not a database this bot can use ({error})") from None
        except BaseException:
            await db.close()
            raise
        return database

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.close()
            self.reader = None
        await self.db.close()

    async def migrate(self) -> None:
        """Apply the migrations the file has not seen yet, each in its own transaction.
        Processes opening one file together may both see a migration missing: the one
        that gets the write lock second finds the version moved on (its transaction checks
        the version it read first: a migration that could run twice, such as one with
        nothing to do, would otherwise set the version back) and goes on from it."""
        while (version := await self._version()) < len(MIGRATIONS):
            number = version + 1
            try:
                await self.db.executescript(
                    f"BEGIN IMMEDIATE;\n{version_still(version)}\n{MIGRATIONS[version]}"
                    f"\nPRAGMA user_version={number};\nCOMMIT;"
                )
            except sqlite3.DatabaseError:
                if self.db.in_transaction:
                    await self.db.rollback()
                if await self._version() > version:
                    continue  # another process applied it first
                raise
            log.info("database %s migrated to version %d", self.path, number)

    async def schema_version(self) -> int:
        """The file's schema version (0: no migration yet)."""
        return await self._version()

    async def _version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row is not None else 0

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of a query, read on the calling (event loop) thread: a short indexed read
        takes some microseconds there, where a job on the connection's thread waited for
        every write's commit before it and for the interpreter lock, under load for up to a
        second. In WAL mode a read sees every committed write and waits for none; if the
        file is busy all the same, the read goes to the connection's thread."""
        if self.reader is not None:
            try:
                return self.reader.execute(sql, params).fetchall()
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
        return list(await self.db.execute_fetchall(sql, params))

    async def transaction(
        self, statements: Sequence[tuple[str, Sequence[Any]]], then: InTransaction | None
    ) -> list[int | None]:
        """The statements and ``then`` in one transaction, on disk when this returns.

        The whole transaction is one job on the connection's thread: no other query can
        come between its statements, and under load it does not wait for the event loop
        between them (a transaction of several round trips held every other write back
        behind a busy loop). Writes that arrive while one commits wait and then commit
        together, each in its own savepoint, with one disk sync (group commit): one sync
        per write kept writes queued for a second behind one another under load."""
        done: asyncio.Future[list[int | None]] = asyncio.get_running_loop().create_future()
        self._queued.append(((statements, then), done))
        if not self._committing:
            self._committing = True
            self._committer = asyncio.ensure_future(self._commit_queued())
        try:
            return await done
        except sqlite3.IntegrityError as error:
            if "UNIQUE" not in str(error) and "PRIMARY KEY" not in str(error):
                raise
            raise DuplicateRow(str(error)) from None

    async def _commit_queued(self) -> None:
        """Commit what is queued, group after group, until nothing is left."""
        # aiosqlite runs every call as a job on its thread; ``_execute`` is how it does.
        on_its_thread: Callable[..., Awaitable[Any]] = self.db._execute
        try:
            while self._queued:
                group, self._queued = self._queued, []
                outcomes: list[list[int | None] | Exception]
                try:
                    if len(group) == 1:
                        (statements, then), _ = group[0]
                        outcomes = [
                            await on_its_thread(_transaction, self.db._conn, statements, then)
                        ]
                    else:
                        jobs = [job for job, _ in group]
                        outcomes = await on_its_thread(_group, self.db._conn, jobs)
                except Exception as error:
                    outcomes = [error] * len(group)
                else:
                    self.commits += 1
                for (_, done), outcome in zip(group, outcomes, strict=True):
                    if done.done():
                        continue
                    if isinstance(outcome, Exception):
                        done.set_exception(outcome)
                    else:
                        done.set_result(outcome)
        finally:
            self._committing = False


def is_postgres_url(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


def shown(target: str | Path) -> str:
    """A database as people may see it (a message, a log line): a file's path, or a URL's
    server and database without the user and password."""
    return str(target).split("@")[-1] if is_postgres_url(target) else str(target)


def _action_statements(stored: StoredAction) -> list[tuple[str, Sequence[Any]]]:
    """What storing one accepted action writes (:meth:`Storage.store_actions`)."""
    action = stored.action
    statements: list[tuple[str, Sequence[Any]]] = [
        (
            "UPDATE game_tables SET state = ?, seq = ?, turn = ?, waiting = ?, status = ?,"
            " deadline = ?, clocks = ?,"
            " reminders = CASE WHEN turn = ? THEN reminders ELSE 0 END, updated_at = ?,"
            " version = version + 1 WHERE id = ? AND seq = ?",
            (
                json_text(stored.state),
                stored.seq,
                stored.turn,
                stored.waiting,
                stored.status,
                stored.deadline,
                _json_text_or_none(stored.clocks),
                stored.turn,
                stored.at,
                stored.table_id,
                stored.seq - 1,
            ),
        ),
        (
            "INSERT INTO actions (table_id, seq, seat, kind, data, chance, by_user, source, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                stored.table_id,
                stored.seq,
                action.seat,
                action.kind,
                json_text(dict(action.data)),
                json_text([dict(outcome) for outcome in action.chance]),
                stored.by_user,
                stored.source,
                stored.at,
            ),
        ),
    ]
    snapshot = _json_text_or_none(stored.snapshot)
    for kind, turn in stored.announcements:
        statements.append(
            (
                "INSERT INTO outbox (table_id, kind, seq, turn, created_at, snapshot)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (stored.table_id, kind, stored.seq, turn, stored.at, snapshot),
            )
        )
    statements.extend(_result_statements(stored.results))
    if stored.seats is not None:
        statements.extend(
            _seat_statements(stored.table_id, stored.seats, stored.holders, stored.at)
        )
    return statements


def row_after(row: TableRow, stored: StoredAction) -> TableRow:
    """The table's row as storing ``stored`` leaves it (the UPDATE of
    :func:`_action_statements`), its position left out (``state`` None) and its generated
    ``remind_at`` as it was."""
    return replace(
        row,
        state=None,
        seq=stored.seq,
        turn=stored.turn,
        waiting=stored.waiting,
        status=stored.status,
        deadline=stored.deadline,
        clocks=stored.clocks,
        reminders=row.reminders if row.turn == stored.turn else 0,
        updated_at=stored.at,
        version=row.version + 1,
    )


class Storage:
    """One database: a SQLite file or a PostgreSQL schema; every method is a coroutine.
    Use :meth:`open` to create."""

    def __init__(self, database: SqliteDatabase | PostgresDatabase) -> None:
        self.database = database

    @property
    def db(self) -> aiosqlite.Connection:
        """The SQLite connection (SQLite only)."""
        assert isinstance(self.database, SqliteDatabase), "not a SQLite database"
        return self.database.db

    @property
    def path(self) -> Path:
        """The SQLite file (SQLite only)."""
        assert isinstance(self.database, SqliteDatabase), "not a SQLite database"
        return self.database.path

    @property
    def commits(self) -> int:
        """Commits so far (on SQLite, disk commits: a group of transactions is one)."""
        return self.database.commits

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""
        return self.database.dialect

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (or create) the database: a SQLite file, or a ``postgresql://`` URL (its
        query's other parameters are server settings, e.g. ``?search_path=circus``). A
        database that cannot be opened raises :class:`StorageError` with a sentence, and
        leaves no connection behind."""
        return await cls._open(path, as_is=False)

    @classmethod
    async def open_as_is(cls, target: str | Path) -> Storage:
        """Open the bot's database only to read it, as it is (the web pages): never made,
        migrated or written (on PostgreSQL its transactions are read-only). A file that is
        not there raises :class:`StorageError`; a schema older than this code's (the bot
        migrates it when it starts) raises :class:`StorageUnavailable`."""
        return await cls._open(target, as_is=True)

    @classmethod
    async def _open(cls, path: str | Path, *, as_is: bool) -> Storage:
        storage = cls(await cls._database(path, as_is=as_is))
        if as_is:
            try:
                check_version(shown(path), await storage.database.schema_version())
            except BaseException:
                await storage.close()
                raise
        return storage

    @staticmethod
    async def _database(path: str | Path, *, as_is: bool) -> SqliteDatabase | PostgresDatabase:
        if not is_postgres_url(path):
            return await SqliteDatabase.open(Path(path), as_is=as_is)
        try:
            return await PostgresDatabase.connect(str(path), as_is=as_is)
        except (TimeoutError, OSError, asyncpg.CannotConnectNowError) as error:
            raise StorageUnavailable(
                f"cannot reach the PostgreSQL database at {shown(path)}: {error}"
            ) from None
        except (ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(
                f"cannot use the PostgreSQL database at {shown(path)}: {error}"
            ) from None

    async def close(self) -> None:
        await self.database.close()

    async def migrate(self) -> None:
        """Apply the migrations the database has not seen yet."""
        await self.database.migrate()

    def json_number(self, column: str, key: str) -> str:
        """SQL for the number under ``key`` in a column holding a JSON object (NULL when
        absent)."""
        return DIALECTS[self.dialect].json_number(column, key)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.database.fetch(sql, params)

    async def _write(
        self, statements: Iterable[tuple[str, Sequence[Any]]], then: InTransaction | None = None
    ) -> list[int | None]:
        """Run statements in one transaction; returns each one's new row id (``None`` where
        it inserted none). An UPDATE that changes no row aborts the transaction with
        :class:`StaleWrite`; a broken unique key with :class:`DuplicateRow`."""
        batch = [(sql, tuple(params)) for sql, params in statements]
        return await self.database.transaction(batch, then)

    # ------------------------------------------------------------------ tables and seats

    async def create_table(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int | None,
        host_id: int,
        host_name: str,
        settings: dict[str, JSON],
        seed: int,
        locale: str | None,
        now: float,
        seated: Sequence[tuple[int, str]] | None = None,
    ) -> int:
        """A new lobby with its host in the first place, or with ``seated`` (member id,
        name) in its places, in this order, and its host in none."""
        players = [(host_id, host_name)] if seated is None else list(seated)
        places = ", ".join("(?, ?, ?, ?, NULL, ?)" for _ in players)
        ids = await self._write(
            [
                (
                    "INSERT INTO game_tables (game, guild_id, channel_id, host_id, status,"
                    " settings, seed, locale, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    (
                        game,
                        guild_id,
                        channel_id,
                        host_id,
                        json_text(settings),
                        seed,
                        locale,
                        now,
                        now,
                    ),
                ),
                (
                    "INSERT INTO seats (table_id, seat, user_id, name, ai_level, joined_at)"
                    f" VALUES {places}",
                    [
                        value
                        for place, (user_id, name) in enumerate(players, start=1)
                        for value in (LAST_ID, str(place), user_id, name, now)
                    ],
                ),
            ]
        )
        table_id = ids[0]
        assert table_id is not None
        return table_id

    async def table(self, table_id: int) -> TableRow | None:
        row = await self._one("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        return None if row is None else table_row(row)

    async def table_version(self, table_id: int) -> int | None:
        """The table's version: every write to its row or seats but a claim adds one, so a
        copy read at the same version is the table as stored. None if there is no such
        table."""
        row = await self._one("SELECT version FROM game_tables WHERE id = ?", (table_id,))
        return None if row is None else int(row[0])

    async def update_table(self, table_id: int, now: float, **fields: Any) -> None:
        fields = _table_columns(fields)
        names = ", ".join(f"{name} = ?" for name in fields)
        await self._write(
            [
                (
                    f"UPDATE game_tables SET {names}, updated_at = ?, version = version + 1"
                    " WHERE id = ?",
                    (*fields.values(), now, table_id),
                )
            ]
        )

    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [SeatRow(**dict(row)) for row in rows]

    async def seat_holders(self, table_id: int) -> dict[int, str]:
        """Every member who holds or has held a seat of the table since it started, and
        that seat (the first they held)."""
        rows = await self._all(
            "SELECT user_id, seat FROM seat_holders WHERE table_id = ?", (table_id,)
        )
        return {int(row[0]): str(row[1]) for row in rows}

    async def last_source(self, table_id: int, seat: str) -> str | None:
        """Who made the seat's latest action (``player``, ``ai``, ``timeout``…), if any."""
        row = await self._one(
            "SELECT source FROM actions WHERE table_id = ? AND seat = ? ORDER BY seq DESC LIMIT 1",
            (table_id, seat),
        )
        return None if row is None else str(row[0])

    async def replace_seats(
        self,
        table_id: int,
        seats: Sequence[SeatRow],
        now: float,
        *,
        announce: tuple[str, int, int] | None = None,
        snapshot: dict[str, JSON] | None = None,
        holders: Iterable[SeatRow] = (),
        **table_fields: Any,
    ) -> None:
        """Rewrite a table's seats (lobby changes, start, substitutions) and table fields,
        record the members of ``holders`` as holding their seat (see :meth:`seat_holders`)
        and add an announcement ``(kind, seq, turn)`` with its ``snapshot`` to the outbox,
        in one transaction."""
        statements = _seat_statements(table_id, seats, holders, now)
        table_fields = _table_columns(table_fields)
        names = "".join(f"{name} = ?, " for name in table_fields)
        statements.append(
            (
                f"UPDATE game_tables SET {names}updated_at = ?, version = version + 1 WHERE id = ?",
                (*table_fields.values(), now, table_id),
            )
        )
        if announce is not None:
            kind, seq, turn = announce
            statements.append(
                (
                    "INSERT INTO outbox (table_id, kind, seq, turn, created_at, snapshot)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, kind, seq, turn, now, _json_text_or_none(snapshot)),
                )
            )
        await self._write(statements)

    async def tables_with_status(self, *statuses: str) -> list[TableRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT * FROM game_tables WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [table_row(row) for row in rows]

    async def tables_with_ai_to_play(self, shards: Shards = EVERY_SHARD) -> list[int]:
        """Running tables (of servers on ``shards``) where an AI seat still owes its move."""
        rows = await self._all(
            "SELECT DISTINCT game_tables.id FROM game_tables"
            " JOIN seats ON seats.table_id = game_tables.id"
            " WHERE game_tables.status = 'running' AND seats.user_id IS NULL"
            " AND ',' || game_tables.waiting || ',' LIKE '%,' || seats.seat || ',%'"
            f" AND {shards.where('game_tables.guild_id')} ORDER BY game_tables.id"
        )
        return [int(row[0]) for row in rows]

    async def table_ids_with_status(self, *statuses: str) -> list[int]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT id FROM game_tables WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [int(row[0]) for row in rows]

    async def table_by_thread(self, thread_id: int) -> TableRow | None:
        row = await self._one(
            "SELECT * FROM game_tables WHERE thread_id = ? ORDER BY id DESC LIMIT 1", (thread_id,)
        )
        return None if row is None else table_row(row)

    async def active_tables_of_user(
        self, user_id: int, guild_id: int | None = None
    ) -> list[TableRow]:
        rows = await self._all(
            "SELECT game_tables.* FROM game_tables JOIN seats ON seats.table_id = game_tables.id"
            " WHERE seats.user_id = ? AND game_tables.status IN ('lobby', 'running')"
            " AND (CAST(? AS BIGINT) IS NULL OR game_tables.guild_id = ?)"
            " ORDER BY game_tables.id DESC",
            (user_id, guild_id, guild_id),
        )
        return [table_row(row) for row in rows]

    async def active_table_channels(self, guild_id: int) -> list[tuple[int, int | None]]:
        """A server's tables in a lobby or running, newest first: each one's id and the
        channel it was opened in."""
        rows = await self._all(
            "SELECT id, channel_id FROM game_tables WHERE guild_id = ?"
            " AND status IN ('lobby', 'running') ORDER BY id DESC",
            (guild_id,),
        )
        return [(int(row[0]), row[1]) for row in rows]

    async def active_tables_in_channel(self, channel_id: int) -> list[TableRow]:
        rows = await self._all(
            "SELECT * FROM game_tables WHERE (channel_id = ? OR thread_id = ?)"
            " AND status IN ('lobby', 'running') ORDER BY id DESC",
            (channel_id, channel_id),
        )
        return [table_row(row) for row in rows]

    # ------------------------------------------------------------------ actions

    async def store_action(self, stored: StoredAction) -> None:
        """The action, the table's new snapshot and deadline, and its announcements: one
        transaction. Raises :class:`StaleWrite` if the table's seq is no longer
        ``stored.seq - 1`` (another writer, in this process or another, stored that seq).

        The table row is updated first: its lock (SQLite's write lock; PostgreSQL's row lock,
        the equivalent of ``SELECT … FOR UPDATE``) is held from there to the commit, and the
        seq is checked under it, so of two writers racing for one seq exactly one commits and
        the other finds nothing to update."""
        await self.store_actions([stored])

    async def store_actions(self, actions: Sequence[StoredAction]) -> None:
        """Actions of one table that follow one another (each ``seq`` the one after the
        last), as :meth:`store_action` stores one, all in one transaction: all or none."""
        statements = [statement for stored in actions for statement in _action_statements(stored)]
        ending = [stored for stored in actions if stored.results]
        rate = (
            functools.partial(rate_finished_game, table_id=ending[0].table_id) if ending else None
        )
        first = actions[0]
        try:
            await self._write(statements, rate)
        except sqlite3.IntegrityError as error:
            raise StaleWrite(f"table {first.table_id}: seq {first.seq} is stored") from error

    async def actions(self, table_id: int, *, after: int = 0) -> list[Action]:
        """The table's actions in order (those after its first ``after`` alone)."""
        rows = await self._all(
            "SELECT seat, kind, data, chance FROM actions WHERE table_id = ? AND seq > ?"
            " ORDER BY seq",
            (table_id, after),
        )
        return [
            Action(
                row["kind"], row["seat"], json.loads(row["data"]), tuple(json.loads(row["chance"]))
            )
            for row in rows
        ]

    async def action_count(self, table_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,))
        return 0 if row is None else int(row[0])

    # ------------------------------------------------------------------ outbox

    async def pending_announcements(
        self, table_id: int | None = None, shards: Shards = EVERY_SHARD
    ) -> list[OutboxRow]:
        """Announcements not yet posted: of one table, or of every table on ``shards``."""
        owned = (
            ""
            if shards.everything
            else (f" AND table_id IN (SELECT id FROM game_tables WHERE {shards.where()})")
        )
        rows = await self._all(
            "SELECT id, table_id, kind, seq, turn, message_id, snapshot FROM outbox"
            " WHERE sent_at IS NULL AND (CAST(? AS BIGINT) IS NULL OR table_id = ?)"
            f"{owned} ORDER BY id",
            (table_id, table_id),
        )
        return [
            OutboxRow(**(dict(row) | {"snapshot": _loads_or_none(row["snapshot"])})) for row in rows
        ]

    async def announcement_sent(
        self,
        outbox_id: int,
        message_id: int | None,
        now: float,
        *,
        board_of_table: int | None = None,
    ) -> None:
        """Mark an announcement posted; with ``board_of_table``, its message becomes that
        table's current board in the same transaction."""
        statements: list[tuple[str, Sequence[Any]]] = [
            (
                "UPDATE outbox SET sent_at = ?, message_id = ? WHERE id = ?",
                (now, message_id, outbox_id),
            )
        ]
        if board_of_table is not None:
            statements.append(
                (
                    "UPDATE game_tables SET board_message_id = ?, updated_at = ?,"
                    " version = version + 1 WHERE id = ?",
                    (message_id, now, board_of_table),
                )
            )
        await self._write(statements)

    async def posted_message(self, table_id: int, kind: str, seq: int) -> int | None:
        """The message the table's announcement of this kind and action was posted as (None
        while pending, or when it was not posted anywhere)."""
        row = await self._one(
            "SELECT message_id FROM outbox WHERE table_id = ? AND kind = ? AND seq = ?",
            (table_id, kind, seq),
        )
        return None if row is None or row[0] is None else int(row[0])

    async def posted_turn(self, table_id: int, message_id: int) -> int | None:
        """The turn of the announcement posted as this message, if it is one."""
        row = await self._one(
            "SELECT turn FROM outbox WHERE table_id = ? AND message_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (table_id, message_id),
        )
        return None if row is None else int(row[0])

    # ------------------------------------------------------------------ deadlines

    async def due_tables(self, now: float, shards: Shards = EVERY_SHARD) -> list[int]:
        """Running tables (of servers on ``shards``) whose time limit has passed, earliest
        first."""
        rows = await self._all(
            "SELECT id FROM game_tables WHERE status = 'running' AND deadline IS NOT NULL"
            f" AND deadline <= ? AND {shards.where()} ORDER BY deadline",
            (now,),
        )
        return [int(row[0]) for row in rows]

    async def claim_due_tables(
        self,
        now: float,
        holder: str,
        lease: float,
        limit: int = 100,
        shards: Shards = EVERY_SHARD,
    ) -> list[int]:
        """Running tables (of servers on ``shards``) whose time limit has passed that
        ``holder`` (one bot process) takes on for ``lease`` seconds, earliest first: tables
        another holder claimed and whose lease is still running are left out, and with
        PostgreSQL's ``FOR UPDATE SKIP LOCKED`` two processes claiming at once take
        disjoint tables. On SQLite (one process) this is :meth:`due_tables`."""
        if self.dialect != "postgres":
            return (await self.due_tables(now, shards))[:limit]
        rows = await self._all(
            "WITH due AS (SELECT id FROM game_tables WHERE status = 'running'"
            " AND deadline IS NOT NULL AND deadline <= ?"
            " AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)"
            f" AND {shards.where()}"
            " ORDER BY deadline LIMIT ? FOR UPDATE SKIP LOCKED)"
            " UPDATE game_tables SET claimed_by = ?, claimed_until = ? FROM due"
            " WHERE game_tables.id = due.id RETURNING game_tables.id, game_tables.deadline",
            (now, now, holder, limit, holder, now + lease),
        )
        return [int(row[0]) for row in sorted(rows, key=lambda row: (row[1], row[0]))]

    async def claim_tables_with_pending(
        self,
        now: float,
        holder: str,
        lease: float,
        limit: int | None = None,
        shards: Shards = EVERY_SHARD,
    ) -> list[int]:
        """Tables (of servers on ``shards``) with announcements still to post that
        ``holder`` takes on for ``lease`` seconds (the same claim as
        :meth:`claim_due_tables`: one process handles a table's time limits and posts); all
        of them unless ``limit`` says how many at most. On SQLite (one process), every
        such table."""
        if self.dialect != "postgres":
            pending = {row.table_id for row in await self.pending_announcements(shards=shards)}
            return sorted(pending)[:limit]
        rows = await self._all(
            "WITH pending AS (SELECT id FROM game_tables"
            " WHERE id IN (SELECT table_id FROM outbox WHERE sent_at IS NULL)"
            " AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)"
            f" AND {shards.where()}"
            " ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)"
            " UPDATE game_tables SET claimed_by = ?, claimed_until = ? FROM pending"
            " WHERE game_tables.id = pending.id RETURNING game_tables.id",
            (now, holder, limit, holder, now + lease),
        )
        return sorted(int(row[0]) for row in rows)

    async def release_claims(self, holder: str, table_ids: Iterable[int] | None = None) -> None:
        """Give up ``holder``'s claims (on the given tables, or all), e.g. at a clean stop."""
        ids = list(table_ids) if table_ids is not None else None
        if self.dialect != "postgres" or ids == []:
            return  # SQLite: one process, nothing is ever claimed
        where = "claimed_by = ?"
        params: list[Any] = [holder]
        if ids is not None:
            where += f" AND id IN ({', '.join('?' for _ in ids)})"
            params.extend(ids)
        await self._all(
            "UPDATE game_tables SET claimed_by = NULL, claimed_until = NULL"
            f" WHERE {where} RETURNING id",
            params,
        )

    async def advance_reminders(self, table_id: int, reached: int, now: float) -> bool:
        """Record that the table's reminders up to number ``reached`` are sent; False if they
        already were (another process sent this one), so each reminder goes out once."""
        try:
            await self._write(
                [
                    (
                        "UPDATE game_tables SET reminders = ?, updated_at = ?,"
                        " version = version + 1 WHERE id = ? AND reminders < ?",
                        (reached, now, table_id, reached),
                    )
                ]
            )
        except StaleWrite:
            return False
        return True

    async def next_deadline(self, shards: Shards = EVERY_SHARD) -> float | None:
        row = await self._one(
            "SELECT MIN(deadline) FROM game_tables"
            " WHERE deadline IS NOT NULL AND status = 'running'"
            f" AND {shards.where()}"
        )
        return None if row is None or row[0] is None else float(row[0])

    async def seated(self, user_id: int) -> list[int]:
        """The tables in a lobby or running where the member holds a seat now."""
        rows = await self._all(
            "SELECT DISTINCT game_tables.id FROM seats"
            " JOIN game_tables ON game_tables.id = seats.table_id"
            " WHERE seats.user_id = ? AND game_tables.status IN ('lobby', 'running')"
            " ORDER BY game_tables.id",
            (user_id,),
        )
        return [int(row[0]) for row in rows]

    async def reminder_candidates(
        self, now: float, shards: Shards = EVERY_SHARD
    ) -> list[tuple[int, float, int, float]]:
        """(table id, deadline, reminders sent, turn seconds) of running tables (of servers
        on ``shards``) whose next reminder is due and whose time limit is still ahead; read
        through the reminder index, so only those tables."""
        rows = await self._all(
            f"SELECT id, deadline, reminders, {self.json_number('settings', 'turn_seconds')}"
            " FROM game_tables WHERE remind_at IS NOT NULL AND remind_at <= ? AND deadline > ?"
            f" AND {shards.where()} ORDER BY remind_at",
            (now, now),
        )
        return [(int(r[0]), float(r[1]), int(r[2]), float(r[3])) for r in rows]

    async def next_reminder(self, shards: Shards = EVERY_SHARD) -> float | None:
        """When the next reminder is due, over every running table of servers on ``shards``."""
        row = await self._one(
            "SELECT MIN(remind_at) FROM game_tables"
            f" WHERE remind_at IS NOT NULL AND {shards.where()}"
        )
        return None if row is None or row[0] is None else float(row[0])

    # ------------------------------------------------------------------ results, drafts, users

    # ------------------------------------------------------------------ away

    async def aways(self, guild_id: int, now: float) -> dict[int, Away]:
        """The members of a server away at ``now`` or later, and their absence."""
        rows = await self._all(
            "SELECT user_id, since, until FROM away WHERE guild_id = ? AND until > ?",
            (guild_id, now),
        )
        return {int(row[0]): Away(float(row[1]), float(row[2])) for row in rows}

    async def set_away(self, guild_id: int, user_id: int, away: Away) -> None:
        await self._write(
            [
                (
                    "INSERT INTO away (guild_id, user_id, since, until) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id)"
                    " DO UPDATE SET since = excluded.since, until = excluded.until",
                    (guild_id, user_id, away.since, away.until),
                )
            ]
        )

    async def running_seats_of(self, guild_id: int, user_id: int) -> list[tuple[int, str]]:
        """(table id, seat) of every running table of the server where the member sits."""
        rows = await self._all(
            "SELECT game_tables.id, seats.seat FROM seats"
            " JOIN game_tables ON game_tables.id = seats.table_id"
            " WHERE game_tables.guild_id = ? AND seats.user_id = ?"
            " AND game_tables.status = 'running' ORDER BY game_tables.id",
            (guild_id, user_id),
        )
        return [(int(row[0]), str(row[1])) for row in rows]

    # ------------------------------------------------------------------ votes

    async def cast_vote(
        self, table_id: int, seat: str, since: float, voter_id: int, choice: str
    ) -> dict[int, str]:
        """Store a member's vote on handing ``seat`` (owing since ``since``) to the AI; the
        votes of that absence so far, by voter."""
        await self._write(
            [
                (
                    "INSERT INTO seat_votes (table_id, seat, since, voter_id, choice)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, seat, since, voter_id)"
                    " DO UPDATE SET choice = excluded.choice",
                    (table_id, seat, since, voter_id, choice),
                )
            ]
        )
        return await self.votes(table_id, seat, since)

    async def votes(self, table_id: int, seat: str, since: float) -> dict[int, str]:
        """The votes on handing ``seat`` (owing since ``since``) to the AI, by voter."""
        rows = await self._all(
            "SELECT voter_id, choice FROM seat_votes WHERE table_id = ? AND seat = ? AND since = ?",
            (table_id, seat, since),
        )
        return {int(row[0]): str(row[1]) for row in rows}

    async def results(self, table_id: int) -> list[ResultRow]:
        rows = await self._all(
            "SELECT * FROM results WHERE table_id = ? ORDER BY place", (table_id,)
        )
        return [ResultRow(**dict(row)) for row in rows]

    async def results_of_user(self, user_id: int) -> list[ResultRow]:
        rows = await self._all(
            "SELECT * FROM results WHERE user_id = ? ORDER BY finished_at", (user_id,)
        )
        return [ResultRow(**dict(row)) for row in rows]

    async def draft(self, table_id: int, user_id: int, turn: int) -> dict[str, JSON] | None:
        row = await self._one(
            "SELECT draft FROM drafts WHERE table_id = ? AND user_id = ? AND turn = ?",
            (table_id, user_id, turn),
        )
        if row is None:
            return None
        draft: dict[str, JSON] = json.loads(row[0])
        return draft

    async def save_draft(
        self, table_id: int, user_id: int, turn: int, draft: dict[str, JSON]
    ) -> None:
        await self._write(
            [
                (
                    "INSERT INTO drafts (table_id, user_id, turn, draft) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (table_id, user_id) DO UPDATE SET turn = excluded.turn,"
                    " draft = excluded.draft",
                    (table_id, user_id, turn, json_text(draft)),
                )
            ]
        )

    async def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of a read-only query (the community features' own queries)."""
        return await self._all(sql, params)

    async def write_with(self, then: InTransaction) -> None:
        """Run ``then`` on the connection inside one write transaction (a recomputation
        that reads and rewrites many rows at once)."""
        await self._write([], then)

    async def fact(self, key: str) -> str | None:
        """A fact the host keeps about itself (e.g. the hash of its synced commands)."""
        row = await self._one("SELECT value FROM host_facts WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_fact(self, key: str, value: str) -> None:
        await self._write(
            [
                (
                    "INSERT INTO host_facts (key, value) VALUES (?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
            ]
        )

    async def set_dm(self, user_id: int, enabled: bool) -> None:
        """The user's choice of a DM beside the thread's ping (``/game dm``): it brings
        back the default notices (a ping, and a DM when on) unless they chose none or
        pings only and turn DMs off; choosing DMs again also forgets that theirs were
        closed."""
        await self._write(
            [
                (
                    "INSERT INTO users (user_id, dm) VALUES (?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, dm_closed = 0,"
                    " notices = CASE WHEN excluded.dm = 1 OR users.notices = 'dm' THEN NULL"
                    " ELSE users.notices END",
                    (user_id, int(enabled)),
                )
            ]
        )

    async def mark_dm_closed(self, user_id: int) -> None:
        """Discord refused a DM (the user's DMs are closed): no more tries until the user
        turns DMs on again."""
        await self._write(
            [
                (
                    "INSERT INTO users (user_id, dm_closed) VALUES (?, 1)"
                    " ON CONFLICT (user_id) DO UPDATE SET dm_closed = 1",
                    (user_id,),
                )
            ]
        )
