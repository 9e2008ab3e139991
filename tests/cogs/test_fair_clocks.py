"""Every way a table waits has a bound and a way forward, whatever members type or do, on
Discord through the fake, on both storage backends: a time bank or an absence beyond its
bounds is refused in words (and so is anything that is not a duration); a tournament game
without absences never lets the AI play for an absent member, in whatever order the
absence, the sign-up and the round come; the vote on an absent player reaches them as they
chose and decides only after their grace; where banks pause, a long absence can be voted
on."""

from __future__ import annotations

import datetime as dt
import time
import zoneinfo
from collections.abc import Callable
from typing import TypeVar

from bot.clock import FakeClock
from bot.timebank import AWAY_VOTE_AFTER, DAY, HOUR, MAX_AWAY_SECONDS, VOTE_AFTER
from tests.cogs.test_notices import choose
from tests.cogs.test_tournament_signup import bot_on, click
from tests.e2e.players import custom_id, play_turn_with_the_panel, start_race, wait_for_board
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

ROME = zoneinfo.ZoneInfo("Europe/Rome")
T = TypeVar("T")


async def found(fake: FakeDiscord, find: Callable[[], T | None], what: str) -> T:
    """What ``find`` finds, once it finds something."""
    await fake.wait_for(lambda: find() is not None, timeout=10, what=what)
    value = find()
    assert value is not None
    return value


async def answer_to(user: User, channel: Channel, command: str, **options: object) -> Message:
    answer = await (await user.slash(channel, command, **options)).reply()
    assert answer.ephemeral_to is user, answer.content
    return answer


