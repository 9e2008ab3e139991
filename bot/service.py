"""The table service: any hosted game from lobby to podium, for any front end.

It owns lobbies and seats, moves, AI seats, time limits, substitutions, the outbox of
announcements and results, for every game through its :class:`~bot.games.base.GameHost`
adapter; it imports no game. The Discord cogs and the console front end both call it; it
knows nothing of either. Every accepted action is stored (one transaction per action,
``(table, seq)`` unique) before a method returns, and a per-table lock makes simultaneous
calls resolve a turn exactly once. In a cluster (several processes over one database) its
loops serve the tables of its shards' servers (:mod:`bot.shards`), a table it keeps in
memory is used only while a cheap check of the stored table's version says nobody else
changed it, and an action another process stored first is met by trying again on the
table as stored.

Errors a user should read are :class:`ServiceError` (a message id and its parameters);
rule errors carry the engine's reason.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import os
import secrets
import socket
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot import timebank
from bot.access import Asker, Place, may_look
from bot.clock import Clock, SystemClock
from bot.community.ratings import guild_key, recompute
from bot.games import host_for
from bot.games.base import BOARD, PODIUM, REPLAY, GameHost, ServiceError, Standing
from bot.locks import KeyedLocks
from bot.notices import NoticeStore
from bot.shards import EVERY_SHARD, Shards
from bot.sql import REMINDER_SHARES
from bot.storage import (
    OutboxRow,
    ResultRow,
    SeatRow,
    StaleWrite,
    Storage,
    StoredAction,
    TableRow,
    json_text,
    row_after,
)
from bot.text import t
from bot.timebank import VOTE_OPENS, Away, Clocks, clocks_from_json
from engine.core import (
    JSON,
    Action,
    Chance,
    EngineError,
    Event,
    Game,
    GameRecord,
    Rng,
    advance,
    replay,
    steps_from,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

TURN_LIMITS: dict[str, int | None] = {
    "2m": 120,
    "5m": 300,
    "1h": 3600,
    "12h": 43200,
    "24h": 86400,
    "72h": 259200,
    "none": None,
}
"""Presets for a turn's time limit: a live game of minutes, an asynchronous one of days."""
DEFAULT_TURN_LIMIT = "24h"
MIN_TURN_SECONDS = 30
CACHE_SIZE = 128
CONFLICT_TRIES = 3
"""How often a call is tried when another process stores an action of the same table
first (each try reads the table anew)."""
CLAIM_LEASE = 120.0
"""Seconds a process's claim on a table's time limit or posts keeps other processes off
it (PostgreSQL): enough to time out a turn and post what it caused."""
CLAIMED_ELSEWHERE_WAIT = 2.0
"""Seconds the dispatcher waits before looking again when every time limit due is claimed
by another process (one holding the same shards for a while, as in a rolling restart)."""

LOBBY, RUNNING, FINISHED, ABANDONED = "lobby", "running", "finished", "abandoned"
SOURCE_PLAYER, SOURCE_AI, SOURCE_TIMEOUT = "player", "ai", "timeout"
SOURCE_SUBSTITUTION = "substitution"
"""A seat's unrevealed move withdrawn as the seat changed hands."""

ChooseAction = Callable[[GameHost, str, Any, Rng], Action]
"""How AI seats choose: (game, level, the seat's own view, rng) → action."""


class RuleError(ServiceError):
    """The engine refused the move; ``params["reason"]`` is its explanation (in English),
    :meth:`reason_in` says it in a player's language."""

    def __init__(self, error: EngineError, host: GameHost | None = None) -> None:
        super().__init__("error.illegal_move", reason=error.reason)
        self.error = error
        self.host = host

    def reason_in(self, locale: str | None) -> str:
        return self.host.rule_text(self.error, locale) if self.host else self.error.reason


@dataclass(frozen=True)
class TableSettings:
    """What the host chose for a table: seats, its time control (a time per turn, or a time
    bank per seat: reserve and increment; neither: no limit), whether a bank pauses while
    its member is away, what a timed-out seat plays, the AI seats' default level (None:
    the game's strongest), the game's own options, and whether its seats were assigned
    when it opened."""

    seats: int = 4
    turn_seconds: int | None = TURN_LIMITS[DEFAULT_TURN_LIMIT]
    bank: tuple[int, int] | None = None
    away_pauses: bool = False
    away_refused: bool = False
    """A tournament's game whose organiser did not allow its players to be away."""
    timeout_policy: str = "ai"
    ai_level: str | None = None
    options: Mapping[str, JSON] = field(default_factory=dict)
    assigned: bool = False
    """The seats were given when the table opened (a tournament's pairing): nobody joins
    or leaves its lobby, and no AI seat is added."""

    def checked_for(self, host: GameHost) -> TableSettings:
        """These settings checked against the game, with its option defaults filled in."""
        if not host.min_seats <= self.seats <= host.max_seats:
            raise ServiceError("error.bad_seats", low=host.min_seats, high=host.max_seats)
        if self.timeout_policy not in host.timeout_policies:
            raise ServiceError("error.bad_timeout_policy")
        if self.ai_level is not None and self.ai_level not in host.ai_levels:
            raise ServiceError("error.bad_ai_level")
        if self.turn_seconds is not None and self.turn_seconds < MIN_TURN_SECONDS:
            raise ServiceError("error.bad_turn_limit")
        if self.bank is not None and not timebank.bank_in_bounds(self.bank):
            raise ServiceError("error.bad_bank")
        return dataclasses.replace(
            self,
            turn_seconds=None if self.bank is not None else self.turn_seconds,
            ai_level=self.ai_level or host.ai_levels[-1],
            options=host.check_options(self.options, self.seats),
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "seats": self.seats,
            "turn_seconds": self.turn_seconds,
            "timeout_policy": self.timeout_policy,
            "ai_level": self.ai_level,
            "options": dict(self.options),
            **({"assigned": True} if self.assigned else {}),
            **({"bank": list(self.bank)} if self.bank is not None else {}),
            **({"away_pauses": True} if self.away_pauses else {}),
            **({"away_refused": True} if self.away_refused else {}),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON]) -> TableSettings:
        default = cls()
        return cls(
            seats=obj.get("seats", default.seats),
            turn_seconds=obj.get("turn_seconds", default.turn_seconds),
            timeout_policy=obj.get("timeout_policy", default.timeout_policy),
            ai_level=obj.get("ai_level"),
            options=obj.get("options") or {},
            assigned=bool(obj.get("assigned", False)),
            bank=(obj["bank"][0], obj["bank"][1]) if obj.get("bank") else None,
            away_pauses=bool(obj.get("away_pauses", False)),
            away_refused=bool(obj.get("away_refused", False)),
        )

    @property
    def limited(self) -> bool:
        """Whether a seat's time runs out (a time per turn or a bank)."""
        return self.turn_seconds is not None or self.bank is not None


@dataclass(frozen=True)
class Table:
    """A table's stored facts: the row and its seats (lobby places or game seats)."""

    row: TableRow
    seats: tuple[SeatRow, ...]

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def game(self) -> str:
        return self.row.game

    @property
    def host(self) -> GameHost:
        return host_for(self.row.game)

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def settings(self) -> TableSettings:
        return TableSettings.from_json(self.row.settings)

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

    def in_turn_order(self) -> tuple[SeatRow, ...]:
        """The seats in the order they play (the game's seat names' order) once started;
        a lobby's places in the order their members came."""
        if self.status == "lobby":
            return tuple(sorted(self.seats, key=_joining_order))
        names = self.host.seat_names(len(self.seats), self.settings.options)
        order = {name: index for index, name in enumerate(names)}
        return tuple(sorted(self.seats, key=lambda seat: order.get(seat.seat, len(order))))

    @property
    def humans(self) -> tuple[SeatRow, ...]:
        return tuple(seat for seat in self.seats if not seat.is_ai)

    @property
    def waiting(self) -> tuple[str, ...]:
        return tuple(seat for seat in self.row.waiting.split(",") if seat)

    def waiting_humans(self) -> tuple[SeatRow, ...]:
        waiting = set(self.waiting)
        return tuple(seat for seat in self.seats if seat.seat in waiting and not seat.is_ai)

    @property
    def clocks(self) -> Clocks:
        return clocks_from_json(self.row.clocks)

    def clock(self, seat: str) -> dict[str, float]:
        """The seat's clock (:mod:`bot.timebank`): empty for a table started before them.
        A table whose players may not be away (a tournament's, unless its organiser allows
        it) shows no absence, whatever was recorded: its seats' time runs as anyone's."""
        clock = self.clocks.get(seat, {})
        if self.settings.away_refused:
            return timebank.with_away({seat: clock}, [seat], None)[seat]
        return clock

    def expiry(self, seat: str) -> float | None:
        """When the seat, owing a move, runs out of time or its vote decides (None: never,
        or it owes none)."""
        times = [self.runs_out(seat), self.vote_due(seat)]
        known = [time for time in times if time is not None]
        return min(known) if known else None

    def runs_out(self, seat: str) -> float | None:
        """When the seat, owing a move, runs out of time (None: never, or it owes none)."""
        settings = self.settings
        clock = self.clock(seat)
        if not clock:  # a table started before seats had clocks: the turn's deadline
            return self.row.deadline if seat in self.waiting else None
        return timebank.expiry(
            clock,
            turn_seconds=settings.turn_seconds,
            bank=settings.bank,
            pauses=settings.away_pauses,
        )

    def vote_opens(self, seat: str) -> float | None:
        """When the vote opened on the seat's owed move may decide (None: no vote open)."""
        return self.clock(seat).get(VOTE_OPENS)

    def vote_due(self, seat: str) -> float | None:
        """When the vote on the seat's owed move takes effect, when its votes so far hand
        the seat over (:data:`bot.timebank.VOTE_DUE`)."""
        return self.clock(seat).get(timebank.VOTE_DUE)

    def away_until(self, seat: str, now: float) -> float | None:
        """Until when the seat's member is away, if they are away at ``now``."""
        away = Away.of(self.clock(seat))
        return away.until if away is not None and away.at(now) else None

    def deadline_of(self, clocks: Clocks, waiting: Sequence[str]) -> float | None:
        """The table's next deadline with these clocks: the first seat owing a move to run
        out of time."""
        table = dataclasses.replace(self, row=dataclasses.replace(self.row, clocks=dict(clocks)))
        times = [table.expiry(seat) for seat in waiting]
        known = [time for time in times if time is not None]
        return min(known) if known else None


