"""Carcassonne: Star Wars through the table service: turn-based play (one active seat,
place then deploy), AI seats, timeouts that place and deploy nothing, a restart mid-game,
the team variant's placings and refused actions."""

from __future__ import annotations

from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.clock import FakeClock
from bot.games.base import BOARD, PODIUM, REPLAY
from bot.games.carcassonne import panel as tiles
from bot.service import RuleError, ServiceError, Table, TableService, TableSettings, Update
from engine.carcassonne import DEPLOY, PLACE, Phase
from engine.carcassonne.ai import next_action, policy_for
from engine.core import Action, Rng
from tests.bot.conftest import first_choice

ALICE, BOB, CAROL, DAVE = 11, 22, 33, 44


async def open_game(
    service: TableService, humans: int = 2, ai: int = 0, **settings: object
) -> Table:
    users = [ALICE, BOB, CAROL, DAVE][:humans]
    table = await service.open_lobby(
        game="carcassonne",
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


async def play_turn(service: TableService, table_id: int, user: int, rng: Rng) -> list[Update]:
    """The active player's place and deploy actions, chosen by the random policy."""
    updates = []
    for _ in range(2):
        _, view = await service.view_for(table_id, user)
        if view.active != view.seat or view.phase is Phase.OVER:
            break
        action = next_action(policy_for("random"), view, rng)
        updates.append(await service.submit(table_id, user, action, view.turn))
        if updates[-1].resolved:
            break
    return updates


async def play_to_the_end(service: TableService, table_id: int, rng: Rng) -> list[Update]:
    updates: list[Update] = []
    for _ in range(400):
        table = await service.table(table_id)
        if table.status != "running":
            return updates
        [seat] = table.waiting_humans() or [None]
        assert seat is not None and seat.user_id is not None, "an AI seat owes a move"
        updates.extend(await play_turn(service, table_id, seat.user_id, rng))
        updates.extend(await service.play_ai_seats(table_id))
    raise AssertionError("the game did not end")


async def test_one_player_at_a_time_places_then_deploys(service: TableService) -> None:
    table = await open_game(service, humans=2)
    assert {seat.user_id: seat.seat for seat in table.seats} == {ALICE: "red", BOB: "green"}
    assert table.waiting == ("red",)
    _, green = await service.view_for(table.id, BOB)
    forged = Action(PLACE, None, {"x": 0, "y": 1, "rotation": 0})
    try:
        await service.submit(table.id, BOB, forged, green.turn)
    except RuleError as error:
        assert error.key == "error.illegal_move"
    else:
        raise AssertionError("the watching player acted out of turn")
    place, deploy = await play_turn(service, table.id, ALICE, Rng(2))
    assert not place.resolved and deploy.resolved
    table = await service.table(table.id)
    assert table.waiting == ("green",)
    kinds = [row.kind for row in await service.storage.pending_announcements(table.id)]
    assert kinds == [BOARD, BOARD], "one post a turn: the next seat's board tells it"


async def test_a_turn_confirmed_at_once_is_stored_whole_in_one_commit_or_not_at_all(
    service: TableService, db_path: Path, clock: FakeClock
) -> None:
    """Confirm plays the placement and the deployment together: one transaction holds
    both, and a deployment the rules refuse leaves the tile in hand, nothing stored. The
    turn's post, drawn by another process from what was stored, shows the game as it is."""
    table = await open_game(service, humans=2)
    _, red = await service.view_for(table.id, ALICE)
    rng = Rng(3)
    place = next_action(policy_for("random"), red, rng)
    impossible = Action(DEPLOY, "red", {"x": 40, "y": 40, "feature": "city0", "meeple": "small"})
    with pytest.raises(RuleError):
        await service.submit_all(table.id, ALICE, [place, impossible], red.turn)
    assert await service.storage.action_count(table.id) == 0
    _, unchanged = await service.view_for(table.id, ALICE)
    assert unchanged.phase is Phase.PLACE and unchanged == red

    commits = service.storage.commits
    nothing = Action(DEPLOY, "red", {})
    update = await service.submit_all(table.id, ALICE, [place, nothing], red.turn)
    assert service.storage.commits == commits + 1
    assert await service.storage.action_count(table.id) == 2
    assert update.resolved and update.table.waiting == ("green",)
    kinds = [row.kind for row in await service.storage.pending_announcements(table.id)]
    assert kinds == [BOARD, BOARD]
    other = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    try:
        *_, posted = await other.announcements(table.id)
        _, now = await other.view_for(table.id, None)
    finally:
        await other.close()
    assert posted.row.turn == now.turn == red.turn + 1 and posted.view == now


async def test_a_turns_clicks_share_one_view_and_a_move_gives_a_new_one(
    service: TableService,
) -> None:
    """A seat's view is worked out once per position (the panel's spots and previews are
    kept with it), and a stored move gives the next click the new position's view."""
    table = await open_game(service)
    _, first = await service.view_for(table.id, ALICE)
    _, again = await service.view_for(table.id, ALICE)
    _, bobs = await service.view_for(table.id, BOB)
    assert again is first and bobs is not first and bobs.seat == "green"
    panel = tiles.place_panel(first, tiles.TurnDraft())
    assert panel is not None
    assert tiles.preview(first, panel.placement) is tiles.preview(again, panel.placement)
    await service.submit(table.id, ALICE, tiles.place_action(first, panel), first.turn)
    _, placed = await service.view_for(table.id, ALICE)
    assert placed is not first and placed.phase is Phase.DEPLOY
    assert placed.board == tiles.preview(first, panel.placement).board
    _, after = await service.view_for(table.id, BOB)
    assert after is not bobs and after.phase is Phase.DEPLOY


async def test_two_people_and_an_ai_seat_play_to_the_final_scoring(
    service: TableService,
) -> None:
    table = await open_game(service, humans=2, ai=1)
    updates = await play_to_the_end(service, table.id, Rng(7))
    final = updates[-1]
    assert final.result is not None
    results = await service.storage.results(table.id)
    assert {row.seat: row.place for row in results} == dict(final.result.places)
    assert min(row.place for row in results) == 1
    kinds = [row.kind for row in await service.storage.pending_announcements(table.id)]
    assert kinds[-2:] == [PODIUM, REPLAY]


async def test_a_restart_mid_game_goes_on_from_the_stored_action(
    db_path: Path, clock: FakeClock
) -> None:
    first = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    table = await open_game(first, humans=2)
    await play_turn(first, table.id, ALICE, Rng(1))
    _, view = await first.view_for(table.id, BOB)
    place = next_action(policy_for("random"), view, Rng(2))
    assert place.kind == PLACE
    await first.submit(table.id, BOB, place, view.turn)
    _, before = await first.view_for(table.id, BOB)
    await first.close()

    second = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    _, after = await second.view_for(table.id, BOB)
    assert after == before and after.phase is Phase.DEPLOY
    await play_to_the_end(second, table.id, Rng(3))
    assert (await second.table(table.id)).status == "finished"
    await second.close()


async def test_a_timeout_places_the_tile_and_deploys_nothing(
    service: TableService, clock: FakeClock
) -> None:
    table = await open_game(service, humans=2, turn_seconds=60)
    clock.advance(61)
    updates = await service.fire_due()
    assert [update.seat for update in updates] == ["red", "red"]
    actions = await service.storage.actions(table.id)
    assert [action.kind for action in actions] == [PLACE, DEPLOY]
    assert dict(actions[1].data) == {}
    table = await service.table(table.id)
    assert table.waiting == ("green",)
    assert table.row.deadline == clock.now() + 60


async def test_the_team_variant_seats_four_in_team_order_and_shares_places(
    service: TableService,
) -> None:
    table = await open_game(service, humans=4, options={"team": True})
    order = {seat.user_id: seat.seat for seat in table.seats}
    assert [order[user] for user in (ALICE, BOB, CAROL, DAVE)] == ["red", "black", "green", "white"]
    updates = await play_to_the_end(service, table.id, Rng(5))
    places = updates[-1].result.places if updates[-1].result else {}
    assert places["red"] == places["green"] and places["black"] == places["white"]


async def test_options_that_do_not_fit_are_refused(service: TableService) -> None:
    for seats, options in (
        (3, {"team": True}),
        (2, {"unplaceable": "burn"}),
        (2, {"laps": 1}),
        (4, {"team": "maybe"}),
        (4, {"team": 1}),
    ):
        try:
            await service.open_lobby(
                game="carcassonne",
                host_id=ALICE,
                host_name="alice",
                settings=TableSettings(seats=seats, options=options),
            )
        except ServiceError as error:
            assert error.key == "error.bad_options"
        else:
            raise AssertionError(f"{options} for {seats} seats was accepted")


async def test_a_team_lobby_started_short_of_four_is_refused_and_stays_a_lobby(
    service: TableService,
) -> None:
    table = await service.open_lobby(
        game="carcassonne",
        host_id=ALICE,
        host_name="alice",
        settings=TableSettings(seats=4, options={"team": True}),
    )
    await service.join(table.id, BOB, "bob")
    try:
        await service.start(table.id, ALICE)
    except ServiceError as error:
        assert error.key == "error.options_need_seats"
    else:
        raise AssertionError("a 2-player team game started")
    assert (await service.table(table.id)).status == "lobby"


async def test_a_team_game_is_rated_as_two_teams_not_four_tied_players(
    service: TableService,
) -> None:
    table = await open_game(service, humans=4, options={"team": True})
    await play_to_the_end(service, table.id, Rng(5))
    results = {row.seat: row for row in await service.storage.results(table.id)}
    assert results["red"].team == results["green"].team != results["black"].team
    assert results["black"].team == results["white"].team
    rows = await service.storage.read(
        "SELECT player, mu, sigma FROM ratings WHERE guild_id = 1 AND game = 'carcassonne'"
    )
    rated = {row[0]: (row[1], row[2]) for row in rows}
    model = PlackettLuce()
    red_green = [model.rating(), model.rating()]
    black_white = [model.rating(), model.rating()]
    ranks = [float(results["red"].place), float(results["black"].place)]
    expected = model.rate([red_green, black_white], ranks=ranks)
    for team, seats in zip(expected, (("red", "green"), ("black", "white")), strict=True):
        for member, seat in zip(team, seats, strict=True):
            player = f"user:{results[seat].user_id}"
            assert rated[player] == pytest.approx((member.mu, member.sigma))
