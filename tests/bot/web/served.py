"""The site as an operator runs it: ``python -m bot web`` in a process of its own, on a
loopback port, over a test's database (a SQLite file or a PostgreSQL URL), its log
written to a file the test reads."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from bot.storage import is_postgres_url

START_SECONDS = 60.0
"""How long the server may take to answer its first request."""
SETTINGS = ("DATABASE_PATH", "DATABASE_URL", "WEB_HOST", "WEB_PORT", "WEB_BASE_URL", "LOG_LEVEL")


@dataclass(frozen=True)
class Served:
    """A running ``python -m bot web``: where it answers, and its log."""

    host: str
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def log_lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8", errors="replace").splitlines()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _answers(served: Served, process: subprocess.Popen[bytes]) -> None:
    """Wait until the server answers ``/robots.txt`` (failing with its log if it exits, or
    is not up after :data:`START_SECONDS`)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + START_SECONDS
    timeout = aiohttp.ClientTimeout(total=5)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        while True:
            if process.poll() is not None:
                raise AssertionError(f"python -m bot web exited:\n{served.log.read_text()}")
            try:
                async with session.get(f"{served.base}/robots.txt") as answer:
                    if answer.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            if loop.time() > until:
                raise AssertionError(f"python -m bot web did not answer:\n{served.log.read_text()}")
            await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def served(database: str, folder: Path, log_level: str = "INFO") -> AsyncIterator[Served]:
    """``python -m bot web`` over ``database``, started in ``folder`` (no ``.env`` there),
    answering once this is entered; stopped (SIGTERM) on leaving."""
    env = {name: value for name, value in os.environ.items() if name not in SETTINGS}
    env["DATABASE_URL" if is_postgres_url(database) else "DATABASE_PATH"] = database
    port = free_port()
    env.update(WEB_HOST="127.0.0.1", WEB_PORT=str(port), LOG_LEVEL=log_level)
    site = Served("127.0.0.1", port, folder / "web.log")
    with site.log.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "web"], cwd=folder, env=env, stdout=log, stderr=log
        )
    try:
        await _answers(site, process)
        yield site
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


__all__ = ["Served", "free_port", "served"]
