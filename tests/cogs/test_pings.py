"""A public post pings only the players it means to ping, by id: a display name written as
someone's mention (``<@id>``) pings nobody, on the lobby, the boards, the reveals, the
reminders or the podium. Read from what the bot asked Discord: each message's
``allowed_mentions``."""

from __future__ import annotations

import re
from typing import Any

from tests.cogs.conftest import Circus
from tests.e2e.players import play_until_the_end, start_race, wait_for_board
from tests.e2e.tilelayers import start_game, wait_for_post
from tests.fakediscord.errors import RequestRecord
from tests.fakediscord.server import FakeDiscord

POSTS = (
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("POST", "/webhooks/{application_id}/{interaction_token}"),
    ("PATCH", "/webhooks/{application_id}/{interaction_token}/messages/{message_id}"),
)
EPHEMERAL = 1 << 6


def public_bodies(circus: Circus) -> list[dict[str, Any]]:
    """The body of every public message the bot posted or edited, with content, in order."""
    fake = circus.fake
    requests: list[RequestRecord] = []
    for method, route in POSTS:
        requests += fake.requests_for(method, route)
    bodies = []
    for request in sorted(requests, key=lambda request: fake.requests.index(request)):
        body = request.body if isinstance(request.body, dict) else {}
        message = body.get("data") if "type" in body and "data" in body else body
        if not isinstance(message, dict) or not message.get("content"):
            continue
        if int(message.get("flags") or 0) & EPHEMERAL or edits_a_private_message(fake, request):
            continue
        bodies.append(message)
    return bodies


def edits_a_private_message(fake: FakeDiscord, request: RequestRecord) -> bool:
    """An interaction's update of the private panel it was clicked on, or of its own
    private answer."""
    parts = request.path.split("/")
    if parts[1] == "interactions":
        interaction = fake.interactions.by_id[int(parts[2])]
        updated = interaction.source_message if request.body.get("type") == 7 else None
    elif parts[1] == "webhooks" and request.method == "PATCH":
        updated = fake.interactions.by_token[parts[3]].original
    else:
        return False
    return updated is not None and updated.ephemeral


def pinged(body: dict[str, Any]) -> set[int]:
    """Who a message may ping: Discord parses every mention when ``allowed_mentions`` is
    left out, else only the parsed kinds and the listed users."""
    allowed = body.get("allowed_mentions")
    assert allowed is not None, f"no allowed_mentions: {body['content'][:80]!r}"
    assert not {"everyone", "roles", "users"} & set(allowed.get("parse", [])), allowed
    return {int(user) for user in allowed.get("users", [])}


async def test_a_name_that_mentions_someone_pings_nobody(circus: Circus) -> None:
    """A Carcassonne post names its players as they are called: a name written as carol's
    mention is shown, and pings nobody; the player to move is pinged by id."""
    fake, guild, alice = circus.fake, circus.guild, circus.alice
    carol = guild.add_member("carol")
    mask = guild.add_member(f"<@{carol.id}>")  # a display name that reads as carol's mention
    _, place = await start_game(fake, alice, [mask], circus.channel)
    post = await wait_for_post(fake, place, 1)
    assert carol.mention in post.content
    bodies = public_bodies(circus)
    assert bodies and any(carol.mention in body["content"] for body in bodies)
    for body in bodies:
        assert pinged(body) <= {alice.id, mask.id}, body["content"][:200]
    assert any(pinged(body) for body in bodies)


async def test_each_post_of_a_race_pings_only_the_players_it_means(circus: Circus) -> None:
    """The lobby pings nobody, a board and a reminder the players it waits for, a reveal
    nobody, a board whose turn is over (edited: nobody named) nobody, and the podium
    nobody: it names its players, but no move is owed."""
    fake, alice, bob = circus.fake, circus.alice, circus.bob
    players = {alice.id, bob.id}
    _, place = await start_race(fake, alice, [bob], circus.channel)
    board = await wait_for_board(fake, place, 1)
    table = await circus.bot.service.table(int(board.custom_ids()[0].split(":")[1]))
    await circus.bot.announcer.remind(table, 1)
    await play_until_the_end(fake, place, [alice, bob])

    bodies = public_bodies(circus)
    for body in bodies:
        content = body["content"]
        board = content.startswith("**Race #1 · turn") and "revealed" not in content
        named = {int(user) for user in re.findall(r"<@(\d+)>", content)}
        if (board and named) or content.startswith("⏳"):  # whoever it names: all ours
            assert named and pinged(body) == named, content[:200]
        else:
            assert pinged(body) == set(), content[:200]
    assert any(pinged(body) == players for body in bodies if body["content"].startswith("**"))
    assert any(body["content"].startswith("🏆") for body in bodies)
    assert any("revealed" in body["content"] for body in bodies)
    assert bodies[0]["content"].startswith("**Race #1** · Charioteer")
