"""Settings, read from the environment or a ``.env`` file (``.env.example`` lists them).

Hand-written over python-dotenv, not pydantic-settings: fifteen settings with rules across
them (the shards) and a one-line refusal in the project's words for each
(tests/bot/test_main.py), where pydantic-settings would add pydantic and its compiled core
and report a wrong value as a multi-line ValidationError to reword."""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import overload

from dotenv import load_dotenv

from bot.shards import Shards, cluster_shards
from engine.core import typed_number

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_LOOP_WATCH_MS = 500
ID_DIGITS = 20
"""The most digits a number setting has (a Discord id has up to 20)."""
"""A sixth of the 3 seconds Discord gives an answer: a hold that long is worth a warning."""
SETTINGS: tuple[tuple[str, str], ...] = (
    ("DISCORD_TOKEN", "the bot's token (required to connect)"),
    ("DATABASE_PATH", "the SQLite file games are stored in (default circus.db)"),
    ("DATABASE_URL", "a postgresql:// database instead (several processes may share)"),
    ("LOG_LEVEL", "DEBUG, INFO (default), WARNING or ERROR"),
    ("LOOP_WATCH_MS", "warn of anything holding the bot this many ms (500; 0: off)"),
    ("DEV_GUILD_ID", "a server whose slash commands sync at once, while developing"),
    ("SHARD_COUNT", "several processes: how many gateway shards the bot has in all"),
    ("SHARD_IDS", "the shards this process holds (0,1); or, instead:"),
    ("CLUSTER_INDEX", "this process's place in the cluster, from 0, with"),
    ("CLUSTER_SIZE", "how many processes share the shards"),
    ("WEB_HOST", "where python -m bot web listens (default 127.0.0.1)"),
    ("WEB_PORT", "its port (default 8080)"),
    ("WEB_BASE_URL", "the address people reach the pages at (default: host and port)"),
    ("WEB_ACCESS_LOG", "on: the web pages log each request, server links hidden (off)"),
    ("HEALTH_FILE", "the connected bot's heartbeat file, for python -m bot health"),
)
"""Every setting :meth:`Settings.load` reads, with what it means (``python -m bot --help``
lists them; ``.env.example`` and the README say more)."""


DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8080


EXIT_SETTINGS = 2
"""The exit status of a setting or an option to fix: starting again would not help (the
systemd units do not restart on it)."""
EXIT_TEMPORARY = 75
"""EX_TEMPFAIL (``sysexits.h``): Discord or the database did not answer at start, or the
database waits for the bot to migrate it; starting again a little later may work (the
systemd units and the compose file restart on it)."""


class SettingsError(ValueError):
    """A setting is missing or wrong; the message says which and where to set it."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_path: Path
    log_level: str
    dev_guild_id: int | None
    database_url: str | None = None
    """A ``postgresql://`` URL; when set, the bot stores its tables there instead of in the SQLite
    file ``database_path``."""
    shards: Shards | None = None
    """The gateway shards this process holds; None: every shard, as many as Discord
    recommends, in this one process."""
    loop_watch_ms: int = DEFAULT_LOOP_WATCH_MS
    """Log whatever holds the event loop this many milliseconds or more (0: do not watch);
    see :mod:`bot.loopwatch`."""
    web_host: str = DEFAULT_WEB_HOST
    """Where ``python -m bot web`` listens (loopback by default: put a proxy in front)."""
    web_port: int = DEFAULT_WEB_PORT
    web_base_url: str = f"http://{DEFAULT_WEB_HOST}:{DEFAULT_WEB_PORT}"
    """The web pages' address as people reach it (the links ``/settings web`` gives)."""
    web_access_log: bool = False
    """Whether the web server logs every request (a line each, a server's link hidden)."""
    health_file: Path | None = None
    """The heartbeat the connected bot rewrites (:mod:`bot.health`); None: none."""

    @property
    def database(self) -> str:
        """Where the tables are stored: the PostgreSQL URL if one is set, else the SQLite file."""
        return self.database_url or str(self.database_path)

    def with_database(self, target: str) -> Settings:
        """These settings over another database: a SQLite file or a ``postgresql://`` URL
        (``--database``, which outranks DATABASE_URL and DATABASE_PATH)."""
        target = target.strip()
        if target.startswith(("postgresql://", "postgres://")):
            return dataclasses.replace(self, database_url=target)
        if not target or "://" in target:
            raise SettingsError(
                f"--database takes a SQLite file or a postgresql:// URL, not {target!r}"
            )
        return dataclasses.replace(self, database_url=None, database_path=Path(target))

    @classmethod
    def load(cls, env_file: str | Path | None = ".env") -> Settings:
        """Read the settings; a ``.env`` file fills what the environment does not set."""
        if env_file is not None and Path(env_file).is_file():
            load_dotenv(env_file, override=False)
        level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and typed_number(guild, ID_DIGITS) is None:
            raise SettingsError("DEV_GUILD_ID must be a server id (digits) or empty")
        url = os.environ.get("DATABASE_URL", "").strip()
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise SettingsError("DATABASE_URL must be a postgresql:// URL or empty")
        path = os.environ.get("DATABASE_PATH", "").strip() or "circus.db"
        if "://" in path:
            raise SettingsError(
                "DATABASE_PATH is the SQLite file's path, not a URL: set DATABASE_URL for"
                " PostgreSQL"
            )
        web_host = os.environ.get("WEB_HOST", "").strip() or DEFAULT_WEB_HOST
        web_port = _whole("WEB_PORT", 1, DEFAULT_WEB_PORT)
        if web_port > 65535:
            raise SettingsError(f"WEB_PORT must be a port number, 1 to 65535, not {web_port}")
        base_url = os.environ.get("WEB_BASE_URL", "").strip().rstrip("/")
        if base_url and not base_url.startswith(("http://", "https://")):
            raise SettingsError("WEB_BASE_URL must be an http:// or https:// address or empty")
        health = os.environ.get("HEALTH_FILE", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=Path(path),
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
            database_url=url or None,
            shards=_shards(),
            loop_watch_ms=_whole("LOOP_WATCH_MS", 0, DEFAULT_LOOP_WATCH_MS),
            web_host=web_host,
            web_port=web_port,
            web_base_url=base_url or f"http://{web_host}:{web_port}",
            web_access_log=_switch("WEB_ACCESS_LOG"),
            health_file=Path(health) if health else None,
        )


