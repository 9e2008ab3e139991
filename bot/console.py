"""The console front end: ``python -m bot local`` plays a race in the terminal against AI
seats, through the same service, storage and renderers as Discord, so a race can be
played and a bug reproduced with no Discord at all.

Moves are typed in the text form of :mod:`bot.games.charioteer.drafts` (``R5 1 2 crowd t1``,
``reset 3``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from bot.games.charioteer import AI_LEVELS
from bot.games.charioteer.drafts import DraftError, parse_move_text
from bot.service import (
    ChooseAction,
    ServiceError,
    Table,
    TableService,
    TableSettings,
    Update,
)
from bot.text import t
from engine.charioteer.render import board_text, hand_text, preview_text, reveal_text, rule_text
from engine.core import EngineError, public_events

PLAYER_ID = 1
PLAYER_NAME = "you"
MOVE_SAMPLES = 12


def strip_fences(text: str) -> str:
    """Board text without the Markdown code fences Discord needs."""
    lines = [line for line in text.splitlines() if not line.startswith("```")]
    return "\n".join(lines)


class Console:
    """One race in a terminal: read a line, answer, until the podium."""

    def __init__(
        self,
        service: TableService,
        lines: Iterator[str],
        out: TextIO,
        *,
        locale: str = "en",
    ) -> None:
        self.service = service
        self.lines = lines
        self.out = out
        self.locale = locale

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        try:
            return next(self.lines)
        except StopIteration:
            return None

    async def run(self, seats: int, level: str, laps: int) -> int:
        settings = TableSettings(seats=seats, turn_seconds=None, options={"laps": laps})
        table = await self.service.open_lobby(
            game="charioteer",
            host_id=PLAYER_ID,
            host_name=PLAYER_NAME,
            settings=settings,
            locale=self.locale,
        )
        for _ in range(seats - 1):
            await self.service.add_ai(table.id, PLAYER_ID, level)
        await self.service.start(table.id, PLAYER_ID)
        await self.service.play_ai_seats(table.id)
        self.say(t(self.locale, "console.welcome", count=laps, opponents=seats - 1, level=level))
        await self.show_board(table.id)
        while True:
            table = await self.service.table(table.id)
            if table.status != "running":
                break
            line = self.ask(t(self.locale, "console.prompt"))
            if line is None or line.strip().lower() in ("quit", "exit", "q"):
                self.say(t(self.locale, "console.bye"))
                return 0
            await self.handle(table.id, line.strip())
        await self.show_podium(table.id)
        return 0

    async def handle(self, race_id: int, line: str) -> None:
        word = line.lower()
        if not word:
            return
        if word in ("help", "?"):
            self.say(t(self.locale, "console.help"))
        elif word in ("board", "b"):
            await self.show_board(race_id)
        elif word in ("hand", "h"):
            await self.show_hand(race_id)
        elif word in ("moves", "m"):
            await self.show_moves(race_id)
        else:
            await self.play(race_id, line)

    async def play(self, race_id: int, line: str) -> None:
        _, seat_view = await self.service.view_for(race_id, PLAYER_ID)
        try:
            draft = parse_move_text(line, len(seat_view.hand), len(seat_view.tokens))
            move = draft.to_move(seat_view.tokens)
        except DraftError as error:
            self.say(t(self.locale, error.key, **error.params))
            return
        try:
            seat_view.analyse(move)
        except EngineError as error:
            self.say(t(self.locale, "error.illegal_move", reason=rule_text(error, self.locale)))
            return
        self.say(preview_text(seat_view, move, locale=self.locale))
        try:
            update = await self.service.submit(race_id, PLAYER_ID, move, seat_view.turn)
        except ServiceError as error:
            self.say(t(self.locale, error.key, **error.params))
            return
        updates = [update, *await self.service.play_ai_seats(race_id)]
        await self.announce(race_id, updates)

    async def announce(self, race_id: int, updates: Sequence[Update]) -> None:
        """Print what was resolved, then mark the race's announcements posted."""
        for update in updates:
            for report in update.turns:
                names = self.names(update.table)
                story = reveal_text(
                    public_events(report.events), report.view, names=names, locale=self.locale
                )
                self.say(story)
        for announcement in await self.service.announcements(race_id):
            await self.service.announced(announcement, None)
        table = await self.service.table(race_id)
        if table.status == "running" and any(update.turns for update in updates):
            await self.show_board(race_id)

    async def show_board(self, race_id: int) -> None:
        table, seat_view = await self.service.view_for(race_id, PLAYER_ID)
        self.say(strip_fences(board_text(seat_view, names=self.names(table), locale=self.locale)))
        await self.show_hand(race_id)

    @staticmethod
    def names(table: Table) -> dict[str, str]:
        """AI seats by name; the player's own chariot goes by its colour."""
        return {seat.seat: seat.name for seat in table.seats if seat.user_id != PLAYER_ID}

    async def show_hand(self, race_id: int) -> None:
        _, seat_view = await self.service.view_for(race_id, PLAYER_ID)
        self.say(hand_text(seat_view, locale=self.locale))

    async def show_moves(self, race_id: int) -> None:
        from bot.games.charioteer.drafts import Draft

        _, seat_view = await self.service.view_for(race_id, PLAYER_ID)
        moves = seat_view.legal_moves(discards=False)
        ranked = sorted(moves, key=lambda move: -seat_view.analyse(move).card_distance)
        self.say(t(self.locale, "console.moves_header", count=len(moves)))
        for move in ranked[:MOVE_SAMPLES]:
            preview = preview_text(seat_view, move, locale=self.locale)
            self.say(f"  {Draft.from_move(move).text():<22} {preview}")

    async def show_podium(self, race_id: int) -> None:
        table = await self.service.table(race_id)
        if table.status == "abandoned":
            self.say(t(self.locale, "console.abandoned"))
            return
        for row in await self.service.storage.results(race_id):
            self.say(t(self.locale, "podium.line", place=row.place, name=row.name, seat=row.seat))


async def run_console(
    args: argparse.Namespace,
    lines: Iterator[str],
    out: TextIO,
    *,
    seeds: Callable[[], int] | None = None,
    choose_action: ChooseAction | None = None,
) -> int:
    database = args.database
    with tempfile.TemporaryDirectory(prefix="circus-") as folder:
        path = Path(database) if database else Path(folder) / "local.db"
        service = await TableService.create(str(path), seeds=seeds, choose_action=choose_action)
        try:
            return await Console(service, lines, out).run(args.seats, args.level, args.laps)
        finally:
            await service.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=("charioteer", "cartographers"), default="charioteer")
    parser.add_argument("--seats", type=int, default=4, help="2 to 6 chariots, yours included")
    parser.add_argument(
        "--level", choices=AI_LEVELS, default="strategic", help="the AI seats' level"
    )
    parser.add_argument("--laps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None, help="replay the same deal")
    parser.add_argument("--side", choices=("A", "B"), default="A", help="Cartographers map side")
    parser.add_argument("--database", default=None, help="keep the race in this SQLite file")


def main(argv: Sequence[str], stdin: TextIO, out: TextIO) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot local", description="Play in the terminal."
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    lines = (line.rstrip("\n") for line in stdin)
    if args.game == "cartographers":
        from engine.cartographers.terminal import play

        return play(lines, out, seed=args.seed or 0, side=args.side)
    seeds = None if args.seed is None else (lambda: int(args.seed))
    return asyncio.run(run_console(args, lines, out, seeds=seeds))
