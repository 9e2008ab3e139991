"""A whole race in Discord: the real bot process against the fake Discord, from
``/race new`` to the podium, every move made through the private panel."""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.players import custom_id, open_lobby, play_turn_with_the_panel, wait_for_board
from tests.fakediscord.harness import BotProcess


async def test_a_three_seat_race_from_lobby_to_podium(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    lobby = await open_lobby(alice, table.channel, seats=3, laps=1, turn_limit="none")
    assert "Race #1" in lobby.content and not lobby.ephemeral
    await (await bob.click(lobby, custom_id(lobby, "join"))).reply()
    await (await alice.select(lobby, custom_id(lobby, "addai"), ["greedy"])).reply()
    assert "bob" in lobby.content.lower() or f"<@{bob.id}>" in lobby.content
    await (await alice.click(lobby, custom_id(lobby, "start"))).wait_ack()

    await fake.wait_for(lambda: bool(table.guild.threads()), timeout=30, what="the race's thread")
    thread = table.guild.threads()[0]
    turn = 1
    while True:
        board = await wait_for_board(fake, thread, turn)
        for player in (alice, bob):
            confirmed = await play_turn_with_the_panel(player, board)
            assert (
                "Move confirmed" in confirmed.content
                or "turn is being revealed" in confirmed.content
            )
        next_board = f"turn {turn + 1}**"
        await fake.wait_for(
            lambda wanted=next_board: any(
                "is over" in m.content or wanted in m.content for m in thread.public_messages()
            ),
            timeout=30,
            what=f"the end of turn {turn}",
        )
        if any("is over" in m.content for m in thread.public_messages()):
            break
        turn += 1
        assert turn < 60, "the race does not end"
    podium = [m for m in thread.public_messages() if "is over" in m.content]
    assert len(podium) == 1
    assert podium[0].content.count("\n") == 3
    reveals = [m for m in thread.public_messages() if "revealed**" in m.content]
    assert len(reveals) == turn
