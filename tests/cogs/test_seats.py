"""Who may take a seat of a running game, through the fake Discord (the seat policy of the
README's "Playing" section): a member who holds or has held a seat of a game never takes
another seat of it; a seat whose player is still playing changes hands only by that
player's own choice or a server admin's; a substitution withdraws the seat's unrevealed
move; and a tournament's tables have no entrant as host."""

from __future__ import annotations

from typing import Any

import pytest

from bot.clock import FakeClock
from tests.cogs.conftest import Circus
from tests.cogs.test_tournament_signup import bot_on, click, open_tournament
from tests.databases import rows
from tests.e2e.players import (
    custom_id,
    play_turn_with_the_panel,
    start_race,
    wait_for_board,
)
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

SUBSTITUTE = ["race substitute", "game substitute"]


def seats(database: str, race: int = 1) -> dict[str, int | None]:
    found = rows(database, "SELECT seat, user_id FROM seats WHERE table_id = ?", (race,))
    return {seat: user for seat, user in found}


def actions(database: str, race: int = 1) -> list[tuple[str, str, str]]:
    """(seat, kind, source) of every stored action of a race."""
    return [
        (seat, kind, source)
        for seat, kind, source in rows(
            database,
            "SELECT seat, kind, source FROM actions WHERE table_id = ? ORDER BY seq",
            (race,),
        )
    ]


async def answer(user: User, channel: Channel, command: str, **options: Any) -> str:
    reply = await (await user.slash(channel, command, **options)).reply()
    assert reply.ephemeral_to is user or not reply.ephemeral
    return reply.content


async def hand_of(user: User, board: Message) -> str:
    """The hand line of a player's panel (what nobody else may ever read)."""
    panel = await (await user.click(board, custom_id(board, "choose"))).reply()
    (line,) = [line for line in panel.content.splitlines() if line.startswith("Your hand")]
    return line


async def three_seat_race(circus: Circus) -> tuple[User, Channel, Message]:
    """Race #1: alice (host, seat A), bob (B) and carol (C), running; returns carol, the
    race's place and the board of turn 1."""
    carol = circus.guild.add_member("carol")
    _, place = await start_race(circus.fake, circus.alice, [circus.bob, carol], circus.channel)
    return carol, place, await wait_for_board(circus.fake, place, 1)


@pytest.mark.parametrize("command", SUBSTITUTE)
async def test_a_host_who_left_cannot_take_another_players_seat_and_read_its_hand(
    circus: Circus, command: str
) -> None:
    """The path a tester found: bob confirms; alice (host) leaves, substitutes herself
    into bob's seat and opens the panel, which showed bob's cards and confirmed move."""
    alice, bob = circus.alice, circus.bob
    _, place, board = await three_seat_race(circus)
    bobs_hand = await hand_of(bob, board)
    await play_turn_with_the_panel(bob, board)
    assert "left" in await answer(alice, place, "race leave", race=1)
    refused = await answer(alice, place, command, seat="B", member=alice)
    assert "seat A" in refused and "another" in refused
    hand = await answer(alice, place, "race hand", race=1)
    assert "don't have a seat" in hand
    assert all(bobs_hand not in m.content for m in alice.ephemerals())
    assert seats(circus.bot.settings.database)["B"] == bob.id
    assert ("B", "commit", "player") in actions(circus.bot.settings.database)
    assert not [a for a in actions(circus.bot.settings.database) if a[1] == "withdraw"]


async def test_a_seated_member_cannot_take_a_second_seat(circus: Circus) -> None:
    alice = circus.alice
    _, place, _ = await three_seat_race(circus)
    refused = await answer(alice, place, "game substitute", seat="C", member=alice, game=1)
    assert "already has a seat" in refused
    assert seats(circus.bot.settings.database)["A"] == alice.id


async def test_a_player_who_left_comes_back_to_their_own_seat_only(circus: Circus) -> None:
    """Bob leaves (an AI drives seat B); the host may seat him again in seat B, never in
    the AI's seat C."""
    fake, alice, bob = circus.fake, circus.alice, circus.bob
    _, place = await start_race(fake, alice, [bob], circus.channel, ai="random")
    board = await wait_for_board(fake, place, 1)
    assert "left" in await answer(bob, place, "race leave", race=1)
    assert seats(circus.bot.settings.database)["B"] is None
    refused = await answer(alice, place, "race substitute", seat="C", member=bob, race=1)
    assert "seat B" in refused and "another" in refused
    back = await answer(alice, place, "race substitute", seat="B", member=bob, race=1)
    assert "now drives seat B" in back
    assert seats(circus.bot.settings.database) == {"A": alice.id, "B": bob.id, "C": None}
    assert "Move confirmed" in (await play_turn_with_the_panel(bob, board)).content


