"""A race survives the bot being killed: SIGKILL after one of two moves was accepted, a
restart on the same database, and the race goes on without losing or repeating anything."""

from __future__ import annotations

from collections import Counter

from tests.e2e.conftest import Table, bot_running
from tests.e2e.players import (
    BOARD,
    boards,
    custom_id,
    database_actions,
    play_turn_with_the_panel,
    play_until_the_end,
    podiums,
    reveals,
    start_race,
    wait_for_board,
)


async def test_a_killed_bot_resumes_the_race_losing_and_repeating_nothing(table: Table) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    async with bot_running(table) as first:
        _, place = await start_race(fake, alice, [bob], table.channel)
        board = await wait_for_board(fake, place, 1)
        confirmed = await play_turn_with_the_panel(alice, board)
        assert "Move confirmed" in confirmed.content
        first.process.kill()
        await first.process.wait()
    accepted = database_actions(table.database)
    assert [(seat, source) for seat, source, _ in accepted] == [("A", "player")]

    async with bot_running(table):
        panel = await (await alice.click(board, custom_id(board, "choose"))).reply()
        assert "Your move is in" in panel.content
        await play_turn_with_the_panel(bob, board)
        last = await play_until_the_end(fake, place, [alice, bob], turn=2)

    assert database_actions(table.database)[0] == accepted[0]
    turns = Counter(BOARD.match(m.content).group(2) for m in boards(place))  # type: ignore[union-attr]
    assert all(count == 1 for count in turns.values()), turns
    assert len(turns) == last
    assert len(reveals(place)) == last
    assert len(podiums(place)) == 1
