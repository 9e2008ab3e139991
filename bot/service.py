"""The game service: Charioteer races from lobby to podium, for any front end.

It owns lobbies and seats, moves, AI seats, time limits, substitutions and results. The
Discord cogs and the console front end both call it; it knows nothing of either. Every
accepted action is stored (one transaction per action, ``(race, seq)`` unique) before a
method returns, and a per-race lock makes simultaneous calls resolve a turn exactly once.

Errors a user should read are :class:`ServiceError` (a message id and its parameters);
rule errors carry the engine's reason.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.clock import Clock, SystemClock
from bot.storage import (
    REMINDER_SHARES,
    OutboxRow,
    RaceRow,
    ResultRow,
    SeatRow,
    Storage,
    StoredAction,
)
from engine.charioteer import RULESET, Move, Race, RaceOptions, SeatView, read_position, view
from engine.charioteer.events import MoveCommitted
from engine.charioteer.race import race_config
from engine.charioteer.state import SEAT_NAMES, Result
from engine.core import (
    JSON,
    EngineError,
    Event,
    Game,
    GameRecord,
    Rng,
    replay_steps,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

AI_LEVELS: tuple[str, ...] = ("random", "greedy", "strategic")
TIMEOUT_POLICIES: tuple[str, ...] = ("ai", "reset")
TURN_LIMITS: dict[str, int | None] = {
    "2m": 120,
    "5m": 300,
    "1h": 3600,
    "12h": 43200,
    "24h": 86400,
    "72h": 259200,
    "none": None,
}
"""Presets for a turn's time limit: a live race of minutes, an asynchronous one of days."""
DEFAULT_TURN_LIMIT = "24h"
CACHE_SIZE = 2048
REPORT_CACHE_SIZE = 256

LOBBY, RUNNING, FINISHED, ABANDONED = "lobby", "running", "finished", "abandoned"
SOURCE_PLAYER, SOURCE_AI, SOURCE_TIMEOUT = "player", "ai", "timeout"

ChooseMove = Callable[[str, SeatView, Rng], Move]


class ServiceError(Exception):
    """Something a user asked for cannot be done; ``key`` names the message to show."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class RuleError(ServiceError):
    """The engine refused the move; ``params["reason"]`` is its explanation."""

    def __init__(self, error: EngineError) -> None:
        super().__init__("error.illegal_move", reason=error.reason)
        self.error = error


@dataclass(frozen=True)
class RaceSettings:
    """What the host chose for a race."""

    seats: int = 4
    laps: int = 3
    turn_seconds: int | None = TURN_LIMITS[DEFAULT_TURN_LIMIT]
    timeout_policy: str = "ai"
    ai_level: str = "strategic"
    options: Mapping[str, JSON] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= len(SEAT_NAMES):
            raise ServiceError("error.bad_seats", low=2, high=len(SEAT_NAMES))
        if self.timeout_policy not in TIMEOUT_POLICIES:
            raise ServiceError("error.bad_timeout_policy")
        if self.ai_level not in AI_LEVELS:
            raise ServiceError("error.bad_ai_level")
        if self.turn_seconds is not None and self.turn_seconds < 30:
            raise ServiceError("error.bad_turn_limit")
        try:
            RaceOptions(laps=self.laps, **self.options)
        except (EngineError, TypeError):
            raise ServiceError("error.bad_options") from None

    def to_json(self) -> dict[str, JSON]:
        return {
            "seats": self.seats,
            "laps": self.laps,
            "turn_seconds": self.turn_seconds,
            "timeout_policy": self.timeout_policy,
            "ai_level": self.ai_level,
            "options": dict(self.options),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON]) -> RaceSettings:
        return cls(
            seats=obj["seats"],
            laps=obj["laps"],
            turn_seconds=obj["turn_seconds"],
            timeout_policy=obj["timeout_policy"],
            ai_level=obj["ai_level"],
            options=obj.get("options") or {},
        )


@dataclass(frozen=True)
class Table:
    """A race's stored facts: the row and its seats (lobby places or race seats)."""

    row: RaceRow
    seats: tuple[SeatRow, ...]

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def settings(self) -> RaceSettings:
        return RaceSettings.from_json(self.row.settings)

    def seat_of(self, user_id: int) -> SeatRow | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    def seat(self, name: str) -> SeatRow:
        for seat in self.seats:
            if seat.seat == name:
                return seat
        raise KeyError(name)

    @property
    def names(self) -> dict[str, str]:
        return {seat.seat: seat.name for seat in self.seats}

    @property
    def humans(self) -> tuple[SeatRow, ...]:
        return tuple(seat for seat in self.seats if not seat.is_ai)

    @property
    def waiting(self) -> tuple[str, ...]:
        return tuple(seat for seat in self.row.waiting.split(",") if seat)

    def waiting_humans(self) -> tuple[SeatRow, ...]:
        waiting = set(self.waiting)
        return tuple(seat for seat in self.seats if seat.seat in waiting and not seat.is_ai)


