"""Skill ratings: openskill's Plackett–Luce model, one rating per player per game per server.

A player is a member (``user:<id>``) or an AI level (``ai:<level>``): every AI seat of one
level in one server plays as the same pseudo-player, so beating the strongest AI counts for
more than beating the weakest. Tied seats are ranked as ties; in a team game (Carcassonne's
team variant) team-mates are rated as one team, with openskill's team model. A finished game
is rated in the transaction that stores its final action (:func:`rate_finished_game`, called by
:meth:`bot.storage.Storage.store_action`); an abandoned game stores no result and is never
rated, nor is a game of one seat.

Ratings are a function of the stored results taken in their order ``(finished_at, table
id)``: :func:`recompute` rebuilds a server's ratings of one game from them, and a game that
arrives out of that order is rated by recomputing, so incremental updates and a
recomputation always agree exactly. One game's step (:func:`rated_game`, from the seats
:func:`rated_seats` reads) is shared with the web page, which rates its public games alone
(:mod:`bot.web.public_ratings`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.sql import Connection

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""openskill's defaults: a new player is mu 25, sigma 25/3 (ordinal 0)."""
NO_GUILD = 0
"""The server of games played outside one (direct messages, the console)."""
PODIUM_PLACES = 3


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate leaderboards sort by: mu − 3 sigma."""
        return self.mu - 3 * self.sigma


INITIAL = Rating(MODEL.mu, MODEL.sigma)


def player_key(user_id: int | None, ai_level: str | None) -> str:
    """The rated identity of a seat: its member, or the AI level that played it."""
    if user_id is not None:
        return f"user:{user_id}"
    return f"ai:{ai_level or 'ai'}"


def guild_key(guild_id: int | None) -> int:
    return NO_GUILD if guild_id is None else guild_id


def new_ratings(
    priors: Sequence[Rating],
    places: Sequence[int],
    teams: Sequence[str | None] | None = None,
) -> list[Rating]:
    """Each seat's rating after a game where seat ``i`` had ``priors[i]`` and finished at
    ``places[i]`` (1 is first; equal places are ties). Seats with the same ``teams[i]``
    played as one team (and share its place); a seat whose team is None played alone."""
    units: list[str] = [
        f"seat:{i}" if teams is None or teams[i] is None else f"team:{teams[i]}"
        for i in range(len(priors))
    ]
    groups = [[i for i, unit in enumerate(units) if unit == name] for name in dict.fromkeys(units)]
    rated = MODEL.rate(
        [[MODEL.create_rating([priors[i].mu, priors[i].sigma]) for i in group] for group in groups],
        ranks=[float(min(places[i] for i in group)) for group in groups],
    )
    after: list[Rating] = list(priors)
    for group, team in zip(groups, rated, strict=True):
        for i, member in zip(group, team, strict=True):
            after[i] = Rating(member.mu, member.sigma)
    return after


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a finished game as its result is rated: who played it, and its place."""

    seat: str
    player: str
    user_id: int | None
    name: str
    place: int
    team: str | None = None


SEAT_RESULTS = (
    "SELECT results.table_id, results.seat, results.user_id, results.name, results.place,"
    " results.finished_at, seats.ai_level, results.team FROM results"
    " LEFT JOIN seats ON seats.table_id = results.table_id AND seats.seat = results.seat"
)
"""The stored results as :func:`rated_seats` reads them (add the WHERE and ORDER BY)."""


def rated_seats(rows: Sequence[Sequence[Any]]) -> tuple[list[RatedSeat], float]:
    """One game's seats from its rows of :data:`SEAT_RESULTS`, in the rows' order, and
    when it finished (its latest result)."""
    seats = [
        RatedSeat(
            seat=row[1],
            player=player_key(row[2], row[6]),
            user_id=row[2],
            name=row[3] if row[2] is not None else f"AI ({row[6] or 'ai'})",
            place=int(row[4]),
            team=row[7],
        )
        for row in rows
    ]
    return seats, max((float(row[5]) for row in rows), default=0.0)


def rated_game(before: Mapping[str, Rating], seats: Sequence[RatedSeat]) -> dict[str, Rating]:
    """Each player's rating after a game of these seats, from their ratings ``before`` it
    (a player missing there is new). An AI level holding several seats moves by the mean
    of its seats' updates."""
    players = sorted({seat.player for seat in seats})
    priors = {player: before.get(player, INITIAL) for player in players}
    after_by_seat = new_ratings(
        [priors[s.player] for s in seats], [s.place for s in seats], [s.team for s in seats]
    )
    after: dict[str, Rating] = {}
    for player in players:
        mine = [r for s, r in zip(seats, after_by_seat, strict=True) if s.player == player]
        after[player] = Rating(
            sum(r.mu for r in mine) / len(mine), sum(r.sigma for r in mine) / len(mine)
        )
    return after


