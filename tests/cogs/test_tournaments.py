"""A tournament on Discord through the fake: 8 members sign up, Swiss, 3 rounds of 4-seat
Charioteer races (one lap: short games), each round's races opened and announced when the
last game of the round before ends, to the champion and the standings picture; only the
organiser starts it; another server's tournament reads as none."""

from __future__ import annotations

import json

from bot.community.rounds import user_of
from bot.storage import Storage
from engine.core import Rng
from tests.bot.test_service import play_to_the_end
from tests.cogs.conftest import Circus


async def one_lap_tables(storage: Storage) -> None:
    """Every tournament's tables race one lap (short games for the test)."""
    update = "UPDATE tournaments SET settings = ? WHERE id = ?"
    for tournament_id, text in await storage.read("SELECT id, settings FROM tournaments"):
        settings = json.loads(text)
        settings["table"]["options"] = {"laps": 1}
        changed = (json.dumps(settings), tournament_id)
        await storage.write_with(lambda db, row=changed: db.execute(update, row).close())


async def test_a_swiss_tournament_of_eight_on_discord(circus: Circus) -> None:
    fake, channel, alice = circus.fake, circus.channel, circus.alice
    members = [alice, circus.bob, *(circus.guild.add_member(f"m{i}") for i in range(6))]
    opened = await (
        await alice.slash(
            channel, "tournament new", game="charioteer", name="Cup", turn_limit="none"
        )
    ).reply()
    assert "Tournament #1: Cup" in opened.content and not opened.ephemeral_to
    for member in members:
        joined = await (await member.slash(channel, "tournament join", tournament=1)).reply()
        assert "signed up" in joined.content and joined.ephemeral_to is member
    again = await (await alice.slash(channel, "tournament join", tournament=1)).reply()
    assert "already signed up" in again.content
    await one_lap_tables(circus.bot.service.storage)
    refused = await (await circus.bob.slash(channel, "tournament start", tournament=1)).reply()
    assert "Only the tournament's organiser" in refused.content
    start = await alice.slash(channel, "tournament start", tournament=1)
    round_one = await start.followup(0)
    assert "round 1" in round_one.content and round_one.content.count("<@") == 8
    desk, service = circus.bot.tournament_cog.desk, circus.bot.service
    rng = Rng(11)
    for number in range(1, 4):
        record = await desk.load(1)
        assert len(record.state.rounds) == number
        races = await service.storage.read(
            "SELECT race_id FROM tournament_tables WHERE round = ? ORDER BY table_index", (number,)
        )
        for (race,) in races:
            await play_to_the_end(service, race, rng)
            await circus.bot.race_cog.settle(race)
        if number < 3:
            await fake.wait_for(
                lambda n=number: any(
                    f"round {n + 1}" in m.content for m in fake.public_messages(channel)
                ),
                timeout=10,
                what=f"round {number + 1} to be announced",
            )
    record = await desk.load(1)
    champion = record.state.champion()
    assert champion is not None
    await fake.wait_for(
        lambda: any("Champion" in m.content for m in fake.public_messages(channel)),
        timeout=10,
        what="the champion to be announced",
    )
    final = next(m for m in fake.public_messages(channel) if "Champion" in m.content)
    assert f"<@{user_of(champion)}>" in final.content
    assert [a.filename for a in final.attachments] == ["standings.png"]
    standings = await (
        await circus.bob.slash(channel, "tournament standings", tournament=1)
    ).reply()
    assert "standings after round 3" in standings.content


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
