"""What the storage backends (SQLite, PostgreSQL) share: the connection seen by work done
inside a write transaction, the marker for the id a previous statement inserted, and the
translation of the portable SQL the host writes (``?`` placeholders) into PostgreSQL's.

The host writes one SQL for both databases: ``?`` placeholders, ``INSERT … ON CONFLICT``,
``CAST(? AS BIGINT) IS NULL`` where a parameter may be NULL, and JSON fields read through
:meth:`bot.storage.Storage.json_number`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

Row = Any
"""A result row: ``sqlite3.Row`` or ``asyncpg.Record``; both are read by column index or
name, and ``dict(row)`` maps names to values."""


REMINDER_SHARES = (0.5, 0.9)
"""Reminders go out at half time and at 90 % of a turn's time limit."""


def remind_at_sql(turn_seconds: str) -> str:
    """SQL for when a race's next reminder is due (NULL when none is owed: not running, no
    time limit, or every reminder sent), from its ``deadline``, the ``reminders`` already
    sent and its turn's time limit (``turn_seconds``, that backend's SQL for it). A stored
    column of this, indexed, lets the time-limit dispatcher find the reminders due without
    reading every running race."""
    cases = " ".join(
        f"WHEN {index} THEN deadline - {1 - share} * {turn_seconds}"
        for index, share in enumerate(REMINDER_SHARES)
    )
    return f"CASE WHEN status = 'running' THEN CASE reminders {cases} END END"


class Cursor(Protocol):
    """What a statement run inside a transaction answers."""

    @property
    def rowcount(self) -> int: ...

    @property
    def lastrowid(self) -> int | None: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def close(self) -> None: ...


class Connection(Protocol):
    """The database as work inside one write transaction sees it (``sqlite3.Connection``
    on SQLite; a bridge to the transaction's connection on PostgreSQL)."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...


InTransaction = Callable[[Connection], None]
"""Work that reads and writes inside a transaction, after its statements (a finished game's
rating update reads the ratings it changes under the same write lock)."""


class StorageError(RuntimeError):
    """The database cannot be opened or used; the message is one readable sentence."""


class StaleWrite(RuntimeError):
    """A write found the race changed since it was read (another writer went first)."""


class DuplicateRow(RuntimeError):
    """A write broke a unique key (the row is already stored); nothing of it was kept."""


class _LastId:
    def __repr__(self) -> str:
        return "LAST_ID"


LAST_ID: Any = _LastId()
"""A statement parameter standing for the id the transaction's previous INSERT created."""


def with_last_id(params: Sequence[Any], last: int | None) -> tuple[Any, ...]:
    return tuple(last if value is LAST_ID else value for value in params)


def numbered_placeholders(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, …`` (question marks inside quoted
    literals stay as they are)."""
    out: list[str] = []
    number = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)


SEAT_HOLDERS_MIGRATION = """
    CREATE TABLE seat_holders (
        race_id {id} NOT NULL REFERENCES races (id),
        user_id {id} NOT NULL,
        seat TEXT NOT NULL,
        since {time} NOT NULL,
        PRIMARY KEY (race_id, user_id)
    );
    INSERT INTO seat_holders (race_id, user_id, seat, since)
        SELECT seats.race_id, seats.user_id, seats.seat, seats.joined_at
        FROM seats JOIN races ON races.id = seats.race_id
        WHERE seats.user_id IS NOT NULL AND races.status <> 'lobby';
    INSERT INTO seat_holders (race_id, user_id, seat, since)
        SELECT race_id, by_user, MIN(seat), MIN(at) FROM actions
        WHERE by_user IS NOT NULL AND seat IS NOT NULL GROUP BY race_id, by_user
        ON CONFLICT (race_id, user_id) DO NOTHING;
    UPDATE races SET host_id = (
        SELECT tournaments.host_id FROM tournament_tables
        JOIN tournaments ON tournaments.id = tournament_tables.tournament_id
        WHERE tournament_tables.race_id = races.id
    ) WHERE id IN (SELECT race_id FROM tournament_tables WHERE race_id IS NOT NULL);
"""
"""Migration 10, on both databases (``id``, ``time``: their column types): every member
who holds or has held a seat of a started race, and which seat (a member never takes
another seat of a race they played in); the players known so far are the seated ones
and those who acted. A tournament's tables are hosted by its organiser, no entrant."""
