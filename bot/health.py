"""Whether a running service is well, as a container's or a supervisor's health check asks
(``python -m bot health``, Docker's ``HEALTHCHECK``).

The bot has no port of its own to ask: while it is connected to Discord it rewrites a
heartbeat file (``HEALTH_FILE``) every :data:`BEAT_SECONDS`, from its event loop, so a
loop held up or a gateway lost stops the beats; the check reads how old the file is. A
clean stop removes the file. The web server answers ``GET /healthz`` itself
(:mod:`bot.web.app`); the check asks it on the loopback.

A check exits 0 when well and 1 when not (Docker reserves 2), after one line saying so.
"""

from __future__ import annotations

import contextlib
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from bot.config import served_address

BEAT_SECONDS = 10.0
"""How often the connected bot rewrites its heartbeat."""
STALE_SECONDS = 60.0
"""A heartbeat older than this means the bot is not well (six beats missed)."""
ASK_SECONDS = 5.0
"""How long the check waits for the web server's answer."""
WELL, UNWELL = 0, 1


@dataclass(frozen=True)
class Health:
    well: bool
    said: str

    @property
    def status(self) -> int:
        return WELL if self.well else UNWELL


def beat(path: Path, note: str) -> None:
    """Rewrite the heartbeat (whole or not at all: written aside, then moved over)."""
    aside = path.with_name(f".{path.name}.{os.getpid()}")
    aside.write_text(f"{note}\n", encoding="utf-8")
    os.replace(aside, path)


def stop_beating(path: Path) -> None:
    """A clean stop: no heartbeat is left to read as well."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def bot_health(path: Path | None, now: float | None = None) -> Health:
    """The bot's health, from the age of its heartbeat file."""
    if path is None:
        return Health(False, "HEALTH_FILE is not set: the bot writes no heartbeat to check")
    try:
        written = path.stat().st_mtime
        note = path.read_text(encoding="utf-8").strip()
    except OSError:
        return Health(False, f"no heartbeat at {path}: the bot is not connected to Discord")
    age = (time.time() if now is None else now) - written
    if age > STALE_SECONDS:
        return Health(False, f"the bot's last heartbeat is {age:.0f} s old ({note})")
    return Health(True, f"well: {note}, {max(age, 0):.0f} s ago")


def web_health(host: str, port: int) -> Health:
    """The web server's answer to ``GET /healthz`` (a server listening on every address
    is asked on the loopback)."""
    url = f"{served_address(host, port)}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=ASK_SECONDS) as answer:
            body = answer.read(200).decode("utf-8", "replace").strip()
            return Health(True, f"well: {url} answered {answer.status} {body}")
    except urllib.error.HTTPError as error:
        body = error.read(200).decode("utf-8", "replace").strip()
        return Health(False, f"{url} answered {error.code} {body}")
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        return Health(False, f"{url} did not answer ({reason})")


__all__ = [
    "BEAT_SECONDS",
    "STALE_SECONDS",
    "Health",
    "beat",
    "bot_health",
    "stop_beating",
    "web_health",
]
