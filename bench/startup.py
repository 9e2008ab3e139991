"""The bot's start-up with many stored races: time to ready, and time to caught up.

    python bench/startup.py [--races 10000] [--templates 200] [--ai cheap|random|greedy|strategic]
                            [--channels 10] [--probe-rate 4] [--seed 1] [--folder DIR]
                            [--database-url postgresql://…]

Prints JSON. A measurement, never a test.

**The file.** ``--races`` stored races in a SQLite file, made as ``bench/service.py`` makes
its resume phase (real template races through the service, then copied row by row): most
mid-turn with everything announced, some finished or in a lobby, and 10 % owing work after
a crash: AI seats that have not played their move yet, and announcements (a reveal, a
board) not posted yet. Every race is then moved into one of ``--channels`` channels of the
fake Discord's guild, so its announcements really post.

**The start.** The fake Discord (``tests/fakediscord``) runs in this process; the bot runs as
a subprocess, exactly ``python -m bot`` on that file. Timed from the launch:
``connected_s`` (its gateway session is ready), ``first_answer_s`` (the first answer to a
live ``/race new``: from the moment the bot is connected, a new member opens a lobby
every ``1 / --probe-rate`` s, so ready means "answers players") and ``caught_up_s`` (no
AI seat owes a move and no announcement of a running race is pending, read from the file).
``live_answers`` are the times of those live ``/race new`` interactions while the catch-up
ran (from dispatch to the bot's answer), ``posted`` counts the catch-up's messages.

**PostgreSQL.** With ``--database-url`` (a server) the races are made in the SQLite file as
above, then copied row by row into a fresh schema of that server (made before, dropped
after; ``copied_rows`` per table), and the bot starts on that schema (``DATABASE_URL``);
what is owed is read from the schema.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.postgres import copy_from_sqlite, scalar
from bench.service import chooser_for, copy_races, make_templates
from bench.stats import summary_ms
from bot.storage import is_postgres_url
from tests.databases import fresh_schema
from tests.fakediscord import spec
from tests.fakediscord.harness import run_bot
from tests.fakediscord.interactions import InteractionFailed
from tests.fakediscord.server import FakeDiscord

POLL = 0.05
MESSAGES = "POST /channels/{channel_id}/messages"


OWED = {
    "races_owing_ai_moves": (
        "SELECT COUNT(DISTINCT game_tables.id) FROM game_tables"
        " JOIN seats ON seats.table_id = game_tables.id"
        " WHERE game_tables.status = 'running' AND seats.user_id IS NULL"
        " AND ',' || game_tables.waiting || ',' LIKE '%,' || seats.seat || ',%'"
    ),
    "announcements_pending": (
        "SELECT COUNT(*) FROM outbox JOIN game_tables ON game_tables.id = outbox.table_id"
        " WHERE outbox.sent_at IS NULL AND game_tables.status = 'running'"
    ),
}


async def owed(database: str, connection: asyncpg.Connection | None = None) -> dict[str, int]:
    """What the stored races still owe: AI moves and unposted announcements (on PostgreSQL
    through ``connection`` if given)."""
    if connection is not None:
        return {name: int(await connection.fetchval(sql)) for name, sql in OWED.items()}
    if is_postgres_url(database):
        return {name: await scalar(database, sql) for name, sql in OWED.items()}
    path = Path(database)
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return {name: int(db.execute(sql).fetchone()[0]) for name, sql in OWED.items()}


def move_into(path: Path, guild_id: int, channel_ids: list[int]) -> None:
    """Put every stored race in one of the fake guild's channels (no threads)."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("BEGIN")
        ids = [int(row[0]) for row in db.execute("SELECT id FROM game_tables ORDER BY id")]
        db.executemany(
            "UPDATE game_tables SET guild_id = ?, channel_id = ?, thread_id = NULL WHERE id = ?",
            [(guild_id, channel_ids[i % len(channel_ids)], race) for i, race in enumerate(ids)],
        )
        db.execute("COMMIT")


async def build(args: argparse.Namespace, path: Path) -> None:
    choose, level = chooser_for(args.ai)
    print(f"making {args.templates} template races …", file=sys.stderr)
    by_kind = await make_templates(path, args.templates, args.seed, choose, level)
    print(f"copying to {args.races} races …", file=sys.stderr)
    copy_races(path, by_kind, args.races, args.seed)


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    if args.database_url is None:
        return await run_on(args, folder, None)
    async with fresh_schema(args.database_url, "bench") as url:
        return await run_on(args, folder, url)