def seat_owes(table: Table, user_id: int) -> bool:
    """Whether the table waits for this member's move."""
    return any(seat.user_id == user_id for seat in table.waiting_humans())


@dataclass(frozen=True)
class TurnReport:
    """A resolved step: every event (public and private) and the public view after it.
    ``turn`` is the stage it resolved."""

    turn: int
    seq: int
    events: tuple[Event, ...]
    view: Any


@dataclass(frozen=True)
class Update:
    """What a call changed: the table after it, whether a move was stored, the steps it
    resolved and the final standing if the game ended."""

    table: Table
    seat: str | None = None
    stored: bool = False
    changed_move: bool = False
    turns: tuple[TurnReport, ...] = ()
    result: Standing | None = None
    vote: Vote | None = None
    """The vote on an absent player's seat that this call decided, if one did."""

    @property
    def resolved(self) -> bool:
        return bool(self.turns)


VOTE_CHOICES = ("turn", "game", "wait")
"""What a vote on an absent player's seat may choose: the AI plays this move, the AI takes
the seat for the rest of the game, or the table waits."""


def _decision(votes: Sequence[str], voters: int) -> str | None:
    """What the votes so far decide among ``voters`` players: a majority for the rest of
    the game, else a majority for handing the seat over at all (this move); ``wait`` once
    no majority can hand it over, or every vote is in without one (a tie); None while
    undecided."""
    game = votes.count("game")
    over = game + votes.count("turn")
    if 2 * game > voters:
        return "game"
    if 2 * over > voters:
        return "turn"
    if 2 * votes.count("wait") >= voters or len(votes) >= voters:
        return "wait"
    return None


@dataclass(frozen=True)
class Vote:
    """A vote cast on an absent player's seat: the table before it, the seat, the votes so
    far among how many voters, the decision if one is made and what it did. Cast in the
    absent player's grace, a decision waits until ``opens`` (``pending``: what it will be
    then, unless the seat moves first)."""

    table: Table
    seat: SeatRow
    votes: tuple[str, ...]
    voters: int
    decision: str | None
    update: Update | None
    opens: float = 0.0
    pending: str | None = None


@dataclass(frozen=True)
class VoteOpening:
    """A vote opened (``opened``) or found open on ``seat``, owing its move since
    ``since``: it decides no earlier than ``opens``, the end of its player's grace."""

    table: Table
    seat: SeatRow
    since: float
    opens: float
    opened: bool


@dataclass(frozen=True)
class Announcement:
    """Something to post publicly, from the outbox (a kind the game named: a reveal, the
    board of a new turn, a season's scores, the podium), rendered from the snapshot taken
    when it was made: ``table`` as the action left it (its seats, waiting players and
    deadline), ``report`` the step that caused it, when there is one, and ``view`` the
    public view to render it from. A later action or substitution changes none of it."""

    row: OutboxRow
    table: Table
    view: Any
    report: TurnReport | None = None


@dataclass
class _Loaded:
    """A table and its engine state after its last stored action (None in a lobby). Only
    the state is kept, never the game's whole record: the service needs the record for
    a game's log alone (:meth:`TableService.recent_reports` and
    :meth:`TableService.turn_reports` read it then)."""

    table: Table
    state: Any | None
    _views: dict[str | None, Any] = field(default_factory=dict, repr=False)
    _views_of: Any = field(default=None, repr=False)

    def view(self, seat: str | None) -> Any:
        """What ``seat`` (None: a spectator) sees of the state, worked out once per state:
        every click of a turn reads the same view, and what a view works out for itself
        (a tile's legal spots, say) is worked out once."""
        if self._views_of is not self.state:
            self._views, self._views_of = {}, self.state
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.table.host.view(self.state, seat)
        return view


RECENT_REPORTS = 6
"""The resolved steps a table keeps in memory (:meth:`TableService.recent_reports`): a
post tells at most the turns of a round (Carcassonne, five seats) and the log shows three."""


@dataclass(frozen=True)
class _Step:
    """One action of a commit: the table and state it leaves (as its write stores them),
    the write, and the step's report when it resolved one."""

    table: Table
    after: Any
    stored_action: StoredAction
    report: TurnReport | None
    standing: Standing | None


@dataclass(frozen=True)
class _Reports:
    """A table's resolved steps as far as its first ``seq`` actions (the latest
    :data:`RECENT_REPORTS` of them, or all), with the engine state after them: a read
    that follows plays on from there, not from the set-up."""

    seq: int
    state: Any
    reports: tuple[TurnReport, ...]

    def played_on(
        self, host: GameHost, actions: Sequence[Action], keep: int | None = RECENT_REPORTS
    ) -> _Reports:
        """These steps and those ``actions`` resolve after them (the latest ``keep``; all
        with None). CPU-heavy for a long record: run off the event loop."""
        before, reports, seq = self.state, list(self.reports), self.seq
        for seq, (_, transition) in enumerate(
            steps_from(host.ruleset, before, actions), start=self.seq + 1
        ):
            if host.announcements(before, transition.state, transition.events):
                view = host.view(transition.state, None)
                reports.append(TurnReport(host.stage(before), seq, transition.events, view))
            before = transition.state
        return _Reports(seq, before, tuple(reports if keep is None else reports[-keep:]))


@dataclass(eq=False)
class _Read:
    """A read of a table from the database, under way: outdated when the table's cache
    entry changes before it ends, and then not cached."""

    outdated: bool = False


def _version(table: Table) -> int:
    """What :meth:`~bot.storage.Storage.table_version` reads for this copy of the table."""
    return table.row.version


def _joining_order(seat: SeatRow) -> tuple[float, float]:
    """A lobby's places in the order their members came (a place numbered earlier first
    among those who came at the same moment; a new one, not yet numbered, last)."""
    return (seat.joined_at, float(seat.seat) if seat.seat.isdigit() else float("inf"))


def game_record(table: Table, actions: Sequence[Action]) -> GameRecord:
    """A started table's whole game record: its stored set-up and these actions (all of
    them, or the first ones)."""
    row = table.row
    host = table.host
    return GameRecord(
        host.ruleset.id,
        host.ruleset.version,
        host.config(len(table.seats), table.settings.options),
        row.seed,
        json.loads(row.setup) if row.setup else [],
        None,
        list(actions),
    )


SNAPSHOT_LEFT_OUT = frozenset({"state", "setup", "claimed_by", "claimed_until", "version"})
"""Table fields an announcement's snapshot leaves out (the position travels on its own)."""
STEP_CACHE_SIZE = 256
"""Announced steps kept in memory, as their snapshots describe them, until posted (one not
kept, after a restart say, is rendered from its stored snapshot)."""

Step = tuple[Table, Any, TurnReport | None]
"""What an announcement is rendered from: the table and public view its snapshot holds,
and the step (events and view) of the action that made it, if an action did."""


