"""A race as its thread reads, counted end to end through the fake Discord: each turn
posts its reveal in a few short lines and the next board as a picture alone; each player
is pinged once a turn, by the board that owes their move, and the podium pings nobody; a
board whose turn is over keeps no waiting line and no button but Status."""

from __future__ import annotations

from collections import Counter

from tests.e2e.conftest import Table
from tests.e2e.players import (
    BOARD,
    board_turn,
    custom_id,
    play_until_the_end,
    podiums,
    retired,
    reveals,
    start_race,
)
from tests.fakediscord.harness import BotProcess


async def test_each_turn_posts_two_short_messages_and_pings_each_player_once(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, thread = await start_race(fake, alice, [bob], table.channel, ai="greedy")
    last = await play_until_the_end(fake, thread, [alice, bob])
    await fake.wait_for(lambda: bool(podiums(thread)), timeout=30, what="the podium")

    posts = thread.public_messages()
    boards = [m for m in posts if BOARD.match(m.content)]
    told = reveals(thread)
    assert [board_turn(board) for board in boards] == list(range(1, last + 1))
    assert len(told) == last and len(podiums(thread)) == 1
    assert len(posts) == 2 * last + 1, [m.content[:40] for m in posts]

    pings = Counter(user for message in posts for user in message.pinged)
    assert pings == {alice.id: last, bob.id: last}, "one ping a turn, by the board"
    assert all(board.pinged == {alice.id, bob.id} for board in boards)

    for board in boards:
        assert len(board.attachments) == 1 and "```" not in board.content
    assert all(retired(board) for board in boards), "a past turn's board still calls"

    for reveal in told:
        lines = reveal.content.split("\n")
        assert len(lines) <= 1 + 3 + 1, reveal.content  # header, a line a chariot, the end
        assert not lines[1].startswith("Turn "), "one header"
        assert [i.split(":")[2] for i in reveal.custom_ids()] == ["details"]
    details = await (await alice.click(told[0], custom_id(told[0], "details"))).reply()
    assert details.ephemeral and len(details.content) > len(told[0].content)

    podium = podiums(thread)[0]
    assert podium.pinged == frozenset() and len(podium.attachments) == 1
    assert "(A)" not in podium.content and "(B)" not in podium.content
    print(f"\nturns {last}: {len(posts)} posts, pings {dict(pings)}")
