"""The Discord client as Discord sees it: the intents it asks for, the forms it shows."""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

import discord

from bot.clock import FakeClock
from bot.service import TableService, TableSettings
from cogs.app import CircusBot
from tests.cogs.conftest import Circus, settings_for
from tests.e2e.players import (
    BOARD,
    board_turn,
    boards,
    custom_id,
    database_actions,
    play_turn_with_the_panel,
    reveals,
    start_race,
    wait_for_board,
)
from tests.fakediscord.gateway import DIRECT_MESSAGES, GUILD_MESSAGES, GUILDS, MESSAGE_CONTENT
from tests.fakediscord.harness import pointed_at
from tests.fakediscord.server import FakeDiscord

LABEL, TEXT_INPUT = 18, 4
GLOBAL = "/applications/{application_id}/commands"
MESSAGES = "/channels/{channel_id}/messages"


async def test_the_bot_reads_no_messages(circus: Circus) -> None:
    """Only the guilds intent: no server or DM message events, no message content."""
    (session,) = circus.fake.gateway.live_sessions()
    assert session.intents & GUILDS
    assert not session.intents & (GUILD_MESSAGES | DIRECT_MESSAGES | MESSAGE_CONTENT)


async def test_move_forms_use_labels_and_dismissed_ones_are_not_kept(circus: Circus) -> None:
    fake, alice, bob = circus.fake, circus.alice, circus.bob
    _, place = await start_race(fake, alice, [bob], circus.channel)
    board = await wait_for_board(fake, place, 1)
    panel = await (await alice.click(board, custom_id(board, "choose"))).reply()
    store = circus.bot._connection._view_store
    for _ in range(3):  # opened and dismissed, three times
        opened = await alice.click(panel, custom_id(panel, "type"))
        modal = await opened.wait_modal()
        assert store._modals == {}
    (label,) = modal["components"]
    assert label["type"] == LABEL and label["label"] == "Move"
    assert label["component"]["type"] == TEXT_INPUT
    assert not label["component"].get("label")
    answer = await (await alice.submit_modal(opened, {"move": "reset 1"})).reply()
    assert "Move confirmed" in answer.content


async def test_private_panels_are_not_kept_after_they_are_sent(circus: Circus) -> None:
    """A panel's buttons are looked up by custom_id, so nothing keeps its view once it is
    sent (discord.py would keep an ephemeral message's view, and a task, for 15 minutes)."""
    fake, alice, bob = circus.fake, circus.alice, circus.bob
    _, place = await start_race(fake, alice, [bob], circus.channel)
    board = await wait_for_board(fake, place, 1)
    for user in (alice, bob):
        panel = await (await user.click(board, custom_id(board, "choose"))).reply()
        assert panel.ephemeral
        await play_turn_with_the_panel(user, board)
    await wait_for_board(fake, place, 2)
    await circus.bot.finish_in_flight()  # the last answers' views may still be in hand
    gc.collect()
    assert [view for view in gc.get_objects() if isinstance(view, discord.ui.View)] == []


