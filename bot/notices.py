"""Each member's own choice of how and when they hear that their move is due, for every
game and every server (``/game notices``), and the one decision that applies it:
:func:`delivery` says whether a notice pings the member in the table's thread, goes to
them by direct message, is held until their quiet hours end, or is not sent at all.

A member who chose nothing is told as before: the board and the reminders ping them in
the thread, and a DM comes too if they turned DMs on (``/game dm``); reminders come at
half time and near the end of a timed turn. Quiet hours are whole hours of the member's
own IANA time zone (``Europe/Rome``), read through :mod:`zoneinfo`, so a daylight-saving
change moves them with the member's clock; a notice that falls in them is held until they
end, except the last reminder before a deadline. A member who asked to be reminded every
few hours gets those reminders instead of the half-time one, timed turn or not.

Notices owed later (held, or the next of a member's own reminders) are stored per member
and table (``member_notices``), for that turn only, so they survive a restart and go out
once even when several processes share the database.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass
from typing import Any

from bot.games.base import ServiceError
from bot.shards import EVERY_SHARD, Shards
from bot.storage import Storage

NOTICE_MODES = ("dm", "ping", "none")
"""How a member hears that their move is due: by DM, by a ping in the table's thread, or
not at all."""
MAX_REMIND_HOURS = 168
HOUR = 3600.0


def known_time_zone(name: str) -> bool:
    """Whether ``name`` is an IANA time zone this machine knows."""
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


@dataclass(frozen=True)
class NoticeChoices:
    """A member's choices; ``None`` everywhere is how every member is told by default."""

    mode: str | None = None
    """One of :data:`NOTICE_MODES`; None: a ping, and a DM too if DMs are on."""
    time_zone: str | None = None
    quiet_from: int | None = None
    """The hour (0-23, in ``time_zone``) the quiet hours begin; None: no quiet hours."""
    quiet_until: int | None = None
    """The hour they end (before ``quiet_from`` when they span midnight)."""
    remind_hours: int | None = None
    """A reminder every this many hours while a move is owed; None: at half time and near
    the end of a timed turn."""

    def checked(self) -> NoticeChoices:
        """These choices, or a refusal (:class:`ServiceError`) naming what is wrong."""
        if self.mode is not None and self.mode not in NOTICE_MODES:
            raise ServiceError("error.notices_mode", modes=", ".join(NOTICE_MODES))
        if self.time_zone is not None and not known_time_zone(self.time_zone):
            raise ServiceError("error.notices_time_zone", zone=self.time_zone)
        hours = (self.quiet_from, self.quiet_until)
        if (hours[0] is None) != (hours[1] is None) or hours[0] == hours[1] is not None:
            raise ServiceError("error.notices_quiet_hours")
        if any(hour is not None and not 0 <= hour <= 23 for hour in hours):
            raise ServiceError("error.notices_quiet_hours")
        if hours[0] is not None and self.time_zone is None:
            raise ServiceError("error.notices_needs_zone")
        if self.remind_hours is not None and not 1 <= self.remind_hours <= MAX_REMIND_HOURS:
            raise ServiceError("error.notices_remind", most=MAX_REMIND_HOURS)
        return self

    def quiet_end(self, now: float) -> float | None:
        """When the quiet hours holding ``now`` end (None: ``now`` is not in them)."""
        if self.time_zone is None or self.quiet_from is None or self.quiet_until is None:
            return None
        zone = zoneinfo.ZoneInfo(self.time_zone)
        local = dt.datetime.fromtimestamp(now, zone)
        start, end = self.quiet_from, self.quiet_until
        hour = local.hour
        if not (start <= hour < end if start < end else hour >= start or hour < end):
            return None
        day = local.date() if local.hour < end else local.date() + dt.timedelta(days=1)
        wall = dt.datetime(day.year, day.month, day.day, end, tzinfo=zone)
        # A wall-clock hour the clocks skip (spring forward) is taken as the hour after.
        return wall.astimezone(dt.UTC).timestamp()

    def waking_after(self, start: float, hours: float, most: float) -> float:
        """The moment the member has had ``hours`` of waking time (their quiet hours not
        counted) since ``start``, or ``start + most``, whichever comes first."""
        left, now = hours * HOUR, start
        zone = zoneinfo.ZoneInfo(self.time_zone) if self.time_zone else None
        while left > 0 and now < start + most:
            end = self.quiet_end(now)
            if end is not None:
                now = end
                continue
            if zone is None or self.quiet_from is None:
                now += left
                break
            local = dt.datetime.fromtimestamp(now, zone)
            to_next_hour = HOUR - (local.minute * 60 + local.second + local.microsecond / 1e6)
            step = min(left, to_next_hour)
            now, left = now + step, left - step
        return min(now, start + most)


@dataclass(frozen=True)
class Delivery:
    """What one notice to one member does."""

    ping: bool = False
    """They are pinged in the table's thread."""
    dm: bool = False
    """They are sent a direct message."""
    held_until: float | None = None
    """Neither for now: the notice goes out at this time instead."""


SILENT = Delivery()