def _snapshot(
    table: Table,
    seats: Sequence[SeatRow],
    changes: Mapping[str, JSON],
    *,
    before: tuple[str, Action] | None = None,
    state: JSON | None = None,
) -> dict[str, JSON]:
    """An announcement's snapshot: the table as an action (or the start) leaves it, its
    ``seats``, and the position ``before`` the action (its stored JSON text) with the action
    as recorded (its chance outcomes included) or, for the start, the ``state`` it begins
    in."""
    row = {
        name: value
        for name, value in dataclasses.asdict(table.row).items()
        if name not in SNAPSHOT_LEFT_OUT
    }
    return {
        "table": row | dict(changes),
        "seats": [dataclasses.asdict(seat) for seat in seats],
        "before": None if before is None else before[0],
        "action": None if before is None else before[1].to_json(),
        "state": state,
    }


def _snapshot_table(snapshot: Mapping[str, Any]) -> Table:
    row = TableRow(**snapshot["table"], state=None, setup=None)
    return Table(row, tuple(SeatRow(**seat) for seat in snapshot["seats"]))


def _from_snapshot(seq: int, snapshot: Mapping[str, Any]) -> Step:
    """What an announcement's snapshot holds: the action is applied anew to the position
    before it, with its recorded chance."""
    table = _snapshot_table(snapshot)
    host = table.host
    ruleset = host.ruleset
    if snapshot.get("action") is None:
        return table, host.view(ruleset.from_position(snapshot["state"]), None), None
    before = ruleset.from_position(json.loads(snapshot["before"]))
    action = Action.from_json(snapshot["action"])
    chance = Chance.scripted(action.chance, ruleset.chance_index(before))
    transition = ruleset.apply(before, action, chance)
    view = host.view(transition.state, None)
    return table, view, TurnReport(host.stage(before), seq, transition.events, view)


def with_replay(
    announcements: tuple[tuple[str, int], ...], standing: Standing | None
) -> tuple[tuple[str, int], ...]:
    """A step's announcements, and after a finished game's podium its animated replay."""
    podiums = [turn for kind, turn in announcements if kind == PODIUM]
    if standing is None or not podiums:
        return announcements
    return (*announcements, (REPLAY, podiums[0]))


def default_chooser(host: GameHost, level: str, seat_view: Any, rng: Rng) -> Action:
    """The game's own AI policy for ``level``."""
    return host.ai_action(level, seat_view, rng)


