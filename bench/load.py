"""The bot under load through the fake Discord, against a floor: a bare discord.py bot that
only acknowledges each interaction.

    python bench/load.py [--game charioteer|cartographers|carcassonne]
                         [--races 20] [--seats 4] [--ai-seats 0] [--turns 2] [--rate 20]
                         [--seed 1] [--schema-checks] [--skip-floor] [--profile-bot FILE]
                         [--database-url postgresql://…] [--processes 1]

Prints JSON. A measurement, never a test.

**Product run.** The fake Discord (``tests/fakediscord``) starts in this process with one
guild, ``--channels`` text channels and one member per human seat. The bot runs as a
subprocess, exactly ``python -m bot`` (through ``bench/counted_bot.py``, which only adds a
way to read its commit counter), on a fresh SQLite file. Simulated players then
play: each race's host runs ``/race new``, the others click **Join**, the host adds the AI
seats and clicks **Start**; then, for ``--turns`` turns, every player clicks **Choose move**
on the race's board, picks a symbol and cards in the private panel's selects (the crowd
card or a reset move when needed, as ``tests/e2e/players.py`` does) and clicks
**Confirm**. A player has one interaction in flight at a time and its next one becomes
ready when the bot has answered (or, for **Choose move**, when the board of the turn is
posted). An interaction the bot does not answer within Discord's 3 seconds fails for its
user (``failed_no_answer_in_3s``); the player goes on as if a join, Start or Confirm had
worked (the bot acts before it answers) and tries a panel step again. A race that stops
getting boards ends the run after ``--stall`` seconds without progress
(``outcome: stalled``; ``races_completed`` says how many got their last board).

**Games.** ``--game`` (Charioteer by default, as described above) plays the same way with
the game's lobby command and panel, every seat a member clicking. Cartographers: every
seat, every turn, clicks **Draw** on the turn's post, picks a terrain, a shape, a row and
a column at random in the private panel, clicks **Suggest** when that drawing does not
fit (then the card's other shapes, one by one, when the shape fits nowhere) and
**Confirm**. Carcassonne: the seat each turn's post names clicks **Play**, picks a spot at
random, **Place**, where to deploy (a feature or nothing) at random, **Confirm**;
``--turns`` is then each seat's turns. Their panels are drawn (the bot defers, then edits
its answer in): a player goes on once the content is in, and ``interaction_to_panel``
(``panel_by_kind``) times each of those steps from the interaction to its content, the
picture in place (``panel_not_filled_in`` counts those whose content never came within
``ANSWER_TIMEOUT``); ``interaction_to_response`` stays the time to the initial response.

**Open loop.** A scheduler dispatches one interaction every ``1 / --rate`` seconds, taking
the player that has been ready longest; if no player is ready the slot is lost (counted as
``idle_slots``), so the offered rate never adapts to the bot's answers.

**Timing.** An interaction's time is from its creation in the fake (``created_at``, just
before it is dispatched on the Gateway) to the arrival of the bot's initial response
(``POST /interactions/{id}/{token}/callback``; the fake stamps every request's arrival as
``RequestRecord.at``). Interactions per second is answered interactions over the window
from the first dispatch until the bot has posted every race's last board. CPU of both
processes over the window shows who was busy: the bot, or this process (the fake and the
players; if it nears one core the figures are the fake's limit, not the bot's).

This process's garbage collector is off during each window: its full collections over the
fake's growing store of messages paused dispatching (and the reading of answers) for up to
a second, for the product and the floor alike (``bench_gc_pauses`` shows what is left).

**Commits.** Exact SQLite commits of the bot (``Storage.commits``) before and after the
window, and the rows the window added to the bot's database (actions, posted
announcements, races). **Memory:** the bot process's peak resident set (``VmHWM``).
**Picture workers:** the CPU the bot processes' children (the processes drawing pictures)
used over the window, apart (``picture_workers_cpu_seconds``) and added to the bot's
(``bot_and_workers_cpu_ms_per_interaction``). **Waiting for a CPU:** how long the bot's
event loops and the picture workers were ready to run but got no CPU over the window
(``/proc/…/schedstat``): on a machine busy with other work, the time a click or a picture
waited for the machine, not for the bot.
**Loop holds:** the bot runs with ``LOOP_WATCH_MS`` (``--loop-watch-ms``, 20 by default);
``bot_loop_holds`` lists, per process, the callbacks that held its event loop that long or
longer during the window, by what they were, and its garbage collections by generation
(:mod:`bot.loopwatch`).

**Floor run.** A fresh fake and ``bench/floor_bot.py`` with the product's own command
definitions (``FLOOR_COMMANDS``). Every player replays, in order and at the same rate, the
same kinds of interactions it made in the product run (``/race new`` with the same
options, clicks and selects on the same controls) on copies of the product's lobby, board
and panel messages; the floor answers each with the cheapest acknowledgement. ``ratio``
divides the product's figures by the floor's.

By default the fake skips its OpenAPI schema check of each request body (the bot's bodies
are checked by the end-to-end tests; at 20 interactions/s that check costs this process
about 0.3 of a core, more than the bot itself uses); ``--schema-checks`` turns it on.
``--profile-bot FILE`` runs the bot under ``cProfile`` for the product window.

**PostgreSQL.** ``--database-url`` (a server, e.g. ``postgresql://postgres@127.0.0.1:5432/test``)
runs the product on a fresh schema of that server (``DATABASE_URL`` with ``search_path``),
made before the run and dropped after; ``postgres_commits`` (in place of ``sqlite_commits``)
counts committed transactions, and ``database_cpu_seconds`` the CPU of the server's
processes serving the bot's connections over the window (the server on this machine).

**Cluster.** ``--processes N`` runs the product as N processes, process i with
``CLUSTER_INDEX=i CLUSTER_SIZE=N SHARD_COUNT=N``, all on the same database (use
PostgreSQL). The fake then has N guilds, one on each shard, and the races are spread over
their channels, so every process gets its share of the players. Commits, CPU and peak
memory are summed over the processes (``bot_peak_rss_mib_by_process`` lists each). The
floor stays one process: the bare cost of the same interactions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import gc
import json
import os
import re
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.postgres import backends_of, scalar
from bench.stats import cpu_seconds, peak_rss_mib, summary_ms
from bot.storage import is_postgres_url
from engine.core import Rng
from tests.databases import fresh_schema
from tests.e2e import mapmakers, tilelayers
from tests.e2e.players import BOARD, custom_id, select_options
from tests.fakediscord import spec
from tests.fakediscord.errors import RequestRecord
from tests.fakediscord.harness import REPO_ROOT, BotProcess, run_bot
from tests.fakediscord.interactions import ClientRefused, Interaction
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

PRODUCT = str(REPO_ROOT / "bench" / "counted_bot.py")
FLOOR = str(REPO_ROOT / "bench" / "floor_bot.py")
ANSWER_TIMEOUT = 30.0
MAX_RETRIES = 3
SETUP_KINDS = ("new", "join", "addai", "start")


class InteractionFailedToAnswer(Exception):
    """The fake's answer deadline passed without an initial response."""


