"""The game service under load, without Discord: many races in one process on one SQLite
file, then the start-up of a bot holding 10,000 stored races.

    python bench/service.py [--races 1000] [--turns 3] [--ai cheap|random|greedy|strategic]
                            [--rate 0] [--concurrency 64] [--resume-races 10000] [--seed 1]
                            [--database FOLDER] [--profile FILE] [--cluster]

Prints JSON. A measurement, never a test.

**Play.** ``--races`` races are opened through :class:`bot.service.TableService` (2–4
human seats and 0–2 AI seats each, drawn from the seed), started (AI seats play turn 1
during this set-up), and played for
``--turns`` turns (0: to the finish). Every race is a task; all run at once under
``asyncio.gather``, at most ``--concurrency`` service calls in flight. A simulated player
reads its seat's view and picks a seeded legal move (one of the first moves the engine
lists, no discards: far cheaper than listing them all); the time of
``TableService.submit`` from call to return is the time from a confirm to "accepted": the
engine's commit, the race's snapshot and one SQLite transaction (WAL, ``synchronous=FULL``)
before it returns. The submits that resolve a turn are also reported on their own. Without
``--rate`` the players confirm as fast as the service answers (its capacity; the time then
includes queueing behind the other calls in flight); with ``--rate R`` confirms are due
R per second whoever makes them (open loop), and ``confirm_due_to_accepted`` also counts
the wait between a confirm's due time and its call (a busy event loop).
``play_ai_seats`` is timed per call (one stored action per AI seat); the AI is a cheap
seeded pick (``--ai cheap``) or one of the engine's policies, so its cost shows. With
``--cluster`` the service is one process of a cluster (shard 0 of 2): since other
processes store actions too, every call first checks the stored version of the table it
keeps in memory (a read more), and reads the table anew when another process moved it.

**Render.** Up to ``--render-sample`` resolved turns are then rendered one after another,
as the announcer does for a turn: the reveal (``reveal_text``), the board text
(``board_text``) and the board image (``board_png``). Rendering runs after the play phase
so that its CPU time does not queue behind (or in front of) the submits; "turn resolution
including rendering" adds each resolving submit's time to its own turn's render time. With
``--announce`` every resolved turn is also rendered during play, in the background, the way
the bot's announcer does it (texts on the event loop, the image in its worker process), to
show what that rendering does to the submits' times.

**Resume.** A second file is filled with ``--resume-races`` stored races: a few hundred
real races made through the service (mid-turn, an AI seat owing its move after a crash,
announcements not yet posted, finished, lobbies), then copied row by row with plain
``sqlite3`` under new race ids, user ids and deadlines until the total is reached. Then a
fresh service opens the file and the bot's start-up is timed: ``tables_to_resume()``, and for
each race it returns ``play_ai_seats`` and ``announcements`` (and marking them posted, as
the announcer would), one race after another as the bot does; ``next_wakeup()``; and
``view_for`` of random races not yet in the service's cache.

SQLite commits are counted by ``Storage.commits``; peak memory is this process's peak
resident set (``getrusage``), a high-water mark over the phases run so far.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import cpu_seconds, peak_rss_mib, summary_ms
from bot.games.base import GameHost
from bot.images import ImageProcess
from bot.service import Table, TableService, TableSettings, TurnReport, default_chooser
from bot.shards import Shards
from engine.charioteer import Move, SeatView
from engine.charioteer.render import board_png, board_text, reveal_text
from engine.charioteer.rules import iter_hand_moves
from engine.core import Rng, public_events

T = TypeVar("T")
ChooseMove = Callable[[GameHost, str, SeatView, Rng], Any]

PICK_AMONG = 40
USER_BASE = 1_000
"""User ids are ``USER_BASE + race number * 10 + place``; copies shift them by
``COPY_USER_SHIFT`` per copy."""
COPY_USER_SHIFT = 1_000_000
RESUME_MIX: tuple[tuple[str, float], ...] = (
    ("mid_turn", 0.70),
    ("ai_owing", 0.05),
    ("unposted", 0.05),
    ("finished", 0.18),
    ("lobby", 0.02),
)
"""Kinds of stored races for the resume phase and their shares of the total:
``mid_turn`` running, some moves of the current turn in, everything announced;
``ai_owing`` running, a turn just resolved and its AI seats not played yet, its reveal and
board not posted (a crash between "accepted" and the follow-up work);
``unposted`` running without AI seats, its last reveal and board not posted;
``finished`` played to the podium, everything announced; ``lobby`` waiting to start."""


def quick_pick(view: SeatView, rng: Rng) -> Move:
    """A seeded pick among the first ``PICK_AMONG`` legal moves the engine lists (no
    discards): legal, varied, and a small fraction of the cost of listing every move, so
    the simulated players and the cheap AI do not compete with the service for the CPU."""
    moves = list(
        islice(
            iter_hand_moves(view.hand, view.tokens, view.crowd, view.options, discards=False),
            PICK_AMONG,
        )
    )
    return moves[rng.below(len(moves))]


def cheap_choice(host: GameHost, level: str, view: SeatView, rng: Rng) -> Move:
    """A stand-in AI that costs next to nothing: :func:`quick_pick`."""
    return quick_pick(view, rng)


def chooser_for(ai: str) -> tuple[ChooseMove, str]:
    """The service's move chooser and the level AI seats get, for ``--ai``."""
    if ai == "cheap":
        return cheap_choice, "random"
    return default_chooser, ai