class TableService:
    """Tables of every game in one database. Construct with :meth:`create` or with a
    :class:`Storage`."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock | None = None,
        seeds: Callable[[], int] | None = None,
        choose_action: ChooseAction | None = None,
        shards: Shards = EVERY_SHARD,
    ) -> None:
        self.storage = storage
        self.shards = shards
        """The servers whose time limits, AI seats, resumption and outbox this process
        serves (every server unless the bot runs as several processes)."""
        self.clock: Clock = clock or SystemClock()
        self.notices = NoticeStore(storage)
        """Members' own choices of how and when they hear of their moves, and the notices
        owed to them later."""
        self._seeds = seeds or (lambda: secrets.randbits(62))
        self._choose: ChooseAction = choose_action or default_chooser
        self._locks: KeyedLocks[int] = KeyedLocks()
        self._cache: OrderedDict[int, _Loaded] = OrderedDict()
        self._steps: OrderedDict[tuple[int, int], Step] = OrderedDict()
        """Announced steps as their snapshots describe them, until posted."""
        self._reports: OrderedDict[int, _Reports] = OrderedDict()
        """The latest resolved steps of the tables read last (:meth:`recent_reports`)."""
        self._reads: dict[int, list[_Read]] = {}
        """The reads of each table under way (they take no lock), see :meth:`_load`."""
        self.deadline_changed = asyncio.Event()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="circus-worker")
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process, as its claims on tables name it (see :data:`CLAIM_LEASE`)."""
        self._empty_look: float | None = None
        """When the last :meth:`fire_due` looked and claimed no table: a deadline that was
        due by then is another process's for now (one due since is not)."""

    @classmethod
    async def create(cls, path: str, **kwargs: Any) -> TableService:
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

    def _locked(self, table_id: int) -> AbstractAsyncContextManager[None]:
        return self._locks.hold(table_id)

    async def _table(self, table_id: int) -> Table:
        row = await self.storage.table(table_id)
        if row is None:
            raise ServiceError("error.no_such_race", race=table_id)
        return Table(row, tuple(await self.storage.seats(table_id)))

    async def _load(self, table_id: int) -> _Loaded:
        """The table and its engine game, from the cache or the database.

        A read from the database is cached only if the table's cache entry did not change
        while it ran (a change stored meanwhile forgets or replaces the entry): what it
        read may predate the change, and cached it would stay stale. In a cluster, the
        table cached is used only while the stored table's version is still the cached
        one's (another process may have changed it); else it is read anew."""
        cached = self._cache.get(table_id)
        while cached is not None and not self.shards.everything:
            version = await self.storage.table_version(table_id)
            if self._cache.get(table_id) is not cached:
                cached = self._cache.get(table_id)  # changed here meanwhile: check that
                continue
            if version != _version(cached.table):
                self._forget(table_id)
                cached = None
            break
        if cached is not None:
            self._cache.move_to_end(table_id)
            return cached
        read = _Read()
        reads = self._reads.setdefault(table_id, [])
        reads.append(read)
        try:
            table = await self._table(table_id)
        finally:
            reads.remove(read)
            if not reads:
                del self._reads[table_id]
        loaded = _Loaded(table, self._state_of(table))
        if not read.outdated:
            self._remember(table_id, loaded)
        return loaded

    @staticmethod
    def _state_of(table: Table) -> Any | None:
        """The engine state the table's row stores (None for a lobby)."""
        if table.row.state is None:
            return None
        return table.host.ruleset.from_position(json.loads(table.row.state))

    async def _record(self, table: Table) -> GameRecord:
        """The table's whole game record, from the stored set-up and actions."""
        return game_record(table, await self.storage.actions(table.id))

    def _remember(self, table_id: int, loaded: _Loaded, written: int | None = None) -> None:
        """Cache the table: as read, or as read again after this process wrote its
        version ``written``. In a cluster, the latter only if that write is still its last
        and nobody wrote between its read and that write (what another process wrote would
        not show in the game kept)."""
        self._outdate_reads(table_id)
        if not self.shards.everything and written not in (None, _version(loaded.table)):
            return
        self._cache[table_id] = loaded
        self._cache.move_to_end(table_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _keep_step(self, table_id: int, seq: int, step: Step) -> None:
        self._steps[(table_id, seq)] = step
        while len(self._steps) > STEP_CACHE_SIZE:
            self._steps.popitem(last=False)

    def _forget(self, table_id: int) -> None:
        self._outdate_reads(table_id)
        self._cache.pop(table_id, None)

    def _outdate_reads(self, table_id: int) -> None:
        for read in self._reads.get(table_id, ()):
            read.outdated = True

    async def _reread_row(self, table_id: int) -> None:
        """After a change to where a table lives (its messages, its thread), not to its
        game: the cached table's row is read again and its engine game kept. Forgetting
        the game made the next click rebuild it from the stored actions, for every player
        of every table whose board was just posted, at the same moment."""
        cached = self._cache.get(table_id)
        if cached is None:
            return
        table = await self._table(table_id)
        if table.row.seq != cached.table.row.seq:
            self._forget(table_id)  # an action came in meanwhile: read it anew
        else:
            cached.table = table

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        *,
        game: str,
        host_id: int,
        host_name: str,
        settings: TableSettings,
        guild_id: int | None = None,
        channel_id: int | None = None,
        locale: str | None = None,
        seated: Sequence[tuple[int, str]] | None = None,
    ) -> Table:
        """A lobby of ``game`` with its host seated; others join until it is started. With
        ``seated`` (member id, name), those members take its places in this order and the
        host (an organiser) none: the seats are assigned, nobody joins or leaves."""
        if seated is not None:
            settings = dataclasses.replace(settings, seats=len(seated), assigned=True)
        checked = settings.checked_for(host_for(game))
        table_id = await self.storage.create_table(
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            host_name=host_name,
            settings=checked.to_json(),
            seed=self._seeds(),
            locale=locale,
            now=self.clock.now(),
            seated=seated,
        )
        log.info("table %d: %s lobby opened by user %d", table_id, game, host_id)
        return await self._table(table_id)

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        async with self._locked(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is not None:
                raise ServiceError("error.already_joined")
            if len(table.seats) >= table.settings.seats:
                raise ServiceError("error.lobby_full", seats=table.settings.seats)
            seat = SeatRow(table_id, "", user_id, name, None, self.clock.now())
            return await self._save_lobby(table, [*table.seats, seat])

    async def leave_lobby(self, table_id: int, user_id: int) -> Table:
        async with self._locked(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is None:
                raise ServiceError("error.not_in_lobby")
            if user_id == table.row.host_id:
                raise ServiceError("error.host_cannot_leave_lobby")
            return await self._save_lobby(table, [s for s in table.seats if s.user_id != user_id])

    async def add_ai(self, table_id: int, by_user: int, level: str) -> Table:
        async with self._locked(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, by_user)
            if level not in table.host.ai_levels:
                raise ServiceError("error.bad_ai_level")
            if len(table.seats) >= table.settings.seats:
                raise ServiceError("error.lobby_full", seats=table.settings.seats)
            count = sum(seat.is_ai for seat in table.seats) + 1
            name = t(table.row.locale, "lobby.ai_name", number=count)
            seat = SeatRow(table_id, "", None, name, level, self.clock.now())
            return await self._save_lobby(table, [*table.seats, seat])

    async def remove_ai(self, table_id: int, by_user: int) -> Table:
        async with self._locked(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, by_user)
            ai = [seat for seat in table.seats if seat.is_ai]
            if not ai:
                raise ServiceError("error.no_ai_seat")
            return await self._save_lobby(table, [s for s in table.seats if s is not ai[-1]])

    async def _lobby(self, table_id: int, *, changing_seats: bool = True) -> Table:
        """The table, still a lobby; ``changing_seats``: for a change of its seats, which a
        table whose seats were assigned refuses."""
        table = await self._table(table_id)
        if table.status != LOBBY:
            raise ServiceError(
                "error.not_a_lobby" if table.status == RUNNING else "error.race_over"
            )
        if changing_seats and table.settings.assigned:
            raise ServiceError("error.seats_assigned")
        return table

    async def _save_lobby(self, table: Table, seats: Sequence[SeatRow]) -> Table:
        ordered = sorted(seats, key=_joining_order)
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

    async def start(self, table_id: int, by_user: int) -> Update:
        """Seat everyone (the game's seat names, in joining order), set up, open turn 1."""
        async with self._locked(table_id):
            table = await self._lobby(table_id, changing_seats=False)
            lobby_version = table.row.version
            self._require_host(table, by_user)
            host = table.host
            if len(table.seats) < host.min_seats:
                raise ServiceError("error.too_few_players", count=host.min_seats)
            count, options = len(table.seats), table.settings.options
            try:
                game = Game.new(host.ruleset, host.config(count, options), table.row.seed)
            except EngineError:
                raise ServiceError("error.options_need_seats") from None
            names = host.seat_names(count, options)
            joined = sorted(table.seats, key=_joining_order)
            seats = [
                dataclasses.replace(seat, seat=name)
                for seat, name in zip(joined, names, strict=True)
            ]
            now = self.clock.now()
            stage = host.stage(game.state)
            state = host.ruleset.to_position(game.state)
            waiting = host.waiting_for(game.state)
            clocks = await self._first_clocks(table, seats, waiting, now)
            started = {
                "status": RUNNING,
                "seq": 0,
                "turn": stage,
                "waiting": ",".join(waiting),
                "deadline": Table(table.row, tuple(seats)).deadline_of(clocks, waiting),
                "clocks": clocks,
            }
            snapshot = _snapshot(table, seats, started, state=state)
            await self.storage.replace_seats(
                table_id,
                seats,
                now,
                announce=(BOARD, 0, stage),
                snapshot=snapshot,
                holders=seats,
                setup=game.record.setup,
                state=state,
                **started,
            )
            self._forget(table_id)  # the lobby cached is no more: readers meanwhile read it
            table = await self._table(table_id)
            self._remember(table_id, _Loaded(table, game.state), written=lobby_version + 1)
            self._keep_step(
                table_id, 0, (_snapshot_table(snapshot), host.view(game.state, None), None)
            )
            self.deadline_changed.set()
            log.info("table %d: started with %d seats", table_id, len(seats))
            return Update(table)

    async def _first_clocks(
        self, table: Table, seats: Sequence[SeatRow], waiting: Sequence[str], now: float
    ) -> Clocks:
        """The seats' clocks as a game starts: full banks, the first seats owing their move
        from now, and the absences of members away in this server."""
        settings = table.settings
        reserve = settings.bank[0] if settings.bank is not None else None
        clocks = timebank.started({seat.seat: {} for seat in seats}, waiting, now, reserve)
        if reserve is not None:
            for clock in clocks.values():
                clock.setdefault("left", float(reserve))
        if table.row.guild_id is not None and not settings.away_refused:
            aways = await self.storage.aways(table.row.guild_id, now)
            for seat in seats:
                if seat.user_id in aways:
                    clocks = timebank.with_away(clocks, [seat.seat], aways[seat.user_id])
        return clocks

    @staticmethod
    def _clocks_after(
        table: Table,
        before: Sequence[str],
        after: Sequence[str],
        new_stage: bool,
        now: float,
    ) -> Clocks:
        """The seats' clocks once an action leaves ``after`` owing a move (``before`` owed
        one): a seat done pays its bank and gains the increment, a seat newly owing starts
        its clock. A table started before clocks begins them at its turn's start."""
        settings = table.settings
        clocks = table.clocks
        if table.row.clocks is None:
            turn_start = now
            if table.row.deadline is not None and settings.turn_seconds is not None:
                turn_start = table.row.deadline - settings.turn_seconds
            clocks = timebank.started({}, before, turn_start, None)
        done = [seat for seat in before if new_stage or seat not in after]
        owing = [seat for seat in after if new_stage or seat not in before]
        clocks = timebank.stopped(clocks, done, now, settings.bank, settings.away_pauses)
        reserve = settings.bank[0] if settings.bank is not None else None
        return timebank.started(clocks, owing, now, reserve)

    # ------------------------------------------------------------------ moves

    async def _retrying(self, table_id: int, call: Callable[[], Awaitable[T]]) -> T:
        """``call``, tried again on the table as stored when another process (a cluster's
        other process; one holding shard 0 stores moves from DMs) stored an action of it
        between our read and our write. The database refuses the second of two writes of
        one ``seq``, so a turn resolves once whichever comes first."""
        for _ in range(CONFLICT_TRIES - 1):
            try:
                return await call()
            except StaleWrite:
                self._forget(table_id)
                log.info("table %d: another process acted first; reading it anew", table_id)
        return await call()

    async def submit(self, table_id: int, user_id: int, move: Any, turn: int) -> Update:
        """A player's move (the game's move object or an engine action) for stage ``turn``;
        stored before this returns. A move equal to the one already chosen stores nothing
        (a double click is one move). If another process stored an action first, the move
        is checked again on the table as it now is (the turn may be over)."""
        return await self.submit_all(table_id, user_id, [move], turn)

    async def submit_all(
        self, table_id: int, user_id: int, moves: Sequence[Any], turn: int
    ) -> Update:
        """A player's moves for stage ``turn``, played one after the other and stored
        together (Carcassonne's Confirm: the tile's placement, then what is deployed on
        it): all of them, or none when one is refused. Otherwise as :meth:`submit`."""
        return await self._retrying(table_id, lambda: self._submit(table_id, user_id, moves, turn))

    async def _submit(self, table_id: int, user_id: int, moves: Sequence[Any], turn: int) -> Update:
        async with self._locked(table_id):
            loaded = await self._running(table_id)
            seat = loaded.table.seat_of(user_id)
            if seat is None:
                raise ServiceError("error.not_seated")
            state = loaded.state
            host = loaded.table.host
            stage = host.stage(state)
            if turn != stage:
                raise ServiceError("error.stale_turn", turn=stage)
            actions = [host.action(seat.seat, move) for move in moves]
            if len(actions) == 1 and host.repeats(state, actions[0]):
                return Update(loaded.table, seat.seat, stored=False)
            return await self._commit_all(loaded, actions, user_id, SOURCE_PLAYER)

    async def _running(self, table_id: int) -> _Loaded:
        loaded = await self._load(table_id)
        status = loaded.table.status
        if status == LOBBY:
            raise ServiceError("error.not_started")
        if status != RUNNING:
            raise ServiceError("error.race_over")
        return loaded

    async def _commit(
        self,
        loaded: _Loaded,
        action: Action,
        by_user: int | None,
        source: str,
        *,
        seats: tuple[SeatRow, ...] | None = None,
        holders: tuple[SeatRow, ...] = (),
    ) -> Update:
        """Apply ``action`` and store it with what it changed, in one transaction (with
        ``seats``: the table's seats after it, ``holders`` their new holders)."""
        return await self._commit_all(loaded, [action], by_user, source, seats, holders)

    async def _commit_all(
        self,
        loaded: _Loaded,
        actions: Sequence[Action],
        by_user: int | None,
        source: str,
        seats: tuple[SeatRow, ...] | None = None,
        holders: tuple[SeatRow, ...] = (),
    ) -> Update:
        """Apply ``actions`` of one seat one after the other and store them with what each
        changed, in one transaction: all or none (one refused stores nothing)."""
        first = loaded.table
        assert loaded.state is not None and actions[0].seat is not None
        seat = actions[0].seat
        changed = first.host.has_chosen(loaded.state, seat)
        now = self.clock.now()
        table, state = first, loaded.state
        steps = []
        for action in actions:
            step = self._step(table, state, action, by_user, source, now, seats, holders)
            steps.append(step)
            table, state = step.table, step.after
            seats, holders = None, ()  # a change of hands comes with the first alone
        try:
            await self.storage.store_actions([step.stored_action for step in steps])
        finally:
            # Stored (or not): the game cached is the one before the actions, and a reader
            # without the lock (the announcer, a panel) must not see it while the row is
            # read again below; it reads the table as stored instead.
            self._forget(first.id)
        reports = []
        for step in steps:
            if step.report is not None:
                snapshot = step.stored_action.snapshot
                assert snapshot is not None
                self._keep_step(
                    first.id,
                    step.stored_action.seq,
                    (_snapshot_table(snapshot), step.report.view, step.report),
                )
                reports.append(step.report)
        last = steps[-1].stored_action
        if last.deadline != first.row.deadline:
            self.deadline_changed.set()
        standing = steps[-1].standing
        if standing is not None:
            log.info("table %d: finished, winners %s", first.id, ",".join(standing.winners))
        written = first.row.version + len(steps)
        stored_table = await self._table(first.id)
        loaded.table, loaded.state = stored_table, state
        self._remember(first.id, loaded, written=written)
        for step in steps:
            log.info(
                "table %d: seat %s acted (%s, seq %d)",
                first.id,
                seat,
                source,
                step.stored_action.seq,
            )
        return Update(
            stored_table,
            seat,
            stored=True,
            changed_move=changed,
            turns=tuple(reports),
            result=standing,
        )

    def _step(
        self,
        table: Table,
        before: Any,
        action: Action,
        by_user: int | None,
        source: str,
        now: float,
        seats: tuple[SeatRow, ...] | None,
        holders: tuple[SeatRow, ...],
    ) -> _Step:
        """``action`` applied to ``before`` (the state of ``table`` as stored), and what
        storing it writes; the table as that write leaves it (its position aside)."""
        assert action.seat is not None
        host = table.host
        try:
            recorded, transition = advance(host.ruleset, before, action)
        except EngineError as error:
            raise RuleError(error, host) from None
        after, events = transition.state, transition.events
        seq = table.row.seq + 1
        standing = host.standing(after)
        announcements = with_replay(host.announcements(before, after, events), standing)
        status = RUNNING if standing is None else FINISHED
        if seats is not None and table.row.clocks is not None:
            handed = dict(self._handed_over(table, seats))
            table = dataclasses.replace(table, row=dataclasses.replace(table.row, clocks=handed))
        owing = host.waiting_for(after) if standing is None else ()
        new_stage = host.stage(after) != host.stage(before)
        clocks = self._clocks_after(table, host.waiting_for(before), owing, new_stage, now)
        deadline = table.deadline_of(clocks, owing)
        turn, waiting = host.stage(after), ",".join(owing)
        snapshot = report = None
        if announcements:
            changes: dict[str, JSON] = {
                "status": status,
                "seq": seq,
                "turn": turn,
                "waiting": waiting,
                "deadline": deadline,
                "clocks": dict(clocks),
            }
            before_text = table.row.state  # the position of ``before``, as stored
            if before_text is None:  # left by an earlier action of this commit
                before_text = json_text(host.ruleset.to_position(before))
            position = (before_text, recorded)
            snapshot = _snapshot(table, seats or table.seats, changes, before=position)
            report = TurnReport(host.stage(before), seq, events, host.view(after, None))
        stored = StoredAction(
            table_id=table.id,
            action=recorded,
            by_user=by_user,
            source=source,
            at=now,
            state=host.ruleset.to_position(after),
            announcements=announcements,
            results=self._results(table, standing, now),
            seats=seats,
            holders=holders,
            snapshot=snapshot,
            status=status,
            seq=seq,
            turn=turn,
            waiting=waiting,
            deadline=deadline,
            clocks=dict(clocks),
        )
        after_table = Table(row_after(table.row, stored), seats or table.seats)
        return _Step(after_table, after, stored, report, standing)

    @staticmethod
    def _results(table: Table, standing: Standing | None, now: float) -> tuple[ResultRow, ...]:
        """The result rows of a finished game, stored with its last action."""
        if standing is None:
            return ()
        return tuple(
            ResultRow(
                table.id,
                seat,
                table.seat(seat).user_id,
                table.seat(seat).name,
                standing.places[seat],
                standing.turns,
                now,
                standing.teams.get(seat),
            )
            for seat in standing.ranking
        )

    async def play_ai_seats(self, table_id: int) -> list[Update]:
        """Play for every AI seat still owing a move (run after a turn starts or a seat is
        handed to the AI); each move is its own stored action. Moves stored before another
        process acted first are kept in the result."""
        updates: list[Update] = []
        await self._retrying(table_id, lambda: self._play_ai_seats(table_id, updates))
        return updates

    async def _play_ai_seats(self, table_id: int, updates: list[Update]) -> None:
        while True:
            async with self._locked(table_id):
                loaded = await self._load(table_id)
                if loaded.table.status != RUNNING or loaded.state is None:
                    return
                ai_seats = {seat.seat: seat for seat in loaded.table.seats if seat.is_ai}
                waiting = loaded.table.host.waiting_for(loaded.state)
                pending = [seat for seat in waiting if seat in ai_seats]
                if not pending:
                    return
                seat = pending[0]
                level = ai_seats[seat].ai_level or self._ai_level(loaded.table)
                updates.append(await self._play_ai(loaded, seat, level, SOURCE_AI))

    @staticmethod
    def _ai_level(table: Table) -> str:
        return table.settings.ai_level or table.host.ai_levels[-1]

    async def _play_ai(self, loaded: _Loaded, seat: str, level: str, source: str) -> Update:
        """Commit the AI's action for ``seat``; an AI that fails or proposes an illegal
        action is replaced by the game's fallback action, so a seat never stalls."""
        assert loaded.state is not None
        host = loaded.table.host
        seat_view = loaded.view(seat)
        rng = Rng(loaded.table.row.seed ^ 0x5EA7, loaded.table.row.seq)
        try:
            action = await self.in_worker(self._choose, host, level, seat_view, rng)
            return await self._commit(loaded, host.action(seat, action), None, source)
        except StaleWrite:
            raise  # another process moved the table on: the caller reloads it
        except Exception:
            log.exception(
                "table %d: the %s AI failed for seat %s; it plays the fallback",
                loaded.table.id,
                level,
                seat,
            )
        fallback = host.action(seat, host.fallback_action(seat_view))
        return await self._commit(loaded, fallback, None, source)

    # ------------------------------------------------------------------ time limits

    async def fire_due(self, now: float | None = None) -> list[Update]:
        """Play the move of every seat whose time ran out (the AI's move or the game's
        timeout policy, as the table chose); returns what happened. The dispatcher calls
        this when a deadline passes."""
        moment = self.clock.now() if now is None else now
        updates: list[Update] = []
        claimed = await self.storage.claim_due_tables(
            moment, self.holder, CLAIM_LEASE, shards=self.shards
        )
        self._empty_look = None if claimed else moment
        for table_id in claimed:
            try:
                time_out = functools.partial(self._time_out, table_id, moment, updates)
                await self._retrying(table_id, time_out)
            except Exception:
                log.exception("table %d: timing out the turn failed", table_id)
        await self.storage.release_claims(self.holder, claimed)
        return updates

    async def _time_out(self, table_id: int, now: float, updates: list[Update]) -> None:
        while True:
            async with self._locked(table_id):
                loaded = await self._load(table_id)
                state = loaded.state
                row = loaded.table.row
                if (
                    row.status != RUNNING
                    or state is None
                    or row.deadline is None
                    or row.deadline > now
                ):
                    return
                host = loaded.table.host
                stage = host.stage(state)
                expiries = {seat: loaded.table.expiry(seat) for seat in host.waiting_for(state)}
                due = [seat for seat, time in expiries.items() if time is not None and time <= now]
                seat = due[0] if due else host.waiting_for(state)[0]
                vote_due = loaded.table.vote_due(seat)
                runs_out = loaded.table.runs_out(seat)
                if (
                    vote_due is not None
                    and vote_due <= now
                    and (runs_out is None or runs_out > now)
                ):
                    updates.append(await self._vote_takes_effect(loaded, seat))
                    continue
                seat_row = loaded.table.seat(seat)
                log.info("table %d: seat %s timed out at stage %d", table_id, seat, stage)
                action = None
                if not seat_row.is_ai:
                    rng = Rng(row.seed ^ 0x7157, row.seq)
                    policy = loaded.table.settings.timeout_policy
                    action = host.timeout_action(policy, host.view(state, seat), rng)
                if action is None:
                    level = seat_row.ai_level or self._ai_level(loaded.table)
                    updates.append(await self._play_ai(loaded, seat, level, SOURCE_TIMEOUT))
                else:
                    action = host.action(seat, action)
                    updates.append(await self._commit(loaded, action, None, SOURCE_TIMEOUT))

    async def reminders_due(self, now: float | None = None) -> list[tuple[Table, int]]:
        """Tables whose turn has passed a reminder point not yet announced; marks them
        sent. Returns (table, reminder number 1 or 2)."""
        moment = self.clock.now() if now is None else now
        due: list[tuple[Table, int]] = []
        for table_id, deadline, sent, turn_seconds in await self.storage.reminder_candidates(
            moment, self.shards
        ):
            started = deadline - turn_seconds
            reached = sum(moment >= started + share * turn_seconds for share in REMINDER_SHARES)
            if reached > sent:
                async with self._locked(table_id):
                    marked = await self.storage.advance_reminders(table_id, reached, moment)
                    self._forget(table_id)
                    if marked:  # else another process sent it
                        due.append((await self._table(table_id), reached))
        return due

    async def member_notices_due(self, now: float | None = None) -> list[tuple[Table, int]]:
        """(table, member) of the notices owed to members now (held by their quiet hours,
        or their own reminders) whose move is still owed at that turn; each is taken off
        the list once, by one process. A notice of a turn gone by is dropped."""
        moment = self.clock.now() if now is None else now
        due: list[tuple[Table, int]] = []
        for table_id, user_id, turn in await self.notices.due(moment, self.shards):
            if not await self.notices.take(table_id, user_id, turn, moment):
                continue
            table = await self._table(table_id)
            owing = {seat.user_id for seat in table.waiting_humans()}
            if table.status == "running" and table.row.turn == turn and user_id in owing:
                due.append((table, user_id))
        return due

    async def wait_until_due(self, idle: float) -> None:
        """Sleep until the next deadline or reminder (at most ``idle`` seconds), or until a
        deadline changes. The change signal is cleared *before* the next time is read, so
        a deadline stored while it is being read still wakes the sleeper."""
        self.deadline_changed.clear()
        when = await self.next_wakeup()
        now = self.clock.now()
        looked = self._empty_look
        if when is not None and when <= now and looked is not None and when <= looked:
            when = now + CLAIMED_ELSEWHERE_WAIT  # due when last looked, claimed elsewhere
        await self.clock.sleep_until(
            when if when is not None else now + idle, self.deadline_changed
        )

    async def next_wakeup(self) -> float | None:
        """When the dispatcher must next look: a deadline, a reminder point or a notice
        owed to a member."""
        times = [
            await self.storage.next_deadline(self.shards),
            await self.storage.next_reminder(self.shards),
            await self.notices.next_due(self.shards),
        ]
        known = [time for time in times if time is not None]
        return min(known) if known else None

    # ------------------------------------------------------------------ seats mid-game

    async def leave_game(self, table_id: int, user_id: int) -> Update:
        """A player leaves: an AI seat takes over their place. The last human leaving
        abandons the game."""
        async with self._locked(table_id):
            loaded = await self._running(table_id)
            seat = loaded.table.seat_of(user_id)
            if seat is None:
                raise ServiceError("error.not_seated")
            if len(loaded.table.humans) == 1:
                return await self._abandon(loaded.table)
            level = self._ai_level(loaded.table)
            replaced = [
                dataclasses.replace(s, user_id=None, ai_level=level, name=f"{s.name} (AI)")
                if s.seat == seat.seat
                else s
                for s in loaded.table.seats
            ]
            await self.storage.replace_seats(table_id, replaced, self.clock.now())
            self._forget(table_id)
            return Update(await self._table(table_id), seat.seat)

    async def substitute(
        self,
        table_id: int,
        by_user: int,
        seat_name: str,
        user_id: int,
        name: str,
        *,
        admin: bool = False,
    ) -> Update:
        """Put a member in a seat of a running game (the seat policy, README "Playing"):

        - a seat played by the AI (its player left, or it was an AI seat), or whose player
          let their time run out on their latest move, is handed over by the table's host;
        - a seat whose player is still playing, only by that player (handing it over) or
          by a server admin;
        - a member who holds a seat, or has held one, of this game never takes another
          (a player who left may be seated again in their own seat);
        - the seat's unrevealed move is withdrawn, in the same transaction, so its new
          player never sees it.
        """
        async with self._locked(table_id):
            loaded = await self._running(table_id)
            table = loaded.table
            if seat_name not in {seat.seat for seat in table.seats}:
                raise ServiceError("error.no_such_seat", seat=seat_name)
            if table.seat_of(user_id) is not None:
                raise ServiceError("error.already_seated")
            held = (await self.storage.seat_holders(table_id)).get(user_id)
            if held is not None and held != seat_name:
                raise ServiceError("error.held_another_seat", seat=held)
            seat = table.seat(seat_name)
            await self._may_hand_over(table, seat, by_user, admin=admin)
            taken = dataclasses.replace(seat, user_id=user_id, ai_level=None, name=name)
            replaced = tuple(taken if s.seat == seat_name else s for s in table.seats)
            state = loaded.state
            assert state is not None
            withdraw = table.host.withdraw_action(state, seat_name)
            if withdraw is not None:
                log.info(
                    "table %d: seat %s changes hands; its move is withdrawn", table_id, seat_name
                )
                update = await self._commit(
                    loaded, withdraw, by_user, SOURCE_SUBSTITUTION, seats=replaced, holders=(taken,)
                )
                return dataclasses.replace(update, seat=seat_name)
            clocks = self._handed_over(table, replaced)
            deadline = table.deadline_of(clocks, table.waiting)
            await self.storage.replace_seats(
                table_id,
                replaced,
                self.clock.now(),
                holders=(taken,),
                clocks=dict(clocks),
                deadline=deadline,
            )
            self._forget(table_id)
            if deadline != table.row.deadline:
                self.deadline_changed.set()
            return Update(await self._table(table_id), seat_name)

    @staticmethod
    def _handed_over(table: Table, seats: Sequence[SeatRow]) -> Clocks:
        """The table's clocks once ``seats`` replace its own: a seat that changed hands
        drops its former player's absence."""
        changed = [seat.seat for seat in seats if table.seat(seat.seat).user_id != seat.user_id]
        clocks = timebank.with_away(table.clocks, changed, None)
        for seat in changed:
            clocks = timebank.with_vote(clocks, seat, None)
        return clocks

    async def _may_hand_over(
        self, table: Table, seat: SeatRow, by_user: int, *, admin: bool
    ) -> None:
        """Refuse (:class:`ServiceError`) ``by_user`` handing ``seat`` to someone else."""
        if admin or seat.user_id == by_user:
            return
        if by_user != table.row.host_id:
            raise ServiceError("error.host_only")
        if seat.is_ai or await self.storage.last_source(table.id, seat.seat) == SOURCE_TIMEOUT:
            return
        raise ServiceError("error.seat_in_play", seat=seat.seat)

    async def abandon(self, table_id: int, by_user: int, *, admin: bool = False) -> Update:
        async with self._locked(table_id):
            table = await self._table(table_id)
            if table.status in (FINISHED, ABANDONED):
                raise ServiceError("error.race_over")
            self._require_host(table, by_user, admin=admin)
            return await self._abandon(table)

    # ------------------------------------------------------------------ away, votes

    async def set_away(self, guild_id: int, user_id: int, until: float) -> list[int]:
        """The member is away from this server's games until ``until``: each seat of theirs
        is played by the AI as soon as its move is owed (or its bank pauses, where the table
        lets it). Refused while they play a tournament game whose organiser did not allow
        it. Returns the tables whose deadline changed (their AI may play now)."""
        now = self.clock.now()
        if until <= now:
            raise ServiceError("error.away_in_past")
        if until - now > timebank.MAX_AWAY_SECONDS:
            raise ServiceError(
                "error.away_too_long", days=timebank.MAX_AWAY_SECONDS // timebank.DAY
            )
        for table_id, _ in await self.storage.running_seats_of(guild_id, user_id):
            if (await self._table(table_id)).settings.away_refused:
                raise ServiceError("error.away_refused", table=table_id)
        current = (await self.storage.aways(guild_id, now)).get(user_id)
        away = Away(current.since if current is not None else now, until)
        await self.storage.set_away(guild_id, user_id, away)
        return await self._mark_away(guild_id, user_id, away)

    async def back(self, guild_id: int, user_id: int) -> list[int]:
        """The member is back: their seats' clocks run again (the time away stays paused
        where the table lets banks pause)."""
        now = self.clock.now()
        current = (await self.storage.aways(guild_id, now)).get(user_id)
        if current is None:
            raise ServiceError("error.not_away")
        away = Away(current.since, now)
        await self.storage.set_away(guild_id, user_id, away)
        return await self._mark_away(guild_id, user_id, away, back=True)

    async def away_until(self, guild_id: int, user_id: int) -> float | None:
        away = (await self.storage.aways(guild_id, self.clock.now())).get(user_id)
        return away.until if away is not None else None

    async def _mark_away(
        self, guild_id: int, user_id: int, away: Away, *, back: bool = False
    ) -> list[int]:
        """Record the absence in the clocks of the member's seats in the server's running
        games, and their deadlines anew. Once the member is ``back``, only a paused bank
        keeps the absence (its time away stays unspent); elsewhere it is forgotten, so a
        move owed now waits for them again."""
        changed = []
        for table_id, seat in await self.storage.running_seats_of(guild_id, user_id):
            async with self._locked(table_id):
                table = await self._table(table_id)
                if table.status != RUNNING or table.seat(seat).user_id != user_id:
                    continue
                if table.settings.away_refused:
                    continue
                kept = away if table.settings.away_pauses or not back else None
                clocks = timebank.with_away(table.clocks, [seat], kept)
                deadline = table.deadline_of(clocks, table.waiting)
                await self.storage.update_table(
                    table_id, self.clock.now(), clocks=dict(clocks), deadline=deadline
                )
                self._forget(table_id)
                if deadline != table.row.deadline:
                    changed.append(table_id)
        if changed:
            self.deadline_changed.set()
        return changed

    def may_vote_on(self, table: Table, seat: str) -> float | None:
        """Since when ``seat`` owes its move, if the other players may now vote to hand it
        to the AI: at a table without a time limit, once it has owed its move for
        :data:`~bot.timebank.VOTE_AFTER`; where banks pause while a member is away, once it
        has owed its move for :data:`~bot.timebank.AWAY_VOTE_AFTER` while its member was
        away. Elsewhere the seat's time runs out (every limit has a bound)."""
        if table.status != RUNNING or table.seat(seat).is_ai or seat not in table.waiting:
            return None
        clock = table.clock(seat)
        since = clock.get("since")
        if since is None:
            return None
        now, settings = self.clock.now(), table.settings
        if not settings.limited:
            return since if now - since >= timebank.VOTE_AFTER else None
        if settings.bank is not None and settings.away_pauses:
            return since if timebank.owed_away(clock, now) >= timebank.AWAY_VOTE_AFTER else None
        return None

    @staticmethod
    def no_vote_yet(table: Table) -> ServiceError:
        """The refusal of a vote nobody may open yet, in the table's own terms."""
        settings = table.settings
        if settings.limited and settings.bank is not None and settings.away_pauses:
            days = timebank.AWAY_VOTE_AFTER // timebank.DAY
            return ServiceError("error.no_vote_yet_away", days=days)
        return ServiceError("error.no_vote_yet")

    async def open_vote(self, table_id: int, opener_id: int) -> VoteOpening:
        """A seated player opens the vote on the seat that has owed its move longest among
        those the others may vote on (:meth:`may_vote_on`), not their own. It decides no
        earlier than the end of that seat's player's grace: :data:`~bot.timebank.
        VOTE_GRACE_HOURS` of their waking hours from now (their quiet hours not counted),
        at most :data:`~bot.timebank.MAX_VOTE_GRACE`. A vote already open on that move is
        found, not opened again (its grace stays)."""
        async with self._locked(table_id):
            table = (await self._running(table_id)).table
            if table.seat_of(opener_id) is None:
                raise ServiceError("error.not_seated")
            owing = [
                (since, seat)
                for seat in table.waiting_humans()
                if seat.user_id != opener_id
                and (since := self.may_vote_on(table, seat.seat)) is not None
            ]
            if not owing:
                raise self.no_vote_yet(table)
            since, absent = min(owing, key=lambda pair: pair[0])
            opens = table.vote_opens(absent.seat)
            if opens is not None:
                return VoteOpening(table, absent, since, opens, opened=False)
            assert absent.user_id is not None
            now = self.clock.now()
            choices = (await self.notices.member(absent.user_id)).choices
            opens = choices.waking_after(now, timebank.VOTE_GRACE_HOURS, timebank.MAX_VOTE_GRACE)
            clocks = timebank.with_vote(table.clocks, absent.seat, opens)
            await self.storage.update_table(table_id, now, clocks=dict(clocks))
            self._forget(table_id)
            log.info("table %d: a vote opened on seat %s", table_id, absent.seat)
            return VoteOpening(await self._table(table_id), absent, since, opens, opened=True)

    async def vote(self, table_id: int, voter_id: int, seat: str, turn: int, choice: str) -> Vote:
        """A seated player's vote on handing ``seat``, owing its move in ``turn`` (the stage
        the vote was opened in), to the AI: ``turn`` (this move), ``game`` (the rest
        of the game) or ``wait``. The majority of the other human players decides (a tie,
        nothing); a vote once the seat has moved is void, and so is one on a seat no vote
        was opened on (:meth:`open_vote`). A vote cast in the absent player's grace is
        counted, and what the votes then decide takes effect when the grace ends (the time
        limits' dispatcher sees to it), unless the seat moves first. When the vote hands
        the seat over, its move is played (this turn) or it becomes an AI seat."""
        if choice not in VOTE_CHOICES:
            raise ServiceError("error.vote_void")
        async with self._locked(table_id):
            loaded = await self._running(table_id)
            table = loaded.table
            voter = table.seat_of(voter_id)
            if voter is None:
                raise ServiceError("error.not_seated")
            if seat not in {s.seat for s in table.seats}:
                raise ServiceError("error.no_such_seat", seat=seat)
            absent = table.seat(seat)
            if absent.user_id == voter_id:
                raise ServiceError("error.vote_self")
            owing = self.may_vote_on(table, seat)
            opens = table.vote_opens(seat)
            if owing is None or opens is None or table.row.turn != turn:
                raise ServiceError("error.vote_void")
            votes = await self.storage.cast_vote(table_id, seat, owing, voter_id, choice)
            voters = {s.user_id for s in table.humans if s.user_id != absent.user_id}
            counted = tuple(votes[voter] for voter in sorted(votes) if voter in voters)
            decision = _decision(counted, len(voters))
            log.info("table %d: vote on seat %s: %s (%s)", table_id, seat, choice, decision)
            now = self.clock.now()
            if now < opens:
                due = opens if decision in ("turn", "game") else None
                if due != table.vote_due(seat):
                    clocks = timebank.with_vote(table.clocks, seat, opens, due=due)
                    deadline = table.deadline_of(clocks, table.waiting)
                    await self.storage.update_table(
                        table_id, now, clocks=dict(clocks), deadline=deadline
                    )
                    self._forget(table_id)
                    self.deadline_changed.set()
                return Vote(table, absent, counted, len(voters), None, None, opens, decision)
            update = await self._hand_over_by_vote(loaded, seat, decision)
            return Vote(table, absent, counted, len(voters), decision, update, opens)

    async def _hand_over_by_vote(
        self, loaded: _Loaded, seat: str, decision: str | None
    ) -> Update | None:
        """What a vote's ``decision`` does to ``seat``: the AI plays its move (``turn``) or
        takes the seat (``game``); otherwise nothing (None)."""
        table = loaded.table
        level = self._ai_level(table)
        if decision == "turn":
            return await self._play_ai(loaded, seat, level, SOURCE_TIMEOUT)
        if decision == "game":
            replaced = [
                dataclasses.replace(s, user_id=None, ai_level=level, name=f"{s.name} (AI)")
                if s.seat == seat
                else s
                for s in table.seats
            ]
            clocks = timebank.with_vote(table.clocks, seat, None)
            deadline = table.deadline_of(clocks, table.waiting)
            await self.storage.replace_seats(
                table.id, replaced, self.clock.now(), clocks=dict(clocks), deadline=deadline
            )
            self._forget(table.id)
            return Update(await self._table(table.id), seat)
        return None

    async def _vote_takes_effect(self, loaded: _Loaded, seat: str) -> Update:
        """The end of the absent player's grace, the seat still owing its move: what the
        votes cast in it decide now takes effect (a voter may have changed their mind)."""
        table = loaded.table
        absent = table.seat(seat)
        owing = table.clock(seat).get("since")
        opens = table.vote_opens(seat) or self.clock.now()
        votes = {} if owing is None else await self.storage.votes(table.id, seat, owing)
        voters = {s.user_id for s in table.humans if s.user_id != absent.user_id}
        counted = tuple(votes[voter] for voter in sorted(votes) if voter in voters)
        decision = _decision(counted, len(voters))
        log.info("table %d: the vote on seat %s takes effect (%s)", table.id, seat, decision)
        update = await self._hand_over_by_vote(loaded, seat, decision)
        if update is None:  # nothing handed over: the seat waits, the vote stays open
            clocks = timebank.with_vote(table.clocks, seat, opens)
            deadline = table.deadline_of(clocks, table.waiting)
            await self.storage.update_table(
                table.id, self.clock.now(), clocks=dict(clocks), deadline=deadline
            )
            self._forget(table.id)
            update = Update(await self._table(table.id))
        vote = Vote(table, absent, counted, len(voters), decision, update, opens)
        return dataclasses.replace(update, vote=vote)

    async def _abandon(self, table: Table) -> Update:
        await self.storage.update_table(table.id, self.clock.now(), status=ABANDONED, deadline=None)
        self._forget(table.id)
        log.info("table %d: abandoned", table.id)
        return Update(await self._table(table.id))

    # ------------------------------------------------------------------ ratings

    async def recompute_ratings(self, guild_id: int | None, game: str) -> int:
        """Rebuild a server's ratings of ``game`` from the stored results (a server admin's
        repair): they come out identical to the ones updated game by game. Returns how many
        games were rated."""
        host_for(game)
        rated: list[int] = []
        await self.storage.write_with(
            lambda connection: rated.append(recompute(connection, guild_key(guild_id), game))
        )
        return rated[0]

    # ------------------------------------------------------------------ reading

    async def table(self, table_id: int) -> Table:
        return (await self._load(table_id)).table

    async def view_for(self, table_id: int, user_id: int | None) -> tuple[Table, Any]:
        """The game as this user may see it: their own seat's view, or a spectator's."""
        loaded = await self._load(table_id)
        if loaded.state is None:
            raise ServiceError("error.not_started")
        seat = loaded.table.seat_of(user_id) if user_id is not None else None
        view = loaded.view(seat.seat if seat else None)
        return loaded.table, view

    async def game(self, table_id: int) -> Game[Any]:
        """The table's engine game as stored: its state and its whole record (a replay of
        the record gives the state)."""
        loaded = await self._load(table_id)
        if loaded.state is None:
            raise ServiceError("error.not_started")
        return Game(loaded.table.host.ruleset, loaded.state, await self._record(loaded.table))

    async def turn_reports(self, table_id: int) -> list[TurnReport]:
        """Every resolved step so far (a step's whole story, asked for by a player),
        rebuilt from the record off the event loop."""
        loaded = await self._load(table_id)
        if loaded.state is None:
            return []
        record = await self._record(loaded.table)
        start = _Reports(0, replay(record, upto=0), ())
        played = await self.in_worker(start.played_on, loaded.table.host, record.actions, None)
        return list(played.reports)

    async def recent_reports(self, table_id: int) -> list[TurnReport]:
        """The latest resolved steps (at most :data:`RECENT_REPORTS`: the game's log, the
        turns since a table's last post). Played on from where the last read of the table
        ended (a record only grows), from the set-up, off the event loop, the first time."""
        loaded = await self._load(table_id)
        if loaded.state is None:
            return []
        table = loaded.table
        seq = table.row.seq
        kept = self._reports.get(table_id)
        if kept is None or kept.seq < seq:
            if kept is None:
                record = await self._record(table)
                start, actions = _Reports(0, replay(record, upto=0), ()), record.actions
                kept = await self.in_worker(start.played_on, table.host, actions)
            else:
                actions = await self.storage.actions(table_id, after=kept.seq)
                kept = kept.played_on(table.host, actions)
            self._reports[table_id] = kept
            while len(self._reports) > CACHE_SIZE:
                self._reports.popitem(last=False)
        self._reports.move_to_end(table_id)
        return [report for report in kept.reports if report.seq <= seq]

    async def report(self, table_id: int, seq: int) -> TurnReport:
        """The step resolved by action ``seq``, rebuilt from the record."""
        report = await self.find_report(table_id, lambda report: report.seq == seq)
        if report is None:
            raise ServiceError("error.no_such_turn")
        return report

    async def find_report(
        self, table_id: int, wanted: Callable[[TurnReport], bool]
    ) -> TurnReport | None:
        """The first resolved step ``wanted`` takes: among the latest steps, else in the
        whole log rebuilt from the record."""
        for reports in (self.recent_reports, self.turn_reports):
            for report in await reports(table_id):
                if wanted(report):
                    return report
        return None

    async def announcements(self, table_id: int | None = None) -> list[Announcement]:
        """What is still to be posted, oldest first, each rendered from the snapshot stored
        with it (the announcements of one step share theirs); one stored before snapshots
        were is rendered from the table as it is now."""
        out: list[Announcement] = []
        for row in await self.storage.pending_announcements(table_id):
            if row.snapshot is not None:
                key = (row.table_id, row.seq)
                if key not in self._steps:
                    self._keep_step(row.table_id, row.seq, _from_snapshot(row.seq, row.snapshot))
                table, view, report = self._steps[key]
                shown = report if row.kind != BOARD else None
                out.append(Announcement(row, table, shown.view if shown else view, shown))
                continue
            loaded = await self._load(row.table_id)
            if loaded.table.row.seq < row.seq or loaded.state is None:
                # Cached before the action (or the start) that made this post was committed,
                # its writer not back yet: the post is drawn from the table as stored.
                self._forget(row.table_id)
                loaded = await self._load(row.table_id)
            if loaded.state is None:
                continue
            report = await self.report(row.table_id, row.seq) if row.kind != BOARD else None
            current = loaded.view(None)
            view = report.view if report else current
            out.append(Announcement(row, loaded.table, view, report))
        return out

    async def announced(self, announcement: Announcement, message_id: int | None) -> None:
        """Mark an announcement posted (``message_id``: where, if anywhere). A posted board
        becomes the table's current board in the same transaction."""
        row = announcement.row
        board = row.table_id if row.kind == "board" and message_id is not None else None
        await self.storage.announcement_sent(
            row.id, message_id, self.clock.now(), board_of_table=board
        )
        self._steps.pop((row.table_id, row.seq), None)  # posted: its step is let go
        if board is not None:
            await self._reread_row(row.table_id)

    async def set_channel_message(self, table_id: int, **fields: int | None) -> None:
        """Remember where the table lives in the front end (thread, lobby, board messages)."""
        await self.storage.update_table(table_id, self.clock.now(), **fields)
        await self._reread_row(table_id)

    async def tables_to_resume(self) -> list[int]:
        """Running tables with AI seats still to play or announcements still to post."""
        ids = set(await self.storage.tables_with_ai_to_play(self.shards))
        ids.update(await self.tables_with_pending())
        return sorted(ids)

    async def tables_with_pending(self) -> list[int]:
        """Tables with announcements still to post, claimed for this process (in a
        cluster, another process holding the same shards leaves them alone meanwhile)."""
        return await self.storage.claim_tables_with_pending(
            self.clock.now(), self.holder, CLAIM_LEASE, shards=self.shards
        )

    async def get_draft(self, table_id: int, user_id: int, turn: int) -> dict[str, JSON] | None:
        return await self.storage.draft(table_id, user_id, turn)

    async def save_draft(
        self, table_id: int, user_id: int, turn: int, draft: dict[str, JSON]
    ) -> None:
        await self.storage.save_draft(table_id, user_id, turn, draft)

    async def open_tables(self, asker: Asker, limit: int = 25) -> list[Table]:
        """The asker's server's tables in a lobby or running that the asker may look at
        (:func:`bot.access.may_look`: those of the channels they view), newest first, at
        most ``limit``."""
        if asker.guild_id is None:
            return []
        seen = [
            table_id
            for table_id, channel_id in await self.storage.active_table_channels(asker.guild_id)
            if may_look(Place(asker.guild_id, channel_id), asker)
        ]
        return [await self._table(table_id) for table_id in seen[:limit]]

    async def seated_tables(self, user_id: int) -> list[Table]:
        """The tables in a lobby or running where the member holds a seat now, those that
        owe the member's move first, then the newest first."""
        tables = [await self._table(table_id) for table_id in await self.storage.seated(user_id)]
        owing = [table.status == "running" and seat_owes(table, user_id) for table in tables]
        order = sorted(range(len(tables)), key=lambda i: (not owing[i], -tables[i].id))
        return [tables[i] for i in order]

    async def find_table(
        self, *, channel_id: int | None, user_id: int, guild_id: int | None
    ) -> Table:
        """The table a command in this channel by this user means: the channel's (or
        thread's) table the user sits at, else their latest active table in the server."""
        if channel_id is not None:
            row = await self.storage.table_by_thread(channel_id)
            if row is not None:
                return await self._table(row.id)
            here = await self.storage.active_tables_in_channel(channel_id)
            for candidate in here:
                table = await self._table(candidate.id)
                if table.seat_of(user_id) is not None:
                    return table
            if len(here) == 1:
                return await self._table(here[0].id)
        mine = await self.storage.active_tables_of_user(user_id, guild_id)
        if mine:
            return await self._table(mine[0].id)
        raise ServiceError("error.no_race_here")


__all__ = [
    "TURN_LIMITS",
    "Announcement",
    "ChooseAction",
    "RuleError",
    "ServiceError",
    "Table",
    "TableService",
    "TableSettings",
    "TurnReport",
    "Update",
    "Vote",
    "VoteOpening",
    "game_record",
    "seat_owes",
]
