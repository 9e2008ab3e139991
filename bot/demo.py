"""``python -m bot demo``: the web pages without Discord. A few short games of every game
are played by AI seats into a database (a temporary file unless ``--database`` keeps it),
published as the page of a server of their own, and served at once; the address is
printed. The same seed plays the same games.

The demo's server is not a Discord server: its id (:data:`DEMO_GUILD_ID`) is far below
any id Discord gives, and so are its channel's and its players'. Its games are published
through the same rules as every server's (a page turned on, its channel public), so
nothing about real servers' pages changes. Run again on a kept database, the demo serves
the games it played there before.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.config import EXIT_SETTINGS, Settings, SettingsError
from bot.games import GAMES, host_for
from bot.service import Table, TableService, TableSettings
from bot.storage import StorageError, shown
from bot.text import t
from bot.web.publish import Publishing, WebPage
from engine.core import MAX_SEED, Rng

DEMO_GUILD_ID = 1
"""The demo's server: Discord's ids are snowflakes above 2^22, so none is 1."""
DEMO_CHANNEL_ID = 1
DEMO_NAME = "Circus demo"
EXIT_INTERRUPTED = 130
"""What a shell reports for a program stopped by Ctrl-C."""
PLAYERS = ((11, "Ada"), (12, "Bea"))
"""The demo's members (ids no Discord member has), each seat played by the AI for them."""
AI_LEVEL = "random"
"""The demo's AI: the quickest to move, so the demo is ready in seconds."""
FINISHED, RUNNING = 2, 1
"""Games of each kind played to the end, and left running."""
RUNNING_MOVES = 4
"""The moves of its players a running game has when the page opens."""
MOVES_AT_MOST = 5000


@dataclass(frozen=True)
class Demo:
    """What the demo played and where it is published."""

    page: WebPage
    tables: tuple[Table, ...]

    def count(self, status: str) -> int:
        return sum(table.status == status for table in self.tables)


def seats_for(game: str) -> int:
    """Three seats where the game takes three (two players and an AI seat), else its
    nearest."""
    host = host_for(game)
    return max(host.min_seats, min(3, host.max_seats))


def seeds_from(seed: int) -> Callable[[int], int]:
    """The seed of the demo's n-th table, from the demo's seed."""
    return lambda number: Rng(seed, number).next64() & MAX_SEED


async def play_demo(service: TableService, seed: int, locale: str) -> Demo:
    """The demo's games, played into ``service``'s database and published (or those it
    played there before)."""
    publishing = Publishing(service.storage)
    page = await publishing.page_of(DEMO_GUILD_ID)
    if page is not None:
        return Demo(page, tuple(await demo_tables(service)))
    page = await publishing.turn_on(DEMO_GUILD_ID, DEMO_NAME, locale, service.clock.now())
    await publishing.set_public_channels(DEMO_GUILD_ID, [DEMO_CHANNEL_ID])
    tables = []
    number = 0
    for game in GAMES:
        for kind in [None] * FINISHED + [RUNNING_MOVES] * RUNNING:
            number += 1
            table = await open_game(service, game, locale)
            tables.append(await play(service, table.id, Rng(seed, number), moves=kind))
            await nothing_to_post(service, table.id)
    return Demo(page, tuple(tables))


async def nothing_to_post(service: TableService, table_id: int) -> None:
    """The demo's games are posted nowhere: a bot later started on the same database has
    no announcement of theirs to deliver."""
    for announcement in await service.announcements(table_id):
        await service.announced(announcement, None)


async def demo_tables(service: TableService) -> list[Table]:
    rows = await service.storage.read(
        "SELECT id FROM game_tables WHERE guild_id = ? ORDER BY id", (DEMO_GUILD_ID,)
    )
    return [await service.table(int(row[0])) for row in rows]


