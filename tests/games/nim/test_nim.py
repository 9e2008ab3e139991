"""A fourth game that ships only in the tests plugs into the host and the Discord front
through the registry alone (its rules, host adapter and front live in this folder), and
plays end to end through the fake Discord with the bot in this process, on both
databases: lobby, the private panel and its typed-move form, turns, a time limit played
by the AI on the test's clock, the winner's post, the rating, and a tournament round."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from bot.clock import FakeClock
from bot.games import register, unregister
from tests.cogs.test_tournament_signup import bot_on, click
from tests.e2e.players import custom_id
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord
from tests.games.nim import ENTRY

BOARD = re.compile(r"\*\*Nim #(\d+) · turn (\d+)\*\* · (\d+) counters left")
OVER = re.compile(r"\*\*Nim #\d+ is over\*\*")


@pytest.fixture(autouse=True)
def nim() -> Iterator[None]:
    """Nim is hosted for the test only."""
    register(ENTRY)
    try:
        yield
    finally:
        unregister(ENTRY.id)


def boards(place: Channel) -> list[Message]:
    return [m for m in place.public_messages() if BOARD.match(m.content) and m.custom_ids()]


async def board_of(fake: FakeDiscord, place: Channel, turn: int) -> tuple[Message, int]:
    """The board of ``turn`` and the counters it shows left."""

    def found() -> Message | None:
        return next((m for m in boards(place) if board_turn(m) == turn), None)

    await fake.wait_for(lambda: found() is not None, timeout=30, what=f"the board of turn {turn}")
    board = found()
    assert board is not None
    match = BOARD.match(board.content)
    assert match is not None
    return board, int(match.group(3))


def board_turn(message: Message) -> int:
    match = BOARD.match(message.content)
    assert match is not None
    return int(match.group(2))


async def open_panel(user: User, board: Message) -> Message:
    panel = await (await user.click(board, custom_id(board, "take"))).reply()
    assert panel.ephemeral_to is user, panel.content
    return panel


async def take(user: User, board: Message, count: int) -> str:
    """Choose ``count`` on the panel, then confirm; what the panel says after."""
    panel = await open_panel(user, board)
    panel = await (await user.select(panel, custom_id(panel, "count"), [str(count)])).reply()
    assert f"You take {count}." in panel.content
    return (await (await user.click(panel, custom_id(panel, "confirm"))).reply()).content


async def start(fake: FakeDiscord, host: User, others: list[User], channel: Channel) -> Channel:
    """Open a lobby, seat ``others``, start; the game's thread."""
    asked = await host.slash(channel, "nim new", seats=1 + len(others), pile=7, turn_limit="2m")
    lobby = await asked.reply()
    assert "A pile of 7 counters" in lobby.content and host.mention in lobby.content
    for user in others:
        await (await user.click(lobby, custom_id(lobby, "join"))).reply()
    assert channel.guild is not None
    await (await host.click(lobby, custom_id(lobby, "start"))).wait_ack()
    await fake.wait_for(lambda: bool(channel.guild and channel.guild.threads()), what="a thread")
    return channel.guild.threads()[-1]


async def test_nim_plays_from_lobby_to_rating(fake: FakeDiscord, database: str) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("games")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(start=time.time())
    async with bot_on(fake, database, clock):
        place = await start(fake, alice, [bob], channel)
        assert place.name == "Nim #1"
        board, left = await board_of(fake, place, 1)
        assert left == 7 and alice.mention in board.content
        refused = await (await bob.click(board, custom_id(board, "take"))).reply()
        assert "It is Alice's turn to take." in refused.content
        assert await take(alice, board, 2) == "You took 2."

        board, left = await board_of(fake, place, 2)
        assert left == 5 and bob.mention in board.content
        panel = await open_panel(bob, board)
        form = await bob.click(panel, custom_id(panel, "type"))
        await form.wait_modal()
        wrong = await (await bob.submit_modal(form, {"count": "9"})).reply()
        assert "Type a number of counters from 1 to 3." in wrong.content
        form = await bob.click(panel, custom_id(panel, "type"))
        await form.wait_modal()
        assert (await (await bob.submit_modal(form, {"count": "1"})).reply()).content == (
            "You took 1."
        )

        board, left = await board_of(fake, place, 3)
        assert left == 4
        clock.advance(121)  # alice lets her time run out: the AI takes for her
        board, left = await board_of(fake, place, 4)
        assert 1 <= left <= 3 and bob.mention in board.content
        assert await take(bob, board, left) == f"You took {left}."
        await fake.wait_for(
            lambda: any(OVER.match(m.content) for m in place.public_messages()), what="the end"
        )
        over = next(m for m in place.public_messages() if OVER.match(m.content))
        assert f"{bob.mention} took the last counter and wins" in over.content
        assert [board_turn(m) for m in boards(place)] == [1, 2, 3, 4]
        told = [m.content for m in place.public_messages() if "took" in m.content]
        assert "**Nim #1 · turn 1**: Alice took 2, 5 left." in told

        ranked = await (await alice.slash(channel, "leaderboard", game="nim")).reply()
        assert "**Nim leaderboard**" in ranked.content
        names = [line.split()[1] for line in ranked.content.splitlines() if line[:1].isdigit()]
        assert names == ["Bob", "Alice"]


async def test_a_tournament_round_of_nim(fake: FakeDiscord, database: str) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    async with bot_on(fake, database, FakeClock(time.time())):
        asked = await alice.slash(
            channel,
            "tournament new",
            game="nim",
            name="Cup",
            format="elimination",
            table_size=2,
            turn_limit="none",
        )
        post = await asked.reply()
        assert "Tournament #1" in post.content and "Nim" in post.content
        for member in (alice, bob):
            await click(member, post, "join")
        started = await alice.slash(channel, "tournament start", tournament=1)
        round_post = await started.followup(0)
        assert "Table 1 (Nim #1)" in round_post.content
        await fake.wait_for(lambda: bool(guild.threads()), what="the table's thread")
        place = guild.threads()[-1]
        assert place.name == "Nim #1"
        turn = 1
        while not any(OVER.match(m.content) for m in place.public_messages()):
            board, left = await board_of(fake, place, turn)
            player = alice if alice.mention in board.content else bob
            await take(player, board, min(left, 3))
            turn += 1
            await fake.wait_for(
                lambda turn=turn: (
                    any(OVER.match(m.content) for m in place.public_messages())
                    or any(board_turn(m) == turn for m in boards(place))
                ),
                what=f"turn {turn} or the end",
            )
        await fake.wait_for(
            lambda: any("Champion" in m.content for m in channel.public_messages()),
            what="the final standings",
        )
        final = next(m for m in channel.public_messages() if "Champion" in m.content)
        assert "**Cup" in final.content
