"""Running bots against the fake: in this process, or as a subprocess through `launch.py`.

`pointed_at(fake)` points discord.py (this process) at the fake for the duration of a
`with` block, for a bot started with `client.start(token)` in the test's own event loop.

`run_bot(fake, "bot", *args)` starts `python -m tests.fakediscord.launch bot …` from the
repository root with the fake's environment, collects its output (shown by
`BotProcess.output()`), and stops it (SIGTERM, then SIGKILL) when the block ends.

`assert_no_violations(fake)` is what the fixtures call at teardown.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

from .pointing import point_discord_at, restore
from .server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[None]:
    previous = point_discord_at(fake.api_base, fake.gateway_url)
    try:
        yield
    finally:
        restore(previous)


def assert_no_violations(fake: FakeDiscord) -> None:
    """Fail if the bot did anything Discord would have refused or that failed a user."""
    if fake.violations:
        listing = "\n  ".join(str(v) for v in fake.violations)
        raise AssertionError(f"the bot broke Discord's rules:\n  {listing}")


class BotProcess:
    """A bot running in a subprocess against the fake."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for raw in self.process.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))

    def output(self) -> str:
        return "\n".join(self.lines)

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    async def stop(self, timeout: float = 5.0) -> int:
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self._reader
        assert self.process.returncode is not None
        return self.process.returncode


@contextlib.asynccontextmanager
async def run_bot(
    fake: FakeDiscord,
    target: str,
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path = REPO_ROOT,
) -> AsyncIterator[BotProcess]:
    """Run `target` (a module name or a .py path) through the launcher as a subprocess."""
    environment = os.environ | fake.bot_env() | (env or {})
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO_ROOT), environment.get("PYTHONPATH", "")) if p
    )
    environment.setdefault("PYTHONUNBUFFERED", "1")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fakediscord.launch",
        target,
        *args,
        cwd=cwd,
        env=environment,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    bot = BotProcess(process)
    try:
        yield bot
    finally:
        code = await bot.stop()
        # Shown by pytest when the test fails.
        print(f"--- {target} exited with {code}; its output:\n{bot.output()}")
