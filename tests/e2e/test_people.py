"""People doing things at the same time, twice, too late or without a seat: one reveal,
one move, clear private refusals, and nothing changes."""

from __future__ import annotations

import asyncio

from tests.databases import rows
from tests.e2e.conftest import Table
from tests.e2e.players import (
    custom_id,
    database_actions,
    prepare_move,
    retired,
    reveals,
    start_race,
    wait_for_board,
)
from tests.fakediscord.harness import BotProcess


def stored_board(table: Table) -> int | None:
    found = rows(table.database, "SELECT board_message_id FROM game_tables")
    return found[0][0] if found else None


async def test_both_last_moves_at_the_same_moment_make_one_reveal(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_race(fake, alice, [bob], table.channel)
    board = await wait_for_board(fake, place, 1)
    panels = [await prepare_move(alice, board), await prepare_move(bob, board)]
    clicks = await asyncio.gather(
        alice.click(panels[0], custom_id(panels[0], "confirm")),
        bob.click(panels[1], custom_id(panels[1], "confirm")),
    )
    answers = [await click.reply() for click in clicks]
    assert sum("turn is being revealed" in answer.content for answer in answers) == 1
    await wait_for_board(fake, place, 2)
    assert len(reveals(place)) == 1
    assert sorted(seat for seat, _, _ in database_actions(table.database)) == ["A", "B"]


async def test_a_double_click_on_confirm_is_one_move(table: Table, started_bot: BotProcess) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_race(fake, alice, [bob], table.channel)
    board = await wait_for_board(fake, place, 1)
    panel = await prepare_move(alice, board)
    confirm = custom_id(panel, "confirm")
    first, second = await asyncio.gather(alice.click(panel, confirm), alice.click(panel, confirm))
    await first.wait_ack()
    await second.wait_ack()
    assert database_actions(table.database) == [("A", "player", 1)]


async def test_strangers_old_buttons_and_late_forms_are_refused_privately(
    table: Table, started_bot: BotProcess
) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    _, place = await start_race(fake, alice, [bob], table.channel)
    first_board = await wait_for_board(fake, place, 1)

    stranger = await (await carol.click(first_board, custom_id(first_board, "choose"))).reply()
    assert stranger.ephemeral_to is carol and "don't have a seat" in stranger.content

    kept_open = await (await alice.click(first_board, custom_id(first_board, "choose"))).reply()
    for player in (alice, bob):
        panel = await prepare_move(player, first_board)
        await (await player.click(panel, custom_id(panel, "confirm"))).reply()
    second_board = await wait_for_board(fake, place, 2)
    await fake.wait_for(
        lambda: stored_board(table) == second_board.id, timeout=10, what="the board to be stored"
    )
    assert retired(first_board), "the first board no longer calls"
    before = database_actions(table.database)

    old = await (await alice.click(kept_open, custom_id(kept_open, "clear"))).reply()
    assert old.ephemeral_to is alice and "earlier turn" in old.content
    assert f"/{second_board.id}" in old.content

    panel = await (await alice.click(second_board, custom_id(second_board, "choose"))).reply()
    opened = await alice.click(panel, custom_id(panel, "type"))
    modal = await opened.wait_modal()
    assert modal["custom_id"].startswith("m:")
    abandoned = await (await alice.slash(place, "race abandon")).reply()
    assert "abandoned" in abandoned.content
    await fake.wait_for(lambda: retired(second_board), timeout=10, what="the board retired")
    late = await (await alice.submit_modal(opened, {"move": "reset 1"})).reply()
    assert late.ephemeral_to is alice and "over" in late.content
    assert database_actions(table.database) == before


async def test_a_confirm_answered_too_late_still_reveals_the_turn(
    table: Table, started_bot: BotProcess
) -> None:
    """A bot too slow to answer within Discord's 3 s (here: a deadline of 0 s) has still
    stored the move; the turn resolves and its board is posted, and the log says plainly
    what happened."""
    fake, alice, bob = table.fake, table.alice, table.bob
    _, place = await start_race(fake, alice, [bob], table.channel)
    board = await wait_for_board(fake, place, 1)
    panels = [await prepare_move(alice, board), await prepare_move(bob, board)]
    await (await alice.click(panels[0], custom_id(panels[0], "confirm"))).reply()
    fake.interaction_deadline = 0.0
    try:
        await bob.click(panels[1], custom_id(panels[1], "confirm"))
        await wait_for_board(fake, place, 2)
    finally:
        fake.interaction_deadline = 3.0
    late = fake.take_violations()
    assert late and all("by bob" in violation.message for violation in late)
    assert sorted(seat for seat, _, _ in database_actions(table.database)) == ["A", "B"]
    assert len(reveals(place)) == 1
    await fake.wait_for(
        lambda: "expired before it was answered" in started_bot.output(),
        timeout=10,
        what="the bot's warning about the late answer",
    )
    assert "unexpected error" not in started_bot.output()
