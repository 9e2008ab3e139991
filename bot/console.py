"""The console front end: ``python -m bot local`` plays a game in the terminal, so a game
can be played and a bug reproduced with no Discord at all.

What is shared by every game lives at the top: the options (checked before anything
starts: one clear line and exit status 2 for a wrong one, an unknown ``--locale``
included), one Ctrl-C that stops cleanly,
and the yes/no questions. Each game then has its own part: :class:`CharioteerConsole`
races against AI seats through the same service, storage and renderers as Discord (moves
typed in the text form of :mod:`bot.games.charioteer.drafts`: ``R5 1 2 crowd t1``, ``reset 3``), and
:func:`run_cartographers` runs the solo Cartographers game of
:mod:`engine.cartographers.terminal`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import re
import secrets
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import NoReturn, TextIO

from bot.games.charioteer import AI_LEVELS
from bot.games.charioteer.drafts import Draft, DraftError, parse_move_text
from bot.service import (
    ChooseAction,
    ServiceError,
    Table,
    TableService,
    TableSettings,
    Update,
)
from bot.storage import StorageError, shown
from bot.text import t
from engine.cartographers.messages import catalogue as cartographers_catalogue
from engine.charioteer import Move
from engine.charioteer.render import (
    board_text,
    hand_text,
    move_distance,
    preview_text,
    reveal_text,
    rule_text,
)
from engine.charioteer.render.common import catalogue as charioteer_catalogue
from engine.charioteer.render.common import chariot_name, say
from engine.charioteer.state import MAX_LAPS, SEAT_NAMES
from engine.charioteer.view import SeatView
from engine.core import MAX_SEED, EngineError, public_events
from engine.jsonio import locale_option

LOCALES = tuple(
    sorted(set(charioteer_catalogue().locales) & set(cartographers_catalogue().locales))
)
"""The languages both games speak (``--locale``)."""
PLAYER_ID = 1
PLAYER_NAME = "you"
MOVE_SAMPLES = 12
EXIT_OPTIONS = 2
EXIT_INTERRUPTED = 130
"""What a shell reports for a program stopped by Ctrl-C."""
YES = frozenset({"", "y", "yes", "s", "si", "sí"})
"""Yes in English, Spanish and Italian (Enter too)."""
NO = frozenset({"n", "no"})
QUIT_WORDS = frozenset({"quit", "exit", "q"})
MARKDOWN = re.compile(r"\*\*|`")
ESCAPED = re.compile(r"\\(.)")


class OptionError(ValueError):
    """A command-line option is wrong; the message is one sentence."""


class LocalParser(argparse.ArgumentParser):
    """Refuses a wrong option in one line instead of a usage block."""

    def error(self, message: str) -> NoReturn:
        raise OptionError(message)


def strip_fences(text: str) -> str:
    """Board text without the Markdown code fences Discord needs."""
    lines = [line for line in text.splitlines() if not line.startswith("```")]
    return "\n".join(lines)


def plain(text: str) -> str:
    """Catalogue text without the Markdown a terminal would print literally."""
    return ESCAPED.sub(r"\1", MARKDOWN.sub("", text))


class Terminal:
    """Lines in, text out, and the questions every game asks."""

    def __init__(self, lines: Iterator[str], out: TextIO) -> None:
        self.lines = lines
        self.out = out

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        """The next line typed (``None`` when the input is over)."""
        self.out.write(prompt)
        self.out.flush()
        return next(self.lines, None)

    def confirm(self, prompt: str) -> bool | None:
        """Yes (Enter too), no, or ``None`` for anything else (or the end of input)."""
        answer = self.ask(prompt)
        if answer is None:
            return None
        word = answer.strip().lower()
        if word in YES:
            return True
        if word in NO:
            return False
        return None


# --------------------------------------------------------------------------- Charioteer


class CharioteerConsole:
    """One race in a terminal: read a line, answer, until the podium."""

    def __init__(
        self,
        service: TableService,
        terminal: Terminal,
        *,
        locale: str = "en",
        kept_in: str | None = None,
    ) -> None:
        self.service = service
        self.terminal = terminal
        self.locale = locale
        self.kept_in = kept_in
        """Where the race stays, as shown (``None``: a temporary database)."""

    def say(self, text: str = "") -> None:
        self.terminal.say(text)

    def text(self, key: str, **params: object) -> str:
        return t(self.locale, key, **params)

    async def run(self, seats: int, level: str, laps: int) -> int:
        table_id = await self.resume()
        if table_id is None:
            table_id = await self.start(seats, level, laps)
        await self.show_board(table_id)
        while True:
            table = await self.service.table(table_id)
            if table.status != "running":
                break
            line = self.terminal.ask(self.text("console.prompt"))
            if line is None:
                self.say(self.text("console.input_over"))
                self.say(self.left_text())
                return 0
            if line.strip().lower() in QUIT_WORDS:
                if await self.quit(table_id):
                    return 0
                continue
            await self.handle(table_id, line.strip())
        await self.show_end(table_id)
        return 0

    async def start(self, seats: int, level: str, laps: int) -> int:
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
        self.say(
            plain(
                self.text(
                    "console.welcome",
                    count=laps,
                    opponents=seats - 1,
                    level=self.text(f"ai.{level}"),
                    you=self.names(await self.service.table(table.id))[SEAT_NAMES[0]],
                )
            )
        )
        self.say(plain(self.text("console.seed", seed=table.row.seed)))
        return table.id

    async def resume(self) -> int | None:
        """The unfinished race the database holds, if any: it goes on where it stopped."""
        if self.kept_in is None:
            return None
        for row in await self.service.storage.active_tables_of_user(PLAYER_ID):
            if row.status == "running":
                _, seat_view = await self.service.view_for(row.id, PLAYER_ID)
                self.say(self.text("console.resumed", race=row.id, turn=seat_view.turn))
                return row.id
        return None

    async def quit(self, table_id: int) -> bool:
        """Ask before leaving; a race in a temporary database is lost, so it is abandoned."""
        question = "console.quit_kept" if self.kept_in else "console.quit_lost"
        if not self.terminal.confirm(self.text(question, file=self.kept_in)):
            self.say(self.text("console.quit_cancelled"))
            return False
        if self.kept_in is None:
            await self.service.abandon(table_id, PLAYER_ID)
        self.say(self.left_text())
        return True

    def left_text(self) -> str:
        if self.kept_in is None:
            return self.text("console.bye")
        return self.text("console.bye_kept", file=self.kept_in)

    async def handle(self, table_id: int, line: str) -> None:
        word = line.lower()
        if not word:
            return
        if word in ("help", "?"):
            self.say(plain(self.text("console.help")))
        elif word in ("rules", "r"):
            self.say(plain(self.text("rules.card")))
        elif word in ("board", "b"):
            await self.show_board(table_id)
        elif word in ("hand", "h"):
            await self.show_hand(table_id)
        elif word in ("moves", "m"):
            await self.show_moves(table_id)
        else:
            await self.play(table_id, line)

    async def play(self, table_id: int, line: str) -> None:
        """Read the move, show what it would do, and play it once confirmed."""
        _, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        try:
            draft = parse_move_text(line, len(seat_view.hand), len(seat_view.tokens))
            move = draft.to_move(seat_view.tokens)
        except DraftError as error:
            self.say(self.text(error.key, **error.params))
            return
        try:
            seat_view.analyse(move)
        except EngineError as error:
            self.say(self.text("error.illegal_move", reason=rule_text(error, self.locale)))
            return
        self.say(
            f"{Draft.from_move(move).text()}: {preview_text(seat_view, move, locale=self.locale)}"
        )
        spent = spent_text(seat_view, move, self.locale)
        if spent:
            self.say(spent)
        if not self.terminal.confirm(self.text("console.confirm")):
            self.say(self.text("console.not_played"))
            return
        try:
            update = await self.service.submit(table_id, PLAYER_ID, move, seat_view.turn)
        except ServiceError as error:
            self.say(self.text(error.key, **error.params))
            return
        updates = [update, *await self.service.play_ai_seats(table_id)]
        await self.announce(table_id, updates)

    async def announce(self, table_id: int, updates: Sequence[Update]) -> None:
        """Print what was resolved, then mark the race's announcements posted."""
        for update in updates:
            for report in update.turns:
                names = self.names(update.table)
                story = reveal_text(
                    public_events(report.events), report.view, names=names, locale=self.locale
                )
                self.say(plain(story))
        for announcement in await self.service.announcements(table_id):
            await self.service.announced(announcement, None)
        table = await self.service.table(table_id)
        if table.status == "running" and any(update.turns for update in updates):
            await self.show_board(table_id)

    async def show_board(self, table_id: int) -> None:
        table, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        self.say(strip_fences(board_text(seat_view, names=self.names(table), locale=self.locale)))
        if table.status == "running":
            await self.show_hand(table_id)

    def names(self, table: Table) -> dict[str, str]:
        """One name per chariot, used everywhere: its colour, then who drives it
        ("Red (you)", "Blue AI")."""
        names = {}
        for seat in table.seats:
            colour = chariot_name(seat.seat, self.locale)
            key = "console.name_you" if seat.user_id == PLAYER_ID else "console.name_ai"
            names[seat.seat] = self.text(key, colour=colour, seat=seat.seat)
        return names

    async def show_hand(self, table_id: int) -> None:
        _, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        self.say(hand_text(seat_view, locale=self.locale))

    async def show_moves(self, table_id: int) -> None:
        _, seat_view = await self.service.view_for(table_id, PLAYER_ID)
        ranked = ranked_moves(seat_view)
        self.say(self.text("console.moves_header", count=len(ranked)))
        for move in ranked[:MOVE_SAMPLES]:
            preview = preview_text(seat_view, move, locale=self.locale)
            spent = spent_text(seat_view, move, self.locale)
            self.say(f"  {Draft.from_move(move).text():<22} {preview}")
            if spent:
                self.say(f"  {'':<22} {spent}")

    async def show_end(self, table_id: int) -> None:
        """The final board, then the podium (or the word that the race was abandoned)."""
        table = await self.service.table(table_id)
        if table.status == "abandoned":
            self.say(self.text("console.abandoned"))
            return
        await self.show_board(table_id)
        names = self.names(table)
        for row in await self.service.storage.results(table_id):
            self.say(self.text("console.podium_line", place=row.place, name=names[row.seat]))


