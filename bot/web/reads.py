"""What a server's web page reads: its tables, tournaments and players, only those the
server publishes (:mod:`bot.web.publish`): a table or tournament is shown only when the
channel it was opened in is one of the server's public channels, a lobby never.

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
from bot.community.tournament import TournamentError
from bot.service import Table
from bot.storage import Storage, TableRow, table_row
from bot.web.publish import Publishing, WebPage, player_token
from engine.core import Action
from engine.i18n import base_locale

SHOWN = ("running", "finished", "abandoned")
"""A table's statuses the page shows (a lobby is not a game yet)."""
ENDED = ("finished", "abandoned")
PAGE_SIZE = 20
TOKENS_KEPT = 64
"""Servers whose players' page tokens are kept in memory."""


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
        self._tokens: OrderedDict[tuple[int, str], dict[str, str]] = OrderedDict()

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

    async def rated(self, page: WebPage, players: list[str]) -> set[str]:
        """Which of these players have a rating in the server (a page of their own)."""
        if not players:
            return set()
        marks = ", ".join("?" for _ in players)
        rows = await self.storage.read(
            f"SELECT DISTINCT player FROM ratings WHERE guild_id = ? AND player IN ({marks})",
            (guild_key(page.guild_id), *players),
        )
        return {str(row[0]) for row in rows}

    async def player(self, page: WebPage, token: str) -> tuple[str, str] | None:
        """The rated player (key, name) whose page token this is on the server's page."""
        key = (page.guild_id, page.secret)
        tokens = self._tokens.get(key)
        if tokens is None or token not in tokens:
            rows = await self.storage.read(
                "SELECT player, name FROM ratings WHERE guild_id = ? ORDER BY updated_at",
                (guild_key(page.guild_id),),
            )
            tokens = {player_token(page.secret, row[0]): row[0] for row in rows}
            names = {row[0]: row[1] for row in rows}
            self._tokens[key] = tokens
            self._tokens.move_to_end(key)
            while len(self._tokens) > TOKENS_KEPT:
                self._tokens.popitem(last=False)
            if token in tokens:
                return tokens[token], names[tokens[token]]
            return None
        player = tokens[token]
        rows = await self.storage.read(
            "SELECT name FROM ratings WHERE guild_id = ? AND player = ? ORDER BY updated_at DESC",
            (guild_key(page.guild_id), player),
        )
        return (player, str(rows[0][0])) if rows else None


__all__ = ["ENDED", "PAGE_SIZE", "SHOWN", "Reads", "TournamentSummary"]
