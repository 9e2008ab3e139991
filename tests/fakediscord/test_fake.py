"""The fake Discord against the real discord.py: the sample bot's features and Discord's rules."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from .conftest import World
from .harness import pointed_at, run_bot
from .interactions import ClientRefused
from .sample_bot import SampleBot
from .server import FakeDiscord

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
MESSAGES = "/channels/{channel_id}/messages"


async def test_slash_command_posts_a_board_whose_dynamic_button_updates_it(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    asked = await world.alice.slash(world.channel, "demo new", seats=3)
    board = await asked.reply()
    assert board.content.endswith("with 3 seats")
    assert not board.ephemeral
    race = board.custom_ids()[0].split(":")[1]
    assert board.custom_ids() == [f"g:{race}:join:0", f"g:{race}:hand:0"]

    clicked = await world.bob.click(board, label="Join")
    assert await clicked.wait_ack() == 7
    updated = await clicked.reply()
    assert updated is board
    assert board.content == f"Race {race}: bob joined (seq 1)"
    assert board.custom_ids() == [f"g:{race}:join:1", f"g:{race}:hand:1"]
    assert board.edit_count == 1
    assert [m.content for m in world.bob.visible_messages(world.channel)] == [board.content]
    assert len(fake.requests_for("POST", CALLBACK)) == 2


async def test_ephemeral_panel_is_visible_only_to_its_user(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    board = await (await world.alice.slash(world.channel, "demo new", seats=2)).reply()
    panel = await (await world.alice.click(board, label="My hand")).reply()

    assert panel.ephemeral and panel.ephemeral_to is world.alice
    assert world.alice.ephemerals() == [panel]
    assert world.bob.ephemerals() == []
    assert panel in world.alice.visible_messages(world.channel)
    assert panel not in world.bob.visible_messages(world.channel)
    assert fake.public_messages(world.channel) == [board]
    with pytest.raises(ClientRefused):
        await world.bob.select(panel, panel.custom_ids()[0], ["whip"])


async def test_select_defers_the_update_then_edits_the_panel(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    board = await (await world.alice.slash(world.channel, "demo new", seats=2)).reply()
    panel = await (await world.alice.click(board, label="My hand")).reply()
    menu = panel.custom_ids()[0]

    with pytest.raises(ClientRefused):
        await world.alice.select(panel, menu, ["teleport"])
    picked = await world.alice.select(panel, menu, ["whip"])
    assert await picked.wait_ack() == 6
    assert await picked.reply() is panel
    assert panel.content == "You chose whip"
    assert panel.components == []
    assert panel.ephemeral_to is world.alice


async def test_deferred_reply_is_completed_by_editing_the_original(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    asked = await world.alice.slash(world.channel, "demo slow")
    reply = await asked.reply()
    assert asked.response_type == 5
    assert reply.content == "Done thinking"
    assert not reply.loading
    assert fake.requests_for("PATCH", "/webhooks/{id}/{token}/messages/@original")


async def test_follow_up_can_be_ephemeral_while_the_reply_is_public(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    asked = await world.alice.slash(world.channel, "demo followup")
    first = await asked.reply()
    second = await asked.followup(0)
    assert (first.content, first.ephemeral) == ("First", False)
    assert (second.content, second.ephemeral_to) == ("Second, just for you", world.alice)
    assert second.interaction is asked
    assert [m.content for m in world.bob.visible_messages(world.channel)] == ["First"]


async def test_modal_opens_and_its_submission_reaches_the_bot(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    opened = await world.alice.slash(world.channel, "demo modal")
    modal = await opened.wait_modal()
    assert modal["title"] == "Name your chariot"

    with pytest.raises(ClientRefused):
        await world.bob.submit_modal(opened, {"name": "Bolt"})
    with pytest.raises(ClientRefused):
        await world.alice.submit_modal(opened, {"name": "x" * 21})
    fields = {c["components"][0]["label"]: c["components"][0] for c in modal["components"]}
    submitted = await world.alice.submit_modal(
        opened, {fields["Name"]["custom_id"]: "Bolt", fields["Motto"]["custom_id"]: "Fast"}
    )
    reply = await submitted.reply()
    assert reply.content == "Chariot 'Bolt' (Fast)"
    assert reply.ephemeral_to is world.alice
    with pytest.raises(ClientRefused):
        await world.alice.submit_modal(opened, {})


async def test_thread_started_on_the_reply_holds_the_bots_message(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    asked = await world.alice.slash(world.channel, "demo thread")
    board = await asked.reply()
    await fake.wait_for(lambda: board.thread is not None and board.thread.messages)
    thread = board.thread
    assert thread is not None and thread.id == board.id
    assert thread.name == "race-chat" and thread.parent is world.channel
    assert [m.content for m in world.bob.visible_messages(thread)] == ["Talk here"]
    assert bot.get_channel(thread.id) is not None


async def test_direct_message_to_a_user_with_closed_dms_gets_50007(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    world.bob.close_dms()
    asked = await world.alice.slash(world.channel, "demo dm", user=world.bob)
    reply = await asked.reply()
    assert reply.content == "Could not DM bob" and reply.ephemeral_to is world.alice
    assert bot.outcomes == [("dm", 50007)]
    assert world.bob.dms() == []

    world.bob.open_dms()
    asked = await world.alice.slash(world.channel, "demo dm", user=world.bob)
    assert (await asked.reply()).content == "Sent a DM to bob"
    assert [m.content for m in world.bob.dms()] == ["Your turn"]
    assert world.alice.dms() == []


async def test_png_attachment_is_stored_served_and_the_message_edited(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    asked = await world.alice.slash(world.channel, "demo post")
    assert (await asked.reply()).content == "Posted"
    [post] = fake.public_messages(world.channel)
    assert post.content == "The track (turn 1)" and post.edit_count == 1
    assert post.revisions[0]["content"] == "The track"
    [attachment] = post.attachments
    assert attachment.filename == "track.png"
    assert attachment.image_size() == (40, 20)
    url = attachment.payload(fake, world.channel.id)["url"]
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert await response.read() == attachment.data


async def test_interaction_response_can_carry_a_png(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    reply = await (await world.alice.slash(world.channel, "demo picture")).reply()
    [attachment] = reply.attachments
    assert (attachment.filename, attachment.image_size()) == ("board.png", (64, 32))


async def test_channel_without_the_bots_permission_answers_50013(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    world.channel.deny_bot("attach_files")
    asked = await world.alice.slash(world.channel, "demo post")
    assert (await asked.reply()).content == "Could not post: 50013"
    assert bot.outcomes == [("post", 50013)]
    assert fake.public_messages(world.channel) == []


async def test_content_over_2000_characters_is_refused_and_reported(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    await (await world.alice.slash(world.channel, "demo long")).reply()
    assert bot.outcomes == [("long", 50035)]
    [violation] = fake.take_violations()
    assert "content" in violation.message and "2000" in violation.message
    assert fake.public_messages(world.channel) == []


async def test_a_second_initial_response_is_an_error(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    asked = await world.alice.slash(world.channel, "demo twice")
    assert (await asked.reply()).content == "One"
    await fake.wait_for(lambda: bot.outcomes)
    assert bot.outcomes == [("twice", 40060)]
    [violation] = fake.take_violations()
    assert "second initial response" in violation.message
    assert [m.content for m in fake.public_messages(world.channel)] == ["One"]


async def test_an_unanswered_interaction_fails_after_the_deadline(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    asked = await world.alice.slash(world.channel, "demo silent")
    fake.clock.advance(fake.interaction_deadline + 0.01)
    await asked.wait_failed()
    assert [n.text for n in world.alice.failures()] == ["This interaction failed"]
    assert world.bob.failures() == []

    bot.release_silent.set()
    await fake.wait_for(lambda: bot.outcomes)
    assert bot.outcomes == [("silent", 10062)]
    kinds = [v.message for v in fake.take_violations()]
    assert len(kinds) == 2
    assert "not answered within 3 s" in kinds[0]
    assert "answered after" in kinds[1]


async def test_a_scripted_429_is_retried_and_the_message_posted_once(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    fake.script_rate_limit("POST", "/channels/{id}/messages", times=1, retry_after=0.05)
    asked = await world.alice.slash(world.channel, "demo post")
    assert (await asked.reply()).content == "Posted"
    assert [r.status for r in fake.requests_for("POST", MESSAGES)] == [429, 200]
    assert len(fake.public_messages(world.channel)) == 1


async def test_a_body_that_breaks_discords_schema_is_a_violation(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    await (await world.alice.slash(world.channel, "demo invalid")).reply()
    assert bot.outcomes == [("invalid", 50035)]
    [violation] = fake.take_violations()
    assert violation.message.startswith("schema: embeds")
    assert violation.path == f"/channels/{world.channel.id}/messages"


async def test_the_bot_resumes_after_its_gateway_connection_drops(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    [session] = fake.gateway.live_sessions()
    await fake.drop_gateway()
    asked = await world.alice.slash(world.channel, "demo panel")
    assert (await asked.reply()).content == "Only you can see this"
    assert session.resumes == 1 and fake.gateway.identify_count == 1


async def test_the_client_refuses_what_a_person_cannot_do(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    with pytest.raises(ClientRefused, match="within"):
        await world.alice.slash(world.channel, "demo new", seats=9)
    with pytest.raises(ClientRefused, match="requires option"):
        await world.alice.slash(world.channel, "demo new")
    with pytest.raises(ClientRefused, match="no subcommand"):
        await world.alice.slash(world.channel, "demo fly")
    with pytest.raises(ClientRefused, match="no slash command"):
        await world.alice.slash(world.channel, "race new")
    outsider = fake.add_user("carol")
    with pytest.raises(ClientRefused, match="not a member"):
        await outsider.slash(world.channel, "demo panel")
    board = await (await world.alice.slash(world.channel, "demo new", seats=2)).reply()
    with pytest.raises(LookupError):
        await world.alice.click(board, "g:0:join:0")


async def test_privileged_intents_must_be_enabled_for_the_application(
    fake: FakeDiscord, world: World
) -> None:
    intents = discord.Intents.default()
    intents.members = True
    with pointed_at(fake):
        client = discord.Client(intents=intents)
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await client.start(fake.token)
        await client.close()


async def test_a_wrong_token_cannot_log_in(fake: FakeDiscord, world: World) -> None:
    with pointed_at(fake):
        client = discord.Client(intents=discord.Intents.default())
        with pytest.raises(discord.LoginFailure):
            await client.start("not-the-token")
        await client.close()


async def test_a_bot_runs_as_a_subprocess_through_the_launcher(
    fake: FakeDiscord, world: World
) -> None:
    async with run_bot(fake, "tests.fakediscord.sample_bot") as process:
        await fake.wait_for_command("demo", timeout=20)
        await fake.wait_until_ready(timeout=20)
        asked = await world.alice.slash(world.channel, "demo followup")
        assert (await asked.reply(timeout=10)).content == "First"
        assert (await asked.followup(0)).ephemeral_to is world.alice
        assert process.running


async def test_a_board_keeps_working_after_the_bot_process_restarts(
    fake: FakeDiscord, world: World
) -> None:
    async with run_bot(fake, "tests.fakediscord.sample_bot"):
        await fake.wait_for_command("demo", timeout=20)
        await fake.wait_until_ready(timeout=20)
        board = await (await world.alice.slash(world.channel, "demo new", seats=2)).reply()
    async with run_bot(fake, "tests.fakediscord.sample_bot"):
        await fake.wait_for(lambda: fake.gateway.identify_count == 2, timeout=20)
        await fake.wait_until_ready(timeout=20)
        clicked = await world.bob.click(board, label="Join")
        assert (await clicked.reply(timeout=10)).content.endswith("bob joined (seq 1)")


async def test_a_server_only_command_is_not_offered_in_a_dm(fake: FakeDiscord) -> None:
    """Discord reads ``contexts`` (and the older ``dm_permission``) on the top-level command
    only; a DM never offers a command limited to servers, but a modified client can still
    send one."""
    alice = fake.add_user("alice")
    dm = fake.open_dm_channel(alice)
    sub = {"type": 1, "name": "new", "description": "open one"}
    fake.set_commands(
        None,
        [
            {"name": "game", "description": "games", "contexts": [0], "options": [sub]},
            {"name": "old", "description": "games", "dm_permission": False, "options": [sub]},
        ],
    )
    for name in ("game new", "old new"):
        with pytest.raises(ClientRefused, match="not offered"):
            await alice.slash(dm, name)
    forged = await alice.forge_slash(dm, "game new")
    assert forged.guild is None and forged.data["options"][0]["name"] == "new"
    assert forged.payload()["context"] == 1 and "guild_id" not in forged.payload()
    forged.failed = True  # nobody answers here: not a violation of this test's bot


async def test_injected_5xx_fail_the_next_calls_and_change_nothing(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.inject_faults("POST", MESSAGES, times=2, skip=1)
    await channel.send("first")
    for _ in range(2):
        with pytest.raises(discord.DiscordServerError) as raised:
            await channel.send("lost")
        assert raised.value.status == 503
    await channel.send("second")
    assert [m.content for m in fake.public_messages(world.channel)] == ["first", "second"]
    assert [r.status for r in fake.requests_for("POST", MESSAGES)] == [200, 503, 503, 200]


@pytest.mark.parametrize("kind", ["timeout", "drop"])
async def test_a_dropped_or_timed_out_call_is_no_http_error_and_posts_nothing(
    fake: FakeDiscord, world: World, bot: SampleBot, kind: str
) -> None:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.inject_faults("POST", MESSAGES, kind=kind, hold=0.01)
    with pytest.raises(aiohttp.ClientError):
        await channel.send("lost")
    assert fake.public_messages(world.channel) == []
    assert len(fake.rest.faults_served) == 1
    await channel.send("then posted")
    assert [m.content for m in fake.public_messages(world.channel)] == ["then posted"]


async def test_random_faults_hit_only_the_routes_asked_for(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    from .rest import RandomFaults

    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.random_faults(RandomFaults(rate=1.0, routes=("/channels/",)))
    with pytest.raises(discord.DiscordServerError):
        await channel.send("lost")
    assert (await bot.fetch_user(world.alice.id)).id == world.alice.id
    fake.random_faults(None)
    await channel.send("posted")
    assert [m.content for m in fake.public_messages(world.channel)] == ["posted"]


async def test_a_quiet_thread_archives_itself_and_refuses_edits_until_reopened(
    fake: FakeDiscord, world: World, bot: SampleBot
) -> None:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(
        name="race", type=discord.ChannelType.public_thread, auto_archive_duration=60
    )
    message = await thread.send("board")
    fake.clock.advance(59 * 60)
    assert not fake.channels[thread.id].archived
    fake.clock.advance(2 * 60)
    assert fake.channels[thread.id].archived
    await fake.wait_for(  # discord.py drops an archived thread from its cache
        lambda: bot.get_channel(thread.id) is None, timeout=5, what="the THREAD_UPDATE"
    )
    with pytest.raises(discord.HTTPException) as raised:
        await message.edit(content="edited")
    assert raised.value.code == 50083
    await thread.edit(archived=False)
    await message.edit(content="edited")
    assert fake.messages[message.id].content == "edited"
    fake.clock.advance(61 * 60)
    await thread.send("a post reopens it")
    assert not fake.channels[thread.id].archived