def spent_text(view: SeatView, move: Move, locale: str) -> str:
    """What the move uses up besides its cards: the crowd card, tokens (by number)."""
    parts = []
    if move.crowd:
        parts.append(t(locale, "console.spends_crowd"))
    for index in (move.token, move.discard_token):
        if index is not None:
            parts.append(
                t(locale, "console.spends_token", number=index + 1, token=str(view.tokens[index]))
            )
    if not parts:
        return ""
    return t(locale, "console.spends", items=", ".join(parts))


def ranked_moves(view: SeatView) -> list[Move]:
    """Legal moves (no discards) by the real distance — cards, token, skill bonus and
    damage — longest first, fewer tokens spent first on a tie. A move that spends a token
    for nothing (its preview is the same without the token) is left out."""
    moves = view.legal_moves(discards=False)
    legal = set(moves)
    idle_whip = say("en", "preview.separator") + say("en", "preview.whip_turn1")
    kept = []
    for move in moves:
        if move.token is not None:
            bare = dataclasses.replace(move, token=None, wild=None)
            same = preview_text(view, move).replace(idle_whip, "") == preview_text(view, bare)
            if bare in legal and same:
                continue
        kept.append(move)

    def key(move: Move) -> tuple[int, int, int, int]:
        play = view.analyse(move)
        spends = (move.token is not None) + move.crowd
        return (-move_distance(view, play), spends, -play.attack_cubes, len(move.cards))

    return sorted(kept, key=key)


