"""A tournament played fairly whatever members try, on Discord through the fake, on both
storage backends: a finished tournament keeps its record; names and typed options are
cleaned and checked; a tournament its game cannot seat is refused; simultaneous clicks all
count, and every finished game's result reaches its tournament exactly once, whatever
else is stored at that moment and across a restart."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

from bot.clock import FakeClock
from bot.community.desk import TournamentDesk, TournamentRecord
from bot.community.server import ServerSettings, ServerSettingsStore
from bot.community.tournament import FINISHED, Format, TournamentSettings
from bot.games.base import ServiceError
from bot.service import Table, TableService
from bot.sql import Connection
from bot.storage import Storage
from engine.core import Rng
from tests.bot.test_service import play_to_the_end
from tests.cogs.test_tournament_signup import HOUR, bot_on, click, open_tournament
from tests.fakediscord.interactions import DEFERRED_MESSAGE, Interaction
from tests.fakediscord.model import Channel, Message
from tests.fakediscord.server import FakeDiscord


async def test_a_finished_tournament_keeps_its_record(fake: FakeDiscord, database: str) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        desk = bot.tournament_cog.desk
        post = await open_tournament(
            alice, channel, format="elimination", table_size=2, options="laps=1"
        )
        for member in (alice, bob):
            await click(member, post, "join")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        ((race,),) = await bot.service.storage.read("SELECT id FROM game_tables")
        await play_to_the_end(bot.service, race, Rng(race))
        await bot.tournament_cog.game_over(race)
        record = await desk.load(1)
        assert record.state.status == FINISHED
        left = await (await bob.slash(channel, "tournament leave", tournament=1)).reply()
        assert "is over" in left.content and left.ephemeral_to is bob
        removed = await (
            await alice.slash(channel, "tournament remove", tournament=1, member=bob)
        ).reply()
        assert "is over" in removed.content
        assert (await desk.load(1)).events == record.events


async def test_names_with_control_characters_or_lone_surrogates_are_cleaned(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob = guild.add_member("alice"), guild.add_member("bob\x00\ud800\x1b")
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        post = await (
            await alice.slash(
                channel,
                "tournament new",
                game="charioteer",
                name="Cup\x00 of\n\udc80 the\tbrave\x7f",
                options="laps=1\x00",
            )
        ).reply()
        assert "Cup of the brave" in post.content and not post.ephemeral
        await click(bob, post, "join")
        record = await bot.tournament_cog.desk.load(1)
        assert record.name == "Cup of the brave"
        assert [entrant.name for entrant in record.state.entrants.values()] == ["Bob"]
        assert record.state.settings.table["options"] == {"laps": 1}


async def test_every_typed_option_the_game_cannot_take_is_refused_in_words(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice = guild.add_member("alice")
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        for game, typed, refusal in (
            ("charioteer", "laps=²", "laps=²"),
            ("charioteer", "laps=99", "laps=99"),
            ("charioteer", "speed=3", "no option speed"),
            ("cartographers", "side=C", "side=C"),
            ("cartographers", "colour=red", "no option colour"),
            ("carcassonne", "team=maybe", "team=maybe"),
            ("carcassonne", "unplaceable=keep", "unplaceable=keep"),
            ("carcassonne", "meeples=9", "no option meeples"),
        ):
            answer = await (
                await alice.slash(
                    channel, "tournament new", game=game, name="Cup", table_size=2, options=typed
                )
            ).reply()
            assert refusal in answer.content and answer.ephemeral_to is alice, (game, typed)
            assert "went wrong" not in answer.content
        assert await bot.service.storage.read("SELECT id FROM tournaments") == []


async def test_a_tournament_whose_game_cannot_seat_its_tables_is_refused(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice = guild.add_member("alice")
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        for game, options, refusal in (
            ({"game": "charioteer", "table_size": 7}, None, "2 to 6 players"),
            ({"game": "carcassonne", "table_size": 6}, None, "2 to 5 players"),
            ({"game": "carcassonne", "table_size": 4}, "team=yes", "a table of 2"),
            (
                {"game": "carcassonne", "table_size": 4, "format": "heats"},
                "team=yes",
                "a table of 2",
            ),
        ):
            typed = {"options": options} if options else {}
            answer = await (
                await alice.slash(channel, "tournament new", name="Cup", **game, **typed)
            ).reply()
            assert refusal in answer.content and answer.ephemeral_to is alice, game
        assert await bot.service.storage.read("SELECT id FROM tournaments") == []


async def test_a_broken_tournament_does_not_keep_the_others_rounds_from_opening(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(time.time())
    storage = await Storage.open(database)
    desk = TournamentDesk(storage, clock)
    quick = {"turn_seconds": None, "options": {"laps": 1}}
    for name in ("Broken", "Fine"):  # each paired, its games not opened yet: a restart
        record = await desk.create(
            guild_id=guild.id,
            game="charioteer",
            name=name,
            host_id=alice.id,
            settings=TournamentSettings(Format.ELIMINATION, 2, 2, table=quick),
            channel_id=channel.id,
        )
        for member in (alice, bob):
            await desk.sign_up(record.id, member.id, member.name)
        await desk.start(record.id, alice.id)
    broken = record.state.settings.to_json() | {"table": {"options": {"laps": 99}}}

    def break_the_first(connection: Connection) -> None:
        connection.execute(
            "UPDATE tournaments SET settings = ? WHERE id = 1", (json.dumps(broken),)
        ).close()

    await storage.write_with(break_the_first)
    await storage.close()
    async with bot_on(fake, database, clock) as bot:
        await fake.wait_for(
            lambda: any("Fine: round 1" in m.content for m in channel.public_messages()),
            what="the sound tournament's round opened",
        )
        opened = await bot.service.storage.read("SELECT tournament_id FROM tournament_tables")
        assert [tuple(row) for row in opened] == [(2,)]


async def test_members_clicking_join_at_the_same_moment_are_all_signed_up(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    members = [guild.add_member(f"m{i}") for i in range(8)]
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        post = await open_tournament(members[0], channel)
        answers = await asyncio.gather(*(click(member, post, "join") for member in members))
        assert all("signed up for Cup" in answer for answer in answers), answers
        record = await bot.tournament_cog.desk.load(1)
        assert sorted(record.state.entrants) == sorted(f"user:{m.id}" for m in members)


async def test_a_result_stored_as_another_process_drops_a_player_counts_once(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    members = [guild.add_member(f"m{i}") for i in range(4)]
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        cog = bot.tournament_cog
        post = await open_tournament(
            members[0], channel, format="elimination", table_size=2, options="laps=1"
        )
        for member in members:
            await click(member, post, "join")
        await (await members[0].slash(channel, "tournament start", tournament=1)).followup(0)
        first, second = [r for (r,) in await bot.service.storage.read("SELECT id FROM game_tables")]
        at_second = (await bot.service.table(second)).seats[0].user_id
        elsewhere = TournamentDesk(await Storage.open(database), cog.desk.clock)
        append, dropped = cog.desk._append, []

        async def append_as_another_process_drops(*args: Any, **kwargs: Any) -> TournamentRecord:
            if not dropped:  # between this step's read and its write
                dropped.append(await elsewhere.drop(1, at_second))
            return await append(*args, **kwargs)

        # Before the game ends: whoever reports it first (this call, or the tournaments'
        # sweep of games over but unreported, which may come first) meets the drop.
        cog.desk._append = append_as_another_process_drops  # type: ignore[method-assign]
        await play_to_the_end(bot.service, first, Rng(first))
        await cog.game_over(first)
        await elsewhere.storage.close()
        record = await cog.desk.load(1)
        assert [e.kind for e in record.events].count("result") == 1
        assert 0 in record.state.rounds[0].results and dropped
        assert not record.state.entrants[f"user:{at_second}"].active

        await play_to_the_end(bot.service, second, Rng(second))
        await asyncio.gather(cog.game_over(second), cog.game_over(second), cog.report_finished())
        record = await cog.desk.load(1)
        assert [e.kind for e in record.events].count("result") == 2
        assert record.state.rounds[0].complete


async def test_a_game_that_ended_just_before_a_restart_is_reported_after_it(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(time.time())
    async with bot_on(fake, database, clock) as bot:
        post = await open_tournament(
            alice, channel, format="elimination", table_size=2, options="laps=1"
        )
        for member in (alice, bob):
            await click(member, post, "join")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        ((race,),) = await bot.service.storage.read("SELECT id FROM game_tables")
    # the bot died after the game's last move and its posts, before the tournament heard
    service = await TableService.create(database, clock=clock)
    await play_to_the_end(service, race, Rng(race))
    for owed in await service.storage.pending_announcements(race):
        await service.storage.announcement_sent(owed.id, None, clock.now())
    await service.close()
    async with bot_on(fake, database, clock) as bot:
        await fake.wait_for(
            lambda: any("Champion" in m.content for m in channel.public_messages()),
            what="the final standings after the restart",
        )
        record = await bot.tournament_cog.desk.load(1)
        assert record.state.status == FINISHED
        assert [e.kind for e in record.events].count("result") == 1


async def test_every_sign_up_click_is_answered_whatever_fails(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob, carol = (guild.add_member(name) for name in ("alice", "bob", "carol"))
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        post = await open_tournament(
            alice, channel, format="elimination", table_size=2, options="laps=1"
        )
        for member in (alice, bob):
            await click(member, post, "join")
        fake.inject_faults("PATCH", "/channels/{channel_id}/messages/{message_id}")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        assert post.custom_ids(), "the sign-up post was to keep its buttons"

        async def refused(table_id: int, user_id: int) -> None:
            raise ServiceError("error.race_over")

        async def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("the database went away")

        bot.service.leave_game = refused  # type: ignore[method-assign,assignment]
        assert "dropped out of Cup" in await click(bob, post, "drop")
        bot.service.leave_game = broken  # type: ignore[method-assign,assignment]
        assert "dropped out of Cup" in await click(alice, post, "drop")
        bot.tournament_cog.desk.drop = broken  # type: ignore[method-assign,assignment]
        assert "went wrong" in await click(carol, post, "drop")
        record = await bot.tournament_cog.desk.load(1)
        assert not any(entrant.active for entrant in record.state.entrants.values())


async def test_tournament_games_open_only_where_the_server_allows_games(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    home, lounge, games = (guild.add_text_channel(n) for n in ("tournaments", "lounge", "games"))
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        store, service = ServerSettingsStore(bot.service.storage), bot.service
        await store.set(guild.id, ServerSettings(channels=(home.id,)))
        post = await open_tournament(alice, home, table_size=2, rounds=2)
        for member in (alice, bob):
            await click(member, post, "join")
        await (await alice.slash(lounge, "tournament start", tournament=1)).followup(0)
        ((first,),) = await service.storage.read("SELECT id FROM game_tables")
        assert (await service.table(first)).row.channel_id == home.id
        assert [thread.parent for thread in guild.threads()] == [home]

        await store.set(guild.id, ServerSettings(channels=(games.id,)))
        advanced = await alice.slash(lounge, "tournament advance", tournament=1)
        announced = (await advanced.followup(0)).content
        assert f"<#{home.id}>" in announced and f"<#{games.id}>" in announced
        (second,) = [
            r for (r,) in await service.storage.read("SELECT id FROM game_tables") if r != first
        ]
        assert (await service.table(second)).row.channel_id == games.id
        assert [thread.parent for thread in guild.threads()] == [home, games]


async def test_tournament_tables_are_named_in_their_games_own_words(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    members = [guild.add_member(name) for name in ("alice", "bob", "carol", "dave")]
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        store = ServerSettingsStore(bot.service.storage)
        for number, (game, language, line, word) in enumerate(
            (
                ("cartographers", "en", "Table 1 (Cartographers #{})", "race"),
                ("carcassonne", "es", "Mesa 1 (Carcassonne #{})", "carrera"),
                ("charioteer", "it", "Tavolo 1 (Corsa #{})", "tavolo 1 (corsa #0"),
            ),
            start=1,
        ):
            await store.set(guild.id, ServerSettings(language=language))
            post = await (
                await members[0].slash(
                    channel,
                    "tournament new",
                    game=game,
                    name=f"Cup {number}",
                    format="elimination",
                    table_size=2,
                )
            ).reply()
            for member in members[number - 1 : number + 1]:
                await click(member, post, "join")
            started = await members[0].slash(channel, "tournament start", tournament=number)
            announced = (await started.followup(0)).content
            races = await bot.service.storage.read("SELECT MAX(id) FROM game_tables")
            race = int(races[0][0])
            assert line.format(race) in announced, announced
            assert word not in announced.lower()
            thread = guild.threads()[-1]
            assert thread.name == line.format(race).split("(")[1].rstrip(")")


async def test_tournament_posts_ping_only_the_players_they_name_on_purpose(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, dave = guild.add_member("alice"), guild.add_member("dave")
    bob = guild.add_member(f"<@{dave.id}>_**{'b' * 40}")
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        post = await (
            await alice.slash(
                channel,
                "tournament new",
                game="charioteer",
                name=f"<@{dave.id}> **Cup** @everyone",
                format="elimination",
                table_size=2,
                options="laps=1",
            )
        ).reply()
        for member in (alice, bob):
            await click(member, post, "join")
        started = await alice.slash(channel, "tournament start", tournament=1)
        announced = await started.followup(0)
        ((race,),) = await bot.service.storage.read("SELECT id FROM game_tables")
        await play_to_the_end(bot.service, race, Rng(race))
        await bot.tournament_cog.game_over(race)
        (final,) = [m for m in channel.public_messages() if "Champion" in m.content]
        champion = (await bot.tournament_cog.desk.load(1)).state.champion()
        assert post.pinged == frozenset()
        assert announced.pinged == {alice.id, bob.id}
        assert final.pinged == {int(str(champion).partition(":")[2])}
        for message in (post, announced, final):
            assert f"<@{dave.id}>" not in message.content and "**Cup**" not in message.content
        (standing,) = [line for line in final.content.splitlines() if "Bbbb" in line]
        assert "\\_\\*\\*Bbbbbbb ·" in standing  # its first 32 characters, markdown escaped


async def test_only_hosts_open_tournaments_and_each_at_most_three_at_once(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    hosts = guild.add_role("Hosts")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    guild.give_role(alice, hosts)
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        await ServerSettingsStore(bot.service.storage).set(
            guild.id, ServerSettings(host_role=hosts.id)
        )

        async def new(member: Any) -> Any:
            asked = await member.slash(channel, "tournament new", game="charioteer", name="Cup")
            return await asked.reply()

        refused = await new(bob)
        assert f"<@&{hosts.id}>" in refused.content and refused.ephemeral_to is bob
        for _ in range(3):
            assert not (await new(alice)).ephemeral
        fourth = await new(alice)
        assert "tournaments one member may organise in this server (3)" in fourth.content
        assert fourth.ephemeral_to is alice
        assert not (await new(guild.owner)).ephemeral  # Manage Server: no limit
        await bot.tournament_cog.desk.cancel(1, None)
        assert not (await new(alice)).ephemeral
        hosted = await bot.service.storage.read("SELECT host_id FROM tournaments ORDER BY id")
        assert [row[0] for row in hosted] == [alice.id] * 3 + [guild.owner.id, alice.id]


async def test_tournament_games_do_not_count_against_the_open_game_limits(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        await ServerSettingsStore(bot.service.storage).set(
            guild.id, ServerSettings(max_open_per_member=1, max_open_per_server=1)
        )
        post = await open_tournament(alice, channel, format="elimination", table_size=2)
        for member in (alice, bob):
            await click(member, post, "join")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        ((race,),) = await bot.service.storage.read("SELECT id FROM game_tables")
        assert (await bot.service.table(race)).status == "running"
        lobby = await (await alice.slash(channel, "race new")).reply()
        assert not lobby.ephemeral
        refused = await (await bob.slash(channel, "race new")).reply()
        assert "its limit of open games (1)" in refused.content


ROUND_ANNOUNCED = re.compile(r"\*\*Cup: round (\d+)\*\*")


def all_read_before_any_advances(desk: TournamentDesk, callers: int) -> list[object]:
    """Holds the first ``callers`` calls of ``desk.advance`` until every one of them has
    come: each read the tournament before any of them stepped, as when they come at the
    same moment. Returns each call's outcome (its record or refusal) as it ends."""
    advance, barrier = desk.advance, asyncio.Barrier(callers)
    outcomes: list[object] = []
    arrived = 0

    async def advance_once_all_have_read(*args: Any, **kwargs: Any) -> TournamentRecord:
        nonlocal arrived
        arrived += 1
        if arrived <= callers:
            async with asyncio.timeout(10):
                await barrier.wait()
        try:
            record = await advance(*args, **kwargs)
        except Exception as refused:
            outcomes.append(refused)
            raise
        outcomes.append(record)
        return record

    desk.advance = advance_once_all_have_read  # type: ignore[method-assign]
    return outcomes


