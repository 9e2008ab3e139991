"""Cartographers on SimCord: whole games from ``/cartographers new`` to the final
ranking, every drawing made through the private panel's real controls (the terrain,
shape, row and column selects, Rotate, Flip, Suggest, the typed-cell form, Confirm)."""

from __future__ import annotations

import re

from simcord import Env, MemberActor

from tests.simcord.mapmakers import (
    MAX_TURNS,
    choose,
    confirm_enabled,
    control,
    current_post,
    draw_proposed,
    open_panel,
    play_to_the_end,
    podium,
    post_turn,
    press,
    seasons,
    start_game,
    type_cell,
)
from tests.simcord.players import service_of
from tests.simcord.test_race import everything_public, new_table
from tests.simcord.test_refusals import refusals

AT = re.compile(r"at ([A-K]\d{1,2})\b")


def drawn_at(panel_text: str) -> str:
    match = AT.search(panel_text)
    assert match is not None, panel_text
    return match.group(1)


def options(panel: object, verb: str) -> list[str]:
    return [str(option["value"]) for option in control(panel, verb)["options"]]


async def test_a_solo_game_ends_with_a_title(simcord_env: Env) -> None:
    env = simcord_env
    _, channel, alice, _ = new_table(env)
    lobby, thread = await start_game(alice, channel, [], side="B")
    assert "side B" in lobby.content
    assert lobby.content.endswith("The game has started: follow it in its thread.")
    assert lobby.components == [], "a started lobby keeps no buttons"

    answers = await play_to_the_end(env, thread, [alice])

    assert all("Everyone has drawn" in answer for answer in answers), answers
    ranking = podium(thread)
    assert ranking is not None
    assert f"1. {alice.mention}" in ranking.content
    assert re.search(r"solo values \d+ = −?\d+: \*\*[^*]+\*\*", ranking.content), ranking.content
    assert ranking.attachments, "the final ranking shows the map"
    assert [m.content.split(" · ")[1].split(":")[0] for m in seasons(thread)] == [
        "Spring",
        "Summer",
        "Autumn",
        "Winter",
    ]
    assert (await service_of(env).table(1)).status == "finished"


async def draw_with_the_shape_controls(player: MemberActor, post: object, used: set[str]) -> str:
    """Pick the card's last terrain and last shape, rotate and flip it, move it with the
    column select; when that is not legal, Suggest (and the first shape, if the chosen
    one fits nowhere); then Confirm. The Confirm's answer; ``used`` gains the controls
    pressed."""
    panel = await open_panel(player, post)
    terrain = options(panel, "terrain")[-1]
    panel = await choose(player, panel, "terrain", terrain)
    assert f"Drawing: {terrain}," in panel.content
    if not control(panel, "rotate").get("disabled"):  # not a 1×1 square
        panel = await choose(player, panel, "shape", options(panel, "shape")[-1])
        panel = (await press(player, panel, "rotate")).response
        assert ", turned 90°" in panel.content
        panel = (await press(player, panel, "flip")).response
        assert ", flipped" in panel.content
        used.update({"shape", "rotate", "flip"})
    column = options(panel, "col")[-3]
    panel = await choose(player, panel, "col", column)
    assert drawn_at(panel.content)[0] == "ABCDEFGHIJK"[int(column)]
    if not confirm_enabled(panel):
        assert "❌ Not legal: " in panel.content or "fits nowhere" in panel.content
        used.add("refused")
        panel = (await press(player, panel, "suggest")).response
        assert "turned" not in panel.content and "flipped" not in panel.content
        used.add("suggest")
    if not confirm_enabled(panel):
        assert "fits nowhere" in panel.content, panel.content
        panel = await choose(player, panel, "shape", "0")
        used.add("shape")
    assert confirm_enabled(panel), panel.content
    used.update({"terrain", "col"})
    confirmed = await press(player, panel, "confirm")
    assert confirmed.response is not None
    return str(confirmed.response.content)


async def draw_at_a_typed_cell(player: MemberActor, post: object) -> str:
    """Move the proposed drawing away with the row select, type its cell back in the
    form (in lower case), then Confirm. The Confirm's answer."""
    panel = await open_panel(player, post)
    proposed = drawn_at(panel.content)
    row = (int(proposed[1:]) - 1 + 5) % 11
    panel = await choose(player, panel, "row", str(row))
    assert drawn_at(panel.content) == f"{proposed[0]}{row + 1}"
    typed = await type_cell(player, panel, proposed.lower())
    assert typed.acknowledged and typed.response is not None
    panel = typed.response
    assert drawn_at(panel.content) == proposed and "✅ Legal" in panel.content
    confirmed = await press(player, panel, "confirm")
    assert confirmed.response is not None
    return str(confirmed.response.content)


