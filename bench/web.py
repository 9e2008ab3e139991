"""The web pages under load: requests per second and the 99th percentile of the answer time
for a finished game's page and a leaderboard page, over a database of 10,000 stored games
played by 2,000 members, against a static file served by the same server
(``python -m bot web`` in a process of its own, on loopback), with the ratios.

A few games are played through the service; the rest are copies of their rows (tables,
seats, actions, results), each copy's members drawn among ``--players``. The page rates
the games itself (:mod:`bot.web.public_ratings`), once, before the requests are timed
(the first request warms the caches); ``rating_seconds`` is how long that first
leaderboard took. Prints JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.service import TableService  # noqa: E402
from bot.web.publish import Publishing  # noqa: E402
from tests.bot.web.games import Setting, open_game, play  # noqa: E402

GUILD, CHANNEL = 1, 2
PLAYED = 12
COPIED_COLUMNS = (
    "game, guild_id, channel_id, thread_id, host_id, status, settings, seed, setup, state,"
    " seq, turn, waiting, deadline, reminders, locale, created_at, updated_at"
)


async def make_database(path: str, games: int, players: int) -> tuple[str, int]:
    """The database, its page's slug and a finished game's number."""
    service = await TableService.create(path)
    try:
        page = await Publishing(service.storage).turn_on(GUILD, "Bench", "en", time.time())
        await Publishing(service.storage).set_public_channels(GUILD, [CHANNEL])
        played = []
        for seed in range(PLAYED):
            table = await open_game(
                service, "charioteer", Setting(GUILD, CHANNEL), options={"laps": 1}
            )
            played.append((await play(service, table.id, seed)).id)
    finally:
        await service.close()
    import sqlite3

    db = sqlite3.connect(path)
    rng = random.Random(1)
    with db:
        for copy in range(games - PLAYED):
            source = played[copy % len(played)]
            cursor = db.execute(
                f"INSERT INTO game_tables ({COPIED_COLUMNS}) SELECT {COPIED_COLUMNS}"
                " FROM game_tables WHERE id = ?",
                (source,),
            )
            new = cursor.lastrowid
            db.execute(
                "INSERT INTO seats SELECT ?, seat, user_id, name, ai_level, joined_at"
                " FROM seats WHERE table_id = ?",
                (new, source),
            )
            db.execute(
                "INSERT INTO actions SELECT ?, seq, seat, kind, data, chance, by_user, source,"
                " at FROM actions WHERE table_id = ?",
                (new, source),
            )
            copy_results(db, source, new, rng, players)
    finished = db.execute(
        "SELECT id FROM game_tables WHERE status = 'finished' ORDER BY id DESC LIMIT 1"
    ).fetchone()[0]
    count = db.execute("SELECT COUNT(*) FROM game_tables").fetchone()[0]
    db.close()
    assert count >= games
    return page.slug, int(finished)


def copy_results(db: Any, source: int, table_id: int, rng: random.Random, players: int) -> None:
    """The results of game ``source`` as game ``table_id``'s, its members' seats held by
    members drawn among ``players`` (so the leaderboard ranks them all)."""
    rows = db.execute(
        "SELECT seat, user_id, name, place, turns, finished_at, team FROM results"
        " WHERE table_id = ?",
        (source,),
    ).fetchall()
    members = sum(row[1] is not None for row in rows)
    drawn = rng.sample(range(players), min(members, players))
    for seat, user_id, name, place, turns, finished_at, team in rows:
        if user_id is not None and drawn:
            number = drawn.pop()
            user_id, name = 10**17 + number, f"player {number}"
        db.execute(
            "INSERT INTO results (table_id, seat, user_id, name, place, turns, finished_at,"
            " team) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, seat, user_id, name, place, turns, finished_at, team),
        )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def hammer(url: str, requests: int, concurrency: int) -> dict[str, float]:
    """``requests`` GETs of ``url`` from ``concurrency`` clients at once."""
    times: list[float] = []
    left = requests

    async def client(session: aiohttp.ClientSession) -> None:
        nonlocal left
        while left > 0:
            left -= 1
            started = time.perf_counter()
            async with session.get(url) as answer:
                await answer.read()
                assert answer.status == 200, (url, answer.status)
            times.append(time.perf_counter() - started)

    async with aiohttp.ClientSession() as session:
        async with session.get(url) as answer:  # warm the caches
            await answer.read()
        started = time.perf_counter()
        await asyncio.gather(*(client(session) for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    times.sort()
    return {
        "requests_per_second": round(len(times) / elapsed, 1),
        "p50_ms": round(times[len(times) // 2] * 1000, 2),
        "p99_ms": round(times[int(len(times) * 0.99) - 1] * 1000, 2),
    }


async def first_answer_seconds(url: str) -> float:
    """How long the first GET of ``url`` takes (a leaderboard: the page rating its games)."""
    async with aiohttp.ClientSession() as session:
        started = time.perf_counter()
        async with session.get(url) as answer:
            await answer.read()
            assert answer.status == 200, (url, answer.status)
        return time.perf_counter() - started


async def wait_for_server(url: str) -> None:
    async with aiohttp.ClientSession() as session:
        for _ in range(200):
            try:
                async with session.get(url) as answer:
                    if answer.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the web server did not start")


async def main(args: argparse.Namespace) -> dict[str, object]:
    folder = tempfile.mkdtemp()
    path = f"{folder}/web.db"
    made = time.perf_counter()
    slug, game = await make_database(path, args.games, args.players)
    made = time.perf_counter() - made
    port = free_port()
    env = dict(os.environ, DATABASE_PATH=path, WEB_PORT=str(port), LOG_LEVEL="WARNING")
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "bot", "web"], cwd=ROOT, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        await wait_for_server(f"{base}/robots.txt")
        targets = {
            "static file": f"{base}/static/site.css",
            "game page": f"{base}/s/{slug}/g/{game}",
            "leaderboard": f"{base}/s/{slug}/leaderboard/charioteer?page=3",
        }
        rating_seconds = await first_answer_seconds(targets["leaderboard"])
        results = {
            name: await hammer(url, args.requests, args.concurrency)
            for name, url in targets.items()
        }
    finally:
        server.terminate()
        server.wait(10)
    static = results["static file"]["requests_per_second"]
    for name in ("game page", "leaderboard"):
        results[name]["ratio_to_static"] = round(results[name]["requests_per_second"] / static, 2)
    return {
        "games_stored": args.games,
        "players_rated": args.players,
        "database_seconds": round(made, 1),
        "rating_seconds": round(rating_seconds, 2),
        "requests": args.requests,
        "concurrency": args.concurrency,
        "results": results,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--requests", type=int, default=3_000)
    parser.add_argument("--concurrency", type=int, default=16)
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
