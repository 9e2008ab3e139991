"""What the stored ratings and results say: a game's leaderboard in a server, a member's
profile, a player's rating history and the server's records.

Everything is read from the ``ratings`` and ``rating_changes`` tables that
:mod:`bot.community.ratings` keeps, so it covers every hosted game the same way; only rated
games (finished, two seats or more) count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.community.ratings import Rating, guild_key, player_key
from bot.storage import Storage

PAGE_SIZE = 10
RECENT_RESULTS = 5


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    player: str
    user_id: int | None
    name: str
    rating: Rating
    games: int
    wins: int
    podiums: int


@dataclass(frozen=True)
class Leaderboard:
    game: str
    page: int
    """1-based, clamped to the pages there are."""
    pages: int
    rows: tuple[LeaderboardRow, ...]


async def leaderboard(
    storage: Storage, guild_id: int | None, game: str, page: int = 1, size: int = PAGE_SIZE
) -> Leaderboard:
    """One page of a server's players of ``game``, best ordinal (mu − 3 sigma) first; ties
    go to the player with more games, then by name."""
    guild = guild_key(guild_id)
    count = await storage.read(
        "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild, game)
    )
    pages = max(1, math.ceil(int(count[0][0]) / size))
    page = min(max(1, page), pages)
    rows = await storage.read(
        "SELECT player, user_id, name, mu, sigma, games, wins, podiums FROM ratings"
        " WHERE guild_id = ? AND game = ?"
        " ORDER BY mu - 3 * sigma DESC, games DESC, name, player LIMIT ? OFFSET ?",
        (guild, game, size, (page - 1) * size),
    )
    return Leaderboard(
        game,
        page,
        pages,
        tuple(
            LeaderboardRow(
                (page - 1) * size + index + 1,
                row[0],
                row[1],
                row[2],
                Rating(row[3], row[4]),
                row[5],
                row[6],
                row[7],
            )
            for index, row in enumerate(rows)
        ),
    )


@dataclass(frozen=True)
class RecentResult:
    table_id: int
    place: int
    seats: int
    at: float
    change: float
    """How much the game moved the rating's mu."""
    channel_id: int | None = None
    """The channel the game was played in: who may not view it is not told of it."""


@dataclass(frozen=True)
class GameProfile:
    game: str
    rating: Rating
    games: int
    wins: int
    podiums: int
    average_place: float
    recent: tuple[RecentResult, ...]
    """Latest first."""


async def profile(storage: Storage, guild_id: int | None, user_id: int) -> list[GameProfile]:
    """A member's record in every game they have a rating for in this server."""
    guild, player = guild_key(guild_id), player_key(user_id, None)
    rows = await storage.read(
        "SELECT game, mu, sigma, games, wins, podiums FROM ratings"
        " WHERE guild_id = ? AND player = ? ORDER BY game",
        (guild, player),
    )
    profiles = []
    for game, mu, sigma, games, wins, podiums in rows:
        average = await storage.read(
            "SELECT AVG(place) FROM rating_changes WHERE guild_id = ? AND game = ? AND player = ?",
            (guild, game, player),
        )
        recent = await storage.read(
            "SELECT rating_changes.table_id, rating_changes.place, rating_changes.seats,"
            " rating_changes.at, rating_changes.mu_after - rating_changes.mu_before,"
            " game_tables.channel_id"
            " FROM rating_changes LEFT JOIN game_tables ON game_tables.id = rating_changes.table_id"
            " WHERE rating_changes.guild_id = ? AND rating_changes.game = ?"
            " AND rating_changes.player = ?"
            " ORDER BY rating_changes.at DESC, rating_changes.id DESC LIMIT ?",
            (guild, game, player, RECENT_RESULTS),
        )
        profiles.append(
            GameProfile(
                game,
                Rating(mu, sigma),
                games,
                wins,
                podiums,
                float(average[0][0]),
                tuple(RecentResult(*row) for row in recent),
            )
        )
    return profiles


async def rating_history(
    storage: Storage, guild_id: int | None, game: str, user_id: int
) -> list[tuple[float, Rating]]:
    """The member's rating after each rated game, oldest first, starting from a new
    player's rating at the time of their first game."""
    rows = await storage.read(
        "SELECT at, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes"
        " WHERE guild_id = ? AND game = ? AND player = ? ORDER BY at, id",
        (guild_key(guild_id), game, player_key(user_id, None)),
    )
    if not rows:
        return []
    history = [(float(rows[0][0]), Rating(rows[0][1], rows[0][2]))]
    history.extend((float(row[0]), Rating(row[3], row[4])) for row in rows)
    return history


@dataclass(frozen=True)
class Record:
    """A server record: who holds it, in which game, and its figure."""

    kind: str
    game: str
    user_id: int
    name: str
    value: float
    table_id: int | None = None
    channel_id: int | None = None
    """The channel of the game ``table_id``: who may not view it is not told which game."""


async def records(storage: Storage, guild_id: int | None) -> list[Record]:
    """The server's records among members (AI levels hold none): per game, the longest run
    of wins in a row, and the biggest win, the win that raised a rating the most (beating
    stronger players raises it more)."""
    guild = guild_key(guild_id)
    rows = await storage.read(
        "SELECT rating_changes.game, rating_changes.player, ratings.user_id, ratings.name,"
        " rating_changes.place, rating_changes.table_id,"
        " rating_changes.mu_after - rating_changes.mu_before, game_tables.channel_id"
        " FROM rating_changes JOIN ratings ON ratings.guild_id = rating_changes.guild_id"
        " AND ratings.game = rating_changes.game AND ratings.player = rating_changes.player"
        " LEFT JOIN game_tables ON game_tables.id = rating_changes.table_id"
        " WHERE rating_changes.guild_id = ? AND ratings.user_id IS NOT NULL"
        " ORDER BY rating_changes.game, rating_changes.player, rating_changes.at,"
        " rating_changes.id",
        (guild,),
    )
    streaks: dict[str, Record] = {}
    biggest: dict[str, Record] = {}
    run: dict[tuple[str, str], int] = {}
    for game, player, user_id, name, place, table_id, gain, channel_id in rows:
        key = (game, player)
        run[key] = run.get(key, 0) + 1 if place == 1 else 0
        best = streaks.get(game)
        if run[key] and (best is None or run[key] > best.value):
            streaks[game] = Record("win_streak", game, user_id, name, run[key])
        top = biggest.get(game)
        if place == 1 and (top is None or gain > top.value):
            biggest[game] = Record("biggest_win", game, user_id, name, gain, table_id, channel_id)
    return [
        record
        for game in sorted(set(streaks) | set(biggest))
        for record in (streaks.get(game), biggest.get(game))
        if record is not None
    ]


__all__ = [
    "GameProfile",
    "Leaderboard",
    "LeaderboardRow",
    "RecentResult",
    "Record",
    "leaderboard",
    "profile",
    "rating_history",
    "records",
]
