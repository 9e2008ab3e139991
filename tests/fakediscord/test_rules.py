"""Discord's rules as the fake enforces them, probed with plain HTTP and with discord.py calls."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from .conftest import World
from .interactions import ClientRefused
from .model import ChannelType
from .sample_bot import SampleBot, png_bytes
from .server import FakeDiscord

COMMAND = {
    "name": "demo",
    "description": "d",
    "options": [{"type": 1, "name": "panel", "description": "p"}],
}


@pytest.fixture
async def http(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """A raw HTTP client speaking as the bot, for requests discord.py would not send."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(base_url=fake.http_base, headers=headers) as session:
        yield session


async def call(
    http: aiohttp.ClientSession, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    async with http.request(method, "/api/v10" + path, json=body) as response:
        data = await response.json() if response.status != 204 else None
        return response.status, data


def callback_path(interaction: Any) -> str:
    return f"/interactions/{interaction.id}/{interaction.token}/callback"


def webhook_path(fake: FakeDiscord, interaction: Any, tail: str = "") -> str:
    return f"/webhooks/{fake.application_id}/{interaction.token}{tail}"


async def test_the_deadline_is_three_seconds_by_default(fake: FakeDiscord, world: World) -> None:
    fake.set_commands(None, [COMMAND])
    asked = await world.alice.slash(world.channel, "demo panel")
    fake.clock.advance(2.9)
    assert not asked.failed
    fake.clock.advance(0.2)
    assert asked.failed
    assert [n.text for n in world.alice.failures()] == ["This interaction failed"]
    [violation] = fake.take_violations()
    assert violation.kind == "interaction"


async def test_an_answer_in_time_is_accepted_and_acknowledged_once(
    fake: FakeDiscord, world: World, http: aiohttp.ClientSession
) -> None:
    fake.set_commands(None, [COMMAND])
    asked = await world.alice.slash(world.channel, "demo panel")
    status, answer = await call(
        http, "POST", callback_path(asked) + "?with_response=1", {"type": 5}
    )
    assert status == 200
    assert answer["interaction"]["response_message_loading"] is True
    assert asked.original is not None and asked.original.loading
    status, _ = await call(
        http, "POST", callback_path(asked), {"type": 4, "data": {"content": "x"}}
    )
    assert status == 400
    fake.clock.advance(5)
    assert not asked.failed
    assert [v.message for v in fake.take_violations()] == [f"second initial response to {asked!r}"]


async def test_tokens_expire_after_fifteen_minutes_and_unfinished_deferrals_are_seen(
    fake: FakeDiscord, world: World, http: aiohttp.ClientSession
) -> None:
    fake.set_commands(None, [COMMAND])
    asked = await world.alice.slash(world.channel, "demo panel")
    await call(http, "POST", callback_path(asked), {"type": 5, "data": {"flags": 64}})
    fake.clock.advance(14 * 60)
    status, _ = await call(http, "GET", webhook_path(fake, asked, "/messages/@original"))
    assert status == 200
    fake.clock.advance(60)
    status, error = await call(http, "POST", webhook_path(fake, asked), {"content": "late"})
    assert (status, error["code"]) == (401, 50027)
    assert [n.text for n in world.alice.notices] == ["The application did not respond"]
    assert "never completed" in fake.take_violations()[0].message


async def test_a_follow_up_needs_an_acknowledged_interaction(
    fake: FakeDiscord, world: World, http: aiohttp.ClientSession
) -> None:
    fake.set_commands(None, [COMMAND])
    asked = await world.alice.slash(world.channel, "demo panel")
    status, error = await call(http, "POST", webhook_path(fake, asked), {"content": "early"})
    assert (status, error["code"]) == (404, 10015)
    await call(http, "POST", callback_path(asked), {"type": 4, "data": {"content": "hi"}})
    status, _ = await call(http, "POST", webhook_path(fake, asked) + "?wait=1", {"content": "ok"})
    assert status == 200
    assert [m.content for m in asked.messages()] == ["hi", "ok"]
    assert "before" in fake.take_violations()[0].message


async def test_a_modal_cannot_answer_a_modal_and_commands_cannot_update(
    fake: FakeDiscord, world: World, http: aiohttp.ClientSession
) -> None:
    fake.set_commands(None, [COMMAND])
    asked = await world.alice.slash(world.channel, "demo panel")
    status, _ = await call(http, "POST", callback_path(asked), {"type": 7, "data": {}})
    assert status == 400
    assert not asked.acknowledged
    assert "not allowed" in fake.take_violations()[0].message


async def test_unknown_and_unimplemented_routes_are_violations(
    fake: FakeDiscord, world: World, http: aiohttp.ClientSession
) -> None:
    status, _ = await call(http, "GET", "/no/such/route")
    assert status == 404
    status, _ = await call(http, "GET", f"/guilds/{world.guild.id}/audit-logs")
    assert status == 404
    messages = [v.message for v in fake.take_violations()]
    assert messages[0] == "no such route in Discord's API specification"
    assert "not in the fake" in messages[1]


async def test_requests_need_the_bot_token(fake: FakeDiscord, world: World) -> None:
    async with (
        aiohttp.ClientSession(base_url=fake.http_base) as anonymous,
        anonymous.get("/api/v10/users/@me") as response,
    ):
        assert response.status == 401


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"content": "x" * 2001}, "2000 or fewer"),
        ({"content": ""}, "empty message"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "6000"),
        ({"content": "x", "components": [{"type": 1, "components": []}]}, "components"),
        ({"components": [{"type": 10, "content": "v2 text without the flag"}]}, "action rows"),
        (
            {
                "content": "x",
                "components": [{"type": 2, "style": 1, "custom_id": "a", "label": "A"}],
            },
            "not valid under any",
        ),
        (
            {
                "content": "x",
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "custom_id": "a", "label": "A"},
                            {"type": 2, "style": 1, "custom_id": "a", "label": "B"},
                        ],
                    }
                ],
            },
            "duplicated",
        ),
    ],
)
async def test_message_limits_are_enforced(
    fake: FakeDiscord, world: World, http: aiohttp.ClientSession, body: Any, expected: str
) -> None:
    status, _ = await call(http, "POST", f"/channels/{world.channel.id}/messages", body)
    assert status == 400
    [violation] = fake.take_violations()
    assert expected in violation.message
    assert fake.public_messages() == []


