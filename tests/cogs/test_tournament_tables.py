"""A tournament's tables speak the server's language: their boards, posts and stored
locale follow ``/settings``, as a game opened by a member does."""

from __future__ import annotations

from bot.clock import FakeClock
from tests.cogs.test_tournament_signup import bot_on, click
from tests.databases import rows
from tests.fakediscord.server import FakeDiscord


async def test_a_spanish_servers_tournament_games_are_in_spanish(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circo")
    channel = guild.add_text_channel("torneos")
    first, second = guild.add_member("ana"), guild.add_member("bea")
    async with bot_on(fake, database, FakeClock()):  # type: ignore[arg-type]
        settings = await (await guild.owner.slash(channel, "settings", language="es")).reply()
        assert settings.ephemeral
        asked = await guild.owner.slash(
            channel,
            "tournament new",
            game="charioteer",
            name="Copa",
            turn_limit="none",
            format="elimination",
            table_size=2,
        )
        post = await asked.reply()
        assert "Torneo #1" in post.content
        for member in (first, second):
            await click(member, post, "join")
        started = await guild.owner.slash(channel, "tournament start", tournament=1)
        await started.followup(0)
        assert rows(database, "SELECT locale FROM game_tables") == [("es",)]
        await fake.wait_for(
            lambda: any(
                "Carrera #1 · turno 1" in message.content
                for thread in guild.threads()
                for message in thread.public_messages()
            ),
            what="the first board, in Spanish",
        )
