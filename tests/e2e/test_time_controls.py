"""Time controls end to end, through the fake Discord: a race on time banks shows each
player's bank as a Discord timestamp on every board and in the player's panel, a member
away has their seat played by the AI at once and the board says until when, and the
absent-player vote refuses strangers and forged buttons."""

from __future__ import annotations

import re

from tests.e2e.conftest import Table
from tests.e2e.players import (
    custom_id,
    play_turn_with_the_panel,
    start_race,
    wait_for_board,
)
from tests.fakediscord.harness import BotProcess

BANK = re.compile(r"<@(\d+)> \(bank runs out <t:(\d+):R>\)")
AWAY = re.compile(r"<@(\d+)> \(away until <t:(\d+):R>\)")


async def test_a_race_on_banks_shows_each_players_bank_and_an_absence(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    lobby, place = await start_race(fake, alice, [bob], table.channel, turn_limit="bank_fast")
    assert "2 h bank + 1 h per move (fast)" in lobby.content
    first = await wait_for_board(fake, place, 1)
    banks = {int(user): int(when) for user, when in BANK.findall(first.content)}
    assert set(banks) == {alice.id, bob.id}
    assert banks[alice.id] == banks[bob.id]  # both owe the first move from the start
    panel = await (await alice.click(first, custom_id(first, "choose"))).reply()
    assert f"Your bank runs out <t:{banks[alice.id]}:R>." in panel.content

    await play_turn_with_the_panel(alice, first)
    await fake.wait_for(
        lambda: f"<@{alice.id}> (bank" not in first.content,
        timeout=10,
        what="the board to drop alice's bank once she moved",
    )
    assert [int(user) for user, _ in BANK.findall(first.content)] == [bob.id]

    said = await (await bob.slash(table.channel, "away", until="3d")).reply()
    assert "You are away from this server's games until <t:" in said.content
    second = await wait_for_board(fake, place, 2)  # bob's move played by the AI at once
    assert [int(user) for user, _ in AWAY.findall(second.content)] == [bob.id]
    assert [int(user) for user, _ in BANK.findall(second.content)] == [alice.id]

    back = await (await bob.slash(table.channel, "back")).reply()
    assert back.content == "Welcome back: your clocks run again."


async def test_strangers_and_forged_buttons_cannot_vote_on_a_seat(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    _, place = await start_race(fake, alice, [bob], table.channel)
    board = await wait_for_board(fake, place, 1)
    opener = custom_id(board, "absent")
    stranger = await (await carol.click(board, opener)).reply()
    assert "seat" in stranger.content.lower()
    early = await (await alice.click(board, opener)).reply()
    assert early.content == "Nobody at this table has owed a move for a day yet."
    forged = opener.replace(":absent:", ":votega:")
    for voter in (carol, alice):
        refused = await (await voter.forge(place, forged, source=board)).reply()
        assert refused.content == "That button doesn't do anything any more."
    assert not [m for m in place.public_messages() if "may hand the seat" in m.content]
    assert not [m for m in place.public_messages() if "vote is in" in m.content]