# ---------------------------------------------------------------------- the fake's side


class RequestTail(list[RequestRecord]):
    """The fake's request log, kept short (the bench reads arrivals, not history); notes
    when each interaction callback arrived and counts the bot's REST calls by route."""

    KEEP = 200

    def __init__(self, tracker: Tracker) -> None:
        super().__init__()
        self.tracker = tracker

    def append(self, record: RequestRecord) -> None:
        path = record.path
        if path.startswith("/interactions/") and path.endswith("/callback"):
            parts = path.split("/")
            if parts[2].isdigit():
                self.tracker.arrivals[int(parts[2])] = record.at
        self.tracker.routes[f"{record.method} {record.route or path}"] += 1
        super().append(record)
        if len(self) > 2 * self.KEEP:
            del self[: -self.KEEP]


class Tracker:
    """Hooks on one fake: interaction answers (as futures) and new board messages."""

    def __init__(self, fake: FakeDiscord, game: Game) -> None:
        self.fake = fake
        self.arrivals: dict[int, float] = {}
        self.contents: dict[int, float] = {}
        """When each interaction's answer got its content (a drawn panel's, after its
        deferral), by interaction id."""
        self.routes: Counter[str] = Counter()
        self._waiting: dict[int, asyncio.Future[int]] = {}
        self._answered: dict[int, int] = {}
        self._failed: set[int] = set()
        self.on_board: Callable[[int, int, Message], None] = lambda race, turn, message: None
        fake.requests = RequestTail(self)
        interactions = fake.interactions
        original_callback = interactions.callback
        original_deadline = interactions._deadline
        original_new_message = fake.new_message
        original_complete = interactions.complete_deferred
        original_edit = interactions.edit

        def callback(
            interaction_id: int,
            token: str,
            body: dict[str, Any],
            uploads: list[Any],
            with_response: bool,
        ) -> dict[str, Any] | None:
            answer = original_callback(interaction_id, token, body, uploads, with_response)
            self._settle(interaction_id, int(body["type"]))
            return answer

        def deadline(interaction: Interaction) -> None:
            original_deadline(interaction)
            if interaction.failed:
                self._fail(interaction.id)

        def new_message(*args: Any, **kwargs: Any) -> Message:
            message = original_new_message(*args, **kwargs)
            posted = game.posted(message)
            if posted is not None:
                self.on_board(*posted, message)
            return message

        def complete_deferred(interaction: Interaction, body: Any, uploads: Any) -> None:
            original_complete(interaction, body, uploads)
            self._content(interaction)

        def edit(interaction: Interaction, message: Message, body: Any, uploads: Any) -> Message:
            edited = original_edit(interaction, message, body, uploads)
            if interaction.original_ready:
                self._content(interaction)
            return edited

        interactions.callback = callback  # type: ignore[method-assign]
        interactions._deadline = deadline  # type: ignore[method-assign]
        interactions.complete_deferred = complete_deferred  # type: ignore[method-assign]
        interactions.edit = edit  # type: ignore[method-assign]
        fake.new_message = new_message  # type: ignore[method-assign]

    def _content(self, interaction: Interaction) -> None:
        self.contents.setdefault(interaction.id, self.fake.clock.now())
        self.fake.notify()

    def _settle(self, interaction_id: int, kind: int) -> None:
        future = self._waiting.pop(interaction_id, None)
        if future is None:
            self._answered[interaction_id] = kind
        elif not future.done():
            future.set_result(kind)

    def _fail(self, interaction_id: int) -> None:
        future = self._waiting.pop(interaction_id, None)
        if future is None:
            self._failed.add(interaction_id)
        elif not future.done():
            future.set_exception(InteractionFailedToAnswer())

    async def answer(self, interaction: Interaction) -> int:
        """The type of the bot's initial response; raises if it never came."""
        ident = interaction.id
        if ident in self._answered:
            return self._answered.pop(ident)
        if ident in self._failed:
            raise InteractionFailedToAnswer()
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        try:
            return await asyncio.wait_for(future, ANSWER_TIMEOUT)
        finally:
            self._waiting.pop(ident, None)

    def latency(self, interaction: Interaction) -> float:
        return self.arrivals.pop(interaction.id) - interaction.created_at


def skip_schema_checks() -> None:
    """The fake's OpenAPI check of request bodies, switched off for this process."""
    spec.validate_body = lambda operation, body: None


# ---------------------------------------------------------------------- games


@dataclass(frozen=True)
class Game:
    """What the bench needs to know of a game: its lobby command, how its turn posts read
    and the button on them that opens a seat's panel, and who plays each post (every seat,
    or only the seat it names)."""

    name: str
    command: str
    post: re.Pattern[str]
    opens: str
    every_seat_plays: bool = True

    def posted(self, message: Message) -> tuple[int, int] | None:
        """The table and turn of a public turn post, else None."""
        match = self.post.match(message.content)
        if match is None or message.ephemeral_to is not None:
            return None
        if not has_control(message, self.opens):
            return None
        return int(custom_id(message, self.opens).split(":")[1]), int(match.group(2))

    def options(self, args: argparse.Namespace) -> dict[str, Any]:
        """The lobby command's options besides the seats."""
        if self.name == "charioteer":
            return {"laps": args.laps, "turn_limit": args.turn_limit}
        return {"turn_limit": args.turn_limit}

    def last_turn(self, race: Race, turns: int) -> int:
        """The last turn a run plays: ``turns`` each seat's."""
        seats = len(race.humans) + race.ai
        return turns if self.every_seat_plays else turns * seats


GAMES = {
    "charioteer": Game("charioteer", "race new", BOARD, "choose"),
    "cartographers": Game("cartographers", "cartographers new", mapmakers.POST, "draw"),
    "carcassonne": Game(
        "carcassonne", "carcassonne new", tilelayers.POST, "play", every_seat_plays=False
    ),
}


# ---------------------------------------------------------------------- players


@dataclass
class Step:
    """One interaction a player made: what kind, on which control, with which values."""

    kind: str
    verb: str
    values: tuple[str, ...] = ()


@dataclass
class Race:
    number: int
    channel: Channel
    humans: list[Player] = field(default_factory=list)
    ai: int = 0
    race_id: int | None = None
    lobby: Message | None = None
    seated: int = 0
    boards: dict[int, Message] = field(default_factory=dict)
    done_at: float | None = None
    stalled: bool = False


@dataclass
class Player:
    user: User
    race: Race
    rng: Rng
    step: str = "wait"
    turn: int = 0
    confirmed: int = 0
    panel: Message | None = None
    retries: int = 0
    tries: int = 0
    script: list[Step] = field(default_factory=list)
    first_dispatch: float = float("inf")


