"""Starting ``python -m bot`` while Discord has trouble: a login that cannot get through
(Discord answering 503) is tried again until Discord answers; a token Discord
refuses is a setting to fix, said once, exit status 2. While connected, the bot's
heartbeat tells a health check it is well."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import Table, bot_env, start_up_over
from tests.fakediscord.harness import REPO_ROOT, run_bot

LOGIN = "/users/@me"


async def test_logins_that_fail_at_start_are_tried_again_until_discord_answers(
    table: Table,
) -> None:
    fake = table.fake
    fake.inject_faults("GET", LOGIN, kind="5xx", status=503, times=2)
    async with run_bot(fake, "bot", env=bot_env(table)) as process:
        table.processes.append(process)
        await fake.wait_until_ready(timeout=60)
        await start_up_over(fake, process)
        retries = [line for line in process.lines if "trying again in" in line]
        assert len(retries) == 2, process.output()
        assert all("cannot reach Discord" in line for line in retries)
        assert "Traceback" not in process.output()
    assert len(fake.requests_for("GET", LOGIN)) == 3


async def test_a_token_discord_refuses_is_not_tried_again(table: Table) -> None:
    env = bot_env(table) | {"DISCORD_TOKEN": "not.the.token"}
    async with run_bot(table.fake, "bot", env=env) as process:
        table.processes.append(process)
        assert await process.process.wait() == 2
    output = process.output()
    assert "DISCORD_TOKEN" in output and "trying again" not in output
    assert "Traceback" not in output


def health(env: dict[str, str], *service: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "health", *service],
        capture_output=True,
        text=True,
        env=os.environ | env,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )


async def test_the_health_check_is_well_while_the_bot_is_connected(
    table: Table, tmp_path: Path
) -> None:
    heartbeat = tmp_path / "health"
    env = bot_env(table) | {"HEALTH_FILE": str(heartbeat)}
    assert health(env).returncode == 1
    async with run_bot(table.fake, "bot", env=env) as process:
        table.processes.append(process)
        await table.fake.wait_until_ready(timeout=60)
        await table.fake.wait_for(heartbeat.exists, timeout=60, what="the first heartbeat")
        well = await asyncio.to_thread(health, env)
        assert well.returncode == 0, well.stderr
        assert well.stdout.startswith("circus: well: connected to 1 servers")
        assert await process.stop() == 0
    stopped = await asyncio.to_thread(health, env)
    assert stopped.returncode == 1 and "no heartbeat" in stopped.stderr
