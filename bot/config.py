"""Settings, read from the environment or a ``.env`` file (``.env.example`` lists them)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class SettingsError(ValueError):
    """A setting is missing or wrong; the message says which and where to set it."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_path: Path
    log_level: str
    dev_guild_id: int | None
    database_url: str | None = None
    """A ``postgresql://`` URL; when set, the bot stores races there instead of in the SQLite
    file ``database_path``."""

    @property
    def database(self) -> str:
        """Where races are stored: the PostgreSQL URL if one is set, else the SQLite file."""
        return self.database_url or str(self.database_path)

    @classmethod
    def load(cls, env_file: str | Path | None = ".env") -> Settings:
        """Read the settings; a ``.env`` file fills what the environment does not set."""
        if env_file is not None and Path(env_file).is_file():
            load_dotenv(env_file, override=False)
        level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError("DEV_GUILD_ID must be a server id (digits) or empty")
        url = os.environ.get("DATABASE_URL", "").strip()
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise SettingsError("DATABASE_URL must be a postgresql:// URL or empty")
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=Path(os.environ.get("DATABASE_PATH", "").strip() or "circus.db"),
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
            database_url=url or None,
        )