@dataclass
class Record:
    kind: str
    seconds: float


@dataclass
class RunLog:
    records: list[Record] = field(default_factory=list)
    contents: list[Record] = field(default_factory=list)
    unfilled: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    error_texts: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    dispatch_lag: list[float] = field(default_factory=list)
    idle_slots: int = 0
    dispatched: int = 0
    first_dispatch: float | None = None
    last_answer: float = 0.0
    last_progress: float = 0.0


class Scheduler:
    """Open loop: one dispatch every 1/rate s to the longest-ready player, if any."""

    def __init__(self, rate: float, log: RunLog) -> None:
        self.rate = rate
        self.log = log
        self.ready: deque[Player] = deque()
        self.tasks: set[asyncio.Task[None]] = set()
        self.stop = asyncio.Event()

    def make_ready(self, player: Player) -> None:
        self.ready.append(player)

    async def run(self, act: Callable[[Player], Any]) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        slot = 0
        while not self.stop.is_set():
            due = start + slot / self.rate
            slot += 1
            delay = due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.stop.is_set():
                break
            if not self.ready:
                self.log.idle_slots += 1
                continue
            self.log.dispatch_lag.append(max(0.0, loop.time() - due))
            player = self.ready.popleft()
            task = asyncio.create_task(act(player))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)


class Bench:
    """Shared parts of a run: the fake, its tracker, the scheduler and the log."""

    def __init__(self, fake: FakeDiscord, rate: float, game: Game) -> None:
        self.fake = fake
        self.game = game
        self.tracker = Tracker(fake, game)
        self.log = RunLog()
        self.scheduler = Scheduler(rate, self.log)

    async def interact(self, player: Player, step: Step, make: Any) -> tuple[Interaction, int]:
        """Dispatch one interaction, wait for its answer and log its time."""
        interaction: Interaction = await make
        if self.log.first_dispatch is None:
            self.log.first_dispatch = interaction.created_at
        player.first_dispatch = min(player.first_dispatch, interaction.created_at)
        player.script.append(step)
        self.log.dispatched += 1
        try:
            kind = await self.tracker.answer(interaction)
        except (InteractionFailedToAnswer, TimeoutError):
            self.log.failed[step.kind] += 1
            raise
        seconds = self.tracker.latency(interaction)
        self.log.records.append(Record(step.kind, seconds))
        self.log.last_answer = max(self.log.last_answer, interaction.created_at + seconds)
        self.log.last_progress = time.time()
        return interaction, kind

    async def content(self, step: str, interaction: Interaction) -> Message:
        """The message a drawn panel's answer filled in after its deferral; logs the time
        from the interaction to that content."""
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_for(
                lambda: interaction.original_ready or interaction.failed,
                ANSWER_TIMEOUT,
                f"the content of {interaction!r}",
            )
        if interaction.original is None or not interaction.original_ready:
            self.log.unfilled[step] += 1
            raise InteractionFailedToAnswer()
        arrived = self.tracker.contents.pop(interaction.id, None)
        if arrived is not None:
            self.log.contents.append(Record(step, arrived - interaction.created_at))
        self.log.last_progress = time.time()
        return interaction.original


