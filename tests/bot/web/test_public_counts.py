"""What the page counts: its leaderboards, players' pages and rating charts, served by
``python -m bot web``, count only the games of the server's public channels, with ratings
worked out from those games alone. The page of a server that also played in private
channels shows exactly what ``/leaderboard`` and ``/profile`` read on a server where only
its public games were played (the same games, at the same times); a channel made
private takes its games off the page, a game stored while the page is served joins it,
and a member who played only where @everyone cannot look has no page at all."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import unescape
from pathlib import Path

import aiohttp

from bot.clock import FakeClock
from bot.community.ratings import player_key
from bot.community.stats import leaderboard, player_profile, player_rating_history
from bot.service import Table, TableService
from bot.text import t
from bot.web.app import chart_png
from bot.web.public_ratings import PublicRatings, Standings
from bot.web.publish import Publishing, WebPage, player_token
from tests.bot.web.conftest import GUILD, PRIVATE, PUBLIC
from tests.bot.web.games import NAMES, PEOPLE, Setting, open_game, play
from tests.bot.web.served import Served, served

SIDE = 512345678901234103
"""A channel public at first, made private later."""
ADA, BEA, CY, DOT, EVE, FLO = PEOPLE
START = 1_800_000_000.0
GAME = "charioteer"
ROW = re.compile(
    r'<tr><td>[0-9]+</td><td class="name"><a href="[^"]*/p/([0-9a-f]{16})">([^<]+)</a></td>'
    r"<td>([^<]+)</td><td>([0-9]+)</td><td>([0-9]+)</td><td>([0-9]+)</td></tr>"
)
RECENT = re.compile(r'<li><a href="[^"]*/g/([0-9]+)">[^<]*</a>: ([^<]+)</li>')


@dataclass(frozen=True)
class Played:
    """A game of the test: where, who (with one AI seat), and at which hour it is played."""

    channel: int
    members: tuple[int, ...]
    hour: int


G1 = Played(PUBLIC, (ADA, BEA), 1)
HIDDEN_PAIR = Played(PRIVATE, (EVE, FLO), 2)
"""The two members of the issue: one game together, where @everyone cannot look."""
HIDDEN_ADA = Played(PRIVATE, (ADA, CY), 3)
G3 = Played(SIDE, (ADA, DOT), 4)
G4 = Played(PUBLIC, (BEA, ADA), 5)
G5 = Played(PUBLIC, (CY, ADA), 6)


class Server:
    """A server whose games are played through the service, each at its hour (the clock
    set to it, the table's seed made from it), so two servers playing the same game get
    the same result."""

    def __init__(self, service: TableService, clock: FakeClock) -> None:
        self.service = service
        self.clock = clock
        self.tables: dict[Played, Table] = {}

    @classmethod
    async def create(cls, database: str) -> Server:
        clock = FakeClock(START)
        service = await TableService.create(database, clock=clock, seeds=lambda: int(clock.now()))
        return cls(service, clock)

    async def play(self, game: Played) -> Table:
        self.clock.advance(START + game.hour * 3600 - self.clock.now())
        where = Setting(GUILD, game.channel)
        table = await open_game(
            self.service, GAME, where, options={"laps": 1}, members=game.members
        )
        table = await play(self.service, table.id, seed=game.hour)
        assert table.status == "finished"
        self.tables[game] = table
        return table

    async def close(self) -> None:
        await self.service.close()


@dataclass(frozen=True)
class Expected:
    """What a page counting these games shows, read from a server where only they were
    played: the leaderboard's rows and each player's profile lines and chart."""

    rows: list[tuple[str, str, str, str, str, str]]
    """(token, name, rating, games, wins, podiums), best first."""
    profiles: dict[str, tuple[str, list[tuple[int, str]], bytes]]
    """token → (the profile's line, its recent games (game number, line), its chart)."""


async def expected(
    oracle: Server, main: Server, page: WebPage, games: Sequence[Played]
) -> Expected:
    """What ``oracle`` (which played exactly ``games``) reads, with its game numbers as
    ``main`` numbered the same games; the results of each game are checked to be the
    same on both."""
    numbers = {}
    for game in games:
        mine = await oracle.service.storage.results(oracle.tables[game].id)
        theirs = await main.service.storage.results(main.tables[game].id)
        assert [(r.user_id, r.name, r.place, r.finished_at) for r in mine] == [
            (r.user_id, r.name, r.place, r.finished_at) for r in theirs
        ]
        numbers[oracle.tables[game].id] = main.tables[game].id
    storage = oracle.service.storage
    board = await leaderboard(storage, GUILD, GAME, 1, 100)
    rows, profiles = [], {}
    for row in board.rows:
        token = player_token(page.secret, row.player)
        rating = f"{row.rating.ordinal:.1f}"
        rows.append((token, row.name, rating, str(row.games), str(row.wins), str(row.podiums)))
        [profile] = await player_profile(storage, GUILD, row.player)
        line = t(
            "en",
            "web.profile_line",
            rating=f"{profile.rating.ordinal:.1f}",
            games=profile.games,
            wins=profile.wins,
            podiums=profile.podiums,
            average=f"{profile.average_place:.2f}",
        )
        recent = [
            (
                numbers[r.table_id],
                t("en", "web.recent_line", place=r.place, seats=r.seats, change=f"{r.change:+.1f}"),
            )
            for r in profile.recent
        ]
        history = await player_rating_history(storage, GUILD, GAME, row.player)
        title = t("en", "profile.chart_title", name=row.name, game=t("en", f"game.{GAME}"))
        profiles[token] = (line, recent, chart_png(title, history))
    return Expected(rows, profiles)


async def get(session: aiohttp.ClientSession, url: str) -> tuple[int, bytes]:
    async with session.get(url) as answer:
        return answer.status, await answer.read()


async def assert_page_shows(
    site: Served, page: WebPage, want: Expected, absent: Sequence[int]
) -> None:
    """The page's leaderboard, players' pages and charts are ``want``; the members
    ``absent`` are on no leaderboard and have no page nor chart."""
    root = f"{site.base}/s/{page.slug}"
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
        status, body = await get(session, f"{root}/leaderboard/{GAME}")
        assert status == 200
        html = body.decode()
        assert ROW.findall(html) == want.rows
        assert t("en", "web.counted") in unescape(html)
        for user in absent:
            assert NAMES[user] not in html
        for token, (line, recent, chart) in want.profiles.items():
            status, body = await get(session, f"{root}/p/{token}")
            assert status == 200, token
            html = body.decode()
            assert f"<p>{line}</p>" in html
            assert t("en", "web.counted") in unescape(html)
            assert [(int(number), text) for number, text in RECENT.findall(html)] == recent
            status, body = await get(session, f"{root}/p/{token}/{GAME}.png")
            assert (status, body) == (200, chart)
        for user in absent:
            token = player_token(page.secret, player_key(user, None))
            assert (await get(session, f"{root}/p/{token}"))[0] == 404, NAMES[user]
            assert (await get(session, f"{root}/p/{token}/{GAME}.png"))[0] == 404, NAMES[user]


async def test_the_page_counts_only_the_games_of_public_channels(
    database: str, tmp_path: Path
) -> None:
    main = await Server.create(database)
    publishing = Publishing(main.service.storage)
    page = await publishing.turn_on(GUILD, "The Big Top", "en-US", START)
    await publishing.set_public_channels(GUILD, [PUBLIC, SIDE])
    for game in (G1, HIDDEN_PAIR, HIDDEN_ADA, G3, G4):
        await main.play(game)
    with_side = await Server.create(str(tmp_path / "with-side.db"))
    public_only = await Server.create(str(tmp_path / "public-only.db"))
    try:
        for game in (G1, G3, G4):
            await with_side.play(game)
        for game in (G1, G4):
            await public_only.play(game)
        async with served(database, tmp_path) as site:
            want = await expected(with_side, main, page, (G1, G3, G4))
            assert {row[1] for row in want.rows} == {"Ada", "Bea", "Dot", "AI (random)"}
            await assert_page_shows(site, page, want, absent=(CY, EVE, FLO))

            await publishing.set_public_channels(GUILD, [PUBLIC])
            want = await expected(public_only, main, page, (G1, G4))
            await assert_page_shows(site, page, want, absent=(CY, DOT, EVE, FLO))

            await main.play(G5)
            await public_only.play(G5)
            want = await expected(public_only, main, page, (G1, G4, G5))
            assert "Cy" in {row[1] for row in want.rows}
            await assert_page_shows(site, page, want, absent=(DOT, EVE, FLO))
    finally:
        await with_side.close()
        await public_only.close()
        await main.close()


async def test_the_page_rates_as_the_bot_does_when_every_game_is_public(database: str) -> None:
    """Kept ratings rated on by a later game, and rebuilt for a game finished before the
    last one rated, are the stored ratings to the last digit."""
    main = await Server.create(database)
    try:
        await Publishing(main.service.storage).turn_on(GUILD, "The Big Top", None, START)
        await Publishing(main.service.storage).set_public_channels(GUILD, [PUBLIC])
        ratings = PublicRatings(main.service.storage)
        latest = Played(PUBLIC, (BEA, CY), 3)
        for game in (Played(PUBLIC, (ADA, BEA), 2), latest):
            await main.play(game)
            await assert_rated_as_stored(main, await ratings.standings(GUILD, GAME))
        earlier = await main.play(Played(PUBLIC, (CY, ADA), 1))
        standings = await ratings.standings(GUILD, GAME)
        assert earlier.id in standings.tables
        assert standings.last == (START + 3 * 3600, main.tables[latest].id)
        await assert_rated_as_stored(main, standings)
    finally:
        await main.close()


async def assert_rated_as_stored(server: Server, standings: Standings) -> None:
    storage = server.service.storage
    stored = await leaderboard(storage, GUILD, GAME, 1, 100)
    assert standings.leaderboard(1, 100) == stored
    for row in stored.rows:
        [profile] = await player_profile(storage, GUILD, row.player)
        recent = tuple(replace(result, channel_id=None) for result in profile.recent)
        assert standings.profile(row.player) == replace(profile, recent=recent)
        history = await player_rating_history(storage, GUILD, GAME, row.player)
        assert standings.history(row.player) == history
