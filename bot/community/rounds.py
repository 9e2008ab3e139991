"""A tournament's rounds played on the host: each table of a round becomes a hosted game
(a lobby opened for its players in pairing order, then started), and a finished or
abandoned game reports its table's result.

A round's table opens with its players already seated (in pairing order; nobody joins or
leaves its lobby) and is hosted by the tournament's organiser, never by an entrant: only
the organiser or a server admin may abandon it or hand a seat over. The link between a
round's table and its game is stored (``tournament_tables``) before the game is started,
so opening a round again after a restart finishes what was begun and never opens a table
twice. Seats map back to entrants by position: the pairing's first player takes the first
seat, and so on, whoever plays the seat by the end (a player who leaves is replaced by an
AI; the result still counts for the entrant). A player who left the tournament after
their round was paired, before its game opened, has their seat handed to the AI as soon
as the game starts.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.community.desk import TournamentDesk, TournamentRecord
from bot.games.base import ServiceError
from bot.service import ABANDONED, FINISHED, LOBBY, Table, TableService, TableSettings
from bot.sql import Connection

log = logging.getLogger(__name__)


def user_of(player: str) -> int:
    """The member id of an entrant's player key (``user:<id>``)."""
    kind, _, number = player.partition(":")
    if kind != "user" or not number.isdigit():
        raise ValueError(f"not a member's player key: {player}")
    return int(number)


class TournamentTables:
    """Opens and reads back the games of tournament rounds."""

    def __init__(self, desk: TournamentDesk, service: TableService) -> None:
        self.desk = desk
        self.service = service

    async def _links(self, tournament_id: int, round_number: int) -> dict[int, int]:
        rows = await self.service.storage.read(
            "SELECT table_index, table_id FROM tournament_tables"
            " WHERE tournament_id = ? AND round = ?",
            (tournament_id, round_number),
        )
        return {int(row[0]): int(row[1]) for row in rows}

    async def _link(self, tournament_id: int, round_number: int, index: int, table_id: int) -> None:
        def insert(connection: Connection) -> None:
            connection.execute(
                "INSERT INTO tournament_tables (tournament_id, round, table_index, table_id)"
                " VALUES (?, ?, ?, ?)",
                (tournament_id, round_number, index, table_id),
            ).close()

        await self.service.storage.write_with(insert)

    async def open_round(
        self,
        tournament_id: int,
        *,
        channel_id: int | None,
        locale: str | None = None,
        start: Callable[[Table], Awaitable[Table]] | None = None,
    ) -> list[Table]:
        """Open and start every table of the current round that has no game yet (or whose
        game was left unstarted), its public posts in ``locale``; returns the tables
        started now. ``start`` starts one (by default: its host, the organiser, starts it;
        a front end gives its own, which also opens the game's thread)."""
        record = await self.desk.load(tournament_id)
        state = record.state
        if not state.rounds:
            return []
        number, play = len(state.rounds), state.rounds[-1]
        links = await self._links(tournament_id, number)
        started = []
        for index, players in enumerate(play.pairing.tables):
            if index in play.results:
                continue
            table_id = links.get(index)
            if table_id is None:
                table_id = await self._open(record, players, channel_id, locale)
                await self._link(tournament_id, number, index, table_id)
            table = await self.service.table(table_id)
            if table.status == LOBBY:
                started.append(await (start or self._start)(table))
        return await self._hand_over_left(tournament_id, started)

    async def _hand_over_left(self, tournament_id: int, started: list[Table]) -> list[Table]:
        """The games just started, each once the seats of players who left the tournament
        since their round was paired are handed to the AI (a player leaving later finds
        their game running and hands it over themselves: the tournament is read after the
        start). A seat handed over meanwhile is logged and left as it is."""
        entrants = (await self.desk.load(tournament_id)).state.entrants
        left = {user_of(entrant.player) for entrant in entrants.values() if not entrant.active}
        tables = []
        for table in started:
            for seat in table.seats:
                if seat.user_id is None or seat.user_id not in left:
                    continue
                try:
                    await self.service.leave_game(table.id, seat.user_id)
                except ServiceError as refused:
                    log.info("race %d: the seat was not handed over (%s)", table.id, refused.key)
            tables.append(await self.service.table(table.id))
        return tables

    async def _start(self, table: Table) -> Table:
        return (await self.service.start(table.id, table.row.host_id)).table

    async def _open(
        self,
        record: TournamentRecord,
        players: tuple[str, ...],
        channel_id: int | None,
        locale: str | None,
    ) -> int:
        """A table for ``players``, seated in pairing order and hosted by the organiser."""
        settings = dict(record.state.settings.table) | {"seats": len(players)}
        entrants = record.state.entrants
        table = await self.service.open_lobby(
            game=record.game,
            host_id=record.host_id,
            host_name=record.name,
            settings=TableSettings.from_json(TableSettings().to_json() | settings),
            guild_id=record.guild_id,
            channel_id=channel_id,
            locale=locale,
            seated=[(user_of(player), entrants[player].name) for player in players],
        )
        return table.id

    async def unreported(self, record: TournamentRecord) -> list[int]:
        """The games of the current round that are over (finished or abandoned) but whose
        table has no result in the tournament's log yet."""
        state = record.state
        if not state.rounds:
            return []
        rows = await self.service.storage.read(
            "SELECT tournament_tables.table_index, tournament_tables.table_id"
            " FROM tournament_tables"
            " JOIN game_tables ON game_tables.id = tournament_tables.table_id"
            " WHERE tournament_tables.tournament_id = ? AND tournament_tables.round = ?"
            " AND game_tables.status IN (?, ?) ORDER BY tournament_tables.table_index",
            (record.id, len(state.rounds), FINISHED, ABANDONED),
        )
        results = state.rounds[-1].results
        return [int(table_id) for index, table_id in rows if int(index) not in results]

    async def table_finished(self, table_id: int) -> TournamentRecord | None:
        """Report the result of a tournament table's game once it is over (finished: its
        places; abandoned: a tie of everyone at it). Returns the tournament after the
        report, or None when nothing was reported: the game is no tournament's or still
        running, or its table has a result already or its round is over (an advance ended
        it first). Reporting twice changes nothing."""
        rows = await self.service.storage.read(
            "SELECT tournament_id, round, table_index FROM tournament_tables WHERE table_id = ?",
            (table_id,),
        )
        if not rows:
            return None
        tournament_id, number, index = (int(value) for value in rows[0])
        record = await self.desk.load(tournament_id)
        rounds = record.state.rounds
        if number != len(rounds) or index in rounds[-1].results:
            return None
        table = await self.service.table(table_id)
        players = rounds[-1].pairing.tables[index]
        if table.status == FINISHED:
            names = table.host.seat_names(len(players), table.settings.options)
            entrant_of = dict(zip(names, players, strict=True))
            results = await self.service.storage.results(table_id)
            places = {entrant_of[result.seat]: result.place for result in results}
        elif table.status == ABANDONED:
            places = dict.fromkeys(players, 1)
        else:
            return None
        return await self.desk.report(tournament_id, number, index, places)


__all__ = ["TournamentTables", "user_of"]
