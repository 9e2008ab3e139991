"""A Cartographers game survives the bot being killed mid-season: the drawing accepted
before the kill stays, and panels and posts opened before it keep working after."""

from __future__ import annotations

from tests.e2e.conftest import Table, bot_running
from tests.e2e.mapmakers import (
    NOWHERE,
    confirm_enabled,
    drawable_panel,
    open_panel,
    play_to_the_end,
    podiums,
    post_turn,
    posts,
    start_game,
    wait_for_post,
)
from tests.e2e.players import custom_id, database_actions


async def test_a_restart_mid_season_keeps_old_panels_and_posts_working(table: Table) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    async with bot_running(table) as first:
        _, place = await start_game(fake, alice, [bob], table.channel)
        post = await wait_for_post(fake, place, 1)
        panel = await drawable_panel(alice, post)
        await (await alice.click(panel, custom_id(panel, "confirm"))).reply()
        old_panel = await open_panel(bob, post)
        first.process.kill()
        await first.process.wait()
    accepted = database_actions(table.database)
    assert [(seat, source) for seat, source, _ in accepted] == [("1", "player")]

    async with bot_running(table):
        again = await open_panel(alice, post)
        assert "Your drawing is in" in again.content and not confirm_enabled(again)
        moved = await (await bob.select(old_panel, custom_id(old_panel, "shape"), ["0"])).reply()
        assert any(said in moved.content for said in ("Legal", "Not legal", NOWHERE))
        if not confirm_enabled(moved):
            moved = await drawable_panel(bob, post)
        done = await (await bob.click(moved, custom_id(moved, "confirm"))).reply()
        assert "Everyone has drawn" in done.content
        await fake.wait_for(
            lambda: any(post_turn(m) > 1 for m in posts(place)), timeout=30, what="turn 2"
        )
        await play_to_the_end(fake, place, [alice, bob], turn=2)

    assert database_actions(table.database)[0] == accepted[0]
    turns = [post_turn(m) for m in posts(place)]
    assert len(turns) == len(set(turns)), "no turn was posted twice"
    assert len(podiums(place)) == 1
