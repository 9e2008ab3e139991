"""Leaderboards, profiles, rating histories, server records and their pictures, read from
the ratings a real SQLite file keeps."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from bot.community.pictures import rating_chart, table_picture
from bot.community.ratings import INITIAL, Rating
from bot.community.stats import leaderboard, profile, rating_history, records
from bot.storage import Storage
from engine.drawing import MIN_TEXT, PHONE_WIDTH
from tests.bot.community.test_ratings import finish


@pytest.fixture
async def storage(database: str) -> AsyncIterator[Storage]:
    storage = await Storage.open(database)
    yield storage
    await storage.close()


async def test_the_leaderboard_sorts_by_ordinal_and_pages(storage: Storage) -> None:
    await finish(storage, [(1, None, 1), (2, None, 2), (3, None, 3)], 1.0)
    await finish(storage, [(1, None, 1), (2, None, 2), (None, "greedy", 3)], 2.0)
    first = await leaderboard(storage, 1, "charioteer", page=1, size=2)
    assert (first.page, first.pages) == (1, 2)
    assert [row.player for row in first.rows] == ["user:1", "user:2"]
    assert [row.rank for row in first.rows] == [1, 2]
    one = first.rows[0]
    assert (one.games, one.wins, one.podiums, one.name) == (2, 2, 2, "u1")
    assert first.rows[0].rating.ordinal > first.rows[1].rating.ordinal
    second = await leaderboard(storage, 1, "charioteer", page=9, size=2)
    assert second.page == 2
    assert [row.rank for row in second.rows] == [3, 4]


async def test_an_empty_leaderboard_has_one_empty_page(storage: Storage) -> None:
    board = await leaderboard(storage, 1, "charioteer")
    assert (board.page, board.pages, board.rows) == (1, 1, ())


async def test_another_servers_games_stay_off_the_leaderboard(storage: Storage) -> None:
    await finish(storage, [(1, None, 1), (2, None, 2)], 1.0, guild=2)
    assert (await leaderboard(storage, 1, "charioteer")).rows == ()


async def test_a_profile_gives_each_games_record(storage: Storage) -> None:
    first = await finish(storage, [(1, None, 1), (2, None, 2)], 1.0)
    second = await finish(storage, [(1, None, 3), (2, None, 1), (3, None, 2)], 2.0, channel=77)
    await finish(storage, [(1, None, 2), (2, None, 1)], 3.0, game="cartographers")
    games = await profile(storage, 1, 1)
    assert [g.game for g in games] == ["cartographers", "charioteer"]
    race = games[1]
    assert (race.games, race.wins, race.podiums, race.average_place) == (2, 1, 2, 2.0)
    assert [(r.table_id, r.place, r.seats, r.channel_id) for r in race.recent] == [
        (second, 3, 3, 77),
        (first, 1, 2, 5),
    ]
    assert race.recent[0].change < 0 < race.recent[1].change
    assert await profile(storage, 1, 99) == []


async def test_the_history_starts_from_a_new_players_rating(storage: Storage) -> None:
    await finish(storage, [(1, None, 1), (2, None, 2)], 1.0)
    await finish(storage, [(1, None, 1), (2, None, 2)], 2.0)
    history = await rating_history(storage, 1, "charioteer", 1)
    assert [at for at, _ in history] == [1.0, 1.0, 2.0]
    assert history[0][1] == INITIAL
    assert history[0][1].mu < history[1][1].mu < history[2][1].mu


async def test_records_of_win_streaks_and_the_biggest_win(storage: Storage) -> None:
    await finish(storage, [(1, None, 1), (2, None, 2)], 1.0)
    await finish(storage, [(1, None, 1), (2, None, 2)], 2.0)
    upset = await finish(storage, [(2, None, 1), (1, None, 2)], 3.0, channel=77)
    await finish(storage, [(1, None, 1), (2, None, 2)], 4.0)
    found = {record.kind: record for record in await records(storage, 1)}
    assert (found["win_streak"].user_id, found["win_streak"].value) == (1, 2)
    # the underdog's win moved a rating the most; its channel decides who is told which
    biggest = found["biggest_win"]
    assert (biggest.user_id, biggest.table_id, biggest.channel_id) == (2, upset, 77)


async def test_ai_levels_hold_no_record(storage: Storage) -> None:
    await finish(storage, [(1, None, 2), (None, "greedy", 1)], 1.0)
    assert await records(storage, 1) == []


def test_the_rating_chart_is_phone_sized_and_readable() -> None:
    history = [(float(i), Rating(25 + i, 8 - i / 4)) for i in range(6)]
    picture = rating_chart("alice · charioteer", history)
    image = Image.open(io.BytesIO(picture.png))
    assert picture.width == PHONE_WIDTH
    assert image.size[0] == 2 * PHONE_WIDTH
    assert picture.smallest_text() >= MIN_TEXT
    assert picture.says("30.0 ± 6.8")
    assert rating_chart("alice · charioteer", history).png == picture.png


def test_a_chart_of_no_games_is_still_a_picture() -> None:
    assert rating_chart("nobody", []).png.startswith(b"\x89PNG")


def test_a_table_picture_grows_with_its_rows_and_cuts_long_names() -> None:
    rows = [[str(i), f"player {i} " + "x" * 60, f"{i}"] for i in range(1, 11)]
    small = table_picture("Standings", ["#", "Player", "Points"], rows[:2], [1, 6, 2])
    large = table_picture("Standings", ["#", "Player", "Points"], rows, [1, 6, 2])
    assert large.height > small.height
    assert large.smallest_text() >= MIN_TEXT
    assert any(text.endswith("…") for text, _ in large.texts)