async def test_owed_work_is_caught_up_once_in_the_background(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Races stored with an AI seat's move owed and their first board not posted (a crash
    right after Start): after the start every AI move is played and every board posted
    exactly once, while a player who asks for something meanwhile is answered."""
    database = tmp_path / "races.db"
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    stored = await TableService.create(str(database))
    races = []
    for _ in range(6):
        table = await stored.open_lobby(
            game="charioteer",
            host_id=alice.id,
            host_name="alice",
            settings=TableSettings(seats=2, turn_seconds=None),
            guild_id=guild.id,
            channel_id=channel.id,
        )
        await stored.add_ai(table.id, alice.id, "random")
        await stored.start(table.id, alice.id)
        races.append(table.id)
    assert await stored.tables_to_resume() == races
    await stored.close()
    posts = "/channels/{channel_id}/messages"
    fake.script_rate_limit("POST", posts, times=len(races), retry_after=1.0)
    with pointed_at(fake):
        bot = CircusBot(settings_for(fake, database))
        runner = asyncio.create_task(bot.start(fake.token))
        try:
            await fake.wait_until_ready(timeout=60)
            asked = await bob.slash(channel, "race new")
            lobby = await asked.reply()
            assert "Race #" in lobby.content
            assert not bot.catch_up.done.is_set()  # answered during the catch-up
            await asyncio.wait_for(bot.catch_up.done.wait(), 60)
            await fake.wait_for(  # a post Discord refused is the outbox's to retry
                lambda: len(boards(channel)) >= len(races), 60, "every owed board"
            )
            assert await bot.service.tables_to_resume() == []
        finally:
            await bot.close()
            await runner
    posted = [m for m in channel.public_messages() if BOARD.match(m.content)]
    assert sorted((int(BOARD.match(m.content).group(1)), board_turn(m)) for m in posted) == [  # type: ignore[union-attr]
        (race, 1) for race in races
    ]
    ai_moves = [a for a in database_actions(database) if a[1] == "ai"]
    assert len(ai_moves) == len(races)


async def test_a_sync_discord_holds_back_does_not_keep_the_bot_offline(
    fake: FakeDiscord, database: str
) -> None:
    """Discord answers the command sync with a long rate limit: the bot gives the sync up,
    connects and keeps no hash, so its next start syncs."""
    fake.add_guild("Circus")
    fake.script_rate_limit("PUT", GLOBAL, retry_after=3600.0)
    with pointed_at(fake):
        for attempt in range(2):
            bot = CircusBot(settings_for(fake, database))
            bot.sync_seconds = 0.5
            runner = asyncio.create_task(bot.start(fake.token))
            try:
                await fake.wait_until_ready(timeout=60)
                synced = await bot.service.storage.fact("commands:global")
            finally:
                await bot.close()
                await runner
            if attempt == 0:
                assert synced is None and fake.command("race") is None
    assert synced is not None and fake.command("race") is not None
    assert [r.status for r in fake.requests_for("PUT", GLOBAL)] == [429, 200]


async def test_a_stop_lets_a_timed_out_turn_finish_its_announcements(
    fake: FakeDiscord, database: str
) -> None:
    """Time runs out on bob; while the bot posts the reveal (Discord makes it wait), the bot
    is told to stop: the turn's reveal and the next board still go out before it closes."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(start=time.time())
    service = await TableService.create(database, clock=clock)
    with pointed_at(fake):
        bot = CircusBot(settings_for(fake, database), service=service)
        runner = asyncio.create_task(bot.start(fake.token))
        try:
            await fake.wait_for_command("race", timeout=60)
            await fake.wait_until_ready(timeout=60)
            _, place = await start_race(fake, alice, [bob], channel, turn_limit="2m")
            board = await wait_for_board(fake, place, 1)
            await play_turn_with_the_panel(alice, board)
            posts = len(fake.requests_for("POST", MESSAGES))
            fake.script_rate_limit("POST", MESSAGES, times=1, retry_after=1.0)
            clock.advance(121)
            await fake.wait_for(
                lambda: len(fake.requests_for("POST", MESSAGES)) > posts,
                timeout=30,
                what="the reveal's first try",
            )
        finally:
            await bot.close()
            await runner
    assert len(reveals(place)) == 1
    assert [board_turn(b) for b in boards(place)] == [1, 2]


async def test_a_forged_option_outside_its_declared_range_is_refused_before_the_command_runs(
    circus: Circus,
) -> None:
    alice, channel = circus.alice, circus.channel
    for command, options, refusal in (
        ("tournament new", {"game": "charioteer", "name": "Cup", "table_size": 100000}, "2 to 12"),
        ("tournament new", {"game": "charioteer", "name": "Cup", "rounds": 0}, "1 to 20"),
        ("tournament new", {"game": "charioteer", "name": "C" * 500}, "1 to 80 characters"),
        ("tournament new", {"game": "chess", "name": "Cup"}, "one of the choices"),
        ("tournament new", {"game": "charioteer", "name": "Cup", "format": "ladder"}, "choices"),
        ("tournament new", {"game": "charioteer", "name": "Cup", "options": ""}, "characters"),
        ("race new", {"seats": 99}, "2 to 6"),
        ("race new", {"turn_limit": "1s"}, "choices"),
        ("settings", {"max_per_member": -1}, "0 to 1000"),
    ):
        answer = await (await alice.forge_slash(channel, command, **options)).reply()
        assert refusal in answer.content and answer.ephemeral_to is alice, (command, options)
    storage = circus.bot.service.storage
    assert await storage.read("SELECT id FROM tournaments") == []
    assert await storage.read("SELECT id FROM game_tables") == []
