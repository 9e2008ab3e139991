"""Cartographers in Discord: the real bot process against the fake Discord, from
``/cartographers new`` to the final ranking (its maps and the whole game animated), every
drawing made through the panel."""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.mapmakers import (
    confirm_enabled,
    draw_proposed,
    drawable_panel,
    open_panel,
    play_to_the_end,
    podiums,
    post_turn,
    posts,
    seasons,
    start_game,
    wait_for_post,
)
from tests.e2e.players import custom_id, retired
from tests.fakediscord.harness import BotProcess


async def test_two_players_draw_through_the_panel_to_the_final_ranking(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_game(fake, alice, [bob], table.channel)
    first = await wait_for_post(fake, place, 1)
    assert first.attachments, "the turn post shows the card as a picture"
    assert alice.mention in first.content and bob.mention in first.content

    panel = await drawable_panel(alice, first)
    assert panel.attachments and "Legal" in panel.content
    confirmed = await (await alice.click(panel, custom_id(panel, "confirm"))).reply()
    assert confirmed.content.startswith("Confirmed. Drawing: ")
    await fake.wait_for(
        lambda: alice.mention not in posts(place)[0].content, timeout=10, what="the post updated"
    )
    assert bob.mention in posts(place)[0].content
    await draw_proposed(bob, first)

    await play_to_the_end(fake, place, [alice, bob], turn=2)
    assert len(podiums(place)) == 1
    ranking = podiums(place)[0]
    assert ranking.attachments and "stars" in ranking.content
    assert len(seasons(place)) == 4
    assert all(s.attachments for s in seasons(place))
    await fake.wait_for(lambda: place.archived, timeout=120, what="the replay, then the archive")
    names = [attachment.filename for attachment in ranking.attachments]
    assert len(names) == 2 and names[0].endswith(".png"), "the final maps stay"
    assert names[1].endswith(".webp"), "the whole game animated"
    assert all(retired(m) for m in posts(place)), "a past turn's post still calls"


async def test_a_solo_game_ends_with_a_title(table: Table, started_bot: BotProcess) -> None:
    fake, alice = table.fake, table.alice
    lobby, place = await start_game(fake, alice, [], table.channel, side="B")
    assert "side B" in lobby.content
    await play_to_the_end(fake, place, [alice])
    ranking = podiums(place)[0]
    assert "solo values" in ranking.content and "1. " in ranking.content


async def test_the_panels_controls_move_rotate_and_type_the_drawing(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_game(fake, alice, [bob], table.channel)
    panel = await open_panel(alice, await wait_for_post(fake, place, 1))
    assert "Proposed" in panel.content
    panel = await (await alice.select(panel, custom_id(panel, "row"), ["10"])).reply()
    panel = await (await alice.select(panel, custom_id(panel, "col"), ["10"])).reply()
    if "Not legal" in panel.content:  # anchored at K11 most shapes run off the map
        assert not confirm_enabled(panel)
        assert "off the map" in panel.content or "ruins" in panel.content
    opened = await alice.click(panel, custom_id(panel, "type"))
    modal = await opened.wait_modal()
    assert modal["custom_id"].startswith("cm:")
    typed = await alice.submit_modal(opened, {"cell": "Z99"})
    refusal = await typed.reply()
    assert refusal.ephemeral and "is not a cell of the map" in refusal.content
    opened = await alice.click(panel, custom_id(panel, "type"))
    await opened.wait_modal()
    panel = await (await alice.submit_modal(opened, {"cell": "c4"})).reply()
    assert "at C4" in panel.content
    before = panel.content
    panel = await (await alice.click(panel, custom_id(panel, "rotate"))).reply()
    assert "turned 90°" in panel.content and panel.content != before
    panel = await (await alice.click(panel, custom_id(panel, "flip"))).reply()
    assert "flipped" in panel.content
    spare = await open_panel(alice, await wait_for_post(fake, place, 1))
    if not confirm_enabled(panel):  # turned and flipped at C4 it may touch a mountain
        panel = await (await alice.click(panel, custom_id(panel, "suggest"))).reply()
        assert "Proposed" in panel.content and confirm_enabled(panel)
    await (await alice.click(panel, custom_id(panel, "confirm"))).reply()
    await draw_proposed(bob, await wait_for_post(fake, place, 1))
    await fake.wait_for(lambda: any(post_turn(m) > 1 for m in posts(place)), timeout=30)
    stale = await (await alice.click(spare, custom_id(spare, "rotate"))).reply()
    assert stale.ephemeral and "from an earlier turn" in stale.content


async def test_a_player_who_chose_dms_draws_from_the_turn_notice(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    chose = await (await bob.slash(table.channel, "game dm", enabled=True)).reply()
    assert chose.ephemeral
    _, place = await start_game(fake, alice, [bob], table.channel)
    await fake.wait_for(lambda: bool(bob.dms()), timeout=30, what="bob's turn notice")
    notice = bob.dms()[0]
    assert "Your drawing is due in Cartographers #1 (turn 1)" in notice.content
    assert not alice.dms()
    panel = await drawable_panel(bob, notice)
    assert panel.attachments and "Legal" in panel.content
    done = await (await bob.click(panel, custom_id(panel, "confirm"))).reply()
    assert done.content.startswith("Confirmed. Drawing: ")
    status = await (await alice.slash(place, "game status")).reply()
    assert "Cartographers #1" in status.content
