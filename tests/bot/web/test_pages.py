"""The site over HTTP: every page of a published server answers and shows its games, what is
not published is not found, no Discord id is written anywhere, and a replay's last step
is the game's final board."""

from __future__ import annotations

import re

from bot.web.publish import Publishing
from bot.web.serving import CSP
from tests.bot.web.conftest import GUILD, PRIVATE, PUBLIC, World
from tests.bot.web.crawl import crawl, visible_text
from tests.bot.web.games import NAMES, PEOPLE

DISCORD_ID = re.compile(r"[0-9]{17,20}")


async def test_every_page_answers_and_shows_the_servers_public_games(world: World) -> None:
    pages = await crawl(world.client, world.root)
    broken = [(page.url, page.status) for page in pages if page.status != 200]
    assert broken == []
    kinds = {page.content_type for page in pages}
    assert {"text/html", "image/png", "application/json", "text/css"} <= kinds
    home = visible_text(next(page.text for page in pages if page.url == world.root))
    assert "The Big Top" in home
    for table in [*world.finished.values(), *world.live.values()]:
        assert f"#{table.id}" in home
        assert any(page.url == f"{world.root}/g/{table.id}" for page in pages)
    assert world.private is not None
    assert not any(f"/g/{world.private.id}" in page.url for page in pages)
    assert any(f"/t/{world.tournament}" == page.url[len(world.root) :] for page in pages)
    for page in pages:
        assert page.headers["Content-Security-Policy"] == CSP
        assert page.headers["X-Robots-Tag"] == "noindex, nofollow"


async def test_a_live_game_says_whose_move_it_is_and_how_long_is_left(world: World) -> None:
    table = world.live["charioteer"]
    status, html = await world.get(f"{world.root}/g/{table.id}")
    assert status == 200
    text = visible_text(html)
    waiting = [table.seat(seat).name for seat in table.waiting]
    assert waiting and all(name in text for name in waiting)
    assert "Waiting for" in text and "left" in text
    assert f'data-seq="{table.row.seq}"' in html


async def test_no_page_writes_a_discord_id(world: World) -> None:
    pages = await crawl(world.client, world.root)
    ids = {str(GUILD), str(PUBLIC), str(PRIVATE), *map(str, PEOPLE)}
    for page in pages:
        if page.content_type in ("text/html", "application/json"):
            found = set(DISCORD_ID.findall(page.text + page.url))
            assert not found & ids, page.url
            assert "user:" not in page.text, page.url
    names = visible_text(next(page.text for page in pages if "/leaderboard/charioteer" in page.url))
    assert NAMES[PEOPLE[0]] in names


async def test_the_last_step_of_a_replay_is_the_final_board(world: World) -> None:
    for table in world.finished.values():
        async with world.client.get(f"{world.root}/g/{table.id}/steps.json") as answer:
            steps = await answer.json()
        async with world.client.get(steps[-1]["picture"]) as answer:
            last = await answer.read()
        async with world.client.get(
            f"{world.root}/g/{table.id}/board/{table.row.seq}.png"
        ) as answer:
            final = await answer.read()
        assert last == final
        status, html = await world.get(f"{world.root}/g/{table.id}/replay?step={len(steps) - 1}")
        assert status == 200 and 'id="next" class="button disabled"' in html


async def test_everything_unknown_is_not_found(world: World) -> None:
    finished = world.finished["carcassonne"]
    live = world.live["charioteer"]
    assert world.private is not None
    unknown = [
        "/nothing",
        "/s/",
        "/s/not-a-slug",
        "/s/AAAAAAAAAAAAAAAAAAAAAA",
        f"{world.root}x",
        f"{world.root}/g/999999",
        f"{world.root}/g/{world.private.id}",
        f"{world.root}/g/{world.private.id}/replay",
        f"{world.root}/g/{world.private.id}/board/{world.private.row.seq}.png",
        f"{world.root}/g/{live.id}/replay",
        f"{world.root}/g/{live.id}/steps.json",
        f"{world.root}/g/{live.id}/board/{live.row.seq - 1}.png",
        f"{world.root}/g/{finished.id}/replay?step=99999",
        f"{world.root}/g/{finished.id}/replay?step=-1",
        f"{world.root}/g/{finished.id}/replay?step=one",
        f"{world.root}/g/{finished.id}/step/99999.png",
        f"{world.root}/g/-1",
        f"{world.root}/games?page=x",
        f"{world.root}/leaderboard/chess",
        f"{world.root}/p/0123456789abcdef",
        f"{world.root}/p/{PEOPLE[0]}",
        f"{world.root}/t/999",
        "/static/../bot/web/app.py",
        "/static/nothing.css",
    ]
    for path in unknown:
        status, html = await world.get(path)
        assert status == 404, path
        assert "Not found" in html, path


async def test_a_page_turned_off_and_on_has_a_new_link_and_the_old_one_is_gone(
    world: World,
) -> None:
    publishing = Publishing(world.service.storage)
    await publishing.turn_off(GUILD)
    assert (await world.get(world.root))[0] == 404
    page = await publishing.turn_on(GUILD, "The Big Top", None, 0.0)
    assert page.slug != world.page.slug
    assert (await world.get(world.root))[0] == 404
    status, html = await world.get(f"/s/{page.slug}")
    assert status == 200
    assert "No game is being played" in html  # its channels are told again by the bot
    await publishing.set_public_channels(GUILD, [PUBLIC])
    status, html = await world.get(f"/s/{page.slug}")
    assert f"#{world.live['charioteer'].id}" in visible_text(html)


async def test_robots_are_kept_out(world: World) -> None:
    status, text = await world.get("/robots.txt")
    assert status == 200 and "Disallow: /" in text
