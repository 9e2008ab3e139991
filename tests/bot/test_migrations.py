"""A database made by the previous release opens with this one: migrations carry every
stored race over unchanged (a running race goes on from its stored move, a lobby starts
with the laps its host chose)."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.service import ServiceError, TableService
from bot.storage import MIGRATIONS, Storage
from engine.core import Rng
from tests.bot.conftest import first_choice
from tests.bot.test_service import play_to_the_end, random_move
from tests.databases import postgres_schema

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


Schema = dict[str, object]

SQLITE_TYPES = {"INTEGER": "integer", "REAL": "real", "TEXT": "text"}
POSTGRES_TYPES = {"bigint": "integer", "double precision": "real", "text": "text"}


async def _sqlite_schema(path: Path) -> Schema:
    """Every table's columns (name, type, required, generated) and every index made by a
    migration, with its table, of a SQLite file."""
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
    return {"columns": columns, "indexes": [tuple(row) for row in indexes]}


async def _postgres_schema(url: str) -> Schema:
    """The same of a PostgreSQL schema (but for ``schema_version``: SQLite keeps its version
    in the file's header)."""
    storage = await Storage.open(url)
    try:
        rows = await storage.read(
            "SELECT table_name, column_name, data_type, is_nullable, is_generated"
            " FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name <> 'schema_version' ORDER BY table_name, ordinal_position"
        )
        columns: dict[str, list[tuple[str, str, bool, bool]]] = {}
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
    return {"columns": columns, "indexes": [tuple(row) for row in indexes]}


async def test_both_databases_migrate_to_the_same_tables_columns_and_indexes(
    tmp_path: Path,
) -> None:
    """The migrations are written once for both dialects: an empty SQLite file and an
    empty PostgreSQL schema end with the same tables, columns (name, type, NOT NULL,
    generated) and indexes."""
    sqlite = await _sqlite_schema(tmp_path / "empty.db")
    async with postgres_schema() as url:
        postgres = await _postgres_schema(url)
    assert sqlite["columns"] == postgres["columns"]
    assert sqlite["indexes"] == postgres["indexes"]
    assert "seats" in sqlite["columns"]  # type: ignore[operator]