async def test_integer_snowflakes_are_accepted_as_discord_does(
    fake: FakeDiscord, world: World, http: aiohttp.ClientSession
) -> None:
    status, channel = await call(http, "POST", "/users/@me/channels", {"recipient_id": 1})
    assert status == 400  # a valid id, but no such user
    fake.take_violations()
    status, channel = await call(
        http, "POST", "/users/@me/channels", {"recipient_id": world.alice.id}
    )
    assert (status, channel["type"]) == (200, 1)
    assert fake.violations == []


async def test_private_threads_are_visible_to_their_members_only(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
    await thread.send("psst")
    fake_thread = fake.channels[thread.id]
    assert fake_thread.type == ChannelType.PRIVATE_THREAD
    assert world.alice.visible_messages(fake_thread) == []
    member = await bot.fetch_user(world.alice.id)
    await thread.add_user(member)
    assert [m.content for m in world.alice.visible_messages(fake_thread)] == ["psst"]
    assert world.bob.visible_messages(fake_thread) == []
    assert fake.public_messages(world.channel) == []


async def test_a_public_thread_without_a_message_is_announced_in_its_channel(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="open", type=discord.ChannelType.public_thread)
    [announcement] = fake.public_messages(world.channel)
    assert (announcement.type, announcement.content) == (18, "open")
    await fake.wait_for(lambda: bot.get_channel(thread.id) is not None)


async def test_the_bot_cannot_edit_a_users_message(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    said = await world.alice.say(world.channel, "hello")
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.get_partial_message(said.id).edit(content="bye")
    assert refused.value.code == 50005
    assert said.content == "hello"


async def test_without_view_permission_the_bot_gets_missing_access(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    world.channel.deny_bot("view_channel")
    channel = bot.get_partial_messageable(world.channel.id)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hi")
    assert refused.value.code == 50001


async def test_a_private_channel_is_seen_by_its_role_as_discord_py_computes_it(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    """Overwrites for @everyone and a role reach the bot in CHANNEL_UPDATE; discord.py's
    ``permissions_for`` then agrees with the fake on who may view the channel."""
    crew = world.guild.add_role("crew")
    world.guild.give_role(world.alice, crew)
    world.channel.deny(world.guild.everyone, "view_channel")
    world.channel.allow(crew, "view_channel")
    assert world.channel.visible_to(world.alice) and not world.channel.visible_to(world.bob)
    with pytest.raises(ClientRefused, match="cannot see"):
        await world.bob.slash(world.channel, "demo panel")

    def cached() -> discord.TextChannel | None:
        channel = bot.get_channel(world.channel.id)
        if isinstance(channel, discord.TextChannel) and len(channel.overwrites) == 2:
            return channel
        return None

    await fake.wait_for(lambda: cached() is not None, timeout=5, what="the overwrites")
    channel = cached()
    assert channel is not None
    guild = channel.guild
    for user, sees in ((world.alice, True), (world.bob, False)):
        data = world.guild.member(user).payload()
        member = discord.Member(data=data, guild=guild, state=guild._state)
        assert channel.permissions_for(member).view_channel is sees


async def test_slash_commands_work_in_direct_messages(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    dm = fake.open_dm_channel(world.alice)
    reply = await (await world.alice.slash(dm, "demo panel")).reply()
    assert reply.channel is dm and reply.ephemeral_to is world.alice


async def test_the_gateway_speaks_zlib_stream_and_replays_missed_events(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    [connection] = fake.gateway.connections
    assert connection.compressor.kind == "zlib-stream"
    await fake.gateway.drop()
    late = world.guild.add_text_channel("late")
    await fake.wait_for(lambda: bot.get_channel(late.id) is not None)
    [session] = fake.gateway.live_sessions()
    assert session.resumes == 1


async def test_editing_a_message_can_replace_or_keep_its_attachments(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("turn 1", file=discord.File(io.BytesIO(png_bytes(10, 10)), "t1.png"))
    [first] = sent.attachments
    edited = await sent.edit(
        content="turn 2", attachments=[discord.File(io.BytesIO(png_bytes(20, 10)), "t2.png")]
    )
    stored = fake.messages[sent.id]
    assert [a.filename for a in stored.attachments] == ["t2.png"]
    assert stored.attachments[0].image_size() == (20, 10)
    assert [a.filename for a in edited.attachments] == ["t2.png"]
    both = await edited.edit(
        attachments=[edited.attachments[0], discord.File(io.BytesIO(png_bytes()), "extra.png")]
    )
    assert [a.filename for a in both.attachments] == ["t2.png", "extra.png"]
    assert stored.edit_count == 2 and first.filename == "t1.png"


async def test_follow_ups_and_the_original_can_be_edited_and_deleted(
    fake: FakeDiscord, world: World, http: aiohttp.ClientSession
) -> None:
    fake.set_commands(None, [COMMAND])
    asked = await world.alice.slash(world.channel, "demo panel")
    await call(http, "POST", callback_path(asked), {"type": 4, "data": {"content": "board"}})
    status, sent = await call(http, "POST", webhook_path(fake, asked) + "?wait=1", {"content": "a"})
    assert status == 200
    follow = webhook_path(fake, asked, f"/messages/{sent['id']}")
    status, edited = await call(http, "PATCH", follow, {"content": "b"})
    assert (status, edited["content"]) == (200, "b")
    original = webhook_path(fake, asked, "/messages/@original")
    status, _ = await call(http, "DELETE", original)
    assert status == 204
    assert [m.content for m in world.bob.visible_messages(world.channel)] == ["b"]
    status, error = await call(http, "GET", original)
    assert (status, error["code"]) == (404, 10008)


async def test_autocomplete_suggestions_come_back_from_the_bot(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    asked = await world.alice.autocomplete(world.channel, "demo colour", "colour", "re")
    assert await asked.wait_choices() == [
        {"name": "red", "value": "red"},
        {"name": "green", "value": "green"},
    ]


async def test_without_the_content_intent_the_bot_hears_only_mentions(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    await world.alice.say(world.channel, "secret plan")
    await world.alice.say(world.channel, f"{fake.bot_user.mention} hello")
    await fake.wait_for(lambda: len(bot.heard) == 2)
    assert bot.heard == ["", f"{fake.bot_user.mention} hello"]


async def test_guild_permission_changes_reach_the_bot(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    assert channel.permissions_for(channel.guild.me).send_messages
    world.guild.set_bot_permissions("view_channel")
    world.guild.everyone.permissions = 0
    world.channel.deny_bot("send_messages")
    await fake.wait_for(lambda: not channel.permissions_for(channel.guild.me).send_messages)
    with pytest.raises(discord.Forbidden):
        await channel.send("hi")


async def test_subcommand_groups_and_typed_options_reach_the_bot_resolved(
    fake: FakeDiscord, world: World
) -> None:
    who = {"type": 6, "name": "who", "description": "d", "required": True}
    where = {"type": 7, "name": "where", "description": "d", "channel_types": [0]}
    kick = {"type": 1, "name": "kick", "description": "d", "options": [who, where]}
    admin = {"type": 2, "name": "admin", "description": "d", "options": [kick]}
    fake.set_commands(world.guild, [{"name": "race", "description": "d", "options": [admin]}])
    asked = await world.alice.slash(
        world.channel, "race admin kick", who=world.bob, where=world.channel
    )
    assert asked.data["guild_id"] == str(world.guild.id)
    [group] = asked.data["options"]
    [sub] = group["options"]
    assert (group["name"], group["type"], sub["name"], sub["type"]) == ("admin", 2, "kick", 1)
    assert sub["options"] == [
        {"name": "who", "type": 6, "value": str(world.bob.id)},
        {"name": "where", "type": 7, "value": str(world.channel.id)},
    ]
    resolved = asked.data["resolved"]
    assert resolved["users"][str(world.bob.id)]["username"] == "bob"
    assert str(world.bob.id) in resolved["members"]
    assert resolved["channels"][str(world.channel.id)]["name"] == "races"
    with pytest.raises(ClientRefused, match="needs a subcommand"):
        await world.alice.slash(world.channel, "race admin")
    with pytest.raises(ClientRefused, match="takes a User"):
        await world.alice.slash(world.channel, "race admin kick", who="bob")
    fake.clock.advance(5)
    fake.take_violations()


async def test_an_enforced_nonce_posts_a_message_once(
    fake: FakeDiscord, world: World, http: aiohttp.ClientSession
) -> None:
    path = f"/channels/{world.channel.id}/messages"
    body = {"content": "board", "nonce": "c1", "enforce_nonce": True}
    first_status, first = await call(http, "POST", path, body)
    again_status, again = await call(http, "POST", path, body)
    assert first_status == again_status == 200
    assert again["id"] == first["id"]
    assert [m.content for m in fake.public_messages(world.channel)] == ["board"]
    _, other = await call(http, "POST", path, {**body, "nonce": "c2"})
    assert other["id"] != first["id"]
    fake.clock.advance(301)
    _, late = await call(http, "POST", path, body)
    assert late["id"] != first["id"]
