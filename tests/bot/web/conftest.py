"""The web's fixtures: a published server whose games were played through the table service
(finished games of every kind and live ones in a public channel, one in a private channel,
an elimination tournament), served by the site on a loopback port, on each database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import FakeClock
from bot.community.desk import TournamentDesk
from bot.community.tournament import Format, TournamentSettings
from bot.service import Table, TableService
from bot.web.app import Site
from bot.web.publish import Publishing, WebPage
from tests.bot.web.games import NAMES, PEOPLE, Setting, open_game, play

GUILD = 512345678901234001
PUBLIC, PRIVATE = 512345678901234101, 512345678901234102
OPTIONS = {"charioteer": {"laps": 1}, "cartographers": {}, "carcassonne": {}}


@dataclass
class World:
    """What the site serves, and how to reach it."""

    service: TableService
    page: WebPage
    client: TestClient
    finished: dict[str, Table] = field(default_factory=dict)
    live: dict[str, Table] = field(default_factory=dict)
    private: Table | None = None
    tournament: int | None = None

    @property
    def root(self) -> str:
        return f"/s/{self.page.slug}"

    async def get(self, path: str) -> tuple[int, str]:
        async with self.client.get(path) as answer:
            return answer.status, await answer.text()


async def build_world(service: TableService, clock: FakeClock, *, poll: float = 5.0) -> World:
    publishing = Publishing(service.storage)
    page = await publishing.turn_on(GUILD, "The Big Top", "en-US", clock.now())
    await publishing.set_public_channels(GUILD, [PUBLIC])
    public, private = Setting(GUILD, PUBLIC), Setting(GUILD, PRIVATE)
    finished, live = {}, {}
    for number, game in enumerate(OPTIONS):
        table = await open_game(service, game, public, options=OPTIONS[game])
        finished[game] = await play(service, table.id, seed=number)
        assert finished[game].status == "finished"
    for number, game in enumerate(OPTIONS):
        table = await open_game(service, game, public, options=OPTIONS[game])
        live[game] = await play(service, table.id, seed=10 + number, moves=3)
        assert live[game].status == "running"
    hidden = await open_game(service, "charioteer", private, options={"laps": 1})
    hidden = await play(service, hidden.id, seed=20)
    tournament = await elimination(service.storage, clock)
    site = Site(service.storage, poll_seconds=poll, now=clock.now)
    client = TestClient(TestServer(site.application(), host="127.0.0.1"))
    await client.start_server()
    return World(service, page, client, finished, live, hidden, tournament)


async def elimination(storage: object, clock: FakeClock) -> int:
    """A four-player single-elimination tournament in the public channel, played to its
    champion (results only: its games are not opened)."""
    desk = TournamentDesk(storage, clock)  # type: ignore[arg-type]
    record = await desk.create(
        guild_id=GUILD,
        game="carcassonne",
        name="Spring Cup",
        host_id=PEOPLE[0],
        settings=TournamentSettings(format=Format.ELIMINATION, table_size=2, min_table=2),
        channel_id=PUBLIC,
    )
    for user in PEOPLE[:4]:
        await desk.sign_up(record.id, user, NAMES[user])
    record = await desk.start(record.id, PEOPLE[0])
    while record.state.status == "running":
        number = len(record.state.rounds)
        for index, players in enumerate(record.state.rounds[-1].pairing.tables):
            places = {player: place for place, player in enumerate(players, start=1)}
            record = await desk.report(record.id, number, index, places)
    assert record.state.champion() is not None
    return record.id


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def world(database: str, clock: FakeClock) -> AsyncIterator[World]:
    service = await TableService.create(database, clock=clock)
    built = await build_world(service, clock)
    try:
        yield built
    finally:
        await built.client.close()
        await service.close()