def delivery(
    choices: NoticeChoices, *, dm_on: bool, dm_closed: bool, now: float, last_call: bool
) -> Delivery:
    """How (and whether, and when) a notice that a member's move is due reaches them now:
    their mode (by default a ping, and a DM too when DMs are on); a DM goes as a ping when
    their DMs are closed; in their quiet hours it is held until they end, unless it is the
    last reminder before a deadline (``last_call``)."""
    mode = choices.mode
    if mode == "none":
        return SILENT
    wants_dm = mode == "dm" or (mode is None and dm_on)
    dm = wants_dm and not dm_closed
    ping = mode != "dm" or not dm
    if not last_call:
        end = choices.quiet_end(now)
        if end is not None:
            return Delivery(held_until=end)
    return Delivery(ping=ping, dm=dm)


def next_reminder(choices: NoticeChoices, now: float) -> float | None:
    """When a member's own next reminder is due, counted from ``now`` (None: they chose no
    cadence of their own); one falling in their quiet hours waits until these end."""
    if choices.remind_hours is None or choices.mode == "none":
        return None
    due = now + choices.remind_hours * HOUR
    return choices.quiet_end(due) or due


@dataclass(frozen=True)
class Recipient:
    """A member as the notice decision sees them: their choices, whether their DMs are on
    (``/game dm``) and whether Discord has refused one since."""

    choices: NoticeChoices
    dm_on: bool
    dm_closed: bool

    def delivery(self, now: float, *, last_call: bool = False) -> Delivery:
        return delivery(
            self.choices, dm_on=self.dm_on, dm_closed=self.dm_closed, now=now, last_call=last_call
        )


DEFAULT_RECIPIENT = Recipient(NoticeChoices(), dm_on=False, dm_closed=False)


class NoticeStore:
    """Members' choices and the notices owed to them, in the database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def member(self, user_id: int) -> Recipient:
        rows = await self.storage.read(
            "SELECT dm, dm_closed, notices, time_zone, quiet_from, quiet_until, remind_hours"
            " FROM users WHERE user_id = ?",
            (user_id,),
        )
        if not rows:
            return DEFAULT_RECIPIENT
        row = rows[0]
        choices = NoticeChoices(
            mode=row[2],
            time_zone=row[3],
            quiet_from=_int_or_none(row[4]),
            quiet_until=_int_or_none(row[5]),
            remind_hours=_int_or_none(row[6]),
        )
        return Recipient(choices, dm_on=bool(row[0]), dm_closed=bool(row[1]))

    async def choose(self, user_id: int, choices: NoticeChoices) -> NoticeChoices:
        """Store a member's choices (checked first); choosing DMs forgets closed DMs."""
        checked = choices.checked()
        values = (
            checked.mode,
            checked.time_zone,
            checked.quiet_from,
            checked.quiet_until,
            checked.remind_hours,
        )
        reopened = 0 if checked.mode == "dm" else None
        await self.storage.write_with(
            lambda connection: connection.execute(
                "INSERT INTO users (user_id, notices, time_zone, quiet_from, quiet_until,"
                " remind_hours) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " notices = excluded.notices, time_zone = excluded.time_zone,"
                " quiet_from = excluded.quiet_from, quiet_until = excluded.quiet_until,"
                " remind_hours = excluded.remind_hours,"
                " dm_closed = COALESCE(CAST(? AS BIGINT), users.dm_closed)",
                (user_id, *values, reopened),
            ).close()
        )
        return checked

    async def owe(self, table_id: int, user_id: int, turn: int, due_at: float) -> None:
        """A notice owed to the member at this table for this turn, at ``due_at`` (it
        replaces the one owed before)."""
        await self.storage.write_with(
            lambda connection: connection.execute(
                "INSERT INTO member_notices (table_id, user_id, turn, due_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, user_id) DO UPDATE SET turn = excluded.turn,"
                " due_at = excluded.due_at",
                (table_id, user_id, turn, due_at),
            ).close()
        )

    async def due(self, now: float, shards: Shards = EVERY_SHARD) -> list[tuple[int, int, int]]:
        """(table id, member id, turn) of the notices due by ``now`` at tables of servers on
        ``shards``, earliest first."""
        rows = await self.storage.read(
            "SELECT member_notices.table_id, member_notices.user_id, member_notices.turn"
            " FROM member_notices JOIN game_tables ON game_tables.id = member_notices.table_id"
            f" WHERE member_notices.due_at <= ? AND {shards.where('game_tables.guild_id')}"
            " ORDER BY member_notices.due_at",
            (now,),
        )
        return [(int(row[0]), int(row[1]), int(row[2])) for row in rows]

    async def take(self, table_id: int, user_id: int, turn: int, now: float) -> bool:
        """Remove a due notice before it is sent; False if another process took it."""
        taken: list[int] = []

        def remove(connection: Any) -> None:
            cursor = connection.execute(
                "DELETE FROM member_notices WHERE table_id = ? AND user_id = ? AND turn = ?"
                " AND due_at <= ?",
                (table_id, user_id, turn, now),
            )
            taken.append(cursor.rowcount)
            cursor.close()

        await self.storage.write_with(remove)
        return bool(taken and taken[0] > 0)

    async def next_due(self, shards: Shards = EVERY_SHARD) -> float | None:
        rows = await self.storage.read(
            "SELECT MIN(member_notices.due_at) FROM member_notices"
            " JOIN game_tables ON game_tables.id = member_notices.table_id"
            f" WHERE {shards.where('game_tables.guild_id')}"
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


__all__ = [
    "DEFAULT_RECIPIENT",
    "MAX_REMIND_HOURS",
    "NOTICE_MODES",
    "Delivery",
    "NoticeChoices",
    "NoticeStore",
    "Recipient",
    "delivery",
    "known_time_zone",
    "next_reminder",
]
