"""A game's Start against the posting of its first board: whoever delivers the board (the
Start's own follow-up, or the start-up catch-up and the outbox sweep, which post any table
with a post owed) posts it in the game's thread, once the thread is open."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.cogs.conftest import Circus
from tests.e2e.players import boards, custom_id, open_lobby


async def test_a_board_delivered_while_the_thread_opens_is_posted_in_the_thread(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catch-up finds the new game's board owed the moment the Start has stored the
    game, before the Start has opened its thread: the board waits for the thread."""
    bot, fake = circus.bot, circus.fake
    service = bot.service
    start = service.start
    delivering: list[asyncio.Task[Any]] = []

    async def start_then_catch_up(*args: Any, **kwargs: Any) -> Any:
        update = await start(*args, **kwargs)
        delivering.append(asyncio.create_task(bot.announcer.outbox.deliver(update.table.id)))
        await asyncio.sleep(0)
        return update

    monkeypatch.setattr(service, "start", start_then_catch_up)
    lobby = await open_lobby(circus.alice, circus.channel, seats=2, laps=1, turn_limit="none")
    await (await circus.bob.click(lobby, custom_id(lobby, "join"))).reply()
    await (await circus.alice.click(lobby, custom_id(lobby, "start"))).wait_ack()
    await fake.wait_for(lambda: bool(delivering), what="the catch-up's delivery")
    await asyncio.wait_for(delivering[0], 30)
    await fake.wait_for(
        lambda: any(boards(thread) for thread in circus.guild.threads()),
        what="the first board in the thread",
    )
    assert boards(circus.channel) == []
    [thread] = circus.guild.threads()
    assert len(boards(thread)) == 1


async def test_a_tournament_tables_board_delivered_while_its_thread_opens_is_in_the_thread(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for a game a tournament round opens: its board waits for its thread."""
    bot, fake = circus.bot, circus.fake
    service = bot.service
    start = service.start
    delivering: list[asyncio.Task[Any]] = []

    async def start_then_catch_up(*args: Any, **kwargs: Any) -> Any:
        update = await start(*args, **kwargs)
        delivering.append(asyncio.create_task(bot.announcer.outbox.deliver(update.table.id)))
        await asyncio.sleep(0)
        return update

    monkeypatch.setattr(service, "start", start_then_catch_up)
    owner = circus.guild.owner
    asked = await owner.slash(
        circus.channel,
        "tournament new",
        game="charioteer",
        name="Cup",
        turn_limit="none",
        format="elimination",
        table_size=2,
        options="laps=1",
    )
    post = await asked.reply()
    join = next(c for c in post.custom_ids() if c.endswith(":join"))
    for member in (circus.alice, circus.bob):
        await (await member.click(post, join)).reply()
    await (await owner.slash(circus.channel, "tournament start", tournament=1)).followup(0)
    await fake.wait_for(lambda: bool(delivering), what="the catch-up's delivery")
    await asyncio.wait_for(delivering[0], 30)
    await fake.wait_for(
        lambda: any(boards(thread) for thread in circus.guild.threads()),
        what="the first board in the thread",
    )
    assert boards(circus.channel) == []
