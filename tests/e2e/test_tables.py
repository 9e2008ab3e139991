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
from tests.fakediscord.model import Message, User

NOT_HERE = "There is no game #1 here."
NOT_SEATED = "You don't have a seat in this game."
UNKNOWN = "That button doesn't do anything any more."
MAP_VERBS: list[tuple[str, list[str] | None]] = [
    ("draw", None),
    ("status", None),
    ("confirm", None),
    ("rotate", None),
    ("flip", None),
    ("type", None),
    ("suggest", None),
    ("join", None),
    ("leave", None),
    ("start", None),
    ("noai", None),
    ("terrain", ["forest"]),
    ("shape", ["0"]),
    ("row", ["1"]),
    ("col", ["1"]),
    ("addai", ["random"]),
]
"""Every control of a Cartographers table, with a select's values."""


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

    not_a_race = await ask(bob, map_place, "race status", race=2)
    assert not_a_race.content == "There is no race #2."
    assert (await ask(bob, map_place, "race hand")).content == "There is no race #2."
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

    seats = await (
        await alice.autocomplete(table.channel, "game substitute", "seat", "", game=1)
    ).wait_choices()
    assert seats == [{"name": "1 · Alice", "value": "1"}, {"name": "2 · Bob", "value": "2"}]
    foreign = await (
        await dave.autocomplete(elsewhere, "game substitute", "seat", "", game=1)
    ).wait_choices()
    assert foreign == []

    peeked = await ask(dave, elsewhere, "game status", game=1)
    assert peeked.ephemeral and peeked.content == NOT_HERE
    stopped = await ask(dave, elsewhere, "game abandon", game=1)
    assert stopped.content == NOT_HERE

    post = await wait_for_map_post(fake, place, 1)
    stranger = await (await carol.click(post, custom_id(post, "draw"))).reply()
    assert stranger.ephemeral and stranger.content == NOT_SEATED
    assert "host" in (await ask(carol, place, "game abandon")).content

    before = database_actions(table.database)
    fake.add_member(other, bob)
    for verb, values in MAP_VERBS:
        prefix = "cs" if values is not None else "cg"
        for user in (dave, bob):
            for source in (None, their_lobby):
                forged = await user.forge(
                    elsewhere, f"{prefix}:1:{verb}:1", values=values, source=source
                )
                refused = await forged.reply()
                assert refused.ephemeral and refused.content in (NOT_HERE, UNKNOWN), verb
    for user, channel, refusal in ((dave, elsewhere, NOT_HERE), (carol, place, NOT_SEATED)):
        typed = await user.forge(channel, "cm:1:cell:1", fields={"cell": "A1"})
        assert (await typed.reply()).content == refusal
    assert database_actions(table.database) == before
    assert "dave" not in (await ask(alice, place, "game status")).content


async def test_no_game_command_works_in_a_direct_message(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    await ask(bob, table.channel, "game dm", enabled=True)
    _, place = await start_game(fake, alice, [bob], table.channel)
    await fake.wait_for(lambda: bool(bob.dms()), timeout=30, what="bob's turn notice")
    dm = bob.dms()[0].channel
    before = database_actions(table.database)
    for command in ("game status", "game log", "game panel", "game leave", "game abandon"):
        refused = await (await bob.forge_slash(dm, command, game=1)).reply()
        assert "only in a server" in refused.content, command
    for forged_id, values in (
        ("cg:1:status:1", None),
        ("cg:1:start:0", None),
        ("cs:1:addai:0", ["random"]),
    ):
        refused = await (await bob.forge(dm, forged_id, values=values)).reply()
        assert refused.content in (
            "Games are played only in a server: use these commands in one of its channels.",
            UNKNOWN,
        ), forged_id
    carols = fake.open_dm_channel(carol)
    late = await (await carol.forge(carols, "cm:1:cell:1", fields={"cell": "A1"})).reply()
    assert late.content == NOT_SEATED
    assert database_actions(table.database) == before
    assert posts(place)
