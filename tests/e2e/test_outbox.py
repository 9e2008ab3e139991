"""Nothing stalls when Discord fails: a board Discord did not take (a 5xx discord.py gave
up on, a timeout, a dropped connection, a permission missing for a while) is posted later,
once; the old board never shows the new turn; race threads last a week, reopen when
Discord archived them and close at the podium; closed DMs are not tried on every board."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Table
from tests.e2e.players import (
    board_turn,
    boards,
    play_turn_with_the_panel,
    play_until_the_end,
    podiums,
    reveals,
    start_race,
    wait_for_board,
)
from tests.fakediscord.harness import BotProcess
from tests.fakediscord.model import ChannelType, Message

MESSAGES = "/channels/{channel_id}/messages"
THREADS_FROM_MESSAGE = "/channels/{channel_id}/messages/{message_id}/threads"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
WEEK_MINUTES = 7 * 24 * 60


def shows_its_own_turn(board: Message) -> bool:
    """A board's header and its buttons name the same turn."""
    return all(int(c.split(":")[3]) == board_turn(board) for c in board.custom_ids())


async def test_a_board_discord_failed_is_posted_later_and_the_old_board_keeps_its_turn(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_race(fake, alice, [bob], table.channel)  # no time limit
    first = await wait_for_board(fake, place, 1)
    await play_turn_with_the_panel(alice, first)
    fake.inject_faults("POST", MESSAGES, times=1, skip=1)  # the reveal passes, the board not
    await play_turn_with_the_panel(bob, first)
    second = await wait_for_board(fake, place, 2)
    assert [r.status for r in fake.requests_for("POST", MESSAGES)][-3:] == [200, 503, 200]
    assert len(reveals(place)) == 1
    assert [board_turn(b) for b in boards(place)] == [1, 2]
    assert all(shows_its_own_turn(b) for b in boards(place))
    assert all("turn 2" not in revision["content"] for revision in first.revisions)
    assert second.id != first.id


@pytest.mark.parametrize("kind", ["timeout", "drop"])
async def test_a_board_lost_on_the_way_is_posted_again_once(
    table: Table, started_bot: BotProcess, kind: str
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    fake.inject_faults("POST", MESSAGES, times=2, kind=kind, hold=0.2)
    _, place = await start_race(fake, alice, [bob], table.channel)
    board = await wait_for_board(fake, place, 1)
    assert [r.status for r in fake.requests_for("POST", MESSAGES)] == [0, 0, 200]
    assert boards(place) == [board]
    await play_turn_with_the_panel(alice, board)
    await play_turn_with_the_panel(bob, board)
    await wait_for_board(fake, place, 2)


async def test_a_permission_missing_for_a_while_tells_the_host_once_then_the_race_goes_on(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_race(fake, alice, [bob], table.channel)
    first = await wait_for_board(fake, place, 1)
    await play_turn_with_the_panel(alice, first)
    table.channel.deny_bot("send_messages_in_threads")
    await play_turn_with_the_panel(bob, first)
    await fake.wait_for(
        lambda: len([r for r in fake.requests_for("POST", MESSAGES) if r.status == 403]) >= 3,
        timeout=30,
        what="the reveal to be tried three times",
    )
    told = [m for m in alice.dms() if "no longer post" in m.content]
    assert len(told) == 1 and "the channel of Race #1:" in told[0].content
    assert not bob.dms()
    table.channel.allow_bot("send_messages_in_threads")
    await wait_for_board(fake, place, 2)
    assert len(reveals(place)) == 1
    assert len([m for m in alice.dms() if "no longer post" in m.content]) == 1


async def test_race_threads_last_a_week_reopen_when_archived_and_close_at_the_podium(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_race(fake, alice, [bob], table.channel)
    assert place.type == ChannelType.PUBLIC_THREAD
    [opened] = fake.requests_for("POST", THREADS_FROM_MESSAGE)
    assert opened.body["auto_archive_duration"] == WEEK_MINUTES
    board = await wait_for_board(fake, place, 1)
    fake.clock.advance(WEEK_MINUTES * 60 + 60)
    assert place.archived
    await play_turn_with_the_panel(alice, board)
    await fake.wait_for(
        lambda: f"<@{alice.id}>" not in board.content.split("\n")[-1],
        timeout=10,
        what="the board's waiting line to drop alice",
    )
    assert f"<@{bob.id}>" in board.content.split("\n")[-1]
    assert not [r for r in fake.requests if r.status == 400]
    await play_turn_with_the_panel(bob, board)
    await play_until_the_end(fake, place, [alice, bob], turn=2)
    await fake.wait_for(lambda: place.archived, timeout=10, what="the thread to be archived")
    assert len(podiums(place)) == 1
    assert place.locked


async def test_closed_dms_are_remembered_until_the_player_turns_them_on_again(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    await (await bob.slash(table.channel, "race dm", enabled=True)).reply()
    bob.close_dms()
    _, place = await start_race(fake, alice, [bob], table.channel, laps=3)
    board = await wait_for_board(fake, place, 1)
    await fake.wait_for(
        lambda: any("send bob a direct" in m.content.lower() for m in place.public_messages()),
        timeout=10,
        what="the note about bob's DMs",
    )
    refused = [r for r in fake.requests_for("POST", MESSAGES) if r.status == 403]
    assert len(refused) == 1
    for player in (alice, bob):
        await play_turn_with_the_panel(player, board)
    board = await wait_for_board(fake, place, 2)
    for player in (alice, bob):
        await play_turn_with_the_panel(player, board)
    board = await wait_for_board(fake, place, 3)
    assert [r for r in fake.requests_for("POST", MESSAGES) if r.status == 403] == refused

    bob.open_dms()
    await (await bob.slash(table.channel, "race dm", enabled=True)).reply()
    for player in (alice, bob):
        await play_turn_with_the_panel(player, board)
    await wait_for_board(fake, place, 4)
    await fake.wait_for(
        lambda: any("your move is due" in m.content for m in bob.dms()),
        timeout=10,
        what="bob's DM about turn 4",
    )


async def test_an_answer_lost_on_the_way_is_logged_as_such_not_as_a_traceback(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice = table.fake, table.alice
    for command, options, logged in [
        ("race rules", {}, "Discord did not answer a call"),
        ("race status", {"race": 7}, "could not answer an interaction with an error"),
    ]:
        fake.inject_faults("POST", CALLBACK, kind="drop")
        await (await alice.slash(table.channel, command, **options)).wait_failed()
        await fake.wait_for(
            lambda logged=logged: logged in started_bot.output(),
            timeout=10,
            what=f"the bot to note: {logged}",
        )
    assert len(fake.take_violations()) == 2  # alice saw "This interaction failed" twice
    again = await (await alice.slash(table.channel, "race rules")).reply()
    assert again.ephemeral_to is alice
    assert "Traceback" not in started_bot.output()