async def test_a_playing_seat_changes_hands_only_by_its_player_or_an_admin(
    circus: Circus,
) -> None:
    """Bob has confirmed his move. The host cannot hand bob's seat to dave; bob can, and
    his unrevealed move is withdrawn (dave owes a move and never sees bob's); a server
    admin can hand carol's seat to erin."""
    fake, alice, bob = circus.fake, circus.alice, circus.bob
    dave, erin = circus.guild.add_member("dave"), circus.guild.add_member("erin")
    carol, place, board = await three_seat_race(circus)
    database = circus.bot.settings.database
    await play_turn_with_the_panel(bob, board)
    refused = await answer(alice, place, "game substitute", seat="B", member=dave, game=1)
    assert "still playing" in refused
    assert seats(database)["B"] == bob.id
    stranger = await answer(dave, place, "game substitute", seat="B", member=dave, game=1)
    assert "still playing" in stranger or "Only" in stranger
    handed = await answer(bob, place, "game substitute", seat="B", member=dave, game=1)
    assert "now plays seat B" in handed
    assert seats(database)["B"] == dave.id
    assert actions(database)[-1] == ("B", "withdraw", "substitution")
    panel = await (await dave.click(board, custom_id(board, "choose"))).reply()
    assert "Your move is in" not in panel.content and "You chose" not in panel.content
    owner = circus.guild.owner
    admin = await answer(owner, place, "game substitute", seat="C", member=erin, game=1)
    assert "now plays seat C" in admin
    assert seats(database) == {"A": alice.id, "B": dave.id, "C": erin.id}
    await play_turn_with_the_panel(alice, board)
    await play_turn_with_the_panel(erin, board)
    await play_turn_with_the_panel(dave, board)
    await wait_for_board(fake, place, 2)
    assert carol.id not in {user for _, user in rows(database, "SELECT seat, user_id FROM seats")}


async def test_the_host_may_replace_a_player_whose_time_ran_out(
    fake: FakeDiscord, database: str
) -> None:
    """Bob lets his time run out (the AI plays his turn): the host may hand his seat to
    dave; carol, who played, keeps hers."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice, bob, carol, dave = (guild.add_member(name) for name in ("alice", "bob", "c", "dave"))
    clock = FakeClock()
    async with bot_on(fake, database, clock):  # type: ignore[arg-type]
        _, place = await start_race(fake, alice, [bob, carol], channel, turn_limit="2m")
        board = await wait_for_board(fake, place, 1)
        await play_turn_with_the_panel(alice, board)
        await play_turn_with_the_panel(carol, board)
        clock.advance(121)
        await wait_for_board(fake, place, 2)
        assert ("B", "commit", "timeout") in actions(database)
        refused = await answer(alice, place, "race substitute", seat="C", member=dave, race=1)
        assert "still playing" in refused
        handed = await answer(alice, place, "race substitute", seat="B", member=dave, race=1)
        assert "now drives seat B" in handed
        assert seats(database) == {"A": alice.id, "B": dave.id, "C": carol.id}


async def test_a_tournament_table_has_no_entrant_host(fake: FakeDiscord, database: str) -> None:
    """In an elimination duel, the entrant paired first cannot abandon the game (a tie
    that would advance the higher seed), substitute a rival's seat or, once removed by the
    organiser, seat themselves again; the organiser and an admin can."""
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("tournaments")
    organiser, first, second, friend = (guild.add_member(n) for n in ("org", "p1", "p2", "pal"))
    async with bot_on(fake, database, FakeClock()):  # type: ignore[arg-type]
        post = await open_tournament(organiser, channel, format="elimination", table_size=2)
        for member in (first, second):
            assert "signed up" in await click(member, post, "join")
        started = await organiser.slash(channel, "tournament start", tournament=1)
        assert "round 1" in (await started.followup(0)).content
        game = {user for _, user in rows(database, "SELECT seat, user_id FROM seats")}
        assert game == {first.id, second.id}
        ((host,),) = rows(database, "SELECT host_id FROM game_tables WHERE id = 1")
        assert host == organiser.id
        for player, rival_seat in ((first, "B"), (second, "A")):
            abandon = await answer(player, channel, "game abandon", game=1)
            assert "Only the game's host" in abandon
            swap = await answer(
                player, channel, "game substitute", seat=rival_seat, member=friend, game=1
            )
            assert "still playing" in swap or "Only" in swap
        assert rows(database, "SELECT status FROM game_tables WHERE id = 1") == [("running",)]
        removed = await organiser.slash(channel, "tournament remove", tournament=1, member=first)
        assert "is out of Cup" in (await removed.reply()).content
        seated = {seat: user for seat, user in rows(database, "SELECT seat, user_id FROM seats")}
        back = [seat for seat, user in seated.items() if user is None]
        assert len(back) == 1
        again = await answer(first, channel, "game substitute", seat=back[0], member=first, game=1)
        assert "Only the game's host" in again
        ended = await (await organiser.slash(channel, "game abandon", game=1)).reply()
        assert "abandoned" in ended.content
