"""Cartographers players for the SimCord suite: open a lobby, start, find the turn posts,
and draw through the private panel's real controls (selects, buttons, the typed-cell
form), as tests/e2e/mapmakers.py does against our own fake."""

from __future__ import annotations

import re
from typing import Any

import discord
from simcord import ChannelHandle, Env, InteractionResult, MemberActor

POST = re.compile(r"\*\*Cartographers #(\d+) · \w+ · turn (\d+)\*\*")
OVER = "is over**"
MAX_TURNS = 80
"""A game lasts four seasons of at most 8 time each; the bound only turns a stalled game
into a failure."""


def posts(place: ChannelHandle) -> list[discord.Message]:
    """The turn posts (the ones with a Draw button), oldest first."""
    return [m for m in place.history() if POST.match(m.content or "") and m.components]


def post_turn(message: discord.Message) -> int:
    match = POST.match(message.content or "")
    assert match is not None
    return int(match.group(2))


def current_post(place: ChannelHandle) -> discord.Message:
    found = posts(place)
    assert found, "no turn post"
    return max(found, key=post_turn)


def podium(place: ChannelHandle) -> discord.Message | None:
    return next((m for m in place.history() if OVER in (m.content or "")), None)


def seasons(place: ChannelHandle) -> list[discord.Message]:
    return [m for m in place.history() if ": end of the season" in (m.content or "")]


async def start_game(
    host: MemberActor,
    channel: ChannelHandle,
    others: list[MemberActor],
    *,
    ai: tuple[str, ...] = (),
    **options: Any,
) -> tuple[Any, ChannelHandle]:
    """Open a lobby, seat ``others`` and the AI seats, start; the lobby and the game's
    thread (the lobby as the Start click left it)."""
    options.setdefault("turn_limit", "none")
    opened = await host.slash(
        channel, "cartographers new", seats=1 + len(others) + len(ai), **options
    )
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral
    table = lobby_table(lobby)
    for player in others:
        assert (await player.click(lobby, label="Join")).acknowledged
    for level in ai:
        assert (await host.select(lobby, [level], custom_id=f"cs:{table}:addai:0")).acknowledged
    started = await host.click(lobby, label="Start")
    assert started.acknowledged and started.response is not None
    (thread,) = [t for t in channel.threads if t.name == f"Cartographers #{table}"]
    return started.response, thread


def lobby_table(lobby: Any) -> int:
    match = re.match(r"\*\*Cartographers #(\d+)\*\*", lobby.content)
    assert match is not None, lobby.content
    return int(match.group(1))


async def open_panel(player: MemberActor, post: Any) -> Any:
    shown = await player.click(post, label="Draw")
    assert shown.ephemeral, "the panel shows an unrevealed drawing: only its player sees it"
    assert shown.response is not None
    return shown.response


def control(panel: Any, verb: str) -> dict[str, Any]:
    """The panel's component for a verb (``confirm``, ``rotate``, ``row``…)."""
    for row in panel.components:
        for component in row.get("components", []):
            parts = str(component.get("custom_id", "")).split(":")
            if len(parts) == 4 and parts[2] == verb:
                return dict(component)
    raise AssertionError(f"the panel has no {verb} control")


def confirm_enabled(panel: Any) -> bool:
    return not control(panel, "confirm").get("disabled", False)


async def choose(player: MemberActor, panel: Any, verb: str, value: str) -> Any:
    """Pick ``value`` in one of the panel's selects; the panel as it is after."""
    picked = await player.select(panel, [value], custom_id=control(panel, verb)["custom_id"])
    assert picked.acknowledged and picked.response is not None
    return picked.response


async def press(player: MemberActor, panel: Any, verb: str) -> InteractionResult:
    return await player.click(panel, custom_id=control(panel, verb)["custom_id"])


async def type_cell(player: MemberActor, panel: Any, cell: str) -> InteractionResult:
    """Press "Type a cell" and submit ``cell`` in the form."""
    form = await press(player, panel, "type")
    assert form.modal is not None, "Type a cell opens a form"
    return await player.submit_modal(form, {"cell": cell})


async def draw_proposed(player: MemberActor, post: Any) -> InteractionResult:
    """Open the panel and confirm the drawing it proposes."""
    panel = await open_panel(player, post)
    assert confirm_enabled(panel), panel.content
    return await press(player, panel, "confirm")


async def play_to_the_end(env: Env, place: ChannelHandle, players: list[MemberActor]) -> list[str]:
    """Every player draws the proposed drawing each turn until the final ranking; the
    answers to their Confirms."""
    answers = []
    for _ in range(MAX_TURNS):
        if podium(place) is not None:
            return answers
        post = current_post(place)
        for player in players:
            confirmed = await draw_proposed(player, post)
            assert confirmed.response is not None
            answers.append(confirmed.response.content)
    raise AssertionError(f"no final ranking after {MAX_TURNS} turns")
