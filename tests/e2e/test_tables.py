"""The shared ``/game …`` commands on both games, and who may act on a table: strangers,
members of another server and forged controls are refused, and autocomplete lists only
this server's tables."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Table
from tests.e2e.mapmakers import draw_proposed, open_panel, post_turn, posts, start_game
from tests.e2e.mapmakers import wait_for_post as wait_for_map_post
from tests.e2e.players import custom_id, database_actions, start_race
from tests.fakediscord.harness import BotProcess
from tests.fakediscord.interactions import MESSAGE_COMPONENT, MODAL_SUBMIT
from tests.fakediscord.model import Message, User


async def ask(user: User, channel: Any, command: str, **options: Any) -> Message:
    return await (await user.slash(channel, command, **options)).reply(timeout=30)


async def test_the_shared_commands_work_for_races_and_cartographers(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    _, race_place = await start_race(fake, alice, [bob], table.channel)
    _, map_place = await start_game(fake, alice, [bob], table.channel)

    listed = await ask(alice, table.channel, "game list")
    assert listed.ephemeral
    assert "#1 Charioteer · Alice, Bob · turn 1" in listed.content
    assert "#2 Cartographers · Alice, Bob · turn 1" in listed.content

    race_status = await ask(bob, table.channel, "game status", game=1)
    assert "Race #1" in race_status.content
    map_status = await ask(bob, map_place, "game status")
    assert "Cartographers #2" in map_status.content and "stars" in map_status.content

    assert "Charioteer in one card" in (await ask(bob, race_place, "game rules")).content
    assert "Cartographers in one card" in (await ask(bob, map_place, "game rules")).content

    race_panel = await ask(alice, race_place, "game panel")
    assert race_panel.ephemeral and any(i.startswith("g:1:") for i in race_panel.custom_ids())
    map_panel = await ask(alice, table.channel, "game panel", game=2)
    assert map_panel.ephemeral and map_panel.attachments
    assert any(i.startswith("cg:2:confirm:") for i in map_panel.custom_ids())

    post = await wait_for_map_post(fake, map_place, 1)
    await draw_proposed(alice, post)
    await draw_proposed(bob, post)
    await fake.wait_for(lambda: any(post_turn(m) > 1 for m in posts(map_place)), timeout=30)
    log = await (await bob.slash(map_place, "game log")).followup(timeout=30)
    assert "turn 1 resolved" in log.content
    race_log = await (await bob.slash(race_place, "game log")).followup(timeout=30)
    assert race_log.ephemeral

    left = await ask(bob, map_place, "game leave")
    assert "You left game #2" in left.content
    turn = max(post_turn(m) for m in posts(map_place))
    await draw_proposed(alice, await wait_for_map_post(fake, map_place, turn))
    await fake.wait_for(
        lambda: any(post_turn(m) > turn for m in posts(map_place)),
        timeout=30,
        what="the AI seat drawing for bob",
    )

    subbed = await ask(alice, map_place, "game substitute", seat="2", member=carol)
    assert carol.mention in subbed.content and not subbed.ephemeral
    carol_panel = await open_panel(carol, posts(map_place)[-1])
    assert "your drawing" in carol_panel.content

    refused = await ask(bob, race_place, "game abandon")
    assert refused.ephemeral and "host" in refused.content
    abandoned = await ask(alice, race_place, "game abandon")
    assert "Game #1 was abandoned" in abandoned.content
    listed = await ask(alice, table.channel, "game list")
    assert "#1 " not in listed.content and "#2 Cartographers" in listed.content


async def test_a_table_belongs_to_its_server(table: Table, started_bot: BotProcess) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    other = fake.add_guild("Elsewhere")
    dave = other.add_member("dave")
    elsewhere = other.add_text_channel("maps")
    _, place = await start_game(fake, alice, [bob], table.channel)
    their_lobby = await (
        await dave.slash(elsewhere, "cartographers new", seats=2, turn_limit="none")
    ).reply()
    assert "Cartographers #2" in their_lobby.content

    here = await (await alice.autocomplete(table.channel, "game status", "game", "")).wait_choices()
    there = await (await dave.autocomplete(elsewhere, "game status", "game", "")).wait_choices()
    assert [c["value"] for c in here] == [1] and [c["value"] for c in there] == [2]
    assert here[0]["name"] == "#1 Cartographers · Alice, Bob · turn 1"
    typed = await (
        await alice.autocomplete(table.channel, "game log", "game", "char")
    ).wait_choices()
    assert typed == []

    peeked = await ask(dave, elsewhere, "game status", game=1)
    assert peeked.ephemeral and "There is no game #1" in peeked.content
    stopped = await ask(dave, elsewhere, "game abandon", game=1)
    assert "There is no game #1" in stopped.content

    post = await wait_for_map_post(fake, place, 1)
    stranger = await (await carol.click(post, custom_id(post, "draw"))).reply()
    assert stranger.ephemeral and "don't have a seat in this game" in stranger.content
    assert "host" in (await ask(carol, place, "game abandon")).content

    before = database_actions(table.database)
    for forged in ("cg:1:confirm:1", "cg:1:join:0", "cg:1:start:0", "cs:1:addai:0"):
        data: dict[str, Any] = {"custom_id": forged, "component_type": 2}
        if forged.startswith("cs:"):
            data.update(component_type=3, values=["random"])
        click = fake.interactions._create(
            MESSAGE_COMPONENT, dave, elsewhere, data, source=their_lobby
        )
        answer = await click.reply()
        assert answer.ephemeral and "doesn't do anything" in answer.content, forged
    cell = {"type": 1, "components": [{"type": 4, "custom_id": "cell", "value": "A1"}]}
    for user, channel, refusal in (
        (dave, elsewhere, "There is no game #1"),
        (carol, place, "don't have a seat in this game"),
    ):
        form = {"custom_id": "cm:1:cell:1", "components": [cell]}
        typed = fake.interactions._create(MODAL_SUBMIT, user, channel, form)
        answer = await typed.reply()
        assert answer.ephemeral and refusal in answer.content
    assert database_actions(table.database) == before
    assert "dave" not in (await ask(alice, place, "game status")).content