def counter_seeds(seed: int) -> Callable[[], int]:
    counter = iter(range(seed * 1_000_000, (seed + 1) * 1_000_000))
    return lambda: next(counter)


async def pick_move(
    service: TableService, table_id: int, user_id: int, rng: Rng
) -> tuple[Move, int]:
    """What a simulated player confirms: a seeded legal move for the turn it sees."""
    _, seat_view = await service.view_for(table_id, user_id)
    return quick_pick(seat_view, rng), seat_view.turn


@dataclass
class Layout:
    humans: int
    ai: int


def layout(seed: int, number: int, with_ai: bool) -> Layout:
    rng = Rng(seed, 10_000 + number)
    humans = 2 + rng.below(3)
    return Layout(humans, rng.below(3) if with_ai else 0)


async def open_race(
    service: TableService,
    number: int,
    shape: Layout,
    ai_level: str,
    *,
    start: bool = True,
    **settings: Any,
) -> Table:
    """A lobby with its players and AI seats, started unless told otherwise."""
    users = [USER_BASE + number * 10 + place for place in range(shape.humans)]
    table = await service.open_lobby(
        game="charioteer",
        host_id=users[0],
        host_name=f"p{users[0]}",
        settings=TableSettings(seats=shape.humans + shape.ai, options=settings),
        guild_id=1,
        channel_id=100 + number % 50,
    )
    for user in users[1:]:
        table = await service.join(table.id, user, f"p{user}")
    for _ in range(shape.ai):
        table = await service.add_ai(table.id, users[0], ai_level)
    if start:
        await service.start(table.id, users[0])
    return table


@dataclass
class Sample:
    """A resolved turn kept for the render phase."""

    report: TurnReport
    names: dict[str, str]
    submit_seconds: float


@dataclass
class PlayTimes:
    submit: list[float] = field(default_factory=list)
    from_due: list[float] = field(default_factory=list)
    resolving: list[float] = field(default_factory=list)
    view: list[float] = field(default_factory=list)
    ai_call: list[float] = field(default_factory=list)
    ai_per_move: list[float] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    ai_moves: int = 0
    ai_resolved: int = 0
    finished: int = 0


class Limiter:
    """At most ``limit`` service calls in flight; ``timed`` measures a call once it runs."""

    def __init__(self, limit: int) -> None:
        self._slots = asyncio.Semaphore(limit)

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        async with self._slots:
            return await call()

    async def timed(self, call: Callable[[], Awaitable[T]]) -> tuple[T, float]:
        async with self._slots:
            start = time.perf_counter()
            result = await call()
            return result, time.perf_counter() - start