def served_address(host: str, port: int) -> str:
    """Where a browser here reaches the server (one listening on every address: the
    loopback)."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@overload
def _whole(name: str, low: int) -> int | None: ...
@overload
def _whole(name: str, low: int, default: int) -> int: ...
def _whole(name: str, low: int, default: int | None = None) -> int | None:
    """The setting as a whole number of at least ``low``; ``default`` when it is not set."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    number = typed_number(text, ID_DIGITS)
    if number is None or number < low:
        raise SettingsError(f"{name} must be a whole number, {low} or more, not {text[:40]!r}")
    return number


SWITCHES = {"on": True, "yes": True, "true": True, "1": True}
SWITCHES.update({"off": False, "no": False, "false": False, "0": False, "": False})


def _switch(name: str) -> bool:
    """The setting as on or off (empty: off)."""
    text = os.environ.get(name, "").strip().lower()
    if text not in SWITCHES:
        raise SettingsError(f"{name} must be on or off, not {text!r}")
    return SWITCHES[text]


def _shards() -> Shards | None:
    """SHARD_COUNT, with SHARD_IDS (``0,1``) or CLUSTER_INDEX and CLUSTER_SIZE."""
    count = _whole("SHARD_COUNT", 1)
    ids_text = os.environ.get("SHARD_IDS", "").strip()
    index, size = _whole("CLUSTER_INDEX", 0), _whole("CLUSTER_SIZE", 1)
    if count is None:
        for name, value in (
            ("SHARD_IDS", ids_text),
            ("CLUSTER_INDEX", index),
            ("CLUSTER_SIZE", size),
        ):
            if value not in (None, ""):
                raise SettingsError(
                    f"{name} needs SHARD_COUNT (how many shards the bot has in all)"
                )
        return None
    if ids_text and (index is not None or size is not None):
        raise SettingsError("set SHARD_IDS or CLUSTER_INDEX and CLUSTER_SIZE, not both")
    if ids_text:
        parts = [part.strip() for part in ids_text.split(",")]
        numbers = [typed_number(part) for part in parts]
        if not all(number is not None and number < count for number in numbers):
            raise SettingsError(
                f"SHARD_IDS must list shard numbers from 0 to {count - 1} (like 0,1), "
                f"not {ids_text!r}"
            )
        ids = [number for number in numbers if number is not None]
        if len(set(ids)) != len(ids):
            raise SettingsError(f"SHARD_IDS lists a shard twice: {ids_text!r}")
        return Shards.of(count, ids)
    if index is None and size is None:
        return Shards.of(count)
    if index is None or size is None:
        raise SettingsError("CLUSTER_INDEX and CLUSTER_SIZE go together: set both or neither")
    if size > count:
        raise SettingsError(
            f"CLUSTER_SIZE ({size}) cannot exceed SHARD_COUNT ({count}): each process holds a shard"
        )
    if index >= size:
        raise SettingsError(f"CLUSTER_INDEX must be from 0 to {size - 1}, not {index}")
    return Shards.of(count, cluster_shards(count, index, size))