class ProductPlayers:
    """The product run's players: lobby, join, start, then turns through the panel (each
    game's panel steps are :meth:`play` of its subclass)."""

    def __init__(self, bench: Bench, races: list[Race], turns: int, options: dict[str, Any]):
        self.bench = bench
        self.game = bench.game
        self.races = races
        self.turns = turns
        self.options = options
        self.by_race_id: dict[int, Race] = {}
        self.all_done = asyncio.Event()
        self.snapshots: dict[str, dict[str, Any]] = {}
        bench.tracker.on_board = self.board_posted

    def start(self) -> None:
        for race in self.races:
            host = race.humans[0]
            host.step = "new"
            self.bench.scheduler.make_ready(host)

    def board_posted(self, race_id: int, turn: int, message: Message) -> None:
        race = self.by_race_id.get(race_id)
        if race is None or turn in race.boards:
            return
        self.bench.log.last_progress = time.time()
        race.boards[turn] = message
        self.snapshots.setdefault("board", snapshot(message))
        if turn > self.game.last_turn(race, self.turns):
            race.done_at = time.time()
            self.check_done()
            return
        for player in race.humans:
            if player.step == "wait":
                self.next_turn(player)

    def check_done(self) -> None:
        if all(race.done_at is not None or race.stalled for race in self.races):
            self.all_done.set()

    def next_turn(self, player: Player) -> None:
        """Open the panel on the next board this player plays, or wait."""
        wanted = self.turn_due(player)
        if wanted is None:
            player.step = "done"
        elif wanted in player.race.boards:
            player.turn = wanted
            player.step = self.game.opens
            player.retries = 0
            self.bench.scheduler.make_ready(player)
        else:
            player.step = "wait"

    def turn_due(self, player: Player) -> int | None:
        """The next turn this player plays (perhaps not posted yet); None when done. Every
        seat plays every turn, or (Carcassonne) the seat a post names plays it."""
        race = player.race
        last = self.game.last_turn(race, self.turns)
        if self.game.every_seat_plays:
            wanted = player.confirmed + 1
            return wanted if wanted <= last else None
        if race.done_at is not None:
            return None
        named = [
            turn
            for turn, board in race.boards.items()
            if player.confirmed < turn <= last and player.user.mention in board.content
        ]
        return min(named, default=-1)

    async def act(self, player: Player) -> None:
        step = player.step
        try:
            await self.perform(player)
        except ClientRefused:
            self.bench.log.refused[step] += 1
            self.retry(player, step)
        except (InteractionFailedToAnswer, TimeoutError):
            self.unanswered(player, step)
        except (UnexpectedAnswer, AssertionError, LookupError) as error:
            self.bench.log.errors[step] += 1
            self.bench.log.error_texts[str(error)[:60]] += 1
            if step in ("start", "join", "addai"):
                self.unanswered(player, step)  # done by the earlier, unanswered attempt
            else:
                self.retry(player, step)

    def unanswered(self, player: Player, step: str) -> None:
        """Carry on after an interaction the bot did not answer in time. The bot acts
        before it answers, so a join, an AI seat, a start or a confirm most likely took
        effect: the player goes on as if answered (a move that was in fact lost leaves the
        race stalled, and the run reports it). A panel step is tried again."""
        race = player.race
        if step == "new":
            race.stalled = True
            player.step = "done"
            self.check_done()
        elif step in ("join", "addai"):
            race.seated += 1
            if step == "join":
                player.step = "wait"
            self.lobby_filled(race)
        elif step == "start":
            player.step = "wait"
            self.next_turn(player)
        elif step == "confirm":
            player.confirmed = player.turn
            self.next_turn(player)
        else:
            self.retry(player, step)

    def retry(self, player: Player, step: str) -> None:
        """Try a failed step again (a turn from its panel), at most ``MAX_RETRIES`` times;
        a turn that resolved meanwhile counts as played."""
        player.retries += 1
        if player.retries > MAX_RETRIES:
            player.step = "done"
            player.race.stalled = True
            self.check_done()
            return
        if step in SETUP_KINDS:
            player.step = step
            self.bench.scheduler.make_ready(player)
        elif player.turn + 1 in player.race.boards:
            player.confirmed = player.turn
            self.next_turn(player)
        else:
            player.step = self.game.opens
            self.bench.scheduler.make_ready(player)

    async def perform(self, player: Player) -> None:
        bench, race, user, step = self.bench, player.race, player.user, player.step
        ready = bench.scheduler.make_ready
        if step == "new":
            options = dict(self.options, seats=len(race.humans) + race.ai)
            interaction, _ = await bench.interact(
                player,
                Step("new", "new", tuple(f"{k}={v}" for k, v in options.items())),
                user.slash(race.channel, self.game.command, **options),
            )
            lobby = answered_message(interaction, "join")
            self.snapshots.setdefault("lobby", snapshot(lobby))
            race.lobby = lobby
            race.race_id = int(custom_id(lobby, "join").split(":")[1])
            self.by_race_id[race.race_id] = race
            for joiner in race.humans[1:]:
                joiner.step = "join"
                ready(joiner)
            self.lobby_filled(race)
        elif step == "join":
            assert race.lobby is not None
            await self.click(player, "join", race.lobby)
            race.seated += 1
            player.step = "wait"
            self.lobby_filled(race)
        elif step == "addai":
            assert race.lobby is not None
            levels = [o["value"] for o in select_options(race.lobby, "addai")]
            level = "greedy" if "greedy" in levels else levels[0]
            await self.select(player, "addai", race.lobby, (level,))
            race.seated += 1
            self.lobby_filled(race)
        elif step == "start":
            assert race.lobby is not None
            await self.click(player, "start", race.lobby)
            player.step = "wait"
            self.next_turn(player)
        else:
            await self.play(player)

    async def play(self, player: Player) -> None:
        """One step of a turn, from opening the panel to confirming."""
        raise NotImplementedError

    def remember(self, panel: Message) -> None:
        """A copy of each kind of panel (by its controls), for the floor to click on."""
        verbs = sorted({c.split(":")[2] for c in panel.custom_ids() if c.count(":") == 3})
        self.snapshots.setdefault("panel:" + ",".join(verbs), snapshot(panel))

    async def drawn(self, player: Player, interaction: Interaction, verb: str) -> Message:
        """The panel a drawn answer filled in, which must have a ``verb`` control."""
        panel = await self.bench.content(player.step, interaction)
        if not has_control(panel, verb):
            raise UnexpectedAnswer(panel.content)
        player.panel = panel
        self.remember(panel)
        return panel

    def lobby_filled(self, race: Race) -> None:
        """After every seat: the host adds the next AI seat, or starts when all are in."""
        host = race.humans[0]
        humans_in = race.seated >= len(race.humans) - 1
        if not humans_in or host.step not in ("new", "wait", "addai"):
            return
        ai_added = race.seated - (len(race.humans) - 1)
        host.step = "addai" if ai_added < race.ai else "start"
        self.bench.scheduler.make_ready(host)

    @staticmethod
    def panel_of(player: Player) -> Message:
        if player.panel is None:
            raise UnexpectedAnswer("no panel open")
        return player.panel

    async def click(self, player: Player, verb: str, message: Message) -> Interaction:
        interaction, kind = await self.bench.interact(
            player, Step(verb, verb), player.user.click(message, custom_id(message, verb))
        )
        if kind == 4 and verb != self.game.opens:
            raise UnexpectedAnswer(interaction.original.content if interaction.original else "")
        return interaction

    async def confirm(self, player: Player) -> None:
        """Confirm the move the panel shows; the player then waits for their next turn."""
        panel = self.panel_of(player)
        if not confirm_enabled(panel):
            raise UnexpectedAnswer("confirm is not enabled")
        await self.click(player, "confirm", panel)
        player.confirmed = player.turn
        self.next_turn(player)

    async def select(
        self,
        player: Player,
        verb: str,
        message: Message,
        values: tuple[str, ...],
        *,
        kind: str | None = None,
    ) -> Interaction:
        interaction, answer = await self.bench.interact(
            player,
            Step(kind or verb, verb, values),
            player.user.select(message, custom_id(message, verb), list(values)),
        )
        if answer == 4:
            raise UnexpectedAnswer(interaction.original.content if interaction.original else "")
        return interaction


class CharioteerPlayers(ProductPlayers):
    """Charioteer's turn: Choose move, a symbol and the cards showing it (the crowd card
    or a reset move when needed, as ``tests/e2e/players.py`` does), Confirm."""

    async def play(self, player: Player) -> None:
        step, race, ready = player.step, player.race, self.bench.scheduler.make_ready
        if step == "choose":
            board = race.boards[player.turn]
            interaction = await self.click(player, "choose", board)
            player.panel = answered_message(interaction, "symbol")
            self.snapshots.setdefault("panel", snapshot(player.panel))
            player.step = "symbol"
            ready(player)
        elif step == "symbol":
            panel = self.panel_of(player)
            symbols = [o["value"] for o in select_options(panel, "symbol") if o["value"] != "reset"]
            if not symbols:
                player.step = "reset"
                ready(player)
                return
            await self.select(player, "symbol", panel, (symbols[player.rng.below(len(symbols))],))
            matching = [
                o["value"]
                for o in select_options(panel, "cards")
                if o.get("description", "").startswith("shows")
            ]
            player.step = "cards" if matching else "reset"
            ready(player)
        elif step == "cards":
            panel = self.panel_of(player)
            matching = [
                o["value"]
                for o in select_options(panel, "cards")
                if o.get("description", "").startswith("shows")
            ]
            await self.select(player, "cards", panel, tuple(matching[:3]))
            self.snapshots["panel_full"] = snapshot(panel)
            player.step = "confirm" if confirm_enabled(panel) else "crowd"
            ready(player)
        elif step == "crowd":
            panel = self.panel_of(player)
            await self.click(player, "crowd", panel)
            player.step = "confirm" if confirm_enabled(panel) else "reset"
            ready(player)
        elif step == "reset":
            panel = self.panel_of(player)
            await self.select(player, "symbol", panel, ("reset",), kind="reset")
            player.step = "reset_cards"
            ready(player)
        elif step == "reset_cards":
            panel = self.panel_of(player)
            await self.select(player, "cards", panel, ("0",), kind="reset")
            player.step = "confirm"
            ready(player)
        elif step == "confirm":
            await self.confirm(player)