async def test_a_bank_or_an_absence_out_of_bounds_or_mistyped_is_refused_in_words(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("games")
    alice = guild.add_member("alice")
    async with bot_on(fake, database, FakeClock(time.time())) as bot:
        for typed in ("9999d+9999d", "99999999d+1d", "400d+1h", "15d+1h", "7d+4d", "2h+3h"):
            for command in ("race new", "cartographers new", "carcassonne new"):
                answer = await answer_to(alice, channel, command, time_bank=typed)
                assert "14 days" in answer.content and "3 days" in answer.content, typed
            answer = await answer_to(
                alice, channel, "tournament new", game="charioteer", name="Cup", time_bank=typed
            )
            assert "14 days" in answer.content, typed
        for typed in ("²h+1h", "9" * 400 + "d+1h", "9" * 4400 + "d+1h", "1h+٣h", "h+1h"):
            answer = await answer_to(alice, channel, "race new", time_bank=typed)
            assert "36h+12h" in answer.content and "went wrong" not in answer.content, typed
        assert await bot.service.storage.read("SELECT id FROM game_tables") == []
        assert await bot.service.storage.read("SELECT id FROM tournaments") == []

        for typed in ("9999d", "31d", "2099-01-01", "99999999999999999999d"):
            answer = await answer_to(alice, channel, "away", until=typed)
            assert "30 days" in answer.content and "went wrong" not in answer.content, typed
        for typed in ("²d", "3x", "9" * 35):
            answer = await answer_to(alice, channel, "away", until=typed)
            assert "`3d`" in answer.content and "went wrong" not in answer.content, typed
        assert await bot.service.away_until(guild.id, alice.id) is None
        said = await answer_to(alice, channel, "away", until="30d")
        assert "You are away" in said.content
        assert await bot.service.away_until(guild.id, alice.id) == bot.service.clock.now() + (
            MAX_AWAY_SECONDS
        )


async def play_round_one_with_bob_away(
    fake: FakeDiscord, database: str, order: str
) -> tuple[list[tuple[str, object]], float, float | None]:
    """A tournament without absences (24 h a turn); bob runs ``/away 3d`` before he signs
    up or after he signs up, before round 1 opens (he plays no game yet).
    Returns each seat's clock at bob's table, the time now and its deadline."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(time.time())
    async with bot_on(fake, database, clock) as bot:
        post = await (
            await alice.slash(
                channel,
                "tournament new",
                game="charioteer",
                name="Cup",
                table_size=2,
                options="laps=1",
                turn_limit="24h",
            )
        ).reply()
        assert "Tournament #" in post.content
        if order == "away, sign-up":
            await answer_to(bob, channel, "away", until="3d")
        await click(alice, post, "join")
        await click(bob, post, "join")
        if order == "sign-up, away":
            await answer_to(bob, channel, "away", until="3d")
        await (await alice.slash(channel, "tournament start", tournament=1)).followup(0)
        ((table_id,),) = await bot.service.storage.read("SELECT id FROM game_tables")
        place = await found(fake, lambda: next(iter(guild.threads()), None), "the thread")
        board = await wait_for_board(fake, place, 1)
        assert "away until" not in board.content
        table = await bot.service.table(table_id)
        assert bot.service.may_vote_on(table, table.seat_of(bob.id).seat) is None  # type: ignore[union-attr]
        clock.advance(HOUR)
        assert await bot.service.fire_due() == []
        table = await bot.service.table(table_id)
        assert table.away_until(table.seat_of(bob.id).seat, clock.now()) is None  # type: ignore[union-attr]
        sources = await bot.service.storage.read("SELECT source FROM actions")
        assert ("timeout",) not in sources and ("ai",) not in sources, sources
        return sorted(table.clocks.items()), clock.now(), table.row.deadline


async def test_an_absence_never_plays_a_tournament_game_that_refuses_absences(
    fake: FakeDiscord, database: str
) -> None:
    """Bob's absence, typed before his sign-up, the game still waits for him."""
    clocks, now, deadline = await play_round_one_with_bob_away(fake, database, "away, sign-up")
    assert all("away_since" not in clock for _, clock in clocks)  # type: ignore[operator]
    assert deadline is not None and deadline > now


async def test_an_absence_typed_after_the_sign_up_never_plays_the_round_either(
    fake: FakeDiscord, database: str
) -> None:
    clocks, now, deadline = await play_round_one_with_bob_away(fake, database, "sign-up, away")
    assert all("away_since" not in clock for _, clock in clocks)  # type: ignore[operator]
    assert deadline is not None and deadline > now


async def test_the_vote_on_a_sleeping_player_waits_for_their_morning_and_their_grace(
    fake: FakeDiscord, database: str
) -> None:
    """Three players, no time limit; carol's quiet hours are 23:00-07:00 in Rome, and the
    day her move has been owed ends at 03:00 there. Alice opens the vote: its post names
    carol without a ping; both others vote at once and nothing is decided; at 07:00 one
    post pings carol that her move and a vote are waiting; the votes take effect once she
    has had 12 waking hours, at 19:00, with no click."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob, carol = (guild.add_member(name) for name in ("alice", "bob", "carol"))
    three_at_night = dt.datetime(2026, 1, 15, 3, tzinfo=ROME).timestamp()
    clock = FakeClock(three_at_night - VOTE_AFTER - 1)
    async with bot_on(fake, database, clock) as bot:
        await choose(carol, channel, time_zone="Europe/Rome", quiet_from=23, quiet_until=7)
        _, place = await start_race(fake, alice, [bob, carol], channel)
        board = await wait_for_board(fake, place, 1)
        for player in (alice, bob):
            await play_turn_with_the_panel(player, board)
        clock.advance(VOTE_AFTER + 1)  # 03:00 in Rome
        opened = await (await alice.click(board, custom_id(board, "absent"))).reply()
        assert not opened.ephemeral and carol.mention in opened.content
        assert carol.id not in opened.pinged
        assert "19:00" in opened.content or f"<t:{int(three_at_night + 16 * HOUR)}" in (
            opened.content
        )
        again = await (await bob.click(board, custom_id(board, "absent"))).reply()
        assert again.ephemeral_to is bob and "already open" in again.content
        for voter in (alice, bob):
            answer = await (await voter.click(opened, vote_button(opened, "game"))).reply()
            assert answer.ephemeral_to is voter
            assert f"<t:{int(three_at_night + 16 * HOUR)}:R>" in answer.content
        table = await bot.service.table(board_table_id(board))
        assert not table.seat_of(carol.id).is_ai  # type: ignore[union-attr]
        assert not [m for m in place.public_messages() if "vote is in" in m.content]

        clock.advance(4 * HOUR)  # 07:00 in Rome
        morning = await found(
            fake,
            lambda: next((m for m in place.public_messages() if carol.id in m.pinged), None),
            "carol's morning ping",
        )
        assert "vote" in morning.content and morning.pinged == {carol.id}
        clock.advance(12 * HOUR - 1)  # 18:59:59
        early = await (await alice.click(opened, vote_button(opened, "game"))).reply()
        assert "vote is in" not in early.content
        assert not (await bot.service.table(board_table_id(board))).seat_of(carol.id).is_ai  # type: ignore[union-attr]
        clock.advance(1)  # 19:00: the votes counted in her grace take effect by themselves
        result = await found(
            fake,
            lambda: next((m for m in place.public_messages() if "vote is in" in m.content), None),
            "the vote's result",
        )
        assert "rest of the game" in result.content
        assert carol.id in result.pinged  # 19:00: carol is awake and chose pings
        table = await bot.service.table(board_table_id(board))
        assert table.seat_of(carol.id) is None and any(seat.is_ai for seat in table.seats)
        await wait_for_board(fake, place, 2)  # the AI in her seat played her move
        assert len([m for m in place.public_messages() if "vote is in" in m.content]) == 1


def board_table_id(board: Message) -> int:
    return int(custom_id(board, "absent").split(":")[1])


def vote_button(vote: Message, choice: str) -> str:
    """The vote's button for ``choice`` (``turn``, ``game`` or ``wait``)."""
    [button] = [i for i in vote.custom_ids() if i.split(":")[2].startswith(f"vote{choice[0]}")]
    return button


async def test_a_long_absence_where_banks_pause_can_be_voted_on(
    fake: FakeDiscord, database: str
) -> None:
    """Banks pause while away (daily banks): bob goes away for 30 days while his move is
    owed; the vote opens after 3 days of that absence, not before."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(dt.datetime(2026, 1, 15, 12, tzinfo=ROME).timestamp())
    async with bot_on(fake, database, clock) as bot:
        _, place = await start_race(
            fake, alice, [bob], channel, turn_limit="bank_daily", away_pauses=True
        )
        board = await wait_for_board(fake, place, 1)
        await play_turn_with_the_panel(alice, board)
        await answer_to(bob, channel, "away", until="30d")
        table = await bot.service.table(board_table_id(board))
        assert table.row.deadline is not None
        assert table.row.deadline >= clock.now() + MAX_AWAY_SECONDS
        clock.advance(AWAY_VOTE_AFTER - 60)
        early = await (await alice.click(board, custom_id(board, "absent"))).reply()
        assert early.ephemeral_to is alice and "3 days" in early.content
        clock.advance(60)
        opened = await (await alice.click(board, custom_id(board, "absent"))).reply()
        assert not opened.ephemeral and bob.mention in opened.content
        clock.advance(DAY)
        await (await alice.click(opened, vote_button(opened, "game"))).reply()
        await fake.wait_for(
            lambda: any("vote is in" in m.content for m in place.public_messages()),
            timeout=10,
            what="the vote's result",
        )
        assert (await bot.service.table(board_table_id(board))).seat_of(bob.id) is None
