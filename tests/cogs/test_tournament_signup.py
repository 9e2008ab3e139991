"""A tournament's sign-up and the organiser's powers on Discord, through the fake: Join and
Drop buttons (forged or foreign clicks refused, a full or closed sign-up says why), the
sign-up deadline that starts the tournament or cancels it, also across a restart, pause
and resume, and a removed player's running seat handed to the AI."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

from bot.clock import FakeClock
from bot.service import TableService
from cogs.app import CircusBot
from engine.core import Rng
from tests.bot.community.test_ratings import finish
from tests.bot.test_service import play_to_the_end
from tests.cogs.conftest import settings_for
from tests.fakediscord.harness import pointed_at
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

HOUR = 3600


@contextlib.asynccontextmanager
async def bot_on(
    fake: FakeDiscord, database: str | Path, clock: FakeClock
) -> AsyncIterator[CircusBot]:
    """The bot in this event loop on ``database`` (a SQLite file or a PostgreSQL URL), its
    time on ``clock``."""
    service = await TableService.create(str(database), clock=clock)
    with pointed_at(fake):
        bot = CircusBot(settings_for(fake, database), service=service)
        runner = asyncio.create_task(bot.start(fake.token))
        try:
            await fake.wait_for_command("tournament", timeout=60)
            await fake.wait_until_ready(timeout=60)
            yield bot
        finally:
            await bot.close()
            await runner


def button(message: Message, verb: str) -> str:
    for component_id in message.custom_ids():
        if component_id.endswith(f":{verb}"):
            return component_id
    raise AssertionError(f"no {verb} button on {message!r}")


async def open_tournament(host: User, channel: Channel, **options: object) -> Message:
    post = await (
        await host.slash(
            channel, "tournament new", game="charioteer", name="Cup", turn_limit="none", **options
        )
    ).reply()
    assert "Tournament #" in post.content and not post.ephemeral
    return post


async def click(user: User, post: Message, verb: str) -> str:
    answer = await (await user.click(post, button(post, verb))).reply()
    assert answer.ephemeral_to is user
    return answer.content


async def test_members_sign_up_and_drop_with_the_buttons(fake: FakeDiscord, tmp_path: Path) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob, carol, dave = (guild.add_member(name) for name in ("alice", "bob", "c", "d"))
    async with bot_on(fake, tmp_path / "circus.db", FakeClock(time.time())) as bot:
        post = await open_tournament(alice, channel, max_players=3)
        assert "closes at 3 players" in post.content
        assert "signed up for Cup (1 player so far)" in await click(bob, post, "join")
        assert "already signed up" in await click(bob, post, "join")
        assert "dropped out of Cup" in await click(bob, post, "drop")
        assert "isn't in this tournament" in await click(bob, post, "drop")
        for member in (alice, bob, carol):
            assert "signed up" in await click(member, post, "join")
        assert "full: sign-up closed at 3 players" in await click(dave, post, "join")

        elsewhere = fake.add_guild("Elsewhere")
        stranger = elsewhere.add_member("stranger")
        lounge = elsewhere.add_text_channel("lounge")
        forged = await (await stranger.forge(lounge, button(post, "join"))).reply()
        assert "doesn't do anything" in forged.content
        own = await open_tournament(stranger, lounge)
        sneaky = await (await dave.forge(channel, button(own, "join"), source=post)).reply()
        assert "doesn't do anything" in sneaky.content
        entrants = (await bot.tournament_cog.desk.load(1)).state.entrants
        assert sorted(entrants) == sorted(f"user:{m.id}" for m in (alice, bob, carol))

        started = await alice.slash(channel, "tournament start", tournament=1)
        assert "round 1" in (await started.followup(0)).content
        await fake.wait_for(lambda: not post.custom_ids(), what="the sign-up buttons to go")
        late = await (await dave.forge(channel, "tn:1:join", source=post)).reply()
        assert "doesn't do anything" in late.content
        answer = await (await dave.slash(channel, "tournament join", tournament=1)).reply()
        assert "already started" in answer.content


async def test_the_deadline_starts_the_tournament_even_after_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    members = [guild.add_member(f"m{i}") for i in range(4)]
    clock, database = FakeClock(time.time()), tmp_path / "circus.db"
    async with bot_on(fake, database, clock):
        post = await open_tournament(members[0], channel, signup_hours=2)
        assert "Sign-up closes <t:" in post.content
        empty = await open_tournament(members[0], channel, signup_hours=1)
        for member in members:
            await click(member, post, "join")
        await click(members[1], empty, "join")
        clock.advance(HOUR + 1)
        await fake.wait_for(
            lambda: any("cancelled" in m.content for m in channel.public_messages()),
            what="the empty tournament's cancellation",
        )
        (cancelled,) = [m for m in channel.public_messages() if "cancelled" in m.content]
        assert "Cup** is cancelled" in cancelled.content and "at least 3" in cancelled.content
        assert not empty.custom_ids()
        assert not any("round 1" in m.content for m in channel.public_messages())
    clock.advance(HOUR)  # the deadline passes while the bot is down
    async with bot_on(fake, database, clock) as bot:
        await fake.wait_for(
            lambda: any("round 1" in m.content for m in channel.public_messages()),
            what="round 1 at the deadline",
        )
        (announced,) = [m for m in channel.public_messages() if "round 1" in m.content]
        assert announced.content.count("<@") == 4
        record = await bot.tournament_cog.desk.load(1)
        assert record.state.status == "running" and len(record.state.rounds) == 1
        assert (await bot.tournament_cog.desk.load(2)).state.status == "cancelled"
        assert not post.custom_ids()


async def test_pause_resume_and_a_removed_player_handing_the_seat_to_the_ai(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    members = [guild.add_member(f"m{i}") for i in range(3)]
    alice = members[0]
    async with bot_on(fake, tmp_path / "circus.db", FakeClock(time.time())) as bot:
        desk, service = bot.tournament_cog.desk, bot.service
        post = await open_tournament(alice, channel, table_size=3, rounds=2)
        for member in members:
            await click(member, post, "join")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        refused = await (await members[1].slash(channel, "tournament pause", tournament=1)).reply()
        assert "Only the tournament's organiser" in refused.content
        paused = await (await alice.slash(channel, "tournament pause", tournament=1)).reply()
        assert "is paused" in paused.content and not paused.ephemeral_to

        (race,) = [
            r for (r,) in await service.storage.read("SELECT table_id FROM tournament_tables")
        ]
        removed = members[2]
        answer = await (
            await alice.slash(channel, "tournament remove", tournament=1, member=removed)
        ).reply()
        assert "is out of Cup" in answer.content
        table = await service.table(race)
        assert table.status == "running" and table.seat_of(removed.id) is None
        assert sum(seat.is_ai for seat in table.seats) == 1
        for member in members[:2]:
            await (await member.slash(channel, "race leave", race=race)).reply()
        await bot.announcer.settle(race)  # the follow-up of the last leave, run to its end
        assert (await service.table(race)).status == "abandoned"
        record = await desk.load(1)
        assert record.state.round_complete and len(record.state.rounds) == 1
        assert not any("round 2" in m.content for m in channel.public_messages())
        resumed = await alice.slash(channel, "tournament resume", tournament=1)
        assert "goes on" in (await resumed.reply()).content
        record = await desk.load(1)
        assert len(record.state.rounds) == 2
        assert f"user:{removed.id}" not in record.state.rounds[-1].pairing.tables[0]


async def test_the_games_options_are_checked_when_the_tournament_opens(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice = guild.add_member("alice")
    async with bot_on(fake, tmp_path / "circus.db", FakeClock(time.time())) as bot:
        for typed, refusal in (("laps", "name=value"), ("speed=3", "no option speed")):
            answer = await (
                await alice.slash(
                    channel, "tournament new", game="charioteer", name="Cup", options=typed
                )
            ).reply()
            assert refusal in answer.content and answer.ephemeral_to is alice
        await open_tournament(alice, channel, options="laps=2")
        record = await bot.tournament_cog.desk.load(1)
        assert record.state.settings.table["options"] == {"laps": 2}


async def test_a_round_ends_when_its_time_runs_out(fake: FakeDiscord, tmp_path: Path) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    members = [guild.add_member(f"m{i}") for i in range(3)]
    clock = FakeClock(time.time())
    async with bot_on(fake, tmp_path / "circus.db", clock) as bot:
        post = await open_tournament(members[0], channel, table_size=3, rounds=2, round_hours=1)
        assert "Time per round: 1 h." in post.content
        for member in members:
            await click(member, post, "join")
        await (await members[0].slash(channel, "tournament start", tournament=1)).followup(0)
        (first,) = [r for (r,) in await bot.service.storage.read("SELECT id FROM game_tables")]
        clock.advance(HOUR - 60)
        assert (await bot.service.table(first)).status == "running"
        clock.advance(61)
        await fake.wait_for(
            lambda: any("Cup: round 2" in m.content for m in channel.public_messages()),
            what="round 2 when round 1's time ran out",
        )
        record = await bot.tournament_cog.desk.load(1)
        assert record.state.rounds[0].results == {0: dict.fromkeys(record.state.seeds(), 1)}
        assert (await bot.service.table(first)).status == "abandoned"
        assert len(record.state.rounds) == 2


async def test_two_tables_ending_at_once_both_count_and_the_next_round_opens(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    members = [guild.add_member(f"m{i}") for i in range(4)]
    async with bot_on(fake, tmp_path / "circus.db", FakeClock(time.time())) as bot:
        post = await open_tournament(members[0], channel, format="elimination", table_size=2)
        for member in members:
            await click(member, post, "join")
        await (await members[0].slash(channel, "tournament start", tournament=1)).followup(0)
        races = [r for (r,) in await bot.service.storage.read("SELECT id FROM game_tables")]
        assert len(races) == 2
        for race in races:
            await play_to_the_end(bot.service, race, Rng(race))
        cog = bot.tournament_cog
        await asyncio.gather(*(cog.game_over(race) for race in races))
        record = await cog.desk.load(1)
        assert len(record.state.rounds) == 2 and record.state.rounds[0].complete
        await fake.wait_for(
            lambda: any("Cup: round 2" in m.content for m in channel.public_messages()),
            what="the final announced",
        )


async def test_a_cartographers_tournament_counts_its_game_once_the_game_is_settled(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    members = [guild.add_member(f"m{i}") for i in range(2)]
    async with bot_on(fake, tmp_path / "circus.db", FakeClock(time.time())) as bot:
        post = await (
            await members[0].slash(
                channel,
                "tournament new",
                game="cartographers",
                name="Maps",
                format="elimination",
                table_size=2,
                turn_limit="none",
            )
        ).reply()
        for member in members:
            await click(member, post, "join")
        await (await members[0].slash(channel, "tournament start", tournament=1)).followup(0)
        ((race,),) = await bot.service.storage.read("SELECT id FROM game_tables")
        await bot.service.abandon(race, members[0].id, admin=True)
        await bot.announcer.settle(race)
        record = await bot.tournament_cog.desk.load(1)
        assert record.state.rounds[0].complete


async def test_a_minimum_reliability_refuses_a_member_who_let_time_run_out(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Bob let his time run out in his one finished game here: below the organiser's 80 %
    he is refused, and told why; alice (no time-out) and carol (no game yet) sign up."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob, carol = (guild.add_member(name) for name in ("alice", "bob", "carol"))
    async with bot_on(fake, tmp_path / "circus.db", FakeClock(time.time())) as bot:
        storage = bot.service.storage
        played = await finish(
            storage, [(alice.id, None, 1), (bob.id, None, 2)], 1.0, guild=guild.id
        )
        await storage.write_with(
            lambda db: db.execute(
                "INSERT INTO actions (table_id, seq, seat, kind, data, chance, by_user, source, at)"
                " VALUES (?, 2, 'B', 'move', '{}', '[]', NULL, 'timeout', 1.0)",
                (played,),
            ).close()
        )
        post = await open_tournament(alice, channel, min_reliability=80)
        assert "Sign-up needs a reliability of 80 % or more" in post.content
        assert await click(bob, post, "join") == (
            "This tournament asks for a reliability of 80 % to sign up; yours is 0 % (0 of your"
            " 1 finished game played to the end without a time-out)."
        )
        assert "signed up" in await click(alice, post, "join")
        assert "signed up" in await click(carol, post, "join")
        entrants = (await bot.tournament_cog.desk.load(1)).state.entrants
        assert sorted(entrants) == sorted(f"user:{m.id}" for m in (alice, carol))