class CartographersPlayers(ProductPlayers):
    """Cartographers' turn on the Draw panel: Draw, then a terrain, a shape, a row and a
    column picked at random; Suggest when that drawing does not fit (and the card's other
    shapes when the one picked fits nowhere); Confirm. Every step but Confirm is drawn:
    the player goes on once the panel's new content is in."""

    PICKS: ClassVar[dict[str, str]] = {"terrain": "shape", "shape": "row", "row": "col"}

    async def play(self, player: Player) -> None:
        step, race, ready = player.step, player.race, self.bench.scheduler.make_ready
        if step == "draw":
            interaction = await self.click(player, "draw", race.boards[player.turn])
            await self.drawn(player, interaction, "confirm")
            player.step, player.tries = "terrain", 0
        elif step in ("terrain", "shape", "row", "col"):
            panel = self.panel_of(player)
            values = [o["value"] for o in select_options(panel, step)]
            interaction = await self.select(
                player, step, panel, (values[player.rng.below(len(values))],)
            )
            panel = await self.drawn(player, interaction, "confirm")
            player.step = self.PICKS.get(step, "confirm" if confirm_enabled(panel) else "suggest")
        elif step in ("suggest", "reshape"):
            panel = self.panel_of(player)
            if step == "suggest":
                interaction = await self.click(player, "suggest", panel)
            else:
                shapes = [o["value"] for o in select_options(panel, "shape")]
                if player.tries >= len(shapes):
                    raise UnexpectedAnswer("no shape of the card fits")
                interaction = await self.select(
                    player, "shape", panel, (shapes[player.tries],), kind="reshape"
                )
                player.tries += 1
            panel = await self.drawn(player, interaction, "confirm")
            player.step = "confirm" if confirm_enabled(panel) else "reshape"
        elif step == "confirm":
            await self.confirm(player)
            return
        ready(player)


class CarcassonnePlayers(CartographersPlayers):
    """Carcassonne's turn, for the seat the turn's post names: Play, a spot picked at
    random, Place, where to deploy (a feature or nothing, at random), Confirm. Every step
    but Confirm is drawn."""

    async def play(self, player: Player) -> None:
        step, race, ready = player.step, player.race, self.bench.scheduler.make_ready
        if step == "play":
            interaction = await self.click(player, "play", race.boards[player.turn])
            await self.drawn(player, interaction, "place")
            player.step = "spot"
        elif step in ("spot", "where"):
            panel = self.panel_of(player)
            values = [o["value"] for o in select_options(panel, step)]
            choice = values[player.rng.below(len(values))]
            interaction = await self.select(player, step, panel, (choice,))
            await self.drawn(player, interaction, "place" if step == "spot" else "confirm")
            player.step = "place" if step == "spot" else "confirm"
        elif step == "place":
            interaction = await self.click(player, "place", self.panel_of(player))
            panel = await self.drawn(player, interaction, "confirm")
            player.step = "where" if has_control(panel, "where") else "confirm"
        elif step == "confirm":
            await self.confirm(player)
            return
        ready(player)


PLAYERS: dict[str, type[ProductPlayers]] = {
    "charioteer": CharioteerPlayers,
    "cartographers": CartographersPlayers,
    "carcassonne": CarcassonnePlayers,
}


class UnexpectedAnswer(Exception):
    """The bot answered with something other than what the step expects (an error)."""


def has_control(message: Message, verb: str) -> bool:
    """Whether the message has a control for ``verb`` (custom ids ``x:race:verb:turn``)."""
    return any(c.split(":")[2] == verb for c in message.custom_ids() if c.count(":") == 3)


def answered_message(interaction: Interaction, verb: str) -> Message:
    message = interaction.original
    if message is None or not has_control(message, verb):
        raise UnexpectedAnswer(message.content if message is not None else "no message")
    return message


def confirm_enabled(panel: Message) -> bool:
    return not panel.component(custom_id(panel, "confirm")).get("disabled", False)


def snapshot(message: Message) -> dict[str, Any]:
    return {"content": message.content, "components": copy.deepcopy(message.components)}


# ---------------------------------------------------------------------- the floor


class FloorPlayers:
    """The floor run's players: each replays its product script on copies of the product's
    lobby, board and panel messages (every control enabled)."""

    def __init__(
        self,
        bench: Bench,
        channel: Channel,
        users: list[User],
        scripts: list[list[Step]],
        snapshots: dict[str, dict[str, Any]],
    ) -> None:
        self.bench = bench
        self.command = bench.game.command
        self.channel = channel
        self.players: list[tuple[User, deque[Step]]] = [
            (user, deque(script)) for user, script in zip(users, scripts, strict=True)
        ]
        self.remaining = sum(len(script) for script in scripts)
        self.all_done = asyncio.Event()
        self.messages = {
            name: bench.fake.new_message(channel, enabled(body), [])
            for name, body in snapshots.items()
        }
        self._by_user = {user.id: index for index, (user, _) in enumerate(self.players)}
        if self.remaining == 0:
            self.all_done.set()

    def start(self, order: list[int]) -> None:
        for index in order:
            if self.players[index][1]:
                self.bench.scheduler.make_ready(self._player(index))

    def _player(self, index: int) -> Player:
        user = self.players[index][0]
        return Player(user, Race(index, self.channel), Rng(0))

    def message_with(self, verb: str) -> Message:
        for message in self.messages.values():
            if has_control(message, verb):
                return message
        raise LookupError(verb)

    async def act(self, player: Player) -> None:
        index = self._by_user[player.user.id]
        user, script = self.players[index]
        step = script.popleft()
        try:
            if step.kind == "new":
                options = {
                    key: int(value) if value.isdigit() else value
                    for key, value in (item.split("=", 1) for item in step.values)
                }
                make = user.slash(self.channel, self.command, **options)
            else:
                message = self.message_with(step.verb)
                control = custom_id(message, step.verb)
                if message.component(control).get("type") == 2:
                    make = user.click(message, control)
                else:
                    offered = [o["value"] for o in select_options(message, step.verb)]
                    make = user.select(message, control, offered[: max(1, len(step.values))])
            await self.bench.interact(player, step, make)
        except (InteractionFailedToAnswer, TimeoutError):
            pass
        except (ClientRefused, AssertionError, LookupError):
            self.bench.log.refused[step.kind] += 1
        self.remaining -= 1
        if script:
            self.bench.scheduler.make_ready(player)
        elif self.remaining == 0:
            self.all_done.set()


def enabled(body: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(body)
    for row in out["components"]:
        for component in row.get("components", []):
            component.pop("disabled", None)
            component.pop("id", None)
        row.pop("id", None)
    return out


# ---------------------------------------------------------------------- processes


async def until_done(bench: Bench, done: asyncio.Event, time_limit: float, stall: float) -> str:
    """Wait for the run to end: "done", "stalled" (neither an answer nor a board for
    ``stall`` seconds) or "time limit"."""
    started = bench.log.last_progress = time.time()
    while not done.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 1.0)
        now = time.time()
        if done.is_set():
            break
        if now - started > time_limit:
            return "time limit"
        if now - bench.log.last_progress > stall:
            return "stalled"
    return "done"


