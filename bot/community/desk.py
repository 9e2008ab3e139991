"""Tournaments kept in the database: each one a row and its log of events
(:mod:`bot.community.tournament`), one event per stored step.

Every call reads the log, builds the new step from the state it rebuilds, checks it there,
and writes it in one transaction; ``(tournament, seq)`` is unique, so two steps taken at
once (two Join clicks, a result and a drop, in one process or two) cannot both take the
same place: the second is read again, built again on the log as it now is and stored after
the first (:meth:`TournamentDesk._step`). A finished table completing a round stores its
result and the next round's pairing together, so a restart never finds a complete round
left unpaired. While the tournament is paused, a completed
round waits unpaired; resuming pairs it.

A tournament may have a sign-up deadline (``starts_at``): :meth:`TournamentDesk.due` lists
those whose deadline has passed, to be started then, or cancelled with too few players. With
``round_hours`` a round also ends that long after its pairing was stored
(:meth:`TournamentDesk.round_deadlines`), as if the organiser advanced it. An advance
names the round it ends: built again after another step ended that round first (a second
advance, the round's time running out), it is refused, so a round is ended once.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.clock import Clock, SystemClock
from bot.community.ratings import INITIAL, Rating, guild_key, player_key
from bot.community.reliability import check_reliable_enough, reliability
from bot.community.seating import table_options
from bot.community.tournament import (
    CANCELLED,
    DROPPED,
    FINISHED,
    MAX_HOURS,
    PAUSED,
    RESULT,
    RESUMED,
    ROUND,
    RUNNING,
    SIGNED_UP,
    SIGNUP,
    STARTED,
    Event,
    Tournament,
    TournamentError,
    TournamentSettings,
    round_to_json,
)
from bot.games import host_for
from bot.locks import KeyedLocks
from bot.sql import Connection, DuplicateRow
from bot.storage import Storage
from bot.text import plain

MAX_NAME = 80
HOUR = 3600.0
MAX_OPEN_PER_HOST = 3
"""How many tournaments one organiser may have in sign-up or running in a server."""
CLASH_TRIES = 5
"""How many times a step is built again after another process's step took its place."""


@dataclass(frozen=True)
class TournamentRecord:
    id: int
    guild_id: int
    game: str
    name: str
    host_id: int
    state: Tournament
    events: tuple[Event, ...]
    """The log the state was rebuilt from: a step is written as the next of these, so a
    step checked against an older state can never be stored (its seq is taken)."""
    channel_id: int | None = None
    """Where the tournament was opened: its sign-up post and announcements."""
    signup_message_id: int | None = None
    starts_at: float | None = None
    """The sign-up deadline, when the organiser set one."""

    def fresh(self) -> Tournament:
        """The state rebuilt again from the same log (to try steps on)."""
        return Tournament.replay(self.state.settings, self.events)


