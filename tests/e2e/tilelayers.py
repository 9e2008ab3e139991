"""Acting as Carcassonne: Star Wars players in the fake Discord: open a lobby, start, find
the turn posts, play a turn through the private panel (place, then deploy)."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.players import custom_id, select_options
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

POST = re.compile(r"\*\*Carcassonne: Star Wars #(\d+) · turn (\d+)\*\*")
OVER = "is over**"


def posts(place: Channel) -> list[Message]:
    return [m for m in place.public_messages() if POST.match(m.content) and m.custom_ids()]


def post_turn(message: Message) -> int:
    match = POST.match(message.content)
    assert match is not None
    return int(match.group(2))


def told(place: Channel) -> str:
    """Everything the game's thread has said so far (each turn is told in the next post)."""
    return "\n".join(m.content for m in place.public_messages())


def podiums(place: Channel) -> list[Message]:
    return [m for m in place.public_messages() if OVER in m.content]


async def start_game(
    fake: FakeDiscord,
    host: User,
    others: list[User],
    channel: Channel,
    *,
    ai: list[str] = (),  # type: ignore[assignment]
    **options: Any,
) -> tuple[Message, Channel]:
    """Open a lobby, seat ``others`` and the AI seats, start; the lobby and the thread."""
    options.setdefault("turn_limit", "none")
    seats = 1 + len(others) + len(ai)
    lobby = await (await host.slash(channel, "carcassonne new", seats=seats, **options)).reply()
    for user in others:
        await (await user.click(lobby, custom_id(lobby, "join"))).reply()
    for level in ai:
        await (await host.select(lobby, custom_id(lobby, "addai"), [level])).reply()
    assert channel.guild is not None
    guild = channel.guild
    threads_before = len(guild.threads())
    await (await host.click(lobby, custom_id(lobby, "start"))).wait_ack()
    await fake.wait_for(
        lambda: len(guild.threads()) > threads_before and bool(posts(guild.threads()[-1])),
        timeout=30,
        what="the first turn post",
    )
    return lobby, guild.threads()[threads_before]


async def wait_for_post(fake: FakeDiscord, place: Channel, turn: int) -> Message:
    def found() -> Message | None:
        return next((m for m in posts(place) if post_turn(m) == turn), None)

    await fake.wait_for(lambda: found() is not None, timeout=30, what=f"the post of turn {turn}")
    post = found()
    assert post is not None
    return post


async def open_panel(user: User, post: Message) -> Message:
    panel = await (await user.click(post, custom_id(post, "play"))).reply(timeout=30)
    assert panel.ephemeral and panel.ephemeral_to is user, panel
    return panel


async def play_turn(user: User, post: Message, *, deploy: bool = True) -> Message:
    """Open the panel, place the tile where it proposes, deploy a meeple on the first
    feature offered (or nothing), confirm; what the panel says after."""
    panel = await open_panel(user, post)
    panel = await (await user.click(panel, custom_id(panel, "place"))).reply()
    assert "Tile placed" in panel.content, panel.content
    wheres = [o["value"] for o in select_options(panel, "where") if o["value"] != "none"]
    if deploy and wheres:
        panel = await (await user.select(panel, custom_id(panel, "where"), [wheres[0]])).reply()
    return await (await user.click(panel, custom_id(panel, "confirm"))).reply()


async def play_to_the_end(
    fake: FakeDiscord, place: Channel, players: list[User], turn: int = 1
) -> int:
    """The human players play their turns (AI seats play theirs) until the final ranking;
    the last turn seen."""
    while True:
        await fake.wait_for(
            lambda turn=turn: (
                bool(podiums(place)) or any(post_turn(m) >= turn for m in posts(place))
            ),
            timeout=60,
            what=f"turn {turn} or the end",
        )
        if podiums(place):
            return turn
        post = max(posts(place), key=post_turn)
        turn = post_turn(post)
        for player in players:
            if player.mention in post.content:
                done = await play_turn(player, post)
                assert "Turn played" in done.content, done.content
                break
        turn += 1
        assert turn < 200, "the game does not end"