@dataclass
class Window:
    """One measured run: how it ended, its length, and the CPU both processes used."""

    outcome: str
    seconds: float
    bot_cpu: float
    workers_cpu: float
    """The CPU the bot processes' children (the picture workers) used."""
    own_cpu: float
    database_cpu: float | None = None
    """The CPU the PostgreSQL server's processes serving the bot used (None on SQLite)."""
    bot_waited: float = 0.0
    """How long the bot processes' event loops were ready to run but had no CPU."""
    workers_waited: float = 0.0
    """How long the picture workers were ready to run but had no CPU."""


async def measured_window(
    bench: Bench,
    processes: list[BotProcess],
    begin: Callable[[], None],
    act: Callable[[Player], Awaitable[None]],
    done: asyncio.Event,
    args: argparse.Namespace,
    database: str | None = None,
) -> Window:
    """Start the players (``begin``), dispatch at the fixed rate until ``done`` (or a
    stall, or the time limit), and measure the window from the first dispatch (and the
    CPU of the PostgreSQL ``database``'s processes serving the bot, if given)."""
    database_before = await database_cpu(database, processes)
    bot_cpu_before, own_cpu_before = processes_cpu(processes), cpu_seconds()
    workers_before = children_cpu(processes)
    waited_before = [run_delay(process.process.pid) for process in processes]
    workers_waited_before = children_cpu(processes, run_delay)
    gc.collect()
    gc.freeze()
    gc.disable()  # a full collection over the fake's messages pauses this process
    GC.take()
    bench.tracker.routes.clear()
    begin()
    scheduler = asyncio.create_task(bench.scheduler.run(act))
    try:
        outcome = await until_done(bench, done, args.time_limit, args.stall)
    finally:
        gc.enable()
        gc.unfreeze()
    end = bench.log.last_progress if outcome == "stalled" else time.time()
    bench.scheduler.stop.set()
    await scheduler
    bot_cpu = processes_cpu(processes) - bot_cpu_before
    workers_after = children_cpu(processes)
    workers_cpu = sum(cpu - workers_before.get(pid, 0.0) for pid, cpu in workers_after.items())
    waited = sum(
        run_delay(process.process.pid) - before
        for process, before in zip(processes, waited_before, strict=True)
    )
    workers_waited = sum(
        delay - workers_waited_before.get(pid, 0.0)
        for pid, delay in children_cpu(processes, run_delay).items()
    )
    database_after = await database_cpu(database, processes)
    used_by_database = (
        None
        if database is None
        else sum(cpu - database_before.get(pid, 0.0) for pid, cpu in database_after.items())
    )
    own_cpu = cpu_seconds() - own_cpu_before
    assert bench.log.first_dispatch is not None
    return Window(
        outcome,
        end - bench.log.first_dispatch,
        bot_cpu,
        workers_cpu,
        own_cpu,
        used_by_database,
        waited,
        workers_waited,
    )


class GcPauses:
    """Garbage-collector pauses of this process (they delay dispatches and answers)."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._began = 0.0
        gc.callbacks.append(self._note)

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._began)

    def take(self) -> dict[str, float | int]:
        pauses, self.pauses = self.pauses, []
        return {
            "collections": len(pauses),
            "total_ms": round(sum(pauses) * 1000, 1),
            "max_ms": round(max(pauses, default=0.0) * 1000, 1),
        }


GC = GcPauses()


def proc_status(pid: int) -> dict[str, int]:
    """VmHWM and VmRSS (KiB) of a process."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                out[key] = int(value.split()[0])
    return out


async def database_cpu(database: str | None, processes: list[BotProcess]) -> dict[int, float]:
    """CPU seconds of each process of the PostgreSQL server at ``database`` (if given)
    serving a bot process's connection, by pid: the server runs on this machine, and its
    processes are found by the local ports of the bots' sockets."""
    if database is None:
        return {}
    sockets: set[str] = set()
    for process in processes:
        folder = Path(f"/proc/{process.process.pid}/fd")
        for fd in folder.iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    sockets.add(target[8:-1])
    ports: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[9] in sockets:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    found: dict[int, float] = {}
    for pid in await backends_of(database, ports) if ports else []:
        with contextlib.suppress(OSError):
            found[pid] = proc_cpu(pid)
    return found


def children_cpu(
    processes: list[BotProcess], measure: Callable[[int], float] | None = None
) -> dict[int, float]:
    """CPU seconds (or ``measure``) of every descendant of the bot processes (the picture
    workers), by pid."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        path = Path("/proc", entry, "stat")
        if entry.isdigit():
            with contextlib.suppress(OSError):
                parents[int(entry)] = int(path.read_text().rsplit(")", 1)[1].split()[1])
    family = {process.process.pid for process in processes}
    found: dict[int, float] = {}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in family and pid not in family:
                family.add(pid)
                with contextlib.suppress(OSError):
                    found[pid] = (measure or proc_cpu)(pid)
                grew = True
    return found


def processes_cpu(processes: list[BotProcess]) -> float:
    return sum(proc_cpu(process.process.pid) for process in processes)


def run_delay(pid: int) -> float:
    """Seconds the process's main thread was ready to run but waited for a CPU (the
    machine busy with others)."""
    with open(f"/proc/{pid}/schedstat", encoding="ascii") as schedstat:
        return int(schedstat.read().split()[1]) / 1e9


def proc_cpu(pid: int) -> float:
    """User plus system CPU seconds of a process."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


async def bot_reports(processes: list[BotProcess], folder: Path) -> list[dict[str, Any]]:
    """Ask every bot process (SIGUSR1) for its report: commits, and what held its loop."""
    return [
        await process_report(process, commits_file(folder, index))
        for index, process in enumerate(processes)
    ]


def commits_file(folder: Path, index: int) -> Path:
    return folder / ("commits.json" if index == 0 else f"commits-{index}.json")


async def process_report(process: BotProcess, path: Path) -> dict[str, Any]:
    """Ask one bot process (SIGUSR1) for its report (see ``bench/counted_bot.py``)."""
    path.unlink(missing_ok=True)
    process.process.send_signal(signal.SIGUSR1)
    for _ in range(500):
        if path.exists():
            report: dict[str, Any] = json.loads(path.read_text())
            return report
        await asyncio.sleep(0.01)
    raise TimeoutError("the bot did not report its commits")


COUNTS = {
    "races": "SELECT COUNT(*) FROM game_tables",
    "actions": "SELECT COUNT(*) FROM actions",
    "announcements_posted": "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL",
}


async def database_counts(database: str) -> dict[str, int]:
    if is_postgres_url(database):
        return {name: await scalar(database, sql) for name, sql in COUNTS.items()}
    return sqlite_counts(Path(database))


def sqlite_counts(path: Path) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return {
            "races": int(db.execute("SELECT COUNT(*) FROM game_tables").fetchone()[0]),
            "actions": int(db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]),
            "announcements_posted": int(
                db.execute("SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL").fetchone()[0]
            ),
        }


