"""A tournament played fairly whatever members try, on Discord through the fake, on both
storage backends: a finished tournament keeps its record."""

from __future__ import annotations

import json
import time

from bot.clock import FakeClock
from bot.community.desk import TournamentDesk
from bot.community.tournament import FINISHED, Format, TournamentSettings
from bot.sql import Connection
from bot.storage import Storage
from engine.core import Rng
from tests.bot.test_service import play_to_the_end
from tests.cogs.test_tournament_signup import bot_on, click, open_tournament
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
        ((race,),) = await bot.service.storage.read("SELECT id FROM races")
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
