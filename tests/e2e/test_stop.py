"""Stopping the bot as ``docker stop``, systemd or Ctrl-C do (SIGTERM, SIGINT): work in
flight finishes, the database is closed, and the process exits 0 without a traceback."""

from __future__ import annotations

import signal
from pathlib import Path

from bot.storage import is_postgres_url
from tests.e2e.conftest import Table, bot_env, bot_running
from tests.e2e.players import (
    custom_id,
    database_actions,
    prepare_move,
    reveals,
    start_race,
    wait_for_board,
)
from tests.fakediscord.harness import run_bot

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
LOGIN = "/users/@me"


def stopped_cleanly(output: str, database: str) -> None:
    assert "Traceback" not in output and "Task was destroyed" not in output, output[-3000:]
    assert "stopped" in output
    if not is_postgres_url(database):
        assert not Path(f"{database}-wal").exists(), "the database was not closed"


def ready_then_stopped(lines: list[str]) -> bool:
    """Whether the bot logged that it was ready (connected), then that it stopped."""
    ready = [i for i, line in enumerate(lines) if "cogs.app: connected as" in line]
    stopped = [i for i, line in enumerate(lines) if line.endswith("cogs.app: stopped")]
    return bool(ready and stopped) and ready[0] < stopped[-1]


async def test_sigterm_finishes_the_move_being_answered_and_its_reveal(table: Table) -> None:
    """The last move of a turn is clicked; Discord makes the bot wait before taking the
    answer (a rate limit), and SIGTERM comes in that wait: the click is still answered,
    the turn revealed and the next board posted before the bot exits 0."""
    fake, alice, bob = table.fake, table.alice, table.bob
    async with bot_running(table) as process:
        _, place = await start_race(fake, alice, [bob], table.channel)
        board = await wait_for_board(fake, place, 1)
        first = await prepare_move(alice, board)
        await (await alice.click(first, custom_id(first, "confirm"))).reply()
        panel = await prepare_move(bob, board)
        answered = len(fake.requests_for("POST", CALLBACK))
        fake.script_rate_limit("POST", CALLBACK, times=1, retry_after=1.0)
        click = await bob.click(panel, custom_id(panel, "confirm"))
        await fake.wait_for(
            lambda: len(fake.requests_for("POST", CALLBACK)) > answered,
            timeout=10,
            what="the bot's first try at answering",
        )
        process.process.send_signal(signal.SIGTERM)
        assert await process.process.wait() == 0
        await process.stop()
    stopped_cleanly(process.output(), table.database)
    assert "turn is being revealed" in (await click.reply()).content
    assert sorted(seat for seat, _, _ in database_actions(table.database)) == ["A", "B"]
    assert len(reveals(place)) == 1
    await wait_for_board(fake, place, 2)


async def test_sigint_stops_an_idle_bot_cleanly(table: Table) -> None:
    async with bot_running(table) as process:
        process.process.send_signal(signal.SIGINT)
        assert await process.process.wait() == 0
        await process.stop()
    stopped_cleanly(process.output(), table.database)
    assert "SIGINT received" in process.output()


async def test_sigterm_during_the_login_lets_the_start_up_end_then_stops_cleanly(
    table: Table,
) -> None:
    """Discord makes the login wait (a rate limit) and SIGTERM comes in that wait: the
    start-up ends (logged in, commands synced, connected, ready), then the bot stops."""
    fake = table.fake
    fake.script_rate_limit("GET", LOGIN, times=1, retry_after=1.0)
    async with run_bot(fake, "bot", env=bot_env(table)) as process:
        table.processes.append(process)
        await fake.wait_for(lambda: bool(fake.requests_for("GET", LOGIN)), 60, "the login")
        process.process.send_signal(signal.SIGTERM)
        assert await process.process.wait() == 0
        await process.stop()
    stopped_cleanly(process.output(), table.database)
    assert len(fake.requests_for("GET", LOGIN)) == 2
    assert fake.command("race") is not None
    assert ready_then_stopped(process.lines), process.output()[-3000:]


async def test_sigterm_before_discord_py_is_ready_stops_cleanly_once_it_is(table: Table) -> None:
    """SIGTERM as soon as the gateway has sent the servers, while discord.py still waits
    for more of them before it is ready: it gets ready, then the bot stops."""
    discord_py_wait = {"FAKEDISCORD_GUILD_READY_TIMEOUT": "2"}  # discord.py's own: 2 s
    async with run_bot(table.fake, "bot", env=bot_env(table) | discord_py_wait) as process:
        table.processes.append(process)
        await table.fake.wait_until_ready(timeout=60)
        process.process.send_signal(signal.SIGTERM)
        assert await process.process.wait() == 0
        await process.stop()
    stopped_cleanly(process.output(), table.database)
    assert ready_then_stopped(process.lines), process.output()[-3000:]