@contextlib.asynccontextmanager
async def started(
    fake: FakeDiscord, target: str, env: dict[str, str], command: str = "race"
) -> Any:
    async with started_cluster(fake, target, [env], command) as processes:
        yield processes[0]


@contextlib.asynccontextmanager
async def started_cluster(
    fake: FakeDiscord, target: str, envs: list[dict[str, str]], command: str = "race"
) -> Any:
    """One bot process per environment; yields them once every one has its session."""
    with contextlib.redirect_stdout(sys.stderr):  # the harness prints the bot's output
        async with contextlib.AsyncExitStack() as stack:
            processes = [
                await stack.enter_async_context(run_bot(fake, target, env=env)) for env in envs
            ]
            await fake.wait_for_command(command, timeout=120)
            await fake.wait_for(
                lambda: (
                    len([s for s in fake.gateway.live_sessions() if s.ready and s.connection])
                    >= len(envs)
                ),
                120,
                f"{len(envs)} gateway sessions",
            )
            yield processes


def figures(bench: Bench, processes: list[BotProcess], window: Window) -> dict[str, Any]:
    log = bench.log
    seconds, bot_cpu = window.seconds, window.bot_cpu
    answered = len(log.records)
    by_kind: dict[str, list[float]] = {}
    for record in log.records:
        by_kind.setdefault(record.kind, []).append(record.seconds)
    every = [record.seconds for record in log.records]
    setup = [r.seconds for r in log.records if r.kind in SETUP_KINDS]
    turns = [r.seconds for r in log.records if r.kind not in SETUP_KINDS]
    memory = [proc_status(process.process.pid) for process in processes]
    bot_requests = sum(
        count for route, count in bench.tracker.routes.items() if "/callback" not in route
    )
    return (
        {
            "window_seconds": round(seconds, 2),
            "dispatched": log.dispatched,
            "answered": answered,
            "interactions_per_second": round(answered / seconds, 1),
            "idle_slots": log.idle_slots,
            "failed_no_answer_in_3s": dict(log.failed),
            "answered_with_an_error": dict(log.errors),
            "error_answers": dict(log.error_texts.most_common(6)),
            "refused_by_the_client": dict(log.refused),
            "interaction_to_response": summary_ms(every),
            "setup_interactions": summary_ms(setup),
            "turn_interactions": summary_ms(turns),
            "by_kind": {kind: summary_ms(times) for kind, times in sorted(by_kind.items())},
            "dispatch_lag": summary_ms(log.dispatch_lag),
            "bot_cpu_seconds": round(bot_cpu, 2),
            "bot_cpu_share_of_a_core": round(bot_cpu / seconds, 2),
            "bot_cpu_ms_per_interaction": round(bot_cpu / max(1, answered) * 1000, 2),
            "picture_workers_cpu_seconds": round(window.workers_cpu, 2),
            "bot_waited_for_a_cpu_seconds": round(window.bot_waited, 2),
            "picture_workers_waited_for_a_cpu_seconds": round(window.workers_waited, 2),
            "bot_and_workers_cpu_ms_per_interaction": round(
                (bot_cpu + window.workers_cpu) / max(1, answered) * 1000, 2
            ),
            "bench_cpu_share_of_a_core": round(window.own_cpu / seconds, 2),
            **(
                {}
                if window.database_cpu is None
                else {
                    "database_cpu_seconds": round(window.database_cpu, 2),
                    "database_cpu_share_of_a_core": round(window.database_cpu / seconds, 2),
                }
            ),
            "bot_rest_calls_besides_callbacks": bot_requests,
            "bot_peak_rss_mib": round(sum(m["VmHWM"] for m in memory) / 1024, 1),
            "bot_rss_at_end_mib": round(sum(m["VmRSS"] for m in memory) / 1024, 1),
            "violations": len(bench.fake.violations),
            "bench_gc_pauses": GC.take(),
            "outcome": window.outcome,
        }
        | (
            {"bot_peak_rss_mib_by_process": [round(m["VmHWM"] / 1024, 1) for m in memory]}
            if len(memory) > 1
            else {}
        )
        | (panel_figures(log) if log.contents or log.unfilled else {})
    )


def panel_figures(log: RunLog) -> dict[str, Any]:
    """A drawn panel's times: from the interaction to its content (the picture in place),
    over every drawn step and by kind; the answers whose content never came (within
    ``ANSWER_TIMEOUT``), by kind."""
    by_kind: dict[str, list[float]] = {}
    for record in log.contents:
        by_kind.setdefault(record.kind, []).append(record.seconds)
    return {
        "interaction_to_panel": summary_ms([record.seconds for record in log.contents]),
        "panel_by_kind": {kind: summary_ms(times) for kind, times in sorted(by_kind.items())},
        "panel_not_filled_in": dict(log.unfilled),
    }


async def product_run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    if args.database_url is None:
        return await product_run_on(args, folder, str(folder / "bot.db"))
    async with fresh_schema(args.database_url, "bench") as url:
        return await product_run_on(args, folder, url)


async def product_run_on(args: argparse.Namespace, folder: Path, database: str) -> dict[str, Any]:
    fake = await FakeDiscord.start()
    try:
        game = GAMES[args.game]
        bench = Bench(fake, args.rate, game)
        shards = args.processes
        guilds = [
            fake.add_guild("Circus" if shards == 1 else f"Circus {shard}", shard=(shard, shards))
            for shard in range(shards)
        ]
        channels = [
            guilds[n % shards].add_text_channel(f"races-{n}")
            for n in range(max(args.channels, shards))
        ]
        races: list[Race] = []
        for number in range(args.races):
            where = number % len(channels)
            guild = guilds[where % shards]  # the guild of channels[where]
            race = Race(number, channels[where], ai=args.ai_seats)
            for seat in range(args.seats - args.ai_seats):
                user = guild.add_member(f"r{number}s{seat}")
                race.humans.append(Player(user, race, Rng(args.seed, number * 8 + seat)))
            races.append(race)
        players = PLAYERS[game.name](bench, races, args.turns, game.options(args))
        key = "DATABASE_URL" if is_postgres_url(database) else "DATABASE_PATH"
        envs = []
        for index in range(shards):
            env = {
                key: database,
                "LOG_LEVEL": "WARNING",
                "BENCH_COMMITS_FILE": str(commits_file(folder, index)),
                "LOOP_WATCH_MS": str(args.loop_watch_ms),
            }
            if shards > 1:
                env |= {
                    "CLUSTER_INDEX": str(index),
                    "CLUSTER_SIZE": str(shards),
                    "SHARD_COUNT": str(shards),
                }
            if args.profile_bot is not None and index == 0:
                env["BENCH_PROFILE"] = str(args.profile_bot.resolve())
            envs.append(env)
        print(f"product: starting {shards} bot process(es) …", file=sys.stderr)
        async with started_cluster(fake, PRODUCT, envs, game.command.split()[0]) as processes:
            commits_before = sum(r["commits"] for r in await bot_reports(processes, folder))
            rows_before = await database_counts(database)
            print(
                f"product: {args.races} races × {args.seats} seats, {args.turns} turns, "
                f"{args.rate}/s …",
                file=sys.stderr,
            )
            window = await measured_window(
                bench,
                processes,
                players.start,
                players.act,
                players.all_done,
                args,
                database if is_postgres_url(database) else None,
            )
            reports = await bot_reports(processes, folder)
            commits = sum(r["commits"] for r in reports) - commits_before
            rows_after = await database_counts(database)
            result = figures(bench, processes, window)
            counted = "postgres_commits" if is_postgres_url(database) else "sqlite_commits"
            result.update(
                races_completed=sum(race.done_at is not None for race in races),
                races_stalled=sum(race.stalled for race in races),
                **{
                    counted: commits,
                    f"{counted}_per_second": round(commits / window.seconds, 1),
                },
                database_rows_added={
                    name: rows_after[name] - rows_before[name] for name in rows_after
                },
                bot_rest_calls_by_route=dict(bench.tracker.routes.most_common(8)),
                bot_loop_holds=[report["loop"] for report in reports],
                bench_peak_rss_mib=peak_rss_mib(),
            )
            for task in list(bench.scheduler.tasks):
                task.cancel()
        all_players = [player for race in races for player in race.humans]
        order = sorted(range(len(all_players)), key=lambda i: all_players[i].first_dispatch)
        replay = {
            "commands": fake.commands_payload(),
            "scripts": [player.script for player in all_players],
            "order": order,
            "snapshots": players.snapshots,
        }
        return {"figures": result, "replay": replay}
    finally:
        await fake.close()


