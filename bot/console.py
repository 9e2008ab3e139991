"""The console front end: ``python -m bot local`` plays a game in the terminal against AI
seats, through the same table service, storage and renderers as Discord, so a game can be
played and a bug reproduced with no Discord at all.

What every game shares lives here: the options (checked before anything starts: one
clear line and exit status 2 for a wrong one, an option the chosen game does not use
included), the :class:`Terminal` (lines in, text out, yes/no questions, commands said in
the player's language, colours only on a real terminal, every line fitted to 80
columns without Discord's markup), one Ctrl-C that stops cleanly,
and :class:`GameConsole`, the loop each game runs: open a table with its AI seats (or
resume the one a ``--database`` keeps), read a line, answer it, until the game is over.
``quit`` and the end of the input (Ctrl-D) are one command: both ask first, and the end
of the input again stops. Each game's part lives beside its Discord panel, in
``bot/games/<game>/console.py``, and exposes ``CONSOLE``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import os
import re
import signal
import sys
import tempfile
import threading
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import ClassVar, NoReturn, TextIO

from bot.games import GAMES
from bot.service import ChooseAction, ServiceError, Table, TableService, TableSettings, Update
from bot.storage import StorageError, shown
from bot.text import t
from engine.core import MAX_SEED
from engine.i18n import display_width
from engine.jsonio import locale_option

LOCALES = ("en", "es", "it")
"""The languages every game speaks (``--locale``)."""
AI_LEVELS = ("random", "greedy", "strategic")
"""Every game's AI levels, weakest first."""
PLAYER_ID = 1
PLAYER_NAME = "you"
SCREEN_WIDTH = 80
ANSWER_ROOM = 10
"""Columns a question leaves free on its last line, for the answer typed after it."""
EXIT_OPTIONS = 2
EXIT_INTERRUPTED = 130
EXIT_READER_GONE = 141
"""What a shell reports for a program whose output pipe closed (128 + SIGPIPE): the game
was piped into a reader such as ``head`` that stopped reading."""
"""What a shell reports for a program stopped by Ctrl-C."""
YES = frozenset({"", "y", "yes", "s", "si"})
"""Yes in English, Spanish and Italian (Enter too), accents aside: "sí" and "sì" as well."""
NO = frozenset({"n", "no", "back"})
"""No in the three languages, and ``back`` (a move taken back)."""
COMMANDS = ("help", "rules", "quit")
"""The commands every game has; a game adds its own (``moves``, ``map``…)."""
SHORT_COMMANDS = {"?": "help", "q": "quit", "exit": "quit"}
MARKDOWN = re.compile(r"\*\*|`")
ESCAPED = re.compile(r"\\(.)")
TIMESTAMP = re.compile(r"<t:(\d{1,12})(?::[tTdDfFR])?>")
"""A Discord timestamp, which a terminal shows as a date and time in UTC."""
ANSI = re.compile(r"\x1b\[[0-9;]*m")
LIST_ITEM = re.compile(r"\s+\d+\s+|\s*\d+[.)]\s+|\s*[•·*-]\s+")
"""The label of a list's entry ("  1  ", "  • ", "3. "): its lines go on under its text."""
HANG = "  "
"""How much further a wrapped line's next lines start than its first (but a list entry's)."""


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
    """Catalogue text without the Markdown a terminal would print literally (bold, code,
    escapes); a Discord timestamp as a date and time in UTC."""
    text = TIMESTAMP.sub(lambda found: utc_time(int(found[1])), text)
    return ESCAPED.sub(r"\1", MARKDOWN.sub("", text))


def utc_time(stamp: int) -> str:
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC")


def columns(text: str) -> int:
    """Columns ``text`` takes on the screen (colour codes take none)."""
    return display_width(ANSI.sub("", text))


def fitted(text: str, width: int = SCREEN_WIDTH) -> str:
    """Text as the terminal shows it: without Discord's markup, and every line wider than
    the screen wrapped at its spaces (a line with none to break at stays whole)."""
    return "\n".join(piece for line in plain(text).split("\n") for piece in fit_line(line, width))


def fit_line(line: str, width: int = SCREEN_WIDTH, hang: str | None = None) -> list[str]:
    """One line in pieces of at most ``width`` columns, broken at spaces (the spaces that
    align its columns kept). The next pieces start under a list entry's text, or ``hang``,
    or two columns in from where the line starts."""
    if columns(line.rstrip(" ")) <= width:
        return [line]
    if hang is None:
        label = LIST_ITEM.match(line)
        start = label.group(0) if label else line[: len(line) - len(line.lstrip(" "))] + HANG
        hang = " " * columns(start)
    pieces: list[str] = []
    rest, floor = line, len(line) - len(line.lstrip(" "))
    while columns(rest.rstrip(" ")) > width:
        breaks = [
            index
            for index, char in enumerate(rest)
            if char == " "
            and index > floor
            and columns(rest[:index]) <= width
            and rest[index:].strip(" ")
        ]
        if not breaks or not rest[: breaks[-1]].strip():
            break
        pieces.append(rest[: breaks[-1]].rstrip())
        rest = hang + rest[breaks[-1] :].lstrip(" ")
        floor = len(hang)
    pieces.append(rest)
    return pieces


