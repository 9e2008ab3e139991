"""Posting announcements under a burst: pictures queue without failing their posts, only a
few tables post at a time, a stuck picture worker is replaced, a click's own work ends
when it is answered, and a post's story too long for it goes just before it."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from bot.service import TableSettings
from cogs.front.announce import POSTING_AT_ONCE, Post
from tests.cogs.conftest import Circus
from tests.e2e.players import BOARD, board_turn, boards, custom_id, open_lobby


class Pictures:
    """Stands in for the picture workers: every picture waits for :meth:`release` (or
    ``delay`` seconds), and how many are being drawn at once is noted."""

    def __init__(self, delay: float | None = None) -> None:
        self.delay = delay
        self.drawing = 0
        self.most_at_once = 0
        self.drawn = 0
        self._gate = asyncio.Event()
        if delay is not None:
            self._gate.set()

    def release(self) -> None:
        self._gate.set()

    async def run(self, function: Callable[..., bytes], /, *args: Any, **kwargs: Any) -> bytes:
        self.drawing += 1
        self.most_at_once = max(self.most_at_once, self.drawing)
        try:
            await self._gate.wait()
            if self.delay:
                await asyncio.sleep(self.delay)
            self.drawn += 1
            return function(*args, **kwargs)
        finally:
            self.drawing -= 1


async def opened_race(circus: Circus) -> int:
    """A two-seat race's lobby opened by alice in the circus's channel, through the service."""
    table = await circus.bot.service.open_lobby(
        game="charioteer",
        host_id=circus.alice.id,
        host_name="alice",
        settings=TableSettings(seats=2, turn_seconds=None),
        guild_id=circus.guild.id,
        channel_id=circus.channel.id,
    )
    return table.id


async def started_races(circus: Circus, count: int) -> list[int]:
    """Races started through the service (their first boards pending, nothing posted)."""
    service = circus.bot.service
    races = []
    for _ in range(count):
        race = await opened_race(circus)
        await service.add_ai(race, circus.alice.id, "random")
        await service.start(race, circus.alice.id)
        races.append(race)
    return races


def posted_boards(circus: Circus) -> list[tuple[int, int]]:
    """(race, turn) of every board posted in the circus's channel."""
    found = []
    for message in boards(circus.channel):
        match = BOARD.match(message.content)
        assert match is not None
        found.append((int(match.group(1)), board_turn(message)))
    return sorted(found)


