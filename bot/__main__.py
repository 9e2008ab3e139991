"""The ``circus`` command (``python -m bot``): ``run`` (the default) runs the Discord bot,
``local`` plays in the terminal, ``web`` serves the servers' web pages, ``help`` and
``--help`` say how, ``--version`` which version this is.

Built on argparse, the standard library's parser (subcommands, ``--help`` on each), not
click or typer: it is what ``local`` already used, and refusing in one line is one
override of ``error`` (tests/bot/test_main.py). A wrong option or command is one line
naming it, and exit status 2. Exit status 2 always
means a setting or an option to fix, 75 a start that may work later; see
:data:`EXIT_STATUSES`.
"""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from bot import __version__
from bot.config import SETTINGS, Settings, SettingsError
from bot.health import UNWELL, bot_health, web_health

EXIT_STATUSES = (
    (0, "stopped as asked (Ctrl-C, SIGTERM)"),
    (2, "a setting or an option to fix: starting again would not help"),
    (75, "Discord or the database did not answer in 30 s of tries: start again later"),
)
"""What the commands' exit statuses mean, as ``--help`` lists them."""


def this_python() -> str:
    """The interpreter running now, as a command typed where the bot was started: a path
    relative to here when it lies below (``.venv/bin/python``), else its whole path, so
    it works whether or not a virtual environment is active."""
    executable = Path(sys.executable)
    try:
        shown = str(executable.relative_to(Path.cwd()))
    except ValueError:
        shown = str(executable)
    return shlex.quote(shown)


def program() -> str:
    """How the command was typed: ``circus`` (the installed script) or ``… -m bot``."""
    if Path(sys.argv[0]).name == "circus":
        return "circus"
    return f"{this_python()} -m bot"


def no_token() -> str:
    python = this_python()
    return (
        "circus: DISCORD_TOKEN is not set. Put your bot's token in a .env file (copy "
        f".env.example) or in the environment, then run `{python} -m bot` again. "
        f"To play without Discord: `{python} -m bot local`."
    )


