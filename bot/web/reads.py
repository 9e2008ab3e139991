"""What a server's web page reads: its tables, tournaments and players, only those the
server publishes (:mod:`bot.web.publish`): a table or tournament is shown only when the
channel it was opened in is one of the server's public channels, a lobby never; ratings,
leaderboards and players count only the finished games of those channels
(:mod:`bot.web.public_ratings`), so a member who played only elsewhere has no page.

Every function takes the page it reads for and returns ``None`` (or leaves out) whatever
that page does not show, so the site answers it as not found.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

from bot.community.desk import TournamentDesk, TournamentRecord
from bot.community.ratings import guild_key
from bot.community.server import ServerSettingsStore
from bot.community.stats import GameProfile
from bot.community.tournament import TournamentError
from bot.games import GAMES
from bot.service import Table
from bot.storage import Storage, TableRow, table_row
from bot.web.public_ratings import PlayerRecord, PublicRatings, Standings
from bot.web.publish import Publishing, WebPage, player_token
from engine.core import Action
from engine.i18n import base_locale

SHOWN = ("running", "finished", "abandoned")
"""A table's statuses the page shows (a lobby is not a game yet)."""
ENDED = ("finished", "abandoned")
PAGE_SIZE = 20
TOKENS_KEPT = 64
"""Servers' players' page tokens kept in memory (each as the games counted then)."""


@dataclass(frozen=True)
class TournamentSummary:
    id: int
    game: str
    name: str
    status: str


