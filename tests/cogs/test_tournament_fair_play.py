"""A tournament played fairly whatever members try, on Discord through the fake, on both
storage backends: a finished tournament keeps its record."""

from __future__ import annotations

import time

from bot.clock import FakeClock
from bot.community.tournament import FINISHED
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
