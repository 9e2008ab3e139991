"""Slash commands are registered only when they changed, so restarts (even a crash loop)
never spend Discord's command-write budget; a development server gets its own copy and no
global duplicate; sentences name commands by the ids Discord gave them, after a restart
too."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from tests.databases import execute
from tests.e2e.conftest import Table, bot_env
from tests.fakediscord.harness import BotProcess, run_bot

GLOBAL = "/applications/{application_id}/commands"
IN_GUILD = "/applications/{application_id}/guilds/{guild_id}/commands"
COMMANDS = [
    "race",
    "cartographers",
    "carcassonne",
    "leaderboard",
    "profile",
    "settings",
    "help",
    "tournament",
    "game",
    "away",
    "back",
]
"""The bot's slash commands and command groups, in the order it registers them: every
game's own group in the registry's order, then the community, tournament and shared table
commands, and a member's absence."""


@contextlib.asynccontextmanager
async def bot_started(table: Table, **env: str) -> AsyncIterator[BotProcess]:
    """The bot process, once it has synced (or not) and identified on the gateway."""
    identified = table.fake.gateway.identify_count
    async with run_bot(table.fake, "bot", env=bot_env(table) | env) as process:
        table.processes.append(process)
        await table.fake.wait_for(
            lambda: table.fake.gateway.identify_count > identified,
            timeout=60,
            what="the bot to log in",
        )
        yield process


def puts(table: Table, route: str) -> list[list[str]]:
    """The names of the commands sent by each bulk overwrite of ``route``."""
    return [[c["name"] for c in r.body] for r in table.fake.requests_for("PUT", route)]


async def test_a_restart_with_the_same_commands_registers_nothing(table: Table) -> None:
    async with bot_started(table):
        pass
    async with bot_started(table) as second:
        pass
    assert puts(table, GLOBAL) == [COMMANDS]
    assert "unchanged: not synced" in second.output()
    assert table.fake.command("race") is not None


async def test_changed_commands_are_registered_again(table: Table) -> None:
    async with bot_started(table):
        pass
    execute(table.database, "UPDATE host_facts SET value = 'an older version'")
    async with bot_started(table):
        pass
    assert puts(table, GLOBAL) == [COMMANDS, COMMANDS]


async def test_a_development_server_gets_one_copy_and_no_global_duplicate(
    table: Table,
) -> None:
    fake, guild = table.fake, table.guild
    async with bot_started(table):  # an earlier run registered the commands globally
        pass
    assert fake.command("race") is not None
    async with bot_started(table, DEV_GUILD_ID=str(guild.id)):
        answer = await (await table.alice.slash(table.channel, "race rules")).reply()
        assert answer.ephemeral_to is table.alice
    async with bot_started(table, DEV_GUILD_ID=str(guild.id)):
        pass
    assert puts(table, IN_GUILD) == [COMMANDS]
    assert puts(table, GLOBAL) == [COMMANDS, []]
    assert [c.name for c in fake.commands_for(guild)] == COMMANDS
    assert fake.command("race", guild) is not None


async def test_sentences_name_commands_as_mentions_by_their_ids_after_a_restart(
    table: Table,
) -> None:
    answers = []
    for _ in range(2):
        async with bot_started(table) as process:
            await table.fake.wait_until_ready(timeout=60)
            asked = await table.bob.slash(table.channel, "race hand")
            answers.append((await asked.reply()).content)
    assert "unchanged: not synced" in process.output()
    race = table.fake.command("race")
    assert race is not None
    for answer in answers:
        assert f"</race new:{race.id}>" in answer, answer