class Pacer:
    """Open-loop confirms at ``rate`` per second: the k-th confirm, whoever makes it, is due
    at start + k / rate (0: no pacing, as fast as the service answers)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self._start: float | None = None
        self._count = 0

    async def wait(self) -> float:
        """Wait for the next slot; returns when it was due (``perf_counter`` time)."""
        now = time.perf_counter()
        if self.rate <= 0:
            return now
        if self._start is None:
            self._start = now
        due = self._start + self._count / self.rate
        self._count += 1
        if due > now:
            await asyncio.sleep(due - now)
        return due


class Announcing:
    """Renders every resolved turn in the background while play goes on, as the bot's
    announcer does: reveal and board text on the event loop, the image in the bot's image
    worker process."""

    def __init__(self, images: ImageProcess) -> None:
        self.images = images
        self.tasks: set[asyncio.Task[None]] = set()
        self.times: list[float] = []

    def turn(self, report: TurnReport, names: dict[str, str]) -> None:
        task = asyncio.create_task(self._render(report, names))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _render(self, report: TurnReport, names: dict[str, str]) -> None:
        start = time.perf_counter()
        reveal_text(public_events(report.events), report.view, names=names, locale="en")
        board_text(report.view, names=names, locale="en")
        await self.images.run(board_png, report.view, names=names, locale="en")
        self.times.append(time.perf_counter() - start)

    async def drain(self) -> None:
        while self.tasks:
            await asyncio.gather(*self.tasks)


async def play_race(
    service: TableService,
    table_id: int,
    turns: int,
    rng: Rng,
    limiter: Limiter,
    pacer: Pacer,
    times: PlayTimes,
    render_sample: int,
    announcing: Announcing | None,
) -> None:
    played = 0
    while turns == 0 or played < turns:
        updates, took = await limiter.timed(lambda: service.play_ai_seats(table_id))
        if updates:
            times.ai_call.append(took)
            times.ai_per_move.append(took / len(updates))
            times.ai_moves += len(updates)
        if any(update.resolved for update in updates):
            times.ai_resolved += 1  # an AI seat moved last
            played += 1
            continue
        table = await limiter.run(lambda: service.table(table_id))
        if table.status != "running":
            times.finished += table.status == "finished"
            return
        if not table.waiting_humans():
            return
        for seat in table.waiting_humans():
            user = seat.user_id
            assert user is not None
            (move, turn), took = await limiter.timed(
                lambda user=user: pick_move(service, table_id, user, rng)  # type: ignore[misc]
            )
            times.view.append(took)
            due = await pacer.wait()
            update, took = await limiter.timed(
                lambda user=user, move=move, turn=turn: service.submit(  # type: ignore[misc]
                    table_id, user, move, turn
                )
            )
            times.submit.append(took)
            times.from_due.append(time.perf_counter() - due)
            if update.resolved:
                times.resolving.append(took)
                if len(times.samples) < render_sample:
                    times.samples.append(Sample(update.turns[0], update.table.names, took))
                if announcing is not None:
                    announcing.turn(update.turns[0], update.table.names)
                played += 1


def render_turn(sample: Sample) -> tuple[float, float, float]:
    """Seconds for the reveal, the board text and the board image of one turn."""
    report, names = sample.report, sample.names
    start = time.perf_counter()
    reveal_text(public_events(report.events), report.view, names=names, locale="en")
    revealed = time.perf_counter()
    board_text(report.view, names=names, locale="en")
    texted = time.perf_counter()
    board_png(report.view, names=names, locale="en")
    drawn = time.perf_counter()
    return revealed - start, texted - revealed, drawn - texted


async def play_phase(args: argparse.Namespace, path: Path) -> dict[str, Any]:
    choose, ai_level = chooser_for(args.ai)
    service = await TableService.create(
        str(path),
        seeds=counter_seeds(args.seed),
        choose_action=choose,
        shards=Shards(2, (0, 1)[: 2 - args.cluster]),
    )
    limiter = Limiter(args.concurrency)
    layouts = [layout(args.seed, number, args.ai_seats) for number in range(args.races)]

    print(f"opening {args.races} races …", file=sys.stderr)
    commits_before, cpu_before = service.storage.commits, cpu_seconds()
    start = time.perf_counter()

    async def opened(number: int) -> Table:
        async def open_and_play_ai() -> Table:
            table = await open_race(service, number, layouts[number], ai_level, laps=args.laps)
            await service.play_ai_seats(table.id)  # turn 1, as the bot does after Start
            return table

        return await limiter.run(open_and_play_ai)

    tables = await asyncio.gather(*(opened(number) for number in range(args.races)))
    setup_seconds = time.perf_counter() - start
    setup_commits = service.storage.commits - commits_before

    print(f"playing {args.turns or 'all'} turns …", file=sys.stderr)
    times = PlayTimes()
    pacer = Pacer(args.rate)
    images = ImageProcess(service.in_worker)
    announcing = Announcing(images) if args.announce else None
    profile = cProfile.Profile() if args.profile else None
    commits_before, cpu_before = service.storage.commits, cpu_seconds()
    if profile is not None:
        profile.enable()
    start = time.perf_counter()
    await asyncio.gather(
        *(
            play_race(
                service,
                table.id,
                args.turns,
                Rng(args.seed, number),
                limiter,
                pacer,
                times,
                args.render_sample,
                announcing,
            )
            for number, table in enumerate(tables)
        )
    )
    if announcing is not None:
        await announcing.drain()
    images.close()
    play_seconds = time.perf_counter() - start
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile)
    play_commits = service.storage.commits - commits_before
    play_cpu = cpu_seconds() - cpu_before
    await service.close()

    print(f"rendering {len(times.samples)} turns …", file=sys.stderr)
    if times.samples:
        render_turn(times.samples[0])  # fonts, catalogue and track layers loaded once, as a bot
    reveal, text, image, whole = [], [], [], []
    for sample in times.samples:
        revealed, texted, drawn = render_turn(sample)
        reveal.append(revealed)
        text.append(texted)
        image.append(drawn)
        whole.append(sample.submit_seconds + revealed + texted + drawn)

    seats = [shape.humans + shape.ai for shape in layouts]
    return {
        "races": args.races,
        "seats_per_race": {"min": min(seats), "max": max(seats), "total": sum(seats)},
        "ai_seats": sum(shape.ai for shape in layouts),
        "ai": args.ai,
        "turns_per_race": args.turns or "to the finish",
        "concurrency": args.concurrency,
        "confirms_per_second_target": args.rate or "as fast as answered",
        "setup": {
            "seconds": round(setup_seconds, 2),
            "sqlite_commits": setup_commits,
            "commits_per_second": round(setup_commits / setup_seconds, 1),
        },
        "play": {
            "seconds": round(play_seconds, 2),
            "cpu_seconds": round(play_cpu, 2),
            "sqlite_commits": play_commits,
            "commits_per_second": round(play_commits / play_seconds, 1),
            "player_moves": len(times.submit),
            "ai_moves": times.ai_moves,
            "turns_resolved": len(times.resolving) + times.ai_resolved,
            "races_finished": times.finished,
        },
        "confirm_to_accepted": summary_ms(times.submit),
        "confirm_due_to_accepted": summary_ms(times.from_due) if args.rate else None,
        "confirm_resolving_turn": summary_ms(times.resolving),
        "player_view_and_pick": summary_ms(times.view),
        "play_ai_seats_call": summary_ms(times.ai_call),
        "play_ai_seats_per_move": summary_ms(times.ai_per_move),
        "render": {
            "turns": len(times.samples),
            "reveal_text": summary_ms(reveal),
            "board_text": summary_ms(text),
            "board_png": summary_ms(image),
            "all_three": summary_ms(
                [r + t + i for r, t, i in zip(reveal, text, image, strict=True)]
            ),
        },
        "turn_resolution_including_render": summary_ms(whole),
        "announced_during_play": summary_ms(announcing.times) if announcing else None,
        "peak_rss_mib": peak_rss_mib(),
    }


# ---------------------------------------------------------------------- resume


def shares(total: int, *, least: int = 0) -> dict[str, int]:
    """How many races of each kind make ``total`` (at least ``least`` of each, so more than
    ``total`` when it is smaller than ``least`` races of every kind; the largest kind takes
    the rounding)."""
    counts = {kind: max(least, int(total * share)) for kind, share in RESUME_MIX}
    counts["mid_turn"] = max(least, counts["mid_turn"] + total - sum(counts.values()))
    return counts


async def make_templates(
    path: Path, templates: int, seed: int, choose: ChooseMove, ai_level: str
) -> dict[str, list[int]]:
    """Real races of every kind, made through the service: race ids by kind."""
    service = await TableService.create(
        str(path), seeds=counter_seeds(seed + 7), choose_action=choose
    )
    by_kind: dict[str, list[int]] = {kind: [] for kind, _ in RESUME_MIX}
    plan = shares(templates, least=1)
    number = 0
    jobs: list[Awaitable[None]] = []

    async def make(kind: str, number: int) -> None:
        race_rng = Rng(seed, 50_000 + number)
        humans = 2 + race_rng.below(3)
        ai = 1 + race_rng.below(2) if kind == "ai_owing" else 0
        if kind == "mid_turn":
            ai = race_rng.below(3)
        shape = Layout(humans, ai)
        table = await open_race(service, number, shape, ai_level, start=kind != "lobby")
        by_kind[kind].append(table.id)
        if kind == "lobby":
            return
        await service.play_ai_seats(table.id)
        turns = {"mid_turn": race_rng.below(4), "ai_owing": 1 + race_rng.below(3)}.get(kind, 1)
        if kind == "finished":
            turns = 10_000
        played = 0
        while played < turns:
            table = await service.table(table.id)
            if table.status != "running":
                return
            waiting = table.waiting_humans()
            for seat in waiting:
                assert seat.user_id is not None
                move, turn = await pick_move(service, table.id, seat.user_id, race_rng)
                update = await service.submit(table.id, seat.user_id, move, turn)
                if update.resolved:
                    played += 1
            if kind != "ai_owing" or played < turns:
                await service.play_ai_seats(table.id)
        if kind == "mid_turn":
            table = await service.table(table.id)
            waiting = table.waiting_humans()
            for seat in waiting[: race_rng.below(len(waiting))]:
                assert seat.user_id is not None
                move, turn = await pick_move(service, table.id, seat.user_id, race_rng)
                await service.submit(table.id, seat.user_id, move, turn)

    for kind, count in plan.items():
        for _ in range(count):
            jobs.append(make(kind, number))
            number += 1
    limit = asyncio.Semaphore(16)

    async def bounded(job: Awaitable[None]) -> None:
        async with limit:
            await job

    await asyncio.gather(*(bounded(job) for job in jobs))
    await service.close()
    return by_kind


def mark_posted(
    db: sqlite3.Connection, table_ids: Sequence[int], now: float, *, but_last: bool = False
) -> None:
    """Mark these races' announcements posted (``but_last``: not those of the last action
    that made any, as after a crash before the follow-up work)."""
    if not table_ids:
        return
    marks = ",".join("?" for _ in table_ids)
    spare = (
        " AND seq < (SELECT MAX(seq) FROM outbox AS later WHERE later.table_id = outbox.table_id)"
        if but_last
        else ""
    )
    db.execute(
        "UPDATE outbox SET sent_at = ?, message_id = id + 900000000"
        f" WHERE sent_at IS NULL AND table_id IN ({marks}){spare}",
        (now, *table_ids),
    )


def copy_races(path: Path, by_kind: dict[str, list[int]], total: int, seed: int) -> None:
    """Fill the file to ``total`` races with copies of the templates (new race ids, user ids
    and deadlines; same seed, actions and snapshot, so every copy is a valid race)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    now = time.time()
    rng = Rng(seed, 77)
    db.execute("BEGIN")
    mark_posted(db, [*by_kind["mid_turn"], *by_kind["finished"]], now)
    mark_posted(db, [*by_kind["ai_owing"], *by_kind["unposted"]], now, but_last=True)
    tables = ("game_tables", "seats", "actions", "outbox", "results", "drafts")
    columns = {
        name: [row[1] for row in db.execute(f"PRAGMA table_info({name})")] for name in tables
    }
    rows: dict[int, dict[str, list[tuple[Any, ...]]]] = {}
    for template_id in (table_id for ids in by_kind.values() for table_id in ids):
        rows[template_id] = {
            name: db.execute(
                f"SELECT {', '.join(columns[name])} FROM {name}"  # not the generated ones
                f" WHERE {'id' if name == 'game_tables' else 'table_id'} = ?",
                (template_id,),
            ).fetchall()
            for name in tables
        }
    next_id = int(db.execute("SELECT MAX(id) FROM game_tables").fetchone()[0]) + 1
    wanted = shares(total)
    have = {kind: len(ids) for kind, ids in by_kind.items()}
    copy_number = 0
    for kind, ids in by_kind.items():
        for index in range(max(0, wanted[kind] - have[kind])):
            copy_number += 1
            template = rows[ids[index % len(ids)]]
            table_id = next_id
            next_id += 1
            shift = copy_number * COPY_USER_SHIFT

            def user(value: int | None, shift: int = shift) -> int | None:
                return None if value is None else value + shift

            race = dict(zip(columns["game_tables"], template["game_tables"][0], strict=True))
            race.update(
                id=table_id,
                host_id=user(race["host_id"]),
                channel_id=100 + table_id % 50,
                thread_id=None if race["thread_id"] is None else 5_000_000 + table_id,
            )
            if race["deadline"] is not None:
                race["deadline"] = now + 3600 + rng.below(71 * 3600)
            insert(db, "game_tables", [tuple(race.values())])
            insert(
                db,
                "seats",
                [(table_id, s, user(u), n, a, j) for _, s, u, n, a, j in template["seats"]],
            )
            insert(db, "actions", [(table_id, *row[1:]) for row in template["actions"]])
            outbox = [dict(zip(columns["outbox"], row, strict=True)) for row in template["outbox"]]
            for entry in outbox:
                entry.update(id=None, table_id=table_id)
            insert(db, "outbox", [tuple(entry.values()) for entry in outbox])
            insert(
                db,
                "results",
                [
                    (table_id, s, user(u), n, p, t, f, *more)
                    for _, s, u, n, p, t, f, *more in template["results"]
                ],
            )
            insert(db, "drafts", [(table_id, user(u), t, d) for _, u, t, d in template["drafts"]])
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def insert(db: sqlite3.Connection, table: str, rows: list[tuple[Any, ...]]) -> None:
    if rows:
        marks = ",".join("?" for _ in rows[0])
        db.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


