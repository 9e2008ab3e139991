"""A database made by an earlier release opens with this one: migrations carry every
stored game over unchanged (a running race goes on from its stored move, a lobby starts
with the laps its host chose; every row of a version-10 database comes through the renaming
to table words), and both databases migrate to the same schema."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.clock import FakeClock
from bot.migrations import migrations
from bot.service import ServiceError, TableService
from bot.sql import POSTGRES, SQLITE
from bot.storage import MIGRATIONS, Storage, is_postgres_url
from engine.core import Rng
from tests.bot.conftest import first_choice
from tests.bot.test_service import play_to_the_end, random_move
from tests.databases import execute, postgres_schema, rows

RELEASE_1 = Path(__file__).parent / "data" / "circus-v1.db"
"""Made by the release before the game-agnostic host: race 1 running (2 seats, 2 laps,
seat A has moved on turn 1), race 2 a lobby (host 33 and a greedy AI seat, 3 laps,
timeouts reset)."""
ALICE, BOB, CAROL = 11, 22, 33


@pytest.fixture
async def migrated(tmp_path: Path) -> AsyncIterator[TableService]:
    path = tmp_path / "circus.db"
    shutil.copy(RELEASE_1, path)
    service = await TableService.create(str(path), clock=FakeClock(), choose_action=first_choice)
    yield service
    await service.close()


def test_the_release_database_is_at_schema_1() -> None:
    with sqlite3.connect(RELEASE_1) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (1,)


async def test_a_running_race_goes_on_after_the_migration(migrated: TableService) -> None:
    table = await migrated.table(1)
    assert table.game == "charioteer"
    assert table.settings.options["laps"] == 2
    assert "laps" not in table.row.settings
    _, alice_view = await migrated.view_for(1, ALICE)
    assert alice_view.my_move is not None
    assert alice_view.waiting_for == ("B",)
    move, turn = await random_move(migrated, 1, BOB, Rng(5))
    update = await migrated.submit(1, BOB, move, turn)
    assert update.resolved
    await play_to_the_end(migrated, 1, Rng(6))
    results = await migrated.storage.results(1)
    assert sorted(row.seat for row in results) == ["A", "B"]


async def test_a_lobby_starts_with_its_stored_laps(migrated: TableService) -> None:
    table = await migrated.table(2)
    assert table.status == "lobby"
    assert table.settings.options["laps"] == 3
    assert table.settings.timeout_policy == "reset"
    await migrated.start(2, CAROL)
    _, view = await migrated.view_for(2, CAROL)
    assert view.options.laps == 3


async def test_migrations_bring_the_schema_up_to_date(migrated: TableService) -> None:
    version = await migrated.storage._all("PRAGMA user_version")
    assert version[0][0] == len(MIGRATIONS)


async def test_processes_starting_together_on_a_new_file_migrate_it_once(tmp_path: Path) -> None:
    """The processes of a cluster on one SQLite file may start at the same moment: each
    migration is applied once, by whichever takes the write lock first."""
    for attempt in range(10):
        path = tmp_path / f"together-{attempt}.db"
        opened = await asyncio.gather(*(Storage.open(path) for _ in range(3)))
        for storage in opened:
            await storage.close()
        with contextlib.closing(sqlite3.connect(path)) as db:
            assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


async def test_the_players_of_a_running_race_are_known_as_its_seat_holders(
    migrated: TableService,
) -> None:
    """Migration 10 records who played a started race: a player who left takes back
    their own seat, never another."""
    assert await migrated.storage.seat_holders(1) == {ALICE: "A", BOB: "B"}
    assert await migrated.storage.seat_holders(2) == {}
    await migrated.leave_game(1, ALICE)
    with pytest.raises(ServiceError) as refused:
        await migrated.substitute(1, ALICE, "B", ALICE, "alice")
    assert refused.value.key == "error.held_another_seat"
    back = await migrated.substitute(1, ALICE, "A", ALICE, "alice")
    assert back.table.seat("A").user_id == ALICE


Column = tuple[str, str, bool, bool]
"""A column's name, type (integer, real, text), whether it is required (NOT NULL or in the
primary key) and whether it is generated."""
Schema = tuple[dict[str, list[Column]], list[tuple[str, str]]]
"""Every table's columns, and every index a migration made with its table."""

SQLITE_TYPES = {"INTEGER": "integer", "REAL": "real", "TEXT": "text"}
POSTGRES_TYPES = {"bigint": "integer", "double precision": "real", "text": "text"}