class Reads:
    """The site's reads, over one database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.publishing = Publishing(storage)
        self.desk = TournamentDesk(storage)
        self.server_settings = ServerSettingsStore(storage)
        self.ratings = PublicRatings(storage)
        self._tokens: OrderedDict[tuple[object, ...], dict[str, str]] = OrderedDict()

    async def page(self, slug: str) -> WebPage | None:
        return await self.publishing.page_by_slug(slug)

    async def language(self, page: WebPage) -> str:
        """The page's language: the server's ``/settings`` language, else its own."""
        settings = await self.server_settings.get(page.guild_id)
        return base_locale(settings.language or page.locale)

    async def _public(self, page: WebPage, channel_id: int | None) -> bool:
        if channel_id is None:
            return False
        rows = await self.storage.read(
            "SELECT 1 FROM public_channels WHERE guild_id = ? AND channel_id = ?",
            (page.guild_id, channel_id),
        )
        return bool(rows)

    async def _tables(self, sql: str, params: tuple[object, ...]) -> list[Table]:
        rows = [table_row(row) for row in await self.storage.read(sql, params)]
        return [Table(row, tuple(await self.storage.seats(row.id))) for row in rows]

    async def live_tables(self, page: WebPage, limit: int = 50) -> list[Table]:
        """The server's running games in public channels, latest first."""
        return await self._tables(
            "SELECT game_tables.* FROM game_tables JOIN public_channels"
            " ON public_channels.guild_id = game_tables.guild_id"
            " AND public_channels.channel_id = game_tables.channel_id"
            " WHERE game_tables.guild_id = ? AND game_tables.status = 'running'"
            " ORDER BY game_tables.id DESC LIMIT ?",
            (page.guild_id, limit),
        )

    async def ended_tables(self, page: WebPage, number: int) -> tuple[list[Table], int, int]:
        """One page (1-based, clamped) of the server's ended games in public channels,
        latest first, with the page's number and how many pages there are."""
        where = (
            " FROM game_tables JOIN public_channels"
            " ON public_channels.guild_id = game_tables.guild_id"
            " AND public_channels.channel_id = game_tables.channel_id"
            " WHERE game_tables.guild_id = ? AND game_tables.status IN ('finished', 'abandoned')"
        )
        count = await self.storage.read(f"SELECT COUNT(*){where}", (page.guild_id,))
        pages = max(1, math.ceil(int(count[0][0]) / PAGE_SIZE))
        number = min(max(1, number), pages)
        tables = await self._tables(
            f"SELECT game_tables.*{where} ORDER BY game_tables.id DESC LIMIT ? OFFSET ?",
            (page.guild_id, PAGE_SIZE, (number - 1) * PAGE_SIZE),
        )
        return tables, number, pages

    async def table(self, page: WebPage, table_id: int) -> Table | None:
        """The server's game of this number, if the page shows it."""
        rows = await self.storage.read("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        if not rows:
            return None
        row: TableRow = table_row(rows[0])
        if row.guild_id != page.guild_id or row.status not in SHOWN or row.state is None:
            return None
        if not await self._public(page, row.channel_id):
            return None
        return Table(row, tuple(await self.storage.seats(table_id)))

    async def actions(self, table: Table) -> list[Action]:
        """The table's stored actions up to its row's seq (an action stored since the row
        was read waits for the next read)."""
        return (await self.storage.actions(table.id))[: table.row.seq]

    async def tournaments(self, page: WebPage, limit: int = 20) -> list[TournamentSummary]:
        rows = await self.storage.read(
            "SELECT tournaments.id, tournaments.game, tournaments.name, tournaments.status"
            " FROM tournaments JOIN public_channels"
            " ON public_channels.guild_id = tournaments.guild_id"
            " AND public_channels.channel_id = tournaments.channel_id"
            " WHERE tournaments.guild_id = ? ORDER BY tournaments.id DESC LIMIT ?",
            (guild_key(page.guild_id), limit),
        )
        return [TournamentSummary(int(r[0]), r[1], r[2], r[3]) for r in rows]

    async def tournament(
        self, page: WebPage, tournament_id: int
    ) -> tuple[TournamentRecord, dict[tuple[int, int], int]] | None:
        """The server's tournament of this number, if the page shows it, with the games
        its rounds opened ((round, table index) → game number)."""
        try:
            record = await self.desk.load(tournament_id)
        except TournamentError:
            return None
        if record.guild_id != page.guild_id or not await self._public(page, record.channel_id):
            return None
        rows = await self.storage.read(
            "SELECT round, table_index, table_id FROM tournament_tables"
            " WHERE tournament_id = ? AND table_id IS NOT NULL",
            (tournament_id,),
        )
        return record, {(int(r[0]), int(r[1])): int(r[2]) for r in rows}

    async def public_table_ids(self, page: WebPage, table_ids: list[int]) -> set[int]:
        """Which of these games the page shows (to link them)."""
        if not table_ids:
            return set()
        marks = ", ".join("?" for _ in table_ids)
        rows = await self.storage.read(
            "SELECT game_tables.id FROM game_tables JOIN public_channels"
            " ON public_channels.guild_id = game_tables.guild_id"
            " AND public_channels.channel_id = game_tables.channel_id"
            f" WHERE game_tables.guild_id = ? AND game_tables.id IN ({marks})"
            " AND game_tables.status IN ('running', 'finished', 'abandoned')",
            (page.guild_id, *table_ids),
        )
        return {int(row[0]) for row in rows}

    async def standings(self, page: WebPage, game: str) -> Standings:
        """The game's ratings on the page: its public games' alone."""
        return await self.ratings.standings(page.guild_id, game)

    async def _every_game(self, page: WebPage) -> list[Standings]:
        counted = await self.ratings.counted(page.guild_id)
        return [await self.ratings.standings(page.guild_id, game, counted) for game in GAMES]

    async def rated(self, page: WebPage, players: list[str]) -> set[str]:
        """Which of these players have a rating on the page (a page of their own)."""
        every = await self._every_game(page)
        return {player for player in players if any(player in s.players for s in every)}

    async def player(self, page: WebPage, token: str) -> tuple[str, str] | None:
        """The player (key, name as in their latest counted game) whose page token this is
        on the server's page, if the page counts a game of theirs."""
        every = await self._every_game(page)
        key = (page.guild_id, page.secret, tuple(s.counted for s in every))
        tokens = self._tokens.get(key)
        if tokens is None:
            players = {player for s in every for player in s.players}
            tokens = {player_token(page.secret, player): player for player in players}
            self._tokens[key] = tokens
            while len(self._tokens) > TOKENS_KEPT:
                self._tokens.popitem(last=False)
        self._tokens.move_to_end(key)
        player = tokens.get(token)
        if player is None:
            return None
        records: list[PlayerRecord] = [s.players[player] for s in every if player in s.players]
        return player, max(records, key=lambda record: record.last_at).name

    async def profiles(self, page: WebPage, player: str) -> list[GameProfile]:
        """The player's record on the page in every game the page counts one of theirs."""
        every = await self._every_game(page)
        found = [s.profile(player) for s in sorted(every, key=lambda s: s.game)]
        return [profile for profile in found if profile is not None]


__all__ = ["ENDED", "PAGE_SIZE", "SHOWN", "Reads", "TournamentSummary"]