async def resume_phase(args: argparse.Namespace, path: Path) -> dict[str, Any]:
    choose, ai_level = chooser_for(args.ai)
    print(f"making {args.resume_templates} template races …", file=sys.stderr)
    start = time.perf_counter()
    by_kind = await make_templates(path, args.resume_templates, args.seed, choose, ai_level)
    templates_seconds = time.perf_counter() - start
    print(f"copying to {args.resume_races} races …", file=sys.stderr)
    start = time.perf_counter()
    copy_races(path, by_kind, args.resume_races, args.seed)
    copy_seconds = time.perf_counter() - start
    with sqlite3.connect(path) as db:
        stored = {
            name: int(db.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0])
            for name in ("game_tables", "seats", "actions", "outbox", "results")
        }
        by_status = dict(db.execute("SELECT status, COUNT(*) FROM game_tables GROUP BY status"))
        pending = int(db.execute("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL").fetchone()[0])
    size_mib = round(path.stat().st_size / 2**20, 1)

    print("resuming …", file=sys.stderr)
    rss_before = peak_rss_mib()
    start = time.perf_counter()
    service = await TableService.create(str(path), choose_action=choose)
    opened = time.perf_counter()
    to_resume = await service.tables_to_resume()
    listed = time.perf_counter()
    ai_moves = announcements = 0
    per_race: list[float] = []
    for table_id in to_resume:
        race_start = time.perf_counter()
        ai_moves += len(await service.play_ai_seats(table_id))
        pending_here = await service.announcements(table_id)
        announcements += len(pending_here)
        per_race.append(time.perf_counter() - race_start)
    settled = time.perf_counter()
    for table_id in to_resume:
        for announcement in await service.announcements(table_id):
            await service.announced(announcement, None)
    marked = time.perf_counter()
    wakeup_start = time.perf_counter()
    await service.next_wakeup()
    wakeup_seconds = time.perf_counter() - wakeup_start

    running = await service.storage.table_ids_with_status("running")
    resumed = set(to_resume)
    rng = Rng(args.seed, 123)
    cold: list[float] = []
    candidates = [race for race in running if race not in resumed]
    for _ in range(min(args.cold_views, len(candidates))):
        table_id = candidates.pop(rng.below(len(candidates)))
        user = next(s.user_id for s in await service.storage.seats(table_id) if s.user_id)
        view_start = time.perf_counter()
        await service.view_for(table_id, user)
        cold.append(time.perf_counter() - view_start)
    await service.close()

    return {
        "stored": {
            "races": stored["game_tables"],
            "by_status": by_status,
            "by_kind": shares(args.resume_races),
            "seats": stored["seats"],
            "actions": stored["actions"],
            "outbox_rows": stored["outbox"],
            "outbox_pending": pending,
            "results": stored["results"],
            "file_mib": size_mib,
            "template_races": sum(len(ids) for ids in by_kind.values()),
            "making_templates_seconds": round(templates_seconds, 1),
            "copying_seconds": round(copy_seconds, 1),
        },
        "startup": {
            "open_service_ms": round((opened - start) * 1000, 1),
            "races_to_resume_ms": round((listed - opened) * 1000, 1),
            "races_resumed": len(to_resume),
            "ai_moves_played": ai_moves,
            "announcements_pending": announcements,
            "play_ai_and_announcements_ms": round((settled - listed) * 1000, 1),
            "per_resumed_race": summary_ms(per_race),
            "marking_announcements_posted_ms": round((marked - settled) * 1000, 1),
            "total_to_ready_ms": round((settled - start) * 1000, 1),
        },
        "next_wakeup_ms": round(wakeup_seconds * 1000, 1),
        "view_for_cold": {
            "first_ms": round(cold[0] * 1000, 2) if cold else None,
            **summary_ms(cold),
        },
        "peak_rss_mib_before": rss_before,
        "peak_rss_mib": peak_rss_mib(),
    }


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--races", type=int, default=1000, help="races played (0: skip)")
    parser.add_argument("--turns", type=int, default=3, help="turns per race, 0: to the finish")
    parser.add_argument("--laps", type=int, default=3)
    parser.add_argument(
        "--ai",
        choices=("cheap", "random", "greedy", "strategic"),
        default="cheap",
        help="how AI seats choose: a cheap seeded pick, or an engine policy",
    )
    parser.add_argument(
        "--no-ai-seats", dest="ai_seats", action="store_false", help="human seats only"
    )
    parser.add_argument("--concurrency", type=int, default=64, help="service calls in flight")
    parser.add_argument(
        "--rate", type=float, default=0, help="player confirms per second (0: unpaced)"
    )
    parser.add_argument("--render-sample", type=int, default=300, help="resolved turns rendered")
    parser.add_argument(
        "--announce",
        action="store_true",
        help="also render every resolved turn during play, as the bot's announcer does",
    )
    parser.add_argument("--resume-races", type=int, default=10_000, help="stored races (0: skip)")
    parser.add_argument("--resume-templates", type=int, default=200)
    parser.add_argument("--cold-views", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", type=Path, help="a directory for the files (default: temp)")
    parser.add_argument("--profile", help="write a cProfile of the play phase to this file")
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="play as one process of two (shard 0 of 2): tables are read anew on every call",
    )
    return parser.parse_args(argv)


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"seed": args.seed, "database_folder": str(folder)}
    if args.races:
        out["play"] = await play_phase(args, folder / "play.db")
    if args.resume_races:
        out["resume"] = await resume_phase(args, folder / "resume.db")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(argv)
    if args.database is not None:
        args.database.mkdir(parents=True, exist_ok=True)
        for name in ("play.db", "resume.db"):
            for suffix in ("", "-wal", "-shm"):
                (args.database / f"{name}{suffix}").unlink(missing_ok=True)
        result = asyncio.run(run(args, args.database))
    else:
        with tempfile.TemporaryDirectory(prefix="circus-bench-") as folder:
            result = asyncio.run(run(args, Path(folder)))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
