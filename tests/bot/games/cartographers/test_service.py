"""Cartographers through the table service with a real SQLite file: whole games with
people and AI seats, solo, a restart mid-season, timeouts, leaving, refusals."""

from __future__ import annotations

from pathlib import Path

from bot.clock import FakeClock
from bot.games.base import BOARD, PODIUM, REPLAY
from bot.games.cartographers import SEASON, drawing_action, legal_choices
from bot.service import RuleError, ServiceError, Table, TableService, TableSettings, Update
from engine.cartographers import Phase
from engine.core import Rng
from tests.bot.conftest import first_choice

ALICE, BOB, CAROL = 11, 22, 33


async def open_game(
    service: TableService, humans: int = 2, ai: int = 0, **settings: object
) -> Table:
    users = [ALICE, BOB, CAROL][:humans]
    table = await service.open_lobby(
        game="cartographers",
        host_id=users[0],
        host_name="alice",
        settings=TableSettings(seats=humans + ai, **settings),  # type: ignore[arg-type]
        guild_id=1,
        channel_id=2,
    )
    for user in users[1:]:
        table = await service.join(table.id, user, f"user{user}")
    for _ in range(ai):
        table = await service.add_ai(table.id, ALICE, "random")
    await service.start(table.id, ALICE)
    await service.play_ai_seats(table.id)
    return await service.table(table.id)


async def draw(service: TableService, table_id: int, user: int, rng: Rng) -> Update:
    _, view = await service.view_for(table_id, user)
    choices = legal_choices(view)
    placement = choices[rng.below(len(choices))].placement
    return await service.submit(table_id, user, drawing_action(view, placement), view.turn)


async def play_to_the_end(service: TableService, table_id: int, rng: Rng) -> list[Update]:
    updates: list[Update] = []
    for _ in range(400):
        table = await service.table(table_id)
        if table.status != "running":
            return updates
        for seat in table.waiting_humans():
            assert seat.user_id is not None
            updates.append(await draw(service, table_id, seat.user_id, rng))
            updates.extend(await service.play_ai_seats(table_id))
    raise AssertionError("the game did not end")


async def test_two_people_and_an_ai_seat_play_to_the_final_ranking(
    service: TableService,
) -> None:
    table = await open_game(service, humans=2, ai=1, options={"side": "B"})
    assert [seat.seat for seat in table.seats] == ["1", "2", "3"]
    assert set(table.waiting) == {"1", "2"}
    updates = await play_to_the_end(service, table.id, Rng(7))
    final = updates[-1]
    assert final.result is not None
    table = await service.table(table.id)
    assert table.status == "finished"
    results = await service.storage.results(table.id)
    assert sorted(row.seat for row in results) == ["1", "2", "3"]
    assert min(row.place for row in results) == 1
    assert {row.seat: row.place for row in results} == dict(final.result.places)
    kinds = [row.kind for row in await service.storage.pending_announcements(table.id)]
    assert kinds.count(SEASON) == 4
    assert kinds[-2:] == [PODIUM, REPLAY]
    assert kinds[0] == BOARD


async def test_a_solo_game_ends_with_a_title(service: TableService) -> None:
    table = await open_game(service, humans=1)
    updates = await play_to_the_end(service, table.id, Rng(3))
    assert updates[-1].result is not None
    _, view = await service.view_for(table.id, ALICE)
    assert view.result is not None and view.result.solo is not None
    [result] = await service.storage.results(table.id)
    assert (result.seat, result.place) == ("1", 1)


async def test_a_restart_mid_season_loses_nothing(db_path: Path, clock: FakeClock) -> None:
    first = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    table = await open_game(first, humans=2)
    for _ in range(3):
        await draw(first, table.id, ALICE, Rng(1))
        await draw(first, table.id, BOB, Rng(2))
    await draw(first, table.id, ALICE, Rng(3))
    _, before = await first.view_for(table.id, ALICE)
    await first.close()

    second = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    _, after = await second.view_for(table.id, ALICE)
    assert after == before
    assert after.my_drawing is not None
    assert (await second.table(table.id)).waiting == ("2",)
    await play_to_the_end(second, table.id, Rng(4))
    assert (await second.table(table.id)).status == "finished"
    await second.close()