def folded(word: str) -> str:
    """A typed word as compared: lower case, accents dropped ("Sì" reads "si")."""
    decomposed = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def command_words(commands: Sequence[str], locale: str) -> dict[str, str]:
    """The words that name each command: the English word, the word of ``locale``
    (``console.word.<command>``) and the short forms."""
    words = dict(SHORT_COMMANDS)
    for command in commands:
        words[command] = command
        words[folded(t(locale, f"console.word.{command}"))] = command
    return words


class Terminal:
    """Lines in, text out, and the questions every game asks. ``colour``: the output is a
    terminal that shows ANSI colours (and ``NO_COLOR`` is not set)."""

    def __init__(self, stdin: TextIO, out: TextIO, *, colour: bool | None = None) -> None:
        self.stdin = stdin
        self.out = out
        if colour is None:
            colour = out.isatty() and not os.environ.get("NO_COLOR")
        self.colour = colour

    def say(self, text: str = "") -> None:
        """``text`` on the screen, fitted to its width (:func:`fitted`)."""
        self.out.write(fitted(text) + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        """The next line typed; ``None`` at the end of the input (Ctrl-D on a terminal,
        after which a terminal may still be read). A prompt too wide for the screen is
        wrapped, its last line left for the answer."""
        self.out.write(fitted(prompt, SCREEN_WIDTH - ANSWER_ROOM))
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            self.out.write("\n")
            return None
        return line.rstrip("\r\n")

    def paint(self, text: str, code: str) -> str:
        """``text`` in an ANSI colour or style (``"31"``, ``"1"``) on a terminal that shows
        them; the text alone otherwise."""
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text


class GameConsole(ABC):
    """One game in a terminal: a table with AI seats, played line by line to its end."""

    game: ClassVar[str]
    commands: ClassVar[tuple[str, ...]] = COMMANDS
    phrases: ClassVar[str] = "console.game"
    """The prefix of the sentences that name the table (``console.game.bye``: "Game
    abandoned"; Charioteer says "race": ``console.bye``)."""
    default_seats: ClassVar[int]
    seat_range: ClassVar[tuple[int, int]]

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
        """Where the table stays, as shown (``None``: a temporary database)."""
        self.words = command_words(self.commands, locale)
        self.noes = NO | {folded(self.text("console.word.back"))}
        """What answers no to a question: ``n``, ``no``, and ``back`` in either language."""

    # ------------------------------------------------------------------ options

    @classmethod
    def check(cls, args: argparse.Namespace) -> None:
        """The options for this game, with the sentences players read on Discord; the
        options this game does not use are refused by name. Fills in the defaults."""
        if args.seats is None:
            args.seats = cls.default_seats
        low, high = cls.seat_range
        if not low <= args.seats <= high:
            raise OptionError(cls.seats_error(args.locale, low, high))
        if args.level is not None and args.seats == 1:
            raise OptionError(t(args.locale, "console.level_alone"))
        if args.level is None:
            args.level = AI_LEVELS[-1]
        for option in ("laps", "side"):
            if getattr(args, option) is not None and option not in cls.own_options():
                raise OptionError(t(args.locale, "console.not_an_option", option=f"--{option}"))

    @classmethod
    def seats_error(cls, locale: str, low: int, high: int) -> str:
        return t(locale, "game.bad_seats", low=low, high=high)

    @classmethod
    def own_options(cls) -> tuple[str, ...]:
        """The game's own options among ``--laps`` and ``--side``."""
        return ()

    @abstractmethod
    def table_options(self, args: argparse.Namespace) -> dict[str, object]:
        """The lobby options of the table to open."""

    # ------------------------------------------------------------------ words

    def say(self, text: str = "") -> None:
        self.terminal.say(text)

    def say_item(self, label: str, text: str) -> None:
        """One entry of a list, wrapped to the screen under its label ("  1  …")."""
        hang = " " * columns(label)
        self.say("\n".join(fit_line(label + plain(text), hang=hang)))

    def text(self, key: str, **params: object) -> str:
        return t(self.locale, key, **params)

    def phrase(self, name: str, **params: object) -> str:
        """A sentence that names the table: "race" for Charioteer, "game" for the others."""
        return self.text(f"{self.phrases}.{name}", **params)

    def command(self, line: str) -> str | None:
        """The command ``line`` names (in English or the player's language), if any."""
        return self.words.get(folded(line))

    def ask(self, prompt: str) -> str | None:
        return self.terminal.ask(prompt)

    def confirm(self, prompt: str) -> bool:
        """Yes (Enter too) or no (``n``, ``back``, in English or the player's language);
        anything else asks again, saying which answers there are. The end of the input is
        a no (the question is dropped, nothing happens)."""
        while True:
            answer = self.ask(prompt)
            if answer is None:
                return False
            word = folded(answer)
            if word in YES:
                return True
            if word in self.noes:
                return False
            self.say(self.text("console.yes_or_no"))

    # ------------------------------------------------------------------ the loop

    async def run(self, args: argparse.Namespace) -> int:
        table_id = await self.resume()
        if table_id is None:
            table_id = await self.start(args)
        await self.show_turn(table_id)
        while (await self.service.table(table_id)).status == "running":
            line = self.ask(self.prompt())
            if line is None or self.command(line) == "quit":
                if await self.quit(table_id, asked=line is not None):
                    return 0
                continue
            if not line.strip():
                continue
            command = self.command(line)
            if command == "help":
                self.say(self.help_text())
            elif command == "rules":
                self.say(await self.rules_text(table_id))
            elif command is not None:
                await self.run_command(table_id, command)
            else:
                await self.play(table_id, line.strip())
        await self.show_end(table_id)
        return 0

    async def start(self, args: argparse.Namespace) -> int:
        """A table of ``args.seats`` with the player in the first seat and AI seats after."""
        settings = TableSettings(
            seats=args.seats,
            turn_seconds=None,
            ai_level=args.level,
            options=self.table_options(args),
        )
        table = await self.service.open_lobby(
            game=self.game,
            host_id=PLAYER_ID,
            host_name=PLAYER_NAME,
            settings=settings,
            locale=self.locale,
        )
        for _ in range(args.seats - 1):
            await self.service.add_ai(table.id, PLAYER_ID, args.level)
        await self.service.start(table.id, PLAYER_ID)
        updates = await self.service.play_ai_seats(table.id)
        self.say(self.welcome(await self.service.table(table.id), args))
        self.say(self.phrase("seed", seed=table.row.seed))
        await self.announce(table.id, updates)
        return table.id

    async def resume(self) -> int | None:
        """The unfinished table of this game the database holds, if any: it goes on where
        it stopped."""
        if self.kept_in is None:
            return None
        for row in await self.service.storage.active_tables_of_user(PLAYER_ID):
            if row.status == "running" and row.game == self.game:
                self.say(self.phrase("resumed", table=row.id, race=row.id, turn=row.turn))
                return row.id
        return None

    async def quit(self, table_id: int, *, asked: bool) -> bool:
        """Ask before leaving (after ``quit``, or at the end of the input); a table in a
        temporary database is lost, so it is abandoned. No answer at all (the input is
        over) stops too."""
        question = "quit_kept" if self.kept_in else "quit_lost"
        answer = self.ask(self.phrase(question, file=self.kept_in))
        if answer is not None and folded(answer) not in YES:
            self.say(self.text("console.quit_cancelled"))
            return False
        if answer is None and not asked:
            self.say(self.text("console.input_over"))
        if self.kept_in is None:
            await self.service.abandon(table_id, PLAYER_ID)
        self.say(self.left_text())
        return True

    def left_text(self) -> str:
        if self.kept_in is None:
            return self.phrase("bye")
        return self.phrase("bye_kept", file=self.kept_in)

    async def submit(self, table_id: int, move: object, stage: int) -> list[Update] | None:
        """Play ``move`` for the player, then the AI seats; None (and the reason said)
        when the service refuses it."""
        try:
            update = await self.service.submit(table_id, PLAYER_ID, move, stage)
        except ServiceError as error:
            self.say(self.refusal(error))
            return None
        return [update, *await self.service.play_ai_seats(table_id)]

    def refusal(self, error: ServiceError) -> str:
        """A refusal of the service in the player's language."""
        reason = getattr(error, "reason_in", None)
        if reason is not None:
            return self.text("error.illegal_move", reason=reason(self.locale))
        return self.text(error.key, **error.params)

    async def mark_announced(self, table_id: int) -> None:
        """The terminal has said what happened: nothing is left to post."""
        for announcement in await self.service.announcements(table_id):
            await self.service.announced(announcement, None)

    def names(self, table: Table) -> dict[str, str]:
        """One name per seat, used everywhere: its colour, then who plays it ("Red (you)",
        "Blue AI")."""
        names = {}
        for seat in table.seats:
            key = "console.name_you" if seat.user_id == PLAYER_ID else "console.name_ai"
            names[seat.seat] = self.text(key, colour=self.seat_name(seat.seat), seat=seat.seat)
        return names

    # ------------------------------------------------------------------ each game

    @abstractmethod
    def seat_name(self, seat: str) -> str:
        """A seat's colour (or number) as the game names it."""

    @abstractmethod
    def welcome(self, table: Table, args: argparse.Namespace) -> str:
        """The first line: the game, the seats, how to play."""

    def prompt(self) -> str:
        return self.text("console.prompt")

    @abstractmethod
    def help_text(self) -> str: ...

    @abstractmethod
    async def rules_text(self, table_id: int) -> str: ...

    @abstractmethod
    async def run_command(self, table_id: int, command: str) -> None:
        """One of the game's own commands (``moves``, ``map``…)."""

    @abstractmethod
    async def play(self, table_id: int, line: str) -> None:
        """A line that is no command: a move, previewed and played once confirmed."""

    @abstractmethod
    async def show_turn(self, table_id: int) -> None:
        """Where things stand for the player's move."""

    @abstractmethod
    async def announce(self, table_id: int, updates: Sequence[Update]) -> None:
        """Say what the moves played resolved, then mark it posted."""

    @abstractmethod
    async def show_end(self, table_id: int) -> None:
        """The end of the game (or the word that it was abandoned)."""


def console_for(game: str) -> type[GameConsole]:
    """The console of ``game`` (``bot/games/<game>/console.py``)."""
    console: type[GameConsole] = importlib.import_module(f"bot.games.{game}.console").CONSOLE
    return console


async def run_console(
    args: argparse.Namespace,
    stdin: TextIO,
    out: TextIO,
    *,
    seeds: Callable[[], int] | None = None,
    choose_action: ChooseAction | None = None,
) -> int:
    """Play ``args.game`` in a temporary database, or in ``args.database`` (kept)."""
    database = args.database
    if seeds is None and args.seed is not None:
        seed = int(args.seed)
        seeds = lambda: seed  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="circus-") as folder:
        where = database or str(Path(folder) / "local.db")
        service = await TableService.create(where, seeds=seeds, choose_action=choose_action)
        try:
            console = console_for(args.game)(
                service,
                Terminal(stdin, out),
                locale=args.locale,
                kept_in=shown(database) if database else None,
            )
            return await console.run(args)
        finally:
            await service.close()


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
    parser.add_argument(
        "--game", choices=GAMES, default="charioteer", help=t(locale, "console.option.game")
    )
    parser.add_argument("--seats", type=whole, default=None, help=t(locale, "console.option.seats"))
    parser.add_argument(
        "--level", choices=AI_LEVELS, default=None, help=t(locale, "console.option.level")
    )
    parser.add_argument(
        "--locale",
        type=locale_option(LOCALES),
        default="en",
        help=t(locale, "console.option.locale", locales=", ".join(LOCALES)),
    )
    parser.add_argument("--laps", type=whole, default=None, help=t(locale, "console.option.laps"))
    parser.add_argument("--seed", type=whole, default=None, help=t(locale, "console.option.seed"))
    parser.add_argument(
        "--side", choices=("A", "B"), default=None, help=t(locale, "console.option.side")
    )
    parser.add_argument("--database", default=None, help=t(locale, "console.option.database"))


