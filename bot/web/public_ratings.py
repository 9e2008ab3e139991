"""The ratings a server's web page shows: worked out from the finished games of its public
channels alone, so a game played where @everyone cannot look moves no rating, count or
chart of the page.

The stored ratings (:mod:`bot.community.ratings`) count every game of a server, those of
its private channels too, and ``/leaderboard`` shows them to the members. The page rates
again the games it may show (those of the channels :mod:`bot.web.publish` keeps), with
the same step (:func:`bot.community.ratings.rated_game`) in the same order ``(finished at,
table id)``: a server whose every game is public reads the same on the page as in
``/leaderboard`` and ``/profile``.

One game's ratings on one server's page are kept (:class:`PublicRatings`); each read asks
the database only which games count now (:data:`Counted`: the public channels, how many
finished games they hold and the sum of their numbers, read from an index). A game
finished since is rated on top of the kept ratings when it comes after the last one rated;
a channel that was public and is no longer (or a game finishing out of order) rebuilds
them from the stored results.
"""

from __future__ import annotations

import asyncio
import functools
import math
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.community.ratings import (
    INITIAL,
    PODIUM_PLACES,
    SEAT_RESULTS,
    RatedSeat,
    Rating,
    rated_game,
    rated_seats,
)
from bot.community.stats import (
    RECENT_RESULTS,
    GameProfile,
    Leaderboard,
    LeaderboardRow,
    RecentResult,
)
from bot.storage import Storage
from bot.web.publish import Publishing

KEPT_SEATS = 250_000
"""Counted seats kept in memory over every server and game (about 300 bytes each: 3,000
games of three seats hold 2.8 MiB); the ratings read least recently go first, the latest
is always kept."""
CHUNK = 500
"""Games whose results one query reads."""


@dataclass(frozen=True, slots=True)
class Change:
    """What one counted game did to a player's rating (one per seat they held)."""

    table_id: int
    place: int
    seats: int
    at: float
    before: Rating
    after: Rating


@dataclass(frozen=True)
class PlayerRecord:
    """A player's record in one game on the page: their counted games, oldest first."""

    player: str
    user_id: int | None
    name: str
    """As they were named in their latest counted game."""
    rating: Rating
    changes: tuple[Change, ...]

    @property
    def games(self) -> int:
        return len(self.changes)

    @property
    def wins(self) -> int:
        return sum(change.place == 1 for change in self.changes)

    @property
    def podiums(self) -> int:
        return sum(change.place <= PODIUM_PLACES for change in self.changes)

    @property
    def last_at(self) -> float:
        return self.changes[-1].at


Counted = tuple[tuple[int, ...], int, int]
"""Which games a server's page counts: its public channels, how many finished games they
hold, and the sum of those games' numbers. Finished games are never taken back nor moved,
so while the channels stay public this changes exactly when a game finishes there."""


@dataclass(frozen=True)
class Standings:
    """One game's ratings on one server's page."""

    game: str
    counted: Counted
    tables: frozenset[int]
    """The finished games counted (those of one seat among them, which rate nobody)."""
    last: tuple[float, int] | None
    """The latest rated game, as ``(finished at, table id)``."""
    players: Mapping[str, PlayerRecord]

    @functools.cached_property
    def seats(self) -> int:
        """How many counted seats these ratings hold (what keeping them costs)."""
        return sum(record.games for record in self.players.values())

    @functools.cached_property
    def ranked(self) -> list[PlayerRecord]:
        """The players as ``/leaderboard`` ranks them: best ordinal first, then more
        games, then by name."""
        return sorted(
            self.players.values(), key=lambda r: (-r.rating.ordinal, -r.games, r.name, r.player)
        )

    def leaderboard(self, page: int, size: int) -> Leaderboard:
        """One page (1-based, clamped) of the :attr:`ranked` players."""
        ranked = self.ranked
        pages = max(1, math.ceil(len(ranked) / size))
        page = min(max(1, page), pages)
        first = (page - 1) * size
        rows = tuple(
            LeaderboardRow(
                first + index + 1,
                record.player,
                record.user_id,
                record.name,
                record.rating,
                record.games,
                record.wins,
                record.podiums,
            )
            for index, record in enumerate(ranked[first : first + size])
        )
        return Leaderboard(self.game, page, pages, rows)

    def profile(self, player: str) -> GameProfile | None:
        record = self.players.get(player)
        if record is None:
            return None
        latest = reversed(record.changes[-RECENT_RESULTS:])
        return GameProfile(
            self.game,
            record.rating,
            record.games,
            record.wins,
            record.podiums,
            sum(change.place for change in record.changes) / record.games,
            tuple(
                RecentResult(c.table_id, c.place, c.seats, c.at, c.after.mu - c.before.mu)
                for c in latest
            ),
        )

    def history(self, player: str) -> list[tuple[float, Rating]]:
        """The player's rating after each counted game, oldest first, starting from a new
        player's rating at their first one (as the chart of ``/profile`` draws it)."""
        record = self.players.get(player)
        if record is None:
            return []
        first = record.changes[0]
        return [(first.at, first.before), *((c.at, c.after) for c in record.changes)]


@dataclass(frozen=True)
class _Game:
    at: float
    table_id: int
    seats: tuple[RatedSeat, ...]

    @property
    def order(self) -> tuple[float, int]:
        return (self.at, self.table_id)