class OneLineParser(argparse.ArgumentParser):
    """Refuses a wrong option or command in one line (and exit status 2), naming where
    the help is, instead of a usage block."""

    commands: dict[str, argparse.ArgumentParser]
    """The parser of each command, by name (the top-level parser's)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"circus: {message} (see {self.prog} --help)\n")


COMMANDS = (
    ("run", "runs the Discord bot (the default); it needs DISCORD_TOKEN"),
    ("local", "plays in the terminal against AI seats (--game, --seats: local --help)"),
    ("web", "serves the servers' web pages from the bot's database (no token)"),
    ("demo", "plays a few AI games of each game and serves their web page at once"),
    ("health", "whether the bot (or with web, the web server) is well: exit 0 or 1"),
    ("help", "this help, or a command's (help web)"),
)


def settings_text() -> str:
    width = max(len(name) for name, _ in SETTINGS)
    return "\n".join(
        [
            "Settings, from the environment or a .env file here (.env.example explains them):",
            *(f"  {name:<{width}}  {meaning}" for name, meaning in SETTINGS),
            "",
            "Exit status:",
            *(f"  {status:<3} {meaning}" for status, meaning in EXIT_STATUSES),
        ]
    )


def port_number(text: str) -> int:
    """A port to listen on: 0 (any free one) to 65535."""
    if not (text.isascii() and text.isdigit()) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return int(text)


def commands_text() -> str:
    width = max(len(name) for name, _ in COMMANDS)
    return "\n".join(
        [
            "Circus: board games on Discord, in the terminal and on the web.",
            "",
            "Commands (each has --help):",
            *(f"  {name:<{width}}  {meaning}" for name, meaning in COMMANDS),
        ]
    )


def build_parser() -> OneLineParser:
    prog = program()
    parser = OneLineParser(
        prog=prog,
        usage=f"{prog} [--version] [command] [options]",
        description=commands_text(),
        epilog=settings_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"circus {__version__}")
    commands = parser.add_subparsers(
        dest="command", metavar="command", help=argparse.SUPPRESS, prog=prog
    )
    about = dict(COMMANDS)
    run = commands.add_parser(
        "run",
        help=about["run"],
        description="Run the Discord bot; without DISCORD_TOKEN it says what to set.",
        epilog=settings_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    local = commands.add_parser("local", help=about["local"], add_help=False)
    web = commands.add_parser(
        "web",
        help=about["web"],
        description=(
            "Serve every published server's page, read-only, from the bot's database, at"
            " WEB_HOST:WEB_PORT. The database must exist and be the bot's: the web server"
            " never creates or changes one."
        ),
    )
    web.add_argument(
        "--database",
        metavar="PATH|URL",
        help="the SQLite file or postgresql:// URL to read (default: DATABASE_URL, else"
        " DATABASE_PATH)",
    )
    demo = commands.add_parser(
        "demo",
        help=about["demo"],
        description=(
            "Play a few short AI games of every game into a database, publish them as one"
            " server's web page and serve it at once (no Discord, no token): the address is"
            " printed. The same seed plays the same games."
        ),
    )
    demo.add_argument(
        "--database",
        metavar="PATH|URL",
        help="keep the demo in this SQLite file or postgresql:// database (default: a"
        " temporary file, gone when the demo stops); run again with it to serve it again",
    )
    demo.add_argument(
        "--seed", type=int, default=1, help="the same seed plays the same games (default 1)"
    )
    demo.add_argument(
        "--locale", choices=("en", "es", "it"), default="en", help="the page's language (en)"
    )
    demo.add_argument("--host", help="where to listen (default: WEB_HOST, 127.0.0.1)")
    demo.add_argument(
        "--port", type=port_number, help="its port (default: WEB_PORT, 8080; 0: any free one)"
    )
    health = commands.add_parser(
        "health",
        help=about["health"],
        description=(
            "Whether the bot is well (its HEALTH_FILE was rewritten in the last minute), or,"
            " with web, whether the web server at WEB_HOST:WEB_PORT answers /healthz. Exit"
            " status 0 when well, 1 when not, for Docker's HEALTHCHECK."
        ),
    )
    health.add_argument("service", nargs="?", choices=("bot", "web"), default="bot")
    help_command = commands.add_parser("help", help=about["help"])
    help_command.add_argument(
        "topic",
        nargs="?",
        choices=[name for name, _ in COMMANDS],
        metavar="command",
        help="the command to explain: " + ", ".join(name for name, _ in COMMANDS),
    )
    parser.commands = {
        "run": run,
        "local": local,
        "web": web,
        "demo": demo,
        "health": health,
        "help": help_command,
    }
    return parser


def show_help(parser: OneLineParser, topic: str | None) -> int:
    if topic == "local":
        from bot.console import build_parser as local_parser

        local_parser().print_help()
        return 0
    (parser if topic is None else parser.commands[topic]).print_help()
    return 0


QUIET_LIBRARIES = ("discord", "aiosqlite")
"""Libraries whose debug logs carry request bodies and SQL parameters (hands, moves):
never below INFO, whatever LOG_LEVEL says."""


def without_voice_warnings(record: logging.LogRecord) -> bool:
    """The bot never joins a voice channel: discord.py's warnings that voice libraries
    are missing concern nobody who runs it."""
    return "voice will NOT be supported" not in record.getMessage()


def configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for name in QUIET_LIBRARIES:
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLevelName(level)))
    logging.getLogger("discord.client").addFilter(without_voice_warnings)


def load_settings() -> Settings | None:
    """The settings, or None after saying in one line which one is wrong."""
    try:
        return Settings.load()
    except SettingsError as error:
        print(f"circus: {error}", file=sys.stderr)
        return None


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if args and not args[0].startswith("-") and args[0] not in dict(COMMANDS):
        names = ", ".join(name for name, _ in COMMANDS)
        parser.error(f"unknown command {args[0]!r}: the commands are {names}")
    chosen, rest = parser.parse_known_args(args)
    command = chosen.command or "run"
    if command == "local":
        from bot.console import main as console_main

        return console_main(rest, sys.stdin, sys.stdout)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if command == "help":
        return show_help(parser, chosen.topic)
    if command == "web":
        return web(chosen.database)
    if command == "demo":
        return run_demo(chosen)
    if command == "health":
        return health_check(chosen.service)
    return run()


def run_demo(args: argparse.Namespace) -> int:
    """The demo: no token needed; the database is its own unless ``--database``."""
    settings = load_settings()
    if settings is None:
        return 2
    configure_logging("WARNING" if settings.log_level == "INFO" else settings.log_level)
    from bot.demo import run as demo

    return demo(args, settings)


def health_check(service: str) -> int:
    """``health``: one line, then 0 when the service is well, 1 when not (or when the
    settings cannot be read: Docker keeps 2 for itself)."""
    settings = load_settings()
    if settings is None:
        return UNWELL
    if service == "web":
        found = web_health(settings.web_host, settings.web_port)
    else:
        found = bot_health(settings.health_file)
    print(f"circus: {found.said}", file=sys.stdout if found.well else sys.stderr)
    return found.status


def run() -> int:
    """The Discord bot: the token and every setting checked before anything starts."""
    settings = load_settings()
    if settings is None:
        return 2
    if settings.token is None:
        print(no_token(), file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from cogs.app import run as run_bot

    return run_bot(settings)


def web(database: str | None) -> int:
    """The web pages: no Discord token needed, only the database."""
    settings = load_settings()
    if settings is None:
        return 2
    if database is not None:
        try:
            settings = settings.with_database(database)
        except SettingsError as error:
            print(f"circus: {error}", file=sys.stderr)
            return 2
    configure_logging(settings.log_level)
    from bot.web.app import run as run_web

    return run_web(settings)


if __name__ == "__main__":
    sys.exit(main())
