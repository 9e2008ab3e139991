"""``python -m bot`` runs the Discord bot; ``python -m bot local`` plays in the terminal;
``python -m bot web`` serves the servers' web pages (WEB_HOST, WEB_PORT, WEB_BASE_URL).

Without a token the bot says what to set and exits with status 2.
"""

from __future__ import annotations

import logging
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import SETTINGS, Settings, SettingsError


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


def no_token() -> str:
    python = this_python()
    return (
        "circus: DISCORD_TOKEN is not set. Put your bot's token in a .env file (copy "
        f".env.example) or in the environment, then run `{python} -m bot` again. "
        f"To play without Discord: `{python} -m bot local`."
    )


def usage() -> str:
    """What ``python -m bot --help`` prints: the commands, then every setting."""
    python = this_python()
    width = max(len(name) for name, _ in SETTINGS)
    return "\n".join(
        [
            "Usage:",
            f"  {python} -m bot",
            "      runs the Discord bot; without DISCORD_TOKEN it says what to set and",
            "      exits with status 2.",
            f"  {python} -m bot local [--game charioteer|cartographers|carcassonne]",
            "      plays in the terminal against AI seats; local --help lists its options.",
            f"  {python} -m bot web",
            "      serves the servers' web pages from the bot's database (no token needed).",
            "",
            "Settings, from the environment or a .env file here (.env.example explains them):",
            *(f"  {name:<{width}}  {meaning}" for name, meaning in SETTINGS),
        ]
    )


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


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "local":
        from bot.console import main as console_main

        return console_main(args[1:], sys.stdin, sys.stdout)
    if args and args[0] == "web":
        return web(args[1:])
    if args and args[0] in ("-h", "--help"):
        print(usage())
        return 0
    if args:
        print(
            f"circus: unknown command {args[0]!r}; try {this_python()} -m bot --help",
            file=sys.stderr,
        )
        return 2
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"circus: {error}", file=sys.stderr)
        return 2
    if settings.token is None:
        print(no_token(), file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from cogs.app import run

    return run(settings)


def web(args: Sequence[str]) -> int:
    """The web pages: no Discord token needed, only the database."""
    if args:
        print(f"circus: `python -m bot web` takes no arguments, not {args[0]!r}", file=sys.stderr)
        return 2
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"circus: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    from bot.web.app import run as run_web

    return run_web(settings)


if __name__ == "__main__":
    sys.exit(main())
