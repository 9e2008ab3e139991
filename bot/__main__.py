"""``python -m bot`` runs the Discord bot; ``python -m bot local`` plays in the terminal;
``python -m bot web`` serves the servers' web pages (WEB_HOST, WEB_PORT, WEB_BASE_URL).

Without a token the bot says what to set and exits with status 2.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence

from bot.config import Settings, SettingsError

NO_TOKEN = (
    "circus: DISCORD_TOKEN is not set. Put your bot's token in a .env file (copy .env.example) "
    "or in the environment, then run `python -m bot` again. "
    "To play without Discord: `python -m bot local`."
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
        print(__doc__.strip())
        return 0
    if args:
        print(
            f"circus: unknown command {args[0]!r};"
            " try `python -m bot local` or `python -m bot web`",
            file=sys.stderr,
        )
        return 2
    try:
        settings = Settings.load()
    except SettingsError as error:
        print(f"circus: {error}", file=sys.stderr)
        return 2
    if settings.token is None:
        print(NO_TOKEN, file=sys.stderr)
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
