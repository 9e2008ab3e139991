"""Each member hears of their moves as they chose (``/game notices``), on a fake clock: no
ping, a DM with a link to the board, nothing at all, quiet hours that hold a ping until
the morning, a reminder every few hours; and ``/game mine`` lists a member's own tables,
from a server that server's, from a DM those of every server they share with the bot."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from bot.clock import FakeClock
from bot.service import TableService, TableSettings
from cogs.front.tables import my_games_text
from tests.cogs.test_tournament_signup import bot_on
from tests.databases import rows
from tests.e2e.players import play_turn_with_the_panel, start_race, wait_for_board
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

ROME = zoneinfo.ZoneInfo("Europe/Rome")
NOON_IN_ROME = dt.datetime(2026, 1, 15, 12, tzinfo=ROME).timestamp()
TWO_AT_NIGHT_IN_ROME = dt.datetime(2026, 1, 15, 2, tzinfo=ROME).timestamp()


async def choose(user: User, channel: Channel, **options: object) -> Message:
    answer = await (await user.slash(channel, "game notices", **options)).reply()
    assert answer.ephemeral_to is user
    return answer


def posts_pinging(channel: Channel, text: str) -> list[Message]:
    return [m for m in channel.public_messages() if text in m.content]


async def test_each_member_is_told_of_their_move_their_own_way(
    fake: FakeDiscord, database: str
) -> None:
    """Alice chose no notices, bob DMs: the board pings neither; bob's DM links to the
    board; the half-time reminder pings nobody in public and reaches bob by DM."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(NOON_IN_ROME)
    async with bot_on(fake, database, clock):
        assert "none" in (await choose(alice, channel, by="none")).content
        assert "direct message" in (await choose(bob, channel, by="dm")).content
        _, place = await start_race(fake, alice, [bob], channel, turn_limit="2m")
        board = await wait_for_board(fake, place, 1)
        await fake.wait_for(lambda: bool(bob.dms()), timeout=10, what="bob's turn notice")
        [notice] = bob.dms()
        assert f"/channels/{guild.id}/{place.id}/{board.id}" in notice.content
        assert not alice.dms()
        assert bob.mention in board.content and alice.mention in board.content
        assert board.pinged == frozenset()

        clock.advance(61)
        await fake.wait_for(lambda: len(bob.dms()) == 2, timeout=10, what="bob's reminder")
        assert "your move is due" in bob.dms()[1].content
        assert f"/{board.id}" in bob.dms()[1].content
        assert not posts_pinging(place, "⏳")
        assert not alice.dms()


async def test_quiet_hours_hold_the_ping_until_the_morning(
    fake: FakeDiscord, database: str
) -> None:
    """Bob's quiet hours run 23:00-07:00 in Rome: the board posted at 02:00 there names him
    without a ping, and at 07:00 one post pings him that his move is still due."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(TWO_AT_NIGHT_IN_ROME)
    async with bot_on(fake, database, clock):
        answer = await choose(bob, channel, time_zone="Europe/Rome", quiet_from=23, quiet_until=7)
        assert "23:00–07:00 (Europe/Rome)" in answer.content
        _, place = await start_race(fake, alice, [bob], channel)
        board = await wait_for_board(fake, place, 1)
        assert bob.mention in board.content and bob.id not in board.pinged
        assert alice.id in board.pinged
        clock.advance(5 * 3600 - 1)
        assert not posts_pinging(place, "still due")
        clock.advance(1)
        await fake.wait_for(
            lambda: posts_pinging(place, "still due"), timeout=10, what="the morning ping"
        )
        [morning] = posts_pinging(place, "still due")
        assert morning.pinged == {bob.id}


async def test_a_member_reminded_every_two_hours_is_reminded_every_two_hours(
    fake: FakeDiscord, database: str
) -> None:
    """At a table without a time limit (no reminders by default), bob asked for one every
    two hours: one comes at two hours, the next at four; alice, who moved, gets none."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(NOON_IN_ROME)
    async with bot_on(fake, database, clock):
        assert "every 2 hours" in (await choose(bob, channel, remind_every=2)).content
        _, place = await start_race(fake, alice, [bob], channel)
        await wait_for_board(fake, place, 1)
        await kept(fake, database, NOON_IN_ROME + 2 * 3600)
        clock.advance(2 * 3600 - 1)
        assert not posts_pinging(place, "still due")
        clock.advance(1)
        await fake.wait_for(lambda: posts_pinging(place, "still due"), timeout=10, what="one")
        await kept(fake, database, NOON_IN_ROME + 4 * 3600)
        clock.advance(2 * 3600)
        await fake.wait_for(
            lambda: len(posts_pinging(place, "still due")) == 2, timeout=10, what="the second"
        )
        assert all(m.pinged == {bob.id} for m in posts_pinging(place, "still due"))