async def _sqlite_schema(path: Path) -> Schema:
    """The schema of a SQLite file, migrated."""
    storage = await Storage.open(path)
    try:
        tables = [
            str(row[0])
            for row in await storage.read(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        columns = {
            table: [
                (name, SQLITE_TYPES[kind], bool(not_null or key), hidden in (2, 3))
                for _, name, kind, not_null, _, key, hidden in await storage.read(
                    "SELECT * FROM pragma_table_xinfo(?) ORDER BY cid", (table,)
                )
            ]
            for table in tables
        }
        indexes = await storage.read(
            "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            " ORDER BY name"
        )
    finally:
        await storage.close()
    return columns, [(str(row[0]), str(row[1])) for row in indexes]


async def _postgres_schema(url: str) -> Schema:
    """The schema of a PostgreSQL schema, migrated (but for ``schema_version``: SQLite keeps
    its version in the file's header)."""
    storage = await Storage.open(url)
    try:
        rows = await storage.read(
            "SELECT table_name, column_name, data_type, is_nullable, is_generated"
            " FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name <> 'schema_version' ORDER BY table_name, ordinal_position"
        )
        columns: dict[str, list[Column]] = {}
        for table, name, kind, nullable, generated in rows:
            columns.setdefault(table, []).append(
                (name, POSTGRES_TYPES[kind], nullable == "NO", generated == "ALWAYS")
            )
        indexes = await storage.read(
            "SELECT index.relname, owner.relname FROM pg_index"
            " JOIN pg_class index ON index.oid = pg_index.indexrelid"
            " JOIN pg_class owner ON owner.oid = pg_index.indrelid"
            " WHERE owner.relnamespace = current_schema()::regnamespace"
            " AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = index.oid)"
            " ORDER BY index.relname"
        )
    finally:
        await storage.close()
    return columns, [(str(row[0]), str(row[1])) for row in indexes]


async def test_both_databases_migrate_to_the_same_tables_columns_and_indexes(
    tmp_path: Path,
) -> None:
    """The migrations are written once for both dialects: an empty SQLite file and an
    empty PostgreSQL schema end with the same tables, columns (name, type, NOT NULL,
    generated) and indexes."""
    sqlite = await _sqlite_schema(tmp_path / "empty.db")
    async with postgres_schema() as url:
        postgres = await _postgres_schema(url)
    assert sqlite == postgres
    assert "seats" in sqlite[0] and sqlite[1]


async def _at_version(target: str, version: int) -> None:
    """Bring an empty database to ``version`` as that release did: its first migrations,
    and the version recorded where the backend keeps it."""
    if is_postgres_url(target):
        connection = await asyncpg.connect(target)
        try:
            await connection.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
            for number, script in enumerate(migrations(POSTGRES)[:version], start=1):
                await connection.execute(f"{script}; INSERT INTO schema_version VALUES ({number})")
        finally:
            await connection.close()
        return
    with contextlib.closing(sqlite3.connect(target, isolation_level=None)) as db:
        for number, script in enumerate(migrations(SQLITE)[:version], start=1):
            db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")


VERSION_10_ROWS: tuple[tuple[str, str], ...] = (
    (
        "races",
        "INSERT INTO races (game, guild_id, channel_id, thread_id, host_id, status, settings,"
        " seed, setup, state, seq, turn, waiting, deadline, reminders, lobby_message_id,"
        " board_message_id, locale, created_at, updated_at, claimed_by, claimed_until) VALUES"
        " ('charioteer', 1, 2, 3, 11, 'running', '{\"turn_seconds\": 600, \"seats\": 2}', 7,"
        " '[]', '{\"turn\": 1}', 1, 1, 'B', 1600.5, 0, 4, 5, 'es', 1000.25, 1001.5, 'p1', 1700.0),"
        " ('cartographers', NULL, NULL, NULL, 22, 'lobby', '{}', 8, NULL, NULL, 0, 0, '',"
        " NULL, 0, NULL, NULL, NULL, 1002.0, 1002.0, NULL, NULL)",
    ),
    (
        "seats",
        "INSERT INTO seats VALUES (1, 'A', 11, 'alice', NULL, 1000.25),"
        " (1, 'B', NULL, 'Greedy AI', 'greedy', 1000.5), (2, '1', 22, 'bob', NULL, 1002.0)",
    ),
    (
        "actions",
        "INSERT INTO actions VALUES (1, 1, 'A', 'move', '{\"card\": 3}', '[]', 11, 'player',"
        " 1001.5)",
    ),
    (
        "outbox",
        "INSERT INTO outbox (race_id, kind, seq, turn, created_at, sent_at, message_id)"
        " VALUES (1, 'board', 0, 1, 1000.25, 1000.75, 6), (1, 'reveal', 1, 1, 1001.5, NULL, NULL)",
    ),
    (
        "results",
        "INSERT INTO results VALUES (1, 'A', 11, 'alice', 1, 9, 1500.0, 'red')",
    ),
    ("drafts", "INSERT INTO drafts VALUES (1, 11, 1, '{\"cards\": [1]}')"),
    ("users", "INSERT INTO users VALUES (11, 1, 'it', 0), (22, 0, NULL, 1)"),
    ("host_facts", "INSERT INTO host_facts VALUES ('commands:global', 'abc')"),
    (
        "ratings",
        "INSERT INTO ratings VALUES (1, 'charioteer', 'user:11', 11, 'alice', 26.5, 7.25, 1, 1,"
        " 1, 1500.0)",
    ),
    (
        "rating_changes",
        "INSERT INTO rating_changes (race_id, seat, guild_id, game, player, place, seats,"
        " mu_before, sigma_before, mu_after, sigma_after, at) VALUES (1, 'A', 1, 'charioteer',"
        " 'user:11', 1, 2, 25.0, 8.25, 26.5, 7.25, 1500.0)",
    ),
    (
        "tournaments",
        "INSERT INTO tournaments (guild_id, game, name, host_id, settings, status, created_at,"
        " channel_id, signup_message_id, starts_at) VALUES (1, 'cartographers', 'Cup', 33,"
        " '{}', 'running', 900.0, 2, 8, 950.0)",
    ),
    (
        "tournament_events",
        "INSERT INTO tournament_events VALUES (1, 1, 'joined', '{\"user\": 22}', 22, 901.0)",
    ),
    ("tournament_tables", "INSERT INTO tournament_tables VALUES (1, 1, 0, 2), (1, 1, 1, NULL)"),
    ("guild_settings", "INSERT INTO guild_settings VALUES (1, '{\"max_open\": 3}')"),
    ("seat_holders", "INSERT INTO seat_holders VALUES (1, 11, 'A', 1000.25)"),
)
"""A row or more in every table a version-10 database has (its ids numbered by the
database)."""

RENAMED_TABLES = {"races": "game_tables"}


def _tables_of(database: str) -> list[str]:
    """The tables the migrations made, by name."""
    if is_postgres_url(database):
        found = rows(
            database,
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_name <> 'schema_version'",
        )
    else:
        found = rows(database, "SELECT name FROM sqlite_master WHERE type = 'table'")
    return sorted(str(row[0]) for row in found)


async def test_every_row_of_a_version_10_database_is_kept_under_table_words(
    database: str,
) -> None:
    """Migration 11 renames races to game tables (``races`` → ``game_tables``, every
    ``race_id`` → ``table_id``): each row of every table comes through unchanged, and the
    ids go on from the last one."""
    await _at_version(database, 10)
    for _, insert in VERSION_10_ROWS:
        execute(database, insert)
    tables = [table for table, _ in VERSION_10_ROWS]
    assert sorted(tables) == _tables_of(database)
    before = {table: rows(database, f"SELECT * FROM {table} ORDER BY 1, 2") for table in tables}
    assert all(before.values())

    storage = await Storage.open(database)
    try:
        assert await storage.read("SELECT 1 FROM game_tables WHERE id = 1")
    finally:
        await storage.close()

    for table in tables:
        renamed = RENAMED_TABLES.get(table, table)
        after = rows(database, f"SELECT * FROM {renamed} ORDER BY 1, 2")
        if renamed in ("outbox", "game_tables"):  # migrations 13, 14 add a post's snapshot
            assert [row[-1] for row in after] == [None] * len(after)  # and seats' clocks
            after = [row[:-1] for row in after]
        if renamed == "game_tables":  # migration 14 adds each table's version: 0 for these
            assert [row[-1] for row in after] == [0] * len(after)
            after = [row[:-1] for row in after]
        if renamed == "users":  # migration 15 adds each member's notice choices: none yet
            assert [row[-5:] for row in after] == [(None,) * 5] * len(after)
            after = [row[:-5] for row in after]
        assert after == before[table], table
    for table in ("seats", "actions", "outbox", "results", "drafts", "rating_changes"):
        assert rows(database, f"SELECT table_id FROM {table} WHERE table_id = 1"), table
    assert rows(database, "SELECT table_id FROM tournament_tables ORDER BY table_index") == [
        (2,),
        (None,),
    ]
    assert rows(database, "SELECT table_id FROM seat_holders") == [(1,)]
    execute(
        database,
        "INSERT INTO game_tables (game, host_id, status, settings, seed, created_at, updated_at)"
        " VALUES ('charioteer', 11, 'lobby', '{}', 9, 2000.0, 2000.0)",
    )
    assert rows(database, "SELECT MAX(id) FROM game_tables") == [(3,)]


async def test_no_table_column_or_index_is_named_after_races(database: str) -> None:
    """Every game is played at a table: nothing in the schema speaks of races."""
    storage = await Storage.open(database)
    try:
        if storage.dialect == "postgres":
            names = await storage.read(
                "SELECT relname FROM pg_class"
                " WHERE relnamespace = current_schema()::regnamespace"
                " UNION ALL SELECT conname FROM pg_constraint"
                " WHERE connamespace = current_schema()::regnamespace"
                " UNION ALL SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema()"
            )
        else:
            names = await storage.read(
                "SELECT name FROM sqlite_master UNION ALL SELECT columns.name"
                " FROM sqlite_master JOIN pragma_table_xinfo(sqlite_master.name) AS columns"
                " WHERE sqlite_master.type = 'table'"
            )
    finally:
        await storage.close()
    assert {"game_tables", "table_id"} <= {str(row[0]) for row in names}
    assert [str(row[0]) for row in names if "race" in str(row[0])] == []
