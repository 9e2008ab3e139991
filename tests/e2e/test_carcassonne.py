"""Carcassonne: Star Wars in Discord: the real bot process against the fake Discord, from
``/carcassonne new`` to the final scoring, every human turn played through the panel; a
restart mid-game; who may act (strangers, players out of turn, forged controls)."""

from __future__ import annotations

from typing import Any

from tests.databases import rows
from tests.e2e.conftest import Table, bot_running
from tests.e2e.players import custom_id, database_actions, retired, select_options
from tests.e2e.tilelayers import (
    open_panel,
    play_to_the_end,
    play_turn,
    podiums,
    post_turn,
    posts,
    start_game,
    told,
    wait_for_post,
)
from tests.fakediscord.harness import BotProcess
from tests.fakediscord.interactions import DEFERRED_UPDATE, UPDATE

TILE_SET = "Tile set: reconstruction"


def table_actions(table: Table) -> list[Any]:
    return rows(table.database, "SELECT seq, seat, kind, source FROM actions ORDER BY seq")


async def test_a_two_player_game_with_an_ai_seat_to_the_final_score(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice = table.fake, table.alice
    lobby, place = await start_game(fake, alice, [], table.channel, ai=["greedy"])
    assert "tile set: reconstruction" in lobby.content
    await fake.wait_for(
        lambda: "The game has started" in lobby.content, timeout=30, what="the started lobby"
    )
    assert "race" not in lobby.content.lower()
    first = await wait_for_post(fake, place, 1)
    assert first.attachments, "the turn post shows the map"
    assert TILE_SET not in first.content and alice.mention in first.content

    panel = await open_panel(alice, first)
    assert panel.attachments and "Your tile" in panel.content and TILE_SET not in panel.content
    spots = select_options(panel, "spot")
    assert spots and spots[0]["label"] == "Spot 1"
    assert "Your tile: " in panel.content and "SW" not in panel.content
    if len(spots) > 1:
        panel = await (await alice.select(panel, custom_id(panel, "spot"), ["1"])).reply()
        assert "Spot 2, turned" in panel.content
    placed = await (await alice.click(panel, custom_id(panel, "place"))).reply()
    assert "Tile placed" in placed.content and placed.attachments
    sizes = [o["value"] for o in select_options(placed, "size")]
    assert sizes == ["small", "large"]
    wheres = [o["value"] for o in select_options(placed, "where")]
    assert wheres[0] == "none" and len(wheres) > 1
    chosen = await (await alice.select(placed, custom_id(placed, "where"), [wheres[1]])).reply()
    chosen = await (await alice.select(chosen, custom_id(chosen, "size"), ["large"])).reply()
    assert "Your choice: a large meeple on the" in chosen.content
    done = await (await alice.click(chosen, custom_id(chosen, "confirm"))).reply()
    assert "Turn played: a large meeple" in done.content

    third = (await wait_for_post(fake, place, 3)).content
    assert "Alice (red) placed a tile" in third and "a large meeple" in third, third
    assert "AI 1 (green) placed a tile" in third, "the AI's turn is told in the next post"
    assert [post_turn(m) for m in posts(place)] == [1, 3], "the AI's turn has no post of its own"

    await play_to_the_end(fake, place, [alice], turn=2)
    assert len(podiums(place)) == 1
    final = podiums(place)[0]
    assert final.attachments and TILE_SET in final.content
    assert "Final scoring" in final.content and "Ranking:" in final.content
    assert "1. " in final.content and "points" in final.content
    kinds = {seat: source for _, seat, _, source in table_actions(table)}
    assert kinds == {"red": "player", "green": "ai"}
    turns = [post_turn(m) for m in posts(place)]
    assert len(turns) == len(set(turns)), "no turn was posted twice"
    assert all(retired(m) for m in posts(place)), "a past turn's post still calls"


async def test_a_battle_is_told_with_every_die(table: Table, started_bot: BotProcess) -> None:
    """Two AI seats and alice: the game's stories tell every battle round by round."""
    fake, alice = table.fake, table.alice
    _, place = await start_game(fake, alice, [], table.channel, ai=["greedy", "greedy"])
    await play_to_the_end(fake, place, [alice])
    thread = told(place)
    if "Battle for the" in thread:  # the seeds decide whether one happens
        assert "Roll 1:" in thread and "[" in thread
        assert "wins and keeps the feature" in thread or "loses" in thread


async def test_a_restart_mid_turn_keeps_old_panels_working(table: Table) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    async with bot_running(table) as first:
        _, place = await start_game(fake, alice, [bob], table.channel)
        post = await wait_for_post(fake, place, 1)
        spare = await open_panel(alice, post)
        panel = await open_panel(alice, post)
        placed = await (await alice.click(panel, custom_id(panel, "place"))).reply()
        assert "Tile placed" in placed.content
        first.process.kill()
        await first.process.wait()
    assert database_actions(table.database) == [], "nothing is played before Confirm"

    async with bot_running(table):
        again = await (await alice.click(spare, custom_id(spare, "place"))).reply()
        assert again.ephemeral and "already placed" in again.content
        done = await (await alice.click(placed, custom_id(placed, "confirm"))).reply()
        assert "Turn played" in done.content
        second = await wait_for_post(fake, place, 2)
        assert bob.mention in second.content
        stale = await (await alice.click(spare, custom_id(spare, "place"))).reply()
        assert stale.ephemeral and "from an earlier turn" in stale.content
        assert retired(post), "a past turn's post keeps only its Status button"
        done = await play_turn(bob, second)
        assert "Turn played" in done.content
        await wait_for_post(fake, place, 3)
    kinds = [(seat, kind) for _, seat, kind, _ in table_actions(table)]
    assert kinds == [("red", "place"), ("red", "deploy"), ("green", "place"), ("green", "deploy")]


async def test_undo_takes_the_tile_back_until_the_turn_is_confirmed(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_game(fake, alice, [bob], table.channel)
    post = await wait_for_post(fake, place, 1)
    panel = await open_panel(alice, post)
    placed = await (await alice.click(panel, custom_id(panel, "place"))).reply()
    assert "Undo takes the tile back" in placed.content and custom_id(placed, "undo")
    for user in (bob, table.carol):
        refused = await (await user.forge(place, "cc:1:undo:1", source=post)).reply()
        assert refused.ephemeral and "Undo" not in refused.content
    back = await (await alice.click(placed, custom_id(placed, "undo"))).reply()
    assert "Taken back: your tile is in your hand again." in back.content
    assert select_options(back, "spot") and not any(":where:" in c for c in back.custom_ids())
    again = await (await alice.forge(place, "cc:1:undo:1", source=back)).reply()
    assert again.ephemeral and any(
        refusal in again.content for refusal in ("nothing to take back", "doesn't do anything")
    )
    assert table_actions(table) == [], "placing and taking back play nothing"

    placed = await (await alice.click(back, custom_id(back, "place"))).reply()
    done = await (await alice.click(placed, custom_id(placed, "confirm"))).reply()
    assert "Turn played" in done.content
    assert [(seat, kind) for _, seat, kind, _ in table_actions(table)] == [
        ("red", "place"),
        ("red", "deploy"),
    ]
    late = await (await alice.forge(place, "cc:1:undo:1", source=post)).reply()
    assert late.ephemeral and any(
        refusal in late.content for refusal in ("from an earlier turn", "doesn't do anything")
    )
    assert len(table_actions(table)) == 2


async def test_the_panel_draws_its_picture_again_only_when_it_changes(
    table: Table, started_bot: BotProcess
) -> None:
    """Choosing where the meeple goes and its size leaves the map as it is: the panel is
    edited in one answer and keeps the picture it shows. Placing the tile, or taking it
    back, shows another picture, drawn and attached; the same position and choices give
    the same picture's name."""
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_game(fake, alice, [bob], table.channel)
    post = await wait_for_post(fake, place, 1)
    panel = await open_panel(alice, post)
    [placing] = panel.attachments

    clicked = await alice.click(panel, custom_id(panel, "place"))
    placed = await clicked.reply()
    [deploying] = placed.attachments
    assert clicked.response_type == DEFERRED_UPDATE and deploying.filename != placing.filename

    wheres = [o["value"] for o in select_options(placed, "where")]
    chosen = await alice.select(placed, custom_id(placed, "where"), [wheres[-1]])
    shown = await chosen.reply()
    assert chosen.response_type == UPDATE and "Your choice: a small meeple" in shown.content
    assert [a.id for a in shown.attachments] == [deploying.id], "the picture is kept"
    sized = await alice.select(shown, custom_id(shown, "size"), ["large"])
    shown = await sized.reply()
    assert sized.response_type == UPDATE and "a large meeple" in shown.content
    assert [a.id for a in shown.attachments] == [deploying.id]

    undone = await alice.click(shown, custom_id(shown, "undo"))
    back = await undone.reply()
    [again] = back.attachments
    assert undone.response_type == DEFERRED_UPDATE and again.id != deploying.id
    assert again.filename == placing.filename and again.data == placing.data
    spots = select_options(back, "spot")
    if len(spots) > 1:
        moved = await (await alice.select(back, custom_id(back, "spot"), ["1"])).reply()
        assert moved.attachments[0].filename not in (placing.filename, deploying.filename)


async def test_strangers_and_players_out_of_turn_are_refused(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    _, place = await start_game(fake, alice, [bob], table.channel)
    post = await wait_for_post(fake, place, 1)
    before = table_actions(table)

    stranger = await (await carol.click(post, custom_id(post, "play"))).reply()
    assert stranger.ephemeral and "don't have a seat" in stranger.content
    early = await (await bob.click(post, custom_id(post, "play"))).reply()
    assert early.ephemeral and "not your turn" in early.content
    refusals = ("don't have a seat", "not your turn", "doesn't do anything")
    for verb, values in (("place", None), ("confirm", None), ("spot", ["0"]), ("where", ["0"])):
        prefix = "cx" if values else "cc"
        for user in (carol, bob):
            refused = await (
                await user.forge(place, f"{prefix}:1:{verb}:1", values=values, source=post)
            ).reply()
            assert refused.ephemeral and any(r in refused.content for r in refusals), verb
    forged = await (await alice.forge(place, "cc:1:steal:1", source=post)).reply()
    assert "doesn't do anything" in forged.content
    panel = await open_panel(alice, post)
    bad_spot = await (await alice.forge(place, "cx:1:spot:1", values=["999"], source=panel)).reply()
    assert "isn't available any more" in bad_spot.content

    elsewhere = fake.add_guild("Elsewhere")
    channel = elsewhere.add_text_channel("games")
    fake.add_member(elsewhere, alice)
    across = await (await alice.forge(channel, "cc:1:place:1")).reply()
    assert across.content in (
        "There is no game #1 here.",
        "That button doesn't do anything any more.",
    )
    assert table_actions(table) == before

    status = await (await carol.slash(place, "game status")).reply()
    assert "Carcassonne: Star Wars #1" in status.content and TILE_SET not in status.content
    rules = await (await carol.slash(place, "game rules")).reply()
    assert "Carcassonne: Star Wars in one card" in rules.content


async def test_a_player_who_chose_dms_plays_from_the_turn_notice(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    assert (await (await bob.slash(table.channel, "game dm", enabled=True)).reply()).ephemeral
    _, place = await start_game(fake, alice, [bob], table.channel)
    await play_turn(alice, await wait_for_post(fake, place, 1))
    await fake.wait_for(lambda: bool(bob.dms()), timeout=30, what="bob's turn notice")
    notice = bob.dms()[0]
    assert "Your turn in Carcassonne #1 (turn 2)" in notice.content
    assert not alice.dms()
    panel = await (await bob.click(notice, custom_id(notice, "play"))).reply(timeout=30)
    assert panel.ephemeral and panel.attachments and "Your tile" in panel.content
    placed = await (await bob.click(panel, custom_id(panel, "place"))).reply()
    done = await (await bob.click(placed, custom_id(placed, "confirm"))).reply()
    assert "Turn played" in done.content
    third = await wait_for_post(fake, place, 3)
    assert alice.mention in third.content
    assert "Bob (green) placed a tile" in third.content and TILE_SET not in third.content
    assert "Alice (red) placed a tile" not in third.content, "turn 1 was told in turn 2's post"


async def test_the_team_variant_scores_the_rebels_against_the_empire(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice = table.fake, table.alice
    refused = await (
        await alice.slash(table.channel, "carcassonne new", seats=3, team=True)
    ).reply()
    assert refused.ephemeral and "exactly 4 players" in refused.content
    lobby, place = await start_game(
        fake, alice, [], table.channel, ai=["random", "random", "random"], team=True
    )
    assert "team variant" in lobby.content
    await play_to_the_end(fake, place, [alice])
    final = podiums(place)[0].content
    assert "Rebel Alliance" in final and "Empire" in final
    assert final.count("1. ") >= 1


async def test_a_three_seat_game_with_an_ai_posts_one_message_a_turn(
    table: Table, started_bot: BotProcess
) -> None:
    """alice, bob and an AI seat to the end: at most one public message per turn, and five
    more (the lobby, the rules card, the final post, room for a battle's second one)."""
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_game(fake, alice, [bob], table.channel, ai=["greedy"])
    await play_to_the_end(fake, place, [alice, bob])
    turns = sum(kind == "deploy" for _, _, kind, _ in table_actions(table))
    messages = table.channel.public_messages() + place.public_messages()
    print(f"public messages: {len(messages)} for {turns} turns")
    assert len(messages) <= turns + 5
    noted = [m for m in messages if "reconstruction" in m.content]
    assert noted[-1] is podiums(place)[0], "the tile set's note is in the final post"
    assert len(noted) <= 3, "and only in the lobby, the rules card and the final post"