async def test_a_picture_slower_than_a_post_may_take_is_still_posted_once(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The post's time limit is Discord's: waiting for the picture workers (a burst of
    boards) is not a failed post. Before, every such board failed, was drawn again later,
    and under a long enough queue never went out."""
    bot = circus.bot
    pictures = Pictures(delay=0.6)
    monkeypatch.setattr(bot.images, "run", pictures.run)
    bot.announcer.post_timeout = 0.3
    [race] = await started_races(circus, 1)
    assert await bot.announcer.outbox.deliver(race)
    assert posted_boards(circus) == [(race, 1)]
    assert bot.announcer.outbox.failures(race) == 0
    assert pictures.drawn == 1


async def test_only_a_few_tables_draw_and_post_at_once_and_every_one_gets_its_turn(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = circus.bot
    pictures = Pictures()
    monkeypatch.setattr(bot.images, "run", pictures.run)
    races = await started_races(circus, POSTING_AT_ONCE + 5)
    deliveries = [asyncio.create_task(bot.announcer.outbox.deliver(race)) for race in races]
    await circus.fake.wait_for(
        lambda: pictures.drawing == POSTING_AT_ONCE, 10, "the first tables drawing"
    )
    await asyncio.sleep(0.05)  # the others stay in line
    assert pictures.drawing == POSTING_AT_ONCE
    pictures.release()
    assert all(await asyncio.gather(*deliveries))
    assert pictures.most_at_once == POSTING_AT_ONCE
    assert posted_boards(circus) == [(race, 1) for race in races]


async def test_a_stuck_picture_worker_is_replaced_and_the_board_posted_later(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = circus.bot
    stuck = asyncio.Event()
    restarts: list[bool] = []
    calls = 0

    async def first_one_hangs(draw: Callable[..., bytes], /, *args: Any, **kwargs: Any) -> bytes:
        nonlocal calls
        calls += 1
        if calls == 1:
            await stuck.wait()  # never set: a worker that never answers
        return draw(*args, **kwargs)

    monkeypatch.setattr(bot.images, "run", first_one_hangs)
    monkeypatch.setattr(bot.images, "restart", lambda: restarts.append(True))
    bot.announcer.draw_timeout = 0.3
    [race] = await started_races(circus, 1)
    assert not await bot.announcer.outbox.deliver(race)
    assert restarts == [True]
    assert bot.announcer.outbox.retry_at(race) is not None  # the outbox tries again
    assert await bot.announcer.outbox.deliver(race)
    assert posted_boards(circus) == [(race, 1)]


async def test_a_start_click_is_done_once_answered_and_its_board_follows(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Start click's work ends with its answer and the thread: the first board is
    drawn and posted in the background. Before, the click waited for the board, and under
    a burst of starts a thousand clicks, each with its interaction, its message and its
    member, waited in memory for the picture workers."""
    bot, fake, alice = circus.bot, circus.fake, circus.alice
    pictures = Pictures()
    monkeypatch.setattr(bot.images, "run", pictures.run)
    lobby = await open_lobby(alice, circus.channel, seats=2)
    await (await alice.select(lobby, custom_id(lobby, "addai"), ["random"])).reply()
    await (await alice.click(lobby, custom_id(lobby, "start"))).wait_ack()
    await fake.wait_for(lambda: pictures.drawing == 1, 10, "the first board being drawn")
    clicks = [
        task
        for task in asyncio.all_tasks()
        if task.get_name().startswith("discord-ui-") and not task.done()
    ]
    for task in clicks:  # at most finishing its thread
        await asyncio.wait_for(task, 5)
    assert pictures.drawing == 1, "the board still waits for its picture"
    pictures.release()
    await fake.wait_for(
        lambda: any(boards(thread) for thread in circus.guild.threads()), 10, "the first board"
    )


async def test_a_posts_lead_messages_go_out_just_before_it_and_ping_nobody(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A post whose story needs more room than one message (a long battle) sends it in
    messages of its own first; only the post itself pings."""
    bot = circus.bot
    front = bot.announcer.fronts["charioteer"]
    compose = front.compose

    async def with_lead(channel: Any, table: Any, announcement: Any) -> Post:
        post = await compose(channel, table, announcement)
        return dataclasses.replace(post, lead=[f"a long story <@{circus.alice.id}>", "its end"])

    monkeypatch.setattr(front, "compose", with_lead)
    [race] = await started_races(circus, 1)
    assert await bot.announcer.outbox.deliver(race)
    *lead, board = circus.channel.public_messages()[-3:]
    assert [m.content for m in lead] == [f"a long story <@{circus.alice.id}>", "its end"]
    assert BOARD.match(board.content) and board_turn(board) == 1
    assert all(not m.pinged for m in lead)
    assert posted_boards(circus) == [(race, 1)]


async def test_a_board_is_posted_even_when_the_table_was_read_before_its_turn_began(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a board whose turn is over is left unposted. A read of the table that predates
    the action opening the board's turn is no reason to drop it: the board is drawn from
    its own snapshot, and a dropped one left its race waiting with nothing to click."""
    bot = circus.bot
    [race] = await started_races(circus, 1)
    read = bot.service.table

    async def read_before_the_turn_began(table_id: int) -> Any:
        table = await read(table_id)
        return dataclasses.replace(table, row=dataclasses.replace(table.row, turn=0))

    monkeypatch.setattr(bot.service, "table", read_before_the_turn_began)
    assert await bot.announcer.outbox.deliver(race)
    assert posted_boards(circus) == [(race, 1)]


async def test_a_board_refreshed_as_its_turn_ends_keeps_its_own_turn(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The waiting line of a board is edited after a move; when the turn's last move lands
    while that edit is being worded, the board keeps its own turn's text: it is the next
    board's to show the new turn (its reveal comes first), not the old one's."""
    service = circus.bot.service
    table = await service.join(await opened_race(circus), circus.bob.id, "bob")
    await service.start(table.id, circus.alice.id)
    assert await circus.bot.announcer.outbox.deliver(table.id)
    [board] = boards(circus.channel)
    assert board_turn(board) == 1

    async def legal_move(user_id: int) -> Any:
        _, view = await service.view_for(table.id, user_id)
        return view.legal_moves(discards=False)[0]

    await service.submit(table.id, circus.alice.id, await legal_move(circus.alice.id), 1)
    bobs_move = await legal_move(circus.bob.id)
    view_for = service.view_for
    moved: list[bool] = []

    async def the_turn_ends_meanwhile(table_id: int, user_id: int | None) -> Any:
        if not moved:
            moved.append(True)
            await service.submit(table.id, circus.bob.id, bobs_move, 1)
        return await view_for(table_id, user_id)

    monkeypatch.setattr(service, "view_for", the_turn_ends_meanwhile)
    await circus.bot.announcer.refresh_board(table.id)
    assert moved, "the refresh read the board's view"
    assert board_turn(board) == 1
