"""Cartographers' rules where the player is, through the fake Discord: the season's first
post says what each of its edicts scores, later posts only name them; the drawing panel
gives each edict's short rule and what the drawing earns for it, and its selects say
which is the terrain, the shape, the row and the column; the last turn of a season is
announced, and its time never reads past the season's threshold. The rules add no
message: one post a turn, and the season's scores."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.service import TableService
from cogs.app import CircusBot
from engine.cartographers import Expedition, SeatView
from engine.cartographers.components import EDICTS, SEASONS
from engine.cartographers.messages import name, text
from tests.cogs.conftest import settings_for
from tests.e2e.mapmakers import (
    draw_proposed,
    open_panel,
    post_turn,
    posts,
    seasons,
    start_game,
    wait_for_post,
)
from tests.e2e.players import custom_id, select_options
from tests.fakediscord.harness import pointed_at
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

SEED = 16
"""Spring's cards at this seed: its fifth turn takes the time from 7 to 9 of 8."""
LAST_OF_SPRING = 5


@dataclass
class Mapmakers:
    fake: FakeDiscord
    channel: Channel
    alice: User
    bob: User


@pytest.fixture
async def mapmakers(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Mapmakers]:
    """The bot in this event loop, dealing every game from :data:`SEED` (one SQLite file:
    what is checked here is wording, not storage)."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("maps")
    alice, bob = guild.add_member("alice"), guild.add_member("bob")
    database = str(tmp_path / "maps.db")
    service = await TableService.create(database, seeds=lambda: SEED)
    with pointed_at(fake):
        bot = CircusBot(settings_for(fake, database), service=service)
        runner = asyncio.create_task(bot.start(fake.token))
        try:
            await fake.wait_for_command("cartographers", timeout=60)
            await fake.wait_until_ready(timeout=60)
            yield Mapmakers(fake, channel, alice, bob)
        finally:
            await bot.close()
            await runner


def spring() -> SeatView:
    return Expedition.new(seats=2, seed=SEED).view()


def season_edicts(view: SeatView, season: int) -> list[tuple[str, str]]:
    """(letter, edict card) of the season numbered ``season`` (0: spring)."""
    return [(letter.value, view.edicts[EDICTS.index(letter)]) for letter in SEASONS[season].edicts]


def shown_label(panel: Message, verb: str) -> str:
    """What a closed select shows: its chosen option's label."""
    chosen = [option for option in select_options(panel, verb) if option.get("default")]
    assert len(chosen) == 1, select_options(panel, verb)
    return str(chosen[0]["label"])


async def play_turn(fake: FakeDiscord, place: Channel, players: list[User], turn: int) -> None:
    post = await wait_for_post(fake, place, turn)
    for player in players:
        await draw_proposed(player, post)
    await wait_for_post(fake, place, turn + 1)


async def test_the_seasons_first_post_says_what_each_edict_scores(mapmakers: Mapmakers) -> None:
    fake, alice, bob = mapmakers.fake, mapmakers.alice, mapmakers.bob
    _, place = await start_game(fake, alice, [bob], mapmakers.channel)
    edicts = season_edicts(spring(), 0)

    first = await wait_for_post(fake, place, 1)
    for letter, edict in edicts:
        assert f"{letter} **{name('card', edict)}**: {text(f'rule.{edict}')}" in first.content

    await play_turn(fake, place, [alice, bob], 1)
    second = await wait_for_post(fake, place, 2)
    named = ", ".join(f"{letter} {name('card', edict)}" for letter, edict in edicts)
    assert f"Edicts this season: {named}" in second.content
    assert not any(text(f"rule.{edict}") in second.content for _, edict in edicts)


async def test_the_panel_gives_each_edicts_rule_and_what_the_drawing_earns(
    mapmakers: Mapmakers,
) -> None:
    fake, alice, bob = mapmakers.fake, mapmakers.alice, mapmakers.bob
    _, place = await start_game(fake, alice, [bob], mapmakers.channel)
    panel = await open_panel(alice, await wait_for_post(fake, place, 1))

    lines = panel.content.splitlines()
    assert "✅ Legal · coins earned: 0 · stars this season:" in lines
    for letter, edict in season_edicts(spring(), 0):
        rule = text(f"rule_short.{edict}")
        gained = [line for line in lines if line.startswith(f"{letter} {name('card', edict)} ")]
        assert len(gained) == 1, panel.content
        assert re.fullmatch(rf".* \*\*(\+\d+|−\d+)\*\* — {re.escape(rule)}", gained[0]), gained


async def test_the_panels_selects_say_what_they_choose(mapmakers: Mapmakers) -> None:
    fake, alice, bob = mapmakers.fake, mapmakers.alice, mapmakers.bob
    _, place = await start_game(fake, alice, [bob], mapmakers.channel)
    panel = await open_panel(alice, await wait_for_post(fake, place, 1))
    row = custom_id(panel, "row")
    panel = await (await alice.select(panel, row, ["4"])).reply()

    terrain = re.search(r"Drawing: (\w+), shape (\d)", panel.content)
    assert terrain is not None, panel.content
    assert shown_label(panel, "terrain") == f"Terrain: {terrain.group(1)}"
    assert shown_label(panel, "shape") == f"Shape {terrain.group(2)}"
    assert shown_label(panel, "row") == "Row 5"
    column = re.search(r", at ([A-K])5\b", panel.content)
    assert column is not None, panel.content
    assert shown_label(panel, "col") == f"Column {column.group(1)}"


async def test_the_last_turn_of_a_season_is_announced_within_its_time(
    mapmakers: Mapmakers,
) -> None:
    fake, alice, bob = mapmakers.fake, mapmakers.alice, mapmakers.bob
    _, place = await start_game(fake, alice, [bob], mapmakers.channel)
    for turn in range(1, LAST_OF_SPRING):
        post = await wait_for_post(fake, place, turn)
        assert "Last turn of the season" not in post.content
        await play_turn(fake, place, [alice, bob], turn)

    last = await wait_for_post(fake, place, LAST_OF_SPRING)
    header, notice = last.content.splitlines()[:2]
    assert header.endswith("· time 8/8"), header
    assert notice == "**Last turn of the season**: it is scored once everyone has drawn."
    assert not any("time 9/8" in m.content for m in place.public_messages())
    await play_turn(fake, place, [alice, bob], LAST_OF_SPRING)

    summer = await wait_for_post(fake, place, LAST_OF_SPRING + 1)
    assert " · Summer · " in summer.content and "Last turn" not in summer.content
    for letter, edict in season_edicts(spring(), 1):
        assert f"{letter} **{name('card', edict)}**: {text(f'rule.{edict}')}" in summer.content
    assert len(seasons(place)) == 1
    assert [post_turn(m) for m in posts(place)] == list(range(1, LAST_OF_SPRING + 2))
    assert len(place.public_messages()) == LAST_OF_SPRING + 2, "a post a turn, and the scores"
