"""Tournaments from sign-up to champion: the real bot process against the fake Discord.
Members sign up with the Join button, the organiser starts, every round's races open in
their own threads and every move is made through the players' private panels, until the
final standings: Swiss rounds, heats and a final, and single elimination."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from tests.databases import rows
from tests.e2e.conftest import Table
from tests.e2e.players import play_until_the_end
from tests.fakediscord.harness import BotProcess
from tests.fakediscord.model import Channel, Message, User

TABLE_LINE = re.compile(r"Table \d+ \(Race #(\d+)\) in <#(\d+)>: (.*)")
MENTION = re.compile(r"<@(\d+)>")


def announcement(channel: Channel, text: str) -> Message | None:
    found = [m for m in channel.public_messages() if text in m.content]
    return found[-1] if found else None


async def sign_up_and_start(
    table: Table, members: list[User], **options: Any
) -> tuple[Message, Message]:
    """The organiser (the first member) opens the tournament, everyone clicks Join, the
    organiser starts it; returns the sign-up post and round 1's announcement."""
    host, channel = members[0], table.channel
    post = await (
        await host.slash(
            channel,
            "tournament new",
            game="charioteer",
            name="Cup",
            turn_limit="none",
            options="laps=1",
            **options,
        )
    ).reply()
    join = next(c for c in post.custom_ids() if c.endswith(":join"))
    for member in members:
        answer = await (await member.click(post, join)).reply()
        assert "signed up" in answer.content and answer.ephemeral_to is member
    refused = await (await members[1].slash(channel, "tournament start", tournament=1)).reply()
    assert "Only the tournament's organiser" in refused.content
    first = await (await host.slash(channel, "tournament start", tournament=1)).followup(0)
    assert "round 1" in first.content
    return post, first


async def play_round(table: Table, announced: Message) -> list[tuple[int, list[User]]]:
    """Every race listed in a round's announcement, played to its podium in its thread by
    its players through their panels (the races of a round side by side, as they would
    be); returns each race and its players."""
    fake = table.fake
    races = []
    for race, thread_id, players in TABLE_LINE.findall(announced.content):
        thread = fake.channels[int(thread_id)]
        assert thread.is_thread and thread.parent is table.channel
        users = [fake.users[int(user)] for user in MENTION.findall(players)]
        races.append((int(race), thread, users))
    assert races, announced.content
    await asyncio.gather(*(play_until_the_end(fake, thread, users) for _, thread, users in races))
    return [(race, users) for race, _, users in races]


async def play_to_the_champion(table: Table, first: Message, rounds: int) -> list[list[int]]:
    """Plays round after round as each is announced; returns the table sizes of every
    round, once the champion is announced."""
    fake, channel = table.fake, table.channel
    sizes = []
    announced = first
    for number in range(1, rounds + 1):
        played = await play_round(table, announced)
        sizes.append(sorted(len(users) for _, users in played))
        wanted = "Champion" if number == rounds else f"Cup: round {number + 1}**"
        await fake.wait_for(
            lambda wanted=wanted: announcement(channel, wanted) is not None,
            timeout=30,
            what=f"the announcement after round {number}",
        )
        found = announcement(channel, wanted)
        assert found is not None
        announced = found
    return sizes


def champion_of(table: Table) -> int:
    final = announcement(table.channel, "Champion")
    assert final is not None
    assert [a.filename for a in final.attachments] == ["standings.png"]
    (champion,) = MENTION.findall(final.content.split("Champion")[1])
    return int(champion)


def stored_events(table: Table) -> list[str]:
    return [
        row[0] for row in rows(table.database, "SELECT kind FROM tournament_events ORDER BY seq")
    ]


def human_moves(table: Table) -> int:
    ((count,),) = rows(table.database, "SELECT COUNT(*) FROM actions WHERE source = 'player'")
    return int(count)


async def test_a_swiss_tournament_of_eight_in_three_rounds_of_four_seat_races(
    table: Table, started_bot: BotProcess
) -> None:
    members = [table.alice, table.bob, table.carol]
    members += [table.guild.add_member(f"m{i}") for i in range(5)]
    post, first = await sign_up_and_start(table, members, rounds=3, table_size=4)
    assert not post.custom_ids()  # sign-up closed
    assert first.content.count("<@") == 8 and len(TABLE_LINE.findall(first.content)) == 2
    sizes = await play_to_the_champion(table, first, rounds=3)
    assert sizes == [[4, 4]] * 3
    round_two = announcement(table.channel, "Cup: round 2**")
    assert round_two is not None and "standings after round 1" in round_two.content
    assert [a.filename for a in round_two.attachments] == ["standings.png"]
    assert champion_of(table) in {m.id for m in members}
    assert stored_events(table).count("result") == 6
    assert human_moves(table) > 0
    sources = {row[0] for row in rows(table.database, "SELECT DISTINCT source FROM actions")}
    assert "timeout" not in sources


async def test_heats_of_three_and_a_final(table: Table, started_bot: BotProcess) -> None:
    members = [table.alice, table.bob, table.carol]
    members += [table.guild.add_member(f"m{i}") for i in range(3)]
    _, first = await sign_up_and_start(table, members, format="heats", table_size=3)
    sizes = await play_to_the_champion(table, first, rounds=2)
    assert sizes == [[3, 3], [2]]  # two heats seeded by rating, then their winners' final
    final = announcement(table.channel, "Cup: round 2**")
    assert final is not None
    finalists = {int(user) for user in MENTION.findall(TABLE_LINE.findall(final.content)[0][2])}
    assert champion_of(table) in finalists


async def test_single_elimination_of_four_in_two_player_duels(
    table: Table, started_bot: BotProcess
) -> None:
    members = [table.alice, table.bob, table.carol, table.guild.add_member("dave")]
    _, first = await sign_up_and_start(table, members, format="elimination", table_size=2)
    sizes = await play_to_the_champion(table, first, rounds=2)
    assert sizes == [[2, 2], [2]]
    final = announcement(table.channel, "Cup: round 2**")
    assert final is not None
    finalists = {int(user) for user in MENTION.findall(TABLE_LINE.findall(final.content)[0][2])}
    assert champion_of(table) in finalists