def _seats(connection: Connection, table_id: int) -> tuple[list[RatedSeat], float]:
    rows = connection.execute(
        f"{SEAT_RESULTS} WHERE results.table_id = ? ORDER BY results.seat", (table_id,)
    ).fetchall()
    return rated_seats(rows)


def _rating(connection: Connection, guild: int, game: str, player: str) -> Rating:
    row = connection.execute(
        "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND player = ?",
        (guild, game, player),
    ).fetchone()
    return INITIAL if row is None else Rating(float(row[0]), float(row[1]))


def _rate(connection: Connection, table_id: int, guild: int, game: str) -> None:
    """Rate one finished game from its stored results, on top of the current ratings."""
    seats, at = _seats(connection, table_id)
    if len(seats) < 2:
        return
    players = sorted({seat.player for seat in seats})
    before = {player: _rating(connection, guild, game, player) for player in players}
    after = rated_game(before, seats)
    for seat in seats:
        old, new = before[seat.player], after[seat.player]
        connection.execute(
            "INSERT INTO rating_changes (table_id, seat, guild_id, game, player, place, seats,"
            " mu_before, sigma_before, mu_after, sigma_after, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table_id,
                seat.seat,
                guild,
                game,
                seat.player,
                seat.place,
                len(seats),
                old.mu,
                old.sigma,
                new.mu,
                new.sigma,
                at,
            ),
        )
    for player in players:
        mine_seats = [s for s in seats if s.player == player]
        new = after[player]
        connection.execute(
            "INSERT INTO ratings (guild_id, game, player, user_id, name, mu, sigma, games,"
            " wins, podiums, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, game, player) DO UPDATE SET name = excluded.name,"
            " mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + excluded.games,"
            " wins = ratings.wins + excluded.wins,"
            " podiums = ratings.podiums + excluded.podiums,"
            " updated_at = excluded.updated_at",
            (
                guild,
                game,
                player,
                mine_seats[0].user_id,
                mine_seats[-1].name,
                new.mu,
                new.sigma,
                len(mine_seats),
                sum(s.place == 1 for s in mine_seats),
                sum(s.place <= PODIUM_PLACES for s in mine_seats),
                at,
            ),
        )


def rate_finished_game(connection: Connection, table_id: int) -> None:
    """Rate a game whose results were just stored, inside the same transaction. A game
    finishing before the last rated one (in ``(finished_at, table id)`` order) is rated by
    recomputing its server's ratings of that game, so the order never matters.

    The rating is a savepoint of its own: if it fails, its writes are undone and logged,
    and the game's final action and results are stored all the same (a game never stays
    unfinished for its rating; a recomputation rates it later)."""
    connection.execute("SAVEPOINT rating")
    try:
        _rate_finished_game(connection, table_id)
    except Exception:
        connection.execute("ROLLBACK TO rating")
        log.exception("table %d: rating the game failed; its result is stored", table_id)
    connection.execute("RELEASE rating")


def _rate_finished_game(connection: Connection, table_id: int) -> None:
    table = connection.execute(
        "SELECT game, guild_id FROM game_tables WHERE id = ?", (table_id,)
    ).fetchone()
    if table is None:
        return
    game, guild = str(table[0]), guild_key(table[1])
    finished = connection.execute(
        "SELECT MAX(finished_at) FROM results WHERE table_id = ?", (table_id,)
    ).fetchone()
    latest = connection.execute(
        "SELECT at, table_id FROM rating_changes WHERE guild_id = ? AND game = ?"
        " ORDER BY at DESC, table_id DESC LIMIT 1",
        (guild, game),
    ).fetchone()
    if latest is not None and (float(finished[0]), table_id) < (float(latest[0]), latest[1]):
        recompute(connection, guild, game)
    else:
        _rate(connection, table_id, guild, game)


def recompute(connection: Connection, guild: int, game: str) -> int:
    """Rebuild a server's ratings of ``game`` from the stored results, oldest first; returns
    how many games were rated."""
    connection.execute("DELETE FROM ratings WHERE guild_id = ? AND game = ?", (guild, game))
    connection.execute("DELETE FROM rating_changes WHERE guild_id = ? AND game = ?", (guild, game))
    tables = connection.execute(
        "SELECT game_tables.id FROM game_tables JOIN results ON results.table_id = game_tables.id"
        " WHERE game_tables.game = ? AND COALESCE(game_tables.guild_id, 0) = ?"
        " AND game_tables.status = 'finished' GROUP BY game_tables.id HAVING COUNT(*) >= 2"
        " ORDER BY MAX(results.finished_at), game_tables.id",
        (game, guild),
    ).fetchall()
    for (table_id,) in tables:
        _rate(connection, int(table_id), guild, game)
    return len(tables)


__all__ = [
    "INITIAL",
    "MODEL",
    "NO_GUILD",
    "SEAT_RESULTS",
    "RatedSeat",
    "Rating",
    "guild_key",
    "new_ratings",
    "player_key",
    "rate_finished_game",
    "rated_game",
    "rated_seats",
    "recompute",
]
