"""Tournament commands on Discord through the fake: another server's tournament reads as
none. (Whole tournaments, played through the players' panels, are in
tests/e2e/test_tournaments.py; sign-up, deadlines and the organiser's powers in
tests/cogs/test_tournament_signup.py.)"""

from __future__ import annotations

from tests.cogs.conftest import Circus


async def test_another_servers_tournament_reads_as_none(circus: Circus) -> None:
    await (
        await circus.alice.slash(circus.channel, "tournament new", game="charioteer", name="Cup")
    ).reply()
    other = circus.fake.add_guild("Elsewhere")
    stranger = other.add_member("stranger")
    lounge = other.add_text_channel("lounge")
    answer = await (await stranger.slash(lounge, "tournament join", tournament=1)).reply()
    assert "There is no tournament #1" in answer.content
    assert len((await circus.bot.tournament_cog.desk.load(1)).state.entrants) == 0


async def test_tournament_commands_from_a_direct_message_are_refused_in_words(
    circus: Circus,
) -> None:
    dm = circus.fake.open_dm_channel(circus.alice)
    for command, options in [
        ("tournament new", {"game": "charioteer", "name": "Cup"}),
        ("tournament join", {"tournament": 1}),
    ]:
        answer = await (await circus.alice.forge_slash(dm, command, **options)).reply()
        assert "only in a server" in answer.content, command
    assert await circus.bot.tournament_cog.desk.storage.read("SELECT id FROM tournaments") == []