async def floor_run(
    args: argparse.Namespace, folder: Path, replay: dict[str, Any]
) -> dict[str, Any]:
    fake = await FakeDiscord.start()
    try:
        game = GAMES[args.game]
        bench = Bench(fake, args.rate, game)
        guild = fake.add_guild("Circus")
        channel = guild.add_text_channel("floor")
        scripts: list[list[Step]] = replay["scripts"]
        users = [guild.add_member(f"f{index}") for index in range(len(scripts))]
        commands = folder / "commands.json"
        commands.write_text(json.dumps(replay["commands"]), encoding="utf-8")
        print("floor: starting the floor bot …", file=sys.stderr)
        floor_env = {"FLOOR_COMMANDS": str(commands)}
        async with started(fake, FLOOR, floor_env, game.command.split()[0]) as process:
            players = FloorPlayers(bench, channel, users, scripts, replay["snapshots"])
            print(f"floor: {sum(map(len, scripts))} interactions …", file=sys.stderr)
            window = await measured_window(
                bench,
                [process],
                lambda: players.start(replay["order"]),
                players.act,
                players.all_done,
                args,
            )
            result = figures(bench, [process], window)
            for task in list(bench.scheduler.tasks):
                task.cancel()
        return result
    finally:
        await fake.close()


def ratios(product: dict[str, Any], floor: dict[str, Any]) -> dict[str, float | None]:
    def divide(top: float | None, bottom: float | None) -> float | None:
        if top is None or not bottom:
            return None
        return round(top / bottom, 2)

    latency_p, latency_f = product["interaction_to_response"], floor["interaction_to_response"]
    return {
        "median_latency": divide(latency_p.get("median_ms"), latency_f.get("median_ms")),
        "p99_latency": divide(latency_p.get("p99_ms"), latency_f.get("p99_ms")),
        "interactions_per_second": divide(
            product["interactions_per_second"], floor["interactions_per_second"]
        ),
        "bot_cpu_ms_per_interaction": divide(
            product["bot_cpu_ms_per_interaction"], floor["bot_cpu_ms_per_interaction"]
        ),
        "bot_peak_rss": divide(product["bot_peak_rss_mib"], floor["bot_peak_rss_mib"]),
    } | (
        {"p99_panel_to_floor_response": divide(panel.get("p99_ms"), latency_f.get("p99_ms"))}
        if (panel := product.get("interaction_to_panel")) is not None
        else {}
    )


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=sorted(GAMES), default="charioteer")
    parser.add_argument("--races", type=int, default=20, help="tables to play")
    parser.add_argument("--seats", type=int, default=4, help="seats per race, AI seats included")
    parser.add_argument("--ai-seats", type=int, default=0, help="AI seats per race (greedy)")
    parser.add_argument("--turns", type=int, default=2, help="turns every race plays")
    parser.add_argument("--laps", type=int, default=3)
    parser.add_argument("--turn-limit", default="24h", help="the /race new turn_limit choice")
    parser.add_argument("--rate", type=float, default=20.0, help="interactions per second")
    parser.add_argument("--channels", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=1800.0, help="seconds per run")
    parser.add_argument(
        "--stall", type=float, default=30.0, help="end a run after this long without progress"
    )
    parser.add_argument("--profile-bot", type=Path, help="cProfile the bot into this file")
    parser.add_argument(
        "--loop-watch-ms",
        type=int,
        default=20,
        help="report what held the bot's event loop this long or longer (LOOP_WATCH_MS)",
    )
    parser.add_argument("--schema-checks", action="store_true", help="keep the fake's check")
    parser.add_argument("--skip-floor", action="store_true")
    parser.add_argument("--folder", type=Path, help="where the bot's database goes (temp)")
    parser.add_argument(
        "--database-url", help="a PostgreSQL server: the product runs on a fresh schema of it"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="cluster processes, one shard each"
    )
    args = parser.parse_args(argv)
    if not 2 <= args.seats <= 6 or not 0 <= args.ai_seats <= args.seats - 1:
        parser.error("--seats is 2..6 with at least one human seat")
    if args.processes < 1:
        parser.error("--processes is at least 1")
    if args.database_url is not None and not is_postgres_url(args.database_url):
        parser.error("--database-url must be a postgresql:// URL")
    return args


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    if not args.schema_checks:
        skip_schema_checks()
    product = await product_run(args, folder)
    out: dict[str, Any] = {
        "settings": {
            key: (str(value) if isinstance(value, Path) else value)
            for key, value in vars(args).items()
        },
        "product": product["figures"],
    }
    if not args.skip_floor:
        floor = await floor_run(args, folder, product["replay"])
        out["floor"] = floor
        out["ratio_product_to_floor"] = ratios(product["figures"], floor)
    return out


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    if args.folder is not None:
        args.folder.mkdir(parents=True, exist_ok=True)
        for name in ("bot.db", "bot.db-wal", "bot.db-shm"):
            (args.folder / name).unlink(missing_ok=True)
        result = asyncio.run(run(args, args.folder))
    else:
        with tempfile.TemporaryDirectory(prefix="circus-load-") as folder:
            result = asyncio.run(run(args, Path(folder)))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