def check_options(args: argparse.Namespace) -> None:
    """The options' values, with the sentences players read on Discord."""
    console_for(args.game).check(args)
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


def interrupted_text(args: argparse.Namespace) -> str:
    """What Ctrl-C says: the game is left unfinished, or kept in the database."""
    prefix = console_for(args.game).phrases
    if args.database:
        return t(args.locale, f"{prefix}.interrupted_kept", file=shown(args.database))
    return t(args.locale, "console.interrupted")


def stop_writing_to(out: TextIO) -> None:
    """The reader of ``out`` has gone: what is still buffered for it goes nowhere, so the
    interpreter's last flush at exit does not fail again."""
    try:
        descriptor = out.fileno()
    except (OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)


def main(argv: Sequence[str], stdin: TextIO, out: TextIO, err: TextIO | None = None) -> int:
    errors = err if err is not None else sys.stderr
    try:
        args = build_parser().parse_args(argv)
        check_options(args)
    except OptionError as error:
        errors.write(f"python -m bot local: {error}\n")
        return EXIT_OPTIONS
    with one_ctrl_c():
        try:
            return asyncio.run(run_console(args, stdin, out))
        except KeyboardInterrupt:
            out.write("\n" + interrupted_text(args) + "\n")
            return EXIT_INTERRUPTED
        except BrokenPipeError:
            stop_writing_to(out)
            return EXIT_READER_GONE
        except StorageError as error:
            errors.write(f"python -m bot local: {error}\n")
            return EXIT_OPTIONS


__all__ = [
    "AI_LEVELS",
    "LOCALES",
    "PLAYER_ID",
    "GameConsole",
    "OptionError",
    "Terminal",
    "columns",
    "command_words",
    "fit_line",
    "fitted",
    "main",
    "plain",
    "strip_fences",
]
