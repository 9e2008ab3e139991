"""Cartographers in Discord: the real bot process against the fake Discord, from
``/cartographers new`` to the final ranking, every drawing made through the panel."""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.mapmakers import (
    confirm_enabled,
    draw_proposed,
    open_panel,
    play_to_the_end,
    podiums,
    posts,
    seasons,
    start_game,
    wait_for_post,
)
from tests.e2e.players import custom_id
from tests.fakediscord.harness import BotProcess


async def test_two_players_draw_through_the_panel_to_the_final_ranking(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_game(fake, alice, [bob], table.channel)
    first = await wait_for_post(fake, place, 1)
    assert first.attachments, "the turn post shows the card as a picture"
    assert alice.mention in first.content and bob.mention in first.content

    panel = await open_panel(alice, first)
    assert panel.attachments and "Legal" in panel.content and confirm_enabled(panel)
    confirmed = await (await alice.click(panel, custom_id(panel, "confirm"))).reply()
    assert "Drawing confirmed" in confirmed.content
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
