"""A game in a private channel is the business of those who can view that channel: a member
without access learns nothing of it from any command, suggestion or status button (no
table number, no player name), while members with access and its players get their
answers. Visibility is Discord's own: the member's roles and the channel's overwrites."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bot.service import TableSettings
from tests.bot.community.test_ratings import finish
from tests.cogs.conftest import Circus
from tests.e2e.players import custom_id, play_turn_with_the_panel, wait_for_board
from tests.fakediscord.model import Channel, Message, Role, User

GAMES = ("charioteer", "cartographers", "carcassonne")
STATUS_PREFIX = {"charioteer": "g", "cartographers": "cg", "carcassonne": "cc"}
PLAYER = "Zelda"
"""The name the private games' player plays under: nobody without access may read it."""
MISSING = 999
"""A table number that does not exist: a refusal must read exactly as for it."""


@dataclass
class Backroom:
    """A server with a public channel (a race of the owner's against an AI) and a private
    one, #backroom, that only the crew role views; in it, alice (crew) plays one table of
    each game against an AI. Carol has the crew role but no seat; bob has neither."""

    circus: Circus
    channel: Channel
    crew: Role
    carol: User
    tables: dict[str, int]
    boards: dict[str, Message]
    public: int

    @property
    def outsider(self) -> User:
        return self.circus.bob

    @property
    def player(self) -> User:
        return self.circus.alice


async def open_table(circus: Circus, game: str, channel: Channel, host: User, name: str) -> int:
    """A running table of ``game`` in ``channel``: ``host`` against an AI seat."""
    service = circus.bot.service
    table = await service.open_lobby(
        game=game,
        host_id=host.id,
        host_name=name,
        settings=TableSettings(seats=2, turn_seconds=None),
        guild_id=circus.guild.id,
        channel_id=channel.id,
        locale="en",
    )
    await service.add_ai(table.id, host.id, "random")
    await service.start(table.id, host.id)
    await circus.bot.announcer.follow_up(table.id, moved=False)
    return table.id


def board_of(channel: Channel, prefix: str, table: int) -> Message:
    """The latest message in ``channel`` with a status button of ``table``."""
    pattern = re.compile(rf"{prefix}:{table}:status:\d+")
    found = [m for m in channel.public_messages() if any(map(pattern.fullmatch, m.custom_ids()))]
    assert found, f"no board of table {table}"
    return found[-1]


def status_id(board: Message) -> str:
    [found] = [c for c in board.custom_ids() if c.split(":")[2] == "status"]
    return found


@pytest.fixture
async def backroom(circus: Circus) -> Backroom:
    guild = circus.guild
    crew = guild.add_role("crew")
    carol = guild.add_member("carol")
    for user in (circus.alice, carol):
        guild.give_role(user, crew)
    channel = guild.add_text_channel("backroom")
    channel.deny(guild.everyone, "view_channel")
    channel.allow(crew, "view_channel")
    channel.allow_bot("view_channel")
    public = await open_table(circus, "charioteer", circus.channel, guild.owner, "Owner")
    tables, boards = {}, {}
    for game in GAMES:
        tables[game] = await open_table(circus, game, channel, circus.alice, PLAYER)
        boards[game] = board_of(channel, STATUS_PREFIX[game], tables[game])
    return Backroom(circus, channel, crew, carol, tables, boards, public)


async def answer(interaction: Any) -> str:
    """Every message the asker was answered with, as one text."""
    await interaction.reply()
    return "\n".join(m.content for m in interaction.messages())


def learns_nothing(text: str, room: Backroom, *, table: int | None = None) -> None:
    """Nothing of the backroom's tables in ``text`` (but the number the asker typed)."""
    assert PLAYER.lower() not in text.lower() and room.player.mention not in text, text
    for number in room.tables.values():
        if number != table:
            assert not re.search(rf"#{number}\b", text), text


def names_the_player(text: str, room: Backroom) -> bool:
    return PLAYER in text or room.player.mention in text


