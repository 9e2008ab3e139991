"""Ratings: openskill's own figures, one rating per player per game per server, AI levels
as players, ties as ties, abandoned and one-seat games unrated, the update stored with the
final action, and a recomputation equal to the incremental updates."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import pytest
from openskill.models import PlackettLuce

from bot.community import ratings as ratings_module
from bot.community.ratings import INITIAL, Rating, new_ratings, recompute
from bot.service import ServiceError, TableService
from bot.storage import ResultRow, SeatRow, Storage, StoredAction
from engine.core import Action, Rng
from tests.bot.test_service import ALICE, BOB, open_race, play_to_the_end

Seat = tuple[int | None, str | None, int]
"""(member or None for an AI seat, the AI's level, place)."""


async def finish(
    storage: Storage,
    seats: Sequence[Seat],
    at: float,
    *,
    guild: int | None = 1,
    game: str = "charioteer",
    channel: int = 5,
) -> int:
    """A finished game stored as the host stores one: the start (its seats and their
    holders), the final action with its results."""
    host = next(user for user, _, _ in seats if user is not None)
    table_id = await storage.create_table(
        game=game,
        guild_id=guild,
        channel_id=channel,
        host_id=host,
        host_name="host",
        settings={},
        seed=1,
        locale=None,
        now=at,
    )
    rows = [
        SeatRow(table_id, chr(65 + i), user, f"u{user}" if user else "AI", level, at)
        for i, (user, level, _) in enumerate(seats)
    ]
    await storage.replace_seats(table_id, rows, at, holders=rows, status="running", state={}, seq=0)
    results = tuple(
        ResultRow(table_id, row.seat, row.user_id, row.name, place, 9, at)
        for row, (_, _, place) in zip(rows, seats, strict=True)
    )
    await storage.store_action(
        StoredAction(
            table_id,
            1,
            Action("move", "A"),
            host,
            "player",
            at,
            {},
            9,
            "",
            "finished",
            None,
            results=results,
        )
    )
    return table_id


async def ratings(storage: Storage, guild: int = 1, game: str = "charioteer") -> dict[str, Rating]:
    rows = await storage.read(
        "SELECT player, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?", (guild, game)
    )
    return {row[0]: Rating(row[1], row[2]) for row in rows}


@pytest.fixture
async def storage(database: str) -> AsyncIterator[Storage]:
    storage = await Storage.open(database)
    yield storage
    await storage.close()


def test_a_three_way_game_with_a_tie_on_top_matches_openskills_figures() -> None:
    after = new_ratings([INITIAL] * 3, [1, 1, 3])
    assert after[0] == after[1] == Rating(25.717262170187357, 8.205243377397993)
    assert after[2] == Rating(23.565475659625285, 8.205243377397993)


def test_new_players_start_at_ordinal_zero() -> None:
    assert INITIAL.ordinal == pytest.approx(0.0)


async def test_a_known_sequence_gives_openskills_own_ratings(storage: Storage) -> None:
    model = PlackettLuce()
    by_player = {p: model.rating() for p in ("user:1", "user:2", "user:3", "ai:greedy")}
    games: list[list[tuple[str, Seat]]] = [
        [("user:1", (1, None, 1)), ("user:2", (2, None, 2)), ("user:3", (3, None, 3))],
        [("user:2", (2, None, 1)), ("ai:greedy", (None, "greedy", 2))],
        [("user:1", (1, None, 2)), ("user:3", (3, None, 2)), ("ai:greedy", (None, "greedy", 1))],
        [("user:3", (3, None, 1)), ("user:1", (1, None, 1))],
    ]
    for at, game in enumerate(games, start=1):
        await finish(storage, [seat for _, seat in game], float(at))
        players = [player for player, _ in game]
        rated = model.rate([[by_player[p]] for p in players], ranks=[s[2] for _, s in game])
        for player, team in zip(players, rated, strict=True):
            by_player[player] = team[0]
    assert await ratings(storage) == {
        player: Rating(rating.mu, rating.sigma) for player, rating in by_player.items()
    }


async def test_the_rating_is_written_with_the_final_action(storage: Storage) -> None:
    race = await finish(storage, [(1, None, 1), (2, None, 2)], 5.0)
    changes = await storage.read(
        "SELECT seat, player, place, mu_before, mu_after FROM rating_changes WHERE table_id = ?"
        " ORDER BY seat",
        (race,),
    )
    assert [(r[0], r[1], r[2], r[3]) for r in changes] == [
        ("A", "user:1", 1, 25.0),
        ("B", "user:2", 2, 25.0),
    ]
    assert changes[0][4] > 25.0 > changes[1][4]
    counts = await storage.read("SELECT player, games, wins, podiums FROM ratings ORDER BY player")
    assert [tuple(row) for row in counts] == [("user:1", 1, 1, 1), ("user:2", 1, 0, 1)]


async def test_a_failing_rating_never_keeps_a_game_from_ending(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(priors: object, places: object) -> list[Rating]:
        raise ValueError("no rating today")

    await finish(storage, [(1, None, 1), (2, None, 2)], 1.0)
    rated = await ratings(storage)
    monkeypatch.setattr(ratings_module, "new_ratings", broken)
    race = await finish(storage, [(1, None, 2), (2, None, 1)], 2.0)
    assert [row.place for row in await storage.results(race)] == [1, 2]
    assert (await storage.table(race)).status == "finished"  # type: ignore[union-attr]
    assert await ratings(storage) == rated
    assert "rating the game failed" in caplog.text
    changes = await storage.read("SELECT COUNT(*) FROM rating_changes WHERE table_id = ?", (race,))
    assert changes[0][0] == 0
    monkeypatch.undo()
    await storage.write_with(lambda connection: (recompute(connection, 1, "charioteer"), None)[1])
    assert (await ratings(storage))["user:2"].mu > rated["user:2"].mu


async def test_one_rating_per_game_and_per_server(storage: Storage) -> None:
    await finish(storage, [(1, None, 1), (2, None, 2)], 1.0, guild=1)
    await finish(storage, [(1, None, 2), (2, None, 1)], 2.0, guild=2)
    await finish(storage, [(1, None, 2), (2, None, 1)], 3.0, guild=1, game="cartographers")
    await finish(storage, [(1, None, 1), (2, None, 2)], 4.0, guild=None)
    assert (await ratings(storage, 1))["user:1"].mu > 25
    assert (await ratings(storage, 2))["user:1"].mu < 25
    assert (await ratings(storage, 1, "cartographers"))["user:1"].mu < 25
    assert (await ratings(storage, 0))["user:1"].mu > 25


async def test_ai_seats_are_rated_as_their_level(storage: Storage) -> None:
    await finish(storage, [(1, None, 1), (None, "greedy", 2), (None, "random", 3)], 1.0)
    await finish(storage, [(1, None, 3), (None, "greedy", 1), (None, "greedy", 2)], 2.0)
    rows = await storage.read("SELECT player, name, games, wins FROM ratings ORDER BY player")
    assert [tuple(row) for row in rows] == [
        ("ai:greedy", "AI (greedy)", 3, 1),
        ("ai:random", "AI (random)", 1, 0),
        ("user:1", "u1", 2, 1),
    ]
    # two seats of one level in one game move it by the mean of their updates
    model = PlackettLuce()
    first = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 3])
    one, greedy = first[0][0], first[1][0]
    twice = [model.create_rating([greedy.mu, greedy.sigma]) for _ in range(2)]
    second = model.rate([[one], [twice[0]], [twice[1]]], ranks=[3, 1, 2])
    mean = Rating(
        (second[1][0].mu + second[2][0].mu) / 2, (second[1][0].sigma + second[2][0].sigma) / 2
    )
    assert (await ratings(storage))["ai:greedy"] == mean


