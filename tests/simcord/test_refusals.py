"""Refusals on SimCord: whoever may not act gets a clear private answer, and nothing of
the race changes."""

from __future__ import annotations

from simcord import Env

from bot.games.base import ServiceError
from tests.simcord.players import open_panel, play_by_modal, service_of
from tests.simcord.test_race import current_board, new_table, race_thread


def refusals(env: Env) -> list[str]:
    """The message keys of the refusals the bot answered since the last look (SimCord
    records every error the bot handled; reading them says the test expected them)."""
    keys = []
    for error in env.errors:
        while not isinstance(error, ServiceError) and error.__cause__ is not None:
            error = error.__cause__
        assert isinstance(error, ServiceError), repr(error)
        keys.append(error.key)
    return keys


async def started_race(env: Env):  # type: ignore[no-untyped-def]
    guild, channel, alice, bob = new_table(env)
    carol = guild.add_member(env.create_user("carol"))
    lobby = (await alice.slash(channel, "race new", seats=2, laps=1)).response
    assert lobby is not None
    await bob.click(lobby, label="Join")
    return channel, lobby, alice, bob, carol


async def test_only_the_host_starts_the_race(simcord_env: Env) -> None:
    channel, lobby, _, bob, _ = await started_race(simcord_env)
    refused = await bob.click(lobby, label="Start")
    assert refused.ephemeral
    assert refused.response is not None
    assert refused.response.content == "Only the race's host can do that."
    assert channel.threads == []
    assert (await service_of(simcord_env).table(1)).status == "lobby"


async def test_a_member_without_a_seat_gets_no_panel(simcord_env: Env) -> None:
    env = simcord_env
    channel, lobby, alice, _, carol = await started_race(env)
    await alice.click(lobby, label="Start")
    board = current_board(race_thread(channel))
    for refused in (
        await carol.click(board, label="Choose move"),
        await carol.slash(channel, "race hand", race=1),
    ):
        assert refused.ephemeral
        assert refused.response is not None
        assert refused.response.content == "You don't have a seat in this race."
        assert "Your hand" not in refused.response.content
    assert refusals(env) == ["error.not_seated"]  # SimCord sees a slash command's alone


async def test_an_illegal_typed_move_is_refused_and_nothing_is_stored(simcord_env: Env) -> None:
    env = simcord_env
    channel, lobby, alice, _, _ = await started_race(env)
    await alice.click(lobby, label="Start")
    board = current_board(race_thread(channel))
    actions_before = await service_of(env).storage.action_count(1)
    for text, answer in (("R9 1", "R9 is not a symbol."), ("fly", "")):
        refused = await play_by_modal(env, 1, alice, board, text)
        assert refused.ephemeral
        assert refused.response is not None
        assert refused.response.content
        assert not refused.response.content.startswith("Move confirmed")
        assert refused.response.content.startswith(answer)
    assert await service_of(env).storage.action_count(1) == actions_before
    assert alice.mention in current_board(race_thread(channel)).content


async def test_a_board_of_an_earlier_turn_and_an_abandoned_race_are_refused(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, lobby, alice, bob, _ = await started_race(env)
    await alice.click(lobby, label="Start")
    thread = race_thread(channel)
    first = current_board(thread)
    kept_open = (await open_panel(alice, first)).response
    assert kept_open is not None
    await play_by_modal(env, 1, alice, first)
    await play_by_modal(env, 1, bob, first)
    assert current_board(thread).id != first.id
    retired = next(m for m in thread.history() if m.id == first.id)
    assert "Choose move" not in str(retired.components) and "Status" in str(retired.components)

    stale = await alice.click(kept_open, label="Clear")
    assert stale.response is not None
    assert stale.response.content.startswith("That's from an earlier turn")

    panel = (await open_panel(alice, current_board(thread))).response
    await alice.slash(channel, "race abandon", race=1)
    assert panel is not None
    over = await alice.click(panel, label="Type move")
    assert over.response is not None and over.modal is None
    assert over.response.content == "This race is over."
