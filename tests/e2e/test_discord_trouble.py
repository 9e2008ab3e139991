"""Discord misbehaving: a rate limit on the board post, a player whose DMs are closed, a
channel where the bot lacks permissions."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Table
from tests.e2e.players import (
    boards,
    custom_id,
    open_lobby,
    play_turn_with_the_panel,
    start_race,
    wait_for_board,
)
from tests.fakediscord.harness import BotProcess

MESSAGES = "/channels/{channel_id}/messages"
ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


@pytest.mark.parametrize("command", ["race new", "cartographers new", "carcassonne new"])
async def test_a_join_before_the_lobby_is_known_updates_the_lobby(
    table: Table, started_bot: BotProcess, command: str
) -> None:
    """The lobby's message id is stored once Discord says what it is; a Join clicked before
    that (here: Discord's answer is slow, failing once) still shows on the lobby."""
    alice, bob = table.alice, table.bob
    table.fake.inject_faults("GET", ORIGINAL, times=1)
    lobby = await (await alice.slash(table.channel, command, seats=3)).reply()
    assert bob.mention not in lobby.content
    answer = await (await bob.click(lobby, custom_id(lobby, "join"))).reply()
    assert answer is lobby
    assert bob.mention in lobby.content


async def test_a_rate_limited_board_is_retried_and_posted_once(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    fake.script_rate_limit("POST", MESSAGES, times=1)
    _, place = await start_race(fake, alice, [bob], table.channel)
    await wait_for_board(fake, place, 1)
    statuses = [record.status for record in fake.requests_for("POST", MESSAGES)]
    assert statuses[:2] == [429, 200]
    assert len(boards(place)) == 1


async def test_closed_dms_do_not_stop_the_race(table: Table, started_bot: BotProcess) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    for user in (alice, bob):
        answer = await (await user.slash(table.channel, "race dm", enabled=True)).reply()
        assert answer.ephemeral_to is user
    bob.close_dms()
    _, place = await start_race(fake, alice, [bob], table.channel)
    board = await wait_for_board(fake, place, 1)
    await fake.wait_for(lambda: bool(alice.dms()), timeout=10, what="alice's DM")
    notice = alice.dms()[-1]
    assert "your move is due" in notice.content and "Your hand" in notice.content
    await fake.wait_for(
        lambda: any(
            "couldn't send bob a direct message" in m.content.lower()
            for m in place.public_messages()
        ),
        timeout=10,
        what="the note about bob's closed DMs",
    )
    from_dm = await (await alice.click(notice, custom_id(notice, "choose"))).reply()
    assert "private panel" in from_dm.content
    for player in (alice, bob):
        await play_turn_with_the_panel(player, board)
    await wait_for_board(fake, place, 2)
    notes = [m for m in place.public_messages() if "couldn't send bob" in m.content.lower()]
    assert len(notes) == 1


async def test_a_channel_without_permissions_gets_a_clear_message(
    table: Table, started_bot: BotProcess
) -> None:
    table.channel.deny_bot("send_messages")
    answer = await open_lobby(table.alice, table.channel, seats=2)
    assert answer.ephemeral_to is table.alice
    assert "send_messages" in answer.content and "permission" in answer.content
    assert table.fake.public_messages(table.channel) == []


async def test_without_thread_permissions_the_race_runs_in_the_channel(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    table.channel.deny_bot("create_public_threads")
    _, place = await start_race(fake, alice, [bob], table.channel)
    assert place is table.channel
    board = await wait_for_board(fake, place, 1)
    assert any("can't open threads" in m.content for m in alice.ephemerals())
    await play_turn_with_the_panel(alice, board)
