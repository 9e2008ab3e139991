"""A tournament's rounds played as hosted games on a real SQLite file: 8 members, Swiss,
3 rounds of 4-seat Charioteer races, each table opened and started for its players, each
finished race reporting its places, to the final standings; a round opened twice opens
nothing twice, and an abandoned table counts as a tie."""

from __future__ import annotations

from bot.community.desk import TournamentDesk
from bot.community.rounds import TournamentTables, user_of
from bot.community.tournament import FINISHED, TournamentSettings
from bot.service import TableService
from engine.core import Rng
from tests.bot.test_service import play_to_the_end

MEMBERS = range(101, 109)
QUICK = {"turn_seconds": None, "options": {"laps": 1}}


async def swiss_of_eight(service: TableService) -> tuple[TournamentTables, int]:
    desk = TournamentDesk(service.storage, service.clock)
    record = await desk.create(
        guild_id=1,
        game="charioteer",
        name="Quick Cup",
        host_id=101,
        settings=TournamentSettings(rounds=3, table=QUICK),
    )
    for user in MEMBERS:
        await desk.sign_up(record.id, user, f"member{user}")
    await desk.start(record.id, 101)
    return TournamentTables(desk, service), record.id


async def test_a_swiss_tournament_played_on_the_host(service: TableService) -> None:
    tables, tournament = await swiss_of_eight(service)
    rng = Rng(8)
    for number in range(1, 4):
        opened = await tables.open_round(tournament, channel_id=5)
        assert len(opened) == 2 and all(table.status == "running" for table in opened)
        assert await tables.open_round(tournament, channel_id=5) == []
        record = await tables.desk.load(tournament)
        pairing = record.state.rounds[number - 1].pairing
        for table, players in zip(opened, pairing.tables, strict=True):
            assert [seat.user_id for seat in table.seats] == [user_of(p) for p in players]
            assert table.settings.options["laps"] == 1
        for table in opened:
            await play_to_the_end(service, table.id, rng)
            record = await tables.table_finished(table.id)  # type: ignore[assignment]
            assert record is not None
            assert await tables.table_finished(table.id) is None  # reported already
        assert len(record.state.rounds) == min(number + 1, 3)
    assert record.state.status == FINISHED
    standings = record.state.standings()
    assert [row.games for row in standings] == [3] * 8
    results = {
        f"user:{row.user_id}": row.place
        for table in opened
        for row in await service.storage.results(table.id)
    }
    last = record.state.rounds[-1].results
    assert {p: place for places in last.values() for p, place in places.items()} == results
    assert record.state.champion() == standings[0].player
    # every race was rated too
    rated = await service.storage.read("SELECT COUNT(DISTINCT table_id) FROM rating_changes")
    assert rated[0][0] == 6


async def test_an_abandoned_table_counts_as_a_tie(service: TableService) -> None:
    tables, tournament = await swiss_of_eight(service)
    first, second = await tables.open_round(tournament, channel_id=5)
    await service.abandon(first.id, first.row.host_id)
    record = await tables.table_finished(first.id)
    assert record is not None
    assert set(record.state.rounds[0].results[0].values()) == {1}
    assert await tables.table_finished(second.id) is None  # still running: no result
    assert len((await tables.desk.load(tournament)).state.rounds[0].results) == 1


async def test_a_game_of_no_tournament_reports_nothing(service: TableService) -> None:
    tables, _ = await swiss_of_eight(service)
    assert await tables.table_finished(999) is None
