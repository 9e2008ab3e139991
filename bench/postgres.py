"""PostgreSQL for the benches: rows counted straight from a run's fresh schema (made and
dropped by the bench with :func:`tests.databases.fresh_schema`), and a SQLite file's rows
copied into it.

The server is ``--database-url`` (e.g. ``postgresql://postgres@127.0.0.1:5432/test``); the
bot gets that URL with ``?search_path=`` set to the run's own schema.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage import Storage

IDENTITY_TABLES = ("game_tables", "outbox", "rating_changes", "tournaments")


async def scalar(url: str, sql: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval(sql))
    finally:
        await connection.close()


async def backends_of(url: str, ports: set[int]) -> list[int]:
    """The server processes serving the connections made from these local ports."""
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[])", sorted(ports)
        )
        return [int(row["pid"]) for row in rows]
    finally:
        await connection.close()


async def copy_from_sqlite(path: Path, url: str) -> dict[str, int]:
    """Every row of the bot's SQLite file into the (migrated) PostgreSQL schema at ``url``,
    table by table in the order of the foreign keys; identity counters moved past the
    copied ids. Returns the rows copied per table."""
    store = await Storage.open(url)  # migrates the schema
    await store.close()
    copied: dict[str, int] = {}
    connection = await asyncpg.connect(url)
    try:
        types = {
            (row["table_name"], row["column_name"]): row["data_type"]
            for row in await connection.fetch(
                "SELECT table_name, column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = current_schema()"
            )
        }
        tables = {table for table, _ in types} - {"schema_version"}
        order = ["game_tables", "tournaments", *sorted(tables - {"game_tables", "tournaments"})]
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            for table in order:
                columns = [
                    row[1]
                    for row in db.execute(f"PRAGMA table_info({table})")
                    if (table, row[1]) in types
                ]
                if not columns:
                    continue
                kinds = [types[(table, column)] for column in columns]
                records = [
                    tuple(_typed(value, kind) for value, kind in zip(row, kinds, strict=True))
                    for row in db.execute(f"SELECT {', '.join(columns)} FROM {table}")
                ]
                if records:
                    await connection.copy_records_to_table(table, records=records, columns=columns)
                copied[table] = len(records)
        for table in IDENTITY_TABLES:
            await connection.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" (SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
            )
        await connection.execute("ANALYZE")
    finally:
        await connection.close()
    return copied


def _typed(value: Any, kind: str) -> Any:
    if value is None:
        return None
    if kind == "bigint":
        return int(value)
    if kind == "double precision":
        return float(value)
    return str(value) if kind == "text" else value