async def open_game(service: TableService, game: str, locale: str) -> Table:
    """A started table of the demo's players and an AI seat, in the demo's channel."""
    (host_id, host_name), *others = PLAYERS
    seats = seats_for(game)
    table = await service.open_lobby(
        game=game,
        host_id=host_id,
        host_name=host_name,
        settings=TableSettings(
            seats=seats,
            turn_seconds=None,
            ai_level=AI_LEVEL,
            options=dict(host_for(game).demo_options),
        ),
        guild_id=DEMO_GUILD_ID,
        channel_id=DEMO_CHANNEL_ID,
        locale=locale,
    )
    for user_id, name in others[: seats - 1]:
        table = await service.join(table.id, user_id, name)
    while len(table.seats) < seats:
        table = await service.add_ai(table.id, host_id, AI_LEVEL)
    await service.start(table.id, host_id)
    await service.play_ai_seats(table.id)
    return await service.table(table.id)


async def play(service: TableService, table_id: int, rng: Rng, *, moves: int | None) -> Table:
    """The players' moves, chosen by the AI for them, to the end of the game (or until
    ``moves`` are stored)."""
    made = 0
    for _ in range(MOVES_AT_MOST):
        table = await service.table(table_id)
        if table.status != "running" or (moves is not None and made >= moves):
            return table
        waiting = table.waiting_humans()
        if not waiting:
            await service.play_ai_seats(table_id)
            continue
        user_id = waiting[0].user_id
        assert user_id is not None
        _, seat_view = await service.view_for(table_id, user_id)
        action = host_for(table.game).ai_action(AI_LEVEL, seat_view, rng)
        await service.submit(table_id, user_id, action, seat_view.turn)
        made += 1
        await service.play_ai_seats(table_id)
    raise RuntimeError(f"the demo's game {table_id} did not end in {MOVES_AT_MOST} moves")


# --------------------------------------------------------------------------- the command


@contextlib.contextmanager
def database_of(args: argparse.Namespace) -> Iterator[str]:
    """The demo's database: ``--database``, or a file in a folder removed afterwards."""
    if args.database is not None:
        yield args.database
        return
    with tempfile.TemporaryDirectory(prefix="circus-demo-") as folder:
        yield str(Path(folder) / "demo.db")


async def prepare(database: str, seed: int, locale: str) -> Demo:
    service = await TableService.create(database, seeds=counted(seeds_from(seed)))
    try:
        return await play_demo(service, seed, locale)
    finally:
        await service.close()


def counted(seeds: Callable[[int], int]) -> Callable[[], int]:
    """``seeds(1)``, ``seeds(2)``… one per call: each table's seed in turn."""
    numbers = iter(range(1, sys.maxsize))
    return lambda: seeds(next(numbers))


def announce(demo: Demo, where: str, seed: int, out: TextIO) -> Callable[[str], None]:
    """What the demo prints once its page is served: what it holds, and the address."""

    def served(base: str) -> None:
        games = ", ".join(t(demo.page.locale or "en", f"game.{game}") for game in GAMES)
        out.write(
            f"circus demo: {demo.count('finished')} finished and {demo.count('running')}"
            f" running games ({games}), seed {seed}, in {where}\n"
            f"Open {base}/s/{demo.page.slug} (Ctrl-C stops)\n"
        )
        out.flush()

    return served


def run(args: argparse.Namespace, settings: Settings, out: TextIO = sys.stdout) -> int:
    """``python -m bot demo``: play, publish, serve until stopped."""
    from bot.web.app import run as run_web

    with database_of(args) as database:
        try:
            settings = settings.with_database(database)
        except SettingsError as error:
            print(f"circus: {error}", file=sys.stderr)
            return EXIT_SETTINGS
        if args.host is not None:
            settings = dataclasses.replace(settings, web_host=args.host)
        if args.port is not None:
            settings = dataclasses.replace(settings, web_port=args.port)
        try:
            demo = asyncio.run(prepare(database, args.seed, args.locale))
        except StorageError as error:
            print(f"circus: {error}", file=sys.stderr)
            return EXIT_SETTINGS
        except KeyboardInterrupt:
            print("circus demo: stopped before its page was served", file=sys.stderr)
            return EXIT_INTERRUPTED
        kept = shown(database) if args.database else "a temporary file"
        return run_web(settings, on_serving=announce(demo, kept, args.seed, out))


__all__ = [
    "DEMO_CHANNEL_ID",
    "DEMO_GUILD_ID",
    "Demo",
    "play_demo",
    "run",
]