class TournamentDesk:
    """Tournaments of every game in one database."""

    def __init__(self, storage: Storage, clock: Clock | None = None) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self.steps: KeyedLocks[int] = KeyedLocks()
        """One lock per tournament: this process takes its steps one at a time."""

    async def create(
        self,
        *,
        guild_id: int | None,
        game: str,
        name: str,
        host_id: int,
        settings: TournamentSettings,
        channel_id: int | None = None,
        starts_at: float | None = None,
        admin: bool = False,
    ) -> TournamentRecord:
        """Open a tournament for sign-up. Its settings are checked, and the game's options
        (``settings.table["options"]``) are checked by the game's host and completed with
        its defaults (:func:`~bot.community.seating.table_options`); a refusal says why.
        An organiser has at most :data:`MAX_OPEN_PER_HOST` tournaments in sign-up or
        running in a server at once (``admin``, Manage Server: no limit)."""
        checked = settings.checked()
        now = self.clock.now()
        if starts_at is not None and not now < starts_at <= now + MAX_HOURS * HOUR:
            raise TournamentError("error.tournament_signup_hours_range", most=MAX_HOURS)
        options = dict(checked.table.get("options") or {})
        table = dict(checked.table) | {"options": table_options(host_for(game), checked, options)}
        checked = dataclasses.replace(checked, table=table)
        name = plain(name, MAX_NAME) or game
        if not admin and await self.open_by(guild_id, host_id) >= MAX_OPEN_PER_HOST:
            raise TournamentError("error.tournament_too_many", limit=MAX_OPEN_PER_HOST)
        created: list[int] = []

        def insert(connection: Connection) -> None:
            cursor = connection.execute(
                "INSERT INTO tournaments (guild_id, game, name, host_id, settings, status,"
                " created_at, channel_id, starts_at) VALUES (?, ?, ?, ?, ?, 'signup', ?, ?, ?)",
                (
                    guild_key(guild_id),
                    game,
                    name,
                    host_id,
                    json.dumps(checked.to_json()),
                    now,
                    channel_id,
                    starts_at,
                ),
            )
            assert cursor.lastrowid is not None
            created.append(cursor.lastrowid)

        await self.storage.write_with(insert)
        return await self.load(created[0])

    async def open_by(self, guild_id: int | None, host_id: int) -> int:
        """How many tournaments the member organises in the server in sign-up or running."""
        rows = await self.storage.read(
            "SELECT COUNT(*) FROM tournaments WHERE guild_id = ? AND host_id = ?"
            " AND status IN (?, ?)",
            (guild_key(guild_id), host_id, SIGNUP, RUNNING),
        )
        return int(rows[0][0])

    async def load(self, tournament_id: int) -> TournamentRecord:
        rows = await self.storage.read(
            "SELECT id, guild_id, game, name, host_id, settings, channel_id, signup_message_id,"
            " starts_at FROM tournaments WHERE id = ?",
            (tournament_id,),
        )
        if not rows:
            raise TournamentError("error.no_such_tournament", tournament=tournament_id)
        row = rows[0]
        settings = TournamentSettings.from_json(json.loads(row[5]))
        events = tuple(await self.events(tournament_id))
        state = Tournament.replay(settings, events)
        return TournamentRecord(
            row[0], row[1], row[2], row[3], row[4], state, events, row[6], row[7], row[8]
        )

    async def set_signup_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up post (with its Join and Drop buttons)."""

        def update(connection: Connection) -> None:
            connection.execute(
                "UPDATE tournaments SET signup_message_id = ? WHERE id = ?",
                (message_id, tournament_id),
            ).close()

        await self.storage.write_with(update)

    async def due(self, now: float) -> list[int]:
        """Tournaments still in sign-up whose deadline has passed."""
        rows = await self.storage.read(
            "SELECT id FROM tournaments WHERE status = ? AND starts_at <= ? ORDER BY id",
            (SIGNUP, now),
        )
        return [int(row[0]) for row in rows]

    async def next_deadline(self) -> float | None:
        """The earliest sign-up deadline still to come (or passed and not acted on)."""
        rows = await self.storage.read(
            "SELECT MIN(starts_at) FROM tournaments WHERE status = ? AND starts_at IS NOT NULL",
            (SIGNUP,),
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def round_deadlines(self) -> dict[int, float]:
        """When the current round of each running tournament with a time per round ends."""
        rows = await self.storage.read(
            "SELECT tournaments.id, tournaments.settings, MAX(tournament_events.at)"
            " FROM tournaments JOIN tournament_events"
            " ON tournament_events.tournament_id = tournaments.id AND tournament_events.kind = ?"
            " WHERE tournaments.status = ? GROUP BY tournaments.id",
            (ROUND, RUNNING),
        )
        deadlines = {}
        for tournament_id, settings, paired_at in rows:
            hours = TournamentSettings.from_json(json.loads(settings)).round_hours
            if hours is not None:
                deadlines[int(tournament_id)] = float(paired_at) + hours * 3600
        return deadlines

    async def running(self) -> list[int]:
        rows = await self.storage.read(
            "SELECT id FROM tournaments WHERE status = ? ORDER BY id", (RUNNING,)
        )
        return [int(row[0]) for row in rows]

    async def events(self, tournament_id: int) -> list[Event]:
        rows = await self.storage.read(
            "SELECT kind, data FROM tournament_events WHERE tournament_id = ? ORDER BY seq",
            (tournament_id,),
        )
        return [Event(row[0], json.loads(row[1])) for row in rows]

    async def _step(
        self,
        tournament_id: int,
        build: Callable[[TournamentRecord], list[Event]],
        by_user: int | None,
    ) -> TournamentRecord:
        """Build a step's events from the tournament as stored now and store them. Steps
        of one tournament are taken one at a time here; when another process stored a
        step in between (the log's next place is taken), the tournament is read again
        and the step built again on it, up to :data:`CLASH_TRIES` times. ``build``
        raises :class:`TournamentError` when the step no longer applies (a table whose
        result is in already)."""
        async with self.steps.hold(tournament_id):
            for _ in range(CLASH_TRIES):
                record = await self.load(tournament_id)
                try:
                    return await self._append(record, build(record), by_user)
                except _Clash:
                    continue
        raise TournamentError("error.tournament_busy")

    async def _append(
        self, record: TournamentRecord, events: list[Event], by_user: int | None
    ) -> TournamentRecord:
        """Check ``events`` on the state and store them in one transaction as the next
        of ``record``'s log (:class:`_Clash` if another step took that place)."""
        state = record.fresh()
        for event in events:
            state.apply(event)
        seq = len(record.events)
        now = self.clock.now()

        def write(connection: Connection) -> None:
            for offset, event in enumerate(events, start=1):
                connection.execute(
                    "INSERT INTO tournament_events (tournament_id, seq, kind, data, by_user, at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        record.id,
                        seq + offset,
                        event.kind,
                        json.dumps(dict(event.data)),
                        by_user,
                        now,
                    ),
                )
            connection.execute(
                "UPDATE tournaments SET status = ? WHERE id = ?", (state.status, record.id)
            )

        try:
            await self.storage.write_with(write)
        except DuplicateRow:
            raise _Clash from None
        return await self.load(record.id)

    def _require_host(self, record: TournamentRecord, user_id: int, admin: bool) -> None:
        if user_id != record.host_id and not admin:
            raise TournamentError("error.tournament_host_only")

    async def _rating(self, record: TournamentRecord, user_id: int) -> Rating:
        rows = await self.storage.read(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND player = ?",
            (record.guild_id, record.game, player_key(user_id, None)),
        )
        return Rating(rows[0][0], rows[0][1]) if rows else INITIAL

    # ------------------------------------------------------------------ steps

    async def sign_up(self, tournament_id: int, user_id: int, name: str) -> TournamentRecord:
        """Sign a member up; refused, saying why, below the organiser's minimum
        reliability."""
        record = await self.load(tournament_id)
        minimum = record.state.settings.min_reliability
        if minimum is not None:
            found = await reliability(self.storage, record.guild_id, user_id)
            check_reliable_enough(found, minimum)
        rating = (await self._rating(record, user_id)).ordinal
        data = {
            "player": player_key(user_id, None),
            "name": plain(name, MAX_NAME),
            "rating": rating,
        }
        return await self._step(record.id, lambda _: [Event(SIGNED_UP, data)], user_id)

    async def drop(
        self, tournament_id: int, user_id: int, *, by_user: int | None = None, admin: bool = False
    ) -> TournamentRecord:
        """A player leaves (or, with ``by_user``, the organiser removes them): they are
        paired no more; their played games stand."""

        def build(record: TournamentRecord) -> list[Event]:
            if by_user is not None and by_user != user_id:
                self._require_host(record, by_user, admin)
            return [Event(DROPPED, {"player": player_key(user_id, None)})]

        return await self._step(tournament_id, build, by_user or user_id)

    async def start(
        self, tournament_id: int, by_user: int | None, *, admin: bool = False
    ) -> TournamentRecord:
        """Close sign-up and pair the first round (``by_user`` None: the deadline)."""

        def build(record: TournamentRecord) -> list[Event]:
            if by_user is not None:
                self._require_host(record, by_user, admin)
            state = record.fresh()
            state.apply(Event(STARTED))
            first = state.next_round()
            assert first is not None
            return [Event(STARTED), Event(ROUND, round_to_json(first))]

        return await self._step(tournament_id, build, by_user)

    async def cancel(self, tournament_id: int, by_user: int | None) -> TournamentRecord:
        """Close sign-up without starting (``by_user`` None: too few at the deadline)."""
        return await self._step(tournament_id, lambda _: [Event(CANCELLED)], by_user)

    async def pause(
        self, tournament_id: int, by_user: int, *, admin: bool = False
    ) -> TournamentRecord:
        """The organiser pauses: running games go on, but no next round is paired."""

        def build(record: TournamentRecord) -> list[Event]:
            self._require_host(record, by_user, admin)
            return [Event(PAUSED)]

        return await self._step(tournament_id, build, by_user)

    async def resume(
        self, tournament_id: int, by_user: int, *, admin: bool = False
    ) -> TournamentRecord:
        """The organiser resumes; a round completed meanwhile gets its successor now."""

        def build(record: TournamentRecord) -> list[Event]:
            self._require_host(record, by_user, admin)
            state = record.fresh()
            state.apply(Event(RESUMED))
            return [Event(RESUMED), *following_round(state)]

        return await self._step(tournament_id, build, by_user)

    async def report(
        self, tournament_id: int, round_number: int, table: int, places: Mapping[str, int]
    ) -> TournamentRecord:
        """A table's result; when it completes the round, the next round's pairing is
        stored with it. The log takes one result per table: a second report of it is
        refused (``error.tournament_no_such_table``)."""
        result = Event(RESULT, {"round": round_number, "table": table, "places": dict(places)})

        def build(record: TournamentRecord) -> list[Event]:
            state = record.fresh()
            state.apply(result)
            return [result, *([] if state.paused else following_round(state))]

        return await self._step(tournament_id, build, None)

    async def advance(
        self,
        tournament_id: int,
        round_number: int,
        by_user: int | None,
        *,
        admin: bool = False,
    ) -> TournamentRecord:
        """The organiser (``by_user`` None: the round's time running out) closes round
        ``round_number``: every table still without a result counts as a tie of all its
        players, and the next round is paired. The round must still be the current one: a
        round another step closed first (another advance, its time running out, its last
        result) is refused, saying which round is being played, so two advances of one
        round close it once."""

        def build(record: TournamentRecord) -> list[Event]:
            if by_user is not None:
                self._require_host(record, by_user, admin)
            state = record.fresh()
            if state.status == FINISHED:
                raise TournamentError("error.tournament_over")
            check_current_round(state, round_number)
            if state.paused:
                raise TournamentError("error.tournament_paused")
            play = state.rounds[-1]
            events: list[Event] = []
            for index, table in enumerate(play.pairing.tables):
                if index not in play.results:
                    data: dict[str, Any] = {
                        "round": round_number,
                        "table": index,
                        "places": dict.fromkeys(table, 1),
                    }
                    state.apply(Event(RESULT, data))
                    events.append(Event(RESULT, data))
            events += following_round(state)
            if not events:
                raise TournamentError("error.tournament_round_open")
            return events

        return await self._step(tournament_id, build, by_user)


def check_current_round(state: Tournament, round_number: int) -> None:
    """Refuse, in words, a step meant for round ``round_number`` once another round is
    being played (or before any is)."""
    current = len(state.rounds)
    if not current:
        raise TournamentError("error.tournament_round_open")
    if round_number < current:
        raise TournamentError("error.tournament_round_over", round=round_number, current=current)
    if round_number > current:
        raise TournamentError(
            "error.tournament_round_not_begun", round=round_number, current=current
        )


def following_round(state: Tournament) -> list[Event]:
    """The next round's pairing, once the current round is complete (none while it is
    not, or when the tournament is over)."""
    if not state.round_complete:
        return []
    following = state.next_round()
    return [] if following is None else [Event(ROUND, round_to_json(following))]


class _Clash(Exception):
    """Another step took the log's next place first."""


__all__ = ["MAX_NAME", "TournamentDesk", "TournamentRecord"]