async def run_console(
    args: argparse.Namespace,
    lines: Iterator[str],
    out: TextIO,
    *,
    seeds: Callable[[], int] | None = None,
    choose_action: ChooseAction | None = None,
) -> int:
    database = args.database
    if seeds is None and args.seed is not None:
        seed = int(args.seed)
        seeds = lambda: seed  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="circus-") as folder:
        where = database or str(Path(folder) / "local.db")
        service = await TableService.create(where, seeds=seeds, choose_action=choose_action)
        try:
            console = CharioteerConsole(
                service,
                Terminal(lines, out),
                locale=args.locale,
                kept_in=shown(database) if database else None,
            )
            return await console.run(args.seats, args.level, args.laps)
        finally:
            await service.close()


# --------------------------------------------------------------------------- Cartographers


def run_cartographers(args: argparse.Namespace, lines: Iterator[str], out: TextIO) -> int:
    """The solo game of :mod:`engine.cartographers.terminal`, from a random seed unless one
    is given (the welcome line prints it, so a game can be played again)."""
    from engine.cartographers.terminal import play

    seed = args.seed if args.seed is not None else secrets.randbelow(MAX_SEED + 1)
    return play(lines, out, seed=seed, side=args.side, lang=args.locale)


# --------------------------------------------------------------------------- options