async def answer_to(interaction: Interaction) -> Message:
    """The message a slash command ended with: its follow-up once deferred, else its reply."""
    if await interaction.wait_ack() == DEFERRED_MESSAGE:
        return await interaction.followup(0)
    return await interaction.reply()


async def rounds_and_games(bot: Any) -> tuple[list[str], list[tuple[int, str]]]:
    """The tournament's log (kinds) and each of its games as (round, status), in order."""
    events = await bot.tournament_cog.desk.events(1)
    games = await bot.service.storage.read(
        "SELECT tournament_tables.round, game_tables.status FROM tournament_tables"
        " JOIN game_tables ON game_tables.id = tournament_tables.table_id"
        " ORDER BY game_tables.id"
    )
    return [event.kind for event in events], [(int(r), str(s)) for r, s in games]


def rounds_announced(channel: Channel) -> list[int]:
    """The rounds whose tables were announced in the channel, in order."""
    return [
        int(number)
        for message in channel.public_messages()
        for number in ROUND_ANNOUNCED.findall(message.content)
    ]


ONE_ROUND_CLOSED = ["signed_up", "signed_up", "started", "round", "result", "round"]


async def test_two_organisers_advancing_at_once_close_one_round(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob, admin = guild.add_member("alice"), guild.add_member("bob"), guild.owner
    clock = FakeClock(time.time())
    async with bot_on(fake, database, clock) as bot:
        post = await open_tournament(
            alice, channel, table_size=2, rounds=3, round_hours=24, options="laps=1"
        )
        for member in (alice, bob):
            await click(member, post, "join")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        ends = clock.now() + 24 * HOUR  # waited for once the watcher's start-up is over
        await fake.wait_for(lambda: ends in clock.sleepers, what="the wait for round 1's end")
        outcomes = all_read_before_any_advances(bot.tournament_cog.desk, 2)
        asked = await asyncio.gather(
            alice.slash(channel, "tournament advance", tournament=1),
            admin.slash(channel, "tournament advance", tournament=1),
        )
        answers = await asyncio.gather(*(answer_to(interaction) for interaction in asked))
        assert len(outcomes) == 2
        assert await rounds_and_games(bot) == (ONE_ROUND_CLOSED, [(1, "abandoned"), (2, "running")])
        (announced,) = [a for a in answers if not a.ephemeral]
        (refused,) = [a for a in answers if a.ephemeral]
        assert "Cup: round 2" in announced.content
        assert refused.content == "Round 1 is already over: round 2 is being played."
        assert refused.ephemeral_to in (alice, admin)
        assert rounds_announced(channel) == [1, 2]


async def test_a_round_running_out_as_the_organiser_advances_it_closes_once(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(time.time())
    async with bot_on(fake, database, clock) as bot:
        post = await open_tournament(
            alice, channel, table_size=2, rounds=3, round_hours=1, options="laps=1"
        )
        for member in (alice, bob):
            await click(member, post, "join")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        ends = clock.now() + HOUR
        await fake.wait_for(lambda: ends in clock.sleepers, what="the wait for round 1's end")
        outcomes = all_read_before_any_advances(bot.tournament_cog.desk, 2)
        clock.advance(HOUR)
        answer = await answer_to(await alice.slash(channel, "tournament advance", tournament=1))
        await fake.wait_for(lambda: len(outcomes) == 2, what="both ends of round 1 taken")
        await fake.wait_for(lambda: len(rounds_announced(channel)) > 1, what="the next round")
        assert await rounds_and_games(bot) == (ONE_ROUND_CLOSED, [(1, "abandoned"), (2, "running")])
        if answer.ephemeral:  # the deadline came first
            assert answer.content == "Round 1 is already over: round 2 is being played."
        else:
            assert "Cup: round 2" in answer.content
        assert rounds_announced(channel) == [1, 2]


async def test_a_game_ending_as_the_organiser_advances_its_round_opens_the_next_once(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(time.time())
    async with bot_on(fake, database, clock) as bot:
        cog = bot.tournament_cog
        post = await open_tournament(
            alice, channel, table_size=2, rounds=3, round_hours=24, options="laps=1"
        )
        for member in (alice, bob):
            await click(member, post, "join")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        ends = clock.now() + 24 * HOUR
        await fake.wait_for(lambda: ends in clock.sleepers, what="the wait for round 1's end")
        ((race,),) = await bot.service.storage.read("SELECT id FROM game_tables")
        read, advanced = asyncio.Event(), asyncio.Event()
        table_finished, advance = cog.tables.table_finished, cog.desk.advance

        async def finished_after_the_advance(table_id: int) -> TournamentRecord | None:
            read.set()  # the game's end has read the tournament as it was before
            async with asyncio.timeout(10):
                await advanced.wait()
            return await table_finished(table_id)

        async def advance_after_that_read(*args: Any, **kwargs: Any) -> TournamentRecord:
            async with asyncio.timeout(10):
                await read.wait()
            try:
                return await advance(*args, **kwargs)
            finally:
                advanced.set()

        cog.tables.table_finished = finished_after_the_advance  # type: ignore[method-assign]
        cog.desk.advance = advance_after_that_read  # type: ignore[method-assign]
        await play_to_the_end(bot.service, race, Rng(race))
        asked, _ = await asyncio.gather(
            alice.slash(channel, "tournament advance", tournament=1), cog.game_over(race)
        )
        assert "Cup: round 2" in (await answer_to(asked)).content
        assert await rounds_and_games(bot) == (ONE_ROUND_CLOSED, [(1, "finished"), (2, "running")])
        assert rounds_announced(channel) == [1, 2]


async def test_a_player_removed_as_the_next_round_is_paired_leaves_its_seat_to_the_ai(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    members = [guild.add_member(name) for name in ("alice", "bob", "carol", "dave")]
    alice, dave, admin = members[0], members[3], guild.owner
    clock = FakeClock(time.time())
    async with bot_on(fake, database, clock) as bot:
        cog = bot.tournament_cog
        post = await open_tournament(
            alice, channel, table_size=2, rounds=3, round_hours=24, options="laps=1"
        )
        for member in members:
            await click(member, post, "join")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        ends = clock.now() + 24 * HOUR
        await fake.wait_for(lambda: ends in clock.sleepers, what="the wait for round 1's end")
        paired, dropped = asyncio.Event(), asyncio.Event()
        advance, drop, open_round = cog.desk.advance, cog.desk.drop, cog.tables.open_round

        async def advance_then_drop(*args: Any, **kwargs: Any) -> TournamentRecord:
            try:
                return await advance(*args, **kwargs)
            finally:
                paired.set()

        async def drop_once_paired(*args: Any, **kwargs: Any) -> TournamentRecord:
            async with asyncio.timeout(10):
                await paired.wait()
            try:
                return await drop(*args, **kwargs)
            finally:
                dropped.set()

        async def open_once_dropped(*args: Any, **kwargs: Any) -> list[Table]:
            async with asyncio.timeout(10):
                await dropped.wait()
            return await open_round(*args, **kwargs)

        cog.desk.advance = advance_then_drop  # type: ignore[method-assign]
        cog.desk.drop = drop_once_paired  # type: ignore[method-assign]
        cog.tables.open_round = open_once_dropped  # type: ignore[method-assign]
        asked = await asyncio.gather(
            alice.slash(channel, "tournament advance", tournament=1),
            admin.slash(channel, "tournament remove", tournament=1, member=dave),
        )
        announced, removed = [await answer_to(interaction) for interaction in asked]
        assert "Cup: round 2" in announced.content and f"<@{dave.id}>" not in announced.content
        assert "Dave is out of Cup" in removed.content
        rows = await bot.service.storage.read(
            "SELECT table_id FROM tournament_tables WHERE round = 2 ORDER BY table_id"
        )
        tables = [await bot.service.table(int(table_id)) for (table_id,) in rows]
        assert [table.status for table in tables] == ["running", "running"]
        assert all(table.seat_of(dave.id) is None for table in tables)
        (handed,) = [seat for table in tables for seat in table.seats if seat.user_id is None]
        assert handed.name == "Dave (AI)"
