"""A race belongs to its server: another server's owner, a member without a seat and a
player of another race can neither read nor change it, by command, button, select or form
(custom_ids forged included); from a direct message only a seated player's own move goes
through, by the buttons the bot sent there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.databases import rows
from tests.e2e.conftest import Table
from tests.e2e.players import (
    custom_id,
    database_actions,
    play_turn_with_the_panel,
    start_race,
    wait_for_board,
)
from tests.fakediscord.harness import BotProcess
from tests.fakediscord.interactions import ClientRefused
from tests.fakediscord.model import Channel, Message, User

NOT_HERE = "There is no race #1."
SERVER_ONLY = "only in a server"
UNKNOWN_BUTTON = "That button doesn't do anything any more."
PANEL_VERBS = [("s", "cards", ["0"]), ("s", "symbol", ["reset"]), ("s", "token", ["0"])]
PANEL_VERBS += [("s", "discard", ["0"]), ("g", "crowd", None), ("g", "clear", None)]
PANEL_VERBS += [("g", "confirm", None), ("g", "type", None), ("g", "choose", None)]
PANEL_VERBS += [("g", "status", None)]
LOBBY_VERBS = [("g", "join", None), ("g", "leave", None), ("g", "start", None)]
LOBBY_VERBS += [("g", "noai", None), ("s", "addai", ["random"])]


@dataclass
class Elsewhere:
    """A second server with its own owner, channel and race (race #2, owner + an AI)."""

    owner: User
    channel: Channel
    board: Message


def race_state(table: Table, race: int = 1) -> list[Any]:
    """Race #1's row, seats and actions as stored."""
    return [
        rows(table.database, query, (race,))
        for query in (
            "SELECT status, host_id, guild_id FROM game_tables WHERE id = ?",
            "SELECT seat, user_id FROM seats WHERE table_id = ? ORDER BY seat",
            "SELECT seq, seat, source FROM actions WHERE table_id = ? ORDER BY seq",
        )
    ]


@pytest.fixture
async def race_one(table: Table, started_bot: BotProcess) -> Channel:
    """Race #1 in the table's server: alice (host) and bob, running."""
    _, place = await start_race(table.fake, table.alice, [table.bob], table.channel)
    await wait_for_board(table.fake, place, 1)
    return place


@pytest.fixture
async def elsewhere(table: Table, race_one: Channel) -> Elsewhere:
    guild = table.fake.add_guild("Elsewhere")
    channel = guild.add_text_channel("games")
    _, place = await start_race(table.fake, guild.owner, [], channel, ai="random")
    return Elsewhere(guild.owner, channel, await wait_for_board(table.fake, place, 1))


async def answer(interaction: Any) -> Message:
    message: Message = await interaction.reply()
    assert message.ephemeral_to is interaction.user, message
    return message


COMMANDS: list[tuple[str, dict[str, Any]]] = [
    ("race hand", {}),
    ("race status", {}),
    ("race log", {}),
    ("race leave", {}),
    ("race abandon", {}),
    ("race substitute", {"seat": "B"}),
]


@pytest.mark.parametrize(("command", "options"), COMMANDS, ids=[c for c, _ in COMMANDS])
async def test_another_servers_owner_finds_no_race_by_any_command(
    table: Table, elsewhere: Elsewhere, command: str, options: dict[str, Any]
) -> None:
    before = race_state(table)
    owner = elsewhere.owner
    if command == "race substitute":
        options = {**options, "member": owner}
    refused = await answer(await owner.slash(elsewhere.channel, command, race=1, **options))
    assert refused.content == NOT_HERE
    assert race_state(table) == before


async def test_the_manage_server_override_holds_only_in_its_own_server(
    table: Table, elsewhere: Elsewhere
) -> None:
    fake = table.fake
    owner_here = table.guild.owner
    abandon = await answer(await elsewhere.owner.slash(elsewhere.channel, "race abandon", race=1))
    assert abandon.content == NOT_HERE
    ended = await (await owner_here.slash(table.channel, "race abandon", race=1)).reply()
    assert "abandoned" in ended.content and not ended.ephemeral
    assert fake.public_messages(elsewhere.channel)
    assert race_state(table)[0][0][0] == "abandoned"
    assert race_state(table, 2)[0][0][0] == "running"  # the other server's race goes on


async def test_a_member_without_a_seat_reads_but_cannot_act(
    table: Table, race_one: Channel
) -> None:
    carol = table.carol
    before = race_state(table)
    hand = await answer(await carol.slash(table.channel, "race hand", race=1))
    assert "don't have a seat" in hand.content
    leave = await answer(await carol.slash(table.channel, "race leave", race=1))
    assert "don't have a seat" in leave.content
    abandon = await answer(await carol.slash(table.channel, "race abandon", race=1))
    assert "Only the race's host" in abandon.content
    substitute = await answer(
        await carol.slash(table.channel, "race substitute", seat="B", member=carol, race=1)
    )
    assert "Only the race's host" in substitute.content
    status = await answer(await carol.slash(table.channel, "race status", race=1))
    assert "Race #1" in status.content and "Your hand" not in status.content
    assert race_state(table) == before


async def test_a_player_of_another_race_gets_no_grip_on_this_one(
    table: Table, elsewhere: Elsewhere
) -> None:
    """The other server's owner sits in race #2 (there) and a member here sits in race #3
    (here): neither reaches race #1, and each still reaches their own race."""
    fake, carol, owner = table.fake, table.carol, elsewhere.owner
    await start_race(fake, carol, [], table.channel, ai="random")
    before = race_state(table)
    for command, options in COMMANDS:
        if command == "race substitute":
            options = {**options, "member": owner}
        refused = await answer(await owner.slash(elsewhere.channel, command, race=1, **options))
        assert refused.content == NOT_HERE, command
    hand = await answer(await carol.slash(table.channel, "race hand", race=1))
    assert "don't have a seat" in hand.content
    theirs = await answer(await owner.slash(elsewhere.channel, "race hand", race=2))
    assert "Your hand" in theirs.content
    across = await answer(await carol.slash(table.channel, "race hand", race=2))
    assert across.content == "There is no race #2."
    assert race_state(table) == before


async def test_forged_components_from_another_server_change_nothing(
    table: Table, elsewhere: Elsewhere
) -> None:
    """The other server's owner, and bob (seated in race #1, a member there too), send
    every control of race #1 from the other server, bare or on that server's board."""
    table.fake.add_member(elsewhere.channel.guild, table.bob)  # type: ignore[arg-type]
    before = race_state(table)
    for prefix, verb, values in PANEL_VERBS + LOBBY_VERBS:
        for user in (elsewhere.owner, table.bob):
            for source in (None, elsewhere.board):
                forged = await user.forge(
                    elsewhere.channel, f"{prefix}:1:{verb}:1", values=values, source=source
                )
                refused = await answer(forged)
                assert "Your hand" not in refused.content, verb
                assert refused.content in (NOT_HERE, UNKNOWN_BUTTON), verb
    assert race_state(table) == before


async def test_a_forged_move_form_from_another_server_is_refused(
    table: Table, elsewhere: Elsewhere
) -> None:
    table.fake.add_member(elsewhere.channel.guild, table.bob)  # type: ignore[arg-type]
    before = race_state(table)
    for user in (elsewhere.owner, table.bob):
        forged = await user.forge(elsewhere.channel, "m:1:move:1", fields={"move": "reset 1"})
        refused = await answer(forged)
        assert refused.content == NOT_HERE
    assert race_state(table) == before


async def test_no_race_command_works_in_a_direct_message(table: Table, race_one: Channel) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    dm = fake.open_dm_channel(alice)
    with pytest.raises(ClientRefused, match="not offered"):
        await alice.slash(dm, "race new")
    before = race_state(table)
    for command, options in [*COMMANDS, ("race rules", {}), ("race new", {})]:
        if command == "race substitute":
            options = {**options, "member": bob}
        if command not in ("race rules", "race new"):
            options = {**options, "race": 1}
        refused = await answer(await alice.forge_slash(dm, command, **options))
        assert SERVER_ONLY in refused.content, command
    assert race_state(table) == before
    assert race_state(table, 2) == [[], [], []]  # no lobby opened from the DM


async def test_a_dm_button_plays_for_its_seated_player_and_nothing_else_passes(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    await answer(await bob.slash(table.channel, "race dm", enabled=True))
    _, place = await start_race(fake, alice, [bob], table.channel)
    await wait_for_board(fake, place, 1)
    await fake.wait_for(lambda: bool(bob.dms()), timeout=10, what="bob's DM")
    notice = bob.dms()[-1]
    dm = notice.channel
    before = race_state(table)
    forged = [
        ("g:1:status:1", None, None),
        ("g:1:start:0", None, None),
        ("s:1:addai:0", ["random"], None),
        ("g:1:choose:1", None, None),
    ]
    for forged_id, values, source in forged:
        refused = await answer(await bob.forge(dm, forged_id, values=values, source=source))
        assert "Your hand" not in refused.content, forged_id
    carols = fake.open_dm_channel(carol)
    late = await answer(await carol.forge(carols, "m:1:move:1", fields={"move": "reset 1"}))
    assert "don't have a seat" in late.content
    assert race_state(table) == before

    confirmed = await play_turn_with_the_panel(bob, notice)
    assert "Move confirmed" in confirmed.content
    assert confirmed.channel is dm and confirmed.ephemeral_to is bob
    assert [seat for seat, _, _ in database_actions(table.database)] == ["B"]
    assert custom_id(notice, "choose") == "g:1:choose:1"
