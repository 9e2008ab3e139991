"""Acting as Cartographers players in the fake Discord: open a lobby, start, find the
turn posts, draw through the private panel."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.players import custom_id, select_options
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

NOWHERE = "This shape fits nowhere on the map"
"""What the panel says when the card's chosen shape fits nowhere but another one does."""
POST = re.compile(r"\*\*Cartographers #(\d+) · \w+ · turn (\d+)\*\*")
OVER = "is over**"


def posts(place: Channel) -> list[Message]:
    return [m for m in place.public_messages() if POST.match(m.content) and m.custom_ids()]


def post_turn(message: Message) -> int:
    match = POST.match(message.content)
    assert match is not None
    return int(match.group(2))


def podiums(place: Channel) -> list[Message]:
    return [m for m in place.public_messages() if OVER in m.content]


def seasons(place: Channel) -> list[Message]:
    return [m for m in place.public_messages() if ": end of the season" in m.content]


async def open_map_lobby(user: User, channel: Channel, **options: Any) -> Message:
    options.setdefault("turn_limit", "none")
    return await (await user.slash(channel, "cartographers new", **options)).reply()


async def start_game(
    fake: FakeDiscord,
    host: User,
    others: list[User],
    channel: Channel,
    *,
    ai: list[str] = (),  # type: ignore[assignment]
    **options: Any,
) -> tuple[Message, Channel]:
    """Open a lobby, seat ``others`` and the AI seats, start; returns the lobby and the
    place the game runs in (its thread)."""
    seats = 1 + len(others) + len(ai)
    lobby = await open_map_lobby(host, channel, seats=seats, **options)
    for user in others:
        await (await user.click(lobby, custom_id(lobby, "join"))).reply()
    for level in ai:
        await (await host.select(lobby, custom_id(lobby, "addai"), [level])).reply()
    threads_before = len(channel.guild.threads()) if channel.guild else 0
    await (await host.click(lobby, custom_id(lobby, "start"))).wait_ack()
    assert channel.guild is not None
    guild = channel.guild
    await fake.wait_for(
        lambda: len(guild.threads()) > threads_before and bool(posts(guild.threads()[-1])),
        timeout=30,
        what="the first turn post",
    )
    return lobby, guild.threads()[threads_before]


async def wait_for_post(fake: FakeDiscord, place: Channel, turn: int) -> Message:
    def found() -> Message | None:
        for message in posts(place):
            if post_turn(message) == turn:
                return message
        return None

    await fake.wait_for(lambda: found() is not None, timeout=30, what=f"the post of turn {turn}")
    post = found()
    assert post is not None
    return post


async def open_panel(user: User, post: Message) -> Message:
    panel = await (await user.click(post, custom_id(post, "draw"))).reply(timeout=30)
    assert panel.ephemeral and panel.ephemeral_to is user, panel
    return panel


def confirm_enabled(panel: Message) -> bool:
    return not panel.component(custom_id(panel, "confirm")).get("disabled", False)


async def drawable_panel(user: User, post: Message) -> Message:
    """Open the panel on a drawing that can be confirmed, as a player would: the panel
    proposes the first legal spot of the card's first shape (or the 1×1 square when no
    shape fits); when that shape fits nowhere, the next shape of the card is chosen."""
    panel = await open_panel(user, post)
    for option in select_options(panel, "shape"):
        if confirm_enabled(panel) or NOWHERE not in panel.content:
            break
        if not option.get("default"):
            shape = custom_id(panel, "shape")
            panel = await (await user.select(panel, shape, [option["value"]])).reply()
    assert confirm_enabled(panel), panel.content
    return panel


async def draw_proposed(user: User, post: Message) -> Message:
    """Confirm the drawing the panel proposes (see :func:`drawable_panel`); what the panel
    says after."""
    panel = await drawable_panel(user, post)
    return await (await user.click(panel, custom_id(panel, "confirm"))).reply()


async def play_to_the_end(
    fake: FakeDiscord, place: Channel, players: list[User], turn: int = 1
) -> int:
    """Every player draws the proposed drawing each turn until the final ranking."""
    while not podiums(place):
        post = await wait_for_post(fake, place, turn)
        for player in players:
            if podiums(place):
                break
            await draw_proposed(player, post)
        await fake.wait_for(
            lambda turn=turn: (
                bool(podiums(place)) or any(post_turn(m) > turn for m in posts(place))
            ),
            timeout=30,
            what=f"the end of turn {turn}",
        )
        if not podiums(place):
            turn = max(post_turn(m) for m in posts(place))
        assert turn < 80, "the game does not end"
    return turn
