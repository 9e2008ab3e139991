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