async def test_two_players_draw_through_every_control_to_the_final_ranking(
    simcord_env: Env,
) -> None:
    env = simcord_env
    _, channel, alice, bob = new_table(env)
    _, thread = await start_game(alice, channel, [bob])
    turns = 0
    used: set[str] = set()
    while podium(thread) is None:
        assert turns < MAX_TURNS, f"no final ranking after {MAX_TURNS} turns"
        post = current_post(thread)
        assert alice.mention in post.content and bob.mention in post.content
        if post_turn(post) % 2:
            first_player, last_player = alice, bob
            first = await draw_with_the_shape_controls(alice, post, used)
        else:  # every other turn, the proposed drawings, bob first (and kept fast)
            first_player, last_player = bob, alice
            first = str((await draw_proposed(bob, post)).response.content)
        assert first.startswith("Confirmed. Drawing: ") and "until the last player" in first
        refreshed = current_post(thread)
        assert post_turn(refreshed) == post_turn(post)
        assert first_player.mention not in refreshed.content, "the post says who still draws"
        assert last_player.mention in refreshed.content
        if last_player is bob:
            last = await draw_at_a_typed_cell(bob, refreshed)
        else:
            last = str((await draw_proposed(alice, refreshed)).response.content)
        assert last.startswith("Confirmed. Drawing: ") and "Everyone has drawn" in last
        turns += 1

    assert used == {"terrain", "shape", "rotate", "flip", "col", "refused", "suggest"}
    ranking = podium(thread)
    assert ranking is not None
    assert alice.mention in ranking.content and bob.mention in ranking.content
    assert len(seasons(thread)) == 4
    assert turns == post_turn(current_post(thread))
    public = "\n".join(everything_public(env, channel))
    assert "your drawing" not in public and "Drawing:" not in public, "drawings stay private"
    results = await service_of(env).storage.results(1)
    assert sorted(row.user_id for row in results) == sorted([alice.id, bob.id])


async def test_one_player_and_an_ai_seat_play_to_the_end(simcord_env: Env) -> None:
    env = simcord_env
    _, channel, alice, _ = new_table(env)
    lobby, thread = await start_game(alice, channel, [], ai=("greedy",))
    assert "Greedy AI" in lobby.content
    answers = await play_to_the_end(env, thread, [alice])
    assert all("Everyone has drawn" in answer for answer in answers), "the AI draws at once"
    ranking = podium(thread)
    assert ranking is not None and alice.mention in ranking.content
    assert "AI 1" in ranking.content
    assert len(await service_of(env).storage.results(1)) == 2


# ---------------------------------------------------------------------- refusals


async def test_strangers_get_no_panel_and_no_say(simcord_env: Env) -> None:
    env = simcord_env
    guild, channel, alice, bob = new_table(env)
    carol = guild.add_member(env.create_user("carol"))
    elsewhere = env.create_guild(name="Elsewhere")
    mallory = elsewhere.add_member(env.create_user("mallory"))
    their_channel = elsewhere.create_text_channel("games")
    opened = await alice.slash(channel, "cartographers new", seats=2, turn_limit="none")
    lobby = opened.response
    assert lobby is not None
    await bob.click(lobby, label="Join")
    not_host = await bob.click(lobby, label="Start")
    assert not_host.ephemeral and not_host.response is not None
    assert not_host.response.content == "Only the game's host can do that."
    assert channel.threads == []
    await alice.click(lobby, label="Start")
    (thread,) = channel.threads
    post = current_post(thread)
    drawn_before = await service_of(env).storage.action_count(1)

    for refused in (
        await carol.click(post, label="Draw"),
        await carol.slash(thread, "game panel"),
        await carol.slash(channel, "game panel", game=1),
    ):
        assert refused.ephemeral and refused.response is not None
        assert refused.response.content == "You don't have a seat in this game."
    for refused in (
        await mallory.slash(their_channel, "game panel", game=1),
        await mallory.slash(their_channel, "game abandon", game=1),
    ):
        assert refused.ephemeral and refused.response is not None
        assert refused.response.content == "There is no game #1 here."
    # SimCord records the slash commands' refusals alone (a button's is answered inside)
    assert refusals(env) == ["error.not_seated"] * 2 + ["error.no_such_race"] * 2

    assert await service_of(env).storage.action_count(1) == drawn_before
    assert (await service_of(env).table(1)).status == "running"
    assert alice.mention in current_post(thread).content


async def test_a_cell_off_the_map_is_refused_and_the_drawing_kept(simcord_env: Env) -> None:
    env = simcord_env
    _, channel, alice, bob = new_table(env)
    _, thread = await start_game(alice, channel, [bob])
    panel = await open_panel(alice, current_post(thread))
    proposed = drawn_at(panel.content)

    refused = await type_cell(alice, panel, "Z99")

    assert refused.ephemeral and refused.response is not None
    assert refused.response.content.startswith("“Z99” is not a cell of the map")
    again = await open_panel(alice, current_post(thread))
    assert drawn_at(again.content) == proposed and confirm_enabled(again)
    assert await service_of(env).storage.action_count(1) == 0


async def test_a_panel_and_a_form_of_an_earlier_turn_are_refused(simcord_env: Env) -> None:
    env = simcord_env
    _, channel, alice, bob = new_table(env)
    _, thread = await start_game(alice, channel, [bob])
    first = current_post(thread)
    spare = await open_panel(alice, first)
    form = await press(alice, spare, "type")
    assert form.modal is not None
    await draw_proposed(alice, first)
    await draw_proposed(bob, first)
    assert post_turn(current_post(thread)) == 2
    retired = next(m for m in thread.history() if m.id == first.id)
    assert "Draw" not in str(retired.components), "the past turn's post no longer calls"

    for stale in (
        await press(alice, spare, "rotate"),
        await alice.select(spare, ["3"], custom_id=control(spare, "row")["custom_id"]),
        await alice.submit_modal(form, {"cell": "C4"}),
    ):
        assert stale.ephemeral and stale.response is not None
        assert stale.response.content == (
            "That's from an earlier turn; the game is now on turn 2."
        ), stale.response.content

    panel = await open_panel(alice, current_post(thread))
    abandoned = await alice.slash(thread, "game abandon")
    assert abandoned.response is not None and "abandoned" in abandoned.response.content
    for over in (await press(alice, panel, "confirm"), await press(alice, panel, "type")):
        assert (
            over.modal is None
            and over.response is not None
            and over.response.content == "This game is over."
        )
    assert await service_of(env).storage.action_count(1) == 2