async def run_on(args: argparse.Namespace, folder: Path, url: str | None) -> dict[str, Any]:
    spec.validate_body = lambda operation, body: None  # as bench/load.py: the bot's are tested
    path = folder / "startup.db"
    await build(args, path)
    fake = await FakeDiscord.start()
    try:
        guild = fake.add_guild("Circus")
        channels = [guild.add_text_channel(f"races-{n}") for n in range(args.channels)]
        move_into(path, guild.id, [channel.id for channel in channels])
        copied: dict[str, int] = {}
        if url is not None:
            print("copying the races to PostgreSQL …", file=sys.stderr)
            copied = await copy_from_sqlite(path, url)
        database = str(path) if url is None else url
        before = await owed(database)
        poller = None if url is None else await asyncpg.connect(url)
        print(f"owed before the start: {before}", file=sys.stderr)
        live: list[float] = []
        failed = 0
        env = {"DATABASE_PATH" if url is None else "DATABASE_URL": database}
        env["LOG_LEVEL"] = "WARNING"
        launched = time.perf_counter()
        with contextlib.redirect_stdout(sys.stderr):
            async with run_bot(fake, "bot", env=env):
                await fake.wait_until_ready(timeout=300)
                connected = time.perf_counter() - launched
                first_answer: float | None = None
                caught_up: float | None = None
                probes: set[asyncio.Task[None]] = set()

                async def probe(number: int) -> None:
                    nonlocal first_answer, failed
                    user = guild.add_member(f"live-{number}")
                    asked = time.perf_counter()
                    interaction = await user.slash(channels[number % len(channels)], "race new")
                    try:
                        await interaction.wait_ack(timeout=10)
                    except InteractionFailed:
                        failed += 1
                        return
                    answered = time.perf_counter()
                    live.append(answered - asked)
                    if first_answer is None:
                        first_answer = answered - launched

                number = 0
                next_probe = time.perf_counter()
                while caught_up is None and time.perf_counter() - launched < args.time_limit:
                    if time.perf_counter() >= next_probe:
                        task = asyncio.create_task(probe(number))
                        probes.add(task)
                        task.add_done_callback(probes.discard)
                        number += 1
                        next_probe += 1 / args.probe_rate
                    left = await owed(database, poller)
                    if not any(left.values()):
                        caught_up = time.perf_counter() - launched
                    await asyncio.sleep(POLL)
                await asyncio.gather(*probes)
        if poller is not None:
            await poller.close()
        posted = sum(count for route, count in _routes(fake).items() if route == MESSAGES)
        return {
            "settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
            "owed_before_start": before,
            "owed_at_end": await owed(database),
            "connected_s": round(connected, 2),
            "first_answer_s": None if first_answer is None else round(first_answer, 2),
            "caught_up_s": None if caught_up is None else round(caught_up, 2),
            "live_answers": summary_ms(live),
            "live_failed": failed,
            "posted": posted,
        } | ({"copied_rows": copied} if url is not None else {})
    finally:
        await fake.close()


def _routes(fake: FakeDiscord) -> dict[str, int]:
    counts: dict[str, int] = {}
    for record in fake.requests:
        key = f"{record.method} {record.route or record.path}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--races", type=int, default=10_000)
    parser.add_argument("--templates", type=int, default=200)
    parser.add_argument("--ai", choices=("cheap", "random", "greedy", "strategic"), default="cheap")
    parser.add_argument("--channels", type=int, default=10)
    parser.add_argument("--probe-rate", type=float, default=4.0, help="live /race new per s")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", type=Path, help="where the database goes (temp)")
    parser.add_argument(
        "--database-url", help="a PostgreSQL server: the bot starts on a fresh schema of it"
    )
    args = parser.parse_args(argv)
    if args.database_url is not None and not is_postgres_url(args.database_url):
        parser.error("--database-url must be a postgresql:// URL")
    if args.folder is not None:
        args.folder.mkdir(parents=True, exist_ok=True)
        for name in ("startup.db", "startup.db-wal", "startup.db-shm"):
            (args.folder / name).unlink(missing_ok=True)
        result = asyncio.run(run(args, args.folder))
    else:
        with tempfile.TemporaryDirectory(prefix="circus-startup-") as folder:
            result = asyncio.run(run(args, Path(folder)))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
