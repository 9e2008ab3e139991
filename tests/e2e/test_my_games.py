"""``/game mine`` and a turn notice by DM, through the fake Discord against a real bot
process: a member's own tables, from the server and from a DM, each with a link to its
latest post; and the DM notice of a member who chose DMs, with the same link."""

from __future__ import annotations

from tests.databases import rows
from tests.e2e.conftest import Table
from tests.e2e.players import start_race, wait_for_board
from tests.fakediscord.harness import BotProcess


async def test_my_games_from_the_server_and_from_a_dm(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    _, place = await start_race(fake, alice, [bob], table.channel, turn_limit="1h")
    board = await wait_for_board(fake, place, 1)
    await fake.wait_for(
        lambda: rows(table.database, "SELECT board_message_id FROM game_tables") == [(board.id,)],
        timeout=10,
        what="the board to be stored",
    )
    link = f"https://discord.com/channels/{table.guild.id}/{place.id}/{board.id}"

    here = await (await alice.slash(table.channel, "game mine")).reply()
    assert here.ephemeral_to is alice
    assert here.content.split("\n")[0] == "Your game (1):"
    assert "#1 Charioteer · **your move** · time runs out <t:" in here.content
    assert link in here.content

    there = await (await alice.slash(fake.open_dm_channel(alice), "game mine")).reply()
    assert "#1 Charioteer (Circus) · **your move**" in there.content and link in there.content

    stranger = await (await carol.slash(table.channel, "game mine")).reply()
    assert stranger.content == "You have no seat at an open table in this server."


async def test_a_member_who_chose_dms_is_told_by_dm_with_a_link_and_not_pinged(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    chosen = await (await bob.slash(table.channel, "game notices", by="dm")).reply()
    assert chosen.ephemeral_to is bob and "Turn notices: by direct message." in chosen.content
    _, place = await start_race(fake, alice, [bob], table.channel)
    board = await wait_for_board(fake, place, 1)
    await fake.wait_for(lambda: bool(bob.dms()), timeout=30, what="bob's turn notice")
    [notice] = bob.dms()
    assert "your move is due" in notice.content
    assert f"https://discord.com/channels/{table.guild.id}/{place.id}/{board.id}" in notice.content
    assert bob.id not in board.pinged and alice.id in board.pinged
    assert not alice.dms()