async def test_a_double_click_is_one_drawing_and_a_changed_one_replaces_it(
    service: TableService,
) -> None:
    table = await open_game(service, humans=2)
    _, view = await service.view_for(table.id, ALICE)
    choices = legal_choices(view)
    first = await service.submit(
        table.id, ALICE, drawing_action(view, choices[0].placement), view.turn
    )
    again = await service.submit(
        table.id, ALICE, drawing_action(view, choices[0].placement), view.turn
    )
    changed = await service.submit(
        table.id, ALICE, drawing_action(view, choices[-1].placement), view.turn
    )
    assert first.stored and not again.stored and changed.stored and changed.changed_move
    assert len(await service.storage.actions(table.id)) == 2


async def test_an_illegal_or_stale_drawing_is_refused_and_changes_nothing(
    service: TableService,
) -> None:
    table = await open_game(service, humans=2)
    _, view = await service.view_for(table.id, ALICE)
    legal = legal_choices(view)[0].placement
    off_card = {**legal.to_json(), "shape": 7}
    bad = drawing_action(view, legal)
    bad = type(bad)(bad.kind, None, off_card)
    try:
        await service.submit(table.id, ALICE, bad, view.turn)
    except RuleError as error:
        assert error.key == "error.illegal_move"
    else:
        raise AssertionError("an off-card shape was accepted")
    try:
        await service.submit(table.id, ALICE, drawing_action(view, legal), view.turn + 1)
    except ServiceError as error:
        assert error.key == "error.stale_turn"
    else:
        raise AssertionError("a drawing for another turn was accepted")
    assert await service.storage.actions(table.id) == []


async def test_a_timed_out_player_draws_by_the_ai_and_the_game_goes_on(
    service: TableService, clock: FakeClock
) -> None:
    table = await open_game(service, humans=2, turn_seconds=60)
    await draw(service, table.id, ALICE, Rng(1))
    clock.advance(61)
    updates = await service.fire_due()
    assert [update.seat for update in updates] == ["2"]
    assert updates[0].resolved
    actions = await service.storage.actions(table.id)
    assert len(actions) == 2


async def test_a_leaver_is_replaced_by_an_ai_seat_and_the_last_leaver_abandons(
    service: TableService,
) -> None:
    table = await open_game(service, humans=2)
    update = await service.leave_game(table.id, BOB)
    assert update.table.seat("2").is_ai
    await draw(service, table.id, ALICE, Rng(1))
    await service.play_ai_seats(table.id)
    _, view = await service.view_for(table.id, ALICE)
    assert view.turn == 2
    update = await service.leave_game(table.id, ALICE)
    assert update.table.status == "abandoned"
    assert await service.storage.results(table.id) == []


async def test_neighbour_ambushes_are_drawn_on_the_neighbours_map(
    service: TableService,
) -> None:
    table = await open_game(service, humans=2, options={"ambush": "neighbour"})
    rng = Rng(9)
    for _ in range(200):
        _, view = await service.view_for(table.id, ALICE)
        if view.phase is Phase.AMBUSH:
            assert view.target == "2"
            return
        if view.result is not None:
            break
        for user in (ALICE, BOB):
            await draw(service, table.id, user, rng)
    raise AssertionError("no ambush came up in neighbour mode")


async def test_the_lobby_refuses_options_the_game_does_not_have(service: TableService) -> None:
    for options in ({"side": "C"}, {"ambush": "sideways"}, {"laps": 3}):
        try:
            await service.open_lobby(
                game="cartographers",
                host_id=ALICE,
                host_name="alice",
                settings=TableSettings(seats=2, options=options),
            )
        except ServiceError as error:
            assert error.key == "error.bad_options"
        else:
            raise AssertionError(f"{options} was accepted")
    try:
        await service.open_lobby(
            game="cartographers",
            host_id=ALICE,
            host_name="alice",
            settings=TableSettings(seats=13),
        )
    except ServiceError as error:
        assert error.key == "error.bad_seats" and error.params == {"low": 1, "high": 12}
    else:
        raise AssertionError("13 seats were accepted")