Ask = Callable[[User, Channel, int], Awaitable[str]]


def slash(command: str, option: str, **options: Any) -> Ask:
    async def ask(user: User, channel: Channel, number: int) -> str:
        return await answer(await user.slash(channel, command, **{option: number}, **options))

    return ask


COMMANDS: dict[str, Ask] = {
    "game status": slash("game status", "game"),
    "game log": slash("game log", "game"),
    "game rules": slash("game rules", "game"),
    "game panel": slash("game panel", "game"),
    "game leave": slash("game leave", "game"),
    "game abandon": slash("game abandon", "game"),
}
"""Every ``/game`` command naming a table: to a member who cannot view its channel, each
reads as for a table that does not exist."""
RACE_COMMANDS: dict[str, Ask] = {
    "race status": slash("race status", "race"),
    "race log": slash("race log", "race"),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("command", sorted(COMMANDS))
async def test_a_member_who_cannot_view_the_channel_finds_no_table_of_it(
    backroom: Backroom, game: str, command: str
) -> None:
    ask, number = COMMANDS[command], backroom.tables[game]
    here = backroom.circus.channel
    refused = await ask(backroom.outsider, here, number)
    learns_nothing(refused, backroom, table=number)
    missing = await ask(backroom.outsider, here, MISSING)
    assert refused == missing.replace(str(MISSING), str(number))
    table = await backroom.circus.bot.service.table(number)
    assert table.status == "running" and table.seat_of(backroom.player.id) is not None


@pytest.mark.parametrize("command", sorted(RACE_COMMANDS))
async def test_race_status_and_log_of_a_private_race_read_as_no_race(
    backroom: Backroom, command: str
) -> None:
    """After a turn was played, so that the log has something to tell."""
    ask, number = RACE_COMMANDS[command], backroom.tables["charioteer"]
    here = backroom.circus.channel
    played = await play_turn_with_the_panel(backroom.player, backroom.boards["charioteer"])
    assert "Move confirmed" in played.content
    refused = await ask(backroom.outsider, here, number)
    learns_nothing(refused, backroom, table=number)
    assert refused == (await ask(backroom.outsider, here, MISSING)).replace(
        str(MISSING), str(number)
    )
    for reader in (backroom.carol, backroom.player):
        shown = await ask(reader, here, number)
        assert f"Race #{number}" in shown


@pytest.mark.parametrize("game", GAMES)
async def test_members_with_access_and_the_player_read_the_private_table(
    backroom: Backroom, game: str
) -> None:
    number = backroom.tables[game]
    for reader in (backroom.carol, backroom.player, backroom.circus.guild.owner):
        for where in (backroom.circus.channel, backroom.channel):
            status = await COMMANDS["game status"](reader, where, number)
            assert f"#{number}" in status and names_the_player(status, backroom), status
            board = backroom.boards[game]
            clicked = await answer(await reader.click(board, status_id(board)))
            assert f"#{number}" in clicked and names_the_player(clicked, backroom)


@pytest.mark.parametrize("game", GAMES)
async def test_a_forged_status_button_of_a_private_table_reads_as_no_table(
    backroom: Backroom, game: str
) -> None:
    """Forged from a channel the member can see, carrying the private board as its message."""
    board = backroom.boards[game]
    forged = status_id(board)
    bob, here = backroom.outsider, backroom.circus.channel
    refused = await answer(await bob.forge(here, forged, source=board))
    learns_nothing(refused, backroom, table=backroom.tables[game])
    assert "There is no" in refused


async def test_the_list_and_the_suggestions_leave_out_private_tables(backroom: Backroom) -> None:
    bob, here, public = backroom.outsider, backroom.circus.channel, backroom.public
    listed = await answer(await bob.slash(here, "game list"))
    assert f"#{public} " in listed and "(1)" in listed
    learns_nothing(listed, backroom)
    suggested = await (await bob.autocomplete(here, "game status", "game", "")).wait_choices()
    assert [choice["value"] for choice in suggested] == [public]
    for number in backroom.tables.values():
        seats = await (
            await bob.autocomplete(here, "game substitute", "seat", "", game=number)
        ).wait_choices()
        assert seats == []
    carols = await (
        await backroom.carol.autocomplete(here, "game status", "game", "")
    ).wait_choices()
    assert sorted(choice["value"] for choice in carols) == sorted(
        [public, *backroom.tables.values()]
    )
    crew_list = await answer(await backroom.carol.slash(here, "game list"))
    assert PLAYER in crew_list and "(4)" in crew_list


async def test_the_manage_server_override_sees_every_table(backroom: Backroom) -> None:
    owner, here = backroom.circus.guild.owner, backroom.circus.channel
    listed = await answer(await owner.slash(here, "game list"))
    assert "(4)" in listed and PLAYER in listed


async def test_a_seated_player_who_lost_the_view_still_plays_but_reads_nothing_else(
    backroom: Backroom,
) -> None:
    """Their own seat's panel stays theirs; the table's public face needs the view."""
    alice, here = backroom.player, backroom.circus.channel
    backroom.circus.guild.take_role(alice, backroom.crew)
    for game, number in backroom.tables.items():
        panel = await COMMANDS["game panel"](alice, here, number)
        assert "There is no" not in panel and "have a seat" not in panel, (game, panel)
        status = await COMMANDS["game status"](alice, here, number)
        assert status == f"There is no game #{number} here.", status


async def test_a_forged_join_of_a_private_lobby_is_refused(backroom: Backroom) -> None:
    """The lobby's Join, forged from a channel the member sees, its lobby message named."""
    circus, bob = backroom.circus, backroom.outsider
    lobby = await (await circus.alice.slash(backroom.channel, "race new", seats=3)).reply()
    [join] = [c for c in lobby.custom_ids() if c.split(":")[2] == "join"]
    refused = await answer(await bob.forge(circus.channel, join, source=lobby))
    learns_nothing(refused, backroom, table=int(join.split(":")[1]))
    assert "There is no race" in refused
    table = await circus.bot.service.table(int(join.split(":")[1]))
    assert table.seat_of(bob.id) is None


async def test_a_private_tournaments_standings_are_for_those_who_view_its_channel(
    backroom: Backroom,
) -> None:
    circus = backroom.circus
    await answer(
        await circus.alice.slash(backroom.channel, "tournament new", game="charioteer", name="Cup")
    )
    number = 1
    refused = await answer(
        await backroom.outsider.slash(circus.channel, "tournament standings", tournament=number)
    )
    assert refused == f"There is no tournament #{number}."
    shown = await (
        await backroom.carol.slash(backroom.channel, "tournament standings", tournament=number)
    ).reply()
    assert "Cup" in shown.content and not shown.ephemeral
    elsewhere = await (
        await backroom.carol.slash(circus.channel, "tournament standings", tournament=number)
    ).reply()
    assert "Cup" in elsewhere.content and elsewhere.ephemeral_to is backroom.carol


async def test_records_do_not_name_a_game_of_a_channel_the_reader_cannot_view(
    backroom: Backroom,
) -> None:
    circus = backroom.circus
    storage, alice = circus.bot.service.storage, circus.alice
    race = await finish(
        storage,
        [(alice.id, None, 1), (None, "greedy", 2)],
        1.0,
        guild=circus.guild.id,
        channel=backroom.channel.id,
    )
    named = f"#{race})"
    for user, where in ((backroom.outsider, circus.channel), (backroom.carol, circus.channel)):
        board = await answer(await user.slash(where, "leaderboard", game="charioteer"))
        profile = await answer(await user.slash(where, "profile", member=alice))
        for text in (board, profile):
            assert "biggest win" in text and named not in text, text
    inside = await answer(await backroom.carol.slash(backroom.channel, "profile", member=alice))
    assert named in inside


async def test_a_profile_leaves_out_the_results_of_games_the_readers_cannot_view(
    backroom: Backroom,
) -> None:
    """A result names no game, but tells who played it and how it went: the profile shows
    only those of games its readers view; the rating and its counts stay whole."""
    circus = backroom.circus
    storage, alice, guild = circus.bot.service.storage, circus.alice, circus.guild.id
    won = [(alice.id, None, 1), (None, "greedy", 2)]
    lost = [(None, "greedy", 1), (alice.id, None, 2)]
    await finish(storage, won, 1.0, guild=guild, channel=backroom.channel.id)
    await finish(storage, lost, 2.0, guild=guild, channel=circus.channel.id)
    outside = await answer(await backroom.outsider.slash(circus.channel, "profile", member=alice))
    assert "games 2" in outside and "#2 of 2" in outside and "#1 of 2" not in outside
    inside = await answer(await backroom.carol.slash(backroom.channel, "profile", member=alice))
    assert "#2 of 2" in inside and "#1 of 2" in inside


async def test_a_private_games_thread_is_seen_with_its_channel(backroom: Backroom) -> None:
    """The game's thread goes with its channel: the crew reads the game from inside it,
    and a public answer there may name what the channel's readers may view."""
    circus, carol = backroom.circus, backroom.carol
    lobby = await (await circus.alice.slash(backroom.channel, "race new", seats=2)).reply()
    await (await circus.alice.select(lobby, custom_id(lobby, "addai"), ["random"])).reply()
    await (await circus.alice.click(lobby, custom_id(lobby, "start"))).wait_ack()
    await circus.fake.wait_for(lambda: bool(circus.guild.threads()), timeout=30, what="a thread")
    [thread] = circus.guild.threads()
    await wait_for_board(circus.fake, thread, 1)
    assert thread.parent is backroom.channel and not thread.visible_to(backroom.outsider)
    status = await answer(await carol.slash(thread, "race status"))
    assert "**Race #" in status and names_the_player(status, backroom)
    race = await finish(
        circus.bot.service.storage,
        [(circus.alice.id, None, 1), (None, "greedy", 2)],
        1.0,
        guild=circus.guild.id,
        channel=backroom.channel.id,
    )
    profile = await (await carol.slash(thread, "profile", member=circus.alice)).reply()
    assert f"#{race})" in profile.content and not profile.ephemeral


async def test_a_private_tournament_is_none_of_an_outsiders_business(backroom: Backroom) -> None:
    """Bob, who cannot view #backroom, finds no tournament there by any command or forged
    Join; carol signs up, loses the view, and can still drop out."""
    circus = backroom.circus
    asked = await circus.alice.slash(
        backroom.channel, "tournament new", game="charioteer", name="Cup"
    )
    post = await asked.reply()
    join = next(c for c in post.custom_ids() if c.endswith(":join"))
    commands: list[tuple[str, dict[str, Any]]] = [
        ("tournament join", {}),
        ("tournament leave", {}),
        ("tournament start", {}),
        ("tournament pause", {}),
        ("tournament remove", {"member": circus.alice}),
    ]
    for command, options in commands:
        refused = await answer(
            await backroom.outsider.slash(circus.channel, command, tournament=1, **options)
        )
        assert refused == "There is no tournament #1.", command
    forged = await answer(await backroom.outsider.forge(circus.channel, join, source=post))
    assert "Cup" not in forged
    assert "signed up" in await answer(await backroom.carol.click(post, join))
    backroom.channel.deny(backroom.carol, "view_channel")
    refused = await answer(
        await backroom.carol.slash(circus.channel, "tournament join", tournament=1)
    )
    assert refused == "There is no tournament #1."
    dropped = await answer(
        await backroom.carol.slash(circus.channel, "tournament leave", tournament=1)
    )
    assert "Cup" in dropped
    entrants = (await circus.bot.tournament_cog.desk.load(1)).state.entrants
    assert entrants == {}