def rate(start: Mapping[str, PlayerRecord], games: Sequence[_Game]) -> dict[str, PlayerRecord]:
    """The players' records after ``games`` (in their order), rated on top of ``start``."""
    ratings = {player: record.rating for player, record in start.items()}
    changes: dict[str, list[Change]] = {}
    names: dict[str, tuple[int | None, str]] = {}
    for game in games:
        before = {seat.player: ratings.get(seat.player, INITIAL) for seat in game.seats}
        after = rated_game(before, game.seats)
        for seat in game.seats:
            mine = changes.get(seat.player)
            if mine is None:
                kept = start.get(seat.player)
                mine = changes[seat.player] = list(kept.changes) if kept else []
            change = Change(
                game.table_id,
                seat.place,
                len(game.seats),
                game.at,
                before[seat.player],
                after[seat.player],
            )
            mine.append(change)
            names[seat.player] = (seat.user_id, seat.name)
        ratings.update(after)
    players = dict(start)
    for player, mine in changes.items():
        user_id, name = names[player]
        players[player] = PlayerRecord(player, user_id, name, ratings[player], tuple(mine))
    return players


class PublicRatings:
    """The page ratings of every server and game, each kept until other games count."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.publishing = Publishing(storage)
        self._kept: OrderedDict[tuple[int, str], Standings] = OrderedDict()
        self._working: dict[tuple[int, str], asyncio.Lock] = {}

    async def counted(self, guild_id: int) -> Counted:
        """Which games the server's page counts now: its public channels, how many
        finished games (of any game) they hold, and the sum of those games' numbers (read
        from an index, without the tables' rows)."""
        channels = tuple(sorted(await self.publishing.public_channels(guild_id)))
        if not channels:
            return (channels, 0, 0)
        marks = ", ".join("?" for _ in channels)
        rows = await self.storage.read(
            "SELECT COUNT(*), COALESCE(SUM(id), 0) FROM game_tables"
            f" WHERE channel_id IN ({marks}) AND status = 'finished'",
            channels,
        )
        return (channels, int(rows[0][0]), int(rows[0][1]))

    async def standings(
        self, guild_id: int, game: str, counted: Counted | None = None
    ) -> Standings:
        """The game's ratings on the server's page, counting the finished games of its
        public channels now (``counted``, when the caller has just read it)."""
        if counted is None:
            counted = await self.counted(guild_id)
        key = (guild_id, game)
        kept = self._kept.get(key)
        if kept is None or kept.counted != counted:
            async with self._working.setdefault(key, asyncio.Lock()):
                kept = self._kept.get(key)
                if kept is None or kept.counted != counted:
                    kept = await self._rated(guild_id, game, counted, kept)
                    self._keep(key, kept)
        self._kept.move_to_end(key)
        return kept

    def _keep(self, key: tuple[int, str], standings: Standings) -> None:
        """Keep these ratings as the latest read, letting the least recent go while the
        kept seats are more than :data:`KEPT_SEATS`."""
        self._kept[key] = standings
        self._kept.move_to_end(key)
        seats = sum(kept.seats for kept in self._kept.values())
        while seats > KEPT_SEATS and len(self._kept) > 1:
            gone, dropped = self._kept.popitem(last=False)
            self._working.pop(gone, None)
            seats -= dropped.seats

    async def _rated(
        self, guild_id: int, game: str, counted: Counted, kept: Standings | None
    ) -> Standings:
        """The standings as the database holds them now (at least as new as ``counted``
        says): ``kept`` with the games finished since rated on top, or rebuilt when that
        would rate them out of order or a game counted there no longer counts."""
        channels = counted[0]
        tables: frozenset[int] = frozenset()
        if channels:
            marks = ", ".join("?" for _ in channels)
            rows = await self.storage.read(
                "SELECT id FROM game_tables WHERE guild_id = ? AND game = ?"
                f" AND status = 'finished' AND channel_id IN ({marks})",
                (guild_id, game, *channels),
            )
            tables = frozenset(int(row[0]) for row in rows)
        start = kept if kept is not None and kept.tables <= tables else None
        games = await self._games(tables - start.tables if start else tables)
        if start and start.last and games and games[0].order < start.last:
            start = None
            games = await self._games(tables)
        if not games and start:
            return Standings(game, counted, tables, start.last, start.players)
        players = await asyncio.to_thread(rate, start.players if start else {}, games)
        last = games[-1].order if games else None
        return Standings(game, counted, tables, last, players)

    async def _games(self, table_ids: Iterable[int]) -> list[_Game]:
        """These finished games of two seats or more, in the order they are rated."""
        wanted = sorted(table_ids)
        rows_of: dict[int, list[Sequence[Any]]] = defaultdict(list)
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start : start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            rows = await self.storage.read(
                f"{SEAT_RESULTS} WHERE results.table_id IN ({marks})"
                " ORDER BY results.table_id, results.seat",
                tuple(chunk),
            )
            for row in rows:
                rows_of[int(row[0])].append(row)
        games = []
        for table_id, rows in rows_of.items():
            seats, at = rated_seats(rows)
            if len(seats) >= 2:
                games.append(_Game(at, table_id, tuple(seats)))
        return sorted(games, key=lambda game: game.order)


__all__ = ["Change", "PlayerRecord", "PublicRatings", "Standings", "rate"]
