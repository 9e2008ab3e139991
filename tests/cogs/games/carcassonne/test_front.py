"""Carcassonne on Discord: time limits and reminders work as for races (a timeout places
the tile where the AI would and deploys nothing), with the bot in this event loop on a
clock the test moves; and the public texts without Discord: a post the game has moved on
from pings nobody, the final scoring is cut before the ranking is."""

from __future__ import annotations

import asyncio
import dataclasses
import time

from bot.clock import FakeClock
from bot.service import Table, TableService, TurnReport
from bot.storage import SeatRow, TableRow
from cogs.app import CircusBot
from cogs.games.carcassonne.front import CarcassonneFront
from cogs.games.carcassonne.posts import (
    board_text,
    podium_text,
    split,
    told_reports,
    waiting_text,
)
from engine.carcassonne import FeatureRef, Kind
from engine.carcassonne import Table as Game
from engine.carcassonne.events import FeatureScored, NothingDeployed
from engine.carcassonne.state import Result
from tests.cogs.conftest import settings_for
from tests.e2e.tilelayers import podiums, post_turn, posts, start_game, told, wait_for_post
from tests.fakediscord.harness import pointed_at
from tests.fakediscord.server import FakeDiscord

NAMES = {"red": "alice", "green": "bob"}
USERS = {"red": 11, "green": 22}


def host_table(turn: int = 1, status: str = "running") -> Table:
    row = TableRow(
        id=7,
        game="carcassonne",
        guild_id=1,
        channel_id=2,
        thread_id=None,
        host_id=11,
        status=status,
        settings={},
        seed=1,
        setup=None,
        state=None,
        seq=0,
        turn=turn,
        waiting="red",
        deadline=None,
        reminders=0,
        lobby_message_id=None,
        board_message_id=None,
        locale="en",
        created_at=0.0,
        updated_at=0.0,
    )
    seats = tuple(SeatRow(7, seat, USERS[seat], NAMES[seat], None, 0.0) for seat in NAMES)
    return Table(row, seats)


def test_the_turns_post_pings_the_active_player_until_the_game_moves_on() -> None:
    seat_view = Game.new(seats=2, seed=3).view()
    current = board_text(host_table(turn=seat_view.turn), seat_view, "en")
    assert "reconstruction" not in current and "<@11>" in current
    assert "alice (red) places this tile: " in current and "SW" not in current
    later = host_table(turn=seat_view.turn + 2)
    assert "<@" not in board_text(later, seat_view, "en")
    assert waiting_text(later, seat_view, "en") == "This turn is over: the game has moved on."


def test_the_turns_post_names_seats_by_colour_in_the_tables_language() -> None:
    seat_view = Game.new(seats=2, seed=3).view()
    spanish = board_text(host_table(turn=seat_view.turn), seat_view, "es")
    assert "alice (rojo)" in spanish and "bob (verde)" in spanish
    assert "(red)" not in spanish and "(green)" not in spanish


def test_a_long_final_scoring_is_cut_and_the_ranking_always_shows() -> None:
    seat_view = dataclasses.replace(
        Game.new(seats=2, seed=3).view(),
        scores=(12, 30),
        result=Result((("green", 30), ("red", 12)), ("green",)),
    )
    scored = [
        FeatureScored(FeatureRef(i, 0, 0), Kind.ROUTE, "red", 2, 2, 0, False, True, ("red",))
        for i in range(120)
    ]
    text = podium_text(host_table(status="finished"), scored, seat_view, "en")
    assert len(text) <= 2000
    assert "Final scoring, every feature still held (120):" in text
    assert "more features (see /game log)" in text
    assert text.rstrip().endswith("points") and "Ranking:" in text
    assert "1. bob (green)" in text


def test_a_post_tells_the_turns_since_the_last_human_seats_post() -> None:
    """red and blue are people, green an AI: the post of turn 7 tells blue's turn 5 and
    green's turn 6 (green's own post never goes out: the AI plays before it would)."""
    seat_view = Game.new(seats=2, seed=3).view()
    table = host_table()
    people = (*table.seats, SeatRow(7, "blue", 33, "carol", None, 0.0))
    table = Table(
        table.row, (people[0], SeatRow(7, "green", None, "AI 1", "greedy", 0.0), people[2])
    )
    order = ("red", "green", "blue", "red", "blue", "green")
    reports = [
        TurnReport(turn, turn, (NothingDeployed(seat),), seat_view)
        for turn, seat in enumerate(order, start=1)
    ]
    assert [r.turn for r in told_reports(table, reports, 7)] == [5, 6]
    assert [r.turn for r in told_reports(table, reports, 6)] == [5]
    assert [r.turn for r in told_reports(table, reports, 3)] == [1, 2]
    assert told_reports(table, reports, 1) == []