async def test_a_one_seat_game_is_not_rated(storage: Storage) -> None:
    await finish(storage, [(1, None, 1)], 1.0, game="cartographers")
    assert await storage.read("SELECT * FROM ratings") == []


async def test_recomputing_gives_the_incremental_ratings_exactly(database: str) -> None:
    service = await TableService.create(database)
    try:
        rng = Rng(3)
        for at in range(30):
            players = [1 + rng.below(6) for _ in range(4)]
            unique = list(dict.fromkeys(players))
            if len(unique) < 2:
                continue
            seats: list[Seat] = [(user, None, 1 + rng.below(len(unique))) for user in unique]
            seats.append((None, ("random", "greedy")[rng.below(2)], 1 + rng.below(4)))
            await finish(service.storage, seats, float(at))
        incremental = await ratings(service.storage)
        changes = await service.storage.read("SELECT * FROM rating_changes ORDER BY id")
        assert await service.recompute_ratings(1, "charioteer") >= 25
        assert await ratings(service.storage) == incremental
        again = await service.storage.read("SELECT * FROM rating_changes ORDER BY id")
        assert [tuple(r)[1:] for r in again] == [tuple(r)[1:] for r in changes]
    finally:
        await service.close()


async def test_a_game_stored_out_of_order_is_rated_as_a_recomputation(storage: Storage) -> None:
    await finish(storage, [(1, None, 1), (2, None, 2)], 10.0)
    await finish(storage, [(2, None, 1), (3, None, 2)], 5.0)
    incremental = await ratings(storage)
    await storage.write_with(lambda connection: (recompute(connection, 1, "charioteer"), None)[1])
    assert await ratings(storage) == incremental
    order = await storage.read("SELECT table_id FROM rating_changes ORDER BY id")
    assert [row[0] for row in order] == [2, 2, 1, 1]


async def test_recomputing_an_unknown_game_is_refused(service: TableService) -> None:
    with pytest.raises(ServiceError):
        await service.recompute_ratings(1, "chess")


async def test_a_whole_race_rates_its_member_and_its_ai_level(service: TableService) -> None:
    table = await open_race(service, humans=2, ai=1, laps=1)
    await play_to_the_end(service, table.id, Rng(5))
    rows = await service.storage.read("SELECT player, games FROM ratings ORDER BY player")
    assert [tuple(row) for row in rows] == [
        ("ai:greedy", 1),
        (f"user:{ALICE}", 1),
        (f"user:{BOB}", 1),
    ]


async def test_an_abandoned_race_is_not_rated(service: TableService) -> None:
    table = await open_race(service, humans=2, laps=1)
    await service.abandon(table.id, ALICE)
    assert await service.storage.read("SELECT * FROM ratings") == []