def whole(text: str) -> int:
    """A whole number in ASCII digits; one too long for any option reads as out of range."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(t("en", "console.not_whole", text=repr(text)))
    if len(digits) > 19:
        return -1 if text.startswith("-") else MAX_SEED + 1
    return int(text)


def add_arguments(parser: argparse.ArgumentParser, locale: str = "en") -> None:
    parser.add_argument("--game", choices=("charioteer", "cartographers"), default="charioteer")
    parser.add_argument(
        "--seats", type=whole, default=4, help=t(locale, "console.option.seats", high=6)
    )
    parser.add_argument(
        "--level", choices=AI_LEVELS, default="strategic", help=t(locale, "console.option.level")
    )
    parser.add_argument(
        "--locale",
        type=locale_option(LOCALES),
        default="en",
        help=t(locale, "console.option.locale", locales=", ".join(LOCALES)),
    )
    parser.add_argument(
        "--laps", type=whole, default=3, help=t(locale, "console.option.laps", high=MAX_LAPS)
    )
    parser.add_argument("--seed", type=whole, default=None, help=t(locale, "console.option.seed"))
    parser.add_argument(
        "--side", choices=("A", "B"), default="A", help=t(locale, "console.option.side")
    )
    parser.add_argument("--database", default=None, help=t(locale, "console.option.database"))


def check_options(args: argparse.Namespace) -> None:
    """The options' values, with the sentences players read on Discord."""
    if not 2 <= args.seats <= len(SEAT_NAMES):
        raise OptionError(t(args.locale, "error.bad_seats", low=2, high=len(SEAT_NAMES)))
    if not 1 <= args.laps <= MAX_LAPS:
        raise OptionError(t(args.locale, "console.bad_laps", high=MAX_LAPS))
    if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
        raise OptionError(t(args.locale, "console.bad_seed", high=MAX_SEED))
    if args.database is not None and Path(args.database).is_dir():
        raise OptionError(t(args.locale, "console.database_folder", file=args.database))


def build_parser(locale: str = "en") -> LocalParser:
    parser = LocalParser(prog="python -m bot local", description=t(locale, "console.about"))
    add_arguments(parser, locale)
    return parser


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def one_ctrl_c() -> Iterator[None]:
    """Ctrl-C raises at once, wherever the program waits (asyncio otherwise only cancels
    its task, which a blocking read of the terminal never notices)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def main(argv: Sequence[str], stdin: TextIO, out: TextIO, err: TextIO | None = None) -> int:
    errors = err if err is not None else sys.stderr
    try:
        args = build_parser().parse_args(argv)
        check_options(args)
    except OptionError as error:
        errors.write(f"python -m bot local: {error}\n")
        return EXIT_OPTIONS
    lines = (line.rstrip("\n") for line in stdin)
    with one_ctrl_c():
        try:
            if args.game == "cartographers":
                return run_cartographers(args, lines, out)
            return asyncio.run(run_console(args, lines, out))
        except KeyboardInterrupt:
            key = "console.interrupted_kept" if args.database else "console.interrupted"
            kept = shown(args.database) if args.database else None
            out.write("\n" + t(args.locale, key, file=kept) + "\n")
            return EXIT_INTERRUPTED
        except StorageError as error:
            errors.write(f"python -m bot local: {error}\n")
            return EXIT_OPTIONS
