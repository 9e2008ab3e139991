"""The pages in a real browser: headless Chromium (Debian's ``chromium``, which ``.ci/run``
installs) driven by Playwright, against the site serving a database made by the service.
A live game's page follows a stored move, a replay steps to its end and shows the final
board, a tournament's bracket, the 400 px layout without horizontal overflow, and 404s."""

from __future__ import annotations

import io
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image
from playwright.async_api import Browser, Page, async_playwright, expect

from bot.clock import FakeClock
from bot.games import host_for
from bot.service import TableService
from engine.core import Rng
from tests.bot.web.conftest import World, build_world
from tests.bot.web.games import NAMES
from tests.databases import postgres_required

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = 400


@pytest.fixture
async def browser(tmp_path: Path) -> AsyncIterator[Browser]:
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        reason = "Chromium is not installed (apt-get install chromium; .ci/run installs it)"
        if postgres_required():
            pytest.fail(reason)
        pytest.skip(reason)
    async with async_playwright() as playwright:
        context = await playwright.chromium.launch_persistent_context(
            tmp_path / "profile", executable_path=CHROMIUM, headless=True, args=FLAGS
        )
        try:
            yield context  # type: ignore[misc]
        finally:
            await context.close()


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[World]:
    """The site on a SQLite database (the HTTP tests cover both), asking every 100 ms."""
    clock = FakeClock()
    service = await TableService.create(str(tmp_path / "web.db"), clock=clock)
    world = await build_world(service, clock, poll=0.1)
    try:
        yield world
    finally:
        await world.client.close()
        await service.close()


def url(world: World, path: str) -> str:
    return str(world.client.make_url(path))


async def open_page(browser: object, world: World, path: str, width: int = 1280) -> Page:
    page: Page = await browser.new_page()  # type: ignore[attr-defined]
    await page.set_viewport_size({"width": width, "height": 900})
    answer = await page.goto(url(world, path))
    assert answer is not None and answer.status == 200, path
    return page


async def test_a_live_game_page_follows_a_stored_move(browser: Browser, site: World) -> None:
    table = site.live["charioteer"]
    page = await open_page(browser, site, f"{site.root}/g/{table.id}")
    [seat] = table.waiting_humans()
    assert seat.user_id is not None
    await expect(page.locator("#waiting")).to_contain_text(NAMES[seat.user_id])
    _, view = await site.service.view_for(table.id, seat.user_id)
    action = host_for("charioteer").ai_action("random", view, Rng(1))
    await site.service.submit(table.id, seat.user_id, action, view.turn)
    await site.service.play_ai_seats(table.id)
    moved = await site.service.table(table.id)
    assert moved.row.seq > table.row.seq
    section = page.locator("#game")
    await expect(section).to_have_attribute("data-seq", str(moved.row.seq))
    picture = page.locator("#game img.board")
    await expect(picture).to_have_attribute(
        "src", f"{site.root}/g/{table.id}/board/{moved.row.seq}.png"
    )


async def test_a_replay_steps_to_the_end_and_shows_the_final_board(
    browser: Browser, site: World
) -> None:
    table = site.finished["charioteer"]
    page = await open_page(browser, site, f"{site.root}/g/{table.id}/replay")
    await expect(page.locator("#play")).to_be_visible()
    last = int(await page.locator("#replay").get_attribute("data-last") or 0)
    for number in range(1, last + 1):
        await page.locator("a#next").click()
        await expect(page.locator("#replay")).to_have_attribute("data-step", str(number))
    await expect(page.locator("#next")).to_have_class("button disabled")
    assert page.url.endswith(f"?step={last}")
    shown = await page.locator("#picture").get_attribute("src")
    assert shown is not None
    drawn = await page.request.get(url(site, shown))
    final = await page.request.get(url(site, f"{site.root}/g/{table.id}/board/{table.row.seq}.png"))
    assert await drawn.body() == await final.body()
    await page.locator("#step").fill("0")
    await expect(page.locator("#replay")).to_have_attribute("data-step", "0")


async def test_a_tournament_shows_its_bracket(browser: Browser, site: World) -> None:
    page = await open_page(browser, site, f"{site.root}/t/{site.tournament}")
    rounds = page.locator(".bracket .round")
    await expect(rounds).to_have_count(2)
    await expect(rounds.nth(1).locator("h3")).to_have_text("Final")
    await expect(page.locator(".champion")).to_contain_text("Champion:")
    await expect(rounds.nth(0).locator(".match")).to_have_count(2)


async def test_every_page_fits_a_phone_without_horizontal_overflow(
    browser: Browser, site: World, tmp_path: Path
) -> None:
    finished, live = site.finished["carcassonne"], site.live["cartographers"]
    paths = [
        site.root,
        f"{site.root}/g/{live.id}",
        f"{site.root}/g/{finished.id}",
        f"{site.root}/g/{finished.id}/replay?step=40",
        f"{site.root}/leaderboard/carcassonne",
        f"{site.root}/t/{site.tournament}",
    ]
    for number, path in enumerate(paths):
        page = await open_page(browser, site, path, width=PHONE)
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE, path
        shot = await page.screenshot(full_page=True, path=tmp_path / f"phone-{number}.png")
        assert Image.open(io.BytesIO(shot)).width == PHONE, path
        await page.close()


async def test_unknown_addresses_are_not_found(browser: Browser, site: World) -> None:
    page = await browser.new_page()
    for path in ("/s/AAAAAAAAAAAAAAAAAAAAAA", f"{site.root}/g/999999", f"{site.root}/p/x"):
        answer = await page.goto(url(site, path))
        assert answer is not None and answer.status == 404
        await expect(page.locator("h1")).to_have_text("Not found")
