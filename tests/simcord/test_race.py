"""A second judge of what Discord does: whole races on SimCord, which runs discord.py's own
parsers, views and modals against a simulated Discord (see README.md here for what it does
not model)."""

from __future__ import annotations

import discord
from simcord import ChannelHandle, Env, GuildHandle, MemberActor

from tests.simcord.players import play_by_modal, play_by_panel, service_of

MAX_TURNS = 60
"""A one-lap race ends far sooner; the bound only turns a stalled race into a failure."""


def new_table(env: Env) -> tuple[GuildHandle, ChannelHandle, MemberActor, MemberActor]:
    guild = env.create_guild(name="Circus")
    channel = guild.create_text_channel("races")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    return guild, channel, alice, bob


def race_thread(channel: ChannelHandle) -> ChannelHandle:
    (thread,) = channel.threads
    return thread


def podium(thread: ChannelHandle) -> discord.Message | None:
    return next((m for m in thread.history() if "is over" in (m.content or "")), None)


def current_board(thread: ChannelHandle) -> discord.Message:
    boards = [m for m in thread.history() if m.components and "Choose move" in str(m.components)]
    assert boards, "no board was posted"
    return max(boards, key=lambda message: message.id)


def everything_public(env: Env, channel: ChannelHandle) -> list[str]:
    texts = [m.content or "" for m in channel.history()]
    for thread in channel.threads:
        texts += [m.content or "" for m in thread.history()]
    return texts


async def test_two_players_race_to_the_podium_through_the_panel_and_the_modal(
    simcord_env: Env,
) -> None:
    env = simcord_env
    _, channel, alice, bob = new_table(env)
    lobby = (await alice.slash(channel, "race new", seats=2, laps=1)).response
    assert lobby is not None and not lobby.ephemeral
    assert (await bob.click(lobby, label="Join")).acknowledged
    assert (await alice.click(lobby, label="Start")).acknowledged
    thread = race_thread(channel)
    assert thread.name == "Race #1"
    answers: list[str] = []
    for _ in range(MAX_TURNS):
        if podium(thread) is not None:
            break
        board = current_board(thread)
        by_panel = await play_by_panel(env, 1, alice, board)
        by_modal = await play_by_modal(env, 1, bob, board)
        for result in (by_panel, by_modal):
            assert result.acknowledged
            answers.append(result.response.content if result.response else "")
    final = podium(thread)
    assert final is not None, f"no podium after {MAX_TURNS} turns"
    assert alice.mention in final.content and bob.mention in final.content
    assert all(answer.startswith("Move confirmed") for answer in answers), answers
    assert any("You were the last" in answer for answer in answers)
    results = await service_of(env).storage.results(1)
    assert sorted(row.user_id for row in results) == sorted([alice.id, bob.id])
    assert not any("Your hand" in text for text in everything_public(env, channel))


async def test_ai_seats_fill_the_field_and_play_on_their_own(simcord_env: Env) -> None:
    env = simcord_env
    _, channel, alice, _ = new_table(env)
    lobby = (await alice.slash(channel, "race new", seats=3, laps=1)).response
    assert lobby is not None
    for level in ("greedy", "random"):
        added = await alice.select(lobby, [level], custom_id="s:1:addai:0")
        assert added.acknowledged
    assert "Greedy AI" in (await alice.slash(channel, "race status", race=1)).response.content
    await alice.click(lobby, label="Start")
    thread = race_thread(channel)
    turns = 0
    while podium(thread) is None and turns < MAX_TURNS:
        board = current_board(thread)
        assert alice.mention in board.content, "the board waits for the human alone"
        result = await play_by_modal(env, 1, alice, board)
        assert result.response is not None
        assert "You were the last" in result.response.content
        turns += 1
    final = podium(thread)
    assert final is not None, f"no podium after {MAX_TURNS} turns"
    assert "AI 1" in final.content and "AI 2" in final.content
    assert len(await service_of(env).storage.results(1)) == 3


async def test_a_seat_whose_time_runs_out_is_played_by_the_ai(simcord_env: Env) -> None:
    env = simcord_env
    _, channel, alice, bob = new_table(env)
    lobby = (await alice.slash(channel, "race new", seats=2, laps=1, turn_limit="1h")).response
    assert lobby is not None
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    thread = race_thread(channel)
    await play_by_modal(env, 1, alice, current_board(thread))
    assert "turn 2" not in current_board(thread).content

    await env.advance_time(3600)

    assert "**Race #1 · turn 2**" in current_board(thread).content
    table = await service_of(env).table(1)
    assert table.status == "running"
