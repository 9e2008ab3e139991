"""``/settings web`` through the real discord.py against the fake Discord: a server's page
is turned on with a link and off again, and the bot keeps which channels @everyone can
view from its guild cache as they change (a channel made private leaves the list, a new
public one joins it), on both databases."""

from __future__ import annotations

from bot.web.publish import Publishing
from tests.cogs.conftest import Circus
from tests.cogs.test_community import private_answer
from tests.databases import rows


async def test_a_server_turns_its_page_on_and_off_and_the_bot_keeps_its_public_channels(
    circus: Circus,
) -> None:
    publishing = Publishing(circus.bot.service.storage)
    owner, guild = circus.guild.owner, circus.guild
    answer = await private_answer(owner, circus.channel, "settings", web="on")
    page = await publishing.page_of(guild.id)
    assert page is not None and f"/s/{page.slug}" in answer.content
    assert page.name == guild.name
    assert circus.channel.id in await publishing.public_channels(guild.id)

    def public() -> set[int]:
        found = rows(
            circus.bot.settings.database,
            "SELECT channel_id FROM public_channels WHERE guild_id = ?",
            (guild.id,),
        )
        return {int(row[0]) for row in found}

    staff = guild.add_text_channel("staff")
    await circus.fake.wait_for(lambda: staff.id in public(), what="a new channel, public")
    staff.deny(guild.everyone, "view_channel")
    await circus.fake.wait_for(lambda: staff.id not in public(), what="the channel made private")
    assert circus.channel.id in public()

    shown = await private_answer(owner, circus.channel, "settings")
    assert f"/s/{page.slug}" in shown.content
    await private_answer(owner, circus.channel, "settings", web="off")
    assert await publishing.page_of(guild.id) is None
    assert await publishing.public_channels(guild.id) == set()
    again = await private_answer(owner, circus.channel, "settings", web="on")
    new = await publishing.page_of(guild.id)
    assert new is not None and new.slug != page.slug and f"/s/{new.slug}" in again.content