@dataclass(frozen=True)
class TurnReport:
    """A resolved turn: every event (public and private) and the public view after it."""

    turn: int
    seq: int
    events: tuple[Event, ...]
    view: SeatView


@dataclass(frozen=True)
class Update:
    """What a call changed: the table after it, whether a move was stored, the turns it
    resolved and the result if the race ended."""

    table: Table
    seat: str | None = None
    stored: bool = False
    changed_move: bool = False
    turns: tuple[TurnReport, ...] = ()
    result: Result | None = None

    @property
    def resolved(self) -> bool:
        return bool(self.turns)


@dataclass(frozen=True)
class Announcement:
    """Something to post publicly, from the outbox: a turn's reveal, the board of a new
    turn, or the podium. ``report`` is set for reveals."""

    row: OutboxRow
    table: Table
    view: SeatView
    report: TurnReport | None = None


@dataclass
class _Loaded:
    table: Table
    race: Race | None


def default_chooser() -> ChooseMove:
    """The AI seats' policies (imported lazily: the bot runs without them in some tests)."""
    from engine.charioteer.ai import policy_for

    def choose(level: str, seat_view: SeatView, rng: Rng) -> Move:
        return policy_for(level).choose(seat_view, rng)

    return choose


class RaceService:
    """Races in one SQLite file. Construct with :meth:`create` or with a :class:`Storage`."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock | None = None,
        seeds: Callable[[], int] | None = None,
        choose_move: ChooseMove | None = None,
    ) -> None:
        self.storage = storage
        self.clock: Clock = clock or SystemClock()
        self._seeds = seeds or (lambda: secrets.randbits(62))
        self._choose = choose_move
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: OrderedDict[int, _Loaded] = OrderedDict()
        self._reports: OrderedDict[tuple[int, int], TurnReport] = OrderedDict()
        self.deadline_changed = asyncio.Event()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="circus-worker")

    @classmethod
    async def create(cls, path: str, **kwargs: Any) -> RaceService:
        return cls(await Storage.open(path), **kwargs)

    async def close(self) -> None:
        await self.storage.close()
        self._worker.shutdown(wait=False, cancel_futures=True)

    async def in_worker(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run CPU-heavy work off the event loop, one job at a time: AI seats' moves, and a
        board image when its worker process is gone. A single worker thread leaves the loop
        at least half of the interpreter, so clicks are still answered promptly."""
        call = functools.partial(function, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._worker, call)

    # ------------------------------------------------------------------ plumbing

    @asynccontextmanager
    async def _locked(self, race_id: int) -> Any:
        lock = self._locks.setdefault(race_id, asyncio.Lock())
        async with lock:
            yield

    def _chooser(self) -> ChooseMove:
        if self._choose is None:
            self._choose = default_chooser()
        return self._choose

    async def _table(self, race_id: int) -> Table:
        row = await self.storage.race(race_id)
        if row is None:
            raise ServiceError("error.no_such_race", race=race_id)
        return Table(row, tuple(await self.storage.seats(race_id)))

    async def _load(self, race_id: int) -> _Loaded:
        """The race's table and engine race, from the cache or the database."""
        cached = self._cache.get(race_id)
        if cached is not None:
            self._cache.move_to_end(race_id)
            return cached
        table = await self._table(race_id)
        race = None
        if table.row.state is not None:
            race = await self._engine_race(table)
        loaded = _Loaded(table, race)
        self._remember(race_id, loaded)
        return loaded

    async def _engine_race(self, table: Table) -> Race:
        row = table.row
        assert row.state is not None
        state = read_position(json.loads(row.state))
        actions = await self.storage.actions(row.id)
        record = GameRecord(
            RULESET.id,
            RULESET.version,
            self._config(table),
            row.seed,
            json.loads(row.setup) if row.setup else [],
            None,
            actions,
        )
        return Race(Game(RULESET, state, record))

    def _remember(self, race_id: int, loaded: _Loaded) -> None:
        self._cache[race_id] = loaded
        self._cache.move_to_end(race_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _keep_report(self, race_id: int, report: TurnReport) -> None:
        self._reports[(race_id, report.seq)] = report
        while len(self._reports) > REPORT_CACHE_SIZE:
            self._reports.popitem(last=False)

    def _forget(self, race_id: int) -> None:
        self._cache.pop(race_id, None)

    @staticmethod
    def _config(table: Table) -> dict[str, JSON]:
        settings = table.settings
        return race_config(len(table.seats), laps=settings.laps, **dict(settings.options))

    # ------------------------------------------------------------------ lobby

    async def new_race(
        self,
        *,
        host_id: int,
        host_name: str,
        settings: RaceSettings,
        guild_id: int | None = None,
        channel_id: int | None = None,
        locale: str | None = None,
    ) -> Table:
        """A lobby with its host seated; others join until it is started."""
        race_id = await self.storage.create_race(
            game=RULESET.id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            host_name=host_name,
            settings=settings.to_json(),
            seed=self._seeds(),
            locale=locale,
            now=self.clock.now(),
        )
        log.info("race %d: lobby opened by user %d", race_id, host_id)
        return await self._table(race_id)

    async def join(self, race_id: int, user_id: int, name: str) -> Table:
        async with self._locked(race_id):
            table = await self._lobby(race_id)
            if table.seat_of(user_id) is not None:
                raise ServiceError("error.already_joined")
            if len(table.seats) >= table.settings.seats:
                raise ServiceError("error.lobby_full", seats=table.settings.seats)
            seat = SeatRow(race_id, "", user_id, name, None, self.clock.now())
            return await self._save_lobby(table, [*table.seats, seat])

    async def leave_lobby(self, race_id: int, user_id: int) -> Table:
        async with self._locked(race_id):
            table = await self._lobby(race_id)
            if table.seat_of(user_id) is None:
                raise ServiceError("error.not_in_lobby")
            if user_id == table.row.host_id:
                raise ServiceError("error.host_cannot_leave_lobby")
            return await self._save_lobby(table, [s for s in table.seats if s.user_id != user_id])

    async def add_ai(self, race_id: int, by_user: int, level: str) -> Table:
        async with self._locked(race_id):
            table = await self._lobby(race_id)
            self._require_host(table, by_user)
            if level not in AI_LEVELS:
                raise ServiceError("error.bad_ai_level")
            if len(table.seats) >= table.settings.seats:
                raise ServiceError("error.lobby_full", seats=table.settings.seats)
            count = sum(seat.is_ai for seat in table.seats) + 1
            seat = SeatRow(race_id, "", None, f"AI {count}", level, self.clock.now())
            return await self._save_lobby(table, [*table.seats, seat])

    async def remove_ai(self, race_id: int, by_user: int) -> Table:
        async with self._locked(race_id):
            table = await self._lobby(race_id)
            self._require_host(table, by_user)
            ai = [seat for seat in table.seats if seat.is_ai]
            if not ai:
                raise ServiceError("error.no_ai_seat")
            return await self._save_lobby(table, [s for s in table.seats if s is not ai[-1]])

    async def _lobby(self, race_id: int) -> Table:
        table = await self._table(race_id)
        if table.status != LOBBY:
            raise ServiceError(
                "error.not_a_lobby" if table.status == RUNNING else "error.race_over"
            )
        return table

    async def _save_lobby(self, table: Table, seats: Sequence[SeatRow]) -> Table:
        ordered = sorted(seats, key=lambda seat: seat.joined_at)
        numbered = [
            dataclasses.replace(seat, seat=str(index + 1)) for index, seat in enumerate(ordered)
        ]
        await self.storage.replace_seats(table.id, numbered, self.clock.now())
        self._forget(table.id)
        return await self._table(table.id)

    @staticmethod
    def _require_host(table: Table, user_id: int, *, admin: bool = False) -> None:
        if user_id != table.row.host_id and not admin:
            raise ServiceError("error.host_only")

    async def start(self, race_id: int, by_user: int) -> Update:
        """Seat everyone (A, B, … in joining order), deal, and open turn 1."""
        async with self._locked(race_id):
            table = await self._lobby(race_id)
            self._require_host(table, by_user)
            if len(table.seats) < 2:
                raise ServiceError("error.too_few_players")
            seats = [
                dataclasses.replace(seat, seat=SEAT_NAMES[index])
                for index, seat in enumerate(table.seats)
            ]
            config = race_config(
                len(seats), laps=table.settings.laps, **dict(table.settings.options)
            )
            game = Game.new(RULESET, config, table.row.seed)
            race = Race(game)
            now = self.clock.now()
            await self.storage.replace_seats(
                race_id,
                seats,
                now,
                announce=("board", 0, race.turn),
                status=RUNNING,
                setup=game.record.setup,
                state=race.position(),
                seq=0,
                turn=race.turn,
                waiting=",".join(race.waiting_for),
                deadline=self._deadline(table.settings, now),
            )
            table = await self._table(race_id)
            self._remember(race_id, _Loaded(table, race))
            self.deadline_changed.set()
            log.info("race %d: started with %d seats", race_id, len(seats))
            return Update(table)

    def _deadline(self, settings: RaceSettings, now: float) -> float | None:
        return None if settings.turn_seconds is None else now + settings.turn_seconds

    # ------------------------------------------------------------------ moves

    async def submit(self, race_id: int, user_id: int, move: Move, turn: int) -> Update:
        """A player's move for ``turn``; stored before this returns. A move equal to the
        one already chosen stores nothing (a double click is one move)."""
        async with self._locked(race_id):
            loaded = await self._running(race_id)
            seat = loaded.table.seat_of(user_id)
            if seat is None:
                raise ServiceError("error.not_seated")
            race = loaded.race
            assert race is not None
            if turn != race.turn:
                raise ServiceError("error.stale_turn", turn=race.turn)
            if race.state.commit_of(seat.seat) == move:
                return Update(loaded.table, seat.seat, stored=False)
            return await self._commit(loaded, seat.seat, move, user_id, SOURCE_PLAYER)

    async def _running(self, race_id: int) -> _Loaded:
        loaded = await self._load(race_id)
        status = loaded.table.status
        if status == LOBBY:
            raise ServiceError("error.not_started")
        if status != RUNNING:
            raise ServiceError("error.race_over")
        return loaded

    async def _commit(
        self, loaded: _Loaded, seat: str, move: Move, by_user: int | None, source: str
    ) -> Update:
        race = loaded.race
        assert race is not None
        table = loaded.table
        turn_before = race.turn
        changed = race.state.commit_of(seat) is not None
        try:
            events = race.commit(seat, move)
        except EngineError as error:
            raise RuleError(error) from None
        action = race.record.actions[-1]
        seq = len(race.record.actions)
        now = self.clock.now()
        resolved = race.turn != turn_before or race.is_over
        status = RUNNING
        announcements: list[tuple[str, int]] = []
        deadline = table.row.deadline
        if resolved:
            announcements.append(("reveal", turn_before))
            if race.is_over:
                status = FINISHED
                deadline = None
                announcements.append(("podium", turn_before))
            else:
                announcements.append(("board", race.turn))
                deadline = self._deadline(table.settings, now)
        stored = StoredAction(
            race_id=table.id,
            seq=seq,
            action=action,
            by_user=by_user,
            source=source,
            at=now,
            state=race.position(),
            turn=race.turn,
            waiting=",".join(race.waiting_for),
            status=status,
            deadline=deadline,
            announcements=tuple(announcements),
        )
        try:
            await self.storage.store_action(stored)
        except BaseException:
            self._forget(table.id)
            raise
        reports: tuple[TurnReport, ...] = ()
        if resolved:
            report = TurnReport(turn_before, seq, events, view(race.state))
            self._keep_report(table.id, report)
            reports = (report,)
            self.deadline_changed.set()
        result = race.result
        if result is not None:
            await self._store_results(table, result, now)
        table = await self._table(table.id)
        loaded.table = table
        self._remember(table.id, loaded)
        log.info("race %d: seat %s committed (%s, seq %d)", table.id, seat, source, seq)
        return Update(table, seat, stored=True, changed_move=changed, turns=reports, result=result)

    async def _store_results(self, table: Table, result: Result, now: float) -> None:
        rows = [
            ResultRow(
                table.id,
                seat,
                table.seat(seat).user_id,
                table.seat(seat).name,
                place,
                result.turns,
                now,
            )
            for place, seat in enumerate(result.ranking, start=1)
        ]
        await self.storage.store_results(rows)
        log.info("race %d: finished, winner %s", table.id, result.winner)

    async def play_ai_seats(self, race_id: int) -> list[Update]:
        """Commit a move for every AI seat still owing one (run after a turn starts or a
        seat is handed to the AI); each move is its own stored action."""
        updates: list[Update] = []
        while True:
            async with self._locked(race_id):
                loaded = await self._load(race_id)
                race = loaded.race
                if loaded.table.status != RUNNING or race is None:
                    return updates
                ai_seats = {seat.seat: seat for seat in loaded.table.seats if seat.is_ai}
                pending = [seat for seat in race.waiting_for if seat in ai_seats]
                if not pending:
                    return updates
                seat = pending[0]
                level = ai_seats[seat].ai_level or loaded.table.settings.ai_level
                move = await self._ai_move(loaded, seat, level)
                updates.append(await self._commit(loaded, seat, move, None, SOURCE_AI))

    async def _ai_move(self, loaded: _Loaded, seat: str, level: str) -> Move:
        race = loaded.race
        assert race is not None
        seat_view = race.view(seat)
        rng = Rng(loaded.table.row.seed ^ 0x5EA7, len(race.record.actions))
        chooser = self._chooser()
        try:
            move = await self.in_worker(chooser, level, seat_view, rng)
            seat_view.analyse(move)
        except Exception:
            log.exception(
                "race %d: the %s AI failed for seat %s; it resets", loaded.table.id, level, seat
            )
            return timeout_reset(seat_view)
        return move

    # ------------------------------------------------------------------ time limits

    async def fire_due(self, now: float | None = None) -> list[Update]:
        """Play the turn for every seat whose time ran out (AI move or reset, as the race
        chose); returns what happened. The dispatcher calls this when a deadline passes."""
        moment = self.clock.now() if now is None else now
        updates: list[Update] = []
        for race_id in await self.storage.due_races(moment):
            try:
                updates.extend(await self._time_out(race_id, moment))
            except Exception:
                log.exception("race %d: timing out the turn failed", race_id)
        return updates

    async def _time_out(self, race_id: int, now: float) -> list[Update]:
        updates: list[Update] = []
        while True:
            async with self._locked(race_id):
                loaded = await self._load(race_id)
                race = loaded.race
                row = loaded.table.row
                if (
                    row.status != RUNNING
                    or race is None
                    or row.deadline is None
                    or row.deadline > now
                ):
                    return updates
                seat = race.waiting_for[0]
                policy = loaded.table.settings.timeout_policy
                seat_row = loaded.table.seat(seat)
                if policy == "reset" and not seat_row.is_ai:
                    move = timeout_reset(race.view(seat))
                else:
                    level = seat_row.ai_level or loaded.table.settings.ai_level
                    move = await self._ai_move(loaded, seat, level)
                log.info("race %d: seat %s timed out on turn %d", race_id, seat, race.turn)
                updates.append(await self._commit(loaded, seat, move, None, SOURCE_TIMEOUT))

    async def reminders_due(self, now: float | None = None) -> list[tuple[Table, int]]:
        """Races whose turn has passed a reminder point not yet announced; marks them sent.
        Returns (table, reminder number 1 or 2)."""
        moment = self.clock.now() if now is None else now
        due: list[tuple[Table, int]] = []
        for race_id, deadline, sent, turn_seconds in await self.storage.reminder_candidates(moment):
            started = deadline - turn_seconds
            reached = sum(moment >= started + share * turn_seconds for share in REMINDER_SHARES)
            if reached > sent:
                async with self._locked(race_id):
                    await self.storage.update_race(race_id, moment, reminders=reached)
                    self._forget(race_id)
                    due.append((await self._table(race_id), reached))
        return due

    async def wait_until_due(self, idle: float) -> None:
        """Sleep until the next deadline or reminder (at most ``idle`` seconds), or until a
        deadline changes. The change signal is cleared *before* the next time is read, so
        a deadline stored while it is being read still wakes the sleeper."""
        self.deadline_changed.clear()
        when = await self.next_wakeup()
        await self.clock.sleep_until(
            when if when is not None else self.clock.now() + idle, self.deadline_changed
        )

    async def next_wakeup(self) -> float | None:
        """When the dispatcher must next look: a deadline or a reminder point."""
        times = [await self.storage.next_deadline(), await self.storage.next_reminder()]
        known = [time for time in times if time is not None]
        return min(known) if known else None

    # ------------------------------------------------------------------ seats mid-race

    async def leave_race(self, race_id: int, user_id: int) -> Update:
        """A player leaves: an AI seat takes over the chariot. The last human leaving
        abandons the race."""
        async with self._locked(race_id):
            loaded = await self._running(race_id)
            seat = loaded.table.seat_of(user_id)
            if seat is None:
                raise ServiceError("error.not_seated")
            if len(loaded.table.humans) == 1:
                return await self._abandon(loaded.table)
            level = loaded.table.settings.ai_level
            replaced = [
                dataclasses.replace(s, user_id=None, ai_level=level, name=f"{s.name} (AI)")
                if s.seat == seat.seat
                else s
                for s in loaded.table.seats
            ]
            await self.storage.replace_seats(race_id, replaced, self.clock.now())
            self._forget(race_id)
            return Update(await self._table(race_id), seat.seat)

    async def substitute(
        self,
        race_id: int,
        by_user: int,
        seat_name: str,
        user_id: int,
        name: str,
        *,
        admin: bool = False,
    ) -> Update:
        """The host puts another member in a seat (a player's or an AI's)."""
        async with self._locked(race_id):
            loaded = await self._running(race_id)
            table = loaded.table
            self._require_host(table, by_user, admin=admin)
            if seat_name not in {seat.seat for seat in table.seats}:
                raise ServiceError("error.no_such_seat", seat=seat_name)
            if table.seat_of(user_id) is not None:
                raise ServiceError("error.already_seated")
            replaced = [
                dataclasses.replace(s, user_id=user_id, ai_level=None, name=name)
                if s.seat == seat_name
                else s
                for s in table.seats
            ]
            await self.storage.replace_seats(race_id, replaced, self.clock.now())
            self._forget(race_id)
            return Update(await self._table(race_id), seat_name)

    async def abandon(self, race_id: int, by_user: int, *, admin: bool = False) -> Update:
        async with self._locked(race_id):
            table = await self._table(race_id)
            if table.status in (FINISHED, ABANDONED):
                raise ServiceError("error.race_over")
            self._require_host(table, by_user, admin=admin)
            return await self._abandon(table)

    async def _abandon(self, table: Table) -> Update:
        await self.storage.update_race(table.id, self.clock.now(), status=ABANDONED, deadline=None)
        self._forget(table.id)
        log.info("race %d: abandoned", table.id)
        return Update(await self._table(table.id))

    # ------------------------------------------------------------------ reading

    async def table(self, race_id: int) -> Table:
        return (await self._load(race_id)).table

    async def view_for(self, race_id: int, user_id: int | None) -> tuple[Table, SeatView]:
        """The race as this user may see it: their own seat's view, or a spectator's."""
        loaded = await self._load(race_id)
        if loaded.race is None:
            raise ServiceError("error.not_started")
        seat = loaded.table.seat_of(user_id) if user_id is not None else None
        return loaded.table, loaded.race.view(seat.seat if seat else None)

    async def turn_reports(self, race_id: int) -> list[TurnReport]:
        """Every resolved turn so far (for the race log), rebuilt from the record."""
        loaded = await self._load(race_id)
        if loaded.race is None:
            return []
        reports = []
        turn = 1
        for seq, (_, transition) in enumerate(replay_steps(loaded.race.record), start=1):
            if any(not isinstance(event, MoveCommitted) for event in transition.events):
                reports.append(TurnReport(turn, seq, transition.events, view(transition.state)))
            turn = transition.state.turn
        return reports

    async def report(self, race_id: int, seq: int) -> TurnReport:
        """The turn resolved by action ``seq``: from memory, or rebuilt from the record."""
        cached = self._reports.get((race_id, seq))
        if cached is not None:
            return cached
        for report in await self.turn_reports(race_id):
            if report.seq == seq:
                self._keep_report(race_id, report)
                return report
        raise ServiceError("error.no_such_turn")

    async def announcements(self, race_id: int | None = None) -> list[Announcement]:
        """What is still to be posted, oldest first, with what to render it from."""
        out: list[Announcement] = []
        for row in await self.storage.pending_announcements(race_id):
            loaded = await self._load(row.race_id)
            if loaded.race is None:
                continue
            report = (
                await self.report(row.race_id, row.seq)
                if row.kind in ("reveal", "podium")
                else None
            )
            current = loaded.race.view()
            out.append(Announcement(row, loaded.table, report.view if report else current, report))
        return out

    async def announced(self, announcement: Announcement, message_id: int | None) -> None:
        """Mark an announcement posted (``message_id``: where, if anywhere). A posted board
        becomes the race's current board in the same transaction."""
        row = announcement.row
        board = row.race_id if row.kind == "board" and message_id is not None else None
        await self.storage.announcement_sent(
            row.id, message_id, self.clock.now(), board_of_race=board
        )
        if board is not None:
            self._forget(row.race_id)

    async def set_channel_message(self, race_id: int, **fields: int | None) -> None:
        """Remember where the race lives in the front end (thread, lobby and board messages)."""
        await self.storage.update_race(race_id, self.clock.now(), **fields)
        self._forget(race_id)

    async def races_to_resume(self) -> list[int]:
        """Running races with AI seats still to play or announcements still to post."""
        ids = set(await self.storage.races_with_ai_to_play())
        ids.update(row.race_id for row in await self.storage.pending_announcements())
        return sorted(ids)

    async def get_draft(self, race_id: int, user_id: int, turn: int) -> dict[str, JSON] | None:
        return await self.storage.draft(race_id, user_id, turn)

    async def save_draft(
        self, race_id: int, user_id: int, turn: int, draft: dict[str, JSON]
    ) -> None:
        await self.storage.save_draft(race_id, user_id, turn, draft)

    async def find_race(
        self, *, channel_id: int | None, user_id: int, guild_id: int | None
    ) -> Table:
        """The race a command in this channel by this user means: the channel's (or
        thread's) race the user sits in, else their latest active race in the server."""
        if channel_id is not None:
            row = await self.storage.race_by_thread(channel_id)
            if row is not None:
                return await self._table(row.id)
            here = await self.storage.active_races_in_channel(channel_id)
            for candidate in here:
                table = await self._table(candidate.id)
                if table.seat_of(user_id) is not None:
                    return table
            if len(here) == 1:
                return await self._table(here[0].id)
        mine = await self.storage.active_races_of_user(user_id, guild_id)
        if mine:
            return await self._table(mine[0].id)
        raise ServiceError("error.no_race_here")


def timeout_reset(seat_view: SeatView) -> Move:
    """The reset move a timed-out seat makes: one card, the one with the fewest symbols."""
    hand = seat_view.hand
    weakest = min(
        range(len(hand)), key=lambda index: (sum(c for _, c in hand[index].symbols), index)
    )
    return Move.reset((weakest,))


__all__ = [
    "AI_LEVELS",
    "TIMEOUT_POLICIES",
    "TURN_LIMITS",
    "Announcement",
    "RaceService",
    "RaceSettings",
    "RuleError",
    "ServiceError",
    "Table",
    "TurnReport",
    "Update",
    "timeout_reset",
]
