"""Starting ``python -m bot`` while Discord has trouble: a login that cannot get through
(Discord answering 503) is tried again until Discord answers; a token Discord
refuses is a setting to fix, said once, exit status 2."""

from __future__ import annotations

from tests.e2e.conftest import Table, bot_env, start_up_over
from tests.fakediscord.harness import run_bot

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