async def kept(fake: FakeDiscord, database: str, due_at: float) -> None:
    """Wait until the member's next reminder is kept, due at ``due_at``."""
    await fake.wait_for(
        lambda: rows(database, "SELECT due_at FROM member_notices") == [(due_at,)],
        timeout=10,
        what=f"a reminder kept for {due_at}",
    )


async def test_nobody_reads_another_members_notice_choices(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    async with bot_on(fake, database, FakeClock(NOON_IN_ROME)):
        await choose(alice, channel, by="dm", time_zone="Asia/Tokyo", quiet_from=22, quiet_until=6)
        seen = await choose(bob, channel)
        assert "Tokyo" not in seen.content and "direct message" not in seen.content
        assert "Quiet hours: none" in seen.content
        refused = await choose(bob, channel, time_zone="Mars/Base")
        assert "don't know the time zone" in refused.content
        zones = await (
            await bob.autocomplete(channel, "game notices", "time_zone", "rome")
        ).wait_choices()
        assert [choice["value"] for choice in zones] == ["Europe/Rome"]


async def test_my_games_from_a_server_and_from_a_dm(fake: FakeDiscord, database: str) -> None:
    """Alice sits at a table here and one in another server; bob and carol at a third
    she has no seat at. From here, ``/game mine`` lists this server's table of hers; from
    a DM, both of hers, the one owing her move first; once she has left the other server,
    only this one."""
    here, there = fake.add_guild("Circus"), fake.add_guild("Elsewhere")
    races, far = here.add_text_channel("races"), there.add_text_channel("far")
    alice, bob, carol = (here.add_member(name) for name in ("alice", "bob", "carol"))
    there.add_member(alice)
    dave = there.add_member("dave")
    async with bot_on(fake, database, FakeClock(NOON_IN_ROME)):
        _, place = await start_race(fake, alice, [bob], races, turn_limit="2m")
        board = await wait_for_board(fake, place, 1)
        await play_turn_with_the_panel(alice, board)
        await start_race(fake, bob, [carol], races)
        _, far_place = await start_race(fake, dave, [alice], far, turn_limit="1h")
        far_board = await wait_for_board(fake, far_place, 1)
        await fake.wait_for(
            lambda: (
                len(rows(database, "SELECT 1 FROM game_tables WHERE board_message_id > 0")) == 3
            ),
            timeout=10,
            what="every board to be stored",
        )

        mine = await (await alice.slash(races, "game mine")).reply()
        assert mine.ephemeral_to is alice
        lines = mine.content.split("\n")
        assert lines[0] == "Your game (1):"
        assert lines[1].startswith("#1 Charioteer · waiting for the others")
        assert f"/channels/{here.id}/{place.id}/{board.id}" in lines[1]

        dm = fake.open_dm_channel(alice)
        mine = await (await alice.slash(dm, "game mine")).reply()
        lines = mine.content.split("\n")
        assert lines[0] == "Your games (2):"
        deadline = f"<t:{int(NOON_IN_ROME) + 3600}:R>"
        assert lines[1].startswith(
            f"#3 Charioteer (Elsewhere) · **your move** · time runs out {deadline}"
        )
        assert f"/channels/{there.id}/{far_place.id}/{far_board.id}" in lines[1]
        assert lines[2].startswith("#1 Charioteer (Circus) · waiting for the others")
        assert "#2" not in mine.content

        del there.members[alice.id]
        mine = await (await alice.slash(dm, "game mine")).reply()
        assert mine.content.split("\n")[0] == "Your game (1):" and "#3" not in mine.content
        nothing = await (await carol.slash(fake.open_dm_channel(carol), "game mine")).reply()
        assert "#2" in nothing.content and "#1" not in nothing.content


async def test_my_games_fits_a_phone_with_fifteen_tables_and_how_many_more(
    database: str,
) -> None:
    service = await TableService.create(database, clock=FakeClock(NOON_IN_ROME))
    try:
        for _ in range(17):
            await service.open_lobby(
                game="charioteer",
                host_id=11,
                host_name="alice",
                settings=TableSettings(seats=2),
                guild_id=1,
                channel_id=2,
            )
        tables = await service.seated_tables(11)
        text = my_games_text(tables, 11, "en", lambda table, _: table.game, None)
    finally:
        await service.close()
    lines = text.split("\n")
    assert lines[0] == "Your games (17):" and lines[-1] == "…and 2 more."
    assert len(lines) == 17 and lines[1].startswith("#17 charioteer · in the lobby")
    assert all(len(line) < 120 for line in lines)