def test_a_story_too_long_for_one_post_takes_messages_of_its_own_before_it() -> None:
    assert split(["head"], ["a battle"], ["scores"]) == ([], "head\na battle\nscores")
    rounds = [f"  Roll {n}: " + "[6] " * 200 for n in range(1, 5)]
    lead, post = split(["head"], rounds, ["scores"])
    assert post == "head\nscores"
    assert len(lead) == 2 and all(len(text) <= 2000 for text in lead)
    assert "\n".join(lead).splitlines() == rounds


async def test_reminders_then_a_timeout_that_places_the_tile_and_deploys_nothing(
    fake: FakeDiscord, database: str
) -> None:
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tiles")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    clock = FakeClock(start=time.time())
    service = await TableService.create(database, clock=clock)
    with pointed_at(fake):
        bot = CircusBot(settings_for(fake, database), service=service)
        runner = asyncio.create_task(bot.start(fake.token))
        try:
            await fake.wait_for_command("carcassonne", timeout=60)
            await fake.wait_until_ready(timeout=60)
            _, place = await start_game(fake, alice, [bob], channel, turn_limit="2m")
            first = await wait_for_post(fake, place, 1)
            assert "time runs out <t:" in first.content

            def reminders() -> list[str]:
                return [m.content for m in place.public_messages() if "⏳" in m.content]

            clock.advance(61)
            await fake.wait_for(lambda: bool(reminders()), timeout=30, what="the reminder")
            assert alice.mention in reminders()[0] and bob.mention not in reminders()[0]
            clock.advance(60)
            second = await wait_for_post(fake, place, 2)
            assert bob.mention in second.content
        finally:
            await bot.close()
            await runner
    second_post = next(m for m in posts(place) if post_turn(m) == 2).content
    assert "Alice (red) placed a tile" in second_post
    assert "Alice (red) deployed no meeple." in second_post
    assert "Alice (red) placed a tile" in told(place)
    assert not podiums(place)
    assert [post_turn(m) for m in posts(place)] == [1, 2]


def test_a_started_lobby_lists_seats_by_colour_in_the_tables_language() -> None:
    front = CarcassonneFront(None, None, None, None)  # type: ignore[arg-type]
    table = host_table()
    settings = {"seats": 2, "turn_seconds": None, "timeout_policy": "ai", "ai_level": None}
    row = dataclasses.replace(table.row, locale="es", settings=settings | {"options": {}})
    text = front.lobby_text(Table(row, table.seats))
    assert "rojo. <@11>" in text and "verde. <@22>" in text
    assert "red." not in text and "green." not in text


def test_an_abandoned_game_is_named_as_its_thread() -> None:
    seat_view = Game.new(seats=2, seed=3).view()
    assert podium_text(host_table(status="abandoned"), [], seat_view, "en") == (
        "Carcassonne #7 was abandoned."
    )
    spanish = podium_text(host_table(status="abandoned"), [], seat_view, "es")
    assert spanish == "Partida abandonada: Carcassonne #7."


def test_a_started_lobby_lists_seats_in_turn_order() -> None:
    """Three seats play red, green, black: the lobby lists them so, not by colour name."""
    front = CarcassonneFront(None, None, None, None)  # type: ignore[arg-type]
    table = host_table()
    settings = {"seats": 3, "turn_seconds": None, "timeout_policy": "ai", "ai_level": None}
    row = dataclasses.replace(table.row, settings=settings | {"options": {}})
    ai = SeatRow(7, "black", None, "AI 1", "greedy", 0.0)
    seats = tuple(sorted((*table.seats, ai), key=lambda seat: seat.seat))
    lines = front.lobby_text(Table(row, seats)).splitlines()
    listed = [line.split(".")[0] for line in lines if line.startswith(("red.", "green.", "black."))]
    assert listed == ["red", "green", "black"]
    assert "black. AI 1" in lines[-2]
